// Quick Poll, the example app of docs/APPS.md.
//
// Compact (opened from the drawer): type a question, Ask stages a poll in the
// composer (insert); the user presses Send. Expanded (a tapped poll): vote yes
// or no; the vote is sent at once (send) as a new message in the poll's
// session, so the poll's one bubble moves to the bottom with the new counts.
// The poll's state lives in the message URL: ?q=…&yes=<ids>&no=<ids>.

import {
  MessagesAppViewController, Message, Session, TemplateLayout, SessionConflictError,
  queryValue, urlWithQueryItems,
} from "/sdk/index.js";

const root = document.getElementById("root");
const log = document.getElementById("lifecycle");

/** Builds an element; strings become text. */
function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** The poll a message holds. */
function pollOf(message) {
  const list = (name) => (queryValue(message.url, name) || "").split(",").filter(Boolean);
  return { question: queryValue(message.url, "q") || "", asker: queryValue(message.url, "by") || "", yes: list("yes"), no: list("no") };
}

function urlOf(poll) {
  return urlWithQueryItems([
    { name: "q", value: poll.question },
    { name: "by", value: poll.asker },
    { name: "yes", value: poll.yes.join(",") },
    { name: "no", value: poll.no.join(",") },
  ]);
}

/** A small chart for the bubble, drawn on a canvas (the SDK uploads it). */
function chart(poll) {
  const canvas = document.createElement("canvas");
  canvas.width = 600;
  canvas.height = 260;
  const g = canvas.getContext("2d");
  const grad = g.createLinearGradient(0, 0, 600, 260);
  grad.addColorStop(0, "#ff8a3d");
  grad.addColorStop(1, "#f5487f");
  g.fillStyle = grad;
  g.fillRect(0, 0, 600, 260);
  const total = Math.max(1, poll.yes.length + poll.no.length);
  const bars = [["Yes", poll.yes.length, "#ffffff"], ["No", poll.no.length, "rgba(255,255,255,.6)"]];
  bars.forEach(([label, n, color], i) => {
    const y = 70 + i * 70;
    g.fillStyle = "rgba(255,255,255,.25)";
    g.fillRect(40, y, 520, 40);
    g.fillStyle = color;
    g.fillRect(40, y, Math.max(8, (520 * n) / total), 40);
    g.fillStyle = "#7a1f3d";
    g.font = "600 22px system-ui, sans-serif";
    g.fillText(`${label} · ${n}`, 54, y + 28);
  });
  return canvas;
}

class QuickPoll extends MessagesAppViewController {
  willBecomeActive(conversation) {
    this.note("willBecomeActive");
    this.show(conversation);
  }
  didBecomeActive() { this.note("didBecomeActive"); }
  willResignActive() { this.note("willResignActive"); }
  didResignActive() { this.note("didResignActive"); }
  willTransition(style) {
    this.note(`willTransition:${style}`);
    this.show(this.activeConversation, style);
  }
  didTransition(style) { this.note(`didTransition:${style}`); }
  didSelect(message, conversation) {
    this.note("didSelect");
    this.show(conversation);
  }
  didReceive(message, conversation) {
    this.note("didReceive");
    // Someone voted on the poll we are looking at: show the new counts.
    const shown = this.shown;
    if (shown && message.session && shown.session && message.session.identifier === shown.session.identifier) {
      this.shown = message;
      this.show(conversation, this.presentationStyle, message);
    }
  }
  didStartSending() { this.note("didStartSending"); }
  didCancelSending() { this.note("didCancelSending"); }

  note(name) {
    log.append(el("li", { textContent: name }));
  }

  /** Picks the view for the style and the selected message. */
  show(conversation, style = this.presentationStyle, message = conversation.selectedMessage) {
    this.shown = message;
    if (style === "expanded" && message) this.showPoll(conversation, message);
    else this.showAsk(conversation, style);
  }

