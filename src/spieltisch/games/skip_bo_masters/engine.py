"""Skip-Bo Masters: get rid of your stock pile first; cards build shared piles 1-12, coins buy help.

Rules as implemented: ``docs/rules/skip-bo-masters.md``. The deck's coin symbols are data
(``coin_symbols.json``, a RECONSTRUCTION: the rulebook does not say which cards carry them).

Cards are small ints: ``symbols * 100 + value`` with value 1-12 for a numbered card and 0 for a
Skip-Bo wild card; ``7`` is a plain seven, ``107`` a seven with one coin symbol, ``0`` a wild card.

Hidden information. The draw pile's order and the face-down stock cards are never stored: drawing the
top card of a well-shuffled pile is the same law as drawing uniformly from the cards nobody has seen,
so the state keeps one ``Deck`` (``pool``) of the cards that were dealt face down (the stocks below
their tops, and the original draw pile while it lasts) and turns a stock card up or draws from the
pile with a chance node on it. Completed building piles become a new draw pile (``draw``, a Deck of
known composition) when the original one is used up. Hands are stored (their owner sees them).

A turn (phases): chance nodes fill the hand to 5 (``Draw``); PLAY: play cards (``Play``), buy
(``Buy``), replace (``Replace``: then FOLLOW, the following card must be played on that pile), after a
card with coin symbols TOLL (``PayToll`` / ``DeclineToll``); the turn ends with ``Discard`` (or
``EndTurn`` with an empty hand). A declined toll ends the playing phase: DISCARD (decision D3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from ...core.chance import Deck
from ...core.errors import IllegalActionError, SpieltischError, short
from ...core.game import CHANCE, TERMINAL, Game, State, exact_key
from ...core.options import OptionSpec

HAND = 5
PILES = 4  # building piles at once ("Es dürfen nur 4 Ablagestapel gleichzeitig existieren")
DISCARDS = 4  # own discard piles ("bis zu 4 ... HILFSSTAPEL")
TOP = 12  # a building pile is complete with a 12
COINS = 12  # coins per player ("Jeder Spieler erhält 12 Münzen")
WIN_BASE, WIN_PER_CARD = 25, 5  # round points: 25 + 5 per card left in the other stock piles

PLAY, FOLLOW, TOLL, DISCARD, OVER = "play", "follow", "toll", "discard", "over"


# --- cards (data) ----------------------------------------------------------------------------------

class CardDataError(SpieltischError):
    """The card file is malformed; the message names the file and the field."""


def value_of(card: int) -> int:
    """1-12 for a numbered card, 0 for a wild card."""
    return card % 100


def symbols_of(card: int) -> int:
    return card // 100


def is_wild(card: int) -> bool:
    return card % 100 == 0


def card_name(card, lang: str = "en") -> str:
    """"7", "7 (1 coin symbol)", "Skip-Bo"; any value at all (refusals name what they were given). The
    symbols are named as symbols, so a card is never read as a price ("buy 7 (1 coin symbol) ... (1 coin)")."""
    if type(card) is not int or not 0 <= card < 1000:
        return short(card)
    v, s = value_of(card), symbols_of(card)
    base = "Skip-Bo" if v == 0 else str(v)
    if not s:
        return base
    if lang == "de":
        return f"{base} ({s} Münzsymbol{'e' if s > 1 else ''})"
    return f"{base} ({s} coin symbol{'s' if s > 1 else ''})"


def load_cards(text: str, source: str = "coin_symbols.json") -> dict:
    """Validate the card file: ``{card: copies}``; raises ``CardDataError`` naming file and field."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise CardDataError(f"{source}: not valid JSON ({e})") from None

    def bad(field, msg):
        raise CardDataError(f"{source}: field {field!r}: {msg}")

    if not isinstance(data, dict):
        bad("<top>", "the file holds one JSON object")
    if data.get("provenance") not in ("reconstruction", "rulebook", "publisher"):
        bad("provenance", "must say where the data comes from: reconstruction, rulebook or publisher")
    if not isinstance(data.get("note"), str) or not data["note"].strip():
        bad("note", "must explain the data in words")
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        bad("cards", "must be a non-empty list")
    counts: dict[int, int] = {}
    per_value = {v: 0 for v in range(TOP + 1)}
    for i, entry in enumerate(cards):
        where = f"cards[{i}]"
        if not isinstance(entry, dict):
            bad(where, "must be an object with value and copies")
        v = entry.get("value")
        if v == "wild":
            v = 0
        if type(v) is not int or not 1 <= v <= TOP and v != 0:
            bad(f"{where}.value", f"must be 1-{TOP} or \"wild\", got {short(entry.get('value'))}")
        copies = entry.get("copies")
        if not isinstance(copies, dict) or not copies:
            bad(f"{where}.copies", "must map a number of coin symbols (\"0\"-\"9\") to a number of copies")
        for sym, n in copies.items():
            if not (isinstance(sym, str) and sym.isdigit() and len(sym) == 1):
                bad(f"{where}.copies", f"coin symbols must be \"0\"-\"9\", got {short(sym)}")
            if type(n) is not int or n < 0:
                bad(f"{where}.copies.{sym}", f"copies must be a whole number >= 0, got {short(n)}")
            code = int(sym) * 100 + v
            if code in counts:
                bad(f"{where}.copies.{sym}", f"card {card_name(code)} is listed twice")
            if n:
                counts[code] = n
            per_value[v] += n
    total = data.get("total")
    if type(total) is not int or total != sum(counts.values()):
        bad("total", f"says {short(total)}, but the cards add up to {sum(counts.values())}")
    for v in range(1, TOP + 1):
        if per_value[v] == 0:
            bad("cards", f"there is no card {v}: every number 1-{TOP} must be in the deck")
    return counts


def _read_cards() -> dict:
    text = resources.files(__package__).joinpath("coin_symbols.json").read_text(encoding="utf-8")
    return load_cards(text)


CARD_COUNTS = _read_cards()
CARDS = tuple(sorted(CARD_COUNTS))  # every kind of card, wild cards first
FULL_DECK = Deck((c, CARD_COUNTS[c]) for c in CARDS)
TOTAL_CARDS = FULL_DECK.total
PROVENANCE = "reconstruction"


# --- actions ----------------------------------------------------------------------------------------

def _pile_name(pile, lang):
    n = pile + 1 if type(pile) is int else short(pile)
    return f"Ablagestapel {n}" if lang == "de" else f"building pile {n}"


_SOURCE = {
    "hand": ("von der Hand", "from hand"),
    "stock": ("vom Spielerstapel", "from stock pile"),
    "discard": ("vom Hilfsstapel", "from discard pile"),
}


