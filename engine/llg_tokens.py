"""A byte-level BPE tokenizer in the form llguidance reads, for the grammar engine
(engine/grammar.py): each id's bytes, with only the tokenizer's own special tokens special."""

from __future__ import annotations

import json


def _unicode_bytes() -> dict[str, int]:
    """Byte-level BPE's alphabet: the printable character that stands for each byte (GPT-2's
    table: printable bytes stand for themselves, the rest for code points from 256 on)."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    chars = dict(zip(keep, keep, strict=True))
    extra = 256
    for b in range(256):
        if b not in chars:
            chars[b], extra = extra, extra + 1
    return {chr(c): b for b, c in chars.items()}


class _ByteLevelTokens:
    """A byte-level BPE tokenizer in the form ``llguidance.TokenizerWrapper`` reads: each id's
    bytes, the special ids, and an encoder.

    llguidance's own Hugging Face import marks *every* added token special, so an added token
    that is plain text (Qwen's and the demo model's ``<tool_call>``) could never match a
    grammar's text, while the same tokenizer hands it out for that text: a tool grammar's forced
    ``<tool_call>`` was then rejected ("its shortest reply takes more tokens"). Here only the
    tokens the tokenizer calls special are special; the others are their text.
    """

    def __init__(self, hf, tokens: list[bytes], special: list[int], eos: int) -> None:
        self._hf, self.tokens, self.special_token_ids = hf, tokens, special
        self.eos_token_id, self.bos_token_id = eos, None

    def __call__(self, text: bytes | str) -> list[int]:
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        return self._hf.encode(text, add_special_tokens=False)


def byte_level_tokens(hf, n_vocab: int, eos: int) -> _ByteLevelTokens | None:
    """The wrapper above for a byte-level BPE with plain-text added tokens; None for any other
    tokenizer (llguidance's own import reads those right)."""
    added = dict(getattr(hf, "added_tokens_decoder", {}) or {})
    if all(a.special for a in added.values()):
        return None
    try:
        decoder = (json.loads(hf.backend_tokenizer.to_str()).get("decoder") or {}).get("type")
    except (AttributeError, ValueError):
        return None
    if decoder != "ByteLevel":
        return None
    alphabet = _unicode_bytes()
    tokens: list[bytes] = []
    for i in range(n_vocab):
        if i in added:
            tokens.append(added[i].content.encode())
            continue
        piece = hf.convert_ids_to_tokens(i)
        if piece is None:  # ids past the tokenizer (a model's padded vocabulary)
            tokens.append(b"")
        elif all(c in alphabet for c in piece):
            tokens.append(bytes(alphabet[c] for c in piece))
        else:
            return None  # not the byte-level alphabet after all
    special = sorted(i for i, a in added.items() if a.special and i < n_vocab)
    return _ByteLevelTokens(hf, tokens, special, eos)
