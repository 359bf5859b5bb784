"""Grammar-constrained rows in the engine's step: what they commit before and after a pass.

A diffusion LM predicts a whole block per pass and commits out of order; a grammar advances left
to right, so a constrained reply is committed **left to right from its frontier** (the first
uncommitted reply position), several tokens per pass:

1. **Forced tokens, no pass needed** (:func:`precommit`): whatever the grammar allows only one
   way — braces, keys, quotes, the rest of ``true``, a tool call's name — is committed before
   the forward pass, so the model sees it and only infills the values.
2. **Model tokens** (:class:`Walk`, :func:`commit_walks`): the row's plan makes only the
   frontier eligible, and its :class:`~engine.sampler.RowMask` (the grammar's allowed tokens,
   packed) goes to :meth:`Sampler.select`, which masks the frontier's logits on the device and
   picks it in the same kernel call as the free rows. The grammar takes that token, then the
   tokens it forces, and the row goes on over the window's already-computed logits: each
   round, every row still going brings the mask of its new frontier and :meth:`Sampler.pick`
   picks them all in one small masked call (only tokens and probabilities come back). A row
   stops when a pick's probability under the masked distribution falls below the request's
   threshold (``reference`` mode: after ``tokens_per_step`` picks), at end-of-text, or at the
   window's end. Masking the model's own choices one position at a time keeps each pick
   conditioned on the grammar state the tokens before it reached, which a check of the
   unmasked choices afterwards could not.
3. **Never run out** (:meth:`Constraint.closing_cost`): near ``max_new_tokens`` a model token is
   taken only if the reply can still close within the budget afterwards; otherwise the
   play-out's own token is. So a reply always ends complete and valid — even from a random
   model — unless ``max_new_tokens`` is below the grammar's shortest reply, refused up front.

When the grammar is done, the rest of the reply is end-of-text (:func:`_fill_end`).
"""

from __future__ import annotations

import weakref

import torch

from engine.grammar import Constraint, GrammarCompiler
from engine.sampler import Redirect, RowMask, Sampler
from engine.sequence import Sequence

_SLACK = 64  # check closability at every token once this close to the budget's end
_REDIRECTS: weakref.WeakKeyDictionary[GrammarCompiler, Redirect | None] = (
    weakref.WeakKeyDictionary()
)


def frontier(seq: Sequence) -> int:
    """The first reply position the grammar has not consumed."""
    return seq.prompt_len + seq.constraint_len


def _commit_run(seq: Sequence, tokens: list[int]) -> None:
    """Commit ``tokens`` at the frontier and on, block by block (each block commit may move the
    sequence to its next block)."""
    pos = frontier(seq)
    i = 0
    while i < len(tokens) and pos < seq.reply_limit:
        _, e = seq.block_bounds()
        n = min(len(tokens) - i, e - pos, seq.reply_limit - pos)
        if n <= 0:
            break
        seq.commit(list(range(pos, pos + n)), tokens[i : i + n])
        pos, i = pos + n, i + n
    seq.constraint_len = pos - seq.prompt_len


def _fill_end(seq: Sequence, eos: int) -> None:
    """The grammar is done: the rest of the reply is end-of-text (the sequence then finishes
    once every position before its limit is committed)."""
    pos = frontier(seq)
    if pos < seq.reply_limit:
        _commit_run(seq, [eos] * (seq.reply_limit - pos))


def precommit(seq: Sequence) -> int:
    """Commit the tokens the grammar forces at the frontier, before the forward pass.
    Returns how many were committed."""
    c: Constraint = seq.constraint
    if c.done:
        _fill_end(seq, c.compiler.eos_ids[0])
        return 0
    n = 0
    while not c.done:  # forced tokens, then a proposal's, then forced ones after it ...
        ff = c.forced()[: seq.reply_limit - frontier(seq)]
        if not ff:
            break
        c.consume(ff)
        _commit_run(seq, ff)
        n += len(ff)
    if c.done:
        _fill_end(seq, c.compiler.eos_ids[0])
    return n


