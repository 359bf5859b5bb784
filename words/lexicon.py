"""English words as a speller needs them: which spellings are words, the word a near miss meant
("accomodate", Whisper's "gazebal"), and a word's British or American spelling.

The word list is pyspellchecker's English frequency list (American spelling, ~160,000 words
with how often each is used). British spellings are known through the rules that relate them
to American ones (``british``): "neighbour" is a word because "neighbor" is and British
spelling adds the u. Names and places the list lacks ("dungarvan", "siobhan") are kept as said:
a near miss is corrected only to a common word that keeps the said word's first four letters
(two letters off at most), or is one letter off, so "Dungarvan" never becomes "Hungarian".
"""

from __future__ import annotations

import re
from functools import cache

RARE = 50  # the list's floor: a count of 50 is a word seen once or twice, not a common one

# -- British and American spelling -------------------------------------------------------------
# Words whose British spelling no rule below gives (American → British).
_BRITISH = {
    "gray": "grey", "mom": "mum", "aluminum": "aluminium", "jewelry": "jewellery",
    "pajamas": "pyjamas", "plow": "plough", "mustache": "moustache", "cozy": "cosy",
    "skeptic": "sceptic", "skeptical": "sceptical", "program": "programme",
    "catalog": "catalogue", "dialog": "dialogue", "analog": "analogue", "aging": "ageing",
    "judgment": "judgement", "acknowledgment": "acknowledgement", "fulfill": "fulfil",
    "enroll": "enrol", "skillful": "skilful", "willful": "wilful", "airplane": "aeroplane",
    "curb": "kerb", "donut": "doughnut", "ax": "axe", "artifact": "artefact",
    "maneuver": "manoeuvre", "defense": "defence", "offense": "offence", "license": "licence",
    "pretense": "pretence", "tire": "tyre", "tires": "tyres", "check": "cheque",
    "checks": "cheques", "center": "centre", "centers": "centres", "theater": "theatre",
    "theaters": "theatres", "fiber": "fibre", "caliber": "calibre", "somber": "sombre",
    "luster": "lustre", "specter": "spectre", "saber": "sabre", "meager": "meagre",
    "liter": "litre", "liters": "litres", "meter": "metre", "meters": "metres",
    "kilometer": "kilometre", "kilometers": "kilometres", "centimeter": "centimetre",
    "centimeters": "centimetres", "millimeter": "millimetre", "millimeters": "millimetres",
    "milliliter": "millilitre", "milliliters": "millilitres", "pediatric": "paediatric",
    "pediatrician": "paediatrician", "anemia": "anaemia", "encyclopedia": "encyclopaedia",
    "hemoglobin": "haemoglobin", "leukemia": "leukaemia", "anesthetic": "anaesthetic",
    "orthopedic": "orthopaedic", "esophagus": "oesophagus", "estrogen": "oestrogen",
    "fetus": "foetus", "diarrhea": "diarrhoea", "marvelous": "marvellous", "woolen": "woollen",
    "mold": "mould", "smolder": "smoulder", "whiskey": "whisky", "yogurt": "yoghurt",
    "sulfur": "sulphur",
}  # fmt: skip
_AMERICAN = {uk: us for us, uk in _BRITISH.items()}

# -or → -our: the stems that take it, before these endings only ("honorary", "humorous" and
# "vigorous" keep the o alone in British spelling too).
_OUR = ("col", "flav", "hon", "hum", "lab", "neighb", "rum", "sav", "vap", "harb", "behavi",
        "fav", "od", "val", "vig", "rig", "arm", "clam", "endeav", "parl", "savi", "splend",
        "tum", "cand", "ard", "ferv", "demean", "glam", "sav", "arb")  # fmt: skip
_OUR_END = r"(s|ed|ing|ful|fully|less|ite|ites|itism|hood|hoods|ly|able|ably|er|ers|y|ings)?"
_US_OR = re.compile(rf"^({'|'.join(_OUR)})or{_OUR_END}$")
_UK_OUR = re.compile(rf"^({'|'.join(_OUR)})our{_OUR_END}$")
# Unstressed final l doubles before a vowel in British spelling (traveled → travelled).
_LL = ("travel", "cancel", "model", "label", "level", "fuel", "counsel", "marvel", "dial",
       "signal", "total", "equal", "quarrel", "tunnel", "channel", "pedal", "rival", "jewel",
       "duel", "shovel", "snorkel", "panel", "yodel", "label", "libel", "pencil", "barrel",
       "enamel", "funnel", "gravel", "grovel", "kennel", "marshal", "refuel", "revel", "spiral",
       "swivel", "towel", "unravel")  # fmt: skip
