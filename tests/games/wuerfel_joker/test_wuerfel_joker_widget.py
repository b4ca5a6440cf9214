"""The Würfel Joker widget, driven in CPython without a front-end (ipywidgets works headless).

Every click goes through the same button handlers a person uses; the expectations come from the
engine and the exact solvers, never from the widget itself. With two players a game opens with the
start throws (the human clicks for their own, the bot throws its own), so most tests pick a seed
where the human begins.
"""

import asyncio

import pytest

pytest.importorskip("ipywidgets")

from spieltisch.core.errors import OptionError, SpieltischError  # noqa: E402
from spieltisch.core.game import CHANCE, TERMINAL  # noqa: E402
from spieltisch.core.match import Match  # noqa: E402
from spieltisch.games.wuerfel_joker.spiel1 import analysis as solver1  # noqa: E402
from spieltisch.games.wuerfel_joker.spiel2 import analysis as solver2  # noqa: E402
from spieltisch.games.wuerfel_joker.spiel1 import engine as S1  # noqa: E402
from spieltisch.games.wuerfel_joker.spiel2 import engine as S2  # noqa: E402
from spieltisch.ui.widgets import WuerfelJokerApp  # noqa: E402

G1, G2 = "wuerfel-joker-1", "wuerfel-joker-2"


def app2(seed=7, **kw):
    return WuerfelJokerApp(game=G2, players=2, bots="optimal", lang="de", seed=seed, **kw)


def opening(game, seed, players=2, options=None):
    """The widget's match with ``seed`` after the start throws: (who begins, the first turn's throw)."""
    m = Match(game, players, options, seed)
    while m.state.phase == "start":
        m.step_chance()
    return m.state.first, m.step_chance()


def first_throw(game, seed, players=2, options=None):
    return opening(game, seed, players, options)[1]


def seed_where(pred, game=G2, limit=500, starter=0):
    """A seed where ``starter`` begins and the first turn's throw satisfies ``pred``."""
    for s in range(limit):
        first, throw = opening(game, s)
        if first == starter and pred(throw):
            return s
    raise AssertionError("no seed found")


def begin(app):
    """Play the start throws as a person does: click for the human's own, step the bot's."""
    for _ in range(50):
        if app.observation()["phase"] != "start":
            return app
        if app._human_to_throw():
            app.click_throw()
        else:
            app.click_bot_step()
    raise AssertionError("the start throws did not end")


def frozen(app):
    return (app.state.snapshot(), list(app.messages), list(app.results))


def test_lazy_export_and_display():
    from spieltisch.ui import widgets
    assert widgets.WuerfelJokerApp is WuerfelJokerApp
    bundle = app2()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_throw_shows_the_seeded_dice():
    seed = seed_where(lambda t: True)
    expected = first_throw(G2, seed)
    app = begin(app2(seed))
    assert app.state.dice is None and "data-dice=''" in app.dice_html.value
    app.click_throw()
    assert app.state.dice == (expected.a, expected.b)
    assert f"data-dice='{expected.a},{expected.b}'" in app.dice_html.value
    assert f"{expected.a}+{expected.b}" in app.messages[-1]


def test_only_legal_pushes_are_offered():
    seed = seed_where(lambda t: t.a != t.b)
    app = begin(app2(seed))
    app.click_throw()
    legal = {a.value for a in app.state.legal_actions() if isinstance(a, S2.Push)}
    assert legal and set(app.push_buttons) == legal
    for v, b in app.all_push_buttons.items():
        assert b.disabled == (v not in legal)
        assert (b.layout.visibility == "hidden") == (v not in legal)
    a, b = app.state.dice
    for v in legal:  # the arithmetic is on the button: "7 (6+1)"
        label = app.push_buttons[v].description
        assert label.startswith(f"{v} (") or label == str(v)
        assert any(label[len(str(v)) + 2:-1] == t.split(" = ")[0] for val, t in S2.formations(a, b, False) if val == v)
    # decisions that are not legal now are disabled
    assert app.stop_button.disabled and app.throw_button.disabled
    assert app.decline_button.disabled and app.decline_button.layout.display == "none"


