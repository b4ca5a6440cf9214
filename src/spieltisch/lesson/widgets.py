"""The lesson's widgets: predictions, answers that wait for them, work by hand, simulations to run
again, and the comparison (anywidget; the page side is ``static/lesson.js``).

**Predict first.** ``choice``, ``slider`` and ``number`` store a prediction under the question's
key when the student presses "Festhalten / Lock in". Every widget given that ``key`` (``answer``,
``explore``, ``simulate``, ``reveal``) is *gated*: the page shows a note and a "Zeigen / Show"
button instead of its content, and Python sends the content only when the prediction is locked in
(or the button is pressed). So after Run All nothing answers a question before its prediction.
``compare`` freezes the first prediction the first time it is pressed; a prediction locked in later
is shown beside it and never replaces it.

**By hand.** ``grid`` (click the cells of the 6×6 grid of two-dice throws, then check), ``tree`` (a
tree diagram with an input at every branch, then check) and ``check`` (type a result, then check)
send the page no answer: Python checks what the student typed or clicked.

**Randomness.** ``simulate`` runs ``run(seed, **params)``: "Neu simulieren / Run again" draws a new
seed (shown, and typed in again to repeat a run), the parameters (``Range``, ``Options``) are
controls. The cell's stored output is the run with the default seed.

**By hand first.** A gated widget made after a by-hand widget of its question (the exact value, the
simulation, the comparison that follow the work on paper) waits for more than the prediction: it
opens once every by-hand widget of that question made before it has been checked ("Prüfen / Check"
pressed with something the kit could read, right or wrong). So the engine's exact value never comes
before the student's own.

**No answer in a student's notebook file.** What a widget writes into the notebook besides its view
(``text/plain``, ``text/html``: shown by a front-end without the widget, and saved with the notebook)
depends on who runs it. In a student's kernel (JupyterLite, a local Jupyter: the default) it is the
question or the "predict first" note only – never the exact value, a reveal's solution, a by-hand
widget's answer or a gated simulation. Only where the source notebook's stored outputs are made or
checked (``SPIELTISCH_LESSON_VERSION=teacher`` in the environment of ``nbconvert --execute`` and
nbval) does each widget write its answer: a short, fixed ``text/plain`` (what nbval compares and the
teacher version shows) and, for gated and by-hand widgets, the answer as ``text/html`` (pictures). The
kit computes no answer: every number comes from the notebook (the engine).
"""

from __future__ import annotations

import html as _html
import json
import os
import re
import secrets
import weakref
from fractions import Fraction
from pathlib import Path

import anywidget
import traitlets

from . import fmt
from .pictures import Node, Picture, dice_grid, tree as tree_picture

WORDS = {
    "de": {"lock": "Festhalten", "locked": "Festgehalten", "compare": "Vergleichen", "show": "Lösung zeigen",
           "hide": "Lösung verbergen", "yours": "Deine Vorhersage", "exact": "Exakt", "sim": "Simulation",
           "none": "Halte zuerst oben eine Vorhersage fest (Knopf „Festhalten“).",
           "right": "Richtig!", "wrong": "Nicht ganz.", "inside": "Der exakte Wert liegt im 95-%-Intervall.",
           "outside": "Der exakte Wert liegt diesmal außerhalb des 95-%-Intervalls (das passiert etwa bei jedem 20. Versuch).",
           "off": "Abstand deiner Vorhersage zum exakten Wert", "pp": "Prozentpunkte",
           "off_sim": "Abstand deiner Vorhersage zur Simulation", "prediction": "Vorhersage",
           "open": "noch offen", "question": "Frage", "answer": "Lösung", "correct_are": "Richtig ist", "estimate_is": "Schätzung (kein exakter Wert)",
           "agrees": "passt zur Schätzung", "disagrees": "passt nicht zur Schätzung",
           "n": "n", "value": "Deine Vorhersage:", "choose": "Wähle zuerst eine Antwort.",
           "unreadable": "Das kann ich nicht als Zahl lesen (so geht es: 5/6, 0,83 oder 83 %).",
           "wait": "Das erscheint, sobald du oben deine Vorhersage festgehalten hast.", "show_now": "Zeigen",
           "later": "Später geändert auf", "first_stays": "verglichen wird deine erste Vorhersage",
           "again": "Neu simulieren", "seed": "Startwert", "check": "Prüfen", "unmarked": "nicht markiert",
           "first": "1. Würfel", "second": "2. Würfel", "wrong_cell": "falsch", "by_hand": "Zum Ausfüllen",
           "all_right": "Alles richtig!", "cells_wrong": "{k} von 36 Feldern stimmen noch nicht (rot umrandet).",
           "inputs": "{ok} richtig, {bad} falsch, {empty} noch leer.", "clicks": ("1-mal klicken", "2-mal klicken",
                                                                                "3-mal klicken", "4-mal klicken"),
           "branch": "Wahrscheinlichkeit des Astes", "path": "Wahrscheinlichkeit des Pfades",
           "is_right": "Stimmt!", "is_wrong": "Stimmt noch nicht – rechne noch einmal nach.",
           "parameters": "Einstellungen", "tree": "Baumdiagramm", "grid": "Gitter",
           "wait_hand": "Das erscheint, sobald du oben deine Arbeit von Hand mit „Prüfen“ geprüft hast.",
           "by_button": "hinter dem Knopf"},
    "en": {"lock": "Lock in", "locked": "Locked in", "compare": "Compare", "show": "Show solution",
           "hide": "Hide solution", "yours": "Your prediction", "exact": "Exact", "sim": "Simulation",
           "none": "First lock in a prediction above (button “Lock in”).",
           "right": "Right!", "wrong": "Not quite.", "inside": "The exact value lies inside the 95% interval.",
           "outside": "This time the exact value lies outside the 95% interval (that happens in about one run in 20).",
           "off": "Distance of your prediction from the exact value", "pp": "percentage points",
           "off_sim": "Distance of your prediction from the simulation",
           "prediction": "Prediction", "open": "not yet made", "question": "Question", "answer": "Solution",
           "correct_are": "The correct answer is", "estimate_is": "Estimate (no exact value)",
           "agrees": "agrees with the estimate", "disagrees": "does not agree with the estimate", "n": "n", "value": "Your prediction:", "choose": "Choose an answer first.",
           "unreadable": "I cannot read that as a number (like this: 5/6, 0.83 or 83%).",
           "wait": "This appears once you have locked in your prediction above.", "show_now": "Show",
           "later": "Later changed to", "first_stays": "your first prediction is the one compared",
           "again": "Run again", "seed": "Seed", "check": "Check", "unmarked": "not marked",
           "first": "first die", "second": "second die", "wrong_cell": "wrong", "by_hand": "To fill in",
           "all_right": "All correct!", "cells_wrong": "{k} of 36 cells are not right yet (outlined in red).",
           "inputs": "{ok} right, {bad} wrong, {empty} still empty.", "clicks": ("click once", "click twice",
                                                                              "click 3 times", "click 4 times"),
           "branch": "Probability of the branch", "path": "Probability of the path",
           "is_right": "Right!", "is_wrong": "Not right yet – work it out once more.",
           "parameters": "Settings", "tree": "tree diagram", "grid": "grid",
           "wait_hand": "This appears once you have checked your work by hand above with “Check”.",
           "by_button": "behind the button"},
}


