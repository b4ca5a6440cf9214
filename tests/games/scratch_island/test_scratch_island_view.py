"""The Scratch Island view on the shared front-end (CPython): board tokens are legal moves, the
preview and rotation live in the view's click memory, refusals come in both languages, and nothing
under an unscratched cell reaches any viewer's screen (with a leaky view as the negative control)."""

from __future__ import annotations

import json
import re

import pytest

from spieltisch.core.rng import Rng
from spieltisch.games.scratch_island import view
from spieltisch.games.scratch_island.engine import CELLS, Place, Scratch
from spieltisch.ui.table import Table

SEED = 5


def free_dice(board: str) -> list:
    """The tokens of the dice the board offers that are not chosen yet."""
    tags = re.findall(r'<svg[^>]*data-act="d\d+"[^>]*>', board)
    return [re.search(r'data-act="(d\d+)"', tag)[1] for tag in tags if "data-picked" not in tag]


def next_click(s: dict) -> str:
    """What a player clicks next: "place" after a preview, else the first cell the map offers, else
    the first die not chosen yet, else the first button."""
    tokens = [b["token"] for b in s["buttons"]]
    if "confirm" in tokens:
        return "confirm"
    cells = re.findall(r'data-act="(c\d+)"', s["board"])
    return (cells or free_dice(s["board"]) or tokens)[0]


def to_decision(table: Table, phase: str, limit: int = 60) -> None:
    """Play (first die / first fitting cell + place) until the human must decide in ``phase``."""
    for _ in range(limit):
        table.finish()
        assert not table.is_over()
        if table.session.state.phase == phase:
            return
        table.click(next_click(table.state()))
    raise AssertionError(f"no {phase} decision")


def test_first_placement_preview_rotate_and_place_scratch_the_map():
    t = Table("scratch-island", seed=SEED)
    to_decision(t, "place")
    ctx = t.context()
    s = t.state()
    tokens = set(re.findall(r'data-act="(c\d+)"', s["board"]))
    # every clickable cell lies in a legal placement, and every legal placement's cells are clickable
    assert tokens == {f"c{c}" for a in ctx.legal for c in a.cells}
    assert "confirm" not in [b["token"] for b in s["buttons"]]  # nothing to commit before a preview
    first = sorted(tokens)[0]
    t.click(first)
    assert t.message["kind"] == "info" and t.step_id == s["step"]  # a preview, no move yet
    preview = t.ui["preview"]
    assert Place(tuple(preview)) in ctx.legal and int(first[1:]) in preview
    s2 = t.state()
    # the preview is drawn filled over exactly its cells, and they (only they) are pressed
    assert s2["board"].count(f'data-mark="{view.PREVIEW}"') == len(preview)
    assert s["board"].count(f'data-mark="{view.PREVIEW}"') == 0
    assert sorted(int(c) for c in re.findall(r'data-act="c(\d+)"[^>]*aria-pressed="true"', s2["board"])) == preview
    assert [b["token"] for b in s2["buttons"]][0] == "confirm"
    if "rotate" in [b["token"] for b in s2["buttons"]]:
        t.click("rotate")
        assert t.ui["rot"] == 1 and (t.ui["preview"] is None or Place(tuple(t.ui["preview"])) in ctx.legal)
        if t.ui["preview"] is None:
            t.click("rotate")  # back to a rotation that fits here (at most 4 turns)
            for _ in range(3):
                if t.ui["preview"]:
                    break
                t.click("rotate")
    placed = tuple(t.ui["preview"])
    before = bin(t.session.state.scratched[0]).count("1")
    t.click("confirm")
    st = t.session.state
    assert t.session.match.actions[-1] == Place(placed)
    assert bin(st.scratched[0]).count("1") > before  # the boat at least is scratched
    board = t.state()["board"]
    assert 'data-scratched="1"' in board and t.ui == {}  # a move empties the click memory


