"""``--set key=value``: one parser for the application's config and the training config."""

from __future__ import annotations

import pytest

from engine.config import parse_overrides
from engine.errors import ConfigError, UserError


def test_values_are_toml_else_plain_strings_and_a_later_item_wins() -> None:
    got = parse_overrides(
        ["sampling.threshold=0.8", " vad.end_ms = 700 ", "engine.model=/models/x y",
         'assistant.system_prompt="Be brief."', "server.allowed_origins=['a', 'b']",
         "assistant.tools=false", "steps=3", "steps=7", "empty="]
    )  # fmt: skip
    assert got == {
        "sampling.threshold": 0.8,
        "vad.end_ms": 700,
        "engine.model": "/models/x y",
        "assistant.system_prompt": "Be brief.",
        "server.allowed_origins": ["a", "b"],
        "assistant.tools": False,
        "steps": 7,
        "empty": "",
    }


@pytest.mark.parametrize("item", ["novalue", "=1", "  = 1", "a..b=1", ".a=1", "a.=1"])
def test_an_item_without_a_key_is_one_line_naming_it(item: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_overrides(["ok=1", item])
    assert str(e.value) == f"--set needs key=value, got {item!r}"
    assert isinstance(e.value, UserError) and isinstance(e.value, ValueError)
