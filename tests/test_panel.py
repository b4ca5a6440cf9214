"""The Panel advisor app in a real Panel server, driven by real Chromium (no mocks).

The Vega-Lite chart is the same spec the notebooks show, which is how we check that one chart
library serves both JupyterLite and Panel.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("panel")

from spieltisch.core.errors import SpieltischError  # noqa: E402
from spieltisch.games.wuerfel_joker.spiel2.engine import Spiel2Game  # noqa: E402
from spieltisch.ui.panel.wuerfel_joker import advice_rows, push_probability  # noqa: E402

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def test_push_probability_exact():
    # only slide 5 down: 1+4, 2+3 (4 ordered), 6-1 (2), 1x5 / 5:1 (2), the doubles 5,5 (1) -> 9/36
    assert push_probability(0b111101111, "plus_minus") == Fraction(1, 4)
    assert push_probability(0, "plus_minus") == 1


def test_advice_rows_are_the_engines_advice():
    rows = advice_rows([], 6, 2, "plus_minus", False, "en")
    game = Spiel2Game(1, {"rounds": 1})
    obs = game.position((), (6, 2)).observation(0)
    expected, all_up = game.advise(obs), game.advise(obs, objective="all_up")
    assert [r["choice"] for r in rows] == [o.label["en"] for o in expected.options]
    assert {r["choice"] for r in rows} == {"push 8", "push 4", "push 3"}  # rulebook example 1
    assert [r["exact"] for r in rows] == [str(o.value) for o in expected.options]
    assert [r["P(all nine)"] for r in rows] == [float(all_up.option_for(o.action).value) for o in expected.options]
    assert [r["optimal"] for r in rows] == ["★" if o.best else "" for o in expected.options]
    assert rows[0]["choice"] == "push 4" and rows[0]["arithmetic"] == "6−2 = 4"
    # only slide 5 down and 1, 2 thrown: nothing to push, the turn is over, nothing to advise
    assert advice_rows([1, 2, 3, 4, 6, 7, 8, 9], 1, 2, "plus_minus", False, "de") == []
    german = advice_rows([1, 2], 1, 1, "plus_minus", False, "de")  # doubles that push nothing
    assert [r["Wahl"] for r in german] == ["auf den Pasch verzichten", "Pasch annehmen (Zugende)"]
    with pytest.raises(SpieltischError):
        advice_rows(range(1, 10), 1, 2, "plus_minus", False, "de")  # all nine up: no turn left


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port):
    """``spieltisch serve wuerfel-joker`` on ``port``, once it answers: (process, url)."""
    proc = subprocess.Popen([sys.executable, "-m", "spieltisch", "serve", "wuerfel-joker", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/wuerfel_joker"
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


@pytest.fixture(scope="module")
def panel_server():
    proc, url = start_server(free_port())
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_stops_the_panel_server_when_terminated():
    # `spieltisch serve` runs Panel as a child process; terminating it must not orphan the server
    port = free_port()
    proc, _ = start_server(port)
    assert port_open(port)
    proc.terminate()
    proc.wait(15)
    for _ in range(40):
        if not port_open(port):
            break
        time.sleep(0.25)
    assert not port_open(port), "the Panel server kept running after `spieltisch serve` was terminated"


@pytest.mark.site
def test_panel_advisor_in_chromium(panel_server):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    outside = []
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        context.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:"))
                   else outside.append(r.url))
        page = context.new_page()
        page.goto(panel_server)
        page.wait_for_selector(".sp-advice", timeout=60_000)
        page.wait_for_selector(".sp-chart canvas, .sp-chart svg", timeout=60_000)
        advice = page.locator(".sp-advice table")  # Panel renders into shadow roots; locators pierce them
        advice.wait_for(timeout=30_000)
        first = advice.inner_text()
        assert "4" in first and "6−2 = 4" in first  # throw 6,2 with nothing up: push 4 is optimal
        # push slide 4 up in the app: the kernel-side Python recomputes the advice
        page.locator(".sp-slides button", has_text="4").first.click()
        for _ in range(60):
            second = page.locator(".sp-advice table").inner_text()
            if second != first:
                break
            page.wait_for_timeout(500)
        assert "6+2 = 8" in second and second != first
        page.screenshot(path=str(ARTIFACTS / "panel-wuerfel-joker.png"), full_page=True)
        browser.close()
    assert outside == [], f"requests left 127.0.0.1: {outside[:5]}"
