"""Quantities as users type and Whisper writes them, read through the tools' own entry points
(the units tool's value, the calculator, timers), and unit names in every spelling.

The reader itself is checked form by form in test_spoken_numbers.py; here the forms it learned
later (hyphens, money signs, ½, a typographic minus, "2 1/2", "one point two million") and the
tools that read them, so a form the reader knows cannot be lost on the way to a tool.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voice.tools import Toolbox
from voice.tools.calculator import Calculator
from voice.tools.timers import parse_duration
from voice.tools.units import UNITS, convert, find_unit, read_value
from words.quantity import VAGUE, read_number, spoken_text
from words.spoken import ONES, int_words


def _hyphenated(words: str) -> str:
    """ "twenty three" → "twenty-three", as people type it (tens joined to their ones)."""
    out = words
    for tens in ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"):
        for one in ONES[1:10]:
            out = out.replace(f"{tens} {one}", f"{tens}-{one}")
    return out


def _forms(n: int) -> list[str]:
    """``n`` in every way it reaches a tool: digits, thousands commas, words with and without
    "and", hyphenated, a typographic minus, a money sign."""
    words = int_words(n)
    forms = [str(n), f"{n:,}", words, words.replace(" and ", " "), _hyphenated(words)]
    if n < 0:
        forms += [f"−{-n}", "negative " + int_words(-n)]
    else:
        forms += [f"${n:,}", f"£{n}"]
    return forms


@given(st.integers(min_value=-(10**9), max_value=10**9))
def test_every_form_of_a_whole_number_is_the_units_value(n):
    for form in _forms(n):
        assert read_value(form) == n, form


@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(min_value=1, max_value=99))
def test_every_form_of_a_whole_number_in_the_calculator(n, m):
    for form in _forms(n):
        got = Calculator().calculate(f"{form} plus {int_words(m)}")
        assert got.ok and got.value == n + m, (form, got.text)


@given(st.integers(min_value=1, max_value=1440))
def test_every_form_of_minutes_is_a_timer_length(n):
    for form in _forms(n):
        assert parse_duration(f"{form} minutes") == 60 * n, form


@given(st.integers(min_value=1, max_value=999), st.text("123456789", min_size=1, max_size=2),
       st.sampled_from([("thousand", 10**3), ("million", 10**6), ("billion", 10**9)]))
def test_a_decimal_before_a_scale(whole, digits, scale):
    """ "one point two million", "2.5 thousand": the scale applies to the whole decimal."""
    name, size = scale
    value = Fraction(f"{whole}.{digits}") * size
    said = " ".join(ONES[int(d)] for d in digits)
    for form in (f"{int_words(whole)} point {said} {name}", f"{whole}.{digits} {name}"):
        assert read_value(form) == value, form


_FRACTIONS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4),
              "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "⅛": Fraction(1, 8)}  # fmt: skip


@given(st.integers(min_value=0, max_value=500), st.sampled_from(sorted(_FRACTIONS)))
def test_mixed_numbers_in_digits_and_signs(whole, sign):
    frac = _FRACTIONS[sign]
    forms = [f"{whole}{sign}", f"{whole} {sign}",
             f"{whole} {frac.numerator}/{frac.denominator}"]  # fmt: skip
    if whole == 0:
        forms = [sign, f"{frac.numerator}/{frac.denominator}"]
    for form in forms:
        assert read_value(form) == whole + frac, form


def _spellings(name: str) -> list[str]:
    out = [name, name.upper(), name.title(), name + "."]
    for us, uk in (("meter", "metre"), ("liter", "litre")):
        if us in name:
            out.append(name.replace(us, uk))
    return out


_NAMES = sorted((unit, said) for unit, (sing, plur, _, aliases) in UNITS.items()
                for said in {sing, plur, *aliases} if said != "in")  # fmt: skip


@settings(deadline=None)  # the first conversion builds pint's registry (about a second)
@given(st.sampled_from(_NAMES))
def test_every_name_of_a_unit_is_that_unit(named):
    """Singular, plural, abbreviation, British and American spelling, any case, a full stop
    after an abbreviation: all one unit. ("in" is the one name left out: it is a preposition
    far more often than an inch.)"""
    unit, said = named
    for form in _spellings(said):
        assert find_unit(form) == unit, form
    one = UNITS[unit][0]
    text, ok = convert("1", said, one)
    assert ok and text.startswith("one "), text


@pytest.mark.parametrize(
    ("said", "unit"),
    [("°C", "degC"), ("°F", "degF"), ("deg C", "degC"), ("degrees Farenheit", "degF"),
     ("cc", "milliliter"), ("mls", "milliliter"), ("kms", "kilometer"), ("lbs.", "pound"),
     ("fl. oz", "fluid_ounce"), ("km/h", "kilometer / hour"), ("Kilometres", "kilometer")],
)  # fmt: skip
def test_unit_names_as_whisper_and_keyboards_write_them(said, unit):
    assert find_unit(said) == unit


def test_vague_amounts_are_not_numbers():
    """ "a few", "several": no number is made up for them (docs/tools.md)."""
    for vague in VAGUE:
        words = spoken_text(vague + " minutes").split()
        got = read_number(words, 0, alone=True)
        assert got is None or got[1] < len(vague.split()), vague
        assert parse_duration(vague + " minutes") is None, vague


# --- through the tools, from the user's words ----------------------------------------------
@pytest.mark.parametrize(
    ("name", "said", "result"),
    [
        ("calculator", "what's a thousand divided by eight",
         "one thousand divided by eight is one hundred and twenty five"),
        ("calculator", "what's twenty-three plus nineteen",
         "twenty three plus nineteen is forty two"),
        ("calculator", "$5 times 3", "five times three is fifteen"),
        ("calculator", "what's two to the third power", "two to the power of three is eight"),
        ("calculator", "what's one point two million divided by four",
         "one million two hundred thousand divided by four is three hundred thousand"),
        ("calculator", "I need six lots of thirty four worked out",
         "six times thirty four is two hundred and four"),
        ("calculator", "help me with some sums: fifty seven take away sixty five",
         "fifty seven minus sixty five is minus eight"),
        ("calculator", "seventeen taken away from one hundred and forty five, what's that",
         "one hundred and forty five minus seventeen is one hundred and twenty eight"),
        ("calculator", "take 16 from 517", "five hundred and seventeen minus sixteen is five "
                                           "hundred and one"),
        ("calculator", "how many times does 4 go into 100",
         "one hundred divided by four is twenty five"),
        ("calculator", "what's 25 more than 17", "twenty five plus seventeen is forty two"),
        ("calculator", "12 less than 40", "forty minus twelve is twenty eight"),
        ("calculator", "the total of 17 and 25", "seventeen plus twenty five is forty two"),
        ("calculator", "eight groups of twelve", "eight times twelve is ninety six"),
        ("calculator", "forty halved", "forty divided by two is twenty"),
        ("calculator", "17 add 25", "seventeen plus twenty five is forty two"),
        ("calculator", "144 divided equally between 12",
         "one hundred and forty four divided by twelve is twelve"),
        ("calculator", "uh so one more thing, what's twenty one divided by 50",
         "twenty one divided by fifty is zero point four two"),
        # corrections said mid-request: the corrected words count
        ("calculator", "what is 45 plus, sorry, 46 plus 19", "forty six plus nineteen is sixty "
                                                             "five"),
        ("units", "3 kilos, sorry, 4 kilos in pounds",
         "four kilograms is about eight point eight two pounds"),
        ("timer", "set a timer for ten, no, twelve minutes", "timer set for twelve minutes"),
        ("timer", "set a timer for 5 minutes, actually, make it 10", "timer set for ten minutes"),
        ("spell", "spell receive, I mean, receipt", "receipt is spelled R, E, C, E, I, P, T"),
        # ... and where Whisper ended a sentence at the speaker's pause before it
        ("units", "How many pounds is three kilos? Sorry, four kilos.",
         "four kilograms is about eight point eight two pounds"),
        ("timer", "Set a timer for five minutes? No hang on, six.", "timer set for six minutes"),
        ("spell", "Spell receive. No, receipt.", "receipt is spelled R, E, C, E, I, P, T"),
        ("units", "How many pounds is 1.5 kilos? I mean weight, not money.",
         "one point five kilograms is about three point three one pounds"),
        # a rate's slash said aloud, and Whisper's "Calvin"
        ("units", "We're doing 50KM slash H. What's that in miles an hour?",
         "fifty kilometers per hour is about thirty one point one miles per hour"),
        ("units", "How many Calvin is room temperature say 25 C?",
         "twenty five degrees Celsius is two hundred and ninety eight point one five kelvin"),
        ("timer", "set a timer for hour and a half", "timer set for one hour and thirty minutes"),
        # numbers and units in the other clauses are what the request is about, not part of it
        ("calculator", "three coffees at £3.15 each, so 3.15 times 3",
         "three point one five times three is nine point four five"),
        ("calculator", "the recipe's for four people and we're six, what's 300 divided by 4 "
                       "times 6", "three hundred divided by four times six is four hundred and "
                                  "fifty"),
        ("units", "my oven's in celsius and the recipe's American, 220 C is what in fahrenheit",
         "two hundred and twenty degrees Celsius is four hundred and twenty eight degrees "
         "Fahrenheit"),
        ("units", "how many grams are in an ounce",
         "one ounce is about twenty eight point three grams"),
        ("units", "how many feet are in a mile",
         "one mile is five thousand two hundred and eighty feet"),
        ("units", "what's 2½ cups in ml", "two point five cups is about five hundred and "
                                          "ninety one milliliters"),
        ("units", "convert −40 °F to °C",
         "minus forty degrees Fahrenheit is minus forty degrees Celsius"),
        ("timer", "set a timer for half an hour", "timer set for thirty minutes"),
        ("timer", "set a timer for a couple of minutes", "timer set for two minutes"),
        ("timer", "set a timer for twenty-five minutes", "timer set for twenty five minutes"),
    ],
)  # fmt: skip
def test_what_users_say_through_the_tools(name, said, result):
    box = Toolbox()
    try:
        assert box.run(name, {}, request=said).result == result
    finally:
        box.close()


# --- an honest "I can't", with what would work ----------------------------------------------
@pytest.mark.parametrize(
    ("name", "said"),
    [("units", "the continent Italy sits on"), ("units", "how many wibbles in a mile"),
     ("units", "convert five to pounds"), ("calculator", "I need minus 40 in wibbles"),
     ("calculator", "and half of it"), ("timer", "set a timer for a few minutes"),
     ("timer", "set a timer"), ("spell", "now try 7"), ("clock", "how long until the big day")],
)  # fmt: skip
def test_a_refusal_says_in_one_sentence_what_would_work(name, said):
    box = Toolbox()
    try:
        run = box.run(name, {}, request=said)
    finally:
        box.close()
    assert not run.ok and run.result.startswith("sorry")
    assert " like " in run.result or " I can " in run.result, run.result
    assert ". " not in run.result and len(run.result.split()) <= 25, run.result
