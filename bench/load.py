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
client's clock) to the first reply audio frame at the client. The old figure, from the
server's end of speech (``speech_end_ms``), is kept as "VAD p50". The client sends
``playback.done`` as soon as a reply's audio has arrived: it plays nothing, so the assistant is
silent again at once.

Prints a table (p50/p90 latency, outcomes, server memory now and at peak) and a final JSON
line. Traffic stays on 127.0.0.1 and every loop is bounded in count and time.

    python bench/load.py --sessions 1,2,4,8 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
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

from voice.audio import SAMPLE_RATE, read_wav  # noqa: E402
from voice.vad import audible_end, segment  # noqa: E402

FRAME = SAMPLE_RATE // 50  # 20 ms, as the page sends
SILENCE = np.zeros(FRAME, dtype=np.int16).tobytes()
TURN_TIMEOUT_S = 30.0  # a turn without an outcome this long after its prompt ends is lost
UNHEARD_AFTER_S = 5.0  # a prompt with no speech.stopped this long after it ends was not heard
GAP_S = 0.5  # silence between an answer and the next question
STAGGER_S = 0.25  # sessions start this far apart, not in lockstep
OUTCOMES = ("answered", "silent", "error", "interrupted", "busy")


@dataclass
class Clip:
    name: str
    audio: np.ndarray  # int16, with silence before and after
    audible_end: int = -1  # samples into ``audio`` where it stops being audible (-1: find it)

    def __post_init__(self) -> None:
        if self.audible_end < 0:
            self.audible_end = audible_end(self.audio)


@dataclass
class Turn:
    """One utterance the server detected, followed to its outcome."""

    speech_end: float  # client clock
    first_audio: float | None = None
    outcome: str | None = None


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)  # from the audible end
    vad_latencies_ms: list[float] = field(default_factory=list)  # from the server's speech_end
    clips: int = 0  # prompts spoken
    turns: int = 0  # utterances the server detected
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    lost: int = 0  # turns with no outcome in time
    unheard: int = 0  # prompts the server never detected
    protocol_errors: int = 0  # error events not tied to a turn (should never happen)
    sessions_failed: int = 0  # connections refused or dropped


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
    turn by its id (events of a turn can arrive while the next prompt is already playing)."""

    def __init__(self, ws, st: Stats) -> None:
        self.ws, self.st = ws, st
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
                if t is not None and t.first_audio is None:
                    t.first_audio = now
                continue
            ev = json.loads(msg)
            kind, turn = ev.get("type"), ev.get("turn")
            if kind == "speech.stopped":
                self.turns[turn] = Turn(self.t0 + ev["speech_end_ms"] / 1000.0)
            elif kind == "reply.audio.start":
                self.audio_turn = turn
            elif kind == "reply.audio.stop":
                self.audio_turn = None  # frames still arriving for it are dropped
            elif kind == "reply.audio.end":
                self.audio_turn = None
                await self.ws.send(json.dumps({"type": "playback.done", "turn": turn}))
            elif kind == "reply.interrupted":
                self._resolve(turn, "interrupted")
            elif kind == "turn.metrics":
                t = self.turns.get(turn)
                self._resolve(turn, "answered" if t and t.first_audio else "silent")
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
        delay = self.t0 + self.sent / SAMPLE_RATE - self.clock()
        if delay > 0:
            await self.sleep(delay)
        await self.ws.send(chunk)
        self.sent += len(chunk) // 2

    async def speak(self, clips: list[Clip], first: int, deadline: float) -> None:
        """Ask prompt after prompt until ``deadline``; tally each prompt's turns."""
        st = self.st
        self.t0 = self.clock()
        k = first
        while self.clock() < deadline:
            clip = clips[k % len(clips)]
            k += 1
            st.clips += 1
            before = set(self.turns)
            heard_end = self.t0 + (self.sent + clip.audible_end) / SAMPLE_RATE
            for i in range(0, len(clip.audio), FRAME):
                await self._send(clip.audio[i : i + FRAME].tobytes())
            ended = self.clock()
            while True:  # silence, as a microphone sends, until the answer is complete
                new = [t for n, t in self.turns.items() if n not in before]
                now = self.clock()
                if new and all(t.outcome for t in new):
                    break
                if now > ended + TURN_TIMEOUT_S or (not new and now > ended + UNHEARD_AFTER_S):
                    break
                await self._send(SILENCE)
            if not new:
                st.unheard += 1
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
            for _ in range(round(GAP_S * SAMPLE_RATE / FRAME)):
                await self._send(SILENCE)


