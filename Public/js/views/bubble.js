// One transcript row: a bubble of any kind, a session summary, or a local echo.
// Everything a person or an app wrote is set as text.

import { h } from "./dom.js";
import { appIcon } from "./appIcon.js";
import { clockTime, attributed } from "../state/format.js";
import { linkParts, withoutOverrides } from "../state/links.js";
import { shorten } from "../../sdk/text.js";
import { mentionsMe, mentionParts } from "../state/mentions.js";
import { reactionChips, reactButton } from "./reactions.js";
import { tapbackName } from "../state/reactions.js";
import { quoteOf, quoteLabel } from "../state/replies.js";
import { voiceLine } from "../state/voice.js";
import { voiceBubble } from "./voice.js";
import { steadyPicture } from "./steadyPicture.js";

/**
 * @typedef {object} BubbleContext
 * @property {string} selfId
 * @property {string} [selfName]  this user's name, marked where a text mentions them
 * @property {(userId: string) => string} nameOf
 * @property {(text: string, appId: string) => string} names   puts names on $<participant id>
 * @property {(appId: string) => {name: string, icon: string} | undefined} app
 * @property {(appId: string) => boolean} installed
 * @property {(message: object) => void} onOpenApp
 * @property {(message: object) => void} onGetApp
 * @property {(clientId: string) => void} onRetry
 * @property {(clientId: string) => void} onDiscard
 * @property {(message: object, standIn: () => HTMLElement | null) => HTMLElement | null} liveView   a live frame for a live message, if the viewer has the app
 * @property {(wanted: HTMLElement[], container: HTMLElement) => [HTMLElement, HTMLElement][]} [keepInPlace]  rows kept around live frames that must not move (apps/live.js)
 * @property {(message: object) => boolean} [canDelete]  own messages, or any for an admin
 * @property {(message: object) => void} [onDelete]
 * @property {(message: object) => boolean} [canReact]  a member may react (not one who left)
 * @property {(message: object, emoji: string) => void} [onReact]  gives a tapback ("" takes one's back)
 * @property {(message: object) => boolean} [canReply]  a member may reply (not one who left)
 * @property {(message: object) => void} [onReply]  answers this message with the next Send
 * @property {(seq: number) => void} [onShowOriginal]  a reply's quote: to the message it answers
 * @property {(message: object) => number} [editableUntil]  until when (ms) one may edit it, 0: never (state/edits.js)
 * @property {(message: object) => void} [onEdit]  edits one's own text in the composer
 * @property {(message: object) => boolean} [canReport]  a member may report someone else's message to the admins
 * @property {(message: object) => void} [onReport]  asks whether to report it (views/reports.js)
 * @property {(photo: import("./photoViewer.js").Photo) => void} [onViewPhoto]  a sent photo, whole (views/photoViewer.js)
 */

export const blobURL = (hash) => `/blobs/${hash}`;

function appName(ctx, appId) {
  return ctx.app(appId)?.name || appId;
}

/** What an app message's picture is of over its updates (views/steadyPicture.js): its session, or itself while sending. */
function pictureSlot(m) {
  if (m.session?.id) return `s:${m.appId}:${m.session.id}`;
  return m.clientId ? `c:${m.clientId}` : null;
}

/**
 * The template layout of an app message (or of a staged one); `steady`: a transcript
 * row's, whose picture stands on the one before it in its session while it comes.
 */