_US_L = re.compile(rf"^({'|'.join(_LL)})(ed|ing|er|ers|or|ors)$")
_UK_LL = re.compile(rf"^({'|'.join(_LL)})l(ed|ing|er|ers|or|ors)$")
# -ize → -ise (and -yze → -yse); words whose z belongs to the root keep it.
_IZE = re.compile(r"^([a-z]{3,}?)(i|y)z(e|es|ed|ing|ation|ations|er|ers)$")
_KEEP_Z = {"size", "prize", "seize", "capsize", "baize", "maize", "assize", "downsize",
           "oversize", "resize", "citizen", "citizens"}  # fmt: skip


def british(word: str) -> str:
    """The British spelling of an American word ("neighbor" → "neighbour", "organize" →
    "organise", "traveled" → "travelled"); any other word as it is."""
    w = word.lower()
    if w in _BRITISH:
        return _BRITISH[w]
    if m := _US_OR.match(w):
        return f"{m[1]}our{m[2] or ''}"
    if m := _US_L.match(w):
        return f"{m[1]}l{m[2]}"
    if w not in _KEEP_Z and (m := _IZE.match(w)) and known(w):
        return f"{m[1]}{m[2]}s{m[3]}"
    return w


def american(word: str) -> str:
    """The American spelling of a British word ("colour" → "color", "centre" → "center");
    any other word as it is. A -ise word becomes -ize only where American spelling has it
    ("organise" → "organize", but "advertise" stays)."""
    w = word.lower()
    if w in _AMERICAN:
        return _AMERICAN[w]
    if m := _UK_OUR.match(w):
        return f"{m[1]}or{m[2] or ''}"
    if m := _UK_LL.match(w):
        return f"{m[1]}{m[2]}"
    if m := re.match(r"^([a-z]{3,}?)(i|y)s(e|es|ed|ing|ation|ations|er|ers)$", w):
        us = f"{m[1]}{m[2]}z{m[3]}"
        if _counts().get(us, 0) > RARE and british(us) == w:  # not "surprize"
            return us
    return w


# -- the word list -----------------------------------------------------------------------------
@cache
def _counts() -> dict[str, int]:
    from spellchecker import SpellChecker

    return dict(SpellChecker(language="en", distance=1).word_frequency.dictionary)


@cache
def _by_start() -> dict[str, list[str]]:
    """The common words by their first four letters (the near misses of a longer word)."""
    out: dict[str, list[str]] = {}
    for w, n in _counts().items():
        if n > RARE and len(w) >= 5 and w.isalpha():
            out.setdefault(w[:4], []).append(w)
    return out


def _single(word: str) -> str:
    """``word`` with each doubled letter said once ("cappuccino" → "capucino")."""
    return re.sub(r"(.)\1+", r"\1", word)


@cache
def _by_sound() -> dict[str, list[str]]:
    """The common words with doubled letters, by their spelling with each said once: a double
    letter is not heard, so Whisper (and a typist) often writes it single ("Capucino")."""
    out: dict[str, list[str]] = {}
    for w, n in _counts().items():
        if n > RARE and len(w) >= 4 and w.isalpha() and (s := _single(w)) != w:
            out.setdefault(s, []).append(w)
    return out


def known(word: str) -> bool:
    """Whether ``word`` is an English word (or name) in either spelling."""
    w = word.lower()
    counts = _counts()
    if w in counts:
        return True
    us = american(w)
    return us != w and us in counts


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance (Damerau's: a swap of two letters is one edit), or limit + 1 past it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def meant(word: str) -> str:
    """The common word a near miss of one meant ("accomodate" → "accommodate", "gazebal" →
    "gazebo", "recieve" → "receive"); a known word, a name the list lacks, or a word with no
    single best near miss is returned as it is. A common word that differs only in which
    letters are doubled ("capucino", "acomodate") is the word meant. One edit away, any common
    word counts; two away (in a word of seven letters or more), only one that starts with the
    same four letters (errors, typed or heard, fall late in a word far more than at its start:
    "bishan" is not "bishop"). The most used of the nearest wins."""
    w = word.lower()
    if len(w) < 4 or not w.isalpha() or known(w):
        return word
    counts = _counts()
    if same := _by_sound().get(_single(w)):  # (common words: never ``w``, which is not known)
        return _most_used(word, same)  # only its letters doubled differently
    splits = [(w[:i], w[i:]) for i in range(len(w) + 1)]
    one = {a + b[1:] for a, b in splits if b}
    one |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    one |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    one |= {a + c + b for a, b in splits for c in _LETTERS}
    near = [x for x in one if counts.get(x, 0) > RARE]
    if not near and len(w) >= 7:  # two edits in a shorter word change a third of it
        near = [x for x in _by_start().get(w[:4], ()) if _distance(w, x, 2) <= 2]
    return _most_used(word, near) if near else word


def _most_used(word: str, near: list[str]) -> str:
    """The most used of ``near``; ``word`` itself when two are used about as often (not sure
    which was meant)."""
    counts = _counts()
    best = sorted(near, key=lambda x: (-counts[x], x))
    if len(best) > 1 and counts[best[0]] < 2 * counts[best[1]]:
        return word
    return best[0]
