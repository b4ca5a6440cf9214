"""The Tüfteln widget driven in CPython: clicks go through the engine, the screen shows its answers."""

import re

import pytest

pytest.importorskip("ipywidgets")

from spieltisch.core.errors import IllegalActionError, OptionError, SpieltischError  # noqa: E402
from spieltisch.core.registry import make_bot  # noqa: E402
from spieltisch.core.rng import Rng  # noqa: E402
from spieltisch.games.tuefteln import Place, scoring  # noqa: E402
from spieltisch.games.tuefteln.view import sheet_svg  # noqa: E402
from spieltisch.ui.widgets import TueftelnApp  # noqa: E402
from spieltisch.ui.widgets.tuefteln import MARK_TIES  # noqa: E402


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
    app.click(1)  # B1 (row 0, col 1), bridged with C1
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
    # German: the engine's German rule name, its words beside it in German too
    app.lang_toggle.value = "de"
    app.click(first) if app.selected is None else None
    app.click(second)
    refusal = app.last_refusal
    assert f"Nicht erlaubt (Regel: {refusal.rule_de})." in app.message.value
    assert refusal.detail_de in app.message.value
    assert err.detail not in app.message.value and err.rule not in app.message.value
    assert snapshot(app) == before


@pytest.mark.parametrize("lang", ["de", "en"])
def test_refusal_detail_in_the_screens_language(lang):
    app = TueftelnApp(side="A", lang=lang, seed=9)
    app.click(0)  # A1: the pre-printed 5
    err = app.last_refusal
    assert err.rule == "pre-printed field"
    msg = app.message.value
    if lang == "de":
        assert "Nicht erlaubt (Regel: vorgedruckte Felder)." in msg
        assert "in Feld A1 steht die vorgedruckte 5" in msg and "has the pre-printed" not in msg
    else:
        assert "Not allowed (rule: pre-printed field)." in msg
        assert "field A1 has the pre-printed 5" in msg and "vorgedruckte" not in msg
    # a blue field with a white one: the bridge partner is named as on the sheet (B1 ↔ C1)
    f = free_white(app)[0]
    app.click(f)
    app.click(1)
    assert app.last_refusal.rule == "bridge"
    want = ("das blaue Feld B1 wird nur zusammen mit seinem Brückenpartner C1 beschrieben" if lang == "de"
            else "blue field B1 may only be filled together with its bridge partner C1")
    assert want in app.message.value


def test_a_refusal_without_german_shows_the_english_words():
    app = TueftelnApp(lang="de", seed=9)
    app._show_refusal(IllegalActionError("legal moves", "only in English"))
    assert "Nicht erlaubt (Regel: legal moves)." in app.message.value and "only in English" in app.message.value
    app._show_refusal(IllegalActionError("legal moves", "only in English", "nur auf Deutsch", "erlaubte Züge"))
    assert "Nicht erlaubt (Regel: erlaubte Züge)." in app.message.value and "nur auf Deutsch" in app.message.value


def test_field_names_on_the_sheets_edges_and_in_messages():
    app = TueftelnApp(lang="de", seed=4)
    cols = app.column_labels.children[1:]
    assert "".join(re.findall(r">([A-F])<", "".join(c.value for c in cols))) == "ABCDEF"
    rows = "".join(lab.value for lab in app.row_labels)
    assert re.findall(r">([1-6])<", rows) == list("123456")
    assert all("sp-row-labels" in lab._dom_classes for lab in app.row_labels)
    assert "sp-column-labels" in app.column_labels._dom_classes
    # the corner buttons' tooltips start with their names; so do the messages
    assert [button(app, f).tooltip.split()[0] for f in (0, 5, 30, 35)] == ["A1", "F1", "A6", "F6"]
    app.click(6)  # row 2, column A: white
    assert "kommt nach A2." in app.message.value
    assert "Brücke mit C1" in button(app, 1).tooltip  # B1 is bridged with C1


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


