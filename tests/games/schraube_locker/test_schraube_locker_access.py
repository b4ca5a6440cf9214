"""Schraube Locker's Play page for every student (issue 34), in CPython:

- the how-to box follows the options in force: for each option (and its default) a fact the box
  states is checked against the engine, and the words change when the option does;
- the board names what a player clicks and what it shows (a card: function, points, die number,
  stack, cards left, dice on it, pawns there, "passt"; a die of the roll: "gewählt" and
  ``aria-pressed``; the pawns), and every state drawn in the orange also has a shape (▶ on the next
  card's number, ✓ on a card a die fits, a ring round a chosen die);
- once a choice of dice is complete, the focus goes to its button.
"""

from __future__ import annotations

import re

import pytest
from sl_helpers import card, roll, table

from spieltisch.core.game import CHANCE
from spieltisch.core.view import Context
from spieltisch.games.schraube_locker import engine as E
from spieltisch.games.schraube_locker.view import PICK, SchraubeLockerView

VIEW = SchraubeLockerView()


def ctx_of(state, viewer=0, lang="de", ui=None) -> Context:
    legal = list(state.legal_actions()) if state.current_player() == viewer else []
    names = [f"P{p + 1}" for p in range(state.num_players)]
    return Context(state.game, state.observation(viewer), viewer, lang, legal, names, ui if ui is not None else {},
                   (viewer,), state.refusal)


def box_text(options: dict, lang: str) -> str:
    box = VIEW.how_to(E.SchraubeLocker(2, options), lang)
    return " ".join([box["title"], box["goal"], *box["turn"]])


# --- the engine's side of each fact the box states ------------------------------------------------
def first_roll_uses_every_die(options) -> bool:
    s = table(2, options=options)
    return s.current_player() == CHANCE and all(len(d.values) == E.DICE for d, _ in s.chance_outcomes())


def player_chooses_how_many_dice(options) -> bool:
    s = table(2, options=options)
    return s.current_player() == 0 and list(s.legal_actions()) == [E.Roll(k) for k in range(1, E.DICE + 1)]


def two_dice_serve_their_sum(options) -> bool:
    """Stack 2 shows a 3, the roll has no 3 but a 1 and a 2 (the next card, a 6, stops the MUST chain):
    the two dice go on it together."""
    s = table(2, numbers=(5, 6, 3, 5, 5, 5), options=options)
    if s.current_player() != CHANCE:
        s.apply_action(E.Roll(E.DICE))
    roll(s, 1, 1, 1, 1, 1, 2)
    pair = E.PlacePair(1, 2, 2)
    if pair not in s.legal_actions():
        return False
    s.apply_action(pair)
    return s.on_card[2] == (1, 2)


def second_reroll_card_after_one_roll(options) -> bool:
    """Two *Wurf wiederholen* cards and a *Würfel drehen*: after one re-roll, may the second re-roll
    card be used on the same roll?"""
    r1 = card("wurf_wiederholen")
    r2, tn = card("wurf_wiederholen", skip=(r1,)), card("wuerfel_drehen")
    s = table(2, displays=[[r1, r2, tn], []], options=options)
    roll(s, 1, 1, 1, 1, 1, 1)
    s.apply_action(E.UseReroll(r1, (1,)))
    roll(s, 1)
    legal = s.legal_actions()
    assert any(type(a) is E.UseTurn for a in legal)  # the other kind stays usable under either reading
    return any(type(a) is E.UseReroll for a in legal)


def one_card_of_each_kind(options) -> bool:
    return not second_reroll_card_after_one_roll(options)


def _full_circle(options):
    """All six cards get a die with the first roll: the pawn goes once round."""
    s = table(2, numbers=(1, 2, 3, 4, 5, 6), pawns=[0, 3], options=options)
    start_card = s.top[0]
    roll(s, 1, 2, 3, 4, 5, 6)
    return s, start_card


def full_circle_goes_on_at_the_start_stack(options) -> bool:
    s, start_card = _full_circle(options)
    return s.bonus[0] == 1 and start_card in s.display[0]


def full_circle_ends_the_turn(options) -> bool:
    s, _ = _full_circle(options)
    return s.bonus[0] == 1 and s.display[0] == [] and s.turn == 1


def players_place_their_pawns(options) -> bool:
    s = E.SchraubeLocker(2, options).new_initial_state()
    return s.current_player() == 0 and list(s.legal_actions()) == [E.PawnAt(0, k) for k in range(E.STACKS)]


