"""The students' lesson pages (lesson/<lang>/<id>.html): every lesson link of the landing page, German
and English, opens a page that starts by itself — the first prediction button appears without any
click — and shows no Python. One browser context, the pages one after another (the later ones start
from the browser's cache, as a class's second lesson does); axe-core on one lesson per language; in
one lesson a prediction locked in opens its gated answer (the comm both ways: the page's click reaches
Python, Python's change to another widget reaches the page); the last page again without a network.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import lessonrun
import pytest
from a11y import assert_accessible

ROOT = Path(__file__).resolve().parents[2]
LESSON_TIMEOUT_MS = 180_000
# what a page must not show: code (the notebooks' own words for it)
PYTHON_WORDS = ("import ", "w.choice(", "piplite", "def ")


def python_on_page(text: str, sources: list[str]) -> list[str]:
    """What of the code a page's visible text shows: PYTHON_WORDS, and any line of a code cell (long
    enough to be code, not a short word such as ``)``)."""
    found = [word for word in PYTHON_WORDS if word in text]
    for source in sources:
        for line in source.splitlines():
            line = line.strip()
            if len(line) >= 16 and line in text:
                found.append(line)
    return found


def test_the_python_check_finds_code_on_a_page():
    """The check below can fail: a page showing a code cell (as a notebook does) is caught, a page
    showing only the lesson's text is not."""
    sources = lessonrun.code_cells("wuerfel-joker", "de")
    assert python_on_page("Frage 1\n" + sources[-1] + "\nmehr Text", sources)
    assert python_on_page("x = 1\nw.choice(1)", [])  # a word alone
    assert python_on_page("Welcher letzte Schieber geht am leichtesten hoch?\nFesthalten", sources) == []


def landing_lesson_links(page, site_url: str) -> list[str]:
    """The Explore links of the landing page, German then English (as a student finds them)."""
    page.goto(site_url)
    links = page.locator("li.game a.explore:visible").evaluate_all("links => links.map(a => a.href)")
    page.locator("#lang-toggle").click()
    links += page.locator("li.game a.explore:visible").evaluate_all("links => links.map(a => a.href)")
    return links


def lock_and_see_the_answer(page) -> None:
    """Würfel Joker, question 2: choose, lock in; the answer gated on this prediction (the grid of
    points, made before any work by hand of question 2) opens with its picture."""
    gate = page.locator('.stl[data-key="q2"][data-open]:not(.spieltisch-predict)').first
    gate.wait_for(timeout=30_000)
    assert gate.get_attribute("data-open") == "false"
    assert gate.locator("svg").count() == 0
    predict = page.locator(".spieltisch-predict", has=page.locator("legend", has_text="Nur die 9 ist unten")).first
    predict.locator("label.stl-opt").first.click()
    predict.locator("button.stl-lock").click()
    page.locator('.stl[data-key="q2"][data-open="true"]:not(.spieltisch-predict) svg').first.wait_for(timeout=30_000)


@pytest.mark.site
def test_every_lesson_link_opens_a_page_without_code_that_starts_by_itself(context, request_log, site_url, screenshot):
    page = context.new_page()
    links = landing_lesson_links(page, site_url)
    paths = sorted(link[len(site_url):].lstrip("/") for link in links)
    # five lessons, German and English, each its own page
    assert len(links) == 10 and len(set(links)) == 10, links
    assert all(re.fullmatch(r"lesson/(de|en)/[a-z-]+\.html", p) for p in paths), paths
    problems, times = [], {}
    checked = set()
    for link in links:
        name = link.rsplit("/lesson/", 1)[1]
        lang, lesson = name.split("/")[0], name.split("/")[1][:-len(".html")]
        sources = json.loads((ROOT / "_site" / "lesson" / lang / f"{lesson}.cells.json").read_text(encoding="utf-8"))
        started = time.monotonic()
        page.goto(link)
        assert page.evaluate("document.documentElement.lang") == lang
        try:
            page.locator("button.stl-lock").first.wait_for(timeout=LESSON_TIMEOUT_MS)
            times[name] = round(time.monotonic() - started, 1)
            page.wait_for_function("document.documentElement.dataset.lesson !== 'loading'", timeout=LESSON_TIMEOUT_MS)
        except Exception as err:  # noqa: BLE001 - named in the report below, the next lesson still runs
            screenshot(page, f"timeout-{lang}-{lesson}")
            problems.append(f"{name}: {type(err).__name__} {str(err)[:200]}")
            continue
        state = page.evaluate("document.documentElement.dataset.lesson")
        if state != "ready":
            screenshot(page, f"error-{lang}-{lesson}")
            problems.append(f"{name}: {state}: {page.locator('#progress').inner_text()} "
                            f"{page.locator('.failed').all_inner_texts()[:3]}")
        shown = python_on_page(page.locator("body").inner_text(), sources)
        if shown:
            problems.append(f"{name}: Python on the page: {shown[:5]}")
        if page.locator("[class*='jp-']").count():
            problems.append(f"{name}: JupyterLab cells on the page")
        if lang not in checked:  # axe-core once per language, on the lesson with every kind of widget run
            checked.add(lang)
            assert_accessible(page, f"lesson page {name}")
        if name == "de/wuerfel-joker.html":
            lock_and_see_the_answer(page)
            screenshot(page, "locked-in")
    print(f"first prediction button, seconds from opening the page: {times}")
    assert not problems, "\n".join(problems)

    # offline: the service worker kept every file; the last lesson again, no network
    context.set_offline(True)
    try:
        page.reload()
        page.locator("button.stl-lock").first.wait_for(timeout=LESSON_TIMEOUT_MS)
    finally:
        context.set_offline(False)
    request_log.assert_only_local()
