import { test } from "node:test";
import assert from "node:assert/strict";
import { planOpen, planClose, planTransition, stateAfter } from "../../Public/js/apps/lifecycle.js";

const names = (steps) => steps.map((s) => s.call || s.do);
const idle = { active: false };

test("from the drawer: compact, willBecomeActive before the pane shows, didBecomeActive after", () => {
  const steps = planOpen(idle, { appId: "example" });
  assert.deepEqual(names(steps), ["mount", "willBecomeActive", "present", "didBecomeActive"]);
  assert.equal(steps[0].style, "compact");
  assert.deepEqual(stateAfter(idle, steps), { active: true, appId: "example", style: "compact" });
});

test("from a bubble: expanded, with the message selected", () => {
  const m = { seq: 4 };
  const steps = planOpen(idle, { appId: "example", message: m });
  assert.equal(steps[0].style, "expanded");
  assert.equal(steps[0].message, m);
});

test("a bubble of the active app is a selection, then a transition when compact", () => {
  const compact = { active: true, appId: "example", style: "compact" };
  assert.deepEqual(names(planOpen(compact, { appId: "example", message: {} })), ["select", "didSelect", "willTransition", "resize", "didTransition"]);
  const expanded = { ...compact, style: "expanded" };
  assert.deepEqual(names(planOpen(expanded, { appId: "example", message: {} })), ["select", "didSelect"]);
  assert.deepEqual(planOpen(compact, { appId: "example" }), []);
});

test("another app: the active one resigns first", () => {
  const s = { active: true, appId: "a", style: "expanded" };
  assert.deepEqual(names(planOpen(s, { appId: "b" })), [
    "willResignActive", "hide", "didResignActive", "unmount", "mount", "willBecomeActive", "present", "didBecomeActive",
  ]);
});

test("transitions and closing", () => {
  const s = { active: true, appId: "a", style: "compact" };
  assert.deepEqual(names(planTransition(s, "expanded")), ["willTransition", "resize", "didTransition"]);
  assert.deepEqual(planTransition(s, "compact"), []);
  assert.deepEqual(names(planClose(s)), ["willResignActive", "hide", "didResignActive", "unmount"]);
  assert.deepEqual(planClose(idle), []);
  assert.deepEqual(stateAfter(s, planClose(s)), { active: false });
});
