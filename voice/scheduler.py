"""Fair scheduling of the blocking model calls (Whisper, Piper) that every session shares.

Before this, each call went to asyncio's default thread pool, first come first served, and a
cancelled call still ran: one client pausing every 200 ms queued a speculative transcription of
its whole utterance at every pause, and another user's turn waited 13-16 s behind them.

Here a fixed set of worker threads runs every job, and each session submits through its own
:class:`Lane`:

- **Urgent before speculative.** A job is *urgent* when a user waits for it (the ASR of a
  finished turn, the synthesis of a reply) and *speculative* when it is work done ahead at a
  pause. Urgent jobs always go first.
- **Fair between sessions.** Among waiting jobs of one kind, the lane that used the workers
  least lately (worker-seconds, decaying with a half-life of :data:`USAGE_HALF_LIFE_S`) goes
  first, and no lane runs more than its share of the workers at once: ``workers // lanes with
  work`` (at least one).
- **A light user never waits for heavy ones.** When every worker is busy, one reserve worker
  runs the urgent job of a lane that has nothing running and has used the workers less lately
  than the heaviest lane running: it shares the cores with them rather than waiting up to a
  second for one of their jobs to end (one extra runnable thread, never more).
- **Speculation never blocks a turn.** With two or more workers, speculative jobs never occupy
  the last one, so a user's turn never queues behind another session's speculation. One
  exception: while a heavy lane's speculation holds the speculation slot, a lane that has used
  the workers less than half as much (:data:`LIGHT_SPECULATION`) may speculate on the last
  worker, if the reserve worker is free. A user's recognition at a pause is what ends their
  turn (the smart endpoint needs its transcript), and it waited ~0.5 s behind a burst-pause
  client's speculation in one turn of ten; an urgent job arriving meanwhile takes the reserve.
  Each lane's speculative work is also budgeted: ``speculative_share`` worker-seconds per
  second of wall time (a bucket holding :data:`SPECULATIVE_BURST_S`); a job over budget
  waits, and is usually superseded before it runs.
- **Cancelled work never reaches a worker.** A lane's newer speculative job supersedes its
  queued older one, and a job whose caller is cancelled while it is still queued is dropped.
  A job already running gets a stop flag it may check (ASR checks it between segments).
- **Bounded.** A lane holds at most ``max_jobs`` jobs queued or running; more is
  :class:`SchedulerBusy`.
- **Measured.** Each lane counts its worker-seconds (wall time on a worker) and its
  CPU-seconds: the process's CPU time (Whisper's and Piper's own threads included), split
  evenly between the jobs running while it was spent.

Plain threads and a condition variable: the bookkeeping is testable without models, and works
from any event loop (results go back with ``call_soon_threadsafe``).
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

USAGE_HALF_LIFE_S = 10.0  # how long a lane's past use of the workers counts against it
SPECULATIVE_BURST_S = 1.0  # speculative worker-seconds a lane may spend at once
LIGHT_SPECULATION = 2.0  # a lane this many times lighter may speculate beside a heavy one
TRIM_EVERY_S = 5.0  # how often, at most, free heap memory goes back to the system when busy


class SchedulerBusy(Exception):
    """A lane already has as many jobs as it may; the message is one line."""


class Superseded(Exception):
    """A queued speculative job replaced by the same lane's newer one before it ran."""


@dataclass(eq=False)
class _Job:
    lane: Lane
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    speculative: bool
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future
    seq: int
    stop: threading.Event = field(default_factory=threading.Event)
    running: bool = False
    abandoned: bool = False  # the caller stopped waiting: its result goes nowhere


