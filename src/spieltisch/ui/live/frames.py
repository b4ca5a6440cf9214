"""What a page is sent: its whole view once, then only what changed.

A page's ``view`` property carries frames, numbered per page (``n``):

- ``{"n": 1, "view": {...}}``: the whole view (the first frame, a new page kind, a page that asked
  again);
- ``{"n": 8, "base": 7, "patch": P}``: the view of frame 7 changed by ``P``, where ``P`` is
  ``{"set": {key: value}, "drop": [key], "in": {key: P'}}`` (``in``: a dict inside changed in
  part, patched the same way; lists and strings are sent whole).

A move at a table redraws every seat, the board and the projector, and most of a view stays as it
was (the rules, the words, the other tables): about half of the bytes a move sent before, which the
server encoded twice (its JSON, then Bokeh's message) and every page decoded (the load benchmark:
benchmarks/live_load.py). A page whose frame does not follow its last one (``base`` is not the frame
it has) asks for the whole view again (live.js; ``resync``); so does a new page whose document,
when its browser pulled it, already held a later frame than its first (BokehJS drops the patches that
come before the document). A page loads itself anew after a lost connection.

The views compared are the registry's (``Registry.view``), built anew for every frame: a view never
shares a dict or a list with an earlier one, so an earlier view is what the page was sent
(tests/test_live_frames.py)."""

from __future__ import annotations

import json


def patch(old: dict, new: dict) -> dict:
    """How ``new`` differs from ``old`` (an empty patch when they are equal)."""
    out: dict = {}
    changed, inner = {}, {}
    for key, value in new.items():
        if key not in old:
            changed[key] = value
            continue
        was = old[key]
        if was == value:
            continue
        if isinstance(value, dict) and isinstance(was, dict):
            inner[key] = patch(was, value)
        else:
            changed[key] = value
    dropped = [key for key in old if key not in new]
    if changed:
        out["set"] = changed
    if dropped:
        out["drop"] = dropped
    if inner:
        out["in"] = inner
    return out


def apply(view: dict, p: dict) -> dict:
    """``view`` changed by the patch ``p``: a new dict (``view`` and what is inside it stay as they
    were; what did not change is shared)."""
    out = {key: value for key, value in view.items() if key not in p.get("drop", ())}
    out.update(p.get("set", {}))
    for key, inner in p.get("in", {}).items():
        out[key] = apply(view[key], inner)
    return out


class Frames:
    """One page's frames (see the module's docstring)."""

    def __init__(self):
        self.n = 0
        self.last: dict | None = None  # the view of frame ``n``

    def next(self, view: dict) -> str | None:
        """The frame that shows ``view``, or None when the page shows it already."""
        last = self.last
        if last is not None and last.get("page") == view.get("page"):
            p = patch(last, view)  # (one walk over both views: it also finds them equal)
            if not p:
                return None
            self.n += 1
            self.last = view
            return json.dumps({"n": self.n, "base": self.n - 1, "patch": p}, ensure_ascii=False)
        self.n += 1
        self.last = view
        return json.dumps({"n": self.n, "view": view}, ensure_ascii=False)

    def resync(self) -> None:
        """The next frame is the whole view (the page asked: it missed one)."""
        self.last = None


def read(frame: dict, shown: dict | None, shown_n: int) -> dict | None:
    """The view a page shows after ``frame`` (parsed), given the view it shows (``shown``, frame
    ``shown_n``); None when the frame does not follow it (the page asks again: ``resync``).
    Python's twin of live.js's ``receive``, for the tests' and the benchmark's pages."""
    if "view" in frame:
        return frame["view"]
    if shown is None or frame.get("base") != shown_n:
        return None
    return apply(shown, frame["patch"])
