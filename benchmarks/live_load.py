"""Load of the live class: simulated students on loopback against the real server.

    python benchmarks/live_load.py                    # 40 students: a poll, a shared game, 10 tables of 4
    python benchmarks/live_load.py --students 20 --seconds 60 --json

Starts ``spieltisch class serve`` (a child process, its own data folder in a temporary directory)
and opens a teacher's board and ``--students`` student pages as Bokeh websocket clients
(tests/harness/livewire.py: the protocol the pages' script speaks), all in one asyncio loop in this
process. Three phases, each bounded in time:

1. a number poll: every student answers once, at a random moment within the first 5 s;
2. a shared Würfel Joker 2 game: every student plays their own game of the class round, clicking as
   a player does with a think time of 0.5 to 2 s between clicks;
3. tables of 4 (Würfel Joker 2, four students a table), the same way.

**Latency** is from a student's event leaving the client to the first board frame that shows it:
the student's answer in the board's list, a shared game's move count, a table's move count (the
move is the last click sent before the board shows it). **Server CPU** is the server process's CPU
time over the phase's wall time (100 % = one core), **memory** its peak resident size, sampled every
0.25 s. Targets on a 2-core machine: p95 ≤ 250 ms, memory ≤ 600 MB. The machine's load average
before and after is printed with the table: the measurement shares the machine with whatever else
runs.

Needs the ``bench`` extra (psutil) besides ``panel``: ``pip install -e ".[panel,bench]"`` (``make
test-venv`` installs both).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness.livewire import Page, Server, next_click, run  # noqa: E402

P95_TARGET_MS = 250
MEMORY_TARGET_MB = 600
MAX_STUDENTS = 60


def pct(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


class Monitor:
    """The server process's CPU time and peak memory over one phase."""

    def __init__(self, pid):
        self.proc = psutil.Process(pid)
        self.peak = 0
        self.task = None

    async def _sample(self):
        while True:
            self.peak = max(self.peak, self.proc.memory_info().rss)
            await asyncio.sleep(0.25)

    def start(self):
        t = self.proc.cpu_times()
        self.cpu0, self.wall0, self.peak = t.user + t.system, time.perf_counter(), self.proc.memory_info().rss
        self.task = asyncio.ensure_future(self._sample())

    def stop(self) -> dict:
        self.task.cancel()
        t = self.proc.cpu_times()
        wall = time.perf_counter() - self.wall0
        return {"wall_s": wall, "cpu_pct": 100 * (t.user + t.system - self.cpu0) / wall,
                "peak_mb": max(self.peak, self.proc.memory_info().rss) / 2 ** 20}


async def think(rng):
    await asyncio.sleep(rng.uniform(0.5, 2.0))


async def phase_poll(board, students, rng, monitor, seconds):
    await board.act({"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viele Punkte?"}})
    for s in students:
        await s.wait(lambda v: v["page"] == "poll")
    sent, seen = {}, {}

    def on_board(view, t):
        for row in (view.get("room") or {}).get("students", []):
            if row.get("answer") is not None and row["name"] in sent and row["name"] not in seen:
                seen[row["name"]] = t
    board.listener = on_board
    monitor.start()

    async def answer(s):
        await asyncio.sleep(rng.uniform(0, 5))
        sent[s.name] = time.perf_counter()
        await s.act({"type": "answer", "value": str(rng.randint(-200, 0))})
    await asyncio.wait_for(asyncio.gather(*(answer(s) for s in students)), seconds)
    deadline = time.perf_counter() + 30
    while len(seen) < len(students) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    usage = monitor.stop()
    board.listener = None
    return {"events": len(sent), "shown": len(seen), "latency": [1000 * (seen[k] - sent[k]) for k in seen], **usage}


async def play(s, rng, stop_at, clicks):
    """A student clicking as a player does until their game ends or time is up; ``clicks``
    collects (name, time sent)."""
    while time.perf_counter() < stop_at:
        table = s.view.get("table") or {}
        if table.get("banner"):
            return
        click = next_click(table)
        if click is None:
            try:
                await s.wait_views(1, timeout=max(0.1, stop_at - time.perf_counter()))
            except TimeoutError:
                return
            continue
        await think(rng)
        clicks.append((s.name, time.perf_counter()))
        await s.act({"type": "table", "event": click})


