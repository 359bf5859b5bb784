"""The project's tokenizer: special tokens, round trip, and the chat template via transformers."""

from __future__ import annotations

from training.tokenizer import (
    SPECIAL_TOKENS,
    TOOL_PIECES,
    TOOL_SPECIAL,
    render_chat,
    save_tokenizer,
    tool_call_text,
)


def test_special_token_ids(small_tokenizer):
    for i, t in enumerate(SPECIAL_TOKENS):
        assert small_tokenizer.token_to_id(t) == i
    # the BPE vocabulary, then the tool tokens appended after it
    assert small_tokenizer.get_vocab_size() <= 1024 + len(TOOL_SPECIAL) + len(TOOL_PIECES)


def test_a_call_is_a_few_tokens_and_decodes_to_the_contract_text(small_tokenizer):
    text = tool_call_text("calculator", {"expression": "six plus seven"})
    assert text == ('<tool_call>{"name": "calculator", "arguments": {"expression": '
                    '"six plus seven"}}</tool_call>')  # fmt: skip
    ids = small_tokenizer.encode(text).ids
    assert len(ids) <= 6  # skeleton, the copied words, closing
    assert small_tokenizer.decode(ids, skip_special_tokens=True) == text


def test_jinja_template_renders_tools_calls_and_results_like_training(small_tokenizer, tmp_path):
    from transformers import AutoTokenizer

    save_tokenizer(small_tokenizer, tmp_path)
    hf = AutoTokenizer.from_pretrained(tmp_path)
    tools = [{"type": "function", "function": {"name": n, "parameters": {}}}
             for n in ("clock", "calculator")]  # fmt: skip
    calls = [{"id": "c1", "type": "function",
              "function": {"name": "calculator", "arguments": {"expression": "six plus seven"}}}]
    msgs = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "what is six plus seven"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "six plus seven is thirteen"},
        {"role": "assistant", "content": "Six plus seven is thirteen."},
        {"role": "user", "content": "now double that"},
    ]  # fmt: skip
    text = hf.apply_chat_template(msgs, tools=tools, add_generation_prompt=True, tokenize=False)
    assert text == render_chat(msgs, True, tools)
    assert text.startswith("<|tools|>clock, calculator<|system|>Be brief.<|user|>")
    assert "<|tool|>six plus seven is thirteen<|assistant|>" in text
    # without tools the template is what it always was
    plain = hf.apply_chat_template(msgs[:2], add_generation_prompt=True, tokenize=False)
    assert plain == "<|system|>Be brief.<|user|>what is six plus seven<|assistant|>"


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
