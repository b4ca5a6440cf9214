"""The Schraube Locker view (``games/schraube_locker/view.py``) in CPython: the cards of the circle
a click can use are exactly the legal placements, the dice of the roll serve the card functions,
refusals name the engine's rule in both languages and change nothing, a swap is explained in the
log, and a redeal of everything a player cannot see leaves their screen unchanged."""

from __future__ import annotations

import json
import re

import pytest
from sl_helpers import card, roll, table

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.rng import Rng
from spieltisch.core.view import Context
from spieltisch.games.schraube_locker import engine as E
from spieltisch.games.schraube_locker.view import SchraubeLockerView
from spieltisch.ui.table import Table

VIEW = SchraubeLockerView()
GAME = "schraube-locker"


def ctx_of(state, viewer=0, lang="de", ui=None) -> Context:
    legal = list(state.legal_actions()) if state.current_player() == viewer else []
    names = [f"P{p + 1}" for p in range(state.num_players)]
    return Context(state.game, state.observation(viewer), viewer, lang, legal, names, ui if ui is not None else {},
                   (viewer,), state.refusal)


def tokens(html: str) -> list[str]:
    return re.findall(r'data-act="([^"]+)"', html)


def click_first(t: Table) -> None:
    """Bots and chance to the player's next decision, then what the browser check clicks
    (harness.frontend.play_clicks): the first stack offered at the set-up, else the first button."""
    t.finish()
    if t.is_over():
        return
    state = t.state()
    offered = re.findall(r'class="sp-stack sp-can" data-act="([^"]+)"', state["board"])
    t.click(offered[0] if offered else state["buttons"][0]["token"])


def test_the_cards_a_click_can_use_are_exactly_the_legal_placements():
    t = Table(GAME, seed=3)
    seen = 0
    for _ in range(60):
        t.finish()
        if t.is_over():
            break
        ctx = t.context()
        if ctx.observation["phase"] == E.PLACE:
            places = {a.stack: a for a in ctx.legal if type(a) is E.Place}
            acts = tokens(VIEW.board(ctx))
            assert sorted(acts) == sorted(f"s{s}" for s in places)
            for s, a in places.items():
                assert VIEW.click(ctx.replace(ui={}), f"s{s}") == a
            assert not [b for b in VIEW.buttons(ctx) if b["token"].startswith("s")]  # placements: on the board
            seen += len(places)
        click_first(t)
    assert seen > 5  # the loop met placements to check


def test_a_refused_card_click_names_the_rule_in_both_languages_and_changes_nothing():
    t = Table(GAME, seed=3)
    for _ in range(200):
        t.finish()
        ctx = t.context()
        free = [s for s, st in enumerate(ctx.observation["stacks"])
                if st["top"] is not None and not any(type(a) is E.Place and a.stack == s for a in ctx.legal)]
        if ctx.observation["phase"] == E.PLACE and free:
            break
        click_first(t)
    else:
        raise AssertionError("no placement decision with a card that takes no die")
    before, step = t.session.state.snapshot(), t.step_id
    t.handle({"type": "act", "token": f"s{free[0]}"})
    msg = t.state()["message"]
    assert msg["kind"] == "refused" and "(Regel: " in msg["text"]
    assert re.search(r"Regel: (passender Würfel|freie Karten)", msg["text"]), msg
    t.handle({"type": "lang", "lang": "en"})
    assert re.search(r"rule: (matching die|free cards)", t.state()["message"]["text"])
    assert t.session.state.snapshot() == before and t.step_id == step


def test_an_empty_stack_is_refused_by_the_engine_s_rule():
    s = table(2, left=[0, 7, 7, 7, 7, 7])
    s.top[0] = None
    roll(s, 1, 1, 1, 1, 1, 1)
    ctx = ctx_of(s, 0, "en")
    assert "s0" not in tokens(VIEW.board(ctx)) and "sp-stack" in VIEW.board(ctx)
    with pytest.raises(IllegalActionError) as e:
        VIEW.click(ctx, "s0")
    assert e.value.rule_in("en") == "circle of stacks" and e.value.rule_in("de") == "Kartenkreis"
    assert "stack 1 is empty" in e.value.detail_in("en") and "Stapel 1 ist leer" in e.value.detail_in("de")


