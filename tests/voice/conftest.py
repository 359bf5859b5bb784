"""Shared fixtures for the voice tests: the real Whisper and Piper models, loaded once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from voice.asr import Transcriber
from voice.audio import SAMPLE_RATE, resample
from voice.tts import Synthesizer


@pytest.fixture(scope="session")
def synthesizer() -> Synthesizer:
    """The default Piper voice (en_US-joe-medium), loaded."""
    s = Synthesizer(variation=False)  # the same text always gives the same audio
    s.load()
    return s


@pytest.fixture(scope="session")
def transcriber() -> Transcriber:
    """The default Whisper model (tiny.en), loaded."""
    t = Transcriber(device="cpu")
    t.load()
    return t


@pytest.fixture(scope="session")
def speak(synthesizer: Synthesizer) -> Callable[[str], np.ndarray]:
    """Text → Piper speech as 16 kHz mono int16 (no sampling noise: the same every run)."""
    cache: dict[str, np.ndarray] = {}

    def _speak(text: str) -> np.ndarray:
        if text not in cache:
            cache[text] = resample(
                synthesizer.synthesize(text), synthesizer.sample_rate, SAMPLE_RATE
            )
        return cache[text]

    return _speak
