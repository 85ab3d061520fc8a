// The expanded builder (the seed's BuildIceCreamViewController): the sundae
// so far, big, and the parts for the next step. Hovering a part previews it
// on the sundae; tapping it takes the step.

import { h } from "../dom.js";
import { paint } from "../draw.js";
import { PARTS, STEPS, STEP_TITLES, describe, withPart, scoopRoom } from "../sundae.js";

const STEP_NAMES = { base: "Base", scoops: "Scoops", topping: "Topping" };

/** Who took a step, as the app may say it: it knows only participant identifiers. */
export function whoTook(sundae, step, me) {
  if (!sundae[step]) return "";
  const by = step === "scoops" ? sundae.by?.scoops ?? [] : [sundae.by?.[step]];
  const mine = by.filter((p) => p && p === me).length;
  if (mine === by.length) return "you";
  if (mine > 0) return "you & friends";
  return by.length > 1 ? "friends" : "a friend";
}

/**
 * The Base → Scoops → Topping progress, with who took each step.
 */
export function stepper(sundae, me, current) {
  return h("ol", { class: "stepper", "aria-label": "Progress" },
    STEPS.map((step, i) => {
      const done = !!sundae[step];
      const state = done ? "done" : step === current ? "current" : "todo";
      return h("li", { class: `step step-${state}`, "aria-current": step === current ? "step" : null },
        h("span", { class: "step-dot", "aria-hidden": "true" }, done ? "✓" : String(i + 1)),
        h("span", { class: "step-text" },
          h("span", { class: "step-name" }, STEP_NAMES[step]),
          done ? h("span", { class: "step-who" }, whoTook(sundae, step, me)) : null));
    }));
}

/**
 * @param {object} props
 * @param {object} props.sundae
 * @param {"base"|"scoops"|"topping"} props.step the step to take
 * @param {string} props.me the local participant identifier
 * @param {string | null} props.notice what changed under the user (a friend's step)
 * @param {(step: string, partId: string) => void} props.onChoose
 */
export function builderView({ sundae, step, me, notice, onChoose }) {
  const preview = h("canvas", { class: "preview-canvas", role: "img", "aria-label": describe(sundae) });
  const show = (s) => paint(preview, s, { ghost: true });
  let chosen = false;
  const optionsFor = (step) => PARTS[step].map((p) => {
    const candidate = withPart(sundae, step, p.id);
    const thumb = h("canvas", { class: "option-canvas", "aria-hidden": "true" });
    const button = h("button", {
      type: "button", class: "option", dataset: { part: p.id }, "aria-label": p.name,
      onclick: () => {
        if (chosen) return;
        chosen = true;
        button.classList.add("chosen");
        show(candidate);
        onChoose(step, p.id);
      },
      onpointerenter: () => show(candidate),
      onpointerleave: () => !chosen && show(sundae),
      onfocus: () => show(candidate),
      onblur: () => !chosen && show(sundae),
    }, thumb, h("span", { class: "option-name" }, p.name));
    // thumbnails show the part that matters, as big as the card allows
    const crop = step === "base" ? { top: 236, bottom: 416, left: 55, right: 245 } : { top: 12, bottom: 416, left: 62, right: 238 };
    thumb.classList.add(step === "base" ? "thumb-base" : "thumb-tall");
    requestAnimationFrame(() => paint(thumb, candidate, { ...crop, fitHeight: true }));
    return h("li", null, button);
  });
  requestAnimationFrame(() => show(sundae));
  const room = scoopRoom(sundae);
  const lead = !sundae.base
    ? "Start a sundae; friends add the scoops and the topping."
    : `So far: ${describe(sundae)}.${step === "scoops" || room === 0 ? "" : ` ${room === 1 ? "One more scoop fits" : `${room} more scoops fit`}.`}`;
  // with a scoop in, both are open: another scoop (while one fits) or the topping
  const both = step === "topping" && room > 0;
  const list = (s, labelledBy) => h("ul", { class: ["options", `options-${s}`], role: "list", "aria-labelledby": labelledBy }, optionsFor(s));
  return h("section", { class: "builder", dataset: { step } },
    h("div", { class: "plate" }, preview),
    h("div", { class: "picker" },
      stepper(sundae, me, step),
      notice ? h("p", { class: "notice", role: "alert", id: "notice" }, notice) : null,
      h("h1", { id: "step-title" }, both ? "Another scoop, or top it off" : STEP_TITLES[step]),
      h("p", { class: "lead" }, lead),
      both
        ? [h("h2", { id: "more-scoops-title" }, "Add a scoop"), list("scoops", "more-scoops-title"),
           h("h2", { id: "topping-title" }, STEP_TITLES.topping), list("topping", "topping-title")]
        : list(step, "step-title")));
}

