"""The client's own functions and text-only replies in the pipeline, with a scripted LLM and a
recording voice (no models): a call ends the turn and stays in the history, its output joins
the history, a follow-up turn answers it; a barge-in on that answer keeps the output waiting;
with ``speak`` off nothing is synthesised."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import numpy as np
import pytest

from engine.tools import ToolFormatError
from voice.config import load_config
from voice.frames import FunctionCallFrame, ReplyTextFrame, TurnMetricsFrame
from voice.llm import Reply
from voice.pipeline import Pipeline
from voice.scheduler import Scheduler
from voice.sink import WavSink
from voice.tts import SpeechChunk

WEATHER = {"type": "function", "function": {
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}  # fmt: skip
NAMED = {"type": "function", "function": {"name": "get_weather"}}


class ScriptedLLM:
    """Replies from a script: (text, [(function, arguments)]); records what it was asked."""

    def __init__(self, replies: list) -> None:
        self.replies, self.seen = list(replies), []

    def stream(self, messages, on_text, request_id=None, *, tools=None, tool_choice=None, **kw):
        self.seen.append((messages, tools, tool_choice))
        text, calls = self.replies.pop(0)
        if text:
            on_text(text)
        tc = [{"id": f"call_{len(self.seen)}{i}", "type": "function",
               "function": {"name": n, "arguments": json.dumps(a)}}
              for i, (n, a) in enumerate(calls)]  # fmt: skip
        return Reply(text, "tool_calls" if tc else "stop", {"nfe": 1, "tokens": 3}, tc)

    def count_tokens(self, messages) -> int:
        return 0

    def cancel(self, request_id) -> None:
        pass


class Voice:
    """A synthesiser that records what it was asked to say: ten seconds of silence each."""

    sample_rate = 16000

    def __init__(self) -> None:
        self.said: list[str] = []

    def synthesize_stream(self, text: str, first_chars: int):
        self.said.append(text)
        return [SpeechChunk(text, np.zeros(160_000, np.int16), 16000)]


def pipeline(replies: list, realtime_sink: bool = False):
    llm, voice = ScriptedLLM(replies), Voice()
    models = SimpleNamespace(llm=llm, tts=voice, asr=None, scheduler=Scheduler(1))
    frames: list = []
    cfg = load_config(None, ["assistant.speculative=false"])
    pipe = Pipeline(models, cfg, WavSink(16000, realtime=realtime_sink), on_frame=frames.append)
    return pipe, llm, voice, frames


async def _turn(pipe: Pipeline) -> None:
    await asyncio.gather(pipe._turn.task)


def test_a_call_its_output_and_the_answer() -> None:
    async def main() -> None:
        pipe, llm, voice, frames = pipeline([
            ("", [("get_weather", {"city": "Paris"})]), ("It is sunny in Paris.", []),
        ])
        pipe.set_functions([WEATHER], NAMED)
        await pipe.ask("weather in paris")
        await _turn(pipe)
        (call,) = [f for f in frames if isinstance(f, FunctionCallFrame)]
        assert call.name == "get_weather" and json.loads(call.arguments) == {"city": "Paris"}
        assert voice.said == [] and isinstance(frames[-1], TurnMetricsFrame)
        assert not [f for f in frames if isinstance(f, ReplyTextFrame) and f.text]
        assert pipe.history == [
            {"role": "user", "content": "weather in paris"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": call.call_id, "type": "function",
                 "function": {"name": "get_weather", "arguments": call.arguments}}]},
        ]  # fmt: skip
        assert pipe.open_calls() == [call.call_id]
        assert pipe.records[-1].calls and not pipe.records[-1].error
        with pytest.raises(ValueError):
            await pipe.respond()  # nothing to answer yet
        with pytest.raises(ValueError):
            pipe.add_tool_output("call_unknown", "sunny")
        pipe.add_tool_output(call.call_id, '{"sky": "sunny"}')
        with pytest.raises(ValueError):
            pipe.add_tool_output(call.call_id, "twice")
        turn = await pipe.respond()
        await _turn(pipe)
        assert turn == call.turn + 1 and pipe.records[-1].follow_up
        asked = llm.seen[1][0]
        assert asked[-1] == {"role": "tool", "tool_call_id": call.call_id,
                             "content": '{"sky": "sunny"}'}  # fmt: skip
        assert llm.seen[1][2] == NAMED  # as OpenAI: the choice holds until the client changes it
        assert voice.said == ["It is sunny in Paris."]
        assert [m["role"] for m in pipe.history] == ["user", "assistant", "tool", "assistant"]
        assert pipe.history[-1] == {"role": "assistant", "content": "It is sunny in Paris."}
        await pipe.close()
        pipe.m.scheduler.close()

    asyncio.run(main())


def test_the_history_keeps_each_call_message_once() -> None:
    """The answer's own messages (``Answer.messages``) go into the history as they are: the
    built-in tools' round, then the round that ends the turn with the client's call (a
    built-in call beside it keeps its result), each call message once, none missing."""

    async def main() -> None:
        pipe, llm, _, frames = pipeline([
            ("", [("clock", {"what": "day"})]),
            ("", [("clock", {"what": "time"}), ("get_weather", {"city": "Paris"})]),
            ("It is sunny in Paris.", []),
        ])
        support = SimpleNamespace(template_support=SimpleNamespace(tools=True))
        llm.worker = SimpleNamespace(tokenizer=support)  # offer the built-in tools
        pipe.set_functions([WEATHER])
        await pipe.ask("what day is it and how is the weather in paris")
        await _turn(pipe)
        (call,) = [f for f in frames if isinstance(f, FunctionCallFrame)]
        assert [m["role"] for m in pipe.history] == ["user", "assistant", "tool", "assistant",
                                                     "tool"]  # fmt: skip
        sent = [m for m in pipe.history if m.get("tool_calls")]
        assert [[c["function"]["name"] for c in m["tool_calls"]] for m in sent] == [
            ["clock"], ["clock", "get_weather"]]
        assert sent == [m for m in llm.seen[-1][0] if m.get("tool_calls")] + [sent[-1]]
        ids = [c["id"] for m in sent for c in m["tool_calls"]]
        assert ids.count(call.call_id) == 1 and pipe.open_calls() == [call.call_id]
        pipe.add_tool_output(call.call_id, "sunny")
        await pipe.respond()
        await _turn(pipe)
        assert [m["role"] for m in pipe.history][-3:] == ["tool", "tool", "assistant"]
        assert pipe.history[-1] == {"role": "assistant", "content": "It is sunny in Paris."}
        assert sum(call.call_id in json.dumps(m) for m in llm.seen[-1][0]) == 2  # call, output
        await pipe.close()
        pipe.m.scheduler.close()

    asyncio.run(main())


def test_a_barge_in_on_the_answer_keeps_the_output_waiting() -> None:
    async def main() -> None:
        pipe, llm, voice, _ = pipeline([
            ("", [("get_weather", {"city": "Oslo"})]), ("It is raining in Oslo today.", []),
            ("Rain in Oslo.", []),
        ], realtime_sink=True)
        pipe.set_functions([WEATHER])
        await pipe.ask("weather in oslo")
        await _turn(pipe)
        pipe.add_tool_output(pipe.open_calls()[0], "rain")
        await pipe.respond()
        await _turn(pipe)
        await pipe.interrupt()  # at once: nothing of the answer was heard
        assert pipe.records[-1].interrupted and pipe.records[-1].spoken == ""
        assert [m["role"] for m in pipe.history] == ["user", "assistant", "tool"]
        await pipe.respond()  # the output still waits for an answer
        await _turn(pipe)
        assert pipe.history[-1] == {"role": "assistant", "content": "Rain in Oslo."}
        await pipe.close()
        pipe.m.scheduler.close()

    asyncio.run(main())


def test_text_only_replies_synthesise_nothing_and_bad_tools_change_nothing() -> None:
    async def main() -> None:
        pipe, _, voice, frames = pipeline([("Hello there. How are you?", [])])
        pipe.speak = False
        await pipe.ask("hello")
        await _turn(pipe)
        assert voice.said == [] and pipe.history[-1]["content"] == "Hello there. How are you?"
        assert [f.text for f in frames if isinstance(f, ReplyTextFrame) and f.final] == \
            ["Hello there. How are you?"]
        assert "first_tts_audio" not in pipe.records[-1].stamps
        for tools, choice in (([{"type": "function"}], None), ([], "required"), (None, NAMED)):
            with pytest.raises(ToolFormatError):
                pipe.set_functions(tools, choice)
        assert (pipe.answers.functions, pipe.answers.tool_choice) == ([], "auto")
        await pipe.close()
        pipe.m.scheduler.close()

    asyncio.run(main())
