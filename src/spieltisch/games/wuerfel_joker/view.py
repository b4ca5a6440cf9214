"""The Würfel Joker view (both games): the Tableau and the dice as SVG text (standard library only),
and ``WuerfelJokerView``, the shared front-end's view of an observation.

``board_svg(game_id, observation)`` draws a position from an observation alone (both games);
``slide_pictures`` and ``dice_picture`` are its parts. The pieces (``die``, ``dice_row``, ``slide``,
``tableau``, ``badge``) draw plain values. Every sentence the view says comes from what the engine
says (its formulas, its ways to push, its options and its table), never from a rule restated here.

The Tableau is one small SVG per slide in rows that wrap, so a phone 320 px wide shows every slide
(slides 1–6, then the jokers or 7–9) with each slide a tap target of 44 × 96 px. A slide's state is
drawn by its position (raised = up), never by its colour alone; slide 5 of Spiel 2 carries a ring,
the jokers a "J".
"""

from __future__ import annotations

from html import escape

from ...core.view import View, die, dice_row, signed  # noqa: F401  (die, dice_row: the notebooks' pictures)
from .spiel1 import engine as S1
from .spiel2 import engine as S2

FRAME = "#5b4636"  # the slot a slide runs in
KNOB_DOWN = "#f4f1e8"  # a slide down: light, dark numeral
INK = "#222"
SLIDE_ACCENT = "#c0392b"
FIVE_ACCENT = "#1e8449"  # Spiel 2: slide 5 plays a special part (a darker green than before: white on it reads)
JOKER_ACCENT = "#d4a017"  # gold, so its numeral is dark
ON_ACCENT = {SLIDE_ACCENT: "#fff", FIVE_ACCENT: "#fff", JOKER_ACCENT: INK}
BADGE = "#8e44ad"
SLIDE_W, SLIDE_H = 44, 96  # a slide on the Play page: a tap target of at least 44 px each way
GAP = 4


def slide(label: str, up: bool, width: int = 40, height: int = 90, accent: str = SLIDE_ACCENT,
          x: float = 0, ring: bool = False, chosen: bool = False) -> str:
    """A two-position slide (Schieber) as an SVG group: up = pushed, drawn raised and coloured.
    The knob's light outline sets it off from the dark slot whatever its colour; ``ring`` circles
    the numeral (slide 5 of Spiel 2: its special part shown by a shape, not by the green alone);
    ``chosen``: a slide the player has picked but not yet pushed, raised, light, with a dashed edge."""
    y = 4 if up or chosen else height * 0.42
    knob_h = height * 0.54
    fill = accent if up else KNOB_DOWN
    text = ON_ACCENT.get(accent, "#fff") if up else INK
    edge = (f'stroke="{SLIDE_ACCENT}" stroke-width="3" stroke-dasharray="5 3"' if chosen and not up
            else f'stroke="{KNOB_DOWN}" stroke-width="2"')
    mid = y + knob_h / 2
    circle = (f'<circle cx="{width / 2}" cy="{mid}" r="{min(width, knob_h) / 2 - 5}" fill="none" '
              f'stroke="{text}" stroke-width="2"/>') if ring else ""
    return (f'<g transform="translate({x},0)">'
            f'<rect x="2" y="2" width="{width - 4}" height="{height - 4}" rx="6" fill="{FRAME}"/>'
            f'<rect x="6" y="{y}" width="{width - 12}" height="{knob_h}" rx="5" fill="{fill}" '
            f'{edge}/>{circle}'
            f'<text x="{width / 2}" y="{mid + 6}" font-size="18" font-family="sans-serif" '
            f'font-weight="bold" text-anchor="middle" fill="{text}">{escape(label)}</text></g>')


def _slide_svg(s: dict, width: int, height: int) -> str:
    """One slide as its own SVG. A slide to click holds a ``data-act`` group named by ``s["name"]``
    with ``aria-pressed`` (up or chosen); any other slide is a picture named the same way."""
    pic = slide(s["label"], s["up"], width, height, s["accent"], ring=s.get("ring", False),
                chosen=s.get("chosen", False))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="wj-slide"')
    if s.get("act"):
        return (f'{head}><g data-act="{s["act"]}" aria-label="{escape(s["name"])}" '
                f'aria-pressed="{"true" if s["up"] or s.get("chosen") else "false"}">'
                f'<rect width="{width}" height="{height}" fill="transparent"/>{pic}</g></svg>')
    return f'{head} role="img" aria-label="{escape(s["name"])}">{pic}</svg>'


def tableau(slides: list[dict], name: str, width: int = SLIDE_W, height: int = SLIDE_H) -> str:
    """The Tableau as HTML: one SVG per slide in rows that wrap (on a phone slides 1–6, then the
    jokers or 7–9; Spiel 1's jokers are a group of their own, as on the device)."""
    groups: dict[int, list[dict]] = {}
    for s in slides:
        groups.setdefault(s.get("group", 0), []).append(s)
    parts = [f'<div style="display:flex;flex-wrap:wrap;gap:{GAP}px">'
             + "".join(_slide_svg(s, width, height) for s in members) + "</div>" for members in groups.values()]
    return (f'<div class="wj-tableau" role="group" aria-label="{escape(name)}" '
            f'style="display:flex;flex-wrap:wrap;gap:10px {GAP * 3}px">' + "".join(parts) + "</div>")


def badge(text: str, colour: str = "#2c3e50") -> str:
    return (f'<span style="display:inline-block;padding:2px 8px;border-radius:10px;background:{colour};'
            f'color:#fff;font-size:12px">{escape(text)}</span>')


# --- from observations ---------------------------------------------------------------------------
GAME1, GAME2 = "wuerfel-joker-1", "wuerfel-joker-2"
NUM_DICE = {GAME1: 3, GAME2: 2}


