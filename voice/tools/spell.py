"""The spelling tool: a word letter by letter ("necessary is spelled N, E, C, E, S, S, A, R, Y").

It spells the word that was meant: a near miss of a common word ("accomodate", or Whisper's
"gazebal" for "gazebo") is spelled as that word, and a spelling asked "the British way" or "the
American way" is given in that spelling (speech arrives in Whisper's American spelling:
"neighbour, the British way" is heard "neighbor the British way").
"""

from __future__ import annotations

import re

from words.lexicon import american, british, meant

MAX_LETTERS = 30
VARIETIES = {"british": british, "american": american}


def _as_meant(token: str, variety: str | None) -> str:
    if not token.isalpha():
        return token
    out = meant(token)
    if variety in VARIETIES:
        out = VARIETIES[variety](out)
    if out.lower() == token.lower():
        return token
    return out.capitalize() if token[:1].isupper() else out


def spell(word: object, variety: str | None = None) -> tuple[str, bool]:
    """(what to say, ok). ``variety`` ("british" or "american") asks for that spelling."""
    w = re.sub(r"\s+", " ", str(word or "")).strip(" .?!,\"'")
    w = re.sub(r"^(the word|the name|word) ", "", w, flags=re.IGNORECASE)
    w = " ".join(_as_meant(t, variety) for t in w.split(" "))
    letters = [c for c in w if c.isalpha()]
    if not letters:
        return "sorry, I can only spell words, like necessary or Mississippi", False
    if len(letters) > MAX_LETTERS:
        return "sorry, that word is too long for me to spell", False
    parts = []
    for c in w:
        if c.isalpha():
            parts.append(c.upper())
        elif c == " " and parts and parts[-1] != "space":
            parts.append("space")
        elif c in "-'" and parts:
            parts.append({"-": "hyphen", "'": "apostrophe"}[c])
    return f"{w} is spelled {', '.join(parts)}", True
