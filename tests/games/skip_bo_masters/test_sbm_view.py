"""The Skip-Bo Masters view on the shared front-end, in CPython: every legal move is two clicks (a card,
then a pile) or a button, refusals are the engine's in both languages, and nothing a viewer cannot
see reaches ``Table.state()``: the JSON a viewer gets is the same when only hidden cards change (other
hands, face-down stock cards, the draw pile), with a leaky view as the negative control."""

from __future__ import annotations

import json
import re

import pytest

from sbm_positions import position, resolve, toll
from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE
from spieltisch.core.rng import Rng
from spieltisch.core.view import Context
from spieltisch.games.skip_bo_masters.engine import DISCARDS, PILES, Buy, Discard, Play, Replace
from spieltisch.games.skip_bo_masters.view import SkipBoMastersView
from spieltisch.ui.table import Table

VIEW = SkipBoMastersView()


def ctx_of(state, viewer=0, lang="de", ui=None) -> Context:
    legal = state.legal_actions() if state.current_player() == viewer else []
    names = [("Du" if lang == "de" else "You") if p == viewer else f"Bot {p + 1}" for p in range(state.num_players)]
    return Context(state.game, state.observation(viewer), viewer, lang, legal, names, {} if ui is None else ui,
                   (viewer,), state.refusal)


def tokens(board: str, kind: str) -> list[str]:
    return re.findall(rf"class='sb-card sp-{kind}' data-act='([^']*)'", board)


def sources(n: int) -> list[str]:
    """Every source token a board of ``n`` players can carry, and some it never carries."""
    out = ["s", "h0", "h5", "h105", "h999", "hx"] + [f"d{j}" for j in range(DISCARDS + 1)]
    out += [f"o{q}s" for q in range(n + 1)] + [f"o{q}d{j}" for q in range(n) for j in range(DISCARDS)]
    return out


def click(ctx, token):
    """What the view makes of a click: a legal action, a note, or the refusal's words."""
    try:
        got = VIEW.click(ctx, token)
    except IllegalActionError as e:
        return ("refused", e.detail_in("de"), e.rule_in("de"), e.detail_in("en"), e.rule_in("en"))
    return got if isinstance(got, dict) else ("action", got.to_json())


def positions(seeds=(1, 2), players=3, per_game=12):
    """The human's decisions (seat 0) along real games against greedy bots (seat 0 plays the
    advisor-free first option the board offers)."""
    for seed in seeds:
        t = Table("skip-bo-masters", players=players, seats=["human"] + ["greedy"] * (players - 1), seed=seed)
        for _ in range(per_game):
            t.finish()
            if t.is_over():
                break
            yield t
            legal = t.context().legal
            t.act(legal[(seed * 7) % len(legal)])


def end_turn(t: Table) -> None:
    """The human plays the first own card the rules offer until the turn may end (D5), then discards
    (a toll is paid or declined, whichever comes first)."""
    for _ in range(200):
        t.finish()
        legal = t.context().legal
        discard = next((a for a in legal if isinstance(a, Discard)), None)
        if discard is not None:
            t.act(discard)
            return
        t.act(next((a for a in legal if isinstance(a, Play)), legal[0]))
    raise AssertionError("the turn did not end")


def test_every_legal_move_is_a_card_then_a_pile_or_a_button():
    seen = set()
    for t in positions():
        ctx = t.context()
        buttons = {b["token"] for b in VIEW.buttons(ctx)}
        reached = set()
        for b in buttons:
            reached.add(json.dumps(VIEW.click(ctx.replace(ui={}), b).to_json()))
        board = VIEW.board(ctx.replace(ui={}))
        for src in tokens(board, "can"):
            ui = {}
            note = VIEW.click(ctx.replace(ui=ui), src)
            assert set(note) == {"de", "en"} and ui == {"src": src}
            shown = VIEW.board(ctx.replace(ui=ui))
            assert tokens(shown, "sel") == [src]
            for target in tokens(shown, "target"):
                action = VIEW.click(ctx.replace(ui=dict(ui)), target)
                assert action in ctx.legal, (src, target, action)
                reached.add(json.dumps(action.to_json()))
        assert reached == {json.dumps(a.to_json()) for a in ctx.legal}
        seen |= {type(a).__name__ for a in ctx.legal}
    assert {"Play", "Discard", "Buy", "Replace"} <= seen  # the games above reach every kind of move


