#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the kernel reports (docs/design.md, Budgets).

Generates a run directory of 1,000 cells x 3 passing trials with 200 kernels
per trial (long templated, mostly mangled names; each trial JSON with the
verdict, each .kernels.json with the table as a sweep writes it, a
matrix.json naming the cells),
then times `aorta-run --report DIR` -- reading every trial record,
aggregating per cell, writing 1,000 <cell>/kernels.json, perf.md and
report.html -- with peak RSS as /usr/bin/time -f %M reports it, twice: run
again over the same directory (the tables already there are left as they
are), and with every <cell>/kernels.json removed first (all written, as at
the end of a sweep).  The verdict against the budget (< 1 s, < 100 MB)
takes the slower.

Usage (from the build directory): python3 ../bench/report_scaling.py
    [--cells N] [--trials T] [--kernels K] [--builddir DIR] [--keep DIR] [--repeat R]
    [--schema 1|2]  (the .kernels.json layout: 2, as a sweep writes it, by default;
                     1 for a run written before it, still read)
    [--env-vars V]  (variables in each trial JSON's environment, 150 by default)
    [--budget-sec S] [--budget-mb M]  (0: no budget on that figure)
`make bench-report-cells` is the same with 100,000 cells x 1 trial x 5
kernels, one run each way, against 1 GB of peak RSS alone (the issue's
"--report of 10^5 cells under 1 GB").
Needs /usr/bin/time (Debian package `time`).
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

BUDGET_SEC = 1.0
BUDGET_RSS_KB = 100 * 1024


def kernel_names(count, rng):
    names = []
    for i in range(count):
        if i % 4 == 3:
            names.append("triton_poi_fused_%d_kernel" % i)
        else:
            functor = "Functor%dIfEE" % i
            names.append("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_%d%sSt5arrayIPcLm3EEEEviT0_T1_"
                         % (len(functor) - 3, functor))
    rng.shuffle(names)
    return names


def generate(root, cells, trials, kernels, schema, env_vars=150, seed=7):
    rng = random.Random(seed)
    names = kernel_names(kernels, rng)
    matrix_cells = []
    for c in range(cells):
        cell = "m%04d-none" % c
        sub = os.path.join(root, cell, "_subprocess")
        os.makedirs(sub)
        for t in range(trials):
            # About the size of a real trial JSON (4.5 KB: environment, argv, paths).
            trial = {"exit_status": "ok", "result": {"metrics": {"verdict": "pass"}},
                     "environment": {"VAR_%03d" % v: "value-%d" % v for v in range(env_vars)}}
            with open(os.path.join(sub, "trial_d0_m0_t%d.json" % t), "w") as out:
                json.dump(trial, out)
            rows = [(round(rng.uniform(0.01, 5.0), 6), rng.randint(1, 400)) for _ in names]
            if schema == 1:  # a run written before schema 2: an object of pairs
                entry = {"kernels": {name: list(rows[i]) for i, name in enumerate(names)}}
            else:
                entry = {"names": names, "total_ms": [row[0] for row in rows],
                         "launches": [row[1] for row in rows]}
            with open(os.path.join(sub, "trial_d0_m0_t%d.kernels.json" % t), "w") as out:
                json.dump({"schema_version": schema, "trial_index": t,
                           "collectors": {"rocprof": entry}}, out, separators=(",", ":"))
        matrix_cells.append({"name": cell, "trials": trials, "passed_count": trials,
                             "iters_display": "1/1", "step_time_source": "missing"})
    with open(os.path.join(root, "matrix.json"), "w") as out:
        json.dump({"workload": "_subprocess", "ticket": "BENCH", "run_timestamp": "now",
                   "baseline_cell": matrix_cells[0]["name"], "cells": matrix_cells}, out)


def time_report(runner, root, repeat, before=None):
    """Best wall time of `aorta-run --report root` over repeat runs (before()
    first, untimed) and the largest peak RSS in KB."""
    best, rss = None, 0
    for _ in range(repeat):
        if before:
            before()
        rss_file = os.path.join(root, ".rss")
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, runner,
                               "--report", root], capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            sys.exit("aorta-run --report failed: %s" % done.stderr)
        with open(rss_file) as f:
            rss = max(rss, int(f.read().split()[-1]))
        best = elapsed if best is None else min(best, elapsed)
    return best, rss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--kernels", type=int, default=200)
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--keep", help="generate into this directory and keep it")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--schema", type=int, choices=(1, 2), default=2,
                        help=".kernels.json schema: 2 as a sweep writes it, 1 as runs before it")
    parser.add_argument("--env-vars", type=int, default=150)
    parser.add_argument("--budget-sec", type=float, default=BUDGET_SEC)
    parser.add_argument("--budget-mb", type=float, default=BUDGET_RSS_KB / 1024)
    args = parser.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("report_scaling.py: /usr/bin/time is missing (apt-get install -y time)")
    root = args.keep or tempfile.mkdtemp(prefix="aorta-report-bench-")
    try:
        if not os.path.exists(os.path.join(root, "matrix.json")):
            generate(root, args.cells, args.trials, args.kernels, args.schema, args.env_vars)
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)
        print("run: %d cells x %d trials x %d kernels, %.1f MB of records (.kernels.json "
              "schema %d)" % (args.cells, args.trials, args.kernels, size / 1e6, args.schema))
        runner = os.path.join(args.builddir, "core", "aorta-run")
        def remove_tables():
            for cell in os.listdir(root):
                path = os.path.join(root, cell, "kernels.json")
                if os.path.exists(path):
                    os.unlink(path)

        # Again over the same run (the tables already there are left as
        # they are), and with every table to write (as after a sweep).
        again, rss = time_report(runner, root, args.repeat)
        fresh, rss_fresh = time_report(runner, root, args.repeat, remove_tables)
        rss = max(rss, rss_fresh)
        best = max(again, fresh)
        html = os.path.getsize(os.path.join(root, "report.html"))
        perf = os.path.getsize(os.path.join(root, "perf.md"))
        print("aorta-run --report: %.3f s again over the run, %.3f s writing every "
              "kernels.json (best of %d each), peak RSS %.1f MB; report.html %.1f MB, "
              "perf.md %.1f MB" % (again, fresh, args.repeat, rss / 1024, html / 1e6,
                                   perf / 1e6))
        ok = ((not args.budget_sec or best < args.budget_sec)
              and (not args.budget_mb or rss < args.budget_mb * 1024))
        print("budget (%s, %s): %s" % ("< %g s" % args.budget_sec if args.budget_sec else "no time",
                                       "< %g MB" % args.budget_mb if args.budget_mb else "no RSS",
                                       "met" if ok else "MISSED"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
