"""Class rounds without a server: one game for a whole class, its codes, their verification and the
class board's summary (standard library only; docs/class-mode.md).

A **class code** (``ClassRound.code``) fixes everything that makes the game: the ruleset and its
version, the number of players, who sits where (human or which bot), the options, the seed and
whether the advisor may be used. Every device that opens it builds the same table, and because
chance comes from the seed (and, in a game with hidden parts, from a secret derived from it), the
same decisions meet the same throws, cards and bot moves everywhere.

A **result code** holds a student's decisions: at each of their decisions with more than one legal
action, the index of the chosen action among ``legal_actions()`` (whose order is deterministic),
packed as one mixed-radix number. Nothing else needs to travel: the board replays the class game
with these indices (bots and chance as on the student's device) and reads the points from the end
position, so a code cannot claim points its decisions do not make.

Codes are written in Crockford's base 32 (digits and capital letters without I, L, O, U; typing is
forgiving: lower case, O for 0, I or L for 1, spaces and hyphens are all accepted). Check characters
are sums over GF(32) with distinct weights: one character detects every single wrong character and
every swap of two neighbours; the result code's two detect every error in up to two characters.

Nothing here knows a page, Pyodide or Panel: the Play pages and the class board run it in the
browser, ``spieltisch class`` on the command line, and a live class on a server can use it as is.
"""

from __future__ import annotations

import csv
import io
import json
import math
import secrets
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from hashlib import blake2b

from ..core.advice import value_json
from ..core.errors import SpieltischError, short
from ..core.game import CHANCE, State, action_label, record_key
from ..core.match import Match
from ..core.registry import bot_names, get_game_class
from ..core.rng import MAX_SEED, check_seed
from .session import PlaySession
from .table import BOT_WORDS, HUMAN, load_view, resolve_game

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

# A class code's first character names its game: the index in this tuple. Append only (a code in
# a student's notes must keep naming the same game).
GAMES = ("wuerfel-joker-1", "wuerfel-joker-2", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island")

FORMAT = 0  # the codes' layout; a new one takes the next number (the first digit of both codes)
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
    """A class or result code that is refused; ``text`` says why in German and English."""

    def __init__(self, en: str, de: str):
        super().__init__(en)
        self.text = {"en": en, "de": de}

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
    return CodeError(f"the code is garbled: {en_detail}", f"der Code ist verstümmelt: {de_detail}")


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
                "class_round": {"code": grouped(self.code), "advisor": self.advisor}}

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
                "advisor": self.advisor, "hidden": self.hidden, "link": self.link()}


def catalog(lang: str = "de") -> list[dict]:
    """The games a class round can be made of (those registered here), with what a teacher chooses:
    the player range, the bots (named in ``lang``), the usual bot, the options."""
    out = []
    for game_id in GAMES:
        try:
            cls = get_game_class(game_id)
        except SpieltischError:
            continue
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
    """The Play page (landing card id) of a game: a family's games share one ("wuerfel-joker")."""
    family = game_id.rsplit("-", 1)
    return family[0] if len(family) == 2 and family[1].isdigit() else game_id


def new_round(game, players: int | None = None, seats=None, options: dict | None = None, seed: int | None = None,
              advisor: bool = False) -> ClassRound:
    """A class round, every setting checked: ``game`` an id or family, ``seats`` "human" or a bot
    name per seat (default: seat 1 human, the others the game's usual bot), ``seed`` drawn at random
    below ``SMALL_SEED`` unless given. At least one seat is human (a student plays it)."""
    game_id = resolve_game(game)
    if game_id not in GAMES:
        raise SpieltischError(f"{game_id} has no class-code number yet (add it at the end of classroom.GAMES)")
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
    body = ALPHABET[GAMES.index(r.game_id)] + _to_chars(w.n)
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
    index = _VALUE[code[0]]
    if index >= len(GAMES):
        raise CodeError("this class code names a game this version of spieltisch does not know",
                        "dieser Klassencode nennt ein Spiel, das diese Version von Spieltisch nicht kennt")
    game_id = GAMES[index]
    try:
        cls = get_game_class(game_id)
    except SpieltischError:
        raise CodeError(f"this class code is for {game_id}, which this page does not load: "
                        f"open play/{card_of(game_id)}.html",
                        f"dieser Klassencode gehört zu {game_id}, das diese Seite nicht lädt: "
                        f"öffne play/{card_of(game_id)}.html") from None
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


