"""One conversation's history, and the one place that writes it.

The voice pipeline (spoken and typed turns, barge-ins, timers' announcements, the client's
function calls), ``diffvoice chat`` and the Wyoming conversation service all keep their
exchanges in a :class:`Conversation`: the question, the built-in tools' calls and results, and
the answer as the user got it — the words that were heard when a reply was cut short, nothing
of a reply taken back. Its reset forgets the tools' state too (a calculator's "that").
"""

from __future__ import annotations

import re
from collections.abc import Callable

_RESET = re.compile(
    r"^(please )?(reset|start over|new conversation|forget everything|"
    r"clear (the )?(conversation|history))( please)?$"
)


def asks_reset(transcript: str) -> bool:
    """The user asks to start over ("reset", "forget everything", ...), not a question."""
    return bool(_RESET.match(" ".join(re.sub(r"[^a-z ]", " ", transcript.lower()).split())))


def recent_exchanges(history: list[dict], n: int) -> list[dict]:
    """The last ``n`` exchanges of ``history`` (each from a user message on: its tool calls,
    results and answer); all of it when ``n`` is 0."""
    starts = [k for k, m in enumerate(history) if m["role"] == "user"]
    if n <= 0 or len(starts) <= n:
        return list(history)
    return history[starts[-n] :]


class Conversation:
    """The messages of one conversation (OpenAI chat shape), oldest first."""

    def __init__(self, keep: int = 0) -> None:
        """``keep``: at most this many exchanges are kept (0: all; the prompt takes what fits
        its budget either way, :meth:`messages_for`)."""
        self.messages: list[dict] = []
        self.keep = keep
        self._on_reset: list[Callable[[], None]] = []

    def on_reset(self, forget: Callable[[], None]) -> None:
        """Call ``forget`` when the conversation is reset (state that refers back into it)."""
        self._on_reset.append(forget)

    def reset(self) -> None:
        """Forget everything said (a spoken or typed "reset", the API's reset)."""
        self.messages.clear()
        for forget in self._on_reset:
            forget()

    # --- writing ------------------------------------------------------------------------
    def remember(
        self, user: str | None, assistant: str | None, tools: list[dict] | None = None
    ) -> dict | None:
        """Keep an exchange: the question (None: a follow-up to tool output has none), the
        answer's tool messages (``voice.tools.Answer.messages``: the tools' calls and results)
        and the answer; ``assistant`` None: no answer, the tool messages end with the client's
        function calls waiting for their output. Returns the answer's message (see
        :meth:`cut_short`)."""
        said = {"role": "assistant", "content": assistant} if assistant is not None else None
        self.messages += [
            *([{"role": "user", "content": user}] if user is not None else []),
            *(tools or []),
            *([said] if said is not None else []),
        ]
        if self.keep:
            self.messages[:] = recent_exchanges(self.messages, self.keep)
        return said

    def cut_short(self, said: dict | None, heard: str, follow_up: bool = False) -> None:
        """The last answer, ``said``, was interrupted: keep the words that were ``heard``.
        Nothing heard: a follow-up's answer goes (its tool output stays, waiting for an
        answer), any other exchange goes whole (its question, tool calls and answer)."""
        if not self.messages or self.messages[-1] != said:
            return
        if heard:
            self.messages[-1] = {"role": "assistant", "content": heard}
        elif follow_up:
            del self.messages[-1]
        else:
            users = [k for k, m in enumerate(self.messages) if m["role"] == "user"]
            del self.messages[users[-1] if users else len(self.messages) - 2 :]

    def say(self, text: str) -> None:
        """Something the assistant said unprompted (a timer's announcement): part of the
        conversation ("what was that?"), dropped with the exchange before it."""
        self.messages.append({"role": "assistant", "content": text})

    def add_tool_output(self, call_id: str, output: str) -> None:
        """The client ran its function: its output joins as a ``tool`` message. Raises
        ValueError for a call that is not waiting for an output."""
        if call_id not in self.open_calls():
            raise ValueError(f"no function call {call_id[:64]!r} is waiting for its output")
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": output})

    # --- reading ------------------------------------------------------------------------
    def open_calls(self) -> list[str]:
        """Ids of the client's function calls still waiting for their output."""
        answered = {m.get("tool_call_id") for m in self.messages if m["role"] == "tool"}
        return [c["id"] for m in self.messages if m["role"] == "assistant"
                for c in m.get("tool_calls") or [] if c["id"] not in answered]  # fmt: skip

    def awaits_answer(self) -> bool:
        """The conversation ends with tool output that has no answer yet."""
        return bool(self.messages) and self.messages[-1]["role"] == "tool"

    def messages_for(
        self,
        system_prompt: str,
        question: str | None,
        turns: int,
        budget: int | None = None,
        count_tokens: Callable[[list[dict]], int] | None = None,
    ) -> list[dict]:
        """The prompt: the system prompt, the last ``turns`` exchanges (0: all) less the oldest
        until the whole counts at most ``budget`` tokens by ``count_tokens`` (None: no
        budget), and the new ``question`` (None: the conversation is answered as it is)."""
        system = [{"role": "system", "content": system_prompt}] if system_prompt else []
        user = [{"role": "user", "content": question}] if question is not None else []
        hist = recent_exchanges(self.messages, turns)
        while hist and budget is not None and count_tokens(system + hist + user) > budget:
            # drop the oldest exchange: its question, tool calls and results, and answer
            nxt = next((k for k in range(1, len(hist)) if hist[k]["role"] == "user"), len(hist))
            hist = hist[nxt:]
        return system + hist + user
