// Small modal forms (new conversation, rename), the invite dialog and the
// question before joining through an invite link.

import { h } from "./dom.js";
import { counted } from "../state/format.js";

/**
 * A dialog with one text field.
 * @param {object} o
 * @param {string} o.id
 * @param {string} o.title
 * @param {string} o.label
 * @param {string} o.submit
 * @param {number} o.maxLength
 * @param {(value: string) => Promise<void>} o.onSubmit  throw to show an error
 */
export function textDialog({ id, title, label, submit, maxLength, onSubmit }) {
  const input = h("input", { id: `${id}-input`, name: "value", required: true, maxlength: maxLength, autocomplete: "off" });
  const error = h("p", { class: "form-error", role: "alert" });
  const button = h("button", { class: "button primary", type: "submit" }, submit);
  const form = h("form", { class: "dialog-body", method: "dialog" },
    h("h2", { id: `${id}-title` }, title),
    h("label", { class: "field", for: `${id}-input` }, label, input),
    error,
    h("div", { class: "dialog-actions" },
      h("button", { class: "button", type: "button", onclick: () => dialog.close() }, "Cancel"),
      button));
  const dialog = h("dialog", { id, "aria-labelledby": `${id}-title` }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    button.disabled = true;
    error.textContent = "";
    try {
      await onSubmit(value);
      dialog.close();
    } catch (err) {
      error.textContent = err.message || "That did not work.";
    } finally {
      button.disabled = false;
    }
  });
  document.body.append(dialog);
  return {
    show(value = "") {
      input.value = value;
      error.textContent = "";
      dialog.showModal();
      input.focus();
      input.select();
    },
  };
}

/** Shows an invite link, with a Copy button (and the text selectable by hand). */
export function inviteDialog() {
  const field = h("input", { id: "invite-link", readonly: true });
  const status = h("p", { role: "status", "aria-live": "polite" });
  const copy = h("button", { class: "button primary", type: "button" }, "Copy link");
  const dialog = h("dialog", { id: "invite", "aria-labelledby": "invite-title" },
    h("div", { class: "dialog-body" },
      h("h2", { id: "invite-title" }, "Invite people"),
      h("p", null, "Anyone with this link can join the conversation."),
      h("label", { class: "field", for: "invite-link" }, "Invite link", field),
      status,
      h("div", { class: "dialog-actions" },
        h("button", { class: "button", type: "button", onclick: () => dialog.close() }, "Done"),
        copy)));
  copy.addEventListener("click", () => copyText(field.value, field).then((ok) => {
    status.textContent = ok ? "Copied to the clipboard." : "Select the link and copy it.";
  }));
  document.body.append(dialog);
  return {
    async show(link) {
      field.value = link;
      status.textContent = "";
      dialog.showModal();
      const ok = await copyText(link, field);
      status.textContent = ok ? "Link copied to the clipboard." : "Select the link and copy it.";
      field.select();
    },
  };
}

/**
 * The question before joining through an invite link: joining shows your name and
 * when you are online to the members, so nothing is joined until you say Join
 * (Escape and Not now say no). It also tells of a link that leads nowhere.
 */
export function joinDialog() {
  const title = h("h2", { id: "join-invite-title" });
  const text = h("p", { id: "join-invite-text" });
  const no = h("button", { class: "button", type: "button", onclick: () => dialog.close("no") }, "Not now");
  const yes = h("button", { class: "button primary", type: "button", onclick: () => dialog.close("join") }, "Join");
  const ok = h("button", { class: "button primary", type: "button", onclick: () => dialog.close("ok") }, "OK");
  const dialog = h("dialog", { id: "join-invite", "aria-labelledby": "join-invite-title", "aria-describedby": "join-invite-text" },
    h("div", { class: "dialog-body" }, title, text, h("div", { class: "dialog-actions" }, no, yes, ok)));
  document.body.append(dialog);

  /** Shows the dialog; resolves with the button's answer ("" for Escape). */
  function answer(asking) {
    no.hidden = yes.hidden = !asking;
    ok.hidden = asking;
    return new Promise((resolve) => {
      dialog.returnValue = "";
      dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
      dialog.showModal();
      (asking ? yes : ok).focus();
    });
  }

  return {
    get open() {
      return dialog.open;
    },
    /**
     * @param {{title: string, memberCount: number, name: string}} o
     * @returns {Promise<boolean>} true for Join
     */
    async ask({ title: conversationTitle, memberCount, name }) {
      title.textContent = `Join “${conversationTitle}”?`;
      const members = `Its ${counted(memberCount, "member")}`;
      text.textContent = `${members} will see your name (${name}) and when you are online.`;
      return (await answer(true)) === "join";
    },
    /** An invite that leads nowhere (unknown, or no longer valid). */
    async invalid() {
      title.textContent = "This invite link is not valid any more";
      text.textContent = "Nothing was joined. Ask the person who sent it for a new link.";
      await answer(false);
    },
    /** Closes it as a no (the person went somewhere else meanwhile). */
    dismiss() {
      if (dialog.open) dialog.close("");
    },
  };
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}
