"""A person who is elsewhere learns of new messages: the tab's title counts them and,
when they chose it, a notification tells of each conversation's newest, and is
closed once it is read."""

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from conftest import ProtocolPerson, create_conversation, open_conversation, send_text, shot

# Notifications: the headless shell always says "denied" (conftest.py).
pytestmark = pytest.mark.full_chromium

# The page is told it is hidden and has lost the focus, as a browser tells a tab left
# in the background: headless Chromium keeps every page visible and focused.
# Or, `covered`, only that its window lost the focus, still "visible": a window covered by
# others on Linux, or one on a second screen while the person works in another.
AWAY = """
(() => {
  let away = false, covered = false;
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get() { return away ? "hidden" : "visible"; } });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return away; } });
  const hasFocus = Document.prototype.hasFocus;
  Document.prototype.hasFocus = function () { return !away && !covered && hasFocus.call(this); };
  window.__away = (value) => {
    away = value;
    document.dispatchEvent(new Event("visibilitychange"));
    window.dispatchEvent(new Event(value ? "blur" : "focus"));
  };
  window.__covered = (value) => {
    covered = value;
    window.dispatchEvent(new Event(value ? "blur" : "focus"));
  };
  // each notification the page asked for, and how the browser answered (a failure's message);
  // once, though a test adds this script to the page and to its context both
  if (window.__noticeCalls) return;
  const calls = window.__noticeCalls = [];
  // The test's reads of what is shown wait for the calls of every tab, as the page's own
  // do (views/notices.js; a lock of another name, taken inside the page's): Chromium drops
  // a notification being shown from a list asked for meanwhile, and the test polls.
  const proto = ServiceWorkerRegistration.prototype;
  const showNotification = proto.showNotification, getNotifications = proto.getNotifications;
  const inTurn = (call) => navigator.locks.request("test.notification.calls", () => call());
  proto.showNotification = function (title, options) {
    const call = { title, body: options?.body, at: Math.round(performance.now()), active: this.active?.state ?? null, outcome: "pending" };
    calls.push(call);
    return inTurn(() => showNotification.call(this, title, options)).then(
      (v) => { call.outcome = "shown"; return v; },
      (e) => { call.outcome = `refused: ${e}`; throw e; });
  };
  proto.getNotifications = function (filter) {
    return inTurn(() => getNotifications.call(this, filter));
  };
})();
"""

# What the page asked for and holds, for a failure's message: its showNotification calls
# (AWAY records them), the worker's state, the permission, the locks held and awaited.
ASKED = """
async () => {
  const r = await navigator.serviceWorker.getRegistration("/js/notices-worker.js");
  const locks = navigator.locks ? await navigator.locks.query() : {};
  return {
    calls: window.__noticeCalls ?? "not recorded", at: Math.round(performance.now()),
    worker: r ? { active: r.active?.state ?? null, installing: r.installing?.state ?? null, waiting: r.waiting?.state ?? null } : null,
    permission: Notification.permission, chosen: Object.keys(localStorage).filter((k) => k.startsWith("parlor.notify.")), visibility: document.visibilityState, title: document.title,
    held: (locks.held ?? []).map((l) => l.name), awaited: (locks.pending ?? []).map((l) => l.name),
  };
}
"""

# What the browser shows: the notifications of the site, as its service worker holds them.
SHOWN = """
async () => {
  const r = await navigator.serviceWorker.getRegistration("/js/notices-worker.js");
  const list = r ? await r.getNotifications() : [];
  return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
}
"""


def away(page, value=True):
    page.evaluate(f"window.__away({'true' if value else 'false'})")


def shown(page):
    return page.evaluate(SHOWN)


def shown_when(page, wanted, what, seconds=10):
    """What the browser shows, once `wanted` holds of it (waited for, bounded): the
    page shows a notification after a round trip to its service worker."""
    deadline = time.monotonic() + seconds
    while True:
        now = shown(page)
        if wanted(now):
            return now
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} within {seconds} s: the browser shows {now}; the page: {page.evaluate(ASKED)}")
        time.sleep(0.05)


