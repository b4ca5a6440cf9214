"""The printed worksheets ask before they tell, and every worksheet has an answer key (issue 31, item 5).

Each lesson's worksheet in German and English is rendered as the site builds it (site/build.py) and
parsed: all predictions come before the first working line, no prediction shows the form of the
answer, a task that asks to draw has its drawing area (drawn from the game's data), and the answer
key's values are the declared questions' exact values (``core.registry``).
"""

from __future__ import annotations

import importlib.util
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from spieltisch.core import registry
from spieltisch.core.questions import Counted
from spieltisch.lesson import sheet

ROOT = Path(__file__).resolve().parents[1]
VOID = {"br", "img", "input", "meta", "link", "rect", "line", "path", "circle", "hr"}


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("site_build_sheets", ROOT / "site" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lessons(build):
    return build.lessons()


def pages(lessons):
    return [(lid, lang) for lid in lessons for lang in ("de", "en")]


class Tree(HTMLParser):
    """The page as nested elements: ``(tag, attrs, children, text)``, and every element in document order."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = {"tag": "root", "attrs": {}, "children": [], "text": []}
        self.stack = [self.root]
        self.order = []
        self.feed(text)

    def at(self, el) -> int:
        """The element's place in document order (by identity: two equal lines are two elements)."""
        return next(i for i, e in enumerate(self.order) if e is el)

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "children": [], "text": []}
        self.stack[-1]["children"].append(el)
        self.order.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "children": [], "text": []}
        self.stack[-1]["children"].append(el)
        self.order.append(el)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while len(self.stack) > 1:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for el in self.stack:
            el["text"].append(data)


def classes(el) -> set:
    return set(el["attrs"].get("class", "").split())


def text(el) -> str:
    return " ".join("".join(el["text"]).split())


def find(el, pred) -> list:
    out = []
    for child in el["children"]:
        if pred(child):
            out.append(child)
        out += find(child, pred)
    return out


# --- the worksheet: predictions first --------------------------------------------------------------------

def working_lines(tree: Tree) -> list:
    """What shows the answer's form or asks for work: the lines, the grids, trees and drawing areas."""
    return [el for el in tree.order if classes(el) & {"fill", "grid", "tree", "draw", "line", "task"}]


def test_every_worksheet_has_all_predictions_before_the_first_working_line(build, lessons):
    for lid, lang in pages(lessons):
        meta = lessons[lid][lang]
        tree = Tree(build.render_worksheet(meta, lid))
        predicts = [el for el in tree.order if "predict" in classes(el)]
        asked = [q for q in meta["worksheet"] if q.get("predict")]
        assert asked and len(predicts) == len(asked), (lid, lang)
        work = working_lines(tree)
        assert work, (lid, lang)
        first_work = tree.at(work[0])
        assert all(tree.at(p) < first_work for p in predicts), f"{lid}-{lang}: a prediction after working lines"
        # every question's prediction is in the box, in the metadata's order
        box = find(tree.root, lambda el: el["tag"] == "section" and "predictions" in classes(el))
        assert len(box) == 1
        said = [text(el) for el in find(box[0], lambda el: "q" in classes(el))]
        assert said == [" ".join(q["question"].split()) for q in asked], (lid, lang)


def test_no_prediction_line_shows_the_form_of_the_answer(build, lessons):
    for lid, lang in pages(lessons):
        meta = lessons[lid][lang]
        tree = Tree(build.render_worksheet(meta, lid))
        box = find(tree.root, lambda el: el["tag"] == "section" and "predictions" in classes(el))[0]
        for p in find(box, lambda el: "predict" in classes(el)):
            assert text(p) == sheet.WORDS[lang]["predict"], f"{lid}-{lang}: the prediction line says {text(p)!r}"
        shown = text(box)
        forms = [line for q in meta["worksheet"] for line in q.get("lines", ())]
        assert "__" not in shown and not [f for f in forms if " ".join(f.split()) in shown], (lid, lang)
        assert not find(box, lambda el: el["tag"] in ("svg", "table")), f"{lid}-{lang}: a figure among the predictions"


