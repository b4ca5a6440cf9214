"""The live server's garbage collector (spieltisch.ui.live.collector): what has lived a while is
frozen, so that no collection on the loop has to look at it; a sweep frees what the freeze kept.

The pauses themselves are measured under load by benchmarks/live_load.py (its "longest GC pause").
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import weakref

import pytest

from spieltisch.ui.live.collector import Collector


class Node:
    def __init__(self):
        self.other = self  # a cycle: only the collector frees it, never its reference count


@pytest.fixture(autouse=True)
def unfrozen():
    yield
    gc.unfreeze()  # (the test process goes on with nothing frozen)


def test_a_cycle_frozen_with_the_rest_waits_for_the_sweep_and_a_newer_one_does_not():
    c = Collector(freeze_s=1, sweep_s=3600)
    old = Node()
    old_ref = weakref.ref(old)
    c.freeze()
    assert gc.get_freeze_count() > 0
    del old
    gc.collect()
    assert old_ref() is not None  # frozen: no collection looks at it (what keeps the loop's pauses short)
    young = Node()
    young_ref = weakref.ref(young)
    del young
    c.freeze()  # the next freeze collects what came since the last one
    assert young_ref() is None
    c.sweep()
    assert old_ref() is None  # the sweep unfreezes, collects everything, and freezes again
    assert gc.get_freeze_count() > 0


def test_a_tick_sweeps_once_the_sweep_is_due_and_only_freezes_before():
    c = Collector(freeze_s=1, sweep_s=3600)
    old = Node()
    ref = weakref.ref(old)
    c.freeze()
    del old
    c.tick()
    assert ref() is not None
    c.sweep_s = 0
    c.tick()
    assert ref() is None


def test_a_long_pause_of_the_collector_is_logged_and_a_short_one_is_not(caplog):
    c = Collector()
    with caplog.at_level(logging.INFO, logger="spieltisch.live"):
        c._timed("start", {"generation": 0, "collected": 0})
        c._timed("stop", {"generation": 0, "collected": 0})
        assert not caplog.records
        c._timed("start", {"generation": 2, "collected": 5})
        time.sleep(0.06)
        c._timed("stop", {"generation": 2, "collected": 5})
    [record] = caplog.records
    assert "collector held the loop for" in record.getMessage() and "generation 2" in record.getMessage()


def test_the_collector_starts_frozen_times_every_collection_and_stops():
    async def main():
        c = Collector(freeze_s=0.05, sweep_s=3600)
        c.start()
        try:
            assert c._timed in gc.callbacks and gc.get_freeze_count() > 0
            gc.unfreeze()
            await asyncio.sleep(0.3)  # its ticks on the loop freeze again
            assert gc.get_freeze_count() > 0
        finally:
            c.stop()
        assert c._timed not in gc.callbacks
        gc.unfreeze()
        await asyncio.sleep(0.2)
        assert gc.get_freeze_count() == 0  # stopped: no tick froze anything since
    asyncio.run(main())
