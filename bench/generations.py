"""Generations set for ``bench/skills.py --requests generations``: 256 held-out requests, the
same eight kinds of request asked by eight speakers of different ages and stages of life, each
in their own idiom, typed or spoken, each with an answer worked out here.

The generator: generations, not shapes
======================================

Earlier held-out sets were built from scenes, frames and templates, people at work, a working
day, syntactic transformations, language learners and regional households. This one holds the
*request* fixed in kind and varies the *person*: who is asking decides the words. Eight speakers
(:data:`SPEAKERS`) each ask all eight kinds (:data:`KINDS`), four requests a kind:

- **child** (seven): short words, "how many is", "take away", "shared by", "sleeps until",
  homework and mum's questions;
- **teenager**: "ngl", "lowkey", "bruh", "fr", "rn", "u", "pls", "hw", mostly typed;
- **student**: cramming, rent split with flatmates, Pomodoro timers, essays, pub quizzes;
- **parent** of a baby: bottles in millilitres and ounces, nap timers, nappies, one hand free;
- **professional**: terse and clipped, "time now?", "17 x 23", expenses, tips, board meetings;
- **retiree** (seventy): polite and wordy, "would you be so kind", "in old money" (imperial);
- **elder** (ninety): slow, says things twice, "dear", "young man", "young lady", the wireless;
- **blind**: relies on voice alone, precise, asks for letters one at a time and to repeat.

Every sentence below is written literally for one speaker, and used once. There is no grammar
of shapes: no list of frames crossed with a list of cores, no slot for a politeness marker or a
filler, nothing that recombines the parts of two sentences. Only the values are slotted, drawn by
a seeded :class:`random.Random`: numbers, countries, planets, months and days, timer lengths,
units' quantities and the words to spell (each speaker spells from a word list of their own:
homework words for the child, dissertation words for the student, prescriptions for the
retiree). Countries and words are drawn without replacement, so no two requests repeat one.

Two channels (:data:`CHANNELS`), fixed per sentence:

- ``typed``: lower case, abbreviations ("mins", "hr", "u", "pls", "km/h"), digits for every
  number, little punctuation — as a phone keyboard delivers it;
- ``spoken``: as Whisper writes speech: capitals and punctuation, numbers up to ten in words
  and larger ones in digits with thousands commas ("1,800"), "%", "$" and "£", ordinals as
  "4th", years as "2027".

Checks computed independently
=============================

Each request carries a ``calc`` record, a small tuple saying what it asks
(``("arith", "mul", 17, 23)``, ``("unit", 5, "kg", "lb")``, ``("until", "easter")``,
``("fact2", "capital", "Japan", "currency")``); :func:`answer` turns it into the expected text,
and ``tests/test_generations.py`` derives it again from the record on its own (other code, a
table of Easter dates instead of the computus). The answers come from first principles, not from
any tool of the assistant: arithmetic with :class:`fractions.Fraction`; conversions from the
exact unit definitions of ``bench/everyday.py`` (1 inch = 2.54 cm, 1 lb = 0.45359237 kg, 1 US
gallon = 3.785411784 l, 1 knot = 1852 m/h); calendar counts with :mod:`datetime` from ``now``
(the real clock by default); facts from the tables of ``words/facts.py``. The expected strings
are what ``useful()`` in ``bench/skills.py`` looks for in the normalised reply (any one counts):

- numbers in words as the assistant says them (``number()``: exact up to two decimals, else
  about three significant figures or one decimal fewer). A conversion is drawn again when a
  reply said to two decimals would hold none of the accepted forms (16.96 accepts "seventeen",
  which "sixteen point nine six" does not hold);
- the hour now or the next hour for the time (the bench runs for a while after it is built);
  "March fifth" or "fifth of March" for a date; "N days", "today" or "tomorrow" for a count;
- a timer's length as ``duration()`` says it; what is left on an M-minute timer as "M-1
  minute" or "M minute"; "cancelled" or "canceled" when one is cancelled;
- the letters ``letters()`` gives for spelling (of a word, or of a capital just named);
- a currency whose name hides in other words has a longer form ("the euro" or "euros", not
  "euro", which "Europe" holds; "the won", "the real");
- a refusal expects nothing (``expect == ()``): a short honest one is useful.

No request gives its own answer away: a draw is made again when an expected answer is in the
request's text or in its own numbers said back ("twenty" for "2 times 10", "five minutes" for a
five-minute timer spoken as "five minutes" — so timers are said as "half an hour", "90 seconds"
or "25 minutes"). A follow-up that asks another fact of the same country ("and its currency?")
draws a country whose answer no other country shares (not the euro, not English), so a reply
about the wrong country cannot pass; one that asks the same fact of a second country draws two
whose answers differ. Every request that sets a timer is followed, unscored, by "cancel all my
timers" (``after=CLEAR``).

Deterministic for a given ``seed`` and ``now``; the clock's answers follow ``now``.
"""

from __future__ import annotations

import calendar
import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction as F

from bench.everyday import (
    BIGGEST,
    BY_ORDER,
    CLEAR,
    CM,
    CUP,
    FL_OZ,
    FOOT,
    GALLON,
    GRAM,
    INCH,
    KM,
    KMH,
    KNOT,
    MILE,
    ML,
    MPH,
    OUNCE,
    POUND,
    SMALLEST,
    STONE,
    TABLESPOON,
    YARD,
    c_to_f,
    capital,
    continent,
    currency,
    duration,
    f_to_c,
    letters,
    nth,
    number,
    said,
)
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from words.facts import COUNTRIES, PLANETS, Country
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CHANNELS = ("typed", "spoken")
SPEAKERS = {
    "child": "a child of seven: simple words, homework, mum's questions",
    "teenager": "a teenager: slang and abbreviations (ngl, lowkey, bruh, fr, rn), mostly typed",
    "student": "a university student: cramming, budgets, flatmates",
    "parent": "a young parent: bottles in ml and oz, nap timers, one hand free",
    "professional": "a busy middle-aged professional: terse, clipped, meetings and expenses",
    "retiree": "a retiree of seventy: polite, wordy, imperial units ('old money')",
    "elder": "a great-grandparent of ninety: slow, repeats, 'dear', 'young man'",
    "blind": "a visually impaired user relying on voice alone: precise, asks to spell, repeat",
}