MODE = "SPIELTISCH_LESSON_VERSION"


def teacher_mode() -> bool:
    """Whether widgets write their answers into the notebook (``text/plain``, ``text/html``): only
    while the source notebook's stored outputs are made or checked (the environment sets
    ``SPIELTISCH_LESSON_VERSION=teacher``); a student's kernel writes the question only. Read at each
    display, so a test can switch it."""
    return os.environ.get(MODE) == "teacher"


def _source() -> str:
    here = Path(__file__).with_name("static")
    css = (here / "lesson.css").read_text(encoding="utf-8")
    return f"const CSS = {json.dumps(css)};\n" + (here / "lesson.js").read_text(encoding="utf-8")


# --- predictions -------------------------------------------------------------------------------

class _Record:
    """One question's predictions: the latest locked in, and the first once a comparison froze it."""

    __slots__ = ("latest", "latest_label", "first", "first_label", "frozen")

    def __init__(self, value, label):
        self.latest, self.latest_label = value, label
        self.first, self.first_label, self.frozen = None, None, False


_STORE: dict[str, _Record] = {}
_GATES: dict[str, weakref.WeakSet] = {}
# per question key: each by-hand widget made for it (its kind and question: a cell run again is the
# same work) and whether the student has checked it
_HAND: dict[str, dict[str, bool]] = {}


def prediction(key: str):
    """The prediction compared for ``key``: the first once a comparison froze it, else the latest
    locked in (None while none was)."""
    r = _STORE.get(key)
    if r is None:
        return None
    return r.first if r.frozen else r.latest


def predictions(key: str) -> tuple | None:
    """``(first, latest)`` for ``key``: first is None until a comparison froze it."""
    r = _STORE.get(key)
    return None if r is None else (r.first, r.latest)


def forget(key: str | None = None) -> None:
    """Forget one question's predictions, or all (tests). Gates already open stay open."""
    if key is None:
        _STORE.clear()
        _HAND.clear()
    else:
        _STORE.pop(key, None)
        _HAND.pop(key, None)


def _freeze(key: str) -> _Record | None:
    r = _STORE.get(key)
    if r is not None and not r.frozen:
        r.first, r.first_label, r.frozen = r.latest, r.latest_label, True
    return r


# --- the widget ----------------------------------------------------------------------------------

