"""Block attention over a slot-based KV cache.

Queries of the current block attend to keys at cache indices ``< kv_limit`` of their own row:
the cached prefix plus (bidirectionally) the block itself, or the end of the query's own block
for block-causal models. One int per query expresses every mask the engine needs, because keys
are stored in position order.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def block_attention_ref(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slots: torch.Tensor,
    kv_limit: torch.Tensor,
    scale: float,
) -> torch.Tensor:
    """Reference with torch SDPA.

    q: [B, Lq, Hq, D]; k_cache, v_cache: [N, S, Hkv, D]; slots: [B] cache rows;
    kv_limit: [B, Lq] — query i of row b sees keys j < kv_limit[b, i] (≥ 1).
    Returns [B, Lq, Hq, D].
    """
    B, Lq, Hq, D = q.shape
    Hkv = k_cache.shape[2]
    S = int(kv_limit.max().item())
    k = k_cache[slots, :S].transpose(1, 2)  # [B, Hkv, S, D]
    v = v_cache[slots, :S].transpose(1, 2)
    if Hq != Hkv:
        k = k.repeat_interleave(Hq // Hkv, dim=1)
        v = v.repeat_interleave(Hq // Hkv, dim=1)
    idx = torch.arange(S, device=q.device)
    mask = idx[None, None, :] < kv_limit[:, :, None]  # [B, Lq, S]
    out = F.scaled_dot_product_attention(
        q.transpose(1, 2), k, v, attn_mask=mask[:, None], scale=scale
    )
    return out.transpose(1, 2)


def block_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slots: torch.Tensor,
    kv_limit: torch.Tensor,
    scale: float,
) -> torch.Tensor:
    """Attention of block queries over their row's cache; see :func:`block_attention_ref`."""
    return block_attention_ref(q, k_cache, v_cache, slots, kv_limit, scale)
