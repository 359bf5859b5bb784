"""Dream's own sampler (``alg="entropy"``): the whole reply is one block, positions are ranked
by the negative entropy of their distribution, and step i of ``steps`` commits
``int(masked * (1 - s/t))`` of them for timesteps t = linspace(1, eps, steps + 1)[i],
s = [i + 1], and all that remain at the last step — in float32, as Dream computes it."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import torch

from engine.algorithms.base import Algorithm, StepPlan

if TYPE_CHECKING:
    from engine.sequence import Sequence

_EPS = 1e-3  # Dream's generation_config.eps: the schedule's last timestep


@functools.lru_cache(maxsize=64)
def _timesteps(steps: int) -> torch.Tensor:
    return torch.linspace(1, _EPS, steps + 1)


class DreamEntropy(Algorithm):
    whole_reply_block = True

    def rule(self, seq: Sequence, plan: StepPlan) -> None:
        plan.ref_step, plan.num_commit = self.schedule(seq)
        plan.entropy = True

    @staticmethod
    def schedule(seq: Sequence) -> tuple[int, int]:
        """(step, tokens to commit), skipping steps that commit nothing: the count never
        depends on the logits, so a step that would commit nothing needs no forward pass."""
        p = seq.params
        steps = -(-p.max_new_tokens // p.tokens_per_step)
        ts = _timesteps(steps)
        masked = torch.tensor(sum(seq.masked[seq.first : seq.total])) / 1  # float32
        i = seq.ref_step
        while i < steps - 1:
            t, s = ts[i], ts[i + 1]
            n = int(masked * (1 - s / t))
            if n > 0:
                return i, n
            i += 1
        return i, int(masked)
