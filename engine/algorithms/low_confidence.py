"""Low-confidence remasking with a fixed schedule (LLaDA's sampler, SDAR's static schedule):
each pass commits exactly ``tokens_per_step`` of the block's masked positions, the most
confident first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.algorithms.base import Algorithm, StepPlan

if TYPE_CHECKING:
    from engine.sequence import Sequence


class LowConfidence(Algorithm):
    def rule(self, seq: Sequence, plan: StepPlan) -> None:
        plan.num_commit = seq.params.tokens_per_step
