"""``Sequence.plan`` per family and mode, without a model: what each pass feeds, which keys each
query sees, which positions may commit and by which rule."""

from __future__ import annotations

import pytest
import torch

from engine.algorithms import REGISTRY, Algorithm, algorithm_for
from engine.model import FAMILIES, ModelConfig
from engine.sampling import MODES, SamplingParams
from engine.sequence import Sequence, StepPlan, positions_needed

MASK = 99


def cfg(family: str, **kw) -> ModelConfig:
    base = dict(
        family=family, vocab_size=100, hidden_size=8, intermediate_size=8, num_layers=1,
        num_heads=2, num_kv_heads=2, mask_token_id=MASK, eos_token_ids=[1],
    )
    if family in ("sdar", "fast_dllm_v2"):
        base["block_size"] = 4
    base.update(kw)
    return ModelConfig(**base)


def seq(family: str, prompt_len: int = 6, **params) -> Sequence:
    params.setdefault("block_size", 4)
    return Sequence("r", list(range(10, 10 + prompt_len)), SamplingParams(**params), cfg(family),
                    [1])  # fmt: skip


def step(s: Sequence, plan: StepPlan, commit: list[int]) -> None:
    """As the engine does after a forward pass: commit these window positions."""
    s.after_forward(plan)
    s.commit(commit, [50 + p for p in commit])


# --- layout: no end-of-text pre-fill --------------------------------------------------------------
@pytest.mark.parametrize("family", ["llada", "dream", "sdar", "fast_dllm_v2"])
def test_positions_past_the_reply_are_masked_and_decoded(family):
    s = seq(family, prompt_len=6, mode="cache", max_new_tokens=5)
    assert s.reply_limit == 11 and s.total == positions_needed(s.cfg, s.params, 6)
    assert s.tokens[6:] == [MASK] * (s.total - 6) and all(s.masked[6:])
    assert s.total > s.reply_limit  # the last block reaches past max_new_tokens
    assert s.pending == 5


def test_reply_ends_when_every_position_before_the_limit_is_committed():
    s = seq("llada", prompt_len=6, mode="reference", max_new_tokens=5)  # blocks [6,10) [10,14)
    s.after_forward(s.plan())
    s.commit([6, 7, 8, 9], [20, 21, 22, 23])
    s.check_finished(lambda ids: "")
    assert s.finished is None and s.cur == 1
    s.after_forward(s.plan())
    s.commit([13], [24])  # past the limit: the reply is not done
    s.check_finished(lambda ids: "")
    assert s.finished is None and s.masked[10]
    s.after_forward(s.plan())
    s.commit([10], [25])
    s.check_finished(lambda ids: "")
    assert s.finished == "length" and s.reply_ids() == [20, 21, 22, 23, 25]
    assert s.masked[11] and s.masked[12]  # never needed


# --- bidirectional: LLaDA -----------------------------------------------------------------------
def test_llada_reference_is_full_recompute_top_n():
    s = seq("llada", prompt_len=6, mode="reference", max_new_tokens=8, tokens_per_step=2)
    p = s.plan()
    assert (p.q_start, p.q_end, p.block) == (0, 14, (6, 10))
    assert p.kv_limit == [14] * 14 and p.eligible == [True] * 4
    assert p.num_commit == 2 and not p.entropy
    assert s.plan() == p  # planning is pure


def test_llada_prefix_cache_feeds_block_and_whole_suffix():
    s = seq("llada", prompt_len=6, mode="cache", max_new_tokens=12)  # blocks [6,10) ... [14,18)
    first = s.plan()
    assert (first.q_start, first.q_end, first.num_commit) == (0, 18, 0)
    step(s, first, [6])
    p = s.plan()
    assert (p.q_start, p.q_end, p.block) == (6, 18, (6, 10))
    assert p.kv_limit == [18] * 12  # the block and the suffix attend to everything
    assert p.eligible == [False, True, True, True] and p.num_commit == 0
    step(s, p, [7, 8, 9])
    assert s.cur == 1 and s.plan().q_start == 0  # a new block starts with a full pass


def test_llada_dual_cache_feeds_only_the_block():
    s = seq("llada", prompt_len=6, mode="dual_cache", max_new_tokens=12)
    step(s, s.plan(), [6])
    p = s.plan()
    assert (p.q_start, p.q_end) == (6, 10) and p.kv_limit == [18] * 4


# --- bidirectional: Dream -----------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["cache", "dual_cache"])
def test_dream_block_pass_commits_only_its_first_position(mode):
    s = seq("dream", prompt_len=6, mode=mode, max_new_tokens=8)
    p = s.plan()
    assert (p.q_start, p.q_end) == (0, 14)
    assert p.eligible == [True, False, False, False] and p.num_commit == 1
    step(s, p, [6])
    p = s.plan()
    # No re-fed position before the block: its K/V stay those of the full pass.
    assert p.q_start == 6 and p.q_end == (14 if mode == "cache" else 10)
    assert p.eligible == [False, True, True, True] and p.num_commit == 0


