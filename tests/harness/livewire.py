"""A page of the live class without a browser: the Bokeh server protocol spoken directly.

``Page`` loads a page's HTML (for its session token), opens the websocket as Bokeh's JavaScript
does, pulls the document, finds the ``LivePage``'s data model and from then on sends events by
setting its ``event`` property (a ``PATCH-DOC``) and reads the ``view`` the server patches in. Every
text frame the server sends is kept (``frames``): tests look for hidden information in them, the
load benchmark times them. ``server`` starts ``spieltisch class serve`` on a free port.

Used by tests/test_live_server.py and benchmarks/live_load.py; each ``Page`` is a coroutine-driven
client, so many of them share one event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

from spieltisch.ui.live.frames import read

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class Server:
    """``spieltisch class serve`` in a child process (its own process group, so nothing outlives it)."""

    def __init__(self, data, port: int | None = None, script: str | None = None, extra_env: dict | None = None):
        self.data, self.port = Path(data), port or free_port()
        self.script = script
        self.env = {**os.environ, **(extra_env or {})}
        self.env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), self.env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        self.proc = None
        self.teacher = self.join = None
        self.output: list[str] = []

    def start(self, timeout: float = 120) -> "Server":
        if self.script is None:
            cmd = [sys.executable, "-m", "spieltisch", "class", "serve", "--port", str(self.port), "--data", str(self.data)]
        else:  # a test's own variant of the server (a negative control)
            cmd = [sys.executable, "-c", self.script, str(self.port), str(self.data)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=self.env, text=True,
                                     start_new_session=True)
        self.output = []
        reader = threading.Thread(target=self._read, daemon=True)
        reader.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the live server stopped:\n" + "".join(self.output)[-3000:])
            if self.teacher and port_open(self.port):
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("the live server did not start:\n" + "".join(self.output)[-3000:])

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)
            m = re.search(r"(http://\S+/klasse\?key=\S+)", line)
            if m:
                self.teacher = m.group(1)
            m = re.search(r"(http://\S+/join\S*)", line)
            if m:
                self.join = m.group(1)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def key(self) -> str:
        return self.teacher.split("key=", 1)[1]

    def kill(self) -> None:
        """``kill -9`` of the whole process group: nothing is flushed, nothing is closed."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        self.teacher = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(20)


@contextmanager
def running(data, **kw):
    server = Server(data, **kw).start()
    try:
        yield server
    finally:
        server.stop()


def run(coro, timeout: float = 600):
    """Run ``coro`` in a thread with its own event loop (Playwright's sync API may own this
    thread's loop) and return its result; bounded by ``timeout``."""
    box = {}

    def target():
        try:
            box["result"] = asyncio.run(asyncio.wait_for(coro, timeout))
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout + 30)
    if "error" in box:
        raise box["error"]
    if "result" not in box:
        raise TimeoutError("the websocket clients did not finish")
    return box["result"]


