"""The JSON-reply dialogs: compact JSON that fits one reply block, after the engine's hint."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from training.skills_json import (
    RESERVED_KEYS,
    JsonSampler,
    compact,
    json_dialogs,
    json_heldout,
    json_hint,
    with_hint,
)
from training.tokenizer import render_chat

DEMO = Path(__file__).resolve().parents[2] / "models" / "demo" / "tokenizer.json"
HINT = re.compile(r"Reply in JSON( with the keys: [a-z_]+(, [a-z_]+)*)?\.$")


@pytest.fixture(scope="module")
def tok():
    return Tokenizer.from_file(str(DEMO))


@pytest.fixture(scope="module")
def rows(tok):
    return json_dialogs(3, 3000, tok)


def _keys(obj: dict) -> list[str]:
    """Every key of a reply object, nested ones included."""
    out = []
    for k, v in obj.items():
        out.append(k)
        if isinstance(v, dict):
            out += _keys(v)
    return out


def test_hint_text_is_the_engines():
    assert json_hint(["city", "population"]) == "Reply in JSON with the keys: city, population."
    assert json_hint(None) == json_hint([]) == "Reply in JSON."
    user = [("user", "hi")]
    assert with_hint(user, ["city"]) == [("system", "Reply in JSON with the keys: city."), *user]
    sys_first = [("system", "Be brief."), *user]
    assert with_hint(sys_first, None) == [("system", "Be brief.\n\nReply in JSON."), *user]
    assert compact({"city": "Zürich", "n": [1, 2]}) == '{"city":"Zürich","n":[1,2]}'


def test_replies_are_compact_json_in_hint_order_and_fit_the_block(rows, tok):
    for d in rows:
        obj = json.loads(d.reply)
        assert isinstance(obj, dict) and obj
        assert d.reply == compact(obj)
        assert len(tok.encode(d.reply).ids) + 1 <= 32
        system = d.messages[0]
        assert system[0] == "system"
        hint = system[1].split("\n\n")[-1]
        assert HINT.match(hint), hint
        if "keys:" in hint:
            assert hint.removeprefix("Reply in JSON with the keys: ")[:-1].split(", ") == list(obj)
        else:
            assert list(obj) == ["answer"]
        # the prompt is rendered with the real chat template, hint included
        assert render_chat(d.prompt, True).startswith(f"<|system|>{system[1]}<|user|>")


def test_values_are_bare_facts(rows):
    by_skill = {}
    for d in rows:
        obj = json.loads(d.reply)
        by_skill.setdefault(d.skill, []).append(obj)
    assert {"json_capital", "json_add", "json_spell", "json_list_first",
            "json_capital_check", "json_identity"} <= set(by_skill)  # fmt: skip
    flat = [v for objs in by_skill["json_add"] for v in objs.values() if not isinstance(v, dict)]
    assert all(isinstance(v, int) for v in flat)
    assert all(isinstance(next(iter(o.values())), bool) or "result" in o or "data" in o
               or "response" in o for o in by_skill["json_capital_check"])  # fmt: skip
    assert {"name": "diffvoice"} in by_skill["json_identity"]
    capitals = [o for o in by_skill["json_capital"] if "country" in o and "capital" in o]
    assert capitals and all(" " not in o["country"] or o["country"][0].isupper() for o in capitals)
    assert any(isinstance(v, list) for o in by_skill["json_list_first"] for v in o.values())


def test_reserved_keys_never_train(rows):
    for d in json_dialogs(5, 3000):
        assert not set(_keys(json.loads(d.reply))) & set(RESERVED_KEYS)
        assert not any(k in d.messages[0][1] for k in RESERVED_KEYS)
    held = json_heldout(0, 300)
    assert any(set(_keys(json.loads(d.reply))) & set(RESERVED_KEYS) for d in held)


def test_heldout_wordings_never_train():
    s = JsonSampler(0, __import__("random").Random(0), held=False)
    train = json_dialogs(0, 4000)
    for d in train:
        skill = next(x for x in s.skills if x.name.removeprefix("json_") == d.skill[5:])
        assert d.template not in s.heldout.templates[skill.name]
    held = json_heldout(0, 400)
    assert held and all(d.split == "json" for d in held)
    for d in held:
        skill = next(x for x in s.skills if x.name.removeprefix("json_") == d.skill[5:])
        assert d.template in s.heldout.templates[skill.name]
    train_prompts = {d.messages[:-1] for d in train}
    assert sum(d.messages[:-1] in train_prompts for d in held) == 0
