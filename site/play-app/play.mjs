// A Play page: Pyodide in a web worker runs the game's view-model (spieltisch.ui.table.Table);
// this page hosts the same ESM front-end as the notebooks and Panel (table.mjs) with a small model
// object in place of anywidget's: get/set/save_changes/on. No JupyterLab, no kernel, no ipywidgets.
import frontEnd from "./table.mjs";

const app = document.getElementById("app");
const progress = document.getElementById("progress");
const game = app.dataset.game;
let lang = new URLSearchParams(location.search).get("lang");
try { lang = lang || localStorage.getItem("spieltisch-lang"); } catch (e) { /* private mode */ }
lang = lang === "en" ? "en" : "de";
document.documentElement.lang = lang;

const STEPS = {
  cache: [5, "Offline-Speicher wird eingerichtet …", "Setting up the offline copy …"],
  python: [15, "Python startet im Browser …", "Starting Python in your browser …"],
  game: [70, "Das Spiel wird geladen …", "Loading the game …"],
  table: [90, "Der Spieltisch wird gedeckt …", "Setting the table …"],
};

function say(step) {
  const [pct, de, en] = STEPS[step];
  progress.querySelector(".text").textContent = lang === "de" ? de : en;
  progress.querySelector(".bar span").style.width = pct + "%";
}

// The service worker keeps the page, Pyodide and the game for the next visit (and for offline use).
// On the very first visit the page waits (briefly) until it controls this page, so the worker's
// downloads go into the cache as they happen, not a second time.
async function offlineCopy() {
  if (!("serviceWorker" in navigator)) return;
  say("cache");
  try {
    await navigator.serviceWorker.register("sw.js");
    if (navigator.serviceWorker.controller) return;
    await Promise.race([
      new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true })),
      new Promise((resolve) => setTimeout(resolve, 3000)),
    ]);
  } catch (err) {
    console.warn("no offline copy:", err);
  }
}

let view = "";
let working = null; // {done, total}: the advisor's progress, while the worker computes
let outgoing = null;
let drawn = false;
const listeners = {};
const worker = { current: null };
const model = {
  get: (name) => (name === "view" ? view : name === "progress" ? working : undefined),
  set: (name, value) => { if (name === "event") outgoing = value; },
  save_changes: () => {
    if (outgoing !== null) worker.current.postMessage({ type: "event", json: outgoing });
    outgoing = null;
  },
  on: (name, callback) => { (listeners[name] ||= []).push(callback); },
  off: () => {},
  send: () => {},
};

await offlineCopy();
say("python");
worker.current = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
worker.current.onmessage = ({ data }) => {
  if (data.type === "progress") say(data.step);
  else if (data.type === "snapshot") app.dataset.snapshot = data.saved ? "saved" : "none"; // for the tests
  else if (data.type === "working") {
    working = { done: data.done, total: data.total };
    (listeners["change:progress"] || []).forEach((callback) => callback());
  }
  else if (data.type === "view") {
    view = data.json;
    const shown = JSON.parse(view).lang;
    document.documentElement.lang = shown; // the page's language follows the table's switch
    try { localStorage.setItem("spieltisch-lang", shown); } catch (e) { /* private mode */ }
    if (!drawn) {
      drawn = true;
      app.dataset.start = data.start; // "fresh" or "snapshot" (a warm visit): the tests read it
      progress.hidden = true;
      frontEnd.render({ model, el: app });
    } else {
      (listeners["change:view"] || []).forEach((callback) => callback());
    }
  } else if (data.type === "error") {
    progress.hidden = false;
    progress.classList.add("error");
    progress.querySelector(".text").textContent =
      (lang === "de" ? "Fehler: " : "Error: ") + data.text;
  }
};
worker.current.postMessage({ type: "start", game, lang });