def test_GOLDEN_replace_example_pays_4_coins_then_the_5_from_the_stock():
    """Rulebook: pile at 3, stock top 5, no 4 and no wild card in hand: pay 4 coins for the 4, then
    the 5 must be played at once."""
    s = position(hands=[[2, 7, 9, 11, 12], [1, 2, 3, 4, 6]], stock_tops=[5, 8], piles=[3])
    ctx = ctx_of(s)
    [button] = [b for b in VIEW.buttons(ctx) if VIEW.click(ctx, b["token"]) == Replace(0, 4)]
    assert button["label"] == "ersetze die nächste Karte auf Ablagestapel 1 für 4 Münzen"
    s.apply_action(VIEW.click(ctx, button["token"]))
    assert s.coins == [8, 12] and s.building[0].coins == 4
    ctx = ctx_of(s)
    assert "4 Münzen" in VIEW.board(ctx) or "data-coins='4'" in VIEW.board(ctx)
    assert VIEW.click(ctx, "s") == {"de": "5 gewählt: jetzt einen Stapel anklicken.",
                                    "en": "5 chosen: now click a pile."}
    assert VIEW.click(ctx, "b0") == Play("stock", 0, 5, 0)
    # the following card is due: a hand card that is not a 5 is refused with the rule, in both languages
    ctx = ctx_of(s, ui={})
    with pytest.raises(IllegalActionError) as e:
        VIEW.click(ctx, "h7")
    assert e.value.detail_in("de") == "Ablagestapel 1 braucht eine 5 (oder eine Skip-Bo-Karte), nicht 7"
    assert e.value.detail_in("en") == "building pile 1 needs a 5 (or a Skip-Bo card), not 7"
    with pytest.raises(IllegalActionError) as e:  # no discard either: the following card comes first
        VIEW.click(ctx, "a99")


def test_buying_a_stock_card_and_the_toll_buttons():
    s = position(hands=[[2, 7, 9, 11, 12], [1, 2, 3, 4, 6]], stock_tops=[10, toll(4, 1)], piles=[3])
    ctx = ctx_of(s)
    assert "o1s" in tokens(VIEW.board(ctx), "can")
    ui = {}
    VIEW.click(ctx.replace(ui=ui), "o1s")
    action = VIEW.click(ctx.replace(ui=ui), "b0")
    assert action == Buy(1, "stock", 0, 104, 0)
    s.apply_action(action)
    resolve(s, Rng(1))  # the owner turns up the next stock card
    assert s.coins == [11, 13] and s.stock_top[1] is not None
    ctx = ctx_of(s)
    labels = [b["label"] for b in VIEW.buttons(ctx)]
    assert labels == ["Gebühr zahlen (1 Münze)", "Gebühr nicht zahlen (Legen endet)"]
    assert VIEW.status(ctx, 0) == "am Zug: Du · Gebühr: 1 Münze zahlen?"
    assert VIEW.status(ctx.replace(lang="en", names=["You", "Bot 2"]), 0) == "to play: You · toll: pay 1 coin?"
    with pytest.raises(IllegalActionError) as e:  # a card while the toll is due: the engine's refusal
        VIEW.click(ctx, "h2")
    assert e.value.rule_in("de") == "Gebühr" and e.value.rule_in("en") == "toll"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_refusals_name_the_rule_and_the_visible_cards_only(lang):
    s = position(hands=[[2, 7, 9, 11, 12], [1, 2, 3, 4, 6]], stock_tops=[5, 8], piles=[3], coins=[0, 12])
    ctx = ctx_of(s, lang=lang)
    with pytest.raises(IllegalActionError) as e:
        VIEW.click(ctx, "s")  # a 5 on a pile that needs a 4
    assert e.value.detail_in(lang) == ("Ablagestapel 1 braucht eine 4 (oder eine Skip-Bo-Karte), nicht 5"
                                       if lang == "de" else "building pile 1 needs a 4 (or a Skip-Bo card), not 5")
    with pytest.raises(IllegalActionError) as e:
        VIEW.click(ctx, "o1s")  # no coin to buy with
    assert e.value.rule_in(lang) == ("Karte kaufen" if lang == "de" else "buy a card")
    ui = {}
    VIEW.click(ctx.replace(ui=ui), "h7")
    with pytest.raises(IllegalActionError) as e:
        VIEW.click(ctx.replace(ui=ui), "b0")
    assert e.value.detail_in(lang).endswith("nicht 7" if lang == "de" else "not 7")
    # through the Table: the message line, nothing changed
    t = Table("skip-bo-masters", seed=4, lang=lang)
    t.finish()
    before = (list(t.session.match.actions), t.state()["board"])
    t.click("o1d2")  # an empty discard pile of the other player
    msg = t.state()["message"]
    assert msg["kind"] == "refused" and ("Regel" if lang == "de" else "rule") in msg["text"]
    assert (t.session.match.actions, t.state()["board"]) == before


