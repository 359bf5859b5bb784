"""The transforms request set of bench/skills.py (bench/transforms.py): size per kind, every
transformation used, well-posed checks, determinism, answers re-derived here from the request's
own text (arithmetic, conversions, timers, days until a date, spelling) in floating point and with
this file's own unit table, facts from the tables, and no request that is a training prompt or a
request of the other sets. No model."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path

import pytest

from bench.everyday import said
from bench.skills import request_set, useful
from bench.transforms import CLEAR, COMMON, KINDS, TRANSFORMS, built, transforms
from tests.test_paraphrases import _norm, _training_prompts
from training.facts import COUNTRIES, MONTH_DAYS, MONTHS, PLANETS
from training.facts import DAYS as WEEKDAYS

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning
SEEDS = range(6)


@pytest.fixture(scope="module")
def rows():
    return built(now=NOW)


@pytest.fixture(scope="module")
def reqs(rows):
    return [q for q, _ in rows]


@pytest.fixture(scope="module")
def many():
    """Requests of several seeds, each with its transformations."""
    return [row for seed in SEEDS for row in built(seed=seed, now=NOW)]


# --- reading the request text back, independently of the generator ------------------------------
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(),
                range(20, 100, 10), strict=True))  # fmt: skip
ORDINAL_WORDS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
                 "twelfth").split()  # fmt: skip
MARKERS = (("no", "wait"), ("or", "rather"), ("i", "mean"), ("no",), ("sorry",), ("actually",))


def _tokens(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?", text.lower().replace("/", " per "))


def _word_value(words: list[str], i: int) -> tuple[float, int] | None:
    """A number said in words from ``words[i]``: its value and the index after it ("one
    hundred and twenty three", "three point five"; "twelve eleven" is two numbers)."""
    total = cur = 0
    j, last = i, None
    while j < len(words):
        w, nxt = words[j], words[j + 1] if j + 1 < len(words) else ""
        after_scale = last in (None, "hundred", "thousand", "and")
        if w in ONES and (after_scale or (last in TENS and 0 < ONES.index(w) < 10)):
            cur += ONES.index(w)
        elif w in TENS and after_scale:
            cur += TENS[w]
        elif w == "hundred" and last in ONES:
            cur *= 100
        elif w == "thousand" and last not in (None, "and", "thousand"):
            total, cur = total + cur * 1000, 0
        elif w == "and" and last in ("hundred", "thousand") and (nxt in ONES or nxt in TENS):
            pass
        elif w == "point" and last is not None and nxt in ONES[:10]:
            digits = ""
            while j + 1 < len(words) and words[j + 1] in ONES[:10]:
                digits += str(ONES.index(words[j + 1]))
                j += 1
            return total + cur + float("0." + digits), j + 1
        else:
            break
        last = w
        j += 1
    return (total + cur, j) if last is not None else None


def numbers(text: str) -> list[tuple[float, int, int]]:
    """(value, first token, token after) of each number in ``text``, digits or words."""
    words = _tokens(text)
    out, i = [], 0
    while i < len(words):
        if re.fullmatch(r"\d+(?:\.\d+)?", words[i]):
            out.append((float(words[i]), i, i + 1))
            i += 1
            continue
        got = _word_value(words, i)
        if got:
            out.append((got[0], i, got[1]))
            i = got[1]
        else:
            i += 1
    return out


def value_of(words: str) -> float:
    got = numbers(words)
    assert len(got) == 1, words
    return got[0][0]


def corrected(text: str, skip: frozenset = frozenset()) -> list[tuple[float, int, int]]:
    """The numbers of ``text`` less those taken back ("5 miles, no, 6 miles" keeps 6)."""
    words = _tokens(text)
    nums = numbers(text)
    keep = []
    for k, n in enumerate(nums):
        if k + 1 < len(nums):
            between = tuple(w for w in words[n[2] : nums[k + 1][1]] if w not in skip)
            if between in MARKERS:
                continue
        keep.append(n)
    return keep


# this file's own unit table: factor to SI, dimension
UNIT_TABLE = {
    "miles an hour": (0.44704, "speed"), "miles per hour": (0.44704, "speed"),
    "mph": (0.44704, "speed"), "kilometres an hour": (1 / 3.6, "speed"),
    "kilometers an hour": (1 / 3.6, "speed"), "kilometres per hour": (1 / 3.6, "speed"),
    "kilometers per hour": (1 / 3.6, "speed"), "km per h": (1 / 3.6, "speed"),
    "miles": (1609.344, "length"), "mile": (1609.344, "length"),
    "kilometres": (1000, "length"), "kilometers": (1000, "length"), "km": (1000, "length"),
    "inches": (0.0254, "length"), "inch": (0.0254, "length"),
    "centimetres": (0.01, "length"), "centimeters": (0.01, "length"), "cm": (0.01, "length"),
    "feet": (0.3048, "length"), "foot": (0.3048, "length"),
    "metres": (1, "length"), "meters": (1, "length"), "yards": (0.9144, "length"),
    "pounds": (0.45359237, "weight"), "lb": (0.45359237, "weight"),
    "kilograms": (1, "weight"), "kg": (1, "weight"), "ounces": (0.028349523125, "weight"),
    "oz": (0.028349523125, "weight"), "grams": (0.001, "weight"),
    "stone": (6.35029318, "weight"), "gallons": (3.785411784, "volume"),
    "litres": (1, "volume"), "liters": (1, "volume"), "cups": (0.2365882365, "volume"),
    "millilitres": (0.001, "volume"), "milliliters": (0.001, "volume"), "ml": (0.001, "volume"),
    "hours": (3600, "time"), "hour": (3600, "time"), "minutes": (60, "time"),
    "seconds": (1, "time"), "days": (86400, "time"), "weeks": (604800, "time"),
    "celsius": (None, "temp"), "fahrenheit": (None, "temp"),
}  # fmt: skip
UNIT_WORDS = frozenset(w for u in UNIT_TABLE for w in u.split()) | {"degrees", "per", "cent"}


def units_in(text: str) -> list[tuple[str, int]]:
    """Unit names in ``text`` (the longest at each place) with their first token."""
    words = _tokens(text)
    out, i = [], 0
    names = sorted(UNIT_TABLE, key=lambda u: -len(u.split()))
    while i < len(words):
        for u in names:
            n = len(u.split())
            if tuple(words[i : i + n]) == tuple(u.split()):
                out.append((u, i))
                i += n
                break
        else:
            i += 1
    return out


def _other(src: str, found: list[tuple[str, int]]) -> str | None:
    """The unit named besides ``src``, of its dimension."""
    size, dim = UNIT_TABLE[src]
    return next((u for u, _ in found if UNIT_TABLE[u][1] == dim and u != src
                 and (size is None or UNIT_TABLE[u][0] != size)), None)  # fmt: skip


def is_conversion(text: str) -> bool:
    found = units_in(text)
    return any(_other(u, found) for u, _ in found)


def conversion(text: str, before: tuple[str, str] | None = None) -> tuple[float, tuple]:
    """The converted amount a conversion request asks for: the (corrected) amount, the unit
    right after it, and the other unit named; ``before`` is the first turn's pair of units for
    an elliptical "and 8?"."""
    nums = corrected(text, UNIT_WORDS)
    amount, _, end = nums[-1]
    found = units_in(text)
    src = next((u for u, i in found if i in (end, end + 1)), None)  # "degrees" may come first
    tgt = src and _other(src, found)
    if tgt is None:  # "and 8?", "and 8 miles?": the units of the turn before
        assert before and (src is None or UNIT_TABLE[src] == UNIT_TABLE[before[0]]), text
        src, tgt = before
    if src == "celsius":
        return amount * 9 / 5 + 32, (src, tgt)
    if src == "fahrenheit":
        return (amount - 32) * 5 / 9, (src, tgt)
    return amount * UNIT_TABLE[src][0] / UNIT_TABLE[tgt][0], (src, tgt)


def arithmetic(text: str) -> float:
    """The result an arithmetic request asks for, from its words."""
    words = _tokens(text)
    t = " ".join(words)
    nums = corrected(text, frozenset({"per", "cent", "percent"}))
    v = [n[0] for n in nums]

    def after(word: str) -> float:
        i = words.index(word)
        return next(n[0] for n in nums if n[1] > i)

    if "root" in words:
        return math.sqrt(v[0])
    if "power" in words:
        e = after("power")
        return next(x for x in v if x != e or v.count(e) > 1) ** e
    if "cent" in words or "percent" in words:
        p = next(n for n in nums if n[2] < len(words) and words[n[2]] in ("per", "percent"))
        return p[0] * next(n[0] for n in nums if n is not p) / 100
    if "squared" in words or "square" in words:
        return v[0] ** 2
    if "half" in words or "halve" in words or "halved" in words:
        return v[0] / 2
    if re.search(r"\b(times|multipl\w*|product|lots)\b", t):
        return v[0] * v[1]
    if re.search(r"\b(divid\w*|split|shared)\b", t):
        if "between" in words:
            d = after("between")
        elif "ways" in words:
            d = next(n[0] for n in nums if n[2] == words.index("ways"))
        else:
            d = after("by")
        return next(x for x in v if x != d or v.count(d) > 1) / d
    if re.search(r"\b(minus|take|taken|subtract|difference|left)\b", t):
        a, b = nums[0], nums[1]
        frm = [i for i, w in enumerate(words) if w == "from"]
        if any(a[2] <= i < b[1] for i in frm):
            return b[0] - a[0]
        return a[0] - b[0]
    assert re.search(r"\b(plus|add|added|total|sum)\b", t), text
    return v[0] + v[1]


def operation(text: str, r: float) -> float:
    """Another operation on the last result ``r``."""
    words = _tokens(text)
    nums = corrected(text)
    k = nums[-1][0] if nums else None
    if {"double", "doubled"} & set(words):
        return r * 2
    if {"half", "halve", "halved"} & set(words):
        return r / 2
    if {"squared", "square"} & set(words):
        return r * r
    if {"times", "multiply", "multiplied"} & set(words):
        return r * k
    if {"plus", "add", "added"} & set(words):
        return r + k
    if {"minus", "take", "taken"} & set(words):
        return r - k
    assert {"divide", "divided"} & set(words), text
    return r / k


def close(expect: str, x: float) -> bool:
    """``expect`` (words) is ``x`` to the decimals it says."""
    places = len(expect.split(" point ")[1].split()) if " point " in expect else 0
    return abs(value_of(expect) - x) <= 0.5 * 10**-places + 1e-9


# --- size, spread, transformations --------------------------------------------------------------
def test_size_per_kind(reqs):
    counts = Counter(q.kind for q in reqs)
    assert set(counts) == set(KINDS)
    assert len(reqs) >= 200, len(reqs)
    assert min(counts.values()) >= 20, counts
    assert counts["facts"] >= 30 and counts["follow-up"] >= 30, counts
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"
    turns = [_norm(t) for q in reqs for t in q.turns]
    assert len(set(turns)) == len(turns), "a turn said twice"


def test_every_transformation_is_used(rows, many):
    used = Counter(t for _, picks in rows for p in picks for t in p)
    assert len(TRANSFORMS) >= 15
    assert set(used) == set(TRANSFORMS), set(TRANSFORMS) - set(used)
    assert min(used.values()) >= 5, used
    for q, picks in many:
        *first, last = picks
        assert 2 <= len(last) <= 3, (q.turns, picks)
        assert all(1 <= len(p) <= 2 for p in first), (q.turns, picks)
        assert len(picks) == len(q.turns)
        for p in picks:
            assert any(t not in COMMON for t in p), (q.turns, p)
            assert sum(t in ("reason_before", "reason_after", "repeat") for t in p) <= 1
            assert len(set(p)) == len(p)


def test_transformations_show_in_the_text(many):
    for q, picks in many:
        for text, p in zip(q.turns, picks, strict=True):
            low = text.lower()
            if "asr" in p:
                assert low == text and not re.search(r"[^\w' .]", text), text
                # numbers up to ten in words, above it in digits
                assert not re.search(r"(?<![\d.])\b(10|[0-9])\b(?![.\d])", text), text
                assert not re.search(
                    r"\b(eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|"
                    r"seventy|eighty|ninety|hundred)\b",
                    text,
                ), text
            else:
                assert not text[0].islower() and text[-1] in ".?", text
            if "correction" in p:
                assert re.search(r"\b(no|sorry|i mean|or rather|actually)\b", low), text
            if "choice" in p:
                assert " or " in low, text
            if "filler" in p:
                assert re.search(r"\b(um|uh|er|like)\b", low), text
            if "restart" in p:
                w = _tokens(text)
                assert any(w[i : i + k] == w[i + k : i + 2 * k] for k in (2, 3)
                           for i in range(len(w))), text  # fmt: skip
            if "indirect" in p:
                assert re.search(r"wonder|do you know|any idea|could you tell|love to know|"
                                 r"do you think", low), text  # fmt: skip
            if "cleft" in p:
                assert re.search(r"\bwhat i('d| need| want|'m)", low), text
            if "polite" in p:
                assert re.search(r"\b(kindly|please|be a love|so kind)\b", low), text
            if "dialect" in p and "asr" not in p:
                assert not re.search(r"metres|litres|\bmaths\b|\bspelt\b|\bholiday\b|per cent",
                                     low), text  # fmt: skip


# --- checks -------------------------------------------------------------------------------------
def test_every_request_has_a_check_or_is_a_refusal(reqs):
    for q in reqs:
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal, q
        assert q.refusal or (q.expect and all(e.strip() for e in q.expect)), q
        if q.kind == "follow-up":
            assert len(q.turns) == 2, q
        else:
            assert len(q.turns) == 1, q
        sets_timer = q.kind == "timer" or re.search(r"timer|remind|time (it|them) for",
                                                    q.turns[0], re.I)  # fmt: skip
        assert (q.after == CLEAR) == bool(sets_timer), q
    # the scorer takes a reply holding the answer, and a short honest refusal
    q = next(q for q in reqs if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]} units.")
    assert not useful(q, "Sorry, I don't know about that.")
    r = next(q for q in reqs if q.refusal)
    assert useful(r, "Sorry, I can't do that here. I can help with timers and sums.")


