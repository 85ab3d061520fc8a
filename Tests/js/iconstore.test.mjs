// Icon Store: an icon's query items (name, imageName, description, price) and
// reading them back, the seed's Icon.queryItems / Icon(queryItems:) /
// Icon(message:), with the seed's misplaced price brace fixed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { Icon, IconData, QueryItemKey, formatPrice } from "../../Public/apps/iconstore/icons.js";
import { queryItems } from "../../Public/sdk/index.js";

const folder = new URL("../../Public/apps/iconstore/", import.meta.url);

test("the catalogue: at least six icons, each with its own SVG drawing", () => {
  assert.ok(IconData.iconSet.length >= 6);
  const names = new Set();
  for (const icon of IconData.iconSet) {
    assert.ok(icon.name && icon.description && icon.price > 0, icon.name);
    assert.ok(!names.has(icon.imageName), "image names are unique");
    names.add(icon.imageName);
    const file = new URL(icon.imagePath, folder);
    assert.ok(existsSync(file), `${icon.imagePath} exists`);
    assert.match(readFileSync(file, "utf8"), /^<svg [^>]*viewBox="0 0 128 128"/);
  }
});

test("query items in the seed's order, price with two decimals", () => {
  const cat = IconData.byImageName("cat");
  assert.deepEqual(cat.queryItems, [
    { name: "name", value: "Cat icon" },
    { name: "imageName", value: "cat" },
    { name: "description", value: "A black cat sitting under a harvest moon. Purrs in dark mode." },
    { name: "price", value: "2.99" },
  ]);
  assert.equal(cat.url, "?name=Cat%20icon&imageName=cat&description=A%20black%20cat%20sitting%20under%20a%20harvest%20moon.%20Purrs%20in%20dark%20mode.&price=2.99");
  assert.deepEqual(Object.values(QueryItemKey), ["name", "imageName", "description", "price"]);
});

test("every icon survives the round trip through its URL, price included", () => {
  for (const icon of IconData.iconSet) {
    const back = Icon.fromMessage({ url: icon.url });
    assert.equal(back.name, icon.name);
    assert.equal(back.imageName, icon.imageName);
    assert.equal(back.description, icon.description);
    assert.equal(back.price, icon.price, "the seed dropped the price; we read it");
    assert.equal(back.tint, icon.tint);
    assert.equal(back.isFeatured, icon.isFeatured);
    assert.equal(back.imagePath, `icons/${icon.imageName}.svg`);
  }
});

test("reading: an http(s) URL like the seed's, items in any order", () => {
  const icon = Icon.fromMessage({ url: "http://www.appcoda.com/?price=4.99&imageName=camera&name=Camera%20icon&description=Say%20cheese" });
  assert.equal(icon.name, "Camera icon");
  assert.equal(icon.price, 4.99);
  assert.equal(icon.formattedPrice, "$4.99");
  assert.equal(icon.description, "Say cheese");
});

test("reading is careful with what another version or a stranger sent", () => {
  assert.equal(Icon.fromMessage(null), null);
  assert.equal(Icon.fromMessage({ url: null }), null);
  assert.equal(Icon.fromMessage({ url: "?price=1" }), null, "no name: not an icon");
  const odd = Icon.fromQueryItems(queryItems("?name=Odd&imageName=../../sdk/index&price=-3&description"));
  assert.equal(odd.imageName, "", "an image name is never a path");
  assert.equal(odd.imagePath, null);
  assert.equal(odd.price, 0);
  assert.equal(odd.description, "");
  const unknown = Icon.fromMessage({ url: "?name=Rocket%20icon&imageName=rocket&price=abc" });
  assert.equal(unknown.imagePath, null, "an icon this version does not draw: the bubble's image is used");
  assert.equal(unknown.price, 0);
});

test("prices are shown with two decimals", () => {
  assert.equal(formatPrice(4), "$4.00");
  assert.equal(formatPrice(0.99), "$0.99");
  assert.equal(formatPrice(NaN), "$0.00");
  assert.equal(new Icon({ name: "x", price: 9.9 }).queryItems[3].value, "9.90");
});
