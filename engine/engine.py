"""The decoding loop: requests join, share batched forward passes, commit tokens, and leave.

``Engine`` is synchronous and single-threaded: ``add_request`` / ``step`` / ``abort``. Requests
of every mode and model family go through one loop, as in nano-vllm: each sequence plans its
next pass (:meth:`Sequence.plan`), the :class:`ModelRunner` turns the plans into one batch and
one forward pass through its slot KV cache, the :class:`Sampler` decides what every row commits,
and each sequence commits it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from collections import deque
from dataclasses import dataclass

import torch

from engine.checkpoint import load_model
from engine.config import EngineConfig
from engine.constrained import Walk, commit_walks, precommit
from engine.errors import UserError
from engine.fill import propose, prose_request
from engine.grammar import GrammarCompiler, GrammarError, json_hint
from engine.model import DiffusionLM
from engine.runner import ModelRunner
from engine.sampler import Sampler
from engine.sampling import SamplingParams
from engine.sequence import GenerationResult, Sequence, TextDelta, positions_needed
from engine.tokenizer import ChatTokenizer
from engine.tools import ToolFormatError, normalize_messages, normalize_tools


class RequestError(UserError, ValueError):
    """A request that cannot be served as given (too long, empty, bad parameters). ``reason``
    names the part at fault, for an API to name it in its answer: "budget" (``max_new_tokens``:
    below the response format's shortest reply, or more than the prompt leaves room for),
    "context" (the conversation does not fit the context at all), "messages" (empty or
    malformed), "prompt" (empty prompt ids), "response_format" (one the grammar rejects),
    "request" (the request as a whole: an id in use, the engine shutting down)."""

    REASONS = ("budget", "context", "messages", "prompt", "response_format", "request")

    def __init__(self, message: str, reason: str = "request") -> None:
        if reason not in self.REASONS:
            raise ValueError(f"unknown RequestError reason {reason!r}")
        super().__init__(message)
        self.reason = reason


@dataclass
class StepOutput:
    deltas: list[TextDelta]
    finished: list[GenerationResult]


@dataclass
class DraftPrompt:
    """What a JSON-schema request's prose draft decodes (:meth:`Engine.draft_prompt`)."""

    prompt_ids: list[int]
    params: SamplingParams  # the request's own, free and at most one reply block long
    question: str  # the last user message, less its words about the format
    fitted: bool  # the request's budget is the engine's (no max_tokens from the caller)


@dataclass
class _Drafted:
    """A structured request waiting for its prose draft (engine/fill.py)."""

    seq: Sequence  # the request itself, queued once its draft is done
    draft: DraftPrompt


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
        n = config.max_batch_size
        self.runner = ModelRunner(model, n, self.max_len, device)
        self.sampler = Sampler(config.seed)
        self.free_slots = list(range(n))
        self.waiting: deque[Sequence] = deque()
        self.running: list[Sequence] = []
        self._ids = itertools.count()
        self._drafts: dict[str, _Drafted] = {}  # draft request id → the request it is for
        self.eos_ids = tokenizer.eos_token_ids or cfg.eos_token_ids
        if not self.eos_ids:
            raise RequestError("the model names no end-of-text token")

    @functools.cached_property
    def grammar(self) -> GrammarCompiler:
        """The grammar engine, built by the first constrained request: unconstrained decoding
        never needs the tokenizer in llguidance's form (nor a Hugging Face tokenizer at all)."""
        return GrammarCompiler(self.tokenizer.tok, self.eos_ids, self.model.cfg.vocab_size)

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
            raise RequestError("messages must not be empty", "messages")
        try:
            messages = normalize_messages(messages)
            tools = normalize_tools(tools)
        except ToolFormatError as e:
            raise RequestError(str(e), "messages") from None
        last = messages[-1]
        if not last["content"].strip() and not last.get("tool_calls"):
            raise RequestError("the last message is empty", "messages")
        bs = self.model.cfg.block_size if self.model.cfg.block_causal else params.block_size
        budget = self.max_len - params.max_new_tokens - bs
        if budget < 1:
            raise RequestError(
                f"max_new_tokens {params.max_new_tokens} leaves no room for a prompt in the "
                f"context of {self.max_len} tokens", "budget"
            )
        hint = json_hint(params.response_format)
        if hint:  # what the grammar will force, said up front (the model writes the values)
            if messages[0]["role"] == "system":
                first = messages[0]
                content = f"{first['content']}\n\n{hint}" if first["content"] else hint
                messages = [{**first, "content": content}, *messages[1:]]
            else:
                messages = [{"role": "system", "content": hint}, *messages]
        system = [m for m in messages[:1] if m["role"] == "system"]
        turns = messages[len(system) :]
        dropped = 0
        while True:
            ids = self.tokenizer.chat_ids(system + turns, tools)
            if len(ids) <= budget:
                return ids, dropped
            if len(turns) <= 1:
                what = "the last message" + (" with the tools' descriptions" if tools else "")
                raise RequestError(
                    f"{what} is {len(ids)} tokens; at most {budget} fit in the context",
                    "context",
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
        ids, dropped, _ = self.resolve(messages, params, prompt_ids, tools)
        return ids, dropped

    def resolve(
        self,
        messages: list[dict] | None,
        params: SamplingParams,
        prompt_ids: list[int] | None = None,
        tools: list[dict] | None = None,
    ) -> tuple[list[int], int, SamplingParams]:
        """:meth:`validate`, and the parameters the request will run with (its budget fitted to
        its grammar when ``params.fit_budget``). Thread-safe."""
        dropped = 0
        want = self._fitted_budget(params)
        if want is not None:  # the prompt must leave room for at least the shortest reply
            params = dataclasses.replace(params, max_new_tokens=want[0], fit_budget=False)
        self._constraint(params)  # a bad response format is refused here, synchronously
        if prompt_ids is None:
            prompt_ids, dropped = self.prepare_prompt(messages or [], params, tools)
        elif not prompt_ids:
            raise RequestError("prompt_ids must not be empty", "prompt")
        if want is not None:
            n = want[1]
            while n > want[0] and positions_needed(self.model.cfg, dataclasses.replace(
                    params, max_new_tokens=n), len(prompt_ids)) > self.max_len:  # fmt: skip
                n -= 1
            params = dataclasses.replace(params, max_new_tokens=n)
        if positions_needed(self.model.cfg, params, len(prompt_ids)) > self.max_len:
            raise RequestError(
                f"prompt of {len(prompt_ids)} tokens plus max_new_tokens "
                f"{params.max_new_tokens} exceeds the context of {self.max_len}", "budget"
            )
        return prompt_ids, dropped, params

    def typical_reply_tokens(self, params: SamplingParams) -> int:
        """How long this model's replies usually run: one reply block (the block-causal model's
        own block, else the request's semi-autoregressive block; 32 for the demo model)."""
        cfg = self.model.cfg
        return cfg.block_size if cfg.block_causal else params.block_size

    def _fitted_budget(self, params: SamplingParams) -> tuple[int, int] | None:
        """(shortest, wanted) budget of a constrained request whose caller set no budget: the
        grammar's shortest reply, and that plus :meth:`typical_reply_tokens` (at most what the
        context holds after a one-token prompt). None when the budget is the caller's."""
        if not (params.fit_budget and params.constrained):
            return None
        try:
            need = self.grammar.shortest_reply(params)
        except GrammarError as e:
            raise RequestError(str(e), e.reason) from None
        bs = self.model.cfg.block_size if self.model.cfg.block_causal else params.block_size
        cap = max(1, min(8192, self.max_len - bs - 1))
        if need > cap:
            raise RequestError(
                f"this response format's shortest reply takes {need} tokens; the context of "
                f"{self.max_len} tokens holds at most {cap}", "response_format"
            )
        return need, min(cap, need + self.typical_reply_tokens(params))

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
        draft: DraftPrompt | None = None,
    ) -> str:
        """Queue a conversation (or raw prompt ids); returns the request id. ``tools`` are
        rendered into the prompt (see engine/tools.py); what the reply may be is ``params``'.
        ``draft``: the prose draft a JSON-schema request waits for, when the caller tokenised
        the request itself (from :meth:`draft_prompt`); a conversation finds its own."""
        params = params or SamplingParams()
        if messages is not None:
            draft = self.draft_prompt(messages, params, tools)
        if messages is not None or prompt_ids is None:
            prompt_ids, truncated_turns, params = self.resolve(messages, params, tools=tools)
        else:
            prompt_ids, _, params = self.resolve(None, params, prompt_ids)
        rid = request_id or f"req-{next(self._ids)}"
        if any(s.request_id == rid for s in itertools.chain(self.running, self.waiting)) or any(
                d.seq.request_id == rid for d in self._drafts.values()):  # fmt: skip
            raise RequestError(f"request id {rid} is already in use")
        seq = Sequence(
            rid, prompt_ids, params, self.model.cfg, self.eos_ids,
            truncated_turns=truncated_turns, stream=stream, constraint=self._constraint(params),
        )
        if draft is not None and seq.constraint is not None:
            first = Sequence(f"{rid}#draft", draft.prompt_ids, draft.params, self.model.cfg,
                             self.eos_ids)
            self._drafts[first.request_id] = _Drafted(seq, draft)
            seq = first
        self.waiting.append(seq)
        return rid

    # --- structured replies from a prose draft (engine/fill.py) ---------------------------
    def drafts_json(self) -> bool:
        """Whether JSON-schema replies are drafted in prose first (``json_from_draft``)."""
        mode = self.config.json_from_draft
        return mode == "on" or (mode == "auto" and self.model.cfg.json_from_draft)

    def draft_prompt(
        self, messages: list[dict] | None, params: SamplingParams, tools=None
    ) -> DraftPrompt | None:
        """The prose draft a JSON-schema request waits for (the request's own ``params``, as
        the caller sent them), or None: no schema, no drafting model, or no room. The draft
        answers the conversation less its words about JSON. Thread-safe."""
        rf = params.response_format
        if messages is None or rf is None or rf["type"] != "json_schema" or not self.drafts_json():
            return None
        p = dataclasses.replace(params, response_format=None, fit_budget=False, max_new_tokens=min(
            params.max_new_tokens, self.typical_reply_tokens(params)))
        try:
            prose = prose_request(normalize_messages(messages))
            ids, _ = self.prepare_prompt(prose, p, tools)
        except (RequestError, ToolFormatError):  # the request says why, when it is queued
            return None
        last = prose[-1]
        question = last["content"] if last["role"] == "user" else ""
        return DraftPrompt(ids, p, question, params.fit_budget)

    def _drafted(self, draft: Sequence, failed: bool = False) -> None:
        """A draft is done: offer its filled reply to the request, which joins the queue with
        the draft's forward passes and start time counted as its own."""
        d = self._drafts.pop(draft.request_id)
        seq = d.seq
        schema = seq.params.response_format["json_schema"]["schema"]
        text = "" if failed else propose(schema, d.draft.question,
                                         draft.text(self.tokenizer.decode))
        if seq.constraint is not None:
            n = len(self.grammar.encode(text)) + seq.constraint.cost_hint
            if n > seq.params.max_new_tokens and d.draft.fitted:  # the engine's budget: grow
                p = dataclasses.replace(seq.params, max_new_tokens=n)
                if positions_needed(self.model.cfg, p, seq.prompt_len) <= self.max_len:
                    seq = Sequence(seq.request_id, seq.prompt_ids, p, self.model.cfg,
                                   self.eos_ids, truncated_turns=seq.truncated_turns,
                                   stream=seq.stream, constraint=seq.constraint)
            if n <= seq.params.max_new_tokens:  # what the draft does not give closes short
                seq.constraint.propose(text, close=not failed)
        seq.nfe, seq.t_start = draft.nfe, draft.t_start
        self.waiting.appendleft(seq)

    def _constraint(self, params: SamplingParams):
        if not params.constrained:
            return None
        try:
            return self.grammar.constraint(params)
        except GrammarError as e:
            raise RequestError(str(e), e.reason) from None

    def abort(self, request_id: str) -> GenerationResult | None:
        """Stop a request now and free its cache slot; returns its partial result."""
        for did, d in list(self._drafts.items()):
            if d.seq.request_id == request_id:
                self.abort(did)
                self._drafts.pop(did, None)
                return d.seq.result(self.tokenizer.decode, reason="abort")
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
            if not seq.nfe:  # one that ran a draft started with it
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
        for seq in seqs:
            if seq.constraint is not None:
                try:  # the grammar's forced tokens need no forward pass
                    precommit(seq)
                    seq.check_finished(self.tokenizer.decode)
                except Exception as e:
                    failed[seq.request_id] = e
        seqs = [s for s in seqs if not s.finished and s.request_id not in failed]
        nfe0 = [s.nfe for s in seqs]
        try:
            if seqs:
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
        for seq in list(self.running):
            if (e := failed.get(seq.request_id)) is not None:
                self.running.remove(seq)
                self._release(seq)
                if seq.request_id in self._drafts:  # the request goes on without a draft
                    self._drafted(seq, failed=True)
                    continue
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
                if seq.request_id in self._drafts:
                    self._drafted(seq)
                else:
                    finished.append(seq.result(self.tokenizer.decode))
        return StepOutput(deltas, finished)

    def _forward_and_commit(self, seqs: list[Sequence]) -> None:
        """Plans → runner → sampler → commit: one forward pass for ``seqs``. Grammar rows
        commit left to right from their frontier (engine/constrained.py); their masks are
        built on the host while the device runs the pass."""
        plans = [s.plan() for s in seqs]
        batch = self.runner.prepare(seqs, plans)
        logits = self.runner.run(batch)  # [B, Lw, V]
        walks = {b: Walk(s, p.block, logits.shape[-1])
                 for b, (s, p) in enumerate(zip(seqs, plans, strict=True))
                 if s.constraint is not None}  # fmt: skip
        masks = [walks[b].next_mask() if b in walks else None for b in range(len(seqs))]
        tokens, commits = self.sampler.select(logits, batch.eligible, seqs, plans, masks)
        for s, p, toks, flags in zip(seqs, plans, tokens, commits, strict=True):
            s.after_forward(p)
            if s.constraint is None:
                at = [i for i, c in enumerate(flags) if c]
                s.commit([p.block[0] + i for i in at], [toks[i] for i in at])
        commit_walks(walks, masks, tokens, logits, self.sampler, seqs)
        for s in seqs:
            s.check_finished(self.tokenizer.decode)
