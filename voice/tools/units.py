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

from words.quantity import read_number, spoken_text
from words.spoken import TooLarge, fraction_words, number_words, plain_words

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
    "milliliter": ("milliliter", "milliliters", "volume", ("ml", "millilitre", "millilitres",
                                                          "mls", "cc", "ccs")),
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
             ("c", "celsius", "celcius", "centigrade", "degrees c", "degree c", "deg c",
              "degs c", "degrees celsius", "degree celsius", "degrees centigrade")),
    "degF": ("degree Fahrenheit", "degrees Fahrenheit", "temperature",
             ("f", "fahrenheit", "farenheit", "faranheit", "degrees f", "degree f", "deg f",
              "degs f", "degrees fahrenheit", "degree fahrenheit", "degrees farenheit")),
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


# Words pint reads as units that people say for something else ("point" is a printer's unit,
# "hand" a horse's height, "line" a twelfth of an inch).
_NOT_UNITS = {"point", "points", "line", "lines", "hand", "hands", "dot", "dots", "bit", "bits",
              "gross", "mil", "mils", "unit", "units", "count", "number", "percent", "degree",
              "degrees", "turn", "turns", "cycle", "cycles", "radian", "radians"}  # fmt: skip


def _pint_unit(word: str) -> str | None:
    """A unit name pint knows, spelt in full ("furlongs", "hectares", "kilojoules"), or None.
    Short names are left out: pint reads "a" as a year, "in" as an inch and "are" as an area."""
    if len(word) < 4 or word in _NOT_UNITS or not word.replace("_", "").isalpha():
        return None
    try:
        found = registry().parse_unit_name(word)
    except Exception:
        return None
    for prefix, name, _suffix in found:
        if word.startswith(prefix):  # a prefix spelt out, not pint's "m" for milli
            unit = prefix + name
            try:
                if registry().Unit(unit).dimensionless:
                    return None
            except Exception:
                return None
            return unit
    return None


def find_unit(text: str) -> str | None:
    """The pint unit for what was said, or None: "kilos" → "kilogram", "km" → "kilometer",
    "furlongs" → "furlong" (any unit pint knows, named in full)."""
    t = re.sub(r"[?.!,]", " ", spoken_text(text)).split()
    while t and t[0] in ("the", "a", "an", "in", "into", "to", "of"):
        t = t[1:]
    while t and t[-1] in ("please", "then"):
        t = t[:-1]
    key = re.sub(r" (an?|every) (hour|second)$", r" per \2", " ".join(t))
    if key in ALIASES:
        return ALIASES[key]
    if key.endswith("s") and key[:-1] in ALIASES:
        return ALIASES[key[:-1]]
    if len(t) == 1:
        return _pint_unit(key)
    if len(t) == 2 and t[0] in ("square", "cubic", "sq"):  # "square miles", "cubic feet"
        u = find_unit(t[1])
        return f"{u} ** {3 if t[0] == 'cubic' else 2}" if u is not None and " " not in u \
            else None
    if len(t) in (2, 3):  # "light years", "board feet": pint's names are joined by "_"
        return _pint_unit("_".join(t))
    return None


def unit_at(words: list[str], j: int) -> tuple[str, int] | None:
    """The unit named at ``words[j:]`` (the longest name, up to four words) and the index after
    it, or None; for :func:`words.spoken.read_quantity`."""
    if j >= len(words) or words[j] in ("a", "an", "the", "in", "to", "of", "into", "and", "is",
                                       "that"):  # fmt: skip
        return None
    for k in range(min(len(words), j + 4), j, -1):
        u = find_unit(" ".join(words[j:k]))
        if u is not None:
            return u, k
    return None


def said(unit: str, value: Fraction) -> str:
    if unit in UNITS:
        sing, plur = UNITS[unit][:2]
        return sing if value == 1 else plur
    # a unit only pint knows: its own name ("light_year", "meter ** 2"), plural by the rule
    m = re.fullmatch(r"(.+) \*\* ([23])", unit)
    base = m.group(1) if m else unit
    if base in UNITS:
        sing, plur = UNITS[base][:2]
    else:
        sing = base.replace("_", " ")
        plur = re.sub(r"(?<=[^aeiou])y$", "ie", sing)
        plur += "es" if re.search(r"(s|x|ch|sh)$", plur) else "s"
    if m:
        power = "square" if m.group(2) == "2" else "cubic"
        sing, plur = f"{power} {sing}", f"{power} {plur}"
    return sing if value == 1 else plur


