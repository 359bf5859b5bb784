"""Everyday skills benchmark: 45 requests people make of a voice assistant, end to end.

The requests are written the way people speak (not drawn from the training corpus's wordings):
time and date, timers and reminders, arithmetic of several kinds, conversions, spelling, facts
the model knows, follow-ups that refer to an earlier answer, greetings, and off-domain questions
that deserve an honest refusal. Each is scored on its final reply:

- **useful**: it holds the expected answer (worked out here independently: 17 × 23 is three
  hundred and ninety one; the real clock's weekday), or, for a refusal, it is a short honest
  one ("Sorry, I can't ...", "I don't know ...");
- **garbled**: the reply is not a well-formed sentence (empty, over 30 words, a word doubled,
  no end punctuation, or tool-call markup spoken aloud).

Two paths: ``chat`` (``diffvoice chat --json``, one process, ``/reset`` between
conversations) and ``spoken`` (each request voiced by Piper into a WAV and run through
``diffvoice run --fast --json``, so ASR, the tool loop and TTS are all in it; conversations of
several turns run at real-time pace with pauses long enough for each answer).

    python bench/skills.py --mode chat,spoken
    python bench/skills.py --requests paraphrase --mode chat --compare d561e23

``--requests paraphrase`` (or ``--set paraphrase``) swaps the 45 requests for the 200+ of
``bench/paraphrases.py``, written with a generator unlike the training corpus's; ``--requests
everyday`` (or ``--set everyday``) for the 220+ of ``bench/everyday.py``, each a hand-written
sentence for one everyday scene (kitchen, driving, homework, travel, a pub quiz...) with only
its numbers, countries and words slotted; ``--requests strangers`` (or ``--set strangers``) for
the 220+ of ``bench/strangers.py``, a third held-out set by another author, said by six
strangers to a kitchen speaker (terse, a chatty elder, a non-native speaker, a child, a US
speaker, a texter), each with their own wording and way of saying numbers; ``--requests
newcomers`` (or ``--set newcomers``) for the 220+ of ``bench/newcomers.py``, a fourth held-out
set: requests as a speech recogniser or a phone keyboard delivers them, from eight people at
work (a night nurse, a builder, a cashier, a teacher, a parent cooking, a student, a commuter, a
gardener); ``--requests transforms`` (or ``--set transforms``) for the 220+ of
``bench/transforms.py``, a fifth held-out set: each request a meaning (a kind and its values)
said through two or three syntactic transformations drawn from eighteen (fronting, passive,
indirect question, cleft, tag, elision, correction, restart, ASR rendering...); ``--requests
households`` (or ``--set households``) for the 220+ of ``bench/households.py``, a sixth held-out
set: eight households around the world that share English (Bangalore, Lagos, Melbourne,
Glasgow, a Filipino nurse in Dubai, Toronto, Singapore, an Irish farm), each in its own regional
English, units, holidays and reasons, typed or as Whisper writes speech; ``--requests
generations`` (or ``--set generations``) for the 220+ of ``bench/generations.py``, a seventh
held-out set: the same eight kinds asked by eight speakers of different ages and stages of life
(a child of seven, a teenager, a student, a young parent, a busy professional, a retiree, a
great-grandparent of ninety, a visually impaired user), each in their own idiom, typed or as
Whisper writes speech; ``--requests conversations`` (or ``--set conversations``) for the 220+
of ``bench/conversations.py``, an eighth held-out set: each scored request the last turn of a
short conversation (small talk, another request, a false start, the user saying what they are
doing) in eight situations (a kitchen, a car, a study desk, a workshop, a garden, a nursery at
night, an office, a sickbed), typed or as Whisper writes speech; ``--requests habits`` (or
``--set habits``) for the 220+ of ``bench/habits.py``, a ninth held-out set: the eight kinds
asked the way eight other voice products taught their users (Alexa, Siri, Google Assistant,
Bixby, Cortana, a car's push-to-talk system, a smart TV remote, a child's tablet assistant):
wake words left in, each product's command grammar, follow-up habits and repairs of a
mishearing ("I said 15, not 50"), typed or as Whisper writes speech; ``--requests sources`` (or
``--set sources``) for the 220+ of ``bench/sources.py``, a tenth held-out set: the user reading
from something in front of them (a recipe card, a child's maths worksheet, a restaurant bill, a
medicine label, a map or train ticket, a quiz sheet, an invitation, a flat-pack leaflet or seed
packet) and asking about what it says, typed or as Whisper writes speech; ``--requests
borders`` (or ``--set borders``) for the 256 of ``bench/borders.py``, an eleventh held-out set:
requests at the border of what the assistant can do, half of them refusals whose words overlap
the tools' (an oven's degrees, the lights off in 20 minutes, apples added to a basket) and half
real tool requests dressed as something to refuse (a timer for the washing machine, a sum in a
shopping story, spelling a song's name), typed or as Whisper writes speech; ``--requests logs``
(or ``--set logs``) for the 256 of ``bench/logs.py``, a twelfth held-out set: a smart speaker's
day as its request logs would show it, in eight homes (a parent on the school run, a teenager,
a grandparent, a night-shift worker, a student, a cook, someone working from home, a child),
each request in the speaker's own voice and in the day's order, half of them the device,
media, weather and alarm requests that fill real logs and must be refused, typed or as Whisper
writes speech. ``--compare REF``
runs each mode at commit REF too (a temporary git worktree, this venv), so before and after
come from the same run on the same machine; on the spoken path both hear the same recordings
(Piper's delivery varies from one synthesis to the next, and so do Whisper's mishearings: runs
back to back differ by those as well as by the change).

Prints a table per path, useful % per kind, and a final JSON line: useful % (target ≥ 90; ≥ 95
typed and ≥ 90 spoken on the paraphrase set, no kind under 85) and garbled count (target 0).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from words.spoken import int_words, ordinal_words  # noqa: E402

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
REFUSAL = re.compile(r"\b(sorry|can't|cannot|can not|don't know|not able|unable|only)\b", re.I)


def days_until(month: int, day: int) -> str:
    today = date.today()
    d = date(today.year, month, day)
    if d < today:
        d = date(today.year + 1, month, day)
    n = (d - today).days
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


@dataclass
class Request:
    turns: tuple[str, ...]  # what the user says; the last one is scored
    kind: str  # category
    expect: tuple[str, ...] = ()  # any of these in the reply counts as useful ("" = refusal)
    after: tuple[str, ...] = ()  # said after the scored turn, not scored (clearing timers)

    @property
    def refusal(self) -> bool:
        return not self.expect


def requests() -> list[Request]:
    now = datetime.now()
    h12 = now.hour % 12 or 12
    r = Request
    return [
        # time and date (answers from this machine's clock)
        r(("do you happen to know the time",), "time", (int_words(h12),)),
        r(("what's the time right now in here",), "time", (int_words(h12),)),
        r(("what is the date today by any chance",), "date",
          (f"{MONTHS[now.month - 1]} {ordinal_words(now.day)}",)),
        r(("what day are we on today",), "date", (WEEKDAYS[now.weekday()],)),
        r(("how many days are left until christmas",), "date", (days_until(12, 25),)),
        r(("how long do we have until halloween",), "date", (days_until(10, 31),)),
        # timers and reminders
        r(("can you start a ten minute timer for the pasta",), "timer", ("ten minutes",)),
        r(("set me a timer for 90 seconds",), "timer", ("one minute and thirty seconds",)),
        r(("in fifteen minutes could you remind me to take out the bread",), "reminder",
          ("fifteen minutes",)),
        r(("set a timer for five minutes", "how much time is left on it"), "timer",
          ("minutes", "seconds")),
        r(("start a timer for three minutes", "actually cancel that timer"), "timer",
          ("cancelled",)),
        # "/reset" starts a new conversation but leaves running timers alone (they belong to
        # the session, as a kitchen timer outlives the chat about it), so the chat path may
        # list the earlier conversations' timers too: then the tea timer must be among them.
        r(("set a two minute timer for the tea", "what timers have i got going"), "timer",
          ("one timer", "tea with", "tea timer with")),
        # arithmetic
        r(("what's seventeen times twenty three",), "arithmetic",
          ("three hundred and ninety one",)),
        r(("what is 12 plus 30",), "arithmetic", ("forty two",)),
        r(("how much is four hundred and twenty divided by six",), "arithmetic", ("seventy",)),
        r(("what's twenty percent of sixty five",), "arithmetic", ("thirteen",)),
        r(("what is nine squared",), "arithmetic", ("eighty one",)),
        r(("what's the square root of one hundred and forty four",), "arithmetic", ("twelve",)),
        r(("two to the power of eight",), "arithmetic", ("two hundred and fifty six",)),
        r(("what's three point five times four",), "arithmetic", ("fourteen",)),
        r(("what is one thousand minus three hundred and seventy five",), "arithmetic",
          ("six hundred and twenty five",)),
        r(("what is six plus seven", "now multiply that by two"), "follow-up",
          ("twenty six",)),
        r(("what's ten divided by zero",), "arithmetic", ("divide by zero",)),
        # conversions
        r(("how many minutes are in three hours",), "units",
          ("one hundred and eighty minutes",)),
        r(("how many pounds is five kilos",), "units", ("eleven",)),
        r(("convert thirty degrees celsius to fahrenheit",), "units", ("eighty six",)),
        r(("how many centimeters are in ten inches",), "units", ("twenty five point four",)),
        r(("what's a hundred kilometers per hour in miles per hour",), "units",
          ("sixty two",)),
        r(("how many miles is ten kilometers", "and twenty"), "follow-up",
          ("twelve point four",)),
        # spelling
        r(("how do you spell necessary",), "spelling", ("N, E, C, E, S, S, A, R, Y",)),
        r(("can you spell rhythm for me",), "spelling", ("R, H, Y, T, H, M",)),
        # facts the model knows
        r(("what's the capital of japan",), "facts", ("Tokyo",)),
        r(("what's the capital of france", "and what about italy"), "follow-up", ("Rome",)),
        r(("which planet is the biggest",), "facts", ("Jupiter",)),
        r(("what day comes after friday",), "facts", ("Saturday",)),
        r(("tell me a joke",), "facts", ("?",)),
        # greetings and small talk
        r(("good morning",), "greeting", ("hello", "good morning", "help")),
        r(("thanks a lot",), "greeting", ("welcome",)),
        r(("who are you",), "greeting", ("diffvoice",)),
        # off-domain: an honest refusal is the useful answer
        r(("who won the football world cup in twenty twenty two",), "refusal"),
        r(("what's the weather going to be like tomorrow",), "refusal"),
        r(("can you order me a pizza",), "refusal"),
        r(("who is the prime minister of canada",), "refusal"),
        r(("how do i bake sourdough bread",), "refusal"),
        r(("set an alarm for seven am",), "refusal"),
    ]  # fmt: skip


# --- scoring ----------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9'? ]+", " ", text.lower()).split())


NUMBER_WORD = re.compile(
    r"\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|"
    r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)\b", re.I)  # fmt: skip


def garbled(reply: str) -> bool:
    from training.scoring import well_formed

    # A number word said twice is speech, not a stutter: "three point one one miles",
    # "twenty twenty six" (as single letters are when spelling), so each gets its own mark.
    marks = iter(range(10**6))
    marked = NUMBER_WORD.sub(lambda m: f"{m.group()}{next(marks)}", reply)
    return (not well_formed(marked)) or "<tool_call" in reply or "{" in reply


def useful(req: Request, reply: str) -> bool:
    if garbled(reply):
        return False
    if req.refusal:
        return bool(REFUSAL.search(reply)) and len(reply.split()) <= 30
    text = _norm(reply)
    return any(_norm(e) in text if e != "?" else "?" in reply for e in req.expect)


# --- paths ------------------------------------------------------------------------------------
def run_chat(reqs: list[Request], args, cwd: Path = ROOT) -> list[dict]:
    """All conversations through one ``diffvoice chat --json`` process, reset in between;
    ``cwd`` is the checkout whose code and model answer (an older commit's worktree for
    ``--compare``), always with this interpreter."""
    lines = []
    for q in reqs:
        lines += list(q.turns) + list(q.after) + ["/reset"]
    cmd = [sys.executable, "-m", "cli", "chat", "--json", *args.extra]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                       cwd=cwd, timeout=args.timeout)  # fmt: skip
    if p.returncode != 0:
        raise SystemExit(f"chat failed: {p.stderr.strip().splitlines()[-1:]}")
    out = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    replies = [o for o in out if "reply" in o]
    rows, k = [], 0
    for q in reqs:
        turns = replies[k : k + len(q.turns)]
        k += len(q.turns) + len(q.after)
        last = turns[-1] if turns else {"reply": ""}
        rows.append({"turns": list(q.turns), "kind": q.kind, "reply": last["reply"],
                     "tools": [t["name"] for t in last.get("tools", [])],
                     "ms": last.get("total_ms"), "redecoded": last.get("redecoded", 0),
                     "unfinished": last.get("unfinished", 0)})  # fmt: skip
    print(f"chat: {len(reqs)} conversations in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return rows


def _voice(tts, text: str):
    import numpy as np

    from voice.audio import SAMPLE_RATE, resample

    parts = [
        resample(c.audio, c.sample_rate, SAMPLE_RATE) for c in tts.synthesize_stream(text, 10**6)
    ]
    return np.concatenate(parts).astype(np.int16)


# Variants of the one offline Piper voice (en_US-joe-medium has a single speaker), made with
# Piper's own synthesis settings: speaking rate (length_scale) and its sampling noise
# (noise_scale and noise_w on, or both off for a flat delivery). Three deliveries of one
# speaker, not three speakers.
VOICE_VARIANTS = (
    ("joe", {}),
    ("joe-fast", {"length_scale": 0.8}),
    ("joe-slow-flat", {"length_scale": 1.25, "variation": False}),
)


def run_spoken(reqs: list[Request], args, cwds: tuple[Path, ...] = (ROOT,)) -> list[list[dict]]:
    """Each conversation voiced by Piper and run through ``diffvoice run --json``; with
    ``--voices N`` the requests take the first N voice variants in turn. The same recording
    goes through each checkout in ``cwds`` (Piper's delivery varies from one synthesis to the
    next, so a before/after comparison must hear the same audio): one list of rows per
    checkout."""
    import numpy as np

    from voice.audio import SAMPLE_RATE, write_wav
    from voice.tts import Synthesizer

    voices = []
    for name, settings in VOICE_VARIANTS[: max(1, args.voices)]:
        tts = Synthesizer(None, **settings)
        tts.load()
        voices.append((name, tts))
    rows: list[list[dict]] = [[] for _ in cwds]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for i, q in enumerate(reqs):
            voice, tts = voices[i % len(voices)]
            lead = np.zeros(SAMPLE_RATE // 2, dtype=np.int16)
            gap = np.zeros(int(SAMPLE_RATE * args.gap_s), dtype=np.int16)
            pieces = [lead]
            for j, t in enumerate(q.turns):
                pieces += [_voice(tts, t)] + ([gap] if j < len(q.turns) - 1 else [])
            wav = Path(tmp) / f"q{i}.wav"
            write_wav(str(wav), np.concatenate(pieces), SAMPLE_RATE)
            fast = ["--fast"] if len(q.turns) == 1 else []  # several turns: real-time pace
            cmd = [sys.executable, "-m", "cli", "run", "--json", "--input", str(wav),
                   "--output", str(Path(tmp) / f"a{i}.wav"), *fast, *args.extra]  # fmt: skip
            for cwd, out in zip(cwds, rows, strict=True):
                p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                                   timeout=args.timeout)  # fmt: skip
                out.append(_spoken_row(q, voice, p))
    print(f"spoken: {len(reqs)} conversations in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr)  # fmt: skip
    return rows


def _spoken_row(q: Request, voice: str, p: subprocess.CompletedProcess) -> dict:
    recs = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    answers = [r for r in recs if not r.get("announcement")]
    last = answers[-1] if answers else {"reply": "", "transcript": ""}
    row = {"turns": list(q.turns), "kind": q.kind, "reply": last.get("reply", ""),
           "voice": voice, "heard": [r.get("transcript", "") for r in answers],
           "tools": [t["name"] for t in last.get("tools", [])],
           "ms": (last.get("latency_ms") or {}).get("first_audio_out"),
           "redecoded": (last.get("llm") or {}).get("redecoded", 0),
           "unfinished": (last.get("llm") or {}).get("unfinished", 0)}  # fmt: skip
    if p.returncode != 0 and not answers:
        row["error"] = (p.stderr.strip().splitlines() or ["?"])[-1]
    return row


def report(name: str, reqs: list[Request], rows: list[dict]) -> dict:
    print(f"\n== {name} ==")
    print(f"{'kind':<11} {'ok':<3} {'garb':<4} {'tools':<18} request → reply")
    n_ok = n_garbled = 0
    by_kind: dict[str, list[bool]] = {}
    by_voice: dict[str, list[bool]] = {}  # spoken path: Piper voice variants
    for q, row in zip(reqs, rows, strict=True):
        ok, bad = useful(q, row["reply"]), garbled(row["reply"])
        n_ok += ok
        n_garbled += bad
        by_kind.setdefault(q.kind, []).append(ok)
        if "voice" in row:
            by_voice.setdefault(row["voice"], []).append(ok)
        said = " / ".join(q.turns)
        print(f"{q.kind:<11} {'yes' if ok else 'NO':<3} {'X' if bad else '':<4} "
              f"{','.join(row['tools'])[:18]:<18} {said} → {row['reply']}")  # fmt: skip
    pct = 100 * n_ok / max(1, len(reqs))
    # The model's own rate: replies the assistant decoded again (voice/reply_check.py) or
    # mended because the fast decoding came out garbled.
    redecoded = sum(bool(r.get("redecoded")) for r in rows)
    mended = sum(bool(r.get("unfinished")) for r in rows)
    print(f"useful {n_ok}/{len(reqs)} = {pct:.1f}% (target ≥ 90%), garbled {n_garbled} "
          f"(target 0); decoded again {redecoded}, mended {mended}")  # fmt: skip
    print(
        "useful by kind: "
        + ", ".join(
            f"{k} {sum(v)}/{len(v)} ({100 * sum(v) / len(v):.0f}%)" for k, v in by_kind.items()
        )
    )
    if by_voice:
        print(
            "useful by voice: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in by_voice.items())
        )
    return {
        "requests": len(reqs),
        "useful": n_ok,
        "useful_pct": round(pct, 1),
        "garbled": n_garbled,
        "redecoded": redecoded,
        "mended": mended,
        "by_kind": {k: f"{sum(v)}/{len(v)}" for k, v in by_kind.items()},
        "by_kind_pct": {k: round(100 * sum(v) / len(v), 1) for k, v in by_kind.items()},
        "by_voice": {k: f"{sum(v)}/{len(v)}" for k, v in by_voice.items()},
        "failures": [{"turns": r["turns"], "reply": r["reply"],
                      **{k: r[k] for k in ("heard", "voice") if k in r}}
                     for q, r in zip(reqs, rows, strict=True) if not useful(q, r["reply"])],
    }  # fmt: skip


@contextlib.contextmanager
def worktree(ref: str):
    """A temporary ``git worktree`` of ``ref`` (its own code and model, this interpreter and
    venv), removed afterwards."""
    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()  # fmt: skip
    tree = Path(tempfile.gettempdir()) / f"diffvoice-{sha}-{os.getpid()}"  # one per run: two
    # runs comparing against the same commit must not remove each other's tree
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "remove", "--force", str(tree)], capture_output=True)
    subprocess.run([*git, "add", "--detach", str(tree), sha], check=True, capture_output=True)
    try:
        yield tree
    finally:
        subprocess.run([*git, "remove", "--force", str(tree)], capture_output=True)


def compare_table(before: dict, after: dict, ref: str, mode: str = "chat") -> None:
    """Useful % per kind at ``ref`` and now, side by side."""
    path = "typed" if mode == "chat" else "spoken, the same recordings"
    print(f"\n== {path}, before ({ref}) and after (this checkout) ==")
    print(f"{'kind':<11} {'before':>14} {'after':>14}")
    for k in after["by_kind"]:
        b, a = before["by_kind"][k], after["by_kind"][k]
        print(f"{k:<11} {b:>7} {before['by_kind_pct'][k]:>5.1f}% "
              f"{a:>7} {after['by_kind_pct'][k]:>5.1f}%")  # fmt: skip
    for key in ("useful_pct", "garbled"):
        print(f"{key:<11} {before[key]:>14} {after[key]:>14}")


def request_set(name: str) -> list[Request]:
    """``base`` (the 45 requests above), ``paraphrase`` (bench/paraphrases.py, 200+),
    ``everyday`` (bench/everyday.py, 220+), ``strangers`` (bench/strangers.py, 220+),
    ``newcomers`` (bench/newcomers.py, 220+), ``transforms`` (bench/transforms.py, 220+),
    ``households`` (bench/households.py, 220+), ``generations`` (bench/generations.py, 220+),
    ``conversations`` (bench/conversations.py, 220+), ``habits`` (bench/habits.py, 220+),
    ``sources`` (bench/sources.py, 220+), ``borders`` (bench/borders.py, 256) or ``logs``
    (bench/logs.py, 256)."""
    if name == "base":
        return requests()
    if name == "paraphrase":
        from bench.paraphrases import paraphrases

        return paraphrases()
    if name == "everyday":
        from bench.everyday import everyday

        return everyday()
    if name == "strangers":
        from bench.strangers import strangers

        return strangers()
    if name == "newcomers":
        from bench.newcomers import newcomers

        return newcomers()
    if name == "transforms":
        from bench.transforms import transforms

        return transforms()
    if name == "households":
        from bench.households import households

        return households()
    if name == "generations":
        from bench.generations import generations

        return generations()
    if name == "conversations":
        from bench.conversations import conversations

        return conversations()
    if name == "habits":
        from bench.habits import habits

        return habits()
    if name == "sources":
        from bench.sources import sources

        return sources()
    if name == "borders":
        from bench.borders import borders

        return borders()
    if name == "logs":
        from bench.logs import logs

        return logs()
    raise SystemExit(
        f"unknown request set {name!r} "
        "(base, paraphrase, everyday, strangers, newcomers, transforms, households, generations, "
        "conversations, habits, sources, borders or logs)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", default="chat,spoken", help="chat, spoken, or both")
    p.add_argument(
        "--requests",
        choices=("base", "paraphrase", "everyday", "strangers", "newcomers", "transforms",
                 "households", "generations", "conversations", "habits", "sources",
                 "borders", "logs"),  # fmt: skip
        default=None,
        help="request set (default base; a bare `--set "
        "base|paraphrase|everyday|strangers|newcomers|transforms|households|generations|"
        "conversations|habits|sources|borders|logs` says the same)",
    )
    p.add_argument(
        "--compare",
        metavar="REF",
        help="also run each mode at commit REF (a git worktree): the same requests, and on the "
        "spoken path the same recordings",
    )
    p.add_argument("--only-kind", default="", help="comma-separated kinds to keep")
    p.add_argument("--every", type=int, default=1, help="only every Nth request (a subset)")
    p.add_argument(
        "--voices",
        type=int,
        default=1,
        choices=(1, 2, 3),
        help="spoken path: Piper voice variants used in turn (one speaker)",
    )
    p.add_argument("--limit", type=int, default=0, help="only the first N requests")
    p.add_argument("--gap-s", type=float, default=12.0,
                   help="silence between the turns of a spoken conversation")  # fmt: skip
    p.add_argument("--timeout", type=float, default=1800)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="passed to diffvoice (e.g. engine.model=PATH)")  # fmt: skip
    args = p.parse_args(argv)
    # `--set KEY=VALUE` goes to diffvoice; a bare `--set paraphrase` (or `everyday`,
    # `strangers`, `newcomers`, `transforms`, `households`, `generations`, `conversations`,
    # `habits`, `sources`, `borders`, `logs`) names the request set
    sets = [kv for kv in args.set if "=" not in kv]
    args.extra = [x for kv in args.set if "=" in kv for x in ("--set", kv)]
    name = args.requests or (sets[-1] if sets else "base")
    reqs = request_set(name)
    if args.only_kind:
        reqs = [q for q in reqs if q.kind in args.only_kind.split(",")]
    reqs = reqs[:: args.every][: args.limit or None]
    result: dict = {"bench": "skills", "set": name, "cpu": _cpu()}
    modes = args.mode.split(",")
    with worktree(args.compare) if args.compare else contextlib.nullcontext() as tree:
        for mode in modes:
            if mode == "chat":
                runs = ([run_chat(reqs, args, cwd=tree)] if tree else []) + [run_chat(reqs, args)]
            else:
                runs = run_spoken(reqs, args, (tree, ROOT) if tree else (ROOT,))
            if tree:
                result[f"{mode}@{args.compare}"] = report(f"{mode} at {args.compare} (before)",
                                                          reqs, runs[0])  # fmt: skip
            result[mode] = report(mode, reqs, runs[-1])
    for mode in modes if args.compare else ():
        compare_table(result[f"{mode}@{args.compare}"], result[mode], args.compare, mode)
    summary = {k: {"useful_pct": v["useful_pct"], "garbled": v["garbled"]}
               for k, v in result.items() if isinstance(v, dict)}  # fmt: skip
    print(json.dumps({**result, "summary": summary}))
    return 0


def _cpu() -> str:
    try:
        from training.train import cpu_kind

        return cpu_kind()
    except Exception:
        return "unknown"


if __name__ == "__main__":
    # One copy of this module (bench/paraphrases.py imports it as bench.skills).
    from bench import skills

    sys.exit(skills.main())
