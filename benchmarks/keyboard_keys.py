"""How many keys a keyboard-only player presses for a whole game, per game, on the Play pages.

    python benchmarks/keyboard_keys.py                  # every game, seed 1
    python benchmarks/keyboard_keys.py --games tuefteln --seeds 1 2 3
    python benchmarks/keyboard_keys.py --json

Each game is played to its end in Chromium by the keyboard-only player of the browser tests
(tests/harness/frontend.py: the same choices as ``play_until_banner``, each reached with Tab or
Shift+Tab, inside a board with the arrow keys along the shortest way, then Enter), against the
Play page's default bot. The seed is typed into the seed field before the count starts (an open
game: the same seed deals the same game). Counted: every key pressed from the first Tab into the
page to the end banner; "moves": the Enter presses (each acted on something); "keys/move".

Needs the built site (``site/build.py``, run here with ``--if-stale``) and Chromium
(/usr/bin/chromium or SPIELTISCH_CHROMIUM); Playwright from the project's venv.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "site")]

GAMES = ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]


def play(browser, url: str, game: str, seed: int) -> dict:
    from harness import frontend
    from harness.frontend import keyboard_only, play_until_banner, settle

    page = browser.new_page(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    try:
        page.goto(url + f"play/{game}.html?lang=de")
        root = page.locator("#app .sp-table")
        root.locator(".sp-status").wait_for(timeout=180_000)
        settle(page, root)
        root.locator(".sp-seed").fill(str(seed))
        root.locator(".sp-seed").press("Enter")
        settle(page, root)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        moves = [0]
        start, t0 = frontend.KEYS["pressed"], time.monotonic()
        page.keyboard.press("Tab")  # into the page
        with keyboard_only(page, lambda: moves.__setitem__(0, moves[0] + 1)):
            play_until_banner(page, root, game)
        keys = frontend.KEYS["pressed"] - start + 1
        return {"game": game, "seed": seed, "keys": keys, "moves": moves[0], "seconds": round(time.monotonic() - t0, 1)}
    finally:
        page.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES)
    ap.add_argument("--seeds", nargs="+", type=int, default=[1])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    python = ROOT / ".venv-site" / "bin" / "python"
    subprocess.run([str(python), "site/build.py", "--if-stale"], cwd=ROOT, check=True)
    from playwright.sync_api import sync_playwright
    from sitekit import CHROMIUM_ARGS, StaticServer

    server = StaticServer(ROOT / "_site")
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium"),
                                         args=CHROMIUM_ARGS)
            for game in args.games:
                for seed in args.seeds:
                    rows.append(play(browser, server.url, game, seed))
                    if not args.json:
                        r = rows[-1]
                        print(f"  {r['game']} seed {r['seed']}: {r['keys']} keys, {r['moves']} moves", file=sys.stderr)
            browser.close()
    finally:
        server.close()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'game':<18}{'seed':>6}{'keys':>8}{'moves':>8}{'keys/move':>11}{'seconds':>9}")
    for r in rows:
        print(f"{r['game']:<18}{r['seed']:>6}{r['keys']:>8}{r['moves']:>8}{r['keys'] / max(1, r['moves']):>11.1f}"
              f"{r['seconds']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
