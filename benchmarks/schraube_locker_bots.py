"""Schraube Locker bots: strength in seat-rotated 4-player games (95 % intervals) and speed.

One bot plays against three copies of another; its seat rotates from game to game (game g: seat
g mod 4), so no seat advantage favours it. A tie for first counts as a shared win (1/k each).
An equally strong bot wins 25 %.

    PYTHONPATH=src python benchmarks/schraube_locker_bots.py [--games 400] [--seed 0] [--options k=v ...] [--pairs strong:greedy ...]
"""

from __future__ import annotations

import argparse
import time

from spieltisch.core.options import parse_option_args
from spieltisch.core.registry import make_bot, make_game
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import mean_ci, proportion_ci

import spieltisch  # noqa: F401  (registers the games)
from schraube_locker_speed_body import random_games_per_second  # the same loop as the Pyodide side

PAIRS = [("greedy", "random"), ("strong", "random"), ("strong", "greedy")]


def seat_rotated(game, focus: str, other: str, games: int, seed: int):
    """(win shares of ``focus``, its score minus the others' mean, CPU seconds per focus move)."""
    n = game.num_players
    bots = {name: make_bot(game, name) for name in (focus, other)}
    wins, margins, think, moves = [], [], 0.0, 0
    for g, (chance_seed, bot_seed) in enumerate(game_seeds(seed, games)):
        seat = g % n
        players = [bots[focus] if p == seat else bots[other] for p in range(n)]
        state, rng, bot_rng = game.new_initial_state(), Rng(chance_seed), Rng(bot_seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state._apply(state.sample_chance(rng))
                continue
            p = state.current_player()
            legal = state._legal_actions()
            bot = players[p]
            obs = state.observation(p) if bot.uses_observation else None
            t = time.process_time()
            a = bot.act(obs, legal, bot_rng)
            if p == seat:
                think += time.process_time() - t
                moves += 1
            state.apply_action(a)
        winners = state.winners()
        wins.append(1 / len(winners) if seat in winners else 0.0)
        s = state.scores()
        margins.append(s[seat] - (sum(s) - s[seat]) / (n - 1))
    return wins, margins, think / max(moves, 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--options", nargs="*", default=[], help="game options as name=value")
    ap.add_argument("--pairs", nargs="*", default=[f"{a}:{b}" for a, b in PAIRS],
                    help="bot:opponents pairs to play (default: %(default)s)")
    args = ap.parse_args(argv)
    game = make_game("schraube-locker", 4, parse_option_args(args.options))
    print(f"Schraube Locker, 4 players, options {game.options}, seed {args.seed} (deck: reconstruction)")
    print(f"{'bot':<8}{'vs 3×':<8}{'games':>6}  {'win share':>9}  {'95% CI':<16}{'margin':>7}  {'95% CI':<16}"
          f"{'ms/move':>8}")
    for focus, other in (p.split(":") for p in args.pairs):
        wins, margins, per_move = seat_rotated(game, focus, other, args.games, args.seed)
        w = proportion_ci(sum(wins), len(wins))
        m = mean_ci(margins)
        print(f"{focus:<8}{other:<8}{len(wins):>6}  {w.mean:9.1%}  [{w.lo:5.1%}, {w.hi:5.1%}]  "
              f"{m.mean:7.2f}  [{m.lo:6.2f}, {m.hi:6.2f}] {per_move * 1000:8.2f}", flush=True)
    print(f"random 4-player games per second (CPython): {random_games_per_second(game, 3.0):.0f}")


if __name__ == "__main__":
    main()
