"""The pipeline's two ends for audio: a :class:`Sink`, where the assistant's voice goes, and
for recordings :class:`WavSink` (what a listener would have heard) and :func:`wav_source` (a
file replayed as a microphone)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import numpy as np

from voice.audio import SAMPLE_RATE


class Sink:
    """Where the assistant's voice goes. ``play`` returns when (wall clock) it will be heard."""

    sample_rate: int
    # Played on a loudspeaker next to this process's microphone, so the microphone may hear it
    # (echo suppression applies). A remote client plays it itself and cancels its own echo.
    plays_here: bool = True

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        raise NotImplementedError

    async def stop(self, turn: int) -> None:
        """Barge-in: drop what is queued for ``turn`` now."""

    def busy(self) -> bool:
        """Whether audio is still being played."""
        return False

    async def drain(self) -> None:
        """Wait until everything queued has been played."""


class WavSink(Sink):
    """Records what the assistant said, as a speaker would have played it.

    ``realtime``: audio "plays" on a wall-clock timeline, so a barge-in cuts it where a listener
    would have stopped hearing it; otherwise every chunk counts as heard at once.
    """

    def __init__(self, sample_rate: int, realtime: bool = True, clock=time.perf_counter) -> None:
        self.sample_rate, self.realtime, self.clock = sample_rate, realtime, clock
        self.segments: list[tuple[float, np.ndarray, int]] = []  # (wall start, audio, turn)
        self._playhead = 0.0

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        now = self.clock()
        start = max(now, self._playhead) if self.realtime else now
        end = start + len(audio) / self.sample_rate if self.realtime else now
        self._playhead = end
        self.segments.append((start, audio, turn))
        return start, end

    async def stop(self, turn: int) -> None:
        if not self.realtime:
            return
        now = self.clock()
        kept = []
        for start, audio, t in self.segments:
            if start >= now:
                continue
            n = int((now - start) * self.sample_rate)
            kept.append((start, audio[:n], t))
        self.segments = kept
        self._playhead = min(self._playhead, now)

    def busy(self) -> bool:
        return self.realtime and self._playhead > self.clock()

    async def drain(self) -> None:
        if self.realtime:
            delay = self._playhead - self.clock()
            if delay > 0:
                await asyncio.sleep(delay)

    def audio(self, gap_s: float = 0.3) -> np.ndarray:
        """Everything that was heard, turns separated by ``gap_s`` of silence."""
        out: list[np.ndarray] = []
        last_end = None
        for start, audio, _ in self.segments:
            if last_end is not None and start - last_end > 0.05:
                out.append(np.zeros(int(gap_s * self.sample_rate), dtype=np.int16))
            out.append(audio)
            last_end = start + len(audio) / self.sample_rate
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int16)


async def wav_source(
    audio: np.ndarray, realtime: bool, chunk_ms: int = 20, tail_ms: int = 2000
) -> AsyncIterator[np.ndarray]:
    """Replay a recording as a microphone: ``chunk_ms`` pieces at real-time pace (or at once),
    then ``tail_ms`` of silence so the last turn ends like a live one."""
    n = SAMPLE_RATE * chunk_ms // 1000
    padded = np.concatenate([audio, np.zeros(SAMPLE_RATE * tail_ms // 1000, dtype=np.int16)])
    t0 = time.perf_counter()
    for i in range(0, len(padded), n):
        if realtime:
            delay = t0 + i / SAMPLE_RATE - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)
        yield padded[i : i + n]
