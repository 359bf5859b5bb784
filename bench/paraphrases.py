"""Paraphrase set for ``bench/skills.py --requests paraphrase``: 205 everyday requests in
wordings the demo model's training corpus never used, each with an answer worked out here.

Eight kinds: clock (time, date, weekday, days until), timer (set, remind, what's left, cancel),
arithmetic, units (length, weight, volume, temperature), spelling, facts (capitals,
continents, languages, currencies of the 30 countries of ``training/facts.py``, planets, days
and months), follow-up (two turns), refusal (weather, news, prices, music, calls, bookings...).
The same seed gives the same requests; the clock's answers follow the real clock.

How this generator differs from the training corpus's (``training/corpus.py``,
``training/skills_tools.py``, ``training/skills_facts.py``):

- **Shapes.** Training writes whole questions, one template per line ("What's the capital of
  {country}?", "Convert {v} {from} to {to}.", "Set a timer for {dur}.") and prefixes a few of them
  with fillers ("um", "hey diffvoice", "tell me"). Here a request is a *core* (a noun phrase such
  as "the capital city over in Kenya", or an embedded clause such as "what they pay with in
  Kenya") put inside a *frame* that is mostly a statement or a request, not a question: "I need to
  know ...", "Give me ...", "I'd like ...", "... , please", "quick one for you: ...", "could you
  work out ... for me". Politeness and fillers sit mid-sentence or at the end ("ten miles in
  kilometres, please", "so, ..., if you can"), and the object often comes first ("the word
  xylophone, spell it for me", "Mars, tell me where it sits in order from the sun").
- **Vocabulary.** Verbs and nouns the training templates do not use: "figure out", "added
  together", "taken away from", "lots of", "split four ways", "a third of", "double",
  "put ... on the clock", "nudge me", "give me a shout", "kill ... off", "what's left on",
  "letter by letter" after the word, "how ... is written"; unit abbreviations and British/US
  spellings ("kms", "lbs", "ml", "litres"), quantities that are articles ("an ounce", "a
  gallon", "a couple of"), and words to spell that are not in the training spelling lists.
- **Numbers.** Digits, words, thousands separators ("12,500"), and implicit quantities ("half
  an hour", "a couple of minutes", "an ounce", "a third of", "double"), the forms docs/tools.md
  says the tools read.
- **Checks.** Every expected answer is computed here, independently of the tools: arithmetic
  with :class:`fractions.Fraction`, conversions from exact unit definitions (1 mile = 1.609344 km,
  1 lb = 0.45359237 kg, US volumes), calendar sums from :mod:`datetime`, spelled letters from
  the word, facts from ``training/facts.py`` tables (the facts, not the wordings). The expected
  text follows ``useful()`` in ``bench/skills.py``: numbers in words, "about" dropped (an
  inexact result may be rounded to one decimal fewer than the tools say), a refusal is expected
  (``expect == ()``) for what the assistant cannot do. Timer requests end with an unscored
  "cancel all my timers", so no timer outlives its request in the one chat process.

``tests/test_paraphrases.py`` checks that no request equals a training prompt.
"""

from __future__ import annotations

import random
import sys
from datetime import datetime
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.skills import MONTHS, WEEKDAYS, Request, days_until  # noqa: E402
from training import facts as F  # noqa: E402
from words.spoken import int_words, ordinal_words  # noqa: E402

SEED = 26
KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
CLEAR_TIMERS = ("cancel all my timers",)  # sent after a timer request, not scored

# --- frames: a core inside a statement ---------------------------------------------------------
# {x} is a noun phrase ("the capital city over in Kenya"), {w} an embedded clause ("what the
# capital of Kenya is").
NP_FRAMES = (
    "I need {x}", "give me {x}, please", "{x}, please", "I'd like {x}", "just {x}, thanks",
    "quick one for you: {x}", "so, {x}, if you can", "I'm after {x}", "{x}, if you don't mind",
    "please give me {x} real quick",
)  # fmt: skip
WH_FRAMES = (
    "I need to know {w}", "I'd like to know {w}", "I wonder {w}", "tell me {w}, please",
    "I can never remember {w}", "any idea {w}", "let me know {w}", "help me out, {w}",
    "I'm trying to remember {w}", "I've been wondering {w}",
)  # fmt: skip


