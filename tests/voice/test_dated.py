"""The clock asked of a date it is given: the weekday of a date (of this year or another), the
date some days or weeks from today, a date of another year counted to."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

import pytest

from voice.tools import Toolbox
from voice.tools.clock import Clock, offset_days, parse_date
from voice.tools.request import clock_read
from words.calendar import MONTHS, WEEKDAYS
from words.spoken import int_words, ordinal_words

NOW = datetime(2026, 12, 7, 15, 30)
clock = Clock(lambda: NOW)


@pytest.mark.parametrize(
    "said,days",
    [("tomorrow", 1), ("yesterday", -1), ("the day after tomorrow", 2), ("in 54 days", 54),
     ("54 days from now", 54), ("three weeks from today", 21), ("a fortnight", 14),
     ("ten days ago", -10), ("2 weeks", 14), ("in a week", 7), ("a hundred days from now", 100)],
)  # fmt: skip
def test_offsets_from_today(said, days):
    assert offset_days(said) == days


def test_dates_with_a_year_in_every_form():
    rng = random.Random(3)
    for _ in range(200):
        d = date(2020, 1, 1) + timedelta(days=rng.randrange(365 * 12))
        month = MONTHS[d.month - 1]
        forms = (f"{d.day} {month} {d.year}", f"{month} {d.day}, {d.year}",
                 f"{month.lower()} {ordinal_words(d.day)} {d.year}",
                 f"the {d.day}{'th' if 10 <= d.day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(d.day % 10, 'th')} of {month} {d.year}")  # noqa: E501  # fmt: skip
        for said in forms:
            got = parse_date(said, NOW.date())
            assert got is not None and got[1] == d, said


@pytest.mark.parametrize(
    "request_text,expect",
    [("what day of the week is 18 march 2028", "March eighteenth, twenty twenty eight is a "
                                                "Saturday"),
     ("What day of the week does December 3rd fall on in 2027?", "is a Friday"),
     ("which day was the 4th of July 2021", "was a Sunday"),
     ("what day does christmas fall on", "Christmas is on Friday, December twenty fifth"),
     ("what day is christmas", "Christmas is on Friday, December twenty fifth"),
     ("What's the date 28 days from today? The health visitor comes back then.",
      "in twenty eight days it will be Monday, January fourth, twenty twenty seven"),
     ("what will the date be in 54 days", "Saturday, January thirtieth"),
     ("what day of the week will it be 55 days from now", "Sunday, January thirty first"),
     ("what was the date ten days ago", "ten days ago it was Friday, November twenty seventh"),
     ("how many days until 1 january 2028", "in three hundred and ninety days"),
     ("What day of the week is Christmas 2027?", "Christmas 2027 is on Saturday, December "
                                                 "twenty fifth"),
     ("what day does valentine's day fall on in 2028", "is on Monday, February fourteenth"),
     ("when is easter 2027", "Easter 2027 is on Sunday, March twenty eighth, in one hundred "
                             "and eleven days"),
     ("the card says the chutney needs 20 days to mature. if i jar it today, what date will it "
      "be ready", "in twenty days it will be Sunday, December twenty seventh"),
     ("The receipt says returns within 14 days. If I bought it today, what's the last date I "
      "can return it?", "Monday, December twenty first")],
)  # fmt: skip
def test_the_clock_reads_and_answers(request_text, expect):
    a = clock_read(request_text)
    said, ok = clock.ask(a["what"], a.get("date"))
    assert ok and expect.lower() in said.lower(), (a, said)


def test_every_weekday_of_generated_dates():
    rng = random.Random(5)
    for _ in range(100):
        d = NOW.date() + timedelta(days=rng.randrange(-2000, 2000))
        q = rng.choice(["what day of the week is {m} {o}, {y}", "which day is the {o} of {m} {y}",
                        "what day was {m} {o} in {y}", "{m} {o} {y} is what day of the week"])
        q = q.format(m=MONTHS[d.month - 1], o=ordinal_words(d.day), y=d.year)
        a = clock_read(q)
        said, ok = clock.ask(a["what"], a.get("date"))
        assert ok and said.endswith(WEEKDAYS[d.weekday()]), (q, said)


def test_days_ahead_in_generated_wordings():
    rng = random.Random(6)
    for _ in range(100):
        n = rng.randrange(2, 400)
        q = rng.choice(["what's the date {n} days from now", "what date will it be in {n} days",
                        "{n} days from today what's the date", "what day is it in {n} days"])
        a = clock_read(q.format(n=rng.choice([str(n), int_words(n)])))
        said, ok = clock.ask(a["what"], a.get("date"))
        d = NOW.date() + timedelta(days=n)
        assert ok and f"{MONTHS[d.month - 1]} {ordinal_words(d.day)}" in said, (q, said)


def test_a_weekday_of_a_date_is_no_conversion_of_days_to_weeks():
    box = Toolbox(clock=clock)
    assert box.claims("what day of the week is 18 march 2028", {"units", "clock"}) == ("clock",)
    assert box.claims("what's 18 days in weeks", {"units", "clock"}) == ("units",)
    assert box.claims("it says make it six weeks ahead. how many days is it until christmas",
                      {"units", "clock"}) == ("clock",)  # fmt: skip
