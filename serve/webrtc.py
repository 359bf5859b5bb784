"""WebRTC for the Realtime API: OpenAI's SDP exchange at ``POST /v1/realtime/calls``.

A browser (or any WebRTC client) posts its SDP offer; the answer comes back at once (``201``,
``application/sdp``, ``Location: /v1/realtime/calls/{id}``) and the call is one Realtime session,
the same as a websocket on ``/v1/realtime`` (same pipeline, turn detection, barge-in and
limits), with the transport OpenAI's WebRTC calls use:

- **audio in and out as media** (Opus, with the browser's own echo cancellation, jitter buffer
  and loss concealment): the caller's track is decoded, resampled and fed to the session as its
  microphone; the reply leaves on our audio track, paced in real time (silence between replies);
- **events on the data channel** the caller opens (``oai-events`` in OpenAI's examples; any
  label): every client event of the websocket API, and every server event except the audio
  itself (``response.output_audio.delta`` travels as media), plus WebRTC's
  ``output_audio_buffer.started`` / ``.stopped`` / ``.cleared`` server events and the
  ``output_audio_buffer.clear`` client event (cut the reply audio now). A cancelled response
  (``response.cancel``, a barge-in) clears the audio not yet played, and so does the caller
  starting to speak while a reply is still playing (the server holds the playback buffer, so
  it stops it, as OpenAI's WebRTC calls do).

The offer may be the raw SDP (``Content-Type: application/sdp``) or a multipart form with ``sdp``
and ``session`` (a session configuration, applied as the first ``session.update``), as OpenAI
accepts. ``POST /v1/realtime/calls/{id}/hangup`` ends a call; so does closing the peer connection.

The page uses the same transport for **our own protocol** (docs/protocol.md) at ``POST /rtc``
(:class:`ProtocolPeer`): its events on the data channel exactly as on ``/ws``, the microphone
and the reply as media instead of binary frames. The server plays the reply, so it also knows
when the reply has been heard: it sends the session ``playback.done`` itself when the track has
played a reply to its end, and ``reply.audio.stop`` (a barge-in) silences the track at once.
"""

from __future__ import annotations

import asyncio
import fractions
import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np
from aiortc.mediastreams import MediaStreamTrack

from serve import protocol as p
from serve.protocol import ProtocolError, encode
from serve.rtp import Gaps, listen_on_arrival, speak_low_delay
from serve.session import read_message

log = logging.getLogger("diffvoice.webrtc")

RATE = 24000  # the Realtime session's audio rate (in and out)
# Our track's rate: Opus's own. aiortc's encoder re-frames 48 kHz audio as it is, but resamples
# anything else through a filter that holds back a whole 20 ms frame (measured: 20 ms more
# from the reply's first sample to the caller's ear at 24 kHz).
TRACK_RATE = 48000
FRAME_S = 0.02  # one Opus frame
MAX_SDP_BYTES = 64 << 10


class CallError(ValueError):
    """An offer this server cannot answer (HTTP 400)."""