def test_picked_dice_serve_the_re_roll_and_turn_a_die_cards():
    turn, reroll = card("wuerfel_drehen"), card("wurf_wiederholen")
    s = table(2, displays=[[turn, reroll], []])
    roll(s, 1, 2, 2, 4, 5, 6)
    assert s.phase == E.CARDS_PHASE
    ui: dict = {}
    ctx = ctx_of(s, ui=ui)
    assert [b["token"] for b in VIEW.buttons(ctx)] == ["a0"]  # nothing picked: place the dice
    with pytest.raises(IllegalActionError):
        VIEW.click(ctx, "rr")  # no die picked: no such re-roll
    assert sorted(tokens(VIEW.board(ctx))) == [f"d{i}" for i in range(6)]  # the dice of the roll, no card
    note = VIEW.click(ctx, "d1")  # the first 2
    assert note["de"].startswith("Ausgewählt: 2") and note["en"].startswith("Chosen: 2")
    ctx = ctx_of(s, ui=ui)
    toks = [b["token"] for b in VIEW.buttons(ctx)]
    assert toks == ["a0", "rr", "tn1", "tn3", "tn4", "tn5", "tn6"]
    assert VIEW.click(ctx, "rr") == E.UseReroll(reroll, (2,))
    assert VIEW.click(ctx, "tn3") == E.UseTurn(turn, 2, 3)
    with pytest.raises(IllegalActionError):
        VIEW.click(ctx, "tn2")  # a die turned to its own face is no move
    VIEW.click(ctx, "d5")  # 2 and 6 picked: a re-roll of both, no turn of two dice
    ctx = ctx_of(s, ui=ui)
    assert [b["token"] for b in VIEW.buttons(ctx)] == ["a0", "rr"]
    assert VIEW.click(ctx, "rr") == E.UseReroll(reroll, (2, 6))
    s.apply_action(VIEW.click(ctx, "rr"))
    assert s.display[0] == [turn] and s.box == [reroll]


def test_a_swap_is_explained_and_moves_the_cards_between_the_displays():
    """Seed 11 (two players, the first button each time): the player swaps with the bot (the
    browser test plays the same seed by clicking)."""
    t = Table(GAME, seed=11, players=2)
    for _ in range(100):
        t.finish()
        ctx = t.context()
        swaps = [b for b in VIEW.buttons(ctx) if type(VIEW.click(ctx.replace(ui={}), b["token"])) is E.Swap]
        if swaps:
            break
        click_first(t)
    else:
        raise AssertionError("no swap with seed 11")
    before = [[c["id"] for c in p["display"]] for p in ctx.observation["players"]]
    assert t.state()["buttons"][0]["token"] == swaps[0]["token"]  # the first button: what the browser clicks
    action = VIEW.click(ctx.replace(ui={}), swaps[0]["token"])
    t.click(swaps[0]["token"])
    line = t.state()["message"]["text"]
    assert line.startswith("Du: mit Bot 2 (stark) tauschen: gib „Karten tauschen“ (0), nimm "), line
    after = [[c["id"] for c in p["display"]] for p in t.context().observation["players"]]
    assert sorted(after[1]) == sorted([c for c in before[1] if c != action.take] + [action.give])
    mine = [c for c in before[0] if c != action.give] + [action.take]
    assert set(mine) <= set(after[0]) and len(after[0]) <= len(mine) + 1  # + the card taken afterwards


def _screen(t: Table) -> str:
    state = t.state()
    state.pop("log"), state.pop("message")  # the way here is the same; only the position is compared
    return json.dumps(state, ensure_ascii=False)


