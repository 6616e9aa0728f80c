"""The realtime hub across processes (issue 14): two `cairn serve` on one PostgreSQL database — an event
published on one reaches a client of the other, numbers agree so a client resumes on either, and SIGTERM
closes sockets with a close frame. Then the web client (Web/js/platform/realtime.js) in Chromium: live events,
the connection indicator while the server is down, and resuming after it comes back."""

import signal

from conftest import by_text, wait
from realtime_client import RealtimeClient
from selenium.webdriver.common.by import By

ECHO = {"CAIRN_REALTIME_ECHO": "on"}


def test_an_event_published_on_one_instance_reaches_a_client_of_the_other(start_instances):
    a, b = start_instances(2, env=ECHO)
    on_a, on_b = RealtimeClient(a), RealtimeClient(b)
    on_a.subscribe("realtime.echo.room")
    on_b.subscribe("realtime.echo.room")

    on_a.publish("realtime.echo.room", {"said": "hello from A"})
    on_b.publish("realtime.echo.room", {"said": "hello from B"})
    seen_on_b = [on_b.next_of("event"), on_b.next_of("event")]
    seen_on_a = [on_a.next_of("event"), on_a.next_of("event")]

    assert [e["seq"] for e in seen_on_b] == [1, 2]
    assert [e["payload"] for e in seen_on_b] == [e["payload"] for e in seen_on_a]
    assert {e["payload"]["said"] for e in seen_on_b} == {"hello from A", "hello from B"}


def test_a_client_resumes_on_the_other_instance_with_the_same_numbers(start_instances):
    a, b = start_instances(2, env=ECHO)
    publisher = RealtimeClient(a)
    reader = RealtimeClient(a)
    reader.subscribe("realtime.echo.chat")
    publisher.publish("realtime.echo.chat", {"n": 1})
    last = reader.next_of("event")["seq"]
    reader.close()

    for n in (2, 3, 4):
        publisher.publish("realtime.echo.chat", {"n": n})
    # The publisher follows too, so that the three are known to be stored before the reader comes back.
    publisher.subscribe("realtime.echo.chat", after=last)
    assert [publisher.next_of("event")["payload"]["n"] for _ in range(3)] == [2, 3, 4]
    back = RealtimeClient(b)
    subscribed = back.subscribe("realtime.echo.chat", after=last)
    missed = [back.next_of("event") for _ in range(3)]

    assert subscribed["seq"] == last
    assert [e["payload"]["n"] for e in missed] == [2, 3, 4]
    assert [e["seq"] for e in missed] == [last + 1, last + 2, last + 3]


def test_sigterm_closes_live_sockets_with_a_close_frame_and_the_other_instance_carries_on(start_instances):
    a, b = start_instances(2, env=ECHO)
    on_a, on_b = RealtimeClient(a), RealtimeClient(b)
    on_a.subscribe("realtime.echo.room")
    on_b.subscribe("realtime.echo.room")

    b.process.send_signal(signal.SIGTERM)
    closed = on_b.next(timeout=20)
    b.process.wait(timeout=30)
    on_a.publish("realtime.echo.room", {"still": "here"})

    assert closed == {"type": "close", "code": 1001}
    assert b.process.returncode == 0
    assert on_a.next_of("event")["payload"] == {"still": "here"}


def page_subscribe(browser, topic):
    """Subscribes from the page through Web/js/platform/realtime.js; events land in window.realtimeSeen."""
    browser.execute_async_script("""
        const [topic, done] = arguments;
        import('/js/platform/realtime.js').then(({ subscribe }) => {
          window.realtimeSeen = [];
          window.realtimeResets = [];
          subscribe(topic, {
            onEvent: (payload, meta) => window.realtimeSeen.push({ seq: meta.seq, payload }),
            onReset: (reset) => window.realtimeResets.push(reset),
          });
          done();
        });""", topic)


def page_state(browser):
    return browser.execute_script(
        "return import('/js/platform/realtime.js').then((m) => m.realtimeState())")


def seen(browser):
    return browser.execute_script("return window.realtimeSeen")


def connection_status(browser):
    return browser.find_element(By.ID, "connection-status")


def test_the_web_client_follows_live_shows_the_server_unreachable_and_resumes_when_it_returns(start_server, browser):
    server = start_server(env=ECHO, streets=False)
    browser.get(server.url)
    by_text(browser, "h1", "Home")
    # The page runs behind Cairn's service worker, as an installed app does.
    wait(browser, 20).until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    page_subscribe(browser, "realtime.echo.page")
    wait(browser).until(lambda d: page_state(d)["topics"].get("realtime.echo.page") == 0)
    publisher = RealtimeClient(server)

    publisher.publish("realtime.echo.page", {"n": 1})
    wait(browser).until(lambda d: seen(d) == [{"seq": 1, "payload": {"n": 1}}])

    port, data_dir = server.port, server.data_dir
    publisher.close()
    server.stop()
    wait(browser, 20).until(lambda d: "Cannot reach the Cairn server" in connection_status(d).text)

    restarted = start_server(env=ECHO, streets=False, port=port, data_dir=data_dir)
    publisher = RealtimeClient(restarted)
    publisher.publish("realtime.echo.page", {"n": 2})
    wait(browser, 40).until(lambda d: len(seen(d)) == 2)
    wait(browser).until(lambda d: not connection_status(d).is_displayed())
    publisher.publish("realtime.echo.page", {"n": 3})
    wait(browser).until(lambda d: len(seen(d)) == 3)

    assert seen(browser) == [{"seq": n, "payload": {"n": n}} for n in (1, 2, 3)]
    assert browser.execute_script("return window.realtimeResets") == []
