"""The tool corpus: calls copy the question, results read as the real tools write them."""

from __future__ import annotations

import json
import random

from training.skills_tools import ToolSampler, choose_tool_heldout, json_call
from voice.tools import Toolbox


def _exchanges(n: int, seed: int = 3):
    s = ToolSampler(random.Random(seed), False, choose_tool_heldout(random.Random(seed)))
    return [s.exchange() for _ in range(n)]


def test_calls_parse_and_copy_their_values_from_the_question():
    for _skill, ex, _history in _exchanges(400):
        (call,) = json_call(ex.call)
        assert call["name"] in ("clock", "timer", "calculator", "units", "spell")
        q = ex.question.lower()
        for key, value in call["arguments"].items():
            if key in ("what", "action"):
                continue
            assert value.startswith(" ")  # copied words keep their question tokens
            assert value.strip().lower() in q or key in ("from", "to", "value"), (q, value)


def test_corpus_results_are_what_the_real_tools_say():
    """For requests that need no state (no earlier result, no timers), the corpus's tool
    result is exactly what voice.tools answers to the same call."""
    checked, wrong = 0, []
    for skill, ex, history in _exchanges(600):
        if history or skill not in ("tool_calculator", "tool_units", "tool_spell"):
            continue
        (call,) = json_call(ex.call)
        box = Toolbox()
        run = box.run(call["name"], json.dumps(call["arguments"]))
        if run.result != ex.result:
            wrong.append((ex.question, run.result, ex.result))
        checked += 1
    assert checked > 200
    assert wrong == []
