// The Play page's web worker: Pyodide with only the project wheel, and one Table (the view-model).
// Messages in: {type: "start", game, lang, klass} (klass: a class code or null), {type: "event", json},
// {type: "result", who} (a class round: the student's name or number for the result code),
// {type: "qr", id, text}. Out: {type: "progress", step},
// {type: "view", json, start} (Table.state_json(); the first one says how Python started: "fresh" or
// from a "snapshot"), {type: "snapshot", saved} (a cold start has kept its snapshot, or could not),
// {type: "working", done, total} (the advisor's progress, once per whole percent; the page shows it after a second),
// {type: "class", json} (the class round: {"info"} or {"error"}), {type: "class_result", json} (at the end
// of a class game: the result code), {type: "qr", id, svg}, {type: "error", text}.
//
// The class board (klasse.html) uses the same worker with {type: "board", lang}: then every game is
// imported and {type: "call", id, json} runs one request of the board's model (spieltisch.ui.classroom)
// and answers {type: "answer", id, json}.
//
// Warm start: the first visit saves a memory snapshot of Python in the browser's cache storage,
// taken right after the first view is sent (so the player does not wait for it) and before any
// JavaScript object enters Python (a snapshot cannot hold one): the game, its bots and the table's
// modules are imported by then. The next visit restores it instead of starting Python and importing
// the game again, and sets a new table. The build writes WHEEL (the project wheel's file name),
// SEGNO (the QR code library's wheel, loaded only for a class round's QR codes) and SNAPSHOT (a hash
// of the wheel and of Pyodide): a new build never restores an old snapshot.
import { loadPyodide } from "../lite/static/pyodide/pyodide.mjs";

const WHEEL = "{{WHEEL}}";
const SEGNO = "{{SEGNO}}";
const SNAPSHOT = "{{SNAPSHOT}}";
const PYODIDE = new URL("../lite/static/pyodide/", import.meta.url).href;
const SNAPSHOTS = "spieltisch-snapshots";

let pyodide = null;
let table = null;
let klass = false; // a class round: the result code is made at the end
let segnoReady = false;

// Python source for a string value (JSON strings are Python string literals).
const literal = (value) => JSON.stringify(String(value));

async function unpack(url, name) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  pyodide.FS.writeFile("/tmp/unpack.whl", new Uint8Array(await response.arrayBuffer()));
  pyodide.runPython(
    "import site, zipfile\nzipfile.ZipFile('/tmp/unpack.whl').extractall(site.getsitepackages()[0])");
}

// The project's files go into site-packages on every start: a snapshot holds Python's memory, not
// its file system, and modules the game imports later (bots, advisor) are read from there.
const unpackWheel = () => unpack(PYODIDE + WHEEL, WHEEL);

function snapshotUrl(game) {
  return new URL(`snapshot/${encodeURIComponent(game)}/${SNAPSHOT}`, import.meta.url).href;
}

async function savedSnapshot(game) {
  try {
    const hit = await (await caches.open(SNAPSHOTS)).match(snapshotUrl(game));
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (err) {
    return null; // no cache storage (private mode, file://): start the long way
  }
}

async function saveSnapshot(game, bytes) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.pathname.includes(`/snapshot/${encodeURIComponent(game)}/`)) await cache.delete(request);
    }
    await cache.put(snapshotUrl(game), new Response(bytes));
    return true;
  } catch (err) {
    console.warn("no snapshot kept:", err);
    return false;
  }
}

async function warmStart(game) {
  const bytes = await savedSnapshot(game);
  if (bytes === null) return null;
  try {
    pyodide = await loadPyodide({ indexURL: PYODIDE, _loadSnapshot: bytes });
    postMessage({ type: "progress", step: "game" });
    await unpackWheel();
    return pyodide;
  } catch (err) {
    console.warn("snapshot not usable, starting the long way:", err);
    caches.open(SNAPSHOTS).then((cache) => cache.delete(snapshotUrl(game))).catch(() => {});
    pyodide = null;
    return null;
  }
}

