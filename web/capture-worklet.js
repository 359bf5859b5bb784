// AudioWorklet capture: the microphone at the context's own rate (often 44.1 kHz, sometimes
// 48 kHz or other) → 16 kHz mono PCM16, posted to the page in 20 ms chunks with their level.
//
// Downsampling is a windowed-sinc low-pass (cut-off 0.45 × the output rate, Blackman window,
// 8 zero crossings a side) evaluated at each output instant from a table of 256 phases, so any
// ratio works and nothing above 7.2 kHz folds back into the speech band.

const PHASES = 256;
const ZERO_CROSSINGS = 8;

class CaptureProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const outRate = options.processorOptions?.targetRate ?? 16000;
    this.chunk = Math.round(outRate * (options.processorOptions?.chunkMs ?? 20) / 1000);
    this.step = sampleRate / outRate; // input samples per output sample (global `sampleRate`)
    const fc = Math.min(1, (2 * 0.45 * outRate) / sampleRate); // cut-off, cycles per input sample × 2
    this.half = Math.ceil(ZERO_CROSSINGS / fc); // taps each side
    this.taps = 2 * this.half;
    this.table = new Float32Array(PHASES * this.taps);
    for (let p = 0; p < PHASES; p++) {
      const frac = p / PHASES;
      let sum = 0;
      for (let i = 0; i < this.taps; i++) {
        const u = frac + this.half - 1 - i; // distance from the output instant, in input samples
        const x = fc * u;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        const w = u / (this.half + 1); // -1..1
        const win = 0.42 + 0.5 * Math.cos(Math.PI * w) + 0.08 * Math.cos(2 * Math.PI * w);
        const h = Math.abs(w) < 1 ? fc * sinc * win : 0;
        this.table[p * this.taps + i] = h;
        sum += h;
      }
      for (let i = 0; i < this.taps; i++) this.table[p * this.taps + i] /= sum; // unity DC gain
    }
    this.hist = new Float32Array(8192);
    this.len = this.half; // start with `half` samples of silence as history
    this.pos = this.half; // input position of the next output sample (within hist)
    this.out = new Int16Array(this.chunk);
    this.n = 0;
    this.sumSq = 0;
    this.peak = 0;
    this.running = true;
    this.port.onmessage = (e) => {
      if (e.data === "stop") this.running = false;
    };
  }

  append(samples) {
    if (this.len + samples.length > this.hist.length) {
      const bigger = new Float32Array(Math.max(this.hist.length * 2, this.len + samples.length));
      bigger.set(this.hist.subarray(0, this.len));
      this.hist = bigger;
    }
    this.hist.set(samples, this.len);
    this.len += samples.length;
  }

  process(inputs) {
    const input = inputs[0];
    if (input && input.length) {
      let mono = input[0];
      if (input.length > 1) {
        mono = new Float32Array(input[0].length);
        for (const ch of input) for (let i = 0; i < ch.length; i++) mono[i] += ch[i] / input.length;
      }
      this.append(mono);
      this.resample();
    }
    return this.running;
  }

  resample() {
    const { hist, table, taps, half } = this;
    for (;;) {
      let i0 = Math.floor(this.pos);
      let row = Math.round((this.pos - i0) * PHASES);
      if (row === PHASES) {
        row = 0;
        i0 += 1;
      }
      if (i0 + half >= this.len) break;
      const base = i0 - half + 1;
      const t = row * taps;
      let acc = 0;
      for (let i = 0; i < taps; i++) acc += hist[base + i] * table[t + i];
      this.emit(acc);
      this.pos += this.step;
    }
    const keep = Math.floor(this.pos) - half; // oldest sample still needed
    if (keep > 0) {
      hist.copyWithin(0, keep, this.len);
      this.len -= keep;
      this.pos -= keep;
    }
  }

  emit(x) {
    const v = Math.max(-1, Math.min(1, x));
    this.out[this.n++] = v < 0 ? v * 32768 : v * 32767;
    this.sumSq += v * v;
    this.peak = Math.max(this.peak, Math.abs(v));
    if (this.n === this.chunk) {
      const pcm = this.out.buffer;
      this.port.postMessage(
        { pcm, rms: Math.sqrt(this.sumSq / this.n), peak: this.peak },
        [pcm],
      );
      this.out = new Int16Array(this.chunk);
      this.n = 0;
      this.sumSq = 0;
      this.peak = 0;
    }
  }
}

registerProcessor("capture-processor", CaptureProcessor);
