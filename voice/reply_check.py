"""Never say a garbled reply: a sentence check on what the model wrote, before it is spoken.

Parallel (confidence-threshold) decoding has its own failure: when the model is unsure, it can
commit the end of the reply early and stop mid-sentence ("There are"), or fill two neighbouring
positions with the same word. The one-token-per-pass reference decoder rarely does either on the
same prompt (the demo model answers "how many minutes are in 3 hours" with a units call there,
and with "There are" under threshold decoding). So, as Whisper falls back to another decoding
when its output looks wrong (compression ratio, log-probability), a voice turn here:

1. holds back the reply's text after its last finished sentence (:class:`Holdback`), so an
   unfinished tail is never shown or spoken before it is checked (speech waits for a sentence
   end anyway, so this costs no latency);
2. when the model ended the reply itself and it is :func:`garbled` (stray punctuation, a word
   twice in a row, call markup, a trailing comma, or no sentence end after a word that cannot
   end one: "There are", "the capital of", "I don't"), decodes the same round once more with
   the local engine's reference decoder (``careful_mode``);
3. if that is no better, drops an unfinished tail after finished sentences, or, with nothing
   finished, says :data:`DIDNT_GET_IT` (an honest reply, never silence).

Turn stats record it (``redecoded``, ``unfinished``), so the benchmark still sees the model's
own rate.
"""

from __future__ import annotations

import re
from collections.abc import Callable

DIDNT_GET_IT = "Sorry, I didn't get that. Could you say it another way?"
_END = re.compile(r"[.!?][\"')\]]*$")
_SENTENCE = re.compile(r"[.!?]+[\"')\]]*\s+")
_WORDS = re.compile(r"[a-z0-9']+")


# Words a sentence does not end on: a reply that stops after one of them was cut short. (A
# reply that merely lacks its full stop, "Paris", is fine to say.)
_DANGLING = frozenset(
    "a an the and or but nor of to in on at by for with from into about as than that which who "
    "whose is are was were be been being am has have had do does did will would can could shall "
    "should may might must there their my your his her its our i we you they he she it's "
    "not if because so very don't can't won't didn't isn't aren't i'm i'll i've couldn't "
    "wouldn't".split()
)


# Punctuation no sentence has: two marks in a row (an ellipsis aside) or a mark after a space.
_STRAY = re.compile(r"[,;:]\s*[.,;:!?]|[!?]\s*[.,;:]|(?<!\.)\.\.(?!\.)|\.\s*,|\s[,.!?;:]")

# A capital letter standing alone as a word ("I" and "A" aside): a reply says it only when it
# spells ("Necessary is spelled N, E, C, ...") or names letters.
_LONE_LETTER = re.compile(r"(?<![\w'.-])[B-HJ-Z](?![\w'-]|\.\w)")
_SPELLS = re.compile(r"\b(?:spell|spelled|spelt|spelling|letters?|initials?)\b", re.IGNORECASE)

# An article straight before a verb, a preposition or another article.
# A sentence that starts in lower case after one that ended ("... numbers the internet. dates
# and spelling."): two sentences run into each other. Not after an abbreviation ("a.m. or",
# "etc. and", "St. ives").
_LOWER_START = re.compile(r"(\S+)[.!?][\"')\]]*\s+[a-z]")
_ABBREVIATED = {"etc", "vs", "approx", "st", "dr", "mr", "mrs", "ms", "no", "jr", "sr", "mt"}
_NO_NOUN = re.compile(r"\b(?:[Tt]he|a|an|An)\s+(?:is|are|was|were|of|to|in|on|the|a|an|and)\b")

# A whole reply of one or two words does not start with these ("The day.", "Why.").
_NO_START = frozenset("what why how when where who which a an the and or but".split())

# Said twice in a row on purpose: times ("twelve twelve PM"), numbers, "bye bye".
_MAY_REPEAT = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
    "hundred thousand oh bye ha no".split()
)