def test_no_answer_is_given_away(many):
    """A numeric answer is not among the request's own numbers said back (read back here from
    the text) or in its words; a name answer is in the request only in a choice, beside a
    wrong option."""
    for q, picks in many:
        if q.refusal or q.kind in ("timer", "spelling", "clock") or q.after == CLEAR:
            continue  # a timer's length is said back, by design
        text = _norm(" ".join(q.turns))
        numeric = all(re.fullmatch(r"[a-z ]+", e) and numbers(e) for e in q.expect)
        if numeric:
            back = [_norm(said(Fraction(str(n[0])))) for t in q.turns for n in numbers(t)]
            assert not any(_norm(e) in b for e in q.expect for b in [*back, text]), q.turns
        elif any(_norm(e) in text for e in q.expect):
            assert "choice" in picks[-1], (q.turns, q.expect)


def test_arithmetic_rederived(many):
    n = 0
    for q, _ in many:
        if q.kind == "arithmetic":
            assert close(q.expect[0], arithmetic(q.turns[0])), (q.turns, q.expect)
            n += 1
        elif q.kind == "follow-up" and re.search(r"\b(that|it)\b", q.turns[1], re.I) and any(
                w in _tokens(q.turns[1]) for w in ("times", "plus", "minus", "double", "doubled",
                "half", "halve", "halved", "squared", "square", "divided", "divide", "multiply",
                "multiplied", "add", "added", "take", "taken")):  # fmt: skip
            r = arithmetic(q.turns[0])
            assert close(q.expect[0], operation(q.turns[1], r)), (q.turns, q.expect)
            n += 1
    assert n >= 150, n


