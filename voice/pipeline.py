"""The real-time voice pipeline: input → turn detection → ASR → diffusion LM → TTS → output.

One :class:`Pipeline` per conversation, all sharing one :class:`Models` (Whisper, Piper and the
LLM back-end, loaded once per process). Audio chunks go in through :meth:`Pipeline.feed`; a fresh
:class:`TurnDetector` turns them into speech events; each finished utterance becomes a turn task
that transcribes it in a worker thread, streams the reply's committed text from the LLM thread,
cuts it into sentences (the first one short) and synthesises them while the LLM may still be
refining later blocks. Audio goes to a :class:`Sink`; everything else leaves as typed frames.

- A turn is one :class:`Turn` (record, audio, task, what was heard); an interruption is one
  path, :meth:`Pipeline._interrupt`: silence, cancel, then settle history and frames.
- Speculative start: at a pause (90 ms inaudible, or webrtcvad's silence) the turn is prepared
  ahead (ASR, reply, first sentence of audio); speech that resumes cancels it. The pause's
  transcript decides the end of the turn (``voice.endpoint``): complete, it ends now and the
  prepared audio plays; incomplete, it waits for more. Latency counts from the audible end.
- Barge-in: speech that starts while the assistant is busy stops playback at once, aborts
  generation and synthesis, and the history keeps only the words that were played; speech just
  after the answer began (a false start) takes the answer back and the whole utterance is
  answered as one turn.
- Echo: what the speaker plays is the reference of an echo suppressor on the microphone.
- The event loop never waits on a model; a monitor measures its lag during turns.
- The client's own functions (:meth:`Pipeline.set_functions`) are offered beside the built-in
  tools; a turn in which the model calls one ends with the call (a ``FunctionCallFrame``, the
  call kept in the history), the client's output joins the history
  (:meth:`Pipeline.add_tool_output`) and :meth:`Pipeline.respond` answers it in a follow-up
  turn. With ``speak`` off replies are text only and nothing is synthesised.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np

from engine.tools import normalize_tool_choice, normalize_tools
from voice.audio import SAMPLE_RATE, resample
from voice.config import AppConfig
from voice.conversation import Conversation
from voice.echo import EchoSuppressor
from voice.endpoint import is_complete, is_preface
from voice.frames import (
    EndFrame,
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
    TtsAudioFrame,
    TurnMetricsFrame,
)
from voice.llm import LLMError, LocalLLM, RemoteLLM
from voice.scheduler import Scheduler
from voice.tools import Toolbox, answer, tool_messages, tools_supported
from voice.tts import split_sentences
from voice.vad import SpeechEnded, SpeechPaused, SpeechResumed, SpeechStarted, TurnDetector

# A sentence is final once its end punctuation is followed by more text.
_BOUNDARY = re.compile(r"[.!?]+[\"')\]]*\s+")
_RESET = re.compile(
    r"^(please )?(reset|start over|new conversation|forget everything|"
    r"clear (the )?(conversation|history))( please)?$"
)
STAGES = (
    "audible_end",
    "speech_end",
    "turn_detected",
    "asr_done",
    "first_text",
    "reply_done",
    "first_tts_audio",
    "first_audio_out",
)


@dataclass
class TurnRecord:
    """What one turn heard, said and when each stage finished (wall-clock seconds)."""

    turn: int
    transcript: str = ""
    reply: str = ""
    spoken: str = ""  # what was actually played (less than reply after a barge-in)
    stamps: dict[str, float] = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    speculative: bool = False  # the reply was prepared during a pause
    interrupted: bool = False
    taken_back: bool = False  # a false start: the user went on; the whole utterance goes on
    endpoint: str = "silence"  # what ended the turn: "silence", or a "complete" transcript
    error: str | None = None
    announcement: bool = False  # spoken unprompted (a timer or reminder), not an answer
    follow_up: bool = False  # answers the conversation's tool results, not a new question
    calls: list[dict] = field(default_factory=list)  # the client's functions it called

    @property
    def latency_ms(self) -> dict[str, float]:
        """Each stage's time after the audible end of speech (as the user hears it), in ms.

        ``speech_end`` is where the VAD put the end: its lag behind the audible end is a stage.
        """
        t0 = self.stamps.get("audible_end", self.stamps.get("speech_end"))
        if t0 is None:
            return {}
        return {k: round((self.stamps[k] - t0) * 1000.0, 1) for k in STAGES[1:] if k in self.stamps}

    def to_json(self) -> dict:
        d = {
            "turn": self.turn,
            "transcript": self.transcript,
            "reply": self.reply,
            "latency_ms": self.latency_ms,
            "speculative": self.speculative,
            "endpoint": self.endpoint,
            "llm": self.stats,
        }
        if self.stats.get("tools"):
            d["tools"] = self.stats["tools"]
        if self.announcement:
            d["announcement"] = True
        if self.follow_up:
            d["follow_up"] = True
        if self.calls:
            d["calls"] = self.calls
        if self.interrupted:
            d["interrupted"] = True
            d["spoken"] = self.spoken
        if self.taken_back:
            d["taken_back"] = True
        if self.error:
            d["error"] = self.error
        return d


class Models:
    """Whisper, Piper and the LLM back-end: loaded once, shared by every conversation."""

    def __init__(self, cfg: AppConfig, progress: Callable[[str], None] | None = None) -> None:
        from voice.asr import Transcriber
        from voice.tts import Synthesizer

        self.cfg = cfg
        a = cfg.asr
        from voice.remote_speech import RemoteSynthesizer, RemoteTranscriber

        self.asr: Transcriber | RemoteTranscriber = Transcriber(
            None if a.model == "bundled" else a.model,
            device=a.device,
            compute_type=None if a.compute_type == "auto" else a.compute_type,
            language=a.language,
            beam_size=a.beam_size,
            window_s=a.window_s,
            max_rtf=a.max_rtf,
            progress=progress,
        ) if not a.url else RemoteTranscriber(a.url, api_key=a.api_key)  # asr.url: elsewhere
        self.tts: Synthesizer | RemoteSynthesizer = Synthesizer(
            None if cfg.tts.voice == "bundled" else cfg.tts.voice,
            volume=cfg.tts.volume,
            progress=progress,
        ) if not cfg.tts.url else RemoteSynthesizer(cfg.tts.url, api_key=cfg.tts.api_key)
        s = cfg.assistant
        if s.llm_url:
            self.llm: LocalLLM | RemoteLLM = RemoteLLM(
                s.llm_url, s.llm_model, s.llm_api_key, cfg.sampling
            )
        else:
            if progress:
                progress(f"Loading diffusion LM {cfg.engine.model} ...")
            self.llm = LocalLLM.load(cfg.engine, cfg.sampling)
        self.asr.load()
        self.tts.load()
        if s.tools and tools_supported(self.llm):
            from voice.tools.units import registry

            registry()  # pint's unit table takes ~0.3 s: now, not in someone's first conversion
        c = cfg.scheduler
        # Every conversation's Whisper and Piper calls go through here, fairly (scheduler.py).
        self.scheduler = Scheduler(c.workers, c.speculative_share, c.max_jobs_per_session)
        # A reply's LLM stream waits on the engine for its whole length: one thread each, off
        # the event loop's default pool, where aiortc encodes every WebRTC reply frame (8
        # sessions' streams, speculative ones beside them, would otherwise hold all of it).
        self.llm_threads = ThreadPoolExecutor(2 * cfg.server.max_sessions + 2,
                                              thread_name_prefix="llm-stream")

    def close(self) -> None:
        self.scheduler.close()
        self.llm_threads.shutdown(wait=False, cancel_futures=True)
        self.llm.close()


class Sink:
    """Where the assistant's voice goes. ``play`` returns when (wall clock) it will be heard."""

    sample_rate: int
    # Played on a loudspeaker next to this process's microphone, so the microphone may hear it
    # (echo suppression applies). A remote client plays it itself and cancels its own echo.
    plays_here: bool = True

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        raise NotImplementedError

    async def stop(self, turn: int) -> None:
        """Barge-in: drop what is queued for ``turn`` now."""

    def busy(self) -> bool:
        """Whether audio is still being played."""
        return False

    async def drain(self) -> None:
        """Wait until everything queued has been played."""


