"""The built site in real Chromium: landing page, a live kernel behind Play, nothing from outside."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from sitekit import RequestLog, StaticServer

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
    assert [g["id"] for g in GAMES if g["ready"]] == ["wuerfel-joker", "tuefteln"]
    for game in GAMES:
        card = page.locator(f"li.game#{game['id']}")
        assert card.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
        if game["ready"]:
            assert card.locator("a.play").count() == 1
            assert card.locator("a.play").get_attribute("href") == f"play/{game['id']}.html"
            assert card.locator("a.explore").count() == 1
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


def open_play_view(page, site_url, game: str):
    page.goto(site_url + f"play/{game}.html")
    app = widget_app(page)
    app.locator(".jupyter-widgets button").first.wait_for(timeout=KERNEL_TIMEOUT_MS)
    assert error_outputs(app) == []
    assert app.locator(".jp-InputArea-editor:visible").count() == 0
    return app


def play_start_throws(page, app, timeout_s: float = 120.0) -> int:
    """Play the start throws as a person does: click "Anfangswurf" whenever it is the human's start
    throw (again after a tie); the bot throws its own, and if it begins it plays its first turn, by
    itself. Returns when the human may throw in round 1; the number of the human's start throws."""
    status, throw, message = app.locator(".sp-status"), app.locator("button.sp-throw"), app.locator(".sp-message")
    clicks = 0
    deadline = time.monotonic() + timeout_s
    while True:
        text = status.inner_text()
        label = throw.inner_text().strip()
        if "am Zug: Du" in text and label == "Würfeln" and throw.is_enabled():
            return clicks
        if "wirft: Du" in text and label == "Anfangswurf" and throw.is_enabled():
            said = message.inner_text()
            throw.click()
            clicks += 1
            # the kernel's answer: a new message (never click twice for one start throw)
            page.wait_for_function("([old]) => { const m = document.querySelector('iframe#app').contentDocument"
                                   ".querySelector('.sp-message'); return m && m.innerText !== old; }",
                                   arg=[said], timeout=30_000)
            continue
        assert time.monotonic() < deadline, f"the start throws did not end: {text!r}, button {label!r}"
        page.wait_for_timeout(250)


def test_wuerfel_joker_play_view_plays_part_of_a_turn(context, request_log, site_url, screenshot):
    """Spiel 2 against the optimal bot: the start throws (the human clicks theirs, the bot throws its
    own and plays its turn if it begins), then throw, push a legal slide, stop; the kernel answers
    each click."""
    page = context.new_page()
    app = open_play_view(page, site_url, "wuerfel-joker")
    dice = app.locator(".sp-dice-pic")
    assert dice.get_attribute("data-dice") == ""  # no throw yet
    # The score table's last row is the total: "Summe | 0 | 0" before anything is played.
    total_row = app.locator(".sp-score tr").last
    assert total_row.locator("td").all_inner_texts() == ["Summe", "0", "0"]
    # The game opens with the start throws, the human's first; nothing else can be clicked.
    assert "Anfangswurf · wirft: Du" in app.locator(".sp-status").inner_text()
    throw = app.locator("button.sp-throw")
    assert throw.inner_text().strip() == "Anfangswurf" and throw.is_enabled()
    assert app.locator("button.sp-stop").is_disabled()
    assert app.locator("button.sp-push:not([disabled])").count() == 0
    screenshot(page, "start")

    # The start throw is the engine's, in the kernel: the message names its dice and sum. It is not
    # a turn's throw: the dice of the turn stay empty.
    throw.click()
    app.locator(".sp-message", has_text=re.compile(r"Du: Anfangswurf [1-6]\+[1-6] = \d+\.")).wait_for(
        timeout=30_000)
    m = re.search(r"Du: Anfangswurf ([1-6])\+([1-6]) = (\d+)\.", app.locator(".sp-message").inner_text())
    assert int(m.group(1)) + int(m.group(2)) == int(m.group(3))
    assert dice.get_attribute("data-dice") == ""
    screenshot(page, "start-throw")

    # The bot's start throw (and, if it begins, its first turn) runs by itself in the browser.
    play_start_throws(page, app)
    assert "Runde 1/10 · am Zug: Du" in app.locator(".sp-status").inner_text()
    round1 = app.locator(".sp-score tr").nth(1).locator("td").all_inner_texts()
    assert round1[:2] == ["1", ""]  # the human has not played yet
    if round1[2] == "":  # the human begins: the last word was the start throws'
        assert app.locator(".sp-message").inner_text().strip().endswith("Du beginnt.")
        assert total_row.locator("td").all_inner_texts() == ["Summe", "0", "0"]
    else:  # the bot began and has played its first turn: its points are in round 1 and its total
        assert re.fullmatch(r"[−-]?\d+|\+?45", round1[2]), round1
        assert total_row.locator("td").all_inner_texts()[1:] == ["0", round1[2]]
    assert dice.get_attribute("data-dice") == ""  # the human's turn starts with no dice on the table
    screenshot(page, "your-turn")

    # The throw is decided by the engine in the kernel: the dice picture must change after the click.
    throw.click()
    wait_for_kernel_answer(page, "(doc) => /^[1-6],[1-6]$/.test("
                                 "doc.querySelector('.sp-dice-pic').dataset.dice)")
    a, b = map(int, dice.get_attribute("data-dice").split(","))
    assert app.locator(".sp-message", has_text=f"Du: Wurf {a}+{b}").count() == 1
    # With all nine slides down every throw can push something (|a-b|, a:a = 1, ...).
    pushes = app.locator("button.sp-push:not([disabled])")
    pushes.first.wait_for(timeout=30_000)
    legal = [int(re.search(r"sp-push-(\d)", c).group(1)) for c in pushes.evaluate_all(
        "bs => bs.map(b => b.className)")]
    assert legal, f"no legal push after the throw {a}+{b}"
    assert a + b in legal or a + b > 9  # the sum is always one of the ways
    screenshot(page, "thrown")

    v = legal[0]
    assert app.locator(f".sp-slide-{v} [data-up]").get_attribute("data-up") == "0"
    slides_before = app.locator(".sp-slides").inner_html()
    app.locator(f"button.sp-push-{v}").click()
    app.locator(f".sp-slide-{v} [data-up='1']").wait_for(timeout=30_000)
    assert app.locator(".sp-slides").inner_html() != slides_before
    assert app.locator(".sp-slides [data-up='1']").count() == 1
    screenshot(page, "pushed")

    stop = app.locator("button.sp-stop")
    assert not stop.is_disabled()
    stop.click()
    # Stopping with eight slides down scores minus points: the total leaves 0.
    wait_for_kernel_answer(page, "(doc) => { const rows = doc.querySelectorAll('.sp-score tr');"
                                 " const cells = rows[rows.length - 1].querySelectorAll('td');"
                                 " return cells[1].innerText.trim() !== '0'; }")
    total = total_row.locator("td").all_inner_texts()[1]
    assert re.fullmatch(r"−?\d+", total.replace("-", "−")) and total not in ("0", ""), total
    assert app.locator(".sp-score tr").nth(1).locator("td").all_inner_texts()[1] == total  # round 1
    page.wait_for_timeout(1_500)  # let the bot's first visible steps show in the screenshot
    screenshot(page, "stopped")
    assert error_outputs(app) == []
    request_log.assert_only_local()


