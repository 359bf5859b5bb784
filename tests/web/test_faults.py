"""Faults and hard input through the websocket server, with the real VAD, Whisper, Piper and a
tiny LM: an engine exception mid-generation, an ASR or a TTS failure on one turn, a client that
leaves (or interrupts) mid-generation while batched with another, audio faster than real time,
continuous speech past the utterance limit, only silence, loud noise and clipping.

Faults are injected into the real models (a forward pass, ``transcribe`` or
``synthesize_stream`` that raises), never mocked stages. Each test ends by counting what could
leak: sessions, asyncio tasks, engine requests and KV cache slots.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack

import numpy as np
import pytest

from serve.server import VoiceServer
from tests.engine.test_faults import FaultyForward
from tests.web.conftest import ServerThread, heard, tiny_config
from tests.web.test_websocket import Client, open_client, wait_until
from voice.audio import SAMPLE_RATE, resample
from voice.config import AppConfig
from voice.models import Models

QUESTION = "What is the capital of France?"
FRAME = SAMPLE_RATE // 50  # 20 ms, as the page sends


class BurstServer(ServerThread):
    """A server whose sessions may send audio ``burst_s`` ahead of real time."""

    def __init__(self, models: Models, cfg: AppConfig, burst_s: float) -> None:
        super().__init__(models, cfg)
        self.server = VoiceServer(models, cfg, "127.0.0.1", 0, None, audio_burst_s=burst_s)


@pytest.fixture(scope="module")
def fast(tiny_models: Models, tiny_model) -> Iterator[BurstServer]:
    """Audio may arrive as fast as it is sent (tests replay speech without waiting); turns are
    cut at 2 s; no speculative start, so each turn calls Whisper exactly once."""
    cfg = tiny_config(tiny_model, "vad.max_utterance_ms=2000", "assistant.speculative=false")
    with BurstServer(tiny_models, cfg, burst_s=600.0) as s:
        yield s


@pytest.fixture(scope="module")
def speech(tiny_models: Models) -> Callable[[str], np.ndarray]:
    """``speech(text)``: Piper saying ``text`` at 16 kHz, with 0.3 s of silence before it and
    1.2 s after (the end of the turn)."""
    cache: dict[str, np.ndarray] = {}

    def make(text: str) -> np.ndarray:
        if text not in cache:
            tts = tiny_models.tts
            sp = resample(tts.synthesize(text), tts.sample_rate, SAMPLE_RATE)
            cache[text] = np.concatenate([silence(0.3), sp, silence(1.2)])
        return cache[text]

    return make


def silence(s: float) -> np.ndarray:
    return np.zeros(int(s * SAMPLE_RATE), dtype=np.int16)


def send_audio(c: Client, audio: np.ndarray) -> None:
    for i in range(0, len(audio), FRAME):
        c.ws.send(audio[i : i + FRAME].tobytes())


def session_of(server: ServerThread, c: Client):
    """The server's Session object behind client ``c``."""
    sid = next(e["session"] for e in c.events if e["type"] == "session.started")
    return server.server.sessions[sid]


def settle(c: Client) -> dict[int, str]:
    """Wait until every turn the client's audio so far started has ended; turn → outcome.

    ``conversation.reset`` is answered after every earlier message was handled, so once it is
    back every ``speech.stopped`` of that audio has been seen. Each such turn must then end in
    ``turn.metrics`` or ``reply.interrupted``: none may vanish without an outcome.
    """
    c.alive()
    stopped = [e["turn"] for e in c.events if e["type"] == "speech.stopped"]
    outcome: dict[int, str] = {}

    def ended(e: dict) -> bool:
        if e["type"] in ("turn.metrics", "reply.interrupted") and e["turn"] in stopped:
            outcome.setdefault(e["turn"], e["type"])
        return all(t in outcome for t in stopped)

    for e in list(c.events):
        ended(e)
    if not all(t in outcome for t in stopped):
        c.until(ended)
    return outcome


def reply_of(c: Client, turn: int) -> str:
    """The final reply text of ``turn`` (reading on until it arrives)."""
    pred: Callable[[dict], bool] = lambda e: (  # noqa: E731
        e["type"] == "reply.text" and e["final"] and e["turn"] == turn
    )
    ev = next((e for e in c.events if pred(e)), None) or c.until(pred)
    return ev["text"]


def text_turn(c: Client, text: str) -> tuple[int, str]:
    """Ask ``text``; wait for the whole turn; (turn, reply)."""
    c.send("text.input", text=text)
    turn = c.until(lambda e: e["type"] == "transcript.final" and e["text"] == text)["turn"]
    c.until(lambda e: e["type"] == "turn.metrics" and e["turn"] == turn)
    return turn, reply_of(c, turn)


def assert_nothing_leaked(server: ServerThread, models: Models, tasks_before: list[str]) -> None:
    """No sessions, no tasks beyond the idle server's, no engine requests, every slot free."""
    engine = models.llm.worker.engine
    wait_until(lambda: not server.server.sessions)
    wait_until(lambda: models.llm.worker.active() == 0)
    wait_until(lambda: len(engine.free_slots) == engine.config.max_batch_size)
    assert not engine.has_work()
    wait_until(lambda: server.task_names() == tasks_before)


