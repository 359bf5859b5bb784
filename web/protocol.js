// The websocket protocol's event names (docs/protocol.md). The protocol's typed events (one
// pydantic model per event) are in serve/protocol.py; tests/web/test_protocol.py checks that
// these names are exactly those.

export const PROTOCOL_VERSION = 1;

/** Events the page sends (JSON text frames). Audio goes up as binary PCM16 16 kHz frames. */
export const CLIENT = Object.freeze({
  SESSION_CONFIG: "session.config",
  TEXT_INPUT: "text.input",
  INTERRUPT: "interrupt",
  PLAYBACK_DONE: "playback.done",
  CONVERSATION_RESET: "conversation.reset",
  FUNCTION_OUTPUT: "function.output",
  REPLY_CREATE: "reply.create",
  INPUT_AUDIO_COMMIT: "input_audio.commit",
  INPUT_AUDIO_CLEAR: "input_audio.clear",
});

/** Events the server sends (JSON text frames). Reply audio comes as binary frames. */
export const SERVER = Object.freeze({
  SESSION_STARTED: "session.started",
  SPEECH_STARTED: "speech.started",
  SPEECH_STOPPED: "speech.stopped",
  TRANSCRIPT_PARTIAL: "transcript.partial",
  TRANSCRIPT_FINAL: "transcript.final",
  REPLY_TEXT: "reply.text",
  REPLY_AUDIO_START: "reply.audio.start",
  REPLY_AUDIO_END: "reply.audio.end",
  REPLY_AUDIO_STOP: "reply.audio.stop",
  REPLY_INTERRUPTED: "reply.interrupted",
  TURN_METRICS: "turn.metrics",
  CONVERSATION_RESET: "conversation.reset",
  TOOL_CALL: "tool.call",
  FUNCTION_CALL: "function.call",
  FUNCTION_OUTPUT: "function.output",
  REPLY_CREATE: "reply.create",
  TIMER_FIRED: "timer.fired",
  ERROR: "error",
});

/** The rate and format of the audio the page sends. */
export const INPUT_SAMPLE_RATE = 16000;
export const AUDIO_ENCODING = "pcm_s16le";

/** Pipeline stages in turn.metrics latency_ms, in the order they usually finish. */
export const STAGES = Object.freeze([
  "turn_detected", "asr_done", "first_text", "first_tts_audio", "first_audio_out", "reply_done",
]);

/** A JSON text frame for `type` with `fields`. */
export function event(type, fields = {}) {
  return JSON.stringify({ type, ...fields });
}

/** Parse a server text frame; null for anything that is not a known event. */
export function parseEvent(text) {
  let ev;
  try {
    ev = JSON.parse(text);
  } catch {
    return null;
  }
  if (!ev || typeof ev.type !== "string") return null;
  return Object.values(SERVER).includes(ev.type) ? ev : null;
}