class ReplyTrack(MediaStreamTrack):
    """Our audio track: the reply's PCM, paced in real time. Between replies it goes quiet the
    way Opus's DTX does: ``QUIET_TAIL_S`` of silence frames after each reply (and at the start
    of the call), then no packets at all until the next reply, whose first frame goes at once
    with its RTP timestamp where the wall clock has got to (a receiver sees a talkspurt after a
    gap, as from any browser with DTX on). Encoding and encrypting 50 silent frames a second,
    on both ends, cost the server and its caller CPU that the next turn's ASR and LLM wait for
    on a small machine."""

    kind = "audio"
    QUIET_TAIL_S = 0.5

    def __init__(self, on_drained: Callable[[], None]) -> None:
        super().__init__()
        self._pcm = np.zeros(0, dtype=np.int16)
        self._start: float | None = None
        self._sent = 0  # samples sent so far, the gaps included (the frames' pts)
        self._quiet_from = 0  # the pts where the track last fell silent
        self._on_drained = on_drained
        self._resampler = None  # to TRACK_RATE, kept across a reply's chunks
        self._wake = asyncio.Event()
        self.playing = False

    def queue(self, pcm: np.ndarray, rate: int) -> None:
        """Play ``pcm`` (int16 mono at ``rate``) after what is queued."""
        from voice.audio import LowDelayResampler

        if self._resampler is None or self._resampler.from_rate != rate:
            self._resampler = LowDelayResampler(rate, TRACK_RATE)
        if not self.playing and not len(self._pcm):  # a reply starts: on the next frame,
            self._wake.set()  # not after the silence frame (or the pause) now being waited out
        self._pcm = np.concatenate([self._pcm, self._resampler.process(pcm)])
        self.playing = True

    def clear(self) -> None:
        """Drop what is not played yet."""
        self._pcm = np.zeros(0, dtype=np.int16)
        if self.playing:
            self._quiet_from = self._sent
        self.playing = False

    async def _wait(self, seconds: float | None) -> bool:
        """Wait ``seconds`` (None: for ever) or until a reply is queued; True if one was."""
        self._wake.clear()
        try:
            await asyncio.wait_for(self._wake.wait(), seconds)
            return True
        except TimeoutError:
            return False

    async def recv(self):
        import av

        n = int(TRACK_RATE * FRAME_S)
        now = time.monotonic()
        if self._start is None:
            self._start = now
        elif (not self.playing and not len(self._pcm)
              and self._sent - self._quiet_from >= self.QUIET_TAIL_S * TRACK_RATE):
            await self._wait(None)  # DTX: nothing goes out until the next reply
            elapsed = int((time.monotonic() - self._start) * TRACK_RATE)
            self._sent = max(self._sent, elapsed - elapsed % n)  # its timestamp: now
            self._start = time.monotonic() - self._sent / TRACK_RATE
        else:
            wait = self._start + self._sent / TRACK_RATE - now
            if wait > 0 and await self._wait(wait):  # a reply starts meanwhile: it goes now,
                self._start = time.monotonic() - self._sent / TRACK_RATE  # the clock restarts
        chunk, self._pcm = self._pcm[:n], self._pcm[n:]
        if len(chunk) < n:
            chunk = np.concatenate([chunk, np.zeros(n - len(chunk), dtype=np.int16)])
        if self.playing and not len(self._pcm):  # this frame ends what is queued
            self.playing = False
            self._quiet_from = self._sent + n
            self._on_drained()
        frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = TRACK_RATE
        frame.pts = self._sent
        frame.time_base = fractions.Fraction(1, TRACK_RATE)
        self._sent += n
        return frame