class KitWidget(anywidget.AnyWidget):
    """One kit widget: a ``kind`` the page knows, a static ``spec`` (no answers), a ``view`` Python
    updates and the page's ``event``. With a ``gate`` key the page gets no content before the gate
    opens."""

    _esm = _source()
    spec = traitlets.Unicode("{}").tag(sync=True)
    view = traitlets.Unicode("{}").tag(sync=True)
    event = traitlets.Unicode("").tag(sync=True)

    kind = ""

    def __init__(self, lang: str, spec: dict | None = None, gate: str | None = None, plain: str = "",
                 teacher_html: str | None = None, student: str | None = None):
        fmt.check_lang(lang)
        super().__init__()
        self.lang, self.gate = lang, gate
        self.plain, self.teacher_html = plain, teacher_html
        # what a student's notebook holds instead: an ungated widget shows the same in the page at once
        self.student = student if student is not None else (WORDS[lang]["wait"] if gate is not None else plain)
        self._view: dict = {}
        words = {k: v for k, v in WORDS[lang].items()}
        self.spec = json.dumps({"kind": self.kind, "lang": lang, "gate": bool(gate), "key": gate, "words": words,
                                **(spec or {})}, ensure_ascii=False)
        # the by-hand work of this question made before this widget: it waits for their checks too
        self.after = tuple(_HAND.get(gate, ())) if gate is not None else ()
        self.opened = gate is None or self.ready()
        if gate is not None:
            _GATES.setdefault(gate, weakref.WeakSet()).add(self)

    def ready(self) -> bool:
        """The prediction is locked in and the by-hand work before this widget is checked."""
        return self.gate in _STORE and self.hand_done()

    def hand_done(self) -> bool:
        done = _HAND.get(self.gate, {})
        return all(done.get(i) for i in self.after)

    @property
    def words(self) -> dict:
        return WORDS[self.lang]

    # Python -> page
    def push(self, **changes) -> None:
        self._view.update(changes)
        if self.opened:
            state = {**self._view, "open": True}
        elif self.gate in _STORE:  # predicted: the by-hand check is what it waits for
            state = {"open": False, "note": self.words["wait_hand"]}
        else:
            state = {"open": False}
        self.view = json.dumps(state, ensure_ascii=False, default=str)

    def content(self) -> dict:
        """What the page shows once open (a gated widget sends it only then)."""
        return {}

    def open_gate(self) -> None:
        self.opened = True
        self.push(**self.content())

    # page -> Python
    @traitlets.observe("event")
    def _on_event(self, change) -> None:
        if change["new"]:
            self.handle(json.loads(change["new"]))

    def handle(self, event: dict) -> None:
        if event.get("do") == "show" and not self.opened:
            self.open_gate()

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data = data[0]
        data = dict(data)
        if not teacher_mode():
            data.pop("text/html", None)
            data["text/plain"] = self.student
            return data
        data["text/plain"] = self.plain
        if self.teacher_html is not None:
            data["text/html"] = self.teacher_html
        return data


def _quoted(text: str, lang: str) -> str:
    return f"„{text}“" if lang == "de" else f"“{text}”"


def _open_gates(key: str) -> None:
    for gate in list(_GATES.get(key, ())):
        if not gate.opened and gate.ready():
            gate.open_gate()
        elif not gate.opened:
            gate.push()  # the note changes: now it waits for the work by hand


def _hand(widget: KitWidget, key: str | None, what: str) -> str | None:
    """Register a by-hand widget under its question ``key``; returns its name in ``_HAND``."""
    if key is None:
        return None
    name = f"{widget.kind}:{what}"
    _HAND.setdefault(key, {}).setdefault(name, False)
    return name


def _checked(key: str | None, name: str | None) -> None:
    """The student checked a piece of work by hand: the gates waiting for it may open."""
    if key is not None and name is not None:
        _HAND.setdefault(key, {})[name] = True
        _open_gates(key)


def _plain_text(htmltext: str) -> str:
    text = re.sub(r"<svg.*?</svg>", "", htmltext, flags=re.S)
    text = re.sub(r"<[^>]+>", "", text.replace("<br>", "\n")).replace("&nbsp;", " ")
    return _html.unescape(text)


def _html_of(content) -> str:
    if isinstance(content, str):
        return content
    if hasattr(content, "_repr_mimebundle_"):
        data = content._repr_mimebundle_()
        if isinstance(data, tuple):
            data = data[0]
        if "image/svg+xml" in data:
            return data["image/svg+xml"]
        if "text/html" in data:
            return data["text/html"]
    if hasattr(content, "_repr_svg_"):
        return content._repr_svg_()
    if hasattr(content, "_repr_html_"):
        return content._repr_html_()
    return f"<pre>{_html.escape(str(content))}</pre>"


def _text_of(content) -> str:
    if isinstance(content, str):
        return _plain_text(content)
    if isinstance(content, Picture):
        return content.text
    return str(content)


def _joined(content) -> tuple[str, str]:
    """(HTML, text) of a list of strings (HTML) and pictures, one below the other."""
    items = [c for c in content if c is not None and c != ""]
    return "<br>".join(_html_of(c) for c in items), "\n".join(_text_of(c) for c in items)


# --- predictions ------------------------------------------------------------------------------

class Predict(KitWidget):
    """A question with a control (choice, slider or number) and a lock-in button."""

    kind = "predict"

    def __init__(self, key: str, question: str, lang: str, control: dict, kind_word: str, read, show, raw_of):
        self.key, self._read, self._show, self._raw_of = key, read, show, raw_of
        super().__init__(lang, {"question": question, **control, "key": key},
                         plain=f"{WORDS[lang]['prediction']} ({kind_word}): {question}")
        r = _STORE.get(key)
        if r is not None:  # the cell run again: the prediction made before is still there
            self.push(status=self._status(r), value=raw_of(r.latest))
        else:
            self.push()

    def _status(self, r: _Record) -> str:
        w = self.words
        text = f"{w['locked']}: <b>{_html.escape(r.latest_label)}</b>"
        if r.frozen and r.latest != r.first:
            text += f" · {w['first_stays']}: <b>{_html.escape(r.first_label)}</b>"
        return text

    def lock(self, value=None):
        """Store the control's ``value`` (as the control shows it: an option's value, a slider's
        whole per cent, a number) under the key; open the question's gates. Returns what is stored."""
        if value is None:
            self.push(status=self.words["choose"])
            return None
        try:
            stored = self._read(value)
        except (ValueError, KeyError, IndexError, TypeError):
            self.push(status=self.words["unreadable"])
            return None
        label = self._show(stored)
        r = _STORE.get(self.key)
        if r is None:
            _STORE[self.key] = r = _Record(stored, label)
        else:
            r.latest, r.latest_label = stored, label
        self.push(status=self._status(r), value=self._raw_of(stored))
        _open_gates(self.key)
        return stored

    def handle(self, event: dict) -> None:
        if event.get("do") == "lock":
            raw = event.get("value")
            self.lock(None if raw is None or raw == "" else self._from_page(raw))

    def _from_page(self, raw):
        return raw


