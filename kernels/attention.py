"""Block attention over a slot-based KV cache.

Queries of the current block attend to keys at cache indices ``< kv_limit`` of their own row:
the cached prefix plus (bidirectionally) the block itself, or the end of the query's own block
for block-causal models. One int per query expresses every mask the engine needs, because keys
are stored in position order.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from kernels.dispatch import interpreting, num_sms, triton_jit, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # the Triton path is then never taken (use_triton is false)
    triton = tl = None


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


_LOG2E = 1.4426950408889634


@triton_jit
def _block_attn_kernel(
    q_ptr,  # [B, Lq, Hq, D]
    k_ptr,  # [N, S, Hkv, D]
    v_ptr,  # [N, S, Hkv, D]
    o_ptr,  # [B, Lq, Hq, D] out (unsplit) | [splits, B*Hkv*M_PAD, D] fp32 partial sums (split)
    ml_ptr,  # [2, splits, B*Hkv*M_PAD] fp32: running max (log2 units) and sum (split only)
    slots_ptr,  # [B]
    lim_ptr,  # [B, Lq]
    LQ,
    HKV,
    G,  # query heads per kv head
    S,
    D,
    M_PAD,
    qk_scale,  # softmax scale * log2(e)
    sq_b, sq_l, sq_h, sq_d,
    sk_n, sk_s, sk_h, sk_d,
    sv_n, sv_s, sv_h, sv_d,
    so_b, so_l, so_h, so_d,
    sl_b, sl_l,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_D: tl.constexpr,
    SPLIT: tl.constexpr,
    UPCAST: tl.constexpr,
    DOT_PREC: tl.constexpr,
):  # fmt: skip
    # Rows of this program are (query, head) pairs of one kv head: the G query heads sharing
    # a kv head are packed into M, so each K/V tile is loaded once for all of them.
    pid = tl.program_id(0)
    b = pid // HKV
    hk = pid - b * HKV
    rows = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < LQ * G
    qi = rows // G
    head = hk * G + (rows - qi * G)
    dd = tl.arange(0, BLOCK_D)
    dok = dd < D
    b64 = b.to(tl.int64)
    q_off = b64 * sq_b + qi[:, None] * sq_l + head[:, None] * sq_h + dd[None, :] * sq_d
    q = tl.load(q_ptr + q_off, mask=row_ok[:, None] & dok[None, :], other=0.0)  # [M, D]
    if UPCAST:
        q = q.to(tl.float32)
    lim = tl.load(lim_ptr + b64 * sl_b + qi * sl_l, mask=row_ok, other=0)
    lim = tl.minimum(lim, S)  # never read past the cache row
    n_end = tl.max(lim)
    if SPLIT:
        # This program's share of the keys, cut from the rows' own extent: no host sync.
        n_split = tl.num_programs(2)
        chunk = tl.cdiv(tl.cdiv(n_end, n_split), BLOCK_N) * BLOCK_N
        lo = tl.program_id(2) * chunk
        hi = tl.minimum(lo + chunk, n_end)
    else:
        lo = 0
        hi = n_end
    slot = tl.load(slots_ptr + b).to(tl.int64)
    k_base = k_ptr + slot * sk_n + hk.to(tl.int64) * sk_h
    v_base = v_ptr + slot * sv_n + hk.to(tl.int64) * sv_h

    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.full((BLOCK_M,), 0.0, tl.float32)
    acc = tl.full((BLOCK_M, BLOCK_D), 0.0, tl.float32)
    for n0 in range(lo, hi, BLOCK_N):
        keys = n0 + tl.arange(0, BLOCK_N)
        kv_ok = (keys < hi)[:, None] & dok[None, :]
        k = tl.load(k_base + keys[:, None] * sk_s + dd[None, :] * sk_d, mask=kv_ok, other=0.0)
        v = tl.load(v_base + keys[:, None] * sv_s + dd[None, :] * sv_d, mask=kv_ok, other=0.0)
        if UPCAST:
            k = k.to(tl.float32)
            v = v.to(tl.float32)
        qk = tl.dot(q, tl.trans(k), input_precision=DOT_PREC) * qk_scale  # [M, N]
        qk = tl.where(keys[None, :] < lim[:, None], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        m_use = tl.where(m_new == float("-inf"), 0.0, m_new)  # rows with nothing seen yet
        alpha = tl.exp2(m_i - m_use)
        p = tl.exp2(qk - m_use[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision=DOT_PREC)
        m_i = m_new

    if SPLIT:
        part = tl.program_id(2) * tl.num_programs(0) * M_PAD + pid * M_PAD + rows  # [M]
        tl.store(o_ptr + part[:, None] * D + dd[None, :], acc, mask=dok[None, :])
        tl.store(ml_ptr + part, m_i)
        tl.store(ml_ptr + tl.num_programs(2) * tl.num_programs(0) * M_PAD + part, l_i)
    else:
        out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
        o_off = b64 * so_b + qi[:, None] * so_l + head[:, None] * so_h + dd[None, :] * so_d
        tl.store(o_ptr + o_off, out.to(o_ptr.dtype.element_ty), mask=row_ok[:, None] & dok[None, :])


@triton_jit
def _block_attn_combine_kernel(
    acc_ptr,  # [splits, R, D] fp32, R = B * Hkv * M_PAD
    ml_ptr,  # [2, splits, R] fp32
    o_ptr,  # [B, Lq, Hq, D]
    R,
    n_split,
    LQ,
    HKV,
    G,
    D,
    M_PAD,
    so_b, so_l, so_h, so_d,
    BLOCK_D: tl.constexpr,
):  # fmt: skip
    r = tl.program_id(0)
    pid = r // M_PAD
    row = r - pid * M_PAD
    if row < LQ * G:
        b = pid // HKV
        qi = row // G
        head = (pid - b * HKV) * G + (row - qi * G)
        dd = tl.arange(0, BLOCK_D)
        dok = dd < D
        m = tl.full((), float("-inf"), tl.float32)
        l = tl.full((), 0.0, tl.float32)
        acc = tl.full((BLOCK_D,), 0.0, tl.float32)
        for s in range(0, n_split):
            m_s = tl.load(ml_ptr + s * R + r)
            l_s = tl.load(ml_ptr + (n_split + s) * R + r)
            a_s = tl.load(acc_ptr + (s * R + r).to(tl.int64) * D + dd, mask=dok, other=0.0)
            m_new = tl.maximum(m, m_s)
            m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
            scale_old = tl.exp2(m - m_use)
            scale_s = tl.exp2(m_s - m_use)
            l = l * scale_old + l_s * scale_s
            acc = acc * scale_old + a_s * scale_s
            m = m_new
        out = acc / tl.where(l == 0.0, 1.0, l)
        o_off = b.to(tl.int64) * so_b + qi * so_l + head * so_h + dd * so_d
        tl.store(o_ptr + o_off, out.to(o_ptr.dtype.element_ty), mask=dok)


_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _block_attention_triton(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slots: torch.Tensor,
    kv_limit: torch.Tensor,
    scale: float,
    *,
    block_m: int | None = None,
    block_n: int | None = None,
    num_splits: int | None = None,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """Check and launch. Block sizes and the number of key splits may be forced (tests);
    by default keys are split across programs only when (batch x kv heads x query blocks)
    would leave the device's multiprocessors idle, and the splits are merged by a second
    kernel. ``out`` ([B, Lq, Hq, D], dtype of q) is written in full."""
    if q.dim() != 4 or k_cache.dim() != 4 or v_cache.shape != k_cache.shape:
        raise ValueError(
            f"q must be [B, Lq, Hq, D] and k/v caches [N, S, Hkv, D]; got {tuple(q.shape)}, "
            f"{tuple(k_cache.shape)}, {tuple(v_cache.shape)}"
        )
    B, LQ, HQ, D = q.shape
    _, S, HKV, Dk = k_cache.shape
    if Dk != D:
        raise ValueError(f"head dim of q ({D}) and cache ({Dk}) differ")
    if HQ % HKV:
        raise ValueError(f"query heads {HQ} not a multiple of kv heads {HKV}")
    if q.dtype not in _FLOATS or k_cache.dtype != q.dtype or v_cache.dtype != q.dtype:
        raise TypeError(
            f"q, k, v must share one float dtype: {q.dtype}, {k_cache.dtype}, {v_cache.dtype}"
        )
    if slots.shape != (B,) or kv_limit.shape != (B, LQ):
        raise ValueError(
            f"slots must be [{B}] and kv_limit [{B}, {LQ}], got "
            f"{tuple(slots.shape)}, {tuple(kv_limit.shape)}"
        )
    if slots.dtype.is_floating_point or kv_limit.dtype.is_floating_point:
        raise TypeError("slots and kv_limit must be integer tensors")
    if out is None:
        out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    elif out.shape != q.shape or out.dtype != q.dtype:
        raise ValueError("out must be shaped and typed like q")
    if B * LQ * HQ == 0:
        return out
    slots = slots.contiguous()  # read as slots[b]; kv_limit goes by its strides
    G = HQ // HKV
    cuda = q.is_cuda
    block_d = max(16, triton.next_power_of_2(D))
    if block_m is None:
        block_m = min(64 if cuda else 128, max(16, triton.next_power_of_2(LQ * G)))
    if block_n is None:
        block_n = (64 if block_d <= 128 else 32) if cuda else 128
    m_blocks = triton.cdiv(LQ * G, block_m)
    progs = B * HKV * m_blocks
    if num_splits is None:
        num_splits = 1
        if cuda and progs < num_sms(q.device):
            num_splits = max(1, min(triton.cdiv(2 * num_sms(q.device), progs), S // 256, 16))
    split = num_splits > 1
    m_pad = m_blocks * block_m
    R = B * HKV * m_pad  # partial-result rows: (batch, kv head, padded query row)
    if split:
        acc = torch.empty(num_splits, R, D, dtype=torch.float32, device=q.device)
        ml = torch.empty(2, num_splits, R, dtype=torch.float32, device=q.device)
        dst, dst_strides = acc, (0, 0, 0, 0)
    else:
        ml = out  # unused
        dst, dst_strides = out, out.stride()
    # The interpreter has no bf16 arithmetic: compute in fp32 there. fp32 inputs get exact
    # fp32 dots (not TF32) so that they agree with the reference to 1e-5.
    upcast = interpreting() and q.dtype == torch.bfloat16
    prec = "ieee" if q.dtype == torch.float32 or upcast else "tf32"
    _block_attn_kernel[(B * HKV, m_blocks, num_splits)](
        q, k_cache, v_cache, dst, ml, slots, kv_limit,
        LQ, HKV, G, S, D, m_pad, float(scale) * _LOG2E,
        *q.stride(), *k_cache.stride(), *v_cache.stride(), *dst_strides, *kv_limit.stride(),
        BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_D=block_d, SPLIT=split, UPCAST=upcast,
        DOT_PREC=prec, num_warps=4 if cuda else 1, num_stages=3 if cuda else 1,
    )  # fmt: skip
    if split:
        _block_attn_combine_kernel[(R,)](
            acc, ml, out, R, num_splits, LQ, HKV, G, D, m_pad, *out.stride(),
            BLOCK_D=block_d, num_warps=1 if block_d <= 64 else 2,
        )  # fmt: skip
    return out


def block_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slots: torch.Tensor,
    kv_limit: torch.Tensor,
    scale: float,
) -> torch.Tensor:
    """Attention of block queries over their row's cache; see :func:`block_attention_ref`.

    The Triton path is flash-attention style (online softmax over key tiles, no score matrix
    in memory), reads K/V straight from the cache rows named by ``slots`` and shares each K/V
    tile among the query heads of a GQA group.
    """
    if use_triton(q):
        return _block_attention_triton(q, k_cache, v_cache, slots, kv_limit, scale)
    return block_attention_ref(q, k_cache, v_cache, slots, kv_limit, scale)
