"""Checks of the shared front-end in a real browser, the same in every host (a JupyterLite notebook,
a Play page, Panel): play by clicking as a person does, find words of the other language, find
anything clipped. Playwright locators pierce Panel's shadow roots, so one helper serves all hosts."""

from __future__ import annotations

import re
import time

# Words only one language uses (checked as whole words in the table's text; the language buttons
# "Deutsch" and "English" are removed first, they show both names in both languages).
GERMAN = ("Runde", "Würfeln", "Spielende", "Punkte", "Punkten", "Neues Spiel", "Berater", "Startwert", "Spieler",
          "Du", "schreibt", "Wurf", "Summe", "Aufhören", "Möglichkeit", "Gewonnen", "gewonnen", "tauschen",
          "Wertung", "Seite", "gierig", "stark", "zufällig", "Mensch", "So geht's", "Verlauf", "Ziel",
          "Rekonstruktion", "Weiterwürfeln", "Schieber", "Pasch", "Spielblock", "Minuspunkte", "Beamer", "und")
ENGLISH = ("Round", "Throw", "Game over", "points", "New game", "Advisor", "Seed", "Players", "You", "writes",
           "Total", "Stop", "Option", "won", "swap", "Scoring", "Side", "greedy", "strong", "random", "Human",
           "How to play", "Log", "Goal", "reconstruction", "Slide", "doubles", "Score pad", "Projector", "and",
           "the")


def other_language_words(text: str, lang: str) -> list[str]:
    text = text.replace("Deutsch", " ").replace("English", " ")
    words = GERMAN if lang == "en" else ENGLISH
    return [w for w in words if re.search(rf"(?<![\w'’]){re.escape(w)}(?![\w'’])", text)]


def assert_no_other_language(text: str, lang: str) -> None:
    found = other_language_words(text, lang)
    assert not found, f"{lang} view shows words of the other language: {found}"


CLIPPED = """el => {
  const out = [];
  const width = window.innerWidth;
  for (const e of [el, ...el.querySelectorAll('*')]) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
    if (r.right > width + 1) out.push(`${e.tagName}.${e.className.baseVal ?? e.className} sticks out: right ${Math.round(r.right)} > ${width}`);
    const style = getComputedStyle(e);
    if (style.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && e.tagName.toLowerCase() !== 'select')
      out.push(`${e.tagName}.${e.className.baseVal ?? e.className} hides ${e.scrollWidth - e.clientWidth}px`);
  }
  return out;
}"""


def assert_nothing_clipped(page, root, screenshot=None) -> None:
    """Nothing in the front-end sticks out of the window or hides content behind a scroll bar."""
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    problems = root.evaluate(CLIPPED)
    assert not problems, f"clipped at {page.viewport_size}: {problems[:5]}"


def settle(page, root, timeout: float = 120) -> None:
    """Wait until the front-end has drawn the answer to the last click (it marks itself busy from
    the click until the new state arrives)."""
    start = time.monotonic()
    page.wait_for_timeout(30)
    while "sp-busy" in (root.get_attribute("class") or ""):
        if time.monotonic() - start > timeout:
            raise AssertionError(f"the front-end did not answer within {timeout} s")
        page.wait_for_timeout(50)


def new_game_with_seed(page, root, seed: int, timeout_ms: int = 120_000) -> None:
    """Type ``seed`` and start its game; return once the table shows that game. The field the test
    typed into is marked: only a field the front-end drew again from a view of the new game (its seed)
    counts, never the typed one, nor a view of the game before that was still on its way (a bot's
    paced step) – ``settle`` alone returns at the first view that comes back."""
    field = root.locator(".sp-seed")
    field.fill(str(seed))
    field.evaluate("el => { el.spTyped = true; }")
    field.press("Enter")
    page.wait_for_function("([el, seed]) => { const f = el.querySelector('.sp-seed');"
                           " return f && !f.spTyped && f.value === seed && !el.classList.contains('sp-busy'); }",
                           arg=[root.element_handle(), str(seed)], timeout=timeout_ms)


def play_until_banner(page, root, game: str, max_clicks: int = 600) -> int:
    """Play a whole game by clicking; returns the clicks made."""
    clicks = play_clicks(page, root, game, max_clicks)
    if root.locator(".sp-banner").count():
        return clicks
    raise AssertionError(f"no end of game after {max_clicks} clicks; the table shows: "
                         f"{root.locator('.sp-status').inner_text()!r} {root.locator('.sp-left').inner_text()[-300:]!r}")


