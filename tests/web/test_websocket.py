"""The websocket server at the protocol level, with the ``websockets`` client: sessions, bad
messages (each answered with an error while the session carries on), limits, the static file
server's confinement, Origin, Host and token checks, and clean disconnects."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from websockets.exceptions import ConnectionClosedError, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from serve.server import ServerError, VoiceServer, check_exposure, resolve_token, serve
from tests.web.conftest import ROOT, ServerThread, tiny_config
from voice.config import AppConfig
from voice.models import Models

TIMEOUT = 60  # s; generous: the machine is shared


@pytest.fixture(scope="module")
def server(tiny_models: Models, tiny_cfg: AppConfig) -> Iterator[ServerThread]:
    with ServerThread(tiny_models, tiny_cfg) as s:
        yield s


class Client:
    """A websocket session: JSON events and binary audio, read with a deadline."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.events: list[dict] = []
        self.audio: list[bytes] = []

    def send(self, type_: str, **fields) -> None:
        self.ws.send(json.dumps({"type": type_, **fields}))

    def until(self, pred: Callable[[dict], bool], timeout: float = TIMEOUT) -> dict:
        """Read until an event satisfies ``pred``; return it (binary frames are collected)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.ws.recv(timeout=max(deadline - time.monotonic(), 0.01))
            if isinstance(msg, bytes):
                self.audio.append(msg)
                continue
            ev = json.loads(msg)
            self.events.append(ev)
            if pred(ev):
                return ev

    def next_of(self, type_: str, timeout: float = TIMEOUT) -> dict:
        return self.until(lambda e: e["type"] == type_, timeout)

    def error(self) -> dict:
        return self.next_of("error")

    def alive(self) -> None:
        """The session still answers."""
        self.send("conversation.reset")
        self.next_of("conversation.reset")


@contextmanager
def open_client(url: str, **kw) -> Iterator[Client]:
    """A session that has started; closed on exit."""
    with connect(url, max_size=None, open_timeout=TIMEOUT, **kw) as ws:
        c = Client(ws)
        started = c.next_of("session.started")
        assert started["protocol"] == 1 and started["input"]["sample_rate"] == 16000
        yield c


def refused(url: str, **kw) -> int:
    """The HTTP status that refuses a websocket handshake."""
    with pytest.raises(InvalidStatus) as e, connect(url, open_timeout=TIMEOUT, **kw):
        pass
    return e.value.response.status_code


@pytest.fixture
def client(server: ServerThread) -> Iterator[Client]:
    with open_client(server.ws_url) as c:
        yield c


# --- bad messages: an error event, and the session carries on ------------------------------
@pytest.mark.parametrize(
    "message, code",
    [
        ("{not json", "bad_json"),
        ("hello, can you hear me?", "bad_json"),  # text where audio was expected
        ("UklGRiQAAABXQVZFZm10IBAAAAAB", "bad_json"),  # base64 audio in a text frame
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": "text.input", "text": ""}), "bad_event"),
        (json.dumps({"type": "session.config", "output_sample_rate": 5}), "bad_event"),
        (json.dumps({"type": "session.config", "volume": 11}), "bad_event"),
        (b"\x01\x02\x03", "bad_audio"),  # odd-length PCM16
        (json.dumps({"type": "interrupt"}).encode(), "bad_audio"),  # JSON as binary
        (json.dumps({"type": "interrupt"}).encode() + b" ", "bad_audio"),
        (b"\0" * ((1 << 20) + 2), "too_large"),
        (json.dumps({"type": "text.input", "text": "a" * (1 << 20)}), "too_large"),
        (json.dumps({"type": "text.input", "text": "word " * 1000}), "too_large"),
        (json.dumps({"type": "session.config", "tools": [{"type": "function"}]}), "bad_event"),
        (json.dumps({"type": "session.config", "tool_choice": "required"}), "bad_event"),
        (json.dumps({"type": "function.output", "call_id": "call_x", "output": "{}"}),
         "unknown_call"),
        (json.dumps({"type": "reply.create"}), "bad_event"),
    ],
    ids=[
        "malformed-json", "plain-text", "base64-text", "unknown-type", "empty-text",
        "bad-rate", "unknown-field", "odd-length-audio", "json-as-binary", "json-as-binary-odd",
        "oversized-audio",
        "oversized-json", "text-too-long", "bad-tools", "required-without-tools",
        "unknown-call", "nothing-to-reply-to",
    ],
)
def test_bad_message_gets_error_and_session_goes_on(
    client: Client, message: str | bytes, code: str
) -> None:
    client.ws.send(message)
    err = client.error()
    assert err["code"] == code, err
    assert err["message"]
    client.alive()


def test_many_bad_messages_then_a_real_turn(client: Client) -> None:
    for bad in ("x", "{}", '{"type": "nope"}', b"\x00"):
        client.ws.send(bad)
    assert [client.error()["code"] for _ in range(4)] == [
        "bad_json", "bad_event", "unknown_type", "bad_audio",
    ]
    client.send("text.input", text="what is the capital of france")
    assert client.next_of("transcript.final")["text"] == "what is the capital of france"
    assert client.next_of("turn.metrics")["turn"] == 1


def test_far_too_large_message_closes_with_1009(server: ServerThread) -> None:
    with open_client(server.ws_url) as c:
        c.ws.send(b"\0" * (16 << 20))  # still sending when the server refuses it
        with pytest.raises(ConnectionClosedError):
            c.until(lambda e: False, timeout=20)
        assert c.ws.protocol.close_rcvd is not None and c.ws.protocol.close_rcvd.code == 1009


# --- a typed turn, audio format, barge-in ----------------------------------------------------
def test_text_turn_streams_reply_and_audio(client: Client) -> None:
    client.send("session.config", output_sample_rate=44100)
    client.send("text.input", text="  hello   there ")
    tr = client.next_of("transcript.final")
    assert tr["text"] == "hello there"
    turn = tr["turn"]
    final = client.until(lambda e: e["type"] == "reply.text" and e["final"])
    assert final["turn"] == turn and final["text"].strip()
    deltas = [e["delta"] for e in client.events if e["type"] == "reply.text" and not e["final"]]
    assert "".join(deltas).split() == final["text"].split()
    start = next((e for e in client.events if e["type"] == "reply.audio.start"), None)
    start = start or client.next_of("reply.audio.start")  # audio may trail the final text
    assert start == {
        "type": "reply.audio.start", "turn": turn, "sample_rate": 44100,
        "encoding": "pcm_s16le", "channels": 1,
    }
    end = client.next_of("reply.audio.end")
    metrics = client.next_of("turn.metrics")
    samples = sum(len(b) for b in client.audio) // 2
    assert samples == end["samples"] > 44100 // 10  # more than 0.1 s of speech
    assert {"asr_done", "first_text", "reply_done", "first_audio_out"} <= set(metrics["latency_ms"])
    assert "nfe" in metrics["stats"]
    client.send("playback.done", turn=turn)
    client.alive()


def test_text_only_replies_synthesise_nothing(client: Client) -> None:
    """reply_audio false: the reply is text, and no audio is made or sent."""
    client.send("session.config", reply_audio=False)
    client.send("text.input", text="hello there")
    final = client.until(lambda e: e["type"] == "reply.text" and e["final"])
    metrics = client.next_of("turn.metrics")
    assert final["text"].strip() and metrics["turn"] == final["turn"]
    assert not client.audio
    assert not [e for e in client.events if e["type"].startswith("reply.audio")]
    assert "first_tts_audio" not in metrics["latency_ms"]
    assert metrics["stats"]["session_worker_s"] == 0  # no Whisper (typed), no Piper
    client.alive()


def test_interrupt_stops_the_reply_audio(client: Client) -> None:
    client.send("text.input", text="tell me about the moon")
    turn = client.next_of("transcript.final")["turn"]
    client.send("interrupt")
    stop = client.next_of("reply.audio.stop")
    assert stop["turn"] == turn
    client.alive()
    # Nothing of the turn's audio follows the stop.
    after = client.events[client.events.index(stop) + 1 :]
    assert not any(e["type"].startswith("reply.audio") and e["turn"] == turn for e in after)


# --- static files ----------------------------------------------------------------------------
def http_request(port: int, request: bytes) -> tuple[int, str, bytes]:
    """Send raw bytes, read the answer until the server closes: (status, head, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, head.decode("latin-1").lower(), body


def http_get(port: int, target: str, host: str = "127.0.0.1") -> tuple[int, bytes]:
    """A raw HTTP/1.1 GET, so the path reaches the server exactly as written."""
    req = f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
    status, _, body = http_request(port, req.encode())
    return status, body


def test_static_files_are_served(server: ServerThread) -> None:
    port = server.server.port
    status, body = http_get(port, "/")
    assert status == 200 and b"<title>diffvoice</title>" in body
    web = ("app.js", "view.js", "protocol.js", "player.js", "capture-worklet.js", "style.css")
    for name in web:
        status, body = http_get(port, f"/{name}?v=1")
        assert status == 200 and body == (ROOT / "web" / name).read_bytes(), name
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET /capture-worklet.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = s.recv(65536).split(b"\r\n\r\n")[0].decode().lower()
    assert "content-type: text/javascript" in head
    assert "x-content-type-options: nosniff" in head
    assert http_get(port, "/missing.js")[0] == 404


SECRET = (ROOT / "pyproject.toml").read_bytes()[:40]


@pytest.mark.parametrize(
    "target",
    [
        "/../pyproject.toml",
        "/../../../../etc/passwd",
        "/%2e%2e/pyproject.toml",
        "/%2E%2E/%2E%2E/etc/passwd",
        "/%2e%2e%2fpyproject.toml",
        "/..%2fpyproject.toml",
        "/..%5cpyproject.toml",
        "/.%2e/pyproject.toml",
        "/js/../../pyproject.toml",
        "/%252e%252e/pyproject.toml",
        "//etc/passwd",
        "/etc/passwd",
        "/%2fetc%2fpasswd",
        str(ROOT / "pyproject.toml"),
        "/" + str(ROOT / "pyproject.toml"),
        f"http://127.0.0.1{ROOT}/pyproject.toml",
        "/.gitignore",
        "/index.html%00.png",
    ],
)
def test_static_server_cannot_leave_web(server: ServerThread, target: str) -> None:
    status, body = http_get(server.server.port, target)
    assert status in (400, 403, 404), (target, status)
    assert SECRET not in body and b"root:" not in body


def test_page_answers_get_and_head_only(server: ServerThread) -> None:
    port = server.server.port
    page = (ROOT / "web" / "index.html").read_bytes()
    status, head, body = http_request(
        port, f"HEAD / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    )
    assert status == 200 and body == b"" and f"content-length: {len(page)}" in head
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        # POST with a body, as a form would send it: answered, not a dropped connection
        req = (
            f"{method} / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 3\r\n"
            "Connection: close\r\n\r\nabc"
        )
        status, head, body = http_request(port, req.encode())
        assert status == 405, method
        assert "allow: get, head" in head and b"<title>" not in body
    for method in ("TRACE", "FOO"):  # not a method the server knows: never the page
        req = f"{method} / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        status, _, body = http_request(port, req.encode())
        assert status in (400, 405, 501) and b"<title>" not in body, method


@pytest.mark.parametrize("header", ["Host", "Origin"])
@pytest.mark.parametrize("path", ["/", "/ws", "/v1/models", "/health"])
def test_two_host_or_origin_headers_are_a_clean_400(
    server: ServerThread, header: str, path: str
) -> None:
    port = server.server.port
    extra = (
        f"Host: 127.0.0.1:{port}\r\nHost: localhost:{port}\r\n" if header == "Host" else
        f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        f"Origin: http://evil.example\r\n"
    )
    upgrade = (
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" if path == "/ws" else
        "Connection: close\r\n"
    )
    status, _, body = http_request(port, f"GET {path} HTTP/1.1\r\n{extra}{upgrade}\r\n".encode())
    assert status == 400, body  # the HTTP parser (two Hosts) or the server's own check
    assert b"Traceback" not in body and b"<title>" not in body
    if body.startswith(b"{"):
        assert json.loads(body)["error"]["message"].startswith(f"more than one {header} header")


def test_foreign_host_header_is_refused(server: ServerThread) -> None:
    # A DNS-rebinding page reaches 127.0.0.1 under its own name.
    assert http_get(server.server.port, "/", host="attacker.example")[0] == 403
    assert http_get(server.server.port, "/", host="localhost")[0] == 200


# --- websocket admission: Origin, token, session limit ---------------------------------------
def test_origin_is_checked(server: ServerThread, tiny_models: Models, tiny_cfg: AppConfig) -> None:
    port = server.server.port
    assert refused(server.ws_url, origin="http://evil.example") == 403
    assert refused(server.ws_url, origin=f"http://localhost:{port}") == 403  # Host: 127.0.0.1
    with open_client(server.ws_url, origin=f"http://127.0.0.1:{port}"):  # the page's own
        pass
    cfg = tiny_config(tiny_models.cfg.engine.model, 'server.allowed_origins=["https://app.example"]')
    with ServerThread(tiny_models, cfg) as other:
        assert refused(other.ws_url, origin="http://evil.example") == 403
        with open_client(other.ws_url, origin="https://app.example"):
            pass


def test_token_is_checked(tiny_models: Models, tiny_cfg: AppConfig) -> None:
    with ServerThread(tiny_models, tiny_cfg, token="s3cret-token") as s:
        assert refused(s.ws_url) == 401
        assert refused(s.ws_url + "?token=wrong") == 401
        assert refused(s.ws_url + "?token=") == 401
        assert refused(s.ws_url, additional_headers={"Authorization": "Bearer wrong"}) == 401
        with open_client(s.ws_url + "?token=s3cret-token"):
            pass
        with open_client(s.ws_url, additional_headers={"Authorization": "Bearer s3cret-token"}):
            pass
        assert http_get(s.server.port, "/")[0] == 200  # the page itself is public


def test_token_with_plus_sign(tiny_models: Models, tiny_cfg: AppConfig) -> None:
    """The printed link carries the token as it is; '+' must not turn into a space."""
    with ServerThread(tiny_models, tiny_cfg, token="abc+def") as s:
        with open_client(s.ws_url + "?token=abc%2Bdef"):  # what the page sends
            pass
        with open_client(s.ws_url + "?token=abc+def"):  # typed by hand
            pass
        assert refused(s.ws_url + "?token=abc%20def") == 401


def test_session_limit(tiny_models: Models, tiny_model) -> None:
    cfg = tiny_config(tiny_model, "server.max_sessions=1")
    with ServerThread(tiny_models, cfg) as s:
        with open_client(s.ws_url):
            assert refused(s.ws_url) == 503
        wait_until(lambda: not s.server.sessions)
        with open_client(s.ws_url):
            pass


def test_session_limit_per_client_address(tiny_models: Models, tiny_model) -> None:
    cfg = tiny_config(tiny_model, "server.max_sessions=4", "server.max_sessions_per_client=2")
    with ServerThread(tiny_models, cfg) as s:
        with open_client(s.ws_url), open_client(s.ws_url):
            assert refused(s.ws_url) == 429  # this address has its two; the server has room
        wait_until(lambda: not s.server.sessions)
        with open_client(s.ws_url), open_client(s.ws_url):
            pass


# --- refusing to listen beyond the loopback without a token ----------------------------------
def test_non_loopback_without_token_is_refused(
    tiny_models: Models, tiny_cfg: AppConfig, monkeypatch
) -> None:
    monkeypatch.delenv("DIFFVOICE_TOKEN", raising=False)
    for host in ("0.0.0.0", "::", "192.168.1.20", "example.com"):
        with pytest.raises(ServerError, match="token"):
            check_exposure(host, None)
        with pytest.raises(ServerError, match="token"):
            VoiceServer(tiny_models, tiny_cfg, host, 0, None)
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        check_exposure(host, None)
    check_exposure("0.0.0.0", "a-token")
    # serve() refuses before loading anything: this model does not exist.
    bad = tiny_config(ROOT / "no-such-model")
    with pytest.raises(ServerError, match="DIFFVOICE_TOKEN"):
        serve(bad, host="0.0.0.0", port=0)
    monkeypatch.setenv("DIFFVOICE_TOKEN", "from-env")
    assert resolve_token(None, bad.server.token) == "from-env"
    assert resolve_token("flag", bad.server.token) == "flag"


def test_cli_refuses_non_loopback_without_token() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DIFFVOICE_TOKEN", None)
    env.pop("DIFFVOICE_DEBUG", None)
    p = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--host", "0.0.0.0"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert "without an access token" in lines[0] and "--token" in lines[0]


# --- disconnects -----------------------------------------------------------------------------
def wait_until(cond: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_disconnect_mid_reply_leaves_others_alone(server: ServerThread) -> None:
    with open_client(server.ws_url) as a, open_client(server.ws_url) as b:
        assert len(server.server.sessions) == 2
        a.send("text.input", text="what is seven times eight")
        a.next_of("reply.text")
        a.ws.socket.shutdown(socket.SHUT_RDWR)  # gone without a closing handshake, mid-reply
        b.send("text.input", text="hello there")
        assert b.next_of("transcript.final")["text"] == "hello there"
        b.next_of("reply.audio.end")
        b.next_of("turn.metrics")
        wait_until(lambda: len(server.server.sessions) == 1)
    wait_until(lambda: not server.server.sessions)
    leaked = [
        n for n in server.task_names()
        if n.startswith(("session-", "turn-", "spec", "loop-lag"))
    ]
    assert leaked == []
