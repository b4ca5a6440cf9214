"""Class rounds on the static site: the teacher's class round and projector view, three students
playing the same class game on their own pages, the class board verifying their result codes, a
reload, a garbled code, the QR codes decoded, and all of it without a network."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from a11y import assert_accessible
from test_site import KERNEL_TIMEOUT_MS, wait_for_offline_copy

pytestmark = pytest.mark.site

HERE = Path(__file__).resolve().parent
JSQR = HERE / "node_modules" / "jsqr" / "dist" / "jsQR.js"
JSQR_VERSION = json.loads((HERE / "package.json").read_text())["dependencies"]["jsqr"]


def ensure_jsqr() -> Path:
    """The pinned jsQR (tests/site/package.json, test-only): ``npm ci`` unless it is there."""
    pkg = JSQR.parent.parent / "package.json"
    if not (pkg.exists() and json.loads(pkg.read_text())["version"] == JSQR_VERSION):
        subprocess.run([shutil.which("npm") or "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=HERE, check=True, capture_output=True, timeout=600)
    return JSQR


# Draws the QR code's SVG (as the page shows it) onto a canvas and reads it with jsQR.
DECODE = """async (selector) => {
    const svg = document.querySelector(selector).cloneNode(true);
    const side = 10 * Number(svg.getAttribute("viewBox").split(" ")[2]);  // whole pixels per module
    svg.setAttribute("width", String(side)); svg.setAttribute("height", String(side));
    const img = new Image();
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = side; canvas.height = side;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, side, side);
    ctx.drawImage(img, 0, 0, side, side);
    const data = ctx.getImageData(0, 0, side, side);
    const found = jsQR(data.data, side, side);
    return found ? found.data : null;
}"""


def decode_qr(page, selector: str) -> str | None:
    if not page.evaluate("() => typeof window.jsQR !== 'undefined'"):
        page.add_script_tag(path=str(ensure_jsqr()))
    return page.evaluate(DECODE, selector)


# the smallest text on a part of the page as drawn: CSS px, an SVG's text scaled by its viewBox
SMALLEST_TEXT = """(sel) => {
  let min = Infinity, where = null;
  for (const e of document.querySelector(sel).querySelectorAll("*")) {
    if (![...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest("[hidden], title, style, script, details:not([open]) > :not(summary)")) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement && e.getScreenCTM) { const m = e.getScreenCTM(); if (m) size *= Math.hypot(m.a, m.b); }
    if (size < min) { min = size; where = e.tagName + ": " + e.textContent.trim().slice(0, 40); }
  }
  return { min, where };
}"""


def open_board(page, site_url, query: str = ""):
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto(site_url + "play/klasse.html" + query)
    page.locator("body[data-ready='1']").wait_for(state="attached", timeout=KERNEL_TIMEOUT_MS)


def start_round(page) -> tuple[str, str]:
    """The teacher's class round: Würfel Joker, game 2, one student, two rounds (a short lesson)."""
    page.select_option("#game", "wuerfel-joker-2")
    page.fill("#opt-rounds", "2")
    page.click("#start-round")
    page.locator("#class-qr svg").wait_for(timeout=60_000)
    return page.inner_text("#big-code"), page.inner_text("#class-link-text")


FORGET_CLASS_GAMES = """() => Object.keys(localStorage).filter((k) => k.startsWith("spieltisch-class-game-"))
    .forEach((k) => localStorage.removeItem(k))"""


# The Play page's model sends each event of the front-end to the page's worker as {type: "event", json}
# (play.mjs, model.save_changes); the page keeps both to itself, so a test that sends an event the
# front-end never offers finds the worker as the page posts its first message to it.
FIND_THE_WORKER = """(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (...args) { window.spTestWorker = this; return post.apply(this, args); };
})()"""
KEPT_ACTIONS = """() => Object.entries(localStorage).filter(([k]) => k.startsWith("spieltisch-class-game-"))
    .map(([k, v]) => JSON.parse(v).actions)"""


