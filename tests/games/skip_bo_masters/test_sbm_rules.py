"""Skip-Bo Masters: every rule from the rulebook's own words (quoted), on hand-built tables and real
deals. The golden tests of issue 15 are marked GOLDEN."""

from __future__ import annotations

import json

import pytest

from sbm_positions import WILD, position, resolve, toll
from spieltisch.core.errors import IllegalActionError, OptionError
from spieltisch.core.game import CHANCE, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng
from spieltisch.games.skip_bo_masters.engine import (
    CARD_COUNTS, DISCARD, FOLLOW, PLAY, TOLL, TOTAL_CARDS, Buy, CardDataError, DeclineToll, Discard, Draw,
    EndTurn, PayToll, Play, Replace, Reveal, SkipBoMasters, card_name, load_cards,
)

ID = "skip-bo-masters"


def legal(s, kind=None):
    return [a for a in s.legal_actions() if kind is None or type(a) is kind]


def refused(s, action, rule_de=None):
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(action)
    assert s.snapshot() == before
    err = e.value
    assert err.rule and err.rule_de and err.detail and err.detail_de
    if rule_de:
        assert err.rule_de == rule_de, err.message("de")
    return err


# --- material and set-up ------------------------------------------------------------------------

def test_deck_has_168_cards_144_numbered_and_24_wild():
    """ "INHALT: 168 Karten" — 12 of each number 1-12 and 24 Skip-Bo cards (the reconstruction)."""
    assert TOTAL_CARDS == 168 == sum(CARD_COUNTS.values())
    per_value = {}
    for c, n in CARD_COUNTS.items():
        per_value[c % 100] = per_value.get(c % 100, 0) + n
    assert per_value == {0: 24, **{v: 12 for v in range(1, 13)}}


def test_coin_symbols_are_data_marked_reconstruction():
    from importlib import resources
    data = json.loads(resources.files("spieltisch.games.skip_bo_masters").joinpath("coin_symbols.json").read_text())
    assert data["provenance"] == "reconstruction" and data["note"]
    assert {c: n for c, n in CARD_COUNTS.items() if c >= 100} == {s * 100 + v: 1 for v in range(1, 13) for s in (1, 2)}


@pytest.mark.parametrize("field,change,expect", [
    ("provenance", lambda d: d.pop("provenance"), "'provenance'"),
    ("note", lambda d: d.update(note=" "), "'note'"),
    ("total", lambda d: d.update(total=167), "'total'"),
    ("value", lambda d: d["cards"][0].update(value=13), "'cards[0].value'"),
    ("copies", lambda d: d["cards"][2]["copies"].update({"1": -1}), "'cards[2].copies.1'"),
    ("missing number", lambda d: d["cards"].pop(4), "'total'"),
])
def test_card_file_is_validated_with_file_and_field(field, change, expect):
    from importlib import resources
    data = json.loads(resources.files("spieltisch.games.skip_bo_masters").joinpath("coin_symbols.json").read_text())
    assert load_cards(json.dumps(data))  # the real file passes
    change(data)
    with pytest.raises(CardDataError, match="coin_symbols.json: field " + expect.replace("[", r"\[").replace("]", r"\]")):
        load_cards(json.dumps(data))


@pytest.mark.parametrize("players,short,stock", [(2, False, 15), (4, False, 15), (6, True, 10)])
def test_setup_stock_piles_coins_and_first_hand(players, short, stock):
    """ "Jeder Spieler erhält VERDECKT 15 Karten ... Jeder Spieler erhält 12 Münzen. Jeder Spieler
    deckt nur die oberste Karte seines Spielerstapels auf" — "KÜRZERE PARTIEN: ... nur 10 Karten".
    Hands: "Wer an der Reihe ist ... zieht so viele Karten vom NACHZIEHSTAPEL, bis er 5 Karten hat"."""
    m = Match(ID, players, {"short_game": short}, 3)
    assert m.state.chance_player() == 0 and isinstance(m.legal_actions()[0], Reveal)
    m.resolve_chance()
    obs = m.state.observation(None)
    assert obs["stock_sizes"] == [stock] * players
    assert all(t is not None for t in obs["stock_tops"])
    assert obs["coins"] == [12] * players
    assert obs["hand_sizes"] == [5] + [0] * (players - 1)  # only the player to move has drawn
    assert obs["draw_size"] == 168 - players * stock - 5
    assert m.current_player() == 0


def test_players_and_options_are_checked():
    for bad in (1, 7):
        with pytest.raises(OptionError):
            SkipBoMasters(bad)
    with pytest.raises(OptionError):
        SkipBoMasters(4, {"replace_cost": "two"})
    with pytest.raises(OptionError):
        SkipBoMasters(4, {"stall_rounds": 0})


