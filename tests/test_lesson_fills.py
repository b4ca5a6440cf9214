"""Every blank of every worksheet line filled in the answer key (``ByHand.fills``), and the filled lines
add up: each "=" between two calculations holds exactly, each "≈" within the rounding it shows, and
every value the key checks a line against stands in that line.

The lines are read back as a teacher would recompute them: the filled text (``sheet.filled_line``
without markup) is cut at "=" and "≈", each side's calculation is the longest stretch next to the
sign that is arithmetic (numbers, + − · × : ÷ /, brackets, powers ³, factorials !, %), and words
("P(keine 4)", "Punkte", "von 36") end it."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from math import factorial

import pytest
from spieltisch.core import registry
from spieltisch.core.questions import Counted, Rounded, Term
from spieltisch.lesson import sheet

LANGS = ("de", "en")
QUESTIONS = [q for q in registry.questions() if q.worksheet["de"]]
SUPERSCRIPTS = {c: i for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
# a label before its value ("Lagen:", "Felder je Lage:", "Kreuz zuletzt:"): words that end in a colon
LABEL = re.compile(r"(?:[^\W\d_][\w\-’'„“”]*\s+)*[^\W\d_][\w\-’'„“”]*:(?=\s)")


def tokens(text: str, lang: str) -> list:
    """Numbers (as Fractions, with the decimals they show), signs and words; German writes a decimal
    comma and divides with " : ", which a label's colon ("Lagen:") is not."""
    text = LABEL.sub(" ", text)
    comma = "," if lang == "de" else "."
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in SUPERSCRIPTS:  # (before digits: "³".isdigit())
            j = i
            while j < len(text) and text[j] in SUPERSCRIPTS:
                j += 1
            out.append(("pow", int("".join(str(SUPERSCRIPTS[d]) for d in text[i:j]))))
            i = j
        elif c.isdigit():
            m = re.match(r"[0-9]+(?:" + re.escape(comma) + r"[0-9]+)?", text[i:])
            lit = m.group(0)
            decimals = len(lit.split(comma)[1]) if comma in lit else 0
            out.append(("num", Fraction(lit.replace(comma, ".")), decimals))
            i += len(lit)
        elif c.isalpha():
            m = re.match(r"[^\W\d_]+", text[i:])
            out.append(("word", m.group(0)))
            i += len(m.group(0))
        else:
            out.append(("sign", c))
            i += 1
    return out


class Parser:
    def __init__(self, toks):
        self.toks, self.at = toks, 0

    def peek(self, *signs):
        t = self.toks[self.at] if self.at < len(self.toks) else None
        return t is not None and t[0] == "sign" and t[1] in signs

    def expr(self):
        v = self.term()
        while self.peek("+", "−", "-"):
            op = self.toks[self.at][1]
            self.at += 1
            v = v + self.term() if op == "+" else v - self.term()
        return v

    def term(self):
        v = self.unary()
        while self.peek("·", "×", ":", "÷", "/"):
            op = self.toks[self.at][1]
            self.at += 1
            w = self.unary()
            v = v * w if op in "·×" else v / w
        return v

    def unary(self):
        if self.peek("−", "-"):
            self.at += 1
            return -self.unary()
        return self.postfix()

    def postfix(self):
        v = self.atom()
        while self.at < len(self.toks):
            t = self.toks[self.at]
            if t == ("sign", "!"):
                v = Fraction(factorial(int(v)))
            elif t == ("sign", "%"):
                v = v / 100
            elif t[0] == "pow":
                v = v ** t[1]
            else:
                break
            self.at += 1
        return v

    def atom(self):
        t = self.toks[self.at]
        if t[0] == "num":
            self.at += 1
            return t[1]
        if t == ("sign", "("):
            self.at += 1
            v = self.expr()
            if not self.peek(")"):
                raise ValueError("no closing bracket")
            self.at += 1
            return v
        raise ValueError(f"not a number: {t}")


def evaluate(toks):
    """The value of ``toks`` if they are one whole calculation, else None."""
    if not toks:
        return None
    p = Parser(toks)
    try:
        v = p.expr()
    except (ValueError, IndexError, ZeroDivisionError):
        return None
    return v if p.at == len(toks) else None


