"""The Panel host of the shared front-end: ``spieltisch serve GAME`` serves this script.

Panel's ``AnyWidgetComponent`` runs the same ESM as the notebook widget; every browser session gets
its own ``Table``. The game comes from the command line (``panel serve app.py --args GAME``) or the
URL (``?game=tuefteln&lang=en``).
"""

from __future__ import annotations

import asyncio
import sys

import panel as pn
import param

from spieltisch.ui.table import Table, front_end_source


class TableComponent(pn.custom.AnyWidgetComponent):
    _esm = front_end_source()
    view = param.String(default="")
    event = param.String(default="")
    progress = param.Dict(default={})

    def __init__(self, table: Table, **params):
        super().__init__(**params)
        self._table = table
        self._lock = asyncio.Lock()
        # called from the worker thread below; Panel sends a change made off its thread on the
        # next tick of the event loop, which is free while the table works
        table.on_progress = lambda done, total: setattr(self, "progress", {"done": done, "total": total})
        self.view = table.state_json()

    @param.depends("event", watch=True)
    async def _on_event(self) -> None:
        """The table works in a thread, so the server can send the advisor's progress meanwhile;
        the lock keeps one event at a time, in the order they came."""
        event = self.event
        if not event:
            return
        async with self._lock:
            view = await asyncio.to_thread(self._work, event)
        self.view = view

    def _work(self, event: str) -> str:
        self._table.handle(event)
        return self._table.state_json()


def _arg(name: str, default: str) -> str:
    values = pn.state.session_args.get(name) if pn.state.session_args else None
    return values[0].decode("utf-8") if values else default


def create_app(game: str, lang: str = "de") -> pn.viewable.Viewable:
    table = Table(game, lang=lang)
    return pn.Column(TableComponent(table, sizing_mode="stretch_width"), sizing_mode="stretch_width")


if __name__.startswith("bokeh"):
    pn.extension()
    game = _arg("game", sys.argv[1] if len(sys.argv) > 1 else "wuerfel-joker")
    lang = _arg("lang", "de")
    create_app(game, lang if lang in ("de", "en") else "de").servable(title="Spieltisch")
