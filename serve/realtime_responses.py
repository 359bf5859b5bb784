"""The Realtime API's server side of a session: what the session says, as Realtime events.

:class:`RealtimeResponses` turns the session's typed server events (serve/protocol.py) and reply
audio straight into the Realtime API's GA events: ``speech.started`` becomes
``input_audio_buffer.speech_started``, ``transcript.final``
``conversation.item.input_audio_transcription.completed``, reply audio base64
``response.output_audio.delta``, ``function.call`` a ``function_call`` output item with its
argument events, ``turn.metrics`` ``response.done``. A turn is one response; its output is the
assistant's message (added with its first text or audio) and the function calls, in the order
they came. serve/realtime.py holds the client's side and the state both share.
"""

from __future__ import annotations

import base64
import json
import logging
import uuid
from typing import Any

from serve import protocol as p

log = logging.getLogger("serve.realtime")

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


class RealtimeResponses:
    """The session's events → Realtime server events on ``self.ws`` (state in the subclass:
    serve.realtime.RealtimeEvents)."""

    ws: Any
    session_id: str
    model: str
    text_only: bool
    in_rate: int
    out_rate: int
    server_vad: bool
    instructions: str
    tools: list[dict]
    tool_choice: str | dict
    _responses: dict[int, _Response]
    _speech_items: dict[int, str]
    _outputs: list[tuple[str, str, str, str | None]]
    _typed_turn_item: str | None
    _metadata: dict | None
    _before: dict[str, str | None]
    _last_item: str | None
    _audio_turn: int | None

    async def send(self, item: Any) -> None:
        """A server event or reply audio from the session, as the Realtime API says it."""
        try:
            if isinstance(item, bytes):
                await self._audio(item)
            else:
                await self._event(item)
        except (KeyError, TypeError, ValueError):  # a bug here must not end the session
            log.exception("realtime %s: translating %.80r failed", self.session_id, item)

    async def _audio(self, pcm: bytes) -> None:
        r = self._responses.get(self._audio_turn) if self._audio_turn is not None else None
        if r is not None and not r.done and not self.text_only:
            await self._message(r)
            r.audio = True
            r.samples += len(pcm) // 2
            if getattr(self.ws, "media", False):  # a WebRTC call: the reply goes as media
                self.ws.play(pcm, self.out_rate, r.id)
                return
            await self._emit("response.output_audio.delta", response_id=r.id, item_id=r.item,
                             output_index=r.index, content_index=0,
                             delta=base64.b64encode(pcm).decode())

    async def _event(self, ev: Any) -> None:  # noqa: C901 (one case per event)
        match ev:
            case p.SessionStarted():
                await self._emit("session.created", session=self.describe())
            case p.SpeechStarted():
                item = self._speech_items.setdefault(ev.turn, _id("item"))
                await self._emit("input_audio_buffer.speech_started", item_id=item,
                                 audio_start_ms=round(ev.at_ms))
            case p.SpeechStopped():
                item = self._speech_items.setdefault(ev.turn, _id("item"))
                await self._emit("input_audio_buffer.speech_stopped", item_id=item,
                                 audio_end_ms=round(ev.speech_end_ms))
                await self._emit("input_audio_buffer.committed", item_id=item,
                                 previous_item_id=self._last_item)
                await self._emit("conversation.item.added", previous_item_id=self._last_item,
                                 item=_user_item(item, audio=True))
                self._last_item = item
                await self._open(ev.turn, item)
            case p.TranscriptFinal():
                item = self._speech_items.get(ev.turn)
                if item is not None:
                    await self._emit("conversation.item.input_audio_transcription.completed",
                                     item_id=item, content_index=0, transcript=ev.text)
                else:  # a typed turn: its item was announced at conversation.item.create
                    await self._open(ev.turn, self._typed_turn_item, asked=True)
            case p.ReplyText():
                r = await self._open(ev.turn, None)
                if not ev.final and ev.delta:
                    await self._message(r)
                    r.text += ev.delta
                    name = "response.output_text.delta" if self.text_only else \
                        "response.output_audio_transcript.delta"
                    await self._emit(name, response_id=r.id, item_id=r.item,
                                     output_index=r.index, content_index=0, delta=ev.delta)
                elif ev.final:
                    r.text = ev.text or ""
                    if r.text:
                        await self._message(r)
            case p.FunctionCall():
                r = await self._open(ev.turn, None)
                await self._function_call(r, ev.call_id, ev.name, ev.arguments)
            case p.FunctionOutputAdded():
                await self._output_added(ev.call_id)
            case p.ReplyCreated():  # the turn answering function outputs has begun
                await self._open(ev.turn, None, asked=True)
            case p.ReplyAudioStart():
                self._audio_turn = ev.turn
            case p.ReplyAudioEnd():
                self._audio_turn = None
                r = self._responses.get(ev.turn)
                if r is not None and r.audio and not r.done:
                    await self._emit("response.output_audio.done", response_id=r.id,
                                     item_id=r.item, output_index=r.index, content_index=0)
            case p.ReplyAudioStop():  # a barge-in or response.cancel
                if self._audio_turn == ev.turn:
                    self._audio_turn = None
                await self._close(ev.turn, "cancelled")
            case p.ReplyInterrupted():
                await self._close(ev.turn, "cancelled")
            case p.TurnMetrics():
                await self._close(ev.turn, "completed", ev.latency_ms, ev.stats)
            case p.Error():
                if ev.code == "turn_failed" and ev.turn is not None:
                    await self._close(ev.turn, "failed")
                if ev.code == "unknown_call":  # the oldest function output sent: not added
                    event_id = self._outputs.pop(0)[3] if self._outputs else None
                    await self._error("invalid_value", ev.message, "item.call_id", event_id)
                    return
                await self._error(ev.code, ev.message)

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



def _user_item(item_id: str, text: str | None = None, audio: bool = False) -> dict:
    content = [{"type": "input_audio", "transcript": None}] if audio else \
        [{"type": "input_text", "text": text}]
    return {"id": item_id, "object": "realtime.item", "type": "message", "role": "user",
            "status": "completed", "content": content}
