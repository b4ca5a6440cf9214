"""Scratch Island: every rule from the rulebook's words, on hand-built maps."""

from fractions import Fraction
from itertools import product

import pytest
from si_helpers import OPEN_MAP, cell, layout, position, roll

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, TERMINAL
from spieltisch.games.scratch_island.engine import (
    MOTIFS, SIZE, Choose, Place, Scratch, ScratchIsland, Take, orientations, placements,
)


def refused(state, action, rule_de):
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as e:
        state.apply_action(action)
    assert e.value.rule_de == rule_de, e.value.message("de")
    assert e.value.detail_de and e.value.detail
    assert state.snapshot() == before
    return e.value


def place(*cell_names):
    return Place(tuple(sorted(cell(n) for n in cell_names)))


def at(*cell_names):
    return tuple(sorted(cell(n) for n in cell_names))


# --- set-up and the round ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,dice", [(2, 4), (3, 4), (4, 5)])
def test_dice_per_player_count(players, dice):
    """"Bei 2 oder 3 Personen: 2 blaue + 2 orange Würfel. Bei 4 Personen: nehmt zusätzlich den gelben Würfel"."""
    s = position(players)
    colours = ScratchIsland(players).dice_colours
    assert len(colours) == dice
    assert sorted(colours)[:4] == ["blue", "blue", "orange", "orange"]
    assert ("yellow" in colours) == (players == 4)
    rolls = 0
    while s.current_player() == CHANCE:
        assert s.chance_player() == 0  # the roller throws
        s.apply_action(s.legal_actions()[0])
        rolls += 1
    assert rolls == dice


def test_die_faces_are_fair_sixths():
    s = position(2)
    out = dict(s.chance_outcomes())
    assert sum(out.values()) == 1
    # the blue die carries the 2-line twice (reconstruction): 2/6
    assert {a.face: q for a, q in out.items()}["I2"] == Fraction(2, 6)


def test_roller_chooses_two_dice_then_others_take_one_each_clockwise():
    """"würfelt alle 4 ... Würfel und wählt 2 beliebige davon aus ... Dann geht's im Uhrzeigersinn
    weiter: Die nächste Person nimmt einen der übrigen Würfel"; "In einem Spiel zu zweit bleibt am
    Ende der Runde ein Würfel offen liegen"."""
    s = position(2)
    roll(s, "mono", "mono", "pickaxe", "pickaxe")
    assert s.current_player() == 0
    legal = s.legal_actions()
    assert all(isinstance(a, Choose) for a in legal)
    assert {(a.first, a.second) for a in legal} == {(a, b) for a in range(4) for b in range(4) if a != b}
    refused(s, Choose(1, 1, False), "2 Würfel")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(Place((cell("F10"),)))  # the boat
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 1
    assert s.legal_actions() == [Take(2), Take(3)]
    refused(s, Take(0), "übrige Würfel")
    s.apply_action(Take(2))
    s.apply_action(Place((cell("F10"),)))
    # one die stays unused; the next player clockwise rolls the next round
    assert s.dice_state[3] == "free"
    assert s.current_player() == CHANCE and s.chance_player() == 1 and s.round == 2


def test_four_players_each_take_one_in_turn():
    s = position(4, roller=2)
    roll(s, "mono", "mono", "pickaxe", "pickaxe", "pickaxe")
    order = []
    while s.round == 1:
        p = s.current_player()
        if p >= 0 and s.phase in ("choose", "take"):
            order.append(p)
        s.apply_action(s.legal_actions()[0])
    assert order == [2, 3, 0, 1]
    assert s.chance_player() == 3


