"""Structured replies filled from a prose draft (engine/fill.py): the values a draft gives, the
format words a draft leaves out, and the engine's two passes — on the demo model (the values are
the ones it says), and on random checkpoints whose drafts are noise (every reply still valid)."""

from __future__ import annotations

import json
from unittest import mock

import jsonschema
import pytest

from bench.constrained import SCHEMAS, schema_format
from engine import MODES, Engine, EngineConfig, SamplingParams
from engine.fill import propose, prose_request
from tests.engine import tiny
from tests.engine.test_grammar import _byte_level_tokenizer


def _obj(props: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "properties": props,
            "required": list(props) if required is None else required,
            "additionalProperties": False}


S, I = {"type": "string"}, {"type": "integer"}


# --- propose: what a draft gives ----------------------------------------------------------
@pytest.mark.parametrize(("schema", "question", "draft", "want"), [
    # the answer is the words the question did not say
    (_obj({"town": S}), "where does the president of france live", "He lives in Paris.",
     {"town": "Paris"}),
    (_obj({"colour": S}), "what colour is the sky on a clear day",
     "The sky is blue on a clear day.", {"colour": "blue"}),
    # a name before a plain word, wherever it stands
    (_obj({"who": S}), "who wrote hamlet", "Shakespeare wrote it, a famous play.",
     {"who": "Shakespeare"}),
    # numbers: the new one, said in words or digits
    (_obj({"n": I}), "how much is 40 and 2", "40 and 2 make 42.", {"n": 42}),
    (_obj({"difference": I}), "take eleven away from thirty",
     "Thirty minus eleven is nineteen.", {"difference": 19}),
    (_obj({"temp": {"type": "number"}}), "how warm is it", "It is twenty one point five degrees.",
     {"temp": 21.5}),
    (_obj({"temp": {"type": "number"}}), "how warm is it", "It is 21.5 degrees.", {"temp": 21.5}),
    # a key the sentences mention picks first; the other takes the name the question gave
    (_obj({"nation": S, "capital": S}), "capital of spain", "The capital of Spain is Madrid.",
     {"nation": "Spain", "capital": "Madrid"}),
    # enum members named in the draft, booleans from yes and no, constants
    (_obj({"sky": {"type": "string", "enum": ["sunny", "cloudy", "rain"]}}), "weather?",
     "It looks cloudy today.", {"sky": "cloudy"}),
    (_obj({"open": {"type": "boolean"}}), "is the shop open", "Yes, until six.", {"open": True}),
    (_obj({"kind": {"const": "note"}, "text": S}), "remember milk", "Noted: buy milk.",
     {"kind": "note", "text": "Noted"}),
    # arrays take what is left, within their bounds; nested objects field by field
    (_obj({"names": {"type": "array", "items": S, "maxItems": 2}}), "name two planets",
     "Mars, and also Venus.", {"names": ["Mars", "Venus"]}),
    (_obj({"place": _obj({"city": S}), "people": I}), "how many people live in oslo",
     "Oslo has 700000 people.", {"place": {"city": "Oslo"}, "people": 700000}),
    (_obj({"answer": S}), "what is two and two", "Two and two is four.", {"answer": "4"}),
])
def test_proposals_hold_the_drafts_values(schema, question, draft, want):
    text = propose(schema, question, draft)
    assert json.loads(text) == want
    jsonschema.validate(json.loads(text), schema)


def test_a_value_the_draft_does_not_give_ends_the_proposal():
    schema = _obj({"city": S, "population": I, "note": S}, required=["city", "population"])
    text = propose(schema, "the biggest city in peru and its size", "Lima is the biggest.")
    assert text == '{"city":"Lima","population":'  # no number said; optional fields left out
    assert propose(schema, "what", "") == ""
    assert propose(_obj({"ok": {"type": "boolean"}}), "is it", "Perhaps.") == '{"ok":'


@pytest.mark.parametrize(("said", "kept"), [
    ("the capital of Kenya as JSON", "the capital of Kenya"),
    ("Give me the capital of Kenya in JSON format, please.",
     "Give me the capital of Kenya, please."),
    ("What is 2+2? Reply in JSON.", "What is 2+2?"),
    ("Respond only with valid JSON. Which planet is biggest?", "Which planet is biggest?"),
    ("Explain what JSON is.", "Explain what JSON is."),  # a question about JSON stays
    ("what's the capital of norway", "what's the capital of norway"),
])
def test_the_draft_answers_the_question_not_the_format(said, kept):
    msgs = prose_request([{"role": "system", "content": "You are a helpful assistant designed to "
                                                        "output JSON."},
                          {"role": "user", "content": said}])
    assert msgs == [{"role": "user", "content": kept}]


