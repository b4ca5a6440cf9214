"""Issue 31 item 6 for Würfel Joker and Schraube Locker (and the answer keys of every lesson): the
subtraction reading and the numbers it gives, the 45-minute cores, the keys' unreduced fractions and
the shared wording rules of the lesson texts."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from spieltisch.core import registry
from spieltisch.core.questions import Counted
from spieltisch.lesson import sheet

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
MINE = ("wuerfel-joker", "schraube-locker")
LANGS = ("de", "en")


def lesson(lid: str, lang: str) -> dict:
    return json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8"))


def meta(lid: str, lang: str) -> dict:
    return lesson(lid, lang)["metadata"]["spieltisch"]["lesson"]


def all_lessons() -> list:
    return sorted({p.stem for p in NOTEBOOKS.glob("*/*.ipynb")})


# --- Würfel Joker: the subtraction reading --------------------------------------------------------------
def _pushes(v: int, negative: bool) -> tuple:
    """Counted from the rulebook's words, not the engine: with only ``v`` down (slide 5 up unless v = 5),
    how many of the 36 throws push it, and how many count (a double that cannot push it is thrown
    again). ``negative``: the other reading, where a − b may be negative before ± 5 (1 − 6 + 5 = 0)."""
    five = v != 5
    push = counted = 0
    for a in range(1, 7):
        for b in range(1, 7):
            hi, lo = max(a, b), min(a, b)
            first = {a + b, a * b} | ({hi - lo} if hi != lo else set()) | ({hi // lo} if hi % lo == 0 else set())
            if negative and a != b:
                first.add(lo - hi)
            made = {r for r in first if 1 <= r <= 9} | ({a} if a == b else set())
            if five:
                made |= {r + d for r in first for d in (5, -5) if 1 <= r + d <= 9}
            if v in made:
                push += 1
                counted += 1
            elif a != b:
                counted += 1
    return push, counted


def test_wuerfel_joker_q1_numbers_follow_larger_minus_smaller_and_the_other_reading_would_favour_4():
    q = registry.question("wuerfel-joker-q1")
    values = q.values()
    for v in range(1, 10):
        push, counted = _pushes(v, negative=False)
        assert (values[str(v)].total, values[str(v)].of) == (push, counted), v
    assert q.right() == {"7"} and (values["7"].total, values["7"].of) == (22, 32)
    assert (values["9"].total, values["9"].of) == (14, 32)
    # the reading matters: with a negative intermediate result slide 4 would be the easiest
    other = {v: Fraction(*_pushes(v, negative=True)) for v in range(1, 10)}
    assert max(other, key=other.get) == 4 and other[4] > values["7"]


@pytest.mark.parametrize("lang", LANGS)
def test_wuerfel_joker_states_the_subtraction_reading_where_students_and_teachers_meet_it(lang):
    nb = lesson("wuerfel-joker", lang)
    m = nb["metadata"]["spieltisch"]["lesson"]
    reading = (re.compile(r"größere\**\s+minus\s+kleinere.*?\b(kein|nie)\b.{0,20}negativ", re.S) if lang == "de"
               else re.compile(r"larger\s+(die\s+)?minus\s+the\s+smaller.*?\b(no|never)\b.{0,20}negative", re.S))
    rules = [("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "markdown"
             and re.search(r"^### (Die Regeln|The rules)", "".join(c["source"]), re.M)]
    assert len(rules) == 1 and reading.search(rules[0]), "the rules cell"
    q1 = m["worksheet"][0]
    assert reading.search(q1["task"]), "the worksheet's task of question 1"
    teacher = [("".join(c["source"])) for c in nb["cells"] if "teacher" in c.get("metadata", {}).get("tags", ())]
    assert reading.search(teacher[0]), "the teacher note of question 1"
    step = [s for s in m["path"] if s["cells"].startswith(("Frage 1", "Question 1"))][0]
    assert reading.search(step["show"] + " " + step["ask"]), "the teachers' page (path, question 1)"
    # negative control: the pattern does not match a text without the reading
    assert not reading.search("Minus: " + ("die Differenz der Augenzahlen" if lang == "de" else "the difference"))


# --- the answer keys: the unreduced fraction from the declarations --------------------------------------
def _declared(q) -> list:
    out = [q.exact()] if q.exact is not None else []
    if q.values is not None:
        out += list(q.values().values())
    if q.by_hand is not None:
        out += [c.value() for c in q.by_hand.checks]
    out += [r.value() for r in q.readings]
    return out


@pytest.mark.parametrize("lid", all_lessons())
def test_every_key_shows_each_declared_count_beside_its_reduced_fraction_and_guesses_none(lid):
    for lang in LANGS:
        m = meta(lid, lang)
        core = registry.questions(lid, core=True)
        key = sheet.answer_key(m, core)
        items = dict(re.findall(r'<li data-question="([^"]+)">(.*?)</li>(?=\s*<li data-question|\s*$)', key, re.S))
        assert sorted(items) == sorted(q.id for q in core), (lid, lang)
        for q in core:
            text = items[q.id]
            counts = {v.unreduced(): Fraction(v) for v in _declared(q) if isinstance(v, Counted) and v.unreduced()}
            for un, f in counts.items():
                reduced = f"{f.numerator}/{f.denominator}".replace("-", "−")
                assert f"{un.replace('-', '−')} = {reduced}" in text, (q.id, lang, un)
            # every "a/b = c/d" on the key is a declared count: nothing guessed from a denominator
            shown = {a.replace("−", "-") + "/" + b for a, b, _, _ in re.findall(r"(−?\d+)/(\d+) = (−?\d+)/(\d+)", text)}
            assert shown == set(counts), (q.id, lang, shown, set(counts))


def test_the_keys_named_by_the_review_carry_their_counts():
    key = sheet.answer_key(meta("wuerfel-joker", "de"), registry.questions("wuerfel-joker", core=True))
    assert "14/32 = 7/16" in key and "22/32 = 11/16" in key and "−820/32 = −205/8" in key
    key = sheet.answer_key(meta("skip-bo-masters", "en"), registry.questions("skip-bo-masters", core=True))
    assert "34/154 = 17/77" in key
    # negative control: Schraube Locker's small game (53/324) is not written over the 46656 rolls that the
    # same worksheet question counts elsewhere – its own count is over the 36 · 36 pairs of rolls
    key = sheet.answer_key(meta("schraube-locker", "de"), registry.questions("schraube-locker", core=True))
    assert "7632/46656" not in key and "212/1296 = 53/324" in key
    assert sheet.fraction(Fraction(53, 324)) == "53/324"


def test_a_count_is_whole_numbers_and_reduces_like_a_fraction():
    c = Counted(14, 32)
    assert c == Fraction(7, 16) and c.unreduced() == "14/32" and Counted(9, 31).unreduced() is None
    assert type(c + 0) is Fraction and type(Fraction(c)) is Fraction
    with pytest.raises(ValueError):
        Counted(Fraction(1, 2), 3)


# --- Würfel Joker extension B: the cautious player's doubles, as the bot plays them ------------------------
def test_the_cautious_player_rolls_useless_doubles_again_and_never_declines_a_useful_one_as_the_text_says():
    from spieltisch.core.rng import Rng
    from spieltisch.games.wuerfel_joker.spiel2 import engine as rules
    from spieltisch.games.wuerfel_joker.spiel2.bots import ThresholdBot

    def act(up, die):
        state = rules.Spiel2Game(1, {"rounds": 1}).position(up=up)
        state.apply_action(rules.THROW_OF[(die, die)])
        legal = state.legal_actions()
        return legal, ThresholdBot().act(state.observation(0), legal, Rng(1))

    legal, chosen = act(list(range(1, 9)), 1)  # only 9 down: double 1 pushes nothing
    assert set(legal) == {rules.DECLINE, rules.ACCEPT} and chosen == rules.DECLINE
    legal, chosen = act(list(range(1, 9)), 3)  # double 3 pushes the 9 (3 · 3)
    assert rules.DECLINE in legal and chosen == rules.PUSH[9]
    texts = {"de": (r"Pasch ohne Nutzen.*immer neu.*nie als Fehlwurf.*nutzt er immer.*verzichtet nie", "## Erweiterung B"),
             "en": (r"useless double.*always rolls\s+again.*never taking it as a failed roll.*always use.*never\s+declining",
                    "## Extension B")}
    for lang, (said, head) in texts.items():
        cells = ["".join(c["source"]) for c in lesson("wuerfel-joker", lang)["cells"] if c["cell_type"] == "markdown"]
        ext_b = [c for c in cells if c.startswith(head)]
        assert len(ext_b) == 1 and re.search(said, ext_b[0], re.S), lang


# --- Schraube Locker: what each further roll adds ------------------------------------------------------
def test_schraube_lockers_prompt_about_further_rolls_matches_the_numbers():
    from spieltisch.games.schraube_locker import lesson_numbers as numbers

    p1, p2, p3 = (numbers.circle_probability((1, 2, 3, 4, 5, 6), rolls=r) for r in (1, 2, 3))
    assert p3 - p2 > p2 - p1 > 0  # the third roll adds more percentage points than the second
    said = {"de": "Der dritte Wurf bringt mehr Prozentpunkte dazu als der\nzweite",
            "en": "the third roll adds more percentage points than the second"}
    wrong = {"de": "Warum hilft der zweite Wurf so viel mehr", "en": "Why does the second roll help so much more"}
    for lang in LANGS:
        text = "\n".join("".join(c["source"]) for c in lesson("schraube-locker", lang)["cells"])
        assert said[lang] in text and wrong[lang] not in text, lang


# --- honest timings: the 45-minute core -------------------------------------------------------------------
# a step's least honest time: a prediction, the work by hand (a grid for pairs, a tree, a calculation, a count)
# and the exact value, the simulation and the comparison live
LEAST = {"predict": 1, "grid": 8, "tree": 8, "calc": 5, "count": 3, "live": 3}
QUESTION = {"de": re.compile(r"^Frage (\d+)\b"), "en": re.compile(r"^Question (\d+)\b")}
EXTENSION = {"de": ("Erweiterung", "Für Schnelle"), "en": ("Extension", "For quick students")}


@pytest.mark.parametrize("lid", MINE)
@pytest.mark.parametrize("lang", LANGS)
def test_the_core_fits_45_minutes_with_every_core_question_and_honest_steps(lid, lang):
    nb = lesson(lid, lang)
    m = nb["metadata"]["spieltisch"]["lesson"]
    assert sum(s["minutes"] for s in m["path"]) <= 45
    in_path = {f"q{QUESTION[lang].match(s['cells']).group(1)}": s for s in m["path"] if QUESTION[lang].match(s["cells"])}
    declared = {q.key: q for q in registry.questions(lid)}
    assert set(in_path) == {k for k, q in declared.items() if q.core}, (lid, lang)
    assert not any(QUESTION[lang].match(s["cells"]) for s in m["extensions"])
    assert all(s["cells"].startswith(EXTENSION[lang]) for s in m["extensions"]), "extensions say so"
    teacher = [("".join(c["source"])) for c in nb["cells"] if "teacher" in c.get("metadata", {}).get("tags", ())]
    for key, step in in_path.items():
        q = declared[key]
        least = LEAST["predict"] + LEAST["live"] + (LEAST[q.by_hand.kind] if q.by_hand else 0)
        assert step["minutes"] >= least, (lid, lang, key, step["minutes"], least)
        # the teacher note of the question says the same time as the teachers' page
        n = key[1:]
        head = (rf"Frage {n} \(etwa (\d+) Minuten\)" if lang == "de" else rf"question {n} \(about (\d+) minutes\)")
        said = [int(x) for t in teacher for x in re.findall(head, t)]
        assert said == [step["minutes"]], (lid, lang, key, said)
    # the notebook's own structure: every extension named in the metadata is a part of the notebook
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for s in m["extensions"]:
        name = s["cells"].split(":")[0]
        if name.startswith(EXTENSION[lang][0]):
            assert re.search(rf"^## {re.escape(name)}:", text, re.M), (lid, lang, name)
        else:
            assert f"**{EXTENSION[lang][1]} –" in text, (lid, lang, name)


def test_a_core_that_overruns_or_skips_a_core_question_is_refused():
    """Negative control of the timing test's arithmetic on a copy of the metadata."""
    m = meta("wuerfel-joker", "de")
    assert sum(s["minutes"] for s in m["path"]) <= 45
    m["path"][1]["minutes"] += 1
    assert sum(s["minutes"] for s in m["path"]) > 45
    in_path = {QUESTION["de"].match(s["cells"]).group(1) for s in m["path"][:3] if QUESTION["de"].match(s["cells"])}
    assert in_path != {"1", "2", "3"}


