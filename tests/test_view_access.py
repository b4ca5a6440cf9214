"""What axe-core cannot judge, held for every game's view over seeded random games (issue 34):

- every board element a player can activate (``data-act``) carries a name the view gives it
  (``aria-label`` or a ``<title>`` as its first child), in the table's language;
- every colour pair a view declares (``View.colours``) meets WCAG 2.1 (text 4.5:1, state markers
  3:1), and every text fill the boards and side panels draw is one the view declares.

Each check has a negative control (a board that breaks it fails it). The boards are drawn from the
viewer's own context, after random legal moves and random selections (a chosen card, a previewed
field), for seat 0 and the spectator, in both languages, in and out of projector mode.
"""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from spieltisch.core.registry import game_ids, get_game_class
from spieltisch.core.view import CONTRAST_NEEDED, contrast
from spieltisch.ui.table import Table, load_view

GAMES = [g for g in game_ids() if get_game_class(g).view]
STEPS = 160  # actions per game: enough to reach every phase of the shorter games, bounded for the long ones
SEEDS = (1, 2)


class _Board(HTMLParser):
    """The activatable elements of a board and the fills of its text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.acts = []  # [token, aria-label, title text or None]
        self.stack = []  # open elements: (tag, index into acts or None)
        self.text_fills = set()
        self._title_for = None
        self._fill_stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        idx = None
        if "data-act" in a:
            self.acts.append([a["data-act"], (a.get("aria-label") or "").strip(), None])
            idx = len(self.acts) - 1
        # a <title> right after an activatable element's start names it
        if tag == "title" and self.stack and self.stack[-1][1] is not None and self.stack[-1][2] == 0:
            self._title_for = self.stack[-1][1]
        if self.stack:
            parent = self.stack[-1]
            self.stack[-1] = (parent[0], parent[1], parent[2] + 1, parent[3])
        fill = a.get("fill") or _style_value(a.get("style", ""), "fill") or _style_value(a.get("style", ""), "color")
        inherited = self._fill_stack[-1] if self._fill_stack else None
        self._fill_stack.append(fill or inherited)
        if tag == "text" and (fill or inherited):
            self.text_fills.add((fill or inherited).strip().lower())
        # HTML text in a colour of its own (an inline ``color:``): text too, held to the same list
        css_color = _style_value(a.get("style", ""), "color")
        if css_color:
            self.text_fills.add(css_color.strip().lower())
        self.stack.append((tag, idx, 0, fill or inherited))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.stack.pop()
        self._fill_stack.pop()

    def handle_endtag(self, tag):
        if tag == "title":
            self._title_for = None
        while self.stack:
            t = self.stack.pop()
            self._fill_stack.pop()
            if t[0] == tag:
                break

    def handle_data(self, data):
        if self._title_for is not None and data.strip():
            cur = self.acts[self._title_for][2] or ""
            self.acts[self._title_for][2] = (cur + data).strip()


def _style_value(style: str, prop: str):
    for part in style.split(";"):
        k, _, v = part.partition(":")
        if k.strip().lower() == prop:
            return v.strip()
    return None


def parse(html: str) -> _Board:
    p = _Board()
    p.feed(html)
    p.close()
    return p


def unnamed(html: str) -> list[str]:
    """The tokens of activatable elements with no name of their own (no aria-label, no <title>)."""
    return [tok for tok, label, title in parse(html).acts if not (label or title)]


def text_fills(html: str) -> set[str]:
    return {f for f in parse(html).text_fills if f.startswith("#") or f in ("white", "black")}


def boards(game_id: str, seed: int):
    """(where, html) of every board and side panel seat 0 and the spectator see over a seeded game,
    random moves and random selections included."""
    rng = random.Random(seed)
    cls = get_game_class(game_id)
    n = max(cls.min_players, min(2, cls.max_players))
    t = Table(game_id, players=n, seats=["human"] + ["random"] * (n - 1), seed=seed, lang="de")
    for step in range(STEPS):
        if t.is_over():
            break
        if t.pending():
            t.step()
            continue
        t.projector = step % 3 == 0
        t.lang = "de" if step % 2 else "en"
        s = t.state()
        yield f"step {step} ({t.lang})", s["board"] + s["extra"]
        spectator = t.context(viewer=None)
        yield f"step {step} spectator", load_view(cls).board(spectator)
        tokens = [tok for tok, *_ in parse(s["board"]).acts] + [b["token"] for b in s["buttons"]]
        if not tokens:
            if t.human_throw_pending():
                t.click("throw")
                continue
            break
        before = len(t.session.match.actions)
        t.click(rng.choice(tokens))
        if len(t.session.match.actions) == before and t.ui:
            s = t.state()  # a selection: the board shows what is chosen
            yield f"step {step} selected", s["board"] + s["extra"]
            t.handle({"type": "cancel"})
        if len(t.session.match.actions) == before:
            # a refused or a selecting click: play a legal move so the game goes on
            ctx = t.context()
            if ctx.legal:
                t.act(rng.choice(ctx.legal))
    yield "end", t.state()["board"] + t.state()["extra"]


# --- negative controls: the checks catch what they claim to catch ------------------------------
def test_the_name_check_finds_an_unnamed_board_element():
    named = '<svg><g data-act="c1" aria-label="Karte 5"><rect/></g><g data-act="c2"><title>Stapel 1</title></g></svg>'
    assert unnamed(named) == []
    assert unnamed('<svg><g data-act="c3"><text>5</text></g></svg>') == ["c3"]
    assert unnamed('<div><button data-act="x" aria-label="  ">5</button></div>') == ["x"]


def test_the_fill_check_reads_text_fills_direct_and_inherited():
    html = '<svg><g fill="#123456"><text>a</text></g><text fill="#FFFFFF">b</text><text style="fill:#abc">c</text></svg>'
    assert text_fills(html) == {"#123456", "#ffffff", "#abc"}
    assert text_fills('<div style="color: #654321; padding: 2px">HTML text</div>') == {"#654321"}


def test_the_contrast_formula_matches_known_ratios():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#fff", "#27ae60") == pytest.approx(2.87, abs=0.01)  # the measurement
    assert contrast("#b8860b", "#ffffff") == pytest.approx(3.25, abs=0.01)
    with pytest.raises(ValueError):
        contrast("red", "#fff")


# --- every game ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_declared_colour_pairs_meet_wcag(game_id):
    view = load_view(get_game_class(game_id))
    assert view.colours, f"{game_id}: the view declares no colour pairs"
    weak = [(fg, bg, use, round(contrast(fg, bg), 2)) for fg, bg, use in view.colours
            if contrast(fg, bg) < CONTRAST_NEEDED[use]]
    assert not weak, f"{game_id}: colour pairs under WCAG: {weak}"


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_board_element_has_a_name_and_every_text_colour_is_declared(game_id, seed):
    view = load_view(get_game_class(game_id))
    declared = {fg.lower() for fg, _, _ in view.colours}
    seen_acts = 0
    for where, html in boards(game_id, seed):
        missing = unnamed(html)
        assert not missing, f"{game_id} seed {seed} {where}: board elements without a name: {missing[:5]}"
        seen_acts += len(parse(html).acts)
        stray = text_fills(html) - declared
        assert not stray, f"{game_id} seed {seed} {where}: text drawn in colours the view does not declare: {stray}"
    assert seen_acts, f"{game_id}: no activatable board element in a whole game (the check saw nothing)"
