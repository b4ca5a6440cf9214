"""Reading a paste of result codes as teachers collect them ("Lena: CODE", "CODE Lena", numbered
lists, several on a line), and the text a student's page hands over (``result_text``)."""

from __future__ import annotations

import re

from .codes import (
    ALPHABET, CodeError, FORMULA_START, MAX_CODE_CHARS, MAX_ENTRIES, MAX_LABEL_CHARS, TAG_CHARS, _EXP, _LOG, _VALUE,
    _gf_mul, _spacing, _symbols, grouped, harmless_cell, normalize,
)
from .results import _tag


# --- reading a paste ------------------------------------------------------------------------------
# A paste is whatever a teacher collects: "Lena: CODE", "Lena CODE", "CODE Lena", "Lena – CODE",
# "1. CODE", several "Name: CODE" on one line. So the codes are found by their shape, not by the
# punctuation around them: a stretch of code characters whose two check characters hold is a result
# code (another stretch passes them with probability 1/1024: where two overlapping stretches pass, the
# one that is a game of the board's round wins), the text between codes is the names. A stretch of
# letters and digits that fails its checks but looks like a code (five characters or more, no word
# written as names are, "Lena") is still taken as a code, so that a mistyped code is
# refused as mistyped (or naming the letter no code has, such as U); a line with nothing shaped like
# a code is refused as such.
# Never inside a code: they end one (and may sit inside a name). Quotes and brackets around a code,
# and a link's punctuation, are not part of it.
_BREAKS = ",:;\"'«»„“”‚‘’`()[]{}<>/?=&#"
_SEARCHED_CHARS = 400  # the longest stretch tried as a code by its checks (a long Skip-Bo code has ~100)
_SEARCHED_WORDS = 120  # … and the most words in it (a code typed with a space between every character)
_SEARCHED_STRETCHES = 200_000  # stretches one paste may try (a pathological paste stops here, quickly)
MAX_PASTE_CHARS = 200_000  # a paste of MAX_ENTRIES long codes with names has well under this
_LIST_NUMBER = re.compile(r"^\d{1,3}[.)](?=\s|$)")  # "1. CODE": a numbered list, not a name
# A link in a paste (the class link a student copied with their result, a page's address): taken out
# of its line whole, so that its parts are neither codes nor part of a name, and given back as an
# entry of its own (the board says what it is); the punctuation after it ends a sentence, not the link.
# Only a link that stands as a word of its own: one inside a name's quotes ('=HYPERLINK("http://…")')
# is the name's, kept as typed (the CSV guards it).
LINK = re.compile(r"(?i)(?:^|(?<=[\s(\[<,;:]))(?:https?://|www\.)[^\s<>\"'«»„“”‚‘’`]+")
_LINK_END = ".,;:!?)]}"


def _code_char(ch: str) -> bool:
    up = ch.upper()
    return len(up) == 1 and up in _VALUE


def _canon(word: str) -> str:
    return "".join(ALPHABET[_VALUE[c.upper()]] for c in word)


def _name_like(word: str) -> bool:
    """A word written as names are ("Lena", "McKenzie") and codes are not: no digit, upper and lower case."""
    return not any(c.isdigit() for c in word) and any(c.islower() for c in word) and any(c.isupper() for c in word)


def _code_shaped(words: list, beside_a_code: bool) -> bool:
    """Whether letters and digits that fail the checks still look like a code (then it is mistyped):
    five characters or more, none of its words written as a name (a short code of good play may
    hold no digit at all: "GJXKK"); on a line that holds a code, only with a digit ("=HYPERLINK(…):
    CODE" is a name and a code)."""
    chars = "".join(words)
    if len(chars) < 5 or any(_name_like(w) for w in words):
        return False
    return not beside_a_code or any(c.isdigit() for c in chars)


def _runs(line: str) -> list[list[tuple[int, int]]]:
    """The runs of ``line``: (start, end) of each word of letters and digits, grouped where only
    spaces, hyphens or dashes stand between them (a code written in groups). A word with another
    character, or a comma, colon, semicolon, quote or bracket, ends a run."""
    runs, run, i, n = [], [], 0, len(line)
    while i < n:
        if _spacing(line[i]):
            i += 1
            continue
        if line[i] in _BREAKS:
            run = _close(runs, run)
            i += 1
            continue
        j = i
        while j < n and not _spacing(line[j]) and line[j] not in _BREAKS:
            j += 1
        if line[i:j].isalnum():
            run.append((i, j))
        else:
            run = _close(runs, run)
        i = j
    _close(runs, run)
    return runs


def _close(runs: list, run: list) -> list:
    if run:
        runs.append(run)
    return []


