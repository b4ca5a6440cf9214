"""Load of the live class for a school: many rooms of simulated students on loopback against the real server.

    python benchmarks/live_load.py                          # 10 rooms of 30 students (300 pages + 10 boards)
    python benchmarks/live_load.py --rooms 2 --students 12 --seconds 20
    python benchmarks/live_load.py --profile /tmp/live.prof # the server under cProfile (pstats file)

Starts ``spieltisch class serve`` on 127.0.0.1 (a child process, its own data folder in a temporary
directory) and opens, per room, a teacher's board and ``--students`` student pages as Bokeh websocket
clients (tests/harness/livewire.py: the protocol the pages' script speaks), all in one asyncio loop in
this process. The rooms run side by side, as a school's classes do. Phases, each bounded in time:

1. a number poll: every student answers once, at a random moment within the first 5 s; then the
   teacher reveals;
2. a lesson poll (a lesson question's options): the same;
3. a shared Würfel Joker 2 game: every student plays their own game of the class round, clicking as
   a player does with a think time of 0.5 to 2 s between clicks, for at most ``--seconds``;
4. tables of 4 students, the rooms in turn at the three games with hidden cards (Skip-Bo Masters,
   Schraube Locker, Scratch Island: docs/hidden-information.md) and Würfel Joker 2, the same way;
   a row per game besides the phase's.

Every page sends its heartbeat as live.js does (a ``ping`` every ``PING_MS``, answered with a
``pong``), from a random moment on.

**Latency** is from a student's event leaving the client to the first frame of their room's board
that shows it: the answer in the board's list, a shared game's move count, a table's move count (the
move is the last click a student of that table sent before the board shows it); the target is on
this one. **Own page** is from the event leaving to the student's own page showing the server's
answer (the view that acknowledges it): what the student waits for. **Server CPU** is
the CPU time of the server and its worker process over the phase's wall time (100 % = one core),
in brackets the server's own process alone (its one event loop, which every page waits for),
**memory** their peak resident size together, sampled every 0.25 s. The **longest GC pause** is the
longest time the server's garbage collector held its loop, from the server's log (it logs a pause
over 50 ms: spieltisch.ui.live.collector; its full sweep, every ten minutes, falls outside a run of
this length unless ``--sweep`` is given). Targets on a 2-core machine:
p95 ≤ 250 ms, memory ≤ 600 MB. The clients run on the same machine (their own CPU is printed too),
and so does whatever else runs: the load average before and after is printed with the table.

Needs the ``bench`` extra (psutil) besides ``panel``: ``pip install -e ".[panel,bench]"`` (``make
test-venv`` installs both). Talks only to 127.0.0.1 and stops by itself (each phase is bounded, and
the whole run by ``--seconds``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shlex
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

import psutil
from tornado.websocket import WebSocketClosedError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness.livewire import Page, Server, next_click, run  # noqa: E402
from spieltisch.ui.live.collector import LOG_MS  # noqa: E402

P95_TARGET_MS = 250
MEMORY_TARGET_MB = 600
# the server logs a pause of its garbage collector longer than LOG_MS (spieltisch.ui.live.collector)
COLLECTOR_PAUSE = re.compile(r"collector held the loop for (\d+) ms")
MAX_STUDENTS = 60
MAX_ROOMS = 20
TABLE_GAMES = ("skip-bo-masters", "schraube-locker", "scratch-island", "wuerfel-joker-2")
GAME_NAMES = {"skip-bo-masters": "Skip-Bo Masters", "schraube-locker": "Schraube Locker",
              "scratch-island": "Scratch Island", "wuerfel-joker-2": "Würfel Joker 2"}
SEATS = 4
PHASES = ("poll", "lesson", "game", "table")

# The server under cProfile: ``spieltisch class serve`` as the CLI runs it, the profile written
# when the benchmark stops it (SIGTERM ends the event loop with SystemExit, the finally dumps).
PROFILED = """
import cProfile, signal, sys, time
from spieltisch.ui.live import app
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
profile = cProfile.Profile(time.process_time)  # CPU time: a loaded machine's waits do not count
profile.enable()
try:
    app.main(sys.argv[2], "127.0.0.1", int(sys.argv[1]), None, 12.0, False, sys.stdout)
