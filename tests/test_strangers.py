"""The strangers request set of bench/skills.py (bench/strangers.py): size per kind and persona,
well-posed checks, determinism, answers re-derived here, and no request that is one of the other
sets' or a training prompt. No model."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from bench.everyday import CLEAR, currency, everyday
from bench.paraphrases import paraphrases
from bench.skills import request_set, requests, useful
from bench.strangers import KINDS, PERSONAS, SEED, _lang, not_hundreds, only, spoken_by, strangers
from tests.test_paraphrases import _norm, _training_prompts
from training.facts import COUNTRIES
from words.spoken import int_words

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning
SEEDS = range(12)


@pytest.fixture(scope="module")
def reqs():
    return strangers(now=NOW)


@pytest.fixture(scope="module")
def many():
    """Several seeds' requests: the slotted values change from one seed to the next."""
    return [q for seed in SEEDS for q in strangers(seed=seed, now=NOW)]


def test_size_per_kind(reqs):
    counts = {k: sum(q.kind == k for q in reqs) for k in KINDS}
    assert {q.kind for q in reqs} == set(KINDS)
    assert len(reqs) >= 200, len(reqs)
    assert min(counts.values()) >= 20, counts
    assert counts["facts"] >= 30 and counts["follow-up"] >= 30, counts
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"


def test_every_kind_is_spread_over_the_six_personas():
    rows = spoken_by(now=NOW)
    assert {who for who, _ in rows} == {p.key for p in PERSONAS}
    for kind in KINDS:
        per = {p.key: sum(who == p.key and q.kind == kind for who, q in rows) for p in PERSONAS}
        assert min(per.values()) >= 3, (kind, per)
    # the lower-case typists type in lower case
    assert all(t == t.lower() for who, q in rows if who in ("child", "texter") for t in q.turns)


def test_every_request_has_a_check_or_is_a_refusal(reqs):
    for q in reqs:
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal, q
        assert q.refusal or (q.expect and all(e.strip() for e in q.expect)), q
        assert q.after == (CLEAR if q.kind == "timer" else ()), q
        if q.kind == "follow-up":
            assert len(q.turns) >= 2, q
        if q.kind == "facts":
            assert not any(e.lower().startswith("the ") for e in q.expect), q
    # the scorer takes a reply holding the answer, and a short honest refusal
    q = next(q for q in reqs if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]} units.")
    assert not useful(q, "Sorry, I don't know about that.")
    r = next(q for q in reqs if q.refusal)
    assert useful(r, "Sorry, I can't do that here. I can help with timers and sums.")


