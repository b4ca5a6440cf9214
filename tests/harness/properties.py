"""Property checks for bad input, chance outcomes and round trips, generic for every game.

``tests/test_properties.py`` drives them with hypothesis over every registered game and the toy
games; each check also works on its own (on a hand-built match, or a toy with a planted bug).

What "the same action" means here does not trust the game's ``==`` or ``to_json``: two actions are
*type-exactly the same* when they have the same class and the same fields with values of the same
types (``exact_form``), and the candidate is what its class builds (``built_by_its_class``: an object
made without the constructor, or changed after it, must hold what the constructor would have made of
its fields; its other fields, a display text, of the legal one's type). A candidate that is
type-exactly a legal action must apply exactly like it; every other candidate, however equal it
compares or whatever record form it has, must be refused with ``IllegalActionError`` and leave the
position, every viewer's observation, the match's history and its generator unchanged.

``tampered`` makes such candidates from a legal action of any class: copies built without the
constructor with one field missing, of a wrong type (float, text, None, bool, an int or tuple
subclass, a list for a tuple), out of range (-1, 2**64) or a sequence one item short or long.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from fractions import Fraction
from functools import lru_cache

from harness.conformance import check_refusal, viewers
from spieltisch.core import errors
from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, TERMINAL
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng

# a refusal is read by people: it names the rule and the move, it never echoes a hostile input whole
MAX_MESSAGE = 500
# how far two matches that should be alike are played on side by side
GO_ON_STEPS = 12


def short(value, limit: int = 100) -> str:
    """``repr(value)`` cut short, for any value at all (assertion messages must not fail)."""
    return errors.short(value, limit)


def where(match) -> str:
    game = match.game
    p = match.current_player()
    who = "chance" if p == CHANCE else "nobody (game over)" if p == TERMINAL else f"player {p}"
    return (f"[{game.id} {game.num_players}p {dict(game.options)} seed {match.seed}, "
            f"after {len(match.actions)} actions, {who} to move]")


# --- what "type-exactly the same" means --------------------------------------------------------
_SCALARS = (type(None), bool, int, str, bytes, Fraction)


def exact_form(value, depth: int = 0):
    """A comparable form of ``value`` that tells 1 from 1.0, True and "1" and a class from its
    subclass: the type at every level, and for a dataclass the fields that make up its identity
    (``compare=True``; a field like a display text that ``==`` ignores is no part of the action)."""
    t = type(value)
    if depth > 30:
        return (t, "deep", id(value))
    if t in _SCALARS:
        return (t, value)
    if t is float:
        return (t, value.hex())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (t, tuple((f.name, exact_form(getattr(value, f.name, None), depth + 1))
                         for f in dataclasses.fields(value) if f.compare))
    if isinstance(value, tuple):  # NamedTuples too: their class is part of the form
        return (t, tuple(exact_form(x, depth + 1) for x in value))
    if isinstance(value, frozenset):
        return (t, frozenset(exact_form(x, depth + 1) for x in value))
    # any other class: its record form (the core's own test) or, without one, only itself
    try:
        return (t, "json", json.dumps(value.to_json(), sort_keys=True))
    except Exception:  # noqa: BLE001
        return (t, "id", id(value))


def _all_fields(value) -> list:
    """Every field of a dataclass (``==`` compared or not), the items of a NamedTuple."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [f.name for f in dataclasses.fields(value)]
    return []


