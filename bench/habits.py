"""Habits set for ``bench/skills.py --requests habits``: 256 held-out requests from people who
learnt to talk to a voice assistant on another product, and talk to this one the same way.

Method
======

**The generator: habits from other assistants.** The earlier held-out sets were built from
everyday scenes, frames crossed with cores, personas at work, syntactic transformations,
language learners, regional households, speakers of different ages and short conversations.
This one is built from *product habits*: the phrasings, grammar and repair strategies that eight
other voice products teach their users (:data:`PRODUCTS`):

- a kitchen smart speaker (Alexa), a phone assistant (Siri), Google Assistant, Samsung's Bixby,
  Cortana on a Windows PC, a car's push-to-talk voice system, a smart TV remote's microphone
  button and a child's tablet assistant;
- each with its own habits: wake words left in ("Alexa, ...", "Hey Siri, ...", "OK Google, ...",
  "Hi Bixby, ...", "Hey Cortana, ...", "Hey Buddy, ..."), or none at all where a button is
  pressed (car, TV); its command grammar ("set timer ten minutes", "ten minute timer", "timer
  for pasta 8 minutes", "capital of Kenya", "17 times 23", "open Calculator and work out ...",
  "Sleep timer 30 minutes.", "65 inches in centimeters."); its follow-up habit (Alexa's users
  say the wake word again, Google's continue without it: "And in Canada?", Siri's "What about
  38?", Bixby's "How about ...", the car's "Same for ..."); the words it taught for stopping
  a timer ("cancel timer", "delete the timer", "stop the timer", "turn off the timer"); and the
  repairs people make when a product misheard ("No, I said 15 minutes.", "I said 15, not 50.",
  the teen/ty confusion every recogniser makes), or the magic word a child's tablet rewards
  ("please").

Every request is one literal sentence (or two, for a follow-up) written for one product's user
and one of the eight kinds: 8 products × 8 kinds × 4 sentences = 256 scored requests, 32 per
kind. Nothing crosses a frame with a core and no transformation is applied: the only thing the
seeded :class:`random.Random` draws is the values slotted into a sentence (numbers, minutes,
countries, planets, words to spell, dates, holidays, unit pairs, names for the refusals), from
pools that are each shuffled and used up before they refill, so values spread over the set.
Words to spell are used once in the whole set. The same ``seed`` and ``now`` give the same
requests in any process.

**Two channels** (:data:`CHANNELS`). Half of each product's sentences of each kind are
``typed`` (lower case, digits, no punctuation but apostrophes, "15 percent"), half ``spoken``
as Whisper writes speech (capitals and punctuation, numbers up to ten in words and larger ones
in digits with thousands commas, "15%", "$42.50", "July 4th", years as "2027"). The channel
of a sentence is fixed by its place (product, kind, index), not drawn.

**Checks computed independently.** Each request keeps a calc record ``(op, args)`` (and the
first turn's, for a follow-up) from which its answer is worked out here from first principles:
arithmetic with :class:`fractions.Fraction`; conversions with the exact unit definitions of
``bench/everyday.py`` (1 inch = 2.54 cm, 1 lb = 0.45359237 kg, 1 US gallon = 3.785411784 l,
1 knot = 1852 m/h); calendar answers with :mod:`datetime` from ``now`` (Easter by the
anonymous Gregorian computus); facts from the tables of :mod:`words.facts`. Answers are in the
words the assistant says them in: numbers through ``number()`` (exact to two decimals, or
about three significant figures, or one decimal fewer), timer lengths through ``duration()``
("one hour and thirty minutes"), dates as "March fifth" or "fifth of March", the time as the
current or the next hour's word, "how long is left" right after an M-minute timer as "M
minutes" or "M-1 minutes", spelled words as ``letters()``. Currencies that hide in other
words ("euro" in "Europe", "won", "real") expect a longer form ("the euro"). A follow-up that
asks another fact of the same country draws only countries whose answer is no other
country's. A numeric (or any non-timer) answer is redrawn when its words appear in the
request's own turns, numbers said back in words included ("twelve" inside "12 times 11"), and
a follow-up's answer is redrawn when it is already in the first turn's answer, so a reply that
repeats the question or the earlier answer never counts. Refusals (weather, scores, news,
messages, calls, music, bookings, orders, smart-home, synced lists) expect nothing
(``expect == ()``): a short honest one is useful. Every request that sets a timer is followed,
unscored, by ``CLEAR`` ("cancel all my timers").

:func:`built` returns the records ``(request, product, channel, calc)``, so that
``tests/test_habits.py`` re-derives every answer on its own.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from fractions import Fraction as F
from math import isqrt
from typing import Any, NamedTuple

from bench.everyday import (
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
    MM,
    MPH,
    OUNCE,
    POUND,
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
)  # fmt: skip
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from words.calendar import MONTH_DAYS, year_words
from words.facts import COUNTRIES, PLANETS, Country, Planet
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CHANNELS = ("typed", "spoken")
PRODUCTS = {
    "alexa": "a kitchen smart speaker (Alexa): the wake word before every turn, terse verb-noun "
    "commands ('set timer ten minutes', 'ten minute timer'), no context kept, so a follow-up "
    "says the wake word again",
    "siri": "a phone assistant (Siri): 'Hey Siri', whole sentences, 'remind me in ...', tips and "
    "bills split, birthdays, 'What about ...?' follow-ups",
    "google": "Google Assistant: 'OK Google' / 'Hey Google', search-box keyword grammar "
    "('capital of Kenya', '17 times 23', 'cups in ml', 'timer for pasta 8 minutes'), "
    "continued conversation with no wake word on the follow-up ('And in Canada?')",
    "bixby": "Samsung's Bixby: 'Hi Bixby', app-first commands ('open Calculator and ...', 'open "
    "Clock and set ...'), 'delete the timer', 'How about ...?' follow-ups",
    "cortana": "Cortana on a Windows PC: 'Hey Cortana', an office register, reminders, meeting "
    "rooms and e-mail, 'I said X, not Y' repairs",
    "car": "a car's push-to-talk voice system: no wake word, keyword-first command grammar "
    "('Timer, 15 minutes.', 'Capital of Kenya.', 'Stop timer.', 'Timer status.'), 'Same for "
    "...' and 'Now ...' follow-ups",
    "tv": "a smart TV remote's microphone button: search-box nouns and bare questions ('Search "
    "12 times 14.', 'Sleep timer 30 minutes.', '65 inches in centimeters.'), no wake word",
    "tablet": "a child's tablet assistant ('Hey Buddy'): taught the magic word 'please', "
    "homework questions, times tables, planets, 'now spell ...'",
}

# --- units (exact, SI base: metre, kilogram, litre, metre per second) ---------------------------
UNITS: dict[str, F] = {
    "mile": MILE, "km": KM, "meter": F(1), "cm": CM, "mm": MM, "inch": INCH, "foot": FOOT,
    "yard": YARD, "lb": POUND, "kg": F(1), "oz": OUNCE, "gram": GRAM, "stone": STONE,
    "gallon": GALLON, "quart": GALLON / 4, "pint": GALLON / 8, "cup": CUP, "floz": FL_OZ,
    "tbsp": TABLESPOON, "tsp": TABLESPOON / 3, "liter": F(1), "ml": ML,
    "mph": MPH, "kmh": KMH, "knot": KNOT,
}  # fmt: skip
UNIT_NAMES = {
    "tbsp": ("tablespoon", "tablespoons"), "tsp": ("teaspoon", "teaspoons"),
    "cup": ("cup", "cups"), "quart": ("quart", "quarts"), "pint": ("pint", "pints"),
    "gallon": ("gallon", "gallons"), "oz": ("ounce", "ounces"), "lb": ("pound", "pounds"),
    "foot": ("foot", "feet"), "mile": ("mile", "miles"), "inch": ("inch", "inches"),
    "yard": ("yard", "yards"), "floz": ("fluid ounce", "fluid ounces"),
    "ml": ("milliliter", "milliliters"), "gram": ("gram", "grams"), "kg": ("kilogram", "kilograms"),
}  # fmt: skip

# --- calendar ---------------------------------------------------------------------------------
HOLIDAY_NAMES = {"christmas": "Christmas", "new year": "New Year's", "halloween": "Halloween",
                 "valentine": "Valentine's Day", "easter": "Easter"}  # fmt: skip
FIXED_HOLIDAYS = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
                  "valentine": (2, 14)}  # fmt: skip


def easter(year: int) -> date:
    """Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


