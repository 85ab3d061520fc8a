// Keeping the keyboard focus across a re-render (for apps: Party list, Ice Cream
// and WenderPic use it). A render replaces the view,
// and with it the control that had the focus: the browser drops the focus to
// the page's body, and a keyboard user starts again from the top at every
// step. keepFocus puts it back, when the render left it on the body: on the
// same control if the new view has it (matched by its id or data key), else on
// the view's first control. Only when the focus was on a control of ours: the
// app never takes the keyboard from the host's composer.

const CONTROLS = "button, input, textarea, select, a[href], [tabindex]";
/** data-* attributes that name a control with no id (an option, a sticker, an item) */
const KEYS = ["part", "id", "item"];

/** How to find `el` again in a view rendered anew, or null. */
function keyOf(el) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const key = KEYS.find((k) => el.dataset[k] !== undefined);
  return key ? `[data-${key}="${CSS.escape(el.dataset[key])}"]` : null;
}

const usable = (el) => !el.disabled && !el.closest("[hidden], [inert]") && el.tabIndex >= 0 && el.getClientRects().length > 0;

/** The first control a keyboard user meets in `root`, or its heading (made focusable) when it has none. */
export function firstControl(root) {
  const control = [...root.querySelectorAll(CONTROLS)].find(usable);
  if (control) return control;
  const heading = root.querySelector("h1");
  if (heading) heading.tabIndex = -1;
  return heading;
}

/** Focuses a control as Tab would: a text field with its text selected. */
export function focusControl(el) {
  if (!el) return;
  el.focus();
  if (el instanceof HTMLInputElement && el.type === "text") el.select();
}

/** Runs `render`, which replaces what `root` shows, and puts the focus back (see above). */
export function keepFocus(root, render) {
  const was = document.activeElement;
  const ours = document.hasFocus() && was && was !== document.body && root.contains(was);
  const key = ours ? keyOf(was) : null;
  const result = render();
  // still on a control (the same, or one the view chose): nothing was lost
  if (!ours || document.activeElement !== document.body) return result;
  const same = key && root.querySelector(key);
  focusControl(same && usable(same) ? same : firstControl(root));
  return result;
}
