"""The page in a real headless Chromium (Debian's ``chromium``, driven by playwright) with a fake
microphone fed from a Piper-spoken WAV: the spoken question is transcribed, the reply arrives and
its audio actually plays in the page; two browsers keep separate conversations; the server's
stop silences playback at once; the capture worklet downsamples correctly.

Set ``DIFFVOICE_BROWSER_TESTS=0`` to skip these tests on a machine without Chromium.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from tests.web.conftest import ARTIFACTS, DEMO_MODEL, ServerThread, heard, words
from voice.audio import SAMPLE_RATE, write_wav
from voice.config import load_config
from voice.models import Models

if os.environ.get("DIFFVOICE_BROWSER_TESTS", "1") == "0":
    pytest.skip("DIFFVOICE_BROWSER_TESTS=0", allow_module_level=True)

from playwright.sync_api import Browser, Page, Playwright, sync_playwright  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu",
    "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]
QUESTION = "What is the capital of France?"
OTHER_QUESTION = "What is seven times eight?"
TURN_TIMEOUT_MS = 90_000  # a turn takes a few seconds; the machine is shared


@pytest.fixture(scope="module")
def pw() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            "Chromium not found: apt-get install chromium (scripts/setup.sh does), "
            "or set DIFFVOICE_BROWSER_TESTS=0"
        )
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def demo_models() -> Iterator[Models | None]:
    """The bundled demo model when it has been trained, else None (the tiny one is used)."""
    if not (DEMO_MODEL / "config.json").exists():
        yield None
        return
    m = Models(load_config(None, [f"engine.model={DEMO_MODEL}"]))
    yield m
    m.close()


@pytest.fixture(scope="module")
def server(tiny_models: Models, demo_models: Models | None) -> Iterator[ServerThread]:
    models = demo_models or tiny_models
    with ServerThread(models, models.cfg) as s:
        yield s


@contextmanager
def browser(pw: Playwright, wav: Path) -> Iterator[Browser]:
    """A fresh Chromium whose fake microphone plays ``wav`` once."""
    b = pw.chromium.launch(
        executable_path=CHROMIUM,
        args=[*FLAGS, f"--use-file-for-fake-audio-capture={wav}%noloop"],
    )
    try:
        yield b
    finally:
        b.close()


def open_page(b: Browser, url: str, transport: str | None = "websocket") -> Page:
    """The page, on ``transport`` (None: the page's default, WebRTC). These tests of the
    page's own audio path (its player, its sample counts) ask for the websocket; the WebRTC
    tests below take the default."""
    # The page's CSP forbids eval; playwright's wait_for_function needs it.
    page = b.new_context(bypass_csp=True, viewport={"width": 1000, "height": 720}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    if transport:
        base, _, fragment = url.partition("#")
        url = f"{base}?transport={transport}" + (f"#{fragment}" if fragment else "")
    page.goto(url)
    return page


def wait_turn_played(page: Page, turn: int = 1) -> dict:
    """Wait until ``turn`` has its metrics and reply audio has played; return the page state."""
    page.wait_for_function(
        f"""() => {{
            const s = window.diffvoice, t = s.turns[{turn}];
            return (t && t.latency_ms && s.playedSamples > 0) || s.errors.length > 0;
        }}""",
        timeout=TURN_TIMEOUT_MS,
    )
    state = page.evaluate("window.diffvoice")
    assert not state["errors"], state["errors"]
    return state


@pytest.fixture(scope="module")
def silence_wav(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("silence") / "silence.wav"
    write_wav(path, np.zeros(SAMPLE_RATE * 4, dtype=np.int16), SAMPLE_RATE)
    return path


def test_spoken_question_gets_a_spoken_reply(
    pw: Playwright, server: ServerThread, spoken_wav: Callable[[str], Path], demo_models
) -> None:
    with browser(pw, spoken_wav(QUESTION)) as b:
        page = open_page(b, server.url)
        page.click("#toggle")
        state = wait_turn_played(page)
        turn = state["turns"]["1"]
        assert heard(turn["transcript"], QUESTION), turn["transcript"]
        assert turn["reply"].strip()
        if demo_models is not None:
            assert "paris" in turn["reply"].lower()
        assert state["sampleRate"] > SAMPLE_RATE  # captured at the device rate, downsampled
        assert state["playedSamples"] > 0 and state["receivedSamples"] > 0
        assert {"asr_done", "first_audio_out"} <= set(turn["latency_ms"])
        # The page shows it: transcript, reply, a latency bar with a segment per stage.
        assert page.inner_text(".turn .user .text") == turn["transcript"]
        page.wait_for_function(
            "() => document.querySelector('.turn .assistant .text').textContent"
            " === window.diffvoice.turns[1].reply"
        )
        assert page.locator(".turn .latency .seg").count() >= 4
        assert not page.errors
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "browser-turn.png"
        page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")


def test_two_browsers_keep_separate_conversations(
    pw: Playwright, server: ServerThread, spoken_wav: Callable[[str], Path]
) -> None:
    questions = (QUESTION, OTHER_QUESTION)
    with browser(pw, spoken_wav(questions[0])) as b1, browser(pw, spoken_wav(questions[1])) as b2:
        pages = [open_page(b, server.url) for b in (b1, b2)]
        for p in pages:
            p.click("#toggle")
        for p in pages:
            p.wait_for_function("() => window.diffvoice.status === 'live'")
        assert len(server.server.sessions) == 2
        states = [wait_turn_played(p) for p in pages]
        assert states[0]["session"] != states[1]["session"]
        for p, state, mine in zip(pages, states, questions, strict=True):
            assert words(state["turns"]["1"]["transcript"]) == words(mine)
            # Only its own turns: under a full suite's load a capture glitch can make a second,
            # empty turn in the same session (seen once), never the other browser's question.
            heard = [words(t.get("transcript") or "") for t in state["turns"].values()]
            assert all(h in (words(mine), []) for h in heard), state["turns"]
            shown = [words(t) for t in p.locator(".turn .user .text").all_inner_texts()]
            assert shown[0] == words(mine) and all(t in (words(mine), []) for t in shown)


def test_server_stop_silences_playback_at_once(
    pw: Playwright, server: ServerThread, silence_wav: Path
) -> None:
    with browser(pw, silence_wav) as b:
        page = open_page(b, server.url)
        page.click("#toggle")
        page.wait_for_function("() => window.diffvoice.status === 'live'")
        page.fill("#text", "tell me about the moon and the sun")
        page.click("#send")
        page.wait_for_function("() => window.diffvoice.playing", timeout=TURN_TIMEOUT_MS)
        page.click("#interrupt")
        page.wait_for_function("() => window.diffvoice.stops > 0", timeout=TURN_TIMEOUT_MS)
        state = page.evaluate("window.diffvoice")
        assert not state["playing"]  # nothing left scheduled
        played = state["playedSamples"]
        assert played < state["receivedSamples"]
        page.wait_for_timeout(500)
        after = page.evaluate("window.diffvoice")
        assert after["playedSamples"] == played and not after["playing"]
        page.wait_for_function("() => window.diffvoice.turns[1].interrupted === true")
        assert page.locator(".turn .assistant.interrupted").count() == 1


RESAMPLE_JS = """async ([rate, freq]) => {
    const ctx = new OfflineAudioContext(1, rate, rate);  // one second
    await ctx.audioWorklet.addModule("capture-worklet.js");
    const osc = new OscillatorNode(ctx, { frequency: freq });
    const gain = new GainNode(ctx, { gain: 0.5 });
    const node = new AudioWorkletNode(ctx, "capture-processor",
        { processorOptions: { targetRate: 16000, chunkMs: 20 } });
    const chunks = [];
    node.port.onmessage = (e) => chunks.push(Array.from(new Int16Array(e.data.pcm)));
    osc.connect(gain).connect(node).connect(ctx.destination);
    osc.start();
    await ctx.startRendering();
    let n = -1;
    while (n !== chunks.length) { n = chunks.length; await new Promise((r) => setTimeout(r, 100)); }
    return chunks.flat();
}"""


@pytest.mark.parametrize("rate", [44100, 48000, 22050])
def test_capture_worklet_downsamples_to_16k(
    pw: Playwright, server: ServerThread, silence_wav: Path, rate: int
) -> None:
    with browser(pw, silence_wav) as b:
        page = open_page(b, server.url)
        tone = np.array(page.evaluate(RESAMPLE_JS, [rate, 440]), dtype=np.float64) / 32768
        # One second in, 20 ms chunks out (the last partial chunk stays in the worklet).
        assert SAMPLE_RATE - 320 <= len(tone) <= SAMPLE_RATE
        x = tone[200:]
        peak_hz = np.argmax(np.abs(np.fft.rfft(x))) * SAMPLE_RATE / len(x)
        assert abs(peak_hz - 440) < 3
        assert np.sqrt(np.mean(x**2)) == pytest.approx(0.5 / np.sqrt(2), rel=0.03)
        # Above the new Nyquist: filtered out, not folded back into the speech band.
        high = min(12000, rate // 2 - 500)
        alias = np.array(page.evaluate(RESAMPLE_JS, [rate, high]), dtype=np.float64) / 32768
        assert np.sqrt(np.mean(alias[200:] ** 2)) < 0.005


def test_token_with_plus_sign_from_the_printed_link(
    pw: Playwright, tiny_models: Models, silence_wav: Path
) -> None:
    """The link the server prints (``#token=abc+def``) connects: '+' is not read as a space."""
    with ServerThread(tiny_models, tiny_models.cfg, token="abc+def") as s, \
            browser(pw, silence_wav) as b:
        page = open_page(b, s.url + "#token=abc+def")
        page.click("#toggle")
        page.wait_for_function(
            "() => window.diffvoice.status === 'live' || window.diffvoice.status === 'error'",
            timeout=TURN_TIMEOUT_MS,
        )
        state = page.evaluate("window.diffvoice")
        assert state["status"] == "live" and state["session"], state["errors"]
        assert len(s.server.sessions) == 1


# --- WebRTC: the page's default transport ------------------------------------------------------
def test_webrtc_is_the_default_and_a_spoken_question_gets_a_spoken_reply(
    pw: Playwright, server: ServerThread, spoken_wav: Callable[[str], Path], demo_models
) -> None:
    """The fake microphone goes up as Opus media, the events over the data channel, and the
    reply comes back as a media track the page plays (heard through an analyser)."""
    with browser(pw, spoken_wav(QUESTION, lead_s=4.0)) as b:
        page = open_page(b, server.url, transport=None)
        page.click("#toggle")
        page.wait_for_function(
            """() => { const s = window.diffvoice, t = s.turns[1];
                       return (t && t.latency_ms && s.heardMs > 300) || s.errors.length > 0
                              || s.status === 'error'; }""",
            timeout=TURN_TIMEOUT_MS,
        )
        state = page.evaluate("window.diffvoice")
        assert not state["errors"] and state["status"] == "live", state
        assert state["transport"] == "webrtc", state["transportNote"]
        assert page.inner_text("#transport") == "via WebRTC"
        turn = state["turns"]["1"]
        assert heard(turn["transcript"], QUESTION), turn["transcript"]
        if demo_models is not None:
            assert "paris" in turn["reply"].lower()
        assert state["sentBytes"] == 0 and state["receivedSamples"] == 0  # no websocket audio
        assert {"asr_done", "first_audio_out"} <= set(turn["latency_ms"])
        assert not page.errors


def test_webrtc_with_the_printed_token_and_the_websocket_fallback(
    pw: Playwright, tiny_models: Models, silence_wav: Path
) -> None:
    """The token goes with the offer; a server without WebRTC leaves the websocket."""
    with ServerThread(tiny_models, tiny_models.cfg, token="abc+def") as s, \
            browser(pw, silence_wav) as b:
        page = open_page(b, s.url + "#token=abc+def", transport=None)
        page.click("#toggle")
        page.wait_for_function("() => ['live', 'error'].includes(window.diffvoice.status)",
                               timeout=TURN_TIMEOUT_MS)
        state = page.evaluate("window.diffvoice")
        assert state["status"] == "live" and state["transport"] == "webrtc", state
        assert len(s.server.calls) == 1, s.server.calls
        assert len(s.server.sessions) == 1, s.server.sessions
        page.click("#toggle")  # stop: the call ends, and with it the session
        for _ in range(100):
            if not s.server.sessions:
                break
            page.wait_for_timeout(50)
        assert not s.server.sessions
        # An offer the server cannot take (as a server without WebRTC answers it): the page
        # says why and talks over the websocket instead.
        page.route("**/rtc", lambda route: route.fulfill(status=404, body="no"))
        page.click("#toggle")
        page.wait_for_function("() => ['live', 'error'].includes(window.diffvoice.status)",
                               timeout=TURN_TIMEOUT_MS)
        state = page.evaluate("window.diffvoice")
        assert state["status"] == "live" and state["transport"] == "websocket", state
        assert "WebRTC failed" in state["transportNote"]
        assert page.inner_text("#transport") == "via websocket"
