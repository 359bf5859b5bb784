"""Choosing between the Triton kernels and their torch references."""

from __future__ import annotations

import os

import torch

_BACKEND = os.environ.get("DIFFVOICE_KERNELS", "auto")  # "auto" | "triton" | "torch"


def set_backend(name: str) -> str:
    """Force ``"triton"`` or ``"torch"``, or ``"auto"`` (Triton on CUDA); returns the old one."""
    global _BACKEND
    if name not in ("auto", "triton", "torch"):
        raise ValueError(f"unknown kernel backend {name!r}: use auto, triton or torch")
    old, _BACKEND = _BACKEND, name
    return old


def triton_available() -> bool:
    try:
        import triton  # noqa: F401
    except Exception:
        return False
    return True


def use_triton(t: torch.Tensor) -> bool:
    """Whether an op on tensor ``t`` takes the Triton path."""
    if _BACKEND == "torch":
        return False
    if _BACKEND == "triton":
        # Forced: on CPU this only works under TRITON_INTERPRET=1 (tests).
        return triton_available()
    return t.is_cuda and triton_available()
