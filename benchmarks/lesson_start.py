"""How long a student waits for a lesson: from navigation to the first visible prediction button
(``button.stl-lock``, "Festhalten" / "Lock in"), cold and warm, per lesson and view.

    .venv-site/bin/python benchmarks/lesson_start.py                 # wuerfel-joker de, tuefteln en
    .venv-site/bin/python benchmarks/lesson_start.py --all           # all ten lessons
    .venv-site/bin/python benchmarks/lesson_start.py --lesson tuefteln --lang de --notebook7 --json

Views (columns):

- ``lesson``: the students' lesson page ``_site/lesson/<lang>/<id>.html`` (Pyodide in a worker, no
  JupyterLite). Ready when ``button.stl-lock`` is visible; ``html[data-lesson=error]`` ends the
  wait as a failure. "not built" when the site has no ``lesson/`` folder.
- ``notebook7`` (``--notebook7``): the alternative, prototyped here without touching the site
  build. A copy of ``_site/`` (hard links; the changed files are written anew) in which the
  student notebooks' code cells carry ``"jupyter": {"source_hidden": true}``, ``jupyter-lite.json``
  sets ``exposeAppInBrowser`` (JupyterLite 0.8.6 then sets ``window.jupyterapp``) and
  ``lite/notebooks/index.html`` gets a script that waits for the notebook's kernel and runs
  ``notebook:run-all-cells``, then scrolls back to the first cell (Run All leaves the last cell
  active and scrolled to), and hides what ``source_hidden`` leaves (see below). It opens as the
  notebook link did: ``lite/notebooks/index.html?path=<lang>/<id>.ipynb``.
- ``play``: the game's Play page (``site/measure.py``'s visit: ready at its first clickable move;
  the warm visit after its memory snapshot is kept), the reference for the target.

Cold is a fresh browser context (no HTTP cache, no service worker, no storage); warm is a second
visit in the same context. Each view of a lesson gets its own context; a Play page is measured
once per game family and shared by its lessons. Target (issue 31): cold lesson page ≤ cold Play
page + 10 s. Every visit asserts that no request left 127.0.0.1. The time starts at
``page.goto`` of the view's URL (the landing page's click adds only that navigation).

Builds ``_site/`` first if it is stale (``site/build.py --if-stale``), serves it on a free
127.0.0.1 port, drives Debian's Chromium through Playwright, and stops by itself.

Evaluation (2026-11-27; 2 cores shared with other jobs: at load average 2.5-5.5 (the
first table) the numbers are about half of those at load 9-14 (the others); every comparison below
is within one run):

- Students' lesson page (``_site/lesson/``): all ten lessons reach their first prediction button
  without any action and show no code and no Jupyter (checked in Würfel Joker de's page text). At low load (``--notebook7
  --runs 2``, first table) it is ready cold in 10.4 s (Würfel Joker de) and 9.7 s (Tüfteln en), 4 s
  after the Play page (5.8 s, 5.9 s): the target (cold lesson page <= cold Play page + 10 s) holds.
  At load 9-14 the gap is 2-22 s and the target held for 8 of 10 lessons in ``--all`` (missed:
  Würfel Joker de 36.3 s vs 24.1 s, Schraube Locker de 18.6 s vs 15.6 s). A warm visit is hardly
  faster (8-9 s; the Play page 1.5 s): the lesson page keeps its files in the service worker's cache
  but takes no memory snapshot, so every visit boots Pyodide and runs the cells up to the first
  prediction again (Tüfteln en at load 12: Python 14-19 s, then part 1 of 37, the imports, 13-16 s;
  the button shows while part 15-17 runs). A snapshot after the imports, as the Play page takes,
  is the lever for warm visits.
- Notebook 7 with hidden inputs and auto-run (``--notebook7``): works with no build change:
  ``exposeAppInBrowser: "true"`` in jupyter-lite.json (jupyterlite-core 0.8.6's notebooks app then sets
  ``window.jupyterapp``), ``"jupyter": {"source_hidden": true}`` on every code cell, and ~25 lines of
  script in lite/notebooks/index.html that wait for the session and execute
  ``notebook:run-all-cells``. It is 1.3-2x slower than the lesson page in the same run: at low load
  cold 17.9 s (Würfel Joker de) and 17.4 s (Tüfteln en), 11.5-12 s after the Play page, so it misses
  the target by 1.5-2 s; at load 9-14 28-88 s. Warm is no faster (17-22 s: the Pyodide
  kernel, ipykernel and piplite's installs run on every visit, no snapshot); the session is ready
  (Run All starts) at 3.5-11 s, the rest is the kernel's boot and the cells. It missed the target in all
  14 cold visits that had a Play page in the same run.
  What a student sees with source_hidden alone: one placeholder per code cell showing the cell's first
  line of Python (33 in Würfel Joker de, e.g. ``w.slider("q5", "In wie viel Prozent …", 0, 1, …) •••``),
  the menu bar (File, Edit, View, Run, Kernel, Settings, Help), the toolbar with "Python (Pyodide)"
  and "Trusted", and Run All leaves the page scrolled to the last cell. The prototype hides these
  with CSS and scrolls back; still left: the active cell's toolbar (copy, move, delete), Markdown
  cells that turn into their source on a double click, a kernel restart or Ctrl+Enter from the
  keyboard, and the lesson's first cell telling the student to "Run → Run All Cells". Negative
  control: the same copy without the auto-run script shows no prediction button within 90 s (the
  student notebooks store no outputs), so the timing is the kernel's work.
- Voici, by pip's resolver (``pip install --dry-run`` against this machine's package index):
  ``voici`` alone resolves voici 0.10.0 + voici-core 0.10.0 + jupyterlite-core 0.7.6 +
  jupyterlite_xeus 5.1.0 + voila 0.5.13 + empack 6.0.1; with our pins (jupyterlite-core==0.8.6,
  jupyterlite-pyodide-kernel==0.8.6) it falls back to voici 0.2.0 + the old ``jupyterlite`` 0.1.2
  metapackage (whose CLI fails, site/README.md); ``voici==0.10.0 jupyterlite-core==0.8.6`` is
  ResolutionImpossible (every voici-core 0.6-0.10 caps jupyterlite-core, 0.10.0 at <0.8). ``voici``
  0.10 is a metapackage over voici-core plus jupyterlite-xeus (a xeus-python kernel whose environment
  comes from emscripten-forge at build time: not reachable here). voici-core 0.10.0 alone (it carries
  the ``voici`` CLI and the lite addon) resolves next to jupyterlite-pyodide-kernel 0.7.2, which loads
  Pyodide 0.29.3 (on npm; Python 3.13). So Voici would take a second, older JupyterLite build
  (core 0.7.6, pyodide-kernel 0.7.2, a self-hosted Pyodide 0.29.3 with its lock's hashes rewritten,
  ipywidgets/anywidget re-pinned and re-tested on it) beside the pinned 0.8.6 stack, and it would
  still start the same ipykernel-on-Pyodide kernel as Notebook 7 before the first cell runs.
- So: the lesson page (Pyodide in a worker, no JupyterLite) is the fastest of the three and shows no
  code; Notebook 7 auto-run is a cheap fallback but misses the target and hides code
  only with CSS; Voici is not installable with our pins.

``--notebook7 --runs 2`` at load 2.5-5.5 (medians), seconds to the first prediction button::

    | lesson | lang | lesson page cold s | lesson page warm s | Notebook 7 cold s | Notebook 7 warm s | Play page cold s | Play page warm s | target: cold lesson page ≤ Play + 10 s |
    |---|---|---|---|---|---|---|---|---|
    | wuerfel-joker | de | 10.4 | 9.3 | 17.9 | 17.1 | 5.8 | 1.5 | lesson page yes (≤ 15.8); Notebook 7 no (≤ 15.8) |
    | tuefteln | en | 9.7 | 8.1 | 17.4 | 21.6 | 5.9 | 1.7 | lesson page yes (≤ 15.9); Notebook 7 no (≤ 15.9) |
    wuerfel-joker de notebook7: kernel ready (Run All starts) at cold 4.6 s, warm 3.6 s
    wuerfel-joker de notebook7: shown at the first prediction: {"code_editors": 0, "collapsed_input_placeholders": 0, "input_prompts": 0, "menus": [], "kernel_name": [], "printed_outputs": 1}
    tuefteln en notebook7: kernel ready (Run All starts) at cold 3.8 s, warm 3.5 s
    tuefteln en notebook7: shown at the first prediction: {"code_editors": 0, "collapsed_input_placeholders": 0, "input_prompts": 0, "menus": [], "kernel_name": [], "printed_outputs": 0}
    load average (1, 5, 15 min) before [2.5, 4.0, 6.5], after [5.5, 4.6, 6.2]

``--all`` (one run, load 6-10), seconds::

    | lesson | lang | lesson page cold s | lesson page warm s | Play page cold s | Play page warm s | target: cold lesson page ≤ Play + 10 s |
    |---|---|---|---|---|---|---|
    | schraube-locker | de | 18.6 | 18.6 | 5.6 | 1.8 | lesson page no (≤ 15.6) |
    | schraube-locker | en | 11.3 | 14.5 | 5.6 | 1.8 | lesson page yes (≤ 15.6) |
    | scratch-island | de | 16.0 | 17.5 | 14.3 | 2.6 | lesson page yes (≤ 24.3) |
    | scratch-island | en | 23.9 | 23.8 | 14.3 | 2.6 | lesson page yes (≤ 24.3) |
    | skip-bo-masters | de | 19.5 | 30.9 | 10.8 | 2.0 | lesson page yes (≤ 20.8) |
    | skip-bo-masters | en | 14.2 | 14.9 | 10.8 | 2.0 | lesson page yes (≤ 20.8) |
    | tuefteln | de | 16.5 | 14.7 | 10.7 | 2.0 | lesson page yes (≤ 20.7) |
    | tuefteln | en | 19.1 | 16.9 | 10.7 | 2.0 | lesson page yes (≤ 20.7) |
    | wuerfel-joker | de | 36.3 | 30.7 | 14.1 | 1.6 | lesson page no (≤ 24.1) |
    | wuerfel-joker | en | 22.1 | 17.9 | 14.1 | 1.6 | lesson page yes (≤ 24.1) |

``--notebook7 --runs 2`` at load 9 (medians), seconds::

    | lesson | lang | lesson page cold s | lesson page warm s | Notebook 7 cold s | Notebook 7 warm s | Play page cold s | Play page warm s | target: cold lesson page ≤ Play + 10 s |
    |---|---|---|---|---|---|---|---|---|
    | wuerfel-joker | de | 19.6 | 18.9 | 31.1 | 40.2 | 18.0 | 2.3 | lesson page yes (≤ 28.0); Notebook 7 no (≤ 28.0) |
    | tuefteln | en | 24.0 | 18.4 | 31.7 | 33.6 | 10.4 | 1.9 | lesson page no (≤ 20.4); Notebook 7 no (≤ 20.4) |
    wuerfel-joker de notebook7: kernel ready (Run All starts) at cold 5.1 s, warm 5.3 s
    wuerfel-joker de notebook7: shown at the first prediction: {"code_editors": 0, "collapsed_input_placeholders": 0, "input_prompts": 0, "menus": [], "kernel_name": [], "printed_outputs": 1}
    tuefteln en notebook7: kernel ready (Run All starts) at cold 6.1 s, warm 4.8 s
    tuefteln en notebook7: shown at the first prediction: {"code_editors": 0, "collapsed_input_placeholders": 0, "input_prompts": 0, "menus": [], "kernel_name": [], "printed_outputs": 0}
    load average (1, 5, 15 min) before [9.2, 9.1, 9.2], after [9.3, 8.9, 9.1]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
sys.path.insert(0, str(ROOT / "tests" / "site"))  # the shared server + Chromium flags
sys.path.insert(0, str(ROOT / "site"))  # measure.py: the Play page's visit

from sitekit import CHROMIUM_ARGS, RequestLog, StaticServer  # noqa: E402

DEFAULT = (("wuerfel-joker", "de"), ("tuefteln", "en"))
TARGET_MARGIN_S = 10.0  # issue 31: cold lesson page within 10 s of a cold Play page
VIEWPORT = {"width": 1200, "height": 800}

# Ready: a visible prediction button; or the lesson page says it failed. checkVisibility with
# contentVisibilityAuto: JupyterLab skips rendering off-screen cells (content-visibility: auto), and a
# button there is in the page but not yet drawn; the student sees it once they scroll to it, so it counts
# as shown when it has a box and is not hidden by display/visibility.
READY_JS = """() => {
    if (document.documentElement.dataset.lesson === 'error') return 'error';
    for (const b of document.querySelectorAll('button.stl-lock')) {
        if (b.getClientRects().length && getComputedStyle(b).visibility !== 'hidden') return 'ready';
    }
    return false;
}"""

# Notebook 7 prototype: run every cell once the notebook's kernel is ready. window.jupyterapp exists
# only with exposeAppInBrowser; the notebook panel appears after the app is restored.
AUTORUN = """<script>
(function () {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  (async () => {
    while (!window.jupyterapp) await sleep(50);
    const app = window.jupyterapp;
    await app.restored;
    let panel = app.shell.currentWidget;
    while (!panel || !panel.sessionContext) { await sleep(50); panel = app.shell.currentWidget; }
    await panel.context.ready;
    await panel.sessionContext.ready;
    document.documentElement.dataset.autorun = 'started';
    document.documentElement.dataset.autorunAt = Math.round(performance.now());  // ms since navigation
    const run = app.commands.execute('notebook:run-all-cells');
    // Run All makes the last cell active and scrolls there: back to the lesson's start.
    await sleep(300);
    panel.content.activeCellIndex = 0;
    await panel.content.scrollToItem(0, 'start');
    await run;
    document.documentElement.dataset.autorun = 'done';
  })().catch(e => { document.documentElement.dataset.autorun = 'error'; console.error(e); });
})();
</script>
"""
# source_hidden alone leaves a one-line placeholder per code cell that shows the cell's first line of
# Python, and Jupyter's menus (Kernel, Run) and toolbar (kernel name): this hides them.
HIDE_CSS = """<style>
.jp-CodeCell .jp-Cell-inputWrapper, .jp-InputPlaceholder, .jp-InputPrompt, .jp-OutputPrompt,
#top-panel-wrapper, #menu-panel-wrapper, #menu-panel, .jp-NotebookPanel-toolbar, .jp-Collapser { display: none !important; }
</style>
"""

KERNEL_READY_JS = """() => ({kernel_ready_s: Math.round(+document.documentElement.dataset.autorunAt / 10) / 100})"""

# What of Python or Jupyter a student sees in the prototype, once its first prediction is shown.
VISIBLE_CODE_JS = """() => {
    const shown = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
    const count = sel => [...document.querySelectorAll(sel)].filter(shown).length;
    const menus = [...document.querySelectorAll('.lm-MenuBar-itemLabel')].filter(shown).map(e => e.textContent);
    const kernel = [...document.querySelectorAll('.jp-KernelName, .jp-Toolbar-kernelName')].filter(shown)
        .map(e => e.textContent.trim());
    return {
        code_editors: count('.jp-CodeCell .jp-InputArea .cm-editor'),
        collapsed_input_placeholders: count('.jp-InputPlaceholder'),
        input_prompts: count('.jp-CodeCell .jp-InputPrompt'),
        menus: menus,
        kernel_name: kernel,
        printed_outputs: count(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout'], "
                              + ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"),
    };
}"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def build_site() -> None:
    """``site/build.py --if-stale`` with the site's venv (it has JupyterLite)."""
    venv = ROOT / ".venv-site" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    proc = subprocess.run([python, "site/build.py", "--if-stale"], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"site/build.py failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


def lessons(site: Path) -> list[str]:
    """The lessons the built site links students to (its student notebooks)."""
    return sorted({p.stem for lang in ("de", "en") for p in (site / "lite" / "files" / lang).glob("*.ipynb")})


def notebook7_copy(site: Path, dest: Path) -> Path:
    """``dest``: ``site`` with the Notebook 7 prototype (see the module docstring); unchanged files
    are hard links, every changed file is unlinked and written anew, so ``site`` stays as built."""
    def link(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(site, dest, copy_function=link)

    def rewrite(path: Path, text: str) -> None:
        path.unlink()
        path.write_text(text, encoding="utf-8")

    lite = dest / "lite"
    config = json.loads((lite / "jupyter-lite.json").read_text(encoding="utf-8"))
    config["jupyter-config-data"]["exposeAppInBrowser"] = "true"
    rewrite(lite / "jupyter-lite.json", json.dumps(config, indent=2))
    page = (lite / "notebooks" / "index.html").read_text(encoding="utf-8")
    if "</body>" not in page:
        raise SystemExit("lite/notebooks/index.html has no </body>: the prototype cannot inject its script")
    rewrite(lite / "notebooks" / "index.html", page.replace("</body>", HIDE_CSS + AUTORUN + "</body>", 1))
    for lang in ("de", "en"):
        for nb_path in (lite / "files" / lang).glob("*.ipynb"):  # students' only: not lehrkraefte/ teachers/
            nb = json.loads(nb_path.read_text(encoding="utf-8"))
            for cell in nb["cells"]:
                if cell["cell_type"] == "code":
                    cell.setdefault("metadata", {}).setdefault("jupyter", {})["source_hidden"] = True
            rewrite(nb_path, json.dumps(nb, ensure_ascii=False, indent=1))
    return dest


def wait_ready(page, timeout_s: float) -> str:
    handle = page.wait_for_function(READY_JS, timeout=timeout_s * 1000, polling=100)
    return handle.json_value()


def cold_warm(browser, url: str, timeout_s: float, after_cold=None, extra_js: str | None = None) -> dict:
    """Cold then warm visit of ``url`` in one fresh context: seconds to a visible prediction button."""
    ctx = browser.new_context(viewport=VIEWPORT)
    requests = RequestLog(ctx)
    out: dict = {}
    try:
        for visit in ("cold", "warm"):
            page = ctx.new_page()
            start = time.perf_counter()
            page.goto(url)
            try:
                state = wait_ready(page, timeout_s)
            except Exception as e:  # a hang or a closed page: say so in the table, keep measuring
                out[visit] = None
                out[f"{visit}_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
                page.close()
                break
            seconds = round(time.perf_counter() - start, 2)
            if state == "error":
                out[visit] = None
                out[f"{visit}_error"] = "the page says data-lesson=error"
                page.close()
                break
            out[visit] = seconds
            if extra_js:  # e.g. when the prototype's kernel was ready, in the page's own clock
                out.update({f"{visit}_{k}": v for k, v in page.evaluate(extra_js).items()})
            if visit == "cold" and after_cold:
                out.update(after_cold(page))
            page.close()  # its workers stop: the warm visit does not share the CPU with them
        requests.assert_only_local()
    finally:
        ctx.close()
    return out


def notebook7_findings(page) -> dict:
    """What of the notebook a student sees at the moment the first prediction is shown."""
    page.wait_for_timeout(300)
    seen = page.evaluate(VISIBLE_CODE_JS)
    return {"visible": seen}


def play_cold_warm(browser, url: str, game: str, timeout_s: float) -> dict:
    import measure

    cold, warm, _ = measure.play_visits(browser, url, game, timeout_s)
    return {"cold": cold, "warm": warm}


@contextlib.contextmanager
def chromium(path: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def merge_runs(results: list[dict]) -> dict:
    """One view's runs: the median of each timing (None if any run failed), the runs beside it."""
    out: dict = {}
    for r in results:  # the last run's findings and errors
        out.update({k: v for k, v in r.items() if k not in ("cold", "warm")})
    for key in sorted({k for r in results for k, v in r.items() if isinstance(v, (int, float)) or v is None}):
        vals = [r.get(key) for r in results]
        out[key] = round(statistics.median(vals), 2) if None not in vals else None
        if len(results) > 1:
            out[f"{key}_runs"] = vals
    return out


def run(pairs: list[tuple[str, str]], notebook7: bool = False, play: bool = True, chromium_path: str = "/usr/bin/chromium",
        timeout_s: float = 300, site: Path = SITE, runs: int = 1) -> dict:
    lesson_built = (site / "lesson").is_dir()
    load_before = [round(x, 1) for x in os.getloadavg()]  # other jobs on the machine skew every number
    with contextlib.ExitStack() as stack:
        server = StaticServer(site)
        stack.callback(server.close)
        nb_url = None
        if notebook7:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="lesson-start-")))
            nb_server = StaticServer(notebook7_copy(site, tmp / "site"))
            stack.callback(nb_server.close)
            nb_url = nb_server.url
        browser = stack.enter_context(chromium(chromium_path))
        visits: dict[tuple, list[dict]] = {}  # (lesson, lang, view) -> one result per run
        for n in range(runs):
            # every view of a lesson next to each other in each run: the machine's load drifts less
            # between neighbours than over the whole run
            plays: dict[str, dict] = {}
            for lesson, lang in pairs:
                tag = f"run {n + 1}/{runs}: {lesson} {lang}"
                if lesson_built:
                    log(f"{tag}: lesson page ...")
                    visits.setdefault((lesson, lang, "lesson_page"), []).append(
                        cold_warm(browser, f"{server.url}lesson/{lang}/{lesson}.html", timeout_s))
                if nb_url:
                    log(f"{tag}: Notebook 7 prototype ...")
                    visits.setdefault((lesson, lang, "notebook7"), []).append(cold_warm(
                        browser, f"{nb_url}lite/notebooks/index.html?path={lang}%2F{lesson}.ipynb", timeout_s,
                        after_cold=notebook7_findings, extra_js=KERNEL_READY_JS))
                if play:
                    if lesson not in plays:
                        log(f"{tag}: Play page ...")
                        plays[lesson] = play_cold_warm(browser, server.url, lesson, timeout_s)
                    visits.setdefault((lesson, lang, "play"), []).append(plays[lesson])
    rows = []
    for lesson, lang in pairs:
        row = {"lesson": lesson, "lang": lang}
        if not lesson_built:
            row["lesson_page"] = "not built"
        for view in ("lesson_page", "notebook7", "play"):
            if (lesson, lang, view) in visits:
                row[view] = merge_runs(visits[(lesson, lang, view)])
        rows.append(row)
    for row in rows:
        play_cold = row.get("play", {}).get("cold")
        for view in ("lesson_page", "notebook7"):
            v = row.get(view)
            if isinstance(v, dict) and v.get("cold") is not None and play_cold is not None:
                v["target_s"] = round(play_cold + TARGET_MARGIN_S, 2)
                v["meets_target"] = v["cold"] <= v["target_s"]
    return {"target": f"cold lesson page <= cold Play page + {TARGET_MARGIN_S:g} s", "rows": rows,
            "load_avg_before": load_before, "load_avg_after": [round(x, 1) for x in os.getloadavg()]}


def _cell(v, key: str) -> str:
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    x = v.get(key)
    return f"{x:.1f}" if isinstance(x, (int, float)) else ("failed" if f"{key}_error" in v else "-")


def table(res: dict) -> str:
    views = [("lesson_page", "lesson page"), ("notebook7", "Notebook 7"), ("play", "Play page")]
    present = [(k, name) for k, name in views if any(k in r for r in res["rows"])]
    head = f"| lesson | lang | " + " | ".join(f"{name} cold s | {name} warm s" for _, name in present)
    head += " | target: cold lesson page ≤ Play + 10 s |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in res["rows"]:
        cells = []
        for k, _ in present:
            v = r.get(k)
            if isinstance(v, str):  # "not built"
                cells += [v, v]
            else:
                cells += [_cell(v, "cold"), _cell(v, "warm")]
        check = []
        for k, name in (("lesson_page", "lesson page"), ("notebook7", "Notebook 7")):
            v = r.get(k)
            if isinstance(v, dict) and "meets_target" in v:
                check.append(f"{name} {'yes' if v['meets_target'] else 'no'} (≤ {v['target_s']:.1f})")
            elif isinstance(v, str):
                check.append(f"{name} {v}")
        lines.append(f"| {r['lesson']} | {r['lang']} | " + " | ".join(cells) + f" | {'; '.join(check) or '-'} |")
    notes = []
    for r in res["rows"]:
        for k in ("lesson_page", "notebook7", "play"):
            v = r.get(k)
            if isinstance(v, dict):
                notes += [f"{r['lesson']} {r['lang']} {k} {e}: {v[e]}" for e in ("cold_error", "warm_error") if e in v]
                ready = [f"{visit} {v[f'{visit}_kernel_ready_s']:.1f} s" for visit in ("cold", "warm")
                         if isinstance(v.get(f"{visit}_kernel_ready_s"), (int, float))]
                if ready:
                    notes.append(f"{r['lesson']} {r['lang']} {k}: kernel ready (Run All starts) at " + ", ".join(ready))
                if "visible" in v:
                    notes.append(f"{r['lesson']} {r['lang']} {k}: shown at the first prediction: "
                                 + json.dumps(v["visible"], ensure_ascii=False))
    notes.append(f"load average (1, 5, 15 min) before {res['load_avg_before']}, after {res['load_avg_after']}")
    return "\n".join(lines + [""] + notes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="click -> first prediction button, cold and warm, per lesson and view")
    ap.add_argument("--lesson", action="append", help="only these lessons (default: wuerfel-joker de, tuefteln en)")
    ap.add_argument("--lang", action="append", choices=("de", "en"), help="with --lesson: these languages (default both)")
    ap.add_argument("--all", action="store_true", help="all ten lessons (five games, German and English)")
    ap.add_argument("--notebook7", action="store_true", help="also the Notebook 7 prototype (hidden inputs, auto-run)")
    ap.add_argument("--no-play", action="store_true", help="skip the Play page reference (no target check)")
    ap.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    ap.add_argument("--runs", type=int, default=1, help="repeat every visit; the table shows medians")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per visit before it counts as failed")
    ap.add_argument("--chromium", default=os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--json", action="store_true", help="print JSON instead of the Markdown table")
    args = ap.parse_args(argv)
    if not Path(args.chromium).exists():
        sys.exit(f"no Chromium at {args.chromium}: run `sh site/install-browser.sh`")
    if not args.no_build:
        build_site()
    if not (SITE / "index.html").exists():
        sys.exit("no _site/: run `make site`")
    known = lessons(SITE)
    if args.all or args.lesson:
        chosen = args.lesson or known
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            sys.exit(f"no lesson {unknown}; the lessons are {known}")
        pairs = [(lesson, lang) for lesson in chosen for lang in (args.lang or ("de", "en"))]
    else:
        pairs = list(DEFAULT)
    res = run(pairs, notebook7=args.notebook7, play=not args.no_play, chromium_path=args.chromium,
              timeout_s=args.timeout, runs=args.runs)
    print(json.dumps(res, indent=1, ensure_ascii=False) if args.json else table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
