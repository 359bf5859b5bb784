"""Households set for ``bench/skills.py --requests households``: 224 held-out requests from
eight households around the world that speak English as their shared language, each with an
answer worked out here.

The generator is the household, not a scene, a frame, a persona, a working day or a syntactic
transformation: an Indian family in Bangalore, a Nigerian family in Lagos, an Australian
share-house in Melbourne, a Scottish grandparent in Glasgow, a Filipino nurse in Dubai, a
Canadian family in Toronto, a Singaporean student and an Irish farmer in Kerry. Each asks all
eight kinds (clock, timer, arithmetic, units, spelling, facts, follow-up, refusal) in its own
regional English ("kindly tell me", "abeg", "chuck a timer on", "the noo", "po", "eh", "can or
not", "so"), with its own units (stone, Celsius below zero, US cups in an American recipe,
imperial gallons of diesel), its own money and taxes (18% GST, 7.5% VAT, 13% HST, 9% GST, 5%
VAT), its own dates (the 15th of August, the 1st of October, Australia Day, National Day, Canada
Day) and the common holidays the clock can count to (Christmas, New Year, Halloween, Easter,
Valentine's Day, St Patrick's Day, Boxing Day), and its own everyday reasons.

- **Literal sentences, only values slotted.** Every request below is one sentence written for
  its household; the seeded generator only draws its numbers, countries, planets, days, months
  and words, each sentence from its own small list (countries from one pool, without
  replacement).
- **Typed or spoken.** Each request says how it reaches the assistant: ``typed`` (as people
  type: lower case, "pls", "wat", "u", "w", digits, "40k") or ``spoken`` (as Whisper writes
  speech: capitals and punctuation, numbers up to ten in words and larger ones in digits with
  thousands commas, "%", "$", "£").
- **Checks worked out here**: arithmetic with :class:`fractions.Fraction`, conversions from the
  exact unit definitions of ``bench/everyday.py`` (plus the imperial gallon, 4.54609 l, where a
  Scot or an Irish farmer may mean it: then either gallon counts; an American recipe's cup is
  the US cup), calendar counts with :mod:`datetime` (Easter by the Gregorian computus), facts
  from ``training/facts.py``'s tables. Expected text is what ``useful()`` looks for: numbers in
  words as the assistant says them (``bench.everyday.said``/``number``); a numeric answer whose
  words appear among the request's own numbers said back is drawn again; a currency that is a
  substring of other words ("euro" in "Europe", "won", "real") is expected in a longer form; a
  follow-up asking another fact of the same country draws a country whose answer no other
  country shares. A refusal expects nothing (``expect == ()``).
- **Timers are cleared**: every request that sets a timer is followed, unscored, by "cancel all
  my timers".

Each request comes with its household, channel and a ``calc`` record of what it asks, which
``tests/test_households.py`` re-derives independently.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction as F

from bench.everyday import (
    CLEAR,
    CM,
    CUP,
    FOOT,
    GALLON,
    INCH,
    KM,
    KMH,
    MILE,
    ML,
    MPH,
    POUND,
    STONE,
    YARD,
    c_to_f,
    duration,
    letters,
    nth,
    number,
    said,
)
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from training.facts import COUNTRIES, MONTH_DAYS, PLANETS, Country
from words.calendar import year_words
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
SEED = 0
HOUSEHOLDS = {
    "bangalore": "an Indian family in Bangalore",
    "lagos": "a Nigerian family in Lagos",
    "melbourne": "an Australian share-house in Melbourne",
    "glasgow": "a Scottish grandparent in Glasgow",
    "dubai": "a Filipino nurse in Dubai",
    "toronto": "a Canadian family in Toronto",
    "singapore": "a Singaporean student",
    "kerry": "an Irish farmer in County Kerry",
}
# the household's own country, which it does not ask about
HOME = {"bangalore": "India", "lagos": "Nigeria", "melbourne": "Australia",
        "glasgow": "the United Kingdom", "toronto": "Canada", "kerry": "Ireland"}  # fmt: skip
CHANNELS = ("typed", "spoken")
T, S = CHANNELS

# --- units (SI base: metre, kilogram, litre, metre per second; temperatures apart) ------------
UNITS: dict[str, F] = {
    "mile": MILE, "km": KM, "m": F(1), "cm": CM, "inch": INCH, "foot": FOOT, "yard": YARD,
    "kg": F(1), "pound": POUND, "stone": STONE, "gram": F(1, 1000),
    "litre": F(1), "ml": ML, "gallon_us": GALLON, "gallon_imp": F("4.54609"), "cup_us": CUP,
    "kmh": KMH, "mph": MPH,
}  # fmt: skip


def convert(amount: F | int | str, src: str, tgt: str) -> F:
    a = F(amount)
    if (src, tgt) == ("C", "F"):
        return c_to_f(a)
    if (src, tgt) == ("F", "C"):
        return (a - 32) * 5 / 9
    return a * UNITS[src] / UNITS[tgt]


# --- the calendar -------------------------------------------------------------------------------
HOLIDAYS = {
    "christmas": (12, 25), "boxing": (12, 26), "new_year": (1, 1), "new_year_eve": (12, 31),
    "halloween": (10, 31), "valentine": (2, 14), "patrick": (3, 17),
}  # fmt: skip


def easter(year: int) -> date:
    """Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


