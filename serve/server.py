"""One ASGI application on one port: the browser page, our websocket (``/ws``), OpenAI's
``/v1/*`` and ``/health``, served by uvicorn (``websockets`` sans-I/O implementation).

``diffvoice serve`` runs all of it; ``diffvoice api`` runs the same application with the text
endpoints only (no speech models loaded). Plain ``GET``/``HEAD`` requests for other paths get a
file from ``web/`` (nothing outside it is ever served). Each websocket is one :class:`Session`
with its own pipeline; every session and every API request shares one engine worker, so
concurrent conversations and completions are decoded together in the engine's batch.

Who may connect is decided in one place, :class:`serve.access.Access`, before any endpoint runs:
loopback ``Host`` on a loopback server, the bearer token (or ``?token=``) on ``/ws`` and
``/v1/*``, the ``Origin`` of a browser page. ``server.allowed_origins`` also gets CORS headers
(preflights answered), so browser tools on those origins can call ``/v1``. Sessions (in all, and
per client address), message size and text length are capped by ``server.*``.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import ConnectionClosed

from serve.access import Access, Denied, ServerError, check_exposure, resolve_token  # noqa: F401
from serve.audio_api import speech, transcriptions
from serve.openai_api import (
    ApiError,
    TextService,
    chat_completions,
    completions,
    get_model,
    list_models,
    model_id,
)
from serve.realtime import RealtimeTransport
from serve.session import (  # noqa: F401  (re-exported: the protocol's names)
    AUDIO_BURST_S,
    CLIENT_EVENTS,
    PROTOCOL_VERSION,
    SERVER_EVENTS,
    AudioRateLimiter,
    Outbox,
    ProtocolError,
    Session,
    WebSocketSink,
    _event,
    parse_event,
)
from voice.config import AppConfig
from voice.pipeline import Models

log = logging.getLogger("serve.server")

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
WS_PATH = "/ws"
RTC_PATH = "/rtc"  # the page's WebRTC offer (our protocol on the data channel)
REALTIME_PATH = "/v1/realtime"
_MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
_CSP = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
_ALL = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # others: 405 by the route
_BACKLOG = 2048  # pending connections the kernel holds (a burst of API clients)
LINGER_S = 2.0  # after refusing a frame, how long the rest of it is read and dropped


def _protected(path: str) -> bool:
    """Paths that need the token (and a allowed Origin): everything but the page and /health."""
    return (path in (WS_PATH, RTC_PATH) or path.startswith(RTC_PATH + "/") or path == "/v1"
            or path.startswith("/v1/"))


class Guard:
    """ASGI middleware in front of everything: malformed or foreign requests never reach a route.

    Refusals of a websocket handshake are HTTP answers (401, 403, ...), as before the upgrade.
    """

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        a = self.access
        path = scope["path"]
        try:
            host, origin = a.headers(scope["headers"])
            if _protected(path) or scope["type"] == "websocket":
                a.check_origin(origin, host)
                preflight = scope["type"] == "http" and scope["method"] == "OPTIONS" and any(
                    k.lower() == b"access-control-request-method" for k, _ in scope["headers"]
                )
                if not preflight and path != "/health":
                    auth = next(
                        (v.decode("latin-1") for k, v in scope["headers"]
                         if k.lower() == b"authorization"),
                        None,
                    )
                    a.check_token(auth, scope.get("query_string", b"").decode("latin-1"))
        except Denied as e:
            resp = _error_response(path, e.status, str(e), e.code)
            if e.status == 401:
                resp.headers["WWW-Authenticate"] = "Bearer"
            if scope["type"] == "websocket":
                return await WebSocket(scope, receive, send).send_denial_response(resp)
            return await resp(scope, receive, send)
        await self.app(scope, receive, send)


def _error_response(path: str, status: int, message: str, code: str | None = None) -> Response:
    """Every HTTP error has OpenAI's body, whatever the path: one shape for clients to parse."""
    kind = {404: "not_found_error"}.get(status, "invalid_request_error")
    return ApiError(status, message, type=kind if status < 500 else "server_error",
                    code=code).response()