# --- building piles --------------------------------------------------------------------------------

def test_GOLDEN_a_4_takes_a_5_or_a_wild_then_a_6():
    """GOLDEN. "Liegt zum Beispiel eine 4 als oberste Karte auf einem Ablagestapel, kann entweder eine
    5 oder eine Skip-Bo-Karte gefolgt von einer 6 usw. abgelegt werden." """
    s = position(2, hands=[[5, WILD, 6, 3, 9], []], stock_tops=[11, 12], piles=[4])
    plays = {(a.card, a.pile) for a in legal(s, Play)}
    assert (5, 0) in plays and (WILD, 0) in plays
    assert (6, 0) not in plays and (3, 0) not in plays and (9, 0) not in plays
    refused(s, Play("hand", 0, 6, 0), "Ablagestapel")
    s.apply_action(Play("hand", 0, WILD, 0))  # the wild card stands for the 5
    assert s.building[0].value == 5
    assert (6, 0) in {(a.card, a.pile) for a in legal(s, Play)}
    s.apply_action(Play("hand", 0, 6, 0))
    assert s.building[0].value == 6 and s.building[0].cards[-2:] == [WILD, 6]


def test_a_pile_starts_with_a_1_or_a_wild_card_only():
    """ "Jeder Ablagestapel muss immer mit einer 1 (oder einer Skip-Bo-Karte) beginnen." """
    s = position(2, hands=[[1, 2, WILD, 7, 9], []], stock_tops=[5, 6])
    starts = {a.card for a in legal(s, Play) if a.pile == 0}
    assert starts == {1, WILD}
    refused(s, Play("hand", 0, 2, 0), "Ablagestapel")


def test_at_most_four_building_piles():
    """ "Es dürfen nur 4 Ablagestapel gleichzeitig existieren. Falls bereits 4 Ablagestapel vorhanden
    sind ... muss er warten, bis einer der Ablagestapel vervollständigt wird" """
    s = position(2, hands=[[1, 1, 3, 8, 9], []], stock_tops=[5, 6], piles=[2, 5, 7, 10])
    assert not [a for a in legal(s, Play) if a.card == 1]
    refused(s, Play("hand", 0, 1, 0))
    s = position(2, hands=[[1, 1, 3, 8, 9], []], stock_tops=[5, 6], piles=[2, None, 7, 10])
    assert [a.pile for a in legal(s, Play) if a.card == 1] == [1]  # the free place


def test_a_12_completes_the_pile_and_it_is_set_aside():
    """ "Ein Ablagestapel ist vollständig, nachdem eine 12 daraufgelegt wurde. Vollständige Stapel
    werden an den Rand der Spielfläche gelegt." """
    s = position(2, hands=[[12, 3, 4, 5, 6], []], stock_tops=[9, 9], piles=[11])
    s.apply_action(Play("hand", 0, 12, 0))
    assert s.building[0] is None
    assert s.completed == list(range(1, 13))
    assert s.card_count() == 168


def test_completed_piles_become_the_new_draw_pile_when_it_runs_out():
    """ "(Sie werden erneut gemischt und als neuer NACHZIEHSTAPEL genutzt, falls dieser aufgebraucht ist.)" """
    s = position(2, hands=[[12, 3], []], stock_tops=[9, 9], piles=[11])
    # every other face-down card is in the stocks: the draw pile is empty
    s.stock_down = [s.stock_down[0] + s.orig_left, s.stock_down[1]]
    s.orig_left = 0
    s.apply_action(Play("hand", 0, 12, 0))
    assert s.completed == list(range(1, 13))
    s.apply_action(Discard(3, 0))
    # player 1 draws 5: the completed pile is shuffled into a new draw pile
    assert s.current_player() == CHANCE and s.reshuffles == 1 and s.completed == []
    assert sorted(a.card for a in s.legal_actions()) == list(range(1, 13))
    resolve(s, Rng(1))
    assert len(s.hands[1]) == 5 and s.draw.total == 7
    assert s.observation(0)["draw_size"] == 7 and s.card_count() == 168


def test_no_card_anywhere_draws_nothing():
    """(Rules document: a player who must draw when no card is left anywhere simply draws nothing.)"""
    s = position(2, hands=[[3], []], stock_tops=[9, 9])
    s.stock_down = [s.stock_down[0] + s.orig_left, s.stock_down[1]]
    s.orig_left = 0
    s.apply_action(Discard(3, 0))
    assert s.current_player() == 1 and s.hands[1] == []
    assert legal(s) == [EndTurn()]
    s.apply_action(EndTurn())
    assert s.current_player() == 0


# --- hand, stock and discard piles ----------------------------------------------------------------

