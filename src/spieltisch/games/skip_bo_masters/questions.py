"""Skip-Bo Masters' lesson questions (notebooks/*/skip-bo-masters.ipynb), declared once. All three
play at one table: two bots' seeded game, stopped as player 1 begins a turn (``positions``), seen
from player 1. Every number hangs on the reconstructed deck (12 of each number, 24 Skip-Bo cards)."""

from __future__ import annotations

import math
from fractions import Fraction

from ...core.questions import ByHand, Check, Counted, Question, Reading, Rounded, Simulation, share_bins
from . import analysis, positions
from . import lesson_numbers as numbers
from .engine import HAND

FAMILY = "skip-bo-masters"
OPPONENT = 1  # player 2, seen from player 1


def _table():
    """The lesson's table, built afresh (the analysis reads it, and nothing may carry over)."""
    state = positions.waiting_for_a_card()
    return state, state.observation(0)


def _draw() -> tuple:
    _, obs = _table()
    return obs, positions.needed_value(obs), HAND - len(obs["hand"])


def _needed_soon() -> object:
    obs, need, k = _draw()
    return analysis.chance_within(obs, need, k)


def _one_card():
    """P(one drawn card fits) as the lesson counts it: g fitting of the N unseen cards (34/154), the
    analysis's own counts and chance."""
    obs, need, _ = _draw()
    good, unseen = analysis.needed_among_unseen(obs, need)
    out = Counted(good, unseen)
    assert out == analysis.chance_within(obs, need, 1)
    return out


def _none_of(good: int, unseen: int, k: int) -> Counted:
    """P(none of ``k`` cards drawn without replacement from ``unseen`` is one of the ``good``) as the
    tree multiplies it: (unseen − good)·(unseen − good − 1)·… over unseen·(unseen − 1)·…, unreduced."""
    top = bottom = 1
    for j in range(k):
        top, bottom = top * (unseen - good - j), bottom * (unseen - j)
    out = Counted(top, bottom)
    assert 1 - out == analysis.hypergeometric_at_least_one(unseen, good, k)
    return out


def _complement(none: Counted) -> Counted:
    """1 − P(none), over the same count: 1 − 14280/23562 = 9282/23562."""
    return Counted(none.of - none.total, none.of)


def _none_soon() -> Counted:
    obs, need, k = _draw()
    good, unseen = analysis.needed_among_unseen(obs, need)
    out = _none_of(good, unseen, k)
    assert 1 - out == _needed_soon()
    return out


def _factors(good: int, unseen: int, k: int) -> tuple:
    """The tree's factors along the path "none": (unseen − good − j) over (unseen − j), one per card."""
    out = tuple(Counted(unseen - good - j, unseen - j) for j in range(k))
    assert _none_of(good, unseen, k) == math.prod(out)
    return out


def _draw_fills() -> dict:
    """Question 1's worksheet lines filled in: N and g, then the complement of "none fits"."""
    one, none = _one_card(), _none_soon()
    return {0: (one.of, one.total), 1: (none, _complement(none), Rounded(_complement(none)))}


def _upper_fills() -> dict:
    """Question 2's worksheet lines filled in: the smallest hands, the five factors of "no 5 and no
    Skip-Bo card", then the upper bound and why."""
    good, unseen = _upper_counts()
    none = _none_upper()
    return {0: (_smallest_hands(),), 1: (*_factors(good, unseen, HAND), Rounded(none)),
            2: (Rounded(_complement(none)), {lang: why.split(" – ", 1)[1] for lang, why in BOUND_WHY["upper"].items()})}


def _coins_fills() -> dict:
    """Question 3's worksheet lines filled in: the single cards, the lower bound, the engine's line
    without a fitting card, and both readings."""
    cards = tuple({lang: _card(v, lang) for lang in ("de", "en")} for v in _single_card_values())
    none = _none_lower()
    return {0: cards, 1: (Fraction(none), Rounded(_complement(none))), 2: (_without_fitting_card(),),
            3: (Rounded(_with_coins()), Rounded(_one_card_lower_bound()))}


