"""Typed frames that flow out of the voice pipeline.

Every frame a turn produces carries that turn's id, so a consumer drops stale output with one
integer comparison. Audio inside the pipeline is 16 kHz mono int16; reply audio stays at the
voice's native rate until a sink resamples it at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Frame:
    turn: int  # 0: not tied to a turn


@dataclass(frozen=True)
class SpeechStartedFrame(Frame):
    at_ms: float  # stream time of detection


@dataclass(frozen=True)
class SpeechStoppedFrame(Frame):
    at_ms: float  # stream time the end of turn was detected
    speech_end_ms: float  # stream time the speech itself ended
    forced: bool = False


@dataclass(frozen=True)
class TranscriptFrame(Frame):
    text: str
    final: bool = True  # False: a speculative transcript taken at a pause


@dataclass(frozen=True)
class ReplyTextFrame(Frame):
    text: str  # the new committed text (final=False) or the whole reply (final=True)
    final: bool = False


@dataclass(frozen=True)
class TtsAudioFrame(Frame):
    audio: np.ndarray = field(repr=False, compare=False)  # int16 mono
    sample_rate: int = 22050
    text: str = ""


@dataclass(frozen=True)
class InterruptionFrame(Frame):
    spoken: str = ""  # what the user heard before interrupting


@dataclass(frozen=True)
class TurnMetricsFrame(Frame):
    latency_ms: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ToolCallFrame(Frame):
    """A built-in tool the assistant used for this turn, with what it answered."""

    name: str = ""
    arguments: dict = field(default_factory=dict)
    result: str = ""
    ok: bool = True
    ms: float = 0.0


@dataclass(frozen=True)
class FunctionCallFrame(Frame):
    """The model called one of the client's own functions: the client runs it and sends its
    output back (``Pipeline.add_tool_output``); the turn ends without an answer."""

    call_id: str = ""
    name: str = ""
    arguments: str = "{}"  # JSON text, as OpenAI sends it


@dataclass(frozen=True)
class TimerFiredFrame(Frame):
    """A timer or reminder is due: the assistant speaks up unprompted (``text``), in its own
    turn; its audio follows as TtsAudioFrames of that turn."""

    text: str = ""
    label: str = ""
    reminder: bool = False
    seconds: int = 0


@dataclass(frozen=True)
class ErrorFrame(Frame):
    message: str = ""


@dataclass(frozen=True)
class EndFrame(Frame):
    pass
