"""Tools and structured output through the OpenAI-compatible API (``serve/text_api.py`` in the
one ASGI server), driven by the official ``openai`` client against a real server with a tiny
random byte-level checkpoint: a random model
only calls tools when forced, so forced calls are checked end to end and automatic ones through
the same parsing/streaming path with a reply that contains calls."""

from __future__ import annotations

import json
from collections.abc import Iterator

import jsonschema
import openai
import pytest
from openai import OpenAI
from pydantic import BaseModel, Field

from engine import Engine, EngineConfig, EngineWorker, SamplingParams
from engine.replies import ToolCallStream, reply_message
from serve.text_service import TextService
from tests.web.conftest import ServerThread, tool_checkpoint
from voice.config import load_config

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "set_timer",
            "description": "Start a timer.",
            "parameters": {
                "type": "object",
                "properties": {
                    "seconds": {"type": "integer", "minimum": 1, "maximum": 3600},
                    "label": {"type": "string", "maxLength": 12},
                },
                "required": ["seconds"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "The current local time.",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        },
    },
]
ASK = [{"role": "user", "content": "set a timer for five minutes"}]


class Weather(BaseModel):
    city: str = Field(max_length=16)
    celsius: int = Field(ge=-40, le=50)
    sunny: bool
    tags: list[str] = Field(max_length=2)


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[OpenAI]:
    folder = tool_checkpoint(tmp_path_factory.mktemp("ckpt") / "tiny-llada")
    cfg = EngineConfig(model=str(folder), device="cpu", max_batch_size=4, max_model_len=512)
    w = EngineWorker(Engine.load(cfg))
    text = TextService(w, "tiny", SamplingParams(max_new_tokens=96, block_size=16))
    with ServerThread(None, load_config(None, []), None, text=text) as s:
        c = OpenAI(base_url=s.api_url, api_key="x", max_retries=0, timeout=120)
        yield c
        c.close()
    w.close()


def _check_call(call, name: str | None = None) -> dict:
    assert call.type == "function" and call.id.startswith("call_")
    spec = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
    assert call.function.name in spec and (name is None or call.function.name == name)
    args = json.loads(call.function.arguments)
    jsonschema.validate(args, spec[call.function.name])
    return args


def test_parse_with_pydantic_model(client):
    r = client.chat.completions.parse(model="tiny", messages=ASK, response_format=Weather)
    msg = r.choices[0].message
    assert isinstance(msg.parsed, Weather)  # the client validated it against the model
    assert Weather.model_validate_json(msg.content) == msg.parsed


@pytest.mark.parametrize("stream", [False, True])
def test_json_object_and_schema(client, stream):
    schema = Weather.model_json_schema()
    for rf in (
        {"type": "json_object"},
        {"type": "json_schema", "json_schema": {"name": "w", "schema": schema, "strict": True}},
    ):
        if stream:
            chunks = list(client.chat.completions.create(
                model="tiny", messages=ASK, response_format=rf, stream=True))
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        else:
            text = client.chat.completions.create(
                model="tiny", messages=ASK, response_format=rf).choices[0].message.content
        obj = json.loads(text)
        if rf["type"] == "json_schema":
            Weather.model_validate(obj)


def test_forced_call_not_streamed(client):
    r = client.chat.completions.create(model="tiny", messages=ASK, tools=TOOLS,
                                       tool_choice="required", parallel_tool_calls=False)
    ch = r.choices[0]
    assert ch.finish_reason == "tool_calls" and ch.message.content is None
    assert len(ch.message.tool_calls) == 1
    _check_call(ch.message.tool_calls[0])
    named = {"type": "function", "function": {"name": "get_time"}}
    r = client.chat.completions.create(model="tiny", messages=ASK, tools=TOOLS, tool_choice=named)
    assert [c.function.name for c in r.choices[0].message.tool_calls] == ["get_time"]


