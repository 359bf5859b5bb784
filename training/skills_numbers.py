"""Number skills: arithmetic on small numbers and unit conversions, answered in words."""

from __future__ import annotations

from training.numwords import capitalize, int_words, number_words
from training.skills import Fact, Skill, _lines, _num

ADD = _lines(
    """
    What is {a} plus {b}?
    What's {a} plus {b}?
    {a} plus {b}
    {a} + {b}
    What is {a} + {b}?
    Add {a} and {b}.
    What do you get if you add {a} and {b}?
    How much is {a} plus {b}?
    {a} plus {b} equals what?
    What's the sum of {a} and {b}?
    Calculate {a} plus {b}.
    Can you add {a} and {b}?
    What does {a} plus {b} make?
    Quick math, {a} plus {b}?
    If I have {a} apples and get {b} more, how many do I have?
    What's {a} add {b}?
    Work out {a} plus {b}.
    Tell me {a} plus {b}.
    What is {a} and {b} added together?
    {a} plus {b} is how much?
    """
)
SUB = _lines(
    """
    What is {a} minus {b}?
    What's {a} minus {b}?
    {a} minus {b}
    {a} - {b}
    What is {a} take away {b}?
    Subtract {b} from {a}.
    What do you get if you subtract {b} from {a}?
    How much is {a} minus {b}?
    {a} minus {b} equals what?
    Calculate {a} minus {b}.
    Take {b} away from {a}.
    What's {a} take away {b}?
    If I have {a} cookies and eat {b}, how many are left?
    What is {b} subtracted from {a}?
    Work out {a} minus {b}.
    Tell me {a} minus {b}.
    Quick math, {a} minus {b}?
    {a} minus {b} is how much?
    What's left if you take {b} from {a}?
    Can you subtract {b} from {a}?
    """
)
MUL = _lines(
    """
    What is {a} times {b}?
    What's {a} times {b}?
    {a} times {b}
    {a} x {b}
    {a} * {b}
    What is {a} multiplied by {b}?
    Multiply {a} by {b}.
    Multiply {a} and {b}.
    How much is {a} times {b}?
    {a} times {b} equals what?
    What's the product of {a} and {b}?
    Calculate {a} times {b}.
    What do you get when you multiply {a} by {b}?
    Quick math, {a} times {b}?
    Work out {a} times {b}.
    Tell me {a} times {b}.
    What's {a} multiplied by {b}?
    What does {a} times {b} make?
    If you have {a} bags with {b} apples each, how many apples is that?
    {a} times {b} is how much?
    """
)
DIV = _lines(
    """
    What is {a} divided by {b}?
    What's {a} divided by {b}?
    {a} divided by {b}
    {a} / {b}
    Divide {a} by {b}.
    How much is {a} divided by {b}?
    {a} divided by {b} equals what?
    Calculate {a} divided by {b}.
    What do you get if you divide {a} by {b}?
    What's {a} over {b}?
    Work out {a} divided by {b}.
    Tell me {a} divided by {b}.
    Quick math, {a} divided by {b}?
    If {a} cookies are shared by {b} kids, how many does each get?
    {a} divided by {b} is how much?
    Can you divide {a} by {b}?
    What is {a} over {b}?
    Split {a} into {b} equal parts, how big is each?
    """
)


def _arith(name: str, templates, op: str, pairs, result, commutes: bool, w: float) -> Skill:
    facts = []
    keys = {(a, b) for a, b in pairs}
    for a, b in pairs:
        r = result(a, b)
        if r is None:
            reply, answer = "You can't divide by zero.", "divide by zero"
        else:
            answer = int_words(r)
            reply = capitalize(f"{int_words(a)} {op} {int_words(b)} is {answer}.")
            answer = f"is {answer}"
        twin = f"{b}{op}{a}" if commutes and a != b and (b, a) in keys else None
        facts.append(Fact(f"{a}{op}{b}", {"a": _num(a), "b": _num(b)}, reply, (answer,), twin))
    return Skill(name, "arithmetic", templates, tuple(facts), (), w)


