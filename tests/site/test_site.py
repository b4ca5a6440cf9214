"""The built site in real Chromium: landing page, a live kernel behind Play, nothing from outside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sitekit import RequestLog, StaticServer

pytestmark = pytest.mark.site

ROOT = Path(__file__).resolve().parents[2]
GAMES = json.loads((ROOT / "site" / "games.json").read_text(encoding="utf-8"))["games"]
KERNEL_TIMEOUT_MS = 180_000  # cold Pyodide + kernel start on a 2-core machine takes ~30-40 s


def test_landing_page_lists_the_five_games_with_links(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url)
    cards = page.locator("li.game")
    assert cards.count() == 5
    assert [c.strip() for c in cards.locator("h2").all_inner_texts()] == [
        "Würfel Joker", "Tüfteln", "Schraube Locker", "Skip-Bo Masters", "Scratch Island"
    ]
    for game in GAMES:
        card = page.locator(f"li.game#{game['id']}")
        assert card.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
        if game["ready"]:
            assert card.locator("a.play").count() == 1
            assert card.locator("a.explore").count() == 1
        else:
            assert card.locator("a").count() == 0
            assert "kommt bald" in card.inner_text()
    screenshot(page, "de")
    page.click("#lang-toggle")
    assert "coming soon" in page.locator("li.game#tuefteln").inner_text()
    assert "Play" in page.locator("li.game#wuerfel-joker").inner_text()
    screenshot(page, "en")

    # Every link answers 200 from the local server.
    for href in page.locator("li.game a").evaluate_all("links => links.map(a => a.href)"):
        assert context.request.get(href).status == 200, href

    # Explore opens the explanatory notebook in JupyterLite's notebook app.
    page.locator("li.game#wuerfel-joker a.explore").click()
    page.locator(".jp-Notebook .jp-MarkdownCell", has_text="Würfel Joker").first.wait_for(timeout=60_000)
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


def test_wuerfel_joker_play_view_shows_the_game(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url + "play/wuerfel-joker.html")
    app = widget_app(page)
    app.locator(".jupyter-widgets button").first.wait_for(timeout=KERNEL_TIMEOUT_MS)
    errors = app.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.all_inner_texts()
    assert app.locator(".jp-InputArea-editor:visible").count() == 0
    screenshot(page, "wuerfel-joker-start")
    # A throw is decided by the engine in the kernel: the dice view must change after the click.
    widget = app.locator(".jupyter-widgets").first
    before = widget.inner_html()
    app.get_by_role("button", name=re.compile("^(Würfeln|Roll)")).first.click()
    page.wait_for_function(
        "before => document.querySelector('iframe#app').contentDocument"
        ".querySelector('.jupyter-widgets').innerHTML !== before",
        arg=before,
        timeout=30_000,
    )
    screenshot(page, "wuerfel-joker-rolled")
    request_log.assert_only_local()


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
