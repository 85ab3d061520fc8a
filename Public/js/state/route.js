// Where the page is: the hash is the route, so links work without a server
// side router. `?invite=CODE` (a link shape some people paste) is accepted too.
//
//   #/                 the conversation list
//   #/c/<id>           a conversation
//   #/join/<code>      join with an invite code
//   #/register/<code>  make an account with an admin's registration link
//   #link=<token>      sign this browser in with a one-time device link

/**
 * @param {string} hash location.hash
 * @param {string} [search] location.search
 * @returns {{name: "home"} | {name: "conversation", id: string} | {name: "join" | "register", code: string} | {name: "link", token: string}}
 */
export function parseRoute(hash, search = "") {
  const params = new URLSearchParams(search);
  const invite = params.get("invite");
  if (invite) return { name: "join", code: invite };
  const path = (hash || "").replace(/^#/, "");
  if (path.startsWith("link=") && path.length > 5) {
    try {
      return { name: "link", token: decodeURIComponent(path.slice(5)) };
    } catch {
      return { name: "link", token: path.slice(5) };
    }
  }
  const parts = path.split("/").filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (parts[0] === "c" && parts[1]) return { name: "conversation", id: parts[1] };
  if (parts[0] === "join" && parts[1]) return { name: "join", code: parts[1] };
  if (parts[0] === "register" && parts[1]) return { name: "register", code: parts[1] };
  return { name: "home" };
}

export function conversationHash(id) {
  return `#/c/${encodeURIComponent(id)}`;
}

/** The link someone else opens to join. */
export function inviteLink(origin, code) {
  return `${origin}/#/join/${encodeURIComponent(code)}`;
}

/** The link another browser opens to sign in as this account (the token stays out of server logs: a fragment). */
export function deviceLink(origin, token) {
  return `${origin}/#link=${encodeURIComponent(token)}`;
}

/** An admin's registration link: lets one new person make an account. */
export function registrationLink(origin, code) {
  return `${origin}/#/register/${encodeURIComponent(code)}`;
}
