"""The gate every event of a live page passes, and the checks of its fields.

``Gate.check`` takes a page's raw text: its size, its form (a JSON object with a ``type``, not nested
deeper than any real event), its order (a counter that only goes up: a replayed event is refused)
and its rate. The handlers then check every field with ``fields`` (an unknown field is refused by
name, never looked at). Whatever is refused raises ``Refusal``, which says why in German and English.
"""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction

from ...core.errors import SpieltischError, short
from ...core.match import json_depth
from .words import both

NUMBER_MAX_CHARS = 20
MAX_EVENT_DEPTH = 8  # lists and objects inside each other in one event (the deepest real one: 3)
MAX_EVENT_CHARS = 4000  # the longest real event (a question with eight options) is far shorter
RATE_PER_S = 10.0  # events a page may send per second, on average ...
BURST = 30  # ... and at once


# the table events a seat may send (the shared front-end's); the others (new game, seed, seats,
# players, variant, advisor) reach the table, which refuses them with the class round's reason
SEAT_EVENTS = {"act", "cancel", "step", "finish", "lang", "projector", "exact", "spectator", "undo",
               "new", "seed", "seat", "players", "variant", "advisor"}
# ... and their fields (with their types): anything else in an event is refused
SEAT_FIELDS = {"type": str, "token": str, "at": int, "on": bool, "lang": str, "n": int, "seed": (str, int),
               "seat": int, "who": str, "players": int, "id": str}
PROJECTOR_EVENTS = {"lang", "projector", "step"}


class Refusal(SpieltischError):
    """An event that is refused; ``text`` says why in German and English."""

    def __init__(self, key: str, **kw):
        self.key = key
        self.text = both(key, **kw)
        super().__init__(self.text["en"])



# --- the gate every event passes ------------------------------------------------------------------
class Gate:
    """One page's events: at most ``MAX_EVENT_CHARS`` characters, a JSON object with a ``type``, a
    counter ``n`` above the last one accepted (a replayed or reordered event is refused), and at
    most ``BURST`` at once and ``RATE_PER_S`` a second on average (a token bucket)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.last_n = 0
        self.tokens = float(BURST)
        self.at = clock()

    def check(self, raw) -> dict:
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE_PER_S)
        self.at = now
        if self.tokens < 1:
            raise Refusal("too_fast")
        self.tokens -= 1
        if not isinstance(raw, str):
            raise Refusal("malformed")
        if len(raw) > MAX_EVENT_CHARS:
            raise Refusal("too_long", n=len(raw), max=MAX_EVENT_CHARS)
        # nested lists deeper than any real event (a round spec: 3 levels) would overflow the parser's
        # stack (``"[" * 1990 + "]" * 1990`` fits the length bound): refused before parsing
        if json_depth(raw) > MAX_EVENT_DEPTH:
            raise Refusal("malformed")
        try:
            event = json.loads(raw)
        except (ValueError, RecursionError):
            raise Refusal("malformed") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise Refusal("malformed")
        n = event.get("n")
        if isinstance(n, bool) or not isinstance(n, int):
            raise Refusal("field_type", field="n")
        if n <= self.last_n:
            raise Refusal("replayed")
        self.last_n = n
        return event


def fields(event: dict, allowed: dict) -> dict:
    """The event's fields, each of its allowed type; any other field is refused by name."""
    for key, value in event.items():
        if key not in allowed:
            raise Refusal("field", field=short(key, 30, str))
        if value is None:
            continue
        kinds = allowed[key] if isinstance(allowed[key], tuple) else (allowed[key],)
        ok = (bool in kinds) if isinstance(value, bool) else isinstance(value, kinds)
        if not ok or (isinstance(value, str) and len(value) > 200):
            raise Refusal("field_type", field=key)
    return event


def inner_event(ev: dict, kinds) -> tuple[dict, str]:
    """A page's table event (``{"type": "table", "event": {...}}``): the shared front-end's own
    event inside, its fields checked, of one of ``kinds``."""
    fields(ev, {"type": str, "n": int, "event": dict})
    inner = ev.get("event")
    if not isinstance(inner, dict):
        raise Refusal("field_type", field="event")
    fields(inner, SEAT_FIELDS)
    kind = inner.get("type")
    if kind not in kinds:
        raise Refusal("table_event", kind=short(kind, 30, str))
    return inner, kind


def event_kind(raw) -> str:
    if not isinstance(raw, str) or len(raw) > MAX_EVENT_CHARS:
        return "?"
    try:
        return str(json.loads(raw).get("type"))
    except Exception:  # noqa: BLE001 - whatever arrived, the log names it short
        return "?"


def parse_number(value) -> Fraction:
    """A typed number: 12, -3,5 (German comma), 3.25, 7/2."""
    if isinstance(value, bool):
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    if isinstance(value, int):
        value = str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
        value = repr(value)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= NUMBER_MAX_CHARS:
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    text = value.strip().replace(",", ".").replace("−", "-").replace(" ", "")
    if not all(ch in "0123456789.-/+" for ch in text) or "e" in text.lower():
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS) from None
