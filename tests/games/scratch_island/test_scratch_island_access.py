"""Scratch Island's Play page for every student (issue 34): every map cell is read by its name (what
is printed there, its walls, what was scratched free, its mark), the other maps as a summary, no
state told by colour alone, and a How-to-play box written from the options in force and held
against the engine, one test per option."""

from __future__ import annotations

import re

import pytest
from si_helpers import cell, layout, position, random_match, roll

from spieltisch.core.game import TERMINAL
from spieltisch.core.view import CONTRAST_NEEDED, Context, contrast
from spieltisch.games.scratch_island import view
from spieltisch.games.scratch_island.engine import (
    CELLS, COLOUR_NAMES, KEY_CHAR, SIZE, TREASURES, Choose, Place, ScratchIsland, cell_name,
)

V = view.ScratchIslandView()
NAMES = ["Ada", "Ben", "Cem", "Dana"]


def context(state, lang="de", ui=None, viewer=None):
    p = state.current_player() if viewer is None else viewer
    legal = list(state.legal_actions()) if state.current_player() == p else []
    return Context(state.game, state.observation(p), p, lang, legal, NAMES[:state.num_players],
                   {} if ui is None else ui, refusal=state.refusal)


def cells(board: str) -> dict:
    """cell -> the attributes of its <rect class="sp-cell"> on the viewer's own map."""
    main = board[board.index("sp-map-main"):]
    out = {}
    for tag in re.findall(r"<rect [^>]*class=\"sp-cell\"[^>]*>", main):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        out[int(attrs["data-cell"])] = attrs
    return out


def walled(m: dict, c: int) -> bool:
    """Whether a wall lies on any side of cell ``c`` (from the printed map, not from the view)."""
    east, south = "".join(m["layout"]["walls_east"]), "".join(m["layout"]["walls_south"])
    r, k = divmod(c, SIZE)
    return (east[c] == "1" or south[c] == "1" or (k > 0 and east[c - 1] == "1")
            or (r > 0 and south[c - SIZE] == "1"))


def cell_problems(board: str, m: dict, lang: str) -> list:
    """What the map's cell names fail to say, checked against the observed map ``m``: every cell
    named (an image or a clickable cell), by its name, with its walls, its chest and the chest's
    colour, whether it is scratched, and the key, snake or treasure it showed."""
    de = lang == "de"
    terrain, found = "".join(m["layout"]["terrain"]), "".join(m["found"])
    got = cells(board)
    problems = [f"cell {c} missing" for c in range(CELLS) if c not in got]
    for c, a in got.items():
        label = a.get("aria-label", "")
        if not label.startswith(cell_name(c) + ":"):
            problems.append(f"{cell_name(c)} unnamed: {label!r}")
            continue
        if "data-act" not in a and a.get("role") != "img":
            problems.append(f"{cell_name(c)}: neither an image nor clickable")
        if (("Wand:" in label or "Wände:" in label) if de else ("wall:" in label or "walls:" in label)) != walled(m, c):
            problems.append(f"{cell_name(c)}: walls wrong: {label!r}")
        if (("noch nicht gerubbelt" if de else "not scratched yet") in label) != (found[c] == "?"):
            problems.append(f"{cell_name(c)}: scratched or not wrong: {label!r}")
        t, f = terrain[c], found[c]
        if t in view.CHEST_OF:
            word = COLOUR_NAMES[view.CHEST_OF[t]][0 if de else 1]
            if (("Truhe " if de else " chest") not in label) or word not in label:
                problems.append(f"{cell_name(c)}: chest or its colour missing: {label!r}")
        if f in view.KEY_OF:
            col = view.KEY_OF[f]
            want = f"Schlüssel {COLOUR_NAMES[col][0]}" if de else f"{col} key"
            if want not in label:
                problems.append(f"{cell_name(c)}: key missing: {label!r}")
        if f == "S" and ("Schlange" if de else "snake") not in label:
            problems.append(f"{cell_name(c)}: snake missing: {label!r}")
        if f.isdigit() and TREASURES[int(f) - 1][lang] not in label:
            problems.append(f"{cell_name(c)}: treasure missing: {label!r}")
        if t == "x" and ("rotes Kreuz" if de else "red cross") not in label:
            problems.append(f"{cell_name(c)}: cross missing: {label!r}")
    return problems


