#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The statistics module held to its references, case by case.

- Welch's t on log values: 10,000 random sample pairs (sizes 2-30 per
  side, spreads from 0.1% to 50%, shifted by up to 50%, some with zeros
  or negatives, where the raw values are tested) against
  scipy.stats.ttest_ind(log b, log a, equal_var=False): t within 1e-9
  relative, p within 1e-9; the effect and its 98% interval against the
  ratio of geometric means and scipy's t quantile (stdtrit, itself good to
  about 1e-9), within 1e-7 relative or 1e-6 percentage points.
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

try:
    import numpy as np
    from scipy.stats import t as student_t
    from scipy.stats import ttest_ind
except ImportError:
    print("SKIP: scipy is not installed (Debian: python3-scipy)")
    sys.exit(77)

SEED = 20261207
P_TOLERANCE = 1e-9
LEVEL = 0.98


def welch_cases(rng):
    """(a, b) pairs: sizes 2-30, lognormal, a few with zeros or negatives."""
    cases = []
    for index in range(10000):
        n_a, n_b = (int(v) for v in rng.integers(2, 31, size=2))
        sigma = float(rng.choice([0.001, 0.01, 0.03, 0.1, 0.5]))
        shift = 1.0 + rng.uniform(-0.5, 0.5) * rng.choice([0.0, 0.05, 1.0])
        a = rng.lognormal(math.log(10.0), sigma, size=n_a)
        b = rng.lognormal(math.log(10.0), sigma * rng.uniform(0.5, 2.0), size=n_b) * shift
        if index % 10 == 0:  # a shift on raw values
            a, b = a - 10.0, b - 10.0
        cases.append(([float(v) for v in a], [float(v) for v in b]))
    return cases


def welch_reference(a, b):
    log_scale = all(v > 0 for v in a + b)
    x = np.log(a) if log_scale else np.array(a)
    y = np.log(b) if log_scale else np.array(b)
    result = ttest_ind(y, x, equal_var=False)
    va, vb = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    df = (va + vb) ** 2 / (va ** 2 / (len(x) - 1) + vb ** 2 / (len(y) - 1))
    diff, se = y.mean() - x.mean(), math.sqrt(va + vb)
    half = student_t.isf((1 - LEVEL) / 2, df) * se
    base = abs(x.mean())
    floor = -100.0 if min(a + b) >= 0 else -math.inf

    def pct(d):
        if log_scale:
            return 100.0 * math.expm1(d)
        return max(floor, 100.0 * d / base)
    return (float(result.statistic), float(result.pvalue), df,
            pct(diff), pct(diff - half), pct(diff + half), int(log_scale))


def close(x, y, relative, absolute):
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= max(relative * abs(y), absolute)


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


def check_welch(driver, rng):
    cases = welch_cases(rng)
    rows = run_driver(driver, [line("welch", a, b) for a, b in cases])
    failures, worst, raw = 0, 0.0, 0
    for (a, b), row in zip(cases, rows):
        got = [float(v) for v in row[:6]] + [int(row[6])]
        ref = welch_reference(a, b)
        raw += not ref[6]
        worst = max(worst, abs(got[1] - ref[1]))
        # The interval's ends inherit stdtrit's error near a crossing of 0:
        # 1e-7 relative or 1e-6 percentage points.
        ok = (got[6] == ref[6] and close(got[0], ref[0], 1e-9, 1e-9)
              and abs(got[1] - ref[1]) <= P_TOLERANCE and close(got[2], ref[2], 1e-9, 0)
              and all(close(g, r, 1e-7, 1e-6) for g, r in zip(got[3:6], ref[3:6])))
        if not ok:
            failures += 1
            if failures <= 5:
                print("FAIL welch a=%r b=%r: %r, scipy %r" % (a, b, got, ref))
    print("welch: %d cases (%d on raw values); largest |p - scipy| %.3g"
          % (len(cases), raw, worst))
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
    failures = check_welch(sys.argv[1], rng)
    failures += check_summary(sys.argv[1], rng)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
