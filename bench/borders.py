"""Borders set for ``bench/skills.py --requests borders``: 256 held-out requests at the border of
what the assistant can do.

**The generator: lookalikes on both sides of the border.** Every request borrows the words of
the other side. Half are *refusals* (``kind == "refusal"``): everyday things people say to a
voice assistant whose words overlap with the tools' words (a number and a unit, a length of
time, a country, a planet, "add", "spell", "timer", "how many days") but which need something
the assistant does not have: a device to control, the internet, a calendar or an alarm clock,
or general knowledge beyond its country and planet tables. "Preheat the oven to 180 degrees",
"turn off the kitchen lights in 20 minutes", "add 6 apples and 4 bananas to my basket", "how
many minutes is a rugby match", "what's the gravity like on Mars", "what time is it in Tokyo
right now". They come from sixteen domains (``DOMAINS``), eight from each: smart home, media,
messaging and calls, shopping, calendar and alarms, navigation and travel, cooking, health,
sport, history, science, online look-ups (weather, news, prices, exchange rates), countries
beyond the table (population, leaders, dialling codes), words and languages (meanings,
translation, rhymes), small talk and opinions, and games and chance. A few are the second turn
of a conversation whose first turn the assistant can answer ("what's the capital of Peru" →
"and what's the weather like there").

The other half are real tool requests of the seven in-scope kinds (``KINDS``), each dressed in
one of those sixteen domains so that it sounds like something to refuse: a timer named after a
device ("a 25 minute timer for the washing machine"), a reminder to make a call, a sum inside a
shopping story, a percentage for a tip, a conversion inside a recipe or a speed-limit sign, the
date needed for a cheque, the spelling of a word that is also a device or a song ("I don't
want the song, just spell yesterday"), a country fact asked by a traveller who says it is not
after the exchange rate, "is Pluto still a planet". The follow-ups refer to the first turn
("double that", "what about Chile", "can you spell that", "and the one after that"), and four of
them begin with a request to refuse and then ask for what the assistant can do with its numbers
("turn the heating up to 22 degrees" → "fine, then just tell me what that is in Fahrenheit").
Counts: 128 refusals; clock 18, timers 18, arithmetic 19, units 19, spelling 18, facts 18,
follow-ups 18. Every sentence is written once for its domain; only its values are drawn.

How it differs from the earlier sets: a set of plain tool requests ("set a timer for ten
minutes", "what's 17 times 23") asks whether the assistant can use its tools, and a set of
plain off-topic refusals ("who won the world cup") whether it declines what is obviously
elsewhere; here neither the words nor the numbers tell the two apart, so a model that routes on
surface cues (a unit means a conversion, a length of time means a timer, a country means a
fact) fails one side or the other. The earlier held-out sets varied the speaker, the setting,
the syntax or the text being read; this one varies which side of the border a sentence is on
while keeping its vocabulary the same.

**Values.** A seeded :class:`random.Random` draws only the values: numbers, lengths of time,
temperatures, dates, countries, planets and words to spell, from ranges written beside each
sentence. Countries, planets and words are not repeated within a kind, no two requests share
their text, and the same ``seed`` and ``now`` give the same set.

**Channels** (``CHANNELS``), half of each in-scope kind and half of each refusal domain, drawn
by the seed:

- ``typed``: lower case, digits for every number, no question marks;
- ``spoken``: as Whisper writes speech: a capital at the start, punctuation, numbers up to ten
  in words and larger ones in digits with thousands commas, "%", "the 14th of June, 2027".

**Checks.** Refusals expect nothing (``expect == ()``): a short honest refusal is useful. Every
other expected answer is worked out here and recorded (``built()`` gives each request's
``calc``) so that ``tests/test_borders.py`` can work it out again with separate code:

- arithmetic with :class:`fractions.Fraction` and conversions from the exact unit definitions of
  ``bench/everyday.py`` (plus seconds, minutes, hours, days and weeks), said as the assistant
  says numbers (``number()``: exact up to two decimals, otherwise about three significant
  figures or one decimal fewer; results under one are not drawn);
- the calendar with :mod:`datetime` from ``now`` (default: the real clock): the hour (this
  hour's or the next one's), today's date and weekday, the weekday of a date, the date N days
  ahead, days until a date or a holiday;
- timers and reminders: the length in words; "how long is left" accepts M minutes or M-1
  minute; a cancelled one "cancelled". Each is followed, unscored, by "cancel all my timers";
- spelling: the letters (``letters()``);
- facts from this module's own table (``COUNTRIES``: capital, currency, language, continent of
  30 countries, with the other accepted forms: "the euro"/"euros", either official language
  of Canada) and the planets (order, largest, smallest, hottest, the moons of the four inner
  planets, whose counts do not change). Three yes-or-no questions ("is the Moon a planet",
  "is Pluto a planet", "is the Sun a planet") accept the right answer ("not a planet", "dwarf
  planet", "a star") or an honest refusal, and reject a wrong fact ("yes, it is").

Guards, redrawn until they hold: no expected answer is in any turn's text or among its numbers
said back in words; a follow-up's answer is not the first turn's; a follow-up asking another
fact of the same country draws a country whose answer no other country shares.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction as F

from bench.everyday import (
    CLEAR,
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
    STONE,
    YARD,
    c_to_f,
    duration,
    f_to_c,
    letters,
    number,
)
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from bench.sources import Ctx, ahead, decs, ints, one, render, repeats, square
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CHANNELS = ("typed", "spoken")
DOMAINS = {
    "home": "smart home: heating, lights, oven, fridge, fan, dishwasher, locks",
    "media": "music, radio, podcasts, films, volume",
    "messaging": "texts, calls, e-mail, voicemail, video calls",
    "shopping": "shopping lists, orders, baskets, prices in shops",
    "calendar": "calendars, meetings, alarms and wake-ups at a clock time",
    "travel": "directions, traffic, trains, flights, taxis, distances between places",
    "cooking": "recipes, cooking times, food safety, quantities",
    "health": "doses, fevers, calories, weight, heart rate",
    "sport": "scores, fixtures, rules, athletes, laps",
    "history": "dates of events, rulers, how long things lasted",
    "science": "physics, chemistry, biology, space beyond the planet table",
    "online": "weather, news, live prices, exchange rates",
    "countries": "countries beyond the table: population, leaders, flags, time zones",
    "words": "meanings, translation, rhymes, grammar",
    "talk": "small talk, opinions, jokes, stories, songs",
    "games": "dice, coins, cards, random picks, word games",
}

# --- facts: this module's own table -----------------------------------------------------------
EURO = ("the euro", "euros")
PESO = ("peso",)
EUROPE, ASIA, AFRICA = ("Europe",), ("Asia",), ("Africa",)
NORTH, SOUTH = ("North America",), ("South America",)
SPANISH, PORTUGUESE, GERMAN, ENGLISH = ("Spanish",), ("Portuguese",), ("German",), ("English",)


@dataclass(frozen=True)
class Country:
    capital: tuple[str, ...]  # the first is the name; the rest are other accepted spellings
    currency: tuple[str, ...]
    language: tuple[str, ...]
    continent: tuple[str, ...]


COUNTRIES = {
    "France": Country(("Paris",), EURO, ("French",), EUROPE),
    "Germany": Country(("Berlin",), EURO, GERMAN, EUROPE),
    "Japan": Country(("Tokyo",), ("yen",), ("Japanese",), ASIA),
    "Italy": Country(("Rome",), EURO, ("Italian",), EUROPE),
    "Spain": Country(("Madrid",), EURO, SPANISH, EUROPE),
    "Brazil": Country(("Brasília", "Brasilia"), ("the real", "Brazilian real", "reais"),
                      PORTUGUESE, SOUTH),
    "Canada": Country(("Ottawa",), ("dollar",), ("English", "French"), NORTH),
    "Australia": Country(("Canberra",), ("dollar",), ENGLISH, ("Oceania", "Australia")),
    "India": Country(("New Delhi", "Delhi"), ("rupee",), ("Hindi", "English"), ASIA),
    "Mexico": Country(("Mexico City",), PESO, SPANISH, NORTH),
    "Egypt": Country(("Cairo",), ("pound",), ("Arabic",), AFRICA),
    "Kenya": Country(("Nairobi",), ("shilling",), ("Swahili", "English"), AFRICA),
    "Norway": Country(("Oslo",), ("krone", "kroner"), ("Norwegian",), EUROPE),
    "Sweden": Country(("Stockholm",), ("krona", "kronor"), ("Swedish",), EUROPE),
    "Poland": Country(("Warsaw",), ("zloty", "złoty"), ("Polish",), EUROPE),
    "Argentina": Country(("Buenos Aires",), PESO, SPANISH, SOUTH),
    "Chile": Country(("Santiago",), PESO, SPANISH, SOUTH),
    "Peru": Country(("Lima",), ("Peruvian sol", "the sol", "soles"), SPANISH, SOUTH),
    "Turkey": Country(("Ankara",), ("lira",), ("Turkish",), ("Asia", "Europe")),
    "Greece": Country(("Athens",), EURO, ("Greek",), EUROPE),
    "Portugal": Country(("Lisbon",), EURO, PORTUGUESE, EUROPE),
    "Ireland": Country(("Dublin",), EURO, ("English", "Irish"), EUROPE),
    "Thailand": Country(("Bangkok",), ("baht",), ("Thai",), ASIA),
    "Vietnam": Country(("Hanoi",), ("dong",), ("Vietnamese",), ASIA),
    "Nigeria": Country(("Abuja",), ("naira",), ENGLISH, AFRICA),
    "Morocco": Country(("Rabat",), ("dirham",), ("Arabic", "Berber", "Tamazight"), AFRICA),
    "Netherlands": Country(("Amsterdam",), EURO, ("Dutch",), EUROPE),
    "Switzerland": Country(("Bern", "Berne"), ("franc",), ("German", "French", "Italian"),
                           EUROPE),
    "Austria": Country(("Vienna",), EURO, GERMAN, EUROPE),
    "Indonesia": Country(("Jakarta",), ("rupiah",), ("Indonesian", "Bahasa"), ASIA),
}  # fmt: skip
SAID_AS = {"Netherlands": "the Netherlands"}
FACTS = ("capital", "currency", "language", "continent")

PLANETS = ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune")
MOST = {"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}
NONE = ("no moons", "no moon", "none", "zero", "doesn't have any", "does not have any")
# The inner planets only: the giants' counts keep growing as moons are found.
MOONS = {"Mercury": NONE, "Venus": NONE, "Mars": ("two",),
         "Earth": ("one moon", "one natural", "just one", "only one", "a single")}  # fmt: skip
# Yes-or-no questions at the edge of the planet table: the right answer or an honest refusal.
HONEST = ("sorry", "can't", "cannot", "don't know", "not able", "unable")
JUDGE = {
    "moon": ("not a planet", "isn't a planet", "satellite", "is a moon", "it's a moon",
             "orbits the earth", "orbits earth"),
    "pluto": ("dwarf planet", "not a planet", "isn't a planet", "no longer"),
    "sun": ("a star", "not a planet", "isn't a planet"),
}  # fmt: skip


def fact(attr: str, name: str) -> tuple[str, ...]:
    return getattr(COUNTRIES[name], attr)


def unique(attr: str, name: str) -> bool:
    """No other country's fact holds one of this one's answers."""
    return not any(_norm(e) in _norm(" | ".join(fact(attr, n)))
                   for n in COUNTRIES if n != name for e in fact(attr, name))  # fmt: skip


# --- units: exact definitions (metre, kilogram, litre, metre per second, second) --------------
UNITS = {
    "in": ("length", INCH), "ft": ("length", FOOT), "yd": ("length", YARD),
    "mi": ("length", MILE), "km": ("length", KM), "m": ("length", F(1)),
    "cm": ("length", F(1, 100)), "lb": ("weight", POUND), "oz": ("weight", OUNCE),
    "st": ("weight", STONE), "g": ("weight", GRAM), "kg": ("weight", F(1)),
    "gal": ("volume", GALLON), "floz": ("volume", FL_OZ), "cup": ("volume", CUP),
    "ml": ("volume", ML), "l": ("volume", F(1)),
    "kmh": ("speed", KMH), "mph": ("speed", MPH), "knot": ("speed", KNOT),
    "s": ("time", F(1)), "min": ("time", F(60)), "h": ("time", F(3600)),
    "day": ("time", F(86400)), "week": ("time", F(604800)),
}  # fmt: skip
HOLIDAYS = {"christmas": (12, 25), "halloween": (10, 31), "new year": (1, 1),
            "valentine's day": (2, 14)}  # fmt: skip

BINARY: dict[str, Callable[[F, F], F]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a ** int(b),
    "pct": lambda p, x: p * x / 100,  # p% of x
    "with_pct": lambda x, p: x * (100 + p) / 100,  # x plus p%
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
        (dim, a), (dim_to, b) = UNITS[frm], UNITS[to]
        assert dim == dim_to, calc
        return v * a / b
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
    if op == "weekday_of":
        return (WEEKDAYS[calc["date"].weekday()],)
    if op == "date_in":
        return _on(today + timedelta(days=calc["n"]))
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
    if op == "spell_capital":
        return (letters(fact("capital", calc["country"])[0]),)
    if op in FACTS:
        return fact(op, calc["country"])
    if op == "planet_at":
        return (PLANETS[calc["order"] - 1],)
    if op == "planet_order":
        return (ordinal_words(PLANETS.index(calc["planet"]) + 1),)
    if op == "planet_most":
        return (MOST[calc["which"]],)
    if op == "moons":
        return MOONS[calc["planet"]]
    if op == "judge":
        return JUDGE[calc["what"]] + HONEST
    if op == "refusal":
        return ()
    raise ValueError(f"unknown calc {calc}")


ARGS = {
    "add": "ab", "sub": "ab", "mul": "ab", "div": "ab", "pow": "ab", "pct": "ab",
    "with_pct": "ab", "off": "ab", "add3": "abc", "sqrt": "a",
    "chain": ("f", "a", "b", "g", "c"), "conv": ("v", "frm", "to"),
    "weekday_of": ("date",), "date_in": ("n",), "until_holiday": ("holiday",),
    "spell": ("word",), "spell_capital": ("country",), "capital": ("country",),
    "currency": ("country",), "language": ("country",), "continent": ("country",),
    "planet_at": ("order",), "planet_order": ("planet",), "planet_most": ("which",),
    "moons": ("planet",), "judge": ("what",),
}  # fmt: skip


def calc_of(op: str, vals: dict) -> dict:
    calc: dict = {"op": op}
    if op == "until_date":
        calc |= {"month": vals["date"].month, "day": vals["date"].day}
    elif op == "set":
        calc["seconds"] = (vals["m"] * 60 if "m" in vals else vals["s"] if "s" in vals
                           else vals["len"][1])  # fmt: skip
    elif op in ("left", "cancel"):
        calc["minutes"] = vals["m"]
    else:
        calc |= {k: vals[k] for k in ARGS.get(op, ())}
    return calc


# --- templates --------------------------------------------------------------------------------
@dataclass(frozen=True)
class T:
    """One sentence (or conversation) written for one domain: its kind, the operation its
    answer comes from, and where each value is drawn from. A follow-up's first-turn values end
    in "1"; ``op1`` is the first turn's operation when it differs from the last's."""

    kind: str
    domain: str
    op: str
    turns: tuple[str, ...]
    draws: dict = field(default_factory=dict)
    op1: str = ""


def t(kind: str, domain: str, op: str, turns: str | tuple[str, ...], op1: str = "",
      **draws) -> T:  # fmt: skip
    return T(kind, domain, op, (turns,) if isinstance(turns, str) else turns, draws, op1)


def country(unique_in: str = "", single_word_capital: bool = False) -> Callable:
    names = [n for n in COUNTRIES if (not unique_in or unique(unique_in, n))
             and not (single_word_capital and not fact("capital", n)[0].isascii())
             and not (single_word_capital and " " in fact("capital", n)[0])]  # fmt: skip
    return lambda c, v: c.rng.choice(names)


def other(key: str, pool: tuple | list | dict) -> Callable:
    """One of ``pool`` that is not the earlier value ``key``."""
    return lambda c, v: c.rng.choice([x for x in pool if x != v[key]])


def near(key: str, lo: int, hi: int) -> Callable:
    return lambda c, v: v[key] + c.rng.choice([d for d in range(lo, hi + 1) if d])


def times(key: str, lo: int, hi: int) -> Callable:
    """A multiple of an earlier value (so a division comes out whole)."""
    return lambda c, v: v[key] * c.rng.randint(lo, hi)


def topping(lo: int, hi: int) -> Callable:
    """A second amount that makes ``a + b`` a multiple of ``c``."""
    return lambda c, v: c.rng.choice([b for b in range(lo, hi + 1) if (v["a"] + b) % v["c"] == 0])


def clock(c: Ctx, v: dict) -> tuple[int, int]:
    return (c.rng.randint(5, 9), c.rng.choice((0, 15, 30, 45)))


COUNTRY = country()
CAPITAL = one(*(x.capital[0] for x in COUNTRIES.values()))
PLANET = one(*PLANETS)
LENGTHS = (("half an hour", 1800), ("a quarter of an hour", 900),
           ("an hour and a half", 5400), ("three quarters of an hour", 2700))  # fmt: skip
MINUTES = ints(11, 59)
DEVICES = ("microwave", "dishwasher", "kettle", "toaster", "blender", "freezer")

CLOCK = [
    t("clock", "sport", "time_now", "What time is it? I don't want to miss the kick-off."),
    t("clock", "media", "time_now", "What's the time right now? My programme is on tonight."),
    t("clock", "cooking", "time_now", "Tell me the time, I put the roast in and lost track."),
    t("clock", "health", "date_today", "What's today's date? The form at the surgery asks."),
    t("clock", "messaging", "date_today", "I'm writing to the bank, what's the date today?"),
    t("clock", "home", "weekday_today",
      "What day of the week is it? I need to know if the recycling goes out."),
    t("clock", "talk", "weekday_today", "Honestly, what day is it today? This week feels endless."),
    t("clock", "shopping", "until_holiday",
      "How many days are there till Christmas? I still have to order the presents.",
      holiday="christmas"),
    t("clock", "games", "until_holiday",
      "How long is it until Halloween? The kids keep asking about costumes.",
      holiday="halloween"),
    t("clock", "calendar", "until_holiday",
      "How many days until New Year's Day? We're planning a party.", holiday="new year"),
    t("clock", "travel", "until_holiday",
      "Count the days to Valentine's Day for me, I need to book a table somewhere.",
      holiday="valentine's day"),
    t("clock", "media", "weekday_of", "What day of the week is {date:DMY}? That's the concert.",
      date=ahead(30, 600)),
    t("clock", "history", "weekday_of",
      "Which day of the week will {date:DMY} fall on? We're booking the wedding venue.",
      date=ahead(30, 600)),
    t("clock", "shopping", "date_in",
      "What's the date {n} days from today? The parcel is due then.", n=ints(3, 40)),
    t("clock", "health", "date_in",
      "My prescription runs out in {n} days, what date will that be?", n=ints(5, 60)),
    t("clock", "travel", "until_date", "How many days until {date:DM}? That's my flight to Lisbon.",
      date=ahead(10, 300)),
    t("clock", "sport", "until_date",
      "How many days from today is {date:DM}, the day of the final?", date=ahead(10, 300)),
    t("clock", "calendar", "until_date",
      "Don't put it in my calendar, just tell me how many days until {date:DM}.",
      date=ahead(10, 300)),
]  # fmt: skip

TIMERS = [
    t("timer", "home", "set", "Set a timer called lights out for {m} minutes.", m=MINUTES),
    t("timer", "home", "set", "Start a {m} minute timer for the washing machine.", m=MINUTES),
    t("timer", "media", "set",
      "Put a {m} minute timer on, I'm listening to one album and then bed.", m=MINUTES),
    t("timer", "messaging", "set", "Remind me in {m} minutes to call Mum back.", m=MINUTES),
    t("timer", "messaging", "set", "In {m} minutes, remind me to text Sam the address.",
      m=MINUTES),
    t("timer", "shopping", "set", "Remind me to order the groceries in {len[0]}.",
      len=one(*LENGTHS)),
    t("timer", "health", "set", "Remind me to take my tablets in {len[0]}.", len=one(*LENGTHS)),
    t("timer", "sport", "set", "Give me a {s} second timer for the plank.", s=ints(70, 170, 5)),
    t("timer", "games", "set", "We're playing charades, set a timer for {m} minutes.", m=MINUTES),
    t("timer", "travel", "set", "Start a timer for {len[0]}, that's how long the parking lasts.",
      len=one(*LENGTHS)),
    t("timer", "home", "set", "Set a {m} minute timer for the heating, I'll switch it off myself.",
      m=MINUTES),
    t("timer", "calendar", "set", "Not an alarm, just a timer: {m} minutes.", m=MINUTES),
    t("timer", "cooking", "set", "Remind me in {len[0]} to take the bread out.",
      len=one(*LENGTHS)),
    t("timer", "calendar", "set",
      "I don't need a calendar entry, just remind me in {m} minutes about the meeting.",
      m=MINUTES),
    t("timer", "home", "left", ("Set a timer for {m} minutes for the oven.",
                                "How long is left on the oven timer?"), m=MINUTES),
    t("timer", "media", "left", ("Start a {m} minute timer for the film break.",
                                 "How much time is left on it?"), m=MINUTES),
    t("timer", "home", "cancel", ("Set a {m} minute timer for the dishwasher.",
                                  "Cancel the dishwasher timer."), m=MINUTES),
    t("timer", "messaging", "cancel", ("Remind me in {m} minutes to ring the garage.",
                                       "Actually, cancel that reminder."), m=MINUTES),
]  # fmt: skip

ARITHMETIC = [
    t("arithmetic", "shopping", "add", "Add {a} and {b}. Not to a list, I mean the sum.",
      a=ints(12, 99), b=ints(12, 99)),
    t("arithmetic", "shopping", "add3",
      "I've got {a} apples, {b} pears and {c} oranges in the basket, how many is that?",
      a=ints(3, 15), b=ints(3, 15), c=ints(3, 15)),
    t("arithmetic", "cooking", "pct", "What's {a:p} of {b} for the tip?",
      a=one(10, 15, 20), b=ints(24, 120, 4)),
    t("arithmetic", "shopping", "off", "The coat is {a} and there's {b:p} off, what do I pay?",
      a=ints(40, 200, 10), b=ints(10, 50, 5)),
    t("arithmetic", "cooking", "div",
      "I made {a} cupcakes for {b} children, how many does each one get?",
      b=ints(3, 9), a=times("b", 2, 6)),
    t("arithmetic", "sport", "mul", "{a} laps of {b} metres, how many metres is that altogether?",
      a=ints(4, 20), b=one(200, 400, 250)),
    t("arithmetic", "online", "sub", "I had {a} pounds and spent {b}, how much is left?",
      a=ints(60, 200), b=ints(12, 55)),
    t("arithmetic", "games", "pow", "What's {a} to the power of {b}? It's a pub quiz question.",
      a=ints(2, 9), b=ints(3, 4)),
    t("arithmetic", "science", "sqrt", "What's the square root of {a}? It's for physics homework.",
      a=square(11, 30)),
    t("arithmetic", "home", "mul",
      "The heater uses {a} watts for {b} hours, how many watt hours is that?",
      a=ints(500, 3000, 100), b=ints(2, 6)),
    t("arithmetic", "online", "with_pct",
      "My rent of {a} a month is going up by {b:p}, what's the new rent?",
      a=ints(500, 1500, 50), b=ints(2, 8)),
    t("arithmetic", "travel", "div",
      "We drove {a} kilometres in {b} hours, how many kilometres per hour is that on average?",
      b=ints(2, 5), a=times("b", 40, 110)),
    t("arithmetic", "history", "sub",
      "The castle was built in {b:d} and knocked down in {a:d}, how many years did it stand?",
      b=ints(1100, 1600), a=lambda c, v: v["b"] + c.rng.randint(50, 400)),
    t("arithmetic", "media", "mul",
      "Each episode is {a} minutes and there are {b} episodes, how many minutes is the series?",
      a=ints(22, 60), b=ints(6, 12)),
    t("arithmetic", "messaging", "add", "Before I message the group: what's {a} plus {b}?",
      a=ints(101, 499), b=ints(101, 499)),
    t("arithmetic", "health", "pct",
      "If {a:p} of a {b} gram bar is sugar, how many grams of sugar is that?",
      a=ints(10, 40, 5), b=ints(40, 200, 10)),
    t("arithmetic", "travel", "mul",
      "The bus makes {a} stops and waits {b} minutes at each, how many minutes of waiting is that?",
      a=ints(11, 19), b=ints(2, 4)),
    t("arithmetic", "games", "div", "Deal {a} cards evenly to {b} players, how many does each get?",
      b=ints(2, 4), a=times("b", 5, 13)),
    t("arithmetic", "home", "pow", "What's {a} squared? I'm measuring the room for a carpet.",
      a=ints(11, 25), b=2),
]  # fmt: skip

UNIT_REQUESTS = [
    t("units", "cooking", "conv",
      "This American recipe says {v} degrees Fahrenheit, what's that in Celsius?",
      v=ints(325, 450, 25), frm="f", to="c"),
    t("units", "home", "conv",
      "What's {v} degrees Celsius in Fahrenheit? I'm not asking you to change the heating.",
      v=ints(16, 26), frm="c", to="f"),
    t("units", "health", "conv", "How many minutes are in {v} days? It's for my fasting plan.",
      v=ints(2, 7), frm="day", to="min"),
    t("units", "travel", "conv", "How many hours are in {v} weeks? That's how long the trip is.",
      v=ints(2, 6), frm="week", to="h"),
    t("units", "media", "conv", "How many seconds is {v} minutes, the length of the song?",
      v=ints(3, 9), frm="min", to="s"),
    t("units", "sport", "conv", "I ran {v} kilometres this morning, how far is that in miles?",
      v=ints(5, 21), frm="km", to="mi"),
    t("units", "travel", "conv",
      "The sign says {v} miles to the coast, how many kilometres is that?",
      v=ints(12, 80), frm="mi", to="km"),
    t("units", "travel", "conv",
      "The speed limit on the sign is {v} kilometres per hour, what's that in miles per hour?",
      v=ints(50, 130, 10), frm="kmh", to="mph"),
    t("units", "health", "conv", "I weigh {v} stone, how many kilos is that?",
      v=ints(8, 18), frm="st", to="kg"),
    t("units", "shopping", "conv", "The sack of potatoes says {v} pounds, what's that in kilos?",
      v=ints(15, 50, 5), frm="lb", to="kg"),
    t("units", "cooking", "conv", "How many grams is {v} ounces of butter?",
      v=ints(4, 16), frm="oz", to="g"),
    t("units", "cooking", "conv", "How many millilitres are there in {v} cups of stock?",
      v=ints(2, 4), frm="cup", to="ml"),
    t("units", "home", "conv", "The fish tank holds {v} gallons, how many litres is that?",
      v=ints(10, 60, 5), frm="gal", to="l"),
    t("units", "health", "conv", "My son is {v} feet tall, how many centimetres is that?",
      v=one(4, 5, 6), frm="ft", to="cm"),
    t("units", "media", "conv", "The new TV is {v} inches, what's that in centimetres?",
      v=ints(32, 65), frm="in", to="cm"),
    t("units", "sport", "conv",
      "The boat's doing {v} knots, how fast is that in kilometres per hour?",
      v=ints(12, 30), frm="knot", to="kmh"),
    t("units", "shopping", "conv", "The bottle is {v} millilitres, how many fluid ounces is that?",
      v=ints(250, 750, 50), frm="ml", to="floz"),
    t("units", "sport", "conv", "The climbing wall is {v} metres high, how many feet is that?",
      v=ints(11, 20), frm="m", to="ft"),
    t("units", "sport", "conv", "The golf hole is {v} yards long, how far is that in metres?",
      v=ints(120, 450, 10), frm="yd", to="m"),
]  # fmt: skip

SPELLING = [
    t("spelling", "home", "spell", "Spell the word {word}, I'm not asking you to change it.",
      word="thermostat"),
    t("spelling", "home", "spell", "Spell {word} for me, I'm labelling the kitchen.",
      word="refrigerator"),
    t("spelling", "media", "spell", "I don't want the song, just spell {word} for me.",
      word="yesterday"),
    t("spelling", "media", "spell", "How is {word} spelled, like in the song?", word="hallelujah"),
    t("spelling", "online", "spell", "Spell {word}, the word, not the forecast.", word="weather"),
    t("spelling", "calendar", "spell", "Spell {word}, I keep getting it wrong in my diary.",
      word="calendar"),
    t("spelling", "travel", "spell", "Not directions, I just need {word} spelled out.",
      word="restaurant"),
    t("spelling", "health", "spell", "Can you spell {word}? I'm writing a note for the chemist.",
      word="pharmacy"),
    t("spelling", "shopping", "spell",
      "How do you spell {word}? I'm writing the shopping list by hand.", word="mayonnaise"),
    t("spelling", "media", "spell", "Spell {word} for me, it's in a song title.", word="rhythm"),
    t("spelling", "sport", "spell", "How do you spell {word}, like a football one?",
      word="tournament"),
    t("spelling", "messaging", "spell", "Spell {word}, I'm texting the dentist.",
      word="appointment"),
    t("spelling", "calendar", "spell", "How do you spell {word}, the day?", word="Wednesday"),
    t("spelling", "science", "spell", "How do you spell {word}, as in degrees?", word="Fahrenheit"),
    t("spelling", "cooking", "spell", "Spell {word}, the recipe card is smudged.", word="cinnamon"),
    t("spelling", "home", "spell", "Spell {word}, as in the cleaner.", word="vacuum"),
    t("spelling", "online", "spell", "Spell {word} for me, I'm not asking if it'll rain.",
      word="umbrella"),
    t("spelling", "games", "spell", "Spell {word}, it's my word in the spelling game.",
      word="necessary"),
]  # fmt: skip

FACT_REQUESTS = [
    t("facts", "games", "capital", "What's the capital of {country}? My quiz team is arguing.",
      country=COUNTRY),
    t("facts", "travel", "capital", "I'm flying to {country} next month, what's its capital city?",
      country=COUNTRY),
    t("facts", "online", "currency",
      "What currency do they use in {country}? Not the exchange rate, just the name.",
      country=COUNTRY),
    t("facts", "shopping", "currency", "What money should I take to {country}?",
      country=COUNTRY),
    t("facts", "words", "language",
      "I'm not asking for a translation, what language do they speak in {country}?",
      country=COUNTRY),
    t("facts", "travel", "language", "We're going to {country} on holiday, what do people speak?",
      country=COUNTRY),
    t("facts", "travel", "continent", "Which continent is {country} on?", country=COUNTRY),
    t("facts", "sport", "continent", "{country} are in the final, which continent are they from?",
      country=COUNTRY),
    t("facts", "science", "planet_at", "Which planet is {order:o} from the Sun?",
      order=ints(1, 8)),
    t("facts", "media", "planet_order",
      "Not the Holst music, the real thing: where is {planet} in order from the Sun?",
      planet=one("Jupiter", "Saturn", "Uranus", "Neptune")),
    t("facts", "online", "planet_most",
      "Which planet is the hottest? Not the weather here, in the solar system.", which="hottest"),
    t("facts", "talk", "planet_most", "What's the biggest planet, do you reckon?",
      which="largest"),
    t("facts", "science", "planet_most",
      "What's the smallest planet? It's for my son's science project.", which="smallest"),
    t("facts", "science", "moons", "How many moons does {planet} have?", planet=one("Mars")),
    t("facts", "games", "moons", "Quiz question: how many moons has {planet} got?",
      planet=one("Mercury", "Venus", "Earth")),
    t("facts", "science", "judge", "Is the Moon a planet?", what="moon"),
    t("facts", "history", "judge", "Is Pluto still a planet, or did they change that?",
      what="pluto"),
    t("facts", "talk", "judge", "Is the Sun a planet? My daughter says it is.", what="sun"),
]  # fmt: skip

FOLLOW_UPS = [
    t("follow-up", "home", "conv",
      ("What's {v1} degrees Celsius in Fahrenheit? Just the number, leave the heating alone.",
       "And {v}?"), v1=ints(15, 25), v=near("v1", -5, 5), frm="c", to="f"),
    t("follow-up", "health", "conv", ("How many kilos is {v} stone?", "And in pounds?"),
      v=ints(8, 17), frm1="st", to1="kg", frm="st", to="lb"),
    t("follow-up", "media", "chain",
      ("Concert tickets are {a} each and we need {b}, what's the total?", "Double that."),
      a=ints(25, 90), b=ints(3, 7), f="mul", g="mul", c=2),
    t("follow-up", "travel", "capital",
      ("What's the capital of {country1}? Our flight lands there.", "What about {country}?"),
      country1=COUNTRY, country=other("country1", COUNTRIES)),
    t("follow-up", "online", "language",
      ("What currency will I need in {country}? I don't want the exchange rate.",
       "And what language do they speak there?"), op1="currency",
      country=country(unique_in="language")),
    t("follow-up", "words", "spell_capital",
      ("What's the capital of {country}?", "Can you spell that?"), op1="capital",
      country=country(single_word_capital=True)),
    t("follow-up", "science", "planet_at",
      ("Which planet is {order1:o} from the Sun?", "And the one after that?"),
      order1=ints(1, 7), order=lambda c, v: v["order1"] + 1),
    t("follow-up", "games", "planet_most",
      ("Which planet is the biggest? It's for a pub quiz.", "And the smallest one?"),
      which1="largest", which="smallest"),
    t("follow-up", "home", "conv",
      ("Turn the heating up to {v} degrees.",
       "Fine, then just tell me what that is in Fahrenheit."),
      op1="refusal", v=ints(18, 25), frm="c", to="f"),
    t("follow-up", "shopping", "conv",
      ("Order {v} kilos of potatoes for me.", "Okay, then how many pounds is that?"),
      op1="refusal", v=ints(2, 10), frm="kg", to="lb"),
    t("follow-up", "travel", "conv",
      ("Navigate to the beach, it's {v} miles away.",
       "Okay, just tell me how far that is in kilometres."),
      op1="refusal", v=ints(12, 80), frm="mi", to="km"),
    t("follow-up", "online", "capital",
      ("What's the weather like in {country} this week?", "Okay, what's the capital there, then?"),
      op1="refusal", country=COUNTRY),
    t("follow-up", "shopping", "chain",
      ("The shopping came to {a} and the petrol was {b}, what's that altogether?",
       "Split that between {c} of us."),
      f="add", g="div", c=ints(2, 4), a=ints(40, 120), b=topping(20, 70)),
    t("follow-up", "cooking", "conv",
      ("How many seconds are in {v1} minutes? I'm timing the eggs.", "And in {v} hours?"),
      v1=ints(3, 9), frm1="min", to1="s", v=ints(2, 5), frm="h", to="s"),
    t("follow-up", "home", "pow", ("What's {a} squared? It's for the patio.", "And cubed?"),
      a=ints(4, 12), b1=2, b=3),
    t("follow-up", "home", "spell",
      ("How do you spell {word1}? I'm labelling the kitchen.", "And {word}?"),
      word1=one(*DEVICES), word=other("word1", DEVICES)),
    t("follow-up", "words", "language",
      ("What language do they speak in {country1}? It's not for a translation.",
       "What about {country}?"), country1=COUNTRY, country=other("country1", COUNTRIES)),
    t("follow-up", "shopping", "until_holiday",
      ("How many days until Christmas? I've got presents to order.", "And Halloween?"),
      holiday1="christmas", holiday="halloween"),
]  # fmt: skip


def r(domain: str, turns: str | tuple[str, ...], **draws) -> T:
    return t("refusal", domain, "refusal", turns, **draws)


LEADERS = ("France", "Mexico", "Brazil", "Argentina", "Chile", "Peru", "Kenya", "Nigeria",
           "Turkey", "Egypt", "Indonesia", "Poland")  # fmt: skip
LANGUAGES = ("Japanese", "Italian", "Spanish", "Swedish", "Greek", "Portuguese", "Polish")

REFUSALS = [
    # smart home: devices to control, with numbers and units
    r("home", "Set the radiator in the lounge to {n} degrees.", n=ints(18, 25)),
    r("home", "Dim the bedroom lights to {p:p}.", p=ints(10, 80, 10)),
    r("home", "Preheat the oven to {n} degrees.", n=ints(160, 220, 10)),
    r("home", "Turn off the kitchen lights in {m} minutes.", m=MINUTES),
    r("home", "Set the fan to speed {n}.", n=ints(1, 5)),
    r("home", "Lock the front door and set the burglar alarm."),
    r("home", "Start the dishwasher at {n} o'clock tonight.", n=ints(8, 11)),
    r("home", "Turn the fridge down to {n} degrees.", n=ints(2, 5)),
    # media: music, films, podcasts
    r("media", "Skip forward {n} seconds.", n=ints(15, 60, 15)),
    r("media", "Turn the volume up to {n}.", n=ints(3, 9)),
    r("media", "Play Mars from The Planets by Holst."),
    r("media", "Put on an album that lasts about {m} minutes.", m=ints(30, 50)),
    r("media", "What's the name of this song that's playing?"),
    r("media", "Play episode {n} of my history podcast.", n=ints(11, 40)),
    r("media", "Play some music for {m} minutes and then stop.", m=MINUTES),
    r("media", "Play the song Counting Stars."),
    # messaging and calls
    r("messaging", "Text Sarah that I'll be {m} minutes late.", m=ints(5, 25, 5)),
    r("messaging", "Ring the office and tell them I'm {m} minutes away.", m=ints(10, 40, 5)),
    r("messaging", "Send a message to the family group: dinner's at {n} o'clock.", n=ints(5, 8)),
    r("messaging", "Read me my last {n} messages.", n=ints(2, 6)),
    r("messaging", "Email my boss the figures, it comes to {a} in total.", a=ints(1200, 9800, 100)),
    r("messaging", "Video call Grandma in {country}.", country=COUNTRY),
    r("messaging", "Reply to Tom with 'see you in {m} minutes'.", m=ints(15, 45, 5)),
    r("messaging", "Check my voicemail from this morning."),
    # shopping: lists, orders, prices
    r("shopping", "Add {n} eggs to the shopping list.", n=one(6, 12)),
    r("shopping", "Order a {n} kilo bag of rice online.", n=one(2, 5, 10)),
    r("shopping", "What's on my shopping list?"),
    r("shopping", "How much is a litre of milk at the supermarket today?"),
    r("shopping", ("How many days until Christmas?",
                   "Then order the turkey to arrive the day before.")),
    r("shopping", "Buy me a {n} metre garden hose.", n=ints(15, 50, 5)),
    r("shopping", "Find me the cheapest {n} inch TV.", n=ints(40, 65, 5)),
    r("shopping", "Add {n} apples and {k} bananas to my basket.", n=ints(3, 8), k=ints(2, 6)),
    # calendar and alarms at a clock time
    r("calendar", "Set an alarm for {t}.", t=clock),
    r("calendar", "Wake me up at {n} tomorrow.", n=ints(5, 9)),
    r("calendar", "What's on my calendar on {day}?", day=one(*WEEKDAYS)),
    r("calendar", "Add the dentist on {date:DM} to my calendar.", date=ahead(5, 200)),
    r("calendar", "When's my next meeting?"),
    r("calendar", "Move my {n} o'clock to {k} o'clock.", n=ints(1, 4), k=ints(5, 6)),
    r("calendar", "Cancel my {n} a.m. alarm.", n=ints(5, 8)),
    r("calendar", "Set a repeating alarm for {t} on weekdays.", t=clock),
    # navigation and travel
    r("travel", "How long will it take me to drive to the airport?"),
    r("travel", "Give me directions to the nearest pharmacy."),
    r("travel", "How far is {city1} from {city} in kilometres?", city1=CAPITAL,
      city=lambda c, v: c.rng.choice([x.capital[0] for x in COUNTRIES.values()
                                      if x.capital[0] != v["city1"]])),
    r("travel", "When's the next train to {city}?", city=CAPITAL),
    r("travel", "Find a petrol station within {n} miles.", n=ints(2, 10)),
    r("travel", "What's the speed limit on motorways in {country}?", country=COUNTRY),
    r("travel", "Book me a taxi for {t} tomorrow.", t=clock),
    r("travel", "What time does my flight to {country} board?", country=COUNTRY),
    # cooking
    r("cooking", "How long should I boil an egg for?"),
    r("cooking", "What temperature do I roast a chicken at?"),
    r("cooking", "Give me a pancake recipe for {n} people.", n=ints(2, 8)),
    r("cooking", "How many minutes per kilo do I roast lamb for?"),
    r("cooking", "What can I use instead of {n} eggs in a cake?", n=ints(2, 4)),
    r("cooking", "How do I make a Thai green curry?"),
    r("cooking", "Is chicken safe to eat at {n} degrees?", n=ints(60, 75)),
    r("cooking", "How much pasta should I cook for {n} people?", n=ints(3, 8)),
    # health
    r("health", "How many paracetamol can I take in {n} hours?", n=one(12, 24)),
    r("health", "Is {t} degrees a fever?", t=decs("37.2", "39.4", "0.1")),
    r("health", "How many calories are in a banana?"),
    r("health", "What's a healthy weight for someone who is {n} foot {k}?", n=one(5, 6),
      k=ints(1, 9)),
    r("health", "How many litres of water should I drink a day?"),
    r("health", "My heart rate is {n}, is that normal?", n=ints(90, 130)),
    r("health", "How many steps do I need to burn {n} calories?", n=ints(200, 600, 50)),
    r("health", "What dose of ibuprofen is right for a {n} kilo child?", n=ints(14, 30)),
    # sport
    r("sport", "What was the score in the game against {country} last night?", country=COUNTRY),
    r("sport", "How many players are on a rugby team?"),
    r("sport", "When does the next World Cup start?"),
    r("sport", "How many minutes is a rugby match?"),
    r("sport", "Who's top of the league right now?"),
    r("sport", "How many laps is the Monaco Grand Prix?"),
    r("sport", "What time does the match kick off tonight?"),
    r("sport", "How fast can Usain Bolt run in miles per hour?"),
    # history
    r("history", "What year did the Berlin Wall come down?"),
    r("history", "How many days did the Battle of the Somme last?"),
    r("history", "Who was the first president of {country}?", country=one(*LEADERS)),
    r("history", "When were the pyramids in Egypt built?"),
    r("history", "What happened in the year {y:d}?", y=ints(1700, 1950)),
    r("history", "How old is the city of Rome?"),
    r("history", "Who was king of France in {y:d}?", y=ints(1650, 1780)),
    r("history", "How many years did the Roman Empire last?"),
    # science beyond the planet table
    r("science", "What's the speed of light in kilometres per second?"),
    r("science", "Why is the sky blue?"),
    r("science", "How many bones are in the human body?"),
    r("science", "What's absolute zero in Celsius?"),
    r("science", "What's the gravity like on {planet}?", planet=PLANET),
    r("science", "How hot is the surface of the Sun?"),
    r("science", "How long does it take {planet} to go round the Sun?",
      planet=one(*(p for p in PLANETS if p != "Earth"))),
    r("science", "What's the melting point of iron?"),
    # online: weather, news, live prices
    r("online", ("What's the capital of {country}?",
                 "And what's the weather like there this weekend?"), country=COUNTRY),
    r("online", "Will it rain in the next {n} hours?", n=ints(2, 6)),
    r("online", "What's the temperature outside right now?"),
    r("online", "How much is {n} euros in dollars today?", n=ints(20, 500, 10)),
    r("online", "What's the price of bitcoin?"),
    r("online", "What's the latest news from {country}?", country=COUNTRY),
    r("online", "How much is petrol per litre at the moment?"),
    r("online", "What's the pollen count today?"),
    # countries beyond the table
    r("countries", "What's the population of {country}?", country=COUNTRY),
    r("countries", "Who's in charge of {country} at the moment?", country=COUNTRY),
    r("countries", "What does the flag of {country} look like?", country=COUNTRY),
    r("countries", "What's the dialling code for {country}?", country=COUNTRY),
    r("countries", "What's the highest mountain in {country}?", country=COUNTRY),
    r("countries", "What time is it in {city} right now?", city=one("Tokyo", "Bangkok", "Lima",
                                                                   "Nairobi", "Jakarta")),
    r("countries", "What's the national dish of {country}?", country=COUNTRY),
    r("countries", "How big is {country} in square kilometres?", country=COUNTRY),
    # words and languages
    r("words", "Translate good morning into {language}.", language=one(*LANGUAGES)),
    r("words", "What does the word serendipity mean?"),
    r("words", "What rhymes with timer?"),
    r("words", "How do you say thank you in {language}?", language=one(*LANGUAGES)),
    r("words", "What's the plural of cactus?"),
    r("words", "Use the word necessary in a sentence."),
    r("words", "How many syllables are in the word banana?"),
    r("words", "What's another word for happy?"),
    # small talk and opinions
    r("talk", "Tell me a joke about planets."),
    r("talk", "What's your favourite planet?"),
    r("talk", "Do you like the number {n}?", n=ints(3, 99)),
    r("talk", "Sing happy birthday to my son, he's {n} today.", n=ints(3, 12)),
    r("talk", "What should I name my new cat?"),
    r("talk", "Are you cleverer than my phone?"),
    r("talk", "Tell me a bedtime story about the Moon."),
    r("talk", "What's the meaning of life?"),
    # games and chance
    r("games", "Roll {n} dice for me.", n=ints(2, 3)),
    r("games", "Flip a coin."),
    r("games", "Pick a random number between {lo} and {n}.", lo=1, n=ints(20, 100, 10)),
    r("games", "Let's play {n} questions.", n=20),
    r("games", "Shuffle a deck and deal me {n} cards.", n=ints(5, 7)),
    r("games", "Give me a {n}-letter word for Wordle starting with {letter}.", n=5,
      letter=one("B", "C", "S", "T")),
    r("games", "Spell out the rules of chess for me."),
    r("games", "Pick a random country for our holiday."),
]  # fmt: skip

TEMPLATES = CLOCK + TIMERS + ARITHMETIC + UNIT_REQUESTS + SPELLING + FACT_REQUESTS + FOLLOW_UPS
TEMPLATES += REFUSALS


# --- the builder ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    """A request with its domain (what it is about, or sounds like), channel and the calc of
    its answer (the operation and operands; ``first`` for a follow-up's first turn)."""

    request: Request
    domain: str
    channel: str
    calc: dict


UNIQUE_KEYS = ("word", "word1", "country", "country1", "planet")


def _draw(tpl: T, ctx: Ctx) -> dict:
    vals: dict = {}
    for k, spec in tpl.draws.items():
        vals[k] = spec(ctx, vals) if callable(spec) else spec
    return vals


def _first(tpl: T, vals: dict) -> dict | None:
    if len(tpl.turns) < 2 or tpl.kind != "follow-up":
        return None
    if tpl.op == "chain":
        return {"op": vals["f"], "a": vals["a"], "b": vals["b"]}
    firsts = {**vals, **{k[:-1]: v for k, v in vals.items() if k.endswith("1")}}
    return calc_of(tpl.op1 or tpl.op, firsts)


def _say(tpl: T, vals: dict, channel: str) -> tuple[str, ...]:
    shown = {k: SAID_AS.get(v, v) if isinstance(v, str) else v for k, v in vals.items()}
    return tuple(render(x, shown, channel) for x in tpl.turns)


def _make(tpl: T, channel: str, ctx: Ctx, now: datetime, used: set, said: set) -> Built:
    for _ in range(2000):
        vals = _draw(tpl, ctx)
        if any(vals.get(k) in used for k in UNIQUE_KEYS if k in vals):
            continue
        calc = calc_of(tpl.op, vals)
        expect = answer(calc, now)
        v = value(calc)
        if v is not None and v < 1:
            continue
        turns = _say(tpl, vals, channel)
        if turns in said or repeats(expect, turns):
            continue
        first = _first(tpl, vals)
        if first is not None:
            calc["first"] = first
            before = " | ".join(_norm(e) for e in answer(first, now))
            if any(_norm(e) in before for e in expect):
                continue
            if calc["op"] in FACTS and first.get("country") == calc["country"]:
                if not unique(calc["op"], calc["country"]):
                    continue
        used.update(vals[k] for k in UNIQUE_KEYS if k in vals)
        said.add(turns)
        after = CLEAR if tpl.kind == "timer" else ()
        return Built(Request(turns, tpl.kind, expect, after), tpl.domain, channel, calc)
    raise ValueError(f"no draw of {tpl.turns} passes the guards")


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """The set with each request's domain, channel and calc: the same ``seed`` and ``now``
    give the same records; clock answers are for ``now`` (default: the real clock)."""
    now = now or datetime.now()
    rng = random.Random(seed)
    ctx = Ctx(rng, now.date())
    used: dict[str, set] = {k: set() for k in KINDS}
    said: set = set()
    out: list[Built] = []
    # channels: half of each in-scope kind, half of each refusal domain
    cells = [[x for x in TEMPLATES if x.kind == k] for k in KINDS if k != "refusal"]
    cells += [[x for x in REFUSALS if x.domain == d] for d in DOMAINS]
    for cell in cells:
        channels = list(CHANNELS) * (len(cell) // 2) + list(CHANNELS[: len(cell) % 2])
        rng.shuffle(channels)
        for tpl, channel in zip(cell, channels, strict=True):
            out.append(_make(tpl, channel, ctx, now, used[tpl.kind], said))
    return out


def borders(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The borders set (see the module's docstring): 256 requests, half of them refusals."""
    return [b.request for b in built(seed, now)]


if __name__ == "__main__":
    for b in built():
        print(f"{b.domain:<10} {b.channel:<6} {b.request.kind:<10} "
              f"{' / '.join(b.request.turns)} → {b.request.expect}")  # fmt: skip
