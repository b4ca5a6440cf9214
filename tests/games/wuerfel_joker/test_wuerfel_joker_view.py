"""The Würfel Joker view draws positions from observations alone, with the standard library only."""

import re

from spieltisch.core.game import SPECTATOR
from spieltisch.games.wuerfel_joker import view
from spieltisch.games.wuerfel_joker.spiel1 import engine as S1
from spieltisch.games.wuerfel_joker.spiel2 import engine as S2


def test_spiel2_slides_and_dice_come_from_the_observation():
    state = S2.Spiel2Game(2).position((5, 8), (6, 2))
    obs = state.observation(SPECTATOR)
    slides = view.slide_pictures(view.GAME2, obs)
    assert [s["label"] for s in slides] == [str(v) for v in range(1, 10)]
    assert [s["up"] for s in slides] == [v in (5, 8) for v in range(1, 10)]
    assert slides[4]["accent"] == view.FIVE_ACCENT and slides[0]["accent"] == view.SLIDE_ACCENT
    assert view.dice_picture(view.GAME2, obs) == ([6, 2], ())
    svg = view.board_svg(view.GAME2, obs)  # German by default: the dice are named in German
    # one picture per slide (so the Tableau wraps on a phone), one for the dice
    assert svg.count("<svg") == 9 + 1 and 'aria-label="Würfel: 6"' in svg and 'aria-label="Würfel: 2"' in svg
    assert 'aria-label="die: 6"' in view.board_svg(view.GAME2, obs, lang="en")
    before = S2.Spiel2Game(1).new_initial_state().observation(0)
    assert view.dice_picture(view.GAME2, before) == ([0, 0], (0, 1))  # no throw yet: two blank dice


def test_spiel1_jokers_and_dice_in_play_come_from_the_observation():
    state = S1.Spiel1Game(1).new_initial_state()
    for a in (S1.DICE[(1, 2, 4)], S1.Assign((1, 6), 3), S1.JOKERS, S1.DICE[(1, 5, 3)]):
        state.apply_action(a)
    obs = state.observation(0)
    slides = view.slide_pictures(view.GAME1, obs, "en")
    assert [s["label"] for s in slides] == ["1", "2", "3", "4", "5", "6", "J", "J", "J"]
    assert [s["up"] for s in slides[:6]] == [True, False, False, False, False, True]
    # in the jokers all three went up; the one 1 thrown pushed one back down
    assert [s["up"] for s in slides[6:]] == [False, True, True]
    assert all(s["accent"] == view.JOKER_ACCENT and s["label"] == "J" for s in slides[6:])
    assert [s["name"].split(" – ")[0] for s in slides[6:]] == ["joker 1: down", "joker 2: up", "joker 3: up"]
    assert view.dice_picture(view.GAME1, obs) == ([1, 5, 3], ())
    state.apply_action(S1.STOP)
    state.apply_action(S1.DICE[(6, 6, 2)])
    state.apply_action(S1.Assign((), 2))  # the two 6s stay, the 2 is out
    obs = state.observation(0)
    assert obs["phase"] == "decide" and view.dice_picture(view.GAME1, obs) == ([0, 0, 0], (2,))
    svg = view.board_svg(view.GAME1, obs, "de")
    assert len(re.findall(r'fill="#ddd"', svg)) == 1  # one die greyed out: no longer in play
