"""The Würfel Joker Play page (issue 34): the How-to box held against the engine for every option,
the slides as named buttons, picking slides in Spiel 1 and pushing them in Spiel 2.

The box is generated from the options in force; these tests read what it says (numbers, whether a
rule is stated) and check it by playing the engine, so a box that misstates a rule or ignores an
option fails here.
"""

from __future__ import annotations

import re

import pytest

from spieltisch.core.errors import IllegalActionError
from spieltisch.games.wuerfel_joker import view as V
from spieltisch.games.wuerfel_joker.spiel1 import engine as S1
from spieltisch.games.wuerfel_joker.spiel2 import engine as S2
from spieltisch.ui.table import Table

VIEW = V.WuerfelJokerView()
LANGS = ("de", "en")
FIVE_OPS = ("plus_minus", "all")
ARROW = " → "


def box(game, lang: str) -> list[str]:
    h = VIEW.how_to(game, lang)
    assert h["title"] and h["goal"] and h["turn"]
    return h["turn"]


def item(turn: list[str], *words: str) -> str:
    """The one step of the box that holds every word of ``words``."""
    found = [t for t in turn if all(w in t for w in words)]
    assert len(found) == 1, (words, turn)
    return found[0]


def listed_values(text: str, throw: str) -> set[int]:
    """The slide values the box lists after "a und b → …" (up to the next "." or ";" or " ("):
    "6+2 = 8, 6−2 = 4 oder 6:2 = 3" -> {8, 4, 3}; a bare number counts as itself."""
    tail = text.split(throw + ARROW, 1)[1]
    tail = re.split(r"\.(?:\s|$)|;| \(", tail, maxsplit=1)[0]
    values = set()
    for part in re.split(r", | oder | or ", tail):
        m = re.fullmatch(r"\(?[\d+−×:]+\)?(?:[+−×:]5)? = (\d+)|(\d+)", part.strip())
        assert m, (part, text)
        values.add(int(m.group(1) or m.group(2)))
    return values


def pushes(state) -> set[int]:
    return {a.value for a in state.legal_actions() if isinstance(a, S2.Push)}


def spiel2(**options):
    return S2.Spiel2Game(1, options)


# --- Spiel 2 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("five_ops", FIVE_OPS)
def test_spiel2_the_example_6_and_2_is_what_the_engine_pushes(five_ops, lang):
    game = spiel2(five_ops=five_ops)
    text = item(box(game, lang), "6 " + ("und" if lang == "de" else "and") + " 2" + ARROW)
    said = listed_values(text, "6 und 2" if lang == "de" else "6 and 2")
    assert said == pushes(game.position((), (6, 2))) == {8, 4, 3}  # the rulebook's example 1, not 2, 6, 8
    for op in (("plus", "minus", "mal", "geteilt") if lang == "de" else ("plus", "minus", "times", "divided")):
        assert op in text  # all four operations


@pytest.mark.parametrize("lang", LANGS)
def test_spiel2_doubles_single_number_declining_and_accepting_as_the_engine_plays_them(lang):
    game = spiel2()
    de = lang == "de"
    text = item(box(game, lang), "3 und 3" if de else "3 and 3")
    state = game.position((), (3, 3))
    assert listed_values(text, "3 und 3" if de else "3 and 3") == pushes(state) == {9, 1, 6, 3}
    # a single number only with doubles: 6 and 2 push neither 6 nor 2 (checked above), 3 and 3 push 3
    assert ("verzichten" if de else "decline") in text and ("auch wenn er passt" if de else "even when they fit") in text
    assert S2.DECLINE in state.legal_actions() and pushes(state)  # declining usable doubles
    useless = game.position((1, 2), (1, 1))  # 1 and 1 make 2, 1, 1: all up
    assert useless.legal_actions() == [S2.DECLINE, S2.ACCEPT]
    assert ("annehmen" if de else "accepted") in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("five_ops", FIVE_OPS)
