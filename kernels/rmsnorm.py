"""RMSNorm, optionally fused with the residual add that precedes it."""

from __future__ import annotations

import torch



def rmsnorm_ref(
    x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """``h = x + residual`` (or ``x``); returns ``(rmsnorm(h) * weight, h)``. Math in fp32."""
    h = x if residual is None else x + residual
    hf = h.float()
    y = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + eps)
    return (y * weight.float()).to(x.dtype), h


def rmsnorm(
    x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Normalise the last dim of ``x`` (+ ``residual``); returns ``(normed, pre-norm sum)``."""
    return rmsnorm_ref(x, weight, eps, residual)
