"""The live class in real Chromium: a teacher and three students, each in their own browser context.

The server is the real one (``spieltisch class serve`` on a free port of 127.0.0.1, its own data
folder, stopped at the end); the pages are driven as people use them: the join form and the poll
with the keyboard alone, the games by clicking (as tests/harness/frontend.py plays the Play pages).
What each student's page showed and what its websocket carried is checked against the engine's true
state, rebuilt from the store after the game; mid-table the server is killed (``kill -9``) and
restarted on the same data, and the pages find their seats again. axe-core checks every kind of
page. One test, one server: the steps build on each other as a lesson does (the suite's time is
bounded, and each server and browser context costs seconds).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright = pytest.importorskip("playwright.sync_api")

from harness.frontend import play_until_banner  # noqa: E402
from harness.livewire import Server, hand_cards, true_hands, views_in  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))
from a11y import assert_accessible  # noqa: E402
from test_panel import CHROMIUM, FLAGS  # noqa: E402

pytestmark = pytest.mark.site

NAMES = ("Ana", "Ben", "Cem")  # student ids 1, 2, 3: the order they join the server's one room


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    with playwright.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


class Student:
    """A student's own browser context: their page, the hands it showed, its websocket frames."""

    def __init__(self, browser, name):
        self.name = name
        # reduced motion: the page takes the server's paced steps (deals, draws) at once, as the shared
        # front-end does for a reader who asks for less motion; the table is the same, only sooner
        self.context = browser.new_context(viewport={"width": 1024, "height": 900}, reduced_motion="reduce")
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.hands: list[tuple] = []
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(payload) if isinstance(payload, str) else None))

    def join(self, base, room):
        """With the keyboard alone: Tab to the fields, type, Enter."""
        page = self.page
        page.goto(f"{base}/join")
        page.wait_for_selector("#lv-room", timeout=60_000)
        page.locator("#lv-room").focus()
        page.keyboard.type(room.lower())
        page.keyboard.press("Tab")
        page.keyboard.type(self.name)
        page.keyboard.press("Enter")
        page.wait_for_selector(".lv-lobby", timeout=60_000)

    def hand(self):
        """The hand the page shows (None: none shown)."""
        if not self.page.locator(".sp-board .sb-hand").count():
            return None
        return tuple(sorted(self.page.locator(".sp-board .sb-hand [data-card]").evaluate_all(
            "els => els.map(e => Number(e.getAttribute('data-card')))")))


def start_skip_bo_table(teacher, students) -> None:
    """The board starts a round of Skip-Bo Masters tables of three; the students see their hands."""
    teacher.select_option("#lv-kind", "table")
    teacher.select_option("#lv-game", "skip-bo-masters")
    teacher.fill("#lv-players", "3")
    teacher.fill("#lv-humans", "3")
    teacher.click(".lv-start")
    for s in students:
        s.page.wait_for_selector(".sp-board .sb-hand", timeout=60_000)


# What a seat's page shows, read in one round trip: the end banner, the hand, whether a paced step
# is still to come, and what a player would click next (a marked target, else a marked card, else a
# move button; nothing while the page waits for its last click's answer).
LOOK = """(root, sels) => {
  const banner = !!root.querySelector('.sp-banner');
  const cards = root.querySelector('.sp-board .sb-hand');
  const hand = cards ? [...cards.querySelectorAll('[data-card]')].map(e => Number(e.getAttribute('data-card')))
    .sort((a, b) => a - b) : null;
  const busy = root.classList.contains('sp-busy');
  const click = banner || busy ? null : (sels.find(sel => root.querySelector(sel)) || null);
  return {banner, hand, pending: busy || !!root.querySelector('.sp-step'), click};
}"""
CLICKABLE = [".sp-board .sp-target[data-act]", ".sp-board .sp-can[data-act]", ".sp-move:not([data-token=swap])"]


