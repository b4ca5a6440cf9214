"""Restarts of the live class: the server is killed (``kill -9``) and started again on its data, over
and over, under seven open pages; every page must come back to its seat by itself each time.

    python benchmarks/live_restart.py                   # 100 restarts
    python benchmarks/live_restart.py --restarts 20 --json

Starts ``spieltisch class serve`` (a child process, its own data folder in a temporary directory).
The pages (tests/harness/comeback.py): the teacher's board, the two tables' projectors and three
students as Bokeh websocket clients that come back as the pages' script makes them (``/alive``, then a fresh
page; a student says hello with the seat token), and one student in Chromium running the real script
(``--no-browser``: a fourth websocket student instead). Two Skip-Bo Masters tables of two, no bots,
so a seat's hand is the same before and after a restart. Each round waits a random 0 to ``--pause``
seconds after every page is back (a page then may still be drawing or pinging), kills the server,
checks that the Chromium page says it is cut off with every control disabled, starts the server
again and waits up to ``--timeout`` seconds for every page to show its place again: a student their
table and hand, the board its room, a projector its table. A page that is not back then is
**stuck**. Printed: the restarts, the stuck pages (the target is 0), the seconds from the restart
command until the last page was back (median, max; the server's own start is in them), and the
Chromium console's "First message was not an ACK" lines (Bokeh's client, issue 33; 0 now that its own
reconnect is off).

Needs the ``panel`` extra and, for the browser page, Playwright with Chromium at /usr/bin/chromium
(``SPIELTISCH_CHROMIUM``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness.comeback import Browser, Class, Loop  # noqa: E402
from harness.livewire import Server  # noqa: E402

CHROMIUM = os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def measure(restarts: int, browser: bool, pause: float, timeout: float, seed: int, log) -> dict:
    rng = random.Random(seed)
    stuck, took, not_ack = [], [], [0]
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data)).start()
        loop = Loop()
        pw = chromium = None
        try:
            names = ["Ben", "Cem", "Dan"] + ([] if browser else ["Eva"])
            cls = loop(Class(server, names).open())
            ana = None
            if browser:
                from playwright.sync_api import sync_playwright
                pw = sync_playwright().start()
                chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                ana = Browser(chromium)

                def console(message):
                    if "First message was not an ACK" in message.text:
                        not_ack[0] += 1
                ana.page.on("console", console)
                ana.join(server.base, cls.room)
            loop(cls.join())
            loop(cls.start(students=4))
            pages = len(cls.pages()) + int(browser)
            if ana is not None:
                ana.page.wait_for_selector(".sp-board .sb-hand", timeout=60_000)
            for r in range(restarts):
                wait = rng.uniform(0, pause)
                if ana is not None:
                    ana.page.wait_for_timeout(wait * 1000)
                else:
                    time.sleep(wait)
                before = cls.places()
                hand = ana.hand() if ana is not None else None
                if ana is not None:
                    ana.mark()
                server.kill()
                if ana is not None:
                    ana.page.wait_for_selector(".lv-conn:not(:empty)", timeout=30_000)
                    offered = ana.offers()
                    if offered["enabled"] or not offered["inert"]:
                        stuck.append(f"restart {r}: the cut-off page still offered {offered['enabled']} controls")
                started = time.monotonic()
                server.start()
                back = loop.start(cls.come_back(timeout), timeout + 30)
                if ana is not None:
                    try:
                        ana.reloaded(int(timeout * 1000))
                        if not ana.shows(hand):
                            stuck.append(f"restart {r}: the browser page (hand {ana.hand()} instead of {hand})")
                    except Exception as e:  # noqa: BLE001 - counted, and the next restart tries again
                        stuck.append(f"restart {r}: the browser page ({type(e).__name__})")
                try:
                    back.result(timeout + 40)
                    missing = loop(cls.settle(before, timeout), timeout + 30)
                except Exception as e:  # noqa: BLE001 - every websocket page counts as stuck
                    missing = [f"websocket pages ({type(e).__name__}: {e})"]
                stuck += [f"restart {r}: {m}" for m in missing]
                took.append(time.monotonic() - started)
                print(f"restart {r + 1}/{restarts}: back after {took[-1]:.1f} s; stuck so far: {len(stuck)}",
                      file=log, flush=True)
                if missing:
                    break  # a websocket page that is not back cannot be killed again meaningfully
            loop(cls.close())
        finally:
            if chromium is not None:
                chromium.close()
            if pw is not None:
                pw.stop()
            loop.close()
            server.stop()
    return {"restarts": len(took), "pages": pages, "browser_pages": int(browser), "stuck": len(stuck),
            "stuck_pages": stuck, "back_s_median": round(statistics.median(took), 2) if took else None,
            "back_s_max": round(max(took), 2) if took else None, "first_message_not_ack": not_ack[0]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--restarts", type=int, default=100)
    ap.add_argument("--no-browser", action="store_true", help="six websocket pages, no Chromium")
    ap.add_argument("--pause", type=float, default=2.0, help="at most this many seconds between back and kill")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a page has to come back")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not 1 <= args.restarts <= 1000:
        ap.error("--restarts: 1 to 1000")
    browser = not args.no_browser and Path(CHROMIUM).exists()
    started = time.monotonic()
    out = measure(args.restarts, browser, args.pause, args.timeout, args.seed, sys.stderr)
    out["seconds"] = round(time.monotonic() - started, 1)
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"restarts: {out['restarts']}  pages: {out['pages']} ({out['browser_pages']} in Chromium)  "
              f"stuck: {out['stuck']}")
        print(f"seconds from the restart command until every page was back: median {out['back_s_median']}, "
              f"max {out['back_s_max']}")
        print(f"'First message was not an ACK' in the browser's console: {out['first_message_not_ack']}")
        print(f"took {out['seconds']} s; load average now {out['load_average']}")
        for line in out["stuck_pages"]:
            print("  stuck:", line)
    return 0 if out["stuck"] == 0 and out["restarts"] == args.restarts else 1


if __name__ == "__main__":
    raise SystemExit(main())
