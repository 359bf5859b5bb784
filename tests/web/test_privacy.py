"""Nothing the user says, and nothing said back, is written to disk unless asked for.

``diffvoice serve`` and ``diffvoice api`` keep audio and text in memory only (``run --output``
and ``profile --out`` write files because the user named them). While a spoken turn, a typed
turn and an API chat completion are served, an audit hook records every file this process opens
for writing, creates, renames or deletes, in any thread; the working directory (a fresh empty
one) must also stay empty, which covers writes from native code too.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from pathlib import Path

import numpy as np

from tests.web.conftest import heard, tiny_config
from tests.web.test_faults import BurstServer, send_audio
from tests.web.test_websocket import open_client
from voice.audio import SAMPLE_RATE, resample
from voice.models import Models

_WRITE = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_EVENTS = ("os.rename", "os.replace", "os.remove", "os.unlink", "os.mkdir", "os.truncate")
_recording: list[list[str]] = []  # the active recorder, if any (a hook cannot be removed)


def _hook(event: str, args: tuple) -> None:
    if not _recording:
        return
    if event == "open":
        path, _mode, flags = args
        if isinstance(path, int) or not isinstance(flags, int) or not flags & _WRITE:
            return
        name = os.fsdecode(path)
        if not name.startswith(("/dev/", "/proc/")):
            _recording[0].append(f"open {name}")
    elif event in _EVENTS or event.startswith(("tempfile.", "shutil.")):
        _recording[0].append(f"{event} {args[0]!r}")


sys.addaudithook(_hook)


def test_serving_turns_writes_nothing(tiny_models: Models, tiny_model, tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    tts = tiny_models.tts
    question = "What is the capital of France?"
    speech = resample(tts.synthesize(question), tts.sample_rate, SAMPLE_RATE)
    quiet = np.zeros(SAMPLE_RATE, dtype=np.int16)
    cfg = tiny_config(tiny_model, "assistant.speculative=false")
    writes: list[str] = []
    _recording.append(writes)
    (tmp_path / "probe.txt").write_text("x")  # the hook sees writes (from any thread)
    assert writes == [f"open {tmp_path / 'probe.txt'}"]
    writes.clear()
    try:
        with BurstServer(tiny_models, cfg, burst_s=60.0) as s, open_client(s.ws_url) as c:
            send_audio(c, np.concatenate([quiet, speech, quiet]))
            assert heard(c.next_of("transcript.final")["text"], question)
            c.next_of("turn.metrics")
            c.send("text.input", text="and what about germany")
            c.next_of("reply.audio.end")
            c.next_of("turn.metrics")
            # The same server's OpenAI-compatible API
            body = {"messages": [{"role": "user", "content": "hello there"}]}
            req = urllib.request.Request(
                f"{s.api_url}/chat/completions",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(req, timeout=60) as resp:
                assert json.loads(resp.read())["choices"][0]["message"]["role"] == "assistant"
    finally:
        _recording.clear()
    assert writes == []
    assert list(Path(cwd).rglob("*")) == []