def look(student) -> dict:
    # the table is drawn in its widget's shadow root, which the locator pierces
    seen = student.page.locator(".sp-table").evaluate(LOOK, CLICKABLE, timeout=60_000)
    if seen["hand"] is not None:
        student.hands.append(tuple(seen["hand"]))
    return seen


def click_once(student, seen) -> bool:
    """One click of a player at a Skip-Bo Masters table, as ``look`` found it; False when this page
    has nothing to click. The answer is not waited for here: the page marks itself busy until it
    arrives, and ``look`` offers no click meanwhile."""
    if seen["click"] is None:
        return False
    try:
        student.page.locator(".sp-table").locator(seen["click"]).first.click(timeout=3_000)
    except Exception as e:  # noqa: BLE001 - the table redrew meanwhile (another seat moved)
        if "Timeout" not in type(e).__name__:
            raise
        return False
    return True


def play_table(students, until=lambda seen: False, max_clicks=3000, stuck=120) -> int:
    """Click round the table until ``until(what each page shows)`` or ``max_clicks``; fails (instead
    of hanging) when no page has had anything to click for ``stuck`` seconds."""
    clicks, last = 0, time.monotonic()
    while clicks < max_clicks:
        seen = [look(s) for s in students]
        if until(seen):
            break
        moved = False
        for s, shown in zip(students, seen):
            if click_once(s, shown):
                clicks += 1
                moved = True
        if moved:
            last = time.monotonic()
        elif time.monotonic() - last > stuck:
            raise AssertionError(f"no page had anything to click for {stuck} s: {seen}")
        else:
            students[0].page.wait_for_timeout(50)  # the answers and the server's deals are on their way
    return clicks


def quiet(students, timeout=60) -> None:
    """Until no page waits for an answer or a paced step: what they show is the table's state."""
    deadline = time.monotonic() + timeout
    for s in students:
        while s.page.locator(".sp-table").evaluate(LOOK, [], timeout=60_000)["pending"]:
            assert time.monotonic() < deadline, f"{s.name}'s page still waits after {timeout} s"
            s.page.wait_for_timeout(50)


def true_moves(data) -> int:
    """The students' moves the store holds (read beside the running server: the store is in WAL)."""
    db = sqlite3.connect(data / "spieltisch-live.sqlite3")
    try:
        return db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    finally:
        db.close()


def frame_hands(frames) -> list[tuple]:
    out = []
    for view in views_in(frames):
        if view.get("page") == "game":
            shown = hand_cards(view["table"]["board"])
            if shown is not None:
                out.append(tuple(sorted(int(c) for c in shown)))
    return out


