// The catalog of apps on this server: Public/apps/index.json lists the app ids
// (the server has no directory listing), each app's manifest.json says the rest.

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const RELATIVE = /^(?!\/)(?!.*\.\.)(?!.*:)[A-Za-z0-9_./-]{1,200}$/;
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * Checks a manifest; returns a clean copy or null.
 * @param {string} id the folder name
 * @param {unknown} m
 * @param {string} [appsOrigin] where app pages are served from, when not from here
 */
export function cleanManifest(id, m, appsOrigin = "") {
  if (typeof m !== "object" || m === null) return null;
  if (m.id !== id || !ID.test(id)) return null;
  if (typeof m.name !== "string" || m.name.trim() === "" || m.name.length > 64) return null;
  if (typeof m.icon !== "string" || !RELATIVE.test(m.icon)) return null;
  if (typeof m.entry !== "string" || !RELATIVE.test(m.entry) || !/\.html$/.test(m.entry)) return null;
  return {
    id,
    name: m.name.trim(),
    description: typeof m.description === "string" ? m.description.slice(0, 300) : "",
    icon: `/apps/${id}/${m.icon}`,
    entry: `${ORIGIN.test(appsOrigin) ? appsOrigin : ""}/apps/${id}/${m.entry}`,
  };
}

export class AppCatalog extends EventTarget {
  constructor(fetchImpl = (...a) => fetch(...a)) {
    super();
    this.fetch = fetchImpl;
    /** @type {Map<string, ReturnType<typeof cleanManifest>>} */
    this.apps = new Map();
    this.loaded = null;
  }

  load() {
    if (!this.loaded) this.loaded = this.fetchAll();
    return this.loaded;
  }

  async fetchAll() {
    // A server may serve app pages from an origin of their own (--apps-origin).
    try {
      const res = await this.fetch("/client-config.json");
      const config = res.ok ? await res.json() : {};
      this.appsOrigin = typeof config.appsOrigin === "string" ? config.appsOrigin : "";
    } catch {
      this.appsOrigin = "";
    }
    let ids = [];
    try {
      const res = await this.fetch("/apps/index.json");
      const body = await res.json();
      ids = Array.isArray(body) ? body : Array.isArray(body.apps) ? body.apps : [];
    } catch {
      ids = [];
    }
    await Promise.all(ids.filter((id) => typeof id === "string" && ID.test(id)).map((id) => this.fetchOne(id)));
    this.dispatchEvent(new Event("change"));
    return this.apps;
  }

  async fetchOne(id) {
    try {
      const res = await this.fetch(`/apps/${id}/manifest.json`);
      if (!res.ok) return null;
      const m = cleanManifest(id, await res.json(), this.appsOrigin);
      if (m) this.apps.set(id, m);
      return m;
    } catch {
      return null;
    }
  }

  get(id) {
    return this.apps.get(id);
  }

  /** A display name, even for an app this catalog does not list. */
  name(id) {
    return this.apps.get(id)?.name || id;
  }

  list() {
    return [...this.apps.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