def test_empty_hand_mid_turn_draws_five_at_once():
    """ "Wird ein Spieler alle 5 Handkarten in einer Runde los, zieht er SOFORT 5 neue Karten vom
    Nachziehstapel und spielt weiter." """
    s = position(2, hands=[[1, 2, 3, 4, 5], []], stock_tops=[9, 9])
    for c in (1, 2, 3, 4):
        s.apply_action(Play("hand", 0, c, 0))
        assert s.current_player() == 0
    s.apply_action(Play("hand", 0, 5, 0))
    assert s.current_player() == CHANCE and s.chance_player() == 0
    assert [k for k, _ in s.pending] == ["draw"] * 5
    resolve(s, Rng(2))
    assert len(s.hands[0]) == 5 and s.turn == 0 and s.phase == PLAY


def test_discarding_the_last_card_does_not_count_as_emptying_the_hand():
    """ "(Legt er die 5. Handkarte am Ende seines Zugs auf den Hilfsstapel, zählt dies NICHT als
    Ablegen aller Karten in einer Runde.)" """
    s = position(2, hands=[[7], [1, 2, 3, 4, 5]], stock_tops=[9, 9])
    s.apply_action(Discard(7, 0))
    assert s.hands[0] == [] and s.turn == 1 and s.current_player() == 1  # no draw for player 0


def test_stock_top_is_played_and_the_next_card_turned_up():
    """ "Hat ein Spieler die oberste Karte seines Spielerstapels abgelegt, deckt er die nächste Karte auf." """
    s = position(2, hands=[[8, 9, 10, 11, 12], []], stock_tops=[1, 5])
    before = s.stock_down[0]
    s.apply_action(Play("stock", 0, 1, 0))
    assert s.current_player() == CHANCE and s.chance_player() == 0
    assert isinstance(s.legal_actions()[0], Reveal)
    resolve(s, Rng(0))
    assert s.stock_top[0] is not None and s.stock_down[0] == before - 1


def test_discard_any_hand_card_on_any_own_discard_pile():
    """ "beendet er seinen Zug, indem er eine BELIEBIGE seiner Handkarten auf einen BELIEBIGEN seiner
    Hilfsstapel legt. (Die Karten müssen hier NICHT in der richtigen Reihenfolge abgelegt werden.)"
    Empty discard piles are alike, so the first empty one stands for them all. (D5 off: the wild
    card could be played, so with D5 on the turn could not end yet.)"""
    s = position(2, {"must_play": False}, hands=[[2, 9, WILD], []], stock_tops=[5, 5],
                 discards=[[[4], [], [], []], [[], [], [], []]])
    assert {(a.card, a.pile) for a in legal(s, Discard)} == {(c, p) for c in (2, 9, WILD) for p in (0, 1)}
    s.apply_action(Discard(9, 0))
    assert s.discards[0][0] == [4, 9] and s.turn == 1


def test_D1_off_keeps_wild_cards_off_the_discard_piles():
    # D1 matters only with D5 off: with D5 on a wild card always fits somewhere, so it is never discarded
    s = position(2, {"wild_discard": False, "must_play": False}, hands=[[2, WILD], []], stock_tops=[5, 5])
    assert {a.card for a in legal(s, Discard)} == {2}
    refused(s, Discard(WILD, 0), "Hilfsstapel (D1)")
    s = position(2, {"wild_discard": False, "must_play": False}, hands=[[WILD], []], stock_tops=[5, 5])
    assert {a.card for a in legal(s, Discard)} == {WILD}  # a hand of wild cards only may still end the turn


def test_discard_tops_are_played_only_from_the_top_and_only_own():
    """ "Wer an der Reihe ist, kann jeweils die oberste Karte eines seiner Hilfsstapel auf einen der
    Ablagestapel legen" — "Die Spieler dürfen nur ihre eigenen HILFSSTAPEL nutzen." """
    s = position(2, hands=[[9], []], stock_tops=[11, 11], piles=[2],
                 discards=[[[3, 8], [3], [], []], [[3], [], [], []]])
    assert {(a.src, a.slot) for a in legal(s, Play)} == {("discard", 1)}
    refused(s, Play("discard", 0, 3, 0), "oberste Karte")


# --- D5: must every playable card be played? ----------------------------------------------------

