"""Prediction widgets, the comparison with the exact answer and a simulation, and solutions behind a
button (ipywidgets, available in the site's kernel).

A prediction is stored under the question's key when the student presses "Festhalten / Lock in";
``compare`` shows, on a button press, the stored prediction next to the exact value and the
simulation the notebook computed with the engine. The kit never computes an answer itself.

Widgets here display a short, fixed ``text/plain`` (nbval compares it; widget-view JSON is skipped).
Output areas are ``HTML`` widgets whose value is set from Python, not ``Output`` widgets written with
``with out:`` (that leaks into the cell's stdout without a browser).
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as W

from . import fmt

WORDS = {
    "de": {"lock": "Festhalten", "locked": "Festgehalten", "compare": "Vergleichen", "show": "Lösung zeigen",
           "hide": "Lösung verbergen", "yours": "Deine Vorhersage", "exact": "Exakt", "sim": "Simulation",
           "none": "Halte zuerst oben eine Vorhersage fest (Knopf „Festhalten“).",
           "right": "Richtig!", "wrong": "Nicht ganz.", "inside": "Der exakte Wert liegt im 95-%-Intervall.",
           "outside": "Der exakte Wert liegt diesmal außerhalb des 95-%-Intervalls (das passiert etwa bei jedem 20. Versuch).",
           "off": "Abstand deiner Vorhersage zum exakten Wert", "pp": "Prozentpunkte",
           "off_sim": "Abstand deiner Vorhersage zur Simulation", "prediction": "Vorhersage",
           "open": "noch offen", "question": "Frage", "answer": "Lösung", "correct_are": "Richtig ist",
           "n": "n"},
    "en": {"lock": "Lock in", "locked": "Locked in", "compare": "Compare", "show": "Show solution",
           "hide": "Hide solution", "yours": "Your prediction", "exact": "Exact", "sim": "Simulation",
           "none": "First lock in a prediction above (button “Lock in”).",
           "right": "Right!", "wrong": "Not quite.", "inside": "The exact value lies inside the 95% interval.",
           "outside": "This time the exact value lies outside the 95% interval (that happens in about one run in 20).",
           "off": "Distance of your prediction from the exact value", "pp": "percentage points",
           "off_sim": "Distance of your prediction from the simulation",
           "prediction": "Prediction", "open": "not yet made", "question": "Question", "answer": "Solution",
           "correct_are": "Correct is", "n": "n"},
}

_STORE: dict[str, object] = {}


def prediction(key: str):
    """The prediction stored under ``key`` (None while none was locked in)."""
    return _STORE.get(key)


def forget(key: str | None = None) -> None:
    """Forget one stored prediction, or all (tests)."""
    if key is None:
        _STORE.clear()
    else:
        _STORE.pop(key, None)


class _Plain:
    """Mixin: a fixed short text/plain instead of the widget's long repr."""

    plain = ""

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data = data[0]
        data = dict(data)
        data["text/plain"] = self.plain
        return data


class Predict(_Plain, W.VBox):
    """A question with an input (choice, slider or number) and a lock-in button."""

    def __init__(self, key: str, question: str, control: W.Widget, lang: str, show=None, kind: str = "",
                 to_value=None):
        fmt.check_lang(lang)
        self.key, self.lang, self.control = key, lang, control
        self.to_value = to_value or (lambda v: v)
        self.show = show or (lambda v: str(v))
        self.button = W.Button(description=WORDS[lang]["lock"], button_style="primary")
        self.status = W.HTML("")
        self.button.on_click(lambda _: self.lock())
        super().__init__([W.HTML(f"<b>{question}</b>"), control, W.HBox([self.button, self.status])])
        self.plain = f"{WORDS[lang]['prediction']} ({kind}): {question}"
        self.add_class("spieltisch-predict")

    def lock(self, value=None):
        """Store the control's value (or ``value``, which is also put into the control)."""
        if value is not None:
            self.control.value = value
        _STORE[self.key] = self.to_value(self.control.value)
        self.status.value = f"&nbsp;{WORDS[self.lang]['locked']}: <b>{self.show(self.control.value)}</b>"
        return _STORE[self.key]


