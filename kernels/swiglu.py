"""SwiGLU: silu(gate) * up."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from kernels.dispatch import triton_jit, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # the Triton path is then never taken (use_triton is false)
    triton = tl = None


def swiglu_ref(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    """Reference: ``silu(gate) * up`` in fp32, returned in ``gate``'s dtype."""
    return (F.silu(gate.float()) * up.float()).to(gate.dtype)


@triton_jit
def _swiglu_kernel(
    g_ptr,  # [N, I]
    u_ptr,  # [N, I]
    o_ptr,  # [N, I] out
    I,
    stride_g,
    stride_u,
    stride_o,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < I
    g = tl.load(g_ptr + row * stride_g + cols, mask=ok, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + row * stride_u + cols, mask=ok, other=0.0).to(tl.float32)
    e = tl.exp(-tl.abs(g))  # sigmoid from exp(-|g|): no overflow to inf for large |g|
    sig = tl.where(g >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    y = g * sig * u  # silu(g) * up
    tl.store(o_ptr + row * stride_o + cols, y.to(o_ptr.dtype.element_ty), mask=ok)


_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _swiglu_triton(
    gate: torch.Tensor,
    up: torch.Tensor,
    *,
    block: int | None = None,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """Launch a [rows, column-blocks] grid. Rows may be strided (e.g. halves of a fused
    gate/up projection); ``out`` must be contiguous and typed like ``gate``."""
    if gate.shape != up.shape:
        raise ValueError(f"gate {tuple(gate.shape)} and up {tuple(up.shape)} must match")
    if gate.dtype not in _FLOATS or up.dtype not in _FLOATS:
        raise TypeError(f"swiglu needs float inputs, got {gate.dtype} and {up.dtype}")
    if out is None:
        out = torch.empty(gate.shape, dtype=gate.dtype, device=gate.device)
    elif out.shape != gate.shape or out.dtype != gate.dtype or not out.is_contiguous():
        raise ValueError("out must be contiguous, shaped and typed like gate")
    if gate.numel() == 0:
        return out
    I = gate.shape[-1]
    g2, u2, o2 = (t.reshape(-1, I) for t in (gate, up, out))
    g2, u2 = (t if t.stride(-1) == 1 else t.contiguous() for t in (g2, u2))
    if block is None:
        block = 1024 if gate.is_cuda else 4096
    block = min(block, triton.next_power_of_2(I))
    grid = (g2.shape[0], triton.cdiv(I, block))
    _swiglu_kernel[grid](
        g2, u2, o2, I, g2.stride(0), u2.stride(0), o2.stride(0), BLOCK=block,
        num_warps=4 if block >= 512 else 1,
    )  # fmt: skip
    return out


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    """``silu(gate) * up`` elementwise; shapes must match. Result in ``gate``'s dtype."""
    if use_triton(gate):
        return _swiglu_triton(gate, up)
    return swiglu_ref(gate, up)
