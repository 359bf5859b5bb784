"""The units tool: conversions of lengths, weights, volumes, temperatures, speeds and durations.

The arithmetic is pint's (a well-kept units library with its own definitions of every unit);
this module only maps what people say ("kilos", "km/h", "degrees F", "miles an hour") onto pint
units, reads the spoken value and says the result: ``convert("five", "kilos", "pounds")`` →
``"five kilograms is about eleven point zero two pounds"``.
"""

from __future__ import annotations

import re
import threading
from fractions import Fraction

from voice.tools.spoken import TooLarge, number_words, plain_words, read_number

# pint unit → (said singular, said plural, kind, what people call it)
UNITS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "kilometer": ("kilometer", "kilometers", "length", ("km", "kms", "k", "klick", "klicks")),
    "meter": ("meter", "meters", "length", ("m", "metre", "metres")),
    "centimeter": ("centimeter", "centimeters", "length", ("cm", "centimetre", "centimetres")),
    "millimeter": ("millimeter", "millimeters", "length", ("mm", "millimetre", "millimetres")),
    "mile": ("mile", "miles", "length", ("mi",)),
    "yard": ("yard", "yards", "length", ("yd", "yds")),
    "foot": ("foot", "feet", "length", ("ft", "feet")),
    "inch": ("inch", "inches", "length", ("in", "inches")),
    "nautical_mile": ("nautical mile", "nautical miles", "length", ("nmi",)),
    "kilogram": ("kilogram", "kilograms", "mass", ("kg", "kgs", "kilo", "kilos")),
    "gram": ("gram", "grams", "mass", ("g", "gm", "gramme", "grammes")),
    "milligram": ("milligram", "milligrams", "mass", ("mg",)),
    "pound": ("pound", "pounds", "mass", ("lb", "lbs")),
    "ounce": ("ounce", "ounces", "mass", ("oz",)),
    "stone": ("stone", "stone", "mass", ("st", "stones")),
    "metric_ton": ("tonne", "tonnes", "mass", ("tonne", "tonnes", "metric ton", "metric tons",
                                               "ton", "tons", "t")),
    "liter": ("liter", "liters", "volume", ("l", "litre", "litres", "ltr")),
    "milliliter": ("milliliter", "milliliters", "volume", ("ml", "millilitre", "millilitres")),
    "gallon": ("gallon", "gallons", "volume", ("gal", "us gallon", "us gallons")),
    "imperial_gallon": ("imperial gallon", "imperial gallons", "volume", ("uk gallon",
                                                                          "uk gallons")),
    "quart": ("quart", "quarts", "volume", ("qt",)),
    "pint": ("pint", "pints", "volume", ("pt", "us pint", "us pints")),
    "cup": ("cup", "cups", "volume", ()),
    "fluid_ounce": ("fluid ounce", "fluid ounces", "volume", ("fl oz", "floz")),
    "tablespoon": ("tablespoon", "tablespoons", "volume", ("tbsp", "tbs")),
    "teaspoon": ("teaspoon", "teaspoons", "volume", ("tsp",)),
    "degC": ("degree Celsius", "degrees Celsius", "temperature",
             ("c", "celsius", "celcius", "centigrade", "degrees c", "degree c",
              "degrees celsius", "degree celsius", "degrees centigrade")),
    "degF": ("degree Fahrenheit", "degrees Fahrenheit", "temperature",
             ("f", "fahrenheit", "farenheit", "degrees f", "degree f", "degrees fahrenheit",
              "degree fahrenheit")),
    "kelvin": ("kelvin", "kelvin", "temperature", ("kelvins", "degrees kelvin")),
    "kilometer / hour": ("kilometer per hour", "kilometers per hour", "speed",
                         ("km/h", "kmh", "kph", "kmph", "kilometers an hour",
                          "kilometres per hour", "kilometres an hour", "km per hour",
                          "k per hour", "kilometer an hour")),
    "mile / hour": ("mile per hour", "miles per hour", "speed",
                    ("mph", "miles an hour", "mile an hour", "m/h")),
    "meter / second": ("meter per second", "meters per second", "speed",
                       ("m/s", "mps", "metres per second", "meters a second")),
    "knot": ("knot", "knots", "speed", ()),
    "second": ("second", "seconds", "time", ("s", "sec", "secs")),
    "minute": ("minute", "minutes", "time", ("min", "mins")),
    "hour": ("hour", "hours", "time", ("h", "hr", "hrs")),
    "day": ("day", "days", "time", ()),
    "week": ("week", "weeks", "time", ("wk", "wks")),
    "month": ("month", "months", "time", ()),
    "year": ("year", "years", "time", ("yr", "yrs")),
}  # fmt: skip


def _alias_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for unit, (sing, plur, _, aliases) in UNITS.items():
        for a in (sing, plur, *aliases):
            table[a.lower()] = unit
    # American/British spellings of the said names
    for k in list(table):
        if "meter" in k:
            table.setdefault(k.replace("meter", "metre"), table[k])
        if "liter" in k:
            table.setdefault(k.replace("liter", "litre"), table[k])
    return table


ALIASES = _alias_table()
_REG = None
_REG_LOCK = threading.Lock()


def registry():
    """pint's unit registry, built once (it takes about a second)."""
    global _REG
    with _REG_LOCK:
        if _REG is None:
            import pint

            _REG = pint.UnitRegistry()
    return _REG


def find_unit(text: str) -> str | None:
    """The pint unit for what was said, or None: "kilos" → "kilogram"."""
    t = re.sub(r"[?.!,]", " ", str(text).lower().replace("°", " degrees ")).split()
    while t and t[0] in ("the", "a", "an", "in", "into", "to", "of"):
        t = t[1:]
    while t and t[-1] in ("please", "then"):
        t = t[:-1]
    key = re.sub(r" (an?|every) (hour|second)$", r" per \2", " ".join(t))
    if key in ALIASES:
        return ALIASES[key]
    if key.endswith("s") and key[:-1] in ALIASES:
        return ALIASES[key[:-1]]
    return None


def said(unit: str, value: Fraction) -> str:
    sing, plur = UNITS[unit][:2]
    return sing if value == 1 else plur


def read_value(value: object) -> Fraction | None:
    """A number from the call's value: 5, 2.5, "five", "two and a half", "1,000"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return Fraction(value).limit_denominator(10**6)
    if not isinstance(value, str):
        return None
    from voice.tools.calculator import words_of

    words = words_of(value)
    got = read_number(words, 0)
    if got is None or got[1] != len(words):
        return None
    return got[0]


def convert(value: object, src: str, dst: str) -> tuple[str, bool]:
    """(what to say, ok) for converting ``value`` ``src`` into ``dst``."""
    v = read_value(value)
    if v is None:
        return f"sorry, I couldn't read the number {str(value)[:40]}", False
    a, b = find_unit(src), find_unit(dst)
    if a is None:
        return f"sorry, I don't know the unit {str(src)[:40]}", False
    if b is None:
        return f"sorry, I don't know the unit {str(dst)[:40]}", False
    if UNITS[a][2] != UNITS[b][2]:
        return f"sorry, I can't convert {UNITS[a][1]} to {UNITS[b][1]}", False
    ureg = registry()
    try:
        q = ureg.Quantity(float(v), a).to(b)
        out = Fraction(q.magnitude).limit_denominator(10**6)
        return f"{plain_words(v)} {said(a, v)} is {number_words(out)} {said(b, out)}", True
    except TooLarge:
        return "that number is too large to say", False
    except Exception as e:  # pint's own errors (offsets, dimensionality) as one line
        return f"sorry, I can't convert that ({type(e).__name__})", False
