"""Tool skills of the demo model: call the assistant's built-in tools and say what they return.

With tools on offer (``<|tools|>clock, timer, calculator, units, spell`` at the top of the prompt),
a request for the time, a timer, a sum, a conversion or a spelling is answered in two model turns:

1. the model writes a call, ``<tool_call>{"name": "calculator", "arguments": {"expression":
   "seventeen times twenty three"}}</tool_call>``, whose argument values are *copied* from the
   question (the calculator and the unit converter read spoken numbers, so the model never has
   to compute or convert anything);
2. the assistant runs the tool and sends its result back as a ``tool`` turn
   (``seventeen times twenty three is three hundred and ninety one``); the model says it as a
   short sentence ("Seventeen times twenty three is three hundred and ninety one.").

Follow-ups refer to an earlier call: "now multiply that by two" becomes the expression
"multiply that by two" (the calculator keeps its last result as "that"); "and ten?" after a
conversion repeats the earlier units with the new value.

Tool results here are written the way :mod:`voice.tools` writes them (a test compares the two), and
every reply fits the 32-token reply block. Held out for evaluation: ~15% of the wordings of every
tool request and of the follow-ups.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from training import requests
from training.numwords import capitalize, ordinal_words
from training.speech import speak
from training.tokenizer import RESULT, tool_call_text
from words.calendar import MONTHS, WEEKDAYS, time_words, year_words
from words.spoken import decimal_words, int_words, number_words  # as the tools say them

TOOL_NAMES = ("clock", "timer", "calculator", "units", "spell")
TOOLS_LINE = ", ".join(TOOL_NAMES)  # the content of the ``tools`` turn the template writes


def _lines(text: str) -> tuple[str, ...]:
    out = tuple(s.strip() for s in text.strip().splitlines() if s.strip())
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate template in {out}")
    return out


# ---------------------------------------------------------------------------------------------
# Spoken numbers (the words the tools say; digits or words in the questions)


def spoken_number(n: int | Fraction, rng: random.Random) -> str:
    """How a question may carry a number: digits or words."""
    if isinstance(n, Fraction) and n.denominator != 1:
        text = f"{float(n):g}"
        return text if rng.random() < 0.4 else decimal_words(n)[0]
    n = int(n)
    return str(n) if rng.random() < 0.4 else int_words(n)


# ---------------------------------------------------------------------------------------------
# Building a dialog: slots are copied verbatim from the question into the call


@dataclass(frozen=True)
class Exchange:
    """One tool request: the question, the call the model writes, what the tool says back and
    the reply the model gives."""

    question: str
    call: str  # with its arguments: what a model that copies them writes (and the tools read)
    result: str
    reply: str
    answers: tuple[str, ...]  # what the spoken reply must contain

    @property
    def name(self) -> str:
        return json.loads(self.call[len("<tool_call>") : -len("</tool_call>")])["name"]

    @property
    def demo_call(self) -> str:
        """The call in the demo model's own format: the tool's name, no arguments (the tool
        reads the request from the question)."""
        return tool_call_text(self.name, {})

    @property
    def demo_reply(self) -> str:
        """The reply in the demo model's own format: its framing around the result pointer,
        which the assistant replaces by the tool's words (``Okay, <|result|>.``)."""
        return "Okay, " + RESULT + "." if self.reply.startswith("Okay, ") else RESULT + "."


def ask(template: str, slots: dict[str, str], rng: random.Random, noise: float = 1.0):
    """The question as speech recognition hands it over, and each slot's text as it appears in
    it (the call copies these).

    Slots go in after the transcript noise, so the noise never splits a value the call copies;
    a slot that starts the sentence is capitalised like Whisper would.
    """
    marks = {k: f"Qz{chr(65 + i)}q" for i, k in enumerate(slots)}
    text = template
    for k, m in marks.items():
        text = text.replace("{" + k + "}", m)
    text = speak(text[:1].upper() + text[1:], rng, noise)
    seen = {}
    for k, m in marks.items():
        found = list(re.finditer(re.escape(m), text, re.IGNORECASE))
        if not found:
            raise ValueError(f"slot {k} lost in {text!r}")
        v = slots[k]
        if found[0].start() == 0 and found[0].group()[0].isupper():
            v = v[:1].upper() + v[1:]
        # a stutter may have doubled the slot: every copy gets the value
        text = re.sub(re.escape(m), lambda _m, v=v: v, text, flags=re.IGNORECASE)
        seen[k] = v
    return text, seen


def call(name: str, **args: str) -> str:
    """A call as the demo model writes it. Copied values start with a space: their words then
    have the same tokens in the call as in the question ("six" after a space is one token,
    "six" after a quote is another), so the model copies token for token (the tools strip it)."""
    copied = {k: v.strip() if k in ("what", "action") else " " + v.strip() for k, v in args.items()}
    return tool_call_text(name, copied)


def sentence(result: str, okay: bool = False) -> str:
    """The spoken reply: the tool's words as a sentence."""
    return ("Okay, " + result if okay else capitalize(result)) + "."


# ---------------------------------------------------------------------------------------------
# calculator


@dataclass(frozen=True)
class Calc:
    spoken: str  # as a person says it: "seventeen times twenty three", "17 x 23"
    canon: str  # as the calculator says it back: "seventeen times twenty three"
    value: Fraction | None  # None: division by zero
    irrational: bool = False


def _n(x) -> str:
    return int_words(int(x)) if Fraction(x).denominator == 1 else decimal_words(x)[0]


