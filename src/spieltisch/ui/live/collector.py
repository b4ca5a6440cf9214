"""Python's cyclic garbage collector on the live server, without its long pauses.

A full collection looks at every object the process holds, and the event loop stands still while it
runs. With ten rooms of thirty (310 pages, each a Bokeh document) a full collection took 210–230 ms
and came every 4 s of play: the longest wait in the load benchmark, and most of a page's 95th
percentile (benchmarks/live_load.py; the pauses measured with ``gc.callbacks``, as ``Collector``
logs them). What has lived a while is almost never garbage, so the server moves it out of the
collector's way (``gc.freeze``: no collection looks at frozen objects):

- every ``FREEZE_S``: a collection of what is not frozen (short: it is only what came since), then
  what is left is frozen;
- every ``SWEEP_S``: everything is unfrozen, collected in full and frozen again. This is one pause of
  the old length every few minutes, and it frees the cycles that involve frozen objects (a closed
  page's document, a finished room's games).

A pause longer than ``LOG_MS`` is logged (the load benchmark prints the longest).
"""

from __future__ import annotations

import gc
import logging
import os
import time

log = logging.getLogger("spieltisch.live")

FREEZE_S = 20
# (the load benchmark's ``--sweep`` sets it shorter, to measure a sweep under load)
SWEEP_S = float(os.environ.get("SPIELTISCH_GC_SWEEP_S") or 600)
LOG_MS = 50


class Collector:
    def __init__(self, freeze_s: float = FREEZE_S, sweep_s: float = SWEEP_S):
        self.freeze_s, self.sweep_s = freeze_s, sweep_s
        self._started = None
        self._periodic = None
        self._last_sweep = time.monotonic()

    def start(self) -> None:
        """Freeze what the server holds now, and go on every ``freeze_s`` on the current (Tornado)
        loop."""
        from tornado.ioloop import PeriodicCallback

        gc.callbacks.append(self._timed)
        self.sweep()
        self._periodic = PeriodicCallback(self.tick, self.freeze_s * 1000)
        self._periodic.start()

    def stop(self) -> None:
        if self._periodic is not None:
            self._periodic.stop()
            self._periodic = None
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)

    def tick(self) -> None:
        if time.monotonic() - self._last_sweep >= self.sweep_s:
            self.sweep()
        else:
            self.freeze()

    @staticmethod
    def freeze() -> None:
        gc.collect()  # (what is frozen is not looked at: only the objects made since the last freeze)
        gc.freeze()

    def sweep(self) -> None:
        gc.unfreeze()
        self.freeze()
        self._last_sweep = time.monotonic()

    def _timed(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            ms = 1000 * (time.perf_counter() - self._started)
            self._started = None
            if ms > LOG_MS:
                log.info("Python's collector held the loop for %.0f ms (generation %d, %d objects freed)",
                         ms, info["generation"], info["collected"])