def built_by_its_class(value) -> bool:
    """True if ``value`` holds what its class's constructor makes of its (init) fields: every field
    there (a dataclass, recursively in its fields), a NamedTuple with one item per field, and every
    field, derived ones too (a mask kept beside the slides it is made of), exactly as a new object
    built from the same init fields holds it."""
    t = type(value)
    fields = getattr(t, "_fields", None)
    if isinstance(value, tuple) and isinstance(fields, tuple):
        return len(value) == len(fields)
    if not (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        return True
    try:
        given = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        rebuilt = t(**{f.name: given[f.name] for f in dataclasses.fields(value) if f.init})
        return all(exact_form(given[n]) == exact_form(getattr(rebuilt, n)) and built_by_its_class(given[n])
                   for n in given)
    except Exception:  # noqa: BLE001 - a field missing, a constructor that refuses its own fields
        return False


def same_legal(candidate, legal: list):
    """The legal action ``candidate`` is type-exactly, or None."""
    t = type(candidate)
    matches = [a for a in legal if type(a) is t]
    if not matches or not built_by_its_class(candidate):
        return None
    form = exact_form(candidate)
    others = [f.name for f in dataclasses.fields(candidate) if not f.compare] if _all_fields(candidate) else []
    for a in matches:
        if exact_form(a) == form and all(type(getattr(candidate, n)) is type(getattr(a, n)) for n in others):
            return a
    return None


# --- look-alikes of a legal action -------------------------------------------------------------
HUGE = 2**64 + 1


def _int_variants(v: int) -> list:
    out = [("float", float(v)), ("bool True", True), ("bool False", False), ("str", str(v)),
           ("huge", v + HUGE), ("negative", -v - 1)]
    if v:
        out.append(("negated", -v))
    return out


def variants(value, depth: int = 0) -> list:
    """(what changed, new value) for ``value``: every int replaced by a float, a bool, a string, a
    huge or a negative number, also inside tuples and nested dataclasses; a tuple of ints also as
    floats all at once."""
    if depth > 4:
        return []
    t = type(value)
    if t is int:
        return _int_variants(value)
    out = []
    if isinstance(value, tuple) and not dataclasses.is_dataclass(value):
        items = list(value)
        rebuild = (lambda xs: t._make(xs)) if hasattr(t, "_make") else (lambda xs: t(xs))
        for i, x in enumerate(items):
            for what, w in variants(x, depth + 1):
                try:
                    out.append((f"[{i}] {what}", rebuild(items[:i] + [w] + items[i + 1:])))
                except Exception:  # noqa: BLE001 - a constructor that refuses it: no look-alike
                    pass
        if items and all(type(x) is int for x in items):
            try:
                out.append(("all floats", rebuild([float(x) for x in items])))
            except Exception:  # noqa: BLE001
                pass
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            for what, w in variants(getattr(value, f.name), depth + 1):
                try:
                    out.append((f"{f.name} {what}", dataclasses.replace(value, **{f.name: w})))
                except Exception:  # noqa: BLE001 - the action's own constructor refused it: fine
                    pass
    return out


@lru_cache(maxsize=None)
def _impostor_class(cls: type) -> type | None:
    """A subclass of ``cls`` with the same name: compares equal for a NamedTuple, prints the same,
    is still not the game's action."""
    try:
        return type(cls.__name__, (cls,), {"__module__": "look-alike"})
    except Exception:  # noqa: BLE001 - a final class
        return None


def look_alikes(action) -> list:
    """(what, value) pairs: copies of a legal ``action`` with a wrong type somewhere, a subclass
    copy, and for a tuple action the plain tuple and list of its items."""
    out = [(f"field {what}", v) for what, v in variants(action)]
    cls = type(action)
    sub = _impostor_class(cls)
    if sub is not None:
        try:
            if dataclasses.is_dataclass(action):
                kw = {f.name: getattr(action, f.name) for f in dataclasses.fields(action) if f.init}
                out.append(("subclass copy", sub(**kw)))
            elif isinstance(action, tuple):
                out.append(("subclass copy", sub(*action)))
        except Exception:  # noqa: BLE001
            pass
    if isinstance(action, tuple) and cls is not tuple:
        out.append(("plain tuple", tuple(action)))
        out.append(("list", list(action)))
    try:
        out.append(("record form", action.to_json()))
    except Exception:  # noqa: BLE001
        pass
    out.append(("text", str(action)))
    return out


# --- tampered copies: built without the constructor, a field wrong ----------------------------------
class SubInt(int):
    """Prints, compares, hashes and is recorded (``json``) like an int; still not one."""


class SubTuple(tuple):
    """Prints, compares and is recorded like a tuple; still not one."""


class SubStr(str):
    """Prints, compares and is recorded like a text; still not one."""


def _wrong(value) -> list:
    """(what, replacement) for one field's ``value``: other types, out-of-range numbers, sequences as
    another kind, one item short or long, an item of another type."""
    t = type(value)
    out = [("None", None)] if value is not None else [("0", 0), ("text", "")]
    if t is int:
        out += [("float", float(value)), ("text", str(value)), ("bool", bool(value)), ("int subclass", SubInt(value)),
                ("2**64", 2**64), ("huge negative", -(2**64) - value)]
        if value != -1:
            out.append(("-1", -1))
    elif t is bool:
        out += [("int", int(value)), ("text", str(value))]
    elif t is str:
        out += [("str subclass", SubStr(value)), ("bytes", value.encode()), ("int", len(value)), ("other text", value + "x")]
    elif t in (tuple, list):
        items = list(value)
        out += [("list" if t is tuple else "tuple", list(items) if t is tuple else tuple(items)),
                ("tuple subclass", SubTuple(items)), ("one item more", t(items + [items[-1] if items else 0]))]
        if items:
            out += [("one item short", t(items[:-1])), ("empty", t())]
            first = items[0]
            for what, w in _wrong(first)[:4]:
                out.append((f"[0] {what}", t([w] + items[1:])))
    elif t is float:
        out += [("int", int(value)), ("nan", float("nan"))]
    return out


def bare(cls, fields):
    """An object of ``cls`` built without its constructor: ``fields`` (a dict, some may be left
    out) set directly, or a NamedTuple of the items ``fields`` (a tuple, of any length)."""
    if isinstance(fields, tuple):
        return tuple.__new__(cls, fields)
    obj = object.__new__(cls)
    for name, v in fields.items():
        object.__setattr__(obj, name, v)
    return obj


def tampered(action) -> list:
    """(what, value) pairs: copies of ``action`` built without its class's constructor, first with
    every field as it is (then it is the action), then with one field missing or wrong (``_wrong``):
    for a NamedTuple also one item short and one item more. Dataclass fields that the constructor
    derives (``init=False``, or set by ``__post_init__``) are tampered too."""
    cls = type(action)
    out = []
    names = getattr(cls, "_fields", None)
    if isinstance(action, tuple) and isinstance(names, tuple):
        items = tuple(action)
        out.append(("built without __init__", bare(cls, items)))
        out.append(("one item short", bare(cls, items[:-1])))
        out.append(("one item more", bare(cls, items + (items[-1] if items else 0,))))
        for i, name in enumerate(names):
            for what, w in _wrong(items[i]):
                out.append((f"{name} {what}", bare(cls, items[:i] + (w,) + items[i + 1:])))
        return out
    if not (dataclasses.is_dataclass(action) and not isinstance(action, type)):
        return out
    fields = {n: getattr(action, n) for n in _all_fields(action)}
    out.append(("built without __init__", bare(cls, fields)))
    for name, v in fields.items():
        out.append((f"{name} missing", bare(cls, {k: x for k, x in fields.items() if k != name})))
        for what, w in _wrong(v):
            out.append((f"{name} {what}", bare(cls, {**fields, name: w})))
    return out


def check_tampered(match, action) -> int:
    """Every tampered copy of the legal (or once legal) ``action`` is refused, or, if it is
    type-exactly a legal action, applies like it; afterwards the match's record still replays to the
    same position. Returns how many copies were tried."""
    pairs = tampered(action)
    for what, value in pairs:
        check_candidate(match, value, f"tampered copy ({what}) of {short(action)}:")
    replayed = Match.from_json(match.to_json())
    assert replayed.state.snapshot() == match.state.snapshot(), (
        f"{where(match)} after the tampered copies of {short(action)} the record replays to another position")
    assert rng_future(replayed.rng) == rng_future(match.rng)
    return len(pairs)


def action_classes(game_id) -> set:
    """The action classes a game's engine module defines: its dataclasses and NamedTuples with a
    record form (``to_json``), without the bases others derive from."""
    import sys

    from spieltisch.core.registry import get_game_class

    module = sys.modules[get_game_class(game_id).state_class.__module__]
    mine = [c for c in vars(module).values() if isinstance(c, type) and c.__module__ == module.__name__]
    return {c for c in mine if callable(getattr(c, "to_json", None))
            and (dataclasses.is_dataclass(c) or isinstance(getattr(c, "_fields", None), tuple))
            and not any(s is not c and s in mine for s in c.__subclasses__())}


def class_examples(game_id, players, options, games: int = 8) -> dict:
    """{action class: (record text, index)}: for every action class met in seeded games (random,
    first-legal and last-legal policies), the record of a position where an action of that class is
    legal and its index among the legal actions there."""
    found: dict = {}
    for seed in range(games):
        for policy in ("random", "first", "last"):
            match = Match(game_id, players, options, seed)
            rng = Rng(seed)
            while not match.is_terminal():
                legal = match.legal_actions()
                for i, a in enumerate(legal):
                    if type(a) not in found:
                        found[type(a)] = (match.to_json(), i)
                if match.current_player() == CHANCE:
                    match.step_chance()
                    continue
                pick = 0 if policy == "first" else len(legal) - 1 if policy == "last" else rng.below(len(legal))
                match.apply(legal[pick])
    return found


# --- hostile values ------------------------------------------------------------------------------
class Hostile(Exception):
    """Raised by the hostile values below; it must never come out of a game."""


def _raise(*_args, **_kw):
    raise Hostile("hostile value")


class _Trap:
    def __bool__(self):
        raise Hostile("a comparison result that cannot be used as a truth value")


class EqualsEverything:
    """Compares equal to anything, hashes like the legal action, has no record form."""

    def __init__(self, like):
        self._hash = hash(like)

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return "EqualsEverything()"


class BrokenEverything:
    """Every special method a game might touch raises."""

    __eq__ = __ne__ = __lt__ = __hash__ = __bool__ = __len__ = __iter__ = _raise
    __repr__ = __str__ = __format__ = __int__ = __index__ = __float__ = _raise

    def __getattr__(self, name):
        raise Hostile(f"no {name}")


class TrapEquality:
    """``==`` gives a value whose truth cannot be asked; ``str`` is huge."""

    def __eq__(self, other):
        return _Trap()

    __ne__ = __eq__

    def __hash__(self):
        return 7

    def __str__(self):
        return "trap " * 100_000

    __repr__ = __str__


class Impostor:
    """Pretends to be the legal action: ``isinstance`` says yes (``__class__``), every attribute,
    its items, ``==``, ``hash``, ``str``, ``label`` and ``to_json`` are the real action's. Only its
    type differs, and that is what makes it not the action."""

    def __init__(self, like):
        object.__setattr__(self, "_like", like)

    @property
    def __class__(self):
        return type(object.__getattribute__(self, "_like"))

    def __getattr__(self, name):
        return getattr(object.__getattribute__(self, "_like"), name)

    def __iter__(self):
        return iter(object.__getattribute__(self, "_like"))

    def __len__(self):
        return len(object.__getattribute__(self, "_like"))

    def __getitem__(self, i):
        return object.__getattribute__(self, "_like")[i]

    def __eq__(self, other):
        return object.__getattribute__(self, "_like") == other

    def __hash__(self):
        return hash(object.__getattribute__(self, "_like"))

    def __str__(self):
        return str(object.__getattribute__(self, "_like"))

    def __repr__(self):
        return f"Impostor({object.__getattribute__(self, '_like')!r})"


class LyingRecord:
    """``to_json`` is the legal action's record form, attributes are huge numbers."""

    def __init__(self, like):
        self._json = like.to_json()

    def to_json(self):
        return self._json

    def label(self, lang="en"):
        return "x" * 1_000_000

    def __getattr__(self, name):
        return 10**5000  # str() of it raises ValueError (more than 4300 digits)

    def __repr__(self):
        return "LyingRecord()"


class BadRecord:
    """``to_json`` raises or returns what JSON cannot encode."""

    def __init__(self, kind):
        self.kind = kind

    def to_json(self):
        if self.kind == "raise":
            raise Hostile("no record form")
        if self.kind == "recursive":
            loop = []
            loop.append(loop)
            return loop
        return {1j: object()}

    def __repr__(self):
        return f"BadRecord({self.kind!r})"


def nested(depth: int, kind=list):
    value = kind()
    for _ in range(depth):
        value = kind([value])
    return value


def self_loop():
    loop: list = []
    loop.append(loop)
    return loop


# factories of hostile values from a legal action of the state (so they can mimic it)
HOSTILE = {
    "equals everything": EqualsEverything,
    "broken everything": lambda like: BrokenEverything(),
    "trap equality": lambda like: TrapEquality(),
    "impostor": Impostor,
    "lying record": LyingRecord,
    "to_json raises": lambda like: BadRecord("raise"),
    "recursive to_json": lambda like: BadRecord("recursive"),
    "unencodable to_json": lambda like: BadRecord("unencodable"),
    "self-referential list": lambda like: self_loop(),
    "deep list": lambda like: nested(3000),
    "deep tuple": lambda like: nested(2000, tuple),
    "huge int": lambda like: 10**5000,
    "huge text": lambda like: "ä" * 200_000,
    "huge digits": lambda like: "9" * 100_000,
    "the action's class": lambda like: type(like),
    "a function": lambda like: _raise,
    "Ellipsis": lambda like: ...,
}


# --- the checks ----------------------------------------------------------------------------------
def views(state, players: int) -> list:
    return [state.observation(v) for v in viewers(players)]


def rng_future(rng, n: int = 24) -> list:
    """The generator's next numbers, from a copy: equal futures mean the same position."""
    c = copy.deepcopy(rng)
    return [c.below(2**64) for _ in range(n)]


def check_refused(match, value, what: str) -> None:
    """``value`` is refused with a short bilingual ``IllegalActionError`` by ``State.apply_action``
    and by ``Match.apply``, and nothing changed: the position, every viewer's observation, the
    match's history and its generator."""
    state = match.state
    players = match.game.num_players
    before, seen = state.snapshot(), views(state, players)
    history, future = len(match.actions), rng_future(match.rng)
    for route, apply in (("State.apply_action", state.apply_action), ("Match.apply", match.apply)):
        try:
            apply(value)
        except IllegalActionError as e:
            check_refusal(e, short(value))
            for lang in ("en", "de"):
                text = e.message(lang)
                assert len(text) < MAX_MESSAGE, (
                    f"{where(match)} {what} {short(value)}: the {lang} refusal by {route} has {len(text)} "
                    f"characters (at most {MAX_MESSAGE}; it must not echo the input whole): {text[:200]!r}...")
        except Exception as e:  # noqa: BLE001 - that is the failure being looked for
            raise AssertionError(
                f"{where(match)} {what} {short(value)}: {route} raised {type(e).__name__}: {short(str(e), 200)} "
                "instead of IllegalActionError") from e
        else:
            raise AssertionError(f"{where(match)} {what} {short(value)} was accepted by {route}, but it is not "
                                 "type-exactly any legal action")
        assert state.snapshot() == before, f"{where(match)} refusing {what} {short(value)} changed the state"
        assert views(state, players) == seen, (
            f"{where(match)} refusing {what} {short(value)} changed an observation")
    assert len(match.actions) == history and len(match.movers) == history, (
        f"{where(match)} refusing {what} {short(value)} changed the match's history")
    assert rng_future(match.rng) == future, (
        f"{where(match)} refusing {what} {short(value)} moved the match's generator")


def check_same_as(match, value, real, what: str) -> None:
    """``value`` is type-exactly the legal ``real``: it applies, exactly as ``real`` does."""
    state = match.state
    ref = state.clone()
    ref.apply_action(real)
    twin = state.clone()
    try:
        twin.apply_action(value)
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{where(match)} {what} {short(value)} is type-exactly the legal {short(real)} "
                             f"but was refused: {type(e).__name__}: {short(str(e), 200)}") from e
    assert twin.snapshot() == ref.snapshot(), (
        f"{where(match)} {what} {short(value)} is type-exactly the legal {short(real)} but applies differently")
    players = match.game.num_players
    assert views(twin, players) == views(ref, players)
    assert json.dumps(value.to_json()) == json.dumps(real.to_json()), (
        f"{where(match)} {what} {short(value)} is type-exactly the legal {short(real)} but is recorded differently")


