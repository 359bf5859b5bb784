"""The newcomers request set of bench/skills.py (bench/newcomers.py): size per kind and per
situation, the two channels' ways of writing, well-posed checks, determinism, answers re-derived
here in floating point from the request's own text, facts from the tables, and no request that is
a training prompt or a request of the other sets. No model."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest

from bench.everyday import said
from bench.newcomers import (
    CLEAR,
    KINDS,
    SITUATIONS,
    answer,
    approx,
    cash,
    newcomers,
    situated,
)
from bench.skills import request_set, useful
from tests.test_paraphrases import _norm, _training_prompts
from training.facts import COUNTRIES, MONTH_DAYS, MONTHS, PLANETS

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning
SEEDS = range(12)


@pytest.fixture(scope="module")
def rows():
    return situated(now=NOW)


@pytest.fixture(scope="module")
def reqs(rows):
    return [q for _, _, q in rows]


# --- numbers in words, read back independently of words.spoken ----------------------------------
_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
_TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(),
                 range(20, 100, 10), strict=True))  # fmt: skip


def _whole(words: list[str]) -> int:
    total = cur = 0
    for w in words:
        if w == "and":
            continue
        if w in _SMALL:
            cur += _SMALL.index(w)
        elif w in _TENS:
            cur += _TENS[w]
        elif w == "hundred":
            cur *= 100
        elif w == "thousand":
            total, cur = total + cur * 1000, 0
        else:
            raise ValueError(w)
    return total + cur


def spoken_value(text: str) -> tuple[float, float]:
    """The number an expected answer says, and how far off its rounding may be: "seventy eight
    point zero two" → (78.02, 0.005); "six pounds fifty three" → (6.53, 0.005)."""
    t = _norm(text)
    sign = -1 if t.startswith("minus ") else 1
    t = t.removeprefix("minus ")
    if " and a half" in t:
        return _whole(t.replace(" and a half", "").split()) + 0.5, 0.0
    for unit in (" pounds ", " pound "):
        if unit in t:
            pounds, pence = t.split(unit)
            return _whole(pounds.split()) + _whole(pence.split()) / 100, 0.005
    if t.endswith((" pounds", " pound")):
        return float(_whole(t.rsplit(" ", 1)[0].split())), 0.0
    whole, _, frac = t.partition(" point ")
    digits = "".join(str(_SMALL.index(d)) for d in frac.split())
    value = _whole(whole.split()) + (float("0." + digits) if digits else 0.0)
    return sign * value, 0.5 * 10 ** -len(digits)


def test_spoken_value_reads_the_words():
    assert spoken_value("three hundred and ninety one") == (391, 0.5)
    assert spoken_value("one thousand and twenty four")[0] == 1024
    assert spoken_value("two thousand five hundred and fourteen point six")[0] == 2514.6
    assert spoken_value("six pounds and fifty three")[0] == pytest.approx(6.53)
    assert spoken_value("thirty seven and a half") == (37.5, 0.0)


# --- numbers in the request's text --------------------------------------------------------------
_NUM = r"(£?\d[\d,]*(?:\.\d+)?%?|zero|one|two|three|four|five|six|seven|eight|nine|ten)"


