// The icons the store sells, and how an icon travels in a message: as query
// items (name, imageName, description, price), the way the seed's
// `Icon.queryItems` / `Icon(queryItems:)` do it. No DOM here, so it is tested
// with node (Tests/js/iconstore.test.mjs).

import { queryItems, urlWithQueryItems } from "../../sdk/index.js";

/** The query item names, like the seed's `QueryItemKey`. */
export const QueryItemKey = Object.freeze({
  name: "name",
  imageName: "imageName",
  description: "description",
  price: "price",
});

const IMAGE_NAME = /^[a-z0-9_-]{1,40}$/;

/** An icon for sale. */
export class Icon {
  /**
   * @param {{name?: string, imageName?: string, description?: string, price?: number, isFeatured?: boolean, tint?: string}} fields
   */
  constructor({ name = "", imageName = "", description = "", price = 0, isFeatured = false, tint = "#8b5cf6" } = {}) {
    this.name = name;
    this.imageName = imageName;
    this.description = description;
    this.price = price;
    this.isFeatured = isFeatured;
    /** the colour of the card behind the icon (not sent: looked up by imageName) */
    this.tint = tint;
  }

  /** The icon as query items, in the seed's order. */
  get queryItems() {
    return [
      { name: QueryItemKey.name, value: this.name },
      { name: QueryItemKey.imageName, value: this.imageName },
      { name: QueryItemKey.description, value: this.description },
      { name: QueryItemKey.price, value: this.price.toFixed(2) },
    ];
  }

  /** "?name=Cat%20icon&imageName=cat&…", the message's URL. */
  get url() {
    return urlWithQueryItems(this.queryItems);
  }

  /** "$2.99" (the seed's "$\(price)" would print 4.0 as "$4.0"). */
  get formattedPrice() {
    return formatPrice(this.price);
  }

  /** The image in this app's folder, or null for a name this version does not have. */
  get imagePath() {
    return IconData.byImageName(this.imageName) ? `icons/${this.imageName}.svg` : null;
  }

  /**
   * Reads an icon back from query items. The seed's version checks the price
   * outside its loop (a misplaced brace), so the price never arrives; every
   * key is read here. Returns null when the items are not an icon (no name).
   * @param {{name: string, value: string | null}[]} items
   */
  static fromQueryItems(items) {
    const icon = new Icon();
    for (const item of items) {
      const value = item.value;
      if (value === null || value === undefined) continue;
      switch (item.name) {
        case QueryItemKey.name:
          icon.name = value;
          break;
        case QueryItemKey.imageName:
          icon.imageName = IMAGE_NAME.test(value) ? value : "";
          break;
        case QueryItemKey.description:
          icon.description = value;
          break;
        case QueryItemKey.price: {
          const price = Number(value);
          icon.price = Number.isFinite(price) && price >= 0 ? Math.round(price * 100) / 100 : 0;
          break;
        }
        default:
          break;
      }
    }
    if (icon.name.trim() === "") return null;
    const known = IconData.byImageName(icon.imageName);
    if (known) {
      icon.tint = known.tint;
      icon.isFeatured = known.isFeatured;
    }
    return icon;
  }

  /** The icon a message carries, or null (like the seed's `Icon(message:)`). */
  static fromMessage(message) {
    if (!message || typeof message.url !== "string") return null;
    const items = queryItems(message.url);
    if (items.length === 0) return null;
    return Icon.fromQueryItems(items);
  }
}

export function formatPrice(price) {
  return `$${(Number.isFinite(price) ? price : 0).toFixed(2)}`;
}

const icon = (fields) => Object.freeze(new Icon(fields));

/** The catalogue, like the seed's `IconData.iconSet`. Every icon is drawn for Parlor (icons/*.svg). */
export const IconData = Object.freeze({
  iconSet: Object.freeze([
    icon({ name: "Candle icon", imageName: "candle", description: "A warm candle that glows on the darkest October night.", price: 3.99, tint: "#3b2266" }),
    icon({ name: "Cat icon", imageName: "cat", description: "A black cat sitting under a harvest moon. Purrs in dark mode.", price: 2.99, isFeatured: true, tint: "#7b3fe4" }),
    icon({ name: "Sky icon", imageName: "sky", description: "A crescent moon, a few stars and two sleepy clouds.", price: 0.99, tint: "#2b4fa8" }),
    icon({ name: "Book icon", imageName: "book", description: "A red notebook with a gold star and a ribbon to keep your page.", price: 2.99, tint: "#0fa89c" }),
    icon({ name: "Backpack icon", imageName: "backpack", description: "A roomy blue backpack, ready for the first day of school.", price: 3.99, tint: "#ffb52e" }),
    icon({ name: "Camera icon", imageName: "camera", description: "A retro camera with a glossy lens. Say cheese!", price: 4.99, tint: "#e9578f" }),
    icon({ name: "Coffee icon", imageName: "coffee", description: "A steaming cup of coffee with a little heart on the side.", price: 3.99, isFeatured: true, tint: "#3fb58a" }),
    icon({ name: "Icecream icon", imageName: "icecream", description: "Strawberry and chocolate scoops with sprinkles and a cherry on top.", price: 4.99, tint: "#5aa6f0" }),
    icon({ name: "Vespa icon", imageName: "vespa", description: "A mint scooter for a ride along the coast.", price: 9.99, tint: "#ff7a66" }),
  ]),
  /** @returns {Icon | undefined} */
  byImageName(imageName) {
    return this.iconSet.find((i) => i.imageName === imageName);
  },
});
