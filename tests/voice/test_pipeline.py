"""The real-time pipeline with real VAD, ASR and TTS on generated speech.

The LLM is a tiny random checkpoint (gibberish replies of a known length), so these tests are
about the pipeline's behaviour — context, barge-in, speculative start, shutdown, back-ends —
not about answers. Audio is replayed at real-time pace where timing matters.
"""

from __future__ import annotations

import asyncio
import time

import numpy as np
import pytest

from tests.engine.tiny import make_checkpoint
from voice.asr import normalize_text
from voice.audio import SAMPLE_RATE
from voice.config import load_config
from voice.endpoint import is_preface
from voice.frames import InterruptionFrame, ReplyTextFrame, TranscriptFrame, TtsAudioFrame
from voice.models import Models
from voice.pipeline import Pipeline
from voice.sink import WavSink, wav_source


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


def test_barge_in_stops_playback_and_truncates_history(
    models, speak, tiny_model, monkeypatch
) -> None:
    # The tiny random model's long reply is the point here: the reply check would sometimes
    # take its random words for garbled and say a short "didn't get that" instead.
    monkeypatch.setattr("voice.tools.garbled", lambda text: False)
    monkeypatch.setattr("voice.reply_check.garbled", lambda text: False)
    cfg = config(tiny_model, "sampling.max_new_tokens=48", "assistant.speculative=false")
    frames = []
    sink = WavSink(models.tts.sample_rate, realtime=True)
    pipe = Pipeline(models, cfg, sink, on_frame=frames.append)

    async def scenario() -> None:
        pipe.start(realtime=True)
        q = np.concatenate([silence(0.5), speak("Tell me a long story please."), silence(0.1)])
        async for chunk in wav_source(q, realtime=True, tail_ms=800):
            await pipe.feed(chunk)
        # Wait until the reply is audibly playing, then talk over it, after the take-back
        # window (vad.takeback_ms): an ordinary barge-in, not a false start
        for _ in range(400):
            if any(isinstance(f, TtsAudioFrame) for f in frames):
                break
            await asyncio.sleep(0.025)
        await asyncio.sleep(1.3)
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
    assert pipe.speculation.cancelled >= 1
    assert len(pipe.records) == 1
    words = normalize_text(pipe.records[0].transcript).split()
    assert words[:4] == ["what", "is", "the", "capital"] and words[-1] == "france"


def test_speculative_start_is_used_when_the_turn_ends_at_the_pause(models, speak, tiny_model):
    cfg = config(tiny_model)
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
    asyncio.run(run(pipe, np.concatenate([silence(0.5), speak("What can you do?")]), realtime=True))
    assert pipe.speculation.used == 1 and pipe.records[0].speculative
    assert pipe.speculation.cancelled == 0
    assert normalize_text(pipe.records[0].transcript) == "what can you do"


def test_work_left_of_a_used_speculation_is_urgent(models, speak, tiny_model) -> None:
    """The turn ends while the speculative reply is still being written: the first sentence's
    audio, asked for after that, is work the user waits for, not speculation that a busy
    server may hold back (a loaded bench turn waited 616 ms for a speculation slot here)."""
    cfg = config(tiny_model, "vad.endpoint=silence", "assistant.tools=false")
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
    jobs: list[tuple[str, bool, bool]] = []  # (job, speculative, turn ended already)
    run_job, stream_llm = pipe.jobs.run, pipe.answers._stream

    async def spy(fn, *args, speculative: bool = False, **kw):
        jobs.append((fn.__name__, speculative, bool(pipe.records) or pipe._turn is not None))
        return await run_job(fn, *args, speculative=speculative, **kw)

    def slow_llm(*args):
        time.sleep(1.5)  # past vad.end_ms: the turn ends meanwhile
        return stream_llm(*args)

    pipe.jobs.run, pipe.answers._stream = spy, slow_llm
    asyncio.run(run(pipe, np.concatenate([silence(0.5), speak("What can you do?")]), True))
    assert pipe.speculation.used == 1 and pipe.records[0].speculative
    assert ("hear", True, False) in jobs  # recognition at the pause: speculative
    synth = [j for j in jobs if j[0] == "_synthesize_all"]
    assert synth and synth[0] == ("_synthesize_all", False, True), jobs


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
    from serve.text_service import TextService
    from tests.web.conftest import ServerThread
    from voice.config import load_config

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


def trimmed(speak, text: str) -> np.ndarray:
    """Piper speech without its own trailing silence: the pauses are the test's."""
    from voice.vad import audible_end

    a = speak(text)
    return a[: audible_end(a)]


