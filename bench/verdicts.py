#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Power bench of the gate (issue 32, deliverable 5; docs/design.md,
Statistics): how often `aorta-run --compare A B` exits 0 (passed), 3 (failed)
or 4 (no verdict) at the sizes people run.

Synthesis: pairs of run directories as a sweep writes them (matrix.json; per
trial its trial JSON and .kernels.json), 6 cells, one collector "proton".
Each cell has the kernel mix of the H200 fixture
tests/collectors/proton/fixtures/h200_verdicts (its runs a and a2, two runs
of one payload): every kernel's share of the GPU time and its coefficient of
variation are read from it.  Each kernel of each trial gets its own seeded
lognormal factor of mean 1; the kernels' CVs are scaled by one factor so that
the GPU time (the sum of the kernels, as the collector reports it) has the
CV asked for.  A shift multiplies every kernel of B's shifted cells; an
outlier (where asked) multiplies a whole trial by 1 + U(0, 0.6).

Judging: each pair by `aorta-run --compare A B --json` at the defaults
(alpha 0.01, delta 5%), as a CI runs it; the exit statuses are counted.  Two
comparisons run at once (the machine's two cores); the real binary is run
when libtool made a wrapper (core/.libs/aorta-run).

Requirements (exit 1 when one is missed), and the search for the n a side at
which an A/A exits 0 in 90% at CV 1%, 3% and 5% (the README's trial advice).

Usage (from the build directory): nice -n 19 python3 ../bench/verdicts.py
    [--builddir DIR] [--srcdir DIR] [--reps N] [--seed S] [--quick]
    [--mix fixture|issue] [--no-search] [--keep DIR]
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

CELLS = 6
GPU_TIME_MS = 0.068          # the fixture's GPU time per trial
FIXTURE = "tests/collectors/proton/fixtures/h200_verdicts"
ISSUE_MIX = [  # the issue's rounded reading: (name, share, CV at a GPU-time CV of 1%)
    ("add_kernel", 0.68, 0.01), ("distribution_kernel", 0.20, 0.015),
    ("reduce_kernel", 0.08, 0.02), ("abs_kernel", 0.034, 0.05),
    ("buffer_fill_kernel", 0.006, 0.20)]
OUTLIER_RATE, OUTLIER_MAX = 0.05, 0.60

# Scenarios: (label, CV, n a side, shift of B, cells shifted, outliers,
#             [(exit status, ">=" or "<=", share)])
SCENARIOS = [
    ("A/A", 0.01, 5, 0.0, 0, False, [(0, ">=", 0.99), (3, "<=", 0.01)]),
    ("+10% in every cell", 0.01, 5, 0.10, CELLS, False, [(3, ">=", 0.99)]),
    ("+6% in one cell of six", 0.01, 6, 0.06, 1, False, [(3, ">=", 0.95)]),
    ("+10% in every cell", 0.03, 5, 0.10, CELLS, False, [(3, ">=", 0.95)]),
    ("+10% in one cell", 0.03, 5, 0.10, 1, False, [(3, ">=", 0.50), (0, "<=", 0.001)]),
    ("A/A", 0.03, 5, 0.0, 0, False, [(3, "<=", 0.01)]),
    ("+10% in one cell", 0.03, 8, 0.10, 1, False, [(3, ">=", 0.95)]),
    ("+10% in every cell", 0.03, 5, 0.10, CELLS, True, [(3, ">=", 0.90)]),
    ("A/A", 0.03, 5, 0.0, 0, True, [(3, "<=", 0.01)]),
]
SEARCH = [(0.01, 4, 4), (0.03, 17, 14), (0.05, 43, 37)]  # CV, formula, plan's simulation
SEARCH_TARGET = 0.90
SEARCH_PROBES = [3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128]


# ---- The kernel mix --------------------------------------------------------

def fixture_mix(srcdir):
    """(name, share, CV) of each kernel of the fixture's A/A runs, with the
    CVs scaled to a GPU-time CV of 1% (independent kernels)."""
    series = {}
    totals = []
    for side in ("a", "a2"):
        sub = os.path.join(srcdir, FIXTURE, side, "none-none", "_subprocess")
        if not os.path.isdir(sub):
            sys.exit("verdicts.py: no fixture at %s (--srcdir?)" % sub)
        for name in sorted(os.listdir(sub)):
            if not name.endswith(".kernels.json"):
                continue
            with open(os.path.join(sub, name)) as f:
                entry = json.load(f)["collectors"]["proton"]
            totals.append(sum(entry["total_ms"]))
            for kernel, total in zip(entry["names"], entry["total_ms"]):
                series.setdefault(kernel, {}).setdefault(side, []).append(total)
    grand = sum(totals) / len(totals)
    mix = []
    for kernel, sides in series.items():
        values = [v for side in sides.values() for v in side]
        mean = sum(values) / len(values)
        cvs = []  # within each run, so that the runs' own offset stays out
        for side in sides.values():
            m = sum(side) / len(side)
            var = sum((v - m) ** 2 for v in side) / (len(side) - 1)
            cvs.append(math.sqrt(var) / m)
        mix.append((kernel, mean / grand, math.sqrt(sum(c * c for c in cvs) / len(cvs))))
    mix.sort(key=lambda k: -k[1])
    return normalized(mix)


def normalized(mix):
    """Shares summing to 1 and CVs scaled to a GPU-time CV of 1%."""
    total = sum(share for _, share, _ in mix)
    mix = [(name, share / total, cv) for name, share, cv in mix]
    gpu_cv = math.sqrt(sum((share * cv) ** 2 for _, share, cv in mix))
    return [(name, share, cv * 0.01 / gpu_cv) for name, share, cv in mix]


# ---- Synthesis: run directories --------------------------------------------

def cell_name(c):
    return "cell%d-none" % c


def write_run(root, trials, mix):
    """A run directory whose cell c, trial t has kernel totals trials[c][t]."""
    names = [name for name, _, _ in mix]
    cells = []
    for c, rows in enumerate(trials):
        sub = os.path.join(root, cell_name(c), "_subprocess")
        os.makedirs(sub)
        for t, totals in enumerate(rows):
            gpu = round(sum(totals), 9)
            trial = {"exit_status": "ok", "warmup": False,
                     "result": {"passed": True,
                                "metrics": {"verdict": "pass", "proton_gpu_time_ms": gpu,
                                            "proton_kernel_count": len(names)}}}
            with open(os.path.join(sub, "trial_d0_m0_t%d.json" % t), "w") as out:
                json.dump(trial, out)
            entry = {"names": names, "total_ms": totals, "launches": [1] * len(names)}
            with open(os.path.join(sub, "trial_d0_m0_t%d.kernels.json" % t), "w") as out:
                json.dump({"schema_version": 2, "trial_index": t,
                           "collectors": {"proton": entry}}, out)
        cells.append({"name": cell_name(c), "trials": len(rows), "passed_count": len(rows),
                      "iters_display": "1/1", "step_time_source": "missing"})
    with open(os.path.join(root, "matrix.json"), "w") as out:
        json.dump({"schema_version": 1, "workload": "_subprocess", "ticket": "BENCH",
                   "run_timestamp": "now", "trials_per_cell": len(trials[0]),
                   "baseline_cell": cell_name(0), "cells": cells}, out)


def lognormal(rng, cv):
    """A lognormal factor of mean 1 and this CV."""
    sigma = math.sqrt(math.log(1.0 + cv * cv))
    return rng.lognormvariate(-sigma * sigma / 2.0, sigma)


def draw_side(rng, mix, cv, n, shift, shifted, outliers):
    """Per cell, n trials' kernel totals; the first `shifted` cells times 1 + shift."""
    scale = cv / 0.01
    cells = []
    for c in range(CELLS):
        factor = 1.0 + shift if c < shifted else 1.0
        rows = []
        for _ in range(n):
            trial = factor
            if outliers and rng.random() < OUTLIER_RATE:
                trial *= 1.0 + rng.uniform(0.0, OUTLIER_MAX)
            rows.append([round(GPU_TIME_MS * share * trial * lognormal(rng, kcv * scale), 9)
                         for _, share, kcv in mix])
        cells.append(rows)
    return cells


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


GATES = {"passed": 0, "failed": 3, "no verdict": 4}


def finished(process, root, keep):
    """The exit status of one comparison, checked against its JSON's gate."""
    out, err = process.communicate()
    status = process.returncode
    if status not in (0, 3, 4):
        sys.exit("verdicts.py: aorta-run --compare exited %d: %s" % (status, err.strip()))
    gate = json.loads(out)["gate"]
    if gate["exit_status"] != status or GATES[gate["outcome"]] != status:
        sys.exit("verdicts.py: exit %d but the JSON's gate says %s (%d)"
                 % (status, gate["outcome"], gate["exit_status"]))
    if not keep:
        shutil.rmtree(root, ignore_errors=True)
    return status


def measure(ctx, cv, n, shift, shifted, outliers):
    """Exit status counts of ctx.reps comparisons, two running at once."""
    program, env = ctx.program
    counts = {0: 0, 3: 0, 4: 0}
    running = []
    for rep in range(ctx.reps):
        ctx.serial += 1
        root = os.path.join(ctx.top, "c%06d" % ctx.serial)
        write_run(os.path.join(root, "a"),
                  draw_side(ctx.rng, ctx.mix, cv, n, 0.0, 0, outliers), ctx.mix)
        write_run(os.path.join(root, "b"),
                  draw_side(ctx.rng, ctx.mix, cv, n, shift, shifted, outliers), ctx.mix)
        if len(running) == 2:
            process, done = running.pop(0)
            counts[finished(process, done, ctx.keep)] += 1
        running.append((subprocess.Popen(
            [program, "--compare", os.path.join(root, "a"), os.path.join(root, "b"), "--json"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), root))
    for process, done in running:
        counts[finished(process, done, ctx.keep)] += 1
    return counts


# ---- Figures ---------------------------------------------------------------

def shares(counts):
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def check(share, op, need):
    return share >= need if op == ">=" else share <= need


def scenario_lines(ctx):
    ok = True
    for label, cv, n, shift, shifted, outliers, requirements in SCENARIOS:
        started = time.perf_counter()
        counts = measure(ctx, cv, n, shift, shifted, outliers)
        share = shares(counts)
        print("CV %d%%, n=%d%s, %s: exit 0 %.1f%%, 3 %.1f%%, 4 %.1f%% (%d reps, %.0f s)"
              % (round(cv * 100), n, ", 5% outliers" if outliers else "", label,
                 100 * share[0], 100 * share[3], 100 * share[4], ctx.reps,
                 time.perf_counter() - started))
        for status, op, need in requirements:
            met = check(share[status], op, need)
            print("    exit %d in %.1f%% (requirement %s %g%%): %s"
                  % (status, 100 * share[status], op, 100 * need, "PASS" if met else "MISS"))
            ok &= met
        sys.stdout.flush()
    return ok


def search(ctx, cv, start):
    """The smallest n a side whose A/A exits 0 in SEARCH_TARGET, searched
    upward (the probes, then halving the last step), and the rates seen."""
    seen = {}

    def rate(n):
        if n not in seen:
            seen[n] = shares(measure(ctx, cv, n, 0.0, 0, False))[0]
        return seen[n]

    below = None
    for n in [p for p in SEARCH_PROBES if p >= start]:
        if n > ctx.max_n:
            return None, below, seen
        if rate(n) >= SEARCH_TARGET:
            low = below if below is not None else n
            high = n
            while not ctx.quick and high - low > 1:
                mid = (low + high) // 2
                if rate(mid) >= SEARCH_TARGET:
                    high = mid
                else:
                    low = mid
            return high, below, seen
        below = n
    return None, below, seen


def search_lines(ctx):
    print("n a side at which an A/A exits 0 in %d%% (searched upward from 3):"
          % (100 * SEARCH_TARGET))
    start = 3
    found = []
    for cv, formula, plan in SEARCH:
        started = time.perf_counter()
        n, below, seen = search(ctx, cv, start)
        rates = ", ".join("n=%d %.1f%%" % (k, 100 * v) for k, v in sorted(seen.items()))
        if n is None:
            print("  CV %d%%: above %d (%s)" % (round(cv * 100), ctx.max_n, rates))
        elif ctx.quick and below is not None and n - below > 1:
            print("  CV %d%%: n in %d..%d, not narrowed (--quick; %s)"
                  % (round(cv * 100), below + 1, n, rates))
            start = n
        else:
            print("  CV %d%%: n = %d (formula about %d, the plan's simulation about %d; %s; %.0f s)"
                  % (round(cv * 100), n, formula, plan, rates, time.perf_counter() - started))
            start = n
        found.append(n)
        sys.stdout.flush()
    return found


class Context:
    pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--srcdir", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--reps", type=int, help="comparisons per figure (default 1000)")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--quick", action="store_true",
                        help="50 reps (unless --reps), n search bracketed only, n <= 24")
    parser.add_argument("--mix", choices=("fixture", "issue"), default="fixture",
                        help="the fixture's kernels (default) or the issue's rounded mix")
    parser.add_argument("--no-search", action="store_true",
                        help="the scenarios only, not the search for n")
    parser.add_argument("--keep", help="synthesize into this directory and keep it")
    args = parser.parse_args()
    ctx = Context()
    ctx.reps = args.reps or (50 if args.quick else 1000)
    ctx.quick = args.quick
    ctx.max_n = 24 if args.quick else SEARCH_PROBES[-1]
    ctx.rng = random.Random(args.seed)
    ctx.mix = fixture_mix(args.srcdir) if args.mix == "fixture" else normalized(ISSUE_MIX)
    ctx.program = runner(args.builddir)
    ctx.keep = bool(args.keep)
    ctx.serial = 0
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    ctx.top = args.keep or tempfile.mkdtemp(prefix="aorta-verdicts-bench-", dir=shm)
    print("verdicts: %d reps a figure, seed %d, %d cells, alpha 0.01, delta 5%%, %s"
          % (ctx.reps, args.seed, CELLS, os.path.basename(ctx.program[0])))
    print("kernel mix (%s; share, CV at a GPU-time CV of 1%%):" % args.mix)
    for name, share, cv in ctx.mix:
        print("  %5.1f%%  CV %5.2f%%  %s" % (100 * share, 100 * cv,
                                             name if len(name) <= 60 else name[:57] + "..."))
    sys.stdout.flush()
    started = time.perf_counter()
    try:
        ok = scenario_lines(ctx)
        if not args.no_search:
            search_lines(ctx)
    finally:
        if not args.keep:
            shutil.rmtree(ctx.top, ignore_errors=True)
    print("verdicts: %s (%.0f s)" % ("every requirement met" if ok else "a requirement MISSED",
                                    time.perf_counter() - started))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
