#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the rank view at scale (docs/design.md, Budgets).

Generates a run of one multi-rank cell: 3 passing trials, each a
.kernels.json (schema 3) holding the job's table and 1,024 ranks' tables of
200 kernels each (long templated names, as report_scaling.py makes them;
rank 517 planted late in one kernel), then times `aorta-run --report DIR`:
reading every rank's table, aggregating per rank, the rank view in
matrix.json, perf.md and report.html, with peak RSS as /usr/bin/time -f %M
reports it.  Budget: < 2 s and < 256 MB.  It also checks that the view found
the planted rank, so a fast wrong answer does not pass.

Usage (from the build directory): python3 ../bench/rank_report.py
    [--ranks R] [--kernels K] [--trials T] [--builddir DIR] [--repeat N] [--keep DIR]
Needs /usr/bin/time (Debian package `time`).
"""

import argparse
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_scaling import kernel_names, time_report  # noqa: E402

BUDGET_SEC = 2.0
BUDGET_RSS_KB = 256 * 1024
LATE_RANK = 517


def generate(root, ranks, kernels, trials, seed=11):
    rng = random.Random(seed)
    names = kernel_names(kernels, rng)
    sub = os.path.join(root, "none-none", "_subprocess")
    os.makedirs(sub)
    base = [round(rng.uniform(0.01, 5.0), 6) for _ in names]
    for t in range(trials):
        with open(os.path.join(sub, "trial_d0_m0_t%d.json" % t), "w") as out:
            json.dump({"exit_status": "ok", "result": {"metrics": {"verdict": "pass"}}}, out)
        tables, job = [], [0.0] * kernels
        for r in range(ranks):
            totals = [round(ms * rng.uniform(0.97, 1.03), 6) for ms in base]
            if r == LATE_RANK:
                totals[kernels // 2] += 50.0
            for i, ms in enumerate(totals):
                job[i] += ms
            tables.append({"rank": r, "names": names, "total_ms": totals,
                           "launches": [100 + (r == LATE_RANK and i == kernels // 2)
                                        for i in range(kernels)]})
        entry = {"names": names, "total_ms": [round(ms, 6) for ms in job],
                 "launches": [100 * ranks + (i == kernels // 2) for i in range(kernels)],
                 "ranks": tables}
        with open(os.path.join(sub, "trial_d0_m0_t%d.kernels.json" % t), "w") as out:
            json.dump({"schema_version": 3, "trial_index": t, "collectors": {"rocprof": entry}},
                      out, separators=(",", ":"))
    with open(os.path.join(root, "matrix.json"), "w") as out:
        json.dump({"workload": "_subprocess", "ticket": "BENCH-RANKS", "run_timestamp": "now",
                   "baseline_cell": "none-none",
                   "cells": [{"name": "none-none", "trials": trials, "passed_count": trials,
                              "iters_display": "1/1", "step_time_source": "missing"}]}, out)
    return names[kernels // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--kernels", type=int, default=200)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", help="generate into this directory and keep it")
    args = parser.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("rank_report.py: /usr/bin/time is missing (apt-get install -y time)")
    root = args.keep or tempfile.mkdtemp(prefix="aorta-rank-bench-")
    try:
        late_kernel = generate(root, args.ranks, args.kernels, args.trials)
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)
        print("run: 1 cell x %d trials x %d ranks x %d kernels, %.1f MB of records"
              % (args.trials, args.ranks, args.kernels, size / 1e6))
        runner = os.path.join(args.builddir, "core", "aorta-run")
        best, rss = time_report(runner, root, args.repeat)
        with open(os.path.join(root, "matrix.json")) as f:
            view = json.load(f)["cells"][0]["ranks"]["rocprof"]
        found = view["slowest_rank"] == LATE_RANK and view["kernels"][0]["name"] == late_kernel
        sizes = {name: os.path.getsize(os.path.join(root, name))
                 for name in ("report.html", "perf.md", "matrix.json")}
        print("aorta-run --report: %.3f s (best of %d), peak RSS %.1f MB; %s"
              % (best, args.repeat, rss / 1024,
                 ", ".join("%s %.2f MB" % (k, v / 1e6) for k, v in sizes.items())))
        print("the view names rank %d late in the planted kernel: %s"
              % (LATE_RANK, "yes" if found else "NO"))
        ok = found and best < BUDGET_SEC and rss < BUDGET_RSS_KB
        print("budget (< %.0f s, < %d MB): %s" % (BUDGET_SEC, BUDGET_RSS_KB // 1024,
                                               "met" if ok else "MISSED"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
