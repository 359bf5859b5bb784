"""The project's tokenizer: special tokens, round trip, and the chat template via transformers."""

from __future__ import annotations

from training.tokenizer import SPECIAL_TOKENS, render_chat, save_tokenizer


def test_special_token_ids(small_tokenizer):
    for i, t in enumerate(SPECIAL_TOKENS):
        assert small_tokenizer.token_to_id(t) == i
    assert small_tokenizer.get_vocab_size() <= 1024


def test_round_trip(small_tokenizer, small_corpus):
    for d in small_corpus.heldout[:200]:
        for _, text in d.messages:
            assert small_tokenizer.decode(small_tokenizer.encode(text).ids) == text
    odd = "Ünïcödé 🙂 and 12,345.6 — ok?"
    assert small_tokenizer.decode(small_tokenizer.encode(odd).ids) == odd


def test_special_tokens_are_single_ids(small_tokenizer):
    text = render_chat([{"role": "user", "content": "hi"}], add_generation_prompt=True)
    ids = small_tokenizer.encode(text).ids
    assert ids[0] == 2 and ids[-1] == 3  # <|user|> ... <|assistant|>


def test_transformers_loads_it_with_the_chat_template(small_tokenizer, tmp_path):
    from transformers import AutoTokenizer

    save_tokenizer(small_tokenizer, tmp_path)
    tok = AutoTokenizer.from_pretrained(str(tmp_path))
    msgs = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "what is 7 times 8"},
        {"role": "assistant", "content": "Seven times eight is fifty six."},
        {"role": "user", "content": "and 8 times 9"},
    ]
    text = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False)
    assert text == render_chat(msgs, add_generation_prompt=True)
    assert text.endswith("<|endoftext|><|user|>and 8 times 9<|assistant|>")
    ids = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True)
    ids = ids["input_ids"] if hasattr(ids, "keys") else ids
    assert ids == small_tokenizer.encode(text).ids
    assert tok.eos_token_id == 0 and tok.mask_token_id == 1 and tok.pad_token_id == 5
