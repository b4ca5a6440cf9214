"""Skip-Bo Masters bots: win rates in seat-rotated 4-player games with 95 % intervals, and speed.

    PYTHONPATH=src python benchmarks/skip_bo_masters_bots.py [--games 400] [--seed 0] [--short]
        [--readings default must_play_off replace_held short_hand_refill_off] [--no-speed]

Each table seats one bot against three copies of another (or a mixed table), the seats rotating
from game to game so that no bot keeps the start player's seat. A round stopped by the stall rule
(D4) counts as no win for anybody (its share is shown). The tables are played under each reading of
the rule decisions that change play (D5 must_play, D6 replace_held, D7 short_hand_refill; D8 only
says who starts a further round of a game of several), with the same seeds. For each reading the
share of turns that end while one of the player's own cards could still be played is shown (0 under
D5). Speed: random play in actions per second, CPU time per decision of each bot, and the advisor's
time for one live decision (benchmarks/skip_bo_masters_advisor.py measures the advisor in full).
"""

from __future__ import annotations

import argparse
import time

from spieltisch.core.game import CHANCE
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import game_seeds
from spieltisch.core.stats import proportion_ci
from spieltisch.games.skip_bo_masters import analysis
from spieltisch.games.skip_bo_masters.engine import PLAY, Discard, EndTurn, Play, SkipBoMasters

READINGS = {
    "default": {},
    "must_play_off": {"must_play": False},
    "replace_held": {"replace_held": True},
    "short_hand_refill_off": {"short_hand_refill": False},
}

TABLES = (
    ("strong", ("strong", "random", "random", "random")),
    ("greedy", ("greedy", "random", "random", "random")),
    ("strong", ("strong", "greedy", "greedy", "greedy")),
    ("greedy", ("greedy", "strong", "strong", "strong")),
    (None, ("strong", "greedy", "random", "random")),
)


def play_table(names, games, seed, options):
    """Wins per bot name over ``games`` seat-rotated games; also draws and decision times."""
    game = SkipBoMasters(4, options)
    bots = {n: make_bot(game, n) for n in set(names)}
    wins = {n: 0 for n in names}
    seats_of = {n: 0 for n in names}
    draws = 0
    think = {n: [0.0, 0] for n in names}
    ends = [0, 0]  # turns ended in the playing phase, of them with an own card still playable
    for i, (chance_seed, bot_seed) in enumerate(game_seeds(seed, games)):
        order = [names[(k - i) % 4] for k in range(4)]  # rotate: bot j sits at seat (j + i) % 4
        for n in order:
            seats_of[n] += 1
        s = game.new_initial_state()
        rng, bot_rng = Rng(chance_seed), Rng(bot_seed)
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s._apply(s.sample_chance(rng))
                continue
            name = order[p]
            t = time.process_time()
            legal = s._legal_actions()
            a = bots[name].act(s.observation(p), legal, bot_rng)
            think[name][0] += time.process_time() - t
            think[name][1] += 1
            if type(a) in (Discard, EndTurn) and s.phase == PLAY:
                ends[0] += 1
                ends[1] += any(type(x) is Play for x in legal)
            s._apply(a)
        if s.winner is None:
            draws += 1
        else:
            wins[order[s.winner]] += 1
    return wins, seats_of, draws, think, ends


def random_speed(seconds=2.0, options=None):
    game = SkipBoMasters(4, options or {})
    rng, n, games, t0 = Rng(1), 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s._apply(s.sample_chance(rng))
            else:
                legal = s._legal_actions()
                s._apply(legal[rng.below(len(legal))])
            n += 1
        games += 1
    dt = time.perf_counter() - t0
    return n / dt, games / dt


def advisor_speed(decisions=10, options=None):
    """Seconds per advised decision (the advisor's live defaults) in greedy games."""
    game = SkipBoMasters(4, options or {})
    bot = make_bot(game, "greedy")
    s, rng = game.new_initial_state(), Rng(5)
    times, options_seen, steps = [], [], 0
    while len(times) < decisions and not s.is_terminal():
        if s.current_player() == CHANCE:
            s._apply(s.sample_chance(rng))
            continue
        p = s.current_player()
        if steps % 7 == 0:
            t = time.process_time()  # CPU time: the machine's other load left out
            advice = analysis.advise(game, s.observation(p), seed=steps)
            times.append(time.process_time() - t)
            options_seen.append(len(advice.options))
        s._apply(bot.act(s.observation(p), s._legal_actions(), rng))
        steps += 1
    return times, options_seen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per table")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--short", action="store_true", help="short_game: stock piles of 10")
    ap.add_argument("--readings", nargs="+", default=list(READINGS), choices=list(READINGS))
    ap.add_argument("--no-speed", action="store_true", help="win rates only")
    args = ap.parse_args(argv)
    base = {"short_game": True} if args.short else {}
    print(f"Skip-Bo Masters, 4 players, {base or 'default options'}, {args.games} seat-rotated games per table, "
          f"seed {args.seed}; fair share of one seat = 0.25")
    for reading in args.readings:
        options = {**base, **READINGS[reading]}
        print(f"\n## {reading} {READINGS[reading] or ''}")
        print(f"{'table':<38} {'bot':<8} {'win rate per seat':<30} {'draws':>6} {'turns ended early':>18}")
        for focus, names in TABLES:
            wins, seats, draws, think, ends = play_table(names, args.games, args.seed, options)
            label = " vs ".join(names)
            for n in dict.fromkeys(names):
                if focus is not None and n != focus:
                    continue
                copies = names.count(n)
                est = proportion_ci(wins[n] / copies, args.games)
                early = f"{ends[1] / max(ends[0], 1):.3f}"
                print(f"{label:<38} {n:<8} {est.mean:.3f} (95% CI {est.lo:.3f}..{est.hi:.3f}) "
                      f"{draws / args.games:>6.3f} {early:>18}")
            ms = {n: 1000 * t / max(k, 1) for n, (t, k) in think.items()}
            print(f"{'':<38} CPU ms per decision: " + ", ".join(f"{n} {v:.2f}" for n, v in ms.items()))
    if args.no_speed:
        return
    aps, gps = random_speed(options=base)
    print(f"random play: {aps:,.0f} actions/s, {gps:.1f} games/s (CPython)")
    times, opts = advisor_speed(options=base)
    print(f"advisor (live settings): mean {sum(times) / len(times):.3f} s, max {max(times):.3f} s of CPU time per "
          f"decision over {len(times)} decisions with {min(opts)}-{max(opts)} options")


if __name__ == "__main__":
    main()
