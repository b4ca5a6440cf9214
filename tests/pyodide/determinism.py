"""Play seeded bot games of every registered game and print the records and scores as JSON.

Runs unchanged in CPython and in Pyodide (``node run.mjs --wheel W determinism.py``); the test
compares the ``games`` part of both outputs for exact equality. ``env`` and ``cli`` describe the
interpreter and are checked separately.

    python determinism.py [--games N] [--seed S] [--rounds R]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import sys
import time


def short_options(cls, rounds: int) -> dict:
    """Defaults, except a game with a ``rounds`` option plays only a few rounds (speed)."""
    for spec in cls.option_specs:
        if spec.name == "rounds":
            value = rounds
            if spec.min is not None:
                value = max(value, spec.min)
            if spec.max is not None:
                value = min(value, spec.max)
            if spec.choices and value not in spec.choices:
                return {}
            return {"rounds": value}
    return {}


def play_all(games_per_bot: int, seed: int, rounds: int) -> dict:
    from spieltisch.core.registry import bot_names, get_game_class
    from spieltisch.core.simulate import game_seeds, play_one

    out = {}
    for game_id in sorted(_game_ids()):
        cls = get_game_class(game_id)
        players = cls.default_players
        options = short_options(cls, rounds)
        runs = []
        for bot in bot_names(game_id):
            t0 = time.perf_counter()
            for chance_seed, bot_seed in game_seeds(seed, games_per_bot):
                match = play_one(game_id, players, options, [bot] * players, chance_seed, bot_seed)
                runs.append({
                    "bot": bot,
                    "chance_seed": chance_seed,
                    "bot_seed": bot_seed,
                    "record": match.to_record(),
                    "scores": match.state.scores(),
                    "winners": match.state.winners(),
                })
            print(f"{game_id} / {bot}: {games_per_bot} games in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
        # the game's other conformance configurations (e.g. Tüfteln side B, whose strong bot has
        # its own float code): one game per bot each
        variants = []
        default = cls(players, options).options  # validated, defaults filled in
        chance_seed, bot_seed = game_seeds(seed + 1, 1)[0]
        for v_players, v_options in cls.test_configs:
            v_options = {**v_options, **short_options(cls, rounds)}
            if cls(v_players, v_options).options == default:
                continue  # only the option settings the default runs do not cover
            v_runs = []
            for bot in bot_names(game_id):
                match = play_one(game_id, v_players, v_options, [bot] * v_players, chance_seed, bot_seed)
                v_runs.append({"bot": bot, "record": match.to_record(), "scores": match.state.scores()})
            variants.append({"players": v_players, "options": v_options, "runs": v_runs})
        out[game_id] = {"players": players, "options": options, "bots": bot_names(game_id), "runs": runs,
                        "variants": variants}
    return out


def _game_ids() -> list[str]:
    import spieltisch

    return spieltisch.game_ids()


def run_cli(argv: list[str]) -> dict:
    """``spieltisch.cli.main(argv)``, if the CLI exists yet; its output and exit code."""
    try:
        from spieltisch import cli
    except ModuleNotFoundError as e:
        if e.name in ("spieltisch.cli",):
            return {"skipped": "spieltisch/cli.py does not exist yet"}
        raise
    buf = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf):
        try:
            ret = cli.main(argv)
            code = ret if isinstance(ret, int) else 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return {"argv": argv, "exit": code, "stdout": buf.getvalue()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="seeded games per (game, bot)")
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--rounds", type=int, default=2, help="rounds for games with a rounds option")
    args = ap.parse_args(argv)

    import spieltisch

    result = {
        "env": {
            "python": list(sys.version_info[:3]),
            "implementation": platform.python_implementation(),
            "platform": sys.platform,
            "spieltisch": spieltisch.__version__,
            "spieltisch_file": spieltisch.__file__,
        },
        "game_ids": _game_ids(),
        "games": play_all(args.games, args.seed, args.rounds),
        "cli": run_cli(["list"]),
    }
    # default=str: a game may keep exact scores as Fractions; their str is exact too.
    print(json.dumps(result, sort_keys=True, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
