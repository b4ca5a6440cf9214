"""The Schraube Locker view on the shared front-end: the circle of six stacks round the bonus cards
(face-up top cards, cards left, the dice lying on them, the pawns), the dice of the roll, one button
per decision that is not a click on a card, every player's display and the *number* of their
secured cards (face down: which cards they are never reaches another player's screen).

Clicks: a card of the circle puts the matching die on it (CAN); in the card phase a click on a die
of the roll selects it for *Wurf wiederholen* / *Würfel drehen*. Every rule comes from the engine
(its legal actions and its reasons for a refusal); the view only draws and maps clicks.
"""

from __future__ import annotations

import re
from html import escape
from math import cos, pi, sin

from ...core.view import View, die, num, signed
from . import engine as E

COLOUR = {"schraube": "#2e6da4", "doppel_schraube": "#1b4f7a", "mutter": "#d9822b", "doppel_mutter": "#a85d12",
          "wurf_wiederholen": "#277a4c", "wuerfel_drehen": "#7b4fb0", "karten_tauschen": "#16828a",
          "karte_verschenken": "#c2417a"}
WHITE, DARK = "#ffffff", "#1d232b"
# the words on a card's colour: white, dark on the light orange of the nut (each at least 4.5:1, WCAG AA)
INK = {"mutter": DARK}
PAWN = ("#c0392b", "#2471a3", "#1e8449", "#d4ac0d")
PAWN_INK = (WHITE, WHITE, WHITE, "#222222")  # the number on a pawn: dark on the yellow one
ON_CARD = "#ffe08a"  # a die lying on a card, a chosen die of the roll
# the mark of a state (the next card's number, a card a die fits, a chosen die): a dark orange that
# white text can stand on (5.0:1) and that stands out from the page and the card (5.0:1); each state
# also has a shape of its own (▶, ✓, a ring), never only this colour
PICK = "#b35400"
CARD_BG, PAGE = "#fffdf5", WHITE
NUMBER_BG, LEFT_INK, POINTS_INK, SMALL_INK = "#555555", "#444444", "#222222", "#555555"
BONUS_BG, EMPTY_BG, NOTE_INK = "#f7dc6f", "#eeeeee", "#666666"
PIP, EDGE = "#222", "#333333"  # core.view.die draws its pips in #222
W, H, CX, CY, R = 470, 510, 235, 255, 160  # the circle with its pawns; the roll stands beside it
CARD_W, CARD_H = 80, 104
DIE, GAP, PAD = 40, 8, 4  # the roll's dice; PAD leaves room for a chosen die's ring