class WebSocketTransport:
    """What :class:`Session` needs of a connection: ``send``, ``close`` and ``async for``.

    Iteration ends when the client leaves; ``send`` to a closed connection raises
    ``websockets``' ``ConnectionClosed``, as the websockets library's own connection does.
    """

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.closed = False
        self.remote_address = (ws.client.host, ws.client.port) if ws.client else None

    async def send(self, message: str | bytes) -> None:
        if self.closed:
            raise ConnectionClosed(None, None)
        try:
            if isinstance(message, bytes):
                await self.ws.send_bytes(message)
            else:
                await self.ws.send_text(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
            raise ConnectionClosed(None, None) from None

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            try:
                await self.ws.close(code, reason)
            except (RuntimeError, OSError):
                pass

    def __aiter__(self) -> WebSocketTransport:
        return self

    async def __anext__(self) -> str | bytes:
        if self.closed:
            raise StopAsyncIteration
        try:
            msg = await self.ws.receive()
        except (RuntimeError, OSError):
            msg = {"type": "websocket.disconnect"}
        if msg["type"] == "websocket.disconnect":
            self.closed = True
            raise StopAsyncIteration
        text = msg.get("text")
        return text if text is not None else msg.get("bytes") or b""


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
        self.web_root = web_root.resolve()
        if text is None and models is not None and hasattr(models.llm, "worker"):
            text = TextService(
                models.llm.worker, model_id(cfg.engine.model), cfg.sampling,
                cfg.server.max_message_bytes,
            )
        self.text = text
        self.sessions: dict[str, Session] = {}
        self.calls: dict[str, Any] = {}  # WebRTC calls by id (serve/webrtc.py Peer)
        self._call_tasks: set[asyncio.Task] = set()
        self._per_client: Counter[str] = Counter()
        self._uvicorn: uvicorn.Server | None = None
        self._task: asyncio.Task | None = None
        self._sock: socket.socket | None = None
        self.app = self._build_app()

    # --- the application --------------------------------------------------------------------
    def _build_app(self) -> ASGIApp:
        routes: list = [Route("/health", self._health, methods=["GET"])]
        if self.text is not None:
            t = self.text
            routes += [
                Route("/v1/models", _api("GET", lambda r: list_models(t)), methods=_ALL),
                Route("/v1/models/{name:path}",
                      _api("GET", lambda r: get_model(t, r.path_params["name"])), methods=_ALL),
                Route("/v1/chat/completions", _api("POST", lambda r: chat_completions(t, r)),
                      methods=_ALL),
                Route("/v1/completions", _api("POST", lambda r: completions(t, r)), methods=_ALL),
            ]
        if self.models is not None:
            m, limit = self.models, self.cfg.server.max_message_bytes
            routes += [
                WebSocketRoute(WS_PATH, self._websocket),
                WebSocketRoute(REALTIME_PATH, self._realtime),
                Route("/v1/audio/transcriptions", _api("POST", lambda r: transcriptions(m, r)),
                      methods=_ALL),
                Route("/v1/audio/speech", _api("POST", lambda r: speech(m, r, limit)),
                      methods=_ALL),
                Route("/v1/realtime/calls", _api("POST", self._call), methods=_ALL),
                Route(RTC_PATH, _api("POST", self._rtc), methods=_ALL),
                Route(RTC_PATH + "/{call_id}/hangup", _api("POST", self._hangup), methods=_ALL),
                Route("/v1/realtime/calls/{call_id}/hangup", _api("POST", self._hangup),
                      methods=_ALL),
            ]
        routes.append(
            Route("/{path:path}", self._static, methods=_ALL)
        )
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
            exception_handlers={HTTPException: _http_exception, Exception: _internal_error},
        )

    async def _health(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def _static(self, request: Request) -> Response:
        """A file under web/, or 403/404; nothing outside web/ can be named."""
        path = request.url.path
        if path == "/v1" or path.startswith("/v1/"):
            raise ApiError(404, f"no such endpoint: {request.method} {path}",
                           type="not_found_error")
        raw = request.scope.get("raw_path", path.encode()).decode("latin-1").split("?", 1)[0]
        if not raw.startswith("/"):
            return _text(400, "bad request path")
        name = unquote(raw)
        if "\\" in name or "\x00" in name:
            return _text(400, "bad request path")
        parts = [p for p in name.split("/") if p]
        if any(p.startswith(".") for p in parts):  # .., . and hidden files
            return _text(403, "forbidden")
        if not parts or name.endswith("/"):
            parts.append("index.html")
        file = self.web_root.joinpath(*parts).resolve()
        if (
            not file.is_relative_to(self.web_root)
            or file.suffix not in _MIME
            or not file.is_file()
        ):
            return _text(404, "not found")
        if request.method not in ("GET", "HEAD"):
            return _text(405, f"{request.method} is not allowed here; use GET",
                         {"Allow": "GET, HEAD"})
        body = file.read_bytes()
        headers = {
            "Content-Type": _MIME[file.suffix],
            "Content-Length": str(len(body)),
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": _CSP,
        }
        return Response(b"" if request.method == "HEAD" else body, 200, headers)

    # --- one websocket session --------------------------------------------------------------
    def admit(self, ws: WebSocket | Request) -> Denied | None:
        """Whether one more session may open (in all, and from this client's address)."""
        s = self.cfg.server
        if len(self.sessions) >= s.max_sessions:
            return Denied(503, "too many sessions; try again later")
        addr = ws.client.host if ws.client else ""
        if s.max_sessions_per_client and self._per_client[addr] >= s.max_sessions_per_client:
            return Denied(429, f"too many sessions from {addr}; at most "
                               f"{s.max_sessions_per_client} per client address")
        return None

    async def _websocket(self, ws: WebSocket) -> None:
        await self._session(ws, realtime=False)

    async def _realtime(self, ws: WebSocket) -> None:
        await self._session(ws, realtime=True)

    async def _session(self, ws: WebSocket, realtime: bool) -> None:
        """One conversation: our protocol on /ws, OpenAI Realtime's on /v1/realtime."""
        assert self.models is not None
        refused = self.admit(ws)
        if refused is not None:
            resp = _error_response(ws.url.path, refused.status, str(refused))
            return await ws.send_denial_response(resp)
        await ws.accept()
        transport: Any = WebSocketTransport(ws)
        holder: list[Session] = []
        if realtime:
            transport = self._realtime_transport(transport, ws.query_params.get("model"), holder)
        await self._converse(transport, ws.client.host if ws.client else "", ws.client, holder)

    def _realtime_transport(
        self, link: Any, model: str | None, holder: list[Session]
    ) -> RealtimeTransport:
        """The Realtime API over ``link`` (a websocket, or a WebRTC call's peer), for the
        session that :meth:`_converse` puts in ``holder``."""
        name = self.text.model_name if self.text else model_id(self.cfg.engine.model)
        return RealtimeTransport(
            link, lambda audio: holder[0].pipe.transcribe(audio), model or name,
            set_instructions=lambda text: holder[0].pipe.instruct(text),
        )

    async def _call(self, request: Request) -> Response:
        """``POST /v1/realtime/calls``: a WebRTC offer in, the SDP answer out (serve/webrtc.py);
        the call is a Realtime session until the peer connection closes."""
        return await self._offer(request, realtime=True)

    async def _rtc(self, request: Request) -> Response:
        """``POST /rtc``: the page's WebRTC offer; the call speaks our own protocol."""
        return await self._offer(request, realtime=False)

    async def _offer(self, request: Request, realtime: bool) -> Response:
        from serve.webrtc import CallError, ProtocolPeer, RealtimePeer, read_offer

        refused = self.admit(request)
        if refused is not None:
            raise ApiError(refused.status, str(refused), code=refused.code)
        try:
            offer, first = await read_offer(request)
            peer = RealtimePeer(first) if realtime else ProtocolPeer()
            try:
                answer = await peer.answer(offer)
            except BaseException:
                await peer.close()
                raise
        except CallError as e:
            raise ApiError(400, str(e), "sdp") from None
        transport: Any = peer
        holder: list[Session] = []
        if realtime:
            transport = self._realtime_transport(peer, request.query_params.get("model"), holder)
        self.calls[peer.id] = peer
        addr = request.client.host if request.client else ""
        task = asyncio.create_task(self._converse(transport, addr, request.client, holder))
        task.add_done_callback(lambda _t: self.calls.pop(peer.id, None))
        self._call_tasks.add(task)
        task.add_done_callback(self._call_tasks.discard)
        where = "/v1/realtime/calls" if realtime else RTC_PATH
        return Response(answer, 201, media_type="application/sdp",
                        headers={"Location": f"{where}/{peer.id}"})

    async def _hangup(self, request: Request) -> Response:
        peer = self.calls.get(request.path_params["call_id"])
        if peer is None:
            raise ApiError(404, "no such call", "call_id", code="not_found")
        await peer.close()
        return Response(b"", 200)

    async def _converse(
        self, transport: Any, addr: str, client: Any, holder: list[Session]
    ) -> None:
        """Run one session over ``transport`` until the client leaves (``holder`` gets it)."""
        assert self.models is not None
        session = Session(transport, self.models, self.cfg, self.audio_burst_s)
        holder.append(session)
        self.sessions[session.id] = session
        self._per_client[addr] += 1
        log.info("session %s opened from %s", session.id, client)
        try:
            await session.run()
        finally:
            del self.sessions[session.id]
            self._per_client[addr] -= 1
            if not self._per_client[addr]:
                del self._per_client[addr]
            await transport.close()
            log.info("session %s closed", session.id)

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
            self.app, ws=_LingeringWebSocket, lifespan="off", log_config=None,
            access_log=False, server_header=False, headers=[("server", "diffvoice")],
            backlog=_BACKLOG, timeout_graceful_shutdown=5,
            # Up to twice the limit is read and answered with an error event; beyond that the
            # connection is closed (1009) without reading the rest.
            ws_max_size=2 * limit, ws_max_queue=4, ws_per_message_deflate=False,
        )
        self._sock = _bind(self.host, self._port)
        self._uvicorn = uvicorn.Server(config)
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
        for peer in list(self.calls.values()):  # WebRTC calls outlive no server
            await peer.close()
        if self._call_tasks:
            await asyncio.wait(self._call_tasks, timeout=5)
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


