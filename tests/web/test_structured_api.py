"""Structured output and forced tool calls as an integrator meets them: ``diffvoice api`` on the
bundled demo model, started as a user starts it, and the official ``openai`` client with its
default settings (no ``max_tokens``). Every reply must parse and validate, and none may end by
length (the client's ``parse()`` raises ``LengthFinishReasonError`` on ``length``)."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from typing import Literal

import jsonschema
import openai
import pytest
from openai import OpenAI
from pydantic import BaseModel, Field

from tests.cli_server import cli_server


@pytest.fixture(scope="module")
def api_url() -> Iterator[str]:
    """``diffvoice api --port 0`` as a subprocess; its banner names the port it took."""
    with cli_server(["api", "--port", "0"], r"(http://127\.0\.0\.1:\d+/v1)", 120) as m:
        yield m.group(1)


@pytest.fixture(scope="module")
def client(api_url) -> Iterator[OpenAI]:
    c = OpenAI(base_url=api_url, api_key="unused")  # the client's defaults otherwise
    yield c
    c.close()


class Mood(enum.StrEnum):
    happy = "happy"
    sad = "sad"
    angry = "angry"


class City(BaseModel):
    city: str


class Sum(BaseModel):
    result: int


class Planet(BaseModel):
    name: str
    order_from_sun: int


class Feeling(BaseModel):
    mood: Mood


class Timer(BaseModel):
    minutes: int = Field(ge=1, le=600)
    label: str


class Address(BaseModel):
    city: str
    country: str


class Person(BaseModel):
    name: str
    home: Address


class Colours(BaseModel):
    colours: list[str]


class Capital(BaseModel):
    capital: str
    population: int | None = None
    landlocked: bool | None = None


class Answer(BaseModel):
    kind: Literal["fact", "joke", "refusal"]
    text: str
    confidence: float


SCHEMAS = [
    (City, "What is the capital of France?"),
    (Sum, "What is seven plus eight?"),
    (Planet, "Which planet is the largest?"),
    (Feeling, "I just won the lottery, how do I feel?"),
    (Timer, "Set a tea timer for five minutes"),
    (Person, "Make up a person who lives in Rome, Italy."),
    (Colours, "List three colours."),
    (Capital, "What's the capital of Japan?"),
    (Answer, "Tell me a joke about robots."),
]

GET_WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather for a city.",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "required": ["city", "unit"], "additionalProperties": False}}}
SET_TIMER = {"type": "function", "function": {
    "name": "set_timer", "description": "Start a timer.",
    "parameters": {"type": "object", "properties": {
        "minutes": {"type": "integer", "minimum": 1, "maximum": 600}, "label": {"type": "string"}},
        "required": ["minutes"], "additionalProperties": False}}}
TOOLS = [GET_WEATHER, SET_TIMER]
PARAMS = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}


@pytest.mark.parametrize("model,question", SCHEMAS, ids=[m.__name__ for m, _ in SCHEMAS])
def test_parse_with_default_settings(client, model, question):
    r = client.chat.completions.parse(
        model="demo", messages=[{"role": "user", "content": question}], response_format=model,
    )
    choice = r.choices[0]
    assert choice.finish_reason == "stop"
    assert isinstance(choice.message.parsed, model), choice.message.content
    assert r.usage.completion_tokens > 0


@pytest.mark.parametrize(("model", "question", "format_words", "want"), [
    (City, "What is the capital of France?", " Answer in JSON.", {"city": "Paris"}),
    (Sum, "What is seven plus eight?", "", {"result": 15}),
])
def test_fields_hold_what_the_model_says(client, model, question, format_words, want):
    """The demo model drafts its answer in prose and the server fills the schema from it
    (engine/fill.py): the city is the city and the sum is the sum, as it says them in chat
    (the words asking for JSON are the grammar's business, not the draft's)."""
    said = client.chat.completions.create(
        model="demo", messages=[{"role": "user", "content": question}]).choices[0].message.content
    r = client.chat.completions.parse(
        model="demo", messages=[{"role": "user", "content": question + format_words}],
        response_format=model)
    assert r.choices[0].message.parsed.model_dump() == want, said
    for v in want.values():  # ... which its plain reply says too, in words or digits
        assert str(v) in said or {15: "fifteen"}.get(v, "?") in said.lower()


class Trip(BaseModel):
    """Longer than one of the demo model's 32-token reply blocks at its shortest."""

    departure_city: str
    arrival_city: str
    departure_weekday: str
    arrival_weekday: str
    travellers: list[str]
    luggage_kilograms: int
    window_seat_requested: bool


