"""Sources set for ``bench/skills.py --requests sources``: 256 held-out requests in which the
user is reading from something in front of them and asks about what it says.

**The generator: the thing being read.** Each request is said by someone holding a written
source and quoting or paraphrasing it: "the card says bake at 180 degrees, what's that in
Fahrenheit", "question 6: 144 divided by 12", "the receipt total is £84.37 and there are three
of us". Eight sources (``SOURCES``): a recipe card, a child's maths worksheet, a restaurant bill
or shop receipt, a medicine label, a map, road sign or train ticket, a crossword or quiz sheet,
a calendar page or invitation, and a flat-pack leaflet or seed packet. Each source asks all
eight kinds (``KINDS``), four sentences per source and kind, each sentence written literally for
its source (a receipt's service charge, a label's dose, a sign's speed limit, a worksheet's
question number, a ticket's date), so 32 requests per kind and 256 in all. Every sentence is
used once; only its values are drawn.

How it differs from the earlier held-out sets: those varied the *speaker* (personas at work,
language learners, regional households, ages, habits from other assistants), the *setting*
(everyday scenes, short conversations) or the *form* (frames × cores, syntactic
transformations). Here the variable is the *text the user reads from*: its numbers arrive
printed (money with two decimals, a ticket's 17:42, "14 June 2027", "a 9-minute timer"), embedded
in the source's own vocabulary (a serving, a dose, a railcard discount), often with a number the
question does not need ("drinks at seven", "round two") and with the request stated after
the quote rather than before it.

**Values.** A seeded :class:`random.Random` draws only the values: numbers, amounts of money,
percentages, countries, planets, words to spell, dates and timer lengths, from ranges written
beside each sentence. Words, countries and planets are not repeated within a kind, and no two
requests share their text. The same ``seed`` and ``now`` give the same set.

**Channels** (``CHANNELS``), two of each four sentences in a cell, drawn by the seed:

- ``typed``: lower case, digits for every number, no question marks;
- ``spoken``: as Whisper writes speech: a capital at the start, punctuation, numbers up to ten
  in words and larger ones in digits with thousands commas, "%", "$" and "£" signs, "the 14th of
  June, 2027".

**Checks computed here, independently of the assistant.** Every expected answer is worked out
from first principles and recorded (``built()`` gives each request's ``calc``: the operation
and its operands) so that ``tests/test_sources.py`` can work it out again with separate code:

- arithmetic with :class:`fractions.Fraction` (sums, differences, products, quotients, powers,
  square roots of perfect squares, percentages, tips, discounts, splitting a bill);
- conversions from the exact unit definitions of ``bench/everyday.py`` (1 inch = 2.54 cm,
  1 lb = 0.45359237 kg, US gallon, knot = 1852 m/h), temperatures by formula;
- numbers in words as the assistant says them, ``number()``: exact when at most two decimals,
  otherwise about three significant figures or one decimal fewer; results under one are not
  drawn (the assistant's "zero point ..." is not asked of it here);
- the calendar with :mod:`datetime` from ``now`` (default: the real clock): the hour now (this
  hour's word or the next one's), today's date ("March fifth" or "fifth of March"), weekdays,
  the date N days ahead, days until a date or a holiday (Christmas, New Year, Halloween,
  Valentine's Day, Easter by the Gregorian computus; "today" and "tomorrow" for 0 and 1), days in
  a month (February by the year said);
- timers: the length in words (``duration()``); "how long is left" right after setting M
  minutes accepts "M minutes" or "M-1 minute"; a cancelled timer "cancelled";
- spelling: the letters of the word (``letters()``);
- facts from ``words/facts.py``: capital, currency, language, continent of the 30 countries;
  planets by order, largest (Jupiter), smallest (Mercury), hottest (Venus) and moons (the
  table's ``moons_answer``). Currencies that are parts of other words take a longer form ("the
  euro"/"euros", "the won"/"Korean won", "the real"/"Brazilian real");
- refusals expect nothing (``expect == ()``): a short honest refusal is useful.

Guards, redrawn until they hold: no expected answer appears in any turn's text, nor among the
turn's numbers said back in words ("twelve" in "question 12"); a follow-up's answer is not the
first turn's answer; a follow-up asking another fact of the same country draws a country whose
answer no other country shares, so only the remembered country gives it. Every request that
sets a timer is followed, unscored, by "cancel all my timers" (``after=CLEAR``).

``tests/test_sources.py`` checks the sizes, the coverage of sources, kinds and channels,
determinism, and re-derives every expected answer from its ``calc``.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction as F

from bench.everyday import (
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
from words.facts import COUNTRIES, PLANETS
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CHANNELS = ("typed", "spoken")
SOURCES = {
    "recipe": "a recipe card: quantities, oven temperatures, cooking times, servings",
    "worksheet": "a child's maths worksheet: numbered questions, shapes, a space page",
    "bill": "a restaurant bill or shop receipt: totals, service, tips, splitting, weights",
    "label": "a medicine label: doses, millilitres, days of a course, storage temperatures",
    "travel": "a map, road sign, train ticket or itinerary: distances, speeds, dates, times",
    "quiz": "a crossword or pub-quiz sheet: rounds, clues, powers, planets, capitals",
    "invitation": "a calendar page or invitation: dates, guests, venues, RSVPs",
    "leaflet": "a flat-pack instruction leaflet or seed packet: parts, screws, spacing, drying",
}

# --- units and facts --------------------------------------------------------------------------
UNITS = {
    "in": INCH, "ft": FOOT, "yd": YARD, "mi": MILE, "km": KM, "m": F(1), "cm": CM, "mm": MM,
    "lb": POUND, "oz": OUNCE, "st": STONE, "g": GRAM, "kg": F(1),
    "gal": GALLON, "floz": FL_OZ, "cup": CUP, "tbsp": TABLESPOON, "ml": ML, "l": F(1),
    "kmh": KMH, "mph": MPH, "knot": KNOT,
}  # fmt: skip
BY_NAME = {c.name: c for c in COUNTRIES}
PLANET = {p.name: p for p in PLANETS}
MOST = {"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}
# Currencies that are parts of other words ("euro" in "Europe") take a longer form.
LONGER = {"euro": ("the euro", "euros"), "won": ("the won", "Korean won"),
          "real": ("the real", "Brazilian real")}  # fmt: skip
HOLIDAYS = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
            "valentine's day": (2, 14)}  # fmt: skip


def forms(attr: str, name: str) -> tuple[str, ...]:
    """The accepted words for a country fact."""
    c = BY_NAME[name]
    if attr == "capital":
        return (capital(c),)
    if attr == "continent":
        return (continent(c),)
    if attr == "language":
        return (c.language,)
    bare = currency(c)
    return LONGER.get(bare, (bare,))


def unique(attr: str, name: str) -> bool:
    """No other country's fact holds this one's answer (so only the remembered country gives
    it)."""
    return not any(_norm(e) in _norm(getattr(d, attr)) for d in COUNTRIES if d.name != name
                   for e in forms(attr, name))  # fmt: skip


def easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leg = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leg) // 451
    month, day = divmod(h + leg - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _days(n: int) -> str:
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def _next(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def _on(d: date) -> tuple[str, ...]:
    m, o = MONTHS[d.month - 1], ordinal_words(d.day)
    return (f"{m} {o}", f"{o} of {m}")


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
    if op == "mul3":
        return F(calc["a"]) * calc["b"] * calc["c"]
    if op == "sqrt":
        r = round(F(calc["a"]) ** F(1, 2))
        assert r * r == calc["a"]
        return F(r)
    if op == "chain":
        first = BINARY[calc["f"]](F(calc["a"]), F(calc["b"]))
        return BINARY[calc["g"]](first, F(calc["c"]))
    if op == "conv":
        v, frm, to = F(calc["v"]), calc["frm"], calc["to"]
        if (frm, to) == ("c", "f"):
            return c_to_f(v)
        if (frm, to) == ("f", "c"):
            return f_to_c(v)
        return v * UNITS[frm] / UNITS[to]
    return None


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
        if calc["holiday"] == "easter":
            d = easter(today.year)
            d = d if d >= today else easter(today.year + 1)
        else:
            d = _next(today, *HOLIDAYS[calc["holiday"]])
        return (_days((d - today).days),)
    if op == "month_days":
        m, y = calc["month"], calc["year"]
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        return (f"{int_words(MONTH_DAYS[m - 1] + (m == 2 and leap))} days",)
    if op == "set":
        return (duration(calc["seconds"]),)
    if op == "left":
        m = calc["minutes"]
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "cancel":
        return ("cancelled", "canceled")
    if op == "spell":
        return (letters(calc["word"]),)
    if op in ("capital", "currency", "language", "continent"):
        return forms(op, calc["country"])
    if op == "planet_at":
        return (BY_ORDER[calc["order"]],)
    if op == "planet_order":
        return (ordinal_words(PLANET[calc["planet"]].order),)
    if op == "planet_most":
        return (MOST[calc["which"]],)
    if op == "moons":
        return (PLANET[calc["planet"]].moons_answer,)
    if op == "refusal":
        return ()
    raise ValueError(f"unknown calc {calc}")


# --- the calc of a template's drawn values ---------------------------------------------------
ARGS = {
    "add": "ab", "sub": "ab", "mul": "ab", "div": "ab", "pow": "ab", "pct": "ab",
    "with_pct": "ab", "off": "ab", "add3": "abc", "mul3": "abc", "sqrt": "a",
    "chain": ("f", "a", "b", "g", "c"), "conv": ("v", "frm", "to"),
    "weekday_of": ("date",), "date_in": ("n",), "until_holiday": ("holiday",),
    "month_days": ("month", "year"), "spell": ("word",), "capital": ("country",),
    "currency": ("country",), "language": ("country",), "continent": ("country",),
    "planet_at": ("order",), "planet_order": ("planet",), "planet_most": ("which",),
    "moons": ("planet",),
}  # fmt: skip


def calc_of(op: str, vals: dict) -> dict:
    calc: dict = {"op": op}
    if op == "until_date":
        calc |= {"month": vals["date"].month, "day": vals["date"].day}
    elif op == "set":
        calc["seconds"] = vals["m"] * 60 if "m" in vals else vals["len"][1]
    elif op == "left":
        calc["minutes"] = vals["m"]
    elif op == "month_days":
        calc |= {"month": MONTHS.index(vals["month"]) + 1, "year": vals["year"]}
    else:
        calc |= {k: vals[k] for k in ARGS.get(op, ())}
    return calc


# --- templates --------------------------------------------------------------------------------
@dataclass(frozen=True)
class T:
    """One sentence (or conversation) written for one source: its kind, the operation its
    answer comes from, and where each value is drawn from. A follow-up's first-turn values end
    in "1"; ``op1`` is the first turn's operation when it differs from the last's."""

    kind: str
    op: str
    turns: tuple[str, ...]
    draws: dict = field(default_factory=dict)
    op1: str = ""


def t(kind: str, op: str, turns: str | tuple[str, ...], op1: str = "", **draws) -> T:
    return T(kind, op, (turns,) if isinstance(turns, str) else turns, draws, op1)


@dataclass
class Ctx:
    rng: random.Random
    today: date


Draw = Callable[[Ctx, dict], object]


def ints(lo: int, hi: int, step: int = 1) -> Draw:
    return lambda c, v: c.rng.randrange(lo, hi + 1, step)


def one(*options) -> Draw:
    return lambda c, v: c.rng.choice(options)


def decs(lo: str, hi: str, step: str) -> Draw:
    """Decimals from ``lo`` to ``hi``: decs("1.5", "4", "0.5")."""
    a, b, s = F(lo), F(hi), F(step)
    return lambda c, v: a + s * c.rng.randrange(int((b - a) / s) + 1)


def money(lo: int, hi: int) -> Draw:
    return lambda c, v: F(c.rng.randrange(lo * 100, hi * 100 + 1), 100)


def times(key: str, lo: int, hi: int) -> Draw:
    """A multiple of an earlier value (so a division comes out whole)."""
    return lambda c, v: v[key] * c.rng.randint(lo, hi)


def below(key: str, lo: int = 1) -> Draw:
    return lambda c, v: c.rng.randint(lo, int(v[key]) - 1)


def square(lo: int, hi: int) -> Draw:
    return lambda c, v: c.rng.randint(lo, hi) ** 2


def near(key: str, lo: int, hi: int, step: int = 1) -> Draw:
    """An earlier value moved by lo..hi, not 0 (a follow-up's second value)."""
    return lambda c, v: v[key] + c.rng.choice([d for d in range(lo, hi + 1, step) if d])


def country(unique_in: str = "", foreign: bool = False) -> Draw:
    """A country; with ``unique_in``, one whose fact no other country shares; ``foreign``:
    one where English is not spoken (a source "not in English")."""
    names = [c.name for c in COUNTRIES if (not unique_in or unique(unique_in, c.name))
             and not (foreign and "English" in c.language)]  # fmt: skip
    return lambda c, v: c.rng.choice(names)


def ahead(lo: int, hi: int) -> Draw:
    """A date lo..hi days after today (never the 29th of February)."""

    def draw(c: Ctx, v: dict) -> date:
        d = c.today + timedelta(days=c.rng.randint(lo, hi))
        return d if (d.month, d.day) != (2, 29) else d + timedelta(days=1)

    return draw


def years(lo: int, hi: int) -> Draw:
    def draw(c: Ctx, v: dict) -> date:
        y = c.rng.randint(lo, hi)
        return date(y, 1, 1) + timedelta(days=c.rng.randrange(365))

    return draw


def same_month(key: str) -> Draw:
    """Another day of an earlier date's month, not a whole number of weeks away."""

    def draw(c: Ctx, v: dict) -> date:
        d = v[key]
        last = MONTH_DAYS[d.month - 1] + (d.month == 2 and d.year % 4 == 0)
        days = [n for n in range(1, last + 1) if (n - d.day) % 7]
        return d.replace(day=c.rng.choice(days))

    return draw


def this_year(c: Ctx, v: dict) -> int:
    return c.today.year


def clock_time(c: Ctx, v: dict) -> tuple[int, int]:
    return (c.rng.randint(6, 22), c.rng.randint(1, 59))


MONTH = one(*MONTHS)
ORDER = ints(1, 8)
LENGTHS = (("half an hour", 1800), ("a quarter of an hour", 900),
           ("three quarters of an hour", 2700), ("an hour and a half", 5400),
           ("an hour and a quarter", 4500), ("two and a half hours", 9000),
           ("90 seconds", 90))  # fmt: skip
LENGTH = one(*LENGTHS)

WORDS = {
    "recipe": ("courgette", "aubergine", "cinnamon", "mayonnaise", "rhubarb", "cardamom",
               "meringue", "turmeric", "gnocchi", "worcestershire", "caramelise"),
    "worksheet": ("parallelogram", "perpendicular", "isosceles", "denominator", "circumference",
                  "quotient", "rhombus", "symmetry", "trapezium", "numerator", "hexagon"),
    "bill": ("gratuity", "cappuccino", "espresso", "prosciutto", "bruschetta", "tiramisu",
             "croissant", "vinaigrette", "focaccia", "chorizo", "receipt"),
    "label": ("ibuprofen", "paracetamol", "antihistamine", "drowsiness", "prescription",
              "pharmacist", "amoxicillin", "hydrocortisone", "dosage", "lozenge", "capsule"),
    "travel": ("Edinburgh", "Loughborough", "Gloucester", "Worcester", "Leicester", "Greenwich",
               "Aberystwyth", "Massachusetts", "Mississippi", "Albuquerque", "Marylebone"),
    "quiz": ("onomatopoeia", "pharaoh", "rhythm", "silhouette", "hieroglyphics", "phenomenon",
             "archipelago", "mnemonic", "pterodactyl", "liaison", "conscientious"),
    "invitation": ("anniversary", "christening", "engagement", "reception", "celebration",
                   "graduation", "barbecue", "marquee", "bouquet", "rehearsal", "ceremony"),
    "flatpack": ("screwdriver", "bracket", "dowel", "wardrobe", "hinge", "cabinet", "castor",
                 "countersunk", "plinth", "grommet", "laminate"),
    "seeds": ("perennial", "germination", "seedling", "fertiliser", "nasturtium", "geranium",
              "clematis", "dahlia", "begonia", "fuchsia", "chrysanthemum"),
}  # fmt: skip


def word(source: str) -> Draw:
    return one(*WORDS[source])


C, TI, AR, UN, SP, FA, FU, RE = KINDS

TEMPLATES: dict[str, list[T]] = {
    "recipe": [
        t(C, "until_holiday", "This is my gran's Christmas cake recipe and it says make it six "
          "weeks ahead. How many days is it until Christmas?", holiday="christmas"),
        t(C, "date_in", "The card says the chutney needs {n} days to mature. If I jar it "
          "today, what date will it be ready?", n=ints(12, 40)),
        t(C, "weekday_of", "The recipe card's dated {date:DMY}, the day my mum wrote it. What "
          "day of the week was that?", date=years(1978, 2012)),
        t(C, "time_now", "The card says prove the dough for an hour. What time is it now?"),
        t(TI, "set", "The card says the cake bakes for {m} minutes. Set a timer for that, "
          "please.", m=ints(25, 55)),
        t(TI, "set", "It says leave the dough in the fridge for {len[0]}. Can you set a "
          "timer?", len=LENGTH),
        t(TI, "left", ("Set a timer for {m} minutes for the rice, the card says.",
                       "How long is left on it?"), m=ints(11, 20)),
        t(TI, "cancel", ("The card says rest the meat for {m} minutes, so start a timer.",
                         "Oh, this card's for lamb, not beef. Cancel that timer."),
          m=ints(11, 30)),
        t(AR, "mul", "The card says {a} grams of flour for one batch and I'm making {b} "
          "batches. What's {a} times {b}?", a=ints(150, 450, 25), b=ints(2, 5)),
        t(AR, "div", "The card says {a} grams of sugar for {b} people, but there's only one "
          "of me. What's {a} divided by {b}?", b=ints(4, 8), a=times("b", 15, 60)),
        t(AR, "pct", "The card says {a:p} of the flour should be wholemeal and there's {b} "
          "grams of flour. How much is {a:p} of {b}?", a=ints(10, 45, 5), b=ints(200, 900, 50)),
        t(AR, "add3", "Card says {a} grams of butter, {b} grams of sugar and {c} grams of "
          "flour. What do they add up to?", a=ints(100, 250, 25), b=ints(75, 300, 25),
          c=ints(150, 450, 25)),
        t(UN, "conv", "The card says bake at {v} degrees Celsius. What's that in Fahrenheit?",
          v=ints(150, 230, 10), frm="c", to="f"),
        t(UN, "conv", "This old card says {v} ounces of butter. How many grams is that?",
          v=ints(2, 16), frm="oz", to="g"),
        t(UN, "conv", "The American card says {v} cups of milk. How many millilitres is that?",
          v=decs("1", "4", "0.5"), frm="cup", to="ml"),
        t(UN, "conv", "My aunt's card is American and says {v} degrees Fahrenheit. What's that "
          "in Celsius?", v=ints(325, 450, 25), frm="f", to="c"),
        t(SP, "spell", "The card's smudged. How do you spell {word}?", word=word("recipe")),
        t(SP, "spell", "My gran wrote {word} on this card but I can't read her writing. How do "
          "you spell it?", word=word("recipe")),
        t(SP, "spell", "Copying out a recipe card here. How do you spell {word}?",
          word=word("recipe")),
        t(SP, "spell", "How do you spell {word}, like it says on the recipe?",
          word=word("recipe")),
        t(FA, "language", "This recipe card is from {country}. What language do they speak "
          "there?", country=country()),
        t(FA, "capital", "The card says it's a traditional dish from {country}. What's the "
          "capital of {country}?", country=country()),
        t(FA, "currency", "This recipe's from a cookbook we bought in {country}. What currency "
          "do they use there?", country=country()),
        t(FA, "planet_at", "The card is for a solar system cake with the planets in order. "
          "Which planet is {order:o} from the sun?", order=ORDER),
        t(FU, "conv", ("The card says bake at {v1} degrees Celsius, what's that in Fahrenheit?",
                       "And {v} Celsius for the last ten minutes?"),
          v1=ints(160, 220, 10), v=near("v1", -40, 40, 10), frm="c", to="f"),
        t(FU, "chain", ("The card says {a} grams of flour per loaf and I'm making {b} loaves. "
                        "What's that in total?",
                        "And I've already got {c} grams, so how much more do I need?"),
          a=ints(350, 600, 50), b=ints(2, 4), c=ints(100, 500, 50), f="mul", g="sub"),
        t(FU, "spell", ("How do you spell {word1}? It's on the card.", "And {word}?"),
          word1=word("recipe"), word=word("recipe")),
        t(FU, "conv", ("How many grams is {v1} ounces? My card's in old money.",
                       "What about {v} ounces?"),
          v1=ints(3, 12), v=ints(2, 16), frm="oz", to="g"),
        t(RE, "refusal", "The card needs buttermilk and I've run out. Can you order some from "
          "the supermarket?"),
        t(RE, "refusal", "Can you play some music while I follow this recipe card?"),
        t(RE, "refusal", "The card says use the fan setting. Turn the oven on to {v} for me.",
          v=ints(160, 220, 10)),
        t(RE, "refusal", "Send a photo of this recipe card to my sister."),
    ],
    "worksheet": [
        t(C, "weekday_of", "Question {q} on the calendar worksheet: what day of the week is "
          "{date:DMY}?", q=ints(2, 12), date=ahead(20, 400)),
        t(C, "month_days", "Question {q} on the worksheet: how many days are there in {month} "
          "{year:d}?", q=ints(2, 12), month=MONTH, year=ints(2023, 2032)),
        t(C, "until_holiday", "The worksheet has a pumpkin on it, so how many days is it until "
          "Halloween?", holiday="halloween"),
        t(C, "date_today", "She has to write the date at the top of the worksheet. What's the "
          "date today?"),
        t(TI, "set", "The worksheet says you get {m} minutes for the times tables test. Set a "
          "timer.", m=ints(11, 20)),
        t(TI, "set", "It says practise the number bonds for {len[0]}. Set a timer for that.",
          len=one(*LENGTHS[:3])),
        t(TI, "left", ("Start a {m}-minute timer, it's the worksheet's time limit.",
                       "How much time has she got left?"), m=ints(5, 10)),
        t(TI, "cancel", ("Set a timer for {m} minutes for this page of sums.",
                         "She's finished early, cancel the timer."), m=ints(11, 25)),
        t(AR, "div", "Question {q}: {a} divided by {b}.", q=ints(1, 20), b=ints(3, 12),
          a=times("b", 6, 19)),
        t(AR, "mul", "Number {q} on the sheet says {a} times {b}. What's the answer?",
          q=ints(1, 20), a=ints(12, 49), b=ints(3, 19)),
        t(AR, "sub", "The worksheet says {a} take away {b}. What does that make?",
          a=ints(300, 999), b=below("a", 101)),
        t(AR, "sqrt", "Question {q}: what is the square root of {a}?", q=ints(1, 20),
          a=square(11, 25)),
        t(UN, "conv", "Question {q}: how many centimetres are in {v} inches?", q=ints(1, 20),
          v=ints(2, 30), frm="in", to="cm"),
        t(UN, "conv", "The worksheet asks how many miles is {v} kilometres.", v=ints(5, 80, 5),
          frm="km", to="mi"),
        t(UN, "conv", "It says convert {v} kilograms to pounds.", v=ints(2, 25), frm="kg",
          to="lb"),
        t(UN, "conv", "Question {q}: how many metres is {v} feet?", q=ints(1, 20),
          v=ints(10, 100, 5), frm="ft", to="m"),
        t(SP, "spell", "Question {q} says write the name of this shape. How do you spell "
          "{word}?", q=ints(1, 20), word=word("worksheet")),
        t(SP, "spell", "How do you spell {word}? It's in the key words box on her worksheet.",
          word=word("worksheet")),
        t(SP, "spell", "My son's worksheet has {word} in it and he wants to copy it right. How "
          "do you spell it?", word=word("worksheet")),
        t(SP, "spell", "Spelling for the maths sheet: how do you spell {word}?",
          word=word("worksheet")),
        t(FA, "planet_at", "The back of the worksheet is about space. Which planet is "
          "{order:o} from the sun?", order=ORDER),
        t(FA, "planet_most", "Question {q} on the space sheet: which is the smallest planet?",
          q=ints(1, 20), which="smallest"),
        t(FA, "capital", "Her geography sheet asks what the capital of {country} is.",
          country=country()),
        t(FA, "continent", "The worksheet has a map puzzle: which continent is {country} in?",
          country=country()),
        t(FU, "chain", ("Question {q}: {a} times {b}.", "And now add {c} to that answer."),
          q=ints(1, 20), a=ints(11, 40), b=ints(3, 12), c=ints(15, 99), f="mul", g="add"),
        t(FU, "chain", ("What's {a} divided by {b}? It's on the worksheet.",
                        "Then times that by {c}."),
          b=ints(3, 9), a=times("b", 8, 30), c=ints(3, 9), f="div", g="mul"),
        t(FU, "planet_at", ("Which planet is {order1:o} from the sun? It's on the space "
                            "worksheet.", "And the one after that?"),
          order1=ints(1, 7), order=lambda c, v: v["order1"] + 1),
        t(FU, "conv", ("Question {q}: how many centimetres in {v1} inches?", "And in {v} "
                       "inches?"), q=ints(1, 20), v1=ints(3, 20), v=ints(4, 40),
          frm="in", to="cm"),
        t(RE, "refusal", "Can you email this worksheet to her teacher?"),
        t(RE, "refusal", "Order a new printer cartridge so I can print the next worksheet."),
        t(RE, "refusal", "Call her teacher and ask what question {q} means.", q=ints(2, 20)),
        t(RE, "refusal", "Put on some quiet music while she does her worksheet."),
    ],
    "bill": [
        t(C, "time_now", "The receipt's timestamped but it's faded. What's the time now?"),
        t(C, "date_in", "The receipt says returns within {n} days. If I bought it today, "
          "what's the last date I can return it?", n=one(14, 21, 28, 30, 60)),
        t(C, "weekday_of", "The receipt is dated {date:DMY}. What day of the week was that?",
          date=lambda c, v: c.today - timedelta(days=c.rng.randint(9, 80))),
        t(C, "date_today", "I need today's date on the expenses form for this bill. What's "
          "the date today?"),
        t(TI, "set", "The parking receipt gives me {m} minutes. Set a timer so I'm back in "
          "time.", m=ints(20, 55)),
        t(TI, "set", "This deli receipt says my order's ready in {m} minutes. Remind me in "
          "{m} minutes to pick it up.", m=ints(11, 30)),
        t(TI, "left", ("Set a timer for {m} minutes, the receipt says the takeaway will be "
                       "ready then.", "How long's left?"), m=ints(12, 30)),
        t(TI, "cancel", ("Start a {m} minute timer, the parking ticket runs out then.",
                         "Never mind, cancel that timer, I've paid for more."),
          m=ints(15, 45)),
        t(AR, "pct", "The bill comes to ${b:m}. What's a {a:p} tip on that?",
          a=one(10, 12, 15, 18, 20), b=money(40, 180)),
        t(AR, "div", "The receipt total is £{a:m} and there are {b} of us. How much each?",
          a=money(30, 240), b=ints(2, 6)),
        t(AR, "with_pct", "The bill is £{a:m} before the {b:p} service charge. What's the "
          "total with service?", a=money(35, 160), b=one(10, 12, 15)),
        t(AR, "off", "The receipt says {b:p} off with the loyalty card, and the shopping came "
          "to £{a:m}. What should I have paid?", a=money(20, 150), b=one(5, 10, 15, 20, 25)),
        t(UN, "conv", "The receipt from the American deli says {v} pounds of cheese. How many "
          "kilograms is that?", v=decs("2.5", "6", "0.5"), frm="lb", to="kg"),
        t(UN, "conv", "The greengrocer's receipt says {v} kilos of potatoes. What's that in "
          "pounds?", v=decs("1", "10", "0.5"), frm="kg", to="lb"),
        t(UN, "conv", "The gas station receipt says {v} gallons. How many litres is that?",
          v=ints(6, 18), frm="gal", to="l"),
        t(UN, "conv", "The bill says a {v} ounce steak. How many grams is that?",
          v=ints(8, 16), frm="oz", to="g"),
        t(SP, "spell", "The bill says {word}. How do you spell that? I'm doing my expenses.",
          word=word("bill")),
        t(SP, "spell", "How do you spell {word}? I want to mention it in my review of this "
          "place.", word=word("bill")),
        t(SP, "spell", "The receipt abbreviates everything. How do you spell {word} in full?",
          word=word("bill")),
        t(SP, "spell", "For my expenses claim, how do you spell {word}?", word=word("bill")),
        t(FA, "currency", "This receipt's from our trip to {country}. What's the currency "
          "there?", country=country()),
        t(FA, "currency", "I found an old bill from {country} in my wallet. What currency do "
          "they use?", country=country()),
        t(FA, "language", "The receipt is in a language I can't read, it's from {country}. "
          "What language do they speak in {country}?", country=country(foreign=True)),
        t(FA, "capital", "The restaurant on this bill is in the capital of {country}. Which "
          "city is that?", country=country()),
        t(FU, "chain", ("The bill is £{a:m}. What's that split {b} ways?",
                        "And if each of us adds a {c:p} tip?"),
          a=money(60, 240), b=ints(2, 6), c=one(10, 12, 15, 20), f="div", g="with_pct"),
        t(FU, "currency", ("What currency do they use in {country1}? This receipt's from "
                           "there.", "And in {country}? That's the other one."),
          country1=country(), country=country()),
        t(FU, "conv", ("The receipt says {v1} pounds of apples, what's that in kilos?",
                       "And {v} pounds of pears?"),
          v1=ints(2, 9), v=ints(3, 12), frm="lb", to="kg"),
        t(FU, "currency", ("This bill's from a restaurant in {country}. What's the capital "
                           "there?", "And what currency do they use?"),
          op1="capital", country=country("currency")),
        t(RE, "refusal", "Pay this restaurant bill for me on my card."),
        t(RE, "refusal", "Book us a table at the same restaurant for next Friday."),
        t(RE, "refusal", "Text Dave and tell him his share of the bill."),
        t(RE, "refusal", "Call the restaurant and ask if they added the service charge twice."),
    ],
    "label": [
        t(C, "date_in", "The label says it keeps for {n} days after opening. I opened it "
          "today, so what's the date {n} days from now?", n=ints(14, 42)),
        t(C, "weekday_of", "The label says it was dispensed on {date:DMY}. What day of the "
          "week was that?", date=lambda c, v: c.today - timedelta(days=c.rng.randint(9, 60))),
        t(C, "time_now", "The label says take with food, at regular intervals. What time is "
          "it?"),
        t(C, "until_date", "The label says use by {date:DM}. How many days away is that?",
          date=ahead(5, 300)),
        t(TI, "set", "The label says wait {m} minutes after brushing. Set a timer.",
          m=ints(30, 60)),
        t(TI, "set", "The label says leave the cream on for {m} minutes. Set a timer for "
          "that.", m=ints(11, 30)),
        t(TI, "left", ("The eye drops label says wait {m} minutes between drops, so set a "
                       "timer.", "How long left on the timer?"), m=ints(11, 15)),
        t(TI, "cancel", ("Remind me in {m} minutes to take the antibiotics, like the label "
                         "says.", "I've just taken them, cancel the reminder."),
          m=ints(15, 50)),
        t(AR, "mul3", "The label says {a} tablets {b} times a day for {c} days. How many "
          "tablets is that altogether?", a=ints(1, 2), b=ints(2, 4), c=ints(5, 14)),
        t(AR, "div", "The bottle has {a} millilitres and each dose is {b} millilitres. How "
          "many doses is that?", b=one(5, 10, 15), a=times("b", 8, 30)),
        t(AR, "mul", "The label says {a} milligrams for each kilo of body weight, and he "
          "weighs {b} kilos. How many milligrams is that?", a=one(5, 10, 15), b=ints(12, 40)),
        t(AR, "sub", "The pharmacy label says {a} tablets were dispensed and I've taken {b}. "
          "How many are left?", a=one(28, 56, 84, 100), b=below("a", 3)),
        t(UN, "conv", "The label says {v} ml per dose. How many fluid ounces is that?",
          v=ints(30, 120, 10), frm="ml", to="floz"),
        t(UN, "conv", "The old label says {v} tablespoons. How many millilitres is that?",
          v=ints(1, 4), frm="tbsp", to="ml"),
        t(UN, "conv", "The dosing chart on the label goes by kilos and my son weighs {v} "
          "pounds. How many kilograms is that?", v=ints(30, 90), frm="lb", to="kg"),
        t(UN, "conv", "The label says store below {v} degrees Fahrenheit. What's that in "
          "Celsius?", v=ints(68, 86), frm="f", to="c"),
        t(SP, "spell", "How do you spell {word}? The label's peeling off and I need to write "
          "it down.", word=word("label")),
        t(SP, "spell", "The label says {word}. How do you spell that for the form?",
          word=word("label")),
        t(SP, "spell", "I'm filling in the form at the doctor's. How do you spell {word}, like "
          "on the box?", word=word("label")),
        t(SP, "spell", "Quick one from the medicine label: how do you spell {word}?",
          word=word("label")),
        t(FA, "language", "The leaflet inside this box is from {country}. What language do "
          "they speak there?", country=country()),
        t(FA, "continent", "These tablets were made in {country}, according to the label. "
          "What continent is that in?", country=country()),
        t(FA, "capital", "The label says manufactured in {country}. What's its capital?",
          country=country()),
        t(FA, "moons", "The label has a little moon on it for night-time doses. How many moons "
          "does {planet} have?", planet=one(*PLANET)),
        t(FU, "chain", ("The label says {a} tablets a day. How many is that in {b} days?",
                        "And how many more after the {c} I've already taken?"),
          a=ints(2, 4), b=ints(7, 14), c=ints(3, 9), f="mul", g="sub"),
        t(FU, "conv", ("What's {v1} ml in fluid ounces? It's the dose on the label.",
                       "And {v} ml?"), v1=ints(30, 90, 10), v=ints(40, 150, 10),
          frm="ml", to="floz"),
        t(FU, "capital", ("The label says made in {country}. What language do they speak "
                          "there?", "And what's the capital?"),
          op1="language", country=country("capital")),
        t(FU, "spell", ("How do you spell {word1}?", "And {word}? That's the other one on the "
                        "label."), word1=word("label"), word=word("label")),
        t(RE, "refusal", "Order a repeat prescription of these tablets for me."),
        t(RE, "refusal", "Call the pharmacy and ask if I can take these with ibuprofen."),
        t(RE, "refusal", "Send my doctor a message saying the label's wrong."),
        t(RE, "refusal", "Turn on the bathroom light so I can read this label."),
    ],
    "travel": [
        t(C, "weekday_of", "My train ticket's for {date:DMY}. What day of the week is that?",
          date=ahead(3, 200)),
        t(C, "time_now", "The ticket says the train leaves at {tm:t}. What's the time now?",
          tm=clock_time),
        t(C, "until_date", "The itinerary says we fly on {date:DM}. How many days until then?",
          date=ahead(4, 250)),
        t(C, "date_in", "The ticket's valid for {n} days from today. What date does it run "
          "out?", n=ints(7, 60)),
        t(TI, "set", "The parking sign says {m} minutes maximum stay. Set a timer for that.",
          m=ints(20, 59)),
        t(TI, "set", "The sign says the next ferry leaves in {m} minutes. Remind me to head "
          "down to the pier in {m} minutes.", m=ints(11, 45)),
        t(TI, "left", ("The ticket says the gate closes in {m} minutes. Start a timer for that "
                       "long.", "How much longer have I got?"), m=ints(11, 25)),
        t(TI, "cancel", ("The sign says max stay {len[0]}. Set a timer for {len[0]}.",
                         "We're leaving now, cancel the timer."), len=one(*LENGTHS[:6])),
        t(AR, "sub", "The map says it's {a} miles in total and we've done {b}. How many miles "
          "are left?", a=ints(120, 480), b=below("a", 20)),
        t(AR, "add3", "The itinerary has legs of {a}, {b} and {c} kilometres. What's the "
          "total?", a=ints(40, 300), b=ints(40, 300), c=ints(40, 300)),
        t(AR, "div", "The group ticket was £{a:m} for {b} of us. How much each?",
          a=money(40, 200), b=ints(3, 8)),
        t(AR, "pct", "The ticket says {a:p} off with a railcard, and the full fare is "
          "£{b:m}. How much do I save?", a=one(25, 30, 34), b=money(20, 150)),
        t(UN, "conv", "The road sign says {v} miles per hour. What's that in kilometres per "
          "hour?", v=ints(20, 70, 10), frm="mph", to="kmh"),
        t(UN, "conv", "The sign says Paris {v} kilometres. How many miles is that?",
          v=ints(12, 480), frm="km", to="mi"),
        t(UN, "conv", "The sign says low bridge, {v} metres. How many feet is that?",
          v=decs("2.8", "4.5", "0.1"), frm="m", to="ft"),
        t(UN, "conv", "The ferry itinerary says we'll cruise at {v} knots. What's that in "
          "kilometres per hour?", v=ints(12, 30), frm="knot", to="kmh"),
        t(SP, "spell", "The sign says {word}. How do you spell that?", word=word("travel")),
        t(SP, "spell", "How do you spell {word}? It's the next stop on my ticket.",
          word=word("travel")),
        t(SP, "spell", "The map's in tiny print. How do you spell {word}?",
          word=word("travel")),
        t(SP, "spell", "I'm writing my itinerary out by hand. How do you spell {word}?",
          word=word("travel")),
        t(FA, "capital", "The map has a star on the capital of {country}. Which city is that?",
          country=country()),
        t(FA, "continent", "Our itinerary ends in {country}. Which continent is that on?",
          country=country()),
        t(FA, "currency", "The itinerary says to change money before {country}. What currency "
          "do they use?", country=country()),
        t(FA, "language", "The road signs on this map are all in the local language. What "
          "language do they speak in {country}?", country=country(foreign=True)),
        t(FU, "conv", ("The sign says {v1} kilometres per hour, what's that in miles per hour?",
                       "And {v}?"), v1=ints(30, 90, 10), v=ints(50, 130, 10),
          frm="kmh", to="mph"),
        t(FU, "capital", ("The map shows the capital of {country1}, what is it?",
                          "And the capital of {country}? It's our next stop."),
          country1=country(), country=country()),
        t(FU, "weekday_of", ("What day of the week is {date1:DMY}? That's when my train goes "
                             "out.", "And the return on the {date:o}?"),
          date1=ahead(3, 200), date=same_month("date1")),
        t(FU, "chain", ("The map says {a} miles there and {b} miles back. What's the total?",
                        "And split over {c} days?"),
          a=ints(60, 300), b=ints(60, 300), c=ints(2, 6), f="add", g="div"),
        t(RE, "refusal", "Is my {tm:t} train running on time?", tm=clock_time),
        t(RE, "refusal", "Book me a seat on the next train to Manchester."),
        t(RE, "refusal", "What's the traffic like on the road on this map right now?"),
        t(RE, "refusal", "The itinerary says we're in Rome tomorrow. What's the weather going "
          "to be like there?"),
    ],
    "quiz": [
        t(C, "weekday_of", "Quiz question {q}: what day of the week was {date:DMY}?",
          q=ints(1, 20), date=years(1950, 2010)),
        t(C, "month_days", "Quiz sheet, round two: how many days are there in {month} "
          "{year:d}?", month=MONTH, year=ints(1996, 2030)),
        t(C, "until_holiday", "Tonight's quiz sheet is Easter-themed. How many days is it "
          "until Easter?", holiday="easter"),
        t(C, "weekday_today", "The crossword wants today's day of the week. Which day of the "
          "week is it today?"),
        t(TI, "set", "The quiz sheet says {m} minutes for the picture round. Set a timer.",
          m=ints(11, 20)),
        t(TI, "set", "The sheet says we've got {len[0]} for the crossword. Start a timer.",
          len=LENGTH),
        t(TI, "left", ("Start a timer for {m} minutes, that's what the sheet gives for round "
                       "{r}.", "How long have we got left?"), m=ints(11, 20), r=ints(2, 6)),
        t(TI, "cancel", ("Set a {m} minute timer for the music round, like the sheet says.",
                         "Scratch that, we're skipping the round. Cancel the timer."),
          m=ints(11, 20)),
        t(AR, "pow", "Quiz question {q}: what's {a} to the power of {b}?", q=ints(1, 20),
          a=ints(2, 9), b=ints(3, 5)),
        t(AR, "sqrt", "Crossword clue says the square root of {a}. What is it?",
          a=square(11, 30)),
        t(AR, "mul", "Round {r}, question {q}: what's {a} times {b}?", r=ints(1, 6),
          q=ints(1, 10), a=ints(13, 99), b=ints(6, 19)),
        t(AR, "pct", "The sheet asks: what is {a:p} of {b}?", a=ints(5, 95, 5),
          b=ints(40, 800, 20)),
        t(UN, "conv", "Quiz question {q}: how many kilometres is {v} miles?", q=ints(1, 20),
          v=one(F(131, 10), F(262, 10), 5, 10, 50, 100), frm="mi", to="km"),
        t(UN, "conv", "The sheet asks how many kilograms is {v} stone.", v=ints(8, 16),
          frm="st", to="kg"),
        t(UN, "conv", "Question {q}: what's {v} knots in miles per hour?", q=ints(1, 20),
          v=ints(10, 40), frm="knot", to="mph"),
        t(UN, "conv", "Question {q}: how many metres are there in {v} yards?", q=ints(1, 20),
          v=ints(20, 220, 10), frm="yd", to="m"),
        t(SP, "spell", "Crossword's {n} letters across. How do you spell {word}?",
          word=word("quiz"), n=lambda c, v: len(v["word"])),
        t(SP, "spell", "The quiz sheet says {word} is the answer to the spelling round. How "
          "do you spell it?", word=word("quiz")),
        t(SP, "spell", "How do you spell {word}? We need it for the crossword.",
          word=word("quiz")),
        t(SP, "spell", "Round {r} is spelling. How do you spell {word}?", r=ints(2, 6),
          word=word("quiz")),
        t(FA, "capital", "Quiz sheet, question {q}: what is the capital of {country}?",
          q=ints(1, 20), country=country()),
        t(FA, "planet_most", "Question {q}: which planet is the largest?", q=ints(1, 20),
          which="largest"),
        t(FA, "moons", "Round {r} is space. How many moons does {planet} have?", r=ints(2, 6),
          planet=one(*PLANET)),
        t(FA, "planet_order", "The quiz wants to know: what number planet from the sun is "
          "{planet}?", planet=one(*PLANET)),
        t(FU, "capital", ("Quiz question {q}: what's the capital of {country1}?",
                          "And question {r}, the capital of {country}?"),
          q=ints(1, 18), r=lambda c, v: v["q"] + 1, country1=country(), country=country()),
        t(FU, "language", ("What's the capital of {country}? It's on the quiz sheet.",
                           "And what language do they speak there?"),
          op1="capital", country=country("language")),
        t(FU, "chain", ("Question {q}: what's {a} squared?",
                        "And the next question says take {c} off that."),
          q=ints(1, 20), a=ints(11, 30), b=2, c=ints(11, 99), f="pow", g="sub"),
        t(FU, "planet_at", ("Which planet is {order1:o} from the sun? Crossword clue.",
                            "And which one comes just before it?"),
          order1=ints(2, 8), order=lambda c, v: v["order1"] - 1),
        t(RE, "refusal", "Who won the football last night? It's a quiz question."),
        t(RE, "refusal", "What's the top news story today? Round {r} is current affairs.",
          r=ints(2, 6)),
        t(RE, "refusal", "Play the song in question {q} so we can guess it.", q=ints(2, 20)),
        t(RE, "refusal", "Message the quizmaster and tell him question {q} is wrong.",
          q=ints(2, 20)),
    ],
    "invitation": [
        t(C, "until_date", "The invitation says the party's on {date:DM}. How many days away "
          "is that?", date=ahead(6, 300)),
        t(C, "weekday_of", "The wedding invitation says {date:DMY}. Which day of the week is "
          "that?", date=ahead(30, 400)),
        t(C, "until_holiday", "The calendar has Valentine's Day circled. How many days until "
          "Valentine's Day?", holiday="valentine's day"),
        t(C, "date_in", "The invitation says reply within {n} days. What's the date {n} days "
          "from today?", n=ints(5, 21)),
        t(TI, "set", "The invitation says RSVP by phone. Remind me in {m} minutes to ring "
          "the host.",
          m=ints(11, 45)),
        t(TI, "set", "The invitation says drinks at seven and I need {m} minutes to get ready. "
          "Set a timer for that.", m=ints(20, 55)),
        t(TI, "left", ("Set a timer for {m} minutes, then I've got to leave for the party on "
                       "the invitation.", "How long's left on that timer?"), m=ints(11, 30)),
        t(TI, "cancel", ("Remind me in {len[0]} to wrap the present for the party on the "
                         "invitation.", "I've done it already. Cancel that reminder."),
          len=one(*LENGTHS[:5])),
        t(AR, "mul", "The invitation says {a} tables of {b} guests. How many people is that?",
          a=ints(6, 24), b=ints(6, 12)),
        t(AR, "div", "The calendar says the venue costs £{a:m} and {b} of us are sharing. How "
          "much each?", a=money(150, 900), b=ints(3, 12)),
        t(AR, "sub", "The invitation says he was born in {b:d} and the party's in {a:d}. "
          "What's {a:d} minus {b:d}?", a=ints(2026, 2030), b=ints(1930, 1990)),
        t(AR, "add", "The invitation list says {a} adults and {b} children. How many guests "
          "is that?", a=ints(20, 90), b=ints(11, 40)),
        t(UN, "conv", "The invitation says the venue's {v} kilometres from the station. How "
          "far is that in miles?", v=ints(3, 40), frm="km", to="mi"),
        t(UN, "conv", "The invitation says the pool is heated to {v} degrees Celsius. What's "
          "that in Fahrenheit?", v=ints(24, 32), frm="c", to="f"),
        t(UN, "conv", "The invitation card is {v} centimetres wide. How many inches is that?",
          v=ints(10, 21), frm="cm", to="in"),
        t(UN, "conv", "The calendar says the fun run is {v} metres. How many yards is that?",
          v=ints(400, 5000, 100), frm="m", to="yd"),
        t(SP, "spell", "How do you spell {word}? I'm writing the invitations.",
          word=word("invitation")),
        t(SP, "spell", "The calendar just says {word} in my handwriting. How do you spell it "
          "properly?", word=word("invitation")),
        t(SP, "spell", "I'm replying to the invitation. How do you spell {word}?",
          word=word("invitation")),
        t(SP, "spell", "Spelling check for the invitation: {word}. How do you spell that?",
          word=word("invitation")),
        t(FA, "capital", "The invitation's for a wedding in {country}. What's the capital city "
          "there?", country=country()),
        t(FA, "currency", "We're invited to a birthday in {country}. What currency will I "
          "need?", country=country()),
        t(FA, "language", "The invitation from my pen friend in {country} isn't in English. "
          "What language do they speak there?", country=country(foreign=True)),
        t(FA, "continent", "The calendar photo this month is of {country}. Which continent is "
          "that in?", country=country()),
        t(FU, "weekday_of", ("What day of the week is {date1:DMY}? It's the party on the "
                             "invitation.", "And the {date:o}, for the brunch?"),
          date1=ahead(10, 300), date=same_month("date1")),
        t(FU, "until_date", ("How many days until {date1:DM}? It's on the invitation.",
                             "And until {date:DM}?"), date1=ahead(5, 150), date=ahead(5, 300)),
        t(FU, "currency", ("What currency do they use in {country1}? The wedding's there.",
                           "And in {country}, for the honeymoon?"),
          country1=country(), country=country()),
        t(FU, "chain", ("The invitation says {a} guests per table and there are {b} tables. "
                        "How many guests?", "And if {c} can't make it?"),
          a=ints(6, 12), b=ints(5, 20), c=ints(3, 15), f="mul", g="sub"),
        t(RE, "refusal", "RSVP to this invitation for me by email."),
        t(RE, "refusal", "Call the venue and check they've got parking."),
        t(RE, "refusal", "Buy a present from the gift list on the invitation."),
        t(RE, "refusal", "What's the weather going to be like on the day of the wedding?"),
    ],
    "leaflet": [
        t(C, "date_in", "The seed packet says they come up in {n} days. If I sow them today, "
          "what date will that be?", n=ints(7, 28)),
        t(C, "until_holiday", "The garlic packet says plant before New Year. How many days is "
          "it until New Year?", holiday="new year"),
        t(C, "time_now", "The leaflet says don't drill after dark. What time is it now?"),
        t(C, "month_days", "The packet says sow any time in {month}. How many days are in "
          "{month} {year:d}?", month=MONTH, year=this_year),
        t(TI, "set", "The leaflet says let the glue dry for {m} minutes. Set a timer.",
          m=ints(15, 45)),
        t(TI, "set", "The seed packet says soak the seeds for {len[0]}. Can you set a timer "
          "for that?", len=LENGTH),
        t(TI, "left", ("The instructions say leave the varnish {m} minutes, so set a timer.",
                       "How long has it got left?"), m=ints(11, 30)),
        t(TI, "cancel", ("Set a timer for {m} minutes, the leaflet says the glue needs that "
                         "long.", "Oh, it's the quick-drying one. Cancel the timer."),
          m=ints(15, 40)),
        t(AR, "mul", "The leaflet says {a} screws for each shelf, and there are {b} shelves. "
          "How many screws is that?", a=ints(4, 12), b=ints(3, 9)),
        t(AR, "div", "The seed packet has {a} seeds and I want them in {b} rows. How many "
          "seeds per row?", b=ints(3, 8), a=times("b", 5, 15)),
        t(AR, "sub", "The leaflet lists {a} parts and I've counted {b}. How many are missing?",
          a=ints(40, 120), b=below("a", 20)),
        t(AR, "off", "The leaflet has a coupon for {b:p} off the matching wardrobe, which costs "
          "£{a:m}. What would I pay?", a=money(90, 400), b=one(10, 15, 20, 25)),
        t(UN, "conv", "The leaflet says the shelf is {v} centimetres long. How many inches is "
          "that?", v=ints(30, 120, 5), frm="cm", to="in"),
        t(UN, "conv", "The seed packet says sow {v} inches apart. What's that in centimetres?",
          v=ints(2, 12), frm="in", to="cm"),
        t(UN, "conv", "The leaflet says each shelf holds {v} kilograms at most. How many "
          "pounds is that?", v=ints(10, 40), frm="kg", to="lb"),
        t(UN, "conv", "The packet says it grows to {v} feet tall. How many metres is that?",
          v=ints(4, 12), frm="ft", to="m"),
        t(SP, "spell", "The flat-pack leaflet calls this bit a {word}. How do you spell "
          "{word}?", word=word("flatpack")),
        t(SP, "spell", "The seed packet says {word}. How do you spell it for my garden "
          "notebook?", word=word("seeds")),
        t(SP, "spell", "How do you spell {word}? The leaflet's only got pictures.",
          word=word("flatpack")),
        t(SP, "spell", "I'm writing a label for the pot. How do you spell {word}, as on the "
          "packet?", word=word("seeds")),
        t(FA, "language", "The leaflet came from {country} and it's not in English. What "
          "language do they speak there?", country=country(foreign=True)),
        t(FA, "continent", "The seed packet says the plant's native to {country}. Which "
          "continent is that?", country=country()),
        t(FA, "currency", "The flat-pack box came from {country}. What currency do they use "
          "there?", country=country()),
        t(FA, "planet_most", "The seed packet says full sun. Speaking of the sun, which planet "
          "is the hottest?", which="hottest"),
        t(FU, "conv", ("The packet says sow {v1} inches apart. What's that in centimetres?",
                       "And the rows {v} inches apart?"), v1=ints(2, 8), v=ints(9, 24),
          frm="in", to="cm"),
        t(FU, "chain", ("The leaflet says {a} screws per panel and there are {b} panels. How "
                        "many screws?", "And the bag has {c} spare ones too, so what's the "
                        "total?"), a=ints(4, 10), b=ints(3, 8), c=ints(2, 9), f="mul", g="add"),
        t(FU, "language", ("The seed packet says it's from {country}. Which continent is "
                           "that?", "And what language do they speak there?"),
          op1="continent", country=country("language")),
        t(FU, "spell", ("How do you spell {word1}? It's on the seed packet.", "And {word}?"),
          word1=word("seeds"), word=word("seeds")),
        t(RE, "refusal", "Order the missing screw from the flat-pack company."),
        t(RE, "refusal", "Turn on the garden sprinklers, the packet says water daily."),
        t(RE, "refusal", "Will it rain this week? The packet says plant after rain."),
        t(RE, "refusal", "Call the furniture shop and complain about the missing parts."),
    ],
}  # fmt: skip


# --- rendering --------------------------------------------------------------------------------
def _digits(q: F | int, commas: bool) -> str:
    """A number in digits: "1,250" (with commas), "2.5", "84.6"."""
    q = F(q)
    places = next(p for p in range(7) if (q * 10**p).denominator == 1)
    whole, frac = divmod(int(q * 10**places), 10**places)
    head = f"{whole:,}" if commas else str(whole)
    return head + (f".{str(frac).rjust(places, '0')}" if places else "")


class _Say(string.Formatter):
    """Values as each channel writes them."""

    def __init__(self, channel: str) -> None:
        self.spoken = channel == "spoken"

    def format_field(self, v, spec: str) -> str:
        sp = self.spoken
        if isinstance(v, date):
            m = MONTHS[v.month - 1]
            if spec == "DM":
                return f"the {nth(v.day)} of {m}" if sp else f"{nth(v.day)} {m}"
            if spec == "DMY":
                return f"the {nth(v.day)} of {m}, {v.year}" if sp else f"{v.day} {m} {v.year}"
            return nth(v.day)
        if isinstance(v, tuple):  # a clock time
            return f"{v[0]}:{v[1]:02d}"
        if isinstance(v, str):
            return v
        if spec == "d":
            return str(v)
        if spec == "p":
            return _digits(v, False) + "%"
        if spec == "m":
            q = F(v)
            whole, cents = divmod(int(q * 100), 100)
            head = f"{whole:,}" if sp else str(whole)
            return head if q.denominator == 1 else f"{head}.{cents:02d}"
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


# --- guards -----------------------------------------------------------------------------------
NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


def said_back(text: str) -> str:
    """The text's numbers in words, as a reply repeating them would say them: "question 12"
    → "twelve twelfth", "2027" → "two thousand and twenty seven twenty twenty seven"."""
    out = []
    for m in NUM.finditer(text):
        q = F(m.group().rstrip(",").replace(",", ""))
        out.append(said(q))
        if q.denominator == 1 and 1100 <= q < 2100:
            out.append(year_words(int(q)))
        if q.denominator == 1 and q < 100:
            out.append(ordinal_words(int(q)))
    return " ".join(out)


def repeats(expect: tuple[str, ...], turns: tuple[str, ...]) -> bool:
    """Whether an expected answer is in a turn's text or among its numbers said back."""
    heard = [_norm(x) for turn in turns for x in (turn, said_back(turn))]
    return any(_norm(e) in h for e in expect for h in heard)


# --- the builder ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    """A request with where it came from: its source, channel and the calc of its answer (the
    operation and operands; ``first`` for a follow-up's first turn)."""

    request: Request
    source: str
    channel: str
    calc: dict


UNIQUE_KEYS = ("word", "word1", "country", "country1", "planet")


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
    return calc_of(tpl.op1 or tpl.op, firsts)


def _make(tpl: T, source: str, channel: str, ctx: Ctx, now: datetime, used: set,
          said_turns: set) -> Built:  # fmt: skip
    for _ in range(2000):
        vals = _draw(tpl, ctx)
        if any(vals.get(k) in used for k in UNIQUE_KEYS if k in vals):
            continue
        if vals.get("word1") is not None and vals["word1"] == vals.get("word"):
            continue
        calc = calc_of(tpl.op, vals)
        expect = answer(calc, now)
        v = value(calc)
        if v is not None and v < 1:
            continue
        turns = tuple(render(x, vals, channel) for x in tpl.turns)
        if turns in said_turns or repeats(expect, turns):
            continue
        first = _first(tpl, vals)
        if first is not None:
            calc["first"] = first
            before = " | ".join(_norm(e) for e in answer(first, now))
            if any(_norm(e) in before for e in expect):
                continue
            same = "country" in calc and first.get("country") == calc["country"]
            if same and not unique(calc["op"], calc["country"]):
                continue
        used.update(vals[k] for k in UNIQUE_KEYS if k in vals)
        said_turns.add(turns)
        after = CLEAR if tpl.kind == "timer" else ()
        return Built(Request(turns, tpl.kind, expect, after), source, channel, calc)
    raise ValueError(f"no draw of {tpl.turns} passes the guards")


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """The set with each request's source, channel and calc: the same ``seed`` and ``now``
    give the same records; clock answers are for ``now`` (default: the real clock)."""
    now = now or datetime.now()
    rng = random.Random(seed)
    ctx = Ctx(rng, now.date())
    used: dict[str, set] = {k: set() for k in KINDS}
    said_turns: set = set()
    out: list[Built] = []
    for source, templates in TEMPLATES.items():
        for kind in KINDS:
            cell = [x for x in templates if x.kind == kind]
            channels = list(CHANNELS) * (len(cell) // 2) + list(CHANNELS[: len(cell) % 2])
            rng.shuffle(channels)
            for tpl, channel in zip(cell, channels, strict=True):
                out.append(_make(tpl, source, channel, ctx, now, used[kind], said_turns))
    return out


def sources(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The sources set (see the module's docstring): 256 requests, 32 per kind."""
    return [b.request for b in built(seed, now)]


if __name__ == "__main__":
    for b in built():
        print(f"{b.source:<10} {b.channel:<6} {b.request.kind:<10} "
              f"{' / '.join(b.request.turns)} → {b.request.expect}")  # fmt: skip