def _t(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def slide_pictures(game_id: str, observation: dict, lang: str = "de") -> list[dict]:
    """Every slide of the Tableau as the observation shows it: ``label``, ``up``, ``accent``,
    ``ring``, ``group`` (0: the number slides, 1: Spiel 1's jokers) and ``name`` (what a screen
    reader says: number and state). Spiel 1: slides 1-6, then the three jokers (as on the device:
    going into the jokers pushes all three up, each 1 thrown pushes one back down); Spiel 2:
    slides 1-9."""
    def state(up):
        return _t(lang, "oben", "up") if up else _t(lang, "unten", "down")

    if game_id == GAME2:
        up = set(observation["up"])
        out = []
        for v in range(1, 10):
            name = _t(lang, f"Schieber {v}", f"slide {v}")
            if v == 5:
                name += _t(lang, " (die Fünf)", " (the five)")
            name += f": {state(v in up)}"
            if v == 5 and v in up:
                name += _t(lang, " – die 5 rechnet jetzt mit", " – the 5 now joins the sums")
            out.append({"label": str(v), "up": v in up, "accent": FIVE_ACCENT if v == 5 else SLIDE_ACCENT,
                        "ring": v == 5, "group": 0, "name": name})
        return out
    if game_id != GAME1:
        raise ValueError(f"not a Würfel Joker game: {game_id!r}")
    up = set(observation["pushed"])
    out = [{"label": str(v), "up": v in up, "accent": SLIDE_ACCENT, "ring": False, "group": 0,
            "name": _t(lang, f"Schieber {v}: ", f"slide {v}: ") + state(v in up)} for v in range(1, 7)]
    for i in range(S1.NUM_JOKERS):
        in_jokers = observation["in_jokers"]
        raised = in_jokers and i >= observation["jokers"]
        name = _t(lang, f"Joker {i + 1}: ", f"joker {i + 1}: ") + state(raised)
        if raised:
            name += _t(lang, " – eine gewürfelte 1 schiebt ihn nach unten", " – a 1 thrown pushes it down")
        elif in_jokers:
            name += _t(lang, " – mit einer 1 gewürfelt, der Wert verdoppelt", " – thrown with a 1, the value doubled")
        out.append({"label": "J", "up": raised, "accent": JOKER_ACCENT, "ring": False, "group": 1, "name": name})
    return out


def tableau_name(game_id: str, observation: dict, lang: str = "de") -> str:
    """The Tableau in one line: which slides are up."""
    up = observation["up"] if game_id == GAME2 else observation["pushed"]
    text = _t(lang, "Tableau – oben: ", "Tableau – up: ") + (", ".join(map(str, up)) or _t(lang, "keiner", "none"))
    if game_id == GAME1 and observation["in_jokers"]:
        text += _t(lang, f"; in den Jokern, {observation['jokers']} von 3 mit einer 1 gewürfelt",
                   f"; in the jokers, {observation['jokers']} of 3 thrown with a 1")
    return text


def dice_picture(game_id: str, observation: dict) -> tuple[list[int], tuple]:
    """The dice to draw: ``(values, muted)``, blanks (0) greyed out. Spiel 1 shows the throw being
    decided on and greys out the dice no longer in play; Spiel 2 shows the throw on the table."""
    n = NUM_DICE[game_id]
    if game_id == GAME2:
        dice = observation["dice"]
        return (list(dice), ()) if dice else ([0] * n, tuple(range(n)))
    throw = observation["throw"]
    if throw and observation["phase"] in ("assign", "joker_decide"):
        return list(throw) + [0] * (n - len(throw)), tuple(range(len(throw), n))
    in_play = observation["dice_in_play"] if observation["phase"] in ("throw", "joker_throw", "decide") else n
    return [0] * n, tuple(range(in_play, n))


def board_svg(game_id: str, observation: dict, lang: str = "de", size: int = 48,
              width: int = 34, height: int = 76) -> str:
    """The Tableau and the dice of ``observation`` side by side (HTML holding one SVG per slide and
    one for the dice)."""
    slides = slide_pictures(game_id, observation, lang)
    values, muted = dice_picture(game_id, observation)
    return (f"<div style='display:flex;align-items:flex-end;gap:18px;flex-wrap:wrap'>"
            f"{tableau(slides, tableau_name(game_id, observation, lang), width, height)}"
            f"{dice_row(values, size=size, muted=muted, lang=lang)}</div>")


# --- the front-end's view --------------------------------------------------------------------------


def _expr(formation: str, lang: str = "de") -> str:
    """The arithmetic of an engine formation text: "6+2 = 8" -> "6+2", "3 (Pasch)" -> "Pasch"."""
    if formation.endswith("(Pasch)"):
        return "Pasch" if lang == "de" else "doubles"
    return formation.split(" = ")[0]


def _how2(dice, mask: int, value: int, five_ops: str, lang: str = "de") -> str:
    hows = S2.ways(dice[0], dice[1], mask, five_ops).get(value, [])
    return min((_expr(h, lang) for h in hows), key=len) if hows else str(value)


# --- the How-to box: generated from the options in force and the engine's own arithmetic ----------


def _join(items, lang: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + _t(lang, " oder ", " or ") + items[-1]


def _ways_text(a: int, b: int, mask: int, five_ops: str, lang: str, only_five: bool = False) -> str:
    """How the engine makes each value of the throw ``a, b``: "6+2 = 8, 6−2 = 4 oder 6:2 = 3"."""
    forms = [text for _, text in S2.formations(a, b, bool(mask & S2.FIVE), five_ops)]
    if only_five:  # the ways the 5 adds: those the same throw lacks with slide 5 down
        plain = {text for _, text in S2.formations(a, b, False, five_ops)}
        forms = [text for text in forms if text not in plain]
    forms = [text.replace(" (Pasch)", "") if text.endswith("(Pasch)") else text for text in forms]
    return _join(forms, lang)


def _first_throw_only_with(five_ops: str):
    """The first throw (and its text) that only ``five_ops`` makes with slide 5 up: (4, 1) -> "(4+1):5 = 1"."""
    for a in range(1, 7):
        for b in range(1, a + 1):
            texts = {v: t for v, t in S2.formations(a, b, True, five_ops)}
            plain = {v for v, _ in S2.formations(a, b, True, "plus_minus")}
            for v, t in texts.items():
                if v not in plain and v != 5:  # x5 only ever makes the 5, which is up by then
                    return a, b, t
    return None


def how_to_2(game, lang: str) -> dict:
    """Spiel 2's How-to box for the options in force (``rounds``, ``five_ops``, ``x5_on_stop``)."""
    o = game.options
    ops, rounds = o["five_ops"], o["rounds"]
    turn = []
    if game.num_players > 1:
        turn.append(_t(lang, "Anfangswurf: Jeder würfelt einmal mit beiden Würfeln; die höchste Summe beginnt "
                             "(bei Gleichstand würfeln nur diese Spieler noch einmal).",
                       "Start throw: everyone throws both dice once; the highest sum begins (on a tie only "
                       "those players throw again)."))
    turn.append(_t(lang, "Würfle mit beiden Würfeln.", "Throw both dice."))
    turn.append(_t(
        lang,
        "Schiebe genau einen Schieber hoch, der noch unten ist. Seine Zahl muss aus den beiden Würfeln "
        "entstehen, mit einer der vier Grundrechenarten: plus, minus (größere minus kleinere Zahl), mal oder "
        "geteilt (größere durch kleinere, nur wenn es aufgeht). Beispiel: 6 und 2 → "
        f"{_ways_text(6, 2, 0, ops, lang)}; 6×2 = 12 gibt es nicht.",
        "Push exactly one slide up that is still down. Its number must come from the two dice with one of the "
        "four operations: plus, minus (larger minus smaller), times or divided (larger by smaller, only when it "
        f"divides exactly). Example: 6 and 2 → {_ways_text(6, 2, 0, ops, lang)}; 6×2 = 12 is no slide."))
    turn.append(_t(
        lang,
        "Pasch (zwei gleiche Zahlen): Nur dann darfst du auch die einzelne Zahl schieben – 3 und 3 → "
        f"{_ways_text(3, 3, 0, ops, lang)}. Auf einen Pasch darfst du verzichten und neu würfeln, auch wenn er "
        "passt; passt er nicht, darfst du ihn auch annehmen (dann ist der Zug vorbei wie nach einem Wurf, der "
        "nicht passt).",
        "Doubles (two equal numbers): only then may you also push the single number – 3 and 3 → "
        f"{_ways_text(3, 3, 0, ops, lang)}. You may decline doubles and throw again, even when they fit; "
        "doubles that fit nothing may also be accepted (the turn then ends as after a throw that fits nothing)."))
    five_up = S2.FIVE
    five = _t(
        lang,
        "Die Fünf: Ist Schieber 5 oben, darfst du zum Ergebnis der beiden Würfel noch 5 dazuzählen oder "
        "abziehen – erst die Würfel verrechnen, dann die 5: 4 und 2 → "
        f"{_ways_text(4, 2, five_up, ops, lang, only_five=True)}. 4+5−2 ist nicht erlaubt, und "
        "zur einzelnen Zahl eines Paschs kommt keine 5.",
        "The five: once slide 5 is up you may add 5 to or subtract 5 from the result of the two dice – first "
        f"combine the dice, then the 5: 4 and 2 → {_ways_text(4, 2, five_up, ops, lang, only_five=True)}. "
        "4+5−2 is not allowed, and no 5 joins the single number of doubles.")
    if ops == "all":
        a, b, text = _first_throw_only_with("all")
        five += _t(lang, f" Mit dieser Regel-Option auch mal 5 und geteilt durch 5, wenn es aufgeht: {a} und {b} → "
                         f"{text} (mal 5 ergibt höchstens die 5, und die ist dann schon oben).",
                   f" With this rule option also times 5 and divided by 5 when it divides exactly: {a} and {b} → "
                   f"{text} (times 5 makes at most the 5, which is up by then).")
    else:
        five += _t(lang, " Nur plus oder minus 5, nicht mal oder geteilt durch 5.",
                   " Only plus or minus 5, not times or divided by 5.")
    turn.append(five)
    if o["x5_on_stop"]:
        stop = _t(lang, "Wer aufhört, schreibt die Zahlen der Schieber, die noch unten sind, als Minuspunkte "
                        "auf – mal 5, wenn Schieber 5 oben ist (Regel-Option).",
                  "Stopping writes the numbers of the slides still down as minus points – times 5 if slide 5 "
                  "is up (rule option).")
    else:
        stop = _t(lang, "Wer aufhört, schreibt die Zahlen der Schieber, die noch unten sind, als Minuspunkte "
                        "auf (nicht mal 5, auch wenn Schieber 5 oben ist).",
                  "Stopping writes the numbers of the slides still down as minus points (not times 5, even if "
                  "slide 5 is up).")
    turn.append(_t(lang, "Nach jedem Schieben: aufhören oder weiterwürfeln. ", "After each push: stop or throw "
                                                                               "again. ") + stop)
    turn.append(_t(
        lang,
        "Passt ein Wurf nicht und du verzichtest nicht auf einen Pasch, ist der Zug vorbei: Minuspunkte = die "
        "Schieber unten + die Augen dieses Wurfs, mal 5, wenn Schieber 5 oben ist.",
        "A throw that fits nothing (unless you decline doubles) ends the turn: minus points = the slides down + "
        "the pips of that throw, times 5 if slide 5 is up."))
    turn.append(_t(lang, f"Alle neun oben: +{S2.ALL_UP_BONUS} Punkte, und der Zug ist vorbei.",
                   f"All nine up: +{S2.ALL_UP_BONUS} points, and the turn ends."))
    turn.append(_end_sentence(game, lang))
    return {"title": game.name[lang],
            "goal": _t(lang, f"Möglichst wenige Minuspunkte: Schiebe in deinem Zug möglichst viele der Schieber "
                             f"1–9 hoch. Was unten bleibt, zählt minus; alle neun oben bringen {S2.ALL_UP_BONUS} "
                             "Pluspunkte.",
                       "As few minus points as possible: push as many of the slides 1–9 up as you can in your "
                       f"turn. What stays down counts against you; all nine up bring {S2.ALL_UP_BONUS} plus "
                       "points."),
            "turn": turn}


def _end_sentence(game, lang: str) -> str:
    r = game.options["rounds"]
    rounds = _t(lang, f"{r} Runde" if r == 1 else f"{r} Runden", f"{r} round" if r == 1 else f"{r} rounds")
    if game.num_players == 1:
        return _t(lang, f"Jede Runde ist ein Zug; nach {rounds} zählt deine Summe.",
                  f"Each round is one turn; after {rounds} your total counts.")
    return _t(lang, f"Jede Runde hat jeder einen Zug; nach {rounds} gewinnt, wer die meisten Punkte hat.",
              f"Each round everyone has one turn; after {rounds} the highest total wins.")


def _assign_examples(throw, lang: str) -> str:
    """The engine's ways to set every die of ``throw`` with all slides free: "1, 2 und 4; oder 1 und 6 (2+4); …"."""
    every = S1.assignments(tuple(throw), S1.ALL_SLIDES)
    out = []
    for a in every:
        if a.keep != len(throw):
            continue
        nums = [str(v) for v in a.pushed]
        slides = ", ".join(nums[:-1]) + _t(lang, " und ", " and ") + nums[-1] if len(nums) > 1 else nums[0]
        how = ", ".join(p.split("→")[0] for p in a.how.split(", ")) if a.how else ""
        out.append(f"{slides} ({how})" if how else slides)
    return _t(lang, "; oder ", "; or ").join(out)


def how_to_1(game, lang: str) -> dict:
    """Spiel 1's How-to box for the options in force (``rounds``, ``must_assign_max``) and its table."""
    turn = []
    if game.num_players > 1:
        turn.append(_t(lang, "Anfangswurf: Jeder würfelt einmal mit drei Würfeln; die höchste Summe beginnt "
                             "(bei Gleichstand würfeln nur diese Spieler noch einmal).",
                       "Start throw: everyone throws three dice once; the highest sum begins (on a tie only "
                       "those players throw again)."))
    turn.append(_t(lang, f"Würfle mit allen Würfeln, die noch im Spiel sind (zu Beginn des Zuges alle {S1.NUM_DICE}).",
                   f"Throw all dice still in play (all {S1.NUM_DICE} at the start of a turn)."))
    turn.append(_t(
        lang,
        "Setze den Wurf: Ein Würfel allein oder mehrere zusammengezählt schieben den Schieber mit dieser Zahl "
        "(1–6) hoch, wenn er noch unten ist – jeden Schieber nur einmal. Beispiel: 1, 2, 4 → "
        f"{_assign_examples((1, 2, 4), lang)}.",
        "Set the throw: one die alone or several added together push up the slide with that number (1–6) if it "
        f"is still down – each slide once. Example: 1, 2, 4 → {_assign_examples((1, 2, 4), lang)}."))
    six = _t(lang, "außer einer gewürfelten 6 (allein, nicht zusammengezählt): Sie bleibt im Spiel, auch wenn du "
                   "sie nicht schiebst – später können 1+5, 2+4 oder 3+3 die 6 schieben.",
             "except a 6 thrown (on its own, not added): it stays in play even if you do not push it – later "
             "1+5, 2+4 or 3+3 can push slide 6.")
    if game.options["must_assign_max"]:
        turn.append(_t(lang, "Gesetzte Würfel bleiben im Spiel. Setze so, dass möglichst viele Würfel im Spiel "
                             "bleiben (Regel-Option); ein Würfel, der nicht gesetzt wird, scheidet aus – ",
                       "Dice set stay in play. Set so that as many dice as possible stay in play (rule option); a "
                       "die not set drops out – ") + six)
    else:
        turn.append(_t(lang, "Gesetzte Würfel bleiben im Spiel. Du musst nicht jeden Würfel setzen, aber ein "
                             "Würfel, den du nicht setzt, scheidet für diesen Zug aus – ",
                       "Dice set stay in play. You need not set every die, but a die you do not set drops out "
                       "for this turn – ") + six)
    turn.append(_t(lang, "Bleibt nach einem Wurf kein Würfel im Spiel (keiner lässt sich setzen, keine 6 dabei), "
                         "ist alles verloren: 0 Punkte für diesen Zug.",
                   "If no die stays in play after a throw (none can be set, no 6 among them), everything is "
                   "lost: 0 points for this turn."))
    turn.append(_t(lang, "Dann: aufhören und den Wert der Kombination aufschreiben (ohne Kombination 0), "
                         "weiterwürfeln – oder, wenn die Schieber oben eine Kombination ergeben, in die Joker gehen "
                         "(die Joker hochschieben).",
                   "Then: stop and write the combination's value (none: 0), throw again – or, if the slides up "
                   "form a combination, go into the jokers (push the jokers up)."))
    loose = [_t(lang, f"„{r.name[lang]}“", f"“{r.name[lang]}”") for r in S1.ROWS if not r.exact]
    turn.append(_t(lang, "Kombinationen (Tabelle): Die Schieber oben müssen genau stimmen"
                   + (f"; nur bei {' und '.join(loose)} dürfen weitere oben sein." if loose else "."),
                   "Combinations (table): the slides up must match exactly"
                   + (f"; only {' and '.join(loose)} allow more slides up." if loose else ".")))
    turn.append(_t(lang, "In den Jokern steht die Kombination fest, und der erste Joker-Wurf ist Pflicht. Jede "
                         "gewürfelte 1 schiebt einen Joker nach unten und verdoppelt den Wert; dann aufhören oder mit "
                         "allen Würfeln weiter.",
                   "In the jokers the combination is fixed and the first joker throw is a must. Every 1 thrown "
                   "pushes a joker down and doubles the value; then stop or go on with all dice."))
    full = 2 ** S1.NUM_JOKERS
    turn.append(_t(lang, "Keine 1, aber eine 6: aufhören oder nur noch mit diesem einen Würfel weiter. Weder 1 noch "
                         f"6: alles verloren (0). Alle drei Joker unten: Wert × {full}, der Zug ist vorbei.",
                   "No 1 but a 6: stop or go on with that one die only. Neither a 1 nor a 6: everything is lost "
                   f"(0). All three jokers down: value × {full}, the turn ends."))
    turn.append(_end_sentence(game, lang))
    return {"title": game.name[lang],
            "goal": _t(lang, "Möglichst viele Punkte: Schiebe die Schieber 1–6 so hoch, dass sie eine Kombination "
                             "der Tabelle ergeben, und hör rechtzeitig auf – mit den Jokern verdoppelt sich ihr Wert.",
                       "As many points as possible: push the slides 1–6 up until they form a combination of the "
                       "table, and stop in time – the jokers double its value."),
            "turn": turn}


class WuerfelJokerView(View):
    """Both games: the Tableau with its slides (Spiel 2: click a slide to push it; Spiel 1: click
    slides to choose them, then confirm a setting; click the jokers to go into them), the dice, one
    button per legal decision, the score pad (Spiel 1: the combination table too)."""

    human_throws = True
    bot_delay = 0.6
    default_bot = "optimal"
    bot_names = {"optimal_all_up": {"de": "optimal auf alle 9", "en": "optimal for all 9"}}

    #: every pair drawn: numerals on the slides (down, up, slide 5 up, a joker up), the knob's light
    #: outline on its dark slot and a raised joker on it (a slide's state is its position), the
    #: dashed edge of a chosen slide, the badge
    colours = (
        (INK, KNOB_DOWN, "text"), ("#fff", SLIDE_ACCENT, "text"), ("#fff", FIVE_ACCENT, "text"),
        (INK, JOKER_ACCENT, "text"), (KNOB_DOWN, FRAME, "marker"), (JOKER_ACCENT, FRAME, "marker"),
        (KNOB_DOWN, SLIDE_ACCENT, "marker"), (KNOB_DOWN, FIVE_ACCENT, "marker"), (SLIDE_ACCENT, KNOB_DOWN, "marker"),
        ("#fff", BADGE, "text"),
    )

    def how_to(self, game, lang):
        return how_to_2(game, lang) if game.id == GAME2 else how_to_1(game, lang)

    def reconstructed(self, game) -> bool:
        return game.id == GAME1  # Spiel 1's table of combinations

    # --- the picture and the buttons ---------------------------------------------------------
    def board(self, ctx) -> str:
        gid, obs = ctx.game.id, ctx.observation
        slides = slide_pictures(gid, obs, ctx.lang)
        if gid == GAME2 and ctx.legal:
            # the viewer's decision: every slide is a button; one the dice push says how, any
            # other click gets the engine's reason (already up, the dice do not make it)
            pushes = {a.value: i for i, a in enumerate(ctx.legal) if isinstance(a, S2.Push)}
            for v, s in enumerate(slides, 1):
                s["act"] = f"s{v}"
                if v in pushes:
                    how = _how2(obs["dice"], obs["mask"], v, ctx.game.options["five_ops"], ctx.lang)
                    s["name"] += ctx.t(f" – hochschieben ({how})", f" – push it up ({how})")
        elif gid == GAME1 and obs["phase"] == S1.ASSIGN and ctx.legal:
            # setting the throw: pick the slides to push on the board, then confirm with a button
            pick = set(ctx.ui.get("pick", ()))
            open_ = self._pickable(ctx)
            for v, s in enumerate(slides[:6], 1):
                s["act"] = f"s{v}"
                if v in pick:
                    s["chosen"] = True
                    s["name"] += ctx.t(" – gewählt", " – chosen")
                elif v in open_:
                    s["name"] += ctx.t(" – wählbar", " – can be chosen")
        elif gid == GAME1 and S1.JOKERS in ctx.legal:
            # as on the device: going into the jokers is pushing all three up (each joker does it)
            for s in slides[6:]:
                s["act"] = f"a{ctx.legal.index(S1.JOKERS)}"
                s["name"] += ctx.t(f" – alle drei hochschieben: in die Joker gehen (Basis {obs['base']})",
                                   f" – push all three up: go into the jokers (base {obs['base']})")
        values, muted = dice_picture(gid, obs)
        shown = [v for v in values if v]
        if gid == GAME2:
            pasch = ctx.t(" · Pasch", " · doubles") if shown and shown[0] == shown[1] else ""
            cap = f"{shown[0]} + {shown[1]}{pasch}" if shown else ""
        else:
            parts = [" ".join(map(str, shown))] if shown else []
            if obs["phase"] not in (S1.OVER, "start"):
                n = obs["dice_in_play"]
                parts.append(ctx.t(f"{n} Würfel im Spiel", f"{n} {'die' if n == 1 else 'dice'} in play"))
            if obs["in_jokers"]:
                parts.append(ctx.t(f"Joker: {obs['jokers']}/3 gewürfelt", f"jokers: {obs['jokers']}/3 thrown"))
            cap = " · ".join(parts)
        return (f"<div style='display:flex;flex-wrap:wrap;align-items:flex-end;gap:18px'>"
                f"{tableau(slides, tableau_name(gid, obs, ctx.lang))}"
                f"<div style='display:flex;flex-wrap:wrap;align-items:center;gap:10px'>"
                f"{dice_row(values, size=56, muted=muted, lang=ctx.lang)}"
                f"<span style='font-size:1.2em'>{escape(cap)}</span></div></div>")

    @staticmethod
    def _pickable(ctx) -> set:
        """Spiel 1: the slides one more pick may add (some legal setting pushes them with the pick)."""
        pick = set(ctx.ui.get("pick", ()))
        return {v for a in ctx.legal if isinstance(a, S1.Assign) and pick <= set(a.pushed)
                for v in a.pushed} - pick

    def _pick(self, ctx, v: int):
        """Spiel 1: a click on slide ``v`` while setting a throw chooses it or drops it again; a slide
        already up, or one no setting of this throw pushes together with the pick, gets the engine's
        reason."""
        obs = ctx.observation
        if v in obs["pushed"]:
            ctx.refuse(S1.Assign((v,), 1))
        pick = set(ctx.ui.get("pick", ()))
        if v in pick:
            pick.discard(v)
        elif v in self._pickable(ctx):
            pick.add(v)
        else:
            ctx.refuse(S1.Assign(tuple(sorted(pick | {v})), len(obs["throw"])))
        if not pick:
            ctx.ui.pop("pick", None)
            return {"de": "Auswahl aufgehoben.", "en": "Choice cleared."}
        ctx.ui["pick"] = sorted(pick)  # a new list: the advisor probes a shallow copy of ui
        chosen = ", ".join(map(str, sorted(pick)))
        return {"de": f"Gewählt: {chosen} – jetzt mit einem Knopf bestätigen (oder weitere Schieber wählen).",
                "en": f"Chosen: {chosen} – now confirm with a button (or choose more slides)."}

    def click(self, ctx, token: str):
        if (ctx.game.id == GAME1 and ctx.observation["phase"] == S1.ASSIGN and token[:1] == "s"
                and token[1:].isdigit() and 1 <= int(token[1:]) <= 6):
            return self._pick(ctx, int(token[1:]))
        if ctx.game.id == GAME2 and token[:1] == "s" and token[1:].isdigit() and 1 <= int(token[1:]) <= 9:
            push = S2.PUSH[int(token[1:])]
            if push in ctx.legal:
                return push
            ctx.refuse(push)
        return super().click(ctx, token)

    def throw_label(self, ctx) -> str:
        obs = ctx.observation
        if obs["phase"] == "start":
            return ctx.t("Anfangswurf", "Start throw")
        if ctx.game.id == GAME2:
            return ctx.t("Würfeln", "Throw")
        n = obs["dice_in_play"]
        if obs["phase"] == S1.JOKER_THROW:
            return ctx.t(f"Joker-Wurf ({n} Würfel)", f"Joker throw ({n} dice)")
        return ctx.t(f"Würfeln ({n} Würfel)", f"Throw ({n} dice)")

    def buttons(self, ctx) -> list[dict]:
        out = [{"token": f"a{i}", "label": self.option_label(ctx, a)} for i, a in enumerate(ctx.legal)]
        pick = set(ctx.ui.get("pick", ()))
        if ctx.game.id != GAME1 or not pick:
            return out
        # slides picked on the board: only the settings that push them, the exact ones first, and
        # the focus on the first of those (the "confirm" of the preview)
        ways = [(set(a.pushed) != pick, b) for a, b in zip(ctx.legal, out)
                if isinstance(a, S1.Assign) and pick <= set(a.pushed)]
        ways.sort(key=lambda w: w[0])
        if ways and not ways[0][0]:
            ways[0] = (False, {**ways[0][1], "focus": True})
        return [b for _, b in ways]

    def option_label(self, ctx, a) -> str:
        obs, opts = ctx.observation, ctx.game.options
        if ctx.game.id == GAME2:
            if isinstance(a, S2.Push):
                how = _how2(obs["dice"], obs["mask"], a.value, opts["five_ops"], ctx.lang)
                return ctx.t("schiebe ", "push ") + (f"{a.value} ({how})" if how != str(a.value) else str(a.value))
            if a == S2.STOP:
                return ctx.t("Aufhören", "Stop") + f" ({signed(S2.stop_points(obs['mask'], opts['x5_on_stop']))})"
            if a == S2.ACCEPT:
                pts = signed(S2.bust_points(obs["mask"], *obs["dice"]))
                return ctx.t(f"Pasch annehmen ({pts})", f"Accept the doubles ({pts})")
            if a == S2.DECLINE:
                return ctx.t("Pasch verzichten, neu würfeln", "Decline the doubles, throw again")
            return ctx.t("Weiterwürfeln", "Throw again")
        if isinstance(a, S1.Assign):
            return self._assign_label(ctx, a)
        if a == S1.STOP:
            return ctx.t("Aufhören", "Stop") + f" ({obs['stop_value']})"
        if a == S1.JOKERS:
            return ctx.t(f"In die Joker (Basis {obs['base']})", f"Into the jokers (base {obs['base']})")
        n = obs["dice_in_play"]
        if obs["phase"] == S1.JOKER_DECIDE:
            return ctx.t(f"Joker-Wurf ({n} Würfel)", f"Joker throw ({n} dice)")
        return ctx.t(f"Weiterwürfeln ({n} Würfel)", f"Throw again ({n} dice)")

    def _assign_label(self, ctx, a) -> str:
        """``schiebe 1 und 6 (2+4→6)``: what an assignment pushes, how, and which dice stay."""
        nums = list(map(str, a.pushed))
        pushed = ", ".join(nums[:-1]) + ctx.t(" und ", " and ") + nums[-1] if len(nums) > 1 else "".join(nums)
        what = ctx.t(f"schiebe {pushed}", f"push {pushed}") if a.pushed else ctx.t("nichts schieben", "push nothing")
        parts = []
        for part in (a.how.split(", ") if a.how else []):
            if "stay" in part:
                n = part.split("×")[0] if "×" in part else "1"
                parts.append(ctx.t("6 bleibt", "6 stays") if n == "1" else ctx.t(f"{n}×6 bleiben", f"{n}×6 stay"))
            else:
                parts.append(part)
        out = len(ctx.observation["throw"] or ()) - a.keep
        if out > 0:
            parts.append(ctx.t(f"{out} Würfel {'scheidet' if out == 1 else 'scheiden'} aus",
                               f"{out} {'die' if out == 1 else 'dice'} out"))
        return what + (f" ({', '.join(parts)})" if parts else "")

    # --- words -------------------------------------------------------------------------------
    def status(self, ctx, whose_turn) -> str:
        obs = ctx.observation
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        if obs["phase"] == "start":
            return ctx.t(f"Anfangswurf: die höchste Summe beginnt · wirft: {who}",
                         f"Start throw: the highest sum begins · throwing: {who}")
        return ctx.t(f"Runde {obs['round']} von {obs['rounds']} · am Zug: {who}",
                     f"Round {obs['round']} of {obs['rounds']} · to play: {who}")

    def explain(self, before, action, after) -> str:
        b, a = before.observation, after.observation
        ended = None
        if a["last_turn"] is not None and a["last_turn"] != b["last_turn"]:
            ended = a["last_turn"]["score"]
        if b["phase"] == "start":
            return self._explain_start(after, action, b, a)
        if after.game.id == GAME2:
            return self._explain2(before, after, action, ended)
        return self._explain1(after, action, b, a, ended)

    def _explain_start(self, ctx, action, b, a) -> str:
        dice = action.values if isinstance(action, S1.StartDice) else (action.a, action.b)
        text = ctx.t(f"Anfangswurf {'+'.join(map(str, dice))} = {sum(dice)}.",
                     f"Start throw {'+'.join(map(str, dice))} = {sum(dice)}.")
        if a["starter"] is not None:
            if ctx.human_seats and a["starter"] == ctx.human_seats[0]:
                return text + ctx.t(" Du beginnst.", " You begin.")
            who = ctx.names[a["starter"]]
            return text + ctx.t(f" {who} beginnt.", f" {who} begins.")
        if len(b["start_throwers"]) == 1:  # the last throw of a start round, and still no starter
            last = a["start_throws"][-1]["round"]
            top = max(t["sum"] for t in a["start_throws"] if t["round"] == last)
            who = ctx.t(" und ", " and ").join(ctx.names[p] for p in a["start_throwers"])
            return text + ctx.t(f" Gleichstand bei {top}: {who} werfen noch einmal.",
                                f" A tie at {top}: {who} throw again.")
        return text

    def _explain2(self, before, ctx, action, ended) -> str:
        b, a = before.observation, ctx.observation
        m, opts = b["mask"], ctx.game.options
        if isinstance(action, S2.Throw):
            x, y = action.a, action.b
            if ended is not None:
                _, calc = S2.bust_formula(m, x, y)
                return ctx.t(f"Wurf {x}+{y}: nichts schiebbar! Minus = {calc} = {signed(ended)}.",
                             f"Throw {x}+{y}: nothing to push! Minus = {calc} = {signed(ended)}.")
            if a["phase"] == S2.DOUBLES_BUST:
                return ctx.t(f"Pasch {x}+{y}: nichts schiebbar – neu würfeln oder annehmen.",
                             f"Doubles {x}+{y}: nothing to push – throw again or accept.")
            ways = [f"{v} ({min((_expr(h, ctx.lang) for h in hows), key=len)})"
                    for v, hows in S2.ways(x, y, m, opts["five_ops"]).items()]
            text = ctx.t(f"Wurf {x}+{y}: schiebbar {', '.join(ways)}.", f"Throw {x}+{y}: can push {', '.join(ways)}.")
            if x == y:
                text += ctx.t(" Pasch – verzichten ist erlaubt.", " Doubles – declining is allowed.")
            return text
        if isinstance(action, S2.Push):
            how = _how2(b["dice"], m, action.value, opts["five_ops"], ctx.lang)
            if ended is not None:
                return ctx.t(f"Schieber {action.value} hoch ({how}) – alle neun oben: +45!",
                             f"Slide {action.value} up ({how}) – all nine up: +45!")
            down = f"{S2.down_text(a['mask'])} = {S2.SUM_DOWN[a['mask']]}"
            return ctx.t(f"Schieber {action.value} hoch ({how}). Unten noch: {down}.",
                         f"Slide {action.value} up ({how}). Still down: {down}.")
        pts = signed(ended or 0)
        if action == S2.STOP:
            _, calc = S2.stop_formula(m, opts["x5_on_stop"])
            return ctx.t(f"Aufgehört: Minus = {calc} = {pts}.", f"Stopped: minus = {calc} = {pts}.")
        if action == S2.ACCEPT:
            _, calc = S2.bust_formula(m, *b["dice"])
            return ctx.t(f"Pasch angenommen: Minus = {calc} = {pts}.", f"Doubles accepted: minus = {calc} = {pts}.")
        if action == S2.DECLINE:
            return ctx.t("Auf den Pasch verzichtet.", "Doubles declined.")
        return ctx.t("Weiterwürfeln.", "Throwing again.")

    def _explain1(self, ctx, action, b, a, ended) -> str:
        dice = " ".join(map(str, getattr(action, "values", ())))
        row = (lambda rid: S1.ROW_BY_ID[rid].name[ctx.lang])
        if isinstance(action, S1.Dice):
            if b["phase"] == S1.THROW:
                if ended is not None:
                    return ctx.t(f"Wurf {dice}: kein Würfel setzbar – alles verloren (0).",
                                 f"Throw {dice}: no die can be set – everything is lost (0).")
                return ctx.t(f"Wurf {dice}: welche Schieber?", f"Throw {dice}: which slides?")
            k = action.values.count(1)
            if ended is not None and ended == 0:
                return ctx.t(f"Joker-Wurf {dice}: weder 1 noch 6 – alles verloren (0).",
                             f"Joker throw {dice}: neither a 1 nor a 6 – everything is lost (0).")
            if ended is not None:
                base = S1.ROW_BY_ID[b["row"]].points[0]
                return ctx.t(f"Joker-Wurf {dice}: alle drei Joker! {base} × 8 = {ended}.",
                             f"Joker throw {dice}: all three jokers! {base} × 8 = {ended}.")
            if k:
                return ctx.t(f"Joker-Wurf {dice}: {k}× die 1 → Joker {a['jokers']}/3, Wert jetzt {a['stop_value']}.",
                             f"Joker throw {dice}: {k}× a 1 → jokers {a['jokers']}/3, now worth {a['stop_value']}.")
            return ctx.t(f"Joker-Wurf {dice}: keine 1, aber eine 6 – aufhören ({a['stop_value']}) oder mit einem "
                         "Würfel weiter.", f"Joker throw {dice}: no 1 but a 6 – stop ({a['stop_value']}) or go on "
                         "with one die.")
        if isinstance(action, S1.Assign):
            before_ctx = ctx.replace(observation=b)
            n = action.keep
            text = (self._assign_label(before_ctx, action) + "; "
                    + ctx.t(f"{n} Würfel im Spiel.", f"{n} {'die' if n == 1 else 'dice'} in play."))
            if a["row"] is not None:
                text += ctx.t(f" Kombination: {row(a['row'])} = {a['stop_value']}.",
                              f" Combination: {row(a['row'])} = {a['stop_value']}.")
            return text
        pts = ended if ended is not None else 0
        if action == S1.STOP:
            if b["phase"] == S1.JOKER_DECIDE:
                return ctx.t(f"Aufgehört in den Jokern: {row(b['row'])} mit {b['jokers']} Joker = {pts} Punkte.",
                             f"Stopped in the jokers: {row(b['row'])} with {b['jokers']} jokers = {pts} points.")
            if b["row"] is None:
                return ctx.t("Aufgehört ohne Kombination: 0 Punkte.", "Stopped without a combination: 0 points.")
            return ctx.t(f"Aufgehört: {row(b['row'])} = {pts} Punkte.", f"Stopped: {row(b['row'])} = {pts} points.")
        if action == S1.JOKERS:
            return ctx.t(f"In die Joker mit {row(a['row'])} (Basis {a['base']}) – kein Zurück!",
                         f"Into the jokers with {row(a['row'])} (base {a['base']}) – no way back!")
        return ctx.t("Weiterwürfeln.", "Throwing again.")

    # --- tables ------------------------------------------------------------------------------
    def scores(self, ctx, totals) -> dict:
        obs = ctx.observation
        sheet = obs["sheet"]
        n = len(sheet)
        def pts(x):
            return str(x).replace("-", "−")

        rows = [[r + 1] + [pts(sheet[p][r]) if r < len(sheet[p]) else "" for p in range(n)] for r in range(obs["rounds"])]
        rows.append([ctx.t("Summe", "Total")] + [pts(x) for x in obs["totals"]])
        over = obs["phase"] == "over"
        return {"title": ctx.t("Spielblock", "Score pad"), "headers": [ctx.t("Runde", "Round"), *ctx.names],
                "rows": rows, "highlight": None if over or obs["phase"] == "start" else obs["round"] - 1}

    def extra(self, ctx) -> str:
        if ctx.game.id != GAME1:
            return ""
        obs = ctx.observation
        head = [ctx.t("Kombination", "Combination"), ctx.t("Schieber", "Slides")] + [f"{j} J" for j in range(4)]
        th = "".join(f"<th>{escape(h)}</th>" for h in head)
        trs = []
        for r in S1.ROWS:
            kind = ctx.t("genau", "exactly") if r.exact else ctx.t("mind.", "at least")
            hl = " class='sp-hl'" if obs["phase"] != S1.OVER and r.id == obs["row"] else ""
            cells = [r.name[ctx.lang], f"{kind} {'+'.join(map(str, r.slides))}", *r.points]
            trs.append(f"<tr{hl}>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
        return (f"<b>{ctx.t('Tabelle', 'Table')}</b> {badge(ctx.t('Rekonstruktion', 'reconstruction'), '#8e44ad')}"
                f"<table class='sp-scores sp-combos' style='font-size:.8em'><tr>{th}</tr>{''.join(trs)}</table>")

    def advice_columns(self, game) -> list[dict]:
        points = {"kind": "points", "title": {"de": "Erwartete Punkte dieses Zuges", "en": "expected points this turn"},
                  "unit": {"de": "Punkte", "en": "points"}}
        if game.id == GAME1:
            return [{**points, "settings": {}}]
        return [{**points, "settings": {"objective": "expected"}},
                {"settings": {"objective": "all_up"}, "kind": "probability",
                 "title": {"de": "Chance auf alle 9", "en": "chance of all 9"}, "unit": {"de": "", "en": ""}}]
