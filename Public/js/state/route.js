// Where the page is: the hash is the route, so links work without a server
// side router. `?invite=CODE` (a link shape some people paste) is accepted too.
//
//   #/                 the conversation list
//   #/c/<id>           a conversation
//   #/join/<code>      join with an invite code

/**
 * @param {string} hash location.hash
 * @param {string} [search] location.search
 * @returns {{name: "home"} | {name: "conversation", id: string} | {name: "join", code: string}}
 */
export function parseRoute(hash, search = "") {
  const params = new URLSearchParams(search);
  const invite = params.get("invite");
  if (invite) return { name: "join", code: invite };
  const path = (hash || "").replace(/^#/, "");
  const parts = path.split("/").filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (parts[0] === "c" && parts[1]) return { name: "conversation", id: parts[1] };
  if (parts[0] === "join" && parts[1]) return { name: "join", code: parts[1] };
  return { name: "home" };
}

export function conversationHash(id) {
  return `#/c/${encodeURIComponent(id)}`;
}

/** The link someone else opens to join. */
export function inviteLink(origin, code) {
  return `${origin}/#/join/${encodeURIComponent(code)}`;
}