def _source_text(src, slot, lang, owner=None, seller=None):
    de, en = _SOURCE.get(src, (short(src), short(src)))
    text = de if lang == "de" else en
    if src == "discard":
        text += f" {slot + 1 if type(slot) is int else short(slot)}"
    if owner is not None:
        who = seller or (f"Spieler {owner + 1}" if lang == "de" else f"player {owner + 1}")
        text += f" von {who}" if lang == "de" else f" of {who}"
    return text


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card the player to draw takes from the draw pile (only that player sees it)."""

    card: int

    def to_json(self):
        return ["draw", self.card]

    def label(self, lang="en"):
        return f"zieht {card_name(self.card, 'de')}" if lang == "de" else f"draws {card_name(self.card)}"

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the next card of a stock pile is turned face up."""

    card: int

    def to_json(self):
        return ["reveal", self.card]

    def label(self, lang="en"):
        if lang == "de":
            return f"deckt {card_name(self.card, 'de')} vom Spielerstapel auf"
        return f"turns up {card_name(self.card)} on the stock pile"

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the own hand, stock top or discard pile ``slot`` onto building pile ``pile``
    (pile slots 0-3; a new pile goes to the lowest empty slot)."""

    src: str  # "hand", "stock" or "discard"
    slot: int  # the discard pile (0-3); 0 for hand and stock
    card: int
    pile: int

    def to_json(self):
        return ["play", self.src, self.slot, self.card, self.pile]

    def label(self, lang="en"):
        c, s, p = card_name(self.card, lang), _source_text(self.src, self.slot, lang), _pile_name(self.pile, lang)
        return f"{c} {s} auf {p}" if lang == "de" else f"play {c} {s} on {p}"

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class Buy:
    """Pay 1 coin to ``owner`` for the top card of their stock or discard pile ``slot`` and play it
    on ``pile`` at once."""

    owner: int
    src: str  # "stock" or "discard"
    slot: int
    card: int
    pile: int

    def to_json(self):
        return ["buy", self.owner, self.src, self.slot, self.card, self.pile]

    def label(self, lang="en", seller: str | None = None):
        """``seller``: how to name the owner (a front-end's seat name); by default "Spieler N"."""
        c, p = card_name(self.card, lang), _pile_name(self.pile, lang)
        s = _source_text(self.src, self.slot, lang, self.owner, seller)
        return (f"kaufe {c} {s} (1 Münze) auf {p}" if lang == "de"
                else f"buy {c} {s} (1 coin) on {p}")

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class Replace:
    """Pay coins for the card ``pile`` needs next (the pile counts as holding it); the following
    card must then be played on that pile."""

    pile: int
    cost: int

    def to_json(self):
        return ["replace", self.pile, self.cost]

    def label(self, lang="en"):
        p, one = _pile_name(self.pile, lang), self.cost == 1
        return (f"ersetze die nächste Karte auf {p} für {self.cost} Münze{'' if one else 'n'}" if lang == "de"
                else f"replace the next card on {p} for {self.cost} coin{'' if one else 's'}")

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class PayToll:
    """Pay the coins the card just played shows."""

    coins: int

    def to_json(self):
        return ["pay_toll", self.coins]

    def label(self, lang="en"):
        one = self.coins == 1
        return (f"Gebühr zahlen ({self.coins} Münze{'' if one else 'n'})" if lang == "de"
                else f"pay the toll ({self.coins} coin{'' if one else 's'})")

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class DeclineToll:
    """Do not pay: the playing phase ends."""

    def to_json(self):
        return ["decline_toll"]

    def label(self, lang="en"):
        return "Gebühr nicht zahlen (Legen endet)" if lang == "de" else "decline the toll (play ends)"

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn: put hand card ``card`` on own discard pile ``pile`` (0-3)."""

    card: int
    pile: int

    def to_json(self):
        return ["discard", self.card, self.pile]

    def label(self, lang="en"):
        c = card_name(self.card, lang)
        n = self.pile + 1 if type(self.pile) is int else short(self.pile)
        return f"{c} auf Hilfsstapel {n} (Zugende)" if lang == "de" else f"discard {c} on discard pile {n} (end turn)"

    def __str__(self):
        return self.label()


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn with an empty hand (nothing left to draw): no discard is possible."""

    def to_json(self):
        return ["end_turn"]

    def label(self, lang="en"):
        return "Zug beenden (keine Handkarte)" if lang == "de" else "end the turn (no hand card)"

    def __str__(self):
        return self.label()


def deck_of_counts(counts: dict) -> Deck:
    """A deck of ``{card: count}`` with the kinds in the one canonical order (``CARDS``).

    Built like ``Deck.without`` builds its result (sharing the full deck's kinds and index), not
    through ``Deck(...)``, which checks every count again: resampling hidden cards makes decks all
    the time. The counts here are whole numbers >= 0 by construction."""
    got = tuple(counts.get(c, 0) for c in CARDS)
    return Deck._make(FULL_DECK._kinds, got, FULL_DECK._index, sum(got))


def counts_of(deck: Deck) -> tuple:
    """The deck's count of every card in ``CARDS`` order (a cheap key: the engine's decks all share
    the full deck's kinds, so this is the count tuple they already hold)."""
    if deck._kinds is FULL_DECK._kinds:
        return deck._counts
    return tuple(deck.count(c) for c in CARDS)


def deck_of(cards) -> Deck:
    counts: dict = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return deck_of_counts(counts)


_OUTCOMES: dict = {}  # (kind, deck counts) -> chance outcomes: many states share a deck

DRAWS = {c: Draw(c) for c in CARDS}
REVEALS = {c: Reveal(c) for c in CARDS}
DECLINE = DeclineToll()
END_TURN = EndTurn()
ACTION_TYPES = (Draw, Reveal, Play, Buy, Replace, PayToll, DeclineToll, Discard, EndTurn)


# --- game -----------------------------------------------------------------------------------------

class SkipBoMasters(Game):
    id = "skip-bo-masters"
    # no dice: chance is the shuffled cards
    chance_words = {"de": {"luck": "Glück beim Ziehen", "same": "gleiche Karten"},
                    "en": {"luck": "lucky draws", "same": "the same cards"}}
    # 2: by default every playable own card must be played before the discard (D5, "must_play"), and
    # coins no longer replace a card the player holds (D6, "replace_held")
    version = 2
    name = {"de": "Skip-Bo Masters", "en": "Skip-Bo Masters"}
    summary = {
        "de": "Als Erster den eigenen Spielerstapel loswerden: Karten 1–12 auf gemeinsame Ablagestapel "
              "legen, Joker einsetzen, mit Münzen Karten ersetzen, kaufen und Gebühren zahlen.",
        "en": "Be the first to empty your stock pile: build shared piles 1–12, use Skip-Bo cards (wild), and spend "
              "coins to replace cards, buy them from others and pay tolls.",
    }
    # RECONSTRUCTION: the rulebook gives no player count; 2-6 as the parent game Skip-Bo (72 coins are
    # 12 for each of 6 players)
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = (
        OptionSpec("short_game", False, "stock piles of 10 cards instead of 15 (\"Kürzere Partien\")"),
        # D1
        OptionSpec("wild_discard", True, "D1: wild cards may be put on a discard pile (the rulebook says "
                                         "any hand card)"),
        # D2
        OptionSpec("replace_cost", "face", "D2: replacing a card costs its face value (\"face\", the "
                                           "rulebook's example: a 4 costs 4 coins) or 1 coin (\"one\")",
                   choices=("face", "one")),
        # D3
        OptionSpec("discard_after_unpaid_toll", True, "D3: after a declined toll the turn still ends with a "
                                                      "discard (off: it ends at once, no discard)"),
        # D4
        OptionSpec("stall_rounds", 50, "D4: a round ends as a draw after this many full rounds of turns "
                                       "in a row in which no card left any stock pile", min=1, max=1000),
        # D5
        OptionSpec("must_play", True, "D5: a turn may end with a discard only when no card of the hand, the "
                                      "stock top or a discard pile top can be played (\"so viele Karten wie "
                                      "möglich\"); off: a player may stop playing at any time (as Skip-Bo "
                                      "players often play)"),
        # D6
        OptionSpec("replace_held", False, "D6: coins may also replace a card the player holds (a card of that "
                                          "number or a wild card in the hand, on the stock top or on a discard "
                                          "pile top); off: only a card the player needs (\"die er braucht\")"),
        # D7
        OptionSpec("short_hand_refill", True, "D7: a hand emptied during the turn draws 5 new cards also when it "
                                              "held fewer than 5 (the draw pile ran short); off: only an emptied "
                                              "hand of 5 draws"),
        # D8
        OptionSpec("round_start", "rotate", "D8: who starts each further round of a multi-round game: the next "
                                            "player to the left (\"rotate\") or always seat 1, the youngest "
                                            "(\"youngest\")", choices=("rotate", "youngest")),
        OptionSpec("multi_round", False, "play rounds until someone reaches target_score (winner of a round: "
                                         "25 + 5 per card left in the other stock piles)"),
        OptionSpec("target_score", 500, "points that win a multi-round game", min=25, max=5000),
    )
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "short_game": {"de": "kürzere Partie (10 Karten im Spielerstapel)", "en": "short game (10 stock cards)"},
        "wild_discard": {"de": "Skip-Bo-Karten auf einen Hilfsstapel", "en": "wild cards on a discard pile"},
        "replace_cost": {"de": "Ersetzen kostet", "en": "a replacement costs", "choices": {
            "face": {"de": "den Kartenwert in Münzen", "en": "its face value in coins"},
            "one": {"de": "1 Münze", "en": "1 coin"},
        }},
        "discard_after_unpaid_toll": {"de": "nach abgelehnter Gebühr noch abwerfen", "en": "discard after a declined toll"},
        "stall_rounds": {"de": "Unentschieden nach so vielen Runden ohne Spielerstapel-Karte", "en": "draw after this many rounds without a stock card played"},
        "must_play": {"de": "so viele Karten wie möglich spielen", "en": "play as many cards as possible"},
        "replace_held": {"de": "auch gehaltene Karten ersetzen", "en": "replace cards one holds too"},
        "short_hand_refill": {"de": "auch eine kurze Hand zieht 5 nach", "en": "a short hand draws 5 too"},
        "round_start": {"de": "wer eine neue Runde beginnt", "en": "who starts a new round", "choices": {
            "rotate": {"de": "der Nächste links", "en": "the next to the left"},
            "youngest": {"de": "immer Platz 1 (die Jüngste)", "en": "always seat 1 (the youngest)"},
        }},
        "multi_round": {"de": "mehrere Runden bis zur Zielpunktzahl", "en": "several rounds to a target score"},
        "target_score": {"de": "Zielpunktzahl", "en": "target score"},
    }
    class_code_number = 4  # (ui.classroom: given once, never changed)
    # the generic tests play these: short stocks and a short stall limit keep random games short
    # (random play rarely plays a stock card, so these rounds mostly end by D4; the own tests play
    # bot games to a win)
    test_configs = ((2, {"short_game": True, "stall_rounds": 6}),
                    (4, {"short_game": True, "stall_rounds": 1, "replace_cost": "one"}),
                    (6, {"short_game": True, "stall_rounds": 1, "discard_after_unpaid_toll": False,
                         "wild_discard": False}))

    def __init__(self, num_players=None, options=None):
        super().__init__(num_players, options)
        self.stock_size = 10 if self.options["short_game"] else 15

    def replace_cost(self, value: int) -> int:
        """Coins to replace the card of ``value`` (decision D2)."""
        return value if self.options["replace_cost"] == "face" else 1

    def render_observation(self, obs: dict, lang: str = "en") -> str:
        return render(obs, lang)


