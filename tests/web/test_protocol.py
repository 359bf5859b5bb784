"""The typed protocol (serve/protocol.py), web/protocol.js and the document agree, and client
events are validated strictly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from serve import protocol as p
from serve.protocol import (
    CLIENT_EVENTS,
    PROTOCOL_VERSION,
    SERVER_EVENTS,
    ProtocolError,
    encode,
    parse_event,
)

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_JS = (ROOT / "web" / "protocol.js").read_text()
DOC = (ROOT / "docs" / "protocol.md").read_text()


def js_names(const: str) -> list[str]:
    """String values of ``export const NAME = Object.freeze({...})`` in protocol.js."""
    m = re.search(rf"export const {const} = Object\.freeze\(\{{(.*?)\}}\);", PROTOCOL_JS, re.S)
    assert m, f"{const} not found in web/protocol.js"
    return re.findall(r':\s*"([^"]+)"', m.group(1))


def test_client_event_names_agree() -> None:
    names = js_names("CLIENT")
    assert len(names) == len(set(names))
    assert set(names) == set(CLIENT_EVENTS)


def test_server_event_names_agree() -> None:
    names = js_names("SERVER")
    assert len(names) == len(set(names))
    assert set(names) == set(SERVER_EVENTS)


def test_version_and_formats_agree() -> None:
    assert f"PROTOCOL_VERSION = {PROTOCOL_VERSION};" in PROTOCOL_JS
    assert 'INPUT_SAMPLE_RATE = 16000;' in PROTOCOL_JS
    assert 'AUDIO_ENCODING = "pcm_s16le";' in PROTOCOL_JS


def test_document_describes_every_event() -> None:
    for name in (*CLIENT_EVENTS, *SERVER_EVENTS):
        assert f"`{name}`" in DOC, f"docs/protocol.md does not describe {name}"


@pytest.mark.parametrize(
    "text, code",
    [
        ("not json", "bad_json"),
        ("", "bad_json"),
        ("[1, 2]", "bad_event"),
        ('"session.config"', "bad_event"),
        ('{"kind": "interrupt"}', "bad_event"),
        ('{"type": 5}', "bad_event"),
        ('{"type": "no.such.event"}', "unknown_type"),
        ('{"type": "text.input"}', "bad_event"),
        ('{"type": "text.input", "text": 5}', "bad_event"),
        ('{"type": "playback.done", "turn": true}', "bad_event"),
        ('{"type": "playback.done", "turn": "1"}', "bad_event"),
        ('{"type": "interrupt", "now": true}', "bad_event"),
        ('{"type": "session.config", "tool_choice": 1}', "bad_event"),
        ('{"type": "session.config", "reply_audio": 0}', "bad_event"),
        ('{"type": "function.output", "call_id": "c"}', "bad_event"),
        ('{"type": "session.config", "tools": null}', "bad_event"),  # absent, or a list
        ('{"type": "session.config", "turn_detection": "server_vad"}', "bad_event"),
        ('{"type": "session.config", "instructions": 5}', "bad_event"),
        ("[" * 100_000, "bad_json"),
    ],
    ids=lambda v: v[:24] if isinstance(v, str) else v,
)
def test_bad_events_are_rejected(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_event(text)
    assert e.value.code == code


def test_good_events_pass() -> None:
    assert parse_event('{"type": "interrupt"}') == p.Interrupt()
    assert parse_event('{"type": "session.config", "output_sample_rate": 44100}')
    assert parse_event('{"type": "playback.done", "turn": 3}').turn == 3
    assert parse_event('{"type": "text.input", "text": "hi"}').text == "hi"
    assert parse_event('{"type": "input_audio.commit"}') == p.InputAudioCommit()
    ev = parse_event('{"type": "session.config", "turn_detection": "client", "instructions": ""}')
    assert (ev.turn_detection, ev.instructions, ev.model_fields_set) == (
        "client", "", {"type", "turn_detection", "instructions"})
    assert parse_event('{"type": "session.config", "tool_choice": {"type": "function"}}')
    assert parse_event('{"type": "session.config", "tools": [], "reply_audio": false}')
    assert parse_event('{"type": "function.output", "call_id": "c", "output": ""}')
    with pytest.raises(ProtocolError, match="tool_choice must be str or dict"):
        parse_event('{"type": "session.config", "tool_choice": 1}')


def test_every_event_is_one_model_and_encodes_as_given() -> None:
    """One model per wire event, its ``type`` the discriminator; an event encodes to exactly
    its fields (an optional one left out stays out)."""
    for name, model in {**CLIENT_EVENTS, **SERVER_EVENTS}.items():
        assert model.model_fields["type"].default == name
    assert encode(p.Error(code="x", message="m")) == '{"type":"error","code":"x","message":"m"}'
    assert encode(p.ReplyText(turn=2, final=False, delta="Hi")) == \
        '{"type":"reply.text","turn":2,"final":false,"delta":"Hi"}'
    assert json.loads(encode(p.ReplyAudioStart(turn=1, sample_rate=22050))) == {
        "type": "reply.audio.start", "turn": 1, "sample_rate": 22050, "encoding": "pcm_s16le",
        "channels": 1,
    }
    fired = p.TimerFired(turn=3, text="Done.", label=None, reminder=None, seconds=60.0)
    assert json.loads(encode(fired))["label"] is None  # given as null: sent as null
    with pytest.raises(ValidationError):
        p.SpeechStarted(turn="1", at_ms=0.0)  # no coercion on the way out either
