// What an image an app hands the host really is, by its first bytes (as the server's
// BlobStore checks an upload): its type is never taken from the Blob. A Blob labelled
// or shaped as HTML or SVG, shown from a blob: URL of the host's origin, would run its
// script there (opened in a tab, it read the sign-in token). Pure functions.

/** Widest and tallest an image may be, and its pixels (the server's Limits). */
export const IMAGE_SIDE = 10_000;
export const IMAGE_PIXELS = 25_000_000;

/**
 * The image type of these first bytes (at least 30), or null if they are not a PNG,
 * JPEG, GIF or WebP.
 * @param {Uint8Array} b
 */
export function sniffImageType(b) {
  const at = (i, s) => [...s].every((c, k) => b[i + k] === c.charCodeAt(0));
  if (b.length >= 8 && b[0] === 0x89 && at(1, "PNG\r\n\x1a\n")) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && (at(0, "GIF87a") || at(0, "GIF89a"))) return "image/gif";
  if (b.length >= 12 && at(0, "RIFF") && at(8, "WEBP")) return "image/webp";
  return null;
}

/**
 * Width and height when the header says them (PNG, GIF), else null: a canvas of
 * 10,001 pixels a side was accepted, then refused by the server only on Send.
 * @param {Uint8Array} b
 * @param {string} type
 */
export function imageSize(b, type) {
  const be32 = (i) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
  if (type === "image/png" && b.length >= 24) return { width: be32(16), height: be32(20) };
  if (type === "image/gif" && b.length >= 10) return { width: b[6] | (b[7] << 8), height: b[8] | (b[9] << 8) };
  return null;
}

/** Why these bytes are not an image the server would take, or null. */
export function imageProblem(b) {
  const type = sniffImageType(b);
  if (!type) return { code: "not_an_image", message: "only PNG, JPEG, GIF and WebP images are accepted" };
  const size = imageSize(b, type);
  if (size && (size.width === 0 || size.height === 0 || size.width > IMAGE_SIDE || size.height > IMAGE_SIDE
      || size.width * size.height > IMAGE_PIXELS)) {
    return { code: "image_too_large", message: `images are at most ${IMAGE_SIDE} pixels a side and 25 megapixels` };
  }
  return null;
}

/**
 * The Blob an app handed over, checked and re-typed by its bytes: a new Blob whose
 * type is what it is, or a thrown {code, message}.
 * @param {Blob} blob
 */
export async function checkedImage(blob) {
  const head = new Uint8Array(await blob.slice(0, 32).arrayBuffer());
  const problem = imageProblem(head);
  if (problem) throw Object.assign(new Error(problem.message), problem);
  return new Blob([blob], { type: sniffImageType(head) });
}
