import { test } from "node:test";
import assert from "node:assert/strict";
import { clock, voiceLine, spokenLength, recordingType, canRecord, step, microphoneProblem, VOICE_MAX_MS } from "../../Public/js/state/voice.js";

test("a length reads as minutes and seconds, never 0:00 for a recording", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(1), "0:01");
  assert.equal(clock(640), "0:01");
  assert.equal(clock(7_400), "0:07");
  assert.equal(clock(65_000), "1:05");
  assert.equal(clock(VOICE_MAX_MS), "2:00");
  assert.equal(voiceLine(7_000), "Voice message (0:07)");
  assert.equal(voiceLine(undefined), "Voice message");
  assert.equal(spokenLength(7_000), "7 seconds");
  assert.equal(spokenLength(1_000), "1 second");
  assert.equal(spokenLength(65_000), "1 minute 5 seconds");
  assert.equal(spokenLength(120_000), "2 minutes");
});

test("the recording type is WebM with Opus where it can be, else MP4 (Safari), else the browser's", () => {
  assert.equal(recordingType(() => true), "audio/webm;codecs=opus");
  assert.equal(recordingType((t) => t === "audio/mp4"), "audio/mp4");
  assert.equal(recordingType(() => false), "");
  assert.equal(recordingType(() => { throw new Error("old browser"); }), "");
});

test("recording needs both MediaRecorder and getUserMedia", () => {
  assert.equal(canRecord({ MediaRecorder: function () {}, navigator: { mediaDevices: { getUserMedia() {} } } }), true);
  assert.equal(canRecord({ navigator: { mediaDevices: { getUserMedia() {} } } }), false);
  assert.equal(canRecord({ MediaRecorder: function () {}, navigator: {} }), false);
});

test("the recorder asks, records, and sends or throws away", () => {
  assert.deepEqual(step("idle", "start"), { state: "asking", effect: "ask" });
  assert.deepEqual(step("asking", "granted"), { state: "recording", effect: "record" });
  assert.deepEqual(step("asking", "denied"), { state: "idle", effect: "refused" });
  assert.deepEqual(step("recording", "start"), { state: "idle", effect: "send" }, "the button again sends");
  assert.deepEqual(step("recording", "stop"), { state: "idle", effect: "send" });
  assert.deepEqual(step("recording", "cancel"), { state: "idle", effect: "discard" });
  assert.deepEqual(step("asking", "cancel"), { state: "idle", effect: "discard" });
  // nothing happens where nothing is going on
  assert.deepEqual(step("idle", "stop"), { state: "idle", effect: null });
  assert.deepEqual(step("idle", "cancel"), { state: "idle", effect: null });
  assert.deepEqual(step("asking", "start"), { state: "asking", effect: null });
});

test("a refused microphone is told in plain words", () => {
  assert.match(microphoneProblem({ name: "NotAllowedError" }), /may not use your microphone/);
  assert.match(microphoneProblem({ name: "NotFoundError" }), /No microphone/);
  assert.match(microphoneProblem(undefined), /could not be started/);
});

test("the list, notifications and a report's copy name a voice message with its length", async () => {
  const { previewOf } = await import("../../Public/js/state/format.js");
  const { previewLine } = await import("../../Public/js/state/previews.js");
  const { reportWords } = await import("../../Public/js/state/reports.js");
  const { canCarryReply } = await import("../../Public/js/state/replies.js");
  const m = { kind: "audio", audio: "ab".repeat(32), durationMs: 7_000, sender: "u2" };
  assert.equal(previewOf(m), "Voice message (0:07)");
  const how = { selfId: "u1", group: true, appName: (a) => a, names: (t) => t, nameOf: () => "Ben" };
  assert.equal(previewLine(m, how), "Ben: Voice message (0:07)");
  assert.equal(reportWords(m), "A voice message (0:07)");
  assert.equal(canCarryReply({ kind: "audio", durationMs: 1 }), true);
});

test("a voice message is checked as it comes and as it goes", async () => {
  const { messageProblem, outboundProblem } = await import("../../Public/js/net/frames.js");
  const base = { seq: 3, clientId: "k", sender: "u1", createdAt: 1, kind: "audio", audio: "ab".repeat(32), durationMs: 700 };
  assert.equal(messageProblem(base), null);
  assert.equal(messageProblem({ ...base, durationMs: 0 }), "message.durationMs");
  assert.equal(messageProblem({ ...base, audio: "x" }), "message.audio");
  // going out, the recording's hash comes only once it is uploaded
  assert.equal(outboundProblem({ kind: "audio", durationMs: 700 }), null);
  assert.equal(outboundProblem({ kind: "audio", durationMs: 120_001 }), "durationMs");
  assert.equal(outboundProblem({ kind: "audio", audio: "nope", durationMs: 700 }), "audio");
});