def _frame(rng: random.Random, np: str | None = None, wh: str | None = None) -> str:
    options = [f.format(x=np) for f in NP_FRAMES] * bool(np) + [
        f.format(w=wh) for f in WH_FRAMES
    ] * bool(wh)
    return rng.choice(options)


def _num(n: int, rng: random.Random) -> str:
    """A number as a user types it: words, digits, or digits with a thousands separator."""
    form = rng.random()
    if form < 0.5:
        return int_words(n)
    return f"{n:,}" if n >= 1000 and form < 0.75 else str(n)


def _words(x: Fraction, places: int) -> str:
    r = round(x * 10**places)
    whole, frac = divmod(abs(r), 10**places)
    words = int_words(whole)
    digits = str(frac).rjust(places, "0").rstrip("0") if places else ""
    if digits:
        ones = "zero one two three four five six seven eight nine".split()
        words += " point " + " ".join(ones[int(d)] for d in digits)
    return ("minus " if r < 0 else "") + words


def _value(x: Fraction) -> tuple[str, ...]:
    """The expected number in words, without "about": exact when it has at most two decimals;
    else rounded to about three significant figures (the tools' rule, docs/tools.md) or to one
    decimal fewer ("three point eight" litres in a gallon is a right spoken answer too)."""
    if round(x * 100) == x * 100:
        return (_words(x, 2),)
    places = 2 if abs(x) < 10 else 1 if abs(x) < 100 else 0
    return tuple(dict.fromkeys(_words(x, p) for p in (places, max(places - 1, 0))))


# --- clock -----------------------------------------------------------------------------------
def clock(rng: random.Random, now: datetime) -> list[Request]:
    hours = {int_words(now.hour % 12 or 12), int_words((now.hour + 1) % 12 or 12)}
    today = f"{MONTHS[now.month - 1]} {ordinal_words(now.day)}"
    day = WEEKDAYS[now.weekday()]
    out = [Request((t,), "clock", tuple(sorted(hours))) for t in (
        "I need the time, please", "give me the current time", "the time, quickly",
        "sorry to bother you, I've lost track of the time", "tell me what the clock says now",
        "I'd like to know what time it's got to", "let me know the time, I've got a train",
    )]  # fmt: skip
    out += [Request((t,), "clock", (today,)) for t in (
        "I need today's date for a form", "give me the date, please",
        "tell me the date, I keep forgetting", "today's date, if you don't mind",
    )]  # fmt: skip
    out += [Request((t,), "clock", (day,)) for t in (
        "today's day of the week, please",
        "I lost track of the week, which day is today", "tell me the day of the week",
        "remind me which weekday we're on", "I can never keep track of what weekday it is today",
    )]  # fmt: skip
    events = [("christmas", 12, 25), ("halloween", 10, 31), ("new year's day", 1, 1),
              ("valentine's day", 2, 14)]  # fmt: skip
    until = ("I need to know how many days are left before {e}",
             "tell me how far off {e} is in days", "give me the number of days till {e}",
             "count down the days to {e} for me")  # fmt: skip
    for i, (name, m, d) in enumerate(events):
        out.append(Request((until[i].format(e=name),), "clock", (days_until(m, d),)))
    return out


# --- timers and reminders --------------------------------------------------------------------
DURATIONS = (  # (as typed, seconds)
    ("ten minutes", 600), ("4 minutes", 240), ("half an hour", 1800), ("an hour", 3600),
    ("a couple of minutes", 120), ("ninety seconds", 90), ("twenty five minutes", 1500),
    ("an hour and a half", 5400), ("45 seconds", 45), ("a quarter of an hour", 900),
    ("eight minutes", 480), ("two hours", 7200), ("three and a half minutes", 210),
)  # fmt: skip


