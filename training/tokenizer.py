"""The demo model's tokenizer: byte-level BPE trained on the corpus, plus chat special tokens.

Written as ``tokenizer.json`` + ``tokenizer_config.json`` (with the chat template), so
``transformers.AutoTokenizer.from_pretrained(folder)`` loads it offline as a fast tokenizer and
``apply_chat_template`` renders prompts exactly as training saw them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

EOS = "<|endoftext|>"  # end of text; also ends an assistant turn
MASK = "<|mask|>"
USER = "<|user|>"
ASSISTANT = "<|assistant|>"
SYSTEM = "<|system|>"
PAD = "<|pad|>"
SPECIAL_TOKENS = (EOS, MASK, USER, ASSISTANT, SYSTEM, PAD)  # ids 0..5 in this order
TOOLS = "<|tools|>"  # the tools on offer, by name: "<|tools|>clock, timer, calculator"
TOOL = "<|tool|>"  # a tool's result, sent back to the model
TOOL_SPECIAL = (TOOLS, TOOL)  # after the BPE vocabulary

# A call is written ``<tool_call>{"name": "NAME", "arguments": {...}}</tool_call>`` (Hermes/Qwen
# style). The skeleton of each built-in tool's call, its argument keys and the closing are one
# token each, so a call costs a few tokens plus the argument values copied from the question.
# Plain (not special) added tokens: decoding keeps them, so the engine parses the text.
TOOL_PIECES = (
    "<tool_call>", "</tool_call>",
    '<tool_call>{"name": "clock", "arguments": {"what": "',
    '<tool_call>{"name": "timer", "arguments": {"action": "',
    '<tool_call>{"name": "calculator", "arguments": {"expression": "',
    '<tool_call>{"name": "units", "arguments": {"value": "',
    '<tool_call>{"name": "spell", "arguments": {"word": "',
    '", "date": "', '", "duration": "', '", "label": "', '", "from": "', '", "to": "',
    '"}}</tool_call>',
    # The demo model's own calls (docs/tools.md): the tool's name only, empty arguments; the
    # tool reads the request from the user's words. And the pointer its replies say the tool's
    # result with ("Okay, <|result|>."), which the assistant replaces by the result.
    *(f'<tool_call>{{"name": "{n}", "arguments": {{}}}}</tool_call>'
      for n in ("clock", "timer", "calculator", "units", "spell")),
    "<|result|>",
)  # fmt: skip
RESULT = "<|result|>"

# Compact on purpose (the prompt is one block of a few hundred tokens at most): the tools are
# listed by name only, an assistant's calls follow its text, a tool result is a ``tool`` turn.
CHAT_TEMPLATE = (
    "{% if tools %}<|tools|>{% for t in tools %}"
    "{% set f = t['function'] if t['function'] is defined else t %}{{ f['name'] }}"
    "{% if not loop.last %}, {% endif %}{% endfor %}{% endif %}"
    "{% for m in messages %}{% if m['role'] == 'tool' %}<|tool|>{% else %}<|{{ m['role'] }}|>"
    "{% endif %}{% if m['content'] is string %}{{ m['content'] }}{% endif %}"
    "{% if m['role'] == 'assistant' %}"
    "{% if m['tool_calls'] is defined and m['tool_calls'] %}{% for c in m['tool_calls'] %}"
    "{% set f = c['function'] if c['function'] is defined else c %}"
    '<tool_call>{"name": "{{ f[\'name\'] }}", "arguments": '
    "{% if f['arguments'] is string %}{{ f['arguments'] }}{% else %}{{ f['arguments'] | tojson }}"
    "{% endif %}}</tool_call>{% endfor %}{% endif %}"
    "<|endoftext|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def train_tokenizer(texts: Iterable[str], vocab_size: int = 2048) -> Tokenizer:
    """Byte-level BPE over ``texts``; the special tokens take ids 0–5."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        special_tokens=[AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    for i, t in enumerate(SPECIAL_TOKENS):
        if tok.token_to_id(t) != i:
            raise RuntimeError(f"special token {t} got id {tok.token_to_id(t)}, expected {i}")
    return add_tool_tokens(tok)


def add_tool_tokens(tok: Tokenizer) -> Tokenizer:
    """Add the tool-calling tokens after the vocabulary (a no-op for those already there).

    Appending keeps every existing id, so a model trained with the older vocabulary can be
    warm-started: only the new rows of its embedding need values.
    """
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in TOOL_SPECIAL])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in TOOL_PIECES])
    return tok


def tokenizer_config(model_max_length: int = 512) -> dict:
    """The ``tokenizer_config.json`` that makes transformers load ``tokenizer.json`` as-is."""
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": None,
        "eos_token": EOS,
        "pad_token": PAD,
        "mask_token": MASK,
        "unk_token": None,
        "additional_special_tokens": [USER, ASSISTANT, SYSTEM, TOOLS, TOOL],
        "add_bos_token": False,
        "add_eos_token": False,
        "clean_up_tokenization_spaces": False,
        "model_max_length": model_max_length,
        "padding_side": "left",
        "chat_template": CHAT_TEMPLATE,
    }


def save_tokenizer(tok: Tokenizer, out_dir: str | Path) -> None:
    """Write ``tokenizer.json``, ``tokenizer_config.json`` and ``special_tokens_map.json``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok.save(str(out / "tokenizer.json"))
    cfg = tokenizer_config()
    (out / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    special = {k: cfg[k] for k in ("eos_token", "pad_token", "mask_token")}
    special["additional_special_tokens"] = cfg["additional_special_tokens"]
    (out / "special_tokens_map.json").write_text(json.dumps(special, indent=2) + "\n")


def tool_call_text(name: str, arguments: dict | str) -> str:
    """One call as the model writes it (arguments as ``json.dumps`` / jinja ``tojson`` print)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return f'<tool_call>{{"name": "{name}", "arguments": {args}}}</tool_call>'


def render_chat(
    messages: list[dict], add_generation_prompt: bool, tools: list[dict] | None = None
) -> str:
    """The chat template in plain Python (same output as the jinja one; used in training)."""
    parts = []
    if tools:
        names = [t.get("function", t)["name"] for t in tools]
        parts.append(TOOLS + ", ".join(names))
    for m in messages:
        content = m.get("content")
        parts.append(f"<|{m['role']}|>{content if isinstance(content, str) else ''}")
        if m["role"] == "assistant":
            for c in m.get("tool_calls") or ():
                f = c.get("function", c)
                parts.append(tool_call_text(f["name"], f["arguments"]))
            parts.append(EOS)
    if add_generation_prompt:
        parts.append(ASSISTANT)
    return "".join(parts)
