"""The class board's input as teachers hand it over (issue 32, the clever-class review's F5–F7):
a stored board whose codes are refused keeps them, pastes in every usual shape are read, and what
a person typed as a name cannot run as a formula in a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest

from spieltisch.ui import classroom
from spieltisch.ui.classroom import Board, grouped, new_round, result_code, split_entries
from test_classroom import layout0_code, mixed, play_session


@pytest.fixture(scope="module")
def codes():
    r = new_round("wuerfel-joker-1", 1, seed=101)
    matches = [play_session(r, mixed(i)) for i in range(4)]
    return r, matches, [result_code(r, m, number=i + 1) for i, m in enumerate(matches)]


# --- F5: a stored board with codes this board refuses -------------------------------------------------
def test_a_stored_board_keeps_the_results_it_cannot_read_and_says_why(codes):
    r, matches, (c1, c2, *_) = codes
    old = layout0_code(r, matches[1], 2)  # a code of the layout before the two-character tag
    changed = c2[:-1] + ("0" if c2[-1] != "0" else "1")
    stored = {"format": classroom.FORMAT, "class": r.code,
              "results": [{"code": c1, "label": "Lena"}, {"code": old, "label": "Tim"},
                          {"code": changed, "label": None}, {"label": "no code at all"}]}
    board = Board.from_json(json.dumps(stored))
    assert [x.code for x in board.results] == [c1]
    assert [(u["code"], u["label"]) for u in board.unread] == [(old, "Tim"), (changed, None)]
    assert "älteren" in board.unread[0]["reason"]["de"] and board.unread[1]["reason"]["en"].startswith(
        "the result code's check characters")
    s = board.summary("de", bots=False, decisions=False, losses=False)
    assert [(u["code"], u["name"]) for u in s["unread"]] == [(old, "Tim"), (changed, None)]
    assert s["unread"][0]["reason"] == board.unread[0]["reason"]["de"]
    # written back: every result it was opened with (the one without a code was none)
    back = board.to_json()
    assert [x["code"] for x in back["results"] + back["unread"]] == [c1, old, changed]
    again = Board.from_json(back)
    assert [x.code for x in again.results] == [c1] and [u["code"] for u in again.unread] == [old, changed]
    # a new code added on the reopened board keeps them too; only the teacher's action removes them
    again.add(f"Ali: {c2}")
    assert [u["code"] for u in again.to_json()["unread"]] == [old, changed]
    again.forget_unread()
    assert again.to_json()["unread"] == [] and len(again.results) == 2


def test_an_unread_result_that_reads_now_comes_back_to_the_board(codes):
    r, _, (c1, c2, *_) = codes
    board = Board.from_json({"format": classroom.FORMAT, "class": r.code, "results": [{"code": c1, "label": "A"}],
                             "unread": [{"code": c2, "label": "B"}, {"code": c1, "label": "A again"}]})
    assert [(x.code, x.label) for x in board.results] == [(c1, "A"), (c2, "B")]
    # the same code twice: the second stays unread, saying why, instead of vanishing
    assert [u["code"] for u in board.unread] == [c1] and "already" in board.unread[0]["reason"]["en"]


# --- F6: pastes as people write them ----------------------------------------------------------------------
def test_pastes_in_every_usual_shape_are_read_with_their_names(codes):
    r, _, (c1, c2, c3, _) = codes
    g1, g2 = grouped(c1), grouped(c2)
    cases = {
        f"Lena: {g1} Tim: {g2}": [("Lena", c1), ("Tim", c2)],
        f"Lena: {g1}, Tim: {g2}; Ali: {c3}": [("Lena", c1), ("Tim", c2), ("Ali", c3)],
        f"Lena {g1}": [("Lena", c1)],
        f"{g1} Lena": [("Lena", c1)],
        f"{g1} Lena, {g2} Tim": [("Lena", c1), ("Tim", c2)],
        f"Lena – {g1}": [("Lena", c1)],
        f"Lena - {g1}": [("Lena", c1)],
        f"Lena\t{g1}": [("Lena", c1)],
        f"1. {g1}\n2. {g2}": [(None, c1), (None, c2)],
        f"1. Lena: {g1}": [("Lena", c1)],
        f"Lena, {g1}": [("Lena", c1)],
        f"lena {g1.lower()}": [("lena", c1)],
        # what was read before stays read
        f"Müller, Anna: {g1}": [("Müller, Anna", c1)],
        f"Klasse 8b: Lena: {g1}": [("Klasse 8b: Lena", c1)],
        f"Nr. 7: {g1}": [("Nr. 7", c1)],
        f"Lena: {g1.replace('-', chr(0xa0))}": [("Lena", c1)],
        f"Lena: {g1.replace('-', chr(0x2014))}": [("Lena", c1)],
        f"{g1}, {g2}, {c3}": [(None, c1), (None, c2), (None, c3)],
        # quotes and brackets around a code are not part of it, nor of the name
        f'Lena: "{g1}", Tim: «{g2}»': [("Lena", c1), ("Tim", c2)],
        f"Lena ({g1})": [("Lena", c1)],
        # U+2028 and U+2029 end lines; a code broken at them is joined again
        f"Lena\u2029{g1}": [("Lena", None), (None, c1)],
        f"Lena: {g1.replace('-', chr(0x2028))}": [("Lena", c1)],
    }
    for paste, want in cases.items():
        got = [(name, classroom.normalize(code) if code else None) for name, code in split_entries(paste, r.code)]
        assert got == want, paste
        board = Board(r.code)
        out = board.add(paste)
        assert [(a["label"], a["code"]) for a in out["added"]] == [w for w in want if w[1]], paste
    # without the round (its tag), the same shapes are found by the check characters alone
    assert split_entries(f"Lena: {g1} Tim: {g2}") == [("Lena", g1), ("Tim", g2)]


def test_a_line_without_a_code_is_refused_as_such_never_as_a_typo(codes):
    r, _, (c1, *_) = codes
    board = Board(r.code)
    out = board.add(f"Lena\nAnna Maria\nLena: {c1} (8b)")
    assert [a["label"] for a in out["added"]] == ["Lena"]
    assert [x["input"] for x in out["refused"]] == ["Lena", "Anna Maria", "(8b)"]
    for x in out["refused"]:
        assert "no result code found" in x["reason"]["en"] and "kein Ergebniscode" in x["reason"]["de"]
        assert "mistyped" not in x["reason"]["en"] and "vertippt" not in x["reason"]["de"]
    # a short code of good play may have no digit: mistyped, it is still a mistyped code
    r1 = next(x for x in (new_round("wuerfel-joker-1", 1, seed=s) for s in range(200))
              if not any(c.isdigit() for c in result_code(x, play_session(x, lambda n, step: 0))))
    short = result_code(r1, play_session(r1, lambda n, step: 0))
    typo = short[:2] + ("X" if short[2] != "X" else "Y") + short[3:]
    out = Board(r1.code).add(f"{typo}\nLena: {typo.lower()}")
    assert [x["reason"]["en"][:40] for x in out["refused"]] == ["the result code's check characters do no"] * 2
    # a letter no code has is named, as before the reader looked for codes by their shape
    out = board.add(f"Tim: {grouped(c1)}U")
    assert "'U' is not a character" in out["refused"][0]["reason"]["en"]
    # negative control: a mistyped code next to a name is still a mistyped code, with the name kept apart
    typo = c1[:3] + ("X" if c1[3] != "X" else "Y") + c1[4:]
    out = board.add(f"Tim {grouped(typo)}")
    assert out["refused"][0]["input"].startswith("Tim: ") and "mistyped" in out["refused"][0]["reason"]["en"]


def test_a_class_code_pasted_as_a_result_is_named_a_class_code(codes):
    r, _, _ = codes
    other = new_round("wuerfel-joker-1", 1, seed=102)
    board = Board(r.code)
    out = board.add(f"{grouped(r.code)}\nLena: {other.code}")
    own, foreign = out["refused"]
    assert "this round's class code, not a result code" in own["reason"]["en"]
    assert "Klassencode dieser Runde, kein Ergebniscode" in own["reason"]["de"]
    assert "a class code (of another round" in foreign["reason"]["en"] and grouped(other.code) in foreign["reason"]["en"]
    assert not any("mistyped" in x["reason"]["en"] for x in out["refused"])


def test_a_link_pasted_with_the_codes_is_one_entry_named_a_link_never_part_of_a_name(codes):
    """A student who copies their class link with their result, a teacher's paste from a chat with a
    page's address in it: the link is taken out whole and refused once, saying what it is (the link to
    this round, to another round, or some address); the names beside it stay as they were written.
    Before, its parts were read as five mistyped codes, or became part of the name ("Lena:
    https://…?c=")."""
    r, _, (c1, c2, *_) = codes
    g1, g2 = grouped(c1), grouped(c2)
    other = new_round("wuerfel-joker-1", 1, seed=102)
    own = "https://schule.example/spieltisch/play/wuerfel-joker.html?class=" + r.code.replace("-", "")
    foreign = "https://schule.example/spieltisch/play/wuerfel-joker.html?class=" + other.code
    cases = {
        f"{own}\nLena: {g1}": ([("Lena", c1)], ["class_link"]),
        f"{own} Lena: {g1}": ([("Lena", c1)], ["class_link"]),
        f"Lena: {g1} {own}.": ([("Lena", c1)], ["class_link"]),
        f"Lena: {g1}; {foreign}; Tim: {g2}": ([("Lena", c1), ("Tim", c2)], ["class_link"]),
        f"www.schule.example/klasse; Tim: {g2}": ([("Tim", c2)], ["link"]),
        f"Tim: https://chat.example/m?t={g2}": ([], ["link", "no_code"]),
        # a code broken over two lines, a link after its second half: the code joined, the link named
        f"Lena: {g1[:9]}\n{g1[9:]} https://chat.example/m": ([("Lena", c1)], ["link"]),
        f"Lena (lena@www.schule.example): {g1}": ([("Lena (lena@www.schule.example)", c1)], []),  # an address, no link
    }
    words = {"class_link": ("the link to this class round", "der Link zu dieser Klassenrunde"),
             "link": ("that is a link, not a result code", "das ist ein Link, kein Ergebniscode")}
    for paste, (want, refusals) in cases.items():
        out = Board(r.code).add(paste)
        assert [(a["label"], a["code"]) for a in out["added"]] == want, paste
        assert len(out["refused"]) == len(refusals), (paste, out["refused"])
        for kind, refused in zip(refusals, out["refused"]):
            if kind == "no_code":
                assert refused["input"] == "Tim" and "kein Ergebniscode" in refused["reason"]["de"]
            elif kind == "class_link" and other.code in paste and "Tim" in paste:
                assert f"another class round ({grouped(other.code)})" in refused["reason"]["en"], refused
                assert refused["input"].startswith("https://schule.example/")
            else:
                en, de = words[kind]
                assert en in refused["reason"]["en"] and de in refused["reason"]["de"], (paste, refused)
            assert "mistyped" not in refused["reason"]["en"]


def test_a_name_that_passes_the_checks_with_a_code_is_told_apart_by_the_replay(codes):
    """A name joined to a code passes the two check characters with probability 1/1024: such a name
    (searched for here) is kept apart on the board, which takes the stretch that replays as a game of
    its round; split without the board it is read as part of the code (the control that the replay
    is what decides)."""
    r, _, (c1, *_) = codes
    rng = random.Random(7)
    letters = "ABCDEFGHJKMNPQRSTVWXYZ"
    for _ in range(20000):
        name = rng.choice(letters) + "".join(rng.choice(letters).lower() for _ in range(rng.randrange(2, 6)))
        joined = classroom.normalize(name) + c1
        symbols = classroom._symbols(joined[:-2])
        if [classroom._check(symbols, 1), classroom._check(symbols, 2)] == [classroom._VALUE[c] for c in joined[-2:]]:
            break
    else:
        pytest.fail("no name found that passes the checks with the code")
    paste = f"{name} {grouped(c1)}"
    board = Board(r.code)
    assert split_entries(paste, r.code, board._replays) == [(name, grouped(c1))]
    assert [(a["label"], a["code"]) for a in board.add(paste)["added"]] == [(name, c1)]
    assert split_entries(paste, r.code) == [(None, paste)]


# --- F7: what a student typed as a name never runs in a spreadsheet -----------------------------------
def runs_in_a_spreadsheet(cell: str) -> bool:
    return cell.startswith(classroom.codes.FORMULA_START)


def test_names_go_into_the_csv_and_the_result_text_so_that_no_spreadsheet_runs_them(codes, monkeypatch):
    r, _, cs = codes
    names = ['=HYPERLINK("http://e.vil","Lena")', "+49 170 1234", "@SUM(A1:A9)", "=1+1"]
    pasted = "\n".join(classroom.result_text(name, code) for name, code in zip(names, cs))
    board = Board(r.code)
    out = board.add(pasted)
    # the board reads the names as typed (without the apostrophe that guards them in the text)
    assert [a["label"] for a in out["added"]] == [n[:classroom.MAX_LABEL_CHARS] for n in names]
    assert all(line.startswith("'") for line in pasted.splitlines())
    rows = list(csv.reader(io.StringIO(board.csv("de"))))[1:]
    assert sorted(row[1] for row in rows) == sorted("'" + n[:classroom.MAX_LABEL_CHARS] for n in names)
    assert not any(runs_in_a_spreadsheet(cell) for row in rows for cell in row)
    # numbers stay numbers (a negative score is not text)
    assert classroom.harmless_cell(-5) == -5 and classroom.harmless_cell("Lena") == "Lena"
    # negative control: without the guard the same board writes cells a spreadsheet runs
    monkeypatch.setattr(classroom.board, "harmless_cell", lambda x: x)
    assert any(runs_in_a_spreadsheet(cell) for row in csv.reader(io.StringIO(board.csv("de"))) for cell in row)


# --- F8: the numbers of `class board` -----------------------------------------------------------------------
def test_class_board_text_writes_numbers_as_the_board_does(capsys):
    from fractions import Fraction

    from spieltisch.cli import _lost_text, main
    from test_classroom import first, last

    r = new_round("wuerfel-joker-2", 1, seed=2718)
    matches = [play_session(r, choose) for choose in (first, last, mixed(1))]
    codes = [result_code(r, m) for m in matches]
    assert main(["class", "board", r.code, *codes, "--lang", "de"]) == 0
    out = capsys.readouterr().out.splitlines()
    mean = Fraction(sum(m.state.scores()[0] for m in matches), 3)
    assert mean < 0  # (the minus sign is what is looked at)
    shown = f"{abs(mean.numerator)}/{mean.denominator} ≈ {abs(float(mean)):.3f}".replace(".", ",")
    want = "−" + (str(abs(mean.numerator)) if mean.denominator == 1 else shown)
    assert f"Mittelwert der Klasse: {want}" in out
    best = next(line for line in out if line.startswith("Erwartungswert bei bestem Spiel: "))
    assert "−" in best and not re.search(r"-\d", best) and "--json" in best
    # the options of the decisions: the best (starred) one without "(−0,000)", the others with their loss
    options = [line for line in out if re.match(r"^   [* ] +\d+  ", line)]
    assert any(line.startswith("   *") for line in options) and any(line.startswith("    ") for line in options)
    assert all("(" not in line for line in options if line.startswith("   *"))
    assert all(re.search(r"\(−\d+,\d+\)$", line) for line in options if not line.startswith("   *"))
    assert not any("−0,000)" in line for line in out)
    # a tiny loss is not written as nothing
    assert _lost_text(0.0004, "de") == "−0,0004" and _lost_text(1.5, "en") == "−1.500"


def test_the_readers_one_step_check_of_a_stretch_is_the_codes_check():
    """The paste reader checks every stretch from prefix sums; each must equal the check computed
    over the stretch itself (codes._check), or codes would be missed or invented."""
    from spieltisch.ui.classroom import paste

    rng = random.Random(11)
    symbols = [rng.randrange(32) for _ in range(120)]
    prefix = {p: paste._prefix_checks(symbols, p) for p in (1, 2)}
    for _ in range(2000):
        a = rng.randrange(len(symbols))
        b = rng.randrange(a, len(symbols) + 1)
        for p in (1, 2):
            assert paste._stretch_check(prefix[p], p, a, b) == classroom._check(symbols[a:b], p)
