"""Every notebook in notebooks/ runs and reproduces its stored outputs (nbval).

Each notebook is checked by ``pytest --nbval`` in a subprocess (its own kernel, the current
environment), so a notebook added later is covered without touching this file.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ has no .ipynb files"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "notebooks")) for p in NOTEBOOKS])
def test_notebook_outputs_reproduce(notebook):
    pytest.importorskip("nbval")
    cmd = [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider", "-q",
           "--rootdir", str(ROOT), str(notebook)]
    sanitize = ROOT / "notebooks" / "nbval-sanitize.cfg"
    if sanitize.exists():
        cmd[4:4] = ["--nbval-sanitize-with", str(sanitize)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"nbval failed for {notebook.name}:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