# --- placing a motif ---------------------------------------------------------------------------------
def test_first_motif_must_cover_the_boat_and_starts_there():
    """"In der ersten Runde muss das Bootsfeld Teil des ersten gewürfelten Symbols sein. Damit beginnt
    euer Weg." (golden: the first placement over the boat)"""
    s = position(2)
    roll(s, "I2", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    legal = [a.cells for a in s.legal_actions()]
    # a 2-line covering F10 on an open map: E10-F10, F10-G10, F9-F10
    assert sorted(legal) == sorted([at("E10", "F10"), at("F10", "G10"), at("F9", "F10")])
    refused(s, place("F8", "F9"), "Bootsfeld")
    s.apply_action(place("F9", "F10"))
    # the boat is scratched first, then the other cell (no choice left: scratched at once)
    assert [e["cell"] for e in s.events if e["event"] == "scratch"] == [cell("F10"), cell("F9")]


def test_motif_whole_or_not_at_all():
    """"Passt das gewählte Motiv nicht auf deine Schatzkarte, kannst Du nicht freirubbeln – auch nicht
    teilweise." A placement must be the die's motif, every cell of it."""
    s = position(2)
    roll(s, "I3", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    refused(s, place("F9", "F10"), "ganzes Motiv")
    refused(s, place("F10", "G10", "G9"), "ganzes Motiv")  # an L is not the 3-line
    s.apply_action(place("F10", "G10", "H10"))


def test_rotations_and_the_reflect_option():
    """Motifs may be turned (D1); mirror images only with option ``reflect``."""
    assert len(orientations("I4", False)) == 2
    assert len(orientations("O4", False)) == 1
    assert len(orientations("T4", False)) == 4
    assert len(orientations("L4", False)) == 4 and len(orientations("L4", True)) == 8
    assert len(orientations("S4", False)) == 2 and len(orientations("S4", True)) == 4
    z = at("E9", "F9", "F10", "G10")  # the S turned over (a Z)
    for reflect, ok in ((False, False), (True, True)):
        s = position(2, reflect=reflect)
        roll(s, "mono", "mono", "S4", "pickaxe")
        s.apply_action(Choose(2, 0, False))
        assert (z in [a.cells for a in s.legal_actions()]) is ok
        if not ok:
            refused(s, Place(z), "ganzes Motiv")


def brute_force_placements(lay, scratched, motif, reflect, keys=""):
    """An independent count: every translate of every turned (and mirrored) copy of the motif."""
    shapes = set()
    base = MOTIFS[motif]
    for mirror in ((False, True) if reflect else (False,)):
        cells = [(r, -c) if mirror else (r, c) for r, c in base]
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            shapes.add(frozenset(cells))
    out = set()
    for shape in shapes:
        for dr, dc in product(range(-SIZE, SIZE), repeat=2):
            cs = [(r + dr, c + dc) for r, c in shape]
            if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cs):
                continue
            idx = [r * SIZE + c for r, c in cs]
            if any(scratched >> i & 1 for i in idx) or any(lay.rocks >> i & 1 for i in idx):
                continue
            if any(i in lay.chests for i in idx):
                continue
            if scratched:
                if not any(lay.nbr[i] & scratched for i in idx):
                    continue
            elif lay.boat not in idx:
                continue
            # no wall between two neighbouring cells of the motif
            if any(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) == 1 and not lay.nbr[a] >> b & 1
                   for a in idx for b in idx):
                continue
            out.add(tuple(sorted(idx)))
    return out


@pytest.mark.parametrize("motif", sorted(MOTIFS))
@pytest.mark.parametrize("reflect", [False, True])
def test_placement_examples_counted_against_brute_force(motif, reflect):
    """"Das linke Motiv ermöglicht es, 4 Quadrate in dieser Form freirubbeln": every legal placement
    of every motif, on a map with walls and rocks, first move and later, equals an independent count."""
    rows = list(OPEN_MAP)
    rows[8] = "...#......"
    rows[5] = "....##...."
    lay = layout(rows, walls=[("F9", "east"), ("E8", "south"), ("G7", "east")])
    for scratched in (0, sum(1 << cell(n) for n in ("F10", "F9", "F8", "G8"))):
        got = set(placements(lay, scratched, "", motif, reflect, 0))
        assert got == brute_force_placements(lay, scratched, motif, reflect)
        assert got  # the check compared something


