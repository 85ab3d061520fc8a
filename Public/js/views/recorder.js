// The composer's microphone: press to record, press again (or Send) to send, Cancel or
// Escape to throw the recording away; at two minutes it stops and sends by itself. The
// button is left out where the browser cannot record (no MediaRecorder or getUserMedia).
// A refused microphone is said in words (the composer's notice), and nothing is sent.

import { h, icon, ICONS } from "./dom.js";
import { VOICE_ICONS } from "./voice.js";
import { VOICE_MAX_MS, VOICE_BITS_PER_SECOND, canRecord, clock, microphoneProblem, recordingType, step } from "../state/voice.js";

export class VoiceRecorder {
  /**
   * @param {object} opts
   * @param {(blob: Blob, durationMs: number) => void} opts.onRecorded
   * @param {(text: string | null) => void} opts.showNotice  said on screen (an alert), until dismissed
   * @param {(recording: boolean) => void} [opts.onChange]
   */
  constructor({ onRecorded, showNotice, onChange = () => {} }) {
    Object.assign(this, { onRecorded, showNotice, onChange });
    // What the recorder does, told to screen readers here rather than in the page's
    // toast: that covered the microphone button while it was the one to press.
    this.said = h("span", { class: "visually-hidden", role: "status" });
    this.state = "idle";
    this.available = canRecord();
    this.button = h("button", {
      class: "icon-button mic-button", type: "button", "aria-label": "Record a voice message", "aria-pressed": "false",
      hidden: !this.available, onclick: () => this.dispatch("start"),
    }, icon(VOICE_ICONS.mic));
    this.timer = h("span", { class: "voice-timer", role: "timer" }, "Recording 0:00");
    this.strip = h("div", { class: "voice-strip", hidden: true },
      h("span", { class: "voice-dot", "aria-hidden": "true" }), this.timer,
      h("button", { class: "icon-button", type: "button", "aria-label": "Cancel recording", onclick: () => this.dispatch("cancel") }, icon(ICONS.close)));
  }

  get recording() {
    return this.state !== "idle";
  }

  dispatch(event, detail) {
    const { state, effect } = step(this.state, event);
    this.state = state;
    if (effect) this[effect](detail);
  }

  async ask() {
    this.showNotice(null);
    this.setShown(true, "Starting the microphone…");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      this.dispatch("denied", error);
      return;
    }
    if (this.state !== "asking") { // cancelled meanwhile
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    this.stream = stream;
    this.dispatch("granted");
  }

  refused(error) {
    this.setShown(false);
    this.showNotice(microphoneProblem(error));
  }

  record() {
    const type = recordingType((t) => MediaRecorder.isTypeSupported(t));
    let rec;
    try {
      rec = new MediaRecorder(this.stream, { ...(type ? { mimeType: type } : {}), audioBitsPerSecond: VOICE_BITS_PER_SECOND });
    } catch (error) {
      this.release();
      this.state = "idle";
      this.refused(error);
      return;
    }
    const chunks = [];
    rec.addEventListener("dataavailable", (e) => { if (e.data.size) chunks.push(e.data); });
    rec.addEventListener("stop", () => {
      this.release();
      const ms = Math.min(VOICE_MAX_MS, Math.max(1, Math.round(performance.now() - rec.startedAt)));
      if (rec.keep && chunks.length) this.onRecorded(new Blob(chunks, { type: rec.mimeType || type }), ms);
    });
    this.rec = rec;
    rec.start();
    rec.startedAt = performance.now();
    this.tick = setInterval(() => this.update(), 250);
    this.update();
    this.setShown(true);
    this.announce("Recording. Press the button again or Send to send it, Escape to cancel.");
  }

  update() {
    const ms = performance.now() - this.rec.startedAt;
    this.timer.textContent = `Recording ${clock(Math.floor(ms / 1000) * 1000)}`;
    if (ms >= VOICE_MAX_MS) this.dispatch("stop"); // the two minutes are up: sent as it is
  }

  send() {
    this.finish(true);
    this.announce("Voice message sent.");
  }

  discard() {
    this.finish(false);
    this.announce("Recording cancelled.");
  }

  finish(keep) {
    clearInterval(this.tick);
    this.setShown(false);
    if (this.rec && this.rec.state !== "inactive") {
      this.rec.keep = keep;
      this.rec.stop();
    } else {
      this.release();
    }
    this.rec = null;
  }

  announce(text) {
    this.said.textContent = text;
  }

  release() {
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    this.stream = null;
  }

  setShown(on, text = "Recording 0:00") {
    this.strip.hidden = !on;
    this.timer.textContent = text;
    this.button.setAttribute("aria-pressed", String(on));
    this.button.setAttribute("aria-label", on ? "Send voice message" : "Record a voice message");
    this.button.replaceChildren(icon(on ? VOICE_ICONS.stop : VOICE_ICONS.mic));
    this.onChange(on);
  }
}
