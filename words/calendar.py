"""Dates and times as they are said: the clock tool says them and the training corpus writes
the replies the demo model learns with the same words."""

from __future__ import annotations

from datetime import date

from words.spoken import int_words, ordinal_words

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # February: 29 in a leap year


def time_words(h: int, m: int) -> str:
    """``(16, 5) → "four oh five PM"``; ``(16, 0) → "four PM"``; noon and midnight by name."""
    if m == 0 and h == 12:
        return "twelve noon"
    if m == 0 and h == 0:
        return "midnight"
    half = "AM" if h < 12 else "PM"
    h12 = h % 12 or 12
    if m == 0:
        return f"{int_words(h12)} {half}"
    mm = int_words(m) if m >= 10 else f"oh {int_words(m)}"
    return f"{int_words(h12)} {mm} {half}"


def year_words(y: int) -> str:
    """``2026 → "twenty twenty six"``, ``2005 → "twenty oh five"``, ``2000 → "two thousand"``."""
    if y % 1000 == 0 or 2000 <= y < 2010:
        return int_words(y)
    hi, lo = divmod(y, 100)
    if lo == 0:
        return f"{int_words(hi)} hundred"
    return f"{int_words(hi)} {int_words(lo) if lo >= 10 else 'oh ' + int_words(lo)}"


def date_words(d: date) -> str:
    return f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {ordinal_words(d.day)}, " \
        f"{year_words(d.year)}"
