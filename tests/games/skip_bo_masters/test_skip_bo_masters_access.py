"""Skip-Bo Masters on the Play page for every student (issue 34): what a screen reader says for each
card and pile (owner, pile, card, count, coin symbols, state), ``aria-pressed`` on the chosen card,
the other players' tables as a short summary, every colour the board writes or marks with declared
(and the states told apart by more than colour), and the How-to-play box held against the engine for
every option: a fact the box states is read from the box and checked by playing the engine."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from sbm_positions import WILD, position, toll
from spieltisch.core.rng import Rng
from spieltisch.core.view import CONTRAST_NEEDED, Context, contrast
from spieltisch.games.skip_bo_masters.engine import (DISCARD, DeclineToll, Discard, Play, Replace,
                                                     SkipBoMasters, card_name)
from spieltisch.games.skip_bo_masters.view import BORDER, SkipBoMastersView
from spieltisch.ui.table import Table

VIEW = SkipBoMastersView()


def ctx_of(state, viewer=0, lang="de", ui=None) -> Context:
    legal = state.legal_actions() if state.current_player() == viewer else []
    names = [("Du" if lang == "de" else "You") if p == viewer else f"Bot {p + 1}" for p in range(state.num_players)]
    return Context(state.game, state.observation(viewer), viewer, lang, legal, names, {} if ui is None else ui,
                   (viewer,), state.refusal)


class _Parts(HTMLParser):
    """Every element's attributes, in order (the board is HTML, not SVG); an activatable element's
    attributes also hold the text it shows ("_text", its text nodes joined as a browser's
    accessibility check joins them: with nothing in between)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self._open = []  # [attrs of the activatable element, depth] while inside one

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append(a)
        if self._open:
            self._open[-1][1] += 1
        elif "data-act" in a:
            a["_text"] = ""
            self._open.append([a, 1])

    def handle_endtag(self, tag):
        if self._open:
            self._open[-1][1] -= 1
            if self._open[-1][1] == 0:
                self._open.pop()

    def handle_data(self, data):
        if self._open:
            self._open[-1][0]["_text"] += data


def words(text: str) -> list[str]:
    """Words as axe-core's label-content-name-mismatch compares them: parentheticals dropped, every
    character that is no letter or digit a space, lower case."""
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", "", text)
    return re.sub(r"[^\w]|_", " ", text.lower()).split()


def label_in_name(shown: str, name: str) -> bool:
    """WCAG 2.5.3: the words a control shows are, in their order, part of its name."""
    want, have = words(shown), words(name)
    return not want or any(have[i:i + len(want)] == want for i in range(len(have) - len(want) + 1))


def parts(html: str) -> list[dict]:
    p = _Parts()
    p.feed(html)
    return p.elements


def acts(html: str) -> dict[str, list[dict]]:
    """The activatable elements by token (equal hand cards share one)."""
    out: dict = {}
    for a in parts(html):
        if "data-act" in a:
            out.setdefault(a["data-act"], []).append(a)
    return out


def label(html: str, token: str) -> str:
    return acts(html)[token][0]["aria-label"]


def select(ctx, token):
    ui = {}
    note = VIEW.click(ctx.replace(ui=ui), token)
    assert isinstance(note, dict), note
    return ctx.replace(ui=ui)


# --- names --------------------------------------------------------------------------------------------

