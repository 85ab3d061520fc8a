// How the transcript puts its rows in order (TranscriptView.reconcile): a row that is
// next where it stands stays; every other is inserted before it. Inserting moves a row
// out of the page and back, which loads any frame in it again (where moveBefore is not
// used), so a row kept for its frame (apps/live.js) must be one that stays.

/**
 * The rows that putting `wanted` in order would move: those already in `container`
 * that are inserted before a row standing after them.
 * @param {Element[]} wanted  the rows, in order
 * @param {Element} container
 * @returns {Set<Element>}
 */
export function rowsMoved(wanted, container) {
  const keep = new Set(wanted);
  const standing = [...container.children].filter((child) => keep.has(child));
  const moved = new Set();
  let i = 0;
  for (const el of wanted) {
    while (i < standing.length && moved.has(standing[i])) i++;
    if (standing[i] === el) i++;
    else if (el.parentElement === container) moved.add(el);
  }
  return moved;
}
