"""The facts tool: questions about countries, planets, days and months read by what they name and
what they ask, in any wording, and the tool loop's check of the model's reply against them."""

from __future__ import annotations

import random

import pytest

from tests.voice.test_tools import ScriptedLLM
from voice.tools import Toolbox, answer
from voice.tools.facts import NOT_ASKED, Facts, read_fact, unasked
from words.calendar import MONTHS, WEEKDAYS
from words.facts import COUNTRIES, PLANETS
from words.spoken import ordinal_words

# Frames written for this test, around the thing named and the thing asked, in both orders.
ASKS = {
    "capital": ("capital", "capital city", "seat of government"),
    "currency": ("currency", "money", "cash"),
    "language": ("language", "languages"),
    "continent": ("continent",),
}
FRAMES = (
    "what's the {ask} of {name}",
    "{name}, {ask}?",
    "quick one, {ask} for {name}, it's for the quiz",
    "I forget the {ask} in {name}",
    "hmm {name} {ask} please",
)


def test_every_country_and_question_in_generated_wordings():
    rng = random.Random(7)
    for c in COUNTRIES:
        for relation, words in ASKS.items():
            for name in c.surfaces:
                q = rng.choice(FRAMES).format(ask=rng.choice(words), name=name)
                fact = read_fact(q)
                assert fact is not None and fact.relation == relation, q
                assert fact.subject == c.name, q


@pytest.mark.parametrize("p", PLANETS, ids=lambda p: p.name)
def test_planets_by_order_both_ways_in_digits_and_words(p):
    nth = ordinal_words(p.order)
    digits = f"{p.order}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(p.order, 'th') }".replace(" ", "")
    for q in (f"which planet is {nth} from the sun", f"the {digits} planet, which is it",
              f"name the {nth} planet"):  # fmt: skip
        fact = read_fact(q)
        assert fact is not None and fact.sentence.endswith(f" is {p.name}."), q
    for q in (f"where does {p.name} come in order from the sun",
              f"{p.name}: what number planet is that"):  # fmt: skip
        fact = read_fact(q)
        assert fact is not None and fact.keys == (p.name, nth), q
    assert read_fact(f"how many moons has {p.name} got").relation == "moons"


@pytest.mark.parametrize(
    "q,answer",
    [("biggest planet, is it Saturn?", "Jupiter"),
     ("the planet furthest out from the sun", "Neptune"), ("smallest of the planets?", "Mercury"),
     ("what's the hottest planet", "Venus"), ("which planet is nearest the sun", "Mercury")],
)  # fmt: skip
def test_superlatives(q, answer):
    assert read_fact(q).answer == answer


def test_days_and_months_along_the_order():
    for i, d in enumerate(WEEKDAYS):
        assert read_fact(f"what day comes after {d}").answer == WEEKDAYS[(i + 1) % 7]
        assert read_fact(f"which day is before {d.lower()}").answer == WEEKDAYS[i - 1]
    for i, m in enumerate(MONTHS):
        assert read_fact(f"what month follows {m}").answer == MONTHS[(i + 1) % 12]
        assert read_fact(f"the month before {m}?").answer == MONTHS[i - 1]
        assert read_fact(f"{m}, what number month is it").keys == (ordinal_words(i + 1),)
        assert read_fact(f"what's the {ordinal_words(i + 1)} month").answer == m
    assert "twenty eight" in read_fact("how many days are in February").sentence
    assert read_fact("may I ask what comes after June").answer == "July"


@pytest.mark.parametrize(
    "q",
    ["what's the weather in Spain", "what time is it in Japan",
     "how many days until the 3rd of May",
     "remind me after Thursday to call mum", "what's the date next Friday",
     "book flights to France in June", "order more tea", "play some French music",
     "what's the capital of France or Spain", "tell me a joke about Mars and Venus",
     "what's five times six", "how do you spell Wednesday", "what's the euro to pound rate",
     "is Saturn bigger than Jupiter"],
)  # fmt: skip
def test_questions_that_are_not_one_fact_are_left_alone(q):
    assert read_fact(q) is None


def test_follow_ups_read_against_the_turn_before():
    def last(*turns):
        facts = Facts()
        return [facts.read(t, k) for k, t in enumerate(turns)][-1]

    assert last("capital of Germany?", "and Argentina?").sentence == \
        "The capital of Argentina is Buenos Aires."  # fmt: skip
    assert last("capital of Nigeria?", "and what money do they use there").answer == "" and \
        last("capital of Nigeria?", "and what money do they use there").relation == "currency"
    assert last("what's the fifth planet", "and the 6th?").answer == "Saturn"
    assert last("what's the fourth planet", "and the next one out").answer == "Jupiter"
    assert last("what comes after September", "and the one after that?").answer == "November"
    assert last("what comes before March", "and before that?").answer == "January"
    assert last("biggest planet?", "and the smallest").answer == "Mercury"
    # only right after a fact: a turn in between, or a reset, forgets it
    facts = Facts()
    facts.read("capital of Germany?", 0)
    assert facts.read("and Argentina?", 2) is None
    facts.read("capital of Germany?", 3)
    facts.forget()
    assert facts.read("and Argentina?", 4) is None
    # a follow-up that asks something else is not a fact
    assert last("capital of Germany?", "set a timer for five minutes") is None