# --- questions that hint at an answer on the teachers' page ------------------------------------------------
MARK = {"de": "(nach der Vorhersage)", "en": "(after the prediction)"}


@pytest.mark.parametrize("lid", MINE)
@pytest.mark.parametrize("lang", LANGS)
def test_no_ask_names_its_questions_answer_before_the_after_the_prediction_mark(lid, lang):
    m = meta(lid, lang)
    other = MARK["en" if lang == "de" else "de"]
    for step in m["path"] + m["extensions"]:
        ask = step.get("ask", "")
        assert other not in ask
        before = ask.split(MARK[lang])[0]
        hit = QUESTION[lang].match(step["cells"])
        if hit:
            q = registry.question(f"{lid}-q{hit.group(1)}")
            labels = q.labels(lang)
            for i in q.right_indexes():
                assert not re.search(rf"(?<!\w){re.escape(labels[i])}(?!\w)", before), (lid, lang, ask)
    marked = [s for s in m["path"] + m["extensions"] if MARK[lang] in s.get("ask", "")]
    assert marked, "the asks that hint are marked"


# --- the shared wording rules --------------------------------------------------------------------------------
RULES = {
    "de": {"Testspiele, nicht Probespiele": r"Testspiel",
           "kein ¢": r"¢",
           "(N über k), nicht C(N,k)": r"\bC\(\s*\d+\s*,\s*\d+\s*\)",
           "eine Schätzung ist nie „Richtig ist“": None},
    "en": {"The correct answer is, not Correct is / Right is": r"(?<!answer )\b(?:Correct|Right) is\b",
           "in brief, not in short": r"(?i)\b(?:in short|in a nutshell|briefly put)\b",
           "penalty points, not minus / negative points": r"\b(?:minus|negative)\s+points\b",
           "orientations / placements, not rotations": r"\brotations?\b",
           "the English curriculum, not German grades": r"\b(?:[Gg]rades?\s+\d|Klasse\s+\d|Jahrgangsstufe)",
           "an estimate is never The correct answer is": None},
}
BAD = {"Testspiele, nicht Probespiele": "100 Testspiele", "kein ¢": "5 ¢", "(N über k), nicht C(N,k)": "C(6, 2) = 15",
       "The correct answer is, not Correct is / Right is": "Correct is: 7",
       "in brief, not in short": "In short, stop.", "penalty points, not minus / negative points": "9 minus\npoints",
       "orientations / placements, not rotations": "all rotations", "the English curriculum, not German grades": "grade 10"}
