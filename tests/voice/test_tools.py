"""The built-in tools: calculator, units, clock, timers, spelling, the toolbox and the tool loop."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from voice.tools import TOOL_NAMES, TOOL_SPECS, Toolbox, answer
from voice.tools.calculator import Calculator
from voice.tools.clock import Clock, parse_date
from voice.tools.spell import spell
from voice.tools.timers import Timers, parse_duration
from voice.tools.units import convert
from words.quantity import read_number
from words.spoken import int_words, number_words


@pytest.mark.parametrize(
    "text,value",
    [("seventeen", 17), ("twenty three", 23), ("one hundred and five", 105), ("a hundred", 100),
     ("two point five", Fraction(5, 2)), ("3 million", 3_000_000), ("minus ten", -10),
     ("two and a half", Fraction(5, 2)), ("1,000", 1000), ("twelve hundred", 1200)],
)  # fmt: skip
def test_spoken_numbers_are_read(text, value):
    got = read_number(text.split())
    assert got is not None and got[0] == value and got[1] == len(text.split())


def test_numbers_are_said_in_words():
    assert int_words(391) == "three hundred and ninety one"
    assert int_words(2_500_000) == "two million five hundred thousand"
    assert number_words(Fraction(10, 3)) == "about three point three three"
    assert number_words(Fraction(7, 4)) == "one point seven five"


@pytest.mark.parametrize(
    "expr,said",
    [
        ("seventeen times twenty three", "seventeen times twenty three is three hundred and "
                                         "ninety one"),
        ("17 x 23", "seventeen times twenty three is three hundred and ninety one"),
        ("what is 12 plus 30", "twelve plus thirty is forty two"),
        ("fifteen percent of eighty", "fifteen percent of eighty is twelve"),
        ("15% of 80", "fifteen percent of eighty is twelve"),
        ("the square root of eighty one", "the square root of eighty one is nine"),
        ("root 2", "the square root of two is about one point four one"),
        ("2^10", "two to the power of ten is one thousand and twenty four"),
        ("seven squared", "seven squared is forty nine"),
        ("5 cube", "five cubed is one hundred and twenty five"),  # Whisper's "five cubed"
        ("12 square plus 1", "twelve squared plus one is one hundred and forty five"),
        ("the cube of 4", "four cubed is sixty four"),
        ("the square of twelve", "twelve squared is one hundred and forty four"),
        ("2.5 + 3.75", "two point five plus three point seven five is six point two five"),
        ("subtract 3 from 10", "ten minus three is seven"),
        ("add 4 and 5", "four plus five is nine"),
        ("(2 + 3) * 4", "(two plus three) times four is twenty"),
        ("2 + 3 * 4", "two plus three times four is fourteen"),
        ("10 / 3", "ten divided by three is about three point three three"),
        ("five divided by zero", "you can't divide by zero"),
        ("10 to the power of 100", "ten to the power of one hundred is too large a number to "
                                   "say"),
    ],
)  # fmt: skip
def test_calculator_is_exact_and_says_it(expr, said):
    assert Calculator().calculate(expr).text == said


def test_calculator_follow_ups_use_the_last_result():
    c = Calculator()
    assert c.calculate("six plus seven").text.endswith("thirteen")
    assert c.calculate("multiply that by two").text == "thirteen times two is twenty six"
    assert c.calculate("add five").text == "twenty six plus five is thirty one"
    assert c.calculate("divided by 2").text.startswith("thirty one divided by two is fifteen")
    assert not Calculator().calculate("times two").ok  # nothing to refer to yet


def test_calculator_never_evaluates_code_and_bounds_work():
    c = Calculator()
    for bad in ("__import__('os').system('true')", "banana split", "9 ** 9 ** 9 ** 9", "",
                "(" * 400):  # fmt: skip
        t0 = time.perf_counter()
        r = c.calculate(bad)
        assert not r.ok and r.text
        assert time.perf_counter() - t0 < 1.0


def test_units_convert_with_pint():
    assert convert("five", "kilos", "pounds") == ("five kilograms is about eleven pounds", True)
    assert convert("twenty", "degrees C", "degrees F")[0] == \
        "twenty degrees Celsius is sixty eight degrees Fahrenheit"
    assert convert("three", "hours", "minutes")[0] == \
        "three hours is one hundred and eighty minutes"
    assert convert("60", "mph", "km an hour")[0].startswith("sixty miles per hour is about")
    assert convert("five", "kilos", "miles") == \
        ("sorry, I can't convert kilograms to miles", False)
    assert not convert("five", "blorbs", "miles")[1]


def test_clock_answers_from_the_given_time():
    now = datetime(2026, 12, 3, 16, 5, tzinfo=UTC)
    c = Clock(lambda: now)
    assert c.ask("time") == ("it's four oh five PM", True)
    assert c.ask("date") == ("today is Thursday, December third, twenty twenty six", True)
    assert c.ask("day") == ("today is Thursday", True)
    assert c.ask("until", "christmas") == ("Christmas is in twenty two days", True)
    assert c.ask("until", "new year's eve")[0] == "New Year's Eve is in twenty eight days"
    assert c.ask("until", "march third")[0] == "March third is in ninety days"
    assert c.ask("zone")[0] == "the time zone here is Coordinated Universal Time"
    assert not c.ask("until", "my birthday")[1]
    assert parse_date("the 4th of july", now.date())[1].isoformat() == "2027-07-04"


@pytest.mark.parametrize(
    "text,secs",
    [("five minutes", 300), ("an hour and a half", 5400), ("2 minutes 30 seconds", 150),
     ("half an hour", 1800), ("a quarter of an hour", 900), ("1:30", 90), ("a minute", 60),
     ("four men's", 240), ("four men", 240), ("banana", None)],  # Whisper's "mins"
)  # fmt: skip
def test_durations(text, secs):
    assert parse_duration(text) == secs


def test_timers_set_list_cancel_left_with_a_fake_clock():
    now = [1000.0]
    fired = []
    t = Timers(lambda timer, text: fired.append(text), clock=lambda: now[0])
    assert t.call("set", "five minutes", "pasta") == ("pasta timer set for five minutes", True)
    assert t.call("remind", "ten minutes", "call mom") == \
        ("I'll remind you to call mom in ten minutes", True)
    now[0] += 60
    assert t.call("list")[0] == ("you have two timers, pasta with four minutes left, and call "
                                 "mom with nine minutes left")  # fmt: skip
    assert t.call("left", label="pasta")[0] == "four minutes left on the pasta timer"
    assert t.call("cancel", label="pasta") == ("the pasta timer is cancelled", True)
    assert t.call("cancel", label="eggs") == ("there's no eggs timer", False)
    assert t.call("cancel", label="all") == ("cancelled one timer", True)
    assert t.call("list")[0] == "you have no timers"
    assert not t.call("set", "three days")[1]
    t.close()
    assert fired == []


def test_a_name_said_later_finds_the_one_timer_set_without_a_name():
    """ "Timer for 8 minutes, the bread's in" sets a timer with no name; "how much longer on
    the bread?" asks about it. A name that matches no named timer still says so, and "the
    lasagne's" is the lasagne timer."""
    now = [0.0]
    t = Timers(None, clock=lambda: now[0])
    t.call("set", "8 minutes")
    now[0] += 120
    said, ok = t.call("left", label="bread")
    assert ok and said.startswith("six minutes left"), said
    t.call("set", "forty minutes", "lasagne")
    assert t.call("left", label="bread") == ("there's no bread timer", False)  # two: which?
    assert t.call("cancel", label="lasagne's") == ("the lasagne timer is cancelled", True)
    t.close()