def check_candidate(match, value, what: str) -> None:
    """Refused, unless ``value`` is type-exactly a legal action: then it applies like that one."""
    real = same_legal(value, match.legal_actions())
    if real is None:
        check_refused(match, value, what)
    else:
        check_same_as(match, value, real, what)


def check_look_alikes(match, action) -> int:
    """Every look-alike of the legal ``action``; returns how many were checked."""
    pairs = look_alikes(action)
    for what, value in pairs:
        check_candidate(match, value, f"look-alike ({what}) of {short(action)}:")
    return len(pairs)


# --- reaching a position, and matches that should go on alike ----------------------------------
def reach(game_id, players, options, seed: int, steps: int, choose: int):
    """A match after ``steps`` moves of a seeded random policy; at a chance node the outcome is
    chosen (``Match.apply``) with chance 1/``choose`` (never for 0), else drawn. Returns the match
    and, per action, whether it was a chosen outcome."""
    match = Match(game_id, players, options, seed)
    rng = Rng(seed + 2**63)
    chosen = []
    for _ in range(steps):
        p = match.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE and not (choose and rng.below(choose) == 0):
            match.step_chance()
            chosen.append(False)
            continue
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))])
        chosen.append(p == CHANCE)
    return match, chosen


@lru_cache(maxsize=None)
def game_length(game_id, players, options_json: str) -> int:
    match, _ = reach(game_id, players, json.loads(options_json), 0, 100_000, 0)
    return len(match.actions)


