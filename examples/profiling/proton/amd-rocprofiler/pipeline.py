# SPDX-License-Identifier: MIT
"""Proton's rocprofiler backend, pinned from a payload that drives Proton
itself (mode: env), on an AMD GPU: a blocked Triton matmul checked against
torch, measured after a warm-up so the capture holds exactly --iters
launches.

aorta-run passes, through an env(1) prefix, AORTA_PROTON_NAME (<dir>/proton),
AORTA_PROTON_CONTEXT, AORTA_PROTON_DATA and AORTA_PROTON_BACKEND=rocprofiler.
Standalone (no AORTA_PROTON_NAME): runs the kernel unprofiled.
"""

import argparse
import os

# Proton before torch: on AMD the other order left Proton's finaliser waiting
# forever at exit (Triton 3.8.0, rocprofiler-sdk).
import triton.profiler as proton  # noqa: I001
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, n, block: tl.constexpr):
    rows = tl.program_id(axis=0) * block + tl.arange(0, block)
    cols = tl.program_id(axis=1) * block + tl.arange(0, block)
    acc = tl.zeros((block, block), dtype=tl.float32)
    for k in range(0, n, block):
        ks = k + tl.arange(0, block)
        a = tl.load(a_ptr + rows[:, None] * n + ks[None, :])
        b = tl.load(b_ptr + ks[:, None] * n + cols[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows[:, None] * n + cols[None, :], acc)


def matmul(a, b, block=64):
    n = a.shape[0]
    c = torch.empty(n, n, device=a.device, dtype=torch.float32)
    matmul_kernel[(n // block, n // block)](a, b, c, n, block=block)
    return c


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024, help="a multiple of 64")
    parser.add_argument("--iters", type=int, default=5)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("pipeline: no GPU visible to torch")
    generator = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(args.size, args.size, device="cuda", generator=generator).half()
    b = torch.randn(args.size, args.size, device="cuda", generator=generator).half()
    matmul(a, b)  # compiles the kernel, unmeasured
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        keys = ("CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")
        proton.start(name, **{k.lower(): os.environ["AORTA_PROTON_" + k]
                              for k in keys if "AORTA_PROTON_" + k in os.environ})
    try:
        for _ in range(args.iters):
            c = matmul(a, b)
        torch.cuda.synchronize()
    finally:
        if name:
            proton.finalize()

    if not torch.allclose(c, (a.float() @ b.float()), atol=1e-1, rtol=1e-2):
        raise SystemExit("pipeline: matmul differs from torch")
    where = f"{name}.hatchet" if name else "no profile (AORTA_PROTON_NAME unset)"
    print(f"pipeline: {args.iters} launches of matmul_kernel; {where}")


if __name__ == "__main__":
    main()
