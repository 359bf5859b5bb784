"""``diffvoice profile``: where the time goes between the user stopping and the assistant speaking.

Replays spoken prompts at real-time pace through the whole pipeline (the same code as
``diffvoice run``), records when each stage finished for every turn, prints p50/p90/max per
stage and per interval, writes JSON and a PNG timeline, and ends with one JSON line.

Every figure counts from the **audible end** of the user's speech (the end of the last 10 ms
frame within 35 dB of the loudest, found in the audio): that is when the user stops talking.
The VAD's end of speech (``speech_end``) is a stage, ~100 ms later. ``--compare`` replays the
prompts once per mechanism, adding one at a time to plain silence endpointing, in one run.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from voice.audio import read_wav
from voice.config import AppConfig
from voice.models import Models
from voice.pipeline import Pipeline
from voice.sink import WavSink, wav_source
from voice.turn import STAGES, TurnRecord

# --compare: each mechanism added to the one before, starting from plain silence endpointing.
MECHANISMS: list[tuple[str, str, dict[str, dict]]] = [
    (
        "silence",
        "silence only (end_ms, then ASR, reply, speech)",
        {
            "vad": {"endpoint": "silence", "quiet_ms": 0},
            "assistant": {"speculative": False},
            "asr": {"window_s": 30},
        },
    ),
    (
        "speculative",
        "+ speculative start at a webrtcvad pause",
        {"vad": {"endpoint": "silence", "quiet_ms": 0}, "asr": {"window_s": 30}},
    ),
    ("window", "+ 15 s Whisper window", {"vad": {"endpoint": "silence", "quiet_ms": 0}}),
    ("quiet", "+ pause on inaudibility", {"vad": {"endpoint": "silence"}}),
    ("smart", "+ transcript-aware endpoint", {}),
]

PROMPTS_DIR = Path(__file__).resolve().parent / "assets" / "prompts"


def _with(cfg: AppConfig, over: dict[str, dict]) -> AppConfig:
    """``cfg`` with some keys of some sections replaced."""
    return replace(cfg, **{sec: replace(getattr(cfg, sec), **kv) for sec, kv in over.items()})


def bundled_prompts() -> list[Path]:
    return sorted(PROMPTS_DIR.glob("*.wav"))


def _pct(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p90": None, "max": None}
    a = np.asarray(values, dtype=np.float64)
    return {
        "p50": round(float(np.percentile(a, 50)), 1),
        "p90": round(float(np.percentile(a, 90)), 1),
        "max": round(float(a.max()), 1),
    }


def summarize(records: list[TurnRecord]) -> dict:
    """Percentiles per stage (ms after the audible end) and per interval between stages."""
    stages = {k: _pct([r.latency_ms[k] for r in records if k in r.latency_ms]) for k in STAGES[1:]}
    intervals = {}
    for a, b in zip(STAGES, STAGES[1:], strict=False):
        vals = [
            (r.stamps[b] - r.stamps[a]) * 1000 for r in records if a in r.stamps and b in r.stamps
        ]
        intervals[f"{a} -> {b}"] = _pct(vals)
    lags = [r.stats.get("loop_lag_max_ms", 0.0) for r in records]
    return {
        "turns": len(records),
        "audible_end_to_first_audio_ms": stages["first_audio_out"],
        "speech_end_to_first_audio_ms": _pct(
            [
                (r.stamps["first_audio_out"] - r.stamps["speech_end"]) * 1000
                for r in records
                if "first_audio_out" in r.stamps and "speech_end" in r.stamps
            ]
        ),
        "ended_by_transcript": sum(r.endpoint == "complete" for r in records),
        "stages_ms": stages,
        "intervals_ms": intervals,
        "speculative_turns": sum(r.speculative for r in records),
        "loop_lag_max_ms": round(max(lags), 1) if lags else None,
        "tools": _tool_summary(records),
    }


def _tool_summary(records: list[TurnRecord]) -> dict:
    """The tool stage: turns that called a built-in tool against those that did not (audible
    end → first audio), and the stage's own time (the tool-calling pass plus the tools)."""

    def first_audio(rs: list[TurnRecord]) -> dict:
        return _pct([r.latency_ms["first_audio_out"] for r in rs
                     if "first_audio_out" in r.latency_ms])  # fmt: skip

    tool = [r for r in records if r.stats.get("tool_calls")]
    plain = [r for r in records if not r.stats.get("tool_calls")]
    a, b = first_audio(tool), first_audio(plain)
    gap = None if a["p50"] is None or b["p50"] is None else round(a["p50"] - b["p50"], 1)
    return {
        "tool_turns": len(tool),
        "tool_ms": _pct([r.stats["tool_ms"] for r in tool if "tool_ms" in r.stats]),
        "tool_turn_first_audio_ms": a,
        "other_turn_first_audio_ms": b,
        "p50_gap_ms": gap,
    }