def check_option_tokens_are_refused(page) -> None:
    """Issue 32 item 5 on the static page: in a class round with the advisor off, the advisor's option
    token ({"type": "act", "token": "opt0"}: play its best move), sent the way the page's model sends
    an event, is refused with the reason shown, plays nothing, and no advisor switch is offered."""
    root = page.locator("#app .sp-table")
    assert root.locator(".sp-advisor-toggle, .sp-advisor").count() == 0
    assert root.locator(".sp-message.sp-msg-refused").count() == 0
    step, kept = root.get_attribute("data-step"), page.evaluate(KEPT_ACTIONS)
    assert kept and kept[0]  # the game so far, as the page keeps it
    page.evaluate("(json) => window.spTestWorker.postMessage({ type: 'event', json })",
                  json.dumps({"type": "act", "token": "opt0", "n": 10_000}))
    refused = root.locator(".sp-message.sp-msg-refused")
    refused.wait_for(timeout=30_000)
    assert "in dieser Klassenrunde ist der Berater ausgeschaltet" in refused.inner_text()  # German: the default
    assert root.get_attribute("data-step") == step  # nothing played: no move, no throw
    page.wait_for_timeout(200)  # the worker's "kept" message follows its view
    assert page.evaluate(KEPT_ACTIONS) == kept
    assert root.locator(".sp-advisor-toggle").count() == 0


def play_class_game(page, link: str, pick: str, who: str | None = None, reload_at: int | None = None,
                    phone: bool = False, option_token_at: int | None = None, offset: int = 0) -> str:
    """A student's page: the class link, their name or number, the game to its end with their own
    decisions (``pick``: which move button), and the result code the page shows. ``reload_at``: after
    that many moves the page is reloaded and a second tab opened — both go on with the same game.
    ``phone``: a 375×667 screen, where the result code must come into view at the end.
    ``option_token_at``: at that decision, the advisor's option token is sent first (and refused).
    ``offset``: "alternate" takes button ``(move + offset) % buttons``."""
    page.set_viewport_size({"width": 375, "height": 667} if phone else {"width": 1200, "height": 900})
    if option_token_at is not None:
        page.add_init_script(FIND_THE_WORKER)
    page.goto(link)
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    bar = page.locator("#class-bar")
    bar.locator(".code").wait_for()
    if who is not None:
        page.fill("#class-who", who)
        page.press("#class-who", "Enter")
    turn = 0
    for _ in range(400):
        if bar.get_attribute("data-result"):
            break
        step = root.get_attribute("data-step")
        moves = root.locator(".sp-move")
        # the table paces the throws (its "step" button is there meanwhile) and redraws at each one:
        # a click waits for the decision itself (on a loaded machine a pacing table's buttons are
        # redrawn under the click, which then waits for them until its time-out)
        if root.locator(".sp-banner").count() or not moves.count() or root.locator(".sp-step").count():
            page.wait_for_timeout(100)
            continue
        if turn == option_token_at:  # the student's decision: nothing is pacing the table now
            check_option_tokens_are_refused(page)
        count = moves.count()
        index = {"first": 0, "last": count - 1, "alternate": (turn + offset) % count}[pick]
        try:
            moves.nth(index).click(timeout=5_000)
        except PlaywrightTimeout:
            # (CI, three streams at once: the buttons were redrawn under every try of the click for
            # 30 s once; the state is read again, and a page that never settles still fails below)
            continue
        turn += 1
        # the move's own view (its step) or a refusal: the last log line is shown as a message too
        # (".sp-msg-move"), so any message would be the view from before the click (a CI run then
        # read that view's step and saw the move land after it)
        page.wait_for_function("([el, step]) => el.getAttribute('data-step') !== step"
                               " || el.querySelector('.sp-message:not(.sp-msg-move)')",
                               arg=[root.element_handle(), step], timeout=30_000)
        if turn == reload_at:
            check_the_game_goes_on(page, link, who)
    page.locator("#class-bar[data-result] .qr svg").wait_for(timeout=60_000)
    if phone:  # the end of the game brings the result code onto the screen
        box = page.locator("#class-result .result-code").bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 667, box
    return page.inner_text("#class-result .result-code")