# --- state ------------------------------------------------------------------------------------------

class Pile:
    """A building pile: its cards (a replaced card is no card), the value it counts as, its coins."""

    __slots__ = ("cards", "value", "coins", "replaced")

    def __init__(self):
        self.cards: list[int] = []
        self.value = 0
        self.coins = 0
        self.replaced: list[int] = []  # values paid for instead of played

    def copy(self) -> "Pile":
        p = Pile.__new__(Pile)
        p.cards, p.value, p.coins, p.replaced = list(self.cards), self.value, self.coins, list(self.replaced)
        return p

    def to_json(self) -> dict:
        return {"cards": list(self.cards), "value": self.value, "coins": self.coins, "replaced": list(self.replaced)}

    def __repr__(self):
        return f"Pile({self.cards}, {self.value}, {self.coins}, {self.replaced})"


def fits(card: int, need: int) -> bool:
    return card % 100 == 0 or card % 100 == need


class SkipBoState(State):
    def __init__(self, game: SkipBoMasters):
        super().__init__(game)
        n = self.num_players
        self.totals = [0] * n
        self.round_no = 0
        self.starter = 0  # seat 0 is the youngest player ("Der jüngste Spieler beginnt")
        self.rounds_log: list = []  # (winner or None, points) per finished round
        self.over = False
        self._new_round()

    # --- round set-up ---------------------------------------------------------------------------
    def _new_round(self):
        n, s = self.num_players, self.game.stock_size
        self.round_no += 1
        self.pool = FULL_DECK  # every card dealt face down: stocks below their tops and the draw pile
        self.orig_left = TOTAL_CARDS - n * s  # cards left in the original draw pile
        self.draw = deck_of(())  # the draw pile made from completed building piles
        self.completed: list[int] = []  # completed piles set aside
        self.reshuffles = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock_top: list = [None] * n
        self.stock_down = [s] * n  # face-down stock cards
        self.discards = [[[] for _ in range(DISCARDS)] for _ in range(n)]
        self.building: list = [None] * PILES
        self.coins = [COINS] * n
        self.turn = self.starter
        self.phase = PLAY
        self.toll_due = 0
        self.toll_pile = -1
        self.follow_pile = -1
        self.stall = 0  # turns in a row in which no card left any stock pile
        self.stock_moved = False  # a card left a stock pile during this turn
        self.turns = 1  # the turns begun in this round of the game, this one included
        self.filled = 0  # cards the hand of the player to move held after its last filling (D7)
        self.winner = None  # of the round; None with ``drawn`` for a stalled round
        self.drawn = False
        # chance to come, one entry per card: (kind, player), kind "reveal" or "draw"
        self.pending = [("reveal", p) for p in range(n)] + [("draw", self.turn)] * HAND
        self._settle()

    # --- protocol --------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending:
            return CHANCE
        return self.turn

    def chance_player(self):
        return self.pending[0][1] if self.pending and not self.over else None

    def _chance_deck(self) -> Deck:
        kind, _ = self.pending[0]
        if kind == "reveal" or self.orig_left:
            return self.pool
        return self.draw

    def chance_outcomes(self):
        kind = self.pending[0][0]
        deck = self._chance_deck()
        # the outcomes keep the deck's own order of kinds, so that order is part of the key
        key = (kind, counts_of(deck), deck._kinds is FULL_DECK._kinds or deck._kinds)
        got = _OUTCOMES.get(key)
        if got is None:
            table = REVEALS if kind == "reveal" else DRAWS
            if len(_OUTCOMES) > 20_000:
                _OUTCOMES.clear()
            got = _OUTCOMES[key] = tuple((table[c], p) for c, p in deck.outcomes())
        return list(got)

    def sample_chance(self, rng):
        """The same draw as ``sample_exact(self.chance_outcomes(), rng)`` (``Deck.sample``), without
        building the outcomes."""
        table = REVEALS if self.pending[0][0] == "reveal" else DRAWS
        return table[self._chance_deck().sample(rng)]

    def is_legal(self, action) -> bool:
        """The core's answer (type-exact membership in the legal actions), found faster: only an
        action equal to a legal one has its record form compared."""
        p = self.current_player()
        if p == TERMINAL:
            return False
        legal = [a for a, _ in self.chance_outcomes()] if p == CHANCE else self._legal_actions()
        t = type(action)
        for a in legal:
            if a is action:
                return True
        for a in legal:
            if type(a) is t and a == action:
                key = exact_key(action)
                return key is not None and key == exact_key(a)
        return False

    def snapshot(self):
        """The whole position as a comparable value of immutable parts (decks by their counts),
        much cheaper than the core's ``repr`` of everything."""
        return (tuple(self.totals), self.round_no, self.starter, tuple(self.rounds_log), self.over,
                counts_of(self.pool), self.orig_left, counts_of(self.draw),
                tuple(self.completed), self.reshuffles, tuple(map(tuple, self.hands)), tuple(self.stock_top),
                tuple(self.stock_down), tuple(tuple(map(tuple, ds)) for ds in self.discards),
                tuple(None if b is None else (tuple(b.cards), b.value, b.coins, tuple(b.replaced))
                      for b in self.building),
                tuple(self.coins), self.turn, self.phase, self.toll_due, self.toll_pile, self.follow_pile,
                self.stall, self.stock_moved, self.turns, self.filled, self.winner, self.drawn,
                tuple(self.pending))

    def _settle(self):
        """Drop draws nobody can make and make a new draw pile where one is needed, so that a chance
        node always has a card to give (``current_player`` stays a plain reading)."""
        pending = self.pending
        while pending and pending[0][0] == "draw" and not self.orig_left and not self.draw:
            if self.completed:
                # "Sie werden erneut gemischt und als neuer NACHZIEHSTAPEL genutzt"
                self.draw = deck_of(self.completed)
                self.completed = []
                self.reshuffles += 1
            else:  # no card left anywhere: the player draws nothing
                self.pending = pending = [t for t in pending if t[0] != "draw"]

    def _legal_actions(self):
        p, phase = self.turn, self.phase
        if phase == TOLL:
            return ([PayToll(self.toll_due)] if self.coins[p] >= self.toll_due else []) + [DECLINE]
        hand = self.hands[p]
        out: list = []
        if phase == DISCARD:
            return self._discards(p) if hand else [END_TURN]
        targets = self._targets()
        every = [pile for pile, _ in targets]  # where a wild card may go, in the targets' order
        where: dict = {}  # value -> the piles that need it next
        for pile, need in targets:
            where.setdefault(need, []).append(pile)

        at = where.get
        # own cards: hand (each kind once), stock top, discard tops
        for c in sorted(set(hand)):
            for pile in (every if c % 100 == 0 else at(c % 100, ())):
                out.append(Play("hand", 0, c, pile))
        c = self.stock_top[p]
        if c is not None:
            for pile in (every if c % 100 == 0 else at(c % 100, ())):
                out.append(Play("stock", 0, c, pile))
        for d, dp in enumerate(self.discards[p]):
            if dp:
                c = dp[-1]
                for pile in (every if c % 100 == 0 else at(c % 100, ())):
                    out.append(Play("discard", d, c, pile))
        # D5: with a card of one's own still playable, the turn may not end yet
        may_stop = not (out and self.options["must_play"])
        coins = self.coins[p]
        others = set()  # the values of the cards p could buy
        if coins >= 1:
            for q in range(self.num_players):
                if q == p:
                    continue
                c = self.stock_top[q]
                if c is not None:
                    others.add(c % 100)
                    for pile in (every if c % 100 == 0 else at(c % 100, ())):
                        out.append(Buy(q, "stock", 0, c, pile))
                for d, dp in enumerate(self.discards[q]):
                    if dp:
                        c = dp[-1]
                        others.add(c % 100)
                        for pile in (every if c % 100 == 0 else at(c % 100, ())):
                            out.append(Buy(q, "discard", d, c, pile))
        if phase == PLAY:
            held = self.options["replace_held"]
            mine = self._own_values(p)
            for pile, need in targets:
                if need < TOP and (held or not (0 in mine or need in mine)):
                    cost = self.game.replace_cost(need)
                    if cost <= coins:
                        # the following card: an own one, or one bought with a coin still left
                        nxt = need + 1
                        if 0 in mine or nxt in mine or coins > cost and (0 in others or nxt in others):
                            out.append(Replace(pile, cost))
            if may_stop:
                out.extend(self._discards(p) if hand else [END_TURN])
        return out

    def _own_values(self, p: int) -> set:
        """The values (0 = wild) of the cards player ``p`` may play from: the hand, the stock top, the
        discard pile tops."""
        vals = {c % 100 for c in self.hands[p]}
        if self.stock_top[p] is not None:
            vals.add(self.stock_top[p] % 100)
        vals.update(d[-1] % 100 for d in self.discards[p] if d)
        return vals

    def _holds(self, p: int, need: int) -> bool:
        """Whether player ``p`` could play a ``need`` (or a wild card) from their own cards (D6)."""
        mine = self._own_values(p)
        return 0 in mine or need in mine

    def _playable_own(self, p: int):
        """A play of one of player ``p``'s own cards that is possible now (D5), or None."""
        return next((a for a in self._legal_actions() if type(a) is Play), None)

    def _targets(self) -> list:
        """(pile slot, value it needs next) of every pile a card may go to now."""
        if self.phase == FOLLOW:
            pile = self.building[self.follow_pile]
            return [(self.follow_pile, pile.value + 1)]
        out, free = [], None
        for i, pile in enumerate(self.building):
            if pile is None:
                if free is None:
                    free = i
            else:
                out.append((i, pile.value + 1))
        if free is not None:  # a new pile starts with a 1 (or a wild card), in the lowest free slot
            out.append((free, 1))
        return out

    def _discards(self, p: int) -> list:
        hand = self.hands[p]
        cards = sorted(set(hand))
        if not self.options["wild_discard"]:
            numbered = [c for c in cards if not is_wild(c)]
            cards = numbered or cards  # D1 off: a hand of wild cards only may still end the turn
        piles, seen_empty = [], False
        for i, d in enumerate(self.discards[p]):
            if d:
                piles.append(i)
            elif not seen_empty:  # empty discard piles are all alike: the first one stands for them
                seen_empty = True
                piles.append(i)
        return [Discard(c, i) for c in cards for i in piles]

    # --- moves ------------------------------------------------------------------------------------
    def _apply(self, action):
        t = type(action)
        if t is Draw or t is Reveal:
            kind, q = self.pending.pop(0)
            if kind == "reveal":
                self.pool = self.pool.without(action.card)
                self.stock_down[q] -= 1
                self.stock_top[q] = action.card
            else:
                if self.orig_left:
                    self.pool = self.pool.without(action.card)
                    self.orig_left -= 1
                else:
                    self.draw = self.draw.without(action.card)
                self.hands[q].append(action.card)
                self.hands[q].sort()
                self.filled += 1  # only the player to move draws
            self._settle()
            return
        p = self.turn
        if t is Play or t is Buy:
            owner = p if t is Play else action.owner
            if t is Buy:
                self.coins[p] -= 1
                self.coins[owner] += 1
            if action.src == "hand":
                self.hands[p].remove(action.card)
            elif action.src == "stock":
                self.stock_top[owner] = None
                self.stock_moved = True
                if self.stock_down[owner]:
                    self.pending.append(("reveal", owner))
            else:
                self.discards[owner][action.slot].pop()
            pile = self.building[action.pile]
            if pile is None:
                pile = self.building[action.pile] = Pile()
            pile.cards.append(action.card)
            pile.value += 1
            if action.src == "stock" and not self.stock_down[owner]:
                # "Wer als Erster die letzte Karte seines Spielerstapels loswird, gewinnt!"
                self._end_round(owner)
                return
            sym = action.card // 100
            if sym:
                self.phase, self.toll_due, self.toll_pile = TOLL, sym, action.pile
            else:
                self._after_card(action.pile)
        elif t is Replace:
            cost = action.cost
            self.coins[p] -= cost
            pile = self.building[action.pile]
            if pile is None:
                pile = self.building[action.pile] = Pile()
            pile.value += 1
            pile.replaced.append(pile.value)
            pile.coins += cost
            self.phase, self.follow_pile = FOLLOW, action.pile
        elif t is PayToll:
            self.coins[p] -= self.toll_due
            self.building[self.toll_pile].coins += self.toll_due
            pile = self.toll_pile
            self.toll_due, self.toll_pile = 0, -1
            self._after_card(pile)
        elif t is DeclineToll:
            pile = self.toll_pile
            self.toll_due, self.toll_pile = 0, -1
            if self.building[pile].value == TOP:
                self._complete(pile)
            # D3: "Falls der Spieler die Gebühr nicht zahlt, ist sein Zug beendet"
            if self.options["discard_after_unpaid_toll"] and self.hands[p]:
                self.phase = DISCARD
            else:
                self._end_turn()
        elif t is Discard:
            self.hands[p].remove(action.card)
            self.discards[p][action.pile].append(action.card)
            self._end_turn()
        else:  # EndTurn
            self._end_turn()
        self._settle()

    def _after_card(self, slot: int):
        if self.building[slot].value == TOP:
            self._complete(slot)
        self.phase, self.follow_pile = PLAY, -1
        if not self.hands[self.turn] and (self.filled >= HAND or self.options["short_hand_refill"]):
            # "Wird ein Spieler alle 5 Handkarten ... los, zieht er SOFORT 5 neue Karten"; D7: also
            # a hand that held fewer (the draw pile ran short) draws 5
            self.filled = 0
            self.pending += [("draw", self.turn)] * HAND

    def _complete(self, slot: int):
        """Set a complete pile aside and pay its coins out one by one, the completer first, then
        round the table to the left ("MÜNZEN VERTEILEN")."""
        pile = self.building[slot]
        self.building[slot] = None
        self.completed += pile.cards
        n = self.num_players
        for i in range(pile.coins):
            self.coins[(self.turn + i) % n] += 1

    def _end_turn(self):
        n = self.num_players
        self.stall = 0 if self.stock_moved else self.stall + 1
        self.stock_moved = False
        if self.stall >= self.options["stall_rounds"] * n:
            self._end_round(None)  # D4: the round is a draw
            return
        self.turn = (self.turn + 1) % n
        self.turns += 1
        self.phase = PLAY
        self.filled = len(self.hands[self.turn])
        need = HAND - self.filled
        if need > 0:
            self.pending += [("draw", self.turn)] * need

    def _end_round(self, winner):
        points = [0] * self.num_players
        if winner is not None:
            left = sum(self.stock_down[q] + (self.stock_top[q] is not None)
                       for q in range(self.num_players) if q != winner)
            points[winner] = WIN_BASE + WIN_PER_CARD * left
        self.rounds_log.append((winner, points[winner] if winner is not None else 0))
        for q in range(self.num_players):
            self.totals[q] += points[q]
        self.winner, self.drawn = winner, winner is None
        self.pending = []
        self.phase = OVER
        if self.options["multi_round"] and max(self.totals) < self.options["target_score"]:
            if self.options["round_start"] == "rotate":  # D8 (the youngest, seat 0, starts otherwise)
                self.starter = (self.starter + 1) % self.num_players
            self._new_round()
        else:
            self.over = True

    # --- scores and views --------------------------------------------------------------------------
    def scores(self):
        return list(self.totals)

    def clone(self):
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.totals = list(self.totals)
        c.rounds_log = list(self.rounds_log)
        c.completed = list(self.completed)
        c.hands = [list(h) for h in self.hands]
        c.stock_top = list(self.stock_top)
        c.stock_down = list(self.stock_down)
        c.discards = [[list(d) for d in ds] for ds in self.discards]
        c.building = [None if b is None else b.copy() for b in self.building]
        c.coins = list(self.coins)
        c.pending = list(self.pending)
        return c

    def card_count(self) -> int:
        """Every card of the deck, wherever it is (the invariant: always ``TOTAL_CARDS``)."""
        return (self.pool.total + self.draw.total + len(self.completed) + sum(map(len, self.hands))
                + sum(c is not None for c in self.stock_top)
                + sum(len(d) for ds in self.discards for d in ds)
                + sum(len(b.cards) for b in self.building if b is not None))

    def coin_count(self) -> int:
        return sum(self.coins) + sum(b.coins for b in self.building if b is not None)

    def observation(self, player):
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise SpieltischError(f"no player {short(player)} in a game of {self.num_players} players")
        cp = self.current_player()
        obs = {
            "game": self.game.id,
            "viewer": player,
            # "deal": the round of a game of several ("über mehrere Runden spielen"); "round": the round
            # of turns in it (every player's first turn is round 1), what a review's decisions are
            # counted by; "turn_no": the turns begun in this deal
            "deal": self.round_no,
            "round": (self.turns - 1) // self.num_players + 1,
            "turn_no": self.turns,
            "totals": list(self.totals),
            "to_move": cp if cp >= 0 else None,
            "chance": ({"kind": self.pending[0][0], "player": self.pending[0][1]} if cp == CHANCE else None),
            "turn": self.turn,
            "phase": self.phase,
            "toll_due": self.toll_due,
            "toll_pile": self.toll_pile if self.phase == TOLL else None,
            "follow_pile": self.follow_pile if self.phase == FOLLOW else None,
            "coins": list(self.coins),
            "hand_sizes": [len(h) for h in self.hands],
            "hand_filled": self.filled,
            "stock_tops": list(self.stock_top),
            "stock_sizes": [self.stock_down[q] + (self.stock_top[q] is not None) for q in range(self.num_players)],
            "discards": [[list(d) for d in ds] for ds in self.discards],
            "building": [None if b is None else b.to_json() for b in self.building],
            "set_aside": list(self.completed),
            "draw_size": self.orig_left + self.draw.total,
            "reshuffles": self.reshuffles,
            "stall": self.stall,
            "stock_moved": self.stock_moved,
            "start_seat": self.starter,
            "winner": self.winner,
            "drawn_round": self.drawn,
            "deals": [list(r) for r in self.rounds_log],
            "terminal": cp == TERMINAL,
            "coin_symbols": PROVENANCE,
        }
        if player is not None:
            obs["hand"] = list(self.hands[player])
        return obs

    def hidden_from(self, viewer) -> Deck:
        """The cards ``viewer`` cannot see: the face-down pool, the reshuffled draw pile and the
        other players' hands."""
        counts = dict(self.pool.counts())
        for c, k in self.draw.counts().items():
            counts[c] = counts.get(c, 0) + k
        for q in range(self.num_players):
            if q != viewer:
                for c in self.hands[q]:
                    counts[c] = counts.get(c, 0) + 1
        return deck_of_counts(counts)

    def resample_hidden(self, viewer, rng):
        """Other hands, the reshuffled draw pile and the face-down pool drawn afresh from the cards
        ``viewer`` cannot see, every size kept. (After a reshuffle the viewer could in principle
        know that the new draw pile holds only cards of the completed piles; this sampler does not
        use that knowledge: all unseen cards are treated alike.)"""
        out = self.clone()
        unseen = self.hidden_from(viewer)
        for q in range(self.num_players):
            if q != viewer:
                cards, unseen = unseen.deal(len(self.hands[q]), rng)
                out.hands[q] = sorted(cards)
        cards, unseen = unseen.deal(self.draw.total, rng)
        out.draw = deck_of(cards)
        out.pool = unseen
        return out

    # --- refusals ----------------------------------------------------------------------------------
    def why_illegal(self, action) -> IllegalActionError:
        def no(rule, en, de, rule_de):
            return IllegalActionError(rule, en, de, rule_de)

        if type(action) not in ACTION_TYPES:
            return no("moves of the game", f"{short(action)} is not a move of Skip-Bo Masters",
                      f"{short(action)} ist kein Zug von Skip-Bo Masters", "Spielzüge")
        cp = self.current_player()
        if cp == CHANCE:
            if type(action) in (Draw, Reveal):
                return no("cards left", f"{action} is not possible: no such card is left face down",
                          f"„{action.label('de')}“ geht nicht: keine solche Karte ist mehr verdeckt", "verbliebene Karten")
            return no("turn order", f"a card is being drawn or turned up; '{action}' must wait",
                      f"gerade wird eine Karte gezogen oder aufgedeckt; „{action.label('de')}“ muss warten",
                      "Reihenfolge")
        if type(action) in (Draw, Reveal):
            return no("turn order", "cards are drawn by chance, not chosen by a player",
                      "Karten werden gezogen, nicht von einem Spieler gewählt", "Reihenfolge")
        p = self.turn
        if self.phase == TOLL and type(action) not in (PayToll, DeclineToll):
            return no("toll", f"first pay the toll of {self.toll_due} coins or decline it",
                      f"erst die Gebühr von {self.toll_due} Münzen zahlen oder ablehnen", "Gebühr")
        if type(action) in (PayToll, DeclineToll):
            if self.phase != TOLL:
                return no("toll", "no toll is due: only a card with coin symbols asks for one",
                          "es ist keine Gebühr fällig: nur eine Karte mit Münzsymbolen verlangt eine", "Gebühr")
            if self.coins[p] < self.toll_due:
                return no("toll", f"the toll is {self.toll_due} coins, you have {self.coins[p]}",
                          f"die Gebühr beträgt {self.toll_due} Münzen, du hast {self.coins[p]}", "Gebühr")
            return no("toll", f"the toll is exactly {self.toll_due} coins",
                      f"die Gebühr beträgt genau {self.toll_due} Münzen", "Gebühr")
        if self.phase == DISCARD and type(action) not in (Discard, EndTurn):
            return no("toll not paid", "the toll was not paid, so the playing phase is over: discard a card",
                      "die Gebühr wurde nicht gezahlt, das Ausspielen ist vorbei: lege eine Karte ab",
                      "Gebühr nicht gezahlt")
        if self.phase == FOLLOW and type(action) not in (Play, Buy):
            n = self.building[self.follow_pile].value + 1
            return no("replace a card", f"after replacing, the following card ({n}) must be played at once",
                      f"nach dem Ersetzen muss die nächstfolgende Karte ({n}) sofort gespielt werden",
                      "Karte ersetzen")
        if type(action) is Discard:
            if action.card not in self.hands[p]:
                return no("discard", f"there is no {card_name(action.card)} in your hand",
                          f"du hast keine {card_name(action.card, 'de')} auf der Hand", "Hilfsstapel")
            if type(action.pile) is not int or not 0 <= action.pile < DISCARDS:
                return no("discard", "there are four discard piles (1-4)", "es gibt vier Hilfsstapel (1-4)",
                          "Hilfsstapel")
            if is_wild(action.card) and not self.options["wild_discard"]:
                return no("discard (D1)", "in this game Skip-Bo cards may not be discarded",
                          "in dieser Partie dürfen Skip-Bo-Karten nicht abgelegt werden", "Hilfsstapel (D1)")
            if self._must_play_first(p):
                return self._must_play_refusal(p)
            return no("discard", "the empty discard piles are alike: use the first empty one",
                      "leere Hilfsstapel sind gleich: nimm den ersten leeren", "Hilfsstapel")
        if type(action) is EndTurn:
            if not self.hands[p] and self._must_play_first(p):
                return self._must_play_refusal(p)
            return no("discard", "a turn ends with one hand card on a discard pile",
                      "ein Zug endet mit einer Handkarte auf einem Hilfsstapel", "Hilfsstapel")
        if type(action) in (Play, Buy, Replace):
            pile = action.pile
            if type(pile) is not int or not 0 <= pile < PILES:
                return no("building piles", "there are at most four building piles (1-4)",
                          "es gibt höchstens vier Ablagestapel (1-4)", "Ablagestapel")
            if self.phase == FOLLOW and pile != self.follow_pile:
                return no("replace a card", f"the following card must go on building pile {self.follow_pile + 1}",
                          f"die nächstfolgende Karte muss auf Ablagestapel {self.follow_pile + 1}", "Karte ersetzen")
            b = self.building[pile]
            need = 1 if b is None else b.value + 1
            if b is None and not any(t[0] == pile for t in self._targets()):
                return no("building piles", "a new building pile goes to the first free place",
                          "ein neuer Ablagestapel kommt auf den ersten freien Platz", "Ablagestapel")
            if type(action) is Replace:
                if need > TOP - 1:
                    return no("replace a card", "a 12 cannot be replaced: no card follows it",
                              "eine 12 kann nicht ersetzt werden: keine Karte folgt ihr", "Karte ersetzen")
                if not self.options["replace_held"] and self._holds(p, need):
                    return no("replace a card (D6)",
                              f"you can play a {need} or a Skip-Bo card yourself: coins replace only a card you need",
                              f"du kannst selbst eine {need} oder eine Skip-Bo-Karte legen: Münzen ersetzen nur "
                              "eine Karte, die du brauchst", "Karte ersetzen (D6)")
                cost = self.game.replace_cost(need)
                if action.cost != cost:
                    return no("replace a card", f"replacing the {need} costs {cost} coins",
                              f"die {need} zu ersetzen kostet {cost} Münzen", "Karte ersetzen")
                if self.coins[p] < cost:
                    return no("replace a card", f"replacing the {need} costs {cost} coins, you have {self.coins[p]}",
                              f"die {need} zu ersetzen kostet {cost} Münzen, du hast {self.coins[p]}", "Karte ersetzen")
                return no("replace a card", f"after replacing the {need} you could not play a {need + 1} or a Skip-Bo card",
                          f"nach dem Ersetzen der {need} könntest du keine {need + 1} und keine Skip-Bo-Karte legen",
                          "Karte ersetzen")
            if type(action) is Buy:
                if self.coins[p] < 1:
                    return no("buy a card", "buying a card costs 1 coin and you have none",
                              "eine Karte zu kaufen kostet 1 Münze, du hast keine", "Karte kaufen")
                if action.owner == p:
                    return no("buy a card", "cards are bought from other players; play your own",
                              "gekauft wird bei Mitspielern; eigene Karten spielst du einfach", "Karte kaufen")
            if type(action.card) is not int or not fits(action.card, need):
                return no("building piles", f"building pile {pile + 1} needs a {need} (or a Skip-Bo card), "
                                            f"not {card_name(action.card)}",
                          f"Ablagestapel {pile + 1} braucht eine {need} (oder eine Skip-Bo-Karte), "
                          f"nicht {card_name(action.card, 'de')}", "Ablagestapel")
            return no("top cards", f"{card_name(action.card)} is not there to be played",
                      f"{card_name(action.card, 'de')} liegt dort nicht zum Spielen bereit",
                      "oberste Karte")
        return super().why_illegal(action)

    def _must_play_first(self, p: int) -> bool:
        return self.phase == PLAY and self.options["must_play"] and self._playable_own(p) is not None

    def _must_play_refusal(self, p: int) -> IllegalActionError:
        """D5: the turn cannot end while an own card can be played; names one such play."""
        play = self._playable_own(p)
        return IllegalActionError(
            "must play (D5)",
            f"you can still play a card (for example: {play.label('en')}); in this game every card that can be "
            "played is played before the turn ends",
            f"du kannst noch eine Karte legen (zum Beispiel: {play.label('de')}); in dieser Partie wird jede "
            "spielbare Karte gelegt, bevor der Zug endet",
            "Ausspielpflicht (D5)")


