"""OpenAI's Realtime API (GA event names) at ``/v1/realtime``, on the very same :class:`Session`
and pipeline as our own ``/ws`` protocol.

:class:`RealtimeEvents` is the session's connection for a Realtime client, as
:class:`serve.session.JsonEvents` is for ``/ws``: two encoders of the same typed events
(serve/protocol.py), each a direct mapping. Client events become the session's client events
here; the session's server events become Realtime events in serve/realtime_responses.py.
``input_audio_buffer.append`` becomes 16 kHz PCM16 frames (the client's 24 kHz resampled as one
continuous stream, so small appends leave no clicks at their edges, with 2 ms of lookahead),
``conversation.item.create`` + ``response.create`` a ``text.input``, ``response.cancel`` an
``interrupt``; ``speech.started`` goes out as ``input_audio_buffer.speech_started``,
``transcript.final`` as ``conversation.item.input_audio_transcription.completed``, reply audio
as base64 ``response.output_audio.delta``, ``turn.metrics`` as ``response.done``. Voice activity
detection, barge-in, rate limits and message limits are the session's, unchanged.

With ``turn_detection: null`` the client decides turns (the session's ``turn_detection:
"client"``): appended audio is kept by the session until ``input_audio_buffer.commit``,
transcribed (:meth:`Session.transcribe_input`), and answered on ``response.create``.

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
import logging
from typing import Any

import numpy as np

from engine.tools import ToolFormatError, normalize_tool_choice, normalize_tools
from serve import protocol as p
from serve.protocol import load_event_json
from serve.realtime_responses import SERVER_EVENTS, RealtimeResponses, _id, _Response, _user_item
from voice.audio import SAMPLE_RATE, LowDelayResampler

log = logging.getLogger("serve.realtime")
__all__ = ["CLIENT_EVENTS", "NOT_SERVED", "SERVER_EVENTS", "RealtimeError", "RealtimeEvents"]

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
class RealtimeError(Exception):
    """A client event this server cannot take; answered with an ``error`` event."""

    def __init__(self, code: str, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.code, self.param = code, param
        self.event_id: str | None = None  # the client event's, as OpenAI's errors carry it


class RealtimeEvents(RealtimeResponses):
    """The Realtime API on one side, the session's typed events on the other.

    ``ws`` needs ``send(str)``, ``close()`` and ``async for`` (a websocket, or a WebRTC call's
    peer); the session :meth:`bind` s itself (client-decided turns call its public methods).
    """

    def __init__(self, ws: Any, model: str) -> None:
        self.ws, self.model = ws, model
        self.session: Any = None
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
        # client events and audio waiting to be read by the session
        self._pending: list[p.ClientEvent | bytes] = [p.SessionConfig(output_sample_rate=24000)]
        self._commits = 0  # client-decided turns: audio appended since the last commit (bytes)
        self._typed: list[tuple[str, str]] = []  # (item id, text) waiting for response.create
        self._responses: dict[int, _Response] = {}
        self._speech_items: dict[int, str] = {}  # turn → the user's audio item
        self._typed_turn_item: str | None = None  # the item of the text.input just sent
        self._metadata: dict | None = None  # the metadata of the response.create just sent
        self._before: dict[str, str | None] = {}  # output item → the item before it, until done
        self._last_item: str | None = None
        self._audio_turn: int | None = None

    def bind(self, session: Any) -> None:
        """The session this connection serves."""
        self.session = session

    # --- client → session ---------------------------------------------------------------------
    def __aiter__(self) -> RealtimeEvents:
        return self

    async def __anext__(self) -> p.ClientEvent | bytes:
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

    def _feed(self, item: p.ClientEvent | bytes) -> None:
        self._pending.append(item)

    async def _client_event(self, message: str | bytes) -> None:
        if isinstance(message, bytes) and getattr(self.ws, "media", False):
            self._heard(np.frombuffer(message, dtype="<i2").astype(np.int16))
            return  # a WebRTC call's microphone, decoded at the session's input rate
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
        # All checked: apply, as one session.config of what changed.
        change: dict[str, Any] = {}
        if in_rate != self.in_rate:
            self._resampler = LowDelayResampler(in_rate, SAMPLE_RATE)
        if server_vad != self.server_vad:
            change["turn_detection"] = "server" if server_vad else "client"
        self.in_rate, self.server_vad = in_rate, server_vad
        if modalities is not None and self.text_only != (modalities == ["text"]):
            self.text_only = modalities == ["text"]
            change["reply_audio"] = not self.text_only
        if out_rate != self.out_rate:
            self.out_rate = change["output_sample_rate"] = out_rate
        if instructions is not None:
            self.instructions = change["instructions"] = instructions
        if (tools, choice) != (self.tools, self.tool_choice):
            self.tools, self.tool_choice = tools, choice
            change.update(tools=tools, tool_choice=choice)
        if change:
            self._feed(p.SessionConfig(**change))
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
        self._heard(np.frombuffer(raw, dtype="<i2").astype(np.int16))

    def _heard(self, pcm: np.ndarray) -> None:
        """Microphone audio at the input rate, to the session at 16 kHz (with turn_detection
        null the session keeps it for the commit)."""
        if len(pcm):
            # 2 ms stay in the resampler's filter until more audio comes (with server VAD the
            # microphone goes on; a commit flushes them).
            pcm = self._resampler.process(pcm)
        if len(pcm):
            self._feed(pcm.tobytes())

    async def _commit(self, ev: dict) -> None:
        if self.server_vad:
            raise RealtimeError(
                "not_supported",
                "with server_vad the server commits turns itself; set turn_detection to null "
                "to commit by hand",
            )
        tail = self._resampler.process(np.zeros(0, np.int16), last=True)
        self._resampler = LowDelayResampler(self.in_rate, SAMPLE_RATE)
        text = await self.session.transcribe_input(tail)
        if text is None:
            raise RealtimeError("input_audio_buffer_commit_empty",
                                "the audio buffer holds less than 100 ms of audio")
        item = _id("item")
        await self._emit("input_audio_buffer.committed", item_id=item,
                         previous_item_id=self._last_item)
        await self._emit("conversation.item.added", previous_item_id=self._last_item,
                         item=_user_item(item, audio=True))
        self._last_item = item
        await self._emit("conversation.item.input_audio_transcription.completed", item_id=item,
                         content_index=0, transcript=text)
        if text:
            self._typed.append((item, text))

    async def _clear(self, ev: dict) -> None:
        self.session.clear_input()
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
        for part in parts:
            if not (isinstance(part, dict) and part.get("type") in ("input_text", "text")
                    and isinstance(part.get("text"), str)):
                raise RealtimeError("not_supported", "only input_text content parts are supported",
                                    "item.content")
            texts.append(part["text"])
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
        self._feed(p.FunctionOutput(call_id=call_id, output=output))

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
                self._feed(p.ReplyCreate())
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
        self._feed(p.TextInput(text=" ".join(t for _, t in items)))

    async def _response_cancel(self, ev: dict) -> None:
        self._feed(p.Interrupt())

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
