"""What a conversation refers back to: "spell that" after a fact, "spell it again", "how many
moons has it got" after a planet, "could you repeat that"; and the words around a request that
are said to the listener, not of it (", dear?", "fr"); an ounce of a liquid."""

from __future__ import annotations

import pytest

from tests.voice.test_tools import ScriptedLLM
from voice.tools import Toolbox, answer
from voice.tools.facts import Facts, read_fact
from voice.tools.request import repeat_asked, typed_text
from voice.tools.units import convert
from words.facts import COUNTRIES, PLANETS
from words.spoken import ordinal_words


def _talk(replies, *turns):
    llm = ScriptedLLM(replies)
    box = Toolbox()
    msgs: list[dict] = []
    out = []
    for t in turns:
        msgs.append({"role": "user", "content": t})
        a = answer(llm, msgs, box, lambda _: None)
        msgs.append({"role": "assistant", "content": a.text})
        out.append(a)
    box.close()
    return out


@pytest.mark.parametrize("k", range(12))
def test_spell_that_after_a_fact_spells_its_answer(k):
    c = COUNTRIES[k]
    ask = ["can you spell that?", "how do you spell it", "spell that for me please"][k % 3]
    # the model routes both turns wrongly; the facts and the speller answer
    a = _talk([("I don't know.", []), ("", []), ("", [])], f"what's the capital of {c.name}",
              ask)[-1]
    first = c.capital.split(",")[0]
    assert a.text.startswith(f"{first} is spelled {first[0].upper()}, "), a.text


def test_spell_it_again_spells_the_same_word():
    a = _talk([("", [("spell", {"word": "rhythm"})]), ("", []), ("", [("spell", {})]), ("", [])],
              "how do you spell rhythm", "spell it again")[-1]
    assert a.text == "Rhythm is spelled R, H, Y, T, H, M."


@pytest.mark.parametrize("p", PLANETS)
def test_a_planets_moons_asked_of_it(p):
    facts = Facts()
    facts.read(f"which planet is {ordinal_words(p.order)} from the sun", 1)
    got = facts.read("and how many moons has it got?", 2)
    assert got is not None and got.relation == "moons" and got.subject == p.name


def test_a_book_is_not_booking():
    assert read_fact("What's the capital of Russia? We're reading a bedtime book about it.")
    assert read_fact("book me a flight to Paris") is None


@pytest.mark.parametrize(
    "said", ["Could you repeat that, please?", "say that again", "sorry, what was that?",
             "pardon?", "come again?", "one more time please", "I didn't catch that"],
)  # fmt: skip
def test_repeat_asked(said):
    assert repeat_asked(said)


@pytest.mark.parametrize("said", ["repeat after me: hello", "say hello", "sorry, I meant six"])
def test_not_a_repeat(said):
    assert not repeat_asked(said)


def test_a_repeat_says_the_last_answer_again_without_the_model():
    a, b = _talk([("", [("spell", {"word": "Braille"})]), ("", [])],
                 "How do you spell Braille?", "Could you repeat that, please?")
    assert b.text == a.text == "Braille is spelled B, R, A, I, L, L, E."
    assert b.stats == {"repeated": 1}


@pytest.mark.parametrize(
    "said,meant",
    [("What's 57 and 61, dear?", "What's 57 and 61?"), ("whats the date today fr", "whats the "
     "date today"), ("what day is it today honestly", "what day is it today"),
     ("Tell me the time, young man?", "Tell me the time?"), ("capital of kenya fr fr",
     "capital of kenya"), ("how do you spell dear", "how do you spell dear"),
     ("how do you spell honestly", "how do you spell honestly"),
     ("what's the capital of the isle of man", "what's the capital of the isle of man")],
)  # fmt: skip
def test_words_said_to_the_listener_are_not_the_request(said, meant):
    assert typed_text(said) == meant


@pytest.mark.parametrize(
    "value,src,dst,said",
    [("2", "oz", "ml", "two fluid ounces is about fifty nine point one milliliters"),
     ("90", "millilitres", "ounces", "ninety milliliters is about three point zero four fluid "
                                     "ounces"),
     ("4", "ounces", "grams", "four ounces is about one hundred and thirteen grams")],
)  # fmt: skip
def test_an_ounce_of_a_liquid_is_a_fluid_ounce(value, src, dst, said):
    assert convert(value, src, dst) == (said, True)


