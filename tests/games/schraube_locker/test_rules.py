"""Schraube Locker: every rule from the rulebook's words and examples (quoted), on hand-built tables."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from sl_helpers import any_card, card, roll, table

from harness.conformance import check_game, check_hidden_information, check_refusal
from spieltisch.core.errors import IllegalActionError, OptionError, SpieltischError
from spieltisch.core.game import CHANCE, SPECTATOR, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng
from spieltisch.games.schraube_locker import engine as E
from spieltisch.games.schraube_locker.engine import (CARDS, DICE_BY_VALUES, DeckData, Gift, PawnAt, Place,
                                                     PlacePair, Proceed, Reveal, Roll, SchraubeLocker, Secure,
                                                     Stop, Swap, UseReroll, UseTurn, is_combination)


def legal_of(state, kind):
    return [a for a in state.legal_actions() if type(a) is kind]


# --- the deck (reconstruction) -------------------------------------------------------------------

def test_deck_is_a_checked_reconstruction():
    """"42 Punktekarten" in "sechs gleichgroße Kartenstapel"; the pictures are lost, so the deck is
    data marked as reconstruction."""
    assert CARDS.size == 42 and CARDS.stack_size * 6 == 42
    assert CARDS.provenance == "reconstruction" and "reconstruction" in CARDS.note
    assert Counter(CARDS.die) == {d: 7 for d in range(1, 7)}
    # every value the rulebook shows on a card (its scoring example and Gelb's "0" and "-3")
    assert {-3, 0, 1, 2, 4, 5, 6} <= set(CARDS.points)
    assert set(CARDS.function) == set(E.FUNCTIONS)
    assert CARDS.bonus_count == 6 and CARDS.bonus_points == 6 and CARDS.combination_points == 3


@pytest.mark.parametrize("change,field", [
    (lambda d: d.pop("provenance"), "provenance"),
    (lambda d: d.update(note=""), "note"),
    (lambda d: d["cards"][3].update(die=7), "cards[3].die"),
    (lambda d: d["cards"][5].update(function="hammer"), "cards[5].function"),
    (lambda d: d["cards"].pop(), "cards"),
    (lambda d: d["cards"][0].update(points=1.5), "cards[0].points"),
])
def test_bad_deck_data_is_refused_naming_file_and_field(change, field):
    from importlib import resources
    data = json.loads(resources.files(E.__package__).joinpath("deck.json").read_text(encoding="utf-8"))
    DeckData(data, "deck.json")  # the shipped file loads
    change(data)
    with pytest.raises(SpieltischError, match=rf"deck\.json: field '{__import__('re').escape(field)}'"):
        DeckData(data, "deck.json")


# --- set-up ----------------------------------------------------------------------------------------

def test_setup_each_player_chooses_a_stack_then_the_top_cards_are_turned_up():
    """"Die Spielfiguren stellen die Spieler jeweils außen am Kreis neben einen beliebigen
    Kartenstapel … Erst danach wird die jeweils oberste Karte der Stapel aufgedeckt." Then the
    first player "würfelt … mit allen Würfeln". Default (pawn_setup=choose): each player's own
    decision, in seat order, while every stack lies face down; several pawns may share a stack."""
    game = SchraubeLocker(3)
    assert game.options["pawn_setup"] == "choose"
    s = game.new_initial_state()
    for p, stack in ((0, 4), (1, 4), (2, 1)):
        assert s.current_player() == p and s.legal_actions() == [PawnAt(p, k) for k in range(6)]
        assert s.top == [None] * 6 and s.observation(p)["phase"] == "setup"
        s.apply_action(PawnAt(p, stack))
    assert s.pawns == [4, 4, 1] and s.current_player() == CHANCE
    kinds = []
    while s.current_player() == CHANCE and len(kinds) < 6:
        a = s.chance_outcomes()[0][0]
        kinds.append(type(a))
        s.apply_action(a)
    assert kinds == [Reveal] * 6 and None not in s.top
    assert s.left == [7] * 6 and s.hidden.total == 36
    assert s.pending == ("roll", 6) and s.chance_player() == 0


def test_a_pawn_choice_out_of_turn_or_off_the_circle_is_refused():
    s = SchraubeLocker(2).new_initial_state()
    before = s.snapshot()
    for bad in (PawnAt(1, 2), PawnAt(0, 6), PawnAt(0, -1)):
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        check_refusal(e.value, bad)
        assert s.snapshot() == before


def test_the_bots_choose_their_stack_and_the_seeded_setup_draws_it():
    """The bots choose a stack uniformly at random (every stack lies face down: they are alike), the
    same law as the option pawn_setup=seeded, where each pawn's stack is a chance event of the
    record."""
    from spieltisch.core.registry import make_bot
    game = SchraubeLocker(2)
    for name in ("random", "greedy", "strong"):
        bot = make_bot(game, name)
        picks = set()
        for seed in range(40):
            s = game.new_initial_state()
            a = bot.act(s.observation(0), tuple(s.legal_actions()), Rng(seed))
            assert type(a) is PawnAt and a.player == 0
            picks.add(a.stack)
        assert picks == set(range(6)), name
    m = Match("schraube-locker", 3, {"pawn_setup": "seeded"}, 5)
    kinds = []
    while m.current_player() == CHANCE and len(kinds) < 9:
        kinds.append(type(m.step_chance()))
    assert kinds == [PawnAt] * 3 + [Reveal] * 6
    outcomes = SchraubeLocker(2, {"pawn_setup": "seeded"}).new_initial_state().chance_outcomes()
    assert [(a, q) for a, q in outcomes] == [(PawnAt(0, k), Fraction(1, 6)) for k in range(6)]


def test_a_record_of_version_1_is_refused_naming_the_version():
    """The default game changed (the players choose their stacks): the ruleset is version 2, and a
    record of version 1 is not replayed."""
    from spieltisch.core.match import RecordError
    m = Match("schraube-locker", 2, {}, 1)
    m.apply(PawnAt(0, 2))
    record = m.to_record()
    assert record["version"] == 2 and Match.from_record(record).state.pawns == [2, None]
    with pytest.raises(RecordError, match="schraube-locker v1, but this engine plays v2"):
        Match.from_record({**record, "version": 1})


# --- rolling and placing -------------------------------------------------------------------------

def test_blau_example_must_must_then_can():
    """Blau: "Auf der nächsten Karte … er muss also den passenden Würfel dort ablegen ①.
    Anschließend muss er auch die … belegen ②. Da er keine weitere für die nächste freie Karte
    gewürfelt hat, kann er nun noch die … auf die passende Karte legen ③." Then "Blau konnte die
    nächsten zwei Karten im Uhrzeigersinn mit Würfeln belegen und zieht seine Figur entsprechend weit"."""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3])
    roll(s, 2, 3, 4, 5, 5, 5)
    assert s.on_card[1] == (4,) and s.on_card[2] == (2,)  # MUST ① and ②
    assert not s.on_card[3]  # no 6: the chain stops
    assert legal_of(s, Place) == [Place(3, 4), Place(5, 5)]  # CAN ③
    assert s.dice_left == 4 and s.roll == (3, 5, 5, 5)
    s.apply_action(Place(3, 4))
    assert s.on_card[4] == (3,) and s.dice_left == 3
    s.apply_action(Stop())
    # the pawn moved two cards, to stack 2, and took its card; the die on stack 4 is past the gap
    assert s.pawns[0] == 2 and s.last_move == 2 and s.display[0] == [s.game.deck and any_card(2)]
    assert s.pending == ("reveal", 2) and s.left[2] == 6