def _duration_words(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{int_words(n)} {u}{'' if n == 1 else 's'}" for n, u in ((h, "hour"),
             (m, "minute"), (s, "second")) if n]  # fmt: skip
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def timers(rng: random.Random) -> list[Request]:
    set_frames = (
        "put {d} on the clock for me", "I need {d} counted down, please",
        "count down {d} for me", "give me a countdown of {d}, thanks",
        "I'm boiling eggs, so {d} on a timer please", "could you get a timer going, {d}",
        "the {label} needs {d}, time it please", "{d} for the {label}, timer please",
    )  # fmt: skip
    remind_frames = (
        "nudge me in {d} to {task}", "in {d} I have to {task}, so give me a shout",
        "I'll need reminding to {task} in {d}", "in {d}, tell me to {task}",
        "I have to {task} in {d}, so nudge me then", "give me a shout in {d} to {task}",
    )  # fmt: skip
    tasks = ("ring the plumber", "put the washing out", "turn the oven down",
             "check on the baby", "switch the sprinkler off", "fetch the post")  # fmt: skip
    labels = ("rice", "biscuits", "kettle", "stew", "roast", "porridge")
    out = []
    durations = list(DURATIONS)
    rng.shuffle(durations)
    for i, frame in enumerate(set_frames + remind_frames + set_frames[:4]):
        said, secs = durations[i % len(durations)]
        text = frame.format(d=said, label=rng.choice(labels), task=rng.choice(tasks))
        out.append(Request((text,), "timer", (_duration_words(secs),), CLEAR_TIMERS))
    left = (
        "what's left on it",
        "how much longer have I got on that",
        "tell me how long it's got to go",
        "I need to know how far along it is",
    )
    for i, q in enumerate(left):
        said, _ = durations[i]
        out.append(
            Request(
                (f"put {said} on the clock", q), "timer", ("minute", "second", "hour"), CLEAR_TIMERS
            )
        )
    cancel = ("kill it off, I'm done", "scrap that timer", "actually, forget the timer",
              "I don't need that timer any more, switch it off")  # fmt: skip
    for i, q in enumerate(cancel):
        said, _ = durations[-1 - i]
        out.append(Request((f"count down {said} for me", q), "timer", ("cancelled",), CLEAR_TIMERS))
    return out


# --- arithmetic ------------------------------------------------------------------------------
def arithmetic(rng: random.Random) -> list[Request]:
    def pick(lo: int, hi: int) -> int:
        return rng.randint(lo, hi)

    items: list[tuple[str, Fraction]] = []
    for _ in range(3):
        a, b = pick(12, 99), pick(12, 99)
        items.append((f"{_num(a, rng)} and {_num(b, rng)} added together", Fraction(a + b)))
    a, b = pick(1200, 9000), pick(300, 999)
    items.append((f"the sum of {_num(a, rng)} and {_num(b, rng)}", Fraction(a + b)))
    for _ in range(3):
        a, b = pick(100, 900), pick(11, 99)
        items.append((f"{_num(b, rng)} taken away from {_num(a, rng)}", Fraction(a - b)))
    a, b = pick(20, 60), pick(61, 99)
    items.append((f"{_num(a, rng)} take away {_num(b, rng)}", Fraction(a - b)))
    for _ in range(3):
        a, b = pick(6, 19), pick(11, 49)
        items.append((f"{_num(a, rng)} multiplied by {_num(b, rng)}", Fraction(a * b)))
    a, b = pick(3, 9), pick(12, 40)
    items.append((f"{_num(a, rng)} lots of {_num(b, rng)}", Fraction(a * b)))
    a, b = pick(120, 900), pick(11, 30)
    items.append((f"{_num(a, rng)} times {_num(b, rng)}", Fraction(a * b)))
    for _ in range(3):
        b, q = pick(3, 12), pick(12, 90)
        items.append((f"{_num(b * q, rng)} divided by {_num(b, rng)}", Fraction(q)))
    b, q = pick(4, 8), pick(15, 60)
    items.append((f"{_num(b * q, rng)} split {int_words(b)} ways", Fraction(q)))
    items.append(("seven divided by two", Fraction(7, 2)))
    items.append((f"a thousand divided by {_num(8, rng)}", Fraction(125)))
    for n in (pick(10, 99) * 3, pick(100, 300) * 3):
        items.append((f"a third of {_num(n, rng)}", Fraction(n, 3)))
    for n in (pick(20, 200) * 2, 250):
        items.append((f"half of {_num(n, rng)}", Fraction(n, 2)))
    n = pick(20, 90) * 4
    items.append((f"a quarter of {_num(n, rng)}", Fraction(n, 4)))
    n = pick(150, 999)
    items.append((f"double {_num(n, rng)}", Fraction(2 * n)))
    p, n = rng.choice((10, 15, 25, 40)), pick(2, 30) * 20
    items.append((f"{int_words(p)} percent of {_num(n, rng)}", Fraction(p * n, 100)))
    a, b = pick(10_000, 90_000), pick(1_000, 9_000)
    items.append((f"{a:,} plus {b:,}", Fraction(a + b)))
    frames = (
        "could you work out {e} for me", "I need {e} worked out", "figure out {e}, please",
        "give me {e}", "{e}, what does that come out at", "I'm stuck on {e}",
        "work {e} out for me, thanks", "help me with some sums: {e}",
        "what I want is {e}", "quickly, {e}",
    )  # fmt: skip
    return [Request((frames[i % len(frames)].format(e=e),), "arithmetic", _value(v))
            for i, (e, v) in enumerate(items)]  # fmt: skip


