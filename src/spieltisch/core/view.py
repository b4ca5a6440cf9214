"""The contract between a game's view and the shared front-end (``spieltisch.ui.table``).

A game's view (``games/<family>/view.py``, registered as ``view="module:Class"``) draws one viewer's
observation and turns clicks into legal actions; the front-end does everything else (seats, seed,
language, new game, bot pacing, score table, advisor, refusals, log, end banner, review) the same
way for every game. The view decides no rule: it reads the observation and the legal actions the
engine lists, and asks the engine (``State.why_illegal``) why a click is refused.

Everything here is standard library only, so the view runs wherever the engine runs (CPython,
Pyodide in a notebook or in a Play page's worker, a Panel server).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalActionError

LANGS = ("de", "en")


@dataclass
class Context:
    """What a view may look at to draw one screen: the viewer's observation and legal actions,
    never the state."""

    game: Any  # the configured Game (its options and facts, no position)
    observation: dict  # the viewer's observation (the spectator's when nobody human is at the table)
    viewer: int | None  # the seat whose screen this is (None = spectator / projector)
    lang: str  # "de" or "en"
    legal: list  # the viewer's legal actions now; empty when it is not their decision
    names: list  # every seat's display name in ``lang``
    ui: dict = field(default_factory=dict)  # the view's click memory (a chosen first field); new game = {}
    human_seats: tuple = ()
    refusal: Callable | None = None  # the engine's reason a move is refused (State.refusal), for clicks
    projector: bool = False  # the projector mode is on: a view may draw larger or summarise opponents' boards

    def refuse(self, action):
        """Raise the engine's ``IllegalActionError`` for ``action`` (a click that makes no legal move)."""
        err = self.refusal(action) if self.refusal else None
        raise err or IllegalActionError("turn order", "that is not one of your moves now",
                                        "das ist gerade keiner deiner Züge", "Reihenfolge")

    def t(self, de: str, en: str) -> str:
        return de if self.lang == "de" else en

    def replace(self, **changes) -> "Context":
        """A copy with ``changes`` (another language, an earlier observation, a copy of ``ui``)."""
        return dataclasses.replace(self, **changes)

    @property
    def de(self) -> bool:
        return self.lang == "de"


def num(x: float, lang: str, digits: int = 2) -> str:
    """A number as people read it in ``lang``: 0,35 in German, 0.35 in English, with a real minus."""
    text = f"{x:.{digits}f}"
    if lang == "de":
        text = text.replace(".", ",")
    return text.replace("-", "−")


def signed(n: int) -> str:
    """Points with a sign and a real minus: +45, −12, 0."""
    return f"{n:+d}".replace("-", "−") if n else "0"


PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die_label(value: int, lang: str) -> str:
    """What a screen reader says for a die: its value, in the page's language."""
    if not value:
        return "leerer Würfel" if lang == "de" else "blank die"
    return f"Würfel: {value}" if lang == "de" else f"die: {value}"


def die(value: int, size: int = 48, x: float = 0, y: float = 0, fill: str = "#fffdf5",
        pip: str = "#222", muted: bool = False, lang: str = "en") -> str:
    """One die face as an SVG group (no <svg> wrapper); 0 = a blank die; named in ``lang``."""
    if muted:
        fill, pip = "#ddd", "#999"
    r = size * 0.09
    parts = [f'<g transform="translate({x},{y})" role="img" aria-label="{die_label(value, lang)}">',
             f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="{size * 0.18}" '
             f'fill="{fill}" stroke="#333" stroke-width="2"/>']
    step = size / 4
    for cx, cy in PIPS.get(value, []):
        parts.append(f'<circle cx="{step * (cx + 1)}" cy="{step * (cy + 1)}" r="{r}" fill="{pip}"/>')
    parts.append("</g>")
    return "".join(parts)


def dice_row(values, size: int = 48, gap: int = 10, muted=(), lang: str = "en") -> str:
    """A row of dice as a complete <svg> element; ``muted`` lists indices drawn greyed out; the dice
    are named in ``lang`` (the row as a whole: "Würfel: 3, 5")."""
    values = list(values)
    width = max(1, len(values)) * (size + gap)
    body = "".join(die(v, size, i * (size + gap), 0, muted=i in muted, lang=lang) for i, v in enumerate(values))
    name = ("Würfel: " if lang == "de" else "dice: ") + ", ".join(map(str, values))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{size}" class="sp-dice" '
            f'data-dice="{",".join(map(str, values))}" viewBox="0 0 {width} {size}" role="group" '
            f'aria-label="{name}">{body}</svg>')


