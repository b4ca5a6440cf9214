// A Play page: Pyodide in a web worker runs the game's view-model (spieltisch.ui.table.Table);
// this page hosts the same ESM front-end as the notebooks and Panel (table.mjs) with a small model
// object in place of anywidget's: get/set/save_changes/on. No JupyterLab, no kernel, no ipywidgets.
import frontEnd from "./table.mjs";
import { copyText, say as inLang, showQr } from "./class.mjs";

const app = document.getElementById("app");
const progress = document.getElementById("progress");
const game = app.dataset.game;
let lang = new URLSearchParams(location.search).get("lang");
try { lang = lang || localStorage.getItem("spieltisch-lang"); } catch (e) { /* private mode */ }
lang = lang === "en" ? "en" : "de";
document.documentElement.lang = lang;
// a class round: play/<game>.html?class=CODE (the class code fixes the whole game)
const classCode = new URLSearchParams(location.search).get("class");
const classBar = document.getElementById("class-bar");
const classLink = document.getElementById("class-link");
let klass = null; // {info: {de, en}} or {error: {de, en}}
let result = null; // the end of a class game: {code, shown, text, points, number}
let who = "";
// A class game is kept on this device (its record's actions, the name or number, whether the student
// has moved): a reload or a second tab goes on where it stood, never from the start, and once the
// student has moved, the name or number belongs to the game (one game, one result code).
const KEPT = classCode ? "spieltisch-class-game-" + classCode.toUpperCase().replace(/[^0-9A-Z]/g, "")
  .replace(/O/g, "0").replace(/[IL]/g, "1") : null;
let kept = null;
// the stored text as this tab last read or wrote it: a write finds out whether another tab wrote since
let seen = null;
try { seen = KEPT ? localStorage.getItem(KEPT) : null; kept = JSON.parse(seen || "null"); } catch (e) { kept = null; }
if (kept && typeof kept.who === "string") who = kept.who;
let moved = !!(kept && kept.moved);
let stopped = false;
// Two tabs of one class game are one game: when another tab of this browser moves on in it (or writes
// its name), this tab stops – its board and class bar inert, a notice – and never writes the kept game
// again; it goes on only from where the other tab stands (a reload resumes the kept game). So two tabs
// cannot play two endings, and a stale tab (one still starting, or left behind) cannot rewind the
// game another tab has played on.
function stopHere() {
  if (stopped) return;
  stopped = true;
  app.inert = true;
  classBar.inert = true;
  const notice = document.createElement("div");
  notice.id = "other-tab";
  notice.className = "other-tab";
  notice.setAttribute("role", "alert");
  const de = (document.documentElement.lang || lang) === "de";
  const text = document.createElement("p");
  text.textContent = de ? "Dieses Klassenspiel geht in einem anderen Tab weiter. Hier ist es angehalten."
    : "This class game goes on in another tab. It is paused here.";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = de ? "Hier weiterspielen (wo das Spiel jetzt steht)" : "Play on here (where the game stands now)";
  button.addEventListener("click", () => location.reload());
  notice.append(text, button);
  classBar.before(notice);
  button.focus();
}
if (KEPT) {
  window.addEventListener("storage", (event) => {
    if (event.key === KEPT) stopHere();
  });
}
function keepGame(update) {
  if (!KEPT || stopped) return;
  try {
    // another tab wrote since this one last read or wrote: its game stands, this tab stops
    if (localStorage.getItem(KEPT) !== seen) { stopHere(); return; }
    kept = { ...(kept || {}), ...update, who };
    const text = JSON.stringify(kept);
    if (text === seen) return; // nothing new: another tab would be stopped for nothing
    seen = text;
    localStorage.setItem(KEPT, seen);
  } catch (e) { kept = { ...(kept || {}), ...update, who }; /* private mode: kept as long as the page */ }
}

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