def next_date(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def next_easter(today: date) -> date:
    d = easter(today.year)
    return d if d >= today else easter(today.year + 1)


def until(today: date, d: date) -> str:
    n = (d - today).days
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


# --- facts ------------------------------------------------------------------------------------
def capital(c: Country) -> tuple[str, ...]:
    return (c.capital.split(",")[0],)  # "Washington, D.C." → "Washington"


def continent(c: Country) -> tuple[str, ...]:
    return (c.continent.removeprefix("both "),)


def language(c: Country) -> tuple[str, ...]:
    """"Hindi and English", or "English and Hindi"."""
    parts = c.language.split(" and ")
    swapped = (f"{parts[1]} and {parts[0]}",) if len(parts) == 2 and "," not in parts[0] else ()
    return (c.language, *swapped)


# currencies whose bare name is inside other words ("euro" in "Europe", "won", "real")
LONGER = {"euro": ("the euro", "euros"), "won": ("the won", "Korean won"),
          "real": ("the real", "Brazilian real", "reais"), "ruble": ("ruble", "rouble"),
          "pound sterling": ("pound sterling", "British pound")}  # fmt: skip


def currency(c: Country) -> tuple[str, ...]:
    name = c.currency.removeprefix("the ")
    return LONGER.get(name, (name,))


FIELDS: dict[str, Callable[[Country], tuple[str, ...]]] = {
    "capital": capital, "continent": continent, "language": language, "currency": currency,
}  # fmt: skip


def unique(field: str, c: Country) -> bool:
    """No other country's answer holds this one's (nor the other way round)."""
    mine = [_norm(e) for e in FIELDS[field](c)]
    for o in COUNTRIES:
        if o is c:
            continue
        theirs = [_norm(e) for e in FIELDS[field](o)]
        if any(a in b or b in a for a in mine for b in theirs):
            return False
    return True


def differs(field: str, a: Country, b: Country) -> bool:
    """``b``'s answer neither holds nor is held by ``a``'s."""
    x, y = [_norm(e) for e in FIELDS[field](a)], [_norm(e) for e in FIELDS[field](b)]
    return a is not b and not any(p in q or q in p for p in x for q in y)


BY_ORDER = {p.order: p for p in PLANETS}


def moons(order: int) -> tuple[str, ...]:
    p = BY_ORDER[order]
    phrase = re.search(r"has (.+? moons?)\b", p.moons)
    named = [w for w in re.findall(r"\b[A-Z][a-z]+\b", p.moons) if w not in (p.name, "Moon")]
    return tuple(dict.fromkeys([p.moons_answer, *([phrase.group(1)] if phrase else []), *named]))


def place(order: int) -> tuple[str, ...]:
    return (ordinal_words(order), f"number {int_words(order)}")


def month_days(m: int) -> tuple[str, ...]:
    n = MONTH_DAYS[m - 1]
    return (f"{int_words(n)} days",) + (("twenty nine days",) if m == 2 else ())


# --- how numbers are written --------------------------------------------------------------------
def dig(x: F | int | str) -> str:
    """Digits as typed: 2400, 7.5."""
    q = F(x)
    if q.denominator == 1:
        return str(int(q))
    return f"{float(q):.6f}".rstrip("0").rstrip(".")


def wh(x: F | int | str) -> str:
    """As Whisper writes a spoken number: up to ten in words, then digits, thousands commas."""
    q = F(x)
    if q.denominator == 1 and 0 <= q <= 10:
        return int_words(int(q))
    if q.denominator == 1:
        return f"{int(q):,}"
    return dig(q)


# --- the builder ------------------------------------------------------------------------------
@dataclass
class Row:
    household: str
    channel: str  # "typed", or "spoken" as Whisper writes it
    request: Request
    calc: tuple  # what it asks, for the tests to work out again


class _Pool:
    """Values drawn without replacement (refilled when used up), in the seed's order."""

    def __init__(self, rng: random.Random, values: Sequence) -> None:
        self.rng, self.values, self.left = rng, list(values), []

    def take(self, ok: Callable[[object], bool] = lambda v: True):
        if not any(ok(v) for v in self.left):
            self.left = list(self.values)
            self.rng.shuffle(self.left)
        v = next(v for v in self.left if ok(v))
        self.left.remove(v)
        return v


class _House:
    def __init__(self, key: str, rng: random.Random, now: datetime, rows: list[Row],
                 countries: _Pool) -> None:  # fmt: skip
        self.key, self.rng, self.now, self.rows, self._countries = key, rng, now, rows, countries
        self.home = HOME.get(key)
        self.today = now.date()

    # values
    def pick(self, values: Sequence):
        return self.rng.choice(list(values))

    def two(self, values: Sequence) -> tuple:
        a, b = self.rng.sample(list(values), 2)
        return a, b

    def country(self, ok: Callable[[Country], bool] = lambda c: True) -> Country:
        """A country from the shared pool, never the household's own."""
        return self._countries.take(lambda c: c.name != self.home and ok(c))

    def name(self, c: Country) -> str:
        return self.rng.choice(c.surfaces)

    # requests
    def ask(self, ch: str, kind: str, turns: str | tuple[str, ...], expect: Sequence[str],
            calc: tuple, timer: bool = False) -> None:  # fmt: skip
        turns = (turns,) if isinstance(turns, str) else tuple(turns)
        after = CLEAR if timer or kind == "timer" else ()
        req = Request(turns, kind, tuple(expect), after)
        self.rows.append(Row(self.key, ch, req, calc))

    def num(self, ch: str, kind: str, options: Sequence, make: Callable) -> None:
        """``make(*option)`` → (turns, value or expected words, operands, calc), with an option
        drawn whose answer is not among the request's own numbers said back."""
        opts = [o if isinstance(o, tuple) else (o,) for o in options]
        self.rng.shuffle(opts)
        for o in opts:
            turns, value, operands, calc = make(*o)
            expect = value if isinstance(value, tuple) else number(value)
            back = " ".join(said(F(x)) for x in operands)
            if not any(_norm(e) in _norm(back) for e in expect):
                return self.ask(ch, kind, turns, expect, calc)
        raise ValueError(f"every option repeats its answer: {options}")

    def refuse(self, ch: str, text: str) -> None:
        self.ask(ch, "refusal", text, (), ("refusal",))

    # the clock's answers
    def hour(self) -> tuple[str, ...]:
        return (int_words(self.now.hour % 12 or 12),)

    def date(self) -> tuple[str, ...]:
        m, d = MONTHS[self.now.month - 1], ordinal_words(self.now.day)
        return (f"{m} {d}", f"{d} of {m}")

    def weekday(self) -> tuple[str, ...]:
        return (WEEKDAYS[self.now.weekday()],)

    def year(self) -> tuple[str, ...]:
        return (year_words(self.now.year),)

    def till(self, month: int, day: int) -> tuple[str, ...]:
        return (until(self.today, next_date(self.today, month, day)),)

    def holiday(self, name: str) -> tuple[str, ...]:
        return self.till(*HOLIDAYS[name])


def timed(seconds: int) -> tuple[str, ...]:
    return (duration(seconds),)


def left(minutes: int) -> tuple[str, ...]:
    """What's left on a timer of ``minutes`` just set: its length or a minute or two under."""
    return tuple(f"{int_words(n)} minute" for n in (minutes, minutes - 1, minutes - 2))


CANCELLED = ("cancelled", "canceled")


def built(seed: int = SEED, now: datetime | None = None) -> list[Row]:
    """Every request with its household, channel and calc record."""
    rng = random.Random(seed)
    now = now or datetime.now()
    rows: list[Row] = []
    countries = _Pool(rng, COUNTRIES)
    for key, write in HOUSEHOLDS_WRITE.items():
        write(_House(key, rng, now, rows, countries))
    return rows


def households(seed: int = SEED, now: datetime | None = None) -> list[Request]:
    """The households set: the same ``seed`` gives the same requests; clock answers are for
    ``now`` (default: the real clock)."""
    return [r.request for r in built(seed, now)]


# --- an Indian family in Bangalore --------------------------------------------------------------
def _bangalore(h: _House) -> None:
    # clock
    h.ask(S, "clock", "Kindly tell me what is the time now.", h.hour(), ("clock", "hour"))
    h.ask(T, "clock", "what is today's date? need to write it on the cheque", h.date(),
          ("clock", "date"))  # fmt: skip
    h.ask(S, "clock", "How many days are left for the 15th of August?", h.till(8, 15),
          ("until", 8, 15))  # fmt: skip
    # timers
    n = h.pick((7, 8, 12, 15))
    h.ask(S, "timer", f"Keep a timer for {wh(n)} minutes for the pressure cooker.",
          timed(n * 60), ("timer", n * 60))  # fmt: skip
    n = h.pick((2, 3, 4))
    h.ask(T, "timer", f"set timer for {n} hours, dal is soaking", timed(n * 3600),
          ("timer", n * 3600))  # fmt: skip
    n = h.pick((10, 15, 20))
    h.ask(S, "timer", f"Remind me in {wh(n)} minutes to switch off the geyser.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    # arithmetic
    h.num(T, "arithmetic", (1200, 2400, 3500, 4800, 650), lambda a: (
        f"what is 18% gst on {a} rupees", F(a) * 18 / 100, (18, a), ("expr", f"{a} * 18 / 100")))
    h.num(S, "arithmetic", ((45, 12), (36, 8), (125, 16), (64, 24)), lambda a, b: (
        f"What is {wh(a)} into {wh(b)}?", F(a) * b, (a, b), ("expr", f"{a} * {b}")))
    h.num(T, "arithmetic", ((9000, 7), (12000, 5), (8500, 6), (11000, 9)), lambda a, m: (
        f"salary of our cook is {a} per month, total for {m} months is how much?", F(a) * m,
        (a, m), ("expr", f"{a} * {m}")))
    h.num(S, "arithmetic", (729, 576, 841, 1024, 361), lambda s: (
        f"My son is asking, what is the square root of {wh(s)}?", F(round(s**0.5)), (s,),
        ("expr", f"{s} ** 0.5")))
    # units
    h.num(S, "units", (28, 35, 42, 55), lambda m: (
        f"My cousin in America drives {wh(m)} miles to office, how many kilometres is that?",
        convert(m, "mile", "km"), (m,), ("conv", m, "mile", "km")))
    h.num(T, "units", (24, 27, 31, 33, 36), lambda c: (
        f"{c} degree celsius in fahrenheit?", convert(c, "C", "F"), (c,), ("conv", c, "C", "F")))
    h.num(S, "units", ("2", "3", "1.5", "2.5"), lambda p: (
        f"The recipe is from an American website, how many grams is {wh(p)} pounds of flour?",
        convert(p, "pound", "gram"), (F(p),), ("conv", F(p), "pound", "gram")))
    # spelling
    for ch, words, say in (
        (S, ("Bengaluru", "Thiruvananthapuram", "Visakhapatnam", "Mangaluru"),
         "Can you spell {}? I have to fill it in a form."),
        (T, ("colleague", "receipt", "guarantee", "cheque"), "spelling of {} pls"),
        (S, ("pronunciation", "environment", "knowledge", "handkerchief"),
         "Tell me the spelling of {}, my daughter has dictation tomorrow."),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    # facts
    c = h.country()
    h.ask(T, "facts", f"what is the capital of {h.name(c)} only?", capital(c),
          ("capital", c.name))  # fmt: skip
    c = h.country()
    h.ask(S, "facts", f"Which currency do they use in {h.name(c)}? My brother-in-law is going "
          "there for work.", currency(c), ("currency", c.name))  # fmt: skip
    o = h.pick(range(1, 9))
    h.ask(S, "facts", f"Kindly tell me which planet is {ordinal_words(o)} from the sun.",
          (BY_ORDER[o].name,), ("nth_planet", o))  # fmt: skip
    m = h.pick(range(1, 13))
    h.ask(T, "facts", f"{MONTHS[m - 1].lower()} is which number month", (ordinal_words(m),
          f"month {int_words(m)}"), ("month_number", MONTHS[m - 1]))  # fmt: skip
    # follow-ups
    a = h.country()
    b = h.country(lambda c: c is not a)
    h.ask(S, "follow-up", (f"What is the capital of {h.name(a)}, do you know?",
                           f"Same for {h.name(b)} also."), capital(b), ("capital", b.name))
    h.num(T, "follow-up", ((2450, 1750, 4), (3200, 1600, 6), (1890, 2310, 5), (4500, 2700, 8)),
          lambda a, b, k: ((f"total of {a} and {b} is what", f"now divide the same by {k}"),
                           (F(a) + b) / k, (a, b, k), ("expr", f"({a} + {b}) / {k}")))
    n = h.pick((6, 9, 11, 13))
    h.ask(S, "follow-up", (f"Put a timer of {wh(n)} minutes for the milk, it is boiling.",
                           "How much time is remaining?"), left(n), ("left", n * 60), timer=True)
    h.ask(S, "follow-up", ("How many days are there for New Year?",
                           "And how many for Christmas?"), h.holiday("christmas"),
          ("until", 12, 25))  # fmt: skip
    w1, w2 = h.two(("Mysuru", "Hubballi", "Belagavi", "Davanagere"))
    h.ask(S, "follow-up", (f"Can you spell {w1} for me?", f"Now {w2} also."), (letters(w2),),
          ("spell", w2))  # fmt: skip
    # refusals
    h.refuse(S, "Call my son-in-law on his mobile.")
    h.refuse(T, "order 2 masala dosa from swiggy")
    h.refuse(S, "What is the traffic like on Outer Ring Road right now?")


# --- a Nigerian family in Lagos -----------------------------------------------------------------
def _lagos(h: _House) -> None:
    h.ask(S, "clock", "Abeg, what time is it now?", h.hour(), ("clock", "hour"))
    h.ask(T, "clock", "wat day is today abeg", h.weekday(), ("clock", "weekday"))
    h.ask(S, "clock", "How many days remain until the 1st of October?", h.till(10, 1),
          ("until", 10, 1))  # fmt: skip
    n = h.pick((6, 7, 8, 9))
    h.ask(S, "timer", f"Set timer for {wh(n)} minutes, I'm frying plantain.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((20, 25, 40, 45))
    h.ask(T, "timer", f"remind me in {n} mins to off the gen", timed(n * 60), ("timer", n * 60))
    n = h.pick((20, 25, 30))
    h.ask(S, "timer", (f"Set a {wh(n)} minute timer for the jollof.",
                       "Abeg cancel that timer, the rice don done."), CANCELLED,
          ("cancel", n * 60))  # fmt: skip
    h.num(T, "arithmetic", ((3500, 12), (2750, 6), (1800, 15), (4200, 8)), lambda a, b: (
        f"abeg wetin be {a} times {b}", F(a) * b, (a, b), ("expr", f"{a} * {b}")))
    h.num(S, "arithmetic", ((20000, 7450), (35000, 12800), (18500, 9750)), lambda a, b: (
        f"How far? What's {wh(a)} minus {wh(b)}?", F(a) - b, (a, b), ("expr", f"{a} - {b}")))
    h.num(S, "arithmetic", ((15000, 4), (9000, 6), (12500, 5), (18000, 8)), lambda a, n: (
        f"If I share {wh(a)} naira among {wh(n)} children, how much does each one get?",
        F(a) / n, (a, n), ("expr", f"{a} / {n}")))
    h.num(T, "arithmetic", (40, 12, 86, 24), lambda k: (
        f"wetin be 7.5% vat on {k}k", F(k * 1000) * F("7.5") / 100, (F("7.5"), k * 1000),
        ("expr", f"{k * 1000} * 7.5 / 100")))
    h.num(S, "units", (95, 88, 102, 77), lambda f: (
        f"My sister in Houston says it's {wh(f)} degrees there, what's that in Celsius?",
        convert(f, "F", "C"), (f,), ("conv", f, "F", "C")))
    h.num(T, "units", (12, 15, 20, 8), lambda n: (
        f"how many metres is {n} feet, the carpenter is measuring in feet",
        convert(n, "foot", "m"), (n,), ("conv", n, "foot", "m")))
    h.num(S, "units", (23, 32, 46, 18), lambda kg: (
        f"My luggage is {wh(kg)} kilos, how many pounds is that?", convert(kg, "kg", "pound"),
        (kg,), ("conv", kg, "kg", "pound")))
    for ch, words, say in (
        (T, ("Ogbomosho", "Onitsha", "Abeokuta", "Oshogbo"), "how do u spell {}"),
        (S, ("occasionally", "acquaintance", "pharmaceutical", "entrepreneur"),
         "Abeg spell {} for me."),
        (S, ("ceremony", "reception", "celebration", "thanksgiving"),
         "How do you spell {}? I'm writing the invitation card."),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"Which continent is {h.name(c)} in? My son has a geography test.",
          continent(c), ("continent", c.name))  # fmt: skip
    c = h.country()
    h.ask(T, "facts", f"which language do they speak in {h.name(c).lower()} abeg", language(c),
          ("language", c.name))  # fmt: skip
    h.ask(S, "facts", "Which planet is the hottest one? My daughter wants to know.", ("Venus",),
          ("superlative", "hottest"))  # fmt: skip
    d = h.pick(range(7))
    h.ask(T, "facts", f"which day come after {WEEKDAYS[d].lower()}", (WEEKDAYS[(d + 1) % 7],),
          ("day_after", WEEKDAYS[d], 1))  # fmt: skip
    c = h.country(lambda c: unique("currency", c))
    h.ask(S, "follow-up", (f"What is the capital of {h.name(c)}, abeg?",
                           "And their currency nko?"), currency(c), ("currency", c.name))
    m = h.pick(range(12))
    h.ask(T, "follow-up", (f"abeg which month comes after {MONTHS[m].lower()}",
                           "and the one after it nko"), (MONTHS[(m + 2) % 12],),
          ("month_after", MONTHS[m], 2))  # fmt: skip
    pairs = [(a, b) for a in (12, 30, 45, 60, 18) for b in (12, 30, 45, 60, 18) if a != b]
    h.num(S, "follow-up", pairs, lambda a, b: (
        (f"How many centimetres is {wh(a)} inches?", f"What of {wh(b)} inches?"),
        convert(b, "inch", "cm"), (a, b), ("conv", b, "inch", "cm")))
    h.num(S, "follow-up", ((1250, 750, 3), (2400, 600, 5), (850, 150, 12), (1700, 300, 4)),
          lambda a, b, k: ((f"Wetin be {wh(a)} plus {wh(b)}?", f"Multiply am by {wh(k)}."),
                           (F(a) + b) * k, (a, b, k), ("expr", f"({a} + {b}) * {k}")))
    n = h.pick((12, 14, 16, 18))
    h.ask(S, "follow-up", (f"Set timer for {wh(n)} minutes for the beans.",
                           "How much time remain?"), left(n), ("left", n * 60), timer=True)
    h.refuse(S, "Abeg play Burna Boy for me.")
    h.refuse(T, "send my mum 5k on opay")
    h.refuse(S, "What's the dollar to naira rate today?")


# --- an Australian share-house in Melbourne -----------------------------------------------------
def _melbourne(h: _House) -> None:
    h.ask(T, "clock", "what's the time mate", h.hour(), ("clock", "hour"))
    h.ask(S, "clock", "What's the date today? Gotta pay the rent.", h.date(), ("clock", "date"))
    h.ask(S, "clock", "How long till Australia Day, the 26th of January?", h.till(1, 26),
          ("until", 1, 26))  # fmt: skip
    n = h.pick((10, 12, 14, 16))
    h.ask(S, "timer", f"Chuck a timer on for {wh(n)} minutes, the snags are on.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((35, 40, 50, 55))
    h.ask(T, "timer", f"set a timer for {n} mins, the washing'll be done then", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    a, b = h.pick((45, 50, 40)), h.pick((20, 25, 30))
    h.ask(S, "timer", (f"Set a timer for {wh(a)} minutes for the pav.",
                       f"And another one for {wh(b)} minutes for the spuds.",
                       "How many timers have I got going?"), ("two timers",), ("timers", 2))
    h.num(T, "arithmetic", ((1020, 4), (960, 3), (1150, 5), (840, 4)), lambda a, n: (
        f"rent's {a} a week split {n} ways, how much each", F(a) / n, (a, n),
        ("expr", f"{a} / {n}")))
    h.num(S, "arithmetic", ((147, 89, 212), (236, 118, 95), (172, 64, 309), (98, 254, 133)),
          lambda a, b, c: (f"Reckon you could add up {wh(a)}, {wh(b)} and {wh(c)}? It's the "
                           "bills.", F(a) + b + c, (a, b, c), ("expr", f"{a} + {b} + {c}")))
    h.num(S, "arithmetic", ((20, 80), (15, 60), (25, 140), (30, 90)), lambda p, a: (
        f"What's {p}% off {wh(a)} bucks?", F(a) * (100 - p) / 100, (p, a),
        ("expr", f"{a} * (100 - {p}) / 100")))
    h.num(T, "arithmetic", (17, 23, 31, 14), lambda a: (
        f"whats {a} squared mate", F(a) ** 2, (a,), ("expr", f"{a} ** 2")))
    h.num(S, "units", (110, 80, 60, 40), lambda k: (
        f"What's {wh(k)} kilometres an hour in miles per hour? My mate from the States is "
        "asking.", convert(k, "kmh", "mph"), (k,), ("conv", k, "kmh", "mph")))
    h.num(T, "units", ("2", "3", "1.5", "0.75"), lambda c: (
        f"how many ml in {c} cups, the recipe's american", convert(c, "cup_us", "ml"), (F(c),),
        ("conv", F(c), "cup_us", "ml")))
    h.num(S, "units", (11, 13, 9, 15), lambda st: (
        f"How many kilos is {wh(st)} stone? My English flatmate weighs himself in stone.",
        convert(st, "stone", "kg"), (st,), ("conv", st, "stone", "kg")))
    for ch, words, say in (
        (S, ("Wollongong", "Toowoomba", "Mooroolbark", "Warrnambool"),
         "How do you spell {}, mate?"),
        (T, ("conscientious", "liaison", "proficient", "experience"),
         "spell {} for me, doing my resume"),
        (S, ("apologies", "appreciate", "sincerely", "regards"),
         "Can you spell {}? I'm writing a card for the landlord."),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"Quick one, what's the capital of {h.name(c)}?", capital(c),
          ("capital", c.name))  # fmt: skip
    c = h.country()
    h.ask(T, "facts", f"what's the currency in {h.name(c)} again", currency(c),
          ("currency", c.name))  # fmt: skip
    h.ask(S, "facts", "Trivia night question, which is the smallest planet?", ("Mercury",),
          ("superlative", "smallest"))  # fmt: skip
    d = h.pick(range(7))
    h.ask(T, "facts", f"what's the day before {WEEKDAYS[d].lower()}, doing my roster",
          (WEEKDAYS[(d - 1) % 7],), ("day_before", WEEKDAYS[d], 1))  # fmt: skip
    a = h.country()
    b = h.country(lambda c: differs("language", a, c))
    h.ask(S, "follow-up", (f"What language do they speak in {h.name(a)}, reckon?",
                           f"What about over in {h.name(b)}?"), language(b), ("language", b.name))
    pairs = [(a, b) for a in ("2", "3", "1.5", "4") for b in ("2.5", "0.5", "5", "1") if a != b]
    h.num(T, "follow-up", pairs, lambda a, b: (
        (f"how many ml is {a} cups of milk, it's an american recipe", f"righto and {b} cups"),
        convert(b, "cup_us", "ml"), (F(a), F(b)), ("conv", F(b), "cup_us", "ml")))
    h.ask(S, "follow-up", ("How many days till New Year's Eve?",
                           "And what about Valentine's Day?"), h.holiday("valentine"),
          ("until", 2, 14))  # fmt: skip
    o = h.pick(range(1, 8))
    h.ask(S, "follow-up", (f"Which is the {ordinal_words(o)} planet from the sun?",
                           "And the one after that one?"), (BY_ORDER[o + 1].name,),
          ("nth_planet", o + 1))  # fmt: skip
    h.num(T, "follow-up", ((24, 15, 60), (18, 12, 16), (35, 8, 80), (45, 6, 20)),
          lambda a, b, c: ((f"whats {a} times {b}", f"take {c} off that"), F(a) * b - c,
                           (a, b, c), ("expr", f"{a} * {b} - {c}")))
    h.refuse(S, "Put some Triple J on, would ya?")
    h.refuse(T, "book an uber to flinders st")
    h.refuse(S, "Who won the footy last night?")


# --- a Scottish grandparent in Glasgow ----------------------------------------------------------
def _glasgow(h: _House) -> None:
    h.ask(S, "clock", "What time is it the noo?", h.hour(), ("clock", "hour"))
    h.ask(S, "clock", "What day is it today, hen?", h.weekday(), ("clock", "weekday"))
    e = next_easter(h.today)
    h.ask(S, "clock", "How many days is it till Easter?", (until(h.today, e),), ("easter",))
    n = h.pick((15, 18, 20, 22))
    h.ask(S, "timer", f"Set a wee timer for {wh(n)} minutes for the tatties.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((30, 45, 90))
    h.ask(S, "timer", f"Remind me in {wh(n)} minutes to take my tablets, would you?",
          timed(n * 60), ("timer", n * 60))  # fmt: skip
    n = h.pick((12, 14, 16))
    h.ask(S, "timer", (f"Put a timer on for {wh(n)} minutes for the scones.",
                       "Och, cancel that, they're done already."), CANCELLED, ("cancel", n * 60))
    h.num(S, "arithmetic", ((221, 89), (500, 137), (312, 148), (1000, 265)), lambda a, b: (
        f"What's {wh(a)} take away {wh(b)}?", F(a) - b, (a, b), ("expr", f"{a} - {b}")))
    h.num(T, "arithmetic", ((4, 6), (3, 7), (5, 6), (6, 5)), lambda n, p: (
        f"how much is {n} pints at £{p} each", F(n) * p, (n, p), ("expr", f"{n} * {p}")))
    h.num(S, "arithmetic", (261, 405, 138, 999), lambda a: (
        f"What's a third of {wh(a)}?", F(a) / 3, (a,), ("expr", f"{a} / 3")))
    h.num(S, "arithmetic", ((144, 8), (96, 6), (315, 7), (468, 9)), lambda a, b: (
        f"What's {wh(a)} divided by {wh(b)}, son?", F(a) / b, (a, b), ("expr", f"{a} / {b}")))
    h.num(S, "units", (76, 82, 64, 90), lambda kg: (
        f"How many stone is {wh(kg)} kilos? The doctor weighed me in kilos.",
        convert(kg, "kg", "stone"), (kg,), ("conv", kg, "kg", "stone")))
    h.num(S, "units", (91, 86, 99, 104), lambda f: (
        f"What's {wh(f)} Fahrenheit in Celsius? My pal in Florida says it's roasting.",
        convert(f, "F", "C"), (f,), ("conv", f, "F", "C")))
    h.num(T, "units", (15, 24, 32, 154), lambda k: (
        f"how many miles is {k}km, walking the west highland way", convert(k, "km", "mile"),
        (k,), ("conv", k, "km", "mile")))
    for ch, words, say in (
        (S, ("Kirkcudbright", "Milngavie", "Auchtermuchty", "Ecclefechan"),
         "Spell {} for me, son."),
        (S, ("rhubarb", "turquoise", "porridge", "thistle"),
         "How do you spell {}? It's for the crossword in the Herald."),
        (T, ("Hogmanay", "ceilidh", "shortbread", "bagpipes"), "How do you spell {} please"),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"Aye, what's the capital of {h.name(c)} again?", capital(c),
          ("capital", c.name))  # fmt: skip
    m = h.pick(range(1, 13))
    h.ask(S, "facts", f"What number month is {MONTHS[m - 1]}, hen?", place(m),
          ("month_number", MONTHS[m - 1]))  # fmt: skip
    c = h.country()
    h.ask(T, "facts", f"what continent is {h.name(c)} in, for granda's quiz", continent(c),
          ("continent", c.name))  # fmt: skip
    h.ask(S, "facts", "Which is the biggest planet, do you know?", ("Jupiter",),
          ("superlative", "largest"))  # fmt: skip
    d = h.pick(range(7))
    h.ask(S, "follow-up", (f"What's the day after {WEEKDAYS[d]}, hen?",
                           "Aye, and the day after that?"), (WEEKDAYS[(d + 2) % 7],),
          ("day_after", WEEKDAYS[d], 2))  # fmt: skip
    c = h.country(lambda c: unique("language", c))
    h.ask(S, "follow-up", (f"What's the capital of {h.name(c)}, son?",
                           "And what language do they speak there, son?"), language(c),
          ("language", c.name))  # fmt: skip
    pairs = [(a, b) for a in (70, 85, 95, 60) for b in (70, 85, 95, 60) if a != b]
    h.num(S, "follow-up", pairs, lambda a, b: (
        (f"What's {wh(a)} kilos in stone?", f"And {wh(b)} kilos?"), convert(b, "kg", "stone"),
        (a, b), ("conv", b, "kg", "stone")))
    w1, w2 = h.two(("Glaswegian", "Clydebank", "Dumbarton", "Kilmarnock"))
    h.ask(T, "follow-up", (f"spell {w1.lower()} for gran", f"now {w2.lower()}"),
          (letters(w2),), ("spell", w2))  # fmt: skip
    h.ask(S, "follow-up", ("How many days till Christmas, hen?",
                           "And New Year's Eve? Hogmanay, like."), h.holiday("new_year_eve"),
          ("until", 12, 31))  # fmt: skip
    h.refuse(S, "Phone my daughter for me.")
    h.refuse(S, "Put the heating up a wee bit, would you?")
    h.refuse(S, "What's the weather doing in Largs the day?")


# --- a Filipino nurse in Dubai ------------------------------------------------------------------
def _dubai(h: _House) -> None:
    h.ask(T, "clock", "what time is it po", h.hour(), ("clock", "hour"))
    h.ask(S, "clock", "What's the date today? I need it for the chart.", h.date(),
          ("clock", "date"))  # fmt: skip
    h.ask(S, "clock", "How many days more before Christmas?", h.holiday("christmas"),
          ("until", 12, 25))  # fmt: skip
    n = h.pick((25, 30, 35, 40))
    h.ask(S, "timer", f"Set a timer for {wh(n)} minutes, I'm cooking adobo.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((15, 20, 25))
    h.ask(T, "timer", f"timer {n} min pls, power nap before my shift", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((10, 15, 30))
    h.ask(S, "timer", f"Remind me in {wh(n)} minutes to call my mom in Manila.", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    h.num(S, "arithmetic", ((1500, 6), (2000, 9), (1200, 7), (2500, 4)), lambda a, n: (
        f"If I send {wh(a)} dirhams every month, how much is that in {wh(n)} months?", F(a) * n,
        (a, n), ("expr", f"{a} * {n}")))
    h.num(T, "arithmetic", ((348, 4), (285, 3), (460, 5)), lambda a, b: (
        f"whats {a} divided by {b}, splitting groceries w my roommates", F(a) / b, (a, b),
        ("expr", f"{a} / {b}")))
    h.num(S, "arithmetic", (240, 380, 1260, 90), lambda a: (
        f"What's 5% VAT on {wh(a)} dirhams?", F(a) * 5 / 100, (5, a), ("expr", f"{a} * 5 / 100")))
    h.num(S, "arithmetic", ((15, 62), (10, 74), (5, 58), (20, 45)), lambda d, kg: (
        f"If the dose is {wh(d)} milligrams per kilo and the patient is {wh(kg)} kilos, how many "
        "milligrams is that?", F(d) * kg, (d, kg), ("expr", f"{d} * {kg}")))
    h.num(S, "units", (68, 54, 81, 95), lambda kg: (
        f"How many pounds is {wh(kg)} kilos? The patient is asking in pounds.",
        convert(kg, "kg", "pound"), (kg,), ("conv", kg, "kg", "pound")))
    h.num(T, "units", ("38.5", "39.2", "37.8", "40.1"), lambda c: (
        f"patient temp is {c} celsius whats that in fahrenheit", convert(c, "C", "F"), (F(c),),
        ("conv", F(c), "C", "F")))
    h.num(S, "units", (55, 70, 80, 65), lambda cm: (
        f"How many inches is {wh(cm)} centimetres? I'm buying a suitcase.",
        convert(cm, "cm", "inch"), (cm,), ("conv", cm, "cm", "inch")))
    for ch, words, say in (
        (S, ("stethoscope", "paracetamol", "intravenous", "pneumonia"),
         "Can you spell {}? It's for my report."),
        (T, ("Philippines", "Pampanga", "Mandaluyong", "Batangas"), "spell {} po"),
        (S, ("maintenance", "appliance", "refrigerator", "plumber"),
         "How do you spell {}? I'm writing to my landlord."),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"What's the capital of {h.name(c)}? My co-worker is from there.",
          capital(c), ("capital", c.name))  # fmt: skip
    c = h.country()
    h.ask(T, "facts", f"currency of {h.name(c)} po? my friend is going there", currency(c),
          ("currency", c.name))  # fmt: skip
    o = h.pick(range(1, 9))
    h.ask(S, "facts", f"Which planet is number {wh(o)} from the sun, po?", (BY_ORDER[o].name,),
          ("nth_planet", o))  # fmt: skip
    m = h.pick(range(12))
    h.ask(T, "facts", f"what month comes before {MONTHS[m].lower()} po", (MONTHS[(m - 1) % 12],),
          ("month_before", MONTHS[m], 1))  # fmt: skip
    a = h.country()
    b = h.country(lambda c: differs("continent", a, c))
    h.ask(S, "follow-up", (f"Which continent is {h.name(a)} in po?", f"How about {h.name(b)} po?"),
          continent(b), ("continent", b.name))  # fmt: skip
    h.num(S, "follow-up", ((450, 6, 4), (720, 8, 3), (360, 9, 7), (840, 12, 5)),
          lambda a, b, k: ((f"How much is {wh(a)} divided by {wh(b)}?", f"And then times {wh(k)}?"),
                           F(a) / b * k, (a, b, k), ("expr", f"{a} / {b} * {k}")))
    n = h.pick((8, 10, 12, 15))
    h.ask(S, "follow-up", (f"Timer for {wh(n)} minutes please, for the rice cooker.",
                           "How many minutes left?"), left(n), ("left", n * 60), timer=True)
    h.ask(S, "follow-up", ("How many days until the 2nd of December?",
                           "And until New Year's Day?"), h.holiday("new_year"), ("until", 1, 1))
    o = h.pick(range(1, 8))
    h.ask(S, "follow-up", (f"My patient's son wants to know how many moons {BY_ORDER[o].name} "
                           "has.", "And the next planet po?"), moons(o + 1), ("moons", o + 1))
    h.refuse(S, "Video call my kids in Manila.")
    h.refuse(T, "send 500 dirhams to my sister thru gcash")
    h.refuse(S, "Turn on the aircon in the bedroom.")


# --- a Canadian family in Toronto ---------------------------------------------------------------
def _toronto(h: _House) -> None:
    h.ask(S, "clock", "What time is it? We need to leave for hockey practice.", h.hour(),
          ("clock", "hour"))  # fmt: skip
    h.ask(T, "clock", "whats the year again, filling out the camp form", h.year(),
          ("clock", "year"))  # fmt: skip
    h.ask(S, "clock", "How many days until Halloween? The kids are already asking.",
          h.holiday("halloween"), ("until", 10, 31))  # fmt: skip
    n = h.pick((17, 18, 22, 24))
    h.ask(S, "timer", f"Can you set a timer for {wh(n)} minutes? The butter tarts are in the oven.",
          timed(n * 60), ("timer", n * 60))  # fmt: skip
    n = h.pick((10, 15, 20))
    h.ask(T, "timer", f"remind me in {n} min to move the car for street cleaning", timed(n * 60),
          ("timer", n * 60))  # fmt: skip
    n = h.pick((30, 45, 60))
    h.ask(S, "timer", (f"Start a timer for {wh(n)} minutes for the kids' screen time.",
                       "Actually, cancel it, eh."), CANCELLED, ("cancel", n * 60))
    h.num(S, "arithmetic", (80, 240, 350, 1200), lambda a: (
        f"What's 13% HST on ${wh(a)}?", F(a) * 13 / 100, (13, a), ("expr", f"{a} * 13 / 100")))
    h.num(T, "arithmetic", ((12, 7), (13, 6), (11, 9), (12, 8)), lambda a, b: (
        f"whats {a} x {b}, doing times tables with the kids", F(a) * b, (a, b),
        ("expr", f"{a} * {b}")))
    h.num(S, "arithmetic", ((1250, 487), (932, 356), (2100, 1375)), lambda a, b: (
        f"What's {wh(a)} minus {wh(b)}? I'm balancing the chequebook.", F(a) - b, (a, b),
        ("expr", f"{a} - {b}")))
    h.num(S, "arithmetic", ((2, 10), (3, 5), (5, 4), (7, 3)), lambda b, e: (
        f"What's {wh(b)} to the power of {wh(e)}? It's for her math homework.", F(b) ** e, (b, e),
        ("expr", f"{b} ** {e}")))
    h.num(S, "units", (25, 20, 10, 30), lambda c: (
        f"It's minus {wh(c)} out, what's that in Fahrenheit?", convert(-c, "C", "F"), (-c,),
        ("conv", -c, "C", "F")))
    h.num(T, "units", (10, 12, 15, 20), lambda g: (
        f"how many litres is {g} gallons, filling up in buffalo", convert(g, "gallon_us", "litre"),
        (g,), ("conv", g, "gallon_us", "litre")))
    h.num(S, "units", (540, 350, 120, 450), lambda k: (
        f"What's {wh(k)} kilometres in miles? We're driving to Montreal.",
        convert(k, "km", "mile"), (k,), ("conv", k, "km", "mile")))
    for ch, words, say in (
        (S, ("chrysanthemum", "vacuum", "onomatopoeia", "silhouette"),
         "How do you spell {}? It's for her spelling bee."),
        (T, ("Mississauga", "Etobicoke", "Saskatoon", "Yellowknife"),
         "how do you spell {}, writing a postcard"),
        (S, ("colour", "neighbour", "centre", "favourite"),
         "Spell {}, please. The Canadian spelling."),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"What continent is {h.name(c)} on? We're doing a map puzzle.", continent(c),
          ("continent", c.name))  # fmt: skip
    c = h.country()
    h.ask(T, "facts", f"what language do ppl speak in {h.name(c)}", language(c),
          ("language", c.name))  # fmt: skip
    o = h.pick(range(1, 9))
    h.ask(S, "facts", f"How many moons does {BY_ORDER[o].name} have? My son's doing a project.",
          moons(o), ("moons", o))  # fmt: skip
    m = h.pick(range(12))
    h.ask(S, "facts", f"Which month is after {MONTHS[m]}? Planning the cottage weekends.",
          (MONTHS[(m + 1) % 12],), ("month_after", MONTHS[m], 1))  # fmt: skip
    c = h.country(lambda c: unique("currency", c))
    h.ask(S, "follow-up", (f"What's the capital of {h.name(c)}? It's for a quiz.",
                           "And what currency do they use?"), currency(c), ("currency", c.name))
    pairs = [(a, b) for a in (5, 12, 22, 35) for b in (5, 12, 22, 35) if a != b]
    h.num(S, "follow-up", pairs, lambda a, b: (
        (f"It's minus {wh(a)} outside, what's that in Fahrenheit?", f"And minus {wh(b)}?"),
        convert(-b, "C", "F"), (-a, -b), ("conv", -b, "C", "F")))
    h.ask(S, "follow-up", ("How many days until Canada Day, July 1st?", "What about Boxing Day?"),
          h.holiday("boxing"), ("until", 12, 26))  # fmt: skip
    h.num(T, "follow-up", ((175, 225, 8), (340, 260, 4), (128, 72, 5), (490, 110, 6)),
          lambda a, b, k: ((f"whats {a} plus {b}", f"now divide that by {k}"), (F(a) + b) / k,
                           (a, b, k), ("expr", f"({a} + {b}) / {k}")))
    m = h.pick(range(12))
    h.ask(S, "follow-up", (f"What month comes before {MONTHS[m]}, for the school calendar?",
                           "And the one before that?"), (MONTHS[(m - 2) % 12],),
          ("month_before", MONTHS[m], 2))  # fmt: skip
    h.refuse(S, "What's the score of the Leafs game?")
    h.refuse(T, "order a double double from tims")
    h.refuse(S, "Turn off the lights in the basement.")


# --- a Singaporean student ----------------------------------------------------------------------
def _singapore(h: _House) -> None:
    h.ask(T, "clock", "what time now ah", h.hour(), ("clock", "hour"))
    h.ask(T, "clock", "today what date ah", h.date(), ("clock", "date"))
    h.ask(S, "clock", "How many days to the 9th of August? National Day.", h.till(8, 9),
          ("until", 8, 9))  # fmt: skip
    n = h.pick((25, 45, 50))
    h.ask(T, "timer", f"set timer {n} min can or not", timed(n * 60), ("timer", n * 60))
    n = h.pick((45, 75, 90, 120))
    h.ask(S, "timer", f"Help me set a timer for {wh(n)} seconds, I'm doing plank.", timed(n),
          ("timer", n))  # fmt: skip
    a, b = h.pick((40, 45, 50)), h.pick((3, 4, 5))
    h.ask(S, "timer", (f"Set one timer {wh(a)} minutes for laundry.",
                       f"Another one {wh(b)} minutes for my instant noodles.",
                       "How many timers now?"), ("two timers",), ("timers", 2))
    h.num(T, "arithmetic", (("12.50", "8.90", "15.60"), ("4.80", "6.20", "11.50"),
                            ("7.30", "9.90", "3.80"), ("15.20", "6.60", "8.70")),
          lambda a, b, c: (f"{a} + {b} + {c} is how much", F(a) + F(b) + F(c),
                           (F(a), F(b), F(c)), ("expr", f"{a} + {b} + {c}")))
    h.num(S, "arithmetic", ((96, 4), (138, 6), (255, 5), (184, 8)), lambda a, b: (
        f"What's {wh(a)} divided by {wh(b)}? Split the bill.", F(a) / b, (a, b),
        ("expr", f"{a} / {b}")))
    h.num(T, "arithmetic", (50, 120, 300, 800), lambda a: (
        f"9% gst on {a} how much", F(a) * 9 / 100, (9, a), ("expr", f"{a} * 9 / 100")))
    h.num(S, "arithmetic", (196, 289, 625, 1296), lambda s: (
        f"Can tell me the square root of {wh(s)} or not?", F(round(s**0.5)), (s,),
        ("expr", f"{s} ** 0.5")))
    h.num(T, "units", (5, 21, 42, 8), lambda k: (
        f"{k} km how many miles ah", convert(k, "km", "mile"), (k,), ("conv", k, "km", "mile")))
    h.num(S, "units", (24, 27, 32, 34), lambda i: (
        f"How many centimetres is {wh(i)} inches? Buying a monitor.", convert(i, "inch", "cm"),
        (i,), ("conv", i, "inch", "cm")))
    h.num(S, "units", (15, 25, 35, 45), lambda lb: (
        f"How many kilograms is {wh(lb)} pounds? The dumbbell says pounds.",
        convert(lb, "pound", "kg"), (lb,), ("conv", lb, "pound", "kg")))
    for ch, words, say in (
        (T, ("Tampines", "Punggol", "Sengkang", "Toa Payoh"), "spell {} pls"),
        (S, ("questionnaire", "bureaucracy", "hypothesis", "psychology"), "How to spell {} ah?"),
        (S, ("Mediterranean", "Caribbean", "Mississippi", "Philadelphia"),
         "Can help me spell {} or not?"),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(T, "facts", f"capital of {h.name(c).lower()} is what", capital(c), ("capital", c.name))
    c = h.country()
    h.ask(S, "facts", f"What language do they speak in {h.name(c)} ah?", language(c),
          ("language", c.name))  # fmt: skip
    o = h.pick(range(1, 9))
    h.ask(T, "facts", f"the {nth(o)} planet from the sun is what", (BY_ORDER[o].name,),
          ("nth_planet", o))  # fmt: skip
    d = h.pick(range(7))
    h.ask(S, "facts", f"What day is before {WEEKDAYS[d]} ah?", (WEEKDAYS[(d - 1) % 7],),
          ("day_before", WEEKDAYS[d], 1))  # fmt: skip
    a = h.country()
    b = h.country(lambda c: differs("currency", a, c))
    h.ask(T, "follow-up", (f"currency of {h.name(a).lower()} is what ah",
                           f"then {h.name(b).lower()} leh"), currency(b), ("currency", b.name))
    pairs = [(a, b) for a in (5, 10, 21, 15) for b in (3, 8, 12, 30)]
    h.num(T, "follow-up", pairs, lambda a, b: (
        (f"how many miles is {a} km ah, for my run", f"then {b} km leh"),
        convert(b, "km", "mile"), (a, b), ("conv", b, "km", "mile")))
    h.num(S, "follow-up", ((25, 16, 75), (14, 12, 18), (32, 5, 40), (45, 4, 30)),
          lambda a, b, c: ((f"What's {wh(a)} times {wh(b)} ah?", f"Then minus {wh(c)}."),
                           F(a) * b - c, (a, b, c), ("expr", f"{a} * {b} - {c}")))
    w1, w2 = h.two(("Jurong", "Bishan", "Serangoon", "Woodlands"))
    h.ask(S, "follow-up", (f"How do you spell {w1} ah?", f"Then {w2} how to spell?"),
          (letters(w2),), ("spell", w2))  # fmt: skip
    o = h.pick(range(1, 8))
    h.ask(S, "follow-up", (f"{BY_ORDER[o].name} is which planet from the sun ah?",
                           "Then the next one is what?"), (BY_ORDER[o + 1].name,),
          ("nth_planet", o + 1))  # fmt: skip
    h.refuse(T, "check if mrt got delay")
    h.refuse(S, "Book a Grab to NUS.")
    h.refuse(S, "Play some lo-fi music lah.")


# --- an Irish farmer in County Kerry ------------------------------------------------------------
def _kerry(h: _House) -> None:
    h.ask(S, "clock", "What time is it now, so?", h.hour(), ("clock", "hour"))
    h.ask(S, "clock", "What's the date today? The vet's coming out.", h.date(), ("clock", "date"))
    h.ask(S, "clock", "How many days is it till St Patrick's Day?", h.holiday("patrick"),
          ("until", 3, 17))  # fmt: skip
    n = h.pick((35, 40, 45, 50))
    h.ask(S, "timer", f"Set a timer for {wh(n)} minutes there, the brown bread's in.",
          timed(n * 60), ("timer", n * 60))  # fmt: skip
    n = h.pick((20, 30, 40))
    h.ask(S, "timer", f"Remind me in {wh(n)} minutes to check on the cow that's calving.",
          timed(n * 60), ("timer", n * 60))  # fmt: skip
    n = h.pick((1, 2, 3))
    s = (n * 60 + 30) * 60
    h.ask(T, "timer", f"set a timer for {n} and a half hours, the stew is on", timed(s),
          ("timer", s))  # fmt: skip
    h.num(S, "arithmetic", ((24, 135), (18, 150), (36, 120), (15, 140)), lambda a, b: (
        f"If I sell {wh(a)} lambs at {wh(b)} euro each, what's that?", F(a) * b, (a, b),
        ("expr", f"{a} * {b}")))
    h.num(T, "arithmetic", ((1440, 12), (960, 15), (2250, 18)), lambda a, b: (
        f"whats {a} divided by {b} so", F(a) / b, (a, b), ("expr", f"{a} / {b}")))
    h.num(S, "arithmetic", (348, 1260, 92, 740), lambda a: (
        f"What's a quarter of {wh(a)}?", F(a) / 4, (a,), ("expr", f"{a} / 4")))
    h.num(S, "arithmetic", ((146, 87), (212, 139), (95, 178)), lambda a, b: (
        f"That's {wh(a)} bales and {wh(b)} bales, what's the total?", F(a) + b, (a, b),
        ("expr", f"{a} + {b}")))
    h.num(S, "units", (10, 25, 40, 50), lambda g: (
        f"How many litres in {wh(g)} gallons of diesel?",
        number(convert(g, "gallon_imp", "litre")) + number(convert(g, "gallon_us", "litre")),
        (g,), ("conv", g, "gallon_imp|gallon_us", "litre")))
    h.num(S, "units", (18, 22, 14, 26), lambda c: (
        f"My cousin in Boston is asking, what's {wh(c)} degrees Celsius in Fahrenheit?",
        convert(c, "C", "F"), (c,), ("conv", c, "C", "F")))
    h.num(T, "units", (50, 120, 200, 350), lambda y: (
        f"how many metres is {y} yards, fencing the top field", convert(y, "yard", "m"), (y,),
        ("conv", y, "yard", "m")))
    for ch, words, say in (
        (S, ("agricultural", "veterinary", "silage", "Friesian"),
         "How do you spell {}? I'm filling in the grant form."),
        (S, ("Kilkenny", "Dungarvan", "Carrickmacross", "Ballinasloe"), "Spell {} for me there."),
        (T, ("Charolais", "Limousin", "Hereford", "Simmental"), "how is {} spelt, the breed"),
    ):  # fmt: skip
        w = h.pick(words)
        h.ask(ch, "spelling", say.format(w), (letters(w),), ("spell", w))
    c = h.country()
    h.ask(S, "facts", f"What's the capital of {h.name(c)} at all?", capital(c),
          ("capital", c.name))  # fmt: skip
    c = h.country()
    h.ask(S, "facts", f"What currency have they in {h.name(c)}?", currency(c),
          ("currency", c.name))  # fmt: skip
    h.ask(S, "facts", "Which is the hottest planet, would you know?", ("Venus",),
          ("superlative", "hottest"))  # fmt: skip
    m = h.pick(range(12))
    h.ask(T, "facts", f"whats the month after {MONTHS[m].lower()}, for the calving records",
          (MONTHS[(m + 1) % 12],), ("month_after", MONTHS[m], 1))  # fmt: skip
    a = h.country()
    b = h.country(lambda c: c is not a)
    h.ask(S, "follow-up", (f"Tell me the capital of {h.name(a)} there.",
                           f"Grand, and {h.name(b)}?"), capital(b), ("capital", b.name))
    c = h.country()
    h.ask(S, "follow-up", (f"What sort of money do they use in {h.name(c)}?",
                           "And what's the capital?"), capital(c), ("capital", c.name))
    n = h.pick((9, 11, 14, 17))
    h.ask(S, "follow-up", (f"Put on a timer for {wh(n)} minutes for the spuds.",
                           "How long is left on it now?"), left(n), ("left", n * 60), timer=True)
    pairs = [(a, b) for a in (12, 26, 40, 7) for b in (12, 26, 40, 7) if a != b]
    h.num(S, "follow-up", pairs, lambda a, b: (
        (f"What's {wh(a)} miles in kilometres?", f"And {wh(b)} miles?"),
        convert(b, "mile", "km"), (a, b), ("conv", b, "mile", "km")))
    h.ask(S, "follow-up", ("How many days till Halloween now?", "And till Christmas, so?"),
          h.holiday("christmas"), ("until", 12, 25))  # fmt: skip
    h.refuse(S, "What's the price of cattle at the mart today?")
    h.refuse(S, "Ring Seamus for me there.")
    h.refuse(T, "whats the forecast for the week, want to cut silage")


HOUSEHOLDS_WRITE: dict[str, Callable[[_House], None]] = {
    "bangalore": _bangalore, "lagos": _lagos, "melbourne": _melbourne, "glasgow": _glasgow,
    "dubai": _dubai, "toronto": _toronto, "singapore": _singapore, "kerry": _kerry,
}  # fmt: skip
