// The Play page's web worker: Pyodide with only the project wheel, and one Table (the view-model).
// Messages in: {type: "start", game, lang}, {type: "event", json}. Out: {type: "progress", step},
// {type: "view", json, start} (Table.state_json(); the first one says how Python started: "fresh" or
// from a "snapshot"), {type: "working", done, total} (the advisor's progress while it takes longer
// than a second), {type: "error", text}.
//
// Warm start: the first visit saves a memory snapshot of Python right after the game's modules are
// imported (before any JavaScript object enters Python, which a snapshot cannot hold) in the
// browser's cache storage; the next visit restores it instead of starting Python and importing the
// game again (~0.7 s instead of several seconds). The build writes WHEEL (the project wheel's file
// name) and SNAPSHOT (a hash of the wheel and of Pyodide): a new build never restores an old snapshot.
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
  } catch (err) {
    console.warn("no snapshot kept:", err);
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
  pyodide.runPython(
    `import os\nos.environ['SPIELTISCH_GAMES'] = ${literal(game)}\n` +
    `from spieltisch import get_game_class\nfrom spieltisch.ui.table import load_view, resolve_game\n` +
    `load_view(get_game_class(resolve_game(${literal(game)})))`);
  // kept in the background: the game goes on at once
  saveSnapshot(game, pyodide.makeMemorySnapshot());
  return pyodide;
}

async function start({ game, lang }) {
  let pyodide = await warmStart(game);
  const how = pyodide ? "snapshot" : "fresh";
  pyodide ||= await coldStart(game);
  postMessage({ type: "progress", step: "table" });
  table = pyodide.runPython(`from spieltisch.ui.table import Table\nTable(${literal(game)}, lang=${literal(lang)})`);
  table.on_progress = (done, total) => postMessage({ type: "working", done, total });
  postMessage({ type: "view", json: table.state_json(), start: how });
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