def garbled(text: str) -> bool:
    """Not a reply that can be said as it is: no letters, stray punctuation, a word twice in a
    row (single letters are exempt: spelling says "B, O, O, K."), a sentence that starts in
    lower case after a finished one (two run into each other), tool-call markup, or cut off
    after a comma or a word that cannot end a sentence ("Sorry, I don't"). An empty reply is not
    garbled: it is empty (the caller says so)."""
    text = text.strip()
    if not text:
        return False
    if "<tool_call" in text or "<|" in text or not re.search(r"[^\W\d_]", text):
        return True
    if _STRAY.search(text):  # "I'm,. for asking", "Oslo..", "can't,.?"
        return True
    if _NO_NOUN.search(text):  # "The is in October.": an article with no noun after it
        return True
    if any("." not in w and w.lower().strip("\"'(") not in _ABBREVIATED
           for w in _LOWER_START.findall(text)):  # fmt: skip
        return True
    bare = _WORDS.findall(text.lower())
    if 0 < len(bare) <= 2 and bare[0] in _NO_START and \
            not re.search(r"\d", text):  # fmt: skip
        return True  # "The day." or "Why." for a whole reply
    if len(_LONE_LETTER.findall(text)) >= 2 and not _SPELLS.search(text):
        return True  # "Sorry, I can't search the internet, because I O, W.": letters for words
    words = _WORDS.findall(text.lower())
    pairs = zip(words, words[1:], strict=False)
    if any(a == b and len(a) > 1 and a not in _MAY_REPEAT for a, b in pairs):
        return True
    if text[-1] in ",;:":  # "Sorry, I couldn't read the number,": cut off mid-sentence
        return True
    if not _END.search(text) and _SENTENCE.search(text):
        return True  # a sentence after a finished one, with no end: cut off at the block's end
    return not _END.search(text) and bool(words) and words[-1] in _DANGLING


class Holdback:
    """Passes text on up to its last finished sentence, unless that is garbled; the rest waits
    for :meth:`release`."""

    def __init__(self, on_text: Callable[[str], None]) -> None:
        self.on_text = on_text
        self.sent = ""  # what went on
        self.held = ""
        self.hold_all = False  # hold every sentence until release (the reply may be replaced)
        self.suspect: Callable[[str], bool] | None = None  # held like a garbled sentence

    def begin(self) -> None:
        """A new round of the model: its text starts afresh."""
        self.sent = self.held = ""

    def feed(self, text: str) -> None:
        self.held += text
        cut = _last_sentence_end(self.held)
        # A garbled sentence is held too, and so is everything after it.
        if cut and not self.hold_all and not garbled(self.sent + self.held[:cut]) and not (
                self.suspect and self.suspect(self.held[:cut])):  # fmt: skip
            self._emit(self.held[:cut])
            self.held = self.held[cut:]

    def release(self, final: str) -> str:
        """The reply is ``final``: send what of it has not gone yet; return it."""
        if final.startswith(self.sent):
            self._emit(final[len(self.sent) :])
        self.held = ""
        return final

    def _emit(self, text: str) -> None:
        if text:
            self.sent += text
            self.on_text(text)


def with_full_stop(text: str) -> str:
    """A reply the model ended (not cut) whose last sentence has no end mark gets a full stop:
    "Sorry, I can only spell words, like necessary or Mississippi" reads as cut off in a text
    client. A garbled reply is left as it is (the caller decodes it again or mends it)."""
    text = text.strip()
    if not text or _END.search(text) or garbled(text):
        return text
    return text + "."


def sentences(text: str) -> list[str]:
    """The text's sentences, each with its end mark ("Hi. How can I help?" → two)."""
    out, start = [], 0
    for m in _SENTENCE.finditer(text + " "):
        out.append(text[start : m.end()].strip())
        start = m.end()
    tail = text[start:].strip()
    return [x for x in out if x] + ([tail] if tail else [])


def finished_part(text: str) -> str:
    """The reply up to its last finished sentence ("" if none)."""
    return text[: _last_sentence_end(text + " ")].strip()


def _last_sentence_end(text: str) -> int:
    """Where the text after the last finished sentence begins (0: none finished)."""
    cut = 0
    for m in _SENTENCE.finditer(text):
        cut = m.end()
    return cut
