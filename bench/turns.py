"""User-felt turn latency of ``diffvoice serve``: from the audible end of a question to the
first byte of the spoken answer, measured by a real-time websocket client, for the bundled
defaults and for plain silence endpointing in the same run.

The questions (``--questions``) are Piper-voiced here. ``held-out`` (the default): the hand-written
set of ``bench/turn_questions.py`` that the end-of-turn model never saw, 66 two-part questions
with a 300-900 ms pause at varied places ("Which planet … is the largest?", "Set the thermostat
to sixty … eight degrees.") and 60 said in one go, spoken by three renderings of the one offline
voice (``bench/turn_voices.py``: clean; faster with sampling and white noise; lower and slower
with room noise). A paused question is said whole and cut where the word before its pause ends,
so its first half keeps the pitch of a sentence that goes on (``--apart``: the halves said as
two sentences, each ending in a fall). ``original``: the 16 questions this bench began with,
some with a 400-700 ms pause. The client streams each at real-time pace in 20 ms PCM16 frames
(as the page does), with silence (or the voice's noise) around it, plays each reply at real time
(``playback.done`` when its last sample would have played, so an early answer is still being
heard when the user goes on, as with the page), and clocks:

- **latency**: the audible end of the question (the end of its last 10 ms frame within 35 dB of
  the loudest, found in the clean speech, on the client's send clock) → the first binary reply
  frame of the first turn answered after it;
- **early audio**: reply audio that arrived before the question's audible end (for a two-part
  question: while the user was pausing or saying the second part);
- **missed half** (two-part questions): the transcript of the turn that answered (the first to
  send audio after the audible end) lacks most of the words said before the pause or most of
  those after it (fewer than half of either): the answer was to half the question. An early
  answer taken back (the user went on; the two halves joined into one turn) is early audio, not
  a missed half;
- **whole**: the transcript holds the question's last word.

Each configuration gets its own server subprocess on a loopback port; every question is asked
in a fresh session (no history), after a warm-up question. Prints a table per configuration and
per voice, and one JSON line with the p50 ratio of the defaults to silence-only endpointing.

    python bench/turns.py                                 # held-out, defaults vs silence-only
    python bench/turns.py --configs defaults,rules,silence-only --questions all
    python bench/turns.py --limit 6 --configs defaults    # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import FRAME, ServerProcess, free_port, pct  # noqa: E402
from turn_questions import HeldOut, held_out  # noqa: E402
from turn_voices import Voices  # noqa: E402

from voice.asr import normalize_text  # noqa: E402
from voice.audio import SAMPLE_RATE  # noqa: E402
from voice.vad import audible_end  # noqa: E402
from words.spoken import int_words  # noqa: E402

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
    # the hand-written end-of-turn rules (the default before issue 25), for a before/after
    "rules": ["vad.endpoint=smart"],
    # the end-of-turn model on the words alone, not hearing the voice
    "words-only": ["vad.prosody=false"],
}
SETS = ("held-out", "original", "all")
LEAD_S, TAIL_S, TIMEOUT_S = 0.6, 4.0, 20.0


@dataclass
class Question:
    text: str
    audio: np.ndarray  # int16 16 kHz: silence before, the question, TAIL_S after (noise too)
    audible_end: int  # samples
    split_at: int  # samples: where the mid-sentence pause ends (0: none)
    last_word: str
    voice: str = "joe"
    where: str = ""  # where the pause falls ("": no pause)
    first: str = ""  # what is said before the pause ("": no pause)
    second: str = ""  # what is said after it


@dataclass
class Outcome:
    latency_ms: float | None = None
    early_audio: bool = False  # reply audio before the audible end
    missed_half: bool = False  # two-part: last word not heard, or split into answered turns
    cut_off: bool = False  # early audio or split
    whole: bool = False
    transcript: str = ""
    answer: str = ""  # the transcript of the turn that answered
    turns: int = 0
    vad_latency_ms: float | None = None  # from the server's speech_end (the old figure)
    wall_s: float = 0.0
    events: list = field(default_factory=list)


def question_set(which: str) -> list[HeldOut]:
    """``held-out``, ``original`` (this bench's first 16, voice joe) or ``all`` of them."""
    original = [HeldOut(parts, ms, "original" if ms else "", "joe") for parts, ms in QUESTIONS]
    return {"held-out": held_out(), "original": original, "all": held_out() + original}[which]


def make_questions(which: str = "held-out", limit: int = 0, apart: bool = False) -> list[Question]:
    """The questions of ``which`` (the first ``limit``; 0: all) as the client will stream them:
    a two-part question said whole and cut for its pause, or (``apart``) its halves said as
    two sentences."""
    voices = Voices()
    out = []
    lead = np.zeros(int(LEAD_S * SAMPLE_RATE), dtype=np.int16)
    tail = np.zeros(int(TAIL_S * SAMPLE_RATE), dtype=np.int16)
    chosen = question_set(which)
    for h in chosen[:limit] if limit else chosen:
        pieces, split = [lead], 0
        if len(h.parts) == 2 and not apart:
            said = list(voices.say_paused(*h.parts, h.voice))
        else:
            said = [voices.say(p, h.voice) for p in h.parts]
        for i, p in enumerate(said):
            if i:
                pieces.append(np.zeros(h.pause_ms * SAMPLE_RATE // 1000, dtype=np.int16))
                split = sum(len(x) for x in pieces)
            pieces.append(p)
        clean = np.concatenate(pieces)
        audio = voices.add_noise(np.concatenate([clean, tail]), h.voice)
        last = normalize_text(h.text).split()[-1]
        first, second = h.parts if len(h.parts) == 2 else ("", "")
        out.append(
            Question(
                h.text, audio, audible_end(clean), split, last, h.voice, h.where, first, second
            )
        )
    return out


FILLERS = frozenset("um uh er erm hmm and".split())  # Whisper leaves fillers out


def spoken(text: str) -> list[str]:
    """``text``'s words, numbers in words ("1000" → one thousand), fillers and "and" left out."""
    out: list[str] = []
    for w in normalize_text(text).split():
        out += int_words(int(w)).split() if w.isdigit() else [w]
    return [w for w in out if w not in FILLERS]


def heard_most(part: str, transcript: str) -> bool:
    """Whether at least half the words of ``part`` are in ``transcript``: the turn answered
    heard that part (one misheard word, "Moon" as "man", is Whisper's, not the endpoint's)."""
    want, got = spoken(part), set(spoken(transcript))
    return sum(w in got for w in want) * 2 >= len(want)


async def ask(url: str, q: Question) -> Outcome:
    """One question in a fresh session at real-time pace; the outcome as the user saw it."""
    import websockets

    o = Outcome()
    began = time.perf_counter()
    async with websockets.connect(url, max_size=2**24) as ws:
        await asyncio.wait_for(ws.recv(), 30)  # session.started
        t0 = time.perf_counter()
        sent = 0
        first_audio: dict[int, float] = {}
        transcripts: dict[int, str] = {}
        speech_end: dict[int, float] = {}
        audio_turn: list[int | None] = [None]
        played: dict[int, float] = {}  # seconds of reply audio received per turn
        rate: dict[int, int] = {}
        done = asyncio.Event()
        heard = t0 + q.audible_end / SAMPLE_RATE

        async def play_out(turn: int) -> None:
            """Tell the server the reply has played once it would have, at real time from its
            first sample (as the page does): until then the assistant is still talking."""
            end = first_audio.get(turn, time.perf_counter()) + played.get(turn, 0.0)
            await asyncio.sleep(max(0.0, end - time.perf_counter()))
            await ws.send(json.dumps({"type": "playback.done", "turn": turn}))

        async def receive() -> None:
            async for msg in ws:
                now = time.perf_counter()
                if isinstance(msg, bytes):
                    if audio_turn[0] is not None:
                        t = audio_turn[0]
                        first_audio.setdefault(t, now)
                        played[t] = played.get(t, 0.0) + len(msg) / 2 / rate.get(t, 22050)
                    continue
                ev = json.loads(msg)
                kind, turn = ev.get("type"), ev.get("turn")
                if kind == "speech.stopped":
                    speech_end[turn] = t0 + ev["speech_end_ms"] / 1000.0
                elif kind == "transcript.final":
                    transcripts[turn] = ev.get("text", "")
                elif kind == "reply.audio.start":
                    audio_turn[0] = turn
                    rate[turn] = int(ev.get("sample_rate") or 22050)
                elif kind == "reply.audio.end":
                    audio_turn[0] = None
                    players.append(asyncio.create_task(play_out(turn)))
                elif kind == "error" or (
                    kind == "turn.metrics" and first_audio.get(turn, 0.0) >= heard
                ):
                    done.set()  # the answer to the whole question (an early one: wait on)

        players: list[asyncio.Task] = []
        rx = asyncio.create_task(receive())
        audio = q.audio
        try:
            for i in range(0, len(audio), FRAME):
                if done.is_set() and i >= q.audible_end:  # answered: the rest is the tail
                    break
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
            for p in players:
                p.cancel()
    o.turns = len(first_audio)
    o.transcript = " ".join(transcripts[t] for t in sorted(transcripts))
    o.whole = q.last_word in normalize_text(o.transcript).split()
    o.early_audio = any(t < heard for t in first_audio.values())
    o.cut_off = o.turns > 1 or o.early_audio
    after = sorted(t for t, at in first_audio.items() if at >= heard)
    answer = transcripts.get(after[0], "") if after else ""  # what the answer heard
    o.answer = answer
    o.missed_half = bool(q.split_at) and not (
        heard_most(q.first, answer) and heard_most(q.second, answer)
    )
    if after:
        o.latency_ms = round((first_audio[after[0]] - heard) * 1000.0, 1)
        if after[0] in speech_end:
            o.vad_latency_ms = round((first_audio[after[0]] - speech_end[after[0]]) * 1000.0, 1)
    o.wall_s = round(time.perf_counter() - began, 2)
    return o


def summary(outcomes: list[tuple[Question, Outcome]]) -> dict:
    """Latency percentiles and counts of what the user would have minded."""
    lat = [o.latency_ms for _, o in outcomes if o.latency_ms is not None]
    paused = [(q, o) for q, o in outcomes if q.split_at]
    return {
        "questions": len(outcomes),
        "answered": len(lat),
        "p50_ms": pct(lat, 50),
        "p90_ms": pct(lat, 90),
        "max_ms": round(max(lat), 1) if lat else None,
        "vad_end_p50_ms": pct([o.vad_latency_ms for _, o in outcomes if o.vad_latency_ms], 50),
        "early_audio": sum(o.early_audio for _, o in outcomes),
        "early_audio_paused": sum(o.early_audio for _, o in paused),
        "missed_half": sum(o.missed_half for _, o in paused),
        "paused_questions": len(paused),
        "cut_off": sum(o.cut_off for _, o in outcomes),
        "not_whole": sum(not o.whole for _, o in outcomes),
    }


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
                flag = " EARLY AUDIO" if o.early_audio else ""
                flag += " MISSED HALF" if o.missed_half else ("" if o.whole else " (not whole)")
                print(f"  [{name}/{q.voice}] {o.latency_ms!s:>7} ms  {q.text!r} -> "
                      f"{o.transcript!r}{flag}", file=sys.stderr, flush=True)  # fmt: skip
    finally:
        server.stop()
    by_voice: dict[str, list] = defaultdict(list)
    by_where: dict[str, list] = defaultdict(list)
    for q, o in outcomes:
        by_voice[q.voice].append((q, o))
        if q.split_at:
            by_where[q.where].append((q, o))
    return {
        "config": name,
        "sets": sets,
        **summary(outcomes),
        "wall_s_per_question": round(sum(o.wall_s for _, o in outcomes) / len(outcomes), 2),
        "by_voice": {v: summary(rows) for v, rows in sorted(by_voice.items())},
        "asked": [
            {"text": q.text, "voice": q.voice, "where": q.where, "latency_ms": o.latency_ms,
             "early_audio": o.early_audio, "missed_half": o.missed_half, "heard": o.transcript,
             "answered": o.answer}
            for q, o in outcomes
        ],  # fmt: skip
        "by_pause_place": {
            w: {
                "asked": len(r),
                "early_audio": sum(o.early_audio for _, o in r),
                "missed_half": sum(o.missed_half for _, o in r),
            }
            for w, r in sorted(by_where.items())
        },
    }


def print_table(rows: list[dict]) -> None:
    print(
        f"{'config':<14}{'voice':<16}{'asked':>6}{'p50 ms':>8}{'p90 ms':>8}{'max ms':>8}"
        f"{'early audio':>12}{'missed half':>13}{'not whole':>10}"
    )
    for r in rows:
        for voice, s in [("all", r), *r["by_voice"].items()]:
            print(
                f"{r['config']:<14}{voice:<16}{s['questions']:>6}{s['p50_ms'] or '-':>8}"
                f"{s['p90_ms'] or '-':>8}{s['max_ms'] or '-':>8}{s['early_audio']:>12}"
                f"{s['missed_half']:>6}/{s['paused_questions']:<6}{s['not_whole']:>10}"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="defaults,silence-only", help=f"of {list(CONFIGS)}")
    ap.add_argument("--questions", default="held-out", choices=SETS, help="which question set")
    ap.add_argument("--limit", type=int, default=0, help="ask only the first N (0: all)")
    ap.add_argument("--repeat", type=int, default=1, help="times each question is asked (1-5)")
    ap.add_argument("--set", action="append", default=[], help="config override for every server")
    ap.add_argument(
        "--apart",
        action="store_true",
        help="say a paused question's halves as two sentences (default: whole, cut)",
    )
    args = ap.parse_args(argv)
    names = [c for c in args.configs.split(",") if c]
    if not names or any(c not in CONFIGS for c in names) or not 1 <= args.repeat <= 5:
        print(f"turns: --configs must name {list(CONFIGS)}; --repeat 1..5", file=sys.stderr)
        return 2
    if args.limit < 0:
        print("turns: --limit must be 0 (all) or more", file=sys.stderr)
        return 2
    print(f"rendering the {args.questions} questions ...", file=sys.stderr, flush=True)
    questions = make_questions(args.questions, args.limit, args.apart)
    rows = [run_config(n, CONFIGS[n] + args.set, questions, args.repeat) for n in names]
    print_table(rows)
    p50 = {r["config"]: r["p50_ms"] for r in rows}
    ratio = (
        round(p50["defaults"] / p50["silence-only"], 3)
        if p50.get("defaults") and p50.get("silence-only")
        else None
    )
    if ratio is not None:
        print(f"p50 defaults / silence-only: {ratio} (target <= 0.5)")
    clock = "audible end -> first reply audio byte at the client"
    print(json.dumps({"clock": clock, "questions": args.questions, "limit": args.limit,
                      "render": "apart" if args.apart else "whole",
                      "ratio_p50_defaults_to_silence": ratio, "rows": rows}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