@pytest.fixture
def baseline(fast: BurstServer, tiny_models: Models) -> Iterator[list[str]]:
    """The idle server's tasks; every test must leave the server as it found it."""
    wait_until(lambda: not fast.server.sessions)
    before = fast.task_names()
    yield before
    assert_nothing_leaked(fast, tiny_models, before)


@pytest.fixture(scope="module")
def reference(fast: BurstServer) -> dict[str, str]:
    """Replies to each question asked alone, in a fresh session (greedy: deterministic)."""
    out = {}
    for q in ("hello there", "what is seven times eight", "tell me about the moon"):
        with open_client(fast.ws_url) as c:
            out[q] = text_turn(c, q)[1]
    assert all(out.values()), out  # words to speak, so TTS is called
    return out


# --- faults in one turn -------------------------------------------------------------------
def test_engine_fault_mid_generation_fails_only_that_session(
    fast, tiny_models, baseline, reference
) -> None:
    with open_client(fast.ws_url) as a, open_client(fast.ws_url) as b:
        rid = f"turn-{id(session_of(fast, a).pipe)}-1"
        fault = FaultyForward(tiny_models.llm.worker, rid, at_nfe=1, times=None)
        try:
            a.send("text.input", text="tell me about the moon")
            b.send("text.input", text="what is seven times eight")
            err = a.error()
            assert err["code"] == "turn_failed" and err["turn"] == 1
            assert "injected fault" in err["message"] and "\n" not in err["message"]
            a.until(lambda e: e["type"] == "turn.metrics" and e["turn"] == 1)
            b.until(lambda e: e["type"] == "turn.metrics" and e["turn"] == 1)
        finally:
            fault.remove()
        assert fault.raised >= 1
        assert reply_of(b, 1) == reference["what is seven times eight"]  # untouched
        assert not any(e["type"] == "error" for e in b.events)
        # The failed session carries on.
        assert text_turn(a, "hello there")[1] == reference["hello there"]


def test_asr_failure_on_one_turn(fast, tiny_models, baseline, speech, monkeypatch) -> None:
    real = tiny_models.asr.transcribe
    calls: list[int] = []

    def once(audio: np.ndarray) -> str:
        calls.append(len(audio))
        if len(calls) == 1:
            raise RuntimeError("injected ASR fault")
        return real(audio)

    monkeypatch.setattr(tiny_models.asr, "transcribe", once)
    with open_client(fast.ws_url) as a, open_client(fast.ws_url) as b:
        send_audio(a, speech(QUESTION))
        err = a.error()
        assert err["code"] == "turn_failed" and "injected ASR fault" in err["message"]
        turn = err["turn"]
        assert settle(a) == {turn: "turn.metrics"}
        assert not any(e["type"] == "transcript.final" for e in a.events)
        # Both sessions then hear the same question fine.
        for c in (a, b):
            send_audio(c, speech(QUESTION))
            t = c.next_of("transcript.final")
            assert heard(t["text"], QUESTION), t["text"]
            settle(c)
    assert len(calls) == 3


def test_tts_failure_on_one_turn(fast, tiny_models, baseline, reference, monkeypatch) -> None:
    real = tiny_models.tts.synthesize_stream
    failed: list[str] = []

    def once(text: str, first_max_chars: int = 40):
        if not failed:
            failed.append(text)
            raise RuntimeError("injected TTS fault")
        return real(text, first_max_chars)

    monkeypatch.setattr(tiny_models.tts, "synthesize_stream", once)
    with open_client(fast.ws_url) as a, open_client(fast.ws_url) as b:
        a.send("text.input", text="hello there")
        err = a.error()
        assert err["code"] == "turn_failed" and "injected TTS fault" in err["message"]
        a.until(lambda e: e["type"] == "turn.metrics" and e["turn"] == err["turn"])
        assert reply_of(a, err["turn"]) == reference["hello there"]  # the text still came
        for c in (a, b):  # the next turns speak
            turn, _ = text_turn(c, "what is seven times eight")
            assert any(e["type"] == "reply.audio.end" and e["turn"] == turn for e in c.events)
            assert c.audio


