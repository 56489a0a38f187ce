# SPDX-License-Identifier: MIT
"""Proton's CUPTI backend pinned from a payload that drives Proton itself
(mode: env), on an NVIDIA GPU: a torch matmul feeding a Triton GELU, measured
after a warm-up so the capture holds exactly --iters launches of each.

aorta-run leaves the command alone and passes, through an env(1) prefix,
AORTA_PROTON_NAME (the session, <dir>/proton), AORTA_PROTON_CONTEXT,
AORTA_PROTON_DATA and, because the recipe pins it, AORTA_PROTON_BACKEND=cupti.
Proton writes <AORTA_PROTON_NAME>.hatchet on finalize().

Standalone (no AORTA_PROTON_NAME): runs the kernels unprofiled.
"""

import argparse
import os

# Proton before torch, the rule every mode-env payload here follows (on AMD
# the other order left Proton's finaliser waiting forever at exit).
import triton.profiler as proton  # noqa: I001
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(in_ptr, out_ptr, n_elements, block: tl.constexpr):
    offsets = tl.program_id(axis=0) * block + tl.arange(0, block)
    mask = offsets < n_elements
    x = tl.load(in_ptr + offsets, mask=mask)
    # tanh(u) = 2 * sigmoid(2u) - 1
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(out_ptr + offsets, 0.5 * x * (2.0 * tl.sigmoid(2.0 * u)), mask=mask)


def step(a, b):
    product = a @ b
    out = torch.empty_like(product)
    gelu_kernel[(triton.cdiv(product.numel(), 1024),)](product, out, product.numel(), block=1024)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--iters", type=int, default=10)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("pipeline: no GPU visible to torch")
    generator = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(args.size, args.size, device="cuda", generator=generator)
    b = torch.randn(args.size, args.size, device="cuda", generator=generator)
    warm = step(a, b)  # compiles the kernel and loads cuBLAS, unmeasured
    torch.cuda.synchronize()

    name = os.environ.get("AORTA_PROTON_NAME")
    if name:
        keys = ("CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")
        proton.start(name, **{k.lower(): os.environ["AORTA_PROTON_" + k]
                              for k in keys if "AORTA_PROTON_" + k in os.environ})
    try:
        for _ in range(args.iters):
            out = step(a, b)
        torch.cuda.synchronize()
    finally:
        if name:
            proton.finalize()

    expected = torch.nn.functional.gelu(a @ b, approximate="tanh")
    if not torch.allclose(out, expected, atol=1e-3, rtol=1e-3) or warm.shape != out.shape:
        raise SystemExit("pipeline: GELU differs from torch")
    where = f"{name}.hatchet" if name else "no profile (AORTA_PROTON_NAME unset)"
    print(f"pipeline: {args.iters} iterations of matmul + gelu_kernel; {where}")


if __name__ == "__main__":
    main()