def chance_places_the_pawns(options) -> bool:
    s = E.SchraubeLocker(2, options).new_initial_state()
    return s.current_player() == CHANCE and {a.stack for a, _ in s.chance_outcomes()} == set(range(E.STACKS))


def _screw_and_nut_face_up(options) -> int:
    screw, nut = card("schraube"), card("mutter")
    s = table(2, displays=[[screw, nut], []], options=options)
    return s.scores()[0] - E.CARDS.points[screw] - E.CARDS.points[nut]


def only_secured_combinations_score(options) -> bool:
    return _screw_and_nut_face_up(options) == 0


def face_up_combinations_score(options) -> bool:
    return _screw_and_nut_face_up(options) == E.CARDS.combination_points


def stacks_of(n):
    def check(options) -> bool:
        return E.SchraubeLocker(2, options).new_initial_state().left == [n] * E.STACKS
    return check


CP, BP = E.CARDS.combination_points, E.CARDS.bonus_points
# option -> [(value, German words, English words, the engine's check)]: the first value is the default
FACTS = {
    "not_all_dice": [
        (False, ["mit allen sechs Würfeln", "noch zweimal"], ["roll all six dice", "twice more"],
         first_roll_uses_every_die),
        (True, ["wählst du, mit wie vielen", "„2 Würfel würfeln“", "beim ersten Wurf mit 1 bis 6"],
         ["you choose how many", "“roll 2 dice”", "1 to 6 on the first roll"], player_chooses_how_many_dice),
    ],
    "combine_two": [
        (False, [], [], lambda o: not two_dice_serve_their_sum(o)),
        (True, ["zusammen auf einer freien Karte", "deren Würfelzahl ihre Summe ist", "„1+2 zusammen auf Stapel 3"],
         ["together on a free card", "die number is their sum", "“put 1+2 together on stack 3"],
         two_dice_serve_their_sum),
    ],
    "card_limit": [
        ("any", ["mehrere solche Karten nacheinander einsetzen, jede einmal"],
         ["several such cards one after the other, each once"], second_reroll_card_after_one_roll),
        ("one_each", ["höchstens eine Karte jeder Art"], ["at most one card of each kind"], one_card_of_each_kind),
    ],
    "full_circle": [
        ("continue", ["sofort eine Bonuskarte, dann geht der Zug am Startstapel weiter"],
         ["a bonus card at once, then your turn goes on at the stack you started from"],
         full_circle_goes_on_at_the_start_stack),
        ("bonus_only", ["sofort eine Bonuskarte, und damit ist dein Zug vorbei"],
         ["a bonus card at once, and that ends your turn"], full_circle_ends_the_turn),
    ],
    "pawn_setup": [
        ("choose", ["neben einen beliebigen Stapel (Stapel anklicken)"], ["beside any stack (click a stack)"],
         players_place_their_pawns),
        ("seeded", ["lost der Zufall aus"], ["drawn by chance"], chance_places_the_pawns),
    ],
    "combination_bonus": [
        ("secured", [f"Nur gesicherte Kombinationen bringen die {CP} Bonuspunkte"],
         [f"Only secured combinations earn the {CP} bonus points"], only_secured_combinations_score),
        ("display", [f"Die {CP} Bonuspunkte gibt es am Ende für jede gesicherte Kombination und auch für jede, "
                     "die noch offen in deiner Auslage liegt"],
         [f"The {CP} bonus points come at the end for every secured combination and also for every one still "
          "face up in your display"], face_up_combinations_score),
    ],
    "stack_size": [
        (7, ["mit je 7 Karten"], ["stacks of 7 cards"], stacks_of(7)),
        (3, ["mit je 3 Karten", "die übrigen Karten bleiben in der Schachtel"],
         ["stacks of 3 cards", "the other cards stay in the box"], stacks_of(3)),
    ],
}
CASES = [(opt, i) for opt, values in FACTS.items() for i in range(len(values))]


def test_the_facts_cover_every_option_with_its_default():
    specs = {spec.name: spec.default for spec in E.SchraubeLocker.option_specs}
    assert set(FACTS) == set(specs)
    assert all(FACTS[name][0][0] == default for name, default in specs.items())


@pytest.mark.parametrize("option,index", CASES, ids=[f"{o}={FACTS[o][i][0]}" for o, i in CASES])
def test_the_how_to_box_states_what_the_engine_does_under_each_option(option, index):
    """The box under ``option=value`` says the words, and the engine does what they say; under
    every other value of the option the words are gone and the engine does not do it."""
    value, de_words, en_words, engine_does = FACTS[option][index]
    for other, *_ in FACTS[option]:
        opts = {option: other}
        assert engine_does(opts) == (other == value), (option, other)
        for lang, words in (("de", de_words), ("en", en_words)):
            text = box_text(opts, lang)
            for w in words:
                assert (w in text) == (other == value), (option, other, lang, w)


