# SPDX-License-Identifier: MIT
"""PyTorch GEMMs, the payload of the rocprof torch-matmul example.

Multiplies two random square matrices --iters times on the GPU (after three
warm-up products that let the BLAS library pick its kernel), checks a few
rows against a float32 product, and prints one line per figure.  On ROCm the
products run as hipBLASLt/rocBLAS kernels named `Cijk_*`, which the recipe's
kernel_include_regex keeps in rocprof's summary.

Standalone: python3 matmul.py [--size N] [--iters K] [--dtype float16|bfloat16|float32]
Exits 0 when the check passes, 1 when it does not, 2 without a GPU.
"""

import argparse
import sys

import torch

TOLERANCE = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-3}
WARMUPS = 3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--dtype", choices=sorted(TOLERANCE), default="float16")
    args = parser.parse_args()
    if args.size < 1 or args.iters < 1:
        parser.error("--size and --iters must be positive")
    if not torch.cuda.is_available():
        print("matmul: PyTorch sees no GPU", file=sys.stderr)
        return 2

    runtime = f"hip {torch.version.hip}" if torch.version.hip else f"cuda {torch.version.cuda}"
    print(f"matmul: device={torch.cuda.get_device_name()} runtime={runtime}")
    print(f"matmul: size={args.size} iters={args.iters} dtype={args.dtype}")

    dtype = getattr(torch, args.dtype)
    generator = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(args.size, args.size, device="cuda", dtype=dtype, generator=generator)
    b = torch.randn(args.size, args.size, device="cuda", dtype=dtype, generator=generator)

    for _ in range(WARMUPS):
        c = torch.matmul(a, b)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(args.iters):
        c = torch.matmul(a, b)
    stop.record()
    stop.synchronize()
    mean_ms = start.elapsed_time(stop) / args.iters

    rows = min(8, args.size)
    want = a[:rows].float() @ b.float()
    error = ((c[:rows].float() - want).abs().max() / want.abs().max().clamp(min=1.0)).item()
    print(f"matmul: mean_ms={mean_ms:.4f} tflops={2 * args.size ** 3 / (mean_ms * 1e9):.2f}")
    print(f"matmul: max_rel_err={error:.3e}")
    ok = error < TOLERANCE[args.dtype]
    print(f"matmul: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