def test_the_stock_discard_and_building_piles_say_owner_card_count_and_state():
    s = position(hands=[[4, 9, toll(9, 2), 11, WILD], [1, 2, 3, 4, 6]], stock_tops=[12, toll(7, 1)],
                 stock_down=[14, 9], piles=[([WILD], 1, 3)],
                 discards=[[[5, 8], [], [], []], [[], [5, 3, 2], [], []]])
    de = VIEW.board(ctx_of(s))
    assert label(de, "s") == "Dein Spielerstapel: 12, 15 übrig"
    assert label(de, "d0") == "Dein Hilfsstapel 1: oben 8, 2 Karten"
    assert label(de, "d1") == "Dein Hilfsstapel 2: leer"
    assert label(de, "b0") == "Ablagestapel 1: Skip-Bo (zählt als 1), braucht 2, 3 Münzen daneben"
    assert label(de, "b1") == "Ablagestapel 2: frei, braucht 1"
    assert label(de, "o1s") == "Spielerstapel von Bot 2: 7 (1 Münzsymbol), 10 übrig"
    assert label(de, "o1d1") == "Hilfsstapel 2 von Bot 2: oben 2, 3 Karten, kaufbar für 1 Münze"
    assert label(de, "o1d0") == "Hilfsstapel 1 von Bot 2: leer"
    # coin symbols in words, and what a card can do now: the 9 with two symbols fits nowhere
    assert label(de, f"h{toll(9, 2)}") == "Handkarte 9 (2 Münzsymbole)"
    assert label(de, f"h{WILD}") == "Handkarte Skip-Bo, spielbar"
    en = VIEW.board(ctx_of(s, lang="en"))
    assert label(en, "s") == "Your stock pile: 12, 15 left"
    assert label(en, "d0") == "Your discard pile 1: 8 on top, 2 cards"
    assert label(en, "o1d1") == "discard pile 2 of Bot 2: 2 on top, 3 cards, can be bought for 1 coin"
    assert label(en, "b1") == "building pile 2: free, needs 1"
    # the coins beside a pile are named where they lie too (no word stands beside the coin picture)
    assert "aria-label='3 Münzen daneben'" in de and "aria-label='3 coins beside it'" in en


def test_the_chosen_card_is_pressed_and_chosen_and_the_piles_it_fits_say_so():
    s = position(hands=[[2, 9, 9, 10, 11], [1, 5, 6, 7, 8]], stock_tops=[12, 8], piles=[1, 5])
    ctx = ctx_of(s)
    before = VIEW.board(ctx)
    assert [t for t, es in acts(before).items() if any(e.get("aria-pressed") == "true" for e in es)] == []
    assert acts(before)["h2"][0]["aria-pressed"] == "false"
    chosen = select(ctx, "h2")
    board = VIEW.board(chosen)
    pressed = [(t, e["aria-label"]) for t, es in acts(board).items() for e in es if e.get("aria-pressed") == "true"]
    assert pressed == [("h2", "Handkarte 2, gewählt")]
    assert label(board, "b0") == "Ablagestapel 1: 1, braucht 2, passt"
    assert label(board, "b1") == "Ablagestapel 2: 5, braucht 6"  # the 2 does not fit there
    en = VIEW.board(chosen.replace(lang="en"))
    assert label(en, "h2") == "hand card 2, chosen" and label(en, "b0").endswith(", fits")
    # equal cards are one choice: only the first of the two 9s is pressed (D5 off: a 9 may be discarded)
    s = position(options={"must_play": False}, hands=[[2, 9, 9, 10, 11], [1]], stock_tops=[12, 8], piles=[1])
    board = VIEW.board(select(ctx_of(s), "h9"))
    assert [e.get("aria-pressed") for e in acts(board)["h9"]] == ["true", "false"]
    assert label(board, "d0") == "Dein Hilfsstapel 1: leer, passt (Zugende)"  # a hand card may end the turn there