def side(toks, left: bool):
    """The calculation next to a sign: the longest arithmetic stretch that ends there (left of it) or
    starts there (right of it), with its tokens; (None, []) where words stand next to the sign."""
    n = len(toks)
    spans = [(a, n) for a in range(n)] if left else [(0, b) for b in range(n, 0, -1)]
    for a, b in spans:
        v = evaluate(toks[a:b])
        if v is not None:
            return v, toks[a:b]
    return None, []


def rounding(toks) -> Fraction:
    """Half the last shown digit of a single rounded number (71,8 % → 0.0005), 0 for a calculation."""
    nums = [t for t in toks if t[0] == "num"]
    if len(nums) != 1 or any(t[0] not in ("num", "sign") or (t[0] == "sign" and t[1] not in "−-%") for t in toks):
        return Fraction(0)
    unit = Fraction(1, 10 ** nums[0][2]) / (100 if ("sign", "%") in toks else 1)
    return unit / 2


def relations(line: str, lang: str) -> list:
    """Each "=" and "≈" of a filled line between two calculations: (left, sign, right, ok)."""
    out = []
    for segment in re.split(r"\s{3,}", line):
        parts = re.split(r"\s*([=≈])\s*", segment)
        for i in range(1, len(parts), 2):
            (a, at), (b, bt) = side(tokens(parts[i - 1], lang), True), side(tokens(parts[i + 1], lang), False)
            if a is None or b is None:
                continue
            ok = a == b if parts[i] == "=" else abs(a - b) <= max(rounding(at), rounding(bt))
            out.append((parts[i - 1], parts[i], parts[i + 1], ok))
    return out


def numbers_in(value) -> list:
    if isinstance(value, (Rounded, Term)):
        return [Fraction(value.value)]
    if isinstance(value, dict):
        return []
    return [Fraction(value)]


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_every_blank_is_filled_and_the_filled_lines_add_up(question):
    assert question.by_hand is not None and question.by_hand.fills is not None, f"{question.id}: no fills"
    fills = question.by_hand.fills()
    checked = 0
    for lang in LANGS:
        lines = sheet.filled_lines(question, lang, markup=False)  # a blank left over or a value too many: ValueError
        assert not any(sheet.BLANK.search(line) for line in lines)
        for line in lines:
            for left, sign, right, ok in relations(line, lang):
                assert ok, f"{question.id} ({lang}): {left} {sign} {right} does not hold in {line!r}"
                checked += 1
        html = sheet.filled_lines(question, lang)
        assert all(h.count('<span class="fill">') == len(fills.get(i, ())) for i, h in enumerate(html))
    assert checked >= 2, f"{question.id}: no calculation in its filled lines was checked"
    # a term's text is its value; every number the key checks a line against stands in that line
    for values in fills.values():
        for v in values:
            if isinstance(v, Term):
                assert evaluate(tokens(v.text, "en")) == Fraction(v.value), v
    for c in question.by_hand.checks:
        value = c.value()
        if c.line is not None and not isinstance(value, dict):
            there = [x for v in fills.get(c.line, ()) for x in numbers_in(v)]
            # a count "of 36" the line writes out: its number of cases stands there ("beide: 2 von 36")
            counted = isinstance(value, Counted) and value.total in there and f" {value.of}" in question.worksheet["en"][c.line]
            assert Fraction(value) in there or counted, \
                f"{question.id}: {c.label['en']} = {value} is not in line {c.line}: {there}"


