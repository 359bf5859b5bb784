"""The Realtime API over WebRTC (serve/webrtc.py), driven by a real WebRTC stack (aiortc) as
a browser would: SDP offer to ``POST /v1/realtime/calls``, a Piper-voiced question sent as Opus
media at real-time pace, the events on the data channel, the reply heard on the media track;
a barge-in that cuts the reply's audio; bad offers; the session limit; hang-up."""

from __future__ import annotations

import asyncio
import fractions
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import numpy as np
import pytest
from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import MediaStreamTrack

from tests.web.conftest import ServerThread, heard, tiny_config
from voice.audio import resample
from voice.models import Models

QUESTION = "What is the capital of France?"
MIC_RATE = 48000
FRAME = MIC_RATE // 50  # 20 ms


@pytest.fixture(scope="module")
def server(tiny_models: Models, tiny_model) -> Iterator[ServerThread]:
    cfg = tiny_config(tiny_model, "assistant.speculative=false", "server.max_sessions=2")
    with ServerThread(tiny_models, cfg, token="rtc-token") as s:
        yield s


@pytest.fixture(scope="module")
def question(tiny_models: Models) -> np.ndarray:
    tts = tiny_models.tts
    return resample(tts.synthesize(QUESTION), tts.sample_rate, MIC_RATE).astype(np.int16)


class Microphone(MediaStreamTrack):
    """A microphone as a browser's track: 20 ms frames in real time; ``say`` queues speech,
    silence otherwise."""

    kind = "audio"

    def __init__(self) -> None:
        super().__init__()
        self.pcm = np.zeros(MIC_RATE // 2, dtype=np.int16)  # half a second of quiet first
        self.sent = 0
        self.t0: float | None = None

    def say(self, pcm: np.ndarray, then_quiet_s: float = 1.5) -> None:
        self.pcm = np.concatenate([self.pcm, pcm, np.zeros(int(then_quiet_s * MIC_RATE),
                                                           dtype=np.int16)])

    async def recv(self):
        import av

        if self.t0 is None:
            self.t0 = time.monotonic()
        wait = self.t0 + self.sent / MIC_RATE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        chunk, self.pcm = self.pcm[:FRAME], self.pcm[FRAME:]
        if len(chunk) < FRAME:
            chunk = np.concatenate([chunk, np.zeros(FRAME - len(chunk), dtype=np.int16)])
        frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate, frame.pts = MIC_RATE, self.sent
        frame.time_base = fractions.Fraction(1, MIC_RATE)
        self.sent += FRAME
        return frame


class Call:
    """One WebRTC call from the caller's side: events from the data channel, audio heard."""

    def __init__(self, server: ServerThread, token: str = "rtc-token") -> None:
        self.server, self.token = server, token
        self.pc = RTCPeerConnection()
        self.mic = Microphone()
        self.pc.addTrack(self.mic)
        self.channel = self.pc.createDataChannel("oai-events")
        self.events: list[dict] = []
        self.heard: list[tuple[float, float]] = []  # (arrival time, rms) of each 20 ms heard
        self._tasks: list[asyncio.Task] = []
        self.channel.on("message", lambda m: self.events.append(json.loads(m)))
        self.pc.on("track", lambda t: self._tasks.append(asyncio.create_task(self._hear(t))))
        self.location = ""

    async def _hear(self, track) -> None:
        try:
            while True:
                f = await track.recv()
                a = f.to_ndarray().astype(np.float32)
                self.heard.append((time.monotonic(), float(np.sqrt(np.mean(a * a)))))
        except Exception:
            pass

    async def start(self) -> None:
        await self.pc.setLocalDescription(await self.pc.createOffer())
        status, headers, body = await asyncio.to_thread(
            post, self.server, "/v1/realtime/calls", self.pc.localDescription.sdp.encode(),
            "application/sdp", self.token)
        assert status == 201, body
        assert headers["Content-Type"].startswith("application/sdp")
        self.location = headers["Location"]
        await self.pc.setRemoteDescription(RTCSessionDescription(body.decode(), "answer"))

    async def until(self, kind: str, pred=lambda e: True, within: float = 90) -> dict:
        deadline = time.monotonic() + within
        seen = 0
        while time.monotonic() < deadline:
            for e in self.events[seen:]:
                if e["type"] == kind and pred(e):
                    return e
            seen = len(self.events)
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind}; had {[e['type'] for e in self.events]}")

    def send(self, event: dict) -> None:
        self.channel.send(json.dumps(event))

    def loud_since(self, t: float) -> float:
        """Seconds of audible audio heard since ``t``."""
        return 0.02 * sum(1 for at, rms in self.heard if at >= t and rms > 200)

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        await self.pc.close()


