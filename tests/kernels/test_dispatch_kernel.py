"""Public kernel functions pick the Triton launcher or the reference as the backend says."""

from __future__ import annotations

import importlib

import pytest
import torch

import kernels

# The package re-exports the public functions under the op names: fetch the modules themselves.
attention, rmsnorm, rope, swiglu, unmask = (
    importlib.import_module(f"kernels.{name}")
    for name in ("attention", "rmsnorm", "rope", "swiglu", "unmask")
)


def _calls():
    """(module, launcher name, reference name, call of the public function) for every op."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 8, generator=g)
    q, k = torch.randn(1, 2, 2, 4, generator=g), torch.randn(1, 2, 1, 4, generator=g)
    cos, sin = kernels.rope_cos_sin(torch.arange(2)[None], 4, 10000.0)
    kc = torch.randn(1, 6, 1, 4, generator=g)
    logits = torch.randn(1, 2, 10, generator=g)
    B = torch.ones(1)
    return [
        (rmsnorm, "_rmsnorm_triton", "rmsnorm_ref", lambda: kernels.rmsnorm(x, x[0], 1e-6)),
        (swiglu, "_swiglu_triton", "swiglu_ref", lambda: kernels.swiglu(x, x)),
        (rope, "_apply_rope_triton", "apply_rope_ref", lambda: kernels.apply_rope(q, k, cos, sin)),
        (
            attention,
            "_block_attention_triton",
            "block_attention_ref",
            lambda: kernels.block_attention(
                q, kc, kc, torch.tensor([0]), torch.tensor([[3, 6]]), 0.5
            ),
        ),
        (
            unmask,
            "_unmask_select_triton",
            "unmask_select_ref",
            lambda: kernels.unmask_select(
                logits, torch.ones(1, 2, dtype=torch.bool), B, B.long(), 0 * B, 0 * B.long()
            ),
        ),
    ]


@pytest.mark.parametrize(
    "backend,expect", [("triton", "kernel"), ("torch", "ref"), ("auto", "ref")]
)
def test_dispatch_kernel_or_reference(monkeypatch, backend, expect):
    kernels.set_backend(backend)
    for module, launcher, ref, call in _calls():
        seen: list[str] = []
        real_launcher, real_ref = getattr(module, launcher), getattr(module, ref)

        def spy_launcher(*a, _real=real_launcher, _seen=seen, **kw):
            _seen.append("kernel")
            return _real(*a, **kw)

        def spy_ref(*a, _real=real_ref, _seen=seen, **kw):
            _seen.append("ref")
            return _real(*a, **kw)

        monkeypatch.setattr(module, launcher, spy_launcher)
        monkeypatch.setattr(module, ref, spy_ref)
        call()
        # On this CPU-only check "auto" must fall back to the reference.
        assert seen == [expect], f"{module.__name__} with backend {backend}: {seen}"


def test_dispatch_kernel_backend_names():
    with pytest.raises(ValueError):
        kernels.set_backend("cuda")
