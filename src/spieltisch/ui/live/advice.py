"""The advisor of the live class's tables, off the event loop.

Every page of the live class is served by Tornado's one event loop, so anything that takes a core
for a while makes every other page wait: one advisor ranking (Skip-Bo Masters: its play-outs,
Tüfteln: its first rounds) takes 0.3 to 1.3 s, and while it ran inline another student's page
waited that long for its move (issue 33: another page's p95 rose to 722 ms). A thread would not
help (Python's lock); so the advice runs in a process of its own (``AdviceWorker``), which gets what
``Table.advise`` hands it — the game's id, player count and options, the mover's observation and
the advisor's settings (``table.compute_advice``) — and sends back only the mover's advice.

It is a process of its own, not the board's summary worker: a class's advice must not wait behind a
summary (replaying every result code of a shared game), nor a summary behind thirty rankings. It is
one process: the machine this is planned for has two cores, one for the loop and one for the
advisor; a second worker would take the loop's core. And it runs at a lower priority, so that
whenever the two want the same core the pages come first and the advice waits.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import CancelledError, ProcessPoolExecutor

log = logging.getLogger("spieltisch.live")

NICE = 10  # the advice worker's priority below the server's (a page never waits for an advisor)


class AdviceWorker:
    """``run(job, done, loop)``: ``job()`` in the worker process, then ``done(result)`` on ``loop``
    (``result`` None when the job failed: the table says the advisor could not work it out).
    Returns the job's future (a job not yet started can be cancelled: its ``done`` is not called)."""

    def __init__(self):
        self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(os.getpid(),))

    def start(self) -> None:
        """The worker starts now (and imports the engine), not at the first student's question."""
        self.executor.submit(_ready)

    def run(self, job, done, loop):
        future = self.executor.submit(job)

        def back(f):
            try:
                result = f.result()
            except CancelledError:
                return
            except Exception:  # noqa: BLE001 - a failed ranking is logged; the table says so
                log.exception("the advisor failed")
                result = None
            loop.add_callback(lambda: _logged(done, result))
        future.add_done_callback(back)
        return future

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _logged(done, result) -> None:
    try:
        done(result)
    except Exception:  # noqa: BLE001 - one failed callback must not stop the server
        log.exception("a live class callback failed")


def _ready() -> bool:
    return True


def _start_worker(parent: int) -> None:
    """In the advice worker: a lower priority, and an end when the server ends (even by ``kill -9``,
    which leaves a process pool's worker running otherwise)."""
    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # (Windows has no nice; the worker then shares the cores evenly)
        pass

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
