"""Build the wheel and run Python scripts in Pyodide under Node (shared by the test and benchmarks).

Everything here is set up on demand: ``python -m build`` (PyPI package ``build``) makes the wheel,
``npm ci`` installs the pinned ``pyodide`` npm package into ``tests/pyodide/node_modules``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = HERE / "run.mjs"
PYODIDE_VERSION = "314.0.6"  # the version the JupyterLite Pyodide kernel expects


class SetupError(RuntimeError):
    """A tool this harness needs is missing or failed; the message says which and how to fix it."""


def node_exe() -> str | None:
    return shutil.which("node")


def ensure_node_modules(log=print) -> None:
    """``npm ci`` in tests/pyodide unless the pinned Pyodide is already installed there."""
    pkg = HERE / "node_modules" / "pyodide" / "package.json"
    if pkg.exists():
        import json

        if json.loads(pkg.read_text())["version"] == PYODIDE_VERSION:
            return
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("npm is not installed; it is needed to install the pinned pyodide package")
    log(f"npm ci in {HERE} (pyodide {PYODIDE_VERSION})")
    proc = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        raise SetupError(f"npm ci failed in {HERE}:\n{proc.stdout}\n{proc.stderr}")


def build_wheel(outdir: Path, root: Path = ROOT) -> Path:
    """``python -m build --wheel`` on a clean copy of the project; returns the pure-Python wheel.

    Building from a copy keeps a stale ``build/lib`` (files of deleted modules) out of the wheel and
    lets several builds run at once without sharing setuptools' build directory.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    try:
        import build  # noqa: F401
    except ModuleNotFoundError:
        raise SetupError("the PyPI package 'build' is missing: pip install build") from None
    with tempfile.TemporaryDirectory(prefix="spieltisch-src-") as tmp:
        src = Path(tmp) / "project"
        src.mkdir()
        for name in ("pyproject.toml", "setup.cfg", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
            if (root / name).exists():
                shutil.copy2(root / name, src / name)
        shutil.copytree(root / "src", src / "src",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        proc = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(outdir), str(src)],
            capture_output=True, text=True, timeout=600,
        )
    if proc.returncode != 0:
        raise SetupError(f"python -m build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    wheels = sorted(outdir.glob("spieltisch-*.whl"))
    if len(wheels) != 1:
        raise SetupError(f"expected one spieltisch wheel in {outdir}, found {[w.name for w in wheels]}")
    return wheels[0]


def wheel_tags(wheel: Path) -> str:
    """The ``py3-none-any`` part of ``name-version-py3-none-any.whl``."""
    return "-".join(wheel.name[: -len(".whl")].split("-")[-3:])


def unpack_wheel(wheel: Path, target: Path) -> Path:
    """Unzip the wheel so CPython can import exactly the code Pyodide gets (PYTHONPATH=target)."""
    target = Path(target)
    with zipfile.ZipFile(wheel) as z:
        z.extractall(target)
    return target


def run_cpython(script: Path, args: list[str], pythonpath: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(pythonpath).resolve()), PYTHONHASHSEED="0")
    return subprocess.run(
        [sys.executable, str(Path(script).resolve()), *args], capture_output=True, text=True, timeout=timeout, env=env,
    )


def run_pyodide(wheel: Path, script: Path, args: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    node = node_exe()
    if node is None:
        raise SetupError("node is not installed; Pyodide runs under Node (apt-get install nodejs)")
    ensure_node_modules(log=lambda m: print(m, file=sys.stderr))
    return subprocess.run(
        [node, str(RUNNER), "--wheel", str(Path(wheel).resolve()), str(Path(script).resolve()), *args],
        cwd=HERE, capture_output=True, text=True, timeout=timeout,
    )
