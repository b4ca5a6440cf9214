"""WCAG 2.1 AA on the built site, checked in Chromium: axe-core's A/AA rules on every page a class
meets (landing page, teachers' page, every worksheet and its answer key, every Play page in German and English at the start,
mid-game, with the advisor open, in projector mode and at the end), every game played to the end with
the keyboard alone with a visible focus after every move, the live region's announcements over a
Skip-Bo Masters game, touch targets on a tablet and a phone."""

from __future__ import annotations

import re

import pytest
from a11y import assert_accessible, axe_violations
from harness.frontend import keyboard_only, play_clicks, play_until_banner, settle

pytestmark = pytest.mark.site

GAMES = ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]


def play_page(page, site_url, game: str, lang: str = "de", width: int = 1200, height: int = 900):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(site_url + f"play/{game}.html?lang={lang}")
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=180_000)
    settle(page, root)
    return root


def test_axe_finds_a_planted_unlabelled_button(context, site_url):
    """Negative control: the same check fails on the landing page with a button that has no name."""
    page = context.new_page()
    page.goto(site_url + "index.html")
    assert_accessible(page, "landing page")
    page.evaluate("""() => { const b = document.createElement('button');
        b.innerHTML = '<svg width="20" height="20"></svg>'; document.querySelector('main').append(b); }""")
    assert "button-name" in [v["id"] for v in axe_violations(page)]


def test_the_landing_teachers_and_worksheet_pages_pass_axe(context, site_url):
    page = context.new_page()
    for path in ("index.html", "lehrkraefte.html"):
        for lang in ("de", "en"):
            page.goto(site_url + path)
            if page.evaluate("document.documentElement.lang") != lang:  # the last choice is remembered
                page.locator("#lang-toggle").press("Enter")
            assert page.evaluate("document.documentElement.lang") == lang
            assert_accessible(page, f"{path} ({lang})")
    # every lesson's worksheet and answer key (each game's drawings differ), on the one page; a lesson's
    # two languages are the same markup, so the lessons take turns: German for one, English for the next
    sheets = page.locator("a.worksheet, a.answer-key").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    keys = [s for s in sheets if s.endswith(("-loesungen.html", "-answers.html"))]
    assert keys and 2 * len(keys) == len(set(sheets)) == len(sheets), sheets  # a key beside every worksheet
    lessons = sorted({s.rsplit("/", 1)[1] for s in sheets if s not in keys})
    chosen = [s for s in sheets if any(s.startswith(f"arbeitsblatt/{('de', 'en')[i % 2]}/{name[:-5]}")
                                       for i, name in enumerate(lessons))]
    assert len(chosen) == 2 * len(lessons) and {s.split("/")[1] for s in chosen} == {"de", "en"}, chosen
    for href in chosen:
        page.goto(site_url + href)
        assert_accessible(page, href)


@pytest.mark.parametrize("game", GAMES)
def test_every_play_page_passes_axe_in_every_state(game, context, request_log, site_url):
    page = context.new_page()
    root = play_page(page, site_url, game)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert_accessible(page, f"{game} de start")
    play_clicks(page, root, game, 8)
    assert_accessible(page, f"{game} de mid-game")
    root.locator(".sp-advisor-toggle").press("Space")  # the advisor (the checkbox, by the keyboard)
    for _ in range(20):
        settle(page, root, timeout=240)
        if root.locator(".sp-advice-row").count():
            break
        play_clicks(page, root, game, 1)
    assert_accessible(page, f"{game} de advisor open")
    root.locator(".sp-projector-toggle").press("Enter")
    settle(page, root)
    assert_accessible(page, f"{game} de projector")
    root.locator(".sp-projector-toggle").press("Enter")
    settle(page, root)
    play_until_banner(page, root, game)
    assert_accessible(page, f"{game} de end")
    root.locator(".sp-lang[data-lang=en]").press("Enter")  # the language switch: the page's lang follows
    settle(page, root)
    assert page.evaluate("document.documentElement.lang") == "en" and root.get_attribute("lang") == "en"
    assert_accessible(page, f"{game} en end")
    root.locator(".sp-new").press("Enter")
    settle(page, root)
    assert_accessible(page, f"{game} en start")
    play_clicks(page, root, game, 6)
    assert_accessible(page, f"{game} en mid-game")
    request_log.assert_only_local()


# The focused element (in a shadow root too) and how its focus is drawn.
FOCUS = """root => {
    const doc = root.getRootNode();
    const a = doc.activeElement || document.activeElement;
    if (!a || !root.contains(a)) return {inside: false, tag: a ? a.tagName : null};
    const s = getComputedStyle(a);
    return {inside: true, tag: a.tagName, cls: String(a.className.baseVal ?? a.className),
            style: s.outlineStyle, width: parseFloat(s.outlineWidth), visible: a.matches(':focus-visible')};
}"""


