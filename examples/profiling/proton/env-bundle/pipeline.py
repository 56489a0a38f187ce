# SPDX-License-Identifier: MIT
"""A payload that drives Proton itself from aorta's AORTA_PROTON_* bundle
(mode: env): a Triton vector add and a Triton row sum, measured after a
warm-up so the capture holds exactly --iters launches of each.

In mode: env aorta-run leaves the command alone and passes, through an
env(1) prefix:
  AORTA_PROTON_NAME     session name for proton.start() (<dir>/proton)
  AORTA_PROTON_CONTEXT  context=    AORTA_PROTON_DATA  data=
  AORTA_PROTON_BACKEND  backend=    (absent for backend: auto)
  AORTA_PROTON_MODE     mode=       (only when a --mode option is set)
  AORTA_PROTON_HOOK     hook=       (only with hook: triton)
  AORTA_PROTON_DIR      the directory holding the session
Proton writes <AORTA_PROTON_NAME>.hatchet on finalize() for data: tree.

Standalone (no AORTA_PROTON_NAME): runs the kernels unprofiled.
"""

import argparse
import os

# Proton before torch: on AMD, importing it after torch left Proton's
# finaliser waiting forever at exit (ROCm/aorta#434).
import triton.profiler as proton  # noqa: I001
import torch
import triton
import triton.language as tl

BUNDLE_ARGUMENTS = (
    ("AORTA_PROTON_CONTEXT", "context"),
    ("AORTA_PROTON_DATA", "data"),
    ("AORTA_PROTON_BACKEND", "backend"),
    ("AORTA_PROTON_MODE", "mode"),
    ("AORTA_PROTON_HOOK", "hook"),
)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, block: tl.constexpr):
    offsets = tl.program_id(axis=0) * block + tl.arange(0, block)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def row_sum_kernel(in_ptr, out_ptr, n_cols, block: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, block)
    values = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(values, axis=0))


def step(x, y, rows, cols):
    total = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, total, x.numel(), block=1024)
    sums = torch.empty(rows, device=x.device, dtype=x.dtype)
    row_sum_kernel[(rows,)](total, sums, cols, block=triton.next_power_of_2(cols))
    return sums


def start_arguments():
    """proton.start() keywords from the bundle; absent variables are not passed,
    so Proton keeps its own default (backend=None: Proton picks)."""
    return {arg: os.environ[var] for var, arg in BUNDLE_ARGUMENTS if var in os.environ}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--iters", type=int, default=5)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("pipeline: no GPU visible to torch")

    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(args.rows * args.cols, device="cuda", generator=generator)
    y = torch.rand(args.rows * args.cols, device="cuda", generator=generator)
    expected = (x + y).view(args.rows, args.cols).sum(dim=1)
    warm = step(x, y, args.rows, args.cols)  # compiles both kernels, unmeasured
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        proton.start(name, **start_arguments())
    try:
        for _ in range(args.iters):
            sums = step(x, y, args.rows, args.cols)
        torch.cuda.synchronize()
    finally:
        if name:
            proton.finalize()

    if not torch.allclose(sums, expected, rtol=1e-5) or not torch.equal(sums, warm):
        raise SystemExit("pipeline: row sums differ from torch")
    where = f"{name}.hatchet" if name else "no profile (AORTA_PROTON_NAME unset)"
    print(f"pipeline: {args.iters} iterations of add_kernel + row_sum_kernel; {where}")


if __name__ == "__main__":
    main()
