"""Lesson questions: each declared once, in its game's package, and read from there by every page
that asks it (the class board's poll, the live class's poll, ``spieltisch lesson questions``).

A game's ``questions.py`` builds ``Question`` objects next to its lesson numbers: the prompt in German
and English, the kind of answer (``choice``: options; ``number`` and ``share``: ranges of the answer,
``bins``), the **exact** answer as a function that asks the game's own analysis for a ``Fraction``
(or, where there is none, an ``Estimate`` with its method), a seeded **simulation** the board can run
on the projector, the **by-hand** scaffold the lesson uses first (grid, tree, count: a short spec and
the values a student's work is checked against) and the worksheet's lines. ``core`` marks the
lesson's core questions (the 45 minutes); the others are its extensions.

Nothing here imports a game: the games register their questions with ``core.registry`` (by module
path, imported on first use), and this module only checks, serialises and reveals them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .errors import SpieltischError, short
from .stats import mean_ci, proportion_ci

KINDS = ("choice", "number", "share")
UNITS = ("share", "points", "count", "number")  # how the exact value reads: 61,1 %, −25,63 Punkte, 30, 1,67
LANGS = ("de", "en")
MAX_COUNT = 10_000  # votes per option on the board
MAX_SIM_N = 20_000
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class QuestionError(SpieltischError):
    """A refused question id, language or count; ``text`` says why in German and English."""

    def __init__(self, en: str, de: str):
        super().__init__(en)
        self.text = {"en": en, "de": de}

    def in_lang(self, lang: str) -> str:
        return self.text["de" if lang == "de" else "en"]


def _words(value, what: str) -> dict:
    if not isinstance(value, dict) or set(value) != set(LANGS) or not all(
            isinstance(value[k], str) and value[k].strip() for k in LANGS):
        raise ValueError(f"{what} needs a German and an English text ({{'de': …, 'en': …}}), got {short(value)}")
    return value


def check_lang(lang) -> str:
    if lang not in LANGS:
        raise QuestionError(f"language is de or en, not {short(lang)}", f"Sprache ist de oder en, nicht {short(lang)}")
    return lang


@dataclass(frozen=True)
class Option:
    key: str
    label: dict  # {"de", "en"}

    def __post_init__(self):
        _words(self.label, f"option {self.key}")


@dataclass(frozen=True)
class Check:
    """One value a student's work by hand is checked against (the lesson's "Prüfen"). ``value`` gives a
    number (a ``Fraction``, a ``Counted``) or, for a blank that takes words (the smallest hands), the
    words in German and English, computed from the game; ``line``: the index of the worksheet line
    whose blank it fills (the answer key shows it there, and every line with blanks needs one)."""

    label: dict
    value: Callable[[], object]
    line: int | None = None
    form: Callable[[str], str] | None = None  # lang -> how a teacher reads a long exact value: 1 − (15625/46656)³

    def __post_init__(self):
        _words(self.label, "a check's label")
        if self.line is not None and (type(self.line) is not int or self.line < 0):
            raise ValueError(f"a check's line is a worksheet line's index, not {short(self.line)}")

    def json(self) -> dict:
        v = self.value()
        out = {"label": dict(self.label), **({"text": dict(_words(v, "a check's words"))} if isinstance(v, dict)
                                             else fraction_json(v))}
        if self.form is not None:
            out["form"] = {lang: self.form(lang) for lang in LANGS}
        return out if self.line is None else {**out, "line": self.line}


@dataclass(frozen=True)
class Rounded:
    """A worksheet blank filled with a rounded value (after "≈", or where the exact fraction is too long
    to read): the answer key shows it as the lesson rounds it (``show_value``: 96,2 %), its number alone
    where the line writes the unit after the blank ("≈ ______ %"), and writes "≈" for an "=" before it
    where the rounding is not exact."""

    value: object  # a Fraction


@dataclass(frozen=True)
class Term:
    """A worksheet blank filled with a calculation rather than one number ("(15625/46656)³"): its text
    (digits and signs, the same in both languages) and its value, which the text must give."""

    text: str
    value: object  # a Fraction


@dataclass(frozen=True)
class ByHand:
    """The work on paper before the engine: ``kind`` grid (the 36 throws), tree (a tree diagram),
    count or calc; ``spec`` a JSON-ready description (the worksheet's grid or tree); ``task`` what
    to do; ``checks`` the values the work must reach (a later step may gate the exact value on them);
    ``fills`` every blank of the worksheet's lines, filled in, for the answer key: ``{line index:
    (value per blank, in order)}``, each value a number (a ``Counted`` in its unreduced form), a
    ``Rounded``, a ``Term`` or words in both languages – computed from the game like the checks."""

    kind: str
    task: dict
    spec: dict = field(default_factory=dict)
    checks: tuple = ()
    fills: Callable[[], dict] | None = None

    def __post_init__(self):
        if self.kind not in ("grid", "tree", "count", "calc"):
            raise ValueError(f"by hand is grid, tree, count or calc, not {short(self.kind)}")
        _words(self.task, "the by-hand task")


@dataclass(frozen=True)
class Simulation:
    """``sample(n, seed)``: n trials, each True/False (a share) or a number (a mean)."""

    sample: Callable[[int, int], list]
    n: int
    seed: int
    what: dict  # one trial, in words
    scale: int = 1  # True/False trials estimate ``scale`` × their share (blind tries × all tries: a count)

    def __post_init__(self):
        _words(self.what, "the simulation's trial")
        if not (isinstance(self.n, int) and 1 <= self.n <= MAX_SIM_N):
            raise ValueError(f"a simulation has 1 to {MAX_SIM_N} trials")


@dataclass(frozen=True)
class Estimate:
    """An answer with no exact value in the program: a value (or None) and how it is found."""

    method: dict
    value: Callable[[], float] | None = None

    def __post_init__(self):
        _words(self.method, "an estimate's method")


@dataclass(frozen=True)
class Reading:
    """Another reading of the rules (or of the question) and the answer it gives. ``name`` (short: Lesart
    „nur eigene“): where given, a range that holds this reading's value counts as "right in this
    reading" – shown and counted apart from the right answer (a student who reasoned right in the
    other reading is not simply wrong)."""

    label: dict
    value: Callable[[], Fraction]
    name: dict | None = None

    def __post_init__(self):
        _words(self.label, "a reading's label")
        if self.name is not None:
            _words(self.name, "a reading's name")


@dataclass(frozen=True)
class Question:
    game: str  # the ruleset id (wuerfel-joker-2)
    family: str  # the lesson's card id (wuerfel-joker)
    id: str  # unique over all games: <family>-<key>
    key: str  # the lesson's prediction key (q1)
    kind: str
    title: dict
    prompt: dict
    unit: str
    exact_of: dict  # what the exact value (or the estimate) is a value of
    exact: Callable[[], Fraction] | None = None
    estimate: Estimate | None = None
    options: tuple = ()
    bins: tuple = ()  # [lo, hi) per range, ascending and touching
    bin_names: dict | None = None  # the ranges' labels where the lesson words them itself ("25 % bis 50 %")
    right: Callable[[], set] | None = None  # choice: the right options' keys
    values: Callable[[], dict] | None = None  # choice: each option's exact value, where it has one
    values_of: dict | None = None  # what ``values`` are values of, where the exact value is not the right option's
    readings: tuple = ()
    simulation: Simulation | None = None
    by_hand: ByHand | None = None
    worksheet: dict = field(default_factory=lambda: {"de": [], "en": []})
    notes: dict | None = None
    core: bool = False

    def __post_init__(self):
        for name in ("id", "key", "game", "family"):
            if not _ID.match(getattr(self, name) or ""):
                raise ValueError(f"a question's {name} is lower case words joined by hyphens, got {short(getattr(self, name))}")
        if not self.id.startswith(self.family + "-"):
            raise ValueError(f"question {self.id} is named after its lesson ({self.family}-…)")
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind is {', '.join(KINDS)}, not {short(self.kind)}")
        if self.unit not in UNITS:
            raise ValueError(f"{self.id}: unit is {', '.join(UNITS)}, not {short(self.unit)}")
        for name in ("title", "prompt", "exact_of"):
            _words(getattr(self, name), f"{self.id}: {name}")
        if self.notes is not None:
            _words(self.notes, f"{self.id}: notes")
        if self.values_of is not None:
            _words(self.values_of, f"{self.id}: values_of")
        if (self.exact is None) == (self.estimate is None):
            raise ValueError(f"{self.id}: an exact value or an estimate, exactly one of them")
        if self.kind == "choice":
            if not 2 <= len(self.options) <= 16 or self.bins or self.right is None:
                raise ValueError(f"{self.id}: a choice has 2 to 16 options, the right ones and no bins")
            keys = [o.key for o in self.options]
            if len(set(keys)) != len(keys):
                raise ValueError(f"{self.id}: two options share a key")
        else:
            if len(self.bins) < 2 or self.options or self.right is not None:
                raise ValueError(f"{self.id}: a {self.kind} question has bins (at least two), no options")
            if self.bin_names is not None and (set(self.bin_names) != set(LANGS) or any(
                    len(self.bin_names[k]) != len(self.bins) for k in LANGS)):
                raise ValueError(f"{self.id}: bin_names are one label per range, in German and English")
            for (lo, hi), nxt in zip(self.bins, list(self.bins[1:]) + [None]):
                if not lo < hi or (nxt is not None and nxt[0] != hi):
                    raise ValueError(f"{self.id}: bins are ascending ranges [lo, hi) that touch")
        if set(self.worksheet) != set(LANGS) or not all(isinstance(v, (list, tuple)) for v in self.worksheet.values()):
            raise ValueError(f"{self.id}: worksheet lines in German and English")

    # --- values -------------------------------------------------------------------------------------
    def exact_value(self) -> Fraction | None:
        return None if self.exact is None else Fraction(self.exact())

    def reference(self) -> float | None:
        """The value the class's answers are held against: the exact value, else the estimate's."""
        if self.exact is not None:
            return self.exact_value()
        return None if self.estimate.value is None else float(self.estimate.value())

    def right_indexes(self, ref=None) -> list:
        if self.kind == "choice":
            right = self.right()
            return [i for i, o in enumerate(self.options) if o.key in right]
        ref = self.reference() if ref is None else ref
        if ref is None:
            return []
        last = len(self.bins) - 1
        return [i for i, (lo, hi) in enumerate(self.bins) if lo <= ref < hi or (i == last and ref == hi)]

    def reading_indexes(self, reading: Reading, value=None) -> list:
        """The ranges (or options) right in another, named reading and not right in the engine's."""
        if reading.name is None or self.kind == "choice":
            return []
        value = Fraction(reading.value()) if value is None else value
        return [i for i in self.right_indexes(value) if i not in self.right_indexes()]

    def labels(self, lang: str) -> list:
        if self.kind == "choice":
            return [o.label[lang] for o in self.options]
        if self.bin_names is not None:
            return list(self.bin_names[lang])
        return [bin_label(lo, hi, self.kind, lang) for lo, hi in self.bins]

    # --- JSON -----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """Everything about the question, both languages, values computed (``spieltisch lesson
        questions --json``)."""
        out = {"game": self.game, "family": self.family, "id": self.id, "key": self.key, "kind": self.kind,
               "core": self.core, "unit": self.unit, "title": dict(self.title), "prompt": dict(self.prompt)}
        if self.kind == "choice":
            out["options"] = [{"key": o.key, "label": dict(o.label)} for o in self.options]
        else:
            out["bins"] = [{"lo": _num_json(lo), "hi": _num_json(hi),
                            "label": {lang: self.labels(lang)[i] for lang in LANGS}} for i, (lo, hi) in enumerate(self.bins)]
        if self.exact is not None:
            out["exact"] = {**fraction_json(self.exact()), "of": dict(self.exact_of)}
        else:
            v = self.estimate.value
            out["estimate"] = {"float": None if v is None else float(v()), "method": dict(self.estimate.method),
                               "of": dict(self.exact_of)}
        out["right"] = self.right_indexes()
        if self.values is not None:
            out["values"] = {k: fraction_json(v) for k, v in self.values().items()}
        if self.readings:
            out["readings"] = [{"label": dict(r.label), **fraction_json(r.value()),
                                **({"name": dict(r.name), "right": self.reading_indexes(r)} if r.name else {})}
                               for r in self.readings]
        if self.simulation is not None:
            s = self.simulation
            out["simulation"] = {"n": s.n, "seed": s.seed, "what": dict(s.what)}
        if self.by_hand is not None:
            b = self.by_hand
            out["by_hand"] = {"kind": b.kind, "task": dict(b.task), "spec": b.spec,
                              "checks": [c.json() for c in b.checks]}
        out["worksheet"] = {lang: list(self.worksheet[lang]) for lang in LANGS}
        if self.notes is not None:
            out["notes"] = dict(self.notes)
        return out

    def summary(self, lang: str) -> dict:
        """What a poll shows before the reveal: no answer."""
        return {"id": self.id, "game": self.game, "family": self.family, "key": self.key, "kind": self.kind,
                "core": self.core, "title": self.title[lang], "question": self.prompt[lang],
                "notes": None if self.notes is None else self.notes[lang], "options": self.labels(lang)}

    # --- the reveal ---------------------------------------------------------------------------------
    def simulate(self):
        """The seeded simulation's estimate (an ``Estimate`` of core.stats), or None."""
        if self.simulation is None:
            return None
        s = self.simulation
        values = s.sample(s.n, s.seed)
        if all(isinstance(v, bool) for v in values):
            est = proportion_ci(sum(values), len(values))
            if s.scale != 1:
                est = type(est)(est.mean * s.scale, est.lo * s.scale, est.hi * s.scale, est.n)
            return est
        return mean_ci([float(v) for v in values])

    def reveal(self, counts, lang: str = "de", simulated=None) -> dict:
        """The class's answers (``counts`` per option or range) next to the exact value (or the
        estimate, labelled as one) and the seeded simulation."""
        check_lang(lang)
        size = len(self.options) if self.kind == "choice" else len(self.bins)
        if not isinstance(counts, (list, tuple)) or len(counts) != size or not all(
                type(c) is int and 0 <= c <= MAX_COUNT for c in counts):
            raise QuestionError(f"counts are {size} whole numbers from 0 to {MAX_COUNT}",
                                f"die Stimmen sind {size} ganze Zahlen von 0 bis {MAX_COUNT}")
        de = lang == "de"
        labels = self.labels(lang)
        reference = self.reference()  # once: an exact value may take a solver's run
        right = self.right_indexes(reference)
        votes = sum(counts)
        hits = sum(counts[i] for i in right)
        distribution = [{"label": labels[i], "count": c, "share": (c / votes if votes else 0.0), "right": i in right}
                        for i, c in enumerate(counts)]
        show = lambda x: show_value(x, self.unit, lang)  # noqa: E731
        of = self.exact_of[lang]
        names = ", ".join(labels[i] for i in right)
        out = {"id": self.id, "question": self.prompt[lang], "distribution": distribution, "right": right,
               "votes": votes, "hits": hits}
        if self.exact is not None:
            exact = reference
            out["exact"] = fraction_json(exact)
            vals = self.values() if self.values is not None and self.values_of is not None else None
            if vals:
                # both options' values, labelled, the right one first (as the answer key): the exact value
                # alone (Scratch Island: cross last) would lead the line as if it were the right option's
                order = [i for i in right] + [i for i in range(len(self.options)) if i not in right]
                shown = "; ".join(f"{labels[i]}: {approx_text(vals[self.options[i].key], self.unit, lang)}"
                                  for i in order if self.options[i].key in vals)
                out["exact_text"] = f"{'Exakt' if de else 'Exact'}: {self.values_of[lang]}: {shown}"
            else:
                out["exact_text"] = f"{'Exakt' if de else 'Exact'}: {of} = {approx_text(exact, self.unit, lang)}"
            out["exact_text"] += f" – {'richtig' if de else 'right'}: {names}" if names else ""
        else:
            value = reference
            out["exact"] = None
            out["estimate"] = {"float": value, "method": self.estimate.method[lang]}
            out["exact_text"] = (f"{'Geschätzt (kein exakter Wert)' if de else 'Estimated (no exact value)'}: {of}"
                                 + (f" ≈ {show(value)}" if value is not None else "")
                                 + f" – {self.estimate.method[lang]}" + (f" – {'richtig' if de else 'right'}: {names}" if names else ""))
        if self.values is not None:
            vals = self.values()
            out["values"] = {k: fraction_json(v) for k, v in vals.items()}
            if self.exact is None or self.values_of is None:  # else the exact line lists them already
                out["values_text"] = "; ".join(f"{o.label[lang]}: {show(vals[o.key])}" for o in self.options if o.key in vals)
        if self.readings:
            found = [(r, Fraction(r.value())) for r in self.readings]
            out["readings"] = [{"label": r.label[lang], **fraction_json(v)} for r, v in found]
            out["readings_text"] = "; ".join(f"{r.label[lang]}: {show(v)}" for r, v in found)
            other = []
            for (r, v), entry in zip(found, out["readings"]):
                idx = self.reading_indexes(r, v)
                if r.name is None or not idx:
                    continue
                entry.update(name=r.name[lang], right=idx, hits=sum(counts[i] for i in idx))
                for i in idx:
                    distribution[i]["right_in"] = r.name[lang]
                other.append((r.name[lang], idx, entry["hits"]))
        sim = self.simulate() if simulated is None else simulated  # one run may serve both languages
        if sim is not None:
            s = self.simulation
            out["simulation"] = sim.to_json()
            out["simulation_text"] = (f"Simulation ({s.what[lang]}; {s.n} {'Versuche' if de else 'trials'}, "
                                      f"{'Startwert' if de else 'seed'} {s.seed}): {show(sim.mean)}, "
                                      f"{'95-%-Intervall' if de else '95% interval'} {show(sim.lo)} – {show(sim.hi)}")
            if self.exact is not None and not Fraction(sim.lo) <= Fraction(reference) <= Fraction(sim.hi):
                # said, as the lesson's comparison says it: a seed is not changed to hide a miss
                out["simulation_text"] += (" – der exakte Wert liegt außerhalb des 95-%-Intervalls – das passiert bei "
                                           "etwa jeder 20. Simulation" if de else
                                           " – the exact value is outside the 95% interval – that happens in about "
                                           "one simulation in 20")
        else:
            out["simulation"] = None
            out["simulation_text"] = "Keine Simulation." if de else "No simulation."
        out["class_text"] = ((f"{'Klasse' if de else 'Class'}: {hits} {'von' if de else 'of'} {votes} "
                              f"{'richtig' if de else 'right'}"
                              + "".join(f"; {n} {'richtig in der Lesart' if de else 'right in the reading'} {name} ({', '.join(labels[i] for i in idx)})"
                                        for name, idx, n in (other if self.readings else ())))
                             if votes else ("Keine Stimmen gezählt." if de else "No votes counted."))
        return out