# -- past an acknowledgement, and the same sum again ---------------------------------------------
@pytest.mark.parametrize("ack", ["Okay.", "ty", "thanks, sounds fun", "cool", "k thanks"])
def test_an_acknowledgement_is_answered_and_referred_past(ack):
    a = _talk([("The currency of Spain is the euro.", []), ("", [])],
              "What currency do they use in Spain?", ack, "And what's the capital?")  # fmt: skip
    assert a[1].text in ("Okay.", "You're welcome.") and a[1].stats == {"acknowledged": 1}
    assert a[2].text == "The capital of Spain is Madrid."
    b = _talk([("", [("calculator", {})]), ("", []), ("", [("calculator", {})]), ("", [])],
              "36 times 11?", ack, "ok now halve that")[-1]  # fmt: skip
    assert "one hundred and ninety eight" in b.text


@pytest.mark.parametrize(
    "first,again,value",
    [("whats 30% of 395", "and 75%?", "two hundred and ninety six point two five"),
     ("$231 split 7 ways", "what if it's 3 ways", "seventy seven"),
     ("what's 240 divided by 8", "and between 6?", "forty"),
     ("What's 42 divided by three?", "Now times that by six.", "eighty four"),  # on the result
     ("Wetin be 2,400 plus 600?", "Multiply am by five.", "fifteen thousand")],  # pidgin's "am"
)  # fmt: skip
def test_the_last_sum_asked_again_of_a_new_number(first, again, value):
    a = _talk([("", [("calculator", {})]), ("", []), ("", [("calculator", {})]), ("", [])],
              first, again)[-1]  # fmt: skip
    assert value in a.text, a.text


def test_a_question_after_a_spelling_is_not_another_word_to_spell():
    a = _talk([("", [("spell", {"word": "Saturn"})]), ("", []), ("Smallest.", [])],
              "How do you spell Saturn?", "Okay. Which planet is the smallest?")[-1]  # fmt: skip
    assert a.text == "Mercury is the smallest planet."


def test_cancelling_a_running_timer_is_the_timers():
    box = Toolbox()
    box.run("timer", {"action": "set", "duration": "15 minutes", "label": "bottle"})
    offered = {"timer", "calculator", "units", "clock", "spell"}
    assert box.claims("cancel the bottle timer", offered) == ("timer",)
    assert box.claims("cancel my subscription", offered) == ()
    box.close()
    assert Toolbox().claims("cancel the bottle timer", offered) == ()  # none running


@pytest.mark.parametrize(
    "first,again,value",
    [("Alexa, what's 10% of 40?", "Alexa, what about 360?", "thirty six"),
     ("Search 40% of 150.", "Same for 1,200.", "four hundred and eighty"),
     ("calculate 52 times 12", "how about times 7", "three hundred and sixty four"),
     ("17 times ten.", "I said 70, not 17.", "seven hundred"),
     ("what's 70 percent of 90", "i said 17 not 70", "fifteen point three")],
)  # fmt: skip
def test_habits_of_other_assistants_for_the_last_sum(first, again, value):
    a = _talk([("", [("calculator", {})]), ("", []), ("", [("calculator", {})]), ("", [])],
              first, again)[-1]  # fmt: skip
    assert value in a.text, a.text


@pytest.mark.parametrize(
    "said,meant",
    [("Alexa, what's 10% of 40?", "what's 10% of 40?"), ("hey google queue spelling",
     "queue spelling"), ("OK Google, when is Easter 2027", "when is Easter 2027"),
     ("Hi Bixby, spell handkerchief.", "spell handkerchief."), ("siri whats the time",
     "whats the time"), ("google is spelled how", "google is spelled how"),
     ("computer science is hard, spell it", "computer science is hard, spell it")],
)  # fmt: skip
def test_another_assistants_name_said_first_is_not_the_request(said, meant):
    assert typed_text(said) == meant


