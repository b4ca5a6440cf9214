"""Scoring a Tüfteln sheet: the category of each 2×2 square, the bonus, the solo rating.

A square's four numbers are taken clockwise from the top-left: TL, TR, BR, BL. So TL–TR, TR–BR,
BR–BL and BL–TL are the orthogonal neighbours, TL–BR and TR–BL the diagonal ones.
"""

from __future__ import annotations

CATEGORIES = ("mix", "pair", "two_pairs", "cross", "four", "straight")
NONE = "none"
ALL_NAMES = CATEGORIES + (NONE,)
POINTS = {"mix": 1, "pair": 2, "two_pairs": 3, "cross": 4, "four": 5, "straight": 6, NONE: 0}
BONUS = 7
LABELS = {  # the words printed on the sheet
    "de": {"mix": "Mix", "pair": "2er", "two_pairs": "2er + 2er", "cross": "Cross", "four": "4er",
           "straight": "Str", NONE: "—"},
    "en": {"mix": "Mix", "pair": "pair", "two_pairs": "two pairs", "cross": "cross", "four": "four of a kind",
           "straight": "straight", NONE: "nothing"},
}

# Solo rating: (highest total of the tier, German word from the rulebook, English gloss).
RATINGS = (
    (25, "angeklopft", "knocked on the door"),
    (30, "willkommen im Club", "welcome to the club"),
    (34, "okay", "okay"),
    (37, "gut", "good"),
    (40, "stark", "strong"),
    (42, "großartig", "great"),
    (44, "professionell", "professional"),
    (46, "weltklasse", "world class"),
    (50, "sagenhaft", "legendary"),
    (None, "überirdisch", "out of this world"),
)


def rating(total: int) -> dict:
    """The solo rating for ``total``: ``{"de": ..., "en": ..., "tier": index}``."""
    for i, (top, de, en) in enumerate(RATINGS):
        if top is None or total <= top:
            return {"tier": i, "de": de, "en": en}
    raise AssertionError("unreachable")


def tier_label(i: int) -> str:
    top = RATINGS[i][0]
    low = RATINGS[i - 1][0] + 1 if i else None
    if low is None:
        return f"≤{top}"
    if top is None:
        return f"≥{low}"
    return f"{low}–{top}"


def category(tl: int, tr: int, br: int, bl: int, descending_straights: bool = False) -> str:
    """The category of a complete square (numbers clockwise from the top-left)."""
    v = (tl, tr, br, bl)
    distinct = len(set(v))
    if distinct == 1:
        return "four"
    if distinct == 4:
        for k in range(4):
            if all(v[(k + i) % 4] == v[k] + i for i in range(1, 4)):
                return "straight"
            if descending_straights and all(v[(k + i) % 4] == v[k] - i for i in range(1, 4)):
                return "straight"
        return "mix"
    if distinct == 2:
        if tl == br and tr == bl:
            return "cross"
        if v.count(tl) == 2:  # two pairs that are not diagonal are both orthogonal
            return "two_pairs"
        return NONE  # three of a kind
    # one pair and two singles: it scores only if the pair is orthogonal
    if tl == br or tr == bl:
        return NONE
    return "pair"


def square_fields(square: int) -> tuple[int, int, int, int]:
    """Field indices (row * 6 + col) of a square, clockwise from the top-left."""
    r, c = 2 * (square // 3), 2 * (square % 3)
    tl = r * 6 + c
    return (tl, tl + 1, tl + 7, tl + 6)


SQUARES = tuple(square_fields(s) for s in range(9))


def _code(tl, tr, br, bl) -> int:
    return ((tl * 7 + tr) * 7 + br) * 7 + bl


def _table(descending: bool) -> tuple:
    """Category by code of four numbers 0..6 (0 = empty; squares with an empty field have None)."""
    out = [None] * 7 ** 4
    r = range(1, 7)
    for a in r:
        for b in r:
            for c in r:
                for d in r:
                    out[_code(a, b, c, d)] = category(a, b, c, d, descending)
    return tuple(out)


_TABLES = {False: _table(False), True: _table(True)}


def category_table(descending_straights: bool = False) -> tuple:
    return _TABLES[bool(descending_straights)]


def square_categories(values, descending_straights: bool = False) -> list:
    """Category of each of the nine squares of a sheet (36 numbers, 0 = empty); None if incomplete."""
    t = _TABLES[bool(descending_straights)]
    return [t[((values[a] * 7 + values[b]) * 7 + values[c]) * 7 + values[d]] for a, b, c, d in SQUARES]


def total(categories) -> tuple[int, bool]:
    """(total points, bonus earned) for the categories of the complete squares."""
    done = [c for c in categories if c is not None]
    bonus = all(c in done for c in CATEGORIES)
    return sum(POINTS[c] for c in done) + (BONUS if bonus else 0), bonus


def score_sheet(values, descending_straights: bool = False) -> int:
    return total(square_categories(values, descending_straights))[0]