def test_a_class_plays_a_poll_a_shared_game_and_a_skip_bo_table_through_a_kill_9(browser, tmp_path):
    server = Server(tmp_path).start()
    try:
        teacher = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        teacher.goto(server.teacher)
        teacher.wait_for_selector(".lv-room h2", timeout=60_000)
        room = teacher.locator(".lv-room h2").inner_text()
        assert_accessible(teacher, "the board with a new room")
        students = [Student(browser, name) for name in NAMES]
        students[0].page.goto(f"{server.base}/join?room={room}")
        students[0].page.wait_for_selector("#lv-name", timeout=60_000)
        assert students[0].page.locator("#lv-room").input_value() == room
        assert_accessible(students[0].page, "the join page")
        for s in students:
            s.join(server.base, room)
        assert_accessible(students[0].page, "the lobby")
        teacher.wait_for_selector("tr[data-student='3']", timeout=30_000)

        # --- a poll: answered with the keyboard, seen live on the board, revealed ---
        teacher.select_option("#lv-kind", "choice")
        teacher.fill("#lv-question", "Wie oft kommt eine Sechs in 6 Würfen?")
        teacher.fill("#lv-options", "nie\neinmal\nöfter")
        teacher.click(".lv-start")
        for s, choice in zip(students, (1, 1, 2)):
            s.page.wait_for_selector(".lv-option", timeout=30_000)
            s.page.locator(".lv-option").first.focus()
            for _ in range(choice):
                s.page.keyboard.press("Tab")
            s.page.keyboard.press("Enter")
            s.page.wait_for_selector(".lv-saved", timeout=30_000)
        assert_accessible(students[0].page, "a poll, answered")
        teacher.wait_for_selector(".lv-count:has-text('3')", timeout=30_000)
        answers = teacher.locator("tr[data-student] .lv-answer").all_inner_texts()
        assert answers == ["einmal", "einmal", "öfter"]
        teacher.locator(".lv-reveal").focus()
        teacher.keyboard.press("Enter")
        for s in students:
            s.page.wait_for_selector(".lv-bars", timeout=30_000)
        bars = students[2].page.locator(".lv-bars tr").all_inner_texts()
        assert [re.sub(r"\s+", " ", b).strip() for b in bars] == ["nie 0", "einmal 2", "öfter 1"]
        assert_accessible(students[2].page, "a revealed poll")
        assert_accessible(teacher, "the board with a revealed poll")

        # --- a shared game: everyone plays the same Würfel Joker game to its end ---
        teacher.select_option("#lv-kind", "game")
        teacher.select_option("#lv-game", "wuerfel-joker-2")
        teacher.click(".lv-start")
        points = {}
        for i, s in enumerate(students):
            root = s.page.locator(".sp-table")
            s.page.wait_for_selector(".sp-table .sp-status", timeout=60_000)
            if i == 0:
                assert_accessible(s.page, "a shared game at its start")
            play_until_banner(s.page, root, "wuerfel-joker-2")
            banner = root.locator(".sp-banner").inner_text()
            points[s.name] = int(re.search(r"(−?\d+) Punkten", banner).group(1).replace("−", "-"))
        assert_accessible(students[0].page, "a shared game at its end")
        # the board shows the results live: the ranking of the replayed result codes, the histogram
        teacher.wait_for_selector(".lv-ranking li >> nth=2", timeout=120_000)
        ranking = teacher.locator(".lv-ranking li").all_inner_texts()
        assert sorted(ranking) == sorted(f"{n}: {p}".replace("-", "−") for n, p in points.items())
        assert teacher.locator(".lv-best").count() == 1 and teacher.locator(".lv-round .lv-bars").count() == 1
        assert_accessible(teacher, "the board with a shared game's results")

        # --- a Skip-Bo Masters table of three, played to its end ---
        start_skip_bo_table(teacher, students)
        projector = teacher.context.new_page()
        link = teacher.locator(".lv-tables tr[data-table='1'] a").get_attribute("href")
        assert server.key not in link and link.startswith("beamer?t=")  # the table's own token, not the key
        projector.goto(f"{server.base}/{link}")
        projector.wait_for_selector(".sp-board .sb-building", timeout=60_000)
        assert projector.locator(".sb-hand").count() == 0  # the spectator's view: no hand
        assert_accessible(projector, "the projector at a table")
        assert_accessible(students[0].page, "a seat at a table")
        projector.close()  # a page fewer to redraw at every move
        assert play_table(students, max_clicks=24) == 24

        # --- kill -9 mid-table: every page loads itself again and its seat token brings it back ---
        quiet(students)
        before = {}
        for s in students:
            before[s.name] = s.hand()
            s.page.evaluate("() => { window.__before_restart = true; }")
        made = true_moves(tmp_path)
        server.kill()
        assert true_moves(tmp_path) == made > 0  # every acknowledged move is in the store
        server.start()
        for s in students:
            s.page.wait_for_function("() => window.__before_restart === undefined", timeout=120_000)
            s.page.wait_for_selector(".sp-board .sb-hand", timeout=120_000)
        quiet(students)
        assert {s.name: s.hand() for s in students} == before  # the same seats, the same cards

        # --- and the table goes on to its end ---
        play_table(students, lambda seen: all(shown["banner"] for shown in seen))
        assert all(look(s)["banner"] for s in students)
        teacher.wait_for_selector("tr[data-table='1'] td:has-text('Spielende')", timeout=60_000)
        assert_accessible(students[1].page, "a seat at the end of a table")
        frames = {s.name: list(s.frames) for s in students}
    finally:
        server.stop()

    hands, secrets_, seats = true_hands(tmp_path)
    for i, s in enumerate(students):
        seat = next(p for p, sid in seats.items() if sid == i + 1)
        assert len(s.hands) > 20
        on_page = [h for h in s.hands if h not in hands[seat]]
        assert not on_page, f"{s.name}'s page showed hands seat {seat} never held: {on_page[:3]}"
        sent = frame_hands(frames[s.name])
        assert len(sent) > 20
        assert not [h for h in sent if h not in hands[seat]], f"{s.name}'s websocket carried another hand"
        text = "".join(frames[s.name])
        assert not any(str(v) in text for v in secrets_ if v is not None), "the table's seed or secret was sent"


