"""Numbers as a person says them: ``56 → "fifty six"``, ``6.2 → "six point two"``.

Replies of the demo model are spoken by a TTS voice, so they never contain digits. Words are
separated by spaces, not hyphens ("fifty six"), and hundreds take "and" ("one hundred and five").
"""

from __future__ import annotations

from words import spoken
from words.spoken import ONES, TENS, ordinal_words

__all__ = ["ONES", "TENS", "capitalize", "int_words", "number_words", "ordinal_words"]


def int_words(n: int) -> str:
    """An integer in words, ``-40 → "minus forty"``; |n| < one million (the corpus's range),
    said as the assistant's tools say it (:func:`words.spoken.int_words`)."""
    if abs(n) >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    return spoken.int_words(n)


def number_words(x: float, decimals: int = 1) -> str:
    """A number in words with at most ``decimals`` decimal digits; ``6.2 → "six point two"``,
    said as the tools say it (:func:`words.spoken.decimal_words`). A fractional part that rounds
    to zero is dropped (``4.0 → "four"``); |x| < one million (the corpus's range)."""
    if abs(x) >= 1_000_000:
        raise ValueError(f"{x} is too large to say")
    return spoken.decimal_words(x, decimals)[0]


def capitalize(text: str) -> str:
    """Upper-case the first character only (``"fifty six" → "Fifty six"``)."""
    return text[:1].upper() + text[1:]
