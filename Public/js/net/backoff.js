// Reconnect delays: exponential with jitter, capped, so a server restart does
// not get every tab back at the same millisecond.

/**
 * @param {number} attempt 0 for the first retry
 * @param {{base?: number, max?: number, random?: () => number}} [opts]
 * @returns {number} milliseconds to wait
 */
export function backoffDelay(attempt, { base = 500, max = 15000, random = Math.random } = {}) {
  const n = Math.max(0, Math.min(attempt, 30));
  const ceiling = Math.min(max, base * 2 ** n);
  // "equal jitter": at least half the ceiling, at most all of it
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
