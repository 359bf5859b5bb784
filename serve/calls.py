"""Voice sessions: where a conversation comes in, how many may, and each one's life.

A conversation arrives as a websocket (our protocol on ``/ws``, OpenAI's Realtime API on
``/v1/realtime``) or as a WebRTC call (``POST /rtc`` for the page, ``POST /v1/realtime/calls``
for Realtime clients; serve/webrtc.py). Either way it becomes one :class:`Session` over a
connection that encodes the session's typed events in that client's wire format
(:class:`serve.session.JsonEvents`, :class:`serve.realtime.RealtimeEvents`, the page's
:class:`serve.webrtc.ProtocolPeer`). Sessions are capped in all and per client address; a
server that is draining (:meth:`Conversations.drain`) takes none.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from serve.access import Denied
from serve.guard import REALTIME_PATH, RTC_PATH, WS_PATH, error_response
from serve.http_api import ApiError, route
from serve.links import WebSocketTransport
from serve.realtime import RealtimeEvents
from serve.session import CLOSE_RESTART, JsonEvents, Session
from voice.config import AppConfig
from voice.models import Models

log = logging.getLogger("serve.server")

DRAIN_REASON = "server restarting: reconnect"


class Conversations:
    """The voice sessions of one server, and the routes they come in by."""

    def __init__(
        self, models: Models, cfg: AppConfig, model_name: str, audio_burst_s: float
    ) -> None:
        self.models, self.cfg, self.model_name = models, cfg, model_name
        self.audio_burst_s = audio_burst_s
        self.sessions: dict[str, Session] = {}
        self.calls: dict[str, Any] = {}  # WebRTC calls by id (serve/webrtc.py Peer)
        self._call_tasks: set[asyncio.Task] = set()
        self._per_client: Counter[str] = Counter()
        self.draining = False

    def routes(self) -> list:
        return [
            WebSocketRoute(WS_PATH, self._websocket),
            WebSocketRoute(REALTIME_PATH, self._realtime),
            route("/v1/realtime/calls", "POST", self._call),
            route(RTC_PATH, "POST", self._rtc),
            route(RTC_PATH + "/{call_id}/hangup", "POST", self._hangup),
            route("/v1/realtime/calls/{call_id}/hangup", "POST", self._hangup),
        ]

    async def close(self) -> None:
        """End every WebRTC call (they outlive no server) and wait for their sessions."""
        for peer in list(self.calls.values()):
            await peer.close()
        if self._call_tasks:
            await asyncio.wait(self._call_tasks, timeout=5)

    async def drain(self, timeout_s: float) -> bool:
        """Go away without losing a turn: take no new session (503), let each open one finish
        the turn it is in and close it with 1012 (a session between turns at once), for at most
        ``timeout_s``; after that the rest are closed with 1012 as they are. Returns whether
        every session finished in time."""
        self.draining = True
        started: dict[str, asyncio.Task] = {}
        try:
            async with asyncio.timeout(timeout_s):
                while self.sessions:  # one admitted just before draining began is drained too
                    for sid, session in list(self.sessions.items()):
                        if sid not in started:
                            started[sid] = asyncio.create_task(session.drain(DRAIN_REASON))
                    await asyncio.sleep(0.05)
            return True
        except TimeoutError:
            log.warning("drain: %d sessions still in a turn after %g s; closing them",
                        len(self.sessions), timeout_s)  # fmt: skip
            for session in list(self.sessions.values()):
                session.shut(CLOSE_RESTART, DRAIN_REASON)
            return False
        finally:
            for task in started.values():
                task.cancel()

    def admit(self, ws: WebSocket | Request) -> Denied | None:
        """Whether one more session may open (in all, and from this client's address)."""
        s = self.cfg.server
        if self.draining:
            return Denied(503, "this server is restarting; connect again")
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
        refused = self.admit(ws)
        if refused is not None:
            resp = error_response(ws.url.path, refused.status, str(refused))
            return await ws.send_denial_response(resp)
        await ws.accept()
        link = WebSocketTransport(ws)
        conn = self._realtime_events(link, ws.query_params.get("model")) if realtime else \
            JsonEvents(link, self.cfg.server.max_message_bytes)
        await self._converse(conn, ws.client.host if ws.client else "", ws.client)

    def _realtime_events(self, link: Any, model: str | None) -> RealtimeEvents:
        """The Realtime API over ``link`` (a websocket, or a WebRTC call's peer)."""
        return RealtimeEvents(link, model or self.model_name)

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
            peer = RealtimePeer(first) if realtime else \
                ProtocolPeer(self.cfg.server.max_message_bytes)
            try:
                answer = await peer.answer(offer)
            except BaseException:
                await peer.close()
                raise
        except CallError as e:
            raise ApiError(400, str(e), "sdp") from None
        conn = self._realtime_events(peer, request.query_params.get("model")) if realtime else peer
        self.calls[peer.id] = peer
        addr = request.client.host if request.client else ""
        task = asyncio.create_task(self._converse(conn, addr, request.client))
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

    async def _converse(self, conn: Any, addr: str, client: Any) -> None:
        """Run one session over ``conn`` (typed events: serve/session.py) until the client
        leaves."""
        session = Session(conn, self.models, self.cfg, self.audio_burst_s)
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
            await conn.close()
            log.info("session %s closed", session.id)