class Counted(Fraction):
    """A value as the lesson counts it by hand: ``total`` over ``of`` equally likely cases (14 of the 32
    throws that count; a mean: the points of the 32 throws added up, over 32). It equals the reduced
    fraction everywhere (arithmetic gives a plain ``Fraction``); the answer key and ``--json`` also show
    the unreduced form, from the declaration, never guessed from the denominator."""

    __slots__ = ("total", "of")

    def __new__(cls, total: int, of: int):
        if type(total) is not int or type(of) is not int or of < 1:
            raise ValueError(f"a count is a whole number over a positive whole number, not {short(total)}/{short(of)}")
        self = super().__new__(cls, total, of)
        self.total, self.of = total, of
        return self

    def __reduce__(self):
        return (type(self), (self.total, self.of))

    def __copy__(self):  # immutable, and Fraction's own copy would drop the count
        return self

    def __deepcopy__(self, memo):
        return self

    def unreduced(self) -> str | None:
        """``"14/32"`` where it differs from the reduced fraction, else None."""
        return None if self.of == self.denominator else f"{self.total}/{self.of}"


# --- formats ----------------------------------------------------------------------------------------
def fraction_json(f) -> dict:
    """``{"fraction": "13/36", "float": 0.36…}`` as the CLI prints exact values (core.advice.value_json)."""
    out = {}
    if isinstance(f, Counted) and f.unreduced():
        out["counted"] = f.unreduced()
    f = Fraction(f)
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f), **out}


