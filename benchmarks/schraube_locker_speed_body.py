"""Body of benchmarks/schraube_locker_speed.py: runs unchanged in CPython and in Pyodide, prints JSON.

Random 4-player games per second (full games, legality checked on every action) and the strong
bot's time per decision (CPU where the interpreter has it, else wall time), on seeded games.
"""

from __future__ import annotations

import json
import sys
import time


def random_games_per_second(game, seconds: float) -> float:
    """Full random games of ``game`` (legality checked on every action) per second of wall time."""
    from spieltisch.core.rng import Rng

    rng, n, t0 = Rng(1), 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
        n += 1
    return n / (time.perf_counter() - t0)


def main(seconds: float, strong_games: int) -> dict:
    from spieltisch.core.registry import make_bot, make_game
    from spieltisch.core.rng import Rng

    game = make_game("schraube-locker", 4)
    rate = random_games_per_second(game, seconds)

    strong = make_bot(game, "strong")
    think, moves = 0.0, 0
    for g in range(strong_games):
        state, rng, brng = game.new_initial_state(), Rng(100 + g), Rng(200 + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            p = state.current_player()
            legal = state._legal_actions()
            obs = state.observation(p)
            t = time.perf_counter()
            a = strong.act(obs, legal, brng)
            think += time.perf_counter() - t
            moves += 1
            state.apply_action(a)
    return {"python": list(sys.version_info[:3]), "platform": sys.platform,
            "random_games_per_s": rate, "strong_ms_per_move": 1000 * think / max(moves, 1), "strong_moves": moves}


if __name__ == "__main__":
    args = sys.argv[1:]
    seconds = float(args[0]) if args else 5.0
    games = int(args[1]) if len(args) > 1 else 3
    print(json.dumps(main(seconds, games)))