class _Choice(Predict):
    def __init__(self, key, question, pairs, lang):
        self.pairs = pairs
        labels = {v: lab for lab, v in pairs}
        values = [v for _, v in pairs]

        def read(v):
            if v not in labels:
                raise KeyError(v)
            return v
        super().__init__(key, question, lang, {"control": "choice", "options": [lab for lab, _ in pairs]},
                         "Auswahl" if lang == "de" else "choice", read, lambda v: labels[v], values.index)

    def _from_page(self, raw):
        return self.pairs[int(raw)][1]


def choice(key: str, question: str, options, lang: str = "de") -> Predict:
    """Predict by choosing one option: ``options`` is a list of values or of ``(label, value)`` pairs."""
    fmt.check_lang(lang)
    pairs = [o if isinstance(o, tuple) else (str(o), o) for o in options]
    return _Choice(key, question, pairs, lang)


def slider(key: str, question: str, lo, hi, step=1, value=None, lang: str = "de", as_percent: bool = False) -> Predict:
    """Predict with a slider from ``lo`` to ``hi``; ``as_percent`` takes and shows a share (0..1) as per
    cent (the slider moves in whole per cents, the stored prediction is the share)."""
    fmt.check_lang(lang)
    start = lo if value is None else value
    kind_word = "Schieberegler" if lang == "de" else "slider"
    if as_percent:
        control = {"control": "range", "min": round(lo * 100), "max": round(hi * 100),
                   "step": max(1, round(step * 100)), "value": round(start * 100), "percent": True}
        return Predict(key, question, lang, control, kind_word, lambda v: Fraction(int(v), 100),
                       lambda f: fmt.percent(f, lang, 0), lambda f: int(f * 100))
    control = {"control": "range", "min": lo, "max": hi, "step": step, "value": start}
    if all(isinstance(x, int) for x in (lo, hi, step, start)):
        return Predict(key, question, lang, control, kind_word, int, lambda v: fmt.integer(v, lang), lambda v: v)
    return Predict(key, question, lang, control, kind_word, lambda v: Fraction(str(v)),
                   lambda v: fmt.number(v, lang, 2, strip=True), float)


def number(key: str, question: str, lang: str = "de", value=0) -> Predict:
    """Predict by typing a number (fractions, decimals with a comma or a point, per cent)."""
    fmt.check_lang(lang)

    def read(v):
        return fmt.read(v)[0] if isinstance(v, str) else Fraction(v)
    return Predict(key, question, lang, {"control": "number", "value": fmt.number(value, lang, 2, strip=True)},
                   "Zahl" if lang == "de" else "number", read, lambda v: fmt.number(v, lang, 2, strip=True),
                   lambda v: fmt.number(v, lang, 4, strip=True))


# --- answers ----------------------------------------------------------------------------------

class Answer(KitWidget):
    """Content (HTML and pictures) that waits for the prediction under ``key``."""

    kind = "answer"

    def __init__(self, key: str, content, lang: str):
        self.html, text = _joined(content)
        super().__init__(lang, gate=key, plain=text, teacher_html=self.html)
        self.push(**(self.content() if self.opened else {}))

    def content(self) -> dict:
        return {"html": self.html}


def answer(key: str, *content, lang: str = "de") -> Answer:
    """An answer (HTML strings and pictures, one below the other) shown once the prediction under
    ``key`` is locked in, or when the student presses "Zeigen / Show"."""
    return Answer(key, content, lang)


def comparison_text(key: str, exact, simulation=None, lang: str = "de", right=None, as_percent: bool = True,
                    explain: str = "", predicted=None, shown: str | None = None, later=None,
                    later_shown: str | None = None, estimate: bool = False) -> str:
    """The comparison as HTML: the prediction (if any; ``later``: one locked in after the first was
    compared), the exact value, the simulation and whether the exact value lies in its interval.
    ``exact`` is a number (a share when ``as_percent``, else points), or for a choice the text naming
    the right option(s), with ``right`` the set of their values; ``exact=None`` where only a
    simulation answers the question (the prediction is compared with it). ``estimate``: a choice whose
    right option(s) play-outs only estimate – named an estimate, never "the correct answer"."""
    w = WORDS[lang]
    lines = []
    target = exact if exact is not None else (simulation.mean if simulation is not None else None)

    def judged(value, label):
        if right is not None:
            verdict = (w["agrees"] if value in right else w["disagrees"]) if estimate else (
                w["right"] if value in right else w["wrong"])
            return f"<b>{_html.escape(label)}</b> – {verdict}"
        p = Fraction(value)
        off_word = w["off"] if exact is not None else w["off_sim"]
        if as_percent:
            off = abs(p - Fraction(target)) * 100
            return f"<b>{_html.escape(label)}</b>; {off_word}: {fmt.number(off, lang, 1)} {w['pp']}"
        off = abs(p - Fraction(target))
        return f"<b>{_html.escape(label)}</b>; {off_word}: {fmt.number(off, lang, 2)}"

    def label_of(value, label):
        if label is not None:
            return label
        if isinstance(value, str):
            return value
        return fmt.percent(value, lang, 0) if as_percent and right is None else fmt.number(value, lang, 2, strip=True)

    if predicted is not None:
        lines.append(f"{w['yours']}: {judged(predicted, label_of(predicted, shown))}")
        if later is not None and later != predicted:
            lines.append(f"{w['later']}: {judged(later, label_of(later, later_shown))} ({w['first_stays']})")
    if right is not None:
        lines.append(f"{w['estimate_is' if estimate else 'correct_are']}: <b>{exact}</b>")
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


