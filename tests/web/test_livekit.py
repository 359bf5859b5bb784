"""LiveKit Agents drives diffvoice unchanged: ``diffvoice serve --port 0`` as a user starts it, and
the real ``livekit-plugins-openai`` objects pointed at its ``/v1`` (docs/realtime.md, "LiveKit
Agents"). There is no LiveKit server here, so the plugin objects are driven as an agent drives
them, without a room: the Realtime model's session (audio frames in, generations out, function
calls and their outputs, interruptions), and the OpenAI STT, TTS and LLM services."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import wave
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cli_server import cli_server
from tests.web.conftest import heard, words

pytest.importorskip("livekit.plugins.openai")

from livekit import rtc  # noqa: E402
from livekit.agents import APIConnectOptions, APIError, llm  # noqa: E402
from livekit.agents.utils import http_context  # noqa: E402
from livekit.plugins import openai as lk_openai  # noqa: E402

QUESTION = "What is the capital of France?"
WAV = Path(__file__).resolve().parents[2] / "voice" / "assets" / "question.wav"
TIMEOUT = 60.0


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """``diffvoice serve --port 0`` as a subprocess; its banner names the port it took."""
    with cli_server(["serve", "--port", "0"], r"API at (http://127\.0\.0\.1:\d+/v1)") as m:
        yield m.group(1)


def question_frames(silence_s: float = 1.5) -> list[rtc.AudioFrame]:
    """The bundled question (16 kHz mono) and some silence, as 20 ms ``rtc.AudioFrame``s (the
    plugin resamples them to 24 kHz itself)."""
    with wave.open(str(WAV)) as w:
        rate, pcm = w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), "<i2")
    pcm = np.concatenate([pcm, np.zeros(int(rate * silence_s), np.int16)])
    n = rate // 50
    return [rtc.AudioFrame(pcm[i:i + n].tobytes(), rate, 1, n)
            for i in range(0, len(pcm) - n + 1, n)]  # fmt: skip


async def speak(session: Any, frames: list[rtc.AudioFrame]) -> None:
    """Push frames as a microphone does: in real time."""
    for f in frames:
        session.push_audio(f)
        await asyncio.sleep(f.duration)


class Watch:
    """A Realtime session's raw server events and plugin events, awaited by type."""

    def __init__(self, session: Any) -> None:
        self.events: list[dict] = []
        self.errors: list[Any] = []
        self.transcripts: list[str] = []
        self.generations: asyncio.Queue = asyncio.Queue()
        self._changed = asyncio.Event()
        session.on("openai_server_event_received", self._event)
        session.on("error", self.errors.append)
        session.on("generation_created", self.generations.put_nowait)
        session.on("input_audio_transcription_completed",
                   lambda e: e.is_final and self.transcripts.append(e.transcript))

    def _event(self, ev: dict) -> None:
        self.events.append(ev)
        self._changed.set()

    def of(self, type_: str) -> list[dict]:
        return [e for e in self.events if e["type"] == type_]

    async def until(self, type_: str, pred=lambda e: True, after: int = 0) -> dict:
        async def wait() -> dict:
            while True:
                for e in self.events[after:]:
                    if e["type"] == type_ and pred(e):
                        return e
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(wait(), TIMEOUT)

    async def generation(self) -> llm.GenerationCreatedEvent:
        return await asyncio.wait_for(self.generations.get(), TIMEOUT)


async def read(gen: llm.GenerationCreatedEvent) -> tuple[str, list[rtc.AudioFrame],
                                                         list[llm.FunctionCall]]:
    """A generation as an agent consumes it: each message's text and audio streams, and the
    function calls."""
    text, frames = [], []

    async def message(m: llm.MessageGeneration) -> None:
        async def words() -> None:
            async for t in m.text_stream:
                text.append(t)

        async def audio() -> None:
            async for f in m.audio_stream:
                frames.append(f)

        await asyncio.gather(words(), audio())

    async def messages() -> None:
        await asyncio.gather(*[message(m) async for m in gen.message_stream])

    async def calls() -> list[llm.FunctionCall]:
        return [c async for c in gen.function_stream]

    _, fcs = await asyncio.wait_for(asyncio.gather(messages(), calls()), TIMEOUT)
    return "".join(text), frames, fcs


def word_edits(a: str, b: str) -> int:
    """Words inserted, dropped or changed between two transcripts."""
    x, y = words(a), words(b)
    row = list(range(len(y) + 1))
    for i, u in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, v in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (u != v))
    return row[-1]


def seconds(frames: list[rtc.AudioFrame]) -> float:
    return sum(f.samples_per_channel / f.sample_rate for f in frames)


