"""A match: a game being played, with its seed, its history, undo, and JSON game records.

A record is ``{"ruleset", "version", "players", "options", "seed", "actions"}`` and, for a game
dealt from a secret, ``"secret"``; ``actions`` holds every action in order, chance outcomes included
(as ``to_json()`` values). Replaying a record reproduces every state exactly.

A secret (``Match(..., secret=S)``) keys the chance stream together with the seed: then the seed,
which a page shows, does not determine the shuffles, draws and hidden cells. Tables deal games
with hidden parts from a fresh secret and reveal it only with the record (docs/hidden-information.md). At each chance node the match draws from its seeded ``Rng`` even
during replay, so the generator is in the same place afterwards and play can continue as it would
have; a recorded outcome may differ from the draw (a position set up by hand), but must be a legal
outcome.
"""

from __future__ import annotations

import json

from .errors import IllegalActionError, RecordError, SpieltischError, short
from .game import CHANCE, TERMINAL, Game, record_key as action_key
from .registry import get_game_class
from .rng import Rng, check_seed, secret_seed

RECORD_KEYS = ("ruleset", "version", "players", "options", "seed", "actions")
OPTIONAL_KEYS = ("secret",)
MAX_RECORD_CHARS = 4_000_000
MAX_ACTIONS = 100_000


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
        if mover == CHANCE:
            if not state.is_legal(action):
                raise state.refusal(action)
            state.sample_chance(self.rng)
            state._apply(action)
        else:
            state.apply_action(action)
        self.actions.append(action)
        self.movers.append(mover)

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
        return outcome

    def resolve_chance(self) -> list:
        """Apply chance outcomes until a player must act or the game is over."""
        drawn = []
        while self.state.current_player() == CHANCE:
            drawn.append(self.step_chance())
        return drawn

    def play(self, bots, bot_rng: Rng, max_steps: int = 1_000_000) -> None:
        """Let ``bots`` (one per seat) play to the end. Bots see only observations."""
        state, rng = self.state, self.rng
        # bound methods fetched once: this loop is most of a simulation's time
        current, apply, sample, legal_of = state.current_player, state._apply, state.sample_chance, state._legal_actions
        add_action, add_mover = self.actions.append, self.movers.append
        for _ in range(max_steps):
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
                    if not state.is_legal(a):  # an equal copy is fine, a look-alike is not
                        raise IllegalActionError("legal moves", f"bot {bots[p].name} chose {a!s}, which is not legal",
                                                 f"Bot {bots[p].name} wählte {a!s}, das ist nicht erlaubt", "erlaubte Züge")
            apply(a)
            add_action(a)
            add_mover(p)
        raise RuntimeError(f"game did not end within {max_steps} steps")

    def undo(self) -> None:
        """Take back the last player action (and the chance outcomes that followed it)."""
        cut = len(self.movers)
        while cut and self.movers[cut - 1] == CHANCE:
            cut -= 1
        if cut == 0:
            raise IllegalActionError("undo", "there is no player action to take back",
                                     "es gibt keinen Zug, der zurückgenommen werden kann", "Zurücknehmen")
        rebuilt = Match.from_record(dict(self.to_record(), actions=self.record_actions()[: cut - 1]))
        self.__dict__.update(rebuilt.__dict__)

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
        if len(text) > MAX_RECORD_CHARS:
            raise RecordError(f"the game record is too large ({len(text)} characters; at most {MAX_RECORD_CHARS})")
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        except RecordError:
            raise
        except RecursionError:
            raise RecordError("the game record is nested too deeply to be a game record") from None
        except ValueError as e:
            raise RecordError(f"the game record is not valid JSON (truncated?): {e}") from None
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
            raise RecordError(f"the record has {len(actions)} actions; at most {MAX_ACTIONS} are accepted")
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
        legal = state.legal_actions()
        if known is None:
            known = {}
        action = known.get(key)
        # only the very object counts: an equal one from elsewhere may carry other display details
        if action is None or not any(a is action for a in legal):
            action = None
            for a in legal:
                k = action_key(a.to_json())
                known.setdefault(k, a)
                if k == key:
                    action = a
        if action is not None:
            if mover == CHANCE:
                state.sample_chance(self.rng)  # keep the generator where live play would have it
            state._apply(action)
            self.actions.append(action)
            self.movers.append(mover)
            return
        who = "chance" if mover == CHANCE else f"player {mover}"
        reason = str(state.refusal(value)) if mover != CHANCE else "not a possible outcome here"
        raise RecordError(f"record action {i} ({short(value)}) for {who} does not replay: {reason[:300]}")
