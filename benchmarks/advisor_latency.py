"""How long each game's advisor takes to answer, in CPython and in Pyodide, side by side.

    python benchmarks/advisor_latency.py                 # every game with an advisor, both interpreters
    python benchmarks/advisor_latency.py --positions 20  # fewer positions per game
    python benchmarks/advisor_latency.py --games schraube-locker --no-pyodide
    python benchmarks/advisor_latency.py --json

The positions are those of real games as a Play page plays them: two players, default options, the
view's default bot in every seat and its own seeds (0, 1, 2, …); at every decision of seat 0 (the
human's seat on a Play page) the advisor is asked exactly as the table asks it (one
``game.advise(observation, **settings)`` per advice column of the view, with a progress callback
where the advisor takes one), the time summed over the columns. Turn starts are among them: the
first decision of seat 0 after the other player decided. The positions follow each other as in one
game on screen, so the caches are as warm as they would be there (the first call is cold).

The same file runs as the body in both interpreters (``--body``; Pyodide under Node through
``tests/pyodide/run.mjs``, the runner the Pyodide tests use), against the same built wheel, one
after the other, so the ratios come from one run. Both bodies report a hash of the positions they
measured; the table says whether they were the same. CPU time of the process by default (the
machine may be shared), as ``bench_core.py`` measures it; ``--clock wall`` for wall time.

Targets (Pyodide p95): 200 ms where the advisor solves exactly, 2 s where it estimates (and it
must report its progress while it works).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET_EXACT_S = 0.2
TARGET_ESTIMATE_S = 2.0


# --- the body (runs in CPython and in Pyodide) ---------------------------------------------------

def _quantile(xs: list, q: float) -> float:
    """The q-quantile by the nearest-rank rule (p95 of 40 values: the 38th smallest)."""
    s = sorted(xs)
    k = max(1, -(-len(s) * q // 1))  # ceil(n q), at least the first
    return s[int(k) - 1]


def measure_game(game_id: str, positions: int, clock) -> dict:
    from spieltisch.core.advice import advisor_settings
    from spieltisch.core.game import CHANCE, TERMINAL
    from spieltisch.core.match import Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng
    from spieltisch.ui.table import load_view

    times, turn_starts, progress_calls, exact = [], [], [], None
    digest = hashlib.sha256()
    seed = 0
    while len(times) < positions:
        m = Match(game_id, 2, {}, seed)
        view = load_view(type(m.game))
        bots = [make_bot(m.game, view.default_bot) for _ in range(2)]
        rng = Rng(seed ^ 0x5EED)
        columns = view.advice_columns(m.game)
        names = advisor_settings(m.game)
        takes_progress = names is None or "progress" in names
        last = None
        while (p := m.current_player()) != TERMINAL and len(times) < positions:
            if p == CHANCE:
                m.step_chance()
                continue
            obs = m.state.observation(p)
            legal = m.legal_actions()
            if p == 0 and len(legal) > 1:  # a decision (the table asks no advisor for a forced move)
                calls = [0]

                def progress(done, total, calls=calls):
                    calls[0] += 1

                extra = {"progress": progress} if takes_progress else {}
                t0 = clock()
                advice = [m.game.advise(obs, **col["settings"], **extra) for col in columns]
                times.append(clock() - t0)
                turn_starts.append(last != 0)
                progress_calls.append(calls[0])
                exact = advice[0].exact if exact is None else exact and advice[0].exact
                digest.update(json.dumps(obs, sort_keys=True, default=str).encode())
            last = p
            m.apply(bots[p].act(obs, tuple(legal), rng))
        seed += 1
    starts = [t for t, s in zip(times, turn_starts) if s]
    return {"game": game_id, "positions": len(times), "turn_starts": len(starts), "games": seed,
            "exact": bool(exact), "takes_progress": takes_progress,
            "min_progress_calls": min(progress_calls), "hash": digest.hexdigest()[:12],
            "p50_s": _quantile(times, 0.5), "p95_s": _quantile(times, 0.95), "max_s": max(times),
            "turn_start_p95_s": _quantile(starts, 0.95) if starts else None,
            "slowest_at": times.index(max(times))}


def body(argv) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--body", action="store_true")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--games", default="")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from bench_core import _cpu_clock  # the benchmarks' one CPU clock (Node's in Pyodide)

    clock, clock_name = _cpu_clock() if args.clock == "cpu" else (time.perf_counter, "wall: perf_counter")
    import platform

    import spieltisch
    from spieltisch.core.registry import get_game_class

    wanted = [g for g in args.games.split(",") if g] or [
        g for g in spieltisch.game_ids()
        if getattr(get_game_class(g), "view", None) and get_game_class(g)(2).advisor is not None]
    rows = [measure_game(g, args.positions, clock) for g in wanted]
    print(json.dumps({"python": platform.python_version(), "platform": sys.platform, "clock": clock_name,
                      "rows": rows}))
    return 0


# --- the driver ------------------------------------------------------------------------------------

def run(wheel: Path, site: Path, body_args: list[str], pyodide: bool = True, log=print) -> dict:
    """Both bodies against one built wheel (``site``: the wheel unzipped for CPython)."""
    sys.path.insert(0, str(HERE.parent / "tests" / "pyodide"))
    import pyodide_kit as harness

    out = {}
    log("advisor latency: CPython ...")
    out["cpython"] = _parse(harness.run_cpython(Path(__file__), ["--body", *body_args], site, timeout=3600), "CPython")
    if pyodide and harness.node_exe():
        log("advisor latency: Pyodide (Node) ...")
        out["pyodide"] = _parse(harness.run_pyodide(wheel, Path(__file__), ["--body", *body_args], timeout=3600),
                                "Pyodide")
        out["pyodide_version"] = harness.PYODIDE_VERSION
    return out


def _parse(proc, name: str) -> dict:
    if proc.returncode != 0:
        raise SystemExit(f"advisor latency body failed in {name}:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _ms(x) -> str:
    if x is None:
        return "–"
    return f"{x * 1000:,.0f} ms" if x < 10 else f"{x:,.1f} s"


def markdown(res: dict) -> str:
    cp, py = res["cpython"], res.get("pyodide")
    out = ["## Advisor latency (seat 0's decisions in seeded two-player games of the default bot)\n",
           f"CPython {cp['python']}; " + (f"Pyodide {res.get('pyodide_version', '?')} = Python {py['python']} under "
                                          f"Node" if py else "Pyodide: not run")
           + f"; clock: {cp['clock']}" + (f" / {py['clock']}" if py else "") + ". p50 / p95 / max per call "
           "(all advice columns of the view). Targets on Pyodide's p95: "
           f"≤ {TARGET_EXACT_S * 1000:.0f} ms for an exact advisor, ≤ {TARGET_ESTIMATE_S:g} s for an estimating one "
           "(which must report progress).\n",
           "| game | advisor | positions (turn starts) | CPython p50 / p95 / max | Pyodide p50 / p95 / max | "
           "Pyodide/CPython (p95) | turn starts p95 (Pyodide) | progress reports per call (min) | target | same positions |",
           "|---|---|---:|---|---|---:|---:|---:|---|---|"]
    prows = {r["game"]: r for r in py["rows"]} if py else {}
    for r in cp["rows"]:
        q = prows.get(r["game"])
        target = TARGET_EXACT_S if r["exact"] else TARGET_ESTIMATE_S
        judged = q if q else r
        ok = judged["p95_s"] <= target and (r["exact"] or judged["min_progress_calls"] > 0)
        verdict = ("met" if ok else "**missed**") + ("" if q else " (CPython only)")
        out.append(
            f"| {r['game']} | {'exact' if r['exact'] else 'estimate'} | {r['positions']} ({r['turn_starts']}) | "
            f"{_ms(r['p50_s'])} / {_ms(r['p95_s'])} / {_ms(r['max_s'])} | "
            + (f"{_ms(q['p50_s'])} / {_ms(q['p95_s'])} / {_ms(q['max_s'])} | {q['p95_s'] / r['p95_s']:.2f}× | "
               f"{_ms(q['turn_start_p95_s'])} | " if q else "– | – | – | ")
            + f"{judged['min_progress_calls'] if r['takes_progress'] else 'none taken'} | "
            f"≤ {_ms(target)}: {verdict} | {('yes' if q['hash'] == r['hash'] else '**no**') if q else '–'} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--body" in argv:
        return body(argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40, help="decisions of seat 0 measured per game")
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every game with an advisor)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--no-pyodide", action="store_true", help="CPython only")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE.parent / "tests" / "pyodide"))
    import tempfile

    import pyodide_kit as harness

    body_args = ["--positions", str(args.positions), "--clock", args.clock] + (
        ["--games", args.games] if args.games else [])
    with tempfile.TemporaryDirectory(prefix="spieltisch-advisor-") as tmp:
        print("building the wheel ...", file=sys.stderr, flush=True)
        wheel = harness.build_wheel(Path(tmp) / "dist")
        site = harness.unpack_wheel(wheel, Path(tmp) / "site")
        res = run(wheel, site, body_args, pyodide=not args.no_pyodide,
                  log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(res, indent=2) if args.json else markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