def test_a_can_die_that_closes_the_gap_lets_the_must_rule_go_on():
    """MUSS is checked after every die ("Nach jedem Wurf prüft er, ob er … einsetzen muss"): with
    combine_two a pair on the blocking card makes the next card's matching die a MUST."""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], options={"combine_two": True})
    roll(s, 1, 3, 2, 6, 6, 6)
    # MUST: no single 4 for stack 1 — nothing is placed; 1+3 may serve it together
    assert not any(s.on_card)
    assert PlacePair(1, 3, 1) in s.legal_actions()
    s.apply_action(PlacePair(1, 3, 1))
    # now stack 2 (die 2) and stack 3 (die 6) are MUST in turn
    assert s.on_card[1] == (1, 3) and s.on_card[2] == (2,) and s.on_card[3] == (6,)
    assert s.dice_left == 2 and s.roll == (6, 6)


def test_two_dice_together_many_times_in_one_turn():
    """Profi 2: "kann der Spieler genau zwei Würfel zusammen auf einer Karte ablegen … Z. B. hat er
    eine 1 und eine 2 gewürfelt und legt nun die beiden Würfel zusammen auf der Karte 3 ab. Dieses
    kann der Spieler in seinem Spielzug mehrfach machen." Twice after one roll and once more after
    the next; never three dice, never a pair whose sum is not the card's number."""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], options={"combine_two": True})
    roll(s, 1, 3, 1, 1, 5, 5)
    s.apply_action(PlacePair(1, 3, 1))  # 1 + 3 on the 4
    assert PlacePair(1, 1, 2) in s.legal_actions()  # a second pair after the same roll
    s.apply_action(PlacePair(1, 1, 2))  # 1 + 1 on the 2
    assert s.on_card[1] == (1, 3) and s.on_card[2] == (1, 1) and s.roll == (5, 5) and s.dice_left == 2
    assert not legal_of(s, PlacePair)  # 5 + 5 is no card's number here
    s.apply_action(Roll(2))
    roll(s, 3, 3)
    s.apply_action(PlacePair(3, 3, 3))  # and a third pair after the next roll: 3 + 3 on the 6
    assert s.on_card[3] == (3, 3) and s.dice_left == 0
    assert sum(len(v) == 2 for v in s.on_card) == 3
    # the example's own pair: a 1 and a 2 together on a card showing 3
    t = table(2, numbers=(3, 1, 1, 1, 1, 1), pawns=[5, 0], options={"combine_two": True})
    roll(t, 1, 2, 6, 6, 6, 6)
    assert legal_of(t, PlacePair) == [PlacePair(1, 2, 0)]
    with pytest.raises(IllegalActionError):
        t.apply_action(PlacePair(2, 6, 0))  # 2 + 6 is not 3


