// The diffvoice browser client: microphone → server pipeline → reply audio, over WebRTC (the
// default: Opus media with the browser's echo cancellation and jitter buffer, the events on a
// data channel) or the websocket (the fallback, or ?transport=websocket). Plain ES module, no
// build step. The protocol is in docs/protocol.md; names in protocol.js.

import {
  CLIENT, INPUT_SAMPLE_RATE, SERVER, event, parseEvent,
} from "./protocol.js";
import { Player } from "./player.js";
import { $, ConversationView, setText } from "./view.js";

// What the page knows; tests read it as window.diffvoice.
const state = {
  status: "idle", // idle | connecting | live | closed | error
  session: null,
  sampleRate: null, // the AudioContext's own rate
  playedSamples: 0,
  turns: {}, // id → { transcript, reply, interrupted, spoken, latency_ms, stats, error }
  errors: [],
  sentBytes: 0, // microphone audio sent
  receivedSamples: 0, // reply audio received
  stops: 0, // reply.audio.stop events obeyed
  transport: null, // "webrtc" | "websocket", once connected
  transportNote: "", // why WebRTC was not used, when it was not
  heardMs: 0, // WebRTC: reply audio heard on the remote track (ms above a quiet level)
};
window.diffvoice = state;
const view = new ConversationView(state);

let ctx = null;
let ws = null;
let pc = null; // WebRTC: the peer connection, and its data channel for the events
let dc = null;
let remote = null; // WebRTC: the <audio> element playing the reply track
let meterTimer = null;
let stream = null;
let captureNode = null;
let player = null;
let audio = { turn: null, rate: 0, ended: false }; // the reply audio being received
let level = 0;
Object.defineProperty(state, "playing", { enumerable: true, get: () => !!player && player.busy });

// The token from the link (#token=... or ?token=...), read literally: URLSearchParams would
// turn a '+' in it into a space (form encoding), and the server would refuse the token.
function linkParam(part, name) {
  for (const item of part.replace(/^[#?]/, "").split("&")) {
    const eq = item.indexOf("=");
    if (eq > 0 && item.slice(0, eq) === name) {
      try {
        return decodeURIComponent(item.slice(eq + 1));
      } catch {
        return item.slice(eq + 1);
      }
    }
  }
  return null;
}

function token() {
  return linkParam(location.hash, "token") || linkParam(location.search, "token");
}

function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const t = token();
  return `${scheme}://${location.host}/ws${t ? `?token=${encodeURIComponent(t)}` : ""}`;
}

function setStatus(status, text) {
  state.status = status;
  const el = $("status");
  el.textContent = text;
  el.className = `status ${status}`;
  const live = status === "live" || status === "connecting";
  $("toggle").textContent = live ? "Stop" : "Start";
  $("toggle").classList.toggle("live", live);
  $("text").disabled = $("send").disabled = $("interrupt").disabled = status !== "live";
}

function send(type, fields) {
  if (dc && dc.readyState === "open") dc.send(event(type, fields));
  else if (ws && ws.readyState === WebSocket.OPEN) ws.send(event(type, fields));
}

function showTransport(kind, note = "") {
  state.transport = kind;
  state.transportNote = note;
  const el = $("transport");
  el.textContent = kind === "webrtc" ? "via WebRTC" : "via websocket";
  el.title = note || (kind === "webrtc" ? "audio as media, events on a data channel"
    : "audio and events on one websocket");
}

// --- start / stop ---------------------------------------------------------------------------
async function start() {
  setStatus("connecting", "connecting…");
  let c = null;
  let mic = null;
  try {
    c = new AudioContext({ latencyHint: "interactive" });
    await c.resume();
    await c.audioWorklet.addModule("capture-worklet.js");
    mic = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
  } catch (err) {
    if (c) c.close();
    fail(`microphone or audio unavailable: ${err.message || err}`);
    return;
  }
  if (state.status !== "connecting") { // stopped while the microphone was being opened
    mic.getTracks().forEach((t) => t.stop());
    c.close();
    return;
  }
  ctx = c;
  stream = mic;
  state.sampleRate = ctx.sampleRate;
  player = new Player(ctx);
  player.onIdle = onPlaybackIdle;
  const source = ctx.createMediaStreamSource(stream);
  captureNode = new AudioWorkletNode(ctx, "capture-processor", {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [1],
    processorOptions: { targetRate: INPUT_SAMPLE_RATE, chunkMs: 20 },
  });
  captureNode.port.onmessage = onCapture;
  source.connect(captureNode);
  captureNode.connect(ctx.destination); // silent: keeps the node pulled in every browser

  const want = (linkParam(location.search, "transport") || "webrtc").toLowerCase();
  let note = want === "websocket" ? "asked for in the link" : "";
  if (want !== "websocket") {
    if (!window.RTCPeerConnection) {
      note = "this browser has no WebRTC";
    } else {
      try {
        await connectWebRTC();
        return;
      } catch (err) {
        if (err.final) {
          fail(err.message);
          return;
        }
        note = `WebRTC failed (${err.message || err}); the websocket is the fallback`;
      }
    }
  }
  if (state.status !== "connecting") return;
  connectWebSocket(note);
}

// --- WebRTC (POST /rtc: our protocol on a data channel, audio as media) ----------------------
async function connectWebRTC() {
  const peer = new RTCPeerConnection();
  stream.getAudioTracks().forEach((t) => peer.addTrack(t, stream));
  const channel = peer.createDataChannel("events");
  const speaker = new Audio();
  speaker.autoplay = true;
  peer.ontrack = (e) => {
    const s = e.streams[0] || new MediaStream([e.track]);
    speaker.srcObject = s;
    speaker.play().catch(() => {});
    listenTo(s);
  };
  try {
    await peer.setLocalDescription(await peer.createOffer());
    await gathered(peer, 2000);
    const t = token();
    const resp = await fetch("/rtc", {
      method: "POST",
      headers: { "Content-Type": "application/sdp", ...(t ? { Authorization: `Bearer ${t}` } : {}) },
      body: peer.localDescription.sdp,
    });
    if (resp.status !== 201) {
      let msg = `HTTP ${resp.status}`;
      try {
        msg = (await resp.json()).error.message || msg;
      } catch { /* not JSON */ }
      const err = new Error(msg);
      err.final = [401, 403, 429, 503].includes(resp.status); // the websocket would be refused too
      throw err;
    }
    await peer.setRemoteDescription({ type: "answer", sdp: await resp.text() });
    await opened(channel, 8000);
  } catch (err) {
    peer.close();
    throw err;
  }
  if (state.status !== "connecting") {
    peer.close();
    return;
  }
  pc = peer;
  dc = channel;
  remote = speaker;
  showTransport("webrtc");
  channel.onmessage = (m) => {
    if (typeof m.data === "string") onEvent(m.data);
  };
  channel.onclose = () => {
    if (state.status !== "idle" && dc === channel) {
      teardown();
      setStatus("closed", "session ended");
    }
  };
  send(CLIENT.SESSION_CONFIG, { output_sample_rate: ctx.sampleRate });
}

function gathered(peer, ms) {
  if (peer.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (peer.iceGatheringState === "complete") resolve();
    };
    peer.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, ms); // what was gathered by then
  });
}

