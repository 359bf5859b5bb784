"""Pipecat (pipecat-ai, the real library) driving ``diffvoice serve`` unchanged, as a Pipecat
app would: its OpenAI Realtime service with ``base_url`` at the server's ``/v1/realtime``, and its
OpenAI STT, TTS and LLM services with ``base_url`` at ``/v1``, each in a Pipecat ``Pipeline`` run
by a ``PipelineWorker`` and ``WorkerRunner`` (the current names of ``PipelineTask`` and
``PipelineRunner``).

The server is started as a user starts it (``python -m cli serve --port 0``, the bundled
demo model, Whisper tiny.en and the Piper voice). The pipeline's input is a small processor that
plays spoken questions as ``InputAudioRawFrame`` s at real-time pace, then silence; its output a
processor that keeps every frame. Spoken questions are the bundled question.wav ("What is the
capital of France?") and sentences Piper says (without its sampling noise).

docs/realtime.md, "Pipecat", lists what Pipecat sends that the server had to learn.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from openai import OpenAI

from tests.cli_server import cli_server

pytest.importorskip("pipecat", reason="pipecat-ai is a test extra")

from loguru import logger  # noqa: E402  (pipecat's logger)
from pipecat.adapters.llm.schemas.function_schema import FunctionSchema  # noqa: E402
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema  # noqa: E402
from pipecat.frames.frames import (  # noqa: E402
    ErrorFrame,
    Frame,
    InputAudioRawFrame,
    InterruptionFrame,
    LLMFullResponseEndFrame,
    LLMRunFrame,
    LLMTextFrame,
    StartFrame,
    TranscriptionFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
    TTSTextFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline  # noqa: E402
from pipecat.pipeline.worker import PipelineWorker  # noqa: E402
from pipecat.processors.aggregators.llm_context import LLMContext  # noqa: E402
from pipecat.processors.aggregators.llm_response_universal import (  # noqa: E402
    LLMContextAggregatorPair,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor  # noqa: E402
from pipecat.services.llm_service import FunctionCallParams  # noqa: E402
from pipecat.services.openai.llm import OpenAILLMService  # noqa: E402
from pipecat.services.openai.realtime.llm import OpenAIRealtimeLLMService  # noqa: E402
from pipecat.services.openai.stt import OpenAISTTService  # noqa: E402
from pipecat.services.openai.tts import OpenAITTSService  # noqa: E402
from pipecat.workers.runner import WorkerRunner  # noqa: E402

from tests.web.conftest import heard  # noqa: E402
from voice.audio import decode_wav, resample, wav_bytes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # s for each wait; the machine is shared
QUESTION = "What is the capital of France?"
TIMER = "Set a timer for five minutes."
LONG = "What's the weather in Paris?"  # a long reply: the demo model's refusal
RATE = 24000  # OpenAI's PCM rate, Pipecat's output rate

logger.remove()  # Pipecat logs every frame at DEBUG: keep its warnings and errors
logger.add(sys.stderr, level="WARNING")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """``diffvoice serve --port 0`` as a subprocess; its banner names the port it took."""
    with cli_server(["serve", "--port", "0"], r"API at (http://127\.0\.0\.1:\d+)/v1") as m:
        yield m.group(1)


def realtime_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/v1/realtime"


@pytest.fixture(scope="module")
def question() -> tuple[bytes, int]:
    """The bundled question, 16 kHz PCM16."""
    pcm = decode_wav((ROOT / "voice/assets/question.wav").read_bytes(), 16000)
    return pcm.astype("<i2").tobytes(), 16000


@pytest.fixture(scope="module")
def say(synthesizer) -> Callable[[str], tuple[bytes, int]]:
    """A sentence spoken by Piper without its sampling noise (the same audio every run: what
    is asked must not depend on a draw), 24 kHz PCM16."""
    cache: dict[str, tuple[bytes, int]] = {}

    def say(text: str) -> tuple[bytes, int]:
        if text not in cache:
            pcm = resample(synthesizer.synthesize(text), synthesizer.sample_rate, RATE)
            cache[text] = pcm.astype("<i2").tobytes(), RATE
        return cache[text]

    return say


class Mic(FrameProcessor):
    """The pipeline's input: each utterance as 20 ms ``InputAudioRawFrame`` s at real-time
    pace, with silence before and after. An utterance may wait for an event first (to speak over
    a reply), and ``vad`` brackets each one with Pipecat's VAD frames (the segmented STT
    services transcribe what comes between them)."""

    def __init__(self, script: list[tuple[bytes, int, asyncio.Event | None]], *,
                 vad: bool = False, tail_s: float = 20.0) -> None:
        super().__init__()
        self.script, self.vad, self.tail_s = script, vad, tail_s
        self._task: asyncio.Task | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)
        if isinstance(frame, StartFrame):
            self._task = self.create_task(self._talk())

    async def cleanup(self) -> None:
        await super().cleanup()
        if self._task is not None:
            await self.cancel_task(self._task)

    async def _play(self, pcm: bytes, rate: int) -> None:
        step = rate // 50 * 2  # 20 ms
        t0 = time.monotonic()
        for k, i in enumerate(range(0, len(pcm), step)):
            await self.push_frame(InputAudioRawFrame(audio=pcm[i:i + step], sample_rate=rate,
                                                     num_channels=1))
            await asyncio.sleep(max(0.0, t0 + (k + 1) * 0.02 - time.monotonic()))

    def _quiet(self, seconds: float, rate: int) -> bytes:
        return bytes(int(rate * seconds) * 2)

    async def _talk(self) -> None:
        rate = 16000
        await self._play(self._quiet(0.5, rate), rate)
        for pcm, rate, wait in self.script:
            if wait is not None:
                while not wait.is_set():  # the microphone stays open meanwhile
                    await self._play(self._quiet(0.02, rate), rate)
            if self.vad:
                await self.push_frame(VADUserStartedSpeakingFrame())
            await self._play(pcm, rate)
            if self.vad:
                await self.push_frame(VADUserStoppedSpeakingFrame())
            await self._play(self._quiet(1.0, rate), rate)
        await self._play(self._quiet(self.tail_s, rate), rate)


class Collector(FrameProcessor):
    """Keeps every frame that passes (but the microphone's), in order, both ways."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[tuple[FrameDirection, Frame]] = []
        self.tick: asyncio.Event | None = None  # set on each frame kept

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if not isinstance(frame, InputAudioRawFrame):
            self.frames.append((direction, frame))
            if self.tick is not None:
                self.tick.set()
        await self.push_frame(frame, direction)

    def of(self, *types: type, direction: FrameDirection | None = None) -> list:
        return [f for d, f in self.frames
                if isinstance(f, types) and (direction is None or d == direction)]

    def errors(self) -> list[str]:
        return [f.error for f in self.of(ErrorFrame)]


async def run_until(processors: list[FrameProcessor], done: Callable[[], bool],
                    first: list[Frame] | None = None) -> None:
    """Runs the pipeline until ``done()`` (checked as frames arrive), then cancels it."""
    worker = PipelineWorker(Pipeline(processors), idle_timeout_secs=None)
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    tick = asyncio.Event()
    for p in processors:
        if isinstance(p, Collector):
            p.tick = tick

    async def watch() -> None:
        if first:
            await worker.queue_frames(first)
        try:
            async with asyncio.timeout(TIMEOUT):
                while not done():  # checked on each frame a collector keeps, and twice a second
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(tick.wait(), 0.5)
                    tick.clear()
        finally:
            await worker.cancel()

    watcher = asyncio.create_task(watch())
    await runner.run()
    await watcher  # a timeout surfaces here


def realtime_service(base_url: str, **settings: Any) -> OpenAIRealtimeLLMService:
    return OpenAIRealtimeLLMService(
        api_key="unused", base_url=realtime_url(base_url),
        settings=OpenAIRealtimeLLMService.Settings(model="demo", **settings),
    )


def spoken_reply_ended(out: Collector) -> bool:
    """A response with audio has ended (the one an ``LLMRunFrame`` asks for at the start has
    nothing to say: it ends at once, without audio)."""
    kinds = [type(f) for _, f in out.frames]
    return TTSAudioRawFrame in kinds and \
        LLMFullResponseEndFrame in kinds[kinds.index(TTSAudioRawFrame):]


def text_of(frames: list) -> str:
    return "".join(f.text for f in frames)


def test_realtime_spoken_question(base_url, question) -> None:
    """The question, spoken: Pipecat gets the user's transcript, the reply's audio and its
    words, and its context keeps both sides of the turn."""
    llm = realtime_service(base_url, system_instruction="Answer briefly.")
    context = LLMContext()
    agg = LLMContextAggregatorPair(context)
    up, out = Collector(), Collector()

    def done() -> bool:
        return (spoken_reply_ended(out) and bool(up.of(TranscriptionFrame))) \
            or bool(out.errors() or up.errors())

    pcm, rate = question
    asyncio.run(run_until([Mic([(pcm, rate, None)]), agg.user(), up, llm, out, agg.assistant()],
                          done, first=[LLMRunFrame()]))
    assert not out.errors() and not up.errors(), out.errors() + up.errors()
    (transcript,) = up.of(TranscriptionFrame, direction=FrameDirection.UPSTREAM)
    assert heard(transcript.text, QUESTION), transcript.text
    audio = out.of(TTSAudioRawFrame)
    assert all(a.sample_rate == RATE and a.num_channels == 1 for a in audio)
    assert sum(len(a.audio) for a in audio) // 2 > RATE // 2  # over half a second of speech
    said = text_of(out.of(TTSTextFrame))
    assert "Paris" in said and said == text_of(out.of(LLMTextFrame)), said
    kinds = [type(f) for _, f in out.frames]  # the LLMRunFrame's response ended, saying nothing
    assert kinds.index(LLMFullResponseEndFrame) < kinds.index(TTSStartedFrame)
    messages = context.get_messages()
    assert [m["role"] for m in messages] == ["user", "assistant"], messages
    assert heard(messages[0]["content"], QUESTION) and "Paris" in messages[1]["content"]


TIMER_TOOL = FunctionSchema(
    name="timer",  # the assistant's built-in timer's name: the client's function replaces it
    description="Start a timer.",
    properties={"duration": {"type": "string", "description": "how long, e.g. '5 minutes'"}},
    required=[],
)


def test_realtime_function_call_round_trip(base_url, say) -> None:
    """"Set a timer for five minutes", spoken: the demo model calls the app's ``timer``
    function (it writes calls without arguments: docs/tools.md), Pipecat runs the handler and
    sends its result, and the spoken answer follows."""
    llm = realtime_service(base_url)
    calls: list[FunctionCallParams] = []

    async def timer(params: FunctionCallParams) -> None:
        calls.append(params)
        await params.result_callback("timer set for five minutes")

    llm.register_function("timer", timer)
    context = LLMContext(tools=ToolsSchema(standard_tools=[TIMER_TOOL]))
    agg = LLMContextAggregatorPair(context)
    out = Collector()

    def done() -> bool:
        answered = any(m.get("role") == "assistant" and m.get("content")
                       for m in context.get_messages())
        return bool(calls and answered) or bool(out.errors())

    pcm, rate = say(TIMER)
    asyncio.run(run_until([Mic([(pcm, rate, None)]), agg.user(), llm, out, agg.assistant()],
                          done, first=[LLMRunFrame()]))
    assert not out.errors(), out.errors()
    assert [c.function_name for c in calls] == ["timer"]
    assert calls[0].arguments == {}  # the demo model's calls carry none
    messages = context.get_messages()
    # Pipecat's user aggregator may add the transcript after the call it led to (its turn
    # ends on its own timer): where it lands in the context is Pipecat's, that it is there ours.
    (user,) = [m for m in messages if m["role"] == "user"]
    assert heard(user["content"], TIMER), messages
    call_id = calls[0].tool_call_id
    (call,) = [m for m in messages if m.get("tool_calls")]
    assert call["tool_calls"][0]["id"] == call_id
    (result,) = [m for m in messages if m["role"] == "tool"]
    assert result["tool_call_id"] == call_id and "five minutes" in result["content"]
    answers = [k for k, m in enumerate(messages)
               if m["role"] == "assistant" and (m.get("content") or "").strip()]
    assert answers and answers[-1] > messages.index(result), messages  # after the result
    assert out.of(TTSAudioRawFrame)  # and was spoken


class RecordingRealtime(OpenAIRealtimeLLMService):
    """Pipecat's Realtime service as it is, keeping the client events it sends."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.sent: list[Any] = []

    async def send_client_event(self, event: Any) -> None:
        self.sent.append(event)
        await super().send_client_event(event)


def test_realtime_barge_in(base_url, question, say) -> None:
    """Speaking over a long reply (4 s of "Sorry, I can't check the weather, ...") 1.2 s into
    its audio: the server's VAD hears it, Pipecat interrupts its pipeline and truncates the
    reply's item where its playback stood (``conversation.item.truncate``, served: before, the
    server's ``error`` ended Pipecat's session), and the new question is answered.

    As with OpenAI, the reply's response is ``completed`` once it is generated, which here is
    well before it has played out: the barge-in is the client's truncation (and, on the
    server, the session's own barge-in keeps what its playback clock says was heard)."""
    llm = RecordingRealtime(api_key="unused", base_url=realtime_url(base_url),
                            settings=OpenAIRealtimeLLMService.Settings(model="demo"))
    items: dict[str, Any] = {}  # the assistant's items, by id, as last updated

    @llm.event_handler("on_conversation_item_updated")
    async def _updated(_service, item_id, item) -> None:
        if item is not None and item.role == "assistant":
            items[item_id] = item

    context = LLMContext()
    agg = LLMContextAggregatorPair(context)
    out = Collector()
    replying = asyncio.Event()

    class ReplyWatch(FrameProcessor):  # sets `replying` 1.2 s into the first reply's audio
        async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
            await super().process_frame(frame, direction)
            if isinstance(frame, TTSAudioRawFrame) and not replying.is_set():
                asyncio.get_running_loop().call_later(1.2, replying.set)
            await self.push_frame(frame, direction)

    def answers() -> list[str]:
        return [m["content"] for m in context.get_messages() if m["role"] == "assistant"]

    def done() -> bool:
        return (any("Paris" in a for a in answers()) and len(items) >= 2) or bool(out.errors())

    long_pcm, long_rate = say(LONG)
    pcm, rate = question
    mic = Mic([(long_pcm, long_rate, None), (pcm, rate, replying)])
    asyncio.run(run_until([mic, agg.user(), llm, ReplyWatch(), out, agg.assistant()], done,
                          first=[LLMRunFrame()]))
    assert not out.errors(), out.errors()
    started = [k for k, (_, f) in enumerate(out.frames) if isinstance(f, TTSStartedFrame)]
    assert len(started) == 2  # two replies spoken, and Pipecat interrupted the first
    assert any(isinstance(f, InterruptionFrame) for _, f in out.frames[started[0]:started[1]])
    first, second = list(items.values())[:2]
    assert first.status == second.status == "completed"
    assert "weather" in first.content[0].transcript and "Paris" in second.content[0].transcript
    (cut,) = [e for e in llm.sent if e.type == "conversation.item.truncate"]
    assert cut.item_id == first.id and cut.content_index == 0
    reply = [f for _, f in out.frames[started[0]:started[1]] if isinstance(f, TTSAudioRawFrame)]
    reply_ms = sum(len(f.audio) for f in reply) * 1000 // 2 // RATE
    assert 1000 < cut.audio_end_ms < reply_ms - 500, (cut.audio_end_ms, reply_ms)  # mid-reply
    assert any("Paris" in a for a in answers()), answers()