def test_placement_next_to_the_path_with_no_wall_between():
    """"Du kannst nur Felder freirubbeln, die mit deinem bisherigen freien Weg verbunden sind";
    "Du kannst nicht durch Wände ... rubbeln"."""
    lay = layout(walls=[("F9", "east"), ("F9", "south")])
    s = position(2, maps=[lay, layout()])
    s.scratched[0] = 1 << cell("F9")
    roll(s, "mono", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    cells = {a.cells[0] for a in s.legal_actions()}
    assert cells == {cell("F8"), cell("E9")}  # G9 and F10 lie behind walls
    refused(s, place("G9"), "angrenzend an den Weg")
    refused(s, place("C3"), "angrenzend an den Weg")


def test_no_wall_inside_a_motif():
    lay = layout(walls=[("F9", "east")])
    s = position(2, maps=[lay, layout()])
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I2", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    assert at("F9", "G9") not in [a.cells for a in s.legal_actions()]
    refused(s, place("F9", "G9"), "Wände")


def test_rocks_only_with_the_pickaxe():
    """"Die Spitzhacke ist stark genug, um ein Felsquadrat freizurubbeln. Alternativ kannst Du mit dem
    Spitzhackensymbol ein einzelnes Feld freirubbeln, welches mit Deinem Weg verbunden ist"; "Du
    kannst ein beliebiges Feld eines Motivs auf dem anderen Würfel durch die Spitzhacke ersetzen, um
    ein Felsenfeld zu entfernen"."""
    rows = list(OPEN_MAP)
    rows[8] = ".....##..."
    lay = layout(rows)
    s = position(2, maps=[lay, layout()])
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I2", "pickaxe", "pickaxe", "pickaxe")
    s2 = s.clone()
    # a motif alone may not cover a rock
    s.apply_action(Choose(0, 1, False))
    refused(s, place("F9", "F8"), "Felsen")
    assert all(not (lay.rocks >> c & 1) for a in s.legal_actions() for c in a.cells)
    # combined with the pickaxe: one cell may be a rock, two may not
    s2.apply_action(Choose(0, 1, True))
    legal = [a.cells for a in s2.legal_actions()]
    assert at("F9", "F8") in legal and at("F9", "G9") not in legal  # F9 and G9 are both rocks
    refused(s2, place("F9", "G9"), "Felsen")
    s2.apply_action(place("F9", "F8"))
    assert s2.scratched[0] >> cell("F9") & 1 and s2.scratched[0] >> cell("F8") & 1
    # both dice are used up: the other player takes next
    assert s2.current_player() == 1 and s2.dice_state[1] == 0


def test_pickaxe_alone_scratches_one_cell_rock_allowed():
    rows = list(OPEN_MAP)
    rows[8] = ".....#...."
    s = position(2, maps=[layout(rows), layout()])
    s.scratched[0] = 1 << cell("F10")
    roll(s, "pickaxe", "mono", "I4", "I4")
    s.apply_action(Choose(0, 1, False))
    assert {a.cells for a in s.legal_actions()} == {at("F9"), at("E10"), at("G10")}
    s.apply_action(place("F9"))
    assert s.scratched[0] >> cell("F9") & 1


def test_chest_only_with_its_key_and_scratching_opens_it():
    """"Um eine Schatztruhe freizurubbeln, brauchst Du den passenden Schlüssel"; "Die Truhe wird wie
    jedes andere Feld mit einem Würfel freigerubbelt. Unter jeder Schatztruhe steht, wie viele Punkte
    sie bringt"."""
    s = position(2)
    s.scratched[0] = (1 << cell("F10")) | sum(1 << c for c in range(91, 96))  # B10..F10
    roll(s, "mono", "mono", "pickaxe", "pickaxe")
    s2 = s.clone()
    s.apply_action(Choose(0, 1, False))
    assert at("A10") not in [a.cells for a in s.legal_actions()]
    refused(s, place("A10"), "passender Schlüssel")
    s2.keys[0] = "G"  # the green key
    s2.apply_action(Choose(0, 1, False))
    s2.apply_action(place("A10"))
    assert s2.opened[0] == ("green",) and s2.scores()[0] == 5


def test_no_placement_fits_the_die_has_no_effect():
    """"Falls keine passende Form zum Freirubbeln da ist, beende einfach deinen Zug.\""""
    rows = ["#" * 10] * 9 + ["g...#A#..y"]
    rows[0] = "b########r"
    s = position(2, maps=[layout(rows), layout()])
    s.scratched[0] = 1 << cell("F10")  # walled in by rocks: only the pickaxe helps
    roll(s, "I2", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    assert s.current_player() == 1 and s.phase == "take"
    assert [e["event"] for e in s.events[-2:]] == ["no_fit", "no_fit"]
    assert s.scratched[0] == 1 << cell("F10")


# --- scratching ---------------------------------------------------------------------------------------
def test_cells_one_at_a_time_in_the_players_order():
    """"Rubble immer nur ein Feld auf einmal frei": after F9 (the only cell next to the path) the player
    picks the next cell among those now next to the path."""
    s = position(2)
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I3", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("E9", "F9", "G9"))
    assert s.scratched[0] >> cell("F9") & 1  # forced first: the only cell next to the path
    assert s.phase == "scratch" and s.legal_actions() == [Scratch(cell("E9")), Scratch(cell("G9"))]
    refused(s, Scratch(cell("F8")), "ganzes Motiv")
    s.apply_action(Scratch(cell("G9")))
    assert s.scratched[0] >> cell("E9") & 1  # the last cell follows by itself


def test_the_order_matters():
    """A snake under E9 and the ring under G9: scratching G9 first keeps the ring (2 points), E9 first
    loses it ("Rubble immer nur ein Feld auf einmal frei, falls dort eine Schlange lauert!")."""
    points = {}
    for first in ("E9", "G9"):
        s = position(2, contents={0: {"E9": "S", "G9": "1"}})
        s.scratched[0] = 1 << cell("F10")
        roll(s, "I3", "mono", "pickaxe", "pickaxe")
        s.apply_action(Choose(0, 1, False))
        s.apply_action(place("E9", "F9", "G9"))
        s.apply_action(Scratch(cell(first)))
        points[first] = s.scores()[0]
        assert s.current_player() == 1  # the snake ended the turn either way
    assert points == {"E9": 0, "G9": 2}


def test_a_snake_ends_the_turn_the_rest_of_the_motif_and_the_second_die_are_lost():
    """"Wenn Du ein Feld freirubbelst, das die Schlange aufdeckt, endet dein Zug sofort - unabhängig
    von anderen Feldern, die du noch freirubbeln kannst oder verbleibenden Würfeln. Jedes
    Schatzsymbol, dass du gefunden hast, bevor du der Schlange begegnet bist, wird trotzdem
    freigerubbelt." The roller's 3-line F9-F7 finds the ring under F9, then the snake under F8: F7
    stays covered, the 2-line (the second die) is lost and not offered to the next player (D5)."""
    s = position(2, contents={0: {"F9": "1", "F8": "S"}})
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I3", "I2", "O4", "I4")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("F7", "F8", "F9"))  # F9, then F8: each the only cell next to the path
    scratched = [(e["cell"], e["found"]) for e in s.events if e["event"] == "scratch"]
    assert scratched == [(cell("F9"), "1"), (cell("F8"), "S")]
    assert not s.scratched[0] >> cell("F7") & 1  # the rest of the motif is lost
    assert s.dice_state == [0, "lost", "free", "free"]  # the second die is lost
    assert s.current_player() == 1 and s.legal_actions() == [Take(2), Take(3)]
    refused(s, Take(1), "übrige Würfel")
    assert s.track[0][0] == 1 and s.set_points[0] == 2  # the ring found before the snake counts
    assert not [e for e in s.events if e["event"] == "place" and e["die"] == 1]


def test_a_snake_under_the_second_die_keeps_what_the_first_scratched():
    """The first die's motif is scratched whole; the snake comes in the second: the turn ends there,
    the first motif stays scratched."""
    s = position(2, contents={0: {"F8": "S"}})
    s.scratched[0] = 1 << cell("F10")
    roll(s, "mono", "I2", "O4", "I4")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("F9"))
    s.apply_action(place("F7", "F8"))
    assert s.scratched[0] == sum(1 << cell(n) for n in ("F10", "F9", "F8"))
    assert s.dice_state == [0, 0, "free", "free"] and s.current_player() == 1


# --- keys, treasures ------------------------------------------------------------------------------------
def test_red_cross_reveals_a_key_or_nothing():
    """"Ein rotes Kreuz kann einen farbigen Schlüssel enthalten (blau, rot, grün oder gelb)"."""
    rows = list(OPEN_MAP)
    rows[8] = ".....x...."
    rows[7] = ".....x...."
    lay = layout(rows)
    s = position(2, maps=[lay, layout()], contents={0: {"F9": "R"}})
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I2", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("F8", "F9"))
    assert s.keys[0] == "R"
    assert [e["found"] for e in s.events if e["event"] == "scratch"] == ["R", "-"]


def test_treasure_completed_first_then_crossed_out():
    """"Hast Du alle diese Symbole gesammelt, rubblest Du das offene Schatztruhen-Symbol ... frei und Du
    enthüllst die verdienten Punkte. Andere können die Belohnung für dieses Schatzsymbol nicht mehr
    sammeln und müssen das entsprechende durchkreuzte Symbol ... freirubbeln." (golden)"""
    s = position(2, contents={0: {"F9": "2", "F8": "2"}, 1: {"F9": "2", "F8": "2"}})
    for p in (0, 1):
        s.scratched[p] = 1 << cell("F10")
    roll(s, "I2", "I2", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 2, False))
    s.apply_action(place("F8", "F9"))  # the coins (2 symbols, 3 points) for player 1 first
    assert s.set_first[1] == 0 and s.set_points[0] == 3
    s.apply_action(s.legal_actions()[0])  # the pickaxe: anywhere
    s.apply_action(Take(1))
    s.apply_action(place("F8", "F9"))
    assert s.track[1][1] == 2  # the second player has the set too
    assert s.set_points[1] == 0  # but crossed out
    assert [(e["seat"], e["set"]) for e in s.last_events if e.get("set")] == [(0, "scored"), (1, "crossed")]


