"""Echo suppression: the assistant must not take its own voice, heard by the microphone through
loudspeakers, for the user talking over it.

The pipeline knows exactly what it plays and when (the *reference*, placed on the microphone's
stream clock), so this is reference-based. Per 10 ms frame it compares the microphone's energy
with the loudest reference energy of the last ``max_delay_ms`` (the speaker-to-microphone delay
is unknown). The coupling (echo energy / reference energy) is learned as a low percentile of
that ratio over the last two seconds of playback: the user talking over the reply only raises
the ratio, so the low percentile stays the echo's. A frame more than ``margin_db`` above the
expected echo is the user and passes; otherwise, while the reference is playing, it is silenced
before the VAD sees it. When nothing is playing the microphone passes untouched.

This is the classic telephone echo suppressor, not a linear echo canceller: while the assistant
speaks, only speech clearly louder than its echo gets through (which is what a barge-in is).
The microphone and reference energies are kept frame for frame from the start (an earlier
version recorded the microphone only while something played, which shifted the two envelopes
against each other and let echo with a delay of 80 ms or more leak through at the first
estimate). Tested with delays of 10 to 120 ms. docs/turn-taking.md says what else was tried.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from voice.audio import resample


class EchoSuppressor:
    """Gate the microphone against the echo of ``ref``; one per conversation (it learns)."""

    def __init__(
        self, sample_rate: int = 16000, max_delay_ms: int = 300, margin_db: float = 6.0
    ) -> None:
        self.frame = sample_rate // 100  # 10 ms
        self.margin = 10.0 ** (margin_db / 10.0)
        self.max_delay = max(1, max_delay_ms // 10)  # frames
        # Energy per frame of the microphone and of the reference, frame for frame (the same
        # index is the same 10 ms): 2 s plus the longest delay.
        self._em: deque[float] = deque(maxlen=200 + self.max_delay)
        self._er: deque[float] = deque(maxlen=200 + self.max_delay)
        self._mic = np.zeros(0, dtype=np.int16)
        self._ref = np.zeros(0, dtype=np.int16)
        self._out = np.zeros(0, dtype=np.int16)
        self.delay = 0  # frames from reference to its echo (learned)
        self.coupling = 1.0  # echo energy per unit of reference energy (learned; 1 until then)
        self._since_fit = 0
        self.suppressed = 0  # frames silenced so far

    def process(self, mic: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """``mic`` with echo-only frames silenced; the same length (up to one frame late while a
        partial frame waits for the rest)."""
        if len(mic) != len(ref):
            raise ValueError("mic and reference must have the same length")
        m = np.concatenate([self._mic, mic])
        r = np.concatenate([self._ref, ref])
        n = len(m) // self.frame
        out = [self._out]
        for i in range(n):
            s = slice(i * self.frame, (i + 1) * self.frame)
            out.append(self._gate(m[s], r[s]))
        self._mic, self._ref = m[n * self.frame :], r[n * self.frame :]
        y = np.concatenate(out)
        self._out = y[len(mic) :]
        return y[: len(mic)]

    def _fit(self) -> None:
        """Delay: where the energy envelopes match best; coupling: a low percentile of the
        microphone-to-reference energy ratio there (talking over the reply only raises it; a
        microphone that stays quiet while the reply plays, as with headphones, gives ~0)."""
        em_all = np.log10(np.asarray(self._em) + 1.0)  # [L]
        er = np.log10(np.asarray(self._er) + 1.0)  # [L], frame for frame
        n = len(em_all)
        t = n - self.max_delay  # the microphone frames compared, each delay against its past
        if t < 20:
            return
        em = em_all[n - t :]
        best, best_c = 0, -2.0
        for d in range(self.max_delay + 1):
            r = er[n - t - d : n - d]
            if r.std() < 1e-6 or em.std() < 1e-6:
                continue
            c = float(np.corrcoef(em, r)[0, 1])
            if c > best_c:
                best, best_c = d, c
        r = er[n - t - best : n - best]
        played = r > 2.0  # frames with audible reference (energy over 100, as in _gate)
        if played.sum() < 20:
            return
        loud = played & (r >= np.percentile(r[played], 50))
        self.delay = best
        self.coupling = min(1.0, float(10.0 ** np.percentile(em[loud] - r[loud], 50)))

    def _gate(self, mic: np.ndarray, ref: np.ndarray) -> np.ndarray:
        rf, mf = ref.astype(np.float64), mic.astype(np.float64)
        energy = float((mf * mf).mean())
        self._er.append(float((rf * rf).mean()))
        self._em.append(energy)
        recent = list(self._er)[-(self.max_delay + 1) :]
        if max(recent) < 1e2:  # nothing (audible) played lately: the microphone is the user's
            return mic
        self._since_fit += 1
        if self._since_fit >= 10:
            self._since_fit = 0
            self._fit()
        if self.coupling < 1.0:  # learned: the reference around the echo's delay
            k = len(recent) - 1 - self.delay
            echo_ref = max(recent[max(0, k - 3) : k + 4])
        else:  # not yet: anything played lately could be echoing now
            echo_ref = max(recent)
        if energy > self.margin * self.coupling * echo_ref:
            return mic
        self.suppressed += 1
        return np.zeros_like(mic)


class EchoPath:
    """One conversation's loudspeaker-to-microphone path: what the speaker played (the
    reference, placed on the microphone's stream clock) and the suppressor that gates the
    microphone against it.

    ``enabled``: a live microphone next to the loudspeaker playing the reply (not a remote
    client's: the page asks the browser for its echo canceller, and the server does not know
    when a remote client really plays each chunk); it acts only on a real-time stream.
    """

    def __init__(self, sample_rate: int, enabled: bool, margin_db: float = 6.0) -> None:
        self.sample_rate, self.enabled = sample_rate, enabled
        self.suppressor = EchoSuppressor(sample_rate, margin_db=margin_db)
        self.active = False
        self._t0: float | None = None  # wall time of stream offset 0
        self._played: list[tuple[int, np.ndarray]] = []  # (stream offset, audio) reference
        self._fed = 0  # samples of microphone audio fed

    def start(self, t0: float, realtime: bool) -> None:
        """A stream begins: its offset 0 is wall time ``t0``."""
        self._t0, self.active = t0, self.enabled and realtime
        self._fed, self._played = 0, []

    def process(self, mic: np.ndarray) -> np.ndarray:
        """The next microphone chunk, gated against what was played meanwhile."""
        if self.active:
            mic = self.suppressor.process(mic, self.reference(self._fed, len(mic)))
        self._fed += len(mic)
        return mic

    def played(self, start: float, audio: np.ndarray, rate: int) -> None:
        """``audio`` (at ``rate``) is heard from wall time ``start`` on."""
        if not self.active or self._t0 is None:
            return
        a = resample(audio, rate, self.sample_rate)
        self._played.append((round((start - self._t0) * self.sample_rate), a))

    def cut(self, t: float) -> None:
        """Playback stopped at wall time ``t``: nothing after it is played."""
        if self._t0 is None:
            return
        cut = round((t - self._t0) * self.sample_rate)
        self._played = [(o, a[: max(0, cut - o)]) for o, a in self._played if o < cut]

    def reference(self, pos: int, n: int) -> np.ndarray:
        """The reference for microphone samples ``pos .. pos + n`` (zeros where nothing)."""
        ref = np.zeros(n, dtype=np.int16)
        self._played = [(o, a) for o, a in self._played if o + len(a) > pos]
        for o, a in self._played:
            lo, hi = max(pos, o), min(pos + n, o + len(a))
            if lo < hi:
                ref[lo - pos : hi - pos] = a[lo - o : hi - o]
        return ref
