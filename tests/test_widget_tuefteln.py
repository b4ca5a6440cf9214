"""The Tüfteln widget driven in CPython: clicks go through the engine, the screen shows its answers."""

import re

import pytest

pytest.importorskip("ipywidgets")

from spieltisch.core.errors import IllegalActionError  # noqa: E402
from spieltisch.core.registry import make_bot  # noqa: E402
from spieltisch.core.rng import Rng  # noqa: E402
from spieltisch.games.tuefteln import Place, scoring  # noqa: E402
from spieltisch.ui.tuefteln_svg import sheet_svg  # noqa: E402
from spieltisch.ui.widgets import TueftelnApp  # noqa: E402


def free_white(app):
    layout = app.layout_data
    return [f for f in range(36) if layout.kind[f] == "W" and not app.state.sheets[0][f]]


def button(app, f):
    return app.fields[f // 6][f % 6]


def test_css_classes_for_the_browser_test():
    app = TueftelnApp(seed=1)
    for r in range(6):
        for c in range(6):
            assert f"sp-field-{r}-{c}" in app.fields[r][c]._dom_classes
    assert "sp-throw" in app.throw_html._dom_classes
    assert "sp-total" in app.total._dom_classes
    assert "sp-message" in app.message._dom_classes
    assert "sp-advisor" in app.advisor._dom_classes
    assert "Rekonstruktion / reconstruction" in app.layout_note.value


def test_printed_numbers_shown_bold_on_grey():
    app = TueftelnApp(seed=1)
    layout = app.layout_data
    for f in range(36):
        b = button(app, f)
        if layout.printed[f]:
            assert b.description == str(layout.printed[f]) and b.style.font_weight == "bold"
        else:
            assert b.style.font_weight == "normal"
    # side A: blue bridge fields carry matching letters pointing at each other
    assert button(app, 1).description == "a▸" and button(app, 2).description == "◂a"


def test_two_legal_clicks_write_the_throw_into_state_and_buttons():
    app = TueftelnApp(players=1, seed=4)
    a, b = app.state.throw
    f1, f2 = free_white(app)[:2]
    button(app, f1).click()
    assert app.selected == f1 and app.state.sheets[0][f1] == 0
    button(app, f2).click()
    assert app.state.sheets[0][f1] == a and app.state.sheets[0][f2] == b
    assert button(app, f1).description == str(a) and button(app, f2).description == str(b)
    assert app.state.rounds_done == 2 and app.state.throw is not None  # next throw is up


def test_swap_gives_the_first_click_the_other_die():
    app = TueftelnApp(seed=0)
    while app.state.throw[0] == app.state.throw[1]:
        f1, f2 = free_white(app)[:2]
        app.click(f1), app.click(f2)
    a, b = app.state.throw
    app.swap_button.click()
    f1, f2 = free_white(app)[:2]
    app.click(f1), app.click(f2)
    assert (app.state.sheets[0][f1], app.state.sheets[0][f2]) == (b, a)


def test_one_click_on_a_bridge_writes_both_fields():
    app = TueftelnApp(seed=2)
    a, b = app.state.throw
    app.click(1)  # (0,1), bridged with (0,2)
    assert app.state.sheets[0][1:3] == [a, b]


def snapshot(app):
    return ([list(s) for s in app.state.sheets], app.state.rounds_done, app.state.throw,
            [[x.description for x in row] for row in app.fields], len(app.session.match.actions))


@pytest.mark.parametrize("side", ["A", "B"])
def test_refused_click_shows_the_rules_reason_and_changes_nothing(side):
    app = TueftelnApp(side=side, players=2, bots="greedy", lang="en", seed=9)
    layout = app.layout_data
    a, b = app.state.throw
    before = snapshot(app)
    # a pre-printed field
    printed = layout.printed.index(5)
    app.click(printed)
    expected = app.state.why_illegal(Place.make(printed, a, free_white(app)[0] if side == "A" else 1, b))
    assert expected.rule == "pre-printed field"
    assert expected.detail in app.message.value and "pre-printed" in app.message.value
    assert snapshot(app) == before
    # two fields the rules do not pair: white + blue on A, two colours on B
    if side == "A":
        first, second = free_white(app)[0], 3
    else:
        first = next(f for f in range(36) if layout.kind[f] == "Y")
        second = next(f for f in range(36) if layout.kind[f] == "R")
    app.click(first)
    app.click(second)
    err = app.last_refusal
    assert isinstance(err, IllegalActionError)
    assert err.rule == ("bridge" if side == "A" else "same colour")
    assert err.detail in app.message.value
    assert snapshot(app) == before
    # German: the rule in German, the engine's words beside it
    app.lang_toggle.value = "de"
    app.click(first) if app.selected is None else None
    app.click(second)
    assert "Nicht erlaubt" in app.message.value and err.detail in app.message.value
    assert snapshot(app) == before


def test_bots_write_the_same_throw_on_their_own_sheets():
    app = TueftelnApp(players=3, bots="strong", seed=5)
    a, b = app.state.throw
    f1, f2 = free_white(app)[:2]
    app.click(f1), app.click(f2)
    for p in (1, 2):
        written = [v for v, printed in zip(app.state.sheets[p], app.layout_data.printed) if v and not printed]
        assert sorted(written) == sorted([a, b])
        place = app.last_bot_places[p]
        assert sorted((place.v1, place.v2)) == sorted((a, b))
        assert f"sp-bot-{p}" in app.bots_html.value
    # every record action replays: the bots' moves are legal engine moves on the shared throw
    assert app.session.match.actions[1] == Place.make(f1, a, f2, b)


def play_out(app, bot="greedy", seed=3):
    """Play to the end by clicking what a bot would choose, as a person would."""
    bot = make_bot(app.session.match.game, bot)
    rng = Rng(seed)
    while not app.session.is_over():
        st = app.state
        act = bot.act(st.observation(0), st.legal_actions(), rng)
        if app.order()[0] != act.v1:
            app.swap_button.click()
        app.click(act.f1)
        if app.selected == act.f1:
            app.click(act.f2)
        assert app.state.sheets[0][act.f1] == act.v1 and app.state.sheets[0][act.f2] == act.v2


@pytest.mark.parametrize("side,players,lang", [("A", 1, "de"), ("B", 2, "en")])
def test_after_15_rounds_final_score_and_rating_match_the_engine(side, players, lang):
    app = TueftelnApp(side=side, players=players, bots="greedy", lang=lang, seed=21)
    play_out(app)
    st = app.state
    assert st.is_terminal() and st.rounds_done == 15
    total = st.scores()[0]
    assert f"data-total='{total}'" in app.total.value
    word = scoring.rating(total)[lang]
    assert word in app.total.value and word in app.message.value
    rows = app.score_rows(0)
    assert rows[-1][-1] == total
    cats = st.square_categories(0)
    assert sum(r[1] for r in rows[:7]) == 9 and all(c is not None for c in cats)
    assert str(total) in app.score_html.value
    labels = [lab.value for lab in app.square_labels]
    for sq, cat in enumerate(cats):
        assert scoring.LABELS[lang][cat] in labels[sq]
    # switching language re-labels the verdict
    other = "en" if lang == "de" else "de"
    app.lang_toggle.value = other
    assert scoring.rating(total)[other] in app.total.value
    # clicks after the end change nothing
    before = snapshot(app)
    app.click(0)
    assert snapshot(app) == before


def test_live_square_category_and_total():
    app = TueftelnApp(seed=8)
    st = app.state
    play_out_rounds = 0
    bot = make_bot(app.session.match.game, "greedy")
    rng = Rng(1)
    while not any(st.square_categories(0)) and play_out_rounds < 15:
        app.play_action(bot.act(st.observation(0), st.legal_actions(), rng))
        play_out_rounds += 1
    cats = st.square_categories(0)
    sq = next(i for i, c in enumerate(cats) if c is not None)
    assert scoring.LABELS["de"][cats[sq]] in app.square_labels[sq].value
    assert f"data-total='{st.scores()[0]}'" in app.total.value


def test_advisor_lists_every_legal_action_best_first():
    app = TueftelnApp(side="B", seed=13)
    f = [f for f in range(36) if app.layout_data.kind[f] == "Y"][:2]
    app.click(f[0]), app.click(f[1])
    advice = app.run_advisor(2)
    legal = app.state.legal_actions()
    means = [d["mean"] for d in advice]
    assert means == sorted(means, reverse=True)
    assert sorted(d["action"] for d in advice) == sorted(legal)
    assert all(d["ci95"][0] <= d["mean"] <= d["ci95"][1] for d in advice)
    html = app.advisor_html.value
    assert advice[0]["text"] in html and str(len(legal)) in html
    best = advice[0]["action"]
    assert "2e7d32" in button(app, best.f1).layout.border
    # the advised move is playable as is
    app.play_action(best)
    assert app.state.sheets[0][best.f1] == best.v1


def test_sheet_svg_is_well_formed_and_marks_reconstruction():
    import xml.dom.minidom

    for side in "AB":
        text = sheet_svg(side, title="x")
        xml.dom.minidom.parseString(text)
        assert "Rekonstruktion / reconstruction" in text
    # seven bridge connectors on side A
    assert len(re.findall(r"<line ", sheet_svg("A", note=False))) == 7