# --- the engine: draft, then the grammar-checked proposal -----------------------------------
@pytest.fixture(scope="module")
def demo() -> Engine:
    return Engine.load(EngineConfig(device="cpu", max_batch_size=4))


def _ask(engine: Engine, question: str, schema: dict, **kw) -> object:
    p = SamplingParams(fit_budget=True, response_format={
        "type": "json_schema", "json_schema": {"name": "a", "schema": schema, "strict": True}},
        **kw)
    rid = engine.add_request([{"role": "user", "content": question}], p)
    done = {}
    while engine.has_work():
        for r in engine.step().finished:
            done[r.request_id] = r
    assert list(done) == [rid]  # the draft is the engine's own: no result of its own
    return done[rid]


@pytest.mark.parametrize("mode", MODES)
def test_the_demo_model_fills_the_values_it_says(demo, mode):
    assert demo.drafts_json()  # its checkpoint asks for it
    r = _ask(demo, "tell me the capital of france as JSON", _obj({"capitalCity": S}), mode=mode)
    assert json.loads(r.text) == {"capitalCity": "Paris"} and r.finish_reason == "stop"
    r = _ask(demo, "what is six plus seven", _obj({"sum": I}), mode=mode)
    assert json.loads(r.text) == {"sum": 13} and r.finish_reason == "stop"
    # the filled reply costs no pass of its own: its passes are the draft's
    free = _free(demo, "what is six plus seven", mode)
    assert r.nfe == free.nfe


def _free(engine: Engine, question: str, mode: str):
    rid = engine.add_request([{"role": "user", "content": question}],
                             SamplingParams(mode=mode, max_new_tokens=32))
    while engine.has_work():
        for r in engine.step().finished:
            if r.request_id == rid:
                return r
    raise AssertionError("no reply")


def test_drafting_can_be_turned_off(demo):
    eng = Engine(demo.model, demo.tokenizer, EngineConfig(device="cpu", json_from_draft="off"),
                 demo.device)
    assert not eng.drafts_json()
    p = SamplingParams(fit_budget=True, response_format=schema_format("answer"))
    rid = eng.add_request([{"role": "user", "content": "what is six plus seven"}], p)
    assert not eng._drafts and [s.request_id for s in eng.waiting] == [rid]  # no draft first
    eng.abort(rid)
    r = _ask(eng, "what is six plus seven", _obj({"sum": I}))
    jsonschema.validate(json.loads(r.text), _obj({"sum": I}))


def test_a_drafted_request_can_be_aborted_and_its_id_is_taken(demo):
    p = SamplingParams(fit_budget=True, response_format=schema_format("answer"))
    rid = demo.add_request([{"role": "user", "content": "what is the capital of peru"}], p,
                           request_id="mine")
    with pytest.raises(ValueError, match="already in use"):
        demo.add_request([{"role": "user", "content": "hi"}], p, request_id="mine")
    res = demo.abort(rid)
    assert res is not None and res.request_id == "mine" and res.finish_reason == "abort"
    assert not demo.has_work()


@pytest.fixture(scope="module", params=["sdar", "llada"])
def noisy(request, tmp_path_factory) -> Engine:
    folder = tmp_path_factory.mktemp("ckpt") / request.param
    with mock.patch.object(tiny, "write_tokenizer", _byte_level_tokenizer):
        tiny.make_checkpoint(folder, request.param, seed=5)
    return Engine.load(EngineConfig(model=str(folder), device="cpu", max_batch_size=8,
                                    max_model_len=512, json_from_draft="on"))


@pytest.mark.parametrize("mode", MODES)
def test_noise_for_a_draft_never_breaks_a_reply(noisy, mode):
    """A random model's drafts are noise, so their proposals stop anywhere the grammar says:
    every schema's reply is still valid and ends 'stop', with the engine's budget."""
    ids = {}
    for name in SCHEMAS:
        p = SamplingParams(mode=mode, fit_budget=True, response_format=schema_format(name),
                           temperature=0.7, seed=11)
        ids[noisy.add_request([{"role": "user", "content": f"the {name} of 12 Paris"}], p)] = name
    done = {}
    while noisy.has_work():
        for r in noisy.step().finished:
            done[r.request_id] = r
    assert set(done) == set(ids)
    for rid, name in ids.items():
        r = done[rid]
        assert r.finish_reason == "stop", (name, r.text)
        jsonschema.validate(json.loads(r.text), SCHEMAS[name])
