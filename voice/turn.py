"""One turn: its record (what it heard and said, when each stage finished: the metrics that are
published) and the :class:`Turn` the pipeline holds while answering it (everything an
interruption has to touch)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import numpy as np

from voice.audio import SAMPLE_RATE

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
    # The answer's tool calls and results (``voice.tools.Answer.messages``): the history keeps
    # them; after a round of the client's functions they end with that round's call message.
    messages: list[dict] = field(default_factory=list)
    rid: str = ""  # its answer's request id (taken back: what the answer's tools did is undone)
    remembered: bool = False  # its exchange is in the history
    carry: np.ndarray | None = None  # speech taken back: it belongs to the next turn
    closed: bool = False  # its record has been published

    @property
    def id(self) -> int:
        return self.record.turn

    def answering(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def question(self) -> str | None:
        """What the reply answers: the transcript (None: a follow-up, which has none)."""
        return None if self.record.follow_up else self.record.transcript

    def cut_at(self, t: float, onset: float | None, speak: bool, takeback_s: float) -> None:
        """Its playback stopped at wall time ``t``: what was heard (without audio: read) is
        what it said. A false start (the user was still talking: nothing heard yet, or
        ``onset`` of the new speech within ``takeback_s`` of the first audio) takes the turn
        back whole: nothing said, its speech carried into the next turn."""
        rec = self.record
        first = rec.stamps.get("first_audio_out")
        rec.spoken = self.heard_text(t) if speak else " ".join(self.shown.split())
        early = onset is not None and first is not None and onset - first < takeback_s
        if self.audio is not None and (not rec.spoken or early):
            rec.taken_back, rec.spoken = True, ""
            self.carry = self.audio

    def heard_text(self, now: float) -> str:
        """The words played before ``now``: whole pieces, then the played share of the next."""
        words: list[str] = []
        for piece, start, end in self.heard:
            if end <= now:
                words += piece.split()
            elif start < now:
                w = piece.split()
                words += w[: int(len(w) * (now - start) / max(end - start, 1e-6))]
                break
            else:
                break
        return " ".join(words)


def with_carry(carry: np.ndarray | None, audio: np.ndarray, max_utterance_ms: int) -> np.ndarray:
    """``audio`` after the speech a false start carried over (with a short gap between)."""
    if carry is None:
        return audio
    # Carried speech is kept only up to the utterance limit: a user who talks on past
    # forced endpoints must not make every later turn transcribe everything said so far.
    room = max_utterance_ms * SAMPLE_RATE // 1000 - len(audio) - SAMPLE_RATE // 5
    if room <= 0:
        return audio
    gap = np.zeros(SAMPLE_RATE // 5, dtype=np.int16)
    return np.concatenate([carry[-room:], gap, audio])
