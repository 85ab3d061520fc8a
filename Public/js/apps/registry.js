// The catalog of apps on this server: Public/apps/index.json lists the app ids
// (the server has no directory listing), each app's manifest.json says the rest.

import { shorten } from "../../sdk/text.js";

// as the server checks an app id (ParlorCore Validators.isAppId)
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const RELATIVE = /^(?!\/)(?!.*\.\.)(?!.*:)[A-Za-z0-9_./-]{1,200}$/;
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * Why a manifest is left out of the catalog, or null if it is fine: an author
 * whose app does not show finds the reason in the console (docs/APPS.md has the rules).
 * @param {string} id the folder name
 * @param {unknown} m
 */
export function manifestProblem(id, m) {
  if (!ID.test(id)) return "its id must be 1-64 lower-case letters, digits or -, starting with a letter or digit";
  if (typeof m !== "object" || m === null || Array.isArray(m)) return "manifest.json is not a JSON object";
  if (m.id !== id) return `its manifest's id is ${JSON.stringify(m.id)}, not its folder's name "${id}"`;
  if (typeof m.name !== "string" || m.name.trim() === "" || m.name.length > 64) return "its name must be 1-64 characters";
  if (typeof m.icon !== "string" || !RELATIVE.test(m.icon)) return "its icon must be a path inside its folder";
  if (typeof m.entry !== "string" || !RELATIVE.test(m.entry) || !/\.html$/.test(m.entry)) return "its entry must be an .html page inside its folder";
  return null;
}

/**
 * Checks a manifest; returns a clean copy or null.
 * @param {string} id the folder name
 * @param {unknown} m
 * @param {string} [appsOrigin] where app pages are served from, when not from here
 */
export function cleanManifest(id, m, appsOrigin = "") {
  if (manifestProblem(id, m)) return null;
  return {
    id,
    name: m.name.trim(),
    description: typeof m.description === "string" ? shorten(m.description, 300, "") : "",
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
    for (const id of ids) {
      if (typeof id !== "string" || !ID.test(id)) console.warn(`Parlor: apps/index.json lists ${JSON.stringify(id)}, which is not an app id (${manifestProblem(String(id), {})})`);
    }
    await Promise.all(ids.filter((id) => typeof id === "string" && ID.test(id)).map((id) => this.fetchOne(id)));
    this.dispatchEvent(new Event("change"));
    return this.apps;
  }

  async fetchOne(id) {
    try {
      const res = await this.fetch(`/apps/${id}/manifest.json`);
      if (!res.ok) {
        console.warn(`Parlor: app "${id}" is left out: /apps/${id}/manifest.json answered ${res.status}`);
        return null;
      }
      const raw = await res.json();
      const problem = manifestProblem(id, raw);
      if (problem) {
        console.warn(`Parlor: app "${id}" is left out: ${problem}`);
        return null;
      }
      const m = cleanManifest(id, raw, this.appsOrigin);
      this.apps.set(id, m);
      return m;
    } catch (error) {
      console.warn(`Parlor: app "${id}" is left out: its manifest.json could not be read (${error.message})`);
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
