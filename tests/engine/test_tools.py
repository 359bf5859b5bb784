"""Tool calling in the engine: conversations with tool calls, tools in the prompt (a template
that renders them, and the fallback for one that does not), and replies parsed into OpenAI
``tool_calls``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Engine, EngineConfig, RequestError, SamplingParams
from engine.replies import ToolCallFilter, parse_tool_calls
from engine.tokenizer import ChatTokenizer
from engine.tools import (
    ToolFormatError,
    call_text,
    normalize_messages,
    normalize_tool_choice,
    normalize_tools,
    tool_request,
)

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "The current local time.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "set_timer",
            "description": "Start a timer.",
            "parameters": {
                "type": "object",
                "properties": {
                    "seconds": {"type": "integer", "minimum": 1},
                    "label": {"type": "string"},
                },
                "required": ["seconds"],
            },
        },
    },
]
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "set_timer", "arguments": '{"seconds": 300}'},
}
ROUND_TRIP = [
    {"role": "user", "content": "set a timer for five minutes"},
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "call_1", "content": '{"ok": true}'},
]
# A Qwen2.5-like template that renders tools, tool calls and tool results itself.
TOOL_TEMPLATE = (
    "{% if tools %}<|system|>TOOLS{% for t in tools %} {{ t['function']['name'] }}"
    "{% endfor %}{% endif %}"
    "{% for m in messages %}"
    "{% if m['role'] == 'tool' %}<|user|>RESULT({{ m['tool_call_id'] }}) {{ m['content'] }}"
    "{% elif m['role'] == 'assistant' and m['tool_calls'] %}<|assistant|>"
    "{% for c in m['tool_calls'] %}<tool_call>{{ {'name': c['function']['name'], "
    "'arguments': c['function']['arguments']} | tojson }}</tool_call>{% endfor %}<|endoftext|>"
    "{% else %}<|{{ m['role'] }}|>{{ m['content'] }}"
    "{% if m['role'] == 'assistant' %}<|endoftext|>{% endif %}{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def test_parse_calls_into_openai_shape():
    text = (
        'Sure. <tool_call>{"name": "set_timer", "arguments": {"seconds": 300, "label": "tea"}}'
        '</tool_call>\n<tool_call>{"name": "get_time", "arguments": {}}</tool_call>'
    )
    p = parse_tool_calls(text, {"set_timer", "get_time"})
    assert p.content == "Sure."
    assert [c["function"]["name"] for c in p.tool_calls] == ["set_timer", "get_time"]
    c = p.tool_calls[0]
    assert c["type"] == "function" and c["id"].startswith("call_")
    assert json.loads(c["function"]["arguments"]) == {"seconds": 300, "label": "tea"}
    assert len({c["id"] for c in p.tool_calls}) == 2
    assert p.invalid == []


def test_parse_bad_and_unknown_calls_are_set_aside():
    text = '<tool_call>{"name": "nope", "arguments": {}}</tool_call><tool_call>{oops</tool_call>ok'
    p = parse_tool_calls(text, {"get_time"})
    assert p.tool_calls == [] and len(p.invalid) == 2 and p.content == "ok"
    # "parameters" as a synonym, arguments as a JSON string, and a block cut off at the end
    p = parse_tool_calls('<tool_call>{"name": "get_time", "parameters": "{}"}')
    assert [c["function"]["name"] for c in p.tool_calls] == ["get_time"] and p.content is None
    assert parse_tool_calls("just text").tool_calls == []


@pytest.mark.parametrize(
    "pieces",
    [
        ["Hel", "lo <tool", '_call>{"a": 1}</tool_', "call> bye"],
        ["Hello <", "t", "ool_call>", "{}", "</tool_call>", " bye"],
        ["Hello ", "<tool_call>{}</tool_call> bye"],
    ],
)
def test_filter_holds_back_calls_while_streaming(pieces):
    f = ToolCallFilter()
    shown = "".join(f.feed(p) for p in pieces) + f.finish()
    assert shown == "Hello  bye" and f.saw_call


def test_filter_gives_back_a_false_alarm():
    f = ToolCallFilter()
    assert f.feed("a <t") == "a "
    assert f.finish() == "<t"


def test_normalize_messages_and_errors():
    msgs = normalize_messages(ROUND_TRIP)
    assert msgs[1]["tool_calls"][0]["function"]["arguments"] == {"seconds": 300}
    assert msgs[1]["content"] == "" and msgs[2]["tool_call_id"] == "call_1"
    bad = [
        [{"role": "robot", "content": "x"}],
        [{"role": "user", "content": None}],
        [{"role": "user", "content": "x", "tool_calls": [CALL]}],
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{x"}}]}],
        [{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}],
    ]
    for m in bad:
        with pytest.raises(ToolFormatError):
            normalize_messages(m)


def test_tools_and_tool_choice_checks():
    assert normalize_tools(TOOLS)[1]["function"]["name"] == "set_timer"
    for bad in ("x", [{"type": "retrieval"}], [{"function": {"name": "a b"}}], TOOLS + TOOLS[:1]):
        with pytest.raises(ToolFormatError):
            normalize_tools(bad)
    tools = normalize_tools(TOOLS)
    assert normalize_tool_choice(None, tools) == "auto"
    assert normalize_tool_choice(None, []) == "none"
    named = {"type": "function", "function": {"name": "get_time"}}
    assert normalize_tool_choice(named, tools) == named
    for bad in ("sometimes", {"type": "function", "function": {"name": "x"}},
                {"type": "function", "function": ["get_time"]},  # not a name: no TypeError
                {"type": "function", "function": {"name": ["get_time"]}}):
        with pytest.raises(ToolFormatError):
            normalize_tool_choice(bad, tools)
    with pytest.raises(ToolFormatError):
        normalize_tool_choice("required", [])


def test_tool_request_maps_choice_onto_params():
    base = SamplingParams()
    auto = tool_request(base, TOOLS, "auto")
    assert auto.params.response_format is None and auto.prompt_tools and auto.parses_calls
    none = tool_request(base, TOOLS, "none")
    assert none.prompt_tools == [] and not none.parses_calls
    req = tool_request(base, TOOLS, "required")
    assert req.params.response_format["type"] == "lark"
    assert "set_timer" in req.params.response_format["lark"]
    named = tool_request(base, TOOLS, {"type": "function", "function": {"name": "get_time"}})
    assert "set_timer" not in named.params.response_format["lark"]


def _tokenizer(folder: Path, template: str | None) -> ChatTokenizer:
    if template is not None:
        conf = json.loads((folder / "tokenizer_config.json").read_text())
        conf["chat_template"] = template
        (folder / "tokenizer_config.json").write_text(json.dumps(conf))
    return ChatTokenizer(folder, [1])


def test_template_with_tool_support_renders_them(sdar_dir, tmp_path):
    import shutil

    folder = tmp_path / "m"
    shutil.copytree(sdar_dir, folder)
    tok = _tokenizer(folder, TOOL_TEMPLATE)
    sup = tok.template_support
    assert sup.tools and sup.tool_calls and sup.tool_role
    text = tok.chat_text(ROUND_TRIP, normalize_tools(TOOLS))
    assert text.startswith("<|system|>TOOLS get_time set_timer")
    assert '<tool_call>{"name": "set_timer", "arguments": {"seconds": 300}}</tool_call>' in text
    assert 'RESULT(call_1) {"ok": true}' in text
    assert text.endswith("<|assistant|>")


def test_template_without_tool_support_gets_the_fallback(sdar_dir):
    tok = _tokenizer(sdar_dir, None)
    sup = tok.template_support
    assert not (sup.tools or sup.tool_calls or sup.tool_role)
    msgs = [{"role": "system", "content": "Be brief."}, *ROUND_TRIP]
    text = tok.chat_text(msgs, normalize_tools(TOOLS))
    assert text.startswith("<|system|>Be brief.\n\nYou may call one or more functions")
    assert '"name": "set_timer"' in text and "<tools>" in text
    assert "<|assistant|>" + call_text(normalize_messages(ROUND_TRIP)[1]["tool_calls"]) in text
    assert '<|user|><tool_response>\n{"ok": true}\n</tool_response>' in text
    # No tools: the conversation alone, calls and results still rendered as text.
    assert "<tools>" not in tok.chat_text(ROUND_TRIP)


def test_engine_accepts_tool_conversations(sdar_dir):
    eng = Engine.load(EngineConfig(model=str(sdar_dir), device="cpu", max_model_len=512))
    p = SamplingParams(max_new_tokens=8)
    ids, dropped = eng.validate(ROUND_TRIP, p, tools=TOOLS)
    assert dropped == 0 and ids == eng.tokenizer.chat_ids(ROUND_TRIP, normalize_tools(TOOLS))
    rid = eng.add_request(ROUND_TRIP, p, tools=TOOLS)
    while eng.has_work():
        done = eng.step().finished
    assert done[0].request_id == rid and done[0].finish_reason in ("stop", "length")
    for bad in (
        [{"role": "tool", "content": 3}],
        [{"role": "assistant", "tool_calls": "x"}],
    ):
        with pytest.raises(RequestError):
            eng.validate(bad, p)
    with pytest.raises(RequestError):
        eng.validate(ROUND_TRIP, p, tools=[{"type": "function"}])
