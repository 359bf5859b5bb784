"""Unmask selection: which masked positions to commit this step, and to what token.

From logits [B, L, V] and the still-masked positions, per position the chosen token (argmax,
or a Gumbel-max sample after temperature, top-k and an optional per-position cut such as a
nucleus) and its confidence (softmax probability of that token under the raw logits, as LLaDA
scores it, or, for rows that ask, the negative entropy of the raw distribution, as Dream's own
sampler scores it); then per row the positions to commit: every masked position whose confidence
reaches the row's threshold and at least the single most confident one, or exactly the top-n
most confident for fixed-schedule decoders.

Sampled rows draw their noise from their own seed, counted by (position in the row, token): a
row's draw never depends on which other rows share the call.
"""

from __future__ import annotations

import torch

from kernels.dispatch import num_sms, triton_jit, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # the Triton path is then never taken (use_triton is false)
    triton = tl = None


def row_seeds(seed: int | torch.Tensor, B: int, device: torch.device) -> torch.Tensor:
    """Per-row seeds [B] int64: a tensor as given, or an int spread over the rows."""
    if isinstance(seed, torch.Tensor):
        if seed.shape != (B,):
            raise ValueError(f"seed must be an int or [{B}], got {tuple(seed.shape)}")
        return seed.to(device=device, dtype=torch.int64)
    return (seed + 7919 * torch.arange(B, device=device)) % (2**31)


