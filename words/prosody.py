"""How the last words before a pause were said: pitch and loudness at the end of speech, the
cues a listener hears a sentence end by, for the end-of-turn model (beside
``words.utterance``, what it reads of the words; here so that both the pipeline and its
training read the same features).

A finished statement ends on a fall, a yes/no question on a rise; a speaker who stops for a
word mid-sentence holds the pitch where it was. The words alone cannot tell "Can you help
me … write a birthday message" from "Can you help me?", nor "Who painted the …" from Whisper's
"who painted that?"; the voice often can.

:func:`features` reads the last 2.5 s of an utterance (16 kHz int16): a pitch track (the
normalised autocorrelation of 40 ms frames every 10 ms, 60-400 Hz, voiced where it peaks above
0.5 and the frame is within 30 dB of the loudest) and frame energies, and gives, relative to
the speaker's own median in that stretch (so a low or a high voice reads the same):

- the pitch of the last voiced 50 ms, in semitones, and its square (rise and fall both end);
- the pitch slope over the last 250 ms of voicing, semitones per 100 ms, and its square;
- the loudness of the last voiced 100 ms, dB, over the room's noise (the quietest frames'
  power is taken off every frame's);
- how long the last voiced stretch lasted, log of its ratio to the median stretch
  (lengthening before a boundary).

Numpy only, ~2 ms on 2 cores. Too little voicing (< 150 ms) gives None: no opinion.
"""

from __future__ import annotations

import numpy as np

SAMPLE_RATE = 16000  # the pipeline's rate

FRAME, HOP = 640, 160  # 40 ms frames every 10 ms
LAG_MIN, LAG_MAX = SAMPLE_RATE // 400, SAMPLE_RATE // 60
SPAN_S = 2.5
NAMES = ("f0_end", "f0_end_sq", "slope", "slope_sq", "loud_end", "last_run")

_WINDOW = np.hanning(FRAME).astype(np.float32)
# the window's own taper lowers the autocorrelation with the lag: each frame's is divided by it
_TAPER = np.correlate(np.hanning(FRAME), np.hanning(FRAME), "full")[FRAME - 1 : FRAME + LAG_MAX + 1]
_TAPER = np.maximum(_TAPER / _TAPER[0], 1e-3)
# a periodic sound correlates as well at two and three periods, which would read as the pitch
# an octave (or more) down: longer lags pay a small cost per octave (Praat's idea)
_OCTAVE_COST = 0.04 * np.log2(np.arange(LAG_MIN, LAG_MAX + 1) / LAG_MIN)


def track(audio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per 10 ms frame of ``audio`` (int16 or float, 16 kHz): F0 in Hz (0: unvoiced) and the
    energy in dB."""
    x = np.asarray(audio, dtype=np.float32)
    if len(x) < FRAME:
        return np.zeros(0), np.zeros(0)
    n = 1 + (len(x) - FRAME) // HOP
    idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
    frames = x[idx]
    frames = frames - frames.mean(axis=1, keepdims=True)
    power = np.mean(frames**2, axis=1)
    # the room's own level (the quietest frames: the lead-in, the pause, if they are 15 dB
    # under the median) taken off, so that noise does not fill in how far the voice falls
    floor = float(np.percentile(power, 5))
    if floor > float(np.median(power)) * 10 ** (-15 / 10):  # no quiet in the stretch: unknown
        floor = 0.0
    energy_db = 10 * np.log10(np.maximum(power - floor, 1e-3 * max(floor, 1.0)) + 1e-3)
    spec = np.fft.rfft(frames * _WINDOW, 2 * FRAME, axis=1)
    ac = np.fft.irfft(np.abs(spec) ** 2, axis=1)[:, : LAG_MAX + 2]
    nccf = ac / np.maximum(ac[:, :1], 1e-9) / _TAPER
    band = nccf[:, LAG_MIN : LAG_MAX + 1]
    best = np.argmax(band - _OCTAVE_COST, axis=1)
    peak = band[np.arange(n), best]
    lag = (best + LAG_MIN).astype(np.float64)
    # parabolic interpolation around the peak
    inner = (best > 0) & (best < band.shape[1] - 1)
    i = np.where(inner)[0]
    a, b, c = band[i, best[i] - 1], band[i, best[i]], band[i, best[i] + 1]
    den = a - 2 * b + c
    lag[i] += np.where(np.abs(den) > 1e-9, 0.5 * (a - c) / np.where(den == 0, 1, den), 0.0)
    loud = energy_db > energy_db.max() - 30
    voiced = (peak > 0.5) & loud
    f0 = np.where(voiced, SAMPLE_RATE / lag, 0.0)
    return f0, energy_db


def _runs(voiced: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each stretch of voiced frames."""
    out, start = [], None
    for i, v in enumerate(voiced):
        if v and start is None:
            start = i
        elif not v and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(voiced)))
    return out


def features(audio: np.ndarray) -> np.ndarray | None:
    """The prosodic features (:data:`NAMES`) of the end of ``audio``; None if it holds too
    little voiced speech to say."""
    f0, energy = track(np.asarray(audio)[-int(SPAN_S * SAMPLE_RATE) :])
    voiced = f0 > 0
    if voiced.sum() < 15:
        return None
    # bridge gaps of one or two frames (a stop consonant) so a word is one stretch
    runs = _runs(voiced)
    merged: list[list[int]] = []
    for s, e in runs:
        if merged and s - merged[-1][1] <= 2:
            merged[-1][1] = e
        else:
            merged.append([s, e])
    semis = np.zeros_like(f0)
    ref = float(np.median(f0[voiced]))
    semis[voiced] = 12 * np.log2(f0[voiced] / ref)
    # an octave error (a frame's pitch read double or half) is not intonation: fold it back
    semis = np.where(semis > 8, semis - 12, np.where(semis < -8, semis + 12, semis))
    v_idx = np.where(voiced)[0]
    last5 = v_idx[-5:]
    f0_end = float(np.median(semis[last5]))
    tail = v_idx[-25:]
    t = (tail - tail[-1]) / 10.0  # in 100 ms
    slope = float(np.polyfit(t, semis[tail], 1)[0]) if np.ptp(t) > 0 else 0.0
    slope = float(np.clip(slope, -6, 6))
    loud_end = float(np.mean(energy[v_idx[-10:]]) - np.median(energy[voiced]))
    lengths = np.array([e - s for s, e in merged], dtype=np.float64)
    last_run = float(np.log(lengths[-1] / max(np.median(lengths), 1.0)))
    return np.array([f0_end, f0_end**2 / 10, slope, slope**2 / 10, loud_end / 10, last_run])