def _val(token: str) -> float:
    token = token.lower().strip("£%")
    return float(_SMALL.index(token)) if token in _SMALL else float(token.replace(",", ""))


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text``, as digits or (up to ten) in words; not ordinals."""
    out = []
    for m in re.finditer(r"£?\d[\d,]*(?:\.\d+)?|\b[a-z]+\b", text.lower()):
        tok = m.group()
        if tok[-1].isdigit() and not re.match(r"(st|nd|rd|th)\b", text.lower()[m.end() :]):
            out.append(_val(tok))
        elif tok in _SMALL[:11]:
            out.append(float(_SMALL.index(tok)))
    return out


LB, OZ, INCH, MILE = 0.45359237, 28.349523125, 2.54, 1.609344
# (pattern over the request's turns, lower-cased; value from the pattern's numbers)
DERIVED: tuple[tuple[str, object], ...] = (
    (rf"{_NUM}% off, what does a {_NUM} coat", lambda p, x: x * (1 - p / 100)),
    (rf"given me {_NUM} for {_NUM}", lambda a, b: a - b),
    (rf"{_NUM}% of {_NUM}", lambda p, x: p * x / 100),
    (rf"{_NUM} out of {_NUM}", lambda a, b: 100 * a / b),
    (rf"square root of {_NUM}", math.sqrt),
    (rf"{_NUM} to the power of {_NUM}", lambda a, b: a**b),
    (rf"{_NUM} plus {_NUM} plus {_NUM}", lambda a, b, c: a + b + c),
    (rf"meant {_NUM} minus {_NUM}", lambda a, b: a - b),
    (rf"what's {_NUM} minus {_NUM}\? i'm cashing", lambda a, b: a - b),
    (rf"so what's {_NUM} minus {_NUM}", lambda a, b: a - b),
    (rf"add up {_NUM}, {_NUM}, {_NUM} and {_NUM}", lambda a, b, c, d: a + b + c + d),
    (rf"what's {_NUM} divided by {_NUM}\?", lambda a, b: a / b),
    (rf"so what's {_NUM} divided by {_NUM}", lambda a, b: a / b),
    (rf"what.?s {_NUM} divided by {_NUM} exactly", lambda a, b: a / b),
    (rf"what.?s {_NUM} divided by {_NUM}$", lambda a, b: a / b),
    (rf"what.?s {_NUM} squared", lambda a: a * a),
    (rf"so what's {_NUM} times {_NUM}\?", lambda a, b: a * b),
    (rf"{_NUM} times {_NUM}", lambda a, b: a * b),
    (rf"{_NUM} fahrenheit in celsius", lambda f: (f - 32) * 5 / 9),
    (rf"{_NUM} degrees fahrenheit, what's that in celsius", lambda f: (f - 32) * 5 / 9),
    (rf"{_NUM} degrees celsius in fahrenheit", lambda c: c * 9 / 5 + 32),
    (rf"oven's on {_NUM}", lambda c: c * 9 / 5 + 32),
    (rf"kilos is {_NUM} stone {_NUM}", lambda st, lb: (14 * st + lb) * LB),
    (rf"{_NUM} pounds, what's that in kilos", lambda lb: lb * LB),
    (rf"grams is {_NUM} pounds? of mince", lambda lb: lb * LB * 1000),
    (rf"beam weighs {_NUM} pounds", lambda lb: lb * LB),
    (rf"(?:what's|pounds is) {_NUM} kilos", lambda kg: kg / LB),
    (rf"millimetres is {_NUM} foot {_NUM}", lambda ft, i: (12 * ft + i) * 25.4),
    (rf"{_NUM} metres in feet", lambda m: m / 0.3048),
    (rf"yards is {_NUM} metres", lambda m: m / 0.9144),
    (rf"{_NUM} grams in ounces", lambda g: g / OZ),
    (rf"grams is {_NUM} ounces", lambda oz: oz * OZ),
    (rf"{_NUM} centimetres of ribbon", lambda cm: cm / INCH),
    (rf"ran it in {_NUM} seconds", lambda s: s / 60),
    (rf"centimetres in {_NUM} feet", lambda ft: ft * 12 * INCH),
    (rf"walk is {_NUM} kilometres", lambda km: km / MILE),
    (rf"miles is {_NUM} km", lambda km: km / MILE),
    (rf"{_NUM} mph to km/h", lambda mph: mph * MILE),
    (rf"{_NUM} km/h in metres per second", lambda kmh: kmh / 3.6),
    (rf"(?:how far is|kilometres is) {_NUM} miles", lambda mi: mi * MILE),
    (rf"says {_NUM} km/h", lambda kmh: kmh / MILE),
    (rf"about {_NUM} feet long", lambda ft: ft * 0.3048),
    (rf"plant them {_NUM} inches", lambda i: i * INCH),
)  # fmt: skip


def derive(text: str) -> float | None:
    """The answer worked out from the request's text by the first pattern that fits it."""
    for pattern, f in DERIVED:
        found = list(re.finditer(pattern, text.lower()))
        if found:
            return f(*(_val(g) for g in found[-1].groups()))
    return None


