"""Screen Tüfteln strong-bot settings on seeded solo games (both sides), optionally in parallel.

    PYTHONPATH=src python benchmarks/tuefteln_tune.py --games 300 --jobs 2 '{"mu": 6}' '{"mu": 3}'

Every argument is a JSON dict of keyword arguments for ``bots.BonusBot`` (``{}`` = the defaults,
``"old"`` = the current strong bot, ``'old+{"lookahead": 32}'`` = it with changed settings). Same
seeds for every setting, so differences are paired.
Prints mean (95% CI), bonus rate and CPU ms/move (``time.process_time``) per side, and for every
setting after the first its paired difference to the first (mean and 95% CI of the per-game
differences): the dice are the same, so this is much tighter than comparing the two means.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import mean_ci
from spieltisch.games.tuefteln import Tuefteln, bots, scoring


def make(game, spec):
    if spec == "old":
        return bots.strong(game)
    if spec == "greedy":
        return bots.greedy(game)
    if isinstance(spec, str) and spec.startswith("old+"):  # the strong bot's settings with changes
        return bots.BonusBot(game, **{**bots.strong_params(game.options["side"]), **json.loads(spec[4:])})
    return bots.BonusBot(game, **spec)


def run_chunk(side, spec, seeds):
    game = Tuefteln(1, {"side": side})
    bot = make(game, spec)
    out, think, moves = [], 0.0, 0
    for chance_seed, bot_seed in seeds:
        state, rng, bot_rng = game.new_initial_state(), Rng(chance_seed), Rng(bot_seed)
        while not state.is_terminal():
            if state.throw is None:
                state._apply(state.sample_chance(rng))
            else:
                t = time.process_time()
                a = bot.act(state.observation(0), state._legal_actions(), bot_rng)
                think += time.process_time() - t
                moves += 1
                state._apply(a)
        cats = state.square_categories(0)
        points, bonus = scoring.total(cats)
        out.append((points, bonus))
    return out, think, moves


def evaluate(side, spec, games, seed, jobs):
    seeds = game_seeds(seed, games)
    chunks = [seeds[i::jobs] for i in range(jobs)]
    if jobs == 1:
        results = [run_chunk(side, spec, chunks[0])]
    else:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(run_chunk, [side] * jobs, [spec] * jobs, chunks))
    scores = [0] * games  # back in seed order, so that settings pair game by game
    for i, r in enumerate(results):
        for j, (p, _) in enumerate(r[0]):
            scores[i + j * jobs] = p
    bonus = sum(b for r in results for _, b in r[0]) / games
    think = sum(r[1] for r in results)
    moves = sum(r[2] for r in results)
    return scores, bonus, think / moves * 1000


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sides", default="AB")
    args = ap.parse_args(argv)
    first = {}
    for raw in args.specs:
        spec = raw if raw in ("old", "greedy") or raw.startswith("old+") else json.loads(raw)
        for side in args.sides:
            scores, bonus, ms = evaluate(side, spec, args.games, args.seed, args.jobs)
            est = mean_ci(scores)
            line = (f"{side} {raw:<50} mean {est.mean:6.2f} [{est.lo:6.2f}, {est.hi:6.2f}] "
                    f"bonus {bonus:5.1%}  {ms:6.2f} ms/move")
            if side in first:
                d = mean_ci([x - y for x, y in zip(scores, first[side])])
                line += f"  diff {d.mean:+5.2f} [{d.lo:+5.2f}, {d.hi:+5.2f}]"
            else:
                first[side] = scores
            print(line, flush=True)


if __name__ == "__main__":
    main()
