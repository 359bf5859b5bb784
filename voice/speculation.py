"""Speculative start: at a pause (90 ms inaudible, or webrtcvad's silence) the turn is prepared
ahead — transcript, whole reply, first sentence's audio — while the user may still go on.
Speech that resumes cancels it; a turn that ends at that very pause takes it, and what is left
of its work becomes urgent (the user now waits for it). The pause's transcript, once known,
lets the pipeline decide that the turn is over (``voice.endpoint``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import numpy as np

from voice.answering import Answerer
from voice.asr import Heard
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig
from voice.conversation import asks_reset
from voice.endpoint import quiet_needed
from voice.speaking import Speaker
from voice.tts import split_sentences
from voice.vad import SpeechEnded, SpeechPaused
from words import prosody


@dataclass
class Prepared:
    """A turn's reply worked out ahead (speculatively), or a fixed one."""

    transcript: str = ""
    reply: str = ""
    stats: dict = field(default_factory=dict)
    first_audio: list = field(default_factory=list)  # SpeechChunks of the first piece
    pieces: list[str] = field(default_factory=list)
    calls: list[dict] = field(default_factory=list)  # calls of the client's functions
    messages: list[dict] = field(default_factory=list)  # the answer's tool calls and results
    stamps: dict[str, float] = field(default_factory=dict)
    rid: str = ""  # the answer's request id (a reply taken back undoes its tools' work)
    frames: list = field(default_factory=list)  # its tool frames, sent once it is used


@dataclass
class Speculation:
    """Work started at a pause of the utterance still being spoken."""

    paused: SpeechPaused
    rid: str = ""  # its answer's request id
    task: asyncio.Task | None = None
    transcript: str | None = None  # known once its ASR is done
    quiet_ms: float | None = None  # the quiet that ends the turn here (once the transcript is)
    voice: np.ndarray | None = None  # pitch and loudness before the pause (words.prosody)
    ending: float | None = None  # Whisper's P(the sentence ended there) (voice.asr.Heard)
    # The turn ended at this pause: the user now waits for what is left of this work, so its
    # later jobs (the first sentence's audio) are urgent, not speculative.
    wanted: bool = False


class Speculator:
    """One conversation's speculation: at most one at a time (the newest pause's)."""

    def __init__(
        self,
        hear: Callable[..., Awaitable[Heard]],
        answers: Answerer,
        speaker: Speaker,
        jobs,
        cfg: AppConfig,
        clock: Callable[[], float],
    ) -> None:
        self.hear, self.answers, self.speaker = hear, answers, speaker
        self.jobs, self.cfg, self.clock = jobs, cfg, clock
        self.current: Speculation | None = None
        self.started = 0
        self.cancelled = 0
        self.used = 0

    def worth(self, paused: SpeechPaused) -> bool:
        """Whether to prepare at this pause: not with speculation off, nor for an utterance
        too long for Whisper's short window (it would cost twice as much, the 30 s window, at
        every pause, and a question is rarely that long)."""
        short = len(paused.audio) <= (self.cfg.asr.window_s - 1) * SAMPLE_RATE
        return self.cfg.assistant.speculative and short

    def pause(self, paused: SpeechPaused, audio: np.ndarray, turn: int) -> None:
        """Start preparing the utterance so far (``audio``) as turn ``turn``."""
        self.cancel()
        self.started += 1
        spec = Speculation(paused, self.answers.request_id("spec", self.started))
        if self.cfg.vad.endpoint == "model" and self.cfg.vad.prosody:
            spec.voice = prosody.features(audio)
        spec.task = asyncio.create_task(self._prepare(audio, spec, turn), name="spec")
        self.current = spec

    def resumed(self) -> None:
        """Speech came back: the work of the pause is stale."""
        if self.current is not None:
            self.cancelled += 1
            self.cancel()

    def take(self, ended: SpeechEnded) -> asyncio.Task | None:
        """The turn ended: the work of its last pause if the turn ended there (the user now
        waits for it), else None (that work is cancelled)."""
        s, self.current = self.current, None
        if s is None:
            return None
        if s.paused.speech_end == ended.speech_end and not ended.forced:
            s.wanted = True
            return s.task
        self.cancelled += 1
        self._drop(s)
        return None

    def ends_turn(self, position: int) -> bool:
        """Transcript-aware endpoint: the user has been quiet, at stream offset ``position``,
        for as long as the pause's transcript asks (``voice.endpoint.quiet_needed``: short when
        the end-of-turn model is sure the user has finished, up to a cap when not). Judged once
        per pause, when its transcript arrives, not at every chunk."""
        s = self.current
        if s is None or s.transcript is None:
            return False
        if s.quiet_ms is None:
            s.quiet_ms = quiet_needed(s.transcript, self.cfg.vad, s.voice, s.ending)
        return (position - s.paused.audible_end) * 1000 / SAMPLE_RATE >= s.quiet_ms

    async def result(self, task: asyncio.Task) -> Prepared | None:
        """What ``task`` (from :meth:`take`) prepared, or None if it failed."""
        self.jobs.promote()  # the user now waits for what was speculative
        try:
            prepared = await task
        except Exception:
            return None
        self.used += 1
        return prepared

    def cancel(self) -> None:
        if self.current is not None:
            self._drop(self.current)
            self.current = None

    def _drop(self, s: Speculation) -> None:
        """Give up ``s`` without a trace: its work stops, and what its answer's tools did (a
        timer set, one cancelled) is undone; nobody heard it."""
        if s.task is not None:
            s.task.cancel()
        self.answers.drop(s.rid)

    async def _prepare(self, audio: np.ndarray, spec: Speculation, turn: int) -> Prepared:
        """Speculative work at a pause: transcript, whole reply, first sentence's audio."""
        p = Prepared()
        heard = await self.hear(audio, speculative=not spec.wanted)
        p.transcript = heard.text
        p.stamps["asr_done"] = self.clock()
        spec.ending = heard.ending
        spec.transcript = p.transcript  # the endpoint decision can use it now
        if not p.transcript or asks_reset(p.transcript):
            return p
        rid = p.rid = spec.rid
        first: list[float] = []

        def on_text(_t: str) -> None:
            if not first:
                first.append(self.clock())

        call = self.answers.start(p.transcript, on_text, rid, turn, held=p.frames)
        try:
            reply = await call
        except asyncio.CancelledError:
            self.answers.drop(rid)
            raise
        p.stamps["reply_done"] = self.clock()
        p.stamps["first_text"] = first[0] if first else p.stamps["reply_done"]
        p.reply, p.stats, p.calls = reply.text, reply.stats, reply.calls
        p.messages = reply.messages
        p.pieces = split_sentences(p.reply, self.speaker.first_chunk_chars)
        if p.pieces and self.speaker.speak:
            p.first_audio = await self.speaker.synth(p.pieces[0], speculative=not spec.wanted)
            p.stamps["first_tts_audio"] = self.clock()
        return p
