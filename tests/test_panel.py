"""`spieltisch serve GAME`: the shared front-end in a real Panel server, driven by real Chromium.

Panel hosts the same ESM as the notebooks (``pn.custom.AnyWidgetComponent``) over the same
view-model; these tests play a game to its end and review in it, switch language, start a new
game and look for clipping at 1024×768 and in projector mode.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright = pytest.importorskip("playwright.sync_api")

from harness.frontend import exercise_front_end, open_advisor  # noqa: E402

CHROMIUM = os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(game, port, app=None):
    """``spieltisch serve GAME`` on ``port`` (or ``panel serve`` of another ``app`` script), once
    it answers: (process, url)."""
    if app is None:
        cmd = [sys.executable, "-m", "spieltisch", "serve", game, "--port", str(port)]
    else:
        cmd = [sys.executable, "-m", "panel", "serve", str(app), "--address", "127.0.0.1", "--port", str(port),
               "--allow-websocket-origin", f"127.0.0.1:{port}", "--args", game]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/{'app' if app is None else Path(app).stem}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url, timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stdout.read().decode())
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError("panel server did not start")


def port_open(port) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_serve_refuses_a_game_without_a_view_before_starting(capsys):
    from spieltisch.cli import main

    assert main(["serve", "no-such-game"]) == 2
    assert "unknown game 'no-such-game'" in capsys.readouterr().err


def test_serve_stops_the_panel_server_when_terminated():
    # `spieltisch serve` runs Panel as a child process; terminating it must not orphan the server
    port = free_port()
    proc, _ = start_server("tuefteln", port)
    assert port_open(port)
    proc.terminate()
    proc.wait(15)
    for _ in range(40):
        if not port_open(port):
            break
        time.sleep(0.25)
    assert not port_open(port), "the Panel server kept running after `spieltisch serve` was terminated"


@pytest.mark.site
@pytest.mark.parametrize("game", ["tuefteln", "wuerfel-joker", "schraube-locker", "skip-bo-masters", "scratch-island"])
def test_every_game_plays_in_panel(game):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    proc, url = start_server(game, free_port())
    outside = []
    try:
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            context = browser.new_context(viewport={"width": 1024, "height": 768})
            context.on("request", lambda r: None if r.url.startswith(
                ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) else outside.append(r.url))
            page = context.new_page()
            # a short game, so the end banner and the review come within the test
            page.goto(url)
            page.wait_for_selector(".sp-table .sp-status", timeout=60_000)
            exercise_front_end(page, page.locator(".sp-table"), game,
                               lambda name: page.screenshot(path=str(ARTIFACTS / f"panel-{game}-{name}.png"),
                                                            full_page=True))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert outside == [], f"requests left 127.0.0.1: {outside[:5]}"


# The negative control of the front-end check's progress assertion: the Panel app, except that the
# host drops the advisor's progress reports (what the notebook and Panel hosts did before they
# passed them on). The check must see no progress here.
DROPPING_HOST = """
import sys
import panel as pn
from spieltisch.ui.panel.app import TableComponent
from spieltisch.ui.table import Table

pn.extension()
component = TableComponent(Table(sys.argv[1]), sizing_mode="stretch_width")
component._table.on_progress = None
pn.Column(component, sizing_mode="stretch_width").servable()
"""


@pytest.mark.site
def test_the_progress_check_fails_for_a_host_that_drops_progress(tmp_path):
    """``open_advisor`` counts the progress a host passes on; with the same table and browser, the
    real host passes some on and a host that drops them none, whatever the machine's speed."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    app = tmp_path / "dropping.py"
    app.write_text(DROPPING_HOST, encoding="utf-8")
    seen = {}
    for name, script in (("real", None), ("dropping", app)):
        proc, url = start_server("tuefteln", free_port(), script)
        try:
            with playwright.sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                page = browser.new_page(viewport={"width": 1024, "height": 768})
                page.goto(url)
                page.wait_for_selector(".sp-table .sp-status", timeout=60_000)
                seen[name] = open_advisor(page, page.locator(".sp-table"), "tuefteln")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    assert seen["real"] > 0 and seen["dropping"] == 0, seen


def test_the_panel_host_refuses_option_tokens_in_a_class_round_with_the_advisor_off():
    """Issue 32: in Panel too (the host passes each event to its Table), a class round with the advisor
    off refuses the advisor's option tokens and plays nothing; turning the advisor on is refused too."""
    import json

    from spieltisch.ui import classroom
    from spieltisch.ui.panel.app import TableComponent
    from spieltisch.ui.table import Table

    r = classroom.new_round("wuerfel-joker-2", 1, seed=9)
    table = Table(**r.table_settings())
    host = TableComponent(table)
    while table.pending() or table.human_throw_pending():
        host._work(json.dumps({"type": "act", "token": "throw"}) if table.human_throw_pending()
                   else json.dumps({"type": "step"}))
    before = list(table.session.match.actions)
    for event in ({"type": "act", "token": "opt0", "n": 1}, {"type": "advisor", "on": True, "n": 2},
                  {"type": "act", "token": "opt0", "n": 3}):
        view = json.loads(host._work(json.dumps(event)))
        assert view["message"]["kind"] == "refused" and table.session.match.actions == before