@pytest.mark.parametrize("reading", ["secured", "display"])
def test_d3_only_secured_combinations_score_the_bonus(reading):
    """D3 (combination_bonus): "Gesicherte Kombinationen können … nicht mehr … genommen werden.
    Außerdem bringen Kombinationen aus Schrauben und Muttern am Ende des Spiels Bonuspunkte" — the
    bonus belongs to the secured combinations (default, secured); the scoring list "3 Bonuspunkte
    für jede Kombination aus Schraube und Mutter" read alone would count face-up ones too (display:
    as many as the face-up screws and nuts can make)."""
    h = forty_point_hand()
    kv = h["kv"]
    display = [h["s4"], h["m5"], h["ds1"], h["m4"], kv]  # 2 screw cards, 2 nut cards face up
    s = table(2, displays=[display, [h["dm2"]]], secured=[[(h["s6"], h["m6"])], []],
              options={"combination_bonus": reading})
    cards = 4 + 5 + 1 + 4 - 3 + 6 + 6
    assert s.scores()[0] == cards + 3 * (1 if reading == "secured" else 3)
    assert s.scores()[1] == 2  # a lone double nut makes nothing
    # every screw card goes with every nut card, so the face-up count is the smaller number
    for screw in (h["s4"], h["ds1"]):
        for nut in (h["m5"], h["dm2"]):
            assert is_combination((screw, nut))
    assert E.open_combinations([h["s4"], h["s6"], h["ds1"], h["m5"]]) == 1
    assert E.open_combinations(display) == 2 and E.open_combinations([kv, h["s4"]]) == 0


def test_equal_function_cards_give_one_choice_each():
    """Two cards of the same kind and points do the same: the choices are listed once (the first
    card is used), like swap and gift cards; the second is used after the first (D1 any)."""
    ww1 = card("wurf_wiederholen")
    ww2 = card("wurf_wiederholen", skip={ww1})
    assert CARDS.points[ww1] == CARDS.points[ww2]
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[ww1, ww2], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    rerolls = legal_of(s, UseReroll)
    assert {a.card for a in rerolls} == {ww1} and len(rerolls) == 2 * 2 * 2 * 2 * 3 - 1
    assert [len(a.values) for a in rerolls] == sorted(len(a.values) for a in rerolls)  # fewest dice first
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(UseReroll(ww2, (1,)))
    check_refusal(e.value, UseReroll(ww2, (1,)))
    assert e.value.rule == "equal cards"
    s.apply_action(UseReroll(ww1, (1,)))
    roll(s, 4)
    assert {a.card for a in legal_of(s, UseReroll)} == {ww2}


