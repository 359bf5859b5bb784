"""``bench/load.py --cluster``: voice sessions through ``diffvoice cluster`` against plain
``diffvoice serve``, in the same run on the same machine.

Both servers start in subprocesses: ``serve`` and ``cluster`` (a one-node Ray cluster: one
front-end, ``--asr`` ASR replicas, one TTS, one engine, fixed unless ``--set``/``--cluster-set``
say otherwise). For each session count in ``--sessions`` (default 1,4,8,16) the same
websocket users of bench/load.py (real speech at real-time pace, every turn followed to its
outcome) talk to one server, then the other, in slices of about 20 s, ``--seconds`` each in
all, so that a machine whose load drifts weighs on both alike. Only one of the two is talked
to at a time; the other sits idle (its idle cost is measured first and printed).

Figures per server and level: p50/p90 from the audible end of the user's speech to the first
audible reply sample at the client, outcomes, lost turns (no outcome in 30 s, or a prompt never
heard), and **CPU-s per audio-s**: the CPU time of the server's whole process tree (for the
cluster: the driver, Ray's GCS and raylet, Serve's controller and proxy, every replica) during
the level, over the seconds of microphone audio the sessions streamed. The cluster's is also
split by deployment (a replica's process title names it, ``ray::ServeReplica:diffvoice:asr``)
and given per answered turn, which is what docs/scale-out.md's capacity estimate divides by.
The cluster's ``/health`` is read every second for its replica counts (running and target: with
autoscaling bounds set, the target moves with load).

    python bench/load.py --cluster --sessions 1,4,8,16 --seconds 60
    python bench/load.py --cluster --sessions 4 --cluster-set cluster.asr.max_replicas=3
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
import threading
import time
import urllib.request

import numpy as np

from bench.load import (
    ServerProcess,
    Stats,
    free_port,
    load_clips,
    pct,
    session,
)

SLICE_S = 20.0
IDLE_S = 10.0
DEPLOYMENTS = ("frontend", "asr", "tts", "engine")


def _tree(pid: int) -> list:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _group(proc, root: int) -> str:
    """Which part of the server ``proc`` is: the process started (``root``: ``serve``'s whole
    server, the cluster's driver), a Serve deployment's replica, Serve's HTTP proxy (every
    websocket frame goes through it) or controller, or the rest of Ray (GCS, raylet, agents,
    idle workers)."""
    if proc.pid == root:
        return "main"
    try:
        title = " ".join(proc.cmdline()[:1])
    except Exception:
        return "ray"
    for name in DEPLOYMENTS:
        if title.startswith("ray::ServeReplica:") and title.endswith(f":{name}"):
            return name
    if title.startswith("ray::ProxyActor"):
        return "proxy"
    if title.startswith("ray::ServeController"):
        return "controller"
    return "ray"


class TreeCpu:
    """CPU seconds of a process tree by part, between :meth:`start` and :meth:`stop`. A
    process's own time and that of its children that ended (``children_*``) are counted, so
    nothing is counted twice and a replica restarted in the window still counts."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before: dict[int, float] = {}
        self.by_part: collections.Counter = collections.Counter()

    def _times(self, procs) -> dict[int, tuple[str, float]]:
        out = {}
        for p in procs:
            try:
                t = p.cpu_times()
                cpu = t.user + t.system + t.children_user + t.children_system
                out[p.pid] = (_group(p, self.pid), cpu)
            except Exception:  # gone between listing and reading
                continue
        return out

    def start(self) -> None:
        self.before = {pid: s for pid, (_, s) in self._times(_tree(self.pid)).items()}

    def stop(self) -> None:
        for pid, (part, s) in self._times(_tree(self.pid)).items():
            self.by_part[part] += max(0.0, s - self.before.get(pid, 0.0))

    @property
    def total(self) -> float:
        return sum(self.by_part.values())


