"""The built site in real Chromium: landing page, a live kernel behind Play, nothing from outside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.frontend import (SI_FREE_DIE, assert_no_other_language, assert_nothing_clipped, exercise_front_end,
                              new_game_with_seed, play_clicks, settle)
from sitekit import RequestLog, StaticServer, downloaded

import lessonrun

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
KERNEL_TIMEOUT_MS = lessonrun.KERNEL_TIMEOUT_MS


def test_landing_page_lists_the_five_games_with_links(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url)
    cards = page.locator("li.game")
    assert cards.count() == 5
    assert [c.strip() for c in cards.locator("h2").all_inner_texts()] == [
        "Würfel Joker", "Tüfteln", "Schraube Locker", "Skip-Bo Masters", "Scratch Island"
    ]
    # The games that are open to play (all five now); a planned one would say "kommt bald".
    assert [g["id"] for g in GAMES if g["ready"]] == [
        "wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]
    for game in GAMES:
        card = page.locator(f"li.game#{game['id']}")
        assert card.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
        if game["ready"]:
            assert card.locator("a.play").count() == 1
            assert card.locator("a.play").get_attribute("href") == f"play/{game['id']}.html"
            assert card.locator("a.explore:visible").count() == (1 if game["explore"] else 0)
            assert "kommt bald" not in card.inner_text()
        else:
            assert card.locator("a").count() == 0
            assert "kommt bald" in card.inner_text()
    screenshot(page, "de")
    page.click("#lang-toggle")
    for game in GAMES:  # Play for every ready game, Explore where its lesson is written
        text = page.locator(f"li.game#{game['id']}").inner_text()
        assert "Play" in text and ("Explore" in text) == bool(game["explore"]) and "coming soon" not in text
    assert page.locator("a[href='lehrkraefte.html']:visible").first.inner_text() == "For teachers"
    screenshot(page, "en")

    # Every link answers 200 from the local server.
    for href in page.locator("li.game a").evaluate_all("links => links.map(a => a.href)"):
        assert context.request.get(href).status == 200, href

    # Explore opens the lesson's students' page in the page's language (test_lesson_page.py runs them).
    page.locator("li.game#wuerfel-joker a.explore:visible").click()
    page.locator("main#lesson h1", has_text="probability at the games table").first.wait_for(timeout=60_000)
    assert page.url.endswith("/lesson/en/wuerfel-joker.html")
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
    downloaded; then, with the network gone, it starts again from its service worker's copy and
    the snapshot of Python the first visit kept."""
    page = context.new_page()
    console, responses = [], []
    page.on("console", lambda m: console.append(m.text))
    context.on("response", lambda r: responses.append(r))
    root = play_page(page, site_url, game)
    assert page.locator("#app").get_attribute("data-start") == "fresh"  # first visit: no snapshot yet
    first_seed = root.locator("input.sp-seed").input_value()
    # the snapshot is taken after the first view is sent, and kept in cache storage
    page.locator("#app[data-snapshot=saved]").wait_for(state="attached", timeout=60_000)
    wait_for_offline_copy(page, [r.url for r in responses])
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
        # warm: Python's memory came back from the first visit's snapshot, and the game is a new
        # one (the seed is drawn after the restore, not frozen into the snapshot)
        assert again.locator("#app").get_attribute("data-start") == "snapshot"
        assert again.locator("input.sp-seed").input_value() != first_seed
        screenshot(again, "offline")
    finally:
        context.set_offline(False)
    request_log.assert_only_local()


# Whether the service worker's copy holds every file of ``urls`` it keeps (``sw.js`` stores a file
# while the page already reads it, so the last writes may still be under way when the page is ready).
OFFLINE_COPY_MISSING = """async urls => {
    const names = (await caches.keys()).filter(k => k.startsWith("spieltisch-play-"));
    if (names.length !== 1) return ["no single cache: " + names.join(", ")];
    const cache = await caches.open(names[0]);
    const kept = new Set((await cache.keys()).map(r => new URL(r.url).pathname));
    const reg = await navigator.serviceWorker.getRegistration();
    const worker = reg && (reg.active || reg.waiting || reg.installing);
    if (!worker) return ["no service worker"];
    const ours = p => (p.startsWith("/play/") && (p.endsWith(".html") || p.endsWith(".mjs")))
        || (p.includes("/static/pyodide/") && [".mjs", ".wasm", ".zip", ".json", ".whl"].some(x => p.endsWith(x)));
    return [...new Set(urls.map(u => new URL(u).pathname))].filter(p => ours(p) && !kept.has(p));
}"""