def test_next_card_without_a_die_ends_the_turn_at_once():
    """"Darf ein Spieler … seine Figur nicht bewegen, weil er auf der nächsten Karte im
    Uhrzeigersinn keinen Würfel ablegen konnte, ist sein Spielzug an dieser Stelle beendet. Er kann
    in dieser Runde keine Karte tauschen oder verschenken. Er bekommt auch keine neue Karte.\""""
    kt, kv = card("karten_tauschen"), card("karte_verschenken")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 1], displays=[[kt, kv], [card("schraube", 6)]])
    roll(s, 1, 1, 2, 3, 5, 6)
    s.apply_action(Place(2, 2))  # a CAN die further on does not help
    s.apply_action(Stop())
    assert s.pawns == [0, 1] and s.last_move is None  # next turn began: the turn state is fresh
    assert s.display == [[kt, kv], [card("schraube", 6)]] and s.left == [7] * 6
    assert s.turn == 1 and s.pending == ("roll", 6)


def test_full_circle_takes_a_bonus_card_at_once_and_goes_on_at_the_start_stack():
    """"Gelingt es einem Spieler, alle sechs Karten mit einem Würfel zu belegen, zieht er einmal im
    Kreis bis zu der Karte, von der aus er gestartet ist. Er nimmt sich sofort eine Bonuskarte."
    D2 (full_circle=continue): he then takes the card of the stack he stands at."""
    s = table(2, numbers=(1, 2, 3, 4, 5, 6), pawns=[2, 5])
    top2 = s.top[2]
    roll(s, 6, 5, 4, 3, 2, 1)
    assert s.bonus == [1, 0] and s.bonus_left == 5 and s.pawns[0] == 2 and s.last_move == 6
    assert s.display[0] == [top2] and s.pending == ("reveal", 2)
    assert s.scores()[0] == 6 + CARDS.points[top2]


def test_full_circle_bonus_only_ends_the_turn():
    """D2 (full_circle=bonus_only): the bonus card, then the turn ends without a card."""
    s = table(2, numbers=(1, 2, 3, 4, 5, 6), pawns=[2, 5], options={"full_circle": "bonus_only"})
    roll(s, 6, 5, 4, 3, 2, 1)
    assert s.bonus == [1, 0] and s.display[0] == [] and s.turn == 1


def test_three_rolls_at_most_with_the_dice_not_yet_placed():
    """"Der Spieler darf mit den übrigen Würfeln ein zweites und ein drittes Mal würfeln."""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3])
    roll(s, 4, 1, 1, 1, 1, 1)
    assert legal_of(s, Roll) == [Roll(5)] and s.rolls == 1  # only the five free dice, all of them
    s.apply_action(Roll(5))
    roll(s, 2, 5, 5, 5, 5)
    assert s.on_card[2] == (2,) and legal_of(s, Roll) == [Roll(4)]
    s.apply_action(Roll(4))
    roll(s, 2, 2, 4, 4)
    # third roll done: nothing to place, no fourth roll — the pawn moved by itself
    assert s.pawns[0] == 2 and s.turn == 0 and s.pending == ("reveal", 2)
    with pytest.raises(IllegalActionError):
        s.apply_action(Roll(4))