# --- values ------------------------------------------------------------------------------------
# timer lengths: (typed, spoken or None when Whisper would write the answer itself, seconds)
LENGTHS: tuple[tuple[str, str | None, int], ...] = (
    ("a quarter of an hour", "a quarter of an hour", 900),
    ("half an hour", "half an hour", 1800),
    ("three quarters of an hour", "three quarters of an hour", 2700),
    ("an hour and a half", "an hour and a half", 5400),
    ("a minute and a half", "a minute and a half", 90),
    ("an hour and a quarter", "an hour and a quarter", 4500),
    ("an hour", "an hour", 3600),
    ("90 secs", "90 seconds", 90),
    ("12 mins", "12 minutes", 720),
    ("15 mins", "15 minutes", 900),
    ("18 mins", "18 minutes", 1080),
    ("20 mins", "20 minutes", 1200),
    ("25 mins", "25 minutes", 1500),
    ("35 mins", "35 minutes", 2100),
    ("40 mins", "40 minutes", 2400),
    ("45 mins", "45 minutes", 2700),
    ("1 hr 20 mins", "an hour and 20 minutes", 4800),
    ("1 hr", None, 3600),
    ("1.5 hrs", None, 5400),
    ("2 hrs", None, 7200),
    ("3 mins", None, 180),
    ("7 mins", None, 420),
)

# holiday → (said, (month, day) or None for Easter)
HOLIDAYS: dict[str, tuple[str, tuple[int, int] | None]] = {
    "christmas": ("Christmas", (12, 25)),
    "halloween": ("Halloween", (10, 31)),
    "valentines": ("Valentine's Day", (2, 14)),
    "new year": ("New Year's Day", (1, 1)),
    "easter": ("Easter", None),
}

# unit → (dimension, size in metres, kilograms, litres or metres per second); c and f apart
UNITS: dict[str, tuple[str, F]] = {
    "mi": ("length", MILE), "km": ("length", KM), "m": ("length", F(1)),
    "cm": ("length", CM), "in": ("length", INCH), "ft": ("length", FOOT),
    "yd": ("length", YARD),
    "kg": ("mass", F(1)), "g": ("mass", GRAM), "lb": ("mass", POUND), "oz": ("mass", OUNCE),
    "st": ("mass", STONE),
    "l": ("volume", F(1)), "ml": ("volume", ML), "gal": ("volume", GALLON),
    "cup": ("volume", CUP), "floz": ("volume", FL_OZ), "tbsp": ("volume", TABLESPOON),
    "kmh": ("speed", KMH), "mph": ("speed", MPH), "knot": ("speed", KNOT),
    "c": ("temperature", F(1)), "f": ("temperature", F(1)),
}  # fmt: skip

# currencies whose short name hides inside other words ("euro" in "Europe")
CURRENCY_FORMS = {
    "euro": ("the euro", "euros"),
    "won": ("the won", "korean won"),
    "real": ("the real", "brazilian real"),
}
# what a reply about a planet's moons holds ("Titan" alone is inside "Titania")
MOONS = {
    "Mercury": ("no moons",), "Venus": ("no moons",), "Earth": ("one moon",),
    "Mars": ("two small moons", "two moons", "Phobos"), "Jupiter": ("Ganymede", "dozens of moons"),
    "Saturn": ("over a hundred moons",), "Uranus": ("Titania",), "Neptune": ("Triton",),
}  # fmt: skip

COUNTRY = {c.name: c for c in COUNTRIES}
ORDER = {p.name: p.order for p in PLANETS}


# --- answers from a calc record ----------------------------------------------------------------
def easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return date(year, month, day + 1)


