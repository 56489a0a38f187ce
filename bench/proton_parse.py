#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark the proton collector's .hatchet parse (docs/design.md, Budgets).

Generates synthetic `context: python` profiles -- Proton's tree format,
Python frames ("file.py:line@function") nested up to 60 deep with kernels
at the leaves -- then times, in the same run and on the same page-cached
file, side by side:

  * the collector end to end: `aorta-run --parse proton DIR` (the streaming
    reader in the child aorta-run parses in, metrics back as JSON);
  * the streaming reader alone, through bench/proton_readers (the same code,
    in one process: its peak RSS is the reader's own);
  * the json-c reader the streaming one is tested against (the whole value
    and its walk), through bench/proton_readers;
  * Python's json.load plus upstream's leaf walk, in a python3 subprocess.

Profiles: `indent`, about 60 MB laid out as Proton writes it (4-space
indentation, sorted keys); `compact`, about 57 MB without whitespace (a
stress figure: ~15x the frames per MB); `large`, about 1 GB laid out as
Proton writes it, with 100,000 distinct kernel names (--large-mb, 0 to skip).

Each reader runs --repeat times; the best wall time gives the throughput,
/usr/bin/time -f %M the peak RSS (the largest seen).  Budgets (exit status
1 when one is missed, or when the readers disagree):
  indent   >= 1 GB/s and >= 4x Python;
  compact  >= 500 MB/s and >= 8x Python;
  every profile: peak RSS of the streaming reader <= 64 MiB, whatever its
  size (aorta-run's own, printed beside it, adds what the parse child's
  reply of a large kernel table costs the core on both sides).

usage: proton_parse.py --builddir DIR [--size-mb 60] [--large-mb 1000]
                       [--repeat 5] [--keep]
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

BUDGETS = {
    # profile: (minimum MB/s, minimum times Python's speed)
    "indent": (1000.0, 4.0),
    "compact": (500.0, 8.0),
    "large": (None, None),
}
MAX_RSS_MIB = 64.0

PYTHON_WALK = r'''
import json, math, sys
UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
def time_ms(metrics):
    for key, value in metrics.items():
        head, _, tail = key.partition("(")
        if head.strip().lower() != "time":
            continue
        factor = UNITS.get(tail.rstrip(")").strip().lower())
        if factor is None:
            continue
        try:
            ms = float(value) * factor
        except (TypeError, ValueError, OverflowError):
            continue
        if math.isfinite(ms) and ms >= 0:
            return ms
    return None
def count(metrics):
    try:
        value = float(metrics["count"])
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    return int(value) if math.isfinite(value) and value >= 0 else None
def walk(root, by_name, counts):
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        children = node.get("children")
        children = children if isinstance(children, list) else []
        if children:
            stack.extend(reversed(children))
            continue
        frame, metrics = node.get("frame"), node.get("metrics")
        if not isinstance(frame, dict) or not isinstance(metrics, dict):
            continue
        name = str(frame.get("name") or "").strip()
        ms = time_ms(metrics)
        if not name or ms is None:
            continue
        by_name[name] = by_name.get(name, 0.0) + ms
        c, previous = count(metrics), counts.get(name, 0)
        counts[name] = None if c is None or previous is None else previous + c
with open(sys.argv[1], encoding="utf-8") as stream:
    data = json.load(stream)
by_name, counts = {}, {}
for root in data if isinstance(data, list) else [data]:
    walk(root, by_name, counts)
print(json.dumps({"launches": sum(counts.values()), "gpu_ms": sum(by_name.values()),
                  "kernels": len(by_name)}))
'''

FILES = [f"/workspace/model/{name}.py" for name in
         ("train", "model", "layers", "attention", "mlp", "data", "optim", "utils")]
FUNCTIONS = ["forward", "backward", "step", "__call__", "_call_impl", "run", "apply",
             "inner", "compute", "wrapper"]
BASE_KERNELS = [
    "add_kernel", "matmul_kernel", "softmax_kernel", "layer_norm_fwd", "gelu_kernel",
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EEEEviT0_T1_",
    "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfNS0_13MaxNanFunctorIfEEEEjfLi4ELi4EEEEEvT1_",
    "attention_fwd_kernel", "rms_norm_kernel", "rotary_embedding_kernel",
]


def kernel_names(count):
    """count distinct names, Triton- and PyTorch-like."""
    names = list(BASE_KERNELS[:count])
    for i in range(len(names), count):
        names.append(f"{BASE_KERNELS[i % len(BASE_KERNELS)][:40]}_v{i}")
    return names


def frame_name(site, level):
    return (f"{FILES[site % len(FILES)]}:{10 + (site * 37 + level) % 900}"
            f"@{FUNCTIONS[(site + level) % len(FUNCTIONS)]}")


class Writer:
    """Proton's tree written out as it is generated, never held whole: the
    keys sorted as Proton's writer sorts them, 4-space indentation or none."""

    def __init__(self, out, indent):
        self.out, self.indent = out, indent
        self.size = 0

    def put(self, text):
        self.out.write(text)
        self.size += len(text)

    def pad(self, level):
        return ("\n" + " " * (4 * level)) if self.indent else ""

    def sep(self):
        return ": " if self.indent else ":"

    def kernel(self, rng, kernels):
        """Every name in turn, in a fresh random order each round."""
        if not getattr(self, "order", None):
            self.order = list(kernels)
            rng.shuffle(self.order)
        return self.order.pop()

    def node(self, rng, level, depth, kernels, budget):
        p, s = self.pad, self.sep()
        self.put("{" + p(level + 1) + '"children"' + s + "[")
        if level == depth:
            kernel = self.kernel(rng, kernels)
            self.put("]," + p(level + 1) + '"frame"' + s + "{" + p(level + 2)
                     + '"name"' + s + json.dumps(kernel) + "," + p(level + 2) + '"type"' + s
                     + '"function"' + p(level + 1) + "}," + p(level + 1) + '"metrics"' + s + "{"
                     + p(level + 2) + '"count"' + s + str(rng.randint(1, 8)) + ","
                     + p(level + 2) + '"device_id"' + s + '"0",' + p(level + 2)
                     + '"device_type"' + s + '"CUDA",' + p(level + 2) + '"time (ns)"' + s
                     + str(rng.randint(1000, 90000)) + p(level + 1) + "}" + p(level) + "}")
            return
        # Chains of Python frames, branching now and then, and near the
        # kernels at the leaves.
        fanout = rng.choice((1, 2, 3, 4)) if depth - level <= 3 else 1 + (rng.random() < 0.05)
        for i in range(fanout):
            if self.size >= budget and i > 0:
                break
            self.put(("," if i else "") + p(level + 2))
            self.node(rng, level + 1, depth, kernels, budget)
        site = rng.randrange(2 + level * 3)
        self.put(p(level + 1) + "]," + p(level + 1) + '"frame"' + s + "{" + p(level + 2)
                 + '"name"' + s + json.dumps(frame_name(site, level)) + "," + p(level + 2)
                 + '"type"' + s + '"function"' + p(level + 1) + "}," + p(level + 1)
                 + '"metrics"' + s + "{}" + p(level) + "}")


def write_profile(path, size_mb, indent, kernel_count, seed=0):
    """A ROOT frame over call stacks until the file reaches size_mb."""
    rng = random.Random(seed)
    kernels = kernel_names(kernel_count)
    budget = int(size_mb * 1e6)
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        w = Writer(out, indent)
        p, s = w.pad, w.sep()
        w.put(("\n" if indent else "") + "[" + p(1) + "{" + p(2) + '"children"' + s + "[")
        first = True
        while w.size < budget:
            w.put(("" if first else ",") + p(3))
            first = False
            w.node(rng, 3, 3 + rng.randint(17, 57), kernels, budget)
        w.put(p(2) + "]," + p(2) + '"frame"' + s + "{" + p(3) + '"name"' + s + '"ROOT",' + p(3)
              + '"type"' + s + '"function"' + p(2) + "}," + p(2) + '"metrics"' + s + "{" + p(3)
              + '"count"' + s + "0," + p(3) + '"time (ns)"' + s + "0" + p(2) + "}" + p(1) + "},"
              + p(1) + '{"CUDA"' + s + '{"0"' + s + '{"arch"' + s + '"90","num_sms"' + s
              + "132}}}" + p(0) + "]" + ("\n" if indent else ""))
        return w.size


def timed(argv, repeat):
    """Best wall time, largest peak RSS (KiB) and the last stdout of argv."""
    best, peak, stdout = None, 0, ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, capture_output=True,
                              text=True, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"bench: {' '.join(argv)} failed:\n{done.stderr}")
        peak = max(peak, int(done.stderr.strip().splitlines()[-1]))
        best = elapsed if best is None else min(best, elapsed)
        stdout = done.stdout
    return best, peak, stdout


