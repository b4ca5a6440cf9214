// The Play page's web worker: Pyodide with only the project wheel, and one Table (the view-model).
// Messages in: {type: "start", game, lang}, {type: "event", json}. Out: {type: "progress", step},
// {type: "view", json, start} (Table.state_json(); the first one says how Python started: "fresh" or
// from a "snapshot"), {type: "snapshot", saved} (a cold start has kept its snapshot, or could not),
// {type: "working", done, total} (the advisor's progress, once per whole percent; the page shows it after a second),
// {type: "error", text}.
//
// Warm start: the first visit saves a memory snapshot of Python in the browser's cache storage,
// taken right after the first view is sent (so the player does not wait for it) and before any
// JavaScript object enters Python (a snapshot cannot hold one): the game, its bots and the table's
// modules are imported by then. The next visit restores it instead of starting Python and importing
// the game again, and sets a new table. The build writes WHEEL (the project wheel's file name) and
// SNAPSHOT (a hash of the wheel and of Pyodide): a new build never restores an old snapshot.
import { loadPyodide } from "../lite/static/pyodide/pyodide.mjs";

const WHEEL = "{{WHEEL}}";
const SNAPSHOT = "{{SNAPSHOT}}";
const PYODIDE = new URL("../lite/static/pyodide/", import.meta.url).href;
const SNAPSHOTS = "spieltisch-snapshots";

let table = null;

// Python source for a string value (JSON strings are Python string literals).
const literal = (value) => JSON.stringify(String(value));

// The project's files go into site-packages on every start: a snapshot holds Python's memory, not
// its file system, and modules the game imports later (bots, advisor) are read from there.
async function unpackWheel(pyodide) {
  const response = await fetch(PYODIDE + WHEEL);
  if (!response.ok) throw new Error(`${WHEEL}: HTTP ${response.status}`);
  pyodide.FS.writeFile("/tmp/spieltisch.whl", new Uint8Array(await response.arrayBuffer()));
  pyodide.runPython(
    "import site, zipfile\nzipfile.ZipFile('/tmp/spieltisch.whl').extractall(site.getsitepackages()[0])");
}

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
    const pyodide = await loadPyodide({ indexURL: PYODIDE, _loadSnapshot: bytes });
    postMessage({ type: "progress", step: "game" });
    await unpackWheel(pyodide);
    return pyodide;
  } catch (err) {
    console.warn("snapshot not usable, starting the long way:", err);
    caches.open(SNAPSHOTS).then((cache) => cache.delete(snapshotUrl(game))).catch(() => {});
    return null;
  }
}

async function coldStart(game) {
  const pyodide = await loadPyodide({ indexURL: PYODIDE, _makeSnapshot: true });
  postMessage({ type: "progress", step: "game" });
  await unpackWheel(pyodide);
  // only this game's folder is imported (spieltisch.games reads SPIELTISCH_GAMES)
  pyodide.runPython(`import os\nos.environ['SPIELTISCH_GAMES'] = ${literal(game)}`);
  return pyodide;
}

// The table lives in Python (``_table``); JavaScript passes strings in and gets strings back, so
// nothing of JavaScript's is in Python's memory until the snapshot is taken.
function newTable(pyodide, game, lang) {
  return pyodide.runPython(
    `from spieltisch.ui.table import Table\n_table = Table(${literal(game)}, lang=${literal(lang)})\n` +
    `_table.state_json()`);
}

async function start({ game, lang }) {
  let pyodide = await warmStart(game);
  const how = pyodide ? "snapshot" : "fresh";
  pyodide ||= await coldStart(game);
  postMessage({ type: "progress", step: "table" });
  postMessage({ type: "view", json: newTable(pyodide, game, lang), start: how });
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

onmessage = async ({ data }) => {
  try {
    if (data.type === "start") {
      await start(data);
    } else if (data.type === "event" && table !== null) {
      table.handle(data.json);
      postMessage({ type: "view", json: table.state_json() });
    }
  } catch (err) {
    postMessage({ type: "error", text: String(err && err.message ? err.message : err).slice(-600) });
  }
};
