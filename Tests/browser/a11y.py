"""axe-core (shipped in the axe-playwright-python wheel) run in the host page
and in every app frame. App frames are sandboxed, opaque-origin documents:
axe in the host cannot look inside them, so it is injected and run in each
frame on its own (Playwright reaches every frame)."""

from pathlib import Path

import axe_playwright_python

AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
BLOCKING = ("serious", "critical")
# moderate, and kept at zero too: each app view in the pane says what it is with a level-one heading
ALSO = ("page-has-heading-one",)

# Light and dark differ in colours alone (CSS, prefers-color-scheme): a screen's second
# scheme is checked by the rules that read colours; the first by every rule.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

RUN = """async (only) => {
  const r = await axe.run(document, { iframes: false, resultTypes: ["violations"],
                                      ...(only ? { runOnly: { type: "rule", values: only } } : {}) });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
}"""


# True once the document is in `scheme` and none of its CSS transitions is running
SETTLED = """scheme => matchMedia(`(prefers-color-scheme: ${scheme})`).matches
  && document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running")"""


def switch_scheme(page, scheme):
    """Switches the page to `scheme` in place (light and dark are CSS alone) and waits
    until the host and each app frame are in it with no colour still fading, so axe
    reads the final colours."""
    page.emulate_media(color_scheme=scheme)
    for fr in page.frames:
        if not fr.is_detached() and fr.url not in ("", "about:blank"):
            fr.wait_for_function(SETTLED, arg=scheme)


def axe_findings(page, screen, colours_only=False):
    """Serious and critical axe findings on the page and in each of its frames, as lines
    (colours_only: by the rules that read colours)."""
    found = []
    for fr in page.frames:
        if fr.is_detached() or fr.url in ("", "about:blank"):
            continue
        if not fr.evaluate("() => typeof axe !== 'undefined'"):
            fr.evaluate(AXE_SOURCE)
        where = "host" if fr == page.main_frame else fr.url.split("/apps/")[-1]
        # a live bubble (presentation style "transcript") is part of the transcript, not a page of its own
        bubble = fr != page.main_frame and fr.frame_element().get_attribute("data-style") == "transcript"
        if bubble:
            where += " (bubble)"
        for v in fr.evaluate(RUN, COLOUR_RULES if colours_only else None):
            if v["impact"] not in BLOCKING and not (v["id"] in ALSO and where != "host" and not bubble):
                continue
            for n in v["nodes"]:
                found.append(f"{screen} [{where}] {v['impact']} {v['id']}: {n['target']} — {n['summary'].splitlines()[-1].strip()}")
    return found