def ana_who_can_look_away(people, notifications=True):
    """Ana's page, which the test can send to the background (`away`); the browser
    allows it notifications unless told not to (then it answers "denied")."""
    ana = people.join("Ana")
    if notifications:
        ana.context.grant_permissions(["notifications"])
    ana.add_init_script(AWAY)
    ana.reload()
    ana.locator(".me .name", has_text="Ana").wait_for(state="attached")
    return ana


def ben_joins(people, ana, title):
    link = create_conversation(ana, title)
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text(title)
    return ben


def turn_on_notifications(page, expected_note):
    """Turns them on and waits until the page says they are on. The note before the
    choice also says "also in the background", and the click alone checks the box (the
    browser may still be asking): a test that went on then waited in vain for what
    nothing would show."""
    page.get_by_role("button", name="Account", exact=True).click()
    box = page.get_by_label("Tell me of new messages while Parlor is in the background")
    note = page.locator("#notify-note")
    try:
        box.check()
        expect(note).not_to_contain_text("asks first", timeout=5_000)
        expect(box).to_be_checked(timeout=1)
    except (PlaywrightError, AssertionError) as e:
        raise AssertionError(f"{str(e).splitlines()[0]}; the note says {note.text_content()!r}; "
                             f"the page: {page.evaluate(ASKED)}") from e
    expect(note).to_contain_text(expected_note)
    page.get_by_role("button", name="Done").click()


def test_the_title_counts_unread_and_a_notification_tells_of_new_messages(people):
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Friday games")
    turn_on_notifications(ana, "also in the background")
    expect(ana).to_have_title("Friday games · Parlor")

    # Ana looks elsewhere; Ben writes twice
    away(ana)
    send_text(ben, "Your move!")
    expect(ana).to_have_title("(1) Friday games · Parlor")
    assert shown_when(ana, lambda n: n, "a notification") == [
        {"title": "Friday games", "body": "Ben: Your move!", "tag": f"parlor:{conversation_id(ana)}"}]
    send_text(ben, '<b>now</b> please')
    expect(ana).to_have_title("(2) Friday games · Parlor")
    # one notification for the conversation, saying its newest, text as text
    now = shown_when(ana, lambda n: n and n[0]["body"] != "Ben: Your move!", "the next message's notification")
    assert now == [{"title": "Friday games: 2 new messages", "body": "Ben: <b>now</b> please", "tag": f"parlor:{conversation_id(ana)}"}]

    # back: read, the title is plain again and the notification goes
    away(ana, False)
    expect(ana).to_have_title("Friday games · Parlor")
    shown_when(ana, lambda n: n == [], "the notification closed once read")
    shot(ana, "attention-read")


def test_a_window_covered_by_others_is_not_looked_at(people):
    """A covered window stays "visible" (Linux; a second screen): what arrived there was
    counted read at once, so the title never counted it and nothing rang."""
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Team")
    turn_on_notifications(ana, "also in the background")
    ana.evaluate("window.__covered(true)")
    send_text(ben, "Lunch at noon?")
    expect(ana).to_have_title("(1) Team · Parlor")
    assert [n["body"] for n in shown_when(ana, lambda n: n, "a notification")] == ["Ben: Lunch at noon?"]
    # her window in front again: read, here and in what the browser shows
    ana.evaluate("window.__covered(false)")
    expect(ana).to_have_title("Team · Parlor")
    shown_when(ana, lambda n: n == [], "the notification closed once read")


def test_her_own_messages_and_a_page_she_looks_at_tell_her_nothing(people):
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Book club")
    turn_on_notifications(ana, "also in the background")

    # looking at the page: the list shows it, nothing pops up
    create_conversation(ana, "Family")
    send_text(ben, "Chapter 3 tonight?")
    expect(ana.locator(".conv-item", has_text="Book club").locator(".badge")).to_have_text("1")
    expect(ana).to_have_title("(1) Family · Parlor")
    # away: her own message (sent here, as from another device) tells her nothing
    away(ana)
    send_text(ana, "Hello family")
    send_text(ben, "Bring snacks")
    assert [n["body"] for n in shown_when(ana, lambda n: n, "a notification")] == ["Ben: Bring snacks"]

    # a click on it (what the worker does then: headless Chromium shows no notification
    # to click) opens that conversation in her page
    book_club = shown(ana)[0]["tag"].removeprefix("parlor:")
    expect(ana.locator("#chat-title")).to_have_text("Family")
    [worker] = [w for w in ana.context.service_workers if w.url.endswith("/js/notices-worker.js")]
    worker.evaluate("(id) => openConversation(id)", book_club)
    expect(ana.locator("#chat-title")).to_have_text("Book club")