SkipBoMasters.state_class = SkipBoState


# --- determinization ------------------------------------------------------------------------------

def unseen_cards(observation: dict) -> Deck:
    """The cards the observation's viewer cannot see (other hands, the draw pile, face-down stock
    cards), computed from the observation alone."""
    seen = list(observation.get("hand", ()))
    seen += [c for c in observation["stock_tops"] if c is not None]
    seen += [c for ds in observation["discards"] for d in ds for c in d]
    seen += [c for b in observation["building"] if b is not None for c in b["cards"]]
    seen += observation["set_aside"]
    return FULL_DECK.remove_all(seen)


def determinize(game: SkipBoMasters, observation: dict, rng) -> SkipBoState:
    """A full state that shows its viewer exactly ``observation``; everything the viewer cannot see
    is drawn from ``unseen_cards(observation)``. Bots and the advisor plan on such states: they never
    read the true one."""
    viewer = observation["viewer"]
    n = game.num_players
    s = object.__new__(SkipBoState)
    State.__init__(s, game)
    s.totals = list(observation["totals"])
    s.round_no = observation["deal"]
    s.turns = observation["turn_no"]
    s.rounds_log = [tuple(r) for r in observation["deals"]]
    s.starter = observation["start_seat"]
    s.over = observation["terminal"]
    s.turn, s.phase = observation["turn"], observation["phase"]
    s.toll_due = observation["toll_due"]
    s.toll_pile = observation["toll_pile"] if observation["toll_pile"] is not None else -1
    s.follow_pile = observation["follow_pile"] if observation["follow_pile"] is not None else -1
    s.coins = list(observation["coins"])
    s.stock_top = list(observation["stock_tops"])
    s.stock_down = [observation["stock_sizes"][q] - (s.stock_top[q] is not None) for q in range(n)]
    s.discards = [[list(d) for d in ds] for ds in observation["discards"]]
    s.building = []
    for b in observation["building"]:
        if b is None:
            s.building.append(None)
        else:
            pile = Pile()
            pile.cards, pile.value, pile.coins, pile.replaced = list(b["cards"]), b["value"], b["coins"], list(b["replaced"])
            s.building.append(pile)
    s.completed = list(observation["set_aside"])
    s.reshuffles = observation["reshuffles"]
    s.stall = observation["stall"]
    s.stock_moved = observation["stock_moved"]
    s.filled = observation["hand_filled"]
    s.winner, s.drawn = observation["winner"], observation["drawn_round"]
    unseen = unseen_cards(observation)
    s.hands = [[] for _ in range(n)]
    for q in range(n):
        if q == viewer:
            s.hands[q] = list(observation["hand"])
        else:
            cards, unseen = unseen.deal(observation["hand_sizes"][q], rng)
            s.hands[q] = sorted(cards)
    size = observation["draw_size"]
    if s.reshuffles:
        s.orig_left = 0
        cards, unseen = unseen.deal(size, rng)
        s.draw = deck_of(cards)
    else:
        s.orig_left = size
        s.draw = deck_of(())
    s.pool = unseen
    chance = observation["chance"]
    s.pending = []
    if chance is not None:  # only what the observation shows: the draw in progress goes on from here
        s.pending = [(chance["kind"], chance["player"])]
    return s


