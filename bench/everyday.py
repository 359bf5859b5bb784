"""Everyday set for ``bench/skills.py --requests everyday``: 239 held-out requests written as
people say them to a phone or a kitchen speaker, each with an answer worked out here.

Eight kinds: clock (time, date, year, weekday, days until a holiday, a date or a weekday), timer
(set, remind, what's left, list, cancel), arithmetic, units (length, weight, volume,
temperature, speed, time), spelling (everyday words and hard ones), facts (capital, continent,
language and currency of the 30 countries of ``training/facts.py``, planets by order and size,
the day or month after), follow-up (two turns, the second elliptical: "and Ireland?", "what
about in ounces", "times three now"), refusal (weather, news, prices, calls, messages,
shopping, smart-home, bookings, music...). The same seed gives the same requests; the clock's
answers follow the real clock (or ``now``).

How it is written — not a frame × core template generator:

- **Scenes, not templates.** There is no list of frames ("I need to know ...", "..., please")
  crossed with a list of cores ("the capital of X"). Every request below is one literal
  sentence written for one situation — in the kitchen, driving, homework with a child, travel
  planning, DIY, shopping, getting ready in the morning, a pub quiz — and the wording comes from
  that situation: contractions and run-ons ("pasta's in, stick a timer on for nine minutes"),
  mid-sentence corrections whose answer is the corrected value ("set a timer for ten, no,
  twelve minutes"), asides ("my phone's in the other room"), questions asked as statements, the
  object first ("February, how's that spelt?"), informal spellings ("whats", "pls", "d'you"),
  numbers in digits and in words, British and US usage ("cheque", "telly", "litres", "liters").
  Each sentence is used once; nothing recombines the parts of two sentences.
- **Only the values are slotted.** Numbers, countries, planets, days, months, dates and words to
  spell are drawn (by the seeded generator) from small lists written here, each sentence with
  its own list, so a draw never changes the sentence around it. Countries, words and dates are
  drawn without replacement within a kind, so no two requests repeat.
- **Checks worked out here**, not taken from any tool: arithmetic with
  :class:`fractions.Fraction`; conversions from exact unit definitions (1 inch = 2.54 cm,
  1 lb = 0.45359237 kg, 1 US gallon = 3.785411784 l, 1 knot = 1852 m/h); calendar counts with
  :mod:`datetime`; spelled letters from the word; facts from ``training/facts.py``'s tables
  (the facts only). The expected text is what ``useful()`` in ``bench/skills.py`` looks for:
  numbers in words as the assistant says them (``words.spoken.int_words``, decimals digit by
  digit), "about" left out; an inexact result may be said to one decimal fewer. A numeric
  answer is drawn again when its words would appear in the request's own numbers said back
  ("twelve" inside "twelve times eleven"), so a reply that only repeats the question never
  counts. A refusal expects nothing (``expect == ()``): a short honest one is useful.
- **Timers are cleared**: every timer request is followed, unscored, by "cancel all my timers",
  so no timer outlives its request in the one chat process.

``tests/test_everyday.py`` checks the counts, the checks, determinism and that no request
equals a training prompt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from fractions import Fraction as F

from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from training.facts import COUNTRIES, PLANETS, Country
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CLEAR = ("cancel all my timers",)

# --- numbers as the assistant says them ---------------------------------------------------------


def said(x: F | int, places: int = 2) -> str:
    """``x`` rounded to ``places`` decimals, in words: 25.4 → "twenty five point four"."""
    r = round(F(x) * 10**places)
    whole, frac = divmod(abs(r), 10**places)
    words = int_words(whole)
    digits = str(frac).rjust(places, "0").rstrip("0") if places else ""
    if digits:
        words += " point " + " ".join(int_words(int(d)) for d in digits)
    return ("minus " if r < 0 else "") + words


def number(x: F | int) -> tuple[str, ...]:
    """The accepted words for a result: exact when it has at most two decimals; otherwise about
    three significant figures, or one decimal fewer."""
    q = F(x)
    if (q * 100).denominator == 1:
        return (said(q),)
    places = 2 if abs(q) < 10 else 1 if abs(q) < 100 else 0
    out = [said(q, places)] + ([said(q, places - 1)] if places else [])
    return tuple(dict.fromkeys(out))


def duration(seconds: int) -> str:
    """90 → "one minute and thirty seconds", 5400 → "one hour and thirty minutes"."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{int_words(n)} {u}{'' if n == 1 else 's'}"
             for n, u in ((h, "hour"), (m, "minute"), (s, "second")) if n]  # fmt: skip
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def letters(word: str) -> str:
    return ", ".join(c.upper() for c in word if c.isalpha())


def nth(n: int) -> str:
    """4 → "4th", 22 → "22nd"."""
    suffix = "th" if 10 <= n % 100 < 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --- exact unit definitions (SI base: metre, kilogram, litre, metre per second) -----------------
INCH = F(254, 10_000)
FOOT = 12 * INCH
YARD = 3 * FOOT
MILE = 1760 * YARD
KM, CM, MM = F(1000), F(1, 100), F(1, 1000)
POUND = F(45_359_237, 10**8)
OUNCE = POUND / 16
STONE = 14 * POUND
GRAM = F(1, 1000)
GALLON = F(3_785_411_784, 10**9)  # US liquid gallon, in litres
FL_OZ = GALLON / 128
CUP = GALLON / 16
TABLESPOON = FL_OZ / 2
ML = F(1, 1000)
KMH = KM / 3600
MPH = MILE / 3600
KNOT = F(1852, 3600)


