"""Decoding behaviour on tiny random checkpoints of every family: modes, exact block cache, early
stop, stop strings, lengths, sampling, statistics, streaming, abort, truncation and bad input."""

from __future__ import annotations

import pytest
import torch

import engine.sampler as sampler_mod
from engine import LLM, MODES, EngineWorker, GenerationResult, RequestError, SamplingParams
from engine.checkpoint import save_pretrained
from tests.engine.tiny import make_checkpoint, make_variant

ASK = [{"role": "user", "content": "what is the capital of france"}]
KINDS = ["llada", "dream", "sdar", "fast_dllm_v2"]
BLOCK_CAUSAL = ["sdar", "sdar-absolute", "fast_dllm_v2"]


@pytest.fixture(scope="module")
def llms(tmp_path_factory) -> dict[str, LLM]:
    root = tmp_path_factory.mktemp("ckpts")
    out = {}
    for kind in KINDS + ["sdar-absolute"]:
        make_variant(root / kind, kind)
        out[kind] = LLM.load(str(root / kind), device="cpu", max_model_len=128, max_batch_size=4)
    return out


def P(**kw) -> SamplingParams:
    kw.setdefault("block_size", 4)  # bidirectional families: several blocks per reply
    return SamplingParams(**kw)


# --- every mode, every family -------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_mode_runs(llms, kind, mode):
    r = llms[kind].chat(ASK, P(mode=mode, max_new_tokens=10))
    assert r.finish_reason in ("stop", "length")
    assert r.error is None and isinstance(r.text, str)
    # Blocks of 4: the last block holds 2 positions past max_new_tokens, decoded like the rest.
    assert 1 <= r.nfe <= 12 and r.num_tokens <= 10
    if mode == "reference" and kind != "dream":  # one token per step, every position filled
        assert 10 <= r.nfe <= 12


@pytest.mark.parametrize("question", ["what is the capital of france", "hi"])
@pytest.mark.parametrize("threshold", [1.0, 0.5])
@pytest.mark.parametrize("kind", BLOCK_CAUSAL)
def test_block_causal_cache_is_exact(llms, kind, threshold, question):
    """The block cache holds exactly what a full recompute would: same greedy output.

    "hi" makes a prompt shorter than a block: with absolute blocks the first block starts at 0.
    """
    llm = llms[kind]
    ask = [{"role": "user", "content": question}]
    runs = {
        mode: llm.chat(ask, P(mode=mode, max_new_tokens=14, threshold=threshold))
        for mode in ("parallel", "cache", "dual_cache")
    }
    assert runs["dual_cache"].token_ids == runs["cache"].token_ids
    if kind == "fast_dllm_v2":  # its cache mode is Fast-dLLM v2's sub-block decoder instead
        return
    assert runs["cache"].token_ids == runs["parallel"].token_ids
    assert runs["dual_cache"].token_ids == runs["parallel"].token_ids
    assert runs["cache"].nfe == runs["parallel"].nfe
    if threshold == 1.0:  # one commit per step: the reference schedule with a single token
        ref = llm.chat(ask, P(mode="reference", max_new_tokens=14))
        assert runs["cache"].token_ids == ref.token_ids


# --- early stop ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def eos_llm(tmp_path_factory) -> LLM:
    """An SDAR checkpoint biased so that end-of-text is the sure answer at every position."""
    folder = tmp_path_factory.mktemp("eos")
    model = make_checkpoint(folder, "sdar")
    eos = model.cfg.eos_token_ids[0]
    with torch.no_grad():  # a shared positive direction, which the tied head turns into EOS
        model.model.embed_tokens.weight[:, 0] += 8.0
        model.model.embed_tokens.weight[eos, 0] += 30.0
    save_pretrained(model, folder)
    return LLM.load(str(folder), device="cpu", max_model_len=128, max_batch_size=4)