function opened(channel, ms) {
  if (channel.readyState === "open") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no connection (firewall or NAT?)")), ms);
    channel.onopen = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

// How much reply audio is heard (the page's meter and state.heardMs): the remote track
// through an analyser, as the <audio> element plays it.
function listenTo(s) {
  if (!ctx) return;
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 1024;
  ctx.createMediaStreamSource(s).connect(analyser);
  const buf = new Float32Array(analyser.fftSize);
  clearInterval(meterTimer);
  meterTimer = setInterval(() => {
    analyser.getFloatTimeDomainData(buf);
    let sum = 0;
    for (const v of buf) sum += v * v;
    if (Math.sqrt(sum / buf.length) > 0.01) state.heardMs += 20;
  }, 20);
}

// --- websocket --------------------------------------------------------------------------------
function connectWebSocket(note) {
  showTransport("websocket", note);
  ws = new WebSocket(wsUrl());
  ws.binaryType = "arraybuffer";
  ws.onopen = () => send(CLIENT.SESSION_CONFIG, { output_sample_rate: ctx.sampleRate });
  ws.onmessage = (m) => (typeof m.data === "string" ? onEvent(m.data) : onAudio(m.data));
  ws.onclose = (e) => {
    if (state.status !== "idle") {
      const why = e.code === 1000 || e.code === 1001 ? "session ended" : `closed (${e.code})`;
      teardown();
      setStatus(e.code === 1000 || e.code === 1001 ? "closed" : "error", why);
    }
  };
  ws.onerror = () => view.error("connection failed (is diffvoice serve running? token?)");
}

function stop() {
  const socket = ws;
  teardown();
  setStatus("idle", "not connected");
  if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000, "stopped");
}

function teardown() {
  ws = null;
  if (pc) pc.close(); // the server's session ends with the call
  if (remote) remote.srcObject = null;
  clearInterval(meterTimer);
  pc = dc = remote = meterTimer = null;
  if (captureNode) {
    captureNode.port.postMessage("stop");
    captureNode.disconnect();
  }
  if (stream) stream.getTracks().forEach((t) => t.stop());
  if (player) {
    player.stop();
    state.playedSamples = player.playedSamples;
  }
  if (ctx) ctx.close();
  ctx = stream = captureNode = player = null;
  level = 0;
}

function fail(message) {
  teardown();
  setStatus("error", "error");
  view.error(message);
}

// --- microphone -----------------------------------------------------------------------------
function onCapture(e) {
  const { pcm, peak } = e.data;
  if (ws && ws.readyState === WebSocket.OPEN && state.session) {
    ws.send(pcm);
    state.sentBytes += pcm.byteLength;
  }
  const db = 20 * Math.log10(Math.max(peak, 1e-5)); // -100..0 dBFS
  level = Math.max(level * 0.85, Math.min(1, Math.max(0, (db + 60) / 60)));
  $("level").style.width = `${(level * 100).toFixed(1)}%`;
}