# --- text ----------------------------------------------------------------------------------------

def render(obs: dict, lang: str = "en") -> str:
    de = lang == "de"
    n = len(obs["coins"])
    lines = []
    head = (f"Runde {obs['deal']}" if de else f"Round {obs['deal']}")
    if any(obs["totals"]):
        head += (" — Punkte: " if de else " — points: ") + " ".join(map(str, obs["totals"]))
    lines.append(head + ("  (Münzsymbole: Rekonstruktion)" if de else "  (coin symbols: reconstruction)"))
    piles = []
    for i, b in enumerate(obs["building"]):
        if b is None:
            piles.append(f"[{i + 1}: –]")
        else:
            coins = f" +{b['coins']}¢" if b["coins"] else ""
            piles.append(f"[{i + 1}: {b['value']}{coins}]")
    lines.append(("Ablagestapel " if de else "building piles ") + " ".join(piles)
                 + (f"  Nachziehstapel {obs['draw_size']}" if de else f"  draw pile {obs['draw_size']}"))
    for q in range(n):
        top = obs["stock_tops"][q]
        disc = " ".join("[" + ",".join(card_name(c, lang) for c in d[-3:]) + "]" for d in obs["discards"][q])
        me = (" (du)" if de else " (you)") if obs["viewer"] == q else ""
        who = f"Spieler {q + 1}{me}" if de else f"Player {q + 1}{me}"
        stock = f"{card_name(top, lang) if top is not None else '–'} ({obs['stock_sizes'][q]})"
        lines.append(f"{who}: " + (f"Spielerstapel {stock}, Münzen {obs['coins'][q]}, Hand {obs['hand_sizes'][q]}, "
                                    f"Hilfsstapel {disc}" if de else
                                    f"stock pile {stock}, coins {obs['coins'][q]}, hand {obs['hand_sizes'][q]}, "
                                    f"discard piles {disc}"))
    if "hand" in obs:
        lines.append(("Deine Hand: " if de else "Your hand: ") + (", ".join(card_name(c, lang) for c in obs["hand"]) or "–"))
    if obs["terminal"]:
        w = obs["winner"]
        if w is None:
            lines.append("Unentschieden (Stillstand, D4)" if de else "Draw (stalled, D4)")
        else:
            lines.append(f"Spieler {w + 1} gewinnt" if de else f"Player {w + 1} wins")
    elif obs["chance"] is not None:
        c = obs["chance"]
        verb = ("zieht" if c["kind"] == "draw" else "deckt auf") if de else ("draws" if c["kind"] == "draw" else "turns up")
        lines.append(f"Spieler {c['player'] + 1} {verb}" if de else f"Player {c['player'] + 1} {verb}")
    else:
        t = obs["turn"] + 1
        phase = obs["phase"]
        what = {PLAY: ("spielt", "plays"), FOLLOW: ("muss die nächstfolgende Karte spielen", "must play the following card"),
                TOLL: (f"Gebühr {obs['toll_due']}?", f"toll {obs['toll_due']}?"),
                DISCARD: ("legt ab", "discards")}.get(phase, ("", ""))
        lines.append(f"Spieler {t} {what[0]}" if de else f"Player {t} {what[1]}")
    return "\n".join(lines)
