"""Build the offline static site into ``_site/``.

Layout of the result::

    _site/index.html          landing page: the registered games (spieltisch.game_ids()) + CARDS below
    _site/img/*.svg           game pictures
    _site/lite/               JupyterLite (Pyodide kernel), contents = notebooks/ + site/play/
    _site/lite/static/pyodide self-hosted Pyodide core (npm) + the kernel's pure wheels (PyPI)
    _site/lite/pypi/          our wheel + ipywidgets, anywidget & co. for piplite

Nothing in the built site may reach another host: the browser test in tests/site proves it.
Run with the interpreter of the site venv (``make site``); it needs jupyterlite-core,
jupyterlite-pyodide-kernel, jupyter_server and build from site/requirements.txt.
Only the standard library is imported here, so the script itself is testable anywhere.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import zipfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_SRC = ROOT / "site"
OUT = ROOT / "_site"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "site"  # scratch space and download cache, ignored by git
WHEEL_CACHE = WORK / "wheel-cache"
NOTEBOOKS = ROOT / "notebooks"
PLAY = SITE_SRC / "play"  # notebooks the REPL runs as a page (smoke.ipynb: the kernel self-test)
PLAY_APP = SITE_SRC / "play-app"  # the games' Play pages: Pyodide in a worker + the shared front-end
LITE = "lite"  # JupyterLite lives in _site/lite/, the landing page at the root
STAMP = ".build-info.json"

# The kernel (jupyterlite-pyodide-kernel 0.8.6) loads micropip from the Pyodide lock, then
# piplite-installs ipykernel, comm, pyodide-kernel, jedi and ipython; what is not in its own
# pypi/ folder or ours comes from the lock. These roots plus their lock dependencies are the
# wheels that must sit next to pyodide.mjs.
KERNEL_LOCK_ROOTS = ("micropip", "ipython", "jedi")

# Wheels piplite needs in the browser besides ours: the widget stack, at exactly the versions
# pinned in site/requirements.txt (read back from the venv so there is one source of truth).
# widgetsnbextension is not here: the kernel ships its own 4.0.999 stand-in.
BROWSER_PYPI = ("ipywidgets", "jupyterlab_widgets", "comm", "anywidget", "psygnal", "typing_extensions")
# Requirements of ipywidgets that only carry front-end files; the kernel never imports them.
FRONTEND_ONLY = {"jupyterlab-widgets", "widgetsnbextension"}

# Files of the npm pyodide package the browser needs; the rest is Node typings and demos.
PYODIDE_CORE = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)


def log(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def norm(name: str) -> str:
    """PEP 503 name, so 'prompt_toolkit' in a lock's depends finds 'prompt-toolkit'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --- inputs ---------------------------------------------------------------------------------


def build_wheel() -> Path:
    if not (ROOT / "pyproject.toml").exists():
        sys.exit("no pyproject.toml at the repo root: nothing to put in the site")
    DIST.mkdir(exist_ok=True)
    for old in DIST.glob("spieltisch-*.whl"):
        old.unlink()
    run([sys.executable, "-m", "build", "--wheel", "--outdir", DIST, ROOT], stdout=sys.stderr)
    wheels = sorted(DIST.glob("spieltisch-*-py3-none-any.whl"))
    if not wheels:
        sys.exit("python -m build made no py3-none-any wheel: Pyodide cannot load anything else")
    return wheels[-1]


def ensure_pyodide() -> Path:
    """The Pyodide core from npm (site/package-lock.json), installed into site/node_modules."""
    pkg = SITE_SRC / "node_modules" / "pyodide"
    wanted = json.loads((SITE_SRC / "package.json").read_text())["dependencies"]["pyodide"]
    have = None
    if (pkg / "package.json").exists():
        have = json.loads((pkg / "package.json").read_text())["version"]
    if have != wanted:
        run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=SITE_SRC)
    return pkg


