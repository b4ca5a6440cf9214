"""Issue 31 item 6, the fresh teacher review: one rounding everywhere, the keys answer every worksheet
line, the other reading of Skip-Bo's question 3, the keys' counted fractions, the English curriculum
labels, Scratch Island's drawing boards and the style of keys and board."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from spieltisch.core import registry
from spieltisch.core.questions import Counted, approx_text, show_value
from spieltisch.lesson import fmt, sheet

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LANGS = ("de", "en")
LESSONS = sorted({p.stem for p in NOTEBOOKS.glob("*/*.ipynb")})


def meta(lid: str, lang: str) -> dict:
    return json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8"))["metadata"]["spieltisch"]["lesson"]


def key_text(lid: str, lang: str, qid: str = "") -> str:
    """The answer key as text; with ``qid`` only that question's item."""
    page = sheet.answer_key(meta(lid, lang), registry.questions(lid, core=True))
    if qid:
        page = page.split(f'data-question="{qid}"')[1].split("data-question=")[0]
    return re.sub(r"<[^>]+>", " ", page).replace("&#x27;", "'").replace("&quot;", '"')


# --- 1. one rounding: half away from zero, from the exact value -----------------------------------------------
@pytest.mark.parametrize("value, unit, de, en", [
    (Fraction(9, 16), "share", "56,3 %", "56.3%"),  # 56,25: half-even on the float would give 56,2
    (Fraction(-205, 8), "points", "−25,63 Punkte", "−25.63 points"),  # −25,625
    (Fraction(1, 8), "share", "12,5 %", "12.5%"),
    (Fraction(1, 3), "number", "0,33", "0.33"),
])
def test_the_board_and_key_round_as_the_notebook_does(value, unit, de, en):
    assert show_value(value, unit, "de") == de and show_value(value, unit, "en") == en
    # the notebook's formatter gives the same digits
    lesson = fmt.percent(value, "de") if unit == "share" else fmt.number(value, "de")
    assert de.startswith(lesson.replace("\xa0", " ").rstrip(" %")), (de, lesson)
    # and a float of the same value rounds alike (taken at its exact binary value)
    assert show_value(float(value), unit, "de") == de


def test_the_keys_print_the_reviews_values_rounded_half_up():
    wj = key_text("wuerfel-joker", "de")
    assert "9/16 ≈ 56,3 %" in wj and "−205/8 ≈ −25,63 Punkte" in wj
    assert "56,2 %" not in wj and "−25,62" not in wj
    q = registry.question("wuerfel-joker-q2").reveal([1, 1], "de")
    assert "−25,63" in q["values_text"] and "−25,62" not in q["values_text"]


# --- 3. Skip-Bo question 3: the other reading's range is "right in the other reading" ------------------------
def test_skip_bo_q3_marks_the_own_cards_only_range_apart_in_key_and_reveal():
    q = registry.question("skip-bo-masters-q3")
    reading = q.readings[0]
    other = q.reading_indexes(reading)
    value = Fraction(reading.value())
    assert other and all(lo <= value < hi for lo, hi in (q.bins[i] for i in other))
    assert not set(other) & set(q.right_indexes())
    for lang, words in (("de", "richtig in der Lesart „nur eigene“"), ("en", "right in the reading “own cards only”")):
        counts = [0] * len(q.bins)
        counts[q.right_indexes()[0]], counts[other[0]] = 4, 3
        r = q.reveal(counts, lang)
        assert r["hits"] == 4 and f"3 {words}" in r["class_text"], r["class_text"]
        assert [d.get("right_in") is not None for d in r["distribution"]] == [i in other for i in range(len(q.bins))]
        label = q.labels(lang)[other[0]]
        assert re.search(rf"{re.escape(words[0].upper() + words[1:])}\s*{re.escape(label)}", key_text("skip-bo-masters", lang))
    # a reading without a name marks nothing: the mark is the declaration's, not guessed
    from spieltisch.core.questions import Reading
    assert q.reading_indexes(Reading(reading.label, reading.value)) == []


