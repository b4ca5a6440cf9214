"""The lesson kit: number formats, pictures, the widgets (predictions gate their answers, the first
prediction is frozen, work by hand, simulations run again), the worksheet and the two versions."""

import json
import re
from fractions import Fraction

import pytest

from spieltisch.core.stats import Estimate
from spieltisch.lesson import Node, dice_grid, fmt, histogram, pictures, running_share, sheet, tree, versions


def test_german_and_english_numbers():
    assert fmt.number(Fraction(7, 20), "de") == "0,35"
    assert fmt.number(Fraction(7, 20), "en") == "0.35"
    assert fmt.percent(Fraction(352, 1000), "de") == "35,2\u00a0%"
    assert fmt.percent(Fraction(352, 1000), "en") == "35.2%"
    assert fmt.number(Fraction(-3456, 1000), "de") == "\u22123,46"
    assert fmt.number(Fraction(5, 1000), "de") == "0,01"  # half away from zero, exactly
    assert fmt.number(Fraction(-1, 1000), "de") == "0,00"  # no minus sign on a rounded zero
    assert fmt.integer(12345, "de") == "12.345" and fmt.integer(12345, "en") == "12,345"
    assert fmt.integer(4000, "de") == "4000"
    with pytest.raises(ValueError, match="language"):
        fmt.number(1, "fr")


def test_fractions_small_and_exact_long_only_on_request():
    assert fmt.fraction(Fraction(91, 216)) == "91/216"
    assert fmt.probability(Fraction(91, 216), "de") == "91/216 ≈ 42,1\u00a0%"
    # a label and its value: "=" before an exact value, never "= ≈" before an approximate one
    assert fmt.stated("P(A) =", fmt.probability(Fraction(91, 216), "de")) == "P(A) = 91/216 ≈ 42,1\u00a0%"
    assert fmt.stated("P(A) = ", fmt.probability(Fraction(10**6 + 3, 3 * 10**6), "de")) == "P(A) ≈ 33,3\u00a0%"
    long = Fraction(10 ** 40 + 1, 3 ** 90)
    assert fmt.fraction(long, "de").startswith("≈ 0,0011 (Bruch mit ")
    assert fmt.fraction(long, "en").endswith("digits)")
    assert fmt.fraction(long, "de", long=True) == f"{long.numerator}/{long.denominator}"
    assert fmt.ratio(22, 36, "de") == "22 von 36" and fmt.ratio(22, 36, "en") == "22 of 36"
    est = Estimate(0.166, 0.144, 0.19, 1000)
    assert fmt.interval(est, "de", as_percent=True) == "16,6\u00a0% (95-%-Intervall 14,4\u00a0% bis 19,0\u00a0%, n = 1000)"


def test_what_a_student_types_is_read_with_the_exactness_typed():
    assert fmt.read("5/6") == (Fraction(5, 6), 0)
    assert fmt.read("0,83") == (Fraction(83, 100), Fraction(1, 200)) == fmt.read("0.83")
    assert fmt.read("83 %") == (Fraction(83, 100), Fraction(1, 200))
    assert fmt.read("5/6 · 5/6 · 5/6")[0] == fmt.read("(5/6)³")[0] == fmt.read("(5/6)^3")[0] == Fraction(125, 216)
    assert fmt.read("1 − 125/216")[0] == Fraction(91, 216) and fmt.read("−205/8")[0] == Fraction(-205, 8)
    assert fmt.matches("0,83", Fraction(5, 6)) and fmt.matches("−25,63", Fraction(-205, 8))
    assert fmt.matches("42 %", Fraction(91, 216)) and not fmt.matches("43 %", Fraction(91, 216))
    assert not fmt.matches("1", Fraction(5, 6)) and not fmt.matches("0,84", Fraction(5, 6))
    assert fmt.matches("x", 1) is None and fmt.matches("", 1) is None
    for bad in ("1,2,3", "(1", "5/0", "2^100", "1/"):
        with pytest.raises(ValueError):
            fmt.read(bad)


