"""The end-of-turn model's corpus: utterances cut at every word boundary, as Whisper writes them.

A small grammar of English utterance shapes — questions of many kinds, requests, statements,
dictated numbers, phone numbers and addresses, lists, greetings and answers, with fillers and
openers ("um", "so", "tell me", "I was wondering") — not only the assistant's own intents.
Every sampled sentence is cut after each word: the sentence as the speaker said it is
*finished* (label 1), every cut before its end is *unfinished* (label 0), even one whose words
could have been a sentence. A shape's optional ends (a ``/``: "What time is it / in {city}")
make the speaker stop there some of the time (:func:`_cut_short`), so the same words come
finished in some rows and unfinished in others, as often as speakers stop there: the model
learns P(the user has finished | these words), calibrated, not "could these words be a
sentence" (which made "What time is it?" certain, and a pause before "... in Tokyo?" the end of
the turn). Rows are kept as sampled, repeats included: how often words end a sentence is the
information.

Transcripts are rendered the way Whisper tiny.en writes them: capitalised, numbers often as
digits ("What is 7 times 6?"), a trailing "..." or "," for speech that trails off, "." or "?"
after a finished one, sometimes nothing — and, as Whisper does at a pause, "." or "?" after
an unfinished prefix too ("What is seven?" for "What is seven … times six?"), so the words
must decide, not the punctuation.

Held out: whole sentence shapes (``turn_grammar.HELDOUT``), never sampled into training, not even
embedded in another shape. Sentences of ``bench/turns.py`` and of issue 25 are left out.

    python -m training.turn_corpus --out runs/turn-corpus   # writes train/heldout.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from training.turn_grammar import EXCLUDED, FILLERS, HELDOUT, OPENERS, SHAPES, SLOTS
from words.spoken import int_words, ordinal_words

_FILLER_WORDS = frozenset(w for f in FILLERS for w in f.lower().split())


def key(text: str) -> str:
    """A sentence's words, lower case, numbers in words, without fillers: what is compared."""
    ws = re.findall(r"[a-z0-9']+", text.lower())
    return " ".join(int_words(int(w)) if w.isdigit() else w for w in ws if w not in _FILLER_WORDS)


_EXCLUDED_KEYS = frozenset(key(e) for e in EXCLUDED)


@dataclass
class Chunk:
    """Words said together: one word, a slot's value, or a number (``digits``: how Whisper
    may write it). ``end``: the sentence may end after it; ``kind``: w, filler or opener."""

    words: list[str]
    digits: str | None = None
    end: bool = False
    kind: str = "w"
    comma: bool = False  # a comma follows it


@dataclass
class Row:
    text: str  # as Whisper would write it
    label: int  # 1: finished
    shape: str
    words: int


def _number(rng: random.Random, small: bool) -> Chunk:
    if small:
        v = rng.choice([rng.randint(1, 12), rng.randint(2, 20)])
    else:
        v = rng.choice([rng.randint(0, 20), rng.randint(2, 12), rng.choice([25, 30, 40, 50, 100])])
    return Chunk(int_words(v).split(), str(v))


def _digits(rng: random.Random, n: int) -> Chunk:
    ds = "".join(str(rng.randint(0, 9)) for _ in range(n))
    said = [int_words(int(d)) if d != "0" else rng.choice(["zero", "oh"]) for d in ds]
    return Chunk(said, ds)


def _time(rng: random.Random) -> list[Chunk]:
    h, m = rng.randint(1, 12), rng.choice([0, 15, 30, 45, 10])
    words = int_words(h).split() + ([] if m == 0 else int_words(m).split())
    digits = f"{h}:{m:02d}" if m else str(h)
    said = [Chunk(words, digits)]
    if rng.random() < 0.5:
        said.append(Chunk([rng.choice(["am", "pm"] + (["o'clock"] if m == 0 else []))]))
    return said


class Grammar:
    """Samples sentences of the shapes of one split."""

    def __init__(self, shapes: list[tuple[str, str, str]], rng: random.Random) -> None:
        self.shapes, self.rng = shapes, rng
        self.by_kind: dict[str, list[tuple[str, str, str]]] = {}
        for s in shapes:
            self.by_kind.setdefault(s[1], []).append(s)
        self.by_kind["q"] = self.by_kind.get("q", []) + self.by_kind.get("wh", [])

    def sample(self, template: str, depth: int = 0) -> list[Chunk]:
        """One sentence of ``template`` as chunks (optional ends kept: cut later)."""
        rng, out = self.rng, []
        for tok in re.sub(r"\(([^)]*)\)", lambda m: rng.choice(m.group(1).split("|")),
                          template).replace("_", " ").split():  # fmt: skip
            if tok == "/":
                if out:
                    out[-1].end = True
            elif tok == ",":
                if out:
                    out[-1].comma = True
            elif tok.startswith("{@"):
                kind = tok[2:-1]
                if kind == "opener":
                    out.append(Chunk(rng.choice(OPENERS).split(), kind="opener"))
                    continue
                options = self.by_kind.get(kind, []) if depth < 1 else []
                if not options:
                    options = self.by_kind["wh"] or self.by_kind["q"]
                inner = self.sample(rng.choice(options)[2], depth + 1)
                out += inner
            elif tok.startswith("{"):
                out += self._slot(tok[1:-1])
            else:
                out.append(Chunk([tok]))
        return out

    def _slot(self, name: str) -> list[Chunk]:
        rng = self.rng
        if name in ("n", "n2"):
            return [_number(rng, name == "n2")]
        if name == "time":
            return _time(rng)
        if name == "phone":
            return [_digits(rng, 3), _digits(rng, 3), _digits(rng, 4)]
        if name == "code":
            return [_digits(rng, 4)]
        if name == "house":
            v = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 4999)])
            return [Chunk(int_words(v).replace(" and", "").split(), str(v))]
        if name == "ord":
            d = rng.randint(1, 31)
            return [Chunk(ordinal_words(d).split(), f"{d}{_suffix(d)}")]
        return [Chunk(w.split()) for w in [rng.choice(SLOTS[name])]]