def test_the_spectator_sees_no_hand_and_the_player_only_their_own():
    t = Table("skip-bo-masters", players=3, seats=["greedy"] * 3, seed=2)
    for _ in range(30):
        t.step()
    board = t.state()["board"]
    assert "sb-hand'" not in board and not re.search(r"data-act='h\d+'", board)
    assert board.count("class='sb-other'") == 3
    t = Table("skip-bo-masters", players=3, seed=2)
    t.finish()
    hand = t.session.state.hands[0]
    assert re.findall(r"data-act='h(\d+)'", t.state()["board"]) == [str(c) for c in hand]


# --- hidden information --------------------------------------------------------------------------

class LeakyView(SkipBoMastersView):
    """Negative control: a view that reaches the true state behind the refusal callback and shows
    the next player's hand."""

    def board(self, ctx):
        state = ctx.refusal.__self__
        return super().board(ctx) + f"<div>{state.hands[(ctx.viewer + 1) % state.num_players]}</div>"


def hidden_changes_keep_the_state_json(table: Table, draws: int = 6) -> bool:
    """Whether ``table.state()`` stays the same when only the cards its viewer cannot see are drawn
    afresh (``draws`` times); the table is left as it was."""
    true = table.session.match.state
    want = table.state_json()
    rng = Rng(99)
    try:
        for _ in range(draws):
            other = true.resample_hidden(table.viewer(), rng)
            assert other.observation(table.viewer()) == true.observation(table.viewer())
            table.session.match.state = other
            table._advice_key = None  # the advisor computes again, from the observation
            if table.state_json() != want:
                return False
        return True
    finally:
        table.session.match.state = true
        table._advice_key = None


def test_hidden_cards_never_change_what_a_viewer_gets():
    checked = 0
    for i, t in enumerate(positions(seeds=(3, 5), players=4, per_game=10)):
        t.handle({"type": "advisor", "on": i % 4 == 3})  # the advisor's rows too, now and then (slow)
        assert hidden_changes_keep_the_state_json(t, draws=3)
        true = t.session.match.state
        # the check means something where other hands hold cards that a redraw changes
        checked += any(true.resample_hidden(0, Rng(99)).hands[q] != true.hands[q] for q in (1, 2, 3))
    assert checked >= 12


def test_negative_control_a_leaky_view_fails_the_check():
    t = Table("skip-bo-masters", players=3, seed=3)
    for _ in range(2):  # the others hold cards once they have had a turn
        t.finish()
        end_turn(t)
    t.finish()
    assert hidden_changes_keep_the_state_json(t)
    t.view = LeakyView()
    assert not hidden_changes_keep_the_state_json(t)


