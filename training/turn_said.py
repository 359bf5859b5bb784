"""Sentences people wrote as things said in a conversation, for the end-of-turn model's corpus.

The grammar of :mod:`training.turn_corpus` knows ~80 sentence shapes, and a whole sentence of a
shape it lacks looked unfinished to the model: "Flip a coin." 0.28, "Do you dream?" 0.04,
"What rhymes with orange?" 0.004 from the words alone. So the model also learns from lines
nobody here wrote: ChatterBot's English dialog corpus (``chatterbot-corpus``, BSD-3-Clause,
~1,100 different lines after the filters below), conversations written by its contributors
about greetings, emotions, food, money, history, science, sport and computer trouble —
both sides of each conversation, since both are things people say. Its programming file is
left out (code, not speech), and so is its quiz file: questions written to be read ("Complete
the title of a 1979 number one by Blondie – 'Heart of…'"), whose long tails taught that "Who
won the last World Cup?" goes on (0.99 → 0.03 from the words). So are lines over 20 words,
lines with markup or addresses, and any line that is a sentence of the benchmark or the issue
(``turn_grammar.EXCLUDED``); none of bench/turn_questions.py's questions is among them.

A line is one turn, said whole: cut after every word, only the whole line is finished. A
line of several sentences ("Yes, I have a question. Could I borrow a cup of sugar?") teaches
what the grammar's optional ends teach too: a whole sentence need not end the turn. Each line
is rendered twice, with the grammar's fillers, openers and Whisper's punctuation (so the words
decide, not the final mark). A fifth of the lines, chosen by a hash of their words, are held
out for the model card's table.
"""

from __future__ import annotations

import random
import re
import zlib
from functools import cache
from importlib import resources

from training.turn_corpus import (
    _EXCLUDED_KEYS,
    Chunk,
    Row,
    _question,
    _with_fillers,
    cuts,
    key,
    render,
)

SHAPE = "said"  # the rows' shape name (the card's table reports it apart)
MAX_WORDS = 20
RENDERINGS = 2
_SKIPPED_FILES = ("coding.yml", "trivia.yml")
_NOT_SPEECH = re.compile(r"[<>{}\[\]=_#@/\\|*`]|https?:|www\.")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’.-]*[,.!?;:]*")


@cache
def lines() -> tuple[str, ...]:
    """The corpus's English lines that are speech, one per different wording, in file order."""
    import yaml

    out, seen = [], set()
    folder = resources.files("chatterbot_corpus") / "data" / "english"
    for f in sorted(folder.iterdir(), key=lambda p: p.name):
        if not f.name.endswith(".yml") or f.name in _SKIPPED_FILES:
            continue
        data = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        for conversation in data.get("conversations") or []:
            for line in conversation:
                if not isinstance(line, str):
                    continue
                line = " ".join(line.replace("’", "'").split())
                k = key(line)
                if not re.search("[a-z0-9]", k) or k in seen or k in _EXCLUDED_KEYS or \
                        _NOT_SPEECH.search(line) or \
                        len(k.split()) > MAX_WORDS:  # fmt: skip
                    continue
                seen.add(k)
                out.append(line)
    return tuple(out)


def held_out(line: str) -> bool:
    """Whether ``line`` is one of the fifth kept for the card (by a hash of its words)."""
    return zlib.crc32(key(line).encode()) % 5 == 0


def chunks(line: str) -> list[Chunk]:
    """The words of ``line`` (a comma, or a sentence's end, noted after the word it follows)."""
    out = []
    for tok in _TOKEN.findall(line):
        word = re.sub(r"[,.!?;:'’]+$", "", tok)  # (and a closing quote: "'sentience',")
        if word:
            out.append(Chunk([word if word == "I" or word.startswith("I'") else word.lower()],
                             comma=tok != word))  # fmt: skip
    if out:
        out[-1].comma = False
    return out


def rows(split: str, seed: int = 0) -> list[Row]:
    """The rows of ``split`` (``train`` or ``heldout``): each line of it rendered
    :data:`RENDERINGS` times and cut after every word."""
    rng = random.Random(f"{seed}:said:{split}")
    out = []
    for line in lines():
        if held_out(line) != (split == "heldout"):
            continue
        words = chunks(line)
        if not words:
            continue
        for _ in range(RENDERINGS):
            said = _with_fillers(words, rng)
            question = line.rstrip().endswith("?") or _question(said, "s")
            for cut, finished in cuts(said):
                k = key(" ".join(" ".join(c.words) for c in cut))
                if not k or k in _EXCLUDED_KEYS:
                    continue
                out.append(Row(render(cut, finished, question, rng), int(finished), SHAPE,
                               len(k.split())))  # fmt: skip
    return out
