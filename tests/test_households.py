"""The households request set of bench/skills.py (bench/households.py): size per kind and per
household, typed and spoken channels, well-posed checks re-derived here independently (float
arithmetic, unit factors and calendar counts of their own, the fact tables), determinism, and
no request that is a training prompt or a request of another set. No model."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from bench.households import CHANNELS, CLEAR, HOUSEHOLDS, KINDS, built, easter, households
from bench.skills import request_set, useful
from tests.test_paraphrases import _norm, _training_prompts
from training.facts import COUNTRIES, MONTH_DAYS, MONTHS, PLANETS
from training.facts import DAYS as WEEKDAYS

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning
SEEDS = range(4)


@pytest.fixture(scope="module")
def rows():
    return built(now=NOW)


@pytest.fixture(scope="module")
def reqs(rows):
    return [r.request for r in rows]


@pytest.fixture(scope="module")
def many():
    return [row for seed in SEEDS for row in built(seed=seed, now=NOW)]


# --- reading numbers, independently of the generator --------------------------------------------
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(),
                range(20, 100, 10), strict=True))  # fmt: skip
ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
            "twelfth").split()  # fmt: skip


def value_of(words: str) -> float:
    """"minus forty two point zero five" → -42.05; "one thousand and twenty four" → 1024."""
    toks = _norm(words).split()
    sign = -1 if toks[:1] == ["minus"] else 1
    toks = toks[1:] if sign < 0 else toks
    whole, frac = (toks, []) if "point" not in toks else (
        toks[: toks.index("point")], toks[toks.index("point") + 1 :])  # fmt: skip
    total = part = 0
    for t in whole:
        if t in ONES:
            part += ONES.index(t)
        elif t in TENS:
            part += TENS[t]
        elif t == "hundred":
            part *= 100
        elif t in ("thousand", "million"):
            total += part * (1000 if t == "thousand" else 10**6)
            part = 0
        elif t != "and":
            raise ValueError(words)
    x = total + part + sum(ONES.index(d) / 10 ** (i + 1) for i, d in enumerate(frac))
    return sign * x


def words_of(n: int) -> str:
    """A whole number as said (up to millions), written here on its own."""
    if n < 0:
        return "minus " + words_of(-n)
    if n < 20:
        return ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return [k for k, v in TENS.items() if v == t * 10][0] + (f" {ONES[o]}" if o else "")
    for size, name in ((10**6, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            hi, lo = divmod(n, size)
            rest = "" if not lo else (" and " if lo < 100 else " ") + words_of(lo)
            return f"{words_of(hi)} {name}{rest}"
    raise AssertionError(n)


def test_reading_numbers():
    assert value_of("three hundred and ninety one") == 391
    assert value_of("one thousand and twenty four") == 1024
    assert value_of("twelve thousand five hundred and fifty") == 12550
    assert value_of("minus thirty one") == -31
    assert abs(value_of("one hundred point zero four") - 100.04) < 1e-9
    assert words_of(3240) == "three thousand two hundred and forty"
    assert words_of(1024) == "one thousand and twenty four"


def numbers_in(text: str) -> list[float]:
    """Digits (thousands commas, "12k") and number words up to ten, with "minus"."""
    t = text.lower()
    out = []
    for m in re.finditer(r"(minus |-)?(\d[\d,]*(?:\.\d+)?)(k\b)?", t):
        x = float(m.group(2).replace(",", "")) * (1000 if m.group(3) else 1)
        out.append(-x if m.group(1) else x)
    for m in re.finditer(r"\b(minus )?(zero|one|two|three|four|five|six|seven|eight|nine|ten)\b",
                         t):  # fmt: skip
        x = float(ONES.index(m.group(2)))
        out.append(-x if m.group(1) else x)
    return out


def said_back(text: str) -> str:
    """The text's own numbers as the assistant would say them."""
    parts = []
    for x in numbers_in(text):
        whole = int(abs(x))
        s = words_of(whole)
        frac = f"{abs(x):.6f}".split(".")[1].rstrip("0")
        if frac:
            s += " point " + " ".join(ONES[int(d)] for d in frac)
        parts.append(("minus " if x < 0 else "") + s)
    return " ".join(parts)


def agrees(expect: tuple[str, ...], value: float) -> bool:
    """The first expected form is the value to two decimals, or about three significant
    figures; every other form is within a rounding of it."""
    got = [value_of(e) for e in expect]
    close = abs(got[0] - value) <= 0.0051 + 0.006 * abs(value)
    return close and all(abs(g - value) <= 0.051 + 0.06 * abs(value) for g in got)


