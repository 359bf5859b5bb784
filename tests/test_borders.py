"""bench/borders.py: sizes, kinds, domains and channels, unique texts, refusals, determinism,
and the expected answers worked out again here from each calc record with code separate from the
module's (its own unit table, number words, calendar, capitals and planets)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bench.borders import CHANNELS, COUNTRIES, DOMAINS, KINDS, borders, built
from bench.everyday import CLEAR
from bench.skills import _norm, request_set
from words.spoken import int_words, ordinal_words

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 14, 9, 30)
NOWS = (NOW, datetime(2027, 12, 24, 23, 40), datetime(2028, 2, 29, 0, 5),
        datetime(2026, 10, 31, 12, 0), datetime(2027, 1, 1, 17, 59))  # fmt: skip
COUNTS = {"clock": 18, "timer": 18, "arithmetic": 19, "units": 19, "spelling": 18, "facts": 18,
          "follow-up": 18, "refusal": 128}  # fmt: skip

# --- an independent working of the answers ----------------------------------------------------
INCH = Fraction("0.0254")
LB = Fraction("0.45359237")
US_GALLON = Fraction("3.785411784")
TABLES = (
    {"cm": Fraction(1, 100), "m": Fraction(1), "km": Fraction(1000), "in": INCH,
     "ft": 12 * INCH, "yd": 36 * INCH, "mi": 63360 * INCH},
    {"g": Fraction(1, 1000), "kg": Fraction(1), "lb": LB, "oz": LB / 16, "st": 14 * LB},
    {"ml": Fraction(1, 1000), "l": Fraction(1), "gal": US_GALLON, "floz": US_GALLON / 128,
     "cup": US_GALLON / 16},
    {"kmh": Fraction(1000, 3600), "mph": 63360 * INCH / 3600, "knot": Fraction(1852, 3600)},
    {"s": Fraction(1), "min": Fraction(60), "h": Fraction(60 * 60), "day": Fraction(24 * 60 * 60),
     "week": Fraction(7 * 24 * 60 * 60)},
)  # fmt: skip
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]  # fmt: skip
DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
HOLIDAY_DATES = {"christmas": (12, 25), "halloween": (10, 31), "new year": (1, 1),
                 "valentine's day": (2, 14)}  # fmt: skip
CAPITALS = {"France": "Paris", "Germany": "Berlin", "Japan": "Tokyo", "Italy": "Rome",
            "Spain": "Madrid", "Brazil": "Brasília", "Canada": "Ottawa",
            "Australia": "Canberra", "India": "New Delhi", "Mexico": "Mexico City",
            "Egypt": "Cairo", "Kenya": "Nairobi", "Norway": "Oslo", "Sweden": "Stockholm",
            "Poland": "Warsaw", "Argentina": "Buenos Aires", "Chile": "Santiago", "Peru": "Lima",
            "Turkey": "Ankara", "Greece": "Athens", "Portugal": "Lisbon", "Ireland": "Dublin",
            "Thailand": "Bangkok", "Vietnam": "Hanoi", "Nigeria": "Abuja", "Morocco": "Rabat",
            "Netherlands": "Amsterdam", "Switzerland": "Bern", "Austria": "Vienna",
            "Indonesia": "Jakarta"}  # fmt: skip
SUN_ORDER = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]


def words_at(q: Fraction, places: int) -> str:
    scaled = round(q * 10**places)
    whole, part = divmod(abs(scaled), 10**places)
    text = int_words(whole)
    tail = f"{part:0{places}d}".rstrip("0") if places else ""
    if tail:
        text += " point " + " ".join(int_words(int(ch)) for ch in tail)
    return ("minus " if scaled < 0 else "") + text


def number_words(q: Fraction) -> tuple[str, ...]:
    if (q * 100).denominator == 1:
        return (words_at(q, 2),)
    places = 2 if abs(q) < 10 else (1 if abs(q) < 100 else 0)
    out = [words_at(q, places)]
    if places and words_at(q, places - 1) != out[0]:
        out.append(words_at(q, places - 1))
    return tuple(out)


def binary(op: str, a, b) -> Fraction:
    a, b = Fraction(a), Fraction(b)
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "div": lambda: a / b, "pow": lambda: a ** int(b), "pct": lambda: a / 100 * b,
            "with_pct": lambda: a + a * b / 100, "off": lambda: a - a * b / 100}[op]()  # fmt: skip


def converted(v, frm: str, to: str) -> Fraction:
    v = Fraction(v)
    if (frm, to) == ("c", "f"):
        return v * Fraction(9, 5) + 32
    if (frm, to) == ("f", "c"):
        return (v - 32) * Fraction(5, 9)
    table = next(x for x in TABLES if frm in x and to in x)
    return v * table[frm] / table[to]


def days_words(n: int) -> str:
    return {0: "today", 1: "tomorrow"}.get(n, f"{int_words(n)} days")


def said_date(d: date) -> tuple[str, ...]:
    m, o = MONTH_NAMES[d.month - 1], ordinal_words(d.day)
    return (f"{m} {o}", f"{o} of {m}")


def upcoming(today: date, month: int, day: int) -> date:
    return next(d for y in (today.year, today.year + 1) if (d := date(y, month, day)) >= today)


def length_words(seconds: int) -> str:
    parts = []
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        n, seconds = divmod(seconds, size)
        if n:
            parts.append(f"{int_words(n)} {unit}" + ("s" if n > 1 else ""))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def spelled(word: str) -> str:
    return ", ".join(ch.upper() for ch in word if ch.isalpha())


NUMERIC = ("add", "sub", "mul", "div", "pow", "pct", "with_pct", "off", "add3", "sqrt", "chain",
           "conv")  # fmt: skip


def derive(calc: dict, now: datetime) -> tuple[str, ...] | None:
    """The accepted words, worked out again; None where only the module's table can say."""
    op, today = calc["op"], now.date()
    if op in BINARY_OPS:
        return number_words(binary(op, calc["a"], calc["b"]))
    if op == "add3":
        return number_words(Fraction(calc["a"]) + calc["b"] + calc["c"])
    if op == "sqrt":
        return number_words(Fraction(next(r for r in range(1, 1000) if r * r == calc["a"])))
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
    if op == "weekday_of":
        return (DAY_NAMES[calc["date"].weekday()],)
    if op == "date_in":
        return said_date(today + timedelta(days=calc["n"]))
    if op == "until_date":
        return (days_words((upcoming(today, calc["month"], calc["day"]) - today).days),)
    if op == "until_holiday":
        return (days_words((upcoming(today, *HOLIDAY_DATES[calc["holiday"]]) - today).days),)
    if op == "set":
        return (length_words(calc["seconds"]),)
    if op == "left":
        m = calc["minutes"]
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "cancel":
        return ("cancelled", "canceled")
    if op == "spell":
        return (spelled(calc["word"]),)
    if op == "spell_capital":
        return (spelled(CAPITALS[calc["country"]]),)
    if op == "planet_at":
        return (SUN_ORDER[calc["order"] - 1],)
    if op == "planet_order":
        return (ordinal_words(SUN_ORDER.index(calc["planet"]) + 1),)
    if op == "planet_most":
        return ({"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}[calc["which"]],)
    if op == "refusal":
        return ()
    return None


BINARY_OPS = ("add", "sub", "mul", "div", "pow", "pct", "with_pct", "off")


def numbers_said(text: str) -> list[str]:
    """Each number in the text in words (and as an ordinal)."""
    out = []
    for tok in re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", text):
        q = Fraction(tok.replace(",", ""))
        out.append(words_at(q, 2))
        if q.denominator == 1 and q < 100:
            out.append(ordinal_words(int(q)))
    return out


# --- the tests --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records():
    return built(0, NOW)


def test_sizes_and_kinds(records):
    assert len(records) == 256
    assert Counter(r.request.kind for r in records) == COUNTS
    assert set(COUNTS) == set(KINDS)
    assert len(borders(0, NOW)) == 256


def test_unique_texts(records):
    texts = [r.request.turns for r in records]
    assert len(set(texts)) == len(texts)
    last = [_norm(r.request.turns[-1]) for r in records if len(r.request.turns) == 1]
    assert len(set(last)) == len(last)


def test_refusals(records):
    for r in records:
        q = r.request
        assert (q.expect == ()) == (q.kind == "refusal"), q
        assert q.refusal == (q.kind == "refusal")
        if q.kind != "refusal":
            assert q.expect and all(q.expect), q


def test_domains(records):
    refusals = Counter(r.domain for r in records if r.request.kind == "refusal")
    assert refusals == {d: 8 for d in DOMAINS}
    assert len(DOMAINS) == 16
    assert {r.domain for r in records} <= set(DOMAINS)
    # the in-scope half is dressed in many of the same domains
    assert len({r.domain for r in records if r.request.kind != "refusal"}) >= 12


def test_timers_and_follow_ups(records):
    for r in records:
        q = r.request
        assert q.after == (CLEAR if q.kind == "timer" else ()), q
        if q.kind == "follow-up":
            assert len(q.turns) == 2 and "first" in r.calc, q
            first = derive(r.calc["first"], NOW)
            if first is not None:
                assert not any(_norm(e) in _norm(" | ".join(first)) for e in q.expect), q
        elif q.kind not in ("timer", "refusal"):
            assert len(q.turns) == 1, q


def test_deterministic():
    assert built(0, NOW) == built(0, NOW)
    assert borders(0, NOW) == borders(0, NOW)
    assert borders(1, NOW) != borders(0, NOW)


def test_same_in_another_process():
    code = ("from datetime import datetime; from bench.borders import borders; "
            "print(repr(borders(0, datetime(2026, 3, 14, 9, 30))))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "4321", "PATH": ""})  # fmt: skip
    assert out.stdout.strip() == repr(borders(0, NOW))


@pytest.mark.parametrize("now", NOWS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_expected_answers_rederived(seed, now):
    numeric = 0
    for r in built(seed, now):
        got = derive(r.calc, now)
        if r.calc["op"] in NUMERIC:
            numeric += 1
            assert got is not None
        if got is not None:
            assert r.request.expect == got, (r.request.turns, r.calc)
    assert numeric >= 19 + 19


def test_arithmetic_and_units_values(records):
    """Every arithmetic and units answer, and a few hand-checked ones."""
    kinds = Counter(r.request.kind for r in records if r.calc["op"] in NUMERIC)
    assert kinds["arithmetic"] == 19 and kinds["units"] == 19
    assert converted(1, "day", "s") == 86400 and converted(2, "week", "h") == 336
    assert number_words(converted(100, "c", "f")) == ("two hundred and twelve",)
    assert number_words(converted(5, "mi", "km")) == ("eight point zero five", "eight")
    assert number_words(binary("pct", 15, 80)) == ("twelve",)


def test_country_facts(records):
    for r in records:
        op, name = r.calc["op"], r.calc.get("country")
        if op in ("capital", "currency", "language", "continent"):
            assert r.request.expect == getattr(COUNTRIES[name], op)
            if op == "capital":
                assert r.request.expect[0] == CAPITALS[name]
    assert set(COUNTRIES) == set(CAPITALS)


@pytest.mark.parametrize("now", NOWS)
def test_no_answer_in_the_turns(now):
    for r in built(0, now):
        for turn in r.request.turns:
            heard = [_norm(turn)] + [_norm(w) for w in numbers_said(turn)]
            for e in r.request.expect:
                assert not any(_norm(e) in h for h in heard), (e, r.request.turns)


def test_every_hour_and_many_days():
    for hour in range(24):
        now = NOW.replace(hour=hour)
        for r in built(0, now):
            if r.calc["op"] == "time_now":
                assert r.request.expect == derive(r.calc, now)
    for days in range(0, 366, 7):
        assert len(built(0, NOW + timedelta(days=days))) == 256


def test_channels(records):
    small = re.compile(r"(?<![\d.,:£$])\b(?:[0-9]|10)\b(?![\d.,:%]|st|nd|rd|th)")
    for kind in KINDS:
        assert {r.channel for r in records if r.request.kind == kind} == set(CHANNELS), kind
    for domain in DOMAINS:
        mine = [r.channel for r in records if r.request.kind == "refusal" and r.domain == domain]
        assert sorted(mine) == sorted(CHANNELS * 4), domain
    for r in records:
        for turn in r.request.turns:
            if r.channel == "typed":
                assert turn == turn.lower() and "?" not in turn, turn
            else:
                assert turn[0].isupper() and turn[-1] in ".?", turn
                assert not small.search(turn), turn


def test_request_set():
    got = request_set("borders")
    assert len(got) == 256
    assert got == borders() or request_set("borders") == borders()