def test_scratch_order_tokens_are_the_next_cells():
    t = Table("scratch-island", seed=SEED)
    for _ in range(20):
        to_decision(t, "place")
        s = t.state()
        t.click(re.findall(r'data-act="(c\d+)"', s["board"])[-1])
        t.click("confirm")
        t.finish()
        if t.session.state.phase == "scratch" and t.session.current_player() == 0:
            break
    else:
        pytest.skip("no choice of scratch order came up")
    ctx = t.context()
    board = t.state()["board"]
    assert set(re.findall(r'data-act="(c\d+)"', board)) == {f"c{a.cell}" for a in ctx.legal}
    other = next(c for c in t.session.state.placement if Scratch(c) not in ctx.legal) \
        if len(ctx.legal) < len(t.session.state.placement) else None
    if other is not None:
        t.click(f"c{other}")
        assert t.message["kind"] == "refused"
    t.click(f"c{ctx.legal[0].cell}")
    assert t.session.match.actions[-1] == ctx.legal[0] and t.session.state.scratched[0] >> ctx.legal[0].cell & 1


def test_a_cell_where_the_motif_does_not_fit_is_refused_in_both_languages():
    t = Table("scratch-island", seed=SEED)
    to_decision(t, "place")
    fits = {c for a in t.context().legal for c in a.cells}
    far = next(c for c in range(CELLS) if c not in fits and not t.session.state.scratched[0] >> c & 1)
    snap = t.session.state.snapshot()
    t.click(f"c{far}")
    assert t.message["kind"] == "refused"
    de, en = t.message["text"]["de"], t.message["text"]["en"]
    assert de.startswith("Nicht erlaubt:") and "Regel:" in de
    assert en.startswith("Not allowed:") and "rule:" in en
    assert t.session.state.snapshot() == snap and "preview" not in t.ui


def test_the_roller_chooses_two_dice_by_clicking_them_in_order():
    t = Table("scratch-island", seed=SEED)
    to_decision(t, "choose")
    ctx = t.context()
    s = t.state()
    dice = re.findall(r'data-act="(d\d+)"', s["board"])
    assert dice and all(t.session.state.dice_state[int(d[1:])] == "free" for d in dice)
    t.click(dice[1])
    assert t.message["kind"] == "info" and t.ui["dice"] == [int(dice[1][1:])]
    t.click(dice[0])
    chosen = [a for a in t.session.match.actions][-1]
    assert chosen == (int(dice[1][1:]), int(dice[0][1:]), False) and chosen in ctx.legal


def hidden_invariance(table: Table, leak=None, draws: int = 4) -> bool:
    """Whether ``table.state()`` (JSON) stays the same when only hidden map content is dealt afresh
    (``resample_hidden``) for the table's viewer."""
    if leak is not None:
        table.view = leak
    base = table.state_json()
    match = table.session.match
    true_state = match.state
    rng = Rng(11)
    same = True
    try:
        for _ in range(draws):
            match.state = true_state.resample_hidden(table.viewer(), rng)
            assert match.state.content != true_state.content  # the hidden content did change
            table._advice_key = None  # the advisor asks again
            same &= table.state_json() == base
    finally:
        match.state = true_state
    return same


def test_nothing_under_an_unscratched_cell_reaches_any_viewer_and_a_leaky_view_is_caught():
    """For seat 0, seat 1 and the spectator (only bots): the whole JSON state the front-end gets —
    board, buttons, advisor, scores, extra, log — is identical on every redraw of the hidden content.
    Negative control: a view that writes the true map into the board (through the bound refusal
    method, the one path to the state a Context carries) fails the same check."""
    seatings = {0: ["human", "strong"], 1: ["strong", "human"], None: ["strong", "strong"]}
    for viewer, seats in seatings.items():
        t = Table("scratch-island", seats=seats, seed=SEED, advisor=True)
        for _ in range(3):  # a few turns in, with scratched and unscratched cells on the maps
            if viewer is None:
                while not t.is_over() and (t.session.state.round < 4 or t.session.state.phase != "place"):
                    t.step()
            else:
                to_decision(t, "place")
                t.click(re.findall(r'data-act="(c\d+)"', t.state()["board"])[0])
                t.click("confirm")
                t.finish()
        assert t.viewer() == viewer and not t.is_over()
        assert any(t.session.state.scratched) and t.session.state.content[0]
        assert hidden_invariance(t), viewer
        assert json.loads(t.state_json())["board"].count('data-scratched="1"') > 0

        class Leaky(view.ScratchIslandView):
            def board(self, ctx):
                return super().board(ctx) + f"<!--{ctx.refusal.__self__.content[0]}-->"

        assert not hidden_invariance(t, Leaky()), viewer