def play_clicks(page, root, game: str, max_clicks: int) -> int:
    """Click as a player does, at most ``max_clicks`` times or until the end banner (bots: "play
    to my turn"; a board that marks what may be clicked (``sp-can``: a card to choose, ``sp-target``:
    where the chosen card may go, e.g. Skip-Bo Masters): the first target, else the first choice;
    Würfel Joker and Schraube Locker: the first move button – Schraube Locker's first
    buttons roll again, then stop, swap before taking the card; Tüfteln: the first free fields that
    make a legal pair; Scratch Island: the first cell the map offers, then "place"). Returns the
    clicks made."""
    clicks = 0
    while clicks < max_clicks:
        settle(page, root)
        if root.locator(".sp-banner").count():
            return clicks
        clicks += 1
        if root.locator(".sp-finish").count():
            _click(root.locator(".sp-finish"))
            continue
        marked = [root.locator(f".sp-board .sp-{kind}[data-act]") for kind in ("target", "can")]
        marked = [m for m in marked if m.count()]
        if marked:
            _click(marked[0].first)
            continue
        moves = root.locator(".sp-move:not([data-token=swap])")
        if game == "scratch-island" and _place_or_scratch(root):
            continue
        if game.startswith("wuerfel-joker") or moves.count():
            _click(moves.first)
            continue
        if game == "tuefteln":
            _write_throw(page, root)
    settle(page, root)
    return clicks


def _place_or_scratch(root) -> bool:
    """Scratch Island: commit a previewed motif; else click the first cell the map offers (placing:
    a preview; scratching: the next cell); else the first die not chosen yet (the roller clicks two
    dice, the others one). False when nothing is offered."""
    confirm = root.locator(".sp-move[data-token=confirm]")
    if confirm.count():
        _click(confirm)
        return True
    for offered in (".sp-map-main [data-act]", SI_FREE_DIE):
        cells = root.locator(offered)
        if cells.count():
            _click(cells.first)
            return True
    return False


SI_FREE_DIE = ".sp-dice-row [data-act]:not([data-picked])"  # Scratch Island: a die not chosen yet


def _click(locator) -> None:
    """Click if it is still there: the bots' own pacing may have redrawn the table without it.
    Inside ``keyboard_only`` the keyboard acts instead of the mouse."""
    if _KEYBOARD:
        _keyboard_activate(*_KEYBOARD[-1], locator)
        return
    try:
        locator.click(timeout=3_000)
    except Exception as e:  # noqa: BLE001 - playwright's TimeoutError; the caller looks again
        if "Timeout" not in type(e).__name__:
            raise


_KEYBOARD: list = []  # (page, after) while keyboard_only is active

# Whether the element has the focus (in a shadow root too), and whether it comes before the focused one.
FOCUS_STATE = """e => {
    const r = e.getRootNode();
    const a = r.activeElement || document.activeElement;
    if (!e.isConnected) return "gone";
    if (a === e) return "here";
    if (!a || a === document.body || !a.compareDocumentPosition) return "after";
    return (a.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING) ? "before" : "after";
}"""


KEYS = {"pressed": 0}  # every key pressed inside keyboard_only (benchmarks/keyboard_keys.py reads it)


def _press(page, key: str) -> None:
    page.keyboard.press(key)
    KEYS["pressed"] += 1