class WavSink(Sink):
    """Records what the assistant said, as a speaker would have played it.

    ``realtime``: audio "plays" on a wall-clock timeline, so a barge-in cuts it where a listener
    would have stopped hearing it; otherwise every chunk counts as heard at once.
    """

    def __init__(self, sample_rate: int, realtime: bool = True, clock=time.perf_counter) -> None:
        self.sample_rate, self.realtime, self.clock = sample_rate, realtime, clock
        self.segments: list[tuple[float, np.ndarray, int]] = []  # (wall start, audio, turn)
        self._playhead = 0.0

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        now = self.clock()
        start = max(now, self._playhead) if self.realtime else now
        end = start + len(audio) / self.sample_rate if self.realtime else now
        self._playhead = end
        self.segments.append((start, audio, turn))
        return start, end

    async def stop(self, turn: int) -> None:
        if not self.realtime:
            return
        now = self.clock()
        kept = []
        for start, audio, t in self.segments:
            if start >= now:
                continue
            n = int((now - start) * self.sample_rate)
            kept.append((start, audio[:n], t))
        self.segments = kept
        self._playhead = min(self._playhead, now)

    def busy(self) -> bool:
        return self.realtime and self._playhead > self.clock()

    async def drain(self) -> None:
        if self.realtime:
            delay = self._playhead - self.clock()
            if delay > 0:
                await asyncio.sleep(delay)

    def audio(self, gap_s: float = 0.3) -> np.ndarray:
        """Everything that was heard, turns separated by ``gap_s`` of silence."""
        out: list[np.ndarray] = []
        last_end = None
        for start, audio, _ in self.segments:
            if last_end is not None and start - last_end > 0.05:
                out.append(np.zeros(int(gap_s * self.sample_rate), dtype=np.int16))
            out.append(audio)
            last_end = start + len(audio) / self.sample_rate
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int16)