def wait_for_offline_copy(page, urls, timeout_s: float = 120) -> None:
    """Wait (a condition, not a sleep) until the offline copy holds the files this visit fetched."""
    missing = None
    for _ in range(int(timeout_s * 4)):
        missing = page.evaluate(OFFLINE_COPY_MISSING, urls)
        if not missing:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"the offline copy still lacks {missing[:5]}")


def _displays(root) -> list[list[str]]:
    return root.locator(".sp-display").evaluate_all(
        "ds => ds.map(d => [...d.querySelectorAll('.sp-chip')].map(c => c.dataset.card))")


def test_schraube_locker_plays_a_turn_with_a_swap(context, request_log, site_url, screenshot):
    """Schraube Locker's Play page, seed 11, two players: the pawn beside the first stack offered,
    then the first button each time (roll again, then stop) brings the player's pawn to the bot's
    stack with a swap card in hand; the swap
    is clicked, the log says it and the two displays trade the cards; the turn is played to its end
    (tests/games/schraube_locker/test_schraube_locker_view.py finds the same swap in CPython)."""
    page = context.new_page()
    root = play_page(page, site_url, "schraube-locker")
    for _ in range(200):  # the first decision (the pawn's stack); the seed is typed into a quiet table
        settle(page, root)
        if root.locator(".sp-move, .sp-can").count() and not root.locator(".sp-finish").count():
            break
        page.wait_for_timeout(200)
    new_game_with_seed(page, root, 11)
    assert root.locator(".sp-seed").input_value() == "11"
    swap = root.locator(".sp-move", has_text="tauschen: gib")
    for _ in range(150):
        settle(page, root)
        if swap.count():
            break
        play_clicks(page, root, "schraube-locker", 1)
    else:
        raise AssertionError("no swap offered with seed 11")
    assert root.locator(".sp-move").first.inner_text() == swap.first.inner_text()
    mine, bots = _displays(root)
    screenshot(page, "swap-offered")
    swap.first.click()
    settle(page, root)
    mine_after, bots_after = _displays(root)
    given, = set(bots_after) - set(bots)  # one card went over to the bot, one came back
    taken, = set(bots) - set(bots_after)
    assert given in mine and given not in mine_after and taken in mine_after
    text = root.locator(".sp-message").inner_text() + root.locator(".sp-log").inner_text()
    assert "Du: mit Bot 2 (stark) tauschen: gib „Karten tauschen“ (0), nimm" in text, text
    for _ in range(60):  # the rest of the turn (take the card, secure): until the bot is to move
        settle(page, root)
        if "Bot 2" in root.locator(".sp-status").inner_text():
            break
        if root.locator(".sp-move").count():
            root.locator(".sp-move").first.click()
        else:
            page.wait_for_timeout(300)  # a card turns up by itself
    assert "Am Zug: Bot 2 (stark)" in root.locator(".sp-status").inner_text()
    screenshot(page, "swap-done")
    request_log.assert_only_local()


