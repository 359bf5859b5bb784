"""An answer nobody heard leaves nothing behind: a speculation given up because the user went on,
or a reply taken back at a late false end, has its tools' work undone — the timers it set are
gone, the ones it cancelled run again, and what the tools remember is as before it."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.voice.test_functions import ScriptedLLM
from tests.voice.test_pipeline import Timeline, false_start, trimmed
from voice.answering import Answerer
from voice.config import load_config
from voice.conversation import Conversation
from voice.frames import ToolCallFrame
from voice.models import Models
from voice.pipeline import Pipeline
from voice.sink import WavSink
from voice.tools import Toolbox

ROOT = Path(__file__).resolve().parents[2]


def timers(box: Toolbox) -> list[tuple[int, str]]:
    return [(t.seconds, t.label) for t in box.timers.active()]


def test_a_timer_set_by_an_answer_taken_back_is_gone_and_never_rings() -> None:
    rang: list[str] = []
    box = Toolbox(lambda timer, sentence: rang.append(sentence))
    with box.answering("spec-1"):
        assert box.run("timer", {"action": "set", "duration": "1 second"}).ok
    assert timers(box) == [(1, "")]
    box.undo("spec-1")
    assert timers(box) == []
    time.sleep(1.4)
    assert rang == []
    box.timers.close()


def test_what_an_answer_cancelled_or_replaced_runs_again() -> None:
    box = Toolbox(lambda timer, sentence: None)
    with box.answering("turn-1"):  # heard: stands
        box.run("timer", {"action": "set", "duration": "8 minutes", "label": "pasta"})
        box.run("timer", {"action": "set", "duration": "20 minutes", "label": "sauce"})
    pasta = {t.label: t.id for t in box.timers.active()}["pasta"]
    with box.answering("spec-2"):  # the same length again a moment later: the same timer
        assert box.run("timer", {"action": "set", "duration": "8 minutes", "label": "pasta"}).ok
    assert {t.label: t.id for t in box.timers.active()}["pasta"] != pasta
    box.undo("spec-2")
    assert {t.label: t.id for t in box.timers.active()}["pasta"] == pasta  # the first one again
    with box.answering("spec-3"):
        assert box.run("timer", {"action": "cancel", "label": "sauce"}).ok
    assert timers(box) == [(480, "pasta")]
    box.undo("spec-3")
    assert sorted(timers(box)) == [(480, "pasta"), (1200, "sauce")]
    with box.answering("spec-4"):
        assert box.run("timer", {"action": "cancel", "label": "all"}).ok
    assert timers(box) == []
    box.undo("spec-4")
    assert sorted(timers(box)) == [(480, "pasta"), (1200, "sauce")]
    box.undo("spec-4")  # twice is once
    assert sorted(timers(box)) == [(480, "pasta"), (1200, "sauce")]
    box.timers.close()


def test_what_the_tools_remember_is_as_before_unless_another_answer_has_begun() -> None:
    box = Toolbox(lambda timer, sentence: None)
    with box.answering("turn-1"):
        box.turn += 1
        assert box.run("calculator", {"expression": "6 times 7"}).ok
    with box.answering("spec-2"):
        box.turn += 1
        assert box.run("spell", {"word": "necessary"}).ok
        assert box.run("calculator", {"expression": "that plus 1"}).ok
    box.undo("spec-2")
    assert box.turn == 1 and box.spelled == "" and box.last_ok == ("calculator", 1)
    assert box.calculator.last == 42  # "that" is the answer heard, not the one taken back
    with box.answering("spec-3"):
        box.turn += 1
        box.run("spell", {"word": "rhythm"})
        box.run("timer", {"action": "set", "duration": "5 minutes"})
    with box.answering("turn-3"):  # begun since: it built on spec-3's state, which stays
        box.turn += 1
    box.undo("spec-3")
    assert box.turn == 3 and box.spelled == "rhythm"
    assert timers(box) == []  # but what it did in the world is undone all the same
    box.timers.close()


def test_an_answer_given_up_while_it_is_still_written_undoes_itself_when_it_ends() -> None:
    """A speculation dropped when the user goes on may still be in its tool loop: it stops, its
    tool frames were never sent, and the timer it set is gone once it ends."""
    go_on, in_loop = threading.Event(), threading.Event()

    class Slow(ScriptedLLM):
        def stream(self, messages, on_text, request_id=None, **kw):
            if self.seen:  # the second pass, after the tool ran: the user speaks meanwhile
                in_loop.set()
                go_on.wait(10)
            return super().stream(messages, on_text, request_id, **kw)

    llm = Slow([("", [("timer", {"action": "set", "duration": "5 minutes"})]),
                ("Okay, timer set for five minutes.", [])])  # fmt: skip
    llm.worker = SimpleNamespace(tokenizer=SimpleNamespace(
        template_support=SimpleNamespace(tools=True)))  # fmt: skip
    sent: list = []
    cfg = load_config(None, [])
    answers = Answerer(SimpleNamespace(llm=llm), cfg.assistant, Conversation(), sent.append, "t")

    async def main() -> None:
        answers.ensure_tools(lambda timer, sentence: None)
        held: list = []
        call = answers.start("set a timer for five minutes", lambda t: None, "spec-t-1", 1, held)
        assert await asyncio.to_thread(in_loop.wait, 10)
        answers.drop("spec-t-1")  # still writing
        assert timers(answers.tools) == [(300, "")]
        go_on.set()
        await call
        assert timers(answers.tools) == []
        assert [f.name for f in held] == ["timer"] and not sent  # held, never sent
        answers.close()

    asyncio.run(main())


@pytest.fixture(scope="module")
def demo():
    cfg = load_config("default", [f"engine.model={ROOT / 'models' / 'demo'}",
                                  "vad.echo_suppression=false"])  # fmt: skip
    m = Models(cfg)
    yield m, cfg
    m.close()


def test_a_late_false_end_leaves_one_timer_the_one_asked_for(demo, speak) -> None:
    """"Set a timer for five minutes." is whole, so the turn ends and the timer is set; the user
    goes on ("No, make it ten minutes.") as the reply starts: the reply is taken back, and so
    is its five-minute timer. Only the ten-minute one runs. (The bundled demo model, Whisper
    and Piper; headphones, as in test_pipeline's false start.)"""
    models, cfg = demo
    seen = Timeline()
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True), on_frame=seen)

    left = asyncio.run(false_start(pipe, seen, trimmed(speak, "Set a timer for five minutes."),
                                   trimmed(speak, "No, make it ten minutes."),
                                   lambda p: timers(p.answers.tools)))
    first, second = pipe.records[:2]
    assert first.taken_back, [(r.transcript, r.reply) for r in pipe.records]
    calls = [f for _, f in seen.frames if isinstance(f, ToolCallFrame)]
    assert [(f.turn, f.result) for f in calls] == [
        (first.turn, "timer set for five minutes"), (second.turn, "timer set for ten minutes")]
    assert left == [(600, "")], left