def holiday(name: str, year: int) -> date:
    return easter(year) if name == "easter" else date(year, *FIXED_HOLIDAYS[name])


def _date_forms(d: date) -> tuple[str, ...]:
    return (f"{MONTHS[d.month - 1]} {ordinal_words(d.day)}",
            f"{ordinal_words(d.day)} of {MONTHS[d.month - 1]}")  # fmt: skip


def _days_forms(n: int) -> tuple[str, ...]:
    if n < 2:
        return ("today",) if n == 0 else ("tomorrow", "one day")
    return (f"{int_words(n)} days",)


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


# --- facts ------------------------------------------------------------------------------------
CURRENCY_FORMS = {
    "euro": ("the euro", "euros"), "won": ("the won", "korean won"),
    "real": ("the real", "brazilian real", "reais"), "US dollar": ("US dollar", "U.S. dollar"),
    "ruble": ("ruble", "rouble"), "pound sterling": ("pound sterling", "British pound"),
}  # fmt: skip
MOON_FORMS = {
    "Mercury": ("no moons", "no moon", "any moons"), "Venus": ("no moons", "no moon", "any moons"),
    "Earth": ("one moon",), "Mars": ("two small moons", "two moons", "Phobos"),
}  # fmt: skip
HOTTEST = "Venus"
CANCELLED = ("cancelled", "canceled", "stopped", "turned off")


def _only(attr) -> tuple[Country, ...]:
    """Countries whose answer for ``attr`` is no other country's, nor inside another's, nor
    holds another's ("English" in "Hindi and English")."""
    vals = [_norm(attr(c)) for c in COUNTRIES]
    return tuple(c for c, v in zip(COUNTRIES, vals, strict=True)
                 if sum(v in w or w in v for w in vals) == 1)  # fmt: skip


UNIQUE_CURRENCY = _only(currency)
UNIQUE_LANGUAGE = _only(lambda c: c.language)

# --- answers ------------------------------------------------------------------------------------
TIMER_SETS = ("mins", "secs", "hours", "hm")
ECHO_OK = (*TIMER_SETS, "left")  # a timer's answer is its own length, said in the request


def answer(op: str, args: Sequence[Any], now: datetime) -> tuple[Any, tuple[str, ...]]:
    """``(value, expect)`` for a calc record: the value (a number where there is one, so a
    follow-up can use it) and the accepted answers as the assistant words them."""
    today = now.date()
    a = list(args)
    if op == "time":
        h, nxt = now.hour, (now.hour + 1) % 24
        out = [int_words(h % 12 or 12), int_words(nxt % 12 or 12)]
        out += ["midnight"] if 0 in (h, nxt) else ["noon"] if 12 in (h, nxt) else []
        return None, tuple(dict.fromkeys(out))
    if op == "today":
        return today, _date_forms(today)
    if op == "weekday":
        return today, (WEEKDAYS[today.weekday()],)
    if op == "weekday_of":
        return a[0], (WEEKDAYS[a[0].weekday()],)
    if op in ("date_in", "weekday_in"):
        d = today + timedelta(days=a[0])
        return d, _date_forms(d) if op == "date_in" else (WEEKDAYS[d.weekday()],)
    if op == "until":
        d = holiday(a[0], today.year)
        if d < today:
            d = holiday(a[0], today.year + 1)
        n = (d - today).days
        return n, _days_forms(n)
    if op == "until_date":
        n = (a[0] - today).days
        return n, _days_forms(n)
    if op == "holiday_weekday":
        d = holiday(a[0], a[1])
        return d, (WEEKDAYS[d.weekday()],)
    if op == "holiday_date":
        d = holiday(a[0], a[1])
        return d, _date_forms(d)
    if op in ("month_days", "month_days_y"):
        n = MONTH_DAYS[a[0] - 1] + (a[0] == 2 and op == "month_days_y" and _leap(a[1]))
        return n, (int_words(n),)
    if op in TIMER_SETS:
        secs = {"mins": 60, "secs": 1, "hours": 3600}.get(op)
        s = a[0] * secs if secs else a[0] * 3600 + a[1] * 60
        return s, (duration(s),)
    if op == "left":
        return a[0] * 60, (duration(a[0] * 60), duration(a[0] * 60 - 60))
    if op == "cancel":
        return None, CANCELLED
    numeric = {
        "add": lambda x, y: F(x) + y, "sub": lambda x, y: F(x) - y, "mul": lambda x, y: F(x) * y,
        "div": lambda x, y: F(x) / y, "pct": lambda p, x: F(p) * x / 100,
        "off": lambda p, x: F(x) - F(p) * x / 100, "pow": lambda x, y: F(x) ** y,
        "sqrt": lambda x: F(isqrt(x)) if isqrt(x) ** 2 == x else None,
        "conv": lambda q, u, v: F(q) * UNITS[u] / UNITS[v],
        "c2f": c_to_f, "f2c": f_to_c,
    }  # fmt: skip
    if op in numeric:
        v = numeric[op](*a)
        if v is None:
            raise ValueError(f"{op}{tuple(a)} is not exact")
        return v, number(v)
    if op == "spell":
        return a[0], (letters(a[0]),)
    if op == "capital":
        return capital(a[0]), (capital(a[0]),)
    if op == "currency":
        cur = currency(a[0])
        return cur, CURRENCY_FORMS.get(cur, (cur,))
    if op == "language":
        return a[0].language, (a[0].language,)
    if op == "continent":
        return continent(a[0]), (continent(a[0]),)
    if op in ("planet_at", "planet_after"):
        order = a[0] + (op == "planet_after")
        name = next(p.name for p in PLANETS if p.order == order)
        return name, (name,)
    if op == "planet_order":
        return a[0].order, (ordinal_words(a[0].order),)
    if op in ("largest", "smallest", "hottest"):
        name = {"largest": "Jupiter", "smallest": "Mercury", "hottest": HOTTEST}[op]
        return name, (name,)
    if op == "moons":
        return a[0].name, MOON_FORMS[a[0].name]
    if op == "big_moon":
        return a[0].moons_answer, (a[0].moons_answer,)
    if op == "refuse":
        return None, ()
    raise ValueError(f"unknown op {op!r}")