def _prefix_checks(symbols: list, power: int) -> list:
    """``out[k]``: the check sum of ``symbols[:k]`` with weights x**(power*(pos+1)); the check of a
    stretch ``symbols[a:b]`` is then ``(out[b] ^ out[a]) * x**(-power*a)``, one step per stretch."""
    out = [0]
    for pos, d in enumerate(symbols):
        out.append(out[-1] ^ _gf_mul(d, _EXP[(power * (pos + 1)) % 31]))
    return out


def _stretch_check(prefix: list, power: int, a: int, b: int) -> int:
    v = prefix[b] ^ prefix[a]
    return 0 if v == 0 else _EXP[(_LOG[v] - power * a) % 31]


def _checked_spans(line: str, run: list, tag: str | None, accept=None, budget=None) -> list[tuple[int, int]]:
    """The stretches of whole words of ``run`` whose check characters hold, none overlapping. Where
    two overlap (a name or part of a code made a stretch that passes by chance), the one with this
    round's tag, then the one ``accept`` takes (the board: it replays as a game of the round), then
    the longer wins. ``budget`` ([n]): how many stretches a paste may still try (a paste of
    thousands of one-letter words would take minutes otherwise)."""
    words = [_canon(line[a:b]) if all(_code_char(c) for c in line[a:b]) else None for a, b in run]
    chars = "".join(w or "" for w in words)
    symbols = _symbols(chars)
    p1, p2 = _prefix_checks(symbols, 1), _prefix_checks(symbols, 2)
    starts, at = [], 0
    for w in words:
        starts.append(at)
        at += len(w or "")
    found = []
    for i in range(len(run)):
        a = starts[i]
        for j in range(i, min(len(run), i + _SEARCHED_WORDS)):
            if words[j] is None:
                break  # a letter no code has (U, Ü, …): no code goes across it
            b = starts[j] + len(words[j])
            if b - a > _SEARCHED_CHARS:
                break
            if b - a < TAG_CHARS + 3:
                continue
            if budget is not None:
                if budget[0] <= 0:
                    break
                budget[0] -= 1
            if (_stretch_check(p1, 1, a, b - 2), _stretch_check(p2, 2, a, b - 2)) == (symbols[b - 2], symbols[b - 1]):
                found.append([tag is not None and chars[b - TAG_CHARS - 2:b - 2] == tag, False, b - a, i, j, chars[a:b]])
    if accept is not None:
        for f in found:
            if any(g is not f and not (g[4] < f[3] or g[3] > f[4]) for g in found):
                f[1] = bool(accept(f[5]))  # only where stretches compete: it costs a replay
    taken: list[tuple[int, int]] = []
    for *_, i, j, _ in sorted(found, key=lambda f: f[:3], reverse=True):
        if all(j < a or i > b for a, b in taken):
            taken.append((i, j))
    return taken


_QUOTES = "\"'«»„“”‚‘’`"


def _clean_name(text: str) -> str:
    """A name as written around a code: without the colon, comma, dash, list number, quote or bracket
    that joined them, its spaces collapsed (a bracket that the name closes stays: "=HYPERLINK(…)")."""
    def joiner(ch: str, closing: str) -> bool:
        return _spacing(ch) or ch in ",:;" or ch in _QUOTES or ch in closing

    a, b = 0, len(text)
    while a < b and joiner(text[a], ")]}>"):  # the end of the code before: '"CODE1", Tim'
        a += 1
    number = _LIST_NUMBER.match(text, a)
    if number:
        a = number.end()
    if text.startswith("'", a) and text[a + 1:b].startswith(FORMULA_START):
        a += 1  # the apostrophe that kept a name from running in a spreadsheet (result_text)
    while a < b and joiner(text[a], ")]}>"):
        a += 1
    while b > a and joiner(text[b - 1], "([{<"):  # the start of the code after: 'Lena: "CODE'
        b -= 1
    return " ".join(text[a:b].split())


def _line_codes(line: str, tag: str | None, accept=None, budget=None) -> list[tuple[int, int, bool]]:
    """(start, end, checks hold) of each code in ``line``, in order."""
    out = []
    runs = _runs(line)
    taken_in = [sorted(_checked_spans(line, run, tag, accept, budget)) for run in runs]
    beside_a_code = any(taken_in)
    for run, taken in zip(runs, taken_in):
        out.extend((run[i][0], run[j][1], True) for i, j in taken)
        # the words between the codes found: a mistyped code, or a name
        edges = [-1] + [k for i, j in taken for k in (i, j)] + [len(run)]
        for lo, hi in zip(edges[0::2], edges[1::2]):
            lo += 1

            def word(k):
                return line[run[k][0]:run[k][1]]

            while lo < hi and (_name_like(word(lo)) or (word(lo).isdigit() and len(word(lo)) <= 3)):
                lo += 1  # a name or a list number before a code
            while lo < hi and _name_like(word(hi - 1)):
                hi -= 1  # a name after it
            if lo < hi and _code_shaped([word(k) for k in range(lo, hi)], beside_a_code):
                out.append((run[lo][0], run[hi - 1][1], False))
    return sorted(out)


