"""Load test of ``diffvoice serve``: N websocket sessions streaming real speech at real-time pace.

Starts the server in a subprocess on a free loopback port, then for each session count in
``--sessions`` (default 1,2,4,8) opens that many websocket sessions that each replay the bundled
spoken prompts in a loop for ``--seconds``. Every utterance must end in a reply or an explicit
error event; anything else is counted as lost. Prints a table (p50/p90 end of speech → first
reply audio, answered / errors / lost, server memory) and a final JSON line. Traffic stays on
127.0.0.1 and every loop is bounded in count and time.

    python bench/load.py --sessions 1,2,4,8 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voice.audio import SAMPLE_RATE, read_wav  # noqa: E402
from voice.vad import segment  # noqa: E402

FRAME = SAMPLE_RATE // 50  # 20 ms


@dataclass
class Clip:
    name: str
    audio: np.ndarray  # int16, with silence before and after
    speech_end_s: float  # offset where the speech ends


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    answered: int = 0
    errors: int = 0
    busy: int = 0
    lost: int = 0
    sent: int = 0


def load_clips() -> list[Clip]:
    clips = []
    for wav in sorted((ROOT / "voice" / "assets" / "prompts").glob("*.wav")):
        audio = read_wav(wav)
        turns = segment(audio)
        if not turns:
            continue
        end = turns[-1].speech_end / SAMPLE_RATE
        pad = np.zeros(SAMPLE_RATE // 2, dtype=np.int16)
        clips.append(Clip(wav.stem, np.concatenate([pad, audio]), end + 0.5))
    return clips


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    total = 0.0
    try:
        pids = [pid] + [
            int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        pids = [pid]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return round(total, 1)


async def session(url: str, clips: list[Clip], seconds: float, idx: int, st: Stats) -> None:
    import websockets

    deadline = time.monotonic() + seconds
    try:
        async with websockets.connect(url, max_size=2**24) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if hello.get("type") != "session.started":
                st.errors += 1
                return
            k = idx
            while time.monotonic() < deadline:
                clip = clips[k % len(clips)]
                k += 1
                st.sent += 1
                await _one_turn(ws, clip, st)
    except (TimeoutError, OSError) as e:
        print(f"session {idx}: {type(e).__name__}: {e}", file=sys.stderr)
        st.errors += 1
    except websockets.exceptions.InvalidStatus as e:  # refused at the handshake: busy
        st.busy += 1
        print(f"session {idx}: refused ({e.response.status_code})", file=sys.stderr)


async def _one_turn(ws, clip: Clip, st: Stats) -> None:
    """Stream one clip at real-time pace and wait for its outcome."""
    t0 = time.perf_counter()
    first_audio: list[float] = []
    outcome: list[str] = []
    done = asyncio.Event()

    async def receive() -> None:
        audio_turn = None
        async for msg in ws:
            if isinstance(msg, bytes):
                if audio_turn is not None and not first_audio:
                    first_audio.append(time.perf_counter())
                continue
            ev = json.loads(msg)
            t = ev.get("type")
            if t == "reply.audio.start":
                audio_turn = ev["turn"]
            elif t == "reply.audio.end":
                await ws.send(json.dumps({"type": "playback.done", "turn": ev["turn"]}))
            elif t == "turn.metrics":
                outcome.append("answered" if first_audio else "silent")
                done.set()
                return
            elif t == "error":
                outcome.append("busy" if ev.get("code") == "busy" else "error")
                if ev.get("code") in ("busy", "turn_failed"):
                    done.set()
                    return

    rx = asyncio.create_task(receive())
    for i in range(0, len(clip.audio), FRAME):
        delay = t0 + i / SAMPLE_RATE - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        await ws.send(clip.audio[i : i + FRAME].tobytes())
    # Trailing silence, as a microphone would send, while the answer comes.
    silence = np.zeros(FRAME, dtype=np.int16).tobytes()
    end_wait = time.perf_counter() + 30.0
    while not done.is_set() and time.perf_counter() < end_wait:
        await ws.send(silence)
        try:
            await asyncio.wait_for(done.wait(), 0.02)
        except TimeoutError:
            pass
    rx.cancel()
    speech_end = t0 + clip.speech_end_s
    if not outcome:
        st.lost += 1
        return
    if outcome[0] == "answered":
        st.answered += 1
        st.latencies_ms.append((first_audio[0] - speech_end) * 1000)
    elif outcome[0] == "busy":
        st.busy += 1
    elif outcome[0] == "silent":  # answered with an empty reply: nothing to say aloud
        st.answered += 1
    else:
        st.errors += 1
    await asyncio.sleep(0.3)


def pct(v: list[float], q: float) -> float | None:
    return round(float(np.percentile(v, q)), 1) if v else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", default="1,2,4,8", help="comma-separated session counts")
    ap.add_argument("--seconds", type=float, default=60.0, help="per session count (≤ 600)")
    ap.add_argument("--set", action="append", default=[], help="config override for the server")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.sessions.split(",") if x.strip()]
    if not counts or min(counts) < 1 or max(counts) > 64 or not 1 <= args.seconds <= 600:
        print("load: --sessions must be 1..64 and --seconds 1..600", file=sys.stderr)
        return 2
    clips = load_clips()
    port = free_port()
    cmd = [sys.executable, "-m", "voice.cli", "serve", "--port", str(port),
           "--set", f"server.max_sessions={max(counts)}"]
    for s in args.set:
        cmd += ["--set", s]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:  # wait for the URL line
            if "http://" in line:
                break
        else:
            print("load: the server did not start", file=sys.stderr)
            return 1
        url = f"ws://127.0.0.1:{port}/ws"
        rows = []
        print(f"{'sessions':>8} {'turns':>6} {'answered':>9} {'errors':>7} {'busy':>5} "
              f"{'lost':>5} {'p50 ms':>8} {'p90 ms':>8} {'server MB':>10}")
        for n in counts:
            st = Stats()

            async def run(n: int = n, st: Stats = st) -> None:
                await asyncio.gather(*(session(url, clips, args.seconds, i, st) for i in range(n)))

            asyncio.run(run())
            row = {
                "sessions": n, "turns": st.sent, "answered": st.answered, "errors": st.errors,
                "busy": st.busy, "lost": st.lost, "p50_ms": pct(st.latencies_ms, 50),
                "p90_ms": pct(st.latencies_ms, 90), "server_rss_mb": rss_mb(server.pid),
            }
            rows.append(row)
            print(f"{n:>8} {st.sent:>6} {st.answered:>9} {st.errors:>7} {st.busy:>5} "
                  f"{st.lost:>5} {row['p50_ms'] or '-':>8} {row['p90_ms'] or '-':>8} "
                  f"{row['server_rss_mb']:>10}", flush=True)
        crossing = next((r["sessions"] for r in rows if (r["p90_ms"] or 0) > 2000), None)
        print(json.dumps({"levels": rows, "p90_over_2s_at_sessions": crossing,
                          "lost_total": sum(r["lost"] for r in rows)}))
        return 0 if all(r["lost"] == 0 for r in rows) else 1
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