def test_spiel2_the_five_as_the_options_say(five_ops, lang):
    game = spiel2(five_ops=five_ops)
    de = lang == "de"
    text = item(box(game, lang), "4 und 2" if de else "4 and 2")
    with_five = listed_values(text, "4 und 2" if de else "4 and 2")
    plain = pushes(game.position((), (4, 2)))  # slide 5 down: no 5 in the sums
    assert plain | with_five == pushes(game.position((5,), (4, 2))) == {1, 2, 3, 6, 7, 8}  # rulebook example 3
    assert not with_five <= plain
    only_all = "mal 5 und geteilt durch 5" if de else "times 5 and divided by 5"
    not_all = "nicht mal oder geteilt durch 5" if de else "not times or divided by 5"
    m = re.search(r"(\d) (?:und|and) (\d) → (\(\d[+−×:]\d\)|\d[+−×:]\d)([×:])5 = (\d)", text)
    if five_ops == "all":
        assert only_all in text and not_all not in text
        # the box's ":5" example is a push the engine allows with this option only
        a, b, v = int(m.group(1)), int(m.group(2)), int(m.group(5))
        assert v in pushes(game.position((5,), (a, b)))
        assert v not in pushes(spiel2(five_ops="plus_minus").position((5,), (a, b)))
    else:
        assert not_all in text and only_all not in text and m is None
        # and the option matters: some throw pushes more with :5 allowed
        assert any(pushes(game.position((5,), (a, b))) < pushes(spiel2(five_ops="all").position((5,), (a, b)))
                   for a in range(1, 7) for b in range(1, 7))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("x5", (False, True))
def test_spiel2_stop_and_bust_points_as_the_box_states_them(x5, lang):
    game = spiel2(x5_on_stop=x5)
    de = lang == "de"
    turn = box(game, lang)
    stop = item(turn, "aufhören" if de else "stop or throw again")
    # a stop with slide 5 up: 4 and 2 push 8 (4×2); down then 1,2,3,4,6,7,9 = 32
    state = game.position((5,), (4, 2))
    state.apply_action(S2.PUSH[8])
    down = S2.SUM_DOWN[state.mask]
    state.apply_action(S2.STOP)
    times_five = state.scores()[0] == -5 * down
    assert state.scores()[0] in (-down, -5 * down)
    says_x5 = ("mal 5, wenn Schieber 5 oben" if de else "times 5 if slide 5") in stop
    says_not = ("nicht mal 5" if de else "not times 5") in stop
    assert times_five == x5 == says_x5 == (not says_not)
    # a throw that fits nothing: slides down + pips, ×5 with slide 5 up, under both options
    bust = item(turn, "Augen dieses Wurfs" if de else "pips of that throw")
    assert ("mal 5, wenn Schieber 5 oben" if de else "times 5 if slide 5 is up") in bust
    for up, factor in (((1, 2, 3, 4, 5, 6, 7, 8), 5), ((1, 2, 3, 4, 6, 7, 8), 1)):
        state = game.position(up)
        mask = state.mask
        state.apply_action(S2.THROW_OF[(1, 2)])  # 3, 1, 2, 2 (±5: 8, 6, 7, 7): nothing free
        assert state.scores()[0] == -(S2.SUM_DOWN[mask] + 1 + 2) * factor


@pytest.mark.parametrize("lang", LANGS)
def test_spiel2_all_nine_up_brings_what_the_box_says(lang):
    game = spiel2()
    turn = box(game, lang)
    said = int(re.search(r"\+(\d+)", item(turn, "+", "neun" if lang == "de" else "nine")).group(1))
    state = game.position(tuple(range(1, 9)), (6, 3))
    state.apply_action(S2.PUSH[9])
    assert state.scores() == [said]


# --- Spiel 1 -------------------------------------------------------------------------------------
def spiel1(players=1, **options):
    return S1.Spiel1Game(players, options)


