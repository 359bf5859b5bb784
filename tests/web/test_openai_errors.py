"""The OpenAI-compatible text API's errors and disconnects: bad requests answered in OpenAI's
shape with the client's ``param``, raw HTTP errors (bad JSON, unknown paths, wrong methods),
engine failures, unknown models, and a client that goes away mid-stream. The same real server
and ``openai`` client as ``test_openai_api.py`` (its fixtures, one server for this module).
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time

import openai
import pytest

from tests.web import test_openai_api
from tests.web.test_openai_api import ASK, MODEL, assert_error_shape, raw, stream_text

# the fixtures of test_openai_api.py, set up once more for this module
worker, server, client = test_openai_api.worker, test_openai_api.server, test_openai_api.client


# --- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw, param",
    [
        (dict(messages=[{"role": "robot", "content": "hi"}]), "messages[0].role"),
        (dict(messages=[]), "messages"),
        (dict(messages=[{"role": "user", "content": 3}]), "messages[0].content"),
        (
            dict(messages=[{"role": "user", "content": [{"type": "image_url"}]}]),
            "messages[0].content",
        ),
        (dict(messages=ASK, temperature=-1), "temperature"),
        (dict(messages=ASK, n=2), "n"),
        (dict(messages=ASK, max_tokens=0), "max_tokens"),
        (dict(messages=ASK, max_tokens="8"), "max_tokens"),
        (dict(messages=ASK, stop=[""]), "stop"),
        (dict(messages=ASK, extra_body={"mode": "fastest"}), "mode"),
        (dict(messages=ASK, extra_body={"treshold": 0.5}), "treshold"),
        (dict(messages=ASK, logprobs=True), "logprobs"),
        (dict(messages=[{"role": "user", "content": "  "}]), None),  # the engine's own check
        (dict(messages=ASK, max_tokens=4000), "max_tokens"),  # longer than the context
        (dict(messages=ASK, max_tokens=245), "max_tokens"),  # 9 prompt tokens, 7 fit
        (dict(messages=ASK, max_completion_tokens=245), "max_completion_tokens"),
    ],
    ids=[
        "unknown-role",
        "empty-messages",
        "content-type",
        "image-part",
        "temperature",
        "n2",
        "max-tokens-0",
        "max-tokens-str",
        "empty-stop",
        "bad-mode",
        "unknown-arg",
        "logprobs",
        "empty-last-message",
        "too-long",
        "max-tokens-near-context",
        "max-completion-tokens-near-context",
    ],
)
def test_bad_requests(client, kw, param):
    with pytest.raises(openai.BadRequestError) as ei:
        client.chat.completions.create(model=MODEL, **kw)
    e = ei.value
    assert e.status_code == 400 and e.type == "invalid_request_error"
    assert set(e.body) == {"message", "type", "param", "code"}
    if param is not None:
        assert e.param == param
    if param in ("max_tokens", "max_completion_tokens"):
        assert param in e.message  # the client's name, not the engine's field name


@pytest.mark.parametrize(
    "method, path, body, headers, status",
    [
        ("POST", "/v1/chat/completions", b"{not json", {"Content-Type": "application/json"}, 400),
        ("POST", "/v1/chat/completions", b"[1, 2]", {"Content-Type": "application/json"}, 400),
        (
            "POST",
            "/v1/chat/completions",
            b'{"temperature": NaN}',
            {"Content-Type": "application/json"},
            400,
        ),
        (
            "POST",
            "/v1/chat/completions",
            json.dumps({"messages": ASK}).encode(),
            {"Content-Type": "text/plain"},
            400,
        ),
        (
            "POST",
            "/v1/chat/completions",
            b"x" * (100 * 1024),
            {"Content-Type": "application/json"},
            400,
        ),
        ("GET", "/v1/nothing-here", None, {}, 404),
        ("POST", "/v2/chat/completions", b"{}", {"Content-Type": "application/json"}, 404),
        ("GET", "/v1/chat/completions", None, {}, 405),
        ("DELETE", "/v1/models", None, {}, 405),
    ],
    ids=[
        "bad-json",
        "not-object",
        "nan",
        "content-type",
        "oversized",
        "unknown-path",
        "unknown-post-path",
        "get-completions",
        "delete-models",
    ],
)
def test_raw_errors(server, method, path, body, headers, status):
    got, data = raw(server, method, path, body, headers)
    assert got == status
    assert_error_shape(data)
    if status == 400:
        assert data["error"]["type"] == "invalid_request_error"


def test_oversized_body_through_client(client):
    big = [{"role": "user", "content": "hello " * 20_000}]
    with pytest.raises(openai.BadRequestError, match="bytes"):
        client.chat.completions.create(model=MODEL, messages=big)


def test_generation_error_is_500(client, server, monkeypatch):
    def boom(seqs):
        raise RuntimeError("boom")

    monkeypatch.setattr(server.server.text.worker.engine, "_forward_and_commit", boom)
    with pytest.raises(openai.InternalServerError, match="boom") as ei:
        client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=4)
    assert ei.value.status_code == 500 and ei.value.type == "server_error"
    with pytest.raises(openai.APIError, match="boom"):
        stream_text(client, messages=ASK, max_tokens=4)


# --- disconnects ------------------------------------------------------------------------------
def test_client_disconnect_mid_stream_aborts_only_that_request(client, server, worker, caplog):
    body = json.dumps(
        {
            "model": MODEL,
            "messages": ASK,
            "stream": True,
            "max_tokens": 200,
            "mode": "reference",
        }
    ).encode()
    other: dict = {}
    with caplog.at_level(logging.INFO, logger="serve.text_service"):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        sock.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        got = b""
        while b"data: " not in got and (part := sock.recv(4096)):
            got += part
        assert got.startswith(b"HTTP/1.1 200")

        def ask_other() -> None:
            r = client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=8)
            other["reason"] = r.choices[0].finish_reason

        t = threading.Thread(target=ask_other)
        t.start()
        sock.close()
        t.join(timeout=120)
        deadline = time.monotonic() + 60
        while worker.active() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert other["reason"] in ("stop", "length")
    assert worker.active() == 0
    assert any("aborting" in r.getMessage() for r in caplog.records)
    r = client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=8)
    assert r.choices[0].finish_reason in ("stop", "length")


# --- unknown models -----------------------------------------------------------------------------
def test_unknown_model_is_404(client, server):
    for call in (
        lambda: client.chat.completions.create(model="gpt-4o", messages=ASK, max_tokens=4),
        lambda: client.completions.create(model="default", prompt="hello", max_tokens=4),
    ):
        with pytest.raises(openai.NotFoundError) as ei:
            call()
        assert ei.value.code == "model_not_found" and ei.value.param == "model"