  async showAsk(conversation, style) {
    const input = el("input", { id: "question", placeholder: "Pizza tonight?", maxLength: 120, ariaLabel: "Your question", required: true });
    // No <form>: the frame is sandboxed without allow-forms, so a submit event
    // never fires. A button and the Enter key do the same job.
    const askButton = el("button", { type: "button", id: "ask", textContent: "Ask" });
    const submit = () => {
      const question = input.value.trim();
      if (!question) return;
      input.value = "";
      this.ask(conversation, question);
    };
    askButton.addEventListener("click", submit);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") submit();
    });
    const form = el("div", { className: "ask", role: "group" }, input, askButton);
    const recent = el("div", { className: "chips", ariaLabel: "Recent questions" });
    root.replaceChildren(
      el("h1", { textContent: "Ask the group" }),
      el("p", { textContent: style === "expanded" ? "Everyone votes on the same bubble; it moves down as votes come in." : "Yes or no — everyone votes on one bubble." }),
      form,
      recent,
    );
    // Per-user storage: the last questions this person asked.
    const asked = (await this.storage.get("recent")) || [];
    for (const q of asked) {
      const chip = el("button", { type: "button", textContent: q });
      chip.addEventListener("click", () => this.ask(conversation, q));
      recent.append(chip);
    }
  }

  showPoll(conversation, message) {
    const poll = pollOf(message);
    const me = conversation.localParticipantIdentifier;
    const voted = poll.yes.includes(me) ? "yes" : poll.no.includes(me) ? "no" : null;
    const total = Math.max(1, poll.yes.length + poll.no.length);
    const bar = (kind, n) => el("div", { className: `bar ${kind}` }, Object.assign(el("span"), { style: `width:${(100 * n) / total}%` }));
    const parts = [
      el("h1", { id: "poll-question", textContent: poll.question }),
      el("div", { className: "count" }, el("span", { textContent: "Yes" }), el("span", { id: "yes-count", textContent: String(poll.yes.length) })),
      bar("yes", poll.yes.length),
      el("div", { className: "count" }, el("span", { textContent: "No" }), el("span", { id: "no-count", textContent: String(poll.no.length) })),
      bar("no", poll.no.length),
    ];
    if (voted) {
      parts.push(el("p", { className: "done", textContent: `You voted ${voted}.` }));
    } else {
      const yes = el("button", { type: "button", className: "yes", textContent: "Yes" });
      const no = el("button", { type: "button", className: "no", textContent: "No" });
      yes.addEventListener("click", () => this.vote(conversation, message, "yes"));
      no.addEventListener("click", () => this.vote(conversation, message, "no"));
      parts.push(el("div", { className: "row" }, yes, no));
    }
    root.replaceChildren(...parts);
  }

  /** Stages a new poll in the composer; the user sends it. */
  async ask(conversation, question) {
    const me = conversation.localParticipantIdentifier;
    const poll = { question, asker: me, yes: [], no: [] };
    const message = this.compose(new Session(), poll, `$${me} asked: ${question}`);
    const asked = (await this.storage.get("recent")) || [];
    await this.storage.set("recent", [question, ...asked.filter((q) => q !== question)].slice(0, 5));
    await this.requestPresentationStyle("compact");
    conversation.insert(message).catch((error) => {
      if (error.code !== "cancelled") console.warn("Quick Poll:", error.message);
    });
  }

  /** Sends a vote at once, in the poll's session. A conflict is merged and retried. */
  async vote(conversation, message, answer, attempt = 0) {
    const me = conversation.localParticipantIdentifier;
    const poll = pollOf(message);
    poll.yes = poll.yes.filter((p) => p !== me);
    poll.no = poll.no.filter((p) => p !== me);
    poll[answer].push(me);
    const next = this.compose(message.session, poll, `$${me} voted ${answer} on “${poll.question}”`);
    try {
      const sent = await conversation.send(next);
      this.show(conversation, this.presentationStyle, sent);
    } catch (error) {
      if (error instanceof SessionConflictError && attempt < 3) {
        // Someone voted at the same time: vote again on top of their state.
        return this.vote(conversation, error.current, answer, attempt + 1);
      }
      root.append(el("p", { role: "alert", textContent: `Your vote was not sent: ${error.message}` }));
    }
    return undefined;
  }

  compose(session, poll, summary) {
    const message = new Message(session);
    message.url = urlOf(poll);
    message.summaryText = summary;
    message.layout = new TemplateLayout({
      image: chart(poll),
      caption: poll.question,
      subcaption: `Asked by $${poll.asker}`,
      trailingCaption: `${poll.yes.length} yes`,
      trailingSubcaption: `${poll.no.length} no`,
    });
    return message;
  }
}

QuickPoll.start();