def test_without_the_browsers_permission_nothing_is_shown_and_the_dialog_says_why(people):
    ana = ana_who_can_look_away(people, notifications=False)
    ben = ben_joins(people, ana, "Quiet")

    # headless Chromium answers the request "denied", as a person's No does
    ana.get_by_role("button", name="Account", exact=True).click()
    box = ana.get_by_label("Tell me of new messages while Parlor is in the background")
    box.click()
    expect(ana.locator("#notify-note")).to_contain_text("This browser blocks notifications from this site")
    expect(box).not_to_be_checked()
    shot(ana, "account-notifications-blocked")
    ana.get_by_role("button", name="Done").click()

    away(ana)
    send_text(ben, "Anyone?")
    expect(ana).to_have_title("(1) Quiet · Parlor")
    time.sleep(0.5)  # what would have been shown by now (a round trip to the worker, 10-50 ms)
    assert shown(ana) == []


def conversation_id(page):
    return page.evaluate("decodeURIComponent(location.hash.split('/')[2])")


def test_a_muted_conversation_tells_nothing_and_counts_only_a_mention(people):
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Loud group")
    quiet = create_conversation(ana, "Quiet one")
    ben.goto(quiet)
    ben.get_by_role("button", name="Join").click()
    expect(ben.locator("#chat-title")).to_have_text("Quiet one")
    turn_on_notifications(ana, "also in the background")

    open_conversation(ana, "Loud group")
    ana.get_by_role("button", name="Members and settings of this conversation").click()
    ana.get_by_role("radio", name="None").check()  # kept by the server: every device of hers
    ana.get_by_role("button", name="Done").click()
    open_conversation(ana, "Quiet one")

    away(ana)
    open_conversation(ben, "Loud group")
    send_text(ben, "spam spam")
    open_conversation(ben, "Quiet one")
    send_text(ben, "a real question")
    # the muted one's message is listed, its count grey, and not in the title's
    loud = ana.locator(".conv-item", has_text="Loud group")
    count = loud.locator(".badge:not(.mention-badge)")
    expect(count).to_have_text("1")
    expect(ana).to_have_title("(1) Quiet one · Parlor")
    accent = ana.locator(".conv-item", has_text="Quiet one").locator(".badge").evaluate("e => getComputedStyle(e).backgroundColor")
    assert count.evaluate("e => getComputedStyle(e).backgroundColor") != accent
    assert [n["body"] for n in shown_when(ana, lambda n: n, "a notification")] == ["Ben: a real question"]
    time.sleep(0.5)  # had the muted one been shown, it would be by now
    assert [n["title"] for n in shown(ana)] == ["Quiet one"]

    # a mention of her there asks for her: "@", and counted
    open_conversation(ben, "Loud group")
    send_text(ben, "@Ana are you in?")
    expect(ana).to_have_title("(2) Quiet one · Parlor")
    expect(loud.locator(".mention-badge")).to_be_visible()
    expect(count).to_have_text("2")
    shot(ana, "attention-muted-mention")


def test_a_deleted_message_leaves_its_notification_and_text_cannot_pose_as_another(people):
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Club")
    turn_on_notifications(ana, "also in the background")
    away(ana)
    send_text(ben, "hi Ana")
    send_text(ben, "my address is 12 Secret Lane")
    shown_when(ana, lambda n: n and n[0]["body"] == "Ben: my address is 12 Secret Lane", "the second message told")
    row = ben.locator("#transcript .row[data-kind=text]", has_text="Secret Lane")
    row.hover()
    row.get_by_role("button", name="Delete message").click()
    ben.locator("#confirm").get_by_role("button", name="Delete").click()
    # the text leaves the screen: the one before it is told instead
    assert shown_when(ana, lambda n: n and "Secret" not in n[0]["body"], "the deleted text gone") == [
        {"title": "Club", "body": "Ben: hi Ana", "tag": f"parlor:{conversation_id(ana)}"}]

    # a right-to-left override made "Ben: …" read as a line of Ana's
    send_text(ben, "\u202eyap ot eerga I :anA")
    assert shown_when(ana, lambda n: n and n[0]["body"] != "Ben: hi Ana", "the next one told")[0]["body"] == "Ben: yap ot eerga I :anA"


