"""The shared front-end for screen readers, keyboards and small screens (issue 34), in Chromium.

Most checks run the built front-end (play/table.mjs) on a small host page whose model is a
``Table`` in this test process (the same JSON a Play page's worker sends, without booting Pyodide):
the live region says a selection, says no line twice and a bots' turn as one announcement, names
the player's own result at the end and hands the focus to the banner; a move hands the focus to the
view's focus button; the spectator's board has no buttons and no selection note; the language and
variant buttons say which one is on. One test opens every real Play page at 320 px: nothing scrolls
sideways and the nav wraps.
"""

from __future__ import annotations

import json

import pytest
from harness.frontend import play_clicks, play_until_banner, settle

from spieltisch.ui.table import Table

pytestmark = pytest.mark.site

GAMES = ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]

# A Play page whose model is a Table in this test process: the page's own HTML and style (nav, class
# bar, #app), with this module in place of play.mjs (which starts Pyodide in a worker). Every event
# goes to the test's Table (window.pyEvent) and its answer is drawn, as the worker's would be. The
# live region's announcements are recorded with the running numbers of the lines they said.
HOST = """
import frontEnd from "./table.mjs";
document.getElementById("progress").hidden = true;
let view = "";
let out = null;
const listeners = {};
const model = {
  get: (name) => (name === "view" ? view : undefined),
  set: (name, value) => { if (name === "event") out = value; },
  save_changes: () => { const e = out; out = null; if (e !== null) window.pyEvent(e).then(show); },
  on: (name, cb) => { (listeners[name] ||= []).push(cb); }, off: () => {}, send: () => {},
};
function show(json) {
  view = json;
  document.documentElement.lang = JSON.parse(json).lang;
  if (!window.__drawn) {
    window.__drawn = true;
    frontEnd.render({ model, el: document.getElementById("app") });
    window.__said = [];
    const live = document.querySelector(".sp-live");
    new MutationObserver(() => { if (live.textContent) window.__said.push([live.textContent, live.getAttribute("data-lines") || ""]); })
      .observe(live, { childList: true, characterData: true, subtree: true });
  } else {
    (listeners["change:view"] || []).forEach((cb) => cb());
  }
}
window.show = show;
"""


def host(page, site_url, table: Table, reduced_motion: bool = True):
    """``page`` shows ``table`` on its game's Play page through the built front-end; returns the
    table's root. A page can host one table after another (each ``host`` loads the page again)."""
    if reduced_motion:  # the bots' steps at once (the pacing a student who asks for less motion gets)
        page.emulate_media(reduced_motion="reduce")
    page.route("**/play/play.mjs", lambda route: route.fulfill(body=HOST, content_type="text/javascript"))
    current = {"table": table}

    def event(json_text):
        current["table"].handle(json_text)
        return current["table"].state_json()

    if not getattr(page, "_py_event", None):
        page.expose_function("pyEvent", lambda json_text: page._py_event(json_text))
    page._py_event = event
    family = table.game_id if table.game_id in GAMES else table.game_id.rsplit("-", 1)[0]
    page.goto(site_url + f"play/{family}.html")
    page.wait_for_function("typeof window.show === 'function'")
    page.evaluate("json => window.show(json)", table.state_json())
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for()
    settle(page, root)
    return root


ACTIVE = "() => { const a = document.activeElement; return a ? {cls: String(a.className.baseVal ?? a.className), " \
         "token: a.getAttribute('data-token'), act: a.getAttribute('data-act')} : null; }"


def test_the_live_region_says_each_line_once_and_a_bots_turn_as_one(context, site_url):
    """Würfel Joker with two bots and reduced motion (the bots' steps follow each other within
    milliseconds; the old front-end made over 250 announcements of one game), its last rounds on the
    page: every line is said
    at most once, a human's click brings at most one announcement (the bots' turns that follow it
    are held and said with the turn coming back), the bots' moves are said, and the end names the
    player's own result and takes the focus."""
    table = Table("wuerfel-joker-2", players=3, seed=5)
    for _ in range(20):  # the first rounds here, the last ones (and the end) on the page
        table.finish()
        if table.human_throw_pending():
            table.click("throw")
        else:
            table.act(table.context().legal[0])
    assert not table.is_over()
    page = context.new_page()
    root = host(page, site_url, table)
    clicks = play_until_banner(page, root, "wuerfel-joker")
    settle(page, root)
    said = page.evaluate("window.__said")
    ids = [n for _, lines in said for n in lines.split()]
    assert ids and len(ids) == len(set(ids)), [s for s in said if s[1]][:5]
    assert len(said) <= clicks + 1, (len(said), clicks)
    bot_lines = [t for t, _ in said if "Bot 2" in t and "Bot 3" in t]
    assert bot_lines, said[:5]  # both bots' moves, said together
    last = said[-1][0]
    assert "Spielende" in last and ("Du hast gewonnen" in last or "Du: " in last and "Platz" in last), last
    assert page.evaluate("document.activeElement.classList.contains('sp-banner')")
    # the banner keeps its place: a language switch does not take the focus back to it
    root.locator(".sp-lang[data-lang=en]").focus()
    page.keyboard.press("Enter")
    settle(page, root)
    assert page.evaluate("document.activeElement.getAttribute('data-lang')") == "en"
    banner = root.locator(".sp-banner").inner_text()
    assert "You won" in banner or "You: " in banner and "place" in banner, banner


