"""Who begins, in both Würfel Joker games (rules only, shared by the two engines).

Rulebook, Spiel 1: "Jeder Spieler würfelt zunächst mit 3 Würfeln und addiert seine Augenzahl. Der
Spieler mit der höchsten Augenzahl beginnt." Spiel 2: "Jeder Spieler würfelt mit beiden Würfeln einmal
und addiert die Augen." The rulebook does not say what a tie at the top means; the project's decision:
only the players tied for the highest sum throw again, in seat order, until one sum is highest.

An engine keeps the start as ``throws``: ``(start_round, player, dice)`` in the order thrown (a list
while the start throws go on, appended to, so a record of many ties replays in linear time; a tuple
once the starter is known), plus the players still to throw in the current start round
(``throwers``; the first of them throws now). With one player there is no start throw.
"""

from __future__ import annotations

from ...core.errors import IllegalActionError


def after_throw(throws: tuple, start_round: int, throwers: tuple):
    """The start after the latest throw (the last entry of ``throws``, by ``throwers[0]``):
    ``(throwers left, start round, starter)``; ``starter`` is None while nobody is highest yet."""
    rest = throwers[1:]
    if rest:
        return rest, start_round, None
    # this round's throws are the last ones: read back to its start, not through every earlier tie
    sums = []
    for r, p, dice in reversed(throws):
        if r != start_round:
            break
        sums.append((p, sum(dice)))
    sums.reverse()
    top = max(s for _, s in sums)
    tied = tuple(p for p, s in sums if s == top)
    if len(tied) == 1:
        return (), start_round, tied[0]
    return tied, start_round + 1, None


def observation(throws: tuple, throwers: tuple, starter) -> dict:
    """The public start: every throw with its sum, who still throws, and who begins (None: open)."""
    return {
        "start_throws": [{"round": r, "player": p, "dice": list(d), "sum": sum(d)} for r, p, d in throws],
        "start_throwers": list(throwers),
        "starter": starter,
    }


def _player(p: int, de: bool) -> str:
    return f"{'Spieler' if de else 'player'} {p + 1}"


def render_lines(obs: dict, lang: str) -> list[str]:
    """The start throws as text: one line per start round, then who begins or who throws next."""
    throws = obs.get("start_throws") or []
    if not throws:
        return []
    de = lang == "de"
    lines = []
    rounds = sorted({t["round"] for t in throws})
    for r in rounds:
        head = ("Anfangswurf" if de else "start throw") if r == 1 else (
            f"Stechen {r - 1}" if de else f"tie-break {r - 1}")
        parts = [f"{_player(t['player'], de)} {'+'.join(map(str, t['dice']))} = {t['sum']}"
                 for t in throws if t["round"] == r]
        lines.append(f"{head}: " + ", ".join(parts))
    if obs.get("starter") is not None:
        lines.append(f"{_player(obs['starter'], de)} {'beginnt' if de else 'begins'}")
    elif obs.get("start_throwers"):
        who = ", ".join(_player(p, de) for p in obs["start_throwers"])
        lines.append(f"{'noch zu werfen' if de else 'still to throw'}: {who}")
    return lines


def refusal(thrower: int, dice: int, action_en: str, action_de: str) -> IllegalActionError:
    """The refusal of anything but a start throw while the start throws are open."""
    return IllegalActionError(
        "start throw",
        f"first every player throws {dice} dice to see who begins (highest sum); player {thrower + 1} "
        f"throws now, so “{action_en}” is not possible",
        f"zuerst würfelt jeder Spieler mit {dice} Würfeln, wer beginnt (höchste Augenzahl); jetzt wirft "
        f"Spieler {thrower + 1}, „{action_de}“ geht daher nicht",
        "Wer beginnt")
