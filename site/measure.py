"""Measure the built site: its size, and how long a cold Play view takes to show a live widget.

    .venv-site/bin/python site/measure.py [--game smoke] [--runs 1]

From code (e.g. the benchmark command)::

    from measure import site_size, time_to_first_widget   # with site/ on sys.path
    site_size()                        -> bytes of _site/
    time_to_first_widget("wuerfel-joker") -> seconds from navigation to a clickable widget button

Each timing uses a fresh browser context (no service worker, no HTTP cache), so it is cold.
Requires a built _site/ (`make site`), Playwright (pip) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
sys.path.insert(0, str(ROOT / "tests" / "site"))  # the shared server + Chromium flags

from sitekit import CHROMIUM_ARGS, RequestLog, StaticServer  # noqa: E402


def site_size(site: Path = SITE) -> int:
    """Total bytes of all files in the built site."""
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def time_to_first_widget(game: str = "wuerfel-joker", site: Path = SITE,
                         chromium: str = "/usr/bin/chromium", timeout_s: float = 300) -> float:
    """Seconds from opening play/<game>.html to the first clickable control of the game, cold.

    Also asserts that no request left 127.0.0.1, so a timing can never come from a CDN.
    """
    from playwright.sync_api import sync_playwright

    server = StaticServer(site)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                ctx = browser.new_context(viewport={"width": 1200, "height": 800})
                log = RequestLog(ctx)
                page = ctx.new_page()
                start = time.perf_counter()
                page.goto(f"{server.url}play/{game}.html")
                # the shared front-end's first clickable control (a game button or a field)
                page.frame_locator("iframe#app").locator(
                    ".sp-table button.sp-move, .sp-table [data-act]"
                ).first.wait_for(timeout=timeout_s * 1000)
                elapsed = time.perf_counter() - start
                log.assert_only_local()
                return elapsed
            finally:
                browser.close()
    finally:
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="size of _site/ and cold Play time to first widget")
    parser.add_argument("--game", default="wuerfel-joker", help="play page: a site/play/<name>.ipynb stem")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    if not (SITE / "index.html").exists():
        sys.exit("no _site/ yet: run `make site` first")
    times = [round(time_to_first_widget(args.game), 2) for _ in range(args.runs)]
    print(json.dumps({"site_bytes": site_size(), "site_mb": round(site_size() / 1e6, 1),
                      "game": args.game, "first_widget_s": times}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
