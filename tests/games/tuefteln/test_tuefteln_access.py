"""Tüfteln's Play page (issue 34): the how-to box held against the engine for every option, the
fields' names and states, side B's colours not by colour alone, the other players' sheets in words,
the colours the sheet draws with."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from itertools import product

import pytest

from spieltisch.core.view import CONTRAST_NEEDED, contrast
from spieltisch.games.tuefteln import Place, Throw, Tuefteln, scoring
from spieltisch.games.tuefteln import view as tv
from spieltisch.games.tuefteln.engine import SIZE, field_name, layout_for
from spieltisch.ui.table import Table

CONFIGS = [(1, {}), (2, {"side": "B"}), (3, {"side": "A", "descending_straights": True}),
           (2, {"side": "B", "descending_straights": True})]
LANGS = ("de", "en")
SQUARE = {"de": re.compile(r"oben (\d) (\d), unten (\d) (\d)"), "en": re.compile(r"top (\d) (\d), bottom (\d) (\d)")}


def box(n, options, lang):
    game = Tuefteln(n, options)
    return game, tv.TueftelnView().how_to(game, lang)


def squares_in(text: str, lang: str) -> list[tuple]:
    """The squares a text writes "oben a b, unten c d", clockwise from the top left as the engine
    takes them (TL, TR, BR, BL)."""
    return [(int(a), int(b), int(d), int(c)) for a, b, c, d in SQUARE[lang].findall(text)]


def item(turn: list[str], start: str) -> str:
    found = [t for t in turn if t.startswith(start)]
    assert len(found) == 1, (start, turn)
    return found[0]


def category_item(turn, c, lang):
    word = scoring.LABELS[lang][c]
    return item(turn, f"{word[0].upper()}{word[1:]} – " if lang == "en" else f"{word} – ")


# --- the how-to box against the engine ----------------------------------------------------------

@pytest.mark.parametrize("n,options", CONFIGS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_category_the_box_names_scores_its_example_and_points(n, options, lang):
    """Each category's item names the engine's points and an example square the engine scores as that
    category (with the options in force); the squares the box says score nothing score nothing."""
    game, howto = box(n, options, lang)
    turn = howto["turn"]
    for c in scoring.CATEGORIES:
        text = category_item(turn, c, lang)
        points = int(re.search(r" – (\d+) ", text).group(1))
        assert points == scoring.POINTS[c]
        example = squares_in(text, lang)[0]  # the first square of an item is its example
        assert scoring.category(*example, game.descending) == c, (text, example)
    nothing = item(turn, "Keine Punkte" if lang == "de" else "No points")
    found = squares_in(nothing, lang)
    assert len(found) == 2
    assert [scoring.category(*s, game.descending) for s in found] == [scoring.NONE] * 2
    # the old claim (nine differently scored squares) is gone
    assert "neun Quadrate verschieden" not in str(howto) and "all nine squares score differently" not in str(howto)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("lang", LANGS)
def test_the_straight_item_follows_the_descending_option(descending, lang):
    """The falling square the straight item shows is a straight exactly when the item says so, and
    the item's words change with the option."""
    game, howto = box(2, {"descending_straights": descending}, lang)
    text = category_item(howto["turn"], "straight", lang)
    falling = squares_in(text, lang)[1]
    assert scoring.category(*falling, game.descending) == ("straight" if descending else "mix")
    says_counts = ("zählt auch absteigend" in text) if lang == "de" else ("falling counts too" in text)
    says_not = ("ist keine Straße" in text) if lang == "de" else ("is not a straight" in text)
    assert (says_counts, says_not) == (descending, not descending)
    other = box(2, {"descending_straights": not descending}, lang)[1]
    assert category_item(other["turn"], "straight", lang) != text


def _orthogonal(i, j):  # positions clockwise 0 TL, 1 TR, 2 BR, 3 BL: neighbours differ by 1 (mod 4)
    return (j - i) % 4 in (1, 3)


