// The admin page's reports, as state (Public/js/state/reports.js): one item per message
// however many reported it, and what the copy of a message says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { groupReports, reportWords, reportFiles } from "../../Public/js/state/reports.js";

const report = (id, seq, reporter, reason, reporters = 1) => ({
  id, conversationId: "c1", seq, reporter: { id: reporter, name: reporter.toUpperCase() }, reason, reporters,
  message: { seq, kind: "text", text: `m${seq}` },
});

test("reports of one message are one item, the newest standing for it", () => {
  const groups = groupReports([report("r3", 5, "cy", "spam", 2), report("r2", 4, "ben", undefined), report("r1", 5, "ana", "rude", 2)]);
  assert.equal(groups.length, 2);
  assert.equal(groups[0].first.id, "r3");
  assert.deepEqual(groups[0].reporters.map((r) => r.name), ["CY", "ANA"]);
  assert.equal(groups[0].count, 2);
  assert.equal(groups[1].count, 1);
});

test("a page holding one of several reporters still counts them all", () => {
  const [g] = groupReports([report("r9", 7, "cy", undefined, 3)]);
  assert.equal(g.count, 3);
  assert.equal(g.reporters.length, 1);
});

test("what a copy says, by kind", () => {
  assert.equal(reportWords({ kind: "text", text: "hi\nthere" }), "hi\nthere");
  assert.equal(reportWords({ kind: "app", appId: "wenderpic", summaryText: "Ana drew", layout: { caption: "Guess!" } }), "wenderpic: Ana drew · Guess!");
  assert.equal(reportWords({ kind: "app", appId: "wenderpic", summaryText: "Ana drew" }, () => "WenderPic"), "WenderPic: Ana drew");
  assert.equal(reportWords({ kind: "sticker", description: "a sundae" }), "A sticker: a sundae");
  assert.equal(reportWords({ kind: "attachment" }), "A picture");
  assert.equal(reportWords(null), "");
});

test("the reports event is checked as it arrives", async () => {
  const { parseFrame } = await import("../../Public/js/net/frames.js");
  assert.equal(parseFrame(JSON.stringify({ type: "reports", open: 3 })).ok, true);
  assert.equal(parseFrame(JSON.stringify({ type: "reports", open: -1 })).ok, false);
  assert.equal(parseFrame(JSON.stringify({ type: "reports" })).ok, false);
});

test("only hashes from a copy go into a picture's or a recording's address", () => {
  const hash = "a".repeat(64);
  assert.deepEqual(reportFiles({ kind: "attachment", image: hash, name: "x.png" }), { image: hash });
  assert.deepEqual(reportFiles({ kind: "audio", audio: hash, durationMs: 3000 }), { audio: hash });
  assert.deepEqual(reportFiles({ kind: "attachment", image: "../../signed-out" }), {});
  assert.deepEqual(reportFiles({ kind: "attachment", image: hash.toUpperCase() }), {});
  assert.deepEqual(reportFiles({ kind: "text", text: "hi" }), {});
  assert.deepEqual(reportFiles(null), {});
});