def next_date(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def holiday_date(today: date, name: str) -> date:
    md = HOLIDAYS[name][1]
    if md is None:
        e = easter(today.year)
        return e if e >= today else easter(today.year + 1)
    return next_date(today, *md)


def days_words(n: int) -> str:
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def date_forms(d: date) -> tuple[str, ...]:
    month, day = MONTHS[d.month - 1], ordinal_words(d.day)
    return (f"{month} {day}", f"{day} of {month}")


def convert(q: F | int, src: str, dst: str) -> F:
    q = F(q)
    if src == dst:
        return q
    if UNITS[src][0] == "temperature":
        return c_to_f(q) if (src, dst) == ("c", "f") else f_to_c(q)
    assert UNITS[src][0] == UNITS[dst][0], (src, dst)
    return q * UNITS[src][1] / UNITS[dst][1]


def arith(op: str, a: int | F, b: int | F = 0) -> F:
    a, b = F(a), F(b)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op in ("div", "split"):
        return a / b
    if op in ("pct", "tip"):
        return a * b / 100
    if op == "pow":
        return a ** int(b)
    if op == "sq":
        return a * a
    if op == "sqrt":
        r = F(round(float(a) ** 0.5))
        assert r * r == a, a
        return r
    raise ValueError(op)


def fact_forms(c: Country, what: str) -> tuple[str, ...]:
    if what == "capital":
        return (capital(c),)
    if what == "continent":
        return (continent(c),)
    if what == "language":
        return (c.language,)
    if what == "currency":
        name = currency(c)
        return CURRENCY_FORMS.get(name, (name,))
    raise ValueError(what)


def _raw(c: Country, what: str) -> str:
    return _norm({"capital": c.capital, "continent": c.continent, "language": c.language,
                  "currency": c.currency}[what])  # fmt: skip


def unique(c: Country, what: str) -> bool:
    """No other country's answer to ``what`` holds one of ``c``'s accepted forms."""
    return not any(_norm(f) in _raw(o, what) for o in COUNTRIES if o is not c
                   for f in fact_forms(c, what))  # fmt: skip


def distinct(a: Country, b: Country, what: str) -> bool:
    """``b``'s answer to ``what`` is not ``a``'s, and none of its forms is inside ``a``'s."""
    return a is not b and not any(_norm(f) in _raw(a, what) for f in fact_forms(b, what))


def answer(calc: tuple, now: datetime) -> tuple[str, ...]:
    """The expected texts (any one counts) for a calc record; ``()`` for a refusal."""
    what, *args = calc
    today = now.date()
    if what == "refusal":
        return ()
    if what == "time":
        hours = [(now + timedelta(hours=k)).hour % 12 or 12 for k in (0, 1)]
        return tuple(int_words(h) for h in hours)
    if what == "date":
        return date_forms(today)
    if what == "weekday":
        return (WEEKDAYS[today.weekday()],)
    if what == "weekday_of":
        y, m, d = args
        return (WEEKDAYS[date(y, m, d).weekday()],)
    if what == "until":
        return (days_words((holiday_date(today, args[0]) - today).days),)
    if what == "until_date":
        return (days_words((next_date(today, *args) - today).days),)
    if what == "month_days":
        return (f"{int_words(calendar.monthrange(today.year, args[0])[1])} days",)
    if what == "days_from_now":
        return date_forms(today + timedelta(days=args[0]))
    if what == "weekday_in":
        return (WEEKDAYS[(today + timedelta(days=args[0])).weekday()],)
    if what == "timer":
        return (duration(args[0]),)
    if what == "timer_left":
        m = args[0]
        return (f"{int_words(m - 1)} minute", f"{int_words(m)} minute")
    if what == "timer_cancel":
        return ("cancelled", "canceled")
    if what == "arith":
        return number(arith(*args))
    if what == "arith2":
        op, a, b, op2, c = args
        return number(arith(op2, arith(op, a, b), c))
    if what == "unit":
        q, src, dst = args
        return number(convert(q, src, dst))
    if what == "unit2":  # the same conversion of a second quantity
        _, src, dst, q2 = args
        return number(convert(q2, src, dst))
    if what == "unitto2":  # the same quantity in a second unit
        q, src, _, dst2 = args
        return number(convert(q, src, dst2))
    if what in ("spell", "spell2"):
        return (letters(args[0]),)
    if what == "spell_capital":
        return (letters(capital(COUNTRY[args[0]])),)
    if what == "fact":
        field_, name = args
        return fact_forms(COUNTRY[name], field_)
    if what == "fact2":
        _, name, field2 = args
        return fact_forms(COUNTRY[name], field2)
    if what == "other2":
        field_, _, name2 = args
        return fact_forms(COUNTRY[name2], field_)
    if what == "planet_at":
        return (BY_ORDER[args[0]],)
    if what == "planet_next":
        return (BY_ORDER[args[0] + 1],)
    if what == "planet_order":
        return (ordinal_words(ORDER[args[0]]),)
    if what == "biggest":
        return (BIGGEST,)
    if what == "smallest":
        return (SMALLEST,)
    if what == "moons":
        return MOONS[args[0]]
    if what == "moons_at":
        return MOONS[BY_ORDER[args[0]]]
    if what == "biggest_moons":
        return MOONS[BIGGEST]
    raise ValueError(calc)


def operands(calc: tuple) -> list[int | F]:
    """The request's own numbers, said back to check an answer is not among them."""
    return [x for x in calc[1:] if isinstance(x, int | F) and not isinstance(x, bool)]


def fits(x: F) -> bool:
    """A reply giving ``x`` to two decimals holds one of ``number(x)``'s forms."""
    return any(_norm(e) in _norm(said(x, 2)) for e in number(x))


# --- the sentences -----------------------------------------------------------------------------
@dataclass
class _Ctx:
    rng: random.Random
    now: datetime
    pools: dict = field(default_factory=dict)

    def pick(self, values: Sequence):
        return self.rng.choice(list(values))

    def take(self, key: str, values: Sequence, ok: Callable = lambda v: True):
        """A value drawn without replacement from ``values`` (refilled when used up)."""
        left = self.pools.setdefault(key, [])
        if not any(ok(v) for v in left):
            left[:] = list(values)
            self.rng.shuffle(left)
        v = next(v for v in left if ok(v))
        left.remove(v)
        return v


@dataclass(frozen=True)
class _Entry:
    kind: str
    channel: str
    turns: tuple[str, ...]
    draw: Callable[[_Ctx], tuple[dict, tuple]]  # → (values for the text, calc record)


class _Say(string.Formatter):
    """Values as the channel writes them. Specs: "" (spoken: words up to ten, digits with
    commas above, "minus" before a negative; typed: digits), "d" digits, "w" words, "th" 4th,
    "ow" fourth, "y" a year."""

    def __init__(self, channel: str) -> None:
        self.typed = channel == "typed"

    def format_field(self, v, spec: str) -> str:
        if isinstance(v, tuple):  # a timer length
            return v[0] if self.typed else v[1]
        if isinstance(v, str):
            return v.lower() if self.typed else v
        if isinstance(v, F) and v.denominator != 1:
            return f"{float(v):g}"
        v = int(v)
        if spec == "w":
            return int_words(v)
        if spec == "th":
            return nth(v)
        if spec == "ow":
            return ordinal_words(v)
        if spec == "y" or self.typed:
            return str(v)
        if v < 0:  # Whisper: "minus five", "minus 12"
            return "minus " + self.format_field(-v, spec)
        if spec == "d" or not 0 <= v <= 10:
            return f"{v:,}"
        return int_words(v)


T, S = "typed", "spoken"


def _one(turns: str | tuple[str, ...]) -> tuple[str, ...]:
    return (turns,) if isinstance(turns, str) else tuple(turns)


# clock
def clock(ch: str, text: str, what: str) -> _Entry:
    """``what``: time, date or weekday (nothing drawn)."""
    return _Entry("clock", ch, (text,), lambda x: ({}, (what,)))


def until(ch: str, text: str, holiday: str | None = None) -> _Entry:
    """Days until a holiday, named in the text or drawn as {holiday}."""

    def draw(x: _Ctx):
        h = holiday or x.take("holiday", sorted(HOLIDAYS))
        return {"holiday": HOLIDAYS[h][0]}, ("until", h)

    return _Entry("clock", ch, (text,), draw)


def _month_day(x: _Ctx) -> tuple[int, int]:
    m = x.pick(range(1, 13))
    return m, x.pick(range(1, calendar.monthrange(2001, m)[1] + 1))  # never 29 February


def until_date(ch: str, text: str) -> _Entry:
    def draw(x: _Ctx):
        m, d = _month_day(x)
        return {"month": MONTHS[m - 1], "d": d}, ("until_date", m, d)

    return _Entry("clock", ch, (text,), draw)


def weekday_of(ch: str, text: str, years: Sequence[int] = (0, 1, 2)) -> _Entry:
    """The weekday of {month} {d} in {y} (this year plus a drawn offset)."""

    def draw(x: _Ctx):
        m, d = _month_day(x)
        y = x.now.year + x.pick(years)
        return {"month": MONTHS[m - 1], "d": d, "y": y}, ("weekday_of", y, m, d)

    return _Entry("clock", ch, (text,), draw)


def month_days(ch: str, text: str) -> _Entry:
    def draw(x: _Ctx):
        m = x.take("month", [m for m in range(1, 13) if m != 2])
        return {"month": MONTHS[m - 1]}, ("month_days", m)

    return _Entry("clock", ch, (text,), draw)


def days_from_now(ch: str, turns, what: str = "days_from_now", kind: str = "clock") -> _Entry:
    def draw(x: _Ctx):
        n = x.pick(range(11, 91))
        return {"n": n}, (what, n)

    return _Entry(kind, ch, _one(turns), draw)


# timers
def _length(x: _Ctx, ch: str):
    return x.pick([v for v in LENGTHS if ch == T or v[1]])


def timer(ch: str, text: str) -> _Entry:
    def draw(x: _Ctx):
        v = _length(x, ch)
        return {"len": v}, ("timer", v[2])

    return _Entry("timer", ch, (text,), draw)


def left(ch: str, turns, kind: str = "timer") -> _Entry:
    """An {m}-minute timer, then what is left on it."""

    def draw(x: _Ctx):
        m = x.pick(range(12, 56))
        return {"m": m}, ("timer_left", m)

    return _Entry(kind, ch, _one(turns), draw)


def cancel(ch: str, turns) -> _Entry:
    def draw(x: _Ctx):
        v = _length(x, ch)
        return {"len": v}, ("timer_cancel", v[2])

    return _Entry("timer", ch, _one(turns), draw)


# arithmetic
def _sum(x: _Ctx, op: str, xs: Sequence, ys: Sequence) -> tuple[int, int] | None:
    """Two operands {a}, {b} for ``op``: a = b × q for a division (q from xs, b from ys)."""
    if op in ("div", "split"):
        b, q = x.pick(ys), x.pick(xs)
        return b * q, b
    a, b = x.pick(xs), x.pick(ys)
    if op == "sub":
        a, b = max(a, b), min(a, b)
        if a == b:
            return None
    if op in ("pct", "tip") and (a * b) % 100:
        return None
    return a, b


def sums(ch: str, text: str, op: str, xs: Sequence, ys: Sequence = (0,)) -> _Entry:
    """{a} op {b}; "sq" squares {a}; "sqrt" takes the root of {a} = q² with q from xs."""

    def draw(x: _Ctx):
        if op == "sqrt":
            q = x.pick(xs)
            return {"a": q * q}, ("arith", op, q * q)
        if op == "sq":
            a = x.pick(xs)
            return {"a": a}, ("arith", op, a)
        ab = _sum(x, op, xs, ys)
        if ab is None:
            return None
        return {"a": ab[0], "b": ab[1]}, ("arith", op, *ab)

    return _Entry("arithmetic", ch, (text,), draw)


def sums2(ch: str, turns, op: str, xs, ys, op2: str, zs) -> _Entry:
    """{a} op {b}, then op2 {c} on the result ("double that" is op2 "mul" with zs (2,))."""

    def draw(x: _Ctx):
        ab = _sum(x, op, xs, ys)
        if ab is None:
            return None
        c = x.pick(zs)
        v = arith(op2, arith(op, *ab), c)
        if v <= 0 or (v * 100).denominator != 1:
            return None
        return {"a": ab[0], "b": ab[1], "c": c}, ("arith2", op, *ab, op2, c)

    return _Entry("follow-up", ch, _one(turns), draw)


# units
def unit(ch: str, text: str, src: str, dst: str, qs: Sequence) -> _Entry:
    def draw(x: _Ctx):
        q = x.pick(qs)
        return {"q": q}, ("unit", q, src, dst)

    return _Entry("units", ch, (text,), draw)


def unit2(ch: str, turns, src: str, dst: str, qs: Sequence, qs2: Sequence) -> _Entry:
    """{q} src in dst, then "and {q2}?"."""

    def draw(x: _Ctx):
        q, q2 = x.pick(qs), x.pick(qs2)
        if q == q2:
            return None
        return {"q": q, "q2": q2}, ("unit2", q, src, dst, q2)

    return _Entry("follow-up", ch, _one(turns), draw)


def unitto2(ch: str, turns, src: str, dst: str, dst2: str, qs: Sequence) -> _Entry:
    """{q} src in dst, then "and in dst2?"."""

    def draw(x: _Ctx):
        q = x.pick(qs)
        return {"q": q}, ("unitto2", q, src, dst, dst2)

    return _Entry("follow-up", ch, _one(turns), draw)


# spelling
def spell(ch: str, turns, words: Sequence[str], kind: str = "spelling") -> _Entry:
    def draw(x: _Ctx):
        w = x.take("words:" + ",".join(words), words)
        return {"w": w}, ("spell" if kind == "spelling" else "spell2", w)

    return _Entry(kind, ch, _one(turns), draw)


# facts
def fact(ch: str, text: str, what: str) -> _Entry:
    def draw(x: _Ctx):
        c = x.take("country", COUNTRIES)
        return {"country": c.name}, ("fact", what, c.name)

    return _Entry("facts", ch, (text,), draw)


def fact2(ch: str, turns, what: str, what2: str) -> _Entry:
    """One fact of {country}, then another of the same country: a country alone in its answer."""

    def draw(x: _Ctx):
        c = x.take("country", COUNTRIES, lambda c: unique(c, what2))
        return {"country": c.name}, ("fact2", what, c.name, what2)

    return _Entry("follow-up", ch, _one(turns), draw)


def other2(ch: str, turns, what: str) -> _Entry:
    """One fact of {country}, then the same of {country2}, whose answer differs."""

    def draw(x: _Ctx):
        a = x.take("country", COUNTRIES)
        b = x.take("country", COUNTRIES, lambda b: distinct(a, b, what))
        return {"country": a.name, "country2": b.name}, ("other2", what, a.name, b.name)

    return _Entry("follow-up", ch, _one(turns), draw)


def spellcap(ch: str, turns) -> _Entry:
    """The capital of {country}, then its spelling (capitals of one word)."""

    def draw(x: _Ctx):
        c = x.take("country", COUNTRIES, lambda c: " " not in capital(c))
        return {"country": c.name}, ("spell_capital", c.name)

    return _Entry("follow-up", ch, _one(turns), draw)


def planet(ch: str, turns, what: str, kind: str = "facts") -> _Entry:
    """``what``: biggest, smallest, biggest_moons (nothing drawn); planet_at {n}; planet_order
    and moons {planet}; planet_next and moons_at {n} (follow-ups)."""

    def draw(x: _Ctx):
        if what in ("biggest", "smallest", "biggest_moons"):
            return {}, (what,)
        if what in ("planet_order", "moons"):
            p = x.take("planet", [p.name for p in PLANETS])
            return {"planet": p}, (what, p)
        top = 7 if what == "planet_next" else 8
        low = 3 if what == "moons_at" else 1  # Mercury and Venus share "no moons"
        n = x.take("order:" + what, range(low, top + 1))
        return {"n": n}, (what, n)

    return _Entry(kind, ch, _one(turns), draw)


def refuse(ch: str, text: str) -> _Entry:
    return _Entry("refusal", ch, (text,), lambda x: ({}, ("refusal",)))


# --- the speakers ------------------------------------------------------------------------------
# fmt: off
_CHILD_WORDS = ("because", "beautiful", "dinosaur", "giraffe", "elephant", "squirrel",
                "chocolate", "strawberry", "butterfly", "caterpillar", "library", "friend")
_TEEN_WORDS = ("definitely", "embarrassed", "aesthetic", "separate", "conscience",
               "occurrence", "necessary", "rhythm", "weird", "tomorrow")
_STUDENT_WORDS = ("bureaucracy", "hierarchy", "accommodation", "questionnaire", "liaison",
                  "millennium", "entrepreneur", "rhetoric", "psychology", "existence")
_PARENT_WORDS = ("vaccination", "thermometer", "teething", "lullaby", "ointment", "nursery",
                 "pharmacy", "daycare", "rhythm", "eczema")
_WORK_WORDS = ("colleague", "schedule", "accommodate", "stakeholder", "itinerary",
               "privilege", "guarantee", "receivable", "committee", "maintenance")
_RETIREE_WORDS = ("rheumatism", "arthritis", "chrysanthemum", "rhododendron",
                  "physiotherapy", "bouquet", "anniversary", "cardigan", "mortgage", "crossword")
_ELDER_WORDS = ("Wednesday", "grandchildren", "February", "handkerchief", "birthday",
                "embroidery", "ninety", "Christmas", "marmalade", "hospital")
_BLIND_WORDS = ("accessible", "Braille", "magnifier", "appointment", "pharmacist",
                "restaurant", "receipt", "audiobook", "keyboard", "independence")

_SMALL, _MID, _BIG = range(3, 13), range(12, 100), range(101, 1000)

SCRIPTS: dict[str, tuple[_Entry, ...]] = {
    "child": (
        clock(S, "What time is it now? Is it nearly bedtime?", "time"),
        until(S, "How many sleeps until {holiday}?"),
        clock(S, "What day is it today? Is it a school day?", "weekday"),
        month_days(T, "how many days are in {month} for my homework"),
        timer(S, "Can you do a timer for {len}? It's my turn on the tablet after."),
        timer(S, "Set a timer for {len} so I know when my cake is ready."),
        left(S, ("Start a timer for {m} minutes for hide and seek.", "How long is left on it?")),
        cancel(S, ("Make a timer for {len} for my game.",
                   "Stop the timer, I don't want it any more.")),
        sums(S, "What's {a} plus {b}? It's for my homework.", "add", range(6, 21), range(6, 21)),
        sums(S, "How many is {a} take away {b}?", "sub", range(11, 31), range(3, 11)),
        sums(S, "What's {a} times {b}? Mummy asked me.", "mul", _SMALL, _SMALL),
        sums(T, "what is {a} shared by {b}", "div", range(3, 13), range(2, 6)),
        unit(S, "How many centimetres is {q} inches? My ruler has both.", "in", "cm",
             range(2, 13)),
        unit(S, "How many feet is {q} metres? That's how tall the dinosaur was.", "m", "ft",
             range(3, 20)),
        unit(S, "How hot is {q} degrees Celsius in Fahrenheit?", "c", "f", range(10, 41, 5)),
        unit(T, "how many ml in {q} cups", "cup", "ml", range(1, 5)),
        spell(S, "How do you spell {w}? It's for my homework.", _CHILD_WORDS),
        spell(S, "How do you spell {w}?", _CHILD_WORDS),
        spell(T, "how do you spell {w}", _CHILD_WORDS),
        spell(S, "Can you spell {w}? I want to write it on my card.", _CHILD_WORDS),
        planet(S, "Which planet is the biggest?", "biggest"),
        fact(S, "What's the capital of {country}? My teacher asked.", "capital"),
        planet(S, "How many moons does {planet} have?", "moons"),
        planet(S, "Which planet is number {n} from the sun?", "planet_at"),
        sums2(S, ("What's {a} plus {b}?", "And add {c} more."), "add", range(5, 21),
              range(5, 21), "add", range(2, 10)),
        planet(S, ("Which planet is the biggest?", "How many moons has it got?"),
               "biggest_moons", kind="follow-up"),
        spellcap(S, ("What's the capital of {country}?", "How do you spell it?")),
        sums2(T, ("what is {a} times {b}", "and times {c}"), "mul", range(2, 10), range(2, 10),
              "mul", range(2, 6)),
        refuse(S, "Can you play my Frozen song?"),
        refuse(S, "Can you order me a pizza? Mummy's busy."),
        refuse(S, "Can you call Granny?"),
        refuse(T, "is it going to snow today"),
    ),
    "teenager": (
        clock(T, "bruh what time is it rn", "time"),
        until(T, "ngl how many days till {holiday}"),
        clock(T, "whats the date today fr", "date"),
        weekday_of(S, "Yo, what day of the week is {month} {d:th}, {y:y}? It's my birthday.",
                   (1, 2)),
        timer(T, "set a timer for {len} im gaming"),
        timer(T, "remind me in {len} to text jess back"),
        left(T, ("timer {m} min for the pizza", "how long left on that")),
        cancel(T, ("set a timer for {len}", "nvm cancel it")),
        sums(T, "whats {a} x {b}", "mul", _MID, range(3, 13)),
        sums(T, "lowkey need {a}% of {b} for my maths hw", "pct", (10, 15, 20, 25, 30, 40),
             range(20, 401, 20)),
        sums(S, "Bruh, what's {a} divided by {b}?", "div", range(11, 40), range(3, 10)),
        sums(T, "whats {a} squared fr", "sq", range(13, 40)),
        unit(T, "how many km is {q} miles", "mi", "km", range(2, 27)),
        unit(T, "whats {q} feet in meters", "ft", "m", range(4, 30)),
        unit(T, "{q}f in celsius?", "f", "c", range(40, 105)),
        unit(S, "How much is {q} kilos in pounds? Asking for gym.", "kg", "lb", range(5, 101, 5)),
        spell(T, "how do u spell {w}", _TEEN_WORDS),
        spell(T, "spell {w} pls", _TEEN_WORDS),
        spell(S, "How do you spell {w}? Autocorrect keeps messing it up.", _TEEN_WORDS),
        spell(T, "lowkey forgot how to spell {w}", _TEEN_WORDS),
        fact(T, "whats the capital of {country} i have a geo test", "capital"),
        fact(T, "what currency do they use in {country}", "currency"),
        planet(T, "which planet is the biggest ngl i forgot", "biggest"),
        fact(S, "What language do they speak in {country}? Asking for a trip.", "language"),
        fact2(T, ("whats the capital of {country}", "and whats the currency there"), "capital",
              "currency"),
        sums2(T, ("whats {a} + {b}", "ok now double it"), "add", _MID, _MID, "mul", (2,)),
        planet(T, ("which planet is {n:th} from the sun", "and the one after it?"),
               "planet_next", kind="follow-up"),
        left(S, ("Set a timer for {m} minutes.", "How long's left on it now?"), kind="follow-up"),
        refuse(T, "whats the weather like rn"),
        refuse(T, "whats the score in the arsenal game"),
        refuse(T, "play my gym playlist"),
        refuse(S, "Can you text Jess that I'm running late?"),
    ),
    "student": (
        until_date(T, "how many days till my exam on {month} {d}"),
        clock(S, "What's today's date? I need it for my essay header.", "date"),
        weekday_of(T, "what day of the week is {d} {month} {y}"),
        until(S, "How many days until New Year's? Trying to plan the flat party.", "new year"),
        timer(S, "Set a timer for {len}. Pomodoro time."),
        timer(T, "remind me in {len} to move my laundry"),
        left(S, ("Timer for {m} minutes, please, I'm revising.",
                 "How much time is left on that timer?")),
        cancel(T, ("set a timer for {len} for the pasta",
                   "cancel the timer my flatmate took it off")),
        sums(T, "rent is {a} split {b} ways how much each", "split", range(350, 751, 25),
             range(3, 7)),
        sums(S, "What's {a}% of {b}? Trying to work out my grade.", "pct", (15, 20, 25, 30, 40),
             range(40, 201, 20)),
        sums(T, "whats {a} to the power of {b}", "pow", range(2, 10), range(3, 6)),
        sums(S, "What's the square root of {a}?", "sqrt", range(11, 31)),
        unit(S, "How many millilitres is {q} cups?", "cup", "ml", range(1, 7)),
        unit(T, "convert {q} km/h to mph", "kmh", "mph", range(20, 131, 10)),
        unit(T, "{q} lbs in kg?", "lb", "kg", range(2, 40)),
        unit(S, "How many centimetres is {q} inches?", "in", "cm", range(11, 40)),
        spell(S, "How do you spell {w}? It's for my dissertation.", _STUDENT_WORDS),
        spell(T, "spell {w}", _STUDENT_WORDS),
        spell(T, "how is {w} spelt", _STUDENT_WORDS),
        spell(S, "Can you spell {w} for me?", _STUDENT_WORDS),
        fact(S, "What's the capital of {country}? Pub quiz tonight.", "capital"),
        fact(T, "which continent is {country} in", "continent"),
        planet(T, "what planet is {n:th} from the sun", "planet_at"),
        fact(S, "What currency do they use in {country}? Thinking about a year abroad.",
             "currency"),
        spellcap(S, ("What's the capital of {country}?", "Can you spell that?")),
        unit2(T, ("how many miles is {q} km", "and {q2}"), "km", "mi", range(5, 51, 5),
              range(15, 101, 5)),
        sums2(T, ("what's {a} times {b}", "divide that by {c}"), "mul", range(12, 60),
              range(4, 13), "div", range(2, 9)),
        other2(S, ("What language do they speak in {country}?", "And what about {country2}?"),
               "language"),
        refuse(T, "order me a dominos"),
        refuse(S, "What's the news today?"),
        refuse(T, "how much is bitcoin right now"),
        refuse(S, "Can you book me an Uber to the library?"),
    ),
    "parent": (
        clock(S, "What time is it? I've lost all track since the baby came.", "time"),
        clock(T, "what day is it today honestly", "weekday"),
        until(S, "How many days until Halloween? I still have to make a pumpkin costume.",
              "halloween"),
        days_from_now(S, "What's the date {n} days from today? That's when the health visitor "
                         "comes back."),
        timer(S, "Set a nap timer for {len}."),
        timer(S, "Remind me in {len} to check the bottle steriliser."),
        left(T, ("nap timer {m} mins", "how long left")),
        cancel(S, ("Start a timer for {len} for the bath.", "Cancel that, she's fallen asleep.")),
        sums(S, "Nappies come in packs of {a} and I've got {b} packs. How many is that?", "mul",
             range(24, 61), range(3, 9)),
        sums(T, "she had {a} ml then {b} ml how much is that", "add", range(60, 181, 10),
             range(60, 181, 10)),
        sums(S, "What's {a}% of ${b}? That's the childcare subsidy.", "pct", (20, 25, 30, 50),
             range(100, 1001, 40)),
        sums(T, "{a} wipes shared between {b} bags how many each", "div", range(12, 40),
             range(2, 6)),
        unit(S, "How many ounces is {q} millilitres? The bottle's in ounces.", "ml", "floz",
             range(60, 271, 30)),
        unit(T, "{q} oz in ml", "floz", "ml", range(2, 10)),
        unit(S, "What's {q} degrees Fahrenheit in Celsius? It's her temperature.", "f", "c",
             range(96, 105)),
        unit(S, "How much is {q} pounds in kilos? She weighed that at the check.", "lb", "kg",
             range(7, 25)),
        spell(S, "How do you spell {w}? I'm filling in the nursery form.", _PARENT_WORDS),
        spell(T, "how do u spell {w}", _PARENT_WORDS),
        spell(S, "Spell {w}, please, my hands are full.", _PARENT_WORDS),
        spell(S, "How is {w} spelled?", _PARENT_WORDS),
        planet(S, "Which planet is the smallest? My son's asking.", "smallest"),
        fact(S, "What's the capital of {country}? We're reading a bedtime book about it.",
             "capital"),
        planet(T, "how many moons does {planet} have", "moons"),
        fact(S, "What do they speak in {country}? Her nanny's from there.", "language"),
        sums2(S, ("What's {a} plus {b}?", "Now take away {c}."), "add", range(20, 90),
              range(20, 90), "sub", range(5, 19)),
        unit2(T, ("how many ml is {q} oz", "and {q2} oz"), "floz", "ml", range(2, 9),
              range(3, 11)),
        left(S, ("Set a timer for {m} minutes for her nap.", "How long is left on the nap timer?"),
             kind="follow-up"),
        fact2(S, ("What's the capital of {country}?", "And what currency do they use there?"),
              "capital", "currency"),
        refuse(S, "Order more nappies from the supermarket."),
        refuse(S, "Play some lullabies."),
        refuse(T, "call my mum"),
        refuse(S, "What's the weather doing this afternoon? Do we need the rain cover?"),
    ),
    "professional": (
        clock(T, "time now?", "time"),
        clock(T, "date today", "date"),
        until_date(T, "days until {month} {d}"),
        weekday_of(S, "What day of the week is {month} {d:th}, {y:y}? Board meeting."),
        timer(T, "timer {len}"),
        timer(S, "Remind me in {len} to join the call."),
        left(T, ("timer {m} min", "time left?")),
        cancel(T, ("set timer {len} for the call", "cancel timer")),
        sums(T, "{a} x {b}", "mul", _MID, _MID),
        sums(T, "{a}% of {b}", "pct", (5, 12, 15, 18, 35, 45), range(100, 2001, 100)),
        sums(S, "Lunch came to ${a}, {b} of us. Per head?", "split", range(18, 46), range(3, 9)),
        sums(T, "tip {a}% on {b}", "tip", (15, 18, 20, 25), range(40, 301, 20)),
        unit(T, "{q} mi in km", "mi", "km", range(3, 200)),
        unit(T, "{q} kg to lb", "kg", "lb", range(2, 60)),
        unit(S, "What's {q} knots in kilometres per hour?", "knot", "kmh", range(11, 41)),
        unit(T, "{q} c in f", "c", "f", range(-5, 41)),
        spell(T, "spell {w}", _WORK_WORDS),
        spell(S, "Spell {w}.", _WORK_WORDS),
        spell(T, "spelling of {w}", _WORK_WORDS),
        spell(S, "How do you spell {w}? It's going in the contract.", _WORK_WORDS),
        fact(T, "capital of {country}", "capital"),
        fact(T, "{country} currency", "currency"),
        fact(S, "Official language of {country}?", "language"),
        fact(T, "{country} continent", "continent"),
        fact2(T, ("currency in {country}", "capital?"), "currency", "capital"),
        sums2(T, ("{a} x {b}", "plus {c}"), "mul", _MID, range(3, 13), "add", _BIG),
        unitto2(S, ("Convert {q} miles to yards.", "In feet?"), "mi", "yd", "ft", range(2, 12)),
        other2(T, ("capital of {country}", "and {country2}"), "capital"),
        refuse(T, "stock price msft"),
        refuse(T, "book a cab to heathrow"),
        refuse(S, "Send an email to the team saying I'm late."),
        refuse(T, "latest headlines"),
    ),
    "retiree": (
        clock(S, "Would you be so kind as to tell me the time?", "time"),
        clock(S, "Could you tell me what today's date is, please? I've an appointment at the "
                 "surgery.", "date"),
        until(T, "how many days is it until easter", "easter"),
        days_from_now(S, "What day of the week will it be {n} days from now? The grandchildren "
                         "are visiting then.", what="weekday_in"),
        timer(S, "Would you be so kind as to set a timer for {len}? The scones are in."),
        timer(S, "Please remind me in {len} to take my tablets."),
        left(T, ("please set a timer for {m} minutes for the roast potatoes",
                 "how long is there left on the timer please")),
        cancel(S, ("Set a timer for {len} for the kettle, would you?",
                   "Oh, never mind, cancel it, thank you.")),
        sums(S, "Could you tell me what {a} add {b} comes to? I'm doing the accounts.", "add",
             _BIG, _BIG),
        sums(T, "what is {a} take away {b} please", "sub", _BIG, _MID),
        sums(S, "What would a {a}% tip be on a bill of £{b}, please?", "tip", (10, 12, 15, 20),
             range(25, 201, 25)),
        sums(S, "What's {a} multiplied by {b}, if you'd be so kind?", "mul", _MID, range(3, 20)),
        unit(S, "What's {q} kilograms in old money? Stones, I mean.", "kg", "st",
             range(50, 111)),
        unit(T, "how many miles is {q} kilometres please", "km", "mi", range(5, 200, 5)),
        unit(S, "What's {q} degrees Celsius in Fahrenheit? The forecast is all in Celsius "
                "nowadays.", "c", "f", range(-10, 36)),
        unit(S, "How many feet is {q} metres? I'm measuring the greenhouse.", "m", "ft",
             range(2, 15)),
        spell(S, "Would you be so kind as to spell {w} for me?", _RETIREE_WORDS),
        spell(T, "how do you spell {w} please", _RETIREE_WORDS),
        spell(S, "I can never remember how to spell {w}. Could you help?", _RETIREE_WORDS),
        spell(S, "How is {w} spelt, please?", _RETIREE_WORDS),
        fact(S, "Could you remind me what the capital of {country} is?", "capital"),
        fact(T, "what currency do they use in {country} nowadays", "currency"),
        planet(S, "Which planet is the {n:ow} from the sun, please? It's for my crossword.",
               "planet_at"),
        fact(S, "On which continent would one find {country}?", "continent"),
        fact2(S, ("What's the capital of {country}, please?",
                  "And what language do they speak there?"), "capital", "language"),
        unitto2(S, ("How many kilograms is {q} pounds?", "And what's that in ounces?"), "lb",
                "kg", "oz", range(2, 30)),
        sums2(T, ("what is {a} times {b}", "and half of that please"), "mul", _MID,
              range(3, 13), "div", (2,)),
        planet(S, ("Which planet is {n:ow} from the sun?", "And how many moons has it got?"),
               "moons_at", kind="follow-up"),
        refuse(S, "Would you ring my daughter for me, please?"),
        refuse(S, "What's the weather going to be like for the garden today?"),
        refuse(T, "please book me a taxi to the hospital for ten o'clock"),
        refuse(S, "What are the cricket scores at the moment?"),
    ),
    "elder": (
        clock(S, "What's the time, dear? What's the time now?", "time"),
        clock(S, "Young lady, what day is it today? I lose track. What day is it?", "weekday"),
        until(S, "How many days is it until Christmas, dear? Until Christmas.", "christmas"),
        month_days(S, "How many days are there in {month}, dear? In {month}."),
        timer(S, "Set me a timer for {len}, dear. Yes, {len}, for my egg."),
        timer(S, "Remind me in {len} to take my pills, young man. My pills."),
        left(S, ("Put a timer on for {m} minutes, dear.",
                 "How long is left on that timer? How long now?")),
        cancel(S, ("Set a timer for {len}, would you, dear?",
                   "No, no, I don't want it. Cancel the timer, dear.")),
        sums(S, "What's {a} and {b}, dear? Add them up for me.", "add", _MID, _MID),
        sums(S, "Young man, what is {a} times {b}? {a} times {b}.", "mul", _MID, range(3, 13)),
        sums(S, "What's £{a} shared among {b} great-grandchildren, dear?", "split",
             range(12, 41), range(3, 9)),
        sums(S, "What's {a} take away {b}, dear? Take away.", "sub", _BIG, _MID),
        unit(S, "How many pounds is {q} kilos, dear? I never got used to kilos.", "kg", "lb",
             range(2, 30)),
        unit(S, "What's {q} degrees in Fahrenheit, dear? {q} degrees Celsius.", "c", "f",
             range(0, 41)),
        unit(S, "How many inches is {q} centimetres, young lady?", "cm", "in", range(10, 101)),
        unit(S, "What's {q} miles in kilometres, dear? My grandson drives in kilometres.", "mi",
             "km", range(3, 60)),
        spell(S, "How do you spell {w}, dear? The word {w}.", _ELDER_WORDS),
        spell(S, "Young man, spell {w} for me, would you?", _ELDER_WORDS),
        spell(S, "How is {w} spelt, dear? I want to write it in my card.", _ELDER_WORDS),
        spell(S, "Spell {w}, dear. Slowly.", _ELDER_WORDS),
        fact(S, "What's the capital of {country}, dear? I used to know that.", "capital"),
        fact(S, "What money do they have in {country} now, dear?", "currency"),
        planet(S, "Which is the biggest planet, young man? The biggest one.", "biggest"),
        fact(S, "What language do they speak in {country}, dear?", "language"),
        fact2(S, ("What's the capital of {country}, dear?",
                  "And what do they spend there, dear? What money?"), "capital", "currency"),
        sums2(S, ("What's {a} and {b}, dear?", "And double that, dear?"), "add", _MID, _MID,
              "mul", (2,)),
        left(S, ("Set me a timer for {m} minutes, dear.", "How long is left, dear?"),
             kind="follow-up"),
        days_from_now(S, ("What's the date today, dear?", "And what will the date be in {n} "
                          "days?"), kind="follow-up"),
        refuse(S, "Ring my son for me, dear. Ring my son."),
        refuse(S, "What's on the news today, young man?"),
        refuse(S, "Put the wireless on, dear, some music."),
        refuse(S, "Is it going to rain today, dear?"),
    ),
    "blind": (
        clock(S, "What time is it, exactly?", "time"),
        clock(S, "Please read me today's full date.", "date"),
        weekday_of(S, "What day of the week does {month} {d:th} fall on in {y:y}?"),
        until(S, "How many days are there until Valentine's Day?", "valentines"),
        timer(S, "Start a timer for {len} and tell me when it's finished."),
        timer(S, "Remind me in {len} to phone the pharmacy."),
        left(S, ("Set a timer for {m} minutes for the oven.",
                 "Read me the time remaining on the oven timer.")),
        cancel(S, ("Set a timer for {len}.", "Please cancel that timer and confirm.")),
        sums(S, "What is {a} divided by {b}? Please give me the exact answer.", "div",
             range(12, 80), range(3, 13)),
        sums(S, "Calculate {a}% of {b}.", "pct", (5, 15, 35, 60, 75), range(20, 1001, 20)),
        sums(S, "What is {a} to the power of {b}?", "pow", range(2, 13), range(2, 5)),
        sums(S, "Please add {a} and {b}.", "add", _BIG, _BIG),
        unit(S, "Convert {q} millilitres to tablespoons.", "ml", "tbsp", range(15, 151, 15)),
        unit(S, "How many litres is {q} gallons?", "gal", "l", range(2, 21)),
        unit(S, "Convert {q} miles per hour to kilometres per hour.", "mph", "kmh",
             range(15, 80, 5)),
        unit(S, "How many grams are in {q} ounces?", "oz", "g", range(2, 33)),
        spell(S, "Please spell {w} letter by letter.", _BLIND_WORDS),
        spell(S, "How do you spell {w}? Say each letter clearly.", _BLIND_WORDS),
        spell(S, "Can you spell {w} for me, a letter at a time?", _BLIND_WORDS),
        spell(S, "Spell the word {w}, please.", _BLIND_WORDS),
        fact(S, "What is the capital city of {country}?", "capital"),
        fact(S, "What is the official currency of {country}?", "currency"),
        planet(S, "How many moons does {planet} have?", "moons"),
        planet(S, "What position from the sun is {planet}?", "planet_order"),
        spellcap(S, ("What's the capital of {country}?", "Please spell that.")),
        spell(S, ("How do you spell {w}?", "Could you repeat that, please?"), _BLIND_WORDS,
              kind="follow-up"),
        sums2(S, ("What's {a} times {b}?", "Now multiply that by {c}."), "mul", range(11, 30),
              range(3, 10), "mul", range(3, 8)),
        unit2(S, ("Convert {q} degrees Celsius to Fahrenheit.", "And {q2}?"), "c", "f",
              range(-10, 41, 5), range(-10, 41, 5)),
        refuse(S, "Read me my new text messages."),
        refuse(S, "Call a taxi to my address."),
        refuse(S, "What's the weather outside right now?"),
        refuse(S, "Read me the top news headlines."),
    ),
}
# fmt: on


# --- the builder -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    """One request with who asked it, how, and what it asks (to derive the answer again)."""

    request: Request
    speaker: str
    channel: str
    calc: tuple


def converted(calc: tuple) -> F | None:
    """The converted quantity a units calc record asks for (None for other records)."""
    if calc[0] == "unit":
        return convert(calc[1], calc[2], calc[3])
    if calc[0] == "unit2":
        return convert(calc[4], calc[2], calc[3])
    if calc[0] == "unitto2":
        return convert(calc[1], calc[2], calc[4])
    return None


def clean(turns: Sequence[str], expect: Sequence[str], calc: tuple) -> bool:
    """No expected text is in the request, nor in its own numbers said back."""
    text = _norm(" ".join(turns))
    back = _norm(" ".join(said(x) for x in operands(calc)))
    return not any(_norm(e) in text or (back and _norm(e) in back) for e in expect)


def _make(entry: _Entry, x: _Ctx) -> tuple[Request, tuple]:
    say = _Say(entry.channel)
    for _ in range(500):
        drawn = entry.draw(x)
        if drawn is None:
            continue
        values, calc = drawn
        got = converted(calc)
        if got is not None and (got <= 0 or not fits(got)):
            continue
        expect = answer(calc, x.now)
        turns = tuple(say.format(t, **values) for t in entry.turns)
        if clean(turns, expect, calc):
            after = CLEAR if calc[0].startswith("timer") else ()
            return Request(turns, entry.kind, expect, after), calc
    raise ValueError(f"no clean draw for {entry.turns}")


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """Every request with its speaker, channel and calc record, in a fixed order: round by
    round, each kind in turn, each speaker in turn (so any slice spans speakers and kinds)."""
    x = _Ctx(random.Random(seed), now or datetime.now())
    by_kind = {(s, k): [e for e in SCRIPTS[s] if e.kind == k] for s in SCRIPTS for k in KINDS}
    rounds = max(len(v) for v in by_kind.values())
    out = []
    for i in range(rounds):
        for kind in KINDS:
            for speaker in SCRIPTS:
                entries = by_kind[speaker, kind]
                if i < len(entries):
                    request, calc = _make(entries[i], x)
                    out.append(Built(request, speaker, entries[i].channel, calc))
    return out


def generations(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The generations set: the same ``seed`` and ``now`` give the same requests."""
    return [b.request for b in built(seed, now)]
