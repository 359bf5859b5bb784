"""Batches for one-block masked diffusion: padding, masking ratio, and block attention."""

from __future__ import annotations

import torch

from training.data import Encoded, block_mask, collate, encode_dialogs, length_batches


def test_replies_fill_one_block_with_end_of_text(small_corpus, small_tokenizer):
    enc = encode_dialogs(small_corpus.train[:300], small_tokenizer, block_size=48)
    for e, d in zip(enc, small_corpus.train, strict=False):
        assert len(e.reply) == 48 and e.reply[-1] == 0
        text_ids = e.reply[: e.reply.index(0)]
        assert small_tokenizer.decode(text_ids) == d.reply
        assert e.prompt[-1] == 3  # ends with <|assistant|>


def test_block_mask_semantics():
    real = torch.tensor([[False, True, True, True, True], [True, True, True, True, True]])
    m = block_mask(real, prompt_len=3)[:, 0]  # [B, L, L]
    # Row 0: column 0 is padding; prompt = cols 1-2, reply = cols 3-4.
    assert not m[0, :, 0][1:].any()  # nobody real attends to padding
    assert m[0, 0, 0]  # padding attends to itself only
    assert m[0, 1, 1:3].all() and not m[0, 1, 3:].any()  # prompt sees prompt, not reply
    assert m[0, 3, 1:].all() and m[0, 4, 1:].all()  # reply sees prompt and the whole reply
    assert m[1, 0, :3].all() and not m[1, 0, 3:].any()


def test_collate_masks_only_the_reply(small_tokenizer):
    rows = [Encoded([2, 50, 51, 3], [60, 61, 0, 0]), Encoded([2, 52, 3], [62, 0, 0, 0])]
    g = torch.Generator().manual_seed(0)
    b = collate(rows, small_tokenizer, g)
    P = b.prompt_len
    assert P == 4 and b.input_ids.shape == (2, 8)
    assert b.input_ids[1, 0] == 5  # left padding with <|pad|>
    assert b.positions[1].tolist() == [0, 0, 1, 2, 3, 4, 5, 6]
    assert (b.targets[:, :P] == -100).all()
    masked = b.input_ids[:, P:] == 1
    assert masked.any(dim=1).all()  # at least one masked position per row
    assert (b.targets[:, P:][masked] != -100).all() and (b.targets[:, P:][~masked] == -100).all()
    full = collate(rows, small_tokenizer, g, mask_all=True)
    assert (full.input_ids[:, P:] == 1).all()


def test_batches_group_similar_prompt_lengths():
    data = [Encoded([2] * n + [3], [0] * 4) for n in range(1, 65)]
    batches = length_batches(data, batch_size=8, seed=0, epoch=0)
    assert len(batches) == 8 and sorted(i for b in batches for i in b) == list(range(64))
    for b in batches:
        lens = [len(data[i].prompt) for i in b]
        assert max(lens) - min(lens) <= 8
    assert length_batches(data, 8, 0, 1) != batches  # a new order each epoch


def test_packed_rows_keep_dialogs_apart(small_tokenizer):
    from engine.model import DiffusionLM, ModelConfig
    from training.data import collate_packed

    torch.manual_seed(0)
    cfg = ModelConfig(
        family="sdar", vocab_size=small_tokenizer.get_vocab_size(), hidden_size=32,
        intermediate_size=64, num_layers=2, num_heads=2, num_kv_heads=2, qk_norm=True,
        tie_word_embeddings=True, mask_token_id=1, eos_token_ids=[0], block_size=4,
        block_align="prompt",
    )  # fmt: skip
    model = DiffusionLM(cfg).eval()
    dialogs = [
        Encoded([2, 50, 51, 3], [60, 61, 0, 0]),
        Encoded([2, 52, 3], [62, 0, 0, 0]),
        Encoded([2, 53, 54, 55, 3], [63, 64, 65, 0]),
    ]
    b = collate_packed(dialogs, small_tokenizer, torch.Generator().manual_seed(1), pack_len=16)
    assert b.input_ids.shape == (2, 16)  # 8 + 7 tokens share a row, 9 take another
    with torch.no_grad():
        packed = model(b.input_ids, b.positions, b.attn_mask)
    # Each dialog alone, with the same masked reply, gives the same logits.
    starts = {0: (0, 0), 1: (0, 8), 2: (1, 0)}
    for i, d in enumerate(dialogs):
        row, c = starts[i]
        n = len(d.prompt) + len(d.reply)
        ids = b.input_ids[row, c : c + n][None]
        assert b.positions[row, c : c + n].tolist() == list(range(n))
        real = torch.ones((1, n), dtype=torch.bool)
        with torch.no_grad():
            alone = model(ids, torch.arange(n)[None], block_mask(real, len(d.prompt)))
        torch.testing.assert_close(packed[row, c : c + n], alone[0], atol=1e-5, rtol=1e-5)
        tgt = b.targets[row, c : c + n]
        assert (tgt[: len(d.prompt)] == -100).all()
        assert (tgt[len(d.prompt) :] != -100).any()
    assert (b.targets[1, 9:] == -100).all() and (b.input_ids[1, 9:] == 5).all()  # padding
