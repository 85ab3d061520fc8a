// When a send is tried again while the connection stays up. The server is
// idempotent on (sender, clientId), so a retry with the same clientId of a send
// that was in fact stored returns the original and stores nothing.
//
// Only answers that say nothing about the message itself are retried: `internal`
// (nothing was stored) and a request that timed out. A refusal of the message
// (too_long, not_member, session_conflict, …) would be refused again. Being
// offline is not retried here either: the outbox is sent again on reconnect.
//
// `rate_limited` is retried too, after the time the server gave (`retryAfterMs`):
// the message was refused before anything was stored, so waiting is all it takes,
// and it does not use up the attempts (slowing down is not failing). So are
// `server_busy` (the server is past its capacity and turned the send away unread)
// and `disk_full` (nothing was stored; the server's operator has to free space).

import { backoffDelay } from "./backoff.js";

export const RETRYABLE = new Set(["internal", "timeout", "rate_limited", "server_busy", "disk_full"]);

/** The refusals that say how long to wait, and are retried after it however often. */
export const WAITS = new Set(["rate_limited", "server_busy", "disk_full"]);

/** A rate_limited answer without a time to wait (an older server) waits this long. */
const RATE_LIMITED_DEFAULT_MS = 1000;
/** Added to the server's time, so the retry lands after the window, not on its edge. */
const RATE_LIMITED_MARGIN_MS = 50;

/** Attempts in all (the first send included) before the message shows as failed. */
export const SEND_ATTEMPTS = 8;

const BACKOFF = { base: 1000, max: 30000 };

/**
 * @param {string} code the error code the last attempt ended with
 * @param {number} attempts how many attempts have ended so far (1 after the first)
 * @param {() => number} [random]
 * @param {number} [retryAfterMs] for rate_limited and server_busy: the server's time to wait
 * @returns {number | null} milliseconds to wait before the next attempt, or null:
 *   no retry (the code is not retryable, or the attempts are used up)
 */
export function sendRetryDelay(code, attempts, random = Math.random, retryAfterMs = undefined) {
  if (WAITS.has(code)) return (retryAfterMs ?? RATE_LIMITED_DEFAULT_MS) + RATE_LIMITED_MARGIN_MS;
  if (!RETRYABLE.has(code) || attempts >= SEND_ATTEMPTS) return null;
  return backoffDelay(attempts - 1, { ...BACKOFF, random });
}
