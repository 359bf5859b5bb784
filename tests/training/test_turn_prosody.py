"""training.turn_prosody: the corpus of said-and-cut sentences, the logistic fit, the card."""

from __future__ import annotations

import random

import numpy as np

from training.turn_grammar import HELDOUT
from training.turn_prosody import card, corpus, fit, room, split_shapes, table, weights_file
from voice import turn_model
from voice.asr import Transcriber
from words import prosody


def test_the_shapes_are_the_word_models_unseen_ones_split_in_two() -> None:
    fit_shapes = {s[0] for s in split_shapes("fit")}
    judge = {s[0] for s in split_shapes("judge")}
    assert fit_shapes and judge and not fit_shapes & judge
    assert fit_shapes | judge == set(HELDOUT)


def test_the_fit_recovers_known_weights() -> None:
    rng = np.random.default_rng(0)
    n = 20000
    t = rng.normal(0, 2, n)
    x = rng.normal(0, 1, (n, len(prosody.NAMES)))
    true_w = np.array([0.5, -1.0, 0.0, 2.0, -0.5, 0.3])
    z = 0.7 * t + x @ true_w - 1.5
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
    w = fit({"t": t, "x": x, "y": y}, l2=0.0)
    assert abs(float(w["text"]) - 0.7) < 0.06
    assert np.allclose(w["w"], true_w, atol=0.08)
    assert abs(float(w["b"]) + 1.5) < 0.08


def test_the_fit_recovers_the_weight_of_whispers_ending() -> None:
    rng = np.random.default_rng(1)
    n = 20000
    t, e = rng.normal(0, 2, n), rng.normal(1, 2, n)
    x = rng.normal(0, 1, (n, len(prosody.NAMES)))
    z = 0.5 * t + x @ np.full(len(prosody.NAMES), 0.2) + 0.8 * e - 1.0
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
    w = fit({"t": t, "x": x, "e": e, "y": y}, l2=0.0)
    assert abs(float(w["ending"]) - 0.8) < 0.06 and abs(float(w["text"]) - 0.5) < 0.06
    without = fit({"t": t, "x": x, "e": e, "y": y}, ending=False)
    assert "ending" not in without
    stored = weights_file(w, without)  # the plain names: the correction without the ending
    assert stored["text"] == without["text"] and stored["ending_text"] == w["text"]
    assert np.array_equal(stored["ending_w"], w["w"]) and stored["ending"] == w["ending"]


def test_a_few_sentences_said_cut_and_heard_by_whisper() -> None:
    words = turn_model.load()
    whisper = Transcriber(None, window_s=15)
    rows = corpus("fit", 4, words, whisper.hear, seed=3, log=lambda *_: None)
    y = rows["y"]
    assert rows["x"].shape == (len(y), len(prosody.NAMES)) and len(rows["t"]) == len(y)
    assert 1 <= y.sum() <= 4 < len(y)  # one finished cut per sentence (if it had voicing)
    assert np.isfinite(rows["x"]).all() and np.isfinite(rows["t"]).all()
    assert len(rows["e"]) == len(y) and np.isfinite(rows["e"]).all()
    # Whisper hears a sentence's end as one more often than a cut inside it
    assert rows["e"][y == 1].mean() > rows["e"][y == 0].mean()


def test_room_noise_is_under_the_speech_and_sometimes_absent() -> None:
    t = np.arange(16000) / 16000
    speech = (np.sin(2 * np.pi * 150 * t) * 10000).astype(np.int16)
    outs = [room(speech, random.Random(i)) for i in range(20)]
    clean = sum(np.array_equal(o, speech) for o in outs)
    assert 3 <= clean <= 17
    for o in outs:
        noise = o.astype(np.float64) - speech
        if noise.any():
            snr = 10 * np.log10(np.mean(speech.astype(np.float64) ** 2) / np.mean(noise**2))
            assert 10 <= snr <= 42


def test_the_card_reports_both_rows() -> None:
    y = np.array([0, 0, 1, 1])
    meta = {
        "weights": {"text": 0.5, "bias": -1.0, "ending": 0.7, **{n: 0.1 for n in prosody.NAMES}},
        "judge_text_only": table(np.array([0.2, 0.6, 0.7, 0.4]), y),
        "judge_pitch_loudness": table(np.array([0.2, 0.4, 0.7, 0.5]), y),
        "judge_with_prosody": table(np.array([0.1, 0.3, 0.8, 0.6]), y),
        "sentences_fit": 4, "sentences_judge": 2, "shapes_fit": ["a"], "shapes_judge": ["b"],
        "speeds": [1.0], "said_and_cut_s": 1.0, "fit_s": 0.1,
    }  # fmt: skip
    text = card(meta)
    assert "| words alone | 4 |" in text and "| words, pitch and loudness | 4 |" in text
    assert "| words and voice (with Whisper's ending) | 4 |" in text and "+0.700 · logit" in text
    assert meta["judge_with_prosody"]["accuracy"] == 1.0