export function templateLayout(m, ctx, { interactive, get = false, steady = false }) {
  const l = m.layout || {};
  const t = (s) => (typeof s === "string" && s !== "" ? ctx.names(s, m.appId) : null);
  const parts = [];
  // one's own message still sending shows its picture from this browser (localImage),
  // also once uploaded: the same picture, here without a download
  const src = l.localImage || (l.image ? blobURL(l.image) : null);
  if (src || l.imageTitle || l.imageSubtitle) {
    parts.push(h("div", { class: "app-image" },
      // its size gives the picture its shape before it comes: a stored message's only (the
      // server's), not what one still sending carries (an app may copy an older layout's)
      src ? steadyPicture(steady ? pictureSlot(m) : null, m.seq, { src, alt: t(l.imageTitle) || t(l.caption) || "", loading: "lazy", draggable: "false",
        ...(m.seq && l.image && l.imageWidth ? { width: l.imageWidth, height: l.imageHeight } : {}) }) : null,
      t(l.imageTitle) && h("div", { class: "image-title" }, t(l.imageTitle)),
      t(l.imageSubtitle) && h("div", { class: "image-subtitle" }, t(l.imageSubtitle)),
    ));
  }
  if (l.caption || l.subcaption || l.trailingCaption || l.trailingSubcaption) {
    parts.push(h("div", { class: "app-captions" },
      h("div", { class: "caption", dir: "auto" }, t(l.caption) || ""),
      h("div", { class: "trailing-caption", dir: "auto" }, t(l.trailingCaption) || ""),
      h("div", { class: "subcaption", dir: "auto" }, t(l.subcaption) || ""),
      h("div", { class: "trailing-subcaption", dir: "auto" }, t(l.trailingSubcaption) || ""),
    ));
  }
  const app = ctx.app(m.appId);
  parts.push(h("div", { class: "app-footer" },
    app ? appIcon(app, "small") : null,
    h("span", null, appName(ctx, m.appId)),
  ));
  const label = [appName(ctx, m.appId), t(l.imageTitle), t(l.caption), t(l.subcaption), t(l.trailingCaption)].filter(Boolean).join(", ");
  // a tap on the picture of an app one does not have does what Get beside it does
  if (interactive || get) {
    return h("button", {
      class: "bubble app-bubble", type: "button",
      "aria-label": interactive ? `Open ${label}` : `Open ${label} (gets ${appName(ctx, m.appId)} first)`,
      onclick: () => (interactive ? ctx.onOpenApp(m) : ctx.onGetApp(m)),
    }, parts);
  }
  return h("div", { class: "bubble app-bubble", role: "group", "aria-label": label }, parts);
}

function stickerEl(s, ctx) {
  return h("img", {
    class: "stuck",
    src: blobURL(s.image),
    alt: s.description ? `Sticker from ${ctx.nameOf(s.sender)}: ${s.description}` : `Sticker from ${ctx.nameOf(s.sender)}`,
    dataset: { seq: s.seq },
  });
}

/**
 * The text as typed; its web addresses as links that open in a new tab, telling the
 * site nothing. An address reads left to right whatever surrounds it (dir isolates it
 * from the text around, so right-to-left text cannot reorder what it shows).
 */
function textWithLinks(text) {
  return linkParts(withoutOverrides(text)).map((p) => (p.href
    ? h("a", { href: p.href, target: "_blank", rel: "noopener noreferrer nofollow", dir: "ltr" }, p.text)
    : p.text));
}

/**
 * One's own name where a text mentions one ("@Ana"), marked (a text node in a <mark>),
 * with "mentions you" said before it to a screen reader.
 */
function withMentionMarked(parts, m, ctx) {
  if (!mentionsMe(m, ctx.selfId) || !ctx.selfName) return parts;
  const marked = parts.flatMap((p) => (typeof p !== "string" ? [p]
    : mentionParts(p, ctx.selfName).map((q) => (typeof q === "string" ? q : h("mark", { class: "mention" }, q.mention)))));
  return [h("span", { class: "visually-hidden" }, "Mentions you: "), ...marked];
}

