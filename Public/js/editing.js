// Editing one's own text from its bubble's Edit button (state/edits.js): the composer
// holds the text (views/composer.js), Enter saves it, Escape cancels. Edit buttons
// hide themselves when their 15 minutes are over.

import { editableUntil, editRefusal, editedLine } from "./state/edits.js";
import { messageBySeq } from "./state/transcript.js";
import { oneLine } from "./state/replies.js";
import { errorText } from "./state/errors.js";
import { shorten } from "../sdk/text.js";
import { say } from "./views/spoken.js";

export class Editing {
  /**
   * @param {{store: import("./store.js").Store, sync: import("./sync.js").Sync,
   *   composer: () => import("./views/composer.js").ComposerView, announce: (text: string) => void}} deps
   */
  constructor({ store, sync, composer, announce }) {
    Object.assign(this, { store, sync, composer, announce });
    this.timer = null;
    /** the seq of the message the box is editing: its row is marked */
    this.seq = null;
  }

  /** The box edits message `seq` now (null: none): its row is marked, as Messages lifts the bubble. */
  editing(root, seq) {
    this.seq = seq;
    this.mark(root);
  }

  mark(root) {
    for (const r of root.querySelectorAll(".row.editing")) if (Number(r.dataset.seq) !== this.seq) r.classList.remove("editing");
    if (this.seq !== null) root.querySelector(`.row[data-seq="${this.seq}"]`)?.classList.add("editing");
  }

  /** Until when one may edit this message in this conversation (0: not at all). */
  until(conversationId, m) {
    const s = this.store.state;
    return this.store.conversation(conversationId)?.left ? 0 : editableUntil(m, s.user?.id);
  }

  start(conversationId, m) {
    if (conversationId !== this.store.state.currentId) return;
    this.composer().startEdit({ seq: m.seq, text: m.text, line: oneLine(m.text) });
  }

  /** Enter while editing: true once saved (or nothing changed). */
  async save(conversationId, seq, text) {
    const m = messageBySeq(this.store.transcript(conversationId), seq);
    if (m && m.kind === "text" && m.text === text) return true;
    try {
      await this.sync.editMessage(conversationId, seq, text);
      return true;
    } catch (e) {
      this.announce(editRefusal(e, messageBySeq(this.store.transcript(conversationId), seq), errorText));
      return false;
    }
  }

  /**
   * Another's edit in the open conversation, to a message drawn: a screen reader is told
   * ("Ben edited a message: see you at 6"), as of a message that arrives.
   */
  heard(conversationId, record) {
    const s = this.store.state;
    if (conversationId !== s.currentId || record.sender === s.user?.id || typeof record.text !== "string") return;
    if (!messageBySeq(this.store.transcript(conversationId), record.edits)) return;
    say(editedLine(this.store.memberName(conversationId, record.sender), shorten(record.text, 300)));
  }

  /** Hides the Edit buttons whose time is over, and comes back at the next one's. */
  sweep(root) {
    this.mark(root); // a row drawn again is marked again
    clearTimeout(this.timer);
    const now = Date.now();
    let next = Infinity;
    for (const b of root.querySelectorAll("button.edit-message")) {
      const until = Number(b.dataset.editableUntil);
      if (now >= until) b.hidden = true;
      else next = Math.min(next, until);
    }
    if (next < Infinity) this.timer = setTimeout(() => this.sweep(root), Math.min(next - now + 50, 2 ** 31 - 1));
  }
}
