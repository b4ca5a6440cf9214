"""The Skip-Bo Masters view on the shared front-end: the viewer's hand, stock top and discard piles,
the four building piles with the coins lying on them, the other players' open piles, coins and
hand counts; drawn from the viewer's observation only (another player's hand is never in it).

A move is two clicks: a card (hand, own stock top, own discard pile, or another player's stock or
discard top to buy), then a building pile (or, for a hand card, an own discard pile to end the
turn). The chosen card waits in ``ctx.ui``. Replacing, tolls and an empty-handed end of turn are
buttons. Every refusal is the engine's (``ctx.refuse``) for an action made of cards the viewer sees.

Tokens: ``h<card>`` a hand card, ``s`` the own stock top, ``d<j>`` own discard pile j,
``o<q>s`` / ``o<q>d<j>`` player q's stock / discard pile j (to buy), ``b<i>`` building pile i,
``a<i>`` a button (the i-th legal action).
"""

from __future__ import annotations

import re
from html import escape

from ...core.errors import IllegalActionError
from ...core.view import View
from .engine import (CARD_COUNTS, COINS, DISCARDS, FOLLOW, HAND, PILES, TOLL, TOP, WIN_BASE, WIN_PER_CARD, Buy, DeclineToll, Discard, EndTurn, PayToll,
                     PROVENANCE, TOTAL_CARDS, Play, Replace, card_name, is_wild, symbols_of, value_of)

COLOURS = ((4, "#1f5fa8"), (8, "#2e7d32"), (12, "#c0392b"))  # 1-4 blue, 5-8 green, 9-12 red
WILD = "#a84b00"  # dark orange: 5.6:1 on the card (WCAG AA); the lighter #e67e22 had 2.8:1
INK = "#1d232b"  # the board's own text colour (the table's), set on the board so no page style changes it
SMALL_INK = "#555555"  # the small words on a card ("braucht 2", "14 übrig", "leer")
CARD_BG, EMPTY_BG, OWN_BG, PAGE_BG = "#fffdf5", "#f1f2f4", "#eef4fa", "#ffffff"
# the outlines that show a state; each differs from the others in more than its colour: chosen is
# thick and solid with a ✓ and lifted, a place it may go dashed, a card to choose solid and thinner
MARK = {"sel": "#b35900", "target": "#2e7d32", "can": "#1f5f8b"}
BORDER = {"sel": f"4px solid {MARK['sel']}", "target": f"3px dashed {MARK['target']}",
          "can": f"2px solid {MARK['can']}"}
PLAIN_BORDER = "#6b6b6b"  # an empty place's outline: seen at 3:1 and more on every background
COIN_EDGE = "#a67c00"  # the coin symbol's rim: the symbol asks for a toll, so it is seen at 3:1
COIN = ("<span aria-hidden='true' style='display:inline-block;width:.8em;height:.8em;border-radius:50%;"
        f"background:#f1c40f;border:1px solid {COIN_EDGE};vertical-align:-1px'></span>")
BUTTONS = (Replace, PayToll, DeclineToll, EndTurn)


def colour(card: int) -> str:
    v = value_of(card)
    return WILD if v == 0 else next(c for top, c in COLOURS if v <= top)


def coins_word(n: int, lang: str) -> str:
    if lang == "de":
        return f"{n} Münze{'' if n == 1 else 'n'}"
    return f"{n} coin{'' if n == 1 else 's'}"


def cards_word(n: int, lang: str) -> str:
    if lang == "de":
        return f"{n} Karte{'' if n == 1 else 'n'}"
    return f"{n} card{'' if n == 1 else 's'}"


def coins_html(n: int, label: str = "") -> str:
    """A number of coins: the coin picture is decoration, the number is text; ``label`` names the
    whole for a screen reader where no word stands beside it (the coins beside a building pile)."""
    name = f" role='img' aria-label='{escape(label, quote=True)}'" if label else ""
    return f"<span class='sb-coins' data-coins='{n}'{name} style='white-space:nowrap'>{COIN} {n}</span>"


def card_html(card, act=None, state="", small=False, title="", under="", label="", pressed=None) -> str:
    """One card (None: an empty place) as an HTML box; ``state``: "can" (a card to choose),
    "sel" (chosen), "target" (where the chosen card may go). ``label``: the name a screen reader
    says (the front-end never makes one up); ``pressed``: True/False on a card one chooses."""
    w, h, fs = (44, 56, 18) if small else (46, 64, 22)  # small: the others' cards, still 44 px to tap
    border = BORDER.get(state, f"1px solid {PLAIN_BORDER}")
    attrs = f" data-act='{act}'" if act else ""
    if label:
        attrs += f" aria-label='{escape(label, quote=True)}'"
    if pressed is not None:
        attrs += f" aria-pressed='{'true' if pressed else 'false'}'"
    cls = "sb-card" + (f" sp-{state}" if state else "")
    if card is None:
        body, bg, fg = "", EMPTY_BG, SMALL_INK
    else:
        bg, fg = CARD_BG, colour(card)
        # the wild card by its name, as the log, the advisor and the How-to-play box call it
        body = (f"<span style='font-size:{9 if small else 10}px'>Skip-Bo</span>" if is_wild(card)
                else str(value_of(card)))
        if symbols_of(card):
            body += "<span style='font-size:9px;line-height:10px'>" + COIN * symbols_of(card) + "</span>"
    if state == "sel":  # a mark beside the colour: the chosen card shows a ✓ and stands out of its row
        body += f"<span aria-hidden='true' style='font-size:11px;line-height:11px;color:{MARK['sel']}'>✓</span>"
    if under:  # the space keeps "12" and "15 übrig" two words in the text a browser reads off the card
        body += f"<small style='font-size:9px;color:{SMALL_INK};font-weight:400'> {escape(under)}</small>"
    tip = f" title='{escape(title, quote=True)}'" if title else ""
    lift = "position:relative;top:-4px;" if state == "sel" else ""
    return (f"<span class='{cls}'{attrs}{tip} data-card='{'' if card is None else card}' style='display:inline-flex;"
            f"flex-direction:column;justify-content:center;align-items:center;width:{w}px;height:{h}px;"
            f"margin:2px;border:{border};border-radius:6px;background:{bg};color:{fg};font-weight:700;{lift}"
            f"font-size:{fs}px;line-height:1.05;vertical-align:top;text-align:center'>{body}</span>")


