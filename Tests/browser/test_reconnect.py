"""Reconnects: the page resumes from the last sequence it saw, shows that it is
offline, keeps what was typed, and sends what waited, exactly once."""

import time

from playwright.sync_api import expect

from conftest import create_conversation, route_socket, send_text, shot

RECONNECT = 30_000  # the backoff tops out at 15 s


def texts(page):
    return page.locator(".row[data-seq] .text-bubble")


def test_offline_then_back_resumes_and_sends_what_waited(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Road trip")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ana, "Leaving at 8")
    expect(texts(ben)).to_have_text(["Leaving at 8"])

    ana.context.set_offline(True)
    expect(ana.locator("#offline-banner")).to_be_visible()
    expect(ben.locator("#chat-presence")).not_to_contain_text("Ana online")

    send_text(ben, "Can we make it 9?")
    send_text(ben, "I need coffee first")
    expect(texts(ben)).to_have_count(3)
    send_text(ana, "Typed while offline")
    expect(ana.locator(".row.pending", has_text="Typed while offline")).to_contain_text("Sending…")
    ana.fill("#composer-input", "a draft nobody sent yet")
    shot(ana, "desktop-light-offline")

    ana.context.set_offline(False)
    expect(ana.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    want = ["Leaving at 8", "Can we make it 9?", "I need coffee first", "Typed while offline"]
    expect(texts(ana)).to_have_text(want)
    expect(texts(ben)).to_have_text(want)
    expect(ana.locator(".row.pending")).to_have_count(0)
    expect(ana.locator("#composer-input")).to_have_value("a draft nobody sent yet")


def test_server_killed_and_restarted_loses_nothing(people):
    server = people.server
    ana = people.join("Ana")
    link = create_conversation(ana, "Durable")
    ben = people.join("Ben", link.replace(server.base, ""), viewport=(390, 844), mobile=True)
    send_text(ana, "before the crash")
    expect(texts(ben)).to_have_text(["before the crash"])

    server.kill()
    expect(ana.locator("#offline-banner")).to_be_visible()
    expect(ben.locator("#offline-banner")).to_be_visible()
    send_text(ana, "during the outage")
    expect(ana.locator(".row.pending", has_text="during the outage")).to_be_visible()
    shot(ben, "phone-light-offline")

    server.start()  # same port, same data directory
    expect(ana.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    expect(ben.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    want = ["before the crash", "during the outage"]
    expect(texts(ben)).to_have_text(want, timeout=RECONNECT)
    expect(texts(ana)).to_have_text(want)
    send_text(ben, "welcome back")
    expect(texts(ana)).to_have_text(want + ["welcome back"])


def seed_long_conversation(base, count):
    """A bot fills a conversation over the protocol; returns its invite link."""
    import json

    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws", subprotocols=["parlor.v1"]) as ws:
        counter = 0

        def req(**frame):
            nonlocal counter
            counter += 1
            frame["id"] = str(counter)
            ws.send(json.dumps(frame))
            while True:
                answer = json.loads(ws.recv(timeout=10))
                if answer.get("re") == str(counter):
                    assert answer["type"] == "result", answer
                    return answer["result"]

        req(type="register", name="Archivist")
        created = req(type="conversations.create", title="Archive")
        for i in range(count):
            req(type="send", conversationId=created["conversation"]["id"], clientId=f"k{i}",
                message={"kind": "text", "text": f"note {i}"})
        return f"{base}/#/join/{created['invite']}"


def test_a_long_history_resyncs_and_pages_backwards(people):
    link = seed_long_conversation(people.server.base, 520)  # more than a resume replays
    ana = people.join("Ana", link.replace(people.server.base, ""))
    expect(ana.locator("#chat-title")).to_have_text("Archive")
    bubbles = ana.locator(".row[data-seq] .text-bubble")
    expect(bubbles.last).to_have_text("note 519")
    expect(bubbles).to_have_count(50)
    ana.get_by_role("button", name="Show earlier messages").click()
    expect(bubbles).to_have_count(100)
    expect(bubbles.first).to_have_text("note 420")
    seqs = ana.locator(".row[data-seq]").evaluate_all("rows => rows.map(r => Number(r.dataset.seq))")
    assert seqs == list(range(421, 521)), "in order, no gap, no duplicate"


def test_a_send_answered_internal_is_retried_with_the_same_client_id(people):
    """The server answers a send `internal` twice: the page stays "Sending…" and
    tries again by itself, online, with the same clientId; the message is stored once."""
    import json
    import re

    ana = people.join("Ana")
    link = create_conversation(ana, "Flaky disk")
    ben = people.join("Ben", link.replace(people.server.base, ""))

    sends = []  # clientIds of the send frames, in order
    held = []   # (server side, frame) of the third send, kept back until the test lets it go

    def from_page(frame, message, ws, server):
        if frame.get("type") != "send":
            return False
        sends.append(frame["clientId"])
        if len(sends) <= 2:
            ws.send(json.dumps({"type": "error", "re": frame["id"], "code": "internal", "message": "disk trouble"}))
        elif len(sends) == 3:
            held.append((server, message))
        else:
            return False
        return True

    route_socket(ana, from_page)
    expect(ana.locator("#chat-title")).to_have_text("Flaky disk")
    expect(ana.locator("html")).to_have_attribute("data-connection", "online")

    send_text(ana, "stored once")
    deadline = time.monotonic() + 10  # two refusals and two backoffs of at most 1 s and 2 s
    while not held:
        assert time.monotonic() < deadline, f"not retried: {sends}"
        ana.wait_for_timeout(50)
    row = ana.locator(".row.pending", has_text="stored once")
    expect(row).to_contain_text("Sending…")
    expect(ana.locator(".row.pending.failed")).to_have_count(0)

    server, message = held[0]
    server.send(message)
    expect(texts(ana)).to_have_text(["stored once"])
    expect(texts(ben)).to_have_text(["stored once"])
    expect(ana.locator(".row.pending")).to_have_count(0)
    assert len(sends) == 3 and len(set(sends)) == 1, sends
    # a version 7 UUID, time first: a sender's ids sort by when they were made (PROTOCOL.md)
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", sends[0]), sends


def test_a_send_turned_away_by_a_busy_server_is_sent_again_after_the_time_given(people):
    """The server, past its capacity, answers a send `server_busy` with retryAfterMs: the
    page says the server is busy, keeps the message as "Sending…" (not failed), and sends
    it again after that time with the same clientId; it is stored once. The answer comes
    from a Playwright WebSocket route standing in for a busy server. The answer to the
    page's subscription is held until then: the page flushes its outbox once subscribed,
    and that flush must leave the held send to its time (a CI failure: it went 70 ms later)."""
    import json

    ana = people.join("Ana")
    link = create_conversation(ana, "Rush hour")
    ben = people.join("Ben", link.replace(people.server.base, ""))

    sends = []  # (clientId, when the route saw it)
    subscribes = set()  # ids of the page's subscribe requests
    held = []  # the server's answers to them, until the busy answer is given

    def from_page(frame, message, ws, server):
        if frame.get("type") == "subscribe":
            subscribes.add(frame["id"])
        if frame.get("type") != "send":
            return False
        sends.append((frame["clientId"], time.monotonic()))
        if len(sends) > 1:
            return False
        ws.send(json.dumps({"type": "error", "re": frame["id"], "code": "server_busy",
                            "message": "the server is busy; try again in 2 s", "retryAfterMs": 1500}))
        for answer in held:
            ws.send(answer)
        return True

    def from_server(message, ws):
        if sends or json.loads(message).get("re") not in subscribes:
            return False
        held.append(message)
        return True

    route_socket(ana, from_page, from_server)
    expect(ana.locator("html")).to_have_attribute("data-connection", "online")
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the page did not subscribe"
        ana.wait_for_timeout(50)

    send_text(ana, "when you can")
    expect(ana.locator("#toast")).to_contain_text(
        "The server is busy — trying again in 2 s. Your message will be sent then.")
    expect(ana.locator(".row.pending", has_text="when you can")).to_contain_text("Sending…")
    expect(ana.locator(".row.pending.failed")).to_have_count(0)
    shot(ana, "server-busy-light")
    expect(texts(ben)).to_have_text(["when you can"], timeout=10_000)
    expect(texts(ana)).to_have_text(["when you can"])
    expect(ana.locator(".row.pending")).to_have_count(0)
    assert len(sends) == 2 and sends[0][0] == sends[1][0], sends
    assert sends[1][1] - sends[0][1] >= 1.5, "not before the time the server gave"


def test_a_server_that_closes_with_service_restart_is_shown_restarting_and_rejoined(people):
    """A server shutting down on purpose closes with 1012 (or 1001): the page says the
    server is restarting, reconnects soon by itself, and carries on. The closes come
    from a Playwright WebSocket route standing in for the server."""
    import re

    ana = people.join("Ana")
    link = create_conversation(ana, "Deploy day")
    ben = people.join("Ben", link.replace(people.server.base, ""))

    up = [True]
    sockets = []  # every connection of Ana's page: (route, connected to the server)

    def route(ws):
        if up[0]:
            ws.connect_to_server()
        sockets.append((ws, up[0]))  # while down: open, but nobody answers

    ana.context.route_web_socket(re.compile(r"/ws$"), route)
    ana.reload()
    expect(ana.locator("html")).to_have_attribute("data-connection", "online")
    assert len(sockets) == 1
    send_text(ana, "deploying now")
    expect(texts(ben)).to_have_text(["deploying now"])

    # the server restarts: it closes with 1012 and is not back at once
    up[0] = False
    sockets[0][0].close(code=1012, reason="restart")
    banner = ana.locator("#offline-banner")
    expect(banner).to_have_text("Server restarting — reconnecting…")
    expect(ana.locator("html")).to_have_attribute("data-connection", "connecting")  # tried again soon
    deadline = time.monotonic() + 10
    while len(sockets) < 2:  # the route sees the new socket a moment after the page made it
        assert time.monotonic() < deadline, "no reconnect reached the route"
        ana.wait_for_timeout(20)
    assert len(sockets) == 2 and not sockets[1][1]
    expect(banner).to_have_text("Server restarting — reconnecting…")
    shot(ana, "desktop-light-server-restarting")

    # it is back (this one goes away with 1001): the page signs in again and carries on
    up[0] = True
    sockets[1][0].close(code=1001, reason="going away")
    expect(banner).to_be_hidden(timeout=5_000)  # a restart is retried within 250 ms, then 500 ms, ...
    send_text(ben, "welcome back")
    expect(texts(ana)).to_have_text(["deploying now", "welcome back"])
    send_text(ana, "all good")
    expect(texts(ben)).to_have_text(["deploying now", "welcome back", "all good"])


def test_a_server_stopped_with_sigterm_says_restarting_and_the_page_recovers(people):
    """SIGTERM: the server closes every WebSocket with 1001 instead of dropping TCP, so
    the page says the server is restarting (not just offline) and comes back by itself."""
    server = people.server
    ana = people.join("Ana")
    link = create_conversation(ana, "Maintenance")
    ben = people.join("Ben", link.replace(server.base, ""))
    send_text(ana, "before the restart")
    expect(texts(ben)).to_have_text(["before the restart"])

    server.stop()  # SIGTERM, waited for
    for page in (ana, ben):
        expect(page.locator("#offline-banner")).to_have_text("Server restarting — reconnecting…")
    send_text(ana, "during the restart")
    expect(ana.locator(".row.pending", has_text="during the restart")).to_contain_text("Sending…")

    server.start()  # same port, same data directory
    for page in (ana, ben):
        expect(page.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    want = ["before the restart", "during the restart"]
    expect(texts(ben)).to_have_text(want)
    expect(texts(ana)).to_have_text(want)
    expect(ana.locator(".row.pending")).to_have_count(0)