def check_names(ctx, html: str) -> list[str]:
    """What is wrong with the names of one board: an element with no name, a name that is not in
    the table's language, a state the name does not say, aria-pressed on the wrong card."""
    wrong = []
    sel = ctx.ui.get("src")
    other_lang = {"de": ("stock pile", "discard pile", "building pile", "hand card"),
                  "en": ("Spielerstapel", "Hilfsstapel", "Ablagestapel", "Handkarte")}[ctx.lang]
    words = {"sel": ctx.t("gewählt", "chosen"), "target": ctx.t("passt", "fits")}
    pressed_first = set()
    for token, elements in acts(html).items():
        for e in elements:
            name = e.get("aria-label", "").strip()
            if not name:
                wrong.append(f"{token}: no name")
                continue
            if any(w in name for w in other_lang):
                wrong.append(f"{token}: not in {ctx.lang}: {name}")
            if not label_in_name(e.get("_text", ""), name):
                wrong.append(f"{token}: shows {e.get('_text')!r}, not part of its name {name!r}")
            cls = e.get("class", "")
            for state, word in words.items():
                if (f"sp-{state}" in cls.split()) != bool(re.search(f", {word}( \\([^)]*\\))?$", name)):
                    wrong.append(f"{token}: state {state} and name {name!r} disagree")
            if e.get("data-card"):
                card = card_name(int(e["data-card"]), ctx.lang)
                if card not in name:
                    wrong.append(f"{token}: the name {name!r} does not say its card {card}")
            if token.startswith("o") and ctx.names[int(token[1:].rstrip("s").partition("d")[0])] not in name:
                wrong.append(f"{token}: the name {name!r} does not say whose it is")
            if e.get("aria-pressed") == "true":
                if token != sel or token in pressed_first:
                    wrong.append(f"{token}: pressed but not the chosen card")
                pressed_first.add(token)
    if sel and sel not in pressed_first and sel in acts(html):
        wrong.append(f"{sel}: chosen but not pressed")
    return wrong


def test_every_name_over_whole_games_says_its_card_owner_and_state():
    """Along bot games (3 players, seat 0 human), with every card the player may choose chosen in
    turn, in both languages: every element named, in the table's language, with its card, its
    owner and its state, and aria-pressed on the chosen card only."""
    checked = 0
    for seed in (3, 4):
        t = Table("skip-bo-masters", players=3, seats=["human", "greedy", "greedy"], seed=seed)
        for step in range(40):
            t.finish()
            if t.is_over():
                break
            for lang in ("de", "en"):
                ctx = t.contexts()[lang]
                board = VIEW.board(ctx.replace(ui={}))
                assert check_names(ctx.replace(ui={}), board) == []
                for tok, es in acts(board).items():
                    if "sp-can" in es[0].get("class", ""):
                        chosen = select(ctx, tok)
                        assert check_names(chosen, VIEW.board(chosen)) == [], tok
                        checked += 1
            legal = t.context().legal
            t.act(legal[step % len(legal)])
    assert checked > 100


def test_negative_control_the_name_check_finds_a_wrong_board():
    s = position(hands=[[2, 9, 9, 10, 11], [1, 5, 6, 7, 8]], stock_tops=[12, 8], piles=[1, 5],
                 discards=[[[], [], [], []], [[3], [], [], []]])
    ctx = select(ctx_of(s), "h2")
    board = VIEW.board(ctx)
    assert check_names(ctx, board) == []
    assert check_names(ctx, board.replace("aria-label='Ablagestapel 1: 1, braucht 2, passt'", "")) \
        == ["b0: no name"]
    assert check_names(ctx, board.replace(", passt'", "'"))  # a target that does not say it fits
    assert check_names(ctx, board.replace("aria-pressed='true'", "aria-pressed='false'"))
    assert check_names(ctx, board.replace("Hilfsstapel 1 von Bot 2", "Hilfsstapel 1"))
    assert check_names(ctx, board.replace("Handkarte 10", "hand card 10"))
    assert check_names(ctx, board.replace("Spielerstapel von Bot 2: 8", "Spielerstapel von Bot 2: 7"))
    # the name must hold what the card shows, in its order (WCAG 2.5.3): "2, 15 übrig" is no "15 Karten"
    assert check_names(ctx, board.replace("Dein Spielerstapel: 12, 15 übrig", "Dein Spielerstapel: 12, noch 15 Karten"))
    assert not label_in_name("1215 übrig", "Dein Spielerstapel: 12, 15 übrig")  # the words must be apart
    assert label_in_name("Skip-Bo braucht 2", "Ablagestapel 1: Skip-Bo (zählt als 1), braucht 2")