# Keeps what the tabs say to each other of who is in front (AWAY counts the
# notifications each tab asks for: whichever tab asks, the browser shows each).
IN_FRONT = """
(() => {
  window.__inFront = {};
  new BroadcastChannel("parlor.attention").onmessage = (e) => { window.__inFront[e.data.tab] = e.data.attended; };
})();
"""

SHOWS = "window.__noticeCalls.length"


# What each tab did and heard, for a failure to say (it failed once in some hundreds of
# runs, under valgrind's load, and its cause was not found by reading): the tab that won
# the notices' lock, what the page's own attention channel said and heard (not the
# test's channel: two channels of one page may hear a message at different times), the
# title's changes (a message's arrival) and each notification asked for.
TAB_LOG = """
(() => {
  const log = (window.__log = []);
  // one clock for both tabs (each page's performance.now() starts at its own load)
  const note = (s) => { if (log.length < 300) log.push(`${((performance.timeOrigin + performance.now()) % 1e5 / 1e3).toFixed(3)}s ${s}`); };
  const request = LockManager.prototype.request;
  LockManager.prototype.request = function (name, ...rest) {
    const granted = rest.at(-1);
    if (name === "parlor.notices" && typeof granted === "function") {
      rest[rest.length - 1] = (lock) => { note("holds the notices' lock"); return granted(lock); };
    }
    return request.call(this, name, ...rest);
  };
  const listen = BroadcastChannel.prototype.addEventListener;
  BroadcastChannel.prototype.addEventListener = function (type, f, ...r) {
    if (type === "message" && this.name === "parlor.attention" && typeof f === "function") {
      const heard = f;
      f = function (e) { note(`heard ${JSON.stringify(e.data)}`); return heard.call(this, e); };
    }
    return listen.call(this, type, f, ...r);
  };
  const post = BroadcastChannel.prototype.postMessage;
  BroadcastChannel.prototype.postMessage = function (m) {
    if (this.name === "parlor.attention") note(`said ${JSON.stringify(m)}`);
    return post.call(this, m);
  };
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, o) {
    note(`shows ${title}: ${o?.body}`);
    return show.call(this, title, o);
  };
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => note(`title ${document.title}`)).observe(document.querySelector("title"), { childList: true });
  });
  document.addEventListener("visibilitychange", () => note(`visibility ${document.visibilityState}`));
})();
"""


def tab_logs(**tabs):
    return "\n".join(f"{name}'s tab:\n  " + "\n  ".join(page.evaluate("window.__log || []")) for name, page in tabs.items())


def test_two_tabs_of_one_browser_ring_once_and_not_while_one_is_in_front(people):
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Room")
    turn_on_notifications(ana, "also in the background")
    ana.context.add_init_script(AWAY)
    ana.context.add_init_script(IN_FRONT)
    ana.context.add_init_script(TAB_LOG)
    ana.reload()
    ana.locator(".me .name", has_text="Ana").wait_for(state="attached")
    front = ana.context.new_page()
    front.goto(ana.url)
    expect(front.locator("#chat-title")).to_have_text("Room")

    # one tab in the back, one in front showing the conversation: nothing rings
    away(ana)
    send_text(ben, "hello while you read")
    expect(front.locator(".row:not(.mine) .text-bubble").last).to_have_text("hello while you read")
    time.sleep(1.5)  # past the read mark's way to the server and back (0.7 s and a round trip)
    assert ana.evaluate(SHOWS) + front.evaluate(SHOWS) == 0

    # both in the back: one of them rings, once a message
    away(front)
    # the back tab has heard that the front one left before Ben writes (a message that
    # comes as the front tab leaves is the front tab's: seen there, not rung for)
    ana.wait_for_function("Object.values(window.__inFront).every((v) => !v)")
    send_text(ben, "now?")
    try:
        shown_when(ana, lambda n: n and n[0]["body"] == "Ben: now?", "a notification")
    except AssertionError as e:
        raise AssertionError(f"{e}\n{tab_logs(ana=ana, front=front)}") from None
    time.sleep(0.5)
    shows = ana.evaluate(SHOWS) + front.evaluate(SHOWS)
    assert shows == 1, f"{shows} notifications asked for\n{tab_logs(ana=ana, front=front)}"