def download_wheels(specs: list[str]) -> dict[str, Path]:
    """pip-download pure wheels for Python 3.14 (Pyodide's) into the cache; name -> path."""
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)

    def cached() -> dict[tuple[str, str], Path]:
        found = {}
        for whl in WHEEL_CACHE.glob("*.whl"):
            name, version = whl.name.split("-")[:2]
            found[(norm(name), version)] = whl
        return found

    def key(spec: str) -> tuple[str, str]:
        name, version = spec.split("==")
        return norm(name), version

    missing = [s for s in specs if key(s) not in cached()]
    if missing:
        run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--python-version", "3.14", "--implementation", "py", "--platform", "any",
             "--dest", WHEEL_CACHE, *missing]
        )
    have = cached()
    result = {}
    for spec in specs:
        if key(spec) not in have:
            sys.exit(f"pip download did not produce a wheel for {spec}")
        result[key(spec)[0]] = have[key(spec)]
    return result


# --- assembling the JupyterLite source dir ---------------------------------------------------


def lock_closure(packages: dict, roots) -> list[str]:
    by_norm = {norm(k): k for k in packages}
    todo, seen = [norm(r) for r in roots], []
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.append(n)
        todo.extend(norm(d) for d in packages[by_norm[n]]["depends"])
    return sorted(by_norm[n] for n in seen)


def wheel_requires(whl: Path) -> list[str]:
    """Runtime requirement names of a wheel (no extras), from its METADATA."""
    with zipfile.ZipFile(whl) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        lines = z.read(meta).decode("utf-8").splitlines()
    names = []
    for line in lines:
        if line.startswith("Requires-Dist:") and "extra ==" not in line:
            names.append(norm(re.match(r"[A-Za-z0-9._-]+", line.split(":", 1)[1].strip()).group(0)))
    return names


def lock_entry(whl: Path, name: str, version: str, depends: list[str]) -> dict:
    return {
        "name": name,
        "version": version,
        "file_name": whl.name,
        "sha256": sha256(whl),
        "depends": depends,
        "imports": [],
        "install_dir": "site",
        "package_type": "package",
        "unvendored_tests": False,
    }


def stage_pyodide(pyodide_pkg: Path, dest: Path, preload: dict[str, Path]) -> list[str]:
    """Copy the core and the kernel's wheels; rewrite the lock to list only what we host.

    PyPI's wheels are not byte-identical to Pyodide's own builds, so each entry's sha256 (and
    file name, in case PyPI names it differently) is rewritten or the browser refuses it.
    Packages we do not host are dropped, so a stray import fails fast instead of reaching a CDN.
    ``preload`` (name -> wheel) adds our wheel and the widget stack, so the kernel can load them
    at start (loadPyodideOptions.packages in jupyter-lite.json) and a play notebook can simply
    ``import spieltisch``.
    """
    dest.mkdir(parents=True)
    for name in PYODIDE_CORE:
        shutil.copy2(pyodide_pkg / name, dest / name)
    lock = json.loads((pyodide_pkg / "pyodide-lock.json").read_text())
    names = lock_closure(lock["packages"], KERNEL_LOCK_ROOTS)
    wheels = download_wheels([f"{n}=={lock['packages'][n]['version']}" for n in names])
    hosted = {}
    for n in names:
        whl = wheels[norm(n)]
        shutil.copy2(whl, dest / whl.name)
        entry = dict(lock["packages"][n])
        entry["file_name"] = whl.name
        entry["sha256"] = sha256(whl)
        entry["unvendored_tests"] = False
        hosted[n] = entry
    hosted_norm = {norm(n) for n in hosted} | {norm(n) for n in preload}
    for name, whl in preload.items():
        depends = []
        for req in wheel_requires(whl):
            if req in FRONTEND_ONLY:
                continue
            if req not in hosted_norm:
                sys.exit(f"{whl.name} needs {req}, which the site does not host (add it to the pins)")
            depends.append(req)
        version = whl.name.split("-")[1]
        shutil.copy2(whl, dest / whl.name)
        hosted[name] = lock_entry(whl, name, version, depends)
    lock["packages"] = hosted
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    return sorted(hosted)