def test_the_engines_shortcut_for_what_a_chance_event_shows_agrees_with_the_observations():
    """``outcome_visible`` spares the front-end comparing 4096 booklet pages: a page is public (the
    maps differ page by page for every viewer), where an item is hidden nobody sees (every other
    cell leaves the same observation)."""
    from spieltisch.games.scratch_island.engine import Booklet, ScratchIsland
    from spieltisch.ui import session

    st = ScratchIsland(2).new_initial_state()
    for viewer in (0, 1, None):
        assert st.outcome_visible(Booklet(7), viewer) is True
        seen = set()
        for page in range(0, 4096, 97):
            after = st.clone()
            after.apply_action(Booklet(page))
            seen.add(json.dumps(after.observation(viewer), sort_keys=True))
        assert len(seen) == len(range(0, 4096, 97))
    st.apply_action(Booklet(7))
    rng = Rng(3)
    for _ in range(5):  # keys, then snakes
        hide = st.sample_chance(rng)
        for viewer in (0, 1, None):
            assert st.outcome_visible(hide, viewer) is False

            class Compare(type(st)):  # the same state without the shortcut: compare observations
                def outcome_visible(self, action, viewer):
                    return None

            plain = st.clone()
            plain.__class__ = Compare
            assert session.action_visible(plain, hide, viewer) is False
        st.apply_action(hide)


def test_the_log_names_the_dice_of_the_round_and_a_die_that_fits_nowhere():
    """A move that ends the round is explained with that round's dice (the next round's are not
    rolled yet): "takes 4-line – fits nowhere: 4-line", never "?"."""
    t = Table("scratch-island", seed=6)
    for _ in range(400):
        t.finish()
        if t.is_over():
            break
        t.click(next_click(t.state()))
    assert t.is_over()
    de = [e["texts"]["0"]["de"] for e in t.log]  # the log as the player (seat 0) reads it
    en = [e["texts"]["0"]["en"] for e in t.log]
    assert not [x for x in de + en if "?" in x]
    nowhere = [i for i, x in enumerate(en) if "fits nowhere: " in x]
    assert nowhere and all("passt nirgends: " in de[i] for i in nowhere)


# --- choosing dice on the dice themselves -----------------------------------------------------------------
def context(state, lang="de", ui=None):
    """The roller's screen of a hand-built position (what the table hands the view)."""
    from spieltisch.core.view import Context

    p = state.current_player()
    return Context(state.game, state.observation(p), p, lang, list(state.legal_actions()),
                   ["Ada", "Ben", "Cem", "Dana"][:state.num_players],
                   {} if ui is None else ui, refusal=state.refusal)


def rolled(*faces):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from si_helpers import position, roll

    s = position(2)
    roll(s, *faces)
    return s


def roles(board: str) -> list:
    """(die, the word under it) for every die that says what it is for."""
    return re.findall(r"data-die='(\d)'(?:(?!data-die=).)*?<b class='sp-die-role'>([^<]*)<", board)


def test_the_roll_offers_no_pair_buttons_the_dice_say_their_order():
    """A roll opens with the dice only (no buttons for the 12 ordered pairs and the combinations):
    the first die clicked is used first ("1. zuerst" / "1. first" on it), the second click chooses
    the die used then; a chosen die clicked again is put back."""
    from spieltisch.games.scratch_island.engine import Choose

    s = rolled("I2", "L3", "T4", "O4")
    v = view.ScratchIslandView()
    ui = {}
    assert v.buttons(context(s, ui=ui)) == []
    board = v.board(context(s, ui=ui))
    assert free_dice(board) == ["d0", "d1", "d2", "d3"] and "sp-die-role" not in board
    assert v.click(context(s, ui=ui), "d2")["de"].startswith("1. zuerst: 4er-T")
    for lang, first in (("de", "1. zuerst"), ("en", "1. first")):
        board = v.board(context(s, lang, ui))
        assert free_dice(board) == ["d0", "d1", "d3"]
        assert roles(board) == [("2", first)]
        assert 'data-act="k' not in board  # no pickaxe in this roll: nothing to combine
    assert v.click(context(s, ui=ui), "d2")["en"] == "Choice undone." and ui["dice"] == []
    v.click(context(s, ui=ui), "d3")
    assert v.click(context(s, ui=ui), "d0") == Choose(3, 0, False)