@pytest.mark.parametrize("how", ["disconnect", "interrupt"])
def test_leaving_mid_generation_while_batched(fast, tiny_models, baseline, reference, how) -> None:
    """A leaves (or interrupts) while its reply is being generated in one batch with B's: A's
    request is aborted in the engine, B's reply is the same as alone."""
    worker = tiny_models.llm.worker
    engine = worker.engine
    real_forward = engine.model.forward
    real_abort = worker.abort
    aborted: list[tuple[str, bool]] = []  # (request id, whether it was still running)
    with ExitStack() as stack:
        a = stack.enter_context(open_client(fast.ws_url))
        b = stack.enter_context(open_client(fast.ws_url))
        rid = f"turn-{id(session_of(fast, a).pipe)}-1"

        passes: list[int] = []

        def slow(*args, **kwargs):  # A's reply takes long enough to be left mid-way
            if any(s.request_id == rid for s in engine.running):
                passes.append(1)
                time.sleep(0.1)
            return real_forward(*args, **kwargs)

        def abort(request_id: str) -> None:
            aborted.append((request_id, any(s.request_id == request_id for s in engine.running)))
            real_abort(request_id)

        engine.model.forward = slow
        worker.abort = abort
        try:
            a.send("text.input", text="tell me about the moon")
            b.send("text.input", text="what is seven times eight")
            # Mid-generation: A's request has had a pass or two. (Its text would not show yet:
            # reply text goes out a finished sentence at a time, voice/reply_check.py.)
            wait_until(lambda: len(passes) >= 2)
            if how == "interrupt":
                a.send("interrupt")
                assert a.next_of("reply.audio.stop")["turn"] == 1
                a.next_of("reply.interrupted")
            else:
                a.ws.socket.shutdown(socket.SHUT_RDWR)
            b.until(lambda e: e["type"] == "turn.metrics" and e["turn"] == 1)
            wait_until(lambda: worker.active() == 0)
        finally:
            del engine.model.forward
            del worker.abort
        assert (rid, True) in aborted
        assert reply_of(b, 1) == reference["what is seven times eight"]
        if how == "interrupt":
            assert text_turn(a, "hello there")[1] == reference["hello there"]


# --- hard input -----------------------------------------------------------------------------
def test_audio_faster_than_real_time_is_rate_limited(tiny_models, tiny_cfg) -> None:
    with BurstServer(tiny_models, tiny_cfg, burst_s=1.0) as s, open_client(s.ws_url) as c:
        session = session_of(s, c)
        frames = 400  # 8 s of audio, sent as fast as the socket takes it
        t0 = time.monotonic()
        send_audio(c, silence(frames * FRAME / SAMPLE_RATE))
        c.alive()  # every frame has been handled
        elapsed = time.monotonic() - t0
        limited = [e for e in c.events if e["type"] == "error"]
        assert limited and all(e["code"] == "rate_limited" for e in limited)
        assert "real time" in limited[0]["message"]
        fed = session.pipe.detector.position + len(session.pipe.detector._pending)
        assert fed + session.limiter.dropped == frames * FRAME
        assert session.limiter.dropped > 0 and fed >= SAMPLE_RATE  # the burst got through
        # Not one per dropped frame: at most one notice per burst (1 s here) of wall time.
        assert len(limited) <= 1 + elapsed
    wait_until(lambda: not s.server.sessions)


def test_continuous_speech_is_cut_at_the_limit(fast, baseline, speech) -> None:
    sp = speech("The quick brown fox jumps over the lazy dog and keeps on running")
    loud = np.nonzero(np.abs(sp.astype(np.int32)) > 500)[0]
    sp = sp[loud[0] : loud[-1] + 1]  # no silence at either end
    talk = np.tile(sp, 4)[: 7 * SAMPLE_RATE]  # 7 s without a pause; the limit is 2 s
    with open_client(fast.ws_url) as c:
        send_audio(c, np.concatenate([silence(0.3), talk, silence(1.2)]))
        outcome = settle(c)
        stops = [e for e in c.events if e["type"] == "speech.stopped"]
        assert len(stops) >= 3 and all(e["forced"] for e in stops[:-1])
        assert set(outcome) == {e["turn"] for e in stops}
        assert not any(e["type"] == "error" and e["code"] != "turn_failed" for e in c.events)


def test_only_silence_gives_no_turn_and_no_errors(fast, baseline) -> None:
    rng = np.random.default_rng(0)
    with open_client(fast.ws_url) as c:
        send_audio(c, silence(20.0))
        send_audio(c, rng.normal(0, 30, 10 * SAMPLE_RATE).astype(np.int16))  # a quiet room
        c.alive()
        assert [e["type"] for e in c.events] == ["session.started", "conversation.reset"]


@pytest.mark.parametrize("kind", ["loud-noise", "clipped-speech"])
def test_loud_noise_and_clipping(fast, baseline, speech, kind) -> None:
    """A turn or nothing; never a crash; the session then answers normally."""
    if kind == "loud-noise":
        rng = np.random.default_rng(1)
        loud = rng.integers(-32768, 32767, 3 * SAMPLE_RATE, dtype=np.int16, endpoint=True)
    else:
        sp = speech(QUESTION).astype(np.int32) * 30
        loud = np.clip(sp, -32768, 32767).astype(np.int16)
    with open_client(fast.ws_url) as c:
        send_audio(c, np.concatenate([silence(0.5), loud, silence(1.5)]))
        settle(c)
        codes = {e["code"] for e in c.events if e["type"] == "error"}
        assert codes <= {"turn_failed"}  # e.g. nothing recognised in noise
        c.events.clear()
        send_audio(c, speech(QUESTION))
        assert heard(c.next_of("transcript.final")["text"], QUESTION)
        settle(c)
