# SPDX-License-Identifier: MIT
"""Proton's roctracer backend, pinned from a payload that drives Proton
itself (mode: env), on an AMD GPU: a Triton scaled add and a torch matmul,
measured after a warm-up so the capture holds exactly --iters of each.

Pinning roctracer needs mode: env: under Proton's command front-end
(mode: cli) a pinned roctracer records an empty ROOT frame on Triton 3.7
and earlier, so aorta refuses that combination and points here.

aorta-run passes, through an env(1) prefix, AORTA_PROTON_NAME (<dir>/proton),
AORTA_PROTON_CONTEXT, AORTA_PROTON_DATA and AORTA_PROTON_BACKEND=roctracer.
Standalone (no AORTA_PROTON_NAME): runs the kernels unprofiled.
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
def axpy_kernel(x_ptr, y_ptr, out_ptr, alpha, n_elements, block: tl.constexpr):
    offsets = tl.program_id(axis=0) * block + tl.arange(0, block)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, alpha * x + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def step(x, y, m):
    out = torch.empty_like(x)
    axpy_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, 2.0, x.numel(), block=1024)
    return out, m @ m


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--iters", type=int, default=5)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("pipeline: no GPU visible to torch")
    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(args.size, device="cuda", generator=generator)
    y = torch.rand(args.size, device="cuda", generator=generator)
    m = torch.rand(512, 512, device="cuda", generator=generator)
    step(x, y, m)  # compiles the kernel, unmeasured
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        keys = ("CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")
        proton.start(name, **{k.lower(): os.environ["AORTA_PROTON_" + k]
                              for k in keys if "AORTA_PROTON_" + k in os.environ})
    try:
        for _ in range(args.iters):
            out, _ = step(x, y, m)
        torch.cuda.synchronize()
    finally:
        if name:
            proton.finalize()

    if not torch.allclose(out, 2.0 * x + y):
        raise SystemExit("pipeline: axpy differs from torch")
    where = f"{name}.hatchet" if name else "no profile (AORTA_PROTON_NAME unset)"
    print(f"pipeline: {args.iters} iterations of axpy_kernel + matmul; {where}")


if __name__ == "__main__":
    main()