// The class bar above the table: the class code while playing, at the end the student's result code
// (text and QR code) with a field for their name or number; redrawn in the table's language.
function drawClassBar() {
  const now = document.documentElement.lang === "en" ? "en" : "de";
  const typing = document.activeElement && document.activeElement.id === "class-who";
  classLink.textContent = inLang(now, "Klassenrunde", "Class round");
  if (!klass) return;
  classBar.hidden = false;
  classBar.replaceChildren();
  if (klass.error) {
    classBar.classList.add("refused");
    classBar.setAttribute("role", "alert");
    classBar.append(Object.assign(document.createElement("p"), {
      textContent: inLang(now, "Dieser Klassencode geht nicht: ", "This class code does not work: ") + klass.error[now] +
        inLang(now, " Hier läuft ein normales Spiel.", " A normal game runs here.") }));
    return;
  }
  const info = klass.info[now];
  const head = document.createElement("p");
  head.append(inLang(now, "Klassenrunde ", "Class round "),
    Object.assign(document.createElement("span"), { className: "code", textContent: info.shown }),
    // the game's own words for its chance (Skip-Bo Masters deals cards, it has no dice)
    ` · ${info.name} · ` + inLang(now, `Alle spielen dasselbe Spiel: gleiche Entscheidungen, ${info.chance.same}.`,
      `Everyone plays the same game: the same decisions meet ${info.chance.same}.`));
  classBar.append(head);
  const field = document.createElement("input");
  field.id = "class-who";
  field.value = who;
  field.maxLength = 40;
  field.autocomplete = "off";
  // the name takes effect as it is typed; after the first move it belongs to the game
  field.readOnly = moved;
  field.addEventListener("input", () => {
    who = field.value.trim();
    keepGame({});
    worker.current.postMessage({ type: "result", who });
  });
  const label = Object.assign(document.createElement("label"), { htmlFor: "class-who" });
  label.append(moved
    ? inLang(now, "Dein Name oder deine Nummer (gehört zu diesem Spiel):", "Your name or number (belongs to this game):")
    : inLang(now, "Zuerst: dein Name oder deine Nummer für die Rangliste (freiwillig; nach deinem ersten Zug gehört er zum Spiel):",
      "First: your name or number for the ranking (optional; after your first move it belongs to the game):"), field);
  classBar.append(label);
  if (typing) field.focus();
  if (!result) return;
  const box = Object.assign(document.createElement("div"), { id: "class-result" });
  const text = document.createElement("div");
  text.append(
    Object.assign(document.createElement("p"), {
      textContent: inLang(now, `Dein Ergebnis: ${result.points} Punkte. Dein Ergebniscode:`,
        `Your result: ${result.points} points. Your result code:`) }),
    Object.assign(document.createElement("p"), { className: "result-code", textContent: result.text }),
    Object.assign(document.createElement("p"), {
      textContent: inLang(now, "Gib ihn deiner Lehrkraft: eintippen, einfügen oder den QR-Code scannen. Er enthält deine " +
        "Entscheidungen; die Punkte rechnet die Auswertung selbst nach.",
        "Give it to your teacher: type it, paste it or scan the QR code. It holds your decisions; the board works " +
        "out the points itself.") }));
  const copy = Object.assign(document.createElement("button"), { type: "button", textContent: inLang(now, "Kopieren", "Copy") });
  copy.addEventListener("click", async () => {
    copy.textContent = (await copyText(result.text)) ? inLang(now, "Kopiert", "Copied") : inLang(now, "Bitte abtippen", "Please type it");
  });
  text.append(copy);
  const qr = Object.assign(document.createElement("div"), { className: "qr" });
  box.append(text, qr);
  classBar.append(box);
  if (result.svg) showQr(qr, result.svg, inLang(now, "QR-Code des Ergebniscodes", "QR code of the result code"));
}

// the end of a class game: the result code comes into view (on a phone it is far above the table)
let shownResult = null;
function showResult() {
  if (!result || shownResult === result.code) return;
  shownResult = result.code;
  const box = document.getElementById("class-result");
  if (box) box.scrollIntoView({ block: "start", behavior: "instant" });
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
  else if (data.type === "class") {
    klass = JSON.parse(data.json); // the table itself hides what a class round fixes
    drawClassBar();
  } else if (data.type === "kept") {
    const now = JSON.parse(data.json);
    if (now) {
      const wasMoved = moved;
      moved = moved || now.moved;
      keepGame({ actions: now.actions, moved });
      if (moved !== wasMoved) drawClassBar();
    }
  } else if (data.type === "class_result") {
    result = JSON.parse(data.json);
    worker.current.postMessage({ type: "qr", id: result.code + (result.text || ""), text: result.text });
    drawClassBar();
    showResult();
  } else if (data.type === "qr") {
    if (result && data.id === result.code + (result.text || "")) result.svg = data.svg;
    drawClassBar();
    showResult();
    if (result) classBar.dataset.result = result.code; // for the tests: the result is drawn
  }
  else if (data.type === "working") {
    working = { done: data.done, total: data.total };
    (listeners["change:progress"] || []).forEach((callback) => callback());
  }
  else if (data.type === "view") {
    view = data.json;
    const shown = JSON.parse(view).lang;
    const changed = document.documentElement.lang !== shown;
    document.documentElement.lang = shown; // the page's language follows the table's switch
    if (changed) drawClassBar();
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
drawClassBar();
worker.current.postMessage({ type: "start", game, lang, klass: classCode,
  kept: kept && Array.isArray(kept.actions) ? JSON.stringify({ actions: kept.actions }) : "", who });