@dataclass
class _Prepared:
    """A turn's work done ahead (speculatively) or on the way."""

    transcript: str = ""
    reply: str = ""
    stats: dict = field(default_factory=dict)
    first_audio: list = field(default_factory=list)  # SpeechChunks of the first piece
    pieces: list[str] = field(default_factory=list)
    calls: list[dict] = field(default_factory=list)  # calls of the client's functions
    stamps: dict[str, float] = field(default_factory=dict)


@dataclass
class _Speculation:
    """Work started at a pause of the utterance still being spoken."""

    paused: SpeechPaused
    task: asyncio.Task | None = None
    transcript: str | None = None  # known once its ASR is done
    # The turn ended at this pause: the user now waits for what is left of this work, so its
    # later jobs (the first sentence's audio) are urgent, not speculative.
    wanted: bool = False


@dataclass
class Turn:
    """One utterance and the answer to it: everything an interruption has to touch.

    The pipeline holds one at a time (the newest); a new turn replaces it only after the old
    one has been interrupted or has finished. ``record.interrupted`` is the generation check:
    once set, nothing of this turn is played any more.
    """

    record: TurnRecord
    audio: np.ndarray | None  # the utterance as transcribed (None: a typed question)
    task: asyncio.Task | None = None  # answering: ASR, reply, synthesis, playback
    heard: list[tuple[str, float, float]] = field(default_factory=list)  # (piece, start, end)
    shown: str = ""  # the reply text sent so far (what a text-only client has read)
    remembered: bool = False  # its exchange is in the history
    carry: np.ndarray | None = None  # speech taken back: it belongs to the next turn
    closed: bool = False  # its record has been published

    @property
    def id(self) -> int:
        return self.record.turn

    def answering(self) -> bool:
        return self.task is not None and not self.task.done()


