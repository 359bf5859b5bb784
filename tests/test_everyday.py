"""The everyday request set of bench/skills.py (bench/everyday.py): size per kind, well-posed
checks, determinism, answers worked out right, and no request that is a training prompt. No
model."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest

from bench.everyday import CLEAR, KINDS, everyday, number
from bench.skills import request_set, useful
from tests.test_paraphrases import _norm, _training_prompts

NOW = datetime(2026, 12, 6, 10, 15)  # a Sunday morning


@pytest.fixture(scope="module")
def reqs():
    return everyday(now=NOW)


def test_size_per_kind(reqs):
    counts = {k: sum(q.kind == k for q in reqs) for k in KINDS}
    assert {q.kind for q in reqs} == set(KINDS)
    assert len(reqs) >= 220, len(reqs)
    assert min(counts.values()) >= 25, counts
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"


def test_every_request_has_a_check_or_is_a_refusal(reqs):
    for q in reqs:
        assert q.turns and all(t.strip() for t in q.turns), q
        assert (q.kind == "refusal") == q.refusal, q
        assert q.refusal or (q.expect and all(e.strip() for e in q.expect)), q
        if q.kind == "timer":
            assert q.after == CLEAR, "every timer request clears its timers afterwards"
        if q.kind == "follow-up":
            assert len(q.turns) >= 2, q
    # the scorer takes a reply holding the answer, and a short honest refusal
    q = next(q for q in reqs if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]} units.")
    assert not useful(q, "Sorry, I don't know about that.")
    r = next(q for q in reqs if q.refusal)
    assert useful(r, "Sorry, I can't do that here. I can help with timers and sums.")


def test_deterministic():
    a, b = everyday(now=NOW), everyday(now=NOW)
    key = [(q.turns, q.kind, q.expect, q.after) for q in a]
    assert key == [(q.turns, q.kind, q.expect, q.after) for q in b]
    assert [q.turns for q in everyday(seed=1, now=NOW)] != [q.turns for q in a]
    # the same in another process, whatever its string hashing
    code = "from bench.everyday import everyday; print([q.turns for q in everyday()])"
    env = {**os.environ, "PYTHONHASHSEED": "4321"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([q.turns for q in everyday()])


def test_every_seed_builds():
    for seed in range(25):
        got = everyday(seed=seed, now=NOW)
        assert len(got) == len(everyday(now=NOW))
        # no numeric answer is only the request's own numbers said back
        for q in got:
            if q.kind in ("arithmetic", "units"):
                assert not any(_norm(e) in _norm(q.turns[-1]) for e in q.expect), q


def test_answers_worked_out(reqs):
    by_text = {q.turns[-1]: q for q in reqs}
    assert by_text["set a timer for ten, no, twelve minutes"].expect == ("twelve minutes",)
    assert by_text["what's 45 plus, sorry, 46 plus 19"].expect == ("sixty five",)
    assert by_text["how many kilometres is a marathon, 26.2 miles"].expect == (
        "forty two point two",
        "forty two",
    )
    assert by_text["how many millimetres in an inch, the drill bits are metric"].expect == (
        "twenty five point four",
    )
    assert by_text["what's three quarters of a mile in metres"].expect == (
        "one thousand two hundred and seven",
    )
    assert by_text["spell accommodate, is it one m or two"].expect == (
        "A, C, C, O, M, M, O, D, A, T, E",
    )
    assert by_text["what's the capital of Sweden, no hang on, Norway"].expect == ("Oslo",)
    assert by_text["how many sleeps till christmas"].expect == ("nineteen days",)
    assert by_text["what's today's date, I need it for this form"].expect == ("December sixth",)
    assert by_text["is today a weekday? what day is it"].expect == ("Sunday",)
    assert by_text["what year is it, I keep writing the wrong one on everything"].expect == (
        "twenty twenty six",
    )
    assert by_text["time check please"].expect == ("ten",)
    timers = by_text["what timers have I got on"]
    assert timers.kind == "timer" and timers.expect == ("two timers",) and len(timers.turns) == 3


def test_number_words():
    assert number(Fraction(391)) == ("three hundred and ninety one",)
    assert number(Fraction("37.04")) == ("thirty seven point zero four",)
    assert number(Fraction(1, 3)) == ("zero point three three", "zero point three")
    assert number(Fraction(-40)) == ("minus forty",)
    assert number(Fraction(530, 3)) == ("one hundred and seventy seven",)  # 176.67


def test_registered_in_the_benchmark():
    assert [q.turns for q in request_set("everyday")] == [q.turns for q in everyday()]
    with pytest.raises(SystemExit, match="everyday"):
        request_set("nonsense")


def test_no_request_is_a_training_prompt():
    """No turn of any request (this seed's and a few others': the slotted values change) is a
    user turn the training corpus produces; compared as tests/test_paraphrases.py does."""
    prompts = _training_prompts()
    assert len(prompts) > 10_000
    seen = {t for seed in range(4) for q in everyday(seed=seed, now=NOW) for t in q.turns
            if _norm(t) in prompts}  # fmt: skip
    assert not seen, sorted(seen)