def choice(key: str, question: str, options, lang: str = "de") -> Predict:
    """Predict by choosing one option: ``options`` is a list of values or of ``(label, value)`` pairs."""
    pairs = [o if isinstance(o, tuple) else (str(o), o) for o in options]
    control = W.ToggleButtons(options=pairs, value=None) if len(pairs) <= 10 else W.Dropdown(options=pairs, value=None)
    labels = {v: lab for lab, v in pairs}
    kind = "Auswahl" if lang == "de" else "choice"
    return Predict(key, question, control, lang, show=lambda v: labels.get(v, "–"), kind=kind)


def slider(key: str, question: str, lo, hi, step=1, value=None, lang: str = "de", as_percent: bool = False) -> Predict:
    """Predict with a slider from ``lo`` to ``hi``; ``as_percent`` takes and shows a share (0..1) as per
    cent (the slider shows whole per cents, the stored prediction is the share)."""
    start = lo if value is None else value
    if as_percent:
        control = W.IntSlider(min=round(lo * 100), max=round(hi * 100), step=max(1, round(step * 100)),
                              value=round(start * 100), readout_format="d")
        show = lambda v: fmt.percent(Fraction(v, 100), lang, 0)  # noqa: E731
    elif all(isinstance(x, int) for x in (lo, hi, step, start)):
        control = W.IntSlider(min=lo, max=hi, step=step, value=start)
        show = lambda v: fmt.integer(v, lang)  # noqa: E731
    else:
        control = W.FloatSlider(min=lo, max=hi, step=step, value=start)
        show = lambda v: fmt.number(v, lang, 2, strip=True)  # noqa: E731
    control.continuous_update = False
    return Predict(key, question, control, lang, show=show, kind="Schieberegler" if lang == "de" else "slider",
                   to_value=(lambda v: Fraction(v, 100)) if as_percent else None)


def number(key: str, question: str, lang: str = "de", value=0) -> Predict:
    """Predict by typing a number."""
    control = W.FloatText(value=value)
    return Predict(key, question, control, lang, show=lambda v: fmt.number(v, lang, 2, strip=True),
                   kind="Zahl" if lang == "de" else "number")


def comparison_text(key: str, exact, simulation=None, lang: str = "de", right=None, as_percent: bool = True,
                    explain: str = "", predicted=None) -> str:
    """The comparison as HTML: the prediction (if any), the exact value, the simulation and whether
    the exact value lies in its interval. ``exact`` is a number (a share when ``as_percent``, else
    points), or for a choice the text naming the right option(s), with ``right`` the set of their values;
    ``exact=None`` where only a simulation answers the question (the prediction is compared with it)."""
    w = WORDS[lang]
    lines = []
    target = exact if exact is not None else (simulation.mean if simulation is not None else None)
    if predicted is not None:
        if right is not None:
            ok = predicted in right
            shown = predicted if isinstance(predicted, str) else fmt.number(predicted, lang, 2, strip=True)
            lines.append(f"{w['yours']}: <b>{shown}</b> – {w['right'] if ok else w['wrong']}")
        else:
            p = Fraction(predicted)
            off_word = w["off"] if exact is not None else w["off_sim"]
            if as_percent:
                off = abs(p - Fraction(target)) * 100
                lines.append(f"{w['yours']}: <b>{fmt.percent(p, lang, 0)}</b>; {off_word}: {fmt.number(off, lang, 1)} {w['pp']}")
            else:
                off = abs(p - Fraction(target))
                lines.append(f"{w['yours']}: <b>{fmt.number(p, lang, 2, strip=True)}</b>; {off_word}: {fmt.number(off, lang, 2)}")
    if right is not None:
        lines.append(f"{w['correct_are']}: <b>{exact}</b>")
    elif exact is None:
        pass
    elif as_percent:
        lines.append(f"{w['exact']}: <b>{fmt.probability(exact, lang)}</b>")
    else:
        lines.append(f"{w['exact']}: <b>{fmt.fraction(exact, lang)}</b>"
                     + ("" if Fraction(exact).denominator == 1 else f" ≈ {fmt.number(exact, lang)}"))
    if simulation is not None:
        lines.append(f"{w['sim']}: {fmt.interval(simulation, lang, as_percent=as_percent)}")
        if right is None and exact is not None:
            lines.append(w["inside"] if simulation.contains(exact) else w["outside"])
    if explain:
        lines.append(explain)
    return "<br>".join(lines)


