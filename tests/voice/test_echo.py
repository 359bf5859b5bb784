"""voice.echo: the assistant's own voice, heard through a room, is kept from the VAD; the user
talking over it is not. Real Piper speech, fed in 20 ms chunks as a microphone delivers it."""

from __future__ import annotations

import numpy as np
import pytest

from voice.audio import SAMPLE_RATE
from voice.echo import EchoSuppressor
from voice.vad import SpeechStarted, TurnDetector

REPLY = "The capital of France is Paris. It is a large city on the river Seine, famous for art."


def room(x: np.ndarray, delay_ms: int, gain: float) -> np.ndarray:
    """A loudspeaker heard by the microphone: delayed, attenuated, with two reflections."""
    out = np.zeros(len(x) + SAMPLE_RATE)
    for extra_ms, g in ((0, 1.0), (10, 0.2), (30, -0.1)):
        o = (delay_ms + extra_ms) * SAMPLE_RATE // 1000
        out[o : o + len(x)] += gain * g * x
    return out[: len(x)]


def starts(mic: np.ndarray, ref: np.ndarray | None) -> list[float]:
    """Seconds at which the VAD hears speech start, with suppression against ``ref``."""
    ec, d, found = EchoSuppressor(), TurnDetector(), []
    for i in range(0, len(mic), 320):
        chunk = mic[i : i + 320]
        if ref is not None:
            chunk = ec.process(chunk, ref[i : i + 320])
        found += [e.start / SAMPLE_RATE for e in d.feed(chunk) if isinstance(e, SpeechStarted)]
    return found


@pytest.mark.parametrize("delay_ms,gain", [(10, 0.25), (40, 0.5), (80, 0.5), (120, 0.5)])
def test_echo_alone_is_not_speech_but_the_user_over_it_is(speak, delay_ms, gain) -> None:
    reply = speak(REPLY)
    echo = room(reply.astype(np.float64), delay_ms, gain)
    mic = np.clip(echo, -32768, 32767).astype(np.int16)
    assert starts(mic, None)  # unsuppressed, the echo would interrupt the assistant
    assert starts(mic, reply) == []
    user = speak("Stop, stop.").astype(np.float64)
    both = echo.copy()
    both[2 * SAMPLE_RATE : 2 * SAMPLE_RATE + len(user)] += user
    found = starts(np.clip(both, -32768, 32767).astype(np.int16), reply)
    assert len(found) == 1 and 2.0 <= found[0] <= 2.3


def test_without_echo_the_user_passes(speak) -> None:
    """Headphones: the microphone stays quiet while the reply plays, so nothing is learned as
    echo and the user talking over the reply is heard at once."""
    reply = speak(REPLY)
    mic = np.zeros(len(reply), dtype=np.int16)
    user = speak("Stop, stop.")
    mic[SAMPLE_RATE : SAMPLE_RATE + len(user)] = user
    found = starts(mic, reply)
    assert len(found) == 1 and 0.95 <= found[0] <= 1.3  # 30 ms VAD frames


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError):
        EchoSuppressor().process(np.zeros(320, np.int16), np.zeros(160, np.int16))


def test_only_a_loudspeaker_next_to_the_microphone_is_suppressed(tmp_path) -> None:
    """`run` plays on this machine's speaker; a websocket client plays the reply itself (the page
    asks the browser to cancel its echo), so its microphone is never gated by the server."""
    from serve.outbox import Outbox, WebSocketSink
    from tests.engine.tiny import make_checkpoint
    from voice.config import load_config
    from voice.models import Models
    from voice.pipeline import Pipeline
    from voice.sink import WavSink

    make_checkpoint(tmp_path / "m", "sdar")
    cfg = load_config(None, [f"engine.model={tmp_path / 'm'}"])
    models = Models(cfg)
    try:
        here = Pipeline(models, cfg, WavSink(22050, realtime=True))
        remote = Pipeline(models, cfg, WebSocketSink(Outbox(), 22050))
        assert here.listener.echo.enabled and not remote.listener.echo.enabled
    finally:
        models.close()