def _redirect(compiler: GrammarCompiler) -> Redirect | None:
    if compiler not in _REDIRECTS:
        plain, share = compiler.prefix_table
        _REDIRECTS[compiler] = Redirect(plain, share) if plain else None
    return _REDIRECTS[compiler]


class Walk:
    """One constrained row's commits in one pass, a pick at a time: :meth:`next_mask` says
    where and what the next pick may be (None: the row is done for this pass), :meth:`take`
    commits a pick by the rules, :meth:`finish` fills the reply's end once the grammar is done.

    block: the pass's window [s, e); width: the logits' vocabulary width.
    """

    def __init__(self, seq: Sequence, block: tuple[int, int], width: int) -> None:
        self.seq, self.c, self.width = seq, seq.constraint, width
        self.s, self.e = block
        self.taken = 0  # model-chosen tokens this pass

    def next_mask(self) -> RowMask | None:
        c, seq, p = self.c, self.seq, self.seq.params
        pos = frontier(seq)
        if c.done or pos >= self.e or pos >= seq.reply_limit or pos < self.s:
            return None
        if self.taken and p.mode == "reference" and self.taken >= p.tokens_per_step:
            return None
        return RowMask(pos - self.s, c.clean_bits(self.width), _redirect(c.compiler))

    def take(self, tok: int, conf: float | None) -> bool:
        """Commit the pick ``tok`` (its masked probability ``conf``; None for the frontier's,
        which always commits) and the tokens the grammar then forces. Returns whether the row
        may pick again this pass."""
        c, seq, p = self.c, self.seq, self.seq.params
        if self.taken and p.mode != "reference" and conf < p.threshold:
            return False
        room = seq.reply_limit - frontier(seq)  # positions left, this one included
        # Near the end the reply must still be able to close after this token. Far from it,
        # one token cannot open more than _SLACK tokens' worth of required structure.
        if tok not in c.compiler.eos_ids and room <= c.cost_hint + _SLACK:
            c.consume([tok])
            fits = c.closing_cost() <= room - 1
            c.rollback(1)
            if not fits:
                tok = c.closing_token()
                c.cost_hint = max(0, c.cost_hint - 1)
        elif self.taken % 8 == 7:
            c.closing_cost()  # keep the hint fresh as the reply nests deeper
        c.consume([tok])
        _commit_run(seq, [tok])
        self.taken += 1
        while not c.done:
            ff = c.forced()[: seq.reply_limit - frontier(seq)]
            ff = ff[: max(0, self.e - frontier(seq))]  # tokens past the block wait for precommit
            if not ff:
                break
            c.consume(ff)
            _commit_run(seq, ff)
        return tok not in c.compiler.eos_ids

    def finish(self) -> None:
        if self.c.done:
            _fill_end(self.seq, self.c.compiler.eos_ids[0])


def commit_walks(
    walks: dict[int, Walk],
    masks: list[RowMask | None],
    tokens: list[list[int]],
    logits: torch.Tensor,  # [B, Lw, V] this pass's
    sampler: Sampler,
    seqs: list[Sequence],
) -> None:
    """After :meth:`Sampler.select` picked each constrained row's frontier (``tokens``): commit
    it, then pick and commit on in rounds, one :meth:`Sampler.pick` call per round for every
    row still going. ``walks`` and ``masks`` are keyed by batch row."""
    active = [b for b, w in walks.items()
              if masks[b] is not None and w.take(tokens[b][masks[b].index], None)]  # fmt: skip
    while active:
        nxt = {b: walks[b].next_mask() for b in active}
        active = [b for b in active if nxt[b] is not None]
        if not active:
            break
        toks, confs = sampler.pick(logits, active, [nxt[b] for b in active], seqs)
        active = [b for b, t, c in zip(active, toks, confs, strict=True) if walks[b].take(t, c)]
    for w in walks.values():
        w.finish()
