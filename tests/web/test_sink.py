"""The websocket sink and its outbox, on a fake clock: playback estimates, announcements, and a
barge-in that drops audio not yet sent."""

from __future__ import annotations

import asyncio
import json

import numpy as np

from serve.outbox import Outbox, WebSocketSink
from serve.protocol import encode


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def drain(box: Outbox) -> list[str | bytes]:
    """Everything queued so far."""

    async def take() -> list[str | bytes]:
        box.close()
        out = []
        while (m := await box.get()) is not None:
            out.append(m if isinstance(m, bytes | str) else encode(m))  # as /ws sends them
        return out

    return asyncio.run(take())


def kinds(messages: list[str | bytes]) -> list[str]:
    return [
        json.loads(m)["type"] if isinstance(m, str) else f"audio:{len(m) // 2}" for m in messages
    ]


def test_play_announces_once_and_estimates_a_playback_clock() -> None:
    clock, box = FakeClock(), Outbox()
    sink = WebSocketSink(box, 16000, clock)
    one_s = np.ones(16000, dtype=np.int16)
    assert asyncio.run(sink.play(one_s, 1)) == (100.0, 101.0)
    clock.t = 100.5
    assert asyncio.run(sink.play(one_s[:8000], 1)) == (101.0, 101.5)  # queued behind the first
    assert sink.busy()
    sink.end(1)
    msgs = drain(box)
    assert kinds(msgs) == ["reply.audio.start", "audio:16000", "audio:8000", "reply.audio.end"]
    start, end = json.loads(msgs[0]), json.loads(msgs[-1])
    assert start == {
        "type": "reply.audio.start", "turn": 1, "sample_rate": 16000,
        "encoding": "pcm_s16le", "channels": 1,
    }
    assert end == {"type": "reply.audio.end", "turn": 1, "samples": 24000}
    assert np.frombuffer(msgs[1], "<i2").tolist() == one_s.tolist()
    sink.played(1)  # the client says it has finished
    assert not sink.busy()


def test_long_audio_is_split_into_frames() -> None:
    box = Outbox()
    sink = WebSocketSink(box, 44100, FakeClock())
    asyncio.run(sink.play(np.zeros(40000, dtype=np.int16), 3))
    assert kinds(drain(box)) == ["reply.audio.start", "audio:16384", "audio:16384", "audio:7232"]


def test_stop_drops_unsent_audio_and_silences_the_turn() -> None:
    clock, box = FakeClock(), Outbox()
    sink = WebSocketSink(box, 16000, clock)
    box.put(json.dumps({"type": "transcript.final", "turn": 2, "text": "hi"}))
    asyncio.run(sink.play(np.ones(16000, dtype=np.int16), 2))
    asyncio.run(sink.stop(2))
    assert not sink.busy()
    assert asyncio.run(sink.play(np.ones(160, dtype=np.int16), 2)) == (100.0, 100.0)  # stale
    sink.end(2)  # no end after a stop
    asyncio.run(sink.play(np.ones(160, dtype=np.int16), 3))  # the next turn plays
    assert kinds(drain(box)) == [
        "transcript.final", "reply.audio.stop", "reply.audio.start", "audio:160",
    ]


def test_a_rate_change_is_announced_again() -> None:
    box = Outbox()
    sink = WebSocketSink(box, 22050, FakeClock())
    asyncio.run(sink.play(np.zeros(100, dtype=np.int16), 1))
    sink.sample_rate = 48000  # session.config arrived mid-turn
    asyncio.run(sink.play(np.zeros(200, dtype=np.int16), 1))
    sink.end(1)
    msgs = drain(box)
    assert kinds(msgs) == [
        "reply.audio.start", "audio:100", "reply.audio.start", "audio:200", "reply.audio.end",
    ]
    assert json.loads(msgs[2])["sample_rate"] == 48000
    assert json.loads(msgs[-1])["samples"] == 300
