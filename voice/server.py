"""``diffvoice serve``: the browser client and its websocket on one port.

Plain HTTP ``GET`` requests are answered with the static page in ``web/`` (nothing outside it is
ever served); ``/ws`` upgrades to the websocket of ``docs/protocol.md``. Each connection is one
:class:`Session` with its own :class:`Pipeline`; every session shares one :class:`Models`, so
concurrent conversations are decoded together in the engine's batch.

The conversation itself (events, outbox, sink, rate limit) lives in ``voice/session.py``.

Exposure: loopback by default, where the ``Host`` header must name the loopback too (no DNS
rebinding); any other address needs an access token, checked on the websocket (``?token=`` or
``Authorization: Bearer``). A browser's ``Origin`` must be the page's own or one configured in
``server.allowed_origins``. Sessions, message size and text length are capped by ``server.*``.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import itertools
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from voice.config import AppConfig
from voice.pipeline import Models
from voice.session import (  # noqa: F401  (re-exported: the protocol's names)
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

log = logging.getLogger("voice.server")

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
WS_PATH = "/ws"
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
_LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


class ServerError(Exception):
    """The server cannot start as asked; the message is one line a person can act on."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, token: str | None) -> None:
    """Refuse to listen beyond the loopback without an access token."""
    if not is_loopback(host) and not token:
        raise ServerError(
            f"refusing to listen on {host} without an access token: pass --token or set "
            "DIFFVOICE_TOKEN (or keep the default --host 127.0.0.1)"
        )


class VoiceServer:
    """The HTTP + websocket server; ``async with VoiceServer(...) as s: await s.serve_forever()``.

    ``port=0`` picks a free port (see :attr:`port`).
    """

    def __init__(
        self,
        models: Models,
        cfg: AppConfig,
        host: str = "127.0.0.1",
        port: int = 8765,
        token: str | None = None,
        web_root: Path = WEB_ROOT,
        audio_burst_s: float = AUDIO_BURST_S,
    ) -> None:
        check_exposure(host, token)
        self.models, self.cfg, self.host, self.token = models, cfg, host, token or None
        self.audio_burst_s = audio_burst_s
        self._port = port
        self.web_root = web_root.resolve()
        self.loopback = is_loopback(host)
        self.sessions: dict[str, Session] = {}
        self._server: Server | None = None
        self._ids = itertools.count(1)

    @property
    def port(self) -> int:
        if self._server is None:
            return self._port
        return self._server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        limit = self.cfg.server.max_message_bytes
        self._server = await ws_serve(
            self._connection, self.host, self._port,
            process_request=self._process_request,
            # Up to twice the limit is read and answered with an error event; beyond that the
            # connection is closed (1009) without reading the rest.
            max_size=2 * limit, max_queue=4, compression=None,
            server_header="diffvoice",
        )

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    async def __aenter__(self) -> VoiceServer:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # --- one websocket session ------------------------------------------------------------
    async def _connection(self, ws: ServerConnection) -> None:
        if len(self.sessions) >= self.cfg.server.max_sessions:  # raced past process_request
            await ws.send(_event("error", code="busy", message="too many sessions"))
            await ws.close(1013, "too many sessions")
            return
        session = Session(ws, self.models, self.cfg, self.audio_burst_s)
        self.sessions[session.id] = session
        log.info("session %s opened from %s", session.id, ws.remote_address)
        try:
            await session.run()
        finally:
            del self.sessions[session.id]
            log.info("session %s closed", session.id)

    # --- HTTP: checks, then static files ---------------------------------------------------
    def _process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        host = request.headers.get("Host", "")
        if self.loopback and _hostname(host) not in _LOOPBACK_NAMES:
            return _text(403, "Forbidden", "this server only answers to localhost / 127.0.0.1\n")
        path, _, query = request.path.partition("?")
        if path != WS_PATH:
            return self._static(path)
        origin = request.headers.get("Origin")
        if origin is not None and not self._origin_ok(origin, host):
            return _text(403, "Forbidden", f"origin {origin} is not allowed\n")
        if self.token is not None and not self._token_ok(request, query):
            return _text(401, "Unauthorized", "missing or invalid access token\n")
        if len(self.sessions) >= self.cfg.server.max_sessions:
            return _text(503, "Service Unavailable", "too many sessions; try again later\n")
        return None  # go on with the websocket handshake

    def _origin_ok(self, origin: str, host: str) -> bool:
        if origin in self.cfg.server.allowed_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()

    def _token_ok(self, request: Request, query: str) -> bool:
        assert self.token is not None
        given = parse_qs(query).get("token", [""])[0]
        auth = request.headers.get("Authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _static(self, path: str) -> Response:
        """A file under web/, or 403/404; nothing outside web/ can be named."""
        if not path.startswith("/"):
            return _text(400, "Bad Request", "bad request path\n")
        name = unquote(path)
        if "\\" in name or "\x00" in name:
            return _text(400, "Bad Request", "bad request path\n")
        parts = [p for p in name.split("/") if p]
        if any(p.startswith(".") for p in parts):  # .., . and hidden files
            return _text(403, "Forbidden", "forbidden\n")
        if not parts or name.endswith("/"):
            parts.append("index.html")
        file = self.web_root.joinpath(*parts).resolve()
        if (
            not file.is_relative_to(self.web_root)
            or file.suffix not in _MIME
            or not file.is_file()
        ):
            return _text(404, "Not Found", "not found\n")
        body = file.read_bytes()
        headers = Headers(
            [
                ("Content-Type", _MIME[file.suffix]),
                ("Content-Length", str(len(body))),
                ("Cache-Control", "no-cache"),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
                ("Content-Security-Policy", _CSP),
                ("Connection", "close"),
            ]
        )
        return Response(200, "OK", headers, body)


def _hostname(host_header: str) -> str:
    """``Host`` header → host name without the port (``[::1]:80`` → ``::1``)."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1 : h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def _text(status: int, reason: str, body: str) -> Response:
    data = body.encode()
    headers = Headers(
        [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(data))),
            ("Connection", "close"),
        ]
    )
    return Response(status, reason, headers, data)


def resolve_token(token: str | None, cfg: AppConfig) -> str | None:
    """``--token``, else ``DIFFVOICE_TOKEN``, else ``server.token``; None when none is set."""
    return token or os.environ.get("DIFFVOICE_TOKEN") or cfg.server.token or None


def serve(
    cfg: AppConfig,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Load the models once and serve the page and its websocket until Ctrl-C.

    Raises ServerError, before loading anything, for a non-loopback host without a token.
    """
    host = host or cfg.server.host
    port = cfg.server.port if port is None else port
    token = resolve_token(token, cfg)
    check_exposure(host, token)
    say = progress or (lambda m: print(m, file=sys.stderr, flush=True))
    models = Models(cfg, progress=say)

    async def main() -> None:
        try:
            async with VoiceServer(models, cfg, host, port, token) as server:
                link = server.url + (f"#token={token}" if token else "")
                print(f"diffvoice: open {link} (Ctrl-C to stop)", flush=True)
                await server.serve_forever()
        except OSError as e:
            raise ServerError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        models.close()
