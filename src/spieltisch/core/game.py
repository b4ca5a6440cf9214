"""The game protocol.

A ``Game`` holds the static facts of one configured game (ruleset, players, options); a ``State`` is
one mutable position. Chance is explicit: at a chance node ``chance_outcomes()`` lists every outcome
with its exact ``Fraction`` probability, so one model feeds both the sampler and the exact solvers.

Actions are small, hashable, immutable values with a readable ``str`` and a ``to_json()`` that
returns a JSON value. Records store ``to_json()``; replay matches it against the legal actions, so a
game never has to parse actions back.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from .dist import sample_exact
from .errors import IllegalActionError, OptionError, SpieltischError, short
from .options import OptionSpec, validate_options

CHANCE = -1
TERMINAL = -2
# The viewer of the projector: ``observation(SPECTATOR)`` holds only what every player may see.
SPECTATOR = None


class Game:
    """Static facts. Subclasses set the class attributes and ``state_class``."""

    id: ClassVar[str]
    version: ClassVar[int] = 1
    name: ClassVar[dict] = {}  # {"de": ..., "en": ...}
    summary: ClassVar[dict] = {}
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    default_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: each option's name on a screen: ``{name: {"de", "en", "choices"?: {value: {"de", "en"}}}}``
    option_labels: ClassVar[dict] = {}
    #: the game's number in a class code (its first character, ui.classroom): given once, never
    #: changed or reused (a code in a student's notes must keep naming the same game); None = no class round
    class_code_number: ClassVar[int | None] = None
    #: a quick exact bot whose choice a result code writes shortest (ui.classroom); None: all options alike
    result_code_bot: ClassVar[str | None] = None
    #: the analysis solves the whole game: ``analyze()["optimal_expected_total"]`` is best play's exact total
    solves_whole_game: ClassVar[bool] = False
    #: the advisor's review measures decisions over the whole game (an exact solver of the whole game, or
    #: play-outs to the game's end), so the class board may rank a class by the points decisions gave
    #: away; False where it values only a turn (its points, a lead), which can fault a winner's good
    #: play (the board then ranks by points and shows the loss beside them as a hint)
    ranks_decisions: ClassVar[bool] = False
    #: what chance deals in the game, for texts that set luck against decisions (the class board, the
    #: class bar): ``{lang: {"luck": ..., "same": ...}}``
    chance_words: ClassVar[dict] = {"de": {"luck": "Glück beim Würfeln", "same": "gleiche Würfe"},
                                    "en": {"luck": "lucky throws", "same": "the same throws"}}
    state_class: ClassVar[type]
    # Attached by ``registry.register`` from the game package's ``__init__`` (the engine module
    # never imports its bots, advisor or analysis):
    # bots by name -> factory(game) -> Bot ("random" is added by the registry for every game);
    bots: ClassVar[dict] = {}
    # advisor(game, observation, **settings) -> advice.Advice, from the observation alone;
    advisor: ClassVar[Any] = None
    # analyzer(game, progress) -> JSON-ready dict of exact facts;
    analyzer: ClassVar[Any] = None
    # the game's view: "module:attribute" of what draws an observation (imported only by front-ends).
    view: ClassVar[str | None] = None
    # (players, options) settings the generic conformance test plays; empty = min, default and max players.
    test_configs: ClassVar[tuple] = ()
    # seeded random playthroughs per setting in the conformance test; None = the test's default
    test_games: ClassVar[int | None] = None

    def __init__(self, num_players: int | None = None, options: dict | None = None):
        if num_players is None:
            num_players = self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"number of players must be a whole number, got {short(num_players)}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.id} is for {self.min_players}-{self.max_players} players, got {num_players}"
            )
        self.num_players = num_players
        self.options = validate_options(self.option_specs, options, self.id)

    @property
    def ruleset(self) -> str:
        return f"{self.id}/v{self.version}"

    def new_initial_state(self) -> "State":
        return self.state_class(self)

    def analyze(self, progress=None) -> dict:
        """Exact facts about this configuration (``spieltisch analyze``)."""
        if self.analyzer is None:
            raise SpieltischError(f"{self.id} has no exact analysis")
        return self.analyzer(self, progress)

    def advise(self, observation: dict, **settings):
        """Every option of the decision ``observation`` shows, valued (``advice.Advice``).

        The advisor gets the observation only, never the state: it cannot read hidden parts. Before
        any of its work, the settings are checked against the advisor's and the observation with
        ``check_observation``; whatever the advisor still trips over in a malformed observation (a
        list too short, a value out of range) is refused the same way, a ``SpieltischError`` naming
        it, never a KeyError, TypeError or IndexError."""
        if self.advisor is None:
            raise SpieltischError(f"{self.id} has no advisor")
        check_settings(self, settings)
        self.check_observation(observation)
        try:
            return self.advisor(self, observation, **settings)
        except SpieltischError:
            raise
        except (LookupError, TypeError, AttributeError, ValueError, ArithmeticError, StopIteration,
                RecursionError) as e:
            raise SpieltischError(f"not an observation of {self.id} its advisor can read: "
                                  f"{type(e).__name__} {short(str(e), 120, str)}") from None

    def check_observation(self, observation) -> None:
        """Refuse, with a ``SpieltischError`` naming what is wrong, what cannot be an observation of
        this game: not a mapping of JSON data (``check_json_data``: sizes and nesting bounded), a key
        missing that every observation of the game has, a value of another kind than the game's own
        observations hold there (text where they have a number, a number where they have a list),
        read from the observations of a short seeded playout (``observation_kinds``; where those
        only ever hold None, nothing is checked). Cheap, before any work; games may refine it."""
        what = f"not an observation of {self.id}"
        if type(observation) is not dict:
            raise SpieltischError(f"{what}: {short(observation)} is not a mapping")
        check_json_data(observation, what)
        required, kinds = self.observation_kinds()
        missing = [k for k in required if k not in observation]
        if missing:
            raise SpieltischError(f"{what}: it lacks {', '.join(map(short, missing[:4]))}")
        wrong = _kind_difference(observation, kinds)
        if wrong:
            raise SpieltischError(f"{what}: {wrong}")

    def observation_kinds(self) -> tuple:
        """(the keys every observation has, {path: kinds of value}) of this game's own observations:
        a new game's and those of the players to move in the first decisions of a seeded random
        playout (a path names keys, ``*`` for a list's items). Worked out once per game object."""
        known = self.__dict__.get("_observation_kinds")
        if known is None:
            from .rng import Rng

            state, rng = self.new_initial_state(), Rng(0)
            seen = [state.observation(0)]
            for _ in range(OBSERVATION_PLAYOUT):
                p = state.current_player()
                if p == TERMINAL:
                    break
                if p == CHANCE:
                    state._apply(state.sample_chance(rng))
                    continue
                seen.append(state.observation(p))
                legal = state._legal_actions()
                if not legal:
                    break
                state._apply(legal[rng.below(len(legal))])
            kinds: dict = {}
            for obs in seen:
                _add_kinds(obs, (), kinds)
            required = [k for k in seen[0] if all(k in obs for obs in seen)]
            known = self._observation_kinds = (required, kinds)
        return known

    def render_observation(self, observation: dict, lang: str = "en") -> str:
        """``observation`` as text for a terminal. Reads the observation and the game's static facts
        only, so a rendering can never show what its viewer may not see."""
        return repr(observation)

    def __repr__(self):
        return f"{type(self).__name__}(players={self.num_players}, options={self.options})"


class State:
    """One position. Subclasses implement the underscored hooks."""

    def __init__(self, game: Game):
        self.game = game
        self.num_players = game.num_players
        self.options = game.options

    # --- to implement -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Index of the player to act, ``CHANCE`` or ``TERMINAL``."""
        raise NotImplementedError

    def _legal_actions(self) -> Sequence:
        """Legal actions of the player to act (not called at chance or terminal nodes), as a list or
        tuple that nobody changes: a game may hand out one cached tuple every time."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        raise NotImplementedError

    def _apply(self, action) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def scores(self) -> list:
        """Running totals of every player (final totals at a terminal state)."""
        raise NotImplementedError

    def observation(self, player: int | None) -> dict:
        """What ``player`` may see, as JSON-serializable data, never the hidden parts;
        ``observation(SPECTATOR)`` is the public information only (the projector's view)."""
        raise NotImplementedError

    def chance_player(self) -> int | None:
        """At a chance node: the player whose throw or draw it is (front-ends show it as that
        player's move), or None where the event belongs to nobody (a shared shuffle)."""
        return None

    def resample_hidden(self, viewer: int | None, rng) -> "State":
        """A copy in which everything ``viewer`` may not see is drawn afresh from what is still
        possible (other players' hands, face-down cards, unscratched cells); what ``viewer`` sees
        stays. Games with hidden parts override it; the conformance test uses it to prove that an
        observation does not depend on what its viewer may not see."""
        return self.clone()

    def outcome_visible(self, action, viewer: int | None) -> bool | None:
        """Whether ``viewer`` can tell ``action`` (taken here) from the other possibilities, where the
        game knows it without comparing observations (a chance node with thousands of outcomes);
        None (the default): the front-end compares the observations every possibility leaves."""
        return None

    def why_illegal(self, action) -> IllegalActionError:
        """An error that names the rule ``action`` breaks here. Games refine this."""
        legal = self.legal_actions()[:12]
        # a few of them, cut short: the refusal is one readable line, however long the labels
        en = short(", ".join(action_label(a, "en") for a in legal), 240, str)
        de = short(", ".join(action_label(a, "de") for a in legal), 240, str)
        return IllegalActionError("legal moves", f"{_text(action)} is not allowed now; allowed: {en}",
                                  f"{_text(action)} ist jetzt nicht erlaubt; erlaubt: {de}", "erlaubte Züge")

    # --- provided ------------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list:
        p = self.current_player()
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return list(self._legal_actions())  # a new list: the caller may change it

    def is_legal(self, action) -> bool:
        """True if ``action`` is one of the legal actions, type-exactly, field by field: a look-alike
        that merely compares equal or is recorded alike (a float or a bool where the rules have an
        int, a list or a tuple subclass where they have a tuple, an object built without its class's
        constructor with a field the constructor would not set) is not legal, because it would be
        recorded or applied differently and could poison caches keyed on it. The very objects the
        game handed out are found by identity; anything else by its ``exact_key`` in an index of the
        legal actions (kept for a game's cached tuples). Never raises.

        Games may override it with a faster check of the same answer; the core wraps an override
        (``__init_subclass__``) so that it sees only actions built as their class builds them
        (``well_built``) and so that a hostile value tripping it means "not legal", not a crash."""
        return self._own_action(action) is not None

    def _own_action(self, action):
        """The core's check: the game's own legal object that ``action`` is type-exactly (the very
        object, or the one with its exact key), or None."""
        p = self.current_player()
        if p == TERMINAL:
            return None
        legal = [a for a, _ in self.chance_outcomes()] if p == CHANCE else self._legal_actions()
        for a in legal:
            if a is action:
                return a
        key = exact_key(action)
        return None if key is None else _legal_index(legal).get(key)

    def legal_object(self, action):
        """``action`` as the object to apply and record if it is legal, else None: the game's own
        object among its legal moves (a copy the player built never enters the position, so a game
        may tell its actions apart by identity and keep their display details); a chance outcome
        that the game checks with an ``is_legal`` of its own is taken as it is."""
        if type(self).is_legal is State.is_legal:
            return self._own_action(action)
        if not self.is_legal(action):
            return None
        if self.current_player() == CHANCE:
            return action  # an outcome checked by the game itself: its values are all it has
        own = self._own_action(action)
        return action if own is None else own

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("is_legal")
        if own is not None and not getattr(own, "_gated", False):
            def is_legal(self, action, _own=own) -> bool:
                try:
                    return well_built(action) and bool(_own(self, action))
                except Exception:  # noqa: BLE001 - any value at all may arrive here
                    return False
            is_legal.__doc__ = own.__doc__
            is_legal.__wrapped__ = own
            is_legal._gated = True
            cls.is_legal = is_legal

    def apply_action(self, action) -> None:
        """Apply ``action`` or raise ``IllegalActionError``; the state is unchanged on error."""
        if self.current_player() == TERMINAL:
            raise IllegalActionError("end of game", f"the game is over; {_text(action)} cannot be played",
                                     f"das Spiel ist vorbei; {_text(action)} geht nicht mehr", "Spielende")
        own = self.legal_object(action)
        if own is None:
            raise self.refusal(action)
        self._apply(own)

    def refusal(self, action) -> IllegalActionError:
        """``why_illegal(action)``, or, for a look-alike of a legal action (its class and record form,
        or ``==``), a refusal naming the field that is not what the game builds; the generic refusal
        where a hostile value trips the game's explanation (it must never end in a TypeError
        instead of the rule)."""
        try:
            err = _look_alike_refusal(action, self.legal_actions())
        except Exception:  # noqa: BLE001
            err = None
        if err is not None:
            return err
        try:
            err = self.why_illegal(action)
        except Exception:  # noqa: BLE001 - any value at all may arrive here
            err = None
        if not isinstance(err, IllegalActionError):
            err = State.why_illegal(self, action)
        return err

    def sample_chance(self, rng) -> Any:
        """Draw a chance outcome. Games may override with a faster sampler of the same law."""
        return sample_exact(self.chance_outcomes(), rng)

    def winners(self) -> list[int]:
        """Players with the highest total (ties share the win)."""
        s = self.scores()
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def clone(self) -> "State":
        game = self.game
        memo = {id(game): game}
        return copy.deepcopy(self, memo)

    def snapshot(self) -> Any:
        """A comparable value of the whole position (used to prove a rejected action changed nothing)."""
        d = {k: v for k, v in vars(self).items() if k != "game"}
        return repr(sorted(d.items()))

    def render(self, player: int | None = SPECTATOR, lang: str = "en") -> str:
        """What ``player`` sees (default: the projector's view), as text."""
        return self.game.render_observation(self.observation(player), lang)

    def __str__(self):
        return self.render()


def action_label(action, lang: str) -> str:
    """``action.label(lang)``, or the action's text cut short where it has no label (any value)."""
    label = getattr(action, "label", None)
    return label(lang) if callable(label) else _text(action)


def _text(value) -> str:
    """``str(value)`` for messages, cut short, for any value at all."""
    return short(value, 80, str)


_INDEX: dict = {}  # id(a game's cached tuple of legal actions) -> (the tuple, its index)
_INDEX_SIZE = 4096


def _legal_index(legal) -> dict:
    """``{exact_key: action}`` of ``legal``. A tuple a game hands out again and again
    (its cached legal actions) is indexed once; the tuple is kept with its index, so its id cannot
    be reused while the entry lives."""
    hit = _INDEX.get(id(legal))
    if hit is not None and hit[0] is legal:
        return hit[1]
    index = {exact_key(a, False): a for a in legal}
    if type(legal) is tuple:
        if len(_INDEX) >= _INDEX_SIZE:
            _INDEX.clear()
        _INDEX[id(legal)] = (legal, index)
    return index


_FLAT = (int, str)


def record_key(value) -> str:
    """A text that tells record values apart exactly (1, 1.0, True and "1" all differ). Most actions
    are a word or a flat list of words and whole numbers: ``repr`` of those is exact and several
    times cheaper than JSON; anything else goes through canonical JSON. The prefixes keep the two
    forms apart."""
    t = type(value)
    if t in _FLAT or (t is list and all(type(x) in _FLAT for x in value)):
        return "r" + repr(value)
    return "j" + json.dumps(value, sort_keys=True, separators=(",", ":"))


# --- type-exact forms of actions -----------------------------------------------------------------
# Values compared by value once their type is known exactly (a subclass is another type).
_SCALARS = frozenset({int, str, bool, float, bytes, complex, type(None)})
# Deeper than any game's action: a form this deep is a hostile value (and would cost recursion).
_MAX_DEPTH = 40
_SEQ, _SET, _MAP, _DATACLASS, _ATTRS, _OPAQUE = range(6)
_PLANS: dict = {}  # class -> how its objects are taken apart (see ``_plan``)


class _NotExact(Exception):
    """A value that is not built as its class builds it (or cannot be taken apart)."""


def _plan(cls: type) -> tuple:
    """How ``exact_key`` takes an object of ``cls`` apart, worked out once per class:
    ``(kind, ...)``; for a dataclass ``(kind, identity fields, other fields, init fields,
    rebuild)``: identity fields are those ``==`` compares, the others (a display text, a value
    derived from the identity) must be what the constructor makes of the init fields (``rebuild``:
    the class has such fields or a ``__post_init__``, so only rebuilding shows it)."""
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    if issubclass(cls, (tuple, list)):
        fields = getattr(cls, "_fields", None)  # a NamedTuple has exactly as many items as fields
        plan = (_SEQ, len(fields) if issubclass(cls, tuple) and isinstance(fields, tuple) else None)
    elif issubclass(cls, (set, frozenset)):
        plan = (_SET,)
    elif issubclass(cls, dict):
        plan = (_MAP,)
    elif dataclasses.is_dataclass(cls):
        fields = dataclasses.fields(cls)
        ident = tuple(f.name for f in fields if f.compare)
        other = tuple(f.name for f in fields if not f.compare)
        init = tuple(f.name for f in fields if f.init)
        rebuild = bool(other) or len(init) != len(fields) or hasattr(cls, "__post_init__")
        plan = (_DATACLASS, ident, other, init, rebuild)
    else:
        slots = tuple(dict.fromkeys(n for k in cls.__mro__ for n in _slot_names(k)
                                    if n not in ("__dict__", "__weakref__")))
        has_dict = any("__dict__" in vars(k) for k in cls.__mro__ if k is not object)
        plan = (_ATTRS, slots) if slots or has_dict else (_OPAQUE,)
    if len(_PLANS) < 4096:  # hostile code could make classes without end
        _PLANS[cls] = plan
    return plan


def _slot_names(cls: type) -> tuple:
    slots = vars(cls).get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _form(value, depth: int, check: bool):
    """The exact form of ``value`` (see ``exact_key``); raises for a value that has none."""
    t = type(value)
    if t in _SCALARS:
        return (t, value)
    if depth > _MAX_DEPTH:
        raise _NotExact("nested too deeply")
    plan = _PLANS.get(t) or _plan(t)
    kind = plan[0]
    depth += 1
    if kind == _DATACLASS:
        _, ident, other, init, rebuild = plan
        form = (t, tuple([(u, x) if (u := type(x)) in _SCALARS else _form(x, depth, check)
                          for x in [getattr(value, n) for n in ident]]),
                tuple([type(getattr(value, n)) for n in other]) if other else ())
        if check and rebuild:
            built = t(**{n: getattr(value, n) for n in init})
            for n in ident + other:
                if _form(getattr(built, n), depth, False) != _form(getattr(value, n), depth, False):
                    raise _NotExact(f"field {n} is not what {t.__name__} builds")
        return form
    if kind == _SEQ:
        items = tuple.__iter__(value) if isinstance(value, tuple) else list.__iter__(value)
        form = tuple([(u, x) if (u := type(x)) in _SCALARS else _form(x, depth, check) for x in items])
        if plan[1] is not None and len(form) != plan[1]:
            raise _NotExact(f"{t.__name__} has {plan[1]} fields, not {len(form)}")
        return (t, form)
    if kind == _ATTRS:
        try:
            own = object.__getattribute__(value, "__dict__")
        except AttributeError:
            own = {}
        names = plan[1] + tuple(sorted(own))
        return (t, tuple([(n, _form(object.__getattribute__(value, n), depth, check)) for n in names]))
    if kind == _SET:
        return (t, frozenset([_form(x, depth, check) for x in value]))
    if kind == _MAP:
        return (t, tuple([(_form(k, depth, check), _form(v, depth, check)) for k, v in dict.items(value)]))
    return (t, id(value))  # a function, a class, ...: only itself


def exact_key(action, check: bool = True):
    """A hashable key of ``action`` that tells look-alikes apart: its class and, field by field and
    recursively, the exact type and value of each (1, 1.0, True and "1" differ; a tuple, a list and
    a tuple subclass differ; a NamedTuple with an item too many differs). A dataclass's identity is
    its compared fields; its other fields (a display text, a value derived from the identity) count
    by type, and must be what the constructor builds from the init fields. None for a value that has
    no such key (a field missing, not built as its class builds it, nested deeper than any action, a
    hostile object that raises). ``check=False`` skips rebuilding (for the game's own actions)."""
    try:
        return _form(action, 0, check)
    except Exception:  # noqa: BLE001 - a hostile value may raise anything while taken apart
        return None


def well_built(action) -> bool:
    """True if ``action`` is built as its class builds it (``exact_key`` is not None): a game's own
    legality check may then look at the values alone."""
    return exact_key(action) is not None


# --- naming what a look-alike gets wrong ----------------------------------------------------------
_KINDS = {int: ("an int", "eine ganze Zahl"), float: ("a float", "eine Kommazahl"), bool: ("a bool", "ein Wahrheitswert"),
          str: ("a text", "ein Text"), list: ("a list", "eine Liste"), tuple: ("a tuple", "ein Tupel"),
          type(None): ("None", "None"), dict: ("a dict", "ein dict")}


def _kind(t: type) -> tuple[str, str]:
    if t in _KINDS:
        return _KINDS[t]
    name = short(t.__name__, 30, str)
    base = next((b for b in (bool, int, float, str, tuple, list, dict) if issubclass(t, b)), None)
    if base is not None:
        return f"{name} (a subclass of {base.__name__})", f"{name} (eine Unterklasse von {base.__name__})"
    return f"a {name}", f"ein {name}"


def _difference(value, like, path: str, depth: int = 0):
    """(en, de) naming the first place where ``value`` is not the game's ``like``; None if none found."""
    tv, tl = type(value), type(like)
    where = path or "the move"
    if tv is not tl:
        (ve, vd), (le, ld) = _kind(tv), _kind(tl)
        return f"{where} is {ve} where the game has {le}", f"{where} ist {vd}, wo das Spiel {ld} hat"
    if depth > 6 or tv in _SCALARS:
        if tv in _SCALARS and value != like:
            return (f"{where} is {short(value, 30)} where the game has {short(like, 30)}",
                    f"{where} ist {short(value, 30)}, wo das Spiel {short(like, 30)} hat")
        return None
    plan = _plan(tv)
    if plan[0] == _SEQ:
        a, b = tuple(tuple.__iter__(value) if isinstance(value, tuple) else list.__iter__(value)), tuple(like)
        if len(a) != len(b):
            return (f"{where} has {len(a)} items where the game has {len(b)}",
                    f"{where} hat {len(a)} Einträge, wo das Spiel {len(b)} hat")
        names = getattr(tv, "_fields", None) if plan[1] is not None else None
        for i, (x, y) in enumerate(zip(a, b)):
            sub = (f"{path}.{names[i]}" if path else names[i]) if names else f"{path}[{i}]"
            d = _difference(x, y, sub, depth + 1)
            if d:
                return d
        return None
    if plan[0] == _DATACLASS:
        names = plan[1] + plan[2]
        built = tv(**{n: getattr(value, n) for n in plan[3]}) if plan[4] else like
        for n in names:
            sub = f"{path}.{n}" if path else n
            try:
                x = getattr(value, n)
            except AttributeError:
                return f"field {sub} is missing", f"das Feld {sub} fehlt"
            d = _difference(x, getattr(like if n in plan[1] else built, n), sub, depth + 1)
            if d:
                return d
    return None


def _look_alike_refusal(action, legal) -> IllegalActionError | None:
    """The refusal of an action that resembles a legal one (the same class and record form, or
    ``==``, or a subclass of a legal action's class) but is not it, naming the field that differs."""
    t = type(action)
    same = [a for a in legal if type(a) is t]
    like = None
    if same:
        try:
            key = record_key(action.to_json())
        except Exception:  # noqa: BLE001
            key = None
        like = next((a for a in same if key is not None and record_key(a.to_json()) == key), None)
        if like is None:
            for a in same:
                try:
                    if (a == action) is True:
                        like = a
                        break
                except Exception:  # noqa: BLE001
                    pass
        if like is None:
            return None
        try:
            diff = _difference(action, like, "")
        except Exception:  # noqa: BLE001
            diff = None
    else:
        like = next((a for a in legal if isinstance(action, type(a))), None)
        if like is None:
            return None
        diff = _difference(action, like, "")
    en, de = diff or ("a field holds a value of another type", "ein Feld enthält einen Wert eines anderen Typs")
    label_en, label_de = action_label(like, "en"), action_label(like, "de")
    return IllegalActionError(
        "exact values",
        f"{_text(action)} looks like the legal move {short(label_en, 60, str)} but holds a value of another type "
        f"or one its class does not build ({en}); use the legal action itself",
        f"{_text(action)} sieht aus wie der erlaubte Zug „{short(label_de, 60, str)}“, enthält aber einen Wert "
        f"eines anderen Typs oder einen, den seine Klasse so nicht baut ({de}); bitte den erlaubten Zug selbst "
        "verwenden", "exakte Werte")


# --- observations given from outside (the advisor's input) ----------------------------------------
MAX_OBSERVATION_DEPTH = 32
MAX_OBSERVATION_ITEMS = 200_000
OBSERVATION_PLAYOUT = 400  # actions of the seeded playout whose observations show a game's kinds
_JSON_KINDS = {dict: "a mapping", list: "a list", str: "a text", int: "a whole number", float: "a number",
               bool: "true/false", type(None): "None"}


def check_json_data(value, what: str) -> None:
    """Refuse (``SpieltischError`` "``what``: ...") what is not plain JSON data of a bounded size:
    mappings with text keys, lists, texts, whole numbers (|n| < 2**63), finite numbers, true/false,
    None; at most ``MAX_OBSERVATION_ITEMS`` values nested at most ``MAX_OBSERVATION_DEPTH`` deep."""
    todo = [(value, "", 0)]
    count = 0
    while todo:
        v, path, depth = todo.pop()
        count += 1
        if count > MAX_OBSERVATION_ITEMS:
            raise SpieltischError(f"{what}: more than {MAX_OBSERVATION_ITEMS:,} values")
        t = type(v)
        if t is dict:
            if depth >= MAX_OBSERVATION_DEPTH:
                raise SpieltischError(f"{what}: nested deeper than {MAX_OBSERVATION_DEPTH}")
            for k, x in v.items():
                if type(k) is not str:
                    raise SpieltischError(f"{what}: a key {short(k)} at {path or 'the top'} is not a text")
                todo.append((x, f"{path}.{k}" if path else k, depth + 1))
        elif t is list:
            if depth >= MAX_OBSERVATION_DEPTH:
                raise SpieltischError(f"{what}: nested deeper than {MAX_OBSERVATION_DEPTH}")
            todo.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        elif t is int:
            if not -(2**63) < v < 2**63:
                raise SpieltischError(f"{what}: {short(path, 60, str)} is a number too large for any game")
        elif t is float:
            if v != v or v in (float("inf"), float("-inf")):
                raise SpieltischError(f"{what}: {short(path, 60, str)} is not a finite number")
        elif t not in (str, bool, type(None)):
            raise SpieltischError(f"{what}: {short(path, 60, str) or 'it'} is {short(v)}, not JSON data")


def _add_kinds(value, path: tuple, kinds: dict) -> None:
    kinds.setdefault(path, set()).add(type(value))
    if type(value) is dict:
        for k, x in value.items():
            _add_kinds(x, path + (k,), kinds)
    elif type(value) is list:
        for x in value:
            _add_kinds(x, path + ("*",), kinds)


def _kind_difference(value, kinds: dict, path: tuple = (), shown: str = "") -> str | None:
    """Where ``value`` holds another kind of value than the game's own observations at that path
    (``kinds``; None, and paths they never hold anything but None at, are not checked; a whole number
    is fine where they have a number). ``shown``: the path as people read it (``sheets[0].bonus``)."""
    t = type(value)
    seen = kinds.get(path)
    if value is not None and seen and seen != {type(None)} and t not in seen and not (t is int and float in seen):
        have = " or ".join(sorted(_JSON_KINDS.get(k, k.__name__) for k in seen - {type(None)}))
        return f"{short(shown or 'it', 60, str)} is {_JSON_KINDS.get(t, t.__name__)} where the game's observations have {have}"
    if t is dict:
        for k, x in value.items():
            d = _kind_difference(x, kinds, path + (k,), f"{shown}.{k}" if shown else k)
            if d:
                return d
    elif t is list:
        for i, x in enumerate(value):
            d = _kind_difference(x, kinds, path + ("*",), f"{shown}[{i}]")
            if d:
                return d
    return None


def advisor_settings(game) -> set | None:
    """The names of the settings ``game``'s advisor takes, or None when it takes any (``**settings``)."""
    if game.advisor is None:
        raise SpieltischError(f"{game.id} has no advisor, so its games cannot be reviewed")
    params = list(inspect.signature(game.advisor).parameters.values())[2:]  # after (game, observation)
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def check_settings(game, settings: dict) -> None:
    """Refuse a setting ``game``'s advisor does not take (its values are the advisor's to check)."""
    accepted = advisor_settings(game)
    if accepted is not None:
        unknown = sorted(set(settings) - accepted)
        if unknown:
            takes = ", ".join(sorted(accepted)) or "none"
            raise SpieltischError(f"the advisor of {game.id} takes no setting {short(unknown[0])} (its settings: {takes})")
