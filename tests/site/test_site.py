"""The built site in real Chromium: landing page, a live kernel behind Play, nothing from outside."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from harness.frontend import assert_no_other_language, assert_nothing_clipped, exercise_front_end, settle
from sitekit import RequestLog, StaticServer, downloaded

pytestmark = pytest.mark.site

ROOT = Path(__file__).resolve().parents[2]


def load_build():
    """site/build.py as a module (it is a script, not part of the package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_build", ROOT / "site" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


# The landing page's cards as the build makes them: registered games (one card per family) + planned.
GAMES = load_build().landing_cards()
KERNEL_TIMEOUT_MS = 180_000  # cold Pyodide + kernel start on a 2-core machine takes ~30-40 s


def test_landing_page_lists_the_five_games_with_links(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url)
    cards = page.locator("li.game")
    assert cards.count() == 5
    assert [c.strip() for c in cards.locator("h2").all_inner_texts()] == [
        "Würfel Joker", "Tüfteln", "Schraube Locker", "Skip-Bo Masters", "Scratch Island"
    ]
    # The games that are open to play; the others say "kommt bald".
    assert [g["id"] for g in GAMES if g["ready"]] == ["wuerfel-joker", "tuefteln", "scratch-island"]
    for game in GAMES:
        card = page.locator(f"li.game#{game['id']}")
        assert card.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
        if game["ready"]:
            assert card.locator("a.play").count() == 1
            assert card.locator("a.play").get_attribute("href") == f"play/{game['id']}.html"
            # Explore only where the game has its lesson
            assert card.locator("a.explore").count() == (1 if game["explore"] else 0)
            assert "kommt bald" not in card.inner_text()
        else:
            assert card.locator("a").count() == 0
            assert "kommt bald" in card.inner_text()
    screenshot(page, "de")
    page.click("#lang-toggle")
    assert "coming soon" in page.locator("li.game#schraube-locker").inner_text()
    for ready in ("wuerfel-joker", "tuefteln"):
        text = page.locator(f"li.game#{ready}").inner_text()
        assert "Play" in text and "Explore" in text and "coming soon" not in text
    screenshot(page, "en")

    # Every link answers 200 from the local server.
    for href in page.locator("li.game a").evaluate_all("links => links.map(a => a.href)"):
        assert context.request.get(href).status == 200, href

    # Explore opens the explanatory notebook in JupyterLite's notebook app.
    page.locator("li.game#tuefteln a.explore").click()
    page.locator(".jp-Notebook .jp-MarkdownCell", has_text="Tüfteln").first.wait_for(timeout=60_000)
    screenshot(page, "explore")
    request_log.assert_only_local()


def widget_app(page):
    """The play view's iframe (JupyterLite's REPL running the play notebook)."""
    return page.frame_locator("iframe#app")


def test_play_view_gets_a_live_kernel(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url + "play/smoke.html")
    app = widget_app(page)
    button = app.locator("button.jupyter-button")
    button.wait_for(timeout=KERNEL_TIMEOUT_MS)
    label = app.locator(".widget-label")
    assert label.inner_text() == "clicks: 0"
    # No code is shown, only the widget.
    assert app.locator(".jp-InputArea-editor:visible").count() == 0
    button.click()
    # Only the kernel can produce this text: it runs the Python click handler.
    app.locator(".widget-label", has_text="kernel says hi").wait_for(timeout=30_000)
    button.click()
    app.locator(".widget-label", has_text="clicks: 2").wait_for(timeout=30_000)
    screenshot(page, "smoke")
    request_log.assert_only_local()


ERROR_OUTPUTS = (
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
)


def error_outputs(root) -> list[str]:
    """Texts of error outputs (JupyterLab 4.6 renders an error as application/vnd.jupyter.stderr
    with the traceback; the .error mime type is listed in case a renderer for it is added)."""
    # textContent, not innerText: JupyterLab skips rendering off-screen cells (content-visibility),
    # and innerText of a skipped element is empty.
    texts = root.locator(ERROR_OUTPUTS).all_text_contents()
    return [t for t in texts if "Traceback" in t or "Error" in t]


def wait_for_kernel_answer(page, js_condition: str, arg=None, timeout=30_000):
    """Wait until ``js_condition(doc, arg)`` is true in the play view's iframe document."""
    page.wait_for_function(
        f"([arg]) => {{ const doc = document.querySelector('iframe#app').contentDocument;"
        f" return doc && ({js_condition})(doc, arg); }}",
        arg=[arg],
        timeout=timeout,
    )


def play_page(page, site_url, game: str, lang: str = "de"):
    """The game's Play page at 1024×768, once the shared front-end has drawn its first state."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(site_url + f"play/{game}.html?lang={lang}")
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    return root


@pytest.mark.parametrize("game", [g["id"] for g in GAMES if g["ready"]])
def test_play_page_runs_the_shared_front_end(game, context, request_log, site_url, screenshot):
    """The Play page: Pyodide in a web worker with only the project wheel (no JupyterLab, no
    kernel, no ipywidgets), the same front-end as the notebooks and Panel: a whole game against the
    bot, the review, English, a new game, projector mode (harness.frontend); at most 15 MB
    downloaded; then, with the network gone, it starts again from its service worker's copy."""
    page = context.new_page()
    console, responses = [], []
    page.on("console", lambda m: console.append(m.text))
    context.on("response", lambda r: responses.append(r))
    root = play_page(page, site_url, game)
    page.wait_for_timeout(500)  # the last writes into the offline copy
    cold = downloaded(responses)
    assert cold <= 15_000_000, f"a cold Play page downloaded {cold / 1e6:.1f} MB"
    urls = [r.url for r in responses]
    assert not [u for u in urls if "/lite/" in u and "/lite/static/pyodide/" not in u], "JupyterLite was loaded"
    assert not [u for u in urls if re.search(r"(ipywidgets|ipython|anywidget|jedi|ipykernel)", u)], urls
    exercise_front_end(page, root, game, lambda name: screenshot(page, name))
    assert page.locator("#progress.error").count() == 0
    assert not [m for m in console if "failed to activate" in m or m.startswith("Uncaught")], console
    # warm and offline: everything from the service worker's copy
    context.set_offline(True)
    try:
        again = context.new_page()
        again.goto(site_url + f"play/{game}.html")
        again.locator("#app .sp-table button.sp-move, #app .sp-table [data-act]").first.wait_for(timeout=120_000)
        screenshot(again, "offline")
    finally:
        context.set_offline(False)
    request_log.assert_only_local()


def test_scratch_island_play_page_places_a_motif(context, request_log, site_url, screenshot):
    """Scratch Island's issue: on its Play page a player previews a motif on the map (a first click,
    no move yet), rotates it where it can turn, places it with "place", and the map shows scratched
    cells; nothing was scratched before."""
    page = context.new_page()
    root = play_page(page, site_url, "scratch-island", lang="en")
    board = root.locator(".sp-map-main")
    scratched = board.locator("rect.sp-cell[data-scratched='1']")
    for _ in range(20):  # bots and chance events to the first decision; the roller picks two dice
        settle(page, root)
        if root.locator(".sp-move[data-token=rotate]").count() or board.locator("[data-act]").count():
            break
        if root.locator(".sp-finish").count():
            root.locator(".sp-finish").click()
        elif root.locator(".sp-move").count():
            assert scratched.count() == 0
            root.locator(".sp-move").first.click()
    settle(page, root)
    assert scratched.count() == 0
    assert root.locator(".sp-dice-row svg.sp-die").count() >= 4
    step = root.get_attribute("data-step")
    board.locator("[data-act]").first.click()  # a preview only
    settle(page, root)
    assert root.get_attribute("data-step") == step and scratched.count() == 0
    assert "Preview" in root.locator(".sp-message").inner_text()
    marked = board.locator("rect.sp-mark[stroke='#2f6fd6']")
    assert marked.count() >= 1
    if root.locator(".sp-move[data-token=rotate]").count():
        root.locator(".sp-move[data-token=rotate]").click()
        settle(page, root)
        assert "rotated" in root.locator(".sp-message").inner_text()
        if not root.locator(".sp-move[data-token=confirm]").count():  # this turn does not fit here
            board.locator("[data-act]").first.click()
            settle(page, root)
    cells = marked.count()
    screenshot(page, "preview")
    root.locator(".sp-move[data-token=confirm]").click()
    settle(page, root)
    assert root.get_attribute("data-step") != step
    assert scratched.count() >= 1  # the boat at least; the motif's other cells as they are scratched
    assert cells >= 1
    assert_nothing_clipped(page, root)
    screenshot(page, "placed")
    request_log.assert_only_local()


def test_play_page_takes_the_language_of_the_landing_page(context, request_log, site_url):
    page = context.new_page()
    page.goto(site_url)
    page.locator("#lang-toggle").click()  # the landing page in English
    page.locator("li.game#tuefteln a.play").click()
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    assert root.get_attribute("lang") == "en"
    assert_no_other_language(root.inner_text(), "en")
    request_log.assert_only_local()


def test_play_page_says_what_it_is_loading_in_both_languages(site_url):
    # the page's own words while Python starts (before any script runs: no blank page)
    import urllib.request

    page = urllib.request.urlopen(site_url + "play/tuefteln.html", timeout=10).read().decode("utf-8")
    assert "Python startet im Browser" in page and "Starting Python in your browser" in page
    script = urllib.request.urlopen(site_url + "play/play.mjs", timeout=10).read().decode("utf-8")
    assert "Das Spiel wird geladen" in script and "Loading the game" in script


def show(page, locator) -> None:
    """Scroll ``locator`` to the middle of the notebook. Twice: off-screen cells have estimated
    heights (content-visibility) until painted, so the first scroll can land short."""
    for _ in range(2):
        locator.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(500)


def stored_svg_outputs(notebook: str) -> int:
    """How many stored outputs of notebooks/<notebook> show as SVG (no HTML in their bundle)."""
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    return sum(1 for cell in nb["cells"] for out in cell.get("outputs", [])
               if "image/svg+xml" in out.get("data", {}) and "text/html" not in out["data"])


def stored_stream(notebook: str, starts: str) -> str:
    """The stored text of the first stream output in notebooks/<notebook> with a line starting with ``starts``."""
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream":
                text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
                if any(line.startswith(starts) for line in text.splitlines()):
                    return text
    raise AssertionError(f"no stored stream output in {notebook} has a line starting with {starts!r}")


# Per notebook: how a line of a stored (multi-line) stream output starts (no simulated digits, so
# re-executing the notebook with other random numbers keeps it), and the widget's root class.
EXPLORE = {
    "wuerfel-joker": ("2: 0.", "sp-table"),
    "tuefteln": ("2er / pair", "sp-table"),
}
RUN_ALL_TIMEOUT_MS = 300_000
# Done: the kernel is idle, no cell waits or runs ([*]), the last code cell has a count (or a cell failed).
# textContent: innerText is empty for cells JupyterLab does not render off screen.
RUN_ALL_DONE = """() => {
    // The toolbar's kernel status (JupyterLite does not expose window.jupyterapp).
    const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
    const idle = indicator !== null && indicator.dataset.status === 'idle';
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
    const last = prompts[prompts.length - 1];
    // An error stops Run All: the cells after it lose their [*] and get no count.
    const failed = document.querySelector("%s");
    return idle && last && !prompts.some(p => p.textContent.includes('*'))
        && (/\\[\\d+\\]/.test(last.textContent) || failed !== null);
}""" % ERROR_OUTPUTS.replace('"', "'")


@pytest.mark.parametrize("game", [g for g in GAMES if g["ready"] and g["explore"]], ids=lambda g: g["id"])
def test_explore_notebook_runs_in_the_browser(game, context, request_log, site_url, screenshot):
    """The Explore link's notebook: stored outputs render cleanly, and Run All in Pyodide gives no error."""
    line_start, widget_class = EXPLORE[game["id"]]
    page = context.new_page()
    page.goto(site_url)
    page.locator(f"li.game#{game['id']} a.explore").click()
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)

    # Stored stream text renders exactly as saved: one line per line, no "," between them
    # (JupyterLite 0.8.6 shows a list-valued text as "a\n,b\n"; the build joins such lists).
    stored = stored_stream(game["explore"], line_start)
    output = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']",
                          has_text=line_start).first
    output.wait_for(timeout=60_000)
    output.scroll_into_view_if_needed()
    # textContent: the stray commas are in the rendered text itself, and innerText is empty for
    # an output JupyterLab has not painted yet (content-visibility).
    rendered = output.text_content()
    line = next(ln for ln in stored.splitlines() if ln.startswith(line_start))
    assert line in rendered.splitlines(), rendered
    assert rendered.rstrip("\n") == stored.rstrip("\n")
    assert not any(ln.startswith(",") for ln in rendered.splitlines()), rendered
    show(page, output)
    screenshot(page, "stored")
    # Stored SVG pictures render as pictures, not as their text/plain fallback (the build marks
    # the code cells trusted; JupyterLab does not render SVG of untrusted cells).
    svgs = stored_svg_outputs(game["explore"])
    page.wait_for_function(
        "n => document.querySelectorAll(\".jp-OutputArea-output[data-mime-type='image/svg+xml']\").length >= n",
        arg=svgs, timeout=30_000)

    # Run → Run All Cells, as a reader would.
    started = time.monotonic()
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    # Queued cells show [*] at once (the stored counts would otherwise look finished).
    page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt", has_text="*").first.wait_for(timeout=30_000)
    last_prompt = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").last
    try:
        page.wait_for_function(RUN_ALL_DONE, timeout=RUN_ALL_TIMEOUT_MS, polling=1_000)
    except Exception:
        screenshot(page, "timeout")
        raise
    run_seconds = time.monotonic() - started
    print(f"{game['id']}: Run All took {run_seconds:.0f} s")
    counts = [int(m.group(1)) for m in (re.search(r"\[(\d+)\]", t) for t in page.locator(
        ".jp-Notebook .jp-CodeCell .jp-InputPrompt").all_text_contents()) if m]
    code_cells = page.locator(".jp-Notebook .jp-CodeCell").count()
    assert counts == list(range(1, code_cells + 1)), counts  # every code cell ran, in order
    assert re.search(r"\[\d+\]", last_prompt.text_content())
    errors = error_outputs(page)
    if errors:
        screenshot(page, "error")
    assert errors == [], errors[0][-2000:]
    # Charts: Vega-Lite drew at least one, and the live widget came from the kernel.
    charts = page.locator(".vega-embed svg, .vega-embed canvas")
    charts.first.wait_for(timeout=60_000)
    assert charts.count() >= 1
    widget = page.locator(f".{widget_class}").first
    widget.wait_for(timeout=60_000)
    show(page, page.locator(".vega-embed").first)
    screenshot(page, "chart")
    show(page, widget)
    screenshot(page, "widget")
    # the notebook host of the shared front-end: the same checks as on the Play page and in Panel
    page.set_viewport_size({"width": 1024, "height": 768})
    widget.scroll_into_view_if_needed()
    exercise_front_end(page, widget, game["id"], lambda name: screenshot(page, f"widget-{name}"))
    request_log.assert_only_local()