def test_D5_a_playable_own_card_must_be_played_before_the_discard():
    """D5 (default): "Dann legt er so viele Karten wie möglich auf die ABLAGESTAPEL – von seinen
    Handkarten, seinen Hilfsstapeln und seinem Spielerstapel." — "Nachdem der Spieler alle spielbaren
    Karten ... gelegt hat, beendet er seinen Zug damit, dass er 1 Handkarte auf einen seiner 4
    Hilfsstapel legt." """
    s = position(2, hands=[[5, 9, 9, 10, 11], []], stock_tops=[12, 12], piles=[4])
    assert legal(s, Discard) == [] and legal(s, Play) == [Play("hand", 0, 5, 0)]
    e = refused(s, Discard(9, 0), "Ausspielpflicht (D5)")
    assert e.rule == "must play (D5)"
    assert "5 von der Hand auf Ablagestapel 1" in e.message("de") and "play 5 from hand on building pile 1" in str(e)
    s.apply_action(Play("hand", 0, 5, 0))
    assert {a.card for a in legal(s, Discard)} == {9, 10, 11}  # nothing fits now: the turn may end


@pytest.mark.parametrize("where", ["stock", "discard", "wild"])
def test_D5_counts_the_stock_top_the_discard_tops_and_wild_cards(where):
    hand = [9, 9, 10, 11, WILD if where == "wild" else 11]
    discards = [[[], [], [], []], [[], [], [], []]]
    if where == "discard":
        discards[0][2] = [7, 5]
    s = position(2, hands=[hand, []], stock_tops=[5 if where == "stock" else 12, 12], piles=[4],
                 discards=discards)
    assert legal(s, Discard) == []
    refused(s, Discard(9, 0), "Ausspielpflicht (D5)")
    off = position(2, {"must_play": False}, hands=[hand, []], stock_tops=[5 if where == "stock" else 12, 12],
                   piles=[4], discards=discards)
    assert legal(off, Discard) and legal(off, Play)  # D5 off: the player may stop at any time


def test_D5_coins_are_never_compulsory():
    """ "Der Spieler kann Münzen zahlen" — buying and replacing stay choices: with only those left,
    the turn may end."""
    s = position(2, hands=[[9, 9, 9, 10, 11], []], stock_tops=[5, 4], piles=[3])
    assert legal(s, Replace) == [Replace(0, 4)] and legal(s, Buy)  # the 5 could follow either
    assert legal(s, Play) == [] and legal(s, Discard)


def test_D5_an_empty_hand_with_nothing_to_draw_ends_only_when_nothing_fits():
    s = position(2, hands=[[], []], stock_tops=[5, 12], piles=[4])
    s.stock_down = [s.stock_down[0] + s.orig_left, s.stock_down[1]]
    s.orig_left = 0
    assert legal(s) == [Play("stock", 0, 5, 0)]
    refused(s, EndTurn(), "Ausspielpflicht (D5)")
    off = position(2, {"must_play": False}, hands=[[], []], stock_tops=[5, 12], piles=[4])
    assert EndTurn() in legal(off)


def test_D5_a_declined_toll_still_ends_the_playing():
    """ "Falls der Spieler die Gebühr nicht zahlt, ist sein Zug beendet – auch wenn er noch weitere
    spielbare Karten hätte." """
    s = position(2, hands=[[toll(5, 1), 6, 9, 9, 9], []], stock_tops=[12, 12], piles=[4])
    s.apply_action(Play("hand", 0, toll(5, 1), 0))
    s.apply_action(DeclineToll())
    assert s.phase == DISCARD and {type(a) for a in legal(s)} == {Discard}  # the 6 would fit


# --- coins: replace --------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["hand", "wild", "discard", "stock"])
def test_D6_coins_replace_only_a_card_the_player_needs(where):
    """D6 (default): "Der Spieler kann Münzen zahlen und dadurch eine Karte ersetzen, die er braucht.
    Beispiel: ... aber der Spieler hat weder eine 4 noch eine Skip-Bo-Karte auf der Hand." A player
    who can play the 4 (or a wild card) from the hand, a discard pile or the stock does not need it."""
    hand = [7, 8, 10, 11] + {"hand": [4], "wild": [WILD]}.get(where, [2])
    discards = [[[], [], [], []], [[], [], [], []]]
    if where == "discard":
        discards[0][0] = [4]
    tops = [4 if where == "stock" else 5, 9]
    s = position(2, hands=[hand, []], stock_tops=tops, piles=[3, 1 if where == "stock" else None],
                 discards=discards)
    # the stock top 5 could follow a replaced 4 (with the 4 on the stock nothing else would)
    s2 = position(2, {"replace_held": True}, hands=[hand, []], stock_tops=tops,
                  piles=[3, 1 if where == "stock" else None], discards=discards)
    assert Replace(0, 4) not in legal(s, Replace)
    e = refused(s, Replace(0, 4), "Karte ersetzen (D6)")
    assert "eine 4 oder eine Skip-Bo-Karte" in e.message("de")
    if where != "stock":
        assert Replace(0, 4) in legal(s2, Replace)  # D6 on: the engine offers it all the same


