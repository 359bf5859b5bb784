"""Faults while requests share a batch: a forward pass that fails for one request, and a request
aborted mid-way. Only the request hit ends (with ``finish_reason == "error"`` or ``"abort"``);
the others finish exactly as they would have alone, and afterwards every cache slot is free and
the worker holds no request."""

from __future__ import annotations

import threading

import pytest

from engine import LLM, EngineWorker, GenerationResult, SamplingParams
from tests.engine.tiny import make_checkpoint

KINDS = ["sdar", "llada"]
QUESTIONS = {
    "a": "what is the capital of france",
    "bad": "hello",
    "c": "how are you what is seven times eight",
}
PARAMS = {
    "a": SamplingParams(mode="cache", max_new_tokens=12, block_size=4),
    "bad": SamplingParams(mode="cache", max_new_tokens=12, block_size=4),
    "c": SamplingParams(mode="parallel", max_new_tokens=10, block_size=4, threshold=0.5),
}
SLOTS = 4


def chat(q: str) -> list[dict]:
    return [{"role": "user", "content": q}]


@pytest.fixture(scope="module")
def setups(tmp_path_factory) -> dict[str, tuple[LLM, dict[str, GenerationResult]]]:
    """Per family: an engine, and each request decoded alone (the reference)."""
    root = tmp_path_factory.mktemp("ckpts")
    out = {}
    for kind in KINDS:
        make_checkpoint(root / kind, kind, seed=2)
        llm = LLM.load(str(root / kind), device="cpu", max_model_len=128, max_batch_size=SLOTS)
        alone = {rid: llm.chat(chat(q), PARAMS[rid]) for rid, q in QUESTIONS.items()}
        assert all(r.nfe >= 3 for r in alone.values())  # long enough to be hit mid-way
        out[kind] = (llm, alone)
    return out


def _same(got: GenerationResult, want: GenerationResult) -> None:
    assert (got.finish_reason, got.error) == (want.finish_reason, None)
    assert got.token_ids == want.token_ids and got.text == want.text
    assert got.nfe == want.nfe


class FaultyForward:
    """Wraps an engine's model so its forward pass raises while request ``target`` is in the
    batch being computed, from that request's ``at_nfe``-th forward on; ``times`` faults in all
    (None: every time). Installed as an instance attribute; ``remove`` restores the model."""

    def __init__(self, llm: LLM, target: str, at_nfe: int, times: int | None) -> None:
        self.engine, self.target, self.at_nfe, self.times = llm.engine, target, at_nfe, times
        self.real = self.engine.model.forward
        self.raised = 0
        self.batches_hit: list[list[str]] = []  # request ids in each batch that failed
        self.engine.model.forward = self

    def __call__(self, *args, **kwargs):
        cache = kwargs.get("cache")
        rows = cache.slots.tolist() if cache is not None else []
        seqs = {s.slot: s for s in self.engine.running}
        hit = [seqs[r] for r in rows if r in seqs and seqs[r].request_id == self.target]
        if hit and hit[0].nfe >= self.at_nfe and (self.times is None or self.raised < self.times):
            self.raised += 1
            self.batches_hit.append([seqs[r].request_id for r in rows if r in seqs])
            raise RuntimeError("injected fault")
        return self.real(*args, **kwargs)

    def remove(self) -> None:
        del self.engine.model.forward


def _run_all(llm: LLM) -> dict[str, GenerationResult]:
    """Every request through one worker, submitted together; their results."""
    worker = EngineWorker(llm.engine)
    try:
        handles = {
            rid: worker.submit(chat(q), PARAMS[rid], request_id=rid) for rid, q in QUESTIONS.items()
        }
        results = {rid: h.result(timeout=120) for rid, h in handles.items()}
        assert worker.active() == 0
    finally:
        worker.close()
    assert sorted(llm.engine.free_slots) == list(range(SLOTS)) and not llm.engine.has_work()
    return results


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("at_nfe", [0, 2])
def test_forward_fault_fails_only_the_request_it_hits(setups, kind, at_nfe) -> None:
    llm, alone = setups[kind]
    fault = FaultyForward(llm, "bad", at_nfe, times=None)
    try:
        got = _run_all(llm)
    finally:
        fault.remove()
    assert any(len(b) > 1 for b in fault.batches_hit)  # it failed while batched with others
    assert got["bad"].finish_reason == "error"
    assert got["bad"].error == "RuntimeError: injected fault"  # one line, for the client
    assert got["bad"].nfe == at_nfe
    _same(got["a"], alone["a"])
    _same(got["c"], alone["c"])


