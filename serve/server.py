"""One ASGI application on one port: the browser page, our websocket (``/ws``), OpenAI's
``/v1/*`` and ``/health``, served by uvicorn (``websockets`` sans-I/O implementation).

``diffvoice serve`` runs all of it; ``diffvoice api`` runs the same application with the text
endpoints only (no speech models loaded). Each part is its own module and
registers its own routes: the text API (serve/text_api.py), the audio API (serve/audio_api.py),
voice sessions over websockets and WebRTC (serve/calls.py), the page (serve/page.py: plain
``GET``/``HEAD`` requests for files under ``web/``, nothing outside it). Every session and every
API request shares one engine worker, so concurrent conversations and completions are decoded
together in the engine's batch.

Who may connect is decided in one place, :class:`serve.access.Access` (applied by
:class:`serve.guard.Guard`), before any endpoint runs:
loopback ``Host`` on a loopback server, the bearer token (or ``?token=``) on ``/ws`` and
``/v1/*``, the ``Origin`` of a browser page. ``server.allowed_origins`` also gets CORS headers
(preflights answered), so browser tools on those origins can call ``/v1``. Sessions (in all, and
per client address), message size and text length are capped by ``server.*``.

:meth:`VoiceServer.drain` (on SIGTERM for ``serve``; when Serve stops a front-end replica for
``cluster``) takes no new session and lets the open ones finish their turns (serve/calls.py).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from serve import audio_api, text_api
from serve.access import Access, ServerError, check_exposure, resolve_token  # noqa: F401
from serve.calls import Conversations
from serve.guard import Guard, http_exception, internal_error
from serve.links import BACKLOG, LingeringWebSocket, bind
from serve.outbox import AUDIO_BURST_S
from serve.page import WEB_ROOT, Page
from serve.session import Session
from serve.text_service import TextService, model_id
from voice.config import AppConfig
from voice.models import Models

log = logging.getLogger("serve.server")


class VoiceServer:
    """The application and its uvicorn server: ``async with VoiceServer(...) as s:
    await s.serve_forever()``. ``port=0`` picks a free port (see :attr:`port`).

    ``models`` carries the speech stages (``/ws``); ``text`` the engine behind ``/v1``. Either
    may be None: ``diffvoice api`` passes only ``text``. With ``models`` and no ``text``, the
    text endpoints use ``models``' in-process engine (none when replies come from
    ``assistant.llm_url``).
    """

    def __init__(
        self,
        models: Models | None,
        cfg: AppConfig,
        host: str = "127.0.0.1",
        port: int = 8765,
        token: str | None = None,
        web_root: Path = WEB_ROOT,
        audio_burst_s: float = AUDIO_BURST_S,
        *,
        text: TextService | None = None,
    ) -> None:
        self.access = Access(host, token, list(cfg.server.allowed_origins))  # may refuse
        self.models, self.cfg, self.host, self.token = models, cfg, host, self.access.token
        self.audio_burst_s = audio_burst_s
        self._port = port
        self.page = Page(web_root)
        if text is None and models is not None and hasattr(models.llm, "worker"):
            text = TextService(
                models.llm.worker, model_id(cfg.engine.model), cfg.sampling,
                cfg.server.max_message_bytes,
            )
        self.text = text
        self.voice = None if models is None else Conversations(
            models, cfg, text.model_name if text else model_id(cfg.engine.model), audio_burst_s
        )
        # Which server answered (``/health``; random, so it tells nothing of the host): the
        # Serve replica's id in a cluster, where a redeployed front-end's is a new one.
        self.instance = uuid.uuid4().hex[:12]
        # more for /health: a cluster's front-end adds its sessions and the replicas it sees
        self.health: Callable[[], dict] = dict
        self._uvicorn: uvicorn.Server | None = None
        self._task: asyncio.Task | None = None
        self._sock: socket.socket | None = None
        self.app = self._build_app()

    # --- the application --------------------------------------------------------------------
    def _build_app(self) -> ASGIApp:
        routes: list = [Route("/health", self._health, methods=["GET"])]
        if self.text is not None:
            routes += text_api.routes(self.text)
        if self.models is not None:
            routes += audio_api.routes(self.models, self.cfg.server.max_message_bytes)
            routes += self.voice.routes()
        routes += self.page.routes()  # last: every other path is a file under web/, or 404
        middleware = [Middleware(Guard, access=self.access)]
        if self.cfg.server.allowed_origins:
            middleware.append(
                Middleware(
                    CORSMiddleware, allow_origins=list(self.cfg.server.allowed_origins),
                    allow_methods=["GET", "POST", "OPTIONS"],
                    allow_headers=["Authorization", "Content-Type", "OpenAI-Beta"],
                    expose_headers=["X-Request-Id"], max_age=600,
                )
            )
        return Starlette(
            routes=routes, middleware=middleware,
            exception_handlers={HTTPException: http_exception, Exception: internal_error},
        )

    async def _health(self, request: Request) -> Response:
        body = {"instance": self.instance, **self.health()}
        if self.draining:  # a load balancer takes this server out of rotation
            return JSONResponse({"status": "draining", **body}, 503)
        return JSONResponse({"status": "ok", **body})

    @property
    def draining(self) -> bool:
        return self.voice is not None and self.voice.draining

    async def drain(self, timeout_s: float) -> bool:
        """Take no new voice session and let the open ones finish their turns, each then closed
        with 1012, within ``timeout_s`` (serve/calls.py). HTTP requests are left to the server
        that stops: uvicorn, or Serve. Returns whether every session finished in time."""
        return True if self.voice is None else await self.voice.drain(timeout_s)

    @property
    def sessions(self) -> dict[str, Session]:
        """The open voice sessions, by id."""
        return {} if self.voice is None else self.voice.sessions

    @property
    def calls(self) -> dict:
        """The WebRTC calls in progress, by id."""
        return {} if self.voice is None else self.voice.calls

    # --- serving ----------------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._sock is None:
            return self._port
        return self._sock.getsockname()[1]

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        limit = self.cfg.server.max_message_bytes
        config = uvicorn.Config(
            # asyncio and h11 by name: "auto" would take uvloop and httptools, which ray[serve]
            # installs, and the server would change under its tests with the environment.
            self.app, loop="asyncio", http="h11", ws=LingeringWebSocket, lifespan="off",
            log_config=None,
            access_log=False, server_header=False, headers=[("server", "diffvoice")],
            backlog=BACKLOG, timeout_graceful_shutdown=5,
            # Up to twice the limit is read and answered with an error event; beyond that the
            # connection is closed (1009) without reading the rest.
            ws_max_size=2 * limit, ws_max_queue=4, ws_per_message_deflate=False,
        )
        self._sock = bind(self.host, self._port)
        self._uvicorn = _Uvicorn(config, self)
        self._task = asyncio.create_task(self._uvicorn.serve(sockets=[self._sock]),
                                         name="uvicorn")
        while not self._uvicorn.started:
            if self._task.done():
                self._task.result()
                raise ServerError(f"the server on {self.host}:{self.port} did not start")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        if self._uvicorn is not None and self._task is not None:
            self._uvicorn.should_exit = True
            await self._task
            self._uvicorn = self._task = None
        if self.voice is not None:
            await self.voice.close()
        if self._sock is not None:
            self._sock.close()

    async def serve_forever(self) -> None:
        assert self._task is not None
        await self._task

    async def __aenter__(self) -> VoiceServer:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


class _Uvicorn(uvicorn.Server):
    """uvicorn, whose SIGTERM first drains the voice sessions (``server.drain_timeout_s``), then
    stops as usual; Ctrl-C, or a second signal, stops at once."""

    def __init__(self, config: uvicorn.Config, server: VoiceServer) -> None:
        super().__init__(config)
        self.voice_server = server
        self._drain: asyncio.Task | None = None
        self._term = False  # SIGTERM seen: draining
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame) -> None:
        if sig != signal.SIGTERM or self._term or self._loop is None:
            return super().handle_exit(sig, frame)
        self._term = True
        self._loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        async def drain() -> None:
            await self.voice_server.drain(self.voice_server.cfg.server.drain_timeout_s)
            self.should_exit = True

        log.info("SIGTERM: draining voice sessions")
        self._drain = asyncio.create_task(drain(), name="drain")


# --- the command line's servers ---------------------------------------------------------------
def _run(server: VoiceServer, banner: Callable[[VoiceServer], str]) -> None:
    async def main() -> None:
        async with server:
            print(banner(server), flush=True)
            await server.serve_forever()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


def serve(
    cfg: AppConfig,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> None:
    """``diffvoice serve``: load every model once and serve page, /ws and /v1 until Ctrl-C.

    Raises ServerError, before loading anything, for a non-loopback host without a token.
    """
    host = host or cfg.server.host
    port = cfg.server.port if port is None else port
    token = resolve_token(token, cfg.server.token)
    check_exposure(host, token)
    say = progress or (lambda m: print(m, file=sys.stderr, flush=True))
    models = Models(cfg, progress=say)
    try:
        server = VoiceServer(models, cfg, host, port, token)

        def banner(s: VoiceServer) -> str:
            link = s.url + (f"#token={quote(token, safe='+-._~')}" if token else "")
            return f"diffvoice: open {link} (API at {s.url}v1; Ctrl-C to stop)"

        _run(server, banner)
    finally:
        models.close()


def serve_api(
    cfg: AppConfig,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> None:
    """``diffvoice api``: the text endpoints only (no speech models), until Ctrl-C."""
    from engine import Engine, EngineWorker

    host = host or cfg.api.host
    port = cfg.api.port if port is None else port
    token = resolve_token(token, cfg.api.token)
    check_exposure(host, token)
    if progress:
        progress(f"Loading diffusion LM {cfg.engine.model} ...")
    worker = EngineWorker(Engine.load(cfg.engine))
    try:
        text = TextService(
            worker, model_id(cfg.engine.model), cfg.sampling, cfg.server.max_message_bytes
        )
        server = VoiceServer(None, cfg, host, port, token, text=text)

        def banner(s: VoiceServer) -> str:
            auth = " (bearer token required)" if token else ""
            return f"diffvoice API: {text.model_name} at {s.url}v1{auth}; Ctrl-C to stop"

        _run(server, banner)
    finally:
        worker.close()