# --- 4. the keys' counted fractions, from the game's own functions ----------------------------------------
COUNTED = {"scratch-island-q2": ["27615024/36060024 = 1150626/1502501"],
           "scratch-island-q3": ["342930/421800 = 11431/14060", "685860/1265400 = 11431/21090"],
           "skip-bo-masters-q1": ["14280/23562 = 20/33", "9282/23562 = 13/33"],
           "skip-bo-masters-q2": ["22869362880/81119253600 = 44486/157795"],
           "skip-bo-masters-q3": ["14019392520/81119253600 ="]}


@pytest.mark.parametrize("qid", sorted(COUNTED))
def test_the_reviews_unreduced_fractions_are_in_the_keys(qid):
    q = registry.question(qid)
    shown = [sheet.fraction(c.value()) for c in q.by_hand.checks if isinstance(c.value(), Counted)]
    for want in COUNTED[qid]:
        assert any(s.startswith(want) for s in shown), (qid, want, shown)
        assert all(want in key_text(q.family, lang) for lang in LANGS)


def test_the_counted_fractions_are_the_games_own_numbers():
    """Each count is the product the tree multiplies, checked against the game's reduced value."""
    from spieltisch.games.skip_bo_masters import analysis

    q1 = registry.question("skip-bo-masters-q1")
    none = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "P(none fits)")
    n = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "N")
    g = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "g")
    assert (none.total, none.of) == ((n - g) * (n - g - 1), n * (n - 1))
    assert 1 - none == q1.exact_value() == analysis.hypergeometric_at_least_one(int(n), int(g), 2)


# --- 5. every worksheet line with blanks has its answer in the key ----------------------------------------
BLANK = sheet.BLANK  # what the answer key fills, blank by blank


def unanswered(question, lang: str) -> list:
    """The worksheet lines of ``question`` with a blank and no by-hand check that fills it."""
    lines = question.worksheet[lang]
    answered = {c.line for c in (question.by_hand.checks if question.by_hand else ())}
    return [i for i, line in enumerate(lines) if BLANK.search(line) and i not in answered]


@pytest.mark.parametrize("lid", LESSONS)
def test_every_worksheet_line_with_blanks_has_a_computed_key_entry(lid):
    for q in registry.questions(lid, core=True):
        for lang in LANGS:
            assert BLANK.search(" ".join(q.worksheet[lang])), (q.id, "a worksheet without blanks?")
            assert unanswered(q, lang) == [], (q.id, lang, [q.worksheet[lang][i] for i in unanswered(q, lang)])
            # the key prints each such entry under its line, with a value or words
            text = key_text(lid, lang)
            word = sheet.WORDS[lang]["line"]
            for c in (c for c in q.by_hand.checks if c.line is not None):
                v = c.value()
                assert isinstance(v, dict) and set(v) == set(LANGS) or Fraction(v) == Fraction(v)
                assert f"({word.format(n=c.line + 1)})" in text


def test_a_line_left_unanswered_is_caught():
    from dataclasses import replace

    q = registry.question("wuerfel-joker-q1")
    stripped = replace(q, by_hand=replace(q.by_hand, checks=tuple(c for c in q.by_hand.checks if c.line != 0)))
    assert unanswered(stripped, "de") == [0] and unanswered(q, "de") == []


def test_the_reviews_missing_answers_are_the_games_numbers():
    def check(qid, en):
        return next(c.value() for c in registry.question(qid).by_hand.checks if c.label["en"] == en)

    from spieltisch.games.scratch_island import lesson as si, questions as siq

    tries = si.boat_covers(si.start_view(siq.PAGE).layout, "T4")["tries"]
    assert check("scratch-island-q1", "stick out over the edge") == sum(t["why"] == "off" for t in tries)
    assert check("scratch-island-q1", "hit the rock") == sum(t["why"] == "rock" for t in tries)
    assert check("scratch-island-q1", "stick out over the edge") + check("scratch-island-q1", "hit the rock") \
        + check("scratch-island-q1", "of which fit") <= len(tries)
    never = check("schraube-locker-q1", "P(three times no 4)")
    assert never == (1 - registry.question("schraube-locker-q1").exact_value()) ** 3
    assert show_value(never, "share", "de") == "3,8 %"
    assert show_value(check("skip-bo-masters-q2", "P(no 5 and no Skip-Bo card among 5)"), "share", "de") == "28,2 %"
    hands = check("skip-bo-masters-q2", "smallest hands")
    assert hands["de"].count(";") == 3 and "Skip-Bo-Karte + 5" in hands["de"]
    ticked, empty = check("wuerfel-joker-q1", "ticked"), check("wuerfel-joker-q1", "left empty")
    assert Fraction(ticked, ticked + empty) == check("wuerfel-joker-q1", "P(the 9 goes up)")
    assert (ticked, empty) == (14, 18)


