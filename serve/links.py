"""The server's side of a connection, below any protocol: a websocket as the sessions use it,
uvicorn's websocket protocol with a lingering close, and the listening socket."""

from __future__ import annotations

import socket

from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import ConnectionClosed

from serve.access import ServerError

BACKLOG = 2048  # pending connections the kernel holds (a burst of API clients)
LINGER_S = 2.0  # after refusing a frame, how long the rest of it is read and dropped


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


class LingeringWebSocket(WebSocketsSansIOProtocol):
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


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is a one-line ServerError."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(BACKLOG)
    except OSError as e:
        raise ServerError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.setblocking(False)
    return sock
