"""Numbers and quantities read as people say them: the one reader of spoken numbers.

The calculator, the units tool, timers, the clock and the request reader (``request.py``) all
read numbers through here, after :func:`spoken_text`. Speech recognition writes digits ("17",
"2.5", "1,000", "3 hours"), words ("seventeen", "a hundred and five", "two point five"), or
both ("2 million"); people say "a dozen", "half a cup", "an hour and a half", "two fifty", "a
third of", "minus forty". :func:`read_number` reads a number, :func:`read_ordinal` an ordinal
("twenty first", "3rd"), :func:`read_quantity` a number and the unit after it, where "a" and
"an" count as one ("an ounce", "a mile"). Saying numbers is :mod:`words.spoken`.

Vague amounts are not numbers: "a few", "several", "some", "a bit" could be three or seven, and
a timer or a sum built on a guess is worse than a question back, so the tools say what they
need instead (:data:`VAGUE` names them for the tools that answer so).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from words.spoken import ONES, SCALES, TENS, ordinal_words

U = TypeVar("U")

_ONES_VALUE = {w: i for i, w in enumerate(ONES)} | {"oh": 0, "nought": 0, "naught": 0}
_TENS_VALUE = {w: 10 * i for i, w in enumerate(TENS) if i > 1}
_SCALE_VALUE = {name: value for value, name in SCALES}
_NUMBER_WORDS = _ONES_VALUE.keys() | _TENS_VALUE.keys()
_ORDINAL_VALUE = {ordinal_words(i): i for i in range(1, 100)} | {
    "hundredth": 100, "thousandth": 1000, "millionth": 10**6}  # fmt: skip
# "half", "third", "quarters", "fifths": a fraction's denominator (after "a", "one", "two"...)
_DENOMINATOR = {"half": 2, "halves": 2, "quarter": 4, "quarters": 4} | {
    w + s: n for w, n in _ORDINAL_VALUE.items() if 3 <= n <= 10 or n in (100, 1000)
    for s in ("", "s")}  # fmt: skip
_COUNTS = {"couple": 2, "pair": 2, "dozen": 12}  # "a couple of", "a pair of", "a dozen"
# "17", "-2.5", "1,000", ".5", "3/4"
_DIGITS = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$|^[-+]?\.\d+$|^\d+/[1-9]\d*$")
_ORDINAL_DIGITS = re.compile(r"^(\d+)(st|nd|rd|th)$")
_A = ("a", "an")
# Amounts a person says without a number in mind ("a few minutes"): read as no number at all.
VAGUE = ("a few", "few", "several", "some", "a bit", "a little", "a while", "a handful of")
# Words that join with a hyphen inside a spoken number: "twenty-three", "three-quarters",
# "twenty-first", "one-half".
_HYPHENATED = re.compile(
    r"\b(" + "|".join(ONES[1:10] + TENS[2:] + ["a", "one"]) + r")-(?=[a-z])"
)
_VULGAR = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
           "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8",
           "⅞": "7/8"}  # fmt: skip


def spoken_text(text: str) -> str:
    """A transcript with its numbers as the readers want them: lower case, "1,000" → "1000",
    "3hours" → "3 hours", "5kg" → "5 kg", "°" → " degrees " (ordinals such as "21st" stay
    whole), "twenty-three" → "twenty three", "2½" → "2 1/2", "−4" (a typographic minus) →
    "-4", and "$5", "£5", "€5" → "5" (an amount of money is its number here: no tool converts
    currencies)."""
    t = str(text).lower().replace("’", "'").replace("°", " degrees ")
    t = re.sub(r"[−–](?=\d)", "-", t)
    t = re.sub(r"[$£€](?=\s?\d)", "", t)
    t = re.sub("[" + "".join(_VULGAR) + "]", lambda m: " " + _VULGAR[m.group()], t)
    t = _HYPHENATED.sub(r"\1 ", t)
    t = re.sub(r"(?<!\d)(\d{1,3}(?:,\d{3})+)(?![\d,])", lambda m: m.group(1).replace(",", ""), t)
    return re.sub(r"(\d)(?!(?:st|nd|rd|th)\b)([a-z])", r"\1 \2", t)


def _digits_value(tok: str) -> Fraction | None:
    if _DIGITS.match(tok):
        return Fraction(tok.replace(",", ""))
    return None


def _read_integer(words: list[str], j: int) -> tuple[int, int] | None:
    """A whole number in words at ``words[j:]``: "two hundred and five thousand", "a hundred",
    "a thousand", "twenty five", and "two fifty" (250: a digit word and a tens part that cannot
    be a sum, as prices and counts are said; "nineteen eighty four" stays two numbers)."""
    n = len(words)
    total = group = 0
    scale = 10**18  # scales go down: "two million five thousand"
    last = None  # the last word read: "ones" (1-9), "teen" (10-19), "tens", "hundred", "scale"
    pair = False  # the group is a "two fifty" pair
    while j < n:
        w, nxt = words[j], words[j + 1] if j + 1 < n else ""
        if w in _A and last is None and (nxt == "hundred" or nxt in _SCALE_VALUE):
            group, last = 1, "ones"  # "a hundred", "a thousand"
        elif w in _ONES_VALUE and w != "oh":  # "oh" is a digit after "point" only
            v = _ONES_VALUE[w]
            if last in (None, "hundred", "scale"):
                group, last = group + v, ("ones" if v < 10 else "teen")
            elif last == "tens" and 0 < v < 10 and group % 10 == 0:
                group, last = group + v, "ones"
            elif last == "ones" and 10 <= v and group < 10 and not pair and total == 0:
                group, last, pair = group * 100 + v, "teen", True  # "two fifteen"
            else:
                break
        elif w in _TENS_VALUE:
            v = _TENS_VALUE[w]
            if last in (None, "hundred", "scale"):
                group, last = group + v, "tens"
            elif last == "ones" and group < 10 and not pair and total == 0:
                group, last, pair = group * 100 + v, "tens", True  # "two fifty"
            else:
                break
        elif w == "hundred" and last in ("ones", "teen", "tens") and group < 100 and not pair:
            group, last = group * 100, "hundred"  # "five hundred", "twelve hundred"
        elif w in _SCALE_VALUE and last not in (None, "scale") and group < 1000 \
                and _SCALE_VALUE[w] < scale:
            scale = _SCALE_VALUE[w]
            total, group, last, pair = total + group * scale, 0, "scale", False
        elif w == "and" and last in ("hundred", "scale") and nxt in _NUMBER_WORDS \
                and nxt != "oh" and not _fraction_at(words, j + 1):
            pass  # "one hundred and five" ("one hundred and two thirds" is 100⅔)
        else:
            break
        j += 1
    if last is None:
        return None
    return total + group, j


def _fraction_at(words: list[str], j: int) -> bool:
    """Whether a count and a denominator ("two thirds") are said at ``words[j:]``."""
    got = _read_integer(words, j)
    return got is not None and _read_fraction(words, got[1], Fraction(got[0])) is not None


def _read_fraction(
    words: list[str], j: int, count: Fraction
) -> tuple[Fraction, int] | None:
    """A denominator after a count: "third" after "a"/"one", "thirds" after "two"."""
    if j >= len(words) or words[j] not in _DENOMINATOR:
        return None
    w = words[j]
    plural = w.endswith("s")
    if count.denominator != 1 or count <= 0 or plural != (count != 1):
        return None
    return count / _DENOMINATOR[w], j + 1


def read_number(
    words: list[str], i: int = 0, *, alone: bool = False
) -> tuple[Fraction, int] | None:
    """The number spoken at ``words[i:]`` and the index after it, or None.

    Reads digits ("17", "2.5", "1,000", "3/4", "2 million"), number words with scales ("two
    hundred and five thousand", "a hundred", "a thousand", "twelve hundred"), "two fifty"
    (250), decimals ("two point five", "point five"), counts ("a dozen", "two dozen", "a
    couple", "half a dozen"), fractions ("a half", "a third", "two thirds", "three quarters"),
    mixed numbers ("one and a half", "two and three quarters") and "minus"/"negative" before
    a number. Two numbers in a row ("five six", "nineteen eighty four") are read as two.

    ``alone``: a quantity is expected here (a unit follows, or the words are the value of an
    amount), so "a"/"an" is one and "half a"/"half an" is a half: "an ounce", "half a cup".
    """
    n = len(words)
    sign, j = 1, i
    if j < n and words[j] in ("minus", "negative"):
        sign, j = -1, j + 1
    if j >= n:
        return None
    start = j
    value: Fraction | None = None
    w = words[j]
    nxt = words[j + 1] if j + 1 < n else ""
    d = _digits_value(w)
    if d is not None:
        value, j = d, j + 1
        if j < n and words[j] in _SCALE_VALUE | {"hundred": 100}:
            value *= (_SCALE_VALUE | {"hundred": 100})[words[j]]
            j += 1
        elif j < n and value.denominator == 1 and "/" in words[j] and \
                (part := _digits_value(words[j])) is not None and 0 < part < 1:
            value, j = value + part if value >= 0 else value - part, j + 1  # "2 1/2"
    elif w == "half" and nxt in _A:  # "half a dozen", "half a million", "half a cup"
        inner = read_number(words, j + 1)
        if inner is not None and inner[0] > 1:
            value, j = inner[0] / 2, inner[1]
        elif alone:
            value, j = Fraction(1, 2), j + 2
    elif w in _A and nxt in _COUNTS:  # "a dozen", "a couple of"
        value, j = Fraction(_COUNTS[nxt]), j + 2
    elif w in _A and (got := _read_fraction(words, j + 1, Fraction(1))) is not None:
        value, j = got  # "a half", "a third", "a quarter"
    elif w == "point" and nxt in _ONES_VALUE:
        value = Fraction(0)
    elif w in _DENOMINATOR and w != "half" and not w.endswith("s") and nxt == "of":
        value, j = 1 / Fraction(_DENOMINATOR[w]), j + 1  # "quarter of an hour", "third of 90"
    else:
        got_int = _read_integer(words, j)
        if got_int is not None:
            value, j = Fraction(got_int[0]), got_int[1]
            if j < n and words[j] in ("dozen", "dozens"):  # "two dozen"
                value, j = value * 12, j + 1
            elif (got := _read_fraction(words, j, value)) is not None:
                value, j = got  # "two thirds", "one quarter"
        elif w in _A and alone:
            value, j = Fraction(1), j + 1  # "an ounce", "a mile"
    if value is None:
        return None
    # decimals: "point five", "point two five"
    if j < n and words[j] == "point" and value.denominator == 1 and j + 1 < n:
        digits, k = [], j + 1
        while k < n and words[k] in _ONES_VALUE and _ONES_VALUE[words[k]] < 10:
            digits.append(str(_ONES_VALUE[words[k]]))
            k += 1
        if digits:
            value += Fraction("0." + "".join(digits))
            j = k
    # "and a half", "and three quarters"
    if j + 2 < n and words[j] == "and" and value.denominator == 1 and value > 0:
        if words[j + 1] in _A:
            got = _read_fraction(words, j + 2, Fraction(1))
        else:
            got_int = _read_integer(words, j + 1)
            got = got_int and _read_fraction(words, got_int[1], Fraction(got_int[0]))
        if got is not None and got[0] < 1:
            value, j = value + got[0], got[1]
    # "one point two million", "two and a half thousand": a scale after a part of one
    if j < n and words[j] in _SCALE_VALUE and value.denominator != 1 and value < 1000 \
            and words[start] not in _A:
        value, j = value * _SCALE_VALUE[words[j]], j + 1
    if j == start:
        return None
    return sign * value, j


def read_ordinal(words: list[str], i: int = 0) -> tuple[int, int] | None:
    """The ordinal at ``words[i:]`` ("third", "twenty first", "21st", "one hundred and first",
    "hundredth") and the index after it, or None."""
    n = len(words)
    if i >= n:
        return None
    m = _ORDINAL_DIGITS.match(words[i])
    if m:
        return int(m.group(1)), i + 1
    if words[i] in _ORDINAL_VALUE:
        return _ORDINAL_VALUE[words[i]], i + 1
    got = _read_integer(words, i)
    if got is None:
        return None
    value, j = got  # the cardinal part: "twenty", "one hundred", "two thousand"
    if j + 1 < n and words[j] == "and" and value % 100 == 0:
        j += 1  # "one hundred and first"
    o = _ORDINAL_VALUE.get(words[j]) if j < n else None
    if o is None:
        return None
    if o < 10 and value % 100 >= 20 and value % 10 == 0 or o < 100 and value % 100 == 0:
        return value + o, j + 1  # "twenty first", "one hundred and fifth"
    if o >= 100 and value < 10:
        return value * o, j + 1  # "two hundredth"
    return None


def read_quantity(
    words: list[str], i: int, unit_at: Callable[[list[str], int], tuple[U, int] | None]
) -> tuple[Fraction, U, int, int] | None:
    """A number and the unit said after it, at ``words[i:]``: ``(value, unit, where the unit
    starts, the index after it all)``, or None. ``unit_at(words, j)`` is the caller's unit
    names: the unit at ``words[j:]`` and the index after it, or None.

    "an ounce", "a mile", "half a cup", "3 hours", "two and a half miles", "a couple of
    minutes", "a third of a mile", "three quarters of an hour", "an hour and a half".
    """
    got = read_number(words, i, alone=True)
    if got is None:
        return None
    value, j = got
    n = len(words)
    if j < n and words[j] == "of":  # "a couple of hours", "a third of a mile"
        k = j + 2 if j + 1 < n and words[j + 1] in _A else j + 1
        if unit_at(words, k) is not None:
            j = k
    u = unit_at(words, j)
    if u is None:
        return None
    unit, end = u
    # "a mile and a half", "an hour and a quarter": a fraction of the unit said after it
    if end + 2 < n and words[end] == "and" and value.denominator == 1 and value > 0:
        more = read_number(words, end + 1)
        if more is not None and 0 < more[0] < 1:
            value, end = value + more[0], more[1]
    return value, unit, j, end

