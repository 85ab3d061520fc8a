// Read marks: how far the person has read each conversation (the highest seq). This
// browser keeps its own (store.lastRead, for offline use); the server keeps hers from
// every device (`read`, `lastReadSeq` in the list). The higher of the two wins.

const isMark = (seq) => Number.isSafeInteger(seq) && seq >= 0;

/**
 * `marks` with each of `incoming` that is higher; the same object when none is
 * (so nothing is drawn or written again).
 * @param {Record<string, number>} marks
 * @param {Record<string, number>} incoming
 */
export function raisedMarks(marks, incoming) {
  let next = null;
  for (const [id, seq] of Object.entries(incoming)) {
    if (!isMark(seq) || seq <= (marks[id] || 0)) continue;
    next ??= { ...marks };
    next[id] = seq;
  }
  return next ?? marks;
}

/**
 * The marks of a conversations.list answer, by conversation.
 * @param {{id: string, lastReadSeq?: number}[]} conversations
 */
export function listedMarks(conversations) {
  const marks = {};
  for (const c of conversations) if (isMark(c.lastReadSeq)) marks[c.id] = c.lastReadSeq;
  return marks;
}

/**
 * The conversations among `ids` whose mark here is ahead of what the server has.
 * @param {Record<string, number>} local
 * @param {Record<string, number>} server
 * @param {Iterable<string>} ids
 * @returns {[string, number][]}
 */
export function aheadOfServer(local, server, ids) {
  const ahead = [];
  for (const id of ids) {
    const seq = local[id] || 0;
    if (seq > (server[id] || 0)) ahead.push([id, seq]);
  }
  return ahead;
}
