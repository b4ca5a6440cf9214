"""The benchmark body: runs unchanged in CPython and in Pyodide, prints one JSON object.

``benchmarks/run.py`` runs it in both interpreters (against the same built wheel) and prints the
table; run it alone with ``python benchmarks/bench_core.py [--quick]`` (spieltisch importable).

Sections:
- ``solvers``: the exact solvers, each timed once cold. They run first, in a fresh process, so no
  solver cache and no engine memo table (e.g. Spiel 1's assignments) is warm yet; module caches
  (``*CACHE*`` dicts, ``lru_cache``) are cleared before each call as well. The second call is
  timed too ("warm": what a bot or widget pays after the first).
- ``rates``: random-bot games per second for every registered game: the full default game and,
  where the game has a ``rounds`` option, a 1-player 1-round game (= one turn). A "game" is one
  ``core.simulate.play_one`` call on a validated ``Game`` (as ``simulate`` does): Match set-up with
  its seeded generators, bots, play to the end, record kept.
- ``overhead``: the engine's 1-player 1-round random rate against ``handwritten.py``.
- ``replay``: a long legal record replayed from JSON against playing its actions (``Match.apply``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time

# (game id, solver module, label, extra positional args after the options dict)
SOLVERS = (
    ("wuerfel-joker-2", "spieltisch.games.wuerfel_joker.spiel2.analysis", "solver2.solve(options, 'expected')", ("expected",)),
    ("wuerfel-joker-2", "spieltisch.games.wuerfel_joker.spiel2.analysis", "solver2.solve(options, 'all_up')", ("all_up",)),
    ("wuerfel-joker-1", "spieltisch.games.wuerfel_joker.spiel1.analysis", "solver1.solve(options)", ()),
)
# engine game id -> hand-written turn function name in handwritten.py
HANDWRITTEN = (("wuerfel-joker-2", "spiel2_turn"), ("wuerfel-joker-1", "spiel1_turn"))


def _cpu_clock():
    """CPU seconds of this process: robust when other work shares the machine. In Pyodide under
    Node, ``process.cpuUsage()`` of the Node process (user + system)."""
    if sys.platform == "emscripten":
        try:
            from js import process  # Node's process object

            def clock():
                u = process.cpuUsage()
                return (u.user + u.system) / 1e6

            clock()
            return clock, "cpu: Node process.cpuUsage() user+system"
        except Exception:
            return time.perf_counter, "wall: perf_counter (no Node process object)"
    return time.process_time, "cpu: time.process_time()"


CLOCK = time.perf_counter
CLOCK_NAME = "wall: perf_counter"


def _clear_caches(module) -> list[str]:
    cleared = []
    for name, obj in list(vars(module).items()):
        if callable(getattr(obj, "cache_clear", None)):
            obj.cache_clear()
            cleared.append(name)
        elif isinstance(obj, dict) and "cache" in name.lower():
            obj.clear()
            cleared.append(name)
    return cleared


def bench_solvers() -> list[dict]:
    from spieltisch.core.registry import get_game_class

    out = []
    for game_id, module_name, label, args in SOLVERS:
        row = {"game": game_id, "solver": label}
        try:
            cls = get_game_class(game_id)
            module = importlib.import_module(module_name)
        except Exception as e:  # not written yet, or not registered
            row["skipped"] = f"{type(e).__name__}: {e}"
            out.append(row)
            continue
        defaults = {s.name: s.default for s in cls.option_specs}
        row["caches_cleared"] = _clear_caches(module)
        t0, w0 = CLOCK(), time.perf_counter()
        sol = module.solve(dict(defaults), *args)  # a fresh options dict as well
        row["cold_s"] = CLOCK() - t0
        row["cold_wall_s"] = time.perf_counter() - w0
        t0 = CLOCK()
        module.solve(dict(defaults), *args)
        row["warm_s"] = CLOCK() - t0
        start = getattr(sol, "start_value", None)
        if callable(start):
            v = start()
            row["start_value"] = str(v)
            row["start_value_float"] = float(v)
        out.append(row)
    return out


def _short_options(cls) -> dict | None:
    for spec in cls.option_specs:
        if spec.name == "rounds":
            if (spec.min is None or spec.min <= 1) and (not spec.choices or 1 in spec.choices):
                return {"rounds": 1}
    return None


def measure_rate(game_id: str, players: int, options: dict, seconds: float, seed: int = 7,
                 windows: int = 5) -> dict:
    """Games/s as the best of ``windows`` timing windows (the machine is shared: the best window is
    the least disturbed one); the mean over all windows is kept as well."""
    from spieltisch.core.registry import get_game_class
    from spieltisch.core.simulate import game_seeds, play_one

    # validated once, as core.simulate.simulate does; every game then gets its own Match and seeds
    game = get_game_class(game_id)(players, options)
    bots = ["random"] * players
    games = actions = 0
    total_score = 0.0
    batch = 4
    elapsed = 0.0
    chunk = 0
    rates = []
    for _ in range(windows):
        w_games, w_elapsed = 0, 0.0
        while w_elapsed < seconds / windows or w_games == 0:
            seeds = game_seeds(seed + chunk, batch)  # outside the timed part
            chunk += 1
            t0 = CLOCK()
            for cs, bs in seeds:
                m = play_one(game, None, None, bots, cs, bs)
                actions += len(m.actions)
                total_score += float(m.state.scores()[0])
            w_elapsed += CLOCK() - t0
            w_games += batch
            if batch < 1024 and w_elapsed < seconds / windows / 8:
                batch *= 2
        rates.append(w_games / w_elapsed)
        games += w_games
        elapsed += w_elapsed
    return {
        "game": game_id, "players": players, "options": options, "games": games, "seconds": elapsed,
        "games_per_s": max(rates), "games_per_s_mean": games / elapsed, "windows": len(rates),
        "actions_per_game": actions / games, "mean_score_seat0": total_score / games,
    }


def bench_rates(seconds: float) -> list[dict]:
    import spieltisch
    from spieltisch.core.registry import get_game_class

    out = []
    for game_id in spieltisch.game_ids():
        cls = get_game_class(game_id)
        full = measure_rate(game_id, cls.default_players, {}, seconds)
        defaults = {s.name: s.default for s in cls.option_specs}
        full["kind"] = "full"
        full["label"] = (f"full game: {cls.default_players} player{'s' if cls.default_players != 1 else ''}"
                         + (f", {defaults['rounds']} rounds" if "rounds" in defaults else "") + ", default options")
        out.append(full)
        short = _short_options(cls)
        if short is not None and cls.min_players <= 1:
            one = measure_rate(game_id, 1, short, seconds)
            one["kind"] = "1p1r"
            one["label"] = "1 player, 1 round (= one turn)"
            out.append(one)
    return out


def measure_play_only(game_id: str, seconds: float, seed: int = 7, windows: int = 5) -> float:
    """Games/s of ``Match.play`` alone (1 player, 1 round): Match, bots and generators are built
    outside the timed part, so this is the engine's per-action cost without its per-game set-up."""
    from spieltisch.core.match import Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng
    from spieltisch.core.simulate import game_seeds

    best = 0.0
    chunk = 0
    for _ in range(windows):
        w_games, w_elapsed = 0, 0.0
        while w_elapsed < seconds / windows:
            ready = []
            for cs, bs in game_seeds(seed + chunk, 256):
                m = Match(game_id, 1, {"rounds": 1}, cs)
                ready.append((m, [make_bot(m.game, "random")], Rng(bs)))
            chunk += 1
            t0 = CLOCK()
            for m, bots, rng in ready:
                m.play(bots, rng)
            w_elapsed += CLOCK() - t0
            w_games += len(ready)
        best = max(best, w_games / w_elapsed)
    return best


