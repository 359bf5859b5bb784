"""The one reader of spoken numbers (words/quantity.py): numbers rendered in every form
people and Whisper use read back to themselves, and the phrases users said, through the tools."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from voice.tools import Toolbox
from voice.tools.calculator import Calculator
from voice.tools.timers import parse_duration
from voice.tools.units import convert, find_unit, unit_at
from words.quantity import read_number, read_ordinal, read_quantity, spoken_text
from words.spoken import ONES, fraction_words, int_words, ordinal_words


def _reads(text: str, value, *, alone: bool = False) -> None:
    words = spoken_text(text).split()
    got = read_number(words, 0, alone=alone)
    assert got is not None, text
    assert got == (value, len(words)), text


def _integer_forms(n: int) -> list[str]:
    """``n`` as digits, with commas, in words with and without "and", "a hundred"."""
    words = int_words(n)
    forms = [str(n), f"{n:,}", words, words.replace(" and ", " ")]
    if n > 0 and words.startswith("one "):
        forms.append("a " + words[4:])  # "a hundred and five", "a thousand"
    if n < 0:
        forms += [words.replace("minus", "negative", 1), "minus " + str(-n)]
    return forms


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_integers_in_every_form(n):
    for text in _integer_forms(n):
        _reads(text, n)


@given(st.integers(min_value=1, max_value=9), st.integers(min_value=10, max_value=99))
def test_two_fifty_pairs(hundreds, rest):
    """ "two fifty" is 250, "nine ninety nine" 999: a digit word and a tens part of 10-99."""
    _reads(f"{ONES[hundreds]} {int_words(rest)}", hundreds * 100 + rest)


@given(st.integers(min_value=-999, max_value=999), st.text("0123456789", min_size=1, max_size=4))
def test_decimals(whole, digits):
    value = Fraction(f"{whole}.{digits}") if whole >= 0 else -Fraction(f"{-whole}.{digits}")
    said = " ".join(ONES[int(d)] if d != "0" else "zero" for d in digits)
    _reads(f"{int_words(whole)} point {said}", value)
    _reads(f"{whole}.{digits}", value)
    if whole == 0:
        _reads(f"point {said}", value)


_SIMPLE = sorted({Fraction(a, b) for b in range(2, 11) for a in range(1, b)})


@given(st.sampled_from(_SIMPLE), st.integers(min_value=0, max_value=200))
def test_fractions_and_mixed_numbers(frac, whole):
    said = fraction_words(frac)  # "a half", "a third", "two thirds", "three quarters"
    if whole == 0:
        _reads(said, frac)
        if frac.numerator == 1:
            _reads("one " + said.removeprefix("a "), frac)  # "one third"
    else:
        _reads(f"{int_words(whole)} and {said}", whole + frac)  # "one and a half"
    _reads(f"{frac.numerator}/{frac.denominator}", frac)


@given(st.sampled_from(_SIMPLE), st.integers(min_value=1, max_value=500))
def test_a_fraction_of_a_number_in_the_calculator(frac, n):
    got = Calculator().calculate(f"{fraction_words(frac)} of {int_words(n)}")
    assert got.ok and got.value == frac * n, got.text


def _ordinal_forms(n: int) -> list[str]:
    suffix = "th" if 10 <= n % 100 < 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    forms = [f"{n}{suffix}"]
    head, rest = divmod(n, 100)
    if not head:
        forms.append(ordinal_words(n))
    elif rest:
        forms.append(f"{int_words(head * 100)} and {ordinal_words(rest)}")
    else:
        forms.append(f"{ONES[head]} hundredth")
    return forms


@given(st.integers(min_value=1, max_value=999))
def test_ordinals(n):
    for text in _ordinal_forms(n):
        words = text.split()
        assert read_ordinal(words) == (n, len(words)), text


@given(st.integers(min_value=1, max_value=500), st.sampled_from(["minutes", "mins", "hours"]))
def test_quantities_with_whisper_digits_and_words(n, unit):
    seconds = n * (3600 if unit == "hours" else 60)
    for form in (str(n), int_words(n), f"{n:,}"):
        words = spoken_text(f"{form} {unit}").split()
        got = read_quantity(words, 0, unit_at)
        assert got is not None and got[0] == n and got[3] == len(words), form
        assert parse_duration(f"{form} {unit}") == seconds


# --- where "a" is a number, and where it is not ---------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [("an", 1), ("a", 1), ("half a", Fraction(1, 2)), ("a couple of", 2), ("a dozen", 12),
     ("half a dozen", 6), ("two dozen", 24), ("a thousand", 1000), ("a third", Fraction(1, 3)),
     ("one and a half", Fraction(3, 2)), ("three point five", Fraction(7, 2)),
     ("minus forty", -40), ("negative 2.5", Fraction(-5, 2)), ("1,000", 1000), ("2.5", 2.5),
     ("two fifty", 250), ("two hundred fifty", 250), ("twenty five", 25)],
)  # fmt: skip
def test_amounts_where_a_quantity_is_expected(text, value):
    _reads(text.removesuffix(" of"), value, alone=True)


def test_a_is_one_only_where_a_quantity_is_expected():
    assert read_number(["a"]) is None
    assert read_number(["an", "apple"]) is None
    assert read_number("a third".split()) == (Fraction(1, 3), 2)
    assert read_number("nineteen eighty four".split()) == (19, 1)  # a year: the clock's
    assert read_number("twenty twenty two".split()) == (20, 1)
    assert read_number("five six".split()) == (5, 1)  # two numbers
    for text, unit in (("an ounce", "ounce"), ("a mile", "mile"), ("half a cup", "cup")):
        value, got, _, end = read_quantity(text.split(), 0, unit_at)
        assert (got, end) == (unit, len(text.split()))
    words = "a third of a mile".split()
    assert read_quantity(words, 0, unit_at) == (Fraction(1, 3), "mile", 4, 5)
    words = "an hour and a half".split()
    assert read_quantity(words, 0, unit_at)[0] == Fraction(3, 2)


def test_minus_is_a_sign_before_a_number_and_subtraction_between_two():
    c = Calculator()
    assert c.calculate("minus five plus eight").value == 3
    assert c.calculate("ten minus three").value == 7
    assert c.calculate("ten minus minus three").value == 13
    assert c.calculate("negative four times 2,500").value == -10_000


@pytest.mark.parametrize(
    ("said", "unit"),
    [("km", "kilometer"), ("kg", "kilogram"), ("lbs", "pound"), ("oz", "ounce"), ("ft", "foot"),
     ("mph", "mile / hour"), ("°C", "degC"), ("degrees Fahrenheit", "degF"),
     ("kilometres", "kilometer"), ("kilometers", "kilometer"), ("litres", "liter"),
     ("metre", "meter"), ("feet", "foot"), ("inches", "inch"), ("furlongs", "furlong"),
     ("hectares", "hectare"), ("light years", "light_year"), ("square miles", "mile ** 2")],
)  # fmt: skip
def test_unit_names_singular_plural_abbreviated_and_as_whisper_spells_them(said, unit):
    assert find_unit(said) == unit


def test_words_pint_knows_but_people_say_for_something_else_are_not_units():
    for word in ("a", "in", "are", "at", "point", "me", "us", "hand"):
        assert find_unit(word) is None, word


# --- what users said, through the real tools -----------------------------------------------
@pytest.mark.parametrize(
    ("name", "said", "result"),
    [
        ("calculator", "what's a thousand divided by eight",
         "one thousand divided by eight is one hundred and twenty five"),
        ("calculator", "two fifty divided by five",
         "two hundred and fifty divided by five is fifty"),
        ("calculator", "what's a third of ninety", "a third of ninety is thirty"),
        ("calculator", "half a dozen times two", "six times two is twelve"),
        ("calculator", "one and a half times four", "one point five times four is six"),
        ("units", "how many feet are in a mile", "one mile is five thousand two hundred and "
                                                 "eighty feet"),
        ("units", "how many ounces in half a pound", "half a pound is eight ounces"),
        ("units", "how many cups in a gallon", "one gallon is sixteen cups"),
        ("units", "convert 1,000 km to miles",
         "one thousand kilometers is about six hundred and twenty one miles"),
        ("units", "what's three point five kilometres in metres",
         "three point five kilometers is three thousand five hundred meters"),
        ("units", "convert minus forty degrees celsius to fahrenheit",
         "minus forty degrees Celsius is minus forty degrees Fahrenheit"),
        ("units", "how many feet is a mile and a half",
         "one point five miles is seven thousand nine hundred and twenty feet"),
        ("units", "how many metres in three furlongs", "three furlongs is about six hundred and "
                                                       "four meters"),
        ("timer", "set a timer for a couple of minutes", "timer set for two minutes"),
        ("timer", "set a timer for 3 hours", "timer set for three hours"),
        ("timer", "set a timer for one and a half hours",
         "timer set for one hour and thirty minutes"),
    ],
)  # fmt: skip
def test_phrases_users_said(name, said, result):
    assert Toolbox().run(name, {}, request=said).result == result


def test_an_ounce_is_about_28_grams_read_and_written():
    run = Toolbox().run("units", {}, request="how many grams are in an ounce")
    assert run.read == {"value": "an", "from": "ounce", "to": "grams"}
    assert run.result == "one ounce is about twenty eight point three grams"
    assert convert("an", "ounce", "grams") == (run.result, True)
    assert convert("a", "mile", "feet")[0] == \
        "one mile is five thousand two hundred and eighty feet"
