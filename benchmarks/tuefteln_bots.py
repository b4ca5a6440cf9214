"""Tüfteln bots: mean solo score with 95% CI per side, the strong bot's rating tiers, speed.

    PYTHONPATH=src python benchmarks/tuefteln_bots.py [--games 1000] [--strong-games 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from spieltisch.core.bots import RandomBot
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import mean_ci, proportion_ci
from spieltisch.games.tuefteln import Tuefteln, bots, scoring


def solo_scores(side: str, factory, games: int, seed: int):
    """Scores of ``games`` seeded solo games; the bot sees only observations.
    Returns (scores, CPU seconds per move)."""
    game = Tuefteln(1, {"side": side})
    bot = factory(game)
    scores, think, moves = [], 0.0, 0
    for chance_seed, bot_seed in game_seeds(seed, games):
        state, rng, bot_rng = game.new_initial_state(), Rng(chance_seed), Rng(bot_seed)
        while not state.is_terminal():
            if state.throw is None:
                state._apply(state.sample_chance(rng))
            else:
                legal = state._legal_actions()
                t = time.process_time()  # CPU time: the machine may be shared
                a = bot.act(state.observation(0), legal, bot_rng)
                think += time.process_time() - t
                moves += 1
                state._apply(a)
        scores.append(state.scores()[0])
    return scores, think / moves


def random_games_per_second(side: str, seconds: float = 2.0) -> float:
    game, rng, n, t0 = Tuefteln(1, {"side": side}), Rng(1), 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.throw is None:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
        n += 1
    return n / (time.perf_counter() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--strong-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    factories = {"random": lambda g: RandomBot(), "greedy": bots.greedy, "strong": bots.strong}
    print(f"{'side':<5}{'bot':<8}{'games':>6}  {'mean':>7}  {'95% CI':<17}{'ms/move':>8}  (CPU time)")
    tiers = {}
    for side in "AB":
        for name, factory in factories.items():
            n = args.strong_games if name == "strong" else args.games
            scores, per_move = solo_scores(side, factory, n, args.seed)
            est = mean_ci(scores)
            print(f"{side:<5}{name:<8}{n:>6}  {est.mean:7.2f}  [{est.lo:6.2f}, {est.hi:6.2f}] {per_move * 1000:8.2f}",
                  flush=True)
            if name == "strong":
                tiers[side] = (Counter(scoring.rating(s)["tier"] for s in scores), n)
    print("\nstrong bot, share of solo games per rating tier (95% CI)")
    print(f"{'points':<8}{'rating':<22}" + "".join(f"{'side ' + s:<24}" for s in tiers))
    for i, (_, de, en) in enumerate(scoring.RATINGS):
        cells = ""
        for side, (counts, n) in tiers.items():
            ci = proportion_ci(counts[i], n)
            cells += f"{ci.mean:6.1%} [{ci.lo:5.1%}, {ci.hi:5.1%}]   "
        print(f"{scoring.tier_label(i):<8}{de:<22}" + cells)
    for side in "AB":
        print(f"random full solo games per second, side {side}: {random_games_per_second(side):.0f}")


if __name__ == "__main__":
    main()