def test_a_timer_fires_on_the_loop_and_closing_cancels_the_rest():
    async def main():
        fired = []
        loop = asyncio.get_running_loop()
        t = Timers(lambda timer, text: fired.append(text), loop)
        done = await asyncio.to_thread(t.call, "set", "1 second", "tea")  # from a worker thread
        assert done[1]
        t.call("set", "one minute")
        await asyncio.sleep(1.5)
        assert fired == ["Your tea timer is done."]
        t.close()
        assert t.active() == []
        return fired

    assert asyncio.run(main()) == ["Your tea timer is done."]


def test_a_timer_fires_on_a_thread_without_a_loop():
    got = threading.Event()
    t = Timers(lambda timer, text: got.set())
    t.call("remind", "1 second", "stretch")
    assert got.wait(3)
    t.close()


def test_spelling():
    assert spell("necessary") == ("necessary is spelled N, E, C, E, S, S, A, R, Y", True)
    assert spell("ice cream")[0] == "ice cream is spelled I, C, E, space, C, R, E, A, M"
    assert not spell("123")[1]


def test_toolbox_runs_calls_and_reports_bad_ones():
    box = Toolbox()
    r = box.run("calculator", json.dumps({"expression": "6 * 7"}), "c1")
    assert r.ok and r.result == "six times seven is forty two" and r.ms >= 0
    assert not box.run("rm", {"path": "/"}).ok
    assert not box.run("calculator", "{not json").ok
    assert box.run("units", {"value": 1, "from": "mile", "to": "km"}).ok
    assert [s["function"]["name"] for s in TOOL_SPECS] == list(TOOL_NAMES)
    box.close()


