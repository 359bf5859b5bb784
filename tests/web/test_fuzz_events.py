"""The websocket event parser and a live session's message handling, fuzzed with hypothesis
within a bounded budget (derandomized, so CI runs the same examples every time).

Any text gives a valid event or a :class:`ProtocolError` with a known code and a one-line
message, never another exception; over a real connection every bad message is answered by
exactly the ``error`` event the parser (and the documented range checks) call for, in order,
no message ever gets an ``internal`` error, and the session stays open throughout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from engine.tools import ToolFormatError, normalize_tool_choice, normalize_tools
from serve.protocol import CLIENT_EVENTS, ProtocolError, parse_event
from serve.server import VoiceServer
from tests.web.conftest import ServerThread
from tests.web.test_websocket import Client, open_client
from voice.config import AppConfig
from voice.models import Models

CODES = {"bad_json", "bad_event", "unknown_type"}
# The client events as docs/protocol.md describes them, written here independently of the
# pydantic models: name → field → (type or types, required). A parsed event must fit it.
SPEC: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "session.config": {
        "output_sample_rate": (int, False),
        "reply_audio": (bool, False),
        "tools": (list, False),
        "tool_choice": ((str, dict), False),
        "instructions": (str, False),
        "turn_detection": (str, False),
    },
    "text.input": {"text": (str, True)},
    "interrupt": {},
    "playback.done": {"turn": (int, True)},
    "conversation.reset": {},
    "function.output": {"call_id": (str, True), "output": (str, True)},
    "reply.create": {},
    "input_audio.commit": {},
    "input_audio.clear": {},
}
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# JSON values of every kind, nested a little.
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    sorted({f for spec in SPEC.values() for f in spec}) + ["type", "volume", ""]
)
types = st.sampled_from([*SPEC, "dance", "", "text.input ", "Interrupt"]) | st.text(
    max_size=12
)
# Objects shaped like events: a (mostly) known type and (mostly) known fields of any value.
events = st.builds(
    lambda t, fields: {"type": t, **fields},
    types,
    st.dictionaries(field_names, values | st.integers(0, 200_000), max_size=3),
)
texts = (
    st.text(max_size=200)
    | values.map(json.dumps)
    | events.map(json.dumps)
    | events.map(lambda e: json.dumps(e)[:-1])  # truncated
    | st.builds(lambda d: "[" * d + "]" * d, st.integers(1, 5000))  # deeply nested
)


def check_event(text: str) -> str | None:
    """Parse ``text``; the error code, or None for a valid event (whose shape is checked)."""
    try:
        ev = parse_event(text)
    except ProtocolError as e:
        msg = str(e)
        assert e.code in CODES, e.code
        assert msg and "\n" not in msg and len(msg) <= 200, msg
        return e.code
    fields = ev.model_dump(include=ev.model_fields_set)
    spec = SPEC[fields.pop("type")]
    for name, value in fields.items():
        want = spec[name][0]
        assert isinstance(value, want) and not (want is int and isinstance(value, bool))
    assert all(name in fields for name, (_, required) in spec.items() if required)
    if "turn_detection" in fields:
        assert fields["turn_detection"] in ("server", "client")
    return None


def test_the_fuzzers_spec_is_the_protocols() -> None:
    assert set(SPEC) == set(CLIENT_EVENTS)
    for name, model in CLIENT_EVENTS.items():
        assert set(SPEC[name]) == set(model.model_fields) - {"type"}, name


@FUZZ
@given(texts)
@example("[" * 100_000)
@example('{"type": "text.input", "text": "\\ud800"}')
@example('{"type": "playback.done", "turn": true}')
@example('{"type": "playback.done", "turn": 1.0}')
@example('{"type": "session.config", "output_sample_rate": 1e400}')
@example('{"type": "text.input", "text": "a", "text": 5}')
@example('{"type": {"type": "interrupt"}}')
@example("\x00")
@example("NaN")
def test_fuzz_parse_event(text: str) -> None:
    event(f"error: {check_event(text)}")


# --- a live session -------------------------------------------------------------------------
class OpenServer(ServerThread):
    """Audio is not rate limited here: the fuzzer sends frames as fast as it can."""

    def __init__(self, models: Models, cfg: AppConfig) -> None:
        super().__init__(models, cfg)
        self.server = VoiceServer(models, cfg, "127.0.0.1", 0, None, audio_burst_s=3600.0)


@pytest.fixture(scope="module")
def live(tiny_models: Models, tiny_cfg: AppConfig) -> Iterator[tuple[Client, AppConfig]]:
    with OpenServer(tiny_models, tiny_cfg) as s, open_client(s.ws_url) as c:
        yield c, tiny_cfg


def expected_error(message: str | bytes, cfg: AppConfig) -> str | None:
    """The error code docs/protocol.md calls for, or None for a message that is handled."""
    s = cfg.server
    size = len(message) if isinstance(message, bytes) else len(message.encode())
    if size > s.max_message_bytes:
        return "too_large"
    if isinstance(message, bytes):
        if message[:1] == b"{" and message.rstrip()[-1:] == b"}":
            try:
                json.loads(message)
                return "bad_audio"  # an event sent as a binary frame
            except (ValueError, RecursionError):
                pass
        return "bad_audio" if len(message) % 2 else None
    code = check_event(message)
    if code is not None:
        return code
    ev = json.loads(message)
    if ev["type"] == "session.config":
        rate = ev.get("output_sample_rate")
        if rate is not None and not 8000 <= rate <= 192000:
            return "bad_event"
        try:  # the session's own functions (the fuzzer never makes a valid one)
            tools = normalize_tools(ev.get("tools"))
            if ev.get("tool_choice") not in (None, "auto", "none"):
                normalize_tool_choice(ev["tool_choice"], tools)
        except ToolFormatError:
            return "bad_event"
    if ev["type"] == "function.output":  # no call ever waits for its output here
        return "too_large" if len(ev["output"]) > s.max_text_chars else "unknown_call"
    if ev["type"] == "reply.create":  # nor does the conversation ever end with one
        return "bad_event"
    if ev["type"] == "input_audio.commit":  # the server decides turns here
        return "bad_event"
    if ev["type"] == "text.input":
        text = " ".join(ev["text"].split())
        if not text:
            return "bad_event"
        if len(text) > s.max_text_chars:
            return "too_large"
    return None


frames = st.lists(
    texts
    | st.binary(max_size=64)
    | st.builds(lambda e: json.dumps(e).encode(), events)  # an event sent as binary
    | st.just(json.dumps({"type": "text.input", "text": "hello there"})),
    min_size=1,
    max_size=5,
)


@settings(FUZZ, max_examples=120)
@given(frames)
def test_fuzz_session_messages(live: tuple[Client, AppConfig], messages: list) -> None:
    client, cfg = live
    want = [expected_error(m, cfg) for m in messages]
    for w in want:
        event(f"error: {w}")
    resets = sum(
        isinstance(m, str) and w is None and json.loads(m)["type"] == "conversation.reset"
        for m, w in zip(messages, want, strict=True)
    )
    start = len(client.events)
    for m in messages:
        client.ws.send(m)
    client.send("conversation.reset")  # answered after every message above was handled
    seen = 0

    def synced(e: dict) -> bool:
        nonlocal seen
        seen += e["type"] == "conversation.reset"
        return seen == resets + 1

    client.until(synced, timeout=60)
    got = [
        e["code"]
        for e in client.events[start:]
        if e["type"] == "error" and e["code"] != "turn_failed"  # a turn of an earlier example
    ]
    assert "internal" not in got
    assert got == [w for w in want if w is not None]


def test_deep_nesting_is_bad_json_at_any_stack_depth() -> None:
    """The answer to a deeply nested event must not depend on how deep the parser's caller's
    stack is (json.loads fails at the recursion limit, which the caller's stack moves)."""
    from serve.protocol import MAX_JSON_DEPTH, json_depth

    assert json_depth('{"type": "text.input", "text": "[[[[{{{{"}' + "") == 0
    assert json_depth("[" * 40 + "]" * 40) == 40
    assert json_depth('{"a": "' + "[" * 100 + '"}') == 1
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)

    def nested(n: int) -> str | None:  # check_event from n frames further down the stack
        return check_event(deep) if n == 0 else nested(n - 1)

    assert check_event(deep) == nested(500) == "bad_json"
