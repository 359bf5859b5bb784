"""The OpenAI-compatible text API (``serve/text_api.py`` in the one ASGI server): a real server
on 127.0.0.1 with a tiny random SDAR checkpoint and no speech models (as ``diffvoice api`` runs
it), driven by the official ``openai`` client (and raw ``http.client`` where the client is too
polite). Errors and disconnects are in ``test_openai_errors.py``, on the same fixtures.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
from openai import OpenAI

from engine import Engine, EngineConfig, EngineWorker, SamplingParams
from serve.text_requests import ChatCompletionRequest, parse
from serve.text_service import TextService, model_id
from tests.engine.tiny import make_checkpoint
from tests.web.conftest import ServerThread
from voice.config import load_config

MODEL = "tiny-sdar"
ASK = [{"role": "user", "content": "hello what is the capital of france"}]


@pytest.fixture(scope="module")
def worker(tmp_path_factory) -> Iterator[EngineWorker]:
    folder = tmp_path_factory.mktemp("ckpt") / MODEL
    make_checkpoint(folder, "sdar")
    cfg = EngineConfig(model=str(folder), device="cpu", max_batch_size=4, max_model_len=256)
    w = EngineWorker(Engine.load(cfg))
    yield w
    w.close()


def api_server(worker: EngineWorker, *sets: str, token: str | None = None) -> ServerThread:
    """The one server with only the text endpoints (``diffvoice api``), on a free port."""
    text = TextService(worker, MODEL, SamplingParams(), max_body_bytes=64 * 1024)
    return ServerThread(None, load_config(None, list(sets)), token, text=text)


@pytest.fixture(scope="module")
def server(worker) -> Iterator[ServerThread]:
    with api_server(worker) as s:
        yield s


@pytest.fixture
def client(server) -> Iterator[OpenAI]:
    c = OpenAI(base_url=server.api_url, api_key="x", max_retries=0, timeout=60)
    yield c
    c.close()


def raw(
    server: ServerThread,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict | None = None,
) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, (json.loads(data) if data else {})
    finally:
        conn.close()


def assert_error_shape(body: dict) -> None:
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "type", "param", "code"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


# --- happy paths ------------------------------------------------------------------------------
def test_models_list(client):
    models = client.models.list()
    assert [m.id for m in models.data] == [MODEL]
    assert client.models.retrieve(MODEL).id == MODEL
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("other-model")


def test_model_id_is_folder_name_or_hub_id(tmp_path):
    (tmp_path / "my-model").mkdir()
    assert model_id(str(tmp_path / "my-model")) == "my-model"
    assert model_id("GSAI-ML/LLaDA-8B-Instruct") == "GSAI-ML/LLaDA-8B-Instruct"


def test_chat_completion(client):
    r = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "you are a planet"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "hello"},
                    {"type": "text", "text": "what is mars"},
                ],
            },
        ],
        max_tokens=12,
    )
    assert r.object == "chat.completion" and r.model == MODEL
    choice = r.choices[0]
    assert choice.message.role == "assistant" and isinstance(choice.message.content, str)
    assert choice.finish_reason in ("stop", "length")
    u = r.usage
    assert u.prompt_tokens > 0 and 0 < u.completion_tokens <= 12
    assert u.total_tokens == u.prompt_tokens + u.completion_tokens
    stats = r.model_extra["diffvoice"]
    assert set(stats) == {
        "nfe",
        "tokens_per_forward",
        "time_to_first_text_ms",
        "total_ms",
        "truncated_turns",
    }
    assert stats["nfe"] >= 1 and stats["tokens_per_forward"] > 0


def test_diffusion_extras_and_max_completion_tokens(client):
    r = client.chat.completions.create(
        model=MODEL,
        messages=ASK,
        max_completion_tokens=8,
        extra_body={"mode": "reference", "threshold": 0.5, "block_size": 8},
    )
    # reference mode commits one token per forward pass and never stops early
    assert r.usage.completion_tokens == 8
    assert r.model_extra["diffvoice"]["nfe"] == 8


def stream_text(client: OpenAI, **kw) -> tuple[str, list]:
    chunks = list(client.chat.completions.create(model=MODEL, stream=True, **kw))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    return text, chunks


def test_stream_matches_non_stream(client):
    kw = dict(messages=ASK, max_tokens=24, temperature=0)
    full = client.chat.completions.create(model=MODEL, **kw)
    text, chunks = stream_text(client, stream_options={"include_usage": True}, **kw)
    assert text == full.choices[0].message.content
    assert chunks[0].choices[0].delta.role == "assistant"
    assert all(c.object == "chat.completion.chunk" and c.id == chunks[0].id for c in chunks)
    finals = [c for c in chunks if c.choices and c.choices[0].finish_reason]
    assert len(finals) == 1 and finals[0].choices[0].finish_reason == full.choices[0].finish_reason
    assert finals[0].model_extra["diffvoice"]["nfe"] >= 1
    assert chunks[-1].choices == [] and chunks[-1].usage == full.usage


def test_concurrent_requests_all_answered(client):
    prompts = ["hello", "what is mars", "seven times eight", "the capital of france", "hi", "yes"]
    results: dict[int, str] = {}
    errors: list[BaseException] = []

    def ask(i: int) -> None:
        try:
            msgs = [{"role": "user", "content": prompts[i]}]
            if i % 2:
                text, chunks = stream_text(client, messages=msgs, max_tokens=8)
                results[i] = chunks[-1].choices[0].finish_reason
            else:
                r = client.chat.completions.create(model=MODEL, messages=msgs, max_tokens=8)
                results[i] = r.choices[0].finish_reason
        except BaseException as e:  # reported below, with the thread's prompt
            errors.append(e)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(prompts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert sorted(results) == list(range(len(prompts)))
    assert set(results.values()) <= {"stop", "length"}


def test_stop_strings(client):
    kw = dict(messages=ASK, max_tokens=24, temperature=0)
    text = client.chat.completions.create(model=MODEL, **kw).choices[0].message.content
    _, chunks = stream_text(client, **kw)
    deltas = [c.choices[0].delta.content for c in chunks if c.choices]
    deltas = [d for d in deltas if d]
    # A stop string that arrives split over two deltas: the first half must be held back.
    stop = next(
        f"{a.split()[-1]} {b.split()[0]}"
        for a, b in zip(deltas[1:], deltas[2:], strict=False)
        if a[-1].isalnum() and b.startswith(" ") and b[1:2].isalnum()
    )
    want = text[: text.index(stop)].strip()
    r = client.chat.completions.create(model=MODEL, stop=[stop, "zzz"], **kw)
    assert r.choices[0].message.content == want and r.choices[0].finish_reason == "stop"
    streamed, chunks = stream_text(client, stop=stop, **kw)
    assert streamed == want
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_seed_makes_sampling_repeatable(client):
    kw = dict(model=MODEL, messages=ASK, max_tokens=16, temperature=1.5, seed=7)
    a, b = (client.chat.completions.create(**kw).choices[0].message.content for _ in range(2))
    assert a == b


def test_mode_override_rederives_early_stop():
    base = SamplingParams(mode="cache", max_new_tokens=16)
    req = parse(ChatCompletionRequest, {"messages": ASK, "mode": "reference", "max_tokens": 4})
    params = req.params(base)
    assert params.mode == "reference" and params.early_stop is False
    assert params.max_new_tokens == 4


# --- auth -------------------------------------------------------------------------------------
def test_bearer_token(worker):
    with api_server(worker, token="s3cret") as s:
        bad = OpenAI(base_url=s.api_url, api_key="wrong", max_retries=0)
        with pytest.raises(openai.AuthenticationError):
            bad.models.list()
        with pytest.raises(openai.AuthenticationError):
            bad.chat.completions.create(model=MODEL, messages=ASK, max_tokens=4)
        status, body = raw(s, "GET", "/v1/models")
        assert status == 401
        assert_error_shape(body)
        good = OpenAI(base_url=s.api_url, api_key="s3cret", max_retries=0)
        assert [m.id for m in good.models.list().data] == [MODEL]
        r = good.chat.completions.create(model=MODEL, messages=ASK, max_tokens=4)
        assert r.choices[0].finish_reason in ("stop", "length")
        assert raw(s, "GET", "/health")[0] == 200  # for load balancers: no token
        bad.close()
        good.close()


# --- the role chunk, CORS, legacy completions -------------------------------------------------
def test_role_chunk_before_any_text_is_decoded(client, server, monkeypatch):
    """Headers and the role chunk leave at once, while the engine is still held back."""
    engine = server.server.text.worker.engine
    gate = threading.Event()
    real = engine._forward_and_commit

    def held(seqs):
        gate.wait(60)
        return real(seqs)

    monkeypatch.setattr(engine, "_forward_and_commit", held)
    try:
        stream = client.chat.completions.create(
            model=MODEL, messages=ASK, max_tokens=8, stream=True
        )
        first = next(iter(stream))
        assert not gate.is_set()  # nothing was decoded yet
        assert first.choices[0].delta.role == "assistant"
    finally:
        gate.set()
    rest = list(stream)
    assert rest[-1].choices[0].finish_reason in ("stop", "length")


def test_legacy_completions(client):
    r = client.completions.create(model=MODEL, prompt="The capital of France is", max_tokens=8,
                                  temperature=0)
    assert r.object == "text_completion" and r.model == MODEL
    assert r.choices[0].finish_reason in ("stop", "length") and isinstance(r.choices[0].text, str)
    assert 0 < r.usage.completion_tokens <= 8
    chunks = list(client.completions.create(
        model=MODEL, prompt="The capital of France is", max_tokens=8, temperature=0, stream=True
    ))
    assert "".join(c.choices[0].text for c in chunks if c.choices) == r.choices[0].text
    assert chunks[-1].choices[0].finish_reason == r.choices[0].finish_reason
    with pytest.raises(openai.BadRequestError) as ei:
        client.completions.create(model=MODEL, prompt=["a", "b"], max_tokens=4)
    assert ei.value.param == "prompt"


def test_cors(worker):
    app = "https://tool.example"
    with api_server(worker, f'server.allowed_origins=["{app}"]') as s:
        pre = {"Origin": app, "Access-Control-Request-Method": "POST",
               "Access-Control-Request-Headers": "authorization, content-type"}
        conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
        conn.request("OPTIONS", "/v1/chat/completions", headers=pre)
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200
        assert resp.getheader("Access-Control-Allow-Origin") == app
        assert "POST" in resp.getheader("Access-Control-Allow-Methods")
        conn.request("GET", "/v1/models", headers={"Origin": app})
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Access-Control-Allow-Origin") == app
        resp.read()
        status, body = raw(s, "GET", "/v1/models", headers={"Origin": "https://evil.example"})
        assert status == 403
        assert_error_shape(body)
        conn.close()


def test_chat_cli_uses_llm_url(server):
    """``diffvoice chat --llm-url``: replies come from the endpoint (no local model: the
    configured one does not even exist), which is asked for its model id."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("DIFFVOICE_DEBUG", None)
    p = subprocess.run(
        [sys.executable, "-m", "cli", "chat", "--json", "--llm-url", server.api_url,
         "--set", "engine.model=/no/such/model"],
        input="hello there\n", capture_output=True, text=True, timeout=300, cwd=root, env=env,
    )
    assert p.returncode == 0, p.stderr
    reply = json.loads(p.stdout.strip().splitlines()[-1])
    assert reply["finish_reason"] in ("stop", "length")
