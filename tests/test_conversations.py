"""The conversations set (bench/conversations.py): its size per kind and per situation, both
channels, the shape of each conversation, determinism, and every expected answer derived again
here from the conversation's calc record by code of its own (arithmetic with Fraction,
conversions from the exact unit definitions, calendar with datetime and calendar, facts from the
tables) — never by running the assistant."""

from __future__ import annotations

import calendar
import math
import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bench.conversations import CHANNELS, KINDS, SITUATIONS, built, conversations
from bench.skills import _norm, request_set
from words.facts import COUNTRIES, PLANETS
from words.spoken import int_words, ordinal_words

NOW = datetime(2026, 3, 14, 15, 30)
ROOT = Path(__file__).resolve().parents[1]
CLEAR = ("cancel all my timers",)
MONTH_NAMES = list(calendar.month_name)[1:]
DAY_NAMES = list(calendar.day_name)

# one unit in metres, kilograms, litres or metres per second, from the definitions
INCH = Fraction(254, 10_000)
POUND = Fraction(45_359_237, 10**8)
GALLON = Fraction(3_785_411_784, 10**9)
MILE = 1760 * 3 * 12 * INCH
SIZE = {
    "in": INCH, "ft": 12 * INCH, "yd": 36 * INCH, "mi": MILE, "m": Fraction(1),
    "km": Fraction(1000), "cm": Fraction(1, 100),
    "kg": Fraction(1), "g": Fraction(1, 1000), "lb": POUND, "oz": POUND / 16, "st": 14 * POUND,
    "l": Fraction(1), "ml": Fraction(1, 1000), "gal": GALLON, "cup": GALLON / 16,
    "floz": GALLON / 128,
    "kmh": Fraction(1000, 3600), "mph": MILE / 3600,
}  # fmt: skip
COUNTRY = {c.name: c for c in COUNTRIES}
PLANET = {p.name: p for p in PLANETS}
PLANET_AT = {p.order: p.name for p in PLANETS}
EXTREME = {"biggest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}
# longer or other forms a reply may use for a currency (short names hide in other words)
CURRENCY_FORMS = {
    "euro": ("the euro", "euros"), "won": ("the won", "korean won"),
    "real": ("the real", "brazilian real"), "pound sterling": ("pound sterling", "british pound"),
    "ruble": ("ruble", "rouble"),
}  # fmt: skip
CANCELLED = {"cancelled", "canceled", "stopped", "removed", "deleted"}


# --- the answers, derived again ----------------------------------------------------------------
def words(x: Fraction, places: int = 2) -> str:
    """``x`` to ``places`` decimals in words, rounding half up."""
    scaled = math.floor(abs(x) * 10**places + Fraction(1, 2))
    whole, frac = divmod(scaled, 10**places)
    out = int_words(whole)
    tail = f"{frac:0{places}d}".rstrip("0")
    if tail:
        out += " point " + " ".join(int_words(int(d)) for d in tail)
    return ("minus " if x < 0 and scaled else "") + out


def length_words(seconds: int) -> str:
    parts = []
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        n, seconds = divmod(seconds, size)
        if n:
            parts.append(f"{int_words(n)} {unit}" + ("s" if n > 1 else ""))
    return " and ".join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else parts[0]


def arith(op: str, args: tuple) -> Fraction:
    a = Fraction(args[0])
    b = Fraction(args[1]) if len(args) > 1 else None
    return {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
        "div": lambda: a / b, "split": lambda: a / b, "pct": lambda: a / 100 * b,
        "pow": lambda: a ** int(b), "sq": lambda: a**2,
        "sqrt": lambda: Fraction(math.isqrt(int(a))),
    }[op]()  # fmt: skip


def convert(calc: dict) -> Fraction:
    v, frm, to = Fraction(calc["value"]), calc["from"], calc["to"]
    if (frm, to) == ("c", "f"):
        return v * Fraction(9, 5) + 32
    if (frm, to) == ("f", "c"):
        return (v - 32) * Fraction(5, 9)
    return v * SIZE[frm] / SIZE[to]


def amount(calc: dict) -> Fraction:
    return convert(calc) if calc["op"] == "convert" else arith(calc["op"], calc["args"])


def next_date(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def hour_said(h: int) -> set[str]:
    return {int_words(h % 12 or 12)} | ({"midnight"} if h == 0 else {"noon"} if h == 12 else set())


def country_fact(field: str, name: str) -> set[str]:
    c = COUNTRY[name]
    if field == "capital":
        return {c.capital.split(",")[0]}
    if field == "continent":
        return {c.continent.removeprefix("both ")}
    if field == "language":
        return {c.language, re.split(r",| and ", c.language)[0]}
    base = c.currency.removeprefix("the ")
    return set(CURRENCY_FORMS.get(base, (base,)))


def moons(name: str) -> set[str]:
    p = PLANET[name]
    if p.moons_answer == "no moons":
        return {"no moons", "zero moons", "doesn't have any", "does not have any"}
    if name == "Mars":
        return {"two small moons", "two moons"}
    return {p.moons_answer}


def derive(calc: dict, now: datetime) -> set[str]:
    op = calc["op"]
    if op == "follow":
        scored = calc["scored"]
        if scored["op"] == "step":
            return {words(arith(scored["how"], (amount(calc["first"]), scored["by"])))}
        return derive(scored, now)
    if op == "time":
        return hour_said(now.hour) | hour_said((now + timedelta(hours=1)).hour)
    if op == "date":
        m, d = MONTH_NAMES[now.month - 1], ordinal_words(now.day)
        return {f"{m} {d}", f"{d} of {m}"}
    if op == "weekday":
        return {DAY_NAMES[now.weekday()]}
    if op == "until":
        n = (next_date(now.date(), calc["month"], calc["day"]) - now.date()).days
        return {"today"} if n == 0 else {"tomorrow", "one day"} if n == 1 else \
            {f"{int_words(n)} days"}  # fmt: skip
    if op == "month_days":
        return {f"{int_words(calendar.monthrange(now.year, calc['month'])[1])} days"}
    if op in ("set", "remind"):
        return {length_words(calc["seconds"])}
    if op == "cancel":
        return CANCELLED
    if op == "left":
        m = calc["seconds"] // 60
        return {f"{int_words(m)} minutes", f"{int_words(m - 1)} minute"}
    if op == "convert":
        x = amount(calc)
        if (x * 100).denominator == 1:  # said exactly
            return {words(x)}
        places = 2 if abs(x) < 10 else 1 if abs(x) < 100 else 0  # about three figures
        return {words(x)} | {words(x, p) for p in {places, max(places - 1, 0)}}
    if op == "spell":
        return {", ".join(ch.upper() for ch in calc["word"])}
    if op in ("capital", "currency", "language", "continent"):
        return country_fact(op, calc["country"])
    if op == "planet_at":
        return {PLANET_AT[calc["order"]]}
    if op == "planet_no":
        return {ordinal_words(PLANET[calc["planet"]].order)}
    if op in EXTREME:
        return {EXTREME[op]}
    if op == "moons":
        return moons(calc["planet"])
    if op == "big_moon":
        return {PLANET[calc["planet"]].moons_answer}
    if op == "refuse":
        return set()
    return {words(amount(calc))}


# --- fixtures -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records():
    return built(0, NOW)


def said_back(turns: tuple[str, ...]) -> str:
    numbers = re.findall(r"\d[\d,]*(?:\.\d+)?", " ".join(turns))
    return _norm(" ".join([*turns, *(words(Fraction(n.replace(",", ""))) for n in numbers)]))


# --- size and shape -------------------------------------------------------------------------------
def test_sizes(records):
    kinds = Counter(r.request.kind for r in records)
    assert set(kinds) == set(KINDS)
    assert all(n >= 25 for n in kinds.values()), kinds
    assert len(records) >= 224


def test_every_situation_has_every_kind_and_both_channels(records):
    assert set(SITUATIONS) == {r.situation for r in records} and len(SITUATIONS) == 8
    for s in SITUATIONS:
        mine = [r for r in records if r.situation == s]
        assert {r.request.kind for r in mine} == set(KINDS), s
        assert {r.channel for r in mine} == set(CHANNELS), s
    for k in KINDS:
        assert {r.channel for r in records if r.request.kind == k} == set(CHANNELS), k


def test_conversations_have_two_to_four_turns(records):
    for r in records:
        assert 2 <= len(r.request.turns) <= 4, r.request.turns
        assert all(t.strip() for t in r.request.turns)
    assert {len(r.request.turns) for r in records} == {2, 3, 4}


def test_no_two_conversations_alike(records):
    turns = [r.request.turns for r in records]
    assert len(set(turns)) == len(turns)


def test_channels(records):
    for r in records:
        for t in r.request.turns:
            if r.channel == "typed":
                assert t == t.lower(), t
            else:
                assert (t[0].isupper() or not t[0].isalpha()) and t[-1] in ".?!", t
                # numbers up to ten in words (a percentage or a sum of money in digits)
                assert not re.search(r"(?<![\d.,$])\b(\d|10)\b(?![\d.,%])", t), t


# --- determinism --------------------------------------------------------------------------------
def _key(reqs):
    return [(q.turns, q.kind, q.expect, q.after) for q in reqs]


def test_deterministic():
    assert _key(conversations(0, NOW)) == _key(conversations(0, NOW))
    assert _key(conversations(1, NOW)) != _key(conversations(0, NOW))


def test_same_in_another_process():
    code = (
        "from datetime import datetime; from bench.conversations import conversations; "
        "print(repr([(q.turns, q.kind, q.expect, q.after) "
        "for q in conversations(0, datetime(2026, 3, 14, 15, 30))]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()  # fmt: skip
    assert out == repr(_key(conversations(0, NOW)))


def test_request_set():
    mine, theirs = conversations(), request_set("conversations")

    def shape(reqs):
        return [(q.turns, q.kind, q.after) for q in reqs]

    assert shape(mine) == shape(theirs)
    steady = [(a.expect, b.expect) for a, b in zip(mine, theirs, strict=True) if a.kind != "clock"]
    assert all(a == b for a, b in steady)


# --- the answers ----------------------------------------------------------------------------------
def test_every_answer_derived_again(records):
    for r in records:
        assert set(r.request.expect) == derive(r.calc, NOW), (r.request.turns, r.request.expect)


@pytest.mark.parametrize("now", [
    datetime(2028, 2, 29, 0, 5), datetime(2026, 12, 25, 11, 59), datetime(2026, 12, 31, 23, 59),
    datetime(2027, 10, 30, 12, 0), datetime(2026, 1, 1, 6, 0), datetime(2027, 2, 13, 20, 45),
])  # fmt: skip
def test_any_clock(now):
    for r in built(3, now):
        assert set(r.request.expect) == derive(r.calc, now), r.request.turns
        assert not any(_norm(e) in said_back(r.request.turns) for e in r.request.expect)


def test_values_are_in_the_turns(records):
    for r in records:
        text, calc = " ".join(r.request.turns).lower(), r.calc
        scored = calc.get("scored", calc)
        for c in (calc, scored, calc.get("first", {})):
            if "country" in c:
                assert COUNTRY[c["country"]].name.lower() in text
            if "word" in c:
                assert c["word"].lower() in text
            if "planet" in c:
                assert c["planet"].lower() in text
            if c.get("op") == "convert":
                assert str(c["value"]) in text or int_words(abs(c["value"])) in text


def test_timer_lengths_said(records):
    """The length in the turns, read back here, is the one the answer is worked out from."""
    units = {"hour": 3600, "hr": 3600, "minute": 60, "min": 60, "second": 1, "sec": 1}
    small = {int_words(n): n for n in range(1, 11)} | {"an": 1, "a": 1}
    for r in records:
        if r.calc["op"] not in ("set", "remind", "left"):
            continue
        t = r.request.turns[-1] if r.calc["op"] != "left" else r.request.turns[0]
        t = t.lower().replace("an hour and a half", "1.5 hours")
        t = t.replace("two and a half minutes", "2.5 minutes")
        total = 0
        for n, unit in re.findall(r"(\d+(?:\.\d+)?|[a-z]+) (hour|hr|minute|min|second|sec)", t):
            total += Fraction(n if n[0].isdigit() else small[n]) * units[unit]
        assert total == r.calc["seconds"], t


def test_no_answer_in_the_turns(records):
    for r in records:
        text = _norm(" ".join(r.request.turns))
        assert not any(_norm(e) in text for e in r.request.expect), r.request
        if r.request.kind != "timer":  # a timer's length is said back by the reply
            back = said_back(r.request.turns)
            assert not any(_norm(e) in back for e in r.request.expect), r.request


def test_numbers_said_exactly(records):
    """Arithmetic answers have at most two decimals; no conversion lies on a rounding tie."""
    for r in records:
        scored = r.calc.get("scored", r.calc)
        if r.request.kind == "arithmetic":
            assert (amount(r.calc) * 100).denominator == 1
        if scored["op"] == "convert":
            assert (convert(scored) * 100).denominator != 2


def test_short_currencies_in_a_longer_form(records):
    for r in records:
        for e in r.request.expect:
            assert _norm(e) not in {"euro", "won", "real"}, r.request


def test_same_country_follow_ups_have_unique_answers(records):
    n = 0
    for r in records:
        c = r.calc
        if c["op"] != "follow" or "country" not in c["first"]:
            continue
        first, scored = c["first"], c["scored"]
        mine = {_norm(x) for x in country_fact(scored["op"], scored["country"])}
        if first["country"] == scored["country"]:
            n += 1
            others = [_norm(x) for o in COUNTRIES if o.name != scored["country"]
                      for x in country_fact(scored["op"], o.name)]  # fmt: skip
            assert not any(m in o for m in mine for o in others), r.request
        else:  # another country: an answer other than the first one's
            assert not mine & {_norm(x) for x in country_fact(first["op"], first["country"])}
    assert n >= 4


def test_follow_ups_lean_on_an_earlier_turn(records):
    for r in records:
        if r.request.kind == "follow-up":
            assert r.calc["op"] in ("follow", "left")
            last = _norm(r.request.turns[-1])
            assert len(last.split()) <= 8, last


# what an offline assistant cannot do: live data, shopping and bookings, messages and calls,
# music and radio, the lights
LIVE = re.compile(r"weather|will it rain|\bscore\b|\bnews\b|traffic|\border\b|\bbuy\b|"
                  r"\bbook (a|me)\b|\bemail\b|\btext \w|\bcall\b|\bplay\b|\blights?\b|"
                  r"\bradio\b", re.I)  # fmt: skip


def test_refusals(records):
    refusals = [r for r in records if r.request.kind == "refusal"]
    assert len(refusals) >= 25
    for r in refusals:
        assert r.request.expect == () and r.request.refusal
        assert LIVE.search(r.request.turns[-1]), r.request.turns


def test_refusal_worthy_only_in_a_refusal_s_last_turn(records):
    for r in records:
        said = r.request.turns if r.request.kind != "refusal" else r.request.turns[:-1]
        for t in said:
            assert not LIVE.search(t), t
        assert r.request.refusal == (r.request.kind == "refusal")


def test_timers_cleared(records):
    for r in records:
        earlier = " ".join(r.request.turns[:-1]).lower()
        if r.request.kind == "timer" or "timer" in earlier or "remind" in earlier:
            assert r.request.after == CLEAR, r.request
        else:
            assert r.request.after == ()