def box_reading(v, descending):
    """The category a square has by the box's words (the conditions as written there)."""
    counts = sorted((v.count(x) for x in set(v)), reverse=True)
    if counts == [4]:
        return "four"  # vier gleiche Zahlen
    if counts == [1, 1, 1, 1]:
        for k in range(4):  # aufeinanderfolgend, im Uhrzeigersinn aufsteigend, an einer beliebigen Ecke
            if all(v[(k + i) % 4] == v[k] + i for i in range(4)):
                return "straight"
            if descending and all(v[(k + i) % 4] == v[k] - i for i in range(4)):
                return "straight"
        return "mix"  # vier verschiedene Zahlen, die keine Straße sind
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4) if v[i] == v[j]]
    if counts == [2, 2]:
        if all(_orthogonal(i, j) for i, j in pairs):
            return "two_pairs"  # zwei Paare, jedes waagrecht oder senkrecht
        if not any(_orthogonal(i, j) for i, j in pairs):
            return "cross"  # zwei Paare, jedes diagonal
    if counts == [2, 1, 1]:
        (i, j), = pairs
        return "pair" if _orthogonal(i, j) else scoring.NONE  # ein Paar, das nur diagonal liegt: nichts
    if counts == [3, 1]:
        return scoring.NONE  # Drilling
    raise AssertionError(f"the box's words do not cover {v}")


@pytest.mark.parametrize("descending", [False, True])
def test_the_box_conditions_give_the_engine_category_for_every_square(descending):
    """The conditions, read as the box writes them, give the engine's category on all 1296 squares;
    the box's items carry those words."""
    for lang, words in (("de", ("waagrecht oder senkrecht", "diagonal", "im Uhrzeigersinn aufsteigend",
                                "Drilling")),
                        ("en", ("across or down", "diagonal", "rising clockwise", "three of a kind"))):
        text = " ".join(box(1, {"descending_straights": descending}, lang)[1]["turn"])
        assert all(w in text for w in words), lang
    for v in product(range(1, 7), repeat=4):
        assert box_reading(v, descending) == scoring.category(*v, descending), v
    # negative control: a reading that lets diagonal pairs score is caught
    assert box_reading((6, 1, 6, 2), descending) != "pair"


@pytest.mark.parametrize("lang", LANGS)
def test_the_bonus_is_one_square_of_each_of_the_six_categories(lang):
    """The bonus as the box states it (its points, one square of each of the six categories) is the
    engine's: six categories and three squares scoring nothing earn it, nine squares with one
    category missing do not, however many different squares there are."""
    turn = box(1, {}, lang)[1]["turn"]
    text = item(turn, "Jede Kombination" if lang == "de" else "A combination")
    bonus = int(re.search(r"Bonus (\d+)", text).group(1))
    assert ("sechs Kombinationen" if lang == "de" else "six combinations") in text
    six = [tv.EXAMPLES[c] for c in scoring.CATEGORIES]

    def total(squares):
        values = [0] * 36
        for s, v in enumerate(squares):
            for f, x in zip(scoring.SQUARES[s], v):
                values[f] = x
        return scoring.total(scoring.square_categories(values))

    with_all = six + [tv.THREE_OF_A_KIND] * 3
    assert total(with_all) == (sum(scoring.POINTS[c] for c in scoring.CATEGORIES) + bonus, True)
    no_straight = six[:5] + [tv.THREE_OF_A_KIND, tv.DIAGONAL_PAIR, (1, 1, 2, 2), (1, 2, 1, 2)]
    assert total(no_straight)[1] is False