def test_schraube_locker_q1_reads_as_a_power_for_the_teacher():
    for lang, approx in (("de", "0,0376"), ("en", "0.0376")):
        text = key_text("schraube-locker", lang)
        assert f"1 − (15625/46656)³ ≈ 1 − {approx}" in text
        assert "97745259402791" not in text


# --- 6. Scratch Island q3: both orders' values, the right one first ------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_scratch_island_q3_key_labels_both_values_right_first(lang):
    q = registry.question("scratch-island-q3")
    text = key_text("scratch-island", lang, "scratch-island-q3")
    row = re.search(rf"{sheet.WORDS[lang]['exact']}\s+(.*?)\s+{sheet.WORDS[lang]['by_hand']}", text, re.S).group(1)
    labels = {o.key: o.label[lang] for o in q.options}
    right = q.right()
    assert right == {"first"}
    first, last = row.index(labels["first"]), row.index(labels["last"])
    assert first < last
    vals = q.values()
    assert sheet.fraction(vals["first"]) in row[first:last] and "11431/21090" in row[last:]


# --- 7. Schraube Locker: the worksheet asks what the lesson asks ---------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_schraube_locker_worksheet_asks_one_prediction_like_the_poll(lang):
    ws = meta("schraube-locker", lang)["worksheet"][0]
    q = registry.question("schraube-locker-q1")
    assert ws["predict"] and not re.search(r"drei Würf|three rolls", ws["question"])
    assert (" und wie oft" if lang == "de" else " and how often") not in ws["question"]
    # the three-roll tree stays as work, with its answer in the key
    assert any(c.line == 1 and c.label["en"].startswith("P(the pawn moves") for c in q.by_hand.checks)


# --- 2. English curriculum labels: the expected value of a random variable is A level Further Mathematics -----------
# (the DfE's A level Mathematics content leaves out the mean and variance of discrete random variables; the
# second review, issue 31); the hypergeometric distribution is beyond A level Mathematics
def ev_mislabelled(text: str) -> list:
    """Curriculum statements that place the expected value (of a random variable) at GCSE or A level
    Mathematics: a "*Curriculum:*" paragraph naming it without "Further Mathematics", "GCSE …" directly
    labelling it, or the hypergeometric distribution labelled plain "A level"."""
    bad = []
    for para in re.split(r"\n\s*\n", text):
        if "*Curriculum:*" in para and "expected value" in para and "Further Mathematics" not in para:
            bad.append(para)
        if "hypergeometric" in para and "A level" in para and "beyond A level Mathematics" not in para:
            bad.append(para)
    bad += re.findall(r"GCSE[^.;()]{0,20}\(expected value\)|GCSE[^.;]{0,20}: expected value", text)
    bad += re.findall(r"expected value[^.;()]{0,40}(?:\(A level[,)]|: A level[.;)]| is A level[.;)]| is A level \()", text)
    return bad


@pytest.mark.parametrize("lid", LESSONS)
def test_english_lessons_put_the_expected_value_at_a_level_further_mathematics(lid):
    nb = json.loads((NOTEBOOKS / "en" / f"{lid}.ipynb").read_text(encoding="utf-8"))
    text = "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    grade = nb["metadata"]["spieltisch"]["lesson"]["grade"]
    assert ev_mislabelled(text) == [] and ev_mislabelled(grade) == []
    if lid in ("wuerfel-joker", "tuefteln"):  # a core question asks for a mean: named as GCSE's expected outcome
        assert "expected outcome" in grade and "A level Further Mathematics" in grade
    if lid == "tuefteln":  # extension A's 30 × 1/6 = 5 sixes: GCSE's expected frequency, not A level
        assert "5 sixes is GCSE expected frequency" in grade


