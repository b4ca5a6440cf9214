"""Würfel Joker Spiel 2 advisor as a Panel app: pick the slides that are up and a throw, see the
exact value of every choice (expected points and the chance to push all nine) and a chart of it.

The app decides no rule: the position is the engine's (``Spiel2Game.position``), the values are
``game.advise(observation)``, the arithmetic is the engine's (``ways``), the picture the game's view.

Run: ``spieltisch serve wuerfel-joker`` (or ``panel serve`` on this file).
"""

from __future__ import annotations

from fractions import Fraction

import panel as pn

from spieltisch.core.dist import Dist
from spieltisch.core.errors import SpieltischError
from spieltisch.games.wuerfel_joker import view
from spieltisch.games.wuerfel_joker.spiel2.engine import Spiel2Game, ways
from spieltisch.ui import charts

TEXT = {
    "title": ("Würfel Joker – Spiel 2: Berater", "Würfel Joker – game 2: advisor"),
    "up": ("Hochgeschobene Schieber", "Slides that are up"),
    "die": ("Würfel", "Die"),
    "rules": ("Regel-Optionen", "Rule options"),
    "x5": ("×5 auch beim freiwilligen Aufhören", "×5 also on a voluntary stop"),
    "five_all": ("mit der 5 auch × und :", "with the 5 also × and :"),
    "choice": ("Wahl", "choice"),
    "expected": ("erwartete Punkte", "expected points"),
    "all_up": ("P(alle neun)", "P(all nine)"),
    "how": ("Rechnung", "arithmetic"),
    "none": ("Mit diesem Wurf lässt sich nichts schieben.", "This throw can push nothing."),
    "over": ("Alle neun Schieber sind oben: der Zug ist vorbei (+45).", "All nine slides are up: the turn is over (+45)."),
    "p_any": ("Wahrscheinlichkeit, dass ein Wurf hier noch etwas schieben kann",
              "Chance that a throw can still push something here"),
    "best": ("optimal", "optimal"),
}


def tr(key: str, lang: str) -> str:
    de, en = TEXT[key]
    return de if lang == "de" else en


def push_probability(mask: int, five_ops: str) -> Fraction:
    """Exact chance over the 36 throws that at least one free slide can be pushed (the engine says
    which values a throw can push with the slides ``mask`` up)."""
    throws = Dist.dice(2, ordered=True)
    return throws.prob(lambda t: bool(ways(t[0], t[1], mask, five_ops)))


def advice_rows(up, a: int, b: int, five_ops: str, x5_on_stop: bool, lang: str) -> list[dict]:
    """One row per option of the throw ``a, b`` with the slides ``up``, best first; empty when the
    throw ends the turn (nothing to decide)."""
    game = Spiel2Game(1, {"rounds": 1, "five_ops": five_ops, "x5_on_stop": x5_on_stop})
    state = game.position(up, (a, b))
    if state.current_player() < 0:  # the throw pushed nothing: the turn is over
        return []
    obs = state.observation(0)
    expected = game.advise(obs, objective="expected")
    all_up = game.advise(obs, objective="all_up")
    rows = []
    for o in expected.options:
        rows.append({
            tr("choice", lang): o.label[lang],
            tr("expected", lang): float(o.value),
            "exact": str(o.value),
            tr("all_up", lang): float(all_up.option_for(o.action).value),
            tr("how", lang): ", ".join(o.note[lang].split("; ")) if o.note else "",
            tr("best", lang): "★" if o.best else "",
        })
    return rows


def create_app(lang: str = "de"):
    pn.extension("vega", sizing_mode="fixed")
    language = pn.widgets.RadioButtonGroup(name="lang", options={"Deutsch": "de", "English": "en"}, value=lang)
    slides = pn.widgets.CheckButtonGroup(name="slides", options=list(range(1, 10)), value=[],
                                         css_classes=["sp-slides"])
    die_a = pn.widgets.IntSlider(name="a", start=1, end=6, value=6, css_classes=["sp-die-a"])
    die_b = pn.widgets.IntSlider(name="b", start=1, end=6, value=2, css_classes=["sp-die-b"])
    five_all = pn.widgets.Checkbox(name=tr("five_all", lang))
    x5 = pn.widgets.Checkbox(name=tr("x5", lang))

    @pn.depends(language, slides, die_a, die_b, five_all, x5)
    def show(lang, up, a, b, five_all_on, x5_on):
        mask = sum(1 << (v - 1) for v in up)
        five_ops = "all" if five_all_on else "plus_minus"
        # the view draws the parts of an observation it needs: the slides up and the dice
        picture = pn.pane.HTML(view.board_svg(view.GAME2, {"up": sorted(up), "dice": [a, b]}, lang),
                               height=100, width=620)
        p_any = push_probability(mask, five_ops)
        header = pn.pane.Markdown(f"**{tr('p_any', lang)}:** {p_any} ≈ {float(p_any):.4f}",
                                  css_classes=["sp-p-any"])
        try:
            rows = advice_rows(up, a, b, five_ops, x5_on, lang)
        except SpieltischError:  # all nine up: there is no turn left to advise on
            return pn.Column(picture, pn.pane.Markdown(tr("over", lang), css_classes=["sp-advice"]))
        if not rows:
            return pn.Column(picture, header, pn.pane.Markdown(tr("none", lang), css_classes=["sp-advice"]))
        cols = list(rows[0])
        table = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n" + "\n".join(
            "| " + " | ".join(f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |"
            for r in rows)
        spec = charts.bar(rows, x=tr("choice", lang), y=tr("expected", lang), title=tr("expected", lang),
                          sort=None, width=360, height=200)
        return pn.Column(picture, header, pn.pane.Markdown(table, css_classes=["sp-advice"]),
                         pn.pane.Vega(spec, css_classes=["sp-chart"]))

    controls = pn.Column(language, f"**{tr('up', lang)}**", slides, die_a, die_b,
                         f"**{tr('rules', lang)}**", five_all, x5, width=320)
    return pn.Column(f"# {tr('title', lang)}", pn.Row(controls, show))


if __name__.startswith("bokeh"):
    create_app().servable(title="Würfel Joker")