def test_not_all_dice_chooses_how_many_and_rerolls_only_those():
    """Profi 1: "Er kann sich vor jedem Wurf entscheiden, nur einen Teil der Würfel zu würfeln. Bei
    der Aktion „Wurf wiederholen“ darf der Spieler dann aber auch nur die Würfel neu würfeln, die er
    eben verwendet hat.\""""
    ww = card("wurf_wiederholen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[ww], []], options={"not_all_dice": True})
    assert s.current_player() == 0 and s.legal_actions() == [Roll(k) for k in range(1, 7)]
    s.apply_action(Roll(2))
    roll(s, 1, 6)
    assert s.phase == "cards" and s.dice_left == 6
    assert {a.values for a in legal_of(s, UseReroll)} == {(1,), (6,), (1, 6)}
    s.apply_action(Proceed())
    assert legal_of(s, Roll) == [Roll(k) for k in range(1, 7)]  # six free dice still


def test_wurf_wiederholen_rerolls_any_of_the_dice_just_rolled_before_placing():
    """"Wurf wiederholen: Der Spieler legt diese Karte in die Schachtel zurück und würfelt beliebig
    viele der Würfel noch einmal, die er gerade gewürfelt hatte." — "Nach jedem Wurf – vor dem
    Einsetzen der Würfel"."""
    ww = card("wurf_wiederholen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[ww], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    assert s.phase == "cards" and not legal_of(s, Place)
    assert len(legal_of(s, UseReroll)) == 2 * 2 * 2 * 2 * 3 - 1  # sub-multisets of 1 1 2 3 5 6
    s.apply_action(UseReroll(ww, (1, 1)))
    assert s.box == [ww] and s.display[0] == [] and s.pending == ("reroll", 2)
    roll(s, 4, 4)
    # kept 2 3 5 6 + new 4 4: MUST 4, 2, 6, 3, 5 round the circle; stack 0 (die 1) stays free
    assert [s.on_card[k] for k in (1, 2, 3, 4, 5)] == [(4,), (2,), (6,), (3,), (5,)]


def test_wuerfel_drehen_sets_one_die_to_any_face():
    """"Würfel beliebig drehen: … dreht einen beliebigen, eben gewürfelten Würfel auf eine beliebige
    Seite. Dabei kann er einen unpassenden Würfel passend drehen, aber auch einen eigentlich
    passenden unpassend machen.\""""
    wd = card("wuerfel_drehen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[wd], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    turns = legal_of(s, UseTurn)
    assert UseTurn(wd, 1, 4) in turns and UseTurn(wd, 6, 1) in turns and len(turns) == 5 * 5
    s.apply_action(UseTurn(wd, 1, 4))
    # 1 2 3 4 5 6: "einmal komplett rum"
    assert s.bonus[0] == 1 and s.box == [wd]


@pytest.mark.parametrize("limit,second", [("any", True), ("one_each", False)])
def test_d1_several_cards_after_one_roll(limit, second):
    """D1 (card_limit): after one roll, several own cards (each once), or one of each kind."""
    wd1, wd2 = card("wuerfel_drehen"), card("wuerfel_drehen", skip={card("wuerfel_drehen")})
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[wd1, wd2], []], options={"card_limit": limit})
    roll(s, 1, 1, 2, 3, 5, 6)
    s.apply_action(UseTurn(wd1, 1, 4))
    assert (s.phase == "cards" and bool(legal_of(s, UseTurn))) is second
    if second:
        s.apply_action(UseTurn(wd2, 1, 4))
        assert s.box == [wd1, wd2]


# --- swap and gift ---------------------------------------------------------------------------------

def gelb_table(**kw):
    """Gelb (seat 0) with a "0" (Karten tauschen) and a "-3" (Karte verschenken); Blau (1) and Rot
    (2) stand at stack 1; Rot has a "6"."""
    kt, kv = card("karten_tauschen"), card("karte_verschenken")
    six = card("schraube", 6)
    blau = card("mutter", 1)
    s = table(3, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 1, 1], displays=[[kt, kv], [blau], [six]], **kw)
    return s, kt, kv, six, blau


def test_gelb_gifts_the_minus_three_and_swaps_the_zero_for_the_six():
    """"Spieler Gelb beendet seine Bewegung bei Spieler Blau und Spieler Rot. Er hat bereits eine
    Karte „0“ sowie eine Karte „-3“ vor sich ausliegen. Die „-3“ schenkt er Spieler Blau. Die „0“ gibt
    er Spieler Rot und nimmt sich im Gegenzug die Karte „6“" — then "Gelb nimmt die Karte von dem
    Stapel, an dem er mit seiner Figur angekommen ist"."""
    s, kt, kv, six, blau = gelb_table()
    roll(s, 4, 1, 1, 1, 1, 1)
    s.apply_action(Stop())
    assert s.pawns[0] == 1 and s.phase == "exchange"
    legal = s.legal_actions()
    assert {Gift(1, kv), Gift(2, kv), Swap(1, kt, blau), Swap(2, kt, six)} <= set(legal)
    s.apply_action(Gift(1, kv))
    # "Mit jedem betroffenen Mitspieler darf der Spieler einmal eine dieser beiden Aktionen durchführen."
    assert not [a for a in s.legal_actions() if getattr(a, "target", None) == 1]
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Swap(1, kt, blau))
    assert e.value.rule == "once per player"
    s.apply_action(Swap(2, kt, six))
    top1 = any_card(4, skip={kt, kv, six, blau})
    assert s.display[1] == [blau, kv] and s.display[2] == [kt]
    assert s.display[0] == [six, top1]  # the 6, then the card of stack 1 (taken by itself)
    assert s.pending == ("reveal", 1)


