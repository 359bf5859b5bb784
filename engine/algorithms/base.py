"""What every decoding algorithm shares: the step plan, and which positions a pass feeds.

A decoding algorithm (one small class per file in this package, as SGLang's dLLM code has one
per algorithm) decides two things for each forward pass of a sequence: which positions it
feeds (:func:`feed`, the same for every algorithm: it follows from the model's attention and
the mode's cache) and how the pass may commit (:meth:`Algorithm.rule`: which window positions
are eligible, the threshold rule or a fixed count, the confidence kind). The sequence keeps
the state; an algorithm is stateless and reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.sequence import Sequence


@dataclass
class StepPlan:
    """What one sequence contributes to a batched forward pass, and how it may commit.

    The runner feeds positions ``[q_start, q_end)`` and computes logits for the window
    ``[block[0], block[1])``; the sampler chooses among the window's ``eligible`` positions by
    the row's rule: ``num_commit`` > 0 commits exactly the top-n by confidence, 0 commits every
    position whose confidence reaches the threshold and at least the most confident one.
    """

    q_start: int  # first position fed to the model
    q_end: int  # one past the last
    kv_limit: list[int]  # per fed position: keys at cache indices < this are visible
    block: tuple[int, int]  # window [s, e) whose logits are computed
    eligible: list[bool] = field(default_factory=list)  # per window position: may commit
    num_commit: int = 0  # 0: threshold rule; n > 0: exactly the n most confident
    entropy: bool = False  # confidence = negative entropy (Dream's reference sampler)
    ref_step: int = -1  # Dream reference: the schedule step this pass is


class Algorithm:
    """A decoding algorithm: :meth:`plan` is :func:`feed` and then :meth:`rule`.

    The default rule is the confidence threshold over the block's masked positions.
    """

    whole_reply_block = False  # the reply is decoded as one block (Dream's own sampler)

    def plan(self, seq: Sequence) -> StepPlan:
        plan = feed(seq)
        self.rule(seq, plan)
        return plan

    def rule(self, seq: Sequence, plan: StepPlan) -> None:
        """Set how ``plan`` commits; ``plan.eligible`` starts as the block's masked positions."""


def feed(seq: Sequence) -> StepPlan:
    """Positions fed and keys visible for the sequence's next pass, by attention and cache mode.

    Block-causal models feed from their cache's end (or from 0 without a cache); bidirectional
    models in a cache mode feed, once the block's full pass has run, the block and the masked
    suffix (prefix cache) or the block alone (dual cache); otherwise the whole sequence.
    """
    cfg, mode = seq.cfg, seq.params.mode
    s, e = seq.block_bounds()
    eligible = seq.masked[s:e]
    cached = mode in ("cache", "dual_cache")
    if cfg.block_causal:
        shift = 1 if cfg.logit_shift else 0
        # With a logit shift the block's first token is predicted from the position before
        # it; a block at position 0 has none, but position 0 is always prompt.
        q0 = max(0, min(seq.cache_len, s - shift)) if cached else 0
        return StepPlan(q0, e, [seq.block_end(i) for i in range(q0, e)], (s, e), eligible)
    if cached and seq.refreshed:
        # Fast-dLLM: the prefix cache feeds the block and the whole masked suffix; the dual
        # cache feeds only the block and reads the suffix's K/V from the block's full pass.
        q1 = seq.total if mode == "cache" else e
        return StepPlan(s, q1, [seq.total] * (q1 - s), (s, e), eligible)
    return StepPlan(0, seq.total, [seq.total] * seq.total, (s, e), eligible)