# --- the end -----------------------------------------------------------------------------------------
def four_chests_position(players=3, end="all_rolled", roller=0):
    """Player 0 holds every key, has opened three chests, and stands next to the fourth (A10)."""
    s = position(players, end=end, roller=roller)
    s.keys[0] = "BGRY"
    s.opened[0] = ("blue", "red", "yellow")
    s.scratched[0] = sum(1 << c for c in range(91, 96))
    return s


def play_round(s):
    """Roll (the first face of every die) and play the round with the first legal action each time."""
    r = s.round
    while not s.is_terminal() and s.round == r:
        s.apply_action(s.legal_actions()[0] if s.current_player() >= 0 else s.chance_outcomes()[0][0])


def open_fourth_chest(s):
    """Round 1, player 0 rolls: the 1-cell die first opens the green chest on A10 (the fourth)."""
    roll(s, "mono", "I2", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("A10"))
    assert s.end_triggered and s.four_chests == [0]


@pytest.mark.parametrize("end", ["all_rolled", "this_roll"])
def test_fourth_chest_the_opener_still_uses_their_dice_and_this_roll_is_played_out(end):
    """"Das Spiel endet, wenn jemand die 4. und letzte farbige Truhe auf der eigenen Schatzkarte
    öffnet. In diesem Zug darf diese Person noch alle verfügbaren Motive freirubbeln ... Alle, die in
    dieser Runde noch am Zug sind, können würfeln, rubbeln und sogar Schatztruhen öffnen." Both
    readings of D9 agree on the current roll."""
    s = four_chests_position(3, end=end)
    open_fourth_chest(s)
    # "In diesem Zug darf diese Person noch alle verfügbaren Motive freirubbeln": the second die
    assert s.current_player() == 0 and s.phase == "place"
    s.apply_action(s.legal_actions()[0])
    # "Alle, die in dieser Runde noch am Zug sind, können ... rubbeln": the others take their dice
    for p in (1, 2):
        assert s.current_player() == p and s.phase == "take"
        s.apply_action(s.legal_actions()[0])
        s.apply_action(s.legal_actions()[0])
    assert s.scores()[0] == 18


