"""How the WebRTC calls (:mod:`serve.webrtc`) use aiortc's media path: packets decoded as they
arrive (:class:`ArrivalOrder`), holes in a caller's audio filled with the time they lasted
(:class:`Gaps`), and the reply's Opus in libopus's low-delay mode (:func:`speak_low_delay`).
Each was measured in ``bench/load.py`` (docs/realtime.md, WebRTC)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ArrivalOrder:
    """An audio jitter buffer for a listener that does not play what it hears (the server's
    VAD and Whisper; the load bench's ear): each Opus packet is decoded as it arrives, a packet
    that comes after a later one is dropped, and a lost one is skipped at once.

    aiortc's own audio jitter buffer waits for a missing packet until 16 more have come (320 ms)
    and then releases one frame per packet received, so after a single loss the audio runs up to
    320 ms late for the rest of the call (measured: 2 % loss each way added ~800 ms to the
    turn). Browsers conceal loss (NetEq); a listener that only needs the words is better served
    by getting them on time. :func:`listen_on_arrival` installs it for aiortc's audio receivers.
    """

    capacity = 16  # aiortc reads it

    def __init__(self, capacity: int = 16, prefetch: int = 0, is_video: bool = False) -> None:
        self._next: int | None = None

    def add(self, packet):
        from aiortc.jitterbuffer import JitterFrame

        seq = packet.sequence_number
        if self._next is not None and (seq - self._next) % 65536 >= 32768:
            return False, None  # older than what was already passed on
        self._next = (seq + 1) % 65536
        return False, JitterFrame(data=packet._data, timestamp=packet.timestamp)

    def remove(self, count: int) -> None:
        pass

    def smart_remove(self, count: int) -> bool:
        return True


class Gaps:
    """Where a caller's audio has holes: packets lost, or none sent while it was quiet (Opus DTX,
    on by default in LiveKit's clients). The session's stream is its clock (turn ends, the
    latency stamps), so each hole is filled with as much silence as it lasted, read from the
    frames' RTP timestamps (32 bits, from a random origin, wrapping)."""

    MAX_S = 30.0  # a longer jump is a restarted stream, not a hole

    def __init__(self) -> None:
        self._next: int | None = None

    def before(self, pts: int | None, samples: int, rate: int) -> int:
        """Samples missing before a frame at ``pts`` (in 1/``rate``) of ``samples``."""
        if pts is None:
            return 0
        gap = 0 if self._next is None else (pts - self._next) % (1 << 32)
        if gap >= 1 << 31:  # behind what was heard (a late frame): no hole, no rewind
            return 0
        self._next = (pts + samples) % (1 << 32)
        return gap if gap <= self.MAX_S * rate else 0


def _wrap(module: Any, name: str, wrap: Callable[[Callable], Callable]) -> None:
    """Replace aiortc's factory ``module.name`` by ``wrap(original)``, once per process."""
    original = getattr(module, name)
    if getattr(original, "diffvoice", False):
        return
    factory = wrap(original)
    factory.diffvoice = True
    setattr(module, name, factory)


def speak_low_delay() -> None:
    """aiortc's Opus encoders use libopus's restricted low-delay mode (CELT only, 2.5 ms of
    lookahead instead of the 6.5 ms of its ``voip`` mode): the reply reaches the caller 4 ms
    sooner. At aiortc's 96 kbit/s, speech loses nothing a listener hears."""
    import aiortc.rtcrtpsender as sender
    from aiortc.codecs.opus import OpusEncoder

    def wrap(original):
        def factory(codec):
            encoder = original(codec)
            if isinstance(encoder, OpusEncoder):
                encoder.codec.options = {**encoder.codec.options, "application": "lowdelay"}
            return encoder
        return factory

    _wrap(sender, "get_encoder", wrap)


def listen_on_arrival() -> None:
    """aiortc's audio receivers use :class:`ArrivalOrder` (its video ones are left alone)."""
    import aiortc.rtcrtpreceiver as receiver

    def wrap(original):
        def factory(capacity: int, prefetch: int = 0, is_video: bool = False):
            return original(capacity, prefetch, is_video) if is_video else ArrivalOrder()
        return factory

    _wrap(receiver, "JitterBuffer", wrap)
