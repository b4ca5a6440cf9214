"""Scratch Island: does the strong bot's last-round rule pay? Strong bots play a game until its end
is fixed (a fourth chest is open: ``rounds_left`` is known); from there the game is played out twice
on the same maps with the same chance seed: once by strong bots, once by strong bots with the rule
switched off (they then value progress and keys in their last use of dice too). The points scored
after that moment, per player, compared pairwise; under each reading of the end (D9, option
``end``), 4 players, fixed seeds.

    PYTHONPATH=src python benchmarks/scratch_island_last_round.py [--games 200] [--seed 0]

Prints, over the games whose end was fixed before they ended, the mean points per player gained from
the fixed end on, with and without the rule, and the mean paired difference (per game, averaged over
its players) with its 95 % interval. Maps and dice are the project's reconstruction.
"""

from __future__ import annotations

import argparse

from spieltisch.core.match import Match
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import mean_ci
from spieltisch.games.scratch_island import ScratchIsland
from spieltisch.games.scratch_island.bots import StrongBot


class NoLastRound(StrongBot):
    """The strong bot as if the end were always open (``rounds_left`` hidden from it)."""

    def act(self, observation, legal_actions, rng):
        return super().act({**observation, "rounds_left": None}, legal_actions, rng)


def play_out(state, bot, chance_seed: int, bot_seed: int) -> list:
    """Play ``state`` (a copy) to its end with ``bot`` in every seat; the final scores."""
    s = state.clone()
    chance, rng = Rng(chance_seed), Rng(bot_seed)
    while not s.is_terminal():
        p = s.current_player()
        if p < 0:
            s.apply_action(s.sample_chance(chance))
        else:
            s.apply_action(bot.act(s.observation(p), s.legal_actions(), rng))
    return s.scores()


def compare(games: int, seed: int, end: str, players: int = 4):
    game = ScratchIsland(players, {"end": end})
    strong, without = StrongBot(game), NoLastRound(game)
    gains = {"rule": [], "none": []}
    diffs = []
    for cs, bs in game_seeds(seed, games):
        m = Match(game, seed=cs)
        rng = Rng(bs)
        s = m.state
        while not s.is_terminal() and s.rounds_left() is None:
            p = s.current_player()
            m.step_chance() if p < 0 else m.apply(strong.act(s.observation(p), s.legal_actions(), rng))
        if s.is_terminal():
            continue
        start = s.scores()
        a = play_out(s, strong, cs + 1, bs + 1)
        b = play_out(s, without, cs + 1, bs + 1)
        # per game, the mean over its players (the players of one game are not independent samples)
        gains["rule"].append(sum(a[p] - start[p] for p in range(players)) / players)
        gains["none"].append(sum(b[p] - start[p] for p in range(players)) / players)
        diffs.append(gains["rule"][-1] - gains["none"][-1])
    return gains, diffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print(f"{'end':<11}{'games':>8}  {'gain with rule':>14}  {'gain without':>12}  {'difference':>10}  95% CI")
    for end in ("all_rolled", "this_roll"):
        gains, diffs = compare(args.games, args.seed, end)
        a, b, d = mean_ci(gains["rule"]), mean_ci(gains["none"]), mean_ci(diffs)
        print(f"{end:<11}{len(diffs):>8}  {a.mean:14.3f}  {b.mean:12.3f}  {d.mean:10.3f}  [{d.lo:.3f}, {d.hi:.3f}]",
              flush=True)


if __name__ == "__main__":
    main()
