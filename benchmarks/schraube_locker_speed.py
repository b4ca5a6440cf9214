"""Schraube Locker speed in CPython and Pyodide: random 4-player games per second, strong ms/move.

Builds the wheel once and runs ``schraube_locker_speed_body.py`` unchanged in both interpreters
(Pyodide under Node, the runner the Pyodide tests use), one after the other.

    python benchmarks/schraube_locker_speed.py [--seconds 5] [--strong-games 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "pyodide"))
import pyodide_kit as harness  # noqa: E402

BODY = HERE / "schraube_locker_speed_body.py"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--strong-games", type=int, default=3)
    args = ap.parse_args(argv)
    body_args = [str(args.seconds), str(args.strong_games)]
    with tempfile.TemporaryDirectory() as tmp:
        wheel = harness.build_wheel(Path(tmp) / "wheel")
        site = harness.unpack_wheel(wheel, Path(tmp) / "site")
        rows = {"CPython": harness.run_cpython(BODY, body_args, site, timeout=1800)}
        if harness.node_exe():
            rows["Pyodide"] = harness.run_pyodide(wheel, BODY, body_args, timeout=1800)
    print(f"{'interpreter':<12}{'python':<10}{'random games/s':>15}{'strong ms/move':>16}")
    for name, proc in rows.items():
        if proc.returncode != 0:
            print(f"{name:<12}failed: {proc.stderr[-2000:]}")
            continue
        d = json.loads(proc.stdout.strip().splitlines()[-1])
        py = ".".join(map(str, d["python"]))
        print(f"{name:<12}{py:<10}{d['random_games_per_s']:>15.1f}{d['strong_ms_per_move']:>16.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