def test_build_joins_list_valued_outputs():
    """site/build.py stores list-valued stream text and non-JSON mime data as one string each."""
    build = load_build()
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# a\n", "b"]},
        {"cell_type": "code", "source": [], "outputs": [
            {"output_type": "stream", "name": "stdout", "text": ["1: a\n", "2: b\n"]},
            {"output_type": "execute_result", "data": {
                "text/plain": ["x\n", "y"], "image/svg+xml": ["<svg>\n", "</svg>"],
                "application/vnd.vegalite.v5+json": {"mark": "bar"}, "application/json": ["kept", "as list"]}},
        ]},
    ]}
    assert build.join_multiline_outputs(nb) == 3
    out = nb["cells"][1]["outputs"]
    assert out[0]["text"] == "1: a\n2: b\n"
    assert out[1]["data"] == {"text/plain": "x\ny", "image/svg+xml": "<svg>\n</svg>",
                              "application/vnd.vegalite.v5+json": {"mark": "bar"},
                              "application/json": ["kept", "as list"]}
    assert nb["cells"][0]["source"] == ["# a\n", "b"]  # only outputs are touched
    build.trust_code_cells(nb)
    assert nb["cells"][1]["metadata"] == {"trusted": True}
    assert "metadata" not in nb["cells"][0]


