"""``diffvoice cluster`` on a one-node Ray cluster, with the tiny LM, the real Whisper and Piper:
the application deployed as front-end, ASR (two replicas), TTS and engine deployments, reached
through Serve's HTTP proxy as a client reaches plain ``serve``. A typed and a spoken turn over
``/ws``, the OpenAI client's chat completion and Realtime session, an ASR replica killed
during a turn, and (last: it replaces the replicas) a redeploy while two sessions talk.

The retry itself (a call whose replica died goes to another) is checked without Ray first.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from ray import exceptions as rex

from serve.cluster_stages import ClusterTranscriber, StageError
from tests.web.conftest import heard, tiny_config
from tests.web.test_websocket import Client, open_client
from voice.audio import read_wav

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What is the capital of France?"
FRAME = 320  # 20 ms at 16 kHz, as the page sends
METRICS = {"asr_done", "first_text", "reply_done", "first_audio_out"}


# --- the retry, without a cluster -------------------------------------------------------------
class _Answer:
    def __init__(self, outcome) -> None:
        self.outcome = outcome

    def result(self, timeout_s: float | None = None):
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


def _handle(*outcomes) -> SimpleNamespace:
    """A handle whose ``transcribe.remote`` answers with ``outcomes`` in turn."""
    left = list(outcomes)
    return SimpleNamespace(transcribe=SimpleNamespace(remote=lambda _a: _Answer(left.pop(0))))


def test_a_call_whose_replica_died_goes_to_another() -> None:
    audio = np.ones(1600, np.int16)
    asr = ClusterTranscriber(_handle(rex.ActorDiedError(), "hello there"), window_s=15)
    assert asr.transcribe(audio) == "hello there"
    lost = ClusterTranscriber(_handle(*[rex.ActorDiedError()] * 3), window_s=15)
    with pytest.raises(StageError, match="^asr: ActorDiedError"):
        lost.transcribe(audio)
    slow = _handle(TimeoutError(), "never asked")
    with pytest.raises(StageError, match="did not answer"):  # not a lost replica: no retry
        ClusterTranscriber(slow, window_s=15).transcribe(audio)


def test_a_pause_is_heard_with_whispers_ending_across_the_cluster() -> None:
    audio = np.ones(1600, np.int16)
    left = [rex.ActorDiedError(), ("What time is it?", 0.93)]
    handle = SimpleNamespace(hear=SimpleNamespace(remote=lambda _a: _Answer(left.pop(0))))
    heard = ClusterTranscriber(handle, window_s=15).hear(audio)
    assert (heard.text, heard.ending) == ("What time is it?", 0.93)  # after one lost replica
    assert ClusterTranscriber(handle, window_s=15).hear(np.zeros(0, np.int16)).text == ""


def test_a_front_end_has_a_speech_worker_per_replica_behind_it(tiny_model) -> None:
    from serve.cluster import speech_workers

    fixed = speech_workers(_config(tiny_model, 0))  # 2 ASR + 1 TTS replicas
    assert fixed.scheduler.workers == 3
    scaling = speech_workers(_config(tiny_model, 0, "cluster.asr.max_replicas=6"))
    assert scaling.scheduler.workers == 7  # at their most
    more = speech_workers(_config(tiny_model, 0, "scheduler.workers=12"))
    assert more.scheduler.workers == 12  # never fewer than asked


def test_the_kuberay_service_builds_the_application(monkeypatch) -> None:
    """configs/kuberay/rayservice.yaml is a valid Serve config whose import path builds the
    application from its args (the same builder ``serve run`` and ``serve deploy`` use); off
    loopback it needs the token, as ``diffvoice cluster`` does."""
    import yaml
    from ray.serve import Application
    from ray.serve.schema import ServeDeploySchema

    from serve import cluster as cl
    from serve.access import ServerError

    service = yaml.safe_load((ROOT / "configs/kuberay/rayservice.yaml").read_text())
    assert service["kind"] == "RayService"
    assert service["spec"]["rayClusterConfig"]["rayVersion"] == version("ray")
    serve_cfg = ServeDeploySchema.model_validate(yaml.safe_load(service["spec"]["serveConfigV2"]))
    (app,) = serve_cfg.applications
    assert app.import_path == "serve.cluster:build"
    monkeypatch.delenv("DIFFVOICE_TOKEN", raising=False)
    with pytest.raises(ServerError, match="without an access token"):
        cl.build(app.args)
    monkeypatch.setenv("DIFFVOICE_TOKEN", "secret")
    assert isinstance(cl.build(app.args), Application)
    with pytest.raises(ValueError, match="cluster.asr.replicas"):
        cl.build({"set": "cluster.asr.replicas=0"})


# --- the cluster --------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster(tiny_model) -> Iterator[str]:
    """The application on a local Ray cluster (no speculative start: each spoken turn calls
    Whisper once, after it ends); yields its port. Ray is shut down at the end."""
    import ray

    from serve import cluster as cl

    port = _free_port()
    cfg = _config(tiny_model, port)
    # Serve's handles and replicas report their load to the autoscaler every 10 s by default;
    # every second here, so that test_asr_scales_with_load sees a decision within seconds
    push = {f"RAY_SERVE_{side}_AUTOSCALING_METRIC_PUSH_INTERVAL_S": "1"
            for side in ("HANDLE", "REPLICA")}  # fmt: skip
    saved = {k: os.environ.get(k) for k in push}
    os.environ.update(push)  # Ray's processes take this process's environment
    try:
        ray.init(num_cpus=4, include_dashboard=False, logging_level="WARNING",
                 log_to_driver=bool(os.environ.get("DIFFVOICE_DEBUG")))  # fmt: skip
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    try:
        cl.start(cfg)
        yield port
    finally:
        cl.stop()


def _config(tiny_model, port: int, *extra: str):
    return tiny_config(tiny_model, f"cluster.port={port}", "assistant.speculative=false", *extra)


def _ws(port: int) -> str:
    return f"ws://127.0.0.1:{port}/ws"


def speak(c: Client, path) -> None:
    """``path``'s audio into the session, twice as fast as real time (the burst it allows)."""
    audio = read_wav(path)
    for i in range(0, len(audio), FRAME):
        c.ws.send(audio[i : i + FRAME].tobytes())
        time.sleep(0.01)


