"""Grammar-constrained decoding: every reply parses and validates, in every decoding mode and
model family, even from a tiny random model, batched beside free requests."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import jsonschema
import pytest
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from bench.constrained import PLAIN_TEXT, SCHEMAS, TOOLS, schema_format
from engine import MODES, Engine, EngineConfig, RequestError, SamplingParams
from engine.replies import parse_tool_calls
from engine.tools import tool_request
from tests.engine import tiny

CORPUS = [
    '{"answer": "yes", "items": ["a", "b"], "value": 12.5, "done": true, "note": null}',
    "the capital of france is paris . what is seven times eight ? fifty six",
    '{"city": {"name": "Paris", "country": "France"}, "population": 2100000}',
    "0123456789 -40 120 86400 [1, 2, 3] true false null",
    '<tool_call>{"name": "set_timer", "arguments": {"seconds": 300}}</tool_call>',
]
ASK = [{"role": "user", "content": "hello what is the capital of france"}]


def _byte_level_tokenizer(folder: Path) -> tuple[int, int]:
    """A small byte-level BPE (every string is spellable, as in real checkpoints)."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=420, special_tokens=tiny.SPECIALS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS * 4, trainer)
    tok.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"chat_template": tiny.CHAT_TEMPLATE, "eos_token": "<|endoftext|>"})
    )
    return tok.get_vocab_size(), tok.token_to_id("<|mask|>")


def _checkpoint(folder: Path, family: str, seed: int = 0) -> Path:
    with mock.patch.object(tiny, "write_tokenizer", _byte_level_tokenizer):
        tiny.make_checkpoint(folder, family, seed=seed)
    return folder


@pytest.fixture(scope="module", params=["llada", "dream", "sdar"])
def engine(request, tmp_path_factory) -> Engine:
    folder = _checkpoint(tmp_path_factory.mktemp("ckpt") / request.param, request.param)
    return Engine.load(EngineConfig(model=str(folder), device="cpu", max_batch_size=8,
                                    max_model_len=512))


def _run(eng: Engine, jobs: list[tuple[list[dict], SamplingParams]]) -> list:
    ids = [eng.add_request(m, p) for m, p in jobs]
    done = {}
    while eng.has_work():
        for r in eng.step().finished:
            done[r.request_id] = r
    return [done[i] for i in ids]


def _params(mode: str, **kw) -> SamplingParams:
    return SamplingParams(mode=mode, max_new_tokens=96, block_size=16, **kw)


@pytest.mark.parametrize("mode", MODES)
def test_every_schema_valid_in_every_mode(engine, mode):
    """All schemas at once in one batch, beside a free request: 100% valid."""
    jobs = [(ASK, _params(mode, response_format=schema_format(n))) for n in SCHEMAS]
    jobs.append((ASK, _params(mode)))
    results = _run(engine, jobs)
    assert len(SCHEMAS) >= 20
    for name, r in zip(SCHEMAS, results, strict=False):
        assert r.finish_reason in ("stop", "length"), (name, r.error)
        obj = json.loads(r.text)  # parses ...
        jsonschema.validate(obj, SCHEMAS[name])  # ... and validates
    assert results[-1].finish_reason in ("stop", "length")


@pytest.mark.parametrize("mode", ["reference", "cache"])
def test_json_object_and_sampling(engine, mode):
    jobs = [
        (ASK, _params(mode, response_format={"type": "json_object"})),
        (ASK, _params(mode, response_format={"type": "json_object"}, temperature=1.0, seed=3)),
        (ASK, _params(mode, response_format=schema_format("weather"), temperature=1.5,
                      top_k=50, top_p=0.9, seed=5)),
    ]
    for r in _run(engine, jobs):
        assert isinstance(json.loads(r.text), dict)
    again = _run(engine, jobs[1:2])[0]
    first = _run(engine, jobs[1:2])[0]
    assert again.text == first.text  # a seeded constrained reply is repeatable


def test_forced_tokens_cost_no_forward(engine):
    """A schema whose reply is all fixed text is committed without any forward pass."""
    p = _params("cache", response_format={"type": "json_schema", "json_schema": {
        "name": "fixed", "schema": {"type": "object", "properties": {"k": {"const": "v"}},
                                    "required": ["k"], "additionalProperties": False}}})
    r = _run(engine, [(ASK, p)])[0]
    assert json.loads(r.text) == {"k": "v"} and r.nfe == 0 and r.finish_reason == "stop"


def test_tight_budget_still_closes(engine):
    """Replies that would run on are closed in time when max_new_tokens is short."""
    for name in ("answer", "string_array", "nested", "event"):
        p = SamplingParams(mode="parallel", max_new_tokens=40, block_size=8,
                           response_format=schema_format(name))
        r = _run(engine, [(ASK, p)])[0]
        jsonschema.validate(json.loads(r.text), SCHEMAS[name])


def test_bad_formats_are_refused(engine):
    bad = [
        {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "objectx"}}},
        {"type": "lark", "lark": "start: (("},
    ]
    for rf in bad:
        with pytest.raises(RequestError):
            engine.add_request(ASK, SamplingParams(response_format=rf))
    with pytest.raises(RequestError, match="too small"):
        engine.add_request(ASK, SamplingParams(max_new_tokens=4,
                                               response_format=schema_format("event")))
    for rf in ({"type": "xml"}, "json", {"type": "json_schema"}):
        with pytest.raises(ValueError):
            SamplingParams(response_format=rf)
    assert SamplingParams(response_format={"type": "text"}).response_format is None


@pytest.mark.parametrize("mode", MODES)
def test_required_and_named_tool_calls(engine, mode):
    prompt = [{"role": "user", "content": "set a timer for five minutes"}]
    names = {t["function"]["name"] for t in TOOLS}
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
    jobs = []
    for choice, parallel in (("required", True), ("required", False),
                             ({"type": "function", "function": {"name": "timer"}}, True)):
        tr = tool_request(_params(mode), TOOLS, choice, parallel)
        jobs.append((tr, choice, parallel))
    for tr, choice, parallel in jobs:
        # The tools' descriptions would not fit a tiny model's context with this byte-level
        # vocabulary; the grammar, which is what is tested here, does not depend on them.
        ids = engine.add_request(prompt, tr.params)
        done = None
        while engine.has_work():
            for r in engine.step().finished:
                if r.request_id == ids:
                    done = r
        parsed = parse_tool_calls(done.text, names)
        assert parsed.tool_calls and not parsed.invalid and parsed.content is None, done.text
        if not parallel or isinstance(choice, dict):
            assert len(parsed.tool_calls) == 1
        for c in parsed.tool_calls:
            if isinstance(choice, dict):
                assert c["function"]["name"] == "timer"
            jsonschema.validate(json.loads(c["function"]["arguments"]),
                                schemas[c["function"]["name"]])


def test_plain_text_grammar(engine):
    r = _run(engine, [(ASK, _params("cache", response_format=PLAIN_TEXT))])[0]
    assert not set(r.text) & set("<>{}[]")
