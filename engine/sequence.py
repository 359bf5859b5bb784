"""One request's decoding state: its tokens, blocks, cache progress and statistics.

Plain Python bookkeeping (no forward passes), so the scheduling logic is testable on its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.algorithms import StepPlan, algorithm_for
from engine.model import ModelConfig
from engine.sampling import SamplingParams

__all__ = ["GenerationResult", "Sequence", "StepPlan", "TextDelta", "layout", "positions_needed"]


def layout(cfg: ModelConfig, params: SamplingParams, prompt_len: int) -> tuple[int, int, int]:
    """(block size, first block start, number of blocks) of a request.

    Block-causal models use their own block size, counted from position 0 (``absolute``) or from
    the end of the prompt; bidirectional models use ``params.block_size`` from the end of the
    prompt, except Dream's reference sampler, which treats the whole reply as one block.
    """
    P, n = prompt_len, params.max_new_tokens
    if cfg.block_causal:
        bs = cfg.block_size
        first = (P // bs) * bs if cfg.block_align == "absolute" else P
    elif cfg.family == "dream" and params.mode == "reference":
        bs, first = n, P
    else:
        bs, first = params.block_size, P
    return bs, first, -(-(P + n - first) // bs)


def positions_needed(cfg: ModelConfig, params: SamplingParams, prompt_len: int) -> int:
    """Cache positions a request occupies: the prompt and every block its reply touches."""
    bs, first, n_blocks = layout(cfg, params, prompt_len)
    return first + n_blocks * bs


@dataclass
class GenerationResult:
    """The outcome of one request, with its decoding statistics."""

    request_id: str
    text: str
    token_ids: list[int]
    finish_reason: str  # "stop" | "length" | "abort" | "error"
    nfe: int  # forward passes this request took part in
    num_tokens: int  # reply tokens (end-of-text and padding excluded)
    prompt_tokens: int
    time_to_first_text_s: float | None
    total_s: float
    truncated_turns: int = 0  # oldest conversation turns dropped to fit the context
    error: str | None = None

    @property
    def tokens_per_forward(self) -> float:
        return self.num_tokens / self.nfe if self.nfe else 0.0


@dataclass
class TextDelta:
    """Newly committed reply text of a streaming request."""

    request_id: str
    text: str


@dataclass
class Sequence:
    """One request: host-side token list, block progress and commit rules (no tensors).

    Positions past ``max_new_tokens`` that share a block with the reply are left masked and
    decoded like the rest, as every family's published decoder does; the reply is cut at
    ``max_new_tokens`` and the request ends as soon as every position before it is committed.
    """

    request_id: str
    prompt_ids: list[int]
    params: SamplingParams
    cfg: ModelConfig
    eos_ids: list[int]
    truncated_turns: int = 0
    stream: bool = False
    slot: int = -1
    nfe: int = 0
    cache_len: int = 0  # block-causal: positions [0, cache_len) hold final K/V in the cache
    refreshed: bool = False  # bidirectional cache modes: the block's full pass has run
    steps_in_block: int = 0
    ref_step: int = 0  # Dream reference: next step of its schedule
    emitted: str = ""
    t_start: float = field(default_factory=time.perf_counter)
    t_first_text: float | None = None
    finished: str | None = None
    constraint: object | None = None  # engine.grammar.Constraint: reply committed left to right
    constraint_len: int = 0  # reply tokens the constraint has consumed (and committed)

    def __post_init__(self) -> None:
        p, P = self.params, len(self.prompt_ids)
        self.bs, self.first, self.n_blocks = layout(self.cfg, p, P)
        self.total = self.first + self.n_blocks * self.bs
        self.reply_limit = P + p.max_new_tokens  # the reply is cut here
        self.cur = 0  # current block index
        mask = self.cfg.mask_token_id
        self.tokens: list[int] = list(self.prompt_ids) + [mask] * (self.total - P)
        self.masked: list[bool] = [False] * P + [True] * (self.total - P)
        self.pending = p.max_new_tokens  # masked positions before reply_limit
        self.algorithm = algorithm_for(self.cfg.family, p.mode)

    # --- layout -----------------------------------------------------------------------------
    @property
    def prompt_len(self) -> int:
        return len(self.prompt_ids)

    def block_bounds(self, i: int | None = None) -> tuple[int, int]:
        i = self.cur if i is None else i
        s = self.first + i * self.bs
        return s, s + self.bs

    def block_end(self, pos: int) -> int:
        """Block-causal: keys visible to position ``pos`` end here."""
        if pos >= self.first:
            return self.first + ((pos - self.first) // self.bs + 1) * self.bs
        if self.cfg.block_align == "prompt":
            return self.first
        return (pos // self.bs + 1) * self.bs

    # --- planning ---------------------------------------------------------------------------
    def plan(self) -> StepPlan:
        """The next forward pass of this sequence (its algorithm's plan, engine/algorithms/).
        Pure: calling it twice gives the same plan.

        A grammar-constrained reply commits left to right from its frontier (engine/
        constrained.py), so only the frontier is eligible for the sampler's batched pick.
        """
        plan = self.algorithm.plan(self)
        if self.constraint is not None:
            s, e = plan.block
            f = self.prompt_len + self.constraint_len
            plan.eligible = [i == f for i in range(s, e)]
        return plan

    def after_forward(self, plan: StepPlan) -> None:
        self.nfe += 1
        if self.cfg.block_causal:
            self.cache_len = max(self.cache_len, plan.block[0])
        elif self.params.mode in ("cache", "dual_cache"):
            self.refreshed = True
        if plan.ref_step >= 0:
            self.ref_step = plan.ref_step + 1

    # --- committing -------------------------------------------------------------------------
    def masked_in_block(self) -> list[bool]:
        s, e = self.block_bounds()
        return self.masked[s:e]

    def commit(self, positions: list[int], token_ids: list[int]) -> None:
        for pos, tok in zip(positions, token_ids, strict=True):
            if self.masked[pos]:
                self.masked[pos] = False
                self.pending -= pos < self.reply_limit
            self.tokens[pos] = tok
        self.steps_in_block += 1
        s, e = self.block_bounds()
        while self.cur < self.n_blocks and not any(self.masked[s:e]):
            self.cur += 1
            self.refreshed = False
            self.steps_in_block = 0
            s, e = self.block_bounds()

    def reply_end(self) -> tuple[int, bool]:
        """(end of the contiguous committed reply, whether the model ended it with end-of-text)."""
        eos = set(self.eos_ids)
        for i in range(self.prompt_len, self.reply_limit):
            if self.masked[i]:
                return i, False
            if self.tokens[i] in eos:
                return i, True
        return self.reply_limit, False

    def reply_ids(self, end: int | None = None) -> list[int]:
        end = self.reply_end()[0] if end is None else end
        return self.tokens[self.prompt_len : end]

    def check_finished(self, decode) -> None:
        """Sets ``finished`` when the reply is complete; ``decode`` turns ids into text."""
        end, at_eos = self.reply_end()
        if self.t_first_text is None and end > self.prompt_len:
            self.t_first_text = time.perf_counter()
        if (self.params.early_stop and at_eos) or self.pending == 0:
            # A grammar that closed on the budget's last token ended the reply, not the budget.
            closed = self.constraint is not None and self.constraint.complete
            self.finished = "stop" if at_eos or closed else "length"
        if self.params.stop and end > self.prompt_len:
            text = decode(self.reply_ids(end))
            if any(s in text for s in self.params.stop):
                self.finished = "stop"
    def text(self, decode) -> str:
        """The committed reply text so far: cut at the earliest stop string, leading space off."""
        text = decode(self.reply_ids())
        cuts = [text.index(s) for s in self.params.stop if s in text]
        if cuts:
            text = text[: min(cuts)]
        return text.lstrip()

    def result(
        self, decode, reason: str | None = None, error: str | None = None
    ) -> GenerationResult:
        end, _ = self.reply_end()
        ids = self.reply_ids(end)
        now = time.perf_counter()
        ttft = None if self.t_first_text is None else self.t_first_text - self.t_start
        return GenerationResult(
            request_id=self.request_id,
            text=self.text(decode).rstrip(),
            token_ids=ids,
            finish_reason=reason or self.finished or "length",
            nfe=self.nfe,
            num_tokens=len(ids),
            prompt_tokens=self.prompt_len,
            time_to_first_text_s=ttft,
            total_s=now - self.t_start,
            truncated_turns=self.truncated_turns,
            error=error,
        )

    def new_text(self, decode) -> str:
        """Reply text that became final since the last call; the pieces add up to the result's.

        Until the sequence finishes, what may still change is held back: trailing whitespace
        (the final text is stripped), a tail that could be the start of a stop string, and a
        multi-byte character split across tokens.
        """
        text = self.text(decode)
        if self.finished:
            text = text.rstrip()
        else:
            hold = 0
            for s in self.params.stop:
                for k in range(min(len(s) - 1, len(text)), hold, -1):
                    if text.endswith(s[:k]):
                        hold = k
                        break
            text = text[: len(text) - hold].rstrip().rstrip("\ufffd")
        if not text.startswith(self.emitted):
            return ""  # the decoder rewrote earlier text; nothing safe to add
        delta, self.emitted = text[len(self.emitted) :], text
        return delta