def _suffix(d: int) -> str:
    return "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")


def _with_fillers(chunks: list[Chunk], rng: random.Random) -> list[Chunk]:
    """Sometimes an opener before, a filler inside (never at the end: a finished sentence does
    not end on "um")."""
    out = list(chunks)
    if rng.random() < 0.25 and len(out) > 2:
        at = rng.randint(1, len(out) - 1)
        out.insert(at, Chunk(rng.choice(FILLERS).split(), kind="filler", comma=rng.random() < 0.5))
    if rng.random() < 0.15 and out[0].kind != "opener":
        out.insert(0, Chunk(rng.choice(OPENERS).split(), kind="opener", comma=rng.random() < 0.5))
    return out


def _cut_short(chunks: list[Chunk], rng: random.Random) -> list[Chunk]:
    """The sentence said only up to one of its optional ends (or whole)."""
    ends = [i for i, c in enumerate(chunks[:-1]) if c.end]
    if ends and rng.random() < 0.4:
        return chunks[: rng.choice(ends) + 1]
    return chunks


def render(chunks: list[Chunk], finished: bool, question: bool, rng: random.Random) -> str:
    """Whisper's writing of the words of ``chunks`` (the last one possibly cut)."""
    digits = rng.random() < 0.7  # Whisper writes most numbers as digits
    parts: list[str] = []
    for i, c in enumerate(chunks):
        word = c.digits if digits and c.digits else " ".join(c.words)
        last = i == len(chunks) - 1
        if c.comma and not last and rng.random() < 0.8:
            word += ","
        parts.append(word)
    text = " ".join(parts)
    text = text[0].upper() + text[1:]
    r = rng.random()
    if finished:
        end = ("?" if question else ".") if r < 0.8 else ("" if r < 0.93 else
                                                        ("!" if r < 0.97 else "."))  # fmt: skip
        if chunks[-1].kind == "w" and rng.random() < 0.02:
            end = "..."
    else:
        end = "..." if r < 0.2 else "," if r < 0.33 else "-" if r < 0.36 else \
              ("?" if question else ".") if r < 0.62 else "." if r < 0.72 else ""  # fmt: skip
    return text + end


_ASKING = frozenset("what how who where when why which is are do does can could would".split())


def _question(chunks: list[Chunk], kind: str) -> bool:
    first = next((c.words[0].lower() for c in chunks if c.kind == "w"), "")
    return kind in ("wh", "q") or first in _ASKING


def generate(split: str, per_shape: int = 160, seed: int = 0) -> list[Row]:
    """Rows of ``split`` (``train``: every shape not held out; ``heldout``: the held-out ones):
    ``per_shape`` sentences of each shape, each cut after every word."""
    rng = random.Random(f"{seed}:{split}")
    shapes = [s for s in SHAPES if (s[0] in HELDOUT) == (split == "heldout")]
    grammar = Grammar(shapes, rng)
    sentences: list[tuple[str, str, list[Chunk]]] = []
    for name, kind, template in shapes:
        for _ in range(per_shape):
            chunks = _with_fillers(_cut_short(grammar.sample(template), rng), rng)
            if key(_plain(chunks)) not in _EXCLUDED_KEYS:
                sentences.append((name, kind, chunks))
    rows = []
    for name, kind, chunks in sentences:
        question = _question(chunks, kind)
        for cut, finished in cuts(chunks):
            k = key(_plain(cut))
            if not k or k in _EXCLUDED_KEYS:
                continue
            text = render(cut, finished, question, rng)
            rows.append(Row(text, int(finished), name, len(k.split())))
    return rows


def cuts(chunks: list[Chunk]):
    """``chunks`` cut after every word (inside multi-word chunks too), each cut with whether the
    speaker finished there: only the last cut, the sentence as said."""
    for ci, c in enumerate(chunks):
        for wi in range(1, len(c.words) + 1):
            cut = chunks[:ci] + [c if wi == len(c.words) else Chunk(c.words[:wi])]
            yield cut, ci == len(chunks) - 1 and wi == len(c.words)


def _plain(chunks: list[Chunk]) -> str:
    return " ".join(" ".join(c.words) for c in chunks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/turn-corpus")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for split in ("train", "heldout"):
        rows = generate(split, seed=args.seed)
        with open(out / f"{split}.jsonl", "w") as f:
            for r in rows:
                f.write(json.dumps(r.__dict__) + "\n")
        done = sum(r.label for r in rows)
        shapes = len({r.shape for r in rows})
        print(f"{split}: {len(rows)} rows, {shapes} shapes, {done} finished")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
