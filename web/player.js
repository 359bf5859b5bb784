// Gapless playback of the reply audio: each PCM16 chunk becomes an AudioBufferSourceNode
// scheduled to start exactly where the previous one ends. stop() silences everything at once.

const LEAD_S = 0.05; // head start for the first chunk after a gap, against scheduling jitter

export class Player {
  /** @param {AudioContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.sources = new Set();
    this.nextTime = 0;
    this.playedSamples = 0; // samples that actually played (at their own rate)
    this.playedSeconds = 0;
    this.onIdle = null; // called when the last scheduled chunk has finished
    this.output = ctx.createGain();
    this.output.connect(ctx.destination);
  }

  /** Queue one chunk of int16 samples at `sampleRate`. */
  push(int16, sampleRate) {
    if (!int16.length) return;
    const f = new Float32Array(int16.length);
    for (let i = 0; i < int16.length; i++) f[i] = int16[i] / 32768;
    const buf = this.ctx.createBuffer(1, f.length, sampleRate);
    buf.copyToChannel(f, 0);
    const src = this.ctx.createBufferSource();
    src.buffer = buf;
    src.connect(this.output);
    const when = Math.max(this.ctx.currentTime + LEAD_S, this.nextTime);
    src.start(when);
    src.startedAt = when;
    this.nextTime = when + buf.duration;
    src.onended = () => {
      if (!this.sources.delete(src)) return; // stopped: already counted
      this.playedSamples += f.length;
      this.playedSeconds += buf.duration;
      if (this.sources.size === 0 && this.onIdle) this.onIdle();
    };
    this.sources.add(src);
  }

  /** Whether anything is playing or scheduled. */
  get busy() {
    return this.sources.size > 0;
  }

  /** Barge-in: silence now and drop everything queued; counts what was heard. */
  stop() {
    const now = this.ctx.currentTime;
    for (const src of this.sources) {
      const heard = Math.min(Math.max(now - src.startedAt, 0), src.buffer.duration);
      this.playedSamples += Math.round(heard * src.buffer.sampleRate);
      this.playedSeconds += heard;
      src.onended = null;
      try {
        src.stop();
      } catch {
        // never started: nothing to stop
      }
      src.disconnect();
    }
    this.sources.clear();
    this.nextTime = 0;
  }
}
