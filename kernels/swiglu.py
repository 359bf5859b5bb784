"""SwiGLU: silu(gate) * up."""

from __future__ import annotations

import torch
import torch.nn.functional as F



def swiglu_ref(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return (F.silu(gate.float()) * up.float()).to(gate.dtype)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    """``silu(gate) * up`` elementwise; shapes must match."""
    return swiglu_ref(gate, up)