def post(server: ServerThread, path: str, body: bytes, ctype: str, token: str | None):
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=body,
                                 method="POST", headers={"Content-Type": ctype})
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def _run(coro, timeout: float = 150):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_a_spoken_turn_over_webrtc(server, question):
    async def go():
        call = Call(server)
        try:
            await call.start()
            created = await call.until("session.created")  # sent before the channel opened
            call.send({"type": "session.update",
                       "session": {"type": "realtime", "instructions": "Answer briefly."}})
            await call.until("session.updated")
            call.mic.say(question)
            done = await call.until("conversation.item.input_audio_transcription.completed")
            started = await call.until("output_audio_buffer.started")
            t_started = time.monotonic()
            resp = await call.until("response.done")
            await call.until("output_audio_buffer.stopped")
            return call, created, done, started, resp, t_started
        finally:
            await call.close()

    call, created, done, started, resp, t_started = _run(go())
    assert created["session"]["type"] == "realtime"
    assert heard(done["transcript"], QUESTION), done["transcript"]
    assert resp["response"]["status"] == "completed"
    assert started["response_id"] == resp["response"]["id"]
    kinds = [e["type"] for e in call.events]
    assert "response.output_audio.delta" not in kinds  # the audio came as media
    assert "response.output_audio_transcript.delta" in kinds
    assert call.loud_since(t_started - 0.5) > 0.3  # the reply was heard on the track
    assert call.location.startswith("/v1/realtime/calls/rtc_")