def random_calc(rng: random.Random, that: Fraction | None = None, more: bool = False) -> Calc:
    """An expression of one of the calculator's kinds, with "that" for a follow-up; ``more``:
    also the everyday ways to say one (:func:`everyday_calc`) a quarter of the time."""

    def num(hi: int, lo: int = 0) -> int:
        # Mostly small numbers, as people ask; some up to ``hi``.
        r = rng.random()
        top = 12 if r < 0.3 else 100 if r < 0.7 else hi
        return rng.randint(lo, max(lo, top))

    def say(x) -> str:
        return spoken_number(x, rng)

    kinds = ["add", "sub", "mul", "div", "pct", "pow", "sq", "root", "dec"]
    w = [3, 2, 4, 3, 2, 1, 1, 1.5, 1.5]
    kind = rng.choices(kinds, w)[0]
    if more and that is None and rng.random() < 0.25:
        return everyday_calc(rng, num, say)
    if that is not None:  # follow-up forms: apply an operation to the last result
        b = num(20, 1)
        forms = [
            ("multiply that by {b}", "times", lambda a: a * b),
            ("times {b}", "times", lambda a: a * b),
            ("that times {b}", "times", lambda a: a * b),
            ("double that", None, lambda a: a * 2),
            ("add {b}", "plus", lambda a: a + b),
            ("plus {b}", "plus", lambda a: a + b),
            ("add {b} to that", "plus", lambda a: a + b),
            ("minus {b}", "minus", lambda a: a - b),
            ("subtract {b}", "minus", lambda a: a - b),
            ("take away {b}", "minus", lambda a: a - b),
            ("divide that by {b}", "divided by", lambda a: a / b),
            ("divided by {b}", "divided by", lambda a: a / b),
            ("half of that", None, lambda a: a / 2),
            ("that squared", None, lambda a: a * a),
        ]
        text, op, fn = rng.choice(forms)
        spoken = text.replace("{b}", say(b))
        if op is None:
            canon = {"double that": "{a} times two", "half of that": "{a} divided by two",
                     "that squared": "{a} squared"}[text]  # fmt: skip
            canon = canon.replace("{a}", _n(that))
        else:
            canon = f"{_n(that)} {op} {_n(b)}"
        return Calc(spoken, canon, Fraction(fn(that)))
    if kind == "add":
        a, b = num(999), num(999)
        form = rng.choice(["{a} plus {b}", "{a} + {b}", "add {a} and {b}", "{a} and {b} added",
                           "the sum of {a} and {b}"])  # fmt: skip
        return Calc(form.format(a=say(a), b=say(b)), f"{_n(a)} plus {_n(b)}", Fraction(a + b))
    if kind == "sub":
        a, b = num(999), num(999)
        form = rng.choice(["{a} minus {b}", "{a} - {b}", "{a} take away {b}"])
        spoken = form.format(a=say(a), b=say(b))
        if rng.random() < 0.2:
            spoken = f"subtract {say(b)} from {say(a)}"
        return Calc(spoken, f"{_n(a)} minus {_n(b)}", Fraction(a - b))
    if kind == "mul":
        a, b = num(99, 1), num(99 if rng.random() < 0.6 else 999, 1)
        form = rng.choice(["{a} times {b}", "{a} x {b}", "{a} * {b}", "multiply {a} by {b}",
                           "{a} multiplied by {b}", "{a} times {b}"])  # fmt: skip
        return Calc(form.format(a=say(a), b=say(b)), f"{_n(a)} times {_n(b)}", Fraction(a * b))
    if kind == "div":
        b = 0 if rng.random() < 0.08 else num(50, 1)
        a = b * num(50) if b and rng.random() < 0.6 else num(999)
        form = rng.choice(["{a} divided by {b}", "{a} / {b}", "divide {a} by {b}", "{a} over {b}",
                           "{a} divided by {b}"])  # fmt: skip
        spoken = form.format(a=say(a), b=say(b))
        return Calc(spoken, f"{_n(a)} divided by {_n(b)}", Fraction(a, b) if b else None)
    if kind == "pct":
        p = rng.choice([5, 10, 12, 15, 18, 20, 25, 30, 40, 50, 75, 8, 3, 60])
        b = rng.choice([num(999, 1), rng.randint(1, 40) * 10])
        ps = rng.choice([f"{say(p)} percent", f"{p}%", f"{p} percent"])
        return Calc(f"{ps} of {say(b)}", f"{_n(p)} percent of {_n(b)}", Fraction(p * b, 100))
    if kind == "pow":
        a, e = rng.randint(2, 12), rng.randint(2, 6)
        if a**e >= 1_000_000:
            e = 2
        form = rng.choice(["{a} to the power of {e}", "{a} to the power {e}",
                           "{a} raised to the power of {e}"])  # fmt: skip
        return Calc(form.format(a=say(a), e=say(e)), f"{_n(a)} to the power of {_n(e)}",
                    Fraction(a**e))  # fmt: skip
    if kind == "sq":
        a = num(99, 1)
        if rng.random() < 0.7:
            return Calc(f"{say(a)} squared", f"{_n(a)} squared", Fraction(a * a))
        return Calc(f"{say(a)} cubed", f"{_n(a)} cubed", Fraction(a**3))
    if kind == "root":
        r = rng.randint(1, 30)
        a = r * r if rng.random() < 0.7 else rng.randint(2, 200)
        form = rng.choice(["the square root of {a}", "square root of {a}", "root {a}"])
        exact = int(a**0.5) ** 2 == a
        v = Fraction(int(a**0.5)) if exact else Fraction(a**0.5)
        return Calc(form.format(a=say(a)), f"the square root of {_n(a)}", v, not exact)
    # decimals
    a = Fraction(rng.randint(1, 999), rng.choice([10, 100, 10, 2, 4]))
    b = Fraction(rng.randint(1, 99), rng.choice([10, 1, 2, 10]))
    op, word, fn = rng.choice([("plus", "plus", lambda x, y: x + y),
                               ("minus", "minus", lambda x, y: x - y),
                               ("times", "times", lambda x, y: x * y)])  # fmt: skip
    return Calc(f"{say(a)} {op} {say(b)}", f"{_n(a)} {word} {_n(b)}", fn(a, b))


def everyday_calc(rng: random.Random, num, say) -> Calc:
    """A sum said the everyday way ("half of ninety", "take six from forty", "how many times
    does four go into a hundred"), with what the calculator says back."""
    a, b = num(999, 1), num(99, 1)
    forms = [
        ("half of {a}", "{a} divided by two", Fraction(a, 2)),
        ("{a} halved", "{a} divided by two", Fraction(a, 2)),
        ("double {a}", "{a} times two", Fraction(a * 2)),
        ("twice {a}", "{a} times two", Fraction(a * 2)),
        ("{a} doubled", "{a} times two", Fraction(a * 2)),
        ("triple {a}", "{a} times three", Fraction(a * 3)),
        ("take {b} from {a}", "{a} minus {b}", Fraction(a - b)),
        ("take {b} away from {a}", "{a} minus {b}", Fraction(a - b)),
        ("{b} less than {a}", "{a} minus {b}", Fraction(a - b)),
        ("{b} more than {a}", "{b} plus {a}", Fraction(a + b)),
        ("{a} add {b}", "{a} plus {b}", Fraction(a + b)),
        ("the total of {a} and {b}", "{a} plus {b}", Fraction(a + b)),
        ("{a} and {b} added together", "{a} plus {b}", Fraction(a + b)),
        ("the difference between {a} and {b}", "{a} minus {b}", Fraction(a - b)),
        ("the product of {b} and {a}", "{b} times {a}", Fraction(a * b)),
        ("{b} groups of {a}", "{b} times {a}", Fraction(a * b)),
        ("{a} shared between {b}", "{a} divided by {b}", Fraction(a, b)),
        ("{a} divided equally between {b}", "{a} divided by {b}", Fraction(a, b)),
        ("how many times does {b} go into {a}", "{a} divided by {b}", Fraction(a, b)),
    ]
    part = rng.choice([(3, "a third"), (4, "a quarter"), (5, "a fifth"), (10, "a tenth")])
    forms.append((f"{part[1]} of {{a}}", f"{part[1]} of {{a}}", Fraction(a, part[0])))
    spoken, canon, value = rng.choice(forms)
    return Calc(spoken.format(a=say(a), b=say(b)), canon.format(a=_n(a), b=_n(b)), value)


def calc_result(c: Calc) -> str:
    """What the calculator tool says back (voice.tools.calculator writes the same)."""
    if c.value is None:
        return "you can't divide by zero"
    if abs(c.value) >= 10**15:
        return f"{c.canon} is too large a number to say"
    words = number_words(c.value)
    if c.irrational and not words.startswith("about"):
        words = "about " + words
    return f"{c.canon} is {words}"