def test_dice_grid_counts_each_class_and_refuses_a_class_without_legend():
    pic = dice_grid(lambda a, b: "one" if 1 in (a, b) else "no", {"one": ("mind. eine 1", None), "no": ("keine 1", "#bbb")})
    assert "mind. eine 1: 11 von 36" in pic.text and "keine 1: 25 von 36" in pic.text
    assert pic.svg.count("<rect") == 36 + 2
    with pytest.raises(ValueError, match="no legend entry"):
        dice_grid(lambda a, b: a, {1: ("eins", None)})


def test_tree_labels_branches_with_fractions_and_a_skeleton_with_boxes():
    pic = tree(Node("Wurf", [(Fraction(1, 6), Node("1", note="a")), (Fraction(5, 6), Node("keine 1"))]))
    assert pic.text.splitlines() == ["Wurf", "  1/6 → 1   a", "  5/6 → keine 1"]
    assert "1/6" in pic.svg and "5/6" in pic.svg
    blank = tree(Node("Wurf", [(None, Node("1")), (None, Node("keine 1"))]))
    assert blank.text.splitlines() == ["Wurf", "  ? → 1", "  ? → keine 1"]
    assert "/6" not in blank.svg and blank.svg.count('stroke="#1565c0"') == 2  # a box per branch


def test_running_share_and_histogram_show_what_they_are_given():
    pic = running_share([1, 0, 0, 1], Fraction(1, 2), 4, "de")
    assert pic.text == "n = 4: relative Häufigkeit 50,0\u00a0%, exakt 50,0\u00a0%"
    assert running_share([1, 0, 0, 1], Fraction(1, 2), 1, "en").text.startswith("n = 1: relative frequency 100.0%")
    with pytest.raises(ValueError, match="n must be"):
        running_share([1, 0], Fraction(1, 2), 3)
    h = histogram({"A": [0, 1, 1, 2]}, [0, 1, 2], "de")
    assert h.text.splitlines()[1:] == ["     0      1        25,0\u00a0%", "     1      2        75,0\u00a0%"]


def _numbers(svg: str, tag: str, attr: str) -> list[float]:
    return [float(m) for m in re.findall(rf'<{tag} [^>]*?{attr}="([-\d.]+)"', svg)]


def test_funnel_draws_every_series_around_the_exact_value_on_a_named_log_axis():
    series = [[1, 0, 1, 1, 0, 1, 0, 1, 1, 1] * 20, [0, 1] * 100, [1, 1, 0] * 70]
    pic = pictures.funnel(series, Fraction(2, 3), n=200, lang="de", unit="Würfe", title="T")
    assert pic.text == ("T\n3 Reihen, je 200 Würfe: relative Häufigkeit nach n = 200 zwischen 50,0\u00a0% und 70,0\u00a0%; "
                        "exakt 2/3 ≈ 66,7\u00a0%")
    assert "Anzahl der Würfe n (logarithmische Achse)" in pic.svg
    assert pic.svg.count("<polyline") == 3 and pic.svg.count("<polygon") == 1  # the 95 % funnel of a share
    assert "95-%-Trichter" in pic.svg
    en = pictures.funnel(series, Fraction(2, 3), n=10, lang="en")
    assert "number of trials n (logarithmic axis)" in en.svg and "exact: 2/3 ≈ 66.7%" in en.svg
    means = pictures.funnel([[3, 5, 4, 6]], Fraction(9, 2), as_percent=False, lang="de")
    assert means.text == "n = 4: Mittelwert 4,50; exakt 9/2 ≈ 4,50" and "<polygon" not in means.svg  # no sd: no funnel
    assert "<polygon" in pictures.funnel([[3, 5, 4, 6]], Fraction(9, 2), as_percent=False, sd=1, lang="de").svg
    # the clip path's id is named after the drawing: the same picture twice, a different one differs
    ids = [re.search(r'clipPath id="([^"]+)"', p.svg).group(1) for p in
           (pic, pictures.funnel(series, Fraction(2, 3), n=200, lang="de", unit="Würfe", title="T"), en)]
    assert ids[0] == ids[1] != ids[2]
    with pytest.raises(ValueError, match="n must be"):
        pictures.funnel(series, Fraction(1, 2), n=201)


