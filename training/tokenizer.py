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

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
    "{% if m['role'] == 'assistant' %}<|endoftext|>{% endif %}{% endfor %}"
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
        "additional_special_tokens": [USER, ASSISTANT, SYSTEM],
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


def render_chat(messages: list[dict[str, str]], add_generation_prompt: bool) -> str:
    """The chat template in plain Python (same output as the jinja one; used in training)."""
    parts = []
    for m in messages:
        parts.append(f"<|{m['role']}|>{m['content']}")
        if m["role"] == "assistant":
            parts.append(EOS)
    if add_generation_prompt:
        parts.append(ASSISTANT)
    return "".join(parts)