class Page:
    """One page (``/join``, ``/klasse?key=…``, ``/beamer?…``) as a Bokeh client."""

    def __init__(self, base: str, path: str):
        self.base, self.path = base, path
        self.frames: list[tuple[float, str]] = []  # (time received, text) of every text frame
        self.view: dict = {}
        self.views = 0
        self.changed = asyncio.Event()
        self.data_id = None
        self.ws = None
        self._reader = None
        self._n = 0
        self.listener = None  # listener(view, time received): every view as it arrives
        self._frame_n = 0  # the number of the frame whose view the page shows
        self._asked = False
        self.resyncs = 0  # how often the page asked for its whole view (a frame did not follow)
        self._sending = asyncio.Lock()

    async def open(self, timeout: float = 60) -> "Page":
        url = self.base + self.path
        html = (await AsyncHTTPClient().fetch(url, request_timeout=timeout)).body.decode()
        token = re.search(r'"token":"([^"]+)"', html).group(1)
        ws_url = self.base.replace("http", "ws", 1) + self.path.split("?")[0] + "/ws"
        request = HTTPRequest(ws_url, headers={"Origin": self.base}, request_timeout=timeout)
        self.ws = await websocket_connect(request, subprotocols=["bokeh", token])
        # as a browser does (Chromium sets TCP_NODELAY on its sockets): a Bokeh message is three
        # frames, and with Nagle's algorithm the last two wait for the server's delayed ACK (40 ms)
        self.ws.protocol.stream.set_nodelay(True)
        header, _, _ = await self._message()
        assert header["msgtype"] == "ACK", header
        await self._send("PULL-DOC-REQ", {})
        header, _, content = await self._message()
        while header["msgtype"] == "PATCH-DOC":
            # a change made after the connection opened and before the document was pulled: BokehJS
            # drops it (the pulled document holds it; a view frame that then does not follow is
            # asked for again: frames.py), and so does this page
            header, _, content = await self._message()
        assert header["msgtype"] == "PULL-DOC-REPLY", header
        root = content["doc"]["roots"][0]
        data = root["attributes"]["data"]
        self.data_id = data["id"]
        self._set_view(data["attributes"].get("view", ""))
        self._reader = asyncio.ensure_future(self._read())
        # Panel starts a page's session when the browser says the document is ready
        await self._send("PATCH-DOC", {"events": [{"kind": "MessageSent", "msg_type": "bokeh_event", "msg_data": {
            "type": "event", "name": "document_ready", "values": {"type": "map"}}}]})
        return self

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.ws is not None:
            self.ws.close()

    async def _send(self, msgtype: str, content: dict) -> None:
        # a message is three frames: one page's messages must not interleave (its heartbeat and its
        # events come from different coroutines; a browser writes a message's frames at once)
        header = {"msgid": uuid.uuid4().hex[:12], "msgtype": msgtype}
        async with self._sending:
            await self.ws.write_message(json.dumps(header))
            await self.ws.write_message("{}")
            await self.ws.write_message(json.dumps(content))

    async def _frame(self):
        frame = await self.ws.read_message()
        if frame is None:
            raise ConnectionError("the server closed the websocket")
        if isinstance(frame, str):
            self.frames.append((time.perf_counter(), frame))
        return frame

    async def _message(self):
        header = json.loads(await self._frame())
        metadata = json.loads(await self._frame())
        content = json.loads(await self._frame())
        for _ in range(header.get("num_buffers", 0)):
            await self._frame()
        return header, metadata, content

    async def _read(self) -> None:
        try:
            while True:
                header, _, content = await self._message()
                if header["msgtype"] != "PATCH-DOC":
                    continue
                for ev in content.get("events", []):
                    if ev.get("kind") == "ModelChanged" and ev.get("attr") == "view" and \
                            ev.get("model", {}).get("id") == self.data_id:
                        self._set_view(ev["new"])
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.changed.set()  # a wait looks again: the connection is gone

    def _set_view(self, text: str) -> None:
        # a frame: the whole view, or what changed since the last one (frames.py); one that does not
        # follow is not applied, and the page asks for its whole view again, as live.js does
        frame = json.loads(text) if text else {"n": 0, "view": {}}
        view = read(frame, self.view if self._frame_n else None, self._frame_n)
        if view is None:
            if not self._asked:
                self._asked = True
                self.resyncs += 1
                asyncio.ensure_future(self._send("PATCH-DOC", {"events": [{
                    "kind": "ModelChanged", "model": {"id": self.data_id}, "attr": "resync", "new": self.resyncs}]}))
            return
        self._asked = False
        self._frame_n = frame["n"]
        self.view = view
        self.views += 1
        self.changed.set()
        if self.listener is not None:
            self.listener(self.view, time.perf_counter())

    async def send(self, event: dict, n: int | None = None) -> int:
        """An event as the page's script sends it (with the next counter, unless ``n`` is given);
        returns the counter (the view's ``ack`` reaches it when the server has handled it)."""
        if n is None:
            self._n = max(self._n + 1, int(time.time() * 1000))
            n = self._n
        await self.send_raw(json.dumps({**event, "n": n}))
        return n

    async def act(self, event: dict, timeout: float = 60) -> dict:
        """Send ``event`` and wait for the view that answers it."""
        n = await self.send(event)
        return await self.wait(lambda v: v.get("ack", 0) >= n, timeout)

    async def send_raw(self, text) -> None:
        await self._send("PATCH-DOC", {"events": [{"kind": "ModelChanged", "model": {"id": self.data_id},
                                                   "attr": "event", "new": text}]})

    async def ping(self, n: int) -> None:
        """The page's heartbeat as its script sends it (live.js: ``ping``, answered with ``pong``)."""
        await self._send("PATCH-DOC", {"events": [{"kind": "ModelChanged", "model": {"id": self.data_id},
                                                   "attr": "ping", "new": n}]})

    async def wait(self, predicate, timeout: float = 60):
        """Until ``predicate(view)`` holds (the views that arrive meanwhile are looked at)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if predicate(self.view):
                    return self.view
            except (KeyError, TypeError, IndexError):
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.path}: condition not met; last view: {json.dumps(self.view)[:600]}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def wait_views(self, count: int, timeout: float = 30) -> None:
        """Until ``count`` more views than now have arrived."""
        target = self.views + count
        await self.wait(lambda v: self.views >= target, timeout)

    def texts(self) -> list[str]:
        return [text for _, text in self.frames]


async def wait_all(pages, predicate, timeout: float = 60) -> None:
    """Until ``predicate()`` (about several pages' views) holds; looked at again every 50 ms."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition over several pages not met: " +
                               "; ".join(json.dumps(p.view)[:200] for p in pages))
        await asyncio.sleep(0.05)