def test_the_other_players_tables_are_summed_up_in_a_sentence():
    s = position(players=3, hands=[[2, 9, 9, 10, 11], [1, 5, 6], [3, 4]], stock_tops=[12, toll(8, 1), None],
                 stock_down=[14, 4, 0], coins=[12, 7, 1],
                 discards=[[[], [], [], []], [[3], [], [4, WILD], []], [[], [], [], []]])
    groups = {a["data-player"]: a["aria-label"] for a in parts(VIEW.board(ctx_of(s))) if "data-player" in a}
    assert groups == {"1": "Bot 2: 7 Münzen, 3 Karten auf der Hand, Spielerstapel 8 (1 Münzsymbol) (noch 5), "
                           "Hilfsstapel oben: 3, leer, Skip-Bo, leer",
                      "2": "Bot 3: 1 Münze, 2 Karten auf der Hand, Spielerstapel – (noch 0), "
                           "Hilfsstapel oben: leer, leer, leer, leer"}
    en = {a["data-player"]: a["aria-label"] for a in parts(VIEW.board(ctx_of(s, lang="en"))) if "data-player" in a}
    assert en["1"] == ("Bot 2: 7 coins, 3 cards in hand, stock pile 8 (1 coin symbol) (5 left), "
                       "discard piles on top: 3, empty, Skip-Bo, empty")


# --- colours ---------------------------------------------------------------------------------------------

COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


def undeclared(html: str) -> set[str]:
    """The text colours (``color:``) and outline colours (``border:``) a board uses that the view
    does not declare for that use."""
    text = {fg.lower() for fg, _, use in VIEW.colours if use == "text"}
    marker = {fg.lower() for fg, _, use in VIEW.colours if use == "marker"}
    out = set()
    for a in parts(html):
        for prop in a.get("style", "").split(";"):
            key, _, value = prop.partition(":")
            key = key.strip().lower()
            for c in COLOUR.findall(value):
                if key == "color" and c.lower() not in text:
                    out.add(f"text {c}")
                if key == "border" and c.lower() not in marker and "sb-card" in a.get("class", ""):
                    out.add(f"outline {c}")
    return out


def test_every_colour_the_board_writes_or_marks_with_is_declared_and_meets_wcag():
    s = position(options={"must_play": False}, hands=[[2, 9, toll(9, 2), 10, WILD], [1, 5, 6, 7, 8]], stock_tops=[12, 3], piles=[1, 5],
                 discards=[[[4], [], [], []], [[3], [], [], []]])
    ctx = ctx_of(s)
    boards = [VIEW.board(ctx), VIEW.board(select(ctx, "h2")), VIEW.board(select(ctx, f"h{toll(9, 2)}")),
              VIEW.extra(ctx)]
    html = "".join(boards)
    assert {"sp-sel", "sp-target", "sp-can"} <= set(re.findall(r"sp-(?:sel|target|can)", html))
    assert undeclared(html) == set()
    for fg, bg, use in VIEW.colours:
        assert contrast(fg, bg) >= CONTRAST_NEEDED[use], (fg, bg, use)
    # negative control: a colour the view does not declare is found
    assert undeclared(html.replace("color:#555555", "color:#999999", 1)) == {"text #999999"}
    assert undeclared(html.replace("4px solid #b35900", "4px solid #f39c12")) == {"outline #f39c12"}


