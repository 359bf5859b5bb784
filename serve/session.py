"""One websocket conversation of ``docs/protocol.md``, whatever server carries it.

A :class:`Session` is two named tasks in one ``TaskGroup``: ``receive`` validates every client
message (a bad one gets an ``error`` event and the session carries on) and feeds audio to the
pipeline; ``send`` drains an :class:`Outbox` that the pipeline's frames and the
:class:`WebSocketSink` fill, so no pipeline task ever waits on the network and a barge-in can drop
audio that has not left yet. Microphone audio may run ahead of real time by at most a few seconds
(:class:`AudioRateLimiter`).

Bounded per session, whatever the client does: the outbox holds at most
``server.max_outbox_bytes`` (over it the session's queued reply audio is dropped, and if that is
not enough the session is closed with :data:`CLOSE_TOO_SLOW`), a send that blocks longer than
``server.send_timeout_s`` closes it the same way (so a client that stops reading cannot park
replies, or keepalive pings, behind a full socket), and a session with no message either way for
``server.idle_timeout_s`` is closed with :data:`CLOSE_IDLE`.

The connection it is given needs ``await ws.send(str | bytes)``, ``async for message in ws``
(ending, or raising ``websockets.exceptions.ConnectionClosed``, when the client leaves) and
``await ws.close(code, reason)``; if closing does not finish within :data:`CLOSE_TIMEOUT_S` (the
client reads nothing, not even the close frame) the connection is dropped with ``ws.abort()``,
or ``ws.transport.abort()`` where the object has no ``abort``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
from websockets.exceptions import ConnectionClosed

from engine.tools import ToolFormatError
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig
from voice.frames import (
    ErrorFrame,
    Frame,
    FunctionCallFrame,
    InterruptionFrame,
    ReplyTextFrame,
    SpeechStartedFrame,
    SpeechStoppedFrame,
    TimerFiredFrame,
    ToolCallFrame,
    TranscriptFrame,
    TurnMetricsFrame,
)
from voice.pipeline import Models, Pipeline, Sink

log = logging.getLogger("serve.session")

PROTOCOL_VERSION = 1
# Client → server events and their fields: name → (type or types, required). Nothing else is
# accepted.
CLIENT_EVENTS: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "session.config": {
        "output_sample_rate": (int, False),
        "reply_audio": (bool, False),
        "tools": (list, False),
        "tool_choice": ((str, dict), False),
    },
    "text.input": {"text": (str, True)},
    "interrupt": {},
    "playback.done": {"turn": (int, True)},
    "conversation.reset": {},
    "function.output": {"call_id": (str, True), "output": (str, True)},
    "reply.create": {},
}
SERVER_EVENTS = (
    "session.started",
    "speech.started",
    "speech.stopped",
    "transcript.partial",
    "transcript.final",
    "reply.text",
    "reply.audio.start",
    "reply.audio.end",
    "reply.audio.stop",
    "reply.interrupted",
    "turn.metrics",
    "conversation.reset",
    "tool.call",
    "function.call",
    "function.output",
    "reply.create",
    "timer.fired",
    "error",
)
AUDIO_ENCODING = "pcm_s16le"
_FRAME_SAMPLES = 16384  # reply audio leaves in binary frames of at most this many samples
# Microphone audio a session may send ahead of real time before frames are dropped. A browser
# streams in real time; network jitter or a paused tab bunch frames up by well under this.
AUDIO_BURST_S = 3.0
# Application close codes (docs/protocol.md): 4001 idle too long, 4002 not reading its replies.
CLOSE_IDLE = 4001
CLOSE_TOO_SLOW = 4002
CLOSE_TIMEOUT_S = 5.0  # a closing handshake the client does not answer: drop the connection


class Outbox:
    """What a session sends, in order; queued audio of a turn can be dropped before it leaves.

    ``bytes`` counts what is queued; when a ``put`` takes it over ``max_bytes``, ``on_full`` is
    called (once per crossing) to make room.
    """

    def __init__(
        self, max_bytes: int | None = None, on_full: Callable[[], None] | None = None
    ) -> None:
        self._items: deque[tuple[str | bytes, int | None]] = deque()  # (message, audio turn)
        self._ready = asyncio.Event()
        self.closed = False
        self.bytes = 0
        self.max_bytes, self.on_full = max_bytes, on_full
        self._making_room = False

    def put(self, message: str | bytes, audio_turn: int | None = None) -> None:
        if self.closed:
            return
        self._items.append((message, audio_turn))
        self.bytes += len(message)
        self._ready.set()
        if (
            self.max_bytes is not None
            and self.bytes > self.max_bytes
            and self.on_full is not None
            and not self._making_room
        ):
            self._making_room = True
            try:
                self.on_full()
            finally:
                self._making_room = False

    def audio_turns(self) -> set[int]:
        """Turns with reply audio still queued."""
        return {t for _, t in self._items if t is not None}

    def drop_audio(self, turn: int) -> None:
        """Forget queued audio (and its announcements) of ``turn`` and older turns."""
        self._items = deque(i for i in self._items if i[1] is None or i[1] > turn)
        self.bytes = sum(len(m) for m, _ in self._items)

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    def discard(self) -> None:
        """Forget everything queued."""
        self._items.clear()
        self.bytes = 0

    async def get(self) -> str | bytes | None:
        """The next message, or None once closed."""
        while not self._items:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        message = self._items.popleft()[0]
        self.bytes -= len(message)
        return message


def _event(type_: str, **fields) -> str:
    assert type_ in SERVER_EVENTS, type_
    return json.dumps({"type": type_, **fields}, separators=(",", ":"))


class WebSocketSink(Sink):
    """Reply audio to the browser as binary PCM16 frames, announced by ``reply.audio.start``.

    The browser plays in real time, so a playback clock estimates when each chunk is heard: the
    later of now and the end of what is already queued. ``playback.done`` from the client ends
    the estimate early.
    """

    plays_here = False  # the client plays it, and cancels its own echo

    def __init__(
        self, outbox: Outbox, sample_rate: int, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.outbox, self.sample_rate, self.clock = outbox, sample_rate, clock
        self._playhead = 0.0
        self._announced = (0, 0)  # (turn, sample rate) of the last reply.audio.start
        self._samples = 0  # samples sent for that turn
        self._stopped = 0  # turns up to this one are silenced

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        now = self.clock()
        if turn <= self._stopped or len(audio) == 0:
            return now, now
        if (turn, self.sample_rate) != self._announced:  # a new turn, or the client's rate changed
            if turn != self._announced[0]:
                self._samples = 0
            self._announced = (turn, self.sample_rate)
            self.outbox.put(
                _event(
                    "reply.audio.start", turn=turn, sample_rate=self.sample_rate,
                    encoding=AUDIO_ENCODING, channels=1,
                ),
                turn,
            )
        pcm = np.asarray(audio, dtype="<i2")
        for i in range(0, len(pcm), _FRAME_SAMPLES):
            self.outbox.put(pcm[i : i + _FRAME_SAMPLES].tobytes(), turn)
        self._samples += len(pcm)
        start = max(now, self._playhead)
        self._playhead = start + len(pcm) / self.sample_rate
        return start, self._playhead

    async def stop(self, turn: int) -> None:
        self.silence(turn)

    def silence(self, turn: int) -> None:
        """Drop the queued audio of ``turn`` and older, send no more of it, tell the client."""
        self._stopped = max(self._stopped, turn)
        self.outbox.drop_audio(turn)
        self.outbox.put(_event("reply.audio.stop", turn=turn))
        self._playhead = min(self._playhead, self.clock())

    def busy(self) -> bool:
        return self._playhead > self.clock()

    async def drain(self) -> None:
        delay = self._playhead - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)

    def end(self, turn: int) -> None:
        """All of ``turn``'s audio has been sent."""
        if turn == self._announced[0] and turn > self._stopped:
            self.outbox.put(_event("reply.audio.end", turn=turn, samples=self._samples), turn)

    def played(self, turn: int) -> None:
        """The client has played everything of ``turn``."""
        if turn == self._announced[0]:
            self._playhead = min(self._playhead, self.clock())


