#!/usr/bin/env python3
"""Check that Home Assistant's own Wyoming integration can use `diffvoice wyoming`.

Set up Home Assistant once with ``sh bench/home_assistant/setup.sh`` (a venv in $HA_DIR, default
/tmp/ha: homeassistant==2024.3.3, the newest on Python 3.11, and wyoming==1.5.3, which it
pins), start ``diffvoice wyoming --port 10391`` and ``hass -c $HA_DIR/config --skip-pip``, then:

    . /tmp/ha/venv/bin/activate
    python bench/home_assistant/verify.py --wyoming 127.0.0.1:10391    # part A only
    python bench/home_assistant/verify.py --wyoming 127.0.0.1:10391 --ha http://127.0.0.1:8129 \
        --user verify --password verifypass123                                # parts A-D

Part A: HA's integration code in-process (no HA core): data.load_wyoming_info,
        WyomingService.create, the platforms HA would set up, and the integration's own
        WyomingSttProvider / WyomingTtsProvider talking to the server.
Part B: a running HA core (hass -c $HA_DIR/config): log in, add the Wyoming integration through
        the config-flow REST API (as the UI does), list its entities, STT through /api/stt/<entity>,
        TTS through /api/tts_get_url + fetching the audio.
Part C: a full Assist pipeline over HA's websocket API: our STT -> HA's conversation agent ->
        our TTS, with the WAV streamed as binary frames.
Part D: the `handle` service (conversation agent) with the wyoming client HA 2024.3 pins; HA
        2024.3 itself has no Wyoming conversation platform, so this is what a client would send.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import io
import json
import os
import sys
import time
import wave
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]  # the diffvoice checkout
WAV = str(ROOT / "voice" / "assets" / "prompts" / "seven_times_eight.wav")
OUT = Path(os.environ.get("HA_DIR", "/tmp/ha"))  # where the fetched audio is written
TTS_TEXT = (f"Hello from Home Assistant at {time.strftime('%H:%M:%S')}. "
            "This is the diffvoice Piper voice speaking.")
results: list[tuple[str, bool, str]] = []


def report(name: str, ok: bool, detail: str = "") -> None:
    results.append((name, ok, detail))
    print(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}", flush=True)


def read_pcm(path: str) -> tuple[bytes, int]:
    with wave.open(path) as w:
        assert (w.getsampwidth(), w.getnchannels()) == (2, 1), "need 16-bit mono"
        return w.readframes(w.getnframes()), w.getframerate()


def wav_info(data: bytes) -> str:
    with wave.open(io.BytesIO(data)) as w:
        return (f"{len(data)} bytes WAV, {w.getframerate()} Hz, {w.getsampwidth() * 8}-bit, "
                f"{w.getnchannels()} ch, {w.getnframes() / w.getframerate():.2f} s")


# --- A: HA's integration code, no core ------------------------------------------------------------
async def part_a(host: str, port: int, wav: str) -> None:
    from homeassistant.components import stt, tts
    from homeassistant.components.wyoming.data import WyomingService, load_wyoming_info
    from homeassistant.components.wyoming.stt import WyomingSttProvider
    from homeassistant.components.wyoming.tts import WyomingTtsProvider

    info = await load_wyoming_info(host, port)
    report("A1 load_wyoming_info", info is not None,
           json.dumps(info.to_dict(), default=str)[:400] if info else "None (cannot connect)")
    if info is None:
        return
    svc = await WyomingService.create(host, port)
    report("A2 WyomingService.create", svc is not None and svc.has_services(),
           f"platforms={[str(p) for p in svc.platforms]} "
           f"name(config entry title)={svc.get_name()!r} "
           f"asr={[a.name for a in info.asr]} tts={[t.name for t in info.tts]} "
           f"handle={[h.name for h in info.handle]} (HA 2024.3 sets up no platform for handle)")

    entry = SimpleNamespace(entry_id="verify")
    sttp = WyomingSttProvider(entry, svc)
    pcm, rate = read_pcm(wav)
    assert rate == 16000

    async def chunks():
        for i in range(0, len(pcm), 2048):
            yield pcm[i:i + 2048]

    meta = stt.SpeechMetadata(language="en", format=stt.AudioFormats.WAV,
                              codec=stt.AudioCodecs.PCM, bit_rate=stt.AudioBitRates.BITRATE_16,
                              sample_rate=stt.AudioSampleRates.SAMPLERATE_16000,
                              channel=stt.AudioChannels.CHANNEL_MONO)
    t0 = time.monotonic()
    res = await sttp.async_process_audio_stream(meta, chunks())
    report("A3 WyomingSttProvider.async_process_audio_stream",
           res.result == stt.SpeechResultState.SUCCESS and bool(res.text),
           f"{res.result} text={res.text!r} ({time.monotonic() - t0:.2f} s) "
           f"entity name={sttp.name!r} languages={sttp.supported_languages}")

    ttsp = WyomingTtsProvider(entry, svc)
    voices = ttsp.async_get_supported_voices("en")
    t0 = time.monotonic()
    fmt, data = await ttsp.async_get_tts_audio(TTS_TEXT, "en", {tts.ATTR_VOICE: "diffvoice"})
    report("A4 WyomingTtsProvider.async_get_tts_audio",
           fmt == "wav" and bool(data) and len(data) > 44,
           f"format={fmt} {wav_info(data) if data else data} ({time.monotonic() - t0:.2f} s) "
           f"entity name={ttsp.name!r} voices={voices} languages={ttsp.supported_languages}")
    fmt2, data2 = await ttsp.async_get_tts_audio("Without a voice option.", "en", {})
    report("A5 TTS without voice option", fmt2 == "wav" and bool(data2),
           f"{wav_info(data2) if data2 else data2}")

    # HA's REST STT view (/api/stt/<entity>) hands the integration aiohttp's request.content,
    # whose async iterator yields *lines* (split at 0x0A bytes): chunks of any length, many odd.
    # Same audio, same integration code, chunked the way that view chunks it:
    async def line_chunks():
        for line in pcm.split(b"\n"):
            yield line + b"\n"

    res = await sttp.async_process_audio_stream(meta, line_chunks())
    n_odd = sum(len(x + b"\n") % 2 for x in pcm.split(b"\n"))
    n_all = len(pcm.split(b"\n"))
    report(f"A6 STT with HA-REST-style chunks (split at newlines, {n_odd} of {n_all} odd-length)",
           res.result == stt.SpeechResultState.SUCCESS and bool(res.text),
           f"{res.result} text={res.text!r}")

    # Edge cases where our server answers with an `error` event and keeps the connection open:
    # HA's wyoming stt/tts clients ignore `error` events and wait for transcript / audio-stop.
    long_pcm = pcm * (62 * 16000 * 2 // len(pcm) + 1)  # > 60 s (MAX_AUDIO_S)

    async def long_chunks():
        for i in range(0, len(long_pcm), 2048):
            yield long_pcm[i:i + 2048]

    t0 = time.monotonic()
    try:
        res = await asyncio.wait_for(sttp.async_process_audio_stream(meta, long_chunks()), 15)
        detail = f"{res.result} text={res.text!r}"
        ok = True
    except TimeoutError:
        detail = "HA's STT client still waiting after 15 s (no transcript after our error event)"
        ok = False
    report(f"A7 STT with {len(long_pcm) / 32000:.0f} s of audio (over our 60 s limit)", ok,
           f"{detail} ({time.monotonic() - t0:.1f} s)")

    t0 = time.monotonic()
    try:
        fmt3, data3 = await asyncio.wait_for(
            ttsp.async_get_tts_audio("This is a long text. " * 250, "en", {}), 15)
        ok, detail = True, f"format={fmt3} {wav_info(data3) if data3 else data3}"
    except TimeoutError:
        ok, detail = False, ("HA's TTS client still waiting after 15 s (no audio-stop after "
                             "our error event)")
    report("A8 TTS with 5250 characters (over our 4096 limit)", ok,
           f"{detail} ({time.monotonic() - t0:.1f} s)")


# --- B/C: a running HA core ----------------------------------------------------------------------
async def login(session, base: str, user: str, password: str) -> str:
    cid = base + "/"
    async with session.post(f"{base}/auth/login_flow", json={
            "client_id": cid, "handler": ["homeassistant", None], "redirect_uri": cid}) as r:
        flow = await r.json()
    async with session.post(f"{base}/auth/login_flow/{flow['flow_id']}", json={
            "client_id": cid, "username": user, "password": password}) as r:
        res = await r.json()
    async with session.post(f"{base}/auth/token", data={
            "grant_type": "authorization_code", "code": res["result"], "client_id": cid}) as r:
        return (await r.json())["access_token"]


async def part_b(base: str, user: str, password: str, host: str, port: int, wav: str):
    import aiohttp

    async with aiohttp.ClientSession() as s:
        token = await login(s, base, user, password)
        h = {"Authorization": f"Bearer {token}"}
        report("B0 login", True, "access token obtained")

        # the config flow, exactly as Settings -> Add integration -> Wyoming Protocol does
        async with s.get(f"{base}/api/config/config_entries/entry?domain=wyoming",
                         headers=h) as r:
            existing = [e for e in await r.json()
                        if e["domain"] == "wyoming"] if r.status == 200 else []
        for e in existing:  # start clean
            async with s.delete(f"{base}/api/config/config_entries/entry/{e['entry_id']}",
                                headers=h) as r:
                pass
        async with s.post(f"{base}/api/config/config_entries/flow", headers=h,
                          json={"handler": "wyoming", "show_advanced_options": False}) as r:
            form = await r.json()
        report("B1 config flow start", form.get("type") == "form", json.dumps(form)[:300])
        async with s.post(f"{base}/api/config/config_entries/flow/{form['flow_id']}", headers=h,
                          json={"host": host, "port": port}) as r:
            done = await r.json()
        report("B2 config flow submit host/port", done.get("type") == "create_entry",
               json.dumps(done)[:500])
        entry_id = done.get("result", {}).get("entry_id")
        for _ in range(20):
            async with s.get(f"{base}/api/config/config_entries/entry?domain=wyoming",
                             headers=h) as r:
                entries = [e for e in await r.json() if e["entry_id"] == entry_id]
            if entries and entries[0]["state"] != "setup_in_progress":
                break
            await asyncio.sleep(0.5)
        report("B3 config entry state", bool(entries) and entries[0]["state"] == "loaded",
               json.dumps(entries)[:400])

        async with s.get(f"{base}/api/states", headers=h) as r:
            states = await r.json()
        ours = [st for st in states if st["entity_id"].split(".")[0] in ("stt", "tts",
                                                                         "conversation")]
        report("B4 entities", any(st["entity_id"].startswith("stt.") for st in ours)
               and any(st["entity_id"].startswith("tts.") for st in ours),
               "; ".join(f"{st['entity_id']} ({st['attributes'].get('friendly_name')})"
                         for st in ours))
        stt_id = next((st["entity_id"] for st in ours if st["entity_id"].startswith("stt.")),
                      None)
        tts_id = next((st["entity_id"] for st in ours if st["entity_id"].startswith("tts.")),
                      None)

        if stt_id:
            async with s.get(f"{base}/api/stt/{stt_id}", headers=h) as r:
                caps = await r.json()
            report("B5 GET /api/stt/<entity> (capabilities)", r.status == 200, json.dumps(caps))
            pcm, rate = read_pcm(wav)
            hdr = dict(h, **{"X-Speech-Content": "format=wav; codec=pcm; sample_rate=16000; "
                             "bit_rate=16; channel=1; language=en"})
            t0 = time.monotonic()
            async with s.post(f"{base}/api/stt/{stt_id}", headers=hdr, data=pcm) as r:
                body = await r.text()
            report("B6 POST /api/stt/<entity> (speech-to-text)",
                   r.status == 200 and json.loads(body).get("result") == "success",
                   f"HTTP {r.status} {body} ({time.monotonic() - t0:.2f} s)")

        if tts_id:
            t0 = time.monotonic()
            async with s.post(f"{base}/api/tts_get_url", headers=h, json={
                    "engine_id": tts_id, "message": TTS_TEXT, "language": "en",
                    "options": {"voice": "diffvoice"}, "cache": False}) as r:
                body = await r.text()
            report("B7 POST /api/tts_get_url", r.status == 200, f"HTTP {r.status} {body}")
            if r.status == 200:
                url = json.loads(body)["path"]
                async with s.get(f"{base}{url}", headers=h) as r:
                    audio = await r.read()
                    ctype = r.headers.get("Content-Type")
                # HA 2024.3 converts to mp3 by default (ffmpeg); a WAV comes back as-is
                ok = r.status == 200 and (audio[:4] == b"RIFF" or audio[:3] == b"ID3"
                                          or audio[:1] == b"\xff")
                ext = url.rsplit(".", 1)[-1]
                (OUT / f"ha_tts.{ext}").write_bytes(audio)  # noqa: ASYNC240
                report("B8 GET tts audio (HA default format)", ok, f"HTTP {r.status} {ctype} "
                       f"{wav_info(audio) if audio[:4] == b'RIFF' else f'{len(audio)} bytes'} "
                       f"{'' if ok else repr(audio[:200])}({time.monotonic() - t0:.2f} s)"
                       f" -> {OUT}/ha_tts.{ext}")
            async with s.post(f"{base}/api/tts_get_url", headers=h, json={
                    "engine_id": tts_id, "message": "Now as a WAV file.", "language": "en",
                    "options": {"voice": "diffvoice", "preferred_format": "wav"},
                    "cache": False}) as r:
                body = await r.json()
            async with s.get(f"{base}{body['path']}", headers=h) as r:
                audio = await r.read()
            ok = r.status == 200 and audio[:4] == b"RIFF"
            report("B9 tts with preferred_format=wav (no ffmpeg)", ok,
                   f"{body['path']} HTTP {r.status} "
                   f"{wav_info(audio) if ok else audio[:200]!r}")
        return token, stt_id, tts_id


async def part_c(base: str, token: str, stt_id: str, tts_id: str, wav: str) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as s, s.ws_connect(f"{base}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": token})
        assert (await ws.receive_json())["type"] == "auth_ok"
        n = 0

        async def call(msg):
            nonlocal n
            n += 1
            await ws.send_json({"id": n, **msg})
            while True:
                m = await ws.receive_json()
                if m.get("id") == n and m["type"] == "result":
                    return m

        r = await call({"type": "conversation/agent/list", "language": "en"})
        report("C0 conversation agents HA offers", r["success"],
               json.dumps(r.get("result"))[:300])
        r = await call({"type": "assist_pipeline/pipeline/create", "name": "diffvoice-verify",
                        "language": "en", "conversation_engine": "homeassistant",
                        "conversation_language": "en", "stt_engine": stt_id,
                        "stt_language": "en", "tts_engine": tts_id, "tts_language": "en",
                        "tts_voice": "diffvoice", "wake_word_entity": None,
                        "wake_word_id": None})
        report("C1 create Assist pipeline (our stt+tts, HA conversation)", r["success"],
               json.dumps(r.get("result") or r.get("error"))[:300])
        if not r["success"]:
            return
        pid = r["result"]["id"]

        n += 1
        await ws.send_json({"id": n, "type": "assist_pipeline/run", "start_stage": "stt",
                            "end_stage": "tts", "input": {"sample_rate": 16000},
                            "pipeline": pid, "timeout": 60})
        pcm, _ = read_pcm(wav)
        pcm += b"\0" * 16000 * 2 * 2  # 2 s of silence so HA's VAD sees the end of speech
        events, handler = [], None
        t0 = time.monotonic()
        while True:
            m = await asyncio.wait_for(ws.receive_json(), 120)
            if m.get("type") == "result":
                if not m["success"]:
                    events.append({"type": "result-error", "data": m.get("error")})
                    break
                continue
            ev = m.get("event", {})
            events.append(ev)
            if ev.get("type") == "run-start":
                handler = ev["data"]["runner_data"]["stt_binary_handler_id"]
                for i in range(0, len(pcm), 1024):
                    await ws.send_bytes(bytes([handler]) + pcm[i:i + 1024])
                await ws.send_bytes(bytes([handler]))  # end of audio
            if ev.get("type") in ("run-end", "error"):
                if ev.get("type") == "error":
                    continue  # run-end follows
                break
        for ev in events:
            print("   pipeline event:", json.dumps(ev)[:400])
        by = {ev.get("type"): ev.get("data") or {} for ev in events}
        stt_text = (by.get("stt-end") or {}).get("stt_output", {}).get("text")
        speech = ((by.get("intent-end") or {}).get("intent_output") or {}).get(
            "response", {}).get("speech", {}).get("plain", {}).get("speech")
        tts_out = (by.get("tts-end") or {}).get("tts_output")
        report("C2 pipeline stt (our Whisper)", bool(stt_text), repr(stt_text))
        report("C3 pipeline intent (HA's own agent)", "intent-end" in by, repr(speech))
        report("C4 pipeline tts (our Piper)", bool(tts_out), json.dumps(tts_out))
        if "error" in by:
            report("C5 pipeline error event", False, json.dumps(by["error"]))
        if tts_out and tts_out.get("url"):
            async with s.get(f"{base}{tts_out['url']}") as r:
                audio = await r.read()
            ok = r.status == 200 and audio[:4] in (b"RIFF",) or audio[:3] == b"ID3"
            ext = tts_out["url"].rsplit(".", 1)[-1]
            (OUT / f"ha_pipeline_tts.{ext}").write_bytes(audio)  # noqa: ASYNC240
            report("C6 fetch pipeline tts audio", ok,
                   f"HTTP {r.status} {r.headers.get('Content-Type')} "
                   f"{wav_info(audio) if audio[:4] == b'RIFF' else f'{len(audio)} bytes'}")
        print(f"   pipeline took {time.monotonic() - t0:.2f} s")
        await call({"type": "assist_pipeline/pipeline/delete", "pipeline_id": pid})


# --- D: handle, with the wyoming client HA 2024.3 pins --------------------------------------------
async def part_d(host: str, port: int) -> None:
    """What HA >= 2024.9's wyoming conversation entity sends (homeassistant/components/wyoming/
    conversation.py: one connection per turn, Transcript(text, context={"conversation_id": ...},
    language=...), then reads until handled / not-handled / error)."""
    from wyoming.client import AsyncTcpClient
    from wyoming.event import Event
    from wyoming.handle import Handled, NotHandled

    conv = f"verify-{int(time.time())}"
    turns = ["What is seven times eight?", "And what is that plus one?",
             "Tell me a short joke."]
    for k, text in enumerate(turns, 1):
        t0 = time.monotonic()
        async with AsyncTcpClient(host, port) as c:
            # wyoming 1.5.3's Transcript has no `language` field; newer HA sends one
            await c.write_event(Event(type="transcript", data={
                "text": text, "context": {"conversation_id": conv}, "language": "en"}))
            while True:
                try:
                    ev = await asyncio.wait_for(c.read_event(), 300)
                except TimeoutError:
                    report(f"D{k} handle {text!r}", False, "no reply in 300 s")
                    break
                if ev is None:
                    report(f"D{k} handle {text!r}", False, "connection closed")
                    break
                if Handled.is_type(ev.type) or NotHandled.is_type(ev.type) or ev.type == "error":
                    report(f"D{k} handle {text!r}", Handled.is_type(ev.type),
                           f"{ev.type} {ev.data} ({time.monotonic() - t0:.2f} s)")
                    break
                print("   other event:", ev.type, ev.data)


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wyoming", default="127.0.0.1:10391")
    ap.add_argument("--ha", help="base URL of a running HA core, e.g. http://127.0.0.1:8129")
    ap.add_argument("--user", default="verify")
    ap.add_argument("--password", default="verifypass123")
    ap.add_argument("--wav", default=WAV)
    ap.add_argument("--no-handle", action="store_true")
    a = ap.parse_args()
    host, port = a.wyoming.rsplit(":", 1)
    port = int(port)
    import homeassistant.const
    print(f"homeassistant {homeassistant.const.__version__}, wyoming client "
          f"{importlib.metadata.version('wyoming')}, "
          f"python {sys.version.split()[0]}")
    await part_a(host, port, a.wav)
    if a.ha:
        token, stt_id, tts_id = await part_b(a.ha, a.user, a.password, host, port, a.wav)
        if stt_id and tts_id:
            await part_c(a.ha, token, stt_id, tts_id, a.wav)
    if not a.no_handle:
        await part_d(host, port)
    print("\nSUMMARY")
    for name, ok, _ in results:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