def fraction_text(f: Fraction) -> str:
    f = Fraction(f)
    text = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    return text.replace("-", "−")


def _num_json(x):
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def _num(x, lang: str, digits: int) -> str:
    """``x`` with at most ``digits`` decimals, rounded as at school: half away from zero, from the exact
    value (a ``Fraction``; a float is taken as its shortest decimal, its repr: 0.6675 is 66,8 %), as
    ``lesson.fmt.number`` does –
    9/16 is 56,3 % and −205/8 is −25,63 in the key, the board and the notebook alike (``f"{x:.1f}"``
    would round 56,25 to the even 56,2)."""
    q = (Fraction(repr(x)) if isinstance(x, float) else Fraction(x)) * 10 ** digits
    n = (abs(q.numerator) * 2 + q.denominator) // (2 * q.denominator)
    whole, frac = divmod(n, 10 ** digits)
    text = str(whole)
    if digits:
        tail = str(frac).rjust(digits, "0").rstrip("0")
        text += ("," if lang == "de" else ".") + tail if tail else ""
    return ("−" if q < 0 and n else "") + text


def is_shown_exactly(x, unit: str, lang: str) -> bool:
    """Whether ``show_value`` gives ``x`` without rounding (6, 100 %, 62,5 %): then it reads "=", not "≈"."""
    x = Fraction(x)
    scaled = x * 100 if unit == "share" else x
    digits = 1 if unit == "share" else (0 if unit == "count" and x.denominator == 1 else 2)
    return (scaled * 10 ** digits).denominator == 1


