"""The shape of the whole: imports go one way. ``words`` and ``kernels`` at the bottom; ``engine``
on them; ``voice`` and ``training`` side by side on the engine, neither importing the other;
``serve`` (the servers) on ``voice``; ``bench`` over those; the command line (``cli``) on top,
imported by nothing."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("pyproject.toml", "README.md", "voice", "engine", "kernels", "web", "tests", "configs")


def imported_modules(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for f in (ROOT / package).rglob("*.py"):
        mods: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, ast.Import):
                mods |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                mods.add(node.module.split(".")[0])
        found[str(f.relative_to(ROOT))] = mods
    return found


def test_top_level_layout() -> None:
    for name in TOP:
        assert (ROOT / name).exists(), name


def test_kernels_import_neither_engine_nor_voice() -> None:
    for f, mods in imported_modules("kernels").items():
        assert not mods & {"engine", "voice"}, f


def test_engine_knows_nothing_of_voice_audio_or_asyncio() -> None:
    for f, mods in imported_modules("engine").items():
        assert not mods & {
            "voice",
            "asyncio",
            "sounddevice",
            "webrtcvad",
            "faster_whisper",
            "piper",
            "websockets",
            "training",
        }, f


def test_kernels_and_engine_never_import_training() -> None:
    """Training (corpus, tokenizers, trainer, evaluation) uses the engine, never the reverse."""
    for package in ("kernels", "engine"):
        for f, mods in imported_modules(package).items():
            assert "training" not in mods, f


def test_voice_never_touches_tensors() -> None:
    for f, mods in [*imported_modules("voice").items(), *imported_modules("serve").items()]:
        assert not mods & {"torch", "triton", "kernels"}, f


def test_user_facing_errors_and_the_command_line_load_without_torch() -> None:
    """``engine.errors`` imports nothing, and ``engine`` loads its parts on first use: the CLI,
    the config and the audio reader raise user-facing errors without paying for torch."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, cli.main, voice.config, voice.audio, engine.errors; "
        "print(sorted({'torch', 'triton'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)  # fmt: skip
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_words_sit_below_everything() -> None:
    """``words`` (numbers said and read) is used by engine, voice and training and imports none
    of the project: the one copy of spoken numbers, with no loop through it."""
    project = {"engine", "voice", "kernels", "training", "bench", "web", "words"}
    for f, mods in imported_modules("words").items():
        assert not (mods - {"words"}) & project, f


def test_training_never_imports_voice() -> None:
    """The demo model's corpus says dates, times and numbers with ``words``, as the tools do;
    it reaches into neither the voice pipeline nor the servers (the CLI, above both, may)."""
    for f, mods in imported_modules("training").items():
        assert not mods & {"voice", "serve"}, f


# What each package may import of the project: only what sits below it.
BELOW = {
    "words": set(),
    "kernels": set(),
    "engine": {"kernels", "words"},
    "training": {"engine", "kernels", "words"},
    "voice": {"engine", "words"},
    "serve": {"engine", "voice", "words"},
    "bench": {"engine", "kernels", "serve", "training", "voice", "words"},
    "cli": {"bench", "engine", "kernels", "serve", "training", "voice", "words"},
}


def test_every_package_imports_only_what_sits_below_it() -> None:
    """Every arrow of the picture at once: a new import that goes up or sideways (voice to
    training, the engine to a benchmark, anything to the command line) fails here."""
    for package, below in BELOW.items():
        for f, mods in imported_modules(package).items():
            upward = (mods & set(BELOW)) - below - {package}
            assert not upward, f"{f} imports {sorted(upward)}"


def test_nothing_imports_the_command_line_and_every_package_is_placed() -> None:
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    assert packages - {"tests", "scripts"} == set(BELOW), "place the new package in BELOW"
    for package in set(BELOW) - {"cli"}:
        for f, mods in imported_modules(package).items():
            assert "cli" not in mods, f