def dream_counts(steps: int, length: int, eps: float = 1e-3) -> list[int]:
    """Dream's own schedule, step by step, committing exactly what it says."""
    ts = torch.linspace(1, eps, steps + 1)
    masked, out = length, []
    for i in range(steps):
        nm = torch.tensor(masked) / 1
        n = int(nm * (1 - ts[i + 1] / ts[i])) if i < steps - 1 else int(nm)
        out.append(n)
        masked -= n
    return out


@pytest.mark.parametrize("length,per_step", [(8, 1), (13, 1), (12, 3), (5, 2)])
def test_dream_reference_follows_its_schedule_and_skips_empty_steps(length, per_step):
    s = seq("dream", prompt_len=6, mode="reference", max_new_tokens=length,
            tokens_per_step=per_step)  # fmt: skip
    want = [n for n in dream_counts(-(-length // per_step), length) if n > 0]
    got = []
    while s.pending:
        p = s.plan()
        assert p.block == (6, 6 + length) and p.entropy and (p.q_start, p.q_end) == (0, 6 + length)
        got.append(p.num_commit)
        todo = [i for i in range(6, 6 + length) if s.masked[i]][: p.num_commit]
        step(s, p, todo)
    assert got == want and sum(got) == length


# --- block-causal -------------------------------------------------------------------------------
def test_sdar_absolute_blocks_and_exact_block_cache():
    s = seq("sdar", prompt_len=6, mode="cache", max_new_tokens=5)  # blocks [4,8) [8,12)
    p = s.plan()
    assert (p.q_start, p.q_end, p.block) == (0, 8, (4, 8))
    assert p.kv_limit == [4, 4, 4, 4, 8, 8, 8, 8]  # block-causal
    assert p.eligible == [False, False, True, True]
    step(s, p, [6])
    p = s.plan()
    assert (p.q_start, p.q_end) == (4, 8)  # finished blocks come from the cache
    step(s, p, [7])
    p = s.plan()
    # The finished block is fed once more with its final tokens, with the next block.
    assert (p.q_start, p.q_end, p.block) == (4, 12, (8, 12)) and p.kv_limit == [8] * 4 + [12] * 4


def test_sdar_reference_is_static_one_per_step():
    p = seq("sdar", prompt_len=6, mode="reference", max_new_tokens=5).plan()
    assert (p.q_start, p.num_commit) == (0, 1)


def test_fast_dllm_v2_first_token_then_sub_blocks():
    # Prompt of 8 = two whole blocks of 4: position 8 comes from position 7's argmax alone.
    s = seq("fast_dllm_v2", prompt_len=8, mode="cache", max_new_tokens=8, small_block_size=2)
    p = s.plan()
    assert p.block == (8, 12) and p.eligible == [True, False, False, False]
    assert p.num_commit == 1
    step(s, p, [8])
    p = s.plan()
    assert p.eligible == [False, True, False, False] and p.num_commit == 0  # sub-block [8,10)
    step(s, p, [9])
    p = s.plan()
    assert p.eligible == [False, False, True, True]  # sub-block [10,12)
    step(s, p, [10, 11])
    p = s.plan()
    assert p.block == (12, 16) and p.eligible == [True, False, False, False]


def test_fast_dllm_v2_prompt_tail_block_starts_with_sub_blocks():
    s = seq("fast_dllm_v2", prompt_len=6, mode="cache", max_new_tokens=8, small_block_size=2)
    p = s.plan()
    assert p.block == (4, 8) and p.eligible == [False, False, True, True]
    assert p.num_commit == 0


def test_fast_dllm_v2_parallel_has_no_sub_blocks():
    p = seq("fast_dllm_v2", prompt_len=8, mode="parallel", max_new_tokens=8).plan()
    assert p.eligible == [True] * 4 and p.num_commit == 0


# --- the algorithm registry ---------------------------------------------------------------------
def test_every_family_and_mode_has_an_algorithm():
    for family in FAMILIES:
        for mode in MODES:
            assert isinstance(algorithm_for(family, mode), Algorithm), (family, mode)


def test_a_registered_algorithm_is_what_the_sequence_plans_with(monkeypatch):
    class TwoAtATime(Algorithm):
        def rule(self, seq, plan):
            plan.num_commit = 2

    monkeypatch.setitem(REGISTRY, ("llada", "parallel"), TwoAtATime())
    s = seq("llada", mode="parallel", max_new_tokens=8)
    p = s.plan()
    assert p.num_commit == 2 and p.eligible == [True] * 4 and (p.q_start, p.q_end) == (0, s.total)
    assert seq("dream", mode="parallel").plan().num_commit == 0  # other families keep theirs