def test_the_throw_names_its_thrower_and_bot_sheets_come_from_the_observation():
    from spieltisch.games.tuefteln.view import observation_svg

    app = TueftelnApp(players=3, bots="greedy", lang="en", seed=5)
    assert "thrown by you" in app.throw_html.value  # round 1 is thrown by seat 0, then clockwise
    for thrower in ("Bot 1 (greedy)", "Bot 2 (greedy)", "you"):
        f1, f2 = free_white(app)[:2]
        app.click(f1), app.click(f2)
        assert f"thrown by {thrower}" in app.throw_html.value
    obs = app.state.observation(0)
    last = app.last_bot_places[2]
    assert observation_svg(obs, 2, cell=22, lang="en", highlight=(last.f1, last.f2),
                           title=f"Bot 2 (greedy): {obs['sheets'][2]['score']}", note=False) in app.bots_html.value
    assert "thrown by" not in TueftelnApp(players=1, lang="en", seed=5).throw_html.value


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
    means = [o.value.mean for o in advice.options]
    assert means == sorted(means, reverse=True)
    assert sorted(o.action for o in advice.options) == sorted(legal)
    assert all(o.value.lo <= o.value.mean <= o.value.hi for o in advice.options)
    html = app.advisor_html.value
    assert advice.options[0].label["de"] in html and str(len(legal)) in html
    # ties are shown as ties: every option the advisor marks best is highlighted, with rank 1; the
    # fields of all of them get the green border, or, when too many tie, none does
    best = [o for o in advice.options if o.best]
    assert html.count("class='sp-advice-best'") == len(best)
    if len(best) > 1:
        assert f"Die ersten {len(best)} (grün)" in html
    marked = {f for o in best for f in (o.action.f1, o.action.f2)} if len(best) <= MARK_TIES else set()
    for g in range(36):
        assert ("2e7d32" in button(app, g).layout.border) == (g in marked)
    # the advised move is playable as is
    top = advice.options[0].action
    app.play_action(top)
    assert app.state.sheets[0][top.f1] == top.v1


def test_advisor_marks_a_lone_best_and_few_ties_on_the_sheet():
    from spieltisch.core.advice import Estimate, make_advice

    app = TueftelnApp(side="A", lang="en", seed=3)
    legal = app.state.legal_actions()
    wide, narrow = Estimate(30.0, 29.0, 31.0, 9), Estimate(20.0, 19.5, 20.5, 9)
    for tied in (1, 2, MARK_TIES + 1):
        valued = [(a, wide if i < tied else narrow) for i, a in enumerate(legal)]
        app.advice = make_advice(valued, method={"de": "m", "en": "m"}, objective={"de": "o", "en": "o"})
        app.advice_method = (2, "greedy")
        app.refresh()
        marked = {g for g in range(36) if "2e7d32" in button(app, g).layout.border}
        want = {f for a in legal[:tied] for f in (a.f1, a.f2)} if tied <= MARK_TIES else set()
        assert marked == want
        html = app.advisor_html.value
        assert html.count("class='sp-advice-best'") == tied
        assert ("stands apart" in html) == (tied == 1)
        assert ("none of them is marked" in html) == (tied > MARK_TIES)


def test_advisor_reads_the_observation_like_the_game_advisor():
    """The widget's advice is the game's advice on seat 0's observation, with the same settings."""
    app = TueftelnApp(side="A", players=2, bots="greedy", lang="en", seed=3)
    advice = app.run_advisor(2)
    same = app.state.game.advise(app.state.observation(0), n_rollouts=2, seed=app.seed % (2 ** 32))
    assert advice == same and not advice.exact
    assert advice.method["en"] in app.advisor_html.value


def test_advisor_shows_progress_and_is_disabled_while_it_runs():
    app = TueftelnApp(side="B", lang="en", seed=13)
    total = len(app.state.legal_actions())
    seen = []
    app.advisor_progress.observe(
        lambda ch: seen.append((ch["new"], app.advise_button.disabled, app.advisor_progress.layout.display,
                                app.advisor_status.value)), names="value")
    assert app.advisor_progress.layout.display == "none" and not app.advise_button.disabled
    app.advise_button.click()
    values = [v for v, *_ in seen]
    assert values == list(range(1, total + 1))  # one step per legal placement, up to all of them
    # shown with "" (not None: the Pyodide kernel sends None as undefined and the bar stays hidden)
    assert all(disabled and display == "" for _, disabled, display, _ in seen)
    assert f"computing {total}/{total}" in seen[-1][3] and "computing 1/" in seen[0][3]
    assert app.advisor_progress.max == total
    # afterwards: hidden again, the button usable, the advice the same as without a progress display
    assert app.advisor_progress.layout.display == "none" and app.advisor_status.value == ""
    assert not app.advise_button.disabled
    plain = app.state.game.advise(app.state.observation(0), n_rollouts=app.rollouts.value,
                                  seed=app.seed % (2 ** 32))
    assert app.advice == plain
    # a click queued while it ran (delivered afterwards) does not compute the same advice again
    first, steps = app.advice, len(seen)
    app.advise_button.click()
    assert app.advice is first and len(seen) == steps
    # other settings: computed anew
    app.rollouts.value = 2 if app.rollouts.value != 2 else 4
    app.advise_button.click()
    assert app.advice is not first and len(seen) > steps


