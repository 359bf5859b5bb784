"""bench/sources.py: sizes, coverage of sources, kinds and channels, determinism, and every
expected answer worked out again here from its calc record, with code separate from the
module's (its own unit table, number words, calendar and facts look-ups)."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bench.everyday import CLEAR
from bench.skills import _norm, request_set
from bench.sources import CHANNELS, KINDS, SOURCES, built, sources
from words.facts import COUNTRIES, PLANETS
from words.spoken import int_words, ordinal_words

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 14, 9, 30)
NOWS = (NOW, datetime(2027, 12, 24, 23, 40), datetime(2028, 2, 29, 0, 5),
        datetime(2026, 10, 31, 12, 0), datetime(2027, 3, 28, 17, 59))  # fmt: skip

# --- an independent working of the answers ----------------------------------------------------
INCH_M = Fraction("0.0254")
LB_KG = Fraction("0.45359237")
USGAL_L = Fraction("3.785411784")
METRES = {"mm": Fraction(1, 1000), "cm": Fraction(1, 100), "m": Fraction(1), "km": Fraction(1000),
          "in": INCH_M, "ft": 12 * INCH_M, "yd": 36 * INCH_M, "mi": 63360 * INCH_M}  # fmt: skip
KILOS = {"g": Fraction(1, 1000), "kg": Fraction(1), "lb": LB_KG, "oz": LB_KG / 16,
         "st": 14 * LB_KG}  # fmt: skip
LITRES = {"ml": Fraction(1, 1000), "l": Fraction(1), "gal": USGAL_L, "floz": USGAL_L / 128,
          "cup": USGAL_L / 16, "tbsp": USGAL_L / 256}  # fmt: skip
METRES_PER_S = {"kmh": Fraction(1000, 3600), "mph": 63360 * INCH_M / 3600,
                "knot": Fraction(1852, 3600)}  # fmt: skip
EASTER = {2025: date(2025, 4, 20), 2026: date(2026, 4, 5), 2027: date(2027, 3, 28),
          2028: date(2028, 4, 16), 2029: date(2029, 4, 1), 2030: date(2030, 4, 21),
          2031: date(2031, 4, 13), 2032: date(2032, 3, 28), 2033: date(2033, 4, 17),
          2034: date(2034, 4, 9), 2035: date(2035, 3, 25)}  # fmt: skip
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]  # fmt: skip
DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


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
            "with_pct": lambda: a + a * b / 100, "off": lambda: a - a * b / 100}[op]()  # fmt: skip


def converted(v, frm: str, to: str) -> Fraction:
    v = Fraction(v)
    if frm == "c" and to == "f":
        return v * Fraction(9, 5) + 32
    if frm == "f" and to == "c":
        return (v - 32) * Fraction(5, 9)
    for table in (METRES, KILOS, LITRES, METRES_PER_S):
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


COUNTRY = {c.name: c for c in COUNTRIES}
CURRENCY_LONG = {"euro": ("the euro", "euros"), "won": ("the won", "Korean won"),
                 "real": ("the real", "Brazilian real")}  # fmt: skip


def country_fact(attr: str, name: str) -> tuple[str, ...]:
    c = COUNTRY[name]
    if attr == "capital":
        return (c.capital.partition(",")[0],)
    if attr == "continent":
        return (c.continent.replace("both ", "", 1),)
    if attr == "language":
        return (c.language,)
    bare = c.currency[4:] if c.currency.startswith("the ") else c.currency
    return CURRENCY_LONG.get(bare, (bare,))


def derive(calc: dict, now: datetime) -> tuple[str, ...]:
    op, today = calc["op"], now.date()
    if op in ("add", "sub", "mul", "div", "pow", "pct", "with_pct", "off"):
        return number_words(binary(op, calc["a"], calc["b"]))
    if op == "add3":
        return number_words(Fraction(calc["a"]) + Fraction(calc["b"]) + Fraction(calc["c"]))
    if op == "mul3":
        return number_words(Fraction(calc["a"]) * Fraction(calc["b"]) * Fraction(calc["c"]))
    if op == "sqrt":
        root = next(r for r in range(1, 1000) if r * r == calc["a"])
        return number_words(Fraction(root))
    if op == "chain":
        return number_words(binary(calc["g"], binary(calc["f"], calc["a"], calc["b"]), calc["c"]))
    if op == "conv":
        return number_words(converted(calc["v"], calc["frm"], calc["to"]))
    if op == "time_now":
        hours = [int_words((now.hour + k) % 12 or 12) for k in (0, 1)]
        return tuple(dict.fromkeys(hours))
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
        if calc["holiday"] == "easter":
            d = min(e for e in EASTER.values() if e >= today)
        else:
            md = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
                  "valentine's day": (2, 14)}[calc["holiday"]]  # fmt: skip
            d = upcoming(today, *md)
        return (days_words((d - today).days),)
    if op == "month_days":
        m, y = calc["month"], calc["year"]
        n = ((date(y + m // 12, m % 12 + 1, 1)) - date(y, m, 1)).days
        return (f"{int_words(n)} days",)
    if op == "set":
        return (length_words(calc["seconds"]),)
    if op == "left":
        m = calc["minutes"]
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "cancel":
        return ("cancelled", "canceled")
    if op == "spell":
        return (", ".join(ch.upper() for ch in calc["word"] if ch.isalpha()),)
    if op in ("capital", "currency", "language", "continent"):
        return country_fact(op, calc["country"])
    if op == "planet_at":
        return (next(p.name for p in PLANETS if p.order == calc["order"]),)
    if op == "planet_order":
        return (ordinal_words(next(p.order for p in PLANETS if p.name == calc["planet"])),)
    if op == "planet_most":
        return ({"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}[calc["which"]],)
    if op == "moons":
        return (next(p.moons_answer for p in PLANETS if p.name == calc["planet"]),)
    if op == "refusal":
        return ()
    raise AssertionError(f"unknown op {op}")


def numbers_said(text: str) -> list[str]:
    """Each number in the text in words (and as a year, and as an ordinal)."""
    out = []
    for tok in re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", text):
        q = Fraction(tok.replace(",", ""))
        out.append(words_at(q, 2))
        if q.denominator == 1 and q < 100:
            out.append(ordinal_words(int(q)))
        if q.denominator == 1 and 1900 <= q < 2100:
            n = int(q)
            hi, lo = divmod(n, 100)
            low = int_words(lo) if lo >= 10 else "oh " + int_words(lo)
            out.append(int_words(n) if lo == 0 or 2000 <= n < 2010 else f"{int_words(hi)} {low}")
    return out


# --- the tests --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records():
    return built(0, NOW)


def test_sizes(records):
    assert len(records) >= 224
    for kind in KINDS:
        n = sum(r.request.kind == kind for r in records)
        assert 25 <= n <= 40, (kind, n)
    assert {r.request.kind for r in records} == set(KINDS)


def test_every_source_has_all_kinds_and_both_channels(records):
    assert len(SOURCES) == 8 and set(CHANNELS) == {"typed", "spoken"}
    for source in SOURCES:
        mine = [r for r in records if r.source == source]
        assert {r.request.kind for r in mine} == set(KINDS), source
        assert {r.channel for r in mine} == set(CHANNELS), source
    for kind in KINDS:
        assert {r.channel for r in records if r.request.kind == kind} == set(CHANNELS), kind


def test_deterministic():
    assert built(0, NOW) == built(0, NOW)
    assert sources(0, NOW) == sources(0, NOW)
    assert sources(1, NOW) != sources(0, NOW)


def test_same_in_another_process():
    code = ("from datetime import datetime; from bench.sources import sources; "
            "print(repr(sources(0, datetime(2026, 3, 14, 9, 30))))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "4321", "PATH": ""})  # fmt: skip
    assert out.stdout.strip() == repr(sources(0, NOW))


@pytest.mark.parametrize("now", NOWS)
@pytest.mark.parametrize("seed", [0, 1])
def test_expected_answers_rederived(seed, now):
    for r in built(seed, now):
        assert r.request.expect == derive(r.calc, now), (r.request.turns, r.calc)
        if r.request.kind != "refusal":
            assert r.request.expect and all(r.request.expect)


@pytest.mark.parametrize("now", NOWS)
def test_no_answer_in_the_turns(now):
    for r in built(0, now):
        for turn in r.request.turns:
            heard = [_norm(turn)] + [_norm(w) for w in numbers_said(turn)]
            heard.append(" ".join(heard[1:]))
            for e in r.request.expect:
                assert not any(_norm(e) in h for h in heard), (e, r.request.turns)


def test_time_answers_for_every_hour():
    for hour in range(24):
        now = NOW.replace(hour=hour)
        for r in built(0, now):
            if r.calc["op"] == "time_now":
                assert r.request.expect == derive(r.calc, now)


def test_refusals_and_timers(records):
    for r in records:
        q = r.request
        assert (q.expect == ()) == (q.kind == "refusal"), q
        assert q.refusal == (q.kind == "refusal")
        assert q.after == (CLEAR if q.kind == "timer" else ()), q
        if q.kind == "timer":
            assert r.calc["op"] in ("set", "left", "cancel")


def test_follow_ups(records):
    for r in records:
        if r.request.kind != "follow-up":
            assert len(r.request.turns) == 1 or r.request.kind == "timer", r.request
            continue
        assert len(r.request.turns) >= 2
        first = derive(r.calc["first"], NOW)
        assert not any(_norm(e) in _norm(" | ".join(first)) for e in r.request.expect)
        op, name = r.calc["op"], r.calc.get("country")
        if name and r.calc["first"].get("country") == name:  # another fact of the same country
            others = [c for c in COUNTRIES if c.name != name]
            for e in r.request.expect:
                assert not any(_norm(e) in _norm(getattr(c, op)) for c in others), (e, name)


def test_channels(records):
    small = re.compile(r"(?<![\d.,:£$])\b(?:[0-9]|10)\b(?![\d.,:%]|st|nd|rd|th)")
    for r in records:
        for turn in r.request.turns:
            if r.channel == "typed":
                assert turn == turn.lower() and "?" not in turn, turn
            else:
                assert turn[0].isupper() and turn[-1] in ".?", turn
                assert not small.search(turn), turn
    assert len({r.request.turns for r in records}) == len(records)


def test_request_set():
    before = sources()
    got = request_set("sources")
    assert got == before or got == sources()