def test_skip_bo_masters_turn_with_a_coin_action_on_the_play_page(context, request_log, site_url, screenshot):
    """Issue 15: a turn with a coin action, clicked on the Play page. Seed 5 deals the player a 2 on
    the stock pile and no 1: replace the 1 for a coin, play the 2 from the stock on that pile, end the
    turn with a discard; the player's coins and the coins lying on the pile change. Then six players
    fit on the screen too."""
    page = context.new_page()
    root = play_page(page, site_url, "skip-bo-masters")
    new_game_with_seed(page, root, 5)  # (a move of the game before could still be on the screen)
    replace = root.locator(".sp-move", has_text="ersetze die nächste Karte auf Ablagestapel 1 für 1 Münze")
    replace.wait_for(timeout=120_000)  # the cards are dealt one visible step after the other
    own = root.locator(".sb-own .sb-coins")
    assert own.get_attribute("data-coins") == "12"
    assert root.locator(".sb-own [data-act=s]").get_attribute("data-card") == "2"
    replace.click()
    settle(page, root)
    assert own.get_attribute("data-coins") == "11"
    assert root.locator(".sb-pile[data-pile='0']").get_attribute("data-coins") == "1"
    root.locator(".sb-own [data-act=s]").click()  # the following card: the 2 from the stock
    settle(page, root)
    assert root.locator(".sp-board .sp-target").count() == 1
    root.locator(".sp-board [data-act=b0].sp-target").click()
    settle(page, root)
    root.locator(".sb-hand .sp-can").first.wait_for(timeout=60_000)  # the next stock card is turned up
    pile = root.locator(".sb-pile[data-pile='0']")
    assert pile.locator(".sb-card").get_attribute("data-card") == "2" and pile.get_attribute("data-coins") == "1"
    assert root.locator(".sb-own [data-act=s]").inner_text().split()[-2] == "14"  # 14 übrig
    screenshot(page, "coin-action")
    assert_nothing_clipped(page, root)
    # end the turn: what can still be played is played first (D5: the 3, then the 4 …), then a hand
    # card on a discard pile; the bot plays on
    for _ in range(30):
        root.locator(".sb-own .sp-can").first.click()
        settle(page, root)
        discard = root.locator(".sp-board .sp-target[data-act^=d]")
        if discard.count():
            discard.first.click()
            settle(page, root)
            break
        root.locator(".sp-board .sp-target[data-act^=b]").first.click()
        settle(page, root)
    root.locator(".sp-log div", has_text="Zugende").first.wait_for(timeout=60_000)
    log = root.locator(".sp-log").inner_text() + root.locator(".sp-message").inner_text()
    assert "ersetze die nächste Karte auf Ablagestapel 1 für 1 Münze" in log
    assert "2 vom Spielerstapel auf Ablagestapel 1" in log
    # six players: every seat's open piles and the standings still fit at 1024×768
    root.locator(".sp-players").select_option("6")
    settle(page, root)
    play_clicks(page, root, "skip-bo-masters", 12)
    assert root.locator(".sb-other").count() == 5
    screenshot(page, "six-players")
    assert_nothing_clipped(page, root)
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
        elif root.locator(SI_FREE_DIE).count():  # the roller clicks two dice
            assert scratched.count() == 0
            root.locator(SI_FREE_DIE).first.click()
    settle(page, root)
    assert scratched.count() == 0
    assert root.locator(".sp-dice-row svg.sp-die").count() >= 4
    step = root.get_attribute("data-step")
    board.locator("[data-act]").first.click()  # a preview only
    settle(page, root)
    assert root.get_attribute("data-step") == step and scratched.count() == 0
    assert "Preview" in root.locator(".sp-message").inner_text()
    marked = board.locator("rect.sp-mark[data-mark='preview']")
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
    """Scroll ``locator`` to the middle of the notebook (or wholly into view, near the notebook's
    end). Repeated: off-screen cells have estimated heights (content-visibility) until painted, so
    the first scroll can land short."""
    for _ in range(20):
        settled = locator.evaluate("""e => new Promise(done => {
            e.scrollIntoView({block: 'center'});
            // the scroll and the painted cells' real heights take frames: settled when the element
            // is in view and has not moved over two more frames
            const frames = f => new Promise(r => { const go = k => k ? requestAnimationFrame(() => go(k - 1)) : r(); go(f); });
            frames(2).then(() => {
                const a = e.getBoundingClientRect();
                frames(2).then(() => {
                    const b = e.getBoundingClientRect();
                    const inView = b.bottom > 0 && b.top < innerHeight;
                    done(inView && Math.abs(a.top - b.top) < 1 && Math.abs(a.height - b.height) < 1);
                });
            });
        })""")
        if settled:
            return
    raise AssertionError("the notebook did not settle with the cell in view")


LESSONS = [(g["id"], lang) for g in GAMES if g["ready"] and g["explore"] and g["explore"]["de"] != g["explore"]["en"]
           for lang in ("de", "en")]


