"""The engine's own transformer for diffusion LMs: one readable file for every supported family.

Three families share one LLaMA/Qwen-style decoder stack and differ only in a few switches:

- ``llada``  — LLaDA-8B / LLaDA-1.5: fully bidirectional, no biases, untied head.
- ``dream``  — Dream-v0-7B: Qwen2 layout (q/k/v biases), bidirectional, logits shifted by one.
- ``sdar``   — SDAR / block diffusion (Qwen3 layout, per-head q/k RMSNorm): block-causal
  attention with an exact KV cache for finished blocks; the bundled demo model is one.
- ``fast_dllm_v2`` — Fast-dLLM v2: Qwen2 layout, block-causal, logits shifted by one.

Every op that matters for speed goes through ``kernels`` (Triton on CUDA, torch elsewhere).
Tensors are token-major throughout: activations [B, L, H, D], the cache [N, S, Hkv, D].
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from kernels import apply_rope, block_attention, rmsnorm, rope_cos_sin, swiglu

FAMILIES = ("llada", "dream", "sdar", "fast_dllm_v2")
BLOCK_CAUSAL = ("sdar", "fast_dllm_v2")


@dataclass
class ModelConfig:
    """Architecture of a diffusion LM; checks itself on construction."""

    family: str
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int = 0  # 0 → hidden_size // num_heads
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-6
    tie_word_embeddings: bool = False
    qkv_bias: bool = False
    qk_norm: bool = False
    logit_shift: bool = False
    mask_token_id: int = 0
    eos_token_ids: list[int] = field(default_factory=list)
    # Block diffusion: size of a block and where blocks start. "absolute": blocks are
    # [k*bs, (k+1)*bs) from position 0 (SDAR, Fast-dLLM v2); "prompt": the whole prompt is one
    # block and reply blocks start right after it (the bundled demo model).
    block_size: int = 0
    block_align: str = "absolute"
    # The model answers structured requests best from a prose draft (engine/fill.py).
    json_from_draft: bool = False
    max_position_embeddings: int = 4096

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(
                f"unsupported model family {self.family!r}; supported: {', '.join(FAMILIES)}"
            )
        # Switches that follow from the family's on-disk layout.
        if self.family == "sdar":
            self.qk_norm = True
        if self.family in ("dream", "fast_dllm_v2"):
            self.qkv_bias = True
            self.logit_shift = True
        if self.head_dim == 0:
            self.head_dim = self.hidden_size // self.num_heads
        if self.num_heads % self.num_kv_heads:
            raise ValueError("num_heads must be a multiple of num_kv_heads")
        if self.head_dim % 2:
            raise ValueError("head_dim must be even for rotary embeddings")
        if self.block_causal and self.block_size <= 0:
            raise ValueError(f"family {self.family} needs block_size > 0")
        if self.block_align not in ("absolute", "prompt"):
            raise ValueError("block_align must be 'absolute' or 'prompt'")
        if not 0 <= self.mask_token_id < self.vocab_size:
            raise ValueError(f"mask_token_id {self.mask_token_id} outside the vocabulary")

    @property
    def block_causal(self) -> bool:
        return self.family in BLOCK_CAUSAL

    def to_dict(self) -> dict:
        return asdict(self)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(
        self, x: torch.Tensor, residual: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return rmsnorm(x, self.weight, self.eps, residual)


@dataclass
class CacheView:
    """Per-step attention metadata for a forward pass that reads and writes the KV cache."""

    k: torch.Tensor  # [num_layers, N, S, Hkv, D]
    v: torch.Tensor  # [num_layers, N, S, Hkv, D]
    slots: torch.Tensor  # [B] cache row of each batch row
    kv_limit: torch.Tensor  # [B, Lq] query i sees cache indices < kv_limit
    write_rows: torch.Tensor  # [n] flattened (slot) of each valid query token
    write_pos: torch.Tensor  # [n] flattened position of each valid query token
    valid: torch.Tensor  # [B, Lq] bool, real (not padding) query tokens


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        d, hq, hk, hd = cfg.hidden_size, cfg.num_heads, cfg.num_kv_heads, cfg.head_dim
        self.q_proj = nn.Linear(d, hq * hd, bias=cfg.qkv_bias)
        self.k_proj = nn.Linear(d, hk * hd, bias=cfg.qkv_bias)
        self.v_proj = nn.Linear(d, hk * hd, bias=cfg.qkv_bias)
        self.o_proj = nn.Linear(hq * hd, d, bias=False)
        if cfg.qk_norm:
            self.q_norm = RMSNorm(hd, cfg.rms_norm_eps)
            self.k_norm = RMSNorm(hd, cfg.rms_norm_eps)
        self.scale = hd**-0.5

    def forward(
        self,
        x: torch.Tensor,  # [B, L, d]
        cos: torch.Tensor,  # [B, L, hd/2]
        sin: torch.Tensor,
        attn_mask: torch.Tensor | None,  # [B, 1, L, L] bool, plain path only
        cache: CacheView | None,
        layer: int,
    ) -> torch.Tensor:
        B, L, _ = x.shape
        cfg = self.cfg
        q = self.q_proj(x).view(B, L, cfg.num_heads, cfg.head_dim)
        k = self.k_proj(x).view(B, L, cfg.num_kv_heads, cfg.head_dim)
        v = self.v_proj(x).view(B, L, cfg.num_kv_heads, cfg.head_dim)
        if cfg.qk_norm:
            q = self.q_norm(q)[0]
            k = self.k_norm(k)[0]
        q, k = apply_rope(q.contiguous(), k.contiguous(), cos, sin)
        if cache is None:
            o = F.scaled_dot_product_attention(
                q.transpose(1, 2),
                k.transpose(1, 2),
                v.transpose(1, 2),
                attn_mask=attn_mask,
                scale=self.scale,
                enable_gqa=cfg.num_heads != cfg.num_kv_heads,
            ).transpose(1, 2)  # [B, L, Hq, D]
        else:
            valid = cache.valid
            cache.k[layer, cache.write_rows, cache.write_pos] = k[valid]
            cache.v[layer, cache.write_rows, cache.write_pos] = v[valid]
            o = block_attention(
                q, cache.k[layer], cache.v[layer], cache.slots, cache.kv_limit, self.scale
            )
        return self.o_proj(o.reshape(B, L, cfg.num_heads * cfg.head_dim))


class MLP(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.up_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.down_proj = nn.Linear(cfg.intermediate_size, cfg.hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(swiglu(self.gate_proj(x), self.up_proj(x)))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = MLP(cfg)


class Backbone(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.num_layers))
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)


class DiffusionLM(nn.Module):
    """Mask-predictor transformer: token ids (some of them the mask id) → logits per position."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.model = Backbone(cfg)
        self.lm_head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)
        if cfg.tie_word_embeddings:
            self.lm_head.weight = self.model.embed_tokens.weight

    def forward(
        self,
        input_ids: torch.Tensor,  # [B, L]
        positions: torch.Tensor,  # [B, L]
        attn_mask: torch.Tensor | None = None,  # [B, 1, L, L] bool, True = may attend
        cache: CacheView | None = None,
        return_hidden: bool = False,
    ) -> torch.Tensor:
        """Logits [B, L, V] (or final hidden states [B, L, d] with ``return_hidden``).

        Without ``cache`` the pass attends only among its own tokens under ``attn_mask`` (None =
        fully bidirectional): training and numerical references. With ``cache`` every valid
        token's K/V is written to its slot at its position and queries attend through
        ``kernels.block_attention`` under ``cache.kv_limit``.
        """
        cfg = self.cfg
        h = self.model.embed_tokens(input_ids)  # [B, L, d]
        cos, sin = rope_cos_sin(positions, cfg.head_dim, cfg.rope_theta, torch.float32)
        residual: torch.Tensor | None = None
        for i, layer in enumerate(self.model.layers):
            x, residual = layer.input_layernorm(h, residual)
            h = layer.self_attn(x, cos, sin, attn_mask, cache, i)
            x, residual = layer.post_attention_layernorm(h, residual)
            h = layer.mlp(x)
        h, _ = self.model.norm(h, residual)
        if return_hidden:
            return h
        return self.lm_head(h)

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """Project final hidden states [..., d] to logits [..., V]."""
        return self.lm_head(hidden)