class Peer:
    """One call's peer connection as a session's connection: ``send`` (server messages),
    ``async for`` (client messages), ``close``. The subclasses say what audio is on each side."""

    def __init__(self, first_session: dict | None = None) -> None:
        from aiortc import RTCPeerConnection

        listen_on_arrival()
        speak_low_delay()
        self.id = "rtc_" + uuid.uuid4().hex[:20]
        self.pc = RTCPeerConnection()
        self.reply = ReplyTrack(self._drained)
        self.pc.addTrack(self.reply)
        self.channel = None
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._outbox: list[str] = []  # server events before the data channel opened
        self._tasks: list[asyncio.Task] = []
        self.closed = False
        if first_session is not None:
            self._inbox.put_nowait(json.dumps({"type": "session.update",
                                               "session": first_session}))
        self.pc.on("datachannel", self._on_channel)
        self.pc.on("track", self._on_track)
        self.pc.on("connectionstatechange", self._on_state)

    # --- signalling ---------------------------------------------------------------------------
    async def answer(self, offer_sdp: str) -> str:
        from aiortc import RTCSessionDescription

        try:
            await self.pc.setRemoteDescription(RTCSessionDescription(offer_sdp, "offer"))
        except Exception as e:  # a malformed offer: aiortc's parser says why
            raise CallError(f"the SDP offer cannot be used: {e}") from None
        if not any(t.kind == "audio" for t in self.pc.getTransceivers()):
            raise CallError("the SDP offer has no audio")
        await self.pc.setLocalDescription(await self.pc.createAnswer())  # gathers candidates
        return self.pc.localDescription.sdp

    # --- the peer's events --------------------------------------------------------------------
    def _on_channel(self, channel) -> None:
        if self.channel is not None:
            return  # events go on the first channel the caller opens
        self.channel = channel
        channel.on("message", self._on_message)
        channel.on("close", lambda: self._inbox.put_nowait(None))
        if channel.readyState == "open":
            self._flush()
        else:
            channel.on("open", self._flush)

    def _flush(self) -> None:
        for message in self._outbox:
            self.channel.send(message)
        self._outbox.clear()

    def _on_message(self, message: str | bytes) -> None:
        self._inbox.put_nowait(message)

    def _on_track(self, track) -> None:
        if track.kind == "audio":
            self._tasks.append(asyncio.create_task(self._listen(track)))

    in_rate = RATE  # the rate the session wants the caller's audio at

    async def _listen(self, track) -> None:
        """The caller's microphone, 20 ms at a time, to :meth:`_heard`."""
        import av
        from aiortc.mediastreams import MediaStreamError

        rate = self.in_rate
        resampler = av.AudioResampler(format="s16", layout="mono", rate=rate)
        gaps = Gaps()
        try:
            while True:
                frame = await track.recv()
                if rate != self.in_rate:  # the session asked for another rate
                    rate = self.in_rate
                    resampler = av.AudioResampler(format="s16", layout="mono", rate=rate)
                missing = gaps.before(frame.pts, frame.samples, frame.sample_rate)
                if missing:  # lost packets, or a caller's DTX: the time passed all the same
                    self._heard(bytes(2 * round(missing * rate / frame.sample_rate)))
                for out in resampler.resample(frame):
                    self._heard(out.to_ndarray().reshape(-1).astype("<i2").tobytes())
        except MediaStreamError:
            pass  # the caller's track ended

    def _heard(self, pcm: bytes) -> None:
        raise NotImplementedError

    def _on_state(self) -> None:
        if self.pc.connectionState in ("failed", "closed"):
            self._inbox.put_nowait(None)

    # --- the session's side -------------------------------------------------------------------
    def __aiter__(self) -> Peer:
        return self

    async def __anext__(self) -> str | bytes:
        message = await self._inbox.get()
        if message is None or self.closed:
            raise StopAsyncIteration
        return message

    async def send(self, message: str | bytes) -> None:
        if self.closed:
            from websockets.exceptions import ConnectionClosed

            raise ConnectionClosed(None, None)
        self._sent(message)

    def _sent(self, message: str | bytes) -> None:
        raise NotImplementedError

    def _deliver(self, message: str) -> None:
        if self.channel is not None and self.channel.readyState == "open":
            self.channel.send(message)
        else:
            self._outbox.append(message)

    def _drained(self) -> None:
        """The reply track has played all it was given."""

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self._inbox.put_nowait(None)
        for t in self._tasks:
            t.cancel()
        await self.pc.close()


class RealtimePeer(Peer):
    """The Realtime API's WebRTC call: the media is the session's audio itself (the microphone
    as PCM16 at the session's input rate, the reply through :meth:`play`: no base64 events
    either way), the rest on the data channel. The input rate is the session's
    (``session.created`` / ``.updated`` say it)."""

    _response: str | None = None  # the response whose audio is playing

    def _on_message(self, message: str | bytes) -> None:
        if isinstance(message, str):
            try:
                ev = json.loads(message)
            except ValueError:
                ev = None
            if isinstance(ev, dict) and ev.get("type") == "output_audio_buffer.clear":
                self._cut()
                return
        self._inbox.put_nowait(message)

    media = True  # the session's audio is raw PCM16 both ways (serve/realtime.py)

    def _heard(self, pcm: bytes) -> None:
        self._inbox.put_nowait(pcm)  # the microphone, at the session's input rate

    def play(self, pcm: bytes, rate: int, response_id: str) -> None:
        """Reply audio of ``response_id`` (PCM16 at ``rate``) to the caller's ear."""
        if not self.reply.playing:
            self._response = response_id
            self._event("output_audio_buffer.started", response_id=response_id)
        self.reply.queue(np.frombuffer(pcm, dtype="<i2"), rate)

    def _sent(self, message: str | bytes) -> None:
        self._deliver(message)
        ev = json.loads(message)  # a few events a turn: the audio never comes this way
        kind = ev.get("type")
        if kind in ("session.created", "session.updated"):
            audio = ev.get("session", {}).get("audio", {})
            self.in_rate = audio.get("input", {}).get("format", {}).get("rate", self.in_rate)
        elif kind == "response.done" and ev.get("response", {}).get("status") == "cancelled":
            self._cut()
        elif kind == "input_audio_buffer.speech_started" and self.reply.playing:
            self._cut()  # the caller talks over the reply: stop it

    def _event(self, kind: str, **fields: Any) -> None:
        self._deliver(json.dumps({"type": kind, "event_id": "event_" + uuid.uuid4().hex[:20],
                                  **fields}))

    def _cut(self) -> None:
        self.reply.clear()
        self._event("output_audio_buffer.cleared", response_id=self._response)

    def _drained(self) -> None:
        self._event("output_audio_buffer.stopped", response_id=self._response)


