"""Constrained replies that always finish: a budget fitted to the grammar when the caller set
none, ``finish_reason`` "stop" when the grammar closes on the budget's last token, tool-call
markup that a tokenizer holds as plain-text added tokens (as Qwen's and the demo model's do),
and the JSON hint in the prompt."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import jsonschema
import pytest
from tokenizers import AddedToken, Tokenizer

from bench.constrained import SCHEMAS, schema_format
from engine import MODES, Engine, EngineConfig, RequestError, SamplingParams
from engine.grammar import json_hint
from engine.replies import parse_tool_calls
from engine.tools import tool_request
from tests.engine import tiny
from tests.engine.test_grammar import _byte_level_tokenizer, _run

# Plain-text added tokens, as in the demo model: the call markup, a merged call opening, a
# result marker. llguidance's own import took them for control tokens.
PLAIN_ADDED = ["<tool_call>", "</tool_call>", "<|result|>",
               '<tool_call>{"name": "set_timer", "arguments": {"seconds": ']
TOOLS = [{"type": "function", "function": {
    "name": "set_timer", "description": "Start a timer.",
    "parameters": {"type": "object", "properties": {
        "seconds": {"type": "integer", "minimum": 1, "maximum": 3600},
        "label": {"type": "string"}}, "required": ["seconds", "label"],
        "additionalProperties": False}}}]
ASK = [{"role": "user", "content": "hello what is the capital of france"}]


def _tokenizer_with_plain_added(folder: Path) -> tuple[int, int]:
    """test_grammar's byte-level BPE, with the plain-text added tokens above."""
    _, mask = _byte_level_tokenizer(folder)
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in PLAIN_ADDED])
    tok.save(str(folder / "tokenizer.json"))
    return tok.get_vocab_size(), mask


@pytest.fixture(scope="module", params=["sdar", "llada"])
def engine(request, tmp_path_factory) -> Engine:
    folder = tmp_path_factory.mktemp("ckpt") / request.param
    with mock.patch.object(tiny, "write_tokenizer", _tokenizer_with_plain_added):
        tiny.make_checkpoint(folder, request.param, seed=3)
    return Engine.load(EngineConfig(model=str(folder), device="cpu", max_batch_size=8,
                                    max_model_len=512))


@pytest.mark.parametrize("mode", MODES)
def test_forced_calls_with_plain_text_markup_tokens(engine, mode):
    """Required and named tool choices give valid calls (they were refused as 'too small'
    when the forced '<tool_call>' counted as a control token), and no argument string holds
    markup, even from a random model that favours those tokens."""
    schema = TOOLS[0]["function"]["parameters"]
    for choice in ("required", {"type": "function", "function": {"name": "set_timer"}}):
        tr = tool_request(SamplingParams(mode=mode, max_new_tokens=8, fit_budget=True,
                                         block_size=16), TOOLS, choice, False)
        r = _run(engine, [(ASK, tr.params)])[0]
        parsed = parse_tool_calls(r.text, {"set_timer"})
        assert len(parsed.tool_calls) == 1 and not parsed.invalid, r.text
        args = json.loads(parsed.tool_calls[0]["function"]["arguments"])
        jsonschema.validate(args, schema)
        assert "<" not in args["label"] or "tool_call>" not in args["label"], args
        assert "<|result|>" not in args["label"]
        assert r.finish_reason == "stop"


def test_fitted_budget_is_shortest_reply_plus_a_block(engine):
    """With no budget of the caller's, every schema fits: the budget becomes the grammar's
    shortest reply plus one reply block, whatever the default was."""
    bs = engine.model.cfg.block_size if engine.model.cfg.block_causal else 16
    jobs = []
    for name in ("answer", "nested", "event", "array_of_objects", "weather", "optional_fields"):
        p = SamplingParams(mode="cache", max_new_tokens=4, block_size=16, fit_budget=True,
                           response_format=schema_format(name))
        need = engine.grammar.shortest_reply(p)
        _, _, fitted = engine.resolve(ASK, p)
        assert fitted.max_new_tokens == need + bs and not fitted.fit_budget
        jobs.append((ASK, p))
    for r, (_, p) in zip(_run(engine, jobs), jobs, strict=True):
        name = p.response_format["json_schema"]["name"]
        jsonschema.validate(json.loads(r.text), SCHEMAS[name])
        assert r.finish_reason == "stop", r.text
    # the caller's own budget is still theirs: below the shortest reply it is refused
    with pytest.raises(RequestError, match="too small"):
        engine.add_request(ASK, SamplingParams(max_new_tokens=4,
                                               response_format=schema_format("event")))


@pytest.mark.parametrize("mode", MODES)
def test_closing_on_the_last_token_is_a_stop(engine, mode):
    """A budget of exactly the shortest reply: the reply closes on its last token, is valid,
    and says 'stop' (the openai client raises LengthFinishReasonError on 'length')."""
    for name in ("answer", "string_array", "timer"):
        p = SamplingParams(mode=mode, block_size=16, response_format=schema_format(name))
        need = engine.grammar.shortest_reply(p)
        r = _run(engine, [(ASK, SamplingParams(**{**p.__dict__, "max_new_tokens": need}))])[0]
        jsonschema.validate(json.loads(r.text), SCHEMAS[name])
        assert r.finish_reason == "stop" and r.num_tokens <= need


def test_json_hint_in_the_prompt(engine):
    tok = engine.tokenizer
    rf = schema_format("nested")
    assert json_hint(rf) == "Reply in JSON with the keys: city, population."
    assert json_hint({"type": "json_object"}) == "Reply in JSON."
    assert json_hint(None) is None and json_hint({"type": "lark", "lark": "start: /a/"}) is None
    text = tok.decode(engine.prepare_prompt(ASK, SamplingParams(response_format=rf))[0])
    assert "Reply in JSON with the keys: city, population." in text
    sys_ask = [{"role": "system", "content": "Be brief."}, *ASK]
    text = tok.decode(engine.prepare_prompt(sys_ask, SamplingParams(
        response_format={"type": "json_object"}))[0])
    assert "Be brief.\n\nReply in JSON." in text and text.count("<|system|>") <= 1
    free = tok.decode(engine.prepare_prompt(ASK, SamplingParams())[0])
    assert "JSON" not in free


def test_every_refusal_names_the_part_of_the_request_at_fault(engine):
    """``RequestError.reason`` says which part of a request is wrong, so an API names the
    parameter without reading the message."""
    fmt = schema_format("timer")
    free = SamplingParams(max_new_tokens=8)

    def reason(messages, params, **kw) -> str:
        with pytest.raises(RequestError) as e:
            engine.resolve(messages, params, **kw)
        return e.value.reason

    hi = [{"role": "user", "content": "hi"}]
    assert reason([], free) == "messages"
    assert reason([{"role": "user", "content": "  "}], free) == "messages"
    assert reason([{"role": "wizard", "content": "x"}], free) == "messages"
    assert reason(None, free, prompt_ids=[]) == "prompt"
    assert reason(hi, SamplingParams(max_new_tokens=engine.max_len)) == "budget"
    assert reason(None, SamplingParams(max_new_tokens=engine.max_len - 40),
                  prompt_ids=[1] * 60) == "budget"  # fmt: skip
    assert reason([{"role": "user", "content": "word " * engine.max_len}], free) == "context"
    assert reason(hi, SamplingParams(max_new_tokens=2, response_format=fmt)) == "budget"
    bad = {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "nope"}}}
    assert reason(hi, SamplingParams(max_new_tokens=8, response_format=bad)) == "response_format"
    with pytest.raises(ValueError):
        RequestError("x", "no such reason")