def test_a_reader_far_up_a_long_conversation_is_told_of_what_is_held_back(people):
    """Far up in a long conversation, the newest messages are held back from the page
    (Sync's HOLD), not in its transcript: the title counted none of them, and nothing was
    told when the person looked away."""
    ben = ProtocolPerson(people.server, "Ben")
    try:
        made = ben.call("conversations.create", title="Long")
        cid = made["conversation"]["id"]
        for n in range(300):
            ben.send_text(cid, f"line {n}")
        ana = people.join("Ana", f"/#/join/{made['invite']}")
        ana.context.grant_permissions(["notifications"])
        ana.add_init_script(AWAY)
        ana.reload()
        expect(ana.locator(".row[data-seq]", has_text="line 299")).to_have_count(1)
        turn_on_notifications(ana, "also in the background")
        more = ana.get_by_role("button", name="Show earlier messages")
        while more.is_visible():
            more.click()
            ana.wait_for_timeout(300)
        ana.locator("#transcript").evaluate("t => { t.scrollTop = 0; }")
        for n in range(5):
            ben.send_text(cid, f"while reading {n}")
        expect(ana.locator(".new-pill")).to_have_text("5 new messages ↓")
        expect(ana.locator(".row[data-seq]", has_text="while reading 4")).to_have_count(0)  # held back

        away(ana)
        ben.send_text(cid, "Your move, Ana!")
        expect(ana).to_have_title("(6) Long · Parlor")
        assert shown_when(ana, lambda n: n, "a notification") == [
            {"title": "Long: 6 new messages", "body": "Ben: Your move, Ana!", "tag": f"parlor:{cid}"}]

        # "Mentions only" there: the title counts what mentions her, held back too, and
        # the list marks it "@" (neither counted a mention held back)
        ana.get_by_role("button", name="Members and settings of this conversation").click()
        ana.get_by_role("group", name="Notifications").get_by_role("radio", name="Mentions only").check()
        ana.get_by_role("button", name="Done").click()
        expect(ana).to_have_title("Long · Parlor")
        ana_id = next(m["userId"] for c in ben.call("conversations.list")["conversations"] if c["id"] == cid
                      for m in c["members"] if m["name"] == "Ana")
        ben.run(ben.client.send_message(cid, {"kind": "text", "text": "@Ana look", "mentions": [ana_id]}))
        expect(ana).to_have_title("(1) Long · Parlor")
        item = ana.locator(".conv-item", has_text="Long").locator("a")
        expect(item).to_have_accessible_name(re.compile(r"^Long, 7 unread, mentions you, mentions only: "))
        expect(ana.locator(".row[data-seq]", has_text="@Ana look")).to_have_count(0)  # still held back
    finally:
        ben.close()


def test_a_tab_that_went_without_saying_so_does_not_silence_the_others(people):
    """A tab tells the others it is in front, then goes without saying it left (its last
    word lost as its page was torn down: a reloaded tab's old page answering the new
    one). It counted as in front for good, and nothing rang again in that browser (seen
    on a loaded host: the title counted, no notification came)."""
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Picnic")
    turn_on_notifications(ana, "also in the background")
    ghost = ana.context.new_page()
    ghost.goto(people.server.base + "/health")  # any page of the site can speak on its channel
    ghost.evaluate("""() => new Promise((done) => {
        const c = new BroadcastChannel("parlor.attention");
        c.postMessage({ tab: "gone", attended: true });
        setTimeout(done, 100);
    })""")
    ghost.close()

    away(ana)
    send_text(ben, "Blanket or chairs?")
    expect(ana).to_have_title("(1) Picnic · Parlor")
    assert [n["body"] for n in shown_when(ana, lambda n: n, "a notification")] == ["Ben: Blanket or chairs?"]