# --- unit conversions ------------------------------------------------------------------------
# unit → (singular, plural, other ways to type it, size in a base unit, kind); exact definitions
U = {
    "km": ("kilometre", "kilometres", ("kms", "km"), Fraction(1000), "len"),
    "mi": ("mile", "miles", (), Fraction(1609344, 1000), "len"),
    "m": ("metre", "metres", ("meters",), Fraction(1), "len"),
    "ft": ("foot", "feet", ("ft",), Fraction(3048, 10000), "len"),
    "in": ("inch", "inches", ("in",), Fraction(254, 10000), "len"),
    "cm": ("centimetre", "centimetres", ("cm",), Fraction(1, 100), "len"),
    "yd": ("yard", "yards", (), Fraction(9144, 10000), "len"),
    "kg": ("kilogram", "kilograms", ("kilos", "kg"), Fraction(1000), "mass"),
    "lb": ("pound", "pounds", ("lbs",), Fraction(45359237, 100000), "mass"),
    "g": ("gram", "grams", ("g",), Fraction(1), "mass"),
    "oz": ("ounce", "ounces", ("oz",), Fraction(28349523125, 10**9), "mass"),
    "l": ("litre", "litres", ("liters",), Fraction(1000), "vol"),
    "ml": ("millilitre", "millilitres", ("ml",), Fraction(1), "vol"),
    "gal": ("gallon", "gallons", (), Fraction(3785411784, 10**6), "vol"),
    "cup": ("cup", "cups", (), Fraction(2365882365, 10**7), "vol"),
    "tbsp": ("tablespoon", "tablespoons", (), Fraction(1478676478125, 10**11), "vol"),
}  # fmt: skip
CONVERSIONS = (  # (value, from, to) with the value as typed, or None for the words
    (10, "mi", "km"), (5, "km", "mi"), (1, "mi", "ft"), (6, "ft", "m"), (12, "in", "cm"),
    (100, "m", "yd"), (30, "cm", "in"), (2, "km", "m"), (1, "yd", "in"),
    (1, "oz", "g"), (5, "kg", "lb"), (1, "lb", "g"), (250, "g", "oz"), (3, "kg", "g"),
    (12, "lb", "kg"), (8, "oz", "lb"),
    (1, "gal", "l"), (2, "l", "ml"), (3, "cup", "ml"), (500, "ml", "cup"), (1, "tbsp", "ml"),
    (4, "l", "gal"), (1, "l", "cup"),
)  # fmt: skip
TEMPS = ((0, "c", "f"), (100, "c", "f"), (25, "c", "f"), (98, "f", "c"), (50, "f", "c"),
         (-40, "c", "f"), (350, "f", "c"))  # fmt: skip


def _said(rng: random.Random, n: int, unit: str) -> str:
    sing, plur, other = U[unit][:3]
    if n == 1:
        return rng.choice((f"a {sing}" if sing[0] not in "aeiou" else f"an {sing}", f"one {sing}"))
    return f"{_num(n, rng)} {rng.choice((plur, plur, *other))}"