def test_no_advice_after_the_game():
    app = TueftelnApp(seed=21)
    play_out(app)
    assert app.run_advisor(2) is None and app.advice is None
    assert "no throw to write now" in app.advisor_html.value or "kein Wurf einzutragen" in app.advisor_html.value


def test_sheet_svg_is_well_formed_and_marks_reconstruction():
    import xml.dom.minidom

    for side in "AB":
        text = sheet_svg(side, title="x")
        xml.dom.minidom.parseString(text)
        assert "Rekonstruktion / reconstruction" in text
    # seven bridge connectors on side A
    assert len(re.findall(r"<line ", sheet_svg("A", note=False))) == 7


def test_sheet_svg_names_columns_and_rows_at_its_edges():
    text = sheet_svg("A", cell=40)
    cols = re.findall(r'<text x="([\d.]+)"[^>]*class="sp-col-label">([A-F])</text>', text)
    rows = re.findall(r'<text x="[\d.]+" y="([\d.]+)"[^>]*class="sp-row-label">([1-6])</text>', text)
    assert [c for _, c in cols] == list("ABCDEF") and [r for _, r in rows] == list("123456")
    xs = [float(x) for x, _ in cols]
    assert all(b - a == 40 for a, b in zip(xs, xs[1:]))  # one letter over the middle of each column
    ys = [float(y) for y, _ in rows]
    assert ys == sorted(ys)  # 1 at the top
    # the letter over column A stands over the first field's middle
    first = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="40"', text)
    assert xs[0] == float(first.group(1)) + 20
    assert "sp-col-label" not in sheet_svg("A", edges=False)
    assert "sp-col-label" in sheet_svg("B", cell=22, note=False)  # the small bot sheets too


# --- bad settings (issue 11): refused at once, with the project's errors, before anything is built ---

@pytest.fixture
def nothing_built(monkeypatch):
    """A session or the widget's box being built fails the test: a refusal must come first."""
    from spieltisch.ui.widgets import tuefteln

    def built(*args, **kwargs):
        raise AssertionError("built before the settings were checked")

    monkeypatch.setattr(tuefteln, "PlaySession", built)
    monkeypatch.setattr(tuefteln.W.VBox, "__init__", built)


def callback_errors(caplog) -> list:
    """ipywidgets logs (and swallows) an exception in a click handler: the tests look for it."""
    return [r for r in caplog.records if "Exception in callback" in r.getMessage()]


@pytest.mark.parametrize("players", [10**9, pytest.param(10**100, id="10**100"), 16, 0, -1])
def test_a_player_count_out_of_range_is_refused_before_anything_is_built(players, nothing_built):
    with pytest.raises(OptionError, match=r"^tuefteln is for 1-15 players, got -?\d+$"):
        TueftelnApp(players=players)


@pytest.mark.parametrize("players", ["abc", "2", 2.0, True, None, [2], pytest.param("x" * 5000, id="5000-chars")])
def test_a_player_count_that_is_no_whole_number_is_an_option_error(players, nothing_built):
    with pytest.raises(OptionError, match="players must be a whole number") as info:
        TueftelnApp(players=players)
    assert len(str(info.value)) < 120  # a hostile value is never echoed in full


