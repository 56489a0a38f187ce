# SPDX-License-Identifier: MIT
"""Proton's instrumentation backend from a payload that drives Proton itself
(mode: env): a Triton kernel compiled with Proton's instrumentation while the
session is active, launched --iters times after a plain warm-up.

aorta-run passes, through an env(1) prefix, AORTA_PROTON_NAME (<dir>/proton),
AORTA_PROTON_CONTEXT, AORTA_PROTON_DATA, AORTA_PROTON_BACKEND=instrumentation
and AORTA_PROTON_MODE=default (the recipe's instrumentation_mode; no
granularity, so Proton's default records).  Instrumentation is compiled
into a kernel only while the backend is active, so the warm-up launch is
plain and the kernel is recompiled under the session.  Named scopes inside
a kernel (`triton.profiler.language.enter_scope`) are left out: Triton 3.6
accepts them only in Gluon kernels ("Unsupported semantic type"), measured
on an NVIDIA H200.
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
def scaled_square_kernel(in_ptr, out_ptr, n_elements, block: tl.constexpr):
    offsets = tl.program_id(axis=0) * block + tl.arange(0, block)
    mask = offsets < n_elements
    x = tl.load(in_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, 3.0 * x * x, mask=mask)


def step(x):
    out = torch.empty_like(x)
    scaled_square_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), block=1024)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--iters", type=int, default=3)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("pipeline: no GPU visible to torch")
    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(args.size, device="cuda", generator=generator)
    step(x)
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        keys = ("CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")
        proton.start(name, **{k.lower(): os.environ["AORTA_PROTON_" + k]
                              for k in keys if "AORTA_PROTON_" + k in os.environ})
    try:
        for _ in range(args.iters):
            out = step(x)
        torch.cuda.synchronize()
    finally:
        if name:
            proton.finalize()

    if not torch.allclose(out, 3.0 * x * x):
        raise SystemExit("pipeline: result differs from torch")
    where = f"{name}.hatchet" if name else "no profile (AORTA_PROTON_NAME unset)"
    print(f"pipeline: {args.iters} launches of scaled_square_kernel; {where}")


if __name__ == "__main__":
    main()