class Lane:
    """One session's way to the workers. ``await lane.run(fn, *args)`` runs ``fn`` on a worker."""

    def __init__(self, sched: Scheduler, name: str) -> None:
        self.sched, self.name = sched, name
        self.queued: list[_Job] = []
        self.running: list[_Job] = []
        self.work_s = 0.0  # worker-seconds this lane has used
        self.cpu_s = 0.0  # CPU-seconds of the process spent on its jobs (see Scheduler._meter)
        self.speculative_s = 0.0  # the part of work_s that was speculative
        self.jobs_run = 0
        self.jobs_dropped = 0  # superseded or cancelled before they reached a worker
        self._usage = 0.0  # decayed worker-seconds (fair order)
        self._usage_t = sched.clock()
        self._spec_tokens = SPECULATIVE_BURST_S
        self._spec_t = self._usage_t
        self.closed = False

    async def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        speculative: bool = False,
        stoppable: bool = False,
    ) -> Any:
        """Run ``fn(*args)`` on a worker when this lane's turn comes; return its result.

        ``stoppable``: ``fn`` also gets ``stop=`` a :class:`threading.Event`, set when the caller
        is cancelled while it runs. Raises :class:`SchedulerBusy`, :class:`Superseded`, or
        whatever ``fn`` raised.
        """
        loop = asyncio.get_running_loop()
        job = _Job(
            self, fn, args, {}, speculative, loop, loop.create_future(), next(self.sched._seq)
        )
        if stoppable:
            job.kwargs["stop"] = job.stop
        self.sched._submit(job)
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            self.sched._cancel(job)
            raise

    def promote(self) -> None:
        """The user now waits for this lane's queued speculative jobs: they become urgent."""
        with self.sched._cv:
            for job in self.queued:
                job.speculative = False
            self.sched._cv.notify_all()

    def close(self) -> None:
        """Drop queued jobs and stop running ones; the lane takes no more."""
        with self.sched._cv:
            self.closed = True
            for job in list(self.queued):
                self.sched._drop(job, asyncio.CancelledError())
            for job in self.running:
                job.stop.set()
            self.sched._forget(self)

    def usage(self, now: float) -> float:
        return self._usage * 0.5 ** ((now - self._usage_t) / USAGE_HALF_LIFE_S)

    def _spec_budget(self, now: float) -> float:
        share = self.sched.speculative_share
        return min(SPECULATIVE_BURST_S, self._spec_tokens + (now - self._spec_t) * share)

    def _charge(self, job: _Job, seconds: float, now: float) -> None:
        self._usage = self.usage(now) + seconds
        self._usage_t = now
        if job.speculative:
            self._spec_tokens = self._spec_budget(now) - seconds
            self._spec_t = now
            self.speculative_s += seconds
        self.work_s += seconds
        self.jobs_run += 1


