"""training.turn_corpus: what the end-of-turn model learns from is labelled by where a sentence
can end, keeps its held-out shapes apart, and never holds the benchmark's questions."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from training.turn_corpus import Grammar, _plain, cuts, generate, key
from training.turn_grammar import EXCLUDED, HELDOUT, SHAPES

ROOT = Path(__file__).resolve().parents[2]
DANGLING = {"of", "the", "a", "an", "and", "or", "times", "plus", "minus", "um", "uh", "er"}


@pytest.fixture(scope="module")
def train_rows():
    return generate("train", per_shape=40)


@pytest.fixture(scope="module")
def heldout_rows():
    return generate("heldout", per_shape=40)


def labelled(template: str, seed: int = 0) -> list[tuple[str, bool]]:
    """One sentence of ``template``: each cut's words and whether it is finished."""
    chunks = Grammar(SHAPES, random.Random(seed)).sample(template)
    return [(key(_plain(c)), done) for c, done in cuts(chunks)]


def test_a_whole_sentence_is_finished_and_its_cuts_mostly_not() -> None:
    for _name, _kind, template in SHAPES:
        for seed in range(5):
            got = labelled(template, seed)
            assert got[-1][1], got  # the whole sentence
            assert not got[0][1] or len(got) == 1 or template.split()[0].startswith("(")


def test_words_that_may_end_a_sentence_are_finished_as_often_as_speakers_stop_there(
    train_rows,
) -> None:
    got = dict(labelled("what time is it / in {city}"))
    assert not got["what time is it"] and not got["what time is it in"]  # the speaker went on
    said = [r.label for r in train_rows
            if key(r.text) == "what time is it"]  # fmt: skip
    assert 0.2 < sum(said) / len(said) < 0.8, (sum(said), len(said))  # both, as sampled


def test_prefixes_ending_on_a_dangling_word_are_unfinished(train_rows, heldout_rows) -> None:
    ends = [(r.text.lower().rstrip(".?!,-").split()[-1], r) for r in train_rows + heldout_rows]
    assert sum(w in DANGLING for w, _ in ends) > 1000
    assert not [r for w, r in ends if w in DANGLING and r.label]


def test_a_filler_or_an_opener_never_ends_a_finished_row(train_rows) -> None:
    for r in train_rows:
        w = r.text.lower().rstrip(".?!,-").split()
        if r.label:
            assert w[-1].strip(",") not in ("um", "uh", "er", "hmm"), r


def test_unfinished_prefixes_are_also_written_with_a_final_stop(train_rows) -> None:
    """Whisper ends a cut-off sentence with "." or "?" too: the words must decide."""
    unfinished = [r.text for r in train_rows if not r.label]
    stopped = [t for t in unfinished if t.endswith(("?", "."))]
    assert len(stopped) > len(unfinished) / 4
    assert any(t.endswith("...") for t in unfinished) and any(t.endswith(",") for t in unfinished)


def test_numbers_are_often_digits(train_rows) -> None:
    arith = [r.text for r in train_rows if r.shape == "arithmetic" and r.label]
    assert sum(any(ch.isdigit() for ch in t) for t in arith) > len(arith) / 2


def test_held_out_shapes_are_not_in_training(train_rows, heldout_rows) -> None:
    assert {r.shape for r in train_rows}.isdisjoint(HELDOUT)
    assert {r.shape for r in heldout_rows} == set(HELDOUT)
    assert len({r.shape for r in train_rows}) >= 50  # many shapes, not only the assistant's


def bench_questions() -> list[str]:
    """bench/turns.py's whole questions, read from its source (importing it starts a
    server's helpers). Their halves ("What is the capital of") are any such question's
    prefix, and stay."""
    tree = ast.parse((ROOT / "bench" / "turns.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "QUESTIONS":
            qs = ast.literal_eval(node.value)
            return [" ".join(parts) for parts, _ in qs]
    raise AssertionError("no QUESTIONS in bench/turns.py")


def test_the_benchmark_and_the_issue_are_not_in_the_corpus(train_rows, heldout_rows) -> None:
    banned = {key(q) for q in bench_questions()} | {key(q) for q in EXCLUDED}
    assert len(banned) >= len(EXCLUDED)
    assert all(key(r.text) not in banned for r in train_rows + heldout_rows)


def test_the_corpus_is_deterministic() -> None:
    a, b = generate("heldout", per_shape=5, seed=3), generate("heldout", per_shape=5, seed=3)
    assert a == b and a != generate("heldout", per_shape=5, seed=4)
