"""Answer matching and well-formedness used by the held-out evaluation."""

from __future__ import annotations

from training.scoring import contains_answer, well_formed


def test_number_answers_do_not_match_longer_numbers():
    assert contains_answer("Nine minus four is five.", ["is five"])
    assert not contains_answer("Nine minus four is fifty five.", ["is five"])
    assert not contains_answer("Seven times eight is fifty six hundred.", ["fifty six"])
    assert contains_answer("Seven times eight is fifty six.", ["fifty six"])


def test_answers_are_whole_words_any_case():
    assert contains_answer("the capital of france is PARIS", ["Paris"])
    assert not contains_answer("The capital is Parisville.", ["Paris"])
    assert contains_answer("Cat is spelled C, A, T.", ["C, A, T"])
    assert contains_answer("x", ["nope", "x"])


def test_well_formed():
    assert well_formed("The capital of France is Paris.")
    assert well_formed("Book is spelled B, O, O, K.")  # single letters may repeat
    assert not well_formed("")
    assert not well_formed("Fifty eight degrees degrees.")
    assert not well_formed("The capital of France is Paris")
    assert not well_formed(" ".join(["word"] * 15 + ["other"] * 16) + ".")
