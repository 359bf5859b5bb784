"""Numbers as people say them, both ways: ``391 → "three hundred and ninety one"`` and
``2/3 → "two thirds"``; reading them back is :mod:`words.quantity`.

The tools answer in words: a TTS voice reads them, and the demo model copies them.
"""

from __future__ import annotations

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


def fraction_words(q: Fraction) -> str | None:
    """A simple fraction below one as said, or None: ``1/3 → "a third"``, ``3/4 → "three
    quarters"``, ``2/5 → "two fifths"``."""
    q = Fraction(q)
    if not 0 < q < 1 or q.denominator > 10:
        return None
    name = "half" if q.denominator == 2 else "quarter" if q.denominator == 4 else \
        ORDINALS[q.denominator]  # fmt: skip
    if q.numerator == 1:
        return f"a {name}"
    return f"{ONES[q.numerator]} {name}s"
