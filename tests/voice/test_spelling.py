"""The word a speller was asked for: near misses of common words (typed, or Whisper's), names
left as said, and British or American spelling when the request asks for it."""

from __future__ import annotations

import random

import pytest

from voice.tools import Toolbox
from voice.tools.request import spell_args, spelling_variety
from voice.tools.spell import spell
from words.lexicon import _BRITISH, _by_sound, _single, american, british, known, meant


@pytest.mark.parametrize(
    "said,word",
    [("accomodate", "accommodate"), ("recieve", "receive"), ("definately", "definitely"),
     ("seperate", "separate"), ("occured", "occurred"), ("begining", "beginning"),
     ("goverment", "government"), ("restaraunt", "restaurant"), ("millenium", "millennium"),
     ("gazebal", "gazebo"), ("rythm", "rhythm"), ("capucino", "cappuccino"),
     ("Capucino", "cappuccino"), ("embarass", "embarrass"), ("comitee", "committee"),
     ("mississipi", "mississippi")],
)  # fmt: skip
def test_a_near_miss_of_a_common_word_is_the_word(said, word):
    assert meant(said) == word


@pytest.mark.parametrize(
    "word",
    ["necessary", "siobhan", "dungarvan", "bishan", "mysuru", "thiruvananthapuram", "onitsha",
     "auchtermuchty", "kaitlyn", "quinoa", "toapayoh", "calender", "colour", "neighbour",
     "jewellery", "pyjamas", "cheque", "organise", "travelled", "ok", "Nguyen"],
)  # fmt: skip
def test_words_names_and_british_spellings_are_kept(word):
    assert meant(word) == word


def test_a_word_with_its_double_letters_said_once_is_the_word():
    """Property: every common word with a doubled letter, written with each letter once (as
    it is heard), is read as that word wherever no other common word is written so."""
    rng = random.Random(1)
    words = sorted(ws[0] for s, ws in _by_sound().items()
                   if len(ws) == 1 and len(s) >= 4 and not known(s))  # fmt: skip
    assert len(words) > 5000
    for word in rng.sample(words, 400):
        assert meant(_single(word)) == word, word


def test_british_spellings_are_words_through_the_american_ones():
    assert known("colour") and known("neighbourhood") and known("centre") and known("analyse")
    assert not known("colourr") and not known("neighbur")


@pytest.mark.parametrize(
    "us,uk",
    [("neighbor", "neighbour"), ("color", "colour"), ("favorite", "favourite"),
     ("behaviors", "behaviours"), ("organize", "organise"), ("realizing", "realising"),
     ("analyze", "analyse"), ("traveled", "travelled"), ("canceling", "cancelling"),
     ("jewelry", "jewellery"), ("pajamas", "pyjamas"), ("center", "centre"),
     ("kilometers", "kilometres"), ("gray", "grey"), ("defense", "defence")],
)  # fmt: skip
def test_british_and_american_spelling(us, uk):
    assert british(us) == uk and american(uk) == us
    assert british(uk) == uk and american(us) == us  # already in that spelling


@pytest.mark.parametrize(
    "word", ["doctor", "motor", "honorary", "humorous", "vigorous", "size", "seize", "prize",
             "advertise", "exercise", "surprise", "citizen", "travel", "model", "mirror"],
)  # fmt: skip
def test_words_spelled_alike_in_both(word):
    assert british(word) == word and american(word) == word


def test_every_listed_pair_goes_both_ways_and_is_a_word():
    for us, uk in _BRITISH.items():
        assert known(us), us
        assert american(uk) == us and british(us) == uk


def test_any_casing_and_derived_forms_round_trip():
    rng = random.Random(0)
    stems = ["col", "flav", "hon", "neighb", "rum", "harb", "behavi", "fav", "lab", "hum"]
    ends = ["", "s", "ed", "ing", "ful", "hood", "less"]
    for _ in range(200):
        us = rng.choice(stems) + "or" + rng.choice(ends)
        uk = british(us)
        assert uk == us.replace("or", "our", 1) and american(uk) == us


@pytest.mark.parametrize(
    "text,variety",
    [("how do you spell neighbour, the british way", "british"),
     ("jewellery, the english way, how do you spell it", "british"),
     ("How's pajamas spelled over here? British spelling.", "british"),
     ("how is it spelled in the UK", "british"), ("spell theatre, UK spelling please", "british"),
     ("spell colour in American English", "american"),
     ("how do you spell color the American way", "american"),
     ("How do you spell English?", None), ("spell us", None), ("spell necessary", None)],
)  # fmt: skip
def test_the_spelling_asked_for(text, variety):
    assert spelling_variety(text) == variety


@pytest.mark.parametrize(
    "text,word",
    [("mum, the English way, how do you spell it", "mum"),
     ("how do you spell it in the UK, aluminium", "aluminium"),
     ("neighbour, how is it spelt in Australia", "neighbour"),
     ("How do you spell English?", "English")],
)  # fmt: skip
def test_the_words_asking_for_a_spelling_are_not_the_word(text, word):
    assert spell_args(text)["word"] == word


def test_the_speller_spells_what_was_meant():
    assert spell("gazebal")[0] == "gazebo is spelled G, A, Z, E, B, O"
    assert spell("Accomodate")[0].startswith("Accommodate is spelled A, C, C, O, M, M")
    assert spell("neighbor", "british")[0] == "neighbour is spelled N, E, I, G, H, B, O, U, R"
    assert spell("Colour", "american")[0] == "Color is spelled C, O, L, O, R"
    assert spell("ice cream", "british")[0] == "ice cream is spelled I, C, E, space, C, R, E, A, M"


@pytest.mark.parametrize(
    "request_text,reply",
    [("How do you spell neighbor the British way?",
      "neighbour is spelled N, E, I, G, H, B, O, U, R"),
     ("Doing the crossword spell gazebal.", "gazebo is spelled G, A, Z, E, B, O"),
     ("how do you spell colour the american way", "color is spelled C, O, L, O, R"),
     # the letter that tells them apart (Whisper writes the American word it heard)
     ("Spell color with the U please.", "colour is spelled C, O, L, O, U, R"),
     ("how do you spell favour without the u", "favor is spelled F, A, V, O, R")],
)  # fmt: skip
def test_the_toolbox_takes_the_spelling_from_the_request(request_text, reply):
    box = Toolbox()
    bare = box.run("spell", {}, "s1", request=request_text)  # the demo model's bare call
    named = box.run("spell", {"word": spell_args(request_text)["word"]}, "s2",
                    request=request_text)  # a hub model's call names the word
    for run in (bare, named):
        assert run.ok and run.result.lower() == reply.lower()