async def run_until_answered(pipe: Pipeline, audio: np.ndarray, limit_s: float = 30.0) -> None:
    """Speech, then silence until a turn is over (however slow a loaded machine is)."""
    pipe.start(realtime=True)
    async for chunk in wav_source(audio, realtime=True, tail_ms=0):
        await pipe.feed(chunk)
    async for chunk in wav_source(silence(limit_s), realtime=True, tail_ms=0):
        await pipe.feed(chunk)
        if pipe.records:
            break
    await pipe.finish()
    await pipe.close()


class Timeline:
    """Frames as they come out, with the wall time of each."""

    def __init__(self) -> None:
        import time

        self.clock = time.perf_counter
        self.frames: list[tuple[float, object]] = []

    def __call__(self, frame) -> None:
        self.frames.append((self.clock(), frame))

    def first(self, kind, turn: int | None = None) -> float | None:
        return next(
            (t for t, f in self.frames if isinstance(f, kind) and turn in (None, f.turn)), None
        )


def say_then_listen(pipe: Pipeline, seen: Timeline, *parts: np.ndarray) -> float:
    """The user says ``parts`` in real time, then is silent while the assistant answers; the
    time (``seen``'s clock) at which the user had said everything."""
    said_all: list[float] = []

    async def scenario() -> None:
        pipe.start(realtime=True)
        for part in parts:
            async for chunk in wav_source(part, realtime=True, tail_ms=0):
                await pipe.feed(chunk)
        said_all.append(seen.clock())
        async for chunk in wav_source(silence(0.1), realtime=True, tail_ms=2500):
            await pipe.feed(chunk)
        await pipe.finish()
        await pipe.close()

    asyncio.run(scenario())
    return said_all[0]


def test_a_pause_in_the_middle_of_a_sentence_does_not_end_the_turn(models, speak, tiny_model):
    cfg = config(tiny_model)  # the bundled defaults: transcript-aware endpointing
    seen = Timeline()
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True), on_frame=seen)
    first = np.concatenate([silence(0.5), trimmed(speak, "What is the capital of")])
    said_all = say_then_listen(pipe, seen, first, silence(0.7), trimmed(speak, "Australia?"))
    assert len(pipe.records) == 1
    rec = pipe.records[0]
    words = normalize_text(rec.transcript).split()
    assert words[:2] == ["what", "is"] and words[-1] == "australia"
    first_audio = seen.first(TtsAudioFrame)
    assert first_audio is not None and first_audio > said_all  # nobody was cut off
    assert pipe.speculation.cancelled >= 1  # the pause's transcript was incomplete: it waited


class SpySink(WavSink):
    """A WavSink that notes when each piece of reply audio was handed to it (wall clock)."""

    def __init__(self, sample_rate: int) -> None:
        super().__init__(sample_rate, realtime=True)
        self.handed: list[tuple[float, int]] = []

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        self.handed.append((self.clock(), turn))
        return await super().play(audio, turn)


@pytest.mark.parametrize(
    "first,pause_s,second",
    [("How many planets", 0.6, "are in the solar system?"), ("What is seven", 0.7, "times six?")],
    ids=["planets", "seven"],
)
def test_reply_audio_never_precedes_the_turn_decision(models, speak, tiny_model, first, pause_s,
                                                      second):  # fmt: skip
    # Issue 25's pauses in the middle of a question: the learned endpoint (the default) waits
    # through them, and speculation prepares silently: nothing reaches the sink before the turn
    # is decided, and the turn is decided only after the whole question.
    cfg = config(tiny_model)
    assert cfg.vad.endpoint == "model"
    seen = Timeline()
    sink = SpySink(models.tts.sample_rate)
    pipe = Pipeline(models, cfg, sink, on_frame=seen)
    start = np.concatenate([silence(0.5), trimmed(speak, first)])
    said_all = say_then_listen(pipe, seen, start, silence(pause_s), trimmed(speak, second))
    assert len(pipe.records) == 1, [r.transcript for r in pipe.records]
    (rec,) = pipe.records
    assert normalize_text(rec.transcript).split()[-1] == normalize_text(second).split()[-1]
    assert sink.handed, "no reply audio"
    assert sink.handed[0][0] >= rec.stamps["turn_detected"] > said_all
    assert pipe.speculation.started >= 2 and pipe.speculation.cancelled >= 1