def bench_overhead(rates: list[dict], seconds: float, rounds: int = 5) -> list[dict]:
    """Engine vs hand-written, measured in alternating windows (engine, hand-written, play only,
    ...) so that load from elsewhere on the machine hits all three alike; best window of each."""
    import handwritten

    registered = {(r["game"], r["kind"]) for r in rates}
    out = []
    for game_id, fn_name in HANDWRITTEN:
        if (game_id, "1p1r") not in registered:
            out.append({"game": game_id, "skipped": "game not registered (or has no rounds option)"})
            continue
        turn = getattr(handwritten, fn_name)
        w = seconds / rounds
        # warm up the hand-written loop's caches (Spiel 1's assignment table), as the engine's are
        # warm from the rate measurements before; untimed
        handwritten.rate(turn, 0.5, seed=99, windows=1, clock=CLOCK)
        engine, hand, play_only = [], [], []
        for i in range(rounds):
            engine.append(measure_rate(game_id, 1, {"rounds": 1}, w, seed=100 + i, windows=1))
            hand.append(handwritten.rate(turn, w, seed=100 + i, windows=1, clock=CLOCK))
            play_only.append(measure_play_only(game_id, w, seed=200 + 10 * i, windows=1))
        e = max(r["games_per_s"] for r in engine)
        h = max(r["games_per_s"] for r in hand)
        p = max(play_only)
        out.append({
            "game": game_id, "handwritten": fn_name, "windows": rounds,
            "engine_games_per_s": e, "handwritten_games_per_s": h, "overhead": h / e,
            "engine_play_only_games_per_s": p, "overhead_play_only": h / p,
            "engine_mean_score": sum(r["mean_score_seat0"] * r["games"] for r in engine) / sum(r["games"] for r in engine),
            "handwritten_mean_score": sum(r["mean_score"] * r["games"] for r in hand) / sum(r["games"] for r in hand),
        })
    return out