def test_D6_the_golden_example_is_allowed_by_both_readings():
    for options in ({}, {"replace_held": True}):
        s = position(2, options, hands=[[2, 7, 8, 10, 11], []], stock_tops=[5, 9], piles=[3])
        assert Replace(0, 4) in legal(s, Replace)


def test_GOLDEN_replace_example_pay_4_then_the_5_must_be_played():
    """GOLDEN. "Auf einem Ablagestapel liegt eine 3, und die oberste Karte des Spielerstapels ist eine 5,
    aber der Spieler hat weder eine 4 noch eine Skip-Bo-Karte auf der Hand. Der Spieler gibt 4 Münzen
    ab, um die 4er-Karte zu ersetzen, und legt dann seine 5 auf diesen Ablagestapel. ... muss er die
    nächstfolgende Karte spielen. Die verwendeten Münzen werden neben den Ablagestapel gelegt" """
    s = position(2, hands=[[2, 7, 8, 10, 11], []], stock_tops=[5, 9], piles=[3])
    assert Replace(0, 4) in legal(s, Replace)
    s.apply_action(Replace(0, 4))
    assert s.coins[0] == 8 and s.building[0].coins == 4 and s.building[0].value == 4
    assert s.phase == FOLLOW
    # the following card must come now, on that pile: nothing else is allowed
    assert {type(a) for a in legal(s)} <= {Play, Buy}
    assert all(a.pile == 0 for a in legal(s))
    refused(s, Discard(2, 0), "Karte ersetzen")
    s.apply_action(Play("stock", 0, 5, 0))
    assert s.building[0].value == 5 and s.building[0].cards == [1, 2, 3, 5]
    assert s.building[0].replaced == [4]
    assert s.coin_count() == 24 and s.card_count() == 168


def test_replace_cost_one_option_D2():
    s = position(2, {"replace_cost": "one"}, hands=[[2, 7, 8, 10, 11], []], stock_tops=[5, 9], piles=[3])
    # the 4 on pile 1 (the 5 follows) and the 1 of a new pile (the 2 in hand follows), 1 coin each
    assert legal(s, Replace) == [Replace(0, 1), Replace(1, 1)]
    refused(s, Replace(0, 4), "Karte ersetzen")


def test_replace_needs_coins_and_a_following_card():
    # no 5, no wild, nothing to buy: replacing the 4 would leave nothing to follow
    s = position(2, hands=[[3, 7, 8, 10, 11], []], stock_tops=[9, 9], piles=[3])
    assert legal(s, Replace) == []
    refused(s, Replace(0, 4), "Karte ersetzen")
    s = position(2, hands=[[3, 7, 8, 10, 11], []], stock_tops=[5, 9], piles=[3], coins=[3, 21])
    assert legal(s, Replace) == []
    assert "du hast 3" in refused(s, Replace(0, 4)).message("de")


def test_a_12_cannot_be_replaced_a_1_can_start_a_pile():
    """(Rules document: nothing follows a 12; a 1 may be replaced to start a pile if a 2 follows.)"""
    s = position(2, hands=[[2, 3, 4, 5, 6], []], stock_tops=[9, 9], piles=[11])
    assert [a.pile for a in legal(s, Replace)] == [1]  # the 1 of a new pile, never the 12
    refused(s, Replace(0, 12), "Karte ersetzen")
    s.apply_action(Replace(1, 1))
    assert s.building[1].value == 1 and s.building[1].cards == [] and s.coins[0] == 11
    s.apply_action(Play("hand", 0, 2, 1))
    assert s.building[1].cards == [2]


# --- coins: buy -------------------------------------------------------------------------------------

def test_buy_a_discard_top_for_one_coin_and_play_it_at_once():
    """ "Er gibt diesem Mitspieler 1 Münze, um sich eine Karte von dessen Hilfs- oder Spielerstapel zu
    nehmen und diese sofort zu legen. Der Mitspieler kann dies nicht ablehnen. ... Er darf die
    gekaufte Karte weder auf die Hand nehmen noch auf einen seiner Hilfsstapel legen." """
    s = position(2, hands=[[9, 9, 9, 9, 9], []], stock_tops=[5, 11], piles=[3],
                 discards=[[[], [], [], []], [[2, 4], [], [], []]])
    buys = legal(s, Buy)
    assert buys == [Buy(1, "discard", 0, 4, 0)]  # only a card that fits a pile can be bought
    s.apply_action(buys[0])
    assert s.coins == [11, 13] and s.discards[1][0] == [2] and s.building[0].value == 4
    assert s.hands[0] == [9] * 5  # not to the hand
    s.apply_action(Play("stock", 0, 5, 0))