def test_realtime_locally_driven_turns(base_url, question) -> None:
    """Turns decided by Pipecat (its Silero VAD and turn strategies; server turn detection
    off, ``turn_detection: null``): at the user's turn start Pipecat clears the buffer, replays
    its pre-roll and cancels any response; at its end it commits the buffer and asks for a
    response, which the server transcribes (Whisper) and answers."""
    from pipecat.audio.vad.silero import SileroVADAnalyzer
    from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregatorParams
    from pipecat.services.openai.realtime import events

    props = events.SessionProperties(audio=events.AudioConfiguration(
        input=events.AudioInput(turn_detection=False)))
    llm = RecordingRealtime(api_key="unused", base_url=realtime_url(base_url),
                            settings=OpenAIRealtimeLLMService.Settings(
                                model="demo", session_properties=props))
    context = LLMContext()
    agg = LLMContextAggregatorPair(context, user_params=LLMUserAggregatorParams(
        vad_analyzer=SileroVADAnalyzer()))
    up, out = Collector(), Collector()

    def done() -> bool:
        return (spoken_reply_ended(out) and bool(up.of(TranscriptionFrame))) \
            or bool(out.errors() or up.errors())

    pcm, rate = question
    asyncio.run(run_until([Mic([(pcm, rate, None)]), agg.user(), up, llm, out, agg.assistant()],
                          done, first=[LLMRunFrame()]))
    assert not out.errors() and not up.errors(), out.errors() + up.errors()
    sent = [e.type for e in llm.sent if e.type != "input_audio_buffer.append"]
    k = sent.index("input_audio_buffer.commit")
    assert sent[k + 1] == "response.create" and "input_audio_buffer.clear" in sent[:k], sent
    (transcript,) = up.of(TranscriptionFrame, direction=FrameDirection.UPSTREAM)
    assert heard(transcript.text, QUESTION), transcript.text
    said = text_of(out.of(TTSTextFrame))
    assert "Paris" in said, said
    assert out.of(TTSAudioRawFrame)


