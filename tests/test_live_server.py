"""``spieltisch class serve`` as a real server, driven over its websockets (tests/harness/livewire.py).

The tests that only read and refuse share one server (``shared``, one per module: each start costs
seconds of the suite's bounded time); the table tests and the kill start their own, each on a free
port of 127.0.0.1 with its own data folder, and stop it (the whole process group); the clients speak Bokeh's protocol as the pages' script does, so what is
checked is what goes over the wire: the refusals a forged event gets, the frames a student's page
receives (no other seat's hand: compared with the engine's true state, rebuilt from the store), and
what a ``kill -9`` leaves.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

pytest.importorskip("panel")

from harness.livewire import (Page, Server, hand_cards, next_click, run, true_hands, views_in,  # noqa: E402
                              wait_all)
from spieltisch.cli import main  # noqa: E402

# A server that draws every seat as the plain Table does (whoever is to move): the negative control
# of the frame check below.
LEAKY = """
import sys
from spieltisch.ui.live.tables import LiveTable
from spieltisch.ui.table import Table
LiveTable.viewer = Table.viewer
from spieltisch.cli import main
sys.exit(main(["class", "serve", "--port", sys.argv[1], "--data", sys.argv[2]]))
"""


@pytest.mark.parametrize("args, message", [
    (["--host=-x"], "--host must be a host name"),
    (["--host", "a b"], "--host must be a host name"),
    (["--public-url", "javascript:alert(1)"], "--public-url must be an http(s) address"),
    (["--expire", "0"], "must be from 1 to 168"),
    (["--port", "70000"], "must be from 1 to 65535"),
])
def test_class_serve_refuses_bad_settings_before_starting(args, message, capsys, tmp_path):
    assert main(["class", "serve", "--data", str(tmp_path / "d"), *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_class_serve_refuses_a_data_file(tmp_path, capsys):
    f = tmp_path / "f"
    f.write_text("x")
    assert main(["class", "serve", "--data", str(f)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("shared")).start()
    yield server
    server.stop()


async def teacher_page(server, own_room: bool = False) -> Page:
    """The board with the server's one room open (made at the start), or with ``own_room`` a new
    room of its own (a shared server's tests do not see each other's rooms and rounds)."""
    page = await Page(server.base, f"/klasse?key={server.key}").open()
    await page.wait(lambda v: v["page"] == "board" and (v.get("room") or own_room))
    if own_room:
        before = {r["code"] for r in page.view["rooms"]}
        await page.send({"type": "room_new"})
        await page.wait(lambda v: v.get("room") and v["room"]["code"] not in before)
    return page


async def join(server, room: str, names) -> list[Page]:
    pages = []
    for name in names:
        page = await Page(server.base, "/join").open()
        await page.wait(lambda v: v["page"] == "join")
        await page.send({"type": "join", "room": room, "name": name})
        await page.wait(lambda v: v["page"] != "join" and "token" in v)
        page.token = page.view["token"]
        pages.append(page)
    return pages


def test_the_server_prints_the_teacher_link_and_the_join_link_with_its_qr_code(shared):
    pytest.importorskip("segno")
    server = shared
    out = "".join(server.output)
    assert server.teacher.startswith(f"http://127.0.0.1:{server.port}/klasse?key=") and len(server.key) >= 20
    assert server.join.startswith(f"http://127.0.0.1:{server.port}/join?room=")
    assert "▀" in out or "█" in out  # the QR code, in the terminal

    async def go():
        board = await teacher_page(server)
        assert board.view["room"]["qr"].lstrip().startswith("<svg")
        assert board.view["room"]["join_url"] == server.join
        await board.close()
    run(go(), 120)
    # the same key after a restart (the printed link keeps working): checked after the kill -9 below


def test_the_root_leads_to_join_and_no_page_names_an_outside_host(shared):
    """Issue 33: ``/`` was Panel's index page, which loaded Google Fonts and cdn.holoviz.org; it now
    sends the browser to ``/join``. The pages' HTML names no host but the server's own."""
    import re
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **kw):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(f"{shared.base}/", timeout=30)
        raise AssertionError("/ did not redirect")
    except urllib.error.HTTPError as e:
        assert e.code in (301, 302) and e.headers["Location"] == "/join"
    for path in ("/join", f"/klasse?key={shared.key}", "/beamer?t=x&room=AAAAA&table=1"):
        html = urllib.request.urlopen(f"{shared.base}{path}", timeout=60).read().decode()
        # what a browser would fetch: src/href attributes, CSS url(...) and @import (not XML namespaces)
        hosts = set(re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//([A-Za-z0-9.-]+)""", html))
        hosts |= set(re.findall(r"""(?:url\(\s*["']?|@import\s+["']?)(?:https?:)?//([A-Za-z0-9.-]+)""", html))
        assert not hosts - {"127.0.0.1", "localhost"}, (path, hosts)