def amount(value: Fraction, unit: str, decimal: bool = False) -> str:
    """A value and its unit as said: "five kilograms", "half a cup", "a third of a mile";
    ``decimal``: the user said it as a decimal, so it is said back as one ("zero point five
    feet", as the demo model was trained to repeat it)."""
    frac = None if decimal else fraction_words(value)
    if frac is None:
        return f"{plain_words(value)} {said(unit, value)}"
    one = said(unit, Fraction(1))
    article = "an" if one[0] in "aeiou" else "a"
    if frac == "a half":
        return f"half {article} {one}"
    return f"{frac} of {article} {one}"


def read_value(value: object) -> Fraction | None:
    """A number from the call's value: 5, 2.5, "five", "two and a half", "1,000", "an",
    "half a"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return Fraction(value).limit_denominator(10**6)
    if not isinstance(value, str):
        return None
    words = re.sub(r"[?!,;:\"]|(?<!\d)\.(?!\d)", " ", spoken_text(value)).split()
    if words[-2:] in (["of", "a"], ["of", "an"]):  # "a third of a" (mile)
        words = words[:-2]
    elif words[-1:] == ["of"]:  # "a couple of" (litres)
        words = words[:-1]
    got = read_number(words, 0, alone=True)
    if got is None or got[1] != len(words):
        return None
    return got[0]


# What a refusal offers instead: one clause, after the reason.
CAN = "I can convert lengths, weights, volumes, temperatures, speeds and times"
EXAMPLE = "like five kilos in pounds"


def _said(x: object) -> str:
    return re.sub(r"\s+", " ", str(x or "")).strip()[:40]


def convertible(src: str, dst: str) -> bool:
    """Whether two said units measure the same thing ("pounds" and "kilos", not "kilos" and
    "days")."""
    a, b = find_unit(src), find_unit(dst)
    if a is None or b is None:
        return False
    try:
        a, b = _fluid(a, b)
        return registry().Unit(a).dimensionality == registry().Unit(b).dimensionality
    except Exception:
        return False


def _fluid(a: str, b: str) -> tuple[str, str]:
    """An ounce converted to or from a volume is a fluid ounce ("2 oz in ml", "how many
    ounces is 90 millilitres": a baby's bottle, a measuring jug)."""
    volume = registry().Unit("liter").dimensionality
    if a == "ounce" and registry().Unit(b).dimensionality == volume:
        return "fluid_ounce", b
    if b == "ounce" and registry().Unit(a).dimensionality == volume:
        return a, "fluid_ounce"
    return a, b


def convert(value: object, src: str, dst: str) -> tuple[str, bool]:
    """(what to say, ok) for converting ``value`` ``src`` into ``dst``. A refusal says in the
    same sentence what would work: the amount and two units it needs, or what it converts."""
    v = read_value(value)
    if v is None:
        if not _said(value):
            return f"sorry, I need an amount and two units, {EXAMPLE}", False
        return f"sorry, I couldn't read the number {_said(value)}; say it {EXAMPLE}", False
    a, b = find_unit(src), find_unit(dst)
    for unit, name in ((a, src), (b, dst)):
        if unit is None and not _said(name):
            return f"sorry, I need two units, {EXAMPLE}", False
        if unit is None:
            return f"sorry, I don't know the unit {_said(name)}; {CAN}", False
    ureg = registry()
    a, b = _fluid(a, b)
    if ureg.Unit(a).dimensionality != ureg.Unit(b).dimensionality:
        return f"sorry, I can't convert {said(a, Fraction(2))} to {said(b, Fraction(2))}", False
    try:
        q = ureg.Quantity(float(v), a).to(b)
        out = Fraction(q.magnitude).limit_denominator(10**6)
        decimal = bool(re.search(r"\d\.\d|\bpoint\b", str(value)))
        return f"{amount(v, a, decimal)} is {number_words(out)} {said(b, out)}", True
    except TooLarge:
        return "that number is too large to say", False
    except Exception as e:  # pint's own errors (offsets, dimensionality) as one line
        return f"sorry, I can't convert that ({type(e).__name__}); {CAN}", False