# --- how each channel writes a value -----------------------------------------------------------
def _num(v: Any, spoken: bool) -> str:
    q = F(v)
    if q.denominator == 1:
        n = int(q)
        return int_words(n) if spoken and 0 <= n <= 10 else f"{n:,}" if spoken else str(n)
    text = f"{float(q):,.2f}" if spoken else f"{float(q):.2f}"
    return text.rstrip("0").rstrip(".")


class _Say(string.Formatter):
    """Fills a sentence's fields as the channel writes them: ``{x}`` a number or a name,
    ``{p:%}`` a percentage, ``{b:$}`` money, ``{o:th}`` an ordinal, ``{d:md}`` / ``{d:mdy}`` a
    date, ``{y:y}`` a year, ``{m:mon}`` a month, ``{h:hol}`` a holiday, ``{u:sg}`` / ``{u:pl}``
    a unit's name."""

    def __init__(self, channel: str) -> None:
        self.spoken = channel == "spoken"

    def format_field(self, v: Any, spec: str) -> str:
        sp = self.spoken
        if spec == "%":
            return f"{_num(v, False)}%" if sp else f"{_num(v, sp)} percent"  # "10%", not "ten%"
        if spec == "$":
            q = F(v)
            if q.denominator == 1:
                return f"${int(q):,}" if sp else f"${int(q)}"
            return f"${float(q):,.2f}" if sp else f"${float(q):.2f}"
        if spec == "th":
            return ordinal_words(v) if sp and v <= 10 else nth(v)
        if spec in ("md", "mdy"):
            text = f"{MONTHS[v.month - 1]} {nth(v.day) if sp else v.day}"
            return text + (f", {v.year}" if spec == "mdy" else "")
        if spec == "y":
            return str(v)
        if spec == "mon":
            return MONTHS[v - 1]
        if spec == "hol":
            return HOLIDAY_NAMES[v]
        if spec in ("sg", "pl"):
            return UNIT_NAMES[v][spec == "pl"]
        if isinstance(v, (Country, Planet)):
            return v.name
        if isinstance(v, (int, F)):
            return _num(v, sp)
        return str(v)


def render(template: str, fields: dict[str, Any], channel: str) -> str:
    text = _Say(channel).format(template, **fields)
    if channel == "typed":
        text = re.sub(r"[,!?:;]|\.(?!\d)", "", text.lower())
    else:
        text = text[:1].upper() + text[1:]  # "Ten feet in meters."
    return " ".join(text.split())


NUMERAL = re.compile(r"\d[\d,]*(?:\.\d+)?")


def said_back(turns: Sequence[str]) -> str:
    """The request's own words, with each number in it said back as words too."""
    parts = []
    for t in turns:
        parts.append(t)
        for tok in NUMERAL.findall(t):
            x = F(tok.replace(",", ""))
            parts.append(said(x))
            if x.denominator == 1 and 0 <= x < 100:
                parts.append(ordinal_words(int(x)))
            if x.denominator == 1 and 1000 <= x < 3000:
                parts.append(year_words(int(x)))
    return _norm(" ; ".join(parts))


# --- the sentences ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _T:
    kind: str
    op: str  # the scored turn's calc "pct(p,y)": fields, "@" (the first turn's value), literals
    turns: tuple[str, ...]
    pools: dict[str, Sequence]  # field (or "a_b" for a pair) → the values it is drawn from
    first: str | None = None  # a follow-up's first-turn calc


def _t(kind: str, op: str, *turns: str, first: str | None = None, **pools: Sequence) -> _T:
    return _T(kind, op, turns, pools, first)