def test_conversions_rederived(many):
    n = 0
    for q, _ in many:
        if q.kind == "units":
            x, _ = conversion(q.turns[0])
            assert close(q.expect[0], x), (q.turns, q.expect, x)
            n += 1
        elif q.kind == "follow-up" and is_conversion(q.turns[0]):
            first, pair = conversion(q.turns[0])
            x, _ = conversion(q.turns[1], pair)
            assert close(q.expect[0], x), (q.turns, q.expect, x)
            n += 1
    assert n >= 150, n


TIME_UNITS = {"second": 1, "minute": 60, "hour": 3600}


def _timer_seconds(text: str) -> int:
    words = _tokens(text)
    nums = corrected(text, frozenset(u + "s" for u in TIME_UNITS) | set(TIME_UNITS))
    value, _, end = nums[-1]
    unit = words[end].rstrip("s")
    return int(value * TIME_UNITS[unit])


def _said_length(seconds: int) -> str:
    for unit, size in (("hour", 3600), ("minute", 60), ("second", 1)):
        if seconds % size == 0:
            n = seconds // size
            return f"{ONES[n] if n < 20 else said(n)} {unit}{'s' if n != 1 else ''}"
    raise AssertionError(seconds)


def test_timers_rederived(many):
    for q, _ in many:
        if q.kind == "timer":
            assert q.expect == (_said_length(_timer_seconds(q.turns[0])),), q.turns
        elif q.after == CLEAR:  # the time left on a timer just set
            s = _timer_seconds(q.turns[0])
            m = s // 60
            assert s % 60 == 0 and m >= 5, q.turns
            assert q.expect == (_said_length(s), f"{said(m - 1)} minutes",
                                f"{said(m - 2)} minutes"), q  # fmt: skip


