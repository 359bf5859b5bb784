"""User-felt turn latency of ``diffvoice serve``: from the audible end of a question to the first
byte of the spoken answer, measured by a real-time websocket client, for the bundled defaults and
for plain silence endpointing in the same run.

The questions are Piper-voiced here, of varied length, and some have a 400-700 ms pause in the
middle of a sentence ("What is the capital of … Australia?"). The client streams each at
real-time pace in 20 ms PCM16 frames (as the page does), with silence around it, and clocks:

- **latency**: the audible end of the question (the end of its last 10 ms frame within 35 dB of
  the loudest, found in the audio itself, on the client's send clock) → the first binary reply
  frame of the turn at the client;
- **cut off**: reply audio that arrived before the question had been said to the end, or the
  question split into more than one answered turn;
- **whole**: the turn's transcript holds the question's last word (the answer addressed all of
  it).

Each configuration gets its own server subprocess on a loopback port; every question is asked
in a fresh session (no history), after a warm-up question. Prints a table and one JSON line.

    python bench/turns.py                       # defaults vs silence-only, all questions
    python bench/turns.py --repeat 2 --configs defaults
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import FRAME, ServerProcess, free_port, pct  # noqa: E402

from voice.audio import SAMPLE_RATE, resample  # noqa: E402
from voice.vad import audible_end  # noqa: E402

# (parts, pause between them in ms). One part: said in one go.
QUESTIONS: list[tuple[tuple[str, ...], int]] = [
    (("What is the capital of France?",), 0),
    (("Who are you?",), 0),
    (("What is seven times eight?",), 0),
    (("Hello there, can you hear me?",), 0),
    (("How many miles is ten kilometers?",), 0),
    (("Tell me a joke.",), 0),
    (("What planet is closest to the sun?",), 0),
    (("Convert twenty degrees Celsius to Fahrenheit.",), 0),
    (("What day comes after Monday?",), 0),
    (("Spell the word cat.",), 0),
    (("What is the capital of", "Australia?"), 600),
    (("What is the capital of", "Japan?"), 450),
    (("Convert twenty degrees", "Celsius to Fahrenheit."), 500),
    (("How many miles is", "ten kilometers?"), 700),
    (("What day comes after", "Friday?"), 400),
    (("What planet is closest to", "the sun?"), 650),
]
CONFIGS: dict[str, list[str]] = {
    "defaults": [],
    # Plain silence endpointing (what Pipecat's pipeline does without its turn model): the turn
    # ends after vad.end_ms of silence, then ASR, reply and speech run one after another.
    "silence-only": [
        "vad.endpoint=silence",
        "vad.quiet_ms=0",
        "assistant.speculative=false",
        "asr.window_s=30",
    ],
    # main before issue 17: speculative start at a 150 ms webrtcvad pause, 600 ms endpoint.
    "before": ["vad.endpoint=silence", "vad.quiet_ms=0", "asr.window_s=30"],
}
LEAD_S, TAIL_S, TIMEOUT_S = 0.6, 4.0, 20.0


@dataclass
class Question:
    text: str
    audio: np.ndarray  # int16 16 kHz, with silence before
    audible_end: int  # samples
    split_at: int  # samples: where the mid-sentence pause ends (0: none)
    last_word: str


@dataclass
class Outcome:
    latency_ms: float | None = None
    cut_off: bool = False
    whole: bool = False
    transcript: str = ""
    turns: int = 0
    vad_latency_ms: float | None = None  # from the server's speech_end (the old figure)
    events: list = field(default_factory=list)


def make_questions() -> list[Question]:
    from voice.tts import Synthesizer

    synth = Synthesizer(variation=False)
    synth.load()

    def say(text: str) -> np.ndarray:
        a = resample(synth.synthesize(text), synth.sample_rate, SAMPLE_RATE)
        end = audible_end(a)  # trim Piper's own trailing silence: the pause is ours
        return a[:end]

    out = []
    lead = np.zeros(int(LEAD_S * SAMPLE_RATE), dtype=np.int16)
    for parts, pause_ms in QUESTIONS:
        pieces, split = [lead], 0
        for i, p in enumerate(parts):
            if i:
                pieces.append(np.zeros(pause_ms * SAMPLE_RATE // 1000, dtype=np.int16))
                split = sum(len(x) for x in pieces)
            pieces.append(say(p))
        audio = np.concatenate(pieces)
        text = " ".join(parts)
        last = text.lower().strip(" ?.!").split()[-1]
        out.append(Question(text, audio, audible_end(audio), split, last))
    return out


async def ask(url: str, q: Question) -> Outcome:
    """One question in a fresh session at real-time pace; the outcome as the user saw it."""
    import websockets

    o = Outcome()
    async with websockets.connect(url, max_size=2**24) as ws:
        await asyncio.wait_for(ws.recv(), 30)  # session.started
        t0 = time.perf_counter()
        sent = 0
        first_audio: dict[int, float] = {}
        transcripts: dict[int, str] = {}
        speech_end: dict[int, float] = {}
        audio_turn: list[int | None] = [None]
        done = asyncio.Event()

        async def receive() -> None:
            async for msg in ws:
                now = time.perf_counter()
                if isinstance(msg, bytes):
                    if audio_turn[0] is not None:
                        first_audio.setdefault(audio_turn[0], now)
                    continue
                ev = json.loads(msg)
                kind, turn = ev.get("type"), ev.get("turn")
                if kind == "speech.stopped":
                    speech_end[turn] = t0 + ev["speech_end_ms"] / 1000.0
                elif kind == "transcript.final":
                    transcripts[turn] = ev.get("text", "")
                elif kind == "reply.audio.start":
                    audio_turn[0] = turn
                elif kind == "reply.audio.end":
                    audio_turn[0] = None
                    await ws.send(json.dumps({"type": "playback.done", "turn": turn}))
                elif (kind == "turn.metrics" and turn in first_audio) or kind == "error":
                    done.set()

        rx = asyncio.create_task(receive())
        pad = np.zeros(int(TAIL_S * SAMPLE_RATE), dtype=np.int16)
        audio = np.concatenate([q.audio, pad])
        try:
            for i in range(0, len(audio), FRAME):
                delay = t0 + sent / SAMPLE_RATE - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                await ws.send(audio[i : i + FRAME].tobytes())
                sent += FRAME
            await asyncio.wait_for(done.wait(), TIMEOUT_S)
        except TimeoutError:
            pass
        finally:
            rx.cancel()
    heard = t0 + q.audible_end / SAMPLE_RATE
    o.turns = len(first_audio)
    o.transcript = " ".join(transcripts[t] for t in sorted(transcripts))
    o.whole = q.last_word in o.transcript.lower()
    o.cut_off = o.turns > 1 or any(t < heard for t in first_audio.values())
    if first_audio:
        last = max(first_audio)
        o.latency_ms = round((first_audio[last] - heard) * 1000.0, 1)
        if last in speech_end:
            o.vad_latency_ms = round((first_audio[last] - speech_end[last]) * 1000.0, 1)
    return o


def run_config(name: str, sets: list[str], questions: list[Question], repeat: int) -> dict:
    port = free_port()
    server = ServerProcess(port, sets)
    try:
        if not server.wait_ready(600):
            raise RuntimeError("the server did not start:\n" + "\n".join(server.tail))
        url = f"ws://127.0.0.1:{port}/ws"
        asyncio.run(ask(url, questions[0]))  # warm-up: one-time costs no turn should carry
        outcomes: list[tuple[Question, Outcome]] = []
        for _ in range(repeat):
            for q in questions:
                o = asyncio.run(ask(url, q))
                outcomes.append((q, o))
                flag = " CUT OFF" if o.cut_off else ("" if o.whole else " (not whole)")
                print(f"  [{name}] {o.latency_ms!s:>7} ms  {q.text!r} -> {o.transcript!r}{flag}",
                      file=sys.stderr, flush=True)  # fmt: skip
    finally:
        server.stop()
    lat = [o.latency_ms for _, o in outcomes if o.latency_ms is not None]
    paused = [(q, o) for q, o in outcomes if q.split_at]
    return {
        "config": name,
        "sets": sets,
        "questions": len(outcomes),
        "answered": len(lat),
        "p50_ms": pct(lat, 50),
        "p90_ms": pct(lat, 90),
        "max_ms": round(max(lat), 1) if lat else None,
        "vad_end_p50_ms": pct([o.vad_latency_ms for _, o in outcomes if o.vad_latency_ms], 50),
        "cut_off": sum(o.cut_off for _, o in outcomes),
        "paused_cut_off": sum(o.cut_off or not o.whole for _, o in paused),
        "paused_questions": len(paused),
        "not_whole": sum(not o.whole for _, o in outcomes),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="defaults,silence-only", help=f"of {list(CONFIGS)}")
    ap.add_argument("--repeat", type=int, default=1, help="times each question is asked (1-5)")
    ap.add_argument("--set", action="append", default=[], help="config override for every server")
    args = ap.parse_args(argv)
    names = [c for c in args.configs.split(",") if c]
    if not names or any(c not in CONFIGS for c in names) or not 1 <= args.repeat <= 5:
        print(f"turns: --configs must name {list(CONFIGS)}; --repeat 1..5", file=sys.stderr)
        return 2
    questions = make_questions()
    rows = [run_config(n, CONFIGS[n] + args.set, questions, args.repeat) for n in names]
    print(
        f"{'config':<14}{'asked':>6}{'p50 ms':>8}{'p90 ms':>8}{'max ms':>8}"
        f"{'VAD-end p50':>12}{'cut off':>8}{'paused cut/whole':>18}"
    )
    for r in rows:
        print(
            f"{r['config']:<14}{r['questions']:>6}{r['p50_ms'] or '-':>8}{r['p90_ms'] or '-':>8}"
            f"{r['max_ms'] or '-':>8}{r['vad_end_p50_ms'] or '-':>12}{r['cut_off']:>8}"
            f"{r['paused_cut_off']:>10}/{r['paused_questions']:<7}"
        )
    clock = "audible end -> first reply audio byte at the client"
    print(json.dumps({"clock": clock, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
