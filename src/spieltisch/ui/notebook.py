"""The notebook host of the shared front-end: an anywidget over a ``Table`` (notebooks, JupyterLite).

``play("tuefteln")`` shows a game. The widget is a few lines on purpose: it syncs two strings, the
table's state as JSON (Python -> page) and the front-end's events (page -> Python), and the
advisor's progress while it works (``{"done", "total"}``: the busy note shows the share done);
everything else is the ESM front-end and the view-model in ``spieltisch.ui.table``. Needs anywidget (the
``widgets`` extra).
"""

from __future__ import annotations

import anywidget
import traitlets

from .table import Table, front_end_source


class TableWidget(anywidget.AnyWidget):
    _esm = front_end_source()
    view = traitlets.Unicode("").tag(sync=True)
    event = traitlets.Unicode("").tag(sync=True)
    progress = traitlets.Dict({}).tag(sync=True)

    def __init__(self, table: Table, **kwargs):
        super().__init__(**kwargs)
        self.table = table
        # sent while the event's handler still runs (a comm message goes out at once)
        table.on_progress = lambda done, total: setattr(self, "progress", {"done": done, "total": total})
        self.view = table.state_json()

    @traitlets.observe("event")
    def _on_event(self, change) -> None:
        if change["new"]:
            self.table.handle(change["new"])
            self.refresh()

    def __repr__(self) -> str:  # the text form a notebook stores: short, not the whole state
        return f"<{self.table.game_id} · seed {self.table.seed}>"

    def refresh(self) -> None:
        """Send the table's state again (after changing the table from Python)."""
        self.view = self.table.state_json()

    def send_event(self, event: dict) -> None:
        """What a click in the page does, from Python (scripts and tests)."""
        self.table.handle(event)
        self.refresh()


def play(game: str = "wuerfel-joker", **settings) -> TableWidget:
    """A game to play in a notebook: ``play("tuefteln", lang="en", seats=["human", "strong"])``.
    Settings are ``Table``'s (players, seats, seed, lang, options, advisor, projector)."""
    return TableWidget(Table(game, **settings))
