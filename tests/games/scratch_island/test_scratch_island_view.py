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


def to_decision(table: Table, phase: str, limit: int = 60) -> None:
    """Play (first button / first fitting cell + place) until the human must decide in ``phase``."""
    for _ in range(limit):
        table.finish()
        assert not table.is_over()
        if table.session.state.phase == phase:
            return
        s = table.state()
        tokens = [b["token"] for b in s["buttons"]]
        if "confirm" in tokens:
            table.click("confirm")
        elif table.session.state.phase == "place":
            table.click(re.findall(r'data-act="(c\d+)"', s["board"])[0])
        else:
            table.click(tokens[0])
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
    # the preview is drawn filled over exactly its cells
    assert s2["board"].count(f'fill="{view.PREVIEW}"') == len(preview)
    assert s["board"].count(f'fill="{view.PREVIEW}"') == 0
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
        s = t.state()
        tokens = [b["token"] for b in s["buttons"]]
        cells = re.findall(r'data-act="(c\d+)"', s["board"])
        t.click("confirm" if "confirm" in tokens else cells[0] if cells else tokens[0])
    assert t.is_over()
    de = [e["texts"]["0"]["de"] for e in t.log]  # the log as the player (seat 0) reads it
    en = [e["texts"]["0"]["en"] for e in t.log]
    assert not [x for x in de + en if "?" in x]
    nowhere = [i for i, x in enumerate(en) if "fits nowhere: " in x]
    assert nowhere and all("passt nirgends: " in de[i] for i in nowhere)
