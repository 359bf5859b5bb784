"""Who may use the server: one set of checks for every endpoint of ``serve.server``'s app.

Loopback by default, where the ``Host`` header must name the loopback too (no DNS rebinding);
any other address needs an access token (``check_exposure`` refuses to start without one). The
token is a bearer token (``Authorization: Bearer``) or, for websockets from a browser that cannot
set headers, ``?token=``. A browser's ``Origin`` must be the page's own or one of
``server.allowed_origins``. A request with two ``Host`` or two ``Origin`` headers is malformed.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

from engine.errors import UserError

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


class ServerError(UserError):
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


def resolve_token(token: str | None, configured: str = "") -> str | None:
    """``--token``, else ``DIFFVOICE_TOKEN``, else the config's token; None when none is set."""
    return token or os.environ.get("DIFFVOICE_TOKEN") or configured or None


def hostname(host_header: str) -> str:
    """``Host`` header → host name without the port (``[::1]:80`` → ``::1``)."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1 : h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class Denied(Exception):
    """A request refused before it reaches an endpoint: HTTP ``status`` and a one-line reason."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass
class Access:
    """The checks, given the listening host, the token and the extra allowed origins."""

    host: str
    token: str | None = None
    allowed_origins: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_exposure(self.host, self.token)
        self.token = self.token or None
        self.loopback = is_loopback(self.host)

    def headers(self, raw: list[tuple[bytes, bytes]]) -> tuple[str, str | None]:
        """(Host, Origin) of a request; Denied(400) for a repeated one, 403 for a foreign Host."""
        found: dict[bytes, list[bytes]] = {b"host": [], b"origin": []}
        for k, v in raw:
            k = k.lower()
            if k in found:
                found[k].append(v)
        for k, vs in found.items():
            if len(vs) > 1:
                raise Denied(400, f"more than one {k.decode().title()} header")
        host = found[b"host"][0].decode("latin-1") if found[b"host"] else ""
        origin = found[b"origin"][0].decode("latin-1") if found[b"origin"] else None
        if self.loopback and hostname(host) not in LOOPBACK_NAMES:
            raise Denied(403, "this server only answers to localhost / 127.0.0.1")
        return host, origin

    def check_origin(self, origin: str | None, host: str) -> None:
        """A browser page from another site may not use the server, unless configured."""
        if origin is None or origin in self.allowed_origins:
            return
        parts = urlsplit(origin)
        if parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower():
            return
        raise Denied(403, f"origin {origin[:100]} is not allowed")

    def check_token(self, authorization: str | None, query: str = "") -> None:
        """The bearer token, or ``?token=`` in the query (websockets from a browser)."""
        if self.token is None:
            return
        candidates = []
        if authorization and authorization[:7].lower() == "bearer ":
            candidates.append(authorization[7:].strip())
        elif query:
            # A token may hold '+': '?token=a+b' means 'a+b' when sent unencoded ('a%2Bb' when
            # encoded); form decoding would read it as 'a b'.
            raw = [p[6:] for p in query.split("&") if p.startswith("token=")]
            candidates += [unquote(r) for r in raw[:1]]
            candidates += parse_qs(query).get("token", [])[:1]
        want = self.token.encode()
        if not any(hmac.compare_digest(c.encode(), want) for c in candidates):
            raise Denied(401, "missing or invalid access token", "invalid_api_key")