def test_another_players_draws_leave_the_same_log_and_screen():
    """While a bot draws, the viewer's screen (log included) is the same whichever cards it draws."""
    t = Table("skip-bo-masters", players=3, seed=6)
    t.finish()
    end_turn(t)
    steps = 0
    while t.session.current_player() == CHANCE and t.session.chance_player() != 0:
        true = t.session.match.state
        results = set()
        for k in range(4):
            t.session.match.state = true.clone() if k == 0 else true.resample_hidden(0, Rng(k))
            log, step_id, news = [dict(e) for e in t.log], t.step_id, t._news
            t.step()
            results.add(t.state_json())
            t.log, t.step_id, t._news = log, step_id, news  # (the log lines' running number too)
        t.session.match.state = true
        assert len(results) == 1
        t.step()
        steps += 1
    assert steps >= 1
    assert t.log[-1]["texts"]["0"] == {"de": "zieht eine Karte.", "en": "draws a card."}


def clicks_differ(true, others, ctx_for=ctx_of) -> int:
    """How many (chosen card, click) pairs give another answer on a state with other hidden cards."""
    differ = 0
    for sel in [None] + sources(3):
        for token in sources(3) + [f"b{i}" for i in range(PILES + 1)] + ["a99", "zz"]:
            ui = {} if sel is None else {"src": sel}
            want = click(ctx_for(true, ui=dict(ui)), token)
            differ += any(click(ctx_for(o, ui=dict(ui)), token) != want for o in others)
    return differ


def test_refusals_and_notes_are_the_same_whatever_the_hidden_cards():
    """``ctx.refuse`` asks the full state: its words must not depend on a card the viewer cannot see."""
    compared = 0
    for t in positions(seeds=(7,), players=3, per_game=5):
        true = t.session.match.state
        others = [true.resample_hidden(0, Rng(k)) for k in range(3)]
        assert clicks_differ(true, others) == 0
        compared += 1
    assert compared == 5


def test_negative_control_a_refusal_naming_a_hidden_card_is_found():
    t = next(x for i, x in enumerate(positions(seeds=(7,), players=3, per_game=5)) if i == 4)
    true = t.session.match.state
    others = [true.resample_hidden(0, Rng(k)) for k in range(3)]
    assert any(o.hands[1] != true.hands[1] for o in others)

    def leaky(state, ui=None):
        def refusal(action):
            return IllegalActionError("top cards", f"player 2 holds {state.hands[1]}",
                                      f"Spieler 2 hat {state.hands[1]}", "oberste Karte")
        return ctx_of(state, ui=ui).replace(refusal=refusal)

    assert clicks_differ(true, others, leaky) > 0


def test_the_spectator_view_shows_no_hand_and_the_projector_keeps_the_seat():
    """Hiding hands is the spectator view, a choice of its own; the projector only makes things
    larger, and a teacher playing a seat on it still sees that seat and its moves."""
    t = Table("skip-bo-masters", players=3, seed=2)
    t.finish()
    hand = re.findall(r"data-act='h(\d+)'", t.state()["board"])
    assert hand and t.state()["buttons"] is not None
    t.handle({"type": "projector", "on": True})
    assert re.findall(r"data-act='h(\d+)'", t.state()["board"]) == hand and t.state()["projector"]
    t.handle({"type": "spectator", "on": True})
    state = t.state()
    assert not re.findall(r"data-act='h\d+'", state["board"]) and state["buttons"] == []
    assert state["board"].count("class='sb-other'") == 3  # every seat's open piles, nobody's hand
    # nothing on the projector depends on a hand card, the player's own included
    assert hidden_changes_keep_the_state_json(t)
    t.handle({"type": "spectator", "on": False})
    assert re.findall(r"data-act='h(\d+)'", t.state()["board"]) == hand
    # the log the player saw names their own draws (at the next turn, after a discard); the
    # spectator view says "draws a card" instead
    end_turn(t)
    t.finish()
    state = t.state()
    mine = [x for x in [*state["log"], state["message"]["text"]] if x.startswith("Du: zieht")]
    assert mine and "Du: zieht eine Karte." not in mine  # the player's screen names them
    t.handle({"type": "spectator", "on": True})
    state = t.state()
    lines = [*state["log"], state["message"]["text"]]
    assert [x for x in lines if x.startswith("Du: zieht")] == ["Du: zieht eine Karte."] * len(mine), lines