@contextlib.asynccontextmanager
async def realtime_session(url: str, **kw: Any) -> AsyncIterator[tuple[Any, Watch]]:
    """The plugin's RealtimeModel at ``url`` and one session of it (``kw``: the session's
    options), watched; both closed after."""
    model = lk_openai.realtime.RealtimeModel(base_url=url, api_key="unused")
    session = model.session(**kw)
    try:
        yield session, Watch(session)
    finally:
        await session.aclose()
        await model.aclose()


def test_spoken_turn(url: str) -> None:
    """The plugin's defaults (semantic_vad turn detection, voice "marin", a transcription
    model, ...) are taken; the question, pushed as audio frames, is heard, transcribed, and
    answered with audio frames and its transcript, and the conversation the plugin mirrors
    holds both."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            await watch.until("session.updated")
            await speak(session, question_frames())
            gen = await watch.generation()
            assert not gen.user_initiated  # server VAD answered the speech by itself
            text, frames, calls = await read(gen)
            assert heard(watch.transcripts[0], QUESTION), watch.transcripts
            assert "Paris" in text and not calls
            assert {(f.sample_rate, f.num_channels) for f in frames} == {(24000, 1)}
            assert seconds(frames) > 0.5
            done = await watch.until("response.done")
            assert done["response"]["status"] == "completed"
            items = session.chat_ctx.items
            assert [i.role for i in items] == ["user", "assistant"]
            assert heard(items[0].text_content, QUESTION) and "Paris" in items[1].text_content
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


CALCULATOR = {  # a built-in tool's name: the client's function replaces it, and the demo
    "type": "function", "name": "calculator",  # model calls it for arithmetic
    "description": "Works out an arithmetic question.",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}},
}


def test_client_decided_turn(url: str) -> None:
    """Server turn detection off (as an AgentSession with its own turn detector opens the
    session): the agent commits the audio and asks for the reply itself."""

    async def main() -> None:
        async with realtime_session(url, turn_detection_disabled=True) as (session, watch):
            updated = await watch.until("session.updated")
            assert updated["session"]["audio"]["input"]["turn_detection"] is None
            for f in question_frames(silence_s=0.3):  # no need to pace: nothing listens
                session.push_audio(f)
            session.commit_audio()
            gen = await asyncio.wait_for(session.generate_reply(), TIMEOUT)
            assert gen.user_initiated
            text, frames, _ = await read(gen)
            assert heard(watch.transcripts[0], QUESTION), watch.transcripts
            assert "Paris" in text and seconds(frames) > 0.5
            assert not watch.of("input_audio_buffer.speech_started")
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


def test_unserved_edits_are_refused_at_once(url: str) -> None:
    """What the server does not serve, it refuses with an error naming the client event, so
    the plugin settles its wait at once (not after its 5 s timeout): an assistant message
    added by the agent, and an item deleted; the session goes on."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            sent: list[dict] = []
            session.on("openai_client_event_queued", sent.append)
            ctx = session.chat_ctx.copy()
            ctx.add_message(role="user", content=QUESTION)
            ctx.add_message(role="assistant", content="The capital of France is Paris.")
            t0 = time.monotonic()
            await session.update_chat_ctx(ctx)  # the user message is taken, not the other
            assert time.monotonic() - t0 < 4
            (error,) = watch.of("error")
            assert error["error"]["code"] == "not_supported"
            (create,) = [e for e in sent if e.get("item", {}).get("role") == "assistant"]
            assert error["error"]["event_id"] == create["event_id"]
            assert [i.role for i in session.chat_ctx.items] == ["user"]
            t0 = time.monotonic()
            await session.update_chat_ctx(llm.ChatContext.empty())  # delete the user message
            assert time.monotonic() - t0 < 4
            deleted = watch.of("error")[-1]["error"]
            assert deleted["code"] == "not_supported"
            assert deleted["event_id"] == sent[-1]["event_id"]
            assert sent[-1]["type"] == "conversation.item.delete"
            text, _, _ = await read(await asyncio.wait_for(session.generate_reply(), TIMEOUT))
            assert "Paris" in text

    asyncio.run(main())


