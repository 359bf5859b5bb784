"""End of turn: has the user finished, or only paused?

Silence alone is a blunt rule: 600 ms is slow, and less cuts people off in the middle of a
sentence ("What is the capital of … Australia?"). The pipeline combines three signals:

- **how long it has been quiet**, measured from the audible end of speech (the detector's
  energy-based pause starts the transcript ~90 ms after the last audible frame);
- **what was said**: the transcript of the utterance so far, judged by :func:`is_complete`;
- **how it was said**, as Whisper writes it: a sentence that trails off gets "..." or a comma,
  a finished one ends with "." or "?".

:func:`quiet_needed` turns the transcript into the quiet that ends the turn. By default
(``vad.endpoint = "model"``) the learned end-of-turn model (``voice.turn_model``) gives
P(finished) and the wait falls with it, from ``vad.incomplete_ms`` to ``vad.complete_ms``. The
rules below are the fallback (``vad.endpoint = "smart"``, or no model files): a complete
transcript ends the turn after ``vad.complete_ms``, an incomplete one waits for silence. Either
way a short preface (:func:`is_preface`: "Hello there.", "Okay so.") is held ``vad.preface_ms``,
since people pause after one and go on ("Hello there, … can you hear me?").
docs/turn-taking.md says why a model now decides, and how the wait depends on it.
"""

from __future__ import annotations

import math
import re

import numpy as np

from voice import turn_model
from voice.config import VadConfig

# Words an English sentence does not end on: articles, prepositions, conjunctions, possessives,
# auxiliaries and question words that still need what follows. "What is the capital of" is
# unfinished; "What is it?" and "Who are you?" end on a pronoun and are finished, and so does
# "What can you do?" (do/does/did end questions often enough to be left out).
_DANGLING = frozenset(
    """
    a an the this these those my your his her its our their some any every no each
    of to in on at for with from by about into onto over under between than as like via per
    after before until till through across against toward towards without within among
    and or but nor so because if unless although though while whereas whether that which
    is are was were be been am has have had will would can could should shall may
    might must what's whats what where when how why whose whom
    plus minus times divided multiplied
    um uh er erm hmm
    """.split()
)
# Relational nouns a question almost never ends on: "what is the capital ... of Australia",
# "what is the population ... of Japan". Whisper writes "What is the capital?" for the first
# half, and taking that as the whole question cuts the user off mid-sentence.
_RELATIONAL = frozenset("capital population currency area root".split())
# Short one-word turns that are finished on their own.
# A conversion names where to: "Convert twenty degrees" (Whisper: "Convert 20 degrees.") is
# the first half of "... Celsius to Fahrenheit", not a request of its own.
_CONVERT = frozenset("convert translate".split())
_TARGET = frozenset("to into in".split())
_FINISHED_WORDS = frozenset("yes no yeah nope okay ok thanks stop hello hi hey sure".split())
_TRAILING = ("...", "…", ",", "-", "–", "—", ":", ";")


def is_complete(transcript: str) -> bool:
    """Whether ``transcript`` reads as a finished turn (a question or sentence said to the end).

    Empty or trailing text ("What is the capital of...", "Convert twenty degrees,") and text
    ending on a word that needs a continuation ("... the capital of") are incomplete.
    """
    text = transcript.strip()
    if not text:
        return False
    if text.endswith(_TRAILING):
        return False
    words = re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()
    if not words:
        return False
    last = words[-1]
    if len(words) == 1 and last in _FINISHED_WORDS:
        return True
    if last in _RELATIONAL and words[0] in ("what", "what's", "whats", "tell"):
        return False
    if words[0] in _CONVERT and not _TARGET.intersection(words[1:]):
        return False
    return last not in _DANGLING


# Openers of a question or a request: a turn that starts with one is said for its own sake.
_ASKING = frozenset(
    """
    what what's whats who who's whos where where's when why how which whose whom
    is are was were do does did can could will would should shall may might have has
    tell spell convert translate set remind start stop cancel say give show play call
    """.split()
)


def is_preface(transcript: str) -> bool:
    """Whether a complete ``transcript`` is a short opener that people often go on after:
    a greeting, an acknowledgement or a filler of at most three words that does not open a
    question or a request ("Hello there.", "Hello?", "Okay.", "Well, yes."). "Who are you?",
    "Stop." and "Tell me a joke." are not prefaces."""
    text = transcript.strip()
    words = re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()
    if not words or len(words) > 3:
        return False
    return words[0] not in _ASKING


def quiet_needed(
    transcript: str,
    vad: VadConfig,
    voice: np.ndarray | None = None,
    ending: float | None = None,
) -> float:
    """Milliseconds of quiet after the audible end that end a turn whose pause was transcribed
    as ``transcript`` (``math.inf``: the transcript cannot end it; silence will). ``voice``:
    the prosodic features of the speech before the pause (``words.prosody.features``), and
    ``ending``: Whisper's P(the sentence ended there) (``voice.asr.Heard``), which the model
    weighs with the words (with ``vad.prosody``)."""
    if not re.search(r"[^\W_]", transcript):
        # nothing but punctuation ("." or "...": Whisper on a breath or a lone "um"): no words
        # to judge, and the model would read the bare full stop as a sentence's end
        return math.inf
    p = None
    if vad.endpoint == "model":
        heard = (voice, ending) if vad.prosody else (None, None)
        p = turn_model.probability(transcript, vad.turn_model, *heard)
    if p is not None:
        wait = turn_model.wait_ms(p, vad)
    elif is_complete(transcript):
        wait = vad.complete_ms
    else:
        return math.inf
    return max(wait, vad.preface_ms) if is_preface(transcript) else wait