def test_forced_call_streamed(client):
    chunks = list(client.chat.completions.create(
        model="tiny", messages=ASK, tools=TOOLS, tool_choice="required", stream=True))
    calls: dict[int, dict] = {}
    for c in chunks:
        for tc in (c.choices[0].delta.tool_calls or []) if c.choices else []:
            d = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
            d["id"] += tc.id or ""
            d["name"] += (tc.function.name or "") if tc.function else ""
            d["arguments"] += (tc.function.arguments or "") if tc.function else ""
    assert calls and chunks[-1].choices[0].finish_reason == "tool_calls"
    for d in calls.values():
        assert d["id"].startswith("call_")
        args = json.loads(d["arguments"])
        jsonschema.validate(args, {t["function"]["name"]: t["function"]["parameters"]
                                   for t in TOOLS}[d["name"]])


def test_round_trip_with_tool_result(client):
    r = client.chat.completions.create(model="tiny", messages=ASK, tools=TOOLS,
                                       tool_choice={"type": "function",
                                                    "function": {"name": "set_timer"}})
    msg = r.choices[0].message
    history = [*ASK, msg.model_dump(exclude_none=True),
               {"role": "tool", "tool_call_id": msg.tool_calls[0].id,
                "content": json.dumps({"ok": True, "ends_in_seconds": 300})}]
    again = client.chat.completions.create(model="tiny", messages=history, tools=TOOLS,
                                           tool_choice="none")
    ch = again.choices[0]
    assert ch.finish_reason in ("stop", "length") and not ch.message.tool_calls
    assert isinstance(ch.message.content, str)
    auto = client.chat.completions.create(model="tiny", messages=history, tools=TOOLS)
    assert auto.choices[0].finish_reason in ("stop", "length", "tool_calls")


def test_automatic_calls_in_a_reply_are_parsed_and_streamed():
    """What ``tool_choice: auto`` does with a reply that calls tools (a random model never
    writes one): the same functions the server runs on the engine's text."""
    text = ('One moment. <tool_call>{"name": "set_timer", "arguments": {"seconds": 300}}'
            '</tool_call>\n<tool_call>{"name": "get_time", "arguments": {}}</tool_call>')
    names = {"set_timer", "get_time"}
    msg, called = reply_message(text, names)
    assert called and msg["content"] == "One moment."
    assert [c["function"]["name"] for c in msg["tool_calls"]] == ["set_timer", "get_time"]
    s = ToolCallStream(names)
    deltas = [d for i in range(0, len(text), 7) for d in s.feed(text[i : i + 7])] + s.finish()
    content = "".join(d.get("content", "") for d in deltas)
    assert content.strip() == "One moment."
    named = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    assert [n["function"].get("name") for n in named if n.get("id")] == ["set_timer", "get_time"]
    args = {}
    for n in named:
        args[n["index"]] = args.get(n["index"], "") + n["function"]["arguments"]
    assert json.loads(args[0]) == {"seconds": 300} and json.loads(args[1]) == {}


@pytest.mark.parametrize(
    "kw, param",
    [
        ({"tools": [{"type": "function", "function": {"name": "bad name"}}]}, "tools"),
        ({"tools": TOOLS, "tool_choice": "sometimes"}, "tool_choice"),
        ({"tool_choice": "required"}, "tool_choice"),
        ({"tools": TOOLS, "tool_choice": {"type": "function", "function": {"name": "nope"}}},
         "tool_choice"),
        ({"response_format": {"type": "xml"}}, "response_format"),
        ({"response_format": {"type": "json_schema",
                              "json_schema": {"name": "x", "schema": {"type": "objectx"}}}},
         "response_format"),
        ({"response_format": {"type": "json_schema", "json_schema": {
            "name": "x", "schema": Weather.model_json_schema()}}, "max_tokens": 3},
         "max_tokens"),
    ],
)
def test_bad_tool_and_format_requests_are_400(client, kw, param):
    with pytest.raises(openai.BadRequestError) as ei:
        client.chat.completions.create(model="tiny", messages=ASK, **kw)
    err = ei.value.body
    assert err["param"] == param and err["type"] == "invalid_request_error", err


def test_bad_tool_messages_are_400(client):
    bad = [*ASK, {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{oops"}}]}]
    with pytest.raises(openai.BadRequestError) as ei:
        client.chat.completions.create(model="tiny", messages=bad)
    assert ei.value.body["param"] == "messages[1]"
