"""One request's decoding state: its tokens, blocks, cache progress and statistics.

Plain Python bookkeeping (no forward passes), so the scheduling logic is testable on its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch

from engine.model import ModelConfig
from engine.sampling import SamplingParams


@dataclass
class StepPlan:
    """What one sequence contributes to a batched forward pass."""

    q_start: int  # first position fed to the model
    q_end: int  # one past the last
    kv_limit: list[int]  # per fed position: keys at cache indices < this are visible
    block: tuple[int, int]  # positions [s, e) whose masks may be committed this step


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
    request_id: str
    prompt_ids: list[int]
    params: SamplingParams
    cfg: ModelConfig
    eos_ids: list[int]
    device: torch.device
    truncated_turns: int = 0
    stream: bool = False
    slot: int = -1
    tokens: torch.Tensor = field(init=False)  # [T] on device
    nfe: int = 0
    cache_len: int = 0  # positions [0, cache_len) hold final K/V in the cache
    refreshed: bool = False  # bidirectional cache modes: block's prefix K/V are fresh
    steps_in_block: int = 0
    emitted: str = ""
    t_start: float = field(default_factory=time.perf_counter)
    t_first_text: float | None = None
    finished: str | None = None

    def __post_init__(self) -> None:
        cfg, p = self.cfg, self.params
        P = len(self.prompt_ids)
        bs = cfg.block_size if cfg.block_causal else p.block_size
        first = (P // bs) * bs if cfg.block_causal and cfg.block_align == "absolute" else P
        n_blocks = -(-(P + p.max_new_tokens - first) // bs)
        self.bs, self.first, self.n_blocks = bs, first, n_blocks
        self.total = first + n_blocks * bs
        self.reply_limit = P + p.max_new_tokens  # positions past it are end-of-text padding
        self.cur = 0  # current block index
        mask = cfg.mask_token_id
        t = torch.full((self.total,), mask, dtype=torch.long)
        t[:P] = torch.tensor(self.prompt_ids, dtype=torch.long)
        # Positions past max_new_tokens are end-of-text from the start: never generated.
        t[P + p.max_new_tokens :] = self.eos_ids[0]
        self.tokens = t.to(self.device)
        self._masked = (t == mask).tolist()  # host mirror; avoids a device sync per check
        self._host = t.tolist()

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
        cfg, mode = self.cfg, self.params.mode
        s, e = self.block_bounds()
        shift = 1 if cfg.logit_shift else 0
        if cfg.block_causal:
            # With a logit shift the block's first token is predicted from the position before
            # it; a block at position 0 (a short prompt, absolute blocks) has none, but
            # position 0 is always prompt, never predicted.
            q0 = max(0, min(self.cache_len, s - shift)) if mode in ("cache", "dual_cache") else 0
            return StepPlan(q0, e, [self.block_end(i) for i in range(q0, e)], (s, e))
        if mode in ("cache", "dual_cache") and self.refreshed:
            limit = e if mode == "cache" else self.total
            q0 = s - shift
            return StepPlan(q0, e, [limit] * (e - q0), (s, e))
        return StepPlan(0, self.total, [self.total] * self.total, (s, e))

    def after_forward(self, plan: StepPlan) -> None:
        self.nfe += 1
        if self.cfg.block_causal:
            self.cache_len = max(self.cache_len, plan.block[0])
        elif self.params.mode in ("cache", "dual_cache"):
            self.refreshed = True

    # --- committing -------------------------------------------------------------------------
    def masked_in_block(self) -> list[bool]:
        s, e = self.block_bounds()
        return self._masked[s:e]

    def commit(self, positions: list[int], token_ids: list[int]) -> None:
        for pos, tok in zip(positions, token_ids, strict=True):
            self._masked[pos] = False
            self._host[pos] = tok
        if positions:
            self.tokens[torch.tensor(positions, device=self.device)] = torch.tensor(
                token_ids, device=self.device
            )
        self.steps_in_block += 1
        s, e = self.block_bounds()
        if not any(self._masked[s:e]):
            self.cur += 1
            self.refreshed = False
            self.steps_in_block = 0

    def reply_end(self) -> tuple[int, bool]:
        """(end of the contiguous committed reply, whether the model ended it with end-of-text).

        Positions past ``max_new_tokens`` are pre-filled with end-of-text so that blocks stay
        whole; they are not the model's choice, so a reply that runs into them ends by length.
        """
        P = self.prompt_len
        eos = set(self.eos_ids)
        for i in range(P, self.reply_limit):
            if self._masked[i]:
                return i, False
            if self._host[i] in eos:
                return i, True
        return self.reply_limit, False

    def reply_ids(self, end: int | None = None) -> list[int]:
        end = self.reply_end()[0] if end is None else end
        return self._host[self.prompt_len : end]

    def check_finished(self, decode) -> None:
        """Sets ``finished`` when the reply is complete; ``decode`` turns ids into text."""
        end, at_eos = self.reply_end()
        if self.t_first_text is None and end > self.prompt_len:
            self.t_first_text = time.perf_counter()
        if self.params.early_stop and at_eos:
            self.finished = "stop"
        elif self.cur >= self.n_blocks:
            self.finished = "stop" if at_eos else "length"
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
