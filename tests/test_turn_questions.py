"""The held-out question set of bench/turns.py (bench/turn_questions.py): its size, pauses and
voices, and that the end-of-turn model's training corpus never holds its questions. No model."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.turn_questions import COMPLETE, ISSUE, SEEN_FIRST_PARTS, TWO_PART, held_out
from bench.turns import QUESTIONS as ORIGINAL


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split())


@pytest.fixture(scope="module")
def corpus():
    """Every row key of the corpus the model trains on (and of its own held-out split)."""
    tc = pytest.importorskip(
        "training.turn_corpus", reason="training/turn_corpus.py (issue 25's corpus) is not here"
    )
    rows = tc.generate("train") + tc.generate("heldout")
    return tc.key, {tc.key(r.text) for r in rows}


def test_counts_and_voices():
    qs = held_out()
    assert len(TWO_PART) >= 60 and len(COMPLETE) >= 60
    per = Counter((q.voice, len(q.parts)) for q in qs)
    assert len({v for v, _ in per}) == 3
    assert all(n >= 20 for n in per.values()), per


def test_no_duplicates_nor_the_bench_original_questions():
    texts = [_norm(q.text) for q in held_out()]
    assert len(texts) == len(set(texts))
    original = {_norm(" ".join(parts)) for parts, _ in ORIGINAL}
    assert not original & set(texts)
    # issue 25's four reports are in, as the user said them
    assert {_norm(t) for t in ISSUE} <= set(texts)


def test_pauses_in_range_at_varied_places():
    assert all(300 <= ms <= 900 for _, _, ms, _ in TWO_PART)
    assert len({ms for _, _, ms, _ in TWO_PART}) >= 8
    buckets = set()
    for first, second, _, _ in TWO_PART:
        a, b = len(_norm(first).split()), len(_norm(second).split())
        assert a >= 1 and b >= 1
        buckets.add(min(int(10 * a / (a + b)), 9))  # tenths of the way through
    assert len(buckets) >= 5, sorted(buckets)
    places = Counter(w for *_, w in TWO_PART)
    assert {"opener", "filler", "mid-np", "number", "list", "clause"} <= set(places)


def test_last_words_survive_whisper_normalising():
    """The bench's "whole" check looks for the last word in the transcript: none may be a
    number Whisper writes as digits past 99 (normalize_text spells only 0-99)."""
    from voice.asr import normalize_text

    for q in held_out():
        last = normalize_text(q.text).split()[-1]
        assert last.isalpha(), q.text


def test_never_in_the_training_corpus(corpus):
    key, keys = corpus
    whole = [q.text for q in held_out() if key(q.text) in keys]
    assert not whole, f"held-out questions the corpus holds verbatim: {whole}"
    firsts = {first for first, *_ in TWO_PART if key(first) and key(first) in keys}
    unmarked = sorted(firsts - SEEN_FIRST_PARTS)
    assert not unmarked, f"first parts the corpus holds, not in SEEN_FIRST_PARTS: {unmarked}"
    assert len(SEEN_FIRST_PARTS) <= len(TWO_PART) // 3


def test_the_offline_replay_finds_the_pause_and_how_long_the_user_stayed_quiet():
    # bench/turn_pauses.py: the first held-out question ("So, … how tall is Mount Everest?",
    # 600 ms) streamed through the real turn detector and judged with the bundled settings
    from bench.turn_pauses import outcome, pauses
    from bench.turns import make_questions
    from voice.config import load_config
    from voice.vad import TurnDetector

    vad = load_config(None, []).vad
    q = make_questions("held-out", 1)[0]
    assert q.split_at and q.where == "opener"
    args = vad.detector_args() | {"end_ms": 10_000}
    found = pauses(q.audio, TurnDetector(**args))
    quiet = [(resumed - ev.audible_end) / 16 for ev, resumed in found if resumed is not None]
    assert any(500 <= ms <= 700 for ms in quiet), quiet  # the 600 ms pause, from the audible end
    assert found[-1][1] is None  # the question's real end: speech never came back
    # each pause's wait is decided again from what was heard: a whole question at once
    whole = {"heard": "What is the capital of France?", "features": None, "ending": None}
    row = {"q": 0, **whole, "quiet_ms": max(quiet)}
    end = {"q": 0, **whole, "quiet_ms": None}
    assert outcome([row, end], vad)["early"] == 1  # answered while the user was still quiet
    # no answer is ready that soon: the pause ends before anything could be heard
    assert outcome([row, end], vad, ready_ms=row["quiet_ms"] + 1)["early"] == 0
    row["heard"] = "What is the capital of"  # unfinished: waits longer than the pause
    assert outcome([row, end], vad)["early"] == 0
