"""The class round: what a class code fixes (ruleset and version, players, seats, options, seed,
advisor), how it is written and read back, and the games a round can be made of."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from hashlib import blake2b

from ...core.errors import SpieltischError, short
from ...core.game import State
from ...core.match import Match
from ...core.registry import bot_names, get_game_class
from ...core.rng import MAX_SEED, check_seed
from ..session import PlaySession
from ..table import BOT_WORDS, HUMAN, load_view, resolve_game
from .codes import (
    ALPHABET, CodeError, FORMAT, SMALL_SEED, _Reader, _VALUE, _Writer, _check, _from_chars, _game_of_number,
    _garbled, _symbols, _to_chars, class_games, grouped, normalize,
)


# --- the class round ------------------------------------------------------------------------------
def _hidden(cls) -> bool:
    return cls.state_class.resample_hidden is not State.resample_hidden


@dataclass(frozen=True)
class ClassRound:
    """One class game: build it with ``new_round`` or ``parse_class``."""

    game_id: str
    players: int
    seats: tuple  # "human" or a bot name per seat
    options: dict = field(compare=False, hash=False)  # every option, defaults filled in
    seed: int = 0
    advisor: bool = False  # may the students use the advisor?

    @property
    def cls(self):
        return get_game_class(self.game_id)

    @property
    def version(self) -> int:
        return self.cls.version

    def game(self):
        return self.cls(self.players, dict(self.options))

    @property
    def humans(self) -> tuple:
        return tuple(p for p, s in enumerate(self.seats) if s == HUMAN)

    @property
    def bots(self) -> dict:
        return {p: s for p, s in enumerate(self.seats) if s != HUMAN}

    @property
    def hidden(self) -> bool:
        return _hidden(self.cls)

    @property
    def secret(self) -> int | None:
        """A game with hidden parts is dealt from a secret derived from the round's seed (a BLAKE2b
        hash with its own domain), so every device deals the same cards; the code fixes it, which is
        why a static page cannot keep it from a determined student (docs/class-mode.md). None for
        games without hidden parts: there the seed alone gives the throws."""
        if not self.hidden:
            return None
        h = blake2b(f"{self.game_id}\n{self.seed}".encode(), digest_size=8, person=b"spieltisch/class")
        return int.from_bytes(h.digest(), "little")

    @property
    def code(self) -> str:
        return _encode_class(self)

    def link(self, base: str = "") -> str:
        """The Play page of this round, relative to the site's root (or below ``base``)."""
        return f"{base}play/{card_of(self.game_id)}.html?class={self.code}"

    def points(self, match: Match):
        """A finished class game's points of the student's seat (the first human seat)."""
        return match.state.scores()[self.humans[0]]

    def match(self) -> Match:
        """The class game as a fresh ``Match`` (the record of a finished one is a class game)."""
        return Match(self.game_id, self.players, dict(self.options), self.seed, self.secret)

    def session(self) -> PlaySession:
        """The class game as a table plays it: these bots at their seats, the same bot generator."""
        return PlaySession(self.game(), None, None, self.seed, bots=self.bots, secret=self.secret)

    def table_settings(self) -> dict:
        """Keyword arguments of ``Table`` for this round (the table then refuses every change)."""
        return {"game": self.game_id, "players": self.players, "seats": list(self.seats), "seed": self.seed,
                "options": dict(self.options), "advisor": False, "secret": self.secret,
                "class_round": {"code": grouped(self.code), "advisor": self.advisor, "result_code": True}}

    def to_json(self) -> dict:
        """``{"code", "ruleset", "players", "options", "seats", "seed"}`` (+ ``"secret"`` in a game with
        hidden parts, + ``"advisor"``): ``Match(ruleset, players, options, seed, secret)`` is the class's
        game. The secret is here because that match needs it; it follows from the code anyway."""
        out = {"code": self.code, "ruleset": self.game_id, "version": self.version, "players": self.players,
               "options": dict(self.options), "seats": list(self.seats), "seed": self.seed, "advisor": self.advisor}
        if self.hidden:
            out["secret"] = self.secret
        return out

    def describe(self, lang: str) -> dict:
        """What the projector and the board say about the round, in ``lang``."""
        view = load_view(self.cls)
        names = {**BOT_WORDS, **view.bot_names}
        seats = []
        for p, s in enumerate(self.seats):
            if s == HUMAN:
                seats.append(("Schüler/in" if lang == "de" else "student") if len(self.humans) == 1
                             else (f"Schüler/in {p + 1}" if lang == "de" else f"student {p + 1}"))
            else:
                seats.append(f"Bot ({names.get(s, {'de': s, 'en': s})[lang]})")
        changed = {k: v for k, v in self.options.items()
                   if v != next(o.default for o in self.cls.option_specs if o.name == k)}
        return {"code": self.code, "shown": grouped(self.code), "game": self.game_id, "card": card_of(self.game_id),
                "name": self.cls.name[lang], "version": self.version, "players": self.players, "seats": seats,
                "options": changed, "options_text": [option_text(self.cls, k, v, lang) for k, v in changed.items()],
                "advisor": self.advisor, "hidden": self.hidden, "link": self.link(),
                "chance": self.cls.chance_words[lang]}