def live_copy(match):
    """An independent copy of a match as it is (no replay: the copy is what live play left)."""
    return copy.deepcopy(match, {id(match.game): match.game})


def by_record(action, match):
    """The legal action of ``match`` with the record form of ``action``."""
    key = json.dumps(action.to_json(), sort_keys=True)
    found = [a for a in match.legal_actions() if json.dumps(a.to_json(), sort_keys=True) == key]
    assert len(found) == 1, f"{where(match)} {len(found)} legal actions have the record form {key}"
    return found[0]


def check_alike(a, b, what: str, seed: int, steps: int = GO_ON_STEPS) -> None:
    """Matches ``a`` and ``b`` are in the same place (position, every observation, generator) and
    stay so for ``steps`` more moves: drawn chance outcomes are the same, player moves are taken by
    the same index."""
    players = a.game.num_players
    rng = Rng(seed)
    for step in range(steps + 1):
        assert a.state.snapshot() == b.state.snapshot(), f"{where(a)} {what}: the positions differ ({step} moves on)"
        assert views(a.state, players) == views(b.state, players), f"{where(a)} {what}: observations differ"
        assert rng_future(a.rng) == rng_future(b.rng), (
            f"{where(a)} {what}: the generators are in different places ({step} moves on)")
        if step == steps or a.is_terminal():
            return
        if a.current_player() == CHANCE:
            x, y = a.step_chance(), b.step_chance()
            assert exact_form(x) == exact_form(y), f"{where(a)} {what}: the next throw differs: {x!r} / {y!r}"
        else:
            legal_a, legal_b = a.legal_actions(), b.legal_actions()
            assert [exact_form(x) for x in legal_a] == [exact_form(y) for y in legal_b]
            i = rng.below(len(legal_a))
            a.apply(legal_a[i])
            b.apply(legal_b[i])