def test_no_coin_no_buy():
    s = position(2, hands=[[9, 9, 9, 9, 9], []], stock_tops=[5, 11], piles=[3], coins=[0, 24],
                 discards=[[[], [], [], []], [[4], [], [], []]])
    assert legal(s, Buy) == []
    assert refused(s, Buy(1, "discard", 0, 4, 0), "Karte kaufen")


def test_GOLDEN_a_bought_stock_card_ends_the_round_for_its_owner():
    """GOLDEN. A bought stock card counts as leaving its owner's stock: "Wer als Erster die letzte
    Karte seines Spielerstapels loswird, gewinnt!" — player 2's last stock card, bought by player 1,
    makes player 2 win."""
    s = position(3, hands=[[9, 9, 9, 9, 9], [], []], stock_tops=[5, 4, 8], stock_down=[6, 0, 9], piles=[3])
    buy = Buy(1, "stock", 0, 4, 0)
    assert buy in legal(s, Buy)
    s.apply_action(buy)
    assert s.current_player() == TERMINAL
    assert s.winner == 1
    # 25 + 5 per card left in the other stock piles (7 of player 1, 10 of player 3)
    assert s.scores() == [0, 25 + 5 * (7 + 10), 0] and s.winners() == [1]


def test_buying_another_stock_card_turns_up_their_next_card():
    s = position(2, hands=[[9, 9, 9, 9, 9], []], stock_tops=[11, 4], piles=[3])
    s.apply_action(Buy(1, "stock", 0, 4, 0))
    assert s.current_player() == CHANCE and s.chance_player() == 1
    resolve(s, Rng(4))
    assert s.stock_top[1] is not None and s.turn == 0


# --- coins: toll ------------------------------------------------------------------------------------

def test_toll_paid_coins_lie_beside_the_pile():
    """ "Nachdem der Spieler diese Karte gelegt hat, muss er so viele Münzen zahlen, wie darauf
    abgebildet sind. ... Die gezahlten Münzen legt der Spieler neben den Ablagestapel" """
    s = position(2, hands=[[toll(4, 2), 5, 9, 9, 9], []], stock_tops=[11, 11], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 2), 0))
    assert s.phase == TOLL and s.current_player() == 0
    assert legal(s) == [PayToll(2), DeclineToll()]
    refused(s, Play("hand", 0, 5, 0), "Gebühr")
    s.apply_action(PayToll(2))
    assert s.coins[0] == 10 and s.building[0].coins == 2 and s.phase == PLAY
    assert Play("hand", 0, 5, 0) in legal(s)


def test_toll_declined_ends_the_playing_phase_D3():
    """ "Falls der Spieler die Gebühr nicht zahlt, ist sein Zug beendet – auch wenn er noch weitere
    spielbare Karten hätte." D3 (default): the turn still ends with the discard."""
    s = position(2, hands=[[toll(4, 1), 5, 9, 9, 9], []], stock_tops=[11, 11], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 1), 0))
    s.apply_action(DeclineToll())
    assert s.phase == DISCARD and s.coins[0] == 12
    assert {type(a) for a in legal(s)} == {Discard}
    refused(s, Play("hand", 0, 5, 0), "Gebühr nicht gezahlt")
    s.apply_action(Discard(5, 0))
    assert s.turn == 1


def test_toll_declined_without_discard_when_D3_is_off():
    s = position(2, {"discard_after_unpaid_toll": False}, hands=[[toll(4, 1), 5, 9, 9, 9], []],
                 stock_tops=[11, 11], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 1), 0))
    s.apply_action(DeclineToll())
    assert s.turn == 1 and s.hands[0] == [5, 9, 9, 9]


def test_unaffordable_toll_can_only_be_declined():
    s = position(2, hands=[[toll(4, 2), 5], []], stock_tops=[11, 11], piles=[3], coins=[1, 23])
    s.apply_action(Play("hand", 0, toll(4, 2), 0))
    assert legal(s) == [DeclineToll()]
    refused(s, PayToll(2), "Gebühr")


# --- coins: payout ----------------------------------------------------------------------------------

def test_GOLDEN_a_completed_pile_pays_its_coins_out_round_the_table():
    """GOLDEN. "Wird ein Ablagestapel vervollständigt, neben dem Münzen liegen, werden diese Münzen ...
    verteilt. Dabei [erhält] der Spieler, der den Stapel vervollständigt hat, die erste Münze, sein
    linker Nachbar die zweite usw. Es kann also sein, dass nicht alle Spieler dieselbe Anzahl an
    Münzen erhalten" — 6 coins beside a pile that player 3 of 4 completes: 2, 2, 1, 1 from player 3 on."""
    s = position(4, turn=2, hands=[[], [], [12, 3, 3, 3, 3], []], stock_tops=[9, 9, 9, 9],
                 piles=[(list(range(1, 12)), 11, 6)], coins=[12, 12, 6, 12])
    s.apply_action(Play("hand", 0, 12, 0))
    assert s.building[0] is None
    assert s.coins == [12 + 1, 12 + 1, 6 + 2, 12 + 2]  # players 3, 4, 1, 2, 3, 4
    assert s.coin_count() == 48


