"""Reading a reply: what a model wrote, as the caller is given it.

A model calls a tool by writing ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
(:mod:`engine.tools`, which offers the tools): :func:`parse_tool_calls` turns a whole reply into
content and OpenAI ``tool_calls``, :class:`ToolCallStream` does so as the reply streams. The
demo model says a tool's result by pointing at it (:data:`RESULT`), which
:class:`ResultPointer` replaces by the tool's words. :class:`ReplyReader` composes both, the one
way every bridge to the engine uses them (the voice pipeline's LLM, the OpenAI API).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass

from engine.tools import CLOSE, OPEN

_BLOCK = re.compile(re.escape(OPEN) + r"(.*?)(?:" + re.escape(CLOSE) + r"|$)", re.S)


# The demo model says a tool's result through a pointer (docs/tools.md): after a ``tool``
# message it writes its framing around RESULT ("Okay, <|result|>."), and RESULT stands for the
# last tool message's words. Models that phrase results themselves never write it.
RESULT = "<|result|>"


def last_tool_result(messages: list[dict]) -> str | None:
    """The words of the tool messages after the conversation's last assistant call (``None``
    when the conversation does not end with tool results)."""
    out = []
    for m in reversed(messages):
        if m.get("role") != "tool":
            break
        c = m.get("content")
        out.append(c if isinstance(c, str) else "")
    if not out:
        return None
    return ", and ".join(x.strip().rstrip(".") for x in reversed(out) if x.strip()) or None


class ResultPointer:
    """Replaces :data:`RESULT` in a reply (streamed in deltas or whole) by the tool's words,
    capitalised where it starts the reply; with no tool result to point at it is dropped."""

    def __init__(self, messages: list[dict]) -> None:
        self.result = last_tool_result(messages)
        self._said = False  # any words out yet (a pointer after them is not capitalised)
        self._held = ""  # a tail that may be the start of a pointer split across deltas

    def feed(self, delta: str) -> str:
        delta, self._held = self._held + delta, ""
        hold = next((n for n in range(min(len(RESULT) - 1, len(delta)), 0, -1)
                     if delta.endswith(RESULT[:n])), 0)  # fmt: skip
        if hold:
            delta, self._held = delta[:-hold], delta[-hold:]
        if RESULT not in delta:
            self._said = self._said or bool(delta.strip())
            return delta
        parts = delta.split(RESULT)
        out = parts[0]
        for rest in parts[1:]:
            words = self.result or ""
            if words and not (self._said or out.strip()):
                words = words[:1].upper() + words[1:]
            out += words + rest
        self._said = self._said or bool(out.strip())
        return out

    def finish(self) -> str:
        """The tail held back that turned out not to be a pointer."""
        rest, self._held = self._held, ""
        return rest


def expand_result(text: str, messages: list[dict]) -> str:
    """A whole reply with its result pointer replaced (see :class:`ResultPointer`)."""
    p = ResultPointer(messages)
    return p.feed(text) + p.finish()


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:24]


@dataclass
class ParsedReply:
    content: str | None  # the reply's text outside tool calls; None when there is none
    tool_calls: list[dict]  # OpenAI tool calls: id, type, function {name, arguments (JSON text)}
    invalid: list[str]  # tool-call blocks that did not parse (or named an unknown tool)

    def message(self) -> dict:
        """The assistant message, OpenAI shape: its content and any tool calls."""
        msg: dict = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            msg["tool_calls"] = self.tool_calls
        return msg


def parse_tool_calls(text: str, tool_names: set[str] | None = None) -> ParsedReply:
    """Split a reply into text and OpenAI ``tool_calls``.

    Each ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` block becomes one call (a
    last block cut off by the token limit still counts if its JSON is whole). ``parameters`` is
    read as a synonym of ``arguments``, as some models write it. A block whose JSON does not parse
    or, when ``tool_names`` is given, whose name is not one of them, goes to ``invalid``; all
    blocks are removed from the content either way.
    """
    calls, invalid = [], []
    for block in _BLOCK.findall(text):
        raw = block.strip()
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            invalid.append(raw)
            continue
        name = obj.get("name") if isinstance(obj, dict) else None
        args = obj.get("arguments", obj.get("parameters", {})) if isinstance(obj, dict) else None
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                args = None
        if (
            not isinstance(name, str)
            or not isinstance(args, dict)
            or (tool_names is not None and name not in tool_names)
        ):
            invalid.append(raw)
            continue
        calls.append(
            {
                "id": new_call_id(),
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
            }
        )
    content = _BLOCK.sub("", text).strip()
    return ParsedReply(content or None, calls, invalid)


class ToolCallFilter:
    """Streams a reply's text while holding back its ``<tool_call>`` blocks.

    ``feed(delta)`` returns the text that is safe to show now (never part of a tool call, nor a
    tail that could be the start of ``<tool_call>``); ``finish()`` returns what was held back
    that turned out to be text. Used for spoken replies and streamed API content alike.
    """

    def __init__(self) -> None:
        self._buf = ""
        self._in_call = False
        self.saw_call = False
        self.blocks: list[str] = []  # the inside of each completed <tool_call> block

    def feed(self, delta: str) -> str:
        self._buf += delta
        out = []
        while self._buf:
            if self._in_call:
                k = self._buf.find(CLOSE)
                if k < 0:
                    return "".join(out)
                self.blocks.append(self._buf[:k])
                self._buf, self._in_call = self._buf[k + len(CLOSE) :], False
                continue
            k = self._buf.find(OPEN)
            if k >= 0:
                out.append(self._buf[:k])
                self._buf, self._in_call, self.saw_call = self._buf[k + len(OPEN) :], True, True
                continue
            hold = next(
                (n for n in range(min(len(OPEN) - 1, len(self._buf)), 0, -1)
                 if self._buf.endswith(OPEN[:n])),
                0,
            )
            out.append(self._buf[: len(self._buf) - hold])
            self._buf = self._buf[len(self._buf) - hold :]
            break
        return "".join(out)

    def finish(self) -> str:
        """Held-back text that was not a call; a call cut off at the end goes to ``blocks``."""
        if self._in_call and self._buf.strip():
            self.blocks.append(self._buf)
        rest, self._buf = ("" if self._in_call else self._buf), ""
        return rest


class ToolCallStream:
    """OpenAI streaming for a reply that may call tools: ``feed`` the reply's text deltas and
    get chat-completion chunk ``delta`` objects back — content outside calls as it comes, and
    each call, once its ``</tool_call>`` arrives, as tool-call deltas (one naming it with its id,
    one carrying its arguments, as OpenAI streams them). ``finish`` flushes the rest and tells
    whether the reply called tools (its ``finish_reason`` is then ``tool_calls``)."""

    def __init__(self, names: set[str]) -> None:
        self.names, self.filter, self.calls = names, ToolCallFilter(), []
        self.invalid: list[str] = []

    def _call_deltas(self) -> list[dict]:
        out = []
        while self.filter.blocks:
            raw = self.filter.blocks.pop(0)
            parsed = parse_tool_calls(OPEN + raw + CLOSE, self.names)
            self.invalid += parsed.invalid
            for c in parsed.tool_calls:
                i = len(self.calls)
                self.calls.append(c)
                f = c["function"]
                out.append({"tool_calls": [{"index": i, "id": c["id"], "type": "function",
                                            "function": {"name": f["name"], "arguments": ""}}]})
                out.append({"tool_calls": [{"index": i,
                                            "function": {"arguments": f["arguments"]}}]})
        return out

    def feed(self, text: str) -> list[dict]:
        shown = self.filter.feed(text)
        return ([{"content": shown}] if shown else []) + self._call_deltas()

    def finish(self) -> list[dict]:
        rest = self.filter.finish()
        return ([{"content": rest}] if rest else []) + self._call_deltas()


def reply_message(text: str, names: set[str] | None) -> tuple[dict, bool]:
    """The assistant message of a finished reply, OpenAI shape, and whether it called tools.
    ``names`` None: tools were not offered (or ``tool_choice`` was ``none``), the text is all
    content."""
    parsed = ParsedReply(text, [], []) if names is None else parse_tool_calls(text, names)
    return parsed.message(), bool(parsed.tool_calls)


class ReplyReader:
    """A reply's text read the one way both bridges to the engine need it (the voice pipeline's
    :class:`voice.llm.LocalLLM` and the OpenAI API): the demo model's result pointer replaced by
    the tool's words (:class:`ResultPointer`, when ``messages`` are given), then, when tools
    were offered (``names``), its ``<tool_call>`` blocks held back from the content and parsed
    as each closes (:class:`ToolCallStream`). ``feed``/``finish`` stream chat-completion
    ``delta`` objects; :meth:`message` reads the whole reply."""

    def __init__(self, messages: list[dict] | None, names: set[str] | None) -> None:
        self.pointer = ResultPointer(messages) if messages is not None else None
        self.names = names
        self.calls = ToolCallStream(names) if names is not None else None
        self._messages = messages

    def _point(self, text: str) -> str:
        return self.pointer.feed(text) if self.pointer is not None else text

    def _route(self, text: str) -> list[dict]:
        if self.calls is None:
            return [{"content": text}] if text else []
        return self.calls.feed(text)

    def feed(self, delta: str) -> list[dict]:
        """The chunk deltas ``delta`` makes ready: ``{"content": ...}`` and tool-call deltas."""
        return self._route(self._point(delta))

    def finish(self) -> list[dict]:
        """What was held back: text that was no pointer nor call, and a call cut off at the
        end."""
        out = self._route(self.pointer.finish()) if self.pointer is not None else []
        return out + (self.calls.finish() if self.calls is not None else [])

    def message(self, text: str) -> ParsedReply:
        """The whole reply ``text``: its content (the pointer replaced) and its valid and
        invalid calls (none when no tools were offered)."""
        text = expand_result(text, self._messages) if self._messages is not None else text
        if self.names is None:
            return ParsedReply(text, [], [])
        return parse_tool_calls(text, self.names)


def content_of(deltas: list[dict]) -> str:
    """The content of :meth:`ReplyReader.feed`'s (or ``finish``'s) deltas alone: what a spoken
    reply says (its calls are not said)."""
    return "".join(d.get("content", "") for d in deltas)