def _card(v: int, lang: str) -> str:
    return ("Skip-Bo-Karte" if lang == "de" else "Skip-Bo card") if v == 0 else str(v)


def _smallest_hands() -> dict:
    """Question 2's smallest hands, from the game's search (analysis.hand_needs), in words."""
    _, obs = _table()
    hands = numbers.smallest_hands(obs, OPPONENT)
    return {lang: "; ".join(" + ".join(_card(v, lang) for v in hand) for hand in hands) for lang in ("de", "en")}


def _upper_counts() -> tuple:
    """Question 2's count: (the 5s and Skip-Bo cards, the cards) among those player 1 cannot see."""
    _, obs = _table()
    return analysis.needed_among_unseen(obs, numbers.first_step(obs, OPPONENT))


def _none_upper() -> Counted:
    return _none_of(*_upper_counts(), HAND)


def _none_lower() -> Counted:
    _, obs = _table()
    first = numbers.first_step(obs, OPPONENT)
    good, unseen = numbers.among_unseen(obs, {first, first + 1})
    return _none_of(good, unseen, HAND)


def _single_card_values() -> tuple:
    """Question 3: the cards one of which is enough – the first missing step, the one after it, a
    Skip-Bo card (0; the lesson's lower bound counts exactly these)."""
    _, obs = _table()
    first = numbers.first_step(obs, OPPONENT)
    return first, first + 1, 0


def _single_cards() -> dict:
    return {lang: ", ".join(_card(v, lang) for v in _single_card_values()) for lang in ("de", "en")}


def _without_fitting_card() -> dict:
    """Question 3, no fitting card in hand: the engine's line for that case (coin_cases, case A), in words."""
    state, obs = _table()
    (_, _, [(_, line)]) = numbers.coin_cases(state.game, obs, OPPONENT)[1][0]
    words = {"de": [], "en": []}
    for a in line:
        kind = type(a).__name__
        if kind == "Replace":
            words["de"].append(f"die {a.cost} mit {a.cost} Münzen ersetzen")
            words["en"].append(f"replace the {a.cost} with {a.cost} coins")
        elif kind == "Buy":
            words["de"].append(f"die {a.card % 100} von Spieler {a.owner + 1} kaufen (1 Münze)")
            words["en"].append(f"buy player {a.owner + 1}'s {a.card % 100} (1 coin)")
        elif kind == "Play":
            words["de"].append(f"die {a.card % 100} legen")
            words["en"].append(f"play the {a.card % 100}")
    return {lang: ", ".join(w) for lang, w in words.items()}


BOUND_WHY = {"upper": {"de": "obere Grenze – notwendig, aber nicht hinreichend (die 6 fehlt noch)",
                       "en": "upper bound – necessary but not sufficient (the 6 is still missing)"}}


def _drawn(n: int, seed: int) -> list:
    obs, need, k = _draw()
    return analysis.simulated_within(obs, need, k, n, seed=seed)


def _one_card_lower_bound():
    """P(a 5, a 6 or a Skip-Bo card among player 2's 5 cards): what a single card makes possible."""
    _, obs = _table()
    first = numbers.first_step(obs, OPPONENT)
    good, unseen = numbers.among_unseen(obs, {first, first + 1})
    return analysis.hypergeometric_at_least_one(unseen, good, HAND)


def _upper_bound():
    """P(a 5 or a Skip-Bo card among player 2's 5 cards): necessary to play the 7 without coins."""
    good, unseen = _upper_counts()
    return analysis.hypergeometric_at_least_one(unseen, good, HAND)


def _with_coins():
    state, obs = _table()
    return numbers.coin_cases(state.game, obs, OPPONENT)[0]


def _with_coins_sim(n: int, seed: int) -> list:
    state, obs = _table()
    first = numbers.first_step(obs, OPPONENT)
    return [bool(b) for _, b in numbers.simulated_with_coins(state.game, obs, OPPONENT, {first, first + 1}, n, seed=seed)]