// --- server events --------------------------------------------------------------------------
function onEvent(text) {
  const ev = parseEvent(text);
  if (!ev) return;
  const t = ev.turn;
  switch (ev.type) {
    case SERVER.SESSION_STARTED:
      state.session = ev.session;
      setStatus("live", "listening");
      $("hint").hidden = true;
      break;
    case SERVER.SPEECH_STARTED:
      view.activity("hearing you…");
      break;
    case SERVER.SPEECH_STOPPED:
      view.turn(t).user.classList.add("pending");
      setText(view.turn(t).user, "…");
      view.activity("thinking…");
      break;
    case SERVER.TRANSCRIPT_PARTIAL:
    case SERVER.TRANSCRIPT_FINAL: {
      const v = view.turn(t);
      const final = ev.type === SERVER.TRANSCRIPT_FINAL;
      if (final) view.record(t).transcript = ev.text;
      v.user.classList.toggle("pending", !final);
      setText(v.user, ev.text || "(nothing recognised)");
      if (final && ev.text) {
        v.bot.hidden = false;
        v.bot.classList.add("pending");
        setText(v.bot, "…");
      }
      break;
    }
    case SERVER.REPLY_TEXT: {
      const r = view.record(t);
      r.reply = ev.final ? ev.text : (r.reply || "") + ev.delta;
      const v = view.turn(t);
      v.bot.hidden = false;
      v.bot.classList.toggle("pending", !r.reply);
      setText(v.bot, r.reply || "…");
      if (ev.final) view.activity("");
      break;
    }
    case SERVER.REPLY_AUDIO_START:
      audio = { turn: t, rate: ev.sample_rate, ended: false };
      view.activity("speaking…");
      break;
    case SERVER.REPLY_AUDIO_END:
      if (audio.turn === t) {
        audio.ended = true;
        if (!player || !player.busy) onPlaybackIdle();
      }
      break;
    case SERVER.REPLY_AUDIO_STOP:
      // Barge-in: silence now, and ignore whatever of this turn is still on its way.
      if (player) player.stop();
      state.stops += 1;
      if (audio.turn !== null && audio.turn <= t) audio = { turn: null, rate: 0, ended: false };
      syncPlayed();
      view.activity("");
      break;
    case SERVER.REPLY_INTERRUPTED: {
      const r = view.record(t);
      r.interrupted = true;
      r.spoken = ev.spoken;
      view.turn(t).bot.classList.add("interrupted");
      break;
    }
    case SERVER.TURN_METRICS:
      view.record(t).latency_ms = ev.latency_ms;
      view.record(t).stats = ev.stats;
      view.drawLatency(t);
      break;
    case SERVER.CONVERSATION_RESET:
      view.activity("conversation reset");
      break;
    case SERVER.TOOL_CALL: {
      // A built-in tool the assistant used: shown under the question, before the reply.
      const r = view.record(t);
      (r.tools = r.tools || []).push({ name: ev.name, arguments: ev.arguments, result: ev.result });
      const v = view.turn(t);
      const note = document.createElement("div");
      note.className = "tool";
      note.textContent = `${ev.name}: ${ev.result}`;
      v.el.insertBefore(note, v.bot);
      break;
    }
    case SERVER.TIMER_FIRED: {
      // A timer or reminder is due: the assistant speaks up in a turn of its own.
      const r = view.record(t);
      r.timer = { label: ev.label, reminder: ev.reminder };
      const v = view.turn(t);
      v.user.hidden = true;
      v.bot.hidden = false;
      v.bot.classList.add("timer");
      setText(v.bot, `⏰ ${ev.text}`);
      break;
    }
    case SERVER.ERROR:
      state.errors.push(ev);
      if (t !== undefined && state.turns[t]) {
        view.record(t).error = ev.message;
        const v = view.turn(t);
        v.bot.hidden = false;
        v.bot.classList.remove("pending");
        v.bot.classList.add("failed");
        setText(v.bot, ev.message);
      } else {
        view.error(ev.message);
      }
      view.activity("");
      break;
    default:
      break;
  }
}

function onAudio(buf) {
  if (!player || audio.turn === null || buf.byteLength % 2) return;
  state.receivedSamples += buf.byteLength / 2;
  player.push(new Int16Array(buf), audio.rate);
}

function onPlaybackIdle() {
  syncPlayed();
  if (audio.turn !== null && audio.ended) {
    send(CLIENT.PLAYBACK_DONE, { turn: audio.turn });
    audio = { turn: null, rate: 0, ended: false };
    view.activity("");
  }
}

function syncPlayed() {
  if (player) state.playedSamples = player.playedSamples;
}

// --- wiring ---------------------------------------------------------------------------------
$("toggle").addEventListener("click", () => (ws || pc || state.status === "connecting" ? stop() : start()));
$("interrupt").addEventListener("click", () => send(CLIENT.INTERRUPT));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") send(CLIENT.INTERRUPT);
});
$("text-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("text").value.trim();
  if (text) send(CLIENT.TEXT_INPUT, { text });
  $("text").value = "";
});
view.legend();
setStatus("idle", "not connected");