def test_the_advisor_reports_its_progress_to_a_host():
    """``Table.on_progress``: the Play page shows the advisor's progress while it works: the moves of
    its play-outs against its budget, once per new whole percent, the last call saying done."""
    t = Table("skip-bo-masters", players=3, seed=5, advisor=True)
    t.finish()
    calls = []
    t.on_progress = lambda done, total: calls.append((done, total))
    t.state()
    assert len(calls) > 3 and calls[-1][0] == calls[-1][1]
    shares = [100 * d // n for d, n in calls]
    assert shares == sorted(set(shares))  # a new whole percent each time, never back


def test_a_completed_pile_and_its_payout_are_told_in_the_log():
    s = position(hands=[[12, 3, 4, 5, 6], [1, 2, 3, 4, 6]], stock_tops=[9, 8],
                 piles=[(list(range(1, 12)), 11, 3)])
    before = {lang: ctx_of(s, lang=lang) for lang in ("de", "en")}
    action = Play("hand", 0, 12, 0)
    s.apply_action(action)
    assert s.coins == [14, 13]  # 3 coins one by one: the completer, the next, the completer again
    text = {lang: VIEW.explain(before[lang], action, ctx_of(s, lang=lang)) for lang in ("de", "en")}
    assert text == {"de": "12 von der Hand auf Ablagestapel 1 – Ablagestapel 1 ist fertig, 3 Münzen werden "
                          "reihum verteilt.",
                    "en": "play 12 from hand on building pile 1 – building pile 1 is complete, 3 coins are "
                          "handed out in turn."}


def test_a_purchase_names_the_seller_as_the_table_does():
    """The advisor's rows and the log say "Bot 2", as the table's seats are called, not the engine's
    "Spieler 2"; the engine's own label keeps its wording (records, CLI)."""
    seen = 0
    for t in positions(seeds=(1, 2, 3, 4), per_game=30):
        ctx = t.context()
        for a in (a for a in ctx.legal if type(a) is Buy):
            seen += 1
            seller = ctx.names[a.owner].split(" (")[0]
            assert seller.startswith("Bot ") and f"von {seller} " in label(t, ctx, a), a
            assert "von Spieler" not in label(t, ctx, a) and f"von Spieler {a.owner + 1}" in a.label("de")
            en = ctx.replace(lang="en", names=t.contexts()["en"].names)
            assert f"of {seller} " in label(t, en, a) and "of player" not in label(t, en, a)
    assert seen, "no purchase offered in these games"


def label(table, ctx, action) -> str:
    return table.view.option_label(ctx, action)


# --- the status line and the How-to-play box ---------------------------------------------------------

@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_status_says_cards_are_drawn_until_the_player_can_act(lang):
    """On the Play page the table paces the human's own draws (chance steps) at the start of a turn;
    clicks are refused then, so the status must not say it is the human's move yet: it says that cards
    are being drawn (or turned up), and "to play: You" exactly when a click can make a move."""
    turn, draws = ("am Zug: Du", "Du ziehst Karten …") if lang == "de" else ("to play: You", "You draw cards …")
    t = Table("skip-bo-masters", players=3, seed=11, lang=lang)
    seen = {"draws": 0, "turn": 0, "other": 0}
    for _ in range(400):
        if t.is_over():
            break
        status = t.state()["status"]
        legal = t.context().legal
        assert (turn in status) == bool(legal), (status, legal)
        if t.pending():
            who = t.session.whose_turn()
            if t.session.current_player() == CHANCE and who == 0:
                assert status.endswith(draws) or "…" in status, status
                seen["draws"] += status.endswith(draws)
                before = list(t.session.match.actions)
                t.click("h1")  # a click while the cards come: refused, nothing changes
                assert t.state()["message"]["kind"] == "refused" and t.session.match.actions == before
            else:
                seen["other"] += 1
            t.step()
        else:
            seen["turn"] += 1
            t.act(next((a for a in legal if isinstance(a, Discard)), legal[0]))
    assert seen["draws"] >= 5 and seen["turn"] >= 5 and seen["other"] >= 5, seen


def test_the_status_of_another_players_draw_and_a_turned_up_stock_card():
    s = position(hands=[[9, 9, 9, 9, 9], []], stock_tops=[4, 12], piles=[3])
    s.apply_action(Play("stock", 0, 4, 0))  # the next stock card is turned up: a chance step
    ctx = ctx_of(s)
    assert VIEW.status(ctx, 0) == "Du deckst die nächste Karte deines Spielerstapels auf …"
    en = ctx.replace(lang="en", names=["You", "Bot 2"])
    assert VIEW.status(en, 0) == "You turn up the next card of your stock pile …"
    other = ctx_of(s, viewer=1)
    assert VIEW.status(other, 0) == "Bot 1 deckt die nächste Karte des Spielerstapels auf …"


# every rule a student needs for a whole game: its key words in the box, in both languages
HOWTO_RULES = {
    "hand of 5": (["5 Handkarten", "Nachziehstapel"], ["5 cards", "draw pile"]),
    "at most 4 building piles": (["höchstens 4 Ablagestapel"], ["at most 4 building piles"]),
    "a pile starts with a 1, then the next number": (["beginnt", "mit einer 1", "nächsthöhere Zahl"],
                                                     ["starts with a 1", "next number up"]),
    "Skip-Bo card is wild": (["Skip-Bo-Karte", "jede Zahl"], ["Skip-Bo card", "any number"]),
    "play from hand, stock top, discard top": (["Handkarte", "oberste Karte deines Spielerstapels",
                                                "oberste Karte eines deiner Hilfsstapel"],
                                               ["in your hand", "top card of your stock pile",
                                                "top card of one of your discard piles"]),
    "D5 must play": (["musst jede deiner Karten legen, die passt"], ["must play every card of yours that fits"]),
    "emptied hand draws 5": (["sofort 5 neue Karten"], ["5 new cards at once"]),
    "12 completes, reshuffle": (["Mit der 12", "fertig", "gemischt"], ["complete with its 12", "shuffled"]),
    "replace: only a missing card, its value, then the following card at once": (
        ["Ersetzen", "Fehlt dir die Karte", "eine 4 kostet 4 Münzen", "sofort die nächstfolgende Karte",
         "Eine 12 kann nicht ersetzt werden"],
        ["replacing", "if you lack the card", "a 4 costs 4 coins", "at once play the following card",
         "A 12 cannot be replaced"]),
    "buy for 1 coin, last stock card makes them win": (
        ["Kaufen", "1 Münze", "sofort", "letzte Karte seines Spielerstapels, gewinnt er"],
        ["Buying", "1 coin", "at once", "last card of their stock pile, they win"]),
    "toll": (["Gebühr", "Münzsymbolen", "Zahlst du nicht"], ["Toll", "coin symbols", "If you do not pay"]),
    "payout round the table": (["reihum", "die erste an dich", "linken Nachbarn"],
                               ["one by one", "the first to you", "on your left"]),
    "end with a discard, only top cards": (["Hilfsstapel", "jede Karte", "nur die oberste Karte"],
                                           ["discard piles", "any card", "only ever play the top card"]),
    "win": (["letzte Karte seines Spielerstapels loswird, gewinnt sofort"], ["last card of their stock pile wins at once"]),
}


@pytest.mark.parametrize("rule", sorted(HOWTO_RULES))
def test_the_how_to_play_box_states_every_rule_in_both_languages(rule):
    game = Table("skip-bo-masters", seed=1).game
    for lang, words in zip(("de", "en"), HOWTO_RULES[rule]):
        box = VIEW.how_to(game, lang)
        text = " ".join([box["goal"], *box["turn"]])
        for w in words:
            assert w in text, (lang, rule, w)


def test_the_box_follows_the_options_and_uses_the_boards_words():
    from spieltisch.games.skip_bo_masters.engine import SkipBoMasters
    text = {lang: " ".join(VIEW.how_to(SkipBoMasters(4), lang)["turn"]) for lang in ("de", "en")}
    other = SkipBoMasters(4, {"must_play": False, "replace_held": True, "replace_cost": "one", "short_game": True,
                              "multi_round": True, "target_score": 200, "round_start": "youngest",
                              "wild_discard": False, "discard_after_unpaid_toll": False,
                              "short_hand_refill": False})
    de = VIEW.how_to(other, "de")
    en = VIEW.how_to(other, "en")
    de_text, en_text = " ".join(de["turn"]), " ".join(en["turn"])
    assert "musst jede" not in de_text and "darfst so viele" in de_text and "as many cards that fit as you like" in en_text
    assert "Fehlt dir" not in de_text and "kostet 1 Münze" in de_text and "costs 1 coin" in en_text
    assert "10 Karten" in de["goal"] and "10 cards" in en["goal"]
    assert "200 Punkte" in de_text and "wieder Spieler 1" in de_text and "200 points" in en_text
    assert "keine Skip-Bo-Karte" in de_text and "without a discard" in en_text and "only if you held 5" in en_text
    # several rounds: buying an opponent's last stock card wins them the round, not the game
    assert "gewinnt er die Runde!" in de_text and "they win the round!" in en_text
    assert "gewinnt er die Runde" not in " ".join(VIEW.how_to(SkipBoMasters(4), "de")["turn"])
    # the box names the piles as the board does (and the log: the engine's labels)
    t = Table("skip-bo-masters", seed=1)
    t.finish()
    for lang, words in (("de", ["Ablagestapel", "Spielerstapel", "Hilfsstapel", "Nachziehstapel"]),
                        ("en", ["building pile", "stock pile", "discard pile", "draw pile"])):
        t.set_lang(lang)
        board = t.state()["board"].lower()
        for w in words:
            assert w in text[lang] and w.lower() in board, (lang, w)
    assert "Ablagestapel" in Play("stock", 0, 5, 0).label("de") and "stock pile" in Play("stock", 0, 5, 0).label("en")
    assert "Skip-Bo" in VIEW.board(ctx_of(position(hands=[[0, 5], []], stock_tops=[3, 4])))


def test_a_hand_card_that_must_wait_is_refused_with_the_must_play_rule():
    """D5: the 9 fits nowhere and may not be discarded while the 5 fits; the click says why."""
    s = position(hands=[[5, 9, 9, 10, 11], [1, 2, 3, 4, 6]], stock_tops=[12, 8], piles=[4])
    for lang in ("de", "en"):
        with pytest.raises(IllegalActionError) as e:
            VIEW.click(ctx_of(s, lang=lang), "h9")
        assert e.value.rule_in(lang) == ("Ausspielpflicht (D5)" if lang == "de" else "must play (D5)")
        assert ("5 von der Hand auf Ablagestapel 1" if lang == "de" else "play 5 from hand on building pile 1") \
            in e.value.detail_in(lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_reconstruction_note_counts_the_card_file(lang, monkeypatch):
    """The note under the board states the split of the cards as the card file has it (a replaced,
    real distribution must not be described with the reconstruction's 168/144/24)."""
    import spieltisch.games.skip_bo_masters.view as view_module
    from spieltisch.games.skip_bo_masters.engine import CARD_COUNTS, TOTAL_CARDS, is_wild

    state = position()
    wild = sum(n for c, n in CARD_COUNTS.items() if is_wild(c))
    note = VIEW.extra(ctx_of(state, lang=lang))
    assert f"{TOTAL_CARDS} " in note and f"({TOTAL_CARDS - wild} " in note and f", {wild} Skip-Bo" in note
    # another file: 150 cards, 30 of them wild
    monkeypatch.setattr(view_module, "CARD_COUNTS", {0: 30, 1: 120})
    monkeypatch.setattr(view_module, "TOTAL_CARDS", 150)
    other = VIEW.extra(ctx_of(state, lang=lang))
    assert "150 " in other and "(120 " in other and ", 30 Skip-Bo" in other and "168" not in other