@pytest.mark.parametrize("leak", [False, True])
def test_a_redeal_of_what_the_player_cannot_see_leaves_the_screen_unchanged(leak, monkeypatch):
    """Everything but the secured cards of the others and the face-down stacks is public; the
    screen of seat 0 is the same JSON for every redeal of those. Negative control (``leak``): an
    observation that shows the others' secured cards is caught."""
    if leak:
        real = E.SchraubeLockerState.observation

        def leaky(self, player):
            obs = real(self, player)
            for p, entry in enumerate(obs["players"]):
                entry["secured"] = [[c for c in t] for t in self.secured[p]]
                entry["display"] = entry["display"] + [self.game.deck.card_json(c) for t in self.secured[p] for c in t]
            return obs

        monkeypatch.setattr(E.SchraubeLockerState, "observation", leaky)
    t = Table(GAME, seed=2, players=2, lang="en")
    for _ in range(400):
        t.finish()
        st = t.session.state
        if st.secured[1] and st.current_player() == 0:
            break
        click_first(t)
    else:
        raise AssertionError("the bot secured nothing")
    real_state = t.session.match.state
    screen = _screen(t)
    changed = 0
    for seed in range(6):
        other = real_state.resample_hidden(0, Rng(seed))
        changed += other.secured[1] != real_state.secured[1]
        t.session.match.state = other
        same = _screen(t) == screen
        t.session.match.state = real_state
        if not leak:
            assert same, seed
        elif not same:
            return
    assert changed, "the redeal must actually move the bot's secured cards"
    assert not leak, "the leaking observation was not caught"


def test_the_advisor_rows_show_how_far_the_pawn_gets_as_people_read_percentages():
    t = Table(GAME, seed=5, advisor=True, lang="de")
    click_first(t)  # the pawn's stack
    t.finish()
    rows = t.state()["advice"]["rows"]
    assert rows and all(re.fullmatch(r"Figur zieht \(Karten\) \d: \d+,\d %(, \d: \d+,\d %)* — Rekonstruktion der "
                                     r"Karten", r["note"]) for r in rows), rows[0]["note"]
    shares = [float(x.replace(",", ".")) for x in re.findall(r"\d: (\d+,\d) %", rows[0]["note"])]
    assert abs(sum(shares) - 100) <= 0.05 * len(shares)  # the distribution, each share rounded to 0,1
    t.handle({"type": "lang", "lang": "en"})
    assert re.fullmatch(r"pawn moves \(cards\) \d: \d+\.\d%(, \d: \d+\.\d%)* — reconstructed deck",
                        t.state()["advice"]["rows"][0]["note"])
    other = Table("wuerfel-joker-2", seed=5, advisor=True)  # notes only where the view asks for them
    for _ in range(20):
        other.finish()
        advice = other.advice_now()
        if advice and any(o.note for o in advice[0].options):
            break
        other.click("throw" if other.human_throw_pending() else other.state()["buttons"][0]["token"])
    else:
        raise AssertionError("no Würfel Joker advice with notes")
    assert all(r["note"] is None for r in other.state()["advice"]["rows"])


# --- the how-to box and the names of the cards -------------------------------------------------------

