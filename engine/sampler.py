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

**Grammar masks** (engine/constrained.py decides where): a grammar-constrained row is decided
left to right from its frontier, so its plan makes only the frontier eligible and it brings a
:class:`RowMask` (the window position, the grammar's allowed tokens as a packed bitmask, the
added-token :class:`Redirect`). :meth:`Sampler.select` uploads the bits, masks that position's
logits on the device (forbidden tokens -inf, so the confidence is renormalised over what the
grammar allows and the threshold keeps its meaning) and picks it in the same kernel call as
the free rows, under the same temperature, top-k, top-p and seed rules. The positions after it
are picked by :meth:`Sampler.pick` once the grammar has taken the frontier token: one small
masked call per round over the rows still going, on the logits this pass already computed (a
sampled pick draws from the row's step seed and its position). Only tokens, probabilities and
flags come back to the host; the masked frontier is written into the logits in their own dtype.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import torch

from engine.sequence import Sequence, StepPlan
from kernels import unmask_select

_NEVER = 2.0  # a threshold no probability reaches


class Redirect:
    """Masked logits where a disallowed added token among the model's ``top`` choices passes its
    probability to the allowed added token whose text shares the longest start with its own
    (more than one character; the first such token on a tie): see
    :attr:`engine.grammar.GrammarCompiler.prefix_table` for why. Built from that host table;
    its device tensors are made once per (vocabulary width, device)."""

    def __init__(self, plain: list[int], share: list[list[int]], top: int = 4) -> None:
        self.plain, self.share, self.top = plain, share, top
        self._dev: dict[tuple[int, torch.device], tuple[torch.Tensor, ...]] = {}

    def _tables(self, width: int, dev: torch.device) -> tuple[torch.Tensor, ...]:
        key = (width, dev)
        if key not in self._dev:
            keep = [i for i, t in enumerate(self.plain) if t < width]
            plain = torch.tensor([self.plain[i] for i in keep], dtype=torch.long)
            share = torch.tensor([[self.share[i][j] for j in keep] for i in keep],
                                 dtype=torch.long).reshape(len(keep), len(keep))  # fmt: skip
            index = torch.full((width,), -1, dtype=torch.long)  # token → its row in plain
            index[plain] = torch.arange(len(keep))
            self._dev[key] = (plain.to(dev), share.to(dev), index.to(dev))
        return self._dev[key]

    def apply_(self, x: torch.Tensor, raw: torch.Tensor, ok: torch.Tensor) -> None:
        """x: [R, V] fp32 logits masked to ok [R, V] bool, changed in place; raw: [R, V] the
        model's logits. The top choices are taken best first, as the host rule did. The common
        case, no disallowed added token among them, costs one flag read and no more."""
        R, V = x.shape
        plain, share, index = self._tables(V, x.device)
        if not plain.numel():
            return
        top = raw.topk(min(self.top, V), dim=-1).indices  # [R, k]
        i = index[top]  # [R, k] row in plain, or -1
        cand = (i >= 0) & ~ok.gather(1, top)
        if not bool(cand.any()):
            return
        sc = torch.where(ok[:, None, plain], share[i.clamp(min=0)], 0)  # [R, k, P]
        j = sc.argmax(-1, keepdim=True)  # the first of the longest
        go = cand & (sc.gather(-1, j).squeeze(-1) > 1)  # [R, k]
        u = plain[j.squeeze(-1)]  # [R, k]
        add = raw.float().gather(1, top)
        for n in range(top.shape[1]):  # in order: two may pass their mass to the same token
            cur = x.gather(1, u[:, n : n + 1])
            new = torch.where(go[:, n : n + 1], torch.logaddexp(cur, add[:, n : n + 1]), cur)
            x.scatter_(1, u[:, n : n + 1], new)


@dataclass
class RowMask:
    """A grammar-constrained row's next pick: one window position and what it may be."""

    index: int  # window position (0 = the block's first)
    bits: np.ndarray  # [ceil(V / 8)] uint8: allowed tokens, eight a byte, little bit order
    redirect: Redirect | None = None


class Sampler:
    """Chooses tokens and commits for one step of a batch; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self._step_seed = itertools.count(seed)
        self.step_seeds: list[int] = []  # per row, the seeds of the last select

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
        masks: list[RowMask | None] | None = None,
    ) -> tuple[list[list[int]], list[list[bool]]]:
        """Tokens and commit flags per row, each cut to the row's window width. ``masks``: per
        row, a grammar mask for one window position (applied to ``logits`` in place) or None."""
        dev = logits.device
        prm = [s.params for s in seqs]
        masks = masks or [None] * len(seqs)
        at = [(b, m) for b, m in enumerate(masks) if m is not None]
        if at:
            ri = torch.tensor([[b for b, _ in at], [m.index for _, m in at]]).to(dev)
            x = self._constrain(logits[ri[0], ri[1]], [m for _, m in at])
            logits[ri[0], ri[1]] = x.to(logits.dtype)
        self.step_seeds = self.seeds(seqs)
        floats = torch.tensor(
            [
                [_NEVER if p.num_commit else q.threshold for p, q in zip(plans, prm, strict=True)],
                [q.temperature for q in prm],
            ]
        ).to(dev, non_blocking=True)
        ints = torch.tensor(
            [[p.num_commit for p in plans], [q.top_k for q in prm], self.step_seeds]
        ).to(dev, non_blocking=True)
        entropy = None
        ent = [p.entropy and m is None for p, m in zip(plans, masks, strict=True)]
        if any(ent):
            entropy = torch.tensor(ent, device=dev)
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

    def pick(
        self, logits: torch.Tensor, rows: list[int], masks: list[RowMask], seqs: list[Sequence]
    ) -> tuple[list[int], list[float]]:
        """After :meth:`select` on the same batch: for each row in ``rows`` (batch indices) the
        token at its mask's window position and its probability under the masked distribution,
        by the row's sampling rules, in one small kernel call. A sampled row draws from its
        step seed and the position, so each pick of a pass has its own noise."""
        dev, R = logits.device, len(rows)
        ri = torch.tensor([rows, [m.index for m in masks]]).to(dev)
        x = self._constrain(logits[ri[0], ri[1]], masks)[:, None]  # [R, 1, V]
        prm = [seqs[b].params for b in rows]
        seeds = [(self.step_seeds[b] * 1_000_003 + (m.index + 1) * 104_729) % (2**31)
                 for b, m in zip(rows, masks, strict=True)]  # fmt: skip
        temp = torch.tensor([q.temperature for q in prm]).to(dev, non_blocking=True)
        ints = torch.tensor([[1] * R, [q.top_k for q in prm], seeds]).to(dev, non_blocking=True)
        tokens, conf, _ = unmask_select(
            x,
            torch.ones(R, 1, dtype=torch.bool, device=dev),
            threshold=torch.zeros(R, device=dev),
            num_commit=ints[0],
            temperature=temp,
            top_k=ints[1],
            seed=ints[2],
            cut=_nucleus_cut(x, prm),
        )
        both = torch.stack([tokens[:, 0].double(), conf[:, 0].double()]).cpu().tolist()
        return [int(t) for t in both[0]], both[1]

    @staticmethod
    def _constrain(raw: torch.Tensor, masks: list[RowMask]) -> torch.Tensor:
        """[R, V] fp32: ``raw`` [R, V] masked to each row's allowed tokens, then redirected."""
        R, V = raw.shape
        dev = raw.device
        bits = torch.from_numpy(np.stack([m.bits for m in masks])).to(dev, non_blocking=True)
        shifts = torch.arange(8, dtype=torch.uint8, device=dev)
        ok = ((bits[..., None] >> shifts) & 1).bool().reshape(R, -1)[:, :V]  # [R, V]
        x = raw.float().masked_fill(~ok, float("-inf"))
        redirect = masks[0].redirect
        if redirect is not None:
            redirect.apply_(x, raw, ok)
        return x


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
