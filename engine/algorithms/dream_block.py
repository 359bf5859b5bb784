"""Fast-dLLM's Dream block sampler (prefix and dual cache): the block's full pass commits only
its first position, by argmax; the threshold rule starts with the cached passes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.algorithms.base import Algorithm, StepPlan

if TYPE_CHECKING:
    from engine.sequence import Sequence


class DreamBlock(Algorithm):
    def rule(self, seq: Sequence, plan: StepPlan) -> None:
        if not seq.refreshed:
            s, e = plan.block
            plan.eligible = [True] + [False] * (e - s - 1)
            plan.num_commit = 1