class Reveal(KitWidget):
    """A button that shows (and hides again) a block of HTML. Its text form holds the whole
    solution: that is what nbval checks and what the teacher version shows."""

    kind = "reveal"

    def __init__(self, content: str, lang: str = "de", label: str | None = None, key: str | None = None,
                 text: str | None = None):
        self.content_html = content
        w = WORDS[lang]
        button = _quoted(label or w["show"], lang)
        super().__init__(lang, {"label": label or w["show"]}, gate=key,
                         plain=f"{w['answer']}:\n{text if text is not None else _plain_text(content)}",
                         teacher_html=content if key is not None else None,
                         student=f"{w['answer']}: {w['by_button']} {button}" + (f"\n{w['wait']}" if key else ""))
        self.body = ""
        self.push(html="")

    def press(self) -> None:
        self.body = "" if self.body else self.content_html
        self.push(html=self.body)

    toggle = press

    def handle(self, event: dict) -> None:
        super().handle(event)
        if event.get("do") == "press":
            self.press()


def reveal(*content, lang: str = "de", label: str | None = None, key: str | None = None) -> Reveal:
    """A solution behind a button: strings (HTML) and pictures, shown one below the other; with
    ``key``, the button itself waits for that prediction."""
    htmltext, text = _joined(content)
    return Reveal(htmltext, lang, label, key, text=text)


class Compare(KitWidget):
    """The "Compare" button: the prediction under ``key`` (the first, frozen at the first press, and
    any later one beside it) next to the exact value and the simulation."""

    kind = "reveal"

    def __init__(self, key: str, exact, simulation, lang: str, right, as_percent: bool, explain: str,
                 estimate: bool = False):
        self.key, self.args, self.estimate = key, (exact, simulation, lang, right, as_percent, explain), estimate
        w = WORDS[lang]
        super().__init__(lang, {"label": w["compare"], "key": key},
                         plain=f"{w['answer']}:\n"
                               + _plain_text(comparison_text(key, exact, simulation, lang, right, as_percent, explain,
                                                             estimate=estimate)),
                         student=f"{w['answer']}: {w['by_button']} {_quoted(w['compare'], lang)}\n{w['none']}")
        self.after = tuple(_HAND.get(key, ()))  # by hand first: the exact value comes after the check
        self.body = ""
        self.push(html="")

    def press(self) -> str:
        if self.key not in _STORE:
            self.body = WORDS[self.lang]["none"]
        elif not all(_HAND.get(self.key, {}).get(i) for i in self.after):
            self.body = WORDS[self.lang]["wait_hand"]
        else:
            r = _freeze(self.key)
            exact, simulation, lang, right, as_percent, explain = self.args
            self.body = comparison_text(self.key, exact, simulation, lang, right, as_percent, explain,
                                        predicted=r.first, shown=r.first_label, later=r.latest,
                                        later_shown=r.latest_label, estimate=self.estimate)
        self.push(html=self.body)
        return self.body

    def handle(self, event: dict) -> None:
        if event.get("do") == "press":
            self.press()


def compare(key: str, exact, simulation=None, lang: str = "de", right=None, as_percent: bool = True,
            explain: str = "", estimate: bool = False) -> Compare:
    """A "Compare" button: shows the prediction stored under ``key`` next to the exact value and the
    simulation (an ``Estimate``). Without a stored prediction it asks for one first. The first press
    freezes the prediction compared; one locked in later is shown beside it. ``estimate``: the right
    option(s) of a choice are only estimated (by play-outs), so the text says "estimate"."""
    fmt.check_lang(lang)
    return Compare(key, exact, simulation, lang, right, as_percent, explain, estimate)


# --- pictures that change ----------------------------------------------------------------------

class Explore(KitWidget):
    """A slider that redraws a picture: ``draw(value)`` returns a Picture (or HTML string)."""

    kind = "explore"

    def __init__(self, draw, lo: int, hi: int, value: int, step: int = 1, label: str = "n", lang: str = "de",
                 key: str | None = None):
        self.draw, self.value = draw, value
        first = draw(value)
        super().__init__(lang, {"label": label, "min": lo, "max": hi, "step": step, "value": value}, gate=key,
                         plain=getattr(first, "text", _text_of(first)),
                         teacher_html=_html_of(first) if key is not None else None)
        self._pic = first
        self.push(**(self.content() if self.opened else {}))

    def content(self) -> dict:
        return {"html": _html_of(self._pic), "value": self.value}

    def redraw(self, value: int | None = None) -> None:
        if value is not None:
            self.value = value
        self._pic = self.draw(self.value)
        self.plain = getattr(self._pic, "text", _text_of(self._pic))
        if self.gate is None:
            self.student = self.plain
        if self.opened:
            self.push(**self.content())

    def handle(self, event: dict) -> None:
        super().handle(event)
        if event.get("do") == "set" and self.opened:
            self.redraw(int(event["value"]))


