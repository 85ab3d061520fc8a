// Participant maps, fetched into the store: a caption saying "$<identifier>" is
// drawn with the name behind it. A map is asked for when the state shown needs
// one (a message, a staged item, a conversation's last message; never while
// drawing), and asked again when a member the map does not know arrives, so a
// newcomer's identifier is not shown as "someone". The old map serves meanwhile.

import { participantMap, participantsKey, mapsWanted } from "../state/participants.js";

const wireKey = (key) => `participants|${key}`;

export class Participants {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   */
  constructor(client, store) {
    this.client = client;
    this.store = store;
    store.addEventListener("change", (e) => this.fetchWanted(e.detail.parts));
  }

  /** The map of one app in one conversation: the one on its way, else the one held, else asked for. */
  map(conversationId, appId) {
    const key = participantsKey(conversationId, appId);
    const held = this.store.state.participants[key];
    if (held && !this.store.requests.has(wireKey(key))) return Promise.resolve(held);
    return this.fetch(conversationId, appId);
  }

  fetch(conversationId, appId) {
    const key = participantsKey(conversationId, appId);
    return this.store.requests.join(wireKey(key), (current) =>
      this.client.request("participants", { conversationId, appId }).then((r) => {
        if (!current()) return this.map(conversationId, appId); // asked again since: that answer counts
        const map = participantMap(r);
        this.store.update([`transcript:${conversationId}`], (s) => ({ participants: { ...s.participants, [key]: map } }));
        return map;
      }));
  }

  /** A member joined or was named: the maps of that conversation that lack them are asked for again. */
  memberChanged(conversationId, member) {
    const prefix = participantsKey(conversationId, "");
    const held = this.store.state.participants;
    const stale = new Set(this.store.requests.keysStarting(wireKey(prefix)).map((k) => k.slice(wireKey(prefix).length)));
    for (const [key, map] of Object.entries(held)) {
      if (key.startsWith(prefix) && !map.toParticipant.has(member.userId)) stale.add(key.slice(prefix.length));
    }
    for (const appId of stale) {
      this.store.requests.forget(wireKey(participantsKey(conversationId, appId)));
      this.fetch(conversationId, appId).catch(() => {});
    }
  }

  /** After a change: the maps the conversation on screen and the list's last messages need. */
  fetchWanted(parts) {
    const s = this.store.state;
    const id = s.currentId;
    const wanted = [];
    if (id && (parts.has(`transcript:${id}`) || parts.has("current") || parts.has("staged"))) {
      const t = s.transcripts[id];
      const shown = [...(t ? t.messages : []), ...(t ? t.pending.map((p) => p.message) : []), ...(s.staged[id] || []).map((x) => x.message)];
      for (const appId of mapsWanted(shown, id, s.participants)) wanted.push([id, appId]);
    }
    if (parts.has("conversations")) {
      for (const c of s.conversations) {
        for (const appId of mapsWanted([c.lastMessage], c.id, s.participants)) wanted.push([c.id, appId]);
      }
    }
    for (const [conversationId, appId] of wanted) {
      if (!this.store.requests.has(wireKey(participantsKey(conversationId, appId)))) this.fetch(conversationId, appId).catch(() => {});
    }
  }
}