def _ask(replies, *turns):
    llm = ScriptedLLM(replies)
    box = Toolbox()
    heard: list[str] = []
    msgs: list[dict] = []
    out = None
    for t in turns:
        heard.clear()
        msgs.append({"role": "user", "content": t})
        out = answer(llm, msgs, box, heard.append)
        msgs.append({"role": "assistant", "content": out.text})
    box.close()
    return out, heard


def test_the_loop_keeps_a_reply_that_says_the_fact_and_replaces_one_that_does_not():
    a, heard = _ask([("Bangkok is the capital of Thailand, in Asia.", [])],
                    "Thailand's capital city?")  # fmt: skip
    assert a.text == "Bangkok is the capital of Thailand, in Asia." and a.stats["fact"] == "model"
    assert heard == [a.text]
    a, heard = _ask([("The capital of the Netherlands is Amsterdam.", [])],
                    "which city is Japan governed from")  # fmt: skip
    assert a.text == "The capital of Japan is Tokyo." and a.stats["fact"] == "table"
    assert heard == [a.text]  # the wrong reply was never heard


def test_the_loop_never_runs_a_tool_the_model_called_for_a_fact():
    a, _ = _ask([("", [("timer", {"action": "list"})])], "the continent Italy sits on")
    assert a.text == "Italy is in Europe." and a.tools == []


def test_a_follow_up_fact_in_the_loop():
    a, _ = _ask([("The capital of Germany is Berlin.", []),
                 ("Sorry, I can't look up live scores or prices.", [])],
                "quiz sheet says capital of Germany, what is it", "and Argentina?")  # fmt: skip
    assert a.text == "The capital of Argentina is Buenos Aires."


def test_a_speculation_of_the_same_utterance_steps_once():
    facts = Facts()
    assert facts.read("what comes after September", 0).answer == "October"
    assert facts.read("and the one after", 1).answer == "November"  # spoken up to a pause
    assert facts.read("and the one after that?", 2).answer == "November"  # the whole turn
    assert facts.read("and the one after that?", 3).answer == "December"  # asked again


# -- a fact nobody asked for -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,said",
    [("The eighth planet from the Sun is Neptune.", "order 2 masala dosa from swiggy"),
     ("The currency of Thailand is the zloty.", "At 480 and 550 for me, this is the rent."),
     ("Canberra is lovely.", "put the kettle on")],
)  # fmt: skip
def test_a_fact_about_something_nobody_named_is_unasked(reply, said):
    assert unasked(reply, said)


@pytest.mark.parametrize(
    "reply,said",
    [("Jupiter is the largest planet.", "which planet is the biggest"),
     ("The capital of France is Paris.", "and France?"),
     ("It's Canberra.", "what about Australia"),
     ("Australia uses it.", "who pays in the Australian dollar"),
     ("Venus is the hottest.", "tell me a fun fact"),
     ("Hello! How can I help you?", "hi there"),
     ("Six plus seven is thirteen.", "what is six plus seven")],
)  # fmt: skip
def test_a_fact_about_what_was_named_or_asked_is_not(reply, said):
    assert not unasked(reply, said)


def test_the_loop_never_says_a_fact_nobody_asked_for():
    a, heard = _ask([("The eighth planet from the Sun is Neptune.", [])],
                    "order 2 masala dosa from swiggy")  # fmt: skip
    assert a.text == NOT_ASKED and heard == [NOT_ASKED]  # (an order: no fact, whatever it is)
    a, heard = _ask([("Sure. The capital of Japan is Tokyo. Anything else?", [])],
                    "can you book me a table for two")  # fmt: skip
    assert a.text == NOT_ASKED and "Tokyo" not in "".join(heard)  # (a booking: no pretending)
    a, _ = _ask([("The capital of Japan is Tokyo.", []),
                 ("Its currency is the yen, in Japan.", [])],
                "capital of Japan?", "and what do they pay with")  # fmt: skip
    assert "yen" in a.text  # named the turn before


def test_every_country_of_the_world_in_generated_wordings():
    from words.world import NATIONS, WORLD

    rng = random.Random(11)
    for c in WORLD + NATIONS:
        for relation, words in ASKS.items():
            name = rng.choice(c.surfaces)
            q = rng.choice(FRAMES).format(ask=rng.choice(words), name=name)
            fact = read_fact(q)
            assert fact is not None and fact.relation == relation and fact.subject == c.name, q


def test_a_country_the_model_never_learned_is_answered_from_the_table():
    a, _ = _ask([("The capital of Argentina is Buenos Aires.", [])], "what is the capital of peru")
    assert a.text == "The capital of Peru is Lima." and a.stats["fact"] == "table"
