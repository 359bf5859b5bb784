"""The models every conversation shares: Whisper, Piper and the LLM back-end, loaded once per
process, with the workers that run them (the speech scheduler and the LLM stream threads)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from voice.config import AppConfig
from voice.llm import LocalLLM, RemoteLLM
from voice.scheduler import Scheduler
from voice.tools import tools_supported


def transcriber(cfg: AppConfig, progress: Callable[[str], None] | None = None):
    """Whisper as ``[asr]`` says, not loaded yet (``Models`` and a cluster's ASR replica)."""
    from voice.asr import Transcriber

    a = cfg.asr
    return Transcriber(
        None if a.model == "bundled" else a.model,
        device=a.device,
        compute_type=None if a.compute_type == "auto" else a.compute_type,
        language=a.language,
        beam_size=a.beam_size,
        window_s=a.window_s,
        max_rtf=a.max_rtf,
        progress=progress,
    )


def synthesizer(cfg: AppConfig, progress: Callable[[str], None] | None = None):
    """Piper as ``[tts]`` says, not loaded yet (``Models`` and a cluster's TTS replica)."""
    from voice.tts import Synthesizer

    return Synthesizer(
        None if cfg.tts.voice == "bundled" else cfg.tts.voice, volume=cfg.tts.volume,
        progress=progress,
    )


class Models:
    """Whisper, Piper and the LLM back-end: loaded once, shared by every conversation."""

    def __init__(
        self,
        cfg: AppConfig,
        progress: Callable[[str], None] | None = None,
        *,
        asr: Any = None,
        tts: Any = None,
        llm: Any = None,
    ) -> None:
        """``asr``, ``tts``, ``llm``: stages made elsewhere, with the local ones' interfaces
        (``diffvoice cluster`` passes ones that call other processes), instead of loading them."""
        from voice.asr import Transcriber
        from voice.tts import Synthesizer

        self.cfg = cfg
        a = cfg.asr
        from voice.remote_speech import RemoteSynthesizer, RemoteTranscriber

        self.asr: Transcriber | RemoteTranscriber
        if asr is not None:
            self.asr = asr
        elif a.url:  # asr.url: elsewhere
            self.asr = RemoteTranscriber(a.url, api_key=a.api_key)
        else:
            self.asr = transcriber(cfg, progress)
        self.tts: Synthesizer | RemoteSynthesizer
        if tts is not None:
            self.tts = tts
        elif cfg.tts.url:
            self.tts = RemoteSynthesizer(cfg.tts.url, api_key=cfg.tts.api_key)
        else:
            self.tts = synthesizer(cfg, progress)
        s = cfg.assistant
        self.llm: LocalLLM | RemoteLLM
        if llm is not None:
            self.llm = llm
        elif s.llm_url:
            self.llm = RemoteLLM(s.llm_url, s.llm_model, s.llm_api_key, cfg.sampling)
        else:
            if progress:
                progress(f"Loading diffusion LM {cfg.engine.model} ...")
            self.llm = LocalLLM.load(cfg.engine, cfg.sampling)
        self.asr.load()
        self.tts.load()
        if s.tools and tools_supported(self.llm):
            from voice.tools.units import registry

            registry()  # pint's unit table takes ~0.3 s: now, not in someone's first conversion
        c = cfg.scheduler
        # Every conversation's Whisper and Piper calls go through here, fairly (scheduler.py).
        self.scheduler = Scheduler(c.workers, c.speculative_share, c.max_jobs_per_session)
        # A reply's LLM stream waits on the engine for its whole length: one thread each, off
        # the event loop's default pool, where aiortc encodes every WebRTC reply frame (8
        # sessions' streams, speculative ones beside them, would otherwise hold all of it).
        self.llm_threads = ThreadPoolExecutor(2 * cfg.server.max_sessions + 2,
                                              thread_name_prefix="llm-stream")

    def close(self) -> None:
        self.scheduler.close()
        self.llm_threads.shutdown(wait=False, cancel_futures=True)
        self.llm.close()