def _projector(board: str) -> str:
    """The projector's board: no word under 14 px (24 px and more once zoomed to the height of a
    1920×1080 screen), the cards wide enough for them ("braucht 12", "15 übrig"), and the hand in the
    row of the stock and discard piles (the screen's height limits the zoom, its width does not; so
    do the building piles and the other players side by side, ``board``)."""
    board = re.sub(r"font-size:(\d+)px", lambda m: f"font-size:{max(14, int(m.group(1)))}px", board)
    board = board.replace("line-height:10px", "line-height:14px")
    board = re.sub(r"</div></div>(<div class='sb-hand'>.*?</div>)", r"</div>\1</div>", board, count=1, flags=re.S)
    for small, large in (("width:46px;height:64px", "width:58px;height:72px"),
                         ("width:44px;height:56px", "width:56px;height:66px")):
        board = board.replace(small, large)
    return board


def _moves(ctx, src: str) -> list:
    """The legal actions that move the card ``src`` stands for."""
    out = []
    for a in ctx.legal:
        t = type(a)
        if src.startswith("h") and (t is Play and a.src == "hand" or t is Discard) and f"h{a.card}" == src:
            out.append(a)
        elif t is Play and a.src == "stock" and src == "s":
            out.append(a)
        elif t is Play and a.src == "discard" and src == f"d{a.slot}":
            out.append(a)
        elif t is Buy and src == (f"o{a.owner}s" if a.src == "stock" else f"o{a.owner}d{a.slot}"):
            out.append(a)
    return out


def _target(a) -> str:
    return f"d{a.pile}" if type(a) is Discard else f"b{a.pile}"


def _with_state(ctx, name: str, state: str, buy: bool = False, ends: bool = False) -> str:
    """A card's name with what it is now: chosen, a place the chosen card fits (``ends``: a discard
    pile, the turn ends there), a card to choose."""
    if state == "sel":
        return name + ctx.t(", gewählt", ", chosen")
    if state == "target":
        return name + ctx.t(", passt", ", fits") + (ctx.t(" (Zugende)", " (ends the turn)") if ends else "")
    if state == "can":
        return name + (ctx.t(", kaufbar für 1 Münze", ", can be bought for 1 coin") if buy
                       else ctx.t(", spielbar", ", playable"))
    return name


def _stock_label(ctx, q: int, top, left: int, state: str) -> str:
    """"Dein Spielerstapel: 12, 15 übrig" (the open top card and the cards left, itself included): the
    words the card shows, in their order (WCAG 2.5.3, label in name), with the owner before them."""
    mine = q == ctx.viewer
    who = (ctx.t("Dein Spielerstapel", "Your stock pile") if mine
           else ctx.t(f"Spielerstapel von {ctx.names[q]}", f"stock pile of {ctx.names[q]}"))
    if top is not None:
        card = card_name(top, ctx.lang)
    else:
        card = ctx.t("leer", "empty") if not left else ctx.t("keine Karte offen", "no card face up")
    return _with_state(ctx, f"{who}: {card}, " + ctx.t(f"{left} übrig", f"{left} left"), state, buy=not mine)


def _pile_label(ctx, i: int, b, top, shown: bool, state: str) -> str:
    """"Ablagestapel 1: Skip-Bo (als 1), braucht 2, 3 Münzen daneben"."""
    name = ctx.t(f"Ablagestapel {i + 1}", f"building pile {i + 1}")
    if b is None:
        return _with_state(ctx, name + ctx.t(": frei, braucht 1", ": free, needs 1"), state)
    if top is None:
        what = ctx.t(f"keine Karte, zählt als {b['value']}", f"no card, counts as {b['value']}")
    else:
        what = card_name(top, ctx.lang) + (ctx.t(f" (zählt als {b['value']})", f" (counts as {b['value']})")
                                           if shown else "")
    need = b["value"] + 1
    what += (ctx.t(f", braucht {need}", f", needs {need}") if need <= TOP else ctx.t(", vollständig", ", complete"))
    if b["coins"]:
        what += ctx.t(f", {coins_word(b['coins'], 'de')} daneben", f", {coins_word(b['coins'], 'en')} beside it")
    return _with_state(ctx, f"{name}: {what}", state)