def test_a_move_hands_the_focus_to_the_views_focus_button(context, site_url):
    """Würfel Joker, seed 3: after the throw three pushes are offered; the first is taken with the
    keyboard. The view flags its last button as the one needed next ("focus": true): the focus goes
    there, not back to the first button (which is there again, as "stop")."""
    table = Table("wuerfel-joker-2", seed=3)
    own = table.view.buttons

    def flagged(ctx):
        buttons = own(ctx)
        return [{**b, "focus": i == len(buttons) - 1} for i, b in enumerate(buttons)]

    table.view.buttons = flagged
    page = context.new_page()
    root = host(page, site_url, table)
    for _ in range(3):  # the opening throw, then the first real throw
        if root.locator(".sp-move[data-token=a0]").count():
            break
        root.locator(".sp-move[data-token=throw]").focus()
        page.keyboard.press("Enter")
        settle(page, root)
    assert root.locator(".sp-move").count() >= 2
    root.locator(".sp-move[data-token=a0]").focus()
    page.keyboard.press("Enter")
    settle(page, root)
    tokens = root.locator(".sp-move").evaluate_all("bs => bs.map(b => b.getAttribute('data-token'))")
    assert "a0" in tokens and len(tokens) >= 2, tokens
    assert page.evaluate(ACTIVE)["token"] == tokens[-1], (page.evaluate(ACTIVE), tokens)


def test_a_selection_is_said_and_the_spectator_has_no_board_buttons(context, site_url):
    """Skip-Bo Masters, seed 14 (an open game): choosing a card is said in the live region (the
    note of the choice); the board is one Tab stop; the language buttons say which is on.
    Switching to the spectator view drops the choice and its note, and the board's parts are
    pictures, not buttons."""
    table = Table("skip-bo-masters", seed=14)
    page = context.new_page()
    root = host(page, site_url, table)
    root.locator(".sb-hand .sp-can").first.wait_for(timeout=60_000)
    settle(page, root)
    assert root.locator(".sp-lang[data-lang=de]").get_attribute("aria-pressed") == "true"
    assert root.locator(".sp-lang[data-lang=en]").get_attribute("aria-pressed") == "false"
    stops = root.locator(".sp-board [data-act]").evaluate_all("es => es.filter(e => e.tabIndex === 0).length")
    assert stops == 1
    assert root.locator(".sp-board [data-act][role=button]").count() == root.locator(".sp-board [data-act]").count()
    card = root.locator(".sb-hand .sp-can").first
    card.focus()
    page.keyboard.press("Enter")
    settle(page, root)
    note = root.locator(".sp-message.sp-msg-info").inner_text().strip()
    assert note and page.locator(".sp-live").inner_text().strip() == note
    root.locator(".sp-spectator-toggle").click()
    settle(page, root)
    assert root.locator(".sp-message").count() == 0
    assert root.locator(".sp-board [data-act]").count() > 0
    assert root.locator(".sp-board [data-act][role=button], .sp-board [data-act][tabindex]").count() == 0
    assert table.ui == {}


def test_the_variant_buttons_say_which_one_is_on(context, site_url):
    table = Table("wuerfel-joker-2", seed=1)
    page = context.new_page()
    root = host(page, site_url, table)
    pressed = dict(root.locator(".sp-variant").evaluate_all(
        "bs => bs.map(b => [b.getAttribute('data-variant'), b.getAttribute('aria-pressed')])"))
    assert pressed == {"wuerfel-joker-1": "false", "wuerfel-joker-2": "true"}
    root.locator(".sp-variant[data-variant=wuerfel-joker-1]").click()
    settle(page, root)
    assert root.locator(".sp-variant[data-variant=wuerfel-joker-1]").get_attribute("aria-pressed") == "true"


WIDE = """() => ({doc: document.documentElement.scrollWidth,
    nav: (() => { const n = document.querySelector('nav'); if (!n) return null;
        const r = n.getBoundingClientRect();
        return {right: Math.max(...[...n.children].map(c => c.getBoundingClientRect().right)), width: r.width,
                lines: new Set([...n.children].filter(c => c.getClientRects().length).map(c => Math.round(c.getBoundingClientRect().top))).size}; })(),
    board: (() => { const b = document.querySelector('.sp-board'); if (!b) return null;
        const hint = document.querySelector('.sp-scroll-hint');
        return {scrolls: b.scrollWidth > b.clientWidth + 1, hint: !!hint && !hint.hidden && hint.getClientRects().length > 0}; })()})"""


def test_no_page_scrolls_sideways_at_320_px(context, site_url, screenshot):
    """A phone 320 px wide: no Play page (at the start and a few moves in; its table hosted as above),
    the landing page, the teachers' page and the class page scroll sideways; the Play page's nav
    wraps onto a second line rather than sticking out; a board wider than the screen scrolls in its
    own box and shows a hint that it does."""
    page = context.new_page()
    page.set_viewport_size({"width": 320, "height": 640})
    problems = []
    for path in ("index.html", "lehrkraefte.html", "play/klasse.html"):
        page.goto(site_url + path)
        page.wait_for_timeout(300)
        w = page.evaluate(WIDE)
        if w["doc"] > 320:
            problems.append(f"{path}: {w['doc']} px")
    for game in GAMES:
        root = host(page, site_url, Table(game, seed=4))
        for moment in ("start", "played"):
            w = page.evaluate(WIDE)
            if w["doc"] > 320:
                problems.append(f"{game} {moment}: {w['doc']} px")
            if w["nav"]["right"] > 320:
                problems.append(f"{game} nav sticks out to {w['nav']['right']} px")
            if w["board"]["scrolls"] and not w["board"]["hint"]:
                problems.append(f"{game} {moment}: the board scrolls without a hint")
            if moment == "start":
                play_clicks(page, root, game, 4)
        if game == "schraube-locker":  # the longest name: the nav takes two lines
            assert w["nav"]["lines"] >= 2, w
            screenshot(page, "320")
    assert problems == []
