"""Turn detection on a stream of 16-bit mono audio, with webrtcvad deciding frame by frame.

``TurnDetector`` takes chunks of any size, cuts them into 10/20/30 ms frames and turns the
per-frame speech/non-speech answers into events:

- ``SpeechStarted`` once ``min_speech_ms`` of consecutive speech frames are heard (webrtcvad
  calls the first 60-120 ms of noise speech, so a single frame is not enough);
- ``SpeechPaused`` after ``pause_ms`` of silence, or sooner after ``quiet_ms`` of inaudible
  audio (energy more than 35 dB under the utterance's loudest 10 ms; webrtcvad's own hangover
  is 80-120 ms), carrying the utterance so far, so a transcript can be started before the turn
  is over;
- ``SpeechResumed`` if ``resume_ms`` of speech follows a pause (the early transcript is stale);
- ``SpeechEnded`` after ``end_ms`` of silence, or forced after ``max_utterance_ms`` of speech,
  or when the caller decides the turn is over at a pause (``end_now``).

Short runs of speech frames (< ``resume_ms``) inside a silence count as silence, so noise blips
do not hold a turn open. The audio of an utterance runs from ``preroll_ms`` before the onset
(Whisper needs the word onset) to ``tail_ms`` after the last speech; ``tail_ms <= pause_ms``, so
when speech does not resume, ``SpeechEnded.audio`` equals the preceding ``SpeechPaused.audio``
and a transcript started at the pause can be used as is.

All times are sample offsets from the start of the stream; nothing here reads a clock, so tests
feed arrays and need no sleeping.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import webrtcvad

from voice.audio import SAMPLE_RATE

_VAD_RATES = (8000, 16000, 32000, 48000)
_FRAME_MS = (10, 20, 30)


@dataclass(frozen=True)
class VadEvent:
    """Base of all detector events."""

    at: int
    """Stream offset (samples) of the end of the frame that triggered the event."""
    sample_rate: int

    @property
    def at_ms(self) -> float:
        """``at`` in milliseconds from the start of the stream."""
        return self.at * 1000.0 / self.sample_rate


@dataclass(frozen=True)
class SpeechStarted(VadEvent):
    """Enough consecutive speech was heard: a turn has begun."""

    start: int
    """Offset of the first speech frame of the turn."""


@dataclass(frozen=True)
class SpeechPaused(VadEvent):
    """``pause_ms`` of silence inside a turn; the turn may or may not be over."""

    speech_end: int
    """Offset where the last speech ended."""
    audio_start: int
    """Offset of ``audio[0]`` (onset minus pre-roll)."""
    audio: np.ndarray = field(repr=False, compare=False)
    """The utterance so far, int16, exactly as ``SpeechEnded.audio`` would be if it ended now."""
    audible_end: int = 0
    """Offset where the speech stopped being audible (see :func:`audible_end`)."""


@dataclass(frozen=True)
class SpeechResumed(VadEvent):
    """Speech came back after a ``SpeechPaused``: the turn goes on."""

    start: int
    """Offset of the first frame of the resumed speech."""


@dataclass(frozen=True)
class SpeechEnded(VadEvent):
    """The turn is over; ``audio`` is the whole utterance."""

    start: int
    """Offset of the first speech frame of the turn."""
    speech_end: int
    """Offset where the last speech ended."""
    audio_start: int
    """Offset of ``audio[0]`` (onset minus pre-roll)."""
    audio: np.ndarray = field(repr=False, compare=False)
    """int16 mono: pre-roll + speech + up to ``tail_ms`` of the silence after it."""
    forced: bool
    """True when the turn was cut by ``max_utterance_ms`` or by ``flush()``, not by silence."""
    audible_end: int = 0
    """Offset where the speech stopped being audible (see :func:`audible_end`): the user's end
    of the turn, 80-120 ms before ``speech_end`` (webrtcvad's own hangover)."""


AUDIBLE_DB = 35.0  # a 10 ms frame within this many dB of the loudest one is audible
_AUDIBLE = 10.0 ** (-AUDIBLE_DB / 10.0)


def audible_end(audio: np.ndarray, sample_rate: int = SAMPLE_RATE, db: float = AUDIBLE_DB) -> int:
    """Samples up to the end of the last audible 10 ms frame of ``audio`` (0 if all silent).

    A frame is audible when its energy is within ``db`` dB of the loudest frame's: this is where
    a listener hears the speech stop, before the VAD's hangover and the end-of-turn silence.
    """
    n = sample_rate // 100
    k = len(audio) // n
    if k == 0:
        return 0
    x = np.asarray(audio[: k * n], dtype=np.float64).reshape(k, n)
    energy = (x * x).mean(axis=1)
    top = float(energy.max())
    if top <= 0.0:
        return 0
    loud = np.flatnonzero(energy >= top * 10.0 ** (-db / 10.0))
    return int(loud[-1] + 1) * n


def _frames(ms: int, frame_ms: int) -> int:
    return max(1, math.ceil(ms / frame_ms))


class TurnDetector:
    """Find turns in one audio stream. Make one per stream: webrtcvad keeps state."""

    def __init__(
        self,
        sample_rate: int = SAMPLE_RATE,
        *,
        frame_ms: int = 30,
        aggressiveness: int = 2,
        min_speech_ms: int = 150,
        resume_ms: int = 90,
        pause_ms: int = 200,
        end_ms: int = 600,
        max_utterance_ms: int = 20000,
        preroll_ms: int = 300,
        tail_ms: int = 200,
        quiet_ms: int = 0,
    ) -> None:
        """Set up a detector; times are rounded up to whole frames.

        ``aggressiveness`` is webrtcvad's mode, 0 (keeps most speech) to 3 (rejects most noise).
        ``quiet_ms`` (0: off) pauses on inaudibility before webrtcvad hears the silence.
        """
        if sample_rate not in _VAD_RATES:
            raise ValueError(f"webrtcvad needs a sample rate in {_VAD_RATES}, got {sample_rate}")
        if frame_ms not in _FRAME_MS:
            raise ValueError(f"frame_ms must be one of {_FRAME_MS}, got {frame_ms}")
        if not 0 <= aggressiveness <= 3:
            raise ValueError(f"aggressiveness must be 0..3, got {aggressiveness}")
        for name, value in (
            ("min_speech_ms", min_speech_ms),
            ("resume_ms", resume_ms),
            ("pause_ms", pause_ms),
            ("end_ms", end_ms),
            ("max_utterance_ms", max_utterance_ms),
        ):
            if value <= 0:
                raise ValueError(f"{name} must be positive, got {value}")
        if preroll_ms < 0 or tail_ms < 0 or quiet_ms < 0:
            raise ValueError("preroll_ms, tail_ms and quiet_ms must not be negative")
        if pause_ms >= end_ms:
            raise ValueError(f"pause_ms ({pause_ms}) must be shorter than end_ms ({end_ms})")
        if tail_ms > pause_ms:
            raise ValueError(f"tail_ms ({tail_ms}) must not exceed pause_ms ({pause_ms})")

        self.sample_rate = sample_rate
        self.frame_ms = frame_ms
        self.aggressiveness = aggressiveness
        self._frame = sample_rate * frame_ms // 1000
        self._start_frames = _frames(min_speech_ms, frame_ms)
        self._resume_frames = _frames(resume_ms, frame_ms)
        self._pause = _frames(pause_ms, frame_ms) * self._frame
        self._end = _frames(end_ms, frame_ms) * self._frame
        self._max = _frames(max_utterance_ms, frame_ms) * self._frame
        self._preroll = preroll_ms * sample_rate // 1000
        self._tail = tail_ms * sample_rate // 1000
        self._quiet = quiet_ms * sample_rate // 1000
        self._sub = sample_rate // 100  # 10 ms: the unit of audibility
        self.reset()

    def set_end_ms(self, end_ms: int) -> None:
        """Change the silence that ends a turn (the caller may end it sooner with ``end_now``)."""
        if end_ms * self.sample_rate // 1000 <= self._pause:
            raise ValueError(f"end_ms ({end_ms}) must be longer than the pause")
        self._end = _frames(end_ms, self.frame_ms) * self._frame

    def end_now(self) -> list[VadEvent]:
        """End the open turn at its pause (the caller knows it is over); [] if not paused."""
        if not (self._in_speech and self._paused):
            return []
        return [self._ended(min(self._speech_end + self._tail, self._pos), False)]

    def reset(self) -> None:
        """Forget everything and start a new stream at offset 0 (with a fresh webrtcvad)."""
        self._vad = webrtcvad.Vad(self.aggressiveness)
        self._pending = np.zeros(0, dtype=np.int16)
        self._pos = 0  # offset of the end of the last frame analysed
        self._buf = bytearray()  # int16 bytes of the stream from _buf_start to _pos
        self._buf_start = 0
        self._floor = 0  # pre-roll never reaches back before this (end of the last utterance)
        self._run_start = 0  # first frame of the current run of speech frames
        self._run_len = 0
        self._in_speech = False
        self._paused = False
        self._start = 0
        self._audio_start = 0
        self._speech_end = 0
        self._peak = 0.0  # loudest 10 ms energy of the current utterance
        self._last_loud = 0  # end of its last audible 10 ms
        self._paused_at = 0

    @property
    def in_speech(self) -> bool:
        """True between ``SpeechStarted`` and ``SpeechEnded``."""
        return self._in_speech

    @property
    def position(self) -> int:
        """Samples analysed so far (a partial frame waiting for more audio is not counted)."""
        return self._pos

    def feed(self, chunk: np.ndarray | bytes) -> list[VadEvent]:
        """Add audio (int16 mono array, or its little-endian bytes); return the new events."""
        if isinstance(chunk, bytes | bytearray | memoryview):
            chunk = np.frombuffer(chunk, dtype="<i2")
        if chunk.ndim != 1 or chunk.dtype != np.int16:
            raise ValueError(f"expected 1-D int16 audio, got {chunk.dtype} {chunk.shape}")
        audio = np.concatenate([self._pending, chunk]) if len(self._pending) else chunk
        n = len(audio) // self._frame
        events: list[VadEvent] = []
        for i in range(n):
            self._step(audio[i * self._frame : (i + 1) * self._frame], events)
        self._pending = audio[n * self._frame :].copy()
        return events

    def flush(self) -> list[VadEvent]:
        """End of stream: close an open turn (``forced=True``) and reset the detector."""
        events: list[VadEvent] = []
        if self._in_speech:
            events.append(self._ended(min(self._speech_end + self._tail, self._pos), True))
        self.reset()
        return events

    # -- internals -----------------------------------------------------------------------

    def _step(self, frame: np.ndarray, events: list[VadEvent]) -> None:
        raw = frame.astype("<i2", copy=False).tobytes()
        is_speech = self._vad.is_speech(raw, self.sample_rate)
        start = self._pos
        self._pos = end = start + len(frame)
        self._buf += raw
        if is_speech:
            if self._run_len == 0:
                self._run_start = start
            self._run_len += 1
        else:
            self._run_len = 0
        if self._quiet:
            x = frame.astype(np.float64).reshape(-1, self._sub)
            energy = (x * x).mean(axis=1)
            self._peak = max(self._peak, float(energy.max()))
            loud = np.flatnonzero(energy >= self._peak * _AUDIBLE)
            if len(loud):
                self._last_loud = start + int(loud[-1] + 1) * self._sub

        if not self._in_speech:
            if self._run_len >= self._start_frames:
                self._in_speech = True
                self._paused = False
                self._peak, self._last_loud = 0.0, end
                if self._quiet:
                    run = self._slice(self._run_start, end).astype(np.float64)
                    self._peak = float((run * run).mean())
                self._start = self._run_start
                self._audio_start = max(self._floor, self._run_start - self._preroll)
                self._speech_end = end
                events.append(SpeechStarted(end, self.sample_rate, self._run_start))
            else:
                self._trim_idle()
            return

        # After a pause on inaudibility webrtcvad may still call frames speech (its hangover):
        # only speech that is audible again resumes the turn.
        heard = not (self._quiet and self._paused) or self._last_loud > self._paused_at
        if self._run_len >= self._resume_frames and heard:
            if self._paused:
                self._paused = False
                events.append(SpeechResumed(end, self.sample_rate, self._run_start))
            self._speech_end = end
        silence = end - self._speech_end
        inaudible = self._quiet and end - self._last_loud >= self._quiet
        if (silence >= self._pause or inaudible) and not self._paused:
            self._paused, self._paused_at = True, end
            audio = self._slice(self._audio_start, self._speech_end + self._tail)
            events.append(
                SpeechPaused(
                    end, self.sample_rate, self._speech_end, self._audio_start, audio,
                    self._audible_end(audio),
                )
            )
        if silence >= self._end:
            events.append(self._ended(self._speech_end + self._tail, False))
        elif end - self._start >= self._max:
            events.append(self._ended(end, True))
            self._run_len = 0  # the next turn needs its own run of speech to start

    def _audible_end(self, audio: np.ndarray) -> int:
        # Never later than the VAD's end: in steady noise every frame may count as audible.
        return min(self._audio_start + audible_end(audio, self.sample_rate), self._speech_end)

    def _ended(self, audio_end: int, forced: bool) -> SpeechEnded:
        audio = self._slice(self._audio_start, audio_end)
        event = SpeechEnded(
            self._pos,
            self.sample_rate,
            self._start,
            self._speech_end,
            self._audio_start,
            audio,
            forced,
            self._audible_end(audio),
        )
        self._in_speech = False
        self._paused = False
        self._floor = audio_end
        self._trim_idle()
        return event

    def _slice(self, begin: int, end: int) -> np.ndarray:
        a = (begin - self._buf_start) * 2
        b = (end - self._buf_start) * 2
        return np.frombuffer(bytes(self._buf[a:b]), dtype="<i2").astype(np.int16)

    def _trim_idle(self) -> None:
        """Between turns keep only what a pre-roll could need."""
        keep_from = (self._run_start if self._run_len else self._pos) - self._preroll
        keep_from = max(keep_from, self._floor)
        if keep_from > self._buf_start:
            del self._buf[: (keep_from - self._buf_start) * 2]
            self._buf_start = keep_from


def segment(
    audio: np.ndarray, sample_rate: int = SAMPLE_RATE, **detector_args: int
) -> list[SpeechEnded]:
    """Split a whole int16 mono recording into utterances with a fresh ``TurnDetector``.

    ``detector_args`` are ``TurnDetector``'s keyword arguments. A turn still open at the end of
    the audio is closed with ``forced=True``.
    """
    detector = TurnDetector(sample_rate, **detector_args)
    events: Iterable[VadEvent] = [*detector.feed(audio), *detector.flush()]
    return [e for e in events if isinstance(e, SpeechEnded)]
