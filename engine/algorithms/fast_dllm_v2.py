"""Fast-dLLM v2's ``batch_sample`` (block cache): a block's first token is the argmax of the
position before it (the previous block's last), then sub-blocks of ``small_block_size`` are
decoded left to right, each by the confidence threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.algorithms.base import Algorithm, StepPlan

if TYPE_CHECKING:
    from engine.sequence import Sequence


class FastDllmV2(Algorithm):
    def rule(self, seq: Sequence, plan: StepPlan) -> None:
        s, e = plan.block
        if seq.steps_in_block == 0 and seq.masked[s]:
            plan.eligible = [True] + [False] * (e - s - 1)
            plan.num_commit = 1
            return
        sb = seq.params.small_block_size
        for a in range(s, e, sb):
            if any(seq.masked[a : min(a + sb, e)]):
                plan.eligible = [a <= i < a + sb and seq.masked[i] for i in range(s, e)]
                return
