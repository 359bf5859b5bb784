"""The microphone side of one conversation: the echo gate, the VAD's turn detector and the
stream clock that puts its sample offsets on the wall clock (where the user's speech began and
ended, as the user heard it). Transcript-aware endpointing (``vad.endpoint`` model or smart,
real time, with speculation) lets a finished transcript end the turn; silence then ends only
an unfinished one, after ``vad.incomplete_ms``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from voice import turn_model
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig
from voice.echo import EchoPath
from voice.turn import TurnRecord
from voice.vad import SpeechEnded, SpeechStarted, TurnDetector, VadEvent


class Listener:
    """Audio in, speech events out; ``plays_here``: the reply plays on a loudspeaker next to
    this microphone (its echo is suppressed)."""

    def __init__(self, cfg: AppConfig, plays_here: bool, clock: Callable[[], float]) -> None:
        self.cfg, self.clock = cfg, clock
        v = cfg.vad
        self.detector = TurnDetector(SAMPLE_RATE, **v.detector_args())
        self.echo = EchoPath(SAMPLE_RATE, v.echo_suppression and plays_here, v.echo_margin_db)
        self.realtime = True
        self.t0: float | None = None  # wall time of stream offset 0
        self.smart = False  # transcript-aware endpointing

    def start(self, realtime: bool) -> None:
        """Begin a stream now (stream offset 0 = this moment)."""
        self.realtime, self.t0 = realtime, self.clock()
        self.echo.start(self.t0, realtime)
        v = self.cfg.vad
        smart = v.endpoint in ("model", "smart")
        self.smart = realtime and self.cfg.assistant.speculative and smart
        if self.smart and v.endpoint == "model":
            turn_model.load(v.turn_model)  # once per process, before the first pause needs it
            if v.prosody:
                turn_model.load_prosody(v.turn_model)
        # Smart endpointing ends a complete turn itself; silence only ends an incomplete one.
        self.detector.set_end_ms(v.incomplete_ms if self.smart else v.end_ms)

    def hear(self, chunk: np.ndarray) -> list[VadEvent]:
        """Int16 16 kHz mono audio from the user: the speech events it completes."""
        return self.detector.feed(self.echo.process(chunk))

    def onset(self, ev: SpeechStarted) -> float | None:
        """When the new speech began, on the wall clock (the stream may have had gaps); None
        for a replay faster than real time."""
        return self.clock() - (ev.at - ev.start) / SAMPLE_RATE if self.realtime else None

    def place(self, rec: TurnRecord, ev: SpeechEnded, detected: float) -> None:
        """Stamp the end of the turn's speech (``detected`` at wall time ``detected``)."""
        if self.realtime:
            assert self.t0 is not None
            rec.stamps["speech_end"] = self.t0 + ev.speech_end / SAMPLE_RATE
            rec.stamps["audible_end"] = self.t0 + ev.audible_end / SAMPLE_RATE
        else:  # replayed faster than real time: place the ends as a live stream would have
            rec.stamps["speech_end"] = detected - (ev.at - ev.speech_end) / SAMPLE_RATE
            rec.stamps["audible_end"] = detected - (ev.at - ev.audible_end) / SAMPLE_RATE
        rec.stamps["turn_detected"] = detected