CALC = _lines(
    """
    What is {e}?
    What's {e}?
    {e}
    {e}?
    How much is {e}?
    Calculate {e}.
    What's {e} equal to?
    {e} equals what?
    Can you work out {e}?
    Work out {e}.
    Quick math, {e}?
    Tell me {e}.
    What do you get for {e}?
    What does {e} come to?
    Do the math, {e}.
    Could you calculate {e} for me?
    I need {e}.
    What's the answer to {e}?
    Compute {e}.
    Help me with {e}.
    What is {e} exactly?
    How much does {e} make?
    Figure out {e}.
    Solve {e}.
    """
)
CALC_FOLLOW = _lines(
    """
    Now {e}.
    And {e}?
    Okay, {e}.
    {e}
    Now {e}, please.
    And now {e}.
    What's {e}?
    Then {e}.
    Can you {e}?
    What if you {e}?
    """
)


# ---------------------------------------------------------------------------------------------
# units

# unit key → (said singular, said plural, spoken forms people use, pint name, kind)
UNITS: dict[str, tuple[str, str, tuple[str, ...], str, str]] = {
    "km": ("kilometer", "kilometers", ("kilometers", "km", "kilometres", "k"), "kilometer", "len"),
    "m": ("meter", "meters", ("meters", "metres", "m"), "meter", "len"),
    "cm": ("centimeter", "centimeters", ("centimeters", "cm", "centimetres"), "centimeter",
           "len"),
    "mm": ("millimeter", "millimeters", ("millimeters", "mm"), "millimeter", "len"),
    "mi": ("mile", "miles", ("miles",), "mile", "len"),
    "ft": ("foot", "feet", ("feet", "foot", "ft"), "foot", "len"),
    "in": ("inch", "inches", ("inches", "inch"), "inch", "len"),
    "yd": ("yard", "yards", ("yards",), "yard", "len"),
    "kg": ("kilogram", "kilograms", ("kilograms", "kilos", "kg", "kilo"), "kilogram", "mass"),
    "g": ("gram", "grams", ("grams", "g"), "gram", "mass"),
    "lb": ("pound", "pounds", ("pounds", "lbs", "lb"), "pound", "mass"),
    "oz": ("ounce", "ounces", ("ounces", "oz"), "ounce", "mass"),
    "st": ("stone", "stone", ("stone",), "stone", "mass"),
    "l": ("liter", "liters", ("liters", "litres", "l"), "liter", "vol"),
    "ml": ("milliliter", "milliliters", ("milliliters", "ml", "millilitres"), "milliliter",
           "vol"),
    "gal": ("gallon", "gallons", ("gallons",), "gallon", "vol"),
    "cup": ("cup", "cups", ("cups",), "cup", "vol"),
    "pt": ("pint", "pints", ("pints",), "pint", "vol"),
    "tbsp": ("tablespoon", "tablespoons", ("tablespoons",), "tablespoon", "vol"),
    "tsp": ("teaspoon", "teaspoons", ("teaspoons",), "teaspoon", "vol"),
    "c": ("degree Celsius", "degrees Celsius", ("celsius", "degrees celsius", "degrees C", "C"),
          "degC", "temp"),
    "f": ("degree Fahrenheit", "degrees Fahrenheit",
          ("fahrenheit", "degrees fahrenheit", "degrees F", "F"), "degF", "temp"),
    "k": ("kelvin", "kelvin", ("kelvin",), "kelvin", "temp"),
    "kmh": ("kilometer per hour", "kilometers per hour",
            ("kilometers per hour", "km/h", "kph", "kilometers an hour"), "km/h", "speed"),
    "mph": ("mile per hour", "miles per hour", ("miles per hour", "mph", "miles an hour"), "mph",
            "speed"),
    "ms": ("meter per second", "meters per second", ("meters per second", "m/s"), "m/s",
           "speed"),
    "kn": ("knot", "knots", ("knots",), "knot", "speed"),
    "s": ("second", "seconds", ("seconds", "secs"), "second", "time"),
    "min": ("minute", "minutes", ("minutes", "mins"), "minute", "time"),
    "h": ("hour", "hours", ("hours", "hrs"), "hour", "time"),
    "d": ("day", "days", ("days",), "day", "time"),
    "wk": ("week", "weeks", ("weeks",), "week", "time"),
    "yr": ("year", "years", ("years",), "year", "time"),
}  # fmt: skip
PAIRS = {
    "len": [("km", "mi"), ("mi", "km"), ("m", "ft"), ("ft", "m"), ("in", "cm"), ("cm", "in"),
            ("m", "cm"), ("km", "m"), ("yd", "m"), ("m", "yd"), ("mm", "in"), ("ft", "in"),
            ("mi", "ft")],
    "mass": [("kg", "lb"), ("lb", "kg"), ("g", "oz"), ("oz", "g"), ("kg", "g"), ("st", "kg"),
             ("lb", "oz")],
    "vol": [("l", "gal"), ("gal", "l"), ("cup", "ml"), ("ml", "cup"), ("l", "ml"), ("pt", "l"),
            ("tbsp", "ml"), ("tsp", "ml"), ("l", "cup")],
    "temp": [("c", "f"), ("f", "c"), ("c", "k"), ("k", "c")],
    "speed": [("kmh", "mph"), ("mph", "kmh"), ("ms", "kmh"), ("kn", "kmh")],
    "time": [("h", "min"), ("min", "s"), ("d", "h"), ("wk", "d"), ("yr", "d"), ("h", "s"),
             ("min", "h"), ("d", "wk")],
}  # fmt: skip
_UREG = None


def convert(value: Fraction, src: str, dst: str) -> Fraction:
    """Convert with pint (as the units tool does)."""
    global _UREG
    if _UREG is None:
        import pint

        _UREG = pint.UnitRegistry()
    q = _UREG.Quantity(float(value), UNITS[src][3]).to(UNITS[dst][3])
    return Fraction(q.magnitude).limit_denominator(10**6)


def unit_said(key: str, value: Fraction) -> str:
    sing, plur = UNITS[key][:2]
    return sing if value == 1 else plur


def units_result(value: Fraction, src: str, dst: str) -> str:
    """What the units tool says back (voice.tools.units writes the same)."""
    out = convert(value, src, dst)
    return f"{_n(value)} {unit_said(src, value)} is {number_words(out)} {unit_said(dst, out)}"


