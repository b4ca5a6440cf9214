"""Benchmarks: CPython and Pyodide side by side, printed as a Markdown table.

    python benchmarks/run.py            # full run (a few minutes)
    python benchmarks/run.py --quick    # short timing windows
    python benchmarks/run.py --json     # machine-readable
    python benchmarks/run.py --no-pyodide --no-site   # CPython only, no browser
    python benchmarks/run.py --profile wuerfel-joker-2   # cProfile of the random loop (CPython)
    python benchmarks/run.py --live     # then the live class under load (benchmarks/live_load.py)
    python benchmarks/run.py --advisor-latency   # also each game's advisor latency (advisor_latency.py)
    python benchmarks/run.py --lesson-start   # then a lesson's start, cold and warm (lesson_start.py)

Builds the wheel once (``python -m build``); CPython imports that wheel unzipped and Pyodide loads
it under Node (``tests/pyodide/run.mjs``, the runner the Pyodide test uses), so both measure the
same code. ``bench_core.py`` is the benchmark body, run unchanged in both interpreters. The two runs
go one after the other (the machine has two cores; running them together would disturb both).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "pyodide"))
sys.path.insert(0, str(HERE))  # replay.py's table
import pyodide_kit as harness  # noqa: E402

BODY = HERE / "bench_core.py"
RECORDS = HERE / "replay.py"  # long records: replay, undo, legality (its own table)

# Targets (CPython unless said otherwise). Random-game targets are per 1-player 1-round game.
RATE_TARGETS = {("wuerfel-joker-2", "1p1r"): 10_000, ("wuerfel-joker-1", "1p1r"): 5_000}
SOLVER_TARGET_CPYTHON_S = 1.0
SOLVER_TARGET_PYODIDE_S = 2.0
OVERHEAD_TARGET = 3.0


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run_body(kind: str, wheel: Path, site: Path, body_args: list[str], body: Path = BODY) -> dict:
    t0 = time.perf_counter()
    if kind == "cpython":
        proc = harness.run_cpython(body, body_args, site, timeout=1800)
    else:
        proc = harness.run_pyodide(wheel, body, body_args, timeout=1800)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark body failed in {kind}:\n{proc.stderr[-6000:]}")
    data = json.loads(proc.stdout)
    data["env"]["wall_s"] = time.perf_counter() - t0
    return data


def measure_site() -> dict:
    """Site size and Play page start times via ``site/measure.py``, if the site is built.

    Runs it like ``make measure`` does, with the site's venv (``.venv-site``: Playwright) when it
    exists; it prints one JSON line. The size is also summed here, so it is reported even when the
    browser part cannot run.
    """
    script = ROOT / "site" / "measure.py"
    built = ROOT / "_site"
    if not script.exists() or not (built / "index.html").exists():
        missing = "site/measure.py" if not script.exists() else "_site/"
        return {"status": f"not measured (run make site first; {missing} is missing)"}
    res = {"status": "measured", "site_bytes": sum(p.stat().st_size for p in built.rglob("*") if p.is_file())}
    venv_py = ROOT / ".venv-site" / "bin" / "python"
    py = str(venv_py) if venv_py.exists() else sys.executable
    try:
        proc = subprocess.run([py, str(script)], capture_output=True, text=True, timeout=900, cwd=ROOT)
    except (OSError, subprocess.TimeoutExpired) as e:
        res["first_widget"] = f"site/measure.py failed: {type(e).__name__}: {e}"
        return res
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    try:
        data = json.loads(lines[-1]) if proc.returncode == 0 and lines else None
    except ValueError:
        data = None
    if isinstance(data, dict):
        res.update(data)
    else:
        res["first_widget"] = (f"site/measure.py exited {proc.returncode}: "
                               + (proc.stdout + proc.stderr).strip()[-1500:])
    return res


# --- formatting ----------------------------------------------------------------------------------
def _n(x, digits=0) -> str:
    if x is None:
        return "–"
    return f"{x:,.{digits}f}"


def _s(x) -> str:
    if x is None:
        return "–"
    return f"{x * 1000:,.0f} ms" if x < 10 else f"{x:,.1f} s"


def _ratio(a, b) -> str:
    return f"{a / b:.2f}×" if a and b else "–"


def _check(ok) -> str:
    return "–" if ok is None else ("met" if ok else "**missed**")


def markdown(res: dict) -> str:
    cp, py = res["cpython"], res.get("pyodide")
    out = []
    e = cp["env"]
    pe = py["env"] if py else None
    out.append(f"# spieltisch {e['spieltisch']} benchmarks\n")
    out.append(f"- CPython {e['python']} ({e['platform']}); "
               + (f"Pyodide {res.get('pyodide_version', '?')} = Python {pe['python']} under Node {res.get('node', '?')}"
                  if pe else "Pyodide: not run"))
    load = pe.get("pyodide_load") if pe else None
    if load:
        out.append(f"- Pyodide start: loadPyodide {_s(load['load_pyodide_s'])}, wheel {_s(load['load_wheel_s'])}, "
                   f"`import spieltisch` {_s(pe['import_s'])} (CPython {_s(e['import_s'])})")
    out.append(f"- timing: best of {cp['rates'][0].get('windows', 1) if cp['rates'] else '?'} windows, "
               f"{e['seconds_per_measurement']} s per measurement; clock: CPython {e.get('clock', '?')}"
               + (f", Pyodide {pe.get('clock', '?')}" if pe else "")
               + ". CPU time, since the machine may be shared (`--clock wall` for wall time).")
    out.append(f"- wheel: `{res['wheel']['name']}`, {res['wheel']['bytes'] / 1024:,.1f} KiB\n")

    out.append("## Random-bot games per second\n")
    out.append("A *game* is one `core.simulate.play_one` call with the random bot in every seat: `Match` set-up, "
               "bots, play to the end, the record kept. *1p1r* = 1 player, 1 round (one turn).\n")
    out.append("| game | a game is | CPython games/s | Pyodide games/s | Pyodide/CPython | target (CPython) | actions/game |")
    out.append("|---|---|---:|---:|---:|---|---:|")
    prates = {(r["game"], r["kind"]): r for r in py["rates"]} if py else {}
    for r in cp["rates"]:
        p = prates.get((r["game"], r["kind"]))
        tgt = RATE_TARGETS.get((r["game"], r["kind"]))
        tgt_txt = f"≥ {tgt:,}: {_check(r['games_per_s'] >= tgt)}" if tgt else ""
        out.append(f"| {r['game']} | {r['label']} | {_n(r['games_per_s'])} | {_n(p and p['games_per_s'])} | "
                   f"{_ratio(r['games_per_s'], p and p['games_per_s'])} slower | {tgt_txt} | {_n(r['actions_per_game'], 1)} |"
                   if p else
                   f"| {r['game']} | {r['label']} | {_n(r['games_per_s'])} | – | – | {tgt_txt} | {_n(r['actions_per_game'], 1)} |")

    out.append("\n## Exact solvers, cold (fresh process, caches cleared)\n")
    out.append("CPU time, wall time in parentheses. *warm* = the same call again (the solvers cache their result).\n")
    out.append(f"| game | solver | CPython | Pyodide | Pyodide/CPython | target ≤ {SOLVER_TARGET_CPYTHON_S:g} s CPython, "
               f"≤ {SOLVER_TARGET_PYODIDE_S:g} s Pyodide | warm call (CPython) | value of a turn |")
    out.append("|---|---|---:|---:|---:|---|---:|---:|")
    psol = {(s["game"], s["solver"]): s for s in py["solvers"]} if py else {}
    for s in cp["solvers"]:
        if "skipped" in s:
            out.append(f"| {s['game']} | {s['solver']} | skipped: {s['skipped']} | | | | | |")
            continue
        p = psol.get((s["game"], s["solver"]), {})
        pc = p.get("cold_s")
        ok = s["cold_s"] <= SOLVER_TARGET_CPYTHON_S and (pc is None or pc <= SOLVER_TARGET_PYODIDE_S)
        out.append(f"| {s['game']} | `{s['solver']}` | {_s(s['cold_s'])} (wall {_s(s.get('cold_wall_s'))}) | "
                   f"{_s(pc)} (wall {_s(p.get('cold_wall_s'))}) | {_ratio(pc, s['cold_s'])} | "
                   f"{_check(ok)} | {_s(s['warm_s'])} | {_n(s.get('start_value_float'), 4)} |")

    out.append("\n## Abstraction overhead (1 player, 1 round, random choices)\n")
    out.append("Ratio of `benchmarks/handwritten.py` (plain ints, no classes, same rules and decision points, "
               "dice and choices from the same generator `Rng.below`) to the engine's rate. A game of the engine "
               "is `core.simulate.play_one`: Match, bots and two seeded generators set up, played, recorded. "
               "Equal mean scores show both play the same random policy.\n")
    out.append("*play only* times `Match.play` alone (Match, bots and generators built beforehand): the per-action "
               "cost without the per-game set-up.\n")
    out.append(f"| game | engine CPython | hand-written CPython | overhead CPython | overhead Pyodide | "
               f"target ≤ {OVERHEAD_TARGET:g}× | play only: CPython games/s, overhead | mean score engine / hand |")
    out.append("|---|---:|---:|---:|---:|---|---|---|")
    pov = {o["game"]: o for o in py["overhead"]} if py else {}
    for o in cp["overhead"]:
        if "skipped" in o:
            out.append(f"| {o['game']} | skipped: {o['skipped']} | | | | | | |")
            continue
        p = pov.get(o["game"], {})
        out.append(f"| {o['game']} | {_n(o['engine_games_per_s'])}/s | {_n(o['handwritten_games_per_s'])}/s | "
                   f"{o['overhead']:.1f}× | {_n(p.get('overhead'), 1)}{'×' if p.get('overhead') else ''} | "
                   f"{_check(o['overhead'] <= OVERHEAD_TARGET)} | "
                   f"{_n(o.get('engine_play_only_games_per_s'))}/s, {o.get('overhead_play_only', 0):.1f}× | "
                   f"{o['engine_mean_score']:.2f} / {o['handwritten_mean_score']:.2f} |")

    if py:
        ratios = [r["games_per_s"] / prates[(r["game"], r["kind"])]["games_per_s"]
                  for r in cp["rates"] if (r["game"], r["kind"]) in prates]
        if ratios:
            out.append(f"\nPyodide/CPython time ratio over the random-game rows: {min(ratios):.2f}×–{max(ratios):.2f}× "
                       f"(geometric mean {_geomean(ratios):.2f}×).")

    out.append("\n## Bots: time per move (CPU, whole seeded games; solo where the game allows, else the bot in every seat and the mean score of seat 1)\n")
    out.append("| game | options | bot | CPython ms/move | Pyodide ms/move | Pyodide/CPython | mean score (CPython) |")
    out.append("|---|---|---|---:|---:|---:|---:|")
    pbots = {(b["game"], json.dumps(b["options"]), b["bot"]): b for b in (py or {}).get("bots", [])}
    for b in cp.get("bots", []):
        q = pbots.get((b["game"], json.dumps(b["options"]), b["bot"]))
        ratio = f"{q['ms_per_move'] / b['ms_per_move']:.2f}×" if q else "–"
        out.append(f"| {b['game']} | {json.dumps(b['options'])} | {b['bot']} | {b['ms_per_move']:.1f} | "
                   f"{q['ms_per_move']:.1f} | {ratio} | {b['mean_score']:.1f} (n={b['games']}) |" if q else
                   f"| {b['game']} | {json.dumps(b['options'])} | {b['bot']} | {b['ms_per_move']:.1f} | – | – | "
                   f"{b['mean_score']:.1f} (n={b['games']}) |")

    out.append("\n## Replay of a long record (Würfel Joker 2: one turn of declined doubles)\n")
    out.append("| record | CPython replay / play | ratio | Pyodide replay / play | ratio |")
    out.append("|---|---:|---:|---:|---:|")
    prep = {r["game"]: r for r in (py or {}).get("replay", [])}
    for r in cp.get("replay", []):
        q = prep.get(r["game"])
        qtxt = f"{q['replay_s']:.2f} s / {q['play_s']:.2f} s | {q['ratio']:.1f}×" if q else "– | –"
        out.append(f"| {r['record_chars'] / 1e6:.1f} MB, {r['actions']:,} actions | {r['replay_s']:.2f} s / "
                   f"{r['play_s']:.2f} s | {r['ratio']:.1f}× | {qtxt} |")

    if res.get("records"):
        import replay as long_records

        out.append("\n" + long_records.markdown(res["records"]))

    out.append("\n## Site\n")
    site = res["site"]
    if site.get("status") == "measured":
        out.append(f"- site size: {site['site_bytes'] / 1e6:,.1f} MB ({site['site_bytes']:,} bytes, all of `_site/`)")
        if "games" in site:
            out.append("\nPlay pages, one browser, one run (cold: a fresh context; warm: the same context again, "
                       "from the service worker's copy and the first visit's Python snapshot; ratios to the bare Pyodide boot "
                       "(`loadPyodide()` + `import json`, in a worker) measured right before each game; "
                       "wall time, so the machine's load counts):\n")
            out.append("| page | seconds | × bare | bytes downloaded |")
            out.append("|---|---|---|---|")
            for game, row in site["games"].items():
                out.append(f"| {game}: bare Pyodide | {', '.join(f'{t:.2f}' for t in row['bare_s'])} | 1.00 | – |")
                out.append(f"| {game}: cold, to the first clickable move | {', '.join(f'{t:.2f}' for t in row['cold_s'])} "
                           f"| {row['cold_ratio']:.2f} | {', '.join(f'{b / 1e6:.1f} MB' for b in row['cold_bytes'])} |")
                out.append(f"| {game}: warm | {', '.join(f'{t:.2f}' for t in row['warm_s'])} | {row['warm_ratio']:.2f} | – |")
        else:
            out.append(f"- Play pages: {site.get('first_widget', 'not reported')}")
    else:
        out.append(f"- site size, time to first widget: {site['status']}")
    out.append(f"\n- wheel size: {res['wheel']['bytes']:,} bytes")
    if "advisor_latency" in res:
        import advisor_latency

        out.append("\n" + advisor_latency.markdown(res["advisor_latency"]))
    return "\n".join(out) + "\n"


def _geomean(xs):
    import math

    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def profile(game_id: str, seconds: float, site: Path) -> str:
    """cProfile of ``play_one`` random 1-player 1-round games in CPython: the top functions."""
    code = f"""
