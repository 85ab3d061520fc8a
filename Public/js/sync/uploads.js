// Image uploads: a blob goes to /blobs over HTTP (not the WebSocket, so a big
// image never holds up live traffic) and comes back as its content hash.

import { ProtocolError } from "../net/client.js";

/**
 * @param {Blob} blob
 * @param {string | null} token the account's token
 * @returns {Promise<string>} the blob's hash
 */
export async function upload(blob, token) {
  const res = await fetch("/blobs", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": blob.type || "application/octet-stream" },
    body: blob,
  });
  let body = {};
  try {
    body = await res.json();
  } catch {
    // no body
  }
  if (!res.ok) throw new ProtocolError({ code: body.code || "upload_failed", message: `upload failed (${res.status})` });
  if (typeof body.hash !== "string" || !/^[0-9a-f]{64}$/.test(body.hash)) throw new ProtocolError({ code: "upload_failed", message: "bad upload answer" });
  return body.hash;
}
