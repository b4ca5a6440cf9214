"""The game template's promises: imports point one way (no circles, the core imports no game and no
front-end, an engine imports none of its siblings), and a new game is one folder and nothing else."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import types
from pathlib import Path

import pytest

import spieltisch

PACKAGE_DIR = Path(spieltisch.__file__).resolve().parent


# --- the import graph ------------------------------------------------------------------------------
def modules_of(package_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package in ``package_dir``."""
    out = {}
    for path in sorted(package_dir.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _existing(name: str, modules) -> str | None:
    """``name`` or its nearest enclosing module that exists (``import a.b.C`` names a module a.b)."""
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in modules else None


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its file, inside functions too.

    ``from X import y`` counts as importing ``X.y`` when that is a module, else ``X``: importing a
    submodule of a package whose ``__init__`` is already running is not a circle. Imports made at
    run time from strings (``importlib``) are not seen: ``spieltisch.games`` finds its families so,
    which is the direction the template wants."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level - 1 >= len(parts):
                    raise AssertionError(f"{name}: relative import beyond the top-level package")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            for a in node.names:
                sub = f"{base}.{a.name}"
                targets.append(sub if sub in modules else base)
        for t in targets:
            target = _existing(t, modules)
            if target is not None and target != name:
                found.add(target)
    return found


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    modules = modules_of(package_dir)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict) -> list | None:
    """One import circle as ``[a, b, ..., a]``, or None. Iterative depth-first search (no recursion
    limit for deep graphs); nodes that are only targets count as leaves."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        colour[start] = GREY
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                colour[path.pop()] = BLACK
                stack.pop()
                continue
            c = colour.get(nxt, BLACK if nxt not in graph else WHITE)
            if c == GREY:
                return path[path.index(nxt):] + [nxt]
            if c == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def reachable(graph: dict, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for m in graph.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


@pytest.fixture(scope="module")
def graph():
    return import_graph(PACKAGE_DIR)


def test_the_graph_sees_the_package(graph):
    # guards the checks below against passing on an empty or misread graph
    assert "spieltisch.core.game" in graph and "spieltisch.cli" in graph
    assert "spieltisch.core.errors" in graph["spieltisch.core.game"]
    assert "spieltisch.core.registry" in graph["spieltisch.games.tuefteln"]
    assert {"spieltisch.games.tuefteln.engine", "spieltisch.games.tuefteln.bots"} <= graph["spieltisch.games.tuefteln"]
    assert "spieltisch.games" in reachable(graph, "spieltisch")


def test_no_import_circle(graph):
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_core_imports_no_game_and_no_front_end(graph):
    forbidden = ("spieltisch.games", "spieltisch.ui", "spieltisch.cli")
    core = [m for m in graph if m.startswith("spieltisch.core")]
    assert len(core) >= 8
    for m in core:
        # also through other modules, and not the top package (its __init__ imports every game)
        bad = sorted(t for t in reachable(graph, m) if t == "spieltisch" or t.startswith(forbidden))
        assert not bad, f"{m} imports {', '.join(bad)}"


def test_engines_import_none_of_their_siblings(graph):
    engines = [m for m in graph if m.rsplit(".", 1)[-1] == "engine"]
    assert len(engines) >= 3
    for engine in engines:
        family = engine.rsplit(".", 1)[0]
        siblings = {f"{family}.{s}" for s in ("bots", "analysis", "view")} | {family}
        bad = sorted(reachable(graph, engine) & siblings)
        assert not bad, f"{engine} imports {', '.join(bad)}"


# --- the checks catch what they are for ----------------------------------------------------------
def test_cycle_finder_finds_a_planted_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b", "x"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    # a diamond is not a circle
    assert find_cycle({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}) is None


def test_planted_circle_in_a_package_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    import pkg.a  # inside a function\n")
    (pkg / "sub" / "__init__.py").write_text("from .. import b\nfrom ..a import f\n")
    g = import_graph(pkg)
    assert g == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.sub": {"pkg.a", "pkg.b"}}
    assert find_cycle(g) == ["pkg.a", "pkg.b", "pkg.a"]


# --- a new game is one folder ----------------------------------------------------------------------
TOY_FAMILY = '''
"""Kopf oder Zahl: call the coin, then it is tossed; a right call scores 1. Three calls each."""

from dataclasses import dataclass
from fractions import Fraction

from ...core.errors import IllegalActionError
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.registry import register

WORDS = {"heads": ("Kopf", "heads"), "tails": ("Zahl", "tails")}


@dataclass(frozen=True)
class Call:
    side: str

    def to_json(self):
        return ["call", self.side]

    def label(self, lang="en"):
        return WORDS[self.side][lang != "de"]


@dataclass(frozen=True)
class Toss:
    side: str

    def to_json(self):
        return ["toss", self.side]

    def label(self, lang="en"):
        return ("Wurf: " if lang == "de" else "toss: ") + WORDS[self.side][lang != "de"]


CALLS = (Call("heads"), Call("tails"))
TOSSES = (Toss("heads"), Toss("tails"))


class CoinState(State):
    def __init__(self, game):
        super().__init__(game)
        self.points = [0] * self.num_players
        self.calls = 0
        self.called = None

    def current_player(self):
        if self.called is not None:
            return CHANCE
        if self.calls == 3 * self.num_players:
            return TERMINAL
        return self.calls % self.num_players

    def _legal_actions(self):
        return CALLS

    def chance_outcomes(self):
        return [(t, Fraction(1, 2)) for t in TOSSES]

    def chance_player(self):
        return self.calls % self.num_players

    def _apply(self, action):
        if isinstance(action, Call):
            self.called = action.side
            return
        self.points[self.calls % self.num_players] += action.side == self.called
        self.called = None
        self.calls += 1

    def why_illegal(self, action):
        return IllegalActionError("call", f"{action!r} is not a call now", f"{action!r} ist jetzt keine Ansage",
                                  "Ansage")

    def scores(self):
        return list(self.points)

    def observation(self, player):
        return {"points": list(self.points), "calls": self.calls, "called": self.called}


class CoinGame(Game):
    id = "toy-coin"
    name = {"de": "Kopf oder Zahl", "en": "Heads or tails"}
    min_players, max_players, default_players = 1, 2, 2
    state_class = CoinState


register(CoinGame)
'''


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def test_a_new_game_is_one_folder(tmp_path):
    # the copy is written from one reading of src/spieltisch, so it equals that reading exactly
    original = tree(PACKAGE_DIR)
    copy = tmp_path / "spieltisch"
    for rel, data in original.items():
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_bytes(data)
    folder = copy / "games" / "toyfolder"
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent(TOY_FAMILY), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}

    def cli(*args):
        done = subprocess.run([sys.executable, "-m", "spieltisch", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    listed = {g["id"]: g for g in json.loads(cli("list", "--json"))["games"]}
    assert listed["toy-coin"]["name"] == {"de": "Kopf oder Zahl", "en": "Heads or tails"}
    assert listed["toy-coin"]["bots"] == ["random"]
    assert set(spieltisch.game_ids()) < set(listed)  # the real games are all still there
    assert "toy-coin" in cli("list")

    result = json.loads(cli("simulate", "toy-coin", "--games", "5", "--seed", "1", "--json"))
    assert result["game"] == "toy-coin" and result["games"] == 5 and len(result["seats"]) == 2
    for seat in result["seats"]:
        assert 0 <= seat["mean_score"]["mean"] <= 3  # three calls each, one point per right call
    assert abs(sum(s["win_rate"]["mean"] for s in result["seats"]) - 1) < 1e-9
    assert "toy-coin: 5 games" in cli("simulate", "toy-coin", "--games", "5", "--seed", "1")

    after = tree(copy)
    added = sorted(set(after) - set(original))
    assert added == ["games/toyfolder/__init__.py"]
    assert {k: v for k, v in after.items() if k not in added} == original, "a file outside the folder changed"


def _view_imports(module) -> set[str]:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    return imported


def _foreign(names: set[str]) -> set[str]:
    """Imports a view may not make: anything but the standard library, the core and its own family."""
    return {n for n in names if not (n in sys.stdlib_module_names or n.startswith("...core.")
                                     or (n.startswith(".") and not n.startswith("..")))}


@pytest.mark.parametrize("game", [g for g in spieltisch.game_ids() if spieltisch.get_game_class(g).view])
def test_a_view_imports_the_standard_library_the_core_and_its_own_family_only(game):
    # no ui, no Panel, no ipywidgets, no other game: a view runs wherever its engine runs
    module = importlib.import_module(spieltisch.get_game_class(game).view.partition(":")[0])
    assert not _foreign(_view_imports(module)), module.__name__


def test_the_view_import_check_sees_a_foreign_import():
    toy = types.ModuleType("toy_view")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("from ...ui.table import Table\nfrom ..tuefteln import engine\nimport panel\nimport html\n"
                "from ...core.view import View\nfrom .engine import Move\n")
    toy.__file__ = f.name
    try:
        assert _foreign(_view_imports(toy)) == {"...ui.table", "..tuefteln", "panel"}
    finally:
        os.unlink(f.name)
