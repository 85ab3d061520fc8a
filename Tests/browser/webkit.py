"""A real WebKit for the browser tests: Debian's WebKitGTK (MiniBrowser) driven through
WebKitWebDriver by Selenium, on an Xvfb display of its own.

WebKit is the engine of Safari and of every browser on an iPhone, where most of
Parlor's players are. Chromium cannot stand in for it everywhere: session 41 found
that no app started at all in WebKit (its policy check let 'self' match nothing in a
sandboxed page) while every Chromium test passed.

Selenium has no init scripts and no console: a page's errors are caught by WATCH_ERRORS,
put in after the page has loaded, and what a test checks is what a person sees.
"""

import os
import subprocess
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

MINIBROWSER = os.environ.get("PARLOR_WEBKIT", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
DRIVER = "/usr/bin/WebKitWebDriver"
WAIT = 15.0

# Errors and policy violations in the page from now on (window.__errors).
WATCH_ERRORS = """if (!window.__errors) { window.__errors = [];
  addEventListener('error', (e) => __errors.push(`error: ${e.message} ${e.filename || ''}:${e.lineno || ''}`));
  addEventListener('unhandledrejection', (e) => __errors.push(`rejection: ${e.reason?.stack || e.reason}`));
  document.addEventListener('securitypolicyviolation', (e) => __errors.push(`policy: ${e.violatedDirective} ${e.blockedURI}`)); }"""


def wait_for(check, what, seconds=WAIT):
    """Polls `check` until it gives something true (an exception counts as not yet)."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
            last = repr(value)
        except Exception as e:  # noqa: BLE001 - not there yet: an element missing, a frame reloading
            last = f"{type(e).__name__}: {str(e)[:200]}"
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what} (last: {last})")


@pytest.fixture(scope="session")
def xvfb_display():
    """A virtual X display for this worker, stopped at the end. -displayfd picks a free
    display number and says which."""
    for tool in (MINIBROWSER, DRIVER, "/usr/bin/Xvfb"):
        if not Path(tool).exists():
            pytest.fail(f"{tool} is missing: `make deps` installs webkit2gtk-driver and xvfb")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        xvfb.kill()
        pytest.fail("Xvfb did not start")
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(timeout=10)


class WebKitPage:
    """One person's WebKit window: a driver session of its own (its own storage)."""

    def __init__(self, display, width, height):
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = webdriver.WebKitGTKService(executable_path=DRIVER, env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_window_size(width, height)

    def quit(self):
        self.driver.quit()

    # ---- the host page -------------------------------------------------------------------

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, selector, within=None):
        return (within or self.driver).find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def button(self, name, within=None):
        """The shown button named `name` (its text or its aria-label)."""
        found = (within or self.driver).find_elements(By.XPATH, f".//button[normalize-space()='{name}' or @aria-label='{name}']")
        return next(b for b in found if b.is_displayed())

    def click(self, name, within=None, what=None):
        """Clicks the button once it is shown and enabled (Send is disabled until
        something waits in the composer)."""
        wait_for(lambda: (b := self.button(name, within)).is_enabled() and b, what or f"the button {name!r}").click()

    def errors(self):
        return self.js("return window.__errors || []")

    def open(self, url):
        self.driver.get(url)
        self.js(WATCH_ERRORS)

    # ---- an app's frame ------------------------------------------------------------------

    def in_frame(self, selector, script, *args):
        """Runs `script` in the frame at `selector`, back in the host page after."""
        self.driver.switch_to.frame(self.find(selector))
        try:
            return self.driver.execute_script(script, *args)
        finally:
            self.driver.switch_to.default_content()

    def click_in_frame(self, selector, name):
        self.driver.switch_to.frame(self.find(selector))
        try:
            self.click(name, what=f"the app's button {name!r}")
        finally:
            self.driver.switch_to.default_content()

    def stroke(self, selector, target, points):
        """One stroke with the mouse on `target` in the frame at `selector`, through
        points given as fractions of its box."""
        self.driver.switch_to.frame(self.find(selector))
        try:
            paper = self.find(target)
            w, h = self.js("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", paper)
            (x, y), rest = points[0], points[1:]
            chain = ActionChains(self.driver).move_to_element_with_offset(paper, int((x - 0.5) * w), int((y - 0.5) * h)).click_and_hold()
            for nx, ny in rest:
                chain = chain.move_by_offset(int((nx - x) * w), int((ny - y) * h))
                x, y = nx, ny
            chain.release().perform()
        finally:
            self.driver.switch_to.default_content()


@pytest.fixture
def webkit(xvfb_display):
    """Opens WebKit windows (`webkit(width, height)`), all closed at the end."""
    opened = []

    def open_window(width=1200, height=800):
        page = WebKitPage(xvfb_display, width, height)
        opened.append(page)
        return page

    yield open_window
    for page in opened:
        page.quit()
