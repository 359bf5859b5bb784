"""Turning dialogs into training batches for one-reply-block masked diffusion.

A row is ``[left padding | prompt | reply block]``. The prompt is the chat-templated history up to
and including ``<|assistant|>``; the reply block is the reply's tokens, one ``<|endoftext|>`` and
more ``<|endoftext|>`` up to ``block_size``. Attention is what the engine uses at inference with
``block_align="prompt"``: prompt tokens see the whole prompt (it is one block), reply tokens see the
prompt and the whole reply block, and nobody sees padding.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import torch
from tokenizers import Tokenizer

from training.corpus import Dialog
from training.tokenizer import EOS, MASK, PAD, render_chat


@dataclass(frozen=True)
class Encoded:
    """Token ids of a dialog's prompt (with the generation prompt) and reply block."""

    prompt: list[int]
    reply: list[int]  # exactly block_size ids


def encode_dialogs(
    dialogs: Sequence[Dialog],
    tok: Tokenizer,
    block_size: int,
    max_prompt: int = 256,
    skip_long: bool = False,
    return_kept: bool = False,
):
    """Encode prompts and pad replies with end-of-text to ``block_size``.

    Raises ValueError when a reply and its end-of-text do not fit one block, or a prompt is
    longer than ``max_prompt`` — the corpus is meant to fit, so either is a bug to fix there.
    With ``skip_long`` such dialogs are left out instead and ``(encoded, how many left out)``
    is returned (``(encoded, indices kept)`` with ``return_kept``): generated tool results
    vary in length, and a few do not fit.
    """
    eos = tok.token_to_id(EOS)
    prompts = tok.encode_batch([render_chat(d.prompt, True) for d in dialogs])
    replies = tok.encode_batch([d.reply for d in dialogs])
    out, kept = [], []
    for i, (d, p, r) in enumerate(zip(dialogs, prompts, replies, strict=True)):
        ids = r.ids + [eos]
        if len(ids) > block_size or len(p.ids) > max_prompt:
            if skip_long:
                continue
            if len(ids) > block_size:
                raise ValueError(
                    f"reply needs {len(ids)} tokens > block_size {block_size}: {d.reply}"
                )
            raise ValueError(f"prompt of {len(p.ids)} tokens > {max_prompt}: {d.prompt}")
        out.append(Encoded(p.ids, ids + [eos] * (block_size - len(ids))))
        kept.append(i)
    if not skip_long:
        return out
    return (out, kept) if return_kept else (out, len(dialogs) - len(out))


def length_batches(
    data: Sequence[Encoded], batch_size: int, seed: int, epoch: int
) -> list[list[int]]:
    """Batches of similar prompt length (less padding), in a shuffled order fixed by the seed.

    Rows are shuffled, stably sorted by prompt length, cut into batches, and the batches
    shuffled — so each epoch mixes differently but deterministically.
    """
    rng = random.Random(f"batches-{seed}-{epoch}")
    idx = list(range(len(data)))
    rng.shuffle(idx)
    idx.sort(key=lambda i: len(data[i].prompt))
    batches = [idx[i : i + batch_size] for i in range(0, len(idx) - batch_size + 1, batch_size)]
    rng.shuffle(batches)
    return batches


@dataclass
class Batch:
    input_ids: torch.Tensor  # [B, L] with masked reply positions set to the mask id
    positions: torch.Tensor  # [B, L]
    attn_mask: torch.Tensor  # [B, 1, L, L] bool, True = may attend
    targets: torch.Tensor  # [B, L] token ids; -100 where no loss is taken
    prompt_len: int  # P: the reply block starts at column P (0 for packed rows)


def collate(
    rows: Sequence[Encoded],
    tok: Tokenizer,
    gen: torch.Generator,
    t_min: float = 0.02,
    mask_all: bool = False,
) -> Batch:
    """Left-pad prompts, mask each reply with its own ratio t ~ U(t_min, 1), build the mask.

    With ``mask_all`` every reply position is masked (the start state of decoding).
    """
    pad, mask_id = tok.token_to_id(PAD), tok.token_to_id(MASK)
    B, P, R = len(rows), max(len(r.prompt) for r in rows), len(rows[0].reply)
    L = P + R
    ids = torch.full((B, L), pad, dtype=torch.long)
    positions = torch.zeros((B, L), dtype=torch.long)
    real = torch.zeros((B, L), dtype=torch.bool)
    for b, r in enumerate(rows):
        p = len(r.prompt)
        ids[b, P - p : P] = torch.tensor(r.prompt)
        ids[b, P:] = torch.tensor(r.reply)
        positions[b, P - p :] = torch.arange(p + R)
        real[b, P - p :] = True
    targets = ids[:, P:].clone()
    if mask_all:
        masked = torch.ones((B, R), dtype=torch.bool)
    else:
        t = t_min + (1 - t_min) * torch.rand((B, 1), generator=gen)
        masked = torch.rand((B, R), generator=gen) < t
        # At least one masked position per row, so every row teaches something.
        none = ~masked.any(dim=1)
        if none.any():
            pick = torch.randint(0, R, (B,), generator=gen)
            masked[none, pick[none]] = True
    ids[:, P:] = torch.where(masked, mask_id, targets)
    full_targets = torch.full((B, L), -100, dtype=torch.long)
    full_targets[:, P:] = torch.where(masked, targets, -100)
    return Batch(ids, positions, block_mask(real, P), full_targets, P)


