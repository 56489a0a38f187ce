# SPDX-License-Identifier: MIT
"""A payload for two ranks under torchrun that drives Proton itself (mode:
env): rank r runs (r + 1) x --iters launches of a Triton vector add, so the
two ranks' GPU times differ by design and the per-rank spread in matrix.json
shows it.

torchrun sets RANK, LOCAL_RANK and WORLD_SIZE; aorta's per-rank step has
already pointed AORTA_PROTON_NAME at <collector dir>/rank<RANK>/proton.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--iters", type=int, default=10)
    args = parser.parse_args()
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = f"cuda:{local_rank % max(torch.cuda.device_count(), 1)}"
    x = torch.randn(args.size, device=device)
    y = torch.randn(args.size, device=device)
    out = torch.empty_like(x)
    grid = (triton.cdiv(args.size, 1024),)
    add_kernel[grid](x, y, out, args.size, block=1024)  # compile outside the capture
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        options = {arg: os.environ[var] for var, arg in BUNDLE_ARGUMENTS if var in os.environ}
        proton.start(os.environ["AORTA_PROTON_NAME"], **options)
    for _ in range((rank + 1) * args.iters):
        add_kernel[grid](x, y, out, args.size, block=1024)
    torch.cuda.synchronize()
    if name:
        proton.finalize()
    print(f"rank {rank}: {(rank + 1) * args.iters} launches on {device}")


if __name__ == "__main__":
    main()