GOOD = {"The correct answer is, not Correct is / Right is": "The correct answer is: 7",
        "the English curriculum, not German grades": "GCSE Higher"}


def texts(nb: dict) -> list:
    """Everything a person reads: Markdown, the metadata and the stored text outputs."""
    out = [json.dumps(nb["metadata"]["spieltisch"]["lesson"], ensure_ascii=False)]
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            out.append("".join(c["source"]))
        for o in c.get("outputs", ()):
            out += ["".join(v) for k, v in o.get("data", {}).items() if k == "text/plain"]
            if "text" in o:
                out.append("".join(o["text"]))
    return out


@pytest.mark.parametrize("lid", MINE)
@pytest.mark.parametrize("lang", LANGS)
def test_the_wording_rules_hold_in_my_lessons(lid, lang):
    nb = lesson(lid, lang)
    for rule, pattern in RULES[lang].items():
        if pattern is None:
            continue
        for t in texts(nb):
            assert not re.search(pattern, t), (lid, lang, rule, re.search(pattern, t).group(0))
    if lang == "en":
        grade = nb["metadata"]["spieltisch"]["lesson"]["grade"]
        assert re.search(r"Key Stage|GCSE|A level", grade), grade
    # an estimate is never presented as the correct answer: the compare of a question without an exact value
    right = "Richtig ist" if lang == "de" else "The correct answer is"
    estimates = [c for c in nb["cells"] if c["cell_type"] == "code" and re.search(r'w\.compare\("q\d+", None', "".join(c["source"]))]
    for c in estimates:
        assert not any(right in t for t in texts({"metadata": nb["metadata"], "cells": [c]})[1:]), (lid, lang)
    if lid == "wuerfel-joker":
        assert estimates, "Würfel Joker's extension B compares with a simulation only"


def test_each_wording_rule_catches_its_bad_text_and_passes_the_good_one():
    for lang, rules in RULES.items():
        for rule, pattern in rules.items():
            if pattern is None:
                continue
            assert re.search(pattern, BAD[rule]), rule
            if rule in GOOD:
                assert not re.search(pattern, GOOD[rule]), rule
