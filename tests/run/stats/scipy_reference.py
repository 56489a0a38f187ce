#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The statistics module held to its references, case by case.

- Mann-Whitney U: 10,000 random sample pairs (sizes 2-30 per side, half of
  them with ties) plus sizes up to 200 on one side of the exact test,
  against scipy.stats.mannwhitneyu(a, b, alternative="two-sided",
  method="auto"): U equal, p within 1e-9.
- The Hodges-Lehmann effect and its 95% interval against a plain
  re-computation: every pairwise difference sorted, the interval's count
  from the exact U distribution in integers.
- fsum, mean and pstdev against math.fsum, statistics.mean (exact
  fractions, correctly rounded) and statistics.pstdev (the same, within 2
  units in the last place).

Cases come from a fixed seed; the C side is stats_driver, fed on stdin.
Exits 77 when scipy is missing.  Usage: scipy_reference.py DRIVER
"""

import math
import statistics
import subprocess
import sys
from fractions import Fraction

try:
    import numpy as np
    from scipy.stats import mannwhitneyu
except ImportError:
    print("SKIP: scipy is not installed (Debian: python3-scipy)")
    sys.exit(77)

SEED = 20260521
P_TOLERANCE = 1e-9


def mwu_cases(rng):
    """(a, b) pairs: sizes 2-30, continuous or tied, shifted by up to 50%."""
    cases = []
    for index in range(10000):
        n_a, n_b = (int(v) for v in rng.integers(2, 31, size=2))
        shift = 1.0 + rng.uniform(-0.5, 0.5) * rng.choice([0.0, 0.1, 1.0])
        if index % 2:
            levels = int(rng.integers(2, 12))
            a = rng.integers(0, levels, size=n_a).astype(float)
            b = np.round(rng.integers(0, levels, size=n_b) * shift)
        else:
            sigma = rng.uniform(0.01, 0.5)
            a = rng.lognormal(math.log(10.0), sigma, size=n_a)
            b = rng.lognormal(math.log(10.0), sigma, size=n_b) * shift
        cases.append(([float(v) for v in a], [float(v) for v in b]))
    # The exact test with a large side.
    for _ in range(60):
        n_a, n_b = int(rng.integers(1, 9)), int(rng.integers(31, 201))
        a = rng.lognormal(0.0, 0.2, size=n_a) * rng.uniform(0.8, 1.3)
        b = rng.lognormal(0.0, 0.2, size=n_b)
        pair = ([float(v) for v in a], [float(v) for v in b])
        cases.append(pair if rng.integers(0, 2) else pair[::-1])
    return cases


def line(mode, a, b):
    return " ".join([mode, str(len(a)), str(len(b))] + [repr(v) for v in a + b])


def run_driver(driver, lines):
    done = subprocess.run([driver], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit("FAIL: stats_driver exited %d: %s" % (done.returncode, done.stderr.strip()))
    out = done.stdout.splitlines()
    if len(out) != len(lines):
        sys.exit("FAIL: stats_driver answered %d of %d cases" % (len(out), len(lines)))
    return [row.split() for row in out]


def check_mwu(driver, rng):
    cases = mwu_cases(rng)
    rows = run_driver(driver, [line("mwu", a, b) for a, b in cases])
    failures, worst, counts = 0, 0.0, {"exact": 0, "asymptotic": 0, "tied": 0}
    for (a, b), (u, p, exact) in zip(cases, rows):
        ref = mannwhitneyu(a, b, alternative="two-sided", method="auto")
        counts["exact" if exact == "1" else "asymptotic"] += 1
        counts["tied"] += len(set(a + b)) < len(a + b)
        error = abs(float(p) - float(ref.pvalue))
        worst = max(worst, error)
        if float(u) != float(ref.statistic) or not error <= P_TOLERANCE:
            failures += 1
            if failures <= 5:
                print("FAIL mwu a=%r b=%r: U %s p %s, scipy U %r p %r"
                      % (a, b, u, p, ref.statistic, ref.pvalue))
    print("mwu: %d cases (%d exact, %d normal approximation, %d with ties); "
          "largest |p - scipy| %.3g" % (len(cases), counts["exact"], counts["asymptotic"],
                                         counts["tied"], worst))
    # Both branches must have been tried for the comparison to mean anything.
    if counts["exact"] < 1000 or counts["asymptotic"] < 1000:
        print("FAIL: too few cases of one branch")
        failures += 1
    return failures


def u_counts(m, n, kmax):
    """Arrangements with U = 0..kmax, exactly (Python integers)."""
    counts = [1] + [0] * kmax
    for i in range(1, min(m, n) + 1):
        stride = max(m, n) + i
        for k in range(kmax, stride - 1, -1):
            counts[k] -= counts[k - stride]
        for k in range(i, kmax + 1):
            counts[k] += counts[k - i]
    return counts


def critical(m, n):
    """The largest C with P(U <= C - 1) <= 0.025, exactly."""
    total, below = math.comb(m + n, m), 0
    for k, count in enumerate(u_counts(m, n, m * n // 2)):
        below += count
        if Fraction(below, total) > Fraction(1, 40):
            return k
    return m * n // 2 + 1


def effect_reference(a, b):
    log_scale = all(v > 0 for v in a + b)
    x = sorted(math.log(v) if log_scale else v for v in a)
    y = sorted(math.log(v) if log_scale else v for v in b)
    diffs = sorted(yj - xi for xi in x for yj in y)
    count = len(diffs)
    if count % 2:
        median = diffs[count // 2]
    else:
        median = (diffs[count // 2 - 1] + diffs[count // 2]) / 2.0
    c = critical(len(a), len(b))
    low = diffs[c - 1] if c else -math.inf
    high = diffs[count - c] if c else math.inf
    sorted_a = sorted(a)
    k = (len(a) - 1) * 0.5
    base = abs(sorted_a[math.floor(k)] + (sorted_a[math.ceil(k)] - sorted_a[math.floor(k)])
               * (k - math.floor(k)))

    def pct(d):
        if log_scale:
            return 100.0 * math.expm1(d)
        if base > 0:
            return 100.0 * d / base
        return 0.0 if d == 0 else math.copysign(math.inf, d)
    absolute = base * math.expm1(median) if log_scale else median
    return [pct(median), pct(low), pct(high), absolute, int(log_scale)]


def close(x, y):
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= 1e-12 * max(1.0, abs(y))


def effect_cases(rng):
    cases = []
    for index in range(2025):
        low, top = (2, 31) if index < 2000 else (65, 73)  # past 4,096 pairs: the bisection
        n_a, n_b = (int(v) for v in rng.integers(low, top, size=2))
        a = rng.lognormal(1.0, 0.1, size=n_a)
        b = rng.lognormal(1.0, 0.1, size=n_b) * rng.uniform(0.8, 1.25)
        if index % 5 == 0:  # zeros and negatives: a shift, not a ratio
            a, b = a - 2.8, b - 2.8
        if index % 7 == 0:
            a, b = np.round(a, 1), np.round(b, 1)
        cases.append(([float(v) for v in a], [float(v) for v in b]))
    return cases


def check_effect(driver, rng):
    cases = effect_cases(rng)
    rows = run_driver(driver, [line("effect", a, b) for a, b in cases])
    failures, shifts = 0, 0
    for (a, b), row in zip(cases, rows):
        got = [float(v) for v in row[:4]] + [int(row[4])]
        ref = effect_reference(a, b)
        shifts += not ref[4]
        if got[4] != ref[4] or not all(close(g, r) for g, r in zip(got[:4], ref[:4])):
            failures += 1
            if failures <= 5:
                print("FAIL effect a=%r b=%r: %r, reference %r" % (a, b, got, ref))
    print("effect: %d cases (%d as shifts), every estimate and interval as recomputed"
          % (len(cases), shifts) if not failures else "effect: %d failures" % failures)
    return failures


def summary_cases(rng):
    cases = []
    for index in range(2000):
        n = int(rng.integers(1, 40))
        kind = index % 4
        if kind == 0:  # identical samples
            cases.append([float(round(rng.uniform(0, 100), int(rng.integers(0, 4))))] * n)
        elif kind == 1:  # milliseconds to 3 places
            cases.append([round(float(v), 3) for v in rng.lognormal(2.0, 0.5, size=n)])
        elif kind == 2:  # wide range
            cases.append([float(v) for v in rng.lognormal(0.0, 10.0, size=n)])
        else:  # cancellation
            big = float(rng.uniform(1e15, 1e16))
            cases.append([big, 1.0 + float(rng.uniform()), -big] + [0.1] * n)
    return cases


def check_summary(driver, rng):
    cases = summary_cases(rng)
    rows = run_driver(driver, [line("summary", x, []) for x in cases])
    failures = 0
    for x, row in zip(cases, rows):
        fsum, mean, pstdev = (float(v) for v in row)
        ref_std = statistics.pstdev(x)
        ok = (fsum == math.fsum(x) and mean == statistics.mean(x)
              and abs(pstdev - ref_std) <= 2 * math.ulp(ref_std))
        if len(set(x)) == 1:
            ok = ok and pstdev == 0.0 and mean == x[0]
        if not ok:
            failures += 1
            if failures <= 5:
                print("FAIL summary %r: %r, reference %r %r %r"
                      % (x, row, math.fsum(x), statistics.mean(x), ref_std))
    print("summary: %d cases, fsum and mean exact, pstdev within 2 ulp" % len(cases)
          if not failures else "summary: %d failures" % failures)
    return failures


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rng = np.random.default_rng(SEED)
    failures = check_mwu(sys.argv[1], rng)
    failures += check_effect(sys.argv[1], rng)
    failures += check_summary(sys.argv[1], rng)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
