"""``diffvoice wyoming`` as Home Assistant meets it: the real server process on the bundled
models, driven by the ``wyoming`` client library (the one Home Assistant's integration uses):
describe/info, Whisper on a Piper-voiced question, Piper whole and streamed, the assistant as a
conversation agent with its tools, bad events, a full server and a client that vanishes."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import Event
from wyoming.handle import Handled
from wyoming.info import Describe, Info
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
)

from tests.cli_server import cli_server

MAX_CONNECTIONS = 3


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """``diffvoice wyoming --port 0`` as a subprocess; its banner names the port it took."""
    with cli_server(["wyoming", "--port", "0", "--set",
                     f"server.max_sessions={MAX_CONNECTIONS}"], r"tcp://127\.0\.0\.1:(\d+)") as m:
        yield int(m.group(1))


def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def _until(client: AsyncTcpClient, *types: str) -> list[Event]:
    """Events up to and including the first of ``types``."""
    got = []
    while True:
        e = await client.read_event()
        assert e is not None, f"connection closed; had {[x.type for x in got]}"
        got.append(e)
        if e.type in types:
            return got


async def _speech(client: AsyncTcpClient, text: str) -> tuple[int, bytes]:
    await client.write_event(Synthesize(text=text).event())
    events = await _until(client, "audio-stop", "error")
    assert events[0].type == "audio-start", events[-1]
    start = AudioStart.from_event(events[0])
    assert (start.width, start.channels) == (2, 1)
    chunks = [AudioChunk.from_event(e) for e in events if e.type == "audio-chunk"]
    assert chunks and all(c.rate == start.rate for c in chunks)
    return start.rate, b"".join(c.audio for c in chunks)


def test_describe_announces_asr_tts_and_handle(port):
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            await c.write_event(Describe().event())
            return Info.from_event((await _until(c, "info"))[-1])

    info = _run(go())
    assert info.asr and info.asr[0].installed and "en" in info.asr[0].models[0].languages
    assert info.tts and info.tts[0].supports_synthesize_streaming and info.tts[0].voices
    assert info.handle and info.handle[0].models


def test_whisper_hears_a_piper_voiced_question(port):
    """Piper says a question (at its own rate); Whisper reads it back. The chunks hold an odd
    number of bytes, half samples at their edges, as Home Assistant's speech-to-text API passes
    on an HTTP body cut wherever its reader split it."""
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            rate, pcm = await _speech(c, "What is the capital of Germany?")
            assert len(pcm) > rate  # over half a second of speech (two bytes a sample)
            await c.write_event(Transcribe(language="en").event())
            await c.write_event(AudioStart(rate=rate, width=2, channels=1).event())
            step = 2 * 1531 + 1
            for i in range(0, len(pcm), step):
                await c.write_event(AudioChunk(rate=rate, width=2, channels=1,
                                               audio=pcm[i:i + step]).event())
            await c.write_event(AudioStop().event())
            return Transcript.from_event((await _until(c, "transcript"))[-1]).text

    text = _run(go())
    assert "capital of germany" in text.lower(), text


def test_the_assistant_answers_as_a_conversation_agent(port):
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            ctx = {"conversation_id": "kitchen-1"}
            await c.write_event(Transcript(text="What is the capital of France?",
                                           context=ctx).event())
            first = Handled.from_event((await _until(c, "handled", "not-handled"))[-1])
            await c.write_event(Transcript(text="what is seven times six", context=ctx).event())
            second = Handled.from_event((await _until(c, "handled", "not-handled"))[-1])
            return first, second

    first, second = _run(go())
    assert "Paris" in first.text and first.context == {"conversation_id": "kitchen-1"}
    assert "forty two" in second.text.lower() or "42" in second.text  # the calculator tool


def test_streamed_synthesis_speaks_each_sentence_before_the_text_ends(port):
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            await c.write_event(SynthesizeStart().event())
            await c.write_event(SynthesizeChunk(text="The capital of France").event())
            await c.write_event(SynthesizeChunk(text=" is Paris. It is").event())
            # the first sentence is complete: its audio comes before the text ends
            early = await _until(c, "audio-chunk")
            await c.write_event(SynthesizeChunk(text=" on the Seine.").event())
            # what a streaming client also sends for older servers, before synthesize-stop
            # (start → chunk+ → synthesize? → stop): ignored
            await c.write_event(Synthesize(text="The capital of France is Paris. It is on the "
                                                "Seine.").event())
            await c.write_event(SynthesizeStop().event())
            rest = await _until(c, "synthesize-stopped")
            await c.write_event(Describe().event())  # nothing else was queued before this
            after = await _until(c, "info")
            return early, rest, after

    early, rest, after = _run(go())
    assert [e.type for e in early] == ["audio-start", "audio-chunk"]
    types = [e.type for e in rest]
    assert types.count("audio-stop") == 1 and types[-2:] == ["audio-stop", "synthesize-stopped"]
    assert "audio-start" not in types and types.count("audio-chunk") > 3
    assert [e.type for e in after] == ["info"]
    assert SynthesizeStopped.is_type(rest[-1].type)


def test_bad_events_get_error_events_and_the_connection_goes_on(port):
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            out = []
            for bad in (Event(type="no-such-event"),
                        AudioChunk(rate=16000, width=2, channels=1, audio=b"\0\0").event(),
                        SynthesizeChunk(text="hello").event(),
                        Synthesize(text="x" * 5000).event()):
                await c.write_event(bad)
                out.append(Error.from_event((await _until(c, "error"))[-1]))
            await c.write_event(Describe().event())
            await _until(c, "info")
            return out

    errors = _run(go())
    assert [e.code for e in errors] == ["unsupported-event", "no-audio-start",
                                        "no-synthesize-start", "text-too-long"]
    assert all(e.text for e in errors)


def test_a_request_over_its_limit_still_ends_as_its_client_waits(port):
    """Home Assistant's clients read no ``error`` event: they wait for the transcript or the
    end of the audio. Over a limit, the error is said once and the request still ends."""
    async def go():
        async with AsyncTcpClient("127.0.0.1", port) as c:
            await c.write_event(AudioStart(rate=16000, width=2, channels=1).event())
            second = bytes(2 * 16000)
            for _ in range(62):  # 62 s: two over the limit
                await c.write_event(AudioChunk(rate=16000, width=2, channels=1,
                                               audio=second).event())
            await c.write_event(AudioStop().event())
            asr = await _until(c, "transcript")
            await c.write_event(Synthesize(text="Hello. " * 800).event())
            tts = await _until(c, "audio-stop")
            await c.write_event(SynthesizeStart().event())
            for _ in range(3):
                await c.write_event(SynthesizeChunk(text="word " * 1000).event())
            await c.write_event(SynthesizeStop().event())
            streamed = await _until(c, "synthesize-stopped")
            return asr, tts, streamed

    asr, tts, streamed = _run(go())
    assert [e.type for e in asr] == ["error", "transcript"]
    assert Error.from_event(asr[0]).code == "audio-too-long"
    assert [e.type for e in tts] == ["error", "audio-start", "audio-stop"]
    assert Error.from_event(tts[0]).code == "text-too-long"
    assert [e.type for e in streamed] == ["error", "audio-start", "audio-stop",
                                          "synthesize-stopped"]


def test_a_full_server_says_so_and_a_vanished_client_frees_its_slot(port):
    async def go():
        vanishing = AsyncTcpClient("127.0.0.1", port)
        await vanishing.connect()
        await vanishing.write_event(AudioStart(rate=16000, width=2, channels=1).event())
        await vanishing.write_event(AudioChunk(rate=16000, width=2, channels=1,
                                               audio=b"\1\0" * 8000).event())
        await vanishing.disconnect()  # mid-utterance
        await asyncio.sleep(0.5)
        held = [AsyncTcpClient("127.0.0.1", port) for _ in range(MAX_CONNECTIONS)]
        for c in held:
            await c.connect()
            await c.write_event(Describe().event())
            await _until(c, "info")  # each one is served: the vanished one's slot is free
        extra = AsyncTcpClient("127.0.0.1", port)
        await extra.connect()
        refused = await extra.read_event()
        closed = await extra.read_event()
        for c in [*held, extra]:
            await c.disconnect()
        return refused, closed

    refused, closed = _run(go())
    assert refused is not None and Error.from_event(refused).code == "server-full"
    assert closed is None


def test_wyoming_bench_an_outside_client_measures_it(port, tmp_path):
    """wyoming-bench (not ours) synthesises with diffvoice's Piper, non-streaming and streaming,
    then transcribes what it made with diffvoice's Whisper: every request succeeds."""
    bench = [sys.executable, "-m", "wyoming_bench.cli"]
    server = f"127.0.0.1:{port}"
    tts = subprocess.run([*bench, "tts", server, "--rounds", "1", "--warmup", "0",
                          "--texts", "Turn on the kitchen lights. It is getting dark."],
                         capture_output=True, text=True, timeout=300)
    assert tts.returncode == 0, tts.stdout + tts.stderr
    assert re.findall(r"\[(\w+)\] ok=(\d+) fail=(\d+)", tts.stdout) == [
        ("non_streaming", "1", "0"), ("streaming", "1", "0")], tts.stdout
    corpus = tmp_path / "corpus"
    gen = subprocess.run([*bench, "generate-corpus", server, "--out", str(corpus), "--texts",
                          "What time is it in Tokyo?", "Set a timer for ten minutes."],
                         capture_output=True, text=True, timeout=300)
    assert gen.returncode == 0, gen.stdout + gen.stderr
    stt = subprocess.run([*bench, "stt", server, "--corpus", str(corpus), "--rounds", "1",
                          "--warmup", "0"], capture_output=True, text=True, timeout=300)
    assert stt.returncode == 0, stt.stdout + stt.stderr
    assert "[non_streaming] ok=2 fail=0" in stt.stdout, stt.stdout
    wer = float(re.search(r"WER=([\d.]+)%", stt.stdout).group(1))
    assert wer <= 20.0, stt.stdout  # two short Piper-voiced sentences, Whisper tiny.en
