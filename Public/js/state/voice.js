// Voice messages (`kind:"audio"`, docs/PROTOCOL.md "Voice messages"): how their length
// is said, which recording type a browser is asked for, and the recorder's states.
// Pure functions, no DOM.

/** The longest recording: the server refuses a longer `durationMs`. */
export const VOICE_MAX_MS = 120_000;

/** Asked of the recorder: two minutes of it is about 1 MiB, half the server's 2 MiB. */
export const VOICE_BITS_PER_SECOND = 64_000;

/**
 * "0:07", "1:05", "2:00": minutes and seconds, rounded to the nearest second but never
 * below 0:01 for a recording that has any length.
 * @param {number} ms
 */
export function clock(ms) {
  const s = ms > 0 ? Math.max(1, Math.round(ms / 1000)) : 0;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** What the conversation list, notifications and quotes say of a voice message. */
export function voiceLine(ms) {
  return Number.isFinite(ms) && ms > 0 ? `Voice message (${clock(ms)})` : "Voice message";
}

/** A screen reader's words for a length: "7 seconds", "1 minute 5 seconds". */
export function spokenLength(ms) {
  const s = Math.max(1, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  const parts = [];
  if (m) parts.push(`${m} minute${m === 1 ? "" : "s"}`);
  if (s % 60 || !m) parts.push(`${s % 60} second${s % 60 === 1 ? "" : "s"}`);
  return parts.join(" ");
}

/** Chromium and Firefox record WebM with Opus, Safari MP4: the first the browser can. */
const TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4"];

/**
 * The recording type to ask for, or "" to let the browser choose.
 * @param {(type: string) => boolean} supported MediaRecorder.isTypeSupported
 */
export function recordingType(supported) {
  return TYPES.find((t) => { try { return supported(t); } catch { return false; } }) ?? "";
}

/** Whether this browser can record at all (the microphone button is hidden where not). */
export function canRecord(g = globalThis) {
  return typeof g.MediaRecorder === "function" && typeof g.navigator?.mediaDevices?.getUserMedia === "function";
}

/**
 * The recorder's states: idle → asking (for the microphone) → recording → idle.
 * Events: "start" (the button), "granted", "denied", "stop" (the button again, Send,
 * or the two minutes), "cancel" (Cancel, Escape). Returns the next state and what to
 * do: "ask", "record", "send", "discard", "refused", or nothing.
 * @param {"idle"|"asking"|"recording"} state
 * @param {"start"|"granted"|"denied"|"stop"|"cancel"} event
 * @returns {{state: string, effect: string | null}}
 */
export function step(state, event) {
  switch (`${state}:${event}`) {
    case "idle:start": return { state: "asking", effect: "ask" };
    case "asking:granted": return { state: "recording", effect: "record" };
    case "asking:denied": return { state: "idle", effect: "refused" };
    case "asking:cancel": return { state: "idle", effect: "discard" };
    case "recording:start":
    case "recording:stop": return { state: "idle", effect: "send" };
    case "recording:cancel": return { state: "idle", effect: "discard" };
    default: return { state, effect: null };
  }
}

/**
 * What the person is told when the microphone cannot be had, in plain words.
 * @param {{name?: string}} error getUserMedia's rejection
 */
export function microphoneProblem(error) {
  switch (error?.name) {
    case "NotAllowedError":
    case "SecurityError":
      return "Parlor may not use your microphone. Allow it in your browser's site settings to record a voice message.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No microphone was found.";
    case "NotReadableError":
    case "AbortError":
      return "Your microphone is in use by another app, or could not be started.";
    default:
      return "The microphone could not be started.";
  }
}
