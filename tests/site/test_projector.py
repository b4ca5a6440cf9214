"""Projector mode on the Play pages: readable from the back row and still playable.

A teacher plays a seat on the projector: the table fills the screen (at least 90 % of the width at
1920×1080 and 1280×720), every text and number on the board is drawn at 24 CSS px or more, the move
buttons stay, nothing overlaps, sticks out or breaks inside a word. Hiding hands is the separate
spectator view, not the projector's."""

from __future__ import annotations

import pytest
from harness.frontend import assert_nothing_clipped, play_clicks, play_until_banner, settle

pytestmark = pytest.mark.site

GAMES = ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]
MIN_TEXT_PX = 24
MIN_WIDTH_SHARE = 0.9

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


def check_readable(page, root) -> None:
    width = page.viewport_size["width"]
    box = root.bounding_box()
    assert box["width"] >= MIN_WIDTH_SHARE * width, f"the table is {box['width']:.0f} px of {width} px wide"
    texts = root.evaluate(BOARD_TEXT)
    small = [t for t in texts if t[0] < MIN_TEXT_PX - 0.05]
    assert texts and not small, f"board text under {MIN_TEXT_PX} px at {width} px: {small[:8]}"
    assert root.evaluate(BROKEN_WORDS) == []
    assert root.evaluate(OVERLAPS) == []
    assert_nothing_clipped(page, root)


def open_in_projector(page, site_url, game: str, width: int, height: int):
    page.set_viewport_size({"width": width, "height": height})
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
    assert play_clicks(page, root, game, 10) == 10
    check_readable(page, root)
    screenshot(page, "1920-played")
    play_until_banner(page, root, game)
    assert "sp-projector" in root.get_attribute("class")
    check_readable(page, root)
    screenshot(page, "1920-end")
    # and at 1280×720, the other common projector size
    page.set_viewport_size({"width": 1280, "height": 720})
    root.locator(".sp-new").click()
    settle(page, root)
    check_readable(page, root)
    screenshot(page, "1280")
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
    root.evaluate("el => { el.style.maxWidth = '1200px'; }")
    with pytest.raises(AssertionError):
        check_readable(page, root)
