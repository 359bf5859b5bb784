"""Unmask selection: which masked positions to commit this step, and to what token.

From logits [B, L, V] and the still-masked positions, per position the chosen token (argmax,
or a Gumbel-max sample after temperature and top-k) and its confidence (softmax probability of
that token under the raw logits, as LLaDA scores it); then per row the positions to commit:
every masked position whose confidence reaches the row's threshold and at least the single most
confident one, or exactly the top-n most confident for the fixed-schedule reference decoder.
"""

from __future__ import annotations

import torch


def unmask_select_ref(
    logits: torch.Tensor,
    masked: torch.Tensor,
    threshold: torch.Tensor,
    num_commit: torch.Tensor,
    temperature: torch.Tensor,
    top_k: torch.Tensor,
    seed: int = 0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Plain-torch reference.

    logits: [B, L, V] (fp32/bf16/fp16); masked: [B, L] bool — positions eligible to commit;
    threshold: [B] float; num_commit: [B] int (0 → threshold rule, n > 0 → commit top-n);
    temperature: [B] float (0 → greedy); top_k: [B] int (0 → whole vocabulary).
    Returns tokens [B, L] int64, confidence [B, L] fp32 (-inf where not masked), commit [B, L].
    """
    B, L, V = logits.shape
    x = logits.float()
    probs_conf = torch.softmax(x, dim=-1)  # [B, L, V]
    scores = x.clone()
    k = top_k.to(torch.long)
    if bool((k > 0).any()):
        kk = k.clamp(min=1, max=V)
        kth = torch.topk(scores, int(kk.max().item()), dim=-1).values  # [B, L, kmax]
        cut = kth.gather(-1, (kk - 1)[:, None, None].expand(B, L, 1))
        keep = (scores >= cut) | (k <= 0)[:, None, None]
        scores = scores.masked_fill(~keep, float("-inf"))
    t = temperature.float()
    sample = t > 0
    if bool(sample.any()):
        g = torch.Generator(device=logits.device).manual_seed(seed)
        u = torch.rand(scores.shape, generator=g, device=logits.device).clamp_(1e-20, 1.0)
        gumbel = -torch.log(-torch.log(u))
        noisy = scores / t.clamp(min=1e-6)[:, None, None] + gumbel
        scores = torch.where(sample[:, None, None], noisy, scores)
    tokens = scores.argmax(-1)  # [B, L]
    conf = probs_conf.gather(-1, tokens[..., None]).squeeze(-1)
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
    seed: int = 0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Choose tokens and commit positions; see :func:`unmask_select_ref` for the contract."""
    return unmask_select_ref(logits, masked, threshold, num_commit, temperature, top_k, seed)
