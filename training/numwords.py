"""Numbers as a person says them: ``56 → "fifty six"``, ``6.2 → "six point two"``.

Replies of the demo model are spoken by a TTS voice, so they never contain digits. Words are
separated by spaces, not hyphens ("fifty six"), and hundreds take "and" ("one hundred and five").
"""

from __future__ import annotations

ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
).split()


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
    """An integer in words, ``-40 → "minus forty"``; |n| < one million."""
    if n < 0:
        return "minus " + int_words(-n)
    if n >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    thousands, rest = divmod(n, 1000)
    if not thousands:
        return _under_thousand(rest)
    head = _under_thousand(thousands) + " thousand"
    if not rest:
        return head
    joiner = " and " if rest < 100 else " "
    return head + joiner + _under_thousand(rest)


def number_words(x: float, decimals: int = 1) -> str:
    """A number in words with at most ``decimals`` decimal digits; ``6.2 → "six point two"``.

    A fractional part that rounds to zero is dropped (``4.0 → "four"``).
    """
    text = f"{x:.{decimals}f}" if decimals > 0 else str(round(x))
    whole, _, frac = text.partition(".")
    frac = frac.rstrip("0")
    neg = whole.startswith("-")
    words = int_words(abs(int(whole)))
    if frac:
        words += " point " + " ".join(ONES[int(d)] for d in frac)
    if neg and (int(whole) != 0 or frac):
        words = "minus " + words
    return words


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


def capitalize(text: str) -> str:
    """Upper-case the first character only (``"fifty six" → "Fifty six"``)."""
    return text[:1].upper() + text[1:]