def arithmetic_skills() -> list[Skill]:
    # Small numbers only: a tiny model memorises these tables rather than computing.
    add = [(a, b) for a in range(11) for b in range(11)]
    sub = [(a, b) for a in range(11) for b in range(a + 1)]
    mul = [(a, b) for a in range(11) for b in range(11)]
    div = [(b * q, b) for b in range(1, 11) for q in range(11)]
    div += [(a, 0) for a in (1, 2, 5, 7, 10)]
    # Weights follow the size of each table (about one unit per 20 facts): with 4/3/4/3 the
    # 66-fact subtraction table was right 94% of the time on held-out wordings, the 115-fact
    # division table 44%.
    return [
        _arith("add", ADD, "plus", add, lambda a, b: a + b, True, 6.0),
        _arith("sub", SUB, "minus", sub, lambda a, b: a - b, False, 3.5),
        _arith("mul", MUL, "times", mul, lambda a, b: a * b, True, 6.0),
        _arith("div", DIV, "divided by", div, lambda a, b: a // b if b else None, False, 6.0),
    ]


CONVERT = _lines(
    """
    How many {dst} is {v} {src}?
    How many {dst} are in {v} {src}?
    Convert {v} {src} to {dst}.
    What is {v} {src} in {dst}?
    What's {v} {src} in {dst}?
    {v} {src} in {dst}
    {v} {src} to {dst}
    {v} {src} is how many {dst}?
    Change {v} {src} into {dst}.
    Can you convert {v} {src} to {dst}?
    How much is {v} {src} in {dst}?
    What would {v} {src} be in {dst}?
    Turn {v} {src} into {dst}.
    Please convert {v} {src} into {dst}.
    What are {v} {src} in {dst}?
    I have {v} {src}, what's that in {dst}?
    Tell me {v} {src} in {dst}.
    {v} {src} equals how many {dst}?
    Convert {v} {src} into {dst} for me.
    Do you know how many {dst} {v} {src} is?
    """
)
TEMPERATURE = _lines(
    """
    It's {v} {src} outside, what's that in {dst}?
    If it's {v} {src}, what is that in {dst}?
    What temperature is {v} {src} in {dst}?
    The thermometer says {v} {src}, what's that in {dst}?
    """
)
DISTANCE = _lines(
    """
    I ran {v} {src}, how many {dst} is that?
    How far is {v} {src} in {dst}?
    """
)

# unit → (singular reply word, plural reply word, plural spoken forms, singular spoken forms)
UNITS: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "km": ("kilometer", "kilometers", ("kilometers", "kilometres", "km"),
           ("kilometer", "kilometre", "km")),
    "mi": ("mile", "miles", ("miles",), ("mile",)),
    "C": ("degree Celsius", "degrees Celsius", ("degrees Celsius", "Celsius", "degrees C"),
          ("degree Celsius", "Celsius")),
    "F": ("degree Fahrenheit", "degrees Fahrenheit",
          ("degrees Fahrenheit", "Fahrenheit", "degrees F", "farenheit"),
          ("degree Fahrenheit", "Fahrenheit")),
    "kg": ("kilogram", "kilograms", ("kilograms", "kilos", "kg"), ("kilogram", "kilo", "kg")),
    "lb": ("pound", "pounds", ("pounds", "lbs"), ("pound", "lb")),
    "L": ("liter", "liters", ("liters", "litres"), ("liter", "litre")),
    "gal": ("gallon", "gallons", ("gallons", "US gallons"), ("gallon",)),
}  # fmt: skip

KM_PER_MILE = 1.609344
LB_PER_KG = 2.2046226
L_PER_GAL = 3.785411784

# Round values people ask about; each is a fact to memorise, so the lists stay short.
DIST = (1, 2, 3, 5, 10, 20, 50, 100)
MASS = (1, 2, 5, 10, 20, 50, 70, 100)
VOLUME = (1, 2, 5, 10, 20, 50)
CELSIUS = (-10, 0, 10, 20, 25, 30, 37, 100)
FAHRENHEIT = (0, 32, 50, 68, 72, 80, 100, 212)

CONVERSIONS = (
    ("km", "mi", DIST, lambda v: v / KM_PER_MILE, DISTANCE),
    ("mi", "km", DIST, lambda v: v * KM_PER_MILE, DISTANCE),
    ("C", "F", CELSIUS, lambda v: v * 9 / 5 + 32, TEMPERATURE),
    ("F", "C", FAHRENHEIT, lambda v: (v - 32) * 5 / 9, TEMPERATURE),
    ("kg", "lb", MASS, lambda v: v * LB_PER_KG, ()),
    ("lb", "kg", MASS, lambda v: v / LB_PER_KG, ()),
    ("L", "gal", VOLUME, lambda v: v / L_PER_GAL, ()),
    ("gal", "L", VOLUME, lambda v: v * L_PER_GAL, ()),
)


def rounded(x: float, temperature: bool) -> tuple[float, bool]:
    """Round as a person would say it: one decimal below ten, whole numbers above, whole
    degrees for temperatures. Returns the value and whether rounding changed it."""
    digits = 0 if temperature or abs(x) >= 10 else 1
    r = round(x, digits)
    return r, abs(r - x) > 1e-9


def conversion_skills() -> list[Skill]:
    skills = []
    for src, dst, values, fn, extra in CONVERSIONS:
        temp = src in ("C", "F")
        facts = []
        for v in values:
            r, approx = rounded(fn(v), temp)
            r_words = number_words(r, 0 if temp or abs(r) >= 10 else 1)
            s_sing, s_plur, s_forms_pl, s_forms_sg = UNITS[src]
            d_plur = UNITS[dst][1] if r_words != "one" else UNITS[dst][0]
            src_word = s_sing if v == 1 else s_plur
            about = "about " if approx else ""
            reply = capitalize(f"{number_words(v, 0)} {src_word} is {about}{r_words} {d_plur}.")
            facts.append(
                Fact(
                    str(v),
                    {
                        "v": _num(v),
                        "src": s_forms_sg if v == 1 else s_forms_pl,
                        "dst": UNITS[dst][2],
                    },
                    reply,
                    (f"{r_words} {d_plur.split()[0]}",),
                )
            )
        name = f"{src}_to_{dst}".lower()
        # Paired conversions share their wordings, so a wording held out for km → miles is
        # one the model saw only for miles → km: it has to read the units, not the wording.
        # At weight 1.0 it mostly did not (km → miles 60%, kg → lb 67% on held-out wordings).
        skills.append(Skill(name, "units", CONVERT + extra, tuple(facts), (), 1.75))
    return skills
