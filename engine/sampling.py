"""Per-request decoding parameters."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

MODES = ("reference", "parallel", "cache", "dual_cache")


@dataclass
class SamplingParams:
    """How one request is decoded; checks itself on construction.

    Modes (docs/decoding-parity.md says which published decoder each one reproduces per
    family): ``reference`` — the family's own baseline sampler, full recompute, a fixed schedule
    of ``tokens_per_step`` commits per step, no early stop (LLaDA's low-confidence remasking in
    semi-autoregressive blocks; Dream's entropy-ranked sampler over the whole reply; SDAR's
    static low-confidence schedule); ``parallel`` — confidence-threshold commits, full
    recompute; ``cache`` — threshold commits with the KV cache (Fast-dLLM's prefix cache for
    bidirectional models, an exact block cache for block-causal ones; Fast-dLLM v2 decodes each
    block in sub-blocks of ``small_block_size``); ``dual_cache`` — also caches the suffix for
    bidirectional models.
    """

    mode: str = "cache"
    max_new_tokens: int = 64
    block_size: int = 32  # semi-AR block length for bidirectional models
    threshold: float = 0.9
    tokens_per_step: int = 1
    small_block_size: int = 8  # Fast-dLLM v2: sub-blocks decoded left to right in each block
    temperature: float = 0.0
    top_k: int = 0
    top_p: float = 1.0
    stop: list[str] = field(default_factory=list)
    seed: int | None = None
    early_stop: bool | None = None  # None → on for every mode but reference

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if not isinstance(self.max_new_tokens, int) or not 1 <= self.max_new_tokens <= 8192:
            raise ValueError("max_new_tokens must be an integer between 1 and 8192")
        if not isinstance(self.block_size, int) or not 1 <= self.block_size <= 1024:
            raise ValueError("block_size must be an integer between 1 and 1024")
        if not (isinstance(self.threshold, int | float) and 0.0 <= self.threshold <= 1.0):
            raise ValueError("threshold must be between 0 and 1")
        if not isinstance(self.tokens_per_step, int) or self.tokens_per_step < 1:
            raise ValueError("tokens_per_step must be a positive integer")
        if not isinstance(self.small_block_size, int) or not 1 <= self.small_block_size <= 1024:
            raise ValueError("small_block_size must be an integer between 1 and 1024")
        if not (isinstance(self.temperature, int | float) and math.isfinite(self.temperature)
                and 0.0 <= self.temperature <= 10.0):
            raise ValueError("temperature must be between 0 and 10")
        if not isinstance(self.top_k, int) or self.top_k < 0:
            raise ValueError("top_k must be a non-negative integer")
        if not (isinstance(self.top_p, int | float) and 0.0 < self.top_p <= 1.0):
            raise ValueError("top_p must be in (0, 1]")
        if isinstance(self.stop, str):
            self.stop = [self.stop]
        if not all(isinstance(s, str) and s for s in self.stop) or len(self.stop) > 16:
            raise ValueError("stop must be at most 16 non-empty strings")
        if self.early_stop is None:
            self.early_stop = self.mode != "reference"

    @classmethod
    def from_dict(cls, d: dict) -> SamplingParams:
        known = {f.name for f in fields(cls)}
        for k in d:
            if k not in known:
                raise ValueError(f"unknown sampling parameter {k!r}")
        return cls(**d)
