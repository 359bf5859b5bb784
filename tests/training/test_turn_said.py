"""training.turn_said: the lines people wrote, as end-of-turn rows: only a whole line is
finished, a fifth of the lines held out apart, no code, and none of the benchmark's questions."""

from __future__ import annotations

import pytest

from training import turn_said
from training.turn_corpus import key
from training.turn_grammar import EXCLUDED


@pytest.fixture(scope="module")
def split():
    return turn_said.rows("train"), turn_said.rows("heldout")


def test_many_lines_of_speech_and_no_code():
    lines = turn_said.lines()
    assert len(lines) > 1000 and len({key(x) for x in lines}) == len(lines)
    assert not [x for x in lines if turn_said._NOT_SPEECH.search(x) or "def " in x]
    assert all(1 <= len(key(x).split()) <= turn_said.MAX_WORDS for x in lines)
    assert not {key(e) for e in EXCLUDED} & {key(x) for x in lines}


def test_only_the_whole_line_is_finished():
    line = "Yes, I have a question. Could I borrow a cup of sugar?"
    cut = turn_said.chunks(line)
    assert [c.words[0] for c in cut][:4] == ["yes", "I", "have", "a"]
    assert cut[0].comma and cut[4].comma and not cut[-1].comma  # "Yes," and "question."
    rows = [(key(" ".join(" ".join(c.words) for c in ch)), done)
            for ch, done in turn_said.cuts(cut)]  # fmt: skip
    assert rows[-1] == (key(line), True)
    assert (key("Yes, I have a question."), False) in rows  # a sentence, not the whole turn
    assert sum(done for _, done in rows) == 1


def test_held_out_lines_never_train_and_rows_are_labelled_per_line(split):
    train, held = split
    lines = turn_said.lines()
    out = {key(x) for x in lines if turn_said.held_out(x)}
    assert 0.1 < len(out) / len(lines) < 0.3

    assert not {key(r.text) for r in train if r.label} & out
    assert sum(r.label for r in held) == turn_said.RENDERINGS * len(out)
    finished = sum(r.label for r in train + held)
    assert finished == turn_said.RENDERINGS * len(lines)
    assert all(r.shape == turn_said.SHAPE for r in train + held)


def test_deterministic():
    assert turn_said.rows("heldout", seed=1) == turn_said.rows("heldout", seed=1)
    assert turn_said.rows("heldout", seed=1) != turn_said.rows("heldout", seed=2)