# A hang detector, not the speed target: a cell that takes a minute is stuck. The target (every cell
# under 10 s in the browser) depends on the machine, so it is measured, not asserted:
# `site/measure.py --lessons` prints every lesson's slowest cells.
CELL_LIMIT_S = 60
# The kit's words a student clicks or reads (spieltisch.lesson.widgets.WORDS, as the page shows them).
LESSON_WORDS = {"de": {"lock": "Festhalten", "locked": "Festgehalten", "compare": "Vergleichen", "show": "Zeigen",
                       "yours": "Deine Vorhersage", "later": "Später geändert auf", "teacher": "Für die Lehrkraft",
                       "again": "Neu simulieren", "seed": "Startwert", "check": "Prüfen", "first": "1. Würfel",
                       "value": "Deine Vorhersage:"},
                "en": {"lock": "Lock in", "locked": "Locked in", "compare": "Compare", "show": "Show",
                       "yours": "Your prediction", "later": "Later changed to", "teacher": "For the teacher",
                       "again": "Run again", "seed": "Seed", "check": "Check", "first": "first die",
                       "value": "Your prediction:"}}


def edition(lesson: str, lang: str) -> int:
    """A lesson's edition: 2 when its metadata says so (rewritten with the second kit: answers wait
    for predictions, the metadata lists each question's answer), else 1."""
    return int(lessonrun.metadata(lesson, lang).get("edition", 1))


def notebook_text(page) -> str:
    # textContent: cells JupyterLab does not paint off screen are still in the page
    return page.locator(".jp-Notebook").text_content()


def wait_for_text(page, text: str, timeout=60_000) -> None:
    # spaces as a reader sees them: a line break or a no-break space in the HTML is one space
    page.wait_for_function("t => document.querySelector('.jp-Notebook').textContent.replace(/\\s+/g, ' ')"
                           ".includes(t.replace(/\\s+/g, ' '))", arg=text,
                           timeout=timeout, polling=250)


def check_by_hand(page, key: str, words) -> None:
    """Check every piece of work by hand of question ``key`` ("Prüfen" with a number typed, right or
    wrong): the widgets after it (the exact value, the simulation, the comparison) wait for that."""
    for kind in ("grid", "tree", "check"):
        for widget in page.locator(f".spieltisch-{kind}[data-key={key}]").all():
            show(page, widget)
            box = widget.get_by_role("textbox")
            if box.count():
                box.first.fill("1")
            widget.get_by_role("button", name=words["check"], exact=True).click()
            widget.locator(".stl-feedback").filter(has_text=re.compile(r"\S")).wait_for(timeout=30_000)


def lock_in(page, predict, words, option: int = 0) -> str:
    """Predict with the widget ``predict``: the ``option``-th choice (a slider keeps its place), then
    "Lock in"; returns what the widget says is locked in."""
    show(page, predict)
    radios = predict.get_by_role("radio")
    if radios.count():
        # a student clicks the option's label (the radio button itself is drawn by its label)
        predict.locator("label.stl-opt").nth(option).click()
        assert radios.nth(option).is_checked()
        label = predict.locator("label.stl-opt").nth(option).text_content().strip()
    else:
        slider = predict.get_by_role("slider", name=re.compile(re.escape(words["value"])))
        label = slider.get_attribute("aria-valuetext")
    predict.get_by_role("button", name=words["lock"]).click()
    predict.locator(".stl-status", has_text=f"{words['locked']}: {label}").wait_for(timeout=30_000)
    return label


def check_first_edition(page, lesson, words, screenshot) -> None:
    """A lesson not yet rewritten: its pictures, the sliders that redraw one, and a prediction that
    comes back from the kernel in the comparison."""
    svgs = page.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type='image/svg+xml']")
    assert svgs.count() >= 3  # grid, tree, running share, histogram: each lesson has at least three
    for k in range(svgs.count()):
        show(page, svgs.nth(k))
        screenshot(page, f"picture-{k}")
    explore = page.locator(".spieltisch-explore")
    assert explore.count() >= 1
    for k in range(explore.count()):
        assert explore.nth(k).locator("svg").count() == 1
        show(page, explore.nth(k))
        screenshot(page, f"explore-{k}")
    predict = page.locator(".spieltisch-predict").first
    assert predict.get_by_role("radio").count() >= 2  # the first prediction of every lesson is a choice
    label = lock_in(page, predict, words, option=min(6, predict.get_by_role("radio").count() - 1))
    compare = page.locator(".spieltisch-reveal", has=page.get_by_role("button", name=words["compare"])).first
    show(page, compare)
    compare.get_by_role("button", name=words["compare"]).click()
    compare.locator(".stl-body", has_text=f"{words['yours']}: {label}").wait_for(timeout=30_000)
    screenshot(page, "compared")


