"""Rotary position embedding (rotate-half convention of Llama, Qwen and LLaDA)."""

from __future__ import annotations

import torch


def rope_cos_sin(
    positions: torch.Tensor, head_dim: int, theta: float, dtype: torch.dtype = torch.float32
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin tables for integer ``positions`` [B, L] → two tensors [B, L, head_dim // 2]."""
    inv_freq = 1.0 / (
        theta ** (torch.arange(0, head_dim, 2, device=positions.device, dtype=torch.float32) / head_dim)
    )
    freqs = positions.to(torch.float32)[..., None] * inv_freq  # [B, L, D/2]
    return freqs.cos().to(dtype), freqs.sin().to(dtype)


def apply_rope_ref(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotate ``q`` [B, L, Hq, D] and ``k`` [B, L, Hk, D] in place; cos/sin [B, L, D/2]."""
    c = cos[:, :, None, :].float()
    s = sin[:, :, None, :].float()
    for t in (q, k):
        half = t.shape[-1] // 2
        x1, x2 = t[..., :half].float(), t[..., half:].float()
        r1 = x1 * c - x2 * s
        r2 = x2 * c + x1 * s
        t[..., :half] = r1.to(t.dtype)
        t[..., half:] = r2.to(t.dtype)
    return q, k


def apply_rope(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Apply rotary embedding to q and k in place (per-row positions are baked into cos/sin)."""
    return apply_rope_ref(q, k, cos, sin)