def test_the_states_differ_in_more_than_colour():
    """A chosen card, a place it may go and a card to choose are told apart without colour: the
    outlines differ in width or pattern, and the chosen card carries a ✓."""
    shapes = {state: re.sub(COLOUR, "", border).split() for state, border in BORDER.items()}
    assert len({tuple(v) for v in shapes.values()}) == len(shapes) == 3
    s = position(hands=[[2, 9, 9, 10, 11], [1, 5, 6, 7, 8]], stock_tops=[12, 8], piles=[1, 5])
    board = VIEW.board(select(ctx_of(s), "h2"))
    chosen = re.search(r"<span class='sb-card sp-sel'.*?</span>(?:<span[^>]*>[^<]*</span>)*", board).group(0)
    assert "✓" in chosen and board.count("✓") == 1


# --- the How-to-play box against the engine, option by option -------------------------------------------

def box(options=None, lang="de", players=2) -> str:
    b = VIEW.how_to(SkipBoMasters(players, options or {}), lang)
    return " ".join([b["goal"], *b["turn"]])


def number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return int(m.group(1))


def differs(option, value, base=None):
    """The box changes in both languages when ``option`` changes."""
    base = dict(base or {})
    for lang in ("de", "en"):
        assert box(base, lang) != box({**base, option: value}, lang), (option, lang)


def test_box_default_hand_piles_coins_and_stock_are_the_engines():
    game = SkipBoMasters(3)
    s = game.new_initial_state()
    rng = Rng(1)
    while s.current_player() < 0:
        s.apply_action(s.sample_chance(rng))
    for lang, pats in (("de", (r"bis du (\d+) Handkarten", r"höchstens (\d+) Ablagestapel",
                                r"jeder hat zu Beginn (\d+)\)", r"Spielerstapels los \((\d+) Karten",
                                r"deiner (\d+) Hilfsstapel")),
                       ("en", (r"until you hold (\d+) cards", r"at most (\d+) building piles",
                               r"everyone starts with (\d+)\)", r"stock pile \((\d+) cards",
                               r"one of your (\d+) discard piles"))):
        text = box(lang=lang, players=3)
        hand, piles, coins, stock, discards = (number(p, text) for p in pats)
        assert hand == len(s.hands[s.turn]) and piles == len(s.building) and discards == len(s.discards[0])
        assert [coins] * 3 == s.coins and [stock] * 3 == s.observation(None)["stock_sizes"]


def test_box_short_game_deals_the_stock_it_says():
    differs("short_game", True)
    for short in (False, True):
        s = SkipBoMasters(2, {"short_game": short}).new_initial_state()
        for lang, pat in (("de", r"\((\d+) Karten, nur die oberste"), ("en", r"\((\d+) cards, only the top")):
            assert s.observation(None)["stock_sizes"] == [number(pat, box({"short_game": short}, lang))] * 2


@pytest.mark.parametrize("wild_discard", [True, False])
def test_box_wild_discard_as_the_engine_lets_a_skip_bo_card_be_discarded(wild_discard):
    differs("wild_discard", False)
    opts = {"wild_discard": wild_discard}
    said = "keine Skip-Bo-Karte (außer du hast nur noch Skip-Bo-Karten)" in box(opts)
    assert said == ("no Skip-Bo card (unless you hold only Skip-Bo cards)" in box(opts, "en")) == (not wild_discard)
    s = position(options=opts, hands=[[WILD, 9], [1]], stock_tops=[12, 12])
    s.phase = DISCARD
    assert any(a.card == WILD for a in s.legal_actions() if type(a) is Discard) == wild_discard
    s = position(options=opts, hands=[[WILD, WILD], [1]], stock_tops=[12, 12])
    s.phase = DISCARD  # a hand of Skip-Bo cards only: one of them goes (the box's exception)
    assert any(a.card == WILD for a in s.legal_actions() if type(a) is Discard)