def test_bars_of_whole_numbers_are_centred_on_them():
    pic = pictures.bars({"A": [1, 1, 2, 3]}, "de", marks={"A": Fraction(7, 4)})
    assert pic.text.splitlines() == ["            Wert               A", "               1          50,0\u00a0%",
                                     "               2          25,0\u00a0%", "               3          25,0\u00a0%"]
    rects = list(zip(_numbers(pic.svg, "rect", "x"), _numbers(pic.svg, "rect", "width")))[1:4]  # after the frame
    centres = [x + w / 2 for x, w in rects]
    ticks = {t: float(x) for x, t in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="11" text-anchor="middle">(\d)</text>', pic.svg)}
    assert [round(c) for c in centres] == [round(ticks[str(k)]) for k in (1, 2, 3)]  # each bar centred on its number
    mark = float(re.search(r'<line x1="([\d.]+)" y1="\d+" x2="\1"[^>]*stroke-dasharray="5 3"', pic.svg).group(1))
    assert abs(mark - (ticks["1"] + 0.75 * (ticks["2"] - ticks["1"]))) < 0.2  # 7/4 at its true place
    # negative control: histogram() draws k over [k, k+1), its label at the bar's left edge
    old = histogram({"A": [1, 1, 2, 3]}, [1, 2, 3, 4], "de")
    old_x = _numbers(old.svg, "rect", "x")[1]
    old_tick = float(re.search(r'<text x="([\d.]+)" y="[\d.]+" font-size="11" text-anchor="middle">1</text>', old.svg).group(1))
    assert abs(old_x - old_tick) < 1
    blocks = pictures.bars({"A": [-21, -20, -1, 0, 19]}, "en", width=20)
    assert [line.split()[:3] for line in blocks.text.splitlines()[1:]] == [
        ["−40", "to", "−21"], ["−20", "to", "−1"], ["0", "to", "19"]]
    with pytest.raises(ValueError, match="whole numbers"):
        pictures.bars({"A": [Fraction(1, 2)]})
    with pytest.raises(ValueError, match="do not fit"):
        pictures.bars({"A": [1, 9]}, hi=5)


# --- widgets ----------------------------------------------------------------------------------------

@pytest.fixture
def w(monkeypatch):
    """The kit as the source notebook's outputs are made and checked (nbval): each widget writes its
    answer as text. A student's kernel writes none: see ``student``."""
    widgets = pytest.importorskip("spieltisch.lesson.widgets")
    monkeypatch.setenv(widgets.MODE, "teacher")
    widgets.forget()
    yield widgets
    widgets.forget()


@pytest.fixture
def student(w, monkeypatch):
    monkeypatch.delenv(w.MODE)
    assert not w.teacher_mode()
    return w


def view(widget) -> dict:
    return json.loads(widget.view)


_SENT = [0]


def event(widget, **ev) -> None:
    """What the page sends when the student clicks or types (the ``event`` trait, numbered as the
    page numbers it: the same click twice is two events)."""
    _SENT[0] += 1
    widget.event = json.dumps({**ev, "n": _SENT[0]})


def test_an_answer_waits_for_its_prediction_and_show_opens_only_one(w):
    predict = w.choice("q1", "Welche?", [1, 6, 7], lang="de")
    answer = w.answer("q1", "<b>11/16</b>", pictures.Picture("<svg/>", "Bild"), lang="de")
    other = w.answer("q1", "<i>22 von 32</i>", lang="de")
    assert view(answer) == {"open": False} and "11/16" not in answer.view  # the page has nothing to show
    assert answer._repr_mimebundle_()["text/plain"] == "11/16\nBild"  # nbval, the teacher version
    assert answer._repr_mimebundle_()["text/html"] == "<b>11/16</b><br><svg/>"
    event(other, do="show")  # "Zeigen": this one only
    assert view(other)["html"] == "<i>22 von 32</i>" and view(answer) == {"open": False}
    event(predict, do="lock", value=2)  # the page sends the option's index
    assert w.prediction("q1") == 7 and view(answer) == {"html": "<b>11/16</b><br><svg/>", "open": True}
    assert "Festgehalten: <b>7</b>" in view(predict)["status"]
    later = w.answer("q1", "x", lang="de")  # run again after the prediction: open at once
    assert view(later)["open"] is True
    nokey = w.explore(lambda n: pictures.Picture(f"<svg>{n}</svg>", f"n={n}"), 1, 3, lang="de")
    assert view(nokey)["html"] == "<svg>3</svg>" and "text/html" not in nokey._repr_mimebundle_()  # ungated: as before


def test_the_first_prediction_is_frozen_by_the_first_comparison(w):
    p = w.slider("t1", "Wie oft?", 0, 1, 0.01, 0.5, lang="de", as_percent=True)
    c = w.compare("t1", Fraction(1, 6), Estimate(0.166, 0.144, 0.19, 1000), lang="de")
    plain = c._repr_mimebundle_()["text/plain"]
    assert plain.startswith("Lösung:\nExakt: 1/6 ≈ 16,7") and "text/html" not in c._repr_mimebundle_()
    assert "Vorhersage fest" in c.press() and "1/6" not in c.press()  # no prediction yet: it asks, shows no answer
    assert p.lock(30) == Fraction(3, 10) and w.predictions("t1") == (None, Fraction(3, 10))
    p.lock(20)  # before any comparison a prediction may still change
    first = c.press()
    assert "Deine Vorhersage: <b>20\u00a0%</b>" in first and "3,3 Prozentpunkte" in first and "im 95-%-Intervall" in first
    event(p, do="lock", value=40)
    assert w.prediction("t1") == Fraction(1, 5) and w.predictions("t1") == (Fraction(1, 5), Fraction(2, 5))
    assert "verglichen wird deine erste Vorhersage: <b>20\u00a0%</b>" in view(p)["status"]
    second = c.press()
    assert "Deine Vorhersage: <b>20\u00a0%</b>" in second
    assert "Später geändert auf: <b>40\u00a0%</b>; Abstand deiner Vorhersage zum exakten Wert: 23,3 Prozentpunkte" in second
    q = w.choice("t2", "Which?", [("stop", "stop"), ("roll again", "throw")], lang="en")
    q.lock("throw")
    r = w.compare("t2", "stop", right={"stop"}, lang="en")
    assert "Your prediction: <b>roll again</b> – Not quite." in r.press()  # the option's label, not its value
    assert q._repr_mimebundle_()["text/plain"] == "Prediction (choice): Which?"


def test_a_prediction_that_cannot_be_read_is_not_stored(w):
    p = w.number("t3", "Wie viel?", lang="de")
    event(p, do="lock", value="zwölf")
    assert w.prediction("t3") is None and "kann ich nicht als Zahl lesen" in view(p)["status"]
    event(p, do="lock", value="0,25")
    assert w.prediction("t3") == Fraction(1, 4)
    c = w.choice("t4", "?", [1, 2], lang="de")
    event(c, do="lock", value=None)
    assert w.prediction("t4") is None and view(c)["status"] == "Wähle zuerst eine Antwort."


def test_a_simulation_runs_again_with_a_new_seed_and_repeats_with_a_typed_one(w):
    runs = []

    def run(seed, n, who):
        runs.append((seed, n, who))
        return pictures.Picture(f"<svg>{seed}-{n}-{who}</svg>", f"{who}: {seed % 7}")

    sim = w.simulate(run, key="q9", seed=2026, lang="de",
                     params={"n": w.Range("Würfe", 10, 100, 50, step=10), "who": w.Options("wer", [("A", "a"), ("B", "b")], "a")})
    assert sim._repr_mimebundle_()["text/plain"] == "a: 3\nStartwert: 2026" and view(sim) == {"open": False}
    event(sim, do="again", params={"n": 20})
    assert view(sim) == {"open": False} and runs == [(2026, 50, "a")]  # closed: the page cannot run it
    event(sim, do="show")
    assert view(sim) == {"html": "<svg>2026-50-a</svg>", "seed": 2026, "params": {"n": 50, "who": 0}, "open": True}
    event(sim, do="again", params={"n": 20, "who": 1})
    seed = view(sim)["seed"]
    assert seed != 2026 and 100_000 <= seed < 1_000_000 and view(sim)["html"] == f"<svg>{seed}-20-b</svg>"
    event(sim, do="run", seed=2026, params={"n": 20, "who": 1})
    assert view(sim)["html"] == "<svg>2026-20-b</svg>"
    with pytest.raises(ValueError, match="between 10 and 100"):
        sim.handle({"do": "run", "seed": 1, "params": {"n": 500}})
    with pytest.raises(ValueError, match="not between"):
        w.Range("n", 1, 5, 9)


def test_the_grid_is_checked_in_python_and_only_after_the_prediction(w):
    answer = {(a, b): ("push" if a + b == 7 else "again" if a == b else "bust") for a in range(1, 7) for b in range(1, 7)}
    classes = {"bust": ("schiebt nichts", "#c62828"), "push": ("Summe 7", "#2e7d32"), "again": ("Pasch", "#757575")}
    g = w.grid("q1", "Markiere", answer, classes, lang="de", labels=lambda a, b: a + b)
    spec = json.loads(g.spec)
    assert [c["label"] for c in spec["classes"]] == ["Summe 7", "Pasch"] and spec["unmarked"] == "schiebt nichts"
    assert "push" not in g.spec and "answer" not in spec and spec["labels"]["3,4"] == "7"  # no answer in the page
    assert "Summe 7: 6 von 36" in g._repr_mimebundle_()["text/plain"] and "<svg" in g._repr_mimebundle_()["text/html"]
    assert g.check({}) == [] and view(g)["feedback"].startswith("Halte zuerst")
    w.choice("q1", "?", [1], lang="de").lock(1)
    right = {f"{a},{b}": (1 if a + b == 7 else 2 if a == b else 0) for a in range(1, 7) for b in range(1, 7)}
    wrong = {**right, "1,6": 0, "2,2": 1}
    event(g, do="check", cells=wrong)
    assert view(g)["wrong"] == ["1,6", "2,2"] and view(g)["feedback"].startswith("2 von 36 Feldern")
    assert g.check(right) == []
    assert view(g)["feedback"].endswith("Alles richtig!</span> schiebt nichts: 24 von 36; Summe 7: 6 von 36; Pasch: 6 von 36")
    with pytest.raises(ValueError, match="no entry in classes"):
        w.grid(None, "x", lambda a, b: "oops", classes, lang="de")


def test_the_tree_to_fill_in_sends_no_probability_and_marks_each_input(w):
    root = Node("Wurf", [(Fraction(1, 6), Node("1")),
                         (Fraction(5, 6), Node("keine 1", [(Fraction(1, 6), Node("1")),
                                                            (Fraction(5, 6), Node("keine 1", value=Fraction(25, 36)))]))])
    t = w.tree("q3", "Trage ein", root, lang="de", result=("P(mindestens eine 1) =", Fraction(11, 36)))
    spec = json.loads(t.spec)
    drawn = json.dumps({k: v for k, v in spec.items() if k != "words"})
    assert not re.search(r"\d/\d", drawn) and "0,8" not in drawn  # the page gets labels, not answers
    inputs = [i for i in spec["items"] if i["type"] == "input"]
    assert [i["label"] for i in inputs] == [
        "Wahrscheinlichkeit des Astes: Wurf → 1", "Wahrscheinlichkeit des Astes: Wurf → keine 1",
        "Wahrscheinlichkeit des Astes: Wurf → keine 1 → 1", "Wahrscheinlichkeit des Astes: Wurf → keine 1 → keine 1",
        "Wahrscheinlichkeit des Pfades: Wurf → keine 1 → keine 1"]
    assert spec["result"] == "P(mindestens eine 1) =" and len(spec["edges"]) == 4
    plain = t._repr_mimebundle_()["text/plain"]
    assert "Wahrscheinlichkeit des Pfades Wurf → keine 1 → keine 1: 25/36" in plain
    assert plain.endswith("P(mindestens eine 1) = 11/36 ≈ 30,6\u00a0%")
    w.slider("q3", "?", 0, 1, 0.01, 0.5, lang="de", as_percent=True).lock(40)
    event(t, do="check", values={"b0": "1/6", "b1": "0,83", "b2": "2/12", "b3": "0", "v0": "(5/6)^2", "result": ""})
    assert view(t)["marks"] == {"b0": True, "b1": True, "b2": True, "b3": False, "v0": True}
    assert view(t)["feedback"] == "4 richtig, 1 falsch, 1 noch leer."
    assert t.check({"b0": "1/6", "b1": "5/6", "b2": "1/6", "b3": "5/6", "v0": "25/36", "result": "1 − 25/36"}) == {
        k: True for k in ("b0", "b1", "b2", "b3", "v0", "result")}
    assert "Alles richtig!" in view(t)["feedback"]


def test_a_result_by_hand_is_checked(w):
    c = w.check(None, "E =", Fraction(-205, 8), lang="en")
    assert c._repr_mimebundle_()["text/plain"] == "To fill in: E = −205/8 ≈ −25.63"
    assert c.check("-25.6") is True and view(c)["ok"] is True
    assert c.check("-26") is False and view(c)["feedback"].startswith("Not right yet")
    assert c.check("minus 26") is None and view(c)["feedback"].startswith("I cannot read")


def test_explore_redraws_on_the_slider_and_reveal_toggles(w):
    e = w.explore(lambda n: running_share([1, 0, 1, 1], Fraction(3, 4), n, "de"), 1, 4, lang="de")
    assert e._repr_mimebundle_()["text/plain"].startswith("n = 4: relative Häufigkeit 75,0")
    event(e, do="set", value=2)
    assert "n = 2: relative Häufigkeit 50,0" in e.plain and "<svg" in view(e)["html"] and view(e)["value"] == 2
    r = w.reveal("<b>42</b>", tree(Node("a")), lang="en")
    assert view(r)["html"] == "" and "42" in r._repr_mimebundle_()["text/plain"]
    event(r, do="press")
    assert "<b>42</b>" in view(r)["html"] and "<svg" in view(r)["html"]
    event(r, do="press")
    assert view(r)["html"] == ""
    gated = w.reveal("<b>42</b>", lang="en", key="q7")
    assert view(gated) == {"open": False} and gated._repr_mimebundle_()["text/html"] == "<b>42</b>"


def _kit_widgets(w, lang="de"):
    """One widget of every kind with an answer, each under a question key; and the answers' texts."""
    answer = {(a, b): ("push" if a + b == 7 else "bust") for a in range(1, 7) for b in range(1, 7)}
    root = Node("Zug", [(Fraction(2, 7), Node("rot")), (Fraction(5, 7), Node("blau", value=Fraction(5, 7)))])
    made = {
        "grid": w.grid("h1", "Markiere", answer, {"bust": ("nichts", "#c62828"), "push": ("Summe 7", "#2e7d32")}, lang=lang),
        "tree": w.tree("h2", "Trage ein", root, lang=lang, result=("P(rot) =", Fraction(2, 7))),
        "check": w.check("h3", "P =", Fraction(91, 216), lang=lang, as_percent=True),
        "answer": w.answer("h4", "<b>91/216</b>", pictures.Picture("<svg/>", "Bild 91/216"), lang=lang),
        "explore": w.explore(lambda n: pictures.Picture(f"<svg>{n}</svg>", f"exakt 91/216 bei {n}"), 1, 3, lang=lang, key="h4"),
        "simulate": w.simulate(lambda seed: pictures.Picture("<svg/>", "Simulation 42,1 %"), key="h4", seed=7, lang=lang),
        "reveal": w.reveal("<b>91/216</b>", lang=lang),
        "gated reveal": w.reveal("<b>91/216</b>", lang=lang, key="h4"),
        "compare": w.compare("h4", Fraction(91, 216), lang=lang),
    }
    return made, ("91/216", "42,1", "42.1", "Summe 7: 6", "5/7", "2/7", "<svg")


def test_a_students_kernel_writes_no_answer_into_the_notebook(student, monkeypatch):
    """What a widget writes besides its view (``text/plain``, ``text/html``: a front-end without the
    widget shows it, a saved notebook keeps it) and its synced state hold no answer in a student's
    kernel; the same widgets write their answers where the teacher version's outputs are made (the
    control: the check can fail)."""
    w = student
    made, answers = _kit_widgets(w)

    def leaks(widget, with_state=True):
        text = json.dumps(widget._repr_mimebundle_(), ensure_ascii=False)
        if with_state:  # what the page gets, and a notebook saved with its widget state keeps
            text += widget.spec + widget.view
        return [a for a in answers if a in text]

    for name, widget in made.items():
        bundle = widget._repr_mimebundle_()
        assert "text/html" not in bundle and bundle["text/plain"].strip(), name
        assert leaks(widget) == [], name
    assert made["answer"]._repr_mimebundle_()["text/plain"] == w.WORDS["de"]["wait"]
    assert made["check"]._repr_mimebundle_()["text/plain"] == "Zum Ausfüllen: P ="
    assert made["reveal"]._repr_mimebundle_()["text/plain"] == "Lösung: hinter dem Knopf „Lösung zeigen“"
    english = w.compare("h5", Fraction(1, 2), lang="en")._repr_mimebundle_()["text/plain"]
    assert english.startswith("Solution: behind the button “Compare”")
    monkeypatch.setenv(w.MODE, "teacher")  # the source notebook's outputs: every answer is written
    for name, widget in made.items():
        if name != "simulate":  # made in a student's kernel, a gated simulation has not run yet
            assert leaks(widget, with_state=False), name
    assert leaks(w.simulate(lambda seed: pictures.Picture("<svg/>", "Simulation 42,1 %"), key="h4", lang="de"))


def test_by_hand_first_the_exact_value_opens_after_the_check_not_with_the_prediction(w):
    p = w.choice("q1", "Welche?", [1, 7], lang="de")
    data = w.answer("q1", "die Punkte jedes Wurfs", lang="de")  # what the work needs: before the work
    g = w.grid("q1", "Markiere", lambda a, b: "push" if a + b == 7 else "bust",
               {"bust": ("nichts", "#c62828"), "push": ("Summe 7", "#2e7d32")}, lang="de")
    c = w.check("q1", "P =", Fraction(1, 6), lang="de")
    exact = w.answer("q1", "<b>1/6</b>", lang="de")
    comp = w.compare("q1", Fraction(1, 6), lang="de")
    other = w.answer("q1", "<b>6 von 36</b>", lang="de")
    p.lock(7)
    assert view(data)["open"] is True  # the prediction opens what comes before the work by hand
    assert view(exact) == {"open": False, "note": w.WORDS["de"]["wait_hand"]} and "1/6" not in exact.view
    assert comp.press() == w.WORDS["de"]["wait_hand"] and w.predictions("q1") == (None, 7)  # not frozen yet
    event(g, do="check", cells={})  # checked (wrong): one of the two pieces of work
    assert view(exact)["open"] is False
    assert c.check("ein Sechstel") is None and view(exact)["open"] is False  # unreadable: not checked
    event(other, do="show")  # "Zeigen" still opens one widget at once
    assert view(other)["open"] is True and view(exact)["open"] is False
    assert c.check("0,5") is False  # checked, wrong: the student's own value is on record
    assert view(exact) == {"html": "<b>1/6</b>", "open": True}
    assert "Exakt: <b>1/6 ≈" in comp.press() and w.predictions("q1") == (7, 7)
    later = w.answer("q1", "x", lang="de")  # a cell run again after the work: open at once
    assert view(later)["open"] is True
    # before any prediction, a by-hand check counts for nothing and opens nothing
    w.forget()
    g2 = w.grid("q2", "Markiere", lambda a, b: "bust", {"bust": ("nichts", "#c62828"), "x": ("x", "#2e7d32")}, lang="de")
    gated = w.answer("q2", "<b>1</b>", lang="de")
    g2.check({})
    assert view(gated) == {"open": False} and not w._HAND["q2"][g2.hand]


def test_every_widget_speaks_the_page_language(w):
    for lang in ("de", "en"):
        p = w.choice("k", "?", [1, 2], lang=lang)
        spec = json.loads(p.spec)
        assert spec["lang"] == lang and spec["words"] == {k: (list(v) if isinstance(v, tuple) else v)
                                                          for k, v in w.WORDS[lang].items()}
    assert set(w.WORDS["de"]) == set(w.WORDS["en"])
    with pytest.raises(ValueError, match="language"):
        w.choice("k", "?", [1], lang="fr")


# --- the worksheet and the versions -------------------------------------------------------------------

def test_worksheet_items_have_a_prediction_line_a_grid_or_a_tree_and_lines():
    meta = {"lang": "de", "worksheet": [
        {"question": "Frage 1", "predict": True, "grid": {"labels": "sum", "title": "Nur die 9"}, "task": "Kreuze an.",
         "lines": ["P = ____"]},
        {"question": "Frage 2", "predict": True, "tree": {"label": "Wurf", "branches": [{"label": "1"}, {"label": "keine 1"}]}},
        {"question": "alt", "grid": True, "space": 2}]}
    html = sheet.page(meta)
    box, work = html.split('<section class="working"')
    assert box.count("Meine Vorhersage:") == 2 and "Frage 1" in box and "Frage 2" in box and "alt" not in box
    assert "P = ____" not in box and "<svg" not in box  # the prediction box shows no form of the answer
    first, second, old = [line for line in work.split("\n") if line.startswith("<li>")]
    assert "Vorhersage" not in work and first.count("<rect") == 36 and ">12</text>" in first
    assert "Kreuze an." in first and "P = ____" in first and 'class="line"' not in first
    assert "? →" not in second and second.count('stroke="#1565c0"') == 2
    assert second.count('class="line"') == 3  # no lines given: three empty ones
    assert old.count('class="line"') == 2 and ">12</text>" not in old
    assert "first die" in sheet.blank_grid("en")
    with pytest.raises(ValueError, match="labels"):
        sheet.blank_grid("de", labels="product")
    with pytest.raises(ValueError, match="a node is"):
        sheet.blank_tree({"branches": []}, "de")


def _nb():
    code = {"cell_type": "code", "metadata": {"tags": ["solution"]}, "execution_count": 3, "source": "1",
            "outputs": [{"output_type": "display_data", "metadata": {},
                         "data": {"text/plain": "Lösung", versions.WIDGET_VIEW: {"model_id": "x"}}}]}
    note = {"cell_type": "markdown", "metadata": {"tags": ["teacher"]}, "source": "Antwort"}
    lesson = {"id": "x", "lang": "de", "questions": [{"key": "q1", "answer": "11/16"}],
              "path": [{"minutes": 45, "cells": "Frage 1", "ask": "Warum?"}], "worksheet": [{"question": "Frage 1"}]}
    return {"cells": [code, note], "metadata": {"spieltisch": {"lesson": lesson}}}


def test_student_version_has_no_outputs_and_no_teacher_cells():
    s = versions.student(_nb())
    assert len(s["cells"]) == 1 and s["cells"][0]["outputs"] == [] and s["cells"][0]["execution_count"] is None
    assert s["cells"][0]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    # the answers and the teaching plan stay out of a student's file; the worksheet's questions stay
    assert set(s["metadata"]["spieltisch"]["lesson"]) == {"id", "lang", "worksheet"} and "11/16" not in json.dumps(s)
    t = versions.teacher(_nb())
    assert t["metadata"]["spieltisch"]["lesson"] == _nb()["metadata"]["spieltisch"]["lesson"]
    assert len(t["cells"]) == 2 and t["cells"][0]["outputs"][0]["data"] == {"text/plain": "Lösung"}
    with pytest.raises(ValueError, match="not a lesson"):
        versions.info({"metadata": {}})


def test_side_by_side_puts_pictures_in_one_row_with_a_text():
    one = pictures.Picture('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect/></svg>', "a")
    two = pictures.Picture('<svg xmlns="http://www.w3.org/2000/svg" width="50.5" height="40"><circle/></svg>', "b")
    row = pictures.side_by_side([one, two], "both", gap=10)
    assert row.text == "both" and row._repr_mimebundle_()["text/plain"] == "both"
    assert row.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="90" height="40" viewBox="0 0 90 40">')
    assert '<g transform="translate(0 0)"><svg' in row.svg and '<g transform="translate(40 0)"><svg' in row.svg
    assert row.svg.index("<rect/>") < row.svg.index("<circle/>")
    alone = pictures.side_by_side([one], "only")
    assert alone.svg == one.svg and alone.text == "only"


def test_the_site_versions_show_no_test_markers():
    """``# NBVAL_IGNORE_OUTPUT`` tells nbval to skip a cell's output; a student or teacher reading the
    lesson on the site does not see it."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "notebooks"
    sources = sorted(root.glob("*/*.ipynb"))
    assert any("# NBVAL_" in p.read_text(encoding="utf-8") for p in sources)  # the markers are there
    for path in sources:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for version in (versions.student(nb), versions.teacher(nb)):
            text = "".join("".join(c["source"]) for c in version["cells"] if c["cell_type"] == "code")
            assert "NBVAL" not in text, path
