"""The learned end-of-turn model in the pipeline: P(the user has finished) from the transcript
of a pause, and the wait after the audible end that this probability buys.

The model (trained by ``training.turn_model``, weights in ``models/turn/turn.npz``, its card
beside them) is read with numpy through ``words.utterance.finished``: ~0.05 ms a decision. It
is loaded once per process and shared by every conversation; a missing or unreadable file
gives None (and one logged warning), and ``voice.endpoint`` falls back to its rules.

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


def probability(transcript: str, directory: str = "") -> float | None:
    """P(the user has finished) after ``transcript``; None without a model."""
    weights = load(directory)
    return None if weights is None else finished(weights, transcript)


def wait_ms(p: float, vad: VadConfig) -> float:
    """Quiet after the audible end that ends a turn whose transcript is finished with
    probability ``p`` (monotone: the surer, the shorter)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    w = vad.model_half_ms - vad.model_scale_ms * math.log(p / (1 - p))
    return min(max(w, vad.complete_ms), vad.incomplete_ms)
