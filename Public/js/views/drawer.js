// The app drawer: the user's installed apps, and the way to the app store.

import { h, icon, ICONS, replaceChildren } from "./dom.js";
import { appIcon } from "./appIcon.js";

export class DrawerView {
  /**
   * @param {HTMLElement} el
   * @param {{onOpen: (appId: string) => void, onStore: () => void}} opts
   */
  constructor(el, { onOpen, onStore }) {
    this.el = el;
    this.onOpen = onOpen;
    this.onStore = onStore;
    el.id = "drawer";
    el.setAttribute("aria-label", "Your apps");
    el.hidden = true;
    // kept across renders: installing an app from the store redraws the drawer,
    // and closing the store gives the focus back to this very button
    this.storeButton = h("button", { class: "drawer-app", type: "button", "aria-label": "App Store", onclick: () => this.onStore() },
      h("span", { class: "store-glyph" }, icon(ICONS.store)), h("span", null, "App Store"));
  }

  get open() {
    return !this.el.hidden;
  }

  set open(value) {
    this.el.hidden = !value;
  }

  render(installed, catalog) {
    const apps = installed.map((id) => catalog.get(id)).filter(Boolean);
    replaceChildren(this.el,
      ...apps.map((app) => h("button", {
        class: "drawer-app", type: "button", dataset: { appId: app.id }, "aria-label": `Open ${app.name}`,
        onclick: () => this.onOpen(app.id),
      }, appIcon(app), h("span", null, app.name))),
      apps.length === 0 ? h("p", { class: "drawer-empty" }, "No apps yet.") : null,
      this.storeButton,
    );
  }
}