def check_second_edition(page, lesson, lang, words, screenshot) -> None:
    """Predict first, for real: after Run All no question's answer (the metadata's text of it) is in
    the page and no answer picture is drawn; "Show" opens one gate; each prediction, made with the
    keyboard or the mouse, brings its answer; "Run again" draws a new picture with a new seed; the
    first prediction stays when a later one is compared; the by-hand widgets check what is typed."""
    meta = lessonrun.metadata(lesson, lang)
    questions = meta["questions"]
    assert questions and all(q["answer"] for q in questions)
    text = notebook_text(page)
    assert not [q["answer"] for q in questions if q["answer"] in text], "an answer shows before its prediction"
    assert page.locator(".jp-Notebook .stl-body svg").count() == 0  # no answer picture, no simulation yet
    assert page.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type='image/svg+xml']").count() == 0
    gates = page.locator(".stl[data-open=false]")
    assert gates.count() >= len(questions)
    screenshot(page, "before-predictions")

    # "Show": one gate opens without a prediction, the others of its question stay closed
    last = questions[-1]["key"]
    shut = page.locator(f".stl[data-key={last}][data-open=false]")
    before = shut.count()
    show(page, shut.first)
    shut.first.get_by_role("button", name=words["show"], exact=True).click()
    page.wait_for_function("([k, n]) => document.querySelectorAll(`.stl[data-key=${k}][data-open=false]`).length === n - 1",
                           arg=[last, before], timeout=30_000)

    # a prediction with the keyboard only: choose with the arrow keys, Tab to "Lock in", Enter
    first = questions[0]["key"]
    predict = page.locator(f".spieltisch-predict[data-key={first}]")
    show(page, predict)
    radios = predict.get_by_role("radio")
    assert radios.count() >= 2
    radios.first.focus()
    page.keyboard.press("ArrowRight")  # moves the choice to the second option
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    second = predict.locator("label.stl-opt").nth(1).text_content().strip()
    predict.locator(".stl-status", has_text=f"{words['locked']}: {second}").wait_for(timeout=30_000)

    for q in questions:
        if q["key"] != first:
            lock_in(page, page.locator(f".spieltisch-predict[data-key={q['key']}]"), words)
        check_by_hand(page, q["key"], words)  # by hand first: the exact value comes after the check
        try:
            wait_for_text(page, q["answer"], timeout=20_000)
        except Exception:
            # an answer that is only a comparison (an estimate: Skip-Bo's extension C) shows when the
            # student presses "Compare" (the first question's comparison is pressed below, where it freezes)
            press = page.locator(f".spieltisch-reveal[data-key={q['key']}]").get_by_role("button", name=words["compare"])
            if q["key"] != first and press.count():
                show(page, press.first)
                press.first.click()
            try:
                wait_for_text(page, q["answer"])
            except Exception as e:
                screenshot(page, f"no-answer-{q['key']}")
                raise AssertionError(f"{q['key']}: its answer {q['answer']!r} never shows after its prediction") from e
    assert page.locator(f".stl[data-key={first}][data-open=false]").count() == 0
    for k, widget in enumerate(page.locator(".stl:has(svg)").all()):
        show(page, widget)
        screenshot(page, f"picture-{k}")

    # "Run again": a new seed, a new picture
    sim = page.locator(f".spieltisch-simulate[data-key={first}]").first
    show(page, sim)
    seed, picture = sim.get_attribute("data-seed"), sim.locator(".stl-body svg").inner_html()
    sim.get_by_role("button", name=words["again"]).click()
    page.wait_for_function("([k, s]) => { const e = document.querySelector(`.spieltisch-simulate[data-key=${k}]`);"
                           " return e.dataset.seed !== s && !e.hasAttribute('aria-busy'); }", arg=[first, seed], timeout=60_000)
    assert sim.get_by_role("spinbutton", name=words["seed"]).input_value() == sim.get_attribute("data-seed") != seed
    assert sim.locator(".stl-body svg").inner_html() != picture
    screenshot(page, "run-again")

    # the first prediction is frozen by the first comparison; a later one is shown beside it
    compare = page.locator(f".spieltisch-reveal[data-key={first}]")
    show(page, compare)
    compare.get_by_role("button", name=words["compare"]).click()
    compare.locator(".stl-body", has_text=f"{words['yours']}: {second}").wait_for(timeout=30_000)
    third = lock_in(page, predict, words, option=2)
    predict.locator(".stl-status", has_text=second).wait_for(timeout=30_000)  # "… your first: <second>"
    compare.get_by_role("button", name=words["compare"]).click()
    compare.locator(".stl-body", has_text=f"{words['later']}: {third}").wait_for(timeout=30_000)
    assert f"{words['yours']}: {second}" in compare.locator(".stl-body").text_content()
    screenshot(page, "compared-twice")

    # by hand: a grid cell by keyboard, then the check outlines what is wrong; a tree input marked wrong
    grid = page.locator(".spieltisch-grid").first
    if grid.count():
        show(page, grid)
        # a cell's name starts with the label it shows (the sum), if any: "2 – 1. Würfel 1, 2. Würfel 1: …"
        cell = grid.get_by_role("button", name=re.compile(rf"^(?:[^–]* – )?{re.escape(words['first'])} 1, .* 1: "))
        unmarked = cell.get_attribute("aria-label")
        cell.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")  # the second cell of the first row, one click
        assert grid.get_by_role("button", name=re.compile(rf"^(?:[^–]* – )?{re.escape(words['first'])} 1, .* 2: ")).get_attribute(
            "aria-label") != unmarked.replace(" 1: ", " 2: ")
        grid.get_by_role("button", name=words["check"]).click()
        grid.locator(".stl-feedback").filter(has_text=re.compile(r"\d")).wait_for(timeout=30_000)
        screenshot(page, "grid-checked")
    tree = page.locator(".spieltisch-tree").first
    if tree.count():
        show(page, tree)
        box = tree.get_by_role("textbox").first
        box.fill("0")  # no branch of a tree diagram has probability 0
        tree.get_by_role("button", name=words["check"]).click()
        tree.locator("input[aria-invalid=true]").first.wait_for(timeout=30_000)
        assert box.get_attribute("aria-invalid") == "true"
        screenshot(page, "tree-checked")


