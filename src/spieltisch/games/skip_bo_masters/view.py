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
from .engine import (DISCARDS, FOLLOW, PILES, TOLL, TOP, Buy, DeclineToll, Discard, EndTurn, PayToll,
                     Play, Replace, card_name, is_wild, symbols_of, value_of)

COLOURS = ((4, "#1f5fa8"), (8, "#2e7d32"), (12, "#c0392b"))  # 1-4 blue, 5-8 green, 9-12 red
WILD = "#a84b00"  # dark orange: 5.6:1 on the card (WCAG AA); the lighter #e67e22 had 2.8:1
COIN = ("<span style='display:inline-block;width:.8em;height:.8em;border-radius:50%;background:#f1c40f;"
        "border:1px solid #a67c00;vertical-align:-1px'></span>")
BUTTONS = (Replace, PayToll, DeclineToll, EndTurn)


def colour(card: int) -> str:
    v = value_of(card)
    return WILD if v == 0 else next(c for top, c in COLOURS if v <= top)


def coins_html(n: int) -> str:
    return f"<span class='sb-coins' data-coins='{n}' style='white-space:nowrap'>{COIN} {n}</span>"


def card_html(card, act=None, state="", small=False, title="", under="") -> str:
    """One card (None: an empty place) as an HTML box; ``state``: "can" (a card to choose),
    "sel" (chosen), "target" (where the chosen card may go)."""
    w, h, fs = (44, 56, 18) if small else (46, 64, 22)  # small: the others' cards, still 44 px to tap
    border = {"sel": "3px solid #f39c12", "target": "3px dashed #2e7d32", "can": "2px solid #1f5f8b"}.get(
        state, "1px solid #888")
    attrs = f" data-act='{act}'" if act else ""
    cls = "sb-card" + (f" sp-{state}" if state else "")
    if card is None:
        body, bg, fg = "", "#f1f2f4", "#999"
    else:
        bg, fg = "#fffdf5", colour(card)
        # the wild card by its name, as the log, the advisor and the How-to-play box call it
        body = (f"<span style='font-size:{9 if small else 10}px'>Skip-Bo</span>" if is_wild(card)
                else str(value_of(card)))
        if symbols_of(card):
            body += "<span style='font-size:9px;line-height:10px'>" + COIN * symbols_of(card) + "</span>"
    if under:
        body += f"<small style='font-size:9px;color:#555;font-weight:400'>{escape(under)}</small>"
    tip = f" title='{escape(title)}'" if title else ""
    return (f"<span class='{cls}'{attrs}{tip} data-card='{'' if card is None else card}' style='display:inline-flex;"
            f"flex-direction:column;justify-content:center;align-items:center;width:{w}px;height:{h}px;"
            f"margin:2px;border:{border};border-radius:6px;background:{bg};color:{fg};font-weight:700;"
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


class SkipBoMastersView(View):
    """Cards to click, coin buttons, every player's open piles; the coin symbols are reconstructed."""

    bot_delay = 0.45
    reconstruction = True
    default_bot = "greedy"
    bot_names = {"greedy": {"de": "gierig", "en": "greedy"}}
    def how_to(self, game, lang: str) -> dict:
        """The How-to-play box: every rule a player needs for a whole game, in the words the board,
        the log and the advisor use, for the options of ``game`` (its decisions D1-D8)."""
        o = game.options
        de = lang == "de"
        stock = 10 if o["short_game"] else 15

        def t(de_text, en_text):
            return de_text if de else en_text

        steps = [
            t("Zu Beginn deines Zuges ziehst du vom Nachziehstapel, bis du 5 Handkarten hast.",
              "At the start of your turn you draw from the draw pile until you hold 5 cards."),
            t("In der Mitte liegen höchstens 4 Ablagestapel, die allen gehören. Ein neuer Ablagestapel beginnt "
              "mit einer 1, darauf kommt immer die nächsthöhere Zahl (2, 3, … bis 12). Eine Skip-Bo-Karte ist "
              "ein Joker: Sie zählt als jede Zahl. Liegen schon 4 Ablagestapel aus, muss eine 1 warten, bis "
              "einer fertig ist.",
              "In the middle there are at most 4 building piles, shared by everyone. A new building pile "
              "starts with a 1; each card on it is the next number up (2, 3, … up to 12). A Skip-Bo card is "
              "wild: it counts as any number. With 4 building piles out, a 1 must wait until one is "
              "complete."),
            t("Spielen: Klicke eine Karte an – eine Handkarte, die oberste Karte deines Spielerstapels (dann "
              "wird die nächste aufgedeckt) oder die oberste Karte eines deiner Hilfsstapel – und dann den "
              "Ablagestapel, auf den sie soll.",
              "To play, click a card – a card in your hand, the top card of your stock pile (the next one is "
              "then turned up) or the top card of one of your discard piles – and then the building pile it "
              "goes on."),
            (t("Du musst jede deiner Karten legen, die passt (Münzen einsetzen musst du nicht). Erst wenn "
               "keine deiner Karten mehr passt, darfst du deinen Zug beenden.",
               "You must play every card of yours that fits (spending coins is up to you). Only when none "
               "of your cards fits any more may you end your turn.")
             if o["must_play"] else
             t("Du darfst so viele passende Karten legen, wie du willst, und jederzeit aufhören.",
               "You may play as many cards that fit as you like, and stop whenever you want.")),
            t("Hast du alle Handkarten gelegt, ziehst du sofort 5 neue Karten und spielst weiter"
              + ("." if o["short_hand_refill"] else " (nur wenn es vorher 5 waren)."),
              "When you have played every card in your hand, you draw 5 new cards at once and play on"
              + ("." if o["short_hand_refill"] else " (only if you held 5)."),),
            t("Mit der 12 ist ein Ablagestapel fertig und wird beiseitegelegt. Ist der Nachziehstapel leer, "
              "werden die fertigen Stapel gemischt und sind der neue Nachziehstapel.",
              "A building pile is complete with its 12 and is set aside. When the draw pile is empty, the "
              "completed piles are shuffled into a new draw pile."),
            self._replace_rule(o, t),
            t("Kaufen: Für 1 Münze an den Besitzer nimmst du die oberste Karte vom Spielerstapel oder von "
              "einem Hilfsstapel eines Mitspielers und legst sie sofort auf einen Ablagestapel (nie auf die "
              "Hand). Kaufst du die letzte Karte seines Spielerstapels, gewinnt er!",
              "Buying: for 1 coin to its owner you take the top card of another player's stock pile or of "
              "one of their discard piles and play it at once on a building pile (never to your hand). If "
              "you buy the last card of their stock pile, they win!"),
            t("Gebühr: Eine Karte mit Münzsymbolen kostet nach dem Legen so viele Münzen. Zahlst du nicht "
              "(oder kannst du nicht zahlen), ist das Legen für diesen Zug vorbei"
              + (" – du legst nur noch eine Karte ab." if o["discard_after_unpaid_toll"]
                 else " – dein Zug endet sofort, ohne Ablegen."),
              "Toll: a card with coin symbols costs that many coins once it is played. If you do not pay "
              "(or cannot), your playing is over for this turn"
              + (" – you only discard a card." if o["discard_after_unpaid_toll"]
                 else " – your turn ends at once, without a discard.")),
            t("Wird ein Ablagestapel fertig, werden die Münzen daneben reihum verteilt: die erste an dich, "
              "die nächste an deinen linken Nachbarn und so weiter.",
              "When a building pile is complete, the coins beside it are handed out one by one: the first "
              "to you, the next to the player on your left, and so on."),
            t("Zugende: Lege eine Handkarte auf einen deiner 4 Hilfsstapel – jede Karte, jeder Hilfsstapel, "
              "jede Reihenfolge" + ("" if o["wild_discard"] else ", aber keine Skip-Bo-Karte")
              + ". Von deinen Hilfsstapeln darfst du später immer nur die oberste Karte spielen.",
              "End of your turn: put one card from your hand on one of your 4 discard piles – any card, any "
              "discard pile, any order" + ("" if o["wild_discard"] else ", but no Skip-Bo card")
              + ". Later you may only ever play the top card of a discard pile."),
        ]
        if o["multi_round"]:
            who = (t("der linke Nachbar des letzten Startspielers", "the player to the left of the last starter")
                   if o["round_start"] == "rotate" else t("Spieler 1", "player 1"))
            steps.append(t(f"Mehrere Runden: Der Sieger einer Runde bekommt 25 Punkte und 5 Punkte für jede "
                           f"Karte, die noch in den Spielerstapeln der anderen liegt. Wer zuerst "
                           f"{o['target_score']} Punkte hat, gewinnt. Jede neue Runde beginnt {who}.",
                           f"Several rounds: the winner of a round scores 25 points plus 5 for every card "
                           f"left in the others' stock piles. The first to {o['target_score']} points wins. "
                           f"Each new round is started by {who}."))
        goal = t(f"Werde als Erste(r) alle Karten deines Spielerstapels los ({stock} Karten, nur die oberste "
                 "liegt offen). Wer die letzte Karte seines Spielerstapels loswird, gewinnt sofort.",
                 f"Be the first to get rid of every card of your stock pile ({stock} cards, only the top one "
                 "face up). Whoever gets rid of the last card of their stock pile wins at once.")
        return {"title": "Skip-Bo Masters", "goal": goal, "turn": steps}

    @staticmethod
    def _replace_rule(o, t) -> str:
        if o["replace_held"]:
            what = t("Die Karte, die ein Ablagestapel als Nächstes braucht, kannst du mit Münzen ersetzen: ",
                     "you may replace the card a building pile needs next with coins: ")
        else:
            what = t("Fehlt dir die Karte, die ein Ablagestapel als Nächstes braucht (und hast du auch keine "
                     "Skip-Bo-Karte), kannst du sie mit Münzen ersetzen: ",
                     "if you lack the card a building pile needs next (and have no Skip-Bo card either), you "
                     "may replace it with coins: ")
        cost = (t("Sie kostet so viele Münzen, wie ihre Zahl sagt (eine 4 kostet 4 Münzen).",
                  "it costs as many coins as its number (a 4 costs 4 coins).")
                if o["replace_cost"] == "face" else t("Sie kostet 1 Münze.", "it costs 1 coin."))
        return (t("Münzen (jeder hat zu Beginn 12) – Ersetzen: ", "Coins (everyone starts with 12) – replacing: ")
                + what + cost
                + t(" Danach musst du sofort die nächstfolgende Karte auf diesen Ablagestapel legen. Eine 12 "
                    "kann nicht ersetzt werden.",
                    " Then you must at once play the following card on that building pile. A 12 cannot be "
                    "replaced."))

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

        out = ["<div class='sb-board' style='font-size:13px'>"]
        # building piles and the draw pile
        piles = []
        for i, b in enumerate(obs["building"]):
            tok = f"b{i}"
            need = 1 if b is None else b["value"] + 1
            top = None if b is None else (b["cards"][-1] if b["cards"] else None)
            shown = b is not None and (top is None or is_wild(top) or b["replaced"][-1:] == [b["value"]])
            under = (ctx.t(f"braucht {need}", f"needs {need}") if need <= TOP else "")
            st = "target" if tok in targets else ""
            pic = card_html(top, tok, st, title=ctx.t(f"Ablagestapel {i + 1}", f"building pile {i + 1}"),
                            under=under)
            if shown:
                pic += f"<div style='font-size:11px'>= {b['value']}</div>"
            coins = coins_html(b["coins"]) if b is not None else "<span style='font-size:11px'>&nbsp;</span>"
            piles.append(f"<div class='sb-pile' data-pile='{i}' data-coins='{b['coins'] if b else 0}' "
                         f"style='display:inline-block;text-align:center;margin-right:6px'>{pic}<div>{coins}</div></div>")
        out.append(f"<div><b>{ctx.t('Ablagestapel', 'Building piles')}</b> · "
                   f"{ctx.t('Nachziehstapel', 'draw pile')}: <span class='sb-draw'>{obs['draw_size']}</span></div>")
        out.append(f"<div class='sb-building'>{''.join(piles)}</div>")
        if ctx.projector:  # the building piles and the other players side by side, the own cards below
            own = self._own(ctx, me, state_of) if me is not None else ""
            return _projector(f"{out[0]}<div style='display:flex;flex-wrap:wrap;align-items:flex-start;gap:4px 32px'>"
                              f"<div>{out[1]}{out[2]}</div><div>{self._others(ctx, state_of)}</div></div>{own}</div>")
        if me is not None:
            out.append(self._own(ctx, me, state_of))
        out.append(self._others(ctx, state_of))
        out.append("</div>")
        return "".join(out)

    def _own(self, ctx, me, state_of) -> str:
        obs = ctx.observation
        top = obs["stock_tops"][me]
        stock = card_html(top, "s", state_of("s", top is not None),
                          under=ctx.t(f"{obs['stock_sizes'][me]} übrig", f"{obs['stock_sizes'][me]} left"))
        discards = "".join(self._discard(ctx, me, j, f"d{j}", state_of) for j in range(DISCARDS))
        cards, chosen = [], False
        for c in obs["hand"]:  # equal cards are one choice: the first of them shows it
            st = state_of(f"h{c}")
            if st == "sel":
                st, chosen = ("" if chosen else "sel"), True
            cards.append(card_html(c, f"h{c}", st))
        hand = "".join(cards) or "–"
        return (f"<div class='sb-own' style='margin-top:6px;padding:4px;background:#eef4fa;border-radius:8px'>"
                f"<div><b>{escape(ctx.names[me])}</b> · {ctx.t('Münzen', 'coins')}: {coins_html(obs['coins'][me])}</div>"
                f"<div style='display:flex;flex-wrap:wrap;gap:10px'>"
                f"<div>{ctx.t('Spielerstapel', 'Stock pile')}<br>{stock}</div>"
                f"<div>{ctx.t('Hilfsstapel', 'Discard piles')}<br>{discards}</div></div>"
                f"<div class='sb-hand'>{ctx.t('Hand', 'Hand')}<br>{hand}</div></div>")

    def _discard(self, ctx, q, j, tok, state_of, small=False) -> str:
        pile = ctx.observation["discards"][q][j]
        under = ctx.t("leer", "empty") if not pile else f"({len(pile)})"
        title = ", ".join(card_name(c, ctx.lang) for c in pile)
        return card_html(pile[-1] if pile else None, tok, state_of(tok, bool(pile)), small, title, under)

    def _others(self, ctx, state_of) -> str:
        obs = ctx.observation
        rows = []
        for q in range(len(obs["coins"])):
            if q == ctx.viewer:
                continue
            top = obs["stock_tops"][q]
            tok = f"o{q}s"
            stock = card_html(top, tok, state_of(tok, top is not None), True,
                              under=ctx.t(f"{obs['stock_sizes'][q]} übrig", f"{obs['stock_sizes'][q]} left"))
            discards = "".join(self._discard(ctx, q, j, f"o{q}d{j}", state_of, True) for j in range(DISCARDS))
            rows.append(f"<div class='sb-other' data-player='{q}' style='margin-top:4px;border-top:1px solid #e3e6ea'>"
                        f"<b>{escape(ctx.names[q])}</b> · {coins_html(obs['coins'][q])} · "
                        f"{ctx.t('Hand', 'hand')}: <span class='sb-hand-count'>{obs['hand_sizes'][q]}</span>"
                        f"<br>{stock}<span style='display:inline-block;width:10px'></span>{discards}</div>")
        return "".join(rows)

    # --- clicks ---------------------------------------------------------------------------------
    def buttons(self, ctx) -> list[dict]:
        return [{"token": f"a{i}", "label": a.label(ctx.lang)} for i, a in enumerate(ctx.legal)
                if type(a) in BUTTONS]

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
                 "discard": ctx.t(" · Ausspielen vorbei: eine Karte ablegen", " · playing is over: discard a card"),
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
        return (f"<div class='sp-note'>{ctx.t('Rekonstruktion: die Aufteilung der 168 Karten (144 Zahlenkarten, 24 Skip-Bo-Karten) und welche Karten Münzsymbole tragen.', 'Reconstruction: the split of the 168 cards (144 numbered cards, 24 Skip-Bo cards) and which cards carry coin symbols.')} "
                f"{ctx.t('Karten mit', 'Cards with')} {COIN}: {ctx.t('Gebühr', 'toll')}.</div>")

    def advice_columns(self, game) -> list[dict]:
        # the advisor's own live defaults (screening, then finalists on the same hidden cards); the
        # unit is the objective's (analysis.OBJECTIVE), the review counts its losses in it too
        return [{"settings": {"seed": 0}, "kind": "points",
                 "title": {"de": "Vorsprung an Spielerstapel-Karten (geschätzt)",
                           "en": "stock-card lead (estimate)"},
                 "unit": {"de": "Karten Vorsprung", "en": "cards of lead"}}]

    def review_settings(self, game) -> dict:
        # a whole game's decisions: fewer play-outs per decision than live, the same objective
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
