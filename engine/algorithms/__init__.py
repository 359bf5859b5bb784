"""Decoding algorithms, one small class per file, and the registry that picks one per request.

``REGISTRY`` maps (model family, mode) to an algorithm; ``"*"`` stands for any family.
Adding an algorithm is one file here and one line below.
"""

from __future__ import annotations

from engine.algorithms.base import Algorithm, StepPlan, feed
from engine.algorithms.dream_block import DreamBlock
from engine.algorithms.dream_entropy import DreamEntropy
from engine.algorithms.fast_dllm_v2 import FastDllmV2
from engine.algorithms.low_confidence import LowConfidence
from engine.algorithms.threshold import Threshold

REGISTRY: dict[tuple[str, str], Algorithm] = {
    ("*", "reference"): LowConfidence(),
    ("dream", "reference"): DreamEntropy(),
    ("*", "parallel"): Threshold(),
    ("*", "cache"): Threshold(),
    ("*", "dual_cache"): Threshold(),
    ("dream", "cache"): DreamBlock(),
    ("dream", "dual_cache"): DreamBlock(),
    ("fast_dllm_v2", "cache"): FastDllmV2(),
    ("fast_dllm_v2", "dual_cache"): FastDllmV2(),
}


def algorithm_for(family: str, mode: str) -> Algorithm:
    """The algorithm a request of this family and mode decodes with."""
    algo = REGISTRY.get((family, mode)) or REGISTRY.get(("*", mode))
    if algo is None:
        raise ValueError(f"no decoding algorithm for family {family!r} in mode {mode!r}")
    return algo


__all__ = ["REGISTRY", "Algorithm", "StepPlan", "algorithm_for", "feed"]