def catalog(lang: str = "de") -> list[dict]:
    """The games a class round can be made of (those registered here), with what a teacher chooses:
    the player range, the bots (named in ``lang``), the usual bot, the options."""
    out = []
    for game_id in class_games():
        cls = get_game_class(game_id)
        view = load_view(cls)
        names = {**BOT_WORDS, **view.bot_names}
        out.append({
            "id": game_id, "card": card_of(game_id), "name": cls.name[lang], "version": cls.version,
            "players": [cls.min_players, cls.max_players], "hidden": _hidden(cls),
            "bots": [{"id": b, "name": names.get(b, {"de": b, "en": b})[lang]} for b in bot_names(game_id)],
            "default_bot": view.default_bot,
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "min": o.min, "max": o.max,
                         "kind": o.type().__name__, "help": o.help, **option_label(cls, o.name, lang)}
                        for o in cls.option_specs],
        })
    return out


def option_label(cls, name: str, lang: str) -> dict:
    """An option's name as a person reads it in ``lang`` (``label``) and its choices' (``choice_labels``,
    value -> text), from the game's ``option_labels``; the engine's name where there is none."""
    entry = cls.option_labels.get(name, {})
    choices = {str(k): v[lang] for k, v in entry.get("choices", {}).items()}
    return {"label": entry.get(lang, name), "choice_labels": choices}


def option_text(cls, name: str, value, lang: str) -> str:
    """``label: value`` of one option in force, both as a person reads them."""
    label = option_label(cls, name, lang)
    if isinstance(value, bool):
        shown = ("ja" if value else "nein") if lang == "de" else ("yes" if value else "no")
    else:
        shown = label["choice_labels"].get(str(value), str(value))
    return f"{label['label']}: {shown}"


def card_of(game_id: str) -> str:
    """The Play page (landing card id) of a game: a family's games share one (its id without "-1", "-2")."""
    family = game_id.rsplit("-", 1)
    return family[0] if len(family) == 2 and family[1].isdigit() else game_id


def new_round(game, players: int | None = None, seats=None, options: dict | None = None, seed: int | None = None,
              advisor: bool = False) -> ClassRound:
    """A class round, every setting checked: ``game`` an id or family, ``seats`` "human" or a bot
    name per seat (default: seat 1 human, the others the game's usual bot), ``seed`` drawn at random
    below ``SMALL_SEED`` unless given. At least one seat is human (a student plays it)."""
    game_id = resolve_game(game)
    if get_game_class(game_id).class_code_number is None:
        raise SpieltischError(f"{game_id} has no class-code number (its game class's class_code_number)")
    cls = get_game_class(game_id)
    if options is not None and not isinstance(options, dict):
        raise SpieltischError(f"options must be a mapping of name to value, got {type(options).__name__}")
    if players is None:
        players = len(seats) if isinstance(seats, (list, tuple)) else cls.min_players
    built = cls(players, dict(options or {}))  # checks the player count and every option
    n = built.num_players
    if seats is None:
        seats = [HUMAN] + [load_view(cls).default_bot] * (n - 1)
    if not isinstance(seats, (list, tuple)) or len(seats) != n:
        raise SpieltischError(f"seats lists 'human' or a bot name for each of the {n} seats, got {short(seats)}")
    known = bot_names(game_id)
    for s in seats:
        if s != HUMAN and s not in known:
            raise SpieltischError(f"{game_id} has no bot {short(s)}; bots: {', '.join(known)}")
    if HUMAN not in seats:
        raise SpieltischError("a class round needs at least one human seat (the student's)")
    if seed is None:
        seed = secrets.randbelow(SMALL_SEED)
    check_seed(seed)
    if not isinstance(advisor, bool):
        raise SpieltischError(f"advisor is true or false, got {short(advisor)}")
    round_ = ClassRound(game_id, n, tuple(seats), dict(built.options), seed, advisor)
    round_.code  # an option no code can carry is refused here  # noqa: B018
    return round_