def check_the_game_goes_on(page, link: str, who: str | None) -> None:
    """Issue 32: a reload and a second tab resume the class game where it stands (kept on the device),
    never a fresh start; the name typed before the first move belongs to the game."""
    root = page.locator("#app .sp-table")
    log = lambda p: p.locator("#app .sp-table .sp-log div, #app .sp-table .sp-message").all_inner_texts()  # noqa: E731
    page.wait_for_timeout(300)
    before = log(page)
    assert len(before) >= 2
    page.reload()
    root.locator(".sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('#app .sp-table .sp-log div')", timeout=60_000)
    assert log(page)[-len(before):] == before or log(page) == before, (log(page), before)
    if who is not None:
        field = page.locator("#class-who")
        assert field.input_value() == who and field.get_attribute("readonly") is not None
    second = page.context.new_page()
    second.goto(link)
    second.locator("#app .sp-table .sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    second.wait_for_function("() => document.querySelector('#app .sp-table .sp-log div')", timeout=60_000)
    assert log(second) == log(page)
    # Review N2: the two tabs are one game — a move in the second stops the first (inert, a notice),
    # which goes on only from where the second tab stands, so two endings (two codes) cannot be played
    second.locator("#app .sp-table .sp-move").first.wait_for(timeout=60_000)
    second.locator("#app .sp-table .sp-move").first.click()
    notice = page.locator("#other-tab")
    notice.wait_for(timeout=30_000)
    assert page.evaluate("() => document.getElementById('app').inert")
    # ... its class bar too (its name field would write the stale game back), and the kept game stays
    # the second tab's (review-class3: a stopped tab rewound the game through the name field)
    assert page.evaluate("() => document.getElementById('class-bar').inert")
    assert "anderen Tab" in notice.inner_text() or "another tab" in notice.inner_text()
    page.wait_for_timeout(300)
    moved = log(second)
    second.close()
    notice.locator("button").click()  # play on here: the page reloads from the kept game
    root.locator(".sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('#app .sp-table .sp-log div')", timeout=60_000)
    page.wait_for_timeout(300)
    assert log(page)[-len(moved):] == moved or log(page) == moved, (log(page), moved)
    assert page.locator("#other-tab").count() == 0


def test_a_class_round_from_the_projector_to_the_board(context, request_log, site_url, screenshot):
    teacher = context.new_page()
    open_board(teacher, site_url, "?game=wuerfel-joker")
    assert teacher.locator("#game").input_value() == "wuerfel-joker-1"  # the Play page's game preselected
    code, link = start_round(teacher)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{1,4})+", code)
    assert link == f"{site_url}play/wuerfel-joker.html?class={code.replace('-', '')}"
    # the projector's QR code is the exact class link
    assert decode_qr(teacher, "#class-qr svg") == link
    screenshot(teacher, "projector")
    assert_accessible(teacher, "the projector's class code")

    # three students, each on their own page, each with their own decisions
    students = [("first", None), ("last", "7"), ("alternate", "Lena")]
    texts = []
    for pick, who in students:
        # (the round's throws are new each run: where "alternate" happens to decide as another
        # student did, it plays again, shifted, so that the board gets three different games)
        for offset in range(4):
            page = context.new_page()
            page.goto(site_url)
            page.evaluate(FORGET_CLASS_GAMES)  # each student on a device of their own
            text = play_class_game(page, link, pick, who, reload_at=3 if pick == "alternate" else None,
                                   phone=pick == "last", option_token_at=2 if pick == "first" else None,
                                   offset=offset)
            if pick != "alternate" or text.split(": ")[-1] not in {t.split(": ")[-1] for t in texts}:
                break
        texts.append(text)
        # the settings that would change the game are not offered, and the table refuses them
        assert page.locator("#app .sp-seed:visible, #app .sp-new:visible, #app .sp-players:visible").count() == 0
        if pick == "alternate":
            assert texts[-1].startswith("Lena: ")
            assert decode_qr(page, "#class-result .qr svg") == texts[-1]
            screenshot(page, "student-result")
            assert_accessible(page, "a student's result code")
    # a number rides in the code (texts[1] is the bare code); the browser writes the current layout,
    # whose codes start with G–Z (classroom.RESULT_FORMAT: older ones with 0–F)
    assert texts[1].startswith(tuple("GHJKMNPQRSTVWXYZ"))
    codes = [t.split(": ")[-1] for t in texts]
    # no longer than the teachers' page says Würfel Joker's codes are (tests/test_classroom.py holds
    # that statement to the measured lengths)
    stated = re.search(r"Würfel Joker und Tüfteln meist (\d+) bis (\d+) Zeichen",
                       (HERE.parent.parent / "site" / "landing" / "teachers.html").read_text(encoding="utf-8"))
    assert len(set(codes)) == 3 and all(len(c.replace("-", "")) <= int(stated.group(2)) for c in codes)

    # the board: the three codes pasted at once
    teacher.click("#to-board")
    teacher.fill("#codes", "\n".join(texts))
    teacher.click("#add-codes")
    board = teacher.locator("#board[data-full='1'][data-results='3']")
    board.wait_for(timeout=180_000)
    assert "3" in teacher.inner_text("#add-message")
    rows = teacher.locator("#ranking tbody tr")
    assert rows.count() == 3
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert "Lena" in names and "Nr. 7" in names
    described = teacher.locator("#histogram svg").get_attribute("aria-label")
    assert sum(int(n) for n in re.findall(r": (\d+)", described)) == 3  # every result in a bin
    assert teacher.locator("#stats").get_attribute("data-best")  # the exact expected value of best play
    decisions = teacher.locator("#decisions .decision")
    assert decisions.count() >= 1
    chosen = [int(x) for x in decisions.first.locator("tbody td:nth-child(2)").all_inner_texts()]
    reached = int(re.search(r"(\d+)\s*$", decisions.first.locator("h4").inner_text()).group(1))
    # only the options someone chose that lost points are listed, after the best one (review F1)
    assert sum(chosen) <= reached >= 2 and decisions.first.locator("tr.best").count() >= 1
    screenshot(teacher, "board")
    assert_accessible(teacher, "the filled class board")
    # the codes made and verified in the browser's Pyodide replay to the same points in CPython
    from spieltisch.ui import classroom

    r = classroom.parse_class(code)
    points = {row.locator("td:nth-child(5)").inner_text().replace("-", ""):
              int(row.locator("td:nth-child(4)").inner_text().replace("−", "-")) for row in rows.all()}
    assert {c.replace("-", ""): classroom.verify_result(r, c).points for c in codes} == points

    # the ranking is by decisions: a game searched with the class's throws known (they follow from the
    # class code) scores more than the optimal bot on the same throws, and ranks below it
    from harness.classplay import finish_with_bot, searched_with_the_throws_known

    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    searched = searched_with_the_throws_known(r)
    optimal = finish_with_bot(r.session(), make_bot(r.game(), "optimal"), Rng(0))
    extra = {"Suche": classroom.result_code(r, searched), "Optimal": classroom.result_code(r, optimal)}
    teacher.fill("#codes", "\n".join(f"{k}: {v}" for k, v in extra.items()))
    teacher.click("#add-codes")
    teacher.locator("#board[data-full='1'][data-results='5'] #ranking table[data-by='decisions']").wait_for(timeout=180_000)
    order = rows.locator("td:nth-child(2)").all_inner_texts()
    losses = [float(x.replace(",", ".")) for x in rows.locator("td.loss").all_inner_texts()]
    assert losses == sorted(losses)
    # the same ranking as CPython's board of the same codes (Pyodide's exact values agree)
    mirror = classroom.Board(code)
    mirror.add("\n".join(texts + [f"{k}: {v}" for k, v in extra.items()]))
    expected = mirror.ranking("de")
    assert order == [x["name"] for x in expected]
    assert losses == [round(x["expected_loss"]["float"], 2) for x in expected]
    if mirror.expected_loss(next(x for x in mirror.results if x.label == "Suche"))["float"] > 0:
        assert order.index("Optimal") < order.index("Suche")
    assert "nicht Glück" in teacher.inner_text("#ranking .ranking-note")
    teacher.click("#ranking button[data-by='points']")
    teacher.locator("#ranking table[data-by='points']").wait_for()
    by_points = [int(x.replace("−", "-")) for x in rows.locator("td:nth-child(4)").all_inner_texts()]
    assert by_points == sorted(by_points, reverse=True)
    assert_accessible(teacher, "the ranking by points")
    teacher.click("#ranking button[data-by='decisions']")
    for c in extra.values():
        teacher.locator(f"#ranking tr[data-code='{c}'] button, #ranking tr[data-code='{c}']").first.wait_for(state="attached")

    # a reload keeps the board (browser storage; every code verified again); a stored result it cannot
    # read is shown with the reason, kept in the storage, and goes only when the teacher removes it
    teacher.evaluate("""() => { const kept = JSON.parse(localStorage.getItem("spieltisch-klasse"));
        kept.state.results.push({ code: "XXXX0000", label: "Alt" });
        localStorage.setItem("spieltisch-klasse", JSON.stringify(kept)); }""")
    teacher.reload()
    teacher.locator("#board[data-results='5']").wait_for(timeout=KERNEL_TIMEOUT_MS)
    assert teacher.locator("#ranking tbody tr").count() == 5
    unread = teacher.locator("#unread")
    assert unread.is_visible() and "XXXX0000 (Alt)" in unread.inner_text() and "Prüfzeichen" in unread.inner_text()
    stored = teacher.evaluate("() => JSON.parse(localStorage.getItem('spieltisch-klasse')).state")
    assert len(stored["results"]) == 5 and stored["unread"] == [{"code": "XXXX0000", "label": "Alt"}]
    assert_accessible(teacher, "the board with an unread result")
    teacher.once("dialog", lambda d: d.accept())
    teacher.click("#forget-unread")
    unread.wait_for(state="hidden")
    assert teacher.evaluate("() => JSON.parse(localStorage.getItem('spieltisch-klasse')).state.unread") == []

    # a garbled code is refused with a message, and nothing else changes
    good = codes[0].replace("-", "")
    garbled = good[:2] + ("X" if good[2] != "X" else "Y") + good[3:]
    teacher.fill("#codes", garbled)
    teacher.click("#add-codes")
    teacher.locator("#add-message .refused").wait_for()
    assert "Prüfzeichen" in teacher.inner_text("#add-message")
    assert teacher.locator("#board").get_attribute("data-results") == "5"
    assert "null" not in teacher.inner_text("#add-message")  # (a null once stood above a refusal)

    # the board on the projector: every text at least 24 px at 1920×1080, the code entry folded away
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.click("#board-projector")
    assert teacher.locator("#board-projector").get_attribute("aria-pressed") == "true"
    assert teacher.locator("#add-box").get_attribute("open") is None
    sizes = teacher.evaluate(SMALLEST_TEXT, "#board")
    assert sizes["min"] >= 24, sizes
    hist = teacher.locator("#histogram svg").bounding_box()
    assert hist["width"] >= 1200, hist  # a histogram the back row can read
    screenshot(teacher, "board-projector")
    teacher.click("#board-projector")

    # a new class round asks first and keeps this one: it can be opened again (with the ranking the
    # board opens with, not the view last chosen)
    teacher.click("#ranking button[data-by='points']")
    teacher.locator("#ranking table[data-by='points']").wait_for()
    teacher.once("dialog", lambda d: d.dismiss())
    teacher.click("#new-round")
    assert teacher.locator("#board").is_visible()  # dismissed: nothing changed
    teacher.once("dialog", lambda d: d.accept())
    teacher.click("#new-round")
    teacher.locator("#setup").wait_for(state="visible")
    earlier = teacher.locator("#earlier-list li")
    assert earlier.count() == 1 and code in earlier.first.inner_text()
    earlier.first.locator("button.open-earlier").click()
    teacher.locator("#board[data-results='5']").wait_for(state="visible", timeout=KERNEL_TIMEOUT_MS)
    teacher.locator("#ranking table[data-by='decisions']").wait_for(timeout=KERNEL_TIMEOUT_MS)
    request_log.assert_only_local()