def test_generate_reply_with_nothing_to_answer(url: str) -> None:
    """An agent asking to speak first (generate_reply with instructions, nothing said yet)
    gets a response at once, one that says nothing (the model only answers the
    conversation), instead of the plugin's 10 s timeout."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            await watch.until("session.updated")
            t0 = time.monotonic()
            gen = await asyncio.wait_for(
                session.generate_reply(instructions="Greet the user."), TIMEOUT)
            assert gen.user_initiated and time.monotonic() - t0 < 5
            assert await read(gen) == ("", [], [])
            done = await watch.until("response.done")
            assert done["response"]["status"] == "completed" and not done["response"]["output"]
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


def test_function_call_round_trip(url: str) -> None:
    """A typed question (a chat context update), generate_reply, the model calls the client's
    function, the agent sends its output back the way LiveKit does (a chat context update)
    and asks for the reply, which follows, spoken."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            ran = []

            async def calculator(raw_arguments: dict[str, Any]) -> str:
                ran.append(raw_arguments)
                return "seventeen times twenty three is three hundred and ninety one"

            await session.update_tools([llm.function_tool(calculator, raw_schema=CALCULATOR)])
            ctx = session.chat_ctx.copy()
            ctx.add_message(role="user", content="what's seventeen times twenty three")
            await session.update_chat_ctx(ctx)
            gen = await asyncio.wait_for(session.generate_reply(), TIMEOUT)
            assert gen.user_initiated  # response.created echoed the request's metadata
            text, frames, calls = await read(gen)
            (call,) = calls
            assert call.name == "calculator" and not text and not frames
            output = await calculator(json.loads(call.arguments))
            ctx = session.chat_ctx.copy()
            ctx.items.append(llm.FunctionCallOutput(call_id=call.call_id, name=call.name,
                                                    output=output, is_error=False))
            await session.update_chat_ctx(ctx)  # waits for conversation.item.added
            gen = await asyncio.wait_for(session.generate_reply(), TIMEOUT)
            assert gen.user_initiated
            text, frames, calls = await read(gen)
            assert "three hundred and ninety one" in text.lower(), text
            assert seconds(frames) > 0.5 and not calls
            items = session.chat_ctx.items
            assert [i.type for i in items] == ["message", "function_call",
                                               "function_call_output", "message"]
            assert items[1].call_id == items[2].call_id == call.call_id
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


