"""Input the assistant must survive: ten minutes of speech without a pause (forced endpoints that
stay bounded), only silence, loud noise and clipping, audio faster than real time, and the API
refusing to listen beyond the loopback without a token. Real VAD, Whisper and Piper throughout;
long streams are fed as fast as the detector takes them, not in real time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from serve.outbox import AudioRateLimiter
from tests.engine.tiny import make_checkpoint
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig, load_config
from voice.frames import InterruptionFrame, SpeechStoppedFrame, TurnMetricsFrame
from voice.models import Models
from voice.pipeline import Pipeline
from voice.sink import WavSink
from voice.vad import SpeechEnded, SpeechStarted, TurnDetector, VadEvent

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = (
    "The quick brown fox jumps over the lazy dog and keeps on running across the wide green "
    "field without ever stopping"
)


def silence(s: float) -> np.ndarray:
    return np.zeros(int(SAMPLE_RATE * s), dtype=np.int16)


@pytest.fixture(scope="module")
def talking(speak: Callable[[str], np.ndarray]) -> Callable[[float], np.ndarray]:
    """``talking(seconds)``: one sentence, its silent ends trimmed, looped with no gap."""
    sp = speak(SENTENCE)
    loud = np.nonzero(np.abs(sp.astype(np.int32)) > 500)[0]
    sp = sp[loud[0] : loud[-1] + 1]

    def make(seconds: float) -> np.ndarray:
        n = int(seconds * SAMPLE_RATE)
        return np.tile(sp, -(-n // len(sp)))[:n]

    return make


def detect(audio: np.ndarray, chunk: int = SAMPLE_RATE, **kw: int) -> tuple[list[VadEvent], int]:
    """Every event of a fresh detector fed ``audio`` in chunks, and its largest buffer (bytes)."""
    d = TurnDetector(SAMPLE_RATE, **kw)
    events: list[VadEvent] = []
    most = 0
    for i in range(0, len(audio), chunk):
        events += d.feed(audio[i : i + chunk])
        most = max(most, len(d._buf))
    return events + d.flush(), most


# --- turn detection on long, silent, noisy and clipped input ----------------------------------
def test_ten_minutes_of_speech_is_cut_at_max_utterance(talking) -> None:
    events, most = detect(talking(600.0), max_utterance_ms=20000)
    ends = [e for e in events if isinstance(e, SpeechEnded)]
    assert len(ends) == 30 and all(e.forced for e in ends)
    bound = (20000 + 300 + 30) * SAMPLE_RATE // 1000  # the cut + pre-roll + one frame
    assert max(len(e.audio) for e in ends) <= bound
    assert most <= 2 * bound  # the detector's buffer does not grow with the stream
    starts = [e for e in events if isinstance(e, SpeechStarted)]
    assert len(starts) == len(ends)  # every cut turn is followed by a new one, none lost


def test_only_silence_makes_no_turn() -> None:
    rng = np.random.default_rng(0)
    hiss = rng.normal(0, 30, 60 * SAMPLE_RATE).astype(np.int16)  # a quiet room
    for audio in (silence(120.0), hiss):
        events, most = detect(audio)
        assert events == []
        assert most <= SAMPLE_RATE * 2  # only a pre-roll is kept between turns


@pytest.mark.parametrize("kind", ["white-noise", "full-scale-square", "clipped-speech"])
def test_loud_noise_and_clipping_give_bounded_turns(kind: str, talking) -> None:
    rng = np.random.default_rng(1)
    n = 60 * SAMPLE_RATE
    if kind == "white-noise":
        loud = rng.integers(-32768, 32767, n, dtype=np.int16, endpoint=True)
    elif kind == "full-scale-square":
        loud = np.where((np.arange(n) // 20) % 2, 32767, -32768).astype(np.int16)
    else:  # speech amplified 30x: almost every sample sits at the rails
        loud = np.clip(talking(60.0).astype(np.int32) * 30, -32768, 32767).astype(np.int16)
    audio = np.concatenate([silence(1.0), loud, silence(2.0)])
    events, _ = detect(audio, chunk=480, max_utterance_ms=10000)
    ends = [e for e in events if isinstance(e, SpeechEnded)]
    assert max((len(e.audio) for e in ends), default=0) <= (10000 + 330) * SAMPLE_RATE // 1000
    starts = [e for e in events if isinstance(e, SpeechStarted)]
    assert len(starts) == len(ends)  # whatever was taken for speech ended as a turn


# --- forced endpoints through the pipeline ----------------------------------------------------
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("m") / "sdar"
    make_checkpoint(d, "sdar")
    return str(d)


def config(model: str, *extra: str) -> AppConfig:
    return load_config(None, [f"engine.model={model}", "sampling.max_new_tokens=8", *extra])


@pytest.fixture(scope="module")
def models(tiny_model: str):
    m = Models(config(tiny_model))
    yield m
    m.close()


def test_continuous_speech_forced_turns_stay_bounded(models, tiny_model, talking, monkeypatch):
    """Speech that never pauses is cut every ``max_utterance_ms``; each cut turn ends in an
    answer or an interruption, and what Whisper is given never grows past the cut — a turn cut
    while the user goes on talking is not carried, whole, into every later turn."""
    cfg = config(tiny_model, "vad.max_utterance_ms=2000", "assistant.speculative=false")
    heard: list[int] = []
    real = models.asr.transcribe

    def recording(audio: np.ndarray) -> str:  # the real Whisper, with the input's length noted
        heard.append(len(audio))
        return real(audio)

    monkeypatch.setattr(models.asr, "transcribe", recording)
    frames = []
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate), on_frame=frames.append)

    async def scenario() -> set:
        pipe.start(realtime=True)
        audio = np.concatenate([silence(0.5), talking(11.0), silence(1.0)])
        # Half a second at a time, never yielding in between: a cut, the speech that goes on
        # and the barge-in it causes can all come in one burst.
        for i in range(0, len(audio), SAMPLE_RATE // 2):
            await pipe.feed(audio[i : i + SAMPLE_RATE // 2])
        await pipe.finish()
        await pipe.close()
        await asyncio.sleep(0)
        return {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}

    assert asyncio.run(scenario()) == set()
    stops = [f for f in frames if isinstance(f, SpeechStoppedFrame)]
    assert len(stops) >= 5 and all(f.forced for f in stops[:-1])
    for f in stops:  # no turn vanishes without an outcome
        assert any(
            isinstance(g, TurnMetricsFrame | InterruptionFrame) and g.turn == f.turn for g in frames
        ), f.turn
    assert heard and max(heard) <= (2000 + 300 + 30) * SAMPLE_RATE // 1000
    carry = pipe._turn.carry if pipe._turn is not None else None
    assert carry is None or len(carry) <= 2330 * SAMPLE_RATE // 1000


# --- audio faster than real time ------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_rate_limiter_allows_real_time_plus_a_burst() -> None:
    clock = FakeClock()
    lim = AudioRateLimiter(SAMPLE_RATE, burst_s=2.0, clock=clock)
    frame = SAMPLE_RATE // 50  # 20 ms
    # A burst of 2 s arriving at once is taken; the next frame is not.
    assert all(lim.admit(frame) for _ in range(100))
    assert not lim.admit(frame) and lim.dropped == frame
    assert lim.notice() and not lim.notice()  # the first drop is reported, once
    # After a pause, real time: every frame fits, forever.
    clock.t += 1.0
    for _ in range(5000):
        clock.t += 0.02
        assert lim.admit(frame)
    # Twice real time: about half is dropped, and reported at most once per 2 s.
    notices = 0
    admitted = 0
    for _ in range(1000):  # 10 s of wall time, 20 s of audio
        clock.t += 0.01
        if lim.admit(frame):
            admitted += 1
        elif lim.notice():
            notices += 1
    assert 500 <= admitted <= 500 + 100 + 1  # real time, plus at most the burst
    assert 1 <= notices <= 5
    # An idle client regains the whole burst, no more.
    clock.t += 3600
    assert sum(lim.admit(frame) for _ in range(200)) == 100
    clock.t += 3600
    assert not lim.admit(3 * SAMPLE_RATE)  # a frame longer than the burst never fits


def test_rate_limiter_rejects_a_bad_burst() -> None:
    with pytest.raises(ValueError):
        AudioRateLimiter(SAMPLE_RATE, burst_s=0)


# --- the API refuses to listen beyond the loopback without a token ------------------------
def test_api_refuses_non_loopback_without_token() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for var in ("DIFFVOICE_TOKEN", "DIFFVOICE_DEBUG"):
        env.pop(var, None)
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "api",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--set",
            "engine.model=/no/such/model",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert "without an access token" in lines[0] and "--token" in lines[0]
    assert "DIFFVOICE_TOKEN" in lines[0]