class ProtocolPeer(Peer):
    """Our own protocol over WebRTC (the page's default), as the session's connection (typed
    events, as :class:`serve.session.JsonEvents` on ``/ws``): its events on the data channel as
    on ``/ws``; the microphone (16 kHz PCM16 to the session) and the reply (PCM16 from it) as
    media."""

    in_rate = 16000

    def __init__(self, max_message_bytes: int) -> None:
        super().__init__()
        self.max_message_bytes = max_message_bytes
        self._ending: int | None = None  # the turn whose reply.audio.end came, until played

    def _on_message(self, message: str | bytes) -> None:
        if isinstance(message, str):  # audio comes as media here
            self._inbox.put_nowait(message)

    def _heard(self, pcm: bytes) -> None:
        self._inbox.put_nowait(pcm)

    async def __anext__(self) -> Any:
        while True:
            message = await super().__anext__()
            if isinstance(message, bytes | p.PlaybackDone):  # the microphone; the track's end
                return message
            try:
                ev = read_message(message, self.max_message_bytes)
            except ProtocolError as e:
                return e
            if isinstance(ev, p.SessionConfig):  # the track's rate, whatever the page's is
                return ev.model_copy(update={"output_sample_rate": TRACK_RATE})
            if not isinstance(ev, p.PlaybackDone):  # the server plays it, and says so itself
                return ev

    def _sent(self, item: Any) -> None:
        if isinstance(item, bytes):
            self.reply.queue(np.frombuffer(item, dtype="<i2"), TRACK_RATE)
            return
        self._deliver(encode(item))
        if isinstance(item, p.ReplyAudioEnd):
            self._ending = item.turn
            if not self.reply.playing:
                self._drained()
        elif isinstance(item, p.ReplyAudioStop):
            self.reply.clear()
            self._ending = None

    def _drained(self) -> None:
        if self._ending is not None:
            self._inbox.put_nowait(p.PlaybackDone(turn=self._ending))
            self._ending = None


async def read_offer(request: Any) -> tuple[str, dict | None]:
    """(SDP offer, session configuration or None) from a ``POST /v1/realtime/calls``."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_SDP_BYTES:
        raise CallError(f"the offer is over {MAX_SDP_BYTES} bytes")
    session = None
    if ctype == "multipart/form-data":
        form = await request.form(max_files=2, max_fields=4)
        sdp, raw = form.get("sdp"), form.get("session")
        sdp = (await sdp.read()).decode() if hasattr(sdp, "read") else sdp
        raw = (await raw.read()).decode() if hasattr(raw, "read") else raw
        if raw:
            try:
                session = json.loads(raw)
            except ValueError:
                raise CallError("the session field is not JSON") from None
            if not isinstance(session, dict):
                raise CallError("the session field is a JSON object")
    elif ctype in ("application/sdp", "text/plain", ""):
        body = await request.body()
        if len(body) > MAX_SDP_BYTES:
            raise CallError(f"the offer is over {MAX_SDP_BYTES} bytes")
        sdp = body.decode("utf-8", "replace")
    else:
        raise CallError("send the SDP offer as application/sdp or multipart/form-data "
                        "(fields sdp and session)")
    if not isinstance(sdp, str) or not sdp.lstrip().startswith("v=0"):
        raise CallError("the body is not an SDP offer (it starts with v=0)")
    return sdp, session