def test_doubles_push_labels_say_pasch():
    seed = seed_where(lambda t: t.a == t.b == 3)
    app = begin(app2(seed))
    app.click_throw()
    labels = {v: b.description for v, b in app.push_buttons.items()}
    assert labels == {1: "1 (3:3)", 3: "3 (Pasch)", 6: "6 (3+3)", 9: "9 (3×3)"}  # rulebook example 2
    app.click_push(3)
    assert app.messages[-1].endswith("Schieber 3 hoch (Pasch). Unten noch: 1+2+4+5+6+7+8+9 = 42.")


def test_push_moves_the_slide_in_state_and_picture_then_stop_scores():
    seed = seed_where(lambda t: t.a != t.b)
    app = begin(app2(seed))
    app.click_throw()
    v = max(app.push_buttons)
    assert "data-up='0'" in app.slide_html[v].value
    app.click_push(v)
    assert app.state.mask == 1 << (v - 1)
    assert "data-up='1'" in app.slide_html[v].value
    assert all("data-up='0'" in app.slide_html[w].value for w in range(1, 10) if w != v)
    assert app.state.phase == S2.STOP_OR_THROW and not app.push_buttons
    expected = -S2.SUM_DOWN[1 << (v - 1)]
    assert str(abs(expected)) in app.stop_button.description
    app.click_stop()
    assert app.state.totals[0] == expected
    assert app.results[-1] == (1, 0, expected)
    assert f"<td style='padding:2px 8px;text-align:right'>{expected}</td>" in app.score.value
    assert str(abs(expected)) in app.messages[-1]
    assert app.bot_pending()


def test_bots_finish_their_turns_step_by_step_and_at_once():
    seed = seed_where(lambda t: t.a != t.b)
    app = begin(app2(seed))
    app.click_throw()
    app.click_push(min(app.push_buttons))
    app.click_stop()
    assert app.state.player == 1 and app.bot_pending()
    assert not app.bot_step_button.disabled and app.bot_step_button.layout.display != "none"
    before = app.state.snapshot()
    app.click_bot_step()  # the bot's throw
    assert app.state.snapshot() != before and app.messages[-1].startswith("Bot 2")
    app.click_bot_finish()
    assert not app.bot_pending()
    assert app.state.player == 0 and app.state.round == 1 and app.state.current_player() == CHANCE
    assert [r[:2] for r in app.results] == [(1, 0), (1, 1)]
    assert app.results[1][2] == app.state.totals[1]
    assert app.bot_step_button.layout.display == "none"


def test_human_cannot_act_for_the_bot():
    seed = seed_where(lambda t: t.a != t.b)
    app = begin(app2(seed))
    app.click_throw()
    app.click_push(min(app.push_buttons))
    app.click_stop()
    snap = frozen(app)
    app.click_throw()  # the bot is to throw: the human's throw button is disabled
    app.click_stop()
    assert frozen(app) == snap


def test_illegal_clicks_change_nothing():
    seed = seed_where(lambda t: t.a != t.b)
    app = begin(app2(seed))
    app.click_throw()
    snap = frozen(app)
    illegal = [v for v in range(1, 10) if v not in app.push_buttons]
    assert illegal
    app.click_push(illegal[0])  # disabled and hidden
    app.click_stop()  # stopping before a push is not allowed
    app.click_throw()
    app.click_decline()  # no doubles
    app.click_accept()
    assert frozen(app) == snap
    # an illegal action that reaches the engine is rejected with the rule and changes no state
    app._act(S2.PUSH[illegal[0]])
    assert app.state.snapshot() == snap[0]
    assert app.messages[-1].startswith("Nicht erlaubt")