def _agrees(expect: tuple[str, ...], value: float) -> bool:
    for e in expect:
        got, slack = spoken_value(e)
        if abs(got - value) > slack + 1e-9:
            return False
    return True


def test_answers_re_derived_from_the_text():
    """Every single-turn arithmetic and unit request, over several seeds, whose text one of the
    patterns above reads: its expected words say the value worked out here in floating point
    (within their rounding); nearly all of them are read."""
    read = total = 0
    for seed in SEEDS:
        for q in newcomers(seed, NOW):
            if q.kind not in ("arithmetic", "units"):
                continue
            total += 1
            value = derive(q.turns[-1])
            if value is None:
                continue
            read += 1
            assert _agrees(q.expect, value), (q.turns, q.expect, value)
    assert read >= 0.9 * total, (read, total)


def test_follow_ups_re_derived():
    """The numeric follow-ups: the second turn works on the first's result or amount."""
    checks = {
        r"what's (.+) times (.+)\? that's the tiles.*add (.+) to that": lambda a, b, c: a * b + c,
        r"what's (.+) plus (.+)\? that's her two.*take (.+)% off": lambda a, b, p: (
            (a + b) * (1 - p / 100)
        ),
        r"add up (.+), (.+) and (.+) for me.*divide that by three": lambda a, b, c: (a + b + c) / 3,
        r"what's (.+) times (.+)\? that's the flapjack.*double it": lambda a, b: 2 * a * b,
        r"whats (.+) squared.*times that by (.+)": lambda a, b: a * a * b,
        r"what's (.+) divided by (.+)\? it's for the fluid.*divided by ([^.?]+)": lambda a, b, c: (
            a / c
        ),
        r"what's (.+) minus (.+)\? i'm working out.*halve that": lambda a, b: (a - b) / 2,
        r"grams is (.+) ounces.*and (.+) ounces": lambda a, b: b * OZ,
        r"kilometres is (.+) miles.*what about ([^?]+)\?": lambda a, b: b * MILE,
        r"what's (.+) fahrenheit in celsius.*and ([^?]+)\?": lambda a, f: (f - 32) * 5 / 9,
        r"feet is (.+) metres.*and (.+) metres": lambda a, m: m / 0.3048,
        r"pounds is (.+) kilos.*make that ([^.]+)": lambda a, kg: kg / LB,
    }
    seen = set()
    for seed in SEEDS:
        for q in newcomers(seed, NOW):
            text = " | ".join(q.turns).lower().replace("’", "'")
            for pattern, f in checks.items():
                m = re.search(pattern.replace(".*", r".* \| .*", 1), text)
                if m and q.kind == "follow-up":
                    seen.add(pattern)
                    value = f(*(_val(g.strip()) for g in m.groups()))
                    assert _agrees(q.expect, value), (q.turns, q.expect, value)
    assert seen == set(checks), set(checks) - seen


def test_no_numeric_answer_is_the_request_said_back():
    """Over many seeds: a numeric answer (arithmetic, units, numeric follow-ups) is neither in
    the request's own numbers said back nor in its words."""
    for seed in range(25):
        for q in newcomers(seed, NOW):
            if q.kind not in ("arithmetic", "units", "follow-up") or "timer" in q.turns[0].lower():
                continue
            try:
                spoken_value(q.expect[0])
            except ValueError:
                continue  # a name, a day, letters
            text = " ".join(q.turns)
            back = _norm(" ".join(said(Fraction(str(x))) for x in numbers_in(text)) + " " + text)
            assert not any(_norm(e) in back for e in q.expect), (q.turns, q.expect)


