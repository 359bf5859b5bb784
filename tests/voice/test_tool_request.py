"""Bare calls (the demo model's: a tool's name, no arguments) read the request from the user's
words, and replies that point at the result say the tool's words."""

from __future__ import annotations

import json
import random

import pytest

from engine.replies import ResultPointer, expand_result
from training.skills_tools import ToolSampler, choose_tool_heldout, json_call
from voice.tools import Toolbox
from voice.tools.request import (
    UnitsReader,
    calculator_args,
    claimed,
    clock_args,
    spell_args,
    timer_args,
)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("What's seventeen times twenty three?", "seventeen times twenty three"),
        ("um, can you work out 15% of 80 for me", "15% of 80"),
        ("Help me with the square root of 81.", "square root of 81"),
        ("what is five point eight eight minus 2", "five point eight eight minus 2"),
        ("Six times two six times two", "six times two"),
    ],
)
def test_calculator_reads_the_expression(text, want):
    assert calculator_args(text)["expression"] == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("what time is it", {"what": "time"}),
        ("What's the date today?", {"what": "date"}),
        ("is it friday yet", {"what": "day"}),
        ("What time zone am I in?", {"what": "zone"}),
        ("How many days until Christmas?", {"what": "until", "date": "christmas"}),
        ("when is the fourth of july", {"what": "when", "date": "the fourth of july"}),
        # an aside after the date is not part of it
        ("how many days till christmas eve, the kids are going mad",
         {"what": "until", "date": "christmas eve"}),
        ("how many days until halloween the kids keep asking",
         {"what": "until", "date": "halloween"}),
        # how long until, with the date named anywhere; the first "to" is not always it
        ("how close are we to valentine's day", {"what": "until", "date": "valentine's day"}),
        ("how far off is new year's day, roughly", {"what": "until", "date": "new year's day"}),
        ("we have to pack, how many weeks to easter", {"what": "until", "date": "easter"}),
        ("how many sleep still christmas", {"what": "until", "date": "christmas"}),  # Whisper
    ],
)
def test_clock_reads_what_is_asked(text, want):
    assert clock_args(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Set a timer for five minutes.", {"action": "set", "duration": "five minutes"}),
        ("set a pasta timer for 10 minutes",
         {"action": "set", "duration": "10 minutes", "label": "pasta"}),
        ("Remind me to call mum in twenty minutes",
         {"action": "remind", "duration": "twenty minutes", "label": "call mum"}),
        ("remind me in an hour to take the bread out",
         {"action": "remind", "duration": "an hour", "label": "take the bread out"}),
        ("cancel all my timers", {"action": "cancel", "label": "all"}),
        ("stop the pizza timer", {"action": "cancel", "label": "pizza"}),
        ("how much time is left on my timer", {"action": "left"}),
        ("what timers do I have", {"action": "list"}),
        ("I need half an hour counted down, please",
         {"action": "set", "duration": "half an hour"}),
        ("turn the pasta timer off", {"action": "cancel", "label": "pasta"}),
        ("I don't need that timer any more, switch it off", {"action": "cancel"}),
        ("set a timer", {"action": "set"}),
        ("set a timer for a few minutes", {"action": "set", "duration": "a few minutes"}),
        ("in an hour, tell me to switch the sprinkler off",
         {"action": "remind", "duration": "an hour", "label": "switch the sprinkler off"}),
        ("I have to ring the plumber in two hours, so nudge me then",
         {"action": "remind", "duration": "two hours", "label": "ring the plumber"}),
        # a name is said with "timer", "for the", "the ... needs"; other words are framing
        ("okay, quickly make a timer for 40 seconds", {"action": "set", "duration": "40 seconds"}),
        ("let's set a meeting timer for 3 hours for me",
         {"action": "set", "duration": "3 hours", "label": "meeting"}),
        ("set a timer for 15 minutes for the yoga",
         {"action": "set", "duration": "15 minutes", "label": "yoga"}),
        ("set a timer for the roast chicken for ninety minutes",
         {"action": "set", "duration": "ninety minutes", "label": "roast chicken"}),
        ("start a timer for the bread in the oven, 20 minutes",
         {"action": "set", "duration": "20 minutes", "label": "bread"}),
        ("a timer for the eggs, I like them runny, six minutes",
         {"action": "set", "duration": "six minutes", "label": "eggs"}),
        ("the rice needs 25 minutes, set a timer",
         {"action": "set", "duration": "25 minutes", "label": "rice"}),
        ("when will the cake be done", {"action": "left", "label": "cake"}),
        # the task ends with its clause; "remind me" and closers are not part of it
        ("five minutes from now I need to send the email, give me a reminder, cheers",
         {"action": "remind", "duration": "five minutes", "label": "send the email"}),
        ("can you let me know in an hour to flip the pancakes?",
         {"action": "remind", "duration": "an hour", "label": "flip the pancakes"}),
        ("I want you to remind me to take my medicine in an hour",
         {"action": "remind", "duration": "an hour", "label": "take my medicine"}),
        ("is it possible to let me know in 60 seconds to call mom for me?",
         {"action": "remind", "duration": "60 seconds", "label": "call mom"}),
    ],
)  # fmt: skip
def test_timer_reads_action_duration_and_label(text, want):
    assert timer_args(text) == want