@pytest.mark.parametrize("first", ["d1", "d3"])
def test_a_pickaxe_and_a_motif_are_combined_on_the_dice(first):
    """"Wenn während Deines Zugs die Spitzhacke zusammen mit einem anderen Motiv geworfen wird, darfst
    Du die beiden Würfel kombinieren": with the 3-line (die 2) or the pickaxe (die 4) clicked first,
    the other one carries "kombinieren" / "combine"; clicking it combines them, whichever came first.
    A die that cannot be combined has no such word, and its token is refused with the rule."""
    from spieltisch.core.errors import IllegalActionError
    from spieltisch.games.scratch_island.engine import Choose

    s = rolled("I2", "I3", "O4", "pickaxe")
    v = view.ScratchIslandView()
    ui = {}
    v.click(context(s, ui=ui), first)
    # the 3-line first: the pickaxe combines with it; the pickaxe first: every motif
    chips = ["k3"] if first == "d1" else ["k0", "k1", "k2"]
    for lang, word in (("de", "kombinieren"), ("en", "combine")):
        board = v.board(context(s, lang, ui))
        assert re.findall(r"data-act='(k\d+)'[^>]*>([^<]*)<", board) == [(k, word) for k in chips]
    if first == "d1":
        with pytest.raises(IllegalActionError) as e:
            v.click(context(s, ui=ui), "k2")  # the 2×2 square with the 3-line: no pickaxe
        assert e.value.rule_de == "Spitzhacke mit Motiv"
    assert v.click(context(s, ui=ui), "k3" if first == "d1" else "k1") == Choose(1, 3, True)


def test_the_dice_in_use_say_now_and_then():
    s = rolled("I2", "I3", "O4", "pickaxe")
    from spieltisch.games.scratch_island.engine import Choose

    s.apply_action(Choose(1, 0, False))
    board = view.ScratchIslandView().board(context(s, "en"))
    assert roles(board) == [("0", "2. then"), ("1", "now")]


# --- the how-to box ------------------------------------------------------------------------------------------
HOWTO_RULES = {
    # rule: (German words, English words) the box must contain
    "path from the boat": (["Weg", "Boot", "an deinen Weg grenzen"], ["path", "boat", "touch your path"]),
    "the roller takes two, in order": (["2 Würfel", "1. zuerst", "2. dann"], ["2 dice", "1. first", "2. then"]),
    "the others take one each": (["übrigen Würfel", "Uhrzeigersinn"], ["remaining dice", "clockwise"]),
    "whole or not at all": (["ganz oder gar nicht"], ["whole or not at all"]),
    "rocks and walls block": (["kein Fels", "keine Wand"], ["no rock", "no wall"]),
    "turning": (["Drehen ist erlaubt", "„drehen“"], ["Turning it is allowed", "“rotate”"]),
    "placing": (["„platzieren“", "Vorschau"], ["“place”", "preview"]),
    "no fit": (["nirgends", "verbraucht"], ["fits nowhere", "used up"]),
    "one cell at a time, your order": (["Feld für Feld", "Reihenfolge"], ["cell by cell", "order"]),
    "snake": (["Schlange", "sofort", "2. Würfel verfallen", "vorher gefunden"],
              ["snake", "at once", "2nd die are lost", "found before counts"]),
    "pickaxe alone": (["Spitzhacke allein", "auch einen Fels"], ["Pickaxe alone", "even a rock"]),
    "pickaxe with a motif": (["Spitzhacke mit einem Motiv", "„kombinieren“", "ein Fels sein"],
                             ["Pickaxe with a motif", "“combine”", "may be a rock"]),
    "keys and chests": (["roten Kreuze", "Schlüssel ihrer Farbe"], ["red crosses", "key of its colour"]),
    "treasure first only": (["Schatzleiste", "als Erste", "0 (✗)"], ["treasure track", "first", "0 (✗)"]),
    "points": (["Punkte der offenen Truhen", "Punkte der Schatzarten", "30 Punkte"],
               ["points of the open chests", "points of the treasure kinds", "30 points"]),
    "tie-break": (["Gleichstand", "zuerst alle 4 Truhen"], ["tie", "first to open all 4 chests"]),
}
END_RULES = {"all_rolled": ("bis alle gleich oft gewürfelt haben", "until everyone has rolled equally often"),
             "this_roll": ("ihren Würfel aus diesem Wurf", "their die of this roll")}