async def session(url: str, clips: list[Clip], deadline: float, idx: int, st: Stats) -> None:
    import websockets

    await asyncio.sleep(idx * STAGGER_S)
    conv: Conversation | None = None
    try:
        async with websockets.connect(url, max_size=2**24) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if hello.get("type") != "session.started":
                st.sessions_failed += 1
                return
            conv = Conversation(ws, st)
            rx = asyncio.create_task(conv.receive())
            try:
                await conv.speak(clips, idx, deadline)
            finally:
                rx.cancel()
    except websockets.exceptions.InvalidStatus as e:  # refused at the handshake
        st.sessions_failed += 1
        if e.response.status_code == 503:
            st.outcomes["busy"] += 1
        print(f"load: session {idx} refused ({e.response.status_code})", file=sys.stderr)
    except (websockets.exceptions.ConnectionClosed, TimeoutError, OSError) as e:
        st.sessions_failed += 1
        if conv is not None and conv.busy:
            st.outcomes["busy"] += 1
        else:
            print(f"load: session {idx}: {type(e).__name__}: {e}", file=sys.stderr)
        if conv is not None:  # turns it was waiting for are lost
            st.lost += sum(t.outcome is None for t in conv.turns.values())


def pct(v: list[float], q: float) -> float | None:
    return round(float(np.percentile(v, q)), 1) if v else None


class ServerProcess:
    """``diffvoice serve`` in a subprocess; its output is drained by a thread (a full pipe would
    stall the server) and the tail is kept for when something goes wrong."""

    def __init__(self, port: int, sets: list[str]) -> None:
        cmd = [sys.executable, "-m", "voice.cli", "serve", "--port", str(port)]
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
            if "http://" in line:
                self.ready.set()
        self.ready.set()  # exited

    def wait_ready(self, timeout: float) -> bool:
        return self.ready.wait(timeout) and self.proc.poll() is None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", default="1,2,4,8", help="comma-separated session counts")
    ap.add_argument("--seconds", type=float, default=60.0, help="per session count (≤ 600)")
    ap.add_argument("--set", action="append", default=[], help="config override for the server")
    args = ap.parse_args(argv)
    try:
        counts = [int(x) for x in args.sessions.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1 or max(counts) > 64 or not 1 <= args.seconds <= 600:
        print("load: --sessions must be 1..64 and --seconds 1..600", file=sys.stderr)
        return 2
    clips = load_clips()
    port = free_port()
    server = ServerProcess(port, [f"server.max_sessions={max(counts)}", *args.set])
    try:
        if not server.wait_ready(600):
            print("load: the server did not start:", *server.tail, sep="\n", file=sys.stderr)
            return 1
        url = f"ws://127.0.0.1:{port}/ws"
        rows = []
        print(
            f"{'sessions':>8} {'prompts':>7} {'turns':>6} {'answered':>8} {'silent':>6} "
            f"{'errors':>6} {'interr.':>7} {'busy':>5} {'lost':>5} {'unheard':>7} "
            f"{'p50 ms':>7} {'p90 ms':>7} {'VAD p50':>7} {'RSS MB':>7} {'peak MB':>7}"
        )
        for n in counts:
            st = Stats()

            async def run(n: int = n, st: Stats = st) -> None:
                deadline = time.perf_counter() + args.seconds
                await asyncio.gather(*(session(url, clips, deadline, i, st) for i in range(n)))

            asyncio.run(run())
            rss, peak = rss_mb(server.proc.pid)
            row = {
                "sessions": n,
                "prompts": st.clips,
                "turns": st.turns,
                **{k: st.outcomes[k] for k in OUTCOMES},
                "lost": st.lost,
                "unheard": st.unheard,
                "protocol_errors": st.protocol_errors,
                "sessions_failed": st.sessions_failed,
                "p50_ms": pct(st.latencies_ms, 50),
                "p90_ms": pct(st.latencies_ms, 90),
                "vad_end_p50_ms": pct(st.vad_latencies_ms, 50),
                "server_rss_mb": rss,
                "server_peak_rss_mb": peak,
            }
            rows.append(row)
            print(
                f"{n:>8} {st.clips:>7} {st.turns:>6} {row['answered']:>8} {row['silent']:>6} "
                f"{row['error']:>6} {row['interrupted']:>7} {row['busy']:>5} {st.lost:>5} "
                f"{st.unheard:>7} {row['p50_ms'] or '-':>7} {row['p90_ms'] or '-':>7} "
                f"{row['vad_end_p50_ms'] or '-':>7} "
                f"{rss:>7} {peak:>7}",
                flush=True,
            )
            if server.proc.poll() is not None:
                print("load: the server died:", *server.tail, sep="\n", file=sys.stderr)
                return 1
        crossing = next((r["sessions"] for r in rows if (r["p90_ms"] or 0) > 2000), None)
        lost = sum(r["lost"] + r["unheard"] for r in rows)
        print(json.dumps({"levels": rows, "p90_over_2s_at_sessions": crossing, "lost_total": lost}))
        clean = lost == 0 and all(r["protocol_errors"] == 0 for r in rows)
        return 0 if clean else 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