def test_spell_keeps_the_word_as_said():
    assert spell_args("How do you spell Mississippi?") == {"word": "Mississippi"}
    assert spell_args("spell the word question.") == {"word": "question"}
    assert spell_args("and necessary please") == {"word": "necessary"}


@pytest.mark.parametrize(
    ("text", "word"),
    [("I need necessary spelled out", "necessary"), ("give me the letters of rhythm", "rhythm"),
     ("I'm writing a card, tell me how separate is written", "separate"),
     ("the word conscience, spell it for me", "conscience"), ("spell me parallel", "parallel"),
     ("I never get millennium right, spell it please", "millennium"),
     ("how do you spell accommodate", "accommodate"), ("how is rhythm spelled", "rhythm")],
)  # fmt: skip
def test_spell_finds_the_word_in_any_framing(text, word):
    """ "it" and "me" after "spell" stand for the word named elsewhere, never the word itself."""
    assert spell_args(text) == {"word": word}


def test_units_follow_ups_reuse_the_last_conversion():
    box = Toolbox()
    assert box.run("units", {}, request="How many pounds is five kilos?").result == (
        "five kilograms is about eleven pounds"
    )
    assert box.run("units", {}, request="and ten?").result.startswith("ten kilograms is")
    assert box.run("units", {}, request="what about in grams").result == (
        "ten kilograms is ten thousand grams"
    )


def test_calculator_follow_up_uses_the_last_result():
    box = Toolbox()
    assert box.run("calculator", {}, request="what is six plus seven").result.endswith("thirteen")
    r = box.run("calculator", "{}", request="now multiply that by two")
    assert r.result == "thirteen times two is twenty six"
    assert r.arguments == {} and r.read == {"expression": "multiply that by two"}
    assert box.run("calculator", {}, request="minus six").result == (
        "twenty six minus six is twenty"
    )


def test_a_call_with_arguments_reads_nothing_from_the_request():
    box = Toolbox()
    r = box.run("calculator", {"expression": "2 plus 2"}, request="what is 3 plus 3")
    assert r.result == "two plus two is four" and r.read is None


def test_bare_calls_read_what_copied_arguments_say():
    """Over the corpus's own requests (trained and held-out wordings, with transcript noise): a
    bare call gives the result the call with copied arguments gives, nearly always."""
    for heldout in (False, True):
        s = ToolSampler(random.Random(11), heldout, choose_tool_heldout(random.Random(0)))
        same = total = 0
        for _ in range(1500):
            skill, ex, history = s.exchange()
            if history or skill == "tool_timer" and json_call(ex.call)[0]["arguments"].get(
                "action"
            ) not in ("set", "remind"):
                continue  # results that depend on state the corpus only imagines
            (call,) = json_call(ex.call)
            copied = Toolbox().run(call["name"], json.dumps(call["arguments"])).result
            bare = Toolbox().run(call["name"], {}, request=ex.question).result
            same += copied == bare
            total += 1
        assert total > 800
        assert same / total >= 0.98, (heldout, same, total)


def test_result_pointer_says_the_tool_result():
    msgs = [{"role": "user", "content": "what is 2 plus 2"},
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "tool", "content": "two plus two is four"}]  # fmt: skip
    assert expand_result("<|result|>.", msgs) == "Two plus two is four."
    assert expand_result("Okay, <|result|>.", msgs) == "Okay, two plus two is four."
    p = ResultPointer(msgs)  # streamed in pieces
    assert p.feed("Okay, ") + p.feed("<|result|>") + p.feed(".") == "Okay, two plus two is four."
    # no tool result to point at: the pointer says nothing
    assert expand_result("<|result|>Hello.", msgs[:1]) == "Hello."
    # several results of one round are said together
    two = [*msgs, {"role": "tool", "content": "it's noon"}]
    assert expand_result("<|result|>.", two) == "Two plus two is four, and it's noon."


