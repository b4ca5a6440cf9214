"""Schraube Locker (Christian Stöhr & Daniela Lächner, Amigo): a pawn race round a circle of six
card stacks, driven by six dice placed on the face-up cards.

Rules as implemented: ``docs/rules/schraube-locker.md``. The 42 point cards are a reconstruction
(``deck.json``, ``"provenance": "reconstruction"``); the six bonus cards are worth 6 each.

Stacks are numbered 0–5 clockwise. A pawn stands beside stack ``p``; the cards it looks at are
those of stacks ``p+1, p+2, …, p+6`` (mod 6), the sixth being its own stack's card.

Hidden information: the face-down cards of the stacks (nobody sees them) and the secured cards
(face down: their owner knows them, the others see only how many there are). The face-down
stacks are not kept in an order: drawing the next card of a well-shuffled stack is the same law as
drawing uniformly from every face-down card still in the circle, so one ``Deck`` of the face-down
cards and the number of cards left per stack describe the table exactly (``core.chance``).

A turn: a roll (chance) -> the card phase (*Wurf wiederholen*, *Würfel drehen*, only if the player
holds such a card) -> the MUST chain is placed automatically -> CAN placements, roll again or stop
-> the pawn moves -> swap/gift with pawns at the same stack -> the card is taken (the next card of
the stack is revealed, chance) -> combinations may be secured -> next player.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from itertools import combinations, product
from math import factorial
from typing import ClassVar

from ...core.chance import Deck
from ...core.errors import IllegalActionError, SpieltischError, short
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.options import OptionSpec

STACKS = 6
DICE = 6
MAX_ROLLS = 3

# --- the cards (data) ----------------------------------------------------------------------------

FUNCTIONS = {
    "schraube": {"de": "Schraube", "en": "screw"},
    "doppel_schraube": {"de": "Doppel-Schraube", "en": "double screw"},
    "mutter": {"de": "Mutter", "en": "nut"},
    "doppel_mutter": {"de": "Doppel-Mutter", "en": "double nut"},
    "wurf_wiederholen": {"de": "Wurf wiederholen", "en": "re-roll"},
    "wuerfel_drehen": {"de": "Würfel drehen", "en": "turn a die"},
    "karten_tauschen": {"de": "Karten tauschen", "en": "swap cards"},
    "karte_verschenken": {"de": "Karte verschenken", "en": "gift a card"},
}
# screws and nuts a card counts for in a combination
SCREWS = {"schraube": 1, "doppel_schraube": 2}
NUTS = {"mutter": 1, "doppel_mutter": 2}
REROLL, TURN, SWAP, GIFT = "wurf_wiederholen", "wuerfel_drehen", "karten_tauschen", "karte_verschenken"


class DeckData:
    """The point cards, bonus cards and stack sizes, checked on load (``deck.json``)."""

    def __init__(self, data, source: str = "deck.json"):
        def bad(field, msg):
            raise SpieltischError(f"{source}: field {field!r}: {msg}")

        if not isinstance(data, dict):
            bad("(top)", "the file must hold a JSON object")
        if data.get("provenance") not in ("reconstruction", "rulebook"):
            bad("provenance", f"must be 'reconstruction' or 'rulebook', got {short(data.get('provenance'))}")
        if not isinstance(data.get("note"), str) or not data["note"].strip():
            bad("note", "must say where the content comes from")
        self.provenance, self.note = data["provenance"], data["note"]
        stacks, size = data.get("stacks"), data.get("stack_size")
        if stacks != STACKS:
            bad("stacks", f"the circle has {STACKS} stacks, got {short(stacks)}")
        if type(size) is not int or not 1 <= size <= 20:
            bad("stack_size", f"must be a whole number 1-20, got {short(size)}")
        self.stack_size = size
        bonus = data.get("bonus")
        if not isinstance(bonus, dict) or type(bonus.get("count")) is not int or bonus["count"] < 1 \
                or type(bonus.get("points")) is not int:
            bad("bonus", "must be {\"count\": n >= 1, \"points\": whole number}")
        self.bonus_count, self.bonus_points = bonus["count"], bonus["points"]
        cp = data.get("combination_points")
        if type(cp) is not int:
            bad("combination_points", f"must be a whole number, got {short(cp)}")
        self.combination_points = cp
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) != stacks * size:
            bad("cards", f"must list {stacks} × {size} = {stacks * size} cards")
        self.function, self.points, self.die = [], [], []
        for i, c in enumerate(cards):
            where = f"cards[{i}]"
            if not isinstance(c, dict) or c.get("id") != i:
                bad(where, f"must be an object with \"id\": {i}")
            if c.get("function") not in FUNCTIONS:
                bad(where + ".function", f"unknown function {short(c.get('function'))}; known: {', '.join(FUNCTIONS)}")
            if type(c.get("points")) is not int:
                bad(where + ".points", f"must be a whole number, got {short(c.get('points'))}")
            if type(c.get("die")) is not int or not 1 <= c["die"] <= 6:
                bad(where + ".die", f"must be a die number 1-6, got {short(c.get('die'))}")
            self.function.append(c["function"])
            self.points.append(c["points"])
            self.die.append(c["die"])
        self.size = len(cards)
        self.screws = [SCREWS.get(f, 0) for f in self.function]
        self.nuts = [NUTS.get(f, 0) for f in self.function]

    def card_json(self, c: int) -> dict:
        return {"id": c, "function": self.function[c], "points": self.points[c], "die": self.die[c]}

    def name(self, c, lang: str = "en") -> str:
        if type(c) is not int or not 0 <= c < self.size:
            return short(c)
        f = FUNCTIONS[self.function[c]]["de" if lang == "de" else "en"]
        if lang == "de":
            return f"{f} ({self.points[c]} P., Würfel {self.die[c]})"
        return f"{f} ({self.points[c]} pts, die {self.die[c]})"


def load_deck(name: str = "deck.json") -> DeckData:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise SpieltischError(f"{name}: not valid JSON ({e})") from None
    return DeckData(data, name)


CARDS = load_deck()


def is_combination(cards, deck: DeckData = CARDS) -> bool:
    """The rulebook's combinations: "1 Mutter mit 1 Schraube; 1 Doppel-Mutter mit 1 oder 2
    Schrauben (oder umgekehrt); 1 Doppel-Schraube mit 1 Doppel-Mutter"."""
    fs = sorted(deck.function[c] for c in cards)
    n = len(fs)
    if n == 2:
        return fs in (["mutter", "schraube"], ["doppel_mutter", "schraube"], ["doppel_schraube", "mutter"],
                      ["doppel_mutter", "doppel_schraube"])
    if n == 3:
        return fs in (["doppel_mutter", "schraube", "schraube"], ["doppel_schraube", "mutter", "mutter"])
    return False


