"""The ``diffvoice`` command line, run as a user would: a real subprocess, real models."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from tests.engine.tiny import make_checkpoint
from voice.audio import SAMPLE_RATE, read_wav, write_wav

ROOT = Path(__file__).resolve().parents[2]


def diffvoice(*args: str, stdin: str | None = None, env: dict | None = None, timeout: float = 300):
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    e.pop("DIFFVOICE_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=e,
    )


def assert_one_line_error(p: subprocess.CompletedProcess, needle: str) -> None:
    assert p.returncode != 0, p.stdout
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("diffvoice: error")]
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr
    assert needle.lower() in lines[0].lower(), lines[0]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("m") / "sdar"
    make_checkpoint(d, "sdar")
    return str(d)


@pytest.fixture(scope="module")
def question_wav(tmp_path_factory, speak_module) -> Path:
    path = tmp_path_factory.mktemp("w") / "q.wav"
    z = np.zeros(SAMPLE_RATE // 2, dtype=np.int16)
    write_wav(
        path, np.concatenate([z, speak_module("What is the capital of France?"), z, z]), SAMPLE_RATE
    )
    return path


@pytest.fixture(scope="module")
def speak_module():
    from voice.audio import resample
    from voice.tts import Synthesizer

    s = Synthesizer(variation=False)  # a question is the same audio in every run
    return lambda text: resample(s.synthesize(text), s.sample_rate, SAMPLE_RATE)


def test_run_file_round_trip_json(tmp_path, tiny_model, question_wav) -> None:
    out = tmp_path / "reply.wav"
    p = diffvoice(
        "run",
        "--input",
        str(question_wav),
        "--output",
        str(out),
        "--json",
        "--fast",
        "--set",
        f"engine.model={tiny_model}",
    )
    assert p.returncode == 0, p.stderr
    turns = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert len(turns) == 1
    t = turns[0]
    words = "".join(c for c in t["transcript"].lower() if c.isalpha() or c == " ").split()
    assert words == "what is the capital of france".split()
    assert {"turn_detected", "asr_done", "reply_done"} <= set(t["latency_ms"])
    with wave.open(str(out)) as w:
        assert w.getnchannels() == 1 and w.getframerate() > 0
    if t["reply"]:
        audio = read_wav(out)
        assert np.sqrt(np.mean(audio.astype(np.float64) ** 2)) > 300  # audible speech


def test_run_without_device_or_input_names_the_fix() -> None:
    p = diffvoice("run")
    assert_one_line_error(p, "--input")


@pytest.mark.parametrize("case", ["missing", "not_wav", "truncated", "empty", "silence"])
def test_run_bad_input_files(tmp_path, tiny_model, case) -> None:
    f = tmp_path / "in.wav"
    if case == "not_wav":
        f.write_text("this is not audio")
    elif case == "truncated":
        write_wav(f, (np.random.default_rng(0).normal(0, 3000, 16000)).astype(np.int16), 16000)
        f.write_bytes(f.read_bytes()[:30])
    elif case == "empty":
        write_wav(f, np.zeros(0, dtype=np.int16), 16000)
    elif case == "silence":
        write_wav(f, np.zeros(16000 * 2, dtype=np.int16), 16000)
    p = diffvoice(
        "run",
        "--input",
        str(f),
        "--output",
        str(tmp_path / "o.wav"),
        "--fast",
        "--set",
        f"engine.model={tiny_model}",
    )
    needle = {
        "missing": "no such file",
        "not_wav": "not a wav",
        "truncated": "wav",
        "empty": "no audio",
        "silence": "no speech detected",
    }[case]
    assert_one_line_error(p, needle)


@pytest.mark.parametrize(
    "override, needle",
    [
        ("engine.model=/nonexistent/model", "does not exist"),
        ("asr.model=/nonexistent/whisper", "whisper"),
        ("tts.voice=/nonexistent/voice.onnx", "voice"),
        ("sampling.threshold=7", "threshold"),
        ("engine.modle=x", "engine.modle"),
    ],
)
def test_run_bad_config_or_model_paths(question_wav, override, needle, tmp_path) -> None:
    p = diffvoice(
        "run",
        "--input",
        str(question_wav),
        "--output",
        str(tmp_path / "o.wav"),
        "--fast",
        "--set",
        override,
    )
    assert_one_line_error(p, needle)


def test_chat_reads_lines_and_reports_stats(tiny_model) -> None:
    p = diffvoice(
        "chat",
        "--json",
        "--set",
        f"engine.model={tiny_model}",
        "--set",
        "sampling.max_new_tokens=8",
        stdin="hello\nwhat is the capital of france?\n",
    )
    assert p.returncode == 0, p.stderr
    rows = [json.loads(ln) for ln in p.stdout.splitlines()]
    assert len(rows) == 2
    for r in rows:
        assert {"reply", "nfe", "tokens", "tokens_per_forward"} <= set(r)
        assert r["nfe"] >= 1


def test_chat_plain_one_reply_per_line(tiny_model) -> None:
    p = diffvoice(
        "chat",
        "--set",
        f"engine.model={tiny_model}",
        "--set",
        "sampling.max_new_tokens=8",
        stdin="hello\n\nhi\n",
    )
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == 2


def test_corrupt_model_weights_are_one_line(tmp_path, tiny_model) -> None:
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(tiny_model, bad)
    (bad / "model.safetensors").write_bytes(b"\x00garbage" * 10)
    p = diffvoice("chat", "--set", f"engine.model={bad}", stdin="hello\n")
    assert_one_line_error(p, "safetensors")


def test_run_bundled_question_with_bundled_defaults(tmp_path) -> None:
    """What `make demo` does: the bundled question through the bundled models."""
    out = tmp_path / "reply.wav"
    p = diffvoice("run", "--input", str(ROOT / "voice/assets/question.wav"), "--output", str(out),
                  "--json", "--fast")
    assert p.returncode == 0, p.stderr
    turn = json.loads(p.stdout.splitlines()[-1])
    assert "capital of france" in turn["transcript"].lower()
    assert "paris" in turn["reply"].lower()
    audio = read_wav(out)
    assert len(audio) > SAMPLE_RATE // 2
    assert np.sqrt(np.mean(audio.astype(np.float64) ** 2)) > 300


# --- how errors are reported -------------------------------------------------------------------
def _user_errors() -> list[type[Exception]]:
    """Every error class whose message is written for the person running diffvoice."""
    from engine import ModelLoadError, RequestError
    from engine.errors import ConfigError, UserError
    from serve.access import ServerError
    from voice import asr, tts
    from voice.audio import AudioError
    from voice.devices import AudioDeviceError
    from voice.llm import LLMError
    from voice.remote_speech import RemoteSpeechError

    return [UserError, ConfigError, ModelLoadError, RequestError, asr.ModelLoadError,
            tts.VoiceLoadError, ServerError, AudioError, AudioDeviceError, LLMError,
            RemoteSpeechError]  # fmt: skip


def _reported(monkeypatch, capsys, error: Exception) -> str:
    """The one line ``diffvoice chat`` prints when it fails with ``error``."""
    from cli import main as cli

    def fail(args) -> int:
        raise error

    monkeypatch.delenv("DIFFVOICE_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_chat", fail)
    assert cli.main(["chat"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("cls", _user_errors(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_user_errors_are_their_message_alone(monkeypatch, capsys, cls) -> None:
    from engine.errors import UserError

    assert issubclass(cls, UserError)
    line = _reported(monkeypatch, capsys, cls("the model folder /x does not exist\nmore"))
    assert line == "diffvoice: error: the model folder /x does not exist"


class ConfigError(Exception):  # the name of a user-facing error, but not one: a bug
    pass


@pytest.mark.parametrize(
    "error", [RuntimeError("boom"), KeyError("k"), ValueError("bad"), ConfigError("named alike")]
)
def test_other_errors_are_bugs_named_with_the_way_to_see_more(monkeypatch, capsys, error) -> None:
    line = _reported(monkeypatch, capsys, error)
    assert line.startswith(f"diffvoice: error: {type(error).__name__}: ")
    assert line.endswith("(set DIFFVOICE_DEBUG=1 for details)")