WALLED_MAP = [
    "b..x.....r",
    "..........",
    "...#......",
    "..........",
    ".....x....",
    "..........",
    "..........",
    "..........",
    "..........",
    "g....A...y",
]


def explored():
    """Seat 0 on a hand-built map with walls, a rock and crosses, part scratched: a key, a snake, a
    treasure, an open chest; the roller choosing again (the 2-line first)."""
    lay = layout(WALLED_MAP, walls=[("E9", "east"), ("D4", "south"), ("C7", "east")])
    s = position(2, maps=[lay, layout()], contents={0: {"F5": "R", "E8": "S", "F8": "2", "G9": "1"}})
    path = ["F10", "F9", "F8", "F7", "F6", "F5", "E8", "G9", "G10", "H10", "I10"]
    s.scratched[0] = sum(1 << cell(n) for n in path)
    s.keys[0] = "R"
    return s


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_cell_of_the_map_is_read_with_what_is_in_it(lang):
    s = explored()
    roll(s, "I2", "L3", "O4", "pickaxe")
    ctx = context(s, lang)
    board = V.board(ctx)
    m = ctx.observation["maps"][0]
    assert cell_problems(board, m, lang) == []
    label = cells(board)[cell("F5")]["aria-label"]
    assert label == ("F5: rotes Kreuz, freigerubbelt: Schlüssel rot" if lang == "de" else "F5: red cross, scratched: red key")
    e9 = cells(board)[cell("E9")]["aria-label"]
    assert e9 == ("E9: Wand: rechts, noch nicht gerubbelt" if lang == "de" else "E9: wall: right, not scratched yet")
    # the map is a group of named cells (an image would hide them), its texts hidden behind the names
    assert re.search(r'<svg [^>]*role="group" aria-label="(Deine Schatzkarte|Your treasure map)"', board)
    assert read_texts(board[board.index("sp-map-main"):]) == []
    assert read_texts('<svg><text>B</text><g aria-hidden="true"><text>1</text></g></svg>') == ["B"]  # control


def read_texts(html: str) -> list:
    """The texts of <text> elements a screen reader would read (no aria-hidden on them or above)."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack, self.out = [], []

        def handle_starttag(self, tag, attrs):
            hidden = dict(attrs).get("aria-hidden") == "true" or bool(self.stack and self.stack[-1][1])
            self.stack.append((tag, hidden))

        def handle_startendtag(self, tag, attrs):
            pass

        def handle_endtag(self, tag):
            while self.stack and self.stack.pop()[0] != tag:
                pass

        def handle_data(self, data):
            if self.stack and self.stack[-1][0] == "text" and not self.stack[-1][1] and data.strip():
                self.out.append(data.strip())

    p = P()
    p.feed(html)
    return p.out


def test_the_cell_check_catches_a_missing_name_and_a_wrong_wall():
    """Negative controls: a board with one cell unnamed, one whose name hides its wall, and one
    that does not say a chest's colour each fail the check."""
    s = explored()
    roll(s, "I2", "L3", "O4", "pickaxe")
    ctx = context(s, "de")
    board, m = V.board(ctx), ctx.observation["maps"][0]
    e9 = cells(board)[cell("E9")]["aria-label"]
    assert cell_problems(board.replace(f'aria-label="{e9}"', "", 1), m, "de")
    assert cell_problems(board.replace(e9, "E9: noch nicht gerubbelt"), m, "de")
    a1 = cells(board)[0]["aria-label"]
    assert cell_problems(board.replace(a1, a1.replace("blau", "")), m, "de")