def _summary(ctx, q: int) -> str:
    """Another player's open table in one sentence (the group of their cards a screen reader enters)."""
    obs = ctx.observation
    top, left = obs["stock_tops"][q], obs["stock_sizes"][q]
    stock = (card_name(top, ctx.lang) if top is not None else "–")
    tops = ", ".join(card_name(d[-1], ctx.lang) if d else ctx.t("leer", "empty") for d in obs["discards"][q])
    return ctx.t(f"{ctx.names[q]}: {coins_word(obs['coins'][q], 'de')}, {cards_word(obs['hand_sizes'][q], 'de')} "
                 f"auf der Hand, Spielerstapel {stock} (noch {left}), Hilfsstapel oben: {tops}",
                 f"{ctx.names[q]}: {coins_word(obs['coins'][q], 'en')}, {cards_word(obs['hand_sizes'][q], 'en')} "
                 f"in hand, stock pile {stock} ({left} left), discard piles on top: {tops}")


class SkipBoMastersView(View):
    """Cards to click, coin buttons, every player's open piles; the coin symbols are reconstructed."""

    bot_delay = 0.45
    reconstruction = True
    default_bot = "greedy"
    bot_names = {"greedy": {"de": "gierig", "en": "greedy"}}
    # every colour the board writes or marks a state with, on every background it lies on
    colours = (
        *((fg, CARD_BG, "text") for fg in (*(c for _, c in COLOURS), WILD, SMALL_INK, MARK["sel"])),
        (SMALL_INK, EMPTY_BG, "text"),
        *((INK, bg, "text") for bg in (OWN_BG, PAGE_BG)),
        *((MARK[k], bg, "marker") for k in MARK for bg in (CARD_BG, EMPTY_BG, OWN_BG, PAGE_BG)),
        *((edge, bg, "marker") for edge in (PLAIN_BORDER, COIN_EDGE) for bg in (CARD_BG, EMPTY_BG, OWN_BG, PAGE_BG)),
    )

    def how_to(self, game, lang: str) -> dict:
        """The How-to-play box: every rule a player needs for a whole game, in the words the board,
        the log and the advisor use, for the options of ``game`` (its decisions D1-D8); the numbers
        are the engine's (hand, piles, coins, stock size, costs, points)."""
        o = game.options
        de = lang == "de"

        def t(de_text, en_text):
            return de_text if de else en_text

        stall = o["stall_rounds"]
        steps = [
            t(f"Spieler 1 (der jüngste) beginnt, dann geht es reihum nach links. Zu Beginn deines Zuges ziehst "
              f"du vom Nachziehstapel, bis du {HAND} Handkarten hast.",
              f"Player 1 (the youngest) starts, then play goes round to the left. At the start of your turn you "
              f"draw from the draw pile until you hold {HAND} cards."),
            t(f"In der Mitte liegen höchstens {PILES} Ablagestapel, die allen gehören. Ein neuer Ablagestapel "
              f"beginnt mit einer 1, darauf kommt immer die nächsthöhere Zahl (2, 3, … bis {TOP}). Eine "
              f"Skip-Bo-Karte ist ein Joker: Sie zählt als jede Zahl, auch als die 1 eines neuen Stapels. Liegen "
              f"schon {PILES} Ablagestapel aus, muss eine 1 warten, bis einer fertig ist.",
              f"In the middle there are at most {PILES} building piles, shared by everyone. A new building pile "
              f"starts with a 1; each card on it is the next number up (2, 3, … up to {TOP}). A Skip-Bo card is "
              f"wild: it counts as any number, the 1 of a new pile too. With {PILES} building piles out, a 1 must "
              f"wait until one is complete."),
            t("Spielen: Klicke eine Karte an – eine Handkarte, die oberste Karte deines Spielerstapels (dann "
              "wird die nächste aufgedeckt) oder die oberste Karte eines deiner Hilfsstapel – und dann den "
              "Ablagestapel, auf den sie soll.",
              "To play, click a card – a card in your hand, the top card of your stock pile (the next one is "
              "then turned up) or the top card of one of your discard piles – and then the building pile it "
              "goes on."),
            (t("Du musst jede deiner Karten legen, die passt: von der Hand, vom Spielerstapel und von deinen "
               "Hilfsstapeln (Münzen einsetzen musst du nicht). Erst wenn keine deiner Karten mehr passt, "
               "darfst du deinen Zug beenden.",
               "You must play every card of yours that fits: from your hand, your stock pile and your discard "
               "piles (spending coins is up to you). Only when none of your cards fits any more may you end "
               "your turn.")
             if o["must_play"] else
             t("Du darfst so viele passende Karten legen, wie du willst, und jederzeit mit dem Zugende "
               "aufhören – nur eine fällige Gebühr und die Karte nach dem Ersetzen kommen vorher.",
               "You may play as many cards that fit as you like, and end your turn whenever you want – only a "
               "toll that is due and the card after a replacement come first.")),
            t(f"Hast du alle Handkarten gelegt, ziehst du sofort {HAND} neue Karten und spielst weiter"
              + ("." if o["short_hand_refill"] else f" (nur wenn es vorher {HAND} waren)."),
              f"When you have played every card in your hand, you draw {HAND} new cards at once and play on"
              + ("." if o["short_hand_refill"] else f" (only if you held {HAND}).")),
            t(f"Mit der {TOP} ist ein Ablagestapel fertig und wird beiseitegelegt. Ist der Nachziehstapel leer, "
              "werden die fertigen Stapel gemischt und sind der neue Nachziehstapel; gibt es keine, ziehst du "
              "nichts.",
              f"A building pile is complete with its {TOP} and is set aside. When the draw pile is empty, the "
              "completed piles are shuffled into a new draw pile; if there are none, you draw nothing."),
            self._replace_rule(game, t),
            t("Kaufen: Für 1 Münze an den Besitzer nimmst du die oberste Karte vom Spielerstapel oder von "
              "einem Hilfsstapel eines Mitspielers und legst sie sofort auf einen Ablagestapel (nie auf die "
              "Hand oder einen Hilfsstapel); ablehnen kann er nicht. Kaufst du die letzte Karte seines "
              "Spielerstapels, gewinnt er" + (" die Runde!" if o["multi_round"] else "!"),
              "Buying: for 1 coin to its owner you take the top card of another player's stock pile or of "
              "one of their discard piles and play it at once on a building pile (never to your hand or a "
              "discard pile); they cannot refuse. If you buy the last card of their stock pile, they win"
              + (" the round!" if o["multi_round"] else "!")),
            t("Gebühr: Eine Karte mit Münzsymbolen (auch eine gekaufte) kostet nach dem Legen so viele Münzen, "
              "wie Symbole darauf sind; die gezahlten Münzen kommen neben den Ablagestapel, auf dem sie liegt. "
              "Zahlst du nicht (oder kannst du nicht zahlen), ist das Legen für diesen Zug vorbei, auch wenn "
              "noch Karten passen"
              + (": Du legst nur noch eine Handkarte auf einen Hilfsstapel (ohne Handkarte endet der Zug "
                 "sofort)." if o["discard_after_unpaid_toll"]
                 else ": Dein Zug endet sofort, ohne Karte auf einen Hilfsstapel."),
              "Toll: a card with coin symbols (a bought one too) costs as many coins as it shows, once it is "
              "played; the coins paid lie beside the building pile it is on. If you do not pay (or cannot), "
              "your playing is over for this turn, even if cards still fit"
              + (": you only put one hand card on a discard pile (with no hand card the turn ends at once)."
                 if o["discard_after_unpaid_toll"] else ": your turn ends at once, without a discard.")),
            t("Machst du einen Ablagestapel fertig, werden die Münzen daneben reihum verteilt: die erste an "
              "dich, die nächste an deinen linken Nachbarn und so weiter, bis keine mehr übrig ist (eine "
              f"für die {TOP} gezahlte Gebühr zählt mit). Am Ende zählen Münzen nichts.",
              "When you complete a building pile, the coins beside it are handed out one by one: the first "
              "to you, the next to the player on your left, and so on until none are left (a toll paid on "
              f"the {TOP} included). Coins are worth nothing at the end."),
            t(f"Zugende: Lege eine Handkarte auf einen deiner {DISCARDS} Hilfsstapel – jede Karte, jeder "
              "Hilfsstapel, jede Reihenfolge"
              + ("" if o["wild_discard"] else ", aber keine Skip-Bo-Karte (außer du hast nur noch Skip-Bo-Karten)")
              + ". Hast du keine Handkarte mehr, endet dein Zug ohne. Von deinen Hilfsstapeln darfst du später "
                "immer nur die oberste Karte spielen.",
              f"End of your turn: put one card from your hand on one of your {DISCARDS} discard piles – any "
              "card, any discard pile, any order"
              + ("" if o["wild_discard"] else ", but no Skip-Bo card (unless you hold only Skip-Bo cards)")
              + ". With no card in your hand, your turn ends without one. Later you may only ever play the top "
                "card of a discard pile."),
            t(f"Verlässt {stall} Durchg{'ang' if stall == 1 else 'änge'} lang (jeder ist einmal am Zug) keine "
              "Karte einen Spielerstapel, endet die Runde unentschieden: Niemand bekommt Punkte.",
              f"If no card leaves any stock pile for {stall} full round{'' if stall == 1 else 's'} of turns in a "
              "row, the round ends in a draw: nobody scores."),
        ]
        if o["multi_round"]:
            who = (t("der linke Nachbar des letzten Startspielers", "the player to the left of the last starter")
                   if o["round_start"] == "rotate" else t("wieder Spieler 1", "player 1 again"))
            steps.append(t(f"Mehrere Runden: Der Sieger einer Runde bekommt {WIN_BASE} Punkte und "
                           f"{WIN_PER_CARD} Punkte für jede Karte, die noch in den Spielerstapeln der anderen "
                           f"liegt. Wer zuerst {o['target_score']} Punkte hat, gewinnt. Jede Runde wird neu "
                           f"gegeben, mit {COINS} Münzen für jeden; jede neue Runde beginnt {who}.",
                           f"Several rounds: the winner of a round scores {WIN_BASE} points plus {WIN_PER_CARD} "
                           f"for every card left in the others' stock piles. The first to {o['target_score']} "
                           f"points wins. Every round is dealt afresh, with {COINS} coins each; each new round "
                           f"is started by {who}."))
        stock = game.stock_size
        win = t("gewinnt sofort die Runde", "wins the round at once") if o["multi_round"] else t(
            "gewinnt sofort", "wins at once")
        goal = t(f"Werde als Erste(r) alle Karten deines Spielerstapels los ({stock} Karten, nur die oberste "
                 f"liegt offen). Wer die letzte Karte seines Spielerstapels loswird, {win}.",
                 f"Be the first to get rid of every card of your stock pile ({stock} cards, only the top one "
                 f"face up). Whoever gets rid of the last card of their stock pile {win}.")
        return {"title": "Skip-Bo Masters", "goal": goal, "turn": steps}

    @staticmethod
    def _replace_rule(game, t) -> str:
        o = game.options
        if o["replace_held"]:
            what = t("Die Karte, die ein Ablagestapel als Nächstes braucht, kannst du mit Münzen ersetzen, "
                     "auch wenn du sie hast. ",
                     "you may replace the card a building pile needs next with coins, even if you hold it. ")
        else:
            what = t("Fehlt dir die Karte, die ein Ablagestapel als Nächstes braucht (keine solche Karte und "
                     "keine Skip-Bo-Karte auf der Hand, oben auf deinem Spielerstapel oder oben auf einem "
                     "Hilfsstapel), kannst du sie mit Münzen ersetzen. ",
                     "if you lack the card a building pile needs next (no such card and no Skip-Bo card in "
                     "your hand, on top of your stock pile or on top of a discard pile), you may replace it "
                     "with coins. ")
        four = game.replace_cost(4)
        cost = (t(f"Sie kostet so viele Münzen, wie ihre Zahl sagt: eine 4 kostet {four} Münzen.",
                  f"It costs as many coins as its number: a 4 costs {four} coins.")
                if o["replace_cost"] == "face" else
                t(f"Sie kostet immer 1 Münze: eine 4 kostet {four} Münze.", f"It always costs 1 coin: a 4 costs {four} coin."))
        return (t(f"Münzen (jeder hat zu Beginn {COINS}) – Ersetzen: ", f"Coins (everyone starts with {COINS}) – replacing: ")
                + what + cost
                + t(" Die Münzen kommen neben diesen Ablagestapel, und du musst sofort die nächstfolgende Karte "
                    "darauf legen (von dir oder gekauft); ersetzen geht nur, wenn du das kannst. Eine "
                    f"{TOP} kann nicht ersetzt werden.",
                    " The coins lie beside that building pile, and you must at once play the following card on "
                    "it (your own or a bought one); you may replace only when you can. A "
                    f"{TOP} cannot be replaced."))

    # --- drawing --------------------------------------------------------------------------------
    def board(self, ctx) -> str:
        obs = ctx.observation
        me = ctx.viewer
        sel = ctx.ui.get("src")
        targets = {_target(a) for a in _moves(ctx, sel)} if sel else set()
        if sel and any(type(a) is Discard for a in _moves(ctx, sel)):  # empty discard piles are alike
            targets |= {f"d{j}" for j, d in enumerate(obs["discards"][me]) if not d}

        def state_of(token, card_there=True):
            if token == sel:
                return "sel"
            if token in targets:
                return "target"
            return "can" if card_there and not sel and _moves(ctx, token) else ""

        out = [f"<div class='sb-board' style='font-size:13px;color:{INK}'>"]
        # building piles and the draw pile
        piles = []
        for i, b in enumerate(obs["building"]):
            tok = f"b{i}"
            need = 1 if b is None else b["value"] + 1
            top = None if b is None else (b["cards"][-1] if b["cards"] else None)
            shown = b is not None and (top is None or is_wild(top) or b["replaced"][-1:] == [b["value"]])
            under = (ctx.t(f"braucht {need}", f"needs {need}") if need <= TOP else "")
            st = "target" if tok in targets else ""
            pic = card_html(top, tok, st, under=under, label=_pile_label(ctx, i, b, top, shown, st))
            if shown:
                pic += f"<div style='font-size:11px' aria-hidden='true'>= {b['value']}</div>"
            coins = (coins_html(b["coins"], ctx.t(f"{coins_word(b['coins'], 'de')} daneben",
                                                  f"{coins_word(b['coins'], 'en')} beside it"))
                     if b is not None else "<span style='font-size:11px'>&nbsp;</span>")
            piles.append(f"<div class='sb-pile' data-pile='{i}' data-coins='{b['coins'] if b else 0}' "
                         f"style='display:inline-block;text-align:center;margin-right:6px'>{pic}<div>{coins}</div></div>")
        out.append(f"<div><b>{ctx.t('Ablagestapel', 'Building piles')}</b> · "
                   f"{ctx.t('Nachziehstapel', 'draw pile')}: <span class='sb-draw'>{obs['draw_size']}</span></div>")
        out.append(f"<div class='sb-building' role='group' aria-label='{ctx.t('Ablagestapel', 'Building piles')}'>"
                   f"{''.join(piles)}</div>")
        if ctx.projector:  # the building piles and the other players side by side, the own cards below
            own = self._own(ctx, me, state_of, sel) if me is not None else ""
            return _projector(f"{out[0]}<div style='display:flex;flex-wrap:wrap;align-items:flex-start;gap:4px 32px'>"
                              f"<div>{out[1]}{out[2]}</div><div>{self._others(ctx, state_of, sel)}</div></div>{own}</div>")
        if me is not None:
            out.append(self._own(ctx, me, state_of, sel))
        out.append(self._others(ctx, state_of, sel))
        out.append("</div>")
        return "".join(out)

    def _own(self, ctx, me, state_of, sel) -> str:
        obs = ctx.observation
        top, left = obs["stock_tops"][me], obs["stock_sizes"][me]
        st = state_of("s", top is not None)
        stock = card_html(top, "s", st, under=ctx.t(f"{left} übrig", f"{left} left"),
                          label=_stock_label(ctx, me, top, left, st), pressed=sel == "s" if top is not None else None)
        discards = "".join(self._discard(ctx, me, j, f"d{j}", state_of, sel) for j in range(DISCARDS))
        cards, chosen = [], False
        for c in obs["hand"]:  # equal cards are one choice: the first of them shows it
            st = state_of(f"h{c}")
            if st == "sel":
                st, chosen = ("" if chosen else "sel"), True
            name = ctx.t(f"Handkarte {card_name(c, 'de')}", f"hand card {card_name(c, 'en')}")
            cards.append(card_html(c, f"h{c}", st, label=_with_state(ctx, name, st), pressed=st == "sel"))
        hand = "".join(cards) or "–"
        return (f"<div class='sb-own' role='group' aria-label='{ctx.t('Deine Karten', 'Your cards')}' "
                f"style='margin-top:6px;padding:4px;background:{OWN_BG};border-radius:8px'>"
                f"<div><b>{escape(ctx.names[me])}</b> · {ctx.t('Münzen', 'coins')}: {coins_html(obs['coins'][me])}</div>"
                f"<div style='display:flex;flex-wrap:wrap;gap:10px'>"
                f"<div>{ctx.t('Spielerstapel', 'Stock pile')}<br>{stock}</div>"
                f"<div>{ctx.t('Hilfsstapel', 'Discard piles')}<br>{discards}</div></div>"
                f"<div class='sb-hand'>{ctx.t('Hand', 'Hand')}<br>{hand}</div></div>")

    def _discard(self, ctx, q, j, tok, state_of, sel, small=False) -> str:
        pile = ctx.observation["discards"][q][j]
        under = ctx.t("leer", "empty") if not pile else f"({len(pile)})"
        title = ", ".join(card_name(c, ctx.lang) for c in pile)
        st = state_of(tok, bool(pile))
        mine = q == ctx.viewer
        who = (ctx.t(f"Dein Hilfsstapel {j + 1}", f"Your discard pile {j + 1}") if mine else
               ctx.t(f"Hilfsstapel {j + 1} von {ctx.names[q]}", f"discard pile {j + 1} of {ctx.names[q]}"))
        if pile:
            what = ctx.t(f"oben {card_name(pile[-1], 'de')}, {cards_word(len(pile), 'de')}",
                         f"{card_name(pile[-1], 'en')} on top, {cards_word(len(pile), 'en')}")
        else:
            what = ctx.t("leer", "empty")
        label = _with_state(ctx, f"{who}: {what}", st, buy=not mine, ends=True)
        # a discard pile is chosen as a card to play (a press) or, for a hand card, a place to go
        return card_html(pile[-1] if pile else None, tok, st, small, title, under, label,
                         pressed=sel == tok if pile else None)

    def _others(self, ctx, state_of, sel) -> str:
        obs = ctx.observation
        rows = []
        for q in range(len(obs["coins"])):
            if q == ctx.viewer:
                continue
            top, left = obs["stock_tops"][q], obs["stock_sizes"][q]
            tok = f"o{q}s"
            st = state_of(tok, top is not None)
            stock = card_html(top, tok, st, True, under=ctx.t(f"{left} übrig", f"{left} left"),
                              label=_stock_label(ctx, q, top, left, st), pressed=sel == tok if top is not None else None)
            discards = "".join(self._discard(ctx, q, j, f"o{q}d{j}", state_of, sel, True) for j in range(DISCARDS))
            rows.append(f"<div class='sb-other' data-player='{q}' role='group' aria-label='{escape(_summary(ctx, q), quote=True)}' "
                        f"style='margin-top:4px;border-top:1px solid #e3e6ea'>"
                        f"<b>{escape(ctx.names[q])}</b> · {ctx.t('Münzen', 'coins')}: {coins_html(obs['coins'][q])} · "
                        f"{ctx.t('Hand', 'hand')}: <span class='sb-hand-count'>{obs['hand_sizes'][q]}</span>"
                        f"<br>{stock}<span style='display:inline-block;width:10px'></span>{discards}</div>")
        return "".join(rows)

    # --- clicks ---------------------------------------------------------------------------------
    def buttons(self, ctx) -> list[dict]:
        out = [{"token": f"a{i}", "label": a.label(ctx.lang)} for i, a in enumerate(ctx.legal)
               if type(a) in BUTTONS]
        if out and all(type(a) in BUTTONS for a in ctx.legal):
            # nothing on the board can move now (a toll is due, an empty hand ends the turn): the
            # focus goes to the first button instead of staying on a card that does nothing
            out[0]["focus"] = True
        return out

    def click(self, ctx, token: str):
        if not ctx.legal or token.startswith("a"):
            return super().click(ctx, token)
        obs = ctx.observation
        sel = ctx.ui.get("src")
        if token.startswith("b") or (sel and sel.startswith("h") and token.startswith("d")):
            if not sel:
                return {"de": "Wähle zuerst eine Karte, dann einen Stapel.",
                        "en": "First choose a card, then a pile."}
            action = self._action(ctx, sel, token)
            if any(action == a and type(a) is type(action) for a in ctx.legal):
                return action
            ctx.refuse(action)
        if token == sel:
            ctx.ui.pop("src", None)
            return {"de": "Auswahl aufgehoben.", "en": "Choice cleared."}
        card = self._card(ctx, token)
        if obs["phase"] == TOLL or obs["phase"] not in ("play", FOLLOW) and not token.startswith("h"):
            ctx.refuse(self._action(ctx, token, self._some_pile(ctx)))  # the engine says what is due
        if not _moves(ctx, token):
            if token.startswith("h") and obs["phase"] == "play":
                # a hand card that fits nowhere and may not be discarded: another card must go first (D5)
                ctx.refuse(Discard(card, 0))
            ctx.refuse(self._action(ctx, token, self._some_pile(ctx)))
        ctx.ui["src"] = token
        return {"de": f"{card_name(card, 'de')} gewählt: jetzt einen Stapel anklicken.",
                "en": f"{card_name(card, 'en')} chosen: now click a pile."}

    def _card(self, ctx, token: str):
        """The card a source token shows; a refusal for an empty place or an unknown token."""
        obs, me = ctx.observation, ctx.viewer
        card = None
        try:
            if token.startswith("h"):
                card = int(token[1:])
                if card not in obs["hand"]:
                    ctx.refuse(Discard(card, 0))
                return card
            if token == "s":
                card = obs["stock_tops"][me]
            elif token.startswith("d") and token[1:].isdigit() and int(token[1:]) < DISCARDS:
                pile = obs["discards"][me][int(token[1:])]
                card = pile[-1] if pile else None
            elif token.startswith("o"):
                q, _, rest = token[1:].partition("s" if token.endswith("s") else "d")
                q = int(q)
                if q == me or not 0 <= q < len(obs["coins"]):
                    raise ValueError(token)
                if token.endswith("s"):
                    card = obs["stock_tops"][q]
                else:
                    pile = obs["discards"][q][int(rest)]
                    card = pile[-1] if pile else None
            else:
                raise ValueError(token)
        except (ValueError, IndexError):
            return super().click(ctx, "?")
        if card is None:
            raise IllegalActionError("top cards", "there is no card there", "dort liegt keine Karte",
                                     "oberste Karte")
        return card

    def _some_pile(self, ctx) -> str:
        """A building pile to name in a refusal: the first pile in play, else the first free place."""
        b = ctx.observation["building"]
        return f"b{next((i for i, x in enumerate(b) if x is not None), 0)}"

    def _action(self, ctx, src: str, target: str):
        """The action ``src`` then ``target`` stand for (legal or not: the engine judges it)."""
        obs, me = ctx.observation, ctx.viewer
        card = self._card(ctx, src)
        if not (target[1:].isdigit() and int(target[1:]) < (DISCARDS if target[0] == "d" else PILES)):
            return super().click(ctx, "?")
        n = int(target[1:])
        if target.startswith("d"):
            if not obs["discards"][me][n]:  # the empty discard piles are alike: the first stands for all
                n = next(j for j, d in enumerate(obs["discards"][me]) if not d)
            return Discard(card, n)
        if obs["building"][n] is None:  # a new pile goes to the first free place
            n = next(i for i, b in enumerate(obs["building"]) if b is None)
        if src.startswith("h"):
            return Play("hand", 0, card, n)
        if src == "s":
            return Play("stock", 0, card, n)
        if src.startswith("d"):
            return Play("discard", int(src[1:]), card, n)
        q = int(src[1:].rstrip("s").partition("d")[0])
        return Buy(q, "stock", 0, card, n) if src.endswith("s") else Buy(q, "discard", int(src.partition("d")[2]),
                                                                         card, n)

    # --- words ------------------------------------------------------------------------------------
    def explain(self, before, action, after) -> str:
        text = _label(after, action)
        if type(action) in (Play, Buy, Replace, PayToll) or type(action) is DeclineToll:
            b = before.observation["building"]
            pile = action.pile if type(action) in (Play, Buy, Replace) else before.observation["toll_pile"]
            if pile is not None and b[pile] is not None and after.observation["building"][pile] is None:
                coins = b[pile]["coins"] + (action.coins if type(action) is PayToll else 0)
                text += after.t(f" – Ablagestapel {pile + 1} ist fertig, {coins} Münzen werden reihum verteilt",
                                f" – building pile {pile + 1} is complete, {coins} coins are handed out in turn")
        return text + "."

    def hidden_move(self, ctx, who) -> str:
        return ctx.t("zieht eine Karte.", "draws a card.")

    def status(self, ctx, whose_turn) -> str:
        """Who acts now and what is due; while cards are drawn or turned up (chance steps the table
        paces, when nobody can click) it says that, not whose turn it is."""
        obs = ctx.observation
        rnd = ctx.t(f"Runde {obs['deal']} · ", f"Round {obs['deal']} · ") if obs["deal"] > 1 or any(obs["totals"]) else ""
        chance = obs["chance"]
        if chance is not None:
            q = chance["player"]
            name = ctx.names[q]
            if chance["kind"] == "draw":
                text = (ctx.t("Du ziehst Karten …", "You draw cards …") if q == ctx.viewer
                        else ctx.t(f"{name} zieht Karten …", f"{name} draws cards …"))
            else:
                text = (ctx.t("Du deckst die nächste Karte deines Spielerstapels auf …",
                              "You turn up the next card of your stock pile …") if q == ctx.viewer
                        else ctx.t(f"{name} deckt die nächste Karte des Spielerstapels auf …",
                                   f"{name} turns up the next card of their stock pile …"))
            return rnd + text
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        due, one = obs["toll_due"], obs["toll_due"] == 1
        phase = {TOLL: ctx.t(f" · Gebühr: {due} Münze{'' if one else 'n'} zahlen?",
                             f" · toll: pay {due} coin{'' if one else 's'}?"),
                 FOLLOW: ctx.t(f" · jetzt die nächste Karte auf Ablagestapel {(obs['follow_pile'] or 0) + 1}",
                               f" · now the next card on building pile {(obs['follow_pile'] or 0) + 1}"),
                 "discard": ctx.t(" · Ausspielen vorbei: eine Handkarte auf einen Hilfsstapel legen",
                                  " · playing is over: put a hand card on a discard pile"),
                 }.get(obs["phase"], "")
        return ctx.t(f"{rnd}am Zug: {who}{phase}", f"{rnd}to play: {who}{phase}")

    def scores(self, ctx, totals) -> dict:
        obs = ctx.observation
        rows = [[ctx.t("Stapel", "stock"), *map(str, obs["stock_sizes"])],
                [ctx.t("Münzen", "coins"), *map(str, obs["coins"])],
                [ctx.t("Hand", "hand"), *map(str, obs["hand_sizes"])],
                [ctx.t("Punkte", "points"), *map(str, totals if totals is not None else obs["totals"])]]
        names = ctx.names
        if len(names) > 3:  # many players: seat numbers (the board names them) keep the table narrow
            names = [n if p == ctx.viewer else str(p + 1) for p, n in enumerate(names)]
        return {"title": ctx.t("Stand", "Standings"), "headers": ["", *names], "rows": rows, "highlight": 0}

    def extra(self, ctx) -> str:
        # the numbers come from the card file, so a replaced (real) distribution is described truly
        wild = sum(n for c, n in CARD_COUNTS.items() if is_wild(c))
        total = TOTAL_CARDS
        split = ctx.t(f"die Aufteilung der {total} Karten ({total - wild} Zahlenkarten, {wild} Skip-Bo-Karten)",
                      f"the split of the {total} cards ({total - wild} numbered cards, {wild} Skip-Bo cards)")
        note = (ctx.t(f"Rekonstruktion: {split} und welche Karten Münzsymbole tragen.",
                      f"Reconstruction: {split} and which cards carry coin symbols.")
                if PROVENANCE == "reconstruction" else "")
        return (f"<div class='sp-note'>{note} "
                f"{ctx.t('Karten mit Münzsymbol', 'Cards with a coin symbol')} {COIN}: {ctx.t('Gebühr', 'toll')}.</div>")

    def advice_columns(self, game) -> list[dict]:
        # the advisor's own live defaults (screening, then finalists on the same hidden cards); the
        # unit is the objective's (analysis.OBJECTIVE), the review counts its losses in it too
        return [{"settings": {"seed": 0}, "kind": "points",
                 "title": {"de": "Vorsprung an Spielerstapel-Karten (geschätzt)",
                           "en": "stock-card lead (estimate)"},
                 "unit": {"de": "Karten Vorsprung", "en": "cards of lead"}}]

    def review_settings(self, game) -> dict:
        # a whole game's decisions: fewer play-outs per decision than live, the same objective; the
        # review adds the chosen option to the finalists (include=), so its loss is paired. About
        # 8-15 s per game of 60-80 decisions on CPython (measured, a loaded 2-core machine)
        return {"seed": 0, "screen": 6, "n_rollouts": 24, "finalists": 4, "budget": 3000}

    def final_words(self, ctx, scores, winners):
        obs = ctx.observation
        if obs["winner"] is None and obs["drawn_round"]:
            return ctx.t("Die Runde endete unentschieden: lange ging keine Karte vom Spielerstapel (D4).",
                         "The round ended in a draw: for a long time no card left a stock pile (D4).")
        return None

    def option_label(self, ctx, action) -> str:
        return _label(ctx, action)


def _label(ctx, action) -> str:
    """The engine's label; a purchase names the seller as the table does ("Bot 2"), not "Spieler 2"."""
    if type(action) is not Buy or not ctx.names:
        return action.label(ctx.lang)
    # "Bot 2 (gierig)": the seat, not the bot's kind
    return action.label(ctx.lang, seller=ctx.names[action.owner].split(" (")[0])