NUMBER_WORDS = {"de": {1: "ein", 2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"},
                "en": {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}}
TIMES = {"de": {1: "einmal", 2: "zweimal", 3: "dreimal"}, "en": {1: "once", 2: "twice", 3: "three times"}}


def pawn_svg(ctx, p: int, s: int, x: float, y: float, r: float, size: float, moving: bool) -> str:
    """Seat ``p``'s pawn beside stack ``s``: a disc in the seat's colour with its number (the colour is
    not needed to tell it), the mover's edge thick and black, named for screen readers."""
    ring = ' stroke="#000000" stroke-width="3"' if moving else f' stroke="{EDGE}" stroke-width="1.5"'
    label = ctx.t(f"Figur {p + 1}: {ctx.names[p]}, an Stapel {s + 1}", f"pawn {p + 1}: {ctx.names[p]}, "
                  f"beside stack {s + 1}") + (ctx.t(", am Zug", ", to move") if moving else "")
    return (f'<g class="sp-pawn" data-player="{p}" data-stack="{s}" role="img" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{PAWN[p % 4]}"{ring}/>'
            f'<text x="{x:.1f}" y="{y + size / 3:.1f}" font-size="{size}" font-weight="bold" '
            f'fill="{PAWN_INK[p % 4]}" text-anchor="middle">{p + 1}</text></g>')


def header_lines(name: str) -> list[str]:
    """A function's name on a card's header, in at most two lines: „Doppel-“ / „Schraube“,
    „Wurf“ / „wiederholen“ (the card is too narrow for one line; the words stay the engine's)."""
    if "-" in name and " " not in name and not name.startswith("re-"):
        head, _, tail = name.partition("-")
        return [head + "-", tail]
    head, _, tail = name.partition(" ")
    return [head, tail] if tail else [head]


def card_name(card: dict, lang: str) -> str:
    """``„Schraube“ (5)`` – a card as a player names it: its function and its points."""
    name = E.FUNCTIONS[card["function"]][lang]
    quoted = f"„{name}“" if lang == "de" else f"“{name}”"
    return f"{quoted} ({num(card['points'], lang, 0)})"


def _at(s: int, r: float) -> tuple[float, float]:
    a = (-90 + 60 * s) * pi / 180
    return CX + r * cos(a), CY + r * sin(a)


class SchraubeLockerView(View):
    """The circle to click, the roll, the displays; the advisor values every choice of a turn."""

    human_throws = False
    bot_delay = 0.5
    reconstruction = True
    default_bot = "strong"
    advice_notes = True
    colours = (
        *((INK.get(f, WHITE), c, "text") for f, c in COLOUR.items()),  # card headers, the displays' chips
        (WHITE, NUMBER_BG, "text"), (WHITE, PICK, "text"),  # a stack's number; the next card's (with ▶)
        (LEFT_INK, PAGE, "text"),  # cards left in a stack
        (POINTS_INK, CARD_BG, "text"), (SMALL_INK, CARD_BG, "text"),  # a card's points, "Punkte"
        (POINTS_INK, BONUS_BG, "text"), (SMALL_INK, EMPTY_BG, "text"),  # the bonus cards, an empty stack
        *((ink, c, "text") for ink, c in zip(PAWN_INK, PAWN)),  # a pawn's number
        (NOTE_INK, PAGE, "text"),  # "cards: reconstruction"
        (PICK, CARD_BG, "marker"), (PICK, PAGE, "marker"),  # the edge of a card a die fits, a chosen die's ring
        (WHITE, PICK, "marker"),  # ✓ and ▶ on their badges
        (PIP, CARD_BG, "marker"), (PIP, ON_CARD, "marker"),  # the pips of a die, one lying on a card, a chosen one
        ("#000000", PAGE, "marker"), (EDGE, PAGE, "marker"),  # a pawn's edge: the mover's thick and black
    )

    def how_to(self, game, lang: str) -> dict:
        """The How-to-play box for the options of ``game``: every rule a player needs for a whole
        game, its numbers read from the engine (dice, rolls, stacks, bonus and combination points,
        the gift card's points) and the buttons named by the engine's own labels."""
        o, de, deck = game.options, lang == "de", E.CARDS

        def t(de_text, en_text):
            return de_text if de else en_text

        def q(text):
            return f"„{text}“" if de else f"“{text}”"

        fn = {f: names[lang] for f, names in E.FUNCTIONS.items()}
        words, times = NUMBER_WORDS[lang], TIMES[lang]
        dice, more, cards = words[E.DICE], times[E.MAX_ROLLS - 1], min(deck.stack_size, o["stack_size"])
        bp, cp = deck.bonus_points, deck.combination_points
        gift = sorted({p for f, p in zip(deck.function, deck.points) if f == E.GIFT})
        gift_pts = t(f" ({signed(gift[0])} Punkte)", f" ({signed(gift[0])} points)") if len(gift) == 1 else ""
        display_bonus = o["combination_bonus"] == "display"
        goal = t(f"Sammle Karten mit möglichst vielen Punkten. Jede Karte zeigt oben, was sie kann, in der Mitte "
                 f"ihre Punkte und unten eine Würfelzahl. Am Ende zählen die Punkte deiner Karten, {bp} Punkte je "
                 f"Bonuskarte und {cp} Bonuspunkte für jede gesicherte Kombination aus Schrauben und Muttern"
                 + (" – auch für jede, die noch offen in deiner Auslage liegt" if display_bonus else "")
                 + ". Wer die meisten Punkte hat, gewinnt (bei Gleichstand gibt es mehrere Sieger).",
                 f"Collect cards worth as many points as you can. Each card shows what it does at the top, its "
                 f"points in the middle and a die number at the bottom. At the end you score the points of your "
                 f"cards, {bp} points per bonus card and {cp} bonus points for every secured combination of "
                 f"screws and nuts" + (" – and for every one still face up in your display" if display_bonus else "")
                 + ". Most points wins (a tie gives several winners).")
        box = t("; die übrigen Karten bleiben in der Schachtel", "; the other cards stay in the box") \
            if cards < deck.stack_size else ""
        circle = t(f"Aufbau: {words[E.STACKS].capitalize()} verdeckte Stapel mit je {cards} Karten liegen im Kreis "
                   f"um die {deck.bonus_count} Bonuskarten{box}. ",
                   f"Set-up: {words[E.STACKS]} face-down stacks of {cards} cards lie in a circle round the "
                   f"{deck.bonus_count} bonus cards{box}. ")
        if o["pawn_setup"] == "seeded":
            setup = circle + t("Wo jede Figur startet, lost der Zufall aus (aus dem Startwert der Partie); mehrere "
                               "Figuren können am selben Stapel stehen. Erst danach werden die obersten Karten "
                               "aufgedeckt.",
                               "Where each pawn starts is drawn by chance (from the game's seed); pawns may share "
                               "a stack. Only then are the top cards turned face up.")
        else:
            setup = circle + t("Jeder stellt seine Figur neben einen beliebigen Stapel (Stapel anklicken); mehrere "
                               "Figuren dürfen am selben Stapel stehen. Erst danach werden die obersten Karten "
                               "aufgedeckt.",
                               "Everybody puts their pawn beside any stack (click a stack); pawns may share a "
                               "stack. Only then are the top cards turned face up.")
        if o["not_all_dice"]:
            rolling = t(f"Würfeln (Profi-Variante „Nicht alle Würfel“): Vor jedem Wurf wählst du, mit wie vielen "
                        f"deiner freien Würfel du würfelst (Knopf wie {q(E.Roll(2).label(lang))}) – beim ersten "
                        f"Wurf mit 1 bis {E.DICE}. Frei sind die Würfel, die noch auf keiner Karte liegen. Du darfst "
                        f"höchstens {times[E.MAX_ROLLS]} würfeln und nach jedem Wurf aufhören.",
                        f"Rolling (Profi variant “not all dice”): before each roll you choose how many of your free "
                        f"dice to roll (a button like {q(E.Roll(2).label(lang))}) – 1 to {E.DICE} on the first "
                        f"roll. The free dice are those not on a card yet. You may roll at most "
                        f"{times[E.MAX_ROLLS]} and stop after any roll.")
        else:
            rolling = t(f"Würfeln: Du würfelst mit allen {dice} Würfeln. Danach darfst du noch {more} mit den "
                        f"Würfeln würfeln, die noch auf keiner Karte liegen – oder aufhören.",
                        f"Rolling: you roll all {dice} dice. Then you may roll {more} more with the dice that are "
                        f"not on a card yet – or stop.")
        limit = t("Du darfst nach einem Wurf mehrere solche Karten nacheinander einsetzen, jede einmal – auch auf "
                  "Würfel, die „Wurf wiederholen“ eben neu geworfen hat.",
                  "After one roll you may use several such cards one after the other, each once – also on dice "
                  "a “re-roll” has just rolled again.") if o["card_limit"] == "any" else \
            t("Nach jedem Wurf darfst du höchstens eine Karte jeder Art einsetzen.",
              "After each roll you may use at most one card of each kind.")
        functions = t(f"Nach jedem Wurf, bevor Würfel liegen, darfst du eigene Karten {q(fn[E.REROLL])} und "
                      f"{q(fn[E.TURN])} einsetzen: {q(fn[E.REROLL])} würfelt beliebig viele der eben geworfenen "
                      f"Würfel neu (das zählt nicht als Wurf), {q(fn[E.TURN])} dreht einen eben geworfenen Würfel "
                      f"auf eine beliebige Zahl. {limit} Klicke zuerst die Würfel an – dann erscheinen die Knöpfe "
                      f"dafür (mit dem Berater die beste Wahl grün mit ★). Eine eingesetzte Karte kommt in die "
                      f"Schachtel, ihre Punkte auch. {q(E.PROCEED.label(lang))} beendet diesen Schritt.",
                      f"After each roll, before any die is placed, you may use your own {q(fn[E.REROLL])} and "
                      f"{q(fn[E.TURN])} cards: {q(fn[E.REROLL])} rolls any of the dice you just rolled again (that "
                      f"is not one of your rolls), {q(fn[E.TURN])} turns one die you just rolled to any number. "
                      f"{limit} Click the dice first – then their buttons appear (with the advisor on, the best "
                      f"choice is green with ★). A card you use goes back in the box, and its points with it. "
                      f"{q(E.PROCEED.label(lang))} ends this step.")
        must = t("Ein Würfel passt auf eine Karte, wenn er die Würfelzahl unten auf der Karte zeigt. Pflicht: Passt "
                 "ein Würfel auf die nächste freie Karte im Uhrzeigersinn vor deiner Figur, wird er dort eingesetzt, "
                 "dann auf die nächste freie Karte usw.; Karten mit Würfel werden übersprungen. (Die Karte direkt "
                 "vor deiner Figur hat ein ▶ an ihrer Stapelnummer.) Danach kannst du passende Würfel auf andere "
                 "freie Karten legen: Karte mit ✓ anklicken.",
                 "A die fits a card when it shows the die number at the bottom of the card. MUST: if a die fits "
                 "the next free card clockwise from your pawn, it goes there, then on the next free card, and so "
                 "on; cards with a die are skipped. (The card right after your pawn has a ▶ at its stack number.) "
                 "After that you may put fitting dice on other free cards: click a card marked ✓.")
        if o["combine_two"]:
            pair = E.PlacePair(1, 2, 2).label(lang)
            must += t(f" Profi-Variante „Würfel zusammenziehen“: Genau zwei Würfel dürfen auch zusammen auf einer "
                      f"freien Karte liegen, deren Würfelzahl ihre Summe ist – eine 1 und eine 2 auf eine 3, Knopf "
                      f"wie {q(pair)} –, so oft du willst. Die Pflicht verlangt nur einzelne passende Würfel.",
                      f" Profi variant “combine two”: exactly two dice may also lie together on a free card whose "
                      f"die number is their sum – a 1 and a 2 on a 3, a button like {q(pair)} – as often as you "
                      f"like. The MUST rule asks only for single fitting dice.")
        circle_done = t(f"Einmal komplett rum (alle {words[E.STACKS]} Karten haben einen Würfel): sofort eine "
                        f"Bonuskarte, ", f"Once round the circle (all {words[E.STACKS]} cards have a die): a bonus "
                        f"card at once, ")
        if o["full_circle"] == "bonus_only":
            circle_done += t("und damit ist dein Zug vorbei – kein Tauschen, keine Karte vom Stapel.",
                             "and that ends your turn – no swapping, no card from a stack.")
        else:
            circle_done += t("dann geht der Zug am Startstapel weiter.",
                             "then your turn goes on at the stack you started from.")
        stop = t(f"Aufhören ({q(E.STOP.label(lang))}): Deine Figur zieht im Uhrzeigersinn bis zur letzten Karte der "
                 f"lückenlosen Würfelreihe. Liegt auf der nächsten Karte kein Würfel, ist dein Zug sofort vorbei – "
                 f"ohne Karte. Bleibt nichts mehr zu würfeln oder zu legen, zieht die Figur von selbst. ",
                 f"Stop ({q(E.STOP.label(lang))}): your pawn moves clockwise to the last card of the unbroken row "
                 f"of dice. If the next card has no die, your turn ends at once – without a card. With nothing "
                 f"left to roll or place the pawn moves by itself. ") + circle_done
        exchange = t(f"Steht deine Figur danach bei anderen Figuren, darfst du mit jedem dieser Mitspieler einmal "
                     f"eines tun: {q(fn[E.SWAP])} – diese Karte abgeben und eine offene Karte aus seiner Auslage "
                     f"nehmen (keine Bonuskarte, keine gesicherte), oder {q(fn[E.GIFT])} – ihm diese "
                     f"Karte{gift_pts} geben. Das geht nur mit Karten, die schon vor diesem Schritt in deiner "
                     f"Auslage lagen. {q(E.TAKE.label(lang))} beendet diesen Schritt.",
                     f"If your pawn now stands with other pawns, you may do one thing with each of those players: "
                     f"{q(fn[E.SWAP])} – hand over this card and take a face-up card from their display (no bonus "
                     f"card, no secured card), or {q(fn[E.GIFT])} – give them this card{gift_pts}. Only cards "
                     f"that were in your display before this step can be used. {q(E.TAKE.label(lang))} ends this "
                     f"step.")
        combos = t("Mutter + Schraube, Doppel-Mutter + 1 oder 2 Schrauben, Doppel-Schraube + 1 oder 2 Muttern, "
                   "Doppel-Schraube + Doppel-Mutter", "nut + screw, double nut + 1 or 2 screws, double screw + 1 "
                   "or 2 nuts, double screw + double nut")
        if display_bonus:
            bonus = t(f"Gesicherte Karten kann dir niemand wegtauschen. Die {cp} Bonuspunkte gibt es am Ende für "
                      f"jede gesicherte Kombination und auch für jede, die noch offen in deiner Auslage liegt (jede "
                      f"Schrauben-Karte mit einer Mutter-Karte).",
                      f"Nobody can swap secured cards away from you. The {cp} bonus points come at the end for "
                      f"every secured combination and also for every one still face up in your display (each "
                      f"screw card with a nut card).")
        else:
            bonus = t(f"Nur gesicherte Kombinationen bringen die {cp} Bonuspunkte, und niemand kann sie dir "
                      f"wegtauschen.", f"Only secured combinations earn the {cp} bonus points, and nobody can "
                      f"swap them away.")
        take = t(f"Dann nimmst du die offene Karte des Stapels, an dem deine Figur steht; die nächste Karte wird "
                 f"aufgedeckt. Jetzt darfst du Kombinationen sichern (verdeckt ablegen): {combos}. {bonus} "
                 f"{q(E.END.label(lang))} gibt die Würfel weiter.",
                 f"Then you take the face-up card of the stack your pawn stands at; the next card is turned up. "
                 f"Now you may secure combinations (turn them face down): {combos}. {bonus} "
                 f"{q(E.END.label(lang))} passes the dice on.")
        end = t("Das Spiel endet nach dem Zug, in dem ein Stapel leer wird – auch der Stapel der Bonuskarten in "
                "der Mitte.", "The game ends after the turn in which a stack runs out – the bonus cards in the "
                "middle too.")
        advisor = t("Berater: Er zeigt für jede Möglichkeit, wie viele Punkte dir die Karte dieses Zuges im Mittel "
                    "bringt; eine Zeile anklicken spielt sie.",
                    "Advisor: it shows for every choice how many points this turn's card brings you on average; "
                    "click a row to play it.")
        return {"title": "Schraube Locker", "goal": goal,
                "turn": [setup, rolling, functions, must, stop, exchange, take, end, advisor]}

    # --- the picture ---------------------------------------------------------------------------
    def board(self, ctx) -> str:
        if ctx.projector:
            return self._projector_board(ctx)
        obs = ctx.observation
        t = obs["turn"]
        places = {a.stack: a for a in ctx.legal if type(a) is E.Place}
        pawn_at = {a.stack for a in ctx.legal if type(a) is E.PawnAt}  # set-up: the stacks to choose
        mover = t["player"]
        chain = {}
        if mover is not None and obs["pawns"][mover] is not None:
            chain = {(obs["pawns"][mover] + i) % E.STACKS: i for i in range(1, E.STACKS + 1)}
        # a group of named parts (stacks, bonus cards, pawns), so a screen reader can walk the circle
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
               f'font-family="sans-serif" class="sp-circle" role="group" '
               f'aria-label="{ctx.t("Kartenkreis", "circle of cards")}">']
        # the bonus cards in the middle
        n = obs["bonus_left"]
        bp = E.CARDS.bonus_points
        label = ctx.t(f"Bonuskarten in der Mitte: noch {n}, je {bp} Punkte", f"bonus cards in the middle: {n} left, "
                      f"{bp} points each")
        out.append(f'<g class="sp-bonus" role="img" aria-label="{escape(label)}">'
                   f'<rect x="{CX - 34}" y="{CY - 44}" width="68" height="88" rx="8" fill="{BONUS_BG}" '
                   f'stroke="#7d6608" stroke-width="2"/><g fill="{POINTS_INK}">'
                   f'<text x="{CX}" y="{CY - 18}" font-size="12" text-anchor="middle">{ctx.t("Bonus", "bonus")}</text>'
                   f'<text x="{CX}" y="{CY + 10}" font-size="24" font-weight="bold" text-anchor="middle">{bp}</text>'
                   f'<text x="{CX}" y="{CY + 34}" font-size="11" text-anchor="middle" class="sp-bonus-left">'
                   f'{escape(ctx.t(f"noch {n}", f"{n} left"))}</text></g></g>')
        at = [[p for p, ps in enumerate(obs["pawns"]) if ps == s] for s in range(E.STACKS)]
        for s, st in enumerate(obs["stacks"]):
            out.append(self._stack(ctx, s, st, t["on_card"][s], chain.get(s), places.get(s), s in pawn_at, at[s]))
        # the pawns outside the circle, each with its seat's number (its colour is not needed to tell it)
        for s in range(E.STACKS):
            x, y = _at(s, R + 72)
            for k, p in enumerate(at[s]):
                px = x + (k - (len(at[s]) - 1) / 2) * 25
                out.append(pawn_svg(ctx, p, s, px, y, 11, 12, p == mover))
        out.append(f'<text x="4" y="{H - 6}" font-size="11" fill="{NOTE_INK}" font-style="italic">'
                   f'{ctx.t("Karten: Rekonstruktion", "cards: reconstruction")}</text></svg>')
        # the roll stands beside the circle, not below it: the move buttons under the board stay on
        # a 1024×768 screen however long the roll's words get
        return (f"<div class='sp-sl' style='display:flex;flex-wrap:wrap;align-items:flex-start;gap:8px'>"
                f"{''.join(out)}{self._roll(ctx)}</div>")

    def _projector_board(self, ctx) -> str:
        """The projector's board: the six stacks as a ring in two rows (top row 6 1 2, bottom row 5 4 3:
        clockwise, as in the circle), each card drawn 1.6 times its size, the bonus cards beside them
        and the roll beside the board. The screen's height is what limits the zoom, and a circle is
        about twice as high as this ring: this way the cards' smallest words come out at 24 px or more
        on a 1920×1080 screen. Each card is the circle's own drawing (``_stack``), moved to its place."""
        obs = ctx.observation
        t = obs["turn"]
        places = {a.stack: a for a in ctx.legal if type(a) is E.Place}
        pawn_at = {a.stack for a in ctx.legal if type(a) is E.PawnAt}
        mover = t["player"]
        chain = {}
        if mover is not None and obs["pawns"][mover] is not None:
            chain = {(obs["pawns"][mover] + i) % E.STACKS: i for i in range(1, E.STACKS + 1)}
        k, fs = 1.6, 18  # the cards' scale; the size of the words drawn around them
        cw, ch = CARD_W * k, CARD_H * k
        col, line = cw + 32, 36  # under each card one line: the cards left, the pawns standing there
        slots = {5: (0, 0), 0: (1, 0), 1: (2, 0), 4: (0, 1), 3: (1, 1), 2: (2, 1)}
        row_y = (16, 16 + ch + line + 8)  # room above and left for the stacks' numbers
        bonus_w, bonus_h = 68 * k, 88 * k
        width = 16 + 3 * col + bonus_w + 8
        height = row_y[1] + ch + line
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
               f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" class="sp-circle" role="img" '
               f'aria-label="{ctx.t("Kartenkreis", "circle of cards")}">']
        for s, st in enumerate(obs["stacks"]):
            c, r = slots[s]
            gx, gy = 16 + c * col + cw / 2, row_y[r] + ch / 2
            x, y = _at(s, R)
            card = self._stack(ctx, s, st, t["on_card"][s], chain.get(s), places.get(s), s in pawn_at)
            card = re.sub(r'<text [^>]*class="sp-left-count"[^>]*>.*?</text>', "", card)
            out.append(f'<g transform="translate({gx:.1f},{gy:.1f}) scale({k}) translate({-x:.1f},{-y:.1f})">'
                       f'{card}</g>')
            n, ly = st["left"], gy + ch / 2 + line / 2
            out.append(f'<text x="{gx - cw / 2:.1f}" y="{ly + 6:.1f}" font-size="{fs}" fill="{LEFT_INK}" '
                       f'class="sp-left-count">{escape(ctx.t(f"noch {n}", f"{n} left"))}</text>')
            here = [p for p, ps in enumerate(obs["pawns"]) if ps == s]
            # the pawns follow the count (its width estimated: the text is not measured here); three or
            # four on one stack (3 or 4 players) are drawn smaller to stay within the card's width
            r_, step, size = (15, 34, fs) if len(here) < 3 else (12.5, 26, 16)
            start = gx - cw / 2 + 0.58 * fs * len(ctx.t(f"noch {n}", f"{n} left")) + 8 + r_
            for j, p in enumerate(here):
                px = start + j * step
                out.append(pawn_svg(ctx, p, s, px, ly, r_, size, p == mover))
        bx, by = 16 + 3 * col, height / 2 - bonus_h / 2
        n = obs["bonus_left"]
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{bonus_w:.1f}" height="{bonus_h:.1f}" rx="10" fill="#f7dc6f" '
                   f'stroke="#7d6608" stroke-width="2"/>'
                   f'<text x="{bx + bonus_w / 2:.1f}" y="{by + 34:.1f}" font-size="{fs}" text-anchor="middle">'
                   f'{ctx.t("Bonus", "bonus")}</text>'
                   f'<text x="{bx + bonus_w / 2:.1f}" y="{by + bonus_h / 2 + 14:.1f}" font-size="38" font-weight="bold" '
                   f'text-anchor="middle">{E.CARDS.bonus_points}</text>'
                   f'<text x="{bx + bonus_w / 2:.1f}" y="{by + bonus_h - 18:.1f}" font-size="{fs}" text-anchor="middle" '
                   f'class="sp-bonus-left">{escape(ctx.t(f"noch {n}", f"{n} left"))}</text></svg>')
        # the note goes with the roll, where there is room below it
        note = (f"<div style='font-size:.7em;font-style:italic;color:{NOTE_INK}'>"
                f"{ctx.t('Karten: Rekonstruktion', 'cards: reconstruction')}</div>")
        return (f"<div class='sp-sl' style='display:flex;align-items:flex-start;gap:12px'>"
                f"{''.join(out)}<div>{self._roll(ctx)}{note}</div></div>")

    def _stack(self, ctx, s, st, dice, pos, act, choose=False, pawns=()) -> str:
        x, y = _at(s, R)
        x0, y0 = x - CARD_W / 2, y - CARD_H / 2
        lx, ly = _at(s, R - (64 if s % 3 == 0 else 72))
        n = st["left"]
        # the count and the number are part of the stack's name: drawn for the eye only
        left = (f'<text x="{lx:.1f}" y="{ly + 4:.1f}" font-size="11" fill="{LEFT_INK}" text-anchor="middle" '
                f'class="sp-left-count" aria-hidden="true">{escape(ctx.t(f"noch {n}", f"{n} left"))}</text>')
        title = ctx.t(f"Stapel {s + 1}" + (" – die nächste Karte" if pos == 1 else ""),
                      f"stack {s + 1}" + (" – the next card" if pos == 1 else ""))
        if pos == 1:  # the card right after the mover's pawn: ▶ and the number on a dark orange tag
            badge = (f'<rect x="{x0 - 22:.1f}" y="{y0 - 8:.1f}" width="36" height="20" rx="10" fill="{PICK}"/>'
                     f'<path d="M{x0 - 16:.1f} {y0 - 3:.1f} l7 5 l-7 5 z" fill="{WHITE}"/>'
                     f'<text x="{x0 + 3:.1f}" y="{y0 + 6:.1f}" font-size="12" fill="{WHITE}" font-weight="bold" '
                     f'text-anchor="middle" pointer-events="none">{s + 1}</text>')
        else:
            badge = (f'<circle cx="{x0 + 2:.1f}" cy="{y0 + 2:.1f}" r="10" fill="{NUMBER_BG}"/>'
                     f'<text x="{x0 + 2:.1f}" y="{y0 + 6:.1f}" font-size="12" fill="{WHITE}" font-weight="bold" '
                     f'text-anchor="middle" pointer-events="none">{s + 1}</text>')
        left += (f'<g class="sp-stack-number{" sp-next" if pos == 1 else ""}" aria-hidden="true">'
                 f'<title>{escape(title)}</title>{badge}</g>')
        who = ", ".join(ctx.names[p] for p in pawns)
        here = ctx.t(f", hier {'steht' if len(pawns) == 1 else 'stehen'}: {who}", f", here: {who}") if pawns else ""
        nxt = ctx.t(", die nächste Karte", ", the next card") if pos == 1 else ""
        card = st["top"]
        if card is None and n > 0:  # set-up: the stack lies face down until every pawn stands
            tip = (ctx.t(f"Stapel {s + 1}: deine Figur hierher stellen", f"stack {s + 1}: put your pawn here")
                   if choose else ctx.t(f"Stapel {s + 1} (verdeckt)", f"stack {s + 1} (face down)")) \
                + ctx.t(f", {n} Karten", f", {n} cards") + here
            open_ = (f'<g class="sp-stack sp-can" data-act="s{s}"' if choose else '<g class="sp-stack" role="img"')
            edge = f'stroke="{PICK}" stroke-width="4"' if choose else f'stroke="{EDGE}" stroke-width="1.5"'
            return (f'{open_} data-stack="{s}" data-left="{n}" aria-label="{escape(tip)}"><title>{escape(tip)}</title>'
                    f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="#5d6d7e" {edge}/>'
                    f'<rect x="{x0 + 8:.1f}" y="{y0 + 8:.1f}" width="{CARD_W - 16}" height="{CARD_H - 16}" rx="5" '
                    f'fill="none" stroke="#aeb6bf" stroke-width="2" stroke-dasharray="4 3"/></g>{left}')
        if card is None:
            tip = ctx.t(f"Stapel {s + 1}: leer", f"stack {s + 1}: empty") + here
            return (f'<g class="sp-stack" data-stack="{s}" data-left="0" role="img" aria-label="{escape(tip)}">'
                    f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="{EMPTY_BG}" '
                    f'stroke="#999999" stroke-dasharray="5 4"/>'
                    f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="13" fill="{SMALL_INK}" text-anchor="middle">'
                    f'{ctx.t("leer", "empty")}</text></g>{left}')
        f = card["function"]
        name = E.FUNCTIONS[f][ctx.lang]
        lines = header_lines(name)
        open_ = (f'<g class="sp-stack sp-stack-act" data-act="s{s}"' if act is not None
                 else '<g class="sp-stack" role="img"')
        edge = f'stroke="{PICK}" stroke-width="4"' if act is not None else f'stroke="{EDGE}" stroke-width="1.5"'
        head_y = [y0 + 18] if len(lines) == 1 else [y0 + 14, y0 + 26]
        # the words read as one text ("Karte verschenken −3 Punkte"), as the stack's name says them:
        # a space between the header's lines and after each piece (never drawn: SVG strips them)
        head = " ".join(f'<tspan x="{x:.1f}" y="{hy:.1f}">{escape(line)}</tspan>' for hy, line in zip(head_y, lines)) + " "
        # its name for screen readers: the card's words as drawn (name, points), then the rest
        # (the header's lines as drawn, "Doppel- Mutter": the name must hold the words the card shows,
        # which axe reads as two words once the board's pictures no longer clip their text)
        label = (f"{' '.join(lines)} {num(card['points'], ctx.lang, 0)} {ctx.t('Punkte', 'points')}, "
                 + ctx.t(f"Stapel {s + 1}, Würfelzahl {card['die']}, noch {st['left']} Karten",
                         f"stack {s + 1}, die number {card['die']}, {st['left']} cards left") + nxt
                 + (ctx.t(", darauf liegt: ", ", on it: ") + "+".join(map(str, dice)) if dice else "") + here
                 + (ctx.t(f", passt: hier eine {act.value} hinlegen", f", fits: put a {act.value} here")
                    if act is not None else ""))
        parts = [f'{open_} data-stack="{s}" data-card="{card["id"]}" data-die="{card["die"]}" '
                 f'data-left="{st["left"]}" data-name="{escape(name)}" aria-label="{escape(label)}">',
                 # (no <title> beside the aria-label: axe counts its text as the card's words, and
                 # "screw screw 2 points" is not in the name: label-content-name-mismatch)
                 f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="{CARD_BG}" {edge}/>',
                 f'<rect x="{x0 + 3:.1f}" y="{y0 + 3:.1f}" width="{CARD_W - 6}" height="28" rx="5" '
                 f'fill="{COLOUR[f]}"/>',
                 f'<text class="sp-card-name" font-size="11" fill="{INK.get(f, WHITE)}" text-anchor="middle" '
                 f'font-weight="bold">{head}</text>',
                 f'<text x="{x:.1f}" y="{y0 + 56:.1f}" font-size="24" font-weight="bold" fill="{POINTS_INK}" '
                 f'text-anchor="middle">{num(card["points"], ctx.lang, 0)} </text>',
                 f'<text x="{x:.1f}" y="{y0 + 67:.1f}" font-size="11" fill="{SMALL_INK}" text-anchor="middle">'
                 f'{ctx.t("Punkte", "points")}</text>',
                 die(card["die"], 26, x0 + 6, y0 + CARD_H - 31, lang=ctx.lang)]
        for k, v in enumerate(dice):  # the dice lying on the card this turn
            parts.append(f'<g class="sp-on-card" data-value="{v}">'
                         + die(v, 28, x0 + CARD_W - 35 - k * 20, y0 + CARD_H - 33, fill=ON_CARD, lang=ctx.lang) + "</g>")
        if act is not None:  # a die fits: ✓ on the top right corner, besides the thick edge
            cx, cy = x0 + CARD_W - 2, y0 + 2
            parts.append(f'<g class="sp-fits"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="10" fill="{PICK}" '
                         f'stroke="{WHITE}" stroke-width="1.5"/><path d="M{cx - 5:.1f} {cy:.1f} l3.5 4 l6.5 -8" '
                         f'fill="none" stroke="{WHITE}" stroke-width="2.5" stroke-linecap="round" '
                         f'stroke-linejoin="round"/></g>')
        parts.append("</g>")
        return "".join(parts) + left

    def _roll(self, ctx) -> str:
        """The roll beside the circle: the dice (two a row), the roll count, what to click."""
        obs = ctx.observation
        t = obs["turn"]
        style = "style='max-width:9em;font-size:.85em'"  # grows with the projector's type
        if obs["phase"] == E.SETUP:
            if not ctx.legal:
                return ""
            return (f"<div class='sp-roll' {style}>"
                    + escape(ctx.t("Klicke einen Stapel an: Dort startet deine Figur. Erst wenn alle Figuren "
                                   "stehen, werden die Karten aufgedeckt.",
                                   "Click a stack: your pawn starts there. The cards are turned up once every "
                                   "pawn stands.")) + "</div>")
        if t["player"] is None:
            return ""
        roll = t["roll"]
        picking = obs["phase"] == E.CARDS_PHASE and bool(ctx.legal)
        sel = set(ctx.ui.get("sel", ()))
        body = []
        for i, v in enumerate(roll):
            dx, dy = PAD + (i % 2) * (DIE + GAP), PAD + (i // 2) * (DIE + GAP)
            chosen = picking and i in sel
            g = die(v, DIE, dx, dy, fill=ON_CARD if chosen else CARD_BG, lang=ctx.lang)
            if chosen:  # a ring round a chosen die: the state has a shape, not only the yellow
                g += (f'<rect x="{dx - 3}" y="{dy - 3}" width="{DIE + 6}" height="{DIE + 6}" rx="10" fill="none" '
                      f'stroke="{PICK}" stroke-width="3"/>')
            if picking:
                label = ctx.t(f"Würfel {v} des Wurfs", f"die {v} of the roll") + \
                    (ctx.t(", gewählt", ", chosen") if chosen else "")
                body.append(f'<g data-act="d{i}" class="sp-roll-die{" sp-chosen" if chosen else ""}" '
                            f'aria-label="{escape(label)}" aria-pressed="{"true" if chosen else "false"}">{g}</g>')
            else:
                body.append(g)
        width, height = 2 * DIE + GAP + 2 * PAD, ((len(roll) + 1) // 2) * (DIE + GAP) - GAP + 2 * PAD
        name = ctx.t("Wurf: ", "roll: ") + ", ".join(map(str, roll))
        dice = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" class="sp-dice" data-dice="{",".join(map(str, roll))}" '
                f'role="group" aria-label="{escape(name)}">{"".join(body)}</svg>') if roll else ""
        text = ctx.t(f"Wurf {t['rolls']} von {E.MAX_ROLLS} · freie Würfel: {t['dice_left']}",
                     f"roll {t['rolls']} of {E.MAX_ROLLS} · free dice: {t['dice_left']}")
        hint = ""
        if picking:
            hint = ctx.t("Würfel anklicken: dann erscheinen „Wurf wiederholen“ und „Würfel drehen“ für sie.",
                         "Click dice: then “re-roll” and “turn a die” appear for them.")
        elif obs["phase"] == E.PLACE and any(type(a) is E.Place for a in ctx.legal):
            hint = ctx.t("Karte mit ✓ anklicken: Ein passender Würfel kommt darauf.",
                         "Click a card marked ✓: a fitting die goes on it.")
        return (f"<div class='sp-roll' {style}>{dice}<div>{escape(text)}</div>"
                + (f"<div class='sp-roll-hint'>{escape(hint)}</div>" if hint else "") + "</div>")

    # --- decisions -----------------------------------------------------------------------------
    def buttons(self, ctx) -> list[dict]:
        out = []
        sel = self._selected(ctx)
        for i, a in enumerate(ctx.legal):
            ta = type(a)
            if ta in (E.Place, E.PawnAt, E.UseReroll, E.UseTurn):
                continue  # a click on the card or stack; the card functions through the selected dice
            out.append({"token": f"a{i}", "label": self.option_label(ctx, a)})
        if ctx.observation["phase"] == E.CARDS_PHASE and sel:
            card_buttons = []
            for token in ["rr"] + [f"tn{k}" for k in range(1, 7)]:
                a = self._card_action(ctx, token)
                if a is not None:
                    card_buttons.append({"token": token, "label": self.option_label(ctx, a)})
            # the choice is made when no die can join it (all dice chosen, or only a turn of one die
            # is possible): the focus goes to its first button; while more dice may join a re-roll
            # it stays on the dice
            roll = ctx.observation["turn"]["roll"]
            done = len(sel) >= len(roll) or not any(type(a) is E.UseReroll for a in ctx.legal)
            if card_buttons and done:
                card_buttons[0]["focus"] = True
            out += card_buttons
        return out

    @staticmethod
    def _selected(ctx) -> list:
        roll = ctx.observation["turn"]["roll"]
        return sorted(roll[i] for i in ctx.ui.get("sel", ()) if i < len(roll))

    def _card_action(self, ctx, token):
        """The cheapest own card doing what ``token`` asks with the selected dice (None: no such move)."""
        sel = tuple(self._selected(ctx))
        if token == "rr":
            want = [a for a in ctx.legal if type(a) is E.UseReroll and a.values == sel]
        else:
            k = int(token[2:])
            want = [a for a in ctx.legal if type(a) is E.UseTurn and len(sel) == 1 and a.frm == sel[0] and a.to == k]
        return min(want, key=lambda a: E.CARDS.points[a.card], default=None)

    def click(self, ctx, token: str):
        if not ctx.legal:
            return super().click(ctx, token)  # not the viewer's decision: the shared refusal says so
        obs = ctx.observation
        if token.startswith("s") and token[1:].isdigit() and int(token[1:]) < E.STACKS:
            s = int(token[1:])
            for a in ctx.legal:
                if type(a) in (E.Place, E.PawnAt) and a.stack == s:
                    return a
            if obs["phase"] == E.SETUP:
                ctx.refuse(E.PawnAt(obs["to_move"], s))
            top = obs["stacks"][s]["top"]
            if top is None:
                ctx.refuse(E.Place(0, s))
            ctx.refuse(E.Place(top["die"], s))
        if token.startswith("d") and token[1:].isdigit():
            i = int(token[1:])
            if obs["phase"] != E.CARDS_PHASE or i >= len(obs["turn"]["roll"]):
                return {"de": "Würfel werden auf die Karten im Kreis gelegt: Karte anklicken.",
                        "en": "Dice go on the cards of the circle: click a card."}
            sel = set(ctx.ui.get("sel", ()))
            sel ^= {i}
            ctx.ui["sel"] = sorted(sel)
            vals = " ".join(map(str, self._selected(ctx))) or "–"
            reroll, turn = E.FUNCTIONS[E.REROLL], E.FUNCTIONS[E.TURN]
            return {"de": f"Ausgewählt: {vals}. Jetzt „{reroll['de']}“ oder „{turn['de']}“ wählen.",
                    "en": f"Chosen: {vals}. Now pick “{reroll['en']}” or “{turn['en']}”."}
        if token == "rr" or (token.startswith("tn") and token[2:].isdigit() and 1 <= int(token[2:]) <= 6):
            a = self._card_action(ctx, token)
            if a is None:
                sel = tuple(self._selected(ctx)) or (0,)
                ctx.refuse(E.UseReroll(-1, sel) if token == "rr" else E.UseTurn(-1, sel[0], int(token[2:])))
            return a
        return super().click(ctx, token)

    def option_label(self, ctx, a) -> str:
        ta, lang = type(a), ctx.lang
        if ta is E.Place:
            return ctx.t(f"{a.value} auf Stapel {a.stack + 1} legen", f"put {a.value} on stack {a.stack + 1}")
        if ta in (E.Swap, E.Gift):
            who = ctx.names[a.target]
            if ctx.de and ctx.human_seats and a.target == ctx.human_seats[0]:
                who = "dir"  # the screen's own player is "Du": „mit dir tauschen“
            give = card_name(E.CARDS.card_json(a.give), lang)
            if ta is E.Gift:
                return ctx.t(f"{who} schenken: {give}", f"gift {who}: {give}")
            take = card_name(E.CARDS.card_json(a.take), lang)
            return ctx.t(f"mit {who} tauschen: gib {give}, nimm {take}", f"swap with {who}: give {give}, take {take}")
        if ta is E.Secure:
            cards = " + ".join(card_name(E.CARDS.card_json(c), lang) for c in a.cards)
            return ctx.t(f"sichern: {cards}", f"secure: {cards}")
        if ta is E.PawnAt:
            return ctx.t(f"Figur an Stapel {a.stack + 1}", f"pawn beside stack {a.stack + 1}")
        if ta in (E.UseReroll, E.UseTurn):
            # the card is named only where it matters: own cards of this kind with different points
            me = ctx.observation["to_move"]
            fn = E.CARDS.function[a.card]
            own = ctx.observation["players"][me]["display"] if me is not None else []
            if len({c["points"] for c in own if c["function"] == fn}) > 1:
                return f"{a.label(lang)} ({card_name(E.CARDS.card_json(a.card), lang)})"
        return a.label(lang)

    # --- words ---------------------------------------------------------------------------------
    def status(self, ctx, whose_turn) -> str:
        obs = ctx.observation
        if whose_turn is None:  # a die rolls or a card turns up: still the turn of its player
            whose_turn = obs["turn"]["player"]
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        ph = obs["phase"]
        what = {E.SETUP: ("Figur aufstellen", "placing the pawns"), E.START: ("wie viele Würfel?", "how many dice?"),
                E.CARDS_PHASE: ("Karten einsetzen?", "use cards?"), E.PLACE: ("Würfel legen", "placing dice"),
                E.EXCHANGE: ("tauschen oder schenken", "swap or gift"), E.SECURE: ("sichern", "securing")}.get(ph)
        if what is None:
            return ctx.t(f"Am Zug: {who}", f"To play: {who}")
        return ctx.t(f"Am Zug: {who} · {what[0]}", f"To play: {who} · {what[1]}")

    def explain(self, before, action, after) -> str:
        b, a, lang = before.observation, after.observation, after.lang
        ta = type(action)
        if ta is E.Reveal:
            return after.t(f"Stapel {action.stack + 1} deckt auf: ", f"stack {action.stack + 1} turns up ") \
                + card_name(E.CARDS.card_json(action.card), lang) + "."
        if ta is E.PawnAt:  # drawn by the seed: nobody's move, so the log names the player here
            who = f"{after.names[action.player]}: " if b["chance"] == "pawn" else ""
            return who + self.option_label(after, action) + "."
        if ta is E.Dice:
            text = after.t("Wurf: ", "roll: ") + " ".join(map(str, action.values)) + "."
        else:
            text = self.option_label(before.replace(lang=lang, names=after.names), action) + "."
        mover = b["turn"]["player"]
        if mover is None:
            return text
        new = [(s, y) for s, (x, y) in enumerate(zip(b["turn"]["on_card"], a["turn"]["on_card"]))
               if y and not x and a["turn"]["player"] == mover]
        if ta is E.Place:
            new = [(s, v) for s, v in new if s != action.stack]
        if new:
            laid = ", ".join(f"{'+'.join(map(str, v))} → {after.t('Stapel', 'stack')} {s + 1}" for s, v in new)
            text += after.t(f" Pflicht: {laid}.", f" MUST: {laid}.")
        moved = a["pawns"][mover] != b["pawns"][mover]
        bonus = a["players"][mover]["bonus"] > b["players"][mover]["bonus"]
        if bonus:
            text += after.t(" Einmal komplett rum: eine Bonuskarte!", " Once round the circle: a bonus card!")
        elif moved:
            steps = (a["pawns"][mover] - b["pawns"][mover]) % E.STACKS
            text += after.t(f" Die Figur zieht {steps} {'Karte' if steps == 1 else 'Karten'} weit.",
                            f" The pawn moves {steps} {'card' if steps == 1 else 'cards'}.")
        elif b["phase"] in (E.PLACE, E.CARDS_PHASE) and (a["turn"]["player"] != mover or a["terminal"]):
            text += after.t(" Kein Würfel auf der nächsten Karte: der Zug ist vorbei.",
                            " No die on the next card: the turn ends.")
        ids = {c["id"] for c in b["players"][mover]["display"]} | ({action.take} if ta is E.Swap else set())
        got = [c for c in a["players"][mover]["display"] if c["id"] not in ids]
        if got:
            text += after.t(" Nimmt ", " Takes ") + ", ".join(card_name(c, lang) for c in got) + "."
        return text

    def scores(self, ctx, totals) -> dict:
        ps = ctx.observation["players"]
        cp = E.CARDS.combination_points

        def pts(x):
            return str(x).replace("-", "−")

        def secured(p):  # face down: how many cards, their points only at the end (all turned up)
            if totals is None:
                return str(p["secured_count"])
            return pts(sum(c["points"] for t in p["secured"] for c in t) + cp * len(p["secured"]))

        rows = [[ctx.t("offene Karten", "face-up cards"), *[pts(sum(c["points"] for c in p["display"])) for p in ps]],
                [ctx.t("Bonuskarten", "bonus cards"),
                 *[f"{p['bonus']} × {E.CARDS.bonus_points}" if p["bonus"] else "0" for p in ps]],
                [ctx.t("gesicherte Karten", "secured cards") if totals is None else
                 ctx.t(f"gesichert (+{cp} je Kombination)", f"secured (+{cp} per combination)"),
                 *[secured(p) for p in ps]]]
        if totals is not None and ctx.game.options["combination_bonus"] == "display":  # D3: face-up ones too
            rows.append([ctx.t(f"offene Kombinationen (+{cp} je)", f"face-up combinations (+{cp} each)"),
                         *[pts(cp * E.open_combinations([c["id"] for c in p["display"]])) for p in ps]])
        shown = totals if totals is not None else [p["visible_points"] for p in ps]
        rows.append([ctx.t("Summe", "Total"), *[pts(x) for x in shown]])
        return {"title": ctx.t("Punkte (offen sichtbar)", "Scores (visible)") if totals is None else None,
                "headers": ["", *ctx.names], "rows": rows, "highlight": len(rows) - 1}

    def extra(self, ctx) -> str:
        obs = ctx.observation
        parts = [f"<b>{ctx.t('Auslagen', 'Each player’s display')}</b>"]
        for p, pl in enumerate(obs["players"]):
            chips = "".join(
                f"<span class='sp-chip' data-card='{c['id']}' style='display:inline-block;margin:1px 3px 1px 0;"
                f"padding:1px 6px;border-radius:8px;color:{INK.get(c['function'], WHITE)};"
                f"background:{COLOUR[c['function']]};font-size:.85em'>"
                f"{escape(E.FUNCTIONS[c['function']][ctx.lang])} {num(c['points'], ctx.lang, 0)}</span>"
                for c in pl["display"]) or "–"
            n = pl["secured_count"]
            sec = ctx.t(f"gesichert: {n} {'Karte' if n == 1 else 'Karten'} (verdeckt)",
                        f"secured: {n} {'card' if n == 1 else 'cards'} (face down)")
            bonus = ctx.t(f" · Bonuskarten: {pl['bonus']}", f" · bonus cards: {pl['bonus']}") if pl["bonus"] else ""
            # the pawn's number on its colour, as on the board (the name says who it is)
            tag = (f"<span aria-hidden='true' style='display:inline-block;min-width:1.2em;text-align:center;"
                   f"border-radius:50%;border:1px solid {EDGE};background:{PAWN[p % 4]};color:{PAWN_INK[p % 4]};"
                   f"font-size:.8em;font-weight:bold'>{p + 1}</span>")
            parts.append(f"<div class='sp-display' data-player='{p}' data-cards='{len(pl['display'])}' "
                         f"data-secured='{n}' style='margin:4px 0'>{tag} "
                         f"<b>{escape(ctx.names[p])}</b>: {chips}<br><small>{escape(sec + bonus)}</small></div>")
        return "".join(parts)

    def advice_columns(self, game) -> list[dict]:
        return [{"settings": {}, "kind": "points",
                 "title": {"de": "Erwartete Punkte dieses Zuges", "en": "expected points this turn"},
                 "unit": {"de": "Punkte", "en": "points"}}]
