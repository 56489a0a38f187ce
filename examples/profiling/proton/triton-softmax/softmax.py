# SPDX-License-Identifier: MIT
"""A row-wise softmax in Triton, for Proton's CLI (mode: cli).

aorta-run rewrites `python3 softmax.py ...` into
`python3 -m triton.profiler.proton -n <dir>/proton ... softmax.py ...`; the
script knows nothing about profiling.  Each iteration launches one fused
`softmax_kernel` (one program per row: load, subtract the row max,
exponentiate, normalise, store) and torch's own softmax for the check.

Like every mode-cli payload it returns instead of calling sys.exit(0):
Triton's Proton front-end lets a SystemExit skip finalize(), losing the
profile.  Failures still exit non-zero.

Standalone: python3 softmax.py [--rows N] [--cols M] [--iters K]
"""

import argparse

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, block: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, block)
    mask = cols < n_cols
    values = tl.load(in_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    shifted = values - tl.max(values, axis=0)
    numerator = tl.exp(shifted)
    tl.store(out_ptr + row * n_cols + cols, numerator / tl.sum(numerator, axis=0), mask=mask)


def triton_softmax(x):
    rows, cols = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(rows,)](out, x, cols, block=triton.next_power_of_2(cols))
    return out


def run(rows, cols, iters):
    if not torch.cuda.is_available():
        return "softmax: no GPU visible to torch"
    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(rows, cols, device="cuda", generator=generator)
    for _ in range(iters):
        out = triton_softmax(x)
        expected = torch.softmax(x, dim=1)
    torch.cuda.synchronize()
    if not torch.allclose(out, expected, atol=1e-6, rtol=1e-5):
        return "softmax: result differs from torch.softmax"
    print(f"softmax: {iters} launches of softmax_kernel over {rows}x{cols}, results match torch")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--iters", type=int, default=8, help="softmax_kernel launches")
    args = parser.parse_args()
    failure = run(args.rows, args.cols, args.iters)
    if failure:
        raise SystemExit(failure)


if __name__ == "__main__":
    main()
