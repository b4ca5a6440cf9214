"""The live class on Panel's server: the pages, and the process that serves them.

Three pages, each a Panel session with one ``LivePage`` (an ``AnyWidgetComponent``: the one ESM
``live.js``, which wraps the shared front-end ``table.js`` for games):

- ``/join``: a student (the room code and a nickname, then the current round);
- ``/klasse?key=…``: the teacher's board (only with the teacher key);
- ``/beamer?t=…&room=…&table=…``: the projector, a table's spectator view; ``t`` is that table's own
  token (``Registry.projector_token``), never the teacher key.

A page carries two strings: ``event`` (what the browser sends) goes to ``Registry.handle``, and
``view`` (what it shows) is ``Registry.view`` of the page's session, recomputed on the page's own
document whenever the registry says it concerns the page, and sent as frames: the whole view, then
what changed (frames.py). Nothing else of the registry ever reaches a page, so a page can only show
what its own view holds (checked on the websocket frames in tests/test_live_server.py). Besides:
``offline``, the words a page shows when its connection is lost; ``ping``/``pong``, its heartbeat;
``resync``, a page's request for its whole view. A page that lost its connection asks ``/alive``
until the server answers and then loads itself again (live.js; tests/test_live_reconnect.py).
Everything runs on Tornado's one event loop; only the board's summary (replaying result codes,
asking the advisor) runs in a worker process, and a table's advisor (a round that allows it) in
another (``advice.AdviceWorker``).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import time
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import panel as pn
import param
from tornado.ioloop import IOLoop, PeriodicCallback
from tornado.web import RedirectHandler, RequestHandler

from ..table import front_end_source
from .advice import AdviceWorker
from .collector import Collector
from .frames import Frames
from .registry import EXPIRE_HOURS, Registry, Session
from .store import Store
from .words import both

log = logging.getLogger("spieltisch.live")

HERE = Path(__file__).resolve().parent
TABLE_EXPORT = "export default { render };"
EXPIRE_CHECK_S = 600
# a page's websocket message is a few kilobytes; Bokeh would accept 20 MB
MAX_MESSAGE_BYTES = 256 * 1024
# a page's session token stays good for a day (a page that lost its connection no longer reuses it:
# it loads itself again and gets a new one)
TOKEN_EXPIRATION_S = 24 * 3600
OFFLINE_WORDS = json.dumps(both("connection_lost"), ensure_ascii=False)


@lru_cache(maxsize=1)
def live_source() -> str:
    """``live.js`` with the shared front-end inside it (one ESM per page: a module cannot import
    another from Panel's inline source, so ``table.js`` becomes a function returning ``render``)."""
    table = front_end_source()
    if table.count(TABLE_EXPORT) != 1:
        raise RuntimeError(f"table.js no longer ends with {TABLE_EXPORT!r}: live.js cannot wrap it")
    # (its element helper ``h`` comes along: live.js draws with it too)
    wrapped = "const TableFrontEnd = (() => {\n" + table.replace(TABLE_EXPORT, "return { render, h };") + "\n})();\n"
    css = (HERE / "static" / "live.css").read_text(encoding="utf-8")
    js = (HERE / "static" / "live.js").read_text(encoding="utf-8")
    return f"{wrapped}const LIVE_CSS = {json.dumps(css)};\n{js}"


class LivePage(pn.custom.AnyWidgetComponent):
    _esm = live_source()
    view = param.String(default="")
    event = param.String(default="")
    # what the page says when its connection is lost (both languages: it cannot ask the server then)
    offline = param.String(default="")
    # the page's heartbeat: a number it sends, answered with the same number (a connection can die
    # without closing: a lid shut, a network gone; only an unanswered ping tells the page)
    ping = param.Integer(default=0)
    pong = param.Integer(default=0)
    # a page that missed a frame asks for its whole view again (frames.py); the number is new each time
    resync = param.Integer(default=0)
    # an event is handled at once, not after Panel's 50 ms debounce
    _priority_changes = ["event", "ping", "resync"]
    # Panel counts every incoming change as "busy" for its loading indicator (which these pages do not
    # show): a list rebuilt and the server-wide state's parameters unlocked and locked again around
    # each event and heartbeat, several milliseconds of the one event loop per event in the load
    # benchmark's profile
    _busy__ignore = ["event", "ping", "resync"]

    def put(self, **values) -> None:
        """Show the page its own properties (its view, the heartbeat's answer): set on its Bokeh
        model directly, as Panel does at the end of its way there (``_set_on_model``: marked as
        changing, so that Bokeh's change callback is not taken for the page's own change), without
        Panel's way through the parameter, its watchers and ``_update_model`` (about a millisecond
        of the loop per redraw in the load benchmark's profile). Before the page is drawn its model
        does not exist yet: the parameters are set, and the model is made from them."""
        if not self._models:
            self.param.update(**values)
            return
        for ref, (model, _) in list(self._models.items()):
            changing = self._changing.setdefault(ref, [])
            for name, value in values.items():
                changing.append(name)
                try:
                    setattr(model.data, name, value)
                finally:
                    if name in changing:  # (an unchanged value calls no callback)
                        changing.remove(name)

    def _process_events(self, events):
        # The page's own event or heartbeat, as Panel takes it in but without unlocking every
        # parameter of the page for it twice (``edit_readonly``: these are neither read-only nor
        # constant), the largest of Panel's costs per incoming event in the load benchmark's profile.
        # Anything else goes Panel's own way.
        if not events or any(name not in self._priority_changes for name in events):
            return super()._process_events(events)
        doc = pn.state.curdoc
        if doc is not None:
            self._in_process__events[doc] = events
        try:
            self.param.update(**self._process_property_change(events))
        finally:
            if doc is not None:
                self._in_process__events.pop(doc, None)

    def _update_properties(self, *events, doc):
        # Panel asks the page's design for its modifiers at every change, but uses them only for a
        # change of stylesheets; asking costs a failed attribute lookup on the Bokeh model, which
        # Bokeh answers with a "did you mean" search (difflib): 0.65 ms of the event loop per redraw
        # in the load benchmark's profile. The pages' own properties (view, pong, ...) skip it.
        # What came from the page (its event, its heartbeat) is not sent back to it: Panel would
        # echo each one to the model, find it unchanged and send nothing, at about a millisecond of
        # the event loop per incoming event.
        events = [e for e in events if e.name not in self._priority_changes]
        if not events:
            return {}
        if any(e.name == "stylesheets" for e in events):
            return super()._update_properties(*events, doc=doc)
        return self._process_param_change({e.name: e.new for e in events})


class AliveHandler(RequestHandler):
    """``/alive``: what a page that lost its connection asks until the server answers (then it loads
    itself again). Nothing is made for it: no session, no document."""

    def get(self):
        self.set_header("Cache-Control", "no-store")
        self.set_status(204)
        self.finish()


def qr_svg(url: str) -> str | None:
    """The join link as a QR code (SVG), where ``segno`` is installed (the ``panel`` extra has it)."""
    try:
        import segno
    except ImportError:
        return None
    return segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", border=2)


@lru_cache(maxsize=64)
def _qr_cached(url: str):
    return qr_svg(url)


def qr_text(url: str) -> str:
    """The QR code for a terminal (two rows per line), or nothing without ``segno``."""
    try:
        import segno
    except ImportError:
        return ""
    import io

    buf = io.StringIO()
    segno.make(url, error="m").terminal(out=buf, compact=True, border=2)
    return buf.getvalue()


def lan_address() -> str:
    """This machine's address on the local network (the one a route to the outside would use;
    nothing is sent), or 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class LiveServer:
    """The registry and its pages in one Panel server."""

    def __init__(self, data, host: str = "127.0.0.1", port: int = 5007, public_url: str | None = None,
                 expire_hours: float = EXPIRE_HOURS, new_key: bool = False):
        self.store = Store(data)
        key = self.store.meta("teacher_key")
        if key is None or new_key:
            key = secrets.token_urlsafe(18)
            self.store.set_meta("teacher_key", key)
        self.host, self.port = host, port
        shown = lan_address() if host in ("0.0.0.0", "", "::") else host
        self.base = (public_url or f"http://{shown}:{port}").rstrip("/")
        # the board's summaries (replaying result codes, the solver, the advisor) run in a process
        # of their own: in a thread they would hold Python's lock while students wait
        self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_follow_parent, initargs=(os.getpid(),))
        # a student's advice at a table, in a process of its own (advice.py: why not the board's)
        self.advice = AdviceWorker()
        self.collector = Collector()
        self.loop = None
        self.registry = Registry(self.store, key, f"{self.base}/join", schedule=self._schedule,
                                 offload=self._offload, expire_hours=expire_hours, advise=self._advise)
        self.registry.qr_svg = _qr_cached

    @property
    def teacher_link(self) -> str:
        return f"{self.base}/klasse?key={self.registry.teacher_key}"

    @property
    def join_link(self) -> str:
        room = next(iter(self.registry.rooms), None)
        return f"{self.base}/join" + (f"?room={room}" if room else "")

    # --- the loop ---
    def _schedule(self, delay: float, fn) -> None:
        (self.loop or IOLoop.current()).call_later(delay, _logged(fn))

    def _offload(self, fn, done) -> None:
        loop = self.loop or IOLoop.current()
        future = self.executor.submit(fn)

        def back(f):
            try:
                result = f.result()
            except Exception:  # noqa: BLE001 - a failed summary is logged; the board keeps the last one
                log.exception("the board's summary failed")
                return
            loop.add_callback(_logged(lambda: done(result)))
        future.add_done_callback(back)

    def _commit(self) -> None:
        """Commit the store's open group. A commit that fails leaves the rooms in memory ahead of
        the store, with pages waiting to be told: the server stops rather than go on from there
        (nothing uncommitted was shown; a restart rebuilds the rooms from the store, and the pages
        come back by themselves)."""
        try:
            self.store.commit()
        except Exception:  # noqa: BLE001 - any failure to commit ends the server, see above
            log.critical("the store could not commit: the server stops", exc_info=True)
            os._exit(70)

    def _advise(self, job, done):
        return self.advice.run(job, done, self.loop or IOLoop.current())

    # --- the pages ---
    def _page(self, session: Session):
        registry = self.registry
        page = LivePage(sizing_mode="stretch_width", offline=OFFLINE_WORDS)
        doc = pn.state.curdoc
        waiting, deferred = [False], [False]
        frames = Frames()  # what the page was sent: the whole view, then what changed

        store = self.store

        def refresh():
            if store.open:
                # changes made since this redraw was asked for are not committed yet, and what the
                # page shows would hold them too: it waits for their group once; a page that finds
                # yet another group open then (a busy loop) commits it rather than wait again
                if not deferred[0]:
                    deferred[0] = True
                    store.when_stored(lambda: doc.add_next_tick_callback(_logged(refresh)))
                    return
                self._commit()
            waiting[0] = deferred[0] = False
            text = frames.next(registry.view(session))
            if text is not None:
                page.put(view=text)

        def push():
            # a page is told of a change only once it is committed (Store.when_stored): a page
            # never shows what a kill -9 could take back
            if not waiting[0]:
                waiting[0] = True
                store.when_stored(lambda: doc.add_next_tick_callback(_logged(refresh)))

        session.push = push
        registry.attach(session)
        page.param.watch(lambda e: registry.handle(session, e.new), "event")
        page.param.watch(lambda e: page.put(pong=e.new), "ping")

        def resync(_):
            frames.resync()
            push()
        page.param.watch(resync, "resync")
        pn.state.on_session_destroyed(lambda ctx: registry.detach(session))
        self._commit()  # (the first view, too, shows only what is committed)
        page.view = frames.next(registry.view(session))
        return page

    def student_app(self):
        args = _args()
        return self._page(Session("student", room=None, lang=args.get("lang", "de")))

    def teacher_app(self):
        args = _args()
        session = self.registry.teacher_session(args.get("key"), args.get("lang", "de"), room=args.get("room"))
        return self._page(session)

    def projector_app(self):
        args = _args()
        table = args.get("table", "")
        session = self.registry.projector_session(args.get("t"), args.get("lang", "de"), room=args.get("room"),
                                                  table_no=int(table) if table.isdigit() and len(table) < 4 else None)
        return self._page(session)

    def serve(self, start: bool = True):
        from bokeh.server.connection import ServerConnection

        ServerConnection.error = _plain_error  # no traceback or path to a page (see _plain_error)
        _skip_plain_freezes()
        pn.extension(notifications=False)
        # Bokeh's own reconnect stays off. It stops after five attempts (about 30 s). And its message
        # receiver outlives the socket: a server killed in the middle of a message (a message is
        # three frames, and Tornado runs the event loop between them) leaves the first frame in it,
        # the reconnected socket's ACK is read as the rest of that message ("First message was not an
        # ACK"), and the close(1002) that should follow throws in a browser (only 1000 and 3000-4999
        # are allowed): the page stays on an open socket that never gets a document, for good. A page
        # that lost its connection asks /alive until the server answers and then loads itself again
        # (live.js): a fresh document and receiver; its seat token brings it back to its seat.
        pn.config.reconnect = False
        origins = ["*"] if self.host in ("0.0.0.0", "", "::") else [f"{self.host}:{self.port}", f"localhost:{self.port}",
                                                                     f"127.0.0.1:{self.port}"]
        server = pn.serve({"join": self.student_app, "klasse": self.teacher_app, "beamer": self.projector_app},
                          port=self.port, address=self.host or None, websocket_origin=origins, show=False,
                          start=False, title={"join": "Spieltisch – Klasse", "klasse": "Spieltisch – Klassenbrett",
                                              "beamer": "Spieltisch – Beamer"},
                          verbose=False, websocket_max_message_size=MAX_MESSAGE_BYTES,
                          # "/" is the students' way in: Panel's own index page would list the apps and
                          # load fonts and scripts from outside hosts (a classroom may have no internet)
                          extra_patterns=[(r"/?", RedirectHandler, {"url": "/join"}), (r"/alive", AliveHandler)],
                          session_token_expiration=TOKEN_EXPIRATION_S)
        self.loop = server.io_loop
        # changes are committed in groups on the loop (store.py: one sync to the disk for the
        # changes of a few milliseconds, not one for each)
        self.store.group_commits(lambda delay, fn: self.loop.call_later(delay, self._commit))
        self.executor.submit(_ready)  # the worker starts now, not when the first game ends
        self.advice.start()
        PeriodicCallback(_logged(self.registry.expire), EXPIRE_CHECK_S * 1000).start()
        # Python's collector out of the way of what has lived a while (collector.py: its full
        # collections held the loop for 0.2 s every few seconds)
        self.collector.start()
        server.start()
        if start:
            try:
                server.io_loop.start()
            finally:
                self._commit()
                self.collector.stop()
                self.executor.shutdown(wait=False, cancel_futures=True)
                self.advice.shutdown()
        return server


def _plain_error(self, message, text: str):
    """Bokeh answers a message its handlers could not take (a malformed PATCH-DOC) with an ERROR whose
    content holds the exception's text and the server's Python traceback, paths and all: a page gets
    "malformed message" and nothing of the server (issue 33). The server's log keeps the details."""
    out = self.protocol.create("ERROR", message.header["msgid"], "malformed message")
    out.content["traceback"] = None
    return out


PLAIN = (str, int, float, bool, type(None))


def _skip_plain_freezes() -> None:
    """Panel wraps every change of a page's properties (each redraw, each incoming event: Panel
    echoes it back to the model) in ``freeze_doc``, which reads each property's old value on the
    outer Bokeh model to find references to other models. A page's properties (the view, the event,
    the heartbeat) live on its data model, so that read fails, and Bokeh answers a failed read with a
    "did you mean" search (difflib): about 11 % of the event loop in the load benchmark's shared game
    (``benchmarks/live_load.py --profile``). With plain values (text, numbers) that the outer model
    does not have there is nothing to freeze; everything else goes through Panel's own."""
    import panel.custom as custom

    original = getattr(custom, "freeze_doc", None)
    if original is None or getattr(original, "plain_skipped", False):
        return  # (a Panel without it, or done already)

    @contextmanager
    def freeze_doc(doc, model, properties, force=False):
        if force or not all(isinstance(v, PLAIN) and type(model).lookup(k, raises=False) is None
                            for k, v in properties.items()):
            with original(doc, model, properties, force=force):
                yield
        else:
            yield
    freeze_doc.plain_skipped = True
    custom.freeze_doc = freeze_doc


def _ready() -> bool:
    return True


def _follow_parent(parent: int) -> None:
    """In the board's worker process: end when the server ends, even by ``kill -9`` (which leaves
    a worker of a process pool running otherwise)."""
    import threading

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def _args() -> dict:
    """The page's URL parameters, decoded (only short ones: a key, a code, a number)."""
    out = {}
    for name, values in (pn.state.session_args or {}).items():
        if values and len(values[0]) <= 200:
            out[name] = values[0].decode("utf-8", "replace")
    return out


def _logged(fn):
    def run():
        try:
            fn()
        except Exception:  # noqa: BLE001 - one failed callback must not stop the server
            log.exception("a live class callback failed")
    return run


def main(data, host: str, port: int, public_url: str | None, expire_hours: float, new_key: bool, out) -> int:
    """``spieltisch class serve``: print the links and serve until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("bokeh", "tornado.access", "panel"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    live = LiveServer(data, host, port, public_url, expire_hours, new_key)
    if not live.registry.rooms:
        live.registry.create_room()
    join = live.join_link
    print(f"Lehrkraft / teacher:  {live.teacher_link}", file=out)
    print(f"Beitreten / join:     {join}", file=out)
    qr = qr_text(join)
    if qr:
        print(qr, file=out)
    print(f"Daten / data:         {os.path.abspath(live.store.path)}", file=out)
    out.flush()
    started = time.time()
    try:
        live.serve()
    except KeyboardInterrupt:
        pass
    log.info("stopped after %.0f s", time.time() - started)
    return 0