@pytest.mark.parametrize("mode", ["parallel", "cache", "dual_cache"])
def test_early_stop_after_end_of_text(eos_llm, mode):
    r = eos_llm.chat(ASK, P(mode=mode, max_new_tokens=16))
    assert (r.finish_reason, r.text, r.num_tokens, r.nfe) == ("stop", "", 0, 1)


def test_reference_fills_every_position(eos_llm):
    engine = eos_llm.engine
    rid = engine.add_request(ASK, P(mode="reference", max_new_tokens=16))
    seq = engine.waiting[0]
    done = []
    while engine.has_work():
        done += engine.step().finished
    (r,) = done
    assert r.request_id == rid and r.finish_reason == "stop" and r.nfe == 16
    assert not any(seq.masked)


def _forced_eos(after: int):
    """``unmask_select`` that turns block positions >= ``after`` into end-of-text."""
    real = sampler_mod.unmask_select

    def fake(logits, masked, **kw):
        tokens, conf, commit = real(logits, masked, **kw)
        tokens = tokens.clone()
        tokens[:, after:] = 1  # the tiny tokenizer's <|endoftext|>
        return tokens, conf, commit

    return fake


def test_no_forward_pass_after_end_of_text(llms, monkeypatch):
    """The request ends in the very step its reply becomes complete up to end-of-text."""
    monkeypatch.setattr(sampler_mod, "unmask_select", _forced_eos(3))
    engine = llms["llada"].engine
    calls = []
    real_forward = engine.model.forward
    monkeypatch.setattr(
        engine.model, "forward", lambda *a, **k: calls.append(1) or real_forward(*a, **k)
    )
    engine.add_request(ASK, P(mode="parallel", max_new_tokens=12, block_size=16))
    seq = engine.waiting[0]
    ends, done = [], []
    while engine.has_work():
        done += engine.step().finished
        ends.append(seq.reply_end())
    (r,) = done
    assert r.finish_reason == "stop" and r.num_tokens == 3
    assert len(calls) == r.nfe == len(ends) < 16  # the block has 16 positions
    assert ends[-1] == (seq.prompt_len + 3, True)
    assert not any(at_eos for _, at_eos in ends[:-1])
    assert any(seq.masked)  # stopped with positions past the end still undecided

    full = llms["llada"].chat(
        ASK, P(mode="parallel", max_new_tokens=12, block_size=16, early_stop=False)
    )
    assert full.text == r.text and full.nfe > r.nfe


# --- stop strings, lengths ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["llada", "sdar"])
def test_stop_string(llms, kind):
    llm = llms[kind]
    base = llm.chat(ASK, P(mode="cache", max_new_tokens=16))
    words = base.text.split()
    assert len(words) >= 3
    stop = words[2]
    cut = llm.chat(ASK, P(mode="cache", max_new_tokens=16, stop=[stop, "never-seen"]))
    assert cut.finish_reason == "stop"
    assert cut.text == base.text[: base.text.index(stop)].strip()
    assert stop not in cut.text and cut.nfe <= base.nfe


@pytest.mark.parametrize("max_new", [1, 5, 9])
@pytest.mark.parametrize("kind", KINDS)
def test_max_new_tokens(llms, kind, max_new):
    for mode in ("reference", "cache"):
        r = llms[kind].chat(ASK, P(mode=mode, max_new_tokens=max_new))
        assert r.num_tokens <= max_new and len(r.token_ids) == r.num_tokens
        if r.finish_reason == "length":
            assert r.num_tokens == max_new
        else:  # the model chose end-of-text
            assert r.finish_reason == "stop" and r.num_tokens < max_new
        if mode == "reference" and kind == "dream":  # Dream's schedule: at most a step a token
            assert 1 <= r.nfe <= max_new
        elif mode == "reference":  # a token a step until every reply position is filled
            assert max_new <= r.nfe < max_new + 4


