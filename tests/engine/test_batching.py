"""Batching never changes a greedy reply: each request decodes the same alone or among others —
different prompt lengths, modes and block sizes mixed, joining mid-way, leaving early, queueing
for a slot — through the synchronous engine and through the worker thread."""

from __future__ import annotations

import threading

import pytest

from engine import LLM, EngineWorker, GenerationResult, SamplingParams, TextDelta
from tests.engine.tiny import make_variant

KINDS = ["llada", "dream", "sdar", "fast_dllm_v2"]

QUESTIONS = [
    "what is the capital of france",
    "hello",
    "how are you what is seven times eight and what is the planet mars",
    "is the sun a planet",
    "what's one and two and three",
    "hi you",
    "the moon",
]
PARAMS = [
    SamplingParams(mode="reference", max_new_tokens=10, block_size=4),
    SamplingParams(mode="parallel", max_new_tokens=12, block_size=8, threshold=0.5),
    SamplingParams(mode="cache", max_new_tokens=9, block_size=4),
    SamplingParams(mode="dual_cache", max_new_tokens=12, block_size=4, threshold=0.3),
    SamplingParams(mode="cache", max_new_tokens=3, block_size=4),  # leaves early
    SamplingParams(mode="reference", max_new_tokens=8, block_size=8, tokens_per_step=2),
    SamplingParams(mode="cache", max_new_tokens=16, block_size=16, threshold=0.6),
]


def chat(q: str) -> list[dict]:
    return [{"role": "user", "content": q}]


@pytest.fixture(scope="module")
def setups(tmp_path_factory) -> dict[str, tuple[LLM, list[GenerationResult]]]:
    """Per family: an engine with 4 slots, and every (question, params) pair decoded alone."""
    root = tmp_path_factory.mktemp("ckpts")
    out = {}
    for kind in KINDS:
        make_variant(root / kind, kind, seed=1)
        llm = LLM.load(str(root / kind), device="cpu", max_model_len=128, max_batch_size=4)
        alone = [llm.chat(chat(q), p) for q, p in zip(QUESTIONS, PARAMS, strict=True)]
        assert all(r.finish_reason in ("stop", "length") for r in alone), [
            (r.finish_reason, r.error) for r in alone
        ]
        out[kind] = (llm, alone)
    return out


def _same(got: GenerationResult, want: GenerationResult) -> None:
    assert got.token_ids == want.token_ids
    assert got.text == want.text and got.finish_reason == want.finish_reason
    assert got.nfe == want.nfe  # same steps: the batch changed nothing about the schedule


@pytest.mark.parametrize("kind", KINDS)
def test_all_at_once_more_than_the_slots(setups, kind):
    """Seven requests, four slots: the rest queue, join as others leave, and all finish."""
    llm, alone = setups[kind]
    engine = llm.engine
    ids = [engine.add_request(chat(q), p) for q, p in zip(QUESTIONS, PARAMS, strict=True)]
    done: dict[str, GenerationResult] = {}
    most = 0
    while engine.has_work():
        out = engine.step()
        most = max(most, len(engine.running) + len(out.finished))
        done.update((r.request_id, r) for r in out.finished)
    assert most == 4 and sorted(engine.free_slots) == [0, 1, 2, 3]
    for rid, want in zip(ids, alone, strict=True):
        _same(done[rid], want)


@pytest.mark.parametrize("kind", KINDS)
def test_join_mid_way_and_leave_early(setups, kind):
    llm, alone = setups[kind]
    engine = llm.engine
    first = engine.add_request(chat(QUESTIONS[0]), PARAMS[0])
    done: dict[str, GenerationResult] = {}
    for _ in range(3):
        done.update((r.request_id, r) for r in engine.step().finished)
    later = {i: engine.add_request(chat(QUESTIONS[i]), PARAMS[i]) for i in (2, 4, 6)}
    aborted = engine.add_request(chat(QUESTIONS[1]), PARAMS[1])
    done.update((r.request_id, r) for r in engine.step().finished)
    assert engine.abort(aborted).finish_reason == "abort"  # leaves mid-way, slot reused
    engine.add_request(chat(QUESTIONS[5]), PARAMS[5], request_id="last")
    while engine.has_work():
        done.update((r.request_id, r) for r in engine.step().finished)
    _same(done[first], alone[0])
    for i, rid in later.items():
        _same(done[rid], alone[i])
    _same(done["last"], alone[5])
    assert done[later[4]].nfe < done[first].nfe  # the short one left while the others ran


@pytest.mark.parametrize("kind", ["llada", "sdar"])
def test_worker_requests_join_while_others_run(setups, kind):
    llm, alone = setups[kind]
    worker = EngineWorker(llm.engine)
    try:
        first = worker.submit(chat(QUESTIONS[0]), PARAMS[0], stream=True)
        events = iter(first)
        ev = next(events)  # the first request is decoding: its first text arrived
        others = {i: worker.submit(chat(QUESTIONS[i]), PARAMS[i]) for i in (1, 2, 3, 4, 6)}
        rest = [ev, *events]
        assert isinstance(rest[-1], GenerationResult)
        assert all(isinstance(e, TextDelta) for e in rest[:-1])
        _same(rest[-1], alone[0])
        assert "".join(e.text for e in rest[:-1]) == alone[0].text
        for i, h in others.items():
            _same(h.result(timeout=60), alone[i])
        assert worker.active() == 0
    finally:
        worker.close()
    assert not llm.engine.has_work() and sorted(llm.engine.free_slots) == [0, 1, 2, 3]


def test_worker_callbacks_and_concurrent_submitters(setups):
    """Many threads submit at once; every request gets its own, unchanged reply."""
    llm, alone = setups["dream"]
    worker = EngineWorker(llm.engine)
    got: dict[int, GenerationResult] = {}
    all_done = threading.Condition()

    def submit(i: int) -> None:
        def on_event(ev) -> None:
            if isinstance(ev, GenerationResult):
                with all_done:
                    got[i] = ev
                    all_done.notify()

        worker.submit(chat(QUESTIONS[i]), PARAMS[i], on_event=on_event)

    try:
        threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(QUESTIONS))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with all_done:
            assert all_done.wait_for(lambda: len(got) == len(QUESTIONS), timeout=60)
    finally:
        worker.close()
    for i, r in got.items():
        _same(r, alone[i])
