"""core/chance.py: decks as multisets, exact draw probabilities, a sampler of the same law."""

import copy
import json
from fractions import Fraction

import pytest

from spieltisch.core.chance import Deck, DeckError
from spieltisch.core.dist import sample_exact
from spieltisch.core.errors import SpieltischError
from spieltisch.core.rng import Rng

# Skip-Bo Masters: 12 cards of each number 1..12 and 24 Skip-Bo wild cards, 168 in all
SKIPBO = {**{v: 12 for v in range(1, 13)}, "wild": 24}


def skipbo():
    return Deck(SKIPBO)


def test_skipbo_deck_counts_and_exact_probabilities():
    d = skipbo()
    assert d.total == len(d) == 168
    assert d.count(7) == 12 and d.count("wild") == 24 and d.count(13) == 0
    out = dict(d.outcomes())
    assert out[5] == Fraction(12, 168) == Fraction(1, 14)
    assert out["wild"] == Fraction(24, 168) == Fraction(1, 7)
    assert sum(out.values()) == 1
    assert list(out) == [*range(1, 13), "wild"]  # the order given
    assert d.probability("wild") == Fraction(1, 7) and d.probability("joker") == 0


def test_probabilities_follow_the_cards_taken_out():
    d = skipbo().without("wild", 4).without(3)
    assert d.total == 163
    assert d.probability("wild") == Fraction(20, 163)
    assert d.probability(3) == Fraction(11, 163)
    assert d.probability(4) == Fraction(12, 163)
    assert sum(p for _, p in d.outcomes()) == 1


def test_decks_are_values():
    d = skipbo()
    e = d.without(1)
    assert d.total == 168 and e.total == 167  # d is unchanged
    assert copy.deepcopy(d) is d and copy.copy(d) is d
    assert Deck({1: 2, 2: 1}) == Deck([(2, 1), (1, 2)]) == Deck.of([1, 2, 1])
    assert Deck({1: 2, 2: 1}) != Deck({1: 1, 2: 2})
    assert hash(Deck({1: 2, 2: 1})) == hash(Deck.of([2, 1, 1]))
    # a kind that ran out is gone for ==, but keeps its place
    assert Deck({1: 1, 2: 1}).without(1) == Deck({2: 1})
    assert Deck({1: 1, 2: 1}).without(1).plus(1).to_json() == [[1, 1], [2, 1]]


def test_json_round_trip():
    d = skipbo().without("wild", 24)
    text = json.dumps(d.to_json())
    back = Deck.from_json(json.loads(text))
    assert back == d and back.to_json() == d.to_json()
    assert back.count("wild") == 0 and "wild" not in back
    # the kinds' order (zero counts included) survives, so sampling does too
    assert [back.sample(Rng(s)) for s in range(50)] == [d.sample(Rng(s)) for s in range(50)]
    with pytest.raises(DeckError, match=r"\[\[kind, count\]"):
        Deck.from_json({"1": 3})


def test_json_with_card_objects():
    cards = Deck({("red", 1): 2, ("blue", 2): 1})
    assert Deck.from_json(json.loads(json.dumps(cards.to_json()))) == cards


def test_sample_is_the_same_draw_as_sample_exact():
    # Same numbers from the generator, same card: a game may switch between the two samplers
    # without changing any seeded game or record continuation.
    for deck in (skipbo(), skipbo().without(2, 12).without("wild", 5), Deck({"a": 1}), Deck({"x": 3, "y": 6}),
                 Deck({1: 2, 2: 4, 3: 6}).without(3, 6)):
        for seed in range(300):
            a, b = Rng(seed), Rng(seed)
            got = [deck.sample(a) for _ in range(3)]
            want = [sample_exact(deck.outcomes(), b) for _ in range(3)]
            assert got == want, (deck, seed)
            assert a.below(1000) == b.below(1000), "the generators must end in the same place"


def test_sample_frequencies_match_the_exact_law():
    # 84,000 draws with a fixed seed; each kind's frequency within 4 standard errors of its exact
    # probability (a false alarm per kind has probability ~6e-5).
    deck = skipbo().without("wild", 20).without(1, 11)
    rng = Rng(2024)
    n = 84_000
    seen = dict.fromkeys(deck.kinds(), 0)
    for _ in range(n):
        seen[deck.sample(rng)] += 1
    for kind, p in deck.outcomes():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen[kind] / n - float(p)) < 4 * se, (kind, seen[kind], p)
    assert sum(seen.values()) == n


def test_sampling_is_deterministic_for_a_seed():
    assert [skipbo().sample(Rng(9)) for _ in range(3)] == [skipbo().sample(Rng(9))] * 3
    r1, r2 = Rng(77), Rng(77)
    assert skipbo().deal(30, r1) == skipbo().deal(30, r2)
    draws = [skipbo().deal(10, Rng(s))[0] for s in range(20)]
    assert len({tuple(d) for d in draws}) > 1  # the seed matters


def test_drawing_every_card_empties_the_deck():
    d = Deck({1: 3, "wild": 2, 5: 1})
    rng = Rng(5)
    drawn = []
    while d:
        card, d = d.draw(rng)
        drawn.append(card)
    assert d.total == 0 and d.kinds() == [] and d.cards() == []
    assert sorted(map(str, drawn)) == sorted(map(str, [1, 1, 1, "wild", "wild", 5]))
    with pytest.raises(DeckError, match="deck is empty"):
        d.sample(rng)
    with pytest.raises(DeckError, match="deck is empty"):
        d.outcomes()


def test_deal_takes_cards_out():
    cards, rest = skipbo().deal(20, Rng(3))
    assert len(cards) == 20 and rest.total == 148
    assert rest.plus_all(cards) == skipbo()
    assert skipbo().remove_all(cards) == rest
    with pytest.raises(DeckError, match="only 148"):
        rest.deal(149, Rng(1))


def test_errors_are_clear_and_bilingual():
    d = Deck({1: 1})
    with pytest.raises(DeckError) as e:
        d.without(2)
    assert isinstance(e.value, SpieltischError) and isinstance(e.value, ValueError)
    assert "2" in str(e.value) and "holds 0" in str(e.value)
    assert "Stapel" in e.value.detail_de
    with pytest.raises(DeckError, match="holds 1"):
        d.without(1, 2)
    with pytest.raises(DeckError) as e:
        d.without(1).sample(Rng(0))
    assert e.value.detail_de == "es kann nicht gezogen werden: der Stapel ist leer"
    with pytest.raises(DeckError, match="negative"):
        Deck({1: -1})
    with pytest.raises(DeckError, match="whole number"):
        Deck({1: True})
    with pytest.raises(DeckError, match="whole number"):
        Deck({1: 2.0})
    with pytest.raises(DeckError, match=r"Deck.of\(cards\)"):
        Deck([1, 2, 3])
    assert d.total == 1  # failed operations changed nothing


# Performance (not timed here, a note for game authors): ``sample`` is one gcd and one pass over
# the kinds with small ints, about 2 µs for Skip-Bo's 13 kinds in CPython, against ~30 µs for
# ``sample_exact`` on the Fraction outcomes; ``without`` copies a tuple of counts (O(kinds)).
