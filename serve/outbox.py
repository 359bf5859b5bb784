"""What a session sends, and how fast a client may send it audio.

:class:`Outbox` queues a session's server events and reply audio in order, bounded in bytes, so
that no pipeline task waits on the network and a barge-in can drop audio that has not left yet;
:class:`WebSocketSink` is the pipeline's audio sink for a remote client (the client plays, a
playback clock estimates what it has heard); :class:`AudioRateLimiter` keeps a client's
microphone to real time plus a burst.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

import numpy as np

from serve.protocol import ReplyAudioEnd, ReplyAudioStart, ReplyAudioStop, encode
from voice.audio import SAMPLE_RATE
from voice.sink import Sink

_FRAME_SAMPLES = 16384  # reply audio leaves in binary frames of at most this many samples
# Microphone audio a session may send ahead of real time before frames are dropped. A browser
# streams in real time; network jitter or a paused tab bunch frames up by well under this.
AUDIO_BURST_S = 3.0


def size(item) -> int:
    """Bytes ``item`` takes on the wire (our protocol's encoding of an event)."""
    return len(item) if isinstance(item, bytes | str) else len(encode(item))


class Outbox:
    """What a session sends, in order; queued audio of a turn can be dropped before it leaves.

    ``bytes`` counts what is queued; when a ``put`` takes it over ``max_bytes``, ``on_full`` is
    called (once per crossing) to make room.
    """

    def __init__(
        self, max_bytes: int | None = None, on_full: Callable[[], None] | None = None
    ) -> None:
        self._items: deque[tuple[object, int, int | None]] = deque()  # (item, size, turn)
        self._ready = asyncio.Event()
        self.closed = False
        self.bytes = 0
        self.max_bytes, self.on_full = max_bytes, on_full
        self._making_room = False

    def put(self, item, audio_turn: int | None = None) -> None:
        """Queue a server event or reply audio (of ``audio_turn``)."""
        if self.closed:
            return
        n = size(item)
        self._items.append((item, n, audio_turn))
        self.bytes += n
        self._ready.set()
        if (
            self.max_bytes is not None
            and self.bytes > self.max_bytes
            and self.on_full is not None
            and not self._making_room
        ):
            self._making_room = True
            try:
                self.on_full()
            finally:
                self._making_room = False

    def audio_turns(self) -> set[int]:
        """Turns with reply audio still queued."""
        return {t for _, _, t in self._items if t is not None}

    def drop_audio(self, turn: int) -> None:
        """Forget queued audio (and its announcements) of ``turn`` and older turns."""
        self._items = deque(i for i in self._items if i[2] is None or i[2] > turn)
        self.bytes = sum(n for _, n, _ in self._items)

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    def discard(self) -> None:
        """Forget everything queued."""
        self._items.clear()
        self.bytes = 0

    async def get(self):
        """The next item, or None once closed."""
        while not self._items:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        item, n, _ = self._items.popleft()
        self.bytes -= n
        return item


class WebSocketSink(Sink):
    """Reply audio to the browser as binary PCM16 frames, announced by ``reply.audio.start``.

    The browser plays in real time, so a playback clock estimates when each chunk is heard: the
    later of now and the end of what is already queued. ``playback.done`` from the client ends
    the estimate early.
    """

    plays_here = False  # the client plays it, and cancels its own echo

    def __init__(
        self, outbox: Outbox, sample_rate: int, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.outbox, self.sample_rate, self.clock = outbox, sample_rate, clock
        self._playhead = 0.0
        self._announced = (0, 0)  # (turn, sample rate) of the last reply.audio.start
        self._samples = 0  # samples sent for that turn
        self._stopped = 0  # turns up to this one are silenced

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        now = self.clock()
        if turn <= self._stopped or len(audio) == 0:
            return now, now
        if (turn, self.sample_rate) != self._announced:  # a new turn, or the client's rate changed
            if turn != self._announced[0]:
                self._samples = 0
            self._announced = (turn, self.sample_rate)
            self.outbox.put(ReplyAudioStart(turn=turn, sample_rate=self.sample_rate), turn)
        pcm = np.asarray(audio, dtype="<i2")
        for i in range(0, len(pcm), _FRAME_SAMPLES):
            self.outbox.put(pcm[i : i + _FRAME_SAMPLES].tobytes(), turn)
        self._samples += len(pcm)
        start = max(now, self._playhead)
        self._playhead = start + len(pcm) / self.sample_rate
        return start, self._playhead

    async def stop(self, turn: int) -> None:
        self.silence(turn)

    def silence(self, turn: int) -> None:
        """Drop the queued audio of ``turn`` and older, send no more of it, tell the client."""
        self._stopped = max(self._stopped, turn)
        self.outbox.drop_audio(turn)
        self.outbox.put(ReplyAudioStop(turn=turn))
        self._playhead = min(self._playhead, self.clock())

    def busy(self) -> bool:
        return self._playhead > self.clock()

    async def drain(self) -> None:
        delay = self._playhead - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)

    def end(self, turn: int) -> None:
        """All of ``turn``'s audio has been sent."""
        if turn == self._announced[0] and turn > self._stopped:
            self.outbox.put(ReplyAudioEnd(turn=turn, samples=self._samples), turn)

    def played(self, turn: int) -> None:
        """The client has played everything of ``turn``."""
        if turn == self._announced[0]:
            self._playhead = min(self._playhead, self.clock())


class AudioRateLimiter:
    """A token bucket over microphone samples: real time plus a burst of ``burst_s`` seconds.

    The bucket holds ``burst_s`` seconds of audio, starts full and refills at ``sample_rate``
    samples per second of ``clock`` time. A frame that does not fit is dropped whole (so a frame
    longer than the burst never fits). One client cannot make the server transcribe faster
    than it talks, however fast it sends.
    """

    def __init__(
        self,
        sample_rate: int = SAMPLE_RATE,
        burst_s: float = AUDIO_BURST_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if burst_s <= 0:
            raise ValueError("burst_s must be positive")
        self.sample_rate, self.burst_s, self.clock = sample_rate, burst_s, clock
        self.capacity = burst_s * sample_rate
        self._tokens = self.capacity
        self._last: float | None = None
        self._noticed: float | None = None  # clock time of the last notice
        self.dropped = 0  # samples dropped so far

    def admit(self, samples: int) -> bool:
        """Take ``samples`` from the bucket if they fit; False: drop the frame."""
        now = self.clock()
        if self._last is not None:
            self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.sample_rate)
        self._last = now
        if samples <= self._tokens:
            self._tokens -= samples
            return True
        self.dropped += samples
        return False

    def notice(self) -> bool:
        """After a drop: whether to tell the client (at most once per ``burst_s`` seconds)."""
        now = self.clock()
        if self._noticed is not None and now - self._noticed < self.burst_s:
            return False
        self._noticed = now
        return True