@pytest.mark.parametrize("lesson,lang", LESSONS, ids=[f"{g}-{lang}" for g, lang in LESSONS])
def test_lesson_student_version_runs_in_the_browser(lesson, lang, context, request_log, site_url, screenshot):
    """A lesson as a student gets it from the landing page's Explore: no stored answer and no
    teacher note; Run All in Pyodide gives no error and no cell hangs; then, for a lesson of the
    second edition, predict first (check_second_edition), else the first edition's checks; the
    game itself in the German lesson."""
    words = LESSON_WORDS[lang]
    page = context.new_page()
    lessonrun.open_lesson(page, site_url, lesson, lang)
    assert page.locator(".jp-Notebook .jp-OutputArea-output").count() == 0  # nothing answered yet
    assert words["teacher"] not in notebook_text(page)
    # solution cells collapsed (placeholders once JupyterLab has laid the cells out)
    if edition(lesson, lang) == 1:
        page.locator(".jp-Notebook .jp-InputPlaceholder").first.wait_for(state="attached", timeout=30_000)
    screenshot(page, "opened")
    # Open the solution cells (as a student may) so every cell shows its prompt and its output:
    # the timing reads prompts, and an error inside a collapsed output would not be in the page.
    lessonrun.expand_all(page)
    assert page.locator(".jp-Notebook .jp-InputPlaceholder").count() == 0

    times = lessonrun.run_all(page, on_timeout=lambda: screenshot(page, "timeout"))
    errors = lessonrun.error_outputs(page)
    if errors:
        screenshot(page, "error")
    assert errors == [], errors[0][-2000:]
    code_cells = page.locator(".jp-Notebook .jp-CodeCell").count()
    assert [i for i, _ in times] == list(range(code_cells)), times  # every code cell ran
    slow = [(i, round(t, 1)) for i, t in times if t > CELL_LIMIT_S]
    print(f"{lesson}-{lang}: Run All {sum(t for _, t in times):.0f} s; slowest cells "
          f"{sorted(((round(t, 1), i) for i, t in times), reverse=True)[:4]}")
    assert not slow, f"cells over {CELL_LIMIT_S} s (code cell index, seconds): {slow}"

    if edition(lesson, lang) >= 2:
        check_second_edition(page, lesson, lang, words, screenshot)
    else:
        check_first_edition(page, lesson, words, screenshot)
    if lang == "de":  # the notebook host of the shared front-end, as on the Play page and in Panel
        widget = page.locator(".sp-table").first
        widget.wait_for(timeout=60_000)
        page.set_viewport_size({"width": 1024, "height": 768})
        widget.scroll_into_view_if_needed()
        exercise_front_end(page, widget, lesson, lambda name: screenshot(page, f"widget-{name}"))
    request_log.assert_only_local()


