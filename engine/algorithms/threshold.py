"""Confidence-threshold decoding (Fast-dLLM's parallel decoding): every masked position of the
block whose confidence reaches the threshold commits, and at least the most confident one."""

from __future__ import annotations

from engine.algorithms.base import Algorithm


class Threshold(Algorithm):
    """The default rule of :class:`Algorithm`, named."""