def summary_of(metrics):
    """The collector's reply as the other readers print theirs."""
    return {"launches": metrics.get("proton_kernel_count"),
            "gpu_ms": metrics.get("proton_gpu_time_ms")}


def agree(a, b):
    return (a["launches"] == b["launches"] and a["gpu_ms"] is not None and b["gpu_ms"] is not None
            and abs(a["gpu_ms"] - b["gpu_ms"]) <= 1e-9 * abs(b["gpu_ms"]))


def measure(args, work, name, size_mb, indent, kernels, repeat):
    """Time the three readers on one profile; True when it is within budget."""
    artifact_dir = os.path.join(work, name)
    os.mkdir(artifact_dir)
    profile = os.path.join(artifact_dir, "proton.hatchet")
    size = write_profile(profile, size_mb, indent, kernels)
    mb = size / 1e6
    with open(profile, "rb") as stream:  # into the page cache
        while stream.read(1 << 24):
            pass
    layout = "4-space indentation, as Proton writes it" if indent else "no whitespace (stress)"
    print(f"\n{name}: {mb:.1f} MB, {layout}, {kernels} distinct kernel names")
    aorta_run = os.path.join(args.builddir, "core", "aorta-run")
    readers = [
        ("aorta-run --parse proton (stream)",
         [aorta_run, "--plugin-dir", os.path.join(args.builddir, "plugins"), "--parse", "proton",
          artifact_dir]),
        ("streaming reader alone",
         [os.path.join(args.builddir, "bench", "proton_readers"), "stream", profile]),
        ("json-c whole value + walk",
         [os.path.join(args.builddir, "bench", "proton_readers"), "json-c", profile]),
        ("python json.load + walk", [args.python, "-c", PYTHON_WALK, profile]),
    ]
    results = []
    for label, argv in readers:
        seconds, rss, out = timed(argv, repeat)
        got = json.loads(out)
        results.append((label, seconds, rss, summary_of(got) if "proton_artifact_dir" in got
                        else got))
    python_seconds = results[-1][1]
    for label, seconds, rss, _ in results:
        print(f"  {label:36s} {seconds * 1000:8.0f} ms {mb / seconds:8.1f} MB/s "
              f"{python_seconds / seconds:6.2f}x Python  peak RSS {rss / 1024:8.1f} MiB")
    stream, alone = results[0], results[1]
    same = all(agree(stream[3], other[3]) for other in results[1:])
    print(f"  metrics agree: {'yes' if same else 'NO'} (launches {stream[3]['launches']}, "
          f"{alone[3]['kernels']} kernels)")
    mbps, speedup = mb / stream[1], python_seconds / stream[1]
    min_mbps, min_speedup = BUDGETS[name]
    checks = [(alone[2] / 1024 <= MAX_RSS_MIB,
               f"streaming reader's peak RSS <= {MAX_RSS_MIB:.0f} MiB"),
              (stream[2] / 1024 <= MAX_RSS_MIB,
               f"aorta-run --parse's peak RSS <= {MAX_RSS_MIB:.0f} MiB")]
    if min_mbps:
        checks.append((mbps >= min_mbps, f">= {min_mbps:.0f} MB/s"))
        checks.append((speedup >= min_speedup, f">= {min_speedup:.0f}x Python"))
    for passed, what in checks:
        print(f"  budget {what}: {'PASS' if passed else 'FAIL'}")
    return same and all(passed for passed, _ in checks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", required=True)
    parser.add_argument("--size-mb", type=float, default=60.0)
    parser.add_argument("--large-mb", type=float, default=1000.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the Python timed against (default: Debian's)")
    parser.add_argument("--keep", action="store_true", help="keep the generated profiles")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="aorta-bench-proton-")
    try:
        results = [measure(args, work, "indent", args.size_mb, True, 10, args.repeat),
                   measure(args, work, "compact", args.size_mb * 0.95, False, 10, args.repeat)]
        if args.large_mb > 0:
            results.append(measure(args, work, "large", args.large_mb, True, 100000, 1))
        if args.keep:
            print(f"kept {work}")
        return 0 if all(results) else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
