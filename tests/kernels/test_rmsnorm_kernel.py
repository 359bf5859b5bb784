"""RMSNorm (+ residual): Triton kernel against the torch reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels.rmsnorm import _rmsnorm_triton, rmsnorm_ref
from tests.kernels.kernel_check import DTYPES, TOL, assert_close, dtype_id, poisoned

SHAPES = [(1, 1, 7), (3, 5, 40), (2, 129)]
CASES = [(s, d, res) for s in SHAPES for d in DTYPES for res in (True, False)]


def _id(shape, dtype, res) -> str:
    lead = "x".join(map(str, shape[:-1]))
    return f"N{lead}-H{shape[-1]}-{dtype_id(dtype)}-{'res' if res else 'nores'}"


@pytest.mark.parametrize("shape,dtype,res", CASES, ids=[_id(*c) for c in CASES])
def test_rmsnorm_kernel_matches_reference(shape, dtype, res):
    g = torch.Generator().manual_seed(sum(shape))
    x = (torch.randn(shape, generator=g) * 3).to(dtype)
    residual = torch.randn(shape, generator=g).to(dtype) if res else None
    weight = torch.randn(shape[-1], generator=g)
    y = poisoned(shape, dtype)
    h = poisoned(shape, dtype) if res else None
    got_y, got_h = _rmsnorm_triton(x, weight, 1e-6, residual, out=(y, h))
    want_y, want_h = rmsnorm_ref(x, weight, 1e-6, residual)
    assert got_y is y
    assert_close(got_y, want_y, TOL[dtype], "normed")
    if res:
        assert got_h is h
        assert_close(got_h, want_h, TOL[dtype], "sum")
    else:
        assert got_h is x  # like the reference: the pre-norm value is x itself


def test_rmsnorm_kernel_mixed_dtypes_and_strided_rows():
    # bf16 activations, fp32 residual stream and a weight in bf16; x is a strided slice.
    g = torch.Generator().manual_seed(7)
    big = torch.randn(6, 2 * 48, generator=g).to(torch.bfloat16)
    x = big[:, :48]
    residual = torch.randn(6, 48, generator=g)
    weight = torch.randn(48, generator=g).to(torch.bfloat16)
    got_y, got_h = kernels.rmsnorm(x, weight, 1e-5, residual)
    want_y, want_h = rmsnorm_ref(x, weight, 1e-5, residual)
    assert got_y.dtype == want_y.dtype == torch.bfloat16
    assert got_h.dtype == want_h.dtype == torch.float32
    assert_close(got_h, want_h, TOL[torch.float32], "sum")
    assert_close(got_y, want_y, TOL[torch.bfloat16], "normed")