def test_toll_on_the_completing_12_is_paid_out_with_the_pile():
    s = position(2, hands=[[toll(12, 1), 3], []], stock_tops=[9, 9], piles=[(list(range(1, 12)), 11, 2)],
                 coins=[10, 12])
    s.apply_action(Play("hand", 0, toll(12, 1), 0))
    assert s.phase == TOLL and s.building[0].value == 12  # the pile waits for the toll
    s.apply_action(PayToll(1))
    assert s.building[0] is None and s.coins == [9 + 2, 12 + 1]


# --- D7: an emptied hand that held fewer than 5 --------------------------------------------------

@pytest.mark.parametrize("refill", [True, False])
def test_D7_an_emptied_short_hand(refill):
    """ "Wird ein Spieler alle 5 Handkarten in einer Runde los, zieht er SOFORT 5 neue Karten vom
    Nachziehstapel und spielt weiter." A hand holds fewer than 5 only when the draw pile ran short;
    D7 (default): emptying it draws 5 all the same (from the completed piles, once shuffled);
    off: only an emptied hand of 5 draws."""
    s = position(2, {"short_hand_refill": refill}, hands=[[1, 2, 3], []], stock_tops=[9, 9])
    assert s.filled == 3  # the hand was filled to 3 at the start of the turn
    for c in (1, 2, 3):
        s.apply_action(Play("hand", 0, c, 0))
    if refill:
        assert s.current_player() == CHANCE and [k for k, _ in s.pending] == ["draw"] * 5
        resolve(s, Rng(3))
        assert len(s.hands[0]) == 5 and s.filled == 5
    else:
        assert s.current_player() == 0 and legal(s) == [EndTurn()]
    full = position(2, {"short_hand_refill": refill}, hands=[[1, 2, 3, 4, 5], []], stock_tops=[9, 9])
    for c in (1, 2, 3, 4, 5):
        full.apply_action(Play("hand", 0, c, 0))
    assert [k for k, _ in full.pending] == ["draw"] * 5  # a hand of 5 draws under both readings


def test_D7_a_hand_filled_short_by_a_real_draw_pile():
    """A draw pile of 1 card fills player 2's hand of 3 to 4 only; the engine keeps that number
    (``filled``) and the observation shows it (everyone sees how many cards a player draws)."""
    s = position(2, hands=[[9], [1, 2, 9]], stock_tops=[12, 12])
    s.stock_down = [s.stock_down[0] + s.orig_left - 1, s.stock_down[1]]
    s.orig_left = 1
    s.apply_action(Discard(9, 0))
    resolve(s, Rng(1))
    assert s.turn == 1 and len(s.hands[1]) == 4 and s.filled == 4
    assert s.observation(0)["hand_filled"] == 4


# --- winning ----------------------------------------------------------------------------------------

def test_emptying_the_own_stock_wins_and_scores():
    """ "Wer als Erster die letzte Karte seines Spielerstapels loswird, gewinnt! ... Der Gewinner einer
    Runde erhält 25 Punkte und zusätzlich 5 Punkte für jede noch in den Spielerstapeln seiner
    Mitspieler verbliebene Karte." """
    s = position(2, hands=[[9, 9, 9, 9, 9], []], stock_tops=[4, 7], stock_down=[0, 3], piles=[3])
    s.apply_action(Play("stock", 0, 4, 0))
    assert s.is_terminal() and s.scores() == [25 + 5 * 4, 0] and s.winners() == [0]
    refused(s, Discard(9, 0))


def test_multi_round_plays_on_to_the_target_score():
    """ "Man kann auch über mehrere Runden spielen ... Wer als Erster 500 Punkte erreicht, gewinnt." """
    s = position(2, {"multi_round": True, "target_score": 100},
                 hands=[[9, 9, 9, 9, 9], []], stock_tops=[4, 7], stock_down=[0, 3], piles=[3])
    s.apply_action(Play("stock", 0, 4, 0))
    assert not s.is_terminal() and s.totals == [45, 0] and s.round_no == 2
    assert s.starter == 1 and s.turn == 1 and s.coins == [12, 12] and s.card_count() == 168
    # the next win that reaches 100 ends the game
    s2 = position(2, {"multi_round": True, "target_score": 100},
                  hands=[[9, 9, 9, 9, 9], []], stock_tops=[4, 7], stock_down=[0, 14], piles=[3])
    s2.totals = [30, 0]
    s2.apply_action(Play("stock", 0, 4, 0))
    assert s2.is_terminal() and s2.totals == [30 + 25 + 75, 0]


