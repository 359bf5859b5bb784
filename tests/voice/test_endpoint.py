"""voice.endpoint: is the user finished? Judged on real Whisper transcripts of Piper speech,
whole and cut where a speaker might pause in the middle of a sentence."""

from __future__ import annotations

import numpy as np
import pytest

from voice.audio import SAMPLE_RATE
from voice.endpoint import is_complete, is_preface
from voice.vad import audible_end

# (the whole question, where a speaker might stop for breath)
QUESTIONS = [
    ("What is the capital of Australia?", "What is the capital of"),
    ("Convert twenty degrees Celsius to Fahrenheit.", "Convert twenty degrees Celsius to"),
    ("Convert twenty degrees Celsius to Fahrenheit.", "Convert twenty degrees"),
    ("How many miles is ten kilometers?", "How many miles is"),
    ("What day comes after Friday?", "What day comes after"),
    ("Tell me a joke about the moon.", "Tell me a joke about the"),
    ("What is seven times eight?", "What is seven times"),
]


@pytest.fixture(scope="module")
def said(speak, transcriber):
    """Text → what Whisper heard of its Piper speech (trailing silence as a pause leaves it)."""

    def _said(text: str) -> str:
        audio = speak(text)
        audio = np.concatenate([audio[: audible_end(audio)], np.zeros(SAMPLE_RATE // 5, np.int16)])
        return transcriber.transcribe(audio)

    return _said


@pytest.mark.parametrize("whole,part", QUESTIONS, ids=[q[1] for q in QUESTIONS])
def test_whole_questions_are_complete_and_cut_ones_are_not(said, whole, part) -> None:
    heard_whole, heard_part = said(whole), said(part)
    assert is_complete(heard_whole), heard_whole
    assert not is_complete(heard_part), heard_part


@pytest.mark.parametrize(
    "text,complete",
    [
        ("", False),
        ("What is the capital of...", False),
        ("Convert twenty degrees,", False),
        ("Um", False),
        ("What is it?", True),
        ("Who are you?", True),
        ("Yes.", True),
        ("Thanks", True),
        ("Tell me a joke.", True),
        ("What's the weather like in", False),
        ("What is the capital?", False),  # Whisper's punctuation of "What is the capital … of"
        ("What is the population?", False),
        ("What is your name?", True),
        ("Convert 20 degrees.", False),  # a conversion says where to
        ("Convert 5 miles into kilometers.", True),
        ("Turn it up.", True),
    ],
)
def test_text_rules(text: str, complete: bool) -> None:
    assert is_complete(text) is complete


@pytest.mark.parametrize(
    "text,preface",
    [
        ("Hello there.", True),
        ("Okay.", True),
        ("Hello?", True),  # Whisper's punctuation of a greeting
        ("Well, yes.", True),
        ("Who are you?", False),
        ("Stop.", False),
        ("Tell me a joke.", False),
        ("Spell cat.", False),
        ("Thanks for the help today.", False),  # more than a preface
    ],
)
def test_prefaces(text: str, preface: bool) -> None:
    assert is_preface(text) is preface


def test_audible_end_is_found_in_the_audio(speak) -> None:
    speech = speak("What is the capital of France?")
    end = audible_end(speech)
    padded = np.concatenate([np.zeros(8000, np.int16), speech, np.zeros(16000, np.int16)])
    assert audible_end(padded) == 8000 + end
    # The last audible frame is within 35 dB of the loudest; everything after it is below.
    tail = speech[end:].astype(np.float64)
    assert end <= len(speech) and (len(tail) == 0 or np.abs(tail).max() < 0.05 * 32768)
    assert audible_end(np.zeros(SAMPLE_RATE, np.int16)) == 0
