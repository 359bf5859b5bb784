"""Who may reach what, before any route runs: the :class:`Guard` middleware, and the one error
shape every HTTP refusal and failure has (OpenAI's, whatever the path).

The decisions themselves are :class:`serve.access.Access`'s: loopback ``Host`` on a loopback
server, the bearer token (or ``?token=``) on the protected paths, the ``Origin`` of a browser
page.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from serve.access import Access, Denied
from serve.http_api import ApiError

log = logging.getLogger("serve.server")

WS_PATH = "/ws"
RTC_PATH = "/rtc"  # the page's WebRTC offer (our protocol on the data channel)
REALTIME_PATH = "/v1/realtime"


def protected(path: str) -> bool:
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
            if protected(path) or scope["type"] == "websocket":
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
            resp = error_response(path, e.status, str(e), e.code)
            if e.status == 401:
                resp.headers["WWW-Authenticate"] = "Bearer"
            if scope["type"] == "websocket":
                return await WebSocket(scope, receive, send).send_denial_response(resp)
            return await resp(scope, receive, send)
        await self.app(scope, receive, send)


def error_response(path: str, status: int, message: str, code: str | None = None) -> Response:
    """Every HTTP error has OpenAI's body, whatever the path: one shape for clients to parse."""
    kind = {404: "not_found_error"}.get(status, "invalid_request_error")
    return ApiError(status, message, type=kind if status < 500 else "server_error",
                    code=code).response()


async def http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if exc.status_code == 405:
        msg = f"{request.method} is not allowed here"
    elif exc.status_code == 404:
        msg = f"no such endpoint: {request.method} {path}"
    else:
        msg = exc.detail
    resp = error_response(path, exc.status_code, msg)
    resp.headers.update(exc.headers or {})
    return resp


async def internal_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return exc.response()
    log.error("error serving %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(
        request.url.path, 500, f"internal error: {type(exc).__name__}: {exc}"
    )