def test_code_eingeben_on_the_start_page_opens_the_class_game(context, request_log, site_url, screenshot):
    teacher = context.new_page()
    open_board(teacher, site_url)
    assert_accessible(teacher, "the class-round form")
    # the poll of a lesson's prediction: taps, then the engine's answer
    teacher.select_option("#poll-question", "wuerfel-joker-q3")
    plus = teacher.locator("#poll-options .poll-option").nth(4).locator("button").nth(1)
    plus.click()
    plus.click()
    assert teacher.locator("#poll-options .poll-option").nth(4).locator(".count").inner_text() == "2"
    teacher.click("#poll-reveal")
    teacher.locator("#poll-answer p").first.wait_for()
    answer = teacher.inner_text("#poll-answer")
    assert "91/216" in answer and "2 von 2 richtig" in answer and "Simulation" in answer
    # one lesson question of every game, on the same running page: one vote for the right answer,
    # then the distribution, the exact value from the game's declaration and the seeded simulation
    from spieltisch.core.questions import fraction_text
    from spieltisch.core.registry import questions

    offered = [o for o in teacher.locator("#poll-question option").evaluate_all("os => os.map(o => o.value)")]
    for family in ("wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"):
        q = next(q for q in questions(family) if q.core and q.id in offered)
        right = q.right_indexes()[0]
        teacher.select_option("#poll-question", q.id)
        assert teacher.inner_text("#poll-text") == q.prompt["de"]
        teacher.locator("#poll-options .poll-option").nth(right).locator("button").nth(1).click()
        teacher.click("#poll-reveal")
        teacher.wait_for_function("(t) => document.querySelector('#poll-answer').innerText.includes(t)",
                                  arg="1 von 1 richtig", timeout=60_000)
        answer = teacher.inner_text("#poll-answer")
        assert fraction_text(q.exact_value()) in answer and f"Startwert {q.simulation.seed}" in answer, answer
        assert teacher.locator("#poll-answer li.right").count() >= 1
    assert_accessible(teacher, "a revealed lesson poll")
    teacher.click("#lang-toggle")
    teacher.locator("#setup-title [lang=en]:visible").wait_for()
    assert "Start class round" in teacher.inner_text("#setup")
    screenshot(teacher, "setup-en")
    assert_accessible(teacher, "the class-round form in English")
    teacher.click("#lang-toggle")
    teacher.select_option("#game", "tuefteln")
    teacher.click("#start-round")
    teacher.locator("#class-qr svg").wait_for(timeout=60_000)
    code = teacher.inner_text("#big-code")
    page = context.new_page()
    page.goto(site_url)
    page.fill("#class-code-input", code.lower())
    page.press("#class-code-input", "Enter")
    page.wait_for_url(re.compile(r"play/tuefteln\.html\?class="))
    page.locator("#class-bar .code").wait_for(timeout=KERNEL_TIMEOUT_MS)
    assert page.inner_text("#class-bar .code") == code
    # a typo is refused on the Play page, with the reason
    page.goto(site_url + "play/tuefteln.html?class=" + code.replace("-", "")[:-1] + "0")
    page.locator("#class-bar.refused").wait_for(timeout=KERNEL_TIMEOUT_MS)
    assert "Prüfzeichen" in page.inner_text("#class-bar") or "check" in page.inner_text("#class-bar")
    # not a code at all: the start page says so and stays
    page.goto(site_url)
    page.fill("#class-code-input", "??")
    page.press("#class-code-input", "Enter")
    assert "kein Klassencode" in page.inner_text("#class-code-message")
    request_log.assert_only_local()