def show_value(x, unit: str, lang: str) -> str:
    """``x`` (a Fraction where exact, else a float) as the lesson reads it: 56,3 %, −25,63 Punkte, 6, 1,67."""
    if unit == "share":
        pct = _num(100 * x, lang, 1)
        return f"{pct} %" if lang == "de" else f"{pct}%"
    if unit == "points":
        return f"{_num(x, lang, 2)} {'Punkte' if lang == 'de' else 'points'}"
    if unit == "count":
        return _num(x, lang, 0) if Fraction(x).denominator == 1 else _num(x, lang, 2)
    return _num(x, lang, 2)


def approx_text(x, unit: str, lang: str) -> str:
    """An exact value and its rounding: "9/16 ≈ 56,3 %", "5/8 = 62,5 %", a whole count just "6",
    "1 = 100 %" – "≈" only where the shown value is rounded."""
    x = Fraction(x)
    shown = show_value(x, unit, lang)
    if x.denominator == 1 and unit in ("count", "number"):
        return fraction_text(x)
    return f"{fraction_text(x)} {'=' if is_shown_exactly(x, unit, lang) else '≈'} {shown}"


def bin_label(lo, hi, kind: str, lang: str) -> str:
    if kind == "share":
        def pct(x):
            t = _num(100 * Fraction(x), lang, 1)
            return f"{t} %" if lang == "de" else f"{t}%"
        if lo == 0:
            return f"{'unter' if lang == 'de' else 'under'} {pct(hi)}"
        if hi >= 1:
            return f"{'ab' if lang == 'de' else 'from'} {pct(lo)}"
        return f"{pct(lo)} – {'unter' if lang == 'de' else 'under'} {pct(hi)}"
    lo_f, hi_f = Fraction(lo), Fraction(hi)
    if lo_f.denominator == 1 and hi_f.denominator == 1:  # whole numbers: [lo, hi) is lo … hi − 1
        return str(int(lo_f)) if hi_f - lo_f == 1 else f"{int(lo_f)} – {int(hi_f) - 1}"
    return f"{_num(lo_f, lang, 2)} – {'unter' if lang == 'de' else 'under'} {_num(hi_f, lang, 2)}"


def share_bins(*edges) -> tuple:
    """Bins of a share from its edges in percent: share_bins(0, 25, 50, 75, 100)."""
    fr = [Fraction(e, 100) for e in edges]
    return tuple(zip(fr, fr[1:]))


def whole_bins(*edges) -> tuple:
    """Bins of whole numbers from their edges: whole_bins(1, 2, 3, 9) is 1, 2, 3 – 8."""
    return tuple(zip(edges, edges[1:]))