def test_the_expected_value_rule_catches_the_reviews_labels():
    assert ev_mislabelled("*Curriculum:* expected value.")
    assert ev_mislabelled("A beyond GCSE (A level), B at GCSE Higher (expected value).")
    assert ev_mislabelled("*Curriculum:* expected value (A level, beyond GCSE), law of large numbers.")
    assert ev_mislabelled("*Curriculum:* hypergeometric distribution, expected value (A level, beyond GCSE).")
    assert ev_mislabelled("question 2 – the expected value of a random variable is A level; the extensions")
    assert not ev_mislabelled("*Curriculum:* the expected value of a random variable (A level Further Mathematics, "
                              "statistics), law of large numbers.")
    assert not ev_mislabelled("*Curriculum:* hypergeometric distribution, expected value – beyond A level Mathematics "
                              "(Further Mathematics).")


# --- 9. style: "=" where exact, no "(Bereich)" for a single count, "Exact", the polls' labels as the notebook's ------
def test_approx_sign_only_where_the_shown_value_is_rounded():
    assert approx_text(Fraction(6), "count", "de") == "6"
    assert approx_text(Fraction(1), "share", "de") == "1 = 100 %"
    assert approx_text(Fraction(5, 8), "share", "en") == "5/8 = 62.5%"
    assert approx_text(Fraction(9, 16), "share", "de") == "9/16 ≈ 56,3 %"
    si = registry.question("scratch-island-q1").reveal([0] * 16, "de")["exact_text"]
    assert "= 6" in si and "≈" not in si.split("–")[0], si
    sb = registry.question("skip-bo-masters-q3").reveal([0] * 10, "en")["exact_text"]
    assert "= 1 = 100%" in sb and "≈ 100%" not in sb and sb.startswith("Exact:")


@pytest.mark.parametrize("lang", LANGS)
def test_a_single_count_is_right_without_range(lang):
    q1 = key_text("scratch-island", lang, "scratch-island-q1")
    w = sheet.WORDS[lang]
    assert f"{w['right']} ({w['range']})" not in q1 and re.search(rf"{w['right']}\s+6\b", q1)
    # a real range keeps its word
    assert f"{w['right']} ({w['range']})" in key_text("scratch-island", lang, "scratch-island-q2")
    assert "Exactly" not in key_text("tuefteln", lang) and ("orders" not in key_text("tuefteln", lang))


def notebook_poll_labels(lid: str, lang: str, key: str) -> list:
    """The labels of a notebook's w.choice poll (its list written in the call, or the named list it uses)."""
    nb = json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    call = next(src for src in code if f'w.choice("{key}"' in src)
    call = call[call.index(f'w.choice("{key}"'):]
    pairs = re.compile(r'\("([^"]+)", "[^"]+"\)')
    found = pairs.findall(call.split("lang=L")[0])
    if not found:  # a named list: STUFEN / BANDS
        name = re.search(r",\s*([A-Z_]+),\s*lang=L", call).group(1)
        src = next(s for s in code if re.search(rf"^{name} = ", s, re.M))
        found = pairs.findall(src[re.search(rf"^{name} = ", src, re.M).start():].split("]")[0])
    return found


@pytest.mark.parametrize("qid", ["tuefteln-q1", "tuefteln-q2", "skip-bo-masters-q1"])
def test_the_polls_use_the_notebooks_labels(qid):
    q = registry.question(qid)
    for lang in LANGS:
        assert q.labels(lang) == notebook_poll_labels(q.family, lang, q.key), (qid, lang)


def test_the_poll_label_comparison_sees_a_difference():
    q = registry.question("tuefteln-q1")
    other = notebook_poll_labels("tuefteln", "de", "q2")
    assert other != q.labels("de") and "gleich viel" in other
