"""A match: a game being played, with its seed, its history, undo, and JSON game records.

A record is ``{"ruleset", "version", "players", "options", "seed", "actions"}`` and, for a game
dealt from a secret, ``"secret"``; ``actions`` holds every action in order, chance outcomes included
(as ``to_json()`` values). Replaying a record reproduces every state exactly.

At each chance node the match draws from its seeded ``Rng`` even during replay, so the generator is
in the same place afterwards and play can continue as it would have; a recorded outcome may differ
from the draw (a position set up by hand), but must be a legal outcome.

A secret (``Match(..., secret=S)``) keys the chance stream together with the seed: then the seed,
which a page shows, does not determine the shuffles, draws and hidden cells. Tables deal games
with hidden parts from a fresh secret and reveal it only with the record (docs/hidden-information.md).
"""

from __future__ import annotations

import copy
import json
import re
from array import array
from itertools import accumulate

from .errors import IllegalActionError, RecordError, SpieltischError, short
from .game import CHANCE, TERMINAL, Game, exact_key, record_key as action_key
from .registry import get_game_class
from .rng import Rng, check_seed, secret_seed

RECORD_KEYS = ("ruleset", "version", "players", "options", "seed", "actions")
OPTIONAL_KEYS = ("secret",)
# Records are bounded by what they cost, with room for the longest games the engine plays (measured:
# benchmarks/replay.py, docs/limits.md). Actions: as many as ``play`` lets a game last (its step
# limit); the longest real games measured, Skip-Bo Masters to 5,000 points between random bots, take
# about 650,000. Replay costs up to about 50 µs an action (Skip-Bo, CPython), so the longest record
# replays in about a minute; undo replays at most ``CHECKPOINT_EVERY`` actions. Characters: real
# records take at most 24 an action (measured over every game), 32 with a margin.
MAX_ACTIONS = 1_000_000
MAX_RECORD_CHARS = 32 * MAX_ACTIONS
MAX_RECORD_DEPTH = 32  # a record nests 3 or 4 deep (record, actions, an action, its list)
# Undo goes back to the latest checkpoint and replays from there: at most this many actions.
CHECKPOINT_EVERY = 1000
# What a checkpoint does not copy: everything else is where chance comes from (the generator).
_NOT_CHANCE = frozenset({"game", "state", "actions", "movers", "_marks"})


# JSON strings (closed or running to the end) and everything but brackets: what ``json_depth`` skips
_JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def json_depth(text: str) -> int:
    """How deep the lists and objects of JSON ``text`` nest, without parsing it (linear time, the
    loops in C): brackets outside strings counted, +1 opening, -1 closing."""
    marks = _NOT_BRACKETS.sub("", _JSON_STRINGS.sub("", text)).encode("ascii").translate(_STEPS)
    return max(accumulate(array("b", marks)), default=0)


def parse_json(text: str, max_chars: int, max_depth: int, what: str, error=SpieltischError, hook=None):
    """``json.loads(text)`` for text from outside, bounded before it is parsed: at most ``max_chars``
    characters, lists and objects nested at most ``max_depth`` deep (a deeper one would overflow the
    parser's stack: a RecursionError in CPython, in Pyodide the JavaScript stack). Anything else
    raises ``error`` naming ``what`` and the bound. ``hook``: ``object_pairs_hook``."""
    if len(text) > max_chars:
        raise error(f"{what} is too large ({len(text):,} characters; at most {max_chars:,})")
    depth = json_depth(text)
    if depth > max_depth:
        raise error(f"{what} is nested too deeply ({depth:,} levels; at most {max_depth})")
    try:
        return json.loads(text, object_pairs_hook=hook)
    except error:
        raise
    except RecursionError:  # pragma: no cover - the depth bound comes first
        raise error(f"{what} is nested too deeply") from None
    except ValueError as e:
        raise error(f"{what} is not valid JSON (truncated?): {short(str(e), 200, str)}") from None