def test_the_box_reads_its_numbers_from_the_engine():
    de, en = box_text({}, "de"), box_text({}, "en")
    assert f"{BP} Punkte je Bonuskarte" in de and f"{BP} points per bonus card" in en
    gift = {E.CARDS.points[c] for c in range(E.CARDS.size) if E.CARDS.function[c] == E.GIFT}
    assert gift == {-3} and "ihm diese Karte (−3 Punkte) geben" in de and "give them this card (−3 points)" in en
    for label in (E.PROCEED, E.STOP, E.TAKE, E.END):  # the buttons as the engine labels them
        assert f"„{label.label('de')}“" in de and f"“{label.label('en')}”" in en


def test_the_option_check_catches_a_box_that_ignores_the_options(monkeypatch):
    """Negative control: a box always written for the default options fails the check."""
    real = SchraubeLockerView.how_to
    monkeypatch.setattr(SchraubeLockerView, "how_to", lambda self, game, lang: real(self, E.SchraubeLocker(2), lang))
    with pytest.raises(AssertionError):
        test_the_how_to_box_states_what_the_engine_does_under_each_option("not_all_dice", 0)


def test_the_box_never_points_at_a_colour_alone():
    for opts in ({}, {"combine_two": True, "not_all_dice": True}):
        for lang in ("de", "en"):
            text = box_text(opts, lang).lower()
            assert not re.search(r"\b(orange|rot|red|gelb|yellow|umrandet|outlined)\b", text), text
            assert "▶" in text and "✓" in text  # the marks the board draws for the next card and a fitting one


# --- the board ---------------------------------------------------------------------------------
def elements(html: str, pattern: str) -> list[str]:
    """The start tags of the elements whose start tag matches ``pattern``."""
    return [m.group(0) for m in re.finditer(r"<g [^>]*>", html) if re.search(pattern, m.group(0))]


def attr(tag: str, name: str) -> str | None:
    m = re.search(rf'{name}="([^"]*)"', tag)
    return m.group(1) if m else None


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_cards_say_what_they_are_where_they_lie_and_whether_a_die_fits(lang):
    """Stacks show 6 2 3 4 5 6 clockwise, the pawn of seat 0 at stack 1, seat 1's at stack 4. The
    roll 1 1 2 4 5 5: MUST puts the 2 on stack 2; the 3 of stack 3 stops the chain; a 4 and a 5 may
    go on stacks 4 and 5 (CAN), nothing on the sixes."""
    s = table(2, numbers=(6, 2, 3, 4, 5, 6), pawns=[0, 3])
    roll(s, 1, 1, 2, 4, 5, 5)
    html = VIEW.board(ctx_of(s, lang=lang))
    fits = {int(attr(tag, "data-stack")) for tag in elements(html, r'class="sp-stack sp-stack-act"')}
    assert fits == {3, 4} == {a.stack for a in s.legal_actions() if type(a) is E.Place}
    for tag in elements(html, r'class="sp-stack[ "]'):
        st = int(attr(tag, "data-stack"))
        label = attr(tag, "aria-label")
        top = s.top[st]
        words = {"de": [f"{E.FUNCTIONS[E.CARDS.function[top]]['de']} {E.CARDS.points[top]} Punkte".replace("-", "−"),
                        f"Stapel {st + 1}", f"Würfelzahl {E.CARDS.die[top]}", f"noch {s.left[st]} Karten"],
                 "en": [f"{E.FUNCTIONS[E.CARDS.function[top]]['en']} {E.CARDS.points[top]} points".replace("-", "−"),
                        f"stack {st + 1}", f"die number {E.CARDS.die[top]}", f"{s.left[st]} cards left"]}[lang]
        assert all(w in label for w in words), (label, words)
        assert (("passt: hier eine" if lang == "de" else "fits: put a") in label) == (st in fits), label
        assert (attr(tag, "role") == "img") == (st not in fits)  # a card to click becomes a button in the page
        assert (("darauf liegt: 2" if lang == "de" else "on it: 2") in label) == (st == 1), label
        assert (("die nächste Karte" if lang == "de" else "the next card") in label) == (st == 1)
    assert "P1" in attr(elements(html, r'data-stack="0" data-card')[0], "aria-label")  # the pawn standing there
    # each state has a shape besides the orange: ✓ on exactly the cards a die fits, ▶ at stack 2's number
    blocks = re.split(r'(?=<g class="sp-stack[ "])', html)
    with_tick = {int(re.search(r'data-stack="(\d)"', b).group(1)) for b in blocks[1:] if 'class="sp-fits"' in
                 b.split('<g class="sp-stack-number')[0]}
    assert with_tick == fits
    nexts = re.findall(r'<g class="sp-stack-number sp-next"[^>]*><title>([^<]*)</title>', html)
    assert nexts == [{"de": "Stapel 2 – die nächste Karte", "en": "stack 2 – the next card"}[lang]]
    assert html.count('class="sp-stack-number"') == E.STACKS - 1


