"""The fair scheduler's rules, with plain blocking functions standing in for Whisper and Piper
(the rules are bookkeeping; the model calls themselves are tested elsewhere)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from voice.scheduler import Scheduler, SchedulerBusy, Superseded

WAIT = 10.0  # s: generous on a shared machine; only reached when a rule is broken


class Gate:
    """A job body that records that it started and blocks until released."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, stop: threading.Event | None = None) -> str:
        self.log.append(self.name)
        self.started.set()
        while not self.release.wait(0.01):
            if stop is not None and stop.is_set():
                return f"{self.name} stopped"
        return self.name


async def started(gate: Gate) -> None:
    assert await asyncio.to_thread(gate.started.wait, WAIT), f"{gate.name} never started"


async def settle() -> None:
    """Give the workers time to pick up anything they could run."""
    await asyncio.sleep(0.1)


@pytest.fixture
def sched():
    s = Scheduler(workers=2, speculative_share=1.0, max_jobs=3)
    yield s
    s.close()


def test_newer_speculation_supersedes_queued_older_before_it_runs(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        a = sched.lane("a")
        g1, g2, g3 = Gate("s1", log), Gate("s2", log), Gate("s3", log)
        t1 = asyncio.create_task(a.run(g1, speculative=True))
        await started(g1)
        # One worker is kept from speculation, so s2 waits; s3 replaces it.
        t2 = asyncio.create_task(a.run(g2, speculative=True))
        await settle()
        t3 = asyncio.create_task(a.run(g3, speculative=True))
        with pytest.raises(Superseded):
            await t2
        g1.release.set()
        g3.release.set()
        assert await t1 == "s1" and await t3 == "s3"
        assert log == ["s1", "s3"]  # s2 never reached a worker
        assert a.jobs_dropped == 1

    asyncio.run(main())


def test_cancelled_queued_work_never_reaches_a_worker(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        a = sched.lane("a")
        g1, g2 = Gate("s1", log), Gate("s2", log)
        t1 = asyncio.create_task(a.run(g1, speculative=True))
        await started(g1)
        t2 = asyncio.create_task(a.run(g2, speculative=True))
        await settle()
        t2.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t2
        g1.release.set()
        await t1
        await settle()
        assert log == ["s1"]
        assert sched.snapshot()["a"]["queued"] == 0

    asyncio.run(main())


def test_a_turn_never_waits_behind_another_sessions_speculation(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        busy, user = sched.lane("busy"), sched.lane("user")
        spec = [Gate(f"spec{i}", log) for i in range(2)]
        tasks = [asyncio.create_task(busy.run(g, speculative=True)) for g in spec[:1]]
        await started(spec[0])
        tasks.append(asyncio.create_task(busy.run(spec[1], speculative=True)))
        await settle()
        turn = Gate("turn", log)
        t = asyncio.create_task(user.run(turn))
        await started(turn)  # at once, while speculation still holds its worker
        assert not spec[0].release.is_set() and "spec1" not in log
        for g in [*spec, turn]:
            g.release.set()
        await asyncio.gather(t, *tasks)

    asyncio.run(main())


def test_no_session_holds_more_than_its_share(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        a, b = sched.lane("a"), sched.lane("b")
        ga = [Gate(f"a{i}", log) for i in range(3)]
        ta = [asyncio.create_task(a.run(g)) for g in ga]
        await started(ga[0])
        await started(ga[1])  # alone, a may use both workers
        gb = Gate("b0", log)
        tb = asyncio.create_task(b.run(gb))
        await settle()
        assert log == ["a0", "a1"]
        ga[0].release.set()  # a worker frees up: b's turn, not a's third job
        await started(gb)
        await settle()
        assert log == ["a0", "a1", "b0"]
        for g in [*ga, gb]:
            g.release.set()
        await asyncio.gather(*ta, tb)
        assert log[-1] == "a2"

    asyncio.run(main())


def test_the_lane_that_used_the_workers_least_goes_first() -> None:
    s = Scheduler(workers=1, max_jobs=4)

    async def main() -> None:
        log: list[str] = []
        heavy, light = s.lane("heavy"), s.lane("light")
        await heavy.run(time.sleep, 0.2)  # heavy has used the worker lately
        gates = [Gate("block", log), Gate("heavy", log), Gate("light", log)]
        tb = asyncio.create_task(heavy.run(gates[0]))
        await started(gates[0])
        th = asyncio.create_task(heavy.run(gates[1]))
        await settle()
        tl = asyncio.create_task(light.run(gates[2]))
        await settle()
        for g in gates:
            g.release.set()
        await asyncio.gather(tb, th, tl)
        assert log == ["block", "light", "heavy"]  # light queued last but went first

    try:
        asyncio.run(main())
    finally:
        s.close()


def test_speculative_work_is_budgeted_per_session() -> None:
    s = Scheduler(workers=2, speculative_share=0.1, max_jobs=4)

    async def main() -> None:
        a = s.lane("a")
        await a.run(time.sleep, 1.2, speculative=True)  # more than the burst: budget now < 0
        t0 = time.monotonic()
        await a.run(time.sleep, 0, speculative=True)
        assert time.monotonic() - t0 >= 1.5  # waited for ~0.2 s of budget at 0.1 s/s
        t0 = time.monotonic()
        await a.run(time.sleep, 0)  # urgent work is not budgeted
        assert time.monotonic() - t0 < 1.0

    try:
        asyncio.run(main())
    finally:
        s.close()


def test_a_lane_has_a_bound_on_its_jobs(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        a = sched.lane("a")
        gates = [Gate(f"a{i}", log) for i in range(3)]
        tasks = [asyncio.create_task(a.run(g)) for g in gates]
        await settle()
        with pytest.raises(SchedulerBusy):
            await a.run(Gate("a3", log))
        for g in gates:
            g.release.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())


def test_cancelling_a_running_job_sets_its_stop_flag() -> None:
    sched = Scheduler(workers=1)

    async def main() -> None:
        log: list[str] = []
        a = sched.lane("a")
        g = Gate("g", log)
        t = asyncio.create_task(a.run(g, stoppable=True))
        await started(g)
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t
        # It noticed the flag and returned: the worker is free for the next job at once.
        assert await asyncio.wait_for(a.run(time.sleep, 0), WAIT) is None
        assert log == ["g"] and a.jobs_run == 2

    try:
        asyncio.run(main())
    finally:
        sched.close()


def test_closing_a_lane_drops_its_queued_jobs(sched) -> None:
    async def main() -> None:
        log: list[str] = []
        a = sched.lane("a")
        g1, g2 = Gate("s1", log), Gate("s2", log)
        t1 = asyncio.create_task(a.run(g1, speculative=True, stoppable=True))
        await started(g1)
        t2 = asyncio.create_task(a.run(g2, speculative=True))
        await settle()
        a.close()
        with pytest.raises(asyncio.CancelledError):
            await t2
        assert await t1 == "s1 stopped"
        assert log == ["s1"]
        with pytest.raises(SchedulerBusy):
            await a.run(time.sleep, 0)
        assert "a" not in sched.snapshot()

    asyncio.run(main())


def test_each_lane_is_charged_the_cpu_its_jobs_spent(sched) -> None:
    def burn(seconds: float) -> float:  # CPU-bound, like Whisper on a worker
        t0 = time.thread_time()
        while time.thread_time() - t0 < seconds:
            sum(i * i for i in range(1000))
        return time.thread_time() - t0

    def nap(seconds: float) -> float:  # waits without using the CPU
        time.sleep(seconds)
        return 0.0

    async def main() -> tuple[float, float]:
        busy, idle = sched.lane("busy"), sched.lane("idle")
        spent = await busy.run(burn, 0.4)
        await idle.run(nap, 0.4)
        return spent, (busy.cpu_s, idle.cpu_s, busy.work_s, idle.work_s)

    spent, (busy_cpu, idle_cpu, busy_work, idle_work) = asyncio.run(main())
    assert busy_cpu >= 0.8 * spent  # its own CPU, whatever else the process did
    assert idle_cpu < 0.1 < 0.3 < idle_work  # on a worker for 0.4 s, but no CPU used
    assert busy_work >= spent * 0.9
    assert sched.snapshot()["busy"]["cpu_s"] == round(busy_cpu, 3)


def test_free_heap_goes_back_to_the_system_now_and_then_and_when_idle(monkeypatch) -> None:
    """While jobs keep coming, glibc's malloc_trim runs at most once per TRIM_EVERY_S; when the
    last running job ends, it runs at once (a quiet server holds no stale heap)."""
    import voice.scheduler as sched_mod

    every = sched_mod.TRIM_EVERY_S
    now = [0.0]
    trims: list[float] = []
    monkeypatch.setattr(sched_mod, "_malloc_trim", lambda pad: trims.append(now[0]) or 1)
    sched = sched_mod.Scheduler(workers=2, clock=lambda: now[0])
    a, b = sched.lane("a"), sched.lane("b")

    async def main() -> None:
        hold = Gate("hold", [])
        held = asyncio.create_task(a.run(hold))
        await started(hold)
        for t in (1.0, 2.0, 1.0 + every, 2.0 + every):  # b's jobs end while a's still runs
            now[0] = t
            await b.run(lambda: None)
            await settle()
        # at 1 s and 2 s: under TRIM_EVERY_S since the start; at 6 s: one; at 7 s: too soon
        assert trims == [1.0 + every]
        now[0] = 2.5 + every
        hold.release.set()
        await held
        await settle()
        assert trims == [1.0 + every, 2.5 + every]  # nothing left running: at once
        now[0] = 3.0 + every
        await b.run(lambda: None)
        await settle()
        assert trims[-1] == 3.0 + every  # idle again

    try:
        asyncio.run(main())
    finally:
        sched.close()


def test_a_light_lane_runs_beside_heavy_ones_on_the_reserve_worker(sched) -> None:
    """Both workers held by lanes that used them a lot: a fresh lane's urgent job starts at
    once (the reserve worker); a second one, or a speculative one, waits; so does a lane as
    heavy as the heaviest running one."""

    async def main() -> None:
        log: list[str] = []
        heavy = [sched.lane(f"heavy{i}") for i in range(2)]
        for lane in heavy:  # a few seconds of worker time each, as a burst-pause client has
            lane._usage, lane._usage_t = 5.0, sched.clock()
        holds = [Gate(f"hold{i}", log) for i in range(2)]
        tasks = [asyncio.create_task(lane.run(g)) for lane, g in zip(heavy, holds, strict=True)]
        for g in holds:
            await started(g)
        also_heavy = sched.lane("also_heavy")
        also_heavy._usage, also_heavy._usage_t = 9.0, sched.clock()
        waits = Gate("heavier", log)
        tasks.append(asyncio.create_task(also_heavy.run(waits)))
        light, other = sched.lane("light"), sched.lane("other")
        spec = Gate("spec", log)
        tasks.append(asyncio.create_task(light.run(spec, speculative=True)))
        await settle()
        assert log == ["hold0", "hold1"]  # neither the heavier lane nor speculation got in
        turn = Gate("turn", log)
        tasks.append(asyncio.create_task(other.run(turn)))
        await started(turn)  # at once, beside the two held jobs
        second = Gate("second", log)
        tasks.append(asyncio.create_task(light.run(second)))
        await settle()
        assert "second" not in log  # the reserve is one worker
        for g in (*holds, waits, spec, turn, second):
            g.release.set()
        await asyncio.gather(*tasks)
        assert sorted(log) == sorted(["hold0", "hold1", "turn", "heavier", "spec", "second"])

    asyncio.run(main())


def test_a_light_lanes_speculation_runs_beside_a_heavy_ones(sched) -> None:
    """A burst-pause client's speculation holds the speculation slot: a user's recognition at a
    pause (which ends their turn) starts at once on the other worker; a lane not much lighter
    than the heavy one waits; an urgent job still starts, on the reserve."""

    async def main() -> None:
        log: list[str] = []
        heavy, middling = sched.lane("heavy"), sched.lane("middling")
        heavy._usage, heavy._usage_t = 4.0, sched.clock()
        middling._usage, middling._usage_t = 2.5, sched.clock()
        hold = Gate("heavy_spec", log)
        tasks = [asyncio.create_task(heavy.run(hold, speculative=True))]
        await started(hold)
        waits = Gate("middling_spec", log)
        tasks.append(asyncio.create_task(middling.run(waits, speculative=True)))
        await settle()
        assert log == ["heavy_spec"]
        user = sched.lane("user")
        spec = Gate("user_spec", log)
        tasks.append(asyncio.create_task(user.run(spec, speculative=True)))
        await started(spec)  # at once, beside the heavy lane's
        other = sched.lane("other")
        turn = Gate("turn", log)
        tasks.append(asyncio.create_task(other.run(turn)))
        await started(turn)  # the reserve worker
        await settle()
        assert "middling_spec" not in log
        for g in (hold, spec, turn, waits):
            g.release.set()
        await asyncio.gather(*tasks)
        assert log[-1] == "middling_spec"

    asyncio.run(main())


def test_light_speculation_leaves_the_last_worker_while_the_reserve_is_busy(sched) -> None:
    """With the reserve running a turn, a worker that frees up stays for urgent work: a light
    lane's speculation takes it only once the reserve is free again."""

    async def main() -> None:
        log: list[str] = []
        heavy = sched.lane("heavy")
        heavy._usage, heavy._usage_t = 4.0, sched.clock()
        hold = Gate("heavy_spec", log)
        tasks = [asyncio.create_task(heavy.run(hold, speculative=True))]
        await started(hold)
        first, second = Gate("turn_a", log), Gate("turn_b", log)
        tasks.append(asyncio.create_task(sched.lane("a").run(first)))
        await started(first)
        tasks.append(asyncio.create_task(sched.lane("b").run(second)))
        await started(second)  # on the reserve
        spec = Gate("light_spec", log)
        tasks.append(asyncio.create_task(sched.lane("light").run(spec, speculative=True)))
        first.release.set()
        await settle()
        assert "light_spec" not in log  # a worker is free, but the reserve is not
        second.release.set()
        await started(spec)
        for g in (hold, spec):
            g.release.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())
