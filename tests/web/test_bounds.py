"""What one session may cost the server, through the websocket with real clients: a client that
never reads is closed (4002) instead of growing server memory, a slow one loses its stale reply
audio (told so) and carries on, an idle one is closed (4001); and session-level input edge
cases: a huge integer literal, JSON in a binary frame, invalid UTF-8 in a text frame."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from serve.protocol import ProtocolError, parse_event
from serve.session import CLOSE_IDLE, CLOSE_TOO_SLOW
from tests.web.conftest import ServerThread, tiny_config
from tests.web.test_websocket import TIMEOUT, Client, open_client, wait_until
from voice.models import Models

SMALL_OUTBOX = 65536  # the smallest allowed: one reply's audio at 192 kHz is well over it


@pytest.fixture(scope="module")
def bounded(tiny_models: Models, tiny_model) -> Iterator[ServerThread]:
    cfg = tiny_config(
        tiny_model, f"server.max_outbox_bytes={SMALL_OUTBOX}", "server.send_timeout_s=2",
        "server.idle_timeout_s=8",
    )
    with ServerThread(tiny_models, cfg) as s:
        yield s


def session_of(server: ServerThread, c: Client):
    sid = next(e["session"] for e in c.events if e["type"] == "session.started")
    return server.server.sessions[sid]


def tight_socket(port: int) -> socket.socket:
    """A connected socket with a tiny receive buffer: a client that stops reading stalls the
    server's sends within a few kilobytes instead of megabytes of kernel buffers."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    return s


def test_a_client_that_never_reads_is_closed(bounded: ServerThread) -> None:
    sock = tight_socket(bounded.server.port)
    with connect(
        bounded.ws_url, sock=sock, max_queue=1, open_timeout=TIMEOUT, ping_interval=None
    ) as ws:  # no keepalive of its own: it reads nothing, pongs included
        deadline = time.monotonic() + 10
        while not bounded.server.sessions:  # its session.started is never read
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (session,) = bounded.server.sessions.values()
        ws.send(json.dumps({"type": "session.config", "output_sample_rate": 192000}))
        deadline = time.monotonic() + 120
        while session.id in bounded.server.sessions:
            assert time.monotonic() < deadline, "a client that never reads was never closed"
            assert session.outbox.bytes <= SMALL_OUTBOX + (1 << 16)
            try:
                ws.send(json.dumps({"type": "text.input", "text": "say something long"}))
            except ConnectionClosed:
                pass
            time.sleep(0.5)
        # Closed by the session's own bound (4002), or first by the transport's keepalive ping
        # timeout (uvicorn's, on the ASGI stack), or as idle (4001): once the transport's write
        # buffer is full uvicorn stops reading the client, so its messages no longer arrive and
        # a session whose reply audio all fitted in that buffer has nothing left to do (seen
        # once, in a fresh clone's CI run). Every way the server dropped it, its queue bounded
        # all along.
        assert session.close_code in (CLOSE_TOO_SLOW, CLOSE_IDLE, None)


def test_a_slow_reader_loses_stale_audio_and_carries_on(bounded: ServerThread) -> None:
    with open_client(bounded.ws_url) as c:
        c.send("session.config", output_sample_rate=192000)
        c.send("text.input", text="please tell me a long story about the sea")
        err = c.until(lambda e: e["type"] == "error")
        assert err["code"] == "too_slow", err
        stop = c.next_of("reply.audio.stop")
        metrics = c.next_of("turn.metrics")
        assert stop["turn"] == metrics["turn"] == 1
        assert session_of(bounded, c).close_code is None
        c.alive()
        # Its use of the shared workers is reported with the turn.
        assert metrics["stats"]["session_worker_s"] > 0
        assert "session_audio_s" in metrics["stats"]


def test_an_idle_session_is_closed(bounded: ServerThread) -> None:
    with open_client(bounded.ws_url) as c:
        session = session_of(bounded, c)
        with pytest.raises(ConnectionClosed) as e:
            c.until(lambda _: False, timeout=30)
        assert e.value.rcvd is not None and e.value.rcvd.code == CLOSE_IDLE
        assert "idle" in e.value.rcvd.reason
    wait_until(lambda: session.id not in bounded.server.sessions, 10)


def test_a_session_that_talks_is_not_idle(bounded: ServerThread) -> None:
    with open_client(bounded.ws_url) as c:
        for _ in range(24):  # 12 s of silence frames: longer than the idle limit
            c.ws.send(bytes(640))
            time.sleep(0.5)
        c.alive()


def test_a_huge_integer_is_bad_json() -> None:
    text = '{"type": "playback.done", "turn": ' + "9" * 5000 + "}"
    with pytest.raises(ProtocolError) as e:
        parse_event(text)
    assert e.value.code == "bad_json"


@pytest.mark.parametrize(
    "message",
    [
        b'  {"type": "interrupt"}',  # leading spaces, even length: would pass as audio
        b'\xef\xbb\xbf{"type":"interrupt"} ',  # a UTF-8 byte-order mark
        b'[{"type": "interrupt"}]\r\n',
        b'\n{\n  "type": "text.input",\n  "text": "hello"\n}\n',
    ],
    ids=["leading-space", "bom", "array", "pretty"],
)
def test_json_in_a_binary_frame_is_bad_audio(bounded: ServerThread, message: bytes) -> None:
    with open_client(bounded.ws_url) as c:
        for _ in range(10):  # spend the audio burst: JSON must never count as audio
            c.ws.send(bytes(16000 * 2 // 2 * 2))
        c.ws.send(message)
        err = c.until(lambda e: e["type"] == "error" and e["code"] != "rate_limited")
        assert err["code"] == "bad_audio", err
        c.alive()


def test_a_huge_integer_in_a_session_is_answered_and_the_session_goes_on(
    bounded: ServerThread,
) -> None:
    with open_client(bounded.ws_url) as c:
        c.ws.send('{"type": "playback.done", "turn": ' + "9" * 5000 + "}")
        assert c.error()["code"] == "bad_json"
        c.alive()


def test_invalid_utf8_in_a_text_frame_closes_with_1007(bounded: ServerThread) -> None:
    """Invalid UTF-8 in a text frame breaks the websocket protocol itself (RFC 6455 8.1): the
    connection fails with 1007, as docs/protocol.md says. Other sessions are untouched."""
    with open_client(bounded.ws_url) as other, open_client(bounded.ws_url) as c:
        c.ws.send(b'{"type": "interrupt", "x": "\xff\xfe"}', text=True)
        with pytest.raises(ConnectionClosed) as e:
            c.until(lambda _: False, timeout=30)
        assert e.value.sent is not None and e.value.sent.code == 1007
        other.alive()


def test_the_outbox_counts_bytes_and_asks_for_room_when_full() -> None:
    import asyncio

    from serve.outbox import Outbox

    calls: list[int] = []
    box = Outbox(max_bytes=100, on_full=lambda: calls.append(box.bytes))
    box.put("x" * 40)
    box.put(b"a" * 50, audio_turn=1)
    assert box.bytes == 90 and calls == []
    box.put(b"b" * 50, audio_turn=2)  # over the bound: asked to make room
    assert calls == [140] and box.audio_turns() == {1, 2}
    box.drop_audio(2)
    assert box.bytes == 40 and box.audio_turns() == set()
    assert asyncio.run(box.get()) == "x" * 40 and box.bytes == 0
