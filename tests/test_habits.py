"""The habits request set of bench/skills.py (bench/habits.py): sizes, every product in every
kind and both channels, determinism, each channel's style, every answer worked out again here
from the calc record (not with the module's own answer function), no answer said in its own
request, and no turn that is a training prompt. No model."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import date, datetime, timedelta
from fractions import Fraction as Q
from pathlib import Path

import pytest
from dateutil.easter import easter

from bench.everyday import CLEAR, duration, number
from bench.habits import CHANNELS, KINDS, PRODUCTS, built, habits
from bench.skills import REFUSAL, request_set, useful
from words.calendar import year_words
from words.facts import COUNTRIES, PLANETS, Country, Planet
from words.spoken import int_words, ordinal_words

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning
LATE = datetime(2027, 2, 28, 23, 40)  # the last hour of a month, the day before March

MONTH_NAMES = ("January February March April May June July August September October November "
               "December").split()  # fmt: skip
DAY_NAMES = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()

# --- units from their definitions: metre, kilogram, litre, metre per second ------------------
M_INCH = Q("0.0254")
M_FOOT = 12 * M_INCH
M_YARD = 36 * M_INCH
M_MILE = 5280 * M_FOOT
KG_LB = Q("0.45359237")
L_GALLON = 231 * (M_INCH * 10) ** 3  # 231 cubic inches, in cubic decimetres
L_CUP = L_GALLON / 16
L_FLOZ = L_GALLON / 128
SIZE = {
    "mile": M_MILE, "km": Q(1000), "meter": Q(1), "cm": Q(1, 100), "mm": Q(1, 1000),
    "inch": M_INCH, "foot": M_FOOT, "yard": M_YARD,
    "lb": KG_LB, "kg": Q(1), "oz": KG_LB / 16, "gram": Q(1, 1000), "stone": 14 * KG_LB,
    "gallon": L_GALLON, "quart": L_GALLON / 4, "pint": L_GALLON / 8, "cup": L_CUP,
    "floz": L_FLOZ, "tbsp": L_FLOZ / 2, "tsp": L_FLOZ / 6, "liter": Q(1), "ml": Q(1, 1000),
    "mph": M_MILE / 3600, "kmh": Q(1000, 3600), "knot": Q(1852, 3600),
}  # fmt: skip
UNIT_WORDS = {
    "tbsp": ("tablespoon",), "tsp": ("teaspoon",), "cup": ("cup",), "quart": ("quart",),
    "pint": ("pint",), "gallon": ("gallon",), "oz": ("ounce",), "lb": ("pound",),
    "foot": ("foot", "feet"), "mile": ("mile",), "inch": ("inch",), "yard": ("yard",),
    "floz": ("fluid ounce",), "ml": ("milliliter",), "gram": ("gram",),
}  # fmt: skip


def test_unit_definitions():
    assert L_GALLON == Q("3.785411784")
    assert SIZE["cup"] / SIZE["tbsp"] == 16 and SIZE["tbsp"] / SIZE["tsp"] == 3
    assert SIZE["knot"] * 3600 == 1852


# --- answers, worked out again -----------------------------------------------------------------
def _date_words(d: date) -> tuple[str, ...]:
    month, day = MONTH_NAMES[d.month - 1], ordinal_words(d.day)
    return (f"{month} {day}", f"{day} of {month}")


def _count_days(n: int) -> tuple[str, ...]:
    return {0: ("today",), 1: ("tomorrow", "one day")}.get(n, (f"{int_words(n)} days",))


def _holiday(name: str, year: int) -> date:
    if name == "easter":
        return easter(year)
    month, day = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
                  "valentine": (2, 14)}[name]  # fmt: skip
    return date(year, month, day)


def _currency_words(c: Country) -> tuple[str, ...]:
    cur = c.currency[4:] if c.currency.startswith("the ") else c.currency
    if cur in ("euro", "won", "real"):  # inside "Europe", "wonderful", "really"
        return {"euro": ("the euro", "euros"), "won": ("the won", "korean won"),
                "real": ("the real", "brazilian real", "reais")}[cur]  # fmt: skip
    return {"US dollar": ("US dollar", "U.S. dollar"), "ruble": ("ruble", "rouble"),
            "pound sterling": ("pound sterling", "British pound")}.get(cur, (cur,))  # fmt: skip


def worked_out(op: str, args: tuple, now: datetime):
    """``(value, accepted answers)`` from the calc record alone."""
    today = now.date()
    if op == "time":
        hours = [now.hour, (now.hour + 1) % 24]
        words = [int_words(h % 12 or 12) for h in hours]
        by_name = {"midnight"} if 0 in hours else {"noon"} if 12 in hours else set()
        return None, set(words) | by_name
    if op in ("today", "weekday"):
        return today, set(_date_words(today)) if op == "today" else {DAY_NAMES[today.weekday()]}
    if op == "weekday_of":
        return args[0], {DAY_NAMES[args[0].weekday()]}
    if op in ("date_in", "weekday_in"):
        d = today + timedelta(days=args[0])
        return d, set(_date_words(d)) if op == "date_in" else {DAY_NAMES[d.weekday()]}
    if op in ("until", "until_date"):
        if op == "until":
            d = next(x for y in (today.year, today.year + 1)
                     if (x := _holiday(args[0], y)) >= today)  # fmt: skip
        else:
            d = args[0]
            assert today < d <= today + timedelta(days=365)
        return (d - today).days, set(_count_days((d - today).days))
    if op in ("holiday_weekday", "holiday_date"):
        d = _holiday(*args)
        return d, {DAY_NAMES[d.weekday()]} if op == "holiday_weekday" else set(_date_words(d))
    if op in ("month_days", "month_days_y"):
        m = args[0]
        year = args[1] if op == "month_days_y" else 2001  # no February without a year
        assert op == "month_days_y" or m != 2
        n = ((date(year + (m == 12), m % 12 + 1, 1)) - date(year, m, 1)).days
        return n, {int_words(n)}
    if op in ("mins", "secs", "hours", "hm"):
        secs = {"mins": lambda m: 60 * m, "secs": lambda s: s, "hours": lambda h: 3600 * h,
                "hm": lambda h, m: 3600 * h + 60 * m}[op](*args)  # fmt: skip
        return secs, {duration(secs)}
    if op == "left":
        return 60 * args[0], {duration(60 * args[0]), duration(60 * args[0] - 60)}
    if op == "cancel":
        return None, {"cancelled", "canceled", "stopped", "turned off"}
    sums = {
        "add": lambda a, b: Q(a) + Q(b), "sub": lambda a, b: Q(a) - Q(b),
        "mul": lambda a, b: Q(a) * Q(b), "div": lambda a, b: Q(a) / Q(b),
        "pct": lambda p, x: Q(x) * Q(p) / 100, "off": lambda p, x: Q(x) * (100 - Q(p)) / 100,
        "pow": lambda a, b: Q(a) ** b, "sqrt": lambda x: Q(round(x**0.5)),
        "conv": lambda q, u, v: Q(q) * SIZE[u] / SIZE[v],
        "c2f": lambda c: Q(c) * Q(9, 5) + 32, "f2c": lambda f: (Q(f) - 32) * Q(5, 9),
    }  # fmt: skip
    if op in sums:
        v = sums[op](*args)
        if op == "sqrt":
            assert v * v == args[0], args
        assert v >= 0, (op, args)
        return v, set(number(v))
    if op == "spell":
        return args[0], {", ".join(ch.upper() for ch in args[0] if ch.isalpha())}
    if op == "capital":
        return args[0].capital, {args[0].capital.split(",")[0]}
    if op == "currency":
        return args[0].currency, set(_currency_words(args[0]))
    if op == "language":
        return args[0].language, {args[0].language}
    if op == "continent":
        return args[0].continent, {args[0].continent.replace("both ", "")}
    if op in ("planet_at", "planet_after"):
        name = sorted(PLANETS, key=lambda p: p.order)[args[0] - (op == "planet_at")].name
        return name, {name}
    if op == "planet_order":
        return args[0].order, {ordinal_words(args[0].order)}
    if op in ("largest", "smallest", "hottest"):
        name = {"largest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}[op]
        return name, {name}
    if op == "moons":
        return args[0].name, {
            "Mercury": {"no moons", "no moon", "any moons"},
            "Venus": {"no moons", "no moon", "any moons"}, "Earth": {"one moon"},
            "Mars": {"two small moons", "two moons", "Phobos"},
        }[args[0].name]  # fmt: skip
    if op == "big_moon":
        return args[0].name, {args[0].moons_answer}
    if op == "refuse":
        return None, set()
    raise AssertionError(f"unknown op {op}")


# --- what a request says back -------------------------------------------------------------------
def _words(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split())


def _decimal(tok: str) -> str:
    whole, _, frac = tok.replace(",", "").partition(".")
    out = int_words(int(whole))
    frac = frac.rstrip("0")
    return out + (" point " + " ".join(int_words(int(d)) for d in frac) if frac else "")


def _heard(turns: tuple[str, ...]) -> str:
    """The turns as words, each numeral also in words (as a number, an ordinal, a year)."""
    parts = []
    for t in turns:
        parts.append(t)
        for tok in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", t):
            parts.append(_decimal(tok))
            if "." not in tok and int(tok.replace(",", "")) < 100:
                parts.append(ordinal_words(int(tok)))
            if re.fullmatch(r"[12]\d\d\d", tok):
                parts.append(year_words(int(tok)))
    return _words(" . ".join(parts))


# --- fixtures ----------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=[NOW, LATE], ids=["december", "february"])
def records(request):
    return request.param, built(now=request.param)


def test_sizes(records):
    _, recs = records
    counts = {k: sum(b.request.kind == k for b in recs) for k in KINDS}
    assert len(recs) >= 224, len(recs)
    assert min(counts.values()) >= 25, counts
    assert {b.request.kind for b in recs} == set(KINDS)
    assert len({b.request.turns for b in recs}) == len(recs), "duplicate requests"


def test_every_product_in_every_kind_and_both_channels(records):
    _, recs = records
    assert len(PRODUCTS) == 8
    for p in PRODUCTS:
        mine = [b for b in recs if b.product == p]
        assert {b.request.kind for b in mine} == set(KINDS), p
        assert {b.channel for b in mine} == set(CHANNELS), p
        for k in KINDS:
            assert {b.channel for b in mine if b.request.kind == k} == set(CHANNELS), (p, k)


def test_channel_style(records):
    _, recs = records
    small = re.compile(r"(?<![$\d.,])(?:10|\d)(?![\d%a-z]|[.,]\d)")
    for b in recs:
        for t in b.request.turns:
            if b.channel == "typed":
                assert t == t.lower() and not re.search(r"[%,?!:;]", t), t
                assert not re.search(r"\d,\d", t), t
            else:
                assert (t[0].isupper() or t[0].isdigit()) and t[-1] in ".?!", t
                assert not small.search(t), f"a number up to ten in digits: {t}"
                for tok in re.findall(r"\d{4,}", t):
                    assert re.fullmatch(r"20\d\d", tok), f"no thousands comma: {t}"
                assert " percent" not in t, t


def test_checks_are_well_posed(records):
    _, recs = records
    for b in recs:
        q = b.request
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal == (q.expect == ()), q
        if q.kind == "timer":
            assert q.after == CLEAR, q
        ops = {b.calc["op"], (b.calc["first"] or {}).get("op")}
        if ops & {"mins", "secs", "hours", "hm", "left", "cancel"}:
            assert q.after == CLEAR, q
        else:
            assert q.after == (), q
        if q.kind == "follow-up":
            assert len(q.turns) == 2 and b.calc["first"], q
        else:
            assert not b.calc["first"], q
    # the scorer takes a reply holding the answer, and a short honest refusal
    q = next(b.request for b in recs if b.request.kind == "units")
    assert useful(q, f"That's about {q.expect[0]}.")
    assert not useful(q, "Sorry, I can't help with that.")
    r = next(b.request for b in recs if b.request.refusal)
    assert useful(r, "Sorry, I can't do that offline. I can do timers and sums.")
    assert REFUSAL.search("Sorry, I can't do that offline.")


def test_answers_worked_out_again(records):
    now, recs = records
    for b in recs:
        c, q = b.calc, b.request
        first_value = None
        if c["first"]:
            first_value, first_expect = worked_out(c["first"]["op"], c["first"]["args"], now)
        value, expect = worked_out(c["op"], c["args"], now)
        assert set(q.expect) == expect, (q.turns, q.expect, expect)
        # each argument is a drawn value said in the request, the first answer ("that") or a
        # literal of the sentence (a unit, an exponent)
        drawn = list(c["fields"].values())
        for a in c["args"]:
            assert a in drawn or a == first_value or isinstance(a, (int, str)), (q.turns, a)
        if c["first"] and re.search(r"\bthat\b", q.turns[-1]) and c["op"] in ("add", "mul", "div"):
            assert c["args"][0] == first_value, q.turns
        if c["first"] and c["op"] != "left":  # the first answer said again does not count
            assert not any(_words(e) in _words(" ; ".join(first_expect)) for e in q.expect), q


def test_drawn_values_are_in_the_request(records):
    _, recs = records
    for b in recs:
        text = " ".join(b.request.turns).lower()
        for k, v in b.calc["fields"].items():
            if k == "m" and b.calc["op"].startswith("month_days"):
                assert MONTH_NAMES[v - 1].lower() in text, (v, text)  # a month by its name
            elif isinstance(v, Country):
                assert v.name.lower() in text, (v, text)
            elif isinstance(v, Planet):
                assert v.name.lower() in text, (v, text)
            elif isinstance(v, date):
                assert MONTH_NAMES[v.month - 1].lower() in text and str(v.day) in text, text
            elif isinstance(v, (int, Q)):
                x = Q(v)
                if x.denominator == 1:
                    digits = {str(int(x)), f"{int(x):,}"}
                else:
                    digits = {f"{float(x):.2f}", f"{float(x):.2f}".rstrip("0")}
                words = {int_words(int(x)), ordinal_words(int(x))} if x in range(11) else set()
                assert any(re.search(rf"(?<![\d.,]){re.escape(f)}(?!\d|[.,]\d)", text)
                           for f in digits) or any(
                    re.search(rf"\b{f}\b", text) for f in words), (v, text)  # fmt: skip
            elif v in UNIT_WORDS:
                assert any(w in text for w in UNIT_WORDS[v]), (v, text)
            else:
                assert str(v).lower() in text, (v, text)  # a holiday, a word to spell, a name


def test_no_answer_in_its_own_request(records):
    _, recs = records
    for b in recs:
        if b.calc["op"] in ("mins", "secs", "hours", "hm", "left"):
            continue  # a timer's answer is the length the request sets
        heard = _heard(b.request.turns)
        for e in b.request.expect:
            assert _words(e) not in heard, (b.request.turns, e)


def test_follow_ups_on_one_country_have_a_unique_answer(records):
    _, recs = records
    attr = {"currency": lambda c: c.currency, "language": lambda c: c.language,
            "continent": lambda c: c.continent, "capital": lambda c: c.capital}  # fmt: skip
    for b in recs:
        c = b.calc
        if not c["first"] or c["op"] not in attr or c["args"] != c["first"]["args"]:
            continue
        mine = _words(attr[c["op"]](c["args"][0]))
        others = [_words(attr[c["op"]](x)) for x in COUNTRIES if x != c["args"][0]]
        assert not any(mine in o or o in mine for o in others), b.request.turns


def test_deterministic():
    key = [(q.turns, q.kind, q.expect, q.after) for q in habits(now=NOW)]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in habits(now=NOW)]
    assert [q.turns for q in habits(seed=1, now=NOW)] != [k[0] for k in key]
    code = ("from datetime import datetime; from bench.habits import habits; "
            "now = datetime(2026, 12, 6, 10, 15); "
            "print([(q.turns, q.expect) for q in habits(now=now)])")  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "2718"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([(q.turns, q.expect) for q in habits(now=NOW)])


def test_every_seed_builds():
    size = len(habits(now=NOW))
    for seed in range(20):
        got = habits(seed=seed, now=NOW)
        assert len(got) == size
        assert len({q.turns for q in got}) == size


def test_request_set():
    a = request_set("habits")
    b = habits()
    assert [(q.turns, q.kind, q.after) for q in a] == [(q.turns, q.kind, q.after) for q in b]


def test_no_turn_is_a_training_prompt():
    from tests.test_paraphrases import _norm as norm
    from tests.test_paraphrases import _training_prompts

    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for seed in range(4) for q in habits(seed=seed, now=NOW) for t in q.turns
            if norm(t) in prompts}  # fmt: skip
    assert not seen, sorted(seen)
