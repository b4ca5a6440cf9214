"""Projector mode on the Play pages: readable from the back row and still playable.

A teacher plays a seat on the projector: the table fills the screen (at least 90 % of the width at
1920×1080 and 1280×720), the board uses most of it, every text and number on the board is drawn at
24 CSS px or more at 1920×1080, the move buttons stay, nothing overlaps, sticks out or breaks inside a
word. The board and every move control (a move button, a clickable part of the board) are on the first
screen, without scrolling, in every phase of a whole game at 1920×1080; at 1280×720 every control is.
Hiding hands is the separate spectator view, not the projector's."""

from __future__ import annotations

import pytest
from harness.frontend import assert_nothing_clipped, new_game_with_seed, play_clicks, play_until_banner, settle

pytestmark = pytest.mark.site

GAMES = ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]
MIN_TEXT_PX = 24
MIN_WIDTH_SHARE = 0.9
# The board as large as the window allows: it draws (its pictures, cards and words) on half of the
# window's width, or it reaches down to the last fifth of the window's height (a tall sheet).
MIN_BOARD_SHARE = 0.5
MIN_BOARD_BOTTOM = 0.8

# Every move control outside the window as it is before any scrolling (page coordinates: a click
# scrolls, the audience's screen does not). Controls hidden or of no size do not count.
CONTROLS_OFF_SCREEN = """root => {
  const out = [];
  for (const e of root.querySelectorAll('.sp-buttons button, .sp-board [data-act]')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    const left = r.left + scrollX, top = r.top + scrollY;
    if (left < -1 || top < -1 || left + r.width > innerWidth + 1 || top + r.height > innerHeight + 1)
      out.push(`${e.getAttribute('data-act') || e.textContent.trim().slice(0, 30)}: bottom ${Math.round(top + r.height)}`);
  }
  return out;
}"""

# How wide the board draws: from the left of its leftmost to the right of its rightmost picture,
# card or line of text (block wrappers stretch to the column and say nothing).
BOARD_DRAWN_WIDTH = """root => {
  const board = root.querySelector('.sp-board');
  let left = Infinity, right = -Infinity;
  const take = r => { if (r.width && r.height) { left = Math.min(left, r.left); right = Math.max(right, r.right); } };
  for (const e of board.querySelectorAll('*')) {
    if (e.ownerSVGElement) continue;
    const d = getComputedStyle(e).display;
    if (['svg', 'img'].includes(e.tagName.toLowerCase()) || d.startsWith('inline-')) take(e.getBoundingClientRect());
  }
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim() || t.parentElement.closest('svg')) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    for (const r of range.getClientRects()) take(r);
  }
  return right - left;
}"""

# Every visible text on the board with the size it is drawn at: computed font size times the CSS zoom
# of its ancestors (HTML), or times the screen transform (SVG, which holds the viewBox scale and the
# zoom). ``title``/``desc`` are tooltips, not drawn.
BOARD_TEXT = """root => {
  const out = [];
  for (const e of root.querySelectorAll('.sp-board *')) {
    if (![...e.childNodes].some(c => c.nodeType === 3 && c.textContent.trim())) continue;
    if (e.closest('title, desc, style, script')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (getComputedStyle(e).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) { const m = e.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    else size *= (e.currentCSSZoom || 1);
    out.push([Math.round(size * 10) / 10, e.textContent.trim().slice(0, 30)]);
  }
  return out;
}"""

# The other players' sheets and maps beside the board (pictures in the side column): each text with
# its size as drawn, at least 18 px on the projector (issue 34: they were 5–9 px).
SIDE_TEXT = BOARD_TEXT.replace("'.sp-board *'", "'.sp-extra svg *'")
MIN_SIDE_TEXT_PX = 18