def _table(now: datetime) -> dict[str, list[_T]]:
    """Per product, four sentences of each kind, in :data:`KINDS` order."""
    today = now.date()
    # timers
    MIN = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18, 20, 22, 25, 28, 30, 35, 40, 45, 50)
    SEC = (30, 40, 45, 75, 90, 100, 150)
    HM_M = (5, 10, 15, 20, 25, 30, 40, 45)
    HRS = (1, 2, 3)
    WHAT = ("pasta", "eggs", "rice", "pizza", "cookies", "laundry", "tea", "potatoes", "bread")
    TASK = ("check the oven", "move the laundry", "take my pills", "water the plants",
            "flip the steaks", "pick up the kids", "take the bread out")  # fmt: skip
    TEENTY = tuple(p for t in range(13, 20) for p in ((t, (t - 10) * 10), ((t - 10) * 10, t)))
    # arithmetic
    SMALL = tuple(range(3, 13))
    MID = tuple(range(13, 100))
    BIG = tuple(range(101, 1000, 7))
    PCT = (5, 10, 15, 20, 25, 30, 40, 60, 75)
    X = (40, 60, 80, 90, 120, 150, 160, 240, 250, 360, 480, 500, 640, 900, 1200, 2500)
    TIP = (15, 18, 20, 22, 25)
    BILL = tuple(F(s) for s in ("24", "36.50", "42", "48.80", "56.40", "64", "75.50", "88",
                                "92.40", "120", "135.60", "240", "1250"))  # fmt: skip
    WAYS = (2, 3, 4, 5, 6, 8)
    SQ = tuple(k * k for k in range(6, 33))
    POW = ((2, 5), (2, 6), (2, 8), (2, 10), (2, 12), (3, 4), (3, 5), (4, 4), (4, 5), (5, 4),
           (6, 3), (7, 3), (9, 3), (11, 3), (12, 3), (10, 4))  # fmt: skip
    CUBE = (3, 4, 5, 6, 7, 8, 9, 11, 12, 15)
    DIVX = tuple((b * k, b) for b in range(3, 10) for k in range(6, 15))
    # units
    QTY = (2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 20, 25, 30, 50, F(5, 2), F(3, 2))
    LONG = (5, 10, 13, 26, 42, 50, 100, 250, 300)
    TF = (41, 50, 59, 68, 72, 77, 86, 95, 98, 104, 212, 350, 375, 400, 425, 450)
    TC = (5, 12, 15, 18, 21, 25, 28, 30, 35, 37, 40, 100, 180, 200, 220)
    SPEED = (25, 30, 40, 50, 55, 60, 65, 70, 75, 80, 100, 110, 120)
    TVIN = (32, 40, 43, 50, 55, 65, 75, 85)
    PAIRS = (("tbsp", "cup"), ("tsp", "tbsp"), ("cup", "quart"), ("pint", "gallon"),
             ("oz", "lb"), ("foot", "mile"), ("inch", "yard"), ("floz", "cup"),
             ("cup", "gallon"), ("gram", "lb"))  # fmt: skip
    # calendar (from now)
    FUT = tuple(today + timedelta(days=k) for k in range(4, 360, 9))
    PAST = tuple(today - timedelta(days=k) for k in range(40, 720, 17))
    NDAYS = (3, 5, 9, 10, 12, 15, 20, 21, 30, 40, 45, 60, 90, 100, 120, 200)
    NWEEK = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 25, 30, 100)
    YRS = (now.year + 1, now.year + 2)
    YR5 = tuple(range(now.year, now.year + 5))
    MON = tuple(range(1, 13))
    MON_NF = tuple(m for m in MON if m != 2)
    HOL = tuple(HOLIDAY_NAMES)
    # spelling (each word used once in the set)
    WORDS = ("necessary", "rhythm", "separate", "definitely", "restaurant", "colonel", "queue",
             "conscience", "embarrass", "millennium", "occasion", "receipt", "broccoli",
             "cinnamon", "Wednesday", "February", "accommodate", "bureaucracy", "entrepreneur",
             "handkerchief", "pharaoh", "silhouette", "parallel", "questionnaire",
             "mischievous", "maintenance", "guarantee", "privilege", "acquaintance", "liaison",
             "vacuum", "pneumonia", "psychology", "sovereign", "fluorescent", "weird",
             "knowledge", "yacht", "sergeant", "exaggerate", "Massachusetts", "Fahrenheit",
             "Worcestershire", "quinoa", "espresso", "cemetery")  # fmt: skip
    KIDWORDS = ("dinosaur", "giraffe", "beautiful", "because", "friend", "chocolate", "triangle",
                "elephant", "library", "tomorrow", "Mississippi", "rhinoceros", "butterfly",
                "octopus", "sandwich", "people", "through", "orange", "caterpillar",
                "Tyrannosaurus")  # fmt: skip
    # facts
    CTRY = COUNTRIES
    INNER = tuple(p for p in PLANETS if p.order <= 4)
    OUTER = tuple(p for p in PLANETS if p.order > 4)
    ORD = tuple(range(1, 9))
    ORD7 = tuple(range(1, 8))
    # refusals
    NAME = ("Mom", "Dad", "Sarah", "Jake", "Priya", "Tom", "Aunt Linda", "Marcus")
    CITY = ("Chicago", "Leeds", "Toronto", "Sydney", "Dublin", "Austin", "Denver", "Glasgow")
    TEAM = ("Lakers", "Yankees", "Arsenal", "Chiefs", "Celtics", "Dodgers", "Liverpool")
    ARTIST = ("Taylor Swift", "Ed Sheeran", "the Beatles", "Adele", "Queen", "Coldplay")
    GENRE = ("jazz", "country", "classical", "piano", "eighties")
    ITEM = ("milk", "eggs", "paper towels", "dog food", "batteries", "coffee", "oat milk")
    ROOM = ("kitchen", "bedroom", "living room", "porch", "office")
    PLAYLIST = ("Workout", "Chill", "Road Trip", "Dinner", "Running")
    STORE = ("Walmart", "Target", "Amazon", "Costco")
    TEMP = (66, 68, 70, 72, 74)
    SHOW = ("Stranger Things", "The Office", "Bluey", "Planet Earth", "The Crown")
    STATION = ("NPR", "Kiss FM", "ESPN Radio", "Classic FM", "Jazz FM")
    PARTY = (2, 3, 4, 5, 6)
    PLACE = ("Luigi's", "the Thai place", "Nando's", "the Harbour Grill")
    SONG = ("Baby Shark", "Let It Go", "Wheels on the Bus", "the Bluey song")
    FAMILY = ("Grandma", "Grandpa", "my mom", "Auntie Jo")
    GAME = ("Minecraft", "the new Mario game", "Roblox coins", "more gems")

    t = _t
    return {
        "alexa": [
            t("clock", "time()", "Alexa, what time is it?"),
            t("clock", "weekday()", "Alexa, what day is it?"),
            t("clock", "holiday_weekday(h,y)", "Alexa, what day does {h:hol} fall on in {y:y}?",
              h=HOL, y=YRS),
            t("clock", "until(h)", "Alexa, how many days until {h:hol}?", h=HOL),
            t("timer", "mins(m)", "Alexa, set timer {m} minutes.", m=MIN),
            t("timer", "mins(m)", "Alexa, {m} minute timer.", m=MIN),
            t("timer", "left(m)", "Alexa, set a timer for {m} minutes.",
              "Alexa, how much time is left on my timer?", m=MIN),
            t("timer", "cancel()", "Alexa, set a {w} timer for {m} minutes.",
              "Alexa, cancel the {w} timer.", w=WHAT, m=MIN),
            t("arithmetic", "pct(p,x)", "Alexa, what's {p:%} of {x}?", p=PCT, x=X),
            t("arithmetic", "mul(a,b)", "Alexa, what's {a} times {b}?", a=MID, b=SMALL),
            t("arithmetic", "div(a,b)", "Alexa, what is {a} divided by {b}?", a=BIG, b=SMALL),
            t("arithmetic", "pow(a,2)", "Alexa, what's {a} squared?", a=MID),
            t("units", "conv(1,b,s)", "Alexa, how many {s:pl} in a {b:sg}?", s_b=PAIRS),
            t("units", "conv(q,foot,meter)", "Alexa, convert {q} feet to meters.", q=QTY),
            t("units", "f2c(f)", "Alexa, what's {f} Fahrenheit in Celsius?", f=TF),
            t("units", "conv(q,oz,gram)", "Alexa, how many grams in {q} ounces?", q=QTY),
            t("spelling", "spell(w)", "Alexa, spell {w}.", w=WORDS),
            t("spelling", "spell(w)", "Alexa, how do you spell {w}?", w=WORDS),
            t("spelling", "spell(w)", "Alexa, spell the word {w}.", w=WORDS),
            t("spelling", "spell(w)", "Alexa, what's the spelling of {w}?", w=WORDS),
            t("facts", "capital(c)", "Alexa, what's the capital of {c}?", c=CTRY),
            t("facts", "currency(c)", "Alexa, what currency does {c} use?", c=CTRY),
            t("facts", "largest()", "Alexa, what's the biggest planet?"),
            t("facts", "moons(p)", "Alexa, how many moons does {p} have?", p=INNER),
            t("follow-up", "capital(d)", "Alexa, what's the capital of {c}?", "Alexa, and {d}?",
              first="capital(c)", c=CTRY, d=CTRY),
            t("follow-up", "pct(p,y)", "Alexa, what's {p:%} of {x}?", "Alexa, what about {y}?",
              first="pct(p,x)", p=PCT, x=X, y=X),
            t("follow-up", "mins(r)", "Alexa, set a timer for {w} minutes.",
              "Alexa, no, I said {r} minutes.", first="mins(w)", r_w=TEENTY),
            t("follow-up", "conv(q,kg,lb)", "Alexa, how many ounces in {q} kilograms?",
              "Alexa, and in pounds?", first="conv(q,kg,oz)", q=QTY),
            t("refusal", "refuse()", "Alexa, what's the weather?"),
            t("refusal", "refuse()", "Alexa, add {i} to my shopping list.", i=ITEM),
            t("refusal", "refuse()", "Alexa, play {a}.", a=ARTIST),
            t("refusal", "refuse()", "Alexa, turn off the {r} lights.", r=ROOM),
        ],
        "siri": [
            t("clock", "today()", "Hey Siri, what's the date today?"),
            t("clock", "weekday_of(d)", "Hey Siri, what day of the week is {d:mdy}?", d=FUT),
            t("clock", "until_date(d)", "Hey Siri, how many days until my birthday on {d:md}?",
              d=FUT),
            t("clock", "date_in(n)", "Hey Siri, what's the date {n} days from today?", n=NDAYS),
            t("timer", "mins(m)", "Hey Siri, set a timer for {m} minutes.", m=MIN),
            t("timer", "hm(1,m)", "Hey Siri, set a timer for an hour and {m} minutes.", m=HM_M),
            t("timer", "mins(m)", "Hey Siri, remind me in {m} minutes to {w}.", m=MIN, w=TASK),
            t("timer", "cancel()", "Hey Siri, start a {m} minute timer.",
              "Hey Siri, stop the timer.", m=MIN),
            t("arithmetic", "pct(p,b)", "Hey Siri, what's a {p:%} tip on {b:$}?", p=TIP, b=BILL),
            t("arithmetic", "div(b,n)", "Hey Siri, what's {b:$} split {n} ways?", b=BILL, n=WAYS),
            t("arithmetic", "sqrt(x)", "Hey Siri, what's the square root of {x}?", x=SQ),
            t("arithmetic", "add(a,b)", "Hey Siri, what's {a} plus {b}?", a=BIG, b=MID),
            t("units", "conv(q,lb,kg)", "Hey Siri, convert {q} pounds to kilograms.", q=QTY),
            t("units", "conv(q,liter,cup)", "Hey Siri, how many cups are in {q} liters?", q=QTY),
            t("units", "c2f(c)", "Hey Siri, what's {c} degrees Celsius in Fahrenheit?", c=TC),
            t("units", "conv(s,mph,kmh)",
              "Hey Siri, convert {s} miles per hour to kilometers per hour.", s=SPEED),
            t("spelling", "spell(w)", "Hey Siri, how do you spell {w}?", w=WORDS),
            t("spelling", "spell(w)", "Hey Siri, spell {w} for me.", w=WORDS),
            t("spelling", "spell(w)", "Hey Siri, how is {w} spelled?", w=WORDS),
            t("spelling", "spell(w)", "Hey Siri, can you spell {w}?", w=WORDS),
            t("facts", "language(c)", "Hey Siri, what language do they speak in {c}?", c=CTRY),
            t("facts", "continent(c)", "Hey Siri, what continent is {c} in?", c=CTRY),
            t("facts", "planet_at(o)", "Hey Siri, which planet is {o:th} from the sun?", o=ORD),
            t("facts", "hottest()", "Hey Siri, what's the hottest planet?"),
            t("follow-up", "currency(d)", "Hey Siri, what's the currency of {c}?",
              "Hey Siri, what about {d}?", first="currency(c)", c=CTRY, d=CTRY),
            t("follow-up", "div(@,c)", "Hey Siri, what's {a} times {b}?",
              "Now divide that by {c}.", first="mul(a,b)", a=MID, b=SMALL, c=SMALL),
            t("follow-up", "left(m)", "Hey Siri, set a timer for {m} minutes.",
              "How long's left on it?", first="mins(m)", m=MIN),
            t("follow-up", "conv(r,km,mile)", "Hey Siri, convert {q} kilometers to miles.",
              "And {r} kilometers?", first="conv(q,km,mile)", q=LONG, r=LONG),
            t("refusal", "refuse()", "Hey Siri, text {n} I'm running late.", n=NAME),
            t("refusal", "refuse()", "Hey Siri, call {n}.", n=NAME),
            t("refusal", "refuse()", "Hey Siri, what's the score of the {t} game?", t=TEAM),
            t("refusal", "refuse()", "Hey Siri, play my {p} playlist.", p=PLAYLIST),
        ],
        "google": [
            t("clock", "holiday_date(h,y)", "OK Google, when is {h:hol} {y:y}?",
              h=("easter",), y=YRS),
            t("clock", "month_days_y(m,y)", "Hey Google, how many days in {m:mon} {y:y}?",
              m=MON, y=YR5),
            t("clock", "weekday_in(n)", "Hey Google, what day will it be in {n} days?", n=NWEEK),
            t("clock", "today()", "OK Google, today's date."),
            t("timer", "mins(m)", "OK Google, timer {m} minutes.", m=MIN),
            t("timer", "mins(m)", "Hey Google, timer for {w} {m} minutes.", w=WHAT, m=MIN),
            t("timer", "secs(s)", "Hey Google, set a timer for {s} seconds.", s=SEC),
            t("timer", "cancel()", "OK Google, set a timer for {m} minutes.",
              "OK Google, cancel timer.", m=MIN),
            t("arithmetic", "mul(a,b)", "OK Google, {a} times {b}.", a=MID, b=MID),
            t("arithmetic", "off(p,x)", "OK Google, {p:%} off {x:$}.", p=PCT, x=X),
            t("arithmetic", "sub(a,b)", "Hey Google, calculate {a} minus {b}.", a=BIG, b=MID),
            t("arithmetic", "pow(a,b)", "Hey Google, {a} to the power of {b}.", a_b=POW),
            t("units", "f2c(f)", "Hey Google, what's {f} Fahrenheit in Celsius?", f=TF),
            t("units", "conv(q,mile,km)", "OK Google, convert {q} miles to km.", q=LONG),
            t("units", "conv(q,cup,ml)", "Hey Google, {q} cups in ml.", q=QTY),
            t("units", "conv(s,knot,mph)", "Hey Google, {s} knots to miles per hour.", s=SPEED),
            t("spelling", "spell(w)", "OK Google, spell {w}.", w=WORDS),
            t("spelling", "spell(w)", "Hey Google, how do you spell {w}?", w=WORDS),
            t("spelling", "spell(w)", "Hey Google, {w} spelling.", w=WORDS),
            t("spelling", "spell(w)", "OK Google, how to spell {w}.", w=WORDS),
            t("facts", "capital(c)", "Hey Google, capital of {c}.", c=CTRY),
            t("facts", "currency(c)", "OK Google, {c} currency.", c=CTRY),
            t("facts", "planet_order(p)", "Hey Google, what number planet is {p}?", p=PLANETS),
            t("facts", "language(c)", "Hey Google, {c} official language.", c=CTRY),
            t("follow-up", "language(d)", "Hey Google, what language do they speak in {c}?",
              "And in {d}?", first="language(c)", c=CTRY, d=CTRY),
            t("follow-up", "c2f(u)", "Hey Google, what's {t} Celsius in Fahrenheit?",
              "And {u} degrees?", first="c2f(t)", t=TC, u=TC),
            t("follow-up", "mul(@,2)", "OK Google, what's {a} plus {b}?", "Okay, now double that.",
              first="add(a,b)", a=BIG, b=MID),
            t("follow-up", "until(i)", "Hey Google, how many days until {h:hol}?",
              "And {i:hol}?", first="until(h)", h=HOL, i=HOL),
            t("refusal", "refuse()", "Hey Google, what's the weather like in {c} tomorrow?",
              c=CITY),
            t("refusal", "refuse()", "OK Google, set the thermostat to {t}.", t=TEMP),
            t("refusal", "refuse()", "Hey Google, what's the latest news?"),
            t("refusal", "refuse()", "OK Google, order more {i} from {s}.", i=ITEM, s=STORE),
        ],
        "bixby": [
            t("clock", "time()", "Hi Bixby, what's the time?"),
            t("clock", "today()", "Hi Bixby, show me the date."),
            t("clock", "weekday_of(d)", "Hi Bixby, what day of the week was {d:mdy}?", d=PAST),
            t("clock", "until(h)", "Hi Bixby, how many days are left until {h:hol}?", h=HOL),
            t("timer", "mins(m)", "Hi Bixby, start a timer for {m} minutes.", m=MIN),
            t("timer", "mins(m)", "Hi Bixby, open Clock and set a timer for {m} minutes.",
              m=MIN),
            t("timer", "left(m)", "Hi Bixby, set a {m} minute timer.",
              "Hi Bixby, how much time is remaining?", m=MIN),
            t("timer", "cancel()", "Hi Bixby, start a {m} minute timer.",
              "Hi Bixby, delete the timer.", m=MIN),
            t("arithmetic", "mul(a,b)", "Hi Bixby, calculate {a} times {b}.", a=BIG, b=SMALL),
            t("arithmetic", "pct(p,x)", "Hi Bixby, open Calculator and work out {p:%} of {x}.",
              p=PCT, x=X),
            t("arithmetic", "div(a,b)", "Hi Bixby, what is {a} divided by {b}?", a=BIG, b=MID),
            t("arithmetic", "pow(a,3)", "Hi Bixby, what's {a} cubed?", a=CUBE),
            t("units", "conv(q,kg,lb)", "Hi Bixby, convert {q} kilograms to pounds.", q=QTY),
            t("units", "conv(q,gram,oz)", "Hi Bixby, how many ounces is {q} grams?",
              q=(100, 150, 200, 250, 300, 500, 750)),
            t("units", "conv(q,inch,cm)", "Hi Bixby, convert {q} inches to centimeters.", q=QTY),
            t("units", "f2c(f)", "Hi Bixby, change {f} degrees Fahrenheit to Celsius.", f=TF),
            t("spelling", "spell(w)", "Hi Bixby, spell {w}.", w=WORDS),
            t("spelling", "spell(w)", "Hi Bixby, how do I spell {w}?", w=WORDS),
            t("spelling", "spell(w)", "Hi Bixby, tell me how to spell {w}.", w=WORDS),
            t("spelling", "spell(w)", "Hi Bixby, what are the letters in {w}?", w=WORDS),
            t("facts", "capital(c)", "Hi Bixby, what's the capital city of {c}?", c=CTRY),
            t("facts", "language(c)", "Hi Bixby, search what language is spoken in {c}.",
              c=CTRY),
            t("facts", "smallest()", "Hi Bixby, which is the smallest planet?"),
            t("facts", "big_moon(p)", "Hi Bixby, what's the biggest moon of {p}?", p=OUTER),
            t("follow-up", "currency(c)", "Hi Bixby, what's the capital of {c}?",
              "How about its currency?", first="capital(c)", c=UNIQUE_CURRENCY),
            t("follow-up", "mul(a,c)", "Hi Bixby, calculate {a} times {b}.",
              "How about times {c}?", first="mul(a,b)", a=MID, b=SMALL, c=SMALL),
            t("follow-up", "conv(q,liter,floz)", "Hi Bixby, convert {q} liters to cups.",
              "How about in fluid ounces?", first="conv(q,liter,cup)", q=QTY),
            t("follow-up", "spell(v)", "Hi Bixby, how do you spell {w}?", "No, I said {v}.",
              first="spell(w)", w=WORDS, v=WORDS),
            t("refusal", "refuse()", "Hi Bixby, turn on the air conditioner in the {r}.",
              r=("bedroom", "living room", "office", "kitchen")),
            t("refusal", "refuse()", "Hi Bixby, send a message to {n} saying I'm on my way.",
              n=NAME),
            t("refusal", "refuse()", "Hi Bixby, open Spotify and play {a}.", a=ARTIST),
            t("refusal", "refuse()", "Hi Bixby, what's the weather in {c}?", c=CITY),
        ],
        "cortana": [
            t("clock", "today()", "Hey Cortana, what's the date?"),
            t("clock", "weekday()", "Hey Cortana, what day is it today?"),
            t("clock", "date_in(n)", "Hey Cortana, what date is it {n} days from now?", n=NDAYS),
            t("clock", "month_days(m)", "Hey Cortana, how many days are there in {m:mon}?",
              m=MON_NF),
            t("timer", "mins(m)", "Hey Cortana, set a reminder for {m} minutes from now to {w}.",
              m=MIN, w=TASK),
            t("timer", "hours(h)", "Hey Cortana, start a {h} hour timer.", h=HRS),
            t("timer", "left(m)", "Hey Cortana, timer for {m} minutes please.",
              "Hey Cortana, how long is left on my timer?", m=MIN),
            t("timer", "cancel()", "Hey Cortana, set a timer for {m} minutes.",
              "Hey Cortana, cancel my timer.", m=MIN),
            t("arithmetic", "sub(a,b)", "Hey Cortana, what is {a} minus {b}?", a=BIG, b=BIG),
            t("arithmetic", "mul(a,b)", "Hey Cortana, what's {a} multiplied by {b}?",
              a=MID, b=MID),
            t("arithmetic", "pct(p,x)", "Hey Cortana, calculate {p:%} of {x}.", p=PCT, x=X),
            t("arithmetic", "div(b,n)", "Hey Cortana, what's {b:$} divided among {n} people?",
              b=BILL, n=WAYS),
            t("units", "conv(q,meter,foot)", "Hey Cortana, convert {q} meters to feet.", q=QTY),
            t("units", "conv(q,gallon,liter)", "Hey Cortana, how many liters is {q} gallons?",
              q=QTY),
            t("units", "conv(s,kmh,mph)",
              "Hey Cortana, what's {s} kilometers per hour in miles per hour?", s=SPEED),
            t("units", "c2f(c)", "Hey Cortana, convert {c} Celsius to Fahrenheit.", c=TC),
            t("spelling", "spell(w)", "Hey Cortana, how do you spell {w}?", w=WORDS),
            t("spelling", "spell(w)", "Hey Cortana, spell {w}.", w=WORDS),
            t("spelling", "spell(w)", "Hey Cortana, what's the correct spelling of {w}?",
              w=WORDS),
            t("spelling", "spell(w)", "Hey Cortana, can you spell out {w} for me?", w=WORDS),
            t("facts", "capital(c)", "Hey Cortana, what is the capital of {c}?", c=CTRY),
            t("facts", "currency(c)", "Hey Cortana, what currency is used in {c}?", c=CTRY),
            t("facts", "continent(c)", "Hey Cortana, which continent is {c} on?", c=CTRY),
            t("facts", "largest()", "Hey Cortana, what's the largest planet in the solar system?"),
            t("follow-up", "mul(@,c)", "Hey Cortana, what's {a} divided by {b}?",
              "Hey Cortana, multiply that by {c}.", first="div(a,b)", a_b=DIVX, c=SMALL),
            t("follow-up", "capital(c)", "Hey Cortana, what's the language of {c}?",
              "And the capital?", first="language(c)", c=CTRY),
            t("follow-up", "pct(r,x)", "Hey Cortana, what's {w:%} of {x}?",
              "Hey Cortana, I said {r}, not {w}.", first="pct(w,x)", r_w=TEENTY, x=X),
            t("follow-up", "conv(q,gallon,cup)", "Hey Cortana, convert {q} gallons to liters.",
              "And to cups?", first="conv(q,gallon,liter)", q=QTY),
            t("refusal", "refuse()", "Hey Cortana, send an email to {n} saying the meeting's "
              "moved.", n=NAME),
            t("refusal", "refuse()", "Hey Cortana, book a table for {n} at {p} tonight.",
              n=PARTY, p=PLACE),
            t("refusal", "refuse()", "Hey Cortana, what are today's headlines?"),
            t("refusal", "refuse()", "Hey Cortana, play some {g} music.", g=GENRE),
        ],
        "car": [
            t("clock", "time()", "Current time."),
            t("clock", "today()", "Date today."),
            t("clock", "until(h)", "Days until {h:hol}.", h=HOL),
            t("clock", "weekday_of(d)", "Day of the week for {d:mdy}.", d=FUT),
            t("timer", "mins(m)", "Timer, {m} minutes.", m=MIN),
            t("timer", "mins(m)", "Set timer {m} minutes.", m=MIN),
            t("timer", "left(m)", "Start timer {m} minutes.", "Timer status.", m=MIN),
            t("timer", "cancel()", "Timer {m} minutes.", "Stop timer.", m=MIN),
            t("arithmetic", "add(a,b)", "Calculate {a} plus {b}.", a=BIG, b=BIG),
            t("arithmetic", "div(a,b)", "Calculate {a} divided by {b}.", a=BIG, b=SMALL),
            t("arithmetic", "mul(a,b)", "Calculate {a} times {b}.", a=SMALL, b=MID),
            t("arithmetic", "pct(p,b)", "Tip {p:%} on {b:$}.", p=TIP, b=BILL),
            t("units", "conv(q,mile,km)", "Miles to kilometers, {q}.", q=LONG),
            t("units", "conv(s,mph,kmh)", "{s} miles per hour in kilometers per hour.", s=SPEED),
            t("units", "conv(q,gallon,liter)", "Gallons to liters, {q}.", q=QTY),
            t("units", "c2f(c)", "Celsius to Fahrenheit, {c} degrees.", c=TC),
            t("spelling", "spell(w)", "Spell out the word {w}.", w=WORDS),
            t("spelling", "spell(w)", "Spelling of {w}.", w=WORDS),
            t("spelling", "spell(w)", "Spell {w}, letter by letter.", w=WORDS),
            t("spelling", "spell(w)", "Spell the word {w}, please.", w=WORDS),
            t("facts", "capital(c)", "Capital city of {c}.", c=CTRY),
            t("facts", "currency(c)", "Currency in {c}.", c=CTRY),
            t("facts", "language(c)", "Language spoken in {c}.", c=CTRY),
            t("facts", "planet_at(o)", "Planet number {o} from the sun.", o=ORD),
            t("follow-up", "currency(d)", "Currency in {c}.", "Same for {d}.",
              first="currency(c)", c=CTRY, d=CTRY),
            t("follow-up", "conv(r,mile,km)", "Miles to kilometers, {q} miles.",
              "Now {r} miles.", first="conv(q,mile,km)", q=LONG, r=LONG),
            t("follow-up", "left(m)", "Timer {m} minutes.", "Time remaining.",
              first="mins(m)", m=MIN),
            t("follow-up", "language(c)", "Capital of {c}, please.", "And the language there?",
              first="capital(c)", c=UNIQUE_LANGUAGE),
            t("refusal", "refuse()", "Call {n}, mobile.", n=NAME),
            t("refusal", "refuse()", "Tune to {s}.", s=STATION),
            t("refusal", "refuse()", "Send message to {n}: running late.", n=NAME),
            t("refusal", "refuse()", "Set temperature to {t} degrees.", t=TEMP),
        ],
        "tv": [
            t("clock", "time()", "Search what time is it."),
            t("clock", "today()", "Show me today's date."),
            t("clock", "until(h)", "Search how many days till {h:hol}.", h=HOL),
            t("clock", "holiday_weekday(h,y)", "What day of the week is {h:hol} {y:y}?",
              h=HOL, y=YRS),
            t("timer", "mins(m)", "Sleep timer {m} minutes.", m=MIN),
            t("timer", "mins(m)", "Set the timer to {m} minutes.", m=MIN),
            t("timer", "left(m)", "Timer {m} minutes.", "Show me the timer.", m=MIN),
            t("timer", "cancel()", "Set timer for {m} minutes.", "Timer off.", m=MIN),
            t("arithmetic", "mul(a,b)", "Search {a} times {b}.", a=MID, b=MID),
            t("arithmetic", "add(a,b)", "{a} plus {b}.", a=BIG, b=MID),
            t("arithmetic", "pct(p,x)", "Search {p:%} of {x}.", p=PCT, x=X),
            t("arithmetic", "sqrt(x)", "Show me the square root of {x}.", x=SQ),
            t("units", "conv(q,foot,meter)", "{q} feet in meters.", q=LONG),
            t("units", "conv(q,lb,kg)", "Search {q} pounds in kilograms.", q=LONG),
            t("units", "c2f(c)", "Search {c} Celsius to Fahrenheit.", c=TC),
            t("units", "conv(q,inch,cm)", "{q} inches in centimeters.", q=TVIN),
            t("spelling", "spell(w)", "Search spelling {w}.", w=WORDS),
            t("spelling", "spell(w)", "Spelling {w}, please.", w=WORDS),
            t("spelling", "spell(w)", "Spell {w} for the crossword.", w=WORDS),
            t("spelling", "spell(w)", "Show me how to spell {w}.", w=WORDS),
            t("facts", "capital(c)", "Capital city {c}.", c=CTRY),
            t("facts", "currency(c)", "What currency does {c} have?", c=CTRY),
            t("facts", "largest()", "Search biggest planet."),
            t("facts", "continent(c)", "Search what continent {c} is in.", c=CTRY),
            t("follow-up", "capital(d)", "Search capital of {c}.", "And for {d}?",
              first="capital(c)", c=CTRY, d=CTRY),
            t("follow-up", "pct(p,y)", "Search {p:%} of {x}.", "Same for {y}.", first="pct(p,x)",
              p=PCT, x=X, y=X),
            t("follow-up", "conv(r,inch,cm)", "{q} inches in centimeters.", "Now {r} inches.",
              first="conv(q,inch,cm)", q=TVIN, r=TVIN),
            t("follow-up", "mul(r,b)", "{w} times {b}.", "I said {r}, not {w}.",
              first="mul(w,b)", r_w=TEENTY, b=SMALL),
            t("refusal", "refuse()", "Play {s}.", s=SHOW),
            t("refusal", "refuse()", "Weather this weekend."),
            t("refusal", "refuse()", "Dim the {r} lights.", r=ROOM),
            t("refusal", "refuse()", "What's the score in the {t} game?", t=TEAM),
        ],
        "tablet": [
            t("clock", "weekday()", "Hey Buddy, what day is it today please?"),
            t("clock", "until(h)", "Hey Buddy, how many days until {h:hol} please?", h=HOL),
            t("clock", "month_days(m)", "Hey Buddy, how many days are in {m:mon}?", m=MON_NF),
            t("clock", "date_in(n)", "Hey Buddy, what's the date in {n} days? It's my birthday.",
              n=NDAYS),
            t("timer", "mins(m)", "Hey Buddy, set a timer for {m} minutes for my homework "
              "please.", m=MIN),
            t("timer", "mins(m)", "Hey Buddy, set a {m} minute timer for screen time.", m=MIN),
            t("timer", "left(m)", "Hey Buddy, set a timer for {m} minutes please.",
              "Hey Buddy, how many minutes are left?", m=MIN),
            t("timer", "cancel()", "Hey Buddy, start a timer for {m} minutes.",
              "Hey Buddy, stop the timer please.", m=MIN),
            t("arithmetic", "mul(a,b)", "Hey Buddy, what's {a} times {b}?", a=SMALL, b=SMALL),
            t("arithmetic", "add(a,b)", "Hey Buddy, what is {a} plus {b} please?", a=MID, b=MID),
            t("arithmetic", "sub(a,b)", "Hey Buddy, what's {a} minus {b}?", a=BIG, b=MID),
            t("arithmetic", "div(a,b)", "Hey Buddy, what's {a} divided by {b}?", a_b=DIVX),
            t("units", "conv(q,meter,cm)", "Hey Buddy, how many centimeters are in {q} meters?",
              q=QTY),
            t("units", "conv(q,kg,gram)", "Hey Buddy, how many grams is {q} kilograms?", q=QTY),
            t("units", "conv(q,yard,foot)", "Hey Buddy, how many feet are in {q} yards?", q=QTY),
            t("units", "f2c(f)", "Hey Buddy, what's {f} degrees Fahrenheit in Celsius?", f=TF),
            t("spelling", "spell(w)", "Hey Buddy, how do you spell {w}?", w=KIDWORDS),
            t("spelling", "spell(w)", "Hey Buddy, spell {w} please.", w=KIDWORDS),
            t("spelling", "spell(w)", "Hey Buddy, can you spell {w} for me please?", w=KIDWORDS),
            t("spelling", "spell(w)", "Hey Buddy, what letters are in {w}?", w=KIDWORDS),
            t("facts", "smallest()", "Hey Buddy, which planet is the smallest?"),
            t("facts", "planet_at(o)", "Hey Buddy, what's the {o:th} planet from the sun?",
              o=ORD),
            t("facts", "capital(c)", "Hey Buddy, what's the capital of {c}?", c=CTRY),
            t("facts", "moons(p)", "Hey Buddy, how many moons does {p} have please?", p=INNER),
            t("follow-up", "add(@,c)", "Hey Buddy, what's {a} times {b}?",
              "What's that plus {c}?", first="mul(a,b)", a=SMALL, b=SMALL, c=MID),
            t("follow-up", "until_date(d)", "Hey Buddy, how many days until {h:hol}?",
              "Hey Buddy, and my birthday on {d:md}?", first="until(h)", h=HOL, d=FUT),
            t("follow-up", "spell(v)", "Hey Buddy, how do you spell {w}?",
              "Hey Buddy, now spell {v}.", first="spell(w)", w=KIDWORDS, v=KIDWORDS),
            t("follow-up", "planet_after(o)", "Hey Buddy, what planet is {o:th} from the sun?",
              "And what comes after that?", first="planet_at(o)", o=ORD7),
            t("refusal", "refuse()", "Hey Buddy, play {s} please.", s=SONG),
            t("refusal", "refuse()", "Hey Buddy, call {f}.", f=FAMILY),
            t("refusal", "refuse()", "Hey Buddy, buy {g} please.", g=GAME),
            t("refusal", "refuse()", "Hey Buddy, is it going to rain at recess?"),
        ],
    }  # fmt: skip