def test_doubles_can_be_declined():
    seed = seed_where(lambda t: t.a == t.b)
    app = begin(app2(seed))
    app.click_throw()
    assert app.state.dice[0] == app.state.dice[1]
    assert not app.decline_button.disabled and app.decline_button.layout.display != "none"
    n = len(app.session.match.actions)
    app.click_decline()
    acts = app.session.match.actions[n:]
    assert acts[0] == S2.DECLINE and isinstance(acts[1], S2.Throw)  # declining throws again at once
    assert app.state.player == 0


def test_advisor_values_are_the_solvers_exact_fractions():
    seed = seed_where(lambda t: t.a != t.b)
    app = app2(seed)
    app.advisor_toggle.value = True
    assert "sp-advisor" in app.advisor._dom_classes
    assert "Anfangswurf" in app.advisor.value  # nothing to decide at the start throws
    begin(app)
    # before the throw: the value of the turn
    t0 = solver2.solve({}, "expected").start_value()
    assert f"{t0.numerator}/{t0.denominator}" in app.advisor.value
    app.click_throw()
    rows = app.advice()
    obs = app.state.observation(0)
    ref = app.state.game.advise(obs, objective="expected")
    ref_up = app.state.game.advise(obs, objective="all_up")
    assert [r["action"] for r in rows] == [o.action for o in ref.options]
    assert [r["value"] for r in rows] == [o.value for o in ref.options]
    assert [r["all_up"] for r in rows] == [ref_up.option_for(o.action).value for o in ref.options]
    assert [r["best_all_up"] for r in rows] == [ref_up.option_for(o.action).best for o in ref.options]
    best = solver2.solve(app.state, "expected").best_action(app.state)
    assert [r["action"] for r in rows if r["best"]][0] == best
    html = app.advisor.value
    for r in rows:
        f = r["value"]
        assert f"{f.numerator}/{f.denominator}" in html
        assert f"{float(f):+.3f}" in html
    assert html.count("data-best='1'") == sum(r["best"] for r in rows)
    assert app.push_buttons[best.value].button_style == "success"
    # after the push: stop versus throw again
    app.click_push(best.value)
    sol = solver2.solve(app.state, "expected")
    vals = {r["action"]: r["value"] for r in app.advice()}
    assert vals == {S2.STOP: sol.stop_value(app.state.mask), S2.ROLL: sol.throw_value(app.state.mask)}
    app.advisor_toggle.value = False
    assert app.advisor.layout.display == "none"


def test_language_toggle_changes_labels():
    app = app2(seed_where(lambda t: True))
    assert app.throw_button.description == "Anfangswurf"
    assert "Anfangswurf · wirft: Du" in app.status.value and "Berater" == app.advisor_toggle.description
    app.set_lang("en")
    assert app.throw_button.description == "Start throw" and "Start throw · throwing: You" in app.status.value
    begin(app)
    assert app.throw_button.description == "Throw"
    assert "Round" in app.status.value and app.advisor_toggle.description == "Advisor"
    assert app.game_id == G2 and app.game_toggle.value == G2  # relabelling is not a game switch
    assert [lab for lab, _ in app.game_toggle.options] == ["Game 1 (1–6 + jokers)", "Game 2 (1–9)"]
    app.click_throw()
    assert app.messages[-1].startswith("You: Throw")
    app.set_lang("de")
    assert "Runde" in app.status.value and app.stop_button.description.startswith("Aufhören")


