"""``diffvoice cluster``: the application of ``diffvoice serve`` as Ray Serve deployments.

    Serve's HTTP proxy (every node, cluster.host:cluster.port)
        └── Frontend  ×cluster.frontend   the ASGI app: page, /ws, /v1/realtime, /v1/*, sessions
              ├── Asr      ×cluster.asr     Whisper             handle.transcribe(audio) → text
              ├── Tts      ×cluster.tts     Piper, streamed     handle.synthesize_stream → chunks
              └── Engine   ×cluster.engine  the diffusion LM    handle.run(request) → events
                                            (one EngineWorker per replica batches every
                                            front-end's requests; none with assistant.llm_url)

A front-end replica is a :class:`serve.server.VoiceServer` whose :class:`voice.models.Models`
holds the stages of serve/cluster_stages.py instead of loaded models; its Starlette app is the
replica's ASGI app (``@serve.ingress`` with ``__serve_build_asgi_app__``: Serve takes any ASGI
app, websockets included). Each deployment's replicas, autoscaling and resources come from
``[cluster]`` (voice/config.py). docs/scale-out.md has the picture in full.

A front-end replica that Serve stops (a redeploy, a scale-down, ``diffvoice cluster`` ending)
drains: Serve routes it no new request and waits for its ongoing ones, a websocket session
being one, up to ``graceful_shutdown_timeout_s`` before it kills the replica, and only then
calls ``__del__``. So the replica watches its own state and, once it is STOPPING, lets its
sessions finish their turns and closes them with 1012 (``VoiceServer.drain``): the clients
reconnect, through the proxy, to a replica that stays.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

from ray import serve

from serve.access import ServerError, check_exposure, resolve_token
from serve.links import bind
from voice.config import AppConfig, DeploymentConfig

log = logging.getLogger("serve.cluster")

APP_NAME = "diffvoice"
# Requests one replica takes at once, unless cluster.<stage>.max_ongoing_requests says: a
# Whisper or Piper call keeps a core busy, so a few (queued beyond: the router sends them to a
# replica with room); the engine batches every stream it holds. A front-end's are its sessions
# and HTTP requests: server.max_sessions and room for the rest.
_DEFAULT_ONGOING = {"asr": 4, "tts": 8, "engine": 256}
_DEBUG = bool(os.environ.get("DIFFVOICE_DEBUG"))
WATCH_S = 0.5  # how often a front-end asks the controller whether it is being stopped
# Of graceful_shutdown_timeout_s, kept back from the drain for the close frames to go out
# and for Serve to see no ongoing request (it looks every graceful_shutdown_wait_loop_s, 2 s).
_DRAIN_MARGIN_S = 3.0


class Asr:
    """Whisper (voice.asr.Transcriber) on one replica."""

    def __init__(self, cfg: AppConfig) -> None:
        from voice.models import transcriber

        self.asr = transcriber(cfg)
        self.asr.load()

    async def transcribe(self, audio: Any) -> str:
        return await asyncio.to_thread(self.asr.transcribe, audio)

    async def hear(self, audio: Any) -> tuple[str, float | None]:
        """The text and Whisper's P(the sentence ended there) (``voice.asr.Heard``)."""
        heard = await asyncio.to_thread(self.asr.hear, audio)
        return heard.text, heard.ending


class Tts:
    """Piper (voice.tts.Synthesizer) on one replica; chunks stream back as they are made."""

    def __init__(self, cfg: AppConfig) -> None:
        from voice.models import synthesizer

        self.tts = synthesizer(cfg)
        self.tts.load()

    def sample_rate(self) -> int:
        return self.tts.sample_rate

    async def synthesize_stream(self, text: str, first_max_chars: int) -> AsyncIterator[Any]:
        it = self.tts.synthesize_stream(text, first_max_chars)
        end = object()
        while (chunk := await asyncio.to_thread(next, it, end)) is not end:
            yield chunk