@pytest.mark.parametrize("n,options", CONFIGS)
def test_the_placement_rule_and_rounds_the_box_states_are_the_engines(n, options):
    """Side A's box allows two white fields of one square and a bridge and forbids a blue field with
    a white one; side B's allows two fields of one colour and forbids two colours. The engine agrees,
    and a whole game has as many throws as the box says rounds."""
    game, de = box(n, options, "de")
    en = box(n, options, "en")[1]
    layout = game.layout
    state = game.new_initial_state()
    state.apply_action(Throw(2, 5))
    legal = set(state.legal_actions())
    side = options.get("side", "A")
    rule_de, rule_en = item(de["turn"], f"Seite {side}:"), item(en["turn"], f"Side {side}:")
    if side == "A":
        assert "weiße Felder" in rule_de and "Brücke" in rule_de and "white fields" in rule_en
        white = [f for f in range(36) if layout.kind[f] == "W" and not layout.printed[f]]
        square = {f: s for s, fs in enumerate(scoring.SQUARES) for f in fs}
        same_square = next((a, b) for a in white for b in white if a < b and square[a] == square[b])
        assert Place(same_square[0], 2, same_square[1], 5) in legal
        a, b = layout.bridges[0]
        assert Place(a, 2, b, 5) in legal
        assert Place.make(a, 2, white[0], 5) not in legal
    else:
        assert "derselben Farbe" in rule_de and "same colour" in rule_en
        assert all(f"{tv.SYMBOLS[k]} {layout.kinds[k]['de']}" in rule_de for k in layout.kinds)
        by_kind = {}
        for f in range(36):
            if not layout.printed[f]:
                by_kind.setdefault(layout.kind[f], []).append(f)
        (k1, f1s), (k2, f2s) = list(by_kind.items())[:2]
        assert Place(f1s[0], 2, f1s[1], 5) in legal
        assert Place.make(f1s[0], 2, f2s[0], 5) not in legal
    rounds = int(re.search(r"Nach (\d+) Runden", de["turn"][0]).group(1))
    assert f"After {rounds} rounds" in en["turn"][0]
    rng = random.Random(n)
    throws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(Throw(rng.randint(1, 6), rng.randint(1, 6)))
            throws += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert throws + 1 == rounds
    # the side's rule and the options show: the boxes of two sides differ in that item
    other = box(n, {**options, "side": "B" if side == "A" else "A"}, "de")[1]
    assert rule_de not in other["turn"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_solo_rating_line_is_the_engines_and_only_solo(lang):
    solo = box(1, {}, lang)[1]["turn"]
    line = item(solo, "Allein" if lang == "de" else "Solo")
    low, high = scoring.rating(0)[lang], scoring.rating(1000)[lang]
    assert low in line and high in line
    top = int(re.search(r"(\d+)", line).group(1))
    assert scoring.rating(top)[lang] == low and scoring.rating(top + 1)[lang] != low
    assert not any(t.startswith("Allein" if lang == "de" else "Solo") for t in box(2, {}, lang)[1]["turn"])


# --- the board: names, states, colours ------------------------------------------------------------

class Fields(HTMLParser):
    """The sheet's field rectangles (with their attributes) and its texts with their positions."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fields, self.texts, self.outlines, self._text = {}, [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and "data-field" in a:
            self.fields[int(a["data-field"])] = a
        elif tag == "rect" and a.get("fill") == "none" and a.get("stroke") == tv.MARK:
            self.outlines.append(a)
        elif tag == "text":
            self._text = a

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self._text is not None:
            self.texts.append((self._text, data))
            self._text = None


def parse(html):
    p = Fields()
    p.feed(html)
    return p


def first_sheet(html: str) -> str:
    start = html.index("<svg", html.index("sp-sheet"))
    return html[start:html.index("</svg>", start) + 6]


def inside(attrs, field_attrs):
    x, y = float(attrs["x"]), float(attrs["y"])
    fx, fy, w = float(field_attrs["x"]), float(field_attrs["y"]), float(field_attrs["width"])
    return fx <= x <= fx + w and fy <= y <= fy + w


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_field_is_named_with_square_corner_content_and_kind(side, lang):
    t = Table("tuefteln", players=2, seats=["human", "random"], seed=3, lang=lang, options={"side": side})
    while t.pending():
        t.step()
    fields = parse(first_sheet(t.state()["board"])).fields
    layout = layout_for(side)
    corners = tv.POSITIONS[lang]
    assert len(fields) == 36
    for f, a in fields.items():
        name = a["aria-label"]
        r, c = divmod(f, SIZE)
        square = (r // 2) * 3 + c // 2 + 1
        assert name.startswith(f"{field_name(f)}, {'Quadrat' if lang == 'de' else 'square'} {square} "
                               f"{corners[(r % 2) * 2 + c % 2]}: "), name
        if layout.printed[f]:
            assert name.endswith(f"{'vorgedruckte' if lang == 'de' else 'pre-printed'} {layout.printed[f]}")
        else:
            assert f": {'frei' if lang == 'de' else 'free'}, {layout.kinds[layout.kind[f]][lang]}" in name
        assert "aria-pressed" not in a


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_chosen_field_is_pressed_outlined_previewed_and_the_fitting_fields_are_the_engines(side):
    t = Table("tuefteln", players=2, seats=["human", "random"], seed=5, lang="de", options={"side": side})
    while t.pending():
        t.step()
    layout = layout_for(side)
    legal = t.context().legal
    # a field with more than one partner: the first click only chooses it
    first = next(f for f in range(36) if len({a.f1 ^ a.f2 ^ f for a in legal if f in (a.f1, a.f2)}) > 1)
    before = len(t.session.match.actions)
    t.click(f"f{first}")
    assert len(t.session.match.actions) == before
    sheet = parse(first_sheet(t.state()["board"]))
    pressed = [f for f, a in sheet.fields.items() if a.get("aria-pressed") == "true"]
    assert pressed == [first]
    throw = t.context().observation["throw"]
    assert "gewählt für die " + str(throw[0]) in sheet.fields[first]["aria-label"]
    fits = {f for f, a in sheet.fields.items() if a["aria-label"].endswith(", passt")}
    partners = {a.f2 if a.f1 == first else a.f1 for a in legal if first in (a.f1, a.f2)}
    assert fits == partners and first not in fits
    free = {f for a in legal for f in (a.f1, a.f2)}
    unfit = {f for f, a in sheet.fields.items() if a["aria-label"].endswith(", passt nicht dazu")}
    assert unfit == free - partners - {first}
    # a state is not colour alone: the chosen field has a solid outline, the fitting ones a dashed one,
    # and the number the first click writes stands in the chosen field
    solid = [o for o in sheet.outlines if "stroke-dasharray" not in o]
    dashed = [o for o in sheet.outlines if "stroke-dasharray" in o]
    assert [f for f in sheet.fields if any(inside(o, sheet.fields[f]) for o in solid)] == [first]
    assert {f for f in sheet.fields if any(inside(o, sheet.fields[f]) for o in dashed)} == partners
    assert [d for a, d in sheet.texts if inside(a, sheet.fields[first]) and d.isdigit()] == [str(throw[0])]
    # the second click on a fitting field writes the throw
    t.click(f"f{min(partners)}")
    assert len(t.session.match.actions) == before + 1
    assert t.session.match.actions[-1] == Place.make(first, throw[0], min(partners), throw[1])
    assert layout.group_of[first] == layout.group_of[min(partners)]


def test_side_b_fields_show_their_colour_by_a_sign_as_well():
    """Every field of side B that is not pre-printed carries its colour's sign; the five colours have
    five different signs, and the note beside the sheet says which sign is which colour."""
    layout = layout_for("B")
    assert len({tv.SYMBOLS[k] for k in layout.kinds}) == len(layout.kinds)
    t = Table("tuefteln", players=1, seats=["human"], seed=1, lang="de", options={"side": "B"})
    while t.pending():
        t.step()
    state = t.state()
    sheet = parse(first_sheet(state["board"]))
    for f, a in sheet.fields.items():
        signs = [d for ta, d in sheet.texts if d in tv.SYMBOLS.values() and inside(ta, a)]
        assert signs == ([] if layout.printed[f] else [tv.SYMBOLS[layout.kind[f]]]), f
    for k, words in layout.kinds.items():
        assert f"{tv.SYMBOLS[k]} {words['de']}" in state["extra"]
    # side A draws no signs (its blue fields are told apart by their bridges)
    t = Table("tuefteln", players=1, seats=["human"], seed=1, lang="de", options={"side": "A"})
    assert not [d for _, d in parse(first_sheet(t.state()["board"])).texts if d in tv.SYMBOLS.values()]


class Pictures(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.labels = {}
        self._player = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "data-player" in a:
            self._player = int(a["data-player"])
        elif tag == "svg" and self._player is not None and "aria-label" in a:
            self.labels[self._player] = (a["aria-label"], a.get("role"))
            self._player = None


@pytest.mark.parametrize("lang", LANGS)
def test_the_other_players_sheets_are_summarised_in_words(lang):
    t = Table("tuefteln", players=3, seats=["human", "random", "random"], seed=7, lang=lang)
    rng = random.Random(7)
    for _ in range(9):  # nine rounds: some squares are complete
        while t.pending():
            t.step()
        t.act(rng.choice(t.context().legal))
    while t.pending():
        t.step()
    obs = t.context().observation
    pics = Pictures()
    pics.feed(t.state()["extra"])
    assert set(pics.labels) == {1, 2}
    layout = layout_for(obs["side"])
    for p, (label, role) in pics.labels.items():
        assert role == "img"
        sheet = obs["sheets"][p]
        written = sum(1 for f, v in enumerate(tv.observation_fields(obs, p)) if v and not layout.printed[f])
        assert label.startswith(f"{t.names(lang)[p]}: {sheet['score']} ")
        assert (f"{written} von 30 Feldern" if lang == "de" else f"{written} of 30 fields") in label
        for i, sq in enumerate(sheet["squares"]):
            named = f"{i + 1} {scoring.LABELS[lang][sq['category']]} " if sq["category"] else None
            assert named is None or named in label
        assert written >= 18 and any(sq["category"] for sq in sheet["squares"])


def test_every_field_colour_has_its_text_and_marker_declared():
    """The numbers and the state outlines are drawn on every field colour: each pair is declared and
    meets WCAG (the accessibility test checks the declared pairs; this one that none is missing)."""
    declared = {(fg, bg): use for fg, bg, use in tv.TueftelnView.colours}
    fills = {tv.field_fill(layout_for(s), f) for s in "AB" for f in range(36)} | {tv.HIGHLIGHT}
    for fill in fills:
        ink = tv.PRINTED_INK if fill == tv.PRINTED else tv.PEN
        assert declared.get((ink, fill)) == "text", fill
        assert contrast(ink, fill) >= CONTRAST_NEEDED["text"]
        if fill == tv.PRINTED:
            continue  # a pre-printed field is never chosen, never fits and never written
        assert declared.get((tv.MARK, fill)) == "marker", fill
        assert contrast(tv.MARK, fill) >= CONTRAST_NEEDED["marker"]
    # negative control: the old chosen-field marking (the yellow fill against white) is far under 3:1
    assert contrast(tv.HIGHLIGHT, tv.WHITE) < CONTRAST_NEEDED["marker"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_field_one_click_fills_says_so_and_that_click_writes_what_it_says(lang):
    """Bridge fields (side A) have one partner: their name tells what one click writes where, and the
    click writes exactly that."""
    t = Table("tuefteln", players=1, seats=["human"], seed=2, lang=lang)
    while t.pending():
        t.step()
    v1, v2 = t.context().observation["throw"]
    layout = layout_for("A")
    fields = parse(first_sheet(t.state()["board"])).fields
    said = {f for f, a in fields.items() if ("ein Klick" if lang == "de" else "one click") in a["aria-label"]}
    assert said == {f for pair in layout.bridges for f in pair}
    a, b = layout.bridges[0]
    assert fields[b]["aria-label"].endswith(
        f"ein Klick schreibt die {v1} hierher und die {v2} nach {field_name(a)}" if lang == "de" else
        f"one click writes the {v1} here and the {v2} to {field_name(a)}")
    t.click(f"f{b}")
    assert t.session.match.actions[-1] == Place.make(b, v1, a, v2)
