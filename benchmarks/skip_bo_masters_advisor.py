"""Skip-Bo Masters advisor: how long one live ranking takes, and how many options it stars.

    PYTHONPATH=src python benchmarks/skip_bo_masters_advisor.py [--games 6] [--every 3] [--players 4]

The positions are decisions of real seeded bot games (two strong, two greedy bots), every ``every``-th
decision with two options or more, turn starts included (the first decision after the hand is filled).
Each is advised as the Play page does (the view's live settings), in CPython; the Pyodide column
multiplies by 1.85 (measured for this engine by benchmarks/advisor_latency.py's kind of run). The
Play page's target: p95 <= 2 s in Pyodide, with progress reported while it works.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spieltisch.core.game import CHANCE
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.games.skip_bo_masters import analysis
from spieltisch.games.skip_bo_masters.engine import SkipBoMasters
from spieltisch.games.skip_bo_masters.view import SkipBoMastersView

PYODIDE = 1.85


def positions(players: int, games: int, every: int, options: dict, seed: int = 0):
    """(observation, turn start?) of every ``every``-th decision with two options or more."""
    game = SkipBoMasters(players, options)
    names = ["strong", "greedy"] * players
    out = []
    for g in range(games):
        bots = [make_bot(game, names[(q + g) % len(names)]) for q in range(players)]
        s, rng, k = game.new_initial_state(), Rng(seed + g), 0
        last_turn = None
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s._apply(s.sample_chance(rng))
                continue
            legal = s._legal_actions()
            start = (s.turn, len(s.rounds_log)) != last_turn
            last_turn = (s.turn, len(s.rounds_log))
            if len(legal) > 1:
                if k % every == 0:
                    out.append((s.observation(p), start))
                k += 1
            s._apply(bots[p].act(s.observation(p), legal, rng))
    return game, out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    args = ap.parse_args(argv)
    view = SkipBoMastersView()
    print(f"{'players':>7} {'rules':<14} {'positions':>9} {'options':>11} {'starred':>8} {'mean s':>7} "
          f"{'p50 s':>6} {'p90 s':>6} {'p95 s':>6} {'max s':>6} {'p95 Pyodide':>11} {'progress calls':>14}")
    for players in args.players:
        for label, options in (("default", {}), ("must_play off", {"must_play": False})):
            game, todo = positions(players, args.games, args.every, options)
            settings = view.advice_columns(game)[0]["settings"]
            times, opts, stars, calls = [], [], [], []
            for obs, _ in todo:
                seen = []
                t = time.process_time()  # CPU time: what the ranking costs, whatever else runs
                advice = analysis.advise(game, obs, **settings, progress=lambda d, n: seen.append(d))
                times.append(time.process_time() - t)
                opts.append(len(advice.options))
                stars.append(sum(o.best for o in advice.options))
                calls.append(len(seen))
            print(f"{players:>7} {label:<14} {len(todo):>9} {f'{min(opts)}-{statistics.median(opts):g}-{max(opts)}':>11} "
                  f"{statistics.mean(stars):>8.2f} {statistics.mean(times):>7.3f} {pct(times, .5):>6.3f} "
                  f"{pct(times, .9):>6.3f} {pct(times, .95):>6.3f} {max(times):>6.3f} "
                  f"{PYODIDE * pct(times, .95):>11.2f} {min(calls):>7}-{max(calls)}")
            starts = [t for t, (_, st) in zip(times, todo) if st]
            if starts:
                print(f"{'':>7} {'':<14} turn starts: {len(starts)}, p95 {pct(starts, .95):.3f} s, max {max(starts):.3f} s")
    # the game review after a game: every decision of seat 0 (the human) with the view's review settings
    from spieltisch.core.advice import review
    from spieltisch.core.match import Match
    game = SkipBoMasters(4)
    match = Match(game, seed=1)
    match.play([make_bot(game, n) for n in ("greedy", "strong", "greedy", "strong")], Rng(2))
    t = time.process_time()
    rv = review(match, players=[0], **view.review_settings(game))
    dt = time.process_time() - t
    print(f"review of one 4-player game, seat 0: {len(rv)} decisions, {dt:.1f} s CPU in CPython "
          f"({PYODIDE * dt:.0f} s in Pyodide), {dt / max(len(rv), 1):.3f} s per decision")
    print("options: min-median-max; starred: mean number of options marked best (ties); seconds of CPU "
          "time in CPython (wall time on a busy machine is longer); Pyodide = 1.85 x CPython")


if __name__ == "__main__":
    main()
