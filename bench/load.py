"""Load test of ``diffvoice serve``: N websocket sessions streaming real speech at real-time pace.

Starts the server in a subprocess on a free loopback port, then for each session count in
``--sessions`` (default 1,2,4,8) opens that many websocket sessions for ``--seconds``. Each one
is a microphone that never stops: it streams the bundled spoken prompts one after another at
real-time pace, with silence while it waits for an answer and between questions, exactly as the
page does (20 ms PCM16 frames, so the server's stream clock is the client's wall clock).

Every utterance the server detects (``speech.stopped``) is followed by its turn id to an
outcome: answered (reply audio arrived), silent (an empty reply: nothing to say aloud), error
(``turn_failed``), interrupted (speech that went on barged into it; the server carries it into
the next turn), or busy. A turn with no outcome within 30 s is lost, and so is a prompt the
server never heard. Latency is what the user feels: the audible end of the prompt (the end of
its last 10 ms frame within 35 dB of the loudest, found in the audio the client sent, on the
client's clock) to the first audible reply sample at the client (-60 dBFS; when it plays, the
reply played from its first frame as that arrived). The old figure, from the
server's end of speech (``speech_end_ms``), is kept as "VAD p50". The client sends
``playback.done`` as soon as a reply's audio has arrived: it plays nothing, so the assistant is
silent again at once. With ``--protocols ws,realtime`` the same questions go to ``/ws`` and to
``/v1/realtime`` (OpenAI's Realtime API: 24 kHz PCM16 in base64 ``input_audio_buffer.append``
events, server VAD), timed the same way to the first ``response.output_audio.delta``; as that API
has no ``playback.done``, both clients then let each answer play out before the next question,
and the two take turns in slices of about 20 s (a shared machine's load then weighs on both).
``webrtc`` is the page's WebRTC call (``POST /rtc``; aiortc as the browser): the microphone as an
Opus track, timed to the first reply audio heard on the reply track (its first sample above
-60 dBFS, as for the other protocols); ``webrtc_lossy`` the same with ``--loss`` (2 %) of the
RTP packets dropped each way in the client, as a lossy network would. The clients share the
server's cores here; ``--client-nice 10`` gives them a lower CPU priority, as users' browsers
on their own machines would take none of the server's (aiortc, as a browser, costs 9 % of a core
at idle where a websocket client costs 1 %, and slowed the server's Piper and Whisper by
~25 ms a turn); a client held back can only hear the reply later, never sooner.

Prints a table (p50/p90 latency, outcomes, server memory now and at peak) and a final JSON
line. Traffic stays on 127.0.0.1 and every loop is bounded in count and time.

``--api`` measures the OpenAI-compatible text API instead (``diffvoice api`` in a subprocess):
for each client count in ``--clients`` (default 1,8,32,64), that many clients of the official
async ``openai`` client (no retries) each stream ``--requests`` chat completions one after
another, all clients at once. It reports p50/p90 time to the first chunk and to the first text,
errors, and the speed-up in requests per second over the same requests sent one at a time.

    python bench/load.py --sessions 1,2,4,8 --seconds 60
    python bench/load.py --sessions 1,4 --protocols ws,realtime   # the same latency, both
    python bench/load.py --sessions 1 --protocols ws,webrtc,webrtc_lossy --client-nice 10
    python bench/load.py --sessions 1,4 --asr-server   # ASR served by a second process
    python bench/load.py --api --clients 1,8,32,64 --requests 3
    python bench/load.py --cluster --sessions 1,4,8,16   # diffvoice cluster against serve
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import json
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voice.audio import SAMPLE_RATE, read_wav, resample  # noqa: E402
from voice.vad import audible_end, segment  # noqa: E402

FRAME = SAMPLE_RATE // 50  # 20 ms, as the page sends
SILENCE = np.zeros(FRAME, dtype=np.int16).tobytes()
PROTOCOLS = ("ws", "realtime", "webrtc", "webrtc_lossy")
REALTIME_RATE = 24000  # the Realtime API's default PCM rate, which its clients send
TURN_TIMEOUT_S = 30.0  # a turn without an outcome this long after its prompt ends is lost
UNHEARD_AFTER_S = 5.0  # a prompt with no speech.stopped this long after it ends was not heard
GAP_S = 0.5  # silence between an answer and the next question
STAGGER_S = 0.25  # sessions start this far apart, not in lockstep
OUTCOMES = ("answered", "silent", "error", "interrupted", "busy")
AUDIBLE = 33  # |sample| of int16 reply audio that is heard: -60 dBFS


@dataclass
class Clip:
    name: str
    audio: np.ndarray  # int16, with silence before and after
    audible_end: int = -1  # samples into ``audio`` where it stops being audible (-1: find it)

    def __post_init__(self) -> None:
        if self.audible_end < 0:
            self.audible_end = audible_end(self.audio)

    def at(self, rate: int) -> Clip:
        """The same clip at ``rate`` (resampled whole, as a microphone at that rate records it)."""
        if rate == SAMPLE_RATE:
            return self
        return Clip(self.name, resample(self.audio, SAMPLE_RATE, rate),
                    round(self.audible_end * rate / SAMPLE_RATE))


@dataclass
class Turn:
    """One utterance the server detected, followed to its outcome."""

    speech_end: float  # client clock
    first_audio: float | None = None
    outcome: str | None = None
    stages_ms: dict = field(default_factory=dict)  # the server's turn.metrics latency_ms
    audio_rate: int = 0  # reply audio: its sample rate and how many samples arrived
    audio_samples: int = 0
    first_frame: float | None = None  # when its first reply frame arrived: playback starts

    def heard(self, pcm: np.ndarray, now: float) -> None:
        """A frame of reply audio arrived at ``now``. ``first_audio`` is when its first
        audible sample (-60 dBFS) plays: a reply played from its first frame as it arrived, a
        frame no sooner than it arrived. Timing the first *audible* sample, not the first frame
        (which may open with Piper's near-silent lead-in), makes every transport measure the
        same moment: a websocket's frames come faster than real time, a WebRTC track's as they
        play."""
        rate = self.audio_rate or SAMPLE_RATE
        if self.first_frame is None:
            self.first_frame = now
        if self.first_audio is None:
            loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) >= AUDIBLE)
            if len(loud):
                at = loud[0]
                self.first_audio = max(self.first_frame + (self.audio_samples + at) / rate,
                                       now + at / rate)
        self.audio_samples += len(pcm)

    def played_at(self) -> float | None:
        """When its reply has finished playing, played from its first frame as it arrived."""
        start = self.first_frame if self.first_frame is not None else self.first_audio
        if start is None or not self.audio_rate:
            return None
        return start + self.audio_samples / self.audio_rate


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)  # from the audible end
    by_clip_ms: dict[str, list[float]] = field(  # the same, by prompt
        default_factory=lambda: collections.defaultdict(list)
    )
    stages_ms: dict[str, list[float]] = field(  # the server's own stage times, answered turns
        default_factory=lambda: collections.defaultdict(list)
    )
    vad_latencies_ms: list[float] = field(default_factory=list)  # from the server's speech_end
    clips: int = 0  # prompts spoken
    turns: int = 0  # utterances the server detected
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    lost: int = 0  # turns with no outcome in time
    unheard: int = 0  # prompts the server never detected
    protocol_errors: int = 0  # error events not tied to a turn (should never happen)
    sessions_failed: int = 0  # connections refused or dropped
    # per session (by connection): the server's CPU-seconds for its jobs and its audio seconds,
    # as its latest turn.metrics said (session_cpu_s, session_audio_s)
    session_cpu: dict = field(default_factory=dict)
    # each answered prompt: its latency and the server's stage times (where a slow one waited)
    turn_log: list[dict] = field(default_factory=list)
    audio_s: float = 0.0  # microphone audio the sessions streamed, all of them

    def outcome_row(self) -> dict:
        """The level's counts and latency percentiles, as every table row of a load bench
        starts."""
        return {
            "prompts": self.clips,
            "turns": self.turns,
            **{k: self.outcomes[k] for k in OUTCOMES},
            "lost": self.lost,
            "unheard": self.unheard,
            "protocol_errors": self.protocol_errors,
            "sessions_failed": self.sessions_failed,
            "p50_ms": pct(self.latencies_ms, 50),
            "p90_ms": pct(self.latencies_ms, 90),
        }

    def cpu_per_audio_s(self) -> float | None:
        """CPU-seconds the server spent per second of a session's audio, over all sessions."""
        cpu = sum(c for c, a in self.session_cpu.values())
        audio = sum(a for c, a in self.session_cpu.values())
        return round(cpu / audio, 3) if audio else None


def load_clips() -> list[Clip]:
    clips = []
    for wav in sorted((ROOT / "voice" / "assets" / "prompts").glob("*.wav")):
        audio = read_wav(wav)
        if not segment(audio):
            continue
        pad = np.zeros(SAMPLE_RATE // 2, dtype=np.int16)
        clips.append(Clip(wav.stem, np.concatenate([pad, audio])))
    return clips


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) MB of the server process."""
    out = {"VmRSS:": 0.0, "VmHWM:": 0.0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key = line.split(":")[0] + ":"
            if key in out:
                out[key] = round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return out["VmRSS:"], out["VmHWM:"]


class Conversation:
    """One websocket session: a microphone at real-time pace, and a receiver that follows every
    turn by its id (events of a turn can arrive while the next prompt is already playing).

    ``plays``: the user listens to each answer before the next question, as on the page: the
    client waits until the reply would have finished playing (from its first frame, as it
    arrived) and only then sends ``playback.done``. Without it, ``playback.done`` goes as soon
    as the reply's audio has arrived and the next question follows."""

    def __init__(self, ws, st: Stats, rate: int = SAMPLE_RATE, plays: bool = False) -> None:
        self.ws, self.st, self.plays = ws, st, plays
        self.rate, self.frame = rate, rate // 50  # the microphone: 20 ms frames at ``rate``
        self.turns: dict[int, Turn] = {}
        self.audio_turn: int | None = None  # binary frames belong to this turn
        self.t0 = 0.0  # client time of stream sample 0
        self.sent = 0  # samples sent
        self.busy = False
        self.clock, self.sleep = time.perf_counter, asyncio.sleep  # replaceable in tests

    async def receive(self) -> None:
        async for msg in self.ws:
            now = self.clock()
            if isinstance(msg, bytes):
                t = self.turns.get(self.audio_turn) if self.audio_turn is not None else None
                if t is not None:
                    t.heard(np.frombuffer(msg, dtype="<i2"), now)
                continue
            ev = json.loads(msg)
            kind, turn = ev.get("type"), ev.get("turn")
            if kind == "speech.stopped":
                self.turns[turn] = Turn(self.t0 + ev["speech_end_ms"] / 1000.0)
            elif kind == "reply.audio.start":
                self.audio_turn = turn
                if turn in self.turns:
                    self.turns[turn].audio_rate = ev.get("sample_rate") or 0
            elif kind == "reply.audio.stop":
                self.audio_turn = None  # frames still arriving for it are dropped
            elif kind == "reply.audio.end":
                self.audio_turn = None
                if not self.plays:  # else when it has played (speak)
                    await self.ws.send(json.dumps({"type": "playback.done", "turn": turn}))
            elif kind == "reply.interrupted":
                self._resolve(turn, "interrupted")
            elif kind == "turn.metrics":
                t = self.turns.get(turn)
                self._resolve(turn, "answered" if t and t.first_frame else "silent")
                if t is not None:
                    t.stages_ms = ev.get("latency_ms") or {}
                stats = ev.get("stats") or {}
                if "session_cpu_s" in stats:
                    self.st.session_cpu[id(self)] = (stats["session_cpu_s"],
                                                     stats.get("session_audio_s") or 0.0)
            elif kind == "error":
                if ev.get("code") == "turn_failed" and turn in self.turns:
                    self._resolve(turn, "error")
                elif ev.get("code") == "busy":
                    self.busy = True
                else:
                    self.st.protocol_errors += 1
                    print(f"load: error event {ev}", file=sys.stderr)

    def _resolve(self, turn: int | None, outcome: str) -> None:
        t = self.turns.get(turn) if turn is not None else None
        if t is not None and t.outcome is None:
            t.outcome = outcome

    async def _send(self, chunk: bytes) -> None:
        """Send one frame when its time has come: the stream never runs ahead of real time."""
        delay = self.t0 + self.sent / self.rate - self.clock()
        if delay > 0:
            await self.sleep(delay)
        await self.ws.send(chunk)
        self.sent += len(chunk) // 2

    async def speak(self, clips: list[Clip], first: int, deadline: float) -> int:
        """Ask prompt after prompt until ``deadline``, from ``clips[first]``; tally each
        prompt's turns. Returns the index of the prompt that would come next."""
        st, frame = self.st, self.frame
        silence = np.zeros(frame, dtype=np.int16).tobytes()
        self.t0 = self.clock()
        k = first
        while self.clock() < deadline:
            clip = clips[k % len(clips)]
            k += 1
            st.clips += 1
            before = set(self.turns)
            heard_end = self.t0 + (self.sent + clip.audible_end) / self.rate
            for i in range(0, len(clip.audio), frame):
                await self._send(clip.audio[i : i + frame].tobytes())
            ended = self.clock()
            while True:  # silence, as a microphone sends, until the answer is complete
                new = [t for n, t in self.turns.items() if n not in before]
                now = self.clock()
                if new and all(t.outcome for t in new):
                    break
                if now > ended + TURN_TIMEOUT_S or (not new and now > ended + UNHEARD_AFTER_S):
                    break
                await self._send(silence)
            if not new:
                st.unheard += 1
            if self.plays:  # listen to the answer to the end
                played = {n: t.played_at() for n, t in self.turns.items()
                          if n not in before and t.outcome == "answered"}
                end = max((p for p in played.values() if p is not None), default=0.0)
                while self.clock() < end:
                    await self._send(silence)
                for n in played:
                    await self.ws.send(json.dumps({"type": "playback.done", "turn": n}))
            for t in new:
                st.turns += 1
                if t.outcome is None:
                    st.lost += 1
                    continue
                st.outcomes[t.outcome] += 1
                if t.outcome == "answered" and t.first_audio is not None:
                    st.vad_latencies_ms.append((t.first_audio - t.speech_end) * 1000.0)
                    if t is new[-1]:  # the turn that ends where the prompt stops being audible
                        st.latencies_ms.append((t.first_audio - heard_end) * 1000.0)
                        st.by_clip_ms[clip.name].append(st.latencies_ms[-1])
                        st.turn_log.append({"clip": clip.name, "ms": round(st.latencies_ms[-1]),
                                            "stages_ms": t.stages_ms})
                        for stage, ms in t.stages_ms.items():
                            st.stages_ms[stage].append(ms)
            for _ in range(round(GAP_S * 50)):
                await self._send(silence)
        return k


class RealtimeAsOurs:
    """A /v1/realtime connection seen through our protocol, so :class:`Conversation` measures
    both the same way: microphone frames (PCM16 at ``rate``, the Realtime default 24 kHz) go out
    as base64 ``input_audio_buffer.append`` events; Realtime events come back as the events
    Conversation follows (``speech.stopped`` with the server's ``audio_end_ms``, each
    ``response.output_audio.delta`` as a binary frame, ``response.done`` as ``turn.metrics``,
    or ``reply.interrupted`` / a ``turn_failed`` error by its status).

    The Realtime API has no ``playback.done``: its server takes reply audio as playing from
    when it is sent, for as long as it lasts, and speech over it is a barge-in. So a Realtime
    conversation always plays its replies out (``Conversation(plays=True)``), as a Realtime
    client does."""

    def __init__(self, ws, rate: int = REALTIME_RATE) -> None:
        self.ws, self.rate = ws, rate
        self.out_rate = 24000  # the Realtime default, until session.updated says otherwise
        self.turn = 0
        self.response_turn: dict[str, int] = {}
        self.pending: list[str | bytes] = []

    async def start(self) -> None:
        fmt = {"type": "audio/pcm", "rate": self.rate}
        await self.ws.send(json.dumps({"type": "session.update", "session": {
            "type": "realtime", "audio": {"input": {"format": fmt,
                                                    "turn_detection": {"type": "server_vad"}}}}}))

    async def send(self, message: str | bytes) -> None:
        if isinstance(message, bytes):
            audio = base64.b64encode(message).decode()
            await self.ws.send(json.dumps({"type": "input_audio_buffer.append", "audio": audio}))
        # playback.done has no Realtime counterpart: nothing is sent

    def __aiter__(self):
        return self

    async def __anext__(self) -> str | bytes:
        import websockets

        while not self.pending:
            try:  # a websockets connection is iterated by an async generator: no __anext__
                message = await self.ws.recv()
            except websockets.exceptions.ConnectionClosedOK:
                raise StopAsyncIteration from None
            ours = self.translate(json.loads(message))
            self.pending += [m if isinstance(m, bytes) else json.dumps(m) for m in ours]
        return self.pending.pop(0)

    def translate(self, ev: dict) -> list[dict | bytes]:
        kind = ev["type"]
        if kind == "session.updated":
            self.out_rate = ev["session"]["audio"]["output"]["format"]["rate"]
        elif kind == "input_audio_buffer.speech_stopped":
            self.turn += 1
            return [{"type": "speech.stopped", "turn": self.turn,
                     "speech_end_ms": ev["audio_end_ms"]}]
        if kind == "response.created":
            self.response_turn[ev["response"]["id"]] = self.turn
        elif kind == "response.output_audio.delta":
            turn = self.response_turn.get(ev["response_id"])
            return [{"type": "reply.audio.start", "turn": turn, "sample_rate": self.out_rate},
                    base64.b64decode(ev["delta"])]
        elif kind == "response.done":
            turn = self.response_turn.pop(ev["response"]["id"], None)
            status = ev["response"]["status"]
            if status == "completed":
                ours = ev["response"].get("metadata", {}).get("diffvoice", {})
                return [{"type": "reply.audio.end", "turn": turn},
                        {"type": "turn.metrics", "turn": turn,
                         "latency_ms": ours.get("latency_ms", {}), "stats": ours.get("stats", {})}]
            if status == "cancelled":
                return [{"type": "reply.interrupted", "turn": turn}]
            if status == "failed":
                return [{"type": "error", "code": "turn_failed", "turn": turn}]
        elif kind == "error":
            err = ev.get("error", {})
            if err.get("code") != "turn_failed":  # that one is the response.done just above
                return [{"type": "error", "code": err.get("code"), "turn": None,
                         "message": err.get("message")}]
        return []


class WebRTCAsOurs:
    """A WebRTC call to ``POST /rtc`` (the page's transport: our protocol on a data channel,
    audio as media), seen as our websocket so that :class:`Conversation` measures it as it
    measures ``/ws``: microphone frames go out as an Opus track at the pace Conversation sends
    them; the events come from the data channel; the reply track's frames come back as binary
    frames from the first audible one (above -50 dBFS) after ``reply.audio.start``, so the
    latency is to the first reply audio the caller hears. The server plays the reply itself,
    so ``reply.audio.end`` is passed on when the track has gone quiet after it (the reply has
    played out), and the next question never talks over the last answer.

    ``loss``: the fraction of RTP packets dropped at random, both ways, in this process (a lossy
    network as the client sees it: Opus packets lost on the way up and on the way down)."""

    QUIET = 100.0  # RMS of int16 samples: -50 dBFS (played out: this quiet for 200 ms)
    HEARD_RATE = 48000  # the reply track's audio, as passed on (Opus's own rate)
    PLAYED_OUT_S = 0.2  # quiet this long after the reply: it has played out

    def __init__(self, url: str, loss: float = 0.0, seed: int = 0) -> None:
        self.url, self.loss = url, loss
        self.rng = np.random.default_rng(seed)
        from voice.audio import LowDelayResampler

        self.pending: asyncio.Queue = asyncio.Queue()
        self.mic: asyncio.Queue = asyncio.Queue()
        self.up = LowDelayResampler(SAMPLE_RATE, 48000)  # the microphone, as a browser's
        self.expect: int | None = None  # reply.audio.start seen for this turn
        self.hearing = False  # its first audible frame has come
        self.last_loud = self.end_at = 0.0
        # reply.audio.end and later events of the turn, held until the reply has played out
        # (the events outrun the audio, which plays in real time)
        self.held: list[str] = []
        self.end: dict | None = None
        self.dropped = self.rtp = 0
        self.pc = self.channel = None
        self.tasks: list[asyncio.Task] = []

    async def __aenter__(self) -> WebRTCAsOurs:
        from aiortc import RTCPeerConnection, RTCSessionDescription
        from aiortc.mediastreams import MediaStreamTrack

        outer = self

        class Mic(MediaStreamTrack):
            kind = "audio"

            def __init__(self) -> None:
                super().__init__()
                self.pts = 0

            async def recv(self):
                import fractions

                import av

                # A browser captures at 48 kHz, Opus's rate, which aiortc's encoder takes as it
                # is (any other rate it resamples through a filter holding back 20 ms).
                pcm = outer.up.process(await outer.mic.get())
                if self.pts == 0:  # the resampler's first output is short by its lookahead:
                    # start with that much silence, or aiortc's encoder, which cuts 20 ms
                    # frames from the stream, would hold back 18 ms of every chunk (measured)
                    pcm = np.concatenate([np.zeros(-len(pcm) % 960, np.int16), pcm])
                frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16",
                                                   layout="mono")
                frame.sample_rate, frame.pts = 48000, self.pts
                frame.time_base = fractions.Fraction(1, 48000)
                self.pts += len(pcm)
                return frame

        from serve.rtp import listen_on_arrival

        listen_on_arrival()  # as a browser's NetEq would: no stall behind a lost packet
        self.pc = RTCPeerConnection()
        self.pc.addTrack(Mic())
        self.channel = self.pc.createDataChannel("events")
        opened = asyncio.get_running_loop().create_future()
        self.channel.on("open", lambda: opened.done() or opened.set_result(None))
        self.channel.on("message", self._event)
        self.channel.on("close", lambda: self.pending.put_nowait(None))
        self.pc.on("track", lambda t: self.tasks.append(asyncio.create_task(self._hear(t))))
        await self.pc.setLocalDescription(await self.pc.createOffer())
        status, body = await asyncio.to_thread(self._post, self.pc.localDescription.sdp)
        if status != 201:
            await self.pc.close()
            raise ConnectionError(f"POST /rtc answered {status}: {body[:200]}")
        await self.pc.setRemoteDescription(RTCSessionDescription(body, "answer"))
        await asyncio.wait_for(opened, 30)
        if self.loss:
            self._lossy()
        self.tasks.append(asyncio.create_task(self._played_out()))
        return self

    def _post(self, sdp: str) -> tuple[int, str]:
        import urllib.error
        import urllib.request

        req = urllib.request.Request(self.url, data=sdp.encode(), method="POST",
                                     headers={"Content-Type": "application/sdp"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def _lossy(self) -> None:
        """Drop ``loss`` of the RTP packets this side sends and receives (not RTCP, not the
        data channel's)."""
        from aiortc.rtp import is_rtcp

        dtls = self.pc.getSenders()[0].transport
        send, handle = dtls._send_rtp, dtls._handle_rtp_data

        async def send_lossy(data: bytes) -> None:
            if not is_rtcp(data):
                self.rtp += 1
                if self.rng.random() < self.loss:
                    self.dropped += 1
                    return
            await send(data)

        async def handle_lossy(data: bytes, arrival_time_ms: int) -> None:
            self.rtp += 1
            if self.rng.random() < self.loss:
                self.dropped += 1
                return
            await handle(data, arrival_time_ms)

        dtls._send_rtp, dtls._handle_rtp_data = send_lossy, handle_lossy

    def _event(self, message: str | bytes) -> None:
        if not isinstance(message, str):
            return
        ev = json.loads(message)
        kind = ev.get("type")
        if kind == "reply.audio.start":
            self.expect, self.hearing, self.end = ev.get("turn"), False, None
            ev["sample_rate"] = self.HEARD_RATE  # the rate _hear passes the track's audio on at
            message = json.dumps(ev)
        elif kind == "reply.audio.end" and self.expect is not None:
            self.end, self.end_at = ev, time.perf_counter()  # passed on once played out
            self.held.append(message)
            return
        elif kind == "reply.audio.stop":
            self.expect, self.hearing, self.end = None, False, None
            self._release()
        elif self.expect is not None and ev.get("turn") == self.expect and kind in (
                "turn.metrics", "reply.text", "reply.interrupted"):  # fmt: skip
            self.held.append(message)
            return
        self.pending.put_nowait(message)

    def _release(self) -> None:
        for m in self.held:
            self.pending.put_nowait(m)
        self.held.clear()

    async def _hear(self, track) -> None:
        """The reply track as a browser hears it, passed on from its first audible sample. Its
        decoded frames (48 kHz, Opus's rate) are taken as they are: one channel, no resampling,
        and nothing at all is done with the frames between replies (this client shares the
        server's CPU; a browser would not)."""
        while True:
            try:
                frame = await track.recv()
            except Exception:
                return
            if self.expect is None:
                continue
            a = frame.to_ndarray()
            n = len(frame.layout.channels)
            pcm = (a[0] if a.shape[0] == n and n > 1 else a.reshape(-1)[::n]).astype(np.int16)
            if not self.hearing and not (np.abs(pcm.astype(np.int32)) >= AUDIBLE).any():
                continue  # the track's silence before the reply's first audible sample
            self.hearing = True
            self.pending.put_nowait(pcm.tobytes())
            if float(np.sqrt(np.mean(pcm.astype(np.float32) ** 2))) > self.QUIET:
                self.last_loud = time.perf_counter()

    async def _played_out(self) -> None:
        """A reply has played out when its track has been quiet (or silent: the server sends no
        packets between replies) for ``PLAYED_OUT_S`` after its ``reply.audio.end``."""
        while True:
            await asyncio.sleep(0.02)
            if self.end is not None and time.perf_counter() - max(
                    self.last_loud, self.end_at) >= self.PLAYED_OUT_S:  # fmt: skip
                self._release()
                self.expect, self.hearing, self.end = None, False, None

    async def recv(self) -> str:
        message = await self.pending.get()
        if message is None:
            raise ConnectionError("the call ended")
        return message

    async def send(self, message: str | bytes) -> None:
        if isinstance(message, bytes):
            self.mic.put_nowait(np.frombuffer(message, dtype=np.int16))
        else:  # playback.done: the server knows when the track has played; it ignores ours
            self.channel.send(message)

    def __aiter__(self):
        return self

    async def __anext__(self) -> str | bytes:
        message = await self.pending.get()
        if message is None:
            raise StopAsyncIteration
        return message

    async def __aexit__(self, *exc) -> None:
        for t in self.tasks:
            t.cancel()
        await self.pc.close()


async def connect(url: str):
    """A websocket to the server; a 503 is asked again for up to 5 s, as the sessions of the
    level before (or of the warm-up) may still be closing on the server."""
    import websockets

    for attempt in range(10):
        try:
            return await websockets.connect(url, max_size=2**24)
        except websockets.exceptions.InvalidStatus as e:
            if e.response.status_code != 503 or attempt == 9:
                raise
            await asyncio.sleep(0.5)


async def session(
    url: str, clips: list[Clip], deadline: float, idx: int, st: Stats, plays: bool = False,
    first: int | None = None,
) -> int:
    """One user until ``deadline``, asking from ``clips[first]`` (default: ``idx``); on
    /v1/realtime ``clips`` are at :data:`REALTIME_RATE` and the replies are always played out
    (``plays``: on /ws too). Returns the index of the prompt it would have asked next."""
    import websockets

    first = idx if first is None else first

    await asyncio.sleep(idx * STAGGER_S)
    conv: Conversation | None = None
    realtime = url.endswith("/v1/realtime")
    rtc = "/rtc" in url
    try:
        if rtc:
            base, _, loss = url.partition("#loss=")
            link = WebRTCAsOurs(base, float(loss or 0), seed=idx)
        else:
            link = await connect(url)
        async with link as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if hello.get("type") != ("session.created" if realtime else "session.started"):
                st.sessions_failed += 1
                return first
            if realtime:
                ws = RealtimeAsOurs(ws)
                await ws.start()
            conv = Conversation(ws, st, REALTIME_RATE if realtime else SAMPLE_RATE,
                                plays=plays or realtime)
            if rtc:  # the server plays the reply: its reply.audio.end comes when played out
                conv.plays = False
            rx = asyncio.create_task(conv.receive())
            tx = asyncio.create_task(conv.speak(clips, first, deadline))
            try:  # the microphone runs to the deadline, unless the receiver stops first
                await asyncio.wait([rx, tx], return_when=asyncio.FIRST_COMPLETED)
                if rx.done() and not tx.done():
                    tx.cancel()
                    if rx.exception() is None:
                        raise websockets.exceptions.ConnectionClosedError(None, None)
                    raise rx.exception()
                return tx.result()
            finally:
                rx.cancel()
                tx.cancel()
                st.audio_s += conv.sent / conv.rate
    except websockets.exceptions.InvalidStatus as e:  # refused at the handshake
        st.sessions_failed += 1
        if e.response.status_code == 503:
            st.outcomes["busy"] += 1
        print(f"load: session {idx} refused ({e.response.status_code})", file=sys.stderr)
    except Exception as e:  # dropped, timed out, or a bug in the client: never silent
        st.sessions_failed += 1
        if conv is not None and conv.busy:
            st.outcomes["busy"] += 1
        else:
            print(f"load: session {idx}: {type(e).__name__}: {e}", file=sys.stderr)
        if conv is not None:  # turns it was waiting for are lost
            st.lost += sum(t.outcome is None for t in conv.turns.values())
    return first


def pct(v: list[float], q: float) -> float | None:
    return round(float(np.percentile(v, q)), 1) if v else None


class ServerProcess:
    """``diffvoice serve`` (or ``command``) in a subprocess; its output is drained by a thread
    (a full pipe would stall the server) and the tail is kept for when something goes wrong."""

    def __init__(self, port: int, sets: list[str], command: str = "serve") -> None:
        cmd = [sys.executable, "-m", "cli", command, "--port", str(port)]
        for s in sets:
            cmd += ["--set", s]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.tail: collections.deque[str] = collections.deque(maxlen=40)
        self.ready = threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.tail.append(line.rstrip())
            if ": open http" in line:
                self.ready.set()
        self.ready.set()  # exited

    def wait_ready(self, timeout: float) -> bool:
        return self.ready.wait(timeout) and self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """Ask it to stop (SIGTERM), kill it after ``timeout``; then any process it started
        that is still there (a local Ray cluster's)."""
        import psutil

        try:
            family = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            family = []
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _, alive = psutil.wait_procs(family, timeout=5)
        for p in alive:
            p.kill()


# --- adversarial mode (--adversarial): hostile and careless clients beside normal users --------
ADVERSARIES = ("burst_pause", "square_wave", "never_reads", "idle")
RSS_EVERY_S = 5.0


@dataclass
class Adversary:
    """What one adversarial client did, and what the server told it about its CPU use."""

    kind: str
    connections: int = 0
    closed_by_server: collections.Counter = field(default_factory=collections.Counter)
    audio_s: float = 0.0  # microphone audio it sent
    worker_s: float | None = None  # its session's Whisper/Piper worker time (turn.metrics)
    cpu_s: float | None = None  # and the server's CPU time for those jobs
    server_audio_s: float | None = None
    turns: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)


def speech_audio(clips: list[Clip]) -> np.ndarray:
    """The prompts' speech, without the silence around it, back to back."""
    parts = []
    for c in clips:
        loud = np.nonzero(np.abs(c.audio.astype(np.int32)) > 500)[0]
        if len(loud):
            parts.append(c.audio[loud[0] : loud[-1] + 1])
    return np.concatenate(parts)


def burst_pause_audio(speech: np.ndarray, seconds: float = 20.0) -> np.ndarray:
    """300 ms of speech, 200 ms of silence, for ``seconds``: a pause at every half second that
    asks for speculative recognition, never long enough to end the turn."""
    burst, pause = int(0.3 * SAMPLE_RATE), np.zeros(int(0.2 * SAMPLE_RATE), dtype=np.int16)
    parts = []
    for i in range(int(seconds / 0.5)):
        start = (i * burst) % (len(speech) - burst)
        parts += [speech[start : start + burst], pause]
    return np.concatenate(parts)


def square_wave(seconds: float, hz: float = 440.0) -> np.ndarray:
    """Full-scale square wave. webrtcvad calls 200-1000 Hz speech (4 kHz, which made the old
    temperature fallback re-decode for 9.5 s, is not speech to it), so this one makes turns:
    a forced endpoint every vad.max_utterance_ms, each a long utterance for Whisper."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return np.where(np.sin(2 * np.pi * hz * t + 0.1) >= 0, 32767, -32767).astype(np.int16)


async def _adversary_reader(ws, adv: Adversary) -> None:
    async for msg in ws:
        if isinstance(msg, bytes):
            continue
        ev = json.loads(msg)
        if ev.get("type") == "turn.metrics":
            adv.turns += 1
            stats = ev.get("stats", {})
            adv.worker_s = stats.get("session_worker_s", adv.worker_s)
            adv.cpu_s = stats.get("session_cpu_s", adv.cpu_s)
            adv.server_audio_s = stats.get("session_audio_s", adv.server_audio_s)
        elif ev.get("type") == "error":
            adv.errors[ev.get("code")] += 1


async def _stream_forever(url: str, audio: np.ndarray, deadline: float, adv: Adversary) -> None:
    """Send ``audio`` in a loop at real-time pace until ``deadline``, reading every event."""
    import websockets

    while time.perf_counter() < deadline:
        try:
            async with websockets.connect(url, max_size=2**24) as ws:
                adv.connections += 1
                rx = asyncio.create_task(_adversary_reader(ws, adv))
                t0, sent = time.perf_counter(), 0
                try:
                    while time.perf_counter() < deadline:
                        chunk = audio[sent % len(audio) :][:FRAME]
                        delay = t0 + sent / SAMPLE_RATE - time.perf_counter()
                        if delay > 0:
                            await asyncio.sleep(delay)
                        await ws.send(chunk.tobytes())
                        sent += len(chunk)
                        adv.audio_s += len(chunk) / SAMPLE_RATE
                finally:
                    rx.cancel()
        except websockets.exceptions.ConnectionClosed as e:
            adv.closed_by_server[e.rcvd.code if e.rcvd else 1006] += 1
        except (OSError, websockets.exceptions.InvalidStatus):
            await asyncio.sleep(1.0)


async def _never_reads(url: str, deadline: float, adv: Adversary) -> None:
    """Asks for 192 kHz audio, types a question every 3 s, never reads; reconnects if closed."""
    import websockets

    while time.perf_counter() < deadline:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", _port_of(url)))
            async with websockets.connect(url, sock=sock, max_queue=1, max_size=2**24) as ws:
                adv.connections += 1
                await ws.send(json.dumps({"type": "session.config", "output_sample_rate": 192000}))
                while time.perf_counter() < deadline:
                    await ws.send(json.dumps({"type": "text.input", "text": "tell me a joke"}))
                    await asyncio.sleep(3.0)
        except websockets.exceptions.ConnectionClosed as e:
            adv.closed_by_server[e.rcvd.code if e.rcvd else 1006] += 1
        except (OSError, websockets.exceptions.InvalidStatus, TimeoutError):
            sock.close()
            await asyncio.sleep(1.0)


async def _idle(url: str, deadline: float, adv: Adversary) -> None:
    """Holds a session and says nothing; reconnects if the server closes it."""
    import websockets

    while time.perf_counter() < deadline:
        try:
            async with websockets.connect(url, max_size=2**24) as ws:
                adv.connections += 1
                await asyncio.wait_for(_adversary_reader(ws, adv), deadline - time.perf_counter())
        except websockets.exceptions.ConnectionClosed as e:
            adv.closed_by_server[e.rcvd.code if e.rcvd else 1006] += 1
        except TimeoutError:
            return
        except (OSError, websockets.exceptions.InvalidStatus):
            await asyncio.sleep(1.0)


def _port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    try:
        fields_ = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields_[11]) + int(fields_[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class RssSampler:
    """The server's RSS every few seconds, labelled with the phase it was taken in."""

    def __init__(self, pid: int) -> None:
        self.pid, self.samples = pid, []  # (seconds since start, phase, MB)
        self.phase = "start"
        self._stop = threading.Event()
        self._t0 = time.perf_counter()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(RSS_EVERY_S):
            self.sample()

    def sample(self) -> float:
        mb = rss_mb(self.pid)[0]
        self.samples.append((round(time.perf_counter() - self._t0, 1), self.phase, mb))
        return mb

    def stop(self) -> None:
        self._stop.set()


async def adversarial_phase(
    url: str, clips: list[Clip], seconds: float, users: int, kinds: tuple[str, ...]
) -> tuple[Stats, list[Adversary]]:
    """``users`` normal conversations for ``seconds``, beside one adversary of each of
    ``kinds`` (none: unloaded)."""
    st = Stats()
    advs = [Adversary(k) for k in kinds]
    deadline = time.perf_counter() + seconds
    speech = speech_audio(clips)
    jobs = [session(url, clips, deadline, i, st) for i in range(users)]
    for adv in advs:
        if adv.kind == "burst_pause":
            jobs.append(_stream_forever(url, burst_pause_audio(speech), deadline, adv))
        elif adv.kind == "square_wave":
            jobs.append(_stream_forever(url, square_wave(10.0), deadline, adv))
        elif adv.kind == "never_reads":
            jobs.append(_never_reads(url, deadline, adv))
        else:
            jobs.append(_idle(url, deadline, adv))
    await asyncio.gather(*jobs)
    return st, advs


def adversarial_main(args: argparse.Namespace) -> int:
    """Unloaded, then the same normal users beside one adversary of each kind, then after."""
    clips = load_clips()
    port = free_port()
    server = ServerProcess(port, ["server.max_sessions=16", *args.set])
    try:
        if not server.wait_ready(1800):  # a busy shared machine loads the models slowly
            print("load: the server did not start:", *server.tail, sep="\n", file=sys.stderr)
            return 1
        url = f"ws://127.0.0.1:{port}/ws"
        pid = server.proc.pid
        rss = RssSampler(pid)
        rows = []
        print(
            f"{'phase':>9} {'turns':>6} {'answered':>8} {'lost':>5} {'p50 ms':>7} {'p90 ms':>7} "
            f"{'RSS MB':>7} {'CPU s':>6} {'audio s':>7} {'CPU/aud':>7} {'user CPU/aud':>12}"
        )
        for phase, kinds in (("unloaded", ()), ("loaded", args.adversaries)):
            rss.phase = phase
            rss.sample()
            cpu0 = proc_cpu_s(pid)
            st, advs = asyncio.run(
                adversarial_phase(url, clips, args.seconds, args.users, kinds)
            )
            cpu = proc_cpu_s(pid) - cpu0
            mb = rss.sample()
            audio = args.seconds * args.users + sum(a.audio_s for a in advs)
            row = {
                "phase": phase, "turns": st.turns, "answered": st.outcomes["answered"],
                "lost": st.lost + st.unheard, "p50_ms": pct(st.latencies_ms, 50),
                "p90_ms": pct(st.latencies_ms, 90), "rss_mb": mb, "server_cpu_s": round(cpu, 1),
                "audio_s": round(audio, 1),
                "server_cpu_per_audio_s": round(cpu / audio, 2) if audio else None,
                "user_cpu_per_audio_s": st.cpu_per_audio_s(),
                "latencies_ms": [round(x) for x in st.latencies_ms],
                # the normal users' server-side stage times: where a slow turn spent its time
                "server_stages_p50_ms": {k: pct(v, 50) for k, v in st.stages_ms.items()},
                "server_stages_p90_ms": {k: pct(v, 90) for k, v in st.stages_ms.items()},
                "slowest_turns": sorted(st.turn_log, key=lambda r: -r["ms"])[:3],
                "adversaries": {
                    a.kind: {
                        "connections": a.connections,
                        "closed_by_server": dict(a.closed_by_server),
                        "audio_s": round(a.audio_s, 1),
                        "turns": a.turns,
                        "errors": dict(a.errors),
                        "worker_s": a.worker_s,
                        "cpu_s": a.cpu_s,
                        "cpu_s_per_audio_s": (
                            round(a.cpu_s / a.server_audio_s, 3)
                            if a.cpu_s is not None and a.server_audio_s
                            else None
                        ),
                        "worker_s_per_audio_s": (
                            round(a.worker_s / a.server_audio_s, 3)
                            if a.worker_s is not None and a.server_audio_s
                            else None
                        ),
                    }
                    for a in advs
                },
            }
            rows.append(row)
            print(
                f"{phase:>9} {st.turns:>6} {row['answered']:>8} {row['lost']:>5} "
                f"{row['p50_ms'] or '-':>7} {row['p90_ms'] or '-':>7} {mb:>7} "
                f"{row['server_cpu_s']:>6} {row['audio_s']:>7} "
                f"{row['server_cpu_per_audio_s'] or '-':>7} "
                f"{row['user_cpu_per_audio_s'] or '-':>12}",
                flush=True,
            )
            print(f"{'':>9}   user stages p50/p90 ms: " + ", ".join(
                f"{k} {row['server_stages_p50_ms'][k]}/{v}"
                for k, v in row["server_stages_p90_ms"].items()
            ), flush=True)
            for r in row["slowest_turns"]:
                print(f"{'':>9}   slow: {r['ms']} ms {r['clip']}: " + ", ".join(
                    f"{k} {v}" for k, v in r["stages_ms"].items()), flush=True)
            for kind, a in row["adversaries"].items():
                print(f"{'':>9}   {kind}: {json.dumps(a)}", flush=True)
            if server.proc.poll() is not None:
                print("load: the server died:", *server.tail, sep="\n", file=sys.stderr)
                return 1
        rss.phase = "after"
        time.sleep(10.0)
        after = rss.sample()
        rss.stop()
        base, loaded = rows
        print("server RSS over time:", ", ".join(f"{t:g}s {p} {m:g} MB" for t, p, m in rss.samples))
        ratio = (
            round(loaded["p50_ms"] / base["p50_ms"], 2)
            if loaded["p50_ms"] and base["p50_ms"] else None
        )
        growth = round(loaded["rss_mb"] - base["rss_mb"], 1)
        ratio90 = (
            round(loaded["p90_ms"] / base["p90_ms"], 2)
            if loaded["p90_ms"] and base["p90_ms"] else None
        )
        verdict = {
            "adversaries": list(args.adversaries),
            "p50_loaded_over_unloaded": ratio,
            "p90_loaded_over_unloaded": ratio90,
            "rss_growth_mb": growth,
            "rss_after_mb": after,
            # a normal user's turns, typical and slow ones alike, within 2x of unloaded
            "within_2x": ratio is not None and ratio <= 2.0 and ratio90 is not None
            and ratio90 <= 2.0,
            "rss_within_150mb": growth <= 150.0,
        }
        print(json.dumps({"phases": rows, "rss": rss.samples, **verdict}))
        return 0 if verdict["within_2x"] and verdict["rss_within_150mb"] else 1
    finally:
        server.stop()


# --- API mode -------------------------------------------------------------------------------
API_QUESTIONS = [
    "What is seven times eight?", "What is the capital of France?", "Who are you?",
    "How many minutes are in an hour?", "What is the capital of Japan?", "What is ten plus five?",
    "Spell cat.", "What is nine times six?",
]


@dataclass
class ApiStats:
    first_chunk_ms: list[float] = field(default_factory=list)  # request sent → first chunk
    first_text_ms: list[float] = field(default_factory=list)  # request sent → first text
    errors: collections.Counter = field(default_factory=collections.Counter)
    done: int = 0


async def api_client(client, model: str, k: int, requests: int, max_tokens: int,
                     st: ApiStats) -> None:
    """One client: ``requests`` streamed completions, one after another."""
    import openai

    for j in range(requests):
        q = API_QUESTIONS[(k + j) % len(API_QUESTIONS)]
        t0 = time.perf_counter()
        first = text = None
        try:
            stream = await client.chat.completions.create(
                model=model, messages=[{"role": "user", "content": q}], stream=True,
                max_tokens=max_tokens,
            )
            async for chunk in stream:
                now = time.perf_counter()
                first = first or now
                if text is None and chunk.choices and chunk.choices[0].delta.content:
                    text = now
            st.done += 1
            st.first_chunk_ms.append((first - t0) * 1000.0)
            if text is not None:
                st.first_text_ms.append((text - t0) * 1000.0)
        except openai.APIError as e:
            st.errors[type(e).__name__] += 1
            print(f"load: client {k} request {j}: {type(e).__name__}: {e}", file=sys.stderr)


async def api_level(base_url: str, model: str, clients: int, requests: int,
                    max_tokens: int) -> tuple[ApiStats, float]:
    import httpx2 as httpx  # the openai client's own HTTP library
    from openai import AsyncOpenAI

    st = ApiStats()
    # One connection per client, as that many separate programs would open.
    limits = httpx.Limits(max_connections=clients + 8, max_keepalive_connections=clients + 8)
    async with AsyncOpenAI(
        base_url=base_url, api_key="bench", max_retries=0, timeout=600,
        http_client=httpx.AsyncClient(limits=limits, timeout=600),
    ) as client:
        t0 = time.perf_counter()
        await asyncio.gather(
            *(api_client(client, model, k, requests, max_tokens, st) for k in range(clients))
        )
        wall = time.perf_counter() - t0
    return st, wall


def api_main(args) -> int:
    try:
        counts = [int(x) for x in args.clients.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1 or max(counts) > 256 or not 1 <= args.requests <= 20:
        print("load: --clients must be 1..256 and --requests 1..20", file=sys.stderr)
        return 2
    port = free_port()
    batch = max(8, max(counts))
    server = ServerProcess(
        port, [f"engine.max_batch_size={batch}", *args.set], command="api"
    )
    try:
        if not server.wait_ready(args.start_timeout):
            print("load: the server did not start:", *server.tail, sep="\n", file=sys.stderr)
            return 1
        from openai import OpenAI

        base_url = f"http://127.0.0.1:{port}/v1"
        with OpenAI(base_url=base_url, api_key="bench", max_retries=0) as c:
            model = c.models.list().data[0].id  # the served id, asked as integrators do
        # Warm up, then the baseline: the same requests one at a time.
        asyncio.run(api_level(base_url, model, 1, 2, args.max_tokens))
        seq_n = max(8, args.requests)
        seq, seq_wall = asyncio.run(api_level(base_url, model, 1, seq_n, args.max_tokens))
        seq_rate = seq.done / seq_wall
        print(f"sequential: {seq.done} requests in {seq_wall:.2f} s = {seq_rate:.2f} req/s, "
              f"first text p50 {pct(seq.first_text_ms, 50)} ms")
        print(f"{'clients':>7} {'requests':>8} {'errors':>6} {'wall s':>7} {'req/s':>6} "
              f"{'speed-up':>8} {'chunk p50':>9} {'chunk p90':>9} {'text p50':>8} {'text p90':>8}")
        rows = []
        for n in counts:
            st, wall = asyncio.run(api_level(base_url, model, n, args.requests, args.max_tokens))
            rate = st.done / wall
            row = {
                "clients": n, "requests": n * args.requests, "completed": st.done,
                "errors": sum(st.errors.values()), "error_kinds": dict(st.errors),
                "wall_s": round(wall, 2), "req_per_s": round(rate, 2),
                "speedup": round(rate / seq_rate, 2),
                "first_chunk_p50_ms": pct(st.first_chunk_ms, 50),
                "first_chunk_p90_ms": pct(st.first_chunk_ms, 90),
                "first_text_p50_ms": pct(st.first_text_ms, 50),
                "first_text_p90_ms": pct(st.first_text_ms, 90),
            }
            rows.append(row)
            print(f"{n:>7} {row['requests']:>8} {row['errors']:>6} {wall:>7.2f} {rate:>6.2f} "
                  f"{row['speedup']:>8} {row['first_chunk_p50_ms']:>9} "
                  f"{row['first_chunk_p90_ms']:>9} {row['first_text_p50_ms']:>8} "
                  f"{row['first_text_p90_ms']:>8}", flush=True)
        print(json.dumps({
            "mode": "api", "model": model, "max_tokens": args.max_tokens,
            "sequential_req_per_s": round(seq_rate, 2), "levels": rows,
            "errors_total": sum(r["errors"] for r in rows),
        }))
        return 0 if all(r["errors"] == 0 for r in rows) else 1
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", default=None,
                    help="comma-separated session counts (1,2,4,8; with --cluster 1,4,8,16)")
    ap.add_argument("--seconds", type=float, default=60.0, help="per session count (≤ 600)")
    ap.add_argument("--set", action="append", default=[], help="config override for the server")
    ap.add_argument(
        "--adversarial", action="store_true",
        help="--users normal users for --seconds unloaded, then again beside one adversary of "
        "each kind (burst-pause speech, square wave, never reads, idle); compares latency/RSS",
    )
    ap.add_argument("--users", type=int, default=1, help="normal users in --adversarial mode")
    ap.add_argument("--adversaries", default=",".join(ADVERSARIES),
                    help="--adversarial: which kinds, one client of each (default: all)")
    ap.add_argument("--api", action="store_true", help="load the OpenAI text API instead")
    ap.add_argument(
        "--cluster", action="store_true",
        help="diffvoice cluster (a local Ray cluster) against plain serve in the same run "
        "(bench/cluster_load.py)",
    )
    ap.add_argument("--asr", type=int, default=2, help="--cluster: ASR replicas")
    ap.add_argument("--cluster-set", action="append", default=[],
                    help="--cluster: config override for the cluster only")
    ap.add_argument(
        "--protocols", default="ws",
        help="ws, realtime (OpenAI Realtime at /v1/realtime), webrtc (the page's WebRTC call at "
        "/rtc) and webrtc_lossy (the same with --loss of its RTP packets dropped), any of them: "
        "ws,realtime,webrtc,webrtc_lossy",
    )
    ap.add_argument("--loss", type=float, default=0.02,
                    help="webrtc_lossy: the fraction of RTP packets dropped, each way")
    ap.add_argument(
        "--asr-server", action="store_true",
        help="speech recognition served by a second process (asr.url), as on another machine",
    )
    ap.add_argument(
        "--client-nice", type=int, default=0, metavar="N",
        help="run the clients at this much lower CPU priority than the server (0..19): users' "
        "browsers are on their own machines, and an aiortc client here takes 9 %% of a core "
        "from the server it measures (a websocket client 1 %%); its timing can only be later",
    )
    ap.add_argument("--clients", default="1,8,32,64", help="--api: comma-separated client counts")
    ap.add_argument("--requests", type=int, default=3, help="--api: streamed requests per client")
    ap.add_argument("--max-tokens", type=int, default=32, help="--api: max_tokens per request")
    ap.add_argument("--start-timeout", type=float, default=600.0,
                    help="seconds to wait for the server to load its models")
    args = ap.parse_args(argv)
    if not 0 <= args.client_nice <= 19:
        print("load: --client-nice must be 0..19", file=sys.stderr)
        return 2
    if args.adversarial:
        if not 1 <= args.users <= 8 or not 10 <= args.seconds <= 600:
            print("load: --users must be 1..8 and --seconds 10..600", file=sys.stderr)
            return 2
        kinds = tuple(k for k in args.adversaries.split(",") if k)
        if not kinds or set(kinds) - set(ADVERSARIES):
            print(f"load: --adversaries takes some of {','.join(ADVERSARIES)}", file=sys.stderr)
            return 2
        args.adversaries = kinds
        return adversarial_main(args)
    if args.api:
        return api_main(args)
    try:
        default = "1,4,8,16" if args.cluster else "1,2,4,8"
        counts = [int(x) for x in (args.sessions or default).split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1 or max(counts) > 64 or not 1 <= args.seconds <= 600:
        print("load: --sessions must be 1..64 and --seconds 1..600", file=sys.stderr)
        return 2
    if args.cluster:
        if not 1 <= args.asr <= 16:
            print("load: --asr must be 1..16", file=sys.stderr)
            return 2
        from bench.cluster_load import main as cluster_main

        return cluster_main(args, counts)
    protocols = [p.strip() for p in args.protocols.split(",") if p.strip()]
    if not protocols or not set(protocols) <= set(PROTOCOLS):
        print(f"load: --protocols takes some of {','.join(PROTOCOLS)}", file=sys.stderr)
        return 2
    if not 0.0 <= args.loss < 0.5:
        print("load: --loss must be in [0, 0.5)", file=sys.stderr)
        return 2

    def url_of(proto: str) -> str:
        if proto.startswith("webrtc"):
            lossy = f"#loss={args.loss}" if proto == "webrtc_lossy" else ""
            return f"http://127.0.0.1:{port}/rtc{lossy}"
        return f"ws://127.0.0.1:{port}" + ("/v1/realtime" if proto == "realtime" else "/ws")

    clips = load_clips()
    port = free_port()
    sets = [f"server.max_sessions={max(counts)}", *args.set]
    asr_server = None
    if args.asr_server:  # a second diffvoice serve whose /v1/audio/transcriptions does the ASR
        asr_port = free_port()
        asr_server = ServerProcess(asr_port, args.set)
        if not asr_server.wait_ready(600):
            print("load: the ASR server did not start:", *asr_server.tail, sep="\n",
                  file=sys.stderr)
            asr_server.stop()
            return 1
        sets.append(f'asr.url="http://127.0.0.1:{asr_port}/v1"')
    server = ServerProcess(port, sets)
    try:
        if not server.wait_ready(600):
            print("load: the server did not start:", *server.tail, sep="\n", file=sys.stderr)
            return 1
        rows = []
        if args.client_nice:  # after the server started: it keeps its own priority
            os.nice(args.client_nice)
        print(
            f"{'protocol':>8} {'sessions':>8} {'prompts':>7} {'turns':>6} {'answered':>8} "
            f"{'silent':>6} "
            f"{'errors':>6} {'interr.':>7} {'busy':>5} {'lost':>5} {'unheard':>7} "
            f"{'p50 ms':>7} {'p90 ms':>7} {'VAD p50':>7} {'RSS MB':>7} {'peak MB':>7} "
            f"{'CPU/aud':>7}"
        )
        rt_clips = [c.at(REALTIME_RATE) for c in clips]  # what a 24 kHz microphone records
        by_clip: dict[tuple[str, int], dict[str, list[float]]] = {}
        # Beside a Realtime client, which must let each answer play out (that API has no
        # playback.done), the /ws client does too: both ask the same questions at the same pace.
        plays = bool({"realtime", "webrtc", "webrtc_lossy"} & set(protocols))
        if {"webrtc", "webrtc_lossy"} & set(protocols):
            # aiortc, standing in for the browser, decodes the reply on a thread and hands each
            # frame to the event loop; at Python's default 5 ms GIL switch interval a hand-off
            # waits up to 5 ms behind the loop's other work. A browser's media stack has no
            # GIL: switch sooner, so the client's own hand-offs are not timed as the server's.
            sys.setswitchinterval(0.001)
        # One question first, not counted: the first turns of a fresh server are slower (lazy
        # loading, first-call caches), and whichever protocol went first would pay for them.
        for proto in protocols:
            cs = rt_clips if proto == "realtime" else clips
            asyncio.run(session(url_of(proto), cs, time.perf_counter() + 1.0, 0, Stats()))
        # Side by side, the protocols take turns in slices of about 20 s, so that a machine
        # whose load changes over the minute (a shared one) weighs on both alike.
        rounds = max(1, round(args.seconds / 20)) if len(protocols) > 1 else 1
        stats: dict[tuple[str, int], Stats] = {}
        for n in counts:
            nxt = {p: list(range(n)) for p in protocols}  # each user's next prompt
            for _ in range(rounds):
                for proto in protocols:
                    st = stats.setdefault((proto, n), Stats())
                    url = url_of(proto)
                    cs = rt_clips if proto == "realtime" else clips

                    async def run(n: int = n, st: Stats = st, url: str = url, cs=cs,
                                  first: list[int] = nxt[proto]) -> list[int]:
                        deadline = time.perf_counter() + args.seconds / rounds
                        return await asyncio.gather(
                            *(session(url, cs, deadline, i, st, plays, first[i])
                              for i in range(n))
                        )

                    nxt[proto] = asyncio.run(run())
                    if server.proc.poll() is not None:
                        print("load: the server died:", *server.tail, sep="\n", file=sys.stderr)
                        return 1
            for proto in protocols:  # the level's rows, once all its slices ran
                st = stats[proto, n]
                rss, peak = rss_mb(server.proc.pid)
                row = {
                    "protocol": proto,
                    "sessions": n,
                    **st.outcome_row(),
                    "vad_end_p50_ms": pct(st.vad_latencies_ms, 50),
                    # The server's clock, from the audible end it found, on the prompts' last turns.
                    "server_stages_p50_ms": {k: pct(v, 50) for k, v in st.stages_ms.items()},
                    "server_rss_mb": rss,
                    "server_peak_rss_mb": peak,
                    "cpu_s_per_audio_s": st.cpu_per_audio_s(),  # per session, its jobs' CPU
                }
                rows.append(row)
                by_clip[proto, n] = st.by_clip_ms
                print(
                    f"{proto:>8} {n:>8} {st.clips:>7} {st.turns:>6} {row['answered']:>8} "
                    f"{row['silent']:>6} "
                    f"{row['error']:>6} {row['interrupted']:>7} {row['busy']:>5} {st.lost:>5} "
                    f"{st.unheard:>7} {row['p50_ms'] or '-':>7} {row['p90_ms'] or '-':>7} "
                    f"{row['vad_end_p50_ms'] or '-':>7} "
                    f"{rss:>7} {peak:>7} {row['cpu_s_per_audio_s'] or '-':>7}",
                    flush=True,
                )
        crossing = next((r["sessions"] for r in rows if (r["p90_ms"] or 0) > 2000), None)
        gaps: dict[str, dict] = {}  # each protocol minus /ws, p50 at each session count
        pairs: dict[str, dict] = {}  # ... and the median over prompts of each prompt's gap
        for other in protocols:
            if other == "ws" or "ws" not in protocols:
                continue
            gap, paired = gaps.setdefault(other, {}), pairs.setdefault(other, {})
            for n in counts:
                by = {r["protocol"]: r["p50_ms"] for r in rows if r["sessions"] == n}
                if by.get("ws") is not None and by.get(other) is not None:
                    gap[n] = round(by[other] - by["ws"], 1)
                ws, rt = by_clip.get(("ws", n), {}), by_clip.get((other, n), {})
                diffs = [np.median(rt[c]) - np.median(ws[c]) for c in ws.keys() & rt.keys()]
                if diffs:
                    paired[n] = {"ms": round(float(np.median(diffs)), 1), "prompts": len(diffs)}
        lost = sum(r["lost"] + r["unheard"] for r in rows)
        print(json.dumps({
            "levels": rows, "p90_over_2s_at_sessions": crossing, "lost_total": lost,
            "asr": "second process (asr.url)" if asr_server else "in process",
            **{f"{p}_minus_ws_p50_ms": g for p, g in gaps.items()},
            # Each protocol asks the prompts in the same order and at the same pace, but a p50
            # over a minute still mixes different questions (and turns): this compares each
            # question with itself.
            **{f"{p}_minus_ws_same_prompts_ms": g for p, g in pairs.items()},
            "webrtc_loss": args.loss if "webrtc_lossy" in protocols else None,
        }))
        clean = lost == 0 and all(r["protocol_errors"] == 0 for r in rows)
        return 0 if clean else 1
    finally:
        server.stop()
        if asr_server is not None:
            asr_server.stop()


if __name__ == "__main__":
    sys.exit(main())