# The server of the test below, losing one frame on its way: the first frame of a poll page that
# any page is sent (its number is taken, the frame is not sent). ``keep_asks`` False: a server that
# does not answer a page's request for its whole view (the negative control).
LOSES_A_FRAME = """
import sys
from spieltisch.ui.live import app, frames
lost = []
class Losing(frames.Frames):
    def next(self, view):
        text = super().next(view)
        if text is not None and view.get("page") == "poll" and not lost:
            lost.append(text)
            return None
        return text
    def resync(self):
        if {keep_asks}:
            super().resync()
app.Frames = Losing
from spieltisch.cli import main
sys.exit(main(["class", "serve", "--port", sys.argv[1], "--data", sys.argv[2]]))
"""


@pytest.mark.parametrize("keep_asks", [True, False], ids=["server-answers", "server-ignores-the-page"])
def test_a_page_that_lost_a_frame_asks_for_its_whole_view_and_shows_it(browser, tmp_path, keep_asks):
    """live.js: a frame that does not follow the one the page shows is not applied; the page asks
    for its whole view (``resync``) and shows it. Against a server that ignores the request, the
    page stays where it was: the page does not come right by chance."""
    server = Server(tmp_path, script=LOSES_A_FRAME.format(keep_asks=keep_asks)).start()
    try:
        teacher = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        teacher.goto(server.teacher)
        teacher.wait_for_selector(".lv-room h2", timeout=60_000)
        room = teacher.locator(".lv-room h2").inner_text()
        ana = Student(browser, "Ana")
        asked = []
        ana.page.on("websocket", lambda ws: ws.on(
            "framesent", lambda payload: asked.append(payload) if '"resync"' in str(payload) else None))
        ana.join(server.base, room)
        teacher.wait_for_selector("tr[data-student='1']", timeout=30_000)
        teacher.select_option("#lv-kind", "number")
        teacher.fill("#lv-question", "Wie viele Sechsen in 12 Würfen?")
        teacher.click(".lv-start")
        teacher.wait_for_selector(".lv-reveal", timeout=30_000)
        ana.page.wait_for_timeout(1000)
        assert ana.page.locator(".lv-lobby").count() == 1  # the poll's frame was lost: still the lobby
        teacher.fill("#lv-truth", "2")
        teacher.click(".lv-reveal")
        if keep_asks:
            # the reveal's frame does not follow the page's: it asks, and gets the revealed poll whole
            ana.page.wait_for_selector(".lv-page :text('Richtig ist: 2')", timeout=30_000)
            assert ana.page.locator(".lv-lobby").count() == 0
            assert len(asked) == 1
        else:
            ana.page.wait_for_timeout(3000)
            assert ana.page.locator(".lv-lobby").count() == 1 and len(asked) == 1
        got = [json.loads(ev["new"]) for text in ana.frames if '"view"' in text
               for ev in json.loads(text).get("events", []) if ev.get("attr") == "view"]
        if keep_asks:  # the last frame is the whole view, the one before it the patch not applied
            assert got[-1]["view"]["page"] == "poll" and got[-1]["view"]["status"] == "revealed"
            assert got[-2]["base"] == got[-3]["n"] + 1
        else:
            assert "patch" in got[-1]
    finally:
        server.stop()