async def phase_game(board, students, rng, monitor, seconds, kind):
    if kind == "game":
        spec = {"kind": "game", "game": "wuerfel-joker-2"}
    else:
        spec = {"kind": "table", "game": "wuerfel-joker-2", "players": 4, "humans": 4}
    await board.act({"type": "round_new", "spec": spec})
    for s in students:
        await s.wait(lambda v: v["page"] == "game")
    await board.wait(lambda v: (v["room"]["round"] or {}).get("kind") == kind)
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
    board.listener = on_board
    monitor.start()
    stop_at = time.perf_counter() + seconds
    await asyncio.gather(*(play(s, random.Random(rng.random()), stop_at, clicks) for s in students))
    await asyncio.sleep(1)
    usage = monitor.stop()
    board.listener = None
    over = sum(1 for s in students if (s.view.get("table") or {}).get("banner"))
    return {"events": len(clicks), "shown": len(latencies), "latency": latencies, "finished": over, **usage}


async def scenario(server, n, seconds, seed):
    rng = random.Random(seed)
    board = await Page(server.base, f"/klasse?key={server.key}").open()
    await board.wait(lambda v: v["page"] == "board" and v["room"])
    room = board.view["room"]["code"]
    students = []
    for i in range(n):
        page = await Page(server.base, "/join").open()
        page.name = f"S{i + 1:02d}"
        await page.act({"type": "join", "room": room, "name": page.name})
        students.append(page)
    monitor = Monitor(server.proc.pid)
    results = {}
    results["poll"] = await phase_poll(board, students, rng, monitor, seconds)
    results["game"] = await phase_game(board, students, rng, monitor, seconds, "game")
    results["table"] = await phase_game(board, students, rng, monitor, seconds, "table")
    for page in students + [board]:
        await page.close()
    return results


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=40, help=f"1 to {MAX_STUDENTS}")
    ap.add_argument("--seconds", type=float, default=120, help="the longest a game phase runs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not 1 <= args.students <= MAX_STUDENTS or not 5 <= args.seconds <= 900:
        ap.error(f"--students is 1 to {MAX_STUDENTS}, --seconds 5 to 900")
    before = load()
    with tempfile.TemporaryDirectory() as data:
        server = Server(data).start()
        try:
            results = run(scenario(server, args.students, args.seconds, args.seed), timeout=3 * args.seconds + 600)
        finally:
            server.stop()
    after = load()
    command = "python benchmarks/live_load.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    if args.json:
        print(json.dumps({"command": command, "load_before": before, "load_after": after, "cores": os.cpu_count(),
                          "results": {k: {**v, "latency": sorted(v["latency"])} for k, v in results.items()}}))
        return 0
    names = {"poll": f"poll, {args.students} students answer",
             "game": f"shared Würfel Joker 2, {args.students} games",
             "table": f"{-(-args.students // 4)} tables of 4, Würfel Joker 2"}
    print(f"command: {command.strip()}")
    print(f"machine: {os.cpu_count()} cores; load average before {before}, after {after}")
    print()
    print("| phase | events sent | board updates timed | p50 ms | p95 ms | max ms | server CPU (% of a core) "
          "| server peak MB | games over | targets (p95 ≤ 250 ms, ≤ 600 MB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for key, r in results.items():
        lat = r["latency"]
        p50, p95 = pct(lat, 0.5), pct(lat, 0.95)
        ok = p95 is not None and p95 <= P95_TARGET_MS and r["peak_mb"] <= MEMORY_TARGET_MB
        fmt = lambda x: "–" if x is None else f"{x:.0f}"  # noqa: E731
        print(f"| {names[key]} | {r['events']} | {r['shown']} | {fmt(p50)} | {fmt(p95)} | {fmt(max(lat) if lat else None)} "
              f"| {r['cpu_pct']:.0f} | {r['peak_mb']:.0f} | {r.get('finished', '–')} | {'met' if ok else 'NOT met'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
