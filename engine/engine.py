"""The decoding loop: requests join, share batched forward passes, commit tokens, and leave.

``Engine`` is synchronous and single-threaded: ``add_request`` / ``step`` / ``abort``. Requests
of every mode and model family go through one loop; each step builds one padded batch from the
running sequences' plans, runs one forward pass through the slot KV cache, and lets the unmask
kernel choose what every sequence commits.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass

import torch

from engine.checkpoint import load_model
from engine.config import EngineConfig
from engine.model import CacheView, DiffusionLM
from engine.sampling import SamplingParams
from engine.sequence import GenerationResult, Sequence, TextDelta
from engine.tokenizer import ChatTokenizer
from engine.tools import ToolFormatError, normalize_messages, normalize_tools
from kernels import unmask_select
from kernels.unmask import select_commits


class RequestError(ValueError):
    """A request that cannot be served as given (too long, empty, bad parameters)."""


@dataclass
class StepOutput:
    deltas: list[TextDelta]
    finished: list[GenerationResult]


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


class Engine:
    """A diffusion LM with its tokenizer, KV cache and request scheduler."""

    def __init__(
        self,
        model: DiffusionLM,
        tokenizer: ChatTokenizer,
        config: EngineConfig,
        device: torch.device,
    ) -> None:
        self.model, self.tokenizer, self.config, self.device = model, tokenizer, config, device
        cfg = model.cfg
        self.max_len = min(config.max_model_len, cfg.max_position_embeddings)
        dtype = next(model.parameters()).dtype
        n = config.max_batch_size
        shape = (cfg.num_layers, n, self.max_len, cfg.num_kv_heads, cfg.head_dim)
        self.k_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.v_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.free_slots = list(range(n))
        self.waiting: deque[Sequence] = deque()
        self.running: list[Sequence] = []
        self._ids = itertools.count()
        self._step_seed = itertools.count(config.seed)
        self.eos_ids = tokenizer.eos_token_ids or cfg.eos_token_ids
        if not self.eos_ids:
            raise RequestError("the model names no end-of-text token")

    @classmethod
    def load(cls, config: EngineConfig) -> Engine:
        device = pick_device(config.device)
        dtype = None if config.dtype == "auto" else getattr(torch, config.dtype)
        model, folder = load_model(config.model, device=device, dtype=dtype)
        if device.type == "cpu":
            threads = config.threads
            if threads == 0:
                n_params = sum(p.numel() for p in model.parameters())
                threads = 1 if n_params < 50_000_000 else torch.get_num_threads()
            torch.set_num_threads(threads)
        tok = ChatTokenizer(folder, model.cfg.eos_token_ids)
        return cls(model, tok, config, device)

    # --- requests ---------------------------------------------------------------------------
    def prepare_prompt(
        self, messages: list[dict], params: SamplingParams, tools: list[dict] | None = None
    ) -> tuple[list[int], int]:
        """Prompt ids for a conversation (and the tools it may call), dropping the oldest turns
        until it fits. Messages may be system, user, assistant (with ``tool_calls``) and tool."""
        if not messages:
            raise RequestError("messages must not be empty")
        try:
            messages = normalize_messages(messages)
            tools = normalize_tools(tools)
        except ToolFormatError as e:
            raise RequestError(str(e)) from None
        last = messages[-1]
        if not last["content"].strip() and not last.get("tool_calls"):
            raise RequestError("the last message is empty")
        bs = self.model.cfg.block_size if self.model.cfg.block_causal else params.block_size
        budget = self.max_len - params.max_new_tokens - bs
        if budget < 1:
            raise RequestError(
                f"max_new_tokens {params.max_new_tokens} leaves no room for a prompt in the "
                f"context of {self.max_len} tokens"
            )
        system = [m for m in messages[:1] if m["role"] == "system"]
        turns = messages[len(system) :]
        dropped = 0
        while True:
            ids = self.tokenizer.chat_ids(system + turns, tools)
            if len(ids) <= budget:
                return ids, dropped
            if len(turns) <= 1:
                raise RequestError(
                    f"the last message is {len(ids)} tokens; at most {budget} fit in the context"
                )
            turns = turns[1:]
            dropped += 1
            while len(turns) > 1 and turns[0]["role"] == "tool":  # a result without its call
                turns = turns[1:]
                dropped += 1

    def validate(
        self,
        messages: list[dict] | None,
        params: SamplingParams,
        prompt_ids: list[int] | None = None,
        tools: list[dict] | None = None,
    ) -> tuple[list[int], int]:
        """Prompt ids and dropped turns for a request, or :class:`RequestError`. Thread-safe."""
        dropped = 0
        if params.constrained:
            raise RequestError("response_format and forced tool calls are not supported yet")
        if prompt_ids is None:
            prompt_ids, dropped = self.prepare_prompt(messages or [], params, tools)
        elif not prompt_ids:
            raise RequestError("prompt_ids must not be empty")
        bs = self.model.cfg.block_size if self.model.cfg.block_causal else params.block_size
        if len(prompt_ids) + params.max_new_tokens + bs > self.max_len:
            raise RequestError(
                f"prompt of {len(prompt_ids)} tokens plus max_new_tokens "
                f"{params.max_new_tokens} exceeds the context of {self.max_len}"
            )
        return prompt_ids, dropped

    def add_request(
        self,
        messages: list[dict] | None = None,
        params: SamplingParams | None = None,
        *,
        prompt_ids: list[int] | None = None,
        request_id: str | None = None,
        stream: bool = False,
        truncated_turns: int = 0,
        tools: list[dict] | None = None,
    ) -> str:
        """Queue a conversation (or raw prompt ids); returns the request id. ``tools`` are
        rendered into the prompt (see engine/tools.py); what the reply may be is ``params``'."""
        params = params or SamplingParams()
        if messages is not None or prompt_ids is None:
            prompt_ids, truncated_turns = self.validate(messages, params, tools=tools)
        else:
            prompt_ids, _ = self.validate(None, params, prompt_ids)
        rid = request_id or f"req-{next(self._ids)}"
        if any(s.request_id == rid for s in itertools.chain(self.running, self.waiting)):
            raise RequestError(f"request id {rid} is already in use")
        seq = Sequence(
            rid, prompt_ids, params, self.model.cfg, self.eos_ids, self.device,
            truncated_turns=truncated_turns, stream=stream,
        )
        self.waiting.append(seq)
        return rid

    def abort(self, request_id: str) -> GenerationResult | None:
        """Stop a request now and free its cache slot; returns its partial result."""
        for seq in list(self.running):
            if seq.request_id == request_id:
                self.running.remove(seq)
                self._release(seq)
                return seq.result(self.tokenizer.decode, reason="abort")
        for seq in list(self.waiting):
            if seq.request_id == request_id:
                self.waiting.remove(seq)
                return seq.result(self.tokenizer.decode, reason="abort")
        return None

    def has_work(self) -> bool:
        return bool(self.running or self.waiting)

    def _release(self, seq: Sequence) -> None:
        if seq.slot >= 0:
            self.free_slots.append(seq.slot)
            seq.slot = -1

    def _admit(self) -> None:
        while self.waiting and self.free_slots:
            seq = self.waiting.popleft()
            seq.slot = self.free_slots.pop(0)
            seq.t_start = time.perf_counter()
            self.running.append(seq)

    # --- one step ---------------------------------------------------------------------------
    @torch.inference_mode()
    def step(self) -> StepOutput:
        """One batched forward pass for every running sequence; returns deltas and results."""
        self._admit()
        seqs = list(self.running)
        if not seqs:
            return StepOutput([], [])
        failed: dict[str, Exception] = {}  # request id → the fault that ends it
        nfe0 = [s.nfe for s in seqs]
        try:
            self._forward_and_commit(seqs)
        except Exception as e:  # a fault in one step fails requests, never the engine
            # Retry each sequence that has not stepped on its own: a fault that one request
            # causes then fails only that request, and a passing fault costs nobody a reply.
            for seq, n in zip(seqs, nfe0, strict=True):
                if len(seqs) == 1:
                    failed[seq.request_id] = e
                elif seq.nfe == n:
                    try:
                        self._forward_and_commit([seq])
                    except Exception as e1:
                        failed[seq.request_id] = e1
        deltas, finished = [], []
        for seq in seqs:
            if (e := failed.get(seq.request_id)) is not None:
                self.running.remove(seq)
                self._release(seq)
                msg = f"{type(e).__name__}: {e}"
                finished.append(seq.result(self.tokenizer.decode, reason="error", error=msg))
                continue
            if seq.stream:
                d = seq.new_text(self.tokenizer.decode)
                if d:
                    deltas.append(TextDelta(seq.request_id, d))
            if seq.finished:
                self.running.remove(seq)
                self._release(seq)
                finished.append(seq.result(self.tokenizer.decode))
        return StepOutput(deltas, finished)

    def _forward_and_commit(self, seqs: list[Sequence]) -> None:
        dev = self.device
        plans = [s.plan() for s in seqs]
        B = len(seqs)
        Lq = max(p.q_end - p.q_start for p in plans)
        ids = torch.zeros(B, Lq, dtype=torch.long, device=dev)
        pos = torch.zeros(B, Lq, dtype=torch.long, device=dev)
        valid = torch.zeros(B, Lq, dtype=torch.bool)
        limit = torch.ones(B, Lq, dtype=torch.int32)
        for b, (s, p) in enumerate(zip(seqs, plans, strict=True)):
            n = p.q_end - p.q_start
            ids[b, :n] = s.tokens[p.q_start : p.q_end]
            pos[b, :n] = torch.arange(p.q_start, p.q_end, device=dev)
            valid[b, :n] = True
            limit[b, :n] = torch.tensor(p.kv_limit, dtype=torch.int32)
        slots = torch.tensor([s.slot for s in seqs], device=dev)
        valid_d = valid.to(dev)
        view = CacheView(
            k=self.k_cache,
            v=self.v_cache,
            slots=slots,
            kv_limit=limit.to(dev),
            write_rows=slots[:, None].expand(B, Lq)[valid_d],
            write_pos=pos[valid_d],
            valid=valid_d,
        )
        hidden = self.model(ids, pos, cache=view, return_hidden=True)  # [B, Lq, d]

        # Hidden states that predict each position of the current block (shifted for Dream).
        shift = 1 if self.model.cfg.logit_shift else 0
        Lb = max(p.block[1] - p.block[0] for p in plans)
        rows = torch.zeros(B, Lb, dtype=torch.long)
        masked = torch.zeros(B, Lb, dtype=torch.bool)
        for b, (s, p) in enumerate(zip(seqs, plans, strict=True)):
            bs, be = p.block
            # clamp: position 0 has no predecessor, and is always prompt (never masked)
            rows[b, : be - bs] = torch.arange(bs - shift - p.q_start, be - shift - p.q_start)
            rows[b].clamp_(min=0)
            masked[b, : be - bs] = torch.tensor(s.masked_in_block())
        sel = hidden.gather(1, rows.to(dev)[..., None].expand(B, Lb, hidden.shape[-1]))
        raw = self.model.logits(sel)  # [B, Lb, V]
        raw[..., self.model.cfg.mask_token_id] = float("-inf")  # never "predict" a mask
        logits = _apply_top_p(raw, [s.params for s in seqs])

        prm = [s.params for s in seqs]
        tokens = torch.zeros(B, Lb, dtype=torch.long)
        commit = torch.zeros(B, Lb, dtype=torch.bool)
        for rows_g, seed, width in self._select_groups(seqs, plans, Lb):
            g = [prm[b] for b in rows_g]
            whole = len(rows_g) == B and width == Lb  # the usual case: no copy of the logits
            idx = None if whole else torch.tensor(rows_g, device=dev)
            m = (masked if whole else masked[rows_g, :width]).to(dev)
            thr = torch.tensor([p.threshold for p in g], device=dev)
            n_commit = torch.tensor(
                [p.tokens_per_step if p.mode == "reference" else 0 for p in g], device=dev
            )
            t, _conf, c = unmask_select(
                logits if whole else logits[idx, :width],
                m,
                threshold=thr,
                num_commit=n_commit,
                temperature=torch.tensor([p.temperature for p in g], device=dev),
                top_k=torch.tensor([p.top_k for p in g], device=dev),
                seed=seed,
            )
            nucleus = [p.top_p < 1.0 and p.temperature > 0 for p in g]
            if any(nucleus):
                # Confidence is the token's probability under the unfiltered logits (as with
                # top-k); the nucleus-filtered logits would make every sampled token look sure.
                r = raw if whole else raw[idx, :width]
                conf = torch.softmax(r.float(), -1).gather(-1, t[..., None]).squeeze(-1)
                conf = conf.masked_fill(~m, float("-inf"))
                redo = select_commits(conf, m, thr, n_commit)
                c = torch.where(torch.tensor(nucleus, device=dev)[:, None], redo, c)
            tokens[rows_g, :width], commit[rows_g, :width] = t.cpu(), c.cpu()
        for b, (s, p) in enumerate(zip(seqs, plans, strict=True)):
            s.after_forward(p)
            idx = commit[b].nonzero().flatten().tolist()
            s.commit([p.block[0] + i for i in idx], tokens[b, idx].tolist())
            s.check_finished(self.tokenizer.decode)

    def _select_groups(
        self, seqs: list[Sequence], plans: list, width: int
    ) -> list[tuple[list[int], int, int]]:
        """Batch rows that can share one ``unmask_select`` call: (rows, seed, block width).

        Greedy rows and rows that sample without a seed go together under a per-step seed. A row
        that samples with its own seed goes alone, seeded by (its seed, its step) and cut to its
        own block, so its noise — and its reply — does not depend on what else is in the batch.
        """
        shared, groups = [], []
        for b, (s, p) in enumerate(zip(seqs, plans, strict=True)):
            if s.params.temperature > 0 and s.params.seed is not None:
                seed = (s.params.seed * 1_000_003 + s.nfe * 7919 + 1) % (2**31)
                groups.append(([b], seed, p.block[1] - p.block[0]))
            else:
                shared.append(b)
        if shared:
            groups.append((shared, next(self._step_seed) % (2**31), width))
        return groups


def _apply_top_p(logits: torch.Tensor, params: list[SamplingParams]) -> torch.Tensor:
    """Nucleus filtering for rows that ask for it (rare in voice use; plain torch)."""
    rows = [b for b, p in enumerate(params) if p.top_p < 1.0 and p.temperature > 0]
    if not rows:
        return logits
    logits = logits.clone()
    for b in rows:
        x = logits[b].float()
        srt, idx = x.sort(dim=-1, descending=True)
        cum = srt.softmax(-1).cumsum(-1)
        drop = cum - srt.softmax(-1) > params[b].top_p  # keep the token that crosses top_p
        srt = srt.masked_fill(drop, float("-inf"))
        logits[b] = torch.empty_like(x).scatter_(-1, idx, srt).to(logits.dtype)
    return logits