# --- result codes ---------------------------------------------------------------------------------
@dataclass
class Result:
    """A verified result: the replayed class game of one student's decisions."""

    code: str
    match: Match
    choices: tuple  # (record index, chosen index, how many options) of each human decision
    number: int  # the student's number for the ranking, 0 = none
    humans: tuple
    label: str | None = None  # a name typed with the code on the board ("Lena: CODE")

    @property
    def scores(self) -> list:
        return list(self.match.state.scores())

    @property
    def points(self):
        """The points of the student's seat (the first human seat)."""
        return self.match.state.scores()[self.humans[0]]

    @property
    def path(self) -> tuple:
        return tuple(c for _, c, _ in self.choices)

    def name(self, lang: str) -> str:
        if self.label:
            return self.label
        if self.number:
            return f"Nr. {self.number}" if lang == "de" else f"No. {self.number}"
        return "–"


def _tag(class_code: str) -> int:
    """One character naming the class round inside a result code (a code of another round is told
    apart and refused with that reason)."""
    return blake2b(class_code.encode(), digest_size=1, person=b"spieltisch/ctag").digest()[0] % 32


# The result code is an arithmetic code of the decisions: each decision's options get weights, and
# the code is the shortest base-32 fraction inside the interval the choices narrow down to. Where a
# game has a quick exact bot, its choice gets three quarters of the weight (a student who mostly
# plays well writes a short code; Würfel Joker's "throw again?" costs 0.4 instead of 1 bit), every
# other option the same share of the rest. Without a model every option weighs the same: then the
# code is the mixed-radix number of the choices.
MODEL_BOTS = {"wuerfel-joker-1": "optimal", "wuerfel-joker-2": "optimal"}


class _Model:
    def __init__(self, game):
        self.bot = None
        name = MODEL_BOTS.get(game.id)
        if name is not None:
            from ..core.registry import make_bot

            self.bot = make_bot(game, name)

    def weights(self, state, legal) -> list[int]:
        n = len(legal)
        weights = [1] * n
        if self.bot is not None:
            from ..core.rng import Rng

            choice = self.bot.act(state.observation(state.current_player()), legal, Rng(0))
            for i, a in enumerate(legal):
                if a is choice or (type(a) is type(choice) and a == choice):
                    weights[i] = 3 * (n - 1)
                    break
        return weights