def test_stt_service(base_url, question) -> None:
    """Pipecat's OpenAISTTService at /v1: the segment between its VAD frames, uploaded as a
    WAV to /v1/audio/transcriptions, comes back as the question."""
    stt = OpenAISTTService(api_key="unused", base_url=base_url + "/v1")
    out = Collector()
    pcm, rate = question
    asyncio.run(run_until([Mic([(pcm, rate, None)], vad=True), stt, out],
                          lambda: bool(out.of(TranscriptionFrame, ErrorFrame))))
    assert not out.errors(), out.errors()
    (transcript,) = out.of(TranscriptionFrame)
    assert heard(transcript.text, QUESTION), transcript.text


def test_tts_service(base_url) -> None:
    """Pipecat's OpenAITTSService at /v1: a sentence comes back as 24 kHz audio frames, which
    Whisper (the server's /v1/audio/transcriptions) hears as that sentence."""
    tts = OpenAITTSService(api_key="unused", base_url=base_url + "/v1")
    out = Collector()
    sentence = "It is sunny in Paris today."
    asyncio.run(run_until([tts, out], lambda: bool(out.of(TTSStoppedFrame, ErrorFrame)),
                          first=[TTSSpeakFrame(sentence)]))
    assert not out.errors(), out.errors()
    audio = out.of(TTSAudioRawFrame)
    assert audio and all(a.sample_rate == RATE and a.num_channels == 1 for a in audio)
    pcm = b"".join(a.audio for a in audio)
    assert len(pcm) // 2 > RATE  # over a second of speech
    client = OpenAI(base_url=base_url + "/v1", api_key="unused")
    wav = wav_bytes(np.frombuffer(pcm, "<i2"), RATE)
    text = client.audio.transcriptions.create(model="whisper-1", file=("s.wav", wav)).text
    assert heard(text, sentence), text




def test_llm_service(base_url) -> None:
    """Pipecat's OpenAILLMService at /v1 (streamed chat completions): the reply streams back
    as text frames and lands in the context."""
    llm = OpenAILLMService(api_key="unused", base_url=base_url + "/v1",
                           settings=OpenAILLMService.Settings(model="demo"))
    context = LLMContext(messages=[{"role": "user", "content": QUESTION}])
    agg = LLMContextAggregatorPair(context)
    out = Collector()
    asyncio.run(run_until([agg.user(), llm, out, agg.assistant()],
                          lambda: bool(out.of(LLMFullResponseEndFrame, ErrorFrame)),
                          first=[LLMRunFrame()]))
    assert not out.errors(), out.errors()
    said = text_of(out.of(LLMTextFrame))
    assert "Paris" in said, said