def test_the_start_throws_decide_who_begins():
    seed = seed_where(lambda t: True, starter=1)
    app = app2(seed)
    assert app.state.phase == "start" and app._human_to_throw() and not app.bot_pending()
    assert app.messages[-1].startswith("Anfangswurf: Wer die höchste Augenzahl würfelt, beginnt.")
    app.click_stop()  # nothing but the start throw is possible
    assert len(app.session.match.actions) == 0
    app.click_throw()  # the human's start throw
    mine = app.state.start[0][2]
    assert app.messages[-1] == f"Du: Anfangswurf {mine[0]}+{mine[1]} = {sum(mine)}."
    assert app.bot_pending() and not app._human_to_throw() and "wirft: Bot 2" in app.status.value
    while app.state.phase == "start":
        if app._human_to_throw():
            app.click_throw()
        else:
            app.click_bot_step()
    assert app.messages[-1].endswith("Bot 2 (optimal) beginnt.") and app.state.first == 1
    app.click_bot_finish()  # the bot plays its first turn, then it is the human's turn
    assert [r[:2] for r in app.results] == [(1, 1)] and app._human_to_throw()
    assert app.throw_button.description == "Würfeln" and "am Zug: Du" in app.status.value
    assert f"<td style='padding:2px 8px;text-align:right'>{app.results[0][2]}</td>" in app.score.value


def test_a_tie_at_the_start_throws_again():
    for seed in range(300):
        m = Match(G2, 2, None, seed)
        a, b = m.step_chance(), m.step_chance()
        if a.a + a.b == b.a + b.b:
            break
    app = begin(app2(seed))
    tie = [msg for msg in app.messages if "Gleichstand" in msg]
    assert tie and tie[0].endswith(f"Gleichstand bei {a.a + a.b}: Du und Bot 2 (optimal) werfen noch einmal.")
    assert len(app.state.start) >= 4 and app.state.start[2][0] == 2


def test_spiel1_assign_and_jokers():
    app = WuerfelJokerApp(game=G1, seed=3, lang="en")
    assert app.game_id == G1 and len(app.slide_html) == 9 and not app.all_push_buttons
    assert "Rekonstruktion / reconstruction" in app.table_html.value
    sol = solver1.solve({})
    app.advisor_toggle.value = True
    went_into_jokers = False
    for _ in range(400):  # play the advisor's best move, but go into the jokers whenever allowed
        st = app.state
        if st.current_player() == TERMINAL:
            break
        if app.bot_pending():
            app.click_bot_finish()
            continue
        if app._human_to_throw():
            app.click_throw()
            continue
        legal = st.legal_actions()
        if st.phase == S1.ASSIGN:
            buttons = [b for b in app.assign_buttons if not b.disabled]
            assert [b._sp_action for b in buttons] == legal  # one button per legal assignment
            best = sol.best_action(st)
            rows = app.advice()
            assert [r["value"] for r in rows] == [v for _, v in sol.decision_values(st)]
            i = legal.index(best)
            app.click_assign(i)
            assert app.state.pushed == st.pushed | best.mask
            for v in best.pushed:
                assert "data-up='1'" in app.slide_html[v].value
        elif S1.JOKERS in legal:
            app.click_jokers()
            went_into_jokers = True
            assert app.session.match.actions[-2] == S1.JOKERS or app.state.row >= 0 or app.results
        elif st.phase == S1.JOKER_DECIDE:
            app.click_stop()
        else:
            (app.click_stop if sol.best_action(st) == S1.STOP else app.click_throw)()
    assert went_into_jokers
    assert app.state.current_player() == TERMINAL
    assert sum(p for _, who, p in app.results if who == 0) == app.state.totals[0]
    assert "winner" in app.status.value


def test_full_game_spiel2_with_advisor_play():
    app = app2(seed=5)
    app.advisor_toggle.value = True
    for _ in range(2000):
        st = app.state
        if st.current_player() == TERMINAL:
            break
        if app.bot_pending():
            app.click_bot_finish()
        elif app._human_to_throw():
            app.click_throw()
        else:
            best = [r["action"] for r in app.advice() if r["best"]][0]
            if isinstance(best, S2.Push):
                app.click_push(best.value)
            else:
                {S2.STOP: app.click_stop, S2.ROLL: app.click_throw, S2.DECLINE: app.click_decline,
                 S2.ACCEPT: app.click_accept}[best]()
    assert app.state.current_player() == TERMINAL
    assert len(app.results) == 20
    for p in (0, 1):
        assert sum(pts for _, who, pts in app.results if who == p) == app.state.totals[p]
    assert "gewonnen" in app.status.value
    # a new game starts from scratch with the next seed
    app.new_button.click()
    assert app.state.round == 0 and not app.results and app.seed == 6


