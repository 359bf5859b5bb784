"""Our protocol's session fields that used to be side doors of the Realtime API: client-decided
turns (``turn_detection: "client"`` + ``input_audio.commit``) and ``instructions``, over a real
``/ws`` connection."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tests.web.conftest import ServerThread, heard
from tests.web.test_websocket import open_client
from voice.config import AppConfig
from voice.models import Models

QUESTION = "What is the capital of France?"


@pytest.fixture(scope="module")
def server(tiny_models: Models, tiny_cfg: AppConfig) -> Iterator[ServerThread]:
    with ServerThread(tiny_models, tiny_cfg) as s:
        yield s


@pytest.fixture(scope="module")
def speech16(tiny_models: Models) -> bytes:
    """Piper saying QUESTION, 16 kHz PCM16, with a little silence around it."""
    from voice.audio import SAMPLE_RATE, resample

    tts = tiny_models.tts
    sp = resample(tts.synthesize(QUESTION), tts.sample_rate, SAMPLE_RATE)
    quiet = np.zeros(SAMPLE_RATE // 4, dtype=np.int16)
    return np.concatenate([quiet, sp, quiet]).astype("<i2").tobytes()


def session_of(server: ServerThread):
    (session,) = server.server.sessions.values()
    return session


def test_client_decided_turn_is_heard_only_when_committed(
    server: ServerThread, speech16: bytes
) -> None:
    with open_client(server.ws_url) as c:
        c.send("session.config", turn_detection="client", reply_audio=False)
        c.send("input_audio.commit")  # nothing yet
        assert c.error()["code"] == "empty_input"
        step = 3200  # 100 ms frames, sent at once: no rate limit on audio kept for a commit
        for i in range(0, len(speech16), step):
            c.ws.send(speech16[i : i + step])
        c.alive()  # every frame handled
        assert not any(e["type"].startswith(("speech.", "transcript.")) for e in c.events)
        c.send("input_audio.commit")
        final = c.next_of("transcript.final")
        assert heard(final["text"], QUESTION), final["text"]
        reply = c.until(lambda e: e["type"] == "reply.text" and e["final"])
        assert reply["turn"] == final["turn"] and reply["text"]
        c.next_of("turn.metrics")
        assert [e["code"] for e in c.events if e["type"] == "error"] == ["empty_input"]
        # Back to the server's turn detection: a commit is a mistake again.
        c.send("session.config", turn_detection="server")
        c.send("input_audio.commit")
        assert c.error()["code"] == "bad_event"


def test_cleared_audio_is_not_a_turn(server: ServerThread, speech16: bytes) -> None:
    with open_client(server.ws_url) as c:
        c.send("session.config", turn_detection="client")
        c.ws.send(speech16[: len(speech16) // 4 * 2])
        c.send("input_audio.clear")
        c.send("input_audio.commit")
        assert c.error()["code"] == "empty_input"


def test_client_audio_is_bounded_by_the_longest_utterance(
    server: ServerThread, tiny_cfg: AppConfig
) -> None:
    frame = bytes(32000)  # 1 s
    with open_client(server.ws_url) as c:
        c.send("session.config", turn_detection="client")
        for _ in range(tiny_cfg.vad.max_utterance_ms // 1000):
            c.ws.send(frame)
        c.alive()
        assert not any(e["type"] == "error" for e in c.events)
        c.ws.send(frame)  # one second over
        assert c.error()["code"] == "too_large"


def test_instructions_are_the_sessions_system_prompt(server: ServerThread) -> None:
    with open_client(server.ws_url) as c:
        c.send("session.config", instructions="Answer like a pirate.")
        c.alive()
        pipe = session_of(server).pipe
        assert pipe.messages_for("hello")[0] == {
            "role": "system", "content": "Answer like a pirate."
        }
        c.send("session.config", instructions=5)
        assert c.error()["code"] == "bad_event"