import cProfile, pstats, time
from spieltisch.core.simulate import game_seeds, play_one
seeds = game_seeds(3, 200000)
pr = cProfile.Profile()
t0 = time.perf_counter(); n = 0
pr.enable()
for cs, bs in seeds:
    play_one({game_id!r}, 1, {{"rounds": 1}}, ["random"], cs, bs)
    n += 1
    if n % 256 == 0 and time.perf_counter() - t0 > {seconds}:
        break
pr.disable()
print(f"{{n}} games")
pstats.Stats(pr).sort_stats("tottime").print_stats(22)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, timeout=600)
    return proc.stdout + proc.stderr


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="spieltisch benchmarks: CPython and Pyodide side by side")
    ap.add_argument("--quick", action="store_true", help="short timing windows (about a minute in all)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--no-pyodide", action="store_true", help="CPython only")
    ap.add_argument("--seconds", type=float, default=None, help="timing window per measurement")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): CPU time of the benchmark process, robust on a shared machine")
    ap.add_argument("--no-site", action="store_true", help="skip site/measure.py (it drives Chromium)")
    ap.add_argument("--profile", metavar="GAME", help="print a cProfile of GAME's random 1p1r loop and exit")
    ap.add_argument("--live", action="store_true",
                    help="also run benchmarks/live_load.py (40 students on the live class's server, a few minutes)")
    ap.add_argument("--advisor-latency", action="store_true",
                    help="also time every game's advisor on seeded positions (benchmarks/advisor_latency.py)")
    ap.add_argument("--lesson-start", action="store_true",
                    help="also run benchmarks/lesson_start.py (navigation -> first prediction button, cold and warm)")
    ap.add_argument("--advisor-positions", type=int, default=40, help="positions per game for --advisor-latency")
    args = ap.parse_args(argv)

    body_args = (["--quick"] if args.quick else []) + ["--clock", args.clock]
    if args.seconds:
        body_args += ["--seconds", str(args.seconds)]

    with tempfile.TemporaryDirectory(prefix="spieltisch-bench-") as tmp:
        log("building the wheel ...")
        wheel = harness.build_wheel(Path(tmp) / "dist")
        site = harness.unpack_wheel(wheel, Path(tmp) / "site")
        if args.profile:
            print(profile(args.profile, args.seconds or 3.0, site))
            return 0
        res = {"wheel": {"name": wheel.name, "bytes": wheel.stat().st_size, "tags": harness.wheel_tags(wheel)}}
        log("CPython ...")
        res["cpython"] = run_body("cpython", wheel, site, body_args)
        if not args.no_pyodide and harness.node_exe():
            log("Pyodide (Node) ...")
            res["pyodide"] = run_body("pyodide", wheel, site, body_args)
            res["pyodide_version"] = harness.PYODIDE_VERSION
            res["node"] = subprocess.run([harness.node_exe(), "--version"], capture_output=True, text=True).stdout.strip()
        elif not args.no_pyodide:
            log("node not found: Pyodide half skipped")
        if args.advisor_latency:
            import advisor_latency

            res["advisor_latency"] = advisor_latency.run(
                wheel, site, ["--positions", str(args.advisor_positions), "--clock", args.clock],
                pyodide=not args.no_pyodide, log=log)
        records_args = ["--json", "--clock", args.clock] + (["--quick"] if args.quick else [])
        log("long records, CPython (benchmarks/replay.py) ...")
        res["records"] = {"CPython": run_body("cpython", wheel, site, records_args, RECORDS)}
        if "pyodide" in res:
            log("long records, Pyodide ...")
            res["records"]["Pyodide"] = run_body("pyodide", wheel, site, records_args, RECORDS)
    if args.no_site:
        res["site"] = {"status": "not measured (--no-site)"}
    else:
        log("site (site/measure.py) ...")
        res["site"] = measure_site()
    if args.json:
        print(json.dumps(res, indent=2, ensure_ascii=False))
    else:
        print(markdown(res))
    if args.lesson_start:  # a browser of its own, like site/measure.py: with the site's venv (Playwright)
        log("lesson start (benchmarks/lesson_start.py) ...")
        sys.stdout.flush()
        venv_py = ROOT / ".venv-site" / "bin" / "python"
        lesson = subprocess.run([str(venv_py) if venv_py.exists() else sys.executable, str(HERE / "lesson_start.py")]
                                + (["--json"] if args.json else []), cwd=ROOT, timeout=3600)
        if lesson.returncode != 0:
            return lesson.returncode
    if args.live:  # after the others: it loads the machine with a server and 41 clients
        log("live class (benchmarks/live_load.py) ...")
        sys.stdout.flush()
        live = subprocess.run([sys.executable, str(HERE / "live_load.py")] + (["--json"] if args.json else []),
                              cwd=ROOT, timeout=1800)
        if live.returncode != 0:
            return live.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