class Engine:
    """The diffusion LM: one EngineWorker per replica, batching every request it is sent."""

    def __init__(self, cfg: AppConfig) -> None:
        from engine import Engine as Loaded
        from engine import EngineWorker

        self.worker = EngineWorker(Loaded.load(cfg.engine))

    def info(self) -> dict:
        """What a front-end needs locally: the tokenizer (prompt lengths, template support)
        and the context sizes the text API quotes in its errors."""
        e = self.worker.engine
        return {"tokenizer": e.tokenizer, "max_len": e.max_len, "model_cfg": e.model.cfg}

    async def run(
        self, rid: str, messages: Any, params: Any, stream: bool, tools: Any, prompt_ids: Any
    ) -> AsyncIterator[Any]:
        """``("accepted",)`` or ``("refused", message, reason)``, then the request's events
        (text deltas, then its GenerationResult). A cancelled call aborts the request."""
        from engine import GenerationResult, RequestError

        loop = asyncio.get_running_loop()
        q: asyncio.Queue = asyncio.Queue()

        def on_event(ev: Any) -> None:
            loop.call_soon_threadsafe(q.put_nowait, ev)

        def submit() -> None:
            self.worker.submit(messages, params, stream=stream, request_id=rid,
                               on_event=on_event, tools=tools, prompt_ids=prompt_ids)  # fmt: skip

        try:  # tokenising happens in submit: off the replica's event loop
            await asyncio.to_thread(submit)
        except RequestError as e:
            yield ("refused", str(e), e.reason)
            return
        yield ("accepted",)
        done = False
        try:
            while not done:
                ev = await q.get()
                done = isinstance(ev, GenerationResult)
                yield ev
        finally:
            if not done:  # cancelled: the front-end's abort, or its caller went away
                self.worker.abort(rid)

    def __del__(self) -> None:
        self.worker.close()


@serve.ingress()
class Frontend:
    """Sessions and HTTP: a VoiceServer whose stages are the other deployments' handles."""

    async def __init__(self, cfg: AppConfig, asr: Any, tts: Any, engine: Any | None) -> None:
        from serve.cluster_stages import ClusterSynthesizer, ClusterTranscriber, ClusterWorker
        from serve.server import VoiceServer
        from voice.llm import LocalLLM
        from voice.models import Models

        llm = None
        if engine is not None:  # else Models makes the RemoteLLM of assistant.llm_url
            info = await engine.info.remote()
            worker = ClusterWorker(engine, info["tokenizer"], info["max_len"], info["model_cfg"])
            llm = LocalLLM(worker, cfg.sampling)
        rate = await tts.sample_rate.remote()
        cfg = speech_workers(cfg)
        self.models = Models(
            cfg, asr=ClusterTranscriber(asr, cfg.asr.window_s),
            tts=ClusterSynthesizer(tts, rate), llm=llm,
        )
        c = cfg.cluster
        self.server = VoiceServer(self.models, cfg, c.host, c.port, cfg.server.token or None)
        # the application's name is the deployer's ("default" under serve run)
        me = serve.get_replica_context().replica_id
        self.app_name, self.replica = me.deployment_id.app_name, me.unique_id
        self.server.instance = f"{self.app_name}#frontend#{self.replica}"  # /health says which
        self.deployments: dict = {}  # replicas per deployment, as the controller last said
        self.server.health = self._health
        drain_s = max(1.0, c.frontend.graceful_shutdown_timeout_s - _DRAIN_MARGIN_S)
        self._watch = asyncio.create_task(self._drain_when_stopped(drain_s), name="drain-watch")

    def __serve_build_asgi_app__(self) -> Any:
        return self.server.app

    async def _drain_when_stopped(self, timeout_s: float) -> None:
        """Drain the sessions once the controller is stopping this replica (or forgot it);
        meanwhile keep the controller's view of the deployments for ``/health``."""
        seen = False
        while True:
            await asyncio.sleep(WATCH_S)
            try:
                state, self.deployments = await asyncio.to_thread(
                    _serve_view, self.app_name, self.replica
                )
            except Exception:  # the controller restarting, or going away with Serve
                continue
            seen = seen or state is not None
            if state == "STOPPING" or (seen and state is None):
                break
        log.info("front-end replica %s is stopping: draining its sessions", self.replica)
        await self.server.drain(timeout_s)

    def _health(self) -> dict:
        return {"sessions": len(self.server.sessions), "deployments": self.deployments}

    async def __del__(self) -> None:
        if not hasattr(self, "_watch"):  # its constructor failed (Serve says why)
            return
        self._watch.cancel()
        if self.server.voice is not None:
            await self.server.drain(0)  # normally done already: Serve waited for the sessions
            await self.server.voice.close()
        self.models.close()