class _Encoder:
    """An exact arithmetic coder: the interval [L/D, (L+W)/D) in integers."""

    def __init__(self):
        self.low, self.width, self.den = 0, 1, 1

    def put(self, index: int, weights) -> None:
        total = sum(weights)
        self.low = self.low * total + self.width * sum(weights[:index])
        self.width *= weights[index]
        self.den *= total

    def chars(self) -> str:
        k = 1
        while True:
            scale = 32 ** k
            m = -((-self.low * scale) // self.den)  # the least k-digit fraction at or above the interval's start
            if m * self.den < (self.low + self.width) * scale:
                return _to_chars(m).rjust(k, "0")
            k += 1


class _Decoder(_Encoder):
    def __init__(self, chars: str):
        super().__init__()
        self.m, self.scale = _from_chars(chars), 32 ** len(chars)

    def take(self, weights) -> int:
        total = sum(weights)
        rest = (self.m * self.den - self.low * self.scale) * total // (self.width * self.scale)
        cum = 0
        for index, w in enumerate(weights):
            if rest < cum + w:
                self.put(index, weights)
                return index
            cum += w
        raise _garbled("it lies outside every game", "er liegt außerhalb jedes Spiels")


def _result_chars(round_: ClassRound, choices, number: int) -> str:
    """``choices``: (index, weights) of each decision, in order."""
    coder = _Encoder()
    coder.put(FORMAT, (1, 1))
    for index, weights in choices:
        coder.put(index, weights)
    coder.put(number, (1,) * (MAX_NUMBER + 1))
    body = coder.chars() + ALPHABET[_tag(round_.code)]
    symbols = _symbols(round_.code + body)
    return body + ALPHABET[_check(symbols, 1)] + ALPHABET[_check(symbols, 2)]


def _check_number(number) -> int:
    if number is None:
        return 0
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER:
        raise CodeError(f"a student's number is 1 to {MAX_NUMBER}, not {short(number)}",
                        f"die Nummer ist 1 bis {MAX_NUMBER}, nicht {short(number)}")
    return number


def result_code(round_: ClassRound, match: Match, number: int | None = None, verify: bool = True) -> str:
    """The result code of a finished class game ``match`` (a table's, or a saved record's).
    ``verify``: replay the code as the board will and compare it with ``match`` move by move, so a
    record whose bots or throws are not the class game's is refused here, naming the first move that
    differs (a table's own match needs no such check)."""
    number = _check_number(number)
    game = match.game
    if (game.id, game.num_players, dict(game.options), match.seed, match.secret) != (
            round_.game_id, round_.players, dict(round_.options), round_.seed, round_.secret):
        raise CodeError("this game is not the class round's (another game, player count, option or seed)",
                        "dieses Spiel ist nicht das der Klassenrunde (anderes Spiel, andere Spielerzahl, Regel oder "
                        "anderer Startwert)")
    if not match.is_terminal():
        raise CodeError("the game is not finished: a result code is made at the end",
                        "das Spiel ist noch nicht zu Ende: den Ergebniscode gibt es am Schluss")
    game = round_.game()
    model = _Model(game)
    state = game.new_initial_state()
    choices = []
    humans = set(round_.humans)
    for action, mover in zip(match.actions, match.movers):
        if mover in humans:
            legal = state.legal_actions()
            if len(legal) > 1:
                key = record_key(action.to_json())
                index = next(i for i, a in enumerate(legal) if record_key(a.to_json()) == key)
                choices.append((index, model.weights(state, legal)))
        state.apply_action(action)
    code = _result_chars(round_, choices, number)
    if verify:
        try:
            replayed = verify_result(round_, code).match
        except CodeError:
            # the code does not replay (a record with chosen throws or another bot's moves can make
            # choices the class game never offers): name the record's first action the class game
            # would not make, as below
            replayed = _class_replay(round_, match)
        mine, theirs = match.record_actions(), replayed.record_actions()
        if mine != theirs:
            i = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
            raise CodeError(f"this record is not a game of the class round: its action {i} "
                            f"({short(mine[i] if i < len(mine) else None)}) is not what the class game's bots or "
                            f"throws do there ({short(theirs[i] if i < len(theirs) else None)})",
                            f"diese Aufzeichnung ist kein Spiel der Klassenrunde: ihre Aktion {i} passt nicht zu den "
                            "Bots oder Würfen des Klassenspiels")
    return code


def _class_replay(round_: ClassRound, match: Match) -> Match:
    """The class game with ``match``'s human moves, as far as they are legal there: bots and chance
    as the class game makes them. It stops at the first human move the class game does not offer."""
    session = round_.session()
    mine = match.record_actions()
    humans = set(round_.humans)
    for _ in range(MAX_STEPS):
        if session.is_over():
            break
        i = len(session.match.actions)
        if session.waiting_for_human():
            if i >= len(mine) or match.movers[i] not in humans:
                break
            key = record_key(mine[i])
            legal = [a for a in session.legal_actions() if record_key(a.to_json()) == key]
            if not legal:
                break
            session.act(legal[0])
        else:
            session.step()
    return session.match


def resume_table(table, actions) -> int:
    """A class table brought back to where a kept game stood (a reload, a second tab: the page keeps
    its class game's record actions on the device). The kept actions are replayed as the table plays
    them — a human's move as a move, a bot's move or a throw as the table's own step, which makes the
    same one — and the replay stops at the first kept action the class game does not make there (a
    changed or foreign storage). Returns how many kept actions stand."""
    if not isinstance(actions, list):
        return 0
    session = table.session
    done = len(session.match.actions)  # the set-up's chance events, which a new table has run
    if session.match.record_actions() != actions[:done]:
        return 0
    for _ in range(MAX_STEPS):
        if done >= len(actions) or session.is_over():
            break
        if session.waiting_for_human():
            key = record_key(actions[done])
            legal = [a for a in session.legal_actions() if record_key(a.to_json()) == key]
            if not legal:
                break
            table.act(legal[0])
        elif not table.step():
            break
        mine = session.match.record_actions()
        if mine[:min(len(mine), len(actions))] != actions[:len(mine)]:
            raise CodeError("the kept class game does not replay", "das gespeicherte Klassenspiel lässt sich nicht "
                            "wiederholen")
        done = len(mine)
    return min(done, len(actions))


def verify_result(round_: ClassRound, text) -> Result:
    """Replay a result code in the class game; a garbled, forged or foreign code is refused
    (``CodeError``) with the reason, and nothing else happens."""
    code = normalize(text, "result code")
    if len(code) < 4:
        raise CodeError("a result code is longer than that", "ein Ergebniscode ist länger")
    symbols = _symbols(round_.code + code[:-2])
    if _VALUE[code[-3]] != _tag(round_.code):
        raise CodeError(f"this result code belongs to another class round (or is mistyped): "
                        f"this board's class code is {grouped(round_.code)}",
                        f"dieser Ergebniscode gehört zu einer anderen Klassenrunde (oder ist vertippt): "
                        f"der Klassencode hier ist {grouped(round_.code)}")
    if (_check(symbols, 1), _check(symbols, 2)) != (_VALUE[code[-2]], _VALUE[code[-1]]):
        raise CodeError("the result code's check characters do not match: a character is mistyped or missing",
                        "die Prüfzeichen des Ergebniscodes stimmen nicht: ein Zeichen ist vertippt oder fehlt")
    coder = _Decoder(code[:-3])
    if coder.take((1, 1)) != FORMAT:
        raise _garbled("unknown layout", "unbekannter Aufbau")
    session = round_.session()
    model = _Model(session.game)
    choices, steps = [], []
    for _ in range(MAX_STEPS):
        if session.is_over():
            break
        if session.waiting_for_human():
            legal = session.legal_actions()
            index = 0
            if len(legal) > 1:
                weights = model.weights(session.state, legal)
                index = coder.take(weights)
                choices.append((len(session.match.actions), index, len(legal)))
                steps.append((index, weights))
            session.act(legal[index])
        else:
            session.step()
    else:
        raise _garbled("its game does not end", "sein Spiel endet nicht")
    number = coder.take((1,) * (MAX_NUMBER + 1))
    if _result_chars(round_, steps, number) != code:
        raise _garbled("it holds more than its game, or is not written the way spieltisch writes it",
                       "er enthält mehr als sein Spiel oder ist nicht so geschrieben, wie Spieltisch ihn schreibt")
    return Result(code, session.match, tuple(choices), number, round_.humans)


def _line_entries(line: str) -> list[tuple[str | None, str]]:
    """One line's ``(name, code)`` pairs. A code holds no comma or colon, a name may hold both: so the
    last colon before a code ends its name ("Müller, Anna: 7KQ2-…"), and a comma after a code starts
    the next entry ("Lena: 7KQ2, Tim: 9XYZ"); a line without a colon is codes separated by commas."""
    if ":" not in line:
        return [(None, c) for c in line.split(",")]
    segments = line.split(":")
    out, name = [], segments[0]
    for seg in segments[1:-1]:
        code, comma, rest = seg.partition(",")
        if not comma:  # no comma: this colon belonged to the name ("Klasse 8b: Lena: 7KQ2")
            name = f"{name}:{seg}"
            continue
        out.append((name, code))
        name = rest
    last = segments[-1].split(",")
    out.append((name, last[0]))
    out.extend((None, c) for c in last[1:])
    return out


def split_entries(text) -> list[tuple[str | None, str]]:
    """The codes of a paste: one per line (or separated by semicolons, or by commas after a code),
    each optionally after a name and a colon ("Lena: 7KQ2-…", "Müller, Anna: 7KQ2-…"); spaces,
    hyphens and dashes inside a code are ignored."""
    if not isinstance(text, str):
        raise CodeError("codes are text", "Codes sind Text")
    out = []
    for line in text.replace(";", "\n").splitlines():
        for label, code in _line_entries(line):
            if not code.strip():
                continue
            label = " ".join(label.split())[:MAX_LABEL_CHARS] or None if label is not None else None
            out.append((label, code.strip()))
    if len(out) > MAX_ENTRIES:
        raise CodeError(f"at most {MAX_ENTRIES} codes at once, got {len(out)}",
                        f"höchstens {MAX_ENTRIES} Codes auf einmal, nicht {len(out)}")
    return out


# --- the class board --------------------------------------------------------------------------------
def _value_json(value) -> dict | None:
    return None if value is None else value_json(value)


NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000)
MAX_BINS = 12


