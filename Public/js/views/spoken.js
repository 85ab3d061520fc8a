// What a screen reader is told without anything being shown: a message that arrived
// in the open conversation, an app's message waiting in the message box. The
// transcript itself is not a live region: it is drawn again, whole rows at a time,
// when a name or the member list changes, and each redraw would be read out again.

let region = null;

function ensure() {
  if (!region || !region.isConnected) {
    region = document.createElement("div");
    region.className = "visually-hidden";
    region.id = "spoken";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  return region;
}

let pending = [];

/** Says `text` once; what is said within the same moment is said together, in order. */
export function say(text) {
  const el = ensure();
  pending.push(text);
  if (pending.length > 1) return;
  // the same words again are still news (a second "Ben: ok"): clear, then set
  el.textContent = "";
  setTimeout(() => {
    el.textContent = pending.join(". ");
    pending = [];
  }, 30);
}
