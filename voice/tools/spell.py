"""The spelling tool: a word letter by letter ("necessary is spelled N, E, C, E, S, S, A, R, Y")."""

from __future__ import annotations

import re

MAX_LETTERS = 30


def spell(word: object) -> tuple[str, bool]:
    """(what to say, ok)."""
    w = re.sub(r"\s+", " ", str(word or "")).strip(" .?!,\"'")
    w = re.sub(r"^(the word|the name|word) ", "", w, flags=re.IGNORECASE)
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
