"""SwiGLU: Triton kernel against the torch reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels.swiglu import _swiglu_triton, swiglu_ref
from tests.kernels.kernel_check import DTYPES, TOL, assert_close, dtype_id, poisoned

# (leading shape, I, column block): I never a multiple of the block where one is forced.
SHAPES = [((1,), 1, None), ((7,), 37, 16), ((2, 3), 129, 64)]
CASES = [(lead, i, blk, d) for lead, i, blk in SHAPES for d in DTYPES]


@pytest.mark.parametrize(
    "lead,I,block,dtype",
    CASES,
    ids=[f"N{'x'.join(map(str, lead))}-I{i}-blk{b}-{dtype_id(d)}" for lead, i, b, d in CASES],
)
def test_swiglu_kernel_matches_reference(lead, I, block, dtype):
    g = torch.Generator().manual_seed(I)
    fused = (torch.randn(*lead, 2 * I, generator=g) * 4).to(dtype)
    gate, up = fused[..., :I], fused[..., I:]  # strided halves of a fused projection
    out = poisoned((*lead, I), dtype)
    got = _swiglu_triton(gate, up, block=block, out=out)
    assert got is out
    assert_close(got, swiglu_ref(gate, up), TOL[dtype], "swiglu")


def test_swiglu_kernel_public_function_and_extremes():
    gate = torch.tensor([[-100.0, -20.0, -1.0, 0.0, 1.0, 20.0, 100.0]])
    up = torch.tensor([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]])
    assert_close(kernels.swiglu(gate, up), swiglu_ref(gate, up), 1e-5, "swiglu")