def test_fourth_chest_default_every_seat_rolls_equally_often():
    """D9, default ``end=all_rolled``: "Alle, die in dieser Runde noch am Zug sind, können würfeln" –
    the round is finished: player 0 opened the fourth chest in the first roll, so players 2 and 3
    still roll (and everybody takes dice in their rolls); then all three have rolled once and the
    game ends. Player 1 still opens chests in those rolls ("und sogar Schatztruhen öffnen")."""
    s = four_chests_position(3, end="all_rolled")
    s.keys[1] = "BGRY"
    s.opened[1] = ("blue", "red", "yellow")
    s.scratched[1] = sum(1 << c for c in range(91, 96))
    assert s.observation(0)["rounds_left"] is None  # the end is open
    open_fourth_chest(s)
    assert s.observation(1)["rounds_left"] == 2
    play_round(s)
    assert not s.is_terminal() and s.round == 2 and s.chance_player() == 1
    assert s.observation(1)["rounds_left"] == 1
    roll(s, "mono", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    s.apply_action(place("A10"))  # player 1 opens a fourth chest too, after player 0
    assert s.four_chests == [0, 1]
    play_round(s)
    assert not s.is_terminal() and s.round == 3 and s.chance_player() == 2
    assert s.observation(0)["rounds_left"] == 0  # the last roll
    play_round(s)
    assert s.current_player() == TERMINAL and s.rolls == [1, 1, 1]
    # both have 18 points: the tie goes to who opened all four first
    assert s.scores()[:2] == [18, 18] and s.winners() == [0]


def test_fourth_chest_option_this_roll_ends_after_the_current_roll():
    """D9, option ``end=this_roll``: "in dieser Runde" is the current roll; when everybody has used a
    die of it, the game ends, although players 2 and 3 have not rolled."""
    s = four_chests_position(3, end="this_roll")
    open_fourth_chest(s)
    assert s.observation(2)["rounds_left"] == 0
    play_round(s)
    assert s.current_player() == TERMINAL and s.round == 1 and s.rolls == [1, 0, 0]


def test_the_end_rule_counts_rolls_from_any_first_roller():
    """Four players, seat 2 rolls first on this hand-built table and seat 0 opens the fourth chest
    with the die it takes in that roll: seats 3, 0 and 1 have not rolled yet, so they still roll (D9,
    the opener too); with ``this_roll`` the game ends with this roll."""
    for end, more in (("all_rolled", 3), ("this_roll", 0)):
        s = four_chests_position(4, end=end, roller=2)
        roll(s, "mono", "I2", "pickaxe", "pickaxe", "pickaxe")
        s.apply_action(Choose(1, 2, False))  # seat 2: the 2-line over its boat, then the pickaxe
        while s.current_player() == 2:
            s.apply_action(s.legal_actions()[0])
        s.apply_action(Take(3))  # seat 3: a pickaxe on its boat
        s.apply_action(s.legal_actions()[0])
        assert s.current_player() == 0
        s.apply_action(Take(0))
        s.apply_action(place("A10"))
        assert s.end_triggered and s.rolls == [0, 0, 1, 0]
        assert s.observation(1)["rounds_left"] == more
        rolls = 0
        while not s.is_terminal():
            play_round(s)
            rolls += 1
        assert rolls == 1 + more
        assert s.rolls == ([1, 1, 1, 1] if end == "all_rolled" else [0, 0, 1, 0])


def test_the_end_option_is_checked():
    from spieltisch.core.errors import OptionError

    with pytest.raises(OptionError, match="end"):
        ScratchIsland(2, {"end": "sometime"})
    assert ScratchIsland(2).options["end"] == "all_rolled"
    assert ScratchIsland(2).ruleset == "scratch-island/v2"


def test_score_is_chests_plus_sets_at_most_30():
    """"Man kann höchstens 30 Punkte sammeln.\""""
    s = position(2)
    s.opened[0] = ("blue", "red", "green", "yellow")
    s.set_points[0] = sum(t["points"] for t in __import__("spieltisch.games.scratch_island.engine",
                                                          fromlist=["TREASURES"]).TREASURES)
    assert s.scores() == [30, 0]


def test_tie_goes_to_who_opened_all_four_first_else_shared():
    """"Bei Gleichstand gewinnt, wer zuerst alle 4 Schatztruhen geöffnet hat.\""""
    s = position(3)
    s.opened = [("blue", "red", "green", "yellow"), ("blue", "red", "green", "yellow"), ()]
    s.set_points = [0, 0, 18]
    s.four_chests = [1, 0]
    assert s.scores() == [18, 18, 18]
    assert s.winners() == [1]
    s.four_chests = []
    assert s.winners() == [0, 1, 2]
    s.set_points = [0, 0, 19]
    s.four_chests = [1, 0]
    assert s.winners() == [2]


def test_rounds_option_caps_the_game():
    g = ScratchIsland(2, {"rounds": 1})
    s = g.new_initial_state()
    from spieltisch.core.rng import Rng
    rng = Rng(3)
    while not s.is_terminal():
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else s.legal_actions()[0])
    assert s.round == 1