class _LingeringWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, with a lingering close after a protocol error.

    On a frame over ``ws_max_size`` uvicorn writes the close frame (1009) and closes the socket
    at once. A client still sending the rest of that frame then gets a TCP reset, which can
    discard the close frame before it is read: the client sees "connection reset", not 1009
    (seen in a full test run). Here the server half-closes instead, and reads and discards what
    still arrives until the client closes, or :data:`LINGER_S` at most.
    """

    _lingering = False

    def handle_parser_exception(self) -> None:
        assert self.conn.close_sent is not None
        sent = self.conn.close_sent
        self.queue.put_nowait({"type": "websocket.disconnect", "code": sent.code,
                               "reason": sent.reason})  # fmt: skip
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.transport.resume_reading()
        # uvicorn closes the socket when the app returns unless a close timer is set
        self.close_timer = self.loop.call_later(LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the rest of a refused frame
        super().data_received(data)


def _api(method: str, handler: Callable) -> Callable:
    """An endpoint for ``method`` (others: 405); its ApiError becomes an OpenAI-style answer."""

    async def endpoint(request: Request) -> Response:
        try:
            if request.method != method:
                raise ApiError(405, f"{request.method} is not allowed here; use {method}",
                               headers={"Allow": method})
            return await handler(request)
        except ApiError as e:
            return e.response()

    return endpoint


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if exc.status_code == 405:
        msg = f"{request.method} is not allowed here"
    elif exc.status_code == 404:
        msg = f"no such endpoint: {request.method} {path}"
    else:
        msg = exc.detail
    resp = _error_response(path, exc.status_code, msg)
    resp.headers.update(exc.headers or {})
    return resp


async def _internal_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return exc.response()
    log.error("error serving %s %s", request.method, request.url.path, exc_info=exc)
    return _error_response(
        request.url.path, 500, f"internal error: {type(exc).__name__}: {exc}"
    )


def _text(status: int, body: str, headers: dict[str, str] | None = None) -> Response:
    resp = _error_response("", status, body)
    resp.headers.update(headers or {})
    return resp


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is a one-line ServerError."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(_BACKLOG)
    except OSError as e:
        raise ServerError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.setblocking(False)
    return sock


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
