// What to tell a person when the server says no: the protocol's error codes
// (docs/PROTOCOL.md) as sentences. Plain functions, no DOM.

/** A wait the server gave, in whole seconds, at least 1. */
const seconds = (retryAfterMs) => Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000));

/** "Slow down — try again in 3 s". */
export function slowDown(retryAfterMs) {
  return `Slow down — try again in ${seconds(retryAfterMs)} s.`;
}

/** Said of any request; a send adds that it goes again by itself (main.js). */
export function diskFull(retryAfterMs) {
  return `The server is out of disk space, so nothing was saved. Try again in ${seconds(retryAfterMs)} s or later.`;
}

/** "The server is busy — trying again in 2 s". */
export function serverBusy(retryAfterMs) {
  return `The server is busy — trying again in ${seconds(retryAfterMs)} s.`;
}

const TEXT = {
  offline: "You're offline; try again when you're back.",
  timeout: "The server did not answer; try again.",
  forbidden: "Only the conversation's creator or an admin can do that.",
  not_member: "You are no longer a member of this conversation.",
  registration_closed: "This server is invite-only: ask a member for an invite link.",
  invalid_invite: "This invite link is not valid any more: ask for a new one.",
  invalid_link: "That link or code is unknown, expired or already used: make a new one on your other device.",
  invalid_recovery_key: "That recovery key is not one this server knows. Check it and try again.",
  too_many_devices: "This account already has 50 devices: sign one out first.",
  too_many_invites: "This conversation has 1,000 open invites: revoke some first.",
  not_found: "That is gone already.",
  too_many_reports: "You have 100 reports the admins have not looked at yet: try again once they have.",
};

/** What the welcome screen says after the server closed with 4003, by its reason. */
const SIGNED_OUT = {
  "account deactivated": "An admin of this server deactivated your account. To come back, ask them to reactivate it: they get a code for you to type under “Sign in with a code from another device”.",
  "account deleted": "This account was deleted, on another device or by an admin of this server. It cannot be signed in to again.",
  // the token was refused when the page came back (closed or offline at the time): the server no longer knows it
  "token refused": "This browser was signed out while it was away: from another device, or its account was deactivated or deleted. Sign in again to continue.",
};

/** @param {string|undefined} reason the close frame's reason (docs/PROTOCOL.md, close codes) */
export function signedOutText(reason) {
  return SIGNED_OUT[reason] || "This device was signed out from another device. Sign in again to continue.";
}

/**
 * @param {{code?: string, message?: string, retryAfterMs?: number}} error a ProtocolError
 * @returns {string}
 */
export function errorText(error) {
  if (error?.code === "rate_limited") return slowDown(error.retryAfterMs);
  if (error?.code === "server_busy") return serverBusy(error.retryAfterMs);
  if (error?.code === "disk_full") return diskFull(error.retryAfterMs);
  return TEXT[error?.code] || error?.message || "That did not work.";
}
