"""What every ``/v1`` endpoint shares over HTTP: errors in OpenAI's shape
(``{"error": {"message", "type", "param", "code"}}``), the JSON body read within a size limit,
and one method per route (the others answered 405 in that shape, not Starlette's plain text).

The text API (``serve.text_api``), the audio API (``serve.audio_api``) and the server's own
``/v1`` endpoints raise :class:`ApiError` with the message the client reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

log = logging.getLogger("serve.http_api")

# The route takes every common method so that a wrong one gets an OpenAI-style 405 from
# :func:`endpoint`; others still get Starlette's 405.
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

Handler = Callable[[Request], Awaitable[Response]]


@dataclass(eq=False)
class ApiError(Exception):
    """A request answered with an OpenAI-style error body."""

    status: int
    message: str
    param: str | None = None
    type: str = "invalid_request_error"
    code: str | None = None
    headers: dict[str, str] | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def body(self) -> dict:
        keys = ("message", "type", "param", "code")
        return {"error": {k: getattr(self, k) for k in keys}}

    def response(self) -> JSONResponse:
        if self.status >= 500:
            log.warning("-> %d %s", self.status, self.message)
        return JSONResponse(self.body(), self.status, headers=self.headers)


def endpoint(method: str, handler: Handler) -> Handler:
    """An endpoint for ``method`` (others: 405); its ApiError becomes an OpenAI-style answer."""

    async def answer(request: Request) -> Response:
        try:
            if request.method != method:
                raise ApiError(405, f"{request.method} is not allowed here; use {method}",
                               headers={"Allow": method})
            return await handler(request)
        except ApiError as e:
            return e.response()

    return answer


def route(path: str, method: str, handler: Handler) -> Route:
    """``path`` answered by ``handler`` for ``method``, through :func:`endpoint`."""
    return Route(path, endpoint(method, handler), methods=METHODS)


def _param(loc: tuple) -> str | None:
    """A pydantic error location as the client wrote it: ``messages[0].role``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None


def validation_error(e: ValidationError) -> ApiError:
    """The first of pydantic's errors, naming the client's field (``param``)."""
    err = e.errors(include_url=False)[0]
    param = _param(err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        return ApiError(400, f"unrecognized request argument {param!r}", param)
    return ApiError(400, f"{param}: {msg}" if param else msg, param)


async def read_json(request: Request, limit: int) -> Any:
    """The request body as JSON: at most ``limit`` bytes, ``application/json``, no NaN."""
    ctype = request.headers.get("content-type", "")
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise ApiError(400, f"the request body is {size} bytes; at most {limit} allowed")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(400, f"the request body is over {limit} bytes; at most {limit} allowed")
    if ctype.split(";", 1)[0].strip().lower() != "application/json":
        raise ApiError(400, f"Content-Type must be application/json, not {ctype[:80]!r}")
    try:
        return json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise ApiError(400, f"the request body is not valid JSON: {e}") from None


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")
