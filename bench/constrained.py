"""Constrained decoding: a schema suite and the tokens-per-forward benchmark.

``SCHEMAS`` — varied JSON schemas (nested objects, arrays, enums, bounded integers, numbers,
booleans, optional fields, nullable and ``anyOf`` values) that the tests decode in every mode,
checking that 100% of the replies validate.

``diffvoice bench --constrained`` (:func:`main`) runs the same prompts free and under a grammar
in the reference mode and each fast mode, and reports tokens per forward pass of each and their
ratio (target ≥ 0.9), and for the structured sets how many constrained replies were valid (parsed,
validated, ended ``stop``) and right. Three prompt sets:

- ``text``: the bench's voice questions; the constrained run uses a grammar that admits plain
  sentences (no markup), so the only difference is the constrained commit order (left to right
  from the frontier, grammar-masked) against the free one (any confident position).
- ``tools``: requests a tool-trained model answers with a call; the free run is
  ``tool_choice: auto`` and the constrained run ``required`` with the engine's fitted budget (the
  call's keys, braces and name are then forced tokens, committed without a pass); right = the
  call names the tool the request is for.
- ``json``: :data:`LABELLED`, questions with a schema each and the answer its fields must hold;
  free runs the question as plain chat, constrained with the schema and the fitted budget, as
  an API request without ``max_tokens``; right = fields holding the labelled answer.
- ``json-heldout``: the same for ``bench/json_heldout.py``, written by someone who had not
  seen the filling code (engine/fill.py) nor :data:`LABELLED`: other wordings, key names,
  typos, JSON named in a third of the questions, enums and three-field objects.

A table goes to stdout, progress to stderr, and the last line is one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence

from bench.json_heldout import HELD_OUT
from engine.engine import RequestError
from engine.replies import parse_tool_calls
from engine.sampling import SamplingParams
from engine.tools import normalize_tools, tool_request

_S = {"type": "string"}
_I = {"type": "integer"}
_B = {"type": "boolean"}


def _obj(props: dict, required: list[str] | None = None, **kw) -> dict:
    return {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
        "additionalProperties": False,
        **kw,
    }


SCHEMAS: dict[str, dict] = {
    "answer": _obj({"answer": _S}),
    "yes_no": _obj({"answer": {"type": "string", "enum": ["yes", "no"]}}),
    "bool_flag": _obj({"done": _B}),
    "bounded_int": _obj({"minutes": {"type": "integer", "minimum": 1, "maximum": 120}}),
    "negative_int": _obj({"celsius": {"type": "integer", "minimum": -40, "maximum": 50}}),
    "number": _obj({"value": {"type": "number"}, "unit": _S}),
    "enum_int": _obj({"stars": {"type": "integer", "enum": [1, 2, 3, 4, 5]}}),
    "timer": _obj(
        {"seconds": {"type": "integer", "minimum": 1, "maximum": 86400}, "label": _S},
        required=["seconds"],
    ),
    "optional_fields": _obj(
        {"name": _S, "nickname": _S, "age": {"type": "integer", "minimum": 0, "maximum": 130}},
        required=["name"],
    ),
    "string_array": _obj({"items": {"type": "array", "items": _S, "maxItems": 4}}),
    "int_array_bounded": _obj(
        {"scores": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 10},
                    "minItems": 1, "maxItems": 3}}
    ),
    "nested": _obj({"city": _obj({"name": _S, "country": _S}), "population": _I}),
    "deep_nested": _obj({"a": _obj({"b": _obj({"c": _obj({"d": _B})})})}),
    "array_of_objects": _obj(
        {"steps": {"type": "array", "maxItems": 3,
                   "items": _obj({"n": {"type": "integer", "minimum": 1}, "text": _S})}}
    ),
    "weather": _obj(
        {
            "city": _S,
            "temp": {"type": "integer", "minimum": -50, "maximum": 60},
            "sky": {"type": "string", "enum": ["sunny", "cloudy", "rain", "snow"]},
            "windy": _B,
        }
    ),
    "nullable": _obj({"note": {"type": ["string", "null"]}}),
    "any_of": _obj({"value": {"anyOf": [_I, _B]}}),
    "const": _obj({"kind": {"const": "reminder"}, "text": _S}),
    "calculator": _obj(
        {"op": {"type": "string", "enum": ["add", "sub", "mul", "div"]}, "a": _I, "b": _I}
    ),
    "unit_convert": _obj(
        {"value": {"type": "number"}, "from": {"type": "string", "enum": ["km", "mi", "m"]},
         "to": {"type": "string", "enum": ["km", "mi", "m"]}}
    ),
    "top_level_array": {"type": "array", "items": _I, "maxItems": 5},
    "string_length": _obj({"code": {"type": "string", "minLength": 2, "maxLength": 4}}),
    "pattern": _obj({"time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}),
    "event": _obj(
        {
            "title": _S,
            "when": _obj({"day": {"type": "string", "enum": ["mon", "tue", "wed"]},
                          "hour": {"type": "integer", "minimum": 0, "maximum": 23}}),
            "people": {"type": "array", "items": _S, "maxItems": 2},
            "remind": _B,
        },
        required=["title", "when"],
    ),
}


def schema_format(name: str, strict: bool = True) -> dict:
    return {"type": "json_schema", "json_schema": {"name": name, "schema": SCHEMAS[name],
                                                   "strict": strict}}


# A grammar that admits what the demo model says: sentences, no markup.
PLAIN_TEXT = {"type": "lark", "lark": r"start: /[^<>{}\[\]]+/"}

# The assistant's built-in voice tools as the demo model is trained to call them (names and
# argument keys in its order; every value a string the tool reads, spoken numbers included).
TOOLS = normalize_tools([
    {"type": "function", "function": {
        "name": "clock", "description": "Time, date, weekday, days until a date.",
        "parameters": _obj({"what": {"type": "string",
                                     "enum": ["time", "date", "day", "until", "zone"]},
                            "date": _S}, required=["what"])}},
    {"type": "function", "function": {
        "name": "timer", "description": "Set, list, cancel timers and reminders.",
        "parameters": _obj({"action": {"type": "string",
                                       "enum": ["set", "remind", "list", "cancel", "left"]},
                            "duration": _S, "label": _S}, required=["action"])}},
    {"type": "function", "function": {
        "name": "calculator", "description": "Exact arithmetic, spoken or written.",
        "parameters": _obj({"expression": _S})}},
    {"type": "function", "function": {
        "name": "units", "description": "Convert a quantity between units.",
        "parameters": _obj({"value": _S, "from": _S, "to": _S})}},
    {"type": "function", "function": {
        "name": "spell", "description": "Spell a word letter by letter.",
        "parameters": _obj({"word": _S})}},
])
TOOL_PROMPTS = (
    "what time is it",
    "set a timer for five minutes",
    "what is seventeen times twenty three",
    "how many kilometres is ten miles",
    "start a ten minute timer for the pasta",
    "what day is it today",
    "what is twelve plus thirty",
    "how do you spell necessary",
)


# A labelled set for field accuracy: questions the demo model knows the answer to, each asked for
# one JSON shape, and what its fields must hold (a string field holds the text, compared without
# case; a number equals it). Written by hand for this bench, not drawn from the training corpus:
# other wordings ("as JSON", "give me", "I'd like") and key names the JSON skill's training rows
# never use (training/skills_json.py reserves capital_of_country, total_value, planet_name and
# spelled for this set).
LABELLED: tuple[tuple[str, dict, dict], ...] = (
    ("the capital of Kenya as JSON", _obj({"city": _S}), {"city": "Nairobi"}),
    ("what's the capital of norway", _obj({"capital_of_country": _S}),
     {"capital_of_country": "Oslo"}),
    ("give me seven plus five", _obj({"total_value": _I}), {"total_value": 12}),
    ("what is nine minus four", _obj({"result": _I}), {"result": 5}),
    ("which planet is the biggest one", _obj({"planet_name": _S}), {"planet_name": "Jupiter"}),
    ("which currency do they use in japan", _obj({"currency": _S}), {"currency": "yen"}),
    ("I'd like to know which continent Brazil is on", _obj({"continent": _S}),
     {"continent": "South America"}),
    ("what language do people speak in poland", _obj({"language": _S}),
     {"language": "Polish"}),
    ("the day after monday, please", _obj({"day": _S}), {"day": "Tuesday"}),
    ("capital of italy", _obj({"country": _S, "capital": _S}),
     {"country": "Italy", "capital": "Rome"}),
    ("what is three times four", _obj({"answer": _I}), {"answer": 12}),
    ("which planet comes fourth from the sun", _obj({"name": _S}), {"name": "Mars"}),
)

# The tool each TOOL_PROMPTS request should call.
TOOL_EXPECTED = ("clock", "timer", "calculator", "units", "timer", "clock", "calculator", "spell")


def _run(llm, prompts: Sequence[str], params: SamplingParams, tools=None) -> list:
    return [llm.chat([{"role": "user", "content": q}], params, tools) for q in prompts]


def _row(results: list) -> dict:
    toks = sum(r.num_tokens for r in results)
    nfe = sum(r.nfe for r in results)
    secs = sum(r.total_s for r in results)
    return {
        "tokens": toks,
        "forwards": nfe,
        "tokens_per_forward": round(toks / nfe, 3) if nfe else 0.0,
        "ms_per_reply": round(1000 * secs / len(results), 2) if results else 0.0,
    }


def _valid(value: object, schema: dict) -> bool:
    """Whether a parsed value satisfies its schema (jsonschema where installed, else the parse
    itself is the check: the grammar compiled the schema)."""
    try:
        import jsonschema
    except ImportError:
        return True
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError:
        return False
    return True


def _field_right(got: object, want: object) -> bool:
    if isinstance(want, str):
        return isinstance(got, str) and want.lower() in got.lower()
    return got == want


def run(llm, modes: Sequence[str], max_new_tokens: int = 48, threshold: float = 0.9,
        progress=lambda msg: None) -> dict:
    """Per (prompt set, mode): free and constrained rows, the ratio of tokens/forward, and for
    the structured sets how many constrained replies were valid and right.

    The constrained tool and JSON requests leave their budget to the engine, as an API call
    without ``max_tokens`` does (``fit_budget``); the free ones have ``max_new_tokens``."""
    report: dict[str, dict] = {}
    base = SamplingParams(max_new_tokens=max_new_tokens, threshold=threshold)
    from bench.decoding import PROMPTS  # the decoding bench's voice questions

    names = {t["function"]["name"] for t in TOOLS}
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
    _run(llm, PROMPTS[:2], base)  # warm-up
    for mode in modes:
        p = SamplingParams(**{**base.__dict__, "mode": mode, "early_stop": None})
        progress(f"text/{mode}")
        free = _run(llm, PROMPTS, p)
        con = _run(llm, PROMPTS, SamplingParams(**{**p.__dict__, "response_format": PLAIN_TEXT}))
        report[f"text/{mode}"] = _pair(free, con)
        progress(f"tools/{mode}")
        auto = tool_request(p, TOOLS, "auto")
        fit = SamplingParams(**{**p.__dict__, "fit_budget": True})
        req = tool_request(fit, TOOLS, "required")
        try:
            free = _run(llm, TOOL_PROMPTS, auto.params, auto.prompt_tools)
            con = _run(llm, TOOL_PROMPTS, req.params, req.prompt_tools)
        except RequestError as e:  # e.g. a model whose template has no compact tool format
            progress(f"tools/{mode} skipped: {e}")
            continue
        row = _pair(free, con)
        row["free_calls"] = sum(bool(parse_tool_calls(r.text, names).tool_calls) for r in free)
        valid = right = 0
        for r, want in zip(con, TOOL_EXPECTED, strict=True):
            calls = parse_tool_calls(r.text, names).tool_calls
            ok = bool(calls) and r.finish_reason == "stop" and all(
                _valid(json.loads(c["function"]["arguments"]), schemas[c["function"]["name"]])
                for c in calls
            )
            valid += ok
            right += ok and calls[0]["function"]["name"] == want
        row.update(valid=valid, n=len(con), right=right)
        report[f"tools/{mode}"] = row
        for name, labelled in (("json", LABELLED), ("json-heldout", HELD_OUT)):
            progress(f"{name}/{mode}")
            report[f"{name}/{mode}"] = _labelled_row(llm, labelled, p, fit)
    return report


def _labelled_row(llm, labelled, p: SamplingParams, fit: SamplingParams) -> dict:
    """Free and constrained replies to a labelled JSON set; valid replies and right fields."""
    free = _run(llm, [q for q, _, _ in labelled], p)
    con = [
        llm.chat([{"role": "user", "content": q}], SamplingParams(**{
            **fit.__dict__, "response_format": {"type": "json_schema", "json_schema": {
                "name": "answer", "schema": schema, "strict": True}}}))
        for q, schema, _ in labelled
    ]
    row = _pair(free, con)
    valid = fields = fields_right = known = known_right = 0
    misses = []
    for r, f, (q, schema, want) in zip(con, free, labelled, strict=True):
        try:
            value = json.loads(r.text)
        except ValueError:
            value = None
        ok = value is not None and r.finish_reason == "stop" and _valid(value, schema)
        valid += ok
        for k, v in want.items():
            fields += 1
            right = ok and _field_right(value.get(k), v)
            fields_right += right
            said = _says(f.text, v)  # the model's plain answer holds it
            known += said
            known_right += said and right
            if not right:
                misses.append(f"{q!r}: {r.text} (free: {f.text!r})")
    row.update(valid=valid, n=len(con), fields=fields, fields_right=fields_right,
               known=known, known_right=known_right, examples=[r.text for r in con[:4]],
               misses=misses)
    return row


def _says(text: str, want: object) -> bool:
    """Whether a plain reply says the labelled answer (a number in digits or words)."""
    if isinstance(want, str):
        return want.lower() in text.lower()
    from words.quantity import read_number, spoken_text

    words = spoken_text(text).replace(".", " ").replace(",", " ").split()
    return any((n := read_number(words, i)) is not None and n[0] == want
               for i in range(len(words)))


def _pair(free: list, con: list) -> dict:
    f, c = _row(free), _row(con)
    return {"free": f, "constrained": c,
            "ratio": round(c["tokens_per_forward"] / f["tokens_per_forward"], 3)
            if f["tokens_per_forward"] else 0.0}


def format_table(report: dict) -> str:
    head = (f"{'set/mode':<20}{'free tok/fwd':>13}{'constr tok/fwd':>15}{'ratio':>7}"
            f"{'free ms':>9}{'constr ms':>10}{'valid':>8}{'right':>8}{'said':>8}")
    lines = [head, "-" * len(head)]
    for k, v in report.items():
        valid = f"{v['valid']}/{v['n']}" if "valid" in v else "-"
        if "fields" in v:
            right = f"{v['fields_right']}/{v['fields']}"
            said = f"{v['known_right']}/{v['known']}"
        else:
            right = f"{v['right']}/{v['n']}" if "right" in v else "-"
            said = "-"
        lines.append(
            f"{k:<20}{v['free']['tokens_per_forward']:>13.2f}"
            f"{v['constrained']['tokens_per_forward']:>15.2f}{v['ratio']:>7.2f}"
            f"{v['free']['ms_per_reply']:>9.1f}{v['constrained']['ms_per_reply']:>10.1f}"
            f"{valid:>8}{right:>8}{said:>8}"
        )
    return "\n".join(lines)


def main(llm, modes: Sequence[str], max_new_tokens: int, threshold: float, setup: dict) -> int:
    def progress(msg: str) -> None:
        print(f"[constrained] {msg}", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    report = run(llm, ["reference", *modes], max_new_tokens, threshold, progress)
    print(format_table(report))
    print("valid: constrained replies that parse, validate and end 'stop'; right: tool calls "
          "naming the expected tool, JSON fields holding the labelled answer; said: of the "
          "fields whose answer the model's plain reply says, those the JSON holds")
    structured = [v for v in report.values() if "valid" in v]
    ratios = [v["ratio"] for k, v in report.items() if not k.startswith("json-heldout")]
    held = [v for k, v in report.items() if k.startswith("json-heldout")]
    fields = sum(v.get("fields", 0) for v in structured)
    summary = {
        "min_ratio": min(ratios), "mean_ratio": round(sum(ratios) / len(ratios), 3),
        "target": 0.9,
        "validity": round(sum(v["valid"] for v in structured)
                          / max(1, sum(v["n"] for v in structured)), 4),
        "field_accuracy": round(sum(v.get("fields_right", 0) for v in structured)
                                / max(1, fields), 4),
        "field_accuracy_when_said": round(
            sum(v.get("known_right", 0) for v in structured)
            / max(1, sum(v.get("known", 0) for v in structured)), 4),
        "heldout_min_ratio": min((v["ratio"] for v in held), default=None),
        "heldout_field_accuracy": round(sum(v["fields_right"] for v in held)
                                        / max(1, sum(v["fields"] for v in held)), 4),
        "tool_accuracy": round(sum(v.get("right", 0) for v in structured if "right" in v)
                               / max(1, sum(v["n"] for v in structured if "right" in v)), 4),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps({"constrained": report, "summary": summary, "setup": setup}))
    return 0