def test_outside_request_guard_catches_a_cdn_request(browser, tmp_path, screenshot):
    """The guard must be able to fail: a page (and its worker) asking a CDN is caught."""
    cdn = "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pyodide.mjs"
    (tmp_path / "index.html").write_text(
        f"""<!doctype html><title>cdn</title><body><p id="out">waiting</p><script>
        const worker = new Worker(URL.createObjectURL(new Blob(
          ["fetch('{cdn}?from=worker').then(() => postMessage('loaded'), () => postMessage('blocked'))"])));
        worker.onmessage = (e) => {{
          fetch('{cdn}?from=page').then(() => 'loaded', () => 'blocked')
            .then((page) => {{ document.getElementById('out').textContent = 'worker ' + e.data + ', page ' + page; }});
        }};
        </script>""",
        encoding="utf-8",
    )
    server = StaticServer(tmp_path)
    ctx = browser.new_context()
    try:
        log = RequestLog(ctx)
        page = ctx.new_page()
        page.goto(server.url)
        page.locator("#out", has_text="page").wait_for(timeout=30_000)
        # The resolver rule blocks the host, so nothing is fetched, but the attempt is logged.
        assert page.locator("#out").inner_text() == "worker blocked, page blocked"
        screenshot(page, "cdn-page")
        assert any("from=worker" in u for u in log.outside()), log.urls
        assert any("from=page" in u for u in log.outside()), log.urls
        with pytest.raises(AssertionError, match=re.escape("left 127.0.0.1")):
            log.assert_only_local()
    finally:
        ctx.close()
        server.close()
