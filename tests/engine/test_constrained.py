"""Grammar masks in the sampler: a constrained row is masked on the device and picked in the same
kernel call as the free rows, by the same sampling rules; the added-token redirect on the device
matches the host rule it replaced."""

from __future__ import annotations

import os
from unittest import mock

import numpy as np
import pytest
import torch

import engine.sampler as sampler_mod
from engine.model import ModelConfig
from engine.sampler import Redirect, RowMask, Sampler
from engine.sampling import SamplingParams
from engine.sequence import Sequence

V = 64
PLAIN = [40, 41, 42, 43, 44]  # added tokens that are text
TEXTS = {40: "<call>timer", 41: "<call>timer{", 42: "<call>spell", 43: "<c", 44: "ok"}


def _share() -> list[list[int]]:
    texts = [TEXTS[t] for t in PLAIN]
    return [[len(os.path.commonprefix([a, b])) for b in texts] for a in texts]


def _host_redirect(logits: torch.Tensor, ok: torch.Tensor, top: int = 4) -> torch.Tensor:
    """The rule as the grammar applied it on the host, one position at a time."""
    x = logits.float().masked_fill(~ok, float("-inf"))
    for t in torch.topk(logits.float(), min(top, logits.shape[-1])).indices.tolist():
        if ok[t] or t not in PLAIN:
            continue
        best, best_len = None, 1
        for u in PLAIN:
            if ok[u]:
                n = len(os.path.commonprefix([TEXTS[t], TEXTS[u]]))
                if n > best_len:
                    best, best_len = u, n
        if best is not None:
            x[best] = torch.logaddexp(x[best], logits[t].float())
    return x


@pytest.mark.parametrize("seed", range(12))
def test_redirect_on_the_device_matches_the_host_rule(seed):
    g = torch.Generator().manual_seed(seed)
    R = 5
    raw = torch.randn(R, V, generator=g)
    raw[:, PLAIN] += 4 * torch.rand(R, len(PLAIN), generator=g)  # added tokens among the top
    ok = torch.rand(R, V, generator=g) < 0.5
    ok[:, PLAIN] = torch.rand(R, len(PLAIN), generator=g) < 0.5
    x = raw.masked_fill(~ok, float("-inf"))
    Redirect(PLAIN, _share()).apply_(x, raw, ok)
    for r in range(R):
        assert torch.equal(x[r], _host_redirect(raw[r], ok[r])), r


def _seq(**params) -> Sequence:
    cfg = ModelConfig(family="llada", vocab_size=V, hidden_size=8, intermediate_size=8,
                      num_layers=1, num_heads=2, num_kv_heads=2, mask_token_id=V - 1,
                      eos_token_ids=[1])  # fmt: skip
    return Sequence("r", list(range(10, 16)), SamplingParams(block_size=4, **params), cfg, [1])


def _mask(index: int, allowed: list[int]) -> RowMask:
    ok = np.zeros(V, dtype=bool)
    ok[allowed] = True
    return RowMask(index, np.packbits(ok, bitorder="little"), Redirect(PLAIN, _share()))


def test_constrained_and_free_rows_share_one_kernel_call():
    seqs = [_seq(), _seq(), _seq(temperature=1.0, top_k=8, top_p=0.9, seed=3)]
    plans = [s.plan() for s in seqs]
    logits = torch.randn(3, 4, V, generator=torch.Generator().manual_seed(0))
    eligible = torch.tensor([p.eligible for p in plans])
    allowed = [5, 6, 7]
    masks = [None, _mask(1, allowed), _mask(0, allowed)]
    free_alone = Sampler().select(logits[:1].clone(), eligible[:1], seqs[:1], plans[:1])
    with mock.patch.object(sampler_mod, "unmask_select", wraps=sampler_mod.unmask_select) as k:
        toks, _ = Sampler().select(logits.clone(), eligible, seqs, plans, masks)
    assert k.call_count == 1
    assert toks[0] == free_alone[0][0]  # a masked neighbour changes nothing for a free row
    assert toks[1][1] in allowed and toks[2][0] in allowed


@pytest.mark.parametrize("temperature", [0.0, 0.7, 1.5])
def test_picks_keep_to_the_mask_and_repeat_with_the_seed(temperature):
    seqs = [_seq(temperature=temperature, top_k=5, seed=7), _seq(temperature=temperature)]
    logits = torch.randn(2, 4, V, generator=torch.Generator().manual_seed(1))
    masks = [_mask(2, [3, 9, 40, 41]), _mask(3, [12, 13])]
    picks = []
    for _ in range(2):
        sampler = Sampler(seed=11)
        sampler.select(logits.clone(), torch.ones(2, 4, dtype=torch.bool), seqs,
                       [s.plan() for s in seqs])  # fmt: skip
        picks.append(sampler.pick(logits, [0, 1], masks, seqs))
    (toks, conf), again = picks
    assert toks[0] in (3, 9, 40, 41) and toks[1] in (12, 13)
    assert all(0.0 < c <= 1.0 for c in conf)
    assert again == picks[0]  # the same seeds draw the same picks
    if temperature == 0.0:  # greedy: the most probable allowed token, its renormalised weight
        x = logits[1, 3, [12, 13]]
        assert toks[1] == [12, 13][int(x.argmax())]
        assert conf[1] == pytest.approx(float(x.softmax(-1).max()))
