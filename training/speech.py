"""Make a written question look like what speech recognition hands the assistant.

Whisper-style transcripts vary in case, punctuation and number format, start with fillers
("um", "hey diffvoice"), and now and then mishear a word. Training on these variants teaches the
demo model to answer the question rather than match an exact string.
"""

from __future__ import annotations

import random
import re

from training import facts as F

PREFIXES = (
    "um", "uh", "hey", "hey diffvoice", "okay", "so", "um so", "hey there", "excuse me",
    "quick question", "okay so", "hmm", "well", "alright", "hey diff voice", "uh so",
    "I was wondering", "can you tell me", "do you know", "tell me",
)  # fmt: skip
# Prefixes that only make sense before a wh-question ("can you tell me what is ...").
ASKING = {"I was wondering", "can you tell me", "do you know", "tell me"}
WH = ("what", "which", "where", "who", "how", "when", "why")

# Small misrecognitions and spelling variants, applied word-by-word (case-insensitive keys).
MISHEARD: dict[str, tuple[str, ...]] = {
    "what's": ("whats", "what is"),
    "what is": ("what's", "whats"),
    "capital": ("capitol",),
    "diffvoice": ("diff voice", "div voice", "diffvoice"),
    "kilometers": ("kilometres", "kilo meters"),
    "fahrenheit": ("farenheit", "fahrenheit"),
    "celsius": ("celcius", "celsius"),
    "weather": ("whether",),
    "spell": ("spel",),
    "how do you": ("how you",),
    "do you know": ("you know",),
    "the": ("a",),
    "planet": ("planets",),
    "jupiter": ("jupyter",),
    "neptune": ("neptun",),
    "can you": ("could you", "can u"),
    "you": ("ya",),
    "please": ("pls",),
    "times": ("time",),
    "divided by": ("divide by",),
}

PROPER = {
    *(w for c in F.COUNTRIES for s in c.surfaces for w in s.split() if w[0].isupper()),
    *(p.name for p in F.PLANETS), *F.DAYS, *F.MONTHS, "I", "I'm", "I'd", "I've",
}  # fmt: skip

_PUNCT = re.compile(r"[.,!?;:]")


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0].strip(".,!?")
    return text if first in PROPER else text[:1].lower() + text[1:]


def _mishear(text: str, rng: random.Random) -> str:
    keys = [k for k in MISHEARD if re.search(rf"\b{re.escape(k)}\b", text, re.IGNORECASE)]
    if not keys:
        return text
    k = rng.choice(keys)
    return re.sub(rf"\b{re.escape(k)}\b", rng.choice(MISHEARD[k]), text, count=1,
                  flags=re.IGNORECASE)  # fmt: skip


def speak(text: str, rng: random.Random, noise: float = 1.0) -> str:
    """A transcript-like variant of ``text``; ``noise`` scales how often each change happens."""
    if rng.random() < 0.15 * noise:
        text = _mishear(text, rng)
    if rng.random() < 0.04 * noise:  # a stutter: "what what is"
        words = text.split()
        i = rng.randrange(len(words))
        text = " ".join(words[: i + 1] + [words[i].strip(".,?!").lower()] + words[i + 1 :])
    if rng.random() < 0.25 * noise:
        prefix = rng.choice(PREFIXES)
        starts_wh = text.lower().startswith(WH)
        if prefix in ASKING and not starts_wh:
            prefix = rng.choice(("um", "hey", "okay", "so"))
        sep = " " if prefix in ASKING else ", "
        body = _lower_first(text)
        if prefix in ASKING:  # "can you tell me what is X." reads as a question
            body = body.rstrip("?.!") + "?"
        text = prefix[:1].upper() + prefix[1:] + sep + body
    elif rng.random() < 0.06 * noise:
        text = text.rstrip(".?!") + (", please" if text.endswith(("?", ".", "!")) else " please")
        if not text.endswith("please"):
            text += "."
    r = rng.random()
    if r < 0.35:
        return text  # Whisper-like: cased and punctuated
    if r < 0.7:
        text = _PUNCT.sub("", text.lower())
    elif r < 0.85:
        text = text.lower()
    else:
        text = _PUNCT.sub("", text)
    return " ".join(text.split())
