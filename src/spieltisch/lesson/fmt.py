"""Numbers as a lesson prints them: German 0,35 and 35,2 %, English 0.35 and 35.2%.

Rounding is exact (a value is turned into a ``Fraction`` first, a float as its shortest decimal – its
repr –, and rounded half away from zero), so CPython and Pyodide print the same digits. Fractions are shown exactly while they are small
(``max_digits`` digits above and below the line); a long fraction is shown as a decimal with a note,
and in full only on request (``long=True``).
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational

LANGS = ("de", "en")
MINUS = "\u2212"


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    return lang


def _exact(x) -> Fraction:
    if isinstance(x, bool):
        return Fraction(int(x))
    if isinstance(x, (Rational, int)):
        return Fraction(x)
    if isinstance(x, float):
        # the float's shortest decimal (its repr), not its binary value: a simulation's 2670/4000 is the
        # float 0.6675 = 0.66749999…, which would round down to 66,7 % here while the class board, from
        # the count, shows 66,8 %
        return Fraction(repr(x))
    raise TypeError(f"a number is needed, not {type(x).__name__}")


def _group(digits: str, sep: str) -> str:
    if len(digits) <= 4:  # 1000 and 4000 stay in one piece, as in print
        return digits
    parts = []
    while digits:
        parts.append(digits[-3:])
        digits = digits[:-3]
    return sep.join(reversed(parts))


def number(x, lang: str = "de", digits: int = 2, strip: bool = False) -> str:
    """``x`` with ``digits`` decimals: number(0.35) -> '0,35'; strip=True drops trailing zeros."""
    check_lang(lang)
    q = _exact(x) * 10 ** digits
    n = (abs(q.numerator) * 2 + q.denominator) // (2 * q.denominator)  # half away from zero
    sign = MINUS if q < 0 and n else ""
    whole, frac = divmod(n, 10 ** digits)
    sep, dec = (".", ",") if lang == "de" else (",", ".")
    text = _group(str(whole), sep)
    if digits:
        tail = str(frac).rjust(digits, "0")
        if strip:
            tail = tail.rstrip("0")
        if tail:
            text += dec + tail
    return sign + text


def integer(n: int, lang: str = "de") -> str:
    """A count: 4000, 10.000 (de) / 10,000 (en)."""
    return number(n, lang, 0)


def percent(x, lang: str = "de", digits: int = 1) -> str:
    """A share as per cent: percent(0.352) -> '35,2 %' (de), '35.2%' (en)."""
    text = number(_exact(x) * 100, lang, digits)
    return text + ("\u00a0%" if lang == "de" else "%")


def points(x, lang: str = "de", digits: int = 2) -> str:
    """Points (an expected value): whole numbers without decimals, others with ``digits``."""
    f = _exact(x)
    return number(f, lang, 0 if f.denominator == 1 else digits)


def fraction(x, lang: str = "de", long: bool = False, max_digits: int = 4) -> str:
    """An exact value: '11/18' while small; a long fraction as '≈ 0,3056 (Bruch mit 40 Ziffern)'
    unless ``long`` asks for all of it."""
    check_lang(lang)
    f = _exact(x)
    if f.denominator == 1:
        return number(f, lang, 0)
    num, den = abs(f.numerator), f.denominator
    sign = MINUS if f < 0 else ""
    if long or max(len(str(num)), len(str(den))) <= max_digits:
        return f"{sign}{num}/{den}"
    size = len(str(num)) + len(str(den))
    note = f"Bruch mit {size} Ziffern" if lang == "de" else f"a fraction of {size} digits"
    return f"≈ {number(f, lang, 4)} ({note})"


def probability(x, lang: str = "de", long: bool = False) -> str:
    """A probability: '11/18 ≈ 61,1 %'; a long fraction only as the percentage."""
    f = _exact(x)
    if f.denominator == 1:
        return percent(f, lang, 0)
    if long or max(len(str(f.numerator)), len(str(f.denominator))) <= 4:
        return f"{fraction(f, lang, long)} ≈ {percent(f, lang)}"
    return f"≈ {percent(f, lang)}"


def label_before(label: str, value: str) -> str:
    """``label`` as it stands before ``value``: without its closing '=' where the value is only
    approximate ('P(A) =' before '≈ 28,2 %' reads 'P(A)'), else unchanged."""
    head = label.rstrip()
    return head[:-1].rstrip() if value.startswith("≈") and head.endswith("=") else label


def stated(label: str, value: str) -> str:
    """``label`` and its ``value`` in one line: 'P(A) = 11/18 ≈ 61,1 %', but 'P(A) ≈ 28,2 %' where
    the value is only approximate (never '= ≈')."""
    head = label_before(label, value).rstrip()
    return f"{head} {value}" if head else value


def ratio(count: int, total: int, lang: str = "de") -> str:
    """A count out of a total, not reduced: '22 von 36' / '22 of 36'."""
    check_lang(lang)
    return f"{integer(count, lang)} {'von' if lang == 'de' else 'of'} {integer(total, lang)}"


def interval(estimate, lang: str = "de", as_percent: bool = False, digits: int | None = None) -> str:
    """A simulation's 95 % interval (an object with ``mean``, ``lo``, ``hi``, ``n``)."""
    check_lang(lang)
    if as_percent:
        d = 1 if digits is None else digits
        show = lambda v: percent(v, lang, d)  # noqa: E731
    else:
        d = 2 if digits is None else digits
        show = lambda v: number(v, lang, d)  # noqa: E731
    if lang == "de":
        return (f"{show(estimate.mean)} (95-%-Intervall {show(estimate.lo)} bis {show(estimate.hi)}, "
                f"n = {integer(estimate.n, lang)})")
    return f"{show(estimate.mean)} (95% interval {show(estimate.lo)} to {show(estimate.hi)}, n = {integer(estimate.n, lang)})"