def test_deterministic():
    a, b = strangers(now=NOW), strangers(now=NOW)
    key = [(q.turns, q.kind, q.expect, q.after) for q in a]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in b]
    assert [q.turns for q in strangers(seed=SEED + 1, now=NOW)] != [q.turns for q in a]
    # the clock changes the answers, never the requests
    late = strangers(now=datetime(2027, 7, 3, 23, 50))
    assert [q.turns for q in late] == [q.turns for q in a]
    # the same in another process, whatever its string hashing
    code = "from bench.strangers import strangers; print([q.turns for q in strangers()])"
    env = {**os.environ, "PYTHONHASHSEED": "2468"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([q.turns for q in strangers()])


def _said_back(text: str) -> str:
    """The request's words with its digits said as words too ("13*7?" → "13 7 thirteen seven")."""
    nums = re.findall(r"\d[\d,]*(?:\.\d+)?", text)
    return _norm(text + " " + " ".join(int_words(int(float(n.replace(",", "")))) for n in nums))


def test_every_seed_builds(many):
    n = len(strangers(now=NOW))
    assert all(len(strangers(seed=s, now=NOW)) == n for s in SEEDS)
    # no numeric answer is only the request's own numbers said back
    for q in many:
        if q.kind in ("arithmetic", "units"):
            assert not any(_norm(e) in _said_back(" ".join(q.turns)) for e in q.expect), q


# --- answers re-derived here, from the request's own text, with floats and int arithmetic ------
ONES = "zero one two three four five six seven eight nine".split()


def _words(x: float, places: int) -> str:
    """x to ``places`` decimals in words, the digits one by one: 9.32 → "nine point three two"."""
    whole, _, frac = f"{abs(x):.{places}f}".partition(".")
    out = int_words(int(whole))
    frac = frac.rstrip("0")
    if frac:
        out += " point " + " ".join(ONES[int(d)] for d in frac)
    return ("minus " if x < 0 and out != "zero" else "") + out


def _inexact(x: float) -> tuple[str, ...]:
    if abs(round(x, 2) - x) < 1e-9:
        return (_words(x, 2),)
    places = 2 if abs(x) < 10 else 1 if abs(x) < 100 else 0
    return tuple(dict.fromkeys([_words(x, places)] + ([_words(x, places - 1)] if places else [])))


DERIVE = (  # (pattern of the last turn or of all turns joined by " / ", answer from its numbers)
    (r"^wats (\d+)\*(\d+)$", lambda a, b: int_words(int(a) * int(b))),
    (r"^whats (\d+)% of (\d+)$", lambda p, a: int_words(int(p) * int(a) // 100)),
    (r"^sqrt (\d+)$", lambda n: int_words(math.isqrt(int(n)))),
    (r"^how much is (\d+) divide on (\d+)\?$", lambda a, b: int_words(int(a) // int(b))),
    (r"^what's ([\d,]+) minus (\d+), I'm balancing", lambda a, b: int_words(
        int(a.replace(",", "")) - int(b))),
    (r"^what's a (\d+)% tip on a \$(\d+) check$", lambda p, a: int_words(int(p) * int(a) // 100)),
    (r"^(\d+)\+(\d+)\+(\d+)=\?$", lambda a, b, c: int_words(int(a) + int(b) + int(c))),
    (r"^lbs in (\d+) kg\?$", lambda a: _inexact(int(a) / 0.45359237)),
    (r"^(\d+) km\. miles\?$", lambda a: _inexact(int(a) / 1.609344)),
    (r"^whats (\d+)f in c$", lambda a: _inexact((int(a) - 32) * 5 / 9)),
    (r"^how many cups in (\d+) quarts$", lambda a: int_words(4 * int(a))),
    (r"^(\d+) tbsp in ml\?$", lambda a: _inexact(int(a) * 3785.411784 / 256)),
    (r"^convert (\d+) liters to gallons$", lambda a: _inexact(int(a) / 3.785411784)),
    (r"^how many centimeter have (\d+) inches\?$", lambda a: _inexact(int(a) * 2.54)),
    (r"^how many feet are in (\d+) miles$", lambda a: int_words(5280 * int(a))),
    (r"^(\d+)mph in km/h\?$", lambda a: _inexact(int(a) * 1.609344)),
    (r"^how many ounces are in (\d+) pounds / and in (\d+) pounds\?$",
     lambda a, b: int_words(16 * int(b))),
    (r"^(\d+)\*(\d+) pls / then minus (\d+)$", lambda a, b, c: int_words(int(a) * int(b) - int(c))),
    (r"^(\d+) kg in lbs\? / (\d+)\?$", lambda a, b: _inexact(int(b) / 0.45359237)),
    (r"^spell (\w+) pls$", lambda w: ", ".join(w.upper())),
    (r"^spell \w+ pls / now (\w+)$", lambda w: ", ".join(w.upper())),
    (r"^cap of ([^/?]+)\?$", lambda c: next(x.capital.split(",")[0] for x in COUNTRIES
                                        if c in (s.lower() for s in x.surfaces))),
)  # fmt: skip


def test_answers_rederived(many):
    seen = {i: 0 for i in range(len(DERIVE))}
    for q in many:
        said = " / ".join(q.turns)
        for i, (pattern, answer) in enumerate(DERIVE):
            m = re.match(pattern, said)
            if m:
                want = answer(*m.groups())
                assert q.expect == (want if isinstance(want, tuple) else (want,)), (said, q.expect)
                seen[i] += 1
    assert all(n >= len(SEEDS) for n in seen.values()), seen


def test_answers_worked_out(reqs):
    by_text = {q.turns[-1]: q for q in reqs}
    clock = {q.turns[-1]: q.expect for q in reqs if q.kind == "clock"}
    assert clock["time. now."] == ("ten",)
    assert clock["date 2day?"] == ("December sixth",)
    assert clock["wat day is it 2day lol"] == ("Sunday",)
    assert clock["how many days til xmas"] == ("nineteen days",)
    assert clock["how many days it remains until Halloween?"] == (
        "three hundred and twenty nine days",
    )
    assert clock["what year is it now, for the date on this permission slip"] == (
        "twenty twenty six",
        "two thousand and twenty six",
    )
    assert by_text["make a timer for one minute, me and my brother are having a race"].expect == (
        "one minute",
    )
    assert by_text["and the Fourth of July?"].expect == ("two hundred and ten days",)
    assert by_text["and which one is the hottest"].expect == ("Venus",)
    late = {q.turns[-1]: q.expect for q in strangers(now=datetime(2026, 12, 24, 23, 50))}
    assert late["time. now."] == ("eleven", "twelve")
    assert late["how many days til xmas"] == ("tomorrow", "one day")
    timers = next(q for q in reqs if q.turns[-1] == "how many timers do I have going")
    assert timers.expect == ("two timers",) and len(timers.turns) == 3
    # elder's times tables, said in words
    table = next(q for q in reqs if q.turns[0].startswith("Could you remind me what "))
    a, b = re.match(r"Could you remind me what (\w+) (\w+) are", table.turns[0]).groups()
    b = b.removesuffix("es") if b.endswith("xes") else b.removesuffix("s")
    assert table.expect == (int_words(ONES.index(a) * ONES.index(b)),)


def test_checks_tell_the_right_country_and_reading():
    """A follow-up asking another fact of the same country asks one no other country shares
    (a reply about Argentina holds "Spanish" for Mexico too); numbers said in words are never
    a round hundred before "and" ("add one hundred and forty nine" reads as 149)."""
    by = {c.name: c for c in COUNTRIES}
    assert not only(_lang)(by["Mexico"]) and not only(_lang)(by["Germany"])  # Swiss German
    assert only(_lang)(by["Sweden"]) and only(currency)(by["Japan"])
    assert not only(currency)(by["France"])
    assert not_hundreds(149, 45) and not not_hundreds(100, 49) and not not_hundreds(a=300)
    for q in strangers(now=NOW):
        if q.turns[-1] in ("and the money of this country?", "wat do they speak there"):
            holders = [c for c in COUNTRIES if q.expect[0] in (currency(c), c.language)]
            assert len(holders) == 1, q


def test_registered_in_the_benchmark():
    assert [q.turns for q in request_set("strangers")] == [q.turns for q in strangers()]
    with pytest.raises(SystemExit, match="strangers"):
        request_set("nonsense")


def test_no_request_is_one_of_the_other_sets(many):
    """Written apart from the base, paraphrase and everyday sets: no request (its turns) and no
    first turn of one (the sentence said out of the blue) is theirs, for several seeds of each.
    A follow-up's later turn may be ("Brazil.", "and in Sweden?"): it is the country's name."""
    others = [*requests(), *(q for s in range(4) for q in everyday(seed=s, now=NOW)),
              *(q for s in (26, 0, 1, 2) for q in paraphrases(seed=s, now=NOW))]  # fmt: skip
    their_requests = {tuple(_norm(t) for t in q.turns) for q in others}
    their_turns = {_norm(t) for q in others for t in q.turns}
    assert not [q.turns for q in many if tuple(_norm(t) for t in q.turns) in their_requests]
    assert not sorted({q.turns[0] for q in many if _norm(q.turns[0]) in their_turns})


def test_no_request_is_a_training_prompt(many):
    """No turn of any request (several seeds) is a user turn the training corpus produces;
    compared as tests/test_paraphrases.py does."""
    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for q in many for t in q.turns if _norm(t) in prompts}
    assert not seen, sorted(seen)