def whole_turn(c: Client, turn: int) -> dict:
    """Read until ``turn`` ends; its ``turn.metrics``, or the ``error`` that failed it."""
    return c.until(lambda e: e.get("turn") == turn and e["type"] in ("turn.metrics", "error"))


@pytest.mark.slow
def test_typed_turn_through_the_proxy(cluster: int) -> None:
    with open_client(_ws(cluster)) as c:
        c.send("text.input", text="hello there")
        turn = c.next_of("transcript.final")["turn"]
        final = c.until(lambda e: e["type"] == "reply.text" and e["final"])
        assert final["turn"] == turn and final["text"].strip()
        end = c.next_of("reply.audio.end")
        metrics = c.next_of("turn.metrics")
        assert sum(len(b) for b in c.audio) // 2 == end["samples"] > 0
        assert METRICS <= set(metrics["latency_ms"]) and "nfe" in metrics["stats"]
        assert not [e for e in c.events if e["type"] == "error"]


@pytest.mark.slow
def test_spoken_turn_through_the_proxy(cluster: int, spoken_wav) -> None:
    with open_client(_ws(cluster)) as c:
        speak(c, spoken_wav(QUESTION))
        tr = c.next_of("transcript.final")
        assert heard(tr["text"], QUESTION), tr
        metrics = whole_turn(c, tr["turn"])
        assert metrics["type"] == "turn.metrics", metrics
        assert METRICS <= set(metrics["latency_ms"])
        assert any(e["type"] == "reply.audio.end" for e in c.events)


@pytest.mark.slow
def test_openai_client_through_the_front_end(cluster: int) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=f"http://127.0.0.1:{cluster}/v1", api_key="none", timeout=60)
    model = client.models.list().data[0].id
    out = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": "hello"}], max_tokens=8
    )
    assert out.choices[0].finish_reason in ("stop", "length")
    assert out.usage.completion_tokens > 0
    stream = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": "hello"}], max_tokens=8, stream=True
    )
    assert any(ch.choices and ch.choices[0].finish_reason for ch in stream)
    with pytest.raises(Exception, match="does not exist"):
        client.chat.completions.create(model="nope", messages=[{"role": "user", "content": "x"}])


@pytest.mark.slow
def test_realtime_api_through_the_front_end(cluster: int) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=f"http://127.0.0.1:{cluster}/v1", api_key="none", max_retries=0)
    with client.realtime.connect(model="diffvoice") as conn:
        seen: list = []

        def until(type_: str):
            while (e := conn.recv()).type != type_:
                seen.append(e)
            return e

        until("session.created")
        conn.conversation.item.create(item={
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "hello there"}],
        })  # fmt: skip
        conn.response.create()
        done = until("response.done")
        assert done.response.status == "completed", done
        assert any(e.type == "response.output_audio.delta" for e in seen)


def _replicas(deployment: str) -> list[str]:
    import ray

    prefix = f"SERVE_REPLICA::diffvoice#{deployment}#"
    return sorted(a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                  if a["name"].startswith(prefix))  # fmt: skip


def _asr_replicas() -> list[str]:
    return _replicas("asr")