def test_interrupt_cancels_the_reply(url: str) -> None:
    """session.interrupt() while the reply is being spoken: response.cancel, the response ends
    cancelled and its streams close; the session answers the next question."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            ctx = session.chat_ctx.copy()
            ctx.add_message(role="user", content="Tell me a story about a robot who learns to "
                                                 "paint, with lots of detail.")
            await session.update_chat_ctx(ctx)
            gen = await asyncio.wait_for(session.generate_reply(), TIMEOUT)
            rid = gen.response_id
            await watch.until("response.output_audio.delta", lambda e: e["response_id"] == rid)
            session.interrupt()
            done = await watch.until("response.done", lambda e: e["response"]["id"] == rid)
            assert done["response"]["status"] == "cancelled"
            await read(gen)  # its streams are closed
            assert not session.has_active_generation
            ctx = session.chat_ctx.copy()
            ctx.add_message(role="user", content=QUESTION)
            await session.update_chat_ctx(ctx)
            text, _, _ = await read(await asyncio.wait_for(session.generate_reply(), TIMEOUT))
            assert "Paris" in text
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


def test_speech_over_the_reply_barges_in(url: str) -> None:
    """Speaking while the reply plays: the server says so (input_speech_started, on which an
    agent stops its playout and cuts the reply), the reply is cancelled if it is still being
    made, the agent truncates its message to what was played (conversation.item.truncate, as
    LiveKit's agent does on an interruption), and the new speech is a new turn, answered."""

    async def main() -> None:
        async with realtime_session(url) as (session, watch):
            started = asyncio.Event()
            session.on("input_speech_started", lambda e: started.set())
            ctx = session.chat_ctx.copy()
            ctx.add_message(role="user", content="Tell me a story about a robot who learns to "
                                                 "paint, with lots of detail.")
            await session.update_chat_ctx(ctx)
            gen = await asyncio.wait_for(session.generate_reply(), TIMEOUT)
            rid = gen.response_id
            await watch.until("response.output_audio.delta", lambda e: e["response_id"] == rid)
            playing = time.monotonic()
            reading = asyncio.ensure_future(read(gen))
            speaking = asyncio.ensure_future(speak(session, question_frames()))
            await asyncio.wait_for(started.wait(), TIMEOUT)
            played_ms = int((time.monotonic() - playing) * 1000)
            _, frames, _ = await reading
            assert seconds(frames) * 1000 > played_ms  # the reply was still playing
            done = await watch.until("response.done", lambda e: e["response"]["id"] == rid)
            assert done["response"]["status"] in ("completed", "cancelled")
            (message,) = [m for m in done["response"]["output"] if m["type"] == "message"]
            session.truncate(message_id=message["id"], modalities=["audio", "text"],
                             audio_end_ms=played_ms)
            cut = await watch.until("conversation.item.truncated")
            assert cut["item_id"] == message["id"] and cut["audio_end_ms"] == played_ms
            await speaking
            gen2 = await watch.generation()
            gen2 = await watch.generation() if gen2.response_id == rid else gen2
            text, frames, _ = await read(gen2)
            assert gen2.response_id != rid and not gen2.user_initiated
            assert heard(watch.transcripts[-1], QUESTION), watch.transcripts
            assert "Paris" in text and seconds(frames) > 0.5
            assert not watch.errors and not watch.of("error")

    asyncio.run(main())


def test_stt_recognize(url: str) -> None:
    """openai.STT with its defaults (gpt-4o-mini-transcribe, language "en"): recognize()
    posts the frames as a WAV to /v1/audio/transcriptions."""

    async def main() -> None:
        stt = lk_openai.STT(base_url=url, api_key="unused")
        try:
            ev = await stt.recognize(question_frames(silence_s=0.2))
            assert heard(ev.alternatives[0].text, QUESTION), ev.alternatives[0].text
        finally:
            await stt.aclose()

    asyncio.run(main())


def test_streaming_stt_is_refused(url: str) -> None:
    """openai.STT(use_realtime=True) streams into a Realtime *transcription* session, which
    this server does not serve: the stream fails with the server's error at once."""

    async def main() -> None:
        async with http_context.open():
            stt = lk_openai.STT(base_url=url, api_key="unused", use_realtime=True)
            stream = stt.stream(conn_options=APIConnectOptions(max_retry=0))
            try:
                for f in question_frames(silence_s=0.2):
                    stream.push_frame(f)
                stream.end_input()
                with pytest.raises(APIError, match="only realtime sessions are served"):
                    await asyncio.wait_for(_drain(stream), TIMEOUT)
            finally:
                await stream.aclose()
                await stt.aclose()

    asyncio.run(main())


async def _drain(stream: Any) -> None:
    async for _ in stream:
        pass


@pytest.mark.parametrize("fmt", [None, "pcm", "wav", "opus", "aac", "flac"])
def test_tts_synthesize(url: str, fmt: str | None) -> None:
    """openai.TTS (defaults: gpt-4o-mini-tts, voice "ash", mp3 as server-sent events): the
    speech comes back as 24 kHz frames the plugin decoded; Whisper hears what was said."""
    text = "Hello there. How are you today?"

    async def main() -> None:
        kw = {} if fmt is None else {"response_format": fmt}
        tts = lk_openai.TTS(base_url=url, api_key="unused", **kw)
        stt = lk_openai.STT(base_url=url, api_key="unused")
        try:
            frames = [ev.frame async for ev in tts.synthesize(text)]
            assert seconds(frames) > 1.0
            assert {f.sample_rate for f in frames} == {24000}
            back = (await stt.recognize(frames)).alternatives[0].text
            # Whisper tiny.en on Piper, through the plugin's 24 kHz frames and its WAV upload
            # (a path less exact than 16 kHz PCM: once "below there. Are you today?"): the
            # words are there, two of six may be misheard.
            assert word_edits(back, text) <= 2, back
        finally:
            await tts.aclose()
            await stt.aclose()

    asyncio.run(main())


def test_llm_chat(url: str) -> None:
    """openai.LLM on /v1/chat/completions: a streamed answer, then a call of a client function
    and the answer after its output."""

    async def main() -> None:
        model = lk_openai.LLM(base_url=url, api_key="unused", model="demo")
        try:
            ctx = llm.ChatContext.empty()
            ctx.add_message(role="user", content=QUESTION)
            async with model.chat(chat_ctx=ctx) as stream:
                said = "".join([c.delta.content async for c in stream
                                if c.delta and c.delta.content])
            assert "Paris" in said

            async def calculator(raw_arguments: dict[str, Any]) -> str:
                return "seventeen times twenty three is three hundred and ninety one"

            tool = llm.function_tool(calculator, raw_schema=CALCULATOR)
            ctx = llm.ChatContext.empty()
            ctx.add_message(role="user", content="what's seventeen times twenty three")
            async with model.chat(chat_ctx=ctx, tools=[tool]) as stream:
                calls = [t async for c in stream if c.delta for t in c.delta.tool_calls]
            (call,) = calls
            assert call.name == "calculator"
            ctx.items.append(llm.FunctionCall(call_id=call.call_id, name=call.name,
                                              arguments=call.arguments))
            ctx.items.append(llm.FunctionCallOutput(
                call_id=call.call_id, name=call.name, is_error=False,
                output=await calculator(json.loads(call.arguments or "{}"))))
            async with model.chat(chat_ctx=ctx, tools=[tool]) as stream:
                said = "".join([c.delta.content async for c in stream
                                if c.delta and c.delta.content])
            assert "three hundred and ninety one" in said.lower(), said
        finally:
            await model.aclose()

    asyncio.run(main())
