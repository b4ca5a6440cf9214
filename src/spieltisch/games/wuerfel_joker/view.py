"""The Würfel Joker view (both games): the Tableau and the dice as SVG text (standard library only),
and ``WuerfelJokerView``, the shared front-end's view of an observation.

``board_svg(game_id, observation)`` draws a position from an observation alone (both games);
``slide_pictures`` and ``dice_picture`` are its parts. The pieces (``die``, ``dice_row``, ``slide``,
``slides_row``, ``badge``) draw plain values. Every sentence the view says comes from what the
engine says (its formulas, its ways to push), never from a rule restated here.
"""

from __future__ import annotations

from html import escape

from ...core.view import View, die, dice_row, signed  # noqa: F401  (die, dice_row: the notebooks' pictures)
from .spiel1 import engine as S1
from .spiel2 import engine as S2


def slide(label: str, up: bool, width: int = 40, height: int = 90, accent: str = "#c0392b",
          x: float = 0, title: str = "") -> str:
    """A two-position slide (Schieber): up = pushed, drawn raised and coloured."""
    y = 4 if up else height * 0.42
    knob_h = height * 0.54
    fill = accent if up else "#f4f1e8"
    text = "#fff" if up else "#333"
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<g transform="translate({x},0)">{t}'
            f'<rect x="2" y="2" width="{width - 4}" height="{height - 4}" rx="6" fill="#5b4636"/>'
            f'<rect x="6" y="{y}" width="{width - 12}" height="{knob_h}" rx="5" fill="{fill}" '
            f'stroke="#222" stroke-width="1.5"/>'
            f'<text x="{width / 2}" y="{y + knob_h / 2 + 6}" font-size="18" font-family="sans-serif" '
            f'font-weight="bold" text-anchor="middle" fill="{text}">{escape(label)}</text></g>')


def slides_row(labels, up_flags, width: int = 40, height: int = 90, accents=None, titles=None, acts=None) -> str:
    """The slides side by side; ``acts``: index -> the front-end token a click on that slide sends."""
    labels = list(labels)
    total = len(labels) * (width + 4)
    body = "".join(
        # a slide to push: the whole slot (the slide and its gap) takes the tap, at least 44 px wide
        (f'<g data-act="{acts[i]}" class="sp-slide-act"><rect x="{i * (width + 4)}" y="0" width="{width + 4}" '
         f'height="{height}" fill="transparent"/>' if acts and i in acts else "<g>")
        + slide(str(lab), bool(up), width, height, (accents or {}).get(i, "#c0392b"), i * (width + 4),
                (titles or {}).get(i, "")) + "</g>"
        for i, (lab, up) in enumerate(zip(labels, up_flags))
    )
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height}" '
            f'viewBox="0 0 {total} {height}">{body}</svg>')


def badge(text: str, colour: str = "#2c3e50") -> str:
    return (f'<span style="display:inline-block;padding:2px 8px;border-radius:10px;background:{colour};'
            f'color:#fff;font-size:12px">{escape(text)}</span>')


# --- from observations ---------------------------------------------------------------------------
GAME1, GAME2 = "wuerfel-joker-1", "wuerfel-joker-2"
SLIDE_ACCENT = "#c0392b"
FIVE_ACCENT = "#27ae60"  # Spiel 2: slide 5 plays a special part
JOKER_ACCENT = "#d4a017"
NUM_DICE = {GAME1: 3, GAME2: 2}
_JOKER_TITLE = {"de": "Joker (oben = in den Jokern; jede 1 schiebt einen nach unten)",
                "en": "joker (up = in the jokers; every 1 pushes one down)"}


def slide_pictures(game_id: str, observation: dict, lang: str = "de") -> list[dict]:
    """Every slide of the Tableau as the observation shows it: ``label``, ``up``, ``accent``,
    ``title``. Spiel 1: slides 1-6, then the three jokers (as on the device: going into the jokers
    pushes all three up, each 1 thrown pushes one back down); Spiel 2: slides 1-9."""
    if game_id == GAME2:
        up = set(observation["up"])
        return [{"label": str(v), "up": v in up, "accent": FIVE_ACCENT if v == 5 else SLIDE_ACCENT, "title": ""}
                for v in range(1, 10)]
    if game_id != GAME1:
        raise ValueError(f"not a Würfel Joker game: {game_id!r}")
    up = set(observation["pushed"])
    out = [{"label": str(v), "up": v in up, "accent": SLIDE_ACCENT, "title": ""} for v in range(1, 7)]
    title = _JOKER_TITLE["de" if lang == "de" else "en"]
    for i in range(3):
        out.append({"label": "J", "up": observation["in_jokers"] and i >= observation["jokers"],
                    "accent": JOKER_ACCENT, "title": title})
    return out


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


