"""The end-of-turn model's ear: how the voice at a pause shifts P(finished) from the words.

The text model (``training.turn_model``) cannot hear that "Can you help me" was said with the
pitch held up for "... write a birthday message". This stage learns a logistic correction on
top of its log-odds from the prosody of the speech before the pause (``words.prosody``):

    logit p = a · logit p_text + w · prosody + c · logit ending + b

where ``ending`` is Whisper's own P(the sentence ended there): its decoder's probability of a
final ".", "?", "!" or the end of the text right after the last word (``voice.asr.Heard``).
Whisper hears the audio, so that is an ear too: for intonation, and for a fragment it turned
into a sentence ("how deep is the" → "how deep is looked.", its full stop at 0.57).

Corpus: sentences of the text model's grammar (``training.turn_corpus``: fillers, openers and
optional ends as there) of the shapes the text model never saw (``turn_grammar.HELDOUT``), so
that ``a`` learns how far to trust the words on an unseen wording, as a user's is (on its own
training shapes the text model is nearly always right, and the voice would learn nothing).
Half of those shapes fit the correction, the other half judge it. Each sentence is said once,
whole, by Piper (``training.aligned_speech``) at a random speed (length_scale 0.8-1.25) with its
sampling noise on, half the time with white or brown noise at 12-40 dB under the speech
(:func:`room`), then cut after every word: the audio up to that word's end (with the 300 ms
before the speech and the 100 ms of quiet after it that the pipeline hands over at a pause),
the transcript as Whisper would write it (the text model's input) and Whisper's ending,
heard on the cut audio by the pipeline's own recogniser (the caller's ``hear``: this package
does not import ``voice``; ``diffvoice train-turn`` passes the bundled Whisper's). Only the cut
at the sentence's end is finished; every other cut kept the intonation of a sentence that goes
on. The proportion of finished rows is the text corpus's, so ``b`` keeps the text model's
calibration where the voice says nothing new.

One voice only: en_US-joe-medium is the one Piper voice to be had offline, so the ear has
heard one speaker at several speeds; its features are relative to the speaker's own pitch and
loudness (``words.prosody``) so that a lower or a faster voice reads the same.

    diffvoice train-turn      # the word model, then this: prosody.npz, prosody.json, the card
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from training.aligned_speech import AlignedVoice
from training.turn_corpus import (
    _EXCLUDED_KEYS,
    Grammar,
    _cut_short,
    _plain,
    _question,
    _with_fillers,
    cuts,
    key,
    render,
)
from training.turn_grammar import HELDOUT, SHAPES
from training.turn_model import table as finished_table
from words import prosody
from words.prosody import SAMPLE_RATE
from words.utterance import finished

SPEEDS = (0.8, 0.9, 1.0, 1.1, 1.25)
# what the pipeline hands over at a pause: its 300 ms pre-roll before the speech, and the
# ~100 ms of quiet that made it a pause
LEAD, TAIL = 3 * SAMPLE_RATE // 10, SAMPLE_RATE // 10


def room(audio: np.ndarray, rng: random.Random) -> np.ndarray:
    """``audio`` as a microphone in a room might have it: half the time clean, else with white
    or brown (integrated white) noise at 12-40 dB under the speech, through the quiet too."""
    if rng.random() < 0.5:
        return audio
    g = np.random.default_rng(rng.getrandbits(32))
    w = g.standard_normal(len(audio))
    if rng.random() < 0.5:
        w = np.cumsum(w)
        w -= np.convolve(w, np.ones(401) / 401, "same")  # brown, its drift taken off
    w /= max(float(np.sqrt(np.mean(w**2))), 1e-9)
    x = audio.astype(np.float64)
    loud = np.abs(x) > 0.05 * np.abs(x).max()
    speech_rms = float(np.sqrt(np.mean(x[loud] ** 2))) if loud.any() else 1.0
    noisy = x + w * speech_rms * 10 ** (-rng.uniform(12, 40) / 20)
    return np.clip(noisy, -32768, 32767).astype(np.int16)


def _logit(p: float, eps: float = 1e-6) -> float:
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


def split_shapes(split: str) -> list[tuple[str, str, str]]:
    """The text model's held-out shapes, alternately: ``fit`` (even places), ``judge`` (odd)."""
    held = sorted((s for s in SHAPES if s[0] in HELDOUT), key=lambda s: s[0])
    return held[0::2] if split == "fit" else held[1::2]