def units(rng: random.Random) -> list[Request]:
    frames = (
        "{q} in {to}, please", "I need {q} in {to}", "give me {q} expressed in {to}",
        "{q}, how much is that in {to}", "I've got {q} and need it in {to}",
        "could you put {q} into {to} for me", "a recipe says {q}, I need that in {to}",
        "tell me what {q} comes to in {to}",
    )  # fmt: skip
    out = []
    for i, (n, src, dst) in enumerate(CONVERSIONS):
        v = Fraction(n) * U[src][3] / U[dst][3]
        to = U[dst][1] if rng.random() < 0.8 else rng.choice(U[dst][2] or (U[dst][1],))
        text = frames[i % len(frames)].format(q=_said(rng, n, src), to=to)
        out.append(Request((text,), "units", _value(v)))
    names = {"c": ("celsius", "degrees C"), "f": ("fahrenheit", "degrees F")}
    tframes = ("{n} degrees {src} in {dst}, please", "I need {n} {src} in {dst}",
               "the oven says {n} {src}, give me that in {dst}",
               "{n} degrees {src} converted to {dst}")  # fmt: skip
    for i, (n, src, dst) in enumerate(TEMPS):
        v = Fraction(n) * 9 / 5 + 32 if src == "c" else (Fraction(n) - 32) * 5 / 9
        text = tframes[i % len(tframes)].format(
            n=_num(n, rng) if n >= 0 else f"minus {-n}", src=names[src][0], dst=names[dst][0]
        )
        out.append(Request((text,), "units", _value(v)))
    return out


# --- spelling --------------------------------------------------------------------------------
SPELL = (  # a few from the training lists, most not in them
    "necessary", "rhythm", "accommodate", "separate", "pharaoh", "bureaucracy", "conscience",
    "parallel", "millennium", "rhinoceros", "silhouette", "questionnaire", "entrepreneur",
    "guarantee", "hygiene", "liaison", "maintenance", "pronunciation", "threshold",
    "acquaintance", "camouflage", "chameleon", "kangaroo", "mosquito", "xylophone", "tomato",
)  # fmt: skip


def spelling(rng: random.Random) -> list[Request]:
    frames = (
        "I need {w} spelled out", "give me the letters of {w}, please",
        "{w}, letter by letter please", "I'm writing a card, how {w} is written",
        "tell me how to spell {w}", "I'd like the spelling of {w}",
        "the word {w}, spell it for me", "spell me {w}, thanks",
        "I never get {w} right, spell it please",
    )  # fmt: skip
    out = []
    for i, w in enumerate(SPELL):
        frame = frames[i % len(frames)]
        if "how {w} is written" in frame:
            frame = "I'm writing a card, tell me how {w} is written"
        letters = ", ".join(c.upper() for c in w)
        out.append(Request((frame.format(w=w),), "spelling", (letters,)))
    return out


# --- facts the demo model knows --------------------------------------------------------------
def _short(fact: str) -> str:
    """The part of a fact a reply must hold: "the euro" → "euro", "Hindi and English" →
    "Hindi"."""
    return fact.removeprefix("the ").removeprefix("both ").split(" and ")[0].split(",")[0]


def facts(rng: random.Random) -> list[Request]:
    countries = list(F.COUNTRIES)
    rng.shuffle(countries)
    asks = (
        ("the capital city over in {c}", "which city {c} is governed from", "capital"),
        ("the continent {c} sits on", "which continent {c} belongs to", "continent"),
        ("the language people use in {c}", "what language folks speak over in {c}", "language"),
        ("the money they pay with in {c}", "what they pay with in {c}", "currency"),
    )  # fmt: skip
    out = []
    for i, c in enumerate(countries[:28]):
        np, wh, attr = asks[i % 4]
        name = rng.choice(c.surfaces)
        text = _frame(rng, np.format(c=name), wh.format(c=name))
        out.append(Request((text,), "facts", (_short(getattr(c, attr)),)))
    p = F.PLANETS
    out += [
        Request(("I need the name of the fifth planet out from the sun",), "facts", ("Jupiter",)),
        Request(("Mars, tell me where it sits in order from the sun",), "facts", ("fourth",)),
        Request(("give me the planet that's closest to the sun",), "facts", (p[0].name,)),
        Request(("tell me the number of moons Mars has",), "facts", ("two",)),
        Request(("I'd like to know the biggest moon of Saturn",), "facts", ("Titan",)),
        Request(("the day that follows Tuesday, please",), "facts", ("Wednesday",)),
        Request(("I need the month that comes right before March",), "facts", ("February",)),
        Request(("the month following October, please",), "facts", ("November",)),
    ]
    return out