function body(m, ctx, { pending }) {
  switch (m.kind) {
    case "text":
      // dir=auto: a line that begins in Arabic or Hebrew reads right to left
      return h("div", { class: "bubble text-bubble", dir: "auto" }, withMentionMarked(textWithLinks(m.text), m, ctx));
    case "app": {
      const installed = ctx.installed(m.appId);
      if (!pending && m.live && installed) {
        // the template's picture stands in until the app has drawn the bubble (or if it cannot)
        const live = ctx.liveView(m, () => templateLayout(m, ctx, { interactive: false }).querySelector(".app-image"));
        if (live) return live;
      }
      return templateLayout(m, ctx, { interactive: !pending && installed, get: !pending && !installed && !!ctx.app(m.appId), steady: true });
    }
    case "sticker":
      return h("div", { class: "bubble sticker-bubble" }, h("img", { src: blobURL(m.image), alt: m.description ? `Sticker: ${m.description}` : "Sticker" }));
    case "attachment": {
      const img = h("img", { src: photoSrc(m), alt: m.name || "Image", loading: "lazy" });
      // a stored message's size (as above); by the style property: the page's policy refuses style attributes
      if (m.seq) Object.assign(img.style, attachmentBox(m));
      if (!ctx.onViewPhoto) return h("div", { class: "bubble attachment-bubble" }, img);
      return h("button", { class: "bubble attachment-bubble", type: "button", "aria-label": `View photo: ${m.name || "Image"}`,
        onclick: () => ctx.onViewPhoto(photoOf(m, ctx)) }, img);
    }
    case "audio":
      return voiceBubble(m, blobURL);
    case "deleted":
      return h("div", { class: "bubble tombstone" }, "Message deleted");
    default:
      return h("div", { class: "bubble" }, "Unsupported message");
  }
}

/** A photo's picture: this browser's while one's own is still uploading, else the server's. */
const photoSrc = (m) => m.localImage ?? blobURL(m.image);

/** A photo's message as the photo viewer shows it (views/photoViewer.js). */
export function photoOf(m, ctx) {
  return { src: photoSrc(m), name: m.name, who: m.sender === ctx.selfId ? "You" : ctx.nameOf(m.sender), at: m.createdAt, seq: m.seq };
}

/** Largest side of a picture sent in a conversation (app.css's .attachment-bubble img). */
const ATTACHMENT_SIDE = 260;

/**
 * The box a sent picture will take, from its size (the server's, with the message),
 * so the bubble has its shape before the picture comes; without one, the picture's own.
 */
export function attachmentBox({ width, height }) {
  if (!width || !height) return {};
  const scale = Math.min(1, ATTACHMENT_SIDE / width, ATTACHMENT_SIDE / height);
  return { width: `${Math.max(1, Math.round(width * scale))}px`, height: `${Math.max(1, Math.round(height * scale))}px` };
}

/** A reply's quote of the message it answers, as `quoteOf` words it for this viewer. */
export function replyQuote(original, ctx) {
  return quoteOf(original, { selfId: ctx.selfId, nameOf: ctx.nameOf, words: (o) => messageWords(o, ctx), summary: (o) => summaryText(o, ctx) });
}

/**
 * Above a reply's bubble: who wrote the original and one line of it, a button that
 * shows the original (scrolled to and highlighted). Set as text.
 */
function quoteBlock(seq, original, ctx) {
  const q = replyQuote(original, ctx);
  return h("button", {
    class: ["reply-quote", !q.loaded && "unknown", q.picture && "with-picture"], type: "button", "aria-label": quoteLabel(q), dataset: { replyTo: seq },
    onclick: () => ctx.onShowOriginal?.(seq),
  },
  q.who ? h("span", { class: "reply-quote-who" }, q.who) : null,
  h("span", { class: "reply-quote-line", dir: "auto" }, q.line),
  q.picture ? h("img", { class: "reply-picture", src: blobURL(q.picture), alt: "", loading: "lazy" }) : null);
}

/**
 * A confirmed message.
 * @param {object} m
 * @param {object[]} stickers stickers stuck onto it
 * @param {BubbleContext} ctx
 * @param {{showSender: boolean, reactions?: import("../state/reactions.js").Chip[], quoted?: object}} opts
 *   `reactions`: the tapbacks on it, drawn as chips under the bubble; `quoted`: for a
 *   reply, the message it answers as held (undefined when not loaded)
 */