def corpus(
    split: str, sentences: int, text_weights: dict, hear: Callable, seed: int = 0, log=print
) -> dict:
    """Rows of ``split`` (``fit`` or ``judge``): text log-odds, prosodic features, Whisper's
    ending log-odds (``hear(audio).ending``, as ``voice.asr.Transcriber.hear``), label, shape."""
    rng = random.Random(f"{seed}:prosody:{split}")
    shapes = split_shapes(split)
    grammar = Grammar(shapes, rng)
    voices = {s: AlignedVoice(length_scale=s, variation=True) for s in SPEEDS}
    X, T, E, Y, S = [], [], [], [], []
    t0 = time.perf_counter()
    done = 0
    while done < sentences:
        name, kind, template = rng.choice(shapes)
        chunks = _with_fillers(_cut_short(grammar.sample(template), rng), rng)
        if key(_plain(chunks)) in _EXCLUDED_KEYS:
            continue
        question = _question(chunks, kind)
        words = [w + ("," if c.comma and j == len(c.words) - 1 and i < len(chunks) - 1 else "")
                 for i, c in enumerate(chunks) for j, w in enumerate(c.words)]  # fmt: skip
        said = voices[rng.choice(SPEEDS)].say(" ".join(words) + ("?" if question else "."))
        done += 1
        audio = np.concatenate([np.zeros(LEAD, np.int16), said.audio, np.zeros(TAIL, np.int16)])
        audio = room(audio, rng)
        n = 0
        for cut, fin in cuts(chunks):
            n += 1
            end = said.word_ends[n - 1]
            if end is None:
                continue
            f = prosody.features(audio[: LEAD + end + TAIL])
            if f is None:
                continue
            ending = hear(audio[: LEAD + end + TAIL]).ending
            if ending is None:  # Whisper heard no word: the pipeline would not decide either
                continue
            text = render(cut, fin, question, rng)
            X.append(f)
            E.append(_logit(ending, 1e-4))
            T.append(_logit(finished(text_weights, text)))
            Y.append(int(fin))
            S.append(name)
        if done % 50 == 0:
            log(f"  {split}: {done}/{sentences} sentences, {len(Y)} cuts, "
                f"{time.perf_counter() - t0:.0f} s")  # fmt: skip
    return {"x": np.array(X), "t": np.array(T), "e": np.array(E), "y": np.array(Y), "shape": S}


def fit(rows: dict, l2: float = 1.0, iters: int = 30, ending: bool = True) -> dict[str, np.ndarray]:
    """Logistic regression of the label on [text log-odds, features, Whisper's ending log-odds
    (with ``ending`` and ``rows["e"]``), 1] (Newton's method, an L2 penalty on all but the
    bias)."""
    ending = ending and "e" in rows
    cols = [rows["t"], rows["x"]] + ([rows["e"]] if ending else [])
    A = np.column_stack([*cols, np.ones(len(rows["y"]))])
    y = rows["y"].astype(np.float64)
    w = np.zeros(A.shape[1])
    w[0] = 1.0  # start from the text model as it is
    reg = np.full(A.shape[1], l2)
    reg[-1] = 0.0

    def loss(w: np.ndarray) -> float:
        z = A @ w
        return float(np.sum(np.logaddexp(0, z) - y * z) + 0.5 * np.sum(reg * w * w))

    for _ in range(iters):
        p = 1 / (1 + np.exp(-(A @ w)))
        g = A.T @ (p - y) + reg * w
        H = (A * (p * (1 - p))[:, None]).T @ A + np.diag(reg + 1e-6)
        step = np.linalg.solve(H, g)
        before, t = loss(w), 1.0
        while loss(w - t * step) > before and t > 1e-4:  # Newton, damped where it overshoots
            t /= 2
        w = w - t * step
        if np.abs(t * step).max() < 1e-6:
            break
    k = 1 + len(prosody.NAMES)
    out = {"text": np.float32(w[0]), "w": w[1:k].astype(np.float32),
           "b": np.float32(w[-1]), "names": np.array(prosody.NAMES)}  # fmt: skip
    if ending:
        out["ending"] = np.float32(w[k])
    return out