def test_only_cards_held_before_can_be_used_and_secured_cards_cannot_be_taken():
    """"Voraussetzung dafür ist, dass er eine der beiden folgenden Karten bereits vor sich ausliegen
    hat"; "Gesicherte Kombinationen können … nicht mehr … durch die Aktion „Karten tauschen“
    genommen werden"."""
    kt = card("karten_tauschen")
    kv = card("karte_verschenken")
    s_, m_ = card("schraube", 4), card("mutter", 5)
    s = table(3, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 1, 1], displays=[[kt], [kv], [card("mutter", 1)]],
              secured=[[], [], [(s_, m_)]])
    roll(s, 4, 1, 1, 1, 1, 1)
    s.apply_action(Stop())
    assert Swap(2, kt, s_) not in s.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Swap(2, kt, s_))
    assert e.value.rule == "secured cards" and e.value.rule_de == "gesicherte Karten"
    s.apply_action(Swap(1, kt, kv))  # Gelb takes Blau's -3 ...
    # ... and cannot give it to Rot in the same turn: it was not in his display before
    assert not [a for a in s.legal_actions() if type(a) is Gift]


# --- taking and securing -----------------------------------------------------------------------------

def test_take_the_face_up_card_and_turn_the_next():
    """"muss sich der Spieler die offene Karte von dem Stapel nehmen, neben dem seine Spielfigur
    steht. … Die nächste Karte dieses Stapels wird aufgedeckt.\""""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3])
    taken = s.top[1]
    roll(s, 4, 1, 1, 1, 1, 1)
    s.apply_action(Stop())
    assert s.display[0] == [taken] and s.top[1] is None and s.left[1] == 6
    assert s.current_player() == CHANCE and s.chance_player() is None
    outcomes = s.chance_outcomes()
    assert len(outcomes) == s.hidden.total and all(type(a) is Reveal and a.stack == 1 for a, _ in outcomes)
    s.apply_action(outcomes[0][0])
    assert s.top[1] == outcomes[0][0].card and s.turn == 1


@pytest.mark.parametrize("functions,ok", [
    (("mutter", "schraube"), True),
    (("doppel_mutter", "schraube"), True),
    (("doppel_mutter", "schraube", "schraube"), True),
    (("doppel_schraube", "mutter"), True),
    (("doppel_schraube", "mutter", "mutter"), True),
    (("doppel_schraube", "doppel_mutter"), True),
    (("schraube", "schraube"), False),
    (("mutter", "mutter", "schraube"), False),
    (("doppel_mutter", "doppel_mutter"), False),
    (("doppel_schraube", "doppel_mutter", "mutter"), False),
    (("mutter", "wurf_wiederholen"), False),
])
def test_combinations(functions, ok):
    """"1 Mutter mit 1 Schraube; 1 Doppel-Mutter mit 1 oder 2 Schrauben (oder umgekehrt);
    1 Doppel-Schraube mit 1 Doppel-Mutter\""""
    ids, used = [], set()
    for f in functions:
        c = card(f, skip=used)
        used.add(c)
        ids.append(c)
    assert is_combination(ids) is ok


def forty_point_hand():
    """The rulebook's scoring example: −3 + 1 + 6 + 4 + 5 + 4 + 2 + 6 + 6 = 31 (one 6 is the bonus
    card) plus 3 combinations. The pictures are lost; this hand is built from the reconstructed deck."""
    return {"kv": card("karte_verschenken"), "ds1": card("doppel_schraube", 1), "s4": card("schraube", 4),
            "m5": card("mutter", 5), "m4": card("mutter", 4), "dm2": card("doppel_mutter", 2),
            "s6": card("schraube", 6), "m6": card("mutter", 6)}


