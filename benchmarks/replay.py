"""Long records: replay, undo and legality costs, printed as a table.

    PYTHONPATH=src python benchmarks/replay.py            # CPython, the full sizes (a few minutes)
    PYTHONPATH=src python benchmarks/replay.py --quick    # smaller sizes
    PYTHONPATH=src python benchmarks/replay.py --json     # one JSON object instead of the table

``benchmarks/run.py`` runs it in CPython and in Pyodide (against the built wheel) and prints both.
Times are CPU seconds of this process (``--clock wall`` for wall time); the machine may be shared.

Sections:
- ``tied``: Würfel Joker 1 and 2 records of N start throws that all tie (every player throws the same
  sum, so the start goes on for ever), replayed from JSON at growing N: the time per action stays flat
  when replay is linear.
- ``skipbo``: the longest game the bots play that we know of: Skip-Bo Masters, ``multi_round``, 2
  random bots, chance seed 12, bot seed 12 (the longest of 40 seeds, 105,198 actions, about 2 MB):
  playing it, saving, replaying from JSON, undo on the replayed match and on the live one, and for
  comparison what undo cost before checkpoints (a replay of the record minus its tail).
- ``games``: per game (default options, random bots, 3 seeds), what replay costs per action, from
  the record as played and from the same record under another seed (then no recorded outcome is the
  drawn one and each is checked for legality: the dearer path a hand-made record takes).
- ``legality``: ``State.is_legal`` of the very object the game offers, of an equal copy (found by
  its exact key), and the refusal of a look-alike (a list where the action holds a tuple), in µs.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import platform
import sys
import time

CLOCK = time.process_time
SKIPBO = {"game": "skip-bo-masters", "players": 2, "options": {"multi_round": True, "must_play": False, "replace_held": True},
          "seed": 12, "bot_seed": 12}  # the v1 readings: the longest known bot game (105,198 actions)


def _timed(fn):
    t0 = CLOCK()
    out = fn()
    return out, CLOCK() - t0


def _best(fn, repeat: int = 3):
    """The least time of ``repeat`` calls (the least disturbed one) and the last result."""
    best, out = None, None
    for _ in range(repeat):
        out, t = _timed(fn)
        best = t if best is None else min(best, t)
    return out, best


def tied_record(game_id: str, n: int) -> str:
    """A record of ``n`` start throws that all tie: ones all round, in a 2-player game."""
    from spieltisch.core.match import Match

    record = Match(game_id, 2, {}, 0).to_record()
    throw = ["start", 1, 1, 1] if game_id == "wuerfel-joker-1" else ["start", 1, 1]
    record["actions"] = [throw] * n
    return json.dumps(record)


def bench_tied(sizes) -> list[dict]:
    from spieltisch.core.match import Match

    out = []
    for game_id in ("wuerfel-joker-1", "wuerfel-joker-2"):
        for n in sizes:
            text = tied_record(game_id, n)
            m, t = _timed(lambda: Match.from_json(text))
            assert len(m.actions) == n and m.state.observation(None)["starter"] is None
            out.append({"game": game_id, "actions": n, "chars": len(text), "replay_s": t, "us_per_action": t / n * 1e6})
    return out


def bench_skipbo() -> dict:
    from spieltisch.core.match import CHECKPOINT_EVERY, Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    c = SKIPBO
    m = Match(c["game"], c["players"], c["options"], c["seed"])
    bots = [make_bot(m.game, "random") for _ in range(c["players"])]
    _, t_play = _timed(lambda: m.play(bots, Rng(c["bot_seed"])))
    text, t_save = _timed(m.to_json)
    r, t_replay = _timed(lambda: Match.from_json(text))
    assert r.to_json() == text
    live = copy.deepcopy(m, {id(m.game): m.game})
    _, t_undo = _timed(r.undo)
    _, t_undo_live = _timed(live.undo)
    assert r.to_json() == live.to_json()
    undos = []
    for _ in range(20):
        undos.append(_timed(r.undo)[1])
    again = Match.from_json(r.to_json())
    assert again.state.snapshot() == r.state.snapshot()
    # undo before checkpoints: the record without its last player action, replayed from the start
    cut = max(i for i, p in enumerate(m.movers) if p >= 0)
    record = dict(m.to_record(), actions=m.record_actions()[:cut])
    _, t_old_undo = _timed(lambda: Match.from_record(record))
    return {**c, "actions": len(m.actions), "chars": len(text), "play_s": t_play, "save_s": t_save,
            "replay_s": t_replay, "undo_s": t_undo, "undo_live_s": t_undo_live,
            "undo_20_max_s": max(undos), "undo_without_checkpoints_s": t_old_undo,
            "checkpoint_every": CHECKPOINT_EVERY}


def bench_games(seeds=(0, 1, 2)) -> list[dict]:
    import spieltisch
    from spieltisch.core.match import Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    out = []
    for game_id in spieltisch.game_ids():
        actions = chars = 0
        t_play = t_replay = t_other = 0.0
        for seed in seeds:
            m = Match(game_id, None, None, seed)
            bots = [make_bot(m.game, "random") for _ in range(m.game.num_players)]
            _, t = _timed(lambda: m.play(bots, Rng(seed)))
            t_play += t
            text = m.to_json()
            r, t = _timed(lambda: Match.from_json(text))
            assert r.to_json() == text
            t_replay += t
            other = json.loads(text)
            other["seed"] = seed + 1000  # the recorded outcomes are no longer the drawn ones
            try:
                _, t = _timed(lambda: Match.from_record(other))
            except Exception:  # noqa: BLE001 - a game whose outcomes depend on the seed's draws
                t = float("nan")
            t_other += t
            actions += len(m.actions)
            chars += len(text)
        out.append({"game": game_id, "actions": actions, "chars_per_action": chars / actions,
                    "play_us": t_play / actions * 1e6, "replay_us": t_replay / actions * 1e6,
                    "replay_other_seed_us": t_other / actions * 1e6})
    return out


def _positions(game_id: str, seeds):
    """(state, the action taken there) along seeded random games."""
    from spieltisch.core.game import CHANCE
    from spieltisch.core.match import Match
    from spieltisch.core.rng import Rng

    for seed in seeds:
        m = Match(game_id, None, None, seed)
        rng = Rng(seed + 99)
        while not m.is_terminal():
            if m.current_player() == CHANCE:
                a = m.state.sample_chance(Rng(rng.below(2**32)))
            else:
                legal = m.legal_actions()
                a = legal[rng.below(len(legal))]
            yield m.state, a
            m.apply(a)


def _list_look_alike(action):
    """The action with its first tuple field as a list, built without its constructor; None if it
    has no tuple field."""
    fields = getattr(type(action), "_fields", None)
    if isinstance(action, tuple) and fields:  # a NamedTuple
        for i, v in enumerate(action):
            if type(v) is tuple:
                return tuple.__new__(type(action), (*action[:i], list(v), *action[i + 1:]))
        return None
    if dataclasses.is_dataclass(action):
        for f in dataclasses.fields(action):
            v = getattr(action, f.name)
            if type(v) is tuple:
                bad = object.__new__(type(action))
                for g in dataclasses.fields(action):
                    object.__setattr__(bad, g.name, list(v) if g is f else getattr(action, g.name))
                return bad
    return None


def bench_legality(seeds=(0, 1, 2)) -> list[dict]:
    import spieltisch

    out = []
    for game_id in spieltisch.game_ids():
        n = refused = 0
        t_same = t_copy = t_refuse = 0.0
        for state, a in _positions(game_id, seeds):
            twin = copy.copy(a)
            t0 = CLOCK()
            ok_same = state.is_legal(a)
            t1 = CLOCK()
            ok_copy = state.is_legal(twin)
            t2 = CLOCK()
            assert ok_same and ok_copy, (game_id, a)
            t_same += t1 - t0
            t_copy += t2 - t1
            n += 1
            bad = _list_look_alike(a)
            if bad is not None:
                t0 = CLOCK()
                assert not state.is_legal(bad)
                state.refusal(bad)
                t_refuse += CLOCK() - t0
                refused += 1
        out.append({"game": game_id, "positions": n, "same_us": t_same / n * 1e6, "copy_us": t_copy / n * 1e6,
                    "look_alikes": refused, "refuse_us": t_refuse / refused * 1e6 if refused else None})
    return out


def run(quick: bool) -> dict:
    import spieltisch

    sizes = (3_000, 10_000, 30_000) if quick else (10_000, 30_000, 100_000)
    return {
        "env": {"python": platform.python_version(), "platform": sys.platform, "spieltisch": spieltisch.__version__,
                "clock": CLOCK_NAME, "quick": quick},
        "tied": bench_tied(sizes),
        "skipbo": bench_skipbo(),
        "games": bench_games((0,) if quick else (0, 1, 2)),
        "legality": bench_legality((0,) if quick else (0, 1, 2)),
    }


def _f(x, digits: int = 2) -> str:
    return "–" if x is None or x != x else f"{x:,.{digits}f}"


def _rows(results: dict, section: str, first: list, lead, cells) -> list:
    """One table row per entry of ``section``: ``lead(entry)`` (the entry's own columns), then for
    each ``(key, digits)`` of ``cells`` the interpreters' values side by side (a / b)."""
    out = []
    for i, row in enumerate(first):
        rows = [r[section][i] for r in results.values()]
        out.append(f"| {lead(row)} | " + " | ".join(" / ".join(_f(r[key], digits) for r in rows) for key, digits in cells)
                   + " |")
    return out


def markdown(results: dict) -> str:
    """``results``: {interpreter label: run() output}; the tables put the interpreters side by side."""
    labels = list(results)
    first = results[labels[0]]
    head = " / ".join(labels)
    out = ["## Long records: replay, undo, legality (`benchmarks/replay.py`)\n"]
    pythons = ", ".join(f"{k}: Python {v['env']['python']}, {v['env']['clock']}" for k, v in results.items())
    out.append(f"{pythons}.\n")

    out.append("### Tied start throws replayed from JSON (2 players; every start throw ties)\n")
    out.append(f"| game | actions | record MB | replay s ({head}) | µs per action ({head}) |")
    out.append("|---|---:|---:|---:|---:|")
    out += _rows(results, "tied", first["tied"], lambda r: f"{r['game']} | {r['actions']:,} | {r['chars'] / 1e6:.2f}",
                 (("replay_s", 2), ("us_per_action", 1)))

    s = first["skipbo"]
    out.append(f"\n### The longest bot game known: {s['game']} {json.dumps(s['options'])}, {s['players']} random bots, "
               f"seed {s['seed']}, bot seed {s['bot_seed']}\n")
    out.append(f"{s['actions']:,} actions, a record of {s['chars'] / 1e6:.2f} MB; undo goes back to the latest "
               f"checkpoint (one every {s['checkpoint_every']:,} actions).\n")
    out.append(f"| step | seconds ({head}) |")
    out.append("|---|---:|")
    for key, what in (("play_s", "play to the end (`Match.play`)"), ("save_s", "save (`to_json`)"),
                      ("replay_s", "replay (`Match.from_json`)"), ("undo_s", "undo on the replayed match"),
                      ("undo_live_s", "undo on the live match"), ("undo_20_max_s", "20 more undos: the slowest"),
                      ("undo_without_checkpoints_s", "undo before checkpoints (replay of the record minus its tail)")):
        out.append(f"| {what} | {' / '.join(_f(r['skipbo'][key], 3) for r in results.values())} |")

    out.append("\n### Replay cost per action, every game (default options, random bots)\n")
    out.append("*other seed*: the same record under another seed, so no recorded outcome is the drawn one and each "
               "is checked (the path of a hand-made record).\n")
    out.append(f"| game | actions | chars/action | play µs/action ({head}) | replay µs/action ({head}) | "
               f"other seed µs/action ({head}) |")
    out.append("|---|---:|---:|---:|---:|---:|")
    out += _rows(results, "games", first["games"],
                 lambda r: f"{r['game']} | {r['actions']:,} | {r['chars_per_action']:.1f}",
                 (("play_us", 1), ("replay_us", 1), ("replay_other_seed_us", 1)))

    out.append("\n### Legality check, µs per call (positions of seeded random games)\n")
    out.append(f"| game | positions | the legal object itself ({head}) | an equal copy ({head}) | "
               f"refusing a list look-alike, with its message ({head}) |")
    out.append("|---|---:|---:|---:|---:|")
    out += _rows(results, "legality", first["legality"], lambda r: f"{r['game']} | {r['positions']:,}",
                 (("same_us", 1), ("copy_us", 1), ("refuse_us", 1)))
    return "\n".join(out) + "\n"


CLOCK_NAME = "cpu: time.process_time()"


def main(argv=None) -> int:
    global CLOCK, CLOCK_NAME
    ap = argparse.ArgumentParser(description="replay, undo and legality costs of long records")
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = ap.parse_args(argv)
    if args.clock == "wall":
        CLOCK, CLOCK_NAME = time.perf_counter, "wall: perf_counter"
    else:
        from bench_core import _cpu_clock  # the benchmark body's clock (Node's CPU time in Pyodide)

        CLOCK, CLOCK_NAME = _cpu_clock()
    res = run(args.quick)
    if args.json:
        print(json.dumps(res, ensure_ascii=False))
    else:
        print(markdown({"CPython" if sys.platform != "emscripten" else "Pyodide": res}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
