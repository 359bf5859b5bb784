"""Sums told as stories: two numbers and what the words around them say to do — a discount, a
tip, change from a note, what is still owed or left, a bill shared, a rate times a quantity,
two amounts put together — in any order, read by the calculator (voice.tools.request)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from tests.voice.test_references import _talk
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


@pytest.mark.parametrize(
    "said,value",
    [("question 11: 108 divided by 12", 9),
     ("Number ten on the sheet says 23 times nine. What's the answer?", 207),
     ("round 3, question 6: what's 60 times 17", 1020),
     ("the invitation says 13 tables of 8 guests. how many people is that", 104),
     ("The bottle has 240 millilitres and each dose is 15 millilitres. How many doses is that?",
      16),
     ("The seed packet has 20 seeds and I want them in four rows. How many seeds per row?", 5),
     ("the leaflet lists 78 parts and i've counted 20. how many are missing", 58),
     ("the ticket says 30% off with a railcard, and the full fare is £71.80. how much do i save",
      F("21.54")),
     ("the receipt total is £70.59 and there are 5 of us. how much each", F("14.118")),
     ("the label says 2 tablets 4 times a day for 5 days. how many tablets is that altogether",
      40),
     ("Card says 100 grams of butter, 100 grams of sugar and 400 grams of flour. What do they "
      "add up to?", 600)],
)  # fmt: skip
def test_sums_read_off_a_sheet_a_label_or_a_bill(said, value):
    from voice.tools.request import typed_text

    calc = Calculator()
    got = calc.calculate(calculator_args(typed_text(said), calc)["expression"])
    assert got.ok and got.value == value, got.text


@pytest.mark.parametrize(
    "first,then,value",
    [("600 grams of flour per loaf and i'm making 2 loaves, what's that in total",
      "and i've already got 250 grams, so how much more do i need", 950),
     ("7 screws per panel and there are 5 panels. how many screws",
      "and the bag has 6 spare ones too, so what's the total", 41),
     ("ten guests per table and there are 12 tables. How many guests?",
      "And if three can't make it?", 117),
     ("what's 20 squared", "and the next question says take 53 off that", 347),
     ("Question seven: 18 times three.", "And now add 49 to that answer.", 103)],
)  # fmt: skip
def test_the_next_step_of_a_story_on_the_last_result(first, then, value):
    from voice.tools.request import typed_text

    calc = Calculator()
    assert calc.calculate(calculator_args(typed_text(first), calc)["expression"]).ok
    got = calc.calculate(calculator_args(typed_text(then), calc)["expression"])
    assert got.ok and got.value == value, got.text


@pytest.mark.parametrize(
    "said,meant",
    [("question 11: 108 divided by 12", "108 divided by 12"), ("Q4. 5 times 6", "5 times 6"),
     ("quinoa. letters.", "quinoa. letters."),
     ("questionnaire, letter by letter please", "questionnaire, letter by letter please")],
)  # fmt: skip
def test_a_questions_number_is_not_the_request_but_a_word_that_starts_alike_is(said, meant):
    from voice.tools.request import typed_text

    assert typed_text(said) == meant


@pytest.mark.parametrize(
    "said,expression",
    [("I've got 12 apples, 15 pears and nine oranges in the basket, how many is that?",
      "12 plus 15 plus 9"),
     ("we bought 3 pizzas, 4 salads and 2 cakes, how many dishes altogether", "3 plus 4 plus 2"),
     ("my rent of 600 a month is going up by 7%, what's the new rent", "600 plus 7%"),
     ("the price dropped by 20% from 50, what is it now", "50 minus 20%"),
     ("We drove 535 kilometres in five hours, how many kilometres per hour is that on average?",
      "535 divided by 5"),
     ("The castle was built in 1241 and knocked down in 1558, how many years did it stand?",
      "1558 minus 1241"),
     ("each episode is 37 minutes and there are 12 episodes, how many minutes is the series",
      "37 times 12"),
     ("each dose is 15 ml and the bottle has 300 ml, how many doses", "300 divided by 15")],
)  # fmt: skip
def test_more_stories(said, expression):
    assert story_sum(said) == expression


def test_a_total_split_after_it():
    a = _talk([("", [("calculator", {})]), ("", []), ("", [("calculator", {})]), ("", [])],
              "The shopping came to 50 and the petrol was 22, what's that altogether?",
              "Split that between four of us.")[-1]  # fmt: skip
    assert "eighteen" in a.text, a.text