@pytest.mark.parametrize("end", ["all_rolled", "this_roll"])
def test_the_how_to_box_states_every_rule_in_both_languages(end):
    """A student who never saw the rulebook plays from this box: every rule's key words are in it,
    in German and in English, and the end as the table's option has it (D9)."""
    from spieltisch.games.scratch_island.engine import ScratchIsland

    game = ScratchIsland(2, {"end": end})
    v = view.ScratchIslandView()
    for i, lang in enumerate(("de", "en")):
        box = v.how_to(game, lang)
        text = box["goal"] + " " + " ".join(box["turn"])
        missing = [(rule, w) for rule, words in HOWTO_RULES.items() for w in words[i] if w not in text]
        assert not missing, (lang, missing)
        assert END_RULES[end][i] in text and END_RULES["this_roll" if end == "all_rolled" else "all_rolled"][i] not in text
        assert "{end}" not in text and ("4. Truhe öffnet", "opens their 4th chest")[i] in text
    capped = v.how_to(ScratchIsland(2, {"rounds": 8}), "de")
    assert "spätestens nach Runde 8" in " ".join(capped["turn"])


def test_the_box_uses_the_words_of_the_board():
    """The words on the dice, the buttons and the combine mark are the box's words, in both languages."""
    t = Table("scratch-island", seed=SEED)
    to_decision(t, "place")
    t.click(re.findall(r'data-act="(c\d+)"', t.state()["board"])[0])  # a preview: "place" and "rotate"
    for i, lang in enumerate(("de", "en")):
        t.set_lang(lang)
        text = " ".join(t.state()["howto"]["turn"])
        for words in (view.ROLE["first"], view.ROLE["then"], view.COMBINE):
            assert words[i] in text
        labels = [b["label"].split(" ")[0] for b in t.state()["buttons"]]
        assert labels[:2] == [("platzieren", "place")[i], ("drehen", "rotate")[i]]
        assert all(f"„{w}“" in text if lang == "de" else f"“{w}”" in text for w in labels[:2])


def test_the_log_says_the_second_die_is_lost_after_a_snake():
    """The roller's 3-line meets the snake under F8: the log names the snake and the lost 2-line."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from si_helpers import cell, position, roll

    from spieltisch.games.scratch_island.engine import Choose

    s = position(2, contents={0: {"F8": "S"}})
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I3", "I2", "O4", "I4")
    s.apply_action(Choose(0, 1, False))
    before = {lang: context(s, lang) for lang in ("de", "en")}
    action = Place((cell("F7"), cell("F8"), cell("F9")))
    s.apply_action(action)
    after = {lang: context(s, lang).replace(observation=s.observation(0)) for lang in ("de", "en")}
    v = view.ScratchIslandView()
    assert v.explain(before["de"], action, after["de"]) == (
        "platziert 3er-Linie auf F7 F8 F9: F9 leer, F8 Schlange – Zug vorbei – 2. Würfel verfällt: 2er-Linie.")
    assert v.explain(before["en"], action, after["en"]) == (
        "places 3-line on F7 F8 F9: F9 empty, F8 snake – turn over – 2nd die lost: 2-line.")


def test_the_status_says_how_many_rounds_are_left_after_a_fourth_chest():
    """D9: after the fourth chest the status counts the rounds until everyone has rolled equally
    often, and says "last round" in the last one; nothing of it before."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from si_helpers import cell, position, roll

    from spieltisch.games.scratch_island.engine import Choose

    s = position(3)
    s.keys[0] = "BGRY"
    s.opened[0] = ("blue", "red", "yellow")
    s.scratched[0] = sum(1 << c for c in range(91, 96))
    v = view.ScratchIslandView()

    def status(lang):
        ctx = context(s, lang) if s.current_player() >= 0 else None
        return v.status(ctx, s.current_player()) if ctx else None

    roll(s, "mono", "I2", "pickaxe", "pickaxe")
    assert "Truhe" not in status("de") and "Runde 1" in status("de")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(Place((cell("A10"),)))
    assert status("de").endswith("4. Truhe offen: noch 2 Runden, bis alle gleich oft gewürfelt haben")
    assert status("en").endswith("4th chest open: 2 more rounds until everyone has rolled equally often")
    while s.round < 3:
        s.apply_action(s.legal_actions()[0] if s.current_player() >= 0 else s.chance_outcomes()[0][0])
    while s.current_player() < 0:
        s.apply_action(s.chance_outcomes()[0][0])
    assert status("de").endswith("letzte Runde") and status("en").endswith("last round")
