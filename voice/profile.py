"""``diffvoice profile``: where the time goes between the user stopping and the assistant speaking.

Replays spoken prompts at real-time pace through the whole pipeline (the same code as
``diffvoice run``), records when each stage finished for every turn, prints p50/p90/max per
stage and per interval, writes JSON and a PNG timeline, and ends with one JSON line.
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
from voice.pipeline import STAGES, Models, Pipeline, TurnRecord, WavSink, wav_source

PROMPTS_DIR = Path(__file__).resolve().parent / "assets" / "prompts"


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
    """Percentiles per stage (ms after speech end) and per interval between stages."""
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
        "speech_end_to_first_audio_ms": stages["first_audio_out"],
        "stages_ms": stages,
        "intervals_ms": intervals,
        "speculative_turns": sum(r.speculative for r in records),
        "loop_lag_max_ms": round(max(lags), 1) if lags else None,
    }


def print_table(title: str, summary: dict, out=sys.stdout) -> None:
    print(
        f"\n{title}: {summary['turns']} turns, "
        f"{summary['speculative_turns']} answered from a speculative start, "
        f"event-loop lag max {summary['loop_lag_max_ms']} ms",
        file=out,
    )
    print(f"{'stage (ms after end of speech)':<36}{'p50':>9}{'p90':>9}{'max':>9}", file=out)
    for k, v in summary["stages_ms"].items():
        print(f"{k:<36}" + "".join(f"{_f(v[q]):>9}" for q in ("p50", "p90", "max")), file=out)
    print(f"{'interval (ms)':<36}{'p50':>9}{'p90':>9}{'max':>9}", file=out)
    for k, v in summary["intervals_ms"].items():
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
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("ms after the end of speech")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


async def _profile_once(models: Models, cfg: AppConfig, wavs: list[Path], progress) -> list:
    records: list[TurnRecord] = []
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
                f"{'-' if got is None else f'{got:.0f} ms'} after end of speech"
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
        runs = [
            ("speculative start on" if cfg.assistant.speculative else "speculative start off", cfg)
        ]
        if compare:
            other = replace(
                cfg, assistant=replace(cfg.assistant, speculative=not cfg.assistant.speculative)
            )
            runs.append(
                ("speculative start " + ("on" if other.assistant.speculative else "off"), other)
            )
        results = {}
        for title, c in runs:
            if progress:
                progress(f"Profiling {len(paths)} prompts, {title} ...")
            records = asyncio.run(_profile_once(models, c, paths, progress))
            summary = summarize(records)
            print_table(title, summary)
            key = "on" if c.assistant.speculative else "off"
            plot_timeline(records, out / f"timeline-speculative-{key}.png", title)
            results[key] = {"summary": summary, "turns": [r.to_json() for r in records]}
    finally:
        models.close()
    (out / "profile.json").write_text(json.dumps(results, indent=2) + "\n")
    first = results["on" if cfg.assistant.speculative else "off"]["summary"]
    final = {
        "speech_end_to_first_audio_ms": first["speech_end_to_first_audio_ms"],
        "turns": first["turns"],
        "speculative": cfg.assistant.speculative,
        "loop_lag_max_ms": first["loop_lag_max_ms"],
    }
    if compare:
        on, off = results["on"]["summary"], results["off"]["summary"]
        final["speculative_on"] = on["speech_end_to_first_audio_ms"]
        final["speculative_off"] = off["speech_end_to_first_audio_ms"]
        if (
            on["speech_end_to_first_audio_ms"]["p50"] is not None
            and off["speech_end_to_first_audio_ms"]["p50"] is not None
        ):
            final["speculative_saving_p50_ms"] = round(
                off["speech_end_to_first_audio_ms"]["p50"]
                - on["speech_end_to_first_audio_ms"]["p50"],
                1,
            )
    print(f"\nwrote {out / 'profile.json'} and timeline PNGs", file=sys.stderr)
    print(json.dumps(final))
    return 0
