"""Scratch Island bots: win rates with 95 % intervals in seat-rotated 4-player matches, and speed.

    PYTHONPATH=src python benchmarks/scratch_island_bots.py [--games 200] [--seed 0] [--end both]

Line-ups (each game's seats rotated through all 4 rotations, so no bot profits from its seat):
``strong, greedy, random, random`` (all three against each other) and ``strong, strong, greedy,
greedy`` (head to head), under each reading of the end (D9, option ``end``: ``all_rolled``, the
default, and ``this_roll``), on the same seeds. A game's win is shared among tied winners (the tie
rule first). Speed: random playthroughs (actions per second, CPU time), the bots' and the advisor's
time per decision. Maps and dice are the project's reconstruction.
"""

from __future__ import annotations

import argparse
import time

from spieltisch.core.match import Match
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import mean_ci, proportion_ci
from spieltisch.games.scratch_island import ScratchIsland


def rotated(lineup: list, games: int, seed: int, reflect: bool = False, end: str = "all_rolled", rounds=None):
    """Per bot name: (wins, seats played, scores, think seconds, decisions); ``rounds`` (a list)
    gets each game's number of rounds."""
    game = ScratchIsland(len(lineup), {"reflect": reflect, "end": end})
    out = {name: [0.0, 0, [], 0.0, 0] for name in lineup}
    for i, (cs, bs) in enumerate(game_seeds(seed, games)):
        shift = i % len(lineup)
        seats = lineup[shift:] + lineup[:shift]
        bots = [make_bot(game, n) for n in seats]
        m = Match(game, seed=cs)
        rng = Rng(bs)
        state = m.state
        while not state.is_terminal():
            p = state.current_player()
            if p < 0:
                m.step_chance()
                continue
            legal = state.legal_actions()
            t = time.process_time()
            a = bots[p].act(state.observation(p), legal, rng)
            out[seats[p]][3] += time.process_time() - t
            out[seats[p]][4] += 1
            m.apply(a)
        winners = state.winners()
        scores = state.scores()
        if rounds is not None:
            rounds.append(state.round)
        for p, name in enumerate(seats):
            rec = out[name]
            rec[1] += 1
            rec[2].append(scores[p])
            if p in winners:
                rec[0] += 1 / len(winners)
    return out


def table(title: str, lineup: list, games: int, seed: int, end: str = "all_rolled") -> None:
    rounds: list = []
    res = rotated(lineup, games, seed, end=end, rounds=rounds)
    r = mean_ci(rounds)
    print(f"\n{title}, end={end}: {games} games, seats rotated; line-up {', '.join(lineup)}; "
          f"rounds per game {r.mean:.2f} [{r.lo:.2f}, {r.hi:.2f}]")
    print(f"{'bot':<8}{'seats':>6}  {'win rate per seat':>17}  {'95% CI':<17}{'mean score':>11}  {'95% CI':<16}{'ms/decision':>12}")
    for name, (wins, seats, scores, think, decisions) in res.items():
        per_seat = lineup.count(name)
        w = proportion_ci(wins / per_seat, seats // per_seat) if per_seat > 1 else proportion_ci(wins, seats)
        s = mean_ci(scores)
        print(f"{name:<8}{seats:>6}  {w.mean:17.3f}  [{w.lo:.3f}, {w.hi:.3f}]  {s.mean:11.2f}  [{s.lo:5.2f}, {s.hi:5.2f}]"
              f"{think / max(decisions, 1) * 1000:12.2f}", flush=True)


def random_speed(seconds: float = 3.0) -> tuple[float, float]:
    """(actions per second, games per second) of random 4-player playthroughs, CPU time."""
    game = ScratchIsland(4)
    rng = Rng(1)
    t0 = time.process_time()
    actions = games = 0
    while time.process_time() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.below(len(legal))])
            actions += 1
        games += 1
    dt = time.process_time() - t0
    return actions / dt, games / dt


def advisor_speed(decisions: int = 200, seed: int = 3) -> tuple[float, float]:
    """(mean, max) seconds the advisor takes per decision in a random 4-player game, CPU time."""
    m = Match("scratch-island", 4, {}, seed)
    rng = Rng(seed)
    times = []
    while not m.is_terminal() and len(times) < decisions:
        if m.current_player() < 0:
            m.step_chance()
            continue
        obs = m.state.observation(m.current_player())
        t = time.process_time()
        m.game.advise(obs)
        times.append(time.process_time() - t)
        legal = m.legal_actions()
        m.apply(legal[rng.below(len(legal))])
    return sum(times) / len(times), max(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--end", choices=("both", "all_rolled", "this_roll"), default="both",
                    help="the reading of the end (D9) to measure; both: the default first, on the same seeds")
    args = ap.parse_args(argv)
    for end in (("all_rolled", "this_roll") if args.end == "both" else (args.end,)):
        table("all three", ["strong", "greedy", "random", "random"], args.games, args.seed, end)
        table("head to head", ["strong", "strong", "greedy", "greedy"], args.games, args.seed + 1, end)
    aps, gps = random_speed()
    print(f"\nrandom 4-player playthroughs: {aps:,.0f} actions/s, {gps:.1f} games/s (CPU)")
    mean, worst = advisor_speed()
    print(f"advisor: {mean * 1000:.1f} ms per decision on average, {worst * 1000:.0f} ms at most (CPU)")


if __name__ == "__main__":
    main()
