#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the rocprof collector's kernel-trace parse (docs/design.md, Budgets).

Generates a rocprofv3 kernel-trace CSV (default 2,000,000 rows, about
460 MB: the current 22-column header, rocprofv3's quoting -- strings quoted,
numbers bare, no escaping -- and about 200 distinct long templated kernel
names), then, in one run and from page cache:

  * times the C parser, `aorta-run --parse rocprof DIR`, with peak RSS as /usr/bin/time -f %M reports it;
  * times an upstream-style aggregation in Python (csv.DictReader over the
    same file, the docs/design.md trace pass);
  * checks both produced the same metrics, and prints MB/s, peak RSS and the
    verdict against the budget: >= 1 GB/s, >= 20x Python, RSS < 64 MB.

Usage (from the build directory): python3 ../bench/rocprof_parse.py [--rows N]
    [--builddir DIR] [--keep DIR] [--repeat K]
Needs /usr/bin/time (Debian package `time`).
"""

import argparse
import csv
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HEADER = ('"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id",'
          '"Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp","LDS_Block_Size",'
          '"Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Workgroup_Size_X",'
          '"Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X","Grid_Size_Y","Grid_Size_Z"\n')

BUDGET_BYTES_PER_SEC = 1e9
BUDGET_SPEEDUP = 20.0
BUDGET_RSS_KB = 64 * 1024


def kernel_names(count, rng):
    """Long templated names of the shapes PyTorch/rocBLAS/hipBLASLt traces show."""
    dtypes = ["float", "c10::Half", "c10::BFloat16", "double", "int", "long"]
    functors = ["CUDAFunctor_add<{t}>", "MulFunctor<{t}>", "sigmoid_kernel_cuda(at::TensorIteratorBase&)::{{lambda({t})#1}}",
                "AbsFunctor<{t}>", "FillFunctor<{t}>", "BinaryFunctor<{t}, {t}, {t}, at::native::binary_internal::DivFunctor<{t}> >"]
    names = []
    while len(names) < count:
        kind = rng.randrange(11)
        t = rng.choice(dtypes)
        if kind >= 4:
            names.append(rng.choice(["__amd_rocclr_fillBufferAligned", "__amd_rocclr_copyBuffer",
                                     "sgemm_tiled(float const*, float const*, float*, int)",
                                     "void layer_norm_kernel<%s>(%s const*, %s*, int)" % (t, t, t),
                                     "ncclDevKernel_Generic_%d(ncclDevKernelArgsStorage<4096ul>)"
                                     % rng.randint(1, 4)]) + "_%d" % rng.randint(0, 99))
        elif kind == 0:
            f = rng.choice(functors).format(t=t)
            names.append("void at::native::vectorized_elementwise_kernel<%d, at::native::%s, "
                         "at::detail::Array<char*, %d> >(int, at::native::%s, at::detail::Array<char*, %d>)"
                         % (rng.choice([2, 4, 8]), f, rng.randint(2, 4), f, rng.randint(2, 4)))
        elif kind == 1:
            names.append("Cijk_Ailk_Bljk_%sS_BH_MT%dx%dx%d_MI%dx%dx%dx1_SN_1LDSB%d_GRVW%d_GSU1_K1_"
                         "TT%d_%d_VW%d_WG%d_%d_1_WGM%d"
                         % (rng.choice("HBS"), *(rng.choice([64, 128, 256]) for _ in range(2)),
                            rng.choice([16, 32, 64]), *(rng.choice([16, 32]) for _ in range(3)),
                            rng.randint(0, 1), rng.choice([4, 8]), rng.randint(1, 8),
                            rng.randint(1, 8), rng.choice([1, 2, 4]), rng.choice([16, 32]),
                            rng.choice([4, 8, 16]), rng.randint(1, 16)))
        elif kind == 2:
            names.append("void at::native::(anonymous namespace)::cunn_SoftMaxForward<%d, %s, %s, %s, "
                         "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(%s*, %s const*, int)"
                         % (rng.choice([4, 8]), t, t, t, t, t))
        else:
            names.append("void at::native::reduce_kernel<%d, %d, at::native::ReduceOp<%s, "
                         "at::native::func_wrapper_t<%s, at::native::sum_functor<%s, %s, %s>::operator()"
                         "(at::TensorIterator&)::{lambda(%s, %s)#1}>, unsigned int, %s, 4> >"
                         "(at::native::ReduceOp<%s, at::native::func_wrapper_t<%s, %s>, unsigned int, %s, 4>)"
                         % (rng.choice([128, 256, 512]), rng.choice([2, 4]), t, t, t, t, t, t, t, t,
                            t, t, t, t))
        names = list(dict.fromkeys(names))
    rng.shuffle(names)
    return names


def generate(path, rows, seed=7):
    rng = random.Random(seed)
    names = kernel_names(200, rng)
    # A training-step-like mix: few kernels dominate, many are rare.
    weights = [1.0 / math.sqrt(i + 1) for i in range(len(names))]
    timestamp = 1434937317843317
    with open(path, "w", newline="") as out:
        out.write(HEADER)
        batch = []
        picks = rng.choices(range(len(names)), weights=weights, k=rows)
        for i in range(rows):
            k = picks[i]
            duration = 2000 + (k * 7919 + i) % 50000
            start = timestamp
            timestamp += duration + 1000
            batch.append('"KERNEL_DISPATCH","Agent 2",1,0,4170503,%d,%d,"%s",%d,%d,%d,'
                         '2048,0,20,0,32,256,1,1,%d,1,1\n'
                         % (i + 1, k + 11, names[k], i + 1, start, start + duration,
                            256 * (1 + k % 64)))
            if len(batch) == 10000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch))


def python_parse(path):
    """Upstream's trace pass (docs/design.md) plus the derived metrics."""
    ns, calls = {}, {}
    with open(path, newline="", encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            kind = (row.get("Kind") or "").strip()
            if kind and kind != "KERNEL_DISPATCH":
                continue
            name = (row.get("Kernel_Name") or "").strip()
            try:
                start = float(str(row.get("Start_Timestamp")).strip())
                end = float(str(row.get("End_Timestamp")).strip())
            except (TypeError, ValueError):
                continue
            if not name or not math.isfinite(start) or not math.isfinite(end) or end < start:
                continue
            ns[name] = ns.get(name, 0.0) + (end - start)
            calls[name] = calls.get(name, 0) + 1
    ranked = sorted(ns.items(), key=lambda item: item[1], reverse=True)
    return {
        "rocprof_kernel_count": sum(calls.values()),
        "rocprof_gpu_time_ms": sum(ns.values()) / 1e6,
        "rocprof_top_kernel_ms": ranked[0][1] / 1e6,
        "rocprof_top_kernels": [name for name, _ in ranked[:5]],
    }


def c_command(builddir, capture):
    aorta_run = os.path.join(builddir, "core", "aorta-run")
    plugins = os.path.join(builddir, "plugins")
    return [aorta_run, "--plugin-dir", plugins, "--parse", "rocprof", capture], "aorta-run --parse"


def run_c(command):
    """Wall seconds, peak RSS in kB, metrics."""
    fd, rss_file = tempfile.mkstemp()
    os.close(fd)
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command,
                          capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - started
    with open(rss_file) as f:
        rss = int(f.read().strip().splitlines()[-1])
    os.unlink(rss_file)
    return elapsed, rss, json.loads(done.stdout)


def same_metrics(c, py):
    for key, value in py.items():
        got = c.get(key)
        if isinstance(value, float):
            if not isinstance(got, float) or abs(got - value) > 1e-9 * max(1.0, abs(value)):
                return False
        elif got != value:
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--keep", help="generate into (and keep) this directory")
    parser.add_argument("--repeat", type=int, default=3, help="C runs; the best counts")
    args = parser.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("rocprof_parse.py: /usr/bin/time is missing (apt-get install -y time)")

    capture = args.keep or tempfile.mkdtemp(prefix="aorta-bench-rocprof-")
    os.makedirs(capture, exist_ok=True)
    path = os.path.join(capture, "aorta_kernel_trace.csv")
    try:
        if not os.path.exists(path):
            print("generating %d rows into %s ..." % (args.rows, path), flush=True)
            generate(path, args.rows)
        size = os.path.getsize(path)
        with open(path, "rb") as f:  # into page cache
            while f.read(1 << 24):
                pass

        command, label = c_command(os.path.abspath(args.builddir), capture)
        best = None
        for _ in range(max(1, args.repeat)):
            result = run_c(command)
            if best is None or result[0] < best[0]:
                best = result
        c_seconds, c_rss, c_metrics = best

        started = time.perf_counter()
        py_metrics = python_parse(path)
        py_seconds = time.perf_counter() - started

        c_rate = size / c_seconds
        speedup = py_seconds / c_seconds
        print("file:    %s, %d rows, %.1f MB, %d distinct kernels"
              % (path, args.rows, size / 1e6, len(set(kernel_names(200, random.Random(7))))))
        print("C:       %s" % label)
        print("         %.3f s  %.0f MB/s  peak RSS %.1f MB" % (c_seconds, c_rate / 1e6, c_rss / 1024))
        print("Python:  csv.DictReader aggregation %.3f s  %.1f MB/s" % (py_seconds, size / py_seconds / 1e6))
        print("speedup: %.1fx" % speedup)
        agree = same_metrics(c_metrics, py_metrics)
        print("metrics: %s" % ("identical" if agree else "DIFFER: C %s, Python %s" % (c_metrics, py_metrics)))
        verdicts = [
            ("throughput >= 1 GB/s", c_rate >= BUDGET_BYTES_PER_SEC),
            ("speedup >= 20x", speedup >= BUDGET_SPEEDUP),
            ("peak RSS < 64 MB", c_rss < BUDGET_RSS_KB),
            ("same metrics as Python", agree),
        ]
        for name, ok in verdicts:
            print("  %-24s %s" % (name, "PASS" if ok else "FAIL"))
        ok = all(ok for _, ok in verdicts)
        print("budget: %s" % ("PASS" if ok else "FAIL"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(capture, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
