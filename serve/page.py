"""The browser page: plain ``GET``/``HEAD`` requests for files under ``web/``, and nothing outside
it (no ``..``, no hidden files, no other suffixes)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from serve.guard import error_response
from serve.http_api import METHODS, ApiError

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
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


class Page:
    """The files of ``web_root``, as the catch-all route."""

    def __init__(self, web_root: Path = WEB_ROOT) -> None:
        self.web_root = web_root.resolve()

    def routes(self) -> list[Route]:
        return [Route("/{path:path}", self._static, methods=METHODS)]

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


def _text(status: int, body: str, headers: dict[str, str] | None = None) -> Response:
    resp = error_response("", status, body)
    resp.headers.update(headers or {})
    return resp
