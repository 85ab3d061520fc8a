// The app store: every app on this server, with Install and Remove.

import { h } from "./dom.js";
import { appIcon } from "./appIcon.js";

export class AppStoreDialog {
  /**
   * @param {{onInstall: (appId: string, install: boolean) => Promise<void>}} opts
   */
  constructor({ onInstall }) {
    this.onInstall = onInstall;
    this.list = h("ul", { class: "store-list" });
    this.dialog = h("dialog", { id: "app-store", "aria-labelledby": "app-store-title" },
      h("div", { class: "dialog-body" },
        h("h2", { id: "app-store-title" }, "App Store"),
        h("p", null, "Apps work inside your conversations. Everyone plays with their own copy."),
        this.list,
        h("div", { class: "dialog-actions" }, h("button", { class: "button", type: "button", onclick: () => this.dialog.close() }, "Done"))));
    document.body.append(this.dialog);
    // the button that opened it gets the focus back where the browser's own restoring
    // gave up (on a button drawn again meanwhile, the focus fell to the page); only
    // then: the close event comes a task later, and the focus may have moved on since
    // (a test moved it to the header's App Store button, and this took it back)
    this.dialog.addEventListener("close", () => {
      const a = document.activeElement;
      const lost = !a || a === document.body || this.dialog.contains(a);
      if (lost && this.opener?.isConnected) this.opener.focus();
      this.opener = null;
    });
  }

  show(catalog, installed) {
    this.opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.render(catalog, installed);
    this.dialog.showModal();
  }

  render(catalog, installed) {
    const have = new Set(installed);
    // the button pressed is replaced (Install becomes Remove): the focus goes to the new one
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest(".store-item")?.dataset.appId : null;
    this.catalog = catalog;
    this.list.replaceChildren(...catalog.list().map((app) => {
      const isIn = have.has(app.id);
      const button = h("button", {
        class: ["button", "small", !isIn && "primary"], type: "button",
        "aria-label": `${isIn ? "Remove" : "Install"} ${app.name}`,
        onclick: async () => {
          button.disabled = true;
          try {
            await this.onInstall(app.id, !isIn);
          } finally {
            button.disabled = false;
            // disabling it dropped the focus, and the list may have been drawn again
            // (Install became Remove): back to this app's button
            if (this.dialog.open && (!document.activeElement || document.activeElement === document.body)) this.buttonFor(app.id)?.focus();
          }
        },
      }, isIn ? "Remove" : "Install");
      return h("li", { class: "store-item", dataset: { appId: app.id } },
        appIcon(app, "large"),
        h("div", null, h("div", { class: "name" }, app.name), h("div", { class: "desc" }, app.description)),
        button);
    }));
    if (catalog.list().length === 0) this.list.append(h("li", { class: "conv-empty" }, "No apps on this server yet."));
    if (focused) this.buttonFor(focused)?.focus();
  }

  buttonFor(appId) {
    return this.list.querySelector(`.store-item[data-app-id="${CSS.escape(appId)}"] button`);
  }
}
