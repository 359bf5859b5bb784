"""Choosing between the Triton kernels and their torch references."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

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


def interpreting() -> bool:
    """Whether Triton kernels run under the CPU interpreter (``TRITON_INTERPRET=1``)."""
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


def triton_jit(fn: Callable[..., Any]) -> Any:
    """``triton.jit(fn)`` where Triton imports; otherwise ``fn`` itself.

    Without Triton :func:`use_triton` is always false, so an undecorated kernel is never
    launched; this only keeps ``import kernels`` working on machines without Triton.
    """
    try:
        import triton
    except Exception:
        return fn
    return triton.jit(fn)


def num_sms(device: torch.device) -> int:
    """Streaming multiprocessors of a CUDA device (a small stand-in under the interpreter)."""
    if device.type != "cuda":
        return 4
    return _num_sms_cuda(device.index if device.index is not None else torch.cuda.current_device())


_SM_CACHE: dict[int, int] = {}


def _num_sms_cuda(index: int) -> int:
    if index not in _SM_CACHE:
        _SM_CACHE[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _SM_CACHE[index]
