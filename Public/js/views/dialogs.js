// Small modal forms (new conversation, rename), the invite dialog and the
// question before joining through an invite link.

import { h } from "./dom.js";
import { counted, shortWhen, clockTime } from "../state/format.js";

/**
 * A dialog with one text field.
 * @param {object} o
 * @param {string} o.id
 * @param {string} o.title
 * @param {string} o.label
 * @param {string} o.submit
 * @param {number} o.maxLength
 * @param {(value: string) => Promise<void>} o.onSubmit  throw to show an error
 * @param {string} [o.text]  what the form does, said above the field
 * @param {boolean} [o.danger]  it cannot be undone: the button says so
 */
export function textDialog({ id, title, label, submit, maxLength, onSubmit, text, danger = false }) {
  const input = h("input", { id: `${id}-input`, name: "value", required: true, maxlength: maxLength, autocomplete: "off" });
  const error = h("p", { class: "form-error", role: "alert" });
  const button = h("button", { class: ["button", "primary", danger && "danger-fill"], type: "submit" }, submit);
  const form = h("form", { class: "dialog-body", method: "dialog" },
    h("h2", { id: `${id}-title` }, title),
    text ? h("p", { id: `${id}-text` }, text) : null,
    h("label", { class: "field", for: `${id}-input` }, label, input),
    error,
    h("div", { class: "dialog-actions" },
      h("button", { class: "button", type: "button", onclick: () => dialog.close() }, "Cancel"),
      button));
  const dialog = h("dialog", { id, "aria-labelledby": `${id}-title`, "aria-describedby": text ? `${id}-text` : null }, form);
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

/**
 * Shows an invite link, with a Copy button (and the text selectable by hand),
 * and the conversation's invites that still work, each with its expiry and Revoke.
 * @param {{list?: (conversationId: string) => Promise<object[]>, revoke?: (inviteId: string) => Promise<void>}} [api]
 */
export function inviteDialog(api = {}) {
  const field = h("input", { id: "invite-link", readonly: true });
  const status = h("p", { role: "status", "aria-live": "polite" });
  const copy = h("button", { class: "button primary", type: "button" }, "Copy link");
  const list = h("ul", { class: "invite-list", "aria-label": "Invites that still work" });
  const listError = h("p", { class: "form-error", role: "alert" });
  const dialog = h("dialog", { id: "invite", class: "wide", "aria-labelledby": "invite-title" },
    h("div", { class: "dialog-body" },
      h("h2", { id: "invite-title" }, "Invite people"),
      h("p", null, "Anyone with this link can join the conversation, and read it from its start."),
      h("label", { class: "field", for: "invite-link" }, "Invite link", field),
      status,
      // the actions come before the list, which fills in after the dialog opens:
      // below it, Done moved under a finger on its way (a tap then hit Revoke)
      h("div", { class: "dialog-actions" },
        h("button", { class: "button", type: "button", onclick: () => dialog.close() }, "Done"),
        copy),
      api.list ? h("section", { class: "invite-section" },
        h("h3", null, "Invites that still work"),
        list,
        listError) : listError));
  copy.addEventListener("click", () => copyText(field.value, field).then((ok) => {
    status.textContent = ok ? "Copied to the clipboard." : "Select the link and copy it.";
  }));
  document.body.append(dialog);

  async function refresh(conversationId) {
    if (!api.list || !conversationId) return;
    listError.textContent = "";
    try {
      const invites = await api.list(conversationId);
      list.replaceChildren(...invites.map((i) => h("li", { class: "invite-item", dataset: { inviteId: i.id } },
        h("span", null, inviteLine(i)),
        h("button", { class: "button small danger", type: "button", "aria-label": `Revoke the invite made ${shortWhen(i.createdAt)}`, onclick: async () => {
          try {
            await api.revoke(i.id);
          } catch (e) {
            listError.textContent = e.message;
          }
          await refresh(conversationId);
        } }, "Revoke"))));
    } catch (e) {
      listError.textContent = e.message;
    }
  }

  return {
    async show(link, conversationId) {
      field.value = link;
      status.textContent = "";
      list.replaceChildren();
      dialog.showModal();
      const listed = refresh(conversationId);
      const ok = await copyText(link, field);
      status.textContent = ok ? "Link copied to the clipboard." : "Select the link and copy it.";
      field.select();
      await listed;
    },
  };
}

/** "Made 14:05 · expires 3 Dec · 2 of 10 uses" */
export function inviteLine(i) {
  const uses = i.maxUses ? ` · ${i.uses ?? 0} of ${counted(i.maxUses, "use")}` : i.uses ? ` · used ${i.uses}×` : "";
  return `Made ${shortWhen(i.createdAt)} · expires ${expiry(i.expiresAt)}${uses}`;
}

function expiry(ms) {
  const d = new Date(ms);
  return `${d.toLocaleDateString(undefined, { day: "numeric", month: "short" })} ${clockTime(ms)}`;
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
      text.textContent = `${members} will see your name (${name}) and when you are online. You will read what was said before you joined.`;
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

/** Copies text; false when the browser refused (then the person selects it by hand). */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * A yes/no question in the page's own dialog (not window.confirm, which blocks
 * the page and looks like the browser's).
 * @returns {(o: {title: string, text: string, yes: string}) => Promise<boolean>}
 */
export function confirmDialog() {
  const title = h("h2", { id: "confirm-title" });
  const text = h("p", { id: "confirm-text" });
  const yes = h("button", { class: "button primary danger-fill", type: "button", onclick: () => dialog.close("yes") });
  const no = h("button", { class: "button", type: "button", onclick: () => dialog.close("") }, "Cancel");
  // a choice that goes with it (`o.option`: { label, checked }, read back once answered)
  const box = h("input", { type: "checkbox", id: "confirm-option" });
  const option = h("label", { class: "check", for: "confirm-option" }, box, h("span"));
  const dialog = h("dialog", { id: "confirm", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
    h("div", { class: "dialog-body" }, title, text, option,
      h("div", { class: "dialog-actions" }, no, yes)));
  document.body.append(dialog);
  return (o) => new Promise((resolve) => {
    title.textContent = o.title;
    text.textContent = o.text;
    yes.textContent = o.yes;
    option.hidden = !o.option;
    if (o.option) {
      option.lastChild.textContent = o.option.label;
      box.checked = o.option.checked;
    }
    dialog.returnValue = "";
    dialog.addEventListener("close", () => {
      if (o.option) o.option.checked = box.checked;
      resolve(dialog.returnValue === "yes");
    }, { once: true });
    dialog.showModal();
    // what it asks cannot be undone: an Enter pressed once too often must not do it
    no.focus();
  });
}
