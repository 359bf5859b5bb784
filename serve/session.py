"""One conversation of ``docs/protocol.md``, whatever wire format and server carry it.

A :class:`Session` speaks typed events (serve/protocol.py): it reads client events and
microphone audio from its connection and writes server events and reply audio to it. The
connection is an encoder of those events: :class:`JsonEvents` for our own protocol (``/ws``; the
page's WebRTC call is its own, serve/webrtc.py), :class:`serve.realtime.RealtimeEvents` for
OpenAI's Realtime API. The session is three named tasks in one ``TaskGroup``: ``receive`` handles
every client event (a bad one gets an ``error`` event and the session carries on) and feeds
audio to the pipeline; ``send`` drains an :class:`~serve.outbox.Outbox` that the pipeline's frames
and the :class:`~serve.outbox.WebSocketSink` fill, so no pipeline task ever waits on the network
and a barge-in can drop audio that has not left yet; ``idle`` closes a session nobody uses.

Bounded per session, whatever the client does: microphone audio may run ahead of real time by at
most a few seconds (:class:`~serve.outbox.AudioRateLimiter`); the outbox holds at most
``server.max_outbox_bytes`` (over it the session's queued reply audio is dropped, and if that is
not enough the session is closed with :data:`CLOSE_TOO_SLOW`), a send that blocks longer than
``server.send_timeout_s`` closes it the same way (so a client that stops reading cannot park
replies, or keepalive pings, behind a full socket), and a session with no message either way for
``server.idle_timeout_s`` is closed with :data:`CLOSE_IDLE`.

Public methods for what a client may ask besides events: :meth:`Session.transcribe_input` and
:meth:`Session.clear_input` (client-decided turns), :meth:`Session.busy` (idle state), and for
the server: :meth:`Session.drain` (finish the turn in progress, then close with 1012).

The connection needs ``await conn.send(event | bytes)``, ``async for item in conn`` (client
events, audio bytes, or a :class:`ProtocolError` for a message it could not read; ending, or
raising ``websockets.exceptions.ConnectionClosed``, when the client leaves) and ``await
conn.close(code, reason)``; if closing does not finish within :data:`CLOSE_TIMEOUT_S` (the client
reads nothing, not even the close frame) the connection is dropped with ``abort()`` (its own,
its link's, or its transport's).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from typing import Any

import numpy as np
from websockets.exceptions import ConnectionClosed

from engine.tools import ToolFormatError
from serve import protocol as p
from serve.outbox import AUDIO_BURST_S, AudioRateLimiter, Outbox, WebSocketSink
from serve.protocol import ProtocolError, encode, parse_event
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
from voice.models import Models
from voice.pipeline import Pipeline

log = logging.getLogger("serve.session")

# Close codes (docs/protocol.md): 1012 the server is restarting (draining: reconnect, to another
# replica), 4001 idle too long, 4002 not reading its replies.
CLOSE_RESTART = 1012
CLOSE_IDLE = 4001
CLOSE_TOO_SLOW = 4002
CLOSE_TIMEOUT_S = 5.0  # a closing handshake the client does not answer: drop the connection
MIN_COMMIT_S = 0.1  # a client-decided turn shorter than this holds nothing to hear
DRAIN_POLL_S = 0.05  # how often a draining session looks whether its turn is over


class JsonEvents:
    """Our protocol's wire format over a link (``send(str | bytes)``, ``close``, ``async for``
    of str | bytes): events as JSON text frames, audio as binary PCM16 frames."""

    def __init__(self, link: Any, max_message_bytes: int) -> None:
        self.link, self.max_message_bytes = link, max_message_bytes

    def __aiter__(self) -> JsonEvents:
        return self

    async def __anext__(self) -> p.ClientEvent | bytes | ProtocolError:
        message = await self.link.__anext__()
        try:
            return read_message(message, self.max_message_bytes)
        except ProtocolError as e:
            return e

    async def send(self, item: Any) -> None:
        await self.link.send(item if isinstance(item, bytes) else encode(item))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.link.close(code, reason)

    def abort(self) -> None:
        _abort(self.link)


def read_message(message: str | bytes, limit: int) -> p.ClientEvent | bytes:
    """One frame of our protocol: a client event (text) or microphone audio (binary)."""
    _check_size(len(message) if isinstance(message, bytes) else len(message.encode()), limit)
    if isinstance(message, str):
        return parse_event(message)
    if _is_json(message):
        raise ProtocolError(
            "bad_audio", "binary frames carry PCM16 audio; send events as text frames"
        )
    return message


def _check_size(size: int, limit: int) -> None:
    if size > limit:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is {limit}")


class Session:
    """One connection: one conversation with its own pipeline."""

    def __init__(
        self,
        conn,
        models: Models,
        cfg: AppConfig,
        audio_burst_s: float = AUDIO_BURST_S,
    ) -> None:
        self.conn, self.models, self.cfg = conn, models, cfg
        self.id = uuid.uuid4().hex[:12]
        self.limiter = AudioRateLimiter(SAMPLE_RATE, audio_burst_s)
        self.outbox = Outbox(cfg.server.max_outbox_bytes, self._outbox_full)
        self.sink = WebSocketSink(self.outbox, models.tts.sample_rate)
        self.pipe = Pipeline(models, cfg, self.sink, on_frame=self._on_frame)
        self.client_turns = False  # turn_detection "client": audio waits for a commit
        self._input: list[np.ndarray] = []  # client-decided turns: audio since the last commit
        self._newest = 0  # newest turn: text of older turns is stale
        self.clock = time.monotonic
        self._active = self.clock()  # last message received or sent
        self._handling = False
        self._audio_s = 0.0  # microphone audio received
        self._dropped_notice: float | None = None
        self._tasks: list[asyncio.Task] = []
        self.close_code: int | None = None  # why the server closed the session, if it did
        if hasattr(conn, "bind"):  # an encoder that calls the session's public methods
            conn.bind(self)

    async def run(self) -> None:
        s = self.cfg.server
        audio = {"encoding": p.AUDIO_ENCODING, "channels": 1}
        self.send(p.SessionStarted(
            session=self.id,
            input={"sample_rate": SAMPLE_RATE, **audio},
            output={"sample_rate": self.sink.sample_rate, **audio},
            limits={
                "max_message_bytes": s.max_message_bytes, "max_text_chars": s.max_text_chars,
                "max_utterance_ms": self.cfg.vad.max_utterance_ms,
            },
        ))  # fmt: skip
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

    def send(self, ev: Any) -> None:
        self.outbox.put(ev)

    def error(self, code: str, message: str, turn: int | None = None) -> None:
        self.send(p.Error(code=code, message=message) if turn is None else
                  p.Error(code=code, message=message, turn=turn))  # fmt: skip

    # --- what a client may ask besides events -----------------------------------------------
    def busy(self) -> bool:
        """A client message being handled, a turn being answered or its reply playing."""
        return self._handling or self.pipe.busy()

    def in_turn(self) -> bool:
        """The user is speaking, or a turn is being answered or played: not the moment to go."""
        return self.busy() or self.pipe.detector.in_speech

    async def drain(self, reason: str) -> None:
        """The server is going away (docs/scale-out.md, "Draining"): once the turn in progress
        is answered and its reply sent, close with :data:`CLOSE_RESTART` so the client
        reconnects, to a server that stays; a session between turns closes at once."""
        # Polled: a turn ends with its task, its reply's playback time, or the user's speech.
        while self.close_code is None:
            if not self.in_turn():
                self.shut(CLOSE_RESTART, reason, flush=True)
                return
            await asyncio.sleep(DRAIN_POLL_S)

    async def transcribe_input(self, tail: np.ndarray | None = None) -> str | None:
        """A client-decided turn: the audio since the last commit (and ``tail``), transcribed;
        None when it holds less than :data:`MIN_COMMIT_S` of audio. The audio is used up."""
        if tail is not None and len(tail):
            self._input.append(tail)
        audio = np.concatenate(self._input) if self._input else np.zeros(0, np.int16)
        self._input.clear()
        if len(audio) < MIN_COMMIT_S * SAMPLE_RATE:
            return None
        return (await self.pipe.transcribe(audio)).strip()

    def clear_input(self) -> None:
        """Forget the audio of a client-decided turn not committed yet."""
        self._input.clear()

    # --- sending ----------------------------------------------------------------------------
    async def _send_loop(self) -> None:
        timeout = self.cfg.server.send_timeout_s
        while (item := await self.outbox.get()) is not None:
            try:
                await asyncio.wait_for(self.conn.send(item), timeout)
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

    def shut(self, code: int, reason: str, flush: bool = False) -> None:
        """Close the session from the server's side with ``code``; queued messages are dropped
        (``flush``: sent first, then the close frame)."""
        if self.close_code is None:
            log.info("session %s: closing (%d %s)", self.id, code, reason)
            self.close_code, self._close_reason = code, reason
        if not flush:
            self.outbox.discard()
        self.outbox.close()

    async def _close_connection(self) -> None:
        assert self.close_code is not None
        try:
            closing = self.conn.close(self.close_code, self._close_reason)
            await asyncio.wait_for(closing, CLOSE_TIMEOUT_S)
        except (TimeoutError, ConnectionClosed, OSError):
            _abort(self.conn)

    async def _idle_watch(self) -> None:
        limit = self.cfg.server.idle_timeout_s
        while True:
            if self.busy():
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

    # --- receiving --------------------------------------------------------------------------
    async def _receive_loop(self) -> None:
        try:
            async for item in self.conn:
                self._active = self.clock()
                self._handling = True  # the client's request is being served: not idleness
                try:
                    if isinstance(item, ProtocolError):
                        raise item
                    if isinstance(item, bytes):
                        await self._audio(item)
                    else:
                        await self.handle(item)
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

    async def handle(self, ev: p.ClientEvent) -> None:
        """One client event; ProtocolError for one the session cannot take."""
        match ev:
            case p.SessionConfig():
                self._configure(ev)
            case p.TextInput():
                text = " ".join(ev.text.split())
                if not text:
                    raise ProtocolError("bad_event", "text.input: text is empty")
                self._check_length("text.input", text)
                await self.pipe.ask(text)
            case p.Interrupt():
                await self.pipe.interrupt()
            case p.PlaybackDone():
                self.sink.played(ev.turn)
            case p.ConversationReset():
                self.pipe.reset()
                self.send(p.ConversationWasReset())
            case p.FunctionOutput():
                self._check_length("function.output", ev.output)
                try:
                    self.pipe.add_tool_output(ev.call_id, ev.output)
                except ValueError as e:
                    raise ProtocolError("unknown_call", str(e)) from None
                self.send(p.FunctionOutputAdded(call_id=ev.call_id))
            case p.ReplyCreate():
                try:
                    turn = await self.pipe.respond()
                except ValueError as e:
                    raise ProtocolError("bad_event", f"reply.create: {e}") from None
                self._newest = max(self._newest, turn)
                self.send(p.ReplyCreated(turn=turn))
            case p.InputAudioCommit():
                if not self.client_turns:
                    raise ProtocolError("bad_event", "input_audio.commit: the server decides "
                                        "turns; set turn_detection to \"client\" first")
                text = await self.transcribe_input()
                if text is None:
                    raise ProtocolError("empty_input", "input_audio.commit: less than "
                                        f"{MIN_COMMIT_S * 1000:g} ms of audio since the last "
                                        "commit")
                if not text:
                    raise ProtocolError("no_speech", "input_audio.commit: no words were heard")
                await self.pipe.ask(text)
            case p.InputAudioClear():
                self.clear_input()

    def _configure(self, ev: p.SessionConfig) -> None:
        given = ev.model_fields_set
        rate = ev.output_sample_rate
        if rate is not None and not p.OUTPUT_RATES[0] <= rate <= p.OUTPUT_RATES[1]:
            raise ProtocolError("bad_event", "output_sample_rate must be 8000..192000")
        if "tools" in given or "tool_choice" in given:
            try:
                self.pipe.set_functions(ev.tools, ev.tool_choice)
            except ToolFormatError as e:
                raise ProtocolError("bad_event", f"session.config: {e}") from None
        if rate is not None:
            self.sink.sample_rate = rate
        if ev.reply_audio is not None:
            self.pipe.speak = ev.reply_audio
        if ev.instructions is not None:
            self.pipe.instruct(ev.instructions)
        if ev.turn_detection is not None and self.client_turns != (ev.turn_detection == "client"):
            self.client_turns = ev.turn_detection == "client"
            self._input.clear()

    def _check_length(self, what: str, text: str) -> None:
        limit = self.cfg.server.max_text_chars
        if len(text) > limit:
            raise ProtocolError("too_large", f"{what}: longer than {limit} chars")

    async def _audio(self, data: bytes) -> None:
        _check_size(len(data), self.cfg.server.max_message_bytes)  # audio from any encoder
        if len(data) % 2:
            raise ProtocolError("bad_audio", f"odd-length audio frame ({len(data)} bytes)")
        if not data:
            return
        pcm = np.frombuffer(data, dtype="<i2").astype(np.int16)
        if self.client_turns:  # kept for the commit, bounded as a spoken turn is
            held = sum(len(a) for a in self._input) + len(pcm)
            if held > self.cfg.vad.max_utterance_ms * SAMPLE_RATE // 1000:
                raise ProtocolError("too_large", "input audio over vad.max_utterance_ms since "
                                    "the last commit: this frame was dropped")
            self._input.append(pcm)
            self._audio_s += len(pcm) / SAMPLE_RATE
            return
        if not self.limiter.admit(len(pcm)):
            if self.limiter.notice():
                raise ProtocolError(
                    "rate_limited",
                    "audio is arriving faster than real time; frames beyond a "
                    f"{self.limiter.burst_s:g} s burst are dropped",
                )
            return
        self._audio_s += len(pcm) / SAMPLE_RATE
        await self.pipe.feed(pcm)

    # --- the pipeline's frames → server events ----------------------------------------------
    def _on_frame(self, f: Frame) -> None:
        """Pipeline frames → server events (stale reply text is dropped here)."""
        if isinstance(f, SpeechStoppedFrame | TranscriptFrame | TimerFiredFrame):
            self._newest = max(self._newest, f.turn)
        if isinstance(f, TranscriptFrame | ReplyTextFrame) and f.turn < self._newest:
            return
        if isinstance(f, TurnMetricsFrame):
            self.sink.end(f.turn)
        ev = self._event(f)
        if ev is not None:
            self.send(ev)

    def _event(self, f: Frame) -> Any:
        match f:
            case SpeechStartedFrame():
                return p.SpeechStarted(turn=f.turn, at_ms=round(f.at_ms, 1))
            case SpeechStoppedFrame():
                return p.SpeechStopped(turn=f.turn, at_ms=round(f.at_ms, 1),
                                       speech_end_ms=round(f.speech_end_ms, 1), forced=f.forced)
            case TranscriptFrame():
                kind = p.TranscriptFinal if f.final else p.TranscriptPartial
                return kind(turn=f.turn, text=f.text)
            case ReplyTextFrame():
                if f.final:
                    return p.ReplyText(turn=f.turn, text=f.text, final=True)
                return p.ReplyText(turn=f.turn, delta=f.text, final=False)
            case InterruptionFrame():
                return p.ReplyInterrupted(turn=f.turn, spoken=f.spoken)
            case TurnMetricsFrame():
                jobs = self.pipe.jobs  # this session's use of the shared Whisper/Piper workers
                stats = {
                    **f.stats,
                    "session_worker_s": round(jobs.work_s, 3),
                    "session_cpu_s": round(jobs.cpu_s, 3),
                    "session_speculative_s": round(jobs.speculative_s, 3),
                    "session_audio_s": round(self._audio_s, 3),
                }
                return p.TurnMetrics(turn=f.turn, latency_ms=f.latency_ms, stats=stats)
            case FunctionCallFrame():
                return p.FunctionCall(turn=f.turn, call_id=f.call_id, name=f.name,
                                      arguments=f.arguments)
            case ToolCallFrame():
                return p.ToolCall(turn=f.turn, name=f.name, arguments=f.arguments,
                                  result=f.result, ok=f.ok, ms=round(f.ms, 2))
            case TimerFiredFrame():
                return p.TimerFired(turn=f.turn, text=f.text, label=f.label,
                                    reminder=f.reminder, seconds=f.seconds)
            case ErrorFrame():
                return p.Error(code="turn_failed", message=f.message, turn=f.turn)
        return None


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


def _abort(conn) -> None:
    """Drop a connection whose client does not even take the close frame."""
    for obj in (conn, getattr(conn, "link", None), getattr(conn, "transport", None)):
        abort = getattr(obj, "abort", None) if obj is not None else None
        if abort is not None:
            abort()
            return