HOLIDAYS = {"christmas eve": (12, 24), "christmas": (12, 25), "boxing day": (12, 26),
            "new year's day": (1, 1), "new year's eve": (12, 31), "halloween": (10, 31),
            "valentine's day": (2, 14), "bonfire night": (11, 5), "st patrick's day": (3, 17),
            "april fools day": (4, 1), "april fools' day": (4, 1)}  # fmt: skip
DAY_WORDS = ["", *ORDINAL_WORDS, "thirteenth", "fourteenth", "fifteenth", "sixteenth",
             "seventeenth", "eighteenth", "nineteenth", "twentieth"]  # fmt: skip


def _last_date(text: str) -> tuple[int, int] | None:
    """The holiday or date said last (a correction says the wrong one first)."""
    low = text.lower()
    found = []
    holidays = "|".join(re.escape(h) for h in sorted(HOLIDAYS, key=len, reverse=True))
    for m in re.finditer(holidays, low):
        found.append((m.start(), HOLIDAYS[m.group()]))
    for i, month in enumerate(MONTHS, 1):
        mon = month.lower()
        said_as = (rf"the (\d+)(?:st|nd|rd|th) of {mon}|{mon} (?:the )?(\d+)(?:st|nd|rd|th)"
                   rf"|{mon} ((?:twenty |thirty )?[a-z]+)")  # fmt: skip
        for m in re.finditer(said_as, low):
            day = m.group(1) or m.group(2)
            if day:
                found.append((m.start(), (i, int(day))))
            elif m.group(3).split()[-1] in DAY_WORDS:
                w = m.group(3).split()
                tens = {"twenty": 20, "thirty": 30}.get(w[0], 0) if len(w) > 1 else 0
                found.append((m.start(), (i, tens + DAY_WORDS.index(w[-1]))))
    return max(found)[1] if found else None


