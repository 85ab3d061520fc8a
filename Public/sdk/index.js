// The Parlor apps SDK. An app imports what it needs from here:
//
//   import { MessagesAppViewController, Message, Session, TemplateLayout } from "/sdk/index.js";
//
// See docs/APPS.md.

export { MessagesAppViewController, PresentationStyle, start } from "./controller.js";
export { Conversation, SessionConflictError } from "./conversation.js";
export { Message, Session, TemplateLayout, LiveLayout, Sticker } from "./model.js";
export { AppStorage } from "./storage.js";
export { NewestMessages } from "./sessions.js";
export { BridgeError } from "./protocol.js";
export { h } from "./dom.js";
export { keepFocus, firstControl, focusControl } from "./focus.js";
export { queryItems, queryValue, queryObject, urlWithQueryItems } from "./query.js";
export { shorten, wellFormed } from "./text.js";