def _replaced(deployment: str, killed: str, count: int = 1, within_s: float = 60.0) -> None:
    """Wait until Serve has started a replica of ``deployment`` in the killed one's place."""
    deadline = time.monotonic() + within_s
    while len(_replicas(deployment)) != count or killed in _replicas(deployment):
        assert time.monotonic() < deadline, _replicas(deployment)
        time.sleep(0.5)


def _kill_when_busy(names: list[str], killed: list[str], within_s: float = 20.0) -> None:
    """Kill the first ASR replica seen with a call in progress (Serve's replica actors count
    theirs); its name goes to ``killed``."""
    import ray

    actors = [ray.get_actor(n, namespace="serve") for n in names]
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        counts = ray.get([a.get_num_ongoing_requests.remote() for a in actors])
        for name, actor, k in zip(names, actors, counts, strict=True):
            if k:
                ray.kill(actor, no_restart=True)
                killed.append(name)
                return
        time.sleep(0.005)


@pytest.mark.slow
def test_an_asr_replica_killed_during_a_turn(cluster: int, spoken_wav) -> None:
    """One of the two ASR replicas dies as a turn's audio ends: the turn is answered (the call
    tried again on the other replica) or fails with ``turn_failed``, never hangs; so is the next
    turn, which the router may still send to the dead replica; another session sees no error."""

    replicas = _asr_replicas()
    assert len(replicas) == 2
    wav = spoken_wav(QUESTION)
    killed: list[str] = []
    with open_client(_ws(cluster)) as a, open_client(_ws(cluster)) as b:
        killer = threading.Thread(target=_kill_when_busy, args=(replicas, killed))
        killer.start()  # watching while the audio goes in: the turn may end before it is all sent
        speak(a, wav)
        stopped = a.next_of("speech.stopped")
        killer.join()
        assert killed, "no ASR replica was seen recognising the turn"
        b.send("text.input", text="hello there")  # the other session, meanwhile
        outcomes = [whole_turn(a, stopped["turn"])]
        speak(a, wav)  # at once: the router may not know yet
        outcomes.append(whole_turn(a, a.next_of("speech.stopped")["turn"]))
        for ev in outcomes:
            assert ev["type"] == "turn.metrics" or ev.get("code") == "turn_failed", ev
        assert whole_turn(b, b.next_of("transcript.final")["turn"])["type"] == "turn.metrics"
        assert not [e for e in b.events if e["type"] == "error"]
        print("outcomes:", json.dumps([e["type"] for e in outcomes]))
    _replaced("asr", killed[0], count=2)  # Serve starts a replica in the dead one's place


@pytest.mark.slow
@pytest.mark.parametrize("deployment", ["tts", "engine"])
def test_the_only_tts_or_engine_replica_killed_during_a_turn(cluster: int, deployment) -> None:
    """The one TTS (or engine) replica dies while it works on a session's reply: that turn ends
    with its reply or a ``turn_failed`` event, never a hang; the session and a second one carry
    on, and once Serve has replaced the replica both are answered again."""
    (replica,) = _replicas(deployment)
    killed: list[str] = []
    with open_client(_ws(cluster)) as a, open_client(_ws(cluster)) as b:
        killer = threading.Thread(target=_kill_when_busy, args=([replica], killed))
        killer.start()
        a.send("text.input", text="tell me a joke")
        turn = a.next_of("transcript.final")["turn"]
        killer.join()
        assert killed, f"the {deployment} replica was not seen working on the turn"
        end = whole_turn(a, turn)
        assert end["type"] == "turn.metrics" or end.get("code") == "turn_failed", end
        _replaced(deployment, replica)
        for c in (a, b):
            c.send("text.input", text="hello there")
            again = c.next_of("transcript.final")["turn"]
            assert whole_turn(c, again)["type"] == "turn.metrics"
        assert not [e for e in b.events if e["type"] == "error"]
        print(deployment, "turn:", end["type"], end.get("code", ""))


def _health(port: int) -> dict:
    from tests.web.test_websocket import http_get

    status, body = http_get(port, "/health")
    assert status == 200, body
    return json.loads(body)


