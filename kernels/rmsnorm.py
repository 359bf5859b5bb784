"""RMSNorm, optionally fused with the residual add that precedes it."""

from __future__ import annotations

import torch

from kernels.dispatch import triton_jit, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # the Triton path is then never taken (use_triton is false)
    triton = tl = None


def rmsnorm_ref(
    x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """``h = x + residual`` (or ``x``); returns ``(rmsnorm(h) * weight, h)``. Math in fp32."""
    h = x if residual is None else x + residual
    hf = h.float()
    y = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + eps)
    return (y * weight.float()).to(x.dtype), h


@triton_jit
def _rmsnorm_kernel(
    x_ptr,  # [N, H]
    res_ptr,  # [N, H] (unused without HAS_RES)
    w_ptr,  # [H]
    y_ptr,  # [N, H] out, dtype of x
    h_ptr,  # [N, H] out x + residual (unused without HAS_RES)
    H,
    stride_x,
    stride_r,
    stride_y,
    stride_h,
    eps,
    HAS_RES: tl.constexpr,
    BLOCK_H: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_H)
    ok = cols < H
    x = tl.load(x_ptr + row * stride_x + cols, mask=ok, other=0.0).to(tl.float32)
    if HAS_RES:
        r = tl.load(res_ptr + row * stride_r + cols, mask=ok, other=0.0).to(tl.float32)
        # Rounded to the sum's dtype first: the reference normalises the stored sum.
        h = (x + r).to(h_ptr.dtype.element_ty)
        tl.store(h_ptr + row * stride_h + cols, h, mask=ok)
        x = h.to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / H + eps)
    w = tl.load(w_ptr + cols, mask=ok, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_y + cols, ((x * rstd) * w).to(y_ptr.dtype.element_ty), mask=ok)


_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _rows(t: torch.Tensor, H: int) -> torch.Tensor:
    """``t`` as [N, H] with unit column stride (a view when the layout allows)."""
    t2 = t.reshape(-1, H)
    return t2 if t2.stride(-1) == 1 else t2.contiguous()


def _rmsnorm_triton(
    x: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    residual: torch.Tensor | None = None,
    *,
    out: tuple[torch.Tensor, torch.Tensor | None] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Launch one program per row. ``out`` = (normed, sum or None), contiguous, written in full."""
    H = x.shape[-1]
    if weight.shape != (H,):
        raise ValueError(f"weight must be [{H}], got {tuple(weight.shape)}")
    if x.dtype not in _FLOATS or weight.dtype not in _FLOATS:
        raise TypeError(f"rmsnorm needs float inputs, got x {x.dtype}, weight {weight.dtype}")
    if residual is not None:
        if residual.shape != x.shape:
            raise ValueError(f"residual {tuple(residual.shape)} != x {tuple(x.shape)}")
        if residual.dtype not in _FLOATS:
            raise TypeError(f"residual must be float, got {residual.dtype}")
    if H > 65536:
        raise ValueError(f"hidden size {H} exceeds the single-block limit 65536")
    x2 = _rows(x, H)
    N = x2.shape[0]
    h_dtype = x.dtype if residual is None else torch.promote_types(x.dtype, residual.dtype)
    if out is None:
        y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        h = None if residual is None else torch.empty(x.shape, dtype=h_dtype, device=x.device)
    else:
        y, h = out
        if y.shape != x.shape or y.dtype != x.dtype or not y.is_contiguous():
            raise ValueError("out normed must be contiguous, shaped and typed like x")
        if residual is not None and (
            h is None or h.shape != x.shape or h.dtype != h_dtype or not h.is_contiguous()
        ):
            raise ValueError(f"out sum must be contiguous {h_dtype} shaped like x")
    if N == 0:
        return y, (x if h is None else h)
    block = triton.next_power_of_2(H)
    r2 = x2 if residual is None else _rows(residual, H)
    y2 = y.view(-1, H)
    h2 = y2 if h is None else h.view(-1, H)
    _rmsnorm_kernel[(N,)](
        x2, r2, weight.contiguous(), y2, h2, H,
        x2.stride(0), r2.stride(0), y2.stride(0), h2.stride(0), float(eps),
        HAS_RES=residual is not None, BLOCK_H=block,
        num_warps=min(16, max(1, block // 512)),
    )  # fmt: skip
    return y, (x if h is None else h)


def rmsnorm(
    x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Normalise the last dim of ``x`` (+ ``residual``); returns ``(normed, pre-norm sum)``.

    ``x``, ``residual``: [..., H]; ``weight``: [H]. Without a residual the second result is ``x``
    itself. One read of each input and one write of each output on the Triton path.
    """
    if use_triton(x):
        return _rmsnorm_triton(x, weight, eps, residual)
    return rmsnorm_ref(x, weight, eps, residual)