@pytest.mark.parametrize("cost", ["face", "one"])
def test_box_replace_cost_is_what_the_engine_charges_for_a_4(cost):
    differs("replace_cost", "one")
    s = position(options={"replace_cost": cost}, hands=[[6, 7, 9, 11, 12], [1]], stock_tops=[5, 8], piles=[3])
    [replace] = [a for a in s.legal_actions() if type(a) is Replace]
    assert number(r"eine 4 kostet (\d+) Münze", box({"replace_cost": cost})) == replace.cost
    assert number(r"a 4 costs (\d+) coin", box({"replace_cost": cost}, "en")) == replace.cost
    coins = s.coins[0]
    s.apply_action(replace)
    # "Die Münzen kommen neben diesen Ablagestapel", "du musst sofort die nächstfolgende Karte darauf legen"
    assert s.building[0].coins == coins - s.coins[0] == replace.cost
    assert s.legal_actions() and all(a.pile == 0 and type(a).__name__ in ("Play", "Buy") for a in s.legal_actions())


@pytest.mark.parametrize("discard_after", [True, False])
def test_box_unpaid_toll_ends_as_the_engine_ends_it(discard_after):
    differs("discard_after_unpaid_toll", False)
    opts = {"discard_after_unpaid_toll": discard_after}
    de, en = box(opts), box(opts, "en")
    assert ("Du legst nur noch eine Handkarte auf einen Hilfsstapel" in de) == discard_after
    assert ("Dein Zug endet sofort, ohne Karte auf einen Hilfsstapel" in de) == (not discard_after)
    assert ("you only put one hand card on a discard pile" in en) == discard_after
    # a 4 with a coin symbol on the 3; the 5 in hand would still fit ("auch wenn noch Karten passen")
    s = position(options=opts, hands=[[toll(4, 1), 5, 9, 10, 11], [1]], stock_tops=[12, 12], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 1), 0))
    s.apply_action(DeclineToll())
    if discard_after:
        assert s.turn == 0 and s.phase == DISCARD and all(type(a) is Discard for a in s.legal_actions())
    else:
        assert s.turn == 1 and s.discards[0] == [[], [], [], []]
    # the toll paid lies beside the pile ("die gezahlten Münzen kommen neben den Ablagestapel")
    assert "die gezahlten Münzen kommen neben den Ablagestapel" in de and "lie beside the building pile" in en
    s = position(options=opts, hands=[[toll(4, 2), 9], [1]], stock_tops=[12, 12], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 2), 0))
    s.apply_action(s.legal_actions()[0])  # pay
    assert s.building[0].coins == 2 and s.coins[0] == 10


@pytest.mark.parametrize("lang", ["de", "en"])
def test_box_payout_the_completer_first_a_toll_on_the_12_included(lang):
    text = box(lang=lang)
    assert ("die erste an dich, die nächste an deinen linken Nachbarn" in text if lang == "de"
            else "the first to you, the next to the player on your left" in text)
    assert ("eine für die 12 gezahlte Gebühr zählt mit" in text if lang == "de"
            else "a toll paid on the 12 included" in text)
    # seat 1 completes pile 1 (4 coins beside it) with a 12 showing one coin symbol and pays the toll:
    # 5 coins, one by one from seat 1: seats 1, 2, 0, 1, 2 (without the toll seat 2 would get one
    # less; from seat 0, seat 0 would get two)
    s = position(players=3, turn=1, hands=[[1], [toll(12, 1), 9], [2]], stock_tops=[12, 12, 12],
                 piles=[(list(range(1, 12)), 11, 4)])
    s.apply_action(Play("hand", 0, toll(12, 1), 0))
    s.apply_action(s.legal_actions()[0])  # pay the toll
    assert s.building[0] is None and s.coins == [12 + 1, 12 - 1 + 2, 12 + 2]


@pytest.mark.parametrize("rounds", [1, 3])
def test_box_stall_rounds_is_when_the_engine_calls_a_draw(rounds):
    differs("stall_rounds", 7)
    opts = {"stall_rounds": rounds, "must_play": False}  # every turn ends with a discard at once
    said = number(r"Verlässt (\d+) Durchg", box(opts))
    assert said == number(r"for (\d+) full rounds? of turns", box(opts, "en")) == rounds
    s = SkipBoMasters(3, opts).new_initial_state()
    rng, turns = Rng(2), 0
    while not s.is_terminal():
        if s.current_player() < 0:
            s.apply_action(s.sample_chance(rng))
            continue
        s.apply_action(next(a for a in s.legal_actions() if type(a) is Discard))
        turns += 1
    assert s.drawn and s.scores() == [0, 0, 0] and turns == said * 3


