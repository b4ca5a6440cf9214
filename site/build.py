"""Build the offline static site into ``_site/``.

Layout of the result::

    _site/index.html          landing page: the registered games (spieltisch.game_ids()) + CARDS below
    _site/lehrkraefte.html    the teachers' page: per lesson goals, grade, 45-minute path, links
    _site/arbeitsblatt/<lang>/<id>.html   a lesson's printable worksheet (predictions first)
    _site/arbeitsblatt/<lang>/<id>-loesungen|answers.html   its answer key
    _site/img/*.svg           game pictures
    _site/lite/               JupyterLite (Pyodide kernel), contents = notebooks/ + site/play/; a lesson
                              notebooks/<lang>/<id>.ipynb becomes <lang>/<id>.ipynb (student version)
                              and <lang>/lehrkraefte|teachers/<id>.ipynb (teacher version)
    _site/lite/static/pyodide self-hosted Pyodide core (npm) + the kernel's pure wheels (PyPI)
    _site/lite/pypi/          our wheel + ipywidgets, anywidget & co. for piplite

Nothing in the built site may reach another host: the browser test in tests/site proves it.
Run with the interpreter of the site venv (``make site``); it needs jupyterlite-core,
jupyterlite-pyodide-kernel, jupyter_server and build from site/requirements.txt.
Only the standard library is imported here, so the script itself is testable anywhere.
"""

from __future__ import annotations

import argparse
import ast
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

# QR codes of class rounds (the projector's link, a student's result code) are drawn in the page's
# Python by segno (pure Python, maintained, no dependencies); the Play pages and the class board load
# its wheel only when they draw one, so a Play page's first download stays as it was.
SEGNO = "segno==1.6.6"

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
    """The Pyodide core (and jsQR) from npm (site/package-lock.json), installed into site/node_modules."""
    wanted = json.loads((SITE_SRC / "package.json").read_text())["dependencies"]
    for name, version in wanted.items():
        pkg = SITE_SRC / "node_modules" / name / "package.json"
        if not pkg.exists() or json.loads(pkg.read_text())["version"] != version:
            run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=SITE_SRC)
            break
    return SITE_SRC / "node_modules" / "pyodide"


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


LESSON_LANGS = ("de", "en")
TEACHERS_PAGE = "lehrkraefte.html"
WORKSHEETS = "arbeitsblatt"