class Scheduler:
    """Worker threads for every session's model calls; see the module docstring."""

    def __init__(
        self,
        workers: int = 2,
        speculative_share: float = 0.15,
        max_jobs: int = 4,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if workers < 1 or max_jobs < 1 or not 0.0 <= speculative_share <= 1.0:
            raise ValueError("workers and max_jobs must be positive, speculative_share in 0..1")
        self.workers, self.speculative_share, self.max_jobs = workers, speculative_share, max_jobs
        self.clock = clock
        self._cv = threading.Condition()
        self._lanes: list[Lane] = []
        self._threads: list[threading.Thread] = []
        self._seq = itertools.count()
        self._running = 0
        self._reserve_running = 0  # 0 or 1: the reserve worker is busy
        self._spec_running = 0
        self._closed = False
        self._names = itertools.count(1)
        self.cpu_clock: Callable[[], float] = time.process_time
        self._cpu_mark = self.cpu_clock()
        self._trimmed = clock()

    # --- public -------------------------------------------------------------------------
    def lane(self, name: str | None = None) -> Lane:
        """A new lane (one per session)."""
        with self._cv:
            lane = Lane(self, name or f"lane-{next(self._names)}")
            self._lanes.append(lane)
            if not self._threads:
                for i in range(self.workers + 1):  # the last one is the reserve (_pick_reserve)
                    reserve = i == self.workers
                    name = "model-worker-reserve" if reserve else f"model-worker-{i}"
                    t = threading.Thread(target=self._work, args=(reserve,), name=name,
                                         daemon=True)  # fmt: skip
                    t.start()
                    self._threads.append(t)
            return lane

    def close(self) -> None:
        with self._cv:
            self._closed = True
            for lane in list(self._lanes):
                for job in list(lane.queued):
                    self._drop(job, asyncio.CancelledError())
            self._cv.notify_all()
        for t in self._threads:
            t.join(timeout=10)

    def snapshot(self) -> dict:
        """Queued and running jobs per lane (for tests and stats)."""
        with self._cv:
            return {
                lane.name: {
                    "queued": len(lane.queued), "running": len(lane.running),
                    "work_s": round(lane.work_s, 3), "cpu_s": round(lane.cpu_s, 3),
                    "dropped": lane.jobs_dropped,
                }
                for lane in self._lanes
            }

    # --- bookkeeping (all under self._cv) --------------------------------------------------
    def _meter(self) -> None:
        """The process CPU time since the last job started or ended goes, in equal parts, to
        the jobs running meanwhile (the same set throughout: this runs at every change)."""
        now = self.cpu_clock()
        spent, self._cpu_mark = now - self._cpu_mark, now
        running = [job for lane in self._lanes for job in lane.running]
        for job in running:
            job.lane.cpu_s += spent / len(running)

    def _submit(self, job: _Job) -> None:
        lane = job.lane
        with self._cv:
            if lane.closed or self._closed:
                raise SchedulerBusy("the session is closing")
            if job.speculative:  # newer speculation replaces queued older speculation
                for old in [j for j in lane.queued if j.speculative]:
                    self._drop(old, Superseded("replaced by newer speculative work"))
            if len(lane.queued) + len(lane.running) >= self.max_jobs:
                raise SchedulerBusy(
                    f"this session already has {self.max_jobs} model jobs queued or running"
                )
            lane.queued.append(job)
            self._cv.notify_all()

    def _cancel(self, job: _Job) -> None:
        with self._cv:
            job.abandoned = True
            if job in job.lane.queued:
                self._drop(job, asyncio.CancelledError())
            elif job.running:
                job.stop.set()

    def _drop(self, job: _Job, exc: BaseException) -> None:
        job.lane.queued.remove(job)
        job.lane.jobs_dropped += 1
        _resolve(job, None, exc)
        self._cv.notify_all()

    def _forget(self, lane: Lane) -> None:
        if lane.closed and not lane.queued and not lane.running and lane in self._lanes:
            self._lanes.remove(lane)

    def _pick(self, now: float) -> tuple[_Job | None, float | None]:
        """The next job to run, or (None, seconds until a budget allows one, if any)."""
        busy = [lane for lane in self._lanes if lane.queued or lane.running]
        share = max(1, self.workers // max(1, len(busy)))
        spec_slots = max(1, self.workers - 1) - self._spec_running
        # A light lane's speculation may take the worker kept from speculation while a lane
        # that used the workers more than twice as much holds the speculation slot, and while
        # the reserve is free to take the next urgent job (see the module docstring): for a
        # user, it is the recognition that ends their turn.
        light_slot = (
            spec_slots <= 0 and self._spec_running < self.workers and not self._reserve_running
        )
        lightest_spec = (
            min((ln.usage(now) for ln in busy for j in ln.running if j.speculative), default=0.0)
            if light_slot
            else 0.0
        )
        best: tuple | None = None
        wait: float | None = None
        for lane in busy:
            if not lane.queued or len(lane.running) >= share:
                continue
            for job in lane.queued:
                if job.speculative:
                    if spec_slots <= 0 and not (
                        light_slot and lane.usage(now) * LIGHT_SPECULATION < lightest_spec
                    ):
                        continue
                    budget = lane._spec_budget(now)
                    if budget <= 0:
                        need = -budget / self.speculative_share if self.speculative_share else 1.0
                        wait = need if wait is None else min(wait, need)
                        continue
                key = (job.speculative, lane.usage(now), job.seq)
                if best is None or key < best[0]:
                    best = (key, job)
        return (best[1] if best else None), wait

    def _pick_reserve(self, now: float) -> _Job | None:
        """The reserve worker's job: only while every worker is busy, and only the oldest
        urgent job of a lane that has nothing running and has used the workers less lately
        than the heaviest lane running something. A light user's turn then never waits for
        heavier users' jobs to finish; it shares the cores with them instead (the reserve
        thread is one more runnable thread, not one more core)."""
        if self._running - self._reserve_running < self.workers or self._reserve_running:
            return None
        heaviest = max((lane.usage(now) for lane in self._lanes if lane.running), default=0.0)
        best: tuple | None = None
        for lane in self._lanes:
            if lane.running or not lane.queued:
                continue
            usage = lane.usage(now)
            if usage >= heaviest:
                continue
            for job in lane.queued:
                if not job.speculative and (best is None or (usage, job.seq) < best[0]):
                    best = ((usage, job.seq), job)
        return best[1] if best else None

    def _work(self, reserve: bool = False) -> None:
        while True:
            with self._cv:
                while True:
                    if self._closed:
                        return
                    if reserve:
                        job, wait = self._pick_reserve(self.clock()), None
                    else:
                        job, wait = self._pick(self.clock())
                    if job is not None:
                        break
                    self._cv.wait(timeout=None if wait is None else max(wait, 0.005) + 0.001)
                lane = job.lane
                self._meter()
                lane.queued.remove(job)
                lane.running.append(job)
                job.running = True
                self._running += 1
                self._reserve_running += reserve
                self._spec_running += job.speculative
            t0 = self.clock()
            result, error = None, None
            try:
                result = job.fn(*job.args, **job.kwargs)
            except BaseException as e:  # handed to the caller, whatever it is
                error = e
            t1 = self.clock()
            with self._cv:
                self._meter()
                lane.running.remove(job)
                self._running -= 1
                self._reserve_running -= reserve
                self._spec_running -= job.speculative
                lane._charge(job, t1 - t0, t1)
                self._forget(lane)
                idle = not self._running and not any(ln.queued for ln in self._lanes)
                self._cv.notify_all()
            _resolve(job, result, error)
            self._trim_heap(t1, idle)

    def _trim_heap(self, now: float, idle: bool = False) -> None:
        """Give the heap's free memory back to the system every :data:`TRIM_EVERY_S` at most
        while jobs keep coming, and whenever the last one ends. Whisper on a long utterance and
        Piper on a long reply leave tens of MB free but mapped in glibc's per-thread arenas,
        and a server's RSS would keep its peak for good (Whisper and Piper in two threads:
        185 MB of growth, 39 MB of it given back; ~2 ms a call, after the job's result has
        gone to its caller). Trimming when idle also keeps a quiet server from holding the
        heap of its last busy moment until the next job."""
        if _malloc_trim is None or (not idle and now - self._trimmed < TRIM_EVERY_S):
            return
        self._trimmed = now
        _malloc_trim(0)


def _glibc_malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to do
        return None


_malloc_trim = _glibc_malloc_trim()


def _resolve(job: _Job, result: Any, error: BaseException | None) -> None:
    def settle() -> None:
        if job.future.done():
            return
        if job.abandoned:  # nobody will retrieve it: don't leave an unretrieved exception
            job.future.cancel()
            return
        if error is None:
            job.future.set_result(result)
        elif isinstance(error, asyncio.CancelledError):
            job.future.cancel()
        else:
            job.future.set_exception(error)

    try:
        job.loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the caller's loop is closed: nobody waits for this result
        pass