def test_days_until_rederived(many):
    today = NOW.date()
    n = 0
    for q, _ in many:
        if q.kind not in ("clock", "follow-up") or not re.search(
                r"\b(until|till|away|before)\b", q.turns[0], re.I):  # fmt: skip
            continue
        if not (q.expect[0].endswith(" days") or q.expect[0] in ("today", "tomorrow")):
            continue
        md = _last_date(q.turns[-1])
        d = date(today.year, *md)
        d = d if d >= today else date(today.year + 1, *md)
        days = (d - today).days
        want = "today" if days == 0 else "tomorrow" if days == 1 else f"{said(days)} days"
        assert q.expect == (want,), (q.turns, q.expect, days)
        n += 1
    assert n >= 40, n


def test_clock_answers_follow_now(reqs):
    expects = {q.expect for q in reqs if q.kind == "clock"}
    assert ("ten", "eleven") in expects
    assert ("December sixth", "sixth of December") in expects
    assert ("Sunday",) in expects and ("Monday",) in expects
    assert ("twenty twenty six",) in expects
    later = {q.expect for q in transforms(now=datetime(2027, 3, 2, 23, 5)) if q.kind == "clock"}
    assert ("eleven", "twelve") in later and ("Tuesday",) in later
    assert ("March second", "second of March") in later


