// Tapbacks on a bubble: the chips under it ("❤️ 2"; pressing one gives or takes back
// one's own of that kind), and the React button in its meta line with the popup of
// the six (state/reactions.js). The popup is a toolbar: arrow keys, Home and End move
// between the six; Escape, a click elsewhere or choosing one closes it and the focus
// goes back to the React button.

import { h } from "./dom.js";
import { TAPBACKS, chipLabel, reactionOf } from "../state/reactions.js";

/**
 * The chips of a message's reactions.
 * @param {object} m the message
 * @param {import("../state/reactions.js").Chip[]} chips
 * @param {import("./bubble.js").BubbleContext} ctx
 */
export function reactionChips(m, chips, ctx) {
  const canReact = !!ctx.canReact?.(m);
  // a chip drawn again (its count changed) keeps the focus by its emoji; gone, the React button has it
  return h("div", { class: "reactions", dataset: { refocus: ".react-message" } }, chips.map((chip) => {
    const mine = chip.senders.includes(ctx.selfId);
    return h("button", {
      class: ["reaction-chip", mine && "mine", chip.pending && "pending"],
      type: "button",
      disabled: !canReact,
      "aria-pressed": String(mine),
      "aria-label": chipLabel(chip, ctx.selfId, ctx.nameOf),
      dataset: { emoji: chip.emoji, focusKey: `reaction:${chip.emoji}` },
      onclick: () => ctx.onReact(m, mine ? "" : chip.emoji),
    }, h("span", { class: "reaction-emoji", "aria-hidden": "true" }, chip.emoji), h("span", { class: "reaction-count", "aria-hidden": "true" }, String(chip.senders.length)));
  }));
}

/**
 * The React button, which opens the popup of the six.
 * @param {object} m
 * @param {import("../state/reactions.js").Chip[]} chips what is on the message now
 * @param {import("./bubble.js").BubbleContext} ctx
 * @param {string} label "React to message: <its words>"
 */
export function reactButton(m, chips, ctx, label) {
  const button = h("button", {
    class: "react-message", type: "button", "aria-label": label, "aria-haspopup": "true", "aria-expanded": "false",
    onclick: () => (openPicker?.button === button ? closePicker(true) : showPicker(button, m, reactionOf(chips, ctx.selfId), ctx)),
  }, "React");
  return button;
}

/** The popup open now, if any: one at a time in the page. */
let openPicker = null;

function showPicker(button, m, current, ctx) {
  closePicker(false);
  const choose = (emoji) => {
    closePicker(true);
    ctx.onReact(m, emoji === current ? "" : emoji);
  };
  const options = TAPBACKS.map(({ emoji, name }) => h("button", {
    class: ["tapback", emoji === current && "current"], type: "button", title: name,
    "aria-label": name, "aria-pressed": String(emoji === current), tabindex: "-1",
    onclick: () => choose(emoji),
  }, emoji));
  const picker = h("div", {
    class: "reaction-picker", role: "toolbar", "aria-label": "Reactions", "aria-orientation": "horizontal",
  }, options);
  picker.addEventListener("keydown", (e) => {
    const at = options.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 }[e.key];
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closePicker(true);
    } else if (to !== undefined) {
      e.preventDefault();
      move(options, (to + options.length) % options.length);
    }
  });
  // Tab out of it: closed, the focus goes where it was going
  picker.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !picker.contains(e.relatedTarget) && openPicker?.picker === picker) closePicker(false);
  });
  button.after(picker);
  button.setAttribute("aria-expanded", "true");
  openPicker = { button, picker };
  document.addEventListener("click", clickedElsewhere, true);
  const first = Math.max(0, TAPBACKS.findIndex((t) => t.emoji === current));
  move(options, first);
  picker.scrollIntoView?.({ block: "nearest" });
}

function move(options, i) {
  options.forEach((o, j) => o.setAttribute("tabindex", j === i ? "0" : "-1"));
  options[i].focus({ preventScroll: true });
}

/**
 * A row drawn again (someone else reacted meanwhile) while its popup was open: the
 * popup opens again on the new row, showing what is on the message now, with the
 * focus on the same tapback; a person choosing one is not interrupted.
 * @param {Element} active what had the focus in the old row
 * @param {Element} again the new row
 * @returns {boolean} whether the focus was put back here
 */
export function reopenPicker(active, again) {
  const old = active.closest(".reaction-picker");
  const button = old && again.querySelector(".react-message");
  if (!button) return false;
  button.click();
  const same = openPicker?.button === button && [...openPicker.picker.children].find((o) => o.getAttribute("aria-label") === active.getAttribute("aria-label"));
  if (same) move([...openPicker.picker.children], [...openPicker.picker.children].indexOf(same));
  return !!openPicker;
}

/** A click outside the popup and its button closes it; the focus goes back to the button unless the click put it elsewhere. */
function clickedElsewhere(e) {
  if (!openPicker || openPicker.picker.contains(e.target) || openPicker.button.contains(e.target)) return;
  const focus = !document.activeElement || document.activeElement === document.body || openPicker.picker.contains(document.activeElement);
  closePicker(focus);
}

function closePicker(refocus) {
  if (!openPicker) return;
  const { button, picker } = openPicker;
  openPicker = null;
  document.removeEventListener("click", clickedElsewhere, true);
  button.setAttribute("aria-expanded", "false");
  if (refocus && button.isConnected) button.focus({ preventScroll: true });
  picker.remove();
}