def combinations_in(display, deck: DeckData = CARDS) -> list[tuple]:
    """Every combination (sorted tuple of card ids) that can be secured from ``display``."""
    sn = sorted(c for c in display if deck.screws[c] or deck.nuts[c])
    out = [t for k in (2, 3) for t in combinations(sn, k) if is_combination(t, deck)]
    return out


def open_combinations(display, deck: DeckData = CARDS) -> int:
    """How many disjoint combinations the face-up cards of ``display`` could make (D3, option
    ``combination_bonus=display``). Every screw card (Schraube, Doppel-Schraube) makes a combination
    with every nut card (Mutter, Doppel-Mutter), and a third card adds no bonus, so the most is the
    smaller of the two counts."""
    screws = sum(1 for c in display if deck.screws[c])
    nuts = sum(1 for c in display if deck.nuts[c])
    return min(screws, nuts)


# --- dice law ------------------------------------------------------------------------------------

def _multinomial(values) -> int:
    n = factorial(len(values))
    for m in Counter(values).values():
        n //= factorial(m)
    return n


# --- actions -------------------------------------------------------------------------------------

class Action:
    __slots__ = ()
    tag: ClassVar[str] = ""

    def __str__(self):
        return self.label("en")


def _stack(s, lang):
    return (f"Stapel {s + 1}" if lang == "de" else f"stack {s + 1}") if type(s) is int else short(s)


def _player(p, lang):
    return (f"Spieler {p + 1}" if lang == "de" else f"player {p + 1}") if type(p) is int else short(p)


@dataclass(frozen=True, slots=True)
class PawnAt(Action):
    """Set-up: ``player`` puts the pawn beside ``stack`` (a chance outcome with the seeded set-up,
    the player's choice with ``pawn_setup=choose``)."""

    player: int
    stack: int
    tag: ClassVar[str] = "pawn"

    def to_json(self):
        return ["pawn", self.player, self.stack]

    def label(self, lang="en"):
        if lang == "de":
            return f"{_player(self.player, lang)}: Figur an {_stack(self.stack, lang)}"
        return f"{_player(self.player, lang)}: pawn beside {_stack(self.stack, lang)}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Chance: the next card of ``stack`` is turned face up and is ``card``."""

    stack: int
    card: int
    tag: ClassVar[str] = "reveal"

    def to_json(self):
        return ["reveal", self.stack, self.card]

    def label(self, lang="en"):
        if lang == "de":
            return f"{_stack(self.stack, lang)} deckt auf: {CARDS.name(self.card, lang)}"
        return f"{_stack(self.stack, lang)} turns up {CARDS.name(self.card, lang)}"


@dataclass(frozen=True, slots=True)
class Dice(Action):
    """Chance: the dice just rolled, sorted (each multiset with its multinomial probability)."""

    values: tuple
    tag: ClassVar[str] = "dice"

    def to_json(self):
        return ["dice", *self.values]

    def label(self, lang="en"):
        v = " ".join(map(str, self.values))
        return f"Wurf: {v}" if lang == "de" else f"roll: {v}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll ``count`` of the dice not yet placed (all of them unless ``not_all_dice``)."""

    count: int
    tag: ClassVar[str] = "roll"

    def to_json(self):
        return ["roll", self.count]

    def label(self, lang="en"):
        if lang == "de":
            return f"{self.count} Würfel würfeln"
        return f"roll {self.count} {'die' if self.count == 1 else 'dice'}"


@dataclass(frozen=True, slots=True)
class UseReroll(Action):
    """*Wurf wiederholen*: put ``card`` in the box and re-roll the dice showing ``values``."""

    card: int
    values: tuple
    tag: ClassVar[str] = "reroll"

    def to_json(self):
        return ["reroll", self.card, *self.values]

    def label(self, lang="en"):
        v = " ".join(map(str, self.values))
        name = FUNCTIONS[REROLL]["de" if lang == "de" else "en"]
        return f"{name}: {v} neu würfeln" if lang == "de" else f"{name}: roll {v} again"


@dataclass(frozen=True, slots=True)
class UseTurn(Action):
    """*Würfel drehen*: put ``card`` in the box and turn a die showing ``frm`` to ``to``."""

    card: int
    frm: int
    to: int
    tag: ClassVar[str] = "turn"

    def to_json(self):
        return ["turn", self.card, self.frm, self.to]

    def label(self, lang="en"):
        return f"{FUNCTIONS[TURN]['de' if lang == 'de' else 'en']}: {self.frm} → {self.to}"


@dataclass(frozen=True, slots=True)
class Proceed(Action):
    """End the card phase of this roll: the MUST dice are placed."""

    tag: ClassVar[str] = "proceed"

    def to_json(self):
        return ["proceed"]

    def label(self, lang="en"):
        return "Würfel einsetzen" if lang == "de" else "place the dice"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """CAN: put a die showing ``value`` on the face-up card of ``stack``."""

    value: int
    stack: int
    tag: ClassVar[str] = "place"

    def to_json(self):
        return ["place", self.value, self.stack]

    def label(self, lang="en"):
        if lang == "de":
            return f"{self.value} auf {_stack(self.stack, lang)} legen"
        return f"put {self.value} on {_stack(self.stack, lang)}"


