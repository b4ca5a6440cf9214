"""axe-core in the browser tests: WCAG 2.0/2.1 A and AA rules on a live page.

axe-core is a test tool (``tests/site/package.json``, pinned, installed by ``npm ci`` on first use);
it is injected into the page under test and never shipped with the site.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = json.loads((HERE / "package.json").read_text())["dependencies"]["axe-core"]
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def ensure_axe() -> Path:
    """``npm ci`` in tests/site unless the pinned axe-core is there."""
    pkg = AXE.parent / "package.json"
    if pkg.exists() and json.loads(pkg.read_text())["version"] == AXE_VERSION:
        return AXE
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to install axe-core for the accessibility tests")
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"npm ci failed in {HERE}:\n{proc.stdout}\n{proc.stderr}")
    return AXE


def axe_violations(page, include: str | None = None) -> list[dict]:
    """The WCAG 2.1 A/AA violations axe-core finds on ``page`` (or inside the ``include`` selector):
    ``[{"id", "impact", "nodes": [target, ...], "help"}]``."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(ensure_axe()))
    result = page.evaluate(
        """async ([include, tags]) => {
            const context = include ? { include: [include] } : document;
            const r = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
            return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 6).map(n => [n.target.join(' '), n.failureSummary.slice(0, 240)]) }));
        }""",
        [include, WCAG_AA],
    )
    return result


def assert_accessible(page, where: str, include: str | None = None) -> None:
    found = axe_violations(page, include)
    assert not found, f"axe-core {AXE_VERSION} at {where}: " + json.dumps(found, ensure_ascii=False, indent=1)[:4000]
