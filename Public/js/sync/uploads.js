// Image uploads: a blob goes to /blobs over HTTP (not the WebSocket, so a big
// image never holds up live traffic) and comes back as its content hash.
//
// An upload that could not reach the server (offline, a restart, a proxy saying
// the server is down, or the server busy) is tried again as a text message is
// sent again: offline, once the connection is back; online, a few times with
// backoff. So an app's move made while offline (WenderPic's Done: the drawing is
// uploaded before it goes in the message box) waits instead of failing.

import { ProtocolError } from "../net/client.js";
import { sendRetryDelay } from "../net/retry.js";

/** Statuses that say nothing about the image: the server was not there, or too busy. */
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * How long one attempt may take before it is given up and tried again: the server's
 * own bounds (10 s, then at least 2 KiB a second; 120 s in all) and a little more. A
 * stalled upload (a connection that died without a word) held the conversation's
 * later messages, "Sending…", until a reload (an outside review).
 */
export function uploadDeadlineMs(bytes) {
  return Math.min(125_000, 12_000 + Math.ceil(bytes / 2048) * 1000);
}

/**
 * One attempt.
 * @param {Blob} blob
 * @param {string | null} token the account's token
 * @returns {Promise<string>} the blob's hash
 */
export async function upload(blob, token, { fetch: fetching = fetch, deadlineMs = uploadDeadlineMs(blob.size) } = {}) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), deadlineMs);
  let res;
  let body = {};
  try {
    try {
      res = await fetching("/blobs", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": blob.type || "application/octet-stream" },
        body: blob,
        signal: abort.signal,
      });
    } catch {
      // no answer at all, or none in time
      throw new ProtocolError({ code: "unreachable", message: "the server could not be reached" });
    }
    try {
      body = await res.json();
    } catch {
      if (abort.signal.aborted) throw new ProtocolError({ code: "unreachable", message: "the answer stopped coming" });
    }
  } finally {
    clearTimeout(timer);
  }
  if (UNAVAILABLE.has(res.status)) {
    throw new ProtocolError({ code: "unreachable", message: `the server is unavailable (${res.status})` });
  }
  if (!res.ok) {
    const message = typeof body.message === "string" && body.message ? body.message : `upload failed (${res.status})`;
    throw new ProtocolError({ code: body.code || "upload_failed", message });
  }
  if (typeof body.hash !== "string" || !/^[0-9a-f]{64}$/.test(body.hash)) throw new ProtocolError({ code: "upload_failed", message: "bad upload answer" });
  return body.hash;
}

/**
 * Uploads, waiting out an unreachable server: offline, until `whenOnline()`
 * (attempts not counted); online, on a text send's schedule for an answer that
 * says nothing about it (net/retry.js: backoff, SEND_ATTEMPTS in all). Any other
 * refusal (too big, not an image, over the quota) is thrown at once.
 * @param {Blob} blob
 * @param {{
 *   token: () => string | null,
 *   online: () => boolean,
 *   whenOnline: () => Promise<void>,
 *   attempt?: (blob: Blob, token: string | null) => Promise<string>,
 *   sleep?: (ms: number) => Promise<void>,
 *   random?: () => number,
 * }} how
 * @returns {Promise<string>} the blob's hash
 */
export async function uploadWhenReachable(blob, how) {
  const attempt = how.attempt ?? upload;
  const sleep = how.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  let failures = 0;
  for (;;) {
    if (!how.online()) await how.whenOnline();
    try {
      return await attempt(blob, how.token());
    } catch (error) {
      if (error?.code !== "unreachable") throw error;
      // the connection went meanwhile: wait for it, as a fresh start
      if (!how.online()) { failures = 0; continue; }
      failures += 1;
      const delay = sendRetryDelay("timeout", failures, how.random);
      if (delay === null) throw error;
      await sleep(delay);
    }
  }
}
