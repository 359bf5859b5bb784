"""Block attention: Triton kernel against the torch SDPA reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels.attention import _block_attention_triton, block_attention_ref
from tests.kernels.kernel_check import DTYPES, TOL, assert_close, dtype_id, poisoned

# (B, Lq, Hq, Hkv, D, N cache rows, S cache length, mask kind, block_m, block_n, splits)
SHAPES = [
    (1, 1, 1, 1, 16, 1, 5, "prefix", None, None, None),
    (2, 5, 6, 2, 24, 4, 300, "bidirectional", None, None, None),
    (3, 7, 4, 4, 32, 3, 90, "block-causal", None, 32, None),
    (2, 3, 4, 1, 16, 2, 200, "bidirectional", 16, 32, 3),
]
CASES = [(s, d) for s in SHAPES for d in DTYPES]


def _limits(kind: str, prefixes: list[int], Lq: int) -> torch.Tensor:
    """kv_limit [B, Lq]: prefix + whole block, prefix + own sub-block of 4, or prefix only."""
    i = torch.arange(Lq)
    rows = []
    for p in prefixes:
        if kind == "bidirectional":
            rows.append(torch.full((Lq,), p + Lq))
        elif kind == "block-causal":
            rows.append(p + torch.clamp((i // 4 + 1) * 4, max=Lq))
        else:
            rows.append(torch.full((Lq,), p))
    return torch.stack(rows)


def _case_id(shape, dtype) -> str:
    b, lq, hq, hkv, d, n, s, kind, bm, bn, sp = shape
    return f"B{b}-Lq{lq}-Hq{hq}-Hkv{hkv}-D{d}-S{s}-{kind}-split{sp or 1}-{dtype_id(dtype)}"


@pytest.mark.parametrize("shape,dtype", CASES, ids=[_case_id(*c) for c in CASES])
def test_block_attention_kernel_matches_reference(shape, dtype):
    B, LQ, HQ, HKV, D, N, S, kind, block_m, block_n, splits = shape
    g = torch.Generator().manual_seed(B * 1000 + S)
    q = torch.randn(B, LQ, HQ, D, generator=g).to(dtype)
    k_cache = torch.randn(N, S, HKV, D, generator=g).to(dtype)
    v_cache = torch.randn(N, S, HKV, D, generator=g).to(dtype)
    slots = torch.randperm(N, generator=g)[:B]
    room = S - LQ
    prefixes = torch.randint(0, room + 1, (B,), generator=g).tolist()
    prefixes[0] = room if kind != "prefix" else S  # one row runs to the end of its cache row
    kv_limit = _limits(kind, prefixes, LQ)
    scale = D**-0.5
    out = poisoned(q.shape, dtype)
    got = _block_attention_triton(
        q, k_cache, v_cache, slots, kv_limit, scale,
        block_m=block_m, block_n=block_n, num_splits=splits, out=out,
    )  # fmt: skip
    assert got is out
    # The reference in fp32 on the same (rounded) inputs: the kernel accumulates in fp32.
    want = block_attention_ref(q.float(), k_cache.float(), v_cache.float(), slots, kv_limit, scale)
    assert_close(got.float(), want, TOL[dtype], "attention")


def test_block_attention_kernel_public_function():
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 4, 16, generator=g)
    k_cache = torch.randn(3, 40, 2, 16, generator=g)
    v_cache = torch.randn(3, 40, 2, 16, generator=g)
    slots = torch.tensor([2, 1])
    kv_limit = torch.tensor([[10, 10, 12, 12], [40, 40, 40, 40]])
    got = kernels.block_attention(q, k_cache, v_cache, slots, kv_limit, 0.25)
    want = block_attention_ref(q, k_cache, v_cache, slots, kv_limit, 0.25)
    assert_close(got, want, 1e-5, "attention")
