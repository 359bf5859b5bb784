"""The learned end-of-turn model in the pipeline: P(the user has finished) from the transcript
of a pause, and the wait after the audible end that this probability buys.

The model (trained by ``training.turn_model``, weights in ``models/turn/turn.npz``, its card
beside them) is read with numpy through ``words.utterance.finished``: ~0.05 ms a decision. It
is loaded once per process and shared by every conversation; a missing or unreadable file
gives None (and one logged warning), and ``voice.endpoint`` falls back to its rules.

The voice corrects the words: ``prosody.npz`` beside the weights (``training.turn_prosody``)
holds a logistic correction of the text model's log-odds by the pitch and loudness before the
pause (``words.prosody``) and by Whisper's own P(the sentence ended there) (``voice.asr.Heard``),
``logit p = a · logit p_text + w · features + c · logit ending + b``; where the ending is
unknown (a transcription endpoint, ``asr.url``; Whisper's 30 s path) a second correction,
fitted without it, is read from the same file. Without that file, with ``vad.prosody =
false``, or with too little voiced speech to read, the words alone decide.

The wait is LiveKit's idea made continuous: short when the words say the user is done, up to
a cap when they say more is coming. If pause lengths fall off exponentially (scale ``s``), the
wait that balances "the answer comes ``w`` ms late" against "the user is cut off" is linear in
the log-odds of being unfinished; so ``wait = half - s · ln(p / (1 - p))``, clamped to
[``vad.complete_ms``, ``vad.incomplete_ms``]: 700 ms at p = 0.5, ~260 ms at 0.9, 0 from about
0.97 on, and the whole cap below ~0.02.
"""

from __future__ import annotations

import functools
import logging
import math
from pathlib import Path

import numpy as np

from voice.config import VadConfig
from words import prosody
from words.utterance import finished

BUNDLED = Path(__file__).resolve().parent.parent / "models" / "turn"
_log = logging.getLogger(__name__)


def load(directory: str = "") -> dict[str, np.ndarray] | None:
    """The model's weights from ``directory`` (``""``: the bundled one), read once per process;
    None if they cannot be read (a warning is logged, once)."""
    return _read((Path(directory) if directory else BUNDLED) / "turn.npz")


@functools.cache
def _read(path: Path) -> dict[str, np.ndarray] | None:
    try:
        with np.load(path) as z:
            return {k: z[k] for k in ("keys", "emb", "w1", "b1", "w2", "b2")}
    except (OSError, KeyError, ValueError) as e:
        _log.warning("end-of-turn model unavailable (%s): using the endpoint rules", e)
        return None


def load_prosody(directory: str = "") -> dict[str, np.ndarray] | None:
    """The prosodic correction beside the model in ``directory``; None if there is none."""
    return _read_prosody((Path(directory) if directory else BUNDLED) / "prosody.npz")


@functools.cache
def _read_prosody(path: Path) -> dict[str, np.ndarray] | None:
    try:
        with np.load(path) as z:
            w = {k: z[k] for k in ("text", "w", "b", "names")}
            # the correction with Whisper's ending (older files have none)
            if "ending" in z.files:
                w["with_ending"] = {k: z[f"ending_{k}"] for k in ("text", "w", "b")}
                w["with_ending"]["ending"] = z["ending"]
    except (OSError, KeyError, ValueError) as e:
        _log.warning("end-of-turn prosody unavailable (%s): the words alone decide", e)
        return None
    if tuple(w["names"]) != prosody.NAMES:
        _log.warning("end-of-turn prosody %s reads other features: the words alone decide", path)
        return None
    return w


def probability(
    transcript: str,
    directory: str = "",
    voice: np.ndarray | None = None,
    ending: float | None = None,
) -> float | None:
    """P(the user has finished) after ``transcript``, said with the prosodic features
    ``voice`` (``words.prosody.features``; None: the words alone) and heard by Whisper as
    ending there with probability ``ending`` (None: unknown); None without a model."""
    weights = load(directory)
    if weights is None:
        return None
    p = finished(weights, transcript)
    correction = load_prosody(directory) if voice is not None else None
    if correction is None:
        return p
    if ending is not None and "with_ending" in correction:
        correction = correction["with_ending"]
    z = float(correction["text"]) * logit(p, 1e-6)
    z += float(np.dot(correction["w"], voice)) + float(correction["b"])
    if "ending" in correction:
        z += float(correction["ending"]) * logit(ending)
    return 1.0 / (1.0 + math.exp(-min(max(z, -30.0), 30.0)))


def logit(p: float, eps: float = 1e-4) -> float:
    """ln(p / (1 - p)), ``p`` kept within [eps, 1 - eps] (by default as Whisper's ending is
    read in training: never certain)."""
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


def wait_ms(p: float, vad: VadConfig) -> float:
    """Quiet after the audible end that ends a turn whose transcript is finished with
    probability ``p`` (monotone: the surer, the shorter)."""
    w = vad.model_half_ms - vad.model_scale_ms * logit(p, 1e-6)
    return min(max(w, vad.complete_ms), vad.incomplete_ms)