@pytest.mark.parametrize("must_play", [True, False])
def test_box_must_play_as_the_engine_lets_a_turn_end(must_play):
    differs("must_play", False)
    opts = {"must_play": must_play}
    assert ("Du musst jede deiner Karten legen, die passt" in box(opts)) == must_play
    assert ("You may play as many cards that fit as you like" in box(opts, "en")) == (not must_play)
    s = position(options=opts, hands=[[5, 9, 9, 10, 11], [1]], stock_tops=[12, 12], piles=[4])
    assert any(type(a) is Discard for a in s.legal_actions()) == (not must_play)
    # "Münzen einsetzen musst du nicht": with only a replacement left, the turn may end
    s = position(options=opts, hands=[[2, 7, 9, 11, 12], [1]], stock_tops=[5, 8], piles=[3])
    assert any(type(a) is Replace for a in s.legal_actions()) and any(type(a) is Discard for a in s.legal_actions())


@pytest.mark.parametrize("held", [False, True])
def test_box_replace_held_as_the_engine_replaces_a_card_one_holds(held):
    differs("replace_held", True)
    opts = {"replace_held": held, "must_play": False}
    assert ("Fehlt dir die Karte" in box(opts)) == (not held) and ("auch wenn du sie hast" in box(opts)) == held
    assert ("even if you hold it" in box(opts, "en")) == held
    # the 4 the pile needs is in the hand; the 5 follows on the stock
    s = position(options=opts, hands=[[4, 7, 9, 11, 12], [1]], stock_tops=[5, 8], piles=[3])
    assert any(type(a) is Replace for a in s.legal_actions()) == held
    # ... or on a discard pile top ("oben auf einem Hilfsstapel")
    s = position(options=opts, hands=[[7, 9, 11, 12], [1]], stock_tops=[5, 8], piles=[3],
                 discards=[[[4], [], [], []], [[], [], [], []]])
    assert any(type(a) is Replace for a in s.legal_actions()) == held


@pytest.mark.parametrize("refill", [True, False])
def test_box_short_hand_refill_as_the_engine_refills_a_short_hand(refill):
    differs("short_hand_refill", False)
    opts = {"short_hand_refill": refill}
    assert ("(nur wenn es vorher 5 waren)" in box(opts)) == (not refill)
    assert ("(only if you held 5)" in box(opts, "en")) == (not refill)
    s = position(options=opts, hands=[[4, 5], [1]], stock_tops=[12, 12], piles=[3])  # a hand of 2 filled
    s.apply_action(Play("hand", 0, 4, 0))
    s.apply_action(Play("hand", 0, 5, 0))
    said = number(r"ziehst du sofort (\d+) neue Karten", box(opts))
    assert [k for k, _ in s.pending].count("draw") == (said if refill else 0)
    s = position(options=opts, hands=[[4, 5, 6, 7, 8], [1]], stock_tops=[12, 12], piles=[3])  # a full hand
    for c in (4, 5, 6, 7, 8):
        s.apply_action(Play("hand", 0, c, 0))
    assert [k for k, _ in s.pending].count("draw") == said


def win_round(s) -> None:
    """Seat 0 plays the last card of its stock pile (a 4 on the pile at 3)."""
    s.apply_action(Play("stock", 0, 4, 0))