# --- size, households, channels -----------------------------------------------------------------
def test_size_per_kind(reqs):
    counts = Counter(q.kind for q in reqs)
    assert set(counts) == set(KINDS)
    assert len(reqs) >= 200, len(reqs)
    assert min(counts.values()) >= 20, counts
    assert counts["facts"] >= 30 and counts["follow-up"] >= 30, counts
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"
    turns = [_norm(t) for q in reqs for t in q.turns]
    assert len(set(turns)) == len(turns), "a turn said twice"


def test_every_household_asks_every_kind(rows):
    assert set(HOUSEHOLDS) == {r.household for r in rows}
    assert len(HOUSEHOLDS) == 8
    per = Counter(r.household for r in rows)
    assert min(per.values()) >= 25, per
    for h in HOUSEHOLDS:
        kinds = Counter(r.request.kind for r in rows if r.household == h)
        assert set(kinds) == set(KINDS), (h, kinds)
        assert {r.channel for r in rows if r.household == h} == set(CHANNELS), h


def test_channels_write_as_they_do(rows):
    channels = Counter(r.channel for r in rows)
    assert min(channels.values()) >= 50, channels
    for r in rows:
        for t in r.request.turns:
            if r.channel == "spoken":  # Whisper: a capital, end punctuation, digits past ten
                assert t[0].isupper() and t[-1] in ".?!", t
                assert not re.search(r"\b(1|2|3|4|5|6|7|8|9|10)\b(?![.,]\d|%)", t), t
            else:  # typed: no full stop at the end, no Whisper number words past ten
                assert t[-1] != ".", t


# --- the checks -------------------------------------------------------------------------------
def test_every_request_has_a_check_or_is_a_refusal(rows):
    for r in rows:
        q = r.request
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal, q
        assert q.refusal or (q.expect and all(e.strip() for e in q.expect)), q
        assert r.calc, q
        if q.kind == "timer" or r.calc[0] in ("timer", "left", "cancel", "timers"):
            assert q.after == CLEAR, "every timer request clears its timers afterwards"
        else:
            assert q.after == (), q
        if q.kind == "follow-up":
            assert len(q.turns) == 2, q
    q = next(q for q in (r.request for r in rows) if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]}.")
    assert not useful(q, "Sorry, I don't know about that.")
    refusal = next(q for q in (r.request for r in rows) if q.refusal)
    assert useful(refusal, "Sorry, I can't do that offline. I can help with timers and sums.")


NUMERIC = ("expr", "conv")


def test_no_numeric_answer_is_the_request_said_back(many):
    for r in many:
        if r.calc[0] in NUMERIC:
            back = _norm(" ".join(said_back(t) + " " + t for t in r.request.turns))
            assert not any(_norm(e) in back for e in r.request.expect), r.request


def _appears(x: float, text: str) -> bool:
    t = text.lower().replace(",", "")
    if x < 0:
        return "minus" in t and _appears(-x, t)
    if x == int(x):
        k = int(x)
        return bool(re.search(rf"(?<![\d.]){k}(?![\d]|\.\d)", t)) or (
            k % 1000 == 0 and f"{k // 1000}k" in t) or f" {words_of(k)} " in f" {_norm(t)} "
    return f"{x:g}" in t or f"{x:.2f}" in t


# numbers an expression holds that the request says in words: percent, square root...
IMPLIED = {"100": r"%|percent", "0.5": r"square root", "2": r"squared", "3": r"a third",
           "4": r"a quarter"}


def test_arithmetic_rederived(many):
    seen = 0
    for r in many:
        if r.calc[0] != "expr":
            continue
        expr = r.calc[1]
        assert re.fullmatch(r"[\d.()+\-*/ ]+", expr), expr
        value = float(eval(expr, {"__builtins__": {}}))  # floats, not the generator's Fractions
        assert agrees(r.request.expect, value), (r.request, expr, value)
        text = " ".join(r.request.turns)
        for lit in re.findall(r"\d+(?:\.\d+)?", expr):
            implied = IMPLIED.get(lit)
            if implied and re.search(implied, text.lower()):
                continue
            assert _appears(float(lit), text), (lit, text)
        seen += 1
    assert seen >= 4 * 35