def test_a_greeting_then_a_question_is_one_turn(models, speak, tiny_model) -> None:
    # Piper pauses ~330 ms at the comma, and "Hello there." is a whole sentence: a preface is
    # held for vad.preface_ms, so the user goes on before anything is said.
    cfg = config(tiny_model)
    seen = Timeline()
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True), on_frame=seen)
    audio = np.concatenate([silence(0.5), trimmed(speak, "Hello there, can you hear me?")])
    said_all = say_then_listen(pipe, seen, audio)
    assert len(pipe.records) == 1, [r.transcript for r in pipe.records]
    words = normalize_text(pipe.records[0].transcript).split()
    assert words[0] == "hello" and words[-2:] == ["hear", "me"]
    first_audio = seen.first(TtsAudioFrame)
    assert first_audio is not None and first_audio > said_all

    # A greeting alone is answered, after the preface hold (counted from the audible end).
    pipe = Pipeline(models, config(tiny_model), WavSink(models.tts.sample_rate, realtime=True))
    asyncio.run(run_until_answered(pipe, np.concatenate([silence(0.5), trimmed(speak, "Hello.")])))
    (rec,) = pipe.records
    assert rec.endpoint == "complete", rec.transcript
    assert is_preface(rec.transcript), rec.transcript
    # (the hold is counted on the stream's clock, the stage on the wall clock: a frame apart)
    assert rec.latency_ms["turn_detected"] >= cfg.vad.preface_ms - 60


def test_a_complete_question_ends_the_turn_on_its_transcript(models, speak, tiny_model) -> None:
    # The transcript decides, however long a loaded machine takes to produce it.
    cfg = config(tiny_model, "vad.incomplete_ms=8000")
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True))
    audio = np.concatenate([silence(0.5), trimmed(speak, "What can you do?")])
    asyncio.run(run_until_answered(pipe, audio))
    (rec,) = pipe.records
    assert rec.endpoint == "complete" and rec.speculative
    assert normalize_text(rec.transcript) == "what can you do"
    # Stages are counted from the audible end; the VAD's end of speech is a stage of its own.
    lat = rec.latency_ms
    assert 0 <= lat["speech_end"] <= lat["turn_detected"] <= lat["first_audio_out"]

    silent = config(tiny_model, "vad.endpoint=silence")
    pipe = Pipeline(models, silent, WavSink(models.tts.sample_rate, realtime=True))
    asyncio.run(run(pipe, audio, realtime=True))
    (rec,) = pipe.records
    assert rec.endpoint == "silence"
    assert rec.latency_ms["turn_detected"] >= 600  # vad.end_ms of silence after the VAD's end


def loudspeaker_echo(pipe: Pipeline, sink: WavSink, pos: int, n: int) -> np.ndarray:
    """What the microphone hears of the speaker at stream samples ``pos .. pos + n``: the audio
    actually played, 40 ms later, at half amplitude, with two room reflections."""
    from voice.audio import resample

    out = np.zeros(n)
    for start, audio, _ in sink.segments:
        a = resample(audio, sink.sample_rate, SAMPLE_RATE).astype(np.float64)
        off = round((start - pipe.listener.t0) * SAMPLE_RATE)
        for delay_ms, gain in ((40, 0.5), (50, 0.1), (70, -0.05)):
            o = off + delay_ms * SAMPLE_RATE // 1000
            lo, hi = max(pos, o), min(pos + n, o + len(a))
            if lo < hi:
                out[lo - pos : hi - pos] += gain * a[lo - o : hi - o]
    return out


def talk_over_loudspeakers(models, speak, cfg, user_after_s: float | None):
    """A question, then the microphone hears the reply through the room (and, ``user_after_s``
    after the reply began, the user saying "Stop, stop.")."""
    seen = Timeline()
    sink = WavSink(models.tts.sample_rate, realtime=True)
    pipe = Pipeline(models, cfg, sink, on_frame=seen)
    user = speak("Stop, stop.").astype(np.float64)

    async def scenario() -> None:
        pipe.start(realtime=True)
        q = np.concatenate([silence(0.5), trimmed(speak, "What is the capital of France?")])
        n, pos, began = SAMPLE_RATE // 50, 0, None
        q = np.concatenate([q, silence((-len(q) % n) / SAMPLE_RATE)])  # whole 20 ms chunks
        t0 = seen.clock()
        for i in range(0, len(q) + 40 * SAMPLE_RATE, n):
            delay = t0 + i / SAMPLE_RATE - seen.clock()
            if delay > 0:
                await asyncio.sleep(delay)
            mic = np.zeros(n) if i >= len(q) else q[i : i + n].astype(np.float64)
            mic += loudspeaker_echo(pipe, sink, pos, n)
            began = began if began is not None else (i if seen.first(TtsAudioFrame) else None)
            if user_after_s is not None and began is not None:
                k = i - began - int(user_after_s * SAMPLE_RATE)
                if 0 <= k < len(user):
                    mic[: len(user[k : k + n])] += user[k : k + n]
            await pipe.feed(np.clip(mic, -32768, 32767).astype(np.int16))
            pos += n
            if began is not None and i - began > 6 * SAMPLE_RATE:
                break
        await pipe.finish()
        await pipe.close()

    asyncio.run(scenario())
    return pipe, seen