UNITS_Q = _lines(
    """
    How many {to} is {v} {from}?
    How many {to} are in {v} {from}?
    How many {to} in {v} {from}?
    Convert {v} {from} to {to}.
    What's {v} {from} in {to}?
    What is {v} {from} in {to}?
    {v} {from} in {to}
    {v} {from} to {to}
    How much is {v} {from} in {to}?
    Can you convert {v} {from} into {to}?
    What's {v} {from} in {to}, please?
    Change {v} {from} to {to}.
    I have {v} {from}, how many {to} is that?
    How many {to} make {v} {from}?
    Tell me {v} {from} in {to}.
    What are {v} {from} in {to}?
    {v} {from} is how many {to}?
    Turn {v} {from} into {to}.
    Quick conversion, {v} {from} to {to}.
    How far is {v} {from} in {to}?
    """
)
UNITS_FOLLOW_VALUE = _lines(
    """
    And {v}?
    What about {v}?
    How about {v}?
    And {v} {from}?
    Now {v}.
    What about {v} {from}?
    Okay, and {v}?
    """
)
UNITS_FOLLOW_UNIT = _lines(
    """
    And in {to}?
    What about in {to}?
    How much is that in {to}?
    And how many {to} is that?
    Now in {to}.
    """
)


# ---------------------------------------------------------------------------------------------
# clock: the words the real clock tool (voice/tools/clock.py) says, so the corpus teaches them


def date_words(weekday: int, month: int, day: int, year: int) -> str:
    return f"{WEEKDAYS[weekday]}, {MONTHS[month - 1]} {ordinal_words(day)}, {year_words(year)}"


# event key → (spoken forms, the name said back, (month, day)); dates fixed in the calendar
EVENTS: dict[str, tuple[tuple[str, ...], str, tuple[int, int]]] = {
    "christmas": (("christmas", "Christmas", "christmas day", "xmas"), "Christmas", (12, 25)),
    "christmas eve": (("christmas eve", "Christmas Eve"), "Christmas Eve", (12, 24)),
    "new year": (("new year", "New Year's Day", "new years", "the new year"), "New Year's Day",
                 (1, 1)),
    "new year's eve": (("new year's eve", "New Year's Eve"), "New Year's Eve", (12, 31)),
    "halloween": (("halloween", "Halloween"), "Halloween", (10, 31)),
    "valentine's day": (("valentine's day", "Valentine's Day", "valentines day"),
                        "Valentine's Day", (2, 14)),
    "st patrick's day": (("st patrick's day", "Saint Patrick's Day"), "Saint Patrick's Day",
                         (3, 17)),
}  # fmt: skip
CLOCK_TIME = _lines(
    """
    What time is it?
    What's the time?
    Do you know what time it is?
    Tell me the time.
    What time is it right now?
    What's the time now?
    Can you tell me the time?
    What's the current time?
    Got the time?
    How late is it?
    Time please.
    What time do we have?
    Check the time for me.
    Could you tell me what time it is?
    What does the clock say?
    What time is it now?
    Have you got the time?
    Is it late already? What time is it?
    """
)
CLOCK_DATE = _lines(
    """
    What's the date?
    What's today's date?
    What date is it today?
    What's the date today?
    Tell me today's date.
    What is the date?
    What year is it?
    What month is it?
    Which date is it?
    Can you tell me the date?
    What's the date right now?
    What's the full date today?
    Do you know the date?
    What's the day and date?
    """
)
CLOCK_DAY = _lines(
    """
    What day is it?
    What day is it today?
    What day of the week is it?
    Which day is it today?
    Is it Friday yet?
    What weekday is it?
    Is it the weekend yet?
    Tell me what day it is.
    What's today?
    Is today Monday?
    """
)
CLOCK_UNTIL = _lines(
    """
    How many days until {d}?
    How many days to {d}?
    How long until {d}?
    How many days is it until {d}?
    When is {d}?
    How many days left until {d}?
    How far away is {d}?
    How many sleeps until {d}?
    Count the days until {d}.
    How many more days until {d}?
    How long is it to {d}?
    Is {d} soon?
    """
)
CLOCK_ZONE = _lines(
    """
    What time zone am I in?
    What's my time zone?
    Which time zone is this?
    What time zone are you using?
    Which time zone do you use?
    Tell me the time zone.
    """
)
ZONES = ("Coordinated Universal Time", "Central European Time", "Eastern Standard Time",
         "Greenwich Mean Time", "Pacific Standard Time", "British Summer Time",
         "Central European Summer Time", "Japan Standard Time")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# timers and reminders