# metres, kilograms, litres, metres per second: factors written here
FACTOR = {"mile": 1609.344, "km": 1000.0, "m": 1.0, "cm": 0.01, "inch": 0.0254, "foot": 0.3048,
          "yard": 0.9144, "kg": 1.0, "pound": 0.45359237, "stone": 6.35029318, "gram": 0.001,
          "litre": 1.0, "ml": 0.001, "gallon_us": 3.785411784, "gallon_imp": 4.54609,
          "cup_us": 0.2365882365, "kmh": 1 / 3.6, "mph": 0.44704}  # fmt: skip
SAID = {"mile": "mile", "km": "k", "m": "metre", "cm": "centimetre", "inch": "inch",
        "foot": "feet", "yard": "yard", "kg": "kilo", "pound": "pound", "stone": "stone",
        "gram": "gram", "litre": "litre", "ml": "ml", "gallon_us": "gallon",
        "gallon_imp": "gallon", "cup_us": "cup", "kmh": "kilometres an hour", "mph": "miles per",
        "C": "celsius", "F": "fahrenheit"}  # fmt: skip


def _convert(amount: float, src: str, tgt: str) -> float:
    if (src, tgt) == ("C", "F"):
        return amount * 1.8 + 32
    if (src, tgt) == ("F", "C"):
        return (amount - 32) / 1.8
    return amount * FACTOR[src] / FACTOR[tgt]


def test_conversions_rederived(many):
    seen = 0
    for r in many:
        if r.calc[0] != "conv":
            continue
        _, amount, src, tgt = r.calc
        text = " ".join(r.request.turns).lower()
        assert _appears(float(amount), r.request.turns[-1]), (amount, r.request.turns)
        srcs = src.split("|")
        values = [_convert(float(amount), s, tgt) for s in srcs]
        per = len(r.request.expect) // len(values) if len(values) > 1 else None
        if per:  # either gallon: the imperial one's forms, then the US one's
            for i, v in enumerate(values):
                assert agrees(r.request.expect[i * per : (i + 1) * per], v), (r.request, v)
        else:
            assert agrees(r.request.expect, values[0]), (r.request, values[0])
        # a temperature's scale may go unsaid ("it's minus ten out, what's that in
        # Fahrenheit?"): it is the other one; every other unit is named
        for unit in (tgt,) if src in ("C", "F") else (srcs[0], tgt):
            assert SAID[unit] in text, (unit, text)
        seen += 1
    assert seen >= 4 * 30
    # an American recipe's cup is the US cup; a Kerry farmer's gallon may be either
    by_calc = {r.calc: r.request for r in built(now=NOW)}
    assert all("american" in " ".join(q.turns).lower()
               for c, q in by_calc.items() if "cup_us" in c)  # fmt: skip


def _duration(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{words_of(n)} {u}" + ("" if n == 1 else "s")
             for n, u in ((h, "hour"), (m, "minute"), (s, "second")) if n]  # fmt: skip
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def test_timers_rederived(many):
    for r in many:
        kind, q = r.calc[0], r.request
        first = q.turns[0].lower()
        if kind == "timer":
            secs = r.calc[1]
            assert q.expect == (_duration(secs),), q
            unit = 3600 if "hour" in first else 1 if "second" in first else 60
            count = secs / unit
            if "a half" in first:
                count -= 0.5
            assert _appears(count, first), (count, first)
        elif kind == "left":
            minutes = r.calc[1] // 60
            assert _appears(minutes, first) and "minute" in first
            assert q.expect[0] == f"{words_of(minutes)} minute" and len(q.expect) == 3, q
            assert useful(q, f"There are {words_of(minutes - 1)} minutes and forty seconds left.")
            assert not useful(q, f"There are {words_of(minutes - 3)} minutes left.")
        elif kind == "cancel":
            assert "cancel" in q.turns[-1].lower() and "timer" in first, q
            assert useful(q, "Okay, I've cancelled that timer.")
        elif kind == "timers":
            assert len(q.turns) == 3 and q.expect == ("two timers",), q
            assert all("timer" in t.lower() or "another" in t.lower() for t in q.turns)


NAMED = {"christmas": (12, 25), "boxing day": (12, 26), "new year's eve": (12, 31),
         "hogmanay": (12, 31), "new year's day": (1, 1), "new year": (1, 1),
         "halloween": (10, 31), "valentine": (2, 14), "patrick": (3, 17)}  # fmt: skip


