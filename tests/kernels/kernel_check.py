"""Shared checks for kernel tests: tolerances, poisoning, error reports."""

from __future__ import annotations

import torch

# fp32 results must agree to 1e-5. fp16/bf16 outputs differ by output rounding; bf16 more so
# under the interpreter, whose fp32 -> bf16 cast truncates instead of rounding to nearest.
TOL = {torch.float32: 1e-5, torch.float16: 1e-2, torch.bfloat16: 1e-2}

DTYPES = [torch.float32, torch.float16, torch.bfloat16]

POISON_INT = -7  # never a valid token id
POISON_BOOL = 0xAB  # written into a bool tensor's bytes: neither 0 nor 1


def dtype_id(dt: torch.dtype) -> str:
    return {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16"}[dt]


def poisoned(shape: tuple[int, ...] | torch.Size, dtype: torch.dtype) -> torch.Tensor:
    """A fresh output buffer full of values no kernel writes (NaN, an impossible int, 0xAB)."""
    if dtype == torch.bool:
        t = torch.empty(shape, dtype=torch.bool)
        t.view(torch.uint8).fill_(POISON_BOOL)
        return t
    if dtype.is_floating_point:
        return torch.full(shape, float("nan"), dtype=dtype)
    return torch.full(shape, POISON_INT, dtype=dtype)


def assert_written(t: torch.Tensor, name: str) -> None:
    """Every element was overwritten (no poison left)."""
    if t.dtype == torch.bool:
        bad = t.view(torch.uint8) > 1
    elif t.dtype.is_floating_point:
        bad = torch.isnan(t)
    else:
        bad = t == POISON_INT
    n = int(bad.sum())
    assert n == 0, f"{name}: {n} of {t.numel()} elements not written"


def errors(out: torch.Tensor, ref: torch.Tensor) -> tuple[float, float]:
    """(max abs error, max abs error / max |ref|) over the finite entries of ``ref``."""
    o, r = out.double(), ref.double()
    fin = torch.isfinite(r)
    if not bool(fin.any()):
        return 0.0, 0.0
    err = (o[fin] - r[fin]).abs().max().item()
    return err, err / max(r[fin].abs().max().item(), 1e-30)


def assert_close(out: torch.Tensor, ref: torch.Tensor, tol: float, name: str) -> None:
    """Same shape, same non-finite pattern, relative error within ``tol``."""
    assert out.shape == ref.shape, f"{name}: shape {tuple(out.shape)} != {tuple(ref.shape)}"
    assert_written(out, name)
    same_inf = torch.equal(torch.isinf(out) & (out > 0), torch.isinf(ref) & (ref > 0)) and (
        torch.equal(torch.isinf(out) & (out < 0), torch.isinf(ref) & (ref < 0))
    )
    assert same_inf, f"{name}: infinities differ from the reference"
    abs_err, rel_err = errors(out, ref)
    assert rel_err <= tol, f"{name}: max abs err {abs_err:.3g}, rel err {rel_err:.3g} > {tol:g}"
