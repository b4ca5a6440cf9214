// The Play page's web worker: Pyodide with only the project wheel, and one Table (the view-model).
// Messages in: {type: "start", game, lang}, {type: "event", json}. Out: {type: "progress", step},
// {type: "view", json} (Table.state_json()), {type: "working", done, total} (the advisor's progress
// while it takes longer than a second), {type: "error", text}.
import { loadPyodide } from "../lite/static/pyodide/pyodide.mjs";

let table = null;

async function start({ game, lang }) {
  const pyodide = await loadPyodide({ indexURL: new URL("../lite/static/pyodide/", import.meta.url).href });
  postMessage({ type: "progress", step: "game" });
  await pyodide.loadPackage("spieltisch", { messageCallback: () => {} });
  postMessage({ type: "progress", step: "table" });
  pyodide.globals.set("GAME", game);
  pyodide.globals.set("LANG", lang);
  // only this game's folder is imported (spieltisch.games reads SPIELTISCH_GAMES)
  table = pyodide.runPython(
    "import os\nos.environ['SPIELTISCH_GAMES'] = GAME\nfrom spieltisch.ui.table import Table\nTable(GAME, lang=LANG)");
  table.on_progress = (done, total) => postMessage({ type: "working", done, total });
  postMessage({ type: "view", json: table.state_json() });
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