def _said_date(text: str) -> tuple[int, int] | None:
    t = text.lower()
    m = re.search(r"(\d+)(?:st|nd|rd|th) of (\w+)", t) or re.search(r"(\w+) (\d+)(?:st|nd|rd|th)",
                                                                    t)  # fmt: skip
    if m:
        day, month = (m.group(1), m.group(2)) if m.group(1).isdigit() else (m.group(2),
                                                                             m.group(1))
        return [x.lower() for x in MONTHS].index(month) + 1, int(day)
    return next((v for k, v in NAMED.items() if k in t), None)


def test_days_until_rederived(many):
    today = NOW.date()
    for r in many:
        if r.calc[0] not in ("until", "easter"):
            continue
        if r.calc[0] == "easter":
            d = date(2027, 3, 28)  # Easter 2026 (5 April) is past on 6 December 2026
            assert "easter" in r.request.turns[-1].lower()
        else:
            d = date(today.year, *_said_date(r.request.turns[-1]))
            if d < today:
                d = date(today.year + 1, d.month, d.day)
            assert (d.month, d.day) == r.calc[1:], r.request
        assert r.request.expect == (f"{words_of((d - today).days)} days",), r.request


def test_easter():
    known = {2024: (3, 31), 2025: (4, 20), 2026: (4, 5), 2027: (3, 28), 2028: (4, 16),
             2038: (4, 25), 2049: (4, 18), 2000: (4, 23), 2011: (4, 24), 2030: (4, 21)}
    for y, md in known.items():
        assert easter(y) == date(y, *md), y


def test_clock_answers_follow_now(rows):
    for r in rows:
        if r.calc[0] != "clock":
            continue
        what = r.calc[1]
        want = {"hour": "ten", "date": "December sixth", "weekday": "Sunday",
                "year": "twenty twenty six"}[what]  # fmt: skip
        assert want in r.request.expect, r.request
    later = built(now=NOW + timedelta(days=1, hours=5))
    assert any("Monday" in r.request.expect for r in later)
    assert any("three" in r.request.expect for r in later)  # 3:15 PM


def test_spelling_rederived(many):
    for r in many:
        if r.calc[0] == "spell":
            word = r.calc[1]
            assert word.lower() in r.request.turns[-1].lower(), r.request
            spelled = ", ".join(ch.upper() for ch in word if ch != " ")
            assert r.request.expect == (spelled,), r.request


# --- facts --------------------------------------------------------------------------------------
BY_NAME = {c.name: c for c in COUNTRIES}


def _table(field: str, c) -> str:
    value = getattr(c, field)
    if field == "capital":
        return value.split(",")[0]
    return value.removeprefix("both ").removeprefix("the ")


def _named(text: str):
    t = f" {_norm(text)} "
    found = [c for c in COUNTRIES if any(f" {_norm(s)} " in t for s in c.surfaces)]
    # "the United States of America" also holds "America"; "South Korea" holds "Korea"
    return found[0] if len(found) == 1 else found


def test_country_facts_from_the_table(many):
    seen = 0
    for r in many:
        field = r.calc[0]
        if field not in ("capital", "continent", "language", "currency"):
            continue
        c = BY_NAME[r.calc[1]]
        truth = _norm(_table(field, c))
        assert any(truth in _norm(e) for e in r.request.expect), (r.request, truth)
        assert _named(r.request.turns[-1]) in (c, []), r.request
        if _named(r.request.turns[-1]) == []:  # the same country as the turn before
            assert _named(r.request.turns[0]) == c, r.request
        seen += 1
    assert seen >= 4 * 25


def test_same_country_follow_ups_have_unique_answers(many):
    n = 0
    for r in many:
        q = r.request
        if q.kind != "follow-up" or r.calc[0] not in ("capital", "language", "currency"):
            continue
        if _named(q.turns[-1]) != []:
            first = _named(q.turns[0])
            mine = _norm(_table(r.calc[0], BY_NAME[r.calc[1]]))
            # a new country: its answer is not the first one's
            assert mine not in _norm(_table(r.calc[0], first)), q
            continue
        n += 1
        c = BY_NAME[r.calc[1]]
        mine = _norm(_table(r.calc[0], c))
        others = [_norm(_table(r.calc[0], o)) for o in COUNTRIES if o is not c]
        assert not any(mine in o or o in mine for o in others), q
    assert n >= 4 * 3


def test_currencies_not_inside_other_words(many):
    for r in many:
        if r.calc[0] == "currency":
            for e in r.request.expect:
                assert _norm(e) not in "europe european who won really realm", e