# For each rule the box must explain: words that say it, in both languages (a student who never saw
# the rulebook plays a whole game from the box).
HOWTO_KEYS = {
    "pawn start is chosen": (["neben einen beliebigen Stapel", "Stapel anklicken", "Erst danach"],
                             ["beside any stack", "click a stack", "Only then"]),
    "a die fits a card": (["passt auf eine Karte, wenn er die Würfelzahl unten auf der Karte zeigt"],
                          ["fits a card when it shows the die number at the bottom of the card"]),
    "three rolls": (["allen sechs Würfeln", "noch zweimal", "aufhören"], ["all six dice", "twice more", "stop"]),
    "MUST and CAN": (["Pflicht", "nächste freie Karte", "andere freie Karten"],
                     ["MUST", "next free card", "other free cards"]),
    "the pawn moves": (["lückenlosen Würfelreihe", "kein Würfel", "sofort vorbei", "ohne Karte"],
                       ["unbroken row of dice", "no die", "ends at once", "without a card"]),
    "once round": (["Einmal komplett rum", "Bonuskarte", "am Startstapel weiter"],
                   ["Once round the circle", "bonus card", "goes on at the stack"]),
    "card functions": (["beliebig viele der eben geworfenen Würfel neu", "auf eine beliebige Zahl",
                        "bevor Würfel liegen", "in die Schachtel"],
                       ["any of the dice you just rolled again", "to any number", "before any die is placed",
                        "back in the box"]),
    "best moves after clicking a die": (["zuerst die Würfel an", "dann erscheinen die Knöpfe", "★"],
                                        ["Click the dice first", "then their buttons appear", "★"]),
    "swap or gift once per player": (["mit jedem dieser Mitspieler einmal", "keine Bonuskarte, keine gesicherte"],
                                     ["one thing with each of those players", "no bonus card, no secured card"]),
    "take the card": (["offene Karte des Stapels", "nächste Karte wird aufgedeckt"],
                      ["face-up card of the stack", "next card is turned up"]),
    "securing": (["Kombinationen sichern", "Mutter + Schraube", "Doppel-Mutter + 1 oder 2 Schrauben",
                  "Doppel-Schraube + 1 oder 2 Muttern", "Doppel-Schraube + Doppel-Mutter",
                  "Nur gesicherte Kombinationen bringen die 3 Bonuspunkte"],
                 ["secure combinations", "nut + screw", "double nut + 1 or 2 screws", "double screw + 1 or 2 nuts",
                  "double screw + double nut", "Only secured combinations earn the 3 bonus points"]),
    "end of the game": (["ein Stapel leer wird", "auch der Stapel der Bonuskarten"],
                        ["a stack runs out", "the bonus cards in the middle too"]),
    "scoring": (["6 Punkte je Bonuskarte", "3 Bonuspunkte"], ["6 points per bonus card", "3 bonus points"]),
    "advisor": (["Berater", "Zeile anklicken"], ["Advisor", "click a row"]),
}


def howto_text(lang: str) -> str:
    box = VIEW.how_to(E.SchraubeLocker(2), lang)
    return " ".join([box["title"], box["goal"], *box["turn"]])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_how_to_box_explains_every_rule(lang):
    text = howto_text(lang)
    missing = [(rule, w) for rule, words in HOWTO_KEYS.items() for w in words[lang == "en"] if w not in text]
    assert not missing, missing
    for f, names in E.FUNCTIONS.items():  # every kind of card is named as on the board
        assert names[lang] in text, (f, names[lang])


def test_the_how_to_check_catches_a_box_without_a_rule(monkeypatch):
    """Negative control: the box without its step on the card functions fails the check."""
    real = SchraubeLockerView.how_to

    def without_the_card_functions(self, game, lang):
        box = real(self, game, lang)
        return {**box, "turn": [t for t in box["turn"] if "Schachtel" not in t and "box" not in t]}

    monkeypatch.setattr(SchraubeLockerView, "how_to", without_the_card_functions)
    with pytest.raises(AssertionError):
        test_the_how_to_box_explains_every_rule("de")


