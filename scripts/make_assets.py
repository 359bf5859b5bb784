"""Generate the example recordings in voice/assets/ with the Piper voice.

    python -m scripts.make_assets [--out voice/assets] [--verify]

Writes ``question.wav`` and ``prompts/*.wav`` (16 kHz mono int16, ~0.5 s of silence before the
speech and ~1 s after it, so a VAD sees a clean start and end and a browser's fake microphone
does not clip the onset) and ``prompts/prompts.json`` mapping each file name to its text.
Piper samples its voice with random noise, so each run gives slightly different audio.
``--verify`` transcribes every file with the default Whisper model and synthesises again when the
transcript does not match the text, so the committed files are ones Whisper tiny.en gets right.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from voice.asr import normalize_text  # noqa: E402
from voice.audio import SAMPLE_RATE, resample, write_wav  # noqa: E402
from voice.tts import Synthesizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "What is the capital of France?"
PROMPTS = {
    "seven_times_eight.wav": "What is seven times eight?",
    "hello.wav": "Hello, how are you?",
    "capital_of_japan.wav": "What is the capital of Japan?",
    "ten_kilometers.wav": "How many miles is ten kilometers?",
    "closest_planet.wav": "What planet is closest to the sun?",
    "joke.wav": "Please tell me a joke.",
    "after_monday.wav": "What day comes after Monday?",
    "spell_cat.wav": "Spell the word cat.",
    "weather.wav": "What's the weather like today?",
    "who_are_you.wav": "Who are you?",
    "celsius.wav": "Convert twenty degrees Celsius to Fahrenheit.",
    # A comma pause that a short end-of-turn silence splits into two turns.
    "can_you_hear_me.wav": "Hello there, can you hear me?",
}
LEAD_S = 0.5
TRAIL_S = 1.0


def _trim(audio: np.ndarray, margin_ms: int = 30) -> np.ndarray:
    """Cut Piper's own leading and trailing near-silence, keeping a small margin."""
    w = SAMPLE_RATE // 100  # 10 ms windows
    n = len(audio) // w
    level = np.abs(audio[: n * w].astype(np.int32)).reshape(n, w).max(axis=1)
    loud = np.flatnonzero(level > 300)  # about -40 dBFS
    if len(loud) == 0:
        return audio
    margin = margin_ms * SAMPLE_RATE // 1000
    return audio[max(0, loud[0] * w - margin) : min(len(audio), (loud[-1] + 1) * w + margin)]


def speak(synthesizer: Synthesizer, text: str) -> np.ndarray:
    """``text`` as 16 kHz int16 speech with LEAD_S / TRAIL_S of silence around it."""
    speech = _trim(resample(synthesizer.synthesize(text), synthesizer.sample_rate, SAMPLE_RATE))
    lead = np.zeros(int(LEAD_S * SAMPLE_RATE), dtype=np.int16)
    trail = np.zeros(int(TRAIL_S * SAMPLE_RATE), dtype=np.int16)
    return np.concatenate([lead, speech, trail])


def main(argv: list[str] | None = None) -> int:
    """Write the assets; return the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "voice" / "assets")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="transcribe each file with Whisper; re-synthesise a mismatch (up to --tries)",
    )
    parser.add_argument("--tries", type=int, default=4)
    args = parser.parse_args(argv)

    synthesizer = Synthesizer(progress=print)
    transcriber = None
    if args.verify:
        from voice.asr import Transcriber

        transcriber = Transcriber(progress=print)
    prompts_dir = args.out / "prompts"
    prompts_dir.mkdir(parents=True, exist_ok=True)
    files = {args.out / "question.wav": QUESTION}
    files.update({prompts_dir / name: text for name, text in PROMPTS.items()})
    ok = True
    for path, text in files.items():
        for _ in range(args.tries if transcriber else 1):
            audio = speak(synthesizer, text)
            heard = transcriber.transcribe(audio) if transcriber else None
            if heard is None or normalize_text(heard) == normalize_text(text):
                break
        else:
            ok = False
        write_wav(path, audio, SAMPLE_RATE)
        checked = "" if heard is None else f"  heard {heard!r}"
        print(f"{path.relative_to(args.out)}: {len(audio) / SAMPLE_RATE:.2f} s  {text}{checked}")
    listing = json.dumps(PROMPTS, indent=2) + "\n"
    (prompts_dir / "prompts.json").write_text(listing, encoding="utf-8")
    if not ok:
        print("some files did not transcribe back to their text", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
