"""The LLM stage of one conversation: the prompt (system prompt, as much history as fits its
budget, the question), the tools on offer (the built-in ones and the client's own functions)
and the tool loop (:func:`voice.tools.answer`), run on the models' LLM threads so the event
loop never waits on the model; each executed built-in call leaves as a ``ToolCallFrame``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import replace

from engine.tools import normalize_tool_choice, normalize_tools
from voice.config import AssistantConfig
from voice.conversation import Conversation
from voice.frames import Frame, ToolCallFrame
from voice.tools import Answer, Toolbox, ToolRun, answer, tools_supported


class Answerer:
    """Writes one conversation's answers. ``emit`` hears its tool frames (on the loop); ``name``
    goes into its request ids (``turn-<name>-<turn>``), which the engine and tests see."""

    def __init__(
        self,
        models,
        assistant: AssistantConfig,
        conversation: Conversation,
        emit: Callable[[Frame], None],
        name: str,
    ) -> None:
        self.m, self.assistant, self.conversation, self.emit = models, assistant, conversation, emit
        self.name = name
        # Built-in tools (voice.tools): made on the conversation's loop, closed with it.
        self.tools: Toolbox | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # The client's own functions (OpenAI tools): the model may call them; the client runs
        # them and sends their output back.
        self.functions: list[dict] = []
        self.tool_choice: str | dict = "auto"
        # answers being written, and those given up meanwhile (undone when they end: drop)
        self._running: set[str] = set()
        self._dropped: set[str] = set()
        self._undo_lock = threading.Lock()

    def instruct(self, system_prompt: str) -> None:
        """The system prompt from now on (the configuration's is left as it was)."""
        self.assistant = replace(self.assistant, system_prompt=system_prompt)

    def messages_for(self, question: str | None) -> list[dict]:
        """System prompt + as much recent history as fits the budget + the new question (None:
        no new question, the history is answered as it is)."""
        a = self.assistant
        return self.conversation.messages_for(
            a.system_prompt, question, a.history_turns, a.history_tokens, self.m.llm.count_tokens
        )

    def set_functions(
        self, tools: list[dict] | None = None, tool_choice: str | dict | None = None
    ) -> None:
        """Offer the client's own functions (OpenAI chat ``tools``) to the model from the next
        turn on, with ``tool_choice`` (``auto``, ``none``, ``required`` or
        ``{"type": "function", "function": {"name": ...}}``); None keeps what was set. They
        stand beside the built-in tools and replace one of the same name; ``none`` offers no
        tool at all, ``required`` and a named function only the client's. Raises
        ``engine.tools.ToolFormatError`` (nothing changes) for tools or a choice that do not
        check."""
        functions = self.functions if tools is None else normalize_tools(tools)
        choice = self.tool_choice if tool_choice is None else tool_choice
        if choice not in ("auto", "none"):
            choice = normalize_tool_choice(choice, functions)
        self.functions, self.tool_choice = functions, choice

    def ensure_tools(self, on_timer: Callable) -> None:
        """The built-in tools, once, on the running loop (``on_timer`` hears due timers)."""
        if self.tools is None and self.assistant.tools and tools_supported(self.m.llm):
            self._loop = asyncio.get_running_loop()
            self.tools = Toolbox(on_timer, self._loop)
            self.conversation.on_reset(self.tools.forget)

    def close(self) -> None:
        if self.tools is not None:
            self.tools.close()  # the conversation's timers end with it

    def request_id(self, kind: str, n: int) -> str:
        """The id of answer ``n`` of a ``kind`` (``turn``, ``spec``), unique in the process."""
        return f"{kind}-{self.name}-{n}"

    def start(
        self,
        question: str | None,
        on_text: Callable[[str], None],
        rid: str,
        turn: int,
        held: list[Frame] | None = None,
    ) -> asyncio.Future[Answer]:
        """The answer to ``question`` (None: to the history as it is), written on the models'
        LLM threads (the loop's default pool for models that have none); committed text goes
        to ``on_text`` from that thread. ``turn``: the id its tool frames carry; with ``held``
        they are kept there instead of sent (a speculation's, sent only if it is used)."""
        pool = getattr(self.m, "llm_threads", None)
        with self._undo_lock:
            self._running.add(rid)
        return asyncio.get_running_loop().run_in_executor(
            pool, self._stream, question, on_text, rid, turn, held)

    def cancel(self, rid: str) -> None:
        """Stop the answer ``rid`` early (barge-in: what it did stands)."""
        self.m.llm.cancel(rid)

    def drop(self, rid: str) -> None:
        """The answer ``rid`` is never heard (a speculation given up, a reply taken back): it
        stops, and what its tools did is undone (``Toolbox.undo``) once it has."""
        self.m.llm.cancel(rid)
        with self._undo_lock:
            if rid in self._running:  # still writing: it undoes itself when it ends
                self._dropped.add(rid)
                return
        if self.tools is not None:
            self.tools.undo(rid)

    def _stream(self, question: str | None, on_text, rid: str, turn: int, held) -> Answer:
        """Runs in a worker thread: the prompt is built (tokenised) there too; with tools, the
        tool loop (model → tools → model) runs here and each call is reported as a frame."""
        loop = self._loop

        def on_tool(run: ToolRun) -> None:
            frame = ToolCallFrame(turn, run.name, run.arguments, run.result, run.ok, run.ms)
            if held is not None:
                held.append(frame)
            elif loop is not None:
                loop.call_soon_threadsafe(self.emit, frame)

        tools = self.tools
        try:
            with tools.answering(rid) if tools is not None else contextlib.nullcontext():
                return answer(self.m.llm, self.messages_for(question), tools, on_text, rid,
                              on_tool, functions=self.functions, tool_choice=self.tool_choice)
        finally:
            with self._undo_lock:
                self._running.discard(rid)
                dropped = rid in self._dropped
                self._dropped.discard(rid)
            if dropped and tools is not None:
                tools.undo(rid)