def test_the_class_round_works_without_a_network(context, request_log, site_url, screenshot):
    responses = []
    context.on("response", lambda r: responses.append(r))
    teacher = context.new_page()
    open_board(teacher, site_url)
    code, link = start_round(teacher)
    student = context.new_page()
    student.goto(link)
    student.locator("#app .sp-table .sp-status").wait_for(timeout=KERNEL_TIMEOUT_MS)
    student.locator("#app[data-snapshot]").wait_for(state="attached", timeout=60_000)
    wait_for_offline_copy(student, [r.url for r in responses])
    # the class pages' own files too (the board, segno for the QR codes)
    for _ in range(480):
        kept = student.evaluate("""async () => {
            const names = (await caches.keys()).filter(k => k.startsWith("spieltisch-play-"));
            const cache = await caches.open(names[0]);
            return (await cache.keys()).map(r => new URL(r.url).pathname); }""")
        if {"/play/klasse.html", "/play/klasse.mjs", "/play/class.mjs"} <= set(kept) and any(
                p.endswith(".whl") and "/play/segno" in p for p in kept):
            break
        student.wait_for_timeout(250)
    else:
        raise AssertionError(f"the offline copy lacks the class pages: {kept}")
    context.set_offline(True)
    try:
        board = context.new_page()
        open_board(board, site_url)  # the board from the offline copy, its round kept in the browser
        board.locator("#projector:not([hidden]) #class-qr svg, #board:not([hidden])").first.wait_for(timeout=60_000)
        text = play_class_game(context.new_page(), link, "first")
        if board.locator("#to-board:visible").count():
            board.click("#to-board")
        board.fill("#codes", text)
        board.click("#add-codes")
        board.locator("#board[data-full='1'][data-results='1']").wait_for(timeout=180_000)
        screenshot(board, "offline-board")
    finally:
        context.set_offline(False)
    request_log.assert_only_local()