def duration_parts(seconds: int) -> str:
    """``330 → "five minutes and thirty seconds"``, ``3600 → "one hour"``."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = []
    for n, unit in ((h, "hour"), (m, "minute"), (s, "second")):
        if n:
            parts.append(f"{int_words(n)} {unit}{'' if n == 1 else 's'}")
    if not parts:
        return "zero seconds"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def random_duration(rng: random.Random) -> tuple[str, int]:
    """(as said, seconds)."""
    r = rng.random()
    if r < 0.45:
        n = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 45, 50, 90])
        unit = "minute" if n == 1 else "minutes"
        said = spoken_number(n, rng) + " " + unit
        if n == 1 and rng.random() < 0.5:
            said = "a minute"
        return said, n * 60
    if r < 0.6:
        n = rng.choice([10, 15, 20, 30, 45, 60, 90, 40])
        return f"{spoken_number(n, rng)} seconds", n
    if r < 0.75:
        n = rng.choice([1, 2, 3])
        said = {1: rng.choice(["an hour", "one hour", "1 hour"])}.get(n) or (
            f"{spoken_number(n, rng)} hours"
        )
        return said, n * 3600
    if r < 0.85:
        return rng.choice([("half an hour", 1800), ("a quarter of an hour", 900),
                           ("an hour and a half", 5400), ("one and a half hours", 5400),
                           ("a minute and a half", 90)])  # fmt: skip
    m, s = rng.randint(1, 9), rng.choice([10, 15, 20, 30, 45])
    return f"{spoken_number(m, rng)} minutes and {spoken_number(s, rng)} seconds", m * 60 + s


LABELS = ("pasta", "eggs", "rice", "laundry", "pizza", "tea", "oven", "bread", "workout",
          "break", "cake", "potatoes", "nap", "homework", "meeting", "parking", "coffee",
          "chicken", "soup", "plank", "study", "cookies", "steak", "yoga")  # fmt: skip
TASKS = ("call mom", "take the bins out", "check the oven", "drink water", "call John",
         "move the car", "stretch", "take my medicine", "water the plants", "feed the cat",
         "leave for the bus", "turn off the stove", "send the email", "walk the dog",
         "check the laundry", "pick up the kids", "start the meeting", "buy milk",
         "call the dentist", "flip the pancakes")  # fmt: skip
TIMER_SET = _lines(
    """
    Set a timer for {dur}.
    Start a timer for {dur}.
    Set a {dur} timer.
    Timer for {dur}.
    Put a timer on for {dur}.
    Can you set a timer for {dur}?
    Countdown {dur}.
    Start a {dur} countdown.
    {dur} timer please.
    Time {dur} for me.
    Please set a timer for {dur}.
    I need a timer for {dur}.
    Set a timer, {dur}.
    Could you time {dur}?
    """
)
TIMER_SET_LABEL = _lines(
    """
    Set a {label} timer for {dur}.
    Set a timer for {dur} for the {label}.
    Time the {label} for {dur}.
    Start a {label} timer, {dur}.
    Set a timer called {label} for {dur}.
    Set a {dur} timer for the {label}.
    Can you set a {label} timer for {dur}?
    Timer for the {label}, {dur}.
    Put a {dur} timer on for my {label}.
    I need a {label} timer for {dur}.
    """
)
TIMER_REMIND = _lines(
    """
    Remind me to {task} in {dur}.
    Remind me in {dur} to {task}.
    In {dur}, remind me to {task}.
    Set a reminder to {task} in {dur}.
    Can you remind me to {task} in {dur}?
    Please remind me to {task} in {dur}.
    Don't let me forget to {task} in {dur}.
    Give me a reminder in {dur} to {task}.
    Remind me in {dur} that I have to {task}.
    I need to {task} in {dur}, remind me.
    """
)
TIMER_LIST = _lines(
    """
    What timers do I have?
    List my timers.
    Do I have any timers?
    What timers are running?
    Show my timers.
    Are there any timers on?
    What reminders do I have?
    Do I have any reminders?
    Which timers are set?
    Any timers running?
    """
)
TIMER_CANCEL = _lines(
    """
    Cancel the timer.
    Cancel my timer.
    Stop the timer.
    Delete the timer.
    Turn off the timer.
    Never mind the timer.
    Cancel the reminder.
    Get rid of the timer.
    Kill the timer.
    Stop my timer please.
    """
)
TIMER_CANCEL_LABEL = _lines(
    """
    Cancel the {label} timer.
    Stop the {label} timer.
    Delete the {label} timer.
    Never mind the {label} timer.
    Cancel my {label} timer.
    Turn off the {label} timer.
    """
)
TIMER_CANCEL_ALL = _lines(
    """
    Cancel all timers.
    Cancel all my timers.
    Stop all the timers.
    Delete all timers.
    Clear all my timers.
    """
)
TIMER_LEFT = _lines(
    """
    How much time is left?
    How long is left on the timer?
    How much longer on my timer?
    How long until my timer goes off?
    Time left on the timer?
    When does my timer go off?
    How much time is left on my timer?
    How long have I got left?
    Check my timer.
    How's my timer doing?
    """
)
TIMER_LEFT_LABEL = _lines(
    """
    How long is left on the {label} timer?
    How much time is left on the {label} timer?
    How long until the {label} is done?
    How much longer for the {label}?
    When is the {label} timer done?
    """
)


def timer_list_result(timers: list[tuple[str, int]]) -> str:
    """What the timer tool says for "list" (voice.tools.timers writes the same)."""
    if not timers:
        return "you have no timers"

    def one(label: str, left: int) -> str:
        return f"{label + ' ' if label else ''}with {duration_parts(left)} left"

    if len(timers) == 1:
        return f"you have one timer, {one(*timers[0])}"
    if len(timers) == 2:
        return f"you have two timers, {one(*timers[0])}, and {one(*timers[1])}"
    return f"you have {int_words(len(timers))} timers, the next is {one(*timers[0])}"


# ---------------------------------------------------------------------------------------------
# spelling

SPELL_Q = _lines(
    """
    How do you spell {w}?
    Spell {w}.
    How is {w} spelled?
    Can you spell {w} for me?
    What's the spelling of {w}?
    Spell the word {w}.
    How do I spell {w}?
    Spell out {w}.
    How do you write {w}?
    Could you spell {w}?
    What's the correct spelling of {w}?
    Spell {w} please.
    How's {w} spelled?
    Letter by letter, {w}.
    """
)
SPELL_FOLLOW = _lines(
    """
    And {w}?
    What about {w}?
    Now {w}.
    And how about {w}?
    And {w} please.
    """
)
SPELL_WORDS = (
    "necessary", "rhythm", "beautiful", "restaurant", "separate", "definitely", "queue",
    "receive", "friend", "believe", "tomorrow", "business", "calendar", "library", "February",
    "Wednesday", "weird", "science", "island", "colonel", "knight", "yacht", "psychology",
    "giraffe", "banana", "pizza", "coffee", "Thursday", "people", "because", "different",
    "language", "answer", "question", "guitar", "doctor", "measure", "neighbor", "penguin",
    "chocolate", "elephant", "umbrella", "balloon", "whistle", "jewelry", "mischief",
    "embarrass", "occasion", "privilege", "recommend", "accommodate", "address", "vacuum",
    "achieve", "argument", "category", "cemetery", "committee", "conscious", "exercise",
    "foreign", "government", "grammar", "height", "humorous", "interrupt", "knowledge",
    "leisure", "lightning", "minute", "noticeable", "occurred", "piece", "possession",
    "really", "rhyme", "sentence", "sincerely", "surprise", "truly", "until", "weather",
    "whether", "writing", "cat", "dog", "house", "school", "water", "purple", "orange",
    "octopus", "kitchen", "picture", "animal", "monkey", "rabbit", "window", "planet",
    "Mississippi", "Chicago", "Sarah", "Michael", "Katherine", "Stephen", "Zurich", "Berlin",
    "quiet", "quite", "their", "there", "which", "witch", "through", "though", "thought",
    "laugh", "cough", "enough", "daughter", "caught", "ocean", "juice", "fruit", "breakfast",
    "sandwich", "lettuce", "broccoli", "cucumber", "avocado", "spaghetti", "cinnamon",
    "tongue", "muscle", "scissors", "castle", "listen", "honest", "hour", "wrist", "debt",
)  # fmt: skip


def spell_result(word: str) -> str:
    letters = ", ".join(c.upper() for c in word if c.isalpha())
    return f"{word.lower() if word[1:].islower() and word[0].islower() else word} is spelled " \
        f"{letters}"


# ---------------------------------------------------------------------------------------------
# The tool corpus


class ToolSampler:
    """Tool dialogs: the call row or the reply row of a request, sometimes after an earlier
    exchange (a follow-up, or anything else the assistant talked about)."""

    def __init__(
        self, rng: random.Random, heldout: bool, held: dict[str, set[int]], grammar: float = 0.0
    ) -> None:
        self.rng = rng
        self.heldout = heldout
        self.held = held
        # how often a training wording comes from the grammar of request shapes
        # (training.requests) instead of the template lists, with more ways to say a sum and
        # any word to spell
        self.grammar = grammar

    def pick(self, name: str, templates: tuple[str, ...]) -> str:
        """A template of ``name``: a held-out one when sampling the evaluation, else a
        trainable one."""
        if not self.heldout and self.grammar and self.rng.random() < self.grammar:
            wording = requests.template(name, self.rng)
            if wording is not None:
                return wording
        held = self.held.setdefault(name, set())
        pool = [t for i, t in enumerate(templates) if (i in held) == self.heldout]
        if not pool:  # small lists with nothing held out: evaluation uses them all
            pool = list(templates)
        return self.rng.choice(pool)

    # -- one exchange per kind ------------------------------------------------------------
    def calculator(self, that: Fraction | None = None) -> tuple[Exchange, Fraction | None]:
        c = random_calc(self.rng, that, more=self.grammar > 0 and not self.heldout)
        if that is None:
            tmpl = self.pick("calc", CALC)
        else:
            tmpl = self.pick("calc_follow", CALC_FOLLOW)
        q, seen = ask(tmpl, {"e": c.spoken}, self.rng, noise=0.6)
        result = calc_result(c)
        ex = Exchange(q, call("calculator", expression=seen["e"]), result, sentence(result),
                      (result.split(" is ")[-1],))  # fmt: skip
        return ex, c.value

    def units(self, prev=None):
        rng = self.rng
        if prev is None:
            kind = rng.choice(list(PAIRS))
            src, dst = rng.choice(PAIRS[kind])
            v = Fraction(rng.choice([1, 2, 3, 5, 10, 12, 20, 25, 50, 100, 4, 6, 8, 7, 15, 30, 0]))
            if kind == "temp":
                v = Fraction(rng.choice([0, 10, 20, 25, 30, 37, 40, 100, 50, 68, 72, 90, 212,
                                         300, -10, 15]))  # fmt: skip
            if rng.random() < 0.15 and kind != "temp":
                v = Fraction(rng.choice([5, 15, 25, 75]), 10)
            fs, ts = rng.choice(UNITS[src][2]), rng.choice(UNITS[dst][2])
            vs = spoken_number(v, rng) if v >= 0 else rng.choice([f"minus {-v}", f"{v}"])
            tmpl = self.pick("units", UNITS_Q)
            q, seen = ask(tmpl, {"v": vs, "from": fs, "to": ts}, rng, noise=0.5)
            args = {"value": seen["v"], "from": seen["from"], "to": seen["to"]}
        else:
            (pv, src, dst, pargs) = prev
            if rng.random() < 0.6:
                v = Fraction(rng.choice([1, 2, 3, 5, 10, 20, 50, 100, 4, 8, 15, 30]))
                if v == pv:
                    v += 1
                tmpl = self.pick("units_follow_value", UNITS_FOLLOW_VALUE)
                slots = {"v": spoken_number(v, rng)}
                if "{from}" in tmpl:
                    slots["from"] = pargs["from"]
                q, seen = ask(tmpl, slots, rng, noise=0.3)
                args = {"value": seen["v"], "from": pargs["from"], "to": pargs["to"]}
            else:
                kind = UNITS[src][4]
                dst = rng.choice([d for s, d in PAIRS[kind] if d != dst and d != src] or [dst])
                v = pv
                tmpl = self.pick("units_follow_unit", UNITS_FOLLOW_UNIT)
                q, seen = ask(tmpl, {"to": rng.choice(UNITS[dst][2])}, rng, noise=0.3)
                args = {"value": pargs["value"], "from": pargs["from"], "to": seen["to"]}
        result = units_result(v, src, dst)
        ex = Exchange(q, call("units", **args), result, sentence(result),
                      (result.split(" is ")[-1].removeprefix("about "),))  # fmt: skip
        return ex, (v, src, dst, args)

    def clock(self) -> Exchange:
        rng = self.rng
        kind = rng.choices(["time", "date", "day", "until", "zone"], [4, 2.5, 2, 2.5, 0.6])[0]
        wd, mo, dy, yr = rng.randrange(7), rng.randint(1, 12), rng.randint(1, 28), \
            rng.randint(2024, 2031)
        if kind == "time":
            q, _ = ask(self.pick("clock_time", CLOCK_TIME), {}, rng)
            h, m = rng.randrange(24), rng.choice([rng.randrange(60), 0, 15, 30, 45])
            result = f"it's {time_words(h, m)}"
            return Exchange(q, call("clock", what="time"), result, sentence(result),
                            (time_words(h, m),))  # fmt: skip
        if kind == "date":
            q, _ = ask(self.pick("clock_date", CLOCK_DATE), {}, rng)
            result = f"today is {date_words(wd, mo, dy, yr)}"
            return Exchange(q, call("clock", what="date"), result, sentence(result),
                            (f"{MONTHS[mo - 1]} {ordinal_words(dy)}",))  # fmt: skip
        if kind == "day":
            q, _ = ask(self.pick("clock_day", CLOCK_DAY), {}, rng)
            result = f"today is {WEEKDAYS[wd]}"
            return Exchange(q, call("clock", what="day"), result, sentence(result),
                            (WEEKDAYS[wd],))  # fmt: skip
        if kind == "zone":
            q, _ = ask(self.pick("clock_zone", CLOCK_ZONE), {}, rng)
            z = rng.choice(ZONES)
            result = f"the time zone here is {z}"
            return Exchange(q, call("clock", what="zone"), result, sentence(result), (z,))
        key = rng.choice(list(EVENTS))
        forms, name, _ = EVENTS[key]
        if rng.random() < 0.25:  # a plain date: "march the third", "the fourth of july"
            m2, d2 = rng.randint(1, 12), rng.randint(1, 28)
            said = rng.choice([f"{MONTHS[m2 - 1]} {ordinal_words(d2)}",
                               f"the {ordinal_words(d2)} of {MONTHS[m2 - 1]}",
                               f"{MONTHS[m2 - 1]} {d2}"])  # fmt: skip
            name = f"{MONTHS[m2 - 1]} {ordinal_words(d2)}"
        else:
            said = rng.choice(forms)
        q, seen = ask(self.pick("clock_until", CLOCK_UNTIL), {"d": said}, rng, noise=0.5)
        n = rng.choice([0, 1, rng.randint(2, 364), rng.randint(2, 60)])
        if n == 0:
            result = f"{name} is today"
        elif n == 1:
            result = f"{name} is tomorrow"
        else:
            result = f"{name} is in {int_words(n)} days"
        ans = result.split(" is ")[-1]
        return Exchange(q, call("clock", what="until", date=seen["d"]), result, sentence(result),
                        (ans,))  # fmt: skip

    def timer(self, after_set: tuple[str, int] | None = None) -> tuple[Exchange, tuple | None]:
        rng = self.rng
        kinds = ["set", "set_label", "remind", "list", "cancel", "left"]
        kind = rng.choices(kinds, [3, 3, 3, 1.2, 1.5, 1.5])[0]
        if after_set is not None:
            kind = rng.choice(["cancel", "left", "list"])
        if kind in ("set", "set_label", "remind"):
            said, secs = random_duration(rng)
            dw = duration_parts(secs)
            if kind == "set":
                q, seen = ask(self.pick("timer_set", TIMER_SET), {"dur": said}, rng, noise=0.5)
                c = call("timer", action="set", duration=seen["dur"])
                result = f"timer set for {dw}"
                label = ""
            elif kind == "set_label":
                label = rng.choice(LABELS)
                q, seen = ask(self.pick("timer_label", TIMER_SET_LABEL),
                              {"dur": said, "label": label}, rng, noise=0.5)  # fmt: skip
                label = seen["label"]
                c = call("timer", action="set", duration=seen["dur"], label=label)
                result = f"{label.lower()} timer set for {dw}"
            else:
                label = rng.choice(TASKS)
                q, seen = ask(self.pick("timer_remind", TIMER_REMIND),
                              {"dur": said, "task": label}, rng, noise=0.5)  # fmt: skip
                label = seen["task"]
                c = call("timer", action="remind", duration=seen["dur"], label=label)
                result = f"I'll remind you to {label} in {dw}"
            return Exchange(q, c, result, sentence(result, okay=True), (dw,)), (label, secs)
        # list / cancel / left: the timers the session has are only in the tool's answer
        n = 0 if after_set is None and rng.random() < 0.25 else rng.randint(1, 3)
        timers = [(rng.choice(LABELS + ("",) * 6), rng.randint(5, 3000)) for _ in range(n)]
        if after_set is not None:
            timers = [(after_set[0], max(1, after_set[1] - rng.randint(1, 60)))]
            n = 1
        if kind == "list":
            q, _ = ask(self.pick("timer_list", TIMER_LIST), {}, rng)
            result = timer_list_result(sorted(timers, key=lambda t: t[1]))
            ans = "no timers" if not timers else result.split(",")[0]
            return Exchange(q, call("timer", action="list"), result, sentence(result),
                            (ans,)), None  # fmt: skip
        if kind == "cancel":
            r = rng.random()
            if r < 0.3 and after_set is None:
                q, seen = ask(self.pick("timer_cancel_label", TIMER_CANCEL_LABEL),
                              {"label": rng.choice(LABELS)}, rng, noise=0.5)  # fmt: skip
                label = seen["label"]
                c = call("timer", action="cancel", label=label)
                hit = rng.random() < 0.75
                result = (f"the {label.lower()} timer is cancelled" if hit
                          else f"there's no {label.lower()} timer")  # fmt: skip
            elif r < 0.4 and after_set is None:
                q, _ = ask(self.pick("timer_cancel_all", TIMER_CANCEL_ALL), {}, rng)
                c = call("timer", action="cancel", label="all")
                hit = n > 0
                result = (f"cancelled {int_words(n)} timer{'s' if n > 1 else ''}" if hit
                          else "there's no timer to cancel")  # fmt: skip
            else:
                q, _ = ask(self.pick("timer_cancel", TIMER_CANCEL), {}, rng)
                c = call("timer", action="cancel")
                hit = n > 0
                lab = timers[0][0] if hit else ""
                result = (f"the {lab + ' ' if lab else ''}timer is cancelled" if hit
                          else "there's no timer to cancel")  # fmt: skip
            ans = "cancelled" if hit else "no"
            return Exchange(q, c, result, sentence(result, okay=hit), (ans,)), None
        # left
        if rng.random() < 0.3 and after_set is None:
            label = rng.choice(LABELS)
            q, seen = ask(self.pick("timer_left_label", TIMER_LEFT_LABEL), {"label": label},
                          rng, noise=0.5)  # fmt: skip
            label = seen["label"]
            c = call("timer", action="left", label=label)
            left = rng.randint(5, 3000)
            hit = rng.random() < 0.8
            result = (f"{duration_parts(left)} left on the {label.lower()} timer" if hit
                      else f"there's no {label.lower()} timer")  # fmt: skip
            ans = duration_parts(left) if hit else "no"
        else:
            q, _ = ask(self.pick("timer_left", TIMER_LEFT), {}, rng)
            c = call("timer", action="left")
            if timers:
                lab, left = min(timers, key=lambda t: t[1])
                where = f"the {lab} timer" if lab else "the timer"
                result = f"{duration_parts(left)} left on {where}"
                ans = duration_parts(left)
            else:
                result, ans = "you have no timers", "no timers"
        return Exchange(q, c, result, sentence(result), (ans,)), None

    def spell(self, follow: bool = False) -> Exchange:
        rng = self.rng
        w = rng.choice(SPELL_WORDS)
        if self.grammar and not self.heldout and rng.random() < 0.4:
            w = requests.pseudo_word(rng)
        tmpl = self.pick("spell_follow", SPELL_FOLLOW) if follow else self.pick("spell", SPELL_Q)
        q, seen = ask(tmpl, {"w": w}, rng, noise=0.5)
        result = spell_result(seen["w"])
        return Exchange(q, call("spell", word=seen["w"]), result, sentence(result),
                        (result.split(" is spelled ")[-1],))  # fmt: skip

    # -- dialogs --------------------------------------------------------------------------
    def exchange(self) -> tuple[str, Exchange, list[tuple[str, str]]]:
        """(skill, exchange, history) with an earlier related exchange for follow-ups."""
        rng = self.rng
        kind = rng.choices(["calculator", "units", "clock", "timer", "spell"],
                           [5, 3.5, 2.5, 3.5, 1.5])[0]  # fmt: skip
        history: list[tuple[str, str]] = []
        follow = rng.random() < 0.25
        if kind == "calculator":
            if follow:
                first, value = self.calculator()
                if value is not None and value.denominator == 1 and abs(value) < 10**5:
                    history = turns(first)
                    ex, _ = self.calculator(that=value)
                    return "tool_calculator_followup", ex, history
            ex, _ = self.calculator()
            return "tool_calculator", ex, history
        if kind == "units":
            first, prev = self.units()
            if follow:
                ex, _ = self.units(prev)
                return "tool_units_followup", ex, turns(first)
            return "tool_units", first, history
        if kind == "timer":
            first, made = self.timer()
            if follow and made is not None:
                ex, _ = self.timer(after_set=made)
                return "tool_timer_followup", ex, turns(first)
            return "tool_timer", first, history
        if kind == "spell":
            if follow:
                first = self.spell()
                return "tool_spell_followup", self.spell(follow=True), turns(first)
            return "tool_spell", self.spell(), history
        return "tool_clock", self.clock(), history


def turns(ex: Exchange) -> list[tuple[str, str]]:
    """An exchange as it stands in the history: question, call (as the demo model wrote it),
    result, and the reply as it was said (the pointer replaced by the result)."""
    return [("user", ex.question), ("assistant", ex.demo_call), ("tool", ex.result),
            ("assistant", ex.reply)]  # fmt: skip


def choose_tool_heldout(rng: random.Random) -> dict[str, set[int]]:
    """~15% of each template list held out (at least one of lists of six or more)."""
    lists = {
        "calc": CALC, "calc_follow": CALC_FOLLOW, "units": UNITS_Q,
        "units_follow_value": UNITS_FOLLOW_VALUE, "units_follow_unit": UNITS_FOLLOW_UNIT,
        "clock_time": CLOCK_TIME, "clock_date": CLOCK_DATE, "clock_day": CLOCK_DAY,
        "clock_until": CLOCK_UNTIL, "clock_zone": CLOCK_ZONE, "timer_set": TIMER_SET,
        "timer_label": TIMER_SET_LABEL, "timer_remind": TIMER_REMIND, "timer_list": TIMER_LIST,
        "timer_cancel": TIMER_CANCEL, "timer_cancel_label": TIMER_CANCEL_LABEL,
        "timer_cancel_all": TIMER_CANCEL_ALL, "timer_left": TIMER_LEFT,
        "timer_left_label": TIMER_LEFT_LABEL, "spell": SPELL_Q, "spell_follow": SPELL_FOLLOW,
    }  # fmt: skip
    out = {}
    for name, ts in lists.items():
        k = max(1, round(0.15 * len(ts))) if len(ts) >= 6 else 0
        out[name] = set(rng.sample(range(len(ts)), k))
    return out


def json_call(text: str) -> list[dict]:
    """Parse ``<tool_call>...</tool_call>`` blocks (for scoring); raises ValueError."""
    out = []
    rest = text.strip()
    while rest:
        if not rest.startswith("<tool_call>") or "</tool_call>" not in rest:
            raise ValueError(f"not a tool call: {rest!r}")
        body, _, rest = rest[len("<tool_call>") :].partition("</tool_call>")
        obj = json.loads(body)
        if not isinstance(obj, dict) or not isinstance(obj.get("arguments"), dict):
            raise ValueError(f"bad call {body!r}")
        out.append(obj)
        rest = rest.strip()
    return out


# ---------------------------------------------------------------------------------------------
# Refusals that come with the tools: alarms at a clock time, and a much wider net of questions
# outside the model's domain, so that none of them gets a garbled answer.

OUT_OF_DOMAIN = ("Sorry, I don't know about that. I can help with countries, planets, numbers, "
                 "units, dates and spelling.")  # fmt: skip


def tool_refusal_skills():
    from training.skills import fixed

    return [
        fixed("no_alarm_at", "refusals",
              "Sorry, I can only set timers for a length of time, like ten minutes.",
              "length of time",
              """
              Set an alarm for {t}.
              Wake me up at {t}.
              Set an alarm at {t} tomorrow.
              Remind me at {t} to {task}.
              Alarm for {t} please.
              Can you wake me at {t}?
              Set my alarm for {t}.
              Remind me tomorrow to {task}.
              Remind me on {day} to {task}.
              Set a reminder for {day} morning.
              Wake me up tomorrow morning.
              Set an alarm for tomorrow.
              """,
              t=("seven", "7 am", "six thirty", "8:15", "nine o'clock", "half past six",
                 "noon", "5 pm", "ten in the morning", "midnight"),
              task=TASKS, day=("Monday", "Friday", "the weekend", "Sunday", "Tuesday")),
        fixed("out_of_domain_wide", "refusals", OUT_OF_DOMAIN, "don't know about that",
              """
              Who won the {event} in {year}?
              Who won the {event}?
              When is the next {event}?
              Where was the {event} in {year}?
              Who is the {role} of {place}?
              Who was the {role} of {place} in {year}?
              What's the population of {city}?
              How many people live in {city}?
              How old is {celeb}?
              Is {celeb} married?
              Where does {celeb} live?
              What's {celeb}'s latest album?
              What's the best {product} to buy?
              How much does a {product} cost?
              Which {product} should I get?
              What's the score of the {team} game?
              Did {team} win last night?
              Who plays for {team}?
              When was {team} founded?
              What's the best {food} recipe?
              How do you cook {food}?
              How many calories are in {food}?
              Is {food} healthy?
              What causes {illness}?
              How do I treat {illness}?
              Is {illness} contagious?
              What's the history of {place}?
              Why did {hist} happen?
              When did {hist} start?
              Who started {hist}?
              Write a {text} about {topic}.
              Summarize {topic} for me.
              What do you think about {topic}?
              Explain {topic} like I'm five.
              What's the difference between {topic} and {topic2}?
              Give me a fun fact about {topic}.
              How does {tech} work?
              Write some code in {lang}.
              How do I install {tech}?
              What's new with {tech}?
              Should I learn {lang}?
              Translate {phrase} into {tongue}.
              How do you say {phrase} in {tongue}?
              What does {phrase} mean in {tongue}?
              Which movie won the Oscar in {year}?
              Who directed {movie}?
              What's {movie} about?
              Is {movie} a good movie?
              Who sings {song}?
              Play {song}.
              What are the lyrics to {song}?
              """,
              event=("football world cup", "world cup", "super bowl", "Olympics",
                     "Eurovision song contest", "Tour de France", "Champions League",
                     "Wimbledon final", "NBA finals", "World Series", "Nobel Peace Prize",
                     "election", "Formula One championship"),
              year=("twenty twenty two", "2022", "2018", "nineteen ninety eight", "2010",
                    "twenty twenty four", "1966", "2006", "two thousand", "2014"),
              role=("president", "prime minister", "king", "mayor", "queen", "chancellor",
                    "leader", "CEO"),
              place=("France", "the United States", "Canada", "Germany", "Japan", "London",
                     "New York", "Spain", "Brazil", "India", "my town", "Apple"),
              city=("Tokyo", "New York", "London", "Paris", "Lagos", "Mumbai", "Chicago",
                    "my city", "Berlin", "Sydney", "Toronto", "Cairo"),
              celeb=("Taylor Swift", "Elon Musk", "Beyonce", "Tom Hanks", "Messi",
                     "Cristiano Ronaldo", "Adele", "Brad Pitt", "Oprah", "the Pope",
                     "Serena Williams", "Drake"),
              product=("laptop", "phone", "car", "TV", "vacuum cleaner", "coffee machine",
                       "mattress", "bike", "camera", "pair of headphones", "tablet"),
              team=("Real Madrid", "the Lakers", "Manchester United", "the Yankees", "Barcelona",
                    "Liverpool", "the Patriots", "Bayern Munich", "Arsenal", "the Bulls"),
              food=("lasagna", "sushi", "chicken curry", "pancakes", "avocado toast",
                    "chocolate cake", "a burger", "pad thai", "risotto", "banana bread"),
              illness=("a headache", "the flu", "back pain", "a cold", "migraines",
                       "high blood pressure", "hay fever", "insomnia", "a sore throat"),
              hist=("World War One", "the French Revolution", "the Cold War",
                    "the Great Depression",
                    "the Renaissance", "the moon landing", "the Industrial Revolution",
                    "the fall of Rome"),
              text=("poem", "song", "story", "essay", "letter", "speech", "haiku"),
              topic=("love", "the ocean", "dinosaurs", "black holes", "the Roman Empire",
                     "climate change", "bitcoin", "the brain", "volcanoes", "chess",
                     "philosophy", "economics"),
              topic2=("the sea", "birds", "religion", "physics", "stocks", "politics"),
              tech=("bitcoin", "a 3D printer", "5G", "Linux", "ChatGPT", "a solar panel",
                    "Wi-Fi", "blockchain", "a nuclear reactor", "GPS", "Python", "Windows"),
              lang=("Python", "JavaScript", "Rust", "Java", "C plus plus", "Go"),
              phrase=("good morning", "thank you", "I love you", "where is the station",
                      "cheers", "how are you", "goodbye"),
              tongue=("French", "Spanish", "German", "Japanese", "Italian", "Chinese",
                      "Russian", "Arabic"),
              movie=("Titanic", "The Godfather", "Star Wars", "Inception", "Frozen",
                     "Jurassic Park", "Toy Story", "The Matrix", "Avatar"),
              song=("Bohemian Rhapsody", "Imagine", "Hey Jude", "Thriller", "Yesterday",
                    "Shape of You", "Hotel California"),
              weight=2.0),
    ]  # fmt: skip