def result_text(label: str | None, code: str) -> str:
    """What the student's page shows, copies and puts into the QR code: ``Name: CODE`` (or the code
    alone). A name that would start a formula where the text lands in a spreadsheet gets the
    apostrophe that keeps it text; the board reads the name without it."""
    return f"{harmless_cell(label)}: {grouped(code)}" if label else grouped(code)


def _line_entries(line: str, tag: str | None = None, accept=None,
                  budget=None) -> list[tuple[str | None, str | None, bool]]:
    """One line's ``(name, code, checks hold)`` entries; ``code`` None: the line has no code, only
    this text. Names stand before their codes ("Lena: CODE", "Lena – CODE", "Müller, Anna: CODE"),
    or after them when the line starts with a code ("CODE Lena")."""
    codes = _line_codes(line, tag, accept, budget)
    if not codes:
        text = _clean_name(line)
        return [(text, None, False)] if text else []
    gaps = [line[end:start] for end, start in zip([0] + [b for _, b, _ in codes], [a for a, _, _ in codes])]
    tail = _clean_name(line[codes[-1][1]:])
    names_after = tail and not _clean_name(gaps[0])
    names = [_clean_name(g) for g in (gaps[1:] + [tail] if names_after else gaps)]
    out = [(name or None, line[a:b], ok) for name, (a, b, ok) in zip(names, codes)]
    if tail and not names_after:
        out.append((tail, None, False))  # text after the last code that names none ("Lena: CODE Tim")
    return out


def _ends_in_code_part(line: str) -> bool:
    runs = _runs(line)
    if not runs:
        return False
    a, b = runs[-1][-1]
    return not _name_like(line[a:b]) and all(_spacing(c) for c in line[b:])


def _only_code_parts(line: str) -> bool:
    runs = _runs(line)
    return (len(runs) == 1 and not any(_name_like(line[a:b]) for a, b in runs[0])
            and all(_spacing(c) for c in line[:runs[0][0][0]] + line[runs[0][-1][1]:]))


def split_entries(text, class_code: str | None = None, accept=None) -> list[tuple[str | None, str | None]]:
    """The codes of a paste as ``(name, code)``: one or more per line (lines also end at semicolons
    and at U+2028/U+2029), each with the name written before it, or after it on a line that starts
    with a code; ``code`` None: a line with nothing shaped like a code (its text as the name). Spaces,
    hyphens and dashes inside a code are ignored; a code broken over lines is joined where the joined
    lines hold one whose checks hold. A link is an entry of its own, ``(link, None)``, and never part
    of a name or a code. ``class_code``: the board's round, whose tag decides between stretches that
    both pass the checks."""
    if not isinstance(text, str):
        raise CodeError("codes are text", "Codes sind Text")
    if len(text) > MAX_PASTE_CHARS:
        raise CodeError(f"that is too long for a paste of codes ({len(text)} characters)",
                        f"das ist zu lang für eingefügte Codes ({len(text)} Zeichen)")
    tag = _tag(normalize(class_code, "class code")) if class_code is not None else None
    # (a link's ";" and its own parts are the link's: it is taken out before lines end at semicolons)
    links: list[list[str]] = []
    lines = []
    for line in text.splitlines():  # (splitlines ends a line at U+2028 and U+2029 too)
        found = [m.group(0).rstrip(_LINK_END) for m in LINK.finditer(line)]
        parts = LINK.sub(" ", line).split(";")
        lines += parts
        links += [found] + [[] for _ in parts[1:]]
    out, i, budget = [], 0, [_SEARCHED_STRETCHES]
    while i < len(lines):
        out += [(link[:MAX_CODE_CHARS], None) for link in links[i]]
        entries = _line_entries(lines[i], tag, accept, budget)
        step = 1
        if not any(ok for _, _, ok in entries) and _ends_in_code_part(lines[i]):
            # a code broken over lines (a line separator pasted, a narrow column): the next lines that
            # hold only parts of a code, joined while no code with holding checks appears
            for k in range(i + 1, min(i + 12, len(lines))):
                if not _only_code_parts(lines[k]):
                    break
                joined = _line_entries(" ".join(lines[i:k + 1]), tag, accept, budget)
                if any(ok for _, _, ok in joined):
                    entries, step = joined, k + 1 - i
                    break
        for label, code, _ in entries:
            if code is None:
                out.append((label[:MAX_CODE_CHARS], None))
                continue
            out.append((label[:MAX_LABEL_CHARS] if label else None, code.strip()))
        out += [(link[:MAX_CODE_CHARS], None) for k in range(i + 1, i + step) for link in links[k]]
        i += step
    if len(out) > MAX_ENTRIES:
        raise CodeError(f"at most {MAX_ENTRIES} codes at once, got {len(out)}",
                        f"höchstens {MAX_ENTRIES} Codes auf einmal, nicht {len(out)}")
    return out