def _encode_class(r: ClassRound) -> str:
    cls = r.cls
    w = _Writer()
    w.put(FORMAT, 2)
    w.varint(cls.version)
    w.put(r.players - cls.min_players, cls.max_players - cls.min_players + 1)
    bots = bot_names(r.game_id)
    for s in r.seats:
        w.put(0 if s == HUMAN else 1 + bots.index(s), 1 + len(bots))
    w.put(int(r.advisor), 2)
    if r.seed < SMALL_SEED:
        w.put(0, 2)
        w.put(r.seed, SMALL_SEED)
    else:
        w.put(1, 2)
        w.put(r.seed, MAX_SEED + 1)
    # the options come last: each is a "changed?" digit (then its value), so the defaults cost
    # nothing at the top of the number, and an option added later reads as its default in old codes
    for spec in cls.option_specs:
        value = r.options[spec.name]
        if value == spec.default and type(value) is type(spec.default):
            w.put(0, 2)
            continue
        w.put(1, 2)
        kind = spec.type()
        if kind is bool:
            pass  # the one other value
        elif spec.choices:
            others = [c for c in spec.choices if c != spec.default]
            w.put(others.index(value), len(others))
        elif kind is int and spec.min is not None and spec.max is not None:
            w.put(value - spec.min, spec.max - spec.min + 1)
        else:
            raise SpieltischError(f"option {spec.name} of {r.game_id} has no bounded set of values, "
                                  "so a class code cannot carry it")
    body = ALPHABET[r.cls.class_code_number] + _to_chars(w.n)
    return body + ALPHABET[_check(_symbols(body), 1)]


def parse_class(text) -> ClassRound:
    """The class round of a typed class code; a wrong one is refused (``CodeError``) saying why: a
    typing error (the check character), a game this site does not have, another ruleset version."""
    code = normalize(text, "class code")
    if len(code) < 4 or len(code) > 40:
        raise CodeError(f"a class code has about a dozen characters, not {len(code)}",
                        f"ein Klassencode hat etwa zwölf Zeichen, nicht {len(code)}")
    if _check(_symbols(code[:-1]), 1) != _VALUE[code[-1]]:
        raise CodeError("the class code's check character does not match: a character is mistyped",
                        "das Prüfzeichen des Klassencodes stimmt nicht: ein Zeichen ist vertippt")
    game_id = _game_of_number(_VALUE[code[0]])
    if game_id is None:
        # (a Play page loads its own game only: the start page's "Code eingeben" opens the right one)
        raise CodeError("this class code is for a game this page does not have: type it into "
                        "“Enter code” on the start page, which opens its game",
                        "dieser Klassencode gehört zu einem Spiel, das diese Seite nicht hat: tippe ihn auf der "
                        "Startseite unter „Code eingeben“ ein, das öffnet sein Spiel")
    cls = get_game_class(game_id)
    r = _Reader(_from_chars(code[1:-1]))
    if r.take(2) != FORMAT:
        raise _garbled("unknown layout", "unbekannter Aufbau")
    version = r.varint()
    if version != cls.version:
        raise CodeError(f"this class code is for {game_id} v{version}, but this engine plays v{cls.version}; "
                        "its games may differ, so it is not used: ask for a new class code",
                        f"dieser Klassencode gilt für {game_id} v{version}, diese Version spielt aber "
                        f"v{cls.version}; die Spiele können sich unterscheiden: bitte einen neuen Klassencode")
    players = cls.min_players + r.take(cls.max_players - cls.min_players + 1)
    bots = bot_names(game_id)
    seats = []
    for _ in range(players):
        k = r.take(1 + len(bots))
        seats.append(HUMAN if k == 0 else bots[k - 1])
    advisor = bool(r.take(2))
    seed = r.take(MAX_SEED + 1) if r.take(2) else r.take(SMALL_SEED)
    options = {}
    for spec in cls.option_specs:
        if not r.take(2):
            continue
        kind = spec.type()
        if kind is bool:
            options[spec.name] = not spec.default
        elif spec.choices:
            others = [c for c in spec.choices if c != spec.default]
            options[spec.name] = others[r.take(len(others))]
        else:
            options[spec.name] = spec.min + r.take(spec.max - spec.min + 1)
    if r.n:
        raise _garbled("it holds more than a class round", "er enthält mehr als eine Klassenrunde")
    try:
        round_ = new_round(game_id, players, seats, options, seed, advisor)
    except SpieltischError as e:
        raise _garbled(str(e), str(e)) from None
    if round_.code != code:  # e.g. a leading zero: one round, one code
        raise _garbled("not written the way spieltisch writes it", "nicht so geschrieben, wie Spieltisch ihn schreibt")
    return round_
