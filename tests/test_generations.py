"""The generations set (bench/generations.py): its size per kind and per speaker, both channels,
determinism, and every expected answer derived again here from the request's calc record, by
code of its own (arithmetic with Fraction, conversions from the exact unit definitions, calendar
with datetime and a table of Easter dates, facts from the tables) — never by running the
assistant."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bench import everyday as ev
from bench.generations import (
    CHANNELS,
    KINDS,
    SPEAKERS,
    built,
    easter,
    generations,
)
from bench.skills import MONTHS, WEEKDAYS, _norm, request_set, useful
from words.facts import COUNTRIES, PLANETS
from words.spoken import int_words, ordinal_words

NOW = datetime(2026, 3, 14, 15, 30)
ROOT = Path(__file__).resolve().parents[1]

# Western Easter Sunday, from published calendars
EASTER = {
    2024: date(2024, 3, 31), 2025: date(2025, 4, 20), 2026: date(2026, 4, 5),
    2027: date(2027, 3, 28), 2028: date(2028, 4, 16), 2029: date(2029, 4, 1),
    2030: date(2030, 4, 21), 2031: date(2031, 4, 13), 2032: date(2032, 3, 28),
    2033: date(2033, 4, 17), 2034: date(2034, 4, 9), 2035: date(2035, 3, 25),
}  # fmt: skip
FIXED = {"christmas": (12, 25), "halloween": (10, 31), "valentines": (2, 14),
         "new year": (1, 1)}  # fmt: skip

# size of one unit in metres, kilograms, litres or metres per second
SIZE = {
    "mi": ev.MILE, "km": Fraction(1000), "m": Fraction(1), "cm": Fraction(1, 100),
    "in": ev.INCH, "ft": ev.FOOT, "yd": ev.YARD,
    "kg": Fraction(1), "g": Fraction(1, 1000), "lb": ev.POUND, "oz": ev.POUND / 16,
    "st": ev.POUND * 14,
    "l": Fraction(1), "ml": Fraction(1, 1000), "gal": ev.GALLON, "cup": ev.GALLON / 16,
    "floz": ev.GALLON / 128, "tbsp": ev.GALLON / 256,
    "kmh": Fraction(1000, 3600), "mph": ev.MILE / 3600, "knot": Fraction(1852, 3600),
}  # fmt: skip
MOONS = {
    "Mars": ("two small moons", "two moons", "Phobos"),
    "Jupiter": ("Ganymede", "dozens of moons"),
    "Saturn": ("over a hundred moons",),
}
SHORT_CURRENCY = {"euro": ("the euro", "euros"), "won": ("the won", "korean won"),
                  "real": ("the real", "brazilian real")}  # fmt: skip
BY_NAME = {c.name: c for c in COUNTRIES}
PLANET = {p.name: p for p in PLANETS}
PLANET_AT = {p.order: p for p in PLANETS}


# --- the answers, derived again --------------------------------------------------------------
def upcoming(today: date, m: int, d: int) -> date:
    this = date(today.year, m, d)
    return this if this >= today else date(today.year + 1, m, d)


def feast(today: date, name: str) -> date:
    if name == "easter":
        return min(d for d in EASTER.values() if d >= today)
    return upcoming(today, *FIXED[name])


def in_days(n: int) -> str:
    return {0: "today", 1: "tomorrow"}.get(n, int_words(n) + " days")


def spoken_date(d: date) -> tuple[str, str]:
    return (f"{MONTHS[d.month - 1]} {ordinal_words(d.day)}",
            f"{ordinal_words(d.day)} of {MONTHS[d.month - 1]}")  # fmt: skip


def op(name: str, a, b=0) -> Fraction:
    a, b = Fraction(a), Fraction(b)
    if name == "sqrt":
        r = math.isqrt(int(a))
        assert r * r == a
        return Fraction(r)
    return {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
        "div": lambda: a / b, "split": lambda: a / b, "pct": lambda: a / 100 * b,
        "tip": lambda: b * a / 100, "pow": lambda: a ** int(b), "sq": lambda: a**2,
    }[name]()  # fmt: skip


def convert(q, src: str, dst: str) -> Fraction:
    q = Fraction(q)
    if (src, dst) == ("c", "f"):
        return q * Fraction(9, 5) + 32
    if (src, dst) == ("f", "c"):
        return (q - 32) * Fraction(5, 9)
    return q * SIZE[src] / SIZE[dst]


def country_says(name: str, what: str) -> tuple[str, ...]:
    c = BY_NAME[name]
    if what == "capital":
        return (c.capital.partition(",")[0],)
    if what == "continent":
        return (c.continent.replace("both ", ""),)
    if what == "language":
        return (c.language,)
    money = c.currency.removeprefix("the ")
    return SHORT_CURRENCY.get(money, (money,))


def moons(name: str) -> tuple[str, ...]:
    return MOONS.get(name, (PLANET[name].moons_answer,))


def spelled(word: str) -> str:
    return ", ".join(word.upper().replace(" ", ""))


def derive(calc: tuple, now: datetime) -> tuple[str, ...]:
    what, *a = calc
    today = now.date()
    match what:
        case "refusal":
            return ()
        case "time":
            return tuple(int_words((now.hour + k) % 12 or 12) for k in (0, 1))
        case "date":
            return spoken_date(today)
        case "weekday":
            return (WEEKDAYS[today.weekday()],)
        case "weekday_of":
            return (date(*a).strftime("%A"),)
        case "until":
            return (in_days((feast(today, a[0]) - today).days),)
        case "until_date":
            return (in_days((upcoming(today, *a) - today).days),)
        case "month_days":
            first = date(today.year, a[0], 1)
            nxt = date(today.year + (a[0] == 12), a[0] % 12 + 1, 1)
            return (f"{int_words((nxt - first).days)} days",)
        case "days_from_now":
            return spoken_date(today + timedelta(days=a[0]))
        case "weekday_in":
            return ((today + timedelta(days=a[0])).strftime("%A"),)
        case "timer":
            return (ev.duration(a[0]),)
        case "timer_left":
            return tuple(f"{int_words(m)} minute" for m in (a[0] - 1, a[0]))
        case "timer_cancel":
            return ("cancelled", "canceled")
        case "arith":
            return ev.number(op(*a))
        case "arith2":
            return ev.number(op(a[3], op(*a[:3]), a[4]))
        case "unit":
            return ev.number(convert(*a))
        case "unit2":
            return ev.number(convert(a[3], a[1], a[2]))
        case "unitto2":
            return ev.number(convert(a[0], a[1], a[3]))
        case "spell" | "spell2":
            return (spelled(a[0]),)
        case "spell_capital":
            return (spelled(country_says(a[0], "capital")[0]),)
        case "fact":
            return country_says(a[1], a[0])
        case "fact2":
            return country_says(a[1], a[2])
        case "other2":
            return country_says(a[2], a[0])
        case "planet_at":
            return (PLANET_AT[a[0]].name,)
        case "planet_next":
            return (PLANET_AT[a[0] + 1].name,)
        case "planet_order":
            return (ordinal_words(PLANET[a[0]].order),)
        case "biggest":
            return ("Jupiter",)
        case "smallest":
            return ("Mercury",)
        case "moons":
            return moons(a[0])
        case "moons_at":
            return moons(PLANET_AT[a[0]].name)
        case "biggest_moons":
            return moons("Jupiter")
    raise AssertionError(calc)


def numbers_in(calc: tuple) -> list:
    return [x for x in calc[1:] if isinstance(x, int | Fraction)]


# --- tests -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rows():
    return built(now=NOW)


def test_size_per_kind_and_speaker(rows):
    kinds = Counter(r.request.kind for r in rows)
    assert set(kinds) == set(KINDS)
    assert all(kinds[k] >= 25 for k in KINDS), kinds
    assert len(rows) >= 224
    assert {r.speaker for r in rows} == set(SPEAKERS) and len(SPEAKERS) == 8
    for s in SPEAKERS:
        got = Counter(r.request.kind for r in rows if r.speaker == s)
        assert set(got) == set(KINDS), (s, got)
        assert min(got.values()) >= 3, (s, got)
    # no request asked twice
    assert len({r.request.turns for r in rows}) == len(rows)


def test_channels(rows):
    assert {r.channel for r in rows} == set(CHANNELS) == {"typed", "spoken"}
    assert min(Counter(r.channel for r in rows).values()) >= 50
    for r in rows:
        for t in r.request.turns:
            if r.channel == "typed":
                assert t == t.lower(), t
            else:  # as Whisper writes: a capital, end punctuation, small numbers in words
                assert t[0].isupper() and t[-1] in ".?!", t  # a capital, not "ten miles..."
                assert not re.search(r"(?<![\d.,$£-])\b(10|\d)\b(?![.,]\d)", t), t


def test_answers_derived_again(rows):
    for r in rows:
        assert r.request.expect == derive(r.calc, NOW), (r.request.turns, r.calc)
        assert all(e.strip() for e in r.request.expect)


def test_answers_at_other_times():
    for now in (datetime(2026, 12, 25, 0, 5), datetime(2027, 2, 28, 23, 59),
                datetime(2028, 2, 29, 11, 0), datetime(2026, 10, 30, 12, 0)):  # fmt: skip
        for seed in (0, 3):
            for r in built(seed, now):
                assert r.request.expect == derive(r.calc, now), (now, r.calc)


def test_easter_computus_matches_calendar():
    for y, d in EASTER.items():
        assert easter(y) == d


def test_no_answer_in_its_own_request():
    starts = [NOW + timedelta(hours=h) for h in range(24)]
    starts += [datetime(2026, 1, 1, 9) + timedelta(days=d) for d in range(0, 366, 3)]
    for i, now in enumerate(starts):
        for r in built(i % 4, now):
            q = r.request
            text = _norm(" ".join(q.turns))
            back = _norm(" ".join(ev.said(x) for x in numbers_in(r.calc)))
            for e in q.expect:
                assert _norm(e) not in text, (q.turns, e)
                assert not back or _norm(e) not in back, (q.turns, e, back)


def test_conversions_survive_two_decimals(rows):
    for r in rows:
        if r.calc[0] in ("unit", "unit2", "unitto2"):
            what, q, src, dst, *more = r.calc
            if what == "unit2":
                q = more[0]
            if what == "unitto2":
                dst = more[0]
            x = convert(q, src, dst)
            two = _norm(ev.said(x, 2))
            assert any(_norm(e) in two for e in r.request.expect), (r.calc, two)


def test_refusals_timers_follow_ups(rows):
    for r in rows:
        q = r.request
        assert (q.kind == "refusal") == (q.expect == ()), q
        sets_timer = r.calc[0].startswith("timer")
        assert q.after == (ev.CLEAR if sets_timer else ()), q
        if q.kind == "timer":
            assert sets_timer and q.after == ev.CLEAR
        if q.kind == "follow-up":
            assert len(q.turns) == 2, q
        else:
            assert len(q.turns) == 1 or r.calc[0] in ("timer_left", "timer_cancel"), q


def test_follow_up_facts_cannot_pass_for_another_country(rows):
    def said_of(c, what):
        raw = {"capital": c.capital, "continent": c.continent, "language": c.language,
               "currency": c.currency}[what]  # fmt: skip
        return _norm(raw)

    for r in rows:
        if r.calc[0] == "fact2":
            _, _, name, what = r.calc
            for o in COUNTRIES:
                if o.name != name:
                    assert not any(_norm(e) in said_of(o, what) for e in r.request.expect), r
        if r.calc[0] == "other2":
            _, what, first, second = r.calc
            assert first != second
            assert not any(_norm(e) in said_of(BY_NAME[first], what) for e in r.request.expect)
        if r.calc[0] == "moons_at":
            others = [p for p in PLANETS if p.order != r.calc[1]]
            assert not any(_norm(e) in _norm(p.moons) for p in others for e in r.request.expect)


def test_currency_never_a_bare_substring(rows):
    for r in rows:
        for e in r.request.expect:
            assert _norm(e) not in ("euro", "won", "real"), r


def test_scorer_takes_the_answer(rows):
    for r in rows:
        q = r.request
        if q.expect:
            assert useful(q, f"Here you go: {q.expect[0]}.")
            assert not useful(q, "Sorry, I don't know that.") or q.kind == "timer"
        else:
            assert useful(q, "Sorry, I can't do that offline.")


def test_deterministic():
    a, b = built(now=NOW), built(now=NOW)
    assert a == b
    assert [r.request.turns for r in built(1, NOW)] != [r.request.turns for r in a]
    code = (
        "from datetime import datetime; from bench.generations import generations; "
        "print([(q.turns, q.expect) for q in generations(now=datetime(2026, 3, 14, 15, 30))])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout  # fmt: skip
    assert out.strip() == str([(r.request.turns, r.request.expect) for r in a])


def test_many_seeds_build():
    for seed in range(40):
        got = built(seed, NOW)
        assert Counter(r.request.kind for r in got) == Counter(r.request.kind for r in
                                                               built(0, NOW))  # fmt: skip
        for r in got:
            assert r.request.expect == derive(r.calc, NOW)


def test_request_set_registered():
    a, b = request_set("generations"), generations()
    assert [(q.turns, q.kind, q.after) for q in a] == [(q.turns, q.kind, q.after) for q in b]
    assert [q.expect for q in a if q.kind != "clock"] == [q.expect for q in b if q.kind != "clock"]
