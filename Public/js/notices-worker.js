// The service worker behind Parlor's notifications (views/notices.js). It is here
// because phones' browsers show a notification only through one, and so that a
// notification clicked after its tab closed still opens the conversation. It
// handles no fetch: its scope (/js/) holds no page, so it controls none.

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const conversationId = event.notification.data?.conversationId;
  if (typeof conversationId !== "string") return;
  event.waitUntil(openConversation(conversationId));
});

async function openConversation(conversationId) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const page = pages.find((p) => new URL(p.url).pathname === "/");
  if (page) {
    await page.focus().catch(() => {});
    page.postMessage({ type: "parlor.open", conversationId });
    return;
  }
  await self.clients.openWindow(`/#/c/${encodeURIComponent(conversationId)}`);
}