def board_names(html: str) -> dict:
    """card id -> the function's name as the board's card header shows it (one or two lines)."""
    out = {}
    for card_id, head in re.findall(r'data-card="(\d+)".*?<text class="sp-card-name"[^>]*>(.*?)</text>', html):
        lines = re.findall(r"<tspan[^>]*>(.*?)</tspan>", head)
        out[int(card_id)] = "".join(a + ("" if a.endswith("-") else " ") for a in lines[:-1]) + lines[-1]
    return out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_card_names_agree_in_data_board_box_log_and_advisor(lang):
    """One name per kind of card (the rulebook's German words; English as players say them): the
    deck's data, the card headers on the board, the displays, the how-to box, the log and the
    advisor's rows all use it."""
    fs = list(E.FUNCTIONS)
    ids = [card(f) for f in fs]
    assert [E.CARDS.function[c] for c in ids] == fs  # every function of the data has a card
    box = howto_text(lang)
    # the board: two circles of face-up cards show every function once
    for tops in (ids[:6], ids[2:]):
        s = table(2, tops=tops, pawns=[0, 3])
        shown = board_names(VIEW.board(ctx_of(s, lang=lang)))
        assert shown == {c: E.FUNCTIONS[E.CARDS.function[c]][lang] for c in tops}
    # a display holding one card of each kind, a roll for the card functions
    rr, tn, sw, gf = card("wurf_wiederholen"), card("wuerfel_drehen"), card("karten_tauschen"), card("karte_verschenken")
    screw, nut = card("schraube"), card("mutter")
    s = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 3], displays=[[rr, tn, sw, gf], [screw, nut]])
    roll(s, 1, 1, 2, 3, 5, 6)
    ctx = ctx_of(s, lang=lang)
    extra = VIEW.extra(ctx)
    rows = {type(o.action): VIEW.option_label(ctx, o.action) for o in s.game.advise(s.observation(0)).options}
    before = ctx
    s.apply_action(E.UseTurn(tn, 1, 4))
    log = VIEW.explain(before, E.UseTurn(tn, 1, 4), ctx_of(s, lang=lang))
    for c, kind in ((rr, E.UseReroll), (tn, E.UseTurn)):
        name = E.FUNCTIONS[E.CARDS.function[c]][lang]
        assert rows[kind].startswith(name + ":"), (rows[kind], name)
        assert name in box and name in extra
    assert log.startswith(E.FUNCTIONS["wuerfel_drehen"][lang] + ": 1 → 4")
    # swap, gift and secure name the cards they move
    s2 = table(2, numbers=(1, 4, 2, 6, 3, 5), pawns=[0, 1], displays=[[sw, gf], [screw, nut]])
    roll(s2, 4, 1, 1, 1, 1, 1)
    s2.apply_action(E.Stop())
    ctx2 = ctx_of(s2, lang=lang)
    labels = " ".join(VIEW.option_label(ctx2, a) for a in s2.legal_actions())
    for f in ("karten_tauschen", "karte_verschenken", "schraube", "mutter"):
        assert E.FUNCTIONS[f][lang] in labels and E.FUNCTIONS[f][lang] in box, f
    s3 = table(2, displays=[[screw, nut], []])
    s3.pending, s3.phase, s3._cache = None, E.SECURE, None
    secure = VIEW.option_label(ctx_of(s3, lang=lang), E.Secure((screw, nut)) if screw < nut else E.Secure((nut, screw)))
    assert E.FUNCTIONS["schraube"][lang] in secure and E.FUNCTIONS["mutter"][lang] in secure


def test_the_name_check_catches_a_board_with_its_own_card_names(monkeypatch):
    """Negative control: a board that writes „Wurf neu“ on the card (the old short name) fails."""
    from spieltisch.games.schraube_locker import view as V
    real = V.header_lines
    monkeypatch.setattr(V, "header_lines", lambda name: ["Wurf neu"] if name == "Wurf wiederholen" else real(name))
    with pytest.raises(AssertionError):
        test_card_names_agree_in_data_board_box_log_and_advisor("de")


@pytest.mark.parametrize("reading", ["secured", "display"])
def test_the_final_score_rows_add_up_to_the_totals(reading):
    """At the end the rows of the score table add up to each player's total, also when face-up
    combinations score (D3, combination_bonus=display: a row of their own)."""
    t = Table(GAME, seed=7, players=2, seats=["greedy", "random"], options={"combination_bonus": reading})
    t.finish()
    assert t.is_over()
    sc = t.state()["scores"]
    *parts, total = sc["rows"]
    assert len(parts) == (4 if reading == "display" else 3)

    def value(cell):
        if "×" in cell:
            a, b = cell.split(" × ")
            return int(a) * int(b)
        return int(cell.replace("−", "-"))

    for col in range(1, len(sc["headers"])):
        assert sum(value(row[col]) for row in parts) == value(total[col])
    if reading == "display":  # seed 7: the random bot ends with a screw and a nut face up
        assert parts[-1][2] == "3"