def explore(draw, lo: int, hi: int, value: int | None = None, step: int = 1, label: str = "n", lang: str = "de",
            key: str | None = None) -> Explore:
    """A slider (``lo``..``hi``) that redraws ``draw(value)``; with ``key`` it waits for that prediction
    (an answer: a grid coloured by the engine, the law of large numbers at large n)."""
    return Explore(draw, lo, hi, hi if value is None else value, step, label, lang, key)


class Range:
    """A whole-number parameter of a simulation: a slider from ``lo`` to ``hi``."""

    def __init__(self, label: str, lo: int, hi: int, value: int, step: int = 1):
        if not lo <= value <= hi:
            raise ValueError(f"Range: {value} is not between {lo} and {hi}")
        self.label, self.lo, self.hi, self.value, self.step = label, lo, hi, value, step

    def spec(self, name: str) -> dict:
        return {"name": name, "label": self.label, "min": self.lo, "max": self.hi, "step": self.step, "value": self.value}

    def read(self, raw) -> int:
        v = int(raw)
        if not self.lo <= v <= self.hi:
            raise ValueError(f"{self.label}: {v} is not between {self.lo} and {self.hi}")
        return v

    def raw(self, value) -> int:
        return value


class Options:
    """A parameter of a simulation chosen from ``options`` (values or ``(label, value)`` pairs)."""

    def __init__(self, label: str, options, value):
        self.label = label
        self.pairs = [o if isinstance(o, tuple) else (str(o), o) for o in options]
        if value not in [v for _, v in self.pairs]:
            raise ValueError(f"Options: {value!r} is not one of the options")
        self.value = value

    def spec(self, name: str) -> dict:
        return {"name": name, "label": self.label, "options": [lab for lab, _ in self.pairs], "value": self.raw(self.value)}

    def read(self, raw):
        return self.pairs[int(raw)][1]

    def raw(self, value) -> int:
        return [v for _, v in self.pairs].index(value)


def new_seed(old: int | None = None) -> int:
    """A fresh seed for "Run again": six digits, so a student can type it in again."""
    while True:
        seed = 100_000 + secrets.randbelow(900_000)
        if seed != old:
            return seed


class Simulate(KitWidget):
    """A simulation students run again: ``run(seed, **params)`` returns a picture (or HTML, or a list
    of both); "Neu simulieren / Run again" draws a new seed; the seed field repeats a run."""

    kind = "simulate"

    def __init__(self, run, seed: int, params: dict, lang: str, key: str | None):
        self.run, self.params = run, params
        self.seed = seed
        self.values = {name: p.value for name, p in params.items()}
        plain = teacher_html = None
        if key is None or teacher_mode():  # a student's gated run waits until it opens (and runs only then)
            html_, text = self._result()
            plain = f"{text}\n{WORDS[lang]['seed']}: {seed}"
            teacher_html = f"{html_}<br>{WORDS[lang]['seed']}: {seed}" if key is not None else None
        super().__init__(lang, {"params": [p.spec(name) for name, p in params.items()]}, gate=key,
                         plain=plain or "", teacher_html=teacher_html)
        self.push(**(self.content() if self.opened else {}))

    def _result(self) -> tuple[str, str]:
        out = self.run(self.seed, **self.values)
        return _joined(out if isinstance(out, (list, tuple)) else [out])

    def content(self) -> dict:
        html_, _ = self._result()
        return {"html": html_, "seed": self.seed,
                "params": {name: p.raw(self.values[name]) for name, p in self.params.items()}}

    def rerun(self, seed: int | None = None, **values) -> None:
        """Run with ``seed`` (a new one if None) and the parameters ``values`` (the others kept)."""
        for name, v in values.items():
            if name not in self.params:
                raise ValueError(f"simulate: no parameter {name!r}")
            self.values[name] = v
        self.seed = new_seed(self.seed) if seed is None else int(seed)
        if self.opened:
            self.push(**self.content())

    def handle(self, event: dict) -> None:
        super().handle(event)
        if event.get("do") in ("run", "again") and self.opened:
            values = {name: self.params[name].read(raw) for name, raw in (event.get("params") or {}).items()
                      if name in self.params}
            seed = None if event["do"] == "again" else event.get("seed")
            self.rerun(seed, **values)


def simulate(run, key: str | None = None, seed: int = 1, params: dict | None = None, lang: str = "de") -> Simulate:
    """A simulation to run again: ``run(seed, **params)`` -> picture, HTML or a list of both. ``params``
    maps a name to ``Range(...)`` or ``Options(...)`` (controls the student changes). The stored
    output is the run with ``seed``; with ``key`` it waits for that prediction."""
    return Simulate(run, seed, dict(params or {}), lang, key)


# --- by hand --------------------------------------------------------------------------------------

def _needs_prediction(widget: KitWidget, key: str | None) -> bool:
    if key is not None and key not in _STORE:
        widget.push(feedback=widget.words["none"])
        return True
    return False


