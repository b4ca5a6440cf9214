"""Würfel Joker Spiel 2 advisor as a Panel app: pick the slides that are up and a throw, see the
exact value of every choice (expected points and the chance to push all nine) and a chart of it.

Run: ``spieltisch serve wuerfel-joker`` (or ``panel serve`` on this file).
"""

from __future__ import annotations

from fractions import Fraction

import panel as pn

from spieltisch.core.dist import Dist
from spieltisch.games.wuerfel_joker.spiel2 import analysis as solver2
from spieltisch.games.wuerfel_joker.spiel2.engine import CHOOSE, DOUBLES_BUST, makeable, ways
from spieltisch.ui import charts, svg

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
    "p_any": ("Wahrscheinlichkeit, dass ein Wurf hier noch etwas schieben kann",
              "Chance that a throw can still push something here"),
    "best": ("optimal", "optimal"),
}


def tr(key: str, lang: str) -> str:
    de, en = TEXT[key]
    return de if lang == "de" else en


def push_probability(mask: int, five_ops: str) -> Fraction:
    """Exact chance over the 36 throws that at least one free slide can be pushed."""
    five_up = bool(mask & 16)
    throws = Dist.dice(2, ordered=True)
    return throws.prob(lambda t: any(not mask >> (v - 1) & 1 for v in makeable(t[0], t[1], five_up, five_ops)))


def advice_rows(mask: int, a: int, b: int, five_ops: str, x5_on_stop: bool, lang: str) -> list[dict]:
    opts = {"five_ops": five_ops, "x5_on_stop": x5_on_stop}
    phase = CHOOSE if makeable(a, b, bool(mask & 16), five_ops) - {v for v in range(1, 10) if mask >> (v - 1) & 1} \
        else DOUBLES_BUST
    if phase == DOUBLES_BUST and a != b:
        return []
    exp = solver2.solve(opts, "expected").values_at(mask, (a, b), phase)
    up = dict(solver2.solve(opts, "all_up").values_at(mask, (a, b), phase))
    how = ways(a, b, mask, five_ops)
    best = exp[0][1] if exp else None
    rows = []
    for act, value in exp:
        label = act.label(lang) if hasattr(act, "label") else str(act)
        rows.append({
            tr("choice", lang): label,
            tr("expected", lang): float(value),
            "exact": str(value),
            tr("all_up", lang): float(up[act]),
            tr("how", lang): ", ".join(how.get(getattr(act, "value", None), [])),
            tr("best", lang): "★" if value == best else "",
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
    def view(lang, up, a, b, five_all_on, x5_on):
        mask = sum(1 << (v - 1) for v in up)
        five_ops = "all" if five_all_on else "plus_minus"
        picture = pn.pane.HTML(svg.slides_row(range(1, 10), [v in up for v in range(1, 10)])
                               + "&nbsp;&nbsp;" + svg.dice_row([a, b]), height=100, width=620)
        p_any = push_probability(mask, five_ops)
        header = pn.pane.Markdown(f"**{tr('p_any', lang)}:** {p_any} ≈ {float(p_any):.4f}",
                                  css_classes=["sp-p-any"])
        rows = advice_rows(mask, a, b, five_ops, x5_on, lang)
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
    return pn.Column(f"# {tr('title', lang)}", pn.Row(controls, view))


if __name__.startswith("bokeh"):
    create_app().servable(title="Würfel Joker")
