// A voice message's bubble: a play/pause button named for what it plays, a progress
// bar and the length. The recording's own length is the message's `durationMs`: a
// browser's WebM recording says none in its header, so the audio element would show
// "0:00" or "Infinity" until played through.

import { h, icon } from "./dom.js";
import { clock, spokenLength } from "../state/voice.js";

export const VOICE_ICONS = {
  mic: ["M12 3a3 3 0 0 1 3 3v6a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3z", "M5 11a7 7 0 0 0 14 0", "M12 18v3"],
  stop: ["M7 7h10v10H7z"],
  play: ["M8 5l11 7-11 7z"],
  pause: ["M8 5v14", "M16 5v14"],
};

/**
 * @param {{durationMs: number, audio?: string, localAudio?: string}} m
 * @param {(hash: string) => string} blobURL
 */
export function voiceBubble(m, blobURL) {
  const src = m.audio ? blobURL(m.audio) : m.localAudio;
  const length = clock(m.durationMs);
  const named = `voice message, ${spokenLength(m.durationMs)}`;
  const audio = h("audio", { class: "voice-audio", preload: "none", src: src || undefined });
  const fill = h("span", { class: "voice-fill" });
  const time = h("span", { class: "voice-time", "aria-hidden": "true" }, length);
  const button = h("button", { class: "voice-play", type: "button", "aria-label": `Play ${named}`, disabled: !src },
    icon(VOICE_ICONS.play));
  const show = (playing) => {
    button.replaceChildren(icon(playing ? VOICE_ICONS.pause : VOICE_ICONS.play));
    button.setAttribute("aria-label", `${playing ? "Pause" : "Play"} ${named}`);
  };
  button.addEventListener("click", () => {
    if (!audio.paused) { audio.pause(); return; }
    // one voice at a time, as in Messages
    for (const other of document.querySelectorAll("audio.voice-audio")) if (other !== audio) other.pause();
    audio.play().catch(() => show(false));
  });
  audio.addEventListener("play", () => show(true));
  audio.addEventListener("pause", () => show(false));
  audio.addEventListener("timeupdate", () => {
    const ms = audio.currentTime * 1000;
    fill.style.width = `${Math.min(100, (ms / m.durationMs) * 100)}%`;
    time.textContent = clock(ms || 0) === "0:00" ? length : clock(ms);
  });
  audio.addEventListener("ended", () => {
    fill.style.width = "0%";
    time.textContent = length;
    show(false);
  });
  return h("div", { class: "bubble voice-bubble" }, audio, button,
    h("span", { class: "voice-bar", "aria-hidden": "true" }, fill), time);
}