def test_the_assistant_does_not_interrupt_itself_through_loudspeakers(models, speak, tiny_model):
    cfg = config(tiny_model, "sampling.max_new_tokens=48")
    pipe, seen = talk_over_loudspeakers(models, speak, cfg, None)
    assert seen.first(TtsAudioFrame, 1) is not None
    assert not any(isinstance(f, InterruptionFrame) for _, f in seen.frames)
    assert len(pipe.records) == 1 and not pipe.records[0].interrupted  # no echo turn either
    assert pipe.listener.echo.suppressor.suppressed > 0
    # Without suppression the same echo interrupts the answer: the test has teeth.
    off = config(tiny_model, "sampling.max_new_tokens=48", "vad.echo_suppression=false")
    pipe, seen = talk_over_loudspeakers(models, speak, off, None)
    assert any(isinstance(f, InterruptionFrame) for _, f in seen.frames)


def test_the_user_still_interrupts_over_the_echo(models, speak, tiny_model) -> None:
    cfg = config(tiny_model, "sampling.max_new_tokens=48")
    pipe, seen = talk_over_loudspeakers(models, speak, cfg, 1.6)  # after the take-back window
    first = pipe.records[0]
    assert first.interrupted and not first.taken_back
    assert any(isinstance(f, InterruptionFrame) and f.turn == 1 for _, f in seen.frames)
    assert any("stop" in normalize_text(r.transcript) for r in pipe.records[1:])


async def false_start(pipe: Pipeline, seen: Timeline, first: np.ndarray, then: np.ndarray,
                      before_close=None):
    """``first`` in real time, quiet until its answer is heard, 200 ms more, then ``then`` (the
    user going on), and quiet until the next turn is over. ``before_close(pipe)`` runs after
    the last answer, before the pipeline closes; what it returns is returned."""

    async def feed(audio: np.ndarray) -> None:
        async for chunk in wav_source(audio, realtime=True, tail_ms=0):
            await pipe.feed(chunk)

    async def quiet() -> None:  # 20 ms of silence, in real time
        await asyncio.sleep(0.02)
        await pipe.feed(silence(0.02))

    pipe.start(realtime=True)
    await feed(np.concatenate([silence(0.5), first]))
    for _ in range(1500):  # until the answer is heard (at most 30 s)
        await quiet()
        if seen.first(TtsAudioFrame) is not None:
            break
    for _ in range(10):
        await quiet()
    await feed(then)
    for _ in range(1500):
        await quiet()
        if len(pipe.records) >= 2:
            break
    await pipe.finish()
    out = before_close(pipe) if before_close is not None else None
    await pipe.close()
    return out


def test_a_false_start_is_taken_back_and_the_whole_utterance_answered(models, speak, tiny_model):
    # "Tell me a joke." is complete, so the turn ends at its pause and the answer starts; the
    # user goes on ("about the moon") 200 ms into it: the answer stops at once, leaves nothing
    # in the history, and the next turn hears and answers the whole utterance. (Headphones, or a
    # websocket client that cancels its own echo: over loudspeakers the echo suppressor needs the
    # first half second of the first reply to learn the room, and gates the microphone till then.)
    # The turn ends on the learned endpoint (the default), which is sure "Tell me a joke." is
    # finished: a late false end that only the take-back can repair.
    cfg = config(tiny_model, "sampling.max_new_tokens=48", "vad.echo_suppression=false")
    assert cfg.vad.endpoint == "model"
    seen = Timeline()
    pipe = Pipeline(models, cfg, WavSink(models.tts.sample_rate, realtime=True), on_frame=seen)

    asyncio.run(false_start(pipe, seen, trimmed(speak, "Tell me a joke."),
                            trimmed(speak, "About the moon.")))
    assert len(pipe.records) >= 2, [r.transcript for r in pipe.records]
    first, second = pipe.records[:2]
    assert first.endpoint == "complete"  # ended by the model on its transcript, not silence
    assert first.taken_back and first.interrupted and first.spoken == ""
    assert first.stats["barge_in_stop_ms"] < 100, first.stats  # the reply stops at once
    assert any(isinstance(f, InterruptionFrame) and f.turn == first.turn for _, f in seen.frames)
    words = normalize_text(second.transcript).split()
    assert "joke" in words and words[-1] == "moon", second.transcript
    users = [m["content"] for m in pipe.history if m["role"] == "user"]
    assert users == [second.transcript]  # the false start left no question and no answer
    assert [m["role"] for m in pipe.history] == ["user", "assistant"]