MODEL = {"de": "Modell: Die beiden Ablagestapel liegen noch bei 4 wie jetzt; die 5 Handkarten von Spieler 2 gelten als "
               "5 zufällige Karten aus denen, die Spieler 1 nicht sieht (eine davon hat er behalten – eine Annahme).",
         "en": "Model: the two building piles are still at 4 as now; player 2's 5 cards count as 5 random cards from "
               "those player 1 cannot see (he kept one of them – an assumption)."}
QUARTERS = share_bins(0, 25, 50, 75, 100)
DECILES = share_bins(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)

QUESTIONS = (
    Question(
        game="skip-bo-masters", family=FAMILY, id="skip-bo-masters-q1", key="q1", kind="share", core=True,
        title={"de": "Skip-Bo Masters, Frage 1: Kommt die Karte, die ich brauche?",
               "en": "Skip-Bo Masters, question 1: will the card I need come?"},
        prompt={"de": "Spieler 1 zieht gleich 2 Karten. Wie wahrscheinlich ist eine 5 oder eine Skip-Bo-Karte dabei?",
                "en": "Player 1 is about to draw 2 cards. How likely is a 5 or a Skip-Bo card among them?"},
        notes={"de": "Annahme: Jede Karte, die Spieler 1 nicht sieht, ist mit gleicher Wahrscheinlichkeit die nächste "
                     "(auch die Handkarte von Spieler 2).",
               "en": "Assumption: every card player 1 cannot see is equally likely to be the next one (player 2's "
                     "card in hand too)."},
        bins=QUARTERS, unit="share",
        bin_names={"de": ["weniger als 25 %", "25 % bis 50 %", "50 % bis 75 %", "mehr als 75 %"],  # the notebook's words
                   "en": ["less than 25%", "25% to 50%", "50% to 75%", "more than 75%"]},
        exact=_needed_soon,
        exact_of={"de": "P(eine 5 oder Skip-Bo-Karte unter den 2 neuen Karten)",
                  "en": "P(a 5 or a Skip-Bo card among the 2 new cards)"},
        simulation=Simulation(_drawn, n=3000, seed=2026, what={"de": "2 Karten aus den ungesehenen gezogen",
                                                               "en": "2 cards drawn from the unseen ones"}),
        by_hand=ByHand(
            "tree",
            {"de": "Zähle N (Karten, die du nicht siehst) und g (passende davon); dann der Baum zweier Karten ohne "
                   "Zurücklegen und das Gegenereignis.",
             "en": "Count N (the cards you cannot see) and g (the fitting ones); then the tree of two cards without "
                   "replacement and the complement."},
            spec={"tree": {"label": {"de": "Zug", "en": "turn"}, "depth": 2,
                           "branches": [{"de": "passt", "en": "fits"}, {"de": "keine", "en": "none"}]}},
            checks=(Check({"de": "N", "en": "N"}, lambda: _one_card().of, line=0),
                    Check({"de": "g", "en": "g"}, lambda: _one_card().total, line=0),
                    Check({"de": "Eine Karte: P(sie passt)", "en": "One card: P(it fits)"},
                          _one_card),
                    Check({"de": "P(keine passt)", "en": "P(none fits)"}, _none_soon, line=1),
                    Check({"de": "P(mindestens eine passt)", "en": "P(at least one fits)"},
                          lambda: _complement(_none_soon()), line=1)),
            fills=_draw_fills),
        worksheet={"de": ["N = ______   g = ______", "P(mindestens eine passt) = 1 − ______ = ______ ≈ ______ %"],
                   "en": ["N = ______   g = ______", "P(at least one fits) = 1 − ______ = ______ ≈ ______%"]},
    ),
    Question(
        game="skip-bo-masters", family=FAMILY, id="skip-bo-masters-q2", key="q2", kind="share", core=True,
        title={"de": "Skip-Bo Masters, Frage 2: die 7 mit eigenen Karten",
               "en": "Skip-Bo Masters, question 2: the 7 with their own cards"},
        prompt={"de": "Kann Spieler 2 seine 7 im nächsten Zug mit eigenen Karten legen – ohne Münzen, die Ablagestapel "
                      "wie jetzt bei 4, seine 5 Handkarten wie zufällig? Wie wahrscheinlich ist das?",
                "en": "Can player 2 play their 7 in their next turn with their own cards – no coins, the building "
                      "piles at 4 as now, their 5 cards in hand treated as random? How likely is that?"},
        notes=MODEL,
        bins=DECILES, unit="share",
        exact=lambda: (lambda o: analysis.chance_stock_playable(o, OPPONENT))(_table()[1]),
        exact_of={"de": "P(Spieler 2 legt die 7 mit eigenen Karten), im Modell",
                  "en": "P(player 2 plays the 7 with their own cards), in the model"},
        simulation=Simulation(lambda n, seed: analysis.simulated_stock_playable(_table()[1], OPPONENT, n, seed=seed),
                              n=3000, seed=2026, what={"de": "5 zufällige Handkarten für Spieler 2",
                                                       "en": "5 random cards for player 2"}),
        by_hand=ByHand(
            "calc",
            {"de": "Schreibe die kleinsten Hände auf, mit denen Spieler 2 die 7 legen kann. Dann mit dem Gegenereignis: "
                   "mindestens eine 5 oder Skip-Bo-Karte unter 5 Karten – eine notwendige Bedingung, also eine obere "
                   "Grenze.",
             "en": "Write down the smallest hands with which player 2 can play the 7. Then with the complement: at "
                   "least one 5 or Skip-Bo card among 5 cards – a necessary condition, so an upper bound."},
            checks=(Check({"de": "kleinste Hände", "en": "smallest hands"}, _smallest_hands, line=0),
                    Check({"de": "P(keine 5 und keine Skip-Bo-Karte unter 5)", "en": "P(no 5 and no Skip-Bo card among 5)"},
                          _none_upper, line=1),
                    Check({"de": "obere Grenze: P(mindestens eine 5 oder Skip-Bo-Karte unter 5)",
                           "en": "upper bound: P(at least one 5 or Skip-Bo card among 5)"},
                          lambda: _complement(_none_upper()), line=2),
                    Check({"de": "weil", "en": "because"}, lambda: BOUND_WHY["upper"], line=2)),
            fills=_upper_fills),
        worksheet={"de": ["Kleinste Hände: ____________________________________________",
                          "P(keine 5 und keine Skip-Bo-Karte unter 5) = ____ · ____ · ____ · ____ · ____ ≈ ______ %",
                          "P(mindestens eine) ≈ ______ %: obere / untere Grenze, weil ____________________"],
                   "en": ["Smallest hands: ____________________________________________",
                          "P(no 5 and no Skip-Bo card among 5) = ____ × ____ × ____ × ____ × ____ ≈ ______%",
                          "P(at least one) ≈ ______%: upper / lower bound, because ____________________"]},
    ),
    Question(
        game="skip-bo-masters", family=FAMILY, id="skip-bo-masters-q3", key="q3", kind="share", core=True,
        title={"de": "Skip-Bo Masters, Frage 3: und mit seinen 9 Münzen?",
               "en": "Skip-Bo Masters, question 3: and with their 9 coins?"},
        prompt={"de": "Spieler 2 hat 9 Münzen (ersetzen: so viele Münzen wie die Zahl, dann sofort die folgende Karte; "
                      "kaufen: 1 Münze für eine fremde oberste Karte). Wie wahrscheinlich legt er seine 7 jetzt?",
                "en": "Player 2 has 9 coins (replacing: as many coins as the number, then at once the following card; "
                      "buying: 1 coin for another player's top card). How likely do they play their 7 now?"},
        notes={"de": MODEL["de"] + " Die Anleitung sagt nur, dass nach dem Ersetzen sofort die folgende Karte kommt – "
                                   "nicht, woher. Lesart „auch gekauft“ (so spielt die Engine, der exakte Wert): Sie darf "
                                   "auch eine gekaufte sein. Lesart „nur eigene“: Sie muss eine eigene sein; dann ist die "
                                   "Antwort die untere Grenze (bei den Lesarten).",
               "en": MODEL["en"] + " The rulebook only says that after replacing the following card comes at once – "
                                   "not where from. Reading “bought too” (as the engine plays it, the exact value): it may "
                                   "be a bought one. Reading “own cards only”: it must be one's own; then the answer is the "
                                   "lower bound (under the readings)."},
        bins=DECILES, unit="share",
        exact=_with_coins,
        exact_of={"de": "P(Spieler 2 legt die 7), Lesart „auch gekauft“: die folgende Karte darf gekauft sein",
                  "en": "P(player 2 plays the 7), reading “bought too”: the following card may be bought"},
        readings=(Reading({"de": "Lesart „nur eigene“: nach dem Ersetzen nur eine eigene Karte – er braucht eine 5, 6 "
                                 "oder Skip-Bo-Karte unter 5 Handkarten",
                           "en": "Reading “own cards only”: after replacing only one's own card – they need a 5, 6 "
                                 "or Skip-Bo card among 5 cards in hand"}, _one_card_lower_bound,
                          name={"de": "„nur eigene“", "en": "“own cards only”"}),),
        simulation=Simulation(_with_coins_sim, n=200, seed=2026,
                              what={"de": "5 zufällige Handkarten, die Engine probiert jede Zugfolge mit Münzen",
                                    "en": "5 random cards, the engine tries every sequence of moves with coins"}),
        by_hand=ByHand(
            "calc",
            {"de": "Welche einzelne Karte reicht? Eine 5, 6 oder Skip-Bo-Karte (hinreichend: eine untere Grenze, mit dem "
                   "Gegenereignis). Und ganz ohne passende Karte: die 5 ersetzen, die 6 von Spieler 1 kaufen?",
             "en": "Which single card is enough? A 5, 6 or Skip-Bo card (sufficient: a lower bound, with the "
                   "complement). And with no fitting card at all: replace the 5, buy player 1's 6?"},
            checks=(Check({"de": "eine einzige Karte reicht", "en": "one single card is enough"}, _single_cards, line=0),
                    Check({"de": "P(keine 5, 6 und keine Skip-Bo-Karte unter 5)", "en": "P(no 5, 6 and no Skip-Bo card among 5)"},
                          _none_lower, line=1),
                    Check({"de": "untere Grenze: P(mindestens eine 5, 6 oder Skip-Bo-Karte unter 5)",
                           "en": "lower bound: P(at least one 5, 6 or Skip-Bo card among 5)"},
                          lambda: _complement(_none_lower()), line=1),
                    Check({"de": "ganz ohne passende Karte (so spielt die Engine)",
                           "en": "with no fitting card at all (as the engine plays it)"}, _without_fitting_card, line=2),
                    Check({"de": "Lesart „auch gekauft“", "en": "reading “bought too”"}, _with_coins, line=3),
                    Check({"de": "Lesart „nur eigene“", "en": "reading “own cards only”"}, _one_card_lower_bound, line=3)),
            fills=_coins_fills),
        worksheet={"de": ["Eine einzige Karte reicht: eine ____, eine ____ oder eine ____________",
                          "P(mindestens eine davon unter 5) = 1 − ______ ≈ ______ %: obere / untere Grenze",
                          "Ganz ohne passende Karte: ______________________________________",
                          "Lesart „auch gekauft“: P = ______ %    Lesart „nur eigene“: P = ______ %"],
                   "en": ["One single card is enough: a ____, a ____ or a ____________",
                          "P(at least one of them among 5) = 1 − ______ ≈ ______%: upper / lower bound",
                          "With no fitting card at all: ______________________________________",
                          "Reading “bought too”: P = ______%    Reading “own cards only”: P = ______%"]},
    ),
)