def test_malformed_protocol_messages_get_no_traceback_or_path(shared):
    """Issue 33: a malformed PATCH-DOC made Bokeh send the page a Python traceback with the server's
    paths. Every frame the page receives after malformed messages holds neither; the page still works."""
    server = shared

    async def go():
        page = await Page(server.base, "/join").open()
        await page.wait(lambda v: v["page"] == "join")
        start = len(page.frames)
        for content in ({"events": [{"kind": "ModelChanged", "model": {"id": "nope"}, "attr": "event", "new": 1}]},
                        {"events": "not a list"}, {"events": [{"kind": "NoSuchEvent"}]}, {}):
            await page._send("PATCH-DOC", content)
        await asyncio.sleep(1.0)
        received = "".join(text for _, text in page.frames[start:])
        assert "ERROR" in received  # the server did answer the malformed messages
        assert "Traceback" not in received and "File \"" not in received and ".py" not in received, received[:600]
        view = await page.act({"type": "lang", "lang": "en"})  # and the page goes on working
        assert view["lang"] == "en"
        await page.close()
    run(go(), 120)


def test_without_the_key_no_teacher_action_works_over_the_websocket(shared):
    server = shared
    logged = len(server.output)

    async def go():
        board = await teacher_page(server, own_room=True)  # no round yet
        before = board.view["rooms"]
        room = board.view["room"]["code"]
        for path in ("/klasse", "/klasse?key=", f"/klasse?key={server.key}x", f"/klasse?key={server.key[:-2]}",
                     f"/beamer?room={room}&table=1", f"/beamer?t=x&room={room}&table=1",
                     f"/beamer?key={server.key}&room={room}&table=1"):
            page = await Page(server.base, path).open()
            assert page.view["page"] == "denied"
            for event in ({"type": "room_new"}, {"type": "room_delete", "room": room},
                          {"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "?"}}):
                view = await page.act(event)
                assert "Lehrkraft-Schlüssel" in view["notice"]["text"]
            await page.close()
        # nothing happened: the real board (redrawn by a harmless change of its language) shows the same rooms
        await board.act({"type": "lang", "lang": "en"})
        rooms = lambda v: [(r["code"], r["students"]) for r in v["rooms"]]  # noqa: E731
        assert rooms(board.view) == [(r["code"], r["students"]) for r in before]
        assert board.view["room"]["round"] is None
        await board.close()
    run(go(), 300)
    assert "a teacher page was opened without a valid teacher key" in "".join(server.output[logged:])


def test_forged_and_junk_events_over_the_websocket_are_refused_and_change_nothing(shared):
    server = shared
    logged = len(server.output)

    async def go():
        board = await teacher_page(server, own_room=True)
        room = board.view["room"]["code"]
        await board.send({"type": "room_new"})
        await board.wait(lambda v: v["room"]["code"] != room)
        other = board.view["room"]["code"]
        (eve,) = await join(server, other, ["Eve"])
        await board.send({"type": "room_open", "room": room})
        await board.wait(lambda v: v["room"]["code"] == room)
        ana, ben = await join(server, room, ["Ana", "Ben"])
        await board.send({"type": "round_new", "spec": {"kind": "poll", "type": "choice", "question": "?",
                                                        "options": ["a", "b"]}})
        await ana.wait(lambda v: v["page"] == "poll")
        await ana.send({"type": "answer", "value": 1})
        await board.wait(lambda v: v["room"]["round"]["result"]["count"] == 1)
        refusals = [
            (ana, {"type": "answer", "value": 0, "seat": 1}, "unerwartetes Feld „seat“"),
            (ana, {"type": "answer", "value": 0, "room": other}, "unerwartetes Feld „room“"),
            (ana, {"type": "answer", "value": 0, "student": 2}, "unerwartetes Feld „student“"),
            (ana, {"type": "join", "room": other, "name": "Ana2"}, "schon im Raum"),
            (ana, {"type": "reveal"}, "„reveal“ gibt es auf dieser Seite nicht"),
            (eve, {"type": "answer", "value": 0}, "keine Runde"),
        ]
        for page, event, reason in refusals:
            view = await page.act(event)
            assert reason in view["notice"]["text"], (event, view["notice"])
        last = ana._n
        for raw, reason in (("nonsense", "kein gültiges Ereignis"), ("[]", "kein gültiges Ereignis"),
                            (json.dumps({"type": "answer", "value": 0, "n": last}), "schon einmal geschickt"),
                            (json.dumps({"type": "answer", "value": "0" * 5000, "n": last + 10 ** 9}), "zu lang")):
            seen = (ana.view.get("notice") or {}).get("n", 0)  # refused before its counter is read:
            await ana.send_raw(raw)  # the notice's own counter tells the answer
            await ana.wait(lambda v: v["notice"] and v["notice"]["n"] > seen)
            assert reason in ana.view["notice"]["text"], raw[:30]
        # a frame that is no Bokeh message at all, and one larger than a page ever sends (the server
        # takes at most 256 KB): the server drops those connections, nothing else
        junk = await Page(server.base, "/join").open()
        await junk.ws.write_message("\x00garbage")
        huge = await Page(server.base, "/join").open()
        await huge.send_raw(json.dumps({"type": "join", "room": room, "name": "Big", "n": 1, "pad": "x" * 400_000}))
        await huge.wait(lambda v: huge.ws.close_code is not None or huge._reader.done(), 30)
        # after all this the board shows one answer, Ana's "b", and Eve is in her own room only
        await board.act({"type": "lang", "lang": "en"})
        r = board.view["room"]
        assert r["round"]["result"]["count"] == 1
        assert [(s["name"], s.get("answer")) for s in r["students"]] == [("Ana", "b"), ("Ben", None)]
        assert "Big" not in json.dumps(board.view)
        for page in (board, eve, ana, ben, junk, huge):
            await page.close()
    run(go(), 300)
    log = "".join(server.output[logged:])
    assert log.count("refused") >= 10


async def play_table(students: list[Page], board: Page, moves: int, timeout: float = 600):
    """The students click as players do until the board shows ``moves`` student moves at table 1
    (or the game ends); returns the moves made. The pages take turns looking for a click (a page
    whose click is refused lets the next one try)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    turn = 0
    while loop.time() < deadline:
        row = board.view["room"]["round"]["tables"][0]
        if row["moves"] >= moves or row["over"]:
            return row["moves"]
        for i in range(len(students)):
            page = students[(turn + i) % len(students)]
            click = next_click(page.view.get("table") or {})
            if click is None:
                continue
            view = await page.act({"type": "table", "event": click})
            if (view["table"].get("message") or {}).get("kind") != "refused":
                turn = (turn + i) % len(students)
                break
        else:
            turn += 1
            await asyncio.sleep(0.05)
    raise TimeoutError("the table did not get on")


async def settled(students: list[Page]) -> None:
    """Until the table waits for a student (the server's deals are done) and every page shows that."""
    def same():
        tables = [p.view.get("table") or {} for p in students]
        return all(not t.get("pending") for t in tables) and len({t.get("step") for t in tables}) == 1
    await wait_all(students, same)


def hands_in_frames(page: Page) -> list[tuple]:
    out = []
    for view in views_in(page.texts()):
        if view.get("page") == "game":
            shown = hand_cards(view["table"]["board"])
            if shown is not None:
                out.append(tuple(sorted(int(c) for c in shown)))
    return out


def run_table(tmp_path, script=None, moves=40):
    """Three students at a Skip-Bo Masters table play ``moves`` moves; returns each student page's
    hands found in its frames, the raw frames, and the store's truth."""
    server = Server(tmp_path, script=script).start()
    try:
        async def go():
            board = await teacher_page(server)
            room = board.view["room"]["code"]
            students = await join(server, room, ["Ana", "Ben", "Cem"])
            await board.send({"type": "round_new", "spec": {"kind": "table", "game": "skip-bo-masters", "players": 3,
                                                            "humans": 3}})
            for page in students:
                await page.wait(lambda v: v["page"] == "game")
            await board.wait(lambda v: v["room"]["round"]["kind"] == "table")
            await play_table(students, board, moves)
            out = {page.view["name"]: (hands_in_frames(page), page.texts()) for page in students}
            for page in students + [board]:
                await page.close()
            return out
        seen = run(go(), 900)
    finally:
        server.stop()
    return seen, true_hands(tmp_path)


def leaks(seen, truth) -> list[str]:
    hands, secrets_, seats = truth
    names = {"Ana": 1, "Ben": 2, "Cem": 3}  # student ids in join order
    wrong = []
    for name, (shown, frames) in seen.items():
        seat = next(p for p, s in seats.items() if s == names[name])
        for hand in shown:
            if hand not in hands[seat]:
                wrong.append(f"{name} (seat {seat}) was sent {hand}, never their hand")
        text = "".join(frames)
        for value in secrets_:
            if value is not None and str(value) in text:
                wrong.append(f"{name} was sent the table's seed or secret")
    return wrong


def test_a_students_websocket_frames_hold_only_their_own_hand_and_a_leaky_server_fails(tmp_path):
    seen, truth = run_table(tmp_path / "ok", moves=24)
    assert all(len(shown) >= 10 for shown, _ in seen.values()), {k: len(v[0]) for k, v in seen.items()}
    assert leaks(seen, truth) == []
    # negative control: the same check on a server that shows each page the screen of whoever moves
    # (two moves are enough: every page shows the mover's hand from the first screen on; there every
    # page may click, and another seat's clicks that only select can keep the table from moving for
    # long on a loaded machine: a CI run once made no 8 moves in 600 s)
    seen, truth = run_table(tmp_path / "leaky", script=LEAKY, moves=2)
    found = leaks(seen, truth)
    assert any("never their hand" in w for w in found), found


def test_kill_9_mid_table_loses_nothing_acknowledged_leaves_no_worker_and_students_return_to_their_seats(tmp_path):
    psutil = pytest.importorskip("psutil")
    server = Server(tmp_path).start()
    port = server.port
    try:
        async def before_the_crash():
            board = await teacher_page(server)
            room = board.view["room"]["code"]
            students = await join(server, room, ["Ana", "Ben", "Cem"])
            await board.send({"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viel?"}})
            for i, page in enumerate(students):
                await page.wait(lambda v: v["page"] == "poll")
                await page.send({"type": "answer", "value": f"{i + 1},5"})
                await page.wait(lambda v: v.get("saved") is not None)  # acknowledged
            await board.send({"type": "round_new", "spec": {"kind": "table", "game": "skip-bo-masters", "players": 3,
                                                            "humans": 3}})
            for page in students:
                await page.wait(lambda v: v["page"] == "game")
            await board.wait(lambda v: v["room"]["round"]["kind"] == "table")
            made = await play_table(students, board, 12)
            await settled(students)
            hands = {p.view["name"]: hand_cards(p.view["table"]["board"]) for p in students}
            return room, made, hands, {p.view["name"]: p.token for p in students}
        room, made, hands, tokens = run(before_the_crash(), 600)
        # kill -9 of the server process alone: the board's worker process (started with the server)
        # ends by itself; then the rest of the process group, if anything is left
        main_process = psutil.Process(server.proc.pid)
        workers = [c for c in main_process.children(recursive=True) if "spawn_main" in " ".join(c.cmdline())]
        assert workers, "no worker process found"
        main_process.kill()
        gone, alive = psutil.wait_procs(workers, timeout=30)
        assert not alive, f"workers left running: {[p.pid for p in alive]}"
        key = server.key
        try:
            server.kill()
        except ProcessLookupError:
            pass
        assert made >= 12
        # what the store holds right after the kill: the three answers and every acknowledged move
        db = sqlite3.connect(tmp_path / "spieltisch-live.sqlite3")
        assert sorted(v for (v,) in db.execute("SELECT value FROM answers")) == ['"3/2"', '"5/2"', '"7/2"']
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == made
        db.close()
        server = Server(tmp_path, port=port).start()
        assert server.key == key  # the printed teacher link keeps working

        async def after_the_restart():
            board = await teacher_page(server)
            row = board.view["room"]["round"]["tables"][0]
            assert row["moves"] == made and not row["over"]
            students = []
            for name, token in tokens.items():  # a page that reconnects says hello with its token
                page = await Page(server.base, "/join").open()
                await page.send({"type": "hello", "token": token})
                await page.wait(lambda v: v["page"] == "game")
                assert page.view["name"] == name
                students.append(page)
            await settled(students)
            for page in students:  # the same seats, the same cards
                assert hand_cards(page.view["table"]["board"]) == hands[page.view["name"]]
            more = await play_table(students, board, made + 6)  # and the table goes on
            for page in students + [board]:
                await page.close()
            return more
        assert run(after_the_restart(), 600) >= made + 6
    finally:
        server.stop()