# --- sampling -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["llada", "sdar"])
def test_seeds_are_respected(llms, kind):
    llm = llms[kind]

    def run(seed: int, **kw) -> list[int]:
        return llm.chat(ASK, P(max_new_tokens=12, temperature=1.5, seed=seed, **kw)).token_ids

    assert run(1) == run(1)
    assert run(7, top_k=5) == run(7, top_k=5)
    assert run(3, top_p=0.8) == run(3, top_p=0.8)
    assert len({tuple(run(s)) for s in range(4)}) > 1


def test_seeded_sample_does_not_depend_on_the_batch(llms):
    llm = llms["sdar"]
    params = P(max_new_tokens=12, temperature=1.5, seed=11)
    alone = llm.chat(ASK, params)
    others = [
        [{"role": "user", "content": "hello how are you"}],
        [{"role": "user", "content": "what is seven times eight"}],
    ]
    together = llm.generate([others[0], ASK, others[1]], params)
    assert together[1].token_ids == alone.token_ids


@pytest.mark.parametrize("kind", ["llada", "sdar"])
def test_filters_that_keep_one_token_are_greedy(llms, kind):
    llm = llms[kind]
    greedy = llm.chat(ASK, P(max_new_tokens=12)).token_ids
    assert llm.chat(ASK, P(max_new_tokens=12, temperature=2.0, top_k=1, seed=0)).token_ids == greedy
    assert (
        llm.chat(ASK, P(max_new_tokens=12, temperature=2.0, top_p=1e-6, seed=0)).token_ids == greedy
    )


# --- statistics and streaming -------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_statistics(llms, mode):
    llm = llms["sdar"]
    r = llm.chat(ASK, P(mode=mode, max_new_tokens=12))
    assert r.nfe >= 1 and r.num_tokens >= 1
    assert r.prompt_tokens == len(llm.tokenizer.chat_ids(ASK))
    assert r.tokens_per_forward == pytest.approx(r.num_tokens / r.nfe)
    assert r.total_s > 0 and r.time_to_first_text_s is not None
    assert 0 <= r.time_to_first_text_s <= r.total_s
    assert r.truncated_turns == 0


@pytest.mark.parametrize("stop", [[], ["times"], ["paris ."]], ids=["plain", "stop", "stop2"])
@pytest.mark.parametrize("kind", KINDS)
def test_streaming_deltas_add_up_to_the_text(llms, kind, stop):
    events = list(llms[kind].stream(ASK, P(mode="cache", max_new_tokens=16, stop=stop)))
    *deltas, final = events
    assert isinstance(final, GenerationResult)
    assert all(d.text for d in deltas)
    assert "".join(d.text for d in deltas) == final.text
    if final.text:
        assert len(deltas) >= 1


# --- abort --------------------------------------------------------------------------------------
def test_abort_frees_the_slot_at_once(llms):
    engine = llms["llada"].engine
    n = engine.config.max_batch_size
    rid = engine.add_request(ASK, P(mode="reference", max_new_tokens=12))
    engine.step()
    assert len(engine.free_slots) == n - 1 and engine.running
    r = engine.abort(rid)
    assert r is not None and r.finish_reason == "abort" and r.nfe == 1
    assert sorted(engine.free_slots) == list(range(n)) and not engine.has_work()
    assert engine.abort(rid) is None


def test_abort_a_waiting_request(llms):
    engine = llms["sdar"].engine
    ids = [engine.add_request(ASK, P(max_new_tokens=8)) for _ in range(6)]  # 4 slots
    engine.step()
    assert len(engine.waiting) == 2
    r = engine.abort(ids[-1])
    assert r.finish_reason == "abort" and r.nfe == 0
    done = {}
    while engine.has_work():
        done.update((x.request_id, x) for x in engine.step().finished)
    assert set(done) == set(ids[:-1])
    assert sorted(engine.free_slots) == list(range(4))