def unmask_select_ref(
    logits: torch.Tensor,
    masked: torch.Tensor,
    threshold: torch.Tensor,
    num_commit: torch.Tensor,
    temperature: torch.Tensor,
    top_k: torch.Tensor,
    seed: int | torch.Tensor = 0,
    cut: torch.Tensor | None = None,
    entropy: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Plain-torch reference.

    logits: [B, L, V] (fp32/bf16/fp16); masked: [B, L] bool — positions eligible to commit;
    threshold: [B] float; num_commit: [B] int (0 → threshold rule, n > 0 → commit top-n);
    temperature: [B] float (0 → greedy); top_k: [B] int (0 → whole vocabulary);
    seed: int, or [B] int per row; cut: [B, L] fp32 or None — sampled rows keep only logits
    ≥ cut (a nucleus; -inf keeps all); entropy: [B] bool or None — rows whose confidence is the
    negative entropy Σ p·log(p + 1e-10) of the raw distribution (Dream's ``entropy`` rule).
    Returns tokens [B, L] int64, confidence [B, L] fp32 (-inf where not masked), commit [B, L].
    """
    B, L, V = logits.shape
    x = logits.float()
    probs_conf = torch.softmax(x, dim=-1)  # [B, L, V]
    scores = x.clone()
    k = top_k.to(torch.long)
    t = temperature.float()
    sample = t > 0
    if bool((k > 0).any()):
        kk = k.clamp(min=1, max=V)
        kth = torch.topk(scores, int(kk.max().item()), dim=-1).values  # [B, L, kmax]
        kcut = kth.gather(-1, (kk - 1)[:, None, None].expand(B, L, 1))
        keep = (scores >= kcut) | (k <= 0)[:, None, None] | ~sample[:, None, None]
        scores = scores.masked_fill(~keep, float("-inf"))
    if cut is not None:
        keep = (scores >= cut.float()[..., None]) | ~sample[:, None, None]
        scores = scores.masked_fill(~keep, float("-inf"))
    if bool(sample.any()):
        seeds = row_seeds(seed, B, logits.device).tolist()
        u = torch.ones(scores.shape, device=logits.device)
        for b in sample.nonzero().flatten().tolist():
            g = torch.Generator(device=logits.device).manual_seed(int(seeds[b]))
            u[b] = torch.rand((L, V), generator=g, device=logits.device)
        gumbel = -torch.log(-torch.log(u.clamp_(1e-20, 1.0)))
        noisy = scores / t.clamp(min=1e-6)[:, None, None] + gumbel
        scores = torch.where(sample[:, None, None], noisy, scores)
    tokens = scores.argmax(-1)  # [B, L]
    conf = probs_conf.gather(-1, tokens[..., None]).squeeze(-1)
    if entropy is not None and bool(entropy.any()):
        neg_ent = (probs_conf * torch.log(probs_conf + 1e-10)).sum(-1)  # [B, L]
        conf = torch.where(entropy.to(conf.device)[:, None], neg_ent, conf)
    conf = conf.masked_fill(~masked, float("-inf"))
    commit = select_commits(conf, masked, threshold, num_commit)
    return tokens, conf, commit


def select_commits(
    conf: torch.Tensor, masked: torch.Tensor, threshold: torch.Tensor, num_commit: torch.Tensor
) -> torch.Tensor:
    """Per row: top-n by confidence if n > 0, else all ≥ threshold plus the most confident."""
    B, L = conf.shape
    order = conf.argsort(dim=-1, descending=True, stable=True)  # ties: lowest position first
    rank = torch.empty_like(order)
    rank.scatter_(1, order, torch.arange(L, device=conf.device).expand(B, L))
    n = num_commit.to(torch.long)[:, None]
    by_rank = (rank < n.clamp(min=1)) & masked
    by_thr = ((conf >= threshold.float()[:, None]) | (rank == 0)) & masked
    return torch.where(n > 0, by_rank, by_thr)


def unmask_select(
    logits: torch.Tensor,
    masked: torch.Tensor,
    threshold: torch.Tensor,
    num_commit: torch.Tensor,
    temperature: torch.Tensor,
    top_k: torch.Tensor,
    seed: int | torch.Tensor = 0,
    cut: torch.Tensor | None = None,
    entropy: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Choose tokens and commit positions; see :func:`unmask_select_ref` for the contract.

    The Triton path reads the logits once (no [B, L, V] temporaries) and never syncs with the
    host. Greedy rows match the reference exactly; sampled rows draw their Gumbel noise from
    Triton's Philox stream (keyed by the row's seed, position and token) instead of torch's
    generator, so they agree with the reference in distribution, not sample by sample.
    Entropy confidence (Dream's reference sampler, a full-recompute baseline) takes the
    reference path: pass ``entropy=None`` when no row asks for it.
    """
    if use_triton(logits) and entropy is None:
        return _unmask_select_triton(
            logits, masked, threshold, num_commit, temperature, top_k, seed, cut=cut
        )
    return unmask_select_ref(
        logits, masked, threshold, num_commit, temperature, top_k, seed, cut, entropy
    )


# ---------------------------------------------------------------------------------------------
# Triton path.
#
# Three launches, none of which syncs with the host:
#   1. _topk_cut_kernel: per position the k-th largest logit (radix select over the float bits,
#      four 8-bit passes), only for rows that sample with top-k; every other program exits at once.
#   2. _unmask_partial_kernel: grid (B*L, splits). One pass over its slice of the vocabulary with
#      an online softmax of the raw logits and a running best of the (noisy, filtered) scores.
#   3. _unmask_combine_kernel: grid (B,). Merges the splits into token and confidence, then picks
#      the row's commits (threshold rule, or top-n by rank with ties to the lowest position).
# ---------------------------------------------------------------------------------------------


@triton_jit
def _float_key(x):
    """Map fp32 to uint32 so that unsigned order is float order (NaN aside)."""
    bits = x.to(tl.uint32, bitcast=True)
    flip = tl.where((bits >> 31) != 0, 0xFFFFFFFF, 0x80000000).to(tl.uint32)
    return bits ^ flip


@triton_jit
def _topk_cut_kernel(
    logits_ptr,  # [B, L, V]
    temp_ptr,  # [B] float
    topk_ptr,  # [B] int
    cut_ptr,  # [B * L] fp32 out: keep logits >= cut (-inf: keep all)
    L,
    V,
    stride_b,
    stride_l,
    stride_v,
    BLOCK_V: tl.constexpr,
):
    r = tl.program_id(0)
    b = r // L
    t = tl.load(temp_ptr + b).to(tl.float32)
    k = tl.load(topk_ptr + b)
    cut = tl.full((), float("-inf"), tl.float32)
    if (t > 0) & (k > 0) & (k < V):
        row = logits_ptr + b.to(tl.int64) * stride_b + (r - b * L).to(tl.int64) * stride_l
        lane = tl.arange(0, BLOCK_V)
        bins = tl.arange(0, 256)
        prefix = tl.zeros((), dtype=tl.uint32)
        remaining = k.to(tl.int32)  # rank of the wanted value among keys sharing ``prefix``
        for p in tl.static_range(4):
            shift = 24 - 8 * p
            hist = tl.zeros((256,), dtype=tl.int32)
            for v0 in range(0, V, BLOCK_V):
                offs = v0 + lane
                valid = offs < V
                x = tl.load(row + offs * stride_v, mask=valid, other=float("-inf")).to(tl.float32)
                key = _float_key(x)
                if p > 0:
                    valid = valid & ((key >> (shift + 8)) == (prefix >> (shift + 8)))
                hist += tl.histogram(((key >> shift) & 255).to(tl.int32), 256, mask=valid)
            at_or_above = tl.cumsum(hist, 0, reverse=True)  # [256] keys with digit >= d
            digit = tl.max(tl.where(at_or_above >= remaining, bins, -1))
            remaining -= tl.sum(tl.where(bins > digit, hist, 0))
            prefix = prefix | (digit.to(tl.uint32) << shift)
        # Back from key to float.
        bits = tl.where((prefix >> 31) != 0, prefix ^ 0x80000000, ~prefix)
        cut = bits.to(tl.float32, bitcast=True)
    tl.store(cut_ptr + r, cut)


@triton_jit
def _unmask_partial_kernel(
    logits_ptr,  # [B, L, V] fp32 / fp16 / bf16
    temp_ptr,  # [B] float
    cut_ptr,  # [B * L] fp32
    part_m_ptr,  # [B * L, S] fp32 running max of the raw logits
    part_d_ptr,  # [B * L, S] fp32 sum of exp(logit - max)
    part_s_ptr,  # [B * L, S] fp32 best score
    part_i_ptr,  # [B * L, S] int32 its vocabulary index (INT_MAX: none)
    part_x_ptr,  # [B * L, S] fp32 raw logit at that index
    seed_ptr,  # [B] int64 per-row seeds
    L,
    V,
    stride_b,
    stride_l,
    stride_v,
    tiles_per_split,
    BLOCK_V: tl.constexpr,
):
    r = tl.program_id(0)
    s = tl.program_id(1)
    n_split = tl.num_programs(1)
    b = r // L
    row = logits_ptr + b.to(tl.int64) * stride_b + (r - b * L).to(tl.int64) * stride_l
    t = tl.load(temp_ptr + b).to(tl.float32)
    sampling = t > 0
    t_div = tl.maximum(t, 1e-6)
    cut = tl.load(cut_ptr + r)
    seed = tl.load(seed_ptr + b)
    noise_base = (r - b * L).to(tl.int64) * V  # Philox counter: one per (position in row, token)

    lane = tl.arange(0, BLOCK_V)
    m = tl.full((), float("-inf"), tl.float32)
    d = tl.full((), 0.0, tl.float32)
    top = tl.full((), float("-inf"), tl.float32)  # best score so far, its index and raw logit
    top_i = tl.full((), 2147483647, tl.int32)
    top_x = tl.full((), float("-inf"), tl.float32)
    v_start = s * tiles_per_split * BLOCK_V
    for it in range(0, tiles_per_split):
        v0 = v_start + it * BLOCK_V
        offs = v0 + lane
        x = tl.load(
            row + offs * stride_v, mask=offs < V, other=float("-inf"), eviction_policy="evict_first"
        ).to(tl.float32)
        x_max = tl.max(x)
        # Online softmax of the raw logits (the confidence is always measured unfiltered).
        m_new = tl.maximum(m, x_max)
        m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
        d = d * tl.exp(m - m_use) + tl.sum(tl.exp(x - m_use))
        m = m_new
        if sampling:
            u = tl.maximum(tl.rand(seed, noise_base + offs), 1e-20)
            score = tl.where(x >= cut, x / t_div - tl.log(-tl.log(u)), float("-inf"))
            s_max = tl.max(score)
            if s_max > top:  # strict: an earlier tile keeps a tie
                j = tl.argmax(score, axis=0, tie_break_left=True)
                top = s_max
                top_i = v0 + j
                top_x = tl.max(tl.where(lane == j, x, float("-inf")))
        else:
            # Greedy: the argmax is only looked for in tiles that raise the maximum.
            if x_max > top:
                top = x_max
                top_i = v0 + tl.argmax(x, axis=0, tie_break_left=True)
                top_x = x_max

    out = r * n_split + s
    tl.store(part_m_ptr + out, m)
    tl.store(part_d_ptr + out, d)
    tl.store(part_s_ptr + out, top)
    tl.store(part_i_ptr + out, top_i)
    tl.store(part_x_ptr + out, top_x)


@triton_jit
def _unmask_combine_kernel(
    part_m_ptr,  # [B * L, S]
    part_d_ptr,
    part_s_ptr,
    part_i_ptr,
    part_x_ptr,
    masked_ptr,  # [B, L] uint8
    thr_ptr,  # [B] float
    n_ptr,  # [B] int
    tokens_ptr,  # [B, L] int64 out
    conf_ptr,  # [B, L] fp32 out
    commit_ptr,  # [B, L] uint8 out
    L,
    S,
    BLOCK_L: tl.constexpr,
    BLOCK_S: tl.constexpr,
    BLOCK_J: tl.constexpr,
):
    b = tl.program_id(0)
    base = b * L
    splits = tl.arange(0, BLOCK_S)
    best_c = tl.full((), float("-inf"), tl.float32)  # most confident masked position so far
    best_l = tl.full((), -1, tl.int32)
    for l0 in range(0, L, BLOCK_L):
        pos = l0 + tl.arange(0, BLOCK_L)
        ok = pos < L
        idx = (base + pos)[:, None] * S + splits[None, :]  # [BLOCK_L, BLOCK_S]
        ok2 = ok[:, None] & (splits < S)[None, :]
        pm = tl.load(part_m_ptr + idx, mask=ok2, other=float("-inf"))
        pd = tl.load(part_d_ptr + idx, mask=ok2, other=0.0)
        ps = tl.load(part_s_ptr + idx, mask=ok2, other=float("-inf"))
        pi = tl.load(part_i_ptr + idx, mask=ok2, other=2147483647)
        px = tl.load(part_x_ptr + idx, mask=ok2, other=float("-inf"))
        m = tl.max(pm, axis=1)  # [BLOCK_L]
        m_use = tl.where(m == float("-inf"), 0.0, m)
        d = tl.sum(pd * tl.exp(pm - m_use[:, None]), axis=1)
        top = tl.max(ps, axis=1)
        top_i = tl.min(tl.where(ps == top[:, None], pi, 2147483647), axis=1)
        top_x = tl.max(tl.where(pi == top_i[:, None], px, float("-inf")), axis=1)
        token = tl.where(top_i == 2147483647, 0, top_i)  # all -inf: argmax is index 0
        conf = tl.exp(top_x - m_use) / tl.where(ok, d, 1.0)  # padding lanes: no 0/0
        msk = tl.load(masked_ptr + base + pos, mask=ok, other=0) != 0
        conf = tl.where(msk, conf, float("-inf"))
        tl.store(tokens_ptr + base + pos, token.to(tl.int64), mask=ok)
        tl.store(conf_ptr + base + pos, conf, mask=ok)
        c_max = tl.max(conf)
        c_arg = tl.argmax(conf, axis=0, tie_break_left=True) + l0
        better = c_max > best_c
        best_l = tl.where(better, c_arg, best_l)
        best_c = tl.where(better, c_max, best_c)

    # The rank pass re-reads confidences other threads of this program wrote.
    tl.debug_barrier()
    n = tl.load(n_ptr + b)
    thr = tl.load(thr_ptr + b).to(tl.float32)
    for l0 in range(0, L, BLOCK_L):
        pos = l0 + tl.arange(0, BLOCK_L)
        ok = pos < L
        c_i = tl.load(conf_ptr + base + pos, mask=ok, other=float("-inf"))
        msk = tl.load(masked_ptr + base + pos, mask=ok, other=0) != 0
        if n > 0:
            # rank = positions ahead in a stable descending sort: higher, or equal and earlier.
            rank = tl.zeros((BLOCK_L,), dtype=tl.int32)
            for j0 in range(0, L, BLOCK_J):
                pos_j = j0 + tl.arange(0, BLOCK_J)
                c_j = tl.load(conf_ptr + base + pos_j, mask=pos_j < L, other=float("-inf"))
                ahead = (c_j[None, :] > c_i[:, None]) | (
                    (c_j[None, :] == c_i[:, None]) & (pos_j[None, :] < pos[:, None])
                )
                ahead = ahead & (pos_j < L)[None, :]
                rank += tl.sum(ahead.to(tl.int32), axis=1)
            commit = (rank < n) & msk
        else:
            commit = ((c_i >= thr) | (pos == best_l)) & msk
        tl.store(commit_ptr + base + pos, commit.to(tl.uint8), mask=ok)


def _unmask_select_triton(
    logits: torch.Tensor,
    masked: torch.Tensor,
    threshold: torch.Tensor,
    num_commit: torch.Tensor,
    temperature: torch.Tensor,
    top_k: torch.Tensor,
    seed: int | torch.Tensor = 0,
    *,
    cut: torch.Tensor | None = None,
    block_v: int | None = None,
    num_splits: int | None = None,
    out: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Launch the three kernels. ``block_v``/``num_splits`` override the heuristics (tests);
    ``out`` = (tokens int64, conf fp32, commit bool), each [B, L], is written in full; ``cut``
    [B, L] (keep logits ≥ cut when sampling) is merged with the top-k cut."""
    if logits.dim() != 3:
        raise ValueError(f"logits must be [B, L, V], got shape {tuple(logits.shape)}")
    if logits.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise TypeError(f"logits must be fp32, fp16 or bf16, got {logits.dtype}")
    B, L, V = logits.shape
    if B == 0 or L == 0:
        raise ValueError("empty batch")
    if V >= 2**31 - 1:
        raise ValueError("vocabulary too large for int32 token ids")
    dev = logits.device
    if masked.shape != (B, L) or masked.dtype != torch.bool:
        raise ValueError(
            f"masked must be bool [{B}, {L}], got {masked.dtype} {tuple(masked.shape)}"
        )
    for name, v in (
        ("threshold", threshold),
        ("num_commit", num_commit),
        ("temperature", temperature),
        ("top_k", top_k),
    ):
        if v.shape != (B,):
            raise ValueError(f"{name} must be [{B}], got {tuple(v.shape)}")
        if v.device != dev:
            raise ValueError(f"{name} is on {v.device}, logits on {dev}")
    if not (threshold.dtype.is_floating_point and temperature.dtype.is_floating_point):
        raise TypeError("threshold and temperature must be float tensors")
    if num_commit.dtype.is_floating_point or top_k.dtype.is_floating_point:
        raise TypeError("num_commit and top_k must be integer tensors")
    # Per-row settings are read in their own dtypes (no conversion launches at batch 1).
    masked_u8 = masked.contiguous().view(torch.uint8)
    thr, n, temp, k = (v.contiguous() for v in (threshold, num_commit, temperature, top_k))

    if block_v is None:
        block_v = 1024 if dev.type != "cuda" else (4096 if logits.element_size() == 2 else 2048)
    block_v = min(block_v, triton.next_power_of_2(V))
    n_tiles = triton.cdiv(V, block_v)
    if num_splits is None:
        # Enough programs to fill the device about four times over; never a split without work.
        num_splits = 1 if dev.type != "cuda" else triton.cdiv(4 * num_sms(dev), B * L)
    num_splits = max(1, min(num_splits, n_tiles))
    tiles_per_split = triton.cdiv(n_tiles, num_splits)
    num_splits = triton.cdiv(n_tiles, tiles_per_split)
    warps = 1 if dev.type != "cuda" else 8

    if out is None:
        tokens = torch.empty(B, L, dtype=torch.int64, device=dev)
        conf = torch.empty(B, L, dtype=torch.float32, device=dev)
        commit = torch.empty(B, L, dtype=torch.bool, device=dev)
    else:
        tokens, conf, commit = out
        for name, o, dt in (
            ("tokens", tokens, torch.int64),
            ("conf", conf, torch.float32),
            ("commit", commit, torch.bool),
        ):
            if o.shape != (B, L) or o.dtype != dt or not o.is_contiguous():
                raise ValueError(f"out {name} must be contiguous {dt} [{B}, {L}]")

    if cut is not None and (cut.shape != (B, L) or cut.device != dev):
        raise ValueError(f"cut must be [{B}, {L}] on {dev}, got {tuple(cut.shape)}")
    seeds = row_seeds(seed, B, dev)

    R = B * L
    cuts = torch.empty(R, dtype=torch.float32, device=dev)
    part = torch.empty(5, R, num_splits, dtype=torch.float32, device=dev)
    part_i = part[3].view(torch.int32)  # same bytes, reinterpreted: one allocation for all five
    sb, sl, sv = logits.stride()
    _topk_cut_kernel[(R,)](
        logits, temp, k, cuts, L, V, sb, sl, sv, BLOCK_V=block_v, num_warps=warps
    )
    if cut is not None:  # a nucleus and a top-k: keep what both keep
        torch.maximum(cuts, cut.reshape(R).float(), out=cuts)
    _unmask_partial_kernel[(R, num_splits)](
        logits,
        temp,
        cuts,
        part[0],
        part[1],
        part[2],
        part_i,
        part[4],
        seeds,
        L,
        V,
        sb,
        sl,
        sv,
        tiles_per_split,
        BLOCK_V=block_v,
        num_warps=warps,
    )
    block_l = min(triton.next_power_of_2(L), 128)
    _unmask_combine_kernel[(B,)](
        part[0],
        part[1],
        part[2],
        part_i,
        part[4],
        masked_u8,
        thr,
        n,
        tokens,
        conf,
        commit.view(torch.uint8),
        L,
        num_splits,
        BLOCK_L=block_l,
        BLOCK_S=triton.next_power_of_2(num_splits),
        BLOCK_J=min(triton.next_power_of_2(L), 4096 // block_l),
        num_warps=1 if dev.type != "cuda" else 4,
    )
    return tokens, conf, commit