PLANET = {p.order: p for p in PLANETS}


def test_other_facts_from_the_tables(many):
    for r in many:
        kind, q = r.calc[0], r.request
        if kind == "nth_planet":
            assert q.expect == (PLANET[r.calc[1]].name,), q
            text = q.turns[-1].lower()
            if q.kind == "facts":
                o = r.calc[1]
                assert ORDINALS[o - 1] in text or f"number {ONES[o]}" in text or (
                    re.search(rf"\b{o}(st|nd|rd|th)\b", text)), q  # fmt: skip
            else:  # the one after the planet of the turn before
                prev = q.turns[0].lower()
                o = r.calc[1] - 1
                assert ORDINALS[o - 1] in prev or PLANET[o].name.lower() in prev, q
        elif kind == "moons":
            p = PLANET[r.calc[1]]
            assert p.moons_answer in q.expect and all(e in p.moons for e in q.expect), q
            named = PLANET[r.calc[1] - 1] if q.kind == "follow-up" else p
            assert named.name in q.turns[0], q
        elif kind == "superlative":
            want = {"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}[r.calc[1]]
            word = {"largest": "biggest", "smallest": "smallest", "hottest": "hottest"}
            assert q.expect == (want,) and word[r.calc[1]] in q.turns[-1], q
        elif kind in ("day_after", "day_before"):
            _, day, k = r.calc
            assert day.lower() in q.turns[0].lower(), q
            step = k if kind == "day_after" else -k
            assert q.expect == (WEEKDAYS[(WEEKDAYS.index(day) + step) % 7],), q
        elif kind in ("month_after", "month_before"):
            _, month, k = r.calc
            assert month.lower() in q.turns[0].lower(), q
            step = k if kind == "month_after" else -k
            assert q.expect == (MONTHS[(MONTHS.index(month) + step) % 12],), q
        elif kind == "month_number":
            i = MONTHS.index(r.calc[1])
            assert r.calc[1].lower() in q.turns[-1].lower()
            assert ORDINALS[i] in q.expect, q
        elif kind == "month_days":
            assert f"{words_of(MONTH_DAYS[MONTHS.index(r.calc[1])])} days" in q.expect


def test_refusals_ask_what_offline_cannot(rows):
    refusals = [r.request for r in rows if r.request.refusal]
    assert all(r.calc == ("refusal",) for r in rows if r.request.refusal)
    assert len({q.turns for q in refusals}) == len(refusals)


# --- determinism --------------------------------------------------------------------------------
def test_deterministic():
    a, b = households(now=NOW), households(now=NOW)
    key = [(q.turns, q.kind, q.expect, q.after) for q in a]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in b]
    assert [q.turns for q in households(seed=1, now=NOW)] != [q.turns for q in a]
    code = "from bench.households import households; print([q.turns for q in households()])"
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([q.turns for q in households()])


def test_every_seed_builds():
    size = len(households(now=NOW))
    for seed in range(25):
        got = built(seed=seed, now=NOW)
        assert len(got) == size
        turns = [_norm(t) for r in got for t in r.request.turns]
        assert len(set(turns)) == len(turns), seed


def test_registered_in_the_benchmark():
    assert [q.turns for q in request_set("households")] == [q.turns for q in households()]
    with pytest.raises(SystemExit, match="households"):
        request_set("nonsense")


# --- held out -----------------------------------------------------------------------------------
def test_no_request_is_a_training_prompt():
    """No turn of any request (this seed's and a few others') is a user turn the training
    corpus produces; compared as tests/test_paraphrases.py does."""
    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for seed in SEEDS for q in households(seed=seed, now=NOW) for t in q.turns
            if _norm(t) in prompts}  # fmt: skip
    assert not seen, sorted(seen)


def test_no_request_is_in_another_set():
    """No request, and no turn of one, equals a request or a turn of the base, paraphrase,
    everyday, strangers, newcomers or transforms sets (normalised)."""
    theirs_turns, theirs = set(), set()
    for name in ("base", "paraphrase", "everyday", "strangers", "newcomers", "transforms"):
        for q in request_set(name):
            theirs.add(tuple(_norm(t) for t in q.turns))
            theirs_turns.update(_norm(t) for t in q.turns)
    for seed in SEEDS:
        for q in households(seed=seed, now=NOW):
            assert tuple(_norm(t) for t in q.turns) not in theirs, q.turns
            assert not any(_norm(t) in theirs_turns for t in q.turns), q.turns
