"""Fixtures for the static-site browser tests: build (or reuse) _site/, serve it on 127.0.0.1,
drive Debian's Chromium through Playwright, and prove that no request leaves 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from sitekit import CHROMIUM_ARGS, RequestLog, StaticServer

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_site"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """_site/, rebuilt with `make site` unless it is newer than every input."""
    if shutil.which("make") is None:
        pytest.fail("make is needed to build the site")
    subprocess.run(["make", "venv"], cwd=ROOT, check=True)
    python = ROOT / ".venv-site" / "bin" / "python"
    subprocess.run([str(python), "site/build.py", "--if-stale"], cwd=ROOT, check=True)
    assert (SITE / "index.html").exists()
    return SITE


@pytest.fixture(scope="session")
def site_url(site_dir):
    server = StaticServer(site_dir)
    yield server.url
    server.close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: run `sh site/install-browser.sh` (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    # A fresh context per test: no service worker, cache or storage shared, so each test is cold.
    ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    ctx.request_log = RequestLog(ctx)
    yield ctx
    ctx.close()


@pytest.fixture
def request_log(context) -> RequestLog:
    return context.request_log


@pytest.fixture
def screenshot(request):
    """screenshot(page, "name") saves test-artifacts/<test>-<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