def play(state, *actions):
    for a in actions:
        state.apply_action(S1.DICE[a] if isinstance(a, tuple) else a)
    return state


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("must", (False, True))
def test_spiel1_the_example_1_2_4_is_what_the_engine_sets(must, lang):
    game = spiel1(must_assign_max=must)
    text = item(box(game, lang), "1, 2, 4" + ARROW)
    tail = text.split("1, 2, 4" + ARROW)[1].rstrip(".")
    said = {frozenset(int(x) for x in re.findall(r"\d", part.split("(")[0]))
            for part in re.split(r"; oder |; or ", tail)}
    state = play(game.new_initial_state(), (1, 2, 4))
    all_three = {frozenset(a.pushed) for a in state.legal_actions() if a.keep == 3}
    assert said == all_three == {frozenset(s) for s in ((1, 2, 4), (2, 5), (1, 6), (3, 4))}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("must", (False, True))
def test_spiel1_setting_the_six_and_losing_as_the_engine_plays_them(must, lang):
    game = spiel1(must_assign_max=must)
    de = lang == "de"
    turn = box(game, lang)
    free = ("Du musst nicht jeden Würfel setzen" if de else "You need not set every die")
    most = ("möglichst viele Würfel im Spiel" if de else "as many dice as possible stay in play")
    rule = item(turn, "gewürfelten 6" if de else "a 6 thrown")
    assert (free in rule, most in rule) == (not must, must)
    # the option as the engine plays it: 1, 2, 4 may push only the 1 (two dice out) unless it is on
    state = play(game.new_initial_state(), (1, 2, 4))
    assert (S1.Assign((1,), 1) in state.legal_actions()) == (not must)
    # the 6 (rulebook example 3): slides 1,2,3,4,6 up, two dice; 4 and 6: the 4 goes, the 6 stays unpushed
    state = play(game.new_initial_state(), (1, 2, 3), S1.Assign((1, 2, 3), 3), S1.THROW_AGAIN, (4, 6, 3),
                 S1.Assign((4, 6), 2), S1.THROW_AGAIN)  # the 3 (up already) goes
    after = play(state.clone(), (4, 6))
    assert after.legal_actions() == [S1.Assign((), 1)]
    assert ("bleibt im Spiel, auch wenn du sie nicht schiebst" if de else "stays in play even if you do not push it") in rule
    play(after, S1.Assign((), 1))
    assert after.legal_actions() == [S1.STOP, S1.THROW_AGAIN, S1.JOKERS] and after.dice == 1
    # no die stays (example 2: 3 and 4): everything is lost, as the box says (not "no die fits")
    lost = item(turn, "alles verloren: 0" if de else "everything is lost: 0")
    assert ("kein Würfel im Spiel" if de else "no die stays in play") in lost
    play(state, (3, 4))
    assert state.last_turn["end"] == "lost" and state.scores() == [0]


@pytest.mark.parametrize("lang", LANGS)
def test_spiel1_the_jokers_as_the_engine_plays_them(lang):
    de = lang == "de"
    game = spiel1()
    turn = box(game, lang)
    jokers = item(turn, "Pflicht" if de else "is a must")
    assert ("verdoppelt" if de else "doubles") in jokers
    rest = item(turn, "× ")
    full = int(re.search(r"× (\d+)", rest).group(1))

    def into():
        state = play(game.new_initial_state(), (1, 2, 4), S1.Assign((1, 6), 3), S1.JOKERS)
        base = S1.ROWS[state.row].points[0]
        with pytest.raises(IllegalActionError):  # the first joker throw is a must
            state.apply_action(S1.STOP)
        return state, base

    state, base = into()
    play(state, (1, 3, 5))  # one 1: one joker down, the value doubled
    assert state.jokers == 1 and state.stop_value() == 2 * base
    play(state, S1.THROW_AGAIN, (6, 3, 2))  # no 1, a 6: stop or one die on
    assert state.dice == 1 and state.stop_value() == 2 * base and state.legal_actions() == [S1.STOP, S1.THROW_AGAIN]
    assert ("nur noch mit diesem einen Würfel" if de else "that one die only") in rest
    play(state, S1.THROW_AGAIN, (3,))  # neither 1 nor 6: lost
    assert state.scores() == [0]
    state, base = into()
    play(state, (1, 1, 1))
    assert state.scores() == [full * base] and full == 8