export function messageRow(m, stickers, ctx, { showSender, reactions = [], quoted }) {
  const mine = m.sender === ctx.selfId;
  const b = body(m, ctx, { pending: false });
  for (const s of stickers) {
    const img = stickerEl(s, ctx);
    img.style.left = `${s.stuckTo.x * 100}%`;
    img.style.top = `${s.stuckTo.y * 100}%`;
    b.append(img);
  }
  const row = h("div", {
    class: ["row", mine && "mine", !showSender && "cont"],
    dataset: { seq: m.seq, kind: m.kind, ...(m.appId ? { appId: m.appId } : {}), ...(m.session ? { session: m.session.id } : {}) },
  },
  showSender && !mine
    ? h("div", { class: "sender" }, ctx.nameOf(m.sender))
    // a screen reader moving through the rows still hears whose each one is
    : h("span", { class: "visually-hidden who" }, mine ? "You:" : `${ctx.nameOf(m.sender)}:`),
  m.replyTo ? quoteBlock(m.replyTo, quoted, ctx) : null,
  b);
  if (m.kind === "app" && !ctx.installed(m.appId)) {
    const app = ctx.app(m.appId);
    row.append(app
      ? h("button", { class: "button small primary get-app", type: "button", onclick: () => ctx.onGetApp(m) }, `Get ${app.name}`)
      : h("div", { class: "meta" }, "This app is not available on this server"));
  }
  // under the bubble, at its edge (the sender's side), covering none of what it says
  if (reactions.length) row.append(reactionChips(m, reactions, ctx));
  const words = m.kind !== "deleted" ? short(messageWords(m, ctx)) : "";
  const until = ctx.editableUntil?.(m) ?? 0;
  row.append(h("div", { class: "meta" }, h("time", { datetime: new Date(m.createdAt).toISOString() }, clockTime(m.createdAt)),
    // read with the bubble, after its words and time, as Messages shows it under the bubble
    m.kind === "text" && m.editedAt ? h("span", { class: "edited", title: `Edited at ${clockTime(m.editedAt)}` }, "Edited") : null,
    m.kind !== "deleted" && ctx.canReply?.(m)
      ? h("button", { class: "reply-message", type: "button", "aria-label": `Reply to message: ${words}`, onclick: () => ctx.onReply(m) }, "Reply")
      : null,
    m.kind !== "deleted" && ctx.canReact?.(m) ? reactButton(m, reactions, ctx, `React to message: ${words}`) : null,
    // hidden once the 15 minutes are over (main.js sweeps them at their time)
    until > 0 && ctx.onEdit
      ? h("button", { class: "edit-message", type: "button", "aria-label": `Edit message: ${words}`, hidden: Date.now() >= until, dataset: { editableUntil: until }, onclick: () => ctx.onEdit(m) }, "Edit")
      : null,
    m.kind !== "deleted" && ctx.canDelete?.(m)
      ? h("button", { class: "delete-message", type: "button", "aria-label": `Delete message: ${words}`, onclick: () => ctx.onDelete(m) }, "Delete")
      // in Delete's place on others' messages (an admin deletes instead): views/reports.js
      : !mine && m.kind !== "deleted" && ctx.canReport?.(m)
        ? h("button", { class: "report-message", type: "button", "aria-label": `Report message: ${words}`, onclick: () => ctx.onReport(m) }, "Report")
        : null));
  return row;
}

/** What a message says, in words: for screen readers, and for the line that announces it. */
export function messageWords(m, ctx) {
  switch (m.kind) {
    case "text":
      return withoutOverrides(m.text);
    case "app": {
      const l = m.layout || {};
      // the first of these that reads whole: names still on their way read as "…"
      const named = [m.summaryText, l.caption, l.subcaption, l.trailingCaption, l.imageTitle]
        .filter((s) => typeof s === "string" && s !== "")
        .map((s) => [s, ctx.names(s, m.appId)])
        .find(([s, n]) => !n.includes("…") || s.includes("…"));
      return `${appName(ctx, m.appId)}: ${named ? named[1] : "a message"}`;
    }
    case "sticker":
      return m.description ? `a sticker: ${m.description}` : "a sticker";
    case "attachment":
      return `a picture${m.name ? `, ${m.name}` : ""}`;
    case "audio":
      return `a ${voiceLine(m.durationMs).toLowerCase()}`;
    case "deleted":
      return "a deleted message";
    default:
      return "a message";
  }
}

/**
 * Who sent it and what it says, as a screen reader is told of a new message; for a
 * reply, whom it answers ("Ana, replying to you: yes"): the quote is not heard with it.
 * @param {object} [quoted] a reply's original, as held (undefined when not loaded)
 */