def histogram(points, marks=()) -> dict:
    """Bins of a round width (at most ``MAX_BINS``) over the points and the reference values."""
    values = [float(p) for p in points] + [float(m) for m in marks]
    if not values:
        return {"width": 1, "bins": []}
    lo, hi = math.floor(min(values)), math.floor(max(values))
    width = next((w for w in NICE_WIDTHS if (hi // w - lo // w) + 1 <= MAX_BINS), NICE_WIDTHS[-1])
    start = lo // width * width
    bins = [{"lo": start + i * width, "hi": start + (i + 1) * width, "count": 0}
            for i in range(hi // width - lo // width + 1)]
    for p in points:
        bins[int((math.floor(p) - start) // width)]["count"] += 1
    return {"width": width, "bins": bins}


RANKING_NOTE = {
    "de": "Die Rangliste zählt Entscheidungen, nicht Glück: wie viele Punkte eure Entscheidungen im Mittel "
          "gegenüber dem besten Spiel verschenkt haben (weniger ist besser). Gute Entscheidungen und Glück "
          "beim Würfeln sind zweierlei – die Punkte zeigt die zweite Ansicht.",
    "en": "The ranking counts decisions, not luck: how many points your decisions gave away on average "
          "against best play (fewer is better). Good decisions and lucky throws are different things – "
          "the points are the second view.",
}


class Board:
    """The class board's model: verified results of one class round and what they show together.

    ``add(text)`` verifies each code of a paste by replaying it; a refused code changes nothing.
    ``to_json()``/``from_json()`` keep only the codes and names (a stored board is verified again
    when it is loaded, so a changed storage cannot bring in points no game made)."""

    def __init__(self, class_code):
        self.round = parse_class(class_code)
        self.results: list[Result] = []
        self._best = None
        self._bots = None
        self._advice: dict = {}
        self._loss: dict = {}  # result code -> the expected points its decisions gave away

    # --- filling ---
    def add(self, text, same_decisions_once: bool = True) -> dict:
        """``{"added": [{"code", "points", "name"}], "refused": [{"input", "reason": {de, en}}]}``.
        A code whose decisions equal a result's on the board is the same game under another number
        or name and counts once (``same_decisions_once``); a live class, whose server saw each
        student play their own game, passes False."""
        added, refused = [], []
        try:
            entries = split_entries(text)
        except CodeError as e:
            return {"added": [], "refused": [{"input": short(text, 40, str), "reason": e.text}]}
        for label, raw in entries:
            try:
                code = normalize(raw, "result code")
                if any(r.code == code for r in self.results):
                    raise CodeError("this result code is on the board already", "dieser Ergebniscode ist schon da")
                result = verify_result(self.round, code)
                twin = next((r for r in self.results if r.path == result.path), None) if same_decisions_once else None
                if twin is not None:
                    # the same decisions under another number or name: the same game, counted once
                    raise CodeError(f"the same game as {twin.name('en')}'s (the same decisions): counted once",
                                    f"dasselbe Spiel wie das von {twin.name('de')} (dieselben Entscheidungen): "
                                    f"zählt nur einmal")
            except CodeError as e:
                refused.append({"input": short(raw, 40, str), "reason": e.text})
                continue
            result.label = label
            self.results.append(result)
            added.append({"code": code, "points": result.points, "label": label})
        return {"added": added, "refused": refused}

    def remove(self, code) -> None:
        code = normalize(code, "result code")
        self.results = [r for r in self.results if r.code != code]

    def to_json(self) -> dict:
        return {"format": FORMAT, "class": self.round.code,
                "results": [{"code": r.code, "label": r.label} for r in self.results]}

    @classmethod
    def from_json(cls, data) -> "Board":
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("results"), list):
            raise CodeError("not a stored class board", "keine gespeicherte Klassen-Auswertung")
        board = cls(data.get("class"))
        for item in data["results"][:MAX_ENTRIES]:
            if isinstance(item, dict) and isinstance(item.get("code"), str):
                label = item.get("label")
                board.add(f"{label}: {item['code']}" if isinstance(label, str) and label else item["code"])
        return board

    # --- what the board shows ---
    def best_expected(self):
        """The exact expected points of best play for the student's seat, where the game's analysis
        has it (Würfel Joker: ``optimal_expected_total``), else None."""
        if self._best is None:
            game = self.round.game()
            value = None
            if game.analyzer is not None and self.round.cls.id.startswith("wuerfel-joker"):
                # only Würfel Joker's analysis solves the whole game; the others' analyses are other facts
                found = game.analyze().get("optimal_expected_total")
                if isinstance(found, dict) and "fraction" in found:
                    value = Fraction(found["fraction"])
            self._best = [value]
        return self._best[0]

    def bot_points(self) -> list[dict]:
        """Each bot's points in this very class game, playing the student's seat(s) in their place."""
        if self._bots is None:
            out = []
            for name in bot_names(self.round.game_id):
                seats = tuple(name if s == HUMAN else s for s in self.round.seats)
                r = ClassRound(self.round.game_id, self.round.players, seats, self.round.options,
                               self.round.seed, self.round.advisor)
                session = PlaySession(r.game(), None, None, r.seed, bots=r.bots, secret=self.round.secret)
                session.run_until_human(MAX_STEPS)
                out.append({"bot": name, "points": session.match.state.scores()[self.round.humans[0]]})
            self._bots = out
        return self._bots

    def expected_loss(self, result: Result) -> dict:
        """The expected points the student's decisions gave away against best play: each decision of
        the student's seat valued by the game's advisor (``core.advice.review`` with the view's review
        settings), the losses added up. Exact where the advisor is exact (Würfel Joker's solvers, the
        per-turn solvers); otherwise the sum of the advisor's estimates with a 95 % interval (the
        decisions' half-widths combined as independent errors). Luck plays no part in it: a game
        played with the throws known scores high and still gives away what its decisions give away.
        ``{"method": "exact", "fraction", "float", "decisions"}`` or ``{"method": "estimate", "float",
        "ci95": [lo, hi], "decisions"}``."""
        if result.code not in self._loss:
            from ..core.advice import review

            game = result.match.game
            rv = review(result.match, players=list(result.humans), **load_view(type(game)).review_settings(game))
            decisions = rv.decisions
            if all(d.exact for d in decisions):
                total = sum((Fraction(d.loss) for d in decisions), Fraction(0))
                out = {"method": "exact", **value_json(total)}
            else:
                mean = sum(float(d.loss) for d in decisions)
                var = 0.0
                for d in decisions:
                    if d.exact or d.chosen.best:
                        continue  # no loss, or an exact one: nothing uncertain
                    for o in (d.best, d.chosen):
                        var += ((o.value.hi - o.value.lo) / 2) ** 2
                half = math.sqrt(var)
                out = {"method": "estimate", "float": mean, "ci95": [max(0.0, mean - half), mean + half]}
            out["decisions"] = len(decisions)
            self._loss[result.code] = out
        return self._loss[result.code]

    def ranking(self, lang: str, by: str = "decisions") -> list[dict]:
        """The results ranked by decisions (the expected points they gave away, fewest first; points
        break a tie) or by ``by="points"``; each entry with its expected loss."""
        if by not in ("decisions", "points"):
            raise CodeError(f"a ranking is by decisions or by points, not {short(by)}",
                            f"eine Rangliste geht nach Entscheidungen oder nach Punkten, nicht {short(by)}")
        if by == "points":
            def key(r):
                return (-r.points,)
        else:
            def key(r):
                return (round(self.expected_loss(r)["float"], 9), -r.points)
        ordered = sorted(self.results, key=key)
        out, rank = [], 0
        for i, r in enumerate(ordered):
            if i == 0 or key(r) != key(ordered[i - 1]):
                rank = i + 1
            # by points the expected loss is shown where it is known already (it takes the advisor)
            loss = self.expected_loss(r) if by == "decisions" else self._loss.get(r.code)
            out.append({"rank": rank, "name": r.name(lang), "points": r.points, "code": r.code, "shown": grouped(r.code),
                        "expected_loss": loss})
        return out

    def decisions(self, lang: str) -> list[dict]:
        """Where the class lost points: among the decisions at least half of the results reached
        (at least two), those that cost the class the most, with how many chose each option, the
        best option and each option's loss (the advisor's values, as the review computes them)."""
        n = len(self.results)
        if n < 2:
            return []
        reached: dict[tuple, list] = {}  # path before the decision -> [(result, choice)]
        for r in self.results:
            for depth, (at, choice, _) in enumerate(r.choices):
                reached.setdefault(r.path[:depth], []).append((r, choice))
        enough = max(2, math.ceil(n / 2))
        candidates = sorted((p for p, who in reached.items() if len(who) >= enough), key=len)[:CANDIDATE_DECISIONS]
        out = []
        for path in candidates:
            who = reached[path]
            first = who[0][0]
            at = first.choices[len(path)][0]
            advice, situation, rnd = self._advise(first.match, at, path)
            counts: dict[int, int] = {}
            for _, choice in who:
                counts[choice] = counts.get(choice, 0) + 1
            legal = _state_at(first.match, at).legal_actions()
            best = advice.options[0]
            options, class_loss = [], Fraction(0) if advice.exact else 0.0
            for index, action in enumerate(legal):
                opt = advice.option_for(action)
                # what the choice lost, as core.advice.review values the chosen option
                if opt.best:
                    loss = Fraction(0) if advice.exact else 0.0
                elif advice.exact:
                    loss = best.value - opt.value
                else:
                    loss = best.value.mean - opt.value.mean
                count = counts.get(index, 0)
                class_loss += count * loss
                if count or opt.best:
                    options.append({"label": opt.label[lang], "count": count, "best": opt.best,
                                    "loss": _value_json(loss) if advice.exact else {"float": float(loss)}})
            options.sort(key=lambda o: (not o["best"], -o["count"]))
            out.append({"at": at, "round": rnd, "reached": len(who), "situation": situation[lang],
                        "exact": advice.exact, "options": options,
                        "class_loss": _value_json(class_loss) if advice.exact else {"float": float(class_loss)}})
        out.sort(key=lambda d: -d["class_loss"]["float"])
        return out[:SHOWN_DECISIONS]

    def _advise(self, match: Match, at: int, path: tuple):
        key = path
        if key not in self._advice:
            from ..core.advice import review

            game = match.game
            rv = review(match, start=at, limit=1, **load_view(type(game)).review_settings(game))
            decision = rv.decisions[0]
            chance = [a for a, m in zip(match.actions[:at], match.movers[:at]) if m == CHANCE]
            situation = {}
            for lang in ("de", "en"):
                parts = []
                if decision.round is not None:
                    parts.append(f"{'Runde' if lang == 'de' else 'round'} {decision.round}")
                parts.append(f"{'Entscheidung' if lang == 'de' else 'decision'} {len(path) + 1}")
                if chance:
                    parts.append(("nach: " if lang == "de" else "after: ") + action_label(chance[-1], lang))
                situation[lang] = " · ".join(parts)
            self._advice[key] = (decision.advice, situation, decision.round)
        return self._advice[key]

    def summary(self, lang: str = "de", bots: bool = True, decisions: bool = True, losses: bool = True) -> dict:
        """Everything the board shows, JSON-ready: the results, mean, histogram with the exact
        expected value of best play and the bots' points as marks, the ranking, the decisions.
        ``losses=False`` leaves out what needs the advisor per result (the expected loss, so the
        ranking is by points until the board asks for the full summary)."""
        points = [r.points for r in self.results]
        mean = Fraction(sum(points), len(points)) if points else None
        best = self.best_expected()
        bot_list = self.bot_points() if bots else []
        bots_mean = Fraction(sum(b["points"] for b in bot_list), len(bot_list)) if bot_list else None
        marks = [m for m in (best, bots_mean) if m is not None]
        view = load_view(self.round.cls)
        names = {**BOT_WORDS, **view.bot_names}
        return {
            "class": self.round.describe(lang),
            "results": [{"code": r.code, "shown": grouped(r.code), "name": r.name(lang), "number": r.number,
                         "points": r.points, "scores": r.scores, "valid": True,
                         "expected_loss": self.expected_loss(r) if losses else None} for r in self.results],
            "count": len(points),
            "mean": _value_json(mean),
            "best_expected": _value_json(best),
            "bots": [{**b, "name": names.get(b["bot"], {"de": b["bot"], "en": b["bot"]})[lang]} for b in bot_list],
            "bots_mean": _value_json(bots_mean),
            "histogram": histogram(points, marks),
            "ranking": self.ranking(lang, "decisions" if losses else "points"),
            "ranking_by": "decisions" if losses else "points",
            "ranking_points": self.ranking(lang, "points"),
            "ranking_note": RANKING_NOTE[lang],
            "decisions": self.decisions(lang) if decisions else [],
        }

    def csv(self, lang: str = "de") -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        players = self.round.players
        head = ["rank", "name", "number", "points", "code"] + [f"seat_{p + 1}" for p in range(players)]
        w.writerow(head)
        by_code = {r.code: r for r in self.results}
        for row in self.ranking(lang):
            r = by_code[row["code"]]
            w.writerow([row["rank"], r.label or "", r.number or "", r.points, grouped(r.code), *r.scores])
        return buf.getvalue()


def _state_at(match: Match, at: int):
    state = match.game.new_initial_state()
    for action in match.actions[:at]:
        state.apply_action(action)
    return state


# --- the class's predictions (a quick poll on the board) ------------------------------------------
# The lessons' questions, each declared once in its game's package (core.questions) and read here
# through the registry: the teacher taps the counts the class calls out (an option, or a range of the
# answer), then reveals the class's distribution, the exact value (or the estimate, labelled as one)
# and a seeded simulation.
def predictions(lang: str = "de", core: bool | None = True) -> list[dict]:
    """The poll's questions (the lessons' core questions by default) of the games registered here,
    each with the labels of its options or ranges in ``lang``; no answer."""
    from ..core.questions import QuestionError, check_lang
    from ..core.registry import questions

    try:
        check_lang(lang)
    except QuestionError as e:
        raise CodeError(e.text["en"], e.text["de"]) from None
    return [q.summary(lang) for q in questions(core=core)]


def reveal(prediction_id: str, counts, lang: str = "de") -> dict:
    """The class's answers (``counts`` per option or range) as a distribution, the exact value (or the
    estimate, labelled) with the right options, and the question's seeded simulation."""
    from ..core.questions import QuestionError
    from ..core.registry import question

    try:
        return question(prediction_id).reveal(counts, lang)
    except QuestionError as e:
        raise CodeError(e.text["en"], e.text["de"]) from None
