"""The lessons' polls in the live class through the reveal (issue 31 item 3), on the teacher's board
in real Chromium.

One server (``spieltisch class serve``), one board page, three students as websocket clients
(tests/harness/livewire.py: the students' pages are checked elsewhere; here the board is what the
class sees on the projector). For each of the five lessons, in sequence, the teacher picks one core
question from the board's own question selector by its label, the students answer, the teacher
reveals, and the board must show, as text in the page: the class's answers counted per option or
range (the right ones marked), the exact value as the question declares it (or its estimate,
labelled), and the seeded simulation (its trials, seed and result). Every expected value is computed
here from the question's declaration (``core.registry.question``), never typed; the board speaks
German for some lessons and English for the others. axe-core checks one reveal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("panel")
playwright = pytest.importorskip("playwright.sync_api")

from harness.livewire import Server  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))
from a11y import assert_accessible  # noqa: E402
from test_live_board import Clients, browser, gather, join  # noqa: E402,F401 (browser: the fixture)
from spieltisch.core.questions import fraction_text, show_value  # noqa: E402
from spieltisch.core.registry import question, questions  # noqa: E402
from spieltisch.ui.live.words import WORDS  # noqa: E402

pytestmark = pytest.mark.site

NAMES = ("Ana", "Ben", "Cem")
# one core question of each lesson, in the board's language: the kinds of answer differ (options,
# ranges of a share, ranges of a count) and so do the extras a reveal shows (each option's value,
# another reading of the rules)
POLLS = (("wuerfel-joker-q1", "de"), ("tuefteln-q3", "en"), ("schraube-locker-q2", "de"),
         ("scratch-island-q1", "en"), ("skip-bo-masters-q3", "de"))


def word(key: str, lang: str, **kw) -> str:
    return WORDS[key][0 if lang == "de" else 1].format(**kw)


def picks(q, i: int) -> list[int]:
    """The three students' answers to the i-th poll: the right option or range and wrong ones, in a
    mix that differs from poll to poll (so a board that showed the last poll's counts would fail)."""
    n, right = len(q.labels("de")), q.right_indexes()[0]
    wrong = (right + 1) % n
    return [[right, right, wrong], [wrong, right, (right + 2) % n], [wrong, wrong, right]][i % 3]


def test_one_lesson_poll_per_game_through_the_reveal_on_the_live_board(browser, tmp_path):
    assert sorted(question(qid).family for qid, _ in POLLS) == sorted({q.family for q in questions()})
    assert {lang for _, lang in POLLS} == {"de", "en"}
    server = Server(tmp_path).start()
    clients = Clients()
    try:
        teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        teacher.goto(server.teacher)
        teacher.wait_for_selector(".lv-room h2", timeout=60_000)
        room = teacher.locator(".lv-room h2").inner_text()
        students = clients(gather(*(join(server.base, room, n) for n in NAMES)))
        # one student reads in English whatever the board's language: each page its own
        clients(students[-1].act({"type": "lang", "lang": "en"}))
        reads = ["de"] * (len(NAMES) - 1) + ["en"]
        teacher.wait_for_selector(f"tr[data-student='{len(NAMES)}']", timeout=30_000)
        board_lang = "de"
        for i, (qid, lang) in enumerate(POLLS):
            q = question(qid)
            assert q.core
            if lang != board_lang:  # the board's own language switch
                teacher.click(f".lv-lang[data-lang='{lang}']")
                teacher.wait_for_function("(l) => document.documentElement.lang === l", arg=lang, timeout=30_000)
                board_lang = lang
            labels = q.labels(lang)

            # --- the teacher asks the lesson's question from the board's selector, by its label ---
            teacher.select_option("#lv-kind", "lesson")
            offered = teacher.locator("#lv-lesson option").all_inner_texts()
            assert offered == [x.title[lang] for x in questions()]
            teacher.select_option("#lv-lesson", label=q.title[lang])
            teacher.click(".lv-start")
            teacher.locator(".lv-now-title", has_text=q.prompt[lang]).wait_for(timeout=30_000)

            # --- the students answer, each page in its own language ---
            answers = picks(q, i)
            clients(gather(*(s.wait(lambda v, q=q, r=r: v["page"] == "poll" and v["question"] == q.prompt[r]
                                    and v["options"] == q.labels(r)) for s, r in zip(students, reads))))
            clients(gather(*(s.act({"type": "answer", "value": a}) for s, a in zip(students, answers))))
            teacher.locator(".lv-count", has_text=word("answers", lang, n=len(NAMES))).wait_for(timeout=30_000)
            cells = teacher.locator("tr[data-student]")
            shown = dict(zip(cells.locator(".lv-name").all_inner_texts(),
                             cells.locator(".lv-answer").all_inner_texts()))
            assert shown == {s.view["name"]: labels[a] for s, a in zip(students, answers)}

            # --- the reveal: the distribution, the exact value, the simulation, as text ---
            teacher.click(".lv-reveal")
            rnd = teacher.locator(".lv-round[data-status='revealed']")
            rnd.locator(".lv-simulation").wait_for(timeout=60_000)
            counts = [answers.count(k) for k in range(len(labels))]
            right = q.right_indexes()
            rows = rnd.locator(".lv-bars tr")
            assert rows.locator("th").all_inner_texts() == labels
            assert [int(t) for t in rows.locator("td").all_inner_texts()] == counts
            marked = rows.evaluate_all("rs => rs.map((r, i) => r.classList.contains('lv-mark') ? i : -1)")
            # each count on its bar's line (the longest bar once pushed its count onto a line of its own)
            heights = rows.evaluate_all("rs => rs.map((r) => Math.round(r.getBoundingClientRect().height))")
            assert len(set(heights)) == 1, heights
            assert [k for k in marked if k >= 0] == right
            truth = rnd.locator(".lv-truth").inner_text()
            if q.exact is not None:
                exact = q.exact_value()
                assert truth.startswith("Exakt" if lang == "de" else "Exact:"), truth
                for part in (q.exact_of[lang], fraction_text(exact), show_value(float(exact), q.unit, lang)):
                    assert part in truth, (part, truth)
            else:  # an estimate, labelled as one, with its method
                assert truth.startswith("Geschätzt" if lang == "de" else "Estimated"), truth
                assert q.estimate.method[lang] in truth, truth
            assert all(labels[k] in truth for k in right), truth
            sim, s = q.simulate(), q.simulation
            simulated = rnd.locator(".lv-simulation").inner_text()
            for part in (s.what[lang], f"{s.n} ", f" {s.seed}", show_value(sim.mean, q.unit, lang),
                         show_value(sim.lo, q.unit, lang), show_value(sim.hi, q.unit, lang)):
                assert part in simulated, (part, simulated)
            hits = sum(counts[k] for k in right)
            # a range right in another, named reading is counted apart (Skip-Bo q3: „nur eigene“)
            other = {lg: "".join(f"; {sum(counts[k] for k in q.reading_indexes(r))} "
                                 f"{'richtig in der Lesart' if lg == 'de' else 'right in the reading'} {r.name[lg]} "
                                 f"({', '.join(q.labels(lg)[k] for k in q.reading_indexes(r))})"
                                 for r in q.readings if q.reading_indexes(r)) for lg in ("de", "en")}
            assert rnd.locator(".lv-class").inner_text() == (
                f"Klasse: {hits} von {len(NAMES)} richtig{other['de']}" if lang == "de"
                else f"Class: {hits} of {len(NAMES)} right{other['en']}")
            # the students' pages get the same reveal, each in its language
            seen = clients(students[-1].wait(lambda v: v["result"]["lesson"]["simulation"] is not None))["result"]
            assert [(c["label"], c["count"]) for c in seen["counts"]] == list(zip(q.labels("en"), counts))
            assert seen["lesson"]["class_text"] == f"Class: {hits} of {len(NAMES)} right{other['en']}"
            if q.values is not None:  # each option's own value
                values, text = q.values(), rnd.locator(".lv-values").inner_text()
                assert values
                for o in q.options:
                    if o.key in values:
                        assert f"{o.label[lang]}: {show_value(float(values[o.key]), q.unit, lang)}" in text, text
            for reading in q.readings:  # another reading of the rules, and its answer
                assert (f"{reading.label[lang]}: {show_value(float(reading.value()), q.unit, lang)}"
                        in rnd.locator(".lv-readings").inner_text())
            if i == 0:  # once: the reveal with the most in it (each option's value besides the rest)
                assert q.values is not None
                assert_accessible(teacher, f"the board with the reveal of {qid}")
        clients(gather(*(p.close() for p in students)), 60)
    finally:
        clients.stop()
        server.stop()

