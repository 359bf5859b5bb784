"""voice.tts: Piper synthesis sentence by sentence, sentence splitting, bad voice paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.voice.voice_wavs import rms
from voice.tts import SpeechChunk, Synthesizer, VoiceLoadError, split_sentences

# Piper normalises each sentence to full scale, then applies volume 0.9: speech RMS is thousands.
RMS_FLOOR = 1000.0


def test_one_sentence_is_audible_at_native_rate(synthesizer: Synthesizer) -> None:
    assert synthesizer.sample_rate == 22050
    chunks = list(synthesizer.synthesize_stream("The capital of France is Paris."))
    assert len(chunks) == 1
    (chunk,) = chunks
    assert isinstance(chunk, SpeechChunk) and chunk.sample_rate == 22050
    assert chunk.audio.dtype == np.int16 and chunk.audio.ndim == 1
    assert 1.0 < chunk.duration_s < 4.0
    assert rms(chunk.audio) > RMS_FLOOR
    # volume=0.9 leaves headroom: the peak stays below full scale.
    assert np.max(np.abs(chunk.audio.astype(np.int32))) <= int(0.9 * 32767) + 1


def test_stream_yields_sentence_by_sentence(synthesizer: Synthesizer) -> None:
    text = "Well, seven times eight is fifty-six, which is eight sevens. Easy! Anything else?"
    chunks = list(synthesizer.synthesize_stream(text))
    assert [c.text for c in chunks] == [
        "Well, seven times eight is fifty-six,",
        "which is eight sevens.",
        "Easy!",
        "Anything else?",
    ]
    assert all(rms(c.audio) > RMS_FLOOR for c in chunks)
    whole = synthesizer.synthesize("Easy! Anything else?")
    assert whole.dtype == np.int16 and len(whole) > 0.8 * 22050


def test_empty_text_yields_nothing(synthesizer: Synthesizer) -> None:
    assert list(synthesizer.synthesize_stream("   ")) == []
    assert len(synthesizer.synthesize("... !")) == 0


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("The capital of France is Paris.", ["The capital of France is Paris."]),
        ("Hello there. How are you?  Fine!", ["Hello there.", "How are you?", "Fine!"]),
        ("no punctuation at all", ["no punctuation at all"]),
        (
            "Dr. Smith met Mr. Jones at 3.5 p.m. today.",
            ["Dr. Smith met Mr. Jones at 3.5 p.m. today."],
        ),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        (
            "Yes, seven times eight is fifty-six, which you can check. Right?",
            ["Yes, seven times eight is fifty-six,", "which you can check.", "Right?"],
        ),
        (
            "The answer to your question is simple: it is Paris, of course.",
            ["The answer to your question is simple:", "it is Paris, of course."],
        ),
        (
            "A very long first sentence without any comma in it at all. Short.",
            ["A very long first sentence without any comma in it at all.", "Short."],
        ),
        (
            "Long second sentences are not split. This one is long, but it is not first.",
            ["Long second sentences are not split.", "This one is long, but it is not first."],
        ),  # fmt: skip
        ("", []),
        ("?!", []),
    ],
)
def test_split_sentences(text: str, pieces: list[str]) -> None:
    assert split_sentences(text) == pieces


def test_split_first_max_chars() -> None:
    text = "Paris, the capital, is lovely."
    assert split_sentences(text) == [text]
    assert split_sentences(text, first_max_chars=10) == ["Paris, the capital,", "is lovely."]


# -- bad voices --------------------------------------------------------------------------


def _error(**kwargs: object) -> str:
    with pytest.raises(VoiceLoadError) as info:
        s = Synthesizer(**kwargs)  # type: ignore[arg-type]
        s.load()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_missing_voice(tmp_path: Path) -> None:
    assert "not found" in _error(voice=tmp_path / "nope.onnx")


def test_voice_is_a_directory(tmp_path: Path) -> None:
    assert "not a file" in _error(voice=tmp_path)


def test_missing_config(tmp_path: Path, synthesizer: Synthesizer) -> None:
    voice = tmp_path / "v.onnx"
    voice.symlink_to(synthesizer.voice_path)
    message = _error(voice=voice)
    assert "config not found" in message and "v.onnx.json" in message


@pytest.mark.parametrize(
    "config", ["{ not json", '{"audio": {}}', "[1, 2]"], ids=["bad-json", "no-rate", "list"]
)
def test_broken_config(tmp_path: Path, synthesizer: Synthesizer, config: str) -> None:
    voice = tmp_path / "v.onnx"
    voice.symlink_to(synthesizer.voice_path)
    Path(f"{voice}.json").write_text(config)
    assert "v.onnx.json" in _error(voice=voice)


def test_broken_model(tmp_path: Path, synthesizer: Synthesizer) -> None:
    voice = tmp_path / "v.onnx"
    voice.write_bytes(b"this is not an onnx model")
    shutil.copy(synthesizer.config_path, f"{voice}.json")
    message = _error(voice=voice)
    assert message.startswith("could not load Piper voice") and str(voice) in message


def test_explicit_voice_and_config_paths(synthesizer: Synthesizer, tmp_path: Path) -> None:
    config = tmp_path / "voice-config.json"
    shutil.copy(synthesizer.config_path, config)
    s = Synthesizer(synthesizer.voice_path, config)
    assert s.sample_rate == 22050 and s.config_path == config


# Run in a fresh process, so the resident size measures this voice's memory alone.
_MEMORY_SCRIPT = """
import ctypes, json, threading
from voice.tts import Synthesizer

def rss_mb():
    libc = ctypes.CDLL("libc.so.6")
    libc.malloc_trim(0)  # what glibc could give back is not what the voice keeps
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

s = Synthesizer(variation=False)
for text in ["The capital of France is Paris.", "Seven times eight is fifty-six."] * 2:
    s.synthesize(text)
usual = rss_mb()
long = ("I heard you say something about the weather and the capital of a country far away "
        "and the numbers that you asked for earlier in the conversation but I am not sure "
        "what you meant by all of that")
samples = []
threads = [threading.Thread(target=lambda: samples.append(len(s.synthesize(long))))
           for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
s.synthesize("The capital of France is Paris.")
print(json.dumps({"usual": usual, "after_long": rss_mb(), "samples": samples}))
"""


def test_a_long_sentence_does_not_keep_its_memory() -> None:
    """onnxruntime's arena kept the peak of every run: two ~400-phoneme sentences at once left
    the voice ~300 MB bigger for good (a server's memory, raised by one client's long reply)."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_SCRIPT], cwd=root, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(r["samples"]) == 2 and min(r["samples"]) > 8 * 22050, r  # each spoken whole
    assert r["after_long"] - r["usual"] < 80, r


def test_the_arena_shrinks_only_after_long_input() -> None:
    from voice.tts import ARENA_KEEP_IDS, _ArenaBound

    class Session:
        def __init__(self) -> None:
            self.options: list = []

        def run(self, names, feed, options=None):
            self.options.append(options)
            return ["audio"]

        def get_inputs(self):
            return ["input"]

    inner = Session()
    bound = _ArenaBound(inner)
    for n in (1, ARENA_KEEP_IDS, ARENA_KEEP_IDS + 1):
        assert bound.run(None, {"input": np.zeros((1, n), np.int64)}) == ["audio"]
    short, edge, long = inner.options
    assert short is None and edge is None
    assert long.get_run_config_entry("memory.enable_memory_arena_shrinkage") == "cpu:0"
    assert bound.get_inputs() == ["input"]  # everything else is the session's own
