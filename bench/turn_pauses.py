"""The end-of-turn decision alone, replayed offline over the held-out questions of
``bench/turns.py``: every pause the turn detector finds, what Whisper wrote for it, P(finished)
from the words and from words and voice, the wait that buys, and how long the user really
stayed quiet. Two minutes on 2 cores instead of the half hour of the served benchmark, so a
change to the model, its features or the wait can be judged before the real run.

Each question is rendered as ``bench/turns.py`` streams it (same voices, same cuts) and fed to
``voice.vad.TurnDetector`` with the configured settings; each ``SpeechPaused`` is transcribed by
the bundled Whisper on the same 15 s window (its text and its P(the sentence ended there)) and
judged by ``voice.endpoint.quiet_needed``, as ``Speculator`` does. A pause inside a question
is **early** when its wait is shorter than the quiet that followed it (the user was still
pausing when the turn would have ended); the question's real end gives the wait a user would
feel there. By default this ignores the time to answer (Whisper, the reply and the first
audio take ~400-650 ms here, so a short wait is free in the served run and a pause shorter
than that is never answered early): it counts the endpoint's mistakes, not the bench's;
``--ready-ms`` says how long an answer takes, and shorter pauses no longer count. The table
also scans the wait function (``vad.model_half_ms``, ``vad.model_scale_ms``) for the trade
between early answers and the wait at the real end.

    python bench/turn_pauses.py                 # the held-out set, table and a JSON line
    python bench/turn_pauses.py --show          # every pause: transcript, p, wait, quiet
    python bench/turn_pauses.py --set vad.prosody=false
    python bench/turn_pauses.py --ready-ms 400   # as the served bench would count
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turns import SETS, make_questions  # noqa: E402

from voice import turn_model  # noqa: E402
from voice.asr import Transcriber  # noqa: E402
from voice.config import load_config  # noqa: E402
from voice.endpoint import quiet_needed  # noqa: E402
from voice.vad import SpeechPaused, SpeechResumed, TurnDetector  # noqa: E402
from words import prosody  # noqa: E402

CHUNK = 320  # 20 ms, as the client sends
ANSWER_MS = 650  # ~ Whisper + reply + first audio on 2 cores: the wait below this is free
SCAN = [(h, s) for h in (700, 900, 1100, 1300) for s in (200, 300)]


def pauses(audio: np.ndarray, detector: TurnDetector) -> list[tuple[SpeechPaused, int | None]]:
    """Each pause of ``audio`` and where speech resumed after it (None: it did not)."""
    out: list[list] = []
    for i in range(0, len(audio), CHUNK):
        for ev in detector.feed(audio[i : i + CHUNK]):
            if isinstance(ev, SpeechPaused):
                out.append([ev, None])
            elif isinstance(ev, SpeechResumed) and out:
                out[-1][1] = ev.start
    return [(ev, resumed) for ev, resumed in out]


def judge(questions, cfg, transcriber) -> list[dict]:
    rows = []
    for qi, q in enumerate(questions):
        args = cfg.vad.detector_args()
        args["end_ms"] = 10_000  # every pause is seen; the decision is replayed here
        for ev, resumed in pauses(q.audio, TurnDetector(**args)):
            heard = transcriber.hear(ev.audio)
            voice = prosody.features(ev.audio) if cfg.vad.prosody else None
            ending = heard.ending if cfg.vad.prosody else None
            p = turn_model.probability(heard.text, cfg.vad.turn_model, voice, ending)
            rows.append(
                {
                    "q": qi,
                    "text": q.text,
                    "voice": q.voice,
                    "where": q.where,
                    "heard": heard.text,
                    "ending": heard.ending,
                    "features": voice,
                    "p": p,
                    "wait_ms": quiet_needed(heard.text, cfg.vad, voice, ending),
                    "quiet_ms": None if resumed is None else (resumed - ev.audible_end) / 16,
                }
            )
    return rows


def outcome(rows: list[dict], vad, ready_ms: float = 0.0) -> dict:
    """Early questions and the waits at the real ends with ``vad``'s settings (each pause's
    wait decided again, as the pipeline would with them); a pause shorter than ``ready_ms``
    (the time an answer takes to be ready) is never answered early."""
    early, ends = set(), []
    for r in rows:
        wait = quiet_needed(r["heard"], vad, r["features"], r["ending"])
        if r["quiet_ms"] is None:
            ends.append(min(wait, vad.incomplete_ms))
        elif max(wait, ready_ms) < r["quiet_ms"]:
            early.add(r["q"])
    felt = [max(w, ANSWER_MS) for w in ends]
    return {
        "early": len(early),
        "early_questions": sorted(early),
        "end_wait_p50_ms": round(float(np.median(ends))),
        "end_wait_p90_ms": round(float(np.quantile(ends, 0.9))),
        "felt_p50_ms": round(float(np.median(felt))),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", default="held-out", choices=SETS)
    ap.add_argument("--limit", type=int, default=0, help="the first N questions (0: all)")
    ap.add_argument("--set", action="append", default=[], help="config override")
    ap.add_argument("--apart", action="store_true", help="halves said as two sentences")
    ap.add_argument("--show", action="store_true", help="print every pause")
    ap.add_argument(
        "--ready-ms",
        type=float,
        default=0.0,
        help="time an answer takes to be ready: shorter pauses are never answered early "
        "(0: count every wait shorter than its pause, the endpoint's mistakes)",
    )
    args = ap.parse_args(argv)
    try:
        cfg = load_config(None, args.set)
    except ValueError as e:
        print(f"turn_pauses: {e}", file=sys.stderr)
        return 2
    print(f"rendering the {args.questions} questions ...", file=sys.stderr, flush=True)
    questions = make_questions(args.questions, max(args.limit, 0), args.apart)
    a = cfg.asr  # as voice.models builds it, without the engine's imports
    transcriber = Transcriber(
        None if a.model == "bundled" else a.model, language=a.language, window_s=a.window_s
    )
    transcriber.load()
    rows = judge(questions, cfg, transcriber)
    if args.show:
        for r in rows:
            quiet = "end" if r["quiet_ms"] is None else f"{r['quiet_ms']:.0f}"
            p = "-" if r["p"] is None else f"{r['p']:.3f}"
            print(f"{r['q']:>4} {r['voice']:<15} {r['where'] or '-':<12} p {p:>6} "
                  f"wait {r['wait_ms']:>6.0f} quiet {quiet:>5}  {r['heard']!r}")  # fmt: skip
    now = outcome(rows, cfg.vad, args.ready_ms)
    print(f"{'model_half_ms':>14}{'model_scale_ms':>15}{'early':>7}{'end wait p50':>14}"
          f"{'p90':>7}{'felt p50':>10}")  # fmt: skip
    scan = []
    for half, scale in SCAN:
        wait = replace(cfg.vad, model_half_ms=half, model_scale_ms=scale)
        o = outcome(rows, wait, args.ready_ms)
        scan.append({"model_half_ms": half, "model_scale_ms": scale, **o})
        ours = (half, scale) == (cfg.vad.model_half_ms, cfg.vad.model_scale_ms)
        mark = " (configured)" if ours else ""
        print(f"{half:>14}{scale:>15}{o['early']:>7}{o['end_wait_p50_ms']:>14}"
              f"{o['end_wait_p90_ms']:>7}{o['felt_p50_ms']:>10}{mark}")  # fmt: skip
    paused = sum(1 for q in questions if q.split_at)
    print(f"configured: early {now['early']} of {paused} paused questions "
          f"{now['early_questions']}; wait at the real end p50 "
          f"{now['end_wait_p50_ms']} ms")  # fmt: skip
    print(json.dumps({"questions": len(questions), "paused": paused, "pauses": len(rows),
                      "settings": args.set, "ready_ms": args.ready_ms, "configured": now,
                      "scan": scan}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