def speech_workers(cfg: AppConfig) -> AppConfig:
    """``cfg`` with a front-end's speech workers (``scheduler.workers``: the Whisper and Piper
    calls its sessions have in flight at once, fairly shared) raised to what the ASR and TTS
    deployments behind it can run at once, one call per replica at their most replicas. In
    ``serve`` the workers are the cores; here they wait on other processes, and two of them left
    a third replica idle under load."""
    from dataclasses import replace

    c = cfg.cluster
    slots = sum(d.max_replicas or d.replicas for d in (c.asr, c.tts))
    workers = min(64, max(cfg.scheduler.workers, slots))
    return replace(cfg, scheduler=replace(cfg.scheduler, workers=workers))


def _serve_view(app: str, replica: str) -> tuple[str | None, dict]:
    """A front-end replica's state in the controller's view (Serve's ``ServeInstanceDetails``,
    as ``serve status`` and the dashboard read it; None where it is not listed), and each
    deployment's running and target replica counts (autoscaling moves the target)."""
    from ray.serve.context import _get_global_client

    details = _get_global_client().get_serve_details()
    deployments = details.get("applications", {}).get(app, {}).get("deployments", {})
    replicas = deployments.get("frontend", {}).get("replicas", [])
    state = next((r["state"] for r in replicas if r["replica_id"] == replica), None)
    counts = {
        name: {"running": sum(r["state"] == "RUNNING" for r in d.get("replicas", [])),
               "target": d.get("target_num_replicas", 0)}
        for name, d in deployments.items()
    }  # fmt: skip
    return state, counts


def _options(d: DeploymentConfig, ongoing: int) -> dict:
    opts: dict[str, Any] = {
        "ray_actor_options": {"num_cpus": d.num_cpus, "num_gpus": d.num_gpus},
        "max_ongoing_requests": d.max_ongoing_requests or ongoing,
        "graceful_shutdown_timeout_s": d.graceful_shutdown_timeout_s,
        # a line per call (Serve's default) is noise at a turn's rate; DIFFVOICE_DEBUG shows it
        "logging_config": {"log_level": "INFO" if _DEBUG else "WARNING",
                           "enable_access_log": _DEBUG},  # fmt: skip
    }
    if d.max_replicas:
        opts["autoscaling_config"] = {
            "min_replicas": d.min_replicas, "initial_replicas": d.replicas,
            "max_replicas": d.max_replicas, "target_ongoing_requests": d.target_ongoing_requests,
            "upscale_delay_s": d.upscale_delay_s, "downscale_delay_s": d.downscale_delay_s,
        }
    else:
        opts["num_replicas"] = d.replicas
    return opts


def application(cfg: AppConfig) -> Any:
    """The bound application: a front-end over ASR, TTS and (without ``assistant.llm_url``)
    the engine, each with its ``[cluster]`` settings."""
    c = cfg.cluster

    def deployment(cls: type, name: str, d: DeploymentConfig, ongoing: int) -> Any:
        return serve.deployment(cls, name=name, **_options(d, ongoing))

    asr = deployment(Asr, "asr", c.asr, _DEFAULT_ONGOING["asr"]).bind(cfg)
    tts = deployment(Tts, "tts", c.tts, _DEFAULT_ONGOING["tts"]).bind(cfg)
    engine = None
    if not cfg.assistant.llm_url:
        engine = deployment(Engine, "engine", c.engine, _DEFAULT_ONGOING["engine"]).bind(cfg)
    front = deployment(Frontend, "frontend", c.frontend, 2 * cfg.server.max_sessions + 16)
    return front.bind(cfg, asr, tts, engine)


def build(args: dict[str, Any]) -> Any:
    """The application from a Serve config file's ``args`` (an application builder, Serve's
    ``import_path: serve.cluster:build``): ``config`` a TOML file or preset name (default:
    the defaults), ``set`` a list of ``key=value`` overrides (or one string, ``;``-separated, as
    ``serve run serve.cluster:build set="a=1;b=2"`` passes it). This is how a KubeRay
    ``RayService`` or ``serve deploy`` runs what ``diffvoice cluster`` runs; Serve's own proxy
    settings (host, port) come from that file's ``http_options``, not from ``[cluster]``."""
    from voice.config import load_config

    sets = args.get("set") or []
    if isinstance(sets, str):
        sets = [x.strip() for x in sets.split(";") if x.strip()]
    cfg = load_config(args.get("config") or None, list(sets))
    cfg.server.token = resolve_token(None, cfg.server.token) or ""
    check_exposure(cfg.cluster.host, cfg.server.token or None)  # say cluster.host as proxied
    check_models(cfg)
    return application(cfg)