def check_round_trip(match, seed: int) -> None:
    """Record -> JSON -> replay reproduces the match, and a copy of the live match and the replay go
    on alike; distinct legal actions have distinct record forms (else replay could pick the wrong
    one). ``match`` itself is left as it was."""
    legal = match.legal_actions()
    keys = [json.dumps(a.to_json(), sort_keys=True) for a in legal]
    assert len(set(keys)) == len(keys), (
        f"{where(match)} two legal actions share a record form: "
        f"{sorted(k for k in keys if keys.count(k) > 1)[:2]}")
    text = match.to_json()
    replayed = Match.from_json(text)
    assert replayed.to_json() == text, f"{where(match)} the replayed record differs from the record"
    check_alike(live_copy(match), replayed, "replay of the record", seed)


def check_undo(match, chosen: list, seed: int) -> None:
    """``undo`` (on a replayed copy) then playing the same moves again (drawn outcomes drawn again,
    chosen ones chosen) reproduces the match, and it goes on alike with a copy of the live match.
    ``chosen`` says per action whether it was a chosen chance outcome."""
    movers = match.movers
    players_moved = [i for i, m in enumerate(movers) if m != CHANCE]
    if not players_moved:
        return
    cut = players_moved[-1]
    again = Match.from_json(match.to_json())
    again.undo()
    assert len(again.actions) == cut, f"{where(match)} undo took back {len(match.actions) - len(again.actions)} actions"
    for i in range(cut, len(match.actions)):
        original = match.actions[i]
        if movers[i] == CHANCE and not chosen[i]:
            drawn = again.step_chance()
            assert exact_form(drawn) == exact_form(original), (
                f"{where(match)} after undo the throw {i} came out as {drawn!r}, live it was {original!r}")
        else:
            again.apply(by_record(original, again))
    check_alike(live_copy(match), again, "undo and the same moves again", seed)


def check_chosen_outcome(match, index: int, seed: int) -> None:
    """At a chance node: choosing outcome ``index`` gives the position that applying it gives,
    leaves the generator where a draw leaves it, and (chosen = drawn) the very position the draw
    gives. ``match`` moves on by the chosen outcome."""
    state = match.state
    assert state.current_player() == CHANCE
    outcomes = state.legal_actions()
    outcome = outcomes[index % len(outcomes)]
    text = match.to_json()

    drawn = Match.from_json(text)
    got = drawn.step_chance()
    same = Match.from_json(text)
    same.apply(by_record(got, same))
    check_alike(same, drawn, f"choosing the drawn outcome {got!r}", seed, steps=0)

    ref = state.clone()
    ref.apply_action(outcome)
    match.apply(outcome)
    assert match.state.snapshot() == ref.snapshot(), (
        f"{where(match)} choosing {outcome!r} in the match differs from applying it to the state")
    assert rng_future(match.rng) == rng_future(drawn.rng), (
        f"{where(match)} choosing {outcome!r} left the generator elsewhere than drawing does")
