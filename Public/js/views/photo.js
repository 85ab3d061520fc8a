// A picture the user picked to send (the composer's Photo button): a phone's photo is
// 3-12 MB and up to 48 megapixels, more than the server keeps (5 MB) and than a
// transcript shows, and it carries where it was taken. It is drawn again as a JPEG of
// at most PHOTO_SIDE px a side, which leaves its metadata (the place) behind; a GIF
// goes as it is, moving.

import { LIMITS } from "/sdk/protocol.js";
import { checkedImage } from "../state/imageType.js";

const PHOTO_SIDE = 2048;
const QUALITY = 0.88;
const KEPT_AS_IS = new Set(["image/gif"]);

/** A picture the browser cannot read, or a file that is no picture. */
export class PhotoError extends Error {}

/**
 * @param {File} file
 * @returns {Promise<{blob: Blob, name: string}>}
 */
export async function photoToSend(file) {
  const name = file.name || "Photo";
  if (!file.type.startsWith("image/")) throw new PhotoError(`“${name}” is not a picture.`);
  if (KEPT_AS_IS.has(file.type)) {
    if (file.size > LIMITS.uploadBytes) throw new PhotoError(`“${name}” is larger than 5 MB.`);
    // typed by its bytes, as an app's picture is: a file named .gif may be anything
    const blob = await checkedImage(file).catch(() => {
      throw new PhotoError(`“${name}” could not be read here: send a JPEG or a PNG.`);
    });
    return { blob, name };
  }
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new PhotoError(`“${name}” could not be read here: send a JPEG or a PNG.`);
  }
  const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff"; // a PNG's transparent parts, which JPEG has no way to keep
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
  if (!blob) throw new PhotoError(`“${name}” could not be read here: send a JPEG or a PNG.`);
  return { blob, name };
}
