"""One conversation cannot take the CPU from the others (voice/scheduler.py, voice/asr.py): a
user who pauses every 200 ms gets a bounded amount of speculative recognition, and an utterance
that Whisper cannot recognise within its time limit fails its turn instead of holding a worker.
Real VAD, Whisper, Piper and the bundled demo model."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import voice.asr
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig, load_config
from voice.frames import ErrorFrame, SpeechStoppedFrame
from voice.models import Models
from voice.pipeline import Pipeline
from voice.scheduler import SPECULATIVE_BURST_S
from voice.sink import WavSink

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "The quick brown fox jumps over the lazy dog and keeps on running across the field"


def config(*extra: str) -> AppConfig:
    return load_config(None, [f"engine.model={ROOT / 'models' / 'demo'}", *extra])


@pytest.fixture(scope="module")
def models():
    m = Models(config())
    yield m
    m.close()


def silence(s: float) -> np.ndarray:
    return np.zeros(int(SAMPLE_RATE * s), dtype=np.int16)


def burst_pause(speak: Callable[[str], np.ndarray], seconds: float) -> np.ndarray:
    """Speech in 300 ms bursts with 200 ms pauses: every pause starts speculative work."""
    sp = speak(SENTENCE)
    loud = np.nonzero(np.abs(sp.astype(np.int32)) > 500)[0]
    sp = sp[loud[0] : loud[-1] + 1]
    burst, pause = int(0.3 * SAMPLE_RATE), silence(0.2)
    parts = []
    for i in range(int(seconds / 0.5)):
        start = (i * burst) % (len(sp) - burst)
        parts += [sp[start : start + burst], pause]
    return np.concatenate(parts)


SLOW_CALL_S = 0.4


def test_pausing_every_200ms_gets_bounded_speculation(models, speak, monkeypatch) -> None:
    share = 0.1
    # Silence endpointing: the bursts are one long utterance whatever their transcript says.
    cfg = config(
        f"scheduler.speculative_share={share}", "vad.max_utterance_ms=60000", "vad.endpoint=silence"
    )
    models.scheduler.speculative_share = share
    calls: list[float] = []
    real = models.asr.transcribe

    def counted(audio: np.ndarray, stop=None) -> str:
        # Each recognition takes at least SLOW_CALL_S of worker time, as on a slow machine, so
        # the budget (not the machine's speed) is what bounds the number of calls: on a fast
        # machine, 0.1 s calls fit the 1.8 s budget ten times over.
        t0 = time.monotonic()
        calls.append(len(audio) / SAMPLE_RATE)
        text = real(audio)
        time.sleep(max(0.0, SLOW_CALL_S - (time.monotonic() - t0)))
        return text

    monkeypatch.setattr(models.asr, "transcribe", counted)
    frames = []
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate), on_frame=frames.append)
    audio = np.concatenate([silence(0.3), burst_pause(speak, 8.0)])
    frame = SAMPLE_RATE // 50

    async def stream() -> float:
        pipe.start(realtime=True)
        t0 = time.monotonic()
        for i in range(0, len(audio), frame):  # 20 ms frames at real-time pace
            delay = t0 + i / SAMPLE_RATE - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await pipe.feed(audio[i : i + frame])
        elapsed = time.monotonic() - t0
        await pipe.close()
        return elapsed

    try:
        elapsed = asyncio.run(stream())
    finally:
        models.scheduler.speculative_share = config().scheduler.speculative_share
    lane = pipe.jobs
    pauses = pipe.speculation.started
    assert pauses >= 6  # the VAD saw the pauses, and each one asked for speculative work
    assert not any(isinstance(f, SpeechStoppedFrame) for f in frames)  # one long utterance
    # Speculative worker time stays within the budget (one job may overrun it), whatever the
    # machine's speed; so Whisper ran for far fewer pauses than there were.
    longest = max(calls) if calls else 0.0
    assert lane.speculative_s <= SPECULATIVE_BURST_S + share * elapsed + 3.0 + longest
    assert len(calls) <= pauses // 2
    assert lane.jobs_run + lane.jobs_dropped <= pauses * 2


def test_recognition_past_its_time_limit_fails_the_turn(models, speak, monkeypatch) -> None:
    """A turn Whisper takes too long on ends in ``turn_failed``; the next turn works."""
    monkeypatch.setattr(voice.asr, "MIN_LIMIT_S", 0.0)
    cfg = config("assistant.speculative=false")
    frames = []
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate), on_frame=frames.append)
    question = np.concatenate([silence(0.3), speak("What is the capital of France?"), silence(1)])

    async def scenario() -> None:
        pipe.start(realtime=False)
        models.asr.max_rtf = 0.001  # a 2 s question may take 2 ms
        await pipe.feed(question)
        models.asr.max_rtf = 100.0  # generous: the test machine may be busy
        await pipe.feed(question)
        await pipe.finish()
        await pipe.close()

    real_rtf = models.asr.max_rtf
    try:
        asyncio.run(scenario())
    finally:
        models.asr.max_rtf = real_rtf
    first, second = pipe.records[0], pipe.records[-1]
    errors = [f for f in frames if isinstance(f, ErrorFrame)]
    assert [e.turn for e in errors] == [first.turn], [e.message for e in errors]
    assert "speech recognition took" in errors[0].message
    assert second.transcript and not second.error


def test_no_speculation_past_whispers_short_window(models, speak) -> None:
    """Pauses in an utterance longer than ``asr.window_s`` - 1 s start no speculative work."""
    cfg = config("asr.window_s=3", "vad.max_utterance_ms=60000", "vad.endpoint=silence")
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate), on_frame=lambda f: None)
    audio = np.concatenate([silence(0.3), burst_pause(speak, 5.0)])
    frame = SAMPLE_RATE // 50

    async def stream() -> None:
        pipe.start(realtime=True)
        t0 = time.monotonic()
        for i in range(0, len(audio), frame):
            delay = t0 + i / SAMPLE_RATE - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await pipe.feed(audio[i : i + frame])
        await pipe.close()

    asyncio.run(stream())
    # Pauses every 0.5 s, but only those in the first 2 s of the utterance speculate.
    assert 1 <= pipe.speculation.started <= 5


def test_a_long_tone_is_not_sent_to_whisper(models, speak, monkeypatch) -> None:
    """webrtcvad hears a steady tone as speech; Silero does not, so Whisper never sees it. A
    long utterance with speech in it is still recognised."""
    t = np.arange(6 * SAMPLE_RATE) / SAMPLE_RATE
    tone = np.where(np.sin(2 * np.pi * 440 * t + 0.1) >= 0, 32767, -32767).astype(np.int16)
    seen: list[float] = []
    real = models.asr._transcribe_window

    def spy(samples):
        seen.append(len(samples) / SAMPLE_RATE)
        return real(samples)

    monkeypatch.setattr(models.asr, "_transcribe_window", spy)
    monkeypatch.setattr(models.asr, "_transcribe_full", lambda s, *a: seen.append(0) or "")
    assert models.asr.transcribe(tone) == "" and seen == []
    long_question = np.concatenate([silence(2.5), speak("What is the capital of France?")])
    assert len(long_question) / SAMPLE_RATE >= voice.asr.SPEECH_CHECK_S
    assert "France" in models.asr.transcribe(long_question) and len(seen) == 1