@pytest.mark.parametrize(
    ("name", "text", "result"),
    [
        ("units", "Convert 30°C to Fahrenheit.",
         "thirty degrees Celsius is eighty six degrees Fahrenheit"),
        ("units", "How many pounds is 5kg?", "five kilograms is about eleven pounds"),
        ("calculator", "What is 12 + 30?", "twelve plus thirty is forty two"),
        ("timer", "Set a 10-minute timer for the pasta.", "pasta timer set for ten minutes"),
        ("spell", 'How do you spell "rhythm"?', "rhythm is spelled R, H, Y, T, H, M"),
    ],
)  # fmt: skip
def test_whisper_style_transcripts(name, text, result):
    """Digits, symbols and punctuation as Whisper writes them."""
    assert Toolbox().run(name, {}, request=text).result == result


def test_one_reader_for_both_bridges_streams_what_the_whole_reply_says():
    """engine.replies.ReplyReader, used by the voice pipeline's LLM and the OpenAI API alike:
    fed a reply in any split, its content deltas are the whole reply's content, its calls are
    the whole reply's calls (each once, named then with arguments), the pointer is replaced in
    both, and text that only looked like the start of a call is given back at the end."""
    from engine.replies import ReplyReader

    msgs = [{"role": "user", "content": "what is 2 plus 2"},
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "tool", "content": "two plus two is four"}]  # fmt: skip
    names = {"timer", "calculator"}
    call = '<tool_call>{"name": "timer", "arguments": {"seconds": "five"}}</tool_call>'
    cases = [
        ("<|result|>.", None),
        ("Okay, <|result|>." + call, names),
        (call + " And <tool", names),  # a tail that could have opened a call, and did not
        ('<tool_call>{"name": "nope", "arguments": {}}</tool_call>Hi.', names),  # unknown tool
        ("Plain <tool_call> text, no tools offered.", None),
    ]
    for text, offered in cases:
        whole = ReplyReader(msgs, offered).message(text)
        for cut in range(1, 9):  # deltas of every size up to 8 characters
            reader = ReplyReader(msgs, offered)
            deltas = [d for k in range(0, len(text), cut) for d in reader.feed(text[k:k + cut])]
            deltas += reader.finish()
            content = "".join(d.get("content", "") for d in deltas)
            assert content.strip() == (whole.content or ""), (text, cut, content)
            named = [c for d in deltas for c in d.get("tool_calls", []) if "id" in c]
            assert [c["function"]["name"] for c in named] == [
                c["function"]["name"] for c in whole.tool_calls]
            assert "<|result|>" not in content
    assert ReplyReader(msgs, None).message("<|result|>.").content == "Two plus two is four."
    parsed = ReplyReader(msgs, names).message("Okay, <|result|>." + call)
    assert parsed.content == "Okay, two plus two is four."
    assert json.loads(parsed.tool_calls[0]["function"]["arguments"]) == {"seconds": "five"}
    assert ReplyReader(None, names).message("<|result|>").content == "<|result|>"  # completions


def test_the_calculator_reads_the_sum_inside_any_framing_and_drops_no_number():
    box = Toolbox()
    for said, result in (
        ("I need 44 and thirty seven added together worked out",
         "forty four plus thirty seven is eighty one"),
        ("192 divided by 12, what does that come out at",
         "one hundred and ninety two divided by twelve is sixteen"),
        ("work 150 split six ways out for me, thanks",
         "one hundred and fifty divided by six is twenty five"),
        ("figure out nine plus sixteen, please", "nine plus sixteen is twenty five"),
        ("then times it by three", "twenty five times three is seventy five"),
    ):  # fmt: skip
        assert box.run("calculator", {}, request=said).result == result
    # "times it" alone is readable (that times that) but would leave "by three" unsaid
    box.calculator.last = None
    assert not box.run("calculator", {}, request="then times it by three").ok


def test_the_calculator_adds_and_multiplies_a_list():
    """A list of three or more numbers, with or without commas, said as a sum or a product; the
    commas Whisper writes at a pause before an operator still leave one calculation."""
    box = Toolbox()
    for said, result in (
        ("add 5, 6 and 7", "five plus six plus seven is eighteen"),
        ("can you add up 12, 30 and 8 for me", "twelve plus thirty plus eight is fifty"),
        ("what do 2, 4, 6 and 8 add up to", "two plus four plus six plus eight is twenty"),
        ("the total of 4 and 5 and 6, please", "four plus five plus six is fifteen"),
        ("what does 12 and 30 come to?", "twelve plus thirty is forty two"),
        ("multiply 2, 3 and 4", "two times three times four is twenty four"),
        ("what is seven, times six", "seven times six is forty two"),
        ("add 5 to 7", "seven plus five is twelve"),
        ("add five", "twelve plus five is seventeen"),  # to the last result
    ):  # fmt: skip
        assert box.run("calculator", {}, request=said).result == result, said