export function spokenLine(m, ctx, quoted) {
  const words = messageWords(m, ctx);
  let to = "";
  if (m.replyTo) {
    const q = replyQuote(quoted, ctx);
    to = `, replying to ${!q.loaded ? "an earlier message" : q.who === "You" ? "you" : q.who}`;
  }
  const mention = mentionsMe(m, ctx.selfId) ? ", mentioning you" : "";
  return `${ctx.nameOf(m.sender)}${mention}${to}: ${shorten(words, 300)}`;
}

/** A reaction, as a screen reader is told of it: "Ben reacted Love to “hi”". */
export function reactedLine(r, target, ctx) {
  return `${ctx.nameOf(r.sender)} reacted ${tapbackName(r.emoji) ?? r.emoji} to “${shorten(messageWords(target, ctx), 60)}”`;
}

/** A superseded session state's line, as this viewer reads it. */
function summaryText(m, ctx) {
  const sender = ctx.nameOf(m.sender);
  return attributed(ctx.names(m.summary || m.summaryText || `${sender} played ${appName(ctx, m.appId)}`, m.appId), sender, m.sender === ctx.selfId ? "You" : sender);
}

/** A superseded session state: one line where the bubble used to be. */
export function summaryRow(m, ctx) {
  const app = ctx.app(m.appId);
  return h("div", { class: "summary", dataset: { seq: m.seq, summary: "" } },
    app ? appIcon(app, "small") : null,
    h("span", { dir: "auto" }, summaryText(m, ctx)));
}

/** A local echo, until the server confirms it; `quoted`: for a reply, what it answers. */
export function pendingRow(p, ctx, quoted) {
  const failed = p.status === "failed";
  const m = withLocalImage({ ...p.message, sender: p.sender, createdAt: p.createdAt }, p.imageKey, ctx);
  const meta = h("div", { class: "meta" });
  if (failed) {
    meta.append(h("span", { class: "error" }, failureText(p.error, m.kind)));
    if (p.error !== "session_conflict") meta.append(h("button", { type: "button", onclick: () => ctx.onRetry(p.clientId) }, "Retry"));
    meta.append(h("button", { type: "button", onclick: () => ctx.onDiscard(p.clientId) }, "Discard"));
  } else {
    meta.append(h("span", null, "Sending…"));
  }
  return h("div", { class: ["row", "mine", "pending", failed && "failed"], dataset: { clientId: p.clientId, kind: m.kind } },
    m.replyTo ? quoteBlock(m.replyTo, quoted, ctx) : null,
    body(m, ctx, { pending: true }),
    meta);
}

/** A staged or sending app message whose image waits to be uploaded, shown with it. */
export function withLocalImage(m, imageKey, ctx) {
  const url = imageKey && ctx.pendingImage?.(imageKey);
  if (url && m.kind === "audio") return { ...m, localAudio: url }; // a recording not uploaded yet
  if (url && m.kind === "attachment") return { ...m, localImage: url }; // a photo of one's own
  return url ? { ...m, layout: { ...m.layout, localImage: url } } : m;
}

const short = (s) => shorten(s, 40);

function failureText(code, kind) {
  if (kind === "audio") {
    const voice = { image_lost: "the recording was lost before it was uploaded", not_an_image: "the recording could not be read",
      too_large: "the recording is too big", quota_exceeded: "your pictures and recordings have reached this server's limit" }[code];
    if (voice) return `Not sent: ${voice}`;
  }
  switch (code) {
    case "session_conflict":
      return "Not sent: someone updated this first";
    case "too_long":
      return "Not sent: too long";
    case "not_member":
      return "Not sent: you are not in this conversation";
    case "forbidden":
      return "Not sent: you cannot send messages to this person";
    case "unknown_app":
      return "Not sent: this app is not on the server";
    case "internal":
      return "Not sent: the server had a problem";
    case "timeout":
      return "Not sent: the server did not answer";
    case "image_lost":
      return "Not sent: the picture was lost before it was uploaded";
    case "not_an_image":
    case "invalid_image":
      return "Not sent: the picture could not be read";
    case "too_large":
    case "image_too_large":
      return "Not sent: the picture is too big";
    case "quota_exceeded":
      return "Not sent: your pictures have reached this server's limit";
    default:
      return "Not sent";
  }
}

