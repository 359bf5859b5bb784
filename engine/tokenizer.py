"""Tokenizer and chat template of a checkpoint, without remote code."""

from __future__ import annotations

import json
from pathlib import Path

from engine.checkpoint import ModelLoadError
from engine.tools import TemplateSupport, fallback_messages, normalize_messages

_FALLBACK_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] | capitalize }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}Assistant:{% endif %}"
)


class ChatTokenizer:
    """``tokenizer.json`` + the chat template from ``tokenizer_config.json``."""

    def __init__(self, folder: Path, eos_token_ids: list[int]) -> None:
        from transformers import PreTrainedTokenizerFast

        tj = folder / "tokenizer.json"
        if not tj.exists():
            raise ModelLoadError(f"{tj} is missing")
        conf: dict = {}
        tc = folder / "tokenizer_config.json"
        if tc.exists():
            try:
                conf = json.loads(tc.read_text())
            except json.JSONDecodeError as e:
                raise ModelLoadError(f"{tc} is not valid JSON ({e})") from None
        try:
            self.tok = PreTrainedTokenizerFast(tokenizer_file=str(tj))
        except Exception as e:
            raise ModelLoadError(f"cannot read {tj}: {e}") from None
        template = conf.get("chat_template")
        jinja = folder / "chat_template.jinja"
        if template is None and jinja.exists():
            template = jinja.read_text()
        if isinstance(template, list):  # named templates: take the default one
            template = next((t["template"] for t in template if t.get("name") == "default"), None)
        self.tok.chat_template = template or _FALLBACK_TEMPLATE
        self.template_support = TemplateSupport.of(self.tok.chat_template)
        for key in ("bos_token", "eos_token", "pad_token"):
            v = conf.get(key)
            if isinstance(v, dict):
                v = v.get("content")
            if isinstance(v, str):
                setattr(self.tok, key, v)
        self.eos_token_ids = list(dict.fromkeys(eos_token_ids))
        if self.tok.eos_token_id is not None and self.tok.eos_token_id not in self.eos_token_ids:
            self.eos_token_ids.append(int(self.tok.eos_token_id))

    def chat_text(self, messages: list[dict], tools: list[dict] | None = None) -> str:
        """A conversation (normalised by ``engine.tools.normalize_messages``) rendered by the
        template, followed by the assistant's turn prompt. ``tools`` go to the template when it
        reads them; otherwise, and for tool calls/results it does not render, the documented
        fallback of :func:`engine.tools.fallback_messages` rewrites them as text."""
        sup = self.template_support
        msgs = fallback_messages(normalize_messages(messages), tools or [], sup)
        kw = {"tools": tools} if tools and sup.tools else {}
        return self.tok.apply_chat_template(
            msgs, add_generation_prompt=True, tokenize=False, **kw
        )

    def chat_ids(self, messages: list[dict], tools: list[dict] | None = None) -> list[int]:
        """Token ids of :meth:`chat_text`."""
        return self.tok.encode(self.chat_text(messages, tools), add_special_tokens=False)

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text, add_special_tokens=False)

    def decode(self, ids: list[int]) -> str:
        return self.tok.decode(ids, skip_special_tokens=True)