def test_abort_through_the_worker(llms):
    engine = llms["dream"].engine
    worker = EngineWorker(engine)
    try:
        h = worker.submit(ASK, P(mode="reference", max_new_tokens=48, block_size=16), stream=True)
        worker.abort(h.request_id)
        r = h.result(timeout=60)
        assert r.finish_reason == "abort" and r.nfe < 48
        assert sorted(engine.free_slots) == list(range(4)) and not engine.has_work()
        assert worker.active() == 0
    finally:
        worker.close()


# --- context and bad input ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def short_llm(tmp_path_factory) -> LLM:
    folder = tmp_path_factory.mktemp("short")
    make_variant(folder, "sdar")
    return LLM.load(str(folder), device="cpu", max_model_len=64, max_batch_size=2)


def test_long_conversation_drops_oldest_turns(short_llm):
    turn = "hello how are you what is the capital of france"
    msgs = [{"role": "system", "content": "you are mars"}]
    for i in range(8):
        msgs.append({"role": "user", "content": f"{turn} {i % 3}"})
        msgs.append({"role": "assistant", "content": "paris"})
    msgs.append({"role": "user", "content": "what is seven times eight"})
    params = P(max_new_tokens=8)
    r = short_llm.chat(msgs, params)
    assert r.truncated_turns > 0 and r.finish_reason in ("stop", "length")
    assert r.prompt_tokens <= 64 - 8 - 4
    tok = short_llm.tokenizer
    kept = [msgs[0]] + msgs[1 + r.truncated_turns :]
    assert r.prompt_tokens == len(tok.chat_ids(kept))  # the system prompt and newest turns stay
    assert r.prompt_tokens < len(tok.chat_ids([msgs[0]] + msgs[r.truncated_turns :]))


def test_last_message_too_long(short_llm):
    with pytest.raises(RequestError, match="tokens"):
        short_llm.chat([{"role": "user", "content": "hello " * 80}], P(max_new_tokens=8))
    with pytest.raises(RequestError, match="max_new_tokens"):
        short_llm.chat(ASK, P(max_new_tokens=60))


@pytest.mark.parametrize(
    "messages,match",
    [
        ([], "must not be empty"),
        ([{"role": "robot", "content": "hi"}], "role"),
        ([{"role": "user", "content": 3}], "string content"),
        (["hello"], "role"),
        ([{"role": "user", "content": "   "}], "empty"),
    ],
    ids=["empty", "bad-role", "bad-content", "not-a-dict", "blank"],
)
def test_bad_messages(llms, messages, match):
    with pytest.raises(RequestError, match=match):
        llms["sdar"].chat(messages)
    assert not llms["sdar"].engine.has_work()


def test_bad_prompt_ids(llms):
    with pytest.raises(RequestError, match="must not be empty"):
        llms["sdar"].engine.add_request(prompt_ids=[])


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"mode": "fast"}, "reference, parallel, cache, dual_cache"),
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"max_new_tokens": 2.5}, "max_new_tokens"),
        ({"block_size": 0}, "block_size"),
        ({"threshold": 1.5}, "threshold"),
        ({"tokens_per_step": 0}, "tokens_per_step"),
        ({"temperature": -1.0}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_k": -1}, "top_k"),
        ({"top_p": 0.0}, "top_p"),
        ({"stop": [""]}, "stop"),
        ({"stop": ["x"] * 17}, "stop"),
    ],
    ids=lambda v: str(v) if isinstance(v, str) else None,
)
def test_bad_sampling_params(kw, match):
    with pytest.raises(ValueError, match=match):
        SamplingParams(**kw)


def test_sampling_params_from_dict():
    assert SamplingParams.from_dict({"mode": "parallel", "stop": "x"}).stop == ["x"]
    with pytest.raises(ValueError, match="unknown sampling parameter 'temp'"):
        SamplingParams.from_dict({"temp": 0.5})
    assert SamplingParams(mode="reference").early_stop is False
    assert SamplingParams(mode="cache").early_stop is True
