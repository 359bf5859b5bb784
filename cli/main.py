"""``diffvoice``: the command line.

Subcommands: ``run`` (the voice assistant), ``chat`` (text), ``api`` (OpenAI-compatible
server), ``serve`` (the browser client), ``cluster`` (serve's application on Ray Serve),
``bench`` (decoding benchmark), ``train`` / ``eval`` (the bundled demo model), ``train-turn``
(the end-of-turn model, ``--out`` and ``--seed`` only). Every other subcommand takes
``--config`` and ``--set key=value``. Errors are one line on stderr and a non-zero exit; set
``DIFFVOICE_DEBUG=1`` to see tracebacks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

from engine.errors import UserError


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="TOML preset (a path or a name in configs/)")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one config value, e.g. --set sampling.threshold=0.8 (repeatable)",
    )


def _load(args):
    from voice.config import load_config

    sets = list(args.set)
    if getattr(args, "llm_url", None):
        sets.append(f'assistant.llm_url="{args.llm_url}"')
    return load_config(args.config, sets)


# --- run ------------------------------------------------------------------------------------
def _fmt_latency(lat: dict[str, float]) -> str:
    return "  ".join(f"{k}={v:.0f}ms" for k, v in lat.items())


def _print_profile(rec) -> None:
    lat = rec.latency_ms
    width = max((len(k) for k in lat), default=0)
    print(f"  turn {rec.turn}" + (" (prepared during a pause)" if rec.speculative else ""))
    for k, v in lat.items():
        print(f"    {k:<{width}}  {v:7.0f} ms")


def cmd_run(args) -> int:
    from voice.audio import read_wav, write_wav
    from voice.models import Models
    from voice.pipeline import Pipeline
    from voice.sink import WavSink, wav_source

    cfg = _load(args)
    audio = None
    if args.input:
        audio = read_wav(args.input)
        if not len(audio):
            raise UserError(f"{args.input}: the file holds no audio")
    else:
        from voice.devices import check_devices

        check_devices(need_input=True, need_output=args.output is None)

    models = Models(cfg, progress=_progress)
    realtime = not args.fast
    if args.output:
        sink = WavSink(models.tts.sample_rate, realtime=realtime)
    else:
        from voice.devices import SpeakerSink

        sink = SpeakerSink(models.tts.sample_rate)

    def on_turn(rec) -> None:
        if args.json:
            print(json.dumps(rec.to_json()), flush=True)
            return
        if rec.announcement:  # a timer or reminder: the assistant speaks up by itself
            print(f"assistant: {rec.reply}  [timer]", flush=True)
            return
        print(f"you:       {rec.transcript}")
        if rec.error:
            print(f"error:     {rec.error}")
        else:
            print(f"assistant: {rec.reply}" + ("  [interrupted]" if rec.interrupted else ""))
        if args.profile:
            _print_profile(rec)
        else:
            print(f"latency:   {_fmt_latency(rec.latency_ms)}", flush=True)

    pipe = Pipeline(models, cfg, sink, on_turn=on_turn)
    if audio is not None:
        source = wav_source(audio, realtime=realtime)
    else:
        from voice.devices import microphone

        source = microphone()
        print("Listening... (Ctrl-C to stop)", file=sys.stderr)
    try:
        asyncio.run(pipe.run(source, realtime=realtime))
    except KeyboardInterrupt:
        pass
    finally:
        models.close()
    if args.output:
        write_wav(args.output, sink.audio(), sink.sample_rate)
        if not args.json:
            secs = len(sink.audio()) / sink.sample_rate
            print(f"wrote {args.output} ({secs:.1f} s of speech)", file=sys.stderr)
    if not pipe.records:
        raise UserError(
            f"no speech detected in {args.input}" if args.input else "no speech detected"
        )
    return 0


def cmd_profile(args) -> int:
    from voice.profile import run_profile

    cfg = _load(args)
    return run_profile(cfg, args.wavs, out_dir=args.out, compare=args.compare, progress=_progress)


# --- chat -----------------------------------------------------------------------------------
def cmd_chat(args) -> int:
    import threading

    from voice.conversation import Conversation
    from voice.llm import LLMError, LocalLLM, RemoteLLM
    from voice.tools import Toolbox, answer, tools_supported

    cfg = _load(args)
    s = cfg.assistant
    if s.llm_url:  # replies from an OpenAI-compatible endpoint: no local model is loaded
        llm = RemoteLLM(s.llm_url, s.llm_model, s.llm_api_key, cfg.sampling)
    else:
        _progress(f"Loading diffusion LM {cfg.engine.model} ...")
        llm = LocalLLM.load(cfg.engine, cfg.sampling)
    printing = threading.Lock()
    interactive = sys.stdin.isatty()

    def out(line: str) -> None:
        with printing:
            print(line, flush=True)

    def on_timer(timer, sentence: str) -> None:  # a timer thread: the assistant speaks up
        if args.json:
            out(json.dumps({"event": "timer.fired", "text": sentence, "label": timer.label,
                            "reminder": timer.reminder, "seconds": timer.seconds}))  # fmt: skip
        else:
            out(("\nassistant> " if interactive else "") + sentence)

    use_tools = cfg.assistant.tools and not args.no_tools and tools_supported(llm)
    toolbox = Toolbox(on_timer) if use_tools else None
    # the context is kept from growing without bound (the last eight exchanges at most); the
    # engine drops the oldest turns too
    talk = Conversation(keep=min(8, cfg.assistant.history_turns or 8))
    if toolbox is not None:
        talk.on_reset(toolbox.forget)
    try:
        while True:
            if interactive:
                try:
                    line = input("you> ")
                except EOFError:
                    break
            else:
                line = sys.stdin.readline()
                if not line:
                    break
            line = line.strip()
            if not line:
                continue
            if line in ("/reset", "reset"):
                talk.reset()
                continue
            msgs = talk.messages_for(cfg.assistant.system_prompt, line,
                                     cfg.assistant.history_turns)
            t0 = time.perf_counter()
            first: list[float] = []

            def on_text(_t: str, first=first) -> None:
                if not first:
                    first.append(time.perf_counter())

            try:
                a = answer(llm, msgs, toolbox, on_text)
            except LLMError as e:
                raise UserError(f"generation failed: {e}") from None
            total = time.perf_counter() - t0
            talk.remember(line, a.text, a.messages)
            if args.json:
                st = a.stats
                rec = {
                    "reply": a.text,
                    "finish_reason": a.finish_reason,
                    "nfe": st.get("nfe"),
                    "tokens": st.get("tokens"),
                    "tokens_per_forward": st.get("tokens_per_forward"),
                    "time_to_first_text_ms": round(1000 * (first[0] - t0), 1) if first else None,
                    "total_ms": round(1000 * total, 1),
                    "truncated_turns": st.get("truncated_turns", 0),
                    "tools": [r.to_json() for r in a.tools],
                    "tool_ms": round(a.tool_ms, 1),
                    # voice/reply_check.py: decoded again carefully; an unfinished reply mended
                    "redecoded": st.get("redecoded", 0),
                    "unfinished": st.get("unfinished", 0),
                }
                out(json.dumps(rec))
            else:
                for r in a.tools if args.show_tools else ():
                    out(f"  [{r.name} {json.dumps(r.arguments)} → {r.result}]")
                out(("assistant> " if interactive else "") + a.text)
    finally:
        if toolbox is not None:
            toolbox.close()
        llm.close()
    return 0


# --- api / serve / bench / train / eval -------------------------------------------------------
def cmd_api(args) -> int:
    from serve.server import serve_api

    cfg = _load(args)
    serve_api(cfg, host=args.host, port=args.port, token=args.token, progress=_progress)
    return 0


def cmd_serve(args) -> int:
    from serve.server import serve

    cfg = _load(args)
    serve(cfg, host=args.host, port=args.port, token=args.token, progress=_progress)
    return 0


def cmd_cluster(args) -> int:
    from serve.cluster import run_cluster

    sets = list(args.set)
    for key, value in (("address", args.address), ("host", args.host), ("port", args.port)):
        if value is not None:
            sets.append(f'cluster.{key}="{value}"' if key != "port" else f"cluster.port={value}")
    args.set = sets
    cfg = _load(args)
    if args.token:
        cfg.server.token = args.token
    run_cluster(cfg, progress=_progress)
    return 0


def cmd_wyoming(args) -> int:
    from serve.wyoming import serve_wyoming

    cfg = _load(args)
    serve_wyoming(cfg, host=args.host, port=args.port, progress=_progress)
    return 0


def cmd_bench(args, rest: list[str]) -> int:
    from bench.decoding import main as bench_main

    cfg = _load(args)
    argv = list(rest)
    if "--model" not in argv:
        argv += ["--model", cfg.engine.model]
    return int(bench_main(argv) or 0)


def cmd_train(args) -> int:
    from training.train import TrainConfig, train

    if not args.config:
        raise UserError("train needs --config, e.g. --config configs/demo-model.toml")
    cfg = TrainConfig.from_toml(args.config, args.set)
    train(cfg)
    return 0


def cmd_train_turn(args) -> int:
    from training.turn_model import main as turn_main
    from training.turn_prosody import main as prosody_main

    argv = ["--out", args.out, "--seed", str(args.seed)]
    rc = int(turn_main(argv) or 0)
    if rc or args.words_only:
        return rc
    from voice.asr import Transcriber
    from voice.config import load_config

    # the ear hears each cut as the pipeline would: the bundled Whisper on its short window
    whisper = Transcriber(None, window_s=load_config(None, []).asr.window_s)
    return int(prosody_main(argv, hear=whisper.hear) or 0)


def cmd_eval(args) -> int:
    from training.evaluate import main as eval_main

    cfg = _load(args)
    argv = ["--model", args.model or cfg.engine.model]
    if args.limit:
        argv += ["--limit", str(args.limit)]
    return int(eval_main(argv) or 0)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="diffvoice",
        description="A voice assistant whose replies come from a diffusion language model.",
    )
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="the voice assistant: microphone (or --input) to speaker")
    _common(r)
    r.add_argument("--input", metavar="FILE.wav", help="replay a WAV file as the microphone")
    r.add_argument("--output", metavar="FILE.wav", help="write everything the assistant said")
    r.add_argument("--fast", action="store_true", help="replay --input as fast as possible")
    r.add_argument("--json", action="store_true", help="one JSON object per turn")
    r.add_argument("--profile", action="store_true", help="per-stage latency of every turn")
    r.add_argument(
        "--llm-url",
        default=None,
        help="use an OpenAI-compatible endpoint for replies instead of the engine",
    )

    pr = sub.add_parser("profile", help="latency of the whole pipeline over spoken prompts")
    _common(pr)
    pr.add_argument("wavs", nargs="*", metavar="WAV", help="default: the bundled prompts")
    pr.add_argument("--out", default="out/profile", metavar="DIR", help="JSON and PNG go here")
    pr.add_argument(
        "--compare",
        action="store_true",
        help="add each latency mechanism to plain silence endpointing, one run each; compare",
    )
    pr.add_argument("--llm-url", default=None)

    c = sub.add_parser("chat", help="text conversation with the diffusion LM")
    _common(c)
    c.add_argument("--json", action="store_true", help="one JSON object per reply")
    c.add_argument("--llm-url", default=None,
                   help="use an OpenAI-compatible endpoint for replies instead of the engine")
    c.add_argument("--no-tools", action="store_true", help="without the built-in tools")
    c.add_argument("--show-tools", action="store_true", help="print each tool call and result")

    a = sub.add_parser("api", help="OpenAI-compatible HTTP API (text only, no speech models)")
    _common(a)
    a.add_argument("--host", default=None)
    a.add_argument("--port", type=int, default=None)
    a.add_argument("--token", default=None, help="require this bearer token (or DIFFVOICE_TOKEN)")

    b = sub.add_parser("bench", help="decoding benchmark: reference vs fast modes", add_help=False)
    _common(b)

    t = sub.add_parser("train", help="train the demo model from the generated corpus")
    _common(t)

    tt = sub.add_parser("train-turn", help="train the end-of-turn model (vad.endpoint=model)")
    tt.add_argument("--out", default="models/turn", help="where turn.npz and its card go")
    tt.add_argument("--seed", type=int, default=0)
    tt.add_argument(
        "--words-only",
        action="store_true",
        help="skip the prosody stage (Piper says ~700 sentences: ~3 min on 2 cores)",
    )

    sv = sub.add_parser(
        "serve", help="everything on one port: web page, /ws, OpenAI /v1 (Realtime, audio, chat)"
    )
    _common(sv)
    sv.add_argument("--host", default=None, help="default 127.0.0.1; any other needs a token")
    sv.add_argument("--port", type=int, default=None, help="default 8765")
    sv.add_argument("--token", default=None,
                    help="access token /ws and /v1 require (or DIFFVOICE_TOKEN)")
    sv.add_argument("--llm-url", default=None,
                    help="use an OpenAI-compatible endpoint for replies instead of the engine")

    cl = sub.add_parser(
        "cluster", help="serve's application as Ray Serve deployments (docs/scale-out.md)"
    )
    _common(cl)
    cl.add_argument("--address", default=None,
                    help="join this Ray cluster (ray start --head printed it; 'auto': the "
                         "local one); default: start a one-node cluster")  # fmt: skip
    cl.add_argument("--host", default=None, help="Serve's HTTP proxy (default 127.0.0.1)")
    cl.add_argument("--port", type=int, default=None, help="default 8000")
    cl.add_argument("--token", default=None,
                    help="access token /ws and /v1 require (or DIFFVOICE_TOKEN)")
    cl.add_argument("--llm-url", default=None,
                    help="use an OpenAI-compatible endpoint for replies instead of the engine")

    w = sub.add_parser(
        "wyoming", help="Home Assistant's Wyoming protocol: asr, tts and handle on one port"
    )
    _common(w)
    w.add_argument("--host", default=None,
                   help="default 127.0.0.1; 0.0.0.0 for Home Assistant on another machine")
    w.add_argument("--port", type=int, default=None, help="default 10300")
    w.add_argument("--llm-url", default=None,
                   help="use an OpenAI-compatible endpoint for replies instead of the engine")

    e = sub.add_parser("eval", help="held-out accuracy of a model on the demo domain")
    _common(e)
    e.add_argument("--model", default=None)
    e.add_argument("--limit", type=int, default=0)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "bench":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command == "bench":
            return cmd_bench(args, rest)
        return {
            "run": cmd_run,
            "profile": cmd_profile,
            "chat": cmd_chat,
            "api": cmd_api,
            "serve": cmd_serve,
            "cluster": cmd_cluster,
            "wyoming": cmd_wyoming,
            "train": cmd_train,
            "train-turn": cmd_train_turn,
            "eval": cmd_eval,
        }[args.command](args)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # one line, never a traceback (unless asked for)
        if os.environ.get("DIFFVOICE_DEBUG"):
            raise
        print(f"diffvoice: error: {_describe(e)}", file=sys.stderr)
        return 2


def _describe(e: Exception) -> str:
    """The one line printed for ``e``: a :class:`UserError`'s own message; anything else is a
    bug, named by its class, with the way to see its traceback."""
    msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    if isinstance(e, UserError):
        return msg
    if isinstance(e, FileNotFoundError):
        return f"file not found: {e.filename}"
    return f"{type(e).__name__}: {msg} (set DIFFVOICE_DEBUG=1 for details)"


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["main", "Path"]
