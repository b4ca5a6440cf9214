"""Numbers the Würfel Joker lesson states that the analysis does not hand out as one query.

Everything here is read off ``spiel2.analysis.throw_table``, so a lesson's grid, its counts and its
explanation come from the same throws.
"""

from .spiel2 import analysis as a2


def roll_again_parts(up=(), options=None) -> dict:
    """Why rolling again from the position with the slides ``up`` up is worth what it is, split the
    way a student adds it up: of the throws that count (the doubles the optimal player throws again
    do not), ``push`` push and ``bust`` push nothing; ``after_push`` are the distinct values a push
    leads to (the turn going on optimally), ``bust_values`` the distinct points of a throw that
    pushes nothing, both sorted ascending; ``stop`` is the value of stopping instead."""
    table = a2.throw_table(up, options)
    push = [val for kind, _, val in table.values() if kind == "push"]
    bust = [val for kind, _, val in table.values() if kind == "bust"]
    return {"push": len(push), "bust": len(bust), "after_push": sorted(set(push)),
            "bust_values": sorted(set(bust)), "stop": a2.solve(options).stop_value(a2.mask_of(up))}