# --- follow-ups ------------------------------------------------------------------------------
def followups(rng: random.Random) -> list[Request]:
    c = {x.name: x for x in F.COUNTRIES}
    r = Request
    return [
        r(("give me the capital of Norway", "Sweden too"), "follow-up", ("Stockholm",)),
        r(("I need Egypt's capital city, please", "and the one for Kenya"), "follow-up",
          ("Nairobi",)),
        r(("the money they pay with in Japan, please", "same thing for Thailand"), "follow-up",
          (_short(c["Thailand"].currency),)),
        r(("the language spoken in Greece, please", "okay, now Poland"), "follow-up",
          ("Polish",)),
        r(("tell me the continent Brazil is on", "Australia next"), "follow-up", ("Oceania",)),
        r(("could you work out 15 times 4 for me", "double the answer"), "follow-up",
          ("one hundred and twenty",)),
        r(("I need 120 divided by 4", "and take away ten from it"), "follow-up", ("twenty",)),
        r(("figure out nine plus sixteen, please", "then times it by three"), "follow-up",
          ("seventy five",)),
        r(("ten miles in kilometres, please", "and for fifty"), "follow-up",
          _value(Fraction(50) * U["mi"][3] / U["km"][3])),
        r(("I need 2 kilos in pounds", "now try 7"), "follow-up",
          _value(Fraction(7) * U["kg"][3] / U["lb"][3])),
        r(("3 litres in millilitres, please", "and in cups instead"), "follow-up",
          _value(Fraction(3) * U["l"][3] / U["cup"][3])),
        r(("spell me giraffe, thanks", "and the word parallel"), "follow-up",
          ("P, A, R, A, L, L, E, L",)),
        r(("I need necessary spelled out", "what about embarrass"), "follow-up",
          ("E, M, B, A, R, R, A, S, S",)),
        r(("the day that follows Sunday, please", "and after that one"), "follow-up", ("Tuesday",)),
        r(("give me the fourth planet from the sun", "and the next one out"), "follow-up",
          ("Jupiter",)),
        r(("the capital of Canada, please", "Mexico next"), "follow-up",
          ("Mexico City",)),
        r(("Portugal's capital city, please", "Spain as well"), "follow-up", ("Madrid",)),
        r(("the money they pay with in Switzerland, please", "and in Sweden"), "follow-up",
          (_short(c["Sweden"].currency),)),
        r(("the month following June, please", "and the one after that"), "follow-up",
          ("August",)),
        r(("could you work out a third of ninety for me", "and half of it"), "follow-up",
          ("fifteen",)),
    ]  # fmt: skip


# --- honest refusals -------------------------------------------------------------------------
REFUSALS = (
    "give me the forecast for the weekend", "I need to know if I'll need an umbrella later",
    "tell me today's headlines", "read me the latest news, please",
    "I'd like to know the price of bitcoin right now", "tell me how much petrol costs today",
    "put on some jazz, please", "I want to hear the new Coldplay album",
    "ring my sister for me", "phone the office and say I'm late",
    "text Sam that I'm running ten minutes behind", "book me a table for two tonight",
    "switch the living room lights off", "I need a taxi to the station",
    "order me some more coffee beans", "tell me the traffic on the way to work",
    "I'd like the score from last night's match", "find me a cheap flight to Rome",
    "wake me up at half six tomorrow", "turn the heating up a couple of degrees",
)  # fmt: skip


def refusals(rng: random.Random) -> list[Request]:
    return [Request((t,), "refusal") for t in REFUSALS]


def paraphrases(seed: int = SEED, now: datetime | None = None) -> list[Request]:
    """The paraphrase set: the same requests for the same seed (the clock's answers follow
    ``now``)."""
    now = now or datetime.now()
    rng = random.Random(seed)
    return [
        *clock(rng, now), *timers(rng), *arithmetic(rng), *units(rng), *spelling(rng),
        *facts(rng), *followups(rng), *refusals(rng),
    ]  # fmt: skip


if __name__ == "__main__":
    _reqs = paraphrases()
    for _q in _reqs:
        print(f"{_q.kind:<11} {' / '.join(_q.turns)}  →  {_q.expect}")
    print(len(_reqs), "requests;", {k: sum(q.kind == k for q in _reqs) for k in KINDS})