def field(app, r: int, c: int):
    return app.locator(f"button.sp-field-{r}-{c}")


def test_tuefteln_play_view_plays_a_round(context, request_log, site_url, screenshot):
    """Side A against the strong bot (the play notebook's setting): two white fields, then a bridge; a
    pre-printed field is refused with the engine's German rule name and detail."""
    page = context.new_page()
    app = open_play_view(page, site_url, "tuefteln")
    throw = app.locator(".sp-throw")
    throw.locator("svg").first.wait_for(timeout=30_000)
    assert "Runde 1/15" in throw.inner_text()
    assert "Summe: 0 Punkte" in app.locator(".sp-total").inner_text()
    assert field(app, 0, 0).inner_text().strip() == "5"  # pre-printed (reconstructed side A)
    screenshot(page, "start")

    def throw_order():
        m = re.search(r"1\. Klick → (\d), 2\. Klick → (\d)", throw.inner_text())
        assert m, throw.inner_text()
        return int(m.group(1)), int(m.group(2))

    # Round 1: the white fields A2 (row 1, col 0) and B2 (row 1, col 1) are free at the start.
    v1, v2 = throw_order()
    field(app, 1, 0).click()
    app.locator(".sp-message", has_text=f"{v1} kommt nach A2.").wait_for(timeout=30_000)
    field(app, 1, 1).click()
    app.locator(".sp-message", has_text="Runde 1 fertig").wait_for(timeout=30_000)
    assert field(app, 1, 0).inner_text().strip() == str(v1)
    assert field(app, 1, 1).inner_text().strip() == str(v2)
    assert "Runde 2/15" in throw.inner_text()
    assert re.search(r"Summe: \d+ Punkte", app.locator(".sp-total").inner_text())
    screenshot(page, "round1")

    # Round 2: one click on a blue bridge field writes both numbers (its partner is the only choice).
    v1, v2 = throw_order()
    field(app, 3, 3).click()
    app.locator(".sp-message", has_text="Runde 2 fertig").wait_for(timeout=30_000)
    assert {field(app, 3, 3).inner_text().strip(), field(app, 3, 4).inner_text().strip()} == {str(v1), str(v2)}
    assert "Runde 3/15" in throw.inner_text()

    # A pre-printed field: the engine refuses and the widget names the rule; nothing changes.
    field(app, 0, 0).click()
    app.locator(".sp-message", has_text="Nicht erlaubt").wait_for(timeout=30_000)
    message = app.locator(".sp-message").inner_text()
    assert "Nicht erlaubt (Regel: vorgedruckte Felder)." in message  # the engine's German rule name
    assert "in Feld A1 steht die vorgedruckte 5" in message  # the engine's own detail, in German
    assert field(app, 0, 0).inner_text().strip() == "5"
    assert "Runde 3/15" in throw.inner_text()
    screenshot(page, "refused")

    # "Neues Spiel": every written field is empty again in the browser, not only in Python (a button
    # whose description and icon are both empty is never redrawn by ipywidgets' ButtonView).
    written = [(1, 0), (1, 1), (3, 3), (3, 4)]
    app.locator("button.sp-new").click()
    throw.get_by_text("Runde 1/15").wait_for(timeout=30_000)
    app.locator(".sp-total", has_text="Summe: 0 Punkte").wait_for(timeout=30_000)
    page.wait_for_timeout(500)
    # white fields show nothing, bridge fields only their arrow and letter: no number anywhere
    texts = {f"{r},{c}": field(app, r, c).inner_text().strip() for r, c in written}
    assert not any(ch.isdigit() for text in texts.values() for ch in text), texts
    assert field(app, 0, 0).inner_text().strip() == "5"
    screenshot(page, "new-game")
    assert error_outputs(app) == []
    request_log.assert_only_local()


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
    "wuerfel-joker": ("2: 0.", "sp-wuerfel-joker"),
    "tuefteln": ("2er / pair", "sp-tuefteln"),
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


@pytest.mark.parametrize("game", [g for g in GAMES if g["ready"]], ids=lambda g: g["id"])
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
