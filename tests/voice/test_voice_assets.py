"""The bundled example recordings: format, silences, and that VAD + Whisper understand them."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pytest

from voice.asr import Transcriber, normalize_text
from voice.audio import SAMPLE_RATE, read_wav
from voice.vad import segment

ASSETS = Path(__file__).resolve().parents[2] / "voice" / "assets"
PROMPTS = json.loads((ASSETS / "prompts" / "prompts.json").read_text(encoding="utf-8"))
RECORDINGS = {"question.wav": "What is the capital of France?"} | {
    f"prompts/{name}": text for name, text in PROMPTS.items()
}


def test_prompt_listing_matches_the_files() -> None:
    assert len(PROMPTS) >= 10
    on_disk = {p.name for p in (ASSETS / "prompts").glob("*.wav")}
    assert on_disk == set(PROMPTS)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_format_and_silences(name: str) -> None:
    with wave.open(str(ASSETS / name)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, SAMPLE_RATE)
    audio = read_wav(ASSETS / name)
    loud = np.flatnonzero(np.abs(audio.astype(np.int32)) > 300)
    lead, trail = loud[0] / SAMPLE_RATE, (len(audio) - loud[-1]) / SAMPLE_RATE
    assert 0.45 <= lead <= 0.6 and 0.95 <= trail <= 1.1
    assert len(audio) / SAMPLE_RATE < 6.0


@pytest.mark.slow
def test_vad_and_whisper_understand_every_recording(transcriber: Transcriber) -> None:
    """Each file is one turn at the default 600 ms end-of-turn, and transcribes to its text."""
    heard = {}
    for name in sorted(RECORDINGS):
        turns = segment(read_wav(ASSETS / name))
        assert len(turns) == 1 and not turns[0].forced, name
        heard[name] = normalize_text(transcriber.transcribe(turns[0].audio))
    assert heard == {name: normalize_text(text) for name, text in sorted(RECORDINGS.items())}