@dataclass(frozen=True, slots=True)
class PlacePair(Action):
    """Profi variant *Würfel zusammenziehen*: dice ``a`` and ``b`` together on ``stack``."""

    a: int
    b: int
    stack: int
    tag: ClassVar[str] = "pair"

    def to_json(self):
        return ["pair", self.a, self.b, self.stack]

    def label(self, lang="en"):
        if lang == "de":
            return f"{self.a}+{self.b} zusammen auf {_stack(self.stack, lang)} legen"
        return f"put {self.a}+{self.b} together on {_stack(self.stack, lang)}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Stop rolling: the pawn moves."""

    tag: ClassVar[str] = "stop"

    def to_json(self):
        return ["stop"]

    def label(self, lang="en"):
        return "aufhören und ziehen" if lang == "de" else "stop and move"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """*Karten tauschen*: give own ``give`` card to ``target``, take ``take`` from their display."""

    target: int
    give: int
    take: int
    tag: ClassVar[str] = "swap"

    def to_json(self):
        return ["swap", self.target, self.give, self.take]

    def label(self, lang="en"):
        if lang == "de":
            return f"mit {_player(self.target, lang)} tauschen: nimm {CARDS.name(self.take, lang)}"
        return f"swap with {_player(self.target, lang)}: take {CARDS.name(self.take, lang)}"


@dataclass(frozen=True, slots=True)
class Gift(Action):
    """*Karte verschenken*: ``target`` must put own ``give`` card into their display."""

    target: int
    give: int
    tag: ClassVar[str] = "gift"

    def to_json(self):
        return ["gift", self.target, self.give]

    def label(self, lang="en"):
        if lang == "de":
            return f"{_player(self.target, lang)} eine Karte schenken ({CARDS.name(self.give, lang)})"
        return f"gift {_player(self.target, lang)} a card ({CARDS.name(self.give, lang)})"


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """End swapping and gifting: take the face-up card of the pawn's stack."""

    tag: ClassVar[str] = "take"

    def to_json(self):
        return ["take"]

    def label(self, lang="en"):
        return "Karte nehmen" if lang == "de" else "take the card"


@dataclass(frozen=True, slots=True)
class Secure(Action):
    """Turn the combination ``cards`` (sorted ids) face down."""

    cards: tuple
    tag: ClassVar[str] = "secure"

    def to_json(self):
        return ["secure", *self.cards]

    def label(self, lang="en"):
        names = " + ".join(CARDS.name(c, lang) for c in self.cards)
        return f"sichern: {names}" if lang == "de" else f"secure: {names}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn: the dice go to the left."""

    tag: ClassVar[str] = "end"

    def to_json(self):
        return ["end"]

    def label(self, lang="en"):
        return "Zug beenden" if lang == "de" else "end the turn"


PROCEED, STOP, TAKE, END = Proceed(), Stop(), TakeCard(), EndTurn()
ROLLS = {k: Roll(k) for k in range(1, DICE + 1)}


def _dice_outcomes(k: int) -> tuple:
    outs = {}
    for t in product(range(1, 7), repeat=k):
        key = tuple(sorted(t))
        outs[key] = outs.get(key, 0) + 1
    total = 6 ** k
    return tuple((Dice(key), Fraction(n, total)) for key, n in sorted(outs.items()))


DICE_OUTCOMES = {k: _dice_outcomes(k) for k in range(1, DICE + 1)}
DICE_BY_VALUES = {d.values: d for k in DICE_OUTCOMES for d, _ in DICE_OUTCOMES[k]}

# Phases (strings: they appear in observations).
SETUP = "setup"  # pawns are placed (chance or choice), then the six top cards are revealed
START = "start"  # not_all_dice: choose how many dice the first roll uses
CARDS_PHASE = "cards"  # after a roll, before placing: Wurf wiederholen / Würfel drehen
PLACE = "place"  # the MUST dice lie; CAN placements, roll again or stop
EXCHANGE = "exchange"  # swap and/or gift with pawns at the same stack
SECURE = "secure"  # after the card is taken: secure combinations
OVER = "over"


# --- the game ------------------------------------------------------------------------------------