def test_switching_games_starts_a_fresh_game():
    app = app2()
    app.click_throw()
    app.switch_game(G1)
    assert app.game_id == G1 and app.state.phase == S1.START and app.state.start == ()
    assert app.throw_button.description == "Anfangswurf"
    app.switch_game(G2)
    assert app.game_id == G2 and app.state.dice is None and len(app.all_push_buttons) == 9


def test_bots_play_by_themselves_when_an_event_loop_runs():
    async def main():
        seed = seed_where(lambda t: t.a != t.b)
        app = app2(seed, bot_delay=0)
        for _ in range(500):  # the start throws: the human clicks, the bot throws by itself
            if app.state.phase != "start":
                break
            if app._human_to_throw():
                app.click_throw()
            await asyncio.sleep(0)
        assert app.state.first == 0 and app._human_to_throw()
        app.click_throw()
        app.click_push(min(app.push_buttons))
        app.click_stop()
        assert app._bot_task  # scheduled on the running loop
        for _ in range(500):
            if not app.bot_pending():
                break
            await asyncio.sleep(0)
        assert not app.bot_pending() and app.state.player == 0 and len(app.results) == 2
        await asyncio.sleep(0)
        assert not app._bot_task

    asyncio.run(main())


# --- bad settings (issue 11): refused at once, with the project's errors, before anything is built ---

@pytest.fixture
def nothing_built(monkeypatch):
    """Building the screen or a session fails the test: a refusal must come before either."""
    from spieltisch.ui.widgets import wuerfel_joker

    def built(*args, **kwargs):
        raise AssertionError("built before the settings were checked")

    monkeypatch.setattr(wuerfel_joker, "PlaySession", built)
    monkeypatch.setattr(WuerfelJokerApp, "_build", built)


def callback_errors(caplog) -> list:
    """ipywidgets logs (and swallows) an exception in a click handler: the tests look for it."""
    return [r for r in caplog.records if "Exception in callback" in r.getMessage()]


@pytest.mark.parametrize("players", [10**9, pytest.param(10**100, id="10**100"), 9, 0, -1])
def test_a_player_count_out_of_range_is_refused_before_anything_is_built(players, nothing_built):
    with pytest.raises(OptionError, match=r"is for 1-8 players, got -?\d+$"):
        WuerfelJokerApp(game=G2, players=players)
    with pytest.raises(OptionError, match=r"wuerfel-joker-1 is for 1-8 players"):
        WuerfelJokerApp(game=G1, players=players)


@pytest.mark.parametrize("players", ["abc", "2", 2.0, True, None, [2], pytest.param("x" * 5000, id="5000-chars")])
def test_a_player_count_that_is_no_whole_number_is_an_option_error(players, nothing_built):
    with pytest.raises(OptionError, match="players must be a whole number") as info:
        WuerfelJokerApp(players=players)
    assert len(str(info.value)) < 120  # a hostile value is never echoed in full


def test_unknown_options_are_refused_naming_the_option(nothing_built):
    with pytest.raises(OptionError, match=r"Würfel Joker has no option 'roundz' \(known options: five_ops, "
                                          r"must_assign_max, rounds, x5_on_stop\)"):
        WuerfelJokerApp(options={"roundz": 3})
    with pytest.raises(OptionError, match="option 'rounds' takes a whole number, got 'many'"):
        WuerfelJokerApp(options={"rounds": "many"})
    with pytest.raises(OptionError, match="options must be a mapping"):
        WuerfelJokerApp(options="rounds=3")
    # an option of the other game is checked at once too, not when the toggle switches to it
    with pytest.raises(OptionError, match="option 'must_assign_max' takes true or false"):
        WuerfelJokerApp(game=G2, options={"must_assign_max": "vielleicht"})