class AudioRateLimiter:
    """A token bucket over microphone samples: real time plus a burst of ``burst_s`` seconds.

    The bucket holds ``burst_s`` seconds of audio, starts full and refills at ``sample_rate``
    samples per second of ``clock`` time. A frame that does not fit is dropped whole (so a frame
    longer than the burst never fits). One client cannot make the server transcribe faster
    than it talks, however fast it sends.
    """

    def __init__(
        self,
        sample_rate: int = SAMPLE_RATE,
        burst_s: float = AUDIO_BURST_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if burst_s <= 0:
            raise ValueError("burst_s must be positive")
        self.sample_rate, self.burst_s, self.clock = sample_rate, burst_s, clock
        self.capacity = burst_s * sample_rate
        self._tokens = self.capacity
        self._last: float | None = None
        self._noticed: float | None = None  # clock time of the last notice
        self.dropped = 0  # samples dropped so far

    def admit(self, samples: int) -> bool:
        """Take ``samples`` from the bucket if they fit; False: drop the frame."""
        now = self.clock()
        if self._last is not None:
            self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.sample_rate)
        self._last = now
        if samples <= self._tokens:
            self._tokens -= samples
            return True
        self.dropped += samples
        return False

    def notice(self) -> bool:
        """After a drop: whether to tell the client (at most once per ``burst_s`` seconds)."""
        now = self.clock()
        if self._noticed is not None and now - self._noticed < self.burst_s:
            return False
        self._noticed = now
        return True