class SchraubeLocker(Game):
    id = "schraube-locker"
    # 2: the players choose where their pawns start (pawn_setup=choose is the default)
    version = 2
    name = {"de": "Schraube Locker", "en": "Schraube Locker (Loose Screw)"}
    summary = {
        "de": "Sechs Würfel auf die offenen Karten im Kreis legen, mit der Figur so weit ziehen, wie die "
              "Reihe reicht, die Karte nehmen; Schrauben und Muttern sichern, tauschen und verschenken.",
        "en": "Put six dice on the face-up cards of a circle, move your pawn as far as the row of dice "
              "reaches and take that card; secure screws with nuts, swap and gift cards.",
    }
    min_players = 2
    max_players = 4
    default_players = 4
    option_specs = (
        OptionSpec("not_all_dice", False,
                   "Profi variant 1 (Nicht alle Würfel): before each roll choose how many of the free dice to roll"),
        OptionSpec("combine_two", False,
                   "Profi variant 2 (Würfel zusammenziehen): two dice together may serve a card showing their sum"),
        OptionSpec("card_limit", "any",
                   "D1: after each roll use any number of own Wurf wiederholen / Würfel drehen cards, each once "
                   "(any), or at most one of each kind per roll (one_each)", choices=("any", "one_each")),
        OptionSpec("full_circle", "continue",
                   "D2: after 'einmal komplett rum' and its bonus card the turn goes on with swapping and "
                   "taking the card at the start stack (continue), or ends (bonus_only)",
                   choices=("continue", "bonus_only")),
        OptionSpec("stack_size", 7,
                   "cards per stack: 7 as in the rulebook; fewer for a short game (the other cards stay "
                   "face down in the box)", min=1, max=7, kind=int),
        OptionSpec("pawn_setup", "choose",
                   "where the pawns start: chosen by each player in seat order, beside any stack, before "
                   "the cards are turned up (choose), or drawn from the seed (seeded)",
                   choices=("choose", "seeded")),
        OptionSpec("combination_bonus", "secured",
                   "D3: the 3 bonus points per screw/nut combination go only to secured combinations "
                   "(secured), or at the end also to combinations still face up in the display (display)",
                   choices=("secured", "display")),
    )
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "not_all_dice": {"de": "Profi 1: nicht alle Würfel werfen", "en": "Pro 1: not all dice"},
        "combine_two": {"de": "Profi 2: zwei Würfel zusammenziehen", "en": "Pro 2: two dice together"},
        "card_limit": {"de": "Wurf-Karten je Wurf", "en": "roll cards per roll", "choices": {
            "any": {"de": "beliebig viele", "en": "any number"},
            "one_each": {"de": "höchstens eine je Art", "en": "at most one of each kind"},
        }},
        "full_circle": {"de": "nach „einmal komplett rum“", "en": "after a full circle", "choices": {
            "continue": {"de": "der Zug geht weiter", "en": "the turn goes on"},
            "bonus_only": {"de": "der Zug endet", "en": "the turn ends"},
        }},
        "stack_size": {"de": "Karten je Stapel", "en": "cards per stack"},
        "pawn_setup": {"de": "Startplatz der Figuren", "en": "where the pawns start", "choices": {
            "choose": {"de": "selbst wählen", "en": "chosen by the players"},
            "seeded": {"de": "ausgelost", "en": "drawn by lot"},
        }},
        "combination_bonus": {"de": "3 Bonuspunkte je Kombination", "en": "3 bonus points per combination", "choices": {
            "secured": {"de": "nur für gesicherte", "en": "secured ones only"},
            "display": {"de": "auch für offen ausliegende", "en": "also those face up in the display"},
        }},
    }
    class_code_number = 3  # (ui.classroom: given once, never changed)
    # short games (stacks of 2-3 cards): a random full game has several hundred actions, and the
    # generic checks run at every one of them; full-length games are played in the game's own tests
    test_configs = (
        (2, {"stack_size": 3}),
        (4, {"not_all_dice": True, "combine_two": True, "pawn_setup": "seeded", "stack_size": 2}),
        (3, {"card_limit": "one_each", "full_circle": "bonus_only", "combination_bonus": "display",
             "stack_size": 2}),
    )

    def __init__(self, num_players=None, options=None):
        super().__init__(num_players, options)
        self.deck = CARDS

    def render_observation(self, observation: dict, lang: str = "en") -> str:
        de = lang == "de"
        deck = self.deck
        lines = []
        pawns = observation["pawns"]
        on = observation["turn"]["on_card"]
        for s, st in enumerate(observation["stacks"]):
            top = st["top"]
            card = deck.name(top["id"], lang) if top else ("leer" if de else "empty")
            who = " ".join(f"[{'S' if de else 'P'}{p + 1}]" for p, ps in enumerate(pawns) if ps == s)
            dice = ("  🎲" + "+".join(map(str, on[s]))) if on[s] else ""
            lines.append(f"{_stack(s, lang)} ({st['left']}): {card}{dice} {who}".rstrip())
        lines.append(("Bonuskarten" if de else "bonus cards") + f": {observation['bonus_left']}")
        for p, pl in enumerate(observation["players"]):
            shown = ", ".join(deck.name(c["id"], lang) for c in pl["display"]) or "—"
            sec = pl["secured_count"]
            head = _player(p, lang) + (" (du)" if de and observation["player"] == p else
                                       " (you)" if observation["player"] == p else "")
            lines.append(f"{head}: {shown}; " + ("gesichert" if de else "secured") + f" {sec}, "
                         + ("Bonus" if de else "bonus") + f" {pl['bonus']}, "
                         + ("sichtbare Punkte" if de else "visible points") + f" {pl['visible_points']}")
        t = observation["turn"]
        if observation["terminal"]:
            lines.append(("Ende. Punkte: " if de else "Game over. Scores: ") + ", ".join(map(str, observation["scores"])))
        elif t["player"] is not None:
            roll = " ".join(map(str, t["roll"])) or "—"
            lines.append((f"{_player(t['player'], lang)} am Zug ({observation['phase']}), Wurf {t['rolls']}/3: {roll}, "
                          f"freie Würfel {t['dice_left']}") if de else
                         (f"{_player(t['player'], lang)} to move ({observation['phase']}), roll {t['rolls']}/3: {roll}, "
                          f"free dice {t['dice_left']}"))
        return "\n".join(lines)