def test_a_seeded_game_names_every_cell_in_every_phase():
    """Seat 0 over a seeded game (random legal moves): in every phase and both languages the cell
    names say what the observed map holds; fitting cells say "passt"/"fits", the previewed ones
    "Vorschau"/"preview" and are the pressed ones, the next cells to scratch say so."""
    from spieltisch.core.rng import Rng

    m = random_match(3, 2, 0, 1)  # the maps dealt, the first roll thrown
    st, rng = m.state, Rng(4)
    phases, decisions = set(), 0
    while not st.is_terminal() and decisions < 80:
        if st.current_player() < 0:
            st.apply_action(st.sample_chance(rng))
            continue
        if st.current_player() != 0:
            la = st.legal_actions()
            st.apply_action(la[rng.below(len(la))])
            continue
        decisions += 1
        lang = ("de", "en")[decisions % 2]
        ctx = context(st, lang)
        board = V.board(ctx)
        assert cell_problems(board, ctx.observation["maps"][0], lang) == [], decisions
        phase = ctx.observation["phase"]
        phases.add(phase)
        got = cells(board)
        if phase == "place":
            fits = {c for a in ctx.legal for c in a.cells}
            assert {c for c, a in got.items() if "data-act" in a} == fits
            assert all(a["aria-label"].endswith(("passt", "fits")) for c, a in got.items() if c in fits)
            V.click(ctx, f"c{min(fits)}")
            now = cells(V.board(ctx))
            chosen = set(ctx.ui["preview"])
            assert {c for c, a in now.items() if a.get("aria-pressed") == "true"} == chosen
            assert all(now[c]["aria-label"].endswith(("Vorschau", "preview")) for c in chosen)
            assert all(now[c].get("aria-pressed") == "false" for c in fits - chosen)
        if phase == "scratch":
            nxt = {a.cell for a in ctx.legal}
            assert {c for c, a in got.items() if "data-act" in a} == nxt
            assert all(got[c]["aria-label"].endswith(("als Nächstes rubbeln möglich", "can be scratched next"))
                       for c in nxt)
        st.apply_action(ctx.legal[rng.below(len(ctx.legal))])
    assert {"choose", "take", "place", "scratch"} <= phases


def test_other_maps_are_one_picture_with_a_summary():
    """Another player's small map is one image whose name says their points, keys, open chests
    and cells scratched; its cells are not read one by one."""
    s = explored()
    s.keys[1] = "BY"
    s.opened[1] = ("yellow",)
    s.scratched[1] = 1 << cell("J10")
    roll(s, "I2", "L3", "O4", "pickaxe")
    for lang, words in (("de", ["Ben: 6 Punkte", "Schlüssel: blau, gelb", "offene Truhen: gelb",
                                "1 von 100 Feldern freigerubbelt"]),
                        ("en", ["Ben: 6 points", "keys: blue, yellow", "open chests: yellow",
                                "1 of 100 cells scratched"])):
        extra = V.extra(context(s, lang))
        other = extra[extra.index("sp-other-map"):]
        tags = re.findall(r"<svg [^>]*>", other)
        label = re.search(r'role="img" aria-label="([^"]*)"', tags[0])[1]
        assert all(w in label for w in words), label
        assert 'class="sp-cell"' in other and "role=\"img\" aria-label=\"J10" not in other


def mark_shapes(board: str) -> dict:
    """mark kind -> what tells it apart without colour: (dashed, filled, dot)."""
    out = {}
    for tag, rest in re.findall(r'(<rect [^>]*class="sp-mark"[^>]*/>)((?:<circle [^>]*class="sp-mark-dot"[^>]*/>)?)',
                                board):
        kind = re.search(r'data-mark="(\w+)"', tag)[1]
        out.setdefault(kind, set()).add(("stroke-dasharray" in tag, 'fill="none"' not in tag, bool(rest)))
    return out