def test_options_of_both_games_apply_where_they_belong():
    app = WuerfelJokerApp(game=G2, seed=1, options={"rounds": 3, "must_assign_max": True, "five_ops": "all"})
    assert app.game.options == {"rounds": 3, "five_ops": "all", "x5_on_stop": False}
    app.switch_game(G1)
    assert app.game_id == G1 and app.game.options == {"rounds": 3, "must_assign_max": True}
    assert app.observation()["rounds"] == 3


@pytest.mark.parametrize("seed", [-1, 2**64, pytest.param(10**5000, id="5000-digits"), 1.5, 7.0, True, False,
                                  "7", [7]])
def test_a_bad_seed_is_refused_with_its_range(seed, nothing_built):
    with pytest.raises(SpieltischError, match=r"seed must be a whole number from 0 to 18446744073709551615") as info:
        WuerfelJokerApp(seed=seed)
    assert len(str(info.value)) < 160


def test_new_game_after_the_largest_seed_wraps_around_and_every_click_works(caplog):
    app = app2(seed=2**64 - 1)
    assert app.session.match.seed == 2**64 - 1
    begin(app)
    app.click_throw()
    for expected in (0, 1, 2):
        app.new_button.click()
        assert app.seed == app.session.match.seed == expected
        assert app.state.phase == "start" and app.state.start == () and not app.results
        begin(app)  # the new game is playable
        app.click_throw() if app._human_to_throw() else app.click_bot_finish()
        assert app.session.match.actions
    assert callback_errors(caplog) == []


def test_new_game_with_a_bad_seed_changes_nothing():
    app = begin(app2(seed=11))
    before = frozen(app)
    session = app.session
    for bad in (-1, 2**64, 3.0, "12", True):
        with pytest.raises(SpieltischError, match="seed must be a whole number"):
            app.new_game(bad)
        assert app.seed == 11 and app.session is session and frozen(app) == before
    app.new_game(2**64 - 1)
    assert app.seed == app.session.match.seed == 2**64 - 1


def test_other_bad_settings_are_refused_at_once(nothing_built):
    with pytest.raises(OptionError, match="wuerfel-joker-2 has no bot 'nobody'; bots: random, threshold"):
        WuerfelJokerApp(bots="nobody")
    with pytest.raises(OptionError, match="wuerfel-joker-1 has no bot 'optimal_all_up'"):
        WuerfelJokerApp(game=G1, bots="optimal_all_up")
    with pytest.raises(OptionError, match="lang must be 'de' or 'en', got 'fr'"):
        WuerfelJokerApp(lang="fr")
    for game in ("wuerfel-joker-3", 3, True, "tuefteln", None):
        with pytest.raises(OptionError, match="game must be 'wuerfel-joker-1' or 'wuerfel-joker-2'"):
            WuerfelJokerApp(game=game)
    for delay in (-1, float("nan"), float("inf"), 61, True, "0.5"):
        with pytest.raises(OptionError, match="bot_delay must be a number of seconds from 0 to 60"):
            WuerfelJokerApp(bot_delay=delay)
    with pytest.raises(OptionError, match="auto_bots must be True or False"):
        WuerfelJokerApp(auto_bots="no")


def test_a_bot_only_spiel2_knows_plays_optimal_in_spiel1():
    app = WuerfelJokerApp(game=G2, bots="optimal_all_up", seed=2, lang="en")
    assert app.session.bot_names == {1: "optimal_all_up"} and "(optimal_all_up)" in app.player_name(1)
    app.switch_game(G1)
    assert app.session.bot_names == {1: "optimal"} and app.player_name(1) == "Bot 2 (optimal)"