@pytest.mark.parametrize("lang", LANGS)
def test_spiel1_the_rows_that_allow_more_slides_are_those_the_engine_allows(lang):
    text = item(box(spiel1(), lang), "Tabelle" if lang == "de" else "table")
    for row in S1.ROWS:
        extra = next(v for v in S1.SLIDES if v not in row.slides)
        allows_more = row.satisfied_by(row.mask | 1 << (extra - 1))
        assert (row.name[lang] in text) == allows_more, row.id


# --- both: rounds, players ----------------------------------------------------------------------
@pytest.mark.parametrize("cls", (S1.Spiel1Game, S2.Spiel2Game))
@pytest.mark.parametrize("rounds", (1, 3))
def test_the_box_says_the_rounds_and_the_start_throw_the_game_plays(cls, rounds):
    for players in (1, 2):
        game = cls(players, {"rounds": rounds})
        t = Table(game.id, players=players, seats=["random"] * players, seed=4, options={"rounds": rounds})
        t.finish()
        turns = [len(row) for row in t.session.state.sheet()]
        assert turns == [rounds] * players
        for lang in LANGS:
            text = " ".join(box(game, lang))
            assert re.search(rf"\b{rounds} (Runde|round)", text)
            assert ("Anfangswurf" in text or "Start throw" in text) == (players > 1)


def test_the_box_follows_the_options_of_the_table():
    default = VIEW.how_to(S2.Spiel2Game(2), "de")
    changed = VIEW.how_to(S2.Spiel2Game(2, {"five_ops": "all", "x5_on_stop": True, "rounds": 4}), "de")
    differ = [i for i, (a, b) in enumerate(zip(default["turn"], changed["turn"])) if a != b]
    assert len(differ) == 3  # the five, the stop, the rounds
    t = Table("wuerfel-joker-2", seed=1, lang="de", options={"x5_on_stop": True})
    assert t.state()["howto"] == VIEW.how_to(t.game, "de")
    assert "mal 5, wenn Schieber 5 oben ist (Regel-Option)" in " ".join(t.state()["howto"]["turn"])


# --- the board: named slides, pushing (Spiel 2), picking and confirming (Spiel 1) ----------------
def slide_buttons(html: str) -> dict[str, tuple[str, str]]:
    """token -> (aria-label, aria-pressed) of every clickable slide."""
    return {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r'<g data-act="(s\d)" aria-label="([^"]*)" aria-pressed="(true|false)">', html)}


def thrown(game_id: str, seed: int, lang: str = "de") -> Table:
    t = Table(game_id, players=1, seats=["human"], seed=seed, lang=lang)
    t.click("throw")
    return t


def test_spiel2_every_slide_is_a_named_button_and_a_refused_push_says_why():
    for seed in range(1, 40):
        t = thrown("wuerfel-joker-2", seed)
        ctx = t.context()
        if any(isinstance(a, S2.Push) for a in ctx.legal):
            break
    legal = {a.value for a in ctx.legal if isinstance(a, S2.Push)}
    slides = slide_buttons(t.state()["board"])
    assert sorted(slides) == [f"s{v}" for v in range(1, 10)]
    for v in range(1, 10):
        name, pressed = slides[f"s{v}"]
        assert name.startswith(f"Schieber {v}") and pressed == "false"  # nothing up at the first throw
        assert ("hochschieben" in name) == (v in legal)
    assert "(die Fünf)" in slides["s5"][0]
    wrong = min(set(range(1, 10)) - legal)
    t.click(f"s{wrong}")
    assert t.state()["message"]["kind"] == "refused" and str(wrong) in t.state()["message"]["text"]
    v = min(legal)
    t.click(f"s{v}")
    assert t.session.match.actions[-1] == S2.PUSH[v]
    t.handle({"type": "lang", "lang": "en"})
    board = t.state()["board"]
    # stop or throw again: slide v is up (pressed), and another push is refused with the engine's reason
    assert slide_buttons(board)[f"s{v}"] == (f"slide {v}: up", "true") or v == 5
    t.click(f"s{wrong}")
    assert "one slide per throw" in t.state()["message"]["text"]


