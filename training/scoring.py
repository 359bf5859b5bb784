"""Scoring replies on the held-out split: right answer, and well-formed for speech."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence

from training.corpus import MAX_REPLY_WORDS, Dialog
from training.numwords import ONES, TENS

NUMBER_WORDS = {*ONES, *TENS[2:], "hundred", "thousand", "point", "minus", "and"}


def normalize(text: str) -> list[str]:
    """Lower-case words without punctuation (apostrophes kept): ``"C, A, T." → [c, a, t]``."""
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower().replace("’", "'")).split()


def contains_answer(reply: str, answers: Sequence[str]) -> bool:
    """Whether ``reply`` contains any answer as a whole-word phrase.

    A number answer must not continue into a longer number: "is five" is not found in
    "is fifty five", nor "thirty days" in "thirty one days" (it is not a phrase there anyway).
    """
    words = normalize(reply)
    for ans in answers:
        a = normalize(ans)
        n = len(a)
        for i in range(len(words) - n + 1):
            if words[i : i + n] != a:
                continue
            nxt = words[i + n] if i + n < len(words) else ""
            if a[-1] in NUMBER_WORDS and nxt in NUMBER_WORDS and nxt != "and":
                continue
            return True
    return False


def well_formed(reply: str) -> bool:
    """Non-empty, at most 30 words, no word repeated next to itself, ends with punctuation.

    Single letters are exempt from the repeat rule: spelling says "B, O, O, K."
    """
    text = reply.strip()
    if not text or len(text.split()) > MAX_REPLY_WORDS or text[-1] not in ".!?":
        return False
    words = normalize(text)
    return not any(a == b and len(a) > 1 for a, b in zip(words, words[1:], strict=False))


def is_call_item(d: Dialog) -> bool:
    """Whether the expected reply is a tool call (its answer is the JSON list of calls)."""
    return bool(d.answers) and d.answers[0].startswith("[{")


def _norm_call(c: dict) -> tuple:
    args = c.get("arguments", {})
    norm = {k: str(v).strip().strip(".,!?").lower() for k, v in args.items()}
    return (c.get("name"), tuple(sorted(norm.items())))


def call_right(reply: str, answers: Sequence[str]) -> tuple[bool, bool]:
    """(right, well-formed) for a tool-call reply: well-formed when it is nothing but
    ``<tool_call>`` blocks of valid JSON; right when the calls match the expected ones (names,
    argument keys and values, case and end punctuation aside)."""
    from training.skills_tools import json_call

    try:
        got = json_call(reply)
    except ValueError:  # includes json.JSONDecodeError
        return False, False
    want = json.loads(answers[0])
    return [_norm_call(c) for c in got] == [_norm_call(c) for c in want], bool(got)


def score(items: Sequence[Dialog], replies: Sequence[str]) -> dict:
    """Share of replies that are right and well-formed, overall and by split kind and skill."""
    ok_all = []
    by_split: dict[str, list[bool]] = defaultdict(list)
    by_skill: dict[str, list[bool]] = defaultdict(list)
    right = formed = 0
    for d, r in zip(items, replies, strict=True):
        if is_call_item(d):
            a, f = call_right(r, d.answers)
        else:
            a, f = contains_answer(r, d.answers), well_formed(r)
        right += a
        formed += f
        ok = a and f
        ok_all.append(ok)
        by_split[d.split].append(ok)
        by_skill[d.skill].append(ok)
    n = max(1, len(ok_all))

    def share(v: list[bool]) -> float:
        return sum(v) / max(1, len(v))

    return {
        "items": len(ok_all),
        "accuracy": sum(ok_all) / n,
        "right_answer": right / n,
        "well_formed": formed / n,
        "by_split": {k: round(share(v), 4) for k, v in sorted(by_split.items())},
        "by_skill": {k: round(share(v), 4) for k, v in sorted(by_skill.items())},
        "skill_items": {k: len(v) for k, v in sorted(by_skill.items())},
        "ok": ok_all,
    }