class SchraubeLockerState(State):
    def __init__(self, game: SchraubeLocker):
        super().__init__(game)
        deck = game.deck
        n = self.num_players
        self.hidden = Deck((c, 1) for c in range(deck.size))  # face-down cards of the stacks
        # cards per stack, the face-up one included (the deck's size, or fewer for a short game)
        self.left = [min(deck.stack_size, self.options["stack_size"])] * STACKS
        self.top: list = [None] * STACKS
        self.bonus_left = deck.bonus_count
        self.pawns: list = [None] * n
        self.display = [[] for _ in range(n)]  # face-up cards, in the order they came
        self.secured = [[] for _ in range(n)]  # per player: secured combinations (tuples of ids)
        self.bonus = [0] * n
        self.box: list = []  # used Wurf wiederholen / Würfel drehen cards
        self.phase = SETUP
        self.pending = ("pawn",) if self.options["pawn_setup"] == "seeded" else None
        self.turn = 0  # the player whose turn it is (seat 0 starts: the youngest sits there)
        self._clear_turn()
        self._cache = None

    def _clear_turn(self):
        self.rolls = 0
        self.dice_left = DICE
        self.roll: tuple = ()  # values of the current roll not yet placed (sorted)
        self.on_card = [()] * STACKS  # dice on each stack's face-up card this turn
        self.used: tuple = ()  # functions of cards used since the current roll (D1)
        self.partners_done: tuple = ()
        self.exchange_cards: tuple = ()  # swap/gift cards held when step 3 began
        self.last_move = None  # how many cards the pawn moved in this turn (None before moving)
        self.pending_kept: tuple = ()  # the dice kept while a Wurf wiederholen re-rolls the others

    # --- protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending is not None:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        if self.phase == SETUP:
            return self.pawns.index(None)
        return self.turn

    def chance_player(self):
        if self.pending is not None and self.pending[0] in ("roll", "reroll"):
            return self.turn
        return None

    def chance_outcomes(self):
        kind = self.pending[0]
        if kind == "pawn":
            p = self.pawns.index(None)
            return [(PawnAt(p, s), Fraction(1, STACKS)) for s in range(STACKS)]
        if kind == "reveal":
            s = self.pending[1]
            return [(Reveal(s, c), q) for c, q in self.hidden.outcomes()]
        return list(DICE_OUTCOMES[self.pending[-1]])

    def sample_chance(self, rng):
        kind = self.pending[0]
        if kind == "pawn":
            return PawnAt(self.pawns.index(None), rng.below(STACKS))
        if kind == "reveal":
            return Reveal(self.pending[1], self.hidden.sample(rng))
        k = self.pending[-1]
        return DICE_BY_VALUES[tuple(sorted(rng.below(6) + 1 for _ in range(k)))]

    def scores(self) -> list:
        deck = self.game.deck
        out = []
        for p in range(self.num_players):
            pts = sum(deck.points[c] for c in self.display[p])
            pts += sum(deck.points[c] for combo in self.secured[p] for c in combo)
            combos = len(self.secured[p])
            if self.options["combination_bonus"] == "display":  # D3: face-up combinations count too
                combos += open_combinations(self.display[p], deck)
            pts += deck.bonus_points * self.bonus[p] + deck.combination_points * combos
            out.append(pts)
        return out

    def snapshot(self):
        d = {k: v for k, v in vars(self).items() if k not in ("game", "_cache")}
        d["hidden"] = tuple(self.hidden.cards())  # the cards themselves: cheaper than the Deck's repr
        return repr(sorted(d.items()))

    def outcome_visible(self, action, viewer) -> bool:
        """Every move of Schraube Locker happens in the open: dice are rolled and laid on the table,
        cards are turned up, taken, swapped, gifted and turned down in front of everyone. (Comparing
        observations would say less: the turn's dice are cleared when it ends, so a stop and a die
        placed just before the pawn moves leave the same observation, and it would compare all 462
        rolls at every roll.)"""
        return True

    def is_legal(self, action) -> bool:
        """Chance outcomes checked directly (type-exact), the same answer as the core's check,
        without indexing 462 dice outcomes at every roll; decisions go through the core."""
        if self.pending is None:
            return State.is_legal(self, action)
        kind = self.pending[0]
        t = type(action)
        if kind == "pawn":
            return (t is PawnAt and type(action.player) is int and type(action.stack) is int
                    and action.player == self.pawns.index(None) and 0 <= action.stack < STACKS)
        if kind == "reveal":
            return (t is Reveal and type(action.stack) is int and type(action.card) is int
                    and action.stack == self.pending[1] and action.card in self.hidden)
        if t is not Dice:
            return False
        v = action.values
        return (type(v) is tuple and len(v) == self.pending[-1] and all(type(x) is int for x in v)
                and DICE_BY_VALUES.get(v) == action)

    def clone(self):
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.top, c.left, c.pawns, c.bonus = list(self.top), list(self.left), list(self.pawns), list(self.bonus)
        c.display = [list(d) for d in self.display]
        c.secured = [list(s) for s in self.secured]
        c.box, c.on_card = list(self.box), list(self.on_card)
        c._cache = None
        return c

    # --- what a player holds -----------------------------------------------------------------
    def cards_of(self, player: int, function: str) -> list:
        fn = self.game.deck.function
        return [c for c in self.display[player] if fn[c] == function]

    def chain(self) -> list:
        """The stacks the pawn of the player to move looks at, in order (next card first)."""
        p = self.pawns[self.turn]
        return [(p + i) % STACKS for i in range(1, STACKS + 1)]

    def reach(self) -> int:
        """How many cards the unbroken row of dice reaches from the pawn (0-6)."""
        d = 0
        for s in self.chain():
            if not self.on_card[s]:
                break
            d += 1
        return d

    def _card_functions_usable(self) -> list:
        if not self.roll:
            return []
        out = []
        limit = self.options["card_limit"] == "one_each"
        for f in (REROLL, TURN):
            if limit and f in self.used:
                continue
            if self.cards_of(self.turn, f):
                out.append(f)
        return out

    # --- legal actions -----------------------------------------------------------------------
    def _legal_actions(self):
        if self._cache is None:
            self._cache = tuple(self._compute_legal())
        return self._cache

    def _compute_legal(self):
        ph, me = self.phase, self.turn
        deck = self.game.deck
        if ph == SETUP:
            p = self.pawns.index(None)
            return [PawnAt(p, s) for s in range(STACKS)]
        if ph == START:
            return [ROLLS[k] for k in range(1, self.dice_left + 1)]
        if ph == CARDS_PHASE:
            out = [PROCEED]
            usable = self._card_functions_usable()
            roll = self.roll
            # equal cards (same function and points) give the same choices: the first of them is
            # used (as with swap and gift cards); the choices come ordered by the dice they use
            if REROLL in usable:
                subsets = sorted(_sub_multisets(roll), key=lambda sub: (len(sub), sub))
                cards = _distinct(self.cards_of(me, REROLL))
                out += [UseReroll(c, sub) for sub in subsets for c in cards]
            if TURN in usable:
                cards = _distinct(self.cards_of(me, TURN))
                out += [UseTurn(c, v, w) for v in sorted(set(roll)) for w in range(1, 7) if w != v for c in cards]
            return out
        if ph == PLACE:
            out = []
            free = [s for s in range(STACKS) if not self.on_card[s] and self.top[s] is not None]
            vals = sorted(set(self.roll))
            for s in free:
                d = deck.die[self.top[s]]
                if d in vals:
                    out.append(Place(d, s))
            if self.options["combine_two"]:
                cnt = Counter(self.roll)
                for s in free:
                    d = deck.die[self.top[s]]
                    for a in range(1, d // 2 + 1):
                        b = d - a
                        if (a != b and cnt[a] and cnt[b]) or (a == b and cnt[a] >= 2):
                            out.append(PlacePair(a, b, s))
            if self.rolls < MAX_ROLLS and self.dice_left > 0:
                if self.options["not_all_dice"]:
                    out += [ROLLS[k] for k in range(1, self.dice_left + 1)]
                else:
                    out.append(ROLLS[self.dice_left])
            out.append(STOP)
            return out
        if ph == EXCHANGE:
            out = []
            here = self.pawns[me]
            swaps = [c for c in self.exchange_cards if c in self.display[me] and deck.function[c] == SWAP]
            gifts = [c for c in self.exchange_cards if c in self.display[me] and deck.function[c] == GIFT]
            for q in range(self.num_players):
                if q == me or self.pawns[q] != here or q in self.partners_done:
                    continue
                for g in _distinct(swaps):
                    out += [Swap(q, g, t) for t in self.display[q]]
                for g in _distinct(gifts):
                    out.append(Gift(q, g))
            out.append(TAKE)
            return out
        if ph == SECURE:
            return [Secure(t) for t in combinations_in(self.display[me], deck)] + [END]
        return []

    # --- applying ----------------------------------------------------------------------------
    def _apply(self, action) -> None:
        self._cache = None
        if self.pending is not None:
            kind = self.pending[0]
            self.pending = None
            if kind == "pawn":
                self._put_pawn(action)
            elif kind == "reveal":
                s = action.stack
                self.top[s] = action.card
                self.hidden = self.hidden.without(action.card)
                if self.phase == SETUP:
                    nxt = self.top.index(None) if None in self.top else None
                    if nxt is not None:
                        self.pending = ("reveal", nxt)
                    else:
                        self._start_turn()
                else:  # the card of this turn was taken: securing comes next
                    self._to_secure()
            elif kind == "roll":
                self.rolls += 1
                self.roll = action.values
                self.used = ()
                self._after_roll()
            else:  # reroll: the kept values stay, the rerolled ones are new
                self.roll = tuple(sorted(self.pending_kept + action.values))
                self._after_roll()
            return
        t = type(action)
        me = self.turn
        if t is PawnAt:
            self._put_pawn(action)
        elif t is Roll:
            self.pending = ("roll", action.count)
        elif t is Proceed:
            self._to_place()
        elif t is UseReroll:
            self._use_card(action.card)
            kept = list(self.roll)
            for v in action.values:
                kept.remove(v)
            self.pending_kept = tuple(kept)
            self.pending = ("reroll", len(action.values))
        elif t is UseTurn:
            self._use_card(action.card)
            r = list(self.roll)
            r.remove(action.frm)
            r.append(action.to)
            self.roll = tuple(sorted(r))
            self._after_roll()
        elif t is Place:
            self._put_dice(action.stack, (action.value,))
        elif t is PlacePair:
            self._put_dice(action.stack, (action.a, action.b))
        elif t is Stop:
            self._move()
        elif t is Swap:
            self.display[me].remove(action.give)
            self.display[action.target].remove(action.take)
            self.display[action.target].append(action.give)
            self.display[me].append(action.take)
            self.partners_done += (action.target,)
            self._after_exchange_step()
        elif t is Gift:
            self.display[me].remove(action.give)
            self.display[action.target].append(action.give)
            self.partners_done += (action.target,)
            self._after_exchange_step()
        elif t is TakeCard:
            self._take()
        elif t is Secure:
            for c in action.cards:
                self.display[me].remove(c)
            self.secured[me].append(action.cards)
            self._to_secure()
        elif t is EndTurn:
            self._end_turn()
        else:  # pragma: no cover - is_legal let only the game's actions in
            raise AssertionError(action)

    def _put_pawn(self, action):
        self.pawns[action.player] = action.stack
        if None in self.pawns:
            if self.options["pawn_setup"] == "seeded":
                self.pending = ("pawn",)
            return
        # "Erst danach wird die jeweils oberste Karte der Stapel aufgedeckt."
        self.pending = ("reveal", 0)

    def _start_turn(self):
        self._clear_turn()
        if self.options["not_all_dice"]:
            self.phase = START
        else:
            self.phase = PLACE
            self.pending = ("roll", DICE)

    def _use_card(self, card):
        self.display[self.turn].remove(card)
        self.box.append(card)
        self.used += (self.game.deck.function[card],)

    def _after_roll(self):
        # "Nach jedem Wurf – vor dem Einsetzen der Würfel": the card phase, if the player has a card
        if self._card_functions_usable():
            self.phase = CARDS_PHASE
        else:
            self._to_place()

    def _to_place(self):
        self.phase = PLACE
        self._must()
        self._settle_place()

    def _must(self):
        """MUSS: "Liegt auf der nächsten Karte im Uhrzeigersinn … noch kein Würfel, muss ein passender
        Würfel auf diese Karte eingesetzt werden. Dieses wiederholt der Spieler … mit der dann
        nächsten freien Karte usw." Cards with a die are skipped; the chain stops at the first free
        card no single die of the roll matches."""
        die = self.game.deck.die
        for s in self.chain():
            if self.on_card[s]:
                continue
            c = self.top[s]
            if c is None or die[c] not in self.roll:
                return
            self._lay(s, (die[c],))

    def _lay(self, s, values):
        r = list(self.roll)
        for v in values:
            r.remove(v)
        self.roll = tuple(r)
        self.on_card[s] = values
        self.dice_left -= len(values)

    def _put_dice(self, s, values):
        self._lay(s, values)
        # a CAN die can close a gap in front of the chain: the MUST rule applies again
        self._must()
        self._settle_place()

    def _settle_place(self):
        """Move on by itself where nothing is left to decide: no dice left to roll or place."""
        self._cache = None
        legal = self._legal_actions()
        if len(legal) == 1 and legal[0] is STOP:
            self._move()

    def _move(self):
        """Step 2: "Er zieht sie im Uhrzeigersinn bis zu der Karte, auf der in ununterbrochener Reihe
        der letzte Würfel liegt." No die on the next card ends the turn at once."""
        self._cache = None
        d = self.reach()
        self.last_move = d
        me = self.turn
        if d == 0:
            self._end_turn()
            return
        self.pawns[me] = (self.pawns[me] + d) % STACKS
        if d == STACKS:
            # "Einmal komplett rum!": a bonus card at once
            if self.bonus_left > 0:
                self.bonus_left -= 1
                self.bonus[me] += 1
            if self.options["full_circle"] == "bonus_only":  # D2, option full_circle
                self._end_turn()
                return
        self.phase = EXCHANGE
        fn = self.game.deck.function
        self.exchange_cards = tuple(c for c in self.display[me] if fn[c] in (SWAP, GIFT))
        self._after_exchange_step()

    def _after_exchange_step(self):
        self._cache = None
        legal = self._legal_actions()
        if len(legal) == 1:  # only "take the card"
            self._take()

    def _take(self):
        me = self.turn
        s = self.pawns[me]
        self.phase = SECURE
        if self.top[s] is not None:
            self.display[me].append(self.top[s])
            self.top[s] = None
            self.left[s] -= 1
        if self.left[s] > 0:
            self.pending = ("reveal", s)
        else:
            self._to_secure()

    def _to_secure(self):
        self.phase = SECURE
        self._cache = None
        if not combinations_in(self.display[self.turn], self.game.deck):
            self._end_turn()

    def _end_turn(self):
        self._cache = None
        # "Das Spiel endet nach dem Spielzug des Spielers, der die letzte Karte von einem der
        # Stapel (Punkte- oder Bonuskarten) genommen hat."
        if 0 in self.left or self.bonus_left == 0:
            self.phase = OVER
            self._clear_turn()
            return
        self.turn = (self.turn + 1) % self.num_players
        self._start_turn()

    # --- observation and hidden information --------------------------------------------------
    def observation(self, player):
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise SpieltischError(f"no player {short(player)} in a game of {self.num_players} players")
        deck = self.game.deck
        over = self.phase == OVER
        players = []
        for p in range(self.num_players):
            visible = sum(deck.points[c] for c in self.display[p]) + deck.bonus_points * self.bonus[p]
            entry = {
                "display": [deck.card_json(c) for c in self.display[p]],
                "secured_count": sum(len(t) for t in self.secured[p]),
                "bonus": self.bonus[p],
                "visible_points": visible,
            }
            if over or p == player:  # face down: only their owner knows them (all at the end)
                entry["secured"] = [[deck.card_json(c) for c in t] for t in self.secured[p]]
            players.append(entry)
        cp = self.current_player()
        return {
            "game": self.game.id,
            "deck_provenance": deck.provenance,
            "options": dict(self.options),
            "player": player,
            "to_move": cp if cp >= 0 else None,
            "chance": self.pending[0] if self.pending else None,
            "terminal": over,
            "phase": self.phase,
            "stacks": [{"top": None if self.top[s] is None else deck.card_json(self.top[s]), "left": self.left[s]}
                       for s in range(STACKS)],
            "bonus_left": self.bonus_left,
            "pawns": list(self.pawns),
            "players": players,
            "box": [deck.card_json(c) for c in self.box],
            "turn": {
                "player": None if over or self.phase == SETUP else self.turn,
                "rolls": self.rolls,
                "dice_left": self.dice_left,
                "roll": list(self.roll),
                "on_card": [list(v) for v in self.on_card],
                "used": list(self.used),
                "partners_done": list(self.partners_done),
                "exchange_cards": list(self.exchange_cards),
                "moved": self.last_move,
            },
            "scores": self.scores() if over else None,
        }

    def resample_hidden(self, viewer, rng):
        """The face-down stack cards and the secured cards ``viewer`` does not own, dealt afresh
        from those same cards: every player keeps as many combinations of the same sizes (each a
        valid combination), the stacks keep their counts."""
        c = self.clone()
        if self.phase == OVER:
            hidden = self.hidden.cards()
            c.hidden = Deck.of(_shuffled(hidden, rng))
            return c
        others = [p for p in range(self.num_players) if p != viewer and self.secured[p]]
        pool = self.hidden.cards() + [x for p in others for t in self.secured[p] for x in t]
        deck = self.game.deck
        for _ in range(30):
            order = _shuffled(pool, rng)
            new, ok = {}, True
            for p in others:
                piles = []
                for t in self.secured[p]:
                    got = _draw_combination(order, len(t), deck)
                    if got is None:
                        ok = False
                        break
                    piles.append(got)
                if not ok:
                    break
                new[p] = piles
            if ok:
                for p, piles in new.items():
                    c.secured[p] = piles
                c.hidden = Deck.of(sorted(order))
                return c
        return c  # no fresh deal found (never seen): the copy keeps the cards where they are

    # --- explanations ------------------------------------------------------------------------
    def why_illegal(self, action):
        def no(rule, en, de, rule_de):
            return IllegalActionError(rule, en, de, rule_de)

        deck = self.game.deck
        if self.phase == OVER:
            return no("end of game", "the game is over", "das Spiel ist vorbei", "Spielende")
        if not isinstance(action, Action):
            return no("moves of the game", f"{short(action)} is not a move of Schraube Locker",
                      f"{short(action)} ist kein Zug von Schraube Locker", "Spielzüge")
        if self.pending is not None:
            return no("turn order", f"the dice are rolled or a card is turned up now; {action.label('en')} must wait",
                      f"gerade wird gewürfelt oder aufgedeckt; „{action.label('de')}“ muss warten", "Spielablauf")
        t = type(action)
        ph = self.phase
        if t in (UseReroll, UseTurn):
            if ph == PLACE:
                return no("before placing", "cards are used after a roll before any die is placed",
                          "Karten werden nach dem Wurf vor dem Einsetzen der Würfel eingesetzt",
                          "vor dem Einsetzen")
            if ph == CARDS_PHASE:
                f = REROLL if t is UseReroll else TURN
                if action.card not in self.cards_of(self.turn, f):
                    return no("own cards", f"you have no {FUNCTIONS[f]['en']} card {short(action.card)} in your display",
                              f"du hast keine Karte „{FUNCTIONS[f]['de']}“ {short(action.card)} in deiner Auslage",
                              "eigene Auslage")
                first = next(c for c in _distinct(self.cards_of(self.turn, f))
                             if deck.points[c] == deck.points[action.card])
                if action.card != first:
                    return no("equal cards", f"equal cards are used in the order they came: use card {first} first",
                              f"gleiche Karten werden in der Reihenfolge eingesetzt, in der sie kamen: "
                              f"zuerst Karte {first}", "gleiche Karten")
                if self.options["card_limit"] == "one_each" and f in self.used:
                    return no("one card of each kind per roll (D1)", "this roll already used such a card",
                              "nach diesem Wurf wurde schon so eine Karte eingesetzt", "eine Karte je Art pro Wurf (D1)")
                return no("dice just rolled", "only dice of the roll just made can be re-rolled or turned",
                          "nur eben gewürfelte Würfel können neu gewürfelt oder gedreht werden", "eben gewürfelte Würfel")
        if t in (Place, PlacePair):
            if ph == CARDS_PHASE:
                return no("card phase", "use or skip your cards first (place the dice)",
                          "erst Karten einsetzen oder darauf verzichten (Würfel einsetzen)", "vor dem Einsetzen")
            if ph == PLACE:
                if t is PlacePair and not self.options["combine_two"]:
                    return no("Würfel zusammenziehen", "two dice on one card only with the Profi variant combine_two",
                              "zwei Würfel auf einer Karte nur mit der Profi-Variante „Würfel zusammenziehen“",
                              "Würfel zusammenziehen")
                s = action.stack
                if type(s) is not int or not 0 <= s < STACKS:
                    return no("circle of stacks", f"{short(s)} is not a stack 0-5", f"{short(s)} ist kein Stapel 0-5",
                              "Kartenkreis")
                if self.top[s] is None:
                    return no("circle of stacks", f"{_stack(s, 'en')} is empty", f"{_stack(s, 'de')} ist leer",
                              "Kartenkreis")
                if self.on_card[s]:
                    return no("free cards", f"{_stack(s, 'en')} already has a die", f"auf {_stack(s, 'de')} liegt schon ein Würfel",
                              "freie Karten")
                return no("matching die", f"that die does not match {_stack(s, 'en')} (die {deck.die[self.top[s]]}) "
                          f"or was not rolled (roll: {list(self.roll)})",
                          f"dieser Würfel passt nicht auf {_stack(s, 'de')} (Würfel {deck.die[self.top[s]]}) "
                          f"oder wurde nicht gewürfelt (Wurf: {list(self.roll)})", "passender Würfel")
        if t is Roll and ph == PLACE:
            if self.rolls >= MAX_ROLLS:
                return no("three rolls", "a turn has at most three rolls", "höchstens dreimal würfeln pro Zug",
                          "drei Würfe")
            if not self.options["not_all_dice"]:
                return no("all free dice", f"roll all {self.dice_left} free dice (not_all_dice is off)",
                          f"mit allen {self.dice_left} übrigen Würfeln würfeln (ohne Profi-Variante)", "alle Würfel")
        if t in (Swap, Gift):
            if ph != EXCHANGE:
                return no("swap or gift", "swapping and gifting come after the move, before taking the card",
                          "Tauschen und Verschenken kommen nach dem Ziehen, vor dem Kartennehmen",
                          "Karten tauschen und/oder verschenken")
            q = action.target
            if type(q) is not int or q == self.turn or not 0 <= q < self.num_players or self.pawns[q] != self.pawns[self.turn]:
                return no("pawns at the same stack", "only with players whose pawn stands at your stack",
                          "nur mit Mitspielern, deren Figur an deinem Stapel steht", "Figuren am selben Stapel")
            if q in self.partners_done:
                return no("once per player", "with each player only one swap or gift",
                          "mit jedem betroffenen Mitspieler darf der Spieler einmal eine dieser Aktionen durchführen",
                          "einmal pro Mitspieler")
            if action.give not in self.exchange_cards or action.give not in self.display[self.turn]:
                return no("own cards", "that card is not a swap/gift card you held before this step",
                          "diese Karte ist keine Tausch-/Verschenk-Karte, die vorher in deiner Auslage lag",
                          "eigene Auslage")
            if t is Swap and type(action.take) is int and any(action.take in c for c in self.secured[q]):
                return no("secured cards", "secured cards cannot be taken by a swap",
                          "gesicherte Karten können nicht durch „Karten tauschen“ genommen werden",
                          "gesicherte Karten")
        if t is Secure:
            if ph != SECURE:
                return no("securing", "cards are secured after taking the card",
                          "gesichert wird nach dem Nehmen der Karte", "Karten sichern")
            return no("combinations", "secure 1 nut + 1 screw, a double nut + 1 or 2 screws, a double screw + 1 or 2 "
                      "nuts, or a double screw + a double nut, all from your display",
                      "sichern: 1 Mutter mit 1 Schraube, 1 Doppel-Mutter mit 1 oder 2 Schrauben (oder umgekehrt), "
                      "1 Doppel-Schraube mit 1 Doppel-Mutter, aus der eigenen Auslage", "Kombinationen")
        return State.why_illegal(self, action)


def _sub_multisets(roll) -> set:
    """Every non-empty sub-multiset of ``roll`` (sorted tuples)."""
    cnt = sorted(Counter(roll).items())
    out = set()
    for ks in product(*(range(m + 1) for _, m in cnt)):
        sub = tuple(v for (v, _), k in zip(cnt, ks) for _ in range(k))
        if sub:
            out.add(sub)
    return out


def _distinct(cards):
    """One card per function and points (two equal cards give the same choices)."""
    seen, out = set(), []
    for c in cards:
        key = (CARDS.function[c], CARDS.points[c])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _shuffled(items, rng) -> list:
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def _draw_combination(order: list, size: int, deck: DeckData):
    """Take the first valid combination of ``size`` cards out of ``order`` (a shuffled list, changed
    in place): the first screw/nut card, then partners found in shuffled order."""
    for i, a in enumerate(order):
        if not (deck.screws[a] or deck.nuts[a]):
            continue
        rest = [x for j, x in enumerate(order) if j != i and (deck.screws[x] or deck.nuts[x])]
        for combo in combinations(rest, size - 1):
            t = (a, *combo)
            if is_combination(t, deck):
                for x in t:
                    order.remove(x)
                return tuple(sorted(t))
        return None
    return None


SchraubeLocker.state_class = SchraubeLockerState
