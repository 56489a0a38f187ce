#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the ncu collector's raw-page parse (docs/collectors/ncu.md).

Writes an Nsight Compute raw page (`ncu --csv --page raw`: a header row,
a units row, a row per launch, every field quoted, numbers grouped by
thousands) of 100,000 launches (--launches) over 200 distinct templated
kernel names, some with commas and quotes, and three metric columns, as
DIR/ncu.csv (the collector's `output: log`), then times
`aorta-run --parse ncu DIR` (best of --repeat runs), checks the launch
count and the GPU time it reports against the page's own sum, and prints
the verdict against the budget: under 0.5 s.

Usage (from the build directory): python3 ../bench/ncu_parse.py
    [--launches N] [--builddir DIR] [--repeat K]
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

BUDGET_SEC = 0.5
FIXED = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
         "Block Size", "Grid Size", "Device", "CC"]
METRICS = [("dram__bytes.sum", "byte"), ("gpu__time_duration.sum", "usecond"),
           ("launch__registers_per_thread", "register/thread")]


def quoted(row):
    return ",".join('"%s"' % f.replace('"', '""') for f in row) + "\n"


def write_page(path, launches, rng):
    names = []
    for i in range(200):
        t = rng.choice(["float", "c10::Half", "c10::BFloat16"])
        names.append(rng.choice([
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<%s>, "
            "std::array<char *, 1>>(int, T2, T3)" % t,
            "sm90_xmma_gemm_%s_tilesize128x128x32_warpgroupsize1x1x1_kernel__5x_cublas_%d" % (t, i),
            'kernel "quoted", with commas <%s, %d>' % (t, i)]) + "_%d" % i)
    total_us = 0.0
    with open(path, "w") as f:
        f.write("==PROF== Connected to process 4242 (/usr/bin/python3)\n")
        f.write(quoted(FIXED + [m for m, _ in METRICS]))
        f.write(quoted([""] * len(FIXED) + [u for _, u in METRICS]))
        for i in range(launches):
            us = round(rng.uniform(1.0, 2500.0), 2)
            total_us += us
            f.write(quoted([str(i), "4242", "python3", "h200", rng.choice(names), "1", "7",
                            "(256, 1, 1)", "(4096, 1, 1)", "0", "9.0",
                            "{:,}".format(rng.randint(1000, 90000000)), "{:,.2f}".format(us),
                            str(rng.choice([16, 32, 168]))]))
    return total_us / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=100000)
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    aorta_run = os.path.join(args.builddir, "core", "aorta-run")
    plugins = os.path.join(args.builddir, "plugins")
    work = tempfile.mkdtemp(prefix="aorta-bench-ncu-")
    try:
        page = os.path.join(work, "ncu.csv")
        want_ms = write_page(page, args.launches, random.Random(35))
        size = os.path.getsize(page)
        best = None
        for _ in range(args.repeat):
            start = time.perf_counter()
            out = subprocess.run([aorta_run, "--plugin-dir", plugins, "--parse", "ncu", work],
                                 check=True, capture_output=True, text=True).stdout
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        metrics = json.loads(out)
        got_ms = metrics["ncu_gpu_time_ms"]
        assert metrics["ncu_kernel_count"] == args.launches, metrics["ncu_kernel_count"]
        assert abs(got_ms - want_ms) <= 1e-9 * want_ms, (got_ms, want_ms)
        print("raw page: %d launches, %.1f MB" % (args.launches, size / 1e6))
        print("aorta-run --parse ncu: %.3f s (best of %d), %.0f MB/s" %
              (best, args.repeat, size / 1e6 / best))
        print("budget: < %.1f s: %s" % (BUDGET_SEC, "met" if best < BUDGET_SEC else "MISSED"))
        return 0 if best < BUDGET_SEC else 1
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