def c_to_f(c: F | int) -> F:
    return F(c) * 9 / 5 + 32


def f_to_c(f: F | int) -> F:
    return (F(f) - 32) * 5 / 9


# --- facts ------------------------------------------------------------------------------------
def capital(c: Country) -> str:
    return c.capital.split(",")[0]  # "Washington, D.C." → "Washington"


def continent(c: Country) -> str:
    return c.continent.removeprefix("both ")


def currency(c: Country) -> str:
    return c.currency.removeprefix("the ")


BY_ORDER = {p.order: p.name for p in PLANETS}
BIGGEST, SMALLEST = "Jupiter", "Mercury"  # by diameter (the tables give the order only)


# --- the builder ------------------------------------------------------------------------------
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


class _Set:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.out: list[Request] = []

    def ask(self, kind: str, turns: str | tuple[str, ...], expect: Sequence[str] = (),
            after: tuple[str, ...] = ()) -> None:  # fmt: skip
        turns = (turns,) if isinstance(turns, str) else tuple(turns)
        self.out.append(Request(turns, kind, tuple(expect), after))

    def num(self, kind: str, options: Sequence, make: Callable, after: tuple[str, ...] = ()):
        """One request from ``make(*option)`` → (turns, value, operands), with an option drawn
        whose answer is not among the request's own numbers said back."""
        opts = [o if isinstance(o, tuple) else (o,) for o in options]
        self.rng.shuffle(opts)
        for o in opts:
            turns, value, operands = make(*o)
            expect = number(value) if not isinstance(value, tuple) else value
            back = " ".join(said(x) for x in operands)
            if not any(_norm(e) in _norm(back) for e in expect):
                return self.ask(kind, turns, expect, after)
        raise ValueError(f"every option of {make} repeats its answer: {options}")