# A board is one Tab stop (a roving tabindex); inside it the arrow keys move to the nearest part in
# their direction (the front-end's rule, table.js nextPart), Home and End to the first and last. Given
# the part to reach: {tab: the board's stop} while the focus is outside the board, else the shortest
# sequence of keys from the focused part (a breadth-first search over those moves), null if none.
BOARD_PATH = """target => {
    const board = target.closest('.sp-board');
    const r = target.getRootNode();
    const a = r.activeElement || document.activeElement;
    const parts = [...board.querySelectorAll('[data-act]')];
    const from = a && board.contains(a) ? a.closest('[data-act]') : null;
    if (!from) return {tab: true};
    const rects = new Map(parts.map(e => [e, e.getBoundingClientRect()]));
    const DIRS = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]};
    const next = (t, dir) => {
        const f = rects.get(t), cx = f.left + f.width / 2, cy = f.top + f.height / 2;
        let best = null, bestScore = Infinity;
        for (const e of parts) {
            if (e === t) continue;
            const q = rects.get(e);
            const dx = q.left + q.width / 2 - cx, dy = q.top + q.height / 2 - cy;
            const along = dx * dir[0] + dy * dir[1];
            if (along <= 1) continue;
            const score = along + 2 * Math.abs(dx * dir[1] - dy * dir[0]);
            if (score < bestScore) { bestScore = score; best = e; }
        }
        return best;
    };
    const prev = new Map([[from, null]]);
    const queue = [from];
    while (queue.length && !prev.has(target)) {
        const t = queue.shift();
        const moves = [...Object.entries(DIRS).map(([k, d]) => [k, next(t, d)]), ['Home', parts[0]], ['End', parts[parts.length - 1]]];
        for (const [k, n] of moves) if (n && !prev.has(n)) { prev.set(n, [t, k]); queue.push(n); }
    }
    if (!prev.has(target)) return {keys: null};
    const keys = [];
    for (let t = target; prev.get(t); t = prev.get(t)[0]) keys.unshift(prev.get(t)[1]);
    return {keys};
}"""

BOARD_STOP = "e => e.closest('.sp-board').querySelector(\"[data-act][tabindex='0']\")"


def _tab_to(page, handle) -> bool:
    """Tab or Shift+Tab until ``handle`` has the focus; False if a redraw took it away."""
    for _ in range(600):
        where = handle.evaluate(FOCUS_STATE)
        if where == "gone":
            return False
        if where == "here":
            return True
        _press(page, "Shift+Tab" if where == "before" else "Tab")
    raise AssertionError("Tab never reached the element")


def _keyboard_activate(page, after, locator) -> None:
    """Reach ``locator`` as a keyboard user does, then Enter; no mouse event. A button: Tab (or
    Shift+Tab) to it. A board's part: Tab to the board's one stop, then the arrow keys. If a redraw
    took it away meanwhile, nothing is pressed (the caller looks again)."""
    try:
        handle = locator.element_handle(timeout=3_000)
    except Exception as e:  # noqa: BLE001
        if "Timeout" in type(e).__name__:
            return
        raise
    if handle.evaluate("e => !!(e.closest('.sp-board') && e.hasAttribute('data-act'))"):
        for _ in range(3):
            if not handle.evaluate("e => e.isConnected"):
                return
            path = handle.evaluate(BOARD_PATH)
            if path.get("tab"):
                stop = handle.evaluate_handle(BOARD_STOP).as_element()
                if stop is None:
                    raise AssertionError("the board has no Tab stop")
                if not _tab_to(page, stop):
                    return
                continue
            if path["keys"] is None:
                raise AssertionError("the arrow keys never reach the element")
            for key in path["keys"]:
                _press(page, key)
            if handle.evaluate(FOCUS_STATE) == "here":
                break
        else:
            raise AssertionError("the arrow keys did not bring the focus to the element")
    elif not _tab_to(page, handle):
        return
    _press(page, "Enter")
    if after is not None:
        after()


class keyboard_only:
    """``with keyboard_only(page, after): play_clicks(...)`` plays with Tab and Enter only;
    ``after()`` runs after every key press that acted (a check of the focus, say)."""

    def __init__(self, page, after=None):
        self.entry = (page, after)

    def __enter__(self):
        _KEYBOARD.append(self.entry)
        return self

    def __exit__(self, *exc):
        _KEYBOARD.remove(self.entry)
        return False


def _write_throw(page, root) -> None:
    """Tüfteln: click a free field, then free fields until the throw is written."""
    step = root.get_attribute("data-step")
    free = root.locator(".sp-board rect.sp-field[data-value='0']")
    n = free.count()
    for i in range(n):
        _click(free.nth(i))
        settle(page, root)
        if root.get_attribute("data-step") != step or root.locator(".sp-banner").count():
            return  # a bridge: one click wrote it
        if not root.locator(".sp-board rect.sp-field[fill='#ffd54f']").count():
            continue  # refused: no partner for this field
        for j in range(n):
            if j == i:
                continue
            _click(free.nth(j))
            settle(page, root)
            if root.get_attribute("data-step") != step:
                return
        return
    raise AssertionError("no free field made a legal placement")