def test_the_old_layout_fails_the_order_check(lessons):
    """Negative control: the worksheet as it was (each prediction line above its own question's working
    lines) has a prediction after the first working line."""
    meta = lessons["scratch-island"]["de"]
    old = "".join(
        f'<li><p class="q">{q["question"]}</p><p class="predict">Meine Vorhersage:</p>'
        + "".join(f'<p class="fill">{line}</p>' for line in q.get("lines", ())) + "</li>"
        for q in meta["worksheet"])
    tree = Tree(f"<ol>{old}</ol>")
    first_work = tree.at(working_lines(tree)[0])
    assert any(tree.at(p) > first_work for p in tree.order if "predict" in classes(p))


# --- drawing areas ----------------------------------------------------------------------------------------

def test_a_task_that_asks_to_draw_has_its_drawing_area(build, lessons):
    drawn = set()
    for lid, lang in pages(lessons):
        meta = lessons[lid][lang]
        tree = Tree(build.render_worksheet(meta, lid))
        work = find(tree.root, lambda el: el["tag"] == "ol" and "questions" in classes(el))[0]
        items = [el for el in work["children"] if el["tag"] == "li"]
        assert len(items) == len(meta["worksheet"])
        for i, (q, li) in enumerate(zip(meta["worksheet"], items)):
            areas = find(li, lambda el: el["tag"] == "svg" and "draw" in classes(el))
            assert bool(areas) == sheet.asks_to_draw(q), (lid, lang, i)
            if areas:
                drawn.add((lid, i))
                assert all(a["attrs"].get("role") == "img" and a["attrs"].get("aria-label") for a in areas)
    assert drawn == {("tuefteln", 2), ("scratch-island", 0)}


def test_tuefteln_draws_one_empty_square_per_arrangement(build, lessons):
    from spieltisch.games.tuefteln import analysis

    for lang in ("de", "en"):
        meta = lessons["tuefteln"][lang]
        q = meta["worksheet"][2]
        # the lines count "of 6 arrangements"; the game counts the orders of 2, 2, 5, 5
        n = sum(analysis.arrangements((2, 2, 5, 5)).values())
        assert any(f" {n} " in line for line in q["lines"])
        tree = Tree(build.drawings("tuefteln", lang)[2])
        assert len([el for el in tree.order if el["tag"] == "rect"]) == 4 * n
        # empty squares: the only writing is each square's number
        assert [text(el) for el in tree.order if el["tag"] == "text"] == [str(k) for k in range(1, n + 1)]