@pytest.mark.parametrize("start", ["rotate", "youngest"])
def test_box_round_start_names_who_the_engine_lets_start_the_next_round(start):
    differs("round_start", "youngest", {"multi_round": True})
    opts = {"multi_round": True, "round_start": start}
    de, en = box(opts), box(opts, "en")
    assert ("jede neue Runde beginnt der linke Nachbar des letzten Startspielers" in de) == (start == "rotate")
    assert ("jede neue Runde beginnt wieder Spieler 1" in de) == (start == "youngest")
    assert ("started by the player to the left of the last starter" in en) == (start == "rotate")
    s = position(players=3, options=opts, hands=[[9], [1], [2]], stock_tops=[4, 12, 12], stock_down=[0, 5, 5],
                 piles=[3])
    win_round(s)
    assert s.round_no == 2 and s.turn == s.starter == (1 if start == "rotate" else 0)
    assert s.coins == [number(r"mit (\d+) Münzen für jeden", de)] * 3


@pytest.mark.parametrize("target", [25, 500])
def test_box_multi_round_scores_and_target_are_the_engines(target):
    differs("multi_round", True)
    differs("target_score", 200, {"multi_round": True})
    opts = {"multi_round": True, "target_score": target}
    de, en = box(opts, players=3), box(opts, "en", players=3)
    base, per = number(r"bekommt (\d+) Punkte", de), number(r"Punkte und (\d+) Punkte für jede Karte", de)
    assert (base, per) == (number(r"scores (\d+) points", en), number(r"plus (\d+) for every card", en))
    assert number(r"Wer zuerst (\d+) Punkte hat", de) == number(r"The first to (\d+) points", en) == target
    assert "gewinnt sofort die Runde" in de and "gewinnt sofort." not in de
    s = position(players=3, options=opts, hands=[[9], [1], [2]], stock_tops=[4, 12, 12], stock_down=[0, 5, 2],
                 piles=[3])
    win_round(s)
    assert s.totals == [base + per * (6 + 3), 0, 0]
    assert s.is_terminal() == (s.totals[0] >= target)
    assert "gewinnt sofort die Runde" not in box() and "gewinnt sofort." in box()


def test_every_option_has_its_test_here():
    """An option added to the engine must be added to the box and to a test above."""
    names = {spec.name for spec in SkipBoMasters.option_specs}
    tested = {"short_game", "wild_discard", "replace_cost", "discard_after_unpaid_toll", "stall_rounds",
              "must_play", "replace_held", "short_hand_refill", "round_start", "multi_round", "target_score"}
    assert names == tested


def test_the_box_says_ablegen_nowhere_and_piles_by_their_names():
    """In this game the building piles are the "Ablagestapel": "ablegen" would read as playing onto
    one, so the box (and the status) name the discard pile ("Hilfsstapel") instead."""
    for opts in ({}, {"discard_after_unpaid_toll": False, "wild_discard": False, "multi_round": True}):
        assert not re.search(r"\bablegen\b|\bAblegen\b|legst .* ab\b", box(opts))
    assert "Hilfsstapel" in VIEW.status(ctx_of_discard_phase(), 0)


def ctx_of_discard_phase():
    s = position(hands=[[toll(4, 1), 9], [1]], stock_tops=[12, 12], piles=[3])
    s.apply_action(Play("hand", 0, toll(4, 1), 0))
    s.apply_action(DeclineToll())
    return ctx_of(s)


def test_buttons_take_the_focus_when_only_buttons_can_move():
    """A toll is due: nothing on the board can be clicked, so the focus goes to the first button;
    while cards can be played, no button takes it."""
    s = position(hands=[[toll(4, 1), 9, 10, 11, 12], [1]], stock_tops=[12, 12], piles=[3])
    assert not any(b.get("focus") for b in VIEW.buttons(ctx_of(s)))
    s.apply_action(Play("hand", 0, toll(4, 1), 0))
    buttons = VIEW.buttons(ctx_of(s))
    assert [b.get("focus", False) for b in buttons] == [True, False]
    assert buttons[0]["label"].startswith("Gebühr zahlen")
