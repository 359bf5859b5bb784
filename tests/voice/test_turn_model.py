"""voice.turn_model and voice.endpoint.quiet_needed: the learned end-of-turn decision.

The model must tell a finished question from the same question cut where a speaker pauses —
from the words, since Whisper writes "What is seven?" for "What is seven … times six?" — and
the wait it buys must outlast the pause in the middle of a question while staying short after
a whole one. The four pause cases are issue 25's, that the rules got wrong."""

from __future__ import annotations

import logging
import math
import time

import numpy as np
import pytest

from voice import turn_model
from voice.audio import SAMPLE_RATE
from voice.config import load_config
from voice.endpoint import quiet_needed
from voice.vad import audible_end

VAD = load_config(None, []).vad

# (first half, as Whisper writes it at the pause; the whole question; the pause in ms)
PAUSES = [
    ("How many planets.", "How many planets are in the solar system?", 600),
    ("What is seven?", "What is 7 times 6?", 700),
    ("Which planet?", "Which planet is the largest?", 450),
    ("Tell me, um,", "Tell me, um, what is the capital of Spain?", 650),
]
FINISHED = [
    "What is the capital of Germany?",
    "How many legs does a spider have?",
    "Set a timer for 10 minutes.",
    "What can you do?",
    "Turn off the lights in the kitchen.",
    "Yes, please.",
    "Thank you.",
]
UNFINISHED = [  # ending on "of", "times", "and", "um"
    "What is the capital of",
    "What is the population of...",
    "What is 12 times",
    "What is 12 times?",
    "I need eggs, milk and",
    "I need eggs, milk and.",
    "Tell me, um",
    "So, um.",
]


def test_the_bundled_model_loads_once() -> None:
    weights = turn_model.load()
    assert weights is not None and turn_model.load() is weights  # cached, not re-read
    keys = weights["keys"]
    assert np.all(keys[1:] > keys[:-1]) and len(keys) == len(weights["emb"])
    assert (turn_model.BUNDLED / "turn.npz").stat().st_size < 2_000_000


@pytest.mark.parametrize("text", FINISHED)
def test_finished_turns_are_likely_finished(text: str) -> None:
    assert turn_model.probability(text) > 0.8


# Words that end a question as often as they go on ("... in Tokyo?", "... in the solar
# system?"): the model is calibrated, so neither sure nor dismissive, and the wait is middling.
AMBIGUOUS = ["What time is it?", "Which planet is the largest?"]


@pytest.mark.parametrize("text", AMBIGUOUS)
def test_words_that_often_go_on_are_neither(text: str) -> None:
    assert 0.2 < turn_model.probability(text) < 0.9
    assert VAD.complete_ms < quiet_needed(text, VAD) < VAD.incomplete_ms


@pytest.mark.parametrize("text", UNFINISHED)
def test_prefixes_on_a_dangling_word_are_not(text: str) -> None:
    assert turn_model.probability(text) < 0.2


@pytest.mark.parametrize("half,whole,pause_ms", PAUSES, ids=[p[0] for p in PAUSES])
def test_the_wait_outlasts_a_pause_in_the_middle_and_not_after_the_end(half, whole, pause_ms):
    # the pause, plus the ~60 ms it takes to hear speech resume
    assert quiet_needed(half, VAD) >= pause_ms + 100, turn_model.probability(half)
    # after the whole question: shorter, and at most the wait of an even chance
    after = quiet_needed(whole, VAD)
    assert after < quiet_needed(half, VAD) and after <= VAD.model_half_ms + 100, after


def test_the_wait_falls_with_the_probability_within_its_bounds() -> None:
    waits = [turn_model.wait_ms(p, VAD) for p in np.linspace(0, 1, 101)]
    assert all(a >= b for a, b in zip(waits, waits[1:], strict=False))
    assert waits[0] == VAD.incomplete_ms and waits[-1] == VAD.complete_ms
    assert turn_model.wait_ms(0.5, VAD) == VAD.model_half_ms


@pytest.mark.parametrize(
    "setting,message",
    [
        ("vad.endpoint=learned", "model, smart or silence"),
        ("vad.model_half_ms=2000", "model_half_ms"),
        ("vad.model_scale_ms=0", "model_scale_ms"),
    ],
)
def test_the_model_endpoint_is_the_default_and_its_settings_are_checked(setting, message):
    assert VAD.endpoint == "model"
    with pytest.raises(ValueError, match=message):
        load_config(None, [setting])


def test_a_greeting_is_held_for_the_preface_time_and_punctuation_alone_decides_nothing() -> None:
    # "Hello there, … can you hear me?": finished words, but people go on after them.
    assert turn_model.probability("Hello there.") > 0.8
    assert quiet_needed("Hello there.", VAD) == VAD.preface_ms
    assert quiet_needed("", VAD) == math.inf  # nothing heard: silence decides
    # Whisper's "." or "..." for a lone filler or a breath is not a sentence that ended
    assert turn_model.probability(".") > 0.5  # the model alone reads the full stop
    for heard in (".", " ... ", "?", "-"):
        assert quiet_needed(heard, VAD) == math.inf


def test_missing_model_files_fall_back_to_the_rules(tmp_path, caplog) -> None:
    vad = load_config(None, [f'vad.turn_model="{tmp_path}"']).vad
    with caplog.at_level(logging.WARNING, logger="voice.turn_model"):
        assert turn_model.load(str(tmp_path)) is None
    assert "endpoint rules" in caplog.text
    assert quiet_needed("What is the capital of France?", vad) == vad.complete_ms
    assert quiet_needed("What is the capital of", vad) == math.inf
    rules = load_config(None, ["vad.endpoint=smart"]).vad
    assert quiet_needed("What is seven?", rules) == rules.complete_ms  # the rules' blind spot


def test_a_decision_costs_well_under_ten_milliseconds() -> None:
    texts = [t for pair in PAUSES for t in pair[:2]] + FINISHED + UNFINISHED
    quiet_needed(texts[0], VAD)
    n = 50 * len(texts)
    t = time.perf_counter()
    for i in range(n):
        quiet_needed(texts[i % len(texts)], VAD)
    ms = (time.perf_counter() - t) * 1000 / n
    assert ms < 10, ms  # measured ~0.05 ms on 2 loaded cores


@pytest.fixture(scope="module")
def said(speak, transcriber):
    """Text → what Whisper heard of its Piper speech, with the 200 ms of quiet a pause's
    transcript gets."""

    def _said(text: str) -> str:
        audio = speak(text)
        audio = np.concatenate([audio[: audible_end(audio)], np.zeros(SAMPLE_RATE // 5, np.int16)])
        return transcriber.transcribe(audio)

    return _said


SPOKEN = [  # issue 25's pause cases, said in two parts by Piper and heard by Whisper
    ("How many planets", "How many planets are in the solar system?"),
    ("What is seven", "What is seven times six?"),
    ("Which planet", "Which planet is the largest?"),
    ("Tell me, um,", "Tell me, um, what is the capital of Spain?"),
]


@pytest.mark.parametrize("half,whole", SPOKEN, ids=[s[0] for s in SPOKEN])
def test_real_transcripts_of_the_pause_cases(said, half, whole) -> None:
    heard_half, heard_whole = said(half), said(whole)
    wait_half, wait_whole = quiet_needed(heard_half, VAD), quiet_needed(heard_whole, VAD)
    assert wait_half >= 800, heard_half
    # Whisper mishears some ("What a seven times six."): then the model is less sure, but the
    # whole question still ends well before the cap
    assert wait_whole < min(wait_half, 900), heard_whole