def test_marks_differ_in_shape_not_only_in_colour_and_their_outlines_are_declared():
    """"passt" dashed, "Vorschau" filled with a solid outline, "als Nächstes" with a dot: no two
    kinds of mark share a shape (negative control: marks told apart by colour alone collide), and
    every outline colour is a declared marker pair of 3:1 on the cells it lies on."""
    s = explored()
    roll(s, "I2", "L3", "O4", "pickaxe")
    s.apply_action(Choose(2, 0, False))  # the square first
    ui = {}
    ctx = context(s, "de", ui)
    first = min(c for a in ctx.legal for c in a.cells)
    V.click(ctx, f"c{first}")
    placing = V.board(context(s, "de", ui))
    # the square G7 H7 G8 H8: G7 and G8 touch the path, so the order is the player's choice
    s.apply_action(Place(tuple(sorted(cell(n) for n in ("G7", "H7", "G8", "H8")))))
    assert s.phase == "scratch" and len(s.legal_actions()) == 2
    scratching = V.board(context(s, "de"))
    shapes = {**mark_shapes(placing), **mark_shapes(scratching)}
    assert {"fit", "preview", "next"} <= set(shapes)
    assert all(len(v) == 1 for v in shapes.values())  # one shape per kind
    seen = {}
    for kind, (shape,) in shapes.items():
        if kind in ("preview", "placed"):  # the same picture: a placed motif is the preview laid down
            kind = "preview"
        assert seen.setdefault(shape, kind) == kind, (shape, seen)
    colour_only = '<rect x="1" class="sp-mark" data-mark="fit" fill="none" stroke="#f00"/>' \
                  '<rect x="1" class="sp-mark" data-mark="next" fill="none" stroke="#0f0"/>'
    collide = mark_shapes(colour_only)
    assert collide["fit"] == collide["next"]
    declared = {(fg, bg) for fg, bg, use in V.colours if use == "marker"}
    inks = set()
    for board in (placing, scratching):
        inks |= set(re.findall(r'<rect [^>]*stroke="(#\w+)"[^>]*class="sp-mark"', board))
    assert len(inks) >= 2
    for ink in inks:
        for bg in (view.SILVER, view.ROCK):
            assert (ink, bg) in declared
            assert contrast(ink, bg) >= CONTRAST_NEEDED["marker"]


def test_chests_and_keys_say_their_colour_in_words_and_in_ink_that_can_be_read():
    """Red and green chests differ little in brightness: each chest and each found key carries its
    colour as a word, in a text colour declared with 4.5:1 on that chest."""
    s = explored()
    roll(s, "I2", "L3", "O4", "pickaxe")
    declared = {(fg, bg) for fg, bg, use in V.colours if use == "text"}
    for lang in ("de", "en"):
        board = V.board(context(s, lang))
        chests = re.findall(r'data-colour="(\w+)"/><text [^>]*fill="(#\w+)">([^<]*)</text>', board)
        assert sorted(c for c, _, _ in chests) == sorted(COLOUR_NAMES)
        for colour, ink, word in chests:
            assert word == COLOUR_NAMES[colour][0 if lang == "de" else 1]
            assert (ink, view.CHEST[colour]) in declared
        key = re.search(r'data-found="R">⚷</text><text [^>]*>([^<]*)</text>', board)
        assert key and key[1] == ("rot" if lang == "de" else "red")


def test_the_chosen_die_is_pressed_and_place_takes_the_focus():
    s = explored()
    roll(s, "I2", "I3", "O4", "pickaxe")
    ui = {}
    V.click(context(s, "en", ui), "d1")
    board = V.board(context(s, "en", ui))
    dice = dict(re.findall(r'data-act="(d\d)"[^>]*aria-pressed="(\w+)"', board))
    assert dice == {"d0": "false", "d1": "true", "d2": "false", "d3": "false"}
    assert re.search(r'data-act="d1"[^>]*aria-label="3-line, 1. first \(chosen', board)
    assert "data-act='k3' role='button' aria-label='combine: pickaxe with 3-line'" in board
    s.apply_action(V.click(context(s, "en", ui), "d0"))
    ui = {}
    ctx = context(s, "en", ui)
    assert [b for b in V.buttons(ctx) if b.get("focus")] == []  # nothing to place before a preview
    V.click(ctx, f"c{min(c for a in ctx.legal for c in a.cells)}")
    focus = [b["token"] for b in V.buttons(context(s, "en", ui)) if b.get("focus")]
    assert focus == ["confirm"]


