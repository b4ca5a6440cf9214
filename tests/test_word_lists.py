"""The word lists of the pages (live class, table) name each key once: a second entry under the same key
silently replaces the first in a dict literal (the live lesson poll once said "wird berechnet …" instead of
its own sentence that way)."""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "spieltisch"
WORD_FILES = ["ui/live/words.py", "ui/table.py", "ui/classroom/board.py", "lesson/widgets.py"]


def repeated_keys(source: str) -> list:
    """Every constant key that a dict literal in ``source`` names more than once, with its line."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            seen = set()
            for key in node.keys:
                if isinstance(key, ast.Constant):
                    if key.value in seen:
                        out.append((key.value, key.lineno))
                    seen.add(key.value)
    return out


def test_a_repeated_key_is_found():
    assert repeated_keys('W = {"a": 1, "b": 2, "a": 3}') == [("a", 1)]
    assert repeated_keys('W = {"a": 1, "b": {"a": 2}}') == []


@pytest.mark.parametrize("name", WORD_FILES)
def test_no_word_list_names_a_key_twice(name):
    path = SRC / name
    assert path.exists(), name
    assert repeated_keys(path.read_text(encoding="utf-8")) == []