def test_the_filled_lines_read_as_a_teacher_writes_them():
    """A count as counted (2/36, not 1/18), a negative sum in brackets, a rounded value's unit written
    once, "≈" where an "=" stood before a rounded value, a calculation that is too long as a power."""
    lines = {q: sheet.filled_lines(registry.question(q), "de", markup=False)
             for q in ("schraube-locker-q1", "schraube-locker-q2", "wuerfel-joker-q2", "skip-bo-masters-q3")}
    assert lines["schraube-locker-q2"][1] == "P(rum) = 2/36 + 18/36 · 6/36 + 16/36 · 2/36 = 212/1296"
    assert lines["wuerfel-joker-q2"][0] == "E(weiterwürfeln) = ( 14 · 45 + (−1450) ) : 32 ≈ −25,63 Punkte"
    assert lines["schraube-locker-q1"][1] == ("P(dreimal keine 4) = (15625/46656)³   "
                                              "P(die Figur zieht) = 1 − (15625/46656)³ ≈ 96,2 %")
    assert lines["skip-bo-masters-q3"][3] == "Lesart „auch gekauft“: P = 100 %    Lesart „nur eigene“: P ≈ 82,7 %"
    en = sheet.filled_lines(registry.question("wuerfel-joker-q1"), "en", markup=False)
    assert en[1] == "P(the 9 goes up) = 14 ÷ 32 ≈ 43.8%"


def test_a_wrong_fill_is_caught():
    """Negative controls: one number of a line changed breaks its calculation; a value the key checks
    against, taken out of its line, is missed; a blank too many or too few is refused."""
    q = registry.question("wuerfel-joker-q1")
    fills = q.by_hand.fills()
    wrong = dict(fills)
    wrong[1] = (fills[1][0] + 1,) + fills[1][1:]  # 15 : 32 ≈ 43,8 %
    line = sheet.filled_line(q.worksheet["de"][1], wrong[1], q.unit, "de", markup=False)
    assert [ok for *_, ok in relations(line, "de")] == [False]
    assert [ok for *_, ok in relations(sheet.filled_lines(q, "de", markup=False)[1], "de")] == [True]
    # 1 − 125/216 = 92/216: the exact sign does not pass a value off by 1/216
    assert [ok for *_, ok in relations("P(mindestens eine 1) = 1 − 125/216 = 92/216", "de")] == [False]
    # 83,3 % is 5/6 rounded, 83,4 % is not
    assert [ok for *_, ok in relations("P(0 Punkte) = 30/36 ≈ 83,4 %", "de")] == [False]
    stripped = replace(q, by_hand=replace(q.by_hand, fills=lambda: {**fills, 0: (fills[0][0], fills[0][1] + 1)}))
    with pytest.raises(AssertionError, match="left empty = 18 is not in line 0"):
        test_every_blank_is_filled_and_the_filled_lines_add_up(stripped)
    for short in ((fills[1][0],), fills[1] + (1,)):
        with pytest.raises(ValueError, match="3 blanks"):
            sheet.filled_line(q.worksheet["de"][1], short, q.unit, "de")


def test_the_answer_key_shows_the_filled_lines():
    q = registry.question("tuefteln-q2")
    for lang, title in (("de", "Zeilen des Arbeitsblatts, ausgefüllt"), ("en", "The worksheet's lines, filled in")):
        item = sheet.key_item({"question": q.prompt[lang], "lines": q.worksheet[lang]}, q, lang)
        assert f"{title}:" in item
        assert '<span class="fill">5</span> ' + ("·" if lang == "de" else "×") + " 4" in item
        assert "____" not in item


def test_the_relations_reader_handles_labels_and_counts_out_of():
    assert [(l, s, r) for l, s, r, _ in relations("Lagen: 4 · Felder je Lage: 4 = 16 Versuche", "de")] == \
        [("Lagen: 4 · Felder je Lage: 4", "=", "16 Versuche")]
    assert all(ok for *_, ok in relations("Sechs Karten, erster Wurf: 6 · 5 · 4 · 3 · 2 · 1 = 720 von 6⁶ = 46656 Würfen", "de"))
    assert len(relations("Sechs Karten, erster Wurf: 6 · 5 · 4 · 3 · 2 · 1 = 720 von 6⁶ = 46656 Würfen", "de")) == 2
    assert not all(ok for *_, ok in relations("Lagen: 4 · Felder je Lage: 4 = 15 Versuche", "de"))
    assert relations("P(keine 4) = 15625/46656", "de") == []  # a name on the left, nothing to compare