@pytest.mark.parametrize("start,seats", [("rotate", [1, 2, 0]), ("youngest", [0, 0, 0])])
def test_D8_who_starts_the_next_rounds(start, seats):
    """ "Der jüngste Spieler beginnt." says who starts the first round only. D8 (default "rotate"):
    each further round the next player to the left starts; "youngest": seat 1 (the youngest) again."""
    s = position(3, {"multi_round": True, "target_score": 5000, "round_start": start},
                 hands=[[9, 9, 9, 9, 9], [], []], stock_tops=[4, 7, 7], stock_down=[0, 3, 3], piles=[3])
    got = []
    for _ in range(3):
        s.apply_action(Play("stock", 0, 4, 0)) if s.round_no == 1 else s._end_round(s.turn)
        assert s.turn == s.starter and s.round_no == len(got) + 2
        got.append(s.starter)
    assert got == seats


def test_D4_stall_ends_the_round_as_a_draw():
    """D4 (no such case in the rulebook): ``stall_rounds`` full rounds in a row with no card leaving
    any stock pile end the round as a draw."""
    s = position(2, {"stall_rounds": 2}, hands=[[9, 9, 9, 9, 9], [9, 9, 9, 9, 9]], stock_tops=[4, 7])
    rng = Rng(5)
    for turn in range(3):
        s.apply_action(next(a for a in legal(s, Discard)))
        resolve(s, rng)
        assert not s.is_terminal()
    s.apply_action(next(a for a in legal(s, Discard)))
    assert s.is_terminal() and s.drawn and s.scores() == [0, 0] and s.winners() == [0, 1]


def test_a_stock_card_leaving_resets_the_stall_count():
    s = position(2, {"stall_rounds": 1}, hands=[[9, 9, 9, 9, 9], [9, 9, 9, 9, 9]], stock_tops=[1, 7])
    s.apply_action(Play("stock", 0, 1, 0))
    resolve(s, Rng(1))
    s.apply_action(next(a for a in legal(s, Discard)))
    resolve(s, Rng(2))
    assert s.stall == 0 and not s.is_terminal()


# --- refusals and labels --------------------------------------------------------------------------

def test_refusals_name_the_rule_in_both_languages_and_change_nothing():
    s = position(2, hands=[[5, 9, 9, 9, 9], []], stock_tops=[11, 11], piles=[3])
    e = refused(s, Play("hand", 0, 7, 0), "Ablagestapel")
    assert "building pile 1 needs a 4" in str(e) and "braucht eine 4" in e.message("de")
    refused(s, Play("hand", 0, 4, 0), "oberste Karte")  # no 4 in the hand
    refused(s, Discard(4, 0), "Hilfsstapel")
    refused(s, PayToll(1), "Gebühr")
    refused(s, Draw(4), "Reihenfolge")
    refused(s, "play", "Spielzüge")
    refused(s, Play("hand", 0, 4.0, 0))


def test_labels_in_german_and_english():
    assert Play("stock", 0, 5, 0).label("de") == "5 vom Spielerstapel auf Ablagestapel 1"
    assert Play("stock", 0, 5, 0).label("en") == "play 5 from stock pile on building pile 1"
    assert Buy(2, "discard", 1, 107, 3).label("de") == "kaufe 7 (1 Münzsymbol) vom Hilfsstapel 2 von Spieler 3 (1 Münze) auf Ablagestapel 4"
    assert Replace(0, 4).label("de") == "ersetze die nächste Karte auf Ablagestapel 1 für 4 Münzen"
    assert card_name(0, "de") == "Skip-Bo" and card_name(207, "en") == "7 (2 coin symbols)"


def test_more_refusals():
    # D6 on: the 4 on the own discard pile does not keep the player from replacing the 4
    s = position(2, {"replace_held": True}, hands=[[1, 5, 9, 9, 9], []], stock_tops=[11, 4], piles=[3],
                 discards=[[[4], [], [], []], [[], [], [], []]])
    assert "first free place" in str(refused(s, Play("hand", 0, 1, 2), "Ablagestapel"))
    refused(s, Buy(0, "discard", 0, 4, 0), "Karte kaufen")  # own cards are played, not bought
    refused(s, Play("hand", 0, 5, 7), "Ablagestapel")  # no pile 8
    s.apply_action(Replace(0, 4))
    e = refused(s, Play("hand", 0, 1, 1), "Karte ersetzen")
    assert "must go on building pile 1" in str(e)
    refused(s, Replace(0, 5), "Karte ersetzen")
    s.apply_action(Play("hand", 0, 5, 0))
    refused(s, Reveal(3), "Reihenfolge")
