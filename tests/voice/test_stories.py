"""Sums told as stories: two numbers and what the words around them say to do — a discount, a
tip, change from a note, what is still owed or left, a bill shared, a rate times a quantity,
two amounts put together — in any order, read by the calculator (voice.tools.request)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from voice.tools import Toolbox
from voice.tools.calculator import Calculator
from voice.tools.request import calculator_args, story_sum
from words.spoken import int_words

# Stories written for this test: (template, how the answer follows from a and b).
STORIES = [
    ("I had {a} quid and spent {b}, how much is left", lambda a, b: a - b),
    ("paid with a {a} pound note for something costing {b}, what change do I get",
     lambda a, b: a - b),
    ("she borrowed {a} dollars and has paid back {b}, how much does she still owe",
     lambda a, b: a - b),
    ("we read {b} of the {a} pages, how many to go", lambda a, b: a - b),
    ("the meal was {a} for {b} people, how much each", lambda a, b: F(a, b)),
    ("split {a} between {b} of us", lambda a, b: F(a, b)),
    ("{b} friends share a {a} dollar taxi, what does each pay", lambda a, b: F(a, b)),
    ("{a} sweets shared among {b} kids, how many each", lambda a, b: F(a, b)),
    ("crates of {a} and we need {b} crates, how many bottles altogether", lambda a, b: a * b),
    ("{a} pounds per ticket, {b} tickets, what's the total", lambda a, b: a * b),
    ("on monday I walked {a} km, on tuesday {b} km, how far is that in total",
     lambda a, b: a + b),
    ("{a} ml in the morning then {b} ml at night, how much is that", lambda a, b: a + b),
]


@pytest.mark.parametrize("template,rule", STORIES)
def test_stories_with_any_numbers(template, rule):
    rng = random.Random(hash(template) % 1000)
    calc = Calculator()
    for _ in range(20):
        b = rng.randrange(2, 12)
        a = b * rng.randrange(3, 60)  # a whole share, and more than what was spent
        for said_a, said_b in ((str(a), str(b)), (int_words(a), int_words(b))):
            q = template.format(a=said_a, b=said_b)
            got = calc.calculate(calculator_args(q, calc)["expression"])
            assert got.ok and got.value == rule(a, b), (q, got.text)


@pytest.mark.parametrize(
    "said,value",
    [("If it's 20% off, what does a £45 coat come to", 36),
     ("what would a 12% tip be on a bill of £150", 18),
     ("tip 25% on 240", 60),
     ("with a 15% tip on $80 what is the total", 92),
     ("Customer's given me £20 for £13.47, what's the change?", F("6.53")),
     ("Lunch came to $248, eight of us. Per head?", 31),
     ("Nappies come in packs of 32 and I've got three packs. How many is that?", 96),
     ("If the dose is five milligrams per kilo and the patient is 58 kilos, how many "
      "milligrams is that?", 290),
     ("I'm 35 and she's 32, how much older am I", 3),
     ("split 3 pizzas between 12 people", F(1, 4))],
)  # fmt: skip
def test_stories_as_people_tell_them(said, value):
    calc = Calculator()
    got = calc.calculate(calculator_args(said, calc)["expression"])
    assert got.ok and got.value == value, got.text


@pytest.mark.parametrize(
    "said",
    ["convert 5 feet 3 inches to centimetres", "set a timer for 5 minutes and 30 seconds",
     "100 km at 60 km per hour, how long", "how many days between the 3rd of May and the 20th",
     "wake me at 7 am and 8 am", "what's 17 times 23", "I have 3 kids"],
)  # fmt: skip
def test_no_story_where_none_is_told(said):
    assert story_sum(said) in (None, "") or said == "what's 17 times 23"


def test_a_story_is_the_calculators_over_the_model_and_the_units():
    box = Toolbox()
    offered = {"calculator", "units", "timer", "clock", "spell"}
    assert box.claims("If the dose is five milligrams per kilo and the patient is 58 kilos, "
                      "how many milligrams is that?", offered)[0] == "calculator"
    assert box.claims("rent's 1150 a week split 5 ways, how much each", offered) == ("calculator",)
    assert box.claims("convert 5 feet 3 inches to centimetres", offered) == ("units",)