def print_table(title: str, summary: dict, out=sys.stdout) -> None:
    print(
        f"\n{title}: {summary['turns']} turns, "
        f"{summary['speculative_turns']} answered from a speculative start, "
        f"{summary['ended_by_transcript']} ended on a complete transcript, "
        f"event-loop lag max {summary['loop_lag_max_ms']} ms",
        file=out,
    )
    print(f"{'stage (ms after audible end)':<36}{'p50':>9}{'p90':>9}{'max':>9}", file=out)
    for k, v in summary["stages_ms"].items():
        print(f"{k:<36}" + "".join(f"{_f(v[q]):>9}" for q in ("p50", "p90", "max")), file=out)
    print(f"{'interval (ms)':<36}{'p50':>9}{'p90':>9}{'max':>9}", file=out)
    for k, v in summary["intervals_ms"].items():
        print(f"{k:<36}" + "".join(f"{_f(v[q]):>9}" for q in ("p50", "p90", "max")), file=out)
    t = summary.get("tools") or {}
    if t.get("tool_turns"):
        print(f"{'tool stage (ms)':<36}{'p50':>9}{'p90':>9}{'max':>9}", file=out)
        rows = (("tool calls + tools", t["tool_ms"]),
                (f"first audio, {t['tool_turns']} tool turns", t["tool_turn_first_audio_ms"]),
                ("first audio, other turns", t["other_turn_first_audio_ms"]))  # fmt: skip
        for k, v in rows:
            print(f"{k:<36}" + "".join(f"{_f(v[q]):>9}" for q in ("p50", "p90", "max")), file=out)


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def plot_timeline(records: list[TurnRecord], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = ["#888888", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(records) + 1.6))
    for y, r in enumerate(records):
        lat = r.latency_ms
        prev = 0.0
        for i, k in enumerate(STAGES[1:]):
            if k not in lat:
                continue
            ax.barh(
                y,
                lat[k] - prev,
                left=prev,
                color=colors[i % len(colors)],
                label=k if y == 0 else None,
                height=0.6,
            )
            prev = lat[k]
    ax.set_yticks(range(len(records)))
    ax.set_yticklabels([(r.transcript[:28] or f"turn {r.turn}") for r in records], fontsize=8)
    ax.axvline(0, color="black", lw=1.2)
    ax.text(0, len(records) - 0.4, " audible end of speech", fontsize=7, va="bottom")
    ax.set_xlabel("ms after the audible end of speech (the bar to speech_end: the VAD's lag)")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


async def _profile_once(models: Models, cfg: AppConfig, wavs: list[Path], progress) -> list:
    records: list[TurnRecord] = []
    models.asr.window_s = cfg.asr.window_s  # the one setting of a shared model a run may change
    for i, wav in enumerate(wavs, 1):
        audio = read_wav(wav)
        sink = WavSink(models.tts.sample_rate, realtime=True)
        pipe = Pipeline(models, cfg, sink)
        await pipe.run(wav_source(audio, realtime=True, tail_ms=1500), realtime=True)
        records += pipe.records
        if progress:
            got = pipe.records[-1].latency_ms.get("first_audio_out") if pipe.records else None
            progress(
                f"  [{i}/{len(wavs)}] {wav.name}: first audio "
                f"{'-' if got is None else f'{got:.0f} ms'} after the audible end"
            )
    return records


def run_profile(
    cfg: AppConfig,
    wavs: list[str] | None = None,
    out_dir: str = "out/profile",
    compare: bool = False,
    progress=None,
) -> int:
    paths = [Path(w) for w in wavs] if wavs else bundled_prompts()
    for p in paths:
        read_wav(p)  # fail early, with the one-line AudioError, on a bad file
    if not paths:
        raise FileNotFoundError(str(PROMPTS_DIR))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    models = Models(cfg, progress=progress)
    try:
        # Warm-up: the first call of each model pays one-time costs no turn should carry.
        warm = read_wav(paths[0])
        models.asr.transcribe(warm)
        list(models.tts.synthesize_stream("Hello there."))
        if compare:
            runs = [(key, title, _with(cfg, over)) for key, title, over in MECHANISMS]
        else:
            runs = [("config", "the configuration as given", cfg)]
        results = {}
        for key, title, c in runs:
            if progress:
                progress(f"Profiling {len(paths)} prompts, {title} ...")
            records = asyncio.run(_profile_once(models, c, paths, progress))
            summary = summarize(records)
            print_table(title, summary)
            plot_timeline(records, out / f"timeline-{key}.png", title)
            turns = [r.to_json() for r in records]
            results[key] = {"title": title, "summary": summary, "turns": turns}
    finally:
        models.close()
    (out / "profile.json").write_text(json.dumps(results, indent=2) + "\n")
    key = "smart" if compare else "config"
    first = results[key]["summary"]
    final = {
        "audible_end_to_first_audio_ms": first["audible_end_to_first_audio_ms"],
        "speech_end_to_first_audio_ms": first["speech_end_to_first_audio_ms"],
        "turns": first["turns"],
        "loop_lag_max_ms": first["loop_lag_max_ms"],
    }
    if compare:
        base = results["silence"]["summary"]["audible_end_to_first_audio_ms"]["p50"]
        print(f"\n{'mechanism (each adds to the one above)':<48}{'p50 ms':>8}{'saving':>8}")
        savings = {}
        for k, title, _ in runs:
            p50 = results[k]["summary"]["audible_end_to_first_audio_ms"]["p50"]
            saving = None if p50 is None or base is None else round(base - p50, 1)
            savings[k] = {"p50_ms": p50, "saving_vs_silence_ms": saving}
            print(f"{title:<48}{_f(p50):>8}{_f(saving):>8}")
        final["mechanisms"] = savings
    print(f"\nwrote {out / 'profile.json'} and timeline PNGs", file=sys.stderr)
    print(json.dumps(final))
    return 0