def test_the_pawns_and_the_bonus_cards_are_named():
    s = table(3, pawns=[0, 3, 3])
    roll(s, 1, 1, 1, 1, 1, 3)
    ctx = ctx_of(s, lang="de")
    html = VIEW.board(ctx)
    pawns = [attr(tag, "aria-label") for tag in elements(html, r'class="sp-pawn"')]
    assert pawns == ["Figur 1: P1, an Stapel 1, am Zug", "Figur 2: P2, an Stapel 4", "Figur 3: P3, an Stapel 4"]
    assert all('role="img"' in tag for tag in elements(html, r'class="sp-pawn"'))
    bonus, = elements(html, r'class="sp-bonus"')
    assert attr(bonus, "aria-label") == f"Bonuskarten in der Mitte: noch {s.bonus_left}, je {BP} Punkte"


def test_the_dice_of_the_roll_are_named_and_pressed_when_chosen():
    turn, reroll = card("wuerfel_drehen"), card("wurf_wiederholen")
    s = table(2, displays=[[turn, reroll], []])
    roll(s, 1, 2, 2, 4, 5, 6)
    ui: dict = {}
    html = VIEW.board(ctx_of(s, lang="en", ui=ui))
    dice = elements(html, r'data-act="d\d"')
    assert [attr(d, "aria-label") for d in dice] == [f"die {v} of the roll" for v in (1, 2, 2, 4, 5, 6)]
    assert {attr(d, "aria-pressed") for d in dice} == {"false"} and f'stroke="{PICK}"' not in html.split("sp-roll")[-1]
    VIEW.click(ctx_of(s, ui=ui), "d3")
    html = VIEW.board(ctx_of(s, lang="de", ui=ui))
    dice = elements(html, r'data-act="d\d"')
    assert [attr(d, "aria-pressed") for d in dice] == ["false"] * 3 + ["true"] + ["false"] * 2
    assert attr(dice[3], "aria-label") == "Würfel 4 des Wurfs, gewählt"
    chosen = html[html.index('data-act="d3"'):html.index('data-act="d4"')]
    assert f'stroke="{PICK}" stroke-width="3"' in chosen  # the ring: the choice is not shown by the yellow alone


def test_the_focus_goes_to_the_button_once_the_choice_of_dice_is_complete():
    turn, reroll = card("wuerfel_drehen"), card("wurf_wiederholen")

    def focused(displays, picks):
        s = table(2, displays=displays)
        roll(s, 1, 2, 2, 4, 5, 6)
        ui = {"sel": picks}
        return [b["token"] for b in VIEW.buttons(ctx_of(s, ui=ui)) if b.get("focus")]

    assert focused([[turn], []], [1]) == ["tn1"]  # only a turn: one die is the whole choice
    assert focused([[turn, reroll], []], [1]) == []  # more dice may join a re-roll: the focus stays
    assert focused([[turn, reroll], []], list(range(6))) == ["rr"]  # every die chosen
    assert focused([[turn, reroll], []], []) == []  # nothing chosen, no card button


def test_every_player_s_display_is_a_text_summary():
    screw, nut, gift = card("schraube"), card("mutter"), card("karte_verschenken")
    s = table(2, displays=[[screw], [nut, gift]], secured=[[], [(card("schraube", skip=(screw,)),
                                                                 card("mutter", skip=(nut,)))]])
    roll(s, 1, 1, 1, 1, 1, 3)
    text = re.sub(r"<[^>]+>", " ", VIEW.extra(ctx_of(s, lang="de")))
    text = re.sub(r"\s+", " ", text)
    assert "P1 : Schraube 1" in text
    assert "P2 : Mutter 1 Karte verschenken −3 gesichert: 2 Karten (verdeckt)" in text
