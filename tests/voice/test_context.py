"""No silent turns: a reply that comes back empty is answered with an error, and a conversation
that outgrows the context keeps working (oldest turns dropped, or an error for a question that
cannot fit at all). The real engine with the bundled demo model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from voice.config import AppConfig, load_config
from voice.frames import ErrorFrame, Frame, ReplyTextFrame
from voice.models import Models
from voice.pipeline import Pipeline
from voice.sink import WavSink

ROOT = Path(__file__).resolve().parents[2]


def config(*extra: str) -> AppConfig:
    return load_config("default", [f"engine.model={ROOT / 'models' / 'demo'}", *extra])


@pytest.fixture(scope="module")
def models():
    m = Models(config())
    yield m
    m.close()


def ask_all(models: Models, cfg: AppConfig, questions: list[str]) -> tuple[Pipeline, list[Frame]]:
    frames: list[Frame] = []
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=False), frames.append)

    async def run() -> None:
        pipe.start(realtime=False)
        for q in questions:
            await pipe.ask(q)
            await pipe.finish()  # the answer, to its end
        await pipe.close()

    asyncio.run(run())
    return pipe, frames


def outcome(frames: list[Frame], turn: int) -> tuple[str, str]:
    """("reply", text) or ("error", message) for ``turn``: exactly one of them, never neither."""
    final = [f.text for f in frames if isinstance(f, ReplyTextFrame) and f.final and f.turn == turn]
    errors = [f.message for f in frames if isinstance(f, ErrorFrame) and f.turn == turn]
    if errors:
        return "error", errors[0]
    assert final and final[-1].strip(), f"turn {turn} ended silently: no text and no error"
    return "reply", final[-1]


@pytest.mark.parametrize("tools", [False, True], ids=["plain", "tools"])
def test_an_empty_reply_is_never_silence(models, tools: bool) -> None:
    """Without tools the pipeline's own guard answers an empty reply with an error (and keeps
    nothing); with the built-in tools the tool loop says so aloud instead. (A question the
    facts tool reads, a capital, would be answered from its table.)"""
    question = "Hello there."
    base = config(f"assistant.tools={str(tools).lower()}")
    _, frames = ask_all(models, base, [question])
    kind, reply = outcome(frames, 1)
    assert kind == "reply"
    # The same (greedy) reply, cut by a stop string at its first character: empty. (A greeting,
    # which the tool loop says as the model wrote it: a question the model cannot answer gets
    # the loop's own sentence, not the model's.)
    cfg = config(f"assistant.tools={str(tools).lower()}", f"sampling.stop=[{json.dumps(reply[0])}]")
    models.llm.params = cfg.sampling
    try:
        pipe, frames = ask_all(models, cfg, [question])
    finally:
        models.llm.params = config().sampling
    kind, message = outcome(frames, 1)
    if not tools:
        assert kind == "error" and "empty reply" in message
        assert pipe.history == []  # nothing was said, so nothing is remembered
    else:
        assert kind == "reply" and message == "Sorry, I couldn't work that out."
        assert pipe.history[-1] == {"role": "assistant", "content": message}


def test_a_conversation_longer_than_the_context_keeps_answering(models) -> None:
    cfg = config()
    long_words = ("hello " * 400)[:2000]  # accepted: 2000 chars that fit the context
    too_long = " ".join(f"word{i}" for i in range(400))[:2000]  # does not fit at all
    questions = [
        long_words, "What is the capital of France?", too_long, "What is two plus two?",
        *[f"What is {i} plus {i}?" for i in range(1, 9)],
    ]
    pipe, frames = ask_all(models, cfg, questions)
    kinds = [outcome(frames, turn) for turn in range(1, len(questions) + 1)]
    assert kinds[2][0] == "error" and "fit" in kinds[2][1]
    later = kinds[1:2] + kinds[3:]  # the first one may be either, but never silent
    assert all(kind == "reply" for kind, _ in later), later
    # The prompt of every later turn fit the history budget: oldest turns were dropped.
    budget = cfg.assistant.history_tokens
    assert models.llm.count_tokens(pipe.messages_for("one more?")) <= budget


def test_the_prompt_keeps_history_turns_exchanges(models) -> None:
    from voice.conversation import recent_exchanges

    hist = []
    for i in range(4):
        hist += [{"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"}]
    assert recent_exchanges(hist, 0) == hist and recent_exchanges(hist, 9) == hist
    assert recent_exchanges(hist, 1) == hist[-2:]
    pipe = Pipeline(models, config("assistant.history_turns=1"),
                    WavSink(models.tts.sample_rate, realtime=False), lambda f: None)
    pipe.history = hist
    assert pipe.messages_for("q4") == [*hist[-2:], {"role": "user", "content": "q4"}]


def test_a_long_conversation_with_the_demo_model_stays_well_formed() -> None:
    """The bundled defaults over one 16-question conversation (the bundled prompts' questions,
    then follow-ups): no garbled reply, and nothing needed mending. With every earlier exchange
    in the prompt (history_turns=0) the demo model garbled 4 of these."""
    import subprocess
    import sys

    from voice.reply_check import garbled

    questions = [
        "What day comes after Monday?", "Hello there, can you hear me?",
        "What is the capital of Japan?", "Convert twenty degrees Celsius to Fahrenheit.",
        "What planet is closest to the sun?", "Hello, how are you?", "Please tell me a joke.",
        "What is seven times eight?", "Spell the word cat.", "How many miles is ten kilometers?",
        "What's the weather like today?", "Who are you?", "What is six plus seven?",
        "Now multiply that by two.", "What's the capital of France?", "And what about Italy?",
    ]
    p = subprocess.run(
        [sys.executable, "-m", "cli", "chat", "--json"], input="\n".join(questions) + "\n",
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    replies = [json.loads(x) for x in p.stdout.splitlines() if x.startswith('{"reply"')]
    assert len(replies) == len(questions), p.stderr[-500:]
    said = [r["reply"] for r in replies]
    assert not [s for s in said if garbled(s)], said
    assert not any(r["redecoded"] or r["unfinished"] for r in replies), said
    assert "twenty six" in said[13] and "Rome" in said[15], said


def test_one_conversation_owns_the_history_for_every_front_end() -> None:
    """voice.conversation.Conversation, used by the pipeline, ``diffvoice chat`` and Wyoming:
    exchanges kept whole, an interrupted answer cut to what was heard (or its exchange taken
    back whole), a follow-up's tool output kept for its answer, the client's function calls
    waiting for output, and a reset that also makes the tools forget ("that")."""
    from voice.conversation import Conversation
    from voice.tools import Toolbox

    c = Conversation()
    tool_turns = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "calculator",
                                                          "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_a", "content": "four"}]  # fmt: skip
    c.remember("what is two plus two", "Four.", tool_turns)
    assert [m["role"] for m in c.messages] == ["user", "assistant", "tool", "assistant"]
    said = c.remember("tell me a long story", "Once upon a time there was a fox.")
    c.cut_short(said, "Once upon a time")
    assert c.messages[-1] == {"role": "assistant", "content": "Once upon a time"}
    said = c.remember("and another", "Another one.")
    c.cut_short(said, "")  # nothing heard: the exchange is taken back whole
    assert [m["content"] for m in c.messages if m["role"] == "user"] == [
        "what is two plus two", "tell me a long story"]
    c.cut_short(said, "Ano")  # no longer the last answer: nothing to cut
    assert c.messages[-1]["content"] == "Once upon a time"

    calls = [{"id": "call_w", "type": "function", "function": {"name": "weather",
                                                              "arguments": "{}"}}]
    c.remember("weather in Oslo", None, [{"role": "assistant", "content": None,
                                          "tool_calls": calls}])  # the call waits
    assert c.open_calls() == ["call_w"] and not c.awaits_answer()
    with pytest.raises(ValueError):
        c.add_tool_output("call_nope", "x")
    c.add_tool_output("call_w", "rain")
    assert c.open_calls() == [] and c.awaits_answer()
    said = c.remember(None, "Rain in Oslo.")  # the follow-up: no question of its own
    c.cut_short(said, "", follow_up=True)  # cut before a word: the tool output waits again
    assert c.awaits_answer()

    prompt = c.messages_for("Be brief.", "and tomorrow?", turns=1)
    assert prompt[0] == {"role": "system", "content": "Be brief."}
    assert prompt[1]["content"] == "weather in Oslo" and prompt[-1]["content"] == "and tomorrow?"
    # a budget of five "tokens", counted as messages: the oldest exchanges go until it fits
    fits = c.messages_for("", "hi", turns=0, budget=5, count_tokens=len)
    assert [m["role"] for m in fits] == ["user", "assistant", "tool", "user"]
    assert fits[0]["content"] == "weather in Oslo"
    assert c.messages_for("", "hi", turns=0, budget=1, count_tokens=len) == [
        {"role": "user", "content": "hi"}]

    box = Toolbox()
    try:
        c.on_reset(box.forget)
        box.calculator.calculate("two plus two")
        assert box.calculator.last is not None
        c.reset()
        assert c.messages == [] and box.calculator.last is None and box.units.last is None
    finally:
        box.close()

    kept = Conversation(keep=2)
    for k in range(5):
        kept.remember(f"question {k}", f"answer {k}")
    assert [m["content"] for m in kept.messages] == [
        "question 3", "answer 3", "question 4", "answer 4"]