def lesson_kit():
    """spieltisch.lesson.versions from this checkout's src (standard library only)."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    from spieltisch.lesson import versions

    return versions


def lessons(notebooks: Path | None = None) -> dict[str, dict[str, dict]]:
    """id -> {lang: lesson metadata} of the lesson notebooks notebooks/<lang>/<id>.ipynb."""
    notebooks = NOTEBOOKS if notebooks is None else notebooks
    out: dict[str, dict[str, dict]] = {}
    for lang in LESSON_LANGS:
        for path in sorted((notebooks / lang).glob("*.ipynb")):
            meta = lesson_kit().info(json.loads(path.read_text(encoding="utf-8")))
            if meta["id"] != path.stem or meta["lang"] != lang:
                raise SystemExit(f"{path}: its lesson metadata says id {meta['id']!r}, "
                                 f"lang {meta['lang']!r}")
            out.setdefault(path.stem, {})[lang] = meta
    for lid, by_lang in out.items():
        if set(by_lang) != set(LESSON_LANGS):
            raise SystemExit(f"lesson {lid} exists only in {sorted(by_lang)}: a lesson needs German and English")
    return out


def student_path(lesson_id: str, lang: str) -> str:
    return f"{lang}/{lesson_id}.ipynb"


def teacher_path(lesson_id: str, lang: str) -> str:
    return f"{lang}/{lesson_kit().TEACHER_DIR[lang]}/{lesson_id}.ipynb"


def write_notebook(nb: dict, dest: Path) -> None:
    trust_code_cells(nb)
    join_multiline_outputs(nb)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def stage_contents(dest: Path) -> None:
    """notebooks/*.ipynb at the root of the file browser, play notebooks under play/; a lesson
    (notebooks/<lang>/<id>.ipynb) as its student version at the same place and its teacher
    version in <lang>/lehrkraefte/ or <lang>/teachers/."""
    dest.mkdir(parents=True)
    if NOTEBOOKS.is_dir():
        versions = lesson_kit()
        for src in sorted(NOTEBOOKS.rglob("*")):
            rel = src.relative_to(NOTEBOOKS)
            if any(part.startswith(".") for part in rel.parts) or src.is_dir():
                continue
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            if src.suffix == ".ipynb" and len(rel.parts) == 2 and rel.parts[0] in LESSON_LANGS:
                nb = json.loads(src.read_text(encoding="utf-8"))
                write_notebook(versions.student(nb), dest / student_path(src.stem, rel.parts[0]))
                write_notebook(versions.teacher(nb), dest / teacher_path(src.stem, rel.parts[0]))
            elif src.suffix == ".ipynb":
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
            explore = c.get("explore")
            if explore and explore["de"] == explore["en"]:  # a notebook that is not a lesson yet
                links += (f'\n<a class="button explore" href="{html.escape(lite_url("notebooks", explore["de"]))}">'
                          f'<span lang="de">Erkunden</span><span lang="en">Explore</span></a>')
            elif explore:  # a lesson: the students' page (no code) in the page's language
                links += "".join(
                    f'\n<a class="button explore" lang="{lang}" href="{html.escape(lesson_page_path(c["id"], lang))}">'
                    f'{word}</a>' for lang, word in (("de", "Erkunden"), ("en", "Explore")))
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
    return (template.replace("<!-- GAMES -->", "\n".join(out))
            .replace("{{CLASS_GAMES}}", html.escape(json.dumps(class_cards()))))


def class_cards() -> list[str]:
    """The Play page of each class-code game, by the index a class code's first character gives:
    the landing page's "Code eingeben" opens play/<card>.html?class=CODE without loading Python."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    from spieltisch.ui import classroom

    from spieltisch.core.registry import get_game_class

    games = classroom.class_games()
    cards = [None] * (1 + max((get_game_class(g).class_code_number for g in games), default=-1))
    for g in games:
        cards[get_game_class(g).class_code_number] = classroom.card_of(g)
    return cards


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
    shutil.copy2(PLAY_APP / "play.mjs", out / "play.mjs")
    (out / "table.mjs").write_text(front_end_source(), encoding="utf-8")
    # the class board (play/klasse.html, in the Play pages' offline copy), segno for the QR codes and
    # jsQR for the camera where the browser has no BarcodeDetector
    for name in ("klasse.html", "klasse.mjs", "class.mjs"):
        shutil.copy2(PLAY_APP / name, out / name)
    shutil.copy2(SITE_SRC / "node_modules" / "jsqr" / "dist" / "jsQR.js", out / "jsQR.js")
    segno = download_wheels([SEGNO])["segno"]
    shutil.copy2(segno, out / segno.name)
    pyodide = OUT / LITE / "static" / "pyodide"
    if not (pyodide / wheel.name).exists():
        sys.exit(f"the Play pages load {wheel.name} from {pyodide.relative_to(ROOT)}, which lacks it")
    # A warm visit restores a snapshot of Python's memory made by the first one; it belongs to this
    # wheel and this Pyodide, so their hash names it (a new build never restores an old snapshot).
    snapshot = hashlib.sha256("".join(
        sha256(pyodide / name) for name in (wheel.name, "pyodide.asm.wasm", "python_stdlib.zip")).encode())
    worker = (PLAY_APP / "worker.mjs").read_text(encoding="utf-8")
    (out / "worker.mjs").write_text(
        worker.replace("{{WHEEL}}", wheel.name).replace("{{SNAPSHOT}}", snapshot.hexdigest()[:16])
        .replace("{{SEGNO}}", segno.name), encoding="utf-8")
    files = pages + ["play.mjs", "worker.mjs", "table.mjs", "klasse.html", "klasse.mjs", "class.mjs", "jsQR.js",
                     segno.name] + [
        f"../{LITE}/static/pyodide/{name}" for name in
        ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", wheel.name)]
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode())
        digest.update(sha256((out / rel).resolve()).encode())
    worker = (PLAY_APP / "sw.js").read_text(encoding="utf-8")
    worker = (worker.replace("{{PREFIX}}", "spieltisch-play-").replace("{{VERSION}}", digest.hexdigest()[:16])
              .replace("{{FILES}}", json.dumps(files)))
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
# its picture (site/landing/img/<id>.svg), Play page and lesson (notebooks/de/<id>.ipynb and
# notebooks/en/<id>.ipynb, docs/lessons.md; Explore opens it). Order = order on the page.

CARDS = (
    {"id": "wuerfel-joker", "games": ("wuerfel-joker-1", "wuerfel-joker-2")},
    {"id": "tuefteln", "games": ("tuefteln",)},
    {"id": "schraube-locker", "games": ("schraube-locker",)},
    {"id": "skip-bo-masters", "games": ("skip-bo-masters",)},
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
    notebook. A registered game without a view (engine built, front-end not yet) stays planned.
    A ready card's ``explore`` is ``{lang: notebook path}`` (its lesson's student version, or an older
    notebooks/<id>.ipynb for both languages) or None: then the card shows Play only."""
    if registered is None:
        registered = registered_games()
    lesson_ids = set(lessons())
    out, placed = [], {}
    for card in cards:
        cid = card["id"]
        if ("games" in card) == ("planned" in card):
            raise SystemExit(f"card {cid}: give either its registered 'games' or its 'planned' name and summary")
        if cid in {c["id"] for c in out}:
            raise SystemExit(f"card {cid} appears twice")
        if not (SITE_SRC / "landing" / "img" / f"{cid}.svg").exists():
            raise SystemExit(f"card {cid}: site/landing/img/{cid}.svg is missing")
        entry = {"id": cid, "image": f"{cid}.svg", "explore": None}
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
        # Explore: the lesson's student version in the page's language; else an older notebook
        # notebooks/<id>.ipynb; else none (a ready card without a lesson shows only Play).
        if cid in lesson_ids:
            entry["explore"] = {lang: student_path(cid, lang) for lang in LESSON_LANGS}
        elif (NOTEBOOKS / f"{cid}.ipynb").exists():
            entry["explore"] = {lang: f"{cid}.ipynb" for lang in LESSON_LANGS}
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


# --- the teachers' page and the worksheets ---------------------------------------------------

TEACHER_WORDS = {
    "de": {"title": "Für Lehrkräfte", "grade": "Klassenstufe", "goals": "Lernziele", "path": "Der 45-Minuten-Weg",
           "min": "Min.", "part": "Abschnitt", "show": "Wie", "ask": "Frage an die Klasse",
           "student_page": "Schülerseite öffnen (ohne Code)", "student": "Schülerfassung als Notebook (mit Python)",
           "teacher": "Lehrerfassung (mit Lösungen) öffnen",
           "sheet": "Arbeitsblatt (druckfertig)", "back": "Zur Startseite",
           "intro": "Jede Lektion passt in eine Unterrichtsstunde: Die Schülerinnen und Schüler sagen erst voraus, "
                    "rechnen dann von Hand, lassen das Programm exakt rechnen und simulieren und vergleichen zum "
                    "Schluss. Die Schülerfassung enthält keine Lösungen; die Lehrerfassung zeigt alle Ergebnisse "
                    "und Hinweise zum Unterricht.",
           "name": "Name", "date": "Datum", "print": "Drucken", "sheet_title": "Arbeitsblatt",
           "extensions": "Erweiterungen (wenn Zeit bleibt, oder als Hausaufgabe)",
           "key": "Lösungen zum Arbeitsblatt (druckfertig)", "key_title": "Lösungen",
           "key_intro": "Alle Werte rechnet das Programm aus (die Fragen der Lektion, exakt als Brüche); "
                        "„Lehrerfassung“: was die Lehrerfassung der Lektion dazu ausgibt.",
           "sheet_link": "Zum Arbeitsblatt"},
    "en": {"title": "For teachers", "grade": "Grade level", "goals": "Learning goals", "path": "The 45-minute path",
           "min": "min", "part": "Section", "show": "How", "ask": "Question to ask",
           "student_page": "Open the students' page (no code)", "student": "Student version as a notebook (with Python)",
           "teacher": "Open the teacher version (with answers)",
           "sheet": "Worksheet (print-ready)", "back": "Back to the start page",
           "intro": "Each lesson fits one period: students predict first, then calculate by hand, let the program "
                    "compute exactly and simulate, and compare at the end. The student version contains no answers; "
                    "the teacher version shows every result and notes for teaching.",
           "name": "Name", "date": "Date", "print": "Print", "sheet_title": "Worksheet",
           "extensions": "Extensions (if there is time, or as homework)",
           "key": "Worksheet answer key (print-ready)", "key_title": "Answer key",
           "key_intro": "The program computes every value (the lesson's questions, exact as fractions); "
                        "“Teacher version”: what the lesson's teacher version prints for it.",
           "sheet_link": "To the worksheet"},
}


def worksheet_path(lesson_id: str, lang: str) -> str:
    return f"{WORKSHEETS}/{lang}/{lesson_id}.html"


def answer_key_path(lesson_id: str, lang: str) -> str:
    return f"{WORKSHEETS}/{lang}/{lesson_id}-{'loesungen' if lang == 'de' else 'answers'}.html"


def render_teachers(cards: list[dict], all_lessons: dict) -> str:
    """The teachers' page: per lesson and language its goals, grade, 45-minute path and links."""
    names = {c["id"]: c["name"] for c in cards}
    sections = []
    for lid, by_lang in all_lessons.items():
        for lang in LESSON_LANGS:
            meta, w = by_lang[lang], TEACHER_WORDS[lang]
            rows = "".join(
                f"<tr><td>{int(step['minutes'])}</td><td>{html.escape(step['cells'])}</td>"
                f"<td>{html.escape(step.get('show', ''))}</td><td>{html.escape(step.get('ask', ''))}</td></tr>"
                for step in meta["path"])
            goals = "".join(f"<li>{html.escape(g)}</li>" for g in meta["goals"])
            extra = "".join(
                f"<tr><td>{int(step['minutes'])}</td><td>{html.escape(step['cells'])}</td>"
                f"<td>{html.escape(step.get('show', ''))}</td><td>{html.escape(step.get('ask', ''))}</td></tr>"
                for step in meta.get("extensions", ()))
            if extra:
                extra = (f"<h3>{w['extensions']}</h3>\n  <table class=\"extensions\"><thead><tr><th>{w['min']}</th>"
                         f"<th>{w['part']}</th><th>{w['show']}</th><th>{w['ask']}</th></tr></thead>\n  <tbody>{extra}</tbody></table>")
            game = names.get(lid, {}).get(lang, lid)
            sections.append(f"""<section class="lesson" id="{html.escape(lid)}-{lang}" lang="{lang}" data-lesson="{html.escape(lid)}">
  <h2>{html.escape(meta['title'])}</h2>
  <p class="meta">{html.escape(game)} · {w['grade']}: <span class="grade">{html.escape(meta['grade'])}</span> · {int(meta['minutes'])} {w['min']}</p>
  <h3>{w['goals']}</h3>
  <ul class="goals">{goals}</ul>
  <h3>{w['path']}</h3>
  <table class="path"><thead><tr><th>{w['min']}</th><th>{w['part']}</th><th>{w['show']}</th><th>{w['ask']}</th></tr></thead>
  <tbody>{rows}</tbody></table>
  {extra}
  <p class="links">
    <a class="button explore student" href="{html.escape(lesson_page_path(lid, lang))}">{w['student_page']}</a>
    <a class="button student-notebook" href="{html.escape(lite_url('notebooks', student_path(lid, lang)))}">{w['student']}</a>
    <a class="button teacher" href="{html.escape(lite_url('notebooks', teacher_path(lid, lang)))}">{w['teacher']}</a>
    <a class="button worksheet" href="{html.escape(worksheet_path(lid, lang))}">{w['sheet']}</a>
    <a class="button answer-key" href="{html.escape(answer_key_path(lid, lang))}">{w['key']}</a>
  </p>
</section>""")
    template = (SITE_SRC / "landing" / "teachers.html").read_text(encoding="utf-8")
    return template.replace("<!-- LESSONS -->", "\n".join(sections))


def drawings(lesson_id: str, lang: str) -> dict:
    """The drawing areas of a lesson's worksheet: question index -> SVG, drawn from the game's own data
    (spieltisch.lesson.sheet refuses a worksheet whose task asks to draw and has none)."""
    lesson_kit()
    from spieltisch.lesson import sheet

    if lesson_id == "tuefteln":
        # question 3 draws every way to write two 2s and two 5s into a square (its task's numbers)
        from spieltisch.games.tuefteln import analysis

        return {2: sheet.blank_squares(sum(analysis.arrangements((2, 2, 5, 5)).values()), lang)}
    if lesson_id == "scratch-island":
        return {0: boat_surroundings(lang)}
    return {}


SKETCHES = 8  # Scratch Island's drawing boards: not 4 (the orientations), 6 (the tries that fit) or 16 (all tries)


def boat_surroundings(lang: str) -> str:
    """Scratch Island, question 1: the cells around the boat that the 4-T can reach, as printed on the
    lesson's map (booklet page of the questions), with the cells off the map hatched: SKETCHES unlabelled
    copies to draw the orientations in (the lesson's "Lagen"). Their number is none of the question's
    answers (orientations, tries, tries that fit): one copy per orientation would tell the first result."""
    from spieltisch.games.scratch_island import lesson as si
    from spieltisch.games.scratch_island import questions as siq
    from spieltisch.games.scratch_island.engine import SIZE, cell_name, orientations
    from spieltisch.lesson import sheet

    layout = si.start_view(siq.PAGE).layout
    shapes = orientations("T4", False)  # the question's motif, turned, not mirrored (decision D1)
    reach = max(max(r, c) for shape in shapes for r, c in shape)  # how far a cell of it lies from the boat
    br, bc = divmod(layout.boat, SIZE)
    rows = range(br - reach, br + reach + 1)
    cols = range(bc - reach, bc + reach + 1)
    column = lambda c: "ABCDEFGHIJ"[c] if 0 <= c < SIZE else f"x{c}"  # off the map: hatched, not named  # noqa: E731
    name = lambda r, c: f"{column(c)}{r + 1}"  # noqa: E731
    inside = [(r, c) for r in rows for c in cols if 0 <= r < SIZE and 0 <= c < SIZE]
    assert all(name(r, c) == cell_name(r * SIZE + c) for r, c in inside), "cell names as the game writes them"
    printed = si.near(layout, layout.boat, 2 * reach)  # every printed feature in the window
    de = lang == "de"
    words = {"rocks": "Fels" if de else "rock", "crosses": "Kreuz" if de else "cross", "chests": "Truhe" if de else "chest"}
    window = {name(r, c) for r in rows for c in cols}
    marks = {cell: words[kind] for kind in words for cell in printed[kind] if cell in window}
    marks[cell_name(layout.boat)] = "Boot" if de else "boat"
    walls = [(a, b) for a, b in printed["walls"] if a in window and b in window]
    outside = [name(r, c) for r in rows for c in cols if not (0 <= r < SIZE and 0 <= c < SIZE)]
    what = ("das Boot und seine Umgebung (schraffiert: außerhalb der Karte)" if de
            else "the boat and its surroundings (hatched: off the map)")
    covers = si.boat_covers(layout, "T4")
    answers = {len(shapes), covers["orientations"], covers["total"], covers["legal"]}
    assert SKETCHES not in answers and SKETCHES >= len(shapes), "room for every orientation, and no answer given away"
    sketch = "Skizze" if de else "Sketch"
    boards = []
    for k in range(SKETCHES):
        board = sheet.blank_board([column(c) for c in cols], [r + 1 for r in rows], lang, marks=marks,
                                  outside=outside, walls=walls, what=f"{sketch} {k + 1}: {what}",
                                  title=f"{sketch} {k + 1}", cell=24)
        boards.append(board)
    return "".join(boards)


def render_worksheet(meta: dict, game_name: str) -> str:
    """A print-ready worksheet (A4) of one lesson in one language: the prediction box first, then the
    working part (spieltisch.lesson.sheet, from the lesson's metadata and the drawings above)."""
    lang, w = meta["lang"], TEACHER_WORDS[meta["lang"]]
    lesson_kit()  # this checkout's src on the path
    from spieltisch.lesson import sheet

    body = sheet.page(meta, drawings(meta["id"], lang))
    template = (SITE_SRC / "landing" / "worksheet.html").read_text(encoding="utf-8")
    return (template.replace("{{LANG}}", lang)
            .replace("{{TITLE}}", html.escape(f"{w['sheet_title']}: {meta['title']}"))
            .replace("{{GAME}}", html.escape(game_name))
            .replace("{{NAME}}", w["name"]).replace("{{DATE}}", w["date"]).replace("{{PRINT}}", w["print"])
            .replace("<!-- QUESTIONS -->", body))


def render_answer_key(meta: dict, game_name: str) -> str:
    """The worksheet's answer key (printable): per question the declared question's right answer, exact
    value, each option's value and by-hand checks (spieltisch.core.registry), and the teacher
    version's answer text (the lesson's metadata)."""
    lang, w = meta["lang"], TEACHER_WORDS[meta["lang"]]
    lesson_kit()
    from spieltisch.core import registry
    from spieltisch.lesson import sheet

    body = sheet.answer_key(meta, registry.questions(meta["id"], core=True))
    sheet_href = Path(worksheet_path(meta["id"], lang)).name
    template = (SITE_SRC / "landing" / "answer-key.html").read_text(encoding="utf-8")
    return (template.replace("{{LANG}}", lang)
            .replace("{{TITLE}}", html.escape(f"{w['key_title']}: {meta['title']}"))
            .replace("{{GAME}}", html.escape(game_name)).replace("{{INTRO}}", html.escape(w["key_intro"]))
            .replace("{{SHEET}}", html.escape(sheet_href)).replace("{{SHEET_LINK}}", w["sheet_link"])
            .replace("{{PRINT}}", w["print"]).replace("<!-- ANSWERS -->", body))


def build_teachers(cards: list[dict]) -> None:
    all_lessons = lessons()
    (OUT / TEACHERS_PAGE).write_text(render_teachers(cards, all_lessons), encoding="utf-8")
    names = {c["id"]: c["name"] for c in cards}
    for lid, by_lang in all_lessons.items():
        for lang, meta in by_lang.items():
            game = names.get(lid, {}).get(lang, lid)
            dest = OUT / worksheet_path(lid, lang)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(render_worksheet(meta, game), encoding="utf-8")
            (OUT / answer_key_path(lid, lang)).write_text(render_answer_key(meta, game), encoding="utf-8")


# --- the students' lesson page (lesson/<lang>/<id>.html: text, pictures, widgets; no code) ----------
#
# A lesson's student version as a page of our own: its Markdown cells as HTML, each code cell an empty
# output slot; the code runs in a web worker (site/lesson-app/worker.mjs: the site's Pyodide and the
# kernel's own wheels) and its outputs, widgets included, fill the slots. The sources are in
# lesson/<lang>/<id>.cells.json, which only the worker reads: nothing of the code is in the page.

LESSON_APP = SITE_SRC / "lesson-app"
LESSON_DIR = "lesson"
LESSON_WORDS = {
    "de": {"skip": "Zur Lektion springen", "back": "← Spieltisch",
           "start": "Python startet im Browser …", "noscript": "Diese Lektion braucht JavaScript."},
    "en": {"skip": "Skip to the lesson", "back": "← Spieltisch",
           "start": "Starting Python in your browser …", "noscript": "This lesson needs JavaScript."},
}


def lesson_page_path(lesson_id: str, lang: str) -> str:
    return f"{LESSON_DIR}/{lang}/{lesson_id}.html"


def _source_text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_install(stmt) -> bool:
    """One statement of the piplite install: ``import sys``/``import piplite``, ``await
    piplite.install(...)``, or ``if sys.platform == "emscripten":`` holding only those."""
    if isinstance(stmt, ast.Import):
        return all(alias.name in ("sys", "piplite") and alias.asname is None for alias in stmt.names)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Await):
        call = stmt.value.value
        return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "install"
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "piplite")
    if isinstance(stmt, ast.If) and not stmt.orelse:
        test = stmt.test
        on_browser = (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
                      and ast.unparse(test.left) == "sys.platform"
                      and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "emscripten")
        return on_browser and all(_is_install(s) for s in stmt.body)
    return False


def is_install_cell(source: str) -> bool:
    """Whether a code cell only installs the package with piplite (the notebooks' first cell). The
    lesson page's worker has the wheels loaded already and no piplite, so such a cell is left out;
    a cell that does anything else besides is kept (and fails loudly if it needs piplite)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith("%")]
    try:
        tree = compile("\n".join(lines), "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return False
    if not tree.body:
        return any(line.lstrip().startswith(("%pip install", "%piplite")) for line in source.splitlines())
    uses_piplite = "piplite" in source
    return uses_piplite and all(_is_install(s) for s in tree.body)


def _inline(text: str) -> str:
    """Inline Markdown: `code`, **bold**, *italic*, [links](url), inline HTML passed through."""
    out, pos = [], 0
    pattern = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|"
                         r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)|(</?[A-Za-z][^<>]*>)|(&#?\w+;)")
    for m in pattern.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=False))
        code, bold, em, em2, label, href, tag, entity = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<strong>{_inline(bold)}</strong>")
        elif em is not None or em2 is not None:
            out.append(f"<em>{_inline(em if em is not None else em2)}</em>")
        elif label is not None:
            out.append(f'<a href="{html.escape(href)}">{_inline(label)}</a>')
        else:
            out.append(tag or entity)
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def _slug(text: str) -> str:
    return re.sub(r"[^\w-]+", "-", re.sub(r"<[^>]+>", "", text).strip().lower()).strip("-")


def markdown_html(text: str, ids: set | None = None) -> str:
    """The Markdown the lessons use, as HTML: ATX headings (with ids), paragraphs, bullet and numbered
    lists (a line indented under an item continues it), pipe tables, block HTML passed through,
    ``---`` rules and the inline forms of ``_inline``. Standard library only."""
    ids = set() if ids is None else ids
    lines = text.replace("\r\n", "\n").split("\n")
    out, i = [], 0
    item = re.compile(r"^(\s{0,3})([*+-]|\d+[.)])\s+(.*)$")

    def heading(level, body):
        ident, k = _slug(body) or "h", 2
        base = ident
        while ident in ids:
            ident, k = f"{base}-{k}", k + 1
        ids.add(ident)
        return f'<h{level} id="{html.escape(ident)}">{_inline(body)}</h{level}>'

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            out.append(heading(len(m.group(1)), m.group(2)))
            i += 1
            continue
        if re.match(r"^\s{0,3}(-{3,}|\*{3,}|_{3,})\s*$", line):
            out.append("<hr>")
            i += 1
            continue
        if line.lstrip().startswith("<"):  # block HTML: as written, up to the next blank line
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out.append("\n".join(block))
            continue
        if line.lstrip().startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|?[\s:|-]+\|[\s:|-]*$", lines[i + 1]):
            def cells(row):
                return [c.strip() for c in row.strip().strip("|").split("|")]
            head = cells(line)
            i += 2
            body = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                body.append(cells(lines[i]))
                i += 1
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head)
                       + f"</tr></thead><tbody>{rows}</tbody></table>")
            continue
        m = item.match(line)
        if m:
            ordered = m.group(2)[0].isdigit()
            start = int(m.group(2)[:-1]) if ordered else 1
            items = []
            while i < len(lines):
                m = item.match(lines[i])
                if m and m.group(2)[0].isdigit() == ordered:
                    items.append([m.group(3)])
                    i += 1
                elif items and lines[i].strip() and (lines[i].startswith((" ", "\t"))):
                    items[-1].append(lines[i].strip())
                    i += 1
                else:
                    break
            tag = "ol" if ordered else "ul"
            first = f' start="{start}"' if ordered and start != 1 else ""
            out.append(f"<{tag}{first}>" + "".join(f"<li>{_inline(' '.join(it))}</li>" for it in items) + f"</{tag}>")
            continue
        para = []
        while (i < len(lines) and lines[i].strip() and not item.match(lines[i])
               and not re.match(r"^#{1,6}\s", lines[i]) and not lines[i].lstrip().startswith(("<", "|"))):
            para.append(lines[i].strip())
            i += 1
        if not para:  # a line none of the rules above took: a paragraph of its own
            para, i = [line.strip()], i + 1
        out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "\n".join(out)


NOTEBOOK_ONLY = re.compile(r'<div class="notebook-only">.*?</div>[ \t]*\n?', re.S)


def lesson_page_parts(nb: dict) -> tuple[str, list[str]]:
    """(the page's body HTML, the code the worker runs) of a lesson's student version: Markdown cells
    as HTML, each code cell that runs as an empty output slot ``<div class="out" data-cell="k">``
    (k: its index in the code list), the install cell left out (``is_install_cell``), and each
    ``<div class="notebook-only">…</div>`` of the Markdown (instructions for running the notebook)."""
    body, code, ids = [], [], set()
    for cell in nb["cells"]:
        text = _source_text(cell)
        if cell["cell_type"] == "markdown":
            # what only the notebook's reader needs (run the first cells, the menu) is not for the
            # code-free page
            text = NOTEBOOK_ONLY.sub("", text)
            if text.strip():
                body.append(f'<section class="md">\n{markdown_html(text, ids)}\n</section>')
        elif cell["cell_type"] == "code" and text.strip() and not is_install_cell(text):
            body.append(f'<div class="out" data-cell="{len(code)}"></div>')
            code.append(text)
    return "\n".join(body), code


def render_lesson_page(nb: dict, lesson_id: str, lang: str) -> tuple[str, list[str]]:
    """A lesson's page in one language (site/lesson-app/lesson.html) and the code its worker runs."""
    meta = lesson_kit().info(nb)
    body, code = lesson_page_parts(nb)
    w = LESSON_WORDS[lang]
    # no link to the notebook: its code cells carry the explanations that follow each prediction (a
    # student scrolling through the code would read them first); the teachers' page links it
    template = (LESSON_APP / "lesson.html").read_text(encoding="utf-8")
    page = (template.replace("{{LANG}}", lang).replace("{{TITLE}}", html.escape(meta["title"]))
            .replace("{{SKIP}}", w["skip"]).replace("{{BACK}}", w["back"])
            .replace("{{START}}", w["start"]).replace("{{NOSCRIPT}}", w["noscript"])
            .replace("{{CELLS}}", html.escape(f"{lesson_id}.cells.json")).replace("<!-- BODY -->", body))
    return page, code


def build_lesson_pages(pyodide_dir: Path | None = None) -> list[str]:
    """lesson/<lang>/<id>.html (+ .cells.json) for every lesson, from its student version; the page's
    script, the worker and a service worker (the same template as the Play pages', its own cache)
    that keeps every file for use without a network. Returns the files, relative to lesson/."""
    versions = lesson_kit()
    out = OUT / LESSON_DIR
    files = []
    for lid in lessons():
        for lang in LESSON_LANGS:
            nb = versions.student(json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8")))
            page, code = render_lesson_page(nb, lid, lang)
            (out / lang).mkdir(parents=True, exist_ok=True)
            (out / lang / f"{lid}.html").write_text(page, encoding="utf-8")
            (out / lang / f"{lid}.cells.json").write_text(json.dumps(code, ensure_ascii=False), encoding="utf-8")
            files += [f"{lang}/{lid}.html", f"{lang}/{lid}.cells.json"]
    pyodide_dir = OUT / LITE / "static" / "pyodide" if pyodide_dir is None else pyodide_dir
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    packages = preload_names()
    by_norm = {norm(k): k for k in lock["packages"]}
    wheels = [lock["packages"][n]["file_name"] for n in lock_closure(lock["packages"], [by_norm[p] for p in packages])]
    worker = (LESSON_APP / "worker.mjs").read_text(encoding="utf-8")
    (out / "worker.mjs").write_text(worker.replace("{{PACKAGES}}", json.dumps(packages)), encoding="utf-8")
    shutil.copy2(LESSON_APP / "lesson.mjs", out / "lesson.mjs")
    files += ["lesson.mjs", "worker.mjs"] + [
        f"../{LITE}/static/pyodide/{name}" for name in
        ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", *wheels)]
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode())
        digest.update(sha256((out / rel).resolve()).encode())
    sw = (PLAY_APP / "sw.js").read_text(encoding="utf-8")
    sw = (sw.replace("{{PREFIX}}", "spieltisch-lesson-").replace("{{VERSION}}", digest.hexdigest()[:16])
          .replace("{{FILES}}", json.dumps(files)))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    return files


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
    build_teachers(cards)
    play_files = build_play_pages(cards, wheel)
    lesson_files = build_lesson_pages()
    log(f"lesson pages: {', '.join(f for f in lesson_files if f.endswith('.html'))}")
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