def weights_file(with_ending: dict, without: dict) -> dict[str, np.ndarray]:
    """What ``prosody.npz`` holds: the correction without Whisper's ending under the plain
    names (read when the ending is unknown: a transcription endpoint, ``asr.url``; Whisper's
    30 s path; or an older reader) and the one with it under ``ending_*``."""
    return {**without, "ending": with_ending["ending"],
            **{f"ending_{k}": with_ending[k] for k in ("text", "w", "b")}}  # fmt: skip


def combined(weights: dict, t: np.ndarray, x: np.ndarray, e: np.ndarray | None = None):
    z = weights["text"] * t + x @ weights["w"] + weights["b"]
    if "ending" in weights:
        z = z + weights["ending"] * e
    return 1 / (1 + np.exp(-z))


def table(p: np.ndarray, y: np.ndarray) -> dict:
    """The word model's table (``training.turn_model.table``: precision, recall, accuracy of
    "finished" at p >= 0.5, unfinished cuts called finished) and the log loss."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    return {**finished_table(p, y), "log_loss": round(log_loss, 4)}


CARD_HEADING = "## The voice: prosody (`prosody.npz`)"


def card(meta: dict) -> str:
    """The model card's section on this stage."""
    w = meta["weights"]
    rows = [
        ("words alone", meta["judge_text_only"]),
        ("words, pitch and loudness", meta["judge_pitch_loudness"]),
        ("words and voice (with Whisper's ending)", meta["judge_with_prosody"]),
    ]
    lines = [
        CARD_HEADING,
        "",
        "A logistic correction of the words' log-odds by the pitch and loudness of the speech "
        "before the pause (`words/prosody.py`) and by Whisper's P(the sentence ended there) "
        "(`voice/asr.py`, `Heard.ending`), trained by `training/turn_prosody.py` "
        "(`diffvoice train-turn` runs it after the words): "
        f"logit p = {w['text']:.3f} · logit p_words + Σ wᵢ fᵢ "
        f"{w['ending']:+.3f} · logit ending {w['bias']:+.3f}, with "
        + ", ".join(f"{n} {w[n]:+.3f}" for n in prosody.NAMES)
        + ". Where Whisper's ending is unknown (a transcription endpoint, the 30 s path) a second "
        "correction fitted without it decides (the middle row below).",
        "",
        f"Corpus: {meta['sentences_fit']} sentences of the shapes the word model never saw "
        f"({', '.join(meta['shapes_fit'])}) said whole by Piper (en_US-joe-medium, the one "
        f"offline voice; length_scale {meta['speeds']}, sampling noise on) and cut after every "
        "word with the phoneme alignments, each cut heard by the bundled Whisper (tiny.en, the "
        "pipeline's 15 s window): only the cut at the end is finished. Judged on "
        f"{meta['sentences_judge']} sentences of the other held-out shapes "
        f"({', '.join(meta['shapes_judge'])}), said and cut the same way. Said, cut and read "
        f"in {meta['said_and_cut_s']} s on 2 CPU cores; fitted in {meta['fit_s']} s "
        "(Newton, L2 1.0).",
        "",
        '| judged on unseen shapes, "finished" at p >= 0.5 | cuts | precision | recall | '
        "accuracy | unfinished called finished | log loss |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, t in rows:
        lines.append(f"| {name} | {t['rows']} | {t['precision']} | {t['recall']} | "
                     f"{t['accuracy']} | {t['cut_off_rate']} | {t['log_loss']} |")  # fmt: skip
    lines += [
        "",
        "What it has not heard: any voice but joe's, real microphones, real hesitations. A "
        "speaker who stops mid-sentence on a falling pitch (as if done) reads as finished.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None, hear: Callable | None = None) -> int:
    """``hear``: audio → an object with ``.ending`` (``voice.asr.Transcriber.hear``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="models/turn")
    ap.add_argument("--sentences", type=int, default=300, help="sentences said to fit")
    ap.add_argument("--heldout", type=int, default=200, help="sentences said to judge")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if hear is None:
        raise SystemExit("the ear needs Whisper: run it as `diffvoice train-turn`")
    out = Path(args.out)
    try:
        with np.load(out / "turn.npz") as z:
            text_weights = {k: z[k] for k in z.files}
    except OSError:
        hint = "train it first (python -m training.turn_model)"
        raise SystemExit(f"no word model in {out}: {hint}") from None
    t0 = time.perf_counter()
    train_rows = corpus("fit", args.sentences, text_weights, hear, args.seed)
    said_s = time.perf_counter() - t0
    held_rows = corpus("judge", args.heldout, text_weights, hear, args.seed)
    t1 = time.perf_counter()
    weights = fit(train_rows)
    fit_s = time.perf_counter() - t1
    pitch_loudness = fit(train_rows, ending=False)  # where Whisper's ending is unknown
    np.savez(out / "prosody.npz", **weights_file(weights, pitch_loudness))
    text_only = 1 / (1 + np.exp(-held_rows["t"]))
    meta = {
        "seed": args.seed,
        "sentences_fit": args.sentences,
        "shapes_fit": [s[0] for s in split_shapes("fit")],
        "shapes_judge": [s[0] for s in split_shapes("judge")],
        "sentences_judge": args.heldout,
        "speeds": list(SPEEDS),
        "said_and_cut_s": round(said_s, 1),
        "fit_s": round(fit_s, 3),
        "weights": {"text": float(weights["text"]), "bias": float(weights["b"]),
                    "ending": float(weights["ending"]),
                    **{n: float(v) for n, v in zip(prosody.NAMES, weights["w"], strict=True)}},
        "weights_without_ending": {
            "text": float(pitch_loudness["text"]), "bias": float(pitch_loudness["b"]),
            **{n: float(v) for n, v in zip(prosody.NAMES, pitch_loudness["w"], strict=True)}},
        "judge_text_only": table(text_only, held_rows["y"]),
        "judge_pitch_loudness": table(
            combined(pitch_loudness, held_rows["t"], held_rows["x"]), held_rows["y"]),
        "judge_with_prosody": table(
            combined(weights, held_rows["t"], held_rows["x"], held_rows["e"]), held_rows["y"]),
        "fit_with_prosody": table(
            combined(weights, train_rows["t"], train_rows["x"], train_rows["e"]), train_rows["y"]),
    }  # fmt: skip
    (out / "prosody.json").write_text(json.dumps(meta, indent=1) + "\n")
    readme = out / "README.md"
    text = readme.read_text() if readme.exists() else ""
    text = text.split(CARD_HEADING)[0].rstrip() + "\n\n" if text else ""
    readme.write_text(text + card(meta))
    a, b = meta["judge_text_only"], meta["judge_with_prosody"]
    print(
        f"judged on unseen shapes ({a['rows']} cuts): words alone accuracy {a['accuracy']}, "
        f"cut-off rate {a['cut_off_rate']}, log loss {a['log_loss']}; with the voice "
        f"{b['accuracy']}, {b['cut_off_rate']}, {b['log_loss']} (said and cut in {said_s:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
