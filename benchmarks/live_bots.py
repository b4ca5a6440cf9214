"""How long one bot decision takes on the live class's server, per game, with the bot its tables seat.

    python benchmarks/live_bots.py                  # every game, 4 players (Tüfteln 3), 15 s each
    python benchmarks/live_bots.py --seconds 5 --games tuefteln --players 2

A live table's bots move on the server's one event loop (``Registry._pace`` → ``Table.step``), so a
slow decision makes every page of the school wait that long. This plays whole games of the view's
default bot (``View.default_bot``: the bot a live table seats) in every seat, seeds 1, 2, …, through
``PlaySession.step`` as the table does, and times each bot decision (CPU time of this process: the
machine may be shared). Chance steps are not counted. CPython only: the live server runs there.
Prints a table (``--json`` for the numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from spieltisch.core.game import TERMINAL  # noqa: E402
from spieltisch.core.registry import get_game_class  # noqa: E402
from spieltisch.ui.session import PlaySession  # noqa: E402
from spieltisch.ui.table import load_view  # noqa: E402

GAMES = ("tuefteln", "schraube-locker", "scratch-island", "skip-bo-masters", "wuerfel-joker-2")
MAX_STEPS = 5000  # a game's steps (a game that has not ended by then is cut off and counted so)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else None


def measure(game: str, players: int, seconds: float) -> dict:
    cls = get_game_class(game)
    players = max(cls.min_players, min(cls.max_players, players))
    bot = load_view(cls).default_bot
    times, games, cut, seed = [], 0, 0, 0
    end = time.process_time() + seconds
    while time.process_time() < end:
        seed += 1
        session = PlaySession(game, players, {}, seed=seed, bots={p: bot for p in range(players)})
        for _ in range(MAX_STEPS):
            p = session.match.current_player()
            if p == TERMINAL:
                games += 1
                break
            t = time.process_time()
            session.step()
            if p >= 0:
                times.append(time.process_time() - t)
            if time.process_time() >= end:
                break
        else:
            cut += 1
    return {"game": game, "bot": bot, "players": players, "games": games, "cut_off": cut, "decisions": len(times),
            "median_ms": 1000 * pct(times, 0.5), "p95_ms": 1000 * pct(times, 0.95), "max_ms": 1000 * max(times)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--players", type=int, default=4, help="per game (within the game's limits)")
    ap.add_argument("--seconds", type=float, default=15.0, help="CPU seconds per game (1 to 600)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        ap.error(f"--games names some of {', '.join(GAMES)} (got {args.games!r})")
    if not 1 <= args.seconds <= 600 or not 1 <= args.players <= 8:
        ap.error("--seconds is 1 to 600, --players 1 to 8")
    rows = [measure(g, args.players, args.seconds) for g in games]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"command: python benchmarks/live_bots.py {' '.join(argv if argv is not None else sys.argv[1:])}".strip())
    print(f"machine: {os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| game | bot | players | games | decisions | median ms | p95 ms | max ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} | {r['bot']} | {r['players']} | {r['games']}{' (+' + str(r['cut_off']) + ' cut off)' if r['cut_off'] else ''} "
              f"| {r['decisions']} | {r['median_ms']:.1f} | {r['p95_ms']:.1f} | {r['max_ms']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
