"""The paraphrase request set of bench/skills.py (bench/paraphrases.py): size, coverage,
determinism, well-posed checks, and wordings the training corpus never produces. No model."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from bench.paraphrases import KINDS, paraphrases
from bench.skills import garbled, useful

NOW = datetime(2026, 12, 6, 10, 15)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split())


@pytest.fixture(scope="module")
def reqs():
    return paraphrases(now=NOW)


@pytest.fixture(scope="module")
def training_prompts() -> set[str]:
    return _training_prompts()


def _training_prompts() -> set[str]:
    """User turns the training corpus produces: every template of every fact and refusal skill
    filled with each fact's slot forms, and a sample of the tool dialogs' requests, as typed
    and without the speech-noise prefixes ("um", "tell me", ...)."""
    from training.corpus import all_skills, render
    from training.skills_tools import ToolSampler, tool_refusal_skills
    from training.speech import PREFIXES

    rng = random.Random(0)
    out: set[str] = set()
    for skill in [*all_skills(), *tool_refusal_skills()]:
        for fact in skill.facts:
            for t in (*skill.templates, *skill.followups):
                for _ in range(3):
                    out.add(_norm(render(t, fact, rng)))
    for held in (False, True):
        sampler = ToolSampler(random.Random(f"bench-{held}"), held, {})
        for _ in range(6000):
            _, ex, history = sampler.exchange()
            out.add(_norm(ex.question))
            out.update(_norm(c) for r, c in history if r == "user")
    prefixes = sorted((_norm(p) + " " for p in PREFIXES), key=len, reverse=True)
    for text in list(out):
        for p in prefixes:
            if text.startswith(p):
                out.add(text[len(p) :])
    return out


def test_size_and_every_kind(reqs):
    assert len(reqs) >= 200
    counts = {k: sum(q.kind == k for q in reqs) for k in KINDS}
    assert set(q.kind for q in reqs) == set(KINDS)
    assert min(counts.values()) >= 15, counts  # enough for a per-kind rate to mean something
    assert len({q.turns for q in reqs}) == len(reqs), "duplicate requests"


def test_deterministic():
    a, b = paraphrases(now=NOW), paraphrases(now=NOW)
    assert [(q.turns, q.kind, q.expect) for q in a] == [(q.turns, q.kind, q.expect) for q in b]
    assert [q.turns for q in paraphrases(seed=1, now=NOW)] != [q.turns for q in a]
    # the same in another process, whatever its string hashing
    code = "from bench.paraphrases import paraphrases; print([q.turns for q in paraphrases()])"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout  # fmt: skip
    assert out.strip() == str([q.turns for q in a])


def test_checks_are_well_posed(reqs):
    for q in reqs:
        assert (q.kind == "refusal") == q.refusal, q
        assert all(e.strip() for e in q.expect), q
        if q.kind == "timer":
            assert q.after, "timer requests clear their timers (at most twenty at once)"
    # the scorer accepts a reply holding the expected answer, and an honest short refusal
    q = next(q for q in reqs if q.kind == "units")
    assert useful(q, f"That is about {q.expect[0]} units.")
    assert not useful(q, "Sorry, I don't know about that.")
    r = next(q for q in reqs if q.refusal)
    assert useful(r, "Sorry, I can't do that. I can help with timers, sums and spelling.")


def test_expected_answers_worked_out(reqs):
    by_text = {q.turns[-1]: q for q in reqs}
    assert by_text["ten miles in kilometres, please"].expect[0] == "sixteen point one"
    gallon = next(q for q in reqs if "gallon in litres" in q.turns[-1])
    assert gallon.expect == ("three point seven nine", "three point eight")
    assert by_text["zero degrees celsius in fahrenheit, please"].expect == ("thirty two",)
    assert by_text["what I want is a thousand divided by eight"].expect == (
        "one hundred and twenty five",
    )
    assert by_text["tell me how to spell pharaoh"].expect == ("P, H, A, R, A, O, H",)
    clock = [q for q in reqs if q.kind == "clock"]
    assert any(q.expect == ("December sixth",) for q in clock)
    assert any(q.expect == ("Sunday",) for q in clock)


def test_number_words_said_twice_are_not_garbled():
    assert not garbled("Five kilometers is about three point one one miles.")
    assert not garbled("Today is Sunday, December sixth, twenty twenty six.")
    assert garbled("The the capital is Paris.")


def test_no_request_is_a_training_prompt(reqs, training_prompts):
    assert len(training_prompts) > 10_000
    seen = [t for q in reqs for t in q.turns if _norm(t) in training_prompts]
    assert not seen, seen
