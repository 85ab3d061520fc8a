// The app pane's lifecycle, as a plan of steps. The pane (apps/pane.js) runs the
// steps in order; "call" steps are hooks of the app's controller, "do" steps are
// what the host does to the pane. The order is the Messages framework's:
//
//   open:        mount → willBecomeActive → present → didBecomeActive
//   transition:  willTransition(to) → resize → didTransition(to)
//   select:      (active app) select → didSelect → [transition to expanded]
//   close:       willResignActive → hide → didResignActive → unmount
//
// An app opened from the drawer starts compact; from a tapped bubble, expanded
// with that bubble as selectedMessage.

export const COMPACT = "compact";
export const EXPANDED = "expanded";

/**
 * @typedef {{active: boolean, appId?: string, style?: string}} PaneState
 * @typedef {{call: string, arg?: unknown} | {do: string, style?: string, appId?: string, message?: unknown}} Step
 */

/** @returns {Step[]} */
export function planClose(state) {
  if (!state.active) return [];
  return [{ call: "willResignActive" }, { do: "hide" }, { call: "didResignActive" }, { do: "unmount" }];
}

/** @returns {Step[]} */
export function planTransition(state, to) {
  if (!state.active || state.style === to) return [];
  return [{ call: "willTransition", arg: to }, { do: "resize", style: to }, { call: "didTransition", arg: to }];
}

/**
 * Opening an app: from the drawer (no message: compact) or from a bubble
 * (expanded, selected). If that app is already active, a bubble is a
 * selection and the drawer is a no-op; another app is closed first.
 * @param {PaneState} state
 * @param {{appId: string, message?: unknown}} intent
 * @returns {Step[]}
 */
export function planOpen(state, { appId, message }) {
  if (state.active && state.appId === appId) {
    if (message === undefined) return [];
    return [{ do: "select", message }, { call: "didSelect", arg: message }, ...planTransition(state, EXPANDED)];
  }
  const style = message === undefined ? COMPACT : EXPANDED;
  return [
    ...planClose(state),
    { do: "mount", appId, style, message },
    { call: "willBecomeActive" },
    { do: "present", style },
    { call: "didBecomeActive" },
  ];
}

/** The pane state after a plan ran. */
export function stateAfter(state, steps) {
  let s = { ...state };
  for (const step of steps) {
    if (step.do === "mount") s = { active: true, appId: step.appId, style: step.style };
    else if (step.do === "resize") s = { ...s, style: step.style };
    else if (step.do === "unmount") s = { active: false };
  }
  return s;
}