def browser_wheels(our_wheel: Path) -> dict[str, Path]:
    """Our wheel plus the widget stack at the versions installed in this venv (the pins)."""
    wheels = download_wheels([f"{n}=={metadata.version(n)}" for n in BROWSER_PYPI])
    return {"spieltisch": our_wheel, **{norm(n): wheels[norm(n)] for n in BROWSER_PYPI}}


def stage_pypi(wheels: dict[str, Path], dest: Path) -> list[str]:
    """The same wheels for piplite, so `%pip install spieltisch` works in a notebook."""
    dest.mkdir(parents=True)
    for whl in wheels.values():
        shutil.copy2(whl, dest / whl.name)
    return sorted(p.name for p in dest.glob("*.whl"))


def join_multiline_outputs(nb: dict) -> int:
    """Join list-valued stored outputs into single strings; return how many were joined.

    nbformat allows a stream's ``text`` and a non-JSON mime entry of ``data`` as a list of lines,
    but JupyterLite 0.8.6 renders such a list with commas between the lines (",2: 0.5656 …").
    JSON mime types (``…json``) keep their value: a list there is the JSON document itself.
    """
    joined = 0
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) or []:
            if isinstance(out.get("text"), list):
                out["text"] = "".join(out["text"])
                joined += 1
            for mime, value in (out.get("data") or {}).items():
                if isinstance(value, list) and not mime.endswith("json"):
                    out["data"][mime] = "".join(value)
                    joined += 1
    return joined


def trust_code_cells(nb: dict) -> None:
    """Mark the code cells trusted, as a Jupyter server does for a signed notebook: JupyterLab reads
    ``metadata.trusted`` and otherwise shows stored SVG pictures as their text/plain fallback until
    the notebook is run. These are the project's own notebooks, built into its own site."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell.setdefault("metadata", {})["trusted"] = True


def copy_notebook(src: Path, dest: Path) -> None:
    """Copy a notebook with its stored outputs as single strings (see join_multiline_outputs),
    its code cells trusted."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    trust_code_cells(nb)
    joined = join_multiline_outputs(nb)
    if joined:
        log(f"{src.name}: {joined} list-valued output(s) joined into strings")
    dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    shutil.copystat(src, dest)


def stage_contents(dest: Path) -> None:
    """notebooks/*.ipynb at the root of the file browser, play notebooks under play/."""
    dest.mkdir(parents=True)
    if NOTEBOOKS.is_dir():
        for src in sorted(NOTEBOOKS.rglob("*")):
            rel = src.relative_to(NOTEBOOKS)
            if any(part.startswith(".") for part in rel.parts) or src.is_dir():
                continue
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            if src.suffix == ".ipynb":
                copy_notebook(src, dest / rel)
            else:
                shutil.copy2(src, dest / rel)
    else:
        log("no notebooks/ folder yet: the site has only the play notebooks")
    if PLAY.is_dir():
        shutil.copytree(PLAY, dest / "play", ignore=shutil.ignore_patterns(".*"))


def build_lite(our_wheel: Path) -> None:
    lite_src = WORK / "lite-src"
    contents = WORK / "contents"
    for d in (lite_src, contents):
        shutil.rmtree(d, ignore_errors=True)
    lite_src.mkdir(parents=True)
    shutil.copy2(SITE_SRC / "jupyter-lite.json", lite_src / "jupyter-lite.json")
    wheels = browser_wheels(our_wheel)
    preload = preload_names()
    unknown = set(preload) - set(wheels)
    if unknown:
        sys.exit(f"loadPyodideOptions.packages names {sorted(unknown)}, which the build does not provide")
    hosted = stage_pyodide(ensure_pyodide(), lite_src / "static" / "pyodide",
                           {n: wheels[n] for n in preload})
    log(f"Pyodide lock trimmed to {len(hosted)} hosted packages: {', '.join(hosted)}")
    pypi = stage_pypi(wheels, lite_src / "pypi")
    log(f"piplite wheels: {', '.join(pypi)}")
    stage_contents(contents)
    jupyter = Path(sys.executable).with_name("jupyter")
    run(
        [jupyter, "lite", "build", "--lite-dir", lite_src, "--output-dir", OUT / LITE,
         "--contents", contents, "--no-sourcemaps"],
        cwd=lite_src,
    )
    check_offline_config(OUT / LITE / "jupyter-lite.json")


