"""Numbers as people say them, both ways: ``391 → "three hundred and ninety one"`` and
``"two point five" → 2.5``.

The tools answer in words (a TTS voice reads them; the demo model copies them), and read
numbers the way speech recognition writes them: digits ("17", "2.5", "1,000"), words
("seventeen", "a hundred and five", "two point five", "three million"), or both ("2 million").
"""

from __future__ import annotations

import re
from fractions import Fraction

ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand"))
ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
).split()
# Numbers at or above this are "too large to say" (a quadrillion and up).
SAYABLE = 10**15


class TooLarge(ValueError):
    """A number too large to say."""


def _under_thousand(n: int) -> str:
    words: list[str] = []
    hundreds, rest = divmod(n, 100)
    if hundreds:
        words += [ONES[hundreds], "hundred"]
        if rest:
            words.append("and")
    if rest or not hundreds:
        if rest < 20:
            words.append(ONES[rest])
        else:
            tens, ones = divmod(rest, 10)
            words.append(TENS[tens])
            if ones:
                words.append(ONES[ones])
    return " ".join(words)


def int_words(n: int) -> str:
    """``-40 → "minus forty"``, ``2_500_000 → "two million five hundred thousand"``,
    ``1005 → "one thousand and five"``; raises :class:`TooLarge` from a quadrillion."""
    if n < 0:
        return "minus " + int_words(-n)
    if n >= SAYABLE:
        raise TooLarge(f"{n} is too large to say")
    if n < 1000:
        return _under_thousand(n)
    parts = []
    for value, name in SCALES:
        if n >= value:
            head, n = divmod(n, value)
            parts.append(f"{_under_thousand(head)} {name}")
    if n:
        parts.append(("and " if n < 100 else "") + _under_thousand(n))
    return " ".join(parts)


def ordinal_words(n: int) -> str:
    """``4 → "fourth"``, ``21 → "twenty first"``; 0 ≤ n < 100."""
    if n < len(ORDINALS):
        return ORDINALS[n]
    if n < 20:
        return ONES[n] + "th"
    tens, ones = divmod(n, 10)
    if not ones:
        return TENS[tens][:-1] + "ieth"
    return TENS[tens] + " " + ORDINALS[ones]


def decimal_words(x: Fraction | float | int, places: int = 2) -> tuple[str, bool]:
    """``(words, exact)``: ``x`` rounded to ``places`` decimals in words, and whether that is
    exactly ``x``. ``2.5 → ("two point five", True)``, ``1/3 → ("zero point three three",
    False)``."""
    q = Fraction(x)
    scaled = q * 10**places
    r = round(scaled)
    exact = r == scaled
    whole, frac = divmod(abs(r), 10**places)
    words = int_words(whole)
    digits = str(frac).rjust(places, "0").rstrip("0") if places else ""
    if digits:
        words += " point " + " ".join(ONES[int(d)] for d in digits)
    if r < 0:
        words = "minus " + words
    return words, exact


def places_for(x: Fraction | float) -> int:
    """Decimals worth saying for an inexact value: about three significant figures."""
    a = abs(Fraction(x))
    return 2 if a < 10 else 1 if a < 100 else 0


def number_words(x: Fraction | float | int) -> str:
    """A result as said: exact when it has at most two decimals, else "about" and about three
    significant figures. ``391 → "three hundred and ninety one"``, ``10/3 → "about three
    point three three"``. Raises :class:`TooLarge`."""
    q = Fraction(x)
    if abs(q) >= SAYABLE:
        raise TooLarge(f"{float(q):g} is too large to say")
    words, exact = decimal_words(q)
    if exact:
        return words
    return "about " + decimal_words(q, places_for(q))[0]


def plain_words(x: Fraction | float | int) -> str:
    """A number as it was given (an operand): to two decimals, without "about"."""
    return decimal_words(x)[0]


# --- reading spoken numbers ------------------------------------------------------------------

_WORD_VALUE = {w: i for i, w in enumerate(ONES)} | {w: 10 * i for i, w in enumerate(TENS) if i > 1}
_WORD_VALUE |= {"oh": 0, "nought": 0, "naught": 0, "a": 1, "an": 1, "dozen": 12}
_SCALE_VALUE = {"hundred": 100} | {name: value for value, name in SCALES}
_FRACTIONS = {"half": Fraction(1, 2), "quarter": Fraction(1, 4), "third": Fraction(1, 3)}
_DIGITS = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$|^[-+]?\.\d+$")


def _digits_value(tok: str) -> Fraction | None:
    if _DIGITS.match(tok):
        return Fraction(tok.replace(",", ""))
    return None


def read_number(words: list[str], i: int = 0) -> tuple[Fraction, int] | None:
    """The number spoken at ``words[i:]`` and the index after it, or None.

    Reads digits, number words with scales ("two hundred and five thousand"), "a hundred",
    "point" decimals ("two point five", "point five"), a trailing scale on digits ("2
    million"), "and a half" ("two and a half"), and "minus"/"negative". Two numbers in a row
    ("five six") are read as two.
    """
    n = len(words)
    sign, j = 1, i
    if j < n and words[j] in ("minus", "negative"):
        sign, j = -1, j + 1
    if j >= n:
        return None
    start = j
    d = _digits_value(words[j])
    if d is not None:
        value, j = d, j + 1
        if j < n and words[j] in _SCALE_VALUE:
            value *= _SCALE_VALUE[words[j]]
            j += 1
    else:
        total = current = 0
        last = None  # kind of the last word read: "ones", "tens", "scale"
        while j < n:
            w = words[j]
            nxt = words[j + 1] if j + 1 < n else ""
            if w in ("a", "an"):
                if last is not None or (nxt not in _SCALE_VALUE and nxt != "dozen"):
                    break
                current, last = 1, "ones"
            elif w in _WORD_VALUE and w not in ("dozen",):
                v = _WORD_VALUE[w]
                kind = "tens" if v >= 20 else "ones"
                if last == "ones" or (last == "tens" and (kind == "tens" or v >= 10)):
                    break
                current += v
                last = kind
            elif w == "dozen" and last is not None:
                current, last = (current or 1) * 12, "scale"
            elif w == "hundred" and last in ("ones", "tens") and current < 100:
                current, last = current * 100, "scale"
            elif w in _SCALE_VALUE and w != "hundred" and last is not None:
                total, current, last = total + (current or 1) * _SCALE_VALUE[w], 0, "scale"
            elif w == "and" and last == "scale" and nxt in _WORD_VALUE and nxt not in ("a", "an"):
                pass  # "one hundred and five"
            else:
                break
            j += 1
        if last is None:
            if words[j] != "point":
                return None
            value = Fraction(0)
        else:
            value = Fraction(total + current)
    # decimals: "point five", "point two five"
    if j < n and words[j] == "point":
        digits, k = [], j + 1
        while k < n and words[k] in _WORD_VALUE and _WORD_VALUE[words[k]] < 10 \
                and words[k] not in ("a", "an"):
            digits.append(str(_WORD_VALUE[words[k]]))
            k += 1
        if digits:
            value += Fraction("0." + "".join(digits))
            j = k
    # "and a half", "and a quarter"
    if words[j : j + 2] in (["and", "a"], ["and", "an"]) and j + 2 < n \
            and words[j + 2] in _FRACTIONS:
        value += _FRACTIONS[words[j + 2]]
        j += 3
    if j == start:
        return None
    return sign * value, j
