"""One advice contract for every game, and game review on top of it.

``game.advise(observation) -> Advice``: every option of the decision the observation shows, with its
value — an exact ``Fraction`` where the game can be solved, otherwise an ``Estimate`` with a 95 %
confidence interval. Options whose values cannot be told apart (equal fractions, or estimates whose
intervals overlap the best one's) are all marked best: a tie is shown as a tie. The advisor gets the
observation only, so it cannot read what its player may not see.

``review(match)`` replays a finished game and asks the advisor at every decision of a player: the
chosen move's value against the best one's — where were expected points lost?
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import SpieltischError
from .game import CHANCE


@dataclass(frozen=True)
class Estimate:
    """A simulated value: mean of ``n`` samples with a 95 % confidence interval [lo, hi]."""

    mean: float
    lo: float
    hi: float
    n: int

    def to_json(self) -> dict:
        return {"mean": self.mean, "ci95": [self.lo, self.hi], "n": self.n}


def value_json(value) -> dict:
    if isinstance(value, Estimate):
        return value.to_json()
    f = Fraction(value)
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}


def point(value) -> float:
    """A value as one number (for sorting and charts)."""
    return value.mean if isinstance(value, Estimate) else float(value)


@dataclass(frozen=True)
class Option:
    action: Any
    value: Fraction | Estimate
    best: bool  # the best option, or one that cannot be told apart from it
    label: dict  # {"de": ..., "en": ...}
    note: dict | None = None  # how the option comes about, {"de": ..., "en": ...} (e.g. the arithmetic)

    def to_json(self) -> dict:
        out = {"action": self.action.to_json(), "label": dict(self.label), "value": value_json(self.value),
               "best": self.best}
        if self.note:
            out["note"] = dict(self.note)
        return out


@dataclass(frozen=True)
class Advice:
    """Every option of one decision, best first."""

    options: tuple
    exact: bool
    method: dict  # how the values were found, {"de": ..., "en": ...}
    objective: dict  # what the values measure, {"de": ..., "en": ...}

    @property
    def best(self) -> list:
        """The actions marked best (more than one when they tie)."""
        return [o.action for o in self.options if o.best]

    def option_for(self, action) -> Option:
        for o in self.options:
            if o.action == action and type(o.action) is type(action):
                return o
        raise SpieltischError(f"{action!s} is not one of the options advised here")

    def to_json(self) -> dict:
        return {"exact": self.exact, "method": dict(self.method), "objective": dict(self.objective),
                "options": [o.to_json() for o in self.options]}


def make_advice(valued, *, method: dict, objective: dict, notes=None) -> Advice:
    """An ``Advice`` from ``(action, value)`` pairs, all values exact or all estimates; ``notes``
    maps an action to its explanation ({"de": ..., "en": ...}).

    Exact: the options equal to the maximum are best. Estimates: every option whose interval reaches
    the best mean's interval is best too (it cannot be told apart at this number of samples)."""
    valued = list(valued)
    if not valued:
        raise SpieltischError("there is no decision to advise on here")
    estimates = [isinstance(v, Estimate) for _, v in valued]
    if any(estimates) and not all(estimates):
        raise TypeError("an advice mixes exact values and estimates")
    valued.sort(key=lambda av: -point(av[1]))
    top = valued[0][1]
    if all(estimates):
        best = [v.hi >= top.lo for _, v in valued]
    else:
        best = [v == top for _, v in valued]
    notes = notes or {}
    options = tuple(Option(a, v, b, {"de": _label(a, "de"), "en": _label(a, "en")}, notes.get(a))
                    for (a, v), b in zip(valued, best))
    return Advice(options, exact=not all(estimates), method=dict(method), objective=dict(objective))


def _label(action, lang):
    label = getattr(action, "label", None)
    return label(lang) if label is not None else str(action)


# --- review --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """One decision of a finished game, valued by the advisor."""

    index: int  # position of the action in the record
    player: int
    chosen: Option
    best: Option  # the best option (the first of the ties)
    options: int  # how many options there were
    loss: Fraction | float  # best value − chosen value (0 when the choice was among the best)
    exact: bool

    def to_json(self) -> dict:
        return {"index": self.index, "player": self.player, "options": self.options,
                "chosen": self.chosen.to_json(), "best": self.best.to_json(),
                "chosen_is_best": self.chosen.best, "loss": value_json(self.loss) if self.exact else self.loss}


def review(match, progress=None, **settings) -> list[Decision]:
    """Value every player decision of ``match`` (replayed from its record) with the game's advisor.

    Decisions with a single option are skipped (nothing to choose). ``settings`` go to the advisor
    (a simulation's size, its seed)."""
    from .match import Match

    game = match.game
    if game.advisor is None:
        raise SpieltischError(f"{game.id} has no advisor, so its games cannot be reviewed")
    replay = Match(game, seed=match.seed)
    todo = [i for i, (a, p) in enumerate(zip(match.actions, match.movers)) if p != CHANCE]
    out = []
    done = 0
    for i, (action, mover) in enumerate(zip(match.actions, match.movers)):
        if mover != CHANCE and len(replay.state.legal_actions()) > 1:
            advice = game.advise(replay.state.observation(mover), **settings)
            chosen = advice.option_for(action)
            best = advice.options[0]
            if chosen.best:
                loss = Fraction(0) if advice.exact else 0.0
            elif advice.exact:
                loss = best.value - chosen.value
            else:
                loss = best.value.mean - chosen.value.mean
            out.append(Decision(i, mover, chosen, best, len(advice.options), loss, advice.exact))
        if mover != CHANCE:
            done += 1
            if progress:
                progress(done, len(todo))
        replay.state.apply_action(action)
        replay.actions.append(action)
        replay.movers.append(mover)
    return out
