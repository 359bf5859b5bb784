"""Logs set for ``bench/skills.py --requests logs``: 256 held-out requests written as a smart
speaker's day, as its request logs would show it.

**The generator: eight homes, one day each.** Each home (``HOMES``) is one speaker's day on
the speaker in their kitchen, bedroom or office, from the first request of the morning to the
last at night, and its 32 requests are written in the order that person would make them, each
with the log's time (``Built.at``):

- ``parent``: a parent getting Maya (9) and Leo (6) out of the door for school, then homework,
  tea and bedtime; talks to the children in the middle of a request ("Leo, sit down.");
- ``teen``: Jade, 16, in her bedroom: playlists, LED lights, homework, the gym, a phone curfew;
  slang ("rn", "it's mid", "or nah", "Lol");
- ``grandparent``: Margaret, 78, living alone: "Computer", "please", "dear", a boiled egg, her
  tablets, the crossword, a grandson's birthday;
- ``shift``: Dev, a night-shift warehouse worker whose day runs backwards: home at breakfast,
  a timer to sleep by, up at three, overtime sums, out of the door at night;
- ``student``: Sam, in a shared flat: a missed lecture, a discount, the rent split, a pub quiz,
  the washing, an essay;
- ``cook``: someone cooking Sunday lunch for the family with their hands full: timers
  corrected and stacked, a recipe in ounces and Fahrenheit, a lamb, guests arriving;
- ``remote``: Alex, working from home: stand-up, VAT on an invoice, billable hours, a deadline,
  a call that gets moved;
- ``child``: Noah, 8, at the family speaker: planets, spelling words, "how many sleeps", a
  T-Rex, reading time, and everything a child asks a speaker that it cannot do.

**The mix, and why.** Real smart-speaker logs are dominated by device control (lights, heating,
the TV, the oven, locks), music and media, timers, the weather, the time and alarms, with
occasional questions and sums. So half the requests, 16 per home and 128 in all, are things
this assistant cannot do (``refusal``: the lights, Spotify, the forecast, an alarm at 6:30,
"text Mum", the shopping list, the calendar, a score, opening hours, a recipe, why the sky is
blue); the other half lean the way logs do: ``timer`` 28 (set, remind, a corrected length,
how long is left, cancel), ``clock`` 24 (time, date, weekday, a date N days on, days until a
date or a holiday), ``follow-up`` 20, ``arithmetic`` 16, ``units`` 16, ``facts`` 12 and
``spelling`` 12 (``COUNTS``). Each home's share follows its speaker: the cook sets six timers
and converts four amounts, the child asks four facts and four spellings, the grandparent asks
the date and the day five ways, the student and the teenager do homework sums.

How it differs from a set of plain tool requests: the requests are not one per tool, each
cleanly worded, but a day's stream in which the tool requests sit between device commands and
media requests, in the speaker's own voice, with the mess of real speech: a wake word
("Hey speaker,", "Computer,"), "um", a false start, a self-correction ("set a timer for eight,
no, 12 minutes"; "the biggest city, no, the capital of ..."), the request split over two
sentences, a reason given ("That's payday.") and words to someone else in the room.
Follow-ups are two turns, the second leaning on the first ("And one for the carrots, nine
minutes.", "What about 400 millilitres?", "How do you spell that?", "And the one after
that?", "And New Year, how long until that?"). How it differs from a set of plain off-topic
refusals: the refusals are not questions from outside the assistant's world (history, recipes)
but mostly the everyday commands a speaker gets all day (lights, volume, the oven at 180,
heating for an hour, an alarm at half past seven, a reminder "tomorrow at nine"), many of them
with the numbers, durations and words the tools use, said by the same people in the same
breath as the requests it can serve.

**Values.** A seeded :class:`random.Random` draws only the values: numbers, amounts of money,
percentages, timer lengths, dates ahead, countries, planets and words to spell, from ranges
written beside each sentence. Words, countries and planets are not repeated within a kind, and
no two requests share their text. The same ``seed`` and ``now`` give the same set.

**Channels** (``CHANNELS``), half of each kind's requests each, drawn by the seed:

- ``typed``: as the speaker's app logs a typed request: lower case, digits for every number, no
  question marks;
- ``spoken``: as Whisper writes speech: a capital at the start, punctuation, numbers up to ten
  in words and larger ones in digits (thousands with commas), "%" and "£" signs, "the 14th of
  June", clock times as "6:30".

**Expected answers**, worked out here and recorded with each request's ``calc`` (the operation
and its operands; ``first`` for a follow-up's first turn) so that ``tests/test_logs.py`` can
work them out again with separate code:

- arithmetic with :class:`fractions.Fraction`, conversions from the exact unit definitions of
  ``bench/everyday.py`` (plus seconds, minutes and hours), temperatures by formula; numbers in
  words as the assistant says them (``number()``: exact to two decimals, otherwise about three
  significant figures or one decimal fewer); results under one are not drawn;
- the calendar from ``now`` (default: the real clock): this hour's word or the next one's, the
  date ("March fifth", "fifth of March"), the weekday, a date or weekday N days on, days until a
  date or a holiday ("today" and "tomorrow" for 0 and 1);
- timers: the length in words (``duration()``); "how long is left" right after setting M minutes
  accepts "M minutes" or "M-1 minute"; a cancelled timer "cancelled";
- spelling: the letters (``letters()``); facts from ``FACTS`` below (written for this set, with
  the forms an answer may take) and the planets by order from the Sun, the largest (Jupiter),
  smallest (Mercury) and hottest (Venus);
- refusals expect nothing (``expect == ()``): a short honest refusal is useful.

Guards, redrawn until they hold: no expected answer is in a turn's text or among its numbers said
back in words (a timer's length, whose confirmation repeats it, is the exception); a follow-up's
answer is not its first turn's; another fact of the same country is asked only where no other
country shares the answer. Every request that sets a timer is followed, unscored, by "cancel all
my timers" (``after=CLEAR``).
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction as F
from typing import NamedTuple

from bench.everyday import (
    CLEAR,
    CM,
    CUP,
    FOOT,
    GRAM,
    INCH,
    KM,
    KMH,
    MILE,
    ML,
    MPH,
    OUNCE,
    POUND,
    STONE,
    c_to_f,
    duration,
    f_to_c,
    letters,
    nth,
    number,
    said,
)  # fmt: skip
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CHANNELS = ("typed", "spoken")
COUNTS = {"clock": 24, "timer": 28, "arithmetic": 16, "units": 16, "spelling": 12, "facts": 12,
          "follow-up": 20, "refusal": 128}  # fmt: skip
HOMES = {
    "parent": "a parent getting two children ready for school, then homework, tea and bedtime",
    "teen": "a sixteen-year-old in her bedroom: music, lights, homework, the gym",
    "grandparent": "a grandmother of 78 living alone, polite, calls the speaker 'Computer'",
    "shift": "a night-shift warehouse worker: home at breakfast, sleeps by day, out at night",
    "student": "a university student in a shared flat: lectures, cooking, rent, an essay",
    "cook": "someone cooking Sunday lunch for the family, hands full, timers stacked",
    "remote": "someone working from home: meetings, invoices, billable hours, a deadline",
    "child": "a child of eight at the family speaker: planets, spelling, sums, cartoons",
}


# --- facts (written for this set; each tuple holds the forms an answer may take) ---------------
class Facts(NamedTuple):
    capital: tuple[str, ...]
    currency: tuple[str, ...]
    language: tuple[str, ...]
    continent: tuple[str, ...]


EURO = ("the euro", "euros")
FACTS = {
    "France": Facts(("Paris",), EURO, ("French",), ("Europe",)),
    "Germany": Facts(("Berlin",), EURO, ("German",), ("Europe",)),
    "Japan": Facts(("Tokyo",), ("yen",), ("Japanese",), ("Asia",)),
    "Italy": Facts(("Rome",), EURO, ("Italian",), ("Europe",)),
    "Spain": Facts(("Madrid",), EURO, ("Spanish",), ("Europe",)),
    "Brazil": Facts(("Brasília", "Brasilia"), ("the real", "Brazilian real", "reais"),
                    ("Portuguese",), ("South America",)),
    "Canada": Facts(("Ottawa",), ("dollar",), ("English", "French"), ("North America",)),
    "Australia": Facts(("Canberra",), ("dollar",), ("English",), ("Oceania", "Australia")),
    "India": Facts(("New Delhi", "Delhi"), ("rupee",), ("Hindi", "English"), ("Asia",)),
    "Mexico": Facts(("Mexico City",), ("peso",), ("Spanish",), ("North America",)),
    "Egypt": Facts(("Cairo",), ("pound",), ("Arabic",), ("Africa",)),
    "Kenya": Facts(("Nairobi",), ("shilling",), ("Swahili", "English"), ("Africa",)),
    "Norway": Facts(("Oslo",), ("krone",), ("Norwegian",), ("Europe",)),
    "Sweden": Facts(("Stockholm",), ("krona", "kronor"), ("Swedish",), ("Europe",)),
    "Poland": Facts(("Warsaw",), ("zloty", "złoty"), ("Polish",), ("Europe",)),
    "Argentina": Facts(("Buenos Aires",), ("peso",), ("Spanish",), ("South America",)),
    "Chile": Facts(("Santiago",), ("peso",), ("Spanish",), ("South America",)),
    "Peru": Facts(("Lima",), ("the sol", "Peruvian sol", "soles"), ("Spanish",),
                  ("South America",)),
    "Turkey": Facts(("Ankara",), ("lira",), ("Turkish",), ("Asia", "Europe")),
    "Greece": Facts(("Athens",), EURO, ("Greek",), ("Europe",)),
    "Portugal": Facts(("Lisbon",), EURO, ("Portuguese",), ("Europe",)),
    "Ireland": Facts(("Dublin",), EURO, ("English", "Irish"), ("Europe",)),
    "Thailand": Facts(("Bangkok",), ("baht",), ("Thai",), ("Asia",)),
    "Vietnam": Facts(("Hanoi",), ("dong",), ("Vietnamese",), ("Asia",)),
    "Nigeria": Facts(("Abuja",), ("naira",), ("English",), ("Africa",)),
    "Morocco": Facts(("Rabat",), ("dirham",), ("Arabic", "Berber", "Amazigh"), ("Africa",)),
    "Netherlands": Facts(("Amsterdam",), EURO, ("Dutch",), ("Europe",)),
    "Switzerland": Facts(("Bern", "Berne"), ("franc",), ("German", "French", "Italian"),
                         ("Europe",)),
    "Austria": Facts(("Vienna",), EURO, ("German",), ("Europe",)),
    "Indonesia": Facts(("Jakarta",), ("rupiah",), ("Indonesian",), ("Asia",)),
}  # fmt: skip
SAID_AS = {"Netherlands": "the Netherlands"}
PLANETS = ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune")
MOST = {"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}
HOLIDAYS = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
            "valentine's day": (2, 14)}  # fmt: skip
UNITS = {
    "in": INCH, "ft": FOOT, "mi": MILE, "km": KM, "m": F(1), "cm": CM,
    "lb": POUND, "oz": OUNCE, "st": STONE, "g": GRAM, "kg": F(1),
    "cup": CUP, "ml": ML, "l": F(1), "kmh": KMH, "mph": MPH,
    "s": F(1), "min": F(60), "h": F(3600),
}  # fmt: skip


def unique(attr: str, name: str) -> bool:
    """No other country's answer holds this one's (so only the remembered country gives it)."""
    others = " | ".join(_norm(x) for n, f in FACTS.items() if n != name for x in getattr(f, attr))
    return not any(_norm(e) in others for e in getattr(FACTS[name], attr))


# --- answers ------------------------------------------------------------------------------------
BINARY: dict[str, Callable[[F, F], F]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a ** int(b),
    "pct": lambda p, x: p * x / 100,  # p% of x
    "off": lambda x, p: x * (100 - p) / 100,  # x less p%
}


def value(calc: dict) -> F | None:
    """The number an arithmetic or conversion calc comes to (None for other kinds)."""
    op = calc["op"]
    if op in BINARY:
        return BINARY[op](F(calc["a"]), F(calc["b"]))
    if op == "add3":
        return F(calc["a"]) + calc["b"] + calc["c"]
    if op == "sqrt":
        r = round(F(calc["a"]) ** F(1, 2))
        assert r * r == calc["a"]
        return F(r)
    if op == "chain":
        return BINARY[calc["g"]](BINARY[calc["f"]](F(calc["a"]), F(calc["b"])), F(calc["c"]))
    if op == "conv":
        v, frm, to = F(calc["v"]), calc["frm"], calc["to"]
        if (frm, to) == ("c", "f"):
            return c_to_f(v)
        if (frm, to) == ("f", "c"):
            return f_to_c(v)
        return v * UNITS[frm] / UNITS[to]
    return None


def _days(n: int) -> str:
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def _next(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def _on(d: date) -> tuple[str, ...]:
    m, o = MONTHS[d.month - 1], ordinal_words(d.day)
    return (f"{m} {o}", f"{o} of {m}")


def answer(calc: dict, now: datetime) -> tuple[str, ...]:
    """The accepted words for a calc, at ``now``."""
    op, today = calc["op"], now.date()
    v = value(calc)
    if v is not None:
        return number(v)
    if op == "time_now":
        return tuple(dict.fromkeys(int_words(h % 12 or 12) for h in (now.hour, now.hour + 1)))
    if op == "date_today":
        return _on(today)
    if op == "weekday_today":
        return (WEEKDAYS[today.weekday()],)
    if op == "date_in":
        return _on(today + timedelta(days=calc["n"]))
    if op == "weekday_in":
        return (WEEKDAYS[(today + timedelta(days=calc["n"])).weekday()],)
    if op == "until_date":
        return (_days((_next(today, calc["month"], calc["day"]) - today).days),)
    if op == "until_holiday":
        return (_days((_next(today, *HOLIDAYS[calc["holiday"]]) - today).days),)
    if op == "set":
        return (duration(calc["seconds"]),)
    if op == "left":
        m = calc["minutes"]
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "cancel":
        return ("cancelled", "canceled")
    if op == "spell":
        return (letters(calc["word"]),)
    if op in Facts._fields:
        return getattr(FACTS[calc["country"]], op)
    if op == "planet_at":
        return (PLANETS[calc["order"] - 1],)
    if op == "planet_order":
        return (ordinal_words(PLANETS.index(calc["planet"]) + 1),)
    if op == "planet_most":
        return (MOST[calc["which"]],)
    if op == "refusal":
        return ()
    raise ValueError(f"unknown calc {calc}")


ARGS = {
    "add": "ab", "sub": "ab", "mul": "ab", "div": "ab", "pow": "ab", "pct": "ab", "off": "ab",
    "add3": "abc", "sqrt": "a", "chain": ("f", "a", "b", "g", "c"), "conv": ("v", "frm", "to"),
    "time_now": (), "date_today": (), "weekday_today": (), "date_in": ("n",),
    "weekday_in": ("n",), "until_date": ("d",), "until_holiday": ("holiday",),
    "set": ("seconds",), "left": ("minutes",), "cancel": (), "spell": ("word",),
    "capital": ("country",), "currency": ("country",), "language": ("country",),
    "continent": ("country",), "planet_at": ("order",), "planet_order": ("planet",),
    "planet_most": ("which",), "refusal": (),
}  # fmt: skip


def calc_of(op: str, vals: dict) -> dict:
    calc = {"op": op, **{k: vals[k] for k in ARGS[op]}}
    if "d" in calc:  # a date ahead: its month and day (the next one from today)
        d = calc.pop("d")
        calc.update(month=d.month, day=d.day)
    return calc


# --- templates ----------------------------------------------------------------------------------
@dataclass
class Ctx:
    rng: random.Random
    today: date


Draw = Callable[[Ctx, dict], object]


@dataclass(frozen=True)
class T:
    at: str  # the log's time of day
    kind: str
    op: str
    turns: tuple[str, ...]  # as said (spoken form); ``{#7}`` is a number said in the sentence
    op1: str = ""  # a follow-up's first turn (``key1`` values stand for its ``key``)
    draws: dict = field(default_factory=dict)


def t(at: str, kind: str, op: str, turns: str | tuple[str, ...], op1: str = "", **draws) -> T:
    return T(at, kind, op, (turns,) if isinstance(turns, str) else turns, op1, draws)


def r(at: str, text: str) -> T:
    return T(at, "refusal", "refusal", (text,))


def ints(lo: int, hi: int, step: int = 1) -> Draw:
    return lambda c, v: c.rng.randrange(lo, hi + 1, step)


def one(*options) -> Draw:
    return lambda c, v: c.rng.choice(options)


def other(key: str, lo: int, hi: int) -> Draw:
    """An int in [lo, hi] other than the value drawn for ``key``."""
    return lambda c, v: c.rng.choice([n for n in range(lo, hi + 1) if n != v[key]])


def same(key: str) -> Draw:
    return lambda c, v: v[key]


def plus(key: str, k: int) -> Draw:
    return lambda c, v: v[key] + k


def mins(key: str, hours: str = "") -> Draw:
    """Seconds of ``v[key]`` minutes (and ``v[hours]`` hours)."""
    return lambda c, v: v[key] * 60 + (v[hours] * 3600 if hours else 0)


def hrs(key: str) -> Draw:
    return lambda c, v: v[key] * 3600


def times(key: str, lo: int, hi: int) -> Draw:
    """A multiple of ``v[key]``."""
    return lambda c, v: v[key] * c.rng.randint(lo, hi)


def square(lo: int, hi: int) -> Draw:
    return lambda c, v: c.rng.randint(lo, hi) ** 2


def halves(lo: int, hi: int) -> Draw:
    """lo.5 to hi.5."""
    return lambda c, v: F(2 * c.rng.randint(lo, hi) + 1, 2)


def country(for_: str = "") -> Draw:
    """A country; for a continent or language question only one whose answer has one form and
    whose name does not hold it; for spelling a capital only a one-word, unaccented one."""
    names = list(FACTS)
    if for_ in ("continent", "language"):
        names = [n for n in names if len(getattr(FACTS[n], for_)) == 1]
    if for_ == "spell":
        names = [n for n in names if FACTS[n].capital[0].isascii()
                 and FACTS[n].capital[0].isalpha()]  # fmt: skip
    return lambda c, v: c.rng.choice(names)


def capital_of(key: str) -> Draw:
    return lambda c, v: FACTS[v[key]].capital[0]


def ahead(lo: int, hi: int) -> Draw:
    """A date lo to hi days after today (never the 29th of February)."""

    def draw(c: Ctx, v: dict) -> date:
        while True:
            d = c.today + timedelta(days=c.rng.randint(lo, hi))
            if (d.month, d.day) != (2, 29):
                return d

    return draw


EURO_MONEY = one(F("2.20"), F("2.35"), F("2.50"), F("2.65"), F("2.80"))
HOURS = one(6, F("6.5"), 7, F("7.5"), 8, F("8.5"), 9)
CHILD_WORDS = one("because", "beautiful", "elephant", "favourite", "people", "friend",
                  "tomorrow", "different", "caterpillar", "February")  # fmt: skip
ANIMALS = ("octopus", "rhinoceros", "giraffe", "spaghetti", "penguin", "squirrel", "crocodile")
C, TI, A, U, S, FA, FU = "clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up"

LOGS: dict[str, list[T]] = {
    "parent": [
        r("06:40", "Hey speaker, turn the kitchen lights on."),
        t("06:41", C, "time_now", "Hey speaker, what's the... um, what time is it?"),
        r("06:44", "What's the weather like today? Do they need their coats?"),
        t("06:47", TI, "set", "Set a timer for {a}, no, {m} minutes. That's when we leave.",
          a=ints(5, 10), m=ints(12, 20), seconds=mins("m")),
        r("06:50", "Leo, sit down. Speaker, play some Disney songs for the kids."),
        t("06:52", C, "weekday_today", "What day is it today? Is it swimming or PE?"),
        r("06:55", "Turn the volume down, it's way too loud."),
        t("07:00", A, "mul", "The dinner money's £{a:m} a day. How much is that for {b} days?",
          a=EURO_MONEY, b=ints(3, 5)),
        r("07:02", "Call Grandma on speaker."),
        t("07:08", S, "spell", "Maya, listen. Speaker, how do you spell {word}? It's on her "
          "spelling test.", word=one("necessary", "separate", "Wednesday", "library", "island")),
        r("07:10", "Add bread and milk to the shopping list."),
        r("07:12", "Is the school bus running late this morning?"),
        t("07:15", FU, "language", ("What's the capital of {country1}? It's for Maya's homework.",
                                    "And what language do they speak there?"),
          op1="capital", country1=country(), country=same("country1")),
        r("07:20", "Lock the front door. Leo, shoes on, now!"),
        t("07:22", TI, "set", "Remind me in {m} minutes to put the bins out.",
          m=ints(15, 30, 5), seconds=mins("m")),
        r("07:25", "What's on the calendar today? Have we got anything after school?"),
        r("08:20", "Turn off all the lights downstairs."),
        t("08:25", C, "until_holiday", "How many days until Halloween? Leo keeps asking me.",
          holiday="halloween"),
        t("15:30", A, "mul", "Homework time. What's {a} times {b}?", a=ints(6, 12), b=ints(6, 12)),
        r("15:35", "Put CBeebies on the telly."),
        t("15:40", S, "spell", "Leo wants to know how you spell {word}.",
          word=one("dinosaur", "crocodile", "rainbow", "monster", "sausage")),
        t("15:45", FA, "planet_most", "Maya's asking which planet is the hottest.",
          which="hottest"),
        t("16:00", FU, "set", ("Set a timer for {m1} minutes, that's Leo's screen time.",
                               "And one for Maya too, {m} minutes."),
          op1="set", m1=ints(15, 30, 5), m=ints(15, 40, 5), seconds1=mins("m1"),
          seconds=mins("m")),
        t("17:30", TI, "set", "Fish fingers are in. Timer, {m} minutes.",
          m=ints(12, 20), seconds=mins("m")),
        r("17:32", "Preheat the oven to 200."),
        t("17:35", U, "conv", "How many ounces is {v} grams of pasta?",
          v=ints(200, 500, 50), frm="g", to="oz"),
        t("17:50", TI, "left", ("Set a timer for {minutes} minutes for the peas.",
                                "How long's left on the timer?"), minutes=ints(11, 18)),
        r("18:30", "Start the dishwasher."),
        t("19:00", C, "date_today", "What's the date today? I need it for the school trip form."),
        r("19:05", "Read the kids a bedtime story, please."),
        r("19:30", "Turn on the night light in Leo's room."),
        r("21:30", "Set an alarm for 6:30 tomorrow."),
    ],
    "teen": [
        r("07:10", "Ugh. Play my morning playlist on Spotify."),
        t("07:12", C, "time_now", "Wait, what time is it rn?"),
        r("07:14", "Skip this song, it's mid."),
        r("07:20", "Text Mum that I'm up. I'm literally up."),
        r("07:25", "What's the weather like, do I need a jacket or nah?"),
        r("16:10", "Make my LED lights purple."),
        r("16:12", "Play lo-fi beats, the study one."),
        t("16:15", A, "pow", "Okay, homework. What's {a} to the power of {b}?",
          a=ints(3, 9), b=ints(3, 5)),
        t("16:18", A, "sqrt", "What's the square root of {a}? Like, the actual number.",
          a=square(12, 30)),
        t("16:20", FU, "chain", ("What's {a} times {b}?", "Now take away {c} from that."),
          f="mul", g="sub", a=ints(13, 29), b=ints(3, 9), c=ints(11, 60)),
        t("16:25", S, "spell", "How do you spell {word}? It's for my English essay.",
          word=one("definitely", "conscientious", "embarrassed", "occurrence", "aesthetic")),
        r("16:30", "Who won the Arsenal game last night?"),
        t("16:35", FA, "capital", "Quick one, what's the capital of {country}? Geography's due "
          "tomorrow.", country=country()),
        t("16:40", FU, "currency", ("Which continent is {country1} in?",
                                    "And what do they use for money there?"),
          op1="continent", country1=country("continent"), country=same("country1")),
        t("16:45", U, "conv", "How many kilometres is {v} miles? That's what Coach wants us to "
          "run.", v=ints(3, 8), frm="mi", to="km"),
        t("17:00", TI, "set", "Set a timer for {m} minutes, I'm doing a revision sprint.",
          m=ints(20, 45, 5), seconds=mins("m")),
        r("17:30", "Play the new Taylor Swift album."),
        r("17:31", "Turn it up. Louder. Like, way louder."),
        r("18:00", "How much are tickets for the concert in Manchester?"),
        r("18:30", "Is McDonald's still open?"),
        t("19:00", A, "pct", "If I got {a:p} on a test out of {b} marks, how many marks is that?",
          a=one(55, 60, 65, 70, 75, 80, 85), b=one(40, 60, 80, 120)),
        t("19:10", FU, "conv", ("How many centimetres is {v1} feet?", "What about {v} feet?"),
          op1="conv", v1=ints(5, 6), v=ints(3, 7), frm="ft", to="cm"),
        t("19:30", S, "spell", "Spell {word} for me. Slowly.",
          word=one("rhythm", "queue", "silhouette", "mischievous")),
        t("20:00", U, "conv", "What's {v} pounds in kilos? Asking for the gym.",
          v=ints(20, 60, 5), frm="lb", to="kg"),
        t("20:30", FA, "planet_most", "What's the biggest planet? Me and my brother are arguing "
          "about it.", which="largest"),
        r("21:00", "Turn off the LEDs."),
        r("21:30", "Tell me some facts about black holes."),
        t("22:00", C, "weekday_in", "What day's tomorrow? Is it the weekend yet?", n=1),
        t("22:15", TI, "set", "Remind me in {m} minutes to get off my phone. Lol.",
          m=ints(20, 40, 5), seconds=mins("m")),
        r("22:30", "Play rain sounds."),
        r("23:00", "Set an alarm for {#7} tomorrow. Actually, 6:45."),
        r("23:05", "Turn the big light off."),
    ],
    "grandparent": [
        t("06:30", C, "time_now", "Good morning, computer. Could you tell me the time, please?"),
        r("06:35", "Would you turn the heating up a little, dear? It's chilly."),
        r("06:40", "What's the weather forecast for today, please?"),
        t("06:45", TI, "set", "Computer, a timer for my boiled egg, please, {m} minutes.",
          m=ints(3, 6), seconds=mins("m")),
        r("07:00", "Could you put the news on, please?"),
        t("07:30", C, "date_today", "What's the date today, please? I've lost track."),
        t("07:35", C, "weekday_today", "Um, what day of the week is it, dear? Is it bin day?"),
        r("08:00", "Please ring my daughter Susan."),
        t("08:30", TI, "set", "Remind me in {m} minutes to take my tablets, please.",
          m=ints(20, 45, 5), seconds=mins("m")),
        r("09:00", "Could you read me the headlines from the paper?"),
        t("09:30", A, "mul", "My pension is £{a} a week. How much is that over {b} weeks?",
          a=ints(180, 240), b=one(4, 13)),
        r("10:00", "What time does the chemist on the High Street close?"),
        t("10:30", U, "conv", "The knitting pattern says {v} inches. What's that in "
          "centimetres, please?", v=ints(12, 30), frm="in", to="cm"),
        r("11:00", "Would you turn the television on for me, please?"),
        t("11:30", S, "spell", "How do you spell {word}? It's for my crossword.",
          word=one("Mississippi", "chrysanthemum", "rhododendron", "millennium")),
        t("12:00", FA, "capital", "What's the capital of {country}, dear? My grandson is going "
          "there.", country=country()),
        r("13:00", "Is my doctor's appointment on Tuesday? Check my diary, please."),
        r("13:30", "Play some Vera Lynn, please."),
        t("14:00", FU, "until_holiday", ("How many days is it until Christmas, dear?",
                                         "And New Year, how long until that?"),
          op1="until_holiday", holiday1="christmas", holiday="new year"),
        r("14:30", "Could you call the surgery for me?"),
        t("15:00", U, "conv", "How many stone is {v} kilograms? The nurse weighed me in kilos.",
          v=ints(55, 80), frm="kg", to="st"),
        r("15:30", "Turn the lamp on in the lounge, please."),
        t("16:00", TI, "cancel", ("Set a timer for {m} minutes for the cake, please.",
                                  "Oh, the cake's done already. Cancel the timer, please."),
          m=ints(20, 40, 5)),
        t("16:30", FA, "planet_at", "Which planet is {order:o} from the sun, dear? My "
          "great-grandson asked me.", order=ints(1, 8)),
        r("17:00", "What's on the telly tonight?"),
        t("17:30", C, "until_date", "How many days until {d:DM}? It's my grandson's "
          "birthday.", d=ahead(5, 200)),
        r("18:00", "Close the curtains in the front room, please."),
        r("19:00", "Tell me last night's lottery numbers, please."),
        t("20:00", FU, "conv", ("How many ounces is {v1} grams of flour?",
                                "And {v} grams of sugar?"),
          op1="conv", v1=ints(150, 450, 25), v=ints(100, 300, 25), frm="g", to="oz"),
        r("21:00", "Set an alarm for half past {#7} tomorrow morning, please."),
        t("22:00", C, "date_in", "What's the date {n} days from now? The chiropodist is coming "
          "then.", n=ints(7, 30)),
        r("22:05", "Goodnight, computer. Turn everything off, would you?"),
    ],
    "shift": [
        r("07:40", "Close the bedroom blinds. I'm off to bed."),
        r("07:42", "Play some white noise, the fan one."),
        t("07:45", TI, "set", "Set a timer for {a} hours, I'm going to sleep. Actually, um, "
          "{h} hours.", a=ints(5, 8), h=other("a", 5, 8), seconds=hrs("h")),
        r("07:46", "Turn on do not disturb mode."),
        t("07:47", C, "time_now", "What's the time? I need to know how much sleep I'll get."),
        r("15:10", "What did I miss on the news today?"),
        t("15:12", C, "date_today", "What's today's date? Shifts mess with my head."),
        t("15:15", C, "weekday_today", "What day is it? Seriously, I've lost track."),
        r("15:20", "Turn the heating on for an hour."),
        t("15:30", TI, "set", "Timer for {m} minutes, oven chips.",
          m=ints(15, 25), seconds=mins("m")),
        r("15:35", "What's the weather doing? Is it still raining?"),
        t("15:40", A, "add3", "I did {a} hours on Monday, {b} on Tuesday and {c} last night. "
          "What's the total?", a=ints(8, 12), b=ints(8, 12), c=ints(8, 12)),
        t("15:45", A, "mul", "Overtime's time and a half. What's £{a:m} times {b}?",
          a=one(F("11.50"), F("12.20"), F("12.60"), F("13.40"), F("14.10")), b=F("1.5")),
        t("16:00", FU, "conv", ("How many miles is {v1} kilometres?", "And {v}?"),
          op1="conv", v1=ints(12, 40), v=ints(12, 40), frm="km", to="mi"),
        r("16:10", "Order more coffee pods."),
        r("16:30", "Play the next episode on Netflix."),
        r("16:45", "Any news on the strike? Are the trains running tonight?"),
        t("17:00", TI, "set", "Remind me in {m} minutes to ring the surgery back.",
          m=ints(30, 50, 5), seconds=mins("m")),
        r("17:30", "Call the GP surgery for me."),
        t("17:35", U, "conv", "How many minutes is {v} hours?", v=halves(6, 11), frm="h",
          to="min"),
        t("18:00", TI, "left", ("Set a {minutes} minute timer for the pizza.",
                                "How long has it got left?"), minutes=ints(11, 16)),
        r("18:30", "Turn the TV off."),
        t("19:00", S, "spell", "How do you spell {word}? It's for my timesheet notes.",
          word=one("supervisor", "acknowledgement", "forklift", "inventory")),
        t("19:15", U, "conv", "What's {v} Fahrenheit in Celsius? The thermometer at work's "
          "American.", v=ints(60, 85), frm="f", to="c"),
        t("19:30", FU, "date_in", ("What's the date today?", "And what's the date in {n} days? "
                                   "That's my next day off."), op1="date_today", n=ints(3, 12)),
        t("20:00", C, "until_date", "How many days till {d:DM}? That's payday.",
          d=ahead(3, 30)),
        t("20:30", TI, "set", "Set a timer for {m} minutes, I need to leave for the bus.",
          m=ints(20, 40, 5), seconds=mins("m")),
        r("20:35", "What time's the next 42 bus?"),
        r("21:00", "Turn on the porch light."),
        r("21:15", "Arm the burglar alarm."),
        r("21:20", "Text my manager I'm running {#10} minutes late."),
        r("21:25", "Turn everything off downstairs."),
    ],
    "student": [
        r("09:30", "Play some jazz for studying."),
        t("09:32", C, "time_now", "Ugh, what time is it? Did I miss my lecture?"),
        r("09:35", "What's the weather in Leeds today?"),
        t("09:40", TI, "set", "Set a timer for {a} minutes for the porridge, no wait, {m}.",
          a=ints(2, 5), m=other("a", 2, 6), seconds=mins("m")),
        r("10:00", "Turn the lights off, I'm heading out."),
        r("11:00", "How much is a railcard?"),
        t("13:00", A, "off", "How much is £{a} with {b:p} off? Student discount.",
          a=ints(20, 90), b=one(10, 15, 20, 25)),
        r("13:05", "Is the library open on Sundays?"),
        t("13:30", FU, "chain", ("What's {a} divided by {b}?", "And times that by {c}."),
          f="div", g="mul", b=ints(3, 9), a=times("b", 12, 40), c=ints(3, 9)),
        t("14:00", S, "spell", "How do you spell {word}? Autocorrect's broken.",
          word=one("bureaucracy", "entrepreneur", "questionnaire", "pharmaceutical")),
        t("14:10", FA, "currency", "What's the currency in {country}? I'm going on exchange "
          "next term.", country=country()),
        t("14:15", FU, "spell", ("What's the capital of {country1}?", "How do you spell that?"),
          op1="capital", country1=country("spell"), word=capital_of("country1")),
        r("15:00", "Add pasta and tinned tomatoes to the shopping list."),
        t("15:30", U, "conv", "How many millilitres is {v} cups? It's an American recipe.",
          v=one(1, 2, 3, F("1.5"), F("2.5")), frm="cup", to="ml"),
        r("16:00", "Play the next episode of my podcast."),
        t("17:00", A, "div", "Rent's £{a} a month split between {b} of us. How much each?",
          b=ints(3, 5), a=times("b", 350, 600)),
        t("17:30", TI, "set", "Timer for {m} minutes, then I'm taking a break.",
          m=ints(25, 50, 5), seconds=mins("m")),
        r("18:00", "Send a message to the flat group chat: who took my milk?"),
        t("18:30", U, "conv", "How many grams is {v} ounces?", v=ints(2, 16), frm="oz", to="g"),
        t("18:45", FU, "set", ("Set a timer for {m1} minutes for the pasta.",
                               "And another one for the garlic bread, {m} minutes."),
          op1="set", m1=ints(9, 12), m=ints(6, 14), seconds1=mins("m1"), seconds=mins("m")),
        r("19:00", "What's the Wi-Fi password?"),
        r("19:30", "Volume up a bit."),
        t("20:00", FA, "planet_most", "Which planet's the smallest? It's for the pub quiz "
          "tonight.", which="smallest"),
        r("20:30", "What's the score in the Liverpool game?"),
        t("21:00", C, "until_holiday", "How many days till Christmas? I need to book my train "
          "home.", holiday="christmas"),
        r("21:30", "Book me a taxi for 11."),
        t("22:00", TI, "set", "Remind me in {m} minutes to take the washing out of the machine.",
          m=ints(30, 55, 5), seconds=mins("m")),
        r("22:30", "Skip. Next song."),
        r("23:00", "Set an alarm for {#8} tomorrow."),
        r("23:10", "Tell me about the French Revolution, I've got an essay due."),
        t("23:20", A, "pow", "What's {a} squared? Um, for my stats.", a=ints(13, 40), b=2),
        r("23:30", "Turn off the lights in my room."),
    ],
    "cook": [
        r("08:00", "Play some music. Something cheerful for cooking."),
        t("08:05", C, "time_now", "Hey speaker, what's the time? I need to get the lamb in."),
        t("08:10", U, "conv", "How many grams is {v} ounces of butter? Mum's recipe is all in "
          "ounces.", v=ints(3, 12), frm="oz", to="g"),
        r("08:15", "Turn the oven on, 180 fan."),
        t("08:20", U, "conv", "What's {v} Fahrenheit in Celsius? This one's an American recipe.",
          v=one(325, 350, 375, 400, 425), frm="f", to="c"),
        t("08:30", TI, "set", "Timer for {h} hours and {m} minutes, that's the lamb.",
          h=2, m=ints(10, 45, 5), seconds=mins("m", "h")),
        r("08:35", "Turn the extractor fan on."),
        t("08:40", FU, "conv", ("How many cups is {v1} millilitres?",
                                "What about {v} millilitres?"),
          op1="conv", v1=ints(200, 500, 50), v=ints(150, 600, 50), frm="ml", to="cup"),
        r("09:00", "Add double cream to the shopping list. No, single. Double."),
        t("09:10", FU, "set", ("Set a timer for {m1} minutes for the potatoes.",
                               "And one for the carrots, {m} minutes."),
          op1="set", m1=ints(20, 30), m=ints(8, 15), seconds1=mins("m1"), seconds=mins("m")),
        r("09:15", "How long do I roast potatoes for?"),
        t("09:20", TI, "set", "Set a timer for {a}, no, {m} minutes. The batter needs to rest.",
          a=ints(15, 20), m=other("a", 18, 25), seconds=mins("m")),
        r("09:30", "Can you text my sister and ask if she's bringing dessert?"),
        t("09:45", A, "mul", "I'm making {a} times the recipe and it says {b} grams of flour. "
          "How much do I need?", a=ints(2, 4), b=ints(150, 450, 25)),
        t("10:00", U, "conv", "What's {v} kilos in pounds? That's what the lamb weighs.",
          v=one(F("1.5"), 2, F("2.5"), 3, F("3.5")), frm="kg", to="lb"),
        r("10:15", "Pause the music, my hands are covered in flour."),
        t("10:20", TI, "left", ("Set a timer for {minutes} minutes for the gravy.",
                                "How long's left on the gravy?"), minutes=ints(11, 20)),
        r("10:30", "What's the weather doing this afternoon? Can we eat outside?"),
        t("10:45", FU, "conv", ("What's {v1} degrees Celsius in Fahrenheit?", "And {v}?"),
          op1="conv", v1=one(160, 170, 180, 190, 200, 220), v=one(150, 175, 200, 210, 230),
          frm="c", to="f"),
        r("11:00", "Turn the kitchen light on, it's dark in here."),
        t("11:15", TI, "set", "Remind me in {m} minutes to baste the lamb.",
          m=ints(20, 40, 5), seconds=mins("m")),
        r("11:30", "Call Dad and ask where they are."),
        t("11:45", TI, "cancel", ("Set a timer for {m} minutes for the stuffing.",
                                  "Cancel that, I've taken it out early."), m=ints(20, 35, 5)),
        t("12:00", FU, "set", ("Set a {m1} minute timer for the sprouts.",
                               "Actually, make that {m} minutes."),
          op1="set", m1=ints(6, 10), m=other("m1", 5, 12), seconds1=mins("m1"),
          seconds=mins("m")),
        r("12:15", "What wine goes with lamb?"),
        r("12:30", "Turn the music down, people are arriving."),
        r("13:30", "Put the dishwasher on, eco mode."),
        t("13:45", U, "conv", "How many centimetres is a {v} inch cake tin?",
          v=one(7, 8, 9, 10, 12), frm="in", to="cm"),
        t("14:00", TI, "set", "Set a timer for {m} minutes for the crumble. Can someone lay the "
          "table, please?",
          m=ints(25, 40, 5), seconds=mins("m")),
        r("14:30", "Tell everyone upstairs dinner's ready. Announce it."),
        r("15:00", "Turn the oven off."),
        r("16:00", "How many calories are in a roast dinner?"),
    ],
    "remote": [
        r("07:30", "What meetings have I got this morning?"),
        t("07:35", C, "weekday_today", "Morning. What day is it? The weeks all blur together."),
        r("07:40", "Turn on the coffee machine."),
        r("08:00", "Read me my emails."),
        t("08:30", TI, "set", "Set a timer for {m} minutes so I'm not late for stand-up.",
          m=ints(11, 25), seconds=mins("m")),
        r("09:00", "Set the thermostat to 20."),
        t("09:30", A, "pct", "What's {a:p} of £{b}? That's the VAT on this invoice.",
          a=20, b=ints(120, 950, 5)),
        t("09:45", A, "add3", "What's {a} plus {b} plus {c}? I'm adding up my hours.",
          a=HOURS, b=HOURS, c=HOURS),
        t("10:00", C, "time_now", "Quick, what's the time?"),
        r("10:30", "Mute the microphone on my laptop."),
        t("11:00", FU, "conv", ("How far is {v1} miles in kilometres?", "And {v}?"),
          op1="conv", v1=ints(12, 60), v=ints(12, 60), frm="mi", to="km"),
        r("11:30", "What's the exchange rate from dollars to euros?"),
        t("12:00", TI, "set", "Remind me in {m} minutes to eat lunch, I always forget.",
          m=ints(15, 45, 5), seconds=mins("m")),
        r("12:30", "Order a pizza from the usual place."),
        t("13:00", U, "conv", "How many hours is {v} minutes?", v=ints(90, 330, 15), frm="min",
          to="h"),
        t("13:30", S, "spell", "How do you spell {word}? I'm writing an email.",
          word=one("accommodation", "colleague", "liaise", "occasionally", "receive")),
        r("14:00", "Play some focus music."),
        t("14:30", FA, "language", "What language do they speak in {country}? Client call "
          "tomorrow.", country=country("language")),
        t("15:00", C, "until_date", "How many days until {d:DM}? That's the project "
          "deadline.", d=ahead(10, 90)),
        t("15:30", FU, "chain", ("What's {a} times {b}?", "Now divide that by {c}."),
          f="mul", g="div", a=ints(12, 48), b=ints(3, 9), c=ints(2, 6)),
        r("16:00", "Switch the desk fan on."),
        t("16:30", TI, "cancel", ("Set a timer for {m} minutes.",
                                  "Oh, never mind, the call got moved. Cancel it."),
          m=ints(11, 30)),
        t("17:00", C, "date_in", "What's the date {n} days from today? Invoice terms.",
          n=one(14, 21, 28, 30)),
        t("17:30", A, "mul", "If I bill {a} hours at £{b} an hour, what's that come to?",
          a=ints(6, 40), b=ints(35, 90, 5)),
        r("18:00", "What's the traffic like on the way to the gym?"),
        r("18:30", "Turn off the office lights."),
        t("19:00", U, "conv", "What's {v} kilometres per hour in miles per hour? I'm looking at "
          "e-bikes.", v=one(20, 25, 32, 45), frm="kmh", to="mph"),
        r("19:30", "Any breaking news?"),
        r("20:00", "Put the football on the TV."),
        r("21:00", "Remind me tomorrow at {#9} to send the invoice."),
        r("22:00", "Set the heating to come on at {#6} in the morning."),
        r("22:30", "Dim the living room lights to 30%."),
    ],
    "child": [
        r("07:00", "Play the Minecraft song!"),
        r("07:02", "Turn the lights blue! No, green!"),
        t("07:05", FA, "planet_most", "Is Saturn the biggest planet? Which one's the biggest?",
          which="largest"),
        r("07:10", "What's the weather? Can I wear shorts today?"),
        t("07:15", S, "spell", "How do you spell {word}?", word=CHILD_WORDS),
        t("07:20", C, "weekday_today", "Is it a school day? What day is it?"),
        r("07:25", "Make a fart noise!"),
        r("07:30", "Call Daddy's phone."),
        r("15:45", "Put Bluey on the TV."),
        r("15:50", "Play Baby Shark. Louder!"),
        t("16:00", A, "add", "What's {a} plus {b}? It's my homework.", a=ints(11, 60),
          b=ints(11, 40)),
        t("16:05", S, "spell", "Mum said I have to learn {word}. How do you spell it?",
          word=CHILD_WORDS),
        t("16:10", FA, "capital", "What's the biggest city, no, the capital of {country}?",
          country=country()),
        r("16:15", "Why is the sky blue?"),
        t("16:20", TI, "set", "Mum says I have to read for {m} minutes. Set a timer.",
          m=ints(15, 20), seconds=mins("m")),
        t("16:30", FU, "planet_at", ("Which planet is {order1:o} from the sun?",
                                     "And the one after that?"),
          op1="planet_at", order1=ints(1, 7), order=plus("order1", 1)),
        t("16:45", S, "spell", "Spell {word}! I bet you can't.", word=CHILD_WORDS),
        r("16:50", "What's the biggest dinosaur ever?"),
        t("17:00", FA, "continent", "What continent is {country} in? We're doing a project.",
          country=country("continent")),
        r("17:15", "Tell me a story about a dragon."),
        t("17:30", C, "until_date", "How many sleeps until my birthday? It's on {d:DM}.",
          d=ahead(10, 300)),
        t("17:45", U, "conv", "A T-Rex was {v} metres long. How many feet is that?",
          v=ints(11, 13), frm="m", to="ft"),
        r("17:50", "Order me a Lego Star Wars set."),
        t("18:00", FU, "spell", ("How do you spell {word1}?", "Now spell {word}."),
          op1="spell", word1=one(*ANIMALS), word=one(*ANIMALS)),
        r("18:15", "Is it going to snow tomorrow?"),
        t("18:30", TI, "set", "Can I have {m} more minutes on my tablet? Set a timer!",
          m=ints(5, 10), seconds=mins("m")),
        r("18:45", "What's for tea tonight?"),
        t("19:00", S, "spell", "How do you spell {word}? It's in my reading book.",
          word=CHILD_WORDS),
        r("19:05", "Turn off the big light, I want the night light."),
        t("19:15", FA, "planet_order", "What number is {planet} from the sun?",
          planet=one(*PLANETS)),
        r("19:20", "Set an alarm for {#7} so I'm up for football."),
        r("19:30", "Play the sleepy music, please."),
    ],
}  # fmt: skip


# --- rendering ----------------------------------------------------------------------------------
def _digits(q: F | int, commas: bool) -> str:
    """A number in digits: "1,250" (with commas), "2.5", "84.6"."""
    q = F(q)
    places = next(p for p in range(7) if (q * 10**p).denominator == 1)
    whole, frac = divmod(int(q * 10**places), 10**places)
    head = f"{whole:,}" if commas else str(whole)
    return head + (f".{str(frac).rjust(places, '0')}" if places else "")


class _Say(string.Formatter):
    """Values as each channel writes them; ``{#7}`` is the number 7."""

    def __init__(self, channel: str) -> None:
        self.spoken = channel == "spoken"

    def get_field(self, field_name, args, kwargs):
        if field_name.startswith("#"):
            return F(field_name[1:]), field_name
        return super().get_field(field_name, args, kwargs)

    def format_field(self, v, spec: str) -> str:
        sp = self.spoken
        if isinstance(v, date):  # spec "DM"
            m = MONTHS[v.month - 1]
            return f"the {nth(v.day)} of {m}" if sp else f"{v.day} {m}"
        if isinstance(v, str):
            return SAID_AS.get(v, v)
        if spec == "p":
            return _digits(v, False) + "%"
        if spec == "m":
            q = F(v)
            whole, cents = divmod(int(q * 100), 100)
            return str(whole) if q.denominator == 1 else f"{whole}.{cents:02d}"
        if spec == "o":
            return ordinal_words(v) if sp and v <= 10 else nth(v)
        if sp and F(v).denominator == 1 and 0 <= v <= 10:
            return int_words(int(v))
        return _digits(v, sp)


def render(text: str, vals: dict, channel: str) -> str:
    out = _Say(channel).format(text, **vals)
    if channel == "spoken":
        return out[0].upper() + out[1:]
    return out.lower().replace("?", "").replace("!", "").rstrip(". ")


# --- guards -------------------------------------------------------------------------------------
NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


def said_back(text: str) -> str:
    """The text's numbers in words, as a reply repeating them would say them: "the 14th" →
    "fourteen fourteenth"."""
    out = []
    for m in NUM.finditer(text):
        q = F(m.group().rstrip(",").replace(",", ""))
        out.append(said(q))
        if q.denominator == 1 and q < 100:
            out.append(ordinal_words(int(q)))
    return " ".join(out)


def repeats(expect: tuple[str, ...], turns: tuple[str, ...]) -> bool:
    """Whether an expected answer is in a turn's text or among its numbers said back."""
    heard = [_norm(x) for turn in turns for x in (turn, said_back(turn))]
    return any(_norm(e) in h for e in expect for h in heard)


# --- the builder --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    """A request with where it came from: its home, the log's time, its channel and the calc of
    its answer (``first`` for a follow-up's first turn)."""

    request: Request
    home: str
    at: str
    channel: str
    calc: dict


UNIQUE_KEYS = ("word", "word1", "country", "country1", "planet", "order", "order1")
TIMER_OPS = ("set", "left", "cancel")


def _draw(tpl: T, ctx: Ctx) -> dict:
    vals: dict = {}
    for k, spec in tpl.draws.items():
        vals[k] = spec(ctx, vals) if callable(spec) else spec
    return vals


def _first(tpl: T, vals: dict) -> dict | None:
    if tpl.kind != "follow-up":
        return None
    if tpl.op == "chain":
        return {"op": vals["f"], "a": vals["a"], "b": vals["b"]}
    firsts = {**vals, **{k[:-1]: v for k, v in vals.items() if k.endswith("1")}}
    return calc_of(tpl.op1, firsts)


def _make(tpl: T, home: str, channel: str, ctx: Ctx, now: datetime, used: set,
          said_turns: set) -> Built:  # fmt: skip
    for _ in range(2000):
        vals = _draw(tpl, ctx)
        if any(vals[k] in used for k in UNIQUE_KEYS if k in vals):
            continue
        if "word1" in vals and vals["word1"] == vals.get("word"):
            continue
        calc = calc_of(tpl.op, vals)
        expect = answer(calc, now)
        v = value(calc)
        if v is not None and v < 1:
            continue
        turns = tuple(render(x, vals, channel) for x in tpl.turns)
        if turns in said_turns or (tpl.op != "set" and repeats(expect, turns)):
            continue
        first = _first(tpl, vals)
        if first is not None:
            fv = value(first)
            if fv is not None and fv < 1:
                continue
            before = " | ".join(_norm(e) for e in answer(first, now))
            if any(_norm(e) in before for e in expect):
                continue
            same_country = "country" in calc and first.get("country") == calc["country"]
            if same_country and not unique(calc["op"], calc["country"]):
                continue
            calc["first"] = first
        used.update(vals[k] for k in UNIQUE_KEYS if k in vals)
        said_turns.add(turns)
        timers = tpl.op in TIMER_OPS or (first or {}).get("op") in TIMER_OPS
        return Built(Request(turns, tpl.kind, expect, CLEAR if timers else ()), home, tpl.at,
                     channel, calc)  # fmt: skip
    raise ValueError(f"no draw of {tpl.turns} passes the guards")


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """The set with each request's home, time, channel and calc, in each home's log order: the
    same ``seed`` and ``now`` give the same records; clock answers are for ``now`` (default: the
    real clock)."""
    now = now or datetime.now()
    rng = random.Random(seed)
    ctx = Ctx(rng, now.date())
    slots = [(home, tpl) for home, day in LOGS.items() for tpl in day]
    channel: dict[int, str] = {}
    for kind in KINDS:  # half of each kind's requests typed, half spoken
        mine = [i for i, (_, tpl) in enumerate(slots) if tpl.kind == kind]
        ways = list(CHANNELS) * (len(mine) // 2) + list(CHANNELS[: len(mine) % 2])
        rng.shuffle(ways)
        channel.update(zip(mine, ways, strict=True))
    used: dict[str, set] = {k: set() for k in KINDS}
    said_turns: set = set()
    return [_make(tpl, home, channel[i], ctx, now, used[tpl.kind], said_turns)
            for i, (home, tpl) in enumerate(slots)]  # fmt: skip


def logs(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The logs set (see the module's docstring): 256 requests, eight homes' days in order."""
    return [b.request for b in built(seed, now)]


if __name__ == "__main__":
    for b in built():
        print(f"{b.home:<11} {b.at} {b.channel:<6} {b.request.kind:<10} "
              f"{' / '.join(b.request.turns)} → {b.request.expect}")  # fmt: skip