def block_mask(real: torch.Tensor, prompt_len: int) -> torch.Tensor:
    """[B, 1, L, L] bool: every real token sees real prompt tokens; reply tokens also see the
    reply block; padding sees only itself (an all-False row would make softmax NaN)."""
    B, L = real.shape
    col = torch.arange(L)
    key_prompt = (col < prompt_len)[None, None, :] & real[:, None, :]  # [B, 1, L]
    reply = col >= prompt_len
    key_reply = reply[None, None, :] & reply[None, :, None]  # [1, L, L]: reply → reply
    allowed = (key_prompt | key_reply) & real[:, :, None]
    allowed |= torch.eye(L, dtype=torch.bool)[None] & ~real[:, :, None]
    return allowed[:, None]


def random_batches(
    data: Sequence[Encoded], batch_size: int, seed: int, epoch: int
) -> list[list[int]]:
    """Batches of dialogs drawn at random (for packing, where lengths need not match)."""
    rng = random.Random(f"batches-{seed}-{epoch}")
    idx = list(range(len(data)))
    rng.shuffle(idx)
    return [idx[i : i + batch_size] for i in range(0, len(idx) - batch_size + 1, batch_size)]


def collate_packed(
    dialogs: Sequence[Encoded],
    tok: Tokenizer,
    gen: torch.Generator,
    pack_len: int,
    t_min: float = 0.02,
) -> Batch:
    """Pack dialogs end to end into rows of ``pack_len`` tokens (first fit), each dialog its own
    island: positions restart at 0, its prompt sees its prompt, its reply its prompt and reply,
    nothing crosses dialogs. A random batch then costs about what a length-sorted one does,
    without making every batch one kind of question."""
    pad, mask_id = tok.token_to_id(PAD), tok.token_to_id(MASK)
    rows: list[list[Encoded]] = []
    free: list[int] = []
    for d in dialogs:
        n = len(d.prompt) + len(d.reply)
        if n > pack_len:
            raise ValueError(f"a dialog of {n} tokens does not fit pack_len {pack_len}")
        for r, room in enumerate(free):
            if n <= room:
                rows[r].append(d)
                free[r] -= n
                break
        else:
            rows.append([d])
            free.append(pack_len - n)
    B, L = len(rows), pack_len
    ids = torch.full((B, L), pad, dtype=torch.long)
    positions = torch.zeros((B, L), dtype=torch.long)
    segment = torch.full((B, L), -1, dtype=torch.long)
    is_reply = torch.zeros((B, L), dtype=torch.bool)
    targets = torch.full((B, L), -100, dtype=torch.long)
    for b, row in enumerate(rows):
        c = 0
        for s, d in enumerate(row):
            p, r = len(d.prompt), len(d.reply)
            reply = torch.tensor(d.reply)
            t = t_min + (1 - t_min) * torch.rand((), generator=gen)
            masked = torch.rand(r, generator=gen) < t
            if not masked.any():
                masked[torch.randint(0, r, (), generator=gen)] = True
            ids[b, c : c + p] = torch.tensor(d.prompt)
            ids[b, c + p : c + p + r] = torch.where(masked, mask_id, reply)
            targets[b, c + p : c + p + r] = torch.where(masked, reply, -100)
            positions[b, c : c + p + r] = torch.arange(p + r)
            segment[b, c : c + p + r] = s
            is_reply[b, c + p : c + p + r] = True
            c += p + r
    same = segment[:, :, None] == segment[:, None, :]  # [B, L, L]
    real = segment >= 0
    allowed = same & real[:, None, :] & (~is_reply[:, None, :] | is_reply[:, :, None])
    allowed |= torch.eye(L, dtype=torch.bool)[None] & ~real[:, :, None]
    return Batch(ids, positions, allowed[:, None], targets, 0)


def batch_iter(
    data: Sequence[Encoded], batch_size: int, seed: int, start_step: int = 0, packed: bool = False
) -> Iterator[tuple[int, list[int]]]:
    """(step, row indices) forever from ``start_step``, epoch after epoch."""
    n = len(data) // batch_size
    step = start_step
    make = random_batches if packed else length_batches
    while True:
        epoch, i = divmod(step, n)
        batches = make(data, batch_size, seed, epoch)
        for j in range(i, len(batches)):
            yield step, batches[j]
            step += 1
