"""The real-time pipeline with real VAD, ASR and TTS on generated speech.

The LLM is a tiny random checkpoint (gibberish replies of a known length), so these tests are
about the pipeline's behaviour — context, barge-in, speculative start, shutdown, back-ends —
not about answers. Audio is replayed at real-time pace where timing matters.
"""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from tests.engine.tiny import make_checkpoint
from voice.asr import normalize_text
from voice.audio import SAMPLE_RATE
from voice.config import load_config
from voice.frames import InterruptionFrame, ReplyTextFrame, TranscriptFrame, TtsAudioFrame
from voice.pipeline import Models, Pipeline, WavSink, wav_source


def silence(s: float) -> np.ndarray:
    return np.zeros(int(SAMPLE_RATE * s), dtype=np.int16)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("m") / "sdar"
    make_checkpoint(d, "sdar")
    return str(d)


def config(model: str, *extra: str):
    return load_config(None, [f"engine.model={model}", "sampling.max_new_tokens=24", *extra])


@pytest.fixture(scope="module")
def models(tiny_model):
    m = Models(config(tiny_model))
    yield m
    m.close()


async def run(pipe: Pipeline, audio: np.ndarray, realtime: bool) -> None:
    await pipe.run(wav_source(audio, realtime=realtime, tail_ms=1500), realtime=realtime)


def test_two_turns_keep_context_and_frames_carry_turn_ids(models, speak, tiny_model) -> None:
    cfg = config(tiny_model)
    frames = []
    sink = WavSink(models.tts.sample_rate, realtime=False)
    pipe = Pipeline(models, cfg, sink, on_frame=frames.append)
    audio = np.concatenate(
        [
            silence(0.5),
            speak("What is the capital of France?"),
            silence(1.5),
            speak("And what about Germany?"),
            silence(0.5),
        ]
    )
    asyncio.run(run(pipe, audio, realtime=False))
    assert [normalize_text(r.transcript) for r in pipe.records] == [
        "what is the capital of france",
        "and what about germany",
    ]
    h = pipe.history
    assert [m["role"] for m in h] == ["user", "assistant", "user", "assistant"]
    assert h[0]["content"] == pipe.records[0].transcript
    assert h[1]["content"] == pipe.records[0].reply
    # The second question was asked with the first exchange in the prompt.
    msgs = pipe.messages_for("next")
    assert msgs[:4] == h and msgs[-1] == {"role": "user", "content": "next"}
    finals = [f for f in frames if isinstance(f, TranscriptFrame)]
    assert [f.turn for f in finals] == [1, 2]
    assert {f.turn for f in frames if isinstance(f, TtsAudioFrame)} <= {1, 2}
    replies = [f for f in frames if isinstance(f, ReplyTextFrame) and f.final]
    assert [f.text for f in replies] == [r.reply for r in pipe.records]
    assert len(sink.audio()) > 0


def test_barge_in_stops_playback_and_truncates_history(models, speak, tiny_model) -> None:
    cfg = config(tiny_model, "sampling.max_new_tokens=48", "assistant.speculative=false")
    frames = []
    sink = WavSink(models.tts.sample_rate, realtime=True)
    pipe = Pipeline(models, cfg, sink, on_frame=frames.append)

    async def scenario() -> None:
        pipe.start(realtime=True)
        q = np.concatenate([silence(0.5), speak("Tell me a long story please."), silence(0.1)])
        async for chunk in wav_source(q, realtime=True, tail_ms=800):
            await pipe.feed(chunk)
        # Wait until the reply is audibly playing, then talk over it.
        for _ in range(400):
            if any(isinstance(f, TtsAudioFrame) for f in frames):
                break
            await asyncio.sleep(0.025)
        await asyncio.sleep(0.8)
        async for chunk in wav_source(speak("Stop, stop."), realtime=True, tail_ms=1500):
            await pipe.feed(chunk)
        await pipe.finish()
        await pipe.close()

    asyncio.run(scenario())
    first = pipe.records[0]
    assert first.interrupted
    assert any(isinstance(f, InterruptionFrame) and f.turn == 1 for f in frames)
    full, heard = first.reply.split(), first.spoken.split()
    assert 0 < len(heard) < len(full)
    assert full[: len(heard)] == heard
    assert pipe.history[1] == {"role": "assistant", "content": first.spoken}
    assert first.stats["barge_in_stop_ms"] < 100
    # What was written is what was heard: less than the whole reply's audio.
    whole = sum(len(f.audio) for f in frames if isinstance(f, TtsAudioFrame) and f.turn == 1)
    played = sum(len(a) for _, a, turn in sink.segments if turn == 1)
    assert played > 0
    assert played < whole


def test_speculative_start_is_cancelled_when_speech_resumes(models, speak, tiny_model) -> None:
    cfg = config(tiny_model, "vad.pause_ms=200", "vad.end_ms=700")
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
    audio = np.concatenate(
        [
            silence(0.5),
            speak("What is the capital"),
            silence(0.4),
            speak("of France?"),
        ]
    )
    asyncio.run(run(pipe, audio, realtime=True))
    assert pipe.speculative_cancelled >= 1
    assert len(pipe.records) == 1
    words = normalize_text(pipe.records[0].transcript).split()
    assert words[:4] == ["what", "is", "the", "capital"] and words[-1] == "france"


def test_speculative_start_is_used_when_the_turn_ends_at_the_pause(models, speak, tiny_model):
    cfg = config(tiny_model)
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
    asyncio.run(run(pipe, np.concatenate([silence(0.5), speak("What can you do?")]), realtime=True))
    assert pipe.speculative_used == 1 and pipe.records[0].speculative
    assert pipe.speculative_cancelled == 0
    assert normalize_text(pipe.records[0].transcript) == "what can you do"


def test_nothing_left_running_after_shutdown(models, speak, tiny_model) -> None:
    cfg = config(tiny_model)

    async def scenario() -> set:
        pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
        pipe.start(realtime=True)
        async for chunk in wav_source(
            np.concatenate([silence(0.3), speak("Hello there.")]), realtime=True, tail_ms=700
        ):
            await pipe.feed(chunk)
        await pipe.close()  # mid-turn: the answer is still being prepared
        await asyncio.sleep(0)
        return {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}

    assert asyncio.run(scenario()) == set()
    assert models.llm.worker.active() == 0 or _drains(models)


def _drains(models) -> bool:
    import time

    for _ in range(100):
        if models.llm.worker.active() == 0:
            return True
        time.sleep(0.05)
    return False


def test_pipeline_through_the_openai_compatible_endpoint(speak, tiny_model) -> None:
    from engine import Engine, EngineConfig, EngineWorker, SamplingParams
    from tests.web.conftest import ServerThread
    from voice.config import load_config
    from voice.openai_api import TextService

    worker = EngineWorker(Engine.load(EngineConfig(model=tiny_model, max_model_len=256)))
    text = TextService(worker, "tiny", SamplingParams())
    try:
        with ServerThread(None, load_config(None, []), text=text) as server:
            # No assistant.llm_model: the pipeline asks the endpoint's /v1/models for the id.
            cfg = config(tiny_model, f'assistant.llm_url="{server.api_url}"')
            m = Models(cfg)
            pipe = Pipeline(m, cfg, WavSink(m.tts.sample_rate, realtime=False))
            asyncio.run(run(pipe, np.concatenate([silence(0.5), speak("Hello there.")]), False))
            assert len(pipe.records) == 1 and pipe.records[0].error is None
            assert pipe.records[0].reply  # the endpoint's words came back
            assert m.llm.model == "tiny"
    finally:
        worker.close()
