"""voice.vad: turn detection on real Piper speech, silence and noise."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from voice.audio import SAMPLE_RATE, resample
from voice.vad import (
    SpeechEnded,
    SpeechPaused,
    SpeechResumed,
    SpeechStarted,
    TurnDetector,
    VadEvent,
    segment,
)

MS = SAMPLE_RATE // 1000
QUESTION = "What is the capital of France?"
SECOND = "Tell me a joke."
LONG = "Convert twenty degrees Celsius to Fahrenheit."


def silence(ms: int, rate: int = SAMPLE_RATE) -> np.ndarray:
    return np.zeros(ms * rate // 1000, dtype=np.int16)


def noise(ms: int, level: float = 300.0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(ms * MS) * level).astype(np.int16)


def speech_bounds(audio: np.ndarray) -> tuple[int, int]:
    """First and last sample of the loud part (10 ms windows above -30 dBFS)."""
    w = 10 * MS
    n = len(audio) // w
    win = audio[: n * w].astype(np.float64).reshape(n, w)
    loud = np.flatnonzero(np.sqrt((win**2).mean(axis=1)) > 1000)
    return int(loud[0] * w), int((loud[-1] + 1) * w)


@pytest.fixture(scope="module")
def words(speak: Callable[[str], np.ndarray]) -> Callable[[str], np.ndarray]:
    """Piper speech trimmed to its loud part, so tests place every silence exactly."""

    def _words(text: str) -> np.ndarray:
        audio = speak(text)
        on, off = speech_bounds(audio)
        return audio[on:off]

    return _words


def run(detector: TurnDetector, audio: np.ndarray, chunk: int = 320) -> list[VadEvent]:
    events: list[VadEvent] = []
    for i in range(0, len(audio), chunk):
        events += detector.feed(audio[i : i + chunk])
    return events + detector.flush()


def kinds(events: list[VadEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_silence_gives_no_events() -> None:
    assert run(TurnDetector(), silence(5000)) == []


def test_quiet_noise_gives_no_events() -> None:
    assert run(TurnDetector(), noise(5000, level=300)) == []


def test_one_utterance(words: Callable[[str], np.ndarray]) -> None:
    speech = words(QUESTION)
    onset, offset = 1000 * MS, 1000 * MS + len(speech)
    events = run(TurnDetector(), np.concatenate([silence(1000), speech, silence(1500)]))
    assert kinds(events) == ["SpeechStarted", "SpeechPaused", "SpeechEnded"]
    started, paused, ended = events
    assert isinstance(started, SpeechStarted) and isinstance(ended, SpeechEnded)
    assert isinstance(paused, SpeechPaused)
    # Start: at the onset give or take a frame, confirmed after 5 frames (150 ms) of speech.
    assert onset - 30 * MS <= started.start <= onset + 60 * MS
    assert started.at - started.start == 150 * MS
    # End: speech_end near the loud part's end (a soft final "s" may follow it); the pause
    # after 7 frames of silence, the end after 20.
    assert offset - 120 * MS <= ended.speech_end <= offset + 150 * MS
    assert paused.at - paused.speech_end == 210 * MS
    assert ended.at - ended.speech_end == 600 * MS and not ended.forced
    assert ended.at_ms == pytest.approx(ended.at / MS)
    # Audio: 300 ms pre-roll before the onset, 200 ms tail after the last speech.
    assert ended.audio_start == ended.start - 300 * MS
    assert len(ended.audio) == ended.speech_end + 200 * MS - ended.audio_start
    full = np.concatenate([silence(1000), speech])
    np.testing.assert_array_equal(
        ended.audio[: len(full) - ended.audio_start], full[ended.audio_start :]
    )
    # The audio at the pause is the final audio: an early transcript can be reused.
    np.testing.assert_array_equal(paused.audio, ended.audio)


def test_chunk_size_does_not_matter(words: Callable[[str], np.ndarray]) -> None:
    audio = np.concatenate([silence(500), words(QUESTION), silence(700)])

    def summary(chunk: int) -> list[tuple]:
        events = run(TurnDetector(), audio, chunk)
        return [(e, e.audio.tobytes() if hasattr(e, "audio") else b"") for e in events]

    reference = summary(len(audio))
    assert len(reference) == 3
    for chunk in (7, 160, 479, 1111):
        assert summary(chunk) == reference


def test_bytes_input(words: Callable[[str], np.ndarray]) -> None:
    audio = np.concatenate([silence(500), words(QUESTION), silence(700)])
    d = TurnDetector()
    events = d.feed(audio.tobytes()) + d.flush()
    assert kinds(events) == ["SpeechStarted", "SpeechPaused", "SpeechEnded"]


def test_short_gap_pauses_and_resumes(words: Callable[[str], np.ndarray]) -> None:
    first, second = words(QUESTION), words(SECOND)
    audio = np.concatenate([silence(500), first, silence(400), second, silence(1000)])
    events = run(TurnDetector(), audio)
    assert kinds(events) == [
        "SpeechStarted", "SpeechPaused", "SpeechResumed", "SpeechPaused", "SpeechEnded",
    ]  # fmt: skip
    paused, resumed, ended = events[1], events[2], events[-1]
    assert isinstance(resumed, SpeechResumed) and isinstance(ended, SpeechEnded)
    second_onset = 500 * MS + len(first) + 400 * MS
    assert second_onset - 30 * MS <= resumed.start <= second_onset + 60 * MS
    assert resumed.at - resumed.start == 90 * MS
    # One utterance holding both sentences; the pause's audio was only the first.
    assert ended.audio_start == events[0].start - 300 * MS
    assert ended.speech_end >= second_onset + len(second) - 120 * MS
    assert len(paused.audio) < len(ended.audio)


def test_long_gap_makes_two_turns(words: Callable[[str], np.ndarray]) -> None:
    first, second = words(QUESTION), words(SECOND)
    audio = np.concatenate([silence(500), first, silence(1500), second, silence(1000)])
    ended = [e for e in run(TurnDetector(), audio) if isinstance(e, SpeechEnded)]
    assert len(ended) == 2 and not any(e.forced for e in ended)
    # The second turn's pre-roll does not reach back into the first turn's audio.
    assert ended[1].audio_start >= ended[0].audio_start + len(ended[0].audio)
    assert ended[1].audio_start == ended[1].start - 300 * MS


def test_max_length_forces_an_endpoint(words: Callable[[str], np.ndarray]) -> None:
    speech = words(LONG)
    assert 2200 * MS < len(speech) < 2900 * MS
    audio = np.concatenate([silence(500), speech, silence(1000)])
    detector = TurnDetector(max_utterance_ms=1790)
    ended = [e for e in run(detector, audio) if isinstance(e, SpeechEnded)]
    assert ended[0].forced
    assert ended[0].at - ended[0].start == 1800 * MS  # rounded up to whole 30 ms frames
    assert ended[0].audio_start + len(ended[0].audio) == ended[0].at
    # The rest of the speech is the next turn, picked up without a gap or an overlap.
    assert len(ended) == 2 and not ended[1].forced
    assert ended[1].audio_start == ended[0].at


def test_flush_closes_an_open_turn(words: Callable[[str], np.ndarray]) -> None:
    d = TurnDetector()
    events = d.feed(np.concatenate([silence(500), words(QUESTION)]))
    assert kinds(events) == ["SpeechStarted"] and d.in_speech
    (ended,) = d.flush()
    assert isinstance(ended, SpeechEnded) and ended.forced
    assert not d.in_speech and d.position == 0


@pytest.mark.parametrize("frame_ms", [10, 20, 30])
@pytest.mark.parametrize("rate", [8000, 16000, 48000])
def test_frame_sizes_and_rates(
    words: Callable[[str], np.ndarray], rate: int, frame_ms: int
) -> None:
    audio = resample(np.concatenate([silence(800), words(QUESTION), silence(1000)]),
                     SAMPLE_RATE, rate)  # fmt: skip
    ended = segment(audio, rate, frame_ms=frame_ms)
    assert len(ended) == 1 and not ended[0].forced
    onset = 800 * rate // 1000
    assert abs(ended[0].start - onset) <= 60 * rate // 1000


def test_speech_in_noise(words: Callable[[str], np.ndarray]) -> None:
    speech = words(QUESTION)
    audio = noise(3500 + len(speech) // MS, level=300, seed=2)
    audio[1000 * MS : 1000 * MS + len(speech)] += speech // 2
    ended = segment(audio)
    assert len(ended) == 1 and not ended[0].forced
    assert abs(ended[0].start - 1000 * MS) <= 60 * MS


def test_reset_gives_a_fresh_stream(words: Callable[[str], np.ndarray]) -> None:
    audio = np.concatenate([noise(1000, level=3000), words(QUESTION), silence(1000)])
    d = TurnDetector()
    first = run(d, audio)  # run() ends with flush(), which resets
    assert run(d, audio) == first
    assert run(d, silence(2000)) == []


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sample_rate": 44100},
        {"frame_ms": 25},
        {"aggressiveness": 4},
        {"pause_ms": 600, "end_ms": 600},
        {"tail_ms": 300, "pause_ms": 200},
        {"min_speech_ms": 0},
        {"preroll_ms": -1},
    ],
    ids=lambda k: ",".join(k),
)
def test_bad_settings(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        TurnDetector(**kwargs)


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        TurnDetector().feed(np.zeros(480, dtype=np.float32))


def test_inaudibility_pauses_before_webrtcvad_hears_silence(words) -> None:
    speech = words(QUESTION)
    audio = np.concatenate([silence(500), speech, silence(1000)])
    plain = [e for e in run(TurnDetector(), audio) if isinstance(e, SpeechPaused)]
    quick = run(TurnDetector(quiet_ms=90), audio)
    assert kinds(quick) == ["SpeechStarted", "SpeechPaused", "SpeechEnded"]  # no false resume
    paused, ended = quick[1], quick[2]
    heard_end = 500 * MS + len(speech)
    assert abs(paused.audible_end - heard_end) <= 10 * MS
    assert ended.audible_end == paused.audible_end
    assert heard_end + 90 * MS <= paused.at <= heard_end + 120 * MS
    assert paused.at < plain[0].at - 100 * MS  # webrtcvad's hangover and pause_ms saved


def test_inaudible_gap_inside_a_sentence_resumes(words) -> None:
    first, second = words(QUESTION), words(SECOND)
    audio = np.concatenate([silence(500), first, silence(300), second, silence(1000)])
    events = run(TurnDetector(quiet_ms=90, end_ms=600), audio)
    assert kinds(events) == [
        "SpeechStarted", "SpeechPaused", "SpeechResumed", "SpeechPaused", "SpeechEnded",
    ]  # fmt: skip
    assert len([e for e in events if isinstance(e, SpeechEnded)][0].audio) > len(events[1].audio)


def test_end_now_ends_a_paused_turn(words) -> None:
    d = TurnDetector(quiet_ms=90, end_ms=1500)
    events = d.feed(np.concatenate([silence(500), words(QUESTION), silence(150)]))
    assert kinds(events) == ["SpeechStarted", "SpeechPaused"]
    (ended,) = d.end_now()
    assert isinstance(ended, SpeechEnded) and not ended.forced and not d.in_speech
    assert d.end_now() == []
    assert d.feed(silence(2000)) == []  # the turn is over: the silence ends nothing more