class Grid(KitWidget):
    """The 36 throws of two dice to click: each click moves a cell on to the next class; "Prüfen"
    outlines the cells that are not right yet."""

    kind = "grid"

    def __init__(self, key, question, answer, classes, lang, labels, title):
        self.key = key
        items = list(classes.items())
        if not 2 <= len(items) <= 5:
            raise ValueError("grid: two to five classes (the first: the cells nobody clicked)")
        self.index = {k: i for i, (k, _) in enumerate(items)}
        get = answer if callable(answer) else answer.__getitem__
        self.answer = {}
        for a in range(1, 7):
            for b in range(1, 7):
                k = get(a, b) if callable(answer) else get((a, b))
                if k not in self.index:
                    raise ValueError(f"grid: the class {k!r} of throw {a}, {b} has no entry in classes")
                self.answer[f"{a},{b}"] = self.index[k]
        w = WORDS[lang]
        spec_classes = [{"label": text, "colour": colour, "symbol": "✓↻✗●"[i]}
                        for i, (_, (text, colour)) in enumerate(items[1:])]
        lab = None
        if labels is not None:
            get_label = labels if callable(labels) else labels.__getitem__
            lab = {f"{a},{b}": str(get_label(a, b) if callable(labels) else get_label((a, b)))
                   for a in range(1, 7) for b in range(1, 7)}
        keys = [k for k, _ in items]
        picture = dice_grid(lambda a, b: keys[self.answer[f"{a},{b}"]], classes, lang, labels=labels, title=title or question)
        self.counts = "; ".join(f"{text}: {fmt.ratio(sum(v == i for v in self.answer.values()), 36, lang)}"
                                for i, (_, (text, _)) in enumerate(items))
        super().__init__(lang, {"question": question, "title": title, "classes": spec_classes, "labels": lab,
                                "unmarked": items[0][1][0], "key": key},
                         plain=f"{w['by_hand']} ({w['grid']}): {question}\n{picture.text}", teacher_html=picture.svg,
                         student=f"{w['by_hand']} ({w['grid']}): {question}")
        self.hand = _hand(self, key, question)
        spec = json.loads(self.spec)
        spec["words"]["clicks"] = list(w["clicks"][:len(items) - 1])
        self.spec = json.dumps(spec, ensure_ascii=False)
        self.push()

    def check(self, cells: dict) -> list[str]:
        """The cells (``"a,b"``) whose class is not right; pushes the feedback."""
        if _needs_prediction(self, self.key):
            return []
        wrong = [c for c, want in self.answer.items() if int(cells.get(c, 0)) != want]
        w = self.words
        _checked(self.key, self.hand)
        if wrong:
            self.push(feedback=w["cells_wrong"].format(k=len(wrong)), wrong=wrong)
        else:
            self.push(feedback=f"<span class='stl-ok'>{w['all_right']}</span> {_html.escape(self.counts)}", wrong=[])
        return wrong

    def handle(self, event: dict) -> None:
        if event.get("do") == "check":
            self.check(event.get("cells") or {})


def grid(key: str | None, question: str, answer, classes: dict, lang: str = "de", labels=None, title: str = "") -> Grid:
    """A 6×6 grid of two-dice throws to mark by hand, then check. ``answer``: ``{(a, b): class}`` or a
    function ``(a, b) -> class`` (from the engine); ``classes``: ``{class: (text, colour)}``, the first
    for the cells nobody clicks (white in the page, its colour in the answer picture), the others in
    the order a click cycles through them; ``labels``: text written into each cell (a hint, e.g. the
    sum). With ``key`` the check waits for that prediction."""
    fmt.check_lang(lang)
    if any(not colour for _, (_, colour) in classes.items()):
        raise ValueError("grid: every class needs a colour")
    return Grid(key, question, answer, classes, lang, labels, title)


