"""The sampler: every rule that decides what a step commits, behind one unmask-kernel call.

Given the window logits [B, Lw, V] from the runner and each row's plan and parameters, the
sampler builds the per-row settings (threshold, commit count, temperature, top-k, seed,
confidence kind) and a nucleus cut for top-p rows, all as batch tensors, and calls
:func:`kernels.unmask_select` once for the whole batch. It returns, on the host, the token and
whether to commit it for every window position.

Rules it owns:

- **greedy / sampled tokens**: temperature 0 is argmax; otherwise a Gumbel-max draw after
  top-k and top-p (the nucleus is turned into a per-position logit cut here and applied by the
  kernel, so there is one selection call and the confidence stays the unfiltered probability);
- **seeds**: a request with a ``seed`` draws from (its seed, its step) alone, so its reply does
  not depend on what else shares the batch; other sampled rows take a per-step engine seed;
- **commit rule**: ``plan.num_commit`` > 0 commits exactly the top-n by confidence (fixed
  schedules), 0 commits every eligible position whose confidence reaches the threshold and at
  least the most confident one; ``plan.eligible`` restricts both (blocks, sub-blocks, the
  argmax-only first position of a block);
- **confidence**: the raw softmax probability of the chosen token, or the negative entropy of
  the position's distribution for Dream's reference sampler.

**Constrained decoding hook.** A per-sequence allowed-token mask (a grammar's next-token set
for each window position) belongs in :meth:`Sampler.select`, applied to ``logits`` before the
nucleus cut and the kernel call: ``logits.masked_fill_(~allowed, -inf)`` with ``allowed``
[B, Lw, V] bool (or an xgrammar/llguidance bitmask applied in place), rows without a constraint
left untouched. Masking there makes the forbidden tokens impossible to choose *and* renormalises
the confidence over what the grammar allows, so the threshold rule keeps its meaning. A
constraint that depends on which positions commit (a grammar advancing left to right) should
also restrict ``plan.eligible`` to the positions whose prefix is committed — the sequence's plan
is the place for that, not the kernel.
"""

from __future__ import annotations

import itertools

import torch

from engine.sequence import Sequence, StepPlan
from kernels import unmask_select

_NEVER = 2.0  # a threshold no probability reaches


class Sampler:
    """Chooses tokens and commits for one step of a batch; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self._step_seed = itertools.count(seed)

    def seeds(self, seqs: list[Sequence]) -> list[int]:
        """Per row: (its seed, its step) for seeded sampling requests, else a step seed."""
        base = next(self._step_seed)
        out = []
        for b, s in enumerate(seqs):
            if s.params.temperature > 0 and s.params.seed is not None:
                out.append((s.params.seed * 1_000_003 + s.nfe * 7919 + 1) % (2**31))
            else:
                out.append((base * 1_000_003 + b * 7919) % (2**31))
        return out

    def select(
        self,
        logits: torch.Tensor,  # [B, Lw, V]
        eligible: torch.Tensor,  # [B, Lw] bool
        seqs: list[Sequence],
        plans: list[StepPlan],
    ) -> tuple[list[list[int]], list[list[bool]]]:
        """Tokens and commit flags per row, each cut to the row's window width."""
        dev = logits.device
        prm = [s.params for s in seqs]
        floats = torch.tensor(
            [
                [_NEVER if p.num_commit else q.threshold for p, q in zip(plans, prm, strict=True)],
                [q.temperature for q in prm],
            ]
        ).to(dev, non_blocking=True)
        ints = torch.tensor(
            [[p.num_commit for p in plans], [q.top_k for q in prm], self.seeds(seqs)]
        ).to(dev, non_blocking=True)
        entropy = None
        if any(p.entropy for p in plans):
            entropy = torch.tensor([p.entropy for p in plans], device=dev)
        tokens, _conf, commit = unmask_select(
            logits,
            eligible,
            threshold=floats[0],
            num_commit=ints[0],
            temperature=floats[1],
            top_k=ints[1],
            seed=ints[2],
            cut=_nucleus_cut(logits, prm),
            entropy=entropy,
        )
        both = torch.stack([tokens, commit.long()]).cpu().tolist()  # one device → host copy
        widths = [p.block[1] - p.block[0] for p in plans]
        toks = [row[:w] for row, w in zip(both[0], widths, strict=True)]
        flags = [[bool(c) for c in row[:w]] for row, w in zip(both[1], widths, strict=True)]
        return toks, flags


def _nucleus_cut(logits: torch.Tensor, params: list) -> torch.Tensor | None:
    """[B, Lw] logit cut of each sampled top-p row's nucleus (-inf elsewhere), or None.

    The nucleus is the smallest set of most probable tokens (under the raw logits) whose
    probability reaches ``top_p``; the token that crosses ``top_p`` is kept.
    """
    rows = [b for b, p in enumerate(params) if p.top_p < 1.0 and p.temperature > 0]
    if not rows:
        return None
    idx = torch.tensor(rows, device=logits.device)
    top_p = torch.tensor([params[b].top_p for b in rows], device=logits.device)
    srt = logits.index_select(0, idx).float().sort(dim=-1, descending=True).values
    prob = srt.softmax(-1)
    keep = (prob.cumsum(-1) - prob) <= top_p[:, None, None]  # a prefix; its first is always in
    last = keep.sum(-1, keepdim=True) - 1
    cut = torch.full(logits.shape[:2], float("-inf"), device=logits.device)
    cut[idx] = srt.gather(-1, last).squeeze(-1)
    return cut
