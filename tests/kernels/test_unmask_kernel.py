"""Unmask selection: Triton kernels against the torch reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels.unmask import (
    _topk_cut_kernel,
    _unmask_select_triton,
    select_commits,
    unmask_select_ref,
)
from tests.kernels.kernel_check import assert_close, assert_written, dtype_id, poisoned

# (B, L, V, dtype, block_v, num_splits): V never a multiple of the block; several tiles per
# split and an uneven last split where forced.
GREEDY_CASES = [
    (1, 5, 1000, torch.float32, None, None),
    (3, 7, 777, torch.float16, 128, 3),
    (2, 9, 300, torch.bfloat16, 64, 2),
    (4, 3, 17, torch.float32, None, None),  # row 3 asks for more commits than positions
    (1, 1, 17, torch.float32, None, None),
]


def _greedy_inputs(B: int, L: int, V: int, dtype: torch.dtype, seed: int):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(B, L, V, generator=g) * 4
    logits[torch.rand(B, L, V, generator=g) < 0.05] = float("-inf")
    if V > 10:
        logits[0, 0, :] = 1.5  # every token tied: the lowest index wins
        logits[0, 0, V // 2 :] = float("-inf")
    if L > 2:
        logits[0, 1] = logits[0, 0]  # equal confidences: commit order by position
        top = logits[0, 2].max()
        logits[0, 2, V - 1] = top  # tie between the first and the last tile
    masked = torch.rand(B, L, generator=g) < 0.6
    masked[0, 0] = True
    if L > 1:
        masked[0, 1] = True
    if B > 1:
        masked[1] = True  # fully masked row
    if B > 2:
        masked[2] = False  # fully unmasked row
    threshold = torch.rand(B, generator=g)
    num_commit = torch.tensor([0, 2, 0, 4, 1][:B], dtype=torch.int64)
    if B == 1:
        num_commit[0] = 0
    zero_t = torch.zeros(B)
    top_k = torch.tensor([0, 5, 3, 0][:B])
    if dtype == torch.float16:  # per-row settings in other dtypes are read as they are
        threshold, num_commit, zero_t = threshold.double(), num_commit.int(), zero_t.half()
    return logits.to(dtype), masked, threshold, num_commit, zero_t, top_k


@pytest.mark.parametrize(
    "B,L,V,dtype,block_v,splits",
    GREEDY_CASES,
    ids=[f"B{b}-L{l}-V{v}-{dtype_id(d)}-bv{bv}-s{s}" for b, l, v, d, bv, s in GREEDY_CASES],
)
def test_unmask_kernel_greedy_matches_reference(B, L, V, dtype, block_v, splits):
    logits, masked, thr, n, temp, top_k = _greedy_inputs(B, L, V, dtype, seed=B * 1000 + V)
    out = (poisoned((B, L), torch.int64), poisoned((B, L), torch.float32),
           poisoned((B, L), torch.bool))  # fmt: skip
    tokens, conf, commit = _unmask_select_triton(
        logits, masked, thr, n, temp, top_k, block_v=block_v, num_splits=splits, out=out
    )
    assert tokens is out[0] and conf is out[1] and commit is out[2]
    r_tokens, r_conf, r_commit = unmask_select_ref(logits, masked, thr, n, temp, top_k)
    assert_written(tokens, "tokens")
    assert_written(commit, "commit")
    assert torch.equal(tokens, r_tokens), f"tokens differ at {(tokens != r_tokens).nonzero()}"
    assert_close(conf, r_conf, 1e-5, "confidence")
    # Selection is checked exactly on the kernel's own confidences, then against the reference.
    assert torch.equal(commit, select_commits(conf, masked, thr, n))
    assert torch.equal(commit, r_commit)
    if B > 1:
        assert bool(commit[1].any())  # a fully masked row commits at least one position
    if B > 2:
        assert not bool(commit[2].any())  # a fully unmasked row commits nothing


def test_unmask_kernel_public_function_takes_triton_path():
    logits, masked, thr, n, temp, top_k = _greedy_inputs(2, 5, 100, torch.float32, seed=5)
    # Shifted logits (Dream-style) are a strided view, not a contiguous tensor.
    logits, masked = logits[:, 1:], masked[:, 1:]
    assert not logits.is_contiguous()
    got = kernels.unmask_select(logits, masked, thr, n, temp, top_k)
    want = unmask_select_ref(logits, masked, thr, n, temp, top_k)
    assert torch.equal(got[0], want[0]) and torch.equal(got[2], want[2])
    assert_close(got[1], want[1], 1e-5, "confidence")


def test_unmask_kernel_topk_cut_is_kth_largest():
    B, L, V = 2, 3, 500
    g = torch.Generator().manual_seed(11)
    logits = torch.randn(B, L, V, generator=g)
    logits[0, 0, :250] = float("-inf")
    logits[0, 2, :] = torch.randint(0, 5, (V,), generator=g).float()  # heavy ties
    logits[1, 1, :] = torch.randint(-3, 3, (V,), generator=g).float() / 8
    logits[1, 2, :] = -0.0
    k = torch.tensor([7, 300], dtype=torch.int32)
    cut = poisoned((B * L,), torch.float32)
    _topk_cut_kernel[(B * L,)](logits, torch.ones(B), k, cut, L, V, *logits.stride(), BLOCK_V=128)
    kth = torch.stack([torch.topk(logits[b], int(k[b]), dim=-1).values[:, -1] for b in range(B)])
    assert torch.equal(cut, kth.flatten())
    # k >= V, k == 0 or greedy rows keep every token.
    for kk, t in ((V, 1.0), (0, 1.0), (5, 0.0)):
        cut = poisoned((B * L,), torch.float32)
        _topk_cut_kernel[(B * L,)](
            logits, torch.full((B,), t), torch.full((B,), kk, dtype=torch.int32), cut,
            L, V, *logits.stride(), BLOCK_V=512,
        )  # fmt: skip
        assert bool((cut == float("-inf")).all())


def _sample(logits, temp, top_k, seed, block_v=None, num_splits=None):
    B, L, _ = logits.shape
    masked = torch.ones(B, L, dtype=torch.bool)
    return _unmask_select_triton(
        logits, masked, torch.ones(B), torch.zeros(B, dtype=torch.int64),
        temp, top_k, seed, block_v=block_v, num_splits=num_splits,
    )  # fmt: skip


def test_unmask_kernel_sampling_matches_softmax_distribution():
    # 128 positions with the same logits: each draws its own Gumbel noise.
    row = torch.tensor([1.0, 0.0, -1.0, 0.5, float("-inf"), 0.7])
    B, L, V = 2, 64, row.numel()
    t = 0.8
    tokens, conf, _ = _sample(row.expand(B, L, V).contiguous(), torch.full((B,), t),
                              torch.zeros(B, dtype=torch.int64), seed=1234)  # fmt: skip
    freq = torch.bincount(tokens.flatten(), minlength=V).double() / tokens.numel()
    p = torch.softmax(row.double() / t, dim=0)
    sigma = (p * (1 - p) / tokens.numel()).sqrt()
    assert freq[4] == 0, "a -inf logit was sampled"
    assert bool(((freq - p).abs() <= 4 * sigma + 0.02).all()), f"freq {freq} vs p {p}"
    # Confidence is the raw-logit softmax probability of the drawn token.
    assert_close(conf, torch.softmax(row, 0)[tokens], 1e-5, "sampled confidence")


def test_unmask_kernel_sampling_stays_in_top_k():
    B, L, V = 3, 10, 40
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(B, L, V, generator=g)
    temp = torch.tensor([1.5, 2.0, 0.0])
    top_k = torch.tensor([3, 1, 5])  # row 1: top-1 sampling is greedy; row 2 is greedy
    tokens, conf, _ = _sample(logits, temp, top_k, seed=99, block_v=32, num_splits=2)
    kth = torch.topk(logits[0], 3, dim=-1).values[:, -1]
    assert bool((logits[0].gather(-1, tokens[0, :, None]).squeeze(-1) >= kth).all())
    assert bool((tokens[0] != logits[0].argmax(-1)).any()), "sampling never left the argmax"
    assert torch.equal(tokens[1], logits[1].argmax(-1))
    assert torch.equal(tokens[2], logits[2].argmax(-1))
    assert_close(conf, torch.softmax(logits, -1).gather(-1, tokens[..., None])[..., 0], 1e-5,
                 "confidence")  # fmt: skip
    # The seed alone decides the draw.
    again, _, _ = _sample(logits[:1], temp[:1], top_k[:1], seed=99, block_v=32, num_splits=2)
    other, _, _ = _sample(logits[:1], temp[:1], top_k[:1], seed=100, block_v=32, num_splits=2)
    assert torch.equal(again[0], tokens[0])
    assert not torch.equal(other[0], tokens[0])
