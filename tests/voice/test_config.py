"""Configuration: presets, --set overrides, and errors that name the key."""

from __future__ import annotations

import pytest

from voice.config import CONFIG_DIR, ConfigError, load_config


def test_defaults_and_every_preset_load() -> None:
    cfg = load_config()
    assert cfg.sampling.mode == "cache"
    for preset in sorted(CONFIG_DIR.glob("*.toml")):
        if preset.name.startswith("demo-model"):  # training configs, not app presets
            continue
        load_config(str(preset))


def test_set_overrides_file_and_parses_types(tmp_path) -> None:
    f = tmp_path / "c.toml"
    f.write_text('[sampling]\nthreshold = 0.5\nmode = "parallel"\n')
    cfg = load_config(str(f), ["sampling.threshold=0.75", "vad.end_ms=700", "tts.voice=/x.onnx"])
    assert cfg.sampling.threshold == 0.75
    assert cfg.sampling.mode == "parallel"
    assert cfg.vad.end_ms == 700
    assert cfg.tts.voice == "/x.onnx"


@pytest.mark.parametrize(
    "override, needle",
    [
        ("sampling.thresold=0.5", "'sampling.thresold'"),
        ("nosuch.key=1", "'nosuch'"),
        ("vad.end_ms=fast", "'vad.end_ms' must be an integer"),
        ("sampling.threshold=2", "threshold must be between 0 and 1"),
        ("sampling.mode=quantum", "mode must be one of"),
        ("vad.pause_ms=900", "pause_ms"),
        ("engine.device=tpu", "engine.device"),
        ("asr.window_s=0", "asr.window_s must be between 1 and 30"),
        ("novalue", "key=value"),
    ],
)
def test_bad_values_name_the_problem(override: str, needle: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(None, [override])
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


def test_bad_file(tmp_path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[engine\nmodel=")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(str(bad))
    unknown = tmp_path / "u.toml"
    unknown.write_text("[engine]\nmodle = 'x'\n")
    with pytest.raises(ConfigError, match="'engine.modle'"):
        load_config(str(unknown))
