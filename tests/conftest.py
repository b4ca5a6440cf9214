import pytest

from spieltisch.core import registry
from toygame import Pig


@pytest.fixture
def pig():
    registry.register(Pig)
    yield Pig
    registry.unregister(Pig.id)