# --- the builder ------------------------------------------------------------------------------
class Built(NamedTuple):
    request: Request
    product: str
    channel: str
    calc: dict  # {"op", "args", "first": {"op", "args"} | None, "fields"}


class _Bags:
    """Each pool shuffled and used up before it refills, in the seed's order."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.left = rng, {}

    def take(self, pool: Sequence) -> Any:
        left = self.left.setdefault(id(pool), [])
        if not left:
            left.extend(pool)
            self.rng.shuffle(left)
        return left.pop()


def _parse(op: str) -> tuple[str, list[str]]:
    m = re.fullmatch(r"(\w+)\((.*)\)", op)
    assert m, op
    return m[1], [a.strip() for a in m[2].split(",") if a.strip()]


def _resolve(tokens: list[str], fields: dict[str, Any], first: Any) -> tuple[Any, ...]:
    out = []
    for tok in tokens:
        if tok == "@":
            out.append(first)
        elif tok in fields:
            out.append(fields[tok])
        elif re.fullmatch(r"\d+", tok):
            out.append(int(tok))
        else:
            out.append(tok)  # a unit's key
    return tuple(out)


def _draw(tpl: _T, bags: _Bags) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    taken: dict[int, list] = {}  # fields drawn from one pool are distinct
    for key, pool in tpl.pools.items():
        names = key.split("_")
        for _ in range(100):
            v = bags.take(pool)
            if v not in taken.get(id(pool), []):
                break
        taken.setdefault(id(pool), []).append(v)
        fields.update(zip(names, v if len(names) > 1 else (v,), strict=True))
    return fields


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """The records of the habits set: each request with its product, channel and calc."""
    now = now or datetime.now()
    rng, table = random.Random(seed), _table(now)
    bags = _Bags(rng)
    out: list[Built] = []
    seen: set[tuple[str, ...]] = set()
    spelt: set[str] = set()
    for ki, kind in enumerate(KINDS):
        for pi, product in enumerate(PRODUCTS):
            tpls = [tp for tp in table[product] if tp.kind == kind]
            assert len(tpls) == 4, (product, kind)
            for i, tpl in enumerate(tpls):
                channel = CHANNELS[(i + pi + ki) % 2]
                out.append(_one(tpl, product, channel, bags, now, seen, spelt))
    return out


def _one(tpl: _T, product: str, channel: str, bags: _Bags, now: datetime,
         seen: set, spelt: set) -> Built:  # fmt: skip
    op, tokens = _parse(tpl.op)
    for _ in range(400):
        fields = _draw(tpl, bags)
        words = [v for k, v in fields.items() if k in ("w", "v") and tpl.op.startswith("spell")]
        if any(w in spelt for w in words):
            continue
        first = None
        v1, e1 = None, ()
        if tpl.first:
            op1, tok1 = _parse(tpl.first)
            first = {"op": op1, "args": _resolve(tok1, fields, None)}
            v1, e1 = answer(op1, first["args"], now)
        args = _resolve(tokens, fields, v1)
        value, expect = answer(op, args, now)
        if isinstance(value, F) and value < 0:
            continue  # "minus" or "negative": no negative answers
        turns = tuple(render(t, fields, channel) for t in tpl.turns)
        if turns in seen:
            continue
        if op not in ECHO_OK and any(_norm(e) in said_back(turns) for e in expect):
            continue
        if e1 and op != "left" and any(_norm(e) in _norm(" ; ".join(e1)) for e in expect):
            continue
        seen.add(turns)
        spelt.update(words)
        timer = op in (*TIMER_SETS, "left", "cancel") or (first and first["op"] in TIMER_SETS)
        after = CLEAR if timer else ()
        req = Request(turns, tpl.kind, tuple(expect), after)
        calc = {"op": op, "args": args, "first": first, "fields": fields}
        return Built(req, product, channel, calc)
    raise ValueError(f"no draw of {tpl.turns} passes its checks")


def habits(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The habits set: the same ``seed`` and ``now`` give the same requests; clock answers are
    for ``now`` (default: the real clock)."""
    return [b.request for b in built(seed, now)]


if __name__ == "__main__":
    for b in built():
        print(
            f"{b.product:<8} {b.channel:<6} {b.request.kind:<10} {' | '.join(b.request.turns)}"
            f"  →  {b.request.expect}"
        )
