"""The built-in tools inside the voice pipeline, with a scripted LLM and a recording voice (no
models): a call runs the tool here and shows as a tool event; a due timer speaks up unprompted
in a turn of its own, which joins the conversation; closing the conversation cancels its
timers."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from tests.voice.test_functions import ScriptedLLM, Voice
from voice.config import load_config
from voice.frames import TimerFiredFrame, ToolCallFrame, TurnMetricsFrame
from voice.pipeline import Pipeline
from voice.scheduler import Scheduler
from voice.sink import WavSink

TEA = ("", [("timer", {"action": "set", "duration": "one second", "label": "tea"})])


def pipeline(replies: list):
    llm, voice = ScriptedLLM(replies), Voice()
    # what tools_supported looks for: a local model whose template renders tools
    llm.worker = SimpleNamespace(tokenizer=SimpleNamespace(
        template_support=SimpleNamespace(tools=True)))  # fmt: skip
    models = SimpleNamespace(llm=llm, tts=voice, asr=None, scheduler=Scheduler(1))
    frames: list = []
    cfg = load_config(None, ["assistant.speculative=false"])
    pipe = Pipeline(models, cfg, WavSink(16000), on_frame=frames.append)
    return pipe, llm, voice, frames


async def until(cond, within_s: float = 10.0) -> None:
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < within_s, "timed out"
        await asyncio.sleep(0.05)


def test_a_timer_runs_fires_speaks_up_and_joins_the_conversation() -> None:
    async def main() -> None:
        pipe, llm, voice, frames = pipeline([TEA, ("Okay, tea timer set for one second.", [])])
        await pipe.ask("set a timer for one second for the tea")
        await asyncio.gather(pipe._turn.task)
        (call,) = [f for f in frames if isinstance(f, ToolCallFrame)]
        assert call.name == "timer" and call.ok and "tea timer set" in call.result
        assert llm.seen[0][1] and {t["function"]["name"] for t in llm.seen[0][1]} >= {"timer"}
        asked = llm.seen[1][0]  # the second pass saw the call's result
        assert asked[-1]["role"] == "tool" and asked[-1]["content"] == call.result
        assert voice.said == ["Okay, tea timer set for one second."]
        await until(lambda: any(isinstance(f, TimerFiredFrame) for f in frames))
        (fired,) = [f for f in frames if isinstance(f, TimerFiredFrame)]
        assert fired.label == "tea" and fired.seconds == 1 and not fired.reminder
        assert fired.turn > call.turn
        await until(lambda: len(voice.said) == 2)
        assert voice.said[1] == fired.text and "tea" in fired.text.lower()
        await until(lambda: pipe.records and pipe.records[-1].announcement)
        metrics = [f for f in frames if isinstance(f, TurnMetricsFrame) and f.turn == fired.turn]
        assert metrics and metrics[0].stats["announcement"]
        # What the assistant said unprompted is part of the conversation ("what was that?").
        assert pipe.history[-1] == {"role": "assistant", "content": fired.text}
        assert [m["role"] for m in pipe.history] == [
            "user", "assistant", "tool", "assistant", "assistant"
        ]
        await pipe.close()
        pipe.m.scheduler.close()

    asyncio.run(main())


def test_closing_the_conversation_cancels_its_timers() -> None:
    async def main() -> None:
        pipe, _, voice, frames = pipeline([TEA, ("Okay, tea timer set for one second.", [])])
        await pipe.ask("set a timer for one second for the tea")
        await asyncio.gather(pipe._turn.task)
        await pipe.close()
        await asyncio.sleep(1.6)
        assert not any(isinstance(f, TimerFiredFrame) for f in frames)
        assert voice.said == ["Okay, tea timer set for one second."]
        pipe.m.scheduler.close()

    asyncio.run(main())
