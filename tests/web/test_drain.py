"""Draining a server (SIGTERM for ``serve``, a stopped replica for ``cluster``): no new session,
each open one finishes the turn it is in and is closed with 1012, an idle one at once.
The cluster's redeploy is in tests/web/test_cluster.py."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from serve.session import CLOSE_RESTART
from tests.web.conftest import ServerThread
from tests.web.test_websocket import TIMEOUT, Client, http_get, http_request, open_client
from voice.config import AppConfig
from voice.models import Models


def closed_with(c: Client, timeout: float = TIMEOUT) -> int:
    """Read (collecting events) until the server closes the session; its close code."""
    with pytest.raises(ConnectionClosed) as e:
        c.until(lambda _e: False, timeout)
    assert e.value.rcvd is not None, "closed without a close frame"
    return e.value.rcvd.code


def test_drain_finishes_the_turn_in_progress(tiny_models: Models, tiny_cfg: AppConfig) -> None:
    with ServerThread(tiny_models, tiny_cfg) as s:
        with open_client(s.ws_url) as busy, open_client(s.ws_url) as idle:
            busy.send("text.input", text="what is seven times eight")
            turn = busy.next_of("transcript.final")["turn"]  # the turn has begun
            t0 = time.monotonic()
            drained = asyncio.run_coroutine_threadsafe(s.server.drain(TIMEOUT), s.loop)
            assert closed_with(idle, 5) == CLOSE_RESTART
            idle_s = time.monotonic() - t0

            with pytest.raises(InvalidStatus) as refused, connect(s.ws_url, open_timeout=10):
                pass
            assert refused.value.response.status_code == 503
            body = json.loads(refused.value.response.body)
            assert body["error"]["message"] == "this server is restarting; connect again"
            offer = (b"POST /rtc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
                     b"Connection: close\r\n\r\n")
            assert http_request(s.port, offer)[0] == 503  # nor a WebRTC call
            status, health = http_get(s.port, "/health")
            assert status == 503 and json.loads(health)["status"] == "draining"

            assert closed_with(busy) == CLOSE_RESTART
            types = [e["type"] for e in busy.events if e.get("turn") == turn]
            assert types[-1] == "turn.metrics" and "reply.audio.end" in types, types
            assert not [e for e in busy.events if e["type"] == "error"]
            assert sum(len(b) for b in busy.audio) > 0
            assert drained.result(TIMEOUT) is True
            assert idle_s < 1.0 < time.monotonic() - t0  # the idle one did not wait for it
        assert not s.server.sessions


def test_drain_past_its_time_closes_the_rest(tiny_models: Models, tiny_cfg: AppConfig) -> None:
    with ServerThread(tiny_models, tiny_cfg) as s, open_client(s.ws_url) as c:
        c.send("text.input", text="what is seven times eight")
        c.next_of("transcript.final")
        assert s.call(s.server.drain(0.01)) is False
        assert closed_with(c) == CLOSE_RESTART


def test_sigterm_drains_then_stops_serve(tiny_models: Models, tiny_cfg: AppConfig) -> None:
    """``serve``'s uvicorn drains on SIGTERM (a test's server thread gets no signals: its
    handler is called as uvicorn's signal capture would), then stops."""
    with ServerThread(tiny_models, tiny_cfg) as s:
        with open_client(s.ws_url) as c:
            c.send("text.input", text="hello there")
            c.next_of("transcript.final")
            s.loop.call_soon_threadsafe(s.server._uvicorn.handle_exit, signal.SIGTERM, None)
            assert closed_with(c) == CLOSE_RESTART
            assert any(e["type"] == "turn.metrics" for e in c.events)
        s.call(asyncio.wait_for(s.server.serve_forever(), 10))  # uvicorn has stopped
