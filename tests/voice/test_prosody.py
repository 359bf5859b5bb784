"""words.prosody, training.aligned_speech and the voice in the end-of-turn decision.

The pitch tracker must read a voice's pitch and its movement at the end; the aligned voice must
put its word boundaries where Whisper hears the words end; and the model must hear a sentence
that goes on ("Can you help me … write a birthday message") as less finished than the same
words said as a question."""

from __future__ import annotations

import math

import numpy as np
import pytest

from training.aligned_speech import AlignedVoice
from voice import turn_model
from voice.audio import SAMPLE_RATE
from voice.config import load_config
from voice.endpoint import quiet_needed
from words import prosody

VAD = load_config(None, []).vad
VAD_WINDOW = load_config(None, []).asr.window_s


def glide(f_start: float, f_end: float, seconds: float = 1.2, tail: float = 0.3) -> np.ndarray:
    """A voiced sound (five harmonics) at ``f_start`` Hz, gliding to ``f_end`` over its last
    ``tail`` seconds."""
    n = int(seconds * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    f = np.where(t < seconds - tail, f_start,
                 f_start + (f_end - f_start) * (t - (seconds - tail)) / tail)  # fmt: skip
    phase = 2 * np.pi * np.cumsum(f) / SAMPLE_RATE
    x = sum(np.sin(k * phase) / k for k in range(1, 6))
    return (x * 8000).astype(np.int16)


@pytest.mark.parametrize("hz", [85.0, 120.0, 210.0, 330.0])
def test_track_reads_the_pitch_of_a_steady_voice(hz) -> None:
    f0, energy = prosody.track(glide(hz, hz))
    voiced = f0[f0 > 0]
    assert len(voiced) > 0.9 * len(f0)
    assert abs(np.median(voiced) / hz - 1) < 0.02
    assert np.ptp(energy) < 3


def test_noise_and_silence_have_no_pitch() -> None:
    rng = np.random.default_rng(0)
    noise = (rng.standard_normal(SAMPLE_RATE) * 3000).astype(np.int16)
    assert prosody.features(noise) is None
    assert prosody.features(np.zeros(SAMPLE_RATE, np.int16)) is None
    assert prosody.features(glide(120, 120, seconds=0.1, tail=0.05)) is None  # too short


def test_features_hear_a_fall_a_rise_and_a_level_end() -> None:
    fall, rise, level = (prosody.features(glide(120, f)) for f in (90.0, 160.0, 120.0))
    names = prosody.NAMES
    f0, slope = names.index("f0_end"), names.index("slope")
    assert fall[f0] < -3 and fall[slope] < -0.5
    assert rise[f0] > 3 and rise[slope] > 0.5
    assert abs(level[f0]) < 0.5 and abs(level[slope]) < 0.3
    # relative to the speaker: the same glide in a voice a quarter lower reads the same
    low = prosody.features(glide(90, 67.5))
    assert abs(low[f0] - fall[f0]) < 0.5


@pytest.fixture(scope="module")
def aligned() -> AlignedVoice:
    return AlignedVoice()


def test_word_ends_are_where_whisper_hears_the_words_end(aligned, transcriber) -> None:
    text = "What is the capital of France?"
    said = aligned.say(text)
    ends = said.word_ends
    assert len(ends) == 6 and all(e is not None for e in ends)
    assert ends == sorted(ends) and ends[-1] <= len(said.audio)
    quiet = np.zeros(SAMPLE_RATE // 2, np.int16)
    first = transcriber.transcribe(np.concatenate([quiet, said.audio[: ends[4]], quiet]))
    assert "capital" in first.lower() and "france" not in first.lower(), first
    rest = transcriber.transcribe(np.concatenate([quiet, said.audio[ends[4] :], quiet]))
    assert "france" in rest.lower() and "capital" not in rest.lower(), rest


def test_a_word_espeak_runs_into_the_next_is_cut_inside_the_group(aligned) -> None:
    # espeak says "in the" as one group (ɪnðə): the cut after "in" falls inside it
    said = aligned.say("How many planets are in the solar system?")
    ends = said.word_ends
    assert all(e is not None for e in ends) and ends == sorted(ends)
    assert ends[4] < ends[5]  # "in" ends before "the"


def test_the_voice_hears_a_sentence_that_goes_on(aligned) -> None:
    """ "Can you help me" cut from "... write a birthday message?" (the pitch held for what
    follows) is less finished, and waits longer, than the words said as a question."""
    going_on = aligned.say("Can you help me write a birthday message?")
    asked = aligned.say("Can you help me?")
    lead, tail = np.zeros(SAMPLE_RATE * 3 // 10, np.int16), np.zeros(SAMPLE_RATE // 10, np.int16)

    def at_pause(audio: np.ndarray) -> np.ndarray:  # as the pipeline hands it over
        return prosody.features(np.concatenate([lead, audio, tail]))

    cut = at_pause(going_on.audio[: going_on.word_ends[3]])
    whole = at_pause(asked.audio[: asked.word_ends[-1]])
    heard = "Can you help me?"  # what Whisper writes for both
    p_cut = turn_model.probability(heard, voice=cut)
    p_whole = turn_model.probability(heard, voice=whole)
    assert p_cut < p_whole - 0.05, (p_cut, p_whole)
    assert quiet_needed(heard, VAD, cut) > quiet_needed(heard, VAD, whole) + 50


def test_without_the_voice_the_words_decide(tmp_path) -> None:
    text = "What is the capital of France?"
    assert turn_model.probability(text, voice=None) == turn_model.probability(text)
    words_only = load_config(None, ["vad.prosody=false"]).vad
    going_on = prosody.features(glide(120, 120))
    assert quiet_needed(text, words_only, going_on) == quiet_needed(text, words_only)
    # a model folder without prosody.npz: the words alone, no error
    (tmp_path / "turn.npz").write_bytes((turn_model.BUNDLED / "turn.npz").read_bytes())
    p = turn_model.probability(text, str(tmp_path), going_on)
    assert p is not None and math.isclose(p, turn_model.probability(text))


def test_whispers_ending_moves_the_decision_and_without_it_the_voice_alone_corrects(
    tmp_path,
) -> None:
    heard, voice = "Can you help me?", prosody.features(glide(120, 100))
    sure = turn_model.probability(heard, voice=voice, ending=0.95)
    unsure = turn_model.probability(heard, voice=voice, ending=0.3)
    assert unsure < sure
    assert quiet_needed(heard, VAD, voice, 0.3) > quiet_needed(heard, VAD, voice, 0.95)
    # a file with only the correction fitted without the ending (as an older one): the ending
    # is ignored, and an unknown ending with the bundled file gives that correction's answer
    (tmp_path / "turn.npz").write_bytes((turn_model.BUNDLED / "turn.npz").read_bytes())
    with np.load(turn_model.BUNDLED / "prosody.npz") as z:
        np.savez(tmp_path / "prosody.npz", **{k: z[k] for k in ("text", "w", "b", "names")})
    a = turn_model.probability(heard, str(tmp_path), voice, 0.95)
    assert math.isclose(a, turn_model.probability(heard, str(tmp_path), voice, 0.3))
    assert math.isclose(a, turn_model.probability(heard, voice=voice), rel_tol=1e-9)
    assert a != sure


def test_a_sentence_that_goes_on_waits_longer_with_what_whisper_heard() -> None:
    """The whole decision as the pipeline makes it at a pause: Whisper's text and ending of the
    audio, the voice's features, the wait."""
    from voice.asr import Transcriber

    whisper = Transcriber(device="cpu", window_s=VAD_WINDOW)
    aligned = AlignedVoice()
    going_on = aligned.say("Can you help me write a birthday message?")
    asked = aligned.say("Can you help me?")
    lead, tail = np.zeros(SAMPLE_RATE * 3 // 10, np.int16), np.zeros(SAMPLE_RATE // 10, np.int16)
    waits = []
    for said in (going_on.audio[: going_on.word_ends[3]], asked.audio):
        audio = np.concatenate([lead, said, tail])
        h = whisper.hear(audio)
        waits.append(quiet_needed(h.text, VAD, prosody.features(audio), h.ending))
    assert waits[0] > waits[1] + 100, waits
