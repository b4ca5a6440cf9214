"""The built wheel in real Pyodide (Node) plays every registered game exactly as CPython does.

Sets up what it needs: builds the wheel with ``python -m build`` and runs ``npm ci`` in
``tests/pyodide`` (pinned npm ``pyodide``, the version the JupyterLite kernel expects) when its
``node_modules`` is missing. CPython imports the same wheel, unzipped, so both run identical code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "pyodide"))
import pyodide_kit as harness  # noqa: E402

pytestmark = pytest.mark.pyodide

CONFORMANCE = HERE / "pyodide" / "determinism.py"
GAMES_PER_BOT = "3"
ARGS = ["--games", GAMES_PER_BOT, "--seed", "20261125", "--rounds", "2"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    try:
        return harness.build_wheel(tmp_path_factory.mktemp("wheel"))
    except harness.SetupError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="module")
def cpython_run(wheel, tmp_path_factory) -> dict:
    site = harness.unpack_wheel(wheel, tmp_path_factory.mktemp("site"))
    proc = harness.run_cpython(CONFORMANCE, ARGS, site, timeout=120)
    assert proc.returncode == 0, f"determinism.py failed in CPython:\n{proc.stderr[-6000:]}"
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def pyodide_run(wheel) -> dict:
    if harness.node_exe() is None:
        pytest.skip("node is not installed: Pyodide cannot run (apt-get install nodejs)")
    try:
        proc = harness.run_pyodide(wheel, CONFORMANCE, ARGS, timeout=180)
    except harness.SetupError as e:
        pytest.fail(str(e))
    assert proc.returncode == 0, f"determinism.py failed in Pyodide:\n{proc.stderr[-6000:]}"
    try:
        return json.loads(proc.stdout)
    except ValueError:
        pytest.fail(f"Pyodide printed no JSON:\nstdout: {proc.stdout[:2000]}\nstderr: {proc.stderr[-4000:]}")


def test_wheel_is_pure_python(wheel):
    assert harness.wheel_tags(wheel) == "py3-none-any", wheel.name


def test_pyodide_is_python_314_with_the_wheel(pyodide_run, wheel):
    env = pyodide_run["env"]
    assert env["platform"] == "emscripten"
    assert env["python"][:2] == [3, 14], env
    version = wheel.name.split("-")[1]
    assert env["spieltisch"] == version
    # the wheel's copy, not something else on the path
    assert "site-packages/spieltisch" in env["spieltisch_file"], env


def test_every_registered_game_is_covered(pyodide_run, cpython_run):
    assert pyodide_run["game_ids"], "no games registered"
    assert pyodide_run["game_ids"] == cpython_run["game_ids"]
    assert sorted(pyodide_run["games"]) == sorted(pyodide_run["game_ids"])
    for game_id, g in pyodide_run["games"].items():
        assert g["bots"][0] == "random"
        assert len(g["runs"]) == len(g["bots"]) * int(GAMES_PER_BOT), game_id
        for run in g["runs"]:
            assert run["record"]["ruleset"] == game_id
            assert run["record"]["actions"], f"{game_id}/{run['bot']}: a game without actions"
    # the strong Tüfteln bot plays side B with code of its own (the bonus chance): covered too
    sides = {v["options"].get("side") for v in pyodide_run["games"]["tuefteln"]["variants"]}
    assert "B" in sides, sides


# Pyodide runs Python 3.14, CPython here may be older: float results that depend on the version
# (``sum()`` of floats is compensated since 3.12, while ``math.fsum`` and exact ints/Fractions give the
# same result everywhere) or on hashing (set order of str) make seeded bot games diverge.
HINT = ("; usual causes: float sum() (compensated since Python 3.12; use math.fsum or exact arithmetic), "
        "iteration over a set of str (hash order), float ties broken by tiny differences")


def test_records_and_scores_identical_in_cpython_and_pyodide(pyodide_run, cpython_run):
    assert cpython_run["env"]["platform"] != "emscripten"
    for game_id in cpython_run["games"]:
        c, p = cpython_run["games"][game_id], pyodide_run["games"][game_id]
        for i, (rc, rp) in enumerate(zip(c["runs"], p["runs"])):
            # per game first, so a failure names the game, bot and seeds
            where = f"{game_id} bot={rc['bot']} chance_seed={rc['chance_seed']} bot_seed={rc['bot_seed']}"
            assert rp["scores"] == rc["scores"], f"scores differ: {where}{HINT}"
            assert rp["record"] == rc["record"], f"records differ: {where}{HINT}"
        for vc, vp in zip(c["variants"], p["variants"]):
            for rc, rp in zip(vc["runs"], vp["runs"]):
                where = f"{game_id} {vc['players']} players {vc['options']} bot={rc['bot']}"
                assert rp["scores"] == rc["scores"], f"scores differ: {where}{HINT}"
    # and the whole JSON text, exactly
    dump = lambda d: json.dumps(d["games"], sort_keys=True, ensure_ascii=False)  # noqa: E731
    assert dump(pyodide_run) == dump(cpython_run)


def test_cli_list_runs_in_pyodide(pyodide_run):
    cli = pyodide_run["cli"]
    if "skipped" in cli:
        pytest.skip(cli["skipped"])
    assert cli["exit"] == 0, cli
    for game_id in pyodide_run["game_ids"]:
        assert game_id in cli["stdout"], f"`spieltisch list` in Pyodide does not mention {game_id}"
