"""Every registered game runs the generic conformance test (tests/harness/conformance.py); toy games
show that its checks pass a correct game and catch a planted leak."""

from collections import Counter

import pytest

from harness.conformance import check_game, check_hidden_information, check_labels, check_refusal, configs
from harness.hiddentoy import COPIES, FULL_DECK, HAND, VALUES, Discard, Draw, HiddenToy, LeakyHiddenToy, Play
from spieltisch import game_ids
from spieltisch.core import registry
from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, SPECTATOR
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng

CASES = [(gid, n, opts) for gid in game_ids() for n, opts in configs(gid)]
GAMES_PER_CASE = 60


@pytest.mark.parametrize("game_id,players,options", CASES, ids=[f"{g}-{n}p-{o}" for g, n, o in CASES])
def test_random_playthroughs(game_id, players, options):
    games = registry.get_game_class(game_id).test_games or GAMES_PER_CASE
    if players >= 5:  # a game of five or six seats is several games long (and the cases of fewer seats run 60)
        games = max(20, games // 3)
    assert games >= 10, "a handful of playthroughs proves little"
    for seed in range(games):
        check_game(game_id, players, options, seed, check_all_actions=seed < 5)


def test_toy_game_conformance(pig):
    for seed in range(100):
        check_game("test-pig", 2, {}, seed, check_all_actions=True)


@pytest.fixture
def hidden():
    for cls in (HiddenToy, LeakyHiddenToy):
        registry.register(cls)
    yield HiddenToy
    for cls in (HiddenToy, LeakyHiddenToy):
        registry.unregister(cls.id)


def first_decision(game_id, players, seed):
    m = Match(game_id, players, {}, seed)
    m.resolve_chance()
    return m


# --- the hidden-information toy passes -------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_hidden_toy_conformance(hidden, players):
    for seed in range(40):
        # hidden=True: some resample_hidden changed the state, so the check had something to catch
        check_game(HiddenToy.id, players, {}, seed, check_all_actions=seed < 5, hidden=True)


def unseen_by(state, viewer):
    cards = Counter(state.deck.cards())
    for p, hand in enumerate(state.hands):
        if p != viewer:
            cards.update(hand)
    return cards


@pytest.mark.parametrize("viewer", [0, 1, 2, SPECTATOR])
def test_hidden_toy_resample_redeals_what_the_viewer_cannot_see(hidden, viewer):
    m = Match(HiddenToy.id, 3, {}, 11)
    m.resolve_chance()
    for _ in range(4):  # some cards on the pile, the hands partly redrawn
        m.apply(m.legal_actions()[-1])
        m.resolve_chance()
    s = m.state
    redealt = set()
    for seed in range(40):
        r = s.resample_hidden(viewer, Rng(seed))
        assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
        assert r.deck.total == s.deck.total and r.pile == s.pile and r.points == s.points
        assert unseen_by(r, viewer) == unseen_by(s, viewer)  # the same cards, dealt anew
        if viewer is not None:
            assert r.hands[viewer] == s.hands[viewer]
        redealt.add((tuple(map(tuple, r.hands)), r.deck))
    assert len(redealt) > 5, "resample_hidden must actually redraw the unseen cards"
    assert unseen_by(s, viewer).total() == COPIES * len(VALUES) - len(s.pile) - (
        0 if viewer is None else len(s.hands[viewer]))


def test_hidden_toy_deal_and_views(hidden):
    m = Match(HiddenToy.id, 3, {}, 4)
    receivers = []
    while m.current_player() == CHANCE:
        receivers.append(m.state.chance_player())
        m.step_chance()
    assert receivers == [0, 1, 2] * HAND
    s = m.state
    assert "hand" not in s.observation(SPECTATOR) and s.observation(1)["hand"] == s.hands[1]
    assert s.observation(SPECTATOR)["hand_sizes"] == [HAND] * 3
    assert s.render(SPECTATOR, "de").startswith("Handkarten: 3 3 3")
    # a play is followed by the player's own draw
    m.apply(m.legal_actions()[0])
    assert m.current_player() == CHANCE and m.state.chance_player() == 0


def test_hidden_toy_refusals_are_bilingual(hidden):
    s = first_decision(HiddenToy.id, 2, 0).state
    # a position built by hand: player 0 to move with 1 2 4 against a 3 on the pile
    s.hands, s.pile, s.player = [[1, 2, 4], [3, 5, 5]], [3], 0
    s.deck = FULL_DECK.remove_all([1, 2, 4, 3, 5, 5, 3])
    assert s.legal_actions() == [Play(4), Discard(1), Discard(2), Discard(4)]
    before = s.snapshot()
    for bad, rule_de, detail_de in [
        (Play(2), "höher", "2 ist nicht höher als die 3 auf der Ablage; wirf sie ab"),
        (Play(5), "eigene Karten", "du hast keine 5 auf der Hand"),
        (Discard(3), "eigene Karten", "du hast keine 3 auf der Hand"),
        (Draw(1), "Reihenfolge", "Karten kommen vom Stapel, nicht von einem Spieler"),
        (["play", 4], "Spielzüge", "['play', 4] ist kein Zug dieses Spiels"),
    ]:
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        assert (e.value.rule_de, e.value.detail_de) == (rule_de, detail_de)
        check_refusal(e.value, bad)
        assert s.snapshot() == before
    s.apply_action(Play(4))
    assert s.current_player() == CHANCE
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(Discard(1))
    assert e.value.message("de") == "gerade wird eine Karte gezogen; „wirf 1 ab“ muss warten (Regel: Reihenfolge)"


# --- the planted leak is caught ----------------------------------------------------------------
def test_leaky_variant_fails_the_hidden_information_check(hidden):
    honest = first_decision(HiddenToy.id, 2, 0).state
    assert check_hidden_information(honest, 2, Rng(1)) > 0
    leaky = first_decision(LeakyHiddenToy.id, 2, 0).state
    with pytest.raises(AssertionError, match=r"leak: observation\(player 0\) .*'next_hand'"):
        check_hidden_information(leaky, 2, Rng(1))


def test_leaky_variant_fails_check_game(hidden):
    with pytest.raises(AssertionError, match=r"leak: observation\(player \d\)"):
        check_game(LeakyHiddenToy.id, 2, {}, 0)


# --- the single checks catch what they are for ---------------------------------------------------
def test_check_refusal_wants_german():
    check_refusal(IllegalActionError("higher", "3 is not higher", "3 ist nicht höher", "höher"), "a")
    with pytest.raises(AssertionError, match="lacks rule_de, detail_de"):
        check_refusal(IllegalActionError("higher", "3 is not higher"), "a")
    with pytest.raises(AssertionError, match="lacks rule_de"):
        check_refusal(IllegalActionError("higher", "3 is not higher", "3 ist nicht höher", " "), "a")


def test_check_labels_wants_both_languages():
    check_labels([Play(3), Discard(1)])
    with pytest.raises(AssertionError, match="has no label"):
        check_labels(["stop"])

    class Mute(Play):
        def label(self, lang="en"):
            return "" if lang == "de" else "play"

    with pytest.raises(AssertionError, match=r"label\('de'\)"):
        check_labels([Mute(2)])