def test_spiel1_slides_are_picked_on_the_board_and_the_matching_setting_takes_the_focus():
    for seed in range(1, 40):
        t = thrown("wuerfel-joker-1", seed)
        ctx = t.context()
        if ctx.observation["phase"] == S1.ASSIGN and any(len(a.pushed) >= 2 for a in ctx.legal):
            break
    target = next(a for a in ctx.legal if len(a.pushed) >= 2)
    first, second = target.pushed[:2]
    t.click(f"s{first}")
    assert t.ui["pick"] == [first] and t.state()["message"]["kind"] == "info"
    state = t.state()
    name, pressed = slide_buttons(state["board"])[f"s{first}"]
    assert pressed == "true" and "gewählt" in name
    assert 'stroke-dasharray' in state["board"]  # a chosen slide is drawn raised with a dashed edge
    # the buttons narrow to the settings that push the pick; one pushing exactly it has the focus
    shown = [t.view.click(t.context(), b["token"]) for b in state["buttons"]]
    assert shown and all(first in a.pushed for a in shown)
    focus = [a for a, b in zip(shown, state["buttons"]) if b.get("focus")]
    assert focus == [a for a in shown if a.pushed == (first,)][:1]
    t.click(f"s{second}")
    state = t.state()
    focused = [b for b in state["buttons"] if b.get("focus")]
    assert len(focused) == 1
    pushed = t.view.click(t.context(), focused[0]["token"]).pushed
    assert pushed == (first, second) or set(pushed) == {first, second}
    # a slide no setting pushes with the pick: the engine's reason, the pick kept
    others = set(range(1, 7)) - {v for a in ctx.legal if {first, second} <= set(a.pushed) for v in a.pushed}
    if others:
        t.click(f"s{min(others)}")
        assert t.state()["message"]["kind"] == "refused" and t.ui["pick"] == [first, second]
    t.click(focused[0]["token"])
    assert set(t.session.match.actions[-1].pushed) == {first, second} and not t.ui


def test_spiel1_the_jokers_go_up_with_one_click():
    for seed in range(1, 200):  # a first throw that can set a combination of the table
        t = thrown("wuerfel-joker-1", seed, "en")
        reach = [a for a in t.context().legal if S1.BEST_ROW[a.mask] >= 0]
        if reach:
            break
    t.act(reach[0])
    base = S1.ROWS[S1.BEST_ROW[reach[0].mask]].points[0]
    jokers = re.findall(r'<g data-act="(a\d)" aria-label="(joker \d: down[^"]*)" aria-pressed="false"', t.state()["board"])
    assert len(jokers) == 3 and len({tok for tok, _ in jokers}) == 1
    assert all(f"go into the jokers (base {base})" in name for _, name in jokers)
    t.click(jokers[0][0])
    assert t.session.match.actions[-1] == S1.JOKERS


@pytest.mark.parametrize("game_id", ("wuerfel-joker-1", "wuerfel-joker-2"))
def test_the_board_fits_a_phone_320_px_wide(game_id):
    """The board wraps between pictures, never inside one: on a 320 px page (about 284 px for the
    board) every picture must fit, and each slide is a tap target of at least 44 px each way. (Seen in
    Chromium at 320 × 640: both games, nine slides in two rows, no sideways scrolling.)"""
    t = Table(game_id, players=1, seats=["human"], seed=5, lang="de")
    t.click("throw")
    board = t.state()["board"]
    sizes = [(int(w), int(h)) for w, h in re.findall(r'<svg [^>]*width="(\d+)" height="(\d+)"', board)]
    assert len(sizes) == 9 + 1  # nine slides, the dice
    assert max(w for w, _ in sizes) <= 284
    slides = sizes[:9]
    assert all(w >= 44 and h >= 44 for w, h in slides)
    # six slides side by side still fit: slides 1–6 make the first row (no row of one or two)
    assert 6 * V.SLIDE_W + 5 * V.GAP <= 284