def join(items, lang: str = "de") -> str:
    """'1, 6 und 7' / '1, 6 and 7'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + (" und " if lang == "de" else " and ") + items[-1]


# --- reading what a student types -------------------------------------------------------------------

_SUPER = str.maketrans({"²": "^2", "³": "^3", "−": "-", "–": "-", "·": "*", "×": "*", "⋅": "*", ":": "/"})


def read(text: str) -> tuple[Fraction, Fraction]:
    """A number as a student types it, and how exactly it was typed: ``(value, tolerance)``.

    Fractions, decimals with a comma or a point, per cent, products, quotients, sums and powers:
    ``5/6``, ``0,83``, ``83 %``, ``5/6 · 5/6 · 5/6``, ``(5/6)^3``, ``1 − 125/216``. The tolerance is half a
    unit of the finest decimal typed (``0,83`` → 0,005; ``83 %`` → 0,005), 0 when only whole numbers
    and fractions were typed. Raises ``ValueError`` for anything else.
    """
    s = str(text).strip().translate(_SUPER).replace(" ", "").replace("\u00a0", "")
    if not s:
        raise ValueError("nothing typed")
    pos, decimals = 0, []

    def peek():
        return s[pos] if pos < len(s) else "$"  # "$": the end (never "", which is in every string)

    def atom():
        nonlocal pos
        if peek() == "(":
            pos += 1
            v = expr()
            if peek() != ")":
                raise ValueError(f"a ')' is missing in {text!r}")
            pos += 1
            return v
        start = pos
        while peek().isdigit() or peek() in ",.":
            pos += 1
        lit = s[start:pos]
        if not lit or lit.count(",") + lit.count(".") > 1 or not any(c.isdigit() for c in lit):
            raise ValueError(f"not a number: {text!r}")
        whole, _, frac = lit.replace(",", ".").partition(".")
        if _:
            decimals.append(len(frac))
        v = Fraction(int(whole or "0")) + (Fraction(int(frac), 10 ** len(frac)) if frac else 0)
        if peek() == "%":
            pos += 1
            decimals.append((decimals.pop() if _ else 0) + 2)
            v /= 100
        return v

    def power():
        nonlocal pos
        v = atom()
        if peek() == "^":
            pos += 1
            start = pos
            while peek().isdigit():
                pos += 1
            if start == pos or pos - start > 2:
                raise ValueError(f"a power needs a small whole exponent: {text!r}")
            v = v ** int(s[start:pos])
        return v

    def unary():
        nonlocal pos
        if peek() in "+-":
            sign = -1 if peek() == "-" else 1
            pos += 1
            return sign * unary()
        return power()

    def term():
        nonlocal pos
        v = unary()
        while peek() in ("*", "/"):
            op = peek()
            pos += 1
            r = unary()
            if op == "/" and r == 0:
                raise ValueError("division by zero")
            v = v * r if op == "*" else v / r
        return v

    def expr():
        nonlocal pos
        v = term()
        while peek() in ("+", "-"):
            op = peek()
            pos += 1
            v = v + term() if op == "+" else v - term()
        return v

    value = expr()
    if pos != len(s) or "$" in s:
        raise ValueError(f"cannot read {text!r}")
    tol = Fraction(1, 2 * 10 ** max(decimals)) if decimals else Fraction(0)
    return value, tol


def matches(text: str, exact) -> bool | None:
    """Whether what the student typed is ``exact`` (within the exactness typed); None if it cannot
    be read (or nothing was typed)."""
    try:
        value, tol = read(text)
    except ValueError:
        return None
    return abs(value - _exact(exact)) <= tol
