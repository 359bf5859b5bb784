"""A minimal one-block decoder for checking training progress without the engine.

Semantics of the reference decoder (LLaDA's ``generate.py``) for a single reply block: start
with every reply position masked, run the whole sequence each step, and commit the most confident
masked position (``threshold=None``: one token per step), or every masked position whose
confidence reaches ``threshold`` plus the most confident one (the fast parallel mode). The shipped
evaluation goes through the engine (:mod:`training.evaluate`); this exists so training can
report held-out accuracy as it goes, and so tests need nothing beyond the model.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from tokenizers import Tokenizer

from engine.model import DiffusionLM
from training.data import Encoded, collate
from training.tokenizer import EOS, render_chat


@torch.no_grad()
def decode_block(
    model: DiffusionLM, rows: Sequence[Encoded], tok: Tokenizer, threshold: float | None
) -> tuple[list[list[int]], int]:
    """Fill one masked reply block per row; returns the token ids and the number of passes."""
    batch = collate(rows, tok, torch.Generator(), mask_all=True)
    P, mask_id = batch.prompt_len, model.cfg.mask_token_id
    ids = batch.input_ids.clone()
    passes = 0
    while True:
        masked = ids[:, P:] == mask_id  # [B, R]
        if not masked.any():
            break
        logits = model(ids, batch.positions, batch.attn_mask)[:, P:].double()  # [B, R, V]
        passes += 1
        probs = logits.softmax(-1)
        conf, tokens = probs.max(-1)  # [B, R]
        conf = conf.masked_fill(~masked, -1.0)
        best = conf.argmax(-1)  # [B]
        commit = torch.zeros_like(masked)
        commit[torch.arange(len(rows)), best] = True
        if threshold is not None:
            commit |= conf >= threshold
        commit &= masked
        reply = ids[:, P:]
        reply[commit] = tokens[commit]
    return ids[:, P:].tolist(), passes


def decode_replies(
    model: DiffusionLM,
    tok: Tokenizer,
    prompts: Sequence[list[dict[str, str]]],
    block_size: int,
    threshold: float | None = None,
    batch_size: int = 64,
) -> list[str]:
    """Reply text for each prompt (message list), cut at the first end-of-text."""
    # No mode switch: the model has no dropout, and flipping ``training`` would make a
    # torch.compile'd training forward of the same module recompile.
    eos = tok.token_to_id(EOS)
    enc = [tok.encode(render_chat(p, True)).ids for p in prompts]
    order = sorted(range(len(enc)), key=lambda i: len(enc[i]))
    out: list[str] = [""] * len(enc)
    for s in range(0, len(order), batch_size):
        idx = order[s : s + batch_size]
        rows = [Encoded(enc[i], [eos] * block_size) for i in idx]
        blocks, _ = decode_block(model, rows, tok, threshold)
        for i, ids in zip(idx, blocks, strict=True):
            cut = ids.index(eos) if eos in ids else len(ids)
            out[i] = tok.decode(ids[:cut]).strip()
    return out
