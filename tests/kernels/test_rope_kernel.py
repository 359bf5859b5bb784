"""Rotary embedding: Triton kernel against the torch reference (both rotate in place)."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels.rope import _apply_rope_triton, apply_rope_ref, rope_cos_sin
from tests.kernels.kernel_check import DTYPES, TOL, assert_close, dtype_id

# (B, L, Hq, Hk, D)
SHAPES = [(1, 1, 1, 1, 2), (1, 3, 4, 4, 16), (2, 5, 6, 2, 24), (3, 7, 3, 1, 18)]
CASES = [(s, d) for s in SHAPES for d in DTYPES]


@pytest.mark.parametrize(
    "shape,dtype",
    CASES,
    ids=[f"B{b}-L{l}-Hq{hq}-Hk{hk}-D{dd}-{dtype_id(d)}" for (b, l, hq, hk, dd), d in CASES],
)
def test_rope_kernel_matches_reference(shape, dtype):
    B, L, HQ, HK, D = shape
    g = torch.Generator().manual_seed(B * 100 + D)
    # q, k are views into a fused qkv projection; v must come out untouched.
    qkv = torch.randn(B, L, HQ + 2 * HK, D, generator=g).to(dtype)
    v_before = qkv[:, :, HQ + HK :].clone()
    q, k = qkv[:, :, :HQ], qkv[:, :, HQ : HQ + HK]
    offsets = torch.randint(0, 5000, (B, 1), generator=g)
    positions = offsets + torch.arange(L)[None, :]  # ragged per-row offsets
    cos, sin = rope_cos_sin(positions, D, 10000.0, dtype=torch.float32 if D % 4 else dtype)
    want_q, want_k = apply_rope_ref(q.clone(), k.clone(), cos, sin)
    got_q, got_k = _apply_rope_triton(q, k, cos, sin)
    assert got_q is q and got_k is k
    assert_close(q, want_q, TOL[dtype], "q")
    assert_close(k, want_k, TOL[dtype], "k")
    assert torch.equal(qkv[:, :, HQ + HK :], v_before)


def test_rope_kernel_public_function_broadcast_tables():
    # One cos/sin table shared by every row (batch stride 0).
    q = torch.randn(2, 3, 2, 8)
    k = torch.randn(2, 3, 1, 8)
    cos, sin = rope_cos_sin(torch.arange(3)[None], 8, 500000.0)
    want_q, want_k = apply_rope_ref(q.clone(), k.clone(), cos.expand(2, 3, 4), sin.expand(2, 3, 4))
    got_q, got_k = kernels.apply_rope(q, k, cos, sin)
    assert_close(got_q, want_q, 1e-5, "q")
    assert_close(got_k, want_k, 1e-5, "k")