# --- size, spread, channels ---------------------------------------------------------------------
def test_size_per_kind(reqs):
    counts = {k: sum(q.kind == k for q in reqs) for k in KINDS}
    assert {q.kind for q in reqs} == set(KINDS)
    assert len(reqs) >= 220, len(reqs)
    assert min(counts.values()) >= 20, counts
    assert counts["facts"] >= 30 and counts["follow-up"] >= 30, counts
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"
    assert len({_norm(" ".join(q.turns)) for q in reqs}) == len(reqs), "duplicates, normalised"


def test_every_situation_asks_every_kind(rows):
    for kind in KINDS:
        assert {who for who, _, q in rows if q.kind == kind} == set(SITUATIONS), kind
    # both channels, in proportion to the situations' shares
    spoken = sum(ch == "spoken" for _, ch, _ in rows)
    assert 0.35 * len(rows) <= spoken <= 0.75 * len(rows), spoken
    for who in ("builder", "gardener"):
        assert sum(ch == "spoken" for w, ch, _ in rows if w == who) >= 20, who
    for who in ("student", "commuter"):
        assert sum(ch == "typed" for w, ch, _ in rows if w == who) >= 20, who


def test_channels_write_as_they_do():
    """Whisper: sentence case, an end mark, numbers up to ten in words and thousands with a
    comma. The keyboard: no closing full stop, digits, no thousands comma."""
    small_digit = re.compile(r"(?<![\d.,£])\b([0-9]|10)\b(?![.,]\d|%|st|nd|rd|th)")
    spoken_n = typed_n = 0
    for seed in range(4):
        for _, ch, q in situated(seed, NOW):
            for t in q.turns:
                assert t[0] == t[0].upper(), t
                if ch == "spoken":
                    spoken_n += 1
                    assert t[-1] in ".?!", t
                    assert "’" not in t, t
                    assert not re.search(r"\b\d{4,}\b", t.replace(",", "")) or "," in t, t
                    if q.kind != "refusal":
                        assert not small_digit.search(t), t
                else:
                    typed_n += 1
                    assert not t.endswith("."), t
                    assert not re.search(r"\d,\d{3}", t), t
    assert spoken_n > 200 and typed_n > 200


# --- checks -----------------------------------------------------------------------------------
def test_every_request_has_a_check_or_is_a_refusal(reqs):
    for q in reqs:
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal, q
        assert q.refusal or (q.expect and all(e.strip() for e in q.expect)), q
        if q.kind == "timer" or re.search(r"\b(timer|remind me)\b", q.turns[0], re.I):
            assert q.after == CLEAR, "every request that sets a timer clears its timers"
        else:
            assert q.after == (), q
        if q.kind == "follow-up":
            assert len(q.turns) == 2, q
    # the scorer takes a reply holding the answer, and a short honest refusal
    q = next(q for q in reqs if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]} units.")
    assert not useful(q, "Sorry, I don't know about that.")
    r = next(q for q in reqs if q.refusal)
    assert useful(r, "Sorry, I can't do that here. I can help with timers and sums.")


def _find(reqs, start: str):
    hits = [q for q in reqs if _norm(q.turns[0]).startswith(_norm(start))]
    assert len(hits) == 1, (start, [q.turns for q in hits])
    return hits[0]


def test_answers_worked_out(reqs):
    """A few by hand, for 6 December 2026, 10:15 (a Sunday)."""
    assert _find(reqs, "How many days till Christmas? The site").expect == ("nineteen days",)
    assert _find(reqs, "How many days till New Year's Eve").expect == ("twenty five days",)
    assert _find(reqs, "How many days is it till Halloween").expect == (
        "three hundred and twenty nine days",
    )
    assert _find(reqs, "What year is it, I'm dating").expect == ("twenty twenty six",)
    assert _find(reqs, "What's the date? I'm filling").expect[0] == "December sixth"
    assert _find(reqs, "Has midnight gone yet").expect == ("Sunday",)
    assert _find(reqs, "What time is it? Are we near").expect == ("ten",)
    assert _find(reqs, "Can you set a timer for an hour and a quarter").expect[0] == (
        "one hour and fifteen minutes"
    )
    q = _find(reqs, "Can you time")
    assert "ninety seconds" in q.expect and "one minute and thirty seconds" in q.expect
    eggs = _find(reqs, "Timer for")
    assert eggs.expect == (f"{_word(numbers_in(eggs.turns[0])[1])} minutes",)
    mortar = _find(reqs, "Set a timer for 20 minutes, actually make that")
    assert mortar.expect == ("twenty five minutes",)
    two = [q for q in reqs if q.kind == "timer" and len(q.turns) == 3]
    assert len(two) == 2 and all(q.expect == ("two timers",) for q in two)
    # the time left on a timer just set: its length, or a minute or two under it
    for q in reqs:
        if q.kind == "follow-up" and "timer" in q.turns[0].lower():
            n = int(numbers_in(q.turns[0])[0])
            assert q.expect == (f"{_word(n)} minute", f"{_word(n - 1)} minute",
                                f"{_word(n - 2)} minute"), q


