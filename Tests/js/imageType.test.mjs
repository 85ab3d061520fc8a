// The host takes an app's image by what its bytes are, never by the Blob's type.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkedImage, imageProblem, sniffImageType } from "../../Public/js/state/imageType.js";

const png = (w, h) => {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, w);
  new DataView(b.buffer).setUint32(20, h);
  return b;
};

test("only PNG, JPEG, GIF and WebP, by their bytes", () => {
  assert.equal(sniffImageType(png(2, 2)), "image/png");
  assert.equal(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), "image/jpeg");
  assert.equal(sniffImageType(new TextEncoder().encode("GIF89a\x01\x00\x01\x00")), "image/gif");
  assert.equal(sniffImageType(new TextEncoder().encode("RIFF\x00\x00\x00\x00WEBPVP8 ")), "image/webp");
  for (const text of ["<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "<!doctype html><script>x</script>", "GIF8", ""]) {
    assert.equal(imageProblem(new TextEncoder().encode(text))?.code, "not_an_image", text);
  }
});

test("a picture too wide, too tall or of too many pixels is refused before it is shown", () => {
  assert.equal(imageProblem(png(10_000, 2_500)), null);
  assert.equal(imageProblem(png(10_001, 20))?.code, "image_too_large");
  assert.equal(imageProblem(png(6_000, 6_000))?.code, "image_too_large");
  assert.equal(imageProblem(png(0, 5))?.code, "image_too_large");
});

test("the Blob kept is typed by its bytes, whatever the app said", async () => {
  const labelled = new Blob([png(3, 3)], { type: "text/html" });
  const kept = await checkedImage(labelled);
  assert.equal(kept.type, "image/png");
  assert.equal(kept.size, labelled.size);
  const svg = new Blob(["<svg xmlns='http://www.w3.org/2000/svg'><script>parent.x=1</script></svg>"], { type: "image/png" });
  await assert.rejects(checkedImage(svg), (e) => e.code === "not_an_image");
});