class ProtocolError(Exception):
    """A client message that breaks the protocol; answered with an ``error`` event."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


MAX_JSON_DEPTH = 32  # events are shallow; a tool schema in session.config nests a few levels


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings do not count).

    Checked before parsing, so that a deeply nested event gets the same answer whatever stack
    depth the parser runs at (Python's JSON parser fails at its recursion limit, which depends
    on the caller)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_event_json(text: str) -> Any:
    """``json.loads`` for a client's event, with one answer for every input wherever it is
    called: ValueError for bad JSON, an integer of over 4300 digits, or nesting deeper than
    :data:`MAX_JSON_DEPTH` (checked first)."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def parse_event(text: str) -> dict:
    """Validate one client JSON event against ``CLIENT_EVENTS``; raise ProtocolError."""
    try:
        ev = load_event_json(text)
    except ValueError:
        raise ProtocolError(
            "bad_json", "text frames must be JSON events; audio goes in binary frames"
        ) from None
    if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
        raise ProtocolError("bad_event", 'an event is a JSON object with a string "type"')
    kind = ev["type"]
    spec = CLIENT_EVENTS.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown event type {kind[:64]!r}")
    for name, value in ev.items():
        if name == "type":
            continue
        if name not in spec:
            raise ProtocolError("bad_event", f"{kind}: unknown field {name[:64]!r}")
        want = spec[name][0]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
            raise ProtocolError("bad_event", f"{kind}: {name} must be {names}")
    for name, (_, required) in spec.items():
        if required and name not in ev:
            raise ProtocolError("bad_event", f"{kind}: missing field {name!r}")
    return ev