# (game id, players, options, bot) whose time per move is measured
# (games for 2+ players: the same bot in every seat, the mean score is seat 0's)
BOT_MOVES = (("tuefteln", 1, {"side": "A"}, "strong"), ("tuefteln", 1, {"side": "B"}, "strong"),
             ("tuefteln", 1, {"side": "A"}, "greedy"), ("schraube-locker", 2, {}, "strong"),
             ("skip-bo-masters", 2, {"short_game": True}, "strong"),
             ("scratch-island", 2, {}, "strong"))


def bench_bots(quick: bool) -> list[dict]:
    """Milliseconds per move of the stronger bots, over whole seeded games (solo where the game allows;
    else the same bot in every seat and the mean score is seat 0's)."""
    import spieltisch
    from spieltisch.core.game import CHANCE, TERMINAL
    from spieltisch.core.match import Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    out = []
    for game_id, players, options, name in BOT_MOVES:
        if game_id not in spieltisch.game_ids():
            continue
        games = 2 if quick else 6
        moves, spent, scores = 0, 0.0, []
        for seed in range(games):
            m = Match(game_id, players, options, seed)
            bot = make_bot(m.game, name)
            rng = Rng(seed + 1000)
            while (p := m.current_player()) != TERMINAL:
                if p == CHANCE:
                    m.step_chance()
                    continue
                obs, legal = m.state.observation(p), m.legal_actions()
                t0 = CLOCK()
                a = bot.act(obs, legal, rng)
                spent += CLOCK() - t0
                moves += 1
                m.apply(a)
            scores.append(m.state.scores()[0])
        out.append({"game": game_id, "options": options, "bot": name, "games": games, "moves": moves,
                    "ms_per_move": 1000 * spent / moves, "mean_score": sum(scores) / len(scores)})
    return out


def bench_replay(quick: bool) -> list[dict]:
    """A long legal record (Würfel Joker 2, one turn of doubles declined again and again) replayed
    from JSON, against playing the same actions through ``Match.apply``: replay should cost about
    what playing costs."""
    import spieltisch
    from spieltisch.core.match import Match

    if "wuerfel-joker-2" not in spieltisch.game_ids():
        return []
    n = 10_000 if quick else 100_000  # 100,000 actions: the 1.4 MB record of the issue
    m = Match("wuerfel-joker-2", 1, {"rounds": 1}, 1)
    st = m.state
    while len(m.actions) < n:
        m.apply(next(a for a in st.legal_actions() if a.to_json() == ["throw", 3, 3]))
        m.apply(next(a for a in st.legal_actions() if a.to_json() == "decline"))
    text = m.to_json()
    actions = list(m.actions)
    t0 = CLOCK()
    replayed = Match.from_json(text)
    t_replay = CLOCK() - t0
    assert replayed.to_json() == text
    t0 = CLOCK()
    again = Match("wuerfel-joker-2", 1, {"rounds": 1}, 1)
    for a in actions:
        again.apply(a)
    t_play = CLOCK() - t0
    return [{"game": "wuerfel-joker-2", "record_chars": len(text), "actions": len(actions),
             "replay_s": t_replay, "play_s": t_play, "ratio": t_replay / t_play if t_play else None}]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="spieltisch benchmark body (JSON)")
    ap.add_argument("--quick", action="store_true", help="short timing windows")
    ap.add_argument("--seconds", type=float, default=None, help="timing window per measurement")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): this process's CPU time, robust on a shared machine; wall: perf_counter")
    args = ap.parse_args(argv)
    global CLOCK, CLOCK_NAME
    if args.clock == "cpu":
        CLOCK, CLOCK_NAME = _cpu_clock()
    seconds = args.seconds or (0.25 if args.quick else 1.5)

    t_import = time.perf_counter()
    import spieltisch

    t_import = time.perf_counter() - t_import
    solvers = bench_solvers()  # first: nothing is cached yet
    rates = bench_rates(seconds)
    overhead = bench_overhead(rates, seconds)
    bots = bench_bots(args.quick)
    replay = bench_replay(args.quick)
    result = {
        "env": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": sys.platform,
            "pyodide": sys.platform == "emscripten",
            "spieltisch": spieltisch.__version__,
            "import_s": t_import,
            "seconds_per_measurement": seconds,
            "clock": CLOCK_NAME,
            # set by tests/pyodide/run.mjs: loading Pyodide and the wheel, before this script ran
            "pyodide_load": json.loads(os.environ.get("SPIELTISCH_PYODIDE_TIMING", "null")),
        },
        "solvers": solvers,
        "rates": rates,
        "overhead": overhead,
        "bots": bots,
        "replay": replay,
    }
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
