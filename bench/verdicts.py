#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the verdicts (docs/design.md, Statistics): how often they
are wrong, how often they find a real change, and whether the interval
holds the true effect.

Synthesis: pairs of run directories as a sweep writes them (matrix.json;
per trial its trial JSON and .kernels.json, one collector "rocprof" with
five kernels), one cell each, 10 passing trials per side; every trial's
kernels share one seeded lognormal factor, so the cell's GPU time (the sum
of its kernels) has exactly the coefficient of variation asked for, and B's
factor carries the true shift.

Judging: each pair compared by `aorta-run --compare A B --json`, as a user's
gate runs it; the figures are read off the cell's rocprof GPU time (lower is
better, alpha 0.01, threshold 5%): its verdict, effect and interval.  Two
comparisons run at once (the machine's two cores); the real binary is run
when the build tree has it (core/.libs/aorta-run), not libtool's wrapper.

Figures, each a budget (exit 1 when one is missed):
  A/A at CV 5%:          regressed or improved in at most 1.5%
  +10% at CV 3%:         regressed in at least 95%
  +10% at CV 5%:         the power, printed (the U test's own limit there is
                         about 85% at alpha 0.01)
  every scenario:        the 95% interval holds the true effect in at least 90%

Usage (from the build directory): python3 ../bench/verdicts.py
    [--builddir DIR] [--comparisons N] [--trials T] [--seed S] [--keep DIR]
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

KERNELS = [("gemm_kernel", 0.55), ("softmax_kernel", 0.2), ("layernorm_kernel", 0.12),
           ("elementwise_add", 0.08), ("reduce_kernel", 0.05)]
GPU_TIME_MS = 12.0
SCENARIOS = [  # name, CV, true shift of B, what is required
    ("A/A, CV 5%", 0.05, 0.0, "false"),
    ("+10%, CV 3%", 0.03, 0.10, "detect"),
    ("+10%, CV 5%", 0.05, 0.10, "power"),
]
FALSE_MAX = 0.015
DETECT_MIN = 0.95
COVERAGE_MIN = 0.90


# ---- Synthesis: run directories -------------------------------------------

def write_run(root, factors):
    """A run directory of one cell whose trial t ran with factors[t]."""
    cell = "none-none"
    sub = os.path.join(root, cell, "_subprocess")
    os.makedirs(sub)
    names = [name for name, _ in KERNELS]
    for t, factor in enumerate(factors):
        totals = [round(GPU_TIME_MS * share * factor, 6) for _, share in KERNELS]
        trial = {"exit_status": "ok", "warmup": False,
                 "result": {"metrics": {"verdict": "pass",
                                        "rocprof_gpu_time_ms": round(sum(totals), 6)}}}
        with open(os.path.join(sub, "trial_d0_m0_t%d.json" % t), "w") as out:
            json.dump(trial, out)
        entry = {"names": names, "total_ms": totals, "launches": [1] * len(names)}
        with open(os.path.join(sub, "trial_d0_m0_t%d.kernels.json" % t), "w") as out:
            json.dump({"schema_version": 2, "trial_index": t,
                       "collectors": {"rocprof": entry}}, out)
    with open(os.path.join(root, "matrix.json"), "w") as out:
        json.dump({"schema_version": 1, "workload": "_subprocess", "ticket": "BENCH",
                   "run_timestamp": "now", "trials_per_cell": len(factors),
                   "baseline_cell": cell,
                   "cells": [{"name": cell, "trials": len(factors),
                              "passed_count": len(factors), "iters_display": "1/1",
                              "step_time_source": "missing"}]}, out)


def synthesize(root, rng, cv, shift, comparisons, trials):
    """comparisons pairs (A, B) of run directories under root."""
    sigma = math.sqrt(math.log(1.0 + cv * cv))  # a lognormal of this CV
    mu = -sigma * sigma / 2.0                   # and mean 1
    pairs = []
    for c in range(comparisons):
        a, b = os.path.join(root, "a%04d" % c), os.path.join(root, "b%04d" % c)
        write_run(a, [rng.lognormvariate(mu, sigma) for _ in range(trials)])
        write_run(b, [rng.lognormvariate(mu, sigma) * (1.0 + shift) for _ in range(trials)])
        pairs.append((a, b))
    return pairs


# ---- Judging ---------------------------------------------------------------

def runner(builddir):
    """aorta-run and its environment: the real binary beside libaorta.so."""
    real = os.path.join(builddir, "core", ".libs", "aorta-run")
    env = dict(os.environ)
    if os.path.exists(real):
        lib = os.path.join(builddir, "core", "libaorta", ".libs")
        env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"]
                                        if env.get("LD_LIBRARY_PATH") else "")
        return real, env
    return os.path.join(builddir, "core", "aorta-run"), env