def test_barge_in_cuts_the_reply_audio(server, question):
    """Speech over a reply that is still playing stops it: the audio not yet played is
    cleared at once (the server holds the playback buffer)."""
    async def go():
        call = Call(server)
        try:
            await call.start()
            await call.until("session.created")
            call.send({"type": "conversation.item.create", "item": {
                "type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "Tell me about the planets."}]}})
            call.send({"type": "response.create"})
            started = await call.until("output_audio_buffer.started")
            await asyncio.sleep(0.3)
            call.mic.say(question, then_quiet_s=0.0)  # talk over the reply, and keep quiet
            await call.until("input_audio_buffer.speech_started")
            cleared = await call.until("output_audio_buffer.cleared")
            t_cut = time.monotonic()
            await asyncio.sleep(0.6)  # what is heard now: at most the jitter buffer's tail
            return call, started, cleared, t_cut
        finally:
            await call.close()

    call, started, cleared, t_cut = _run(go())
    assert cleared["response_id"] == started["response_id"]
    assert call.loud_since(t_cut + 0.3) == 0.0
    assert "output_audio_buffer.stopped" not in [e["type"] for e in call.events]


def test_bad_offers_are_400s_and_a_token_is_needed(server):
    status, _, body = post(server, "/v1/realtime/calls", b"hello", "application/sdp",
                           "rtc-token")
    err = json.loads(body)["error"]
    assert status == 400 and err["param"] == "sdp" and "SDP" in err["message"]
    status, _, body = post(server, "/v1/realtime/calls", b"{}", "application/json", "rtc-token")
    assert status == 400 and json.loads(body)["error"]["param"] == "sdp"
    status, _, _ = post(server, "/v1/realtime/calls", b"v=0\r\n", "application/sdp", None)
    assert status == 401
    status, _, body = post(server, "/v1/realtime/calls/rtc_nope/hangup", b"", "text/plain",
                           "rtc-token")
    assert status == 404 and json.loads(body)["error"]["param"] == "call_id"


def test_the_session_limit_holds_and_hangup_frees_a_place(server):
    async def go():
        calls = [Call(server) for _ in range(2)]
        try:
            for c in calls:
                await c.start()
                await c.until("session.created")
            extra = RTCPeerConnection()
            extra.addTrack(Microphone())
            extra.createDataChannel("oai-events")
            await extra.setLocalDescription(await extra.createOffer())
            refused = await asyncio.to_thread(post, server, "/v1/realtime/calls",
                                              extra.localDescription.sdp.encode(),
                                              "application/sdp", "rtc-token")
            hung = await asyncio.to_thread(post, server, calls[0].location + "/hangup", b"",
                                           "text/plain", "rtc-token")
            for _ in range(100):
                if len(server.server.sessions) < 2:
                    break
                await asyncio.sleep(0.05)
            again = await asyncio.to_thread(post, server, "/v1/realtime/calls",
                                            extra.localDescription.sdp.encode(),
                                            "application/sdp", "rtc-token")
            await extra.close()
            return refused, hung, again
        finally:
            for c in calls:
                await c.close()

    refused, hung, again = _run(go())
    assert refused[0] == 503 and "too many sessions" in json.loads(refused[2])["error"]["message"]
    assert hung[0] == 200
    assert again[0] == 201


def test_arrival_order_never_waits_behind_a_lost_packet():
    """The server's audio jitter buffer passes each packet on as it comes: a gap (loss) costs
    the lost packet only, never a stall; a late packet after a later one is dropped."""
    from aiortc.rtp import RtpPacket

    from serve.rtp import ArrivalOrder, listen_on_arrival

    def packet(seq: int) -> RtpPacket:
        p = RtpPacket(sequence_number=seq, timestamp=seq * 960)
        p._data = bytes([seq % 256])
        return p

    buf = ArrivalOrder()
    got = [buf.add(packet(s))[1] for s in (65534, 65535, 0, 2, 3, 1, 4)]  # wraps, 1 lost, late
    assert [f.data[0] if f else None for f in got] == [254, 255, 0, 2, 3, None, 4]
    listen_on_arrival()
    import aiortc.rtcrtpreceiver as receiver

    assert isinstance(receiver.JitterBuffer(16, 4), ArrivalOrder)
    assert not isinstance(receiver.JitterBuffer(512, is_video=True), ArrivalOrder)


def test_holes_in_the_callers_audio_are_filled_with_the_time_they_lasted():
    """A lost packet, or a caller's DTX (no packets while quiet), leaves a hole in the RTP
    timestamps: the session's stream gets that much silence, so its clock (turn ends, latency
    stamps) keeps to real time. Timestamps wrap at 32 bits; a late frame is no hole."""
    from serve.rtp import Gaps

    g = Gaps()
    start = (1 << 32) - 2 * 960  # two frames before the wrap
    seen = [g.before((start + k * 960) % (1 << 32), 960, 48000) for k in (0, 1, 2, 4, 3, 54)]
    assert seen == [0, 0, 0, 960, 0, 49 * 960]  # one lost; one late; a 0.98 s DTX silence
    assert g.before(None, 960, 48000) == 0
    assert Gaps().before(0, 960, 48000) == 0
    far = Gaps()
    far.before(0, 960, 48000)
    assert far.before(48000 * 60, 960, 48000) == 0  # a minute: a restarted stream, not a hole


def test_the_reply_track_plays_every_reply_whatever_its_length():
    """Each reply's first frame goes as soon as it is queued, after the track has gone quiet
    between replies (DTX) or while its silent tail still plays, and the reply is drained at its
    end. A reply exactly a whole number of frames long once left the track waiting for ever
    (quiet, yet still 'playing'): every later reply of the call was silent."""
    from serve.webrtc import FRAME_S, TRACK_RATE, ReplyTrack

    n = int(TRACK_RATE * FRAME_S)

    async def go() -> tuple[list, list, list]:
        drained: list[float] = []
        track = ReplyTrack(lambda: drained.append(time.monotonic()))
        track.QUIET_TAIL_S = 0.1
        heard: list[tuple[float, int]] = []

        async def pull() -> None:
            while True:
                frame = await track.recv()
                loud = int((np.abs(frame.to_ndarray()) > 0).sum())
                if loud:
                    heard.append((time.monotonic(), loud))

        puller = asyncio.ensure_future(pull())
        queued = []
        # whole frames; after the quiet tail (DTX); one sample over; inside the tail; whole again
        for length, pause in ((5 * n, 0.4), (3 * n, 0.4), (2 * n + 1, 0.4), (n, 0.15),
                              (4 * n, 0.4)):  # fmt: skip
            await asyncio.sleep(pause)
            queued.append((time.monotonic(), length))
            track.queue(np.full(length, 1000, dtype=np.int16), TRACK_RATE)
        await asyncio.sleep(0.4)
        puller.cancel()
        return queued, heard, drained

    queued, heard, drained = _run(go())
    assert sum(loud for _, loud in heard) == sum(length for _, length in queued)
    assert len(drained) == len(queued)
    for at, _ in queued:  # each reply's first frame: at once, not a frame or a pause later
        first = min(t for t, _ in heard if t >= at)
        assert first - at < 0.015, first - at