class HealthWatch:
    """The cluster's ``/health`` every second while talked to: the most replicas each
    deployment ran, and its autoscaling target's range."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.running: dict[str, int] = {}
        self.target: dict[str, list[int]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> HealthWatch:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            try:
                with urllib.request.urlopen(self.url, timeout=2) as r:
                    deps = json.loads(r.read()).get("deployments", {})
            except Exception:  # a 503 while draining, or a slow reply: the next one will do
                continue
            for name, d in deps.items():
                self.running[name] = max(self.running.get(name, 0), d.get("running", 0))
                lo, hi = self.target.get(name, [d["target"], d["target"]])
                self.target[name] = [min(lo, d["target"]), max(hi, d["target"])]


def _talk(url: str, clips, n: int, seconds: float, st: Stats, first: list[int]) -> list[int]:
    async def run() -> list[int]:
        deadline = time.perf_counter() + seconds
        return await asyncio.gather(
            *(session(url, clips, deadline, i, st, False, first[i]) for i in range(n))
        )

    return asyncio.run(run())


def _idle_cores(pid: int) -> float:
    cpu = TreeCpu(pid)
    cpu.start()
    time.sleep(IDLE_S)
    cpu.stop()
    return round(cpu.total / IDLE_S, 3)


def main(args: argparse.Namespace, counts: list[int]) -> int:
    clips = load_clips()
    most = max(counts)
    ports = {"serve": free_port(), "cluster": free_port()}
    shared = [f"server.max_sessions={most}", *args.set]
    layout = [f"cluster.asr.replicas={args.asr}", "cluster.tts.replicas=1",
              "cluster.engine.replicas=1", "cluster.frontend.replicas=1"]  # fmt: skip
    servers = {
        "serve": ServerProcess(ports["serve"], shared),
        "cluster": ServerProcess(ports["cluster"], [*shared, *layout, *args.cluster_set],
                                 command="cluster"),  # fmt: skip
    }
    try:
        for name, server in servers.items():
            if not server.wait_ready(args.start_timeout):
                print(f"load: {name} did not start:", *server.tail, sep="\n", file=sys.stderr)
                return 1
        url = {k: f"ws://127.0.0.1:{p}/ws" for k, p in ports.items()}
        idle = {k: _idle_cores(s.proc.pid) for k, s in servers.items()}
        print(f"idle CPU (cores): serve {idle['serve']}, cluster {idle['cluster']}", flush=True)
        for k in servers:  # one question each first, not counted: first-call costs
            _talk(url[k], clips, 1, 1.0, Stats(), [0])
        rounds = max(1, round(args.seconds / SLICE_S))
        print(
            f"{'server':>8} {'sessions':>8} {'prompts':>7} {'turns':>6} {'answered':>8} "
            f"{'errors':>6} {'interr.':>7} {'lost':>5} {'unheard':>7} {'p50 ms':>7} "
            f"{'p90 ms':>7} {'CPU/aud':>7} {'vs serve':>8}"
        )
        rows: list[dict] = []
        for n in counts:
            stats = {k: Stats() for k in servers}
            cpu = {k: TreeCpu(s.proc.pid) for k, s in servers.items()}
            nxt = {k: list(range(n)) for k in servers}
            watch = HealthWatch(f"http://127.0.0.1:{ports['cluster']}/health")
            for _ in range(rounds):
                for k, server in servers.items():
                    cpu[k].start()
                    if k == "cluster":
                        with watch:
                            nxt[k] = _talk(url[k], clips, n, args.seconds / rounds, stats[k],
                                           nxt[k])  # fmt: skip
                    else:
                        nxt[k] = _talk(url[k], clips, n, args.seconds / rounds, stats[k], nxt[k])
                    cpu[k].stop()
                    if server.proc.poll() is not None:
                        print(f"load: {k} died:", *server.tail, sep="\n", file=sys.stderr)
                        return 1
            level = {k: _row(k, n, stats[k], cpu[k]) for k in servers}
            c, s = level["cluster"], level["serve"]
            c["p50_vs_serve"] = (round(c["p50_ms"] / s["p50_ms"], 2)
                                 if c["p50_ms"] and s["p50_ms"] else None)  # fmt: skip
            c["replicas_running_max"] = watch.running
            c["replicas_target_range"] = watch.target
            for k in servers:
                r = level[k]
                print(
                    f"{k:>8} {n:>8} {r['prompts']:>7} {r['turns']:>6} {r['answered']:>8} "
                    f"{r['error']:>6} {r['interrupted']:>7} {r['lost']:>5} {r['unheard']:>7} "
                    f"{r['p50_ms'] or '-':>7} {r['p90_ms'] or '-':>7} "
                    f"{r['cpu_s_per_audio_s'] or '-':>7} {r.get('p50_vs_serve') or '':>8}",
                    flush=True,
                )
                rows.append(r)
            print(f"{'':>8} cluster CPU-s per answered turn by part: {c['cpu_s_per_turn']}; "
                  f"replicas (most running): {watch.running}", flush=True)  # fmt: skip
        lost = sum(r["lost"] + r["unheard"] for r in rows)
        near = [r["p50_vs_serve"] for r in rows
                if r["server"] == "cluster" and r["sessions"] <= 4 and r["p50_vs_serve"]]
        print(json.dumps({
            "levels": rows, "idle_cores": idle, "lost_total": lost,
            "asr_replicas": args.asr, "cluster_set": args.cluster_set,
            "p50_vs_serve_at_most_4_sessions": max(near) if near else None,
        }))
        clean = lost == 0 and all(r["protocol_errors"] == 0 for r in rows)
        return 0 if clean else 1
    finally:
        for server in servers.values():
            server.stop(timeout=60)


def _row(server: str, n: int, st: Stats, cpu: TreeCpu) -> dict:
    answered = st.outcomes["answered"]
    return {
        "server": server,
        "sessions": n,
        **st.outcome_row(),
        "audio_s": round(st.audio_s, 1),
        "cpu_s": round(cpu.total, 1),
        "cpu_s_per_audio_s": round(cpu.total / st.audio_s, 3) if st.audio_s else None,
        "cpu_s_per_turn": ({part: round(s / answered, 3) for part, s in sorted(
            cpu.by_part.items())} if answered else {}),  # fmt: skip
        "turns_per_session_min": (round(answered / (st.audio_s / 60), 2)
                                  if st.audio_s else None),  # fmt: skip
        "stages_p50_ms": {k: pct(v, 50) for k, v in st.stages_ms.items()},
        "latency_spread_ms": round(float(np.std(st.latencies_ms)), 1) if st.latencies_ms else None,
    }