def test_golden_forty_point_hand():
    """"−3 + 1 + 6 + 4 + 5 + 4 + 2 + 6 + 6 = 31 Punkte für seine Punkte- und Bonuskarten; 3 + 3 + 3 = 9
    Bonuspunkte für 3 Kombinationen … Damit hat der Spieler insgesamt ein Endergebnis von 40 Punkten.\""""
    h = forty_point_hand()
    assert sorted(CARDS.points[c] for c in h.values()) + [6] == sorted([-3, 1, 6, 4, 5, 4, 2, 6, 6])
    s = table(2, displays=[list(h.values()), []])
    s.bonus = [1, 0]
    assert s.scores()[0] == 31  # nothing secured yet
    s.pending, s.phase, s._cache = None, "secure", None
    for combo in ((h["s4"], h["m5"]), (h["s6"], h["m6"]), (h["ds1"], h["m4"])):
        s.apply_action(Secure(tuple(sorted(combo))))
    assert s.scores()[0] == 40 and len(s.secured[0]) == 3
    # the others see 6 secured cards, not which
    assert s.observation(1)["players"][0]["secured_count"] == 6 and "secured" not in s.observation(1)["players"][0]
    assert s.observation(0)["players"][0]["secured"]


# --- end of the game -------------------------------------------------------------------------------

def test_game_ends_after_the_turn_that_empties_a_stack():
    """"Das Spiel endet nach dem Spielzug des Spielers, der die letzte Karte von einem der Stapel
    (Punkte- oder Bonuskarten) genommen hat." — ties: "Bei Gleichstand gibt es mehrere Sieger.\""""
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], left=[7, 1, 7, 7, 7, 7])
    taken = s.top[1]
    roll(s, 4, 1, 1, 1, 1, 1)
    s.apply_action(Stop())
    assert s.current_player() == TERMINAL and s.display[0] == [taken]
    assert s.observation(SPECTATOR)["scores"] == s.scores()


def test_game_ends_when_the_bonus_stack_runs_out():
    s = table(2, numbers=(1, 2, 3, 4, 5, 6), pawns=[2, 5], bonus_left=1)
    roll(s, 1, 2, 3, 4, 5, 6)
    s.apply_action(s.chance_outcomes()[0][0])  # the next card of the stack is turned up
    assert s.bonus_left == 0 and s.current_player() == TERMINAL


def test_ties_share_the_win():
    s = table(3, displays=[[card("schraube", 6)], [card("mutter", 6)], [card("mutter", 1)]])
    assert s.winners() == [0, 1]


# --- refusals -----------------------------------------------------------------------------------------

def test_refusals_name_the_rule_in_both_languages_and_change_nothing():
    ww = card("wurf_wiederholen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[ww], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    cases = [(Place(2, 2), "before placing"), (Swap(1, ww, ww), "swap or gift"), (Roll(3), "turn order")]
    before = s.snapshot()
    for bad, _ in cases:
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        check_refusal(e.value, bad)
        assert s.snapshot() == before
    s.apply_action(Proceed())
    for bad, rule in [(UseReroll(ww, (1,)), "before placing"), (Place(4, 1), "matching die"),
                      (Roll(3), "all free dice"), (PlacePair(1, 1, 2), "Würfel zusammenziehen"),
                      (Secure((0, 8)), "securing"), (Place(2, 2), "free cards")]:
        if rule == "free cards":
            s.apply_action(Place(2, 2))
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        check_refusal(e.value, bad)
        assert e.value.rule == rule, (bad, e.value)
        assert s.snapshot() == before


def test_options_are_checked():
    with pytest.raises(OptionError):
        SchraubeLocker(2, {"card_limit": "two"})
    with pytest.raises(OptionError):
        SchraubeLocker(5)
    with pytest.raises(OptionError):
        SchraubeLocker(2, {"stack_size": 8})


# --- hidden information --------------------------------------------------------------------------------

def secured_table():
    h = forty_point_hand()
    return table(3, secured=[[(h["s4"], h["m5"])], [(h["s6"], h["m6"]), (h["ds1"], h["m4"])], []])


def test_secured_cards_are_face_down_for_the_others():
    """"die er umdreht und verdeckt vor sich ablegt": the others see how many, not which."""
    s = secured_table()
    for viewer in (0, 2, SPECTATOR):
        seen = s.observation(viewer)["players"][1]
        assert seen["secured_count"] == 4 and "secured" not in seen
    assert len(s.observation(1)["players"][1]["secured"]) == 2
    text = json.dumps(s.observation(2))
    assert f'"id": {forty_point_hand()["s6"]}' not in text


def test_resample_redeals_unseen_secured_cards_as_valid_combinations():
    s = secured_table()
    redealt = set()
    for seed in range(30):
        r = s.resample_hidden(0, Rng(seed))
        assert r.secured[0] == s.secured[0]  # the viewer's own
        assert [len(t) for t in r.secured[1]] == [2, 2] and all(is_combination(t) for t in r.secured[1])
        assert r.observation(0) == s.observation(0) and r.observation(SPECTATOR) == s.observation(SPECTATOR)
        unseen = sorted(r.hidden.cards() + [c for t in r.secured[1] for c in t])
        assert unseen == sorted(s.hidden.cards() + [c for t in s.secured[1] for c in t])
        redealt.add(tuple(r.secured[1]))
    assert len(redealt) > 10
    assert check_hidden_information(s, 3, Rng(3)) > 0


def test_a_leaky_observation_is_caught(monkeypatch):
    """Negative control: showing secured cards to everyone fails the hidden-information check."""
    s = secured_table()
    original = E.SchraubeLockerState.observation

    def leaky(self, player):
        obs = original(self, player)
        for p, entry in enumerate(obs["players"]):
            entry["secured"] = [list(t) for t in self.secured[p]]
        return obs

    monkeypatch.setattr(E.SchraubeLockerState, "observation", leaky)
    with pytest.raises(AssertionError, match="leak"):
        check_hidden_information(s, 3, Rng(3))


# --- whole games ----------------------------------------------------------------------------------------

def accounted(s) -> int:
    """Every point card is somewhere: face down, face up on a stack, in a display, secured, in the box."""
    return (s.hidden.total + sum(t is not None for t in s.top) + sum(map(len, s.display))
            + sum(len(t) for x in s.secured for t in x) + len(s.box))


@pytest.mark.parametrize("options", [{}, {"not_all_dice": True, "combine_two": True}])
def test_full_length_random_games_keep_every_card(options):
    for seed in range(6):
        game = SchraubeLocker(4, options)
        s, rng = game.new_initial_state(), Rng(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.below(len(legal))])
            assert accounted(s) == 42
            assert sum(s.left) == s.hidden.total + sum(t is not None for t in s.top)
            assert s.bonus_left + sum(s.bonus) == 6
        assert 0 in s.left or s.bonus_left == 0
        assert sum(s.scores()) == sum(CARDS.points[c] for d in s.display for c in d) + sum(
            CARDS.points[c] + 0 for x in s.secured for t in x for c in t) + 6 * sum(s.bonus) + 3 * sum(map(len, s.secured))