def test_scratch_island_draws_the_boats_surroundings_from_the_map(build, lessons):
    from spieltisch.games.scratch_island import lesson as si
    from spieltisch.games.scratch_island import questions as siq
    from spieltisch.games.scratch_island.engine import cell_name, orientations

    layout = si.start_view(siq.PAGE).layout
    boat = cell_name(layout.boat)
    for lang, boat_word, rock_word in (("de", "Boot", "Fels"), ("en", "boat", "rock")):
        task = lessons["scratch-island"][lang]["worksheet"][0]["task"]
        assert boat in task  # the task names the boat's cell; the drawing puts the boat there
        tree = Tree(build.drawings("scratch-island", lang)[0])
        boards = [el for el in tree.order if el["tag"] == "svg"]
        # room for every orientation, but not one board per orientation (that would give the first count
        # away), nor as many as fit or as there are tries; unlabelled: "Skizze k", not "Lage k"
        covers = si.boat_covers(layout, "T4")
        assert len(boards) >= len(orientations("T4", False))
        assert len(boards) not in {len(orientations("T4", False)), covers["legal"], covers["total"]}
        titles = [text(t) for b in boards for t in find(b, lambda el: el["tag"] == "text" and el["attrs"].get("font-size") == "11")]
        sketch = "Skizze" if lang == "de" else "Sketch"
        assert titles == [f"{sketch} {k + 1}" for k in range(len(boards))], titles
        for board in boards:
            cols = [text(t) for t in find(board, lambda el: el["tag"] == "text" and el["attrs"].get("text-anchor") == "middle"
                                          and el["attrs"].get("font-size") == "10")]
            rows = [text(t) for t in find(board, lambda el: el["tag"] == "text" and el["attrs"].get("text-anchor") == "end")]
            marked = {}
            rects = [r for r in find(board, lambda el: el["tag"] == "rect")]
            labels = [t for t in find(board, lambda el: el["tag"] == "text" and el["attrs"].get("font-weight") == "bold"
                                      and el["attrs"].get("text-anchor") == "middle")]
            cell = float(rects[0]["attrs"]["width"])
            x0, y0 = float(rects[0]["attrs"]["x"]), float(rects[0]["attrs"]["y"])
            for t in labels:
                c = int((float(t["attrs"]["x"]) - x0) // cell)
                r = int((float(t["attrs"]["y"]) - y0) // cell)
                marked[f"{cols[c]}{rows[r]}"] = text(t)
            assert marked.get(boat) == boat_word
            window = {f"{c}{r}" for c in cols for r in rows}
            rocks = {c for c in si.near(layout, layout.boat, 4)["rocks"] if c in window}
            assert rocks and {c for c, w in marked.items() if w == rock_word} == rocks
            hatched = [r for r in rects if r["attrs"].get("fill", "").startswith("url(")]
            assert hatched and str(layout.boat // 10 + 1) == rows[-1]  # the boat's row is the map's last: below is off it


def test_a_task_that_asks_to_draw_without_a_drawing_area_is_refused():
    meta = {"lang": "de", "id": "x", "worksheet": [{"question": "Frage 1: ?", "predict": True,
                                                    "task": "Zähle. Zeichne die Lagen."}]}
    with pytest.raises(ValueError, match="ask to draw"):
        sheet.page(meta)
    assert "draw" in sheet.page(meta, {0: sheet.blank_squares(2, "de")})
    with pytest.raises(ValueError, match="belong to no task"):
        sheet.page({**meta, "worksheet": [{"question": "Frage 1: ?", "task": "Zähle."}]}, {0: "<svg></svg>"})
    # Skip-Bo's "draw pile" asks nobody to draw
    assert not sheet.asks_to_draw({"task": "To check: draw pile 128 cards."})
    assert sheet.asks_to_draw({"task": "Count them. Draw its positions."})


# --- the answer key -----------------------------------------------------------------------------------------

def key_rows(page: str) -> dict:
    """question id -> [(row head, [data-value fractions], row text)]"""
    tree = Tree(page)
    out = {}
    for li in find(tree.root, lambda el: el["tag"] == "li" and "data-question" in el["attrs"]):
        rows = []
        for tr in find(li, lambda el: el["tag"] == "tr"):
            th = find(tr, lambda el: el["tag"] == "th")
            td = find(tr, lambda el: el["tag"] == "td")
            values = [Fraction(v["attrs"]["data-value"]) for v in find(tr, lambda el: "data-value" in el["attrs"])]
            rows.append((text(th[0]), values, text(td[0])))
        out[li["attrs"]["data-question"]] = rows
    return out


def test_every_worksheet_has_an_answer_key_with_the_declared_exact_values(build, lessons):
    for lid, lang in pages(lessons):
        meta = lessons[lid][lang]
        w = sheet.WORDS[lang]
        rows = key_rows(build.render_answer_key(meta, lid))
        core = registry.questions(lid, core=True)
        assert list(rows) == [q.id for q in core] and len(core) == len(meta["worksheet"]), (lid, lang)
        answers = {a["key"]: a["answer"] for a in meta["questions"]}
        for q in core:
            got = rows[q.id]
            exact = [v for head, values, _ in got if head == w["exact"] for v in values]
            if q.values_of is not None:  # every option's value, the right one first (the exact value among them)
                declared, keys = q.values(), q.right()
                order = sorted((o for o in q.options if o.key in declared), key=lambda o: o.key not in keys)
                assert exact == [Fraction(declared[o.key]) for o in order] and q.exact_value() in exact, (q.id, lang)
            else:
                assert exact == [q.exact_value()], (q.id, lang, exact)
            shown = [t for head, _, t in got if head == w["exact"]][0]
            assert re.search(rf"(^|[ =]){re.escape(sheet.fraction(q.exact_value()))}( |$)", shown), (q.id, shown)
            checks = [v for head, values, _ in got if head.startswith(w["by_hand"]) for v in values]
            assert checks == [Fraction(c.value()) for c in q.by_hand.checks if not isinstance(c.value(), dict)], (q.id, lang)
            if q.values is not None and q.values_of is None:
                each = [v for head, values, _ in got if head == w["each"] for v in values]
                declared = q.values()
                assert each == [Fraction(declared[o.key]) for o in q.options if o.key in declared], (q.id, lang)
            right = [t for head, _, t in got if head in (w["right"], f"{w['right']} ({w['range']})")]
            labels = q.labels(lang)
            assert len(right) == 1 and all(labels[i] in right[0] for i in q.right_indexes()), (q.id, lang)
            assert [t for head, _, t in got if head == w["teacher"]] == [" ".join(answers[q.key].split())]
            # every fraction on the page is written exactly, and an unreduced one equals the reduced beside it
            for _, _, t in got:
                for a, b, c, d in re.findall(r"(−?\d+)/(\d+) = (−?\d+)/(\d+)", t):
                    un, re_ = Fraction(int(a.replace("−", "-")), int(b)), Fraction(int(c.replace("−", "-")), int(d))
                    assert un == re_ and int(b) != int(d), (q.id, t)


def test_the_key_shows_the_counted_fraction_where_the_lesson_counts(build, lessons):
    """Tüfteln counts out of the 36 fillings of the grid ("0 Punkte: ___ von 36"): the key says 30/36 = 5/6."""
    for lang in ("de", "en"):
        rows = key_rows(build.render_answer_key(lessons["tuefteln"][lang], "Tüfteln"))
        q = registry.question("tuefteln-q1")
        exact = q.exact_value()
        counted = exact * 36
        assert counted.denominator == 1 and exact.denominator != 36
        shown = [t for head, _, t in rows["tuefteln-q1"] if head == sheet.WORDS[lang]["exact"]][0]
        assert f"{counted.numerator}/36 = {exact.numerator}/{exact.denominator}" in shown
    # Schraube Locker counts the first roll of six dice "von 6⁶ = 46656 Würfen" / "of 6⁶ = 46656 rolls"
    for lang in ("de", "en"):
        rows = key_rows(build.render_answer_key(lessons["schraube-locker"][lang], "Schraube Locker"))
        first = [t for head, values, t in rows["schraube-locker-q2"] if Fraction(5, 324) in values]
        assert len(first) == 1 and "720/46656 = 5/324" in first[0], first
    # the count is declared (core.questions.Counted), never guessed from a denominator
    assert sheet.fraction(Counted(14, 32)) == "14/32 = 7/16" and sheet.fraction(Fraction(7, 16)) == "7/16"
    assert sheet.fraction(Counted(-820, 32)) == "−820/32 = −205/8" and sheet.fraction(Counted(9, 31)) == "9/31"



def test_no_key_says_that_a_number_equals_itself(build, lessons):
    """A whole number of points is written once ("aufhören: −9 Punkte"), not "−9 = −9 Punkte"."""
    said = 0
    for lid, lang in pages(lessons):
        for got in key_rows(build.render_answer_key(lessons[lid][lang], lid)).values():
            for _, _, text in got:
                assert not re.search(r"(?<![\d,./])(−?\d[\d,./]*) = \1(?![\d,./])", text), (lid, lang, text)
                said += bool(re.search(r"(^|: )−9 (Punkte|points)", text))
    assert said >= 2  # (Würfel Joker's stop, in both languages: the case this was found in)
    """Negative control: the key is matched to the worksheet by the declared worksheet lines."""
    meta = lessons["tuefteln"]["de"]
    core = registry.questions("tuefteln", core=True)
    with pytest.raises(ValueError, match="not the declared"):
        sheet.answer_key(meta, core[::-1])
    with pytest.raises(ValueError, match="not the declared"):
        sheet.answer_key(meta, core[:-1])


def test_the_teachers_page_links_each_answer_key_next_to_its_worksheet(build, lessons):
    cards = build.landing_cards()
    page = build.render_teachers(cards, lessons)
    for lid, lang in pages(lessons):
        section = page.split(f'id="{lid}-{lang}"')[1].split("</section>")[0]
        links = section.split('<p class="links">')[1].split("</p>")[0]
        sheet_at = links.index(f'href="{build.worksheet_path(lid, lang)}"')
        key_at = links.index(f'href="{build.answer_key_path(lid, lang)}"')
        assert key_at > sheet_at and 'class="button answer-key"' in links
        assert build.answer_key_path(lid, lang) != build.worksheet_path(lid, lang)
