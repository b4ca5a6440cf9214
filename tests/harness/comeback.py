"""A class at two Skip-Bo Masters tables whose server is killed (``kill -9``) and restarted, and the
pages that come back to their seats.

``Returning`` is a page as the pages' script (live.js) keeps it, spoken as a Bokeh client
(harness/livewire.py): when its websocket is gone it asks the server's ``/alive`` with a growing
pause until the server answers, then loads itself again (a new document); a student's page then says
hello with its seat token. ``Class`` seats students at tables of two (no bots: nothing moves unless
a student clicks, so a seat's hand is the same before and after a restart), with the board and every
table's projector open. ``places`` says where each page is: a student at a table with a hand, the
board in its room, a projector at its table; after a restart ``settle`` waits for each to be there
again.

``Browser`` is a student's page in Chromium (the real script) whose websockets go through a route
that can be cut.

Used by tests/test_live_reconnect.py and benchmarks/live_restart.py.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time

from tornado.httpclient import AsyncHTTPClient

from .livewire import Page, hand_cards

PROBE_FIRST_S = 0.5
PROBE_MAX_S = 5.0


class Loop:
    """An event loop in a thread of its own for the websocket pages: they stay open while the
    caller drives Chromium (Playwright's sync API owns the caller's thread)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def __call__(self, coro, timeout: float = 120):
        future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(coro, timeout), self.loop)
        return future.result(timeout + 10)

    def start(self, coro, timeout: float = 120):
        """``coro`` running on the loop; ``.result()`` of the returned future waits for it."""
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coro, timeout), self.loop)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def alive(base: str) -> bool:
    try:
        r = await AsyncHTTPClient().fetch(base + "/alive", request_timeout=5, raise_error=False)
    except OSError:
        return False
    return r.code == 204


class Returning:
    """One page (``path``) that comes back by itself, as live.js makes it."""

    def __init__(self, base: str, path: str, token: str | None = None):
        self.base, self.path, self.token = base, path, token
        self.page: Page | None = None
        self.loads = 0

    async def open(self) -> "Returning":
        self.page = await Page(self.base, self.path).open()
        self.loads += 1
        if self.token is not None:  # the join page's hello with the seat token the browser kept
            await self.page.wait(lambda v: v.get("page") is not None)
            if self.page.view.get("page") == "join":
                await self.page.send({"type": "hello", "token": self.token})
        return self

    @property
    def view(self) -> dict:
        return self.page.view if self.page is not None else {}

    def connected(self) -> bool:
        reader = self.page._reader if self.page is not None else None
        return reader is not None and not reader.done()

    async def come_back(self, timeout: float = 120) -> float:
        """After the server went away: until the old connection is seen closed, then ``/alive`` until
        it answers, then the page loads itself again. Returns the seconds it took."""
        started = time.monotonic()
        deadline = started + timeout
        await self.page.wait(lambda v: not self.connected(), timeout)
        await self.page.close()
        pause = PROBE_FIRST_S
        while not await alive(self.base):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.path}: the server did not answer /alive in {timeout} s")
            await asyncio.sleep(pause)
            pause = min(pause * 2, PROBE_MAX_S)
        await self.open()
        return time.monotonic() - started

    async def close(self) -> None:
        if self.page is not None:
            await self.page.close()


def seat_of(view: dict):
    """What identifies a page's place: a student's name, table and hand; the board's room; the
    projector's table (None: the page is not at a place, e.g. the join form)."""
    page = view.get("page")
    if page == "game":
        hand = hand_cards((view.get("table") or {}).get("board") or "")
        return ("game", view.get("name"), view.get("title"), tuple(sorted(hand)) if hand is not None else None)
    if page == "board":
        return ("board", (view.get("room") or {}).get("code"))
    return None


