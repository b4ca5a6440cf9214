"""The lesson kit: number formats, pictures, prediction widgets and the two versions of a notebook."""

from fractions import Fraction

import pytest

from spieltisch.core.stats import Estimate
from spieltisch.lesson import Node, dice_grid, fmt, histogram, pictures, running_share, tree, versions


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
    long = Fraction(10 ** 40 + 1, 3 ** 90)
    assert fmt.fraction(long, "de").startswith("≈ 0,0011 (Bruch mit ")
    assert fmt.fraction(long, "en").endswith("digits)")
    assert fmt.fraction(long, "de", long=True) == f"{long.numerator}/{long.denominator}"
    assert fmt.ratio(22, 36, "de") == "22 von 36" and fmt.ratio(22, 36, "en") == "22 of 36"
    est = Estimate(0.166, 0.144, 0.19, 1000)
    assert fmt.interval(est, "de", as_percent=True) == "16,6\u00a0% (95-%-Intervall 14,4\u00a0% bis 19,0\u00a0%, n = 1000)"


def test_dice_grid_counts_each_class_and_refuses_a_class_without_legend():
    pic = dice_grid(lambda a, b: "one" if 1 in (a, b) else "no", {"one": ("mind. eine 1", None), "no": ("keine 1", "#bbb")})
    assert "mind. eine 1: 11 von 36" in pic.text and "keine 1: 25 von 36" in pic.text
    assert pic.svg.count("<rect") == 36 + 2
    with pytest.raises(ValueError, match="no legend entry"):
        dice_grid(lambda a, b: a, {1: ("eins", None)})


def test_tree_labels_branches_with_fractions():
    pic = tree(Node("Wurf", [(Fraction(1, 6), Node("1", note="a")), (Fraction(5, 6), Node("keine 1"))]))
    assert pic.text.splitlines() == ["Wurf", "  1/6 → 1   a", "  5/6 → keine 1"]
    assert "1/6" in pic.svg and "5/6" in pic.svg


def test_running_share_and_histogram_show_what_they_are_given():
    pic = running_share([1, 0, 0, 1], Fraction(1, 2), 4, "de")
    assert pic.text == "n = 4: relative Häufigkeit 50,0\u00a0%, exakt 50,0\u00a0%"
    assert running_share([1, 0, 0, 1], Fraction(1, 2), 1, "en").text.startswith("n = 1: relative frequency 100.0%")
    with pytest.raises(ValueError, match="n must be"):
        running_share([1, 0], Fraction(1, 2), 3)
    h = histogram({"A": [0, 1, 1, 2]}, [0, 1, 2], "de")
    assert h.text.splitlines()[1:] == ["     0      1        25,0\u00a0%", "     1      2        75,0\u00a0%"]


def test_prediction_is_stored_and_compared():
    widgets = pytest.importorskip("spieltisch.lesson.widgets")
    widgets.forget()
    p = widgets.slider("t1", "Wie oft?", 0, 1, 0.01, 0.5, lang="de", as_percent=True)
    c = widgets.compare("t1", Fraction(1, 6), Estimate(0.166, 0.144, 0.19, 1000), lang="de")
    assert "Exakt: 1/6 ≈ 16,7" in c._repr_mimebundle_()["text/plain"]
    c.toggle()
    assert "Vorhersage fest" in c.body.value  # no prediction yet: it asks for one, shows no answer
    assert "1/6" not in c.body.value
    c.toggle()
    assert p.lock(30) == Fraction(3, 10)
    c.toggle()
    assert "30\u00a0%" in c.body.value and "13,3 Prozentpunkte" in c.body.value and "im 95-%-Intervall" in c.body.value
    q = widgets.choice("t2", "Which?", [1, 6, 7, 9], lang="en")
    q.lock(9)
    r = widgets.compare("t2", "1, 6 and 7", right={1, 6, 7}, lang="en")
    r.toggle()
    assert "Not quite" in r.body.value
    widgets.forget()


def _nb():
    code = {"cell_type": "code", "metadata": {"tags": ["solution"]}, "execution_count": 3, "source": "1",
            "outputs": [{"output_type": "display_data", "metadata": {},
                         "data": {"text/plain": "Lösung", versions.WIDGET_VIEW: {"model_id": "x"}}}]}
    note = {"cell_type": "markdown", "metadata": {"tags": ["teacher"]}, "source": "Antwort"}
    return {"cells": [code, note], "metadata": {"spieltisch": {"lesson": {"id": "x", "lang": "de"}}}}


def test_student_version_has_no_outputs_and_no_teacher_cells():
    s = versions.student(_nb())
    assert len(s["cells"]) == 1 and s["cells"][0]["outputs"] == [] and s["cells"][0]["execution_count"] is None
    assert s["cells"][0]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    t = versions.teacher(_nb())
    assert len(t["cells"]) == 2 and t["cells"][0]["outputs"][0]["data"] == {"text/plain": "Lösung"}
    with pytest.raises(ValueError, match="not a lesson"):
        versions.info({"metadata": {}})


def test_explore_redraws_on_the_slider_and_reveal_toggles():
    widgets = pytest.importorskip("spieltisch.lesson.widgets")
    e = widgets.explore(lambda n: running_share([1, 0, 1, 1], Fraction(3, 4), n, "de"), 1, 4, lang="de")
    assert e._repr_mimebundle_()["text/plain"].startswith("n = 4: relative Häufigkeit 75,0")
    e.slider.value = 2
    assert "n = 2: relative Häufigkeit 50,0" in e.plain and "<svg" in e.view.value
    r = widgets.reveal("<b>42</b>", tree(Node("a")), lang="en")
    assert r.body.value == "" and "42" in r._repr_mimebundle_()["text/plain"]
    r.toggle()
    assert "<b>42</b>" in r.body.value and "<svg" in r.body.value
    r.toggle()
    assert r.body.value == ""


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
