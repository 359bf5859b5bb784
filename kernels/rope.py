"""Rotary position embedding (rotate-half convention of Llama, Qwen and LLaDA)."""

from __future__ import annotations

import torch

from kernels.dispatch import triton_jit, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # the Triton path is then never taken (use_triton is false)
    triton = tl = None


def rope_cos_sin(
    positions: torch.Tensor, head_dim: int, theta: float, dtype: torch.dtype = torch.float32
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin tables for integer ``positions`` [B, L] → two tensors [B, L, head_dim // 2]."""
    exponents = torch.arange(0, head_dim, 2, device=positions.device, dtype=torch.float32)
    inv_freq = 1.0 / (theta ** (exponents / head_dim))
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


@triton_jit
def _rotate_heads(
    base,  # this token's first element
    n_heads,
    half,
    stride_h,
    stride_d,
    c,  # [1, BLOCK_D] fp32
    s,
    BLOCK_H: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    dd = tl.arange(0, BLOCK_D)
    for h0 in range(0, n_heads, BLOCK_H):
        heads = h0 + tl.arange(0, BLOCK_H)
        ok = (heads < n_heads)[:, None] & (dd < half)[None, :]
        p1 = base + heads[:, None] * stride_h + dd[None, :] * stride_d  # [BLOCK_H, BLOCK_D]
        p2 = p1 + half * stride_d
        x1 = tl.load(p1, mask=ok, other=0.0).to(tl.float32)
        x2 = tl.load(p2, mask=ok, other=0.0).to(tl.float32)
        tl.store(p1, (x1 * c - x2 * s).to(base.dtype.element_ty), mask=ok)
        tl.store(p2, (x2 * c + x1 * s).to(base.dtype.element_ty), mask=ok)


@triton_jit
def _rope_kernel(
    q_ptr,  # [B, L, Hq, D], rotated in place
    k_ptr,  # [B, L, Hk, D], rotated in place
    cos_ptr,  # [B, L, D/2]
    sin_ptr,  # [B, L, D/2]
    L,
    HQ,
    HK,
    half,
    sq_b, sq_l, sq_h, sq_d,
    sk_b, sk_l, sk_h, sk_d,
    sc_b, sc_l, sc_d,
    ss_b, ss_l, ss_d,
    BLOCK_H: tl.constexpr,
    BLOCK_D: tl.constexpr,
):  # fmt: skip
    # One program per token: cos/sin are read once and shared by all its q and k heads.
    pid = tl.program_id(0)
    b = (pid // L).to(tl.int64)
    l = (pid % L).to(tl.int64)
    dd = tl.arange(0, BLOCK_D)
    dok = dd < half
    c = tl.load(cos_ptr + b * sc_b + l * sc_l + dd * sc_d, mask=dok, other=0.0).to(tl.float32)
    s = tl.load(sin_ptr + b * ss_b + l * ss_l + dd * ss_d, mask=dok, other=0.0).to(tl.float32)
    c = c[None, :]
    s = s[None, :]
    _rotate_heads(q_ptr + b * sq_b + l * sq_l, HQ, half, sq_h, sq_d, c, s, BLOCK_H, BLOCK_D)
    _rotate_heads(k_ptr + b * sk_b + l * sk_l, HK, half, sk_h, sk_d, c, s, BLOCK_H, BLOCK_D)


_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _apply_rope_triton(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Check and launch one program per token. Any strides work (q and k may be views into
    a fused qkv projection); cos/sin may broadcast over the batch."""
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError(f"q and k must be [B, L, H, D], got {tuple(q.shape)}, {tuple(k.shape)}")
    B, L, HQ, D = q.shape
    if k.shape[:2] != (B, L) or k.shape[3] != D:
        raise ValueError(f"k {tuple(k.shape)} does not match q {tuple(q.shape)}")
    if D % 2:
        raise ValueError(f"head dim must be even, got {D}")
    half = D // 2
    if cos.shape[-1] != half or sin.shape[-1] != half:
        raise ValueError(f"cos/sin last dim must be {half}, got {cos.shape[-1]}, {sin.shape[-1]}")
    for t in (q, k, cos, sin):
        if t.dtype not in _FLOATS:
            raise TypeError(f"rope needs float tensors, got {t.dtype}")
    cos = cos.expand(B, L, half)
    sin = sin.expand(B, L, half)
    if B * L == 0:
        return q, k
    block_d = triton.next_power_of_2(half)
    block_h = max(1, min(triton.next_power_of_2(max(HQ, k.shape[2])), 4096 // block_d))
    _rope_kernel[(B * L,)](
        q, k, cos, sin, L, HQ, k.shape[2], half,
        *q.stride(), *k.stride(), *cos.stride(), *sin.stride(),
        BLOCK_H=block_h, BLOCK_D=block_d, num_warps=4 if block_h * block_d >= 1024 else 1,
    )  # fmt: skip
    return q, k


def apply_rope(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Apply rotary embedding to q and k in place (per-row positions are baked into cos/sin).

    q: [B, L, Hq, D], k: [B, L, Hk, D], cos/sin: [B, L, D/2] (from :func:`rope_cos_sin`).
    Returns the same two tensors.
    """
    if use_triton(q):
        return _apply_rope_triton(q, k, cos, sin)
    return apply_rope_ref(q, k, cos, sin)