class ScriptedLLM:
    """Replies from a script, recording the conversations it was given (the loop's contract
    with voice.llm: stream(messages, on_text, rid, tools=...) → Reply)."""

    def __init__(self, replies):
        from voice.llm import Reply

        self.Reply = Reply
        self.replies = list(replies)
        self.seen = []
        self.choices = []

    def stream(self, messages, on_text, request_id=None, *, tools=None, tool_choice=None, **kw):
        self.seen.append((messages, tools))
        self.choices.append(tool_choice)
        text, calls = self.replies.pop(0)
        if text:
            on_text(text)
        reason = "tool_calls" if calls else "stop"
        tc = [{"id": f"c{i}", "type": "function",
               "function": {"name": n, "arguments": json.dumps(a)}} for i, (n, a) in
              enumerate(calls)]  # fmt: skip
        return self.Reply(text, reason, {"nfe": 2, "tokens": 5}, tc)


def test_the_tool_loop_calls_sends_results_back_and_remembers():
    llm = ScriptedLLM([("", [("calculator", {"expression": "six plus seven"})]),
                       ("Six plus seven is thirteen.", [])])  # fmt: skip
    box = Toolbox()
    heard = []
    a = answer(llm, [{"role": "user", "content": "what is six plus seven"}], box, heard.append)
    assert a.text == "Six plus seven is thirteen." and heard == [a.text]
    assert [t.result for t in a.tools] == ["six plus seven is thirteen"]
    second = llm.seen[1][0]
    assert second[-1] == {"role": "tool", "tool_call_id": "c0",
                          "content": "six plus seven is thirteen"}  # fmt: skip
    assert second[-2]["tool_calls"][0]["function"]["name"] == "calculator"
    assert a.stats["tool_calls"] == 1 and a.stats["nfe"] == 4 and "tool_ms" in a.stats
    assert a.messages == second[-2:]  # the call and its result, to remember


def test_the_tool_loop_says_the_tool_sentence_when_the_model_only_calls():
    llm = ScriptedLLM([("", [("clock", {"what": "day"})])] * 3)
    box = Toolbox(clock=Clock(lambda: datetime(2026, 12, 3, 9, 0)))
    a = answer(llm, [{"role": "user", "content": "what day is it"}], box, lambda t: None)
    assert a.text == "Today is Thursday."


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}  # fmt: skip


def _names(tools):
    return [t["function"]["name"] for t in tools or []]


def test_a_call_of_a_client_function_ends_the_turn_with_the_call():
    """The client's functions are offered before the built-in tools; when the model calls one,
    nothing is said and nothing more is generated: the call is the answer, for the client."""
    llm = ScriptedLLM([("", [("get_weather", {"city": "Paris"})])])
    box, heard = Toolbox(), []
    a = answer(llm, [{"role": "user", "content": "weather in paris"}], box, heard.append,
               functions=[WEATHER])
    assert a.finish_reason == "tool_calls" and a.text == "" and heard == []
    (call,) = a.calls
    assert call["function"]["name"] == "get_weather"
    assert json.loads(call["function"]["arguments"]) == {"city": "Paris"}
    assert len(llm.seen) == 1 and _names(llm.seen[0][1]) == ["get_weather", *TOOL_NAMES]
    assert llm.choices == ["auto"]
    assert a.tools == [] and a.stats["function_calls"] == 1


def test_built_in_calls_beside_a_client_call_still_run():
    llm = ScriptedLLM([("", [("calculator", {"expression": "two plus two"}),
                             ("get_weather", {"city": "Oslo"})])])  # fmt: skip
    a = answer(llm, [{"role": "user", "content": "hi"}], Toolbox(), lambda t: None,
               functions=[WEATHER])
    assert [c["function"]["name"] for c in a.calls] == ["get_weather"]
    assert [t.result for t in a.tools] == ["two plus two is four"]
    assert a.messages[0]["tool_calls"][1]["id"] == a.calls[0]["id"]  # the round's call message
    assert a.messages[1] == {"role": "tool", "tool_call_id": "c0",
                             "content": "two plus two is four"}  # fmt: skip


