"""Live class pages always come back (issue 33): through ``kill -9`` restarts of the server, and
after two minutes cut off from the network.

One server and one class for the module: the board, the two tables' projectors and three students
as websocket pages (harness/comeback.py: each comes back as the pages' script makes it, asking
``/alive`` and loading itself again, a student then saying hello with its seat token), and a fourth
student, Ana, in Chromium: the real script. Through a kill -9 her page shows the banner, offers no
move and comes back to her seat and hand by itself. Then her page is cut off from the network for
two minutes, and meanwhile the server is killed and restarted ten times under the six websocket
pages (the suite's time is bounded: the two minutes and the ten restarts overlap); she is back
after the network returns. Tables of two without bots: nothing moves unless a student clicks, so
every seat's hand is the same after a restart.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright = pytest.importorskip("playwright.sync_api")

from harness.comeback import Browser, Class, Loop, Returning, seat_of  # noqa: E402
from harness.livewire import Server  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))
from a11y import assert_accessible  # noqa: E402
from test_panel import CHROMIUM, FLAGS  # noqa: E402
from spieltisch.ui.live.words import WORDS  # noqa: E402

pytestmark = pytest.mark.site

RESTARTS = 10
CUT_S = 120  # the two minutes
LOST_DE = WORDS["connection_lost"][0]
# when the page hears its connection is lost: the first frame of a message in Bokeh's receiver
# (its internals: the test says so when they change)
CUT_MESSAGE = """() => {
  window.Bokeh.documents[0].on_event("connection_lost", (_, ev) => {
    ev.connection.deref()._receiver.consume(JSON.stringify({msgid: "cut", msgtype: "PATCH-DOC"}));
    window.__cut_message = true;
  });
}"""


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    server = Server(tmp_path_factory.mktemp("reconnect")).start()
    loop = Loop()
    try:
        with playwright.sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            ana = Browser(chromium)
            cls = loop(Class(server, ["Ben", "Cem", "Dan"]).open())
            ana.join(server.base, cls.room)  # first: the first seat at table 1, whose turn it is
            loop(cls.join())
            loop(cls.start(students=4))
            ana.page.wait_for_selector(".sp-board .sb-hand", timeout=60_000)
            yield server, loop, cls, ana
            loop(cls.close())
            chromium.close()
    finally:
        loop.close()
        server.stop()


def browser_restart(server, loop, cls, ana, cut_message=False) -> list[str]:
    """One ``kill -9`` and restart with Ana's page in Chromium open: while the server is gone her page
    says so and offers nothing; then every page is back at its place. Returns the pages that are
    not (stuck)."""
    before = cls.places()
    hand = ana.hand()
    assert hand is not None  # Ana's turn: her hand and her moves
    offered = ana.offers()
    assert offered["enabled"] > 0 and not offered["inert"] and offered["banner"] == ""
    ana.mark()
    if cut_message:
        ana.page.evaluate(CUT_MESSAGE)
    server.kill()
    # cut off: the banner says so (an alert: a live region), and nothing can be clicked or typed
    ana.page.wait_for_selector(".lv-conn:not(:empty)", timeout=30_000)
    offered = ana.offers()
    assert offered == {"enabled": 0, "inert": True, "banner": LOST_DE, "role": "alert"}, offered
    assert ana.page.locator(".sp-move:enabled, .sp-board [data-act]:enabled").count() == 0
    if cut_message:
        assert ana.page.evaluate("() => window.__cut_message") is True
    server.start()
    back = loop.start(cls.come_back(120), 150)
    ana.reloaded(120_000)
    back.result(160)
    stuck = loop(cls.settle(before, 60), 90)
    if not ana.shows(hand):
        stuck.append(f"Ana ({ana.hand()} instead of {hand})")
    assert ana.offers()["banner"] == "" and not ana.offers()["inert"]
    return stuck


def test_after_a_kill_9_the_browser_page_says_it_is_cut_off_offers_no_move_and_comes_back_to_its_seat(lesson):
    """The first frame of a message cut off by the kill is left in Bokeh's receiver: the state in
    which its own reconnect hung for good on "First message was not an ACK" (issue 33); a page that
    loads itself again starts with a fresh receiver."""
    server, loop, cls, ana = lesson
    assert browser_restart(server, loop, cls, ana, cut_message=True) == []
    assert all(p.loads == 2 for p in cls.pages().values())


def test_ten_kill_9_restarts_under_six_pages_and_a_page_cut_off_for_two_minutes_all_come_back(lesson):
    """Ana's page is cut off from the network for two minutes; meanwhile the server is killed and
    restarted ten times under the six websocket pages, which come back to their places each time;
    then the network returns, and Ana's page comes back to her seat by itself."""
    server, loop, cls, ana = lesson
    assert len(cls.pages()) == 6
    hand = ana.hand()
    loads = {name: p.loads for name, p in cls.pages().items()}
    ana.mark()
    ana.context.set_offline(True)
    ana.cut = True
    cut_at = time.monotonic()
    # nothing closes: only the page's unanswered ping tells it (within 30 s)
    ana.page.wait_for_selector(".lv-conn:not(:empty)", timeout=45_000)
    print(f"cut off, and says so after {time.monotonic() - cut_at:.1f} s")
    offered = ana.offers()
    assert offered == {"enabled": 0, "inert": True, "banner": LOST_DE, "role": "alert"}, offered
    assert_accessible(ana.page, "a page cut off from the server")

    stuck, took = [], []
    for restart in range(RESTARTS):
        before = cls.places()
        assert all(before.values()) and len(set(before.values())) == len(before), before
        server.kill()
        server.start()
        took.append(max(loop(cls.come_back(120), 150).values()))
        stuck += [f"restart {restart}: {name}" for name in loop(cls.settle(before, 60), 90)]
    assert stuck == []
    assert {name: p.loads for name, p in cls.pages().items()} == {name: n + RESTARTS for name, n in loads.items()}
    print(f"seconds until every websocket page was back, per restart: {[round(t, 1) for t in took]}")
    # the place check can fail: a page that comes back without its seat token is at no place
    stranger = loop(Returning(server.base, "/join").open())
    assert seat_of(stranger.view) is None and None not in cls.places().values()
    loop(stranger.close())

    # (Playwright's wait, not a sleep: the route's handlers keep running)
    ana.page.wait_for_timeout(max(0, CUT_S - (time.monotonic() - cut_at)) * 1000)
    assert ana.offers()["banner"] == LOST_DE  # still trying, still cut off
    assert ana.page.evaluate("() => window.__before") is True  # it did not load itself while cut off
    print(f"the network returns after {time.monotonic() - cut_at:.1f} s")
    ana.cut = False
    ana.context.set_offline(False)
    ana.reloaded(60_000)  # back by itself: the pause between its tries is at most 5 s
    assert hand is not None and ana.shows(hand)
    assert ana.offers()["banner"] == "" and ana.offers()["enabled"] > 0