async function coldStart(game) {
  pyodide = await loadPyodide({ indexURL: PYODIDE, _makeSnapshot: true });
  postMessage({ type: "progress", step: "game" });
  await unpackWheel();
  // only this game's folder is imported (spieltisch.games reads SPIELTISCH_GAMES); the board: all
  if (game !== "*") pyodide.runPython(`import os\nos.environ['SPIELTISCH_GAMES'] = ${literal(game)}`);
  return pyodide;
}

// What the pages ask of Python besides the table: the class round's codes and the board's model.
// Strings in, JSON strings out; a refused code comes back as {"error": {"de", "en"}}.
const GLUE = `
import json
from spieltisch.core.errors import SpieltischError
from spieltisch.ui import classroom

def _refusal(e):
    text = e.text if isinstance(e, classroom.CodeError) else {"de": str(e), "en": str(e)}
    return json.dumps({"error": text}, ensure_ascii=False)

def _class_start(code, lang, kept):
    global _round, _table
    from spieltisch.ui.table import Table
    try:
        _round = classroom.parse_class(code)
    except SpieltischError as e:
        _round = None
        return _refusal(e)
    _table = Table(**_round.table_settings(), lang=lang)
    resumed = 0
    if kept:  # a reload or a second tab: the class game goes on where it stood on this device
        try:
            resumed = classroom.resume_table(_table, json.loads(kept).get("actions"))
        except (SpieltischError, ValueError, AttributeError):
            _table = Table(**_round.table_settings(), lang=lang)
            resumed = 0
    return json.dumps({"info": {l: _round.describe(l) for l in ("de", "en")}, "resumed": resumed},
                      ensure_ascii=False)

def _class_kept():
    """What the page keeps of its class game: the record's actions (a reload replays them) and
    whether the student has moved (then their name or number belongs to the game)."""
    if _round is None:
        return "null"
    match = _table.session.match
    moved = any(m in _round.humans for m in match.movers)
    return json.dumps({"actions": match.record_actions(), "moved": moved}, ensure_ascii=False)

def _class_result(who):
    if _round is None or not _table.is_over():
        return "null"
    who = " ".join(who.split())[:classroom.MAX_LABEL_CHARS]
    number = int(who) if who.isdigit() and 1 <= int(who) <= classroom.MAX_NUMBER else None
    code = classroom.result_code(_round, _table.session.match, number, verify=False)
    label = None if number is not None or not who else who
    text = classroom.result_text(label, code)
    return json.dumps({"code": code, "shown": classroom.grouped(code), "text": text, "number": number,
                       "points": _round.points(_table.session.match)}, ensure_ascii=False)

def _qr(text):
    import segno  # make_qr: a full QR code; segno.make picks a Micro QR code for short texts, which
                  # phones and most readers do not read
    return segno.make_qr(text, error="m").svg_inline(scale=1, border=4, omitsize=True, light="#fff")

_board = None

def _board_call(request):
    global _board
    req = json.loads(request)
    kind, lang = req.get("kind"), req.get("lang", "de")
    try:
        out = {}
        if kind == "catalog":
            return json.dumps({"games": classroom.catalog(lang)}, ensure_ascii=False)
        if kind == "predictions":
            return json.dumps({"predictions": classroom.predictions(lang)}, ensure_ascii=False)
        if kind == "reveal":
            return json.dumps({"reveal": classroom.reveal(req["id"], req["counts"], lang)}, ensure_ascii=False)
        if kind == "new":
            r = classroom.new_round(req["game"], req["players"], req["seats"], req["options"], None, req["advisor"])
            _board = classroom.Board(r.code)
        elif kind == "open":
            _board = classroom.Board(req["code"])
        elif kind == "load":
            _board = classroom.Board.from_json(req["state"])
        elif _board is None:
            return json.dumps({"error": {"de": "keine Klassenrunde offen", "en": "no class round is open"}})
        elif kind == "add":
            out["outcome"] = _board.add(req["text"])
        elif kind == "remove":
            _board.remove(req["code"])
        elif kind == "forget_unread":
            _board.forget_unread()
        elif kind == "csv":
            return json.dumps({"csv": _board.csv(lang)}, ensure_ascii=False)
        full = bool(req.get("full"))
        out["summary"] = _board.summary(lang, bots=full, decisions=full, losses=full)
        out["full"] = full
        out["state"] = _board.to_json()
        return json.dumps(out, ensure_ascii=False)
    except SpieltischError as e:
        return _refusal(e)
`;

