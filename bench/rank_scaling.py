#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How the parse of a launcher run grows with its ranks (docs/multi-rank.md,
Cost at scale).

For each rank count, a collector directory as a launcher run leaves it:
rocprof/rank<k>/ for k < R, each written by the rocprofv3 stand-in
(examples/no-gpu/rocm/rocprofv3) for a rank that dispatched KERNELS
kernels CALLS times each (so every rank has its own kernel trace, agent info
and summary).  Then `aorta-run --parse rocprof DIR`, which does what a
sweep does after a launcher trial: one parse of the whole directory (the
five merged metrics) and one parse child per rank<k>/ (the four per-rank
keys), with AORTA_PARSE_JOBS=1 (serial) and with one job per CPU
(parallel).  Each figure is the best of --repeat runs, page cache warm.

  python3 bench/rank_scaling.py --builddir BUILD [--ranks 1,2,8,64]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def best_of(repeat, argv, env):
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, json.loads(out.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--builddir", default=os.path.join(here, ".."))
    parser.add_argument("--ranks", default="1,2,8,64")
    parser.add_argument("--kernels", type=int, default=20)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    aorta = os.path.join(args.builddir, "core", "aorta-run")
    plugins = os.path.join(args.builddir, "plugins")
    standin = os.path.join(here, "..", "examples", "no-gpu", "rocm", "rocprofv3")
    cpus = os.cpu_count() or 1
    work = tempfile.mkdtemp(prefix="aorta-rank-scaling-")
    base_env = dict(os.environ, AORTA_PLUGIN_SYSTEM_PATH="")
    rows = []
    try:
        for ranks in [int(r) for r in args.ranks.split(",")]:
            top = os.path.join(work, f"r{ranks}", "rocprof")
            for k in range(ranks):
                # Rank k's work differs a little, as real ranks' does.
                kernels = "\n".join(f"{args.calls}:{1000 + 10 * k + i}:kernel_{i}"
                                    for i in range(args.kernels))
                subprocess.run([sys.executable, standin, "-d", os.path.join(top, f"rank{k}"),
                                "-o", "aorta", "--output-format", "csv", "--kernel-trace",
                                "-S", "--summary-output-file", "rocprof_summary", "--", "true"],
                               env=dict(base_env, AORTA_FAKE_KERNELS=kernels), check=True,
                               capture_output=True)
            files = sum(len(f) for _, _, f in os.walk(top))
            size = sum(os.path.getsize(os.path.join(d, n)) for d, _, f in os.walk(top) for n in f)
            argv = [aorta, "--plugin-dir", plugins, "--parse", "rocprof", top]
            one = [aorta, "--plugin-dir", plugins, "--parse", "rocprof", os.path.join(top, "rank0")]
            t_one, _ = best_of(args.repeat, one, base_env)
            t_serial, serial = best_of(args.repeat, argv, dict(base_env, AORTA_PARSE_JOBS="1"))
            t_par, par = best_of(args.repeat, argv, dict(base_env, AORTA_PARSE_JOBS=str(cpus)))
            keys = ("rocprof_gpu_time_ms", "rocprof_rank_count", "rocprof_ranks_with_data",
                    "rocprof_gpu_time_ms_rank_min", "rocprof_gpu_time_ms_rank_max")
            same = all(serial.get(k) == par.get(k) for k in keys)
            rows.append((ranks, files, size, t_one, t_serial, t_par, same,
                         serial.get("rocprof_rank_count")))
    finally:
        shutil.rmtree(work)

    print(f"rank scaling: {args.kernels} kernels x {args.calls} calls per rank "
          f"({args.kernels * args.calls} trace rows), {cpus} CPU(s), best of {args.repeat}")
    print("| ranks | files | bytes | one rank's parse (ms) | whole + per-rank, serial (ms) | "
          "whole + per-rank, parallel (ms) | serial == parallel |")
    print("|---:|---:|---:|---:|---:|---:|:---:|")
    ok = True
    for ranks, files, size, t_one, t_serial, t_par, same, count in rows:
        print(f"| {ranks} | {files} | {size} | {t_one * 1e3:.1f} | {t_serial * 1e3:.1f} | "
              f"{t_par * 1e3:.1f} | {'yes' if same else 'NO'} |")
        ok = ok and same and count == ranks
    print("verdict:", "ok (merge identical, every rank counted)" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