def everyday(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The everyday set: the same ``seed`` gives the same requests; clock answers are for
    ``now`` (default: the real clock)."""
    rng = random.Random(seed)
    now = now or datetime.now()
    s = _Set(rng)
    _clock(s, now)
    _timers(s)
    _arithmetic(s)
    _units(s)
    _spelling(s)
    _facts(s)
    _follow_ups(s, now)
    _refusals(s)
    return s.out


# --- clock --------------------------------------------------------------------------------------
def _until(today: date, d: date) -> str:
    n = (d - today).days
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def _next(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def _date_said(rng: random.Random, month: int, day: int) -> str:
    form = rng.randrange(3)
    if form == 0:
        return f"the {nth(day)} of {MONTHS[month - 1]}"
    if form == 1:
        return f"{MONTHS[month - 1]} {nth(day)}"
    return f"{MONTHS[month - 1].lower()} {ordinal_words(day)}"


DATES = ((7, 4), (3, 3), (6, 14), (9, 21), (11, 5), (4, 12), (8, 1), (5, 27), (10, 9),
         (2, 2), (1, 19), (12, 12))  # fmt: skip


def _clock(s: _Set, now: datetime) -> None:
    today, k = now.date(), "clock"
    hours = [int_words(now.hour % 12 or 12)]
    if now.minute >= 45:  # the hour may turn before the request is asked
        hours.append(int_words((now.hour + 1) % 12 or 12))
    if now.hour == 0:
        hours.append("midnight")
    day = (f"{MONTHS[now.month - 1]} {ordinal_words(now.day)}",)
    weekday = (WEEKDAYS[now.weekday()],)
    y = now.year
    year = (f"twenty {int_words(y - 2000)}" if 2010 <= y < 2100 else int_words(y),)

    # the time: getting out of the door, the kitchen
    s.ask(k, "sorry, what time is it, I've completely lost track", hours)
    s.ask(k, "have I got time for a coffee? what's the time now", hours)
    s.ask(k, "time check please", hours)
    s.ask(k, "quick, what's the time, I think we're late for the school run", hours)
    s.ask(k, "is it lunchtime yet, what's the actual time", hours)
    s.ask(k, "the oven clock's blinking again, what's the right time", hours)
    s.ask(k, "what time've you got, my phone's in the other room", hours)
    s.ask(k, "whats the time pls", hours)
    # the date: forms, cheques, homework
    s.ask(k, "what's today's date, I need it for this form", day)
    s.ask(k, "I'm writing a cheque, what's the date today", day)
    s.ask(k, "today's date? it's for the top of her homework", day)
    s.ask(k, "what date is it today again", day)
    s.ask(k, "what year is it, I keep writing the wrong one on everything", year)
    s.ask(k, "what's the date, month and day please", day)
    # the weekday: holidays, long weeks
    s.ask(k, "what day is it today, this week's gone on forever", weekday)
    s.ask(k, "I've been off work so long I lost count, what day of the week is it", weekday)
    s.ask(k, "it's not the weekend yet is it, what day is today", weekday)
    s.ask(k, "is today a weekday? what day is it", weekday)
    # counting down
    s.ask(k, "how many sleeps till christmas", (_until(today, _next(today, 12, 25)),))
    s.ask(k, "the kids keep asking, how long till halloween",
          (_until(today, _next(today, 10, 31)),))  # fmt: skip
    s.ask(k, "we need to book a sitter, how many days to new year's eve",
          (_until(today, _next(today, 12, 31)),))  # fmt: skip
    s.ask(k, "days until valentine's day? I need to plan something this time",
          (_until(today, _next(today, 2, 14)),))  # fmt: skip
    s.ask(k, "how many more days till boxing day, I'm counting down to the sales",
          (_until(today, _next(today, 12, 26)),))  # fmt: skip
    s.ask(k, "the pub's doing a big night, how long until st patrick's day",
          (_until(today, _next(today, 3, 17)),))  # fmt: skip
    s.ask(k, "how many days till christmas eve, the kids are going mad",
          (_until(today, _next(today, 12, 24)),))  # fmt: skip
    dates = _Pool(s.rng, DATES)
    m, d = dates.take()
    s.ask(k, f"my mum's birthday, how many days till {_date_said(s.rng, m, d)}",
          (_until(today, _next(today, m, d)),))  # fmt: skip
    m, d = dates.take()
    s.ask(k, f"how many days have I got until {_date_said(s.rng, m, d)}, that's when the "
          "essay's due", (_until(today, _next(today, m, d)),))  # fmt: skip
    wd = s.rng.randrange(7)
    ahead = (wd - today.weekday()) % 7 or 7
    s.ask(k, f"I'm so done with this week, how many days till {WEEKDAYS[wd].lower()}",
          (_until(today, today + timedelta(days=ahead)),))  # fmt: skip


# --- timers -------------------------------------------------------------------------------------
def _timers(s: _Set) -> None:
    k, rng = "timer", s.rng

    def t(turns, expect):
        s.ask(k, turns, expect if isinstance(expect, tuple) else (expect,), CLEAR)

    # cooking
    n = rng.choice((9, 11, 12))
    t(f"pasta's in, stick a timer on for {n} minutes", duration(60 * n))
    t("set a timer for ten, no, twelve minutes", duration(12 * 60))
    n = rng.choice((6, 7))
    t(f"time {int_words(n)} minutes for the eggs please, I like them runny", duration(60 * n))
    t("hour and a half on the timer for the roast lamb", duration(5400))
    n = rng.choice((15, 18, 20))
    t(f"I need a {n} minute timer for the rice", duration(60 * n))
    t("start a timer, 2 minutes 30 seconds, for the noodles", duration(150))
    t("quarter of an hour on the timer for the cake, please", duration(900))
    t("timer for 90 secs, microwave porridge", duration(90))
    t("let's do five, actually make it seven minutes on the timer for the tea", duration(420))
    t("timer for a minute and a half, kettle's on", duration(90))
    t("set a timer for 2 hours, the slow cooker's on", duration(7200))
    t("I need a timer for 1 hr 15 mins for the roast chicken", duration(4500))
    # the house and the kids
    t("plank challenge, put a timer on for 45 seconds", duration(45))
    t("half an hour timer please, I'm putting a wash on", duration(1800))
    t("kids get 20 mins of screen time, set a timer", duration(1200))
    t("can you do a 3 minute timer, we're brushing teeth", duration(180))
    # reminders
    n = rng.choice((25, 35, 40))
    t(f"remind me in {n} minutes to take the chicken out", duration(60 * n))
    t("in 20 minutes remind me to move the car, the parking runs out", duration(1200))
    t("remind me to call my mum in an hour", duration(3600))
    t("can you remind me in forty five minutes to pick the kids up from football",
      duration(2700))  # fmt: skip
    t("remind me to flip the steaks in 4 mins", duration(240))
    t("remind me in half an hour that I've got to leave for the dentist", duration(1800))
    # what's left, what's running, cancelling
    n = rng.choice((16, 22, 26))
    t((f"stick a {n} minute timer on for the potatoes", "how long have the potatoes got left"),
      "left")  # fmt: skip
    t(("timer for 8 minutes please, the bread's in", "how much longer on the bread"), "left")
    t(("twenty five minute timer, I'm starting my revision", "how much time have I got left"),
      "left")  # fmt: skip
    t(("set a 10 minute timer", "oh wait never mind, cancel it"), "cancelled")
    t(("start a timer for the lasagne, forty minutes",
       "the lasagne's done early, stop the timer"), "cancelled")  # fmt: skip
    t(("remind me in 15 minutes to ring the garage", "forget the reminder, they just rang me"),
      "cancelled")  # fmt: skip
    t(("set a timer for six minutes for the eggs", "what timers are running, I've lost track"),
      "one timer")  # fmt: skip
    t(("pasta timer, eleven minutes", "and a sauce timer for five minutes",
       "what timers have I got on"), "two timers")  # fmt: skip


# --- arithmetic ---------------------------------------------------------------------------------
def _arithmetic(s: _Set) -> None:
    k = "arithmetic"

    def a(options, make):
        s.num(k, options, make)

    # the shops and the bills
    a(
        [(84, 4), (96, 3), (135, 5), (72, 6), (150, 6)],
        lambda x, n: (f"dinner was £{x}, split between {n} of us, how much each?", F(x, n), (x, n)),
    )
    a([("3.49", "2.15", "4.80"), ("1.99", "6.25", "3.40"), ("12.50", "4.75", "2.30")],
      lambda x, y, z: (f"adding up the shopping, {x} plus {y} plus {z}",
                       F(x) + F(y) + F(z), (F(x), F(y), F(z))))  # fmt: skip
    a(
        ["13.65", "7.20", "11.85"],
        lambda x: (f"twenty take away {x}, I'm checking my change", 20 - F(x), (20, F(x))),
    )
    a(
        [40, 60, 80, 120],
        lambda x: (f"what's 15 percent of {x}, for the tip", F(15 * x, 100), (15, x)),
    )
    a(
        [(20, 85), (30, 60), (25, 48)],
        lambda p, x: (f"the jumper's on sale, what's {p}% of {x}", F(p * x, 100), (p, x)),
    )
    a(
        [("2.85",), ("3.40",), ("3.15",)],
        lambda p: (f"three coffees at £{p} each, so {p} times 3", 3 * F(p), (F(p), 3)),
    )
    a(
        ["12.99", "8.49"],
        lambda p: (f"three pizzas at {p} each, what's {p} times 3", 3 * F(p), (F(p), 3)),
    )
    a(
        [(375, 260), (450, 180), (520, 95)],
        lambda x, y: (f"doing my budget, 1,200 minus {x} minus {y}", 1200 - x - y, (1200, x, y)),
    )
    a(
        [(650, 725), (480, 515), (395, 410)],
        lambda x, y: (f"add {x} and {y} for me, it's the two rent payments", F(x + y), (x, y)),
    )
    a(
        [6, 8, 4],
        lambda n: (f"{n} times 24, how many cans is that for the party", F(24 * n), (n, 24)),
    )
    # the kitchen
    a([(250, 4, 6), (300, 4, 6), (180, 4, 6)], lambda g, p, q: (
        f"the recipe's for four people and we're six, what's {g} divided by {p} times {q}",
        F(g, p) * q, (g, p, q)))  # fmt: skip
    a([175, 225, 340], lambda x: (f"double {x}, I'm doubling the recipe", F(2 * x), (x,)))
    # homework with a child
    a(
        [(7, 8), (6, 9), (12, 11), (8, 9)],
        lambda x, y: (
            f"my son's stuck on his times tables, what's {x} times {y}",
            F(x * y),
            (x, y),
        ),
    )
    a(
        [12, 15, 13],
        lambda x: (f"what's {x} squared, it's for the area of the patio", F(x * x), (x,)),
    )
    a([4, 5, 6], lambda x: (f"{int_words(x)} cubed?", F(x**3), (x,)))
    a(
        [196, 225, 289, 324],
        lambda x: (f"square root of {x}, I've got no calculator on me", F(round(x**0.5)), (x,)),
    )
    a(
        [10, 12, 16],
        lambda p: (f"2 to the power of {p}, my daughter says it's huge", F(2**p), (2, p)),
    )
    a(
        [(156, 12), (96, 8), (126, 9)],
        lambda x, y: (f"divide {x} by {y}, we're sharing out the sweets", F(x, y), (x, y)),
    )
    a(
        [(19, 100), (37, 250), (48, 120)],
        lambda x, y: (f"subtract {x} from {y}, it's her maths homework", F(y - x), (x, y)),
    )
    a(
        [(8, 15), (5, 12), (3, 11)],
        lambda x, y: (f"minus {x} plus {y}, the temperature went up overnight", F(y - x), (-x, y)),
    )
    a([()], lambda: ("what's 0.1 plus 0.2, my kid says a computer gets it wrong",
                     F(3, 10), (F(1, 10), F(2, 10))))  # fmt: skip
    a([()], lambda: ("what's nine hundred and ninety nine plus one, my little boy thinks "
                     "it's a million", F(1000), (999, 1)))  # fmt: skip
    a([()], lambda: ("what's 45 plus, sorry, 46 plus 19", F(65), (45, 46, 19)))
    # the pub quiz and DIY
    a(
        [(17, 19), (23, 13), (14, 16)],
        lambda x, y: (f"tiebreaker question, what's {x} times {y}", F(x * y), (x, y)),
    )
    a([()], lambda: ("how many hours in a year, like 365 times 24", F(365 * 24), (365, 24)))
    a(
        [("4.5", "3.2"), ("3.5", "2.4"), ("5.5", "2.2")],
        lambda x, y: (
            f"the room is {x} by {y} metres, what's {x} times {y}",
            F(x) * F(y),
            (F(x), F(y)),
        ),
    )
    a([()], lambda: ("what's 22 divided by 7, it's near pi isn't it", F(22, 7), (22, 7)))
    a(
        [2, 3, 5],
        lambda x: (
            f"what's the square root of {x} roughly",
            F(x**0.5).limit_denominator(10**9),
            (x,),
        ),
    )
    a(
        [(9, 8), (7, 6), (8, 7), (12, 12)],
        lambda x, y: (f"quick, whats {x} x {y}", F(x * y), (x, y)),
    )
    a(
        [(90,), (240,), (75,)],
        lambda x: (f"one third of {x}, I'm cutting the wood into three", F(x, 3), (x, 3)),
    )
    a([(58,), (74,), (130,)], lambda x: (f"splitting the petrol money, half of {x}", F(x, 2), (x,)))
    a([5, 7, 12], lambda x: (f"what happens if you divide {x} by zero, my son wants to know",
                             ("divide by zero",), (x,)))  # fmt: skip


# --- units --------------------------------------------------------------------------------------
def _units(s: _Set) -> None:
    k = "units"

    def u(options, make):
        s.num(k, options, make)

    # the kitchen (temperatures, weights, volumes)
    u(
        [350, 375, 400, 425],
        lambda f: (f"recipe says {f} F, what's that in celsius", f_to_c(f), (f,)),
    )
    u([160, 180, 200, 220], lambda c: (
        f"my oven's in celsius and the recipe's American, {c} C is what in fahrenheit",
        c_to_f(c), (c,)))  # fmt: skip
    u(
        [8, 12, 6],
        lambda o: (f"it wants {o} ounces of flour, how many grams is that", o * OUNCE / GRAM, (o,)),
    )
    u(
        [250, 200, 125],
        lambda g: (
            f"{g} grams of butter in ounces? it's an american recipe",
            g * GRAM / OUNCE,
            (g,),
        ),
    )
    u([()], lambda: ("how many ml in a cup", CUP / ML, (1,)))
    u(
        [2, 3],
        lambda n: (
            f"{int_words(n)} tablespoons, how many millilitres is that",
            n * TABLESPOON / ML,
            (n,),
        ),
    )
    u([500, 750], lambda n: (f"how many cups is {n} ml", n * ML / CUP, (n,)))
    u([("1.5",), ("2.5",)], lambda x: (f"what's {x} litres in millilitres", F(x) * 1000, (F(x),)))
    u(
        [("2 and a half", F(5, 2)), ("3 and a half", F(7, 2))],
        lambda t, x: (f"{t} pounds of potatoes, what's that in kilos", x * POUND, (x,)),
    )
    u(
        [4, 6],
        lambda c: (
            f"the fridge says {c} degrees celsius, what's that in fahrenheit",
            c_to_f(c),
            (c,),
        ),
    )
    # driving and travel
    u(
        [70, 60, 50],
        lambda v: (
            f"speed limit's {v} mph over here, what's that in km per hour",
            v * MPH / KMH,
            (v,),
        ),
    )
    u(
        [50, 80, 120],
        lambda v: (f"we're doing {v} km/h, what's that in miles an hour", v * KMH / MPH, (v,)),
    )
    u(
        [15, 12, 20],
        lambda g: (f"filling up the truck, {g} gallons is how many liters", g * GALLON, (g,)),
    )
    u(
        [23, 20, 32],
        lambda kg: (
            f"the suitcase limit is {kg} kilos, how many pounds is that",
            kg / POUND,
            (kg,),
        ),
    )
    u(
        [20, 15, 25],
        lambda v: (f"the boat's doing {v} knots, what's that in km/h", v * KNOT / KMH, (v,)),
    )
    u([()], lambda: ("how many kilometres is a marathon, 26.2 miles", F("26.2") * MILE / KM,
                     (F("26.2"),)))  # fmt: skip
    u(
        [10, 5],
        lambda n: (
            f"I'm running {n} kilometres on Sunday, how many miles is that",
            n * KM / MILE,
            (n,),
        ),
    )
    u([72, 54, 90], lambda v: (f"how many metres per second is {v} km/h", v * KMH, (v,)))
    # the body and the doctor's
    u([("38.5",), ("39",), ("37.8",)], lambda c: (
        f"the baby's temperature is {c} celsius, what's that in fahrenheit", c_to_f(F(c)),
        (F(c),)))  # fmt: skip
    u(
        [11, 12, 9],
        lambda st: (
            f"I weigh {st} stone, what's that in kg for the doctor's form",
            st * STONE,
            (st,),
        ),
    )
    u([6, 5], lambda ft: (f"what's {ft} feet in centimetres", ft * FOOT / CM, (ft,)))
    # DIY
    u(
        [80, 60, 120],
        lambda cm: (f"the shelf is {cm} cm wide, how many inches is that", cm * CM / INCH, (cm,)),
    )
    u([3, 4], lambda m: (f"how many feet is {m} metres, for the ceiling height", m / FOOT, (m,)))
    u([()], lambda: ("how many millimetres in an inch, the drill bits are metric",
                     INCH / MM, (1,)))  # fmt: skip
    u([100, 50], lambda m: (f"how many yards is {m} metres", m / YARD, (m,)))
    u([()], lambda: ("what's three quarters of a mile in metres", F(3, 4) * MILE, (F(3, 4),)))
    # corrections, weather, time
    u(
        [(3, 4), (2, 5)],
        lambda wrong, x: (
            f"how many pounds is {wrong} kilos, sorry, {x} kilos",
            x / POUND,
            (wrong, x),
        ),
    )
    u([(30,), (25,)], lambda c: (
        f"{c} degrees celsius in fahrenheit, my cousin in texas won't get it otherwise",
        c_to_f(c), (c,)))  # fmt: skip
    u(
        [20, 25],
        lambda c: (f"how many kelvin is room temperature, say {c} C", F(c) + F(27315, 100), (c,)),
    )
    u([150, 135], lambda m: (f"the film's {m} minutes, how many hours is that", F(m, 60), (m,)))


# --- spelling -----------------------------------------------------------------------------------
CARDS = ("congratulations", "anniversary", "sympathy", "retirement")
VEG = ("broccoli", "courgette", "aubergine", "zucchini", "cauliflower", "asparagus")
HARD = ("accommodate", "definitely", "embarrass", "millennium", "mischievous", "conscience",
        "questionnaire", "onomatopoeia", "liaison", "fluorescent", "bureaucracy",
        "connoisseur", "occasionally", "guarantee", "lieutenant", "entrepreneur", "silhouette",
        "hygiene", "privilege", "maintenance")  # fmt: skip
EASY = ("because", "friend", "people", "school", "island", "beautiful", "tomorrow", "different")
BREEDS = ("chihuahua", "dachshund", "schnauzer", "rottweiler")
PLACES = ("Edinburgh", "Loughborough", "Worcester", "Albuquerque", "Massachusetts")
CROSSWORD = ("zephyr", "sphinx", "quixotic", "gazebo")


def _spelling(s: _Set) -> None:
    k, rng = "spelling", s.rng
    hard, easy = _Pool(rng, HARD), _Pool(rng, EASY)

    def sp(text: str, word: str) -> None:
        s.ask(k, text, (letters(word),))

    w = rng.choice(CARDS)
    sp(f"how do you spell {w}, I'm writing a card", w)
    sp("spell restaurant for me, I'm leaving a review and it looks wrong", "restaurant")
    sp("spell accommodate, is it one m or two", "accommodate")
    sp("can you spell Wednesday, she's got a spelling test tomorrow", "Wednesday")
    sp("February, how's that spelt? I always miss the first r", "February")
    w = rng.choice(VEG)
    sp(f"I'm doing the shopping list, how do you spell {w}", w)
    sp("how do you spell neighbour, the british way", "neighbour")
    sp("spell colour with the u please", "colour")
    w = hard.take()
    sp(f"what's the proper spelling of {w}, autocorrect keeps changing it", w)
    w = hard.take()
    sp(f"I never get {w} right, spell it", w)
    w = hard.take()
    sp(f"spell {w} slowly for me", w)
    sp("my boss's email says recieve, how do you actually spell receive", "receive")
    sp("spell cappuccino, I'm writing the cafe menu board", "cappuccino")
    w = rng.choice(BREEDS)
    sp(f"we've got a new puppy, a {w}, how d'you spell that", w)
    sp("how's pyjamas spelt over here, british spelling", "pyjamas")
    w = rng.choice(CROSSWORD)
    sp(f"doing the crossword, spell {w}", w)
    w = easy.take()
    sp(f"how d'you spell {w}", w)
    w = hard.take()
    sp(f"spell out {w} please", w)
    sp("can you spell mortgage, I'm filling in a form", "mortgage")
    sp("is it seperate or separate, spell it properly", "separate")
    w = rng.choice(PLACES)
    sp(f"we're driving to {w}, how do you spell it for the sat nav", w)
    w = hard.take()
    sp(f"what's the correct spelling for {w}", w)
    w = easy.take()
    sp(f"spell {w} for my six year old", w)
    w = hard.take()
    sp(f"quick, how's {w} spelled", w)
    sp("spell definitely, I always write defiantly by mistake", "definitely")
    sp("how do you spell Worcestershire, like the sauce", "Worcestershire")
    w = easy.take()
    sp(f"my little girl wants to write {w} in her diary, how's it spelled", w)
    sp("jewellery, the english way, how do you spell it", "jewellery")


# --- facts --------------------------------------------------------------------------------------
def _surface(rng: random.Random, c: Country) -> str:
    """The country's name, or now and then another name people use for it."""
    return rng.choice(c.aliases) if c.aliases and rng.random() < 0.3 else c.name


def _facts(s: _Set) -> None:
    k, rng = "facts", s.rng
    countries = _Pool(rng, COUNTRIES)

    def c_ask(text: str, answer: Callable[[Country], str], ok=lambda c: True) -> None:
        c = countries.take(ok)
        s.ask(k, text.format(c=_surface(rng, c)), (answer(c),))

    # the pub quiz
    c_ask("pub quiz, capital of {c}, quick", capital)
    c_ask("capital city, {c}, go", capital)
    c_ask("capital of {c} for ten points", capital)
    s.ask(k, "what's the capital of Sweden, no hang on, Norway", ("Oslo",))
    # homework
    c_ask("my daughter's asking what the capital city of {c} is and I've got no idea", capital)
    c_ask("which continent is {c} in, for her geography homework", continent)
    c_ask("{c}, which continent? we're settling an argument", continent)
    c_ask("what's {c}'s capital again, it's on the tip of my tongue", capital)
    c_ask("I'm doing a jigsaw of the world, what's the capital of {c}", capital)
    # travel planning
    c_ask("we're flying to {c} next month, what money do they use there", currency)
    c_ask("what currency will I need in {c}, trying to sort my travel money", currency)
    c_ask("going to {c} on holiday, what's the currency over there", currency)
    c_ask("what's the money called over in {c}, I've never been", currency)
    c_ask("what do they speak in {c}? I want to learn a few phrases before we go", lambda c:
          c.language, lambda c: c.language != "English")  # fmt: skip
    c_ask("i always forget, what language do people in {c} speak", lambda c: c.language)
    c_ask("which language would I need in {c}", lambda c: c.language)
    c_ask("what language is spoken in {c}, we've got an exchange student coming",
          lambda c: c.language)  # fmt: skip
    # the solar system poster
    s.ask(k, "my son's doing a solar system poster, which planet is the biggest", (BIGGEST,))
    s.ask(k, "smallest planet in the whole solar system, which is it", (SMALLEST,))
    s.ask(k, "pub quiz: closest planet to the sun", (BY_ORDER[1],))
    s.ask(k, "which planet's furthest from the sun now Pluto doesn't count", (BY_ORDER[8],))
    s.ask(k, "biggest planet, is it Saturn?", (BIGGEST,))
    orders = _Pool(rng, range(2, 8))
    n = orders.take()
    s.ask(k, f"which planet comes {ordinal_words(n)} from the sun", (BY_ORDER[n],))
    n = orders.take()
    s.ask(k, f"the {nth(n)} planet from the sun, which one's that, for my homework",
          (BY_ORDER[n],))  # fmt: skip
    n = orders.take()
    s.ask(k, f"where's {BY_ORDER[n]} in order from the sun, like what number is it",
          (ordinal_words(n),))  # fmt: skip
    # days and months with a small child
    days, months = _Pool(rng, range(7)), _Pool(rng, range(12))
    d = days.take()
    s.ask(k, f"my little one's learning the days of the week, what comes after {WEEKDAYS[d]}",
          (WEEKDAYS[(d + 1) % 7],))  # fmt: skip
    d = days.take()
    s.ask(k, f"the day after {WEEKDAYS[d].lower()}, what's that, she keeps asking",
          (WEEKDAYS[(d + 1) % 7],))  # fmt: skip
    m = months.take()
    s.ask(k, f"what month comes after {MONTHS[m]}, she's doing the calendar at school",
          (MONTHS[(m + 1) % 12],))  # fmt: skip
    m = months.take()
    s.ask(k, f"the month after {MONTHS[m].lower()}, what is it", (MONTHS[(m + 1) % 12],))


# --- follow-ups ---------------------------------------------------------------------------------
def _follow_ups(s: _Set, now: datetime) -> None:
    k, rng = "follow-up", s.rng
    countries = _Pool(rng, COUNTRIES)
    today = now.date()

    def pair(fact: Callable[[Country], str]) -> tuple[Country, Country]:
        a = countries.take()
        b = countries.take(lambda c: fact(c) != fact(a))
        return a, b

    def f(first: str, second: str, fact: Callable[[Country], str]) -> None:
        a, b = pair(fact)
        s.ask(k, (first.format(c=_surface(rng, a)), second.format(c=_surface(rng, b))),
              (fact(b),))  # fmt: skip

    def n(options, make):
        s.num(k, options, make)

    # facts, the second question cut short: a quiz sheet, travel, homework
    f("quiz sheet says capital of {c}, what is it", "and {c}? that's the last one", capital)
    f("we're off to {c} first, what currency do they use", "what about {c}, we go there after",
      currency)  # fmt: skip
    f("which continent is {c} on, for the geography project", "and {c}, while we're at it",
      continent)  # fmt: skip
    f("what language is spoken in {c}, it's for my language exchange app",
      "how about {c} then, my aunt lives there?", lambda c: c.language)  # fmt: skip
    f("which continent's {c} in, I keep getting it wrong", "{c}?", continent)
    c = countries.take()
    s.ask(k, (f"pub quiz round, capital of {_surface(rng, c)}?",
              "and what money do they use there?"), (currency(c),))  # fmt: skip
    o = rng.sample(range(2, 8), 2)
    s.ask(k, (f"which planet's {ordinal_words(o[0])} from the sun", f"and the {nth(o[1])}?"),
          (BY_ORDER[o[1]],))  # fmt: skip
    s.ask(k, ("what's the biggest planet, for the poster", "and the smallest?"), (SMALLEST,))
    d = rng.randrange(7)
    s.ask(k, (f"my little one's asking what day comes after {WEEKDAYS[d]}", "and after that?"),
          (WEEKDAYS[(d + 2) % 7],))  # fmt: skip
    m = rng.randrange(12)
    s.ask(k, (f"we're doing the months at bedtime, what comes after {MONTHS[m]}",
              "and the one after that?"), (MONTHS[(m + 2) % 12],))  # fmt: skip
    s.ask(k, ("how long till christmas", "and till halloween?"),
          (_until(today, _next(today, 10, 31)),))  # fmt: skip
    # spelling, one word then another
    w1, w2, w3, w4 = rng.sample(HARD, 4)
    s.ask(k, (f"how do you spell {w1}, I'm writing my cover letter", f"and {w2}?"),
          (letters(w2),))  # fmt: skip
    s.ask(k, (f"spell {w3} for me, it's for the crossword", f"now {w4}, same again"),
          (letters(w4),))  # fmt: skip
    # conversions, then another amount or another unit
    n([2, 3, 4], lambda kg: (
        (f"the baby weighed {kg} kilos at the check-up, how many pounds is that",
         "and in ounces, my nan only does ounces"), kg / OUNCE, (kg,)))  # fmt: skip
    n([(3, 8), (5, 12), (4, 9)], lambda a, b: (
        (f"it's {a} miles to the campsite, what's that in km", f"and {b} for the whole loop?"),
        b * MILE / KM, (a, b)))  # fmt: skip
    n([4, 6, 8], lambda x: ((f"the picture frame's {x} inches, how many cm is that",
                             "and in millimetres?"), x * INCH / MM, (x,)))  # fmt: skip
    n([(20, 25), (15, 35), (10, 28)], lambda a, b: (
        (f"it's {a} C here today, what's that in fahrenheit", f"and {b} tomorrow?"),
        c_to_f(b), (a, b)))  # fmt: skip
    n([(10, 15), (5, 8), (12, 20)], lambda a, b: (
        (f"the dumbbells are {a} kilos each, in pounds please", f"what about {b}, the heavy ones"),
        b / POUND, (a, b)))  # fmt: skip
    n([(2, 3), (3, 5)], lambda a, b: (
        (f"how many ml is {int_words(a)} cups, the jug's metric", f"and if it's {b}?"),
        b * CUP / ML, (a, b)))  # fmt: skip
    n([(60, 70), (30, 40)], lambda a, b: (
        (f"the sign says {a} mph, what's that in km/h", f"and {b} on the dual carriageway?"),
        b * MPH / KMH, (a, b)))  # fmt: skip
    n([5, 2, 8], lambda m: (
        (f"the rope's {m} metres, how many feet is that",
         "and in yards, for the old tape measure?"), m / YARD, (m,)))  # fmt: skip
    n([(4, 10), (8, 3)], lambda a, b: (
        (f"grandma's recipe says {a} ounces of sugar, how many grams", f"and {b} of flour?"),
        b * OUNCE / GRAM, (a, b)))  # fmt: skip
    # sums carried on
    n([(12, 4), (7, 6), (15, 3)], lambda a, b: (
        (f"what's {a} times {b}, it's for the seating plan", "times three now"),
        F(a * b * 3), (a, b, 3)))  # fmt: skip
    n([(45, 30, 12), (120, 85, 40)], lambda a, b, c: (
        (f"{a} plus {b}, that's the two invoices", f"and take away {c} for the deposit"),
        F(a + b - c), (a, b, c)))  # fmt: skip
    n([80, 60, 120], lambda x: (
        (f"what's 15% of {x}, for the service charge", "double it, we're feeling generous"),
        F(15 * x * 2, 100), (15, x, 2)))  # fmt: skip
    n([(144, 6), (90, 5)], lambda a, b: (
        (f"{a} divided by {b}, sharing out the raffle money", "and half of that, for each team?"),
        F(a, b * 2), (a, b)))  # fmt: skip
    n([(11, 19), (14, 30)], lambda a, b: (
        (f"what's {a} squared, it's my maths homework", f"and add {b} to that"),
        F(a * a + b), (a, b)))  # fmt: skip
    n([(9, 7, 8), (6, 8, 11)], lambda a, b, c: (
        (f"whats {a} times {b}, I'm counting the chairs", f"plus {c} more at the back"),
        F(a * b + c), (a, b, c)))  # fmt: skip
    n([(100, 28, 8), (250, 70, 9)], lambda a, b, c: (
        (f"what's {a} minus {b}, that's what's left in the kitty", f"divide that by {c}"),
        F(a - b, c), (a, b, c)))  # fmt: skip


# --- refusals -----------------------------------------------------------------------------------
def _refusals(s: _Set) -> None:
    for text in (
        # weather, news, sport
        "is it going to rain this afternoon, should I bring the washing in",
        "what's the weather like in Manchester tomorrow",
        "whats the pollen count like today, my hay fever's awful",
        "what's in the news this morning",
        "what's the score in the Arsenal game",
        "who won the match last night",
        "how's the traffic on the M25 this morning",
        "is the bus running late today",
        # prices and money
        "how much is a pint of milk at Tesco",
        "what's bitcoin worth right now",
        "how much are flights to Spain in August",
        "what's the euro to pound rate today",
        # calls and messages
        "call mum, she'll be up by now",
        "text Dave that I'm running late",
        "email my boss and tell him I'm off sick today",
        "read me my messages from this morning",
        "ring the dentist for me, I need to move my appointment",
        # shopping and bookings
        "order more dishwasher tablets off Amazon",
        "add eggs to my shopping list",
        "book us a table at the Italian place for Friday night",
        "get me two tickets for the cinema tonight",
        "find me a plumber near here, the sink's leaking",
        "directions to the nearest petrol station please",
        # the house
        "put the heating on, it's freezing in here",
        "turn the kitchen lights off, I'm already upstairs",
        "lock the front door, I'm already in bed",
        "set the thermostat to 21",
        "start the robot hoover",
        # music and telly
        "play some Fleetwood Mac",
        "put Radio 2 on",
        "skip this song, I hate it",
        "turn the telly up",
        "what's on telly tonight",
    ):
        s.ask("refusal", text)