def board_values(root) -> list:
    """Tüfteln: the numbers on the viewer's sheet, field by field ("0" = empty)."""
    return root.locator(".sp-board rect.sp-field").evaluate_all("rs => rs.map(r => r.getAttribute('data-value'))")


# counts the share-done values the busy note shows (``data-progress`` on the advisor box: the
# host's progress reports; the box is redrawn once the answer comes, so they are caught as they come)
WATCH_PROGRESS = """el => {
    el.__progress = 0;
    new MutationObserver(records => {
        for (const r of records) if (r.attributeName === "data-progress") el.__progress += 1;
    }).observe(el, {attributes: true, subtree: true, attributeFilter: ["data-progress"]});
}"""


def open_advisor(page, root, game: str) -> int:
    """Switch the advisor on and play on to the viewer's next decision until its rows show; returns
    how often the host's progress reached the page meanwhile (``data-progress`` changes)."""
    root.evaluate(WATCH_PROGRESS)
    root.locator(".sp-advisor-toggle").click()
    for _ in range(30):  # to the next decision of the player (Würfel Joker: after a throw)
        settle(page, root, timeout=240)
        if root.locator(".sp-advice-row").count():
            break
        play_clicks(page, root, game, 1)
    assert root.locator(".sp-advice-row").count() > 0
    return root.evaluate("el => el.__progress")


def exercise_front_end(page, root, game: str, screenshot=lambda name: None) -> None:
    """What the front-end issue asks of every host: play part of a game, nothing clipped at this
    size; play to the end banner and open the review chart; switch to English (no German word
    left); start a new game (nothing of the old one left, every field empty); projector mode with
    nothing clipped. ``root`` is the ``.sp-table`` (in a frame or a shadow root)."""
    assert root.get_attribute("lang") == "de"
    fresh = board_values(root) if game == "tuefteln" else None
    assert play_clicks(page, root, game, 14) == 14  # part of a game, no end yet
    assert root.locator(".sp-log div").count() > 0
    assert_nothing_clipped(page, root)
    screenshot("played")
    if game == "tuefteln":
        assert board_values(root) != fresh  # some numbers are written
    play_until_banner(page, root, game)
    assert root.locator(".sp-banner").inner_text().strip()
    _click(root.locator(".sp-review-button"))
    root.locator(".sp-review-chart").wait_for(timeout=240_000)
    assert root.locator(".sp-review-bar").count() > 0
    screenshot("review")
    root.locator(".sp-lang[data-lang=en]").click()
    settle(page, root)
    assert root.get_attribute("lang") == "en"
    assert_no_other_language(root.inner_text(), "en")
    assert root.locator(".sp-review-chart").count() == 1  # the review stays, in English
    root.locator(".sp-new").click()
    settle(page, root)
    assert root.locator(".sp-log").count() == 0 and root.locator(".sp-banner").count() == 0
    if game == "tuefteln":
        # every field empty again but the printed ones (the old widget kept the last game's numbers)
        assert sorted(v for v in board_values(root) if v != "0") == sorted(v for v in fresh if v != "0")
    else:
        totals = root.locator(".sp-scores tr").last.inner_text().split()
        assert totals[1:] == ["0"] * (len(totals) - 1), totals
    assert root.locator(".sp-howto summary").inner_text().startswith("How to play")
    # the advisor: its rows come (a Tüfteln estimate takes a few seconds), at the top of the right
    # column, so it is seen without scrolling; while it works, the host reports its progress
    progress = open_advisor(page, root, game)
    if game == "tuefteln":  # its ranking reports progress (one report per whole percent, however fast)
        assert progress > 0, "no progress shown while the advisor worked"
    box, top = root.locator(".sp-advisor").bounding_box(), root.bounding_box()
    assert box is not None and box["y"] - top["y"] < 350, (box, top)  # within the first screen
    assert_nothing_clipped(page, root)
    screenshot("advisor")
    if game == "wuerfel-joker":  # Spiel 1's score pad and table of combinations fit too
        root.locator(".sp-variant[data-variant=wuerfel-joker-1]").click()
        settle(page, root)
        assert root.locator(".sp-combos").count() == 1
        assert_nothing_clipped(page, root)
        screenshot("spiel1")
    root.locator(".sp-projector-toggle").click()
    settle(page, root)
    assert "sp-projector" in root.get_attribute("class")
    assert_nothing_clipped(page, root)
    screenshot("projector")
