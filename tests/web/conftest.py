"""Shared fixtures for the browser-client tests: one Models for the whole module set, a server
running in a background thread, and spoken WAVs made with Piper at test time."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from serve.server import VoiceServer
from tests.engine.tiny import make_checkpoint
from voice.asr import normalize_text, word_errors
from voice.audio import SAMPLE_RATE, resample, write_wav
from voice.config import AppConfig, load_config
from voice.models import Models

ROOT = Path(__file__).resolve().parents[2]
DEMO_MODEL = ROOT / "models" / "demo"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # git-ignored


def tiny_config(model: Path, *extra: str) -> AppConfig:
    return load_config(None, [f"engine.model={model}", "sampling.max_new_tokens=16", *extra])


# A compact template that renders tools by name, calls and results itself (as the demo model's
# does), so that a conversation with tools fits the tiny model's 512-token context.
TOOL_TEMPLATE = (
    "{% if tools %}<|system|>{% for t in tools %}{{ t['function']['name'] }} {% endfor %}"
    "{% endif %}{% for m in messages %}<|{{ 'user' if m['role'] == 'tool' else m['role'] }}|>"
    "{{ m['content'] }}{% if m['role'] == 'assistant' %}"
    "{% for c in m['tool_calls'] or [] %}<tool_call>{{ {'name': c['function']['name'], "
    "'arguments': c['function']['arguments']} | tojson }}</tool_call>{% endfor %}"
    "<|endoftext|>{% endif %}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def tool_checkpoint(folder: Path) -> Path:
    """A tiny random byte-level LLaDA checkpoint with :data:`TOOL_TEMPLATE`: it can write any
    text, so grammar-forced tool calls come out whole (the word-level one cannot spell them)."""
    from tests.engine.test_grammar import _checkpoint

    _checkpoint(folder, "llada")
    conf = json.loads((folder / "tokenizer_config.json").read_text())
    conf["chat_template"] = TOOL_TEMPLATE
    (folder / "tokenizer_config.json").write_text(json.dumps(conf))
    return folder


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    """A random SDAR checkpoint: gibberish replies, fine for the protocol."""
    d = tmp_path_factory.mktemp("web-model") / "sdar"
    make_checkpoint(d, "sdar")
    return d


@pytest.fixture(scope="session")
def tiny_cfg(tiny_model: Path) -> AppConfig:
    return tiny_config(tiny_model)


@pytest.fixture(scope="session")
def tiny_models(tiny_cfg: AppConfig) -> Iterator[Models]:
    """Whisper, Piper and the tiny LM, loaded once for every web test."""
    m = Models(tiny_cfg)
    yield m
    m.close()


class ServerThread:
    """A :class:`VoiceServer` on a free loopback port, its event loop in a daemon thread.

    ``kw`` goes to VoiceServer (``text=`` for an API-only server, ``audio_burst_s=``...).
    """

    def __init__(
        self, models: Models | None, cfg: AppConfig, token: str | None = None, **kw: Any
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server = VoiceServer(models, cfg, "127.0.0.1", 0, token, **kw)

    def call(self, coro: Coroutine[Any, Any, Any], timeout: float = 30) -> Any:
        """Run ``coro`` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def task_names(self) -> list[str]:
        """Names of every task still alive on the server's loop."""

        async def names() -> list[str]:
            me = asyncio.current_task()
            return sorted(t.get_name() for t in asyncio.all_tasks() if t is not me)

        return self.call(names())

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def api_url(self) -> str:
        """The OpenAI clients' ``base_url``."""
        return f"http://127.0.0.1:{self.server.port}/v1"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/ws"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        self.call(self.server.start())
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.call(self.server.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


@pytest.fixture(scope="session")
def synthesizer():
    from voice.tts import Synthesizer

    s = Synthesizer(variation=False)  # a question is the same audio in every run
    s.load()
    return s


@pytest.fixture(scope="session")
def spoken_wav(synthesizer, tmp_path_factory):
    """``spoken_wav(text)`` → a 16 kHz WAV: 0.5 s silence (``lead_s``), Piper saying ``text``,
    1.5 s silence.

    The fake microphone starts at getUserMedia, so the leading silence keeps the first word
    (a WebRTC call connects later than a websocket: its tests lead with more).
    """
    folder = tmp_path_factory.mktemp("wavs")
    cache: dict[tuple[str, float], Path] = {}

    def make(text: str, lead_s: float = 0.5) -> Path:
        if (text, lead_s) not in cache:
            speech = resample(synthesizer.synthesize(text), synthesizer.sample_rate, SAMPLE_RATE)
            lead = np.zeros(int(SAMPLE_RATE * lead_s), dtype=np.int16)
            tail = np.zeros(SAMPLE_RATE * 3 // 2, dtype=np.int16)
            path = folder / f"q{len(cache)}.wav"
            write_wav(path, np.concatenate([lead, speech, tail]), SAMPLE_RATE)
            cache[text, lead_s] = path
        return cache[text, lead_s]

    return make


def words(text: str) -> list[str]:
    """Lower-case words without punctuation, numbers spelled out, for comparing transcripts."""
    return normalize_text(text).split()


def heard(transcript: str, said: str) -> bool:
    """``transcript`` is ``said`` word for word but for at most one word (misheard, dropped
    or added). Through a live pipeline, where the utterance ends depends on timing, and on a
    loaded machine Whisper tiny.en once heard "What is the capital of friends": these tests
    check where a transcript goes, not Whisper's accuracy (tests/voice/test_asr.py does that
    on fixed audio)."""
    return word_errors(said, transcript)[0] <= 1  # misheard, dropped or added