def test_one_full_length_conformance_game():
    """The generic checks on one full-size game (the registered test configs use short stacks)."""
    check_game("schraube-locker", 2, {}, 1)


def test_chance_sampler_is_the_exact_law():
    """``sample_chance`` (rng.below per die) and ``chance_outcomes`` (multinomial) agree."""
    s = table(2)
    outcomes = dict(s.chance_outcomes())
    assert sum(outcomes.values()) == 1 and len(outcomes) == 462
    assert outcomes[DICE_BY_VALUES[(1, 2, 3, 4, 5, 6)]] * 6 ** 6 == 720
    rng, n = Rng(0), 20000
    hits = sum(s.sample_chance(rng).values == (1, 2, 3, 4, 5, 6) for _ in range(n))
    p = 720 / 6 ** 6
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_every_move_is_public_also_where_the_observations_forget_it(monkeypatch):
    """Dice are rolled and laid, cards turned up, taken, swapped, gifted and turned down in front of
    everyone, so the log names every move for every viewer. Comparing the observations alone would
    not: a re-roll's dice are not yet in the next observation, and a stop looks like a die laid
    when the pawn cannot move either way (the turn's dice are cleared when it ends)."""
    from spieltisch.ui.session import action_visible
    ww = card("wurf_wiederholen")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[ww], []])
    roll(s, 1, 1, 2, 3, 5, 6)
    reroll = UseReroll(ww, (1, 1))
    t = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3])
    for dice in ((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)):
        roll(t, *dice)
        t.apply_action(Roll(6))
    roll(t, 6, 6, 6, 6, 6, 6)  # the third roll: no 4 for the next card; a 6 may still go on stack 3
    assert t.legal_actions() == [Place(6, 3), Stop()]
    for state, move in ((s, reroll), (t, Stop()), (t, Place(6, 3)), (s, DICE_BY_VALUES[(1, 2)])):
        for viewer in (0, 1, SPECTATOR):
            assert action_visible(state, move, viewer), (move, viewer)
    monkeypatch.setattr(E.SchraubeLockerState, "outcome_visible", lambda self, action, viewer: None)
    assert not action_visible(s, reroll, 1) and not action_visible(t, Stop(), 1)
