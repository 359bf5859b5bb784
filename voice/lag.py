"""How late the event loop wakes up: the pipeline's proof that nothing blocks it (models run in
threads). A turn's record reports the worst lag seen while it was answered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class LoopLag:
    """Measures the loop's lag from :meth:`start` to :meth:`close`; :meth:`reset` per turn."""

    def __init__(self, clock: Callable[[], float], interval: float = 0.01) -> None:
        self.clock, self.interval = clock, interval
        self.max = 0.0  # seconds, since the last reset
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._monitor(), name="loop-lag")

    def reset(self) -> None:
        self.max = 0.0

    @property
    def max_ms(self) -> float:
        return round(self.max * 1000, 1)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    async def _monitor(self) -> None:
        """Stays far below 20 ms if nothing blocks the loop."""
        while True:
            t = self.clock()
            await asyncio.sleep(self.interval)
            self.max = max(self.max, self.clock() - t - self.interval)