@pytest.mark.slow
def test_a_redeploy_drains_the_front_end(cluster: int, tiny_model) -> None:
    """Redeploy while two sessions are in a turn: Serve replaces every replica; the old
    front-end takes no new session, both turns are answered (reply audio and ``turn.metrics``)
    and then closed with 1012; a new session lands on the new front-end and is answered."""
    from ray import serve

    from serve import cluster as cl
    from serve.session import CLOSE_RESTART
    from tests.web.test_drain import closed_with

    old = _health(cluster)["instance"]
    cfg = _config(tiny_model, cluster, "cluster.frontend.graceful_shutdown_timeout_s=60")
    with open_client(_ws(cluster)) as a, open_client(_ws(cluster)) as b:
        turns = {}
        for c in (a, b):
            c.send("text.input", text="what is seven times eight")
            turns[c] = c.next_of("transcript.final")["turn"]  # the turns have begun
        redeploy = threading.Thread(
            target=serve.run, args=(cl.application(cfg),),
            kwargs={"name": cl.APP_NAME, "route_prefix": "/"}, daemon=True,
        )
        redeploy.start()
        for c in (a, b):
            assert closed_with(c, 120) == CLOSE_RESTART
            ends = [e for e in c.events if e.get("turn") == turns[c]]
            assert ends[-1]["type"] == "turn.metrics", ends
            assert any(e["type"] == "reply.audio.end" for e in ends) and c.audio
            assert not [e for e in c.events if e["type"] == "error"]
    redeploy.join(180)
    assert not redeploy.is_alive()
    new = _health(cluster)["instance"]
    assert new != old and new.startswith("diffvoice#frontend#")
    with open_client(_ws(cluster)) as c:
        c.send("text.input", text="hello there")
        assert whole_turn(c, c.next_of("transcript.final")["turn"])["type"] == "turn.metrics"


@pytest.mark.slow
def test_a_new_session_goes_to_a_front_end_with_room(cluster: int, tiny_model) -> None:
    """Two front-ends of two sessions each: four sessions opened one after another all start
    (Serve's router sends each to the front-end with fewer open), a fifth is refused with 503
    (every front-end is full: the per-process limit stays), and once one closes a new one
    starts again. (Redeploys.)"""
    from contextlib import ExitStack

    from ray import serve

    from serve import cluster as cl
    from tests.web.test_websocket import refused

    cfg = _config(tiny_model, cluster, "cluster.frontend.replicas=2", "server.max_sessions=2")
    serve.run(cl.application(cfg), name=cl.APP_NAME, route_prefix="/")
    with ExitStack() as stack:
        clients = [stack.enter_context(open_client(_ws(cluster))) for _ in range(4)]
        assert refused(_ws(cluster)) == 503
        clients[0].ws.close()
        deadline = time.monotonic() + 10  # the front-end sees the close, the router its count
        while True:
            try:
                with open_client(_ws(cluster)) as c:
                    c.send("text.input", text="hello there")
                    turn = c.next_of("transcript.final")["turn"]
                    assert whole_turn(c, turn)["type"] == "turn.metrics"
                break
            except Exception:
                assert time.monotonic() < deadline
                time.sleep(0.5)


def _transcribe_until(port: int, wav: bytes, stop: threading.Event, errors: list) -> None:
    """Ask the front-end's /v1/audio/transcriptions for ``wav`` again and again until ``stop``."""
    from openai import OpenAI

    client = OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="none", max_retries=0)
    while not stop.is_set():
        try:
            client.audio.transcriptions.create(model="whisper-1", file=("q.wav", wav))
        except Exception as e:  # noqa: BLE001 - any failure fails the test below
            errors.append(repr(e))
            return


@pytest.mark.slow
def test_asr_scales_with_load(cluster: int, tiny_model) -> None:
    """With autoscaling bounds (1..2 ASR replicas, one ongoing call each as the target), three
    clients transcribing at once make Serve start a second ASR replica, which /health shows;
    when they stop, it goes back to one. No request fails meanwhile. (Runs last: it redeploys.)"""
    from ray import serve

    from serve import cluster as cl
    from voice.audio import wav_bytes

    cfg = _config(tiny_model, cluster, "cluster.asr.replicas=1", "cluster.asr.min_replicas=1",
                  "cluster.asr.max_replicas=2", "cluster.asr.target_ongoing_requests=1",
                  "cluster.asr.upscale_delay_s=1", "cluster.asr.downscale_delay_s=2")  # fmt: skip
    serve.run(cl.application(cfg), name=cl.APP_NAME, route_prefix="/")
    def asr() -> dict:  # the new front-end learns the replicas within a second
        return _health(cluster).get("deployments", {}).get("asr", {})

    deadline = time.monotonic() + 30
    while asr().get("running") != 1:
        assert time.monotonic() < deadline, asr()
        time.sleep(0.5)
    wav = wav_bytes(read_wav(ROOT / "voice/assets/question.wav"))
    stop, errors = threading.Event(), []
    load = [threading.Thread(target=_transcribe_until, args=(cluster, wav, stop, errors))
            for _ in range(3)]  # fmt: skip
    for t in load:
        t.start()
    try:
        deadline = time.monotonic() + 90
        while asr()["running"] < 2:
            assert time.monotonic() < deadline and not errors, (asr(), errors)
            time.sleep(0.5)
    finally:
        stop.set()
        for t in load:
            t.join(60)
    assert not errors, errors
    deadline = time.monotonic() + 120
    while asr()["target"] != 1:
        assert time.monotonic() < deadline, asr()
        time.sleep(1.0)