def headline(text):
    """The rocprof GPU time's measure of the one cell of a comparison."""
    comparison = json.loads(text)
    for measure in comparison["cells"][0]["measures"]:
        if measure["measure"] == "gpu_time_ms" and measure["collector"] == "rocprof":
            return measure
    sys.exit("verdicts.py: no rocprof GPU time in the comparison")


def judge(builddir, pairs):
    """The verdict, effect and interval of the GPU time of each (A, B)."""
    program, env = runner(builddir)
    results = []
    for start in range(0, len(pairs), 2):
        running = [subprocess.Popen([program, "--compare", a, b, "--json"], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for a, b in pairs[start:start + 2]]
        for process in running:
            out, err = process.communicate()
            if process.returncode != 0:
                sys.exit("verdicts.py: aorta-run --compare failed: %s" % err.strip())
            m = headline(out)
            results.append({"verdict": m["verdict"], "effect_pct": m["effect_pct"],
                            "ci_low_pct": m["ci_low_pct"] if m["ci_low_pct"] is not None
                            else -math.inf,
                            "ci_high_pct": m["ci_high_pct"] if m["ci_high_pct"] is not None
                            else math.inf,
                            "trials_needed": m["trials_needed"] or 0})
    return results


# ---- Figures ---------------------------------------------------------------

def figures(results, shift):
    count = len(results)
    share = {v: sum(r["verdict"] == v for r in results) / count
             for v in ("regressed", "improved", "unchanged", "inconclusive")}
    truth = 100.0 * shift
    covered = sum(r["ci_low_pct"] <= truth <= r["ci_high_pct"] for r in results) / count
    needed = sorted(r["trials_needed"] for r in results if r["verdict"] == "inconclusive")
    return share, covered, needed[len(needed) // 2] if needed else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--comparisons", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--keep", help="synthesize into this directory and keep it")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    top = args.keep or tempfile.mkdtemp(prefix="aorta-verdicts-bench-")
    ok = True
    try:
        for index, (name, cv, shift, role) in enumerate(SCENARIOS):
            started = time.perf_counter()
            pairs = synthesize(os.path.join(top, "s%d" % index), rng, cv, shift,
                               args.comparisons, args.trials)
            written = time.perf_counter()
            results = judge(args.builddir, pairs)
            judged = time.perf_counter()
            share, covered, needed = figures(results, shift)
            line = "%-12s n=%d/side, %d comparisons: regressed %.1f%%, improved %.1f%%, " \
                   "unchanged %.1f%%, inconclusive %.1f%%; 95%% interval holds the true " \
                   "effect in %.1f%%" % (name, args.trials, len(results),
                                        100 * share["regressed"], 100 * share["improved"],
                                        100 * share["unchanged"], 100 * share["inconclusive"],
                                        100 * covered)
            print(line + " (%.1f s synthesis, %.2f s judging)" % (written - started,
                                                                   judged - written))
            if needed:
                print("  inconclusive ones ask for a median of %d trials per side" % needed)
            if role == "false":
                wrong = share["regressed"] + share["improved"]
                met = wrong <= FALSE_MAX
                print("  A/A regressed or improved: %.1f%% (budget <= %.1f%%): %s"
                      % (100 * wrong, 100 * FALSE_MAX, "met" if met else "MISSED"))
                ok &= met
            elif role == "detect":
                met = share["regressed"] >= DETECT_MIN
                print("  regressed: %.1f%% (budget >= %.0f%%): %s"
                      % (100 * share["regressed"], 100 * DETECT_MIN, "met" if met else "MISSED"))
                ok &= met
            else:
                print("  power: %.1f%% regressed (the U test's own limit here: about 85%%)"
                      % (100 * share["regressed"]))
            met = covered >= COVERAGE_MIN
            print("  coverage: %.1f%% (budget >= %.0f%% at a nominal 95%%): %s"
                  % (100 * covered, 100 * COVERAGE_MIN, "met" if met else "MISSED"))
            ok &= met
        print("verdicts: %s" % ("every budget met" if ok else "a budget MISSED"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