def preload_names() -> list[str]:
    cfg = json.loads((SITE_SRC / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = cfg["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    return [norm(n) for n in kernel.get("loadPyodideOptions", {}).get("packages", [])]


def check_offline_config(path: Path) -> None:
    """Fail the build, not the browser, if the kernel would reach for a CDN."""
    cfg = json.loads(path.read_text())["jupyter-config-data"]
    kernel = cfg["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        sys.exit(f"kernel pyodideUrl is {kernel.get('pyodideUrl')!r}, not the self-hosted copy")
    if kernel.get("disablePyPIFallback") is not True:
        sys.exit("disablePyPIFallback must be true: a missing wheel must fail, not go to PyPI")


# --- landing page ----------------------------------------------------------------------------


def lite_url(app: str, path: str) -> str:
    return f"{LITE}/{app}/index.html?" + urllib.parse.urlencode({"path": path})


def play_url(game: dict) -> str:
    return f"play/{game['id']}.html"


def _lang_text(text: dict) -> str:
    """``{"de": ..., "en": ...}`` as markup: one span per language, or plain text when both agree."""
    if text["de"] == text["en"]:
        return html.escape(text["de"])
    return "".join(f'<span lang="{k}">{html.escape(text[k])}</span>' for k in ("de", "en"))


def _players(lo: int, hi: int, lang: str) -> str:
    span = str(lo) if lo == hi else f"{lo}–{hi}"
    return f"{span} Spieler" if lang == "de" else f"{span} {'player' if hi == 1 else 'players'}"


def _card_text(card: dict, lang: str) -> str:
    """A card's paragraph in one language: the summary, or each game's label and summary."""
    if len(card["games"]) > 1:
        parts = [f"<strong>{html.escape(g['label'][lang])}:</strong> {html.escape(g['summary'][lang])}"
                 for g in card["games"]]
    else:
        parts = [html.escape(card["summary"][lang])]
    if card["players"]:
        parts.append(f'<small class="players">{_players(*card["players"], lang)}</small>')
    return "<br>\n".join(parts)


def render_landing(cards: list[dict]) -> str:
    template = (SITE_SRC / "landing" / "index.html").read_text(encoding="utf-8")
    out = []
    for c in cards:
        if c["ready"]:
            links = (
                f'<a class="button play" href="{html.escape(play_url(c))}">'
                f'<span lang="de">Spielen</span><span lang="en">Play</span></a>'
            )
            if c["explore"]:  # a game without its lesson yet has Play only
                links += (
                    f'\n<a class="button explore" href="{html.escape(lite_url("notebooks", c["explore"]))}">'
                    f'<span lang="de">Erkunden</span><span lang="en">Explore</span></a>'
                )
        else:
            links = '<span class="soon"><span lang="de">kommt bald</span><span lang="en">coming soon</span></span>'
        ids = " ".join(g["id"] for g in c["games"])
        out.append(
            f"""<li class="game{'' if c['ready'] else ' not-ready'}" id="{html.escape(c['id'])}" data-ready="{str(c['ready']).lower()}" data-games="{html.escape(ids)}">
  <img src="img/{html.escape(c['image'])}" alt="" width="96" height="96">
  <h2>{_lang_text(c['name'])}</h2>
  <p lang="de">{_card_text(c, 'de')}</p>
  <p lang="en">{_card_text(c, 'en')}</p>
  <div class="links">{links}</div>
</li>"""
        )
    return template.replace("<!-- GAMES -->", "\n".join(out))


def render_play_page(notebook: Path, title: str) -> str:
    """A page showing only the game: the play notebook run in JupyterLite, code hidden."""
    template = (SITE_SRC / "landing" / "play.html").read_text(encoding="utf-8")
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    code = [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in nb["cells"]
        if c["cell_type"] == "code"
    ]
    query = [("kernel", "python"), ("toolbar", "0"), ("showBanner", "0"),
             ("hideCodeInput", "1"), ("promptCellPosition", "bottom")]
    query += [("code", c) for c in code if c.strip()]
    src = f"../{LITE}/repl/index.html?" + urllib.parse.urlencode(query)
    return (
        template.replace("{{TITLE}}", html.escape(title))
        .replace("{{SRC}}", html.escape(src))
    )


def build_play_pages(cards: list[dict], wheel: Path) -> list[str]:
    """A Play page per ready card: Pyodide (the site's own copy in lite/static/pyodide/) in a web
    worker with only the project wheel, and the shared front-end (table.mjs, the same ESM the
    notebooks and Panel use). A service worker keeps every file of it for the next visit."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    from spieltisch.ui.table import front_end_source

    out = OUT / "play"
    out.mkdir(exist_ok=True)
    template = (PLAY_APP / "play.html").read_text(encoding="utf-8")
    pages = []
    for card in cards:
        if not card["ready"]:
            continue
        title = html.escape(card["name"]["de"])
        page = template.replace("{{TITLE}}", title).replace("{{GAME}}", html.escape(card["id"]))
        (out / f"{card['id']}.html").write_text(page, encoding="utf-8")
        pages.append(f"{card['id']}.html")
    for name in ("play.mjs", "worker.mjs"):
        shutil.copy2(PLAY_APP / name, out / name)
    (out / "table.mjs").write_text(front_end_source(), encoding="utf-8")
    pyodide = OUT / LITE / "static" / "pyodide"
    if not (pyodide / wheel.name).exists():
        sys.exit(f"the Play pages load {wheel.name} from {pyodide.relative_to(ROOT)}, which lacks it")
    files = pages + ["play.mjs", "worker.mjs", "table.mjs"] + [
        f"../{LITE}/static/pyodide/{name}" for name in
        ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", wheel.name)]
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode())
        digest.update(sha256((out / rel).resolve()).encode())
    worker = (PLAY_APP / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("{{VERSION}}", digest.hexdigest()[:16]).replace("{{FILES}}", json.dumps(files))
    (out / "sw.js").write_text(worker, encoding="utf-8")
    return files


def build_landing(cards: list[dict]) -> None:
    (OUT / "img").mkdir(parents=True, exist_ok=True)
    for svg in (SITE_SRC / "landing" / "img").glob("*.svg"):
        shutil.copy2(svg, OUT / "img" / svg.name)
    shutil.copy2(SITE_SRC / "landing" / "style.css", OUT / "style.css")
    (OUT / "index.html").write_text(render_landing(cards), encoding="utf-8")
    (OUT / "play").mkdir(exist_ok=True)
    # Every play notebook gets a page, ready or not (smoke.ipynb is the site's self-test);
    # the landing page links only the ready games.
    names = {c["id"]: c["name"]["de"] for c in cards}
    for nb in sorted(PLAY.glob("*.ipynb")):
        page = render_play_page(nb, names.get(nb.stem, nb.stem))
        (OUT / "play" / f"{nb.stem}.html").write_text(page, encoding="utf-8")
    # GitHub Pages must serve folders like _static as they are.
    (OUT / ".nojekyll").write_text("")


# --- the game list ---------------------------------------------------------------------------
#
# Names, summaries and player counts of the games that exist come from their classes (the
# registry), so they are written once, next to the rules. What the registry cannot know is kept
# here: which registered games share a landing card (a family such as Würfel Joker: one picture,
# one Play page, one Explore notebook), and the games that are not built yet. A card's id names
# its picture (site/landing/img/<id>.svg), Play notebook (site/play/<id>.ipynb) and Explore
# notebook (notebooks/<id>.ipynb; optional: a ready card without it has no Explore button).
# Order = order on the page.

CARDS = (
    {"id": "wuerfel-joker", "games": ("wuerfel-joker-1", "wuerfel-joker-2")},
    {"id": "tuefteln", "games": ("tuefteln",)},
    {"id": "schraube-locker", "planned": {
        "name": {"de": "Schraube Locker", "en": "Schraube Locker"},
        "summary": {
            "de": "Mit den Würfeln um den Kartenkreis ziehen, wertvolle Karten sammeln und sie mit "
                  "Schrauben und Muttern vor Nachbarn schützen.",
            "en": "Move around a circle of cards by dice, collect valuable cards and protect them "
                  "from neighbours with screws and nuts.",
        }}},
    {"id": "skip-bo-masters", "planned": {
        "name": {"de": "Skip-Bo Masters", "en": "Skip-Bo Masters"},
        "summary": {
            "de": "Karten von 1 bis 12 in Reihe ablegen, Münzen als Zoll zahlen und den eigenen "
                  "Vorratsstapel als Erste leeren.",
            "en": "Play cards 1 to 12 in sequence, pay coins as a toll, and be first to empty your "
                  "stock pile.",
        }}},
    {"id": "scratch-island", "games": ("scratch-island",)},
)

# Separates a family's name from the game's own part in a registered name: "Würfel Joker – Spiel 1".
FAMILY_SEP = " – "


def registered_games() -> dict[str, dict]:
    """id -> name, summary and player range of every registered game, read from the package source
    (standard library only, so this interpreter imports it without installing the wheel)."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    import spieltisch

    games = {}
    for gid in spieltisch.game_ids():
        cls = spieltisch.get_game_class(gid)
        for field in ("name", "summary"):
            text = getattr(cls, field)
            if not all(isinstance(text.get(k), str) and text[k].strip() for k in ("de", "en")):
                raise SystemExit(f"game {gid}: {field} must have German and English text, got {text!r}")
        games[gid] = {"id": gid, "name": dict(cls.name), "summary": dict(cls.summary),
                      "players": (cls.min_players, cls.max_players),
                      "view": bool(getattr(cls, "view", None))}
    return games


def _family_name(card_id: str, games: list[dict]) -> tuple[dict, list[dict]]:
    """The shared name of a card's games and each game's own part ("Spiel 1"); one game: its name."""
    if len(games) == 1:
        return dict(games[0]["name"]), [{**games[0], "label": dict(games[0]["name"])}]
    name, labelled = {}, [{**g, "label": {}} for g in games]
    for lang in ("de", "en"):
        heads = set()
        for g in labelled:
            head, sep, own = g["name"][lang].partition(FAMILY_SEP)
            if not sep:
                raise SystemExit(f"card {card_id}: {g['id']} is named {g['name'][lang]!r}; the games of a "
                                 f"card are named '<family>{FAMILY_SEP}<game>'")
            heads.add(head)
            g["label"][lang] = own[:1].upper() + own[1:]
        if len(heads) != 1:
            raise SystemExit(f"card {card_id}: its games name different families {sorted(heads)}")
        name[lang] = heads.pop()
    return name, labelled


def landing_cards(cards=CARDS, registered: dict[str, dict] | None = None) -> list[dict]:
    """The landing page's cards: every registered game on exactly one ready card, then the planned
    games. Fails (SystemExit, naming the game) on a registered game without a card, a card naming
    an unregistered game, a planned game that is registered with a view, or a missing picture or
    notebook. A registered game without a view (engine built, front-end not yet) stays planned."""
    if registered is None:
        registered = registered_games()
    out, placed = [], {}
    for card in cards:
        cid = card["id"]
        if ("games" in card) == ("planned" in card):
            raise SystemExit(f"card {cid}: give either its registered 'games' or its 'planned' name and summary")
        if cid in {c["id"] for c in out}:
            raise SystemExit(f"card {cid} appears twice")
        if not (SITE_SRC / "landing" / "img" / f"{cid}.svg").exists():
            raise SystemExit(f"card {cid}: site/landing/img/{cid}.svg is missing")
        entry = {"id": cid, "image": f"{cid}.svg", "explore": f"{cid}.ipynb"}
        if "planned" in card:
            # A game whose engine is registered but which has no view yet stays on its planned card
            # (its rules can be simulated and analysed, not yet played on the site).
            if cid in registered and registered[cid].get("view"):
                raise SystemExit(f"game {cid} is registered now: list it under 'games' of a card, not as planned")
            if cid in registered:
                placed[cid] = cid
            out.append({**entry, "ready": False, "games": [], "players": None, **card["planned"]})
            continue
        games = []
        for gid in card["games"]:
            if gid not in registered:
                raise SystemExit(f"card {cid} names game {gid!r}, which is not registered "
                                 f"(registered: {', '.join(registered)})")
            if gid in placed:
                raise SystemExit(f"game {gid} is on two cards: {placed[gid]} and {cid}")
            placed[gid] = cid
            games.append(registered[gid])
        if not (NOTEBOOKS / entry["explore"]).exists():
            entry["explore"] = None  # no lesson yet: the card shows Play but no Explore button
        name, games = _family_name(cid, games)
        players = (min(g["players"][0] for g in games), max(g["players"][1] for g in games))
        summary = games[0]["summary"] if len(games) == 1 else None
        out.append({**entry, "ready": True, "name": name, "summary": summary, "games": games,
                    "players": players})
    homeless = [gid for gid in registered if gid not in placed]
    if homeless:
        raise SystemExit(f"registered game(s) {', '.join(homeless)} have no card on the landing page: "
                         "add them to CARDS in site/build.py")
    return out


# --- freshness (the browser tests reuse a fresh _site/) --------------------------------------


def input_files() -> list[Path]:
    files = [ROOT / "pyproject.toml"]
    for base in (SITE_SRC, NOTEBOOKS, ROOT / "src"):
        if base.is_dir():
            files += [
                p for p in base.rglob("*")
                if p.is_file()
                and "node_modules" not in p.parts
                and "__pycache__" not in p.parts
                and ".egg-info" not in str(p)
            ]
    return [p for p in files if p.exists()]


def is_fresh() -> bool:
    stamp = OUT / STAMP
    if not stamp.exists():
        return False
    built = stamp.stat().st_mtime
    return all(p.stat().st_mtime <= built for p in input_files())


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build() -> None:
    started = time.monotonic()
    cards = landing_cards()
    shutil.rmtree(OUT, ignore_errors=True)
    wheel = build_wheel()
    build_lite(wheel)
    build_landing(cards)
    play_files = build_play_pages(cards, wheel)
    log(f"Play pages: {', '.join(f for f in play_files if f.endswith('.html'))}")
    info = {"wheel": wheel.name, "bytes": dir_size(OUT), "seconds": round(time.monotonic() - started, 1)}
    (OUT / STAMP).write_text(json.dumps(info, indent=1))
    log(f"built {OUT.relative_to(ROOT)}/: {info['bytes'] / 1e6:.1f} MB in {info['seconds']} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--if-stale", action="store_true", help="skip when _site/ is newer than every input")
    args = parser.parse_args(argv)
    if args.if_stale and is_fresh():
        log(f"{OUT.relative_to(ROOT)}/ is fresh, not rebuilding")
        return 0
    os.chdir(ROOT)
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
