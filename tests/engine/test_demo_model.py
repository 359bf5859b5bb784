"""The bundled demo model: it ships, loads through the normal loader and answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import DEMO_MODEL, LLM, SamplingParams
from training.scoring import contains_answer

QUESTIONS = [
    # spoken-style: lowercase, no punctuation, digits, as speech recognition writes them
    ("what is the capital of france", ["Paris"]),
    ("what is the capital of japan", ["Tokyo"]),
    ("spell the word cat", ["C, A, T"]),
]


@pytest.fixture(scope="module")
def demo() -> LLM:
    return LLM.load(DEMO_MODEL)


def test_demo_model_ships_in_the_hf_layout_and_is_small() -> None:
    folder = Path(DEMO_MODEL)
    for name in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"):
        assert (folder / name).is_file(), name
    assert (folder / "model.safetensors").stat().st_size <= 30 * 2**20
    assert "chat_template" in (folder / "tokenizer_config.json").read_text()


@pytest.mark.parametrize("mode", ["cache"])
def test_demo_model_answers_spoken_questions(demo: LLM, mode: str) -> None:
    params = SamplingParams(mode=mode, max_new_tokens=48)
    results = demo.generate([[{"role": "user", "content": q}] for q, _ in QUESTIONS], params)
    for (q, answers), r in zip(QUESTIONS, results, strict=True):
        assert contains_answer(r.text, answers), (q, r.text)
        assert r.finish_reason == "stop"
    if mode == "cache":
        # Parallel decoding: several tokens committed per forward pass.
        assert sum(r.num_tokens for r in results) / sum(r.nfe for r in results) >= 2
