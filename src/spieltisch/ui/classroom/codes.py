"""Class and result codes as people write them: Crockford's base 32 (digits and capital letters
without I, L, O, U; typing is forgiving: lower case, O for 0, I or L for 1, spaces, hyphens and dashes
are all accepted), check characters over GF(32) and the mixed-radix numbers inside (docs/class-mode.md)."""

from __future__ import annotations

import unicodedata

from ...core.errors import SpieltischError, short
from ...core.registry import game_ids, get_game_class


# Crockford's base 32: no I, L, O, U (I, L and O look like 1 and 0; they are read as those).
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {c: i for i, c in enumerate(ALPHABET)} | {"O": 0, "I": 1, "L": 1}
_SPACING = " -_.\t"


def _spacing(ch: str) -> bool:
    """A character a code may carry between its letters as people type and paste it: spaces of any
    kind (no-break, thin, …), hyphens and dashes (a word processor turns "-" into "–" or "—"), the
    minus sign, dots, underscores and invisible joiners."""
    return (ch in _SPACING or ch.isspace() or unicodedata.category(ch) in ("Zs", "Pd", "Cf")
            or ch == "\u2212")



# What a spreadsheet runs as a formula when a cell starts with it (and tab/CR, which some split on):
# a text that starts so gets a leading apostrophe, which spreadsheets read as "this is text".
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def harmless_cell(value):
    """``value`` as a spreadsheet cell that cannot run: a text starting with a formula character gets a
    leading apostrophe; numbers and other texts stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def class_games() -> tuple:
    """The registered games a class round can be made of, by their class-code number (each game's
    ``class_code_number``: a class code's first character names its game)."""
    found = [(cls.class_code_number, g) for g in game_ids()
             if (cls := get_game_class(g)).class_code_number is not None]
    return tuple(g for _, g in sorted(found))


def _game_of_number(index: int) -> str | None:
    return next((g for g in game_ids() if get_game_class(g).class_code_number == index), None)

FORMAT = 0  # the class code's layout; a new one takes the next number (its first digit)
# The result code's layout (its first binary digit, so a result code of layout 1 starts with G–Z and
# one of layout 0 with 0–F): 0 had a one-character round tag and check characters over the class
# code too; 1 has a two-character round tag and check characters over its own characters only, so a
# code of another round keeps its checks and is told apart by its tag (docs/class-mode.md).
RESULT_FORMAT = 1
TAG_CHARS = 2  # the round tag: a code of another round passes it with probability 32**-2 = 1/1024
SMALL_SEED = 1 << 20  # a new round's seed is drawn below this (a short code); any seed up to 2**64-1 fits
MAX_NUMBER = 99  # a student's number for the ranking rides in the result code (0: none)
MAX_CODE_CHARS = 2000  # a result code of a long Skip-Bo game has ~100; more is not a code
MAX_ENTRIES = 500  # codes in one paste on the board
MAX_LABEL_CHARS = 40
MAX_STEPS = 200_000  # moves and chance events of one replayed game
GROUP = 4  # characters between hyphens when a code is shown
SHOWN_DECISIONS = 6  # "where the class lost points": this many decisions
CANDIDATE_DECISIONS = 12  # the most reached decisions the advisor looks at to find them


class CodeError(SpieltischError):
    """A class or result code that is refused; ``text`` says why in German and English. ``kind`` names
    the reason where a caller tells them apart: "typo" (the check characters fail), "round" (the
    checks hold, the round tag is another round's), "old_format" (a code spieltisch no longer
    reads), "garbled" (the checks hold but the code is not a game of this round), or None."""

    def __init__(self, en: str, de: str, kind: str | None = None):
        super().__init__(en)
        self.text = {"en": en, "de": de}
        self.kind = kind

    def in_lang(self, lang: str) -> str:
        return self.text["de" if lang == "de" else "en"]


# --- base 32, check characters, mixed radix -----------------------------------------------------
_EXP = [0] * 62
_LOG = [0] * 32
_x = 1
for _i in range(31):  # GF(32) with x^5 + x^2 + 1: the powers of x run through all 31 non-zero values
    _EXP[_i] = _EXP[_i + 31] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 32:
        _x ^= 0b100101
del _x, _i


def _gf_mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _check(symbols, power: int) -> int:
    """Sum of ``symbols[i] * x**(power*(i+1))`` in GF(32): with power 1 a wrong character or two
    swapped neighbours always change it; powers 1 and 2 together catch any two wrong characters
    (within 31 positions of each other)."""
    s = 0
    for i, d in enumerate(symbols):
        s ^= _gf_mul(d, _EXP[(power * (i + 1)) % 31])
    return s


def normalize(text, what: str = "code") -> str:
    """A typed code in its canonical letters: upper case, O→0, I/L→1, spaces and hyphens dropped.
    Anything else is refused naming the character."""
    if not isinstance(text, str):
        raise CodeError(f"a {what} is text, got {type(text).__name__}", f"ein Code ist Text, nicht {type(text).__name__}")
    if len(text) > MAX_CODE_CHARS:
        raise CodeError(f"that is too long to be a {what} ({len(text)} characters)",
                        f"das ist zu lang für einen Code ({len(text)} Zeichen)")
    out = []
    for ch in text.upper():
        if _spacing(ch):
            continue
        if ch not in _VALUE:
            shown = short(ch)
            raise CodeError(f"{shown} is not a character of a {what} (digits and letters without I, L, O, U)",
                            f"{shown} kommt in keinem Code vor (Ziffern und Buchstaben ohne I, L, O, U)")
        out.append(ALPHABET[_VALUE[ch]])
    if not out:
        raise CodeError(f"no {what} given", "kein Code eingegeben")
    return "".join(out)


def grouped(code: str) -> str:
    """A code as it is shown: groups of four characters joined by hyphens."""
    return "-".join(code[i:i + GROUP] for i in range(0, len(code), GROUP))


def _symbols(code: str) -> list[int]:
    return [_VALUE[c] for c in code]


def _to_chars(n: int) -> str:
    out = []
    while True:
        out.append(ALPHABET[n & 31])
        n >>= 5
        if not n:
            return "".join(reversed(out))


def _from_chars(chars: str) -> int:
    n = 0
    for c in chars:
        n = n << 5 | _VALUE[c]
    return n


class _Writer:
    """Digits of a mixed-radix number, least significant first."""

    def __init__(self):
        self.n = 0
        self.scale = 1

    def put(self, value: int, radix: int) -> None:
        if not 0 <= value < radix:
            raise ValueError(f"digit {value} does not fit radix {radix}")
        self.n += value * self.scale
        self.scale *= radix

    def varint(self, value: int) -> None:
        while True:
            value, low = divmod(value, 16)
            self.put(1 if value else 0, 2)
            self.put(low, 16)
            if not value:
                return


class _Reader:
    def __init__(self, n: int):
        self.n = n

    def take(self, radix: int) -> int:
        self.n, value = divmod(self.n, radix)
        return value

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            more = self.take(2)
            value |= self.take(16) << shift
            shift += 4
            if not more:
                return value
            if shift > 64:
                raise CodeError("the code holds a number too large for it", "der Code enthält eine zu große Zahl")


def _garbled(en_detail: str, de_detail: str) -> CodeError:
    return CodeError(f"the code is garbled: {en_detail}", f"der Code ist verstümmelt: {de_detail}", "garbled")
