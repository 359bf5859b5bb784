"""Decoding parity with each family's published decoder.

``golden/<family>.json`` holds the tokens that the official decoders produced (greedy) on the
tiny checkpoints of :mod:`tests.engine.parity`, run in a scratch environment with the upstream
code; each file names the upstream files and commits. Here the engine decodes the same prompts
in the matching mode and must produce the same tokens — every reply position, including lengths
that are not a multiple of the block and prompts that end mid-block.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from engine.checkpoint import config_from_hf
from engine.config import EngineConfig
from engine.engine import Engine
from engine.model import DiffusionLM
from engine.sampling import SamplingParams
from tests.engine.parity import FAMILIES, HF_CONFIGS, case_key, prompts, state_dict

GOLDEN = Path(__file__).parent / "golden"


class _Ids:
    """Tokenizer stand-in: the parity cases feed and compare token ids only."""

    def __init__(self, eos: list[int]) -> None:
        self.eos_token_ids = eos

    def decode(self, ids: list[int]) -> str:
        return " ".join(map(str, ids))


def golden(family: str) -> dict:
    path = GOLDEN / f"{family}.json"
    return json.loads(path.read_text()) if path.exists() else {"cases": []}


@pytest.fixture(scope="module")
def engines() -> dict[str, Engine]:
    """One engine per family, built lazily from the deterministic recipe."""
    cache: dict[str, Engine] = {}

    class Lazy(dict):
        def __missing__(self, family: str) -> Engine:
            cfg = config_from_hf(HF_CONFIGS[family])
            with torch.device("meta"):
                model = DiffusionLM(cfg)
            model.load_state_dict(state_dict(family), strict=False, assign=True)
            if cfg.tie_word_embeddings:
                model.lm_head.weight = model.model.embed_tokens.weight
            model.eval().requires_grad_(False)
            config = EngineConfig(model=f"parity:{family}", device="cpu", max_batch_size=8,
                                  max_model_len=256)  # fmt: skip
            eng = Engine(model, _Ids(cfg.eos_token_ids), config, torch.device("cpu"))
            self[family] = eng
            return eng

    return Lazy(cache)  # on one thread: tests/engine/conftest.py


def params_for(case: dict) -> SamplingParams:
    kw = {k: v for k, v in case.items() if k not in ("prompt", "tokens", "key")}
    return SamplingParams(**kw, tokens_per_step=1, early_stop=False)


def decode(engine: Engine, family: str, cases: list[dict]) -> list[list[int]]:
    """Decode ``cases`` together (one batch); every reply position of each, as token ids."""
    seqs = []
    for case in cases:
        engine.add_request(prompt_ids=prompts(family)[case["prompt"]], params=params_for(case))
        seqs.append(engine.waiting[-1])
    while engine.has_work():
        for r in engine.step().finished:
            assert r.error is None, r.error
    return [s.tokens[s.prompt_len : s.reply_limit] for s in seqs]


ALL = [(f, c) for f in FAMILIES for c in golden(f)["cases"]]


@pytest.mark.parametrize("family,case", ALL, ids=[f"{f}-{c['key']}" for f, c in ALL])
def test_tokens_equal_the_published_decoder(engines, family, case):
    (got,) = decode(engines[family], family, [case])
    assert case["key"] == case_key(case)
    pairs = zip(got, case["tokens"], strict=False)
    first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    assert got == case["tokens"], f"first difference at reply position {first}"


@pytest.mark.parametrize("family", [f for f in FAMILIES if golden(f)["cases"]])
def test_parity_holds_in_a_batch(engines, family):
    """All of a family's cases decoded at once, modes mixed: still the published tokens."""
    cases = golden(family)["cases"][:8]
    got = decode(engines[family], family, cases)
    assert got == [c["tokens"] for c in cases]


def test_every_family_has_golden_data():
    missing = [f for f in FAMILIES if not golden(f)["cases"]]
    assert not missing, f"no golden tokens for {missing}"
    for f in FAMILIES:
        g = golden(f)
        assert g["upstream"], f"{f}: the golden file must name the upstream code it came from"