class Tree(KitWidget):
    """A tree diagram with an input at every branch (and at leaves that carry a value), then check."""

    kind = "tree"

    def __init__(self, key, question, root: Node, lang, title, result, col, row):
        self.key = key
        w = WORDS[lang]
        self.expected: dict[str, Fraction] = {}
        self.result = result
        items, edges, leaves = [], [], []
        depth, ys = [0], {}

        def half(node):
            return max(24, 3.8 * len(node.label) + 10)

        def place(node, d):
            depth[0] = max(depth[0], d)
            if not node.branches:
                leaves.append(node)
                ys[id(node)] = len(leaves) - 1
                return ys[id(node)]
            below = [place(child, d + 1) for _, child in node.branches]
            ys[id(node)] = (below[0] + below[-1]) / 2
            return ys[id(node)]

        place(root, 0)
        widest = max(half(n) for n in _walk(root))
        col = max(col, round(2 * widest + 150))  # room for the input on the branch between two nodes
        y_of = lambda n: 24 + ys[id(n)] * row  # noqa: E731
        ids = {"b": 0, "v": 0}

        def draw(node, d, path):
            x, y = 12 + widest + d * col, y_of(node)
            items.append({"type": "node", "label": node.label, "x": round(x), "y": round(y)})
            right = x + half(node)
            if node.value is not None:
                i = f"v{ids['v']}"
                ids["v"] += 1
                self.expected[i] = Fraction(node.value)
                items.append({"type": "input", "id": i, "x": round(right + 48), "y": round(y),
                              "label": f"{w['path']}: {' → '.join(path)}"})
                right += 96
            if node.note:
                items.append({"type": "note", "text": node.note, "x": round(right + 8), "y": round(y)})
            for p, child in node.branches:
                cx, cy = 12 + widest + (d + 1) * col, y_of(child)
                x1, x2 = x + half(node), cx - half(child)
                edges.append([round(x1), round(y), round(x2), round(cy)])
                i = f"b{ids['b']}"
                ids["b"] += 1
                self.expected[i] = Fraction(p)
                t = 0.55
                items.append({"type": "input", "id": i, "x": round(x1 + (x2 - x1) * t), "y": round(y + (cy - y) * t),
                              "label": f"{w['branch']}: {' → '.join(path + [child.label])}"})
                draw(child, d + 1, path + [child.label])

        draw(root, 0, [root.label])
        notes = max((len(n.note) for n in leaves), default=0) * 7.5
        width = round(12 + 2 * widest + depth[0] * col + 110 + notes + 20)
        height = round(24 + (len(leaves) - 1) * row + 26)
        if result is not None:
            self.expected["result"] = Fraction(result[1])
        solved = tree_picture(root, lang, title=title)
        extra = ""
        if result is not None:
            extra = fmt.stated(result[0], fmt.probability(result[1], lang))
        leaf_values = [f"{w['path']} {' → '.join(p)}: {fmt.fraction(v, lang)}" for p, v in _leaf_values(root)]
        text = "\n".join([f"{w['by_hand']} ({w['tree']}): {question}", solved.text] + leaf_values + ([extra] if extra else []))
        super().__init__(lang, {"question": question, "items": items, "edges": edges, "width": width, "height": height,
                                "result": result[0] if result is not None else None, "key": key},
                         plain=text, teacher_html=solved.svg + (f"<br>{_html.escape(extra)}" if extra else ""),
                         student=f"{w['by_hand']} ({w['tree']}): {question}" + (f"\n{result[0]}" if result else ""))
        self.hand = _hand(self, key, question)
        self.push()

    def check(self, values: dict) -> dict:
        """``{input id: True/False}`` for the inputs filled in; pushes the marks and the feedback."""
        if _needs_prediction(self, self.key):
            return {}
        marks = {}
        for i, want in self.expected.items():
            typed = str(values.get(i, "") or "").strip()
            if typed:
                ok = fmt.matches(typed, want)
                marks[i] = bool(ok)
        ok = sum(marks.values())
        bad = len(marks) - ok
        empty = len(self.expected) - len(marks)
        w = self.words
        if not bad and not empty:
            feedback = f"<span class='stl-ok'>{w['all_right']}</span>"
        else:
            feedback = w["inputs"].format(ok=ok, bad=bad, empty=empty)
        self.push(feedback=feedback, marks=marks)
        if marks:  # something typed: the work was checked
            _checked(self.key, self.hand)
        return marks

    def handle(self, event: dict) -> None:
        if event.get("do") == "check":
            self.check(event.get("values") or {})


def _walk(node):
    yield node
    for _, child in node.branches:
        yield from _walk(child)


def _leaf_values(node, path=None):
    path = (path or []) + [node.label]
    if node.value is not None:
        yield path, node.value
    for _, child in node.branches:
        yield from _leaf_values(child, path)


def tree(key: str | None, question: str, root: Node, lang: str = "de", title: str = "", result=None,
         col: int = 190, row: int = 58) -> Tree:
    """A tree diagram to fill in: an input at every branch (its probability, from the engine via the
    ``Node``) and at every node given a ``value`` (e.g. a path's probability); ``result``: an optional
    ``(label, exact)`` asked below the tree (e.g. ``("P(mindestens eine 1)", p)``). "Prüfen" marks each
    input right or wrong; with ``key`` it waits for that prediction."""
    return Tree(key, question, root, lang, title, result, col, row)


class Check(KitWidget):
    """A result worked out by hand: type it, then "Prüfen"."""

    kind = "check"

    def __init__(self, key, label, exact, lang, shown):
        self.key, self.exact = key, Fraction(exact)
        w = WORDS[lang]
        head = fmt.label_before(label, shown).rstrip()  # never "= ≈"
        super().__init__(lang, {"label": label, "key": key}, plain=f"{w['by_hand']}: {fmt.stated(label, shown)}",
                         teacher_html=f"{_html.escape(head)} <b>{_html.escape(shown)}</b>",
                         student=f"{w['by_hand']}: {label}")
        self.shown = shown
        self.hand = _hand(self, key, label)
        self.push()

    def check(self, typed: str) -> bool | None:
        if _needs_prediction(self, self.key):
            return None
        ok = fmt.matches(typed, self.exact)
        w = self.words
        if ok is None:
            self.push(feedback=w["unreadable"], ok=None)
        elif ok:
            self.push(feedback=f"<span class='stl-ok'>{w['is_right']}</span> {_html.escape(self.shown)}", ok=True)
        else:
            self.push(feedback=w["is_wrong"], ok=False)
        if ok is not None:
            _checked(self.key, self.hand)
        return ok

    def handle(self, event: dict) -> None:
        if event.get("do") == "check":
            self.check(str(event.get("value", "")))


def check(key: str | None, label: str, exact, lang: str = "de", as_percent: bool = False) -> Check:
    """A result to work out by hand (``exact`` from the engine): the student types it (fraction,
    decimal, per cent) and presses "Prüfen"; right within the exactness typed."""
    fmt.check_lang(lang)
    f = Fraction(exact)
    shown = fmt.probability(f, lang) if as_percent else (
        fmt.fraction(f, lang) + ("" if f.denominator == 1 else f" ≈ {fmt.number(f, lang)}"))
    return Check(key, label, f, lang, shown)