def _plain_text(htmltext: str) -> str:
    import re
    return re.sub(r"<[^>]+>", "", htmltext.replace("<br>", "\n")).replace("&nbsp;", " ")


class Reveal(_Plain, W.VBox):
    """A button that shows (and hides again) a block of HTML. Its text form holds the whole
    solution: that is what nbval checks and what the teacher version shows."""

    def __init__(self, content: str, lang: str = "de", label: str | None = None, on_show=None):
        fmt.check_lang(lang)
        self.lang, self.content, self.on_show = lang, content, on_show
        self.button = W.Button(description=label or WORDS[lang]["show"])
        self.body = W.HTML("")
        self.button.on_click(lambda _: self.toggle())
        super().__init__([self.button, self.body])
        self.plain = f"{WORDS[lang]['answer']}:\n{_plain_text(content)}"
        self.add_class("spieltisch-reveal")

    def toggle(self):
        if self.body.value:
            self.body.value = ""
            return
        extra = self.on_show() if self.on_show else ""
        self.body.value = (extra + "<br>" if extra else "") + self.content


def _html_of(content) -> str:
    if isinstance(content, str):
        return content
    if hasattr(content, "_repr_mimebundle_"):
        data = content._repr_mimebundle_()
        if "image/svg+xml" in data:
            return data["image/svg+xml"]
        if "text/html" in data:
            return data["text/html"]
    if hasattr(content, "_repr_svg_"):
        return content._repr_svg_()
    if hasattr(content, "_repr_html_"):
        return content._repr_html_()
    return f"<pre>{content}</pre>"


def reveal(*content, lang: str = "de", label: str | None = None) -> Reveal:
    """A solution behind a button: strings (HTML) and pictures, shown one below the other."""
    return Reveal("<br>".join(_html_of(c) for c in content), lang, label)


def compare(key: str, exact, simulation=None, lang: str = "de", right=None, as_percent: bool = True,
            explain: str = "") -> Reveal:
    """A "Compare" button: shows the prediction stored under ``key`` next to the exact value and the
    simulation (an ``Estimate``). Without a stored prediction it asks for one first."""
    fmt.check_lang(lang)
    answer = comparison_text(key, exact, simulation, lang, right, as_percent, explain)

    class _Compare(Reveal):
        def toggle(self):
            if self.body.value:
                self.body.value = ""
                return
            p = prediction(key)
            if p is None:
                self.body.value = WORDS[lang]["none"]
                return
            self.body.value = comparison_text(key, exact, simulation, lang, right, as_percent, explain, predicted=p)

    return _Compare(answer, lang, WORDS[lang]["compare"])


class Explore(_Plain, W.VBox):
    """A slider that redraws a picture: ``draw(value)`` returns a Picture (or HTML string)."""

    def __init__(self, draw, lo: int, hi: int, value: int, step: int = 1, label: str = "n", lang: str = "de"):
        fmt.check_lang(lang)
        self.draw = draw
        self.slider = W.IntSlider(min=lo, max=hi, step=step, value=value, description=label,
                                  continuous_update=False)
        self.view = W.HTML("")
        self.slider.observe(lambda ch: self.redraw(), names="value")
        super().__init__([self.slider, self.view])
        self.add_class("spieltisch-explore")
        self.redraw()

    def redraw(self):
        pic = self.draw(self.slider.value)
        self.view.value = _html_of(pic)
        self.plain = getattr(pic, "text", "")


def explore(draw, lo: int, hi: int, value: int | None = None, step: int = 1, label: str = "n", lang: str = "de") -> Explore:
    """A slider (``lo``..``hi``) that redraws ``draw(value)``; e.g. a running share for the first n trials."""
    return Explore(draw, lo, hi, hi if value is None else value, step, label, lang)
