# SPDX-License-Identifier: MIT
"""A Triton vector add plus a few torch ops, for Proton's CLI (mode: cli).

aorta-run rewrites `python3 vecadd.py ...` into
`python3 -m triton.profiler.proton -n <dir>/proton ... vecadd.py ...`, so this
script knows nothing about profiling.  It launches `add_kernel` --iters times
and a handful of torch kernels (random fill, add, abs, max), checks the
result against torch, and prints one line.

It must not end with sys.exit(0): Triton 3.6's Proton front-end catches
Exception, not SystemExit, around the script, so a SystemExit on success
skips finalize() and the profile is never written.  Failures still exit
non-zero.

Standalone: python3 vecadd.py [--size N] [--iters K]; VECADD_ITERS sets the
default of --iters (a change of the payload under the same command, as
docs/design.md's verdict run on an H200 uses it).
"""

import argparse
import os

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, block: tl.constexpr):
    offsets = tl.program_id(axis=0) * block + tl.arange(0, block)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def triton_add(x, y, block=1024):
    out = torch.empty_like(x)
    n_elements = out.numel()
    add_kernel[(triton.cdiv(n_elements, block),)](x, y, out, n_elements, block=block)
    return out


def run(size, iters):
    if not torch.cuda.is_available():
        return "vecadd: no GPU visible to torch"
    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(size, device="cuda", generator=generator)
    y = torch.rand(size, device="cuda", generator=generator)
    for _ in range(iters):
        out = triton_add(x, y)
    expected = x + y
    error = (out - expected).abs().max().item()
    torch.cuda.synchronize()
    if error != 0.0:
        return f"vecadd: result differs from torch by {error}"
    print(f"vecadd: {iters} launches of add_kernel over {size} elements, results match torch")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20, help="elements per vector")
    parser.add_argument("--iters", type=int, default=int(os.environ.get("VECADD_ITERS", "6")),
                        help="add_kernel launches (default $VECADD_ITERS, else 6)")
    args = parser.parse_args()
    failure = run(args.size, args.iters)
    if failure:
        raise SystemExit(failure)


if __name__ == "__main__":
    main()