@pytest.mark.parametrize("kind", KINDS)
def test_a_passing_fault_is_recovered_from(setups, kind) -> None:
    """A forward pass that fails once (say, a transient allocation failure) costs nobody their
    reply: the batch is retried, one request at a time."""
    llm, alone = setups[kind]
    fault = FaultyForward(llm, "bad", 2, times=1)
    try:
        got = _run_all(llm)
    finally:
        fault.remove()
    assert fault.raised == 1
    for rid in QUESTIONS:
        _same(got[rid], alone[rid])


@pytest.mark.parametrize("kind", KINDS)
def test_abort_while_batched_leaves_the_others_unchanged(setups, kind) -> None:
    llm, alone = setups[kind]
    engine = llm.engine
    worker = EngineWorker(engine)
    real = engine.model.forward
    batch_at_abort: list[str] = []

    def forward(*args, **kwargs):  # abort "bad" from the engine thread at its second step
        bad = [s for s in engine.running if s.request_id == "bad"]
        if bad and bad[0].nfe == 2 and not batch_at_abort:
            batch_at_abort.extend(s.request_id for s in engine.running)
            worker.abort("bad")
        return real(*args, **kwargs)

    engine.model.forward = forward
    try:
        handles = {
            rid: worker.submit(chat(q), PARAMS[rid], request_id=rid, stream=True)
            for rid, q in QUESTIONS.items()
        }
        got = {rid: h.result(timeout=120) for rid, h in handles.items()}
        assert worker.active() == 0
    finally:
        del engine.model.forward
        worker.close()
    assert alone["bad"].nfe > 3  # it would have gone on
    assert sorted(batch_at_abort) == sorted(QUESTIONS)  # all three shared the batch
    assert got["bad"].finish_reason == "abort" and got["bad"].nfe == 3
    _same(got["a"], alone["a"])
    _same(got["c"], alone["c"])
    assert sorted(engine.free_slots) == list(range(SLOTS)) and not engine.has_work()


def test_a_callback_that_raises_loses_only_its_request(setups) -> None:
    """A consumer whose callback fails (say, its event loop has closed) must not take the
    engine thread down with it: its request is aborted, and everyone else is still served."""
    llm, alone = setups["sdar"]
    worker = EngineWorker(llm.engine)
    ended: dict[str, GenerationResult] = {}
    done = {rid: threading.Event() for rid in QUESTIONS}

    def consumer(rid: str, fail: bool):
        def on_event(ev) -> None:
            if isinstance(ev, GenerationResult):
                ended[rid] = ev
                done[rid].set()
            elif fail:
                raise RuntimeError("Event loop is closed")

        return on_event

    try:
        worker.submit(
            chat(QUESTIONS["bad"]),
            PARAMS["bad"],
            request_id="bad",
            stream=True,
            on_event=consumer("bad", True),
        )
        assert done["bad"].wait(60), "the failing consumer's request never ended"
        assert ended["bad"].finish_reason == "abort"
        for rid in ("a", "c"):
            worker.submit(
                chat(QUESTIONS[rid]),
                PARAMS[rid],
                request_id=rid,
                stream=True,
                on_event=consumer(rid, False),
            )
        assert done["a"].wait(60) and done["c"].wait(60), "the engine thread died"
        _same(ended["a"], alone["a"])
        _same(ended["c"], alone["c"])
        assert worker.active() == 0
    finally:
        worker.close()
    assert sorted(llm.engine.free_slots) == list(range(SLOTS)) and not llm.engine.has_work()