def _word(n: float) -> str:
    return said(Fraction(int(n)))


def test_number_words():
    assert answer(Fraction(391)) == ("three hundred and ninety one",)
    assert answer(Fraction(75, 2)) == ("thirty seven point five", "thirty seven and a half")
    assert answer(Fraction(1, 3)) == ("zero point three three", "zero point three")
    assert approx(Fraction("30.48")) == ("thirty point four eight", "thirty point five")
    assert approx(Fraction("152.4")) == ("one hundred and fifty two point four",
                                         "one hundred and fifty two")  # fmt: skip
    assert approx(Fraction("64.4")) == ("sixty four point four",)
    assert cash(Fraction("6.53")) == ("six point five three", "six pounds fifty three",
                                      "six pounds and fifty three")  # fmt: skip
    assert cash(Fraction(36)) == ("thirty six", "thirty six pounds")


# --- facts from the tables ----------------------------------------------------------------------
def _country(text: str):
    """The country a turn names (by name or alias), the longest name first."""
    t = f" {_norm(text)} ".replace(" north america ", " ").replace(" south america ", " ")
    found = [(len(n), c) for c in COUNTRIES for s in c.surfaces
             if f" {(n := _norm(s.removeprefix('the ')))} " in t]  # fmt: skip
    return max(found, key=lambda x: x[0])[1] if found else None


QUESTIONS = {  # what a turn asks of a country → the table's answer
    r"capital": lambda c: c.capital.split(",")[0],
    r"continent": lambda c: c.continent.removeprefix("both "),
    r"currency|money": lambda c: c.currency.removeprefix("the "),
    r"language|speak": lambda c: c.language,
}


def _asks(text: str):
    t = text.lower()
    hits = [f for p, f in QUESTIONS.items() if re.search(p, t)]
    return hits[0] if len(hits) == 1 else None


def test_country_facts_from_the_table():
    n = 0
    for seed in SEEDS:
        for q in newcomers(seed, NOW):
            if q.kind not in ("facts", "follow-up") or "which country" in q.turns[-1]:
                continue
            last, first = q.turns[-1], q.turns[0]
            c = _country(last) or (_country(first) if q.kind == "follow-up" else None)
            if c is None:
                continue
            ask = _asks(last.split(",")[-1] if "reckons" in last else last)
            ask = ask or (_asks(first) if q.kind == "follow-up" else None)
            if ask is None:
                continue
            n += 1
            assert q.expect == (ask(c),), (q.turns, q.expect)
    assert n >= 25 * len(SEEDS), n


def test_same_country_follow_ups_have_unique_answers():
    """A follow-up that asks another fact of the country of the first turn: no other country's
    answer holds its answer, so only the right country gives it."""
    n = 0
    for seed in SEEDS:
        for q in newcomers(seed, NOW):
            second = _norm(q.turns[-1])
            if q.kind != "follow-up" or not re.search(
                r"\bthere\b|\bits\b|^and the (capital|currency)", second
            ):
                continue
            c = _country(q.turns[0])
            if c is None or _country(q.turns[1]):
                continue
            n += 1
            e = _norm(q.expect[0])
            others = [o for o in COUNTRIES if o is not c]
            facts = lambda o: [o.capital, o.continent, o.language, o.currency]  # noqa: E731
            assert not any(e in _norm(f) for o in others for f in facts(o)), (q.turns, q.expect)
    assert n >= 5 * len(SEEDS), n