class Pipeline:
    """One conversation. ``feed`` audio (or ``run`` a source); frames go to ``on_frame``."""

    def __init__(
        self,
        models: Models,
        cfg: AppConfig,
        sink: Sink,
        on_frame: Callable[[Frame], None] | None = None,
        on_turn: Callable[[TurnRecord], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.m, self.cfg, self.sink, self.clock = models, cfg, sink, clock
        self._on_frame, self._on_turn = on_frame, on_turn
        self.detector = TurnDetector(SAMPLE_RATE, **cfg.vad.detector_args())
        self.jobs = models.scheduler.lane()  # this conversation's share of Whisper and Piper
        self.conversation = Conversation()
        self.records: list[TurnRecord] = []
        self.realtime = True
        self.speculative_started = 0
        self.speculative_cancelled = 0
        self.speculative_used = 0
        self._ids = itertools.count(1)
        self._last_id = 0  # id of the newest turn
        self._turn: Turn | None = None  # the newest turn: being answered, or its answer playing
        self._spec: _Speculation | None = None
        self._t0: float | None = None  # wall time of stream offset 0
        self._lag_task: asyncio.Task | None = None
        self._lag_max = 0.0
        self._closed = False
        self._smart = False  # transcript-aware endpointing (set by start)
        v = cfg.vad
        self._echo = EchoSuppressor(SAMPLE_RATE, margin_db=v.echo_margin_db)
        self._played: list[tuple[int, np.ndarray]] = []  # (stream offset, 16 kHz) reference
        self._fed = 0  # samples of microphone audio fed
        # Built-in tools (voice.tools): made on the conversation's loop, closed with it.
        self.tools: Toolbox | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # The client's own functions (OpenAI tools): the model may call them; the client runs
        # them and sends their output back (set_functions, add_tool_output, respond).
        self.functions: list[dict] = []
        self.tool_choice: str | dict = "auto"
        self.speak = True  # False: replies are text only, nothing is synthesised

    # --- frames -------------------------------------------------------------------------
    def emit(self, frame: Frame) -> None:
        if self._on_frame is not None:
            self._on_frame(frame)

    def _wall(self, offset: int) -> float:
        assert self._t0 is not None
        return self._t0 + offset / SAMPLE_RATE

    # --- input --------------------------------------------------------------------------
    def start(self, realtime: bool = True) -> None:
        """Begin a stream now (stream offset 0 = this moment)."""
        self.realtime = realtime
        self._t0 = self.clock()
        self._fed, self._played = 0, []
        v = self.cfg.vad
        self._smart = realtime and self.cfg.assistant.speculative and v.endpoint == "smart"
        # Smart endpointing ends a complete turn itself; silence only ends an incomplete one.
        self.detector.set_end_ms(v.incomplete_ms if self._smart else v.end_ms)
        self._ensure_tools()
        if self._lag_task is None:
            self._lag_task = asyncio.create_task(self._monitor_lag(), name="loop-lag")

    async def feed(self, chunk: np.ndarray) -> None:
        """Add int16 16 kHz mono audio from the user."""
        if self._t0 is None:
            self.start()
        if self._suppress_echo():
            chunk = self._echo.process(chunk, self._reference(self._fed, len(chunk)))
        self._fed += len(chunk)
        for ev in self.detector.feed(chunk):
            await self._on_event(ev)
        await self._decide()

    async def finish(self) -> None:
        """End of input: close an open turn, wait for the answer and its playback."""
        for ev in self.detector.flush():
            await self._on_event(ev)
        if self._turn is not None and self._turn.task is not None:
            await asyncio.gather(self._turn.task, return_exceptions=True)
        await self.sink.drain()

    async def run(self, source: AsyncIterator[np.ndarray], realtime: bool = True) -> None:
        """Consume ``source`` to its end, then finish the last turn and shut down."""
        self.start(realtime)
        try:
            async for chunk in source:
                await self.feed(chunk)
            await self.finish()
        finally:
            await self.close()

    async def close(self) -> None:
        """Cancel everything this conversation started; nothing is left running."""
        self._closed = True
        if self.tools is not None:
            self.tools.close()  # the conversation's timers end with it
        self._cancel_spec()
        if self._turn is not None and self._turn.answering():
            await self._interrupt()
        if self._lag_task is not None:
            self._lag_task.cancel()
            await asyncio.gather(self._lag_task, return_exceptions=True)
        self._lag_task = None
        self.jobs.close()
        self.emit(EndFrame(self._last_id))

    @property
    def history(self) -> list[dict]:
        """The conversation's messages (:class:`voice.conversation.Conversation` owns them)."""
        return self.conversation.messages

    @history.setter
    def history(self, messages: list[dict]) -> None:
        self.conversation.messages = list(messages)

    def reset(self) -> None:
        """Forget the conversation (a spoken or API reset), and what its tools remember."""
        self.conversation.reset()

    async def interrupt(self) -> None:
        """Stop the assistant now (barge-in, or the client asked)."""
        await self._interrupt()

    async def ask(self, text: str) -> None:
        """A typed question: a new turn answered like a spoken one, without ASR."""
        await self._interrupt()
        self._ensure_tools()
        self._begin(Turn(self._record_now(), None), None, text)
        await asyncio.sleep(0)  # let the turn start (see _on_event)

    def _record_now(self, **kw) -> TurnRecord:
        """A new turn with nothing to hear (typed, or a follow-up): it ends its speech now."""
        rec = TurnRecord(self._new_id(), **kw)
        now = self.clock()
        for k in ("audible_end", "speech_end", "turn_detected"):
            rec.stamps[k] = now
        return rec

    # --- the client's functions ---------------------------------------------------------
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

    def open_calls(self) -> list[str]:
        """Ids of the client's function calls in the history still waiting for their output."""
        return self.conversation.open_calls()

    def add_tool_output(self, call_id: str, output: str) -> None:
        """The client ran its function: its output joins the history as a ``tool`` message
        (answered by the next :meth:`respond`). Raises ValueError for a call that is not
        waiting for an output."""
        self.conversation.add_tool_output(call_id, output)

    async def respond(self) -> int:
        """A turn that answers the conversation as it is (after :meth:`add_tool_output`): no
        new question, a reply like any other. Returns its turn id; raises ValueError when the
        history does not end with tool output."""
        if not self.conversation.awaits_answer():
            raise ValueError("nothing to respond to: add the output of a function call first")
        await self._interrupt()
        self._ensure_tools()
        rec = self._record_now(follow_up=True)
        self._begin(Turn(rec, None), None)
        return rec.turn

    # --- tools and announcements --------------------------------------------------------
    def _ensure_tools(self) -> None:
        if self.tools is None and self.cfg.assistant.tools and tools_supported(self.m.llm):
            self._loop = asyncio.get_running_loop()
            self.tools = Toolbox(self._timer_fired, self._loop)
            self.conversation.on_reset(self.tools.forget)

    def _timer_fired(self, timer, text: str) -> None:
        """A timer is due (on the loop): speak up once the current answer is done."""
        if not self._closed:
            asyncio.ensure_future(self.announce(text, timer))

    async def announce(self, text: str, timer=None) -> None:
        """Speak ``text`` unprompted, in a turn of its own, after any answer in progress
        (a barge-in stops it like any reply)."""
        while self._turn is not None and self._turn.answering():
            await asyncio.gather(self._turn.task, return_exceptions=True)
        if self._closed:
            return
        rec = TurnRecord(self._new_id(), reply=text, announcement=True)
        rec.stamps["audible_end"] = rec.stamps["speech_end"] = self.clock()
        turn = Turn(rec, None)
        self._turn = turn
        self.emit(TimerFiredFrame(rec.turn, text, getattr(timer, "label", ""),
                                  getattr(timer, "reminder", False),
                                  getattr(timer, "seconds", 0)))  # fmt: skip
        self.emit(ReplyTextFrame(rec.turn, text, True))
        turn.task = asyncio.create_task(self._speak_announcement(turn), name=f"timer-{rec.turn}")
        await asyncio.gather(turn.task, return_exceptions=True)

    async def _speak_announcement(self, turn: Turn) -> None:
        rec = turn.record
        try:
            await self._voice(turn, rec.reply)
            rec.spoken = rec.reply
            rec.stats["announcement"] = True
            # Said unprompted, it is part of the conversation: "what was that?", "set it again"
            # (messages_for drops it with the exchange before it).
            self.conversation.say(rec.spoken)
        except Exception as e:  # TTS failure: an error event; the conversation goes on
            rec.error = f"{type(e).__name__}: {e}"
            self.emit(ErrorFrame(rec.turn, rec.error))
        finally:
            if not rec.interrupted:
                self._publish(turn)

    # --- turn detection -----------------------------------------------------------------
    def _new_id(self) -> int:
        self._last_id = next(self._ids)
        return self._last_id

    async def _on_event(self, ev) -> None:
        if isinstance(ev, SpeechStarted):
            # When the new speech began, on the wall clock (the stream may have had gaps).
            onset = self.clock() - (ev.at - ev.start) / SAMPLE_RATE
            await self._interrupt(onset=onset if self.realtime else None)
            self.emit(SpeechStartedFrame(self._last_id + 1, ev.at_ms))
        elif isinstance(ev, SpeechPaused):
            # No speculation on an utterance too long for Whisper's short window: it would cost
            # twice as much (the 30 s window), at every pause, and a question is rarely that long.
            short = len(ev.audio) <= (self.cfg.asr.window_s - 1) * SAMPLE_RATE
            if self.cfg.assistant.speculative and self.realtime and not self._closed and short:
                self._cancel_spec()
                self.speculative_started += 1
                spec = _Speculation(ev)
                spec.task = asyncio.create_task(
                    self._prepare(self._with_carry(ev.audio), spec), name="spec"
                )
                self._spec = spec
        elif isinstance(ev, SpeechResumed):
            if self._spec is not None:
                self.speculative_cancelled += 1
                self._cancel_spec()
        elif isinstance(ev, SpeechEnded):
            await self._on_end(ev, self.clock())

    async def _decide(self) -> None:
        """Smart endpoint: at a pause whose transcript is complete, the turn is over."""
        s = self._spec
        if not self._smart or s is None or s.transcript is None:
            return
        quiet_ms = (self.detector.position - s.paused.audible_end) * 1000 / SAMPLE_RATE
        v = self.cfg.vad
        need = v.preface_ms if is_preface(s.transcript) else v.complete_ms
        if quiet_ms >= need and is_complete(s.transcript):
            for ev in self.detector.end_now():
                await self._on_end(ev, self.clock(), "complete")

    async def _on_end(self, ev: SpeechEnded, detected: float, why: str = "silence") -> None:
        await self._interrupt()
        rec = TurnRecord(self._new_id(), endpoint=why)
        self.emit(
            SpeechStoppedFrame(rec.turn, ev.at_ms, ev.speech_end * 1000 / SAMPLE_RATE, ev.forced)
        )
        spec = None
        if self._spec is not None:
            s, self._spec = self._spec, None
            if s.paused.speech_end == ev.speech_end and not ev.forced:
                spec, s.wanted = s.task, True
            else:
                self.speculative_cancelled += 1
                s.task.cancel()
        if self.realtime:
            rec.stamps["speech_end"] = self._wall(ev.speech_end)
            rec.stamps["audible_end"] = self._wall(ev.audible_end)
        else:  # replayed faster than real time: place the ends as a live stream would have
            rec.stamps["speech_end"] = detected - (ev.at - ev.speech_end) / SAMPLE_RATE
            rec.stamps["audible_end"] = detected - (ev.at - ev.audible_end) / SAMPLE_RATE
        rec.stamps["turn_detected"] = detected
        self._begin(Turn(rec, self._with_carry(ev.audio)), spec)
        # Let the turn start before the next event arrives.
        await asyncio.sleep(0)
        if not self.realtime and self._turn is not None and self._turn.task is not None:
            # Replaying as fast as possible: the "user" waits for each answer.
            await asyncio.gather(self._turn.task, return_exceptions=True)

    def _begin(self, turn: Turn, spec: asyncio.Task | None, text: str | None = None) -> None:
        """Make ``turn`` the current one and start answering it."""
        if self._turn is not None:
            self._turn.carry = None  # consumed by _with_carry
        self._turn = turn
        turn.task = asyncio.create_task(self._answer(turn, spec, text), name=f"turn-{turn.id}")

    def _with_carry(self, audio: np.ndarray) -> np.ndarray:
        carry = self._turn.carry if self._turn is not None else None
        if carry is None:
            return audio
        # Carried speech is kept only up to the utterance limit: a user who talks on past
        # forced endpoints must not make every later turn transcribe everything said so far.
        room = self.cfg.vad.max_utterance_ms * SAMPLE_RATE // 1000 - len(audio) - SAMPLE_RATE // 5
        if room <= 0:
            return audio
        gap = np.zeros(SAMPLE_RATE // 5, dtype=np.int16)
        return np.concatenate([carry[-room:], gap, audio])

    def busy(self) -> bool:
        """The assistant is preparing, saying or still playing an answer."""
        return (self._turn is not None and self._turn.answering()) or self.sink.busy()

    def _cancel_spec(self) -> None:
        if self._spec is not None:
            if self._spec.task is not None:
                self._spec.task.cancel()
            self._spec = None

    # --- the one way to interrupt -------------------------------------------------------
    async def _interrupt(self, onset: float | None = None) -> None:
        """Stop the current turn now, wherever it is: preparing, speaking or still playing.

        Silence first (what the user notices), then the turn's task is cancelled, and this one
        place settles what the turn leaves behind: what was heard goes into the history and the
        ``InterruptionFrame``. A false start (the user was still talking: nothing heard yet, or
        ``onset`` of the new speech within ``vad.takeback_ms`` of the first audio) takes the
        turn back whole: no reply in the history, and its speech carried into the next turn.
        """
        turn = self._turn
        if turn is None or turn.record.interrupted or not self.busy():
            return
        t = self.clock()
        rec = turn.record
        rec.interrupted = True  # from here on nothing of this turn is played
        await self.sink.stop(rec.turn)
        self._cut_reference(t)
        if turn.task is not None and not turn.task.done():
            turn.task.cancel()
            await asyncio.gather(turn.task, return_exceptions=True)
        first = rec.stamps.get("first_audio_out")
        rec.spoken = _heard_text(turn.heard, t) if self.speak else " ".join(turn.shown.split())
        takeback = self.cfg.vad.takeback_ms / 1000.0
        if turn.audio is not None and (
            not rec.spoken or (onset is not None and first is not None and onset - first < takeback)
        ):
            rec.taken_back, rec.spoken = True, ""
            turn.carry = turn.audio
        if turn.remembered:
            said = {"role": "assistant", "content": rec.reply}
            self.conversation.cut_short(said, rec.spoken, rec.follow_up)
        elif (rec.transcript or rec.follow_up) and rec.spoken:
            self._remember(turn, rec.transcript or None, rec.spoken)
        self.emit(InterruptionFrame(rec.turn, rec.spoken))
        rec.stats["barge_in_stop_ms"] = round((self.clock() - t) * 1000, 1)
        self._publish(turn)

    def _publish(self, turn: Turn) -> None:
        """The turn's record is final: keep it and report it (once)."""
        if turn.closed:
            return
        turn.closed = True
        rec = turn.record
        rec.stats["loop_lag_max_ms"] = round(self._lag_max * 1000, 1)
        if rec.transcript or rec.error or rec.announcement or rec.follow_up:
            self.records.append(rec)
            self.emit(TurnMetricsFrame(rec.turn, rec.latency_ms, dict(rec.stats)))
            if self._on_turn is not None:
                self._on_turn(rec)

    # --- answering ----------------------------------------------------------------------
    def messages_for(self, transcript: str | None) -> list[dict]:
        """System prompt + as much recent history as fits the budget + the new question (None:
        no new question, the history is answered as it is)."""
        a = self.cfg.assistant
        return self.conversation.messages_for(
            a.system_prompt, transcript, a.history_turns, a.history_tokens, self.m.llm.count_tokens
        )

    async def transcribe(self, audio: np.ndarray, speculative: bool = False) -> str:
        """``audio`` (16 kHz) as text, on this conversation's own share of the speech workers
        (also for turns a client decides itself, as the Realtime API's commits)."""
        text = await self.jobs.run(self.m.asr.transcribe, audio, speculative=speculative)
        return text.strip()

    def instruct(self, system_prompt: str) -> None:
        """This conversation's system prompt from now on (a Realtime session's
        ``instructions``); the configuration it was started with is left as it was."""
        assistant = replace(self.cfg.assistant, system_prompt=system_prompt)
        self.cfg = replace(self.cfg, assistant=assistant)

    async def _prepare(self, audio: np.ndarray, spec: _Speculation) -> _Prepared:
        """Speculative work at a pause: transcript, whole reply, first sentence's audio."""
        p = _Prepared()
        p.transcript = await self.transcribe(audio, speculative=not spec.wanted)
        p.stamps["asr_done"] = self.clock()
        spec.transcript = p.transcript  # the endpoint decision can use it now
        if not p.transcript or _RESET.match(_norm(p.transcript)):
            return p
        rid = f"spec-{id(self)}-{self.speculative_started}"
        first: list[float] = []

        def on_text(_t: str) -> None:
            if not first:
                first.append(self.clock())

        call = self._in_llm_thread(p.transcript, on_text, rid)
        try:
            reply = await call
        except asyncio.CancelledError:
            self.m.llm.cancel(rid)
            raise
        p.stamps["reply_done"] = self.clock()
        p.stamps["first_text"] = first[0] if first else p.stamps["reply_done"]
        p.reply, p.stats, p.calls = reply.text, reply.stats, reply.calls
        p.pieces = split_sentences(p.reply, self.cfg.tts.first_chunk_chars)
        if p.pieces and self.speak:
            p.first_audio = await self._synth(p.pieces[0], speculative=not spec.wanted)
            p.stamps["first_tts_audio"] = self.clock()
        return p

    def _in_llm_thread(self, transcript: str | None, on_text, rid: str):
        """:meth:`_stream_llm` on the models' LLM threads (the loop's default pool for models
        that have none)."""
        pool = getattr(self.m, "llm_threads", None)
        return asyncio.get_running_loop().run_in_executor(
            pool, self._stream_llm, transcript, on_text, rid)

    def _stream_llm(self, transcript: str | None, on_text, rid: str):
        """Runs in a worker thread: the prompt is built (tokenised) there too; with tools, the
        tool loop (model → tools → model) runs here and each call is reported as a frame."""
        loop = self._loop
        turn = self._last_id + 1 if rid.startswith("spec-") else self._last_id

        def on_tool(run) -> None:
            if loop is not None:
                frame = ToolCallFrame(turn, run.name, run.arguments, run.result, run.ok, run.ms)
                loop.call_soon_threadsafe(self.emit, frame)

        return answer(self.m.llm, self.messages_for(transcript), self.tools, on_text, rid, on_tool,
                      functions=self.functions, tool_choice=self.tool_choice)

    async def _synth(self, text: str, speculative: bool = False) -> list:
        return await self.jobs.run(_synthesize_all, self.m.tts, text, speculative=speculative)

    async def _answer(self, turn: Turn, spec: asyncio.Task | None, text: str | None) -> None:
        """Transcribe (or take the speculative work), reply, speak. Cancelled by _interrupt."""
        rec = turn.record
        self._lag_max = 0.0
        try:
            prepared: _Prepared | None = None
            if spec is not None:
                self.jobs.promote()  # the user now waits for what was speculative
                try:
                    prepared = await spec
                except Exception:
                    prepared = None
            if prepared is not None:
                rec.speculative = True
                self.speculative_used += 1
                rec.transcript = prepared.transcript
                for k, v in prepared.stamps.items():
                    rec.stamps[k] = v
            elif not rec.follow_up:
                rec.transcript = text if turn.audio is None else await self.transcribe(turn.audio)
                rec.stamps["asr_done"] = self.clock()
            if not rec.follow_up:
                self.emit(TranscriptFrame(rec.turn, rec.transcript, True))
                if not rec.transcript:
                    rec.error = "no speech recognised"
                    self.emit(ErrorFrame(rec.turn, rec.error))
                    return
            reset = bool(_RESET.match(_norm(rec.transcript)))
            if reset:
                self.reset()
                rec.reply = "Okay, let's start over."
                prepared = _Prepared(reply=rec.reply, pieces=[rec.reply])
            if prepared is not None and (prepared.reply or prepared.pieces or prepared.calls):
                await self._speak_prepared(turn, prepared)
            else:
                await self._stream_reply(turn)
            rec.spoken = rec.reply
            tools = tool_messages(rec.stats)
            question = None if rec.follow_up else rec.transcript
            if rec.calls:  # the client runs them: the turn ends with the calls, no answer yet
                for c in rec.calls:
                    f = c["function"]
                    self.emit(FunctionCallFrame(rec.turn, c["id"], f["name"], f["arguments"]))
                self._remember(turn, question, rec.reply, tools, rec.calls)
            elif not rec.reply.strip():  # never a silent turn: say that nothing came back
                rec.error = "the model gave an empty reply"
                self.emit(ErrorFrame(rec.turn, rec.error))
            elif not reset:
                self._remember(turn, question, rec.reply, tools)
        except LLMError as e:
            rec.error = str(e)
            self.emit(ErrorFrame(rec.turn, rec.error))
        except Exception as e:  # ASR or TTS failure: this turn fails, the conversation goes on
            rec.error = f"{type(e).__name__}: {e}"
            self.emit(ErrorFrame(rec.turn, rec.error))
        finally:
            if not rec.interrupted:  # an interrupted turn is published by _interrupt
                self._publish(turn)

    def _remember(
        self,
        turn: Turn,
        user: str | None,
        assistant: str,
        tools: list[dict] | None = None,
        calls: list[dict] | None = None,
    ) -> None:
        """Keep the exchange: the question (None: a follow-up has none), the built-in tools'
        calls and results, and the answer, or the client's function calls waiting for output."""
        turn.remembered = True
        self.conversation.remember(user, assistant, tools, calls)

    async def _play(self, turn: Turn, chunks: list, piece: str) -> None:
        rec = turn.record
        for c in chunks:
            audio = c.audio
            if c.sample_rate != self.sink.sample_rate:
                audio = resample(audio, c.sample_rate, self.sink.sample_rate)
            if rec.interrupted:
                return
            self.emit(TtsAudioFrame(rec.turn, audio, self.sink.sample_rate, piece))
            start, end = await self.sink.play(audio, rec.turn)
            self._add_reference(start, audio)
            rec.stamps.setdefault("first_audio_out", start)
            turn.heard.append((piece, start, end))

    async def _voice(self, turn: Turn, piece: str, chunks: list | None = None) -> None:
        """Say one piece of the reply: synthesise it (unless ``chunks`` are given) and play
        it. A text-only conversation (``speak`` off) synthesises nothing."""
        if not self.speak:
            return
        if chunks is None:
            chunks = await self._synth(piece)
        turn.record.stamps.setdefault("first_tts_audio", self.clock())
        await self._play(turn, chunks, piece)

    async def _speak_prepared(self, turn: Turn, p: _Prepared) -> None:
        rec = turn.record
        rec.reply, rec.stats, rec.calls = p.reply, dict(p.stats), list(p.calls)
        turn.shown = rec.reply
        if rec.reply:
            self.emit(ReplyTextFrame(rec.turn, rec.reply, False))
        self.emit(ReplyTextFrame(rec.turn, rec.reply, True))
        for i, piece in enumerate(p.pieces):
            await self._voice(turn, piece, p.first_audio if i == 0 and p.first_audio else None)

    async def _stream_reply(self, turn: Turn) -> None:
        rec = turn.record
        loop = asyncio.get_running_loop()
        deltas: asyncio.Queue[str | None] = asyncio.Queue()
        pieces: asyncio.Queue[str | None] = asyncio.Queue()
        rid = f"turn-{id(self)}-{rec.turn}"

        def on_text(t: str) -> None:
            loop.call_soon_threadsafe(deltas.put_nowait, t)

        question = None if rec.follow_up else rec.transcript  # a follow-up has none
        llm = asyncio.ensure_future(self._in_llm_thread(question, on_text, rid))
        llm.add_done_callback(lambda _: deltas.put_nowait(None))
        speaker = asyncio.create_task(self._speak_queue(turn, pieces))
        first_max = self.cfg.tts.first_chunk_chars
        try:
            pending, first = "", True
            while (d := await deltas.get()) is not None:
                rec.stamps.setdefault("first_text", self.clock())
                self.emit(ReplyTextFrame(rec.turn, d, False))
                turn.shown += d
                pending += d
                cut = None
                for m in _BOUNDARY.finditer(pending):
                    cut = m.end()
                if cut is not None:
                    for p in split_sentences(pending[:cut], first_max if first else 10**6):
                        pieces.put_nowait(p)
                    first, pending = False, pending[cut:]
            reply = await llm
            rec.stamps["reply_done"] = self.clock()
            rec.stamps.setdefault("first_text", rec.stamps["reply_done"])
            rec.reply, rec.stats, rec.calls = reply.text, dict(reply.stats), list(reply.calls)
            self.emit(ReplyTextFrame(rec.turn, rec.reply, True))
            for p in split_sentences(pending, first_max if first else 10**6):
                pieces.put_nowait(p)
            pieces.put_nowait(None)
            await speaker
        finally:
            if not llm.done():
                self.m.llm.cancel(rid)
                llm.cancel()
            speaker.cancel()

    async def _speak_queue(self, turn: Turn, pieces: asyncio.Queue) -> None:
        while (piece := await pieces.get()) is not None:
            await self._voice(turn, piece)

    # --- echo: what the speaker plays, on the microphone's stream clock --------------------
    def _suppress_echo(self) -> bool:
        """A live microphone next to the loudspeaker playing the reply (not a remote client's:
        the page asks the browser for its echo canceller, and the server does not know when
        a remote client really plays each chunk)."""
        return self.cfg.vad.echo_suppression and self.realtime and self.sink.plays_here

    def _add_reference(self, start: float, audio: np.ndarray) -> None:
        if not self._suppress_echo() or self._t0 is None:
            return
        a = resample(audio, self.sink.sample_rate, SAMPLE_RATE)
        self._played.append((round((start - self._t0) * SAMPLE_RATE), a))

    def _cut_reference(self, t: float) -> None:
        """Playback stopped at wall time ``t``: nothing after it is played."""
        if self._t0 is None:
            return
        cut = round((t - self._t0) * SAMPLE_RATE)
        self._played = [(o, a[: max(0, cut - o)]) for o, a in self._played if o < cut]

    def _reference(self, pos: int, n: int) -> np.ndarray:
        """The reference for microphone samples ``pos .. pos + n`` (zeros where nothing)."""
        ref = np.zeros(n, dtype=np.int16)
        self._played = [(o, a) for o, a in self._played if o + len(a) > pos]
        for o, a in self._played:
            lo, hi = max(pos, o), min(pos + n, o + len(a))
            if lo < hi:
                ref[lo - pos : hi - pos] = a[lo - o : hi - o]
        return ref

    async def _monitor_lag(self, interval: float = 0.01) -> None:
        """How late the event loop wakes up: stays far below 20 ms if nothing blocks it."""
        while True:
            t = self.clock()
            await asyncio.sleep(interval)
            self._lag_max = max(self._lag_max, self.clock() - t - interval)


def _synthesize_all(tts, text: str) -> list:
    return list(tts.synthesize_stream(text, 10**6))


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", text.lower()).split())


def _heard_text(heard: list[tuple[str, float, float]], now: float) -> str:
    """The words played before ``now``: whole pieces, then the played share of the next."""
    words: list[str] = []
    for piece, start, end in heard:
        if end <= now:
            words += piece.split()
        elif start < now:
            w = piece.split()
            words += w[: int(len(w) * (now - start) / max(end - start, 1e-6))]
            break
        else:
            break
    return " ".join(words)


async def wav_source(
    audio: np.ndarray, realtime: bool, chunk_ms: int = 20, tail_ms: int = 2000
) -> AsyncIterator[np.ndarray]:
    """Replay a recording as a microphone: ``chunk_ms`` pieces at real-time pace (or at once),
    then ``tail_ms`` of silence so the last turn ends like a live one."""
    n = SAMPLE_RATE * chunk_ms // 1000
    padded = np.concatenate([audio, np.zeros(SAMPLE_RATE * tail_ms // 1000, dtype=np.int16)])
    t0 = time.perf_counter()
    for i in range(0, len(padded), n):
        if realtime:
            delay = t0 + i / SAMPLE_RATE - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)
        yield padded[i : i + n]