async function ensureSegno() {
  if (segnoReady) return;
  await unpack(new URL(SEGNO, import.meta.url).href, SEGNO);
  segnoReady = true;
}

// The table lives in Python (``_table``); JavaScript passes strings in and gets strings back, so
// nothing of JavaScript's is in Python's memory until the snapshot is taken.
function newTable(game, lang, code, kept) {
  pyodide.runPython(GLUE);
  if (code) {
    const answer = pyodide.runPython(`_class_start(${literal(code)}, ${literal(lang)}, ${literal(kept || "")})`);
    postMessage({ type: "class", json: answer });
    if (!JSON.parse(answer).error) {
      klass = true;
      postMessage({ type: "kept", json: pyodide.runPython("_class_kept()") });
      return pyodide.runPython("_table.state_json()");
    }
  }
  return pyodide.runPython(
    `from spieltisch.ui.table import Table\n_table = Table(${literal(game)}, lang=${literal(lang)})\n` +
    `_table.state_json()`);
}

async function start({ game, lang, klass: code, kept, who: keptWho }) {
  const how = (await warmStart(game)) ? "snapshot" : "fresh";
  if (how === "fresh") await coldStart(game);
  postMessage({ type: "progress", step: "table" });
  who = keptWho || "";
  postMessage({ type: "view", json: newTable(game, lang, code, kept), start: how });
  classResult(who); // a resumed game that had ended shows its result code again
  let bytes = null;
  if (how === "fresh") {
    try {
      bytes = pyodide.makeMemorySnapshot(); // a few hundred ms, while the page draws the first view
    } catch (err) {
      console.warn("no snapshot made:", err);
    }
  }
  table = pyodide.globals.get("_table");
  table.on_progress = (done, total) => postMessage({ type: "working", done, total });
  if (how === "fresh") postMessage({ type: "snapshot", saved: bytes !== null && (await saveSnapshot(game, bytes)) });
}

async function startBoard({ lang }) {
  const how = (await warmStart("*")) ? "snapshot" : "fresh";
  if (how === "fresh") await coldStart("*");
  pyodide.runPython(GLUE);
  pyodide.runPython("import spieltisch.ui.table"); // the games and views, before the snapshot
  postMessage({ type: "ready", start: how, lang });
  if (how === "fresh") {
    let bytes = null;
    try {
      bytes = pyodide.makeMemorySnapshot();
    } catch (err) {
      console.warn("no snapshot made:", err);
    }
    postMessage({ type: "snapshot", saved: bytes !== null && (await saveSnapshot("*", bytes)) });
  }
}

function classResult(who) {
  if (!klass) return;
  const json = pyodide.runPython(`_class_result(${literal(who || "")})`);
  if (json !== "null") postMessage({ type: "class_result", json });
}

let who = "";

onmessage = async ({ data }) => {
  try {
    if (data.type === "start") {
      await start(data);
    } else if (data.type === "board") {
      await startBoard(data);
    } else if (data.type === "event" && table !== null) {
      table.handle(data.json);
      postMessage({ type: "view", json: table.state_json() });
      if (klass) postMessage({ type: "kept", json: pyodide.runPython("_class_kept()") });
      classResult(who);
    } else if (data.type === "result") {
      who = data.who || "";
      classResult(who);
    } else if (data.type === "qr") {
      await ensureSegno();
      postMessage({ type: "qr", id: data.id, svg: pyodide.runPython(`_qr(${literal(data.text)})`) });
    } else if (data.type === "call") {
      postMessage({ type: "answer", id: data.id, json: pyodide.runPython(`_board_call(${literal(data.json)})`) });
    }
  } catch (err) {
    postMessage({ type: "error", text: String(err && err.message ? err.message : err).slice(-600) });
  }
};
