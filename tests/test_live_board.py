"""The teacher's board for a class of thirty-one (issue 33) in real Chromium at 1280×800.

The students are lightweight websocket clients (tests/harness/livewire.py ``Page``: Bokeh's protocol
spoken directly), not thirty-one browsers; they stay connected on an event loop of their own while
Playwright drives the board. What is checked is what the issue named: the round's controls are in
view without scrolling (and stay in view when the board is scrolled), students who were offline at
the round's start and a student who joins after it get seats at the classmates' tables (a new table
only when every table is full), and "bot takes over" on the board hands a waiting student's seat to
a bot: the table goes on and the student's page says so. axe-core checks the full board.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright = pytest.importorskip("playwright.sync_api")

from harness.livewire import Page, Server  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))
from a11y import assert_accessible  # noqa: E402
from test_panel import CHROMIUM, FLAGS  # noqa: E402

pytestmark = pytest.mark.site

NAMES = ("Ana Ben Cem Dana Emil Fiona Gül Hanna Ivo Jana Kemal Lena Mika Nele Ole Pia Quirin Rosa Sami Tara "
         "Uwe Vera Wim Xenia Yusuf Zoe Aylin Bruno Clara Deniz Elif").split()
OFFLINE = 2  # joined, but not connected when the round starts
LATE = 2  # join after the round started
WIDTH, HEIGHT = 1280, 800


class Clients:
    """An event loop in a thread of its own: the students' pages live on it between the steps."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def __call__(self, coro, timeout: float = 180):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def gather(*coros):
    return await asyncio.gather(*coros)


async def join(base: str, room: str, name: str) -> Page:
    page = await Page(base, "/join").open()
    view = await page.act({"type": "join", "room": room, "name": name})
    assert view["page"] in ("lobby", "game") and view.get("token"), view
    page.token = view["token"]
    return page


async def hello(base: str, token: str) -> Page:
    page = await Page(base, "/join").open()
    await page.send({"type": "hello", "token": token})
    await page.wait(lambda v: v["page"] == "game")
    return page


def in_view(page, selector: str) -> bool:
    """The element is drawn inside the 1280×800 viewport as it is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT and box["x"] + box["width"] <= WIDTH


def test_the_board_for_thirty_one_keeps_the_controls_in_view_seats_everyone_and_hands_a_seat_to_a_bot(
        browser, tmp_path):
    server = Server(tmp_path).start()
    clients = Clients()
    try:
        teacher = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}).new_page()
        teacher.goto(server.teacher)
        teacher.wait_for_selector(".lv-room h2", timeout=60_000)
        room = teacher.locator(".lv-room h2").inner_text()
        early = NAMES[:len(NAMES) - LATE]
        # the two who will be offline join first and close their pages: the server notices a closed
        # page within its check of unused sessions (seconds), while the others join
        offline = early[-OFFLINE:]
        gone = clients(gather(*(join(server.base, room, n) for n in offline)))
        tokens = {p.view["name"]: p.token for p in gone}
        clients(gather(*(p.close() for p in gone)))
        pages = dict(zip(early, clients(gather(*(join(server.base, room, n) for n in early[:-OFFLINE])))))
        online = len(early) - OFFLINE
        teacher.wait_for_selector(f".lv-online-count:has-text('{online} von {len(early)}')", timeout=60_000)
        assert teacher.locator("tr[data-student]").count() == len(early)
        assert teacher.evaluate("() => document.scrollingElement.scrollTop") == 0
        assert in_view(teacher, ".lv-start")  # "Neue Runde" was at y = 2,219

        # --- a round of Skip-Bo Masters tables of three, planned for the class ---
        teacher.select_option("#lv-kind", "table")
        teacher.select_option("#lv-game", "skip-bo-masters")
        teacher.fill("#lv-players", "3")
        teacher.fill("#lv-humans", "3")
        teacher.click(".lv-start")
        teacher.wait_for_selector(".lv-tables tr[data-table]", timeout=60_000)
        clients(gather(*(p.wait(lambda v: v["page"] == "game") for p in pages.values())))
        tables = teacher.locator(".lv-tables tr[data-table]").count()
        assert tables == 10  # 27 connected of 29: 7 tables of 3, 3 of 2 (a bot's seat kept for each absent)
        assert teacher.evaluate("() => document.scrollingElement.scrollTop") == 0
        for control in (".lv-reveal", ".lv-next", ".lv-start"):
            assert in_view(teacher, control), control

        # --- the two who were offline come back, two more join late: bots' seats first ---
        back = clients(gather(*(hello(server.base, t) for t in tokens.values())))
        late = clients(gather(*(join(server.base, room, n) for n in NAMES[-LATE:])))
        for p in late:
            clients(p.wait(lambda v: v["page"] == "game"))
        seated = {p.view["name"]: int(p.view["title"].split()[-1]) for p in [*back, *late]}
        # three bots' seats at the classmates' tables, then (every table full) one new table
        assert sorted(seated.values())[:3] == [8, 9, 10] and sorted(seated.values())[3] == 11, seated
        teacher.wait_for_selector(f".lv-online-count:has-text('{len(NAMES)} von {len(NAMES)}')", timeout=60_000)
        teacher.wait_for_selector(".lv-tables tr[data-table='11']", timeout=30_000)
        assert teacher.locator("tr[data-student].lv-mark-out").count() == 0
        assert teacher.locator("tr[data-student]").count() == len(NAMES)
        for n in seated:
            pages[n] = next(p for p in [*back, *late] if p.view["name"] == n)

        # --- table 1 waits on a student: "bot takes over", one click ---
        row = teacher.locator(".lv-tables tr[data-table='1']")
        waiting = row.locator(".lv-turn").inner_text()
        assert waiting.startswith("wartet auf ")
        name = waiting.removeprefix("wartet auf ")
        button = row.locator(".lv-takeover")
        assert button.count() == 1 and name in button.inner_text()
        sid = button.get_attribute("data-takeover")
        button.click()
        student = pages[name]
        clients(student.wait(lambda v: v["page"] == "lobby"))
        assert "Ein Bot spielt deinen Platz an Tisch 1 weiter" in student.view["text"]
        teacher.wait_for_selector(f"tr[data-student='{sid}'].lv-mark-bot", timeout=30_000)
        # the bot plays the seat's turn, and the table then waits on the next student
        deadline = time.monotonic() + 60
        while (turn := row.locator(".lv-turn").inner_text()) == waiting or not turn.startswith("wartet auf "):
            assert time.monotonic() < deadline, f"table 1 did not go on: {turn}"
            teacher.wait_for_timeout(200)
        # scrolled to the end of the board, the controls are still in view (they stick to the top)
        teacher.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
        assert teacher.evaluate("() => document.scrollingElement.scrollTop") > 0
        for control in (".lv-reveal", ".lv-next", ".lv-start"):
            assert in_view(teacher, control), control
        assert_accessible(teacher, "the board after a bot took a seat over")
        clients(gather(*(p.close() for p in pages.values())), 60)
    finally:
        clients.stop()
        server.stop()


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    with playwright.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()
