// The conversation as the page shows it: one row per turn (what the user said, the reply, a
// latency bar of the pipeline's stages), errors and the activity line. app.js drives it from the
// server's events; the page's state (window.diffvoice) keeps what each turn said.

import { STAGES } from "./protocol.js";

export const $ = (id) => document.getElementById(id);

const STAGE_LABELS = {
  turn_detected: "end of turn",
  asr_done: "speech recognised",
  first_text: "first reply text",
  first_tts_audio: "first speech synthesised",
  first_audio_out: "first audio out",
  reply_done: "reply complete",
};

export function setText(b, text) {
  b.querySelector(".text").textContent = text;
}

function bubble(kind, who) {
  const b = document.createElement("div");
  b.className = `bubble ${kind}`;
  const w = document.createElement("span");
  w.className = "who";
  w.textContent = who;
  const t = document.createElement("span");
  t.className = "text";
  b.append(w, t);
  return b;
}

export class ConversationView {
  constructor(state) {
    this.state = state; // its turns and errors
    this.views = {}; // turn → { el, user, bot, lat }
    this.maxLatency = 1000; // ms, the scale of the latency bars
  }

  /** The page's record of `turn` (created empty). */
  record(turn) {
    if (!this.state.turns[turn]) this.state.turns[turn] = {};
    return this.state.turns[turn];
  }

  /** The row of `turn`, created in turn order whatever arrives first. */
  turn(turn) {
    this.record(turn);
    if (this.views[turn]) return this.views[turn];
    const el = document.createElement("div");
    el.className = "turn";
    el.dataset.turn = turn;
    const user = bubble("user", "you");
    const bot = bubble("assistant", "assistant");
    bot.hidden = true;
    const lat = document.createElement("div");
    lat.className = "latency";
    lat.hidden = true;
    el.append(user, bot, lat);
    const later = [...$("conversation").querySelectorAll(".turn")].find(
      (n) => Number(n.dataset.turn) > turn,
    );
    $("conversation").insertBefore(el, later || null);
    this.views[turn] = { el, user, bot, lat };
    el.scrollIntoView({ block: "end" });
    return this.views[turn];
  }

  drawLatency(turn) {
    const lat = this.state.turns[turn].latency_ms || {};
    const top = Math.max(0, ...Object.values(lat));
    if (top > this.maxLatency) {
      this.maxLatency = top;
      Object.keys(this.views).forEach((k) => Number(k) !== turn && this.renderBar(Number(k)));
    }
    this.renderBar(turn);
  }

  renderBar(turn) {
    const r = this.state.turns[turn];
    const v = this.views[turn];
    if (!r || !v || !r.latency_ms) return;
    const stages = STAGES.filter((s) => r.latency_ms[s] !== undefined)
      .map((s) => [s, r.latency_ms[s]])
      .sort((a, b) => a[1] - b[1]);
    v.lat.replaceChildren();
    const bar = document.createElement("div");
    bar.className = "bar";
    let prev = 0;
    for (const [name, ms] of stages) {
      const seg = document.createElement("div");
      seg.className = `seg ${name}`;
      seg.style.width = `${(Math.max(ms - prev, 0) / this.maxLatency) * 100}%`;
      seg.style.background = `var(--s-${name})`;
      seg.title = `${STAGE_LABELS[name]}: ${Math.round(ms)} ms (+${Math.round(ms - prev)})`;
      bar.append(seg);
      prev = Math.max(prev, ms);
    }
    const total = document.createElement("span");
    total.className = "total";
    const out = r.latency_ms.first_audio_out;
    total.textContent = out !== undefined ? `${Math.round(out)} ms to voice` : "no audio";
    const stats = document.createElement("span");
    stats.className = "stats";
    const s = r.stats || {};
    stats.textContent = s.nfe !== undefined ? `${s.nfe} passes · ${s.tokens ?? "?"} tokens` : "";
    v.lat.append(bar, total, stats);
    v.lat.hidden = false;
  }

  activity(text) {
    $("activity").textContent = text;
  }

  error(message) {
    this.state.errors.push({ message });
    const p = document.createElement("p");
    p.className = "error-line";
    p.textContent = message;
    $("conversation").append(p);
  }

  legend() {
    for (const s of STAGES) {
      const span = document.createElement("span");
      span.textContent = STAGE_LABELS[s];
      span.style.setProperty("--c", `var(--s-${s})`);
      $("legend").append(span);
    }
  }
}