class Session:
    """One websocket connection: one conversation with its own pipeline."""

    def __init__(
        self,
        ws,
        models: Models,
        cfg: AppConfig,
        audio_burst_s: float = AUDIO_BURST_S,
    ) -> None:
        self.ws, self.models, self.cfg = ws, models, cfg
        self.id = uuid.uuid4().hex[:12]
        self.limiter = AudioRateLimiter(SAMPLE_RATE, audio_burst_s)
        self.outbox = Outbox(cfg.server.max_outbox_bytes, self._outbox_full)
        self.sink = WebSocketSink(self.outbox, models.tts.sample_rate)
        self.pipe = Pipeline(models, cfg, self.sink, on_frame=self._on_frame)
        self._newest = 0  # newest turn: text of older turns is stale
        self.clock = time.monotonic
        self._active = self.clock()  # last message received or sent
        self._handling = False
        self._audio_s = 0.0  # microphone audio received
        self._dropped_notice: float | None = None
        self._tasks: list[asyncio.Task] = []
        self.close_code: int | None = None  # why the server closed the session, if it did

    async def run(self) -> None:
        s = self.cfg.server
        self.send(
            "session.started", session=self.id, protocol=PROTOCOL_VERSION,
            input={"sample_rate": SAMPLE_RATE, "encoding": AUDIO_ENCODING, "channels": 1},
            output={
                "sample_rate": self.sink.sample_rate, "encoding": AUDIO_ENCODING, "channels": 1,
            },
            limits={
                "max_message_bytes": s.max_message_bytes, "max_text_chars": s.max_text_chars,
                "max_utterance_ms": self.cfg.vad.max_utterance_ms,
            },
        )
        try:
            async with asyncio.TaskGroup() as tg:
                self._tasks = [
                    tg.create_task(self._send_loop(), name=f"session-{self.id}-send"),
                    tg.create_task(self._receive_loop(), name=f"session-{self.id}-receive"),
                    tg.create_task(self._idle_watch(), name=f"session-{self.id}-idle"),
                ]
        finally:
            self.outbox.close()
            await self.pipe.close()

    def send(self, type_: str, **fields) -> None:
        self.outbox.put(_event(type_, **fields))

    def error(self, code: str, message: str, turn: int | None = None) -> None:
        extra = {} if turn is None else {"turn": turn}
        self.send("error", code=code, message=message, **extra)

    async def _send_loop(self) -> None:
        timeout = self.cfg.server.send_timeout_s
        while (msg := await self.outbox.get()) is not None:
            try:
                await asyncio.wait_for(self.ws.send(msg), timeout)
            except ConnectionClosed:
                break
            except TimeoutError:
                self.shut(CLOSE_TOO_SLOW, f"client too slow: a send blocked for {timeout:g} s")
                break
            self._active = self.clock()
        self.outbox.close()
        if self.close_code is not None:
            await self._close_connection()
        for t in self._tasks:  # the receive loop may be waiting on a connection left open
            if t is not asyncio.current_task():
                t.cancel()

    def shut(self, code: int, reason: str) -> None:
        """Close the session from the server's side with ``code``; queued messages are dropped."""
        if self.close_code is None:
            log.info("session %s: closing (%d %s)", self.id, code, reason)
            self.close_code, self._close_reason = code, reason
        self.outbox.discard()
        self.outbox.close()

    async def _close_connection(self) -> None:
        assert self.close_code is not None
        try:
            closing = self.ws.close(self.close_code, self._close_reason)
            await asyncio.wait_for(closing, CLOSE_TIMEOUT_S)
        except (TimeoutError, ConnectionClosed, OSError):
            _abort(self.ws)

    async def _idle_watch(self) -> None:
        limit = self.cfg.server.idle_timeout_s
        while True:
            if self._handling or self.pipe.busy():  # a message being handled, a turn being
                # answered or played: not idleness
                self._active = self.clock()
            left = self._active + limit - self.clock()
            if left <= 0:
                self.shut(CLOSE_IDLE, f"idle for {limit:g} s")
                return
            await asyncio.sleep(min(left, 1.0))

    def _outbox_full(self) -> None:
        """The client reads slower than replies come: drop its stale reply audio; if the queue
        is still over the bound (the client reads nothing), close the session."""
        turns = self.outbox.audio_turns()
        if turns:
            self.sink.silence(max(turns))
            now = self.clock()
            if self._dropped_notice is None or now - self._dropped_notice > 5.0:
                self._dropped_notice = now
                self.error(
                    "too_slow",
                    "reply audio is not being read fast enough: queued audio was dropped",
                )
        if self.outbox.bytes > self.outbox.max_bytes:
            self.shut(CLOSE_TOO_SLOW, "client too slow: outgoing queue full")

    async def _receive_loop(self) -> None:
        try:
            async for message in self.ws:
                self._active = self.clock()
                self._handling = True  # the client's request is being served: not idleness
                try:
                    await self._handle(message)
                except ProtocolError as e:
                    self.error(e.code, str(e))
                except Exception:  # a bug must not end the conversation
                    log.exception("session %s: handling a message failed", self.id)
                    self.error("internal", "the server failed to handle that message")
                finally:
                    self._handling = False
                    self._active = self.clock()
        except ConnectionClosed:
            pass
        finally:
            self.outbox.close()

    async def _handle(self, message: str | bytes) -> None:
        limit = self.cfg.server.max_message_bytes
        size = len(message) if isinstance(message, bytes) else len(message.encode())
        if size > limit:
            raise ProtocolError("too_large", f"message of {size} bytes; the limit is {limit}")
        if isinstance(message, bytes):
            await self._audio(message)
            return
        ev = parse_event(message)
        kind = ev["type"]
        if kind == "session.config":
            rate = ev.get("output_sample_rate")
            if rate is not None and not 8000 <= rate <= 192000:
                raise ProtocolError("bad_event", "output_sample_rate must be 8000..192000")
            if "tools" in ev or "tool_choice" in ev:
                try:
                    self.pipe.set_functions(ev.get("tools"), ev.get("tool_choice"))
                except ToolFormatError as e:
                    raise ProtocolError("bad_event", f"session.config: {e}") from None
            if rate is not None:
                self.sink.sample_rate = rate
            if "reply_audio" in ev:
                self.pipe.speak = ev["reply_audio"]
        elif kind == "text.input":
            text = " ".join(ev["text"].split())
            if not text:
                raise ProtocolError("bad_event", "text.input: text is empty")
            if len(text) > self.cfg.server.max_text_chars:
                raise ProtocolError(
                    "too_large", f"text.input: longer than {self.cfg.server.max_text_chars} chars"
                )
            await self.pipe.ask(text)
        elif kind == "interrupt":
            await self.pipe.interrupt()
        elif kind == "playback.done":
            self.sink.played(ev["turn"])
        elif kind == "conversation.reset":
            self.pipe.reset()
            self.send("conversation.reset")
        elif kind == "function.output":
            if len(ev["output"]) > self.cfg.server.max_text_chars:
                raise ProtocolError(
                    "too_large",
                    f"function.output: longer than {self.cfg.server.max_text_chars} chars",
                )
            try:
                self.pipe.add_tool_output(ev["call_id"], ev["output"])
            except ValueError as e:
                raise ProtocolError("unknown_call", str(e)) from None
            self.send("function.output", call_id=ev["call_id"])
        elif kind == "reply.create":
            try:
                turn = await self.pipe.respond()
            except ValueError as e:
                raise ProtocolError("bad_event", f"reply.create: {e}") from None
            self._newest = max(self._newest, turn)
            self.send("reply.create", turn=turn)

    async def _audio(self, data: bytes) -> None:
        if _is_json(data):
            raise ProtocolError(
                "bad_audio", "binary frames carry PCM16 audio; send events as text frames"
            )
        if len(data) % 2:
            raise ProtocolError("bad_audio", f"odd-length audio frame ({len(data)} bytes)")
        if data and not self.limiter.admit(len(data) // 2):
            if self.limiter.notice():
                raise ProtocolError(
                    "rate_limited",
                    "audio is arriving faster than real time; frames beyond a "
                    f"{self.limiter.burst_s:g} s burst are dropped",
                )
            return
        if data:
            self._audio_s += len(data) / 2 / SAMPLE_RATE
            await self.pipe.feed(np.frombuffer(data, dtype="<i2").astype(np.int16))

    def _on_frame(self, f: Frame) -> None:
        """Pipeline frames → protocol events (stale reply text is dropped here)."""
        if isinstance(f, SpeechStoppedFrame | TranscriptFrame):
            self._newest = max(self._newest, f.turn)
        if isinstance(f, TranscriptFrame | ReplyTextFrame) and f.turn < self._newest:
            return
        if isinstance(f, SpeechStartedFrame):
            self.send("speech.started", turn=f.turn, at_ms=round(f.at_ms, 1))
        elif isinstance(f, SpeechStoppedFrame):
            self.send(
                "speech.stopped", turn=f.turn, at_ms=round(f.at_ms, 1),
                speech_end_ms=round(f.speech_end_ms, 1), forced=f.forced,
            )
        elif isinstance(f, TranscriptFrame):
            kind = "transcript.final" if f.final else "transcript.partial"
            self.send(kind, turn=f.turn, text=f.text)
        elif isinstance(f, ReplyTextFrame):
            if f.final:
                self.send("reply.text", turn=f.turn, text=f.text, final=True)
            else:
                self.send("reply.text", turn=f.turn, delta=f.text, final=False)
        elif isinstance(f, InterruptionFrame):
            self.send("reply.interrupted", turn=f.turn, spoken=f.spoken)
        elif isinstance(f, TurnMetricsFrame):
            self.sink.end(f.turn)
            stats = {
                **f.stats,
                # This session's use of the shared Whisper/Piper workers, against its audio.
                "session_worker_s": round(self.pipe.jobs.work_s, 3),
                "session_cpu_s": round(self.pipe.jobs.cpu_s, 3),
                "session_speculative_s": round(self.pipe.jobs.speculative_s, 3),
                "session_audio_s": round(self._audio_s, 3),
            }
            self.send("turn.metrics", turn=f.turn, latency_ms=f.latency_ms, stats=stats)
        elif isinstance(f, FunctionCallFrame):
            self.send("function.call", turn=f.turn, call_id=f.call_id, name=f.name,
                      arguments=f.arguments)  # fmt: skip
        elif isinstance(f, ToolCallFrame):
            self.send("tool.call", turn=f.turn, name=f.name, arguments=f.arguments,
                      result=f.result, ok=f.ok, ms=round(f.ms, 2))  # fmt: skip
        elif isinstance(f, TimerFiredFrame):
            self._newest = max(self._newest, f.turn)
            self.send("timer.fired", turn=f.turn, text=f.text, label=f.label,
                      reminder=f.reminder, seconds=f.seconds)  # fmt: skip
        elif isinstance(f, ErrorFrame):
            self.error("turn_failed", f.message, f.turn)


def _is_json(data: bytes) -> bool:
    """Whether a binary frame is really a JSON object or array (sent as the wrong frame type)."""
    head = data[:3].removeprefix(b"\xef\xbb\xbf") + data[3:64]  # without a UTF-8 BOM
    if head.lstrip(b" \t\r\n")[:1] not in (b"{", b"[") or data.rstrip()[-1:] not in (b"}", b"]"):
        return False  # audio, cheaply
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _abort(ws) -> None:
    """Drop a connection whose client does not even take the close frame."""
    abort = getattr(ws, "abort", None) or getattr(getattr(ws, "transport", None), "abort", None)
    if abort is not None:
        abort()
