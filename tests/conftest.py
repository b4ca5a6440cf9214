import pytest

from spieltisch.core import registry
from harness.toygame import Pig


@pytest.fixture
def pig():
    registry.register(Pig)
    yield Pig
    registry.unregister(Pig.id)


_skipped = []


def pytest_runtest_logreport(report):
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    """Under `make test` (SPIELTISCH_NO_SKIP=1) a skipped test fails the run: everything the tests
    need is installed there, so a skip would only hide a missing install step."""
    import os

    if os.environ.get("SPIELTISCH_NO_SKIP") == "1" and _skipped and session.exitstatus == 0:
        print(f"\n{len(_skipped)} test(s) skipped under SPIELTISCH_NO_SKIP=1: {_skipped[:5]}")
        session.exitstatus = 1


def pytest_collection_modifyitems(session, config, items):
    """Run the site's browser tests last: their session-wide Playwright (sync API) keeps an asyncio
    loop running in the main thread, which other tests' own Playwright or asyncio.run() refuse."""
    items.sort(key=lambda item: "tests/site/" in item.nodeid.replace("\\", "/"))