def test_teachers_page_lists_each_lesson_with_path_worksheet_and_teacher_version(context, request_log, site_url, screenshot):
    page = context.new_page()
    page.goto(site_url)
    page.locator("a[href='lehrkraefte.html']:visible").first.click()
    page.locator("h1", has_text="Für Lehrkräfte").wait_for(timeout=30_000)
    build = load_build()
    lessons = build.lessons()
    assert lessons
    for lesson, by_lang in lessons.items():
        for lang, meta in by_lang.items():
            section = page.locator(f"section.lesson#{lesson}-{lang}")
            assert section.count() == 1
            rows = section.locator("table.path tbody tr")
            assert rows.count() == len(meta["path"])
            minutes = [int(m) for m in section.locator("table.path tbody tr td:first-child").all_text_contents()]
            assert sum(minutes) == 45
            assert section.locator("table.extensions tbody tr").count() == len(meta.get("extensions", ()))
            # the question to ask the class never gives an answer away
            told = [q["answer"] for q in meta.get("questions", ()) if q["answer"] in section.inner_text()]
            assert not told, f"{lesson}-{lang}: the teachers' page gives away {told}"
            for href in section.locator("a").evaluate_all("links => links.map(a => a.href)"):
                assert context.request.get(href).status == 200, href
    screenshot(page, "de")
    page.locator("#lang-toggle").click()
    assert page.locator("h1").inner_text() == "For teachers"
    assert_no_other_language(page.locator("main").inner_text(), "en")
    screenshot(page, "en")

    # The worksheet is print-ready: A4 pages, the print button not printed, every question there; its
    # answer key too (one page per worksheet and key reused: no extra page opened).
    sheet = context.new_page()
    for lesson, by_lang in lessons.items():
        for lang, meta in by_lang.items():
            sheet.goto(site_url + build.worksheet_path(lesson, lang))
            assert sheet.locator("ol.questions > li").count() == len(meta["worksheet"])
            sheet.emulate_media(media="print")
            assert not sheet.locator("button.print").is_visible()
            pdf = sheet.pdf(format="A4")
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert pdf.startswith(b"%PDF")
            if meta.get("edition", 1) >= 2:
                # the prediction box first, whole on the first page (A4 less the margins: 261 mm), then the
                # working part: two pages at most
                assert pages <= 2, f"{lesson}-{lang}: the worksheet prints on {pages} pages"
                assert sheet.locator("section.predictions .predict").count() == len(meta["worksheet"])
                box = sheet.locator("section.predictions").bounding_box()
                assert box["y"] + box["height"] <= 261 * 96 / 25.4, f"{lesson}-{lang}: the predictions run onto page 2"
            else:
                assert 1 <= pages <= 3, pages
            sheet.emulate_media(media="screen")
            screenshot(sheet, f"worksheet-{lesson}-{lang}")
            sheet.goto(site_url + build.answer_key_path(lesson, lang))
            assert sheet.locator("li[data-question]").count() == len(meta["worksheet"])
            sheet.emulate_media(media="print")
            assert not sheet.locator("button.print").is_visible()
            assert sheet.pdf(format="A4").startswith(b"%PDF")
            sheet.emulate_media(media="screen")
            screenshot(sheet, f"answer-key-{lesson}-{lang}")
    sheet.close()

    # The teacher version shows the stored answers and the teaching notes without running anything.
    page.locator("#lang-toggle").click()
    page.locator("section.lesson#wuerfel-joker-de a.teacher").click()
    page.locator(".jp-Notebook .jp-MarkdownCell", has_text="Für die Lehrkraft").first.wait_for(timeout=60_000)
    page.locator(".jp-OutputArea-output", has_text="Richtig ist: 7").first.wait_for(timeout=30_000)
    page.locator(".jp-OutputArea-output", has_text="Schieber 7 (11/16").first.wait_for(timeout=30_000)
    # the answers' pictures (a kit widget's stored picture is its text/html)
    svgs = page.locator(".jp-OutputArea-output svg")
    svgs.first.wait_for(timeout=30_000)
    show(page, svgs.first)
    screenshot(page, "teacher-version")
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
