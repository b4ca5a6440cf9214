"""Measure the built site: its size, how fast a Play page starts against bare Pyodide, and how long
each cell of each lesson takes.

    .venv-site/bin/python site/measure.py [--runs 3]
    .venv-site/bin/python site/measure.py --lessons [--lesson wuerfel-joker] [--lang de]

From code (e.g. the benchmark command)::

    from measure import site_size, play_times   # with site/ on sys.path
    site_size()        -> bytes of _site/
    play_times()       -> {"bare_s": [...], "games": {id: {"bare_s", "cold_s", "warm_s", "cold_bytes",
                                                         "cold_ratio", "warm_ratio"}}}

One browser, one run: per ready game, bare Pyodide from the site (loadPyodide() in a worker,
``import json``; the game's ratios are to this boot, measured right before it), then a cold Play page (a fresh browser context: no service worker, no HTTP cache)
until its first move is clickable, the bytes that visit downloaded (answers its service worker
served from its cache are not downloads), and a warm visit in the same context (the service
worker's copy). Every timing asserts that no request left 127.0.0.1.
``--lessons``: every lesson's student version, opened from the landing page's Explore in each
language (a fresh browser context: a cold kernel), its solution cells opened, Run All, as the
browser test does (tests/site/lessonrun.py); prints per lesson the total and the slowest cells with
their first line. The target is every cell under 10 s in the browser (docs/lessons.md); the browser
test only has a hang bound. From code: ``lesson_times() -> {(id, lang): [(cell, seconds, first line)]}``.

Requires a built _site/ (`make site`), Playwright (pip) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
sys.path.insert(0, str(ROOT / "tests" / "site"))  # the shared server + Chromium flags

from sitekit import CHROMIUM_ARGS, RequestLog, StaticServer, downloaded  # noqa: E402

READY = ".sp-table button.sp-move, .sp-table [data-act]"  # the first clickable move of a game
# Bare Pyodide, as a Play page loads it (a module worker, the site's own copy), and nothing else.
BARE = """<!doctype html><meta charset="utf-8"><title>boot</title><script type="module">
const t0 = performance.now();
const code = `import { loadPyodide } from "${new URL("../lite/static/pyodide/pyodide.mjs", location.href)}";
const p = await loadPyodide({ indexURL: "${new URL("../lite/static/pyodide/", location.href)}" });
p.runPython("import json"); postMessage("ready");`;
const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
w.onmessage = () => { document.title = "ready"; };
</script>"""


def site_size(site: Path = SITE) -> int:
    """Total bytes of all files in the built site."""
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def ready_games(site: Path = SITE) -> list[str]:
    return sorted(p.stem for p in (site / "play").glob("*.html") if p.stem != "smoke" and not p.stem.startswith("_"))


@contextlib.contextmanager
def served(site: Path, chromium: str):
    """The built site on 127.0.0.1 and a Chromium to visit it: ``(browser, url)``, both closed after."""
    from playwright.sync_api import sync_playwright

    server = StaticServer(site)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                yield browser, server.url
            finally:
                browser.close()
    finally:
        server.close()


def play_visits(browser, url: str, game: str, timeout_s: float = 300) -> tuple[float, float, int]:
    """A cold visit of a game's Play page in a fresh context, then a warm one in the same context:
    ``(cold_s, warm_s, cold_bytes)``, seconds until its first move is clickable (also used by
    benchmarks/lesson_start.py as the lessons' reference)."""
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        log = RequestLog(ctx)
        responses = []
        ctx.on("response", lambda r: responses.append(r))
        page = ctx.new_page()
        start = time.perf_counter()
        page.goto(f"{url}play/{game}.html")
        page.locator(READY).first.wait_for(timeout=timeout_s * 1000)
        cold = round(time.perf_counter() - start, 2)
        # the snapshot (taken after the first view) is kept, then the last cache writes
        page.locator("#app[data-snapshot]").wait_for(state="attached", timeout=timeout_s * 1000)
        page.wait_for_timeout(500)
        cold_bytes = downloaded(responses)
        page.close()
        page = ctx.new_page()
        start = time.perf_counter()
        page.goto(f"{url}play/{game}.html")
        page.locator(READY).first.wait_for(timeout=timeout_s * 1000)
        warm = round(time.perf_counter() - start, 2)
        log.assert_only_local()
    finally:
        ctx.close()
    return cold, warm, cold_bytes


def play_times(site: Path = SITE, chromium: str = "/usr/bin/chromium", runs: int = 1,
               timeout_s: float = 300, games: list[str] | None = None) -> dict:
    ready = ready_games(site)
    unknown = sorted(set(games or ()) - set(ready))
    if unknown:
        raise SystemExit(f"no Play page for {unknown}; the ready games are {ready}")
    out = {"bare_s": [], "games": {g: {"bare_s": [], "cold_s": [], "warm_s": [], "cold_bytes": []}
                                   for g in ready if not games or g in games}}

    def bare_boot(browser, url) -> float:
        ctx = browser.new_context()
        log = RequestLog(ctx)
        page = ctx.new_page()
        start = time.perf_counter()
        page.goto(url + "play/_boot.html")
        page.wait_for_function("document.title === 'ready'", timeout=timeout_s * 1000)
        seconds = round(time.perf_counter() - start, 2)
        log.assert_only_local()
        ctx.close()
        return seconds

    boot = site / "play" / "_boot.html"
    boot.write_text(BARE, encoding="utf-8")
    try:
        with served(site, chromium) as (browser, url):
            for _ in range(runs):
                for game, row in out["games"].items():
                    # each game's ratios are to a bare boot measured right before it: the
                    # machine's load drifts less between neighbours than over the whole run
                    row["bare_s"].append(bare_boot(browser, url))
                    out["bare_s"].append(row["bare_s"][-1])
                    cold, warm, cold_bytes = play_visits(browser, url, game, timeout_s)
                    row["cold_s"].append(cold)
                    row["warm_s"].append(warm)
                    row["cold_bytes"].append(cold_bytes)
    finally:
        boot.unlink(missing_ok=True)
    for row in out["games"].values():
        bare = statistics.median(row["bare_s"])
        row["cold_ratio"] = round(statistics.median(row["cold_s"]) / bare, 2)
        row["warm_ratio"] = round(statistics.median(row["warm_s"]) / bare, 2)
    return out


TARGET_S = 10  # docs/lessons.md: every cell of a lesson under 10 s in the browser


def lesson_times(site: Path = SITE, chromium: str = "/usr/bin/chromium", lessons: list[str] | None = None,
                 langs: tuple = ("de", "en")) -> dict:
    """Run All of each lesson's student version; ``{(id, lang): [(code cell, seconds, first line)]}``."""
    import lessonrun

    sys.path.insert(0, str(ROOT / "site"))
    from build import lessons as all_lessons

    known = sorted(all_lessons())
    unknown = sorted(set(lessons or ()) - set(known))
    if unknown:
        raise SystemExit(f"no lesson {unknown}; the lessons are {known}")
    out = {}
    with served(site, chromium) as (browser, url):
        for lesson in lessons or known:
            for lang in langs:
                ctx = browser.new_context(viewport={"width": 1200, "height": 800})
                log = RequestLog(ctx)
                page = ctx.new_page()
                lessonrun.open_lesson(page, url, lesson, lang)
                lessonrun.expand_all(page)
                times = lessonrun.run_all(page)
                errors = lessonrun.error_outputs(page)
                if errors:
                    raise SystemExit(f"{lesson}-{lang}: a cell failed:\n{errors[0][-2000:]}")
                first = [src.strip().splitlines()[0] if src.strip() else "" for src in lessonrun.code_cells(lesson, lang)]
                out[(lesson, lang)] = [(i, round(t, 2), first[i] if i < len(first) else "") for i, t in times]
                log.assert_only_local()
                ctx.close()
    return out


def lesson_table(times: dict, slowest: int = 5) -> str:
    lines = [f"{'lesson':<18} {'lang':<4} {'cells':>5} {'Run All':>8} {'max':>6} {'> 10 s':>6}   slowest cells"]
    for (lesson, lang), cells in times.items():
        total = sum(t for _, t, _ in cells)
        top = sorted(cells, key=lambda c: -c[1])[:slowest]
        over = sum(1 for _, t, _ in cells if t > TARGET_S)
        lines.append(f"{lesson:<18} {lang:<4} {len(cells):>5} {total:>7.1f}s {top[0][1]:>5.1f}s {over:>6}")
        lines += [f"{'':>52}[{i:>2}] {t:>5.1f} s  {first[:60]}" for i, t, first in top]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="size of _site/, Play page start against bare Pyodide, lesson cell times")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--game", action="append", help="only these games (default: every ready one)")
    parser.add_argument("--lessons", action="store_true", help="time every cell of every lesson (Run All)")
    parser.add_argument("--lesson", action="append", help="with --lessons: only these lessons")
    parser.add_argument("--lang", action="append", choices=("de", "en"), help="with --lessons: only these languages")
    args = parser.parse_args(argv)
    if not (SITE / "index.html").exists():
        sys.exit("no _site/ yet: run `make site` first")
    if args.lessons:
        print(lesson_table(lesson_times(lessons=args.lesson, langs=tuple(args.lang or ("de", "en")))))
        return 0
    print(json.dumps({"site_bytes": site_size(), "site_mb": round(site_size() / 1e6, 1),
                      **play_times(runs=args.runs, games=args.game)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