def _no_duplicate_keys(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise RecordError(f"the game record names {short(k)} twice in one object")
        seen[k] = v
    return seen


class Match:
    def __init__(self, game, num_players: int | None = None, options: dict | None = None, seed: int = 0,
                 secret: int | None = None):
        """``game`` is a game id (then players and options are validated here) or a configured
        ``Game`` (already validated; players and options must then be left out). ``secret``: chance
        comes from the seed and the secret together (None: from the seed alone)."""
        if secret is None:
            rng = Rng(seed)  # checks the seed (a SpieltischError)
        else:
            check_seed(seed)
            rng = Rng(secret_seed(seed, secret))  # checks the secret too
        if isinstance(game, Game):
            if num_players is not None or options is not None:
                raise SpieltischError("give players and options either to the Game or to the Match, not both")
            self.game = game
        else:
            self.game = get_game_class(game)(num_players, options)
        self.seed = seed
        self.secret = secret
        self.rng = rng
        self.state = self.game.new_initial_state()
        self.actions: list = []  # action objects, in order
        self.movers: list[int] = []  # who took each action (CHANCE for chance outcomes)

    # --- playing -------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.state.current_player()

    def is_terminal(self) -> bool:
        return self.state.current_player() == TERMINAL

    def legal_actions(self) -> list:
        return self.state.legal_actions()

    def apply(self, action) -> None:
        """Apply a player's (or a chosen chance) action; illegal ones raise and change nothing.

        A chance outcome chosen here still takes its draw from the match's generator, exactly as a
        drawn one and as replay does, so a live match, its replay and an undone one go on with the
        same outcomes."""
        state = self.state
        mover = state.current_player()
        own = state.legal_object(action)  # the game's own object: a copy never enters the match
        if mover == CHANCE:
            if own is None:
                raise state.refusal(action)
            self._advance(own, CHANCE)
        else:
            own = action if own is None else own
            state.apply_action(own)  # refuses an illegal one (and runs a game's own apply_action)
            self.actions.append(own)
            self.movers.append(mover)
            self._checkpoint()

    def step_chance(self):
        """Draw and apply one chance outcome from the match's generator; return it."""
        state = self.state
        if state.current_player() != CHANCE:
            raise IllegalActionError("turn order", "no chance event is pending: a player must act",
                                     "es wird gerade nicht gewürfelt oder gezogen: ein Spieler ist am Zug", "Reihenfolge")
        outcome = state.sample_chance(self.rng)
        state._apply(outcome)
        self.actions.append(outcome)
        self.movers.append(CHANCE)
        self._checkpoint()
        return outcome

    def resolve_chance(self) -> list:
        """Apply chance outcomes until a player must act or the game is over."""
        drawn = []
        while self.state.current_player() == CHANCE:
            drawn.append(self.step_chance())
        return drawn

    def play(self, bots, bot_rng: Rng, max_steps: int = MAX_ACTIONS) -> None:
        """Let ``bots`` (one per seat) play to the end. Bots see only observations."""
        state, rng = self.state, self.rng
        # bound methods fetched once: this loop is most of a simulation's time
        current, apply, sample, legal_of = state.current_player, state._apply, state.sample_chance, state._legal_actions
        add_action, add_mover = self.actions.append, self.movers.append
        done = 0
        while done < max_steps:
            # in stretches that end where undo keeps a checkpoint, so the loop itself counts nothing
            stretch = min(CHECKPOINT_EVERY - len(self.actions) % CHECKPOINT_EVERY, max_steps - done)
            for _ in range(stretch):
                p = current()
                if p == TERMINAL:
                    return
                if p == CHANCE:
                    a = sample(rng)
                else:
                    legal = legal_of()
                    bot = bots[p]
                    a = bot.act(state.observation(p) if bot.uses_observation else None, legal, bot_rng)
                    # by identity first: a bot normally returns one of the legal objects, and ``in``
                    # alone would call the actions' (Python) __eq__ on every entry before it
                    for x in legal:
                        if x is a:
                            break
                    else:
                        own = state.legal_object(a)  # an equal copy is fine, a look-alike is not
                        if own is None:
                            raise IllegalActionError(
                                "legal moves", f"bot {bots[p].name} chose {a!s}, which is not legal",
                                f"Bot {bots[p].name} wählte {a!s}, das ist nicht erlaubt", "erlaubte Züge")
                        a = own
                apply(a)
                add_action(a)
                add_mover(p)
            done += stretch
            self._checkpoint()
        raise RuntimeError(f"game did not end within {max_steps} steps")

    def undo(self) -> None:
        """Take back the last player action (and the chance outcomes that followed it).

        The match goes back to its latest checkpoint before that action (one every
        ``CHECKPOINT_EVERY`` actions, or the start) and applies its own actions again from there,
        drawing chance as it did: at most ``CHECKPOINT_EVERY`` steps, however long the game."""
        cut = len(self.movers)
        while cut and self.movers[cut - 1] == CHANCE:
            cut -= 1
        if cut == 0:
            raise IllegalActionError("undo", "there is no player action to take back",
                                     "es gibt keinen Zug, der zurückgenommen werden kann", "Zurücknehmen")
        keep = cut - 1
        marks = [m for m in self.__dict__.get("_marks", ()) if m[0] <= keep]
        if marks:
            n, state, chance = marks[-1]
            back = object.__new__(type(self))
            back.__dict__.update(self.__dict__)
            back.__dict__.update(copy.deepcopy(chance))
            back.state = state.clone()
        else:
            n = 0
            back = Match.from_record(dict(self.to_record(), actions=[]))
        back.actions, back.movers, back._marks = self.actions[:n], self.movers[:n], marks
        for action, mover in zip(self.actions[n:keep], self.movers[n:keep]):
            back._advance(action, mover)
        self.__dict__.update(back.__dict__)

    def _advance(self, action, mover: int, draw: bool = True) -> None:
        """Apply ``action``, known to be legal, by ``mover``; a chance outcome takes its draw from the
        match's generator as a drawn one does (live play, replay and undo stay in step), unless the
        caller has drawn already (``draw=False``)."""
        if mover == CHANCE and draw:
            self.state.sample_chance(self.rng)
        self.state._apply(action)
        self.actions.append(action)
        self.movers.append(mover)
        self._checkpoint()

    def _checkpoint(self) -> None:
        """Every ``CHECKPOINT_EVERY`` actions: keep a copy of the position and of everything chance
        draws from (the generator; every attribute but the game, the position and the history),
        for ``undo``."""
        n = len(self.actions)
        if n % CHECKPOINT_EVERY or not n:
            return
        marks = self.__dict__.setdefault("_marks", [])
        if marks and marks[-1][0] >= n:
            return
        chance = {k: v for k, v in vars(self).items() if k not in _NOT_CHANCE}
        marks.append((n, self.state.clone(), copy.deepcopy(chance)))

    # --- records -------------------------------------------------------------------------------
    def record_actions(self) -> list:
        return [a.to_json() for a in self.actions]

    def to_record(self) -> dict:
        """The whole record (with the secret, where there is one: a saved game can go on exactly)."""
        record = {
            "ruleset": self.game.id,
            "version": self.game.version,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": self.record_actions(),
        }
        if self.secret is not None:
            record["secret"] = self.secret
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_record(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text) -> "Match":
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError("a game record must be UTF-8 JSON text") from None
        if not isinstance(text, str):
            raise RecordError(f"a game record must be JSON text, got {type(text).__name__}")
        data = parse_json(text, MAX_RECORD_CHARS, MAX_RECORD_DEPTH, "the game record", RecordError,
                          _no_duplicate_keys)
        return cls.from_record(data)

    @classmethod
    def from_record(cls, data) -> "Match":
        """Validate and replay a record; any problem raises ``RecordError`` and builds nothing."""
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {type(data).__name__}")
        missing = [k for k in RECORD_KEYS if k not in data]
        if missing:
            raise RecordError(f"the game record lacks {', '.join(missing)}")
        extra = sorted(short(k) for k in data if k not in RECORD_KEYS and k not in OPTIONAL_KEYS)
        if extra:
            raise RecordError(f"the game record has unknown fields: {', '.join(extra[:5])}")
        ruleset, version, actions = data["ruleset"], data["version"], data["actions"]
        players, options = data["players"], data["options"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise RecordError(f"record players must be a whole number, got {short(players)}")
        if not isinstance(options, dict):
            raise RecordError(f"record options must be an object of name: value, got {short(options)}")
        try:
            game_cls = get_game_class(ruleset)
        except SpieltischError as e:
            raise RecordError(f"record ruleset: {e}") from None
        if isinstance(version, bool) or not isinstance(version, int):
            raise RecordError(f"record version must be a whole number, got {version!r}")
        if version != game_cls.version:
            raise RecordError(
                f"the record is for {ruleset} v{version}, but this engine plays v{game_cls.version}; "
                "its outcomes may differ, so it is not replayed"
            )
        if not isinstance(actions, list):
            raise RecordError("record actions must be a list")
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"the record has {len(actions):,} actions; at most {MAX_ACTIONS:,} are accepted")
        try:
            match = cls(ruleset, players, options, data["seed"], data.get("secret"))
        except SpieltischError as e:
            raise RecordError(f"record setup: {e}") from None
        known: dict = {}
        for i, value in enumerate(actions):
            match._replay_one(i, value, known)
        return match

    def _replay_one(self, i: int, value, known: dict | None = None) -> None:
        """Apply record entry ``i``. ``known`` maps the record form of every action met so far to
        the action, so a step costs one encoding of the entry and a legality check, not an encoding
        of every legal action (a long record replays about as fast as it was played)."""
        state = self.state
        mover = state.current_player()
        if mover == TERMINAL:
            raise RecordError(f"record action {i}: the game was already over")
        try:
            key = action_key(value)
        except (TypeError, ValueError, RecursionError):
            raise RecordError(f"record action {i} is not a JSON value") from None
        if known is None:
            known = {}
        action = known.get(key)
        if mover == CHANCE:
            # The generator moves as in live play. A record of live play holds the drawn outcome,
            # which needs no further check; another outcome met before is asked for directly
            # (games check outcomes without listing them: 100,000 tied start throws must not build
            # 100,000 lists of 216 outcomes).
            drawn = state.sample_chance(self.rng)
            if action is None and action_key(drawn.to_json()) == key:
                known[key] = action = drawn
            elif drawn is not action and (action is None or not state.is_legal(action)):
                action = _find(state.legal_actions(), key, None, known)
        else:
            # a player's move must be an object the game offers now (an equal one from elsewhere
            # may carry other display details)
            action = _find(state.legal_actions(), key, action, known)
        if action is not None:
            self._advance(action, mover, draw=False)
            return
        who = "chance" if mover == CHANCE else f"player {mover}"
        reason = str(state.refusal(value)) if mover != CHANCE else "not a possible outcome here"
        raise RecordError(f"record action {i} ({short(value)}) for {who} does not replay: {reason[:300]}")


def _find(legal, key: str, seen, known: dict):
    """The legal action with record form ``key``: ``seen`` (the action met before with it) itself
    if the game offers that object again, else the one type-exactly like it (games that build their
    moves afresh), found without encoding every legal action; else by encoding them (``known``
    learns every one). None if no legal action has that record form."""
    if seen is not None:
        for a in legal:
            if a is seen:
                return a
        t, form = type(seen), exact_key(seen, False)
        for a in legal:
            if type(a) is t and exact_key(a, False) == form and action_key(a.to_json()) == key:
                known[key] = a
                return a
    found = None
    for a in legal:
        k = action_key(a.to_json())
        known.setdefault(k, a)
        if k == key:
            found = a
    return found