# Words broken across two lines ("Minuspun|kte"): a word whose range has boxes on two lines.
BROKEN_WORDS = """root => {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('svg, title, style, script')) continue;
    const text = node.textContent;
    const re = /[^\\s\\u2013\\u2014\\-\\/·,;:]{4,}/g;
    let m;
    while ((m = re.exec(text))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""

# Main blocks of the table that must not overlap one another.
OVERLAPS = """root => {
  const blocks = [...root.querySelectorAll('.sp-top, .sp-settings, .sp-status, .sp-board, .sp-buttons, .sp-message, .sp-right > *')]
    .map(e => [e.className.baseVal ?? e.className, e.getBoundingClientRect()]).filter(([, r]) => r.width && r.height);
  const out = [];
  for (let i = 0; i < blocks.length; i++) for (let j = i + 1; j < blocks.length; j++) {
    const [a, r] = blocks[i], [b, s] = blocks[j];
    const x = Math.min(r.right, s.right) - Math.max(r.left, s.left), y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (x > 2 && y > 2) out.push(`${a} / ${b}`);
  }
  return out;
}"""


def check_on_screen(page, root, text: bool = True) -> None:
    """Every move control inside the window without scrolling, and (``text``) no board text under
    24 px: what a whole game is checked for, after every click."""
    size = f"{page.viewport_size['width']}×{page.viewport_size['height']}"
    status = root.locator(".sp-status").inner_text() if root.locator(".sp-status").count() else ""
    off = root.evaluate(CONTROLS_OFF_SCREEN)
    assert not off, f"move controls outside the window at {size} ({status!r}): {off[:6]}"
    if text:
        small = [t for t in root.evaluate(BOARD_TEXT) if t[0] < MIN_TEXT_PX - 0.05]
        assert not small, f"board text under {MIN_TEXT_PX} px at {size} ({status!r}): {small[:8]}"


def check_readable(page, root, text: bool = True) -> None:
    width = page.viewport_size["width"]
    box = root.bounding_box()
    assert box["width"] >= MIN_WIDTH_SHARE * width, f"the table is {box['width']:.0f} px of {width} px wide"
    texts = root.evaluate(BOARD_TEXT)
    small = [t for t in texts if t[0] < MIN_TEXT_PX - 0.05]
    assert texts and (not text or not small), f"board text under {MIN_TEXT_PX} px at {width} px: {small[:8]}"
    drawn = root.evaluate(BOARD_DRAWN_WIDTH)
    bottom = root.locator(".sp-board").evaluate("b => b.getBoundingClientRect().bottom + scrollY")
    height = page.viewport_size["height"]
    assert drawn >= MIN_BOARD_SHARE * width or bottom >= MIN_BOARD_BOTTOM * height, \
        f"the board draws {drawn:.0f} px of {width} px and ends at {bottom:.0f} px of {height} px"
    assert root.evaluate(BROKEN_WORDS) == []
    assert root.evaluate(OVERLAPS) == []
    assert_nothing_clipped(page, root)
    check_on_screen(page, root, text)


def open_in_projector(page, site_url, game: str, width: int, height: int):
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(reduced_motion="reduce")  # the bots' steps come at once
    page.goto(site_url + f"play/{game}.html")
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=180_000)
    root.locator(".sp-projector-toggle").click()
    settle(page, root)
    assert "sp-projector" in root.get_attribute("class")
    return root


@pytest.mark.parametrize("game", GAMES)
def test_projector_mode_is_readable_and_plays_to_the_end(game, context, request_log, site_url, screenshot):
    page = context.new_page()
    root = open_in_projector(page, site_url, game, 1920, 1080)
    # the teacher plays their seat: the buttons and the board's clickable parts stay
    assert root.locator(".sp-move, .sp-board [data-act]").count() > 0
    check_readable(page, root)
    screenshot(page, "1920")
    # a whole game, checked after every click: whatever phase it is in, its controls are on screen
    clicks = 0
    while not root.locator(".sp-banner").count():
        assert clicks < 600, "no end of game after 600 clicks"
        check_on_screen(page, root)
        clicks += play_clicks(page, root, game, 1)
        if clicks == 10:
            check_readable(page, root)
            small = [t for t in root.evaluate(SIDE_TEXT) if t[0] < MIN_SIDE_TEXT_PX - 0.05]
            assert not small, f"the other players' boards have text under {MIN_SIDE_TEXT_PX} px: {small[:8]}"
            screenshot(page, "1920-played")
    play_until_banner(page, root, game)
    assert "sp-projector" in root.get_attribute("class")
    check_readable(page, root)
    screenshot(page, "1920-end")
    # and at 1280×720, the other common projector size: every control on the first screen (the text
    # may come out smaller there: the board shrinks to the window's height, down to 14 px)
    page.set_viewport_size({"width": 1280, "height": 720})
    root.locator(".sp-new").click()
    settle(page, root)
    check_readable(page, root, text=False)
    screenshot(page, "1280")
    for _ in range(8):
        play_clicks(page, root, game, 1)
        check_on_screen(page, root, text=False)
    request_log.assert_only_local()


def test_a_long_row_of_swaps_leaves_the_board_its_text_size(context, request_log, site_url, screenshot):
    """Schraube Locker, seed 130: after a few turns the player may swap "Karten tauschen" for any of
    the bot's cards – eight buttons and more, each naming both cards. On the projector at 1920×1080
    they must not push the board's text under 24 px (a random game of the test above met such a
    state in about one run of six, at 22.9 px, when the buttons stood one to a row)."""
    page = context.new_page()
    root = open_in_projector(page, site_url, "schraube-locker", 1920, 1080)
    new_game_with_seed(page, root, 130)
    for _ in range(120):
        settle(page, root)
        if "tauschen oder schenken" in root.locator(".sp-status").inner_text() and root.locator(".sp-move").count() >= 8:
            break
        assert not root.locator(".sp-banner").count(), "seed 130 no longer reaches a swap with eight buttons"
        play_clicks(page, root, "schraube-locker", 1)
    else:
        raise AssertionError("seed 130 no longer reaches a swap with eight buttons")
    assert "sp-wordy" in root.locator(".sp-buttons").get_attribute("class")
    screenshot(page, "many-swaps")
    check_readable(page, root)
    request_log.assert_only_local()


def test_the_readability_checks_find_small_text_and_broken_words(context, site_url):
    """Negative control: the same checks fail on a board with 12 px text and a word split over two
    lines, and on a table that keeps the normal width."""
    page = context.new_page()
    root = open_in_projector(page, site_url, "wuerfel-joker", 1920, 1080)
    root.evaluate("""el => {
        const b = el.querySelector('.sp-board');
        b.style.zoom = '';
        b.insertAdjacentHTML('beforeend', '<div style="font-size:12px;width:60px;word-break:break-all">Minuspunkte</div>');
    }""")
    texts = root.evaluate(BOARD_TEXT)
    assert any(size < MIN_TEXT_PX for size, _ in texts)
    assert "Minuspunkte" in root.evaluate(BROKEN_WORDS)
    root.evaluate("""el => el.querySelector('.sp-right').insertAdjacentHTML('beforeend',
        '<div class="sp-extra"><svg width="200" height="40" viewBox="0 0 400 80"><text x="0" y="40" font-size="20">Bot 2: 12</text></svg></div>')""")
    assert [10.0, "Bot 2: 12"] in root.evaluate(SIDE_TEXT)  # 20 px in a picture drawn at half its size
    root.evaluate("el => { el.style.maxWidth = '1200px'; }")
    with pytest.raises(AssertionError):
        check_readable(page, root)


def test_the_screen_checks_find_a_control_below_the_window_and_a_narrow_board(context, site_url):
    """Negative control: a move button pushed under the window's bottom edge, a board drawn on a
    third of the width."""
    page = context.new_page()
    root = open_in_projector(page, site_url, "wuerfel-joker", 1920, 1080)
    check_on_screen(page, root)
    assert root.evaluate(BOARD_DRAWN_WIDTH) >= MIN_BOARD_SHARE * 1920
    root.evaluate("el => el.querySelector('.sp-buttons').insertAdjacentHTML('beforebegin', '<div style=\"height:1200px\"></div>')")
    with pytest.raises(AssertionError, match="outside the window"):
        check_on_screen(page, root)
    root.evaluate("el => { el.querySelector('.sp-board').style.zoom = '0.5'; }")
    with pytest.raises(AssertionError, match="the board draws"):
        check_readable(page, root, text=False)

