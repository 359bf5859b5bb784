"""The session protocol's events, typed: one pydantic model per wire event (docs/protocol.md).

Client events form the :data:`ClientEvent` union and server events the :data:`ServerEvent` union,
each discriminated by ``type`` (as Unmute and the OpenAI SDK type the Realtime API's). A
:class:`serve.session.Session` reads only :data:`ClientEvent` values and microphone audio and
writes only :data:`ServerEvent` values and reply audio; the wire formats are encoders of these
same objects, each a direct mapping:

- our own protocol (``/ws`` and the page's WebRTC data channel): :func:`parse_event` turns a
  JSON text frame into a client event, :func:`encode` a server event into one;
- OpenAI's Realtime API (serve/realtime.py): Realtime client events become these client events
  and these server events become Realtime server events, without a JSON round trip between.

``web/protocol.js`` lists the same event names; tests/web/test_protocol.py checks it against
:data:`CLIENT_EVENTS` and :data:`SERVER_EVENTS`, which are read from the unions below.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic_core import PydanticCustomError

PROTOCOL_VERSION = 1
AUDIO_ENCODING = "pcm_s16le"
OUTPUT_RATES = (8000, 192000)  # the reply audio rates a client may ask for, inclusive
MAX_JSON_DEPTH = 32  # events are shallow; a tool schema in session.config nests a few levels


class ProtocolError(Exception):
    """A client message that breaks the protocol; answered with an ``error`` event."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class _Event(BaseModel):
    """A wire event: exactly its fields, of exactly their types (no coercion: ``true`` is not a
    turn number, ``"1"`` is not one either)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- client → server --------------------------------------------------------------------------
class _ClientEvent(_Event):
    """A client's event: an optional field is given a value or left out, never ``null``."""

    @model_validator(mode="before")
    @classmethod
    def _not_null(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name, value in data.items():
                if value is None and name in cls.model_fields:
                    raise PydanticCustomError("null", "{name} is null", {"name": name})
        return data


class SessionConfig(_ClientEvent):
    """Change the session: each field present is applied, absent ones are left as they are."""

    type: Literal["session.config"] = "session.config"
    output_sample_rate: int | None = None  # reply audio rate, 8000..192000
    reply_audio: bool | None = None  # false: text replies only, nothing synthesised
    tools: list | None = None  # the client's functions (chat-completions tools)
    tool_choice: str | dict | None = None
    instructions: str | None = None  # the assistant's system prompt for this session
    turn_detection: Literal["server", "client"] | None = None  # client: input_audio.commit


class TextInput(_ClientEvent):
    type: Literal["text.input"] = "text.input"
    text: str


class Interrupt(_ClientEvent):
    type: Literal["interrupt"] = "interrupt"


class PlaybackDone(_ClientEvent):
    type: Literal["playback.done"] = "playback.done"
    turn: int


class ConversationReset(_ClientEvent):
    type: Literal["conversation.reset"] = "conversation.reset"


class FunctionOutput(_ClientEvent):
    type: Literal["function.output"] = "function.output"
    call_id: str
    output: str


class ReplyCreate(_ClientEvent):
    type: Literal["reply.create"] = "reply.create"


class InputAudioCommit(_ClientEvent):
    """Client-decided turns: the audio since the last commit is the user's turn."""

    type: Literal["input_audio.commit"] = "input_audio.commit"


class InputAudioClear(_ClientEvent):
    type: Literal["input_audio.clear"] = "input_audio.clear"


ClientEvent = Annotated[
    SessionConfig | TextInput | Interrupt | PlaybackDone | ConversationReset | FunctionOutput
    | ReplyCreate | InputAudioCommit | InputAudioClear,
    Field(discriminator="type"),
]


# --- server → client --------------------------------------------------------------------------
class SessionStarted(_Event):
    type: Literal["session.started"] = "session.started"
    session: str
    protocol: int = PROTOCOL_VERSION
    input: dict
    output: dict
    limits: dict


class SpeechStarted(_Event):
    type: Literal["speech.started"] = "speech.started"
    turn: int
    at_ms: float


class SpeechStopped(_Event):
    type: Literal["speech.stopped"] = "speech.stopped"
    turn: int
    at_ms: float
    speech_end_ms: float
    forced: bool


class TranscriptPartial(_Event):
    type: Literal["transcript.partial"] = "transcript.partial"
    turn: int
    text: str


class TranscriptFinal(_Event):
    type: Literal["transcript.final"] = "transcript.final"
    turn: int
    text: str


class ReplyText(_Event):
    """A piece of the reply (``delta``, ``final`` false) or the whole of it (``text``)."""

    type: Literal["reply.text"] = "reply.text"
    turn: int
    final: bool
    delta: str | None = None
    text: str | None = None


class ReplyAudioStart(_Event):
    type: Literal["reply.audio.start"] = "reply.audio.start"
    turn: int
    sample_rate: int
    encoding: str = AUDIO_ENCODING
    channels: int = 1


class ReplyAudioEnd(_Event):
    type: Literal["reply.audio.end"] = "reply.audio.end"
    turn: int
    samples: int


class ReplyAudioStop(_Event):
    type: Literal["reply.audio.stop"] = "reply.audio.stop"
    turn: int


class ReplyInterrupted(_Event):
    type: Literal["reply.interrupted"] = "reply.interrupted"
    turn: int
    spoken: str


class TurnMetrics(_Event):
    type: Literal["turn.metrics"] = "turn.metrics"
    turn: int
    latency_ms: dict
    stats: dict


class ConversationWasReset(_Event):
    type: Literal["conversation.reset"] = "conversation.reset"


class ToolCall(_Event):
    """A built-in tool the assistant ran (calculator, timer, ...)."""

    type: Literal["tool.call"] = "tool.call"
    turn: int
    name: str
    arguments: Any
    result: Any
    ok: bool
    ms: float


class FunctionCall(_Event):
    """A call of one of the client's functions: the client runs it (``function.output``)."""

    type: Literal["function.call"] = "function.call"
    turn: int
    call_id: str
    name: str
    arguments: str


class FunctionOutputAdded(_Event):
    type: Literal["function.output"] = "function.output"
    call_id: str


class ReplyCreated(_Event):
    type: Literal["reply.create"] = "reply.create"
    turn: int


class TimerFired(_Event):
    type: Literal["timer.fired"] = "timer.fired"
    turn: int
    text: str
    label: str | None
    reminder: str | None
    seconds: float


class Error(_Event):
    type: Literal["error"] = "error"
    code: str
    message: str
    turn: int | None = None


ServerEvent = Annotated[
    SessionStarted | SpeechStarted | SpeechStopped | TranscriptPartial | TranscriptFinal
    | ReplyText | ReplyAudioStart | ReplyAudioEnd | ReplyAudioStop | ReplyInterrupted
    | TurnMetrics | ConversationWasReset | ToolCall | FunctionCall | FunctionOutputAdded
    | ReplyCreated | TimerFired | Error,
    Field(discriminator="type"),
]


def _names(union: Any) -> dict[str, type[_Event]]:
    models = get_args(get_args(union)[0])
    return {m.model_fields["type"].default: m for m in models}


CLIENT_EVENTS: dict[str, type[_Event]] = _names(ClientEvent)  # wire name → model
SERVER_EVENTS: dict[str, type[_Event]] = _names(ServerEvent)
_CLIENT = TypeAdapter(ClientEvent)


# --- our wire format: JSON text frames --------------------------------------------------------
def encode(ev: _Event) -> str:
    """A server event as our protocol's JSON text frame: every field, except an optional one
    (``None`` by default) that was left out."""
    d = ev.model_dump()
    given = ev.model_fields_set
    return json.dumps(
        {k: v for k, v in d.items() if v is not None or k in given}, separators=(",", ":")
    )


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings do not count).

    Checked before parsing, so that a deeply nested event gets the same answer whatever stack
    depth the parser runs at (Python's JSON parser fails at its recursion limit, which depends
    on the caller)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_event_json(text: str) -> Any:
    """``json.loads`` for a client's event, with one answer for every input wherever it is
    called: ValueError for bad JSON, an integer of over 4300 digits, or nesting deeper than
    :data:`MAX_JSON_DEPTH` (checked first)."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def parse_event(text: str) -> ClientEvent:
    """One client JSON text frame as its typed event; ProtocolError for anything else."""
    try:
        ev = load_event_json(text)
    except ValueError:
        raise ProtocolError(
            "bad_json", "text frames must be JSON events; audio goes in binary frames"
        ) from None
    if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
        raise ProtocolError("bad_event", 'an event is a JSON object with a string "type"')
    kind = ev["type"]
    if kind not in CLIENT_EVENTS:
        raise ProtocolError("unknown_type", f"unknown event type {kind[:64]!r}")
    try:
        return _CLIENT.validate_python(ev)
    except ValidationError as e:
        raise ProtocolError("bad_event", _first_problem(kind, e)) from None


def _first_problem(kind: str, e: ValidationError) -> str:
    """One line for the first thing wrong with a ``kind`` event."""
    err = e.errors(include_url=False)[0]
    loc = [str(p) for p in err["loc"][1:]]  # [0] is the union's tag
    name = loc[0] if loc else err.get("ctx", {}).get("name", "")
    if err["type"] == "extra_forbidden":
        return f"{kind}: unknown field {name[:64]!r}"
    if err["type"] == "missing":
        return f"{kind}: missing field {name!r}"
    model = CLIENT_EVENTS[kind]
    want = _type_names(model.model_fields[name].annotation) if name in model.model_fields else ""
    return f"{kind}: {name} must be {want}" if want else f"{kind}: {err['msg'][:120]}"


def _type_names(annotation: Any) -> str:
    """``int | None`` → "int"; ``str | dict | None`` → "str or dict"; a Literal → its values."""
    args = get_args(annotation) or (annotation,)
    if getattr(annotation, "__origin__", None) is Literal:
        return " or ".join(repr(a) for a in args)
    names = []
    for a in args:
        if a is type(None):
            continue
        if getattr(a, "__origin__", None) is Literal:
            names += [repr(v) for v in get_args(a)]
        else:
            names.append(getattr(a, "__name__", str(a)))
    return " or ".join(names)
