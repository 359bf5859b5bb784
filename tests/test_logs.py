"""bench/logs.py: sizes, kinds per home, unique texts, refusals, channels, the day's order,
determinism, and the expected answers of the arithmetic, units, clock and timer requests (and
of follow-ups built on them) worked out again here from each calc record, with code separate
from the module's (its own unit tables, number words and calendar)."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bench.everyday import CLEAR
from bench.logs import CHANNELS, HOMES, KINDS, built, logs
from bench.skills import _norm, request_set
from words.spoken import int_words, ordinal_words

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 14, 9, 30)
NOWS = (NOW, datetime(2027, 12, 24, 23, 40), datetime(2028, 2, 29, 0, 5),
        datetime(2026, 10, 31, 12, 0), datetime(2027, 1, 1, 17, 59),
        datetime(2026, 12, 31, 6, 15))  # fmt: skip
COUNTS = {"clock": 24, "timer": 28, "arithmetic": 16, "units": 16, "spelling": 12, "facts": 12,
          "follow-up": 20, "refusal": 128}  # fmt: skip

# --- an independent working of the answers ------------------------------------------------------
INCH_M = Fraction("0.0254")
LB_KG = Fraction("0.45359237")
USGAL_L = Fraction("3.785411784")
TABLES = (
    {"cm": Fraction(1, 100), "m": Fraction(1), "km": Fraction(1000), "in": INCH_M,
     "ft": 12 * INCH_M, "mi": 63360 * INCH_M},
    {"g": Fraction(1, 1000), "kg": Fraction(1), "lb": LB_KG, "oz": LB_KG / 16, "st": 14 * LB_KG},
    {"ml": Fraction(1, 1000), "l": Fraction(1), "cup": USGAL_L / 16},
    {"kmh": Fraction(1000, 3600), "mph": 63360 * INCH_M / 3600},
    {"s": Fraction(1), "min": Fraction(60), "h": Fraction(3600)},
)  # fmt: skip
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]  # fmt: skip
DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FIXED_DAYS = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
              "valentine's day": (2, 14)}  # fmt: skip
DERIVED = ("add", "sub", "mul", "div", "pow", "pct", "off", "add3", "sqrt", "chain", "conv",
           "time_now", "date_today", "weekday_today", "date_in", "weekday_in", "until_date",
           "until_holiday", "set", "left", "cancel", "spell")  # fmt: skip


def words_at(q: Fraction, places: int) -> str:
    scaled = round(q * 10**places)
    sign = "minus " if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    text = int_words(whole)
    tail = f"{part:0{places}d}".rstrip("0") if places else ""
    if tail:
        text += " point " + " ".join(int_words(int(ch)) for ch in tail)
    return sign + text


def number_words(q: Fraction) -> tuple[str, ...]:
    if (q * 100).denominator == 1:
        return (words_at(q, 2),)
    places = 2 if abs(q) < 10 else (1 if abs(q) < 100 else 0)
    out = [words_at(q, places)]
    if places:
        fewer = words_at(q, places - 1)
        if fewer != out[0]:
            out.append(fewer)
    return tuple(out)


def binary(op: str, a, b) -> Fraction:
    a, b = Fraction(a), Fraction(b)
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "div": lambda: a / b, "pow": lambda: a ** int(b), "pct": lambda: a / 100 * b,
            "off": lambda: a - a * b / 100}[op]()  # fmt: skip


def converted(v, frm: str, to: str) -> Fraction:
    v = Fraction(v)
    if (frm, to) == ("c", "f"):
        return v * Fraction(9, 5) + 32
    if (frm, to) == ("f", "c"):
        return (v - 32) * Fraction(5, 9)
    for table in TABLES:
        if frm in table and to in table:
            return v * table[frm] / table[to]
    raise AssertionError(f"no conversion {frm} → {to}")


def days_words(n: int) -> str:
    return {0: "today", 1: "tomorrow"}.get(n, f"{int_words(n)} days")


def said_date(d: date) -> tuple[str, ...]:
    return (f"{MONTH_NAMES[d.month - 1]} {ordinal_words(d.day)}",
            f"{ordinal_words(d.day)} of {MONTH_NAMES[d.month - 1]}")  # fmt: skip


def upcoming(today: date, month: int, day: int) -> date:
    for year in (today.year, today.year + 1):
        d = date(year, month, day)
        if d >= today:
            return d
    raise AssertionError


def length_words(seconds: int) -> str:
    parts = []
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        n, seconds = divmod(seconds, size)
        if n:
            parts.append(f"{int_words(n)} {unit}" + ("s" if n > 1 else ""))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def derive(calc: dict, now: datetime) -> tuple[str, ...]:
    op, today = calc["op"], now.date()
    if op in ("add", "sub", "mul", "div", "pow", "pct", "off"):
        return number_words(binary(op, calc["a"], calc["b"]))
    if op == "add3":
        return number_words(Fraction(calc["a"]) + Fraction(calc["b"]) + Fraction(calc["c"]))
    if op == "sqrt":
        root = next(n for n in range(1, 1000) if n * n == calc["a"])
        return number_words(Fraction(root))
    if op == "chain":
        return number_words(binary(calc["g"], binary(calc["f"], calc["a"], calc["b"]), calc["c"]))
    if op == "conv":
        return number_words(converted(calc["v"], calc["frm"], calc["to"]))
    if op == "time_now":
        return tuple(dict.fromkeys(int_words((now.hour + k) % 12 or 12) for k in (0, 1)))
    if op == "date_today":
        return said_date(today)
    if op == "weekday_today":
        return (DAY_NAMES[today.weekday()],)
    if op == "date_in":
        return said_date(today + timedelta(days=calc["n"]))
    if op == "weekday_in":
        return (DAY_NAMES[(today + timedelta(days=calc["n"])).weekday()],)
    if op == "until_date":
        return (days_words((upcoming(today, calc["month"], calc["day"]) - today).days),)
    if op == "until_holiday":
        return (days_words((upcoming(today, *FIXED_DAYS[calc["holiday"]]) - today).days),)
    if op == "set":
        return (length_words(calc["seconds"]),)
    if op == "left":
        m = calc["minutes"]
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "cancel":
        return ("cancelled", "canceled")
    if op == "spell":
        return (", ".join(ch.upper() for ch in calc["word"] if ch.isalpha()),)
    raise AssertionError(f"not derived here: {op}")


def numbers_said(text: str) -> list[str]:
    """Each number in the text in words (and as an ordinal)."""
    out = []
    for tok in re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", text):
        q = Fraction(tok.replace(",", ""))
        out.append(words_at(q, 2))
        if q.denominator == 1 and q < 100:
            out.append(ordinal_words(int(q)))
    return out


# --- the tests ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records():
    return built(0, NOW)


def test_sizes(records):
    assert len(records) == 256 and len(logs(0, NOW)) == 256
    assert {k: sum(r.request.kind == k for r in records) for k in KINDS} == COUNTS
    assert set(KINDS) == set(COUNTS)
    assert len(HOMES) == 8
    for home in HOMES:
        mine = [r for r in records if r.home == home]
        assert len(mine) == 32, home
        assert sum(r.request.kind == "refusal" for r in mine) == 16, home


def test_unique_texts(records):
    assert len({r.request.turns for r in records}) == len(records)
    assert len({" / ".join(r.request.turns) for r in records}) == len(records)


def test_refusals(records):
    for r in records:
        q = r.request
        assert (q.expect == ()) == (q.kind == "refusal"), q
        assert q.refusal == (q.kind == "refusal")
        if q.kind == "refusal":
            assert len(q.turns) == 1 and r.calc == {"op": "refusal"}, q
        else:
            assert q.expect and all(q.expect), q


def test_turns(records):
    for r in records:
        q = r.request
        if q.kind == "follow-up":
            assert len(q.turns) == 2 and "first" in r.calc, q
            first = derive(r.calc["first"], NOW) if r.calc["first"]["op"] in DERIVED else ()
            assert not any(_norm(e) in _norm(" | ".join(first)) for e in q.expect), q
        elif q.kind == "timer":
            assert len(q.turns) == (1 if r.calc["op"] == "set" else 2), q
        else:
            assert len(q.turns) == 1, q


@pytest.mark.parametrize("now", NOWS)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_expected_answers_rederived(seed, now):
    seen = 0
    for r in built(seed, now):
        if r.calc["op"] in DERIVED:
            assert r.request.expect == derive(r.calc, now), (r.request.turns, r.calc)
            seen += 1
        if r.request.kind in ("arithmetic", "units", "clock", "timer"):
            assert r.calc["op"] in DERIVED, r.calc
    assert seen >= 100


def test_time_answers_for_every_hour():
    for hour in range(24):
        now = NOW.replace(hour=hour)
        times = [r for r in built(0, now) if r.calc["op"] == "time_now"]
        assert len(times) >= 5
        for r in times:
            assert r.request.expect == derive(r.calc, now)


@pytest.mark.parametrize("now", NOWS)
def test_no_answer_in_the_turns(now):
    for r in built(0, now):
        if r.calc["op"] == "set":  # a timer's confirmation repeats its length
            continue
        for turn in r.request.turns:
            heard = [_norm(turn)] + [_norm(w) for w in numbers_said(turn)]
            for e in r.request.expect:
                assert not any(_norm(e) in h for h in heard), (e, r.request.turns)


def test_timers_are_cleared(records):
    ops = ("set", "left", "cancel")
    for r in records:
        timers = r.calc["op"] in ops or r.calc.get("first", {}).get("op") in ops
        assert r.request.after == (CLEAR if timers else ()), r.request


def test_channels(records):
    small = re.compile(r"(?<![\d.,:£$])\b(?:[0-9]|10)\b(?![\d.,:%]|st|nd|rd|th)")
    for kind in KINDS:
        ways = [r.channel for r in records if r.request.kind == kind]
        assert ways.count("typed") == ways.count("spoken") == len(ways) // 2, kind
    for r in records:
        assert r.channel in CHANNELS
        for turn in r.request.turns:
            if r.channel == "typed":
                assert turn == turn.lower() and "?" not in turn, turn
            else:
                assert turn[0].isupper() and turn[-1] in ".?!", turn
                assert not small.search(turn), turn


def test_the_days_run_in_order(records):
    for home in HOMES:
        times = [r.at for r in records if r.home == home]
        assert times == sorted(times) and len(set(times)) == len(times), home


def test_deterministic():
    assert built(0, NOW) == built(0, NOW)
    assert logs(0, NOW) == logs(0, NOW)
    assert logs(1, NOW) != logs(0, NOW)


def test_same_in_another_process():
    code = ("from datetime import datetime; from bench.logs import logs; "
            "print(repr(logs(0, datetime(2026, 3, 14, 9, 30))))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "4321", "PATH": ""})  # fmt: skip
    assert out.stdout.strip() == repr(logs(0, NOW))


def test_request_set():
    got = request_set("logs")
    assert len(got) == 256
    assert [q.kind for q in got] == [q.kind for q in logs()]
