"""What the end-of-turn model reads of a transcript: its last words, where they sit, and how
Whisper ended it. The one copy of these features, shared by the trainer
(``training.turn_model``) and the pipeline's inference (``voice.turn_model``), so the two can
never read a transcript differently.

The words decide more than the punctuation: Whisper writes "What is seven?" for the first
half of "What is seven … times six?", so "?" alone says little. Features are strings (looked
up by their CRC-32, :func:`feature_ids`); numbers, written as digits or words, also count as one
class (``<num>``), so "What is 7 times" and "What is seven times" read alike.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from words.spoken import ONES, TENS

WINDOW = 12  # the last words read (a turn's end is decided near its end)
_NUMBER_WORDS = frozenset(ONES[1:]) | frozenset(TENS[2:]) | {"zero", "oh", "hundred", "thousand"}
_ENDINGS = (("...", "..."), ("…", "..."), ("?", "?"), ("!", "!"), (".", "."), (",", ","),
            ("-", "-"), ("—", "-"), (":", ","), (";", ","))  # fmt: skip
_WORD = re.compile(r"[a-z0-9']+")
# Closed-class words (articles, prepositions, conjunctions, pronouns, auxiliaries, question
# words, fillers) are kept as themselves in the shape features, and also as their class; every
# other word is ``<w>``. A sentence shape never seen in training still ends like one seen ("...
# the <w>", "... <w> of", "... <prep>"): these features carry what was learnt to new words.
_CLASSES = {
    "det": "a an the this that these those my your his her its our their some any every no each",
    "prep": "of to in on at for with from by about into onto over under between than as like "
    "via per after before until through across against without within near toward towards",
    "conj": "and or but nor so because if unless although though while whether then also",
    "aux": "is are was were be been being am has have had do does did will would can could "
    "should shall may might must 's 're 'm 've 'll 'd not don't doesn't didn't can't won't isn't",
    "pron": "i me you he she it we they them him us all",
    "wh": "what where when how why which who whose whom",
    "fill": "um uh er erm hmm mean know well okay ok oh right please yes no yeah",
    "op": "plus minus times divided multiplied",
    "prt": "up down out off",
}
_CLASS = {w: c for c, ws in _CLASSES.items() for w in ws.split()}


def ending(text: str) -> str:
    """How the transcript ends: ``...``, ``?``, ``!``, ``.``, ``,``, ``-``, or ``none``."""
    t = text.rstrip()
    for mark, name in _ENDINGS:
        if t.endswith(mark):
            return name
    return "none"


def words(text: str) -> list[str]:
    """Lower-case words, digits kept as written ("7", "415"); hyphens and commas split."""
    return _WORD.findall(text.lower().replace("'s", " 's"))


def _cls(w: str) -> str:
    return "<num>" if w.isdigit() or w in _NUMBER_WORDS else w


def _shape(w: str) -> str:
    return "<num>" if w.isdigit() or w in _NUMBER_WORDS else w if w in _CLASS else "<w>"


def _group(w: str) -> str:
    return "<num>" if w.isdigit() or w in _NUMBER_WORDS else _CLASS.get(w, "<w>")


def features(text: str) -> list[str]:
    """The feature strings of ``text``: the final punctuation, the last words alone, in pairs
    and triples (also with numbers as ``<num>``), each of the last six by its place from the end,
    the first words (what kind of sentence it is), the length, and the bag of the last
    :data:`WINDOW` words."""
    end = ending(text)
    ws = words(text)
    if not ws:
        return [f"p:{end}", "empty"]
    n = len(ws)
    tail = ws[-WINDOW:]
    cl = [_cls(w) for w in tail]
    last, first = tail[-1], ws[0]
    prev = tail[-2] if len(tail) > 1 else "<s>"
    prev2 = tail[-3] if len(tail) > 2 else "<s>"
    f = [
        f"p:{end}",
        f"w1:{last}",
        f"c1:{cl[-1]}",
        f"w2:{prev}|{last}",
        f"c2:{_cls(prev)}|{cl[-1]}",
        f"w3:{prev2}|{prev}|{last}",
        f"c3:{_cls(prev2)}|{_cls(prev)}|{cl[-1]}",
        f"pw:{end}|{last}",
        f"pc2:{end}|{_cls(prev)}|{cl[-1]}",
        f"s3:{last[-3:]}",
        f"f1:{first}",
        f"f2:{' '.join(ws[:2])}",
        f"fl:{first}|{cl[-1]}",
        f"fn:{first}|{min(n, 12)}",
        f"n:{min(n, 16)}",
    ]
    sh = [_shape(w) for w in tail]
    pad = ["<s>", "<s>", "<s>"] + sh
    f += [
        f"k1:{end}|{sh[-1]}",
        f"k2:{end}|{pad[-2]}|{sh[-1]}",
        f"k3:{pad[-3]}|{pad[-2]}|{sh[-1]}",
        f"k4:{pad[-4]}|{pad[-3]}|{pad[-2]}|{sh[-1]}",
        f"kf:{_shape(first)}|{pad[-2]}|{sh[-1]}|{min(n, 8)}",
    ]
    g = ["<s>", "<s>"] + [_group(w) for w in tail]
    f += [f"g1:{end}|{g[-1]}", f"g2:{g[-2]}|{g[-1]}", f"g3:{g[-3]}|{g[-2]}|{g[-1]}",
          f"gf:{_group(first)}|{g[-1]}"]  # fmt: skip
    f += [f"ks{i}:{w}" for i, w in enumerate(reversed(sh[-8:]))]
    f += [f"at{i}:{w}" for i, w in enumerate(reversed(cl[-6:]))]
    f += [f"bag:{w}" for w in sorted(set(cl))]
    return f


def feature_ids(text: str) -> np.ndarray:
    """The CRC-32 of each of :func:`features` of ``text`` (the same on every machine and
    Python): the keys the model's table is looked up by."""
    return np.array([zlib.crc32(s.encode()) for s in features(text)], dtype=np.uint32)


def finished(weights: dict[str, np.ndarray], text: str) -> float:
    """P(the speaker has finished) after ``text``, by the end-of-turn model's ``weights``:
    the mean of the rows of ``emb`` of the features seen in training (``keys``, sorted; a
    feature never seen adds nothing, rather than someone else's row), one hidden layer (ReLU),
    a logistic output. Numpy only: well under a millisecond per call."""
    keys, emb = weights["keys"], weights["emb"]  # [K] sorted uint32, [K, dim]
    ids = feature_ids(text)
    rows = np.minimum(np.searchsorted(keys, ids), len(keys) - 1)
    rows = rows[keys[rows] == ids]
    x = emb[rows].astype(np.float32).mean(axis=0) if len(rows) else np.zeros(emb.shape[1])
    h = np.maximum(weights["w1"] @ x + weights["b1"], 0.0)  # [hidden]
    logit = float(weights["w2"] @ h + weights["b2"][0])
    return 1.0 / (1.0 + np.exp(-logit))