def start(cfg: AppConfig, progress: Callable[[str], None] | None = None) -> str:
    """Join (``cluster.address``) or start a Ray cluster, deploy the application and wait until
    every replica is up; returns the front-end's URL. :func:`stop` undoes it."""
    import ray

    say = progress or (lambda _m: None)
    c = cfg.cluster
    check_models(cfg)
    if not ray.is_initialized():  # a caller (a test) may have started its own
        say(f"Ray: {'joining ' + c.address if c.address else 'starting a one-node cluster'} ...")
        try:
            ray.init(address=c.address or None, include_dashboard=False,
                     logging_level=logging.WARNING, log_to_driver=_DEBUG)  # fmt: skip
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = f"join the Ray cluster at {c.address}" if c.address else "start Ray"
            raise ServerError(f"cannot {where}: {_first_line(e)}") from None
    say("Deploying frontend, asr, tts" + ("" if cfg.assistant.llm_url else ", engine") + " ...")
    try:
        serve.start(http_options={"host": c.host, "port": c.port}, logging_config={
            "log_level": "INFO" if _DEBUG else "WARNING", "enable_access_log": _DEBUG})  # fmt: skip
        serve.run(application(cfg), name=APP_NAME, route_prefix="/")
    except Exception as e:  # a replica's constructor failed; Serve's message names which
        raise ServerError(f"{_first_line(_cause(e))} (the replicas' errors are in "
                          "/tmp/ray/session_latest/logs/serve/)") from None  # fmt: skip
    host = f"[{c.host}]" if ":" in c.host else c.host
    return f"http://{host}:{c.port}/"


def check_models(cfg: AppConfig) -> None:
    """Refuse, before starting anything, model files that are not here (the replicas would
    fail to start, and Serve's error does not say why): the same one-line errors as ``serve``.
    Every node needs them at the same paths; this checks the one running ``diffvoice cluster``."""
    from pathlib import Path

    from engine.checkpoint import ModelLoadError
    from voice.asr import Transcriber
    from voice.tts import Synthesizer

    if not cfg.asr.url:
        Transcriber(None if cfg.asr.model == "bundled" else cfg.asr.model, device="cpu")
    if not cfg.tts.url:
        Synthesizer(None if cfg.tts.voice == "bundled" else cfg.tts.voice)
    m = cfg.engine.model
    looks_local = m.startswith((".", "/", "~")) or Path(m).expanduser().exists()
    if not cfg.assistant.llm_url and looks_local and not Path(m).expanduser().is_dir():
        raise ModelLoadError(f"model path {m} is not a checkpoint folder")


def _cause(e: BaseException) -> BaseException:
    """The replica's own exception inside Ray's wrappers, where there is one."""
    while isinstance(getattr(e, "cause", None), BaseException):
        e = e.cause  # type: ignore[attr-defined]
    return e


def _first_line(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[0] if lines else type(e).__name__


def stop(joined: bool = False) -> None:
    """Take the application down and leave the Ray cluster (a local one stops). ``joined``: a
    cluster others may use, where only this application goes (Serve and the rest stay)."""
    import ray

    if not ray.is_initialized():  # serve.shutdown() would start Ray to find nothing there
        return
    try:
        if joined:
            serve.delete(APP_NAME)
        else:
            serve.shutdown()
    finally:
        ray.shutdown()


def run_cluster(cfg: AppConfig, progress: Callable[[str], None] | None = None) -> None:
    """``diffvoice cluster``: deploy, print the URL, serve until Ctrl-C, then shut down."""
    import signal
    import threading
    import time

    token = resolve_token(None, cfg.server.token)
    check_exposure(cfg.cluster.host, token)
    cfg.server.token = token or ""
    check_models(cfg)
    if not cfg.cluster.address:  # this machine's proxy: a taken port is a one-line error here
        bind(cfg.cluster.host, cfg.cluster.port).close()
    t0 = time.perf_counter()
    stopping = threading.Event()
    try:
        url = start(cfg, progress)
        # After ray.init, whose own SIGTERM handler ends the process on the spot (replicas and
        # Ray's agents left behind); SIGINT too, which a shell leaves ignored in a background job.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stopping.set())
        print(f"diffvoice cluster: open {url} (API at {url}v1; deployed in "
              f"{time.perf_counter() - t0:.0f} s; Ctrl-C to stop)", flush=True)  # fmt: skip
        while not stopping.wait(1.0):
            pass
        print("diffvoice cluster: stopping ...", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("diffvoice cluster: stopping ...", file=sys.stderr, flush=True)
    finally:
        stop(joined=bool(cfg.cluster.address))