class Class:
    """A room with websocket students ``names`` (and whoever else joins, e.g. a browser, before
    ``join``) at Skip-Bo Masters tables of two, the board and every table's projector open."""

    def __init__(self, server, names):
        self.server = server
        self.names = list(names)
        self.board: Returning | None = None
        self.projectors: dict[str, Returning] = {}
        self.students: dict[str, Returning] = {}
        self.room = None

    async def open(self) -> "Class":
        self.board = await Returning(self.server.base, f"/klasse?key={self.server.key}").open()
        await self.board.page.wait(lambda v: v["page"] == "board" and v.get("room"))
        self.room = self.board.view["room"]["code"]
        return self

    async def join(self) -> None:
        """The websocket students join, in order (the tables are made in the order of joining)."""
        for name in self.names:
            page = await Page(self.server.base, "/join").open()
            await page.wait(lambda v: v["page"] == "join")
            await page.send({"type": "join", "room": self.room, "name": name})
            await page.wait(lambda v: v["page"] != "join" and "token" in v)
            student = Returning(self.server.base, "/join", token=page.view["token"])
            student.page = page
            student.loads = 1
            self.students[name] = student

    async def start(self, students: int) -> None:
        """Once ``students`` are in the room: the tables, and their projectors."""
        board = self.board.page
        await board.wait(lambda v: len(v["room"]["students"]) == students)
        await board.send({"type": "round_new", "spec": {"kind": "table", "game": "skip-bo-masters", "players": 2,
                                                        "humans": 2}})
        for s in self.students.values():
            # the deal is paced: until it is done (a seat's hand shows on its first turn)
            await s.page.wait(lambda v: v["page"] == "game" and not v["table"].get("pending"))
        await board.wait(lambda v: (v["room"].get("round") or {}).get("kind") == "table")
        for table in board.view["room"]["round"]["tables"]:
            projector = await Returning(
                self.server.base, f"/beamer?t={table['beamer']}&room={self.room}&table={table['no']}").open()
            await projector.page.wait(lambda v: v["page"] == "game")
            self.projectors[f"projector {table['no']}"] = projector

    def pages(self) -> dict[str, Returning]:
        return {"board": self.board, **self.projectors, **self.students}

    def places(self) -> dict:
        out = {name: seat_of(p.view) for name, p in self.pages().items()}
        for name, p in self.projectors.items():
            out[name] = ("projector", p.view.get("title"), p.view.get("page"))
        return out

    async def come_back(self, timeout: float = 120) -> dict[str, float]:
        """Every page after a restart, together: the seconds each took."""
        pages = self.pages()
        took = await asyncio.gather(*(p.come_back(timeout) for p in pages.values()))
        return dict(zip(pages, took))

    async def settle(self, before: dict, timeout: float = 60) -> list[str]:
        """Until every page is back at its place of ``before``; returns those that are not (stuck)
        when ``timeout`` runs out."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.places()
            stuck = [name for name, place in before.items() if now.get(name) != place]
            if not stuck or time.monotonic() > deadline:
                return stuck
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        for p in self.pages().values():
            if p is not None:
                await p.close()


# what Ana's page offers: enabled controls (buttons, fields) and whether the page is inert
OFFERS = """(page) => {
  const banner = page.getRootNode().querySelector('.lv-conn');
  return {enabled: [...page.querySelectorAll('button, input, select, textarea')].filter(c => !c.disabled).length,
          inert: page.inert, banner: banner.textContent, role: banner.getAttribute('role')};
}"""


class Browser:
    """A student's page in Chromium: its own context, whose websockets go through a route that can
    be cut (a network that is gone: nothing arrives, nothing closes) — Chromium's offline mode alone
    leaves an open websocket working."""

    def __init__(self, browser):
        self.cut = False
        self.context = browser.new_context(viewport={"width": 1024, "height": 900}, reduced_motion="reduce")
        self.context.route_web_socket(re.compile(r".*/ws$"), self._route)
        self.page = self.context.new_page()

    def _route(self, ws):
        if self.cut:
            return  # a socket opened while cut off is never answered
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if self.cut else server.send(m))
        server.on_message(lambda m: None if self.cut else ws.send(m))

    def join(self, base, room, name="Ana"):
        page = self.page
        page.goto(f"{base}/join?room={room}")
        page.wait_for_selector("#lv-name", timeout=60_000)
        page.fill("#lv-name", name)
        page.click(".lv-join-button")
        page.wait_for_selector(".lv-lobby", timeout=60_000)

    def mark(self):
        """A mark in the page's window: gone once the page has loaded itself again."""
        self.page.evaluate("() => { window.__before = true; }")

    def reloaded(self, timeout_ms):
        self.page.wait_for_function("() => window.__before === undefined", timeout=timeout_ms)
        self.page.wait_for_selector(".sp-board", timeout=timeout_ms)

    def hand(self):
        """The hand the page shows (None: none)."""
        if not self.page.locator(".sp-board .sb-hand").count():
            return None
        return tuple(sorted(self.page.locator(".sp-board .sb-hand [data-card]").evaluate_all(
            "els => els.map(e => Number(e.getAttribute('data-card')))")))

    def shows(self, hand, timeout_s=20) -> bool:
        """Whether the page comes to show ``hand`` (its first view may still be drawn)."""
        for _ in range(timeout_s * 5):
            if self.hand() == hand:
                return True
            self.page.wait_for_timeout(200)
        return False

    def offers(self):
        # (the page is drawn in its widget's shadow root, which the locator pierces)
        return self.page.locator(".lv-page").evaluate(OFFERS)