def board_svg(game_id: str, observation: dict, lang: str = "de", size: int = 48, acts=None,
              width: int = 34, height: int = 76) -> str:
    """The Tableau and the dice of ``observation`` side by side (HTML holding two SVGs)."""
    slides = slide_pictures(game_id, observation, lang)
    row = slides_row([s["label"] for s in slides], [s["up"] for s in slides], width=width, height=height,
                     accents={i: s["accent"] for i, s in enumerate(slides)},
                     titles={i: s["title"] for i, s in enumerate(slides) if s["title"]}, acts=acts)
    values, muted = dice_picture(game_id, observation)
    return (f"<div style='display:flex;align-items:flex-end;gap:18px;flex-wrap:wrap'>{row}"
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


HOWTO = {
    GAME2: {
        "de": {"title": "Würfel Joker – Spiel 2", "goal": "Möglichst wenige Minuspunkte: Am Ende zählen die Zahlen der "
               "Schieber, die noch unten sind. Wer alle neun hochschiebt, bekommt 45 Pluspunkte.",
               "turn": ["Würfle mit zwei Würfeln.", "Schiebe einen Schieber hoch, den die Würfel zeigen: eine "
                        "Augenzahl, die Summe oder (Schieber 5 oben) mehr Rechnungen.",
                        "Dann aufhören oder weiterwürfeln. Passt kein Schieber, ist der Zug vorbei und kostet "
                        "Minuspunkte.", "Nach allen Runden gewinnt, wer die meisten Punkte hat."]},
        "en": {"title": "Würfel Joker – Game 2", "goal": "As few minus points as possible: at the end the numbers of "
               "the slides still down count against you. Push all nine up and you get 45 plus points.",
               "turn": ["Throw two dice.", "Push up one slide the dice show: a number, the sum or (slide 5 up) "
                        "more sums.", "Then stop or throw again. If no slide fits, the turn ends and costs "
                        "minus points.", "After all rounds the highest score wins."]}},
    GAME1: {
        "de": {"title": "Würfel Joker – Spiel 1", "goal": "Möglichst viele Punkte: Schiebe Zahlen so hoch, dass sie eine "
               "Kombination der Tabelle ergeben – mit Jokern wird sie mehr wert.",
               "turn": ["Würfle mit drei Würfeln.", "Setze Würfel auf Schieber (1–6), die noch unten sind; nicht "
                        "gesetzte Würfel scheiden aus.", "Aufhören (die Kombination zählt), weiterwürfeln oder in "
                        "die Joker gehen.", "Passt kein Würfel, ist alles verloren."]},
        "en": {"title": "Würfel Joker – Game 1", "goal": "As many points as possible: push numbers up until they form "
               "a combination of the table – jokers make it worth more.",
               "turn": ["Throw three dice.", "Put dice on slides (1–6) still down; dice not placed drop out.",
                        "Stop (the combination scores), throw again or go into the jokers.",
                        "If no die fits, everything is lost."]}},
}


class WuerfelJokerView(View):
    """Both games: the Tableau with its slides (Spiel 2: click a slide to push it), the dice, one
    button per legal decision, the score pad (Spiel 1: the combination table too)."""

    human_throws = True
    bot_delay = 0.6
    default_bot = "optimal"
    bot_names = {"optimal_all_up": {"de": "optimal auf alle 9", "en": "optimal for all 9"}}

    def how_to(self, game, lang):
        return HOWTO[game.id][lang]

    def reconstructed(self, game) -> bool:
        return game.id == GAME1  # Spiel 1's table of combinations

    # --- the picture and the buttons ---------------------------------------------------------
    def board(self, ctx) -> str:
        gid, obs = ctx.game.id, ctx.observation
        acts = None
        if gid == GAME2:
            acts = {a.value - 1: f"a{i}" for i, a in enumerate(ctx.legal) if isinstance(a, S2.Push)}
        values, muted = dice_picture(gid, obs)
        shown = [v for v in values if v]
        slides = slide_pictures(gid, obs, ctx.lang)
        row = slides_row([s["label"] for s in slides], [s["up"] for s in slides], width=44, height=96,
                         accents={i: s["accent"] for i, s in enumerate(slides)},
                         titles={i: s["title"] for i, s in enumerate(slides) if s["title"]}, acts=acts)
        if gid == GAME2:
            pasch = ctx.t(" · Pasch", " · doubles") if shown and shown[0] == shown[1] else ""
            cap = f"{shown[0]} + {shown[1]}{pasch}" if shown else ""
        else:
            cap = " ".join(map(str, shown))
            if obs["phase"] not in (S1.OVER, "start"):
                n = obs["dice_in_play"]
                cap += " · " + ctx.t(f"{n} Würfel im Spiel", f"{n} {'die' if n == 1 else 'dice'} in play")
            if obs["in_jokers"]:
                cap += " · " + ctx.t(f"Joker: {obs['jokers']}/3 gewürfelt", f"jokers: {obs['jokers']}/3 thrown")
        return (f"<div style='display:flex;flex-wrap:wrap;align-items:flex-end;gap:18px'>{row}"
                f"<div style='display:flex;align-items:center;gap:10px'>{dice_row(values, size=56, muted=muted, lang=ctx.lang)}"
                f"<span style='font-size:1.2em'>{escape(cap)}</span></div></div>")

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
        return [{"token": f"a{i}", "label": self.option_label(ctx, a)} for i, a in enumerate(ctx.legal)]

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
        pushed = ctx.t(" und ", " and ").join(map(str, a.pushed))
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