# --- the How-to-play box, option by option, against the engine -----------------------------------------
def box(game, lang):
    b = V.how_to(game, lang)
    return b["goal"] + " " + " ".join(b["turn"])


@pytest.mark.parametrize("reflect", [False, True])
def test_howto_reflect_says_what_the_engine_allows(reflect):
    """Default: turning, no mirror images; ``reflect``: mirror images too. The engine agrees: the S
    turned over (a Z) is a legal placement only with ``reflect``."""
    game = ScratchIsland(2, {"reflect": reflect})
    de, en = box(game, "de"), box(game, "en")
    assert ("Spiegeln auch" in de) == reflect and ("Spiegeln nicht" in de) == (not reflect)
    assert ("so is mirroring it" in en) == reflect and ("mirroring it is not" in en) == (not reflect)
    assert box(ScratchIsland(2, {"reflect": not reflect}), "de") != de
    s = position(2, reflect=reflect)
    roll(s, "mono", "mono", "S4", "pickaxe")
    s.apply_action(Choose(2, 0, False))
    z = tuple(sorted(cell(n) for n in ("E9", "F9", "F10", "G10")))
    s_shape = tuple(sorted(cell(n) for n in ("F9", "G9", "E10", "F10")))
    legal = [a.cells for a in s.legal_actions()]
    assert s_shape in legal and (z in legal) == reflect


@pytest.mark.parametrize("players", [2, 3, 4])
def test_howto_dice_per_round_as_the_engine_rolls_them(players):
    """The box counts the dice thrown and the dice left over after the roller's 2 and one each for
    the others; the engine's round leaves exactly that many free."""
    game = ScratchIsland(players)
    de, en = box(game, "de"), box(game, "en")
    dice = int(re.search(r"wirft alle (\d) Würfel", de)[1])
    assert f"throws all {dice} dice" in en
    left = re.search(r"(\d) Würfel bleib", de)
    left = int(left[1]) if left else 0
    assert (f" {left} " in en and "unused" in en) if left else ("all the dice" in en and "alle Würfel vergeben" in de)
    s = position(players)
    free = None
    while s.round == 1 and not s.is_terminal():
        if s.current_player() < 0:
            s.apply_action(s.chance_outcomes()[0][0])
            continue
        if s.phase == "take":  # what this taker leaves
            free = s.dice_state.count("free") - 1
        dice_rolled = len(s.dice)
        s.apply_action(s.legal_actions()[0])
    assert dice_rolled == dice and free == left


@pytest.mark.parametrize("end", ["all_rolled", "this_roll"])
def test_howto_end_as_the_engine_ends(end):
    """Option ``end`` (D9): "bis alle gleich oft gewürfelt haben" – three players, seat 0 opens its
    fourth chest in the first roll: the game ends when every seat has rolled once; "aus diesem Wurf":
    it ends with that roll. "Runde" is one roll here as in the status line (no second meaning)."""
    game = ScratchIsland(3, {"end": end})
    de, en = box(game, "de"), box(game, "en")
    all_rolled = end == "all_rolled"
    assert ("bis alle gleich oft gewürfelt haben" in de) == all_rolled
    assert ("until everyone has rolled equally often" in en) == all_rolled
    assert ("ihren Würfel aus diesem Wurf" in de) == (not all_rolled)
    assert "Runde ist abgeschlossen" not in de and "round is finished" not in en
    s = position(3, end=end)
    s.keys[0] = "BGRY"
    s.opened[0] = ("blue", "red", "yellow")
    s.scratched[0] = sum(1 << c for c in range(91, 96))
    roll(s, "mono", "I2", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(Place((cell("A10"),)))
    assert s.end_triggered
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0] if s.current_player() >= 0 else s.chance_outcomes()[0][0])
    assert s.current_player() == TERMINAL
    assert (len(set(s.rolls)) == 1) == all_rolled and (s.round == 1) == (not all_rolled)


