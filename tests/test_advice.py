"""The advice contract on its own: ``make_advice`` orders, marks ties, refuses what it cannot value."""

from fractions import Fraction
from typing import NamedTuple

import pytest

from spieltisch.core.advice import Estimate, make_advice, value_json
from spieltisch.core.errors import SpieltischError
from spieltisch.core.stats import mean_ci

TEXT = {"de": "Test", "en": "test"}


class Word(NamedTuple):  # an action without label(): both languages show str()
    word: str

    def __str__(self):
        return self.word

    def to_json(self):
        return self.word


HOLD, ROLL, WAIT = Word("hold"), Word("roll"), Word("wait")


class Cell(NamedTuple):  # a tuple-like action, as Tüfteln's placements are
    field: int

    def to_json(self):
        return ["cell", self.field]


def advise(valued, **kw):
    return make_advice(valued, method=TEXT, objective=TEXT, **kw)


def test_exact_ties_are_all_best_and_keep_the_advisors_order():
    advice = advise([(WAIT, Fraction(1, 3)), (HOLD, Fraction(1, 2)), (ROLL, Fraction(2, 4))])
    assert [o.action for o in advice.options] == [HOLD, ROLL, WAIT]
    assert [o.best for o in advice.options] == [True, True, False]
    assert advice.best == [HOLD, ROLL] and advice.exact
    assert all(type(o.value) is Fraction for o in advice.options)


def test_exact_ints_become_fractions_and_the_best_is_unique_when_no_tie():
    advice = advise([(HOLD, 3), (ROLL, Fraction(7, 2))])
    assert advice.best == [ROLL]
    assert advice.option_for(HOLD).value == Fraction(3) and type(advice.option_for(HOLD).value) is Fraction
    assert value_json(advice.option_for(ROLL).value) == {"fraction": "7/2", "float": 3.5}


def test_estimates_tie_when_an_interval_reaches_the_best_ones():
    top = Estimate(10.0, 9.0, 11.0, 50)
    touching = Estimate(8.5, 7.0, 9.0, 50)  # its upper end meets the best's lower end: not told apart
    below = Estimate(8.0, 7.0, 8.99, 50)
    advice = advise([(WAIT, below), (HOLD, touching), (ROLL, top)])
    assert [o.action for o in advice.options] == [ROLL, HOLD, WAIT]
    assert [o.best for o in advice.options] == [True, True, False]
    assert not advice.exact
    assert advice.to_json()["options"][0]["value"] == {"mean": 10.0, "ci95": [9.0, 11.0], "n": 50}


def test_a_simulations_estimate_is_an_advice_estimate():
    est = mean_ci([1.0, 2.0, 3.0])
    assert isinstance(est, Estimate)
    advice = advise([(HOLD, est), (ROLL, Estimate(0.0, -0.1, 0.1, 3))])
    assert advice.best == [HOLD]


@pytest.mark.parametrize("valued, error, words", [
    ([], SpieltischError, "no decision"),
    ([(HOLD, Fraction(1)), (ROLL, Estimate(1.0, 0.5, 1.5, 4))], TypeError, "mixes"),
    ([(HOLD, 0.5), (ROLL, Fraction(1, 2))], TypeError, "not float"),
    ([(HOLD, True), (ROLL, 0)], TypeError, "not bool"),
    ([(HOLD, Fraction(1)), (HOLD, Fraction(2))], ValueError, "twice"),
])
def test_what_cannot_be_advised_is_refused(valued, error, words):
    with pytest.raises(error, match=words):
        advise(valued)


def test_option_for_refuses_actions_that_were_not_advised():
    advice = advise([(Cell(1), Fraction(1)), (Cell(2), Fraction(2))])
    assert advice.option_for(Cell(2)).value == 2
    with pytest.raises(SpieltischError, match="not one of the options"):
        advice.option_for(Cell(3))
    with pytest.raises(SpieltischError, match="not one of the options"):
        advice.option_for((2,))  # equal as a tuple, but not the game's action


def test_labels_and_notes_in_both_languages():
    class Labelled(NamedTuple):
        n: int

        def label(self, lang="en"):
            return f"{'Zug' if lang == 'de' else 'move'} {self.n}"

        def to_json(self):
            return self.n

    note = {"de": "1+1 = 2", "en": "1+1 = 2"}
    advice = advise([(Labelled(2), Fraction(1)), (HOLD, Fraction(0))], notes={Labelled(2): note})
    first, second = advice.options
    assert first.label == {"de": "Zug 2", "en": "move 2"} and first.note == note
    assert second.label == {"de": "hold", "en": "hold"} and second.note is None  # no label(): str()
    data = advice.to_json()
    assert data["options"][0] == {"action": 2, "label": {"de": "Zug 2", "en": "move 2"},
                                  "value": {"fraction": "1/1", "float": 1.0}, "best": True, "note": note}
    assert "note" not in data["options"][1] and data["method"] == TEXT