def test_spelling_rederived(many):
    from bench.transforms import WORDS

    for q, _ in many:
        if not q.expect or not re.fullmatch(r"[A-Z](, [A-Z])+", q.expect[0]):
            continue
        low = _tokens(q.turns[-1])
        said_words = [w for w in low if w in {x.lower() for x in WORDS}]
        word = said_words[-1]  # a correction says the wrong one first
        assert q.expect == (", ".join(word.upper()),), (q.turns, q.expect)


def test_facts_from_the_tables(many):
    names = {c.capital.split(",")[0] for c in COUNTRIES} | {c.language for c in COUNTRIES}
    names |= {c.currency.removeprefix("the ") for c in COUNTRIES}
    names |= {c.continent.removeprefix("both ") for c in COUNTRIES}
    names |= {p.name for p in PLANETS} | {p.moons_answer for p in PLANETS}
    names |= set(MONTHS) | set(WEEKDAYS) | set(ORDINAL_WORDS[:12])
    names |= {f"{said(d)} days" for d in set(MONTH_DAYS) | {29}}
    for q, _ in many:
        if q.kind == "facts" or (q.kind == "follow-up" and q.after != CLEAR and not any(
                c.isdigit() or "," in e for e in q.expect for c in e)):  # fmt: skip
            if q.expect[0] in ("today", "tomorrow"):
                continue  # days until a date
            if numbers(q.expect[0]) and "days" not in q.expect[0] and \
                    q.expect[0] not in ORDINAL_WORDS:  # fmt: skip
                continue  # a numeric follow-up
            e = q.expect[0]
            assert e.removeprefix("the ") in names or e.endswith(" days"), q


def test_unique_follow_up_facts():
    """Another fact of the same country is asked only where its answer is no other country's."""
    from bench.transforms import answer, unique

    for attr in ("capital",):
        assert all(unique(attr, c) for c in COUNTRIES)
    assert not unique("language", next(c for c in COUNTRIES if c.name == "Australia"))
    assert unique("currency", next(c for c in COUNTRIES if c.name == "Japan"))
    assert answer(next(c for c in COUNTRIES if c.name == "Russia"), "continent") == \
        "Europe and Asia"  # fmt: skip


# --- determinism --------------------------------------------------------------------------------
def test_deterministic():
    a, b = transforms(now=NOW), transforms(now=NOW)
    key = [(q.turns, q.kind, q.expect, q.after) for q in a]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in b]
    assert [q.turns for q in transforms(seed=1, now=NOW)] != [q.turns for q in a]
    # the same in another process, whatever its string hashing
    code = (
        "from datetime import datetime; from bench.transforms import built; "
        "print([(q.turns, q.expect, p) for q, p in built(now=datetime(2026, 12, 6, 10, 15))])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([(q.turns, q.expect, p) for q, p in built(now=NOW)])


def test_every_seed_builds():
    size = len(transforms(now=NOW))
    for seed in range(25):
        assert len(transforms(seed=seed, now=NOW)) == size


def test_registered_in_the_benchmark():
    assert [q.turns for q in request_set("transforms")] == [q.turns for q in transforms()]
    with pytest.raises(SystemExit, match="transforms"):
        request_set("nonsense")


# --- held out -----------------------------------------------------------------------------------
def test_no_request_is_a_training_prompt():
    """No turn of any request (this seed's and a few others') is a user turn the training
    corpus produces; compared as tests/test_paraphrases.py does."""
    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for seed in SEEDS for q in transforms(seed=seed, now=NOW) for t in q.turns
            if _norm(t) in prompts}  # fmt: skip
    assert not seen, sorted(seen)


def test_no_request_is_in_another_set():
    """No request, and no turn of one, equals a request or a turn of the base, paraphrase,
    everyday, strangers or newcomers sets (normalised)."""
    theirs_turns, theirs = set(), set()
    for name in ("base", "paraphrase", "everyday", "strangers", "newcomers"):
        for q in request_set(name):
            theirs.add(tuple(_norm(t) for t in q.turns))
            theirs_turns.update(_norm(t) for t in q.turns)
    for seed in SEEDS:
        for q in transforms(seed=seed, now=NOW):
            assert tuple(_norm(t) for t in q.turns) not in theirs, q.turns
            assert not any(_norm(t) in theirs_turns for t in q.turns), q.turns