@pytest.mark.parametrize("rounds", [0, 2])
def test_howto_rounds_cap_as_the_engine_stops(rounds):
    """Option ``rounds``: the box names the last round, counted as the status line counts
    ("Runde 2 · … · letzte Runde"), and a seeded game stops there; without a cap the box says
    nothing of it."""
    game = ScratchIsland(2, {"rounds": rounds})
    de, en = box(game, "de"), box(game, "en")
    if not rounds:
        assert "spätestens" not in de and "at the latest" not in en
        return
    assert f"spätestens nach Runde {rounds}." in de and f"after round {rounds} at the latest" in en
    from spieltisch.core.match import Match
    from spieltisch.core.rng import Rng

    m = Match("scratch-island", 2, {"rounds": rounds}, 7)
    rng = Rng(1)
    statuses = []
    while not m.is_terminal():
        if m.current_player() < 0:
            m.step_chance()
            continue
        st = m.state
        statuses.append(V.status(context(st, "de"), st.current_player()))
        la = m.legal_actions()
        m.apply(la[rng.below(len(la))])
    assert m.state.round == rounds
    assert statuses[-1].startswith(f"Runde {rounds} ") and statuses[-1].endswith("letzte Runde")


def test_howto_facts_the_engine_holds():
    """The box's numbers and claims, asked of the engine: the most points, crosses, keys and snakes
    of a dealt map, nothing under a silver cell seen by its owner ("auch du nicht" / "not even you"),
    a fitting die must be placed, the first motif covers the boat, the tie-break."""
    game = ScratchIsland(2)
    de, en = box(game, "de"), box(game, "en")
    assert "not even you" in en and "you neither" not in en and "auch du nicht" in de
    m = random_match(5, 2, 0, 1)
    st = m.state
    lay, content = st.layouts[0], st.content[0]
    most = sum(p for _, p in lay.chests.values()) + sum(t["points"] for t in TREASURES)
    assert f"Höchstens {most} Punkte" in de and f"At most {most} points" in en
    keys = sum(content.count(KEY_CHAR[c]) for c in KEY_CHAR)
    assert f"Unter {keys} der {len(lay.crosses)} roten Kreuze" in de
    assert f"under {keys} of the {len(lay.crosses)} red crosses" in en
    assert f"liegen {content.count('S')} Schlangen" in de and f"hides {content.count('S')} snakes" in en
    assert all(f == "?" for f in "".join(st.observation(0)["maps"][0]["found"]))  # the owner sees nothing
    assert any(ch != "." and ch != "-" for ch in content)
    s = position(2)
    roll(s, "I2", "L3", "O4", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    assert s.legal_actions() and all(isinstance(a, Place) and cell("F10") in a.cells for a in s.legal_actions())
    assert "musst du es platzieren" in de and "you must place it" in en
    s.opened = [("blue", "red", "green", "yellow")] * 2
    s.four_chests = [1, 0]
    assert s.scores()[0] == s.scores()[1] and s.winners() == [1]
    assert "zuerst alle 4 Truhen" in de and "first to open all 4 chests" in en


def test_the_board_hints_name_the_marks_by_their_shape():
    """The hints and the box say "gestrichelt"/"dashed" and "Punkt"/"dot", the shapes the marks
    have, never a colour as the only sign ("orange umrandet", "grün markiert")."""
    game = ScratchIsland(2)
    for lang, words, colours in (("de", ["gestrichelt", "Punkt"], ["orange", "grün markiert"]),
                                 ("en", ["dashed", "dot"], ["orange", "marked green"])):
        text = box(game, lang)
        assert all(w in text for w in words) and not any(c in text for c in colours)
    s = position(2)
    roll(s, "I2", "L3", "O4", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    hint = re.search(r"class='sp-dice-hint'[^>]*>([^<]*)<", V.board(context(s, "de")))[1]
    assert "Gestrichelt" in hint and "orange" not in hint.lower()