@pytest.mark.parametrize(
    ("named", "said", "used", "result"),
    [
        ("units", "one third of 90, I'm cutting the wood into three", "calculator",
         "a third of ninety is thirty"),
        ("calculator", "how many ml in a cup", "units",
         "one cup is about two hundred and thirty seven milliliters"),
        ("calculator", "spell accommodate, is it one m or two", "spell",
         "accommodate is spelled A, C, C, O, M, M, O, D, A, T, E"),
        ("units", "remind me to flip the steaks in 4 mins", "timer",
         "I'll remind you to flip the steaks in four minutes"),
        ("units", "how many days till christmas eve", "clock", None),
    ],
)  # fmt: skip
def test_a_tool_that_cannot_read_the_request_hands_it_to_one_that_can(named, said, used, result):
    """The model named the wrong tool: the tool that plainly reads the whole request answers."""
    box = Toolbox()
    try:
        run = box.run(named, {}, request=said)
    finally:
        box.close()
    assert run.ok and run.name == used, run
    assert result is None or run.result == result


@pytest.mark.parametrize(
    ("named", "said"),
    [("units", "which continent is the USA on"), ("timer", "set the thermostat to 21"),
     ("calculator", "add eggs to my shopping list"), ("units", "convert five to pounds")],
)  # fmt: skip
def test_no_tool_claims_what_none_reads(named, said):
    """Nothing else plainly reads these: the named tool's own answer stands (a refusal saying
    what would work, or its plain result)."""
    box = Toolbox()
    try:
        run = box.run(named, {}, request=said)
    finally:
        box.close()
    assert run.name == named


def test_a_reminder_keeps_the_names_capitals():
    """A reminder is said back with the capitals its words had (names, "I"), not those of the
    sentence's first word."""
    box = Toolbox()
    for said, result in (
        ("remind me to call John in ten minutes", "I'll remind you to call John in ten minutes"),
        ("Remind me in 5 minutes to text Sarah that I'm late",
         "I'll remind you to text Sarah that I'm late in five minutes"),
        ("In twenty minutes remind me to check the oven",
         "I'll remind you to check the oven in twenty minutes"),
    ):  # fmt: skip
        assert box.run("timer", {}, request=said).result == result
    box.close()


@pytest.mark.parametrize(
    ("said", "what"),
    [("quick, what's the time, I think we're late for the school run", "time"),
     ("what time is it", "time"), ("do you know what time it is", "time"),
     ("what time've you got, my phone's in the other room", "time"),
     ("have you got the time", "time"), ("let me know the time, I've got a train", "time"),
     ("is it lunchtime yet, what's the actual time", "time"), ("time?", "time"),
     ("today's date? it's for a form", "date"), ("I need today's date for a form", "date"),
     ("what year is it, I keep writing the wrong one", "date"),
     ("what month are we in", "date"), ("what day is it today", "day"),
     ("remind me which weekday we're on", "day"),
     ("I can never keep track of what weekday it is today", "day")],
)  # fmt: skip
def test_the_clock_claims_a_question_of_the_time_now(said, what):
    """A clause that asks for the time, date, weekday or year as it is now is the clock's,
    whatever else the request says."""
    assert claimed("clock", said, UnitsReader(), None) == {"what": what}


@pytest.mark.parametrize(
    "said",
    ["what time does the film start", "what's the date of easter", "what's the time in tokyo",
     "what's the day after monday", "it's time for bed",
     "set a timer for the time it takes", "what's the weather today", "put Radio 2 on"],
)  # fmt: skip
def test_the_clock_does_not_claim_other_questions_about_times(said):
    # ("what day is christmas" is: the weekday of a date, tests/voice/test_dated.py)
    """A time asked of something else (a film, a holiday, another place), a day asked in
    relation to another, or no question of the time at all."""
    assert claimed("clock", said, UnitsReader(), None) is None


@pytest.mark.parametrize(
    ("said", "claims"),
    [("time six minutes for the eggs please", True), ("the roast needs 4 minutes, time it", True),
     ("time for bed in ten minutes", False), ("what time is it in ten minutes", False)],
)  # fmt: skip
def test_time_as_a_verb_asks_for_a_timer(said, claims):
    """"Time six minutes", "time it": the verb asks for a timer; "time for", "time is" do not."""
    assert (claimed("timer", said, UnitsReader(), None) is not None) == claims


@pytest.mark.parametrize(
    ("said", "claims"),
    [("what is 4 cube", ("calculator",)), ("the cube of 5, quick", ("calculator",)),
     ("how many square feet in 5 square metres", ("units",)),
     ("convert 20 square metres to square feet", ("units",))],
)  # fmt: skip
def test_a_power_said_as_square_or_cube_is_not_a_square_unit(said, claims):
    """"4 cube" is a power; "5 square metres" is an area, for the units tool alone."""
    box = Toolbox()
    try:
        assert box.claims(said, {"timer", "spell", "calculator", "units", "clock"}) == claims
    finally:
        box.close()