finally:
    profile.disable()
    profile.dump_stats({out!r})
"""


def pct(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


class Monitor:
    """The server's CPU time and peak memory (its process and the board's worker process) over one
    phase, this process's CPU time (the clients), and the longest pause of the server's garbage
    collector (from its log: spieltisch.ui.live.collector)."""

    def __init__(self, pid, output: list):
        self.proc = psutil.Process(pid)
        self.output = output  # the server's output lines, as they come
        self.me = psutil.Process()
        self.peak = 0
        self.task = None

    def _procs(self):
        procs = [self.proc]
        try:
            procs += self.proc.children(recursive=True)
        except psutil.Error:
            pass
        return procs

    def _rss(self) -> int:
        total = 0
        for p in self._procs():
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total

    def _cpu(self) -> float:
        total = 0.0
        for p in self._procs():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    async def _sample(self):
        while True:
            self.peak = max(self.peak, self._rss())
            await asyncio.sleep(0.25)

    def _loop_cpu(self) -> float:
        t = self.proc.cpu_times()  # the server's own process: its event loop (and Tornado's threads)
        return t.user + t.system

    def start(self):
        t = self.me.cpu_times()
        self.cpu0, self.me0, self.wall0, self.peak = self._cpu(), t.user + t.system, time.perf_counter(), self._rss()
        self.loop0 = self._loop_cpu()
        self.out0 = len(self.output)
        self.task = asyncio.ensure_future(self._sample())

    def stop(self) -> dict:
        self.task.cancel()
        wall = time.perf_counter() - self.wall0
        t = self.me.cpu_times()
        cpu = self._cpu() - self.cpu0
        return {"wall_s": wall, "cpu_pct": 100 * cpu / wall, "cpu_s": cpu,
                "loop_cpu_pct": 100 * (self._loop_cpu() - self.loop0) / wall,
                "client_cpu_pct": 100 * (t.user + t.system - self.me0) / wall,
                "peak_mb": max(self.peak, self._rss()) / 2 ** 20,
                "gc_max_ms": max((float(m.group(1)) for line in self.output[self.out0:]
                                  for m in [COLLECTOR_PAUSE.search(line)] if m), default=None)}


class _Marked(HTMLParser):
    """The clickable parts of a board (``data-act``) with the classes of the elements around them."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, set]] = []
        self.found: list[tuple[set, dict]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        if a.get("data-act"):
            self.found.append((classes.union(*(c for _, c in self.stack)), a))
        if tag not in self.VOID:
            self.stack.append((tag, classes))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return


def scratch_click(table: dict) -> dict | None:
    """Scratch Island as the browser tests play it (tests/harness/frontend.py ``_place_or_scratch``):
    commit a previewed motif; else the first cell the map offers; else the first die not chosen yet.
    (``next_click``'s first-clickable rule would pick and unpick the same die for ever.)"""
    if table.get("banner") or table.get("pending"):
        return None
    if any(b["token"] == "confirm" for b in table.get("buttons", [])):
        return {"type": "act", "token": "confirm"}
    parser = _Marked()
    parser.feed(table.get("board") or "")
    for around, a in parser.found:
        if "sp-map-main" in around:
            return {"type": "act", "token": a["data-act"]}
    for around, a in parser.found:
        if "sp-dice-row" in around and "data-picked" not in a:
            return {"type": "act", "token": a["data-act"]}
    return None


async def think(rng):
    await asyncio.sleep(rng.uniform(0.5, 2.0))


class Room:
    """One class: its board, its students, and what the board showed when."""

    def __init__(self, board, students, code, lesson_question):
        self.board, self.students, self.code, self.lesson_question = board, students, code, lesson_question


async def open_room(server, index: int, n: int, rng) -> Room:
    board = await Page(server.base, f"/klasse?key={server.key}").open()
    await board.wait(lambda v: v["page"] == "board")
    if index > 0:  # the server opened the first room at start (the board opens it); the others are new
        await board.act({"type": "room_new"})
    await board.wait(lambda v: v["room"])
    code = board.view["room"]["code"]
    lesson = board.view["lesson_questions"][index % len(board.view["lesson_questions"])]["id"]
    students = []
    for i in range(n):
        page = await Page(server.base, "/join").open()
        page.name = f"S{i + 1:02d}"
        await page.act({"type": "join", "room": code, "name": page.name})
        students.append(page)
    return Room(board, students, code, lesson)


async def poll_room(room: Room, rng, seconds, spec, answer_of):
    await room.board.act({"type": "round_new", "spec": spec})
    for s in room.students:
        await s.wait(lambda v: v["page"] == "poll" and v["status"] == "open")
    sent, seen = {}, {}

    def on_board(view, t):
        for row in (view.get("room") or {}).get("students", []):
            if row.get("answer") is not None and row["name"] in sent and row["name"] not in seen:
                seen[row["name"]] = t
    room.board.listener = on_board

    own = []

    async def answer(s):
        await asyncio.sleep(rng.uniform(0, 5))
        sent[s.name] = time.perf_counter()
        await s.act({"type": "answer", "value": answer_of(s)})
        own.append(1000 * (time.perf_counter() - sent[s.name]))
    await asyncio.wait_for(asyncio.gather(*(answer(s) for s in room.students)), seconds)
    deadline = time.perf_counter() + 30
    while len(seen) < len(room.students) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    room.board.listener = None
    await room.board.act({"type": "reveal"})
    return {"events": len(sent), "shown": len(seen), "latency": {"": [1000 * (seen[k] - sent[k]) for k in seen]},
            "own": own}


async def phase_poll(rooms, rng, monitor, seconds, lesson: bool):
    monitor.start()
    if lesson:
        parts = [poll_room(r, random.Random(rng.random()), seconds, {"kind": "poll", "question_id": r.lesson_question},
                           lambda s, r=r: rng.randrange(len(r.students[0].view["options"]))) for r in rooms]
    else:
        parts = [poll_room(r, random.Random(rng.random()), seconds,
                           {"kind": "poll", "type": "number", "question": "Wie viele Punkte?"},
                           lambda s: str(rng.randint(-200, 0))) for r in rooms]
    out = await asyncio.gather(*parts)
    await asyncio.sleep(1)  # the reveals' redraws (a lesson poll's exact value comes from the worker)
    return {**merge(out), **monitor.stop()}


def merge(results: list[dict]) -> dict:
    latency, by_game, own = {}, {}, []
    for r in results:
        own += r["own"]
        for key, values in r["latency"].items():
            latency.setdefault(key, []).extend(values)
        for key, n in r.get("by_game", {}).items():
            by_game[key] = by_game.get(key, 0) + n
    return {"events": sum(r["events"] for r in results), "shown": sum(r["shown"] for r in results),
            "finished": sum(r.get("finished", 0) for r in results), "latency": latency, "by_game": by_game,
            "own": own}


async def play(s, rng, stop_at, clicks, clicker, own):
    """A student clicking as a player does until their game ends or time is up; ``clicks``
    collects (name, time sent), ``own`` the time until the student's own page answered (ms)."""
    while time.perf_counter() < stop_at:
        table = s.view.get("table") or {}
        if table.get("banner"):
            return
        click = clicker(table)
        if click is None:
            try:
                await s.wait_views(1, timeout=max(0.1, stop_at - time.perf_counter()))
            except TimeoutError:
                return
            continue
        await think(rng)
        sent = time.perf_counter()
        clicks.append((s.name, sent))
        await s.act({"type": "table", "event": click})
        own.append(1000 * (time.perf_counter() - sent))


async def game_room(room: Room, rng, seconds, kind: str, game: str):
    if kind == "game":
        spec = {"kind": "game", "game": game}
    else:
        spec = {"kind": "table", "game": game, "players": SEATS, "humans": SEATS}
    await room.board.act({"type": "round_new", "spec": spec})
    for s in room.students:  # (a table's page has a title; the shared game's before it has none)
        await s.wait(lambda v: v["page"] == "game" and ("title" in v) == (kind == "table"))
    await room.board.wait(lambda v: (v["room"]["round"] or {}).get("kind") == kind)
    clicks = []  # (student, time sent)
    latencies, counts = [], {}
    members = {}  # table number -> student names (from the board)

    def on_board(view, t):
        rnd = (view.get("room") or {}).get("round") or {}
        rows = rnd.get("progress") if kind == "game" else rnd.get("tables")
        for row in rows or []:
            key = row["name"] if kind == "game" else row["no"]
            if kind == "table":
                members[key] = set(row["seats"])
            if row["moves"] > counts.get(key, 0):
                who = {key} if kind == "game" else members[key]
                sent = [c for name, c in clicks if name in who and c <= t]
                if sent:
                    latencies.append(1000 * (t - max(sent)))
                counts[key] = row["moves"]
    room.board.listener = on_board
    stop_at = time.perf_counter() + seconds  # (from when the room's pages show its round)
    clicker = scratch_click if game == "scratch-island" else next_click
    own = []
    await asyncio.gather(*(play(s, random.Random(rng.random()), stop_at, clicks, clicker, own) for s in room.students))
    await asyncio.sleep(1)
    room.board.listener = None
    over = sum(1 for s in room.students if (s.view.get("table") or {}).get("banner"))
    return {"events": len(clicks), "shown": len(latencies), "latency": {game: latencies}, "finished": over,
            "by_game": {game: len(clicks)}, "own": own}


async def phase_game(rooms, rng, monitor, seconds, kind):
    monitor.start()
    games = ["wuerfel-joker-2"] * len(rooms) if kind == "game" else \
        [TABLE_GAMES[i % len(TABLE_GAMES)] for i in range(len(rooms))]
    out = await asyncio.gather(*(game_room(r, random.Random(rng.random()), seconds, kind, g)
                                 for r, g in zip(rooms, games)))
    return {**merge(out), **monitor.stop()}


def ping_ms() -> int:
    """How often a page sends its heartbeat (live.js's PING_MS)."""
    js = (ROOT / "src" / "spieltisch" / "ui" / "live" / "static" / "live.js").read_text(encoding="utf-8")
    return int(re.search(r"const PING_MS = (\d+);", js).group(1))


async def heartbeat(page, rng, every_s: float) -> None:
    """A page's heartbeat, as live.js sends it (from a random moment on: the pages opened apart)."""
    await asyncio.sleep(rng.uniform(0, every_s))
    n = 0
    while True:
        n += 1
        try:
            await page.ping(n)
        except WebSocketClosedError:
            return  # (the page's connection is gone: the phase that needs it says so)
        await asyncio.sleep(every_s)


async def scenario(server, n_rooms, n, seconds, seed, phases=None):
    phases = phases or PHASES
    rng = random.Random(seed)
    t0 = time.perf_counter()
    rooms, beats = [], []
    every_s = ping_ms() / 1000
    for i in range(n_rooms):  # a room after the other: thirty students join at once per class
        room = await open_room(server, i, n, rng)
        rooms.append(room)
        beats += [asyncio.ensure_future(heartbeat(p, random.Random(rng.random()), every_s))
                  for p in room.students + [room.board]]
    joined_s = time.perf_counter() - t0
    monitor = Monitor(server.proc.pid, server.output)
    run_phase = {"poll": lambda: phase_poll(rooms, rng, monitor, seconds, lesson=False),
                 "lesson": lambda: phase_poll(rooms, rng, monitor, seconds, lesson=True),
                 "game": lambda: phase_game(rooms, rng, monitor, seconds, "game"),
                 "table": lambda: phase_game(rooms, rng, monitor, seconds, "table")}
    results = {}
    for name in PHASES:
        if name in phases:
            results[name] = await run_phase[name]()
    for beat in beats:
        beat.cancel()
    for room in rooms:
        for page in room.students + [room.board]:
            await page.close()
    return results, joined_s


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=10, help=f"1 to {MAX_ROOMS}")
    ap.add_argument("--students", type=int, default=30, help=f"per room, 1 to {MAX_STUDENTS}")
    ap.add_argument("--seconds", type=float, default=60, help="the longest a game phase runs (5 to 900)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--phases", default=",".join(PHASES),
                    help=f"which phases to run, comma-separated, in this order: {','.join(PHASES)}")
    ap.add_argument("--sweep", type=float, metavar="SECONDS",
                    help="the server's full garbage collection every SECONDS (10 to 900) instead of every ten minutes")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile and write its stats here")
    args = ap.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS or not 1 <= args.students <= MAX_STUDENTS or not 5 <= args.seconds <= 900:
        ap.error(f"--rooms is 1 to {MAX_ROOMS}, --students 1 to {MAX_STUDENTS}, --seconds 5 to 900")
    if args.sweep is not None and not 10 <= args.sweep <= 900:
        ap.error("--sweep is 10 to 900 (seconds)")
    phases = tuple(p for p in args.phases.split(",") if p)
    if not phases or any(p not in PHASES for p in phases):
        ap.error(f"--phases names one or more of {', '.join(PHASES)} (got {args.phases!r})")
    before = load()
    script = PROFILED.format(out=str(Path(args.profile).resolve())) if args.profile else None
    with tempfile.TemporaryDirectory() as data:
        env = {} if args.sweep is None else {"SPIELTISCH_GC_SWEEP_S": str(args.sweep)}
        server = Server(data, script=script, extra_env=env).start()
        try:
            # joining (about 1 s a page) and the polls take their time besides the games' phases
            timeout = 4 * args.seconds + 2.0 * args.rooms * args.students + 600
            results, joined_s = run(scenario(server, args.rooms, args.students, args.seconds, args.seed, phases),
                                    timeout=timeout)
        finally:
            server.stop()
    after = load()
    command = "python benchmarks/live_load.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    if args.json:
        print(json.dumps({"command": command, "load_before": before, "load_after": after, "cores": os.cpu_count(),
                          "joined_s": joined_s,
                          "results": {k: {**v, "latency": {g: sorted(x) for g, x in v["latency"].items()}}
                                      for k, v in results.items()}}))
        return 0
    rooms, n = args.rooms, args.students
    names = {"poll": "number poll", "lesson": "lesson poll", "game": "shared Würfel Joker 2",
             "table": f"tables of {SEATS}, all games"}
    print(f"command: {command.strip()}")
    print(f"machine: {os.cpu_count()} cores; load average before {before}, after {after}; "
          f"{rooms * n} students and {rooms} boards joined in {joined_s:.0f} s")
    print()
    print("| phase | rooms | students | events | timed | p50 ms | p95 ms | max ms | own page p50/p95 ms "
          "| server CPU % (its loop's) | server peak MB "
          "| server CPU ms per event | clients' CPU % | longest GC pause ms | games over "
          "| target met (p95 ≤ 250 ms, ≤ 600 MB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    fmt = lambda x: "–" if x is None else f"{x:.0f}"  # noqa: E731
    for key, r in results.items():
        everything = [x for values in r["latency"].values() for x in values]
        rows = [(names[key], everything, r["events"], r["shown"])]
        if key == "table":
            played = [g for g in TABLE_GAMES if g in r["latency"]]
            per_game = {g: sum(1 for i in range(rooms) if TABLE_GAMES[i % len(TABLE_GAMES)] == g) for g in played}
            rows += [(f"… {GAME_NAMES[g]} ({per_game[g]} rooms)", r["latency"][g], r["by_game"][g], len(r["latency"][g]))
                     for g in played]
        for i, (name, lat, events, shown) in enumerate(rows):
            p50, p95 = pct(lat, 0.5), pct(lat, 0.95)
            ok = p95 is not None and p95 <= P95_TARGET_MS and r["peak_mb"] <= MEMORY_TARGET_MB
            whole = i == 0
            print(f"| {name} | {rooms if whole else ''} | {rooms * n if whole else ''} | {fmt(events)} | {shown} "
                  f"| {fmt(p50)} | {fmt(p95)} | {fmt(max(lat) if lat else None)} "
                  f"| {fmt(pct(r['own'], 0.5)) + ' / ' + fmt(pct(r['own'], 0.95)) if whole else ''} "
                  f"| {fmt(r['cpu_pct']) + ' (' + fmt(r['loop_cpu_pct']) + ')' if whole else ''} "
                  f"| {fmt(r['peak_mb']) if whole else ''} "
                  f"| {fmt(1000 * r['cpu_s'] / max(1, r['events'])) if whole else ''} "
                  f"| {fmt(r['client_cpu_pct']) if whole else ''} "
                  f"| {(fmt(r['gc_max_ms']) if r['gc_max_ms'] else f'< {LOG_MS}') if whole else ''} | {r['finished'] if whole and key in ('game', 'table') else '–'} "
                  f"| {'yes' if ok else 'NO'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