def test_a_schema_longer_than_one_block(client):
    r = client.chat.completions.parse(
        model="demo", response_format=Trip,
        messages=[{"role": "user", "content": "Plan a trip from Paris to Rome on Monday."}],
    )
    assert r.choices[0].finish_reason == "stop"
    assert isinstance(r.choices[0].message.parsed, Trip)
    assert r.usage.completion_tokens > 32  # the reply ran over more than one block


def test_json_object_with_default_settings(client):
    r = client.chat.completions.create(
        model="demo", messages=[{"role": "user", "content": "What is the capital of Spain?"}],
        response_format={"type": "json_object"},
    )
    assert r.choices[0].finish_reason == "stop"
    assert isinstance(json.loads(r.choices[0].message.content), dict)


def _calls_of(stream) -> tuple[list[tuple[str, str]], str | None]:
    """(name, arguments) of each streamed call, and the finish reason."""
    calls: dict[int, list[str]] = {}
    finish = None
    for chunk in stream:
        for ch in chunk.choices:
            for tc in ch.delta.tool_calls or []:
                entry = calls.setdefault(tc.index, ["", ""])
                if tc.function and tc.function.name:
                    entry[0] = tc.function.name
                if tc.function and tc.function.arguments:
                    entry[1] += tc.function.arguments
            finish = ch.finish_reason or finish
    return [(n, a) for n, a in calls.values()], finish


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("choice", ["required", "named"])
def test_forced_tool_calls_with_default_settings(client, choice, stream):
    tool_choice = "required" if choice == "required" else {
        "type": "function", "function": {"name": "set_timer"}}
    kw = dict(model="demo", messages=[{"role": "user", "content": "set a timer for ten minutes"}],
              tools=TOOLS, tool_choice=tool_choice)
    if stream:
        calls, finish = _calls_of(client.chat.completions.create(stream=True, **kw))
    else:
        r = client.chat.completions.create(**kw)
        finish = r.choices[0].finish_reason
        calls = [(c.function.name, c.function.arguments) for c in r.choices[0].message.tool_calls]
    assert finish == "tool_calls" and calls
    if choice == "named":
        assert [n for n, _ in calls] == ["set_timer"]
    for name, args in calls:
        jsonschema.validate(json.loads(args), PARAMS[name])


def test_parallel_tool_calls(client):
    """``required`` with parallel calls allowed may answer several calls, each valid; with
    ``parallel_tool_calls=False``, exactly one."""
    for parallel, most in ((True, None), (False, 1)):
        r = client.chat.completions.create(
            model="demo", tools=TOOLS, tool_choice="required", parallel_tool_calls=parallel,
            messages=[{"role": "user", "content": "weather in Oslo and a five minute timer"}],
        )
        calls = r.choices[0].message.tool_calls
        assert r.choices[0].finish_reason == "tool_calls" and calls
        if most is not None:
            assert len(calls) <= most
        for c in calls:
            jsonschema.validate(json.loads(c.function.arguments), PARAMS[c.function.name])


def test_a_budget_below_the_schema_is_a_400_naming_max_tokens(client):
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.parse(
            model="demo", messages=[{"role": "user", "content": "a person"}],
            response_format=Person, max_tokens=3,
        )
    assert e.value.body["param"] == "max_tokens" and "max_tokens 3" in e.value.body["message"]
