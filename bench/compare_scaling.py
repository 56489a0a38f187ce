#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of --compare's scale (docs/design.md, Budgets): two run
directories of CELLS cells x TRIALS trials x KERNELS kernels, as a sweep
writes them (matrix.json; per trial its trial JSON and .kernels.json), one
collector, seeded noise; `aorta-run --compare A B --json` timed, best of
three.  Budget: 10,000 cells in under 2 s (the comparison is linear in
cells and kernels: cells found by name through an index, kernels through
each table's hash).

Usage (from the build directory): python3 ../bench/compare_scaling.py
    [--builddir DIR] [--cells N] [--trials T] [--kernels K] [--keep DIR]
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from verdicts import runner  # the real aorta-run beside libaorta.so

BUDGET_SEC = 2.0


def write_run(root, cells, trials, kernels, rng):
    names = ["kernel_%d" % k for k in range(kernels)]
    rows = []
    for c in range(cells):
        cell = "m%d-none" % c
        sub = os.path.join(root, cell, "_subprocess")
        os.makedirs(sub)
        for t in range(trials):
            totals = [round(rng.lognormvariate(0, 0.05) * (k + 1) * 0.01, 6)
                      for k in range(kernels)]
            trial = {"exit_status": "ok", "wall_clock_sec": 1.0 + rng.random() / 10,
                     "result": {"metrics": {"verdict": "pass",
                                            "bench_gpu_time_ms": round(sum(totals), 6)}}}
            with open(os.path.join(sub, "trial_d0_m0_t%d.json" % t), "w") as out:
                json.dump(trial, out)
            entry = {"names": names, "total_ms": totals, "launches": [1] * kernels}
            with open(os.path.join(sub, "trial_d0_m0_t%d.kernels.json" % t), "w") as out:
                json.dump({"schema_version": 2, "trial_index": t,
                           "collectors": {"bench": entry}}, out)
        rows.append({"name": cell, "trials": trials, "passed_count": trials})
    with open(os.path.join(root, "matrix.json"), "w") as out:
        json.dump({"schema_version": 1, "workload": "_subprocess", "ticket": "BENCH",
                   "run_timestamp": "now", "trials_per_cell": trials,
                   "baseline_cell": rows[0]["name"], "cells": rows}, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--cells", type=int, default=10000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--kernels", type=int, default=5)
    parser.add_argument("--keep", help="synthesize into this directory and keep it")
    args = parser.parse_args()
    top = args.keep or tempfile.mkdtemp(prefix="aorta-compare-bench-")
    try:
        a, b = os.path.join(top, "a"), os.path.join(top, "b")
        if not os.path.exists(a):
            rng = random.Random(7)
            write_run(a, args.cells, args.trials, args.kernels, rng)
            write_run(b, args.cells, args.trials, args.kernels, rng)
        program, env = runner(args.builddir)
        best = None
        for _ in range(3):
            started = time.perf_counter()
            done = subprocess.run([program, "--compare", a, b, "--json"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            took = time.perf_counter() - started
            if done.returncode != 0:
                sys.exit("aorta-run --compare failed: %s" % done.stderr.strip())
            best = took if best is None else min(best, took)
        met = best < BUDGET_SEC
        print("--compare of %d cells x %d trials x %d kernels: %.2f s (budget < %.0f s): %s"
              % (args.cells, args.trials, args.kernels, best, BUDGET_SEC,
                 "met" if met else "MISSED"))
        return 0 if met else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
