"""Grammar-constrained decoding for a diffusion LM (``response_format``, forced tool calls): the
grammar side.

The grammar engine is llguidance (JSON schema and Lark grammars compiled to a token-level
matcher; see docs/api.md for why it and not xgrammar). :class:`GrammarCompiler` compiles and
caches response formats; :class:`Constraint` is one request's matcher: the tokens it forces,
the tokens it allows next (as a packed bitmask the sampler applies on the device), and the
closing play-out (:meth:`Constraint.closing_cost`: the tokens the grammar still needs to close
from the current state, so a reply can always end complete within ``max_new_tokens``).
How a constrained row commits in the engine's step is engine/constrained.py's.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from collections import OrderedDict

import numpy as np

from engine.llg_tokens import byte_level_tokens
from engine.sampling import SamplingParams

JSON_OPTIONS = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}
_CLOSE_CAP = 512  # play-out length past which a state counts as unable to close
_CONTROL = re.compile(r"<\|[^|<>]*\|>")  # a chat-control token's text: <|result|>, <|tool|>


class GrammarError(ValueError):
    """A response format or grammar that cannot be compiled (``reason`` "response_format"), or
    a budget below its shortest reply (``reason`` "budget")."""

    def __init__(self, message: str, reason: str = "response_format") -> None:
        super().__init__(message)
        self.reason = reason


def json_hint(rf: dict | None) -> str | None:
    """The instruction a JSON reply's prompt carries (as a system message, engine.prepare_prompt),
    or None for free text and Lark grammars (a tool grammar's tools are in the prompt already).

    The grammar forces the keys and punctuation, but a model that reads no word of it starts a
    reply in prose and meets ``{"city":"`` only in the reply; told first, it writes the value it
    would say. The demo model is trained on exactly these words (training/skills_json.py):
    ``Reply in JSON with the keys: city, population.`` for an object schema with properties,
    ``Reply in JSON.`` otherwise.
    """
    if rf is None or rf["type"] not in ("json_object", "json_schema"):
        return None
    schema = rf.get("json_schema", {}).get("schema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict) and props:
        return "Reply in JSON with the keys: " + ", ".join(props) + "."
    return "Reply in JSON."


def grammar_source(rf: dict) -> str:
    """llguidance grammar text for a checked ``SamplingParams.response_format``."""
    import llguidance

    kind = rf["type"]
    if kind == "json_object":
        schema: dict | bool = {"type": "object"}
    elif kind == "json_schema":
        schema = rf["json_schema"]["schema"]
    else:
        return llguidance.LLMatcher.grammar_from_lark(rf["lark"])
    if isinstance(schema, dict):
        schema = {**schema, "x-guidance": {**schema.get("x-guidance", {}), **JSON_OPTIONS}}
    try:
        return llguidance.LLMatcher.grammar_from_json_schema(schema)
    except ValueError as e:
        raise GrammarError(f"response_format schema: {e}") from None


def _string_step(ins: bool, esc: bool, ch: str) -> tuple[bool, bool]:
    """(inside a JSON string, an escape pending) after one more character of the text."""
    if esc:
        return ins, False
    if ins and ch == "\\":
        return ins, True
    return (not ins, False) if ch == '"' else (ins, False)


def _common_prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


class GrammarCompiler:
    """One per engine: the tokenizer in llguidance's form, built on first use, and the
    closing play-out's candidate tokens."""

    def __init__(self, hf_tokenizer, eos_ids: list[int], vocab_size: int) -> None:
        n = max(vocab_size, len(hf_tokenizer))
        # End-of-text ids the vocabulary holds (a family default may name one it lacks).
        self.eos_ids = [t for t in eos_ids if t < n] or [hf_tokenizer.eos_token_id or 0]
        self._hf, self.vocab_size = hf_tokenizer, vocab_size
        self._llt = None
        self._lock = threading.Lock()
        self.closers: tuple[list[int], list[int]] = ([], [])
        self._texts: dict[int, str] = {}
        self._cache: OrderedDict[str, tuple[object, int]] = OrderedDict()  # format → matcher
        self._markup: np.ndarray | None = None
        self._longer: dict[int, list[int]] | None = None

    @property
    def tokenizer(self):
        with self._lock:
            if self._llt is None:
                import llguidance.hf

                n = max(self.vocab_size, len(self._hf))
                wrapped = byte_level_tokens(self._hf, n, self.eos_ids[0])
                if wrapped is None:
                    self._llt = llguidance.hf.from_tokenizer(
                        self._hf, n_vocab=n, eos_token=self.eos_ids
                    )
                else:
                    self._llt = llguidance.LLTokenizer(
                        llguidance.TokenizerWrapper(wrapped), n_vocab=n, eos_token=self.eos_ids
                    )
                self.closers = self._closing_candidates()
            return self._llt

    def _closing_candidates(self) -> tuple[list[int], list[int]]:
        """Tokens the play-out prefers, best first, (inside a JSON string, outside one): the
        closing quote inside; outside, closers, then a separator, then the shortest values.
        Only single characters and whole literals: a token like '"}' would open a string."""
        def ids(texts: tuple[str, ...]) -> list[int]:
            out: dict[int, None] = {}
            for text in texts:
                t = self._hf.encode(text, add_special_tokens=False)
                if len(t) == 1:
                    out.setdefault(t[0], None)
            return list(out)

        # A separator before a digit: after "0" a number may go on forever ("0e00..."), while
        # "," or a closer always moves toward the end.
        return ids(('"',)), ids(
            ("}", "]", ",", "0", "1", '"', "false", "null", "true", "[", "{", ":")
        )

    @functools.cached_property
    def plain_added(self) -> list[int]:
        """Added tokens that are text, not control (``<tool_call>``, the demo model's merged
        call openings)."""
        return sorted(i for i, a in (getattr(self._hf, "added_tokens_decoder", {}) or {}).items()
                      if not a.special)  # fmt: skip

    @property
    def added_longer(self) -> dict[int, list[int]]:
        """token → the added (non-special) tokens whose text starts with its text and is longer:
        the tokens a model trained on them writes instead of the shorter one."""
        if self._longer is None:
            added = [(i, a.content) for i, a in
                     dict(getattr(self._hf, "added_tokens_decoder", {}) or {}).items()
                     if not a.special]  # fmt: skip
            out: dict[int, list[int]] = {}
            if added:
                for i in range(len(self._hf)):
                    t = self.text(i)
                    if t:
                        longer = [j for j, c in added if j != i and len(c) > len(t)
                                  and c.startswith(t)]  # fmt: skip
                        if longer:
                            out[i] = longer
            self._longer = out
        return self._longer

    @functools.cached_property
    def prefix_table(self) -> tuple[list[int], list[list[int]]]:
        """(plain added tokens, [i][j] characters the texts of the i-th and j-th share at their
        start): what the sampler's redirect (engine/sampler.py, :class:`Redirect`) reads. A
        disallowed added token among the model's top choices passes its probability to the
        allowed added token that writes the most of the same text. The demo model calls a tool
        with one token, ``<tool_call>{"name": "timer", "arguments": {}}</tool_call>``; a schema
        that requires arguments forbids it, and masked alone the choice of tool fell to
        whatever came next (``spell``, 1 of 8 right). Its mass now goes to
        ``<tool_call>{"name": "timer", "arguments": {"action": "``."""
        plain = self.plain_added
        texts = [self.text(t) for t in plain]
        return plain, [[_common_prefix(a, b) for b in texts] for a in texts]

    def markup(self, width: int) -> np.ndarray:
        """[width] bool: tokens whose text holds chat or tool-call markup (``<tool_call>``,
        ``</tool_call>``, ``<|result|>``). Valid inside a JSON string, they are never a value a
        model means there, and ``</tool_call>`` in an argument would end the call for every
        parser; a model that never learnt JSON reaches for them first (its most common tokens)."""
        if self._markup is None or self._markup.shape[0] != width:
            out = np.zeros(width, dtype=bool)
            n = min(width, len(self._hf))
            for i in range(n):
                t = self.text(i)
                if "<tool_call>" in t or "</tool_call>" in t or _CONTROL.search(t):
                    out[i] = True
            self._markup = out
        return self._markup

    def text(self, token: int) -> str:
        t = self._texts.get(token)
        if t is None:
            t = self._texts[token] = self._hf.decode([token])
        return t

    def encode(self, text: str) -> list[int]:
        """Token ids for plain text (no special tokens)."""
        return list(self._hf.encode(text, add_special_tokens=False))

    def shortest_reply(self, params: SamplingParams) -> int:
        """Tokens the grammar's shortest reply takes (the closing play-out from the start;
        ``_CLOSE_CAP`` or more when it cannot close). Raises :class:`GrammarError`."""
        return self._compiled(params.response_format)[1]

    def constraint(self, params: SamplingParams) -> Constraint | None:
        """A fresh matcher for a request's response format, or None when it has none.
        Raises :class:`GrammarError` for a grammar llguidance rejects or a ``max_new_tokens``
        below the grammar's shortest reply. Thread-safe; compiled formats are cached."""
        rf = params.response_format
        if rf is None:
            return None
        template, need = self._compiled(rf)
        if need > params.max_new_tokens:
            raise GrammarError(
                f"max_new_tokens {params.max_new_tokens} is too small for this response format:"
                f" its shortest reply takes {need if need < _CLOSE_CAP else 'more'} tokens",
                reason="budget",
            )
        return Constraint(template.deep_copy(), self, need)

    def _compiled(self, rf: dict) -> tuple[object, int]:
        """(matcher at the start, shortest reply's tokens) of a response format, cached."""
        key = json.dumps(rf, sort_keys=True)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
        if hit is None:
            import llguidance

            src = grammar_source(rf)
            m = llguidance.LLMatcher(self.tokenizer, src, log_level=0)
            if m.is_error():
                raise GrammarError(f"response_format: {m.get_error().splitlines()[0]}")
            hit = (m, Constraint(m.deep_copy(), self).closing_cost())
            with self._lock:
                self._cache[key] = hit
                while len(self._cache) > 64:
                    self._cache.popitem(last=False)
        return hit


class Constraint:
    """One request's matcher; it has consumed exactly the reply's committed tokens.

    Besides the matcher it follows whether the text so far ends inside a JSON string (with
    an escape pending), which the closing play-out needs to know: there '"' closes, elsewhere
    it opens. Every consume and rollback goes through here so the two stay in step.
    """

    def __init__(self, matcher, compiler: GrammarCompiler, cost_hint: int = 0) -> None:
        self.matcher, self.compiler = matcher, compiler
        self.cost_hint = cost_hint  # the last closing_cost measured
        self._str: list[tuple[bool, bool]] = [(False, False)]  # (in string, escape) per token
        self._said: list[str] = []  # each committed token's text
        self.proposal = ""  # a reply to commit where the grammar accepts it (engine/fill.py)
        self._close = self._closing = False  # close where the proposal ends; closing now

    @property
    def done(self) -> bool:
        """The grammar is complete and admits nothing but end-of-text."""
        return self.matcher.is_stopped()

    @property
    def complete(self) -> bool:
        """What is committed is a whole reply the grammar accepts (it may allow more, such as
        another tool call)."""
        return self.matcher.is_accepting() or self.matcher.is_stopped()

    @property
    def in_string(self) -> bool:
        return self._str[-1][0]

    def forced(self) -> list[int]:
        """Tokens the grammar allows only one way from here, to commit without a pass; none when
        the model has a longer way to write them: an added token that starts with the forced
        text (the demo model writes ``<tool_call>{"name": "timer", "arguments": {"action": "``
        as one token, so forcing ``<tool_call>`` alone would take the choice of tool from it)."""
        if self.done:
            return []
        ff = list(self.matcher.compute_ff_tokens())
        longer = self.compiler.added_longer
        if ff and longer.get(ff[0]):
            ok = self.allowed(self.compiler.vocab_size)
            if any(t < ok.shape[0] and ok[t] for t in longer[ff[0]]):
                return []
        return ff or self._proposed()

    def propose(self, text: str, close: bool = False) -> None:
        """Offer a reply (a whole one, or its start): :meth:`forced` then returns its tokens
        from the committed text on, as far as the grammar accepts them, and end-of-text once
        it is whole. The offer lapses where the reply leaves it. ``close``: where the offer
        ends short of a whole reply, close it the shortest way (``""``, ``0``, brackets) rather
        than leave the rest to the model — for a model that writes no JSON values of its own."""
        self.proposal, self._close = text, close

    def _proposed(self) -> list[int]:
        if self._closing:
            return [self.closing_token()]
        if not self.proposal and not self._close:
            return []
        said = "".join(self._said)
        if not self.proposal.startswith(said):
            self.proposal = ""
            return []
        rest = self.proposal[len(said):]
        if not rest:
            self.proposal = ""
            if self._close:
                self._closing = True
                return [self.closing_token()]
            eos = self.compiler.eos_ids[0]
            accepting = self.matcher.is_accepting() and not self.matcher.is_stopped()
            return [eos] if accepting and self.matcher.validate_tokens([eos]) == 1 else []
        toks = self.compiler.encode(rest)
        k = self.matcher.validate_tokens(toks)
        if k < len(toks):  # the grammar stops the offer here; the model goes on from it
            self.proposal = said + "".join(self.compiler.text(t) for t in toks[:k])
        return toks[:k]

    def consume(self, tokens: list[int]) -> None:
        if tokens and not self.matcher.consume_tokens(tokens):
            raise RuntimeError(f"grammar rejected committed tokens: {self.matcher.get_error()}")
        for t in tokens:
            ins, esc = self._str[-1]
            text = self.compiler.text(t)
            for ch in text:
                ins, esc = _string_step(ins, esc, ch)
            self._str.append((ins, esc))
            self._said.append(text)

    def rollback(self, n: int) -> None:
        if n:
            self.matcher.rollback(n)
            del self._str[-n:]
            del self._said[-n:]

    def allowed(self, width: int) -> np.ndarray:
        """[width] bool: tokens the grammar allows next."""
        bits = np.unpackbits(
            np.frombuffer(self.matcher.compute_bitmask(), dtype=np.uint8), bitorder="little"
        )
        out = np.zeros(width, dtype=bool)
        n = min(width, bits.shape[0])
        out[:n] = bits[:n]
        # llguidance's mask leaves out a long added token whose text crosses from a grammar
        # literal into a nested %json value (the demo model's one-token tool-call openings),
        # although it accepts it: ask for those few one by one.
        for t in self.compiler.plain_added:
            if t < width and not out[t] and self.matcher.validate_tokens([t]) == 1:
                out[t] = True
        return out

    def clean_allowed(self, width: int) -> np.ndarray:
        """[width] bool: :meth:`allowed`, less the tokens that would put markup inside a JSON
        string (``"}}</tool_call>`` where a value starts, ``<|result|>`` inside one: see
        :meth:`GrammarCompiler.markup`), unless nothing else is allowed."""
        allowed = self.allowed(width)
        ok = allowed.copy()
        for t in np.flatnonzero(ok & self.compiler.markup(width)).tolist():
            if self._markup_in_string(self.compiler.text(t)):
                ok[t] = False
        return ok if ok.any() else allowed

    def clean_bits(self, width: int) -> np.ndarray:
        """:meth:`clean_allowed` packed, eight tokens a byte (little bit order): [ceil(width/8)]
        uint8, what the sampler uploads and unpacks on the device."""
        return np.packbits(self.clean_allowed(width), bitorder="little")

    def _markup_in_string(self, text: str) -> bool:
        ins, esc = self._str[-1]
        for i, ch in enumerate(text):
            if ins and not esc and ch == "<" and (
                    text.startswith(("<tool_call>", "</tool_call>"), i)
                    or _CONTROL.match(text, i)):  # fmt: skip
                return True
            ins, esc = _string_step(ins, esc, ch)
        return False

    def closing_token(self) -> int:
        """The play-out's next token: a forced one, else the best allowed candidate, else the
        allowed token with the shortest text."""
        ff = self.matcher.compute_ff_tokens()
        if ff:
            return ff[0]
        if self.matcher.is_accepting():
            return self.compiler.eos_ids[0]
        for t in self.compiler.closers[0 if self.in_string else 1]:
            if self.matcher.validate_tokens([t]) == 1:
                return t
        ok = np.flatnonzero(self.allowed(self.compiler.tokenizer.vocab_size)).tolist()
        if not ok:
            return self.compiler.eos_ids[0]
        return min(ok, key=lambda t: (len(self.compiler.text(t)) or 99, t))

    def closing_cost(self, cap: int = _CLOSE_CAP) -> int:
        """Tokens the play-out needs to reach an accepting state from here (0 if accepting)."""
        m = self.matcher
        n = 0
        while not m.is_accepting() and n < cap and not m.is_error():
            ff = m.compute_ff_tokens()
            step = ff if ff else [self.closing_token()]
            try:
                self.consume(step)
            except RuntimeError:
                break
            n += len(step)
        ok = m.is_accepting()
        self.rollback(n)
        self.cost_hint = n if ok else cap
        return self.cost_hint


def describe(rf: dict | None) -> str:
    """A short name for a response format (bench tables, logs)."""
    if rf is None:
        return "text"
    if rf["type"] == "json_schema":
        return "json_schema:" + rf["json_schema"]["name"]
    return rf["type"] if rf["type"] != "lark" else "lark:" + json.dumps(rf["lark"][:20])