def views_in(frames) -> list[dict]:
    """Every ``view`` a page was sent, in order, from its raw frames (a frame of only what changed
    applied to the view before it)."""
    out = []

    def add(text):
        frame = json.loads(text)
        shown = out[-1] if out and "view" not in frame else None
        view = read(frame, shown, add.n)
        assert view is not None, f"frame {frame.get('n')} does not follow frame {add.n}"
        add.n = frame["n"]
        out.append(view)
    add.n = 0
    for text in frames:
        if '"view"' not in text:
            continue
        try:
            content = json.loads(text)
        except ValueError:
            continue
        if isinstance(content, dict) and "doc" in content:  # the first view, in the pulled document
            first = content["doc"]["roots"][0]["attributes"]["data"]["attributes"].get("view")
            if first:
                add(first)
        for ev in content.get("events", []) if isinstance(content, dict) else []:
            if ev.get("attr") == "view" and ev.get("new"):
                add(ev["new"])
    return out


class _Clickables(__import__("html.parser").parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("data-act"):
            self.found.append((a.get("class") or "", a["data-act"]))


def next_click(table: dict) -> dict | None:
    """The event a player sends next on a table (``Table.state()``), chosen as the browser tests'
    ``play_clicks`` does: nothing while bots are pending; a marked target, else a marked card to
    choose (``sp-target``, ``sp-can``: Skip-Bo Masters), else the first move button (Würfel Joker:
    the throw, then the first choice), else, when the status line names the viewer ("Du"/"You") as
    the one to move, the first thing on the board to click."""
    if table.get("banner") or table.get("pending"):
        return None
    parser = _Clickables()
    parser.feed(table.get("board") or "")
    for kind in ("sp-target", "sp-can"):
        for classes, token in parser.found:
            if kind in classes.split():
                return {"type": "act", "token": token}
    buttons = [b["token"] for b in table.get("buttons", []) if b["token"] != "swap"]
    if buttons:
        return {"type": "act", "token": buttons[0]}
    you = (table.get("words") or {}).get("you")
    if parser.found and you and re.search(rf"\b{re.escape(you)}\b", table.get("status") or ""):
        return {"type": "act", "token": parser.found[0][1]}
    return None


def hand_cards(board: str) -> list[str] | None:
    """Skip-Bo Masters: the cards in the viewer's hand as the board draws them (None: no hand shown)."""
    m = re.search(r"<div class='sb-hand'>(.*?)</div></div>", board or "", re.S)
    if m is None:
        return None
    return re.findall(r"data-card='([^']*)'", m.group(1))


def true_hands(data: Path, table_no: int = 1) -> tuple[dict, list, dict]:
    """Each seat's hands over the whole game, from the store: the table rebuilt by replaying its
    stored moves (seed and secret come from the store; the server is stopped), then its record
    replayed action by action. Returns ({seat: {hand, ...}}, [seed, secret], {seat: student})."""
    from spieltisch.ui.live.registry import Registry
    from spieltisch.ui.live.store import Store

    registry = Registry(Store(data), "unused", schedule=lambda delay, fn: None)
    (room,) = registry.rooms.values()
    rnd = room.rounds[-1]
    game = next(g for g in rnd.games if g.table_no == table_no)
    match = game.table.session.match
    state = match.game.new_initial_state()
    seats = range(match.game.num_players)
    hands = {p: set() for p in seats}
    for action in match.actions:
        state.apply_action(action)
        for p in seats:
            hands[p].add(tuple(sorted(state.hands[p])))
    registry.store.close()
    return hands, [match.seed, match.secret], {p: s for p, s in game.students().items()}
