"""bench/load.py's bookkeeping, against scripted server events (no server, no models): every
turn is followed by its id to one outcome, audio is attributed to the turn that announced it,
and the client reports playback as done when a reply's audio has arrived."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest

PATH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


@pytest.fixture(scope="module")
def load():
    spec = importlib.util.spec_from_file_location("load_bench_under_test", PATH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    try:
        spec.loader.exec_module(mod)
        yield mod
    finally:
        del sys.modules[spec.name]


class ScriptedSocket:
    """Yields the given server messages; records what the client sends."""

    def __init__(self, messages: list[str | bytes]) -> None:
        self.messages, self.sent = messages, []

    def __aiter__(self):
        return self._gen()

    async def _gen(self):
        for m in self.messages:
            await asyncio.sleep(0)
            yield m

    async def send(self, m: str | bytes) -> None:
        self.sent.append(m)


def ev(type_: str, **fields) -> str:
    return json.dumps({"type": type_, **fields})


def stopped(turn: int, end_ms: float) -> str:
    return ev("speech.stopped", turn=turn, at_ms=end_ms + 600, speech_end_ms=end_ms, forced=False)


def test_each_turn_gets_its_own_outcome(load) -> None:
    script = [
        stopped(1, 2000.0),
        ev("transcript.final", turn=1, text="hi"),
        ev("error", code="turn_failed", message="TTS failed", turn=1),
        ev("turn.metrics", turn=1, latency_ms={}, stats={}),  # after the error: still an error
        stopped(2, 5000.0),
        ev("reply.text", turn=2, text="", final=True),
        ev("turn.metrics", turn=2, latency_ms={}, stats={}),  # an empty reply: silent
        stopped(3, 8000.0),
        b"\0\0" * 10,  # not announced: belongs to no turn
        ev("reply.audio.start", turn=3, sample_rate=22050, encoding="pcm_s16le", channels=1),
        b"\0\x10" * 10,
        ev("reply.audio.end", turn=3, samples=10),
        ev("turn.metrics", turn=3, latency_ms={}, stats={}),
        stopped(4, 11000.0),
        ev("reply.audio.start", turn=4, sample_rate=22050, encoding="pcm_s16le", channels=1),
        ev("reply.audio.stop", turn=4),
        b"\0\0" * 10,  # raced past the stop: ignored
        ev("reply.interrupted", turn=4, spoken=""),
        ev("turn.metrics", turn=4, latency_ms={}, stats={}),
        ev("turn.metrics", turn=9, latency_ms={}, stats={}),  # a typed turn: not an utterance
    ]
    st = load.Stats()
    ws = ScriptedSocket(script)
    conv = load.Conversation(ws, st)
    conv.t0 = 100.0
    asyncio.run(conv.receive())
    assert {n: t.outcome for n, t in conv.turns.items()} == {
        1: "error",
        2: "silent",
        3: "answered",
        4: "interrupted",
    }
    assert conv.turns[3].speech_end == pytest.approx(108.0)
    assert conv.turns[3].first_audio is not None and conv.turns[4].first_audio is None
    assert [json.loads(m) for m in ws.sent] == [{"type": "playback.done", "turn": 3}]
    assert st.protocol_errors == 0


def test_the_first_audible_sample_is_timed_as_it_plays(load) -> None:
    """A reply's first frame may open with near-silence (Piper's lead-in): the latency runs to
    when its first audible sample plays, the reply played from its first frame as it arrived;
    a frame that comes late plays no sooner than it came."""
    t = load.Turn(speech_end=0.0, audio_rate=16000)
    t.heard(np.zeros(160, dtype="<i2"), 10.0)  # 10 ms of digital silence
    lead = np.full(320, 20, dtype="<i2")  # 20 ms under -60 dBFS
    lead[200] = 400
    t.heard(lead, 10.001)  # arrives faster than real time: plays from 10.0 + 10 ms on
    assert t.first_frame == 10.0
    assert t.first_audio == pytest.approx(10.0 + (160 + 200) / 16000)
    late = load.Turn(speech_end=0.0, audio_rate=16000)
    late.heard(np.zeros(160, dtype="<i2"), 10.0)
    late.heard(np.full(160, 500, dtype="<i2"), 10.5)  # underrun: it plays when it arrives
    assert late.first_audio == pytest.approx(10.5)
    quiet = load.Turn(speech_end=0.0, audio_rate=16000)
    quiet.heard(np.full(320, 30, dtype="<i2"), 10.0)
    assert quiet.first_audio is None and quiet.played_at() == pytest.approx(10.02)


def test_errors_not_tied_to_a_turn_are_counted(load) -> None:
    st = load.Stats()
    conv = load.Conversation(ScriptedSocket([ev("error", code="rate_limited", message="x")]), st)
    asyncio.run(conv.receive())
    assert st.protocol_errors == 1 and conv.turns == {}
    conv = load.Conversation(ScriptedSocket([ev("error", code="busy", message="x")]), st)
    asyncio.run(conv.receive())
    assert conv.busy


def test_a_prompt_is_streamed_at_real_time_pace_and_tallied(load) -> None:
    """Against a scripted server that answers the first utterance: the client sends the prompt
    and then silence until the outcome, never running ahead of real time, and tallies it."""
    clock = [0.0]

    async def sleep(s: float) -> None:
        clock[0] += s

    st = load.Stats()

    class Server(ScriptedSocket):
        async def send(self, m) -> None:
            self.sent.append(m)
            if isinstance(m, bytes) and len(self.sent) == 60:  # 1.2 s in: the turn ends
                conv.turns[1] = load.Turn(speech_end=clock[0] - 0.6, first_audio=clock[0] + 0.5)
                conv.turns[1].outcome = "answered"

    clip = load.Clip("q", np.ones(load.SAMPLE_RATE // 2, dtype=np.int16))
    ws = Server([])
    conv = load.Conversation(ws, st)
    conv.clock, conv.sleep = (lambda: clock[0]), sleep
    asyncio.run(conv.speak([clip], 0, deadline=0.1))  # one prompt only
    frames = [m for m in ws.sent if isinstance(m, bytes)]
    assert all(len(f) == load.FRAME * 2 for f in frames)
    samples = sum(len(f) // 2 for f in frames)
    assert clock[0] >= (samples - load.FRAME) / load.SAMPLE_RATE  # never ahead of real time
    assert st.clips == 1 and st.turns == 1 and st.outcomes["answered"] == 1
    assert st.vad_latencies_ms == [pytest.approx(1100.0)]  # from the server's end of speech
    # From the audible end (the clip is audible to its last sample, sent from t0 = 0).
    assert st.latencies_ms == [pytest.approx((conv.turns[1].first_audio - 0.5) * 1000.0)]
    assert st.by_clip_ms == {"q": st.latencies_ms}
    assert st.lost == st.unheard == 0


def test_a_client_that_plays_listens_to_the_answer_first(load) -> None:
    """plays=True: after the answer's audio has arrived, the client goes on sending silence
    until it would have finished playing, then sends playback.done, then the gap, then asks."""
    clock = [0.0]

    async def sleep(s: float) -> None:
        clock[0] += s

    class Server(ScriptedSocket):
        async def send(self, m) -> None:
            self.sent.append((clock[0], m))
            if isinstance(m, bytes) and len(self.sent) == 60:  # 1.2 s in: answered at once
                t = load.Turn(speech_end=clock[0] - 0.6, first_audio=clock[0], outcome="answered",
                              audio_rate=16000, audio_samples=3 * 16000)  # a 3 s reply
                conv.turns[1] = t

    clip = load.Clip("q", np.ones(load.SAMPLE_RATE // 2, dtype=np.int16))
    ws = Server([])
    conv = load.Conversation(ws, load.Stats(), plays=True)
    conv.clock, conv.sleep = (lambda: clock[0]), sleep
    asyncio.run(conv.speak([clip], 0, deadline=0.1))
    done = [(t, json.loads(m)) for t, m in ws.sent if isinstance(m, str)]
    answered_at = conv.turns[1].first_audio
    assert [m for _, m in done] == [{"type": "playback.done", "turn": 1}]
    assert done[0][0] >= answered_at + 3.0 - 0.02  # after the reply has played
    frames = [t for t, m in ws.sent if isinstance(m, bytes)]
    assert frames[-1] >= answered_at + 3.0 + load.GAP_S - 0.05  # then the gap


class RealtimeSocket:
    """A Realtime server's events, read as a websockets connection is read: ``recv()`` (the
    connection has no ``__anext__``), then ``ConnectionClosedOK``; records what is sent."""

    def __init__(self, events: list[dict]) -> None:
        self.events, self.sent = [json.dumps(e) for e in events], []

    async def recv(self) -> str:
        from websockets.exceptions import ConnectionClosedOK

        await asyncio.sleep(0)
        if not self.events:
            raise ConnectionClosedOK(None, None)
        return self.events.pop(0)

    async def send(self, m: str) -> None:
        self.sent.append(json.loads(m))


def test_realtime_events_are_followed_as_ours(load) -> None:
    """A spoken turn on /v1/realtime: appends go out in base64 at 24 kHz, the reply's audio is
    attributed to its turn (with its rate, to play it out), and responses end as turns do."""
    clock = [50.0]
    reply = np.full(24000, 700, dtype="<i2").tobytes()  # 1 s at 24 kHz
    b64 = base64.b64encode(reply).decode()
    script = [
        {"type": "session.updated", "session": {"audio": {"output": {"format": {"rate": 24000}}}}},
        {"type": "input_audio_buffer.speech_started", "audio_start_ms": 500},
        {"type": "input_audio_buffer.speech_stopped", "audio_end_ms": 2000},
        {"type": "response.created", "response": {"id": "r1"}},
        {"type": "response.output_audio.delta", "response_id": "r1", "delta": b64},
        {"type": "response.done", "response": {"id": "r1", "status": "completed", "metadata": {
            "diffvoice": {"latency_ms": {"first_audio_out": 700.0},
                          "stats": {"session_cpu_s": 1.0, "session_audio_s": 4.0}}}}},
        {"type": "input_audio_buffer.speech_stopped", "audio_end_ms": 6000},
        {"type": "response.created", "response": {"id": "r2"}},
        {"type": "response.done", "response": {"id": "r2", "status": "cancelled"}},
        {"type": "input_audio_buffer.speech_stopped", "audio_end_ms": 9000},
        {"type": "response.created", "response": {"id": "r3"}},
        {"type": "error", "error": {"code": "turn_failed", "message": "TTS failed"}},
        {"type": "response.done", "response": {"id": "r3", "status": "failed"}},
        {"type": "error", "error": {"code": "rate_limited", "message": "x"}},
    ]
    sock = RealtimeSocket(script)
    rt = load.RealtimeAsOurs(sock)
    st = load.Stats()
    conv = load.Conversation(rt, st, load.REALTIME_RATE)
    conv.t0 = 100.0
    conv.clock = lambda: clock[0]

    async def main() -> None:
        await rt.start()
        await rt.send(b"\1\0" * 480)  # one 20 ms frame at 24 kHz
        await conv.receive()  # to the end of the script (ConnectionClosedOK)

    asyncio.run(main())
    fmt = sock.sent[0]["session"]["audio"]["input"]["format"]
    assert fmt == {"type": "audio/pcm", "rate": 24000}
    assert sock.sent[1]["type"] == "input_audio_buffer.append"
    assert base64.b64decode(sock.sent[1]["audio"]) == b"\1\0" * 480
    assert {n: t.outcome for n, t in conv.turns.items()} == {
        1: "answered", 2: "interrupted", 3: "error",
    }
    assert conv.turns[1].speech_end == pytest.approx(102.0)
    assert conv.turns[1].first_audio == pytest.approx(50.0)
    assert conv.turns[1].stages_ms == {"first_audio_out": 700.0}  # the server's own stages
    assert st.cpu_per_audio_s() == 0.25  # and its CPU per audio second
    assert conv.turns[1].played_at() == pytest.approx(51.0)  # 1 s of reply at 24 kHz
    assert st.protocol_errors == 1  # rate_limited; turn_failed belongs to turn 3


def test_a_clip_at_24khz_keeps_its_audible_end(load) -> None:
    audio = np.concatenate([np.zeros(8000), np.full(8000, 9000), np.zeros(8000)]).astype(np.int16)
    clip = load.Clip("q", audio)
    at24 = clip.at(24000)
    assert len(at24.audio) == 36000
    assert at24.audible_end == pytest.approx(clip.audible_end * 1.5, abs=1)
    assert clip.at(load.SAMPLE_RATE) is clip


@pytest.mark.parametrize("protocol", ["ws", "realtime", "webrtc", "webrtc_lossy"])
def test_one_question_against_a_real_server(load, tiny_models, tiny_model, protocol) -> None:
    """The bench's client, as ``--protocols ws,realtime,webrtc,webrtc_lossy`` runs it, against
    the real server (tiny LM): the question is heard, its turn reaches an outcome, and latency is
    measured (over WebRTC: to the first reply audio heard on the track; lossy: 2 % of the RTP
    packets dropped each way)."""
    from tests.web.conftest import ServerThread, tiny_config

    clips = [c for c in load.load_clips() if c.name == "hello"]
    if protocol == "realtime":
        clips = [c.at(load.REALTIME_RATE) for c in clips]
    cfg = tiny_config(tiny_model, "assistant.speculative=false")
    with ServerThread(tiny_models, cfg) as s:
        url = {"ws": s.ws_url, "realtime": s.ws_url.replace("/ws", "/v1/realtime"),
               "webrtc": f"{s.url}rtc", "webrtc_lossy": f"{s.url}rtc#loss=0.02"}[protocol]
        st = load.Stats()
        deadline = time.perf_counter() + 0.5  # one question
        asyncio.run(load.session(url, clips, deadline, 0, st))
    assert st.clips == 1 and st.unheard == 0 and st.lost == 0, st
    assert st.sessions_failed == 0 and st.protocol_errors == 0, st
    assert st.turns >= 1 and st.outcomes["answered"] >= 1, st
    assert len(st.latencies_ms) == 1 and 0 < st.latencies_ms[0] < 30_000