def _luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of "#rgb" / "#rrggbb" (or "white"/"black")."""
    c = {"white": "#ffffff", "black": "#000000"}.get(colour.strip().lower(), colour.strip().lower())
    if not re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", c):
        raise ValueError(f"not a colour this check reads: {colour!r} (use #rgb or #rrggbb)")
    if len(c) == 4:
        c = "#" + "".join(ch * 2 for ch in c[1:])
    out = []
    for i in (1, 3, 5):
        v = int(c[i:i + 2], 16) / 255
        out.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    r, g, b = out
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    """The WCAG 2.1 contrast ratio of two colours (1 to 21)."""
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


#: the contrast a colour pair needs, by use: text (WCAG 1.4.3) and state markers/outlines (1.4.11)
CONTRAST_NEEDED = {"text": 4.5, "marker": 3.0}


class View:
    """Defaults a game's view overrides. Tokens are short strings the board's SVG/HTML carries in
    ``data-act`` attributes and the buttons carry as ``token``; the front-end hands a clicked token
    back to ``click``."""

    #: {"de": {"title", "goal", "turn": [steps]}, "en": ...}: the How-to-play box (for 14-year-olds)
    howto: dict = {}
    #: the player throws their own dice with a button (else chance events just happen)
    human_throws: bool = False
    #: seconds between two visible steps of bots and dice
    bot_delay: float = 0.6
    #: the content the game draws is (partly) the project's reconstruction
    reconstruction: bool = False
    #: the bot a new table seats by default
    default_bot: str = "random"
    #: bot names as people read them: name -> {"de": ..., "en": ...}
    bot_names: dict = {}
    #: the advisor's rows show each option's note (``Option.note``, both languages), e.g. a distribution
    advice_notes: bool = False
    #: every colour pair the view draws text or a state marker with: ``(foreground, background, use)``,
    #: use "text" (needs 4.5:1) or "marker" (an outline or mark that shows a state: needs 3:1). The
    #: accessibility test holds every pair to its ratio and every text fill the boards use to this list.
    colours: tuple = ()

    def how_to(self, game, lang: str) -> dict | None:
        return self.howto.get(lang)

    def reconstructed(self, game) -> bool:
        return self.reconstruction

    def board(self, ctx: Context) -> str:
        """The position as SVG/HTML; clickable parts carry ``data-act="<token>"`` and a name a screen
        reader speaks, given here by the view (``aria-label``, or a ``<title>`` as the element's first
        child) in ``ctx.lang``: owner, pile, card, count, state ("gewählt"/"chosen"). A part that is
        chosen or toggled carries ``aria-pressed``. The front-end never invents a name."""
        raise NotImplementedError

    def buttons(self, ctx: Context) -> list[dict]:
        """The decisions that are not clicks on the board: ``{"token", "label"}`` each (optionally
        ``"focus": True`` on the one control a player needs next, e.g. "platzieren" after a preview:
        the front-end moves the focus there). Default: every legal action as a button labelled by
        the engine."""
        return [{"token": f"a{i}", "label": a.label(ctx.lang)} for i, a in enumerate(ctx.legal)]

    def click(self, ctx: Context, token: str):
        """The legal action a token stands for; or a note ``{"de", "en"}`` (the click only chose
        something, ``ctx.ui`` holds it); or raise ``IllegalActionError`` (a refused click, the
        engine's reason). Default: tokens ``a<i>`` of ``buttons``."""
        if token.startswith("a") and token[1:].isdigit() and int(token[1:]) < len(ctx.legal):
            return ctx.legal[int(token[1:])]
        raise IllegalActionError("turn order", "that is not one of your moves now",
                                 "das ist gerade keiner deiner Züge", "Reihenfolge")

    def throw_label(self, ctx: Context) -> str:
        return ctx.t("Würfeln", "Throw")

    def explain(self, before: Context, action, after: Context) -> str:
        """One sentence on what ``action`` did (in ``after.lang``), from the viewer's observations."""
        return action.label(after.lang)

    def hidden_move(self, ctx: Context, who: int | None) -> str:
        """Said instead of ``explain`` when the viewer cannot see what the move was."""
        return ctx.t("(verdeckt)", "(hidden)")

    def status(self, ctx: Context, whose_turn: int | None) -> str:
        obs = ctx.observation
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        if "round" in obs and "rounds" in obs:
            return ctx.t(f"Runde {obs['round']} von {obs['rounds']} · am Zug: {who}",
                         f"Round {obs['round']} of {obs['rounds']} · to play: {who}")
        return ctx.t(f"Am Zug: {who}", f"To play: {who}")

    def scores(self, ctx: Context, totals: list | None) -> dict:
        """The score table: ``{"headers", "rows", "highlight"}``. ``totals`` are the final scores at
        the end of the game and None before (a running score must come from the observation).
        Default: one row of final totals."""
        return {"headers": ctx.names, "rows": [list(totals) if totals is not None else ["–"] * len(ctx.names)],
                "highlight": None}

    def extra(self, ctx: Context) -> str:
        """More to see next to the scores (a rules table, the other players' sheets), HTML."""
        return ""

    def advice_columns(self, game) -> list[dict]:
        """The advisor's columns: ``{"settings": {...}, "kind": "points"|"probability",
        "title": {"de", "en"}, "unit": {"de", "en"}}``; one ``game.advise`` call per column."""
        return [{"settings": {}, "kind": "points", "title": {"de": "Erwartete Punkte", "en": "Expected points"},
                 "unit": {"de": "Punkte", "en": "points"}}]

    def review_settings(self, game) -> dict:
        """Settings for reviewing a finished game (the first advice column's, by default)."""
        return dict(self.advice_columns(game)[0]["settings"])

    def final_words(self, ctx: Context, scores: list, winners: list) -> str | None:
        """More to say at the end (a solo rating); the front-end names the winner itself."""
        return None

    def option_label(self, ctx: Context, action) -> str:
        return action.label(ctx.lang)