def assert_focus_visible(root) -> None:
    f = root.evaluate(FOCUS)
    assert f["inside"], f"the focus left the table: {f}"
    assert f["visible"] and f["style"] != "none" and f["width"] >= 2, f"no visible focus ring: {f}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_the_end_with_the_keyboard_alone(game, context, request_log, site_url, screenshot):
    """Tab to a choice (a board's part: Tab to the board, then the arrow keys), Enter to take it; no
    mouse event at all. After every move the focus is still in the table and drawn as a ring of at
    least 2 px; at the end it is on the banner."""
    page = context.new_page()
    root = play_page(page, site_url, game)
    mouse = root.evaluate("""el => { el.__mouse = 0;
        for (const t of ['mousedown', 'click', 'pointerdown']) document.addEventListener(t, e => { if (e.isTrusted && e.detail) el.__mouse++; }, true);
        return 0; }""")
    assert mouse == 0
    page.keyboard.press("Tab")  # into the page
    shot = []

    def after():
        settle(page, root)
        assert_focus_visible(root)  # the end of the game hands it to the banner
        if not shot and root.evaluate("el => !!el.getRootNode().activeElement?.closest?.('.sp-board')"):
            shot.append(screenshot(page, "focus-ring"))

    with keyboard_only(page, after):
        play_until_banner(page, root, game)
    assert root.evaluate("el => el.__mouse") == 0
    assert shot, "the focus was never on the board"
    assert root.evaluate("el => el.getRootNode().activeElement.classList.contains('sp-banner')")
    request_log.assert_only_local()


def test_arrow_keys_move_within_the_tuefteln_sheet_and_escape_cancels(context, site_url):
    page = context.new_page()
    root = play_page(page, site_url, "tuefteln")
    cell = root.locator(".sp-board [data-act='f1']")
    cell.focus()
    page.keyboard.press("ArrowRight")
    assert root.evaluate("el => el.getRootNode().activeElement.getAttribute('data-act')") == "f2"
    page.keyboard.press("ArrowDown")
    assert root.evaluate("el => el.getRootNode().activeElement.getAttribute('data-act')") == "f8"
    # choose a field (the first click of a placement), then Escape drops the choice
    free = root.locator(".sp-board rect.sp-field[data-value='0'][aria-label*='frei']:not([aria-label*='Brücke'])").first
    free.focus()
    page.keyboard.press("Enter")
    settle(page, root)
    assert "gewählt" in (root.locator(".sp-board [aria-label*='gewählt']").first.get_attribute("aria-label") or "")
    page.keyboard.press("Escape")
    settle(page, root)
    assert root.locator(".sp-board [aria-label*='gewählt']").count() == 0


def test_the_live_region_tells_turns_and_the_end_and_nothing_hidden(context, site_url):
    """Skip-Bo Masters against a bot: the polite live region announces each turn coming back, what
    the bot did and the end of the game; it never names a card the bot drew (those are hidden)."""
    page = context.new_page()
    root = play_page(page, site_url, "skip-bo-masters")
    page.locator(".sp-live").evaluate("""el => { window.__said = [];
        new MutationObserver(() => { if (el.textContent) window.__said.push(el.textContent); })
            .observe(el, {childList: true, characterData: true, subtree: true}); }""")
    assert page.locator(".sp-live").get_attribute("aria-live") == "polite"
    play_until_banner(page, root, "skip-bo-masters")
    said = page.evaluate("window.__said")
    turns_to_me = [s for s in said if "am Zug: Du" in s or "Am Zug: Du" in s]
    # the bot's turn is said as what it did, once its turn is over (not its status line)
    turns_to_bot = [s for s in said if re.search(r"Bot 2 \([^)]*\): ", s)]
    assert len(turns_to_me) >= 3 and len(turns_to_bot) >= 3, said[:10]
    assert any("Spielende" in s for s in said[-2:]), said[-3:]
    # what the bot did: its moves are read out, not only that it is its turn
    assert any(re.search(r"Bot 2 \([^)]*\): (?!zieht)", s) for s in said), said[:10]
    drawn = [s for s in said if re.search(r"Bot 2 \([^)]*\): zieht (?!eine Karte|\d+ Karten)", s)]
    assert drawn == [], drawn


@pytest.mark.parametrize("size", [(768, 1024), (390, 844)])
@pytest.mark.parametrize("game", GAMES)
def test_touch_targets_are_at_least_44_px(game, size, context, site_url, screenshot):
    page = context.new_page()
    root = play_page(page, site_url, game, width=size[0], height=size[1])
    play_clicks(page, root, game, 3)
    # a checkbox's target is its label (a tap on the words ticks it)
    small = root.evaluate("""el => [...el.querySelectorAll('button, select, input, [data-act], summary')]
        .map(e => e.matches('input[type=checkbox]') && e.closest('label') ? e.closest('label') : e)
        .filter(e => e.getClientRects().length)
        .map(e => [e.getAttribute('data-act') || e.className.baseVal || e.className || e.tagName, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([n, r]) => `${n} ${Math.round(r.width)}×${Math.round(r.height)}`)""")
    assert small == [], f"targets under 44×44 at {size}: {small[:10]}"
    if game == "skip-bo-masters" and size[0] == 768:
        screenshot(page, "tablet")