def test_a_timer_turned_off_and_a_conversion_named_twice():
    box = Toolbox()
    box.run("timer", {"action": "set", "duration": "22 minutes"})
    offered = {"timer", "calculator", "units", "clock", "spell"}
    assert box.claims("timer off", offered) == ("timer",)
    assert box.run("timer", {}, "t", request="timer off").result == "the timer is cancelled"
    r = box.run("units", {}, "u", request="miles to kilometers 100 miles")
    assert r.result == "one hundred miles is about one hundred and sixty one kilometers"
    box.turn += 1
    assert box.run("units", {}, "u2", request="now 13 miles").result.startswith(
        "thirteen miles is about twenty point nine kilometers")
    box.close()


@pytest.mark.parametrize(
    "said,reply",
    [("weather this weekend", "The, is Saturday and Sunday."),
     ("Tune to Kiss FM.", "Hello! How can I help you?")],
)  # fmt: skip
def test_a_reply_that_cannot_be_right_says_so(said, reply):
    a = _talk([(reply, [])], said)[-1]
    assert a.text != reply and a.text.startswith("Sorry, I can't")
    ok = _talk([("Sorry, I can't check the weather, because I work offline.", [])],
               "is it going to rain")[-1]  # fmt: skip
    assert ok.text == "Sorry, I can't check the weather, because I work offline."
    hi = _talk([("Hello! How can I help you?", [])], "hi there")[-1]
    assert hi.text == "Hello! How can I help you?"


def test_a_date_named_in_a_follow_up_to_a_count():
    a = _talk([("", [("clock", {})]), ("", []), ("", [("clock", {})]), ("", [])],
              "how many days until new year's", "and my birthday on june 27")[-1]  # fmt: skip
    assert a.text.startswith("June twenty seventh is in"), a.text


def test_reading_from_a_source_what_it_names():
    from voice.tools.request import spell_args

    for said, word in (("the bill says espresso. how do you spell that i'm doing my expenses",
                        "espresso"),
                       ("The calendar just says rehearsal in my handwriting. How do you spell "
                        "it properly?", "rehearsal"),
                       ("The seed packet says begonia. How do you spell it for my garden "
                        "notebook?", "begonia")):  # fmt: skip
        assert spell_args(typed_text(said))["word"] == word


def test_a_conversion_follow_up_keeps_the_unit_wanted():
    box = Toolbox()
    box.run("units", {}, "u", request="the card says bake at 210 degrees celsius, what's that "
                                      "in fahrenheit")  # fmt: skip
    box.turn += 1
    r = box.run("units", {}, "u2", request="and 230 celsius for the last ten minutes")
    assert r.result == "two hundred and thirty degrees Celsius is four hundred and forty six " \
        "degrees Fahrenheit"  # fmt: skip


def test_the_same_timer_asked_again_a_moment_later_is_one_timer():
    from voice.tools.timers import Timers

    t = Timers(None)
    t.call("set", "8 minutes", "")
    t.call("set", "8 minutes", "beat")  # the whole utterance, after a pause's answer
    assert [x.label for x in t.active()] == ["beat"]
    t.call("set", "10 minutes", "pasta")
    t.call("set", "10 minutes", "sauce")  # two names: two timers
    assert sorted(x.label for x in t.active()) == ["beat", "pasta", "sauce"]
    t.close()


@pytest.mark.parametrize(
    "first,then,expect",
    [("What day of the week is the 24th of May, 2027? That's when my train goes out.",
      "And the return on the 14th?", "May fourteenth, twenty twenty seven is a Friday"),
     ("what day of the week is 9 september 2027 it's the party on the invitation",
      "and the 19th, for the brunch", "is a Sunday"),
     ("how many days until 1 january 2028", "and the 28th?", "January twenty eighth, twenty "
                                                              "twenty eight is in")],
)  # fmt: skip
def test_a_day_of_the_month_after_a_date_asks_the_same_of_it(first, then, expect):
    a = _talk([("", [("clock", {})]), ("", []), ("", [("clock", {})]), ("", [])],
              first, then)[-1]  # fmt: skip
    assert expect in a.text, a.text


def test_a_reminder_in_whispers_mins():
    from voice.tools.request import timer_args

    assert timer_args("Remind me to flip the stakes in four men.") == {
        "action": "remind", "duration": "four men", "label": "flip the stakes"}
    box = Toolbox()
    offered = {"timer", "calculator", "units", "clock", "spell"}
    assert box.claims("Remind me to flip the stakes in four men.", offered) == ("timer",)
    assert box.claims("we need chairs for four men", offered) == ()  # no timer asked
    box.close()