def test_other_facts_from_the_tables():
    names = {p.name for p in PLANETS}
    moons = {p.moons_answer for p in PLANETS}
    ordinals = set(_ORD)
    days_words = {f"{_word(n)} days" for n in set(MONTH_DAYS)} | {"twenty eight"}
    weekdays = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
    for seed in SEEDS:
        for q in newcomers(seed, NOW):
            if q.kind != "facts" or _country(q.turns[0]) or "pay in" in q.turns[0]:
                continue
            e = q.expect[0]
            assert e in names | moons | ordinals | days_words | weekdays | set(MONTHS), q
            text = q.turns[0]
            for i, m in enumerate(MONTHS):
                if m in text and "days" in text:
                    assert e == ("twenty eight" if i == 1 else f"{_word(MONTH_DAYS[i])} days")
                if m in text and "after" in text:
                    assert e == MONTHS[(i + 1) % 12]
                if m in text and "before" in text:
                    assert e == MONTHS[(i - 1) % 12]
            for p in PLANETS:
                if p.name in text and "number planet" in text.lower():
                    assert e == _ORD[p.order - 1]
                if p.name in text and "comes after" in text:
                    assert e == next(o.name for o in PLANETS if o.order == p.order + 1)


_ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth"]  # fmt: skip


def test_spelled_letters():
    for seed in range(4):
        for q in newcomers(seed, NOW):
            if q.kind == "spelling" or (q.kind == "follow-up" and "spell" in q.turns[0].lower()):
                letters = q.expect[0].split(", ")
                word = "".join(letters).lower()
                assert all(len(x) == 1 and x.isupper() for x in letters), q
                assert word in _norm(q.turns[-1]).replace(" ", ""), q


# --- determinism and registration ---------------------------------------------------------------
def test_deterministic():
    a, b = newcomers(now=NOW), newcomers(now=NOW)
    key = [(q.turns, q.kind, q.expect, q.after) for q in a]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in b]
    assert [q.turns for q in newcomers(seed=1, now=NOW)] != [q.turns for q in a]
    # the same in another process, whatever its string hashing
    code = "from bench.newcomers import newcomers; print([q.turns for q in newcomers()])"
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([q.turns for q in newcomers()])


def test_every_seed_builds():
    n = len(newcomers(now=NOW))
    for seed in range(25):
        got = newcomers(seed=seed, now=NOW)
        assert len(got) == n
        assert [q.kind for q in got] == [q.kind for q in newcomers(now=NOW)]


def test_registered_in_the_benchmark():
    assert [q.turns for q in request_set("newcomers")] == [q.turns for q in newcomers()]
    with pytest.raises(SystemExit, match="newcomers"):
        request_set("nonsense")


# --- held out -----------------------------------------------------------------------------------
def test_no_request_is_a_training_prompt():
    """No turn of any request (this seed's and a few others': the slotted values change) is a
    user turn the training corpus produces; compared as tests/test_paraphrases.py does."""
    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for seed in range(6) for q in newcomers(seed=seed, now=NOW) for t in q.turns
            if _norm(t) in prompts}  # fmt: skip
    assert not seen, sorted(seen)


def test_no_request_is_in_another_set():
    """No request, and no turn of one, equals a request or a turn of the base, paraphrase,
    everyday or strangers sets (normalised)."""
    theirs_turns, theirs = set(), set()
    for name in ("base", "paraphrase", "everyday", "strangers"):
        for q in request_set(name):
            theirs.add(tuple(_norm(t) for t in q.turns))
            theirs_turns.update(_norm(t) for t in q.turns)
    for seed in range(6):
        for q in newcomers(seed=seed, now=NOW):
            assert tuple(_norm(t) for t in q.turns) not in theirs, q.turns
            assert not any(_norm(t) in theirs_turns for t in q.turns), q.turns