def test_tool_choice_rules_the_first_round_and_a_client_name_wins():
    """A named choice (or required) forces one of the client's functions, so only those are
    offered in that round; after built-in results the model chooses freely again. A client
    function named like a built-in tool replaces it. ``none`` offers no tool at all."""
    clock = {"type": "function", "function": {"name": "clock", "parameters": {}}}
    named = {"type": "function", "function": {"name": "clock"}}
    llm = ScriptedLLM([("", [("clock", {})])])
    a = answer(llm, [{"role": "user", "content": "hi"}], Toolbox(), lambda t: None,
               functions=[clock], tool_choice=named)
    assert [c["function"]["name"] for c in a.calls] == ["clock"] and a.tools == []
    assert _names(llm.seen[0][1]) == ["clock"] and llm.choices == [named]

    llm = ScriptedLLM([("", [("calculator", {"expression": "one plus one"})]), ("Two.", [])])
    a = answer(llm, [{"role": "user", "content": "hi"}], Toolbox(), lambda t: None,
               functions=[clock])
    assert a.text == "Two." and a.calls == [] and llm.choices == ["auto", "auto"]
    assert _names(llm.seen[0][1]) == ["clock", *(n for n in TOOL_NAMES if n != "clock")]

    llm = ScriptedLLM([("Hello.", [])])
    a = answer(llm, [{"role": "user", "content": "hi"}], Toolbox(), lambda t: None,
               functions=[clock], tool_choice="none")
    assert a.text == "Hello." and llm.seen[0][1] is None


def test_client_functions_are_offered_without_built_in_tools():
    llm = ScriptedLLM([("", [("get_weather", {"city": "Rome"})])])
    a = answer(llm, [{"role": "user", "content": "hi"}], None, lambda t: None,
               functions=[WEATHER], tool_choice="required")
    assert len(a.calls) == 1 and _names(llm.seen[0][1]) == ["get_weather"]


def test_toolbox_touches_no_files_network_or_processes(monkeypatch):
    import builtins
    import socket
    import subprocess

    from voice.tools.units import registry

    registry()  # pint reads its own unit definitions once, at first use

    def forbidden(*a, **k):
        raise AssertionError("a tool touched the outside world")

    monkeypatch.setattr(builtins, "open", forbidden)
    monkeypatch.setattr(socket, "socket", forbidden)
    monkeypatch.setattr(subprocess, "Popen", forbidden)
    box = Toolbox(clock=Clock(lambda: datetime.now(UTC) + timedelta(0)))
    for name, args in [("clock", {"what": "time"}), ("clock", {"what": "until", "date": "xmas"}),
                       ("timer", {"action": "set", "duration": "5 minutes"}),
                       ("timer", {"action": "list"}), ("calculator", {"expression": "2+2"}),
                       ("units", {"value": "2", "from": "km", "to": "miles"}),
                       ("spell", {"word": "cat"})]:  # fmt: skip
        assert box.run(name, args).ok, (name, args)
    box.close()


def test_a_lone_number_is_not_a_calculation():
    """Whisper's "due to the power of eight" leaves only "eight" to the reader: the calculator
    says so rather than "eight is eight"; "that" alone still says the last result."""
    c = Calculator()
    r = c.calculate("of eight")
    assert not r.ok and "only heard the number eight" in r.text
    assert c.calculate("six plus seven").ok and c.calculate("that").text == "thirteen is thirteen"


def test_a_bare_spell_call_needs_a_spelling_asked_for():
    """The spell tool, called with no arguments, spells a word only where the request asks for
    a spelling ("how is chameleon written") or follows one ("and necessary?"): "ring my sister
    for me" is not spelled "sister"."""
    box = Toolbox()
    box.turn = 1
    assert not box.run("spell", {}, "c", "ring my sister for me").ok
    run = box.run("spell", {}, "c", "I'm writing a card, tell me how chameleon is written")
    assert run.ok and run.read == {"word": "chameleon"}
    box.turn = 2
    run = box.run("spell", {}, "c", "and necessary?")
    assert run.ok and run.read == {"word": "necessary"}
    box.turn = 4
    assert not box.run("spell", {}, "c", "and necessary?").ok  # two turns later: not a follow-up
    box.close()


def test_a_bare_clock_call_needs_a_time_a_day_or_a_date_said():
    """The clock, called with no arguments, answers only a request that says something it
    reads (a time or day word, a date): "put Radio 2 on" is not told the time, and the sorry
    says what the assistant can do (not only the clock: the request was never the clock's)."""
    box = Toolbox()
    try:
        run = box.run("clock", {}, "c", "put Radio 2 on")
        assert not run.ok and run.result.startswith("sorry, I can't do that; I can tell")
        assert not box.run("clock", {}, "c", "How far can a horse run in one day?").ok  # a length
        for said in ("quick, what's the time", "what's today", "how long till march 3rd",
                     "is it friday yet"):  # fmt: skip
            assert box.run("clock", {}, "c", said).ok, said
        assert box.run("clock", {"what": "time"}, "c", "put Radio 2 on").ok  # its own reading
    finally:
        box.close()