def test_unknown_or_bad_options_are_refused_naming_the_option(nothing_built):
    with pytest.raises(OptionError, match=r"tuefteln has no option 'roundz' \(known options: descending_straights, "
                                          r"side\)"):
        TueftelnApp(options={"roundz": 3})
    with pytest.raises(OptionError, match="option 'side' must be one of A, B; got 'C'"):
        TueftelnApp(side="C")
    with pytest.raises(OptionError, match="option 'descending_straights' takes true or false"):
        TueftelnApp(options={"descending_straights": "vielleicht"})
    with pytest.raises(OptionError, match="options must be a mapping"):
        TueftelnApp(options=["side", "B"])
    with pytest.raises(OptionError, match=r"side 'A' and options\['side'\] 'B' disagree"):
        TueftelnApp(side="A", options={"side": "B"})


def test_the_side_comes_from_the_argument_or_the_options():
    assert TueftelnApp(seed=1).side == "A"
    app = TueftelnApp(seed=1, options={"side": "B", "descending_straights": True})
    assert app.side == "B" and app.state.game.options == {"side": "B", "descending_straights": True}
    assert TueftelnApp(side="B", seed=1, options={"side": "B"}).state.game.options["side"] == "B"


@pytest.mark.parametrize("seed", [-1, 2**64, pytest.param(10**5000, id="5000-digits"), 1.5, 7.0, True, False,
                                  "7", [7]])
def test_a_bad_seed_is_refused_with_its_range(seed, nothing_built):
    with pytest.raises(SpieltischError, match=r"seed must be a whole number from 0 to 18446744073709551615") as info:
        TueftelnApp(seed=seed)
    assert len(str(info.value)) < 160


def test_the_largest_seed_plays_and_new_games_keep_working(caplog):
    app = TueftelnApp(players=2, bots="greedy", seed=2**64 - 1)
    assert app.session.match.seed == 2**64 - 1 and f"Seed {2**64 - 1}" in app.title.value
    app.play_action(app.state.legal_actions()[0])
    assert app.observation()["round"] == 2
    assert app.run_advisor(2).options  # the advisor's own seed is derived from it, in range
    for _ in range(3):
        app.new_button.click()
        assert 0 <= app.seed < 2**32 and app.session.match.seed == app.seed
        assert app.observation()["round"] == 1
        app.play_action(app.state.legal_actions()[0])
    assert callback_errors(caplog) == []


def test_new_game_with_a_bad_seed_changes_nothing():
    app = TueftelnApp(seed=11)
    app.play_action(app.state.legal_actions()[0])
    before, session = app.state.snapshot(), app.session
    for bad in (-1, 2**64, 3.0, "12", True):
        with pytest.raises(SpieltischError, match="seed must be a whole number"):
            app.new_game(bad)
        assert app.seed == 11 and app.session is session and app.state.snapshot() == before
    app.new_game(2**64 - 1)
    assert app.seed == app.session.match.seed == 2**64 - 1 and app.observation()["round"] == 1


def test_other_bad_settings_are_refused_at_once(nothing_built):
    with pytest.raises(OptionError, match="tuefteln has no bot 'nobody'; bots: random, greedy, strong"):
        TueftelnApp(players=2, bots="nobody")
    with pytest.raises(OptionError, match="tuefteln has no bot 'nobody'"):  # a typo is reported solo too
        TueftelnApp(players=1, bots="nobody")
    with pytest.raises(OptionError, match="lang must be 'de' or 'en', got 'fr'"):
        TueftelnApp(lang="fr")
    for n in (3, 0, 10**9, True, 4.0, "4"):
        with pytest.raises(OptionError, match="advisor_rollouts must be one of 2, 4, 8, 16, 32"):
            TueftelnApp(advisor_rollouts=n)


def test_new_game_clears_every_written_field_also_in_the_browser():
    """A field button is never given an empty description: ipywidgets' ButtonView (in the browser)
    redraws a button only when its description or icon is non-empty, so "Neues Spiel" left the old
    numbers on the screen (the browser test in tests/site checks the page itself)."""
    app = TueftelnApp(seed=3)
    first = app.state.legal_actions()[0]
    app.play_action(first)
    assert app.fields[first.f1 // 6][first.f1 % 6].description == str(first.v1)
    app.new_game(5)
    layout = app.layout_data
    for r, row in enumerate(app.fields):
        for c, b in enumerate(row):
            assert b.description != ""
            if not layout.printed[r * 6 + c]:
                assert not any(ch.isdigit() for ch in b.description), (r, c, b.description)
