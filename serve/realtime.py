"""OpenAI's Realtime API (GA event names) at ``/v1/realtime``, on the very same :class:`Session`
and pipeline as our own ``/ws`` protocol.

:class:`RealtimeTransport` stands where the websocket stands for ``/ws``: the session reads our
protocol's messages from it and sends our protocol's events to it, and it translates both ways.
``input_audio_buffer.append`` becomes 16 kHz PCM16 frames (the client's 24 kHz resampled as one
continuous stream, so small appends leave no clicks at their edges, with 2 ms of lookahead),
``conversation.item.create`` + ``response.create`` a ``text.input``, ``response.cancel`` an
``interrupt``; ``speech.started`` goes out as ``input_audio_buffer.speech_started``,
``transcript.final`` as ``conversation.item.input_audio_transcription.completed``, reply audio
as base64 ``response.output_audio.delta``, ``turn.metrics`` as ``response.done``. Voice activity
detection, barge-in, rate limits and message limits are the session's, unchanged.

With ``turn_detection: null`` the client decides turns: appended audio is kept until
``input_audio_buffer.commit``, transcribed, and answered on ``response.create``.

Function calling is the session's too (docs/protocol.md, "Function calling"): the session's
``tools`` (flat Realtime function tools) and ``tool_choice`` go to the session as
``session.config`` (chat-completions shape), ``function.call`` comes back as a ``function_call``
output item with its ``response.function_call_arguments.delta/done``, a
``function_call_output`` item goes to the session as ``function.output`` and the
``response.create`` after it as ``reply.create``. ``output_modalities: ["text"]`` is
``reply_audio: false``: nothing is synthesised. See docs/realtime.md for what is supported and
what is not.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np

from engine.tools import ToolFormatError, normalize_tool_choice, normalize_tools
from serve.session import load_event_json
from voice.audio import SAMPLE_RATE, LowDelayResampler

log = logging.getLogger("serve.realtime")

RATES = (24000, 16000)  # audio/pcm rates a client may choose (OpenAI's is 24 kHz)
VADS = ("server_vad", "semantic_vad")  # both served by the session's webrtcvad turn detection
CLIENT_EVENTS = (
    "session.update",
    "input_audio_buffer.append",
    "input_audio_buffer.commit",
    "input_audio_buffer.clear",
    "conversation.item.create",
    "response.create",
    "response.cancel",
    "conversation.item.truncate",
)
# OpenAI client events answered with a not_supported error (LiveKit Agents sends the first one
# to edit the conversation it mirrors: docs/realtime.md, "LiveKit Agents")
NOT_SERVED = ("conversation.item.delete",
              "conversation.item.retrieve", "output_audio_buffer.clear")
SERVER_EVENTS = (
    "session.created",
    "session.updated",
    "input_audio_buffer.speech_started",
    "input_audio_buffer.speech_stopped",
    "input_audio_buffer.committed",
    "input_audio_buffer.cleared",
    "conversation.item.added",
    "conversation.item.done",
    "conversation.item.input_audio_transcription.completed",
    "conversation.item.truncated",
    "response.created",
    "response.output_item.added",
    "response.output_audio.delta",
    "response.output_audio.done",
    "response.output_audio_transcript.delta",
    "response.output_audio_transcript.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.done",
    "error",
)


def _id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


class RealtimeError(Exception):
    """A client event this server cannot take; answered with an ``error`` event."""

    def __init__(self, code: str, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.code, self.param = code, param
        self.event_id: str | None = None  # the client event's, as OpenAI's errors carry it


class _Response:
    """One assistant response (our protocol's turn) as the Realtime API describes it: its
    output is the assistant's message (once it has text or audio) and the function calls, in
    the order they came."""

    def __init__(self, turn: int, user_item: str | None) -> None:
        self.turn, self.user_item = turn, user_item
        self.id = _id("resp")
        self.item: str | None = None  # the assistant message's id, once it is added
        self.index = 0  # the message's output_index
        self.output: list[dict | None] = []  # items as done; None: the message
        self.text = ""
        self.audio = False
        self.samples = 0  # reply audio sent, at the output rate
        self.done = False
        self.metadata: dict | None = None  # response.create's, echoed (LiveKit matches on it)


class RealtimeTransport:
    """The Realtime API on one side, our protocol (what :class:`Session` speaks) on the other.

    ``ws`` needs ``send(str)``, ``close()`` and ``async for`` (a ``WebSocketTransport``);
    ``transcribe`` turns 16 kHz audio into text (for client-decided turns).
    """

    def __init__(
        self,
        ws: Any,
        transcribe: Callable[[np.ndarray], Awaitable[str]],
        model: str,
        set_instructions: Callable[[str], None] | None = None,
    ) -> None:
        self.ws, self.transcribe, self.model = ws, transcribe, model
        self.set_instructions = set_instructions
        self.session_id = _id("sess")
        self.in_rate = self.out_rate = 24000
        self._resampler = LowDelayResampler(self.in_rate, SAMPLE_RATE)  # the appends: one stream
        self.server_vad = True
        self.text_only = False  # output_modalities == ["text"]: no reply audio
        self.instructions = ""
        self.tools: list[dict] = []  # the client's functions, chat-completions shape (checked)
        self.tool_choice: str | dict = "auto"  # likewise
        # (item, call id, output, client event id) sent, unanswered
        self._outputs: list[tuple[str, str, str, str | None]] = []
        self._outputs_added = False  # function outputs since the last response.create
        self._pending: list[str] = []  # our protocol messages waiting to be read by the session
        self._pending.append(json.dumps({"type": "session.config", "output_sample_rate": 24000}))
        self._buffer: list[np.ndarray] = []  # client-decided turns: audio since the last commit
        self._typed: list[tuple[str, str]] = []  # (item id, text) waiting for response.create
        self._responses: dict[int, _Response] = {}
        self._speech_items: dict[int, str] = {}  # turn → the user's audio item
        self._typed_turn_item: str | None = None  # the item of the text.input just sent
        self._metadata: dict | None = None  # the metadata of the response.create just sent
        self._before: dict[str, str | None] = {}  # output item → the item before it, until done
        self._last_item: str | None = None
        self._audio_turn: int | None = None

    # --- client → session ---------------------------------------------------------------------
    def __aiter__(self) -> RealtimeTransport:
        return self

    async def __anext__(self) -> str | bytes:
        while not self._pending:
            message = await self.ws.__anext__()  # StopAsyncIteration when the client leaves
            try:
                await self._client_event(message)
            except RealtimeError as e:
                await self._error(e.code, str(e), e.param, e.event_id)
            except Exception:  # a bug must not end the conversation
                log.exception("realtime %s: handling a client event failed", self.session_id)
                await self._error("internal", "the server failed to handle that event")
        return self._pending.pop(0)

    def _feed(self, message: str | bytes) -> None:
        self._pending.append(message)

    def _protocol(self, type_: str, **fields: Any) -> None:
        self._feed(json.dumps({"type": type_, **fields}))

    async def _client_event(self, message: str | bytes) -> None:
        if isinstance(message, bytes):
            raise RealtimeError("invalid_event", "send JSON events in text frames")
        try:
            ev = load_event_json(message)
        except ValueError:
            raise RealtimeError("invalid_json", "events are JSON objects") from None
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise RealtimeError("invalid_event", 'an event is a JSON object with a string "type"')
        kind = ev["type"]
        handler = {
            "session.update": self._session_update,
            "input_audio_buffer.append": self._append,
            "input_audio_buffer.commit": self._commit,
            "input_audio_buffer.clear": self._clear,
            "conversation.item.create": self._item_create,
            "response.create": self._response_create,
            "response.cancel": self._response_cancel,
            "conversation.item.truncate": self._truncate,
        }.get(kind)
        try:
            if handler is None and kind in NOT_SERVED:
                raise RealtimeError("not_supported", f"{kind} is not supported by this server")
            if handler is None:
                raise RealtimeError("unknown_event",
                                    f"unknown or unsupported event type {kind[:64]!r}")
            await handler(ev)
        except RealtimeError as e:  # OpenAI's errors name the client event they answer
            e.event_id = ev["event_id"] if isinstance(ev.get("event_id"), str) else None
            raise

    async def _session_update(self, ev: dict) -> None:
        s = ev.get("session")
        if not isinstance(s, dict):
            raise RealtimeError("invalid_event", "session.update needs a session object", "session")
        if s.get("type", "realtime") != "realtime":
            raise RealtimeError(
                "invalid_value", "only realtime sessions are served", "session.type"
            )
        audio = s.get("audio") or {}
        if not isinstance(audio, dict):
            raise RealtimeError("invalid_value", "session.audio must be an object", "session.audio")
        inp, out = audio.get("input") or {}, audio.get("output") or {}
        in_rate = _pcm_rate(inp.get("format"), "session.audio.input.format", self.in_rate)
        out_rate = _pcm_rate(out.get("format"), "session.audio.output.format", self.out_rate)
        server_vad = self.server_vad
        if "turn_detection" in inp:
            td = inp["turn_detection"]
            if td is None:
                server_vad = False
            elif isinstance(td, dict) and td.get("type", "server_vad") in VADS:
                server_vad = True  # semantic_vad too: our VAD's turn ends serve it
                for key in ("create_response", "interrupt_response"):
                    if td.get(key, True) is not True:  # the session always answers, barges in
                        raise RealtimeError(
                            "not_supported", f"turn_detection.{key} must be true (or null "
                            "turn_detection: the client commits turns)",
                            f"session.audio.input.turn_detection.{key}",
                        )
            else:
                raise RealtimeError(
                    "invalid_value", "turn_detection must be null or {type: 'server_vad'} "
                    "(or 'semantic_vad')", "session.audio.input.turn_detection",
                )
        modalities = s.get("output_modalities")
        if modalities is not None and modalities not in (["audio"], ["text"]):
            raise RealtimeError(
                "invalid_value", "output_modalities must be ['audio'] or ['text']",
                "session.output_modalities",
            )
        instructions = s.get("instructions")
        if instructions is not None and not isinstance(instructions, str):
            raise RealtimeError("invalid_value", "instructions must be a string",
                                "session.instructions")
        tools = self.tools if s.get("tools") is None else _function_tools(s["tools"])
        choice = self.tool_choice if s.get("tool_choice") is None else \
            _tool_choice(s["tool_choice"])
        if choice not in ("auto", "none"):
            try:
                choice = normalize_tool_choice(choice, tools)
            except ToolFormatError as e:
                raise RealtimeError("invalid_value", str(e), "session.tool_choice") from None
        # All checked: apply.
        if in_rate != self.in_rate:
            self._resampler = LowDelayResampler(in_rate, SAMPLE_RATE)
        self.in_rate, self.server_vad = in_rate, server_vad
        if modalities is not None and self.text_only != (modalities == ["text"]):
            self.text_only = modalities == ["text"]
            self._protocol("session.config", reply_audio=not self.text_only)
        if out_rate != self.out_rate:
            self.out_rate = out_rate
            self._protocol("session.config", output_sample_rate=out_rate)
        if instructions is not None:
            self.instructions = instructions
            if self.set_instructions is not None:
                self.set_instructions(instructions)
        if (tools, choice) != (self.tools, self.tool_choice):
            self.tools, self.tool_choice = tools, choice
            self._protocol("session.config", tools=tools, tool_choice=choice)
        await self._emit("session.updated", session=self.describe())

    async def _append(self, ev: dict) -> None:
        b64 = ev.get("audio")
        if not isinstance(b64, str):
            raise RealtimeError("invalid_event", "input_audio_buffer.append needs audio (base64)",
                                "audio")
        try:
            raw = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            raise RealtimeError("invalid_value", "audio is not valid base64", "audio") from None
        if len(raw) % 2:
            raise RealtimeError("invalid_value", "audio must be 16-bit PCM (an even byte count)",
                                "audio")
        pcm = np.frombuffer(raw, dtype="<i2").astype(np.int16)
        if len(pcm):
            # 2 ms stay in the resampler's filter until more audio comes (with server VAD the
            # microphone goes on; a commit flushes them).
            pcm = self._resampler.process(pcm)
        if not self.server_vad:
            self._buffer.append(pcm)
            return
        if len(pcm):
            self._feed(pcm.tobytes())

    async def _commit(self, ev: dict) -> None:
        if self.server_vad:
            raise RealtimeError(
                "not_supported",
                "with server_vad the server commits turns itself; set turn_detection to null "
                "to commit by hand",
            )
        self._buffer.append(self._resampler.process(np.zeros(0, np.int16), last=True))
        self._resampler = LowDelayResampler(self.in_rate, SAMPLE_RATE)
        audio = np.concatenate(self._buffer)
        self._buffer.clear()
        if len(audio) < SAMPLE_RATE // 10:
            raise RealtimeError("input_audio_buffer_commit_empty",
                                "the audio buffer holds less than 100 ms of audio")
        item = _id("item")
        await self._emit("input_audio_buffer.committed", item_id=item,
                         previous_item_id=self._last_item)
        await self._emit("conversation.item.added", previous_item_id=self._last_item,
                         item=_user_item(item, audio=True))
        self._last_item = item
        text = (await self.transcribe(audio)).strip()
        await self._emit("conversation.item.input_audio_transcription.completed", item_id=item,
                         content_index=0, transcript=text)
        if text:
            self._typed.append((item, text))

    async def _clear(self, ev: dict) -> None:
        self._buffer.clear()
        self._resampler = LowDelayResampler(self.in_rate, SAMPLE_RATE)
        await self._emit("input_audio_buffer.cleared")

    async def _item_create(self, ev: dict) -> None:
        item = ev.get("item")
        if not isinstance(item, dict):
            raise RealtimeError("invalid_event", "conversation.item.create needs an item", "item")
        if item.get("type") == "function_call_output":
            await self._function_output(item, ev.get("event_id"))
            return
        if item.get("type", "message") != "message" or item.get("role") != "user":
            raise RealtimeError(
                "not_supported", "only user messages and function_call_output items can be added",
                "item.role" if item.get("type", "message") == "message" else "item.type",
            )
        parts = item.get("content")
        if not isinstance(parts, list) or not parts:
            raise RealtimeError("invalid_event", "a message item needs content parts",
                                "item.content")
        texts = []
        for p in parts:
            if not (isinstance(p, dict) and p.get("type") in ("input_text", "text")
                    and isinstance(p.get("text"), str)):
                raise RealtimeError("not_supported", "only input_text content parts are supported",
                                    "item.content")
            texts.append(p["text"])
        text = " ".join(" ".join(texts).split())
        if not text:
            raise RealtimeError("invalid_value", "the message is empty", "item.content")
        iid = item.get("id") if isinstance(item.get("id"), str) else _id("item")
        self._typed.append((iid, text))
        await self._emit("conversation.item.added", previous_item_id=self._last_item,
                         item=_user_item(iid, text=text))
        await self._emit("conversation.item.done", previous_item_id=self._last_item,
                         item=_user_item(iid, text=text))
        self._last_item = iid

    async def _function_output(self, item: dict, event_id: str | None = None) -> None:
        """The output of a function call: the session adds it to the conversation (and
        answers ``function.output``, which becomes ``conversation.item.added/done``) or
        rejects an unknown call (``unknown_call``, an ``invalid_value`` error here)."""
        call_id, output = item.get("call_id"), item.get("output")
        if not isinstance(call_id, str) or not call_id:
            raise RealtimeError("invalid_event", "a function_call_output item needs a call_id",
                                "item.call_id")
        if not isinstance(output, str):
            raise RealtimeError("invalid_event", "a function_call_output item needs an output "
                                "string", "item.output")  # fmt: skip
        iid = item.get("id") if isinstance(item.get("id"), str) else _id("item")
        self._outputs.append((iid, call_id, output,
                              event_id if isinstance(event_id, str) else None))
        del self._outputs[:-16]  # one the session refused for another reason is never answered
        self._outputs_added = True
        self._protocol("function.output", call_id=call_id, output=output)

    async def _response_create(self, ev: dict) -> None:
        params = ev.get("response") if isinstance(ev.get("response"), dict) else {}
        metadata = params.get("metadata")
        if metadata is not None and not isinstance(metadata, dict):
            raise RealtimeError("invalid_value", "metadata must be an object",
                                "response.metadata")
        outputs, self._outputs_added = self._outputs_added, False
        if not self._typed:
            if outputs:  # answer the function outputs: a turn with no new question
                self._metadata = metadata
                self._protocol("reply.create")
                return
            if any(not r.done for r in self._responses.values()):
                raise RealtimeError("conversation_already_has_active_response",
                                    "Conversation already has an active response in progress")
            # Nothing new to answer (an app asking the model to speak first): a response, as
            # OpenAI answers each response.create, that says nothing. (With server VAD, spoken
            # turns get their own responses when the speech ends.)
            r = _Response(-1, None)
            r.metadata = metadata
            await self._emit("response.created", response=self._describe(r, "in_progress"))
            await self._emit("response.done", response=self._describe(r, "completed"))
            return
        items = list(self._typed)
        self._typed.clear()
        self._typed_turn_item, self._metadata = items[-1][0], metadata
        self._protocol("text.input", text=" ".join(t for _, t in items))

    async def _response_cancel(self, ev: dict) -> None:
        self._protocol("interrupt")

    async def _truncate(self, ev: dict) -> None:
        """The client played only ``audio_end_ms`` of an assistant message (Pipecat sends this
        when the user speaks over a reply): answered by ``conversation.item.truncated``, or the
        error OpenAI gives. The conversation already holds what the session's playback clock
        says was heard of a reply spoken over, so nothing more is cut."""
        iid, index, end = ev.get("item_id"), ev.get("content_index", 0), ev.get("audio_end_ms")
        if not isinstance(iid, str):
            raise RealtimeError("invalid_event", "conversation.item.truncate needs an item_id",
                                "item_id")
        if not isinstance(end, int) or isinstance(end, bool) or end < 0:
            raise RealtimeError("invalid_value", "audio_end_ms must be a whole number >= 0",
                                "audio_end_ms")
        r = next((r for r in self._responses.values() if r.item == iid), None)
        if r is None:
            raise RealtimeError("invalid_value", f"no assistant message {iid[:64]!r} to truncate",
                                "item_id")
        if index != 0:
            raise RealtimeError("invalid_value", "an assistant message has one content part (0)",
                                "content_index")
        if not r.audio:
            raise RealtimeError("invalid_value", "Only model output audio messages can be "
                                "truncated", "item_id")  # fmt: skip
        ms = r.samples * 1000 // self.out_rate
        if end > ms:
            raise RealtimeError("invalid_value", f"Audio content of {ms}ms is already shorter "
                                f"than {end}ms", "audio_end_ms")  # fmt: skip
        await self._emit("conversation.item.truncated", item_id=iid, content_index=0,
                         audio_end_ms=end)

    # --- session → client ---------------------------------------------------------------------
    async def send(self, message: str | bytes) -> None:
        try:
            await self._translate(message)
        except (KeyError, TypeError, ValueError):  # a bug here must not end the session
            log.exception("realtime %s: translating %.80r failed", self.session_id, message)

    async def _translate(self, message: str | bytes) -> None:
        if isinstance(message, bytes):
            r = self._responses.get(self._audio_turn) if self._audio_turn is not None else None
            if r is not None and not r.done and not self.text_only:
                await self._message(r)
                r.audio = True
                r.samples += len(message) // 2
                await self._emit("response.output_audio.delta", response_id=r.id,
                                 item_id=r.item, output_index=r.index, content_index=0,
                                 delta=base64.b64encode(message).decode())
            return
        ev = json.loads(message)
        kind, turn = ev.pop("type"), ev.get("turn")
        if kind == "session.started":
            await self._emit("session.created", session=self.describe())
        elif kind == "speech.started":
            item = self._speech_items.setdefault(turn, _id("item"))
            await self._emit("input_audio_buffer.speech_started", item_id=item,
                             audio_start_ms=round(ev.get("at_ms", 0)))
        elif kind == "speech.stopped":
            item = self._speech_items.setdefault(turn, _id("item"))
            await self._emit("input_audio_buffer.speech_stopped", item_id=item,
                             audio_end_ms=round(ev.get("speech_end_ms", 0)))
            await self._emit("input_audio_buffer.committed", item_id=item,
                             previous_item_id=self._last_item)
            await self._emit("conversation.item.added", previous_item_id=self._last_item,
                             item=_user_item(item, audio=True))
            self._last_item = item
            await self._open(turn, item)
        elif kind == "transcript.final":
            item = self._speech_items.get(turn)
            if item is not None:
                await self._emit("conversation.item.input_audio_transcription.completed",
                                 item_id=item, content_index=0, transcript=ev["text"])
            else:  # a typed turn: its item was announced at conversation.item.create
                await self._open(turn, self._typed_turn_item, asked=True)
        elif kind == "reply.text":
            r = await self._open(turn, None)
            if not ev.get("final") and ev.get("delta"):
                await self._message(r)
                r.text += ev["delta"]
                name = "response.output_text.delta" if self.text_only else \
                    "response.output_audio_transcript.delta"
                await self._emit(name, response_id=r.id, item_id=r.item, output_index=r.index,
                                 content_index=0, delta=ev["delta"])
            elif ev.get("final"):
                r.text = ev["text"]
                if r.text:
                    await self._message(r)
        elif kind == "function.call":
            r = await self._open(turn, None)
            await self._function_call(r, ev["call_id"], ev["name"], ev["arguments"])
        elif kind == "function.output":
            await self._output_added(ev["call_id"])
        elif kind == "reply.create":  # the turn answering function outputs has begun
            await self._open(turn, None, asked=True)
        elif kind == "reply.audio.start":
            self._audio_turn = turn
        elif kind == "reply.audio.end":
            self._audio_turn = None
            r = self._responses.get(turn)
            if r is not None and r.audio and not r.done:
                await self._emit("response.output_audio.done", response_id=r.id, item_id=r.item,
                                 output_index=r.index, content_index=0)
        elif kind == "reply.audio.stop":  # a barge-in or response.cancel
            if self._audio_turn == turn:
                self._audio_turn = None
            await self._close(turn, "cancelled")
        elif kind == "reply.interrupted":
            await self._close(turn, "cancelled")
        elif kind == "turn.metrics":
            await self._close(turn, "completed", ev.get("latency_ms"), ev.get("stats"))
        elif kind == "error":
            code = ev.get("code", "error")
            if code == "turn_failed" and turn is not None:
                await self._close(turn, "failed")
            if code == "unknown_call":  # the oldest function output sent: not added
                event_id = self._outputs.pop(0)[3] if self._outputs else None
                await self._error("invalid_value", ev.get("message", ""), "item.call_id",
                                  event_id)
                return
            await self._error(code, ev.get("message", ""))

    async def _open(self, turn: int, user_item: str | None, asked: bool = False) -> _Response:
        """The turn's response, created once (``asked``: the turn a response.create began)."""
        r = self._responses.get(turn)
        if r is None:
            r = self._responses[turn] = _Response(turn, user_item)
            if asked:
                r.metadata, self._metadata = self._metadata, None
            await self._emit("response.created", response=self._describe(r, "in_progress"))
        return r

    async def _message(self, r: _Response) -> None:
        """The response's assistant message: added with its first text or audio."""
        if r.item is None:
            r.item, r.index = _id("item"), len(r.output)
            r.output.append(None)
            await self._emit("response.output_item.added", response_id=r.id,
                             output_index=r.index, item=self._assistant_item(r, "in_progress"))
            await self._conversation_item("added", self._assistant_item(r, "in_progress"))

    async def _function_call(self, r: _Response, call_id: str, name: str, args: str) -> None:
        """A call of one of the client's functions, whole (our model writes it at once)."""
        index = len(r.output)
        item = {"id": _id("item"), "object": "realtime.item", "type": "function_call",
                "status": "in_progress", "call_id": call_id, "name": name, "arguments": ""}
        r.output.append(item)
        ids = {"response_id": r.id, "item_id": item["id"], "output_index": index}
        await self._emit("response.output_item.added", response_id=r.id, output_index=index,
                         item=item)
        await self._conversation_item("added", item)
        await self._emit("response.function_call_arguments.delta", **ids, call_id=call_id,
                         delta=args)
        await self._emit("response.function_call_arguments.done", **ids, call_id=call_id,
                         name=name, arguments=args)
        r.output[index] = item = {**item, "status": "completed", "arguments": args}
        await self._emit("response.output_item.done", response_id=r.id, output_index=index,
                         item=item)
        await self._conversation_item("done", item)

    async def _conversation_item(self, stage: str, item: dict) -> None:
        """A response's output item joins the conversation (``conversation.item.added`` and
        ``.done``, as OpenAI sends them: LiveKit Agents mirrors the conversation from them)."""
        if stage == "added":
            self._before[item["id"]], self._last_item = self._last_item, item["id"]
        await self._emit(f"conversation.item.{stage}", item=item,
                         previous_item_id=self._before.get(item["id"]))
        if stage == "done":
            self._before.pop(item["id"], None)

    async def _output_added(self, call_id: str) -> None:
        """The session took a function's output: the item is in the conversation."""
        k = next((k for k, o in enumerate(self._outputs) if o[1] == call_id), None)
        if k is None:
            return
        iid, _, output, _ = self._outputs.pop(k)
        item = {"id": iid, "object": "realtime.item", "type": "function_call_output",
                "status": "completed", "call_id": call_id, "output": output}
        for name in ("conversation.item.added", "conversation.item.done"):
            await self._emit(name, previous_item_id=self._last_item, item=item)
        self._last_item = iid

    async def _close(self, turn: int, status: str, latency: dict | None = None,
                     stats: dict | None = None) -> None:
        r = self._responses.get(turn)
        if r is None or r.done:
            return
        if status == "completed" and r.item is not None:
            name = "response.output_text.done" if self.text_only else \
                "response.output_audio_transcript.done"
            key = "text" if self.text_only else "transcript"
            await self._emit(name, response_id=r.id, item_id=r.item, output_index=r.index,
                             content_index=0, **{key: r.text})
        r.done = True
        if r.item is not None:
            item_status = "completed" if status == "completed" else "incomplete"
            await self._emit("response.output_item.done", response_id=r.id,
                             output_index=r.index, item=self._assistant_item(r, item_status))
            await self._conversation_item("done", self._assistant_item(r, item_status))
        resp = self._describe(r, status)
        if latency or stats:
            resp["metadata"] = {**resp.get("metadata", {}),
                                "diffvoice": {"latency_ms": latency or {}, "stats": stats or {}}}
        await self._emit("response.done", response=resp)
        if resp["output"]:
            self._last_item = resp["output"][-1]["id"]
        for old in [t for t in self._responses if t < turn - 8]:  # keep the maps small
            del self._responses[old]
        for old in [t for t in self._speech_items if t < turn - 8]:
            del self._speech_items[old]

    def _describe(self, r: _Response, status: str) -> dict:
        done = "completed" if status == "completed" else "incomplete"
        out = [] if status == "in_progress" else \
            [self._assistant_item(r, done) if o is None else o for o in r.output]
        d = {"id": r.id, "object": "realtime.response", "status": status,
             "output": out, "conversation_id": self.session_id,
             "output_modalities": ["text"] if self.text_only else ["audio"]}
        if r.metadata:
            d["metadata"] = dict(r.metadata)
        return d

    def _assistant_item(self, r: _Response, status: str) -> dict:
        kind = "output_text" if self.text_only else "output_audio"
        key = "text" if self.text_only else "transcript"
        content = [] if status == "in_progress" else [{"type": kind, key: r.text}]
        return {"id": r.item, "object": "realtime.item", "type": "message", "role": "assistant",
                "status": status, "content": content}

    def describe(self) -> dict:
        """The session as ``session.created/updated`` describe it."""
        fmt_in = {"type": "audio/pcm", "rate": self.in_rate}
        fmt_out = {"type": "audio/pcm", "rate": self.out_rate}
        td = {"type": "server_vad"} if self.server_vad else None
        return {
            "type": "realtime", "object": "realtime.session", "id": self.session_id,
            "model": self.model,
            "output_modalities": ["text"] if self.text_only else ["audio"],
            "instructions": self.instructions,
            "tools": [{"type": "function", **t["function"]} for t in self.tools],
            "tool_choice": self.tool_choice if isinstance(self.tool_choice, str) else
            {"type": "function", "name": self.tool_choice["function"]["name"]},
            "audio": {
                "input": {"format": fmt_in, "turn_detection": td,
                          "transcription": {"model": "whisper"}},
                "output": {"format": fmt_out, "voice": "piper"},
            },
        }

    async def _emit(self, type_: str, **fields: Any) -> None:
        assert type_ in SERVER_EVENTS, type_
        await self.ws.send(json.dumps({"type": type_, "event_id": _id("event"), **fields}))

    async def _error(self, code: str, message: str, param: str | None = None,
                     event_id: str | None = None) -> None:
        kind = "server_error" if code in ("internal", "turn_failed") else "invalid_request_error"
        await self._emit("error", error={"type": kind, "code": code, "message": message,
                                         "param": param, "event_id": event_id})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.ws.close(code, reason)


def _pcm_rate(fmt: Any, param: str, current: int) -> int:
    if fmt is None:
        return current
    if not isinstance(fmt, dict) or fmt.get("type") != "audio/pcm":
        raise RealtimeError("invalid_value", "only audio/pcm (16-bit PCM) is supported", param)
    rate = fmt.get("rate", 24000)
    if rate not in RATES:
        raise RealtimeError("invalid_value", f"audio/pcm rate must be one of {RATES}", param)
    return rate


def _function_tools(tools: Any) -> list[dict]:
    """The session's ``tools`` (Realtime function tools, flat: ``{"type": "function", "name",
    "description", "parameters"}``) as chat-completions tools (``{"type": "function",
    "function": {...}}``), checked as the session will check them."""
    if not isinstance(tools, list):
        raise RealtimeError("invalid_value", "tools must be a list", "session.tools")
    out = []
    for i, t in enumerate(tools):
        if not isinstance(t, dict):
            raise RealtimeError("invalid_value", f"tools[{i}] must be an object", "session.tools")
        if t.get("type", "function") != "function":
            raise RealtimeError("not_supported", f"tools[{i}]: only function tools are supported",
                                "session.tools")
        fn = {k: t[k] for k in ("name", "description", "parameters") if t.get(k) is not None}
        out.append({"type": "function", "function": fn})
    try:
        return normalize_tools(out)
    except ToolFormatError as e:
        raise RealtimeError("invalid_value", str(e), "session.tools") from None


def _tool_choice(choice: Any) -> str | dict:
    """The session's ``tool_choice`` (``{"type": "function", "name": ...}`` for a named one) in
    the chat-completions shape."""
    if choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function":
        return {"type": "function", "function": {"name": choice.get("name")}}
    if isinstance(choice, dict) and choice.get("type") == "mcp":
        raise RealtimeError("not_supported", "MCP tools are not supported", "session.tool_choice")
    raise RealtimeError("invalid_value", "tool_choice must be 'auto', 'none', 'required' or "
                        "{type: 'function', name: ...}", "session.tool_choice")  # fmt: skip


def _user_item(item_id: str, text: str | None = None, audio: bool = False) -> dict:
    content = [{"type": "input_audio", "transcript": None}] if audio else \
        [{"type": "input_text", "text": text}]
    return {"id": item_id, "object": "realtime.item", "type": "message", "role": "user",
            "status": "completed", "content": content}
