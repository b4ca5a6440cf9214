// A lesson page: the lesson's text is in the page; its code runs in a web worker (worker.mjs) and what
// the code shows fills the output slots (<div class="out" data-cell="k">) as each cell finishes: HTML,
// pictures, text, and widgets. A widget is an anywidget: its model comes over a comm from the worker,
// its ESM (`_esm`, and `_css`) is loaded as a module and rendered with render({model, el}) and a small
// model object (get/set/on/off/save_changes/send, "change:<name>" and "msg:custom" events), as anywidget
// and the Play pages (play.mjs with table.mjs) give it. No code is shown, nothing waits for "Run All".
// document.documentElement.dataset.lesson: "loading", then "ready" (every cell ran) or "error".
const root = document.documentElement;
const lang = root.lang === "en" ? "en" : "de";
const main = document.getElementById("lesson");
const progress = document.getElementById("progress");

const STEPS = {
  cache: [3, "Offline-Speicher wird eingerichtet …", "Setting up the offline copy …"],
  python: [10, "Lade Python …", "Loading Python …"],
  packages: [35, "Lade Pakete …", "Loading packages …"],
  lesson: [60, "Lade Lektion …", "Loading the lesson …"],
};

// The status line (read out by screen readers) changes with the step only; which part of the lesson
// runs now is shown beside it, not read out (it changes many times a second).
function say(step, done, total) {
  const [pct, de, en] = STEPS[step];
  const text = lang === "de" ? de : en;
  const line = progress.querySelector(".text");
  if (line.textContent !== text) line.textContent = text;
  let width = pct;
  let count = "";
  if (step === "lesson" && total) {
    count = lang === "de" ? `Teil ${done + 1} von ${total}` : `part ${done + 1} of ${total}`;
    width = pct + ((100 - pct) * done) / total;
  }
  progress.querySelector(".count").textContent = count;
  progress.querySelector(".bar span").style.width = width + "%";
}

function fail(text) {
  root.dataset.lesson = "error";
  progress.hidden = false;
  progress.classList.add("error");
  progress.querySelector(".text").textContent = text;
}

// As on the Play pages: the service worker (scope lesson/) keeps every file for the next visit and for
// use without a network; the first visit waits briefly until it controls the page, so Pyodide and the
// wheels go into the copy as they are downloaded, not a second time.
async function offlineCopy() {
  if (!("serviceWorker" in navigator)) return;
  say("cache");
  try {
    await navigator.serviceWorker.register("../sw.js");
    if (navigator.serviceWorker.controller) return;
    await Promise.race([
      new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true })),
      new Promise((resolve) => setTimeout(resolve, 3000)),
    ]);
  } catch (err) {
    console.warn("no offline copy:", err);
  }
}

// --- widgets: models over the worker's comms ---------------------------------------------------

const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
const models = new Map(); // comm_id -> {state, listeners, waiting}
const modules = new Map(); // ESM text -> the module's promise
const styled = new Set();

function modelEntry(id) {
  if (!models.has(id)) models.set(id, { state: null, listeners: {}, waiting: [] });
  return models.get(id);
}

function emit(entry, name, ...args) {
  for (const callback of [...(entry.listeners[name] || [])]) {
    try {
      callback(...args);
    } catch (err) {
      console.error(err);
    }
  }
}

function modelObject(id) {
  const entry = modelEntry(id);
  let dirty = {};
  return {
    get: (name) => entry.state[name],
    set: (name, value) => {
      entry.state[name] = value;
      dirty[name] = value;
      emit(entry, `change:${name}`);
    },
    save_changes: () => {
      if (!Object.keys(dirty).length) return;
      worker.postMessage({ type: "comm", comm_id: id, data: { method: "update", state: dirty, buffer_paths: [] } });
      dirty = {};
    },
    on: (name, callback) => {
      for (const one of name.split(" ")) (entry.listeners[one] ||= []).push(callback);
    },
    off: (name, callback) => {
      for (const one of (name ? name.split(" ") : Object.keys(entry.listeners))) {
        entry.listeners[one] = callback ? (entry.listeners[one] || []).filter((c) => c !== callback) : [];
      }
    },
    send: (content) => {
      worker.postMessage({ type: "comm", comm_id: id, data: { method: "custom", content } });
    },
    widget_manager: { get_model: async (other) => modelObject(other.replace(/^IPY_MODEL_/, "")) },
  };
}

function loadEsm(esm) {
  if (!modules.has(esm)) {
    const url = /^(https?:|\.{0,2}\/)/.test(esm) && !esm.includes("\n")
      ? esm : URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
    modules.set(esm, import(url));
  }
  return modules.get(esm);
}

async function renderWidget(id, el) {
  const entry = modelEntry(id);
  if (entry.state === null) await new Promise((resolve) => entry.waiting.push(resolve));
  const css = entry.state._css;
  if (css && !styled.has(css)) {
    styled.add(css);
    document.head.append(Object.assign(document.createElement("style"), { textContent: css }));
  }
  const mod = await loadEsm(entry.state._esm);
  let widget = mod.default ?? mod;
  if (typeof widget === "function") widget = await widget();
  const model = modelObject(id);
  if (!entry.initialized && typeof widget.initialize === "function") {
    entry.initialized = true;
    await widget.initialize({ model });
  }
  await widget.render({ model, el });
}

function onComm(data) {
  const entry = modelEntry(data.comm_id);
  if (data.type === "comm_open") {
    entry.state = { ...(data.data.state || {}) };
    entry.waiting.splice(0).forEach((resolve) => resolve());
  } else if (data.type === "comm_msg") {
    const msg = data.data || {};
    if (msg.method === "update" && entry.state) {
      Object.assign(entry.state, msg.state || {});
      for (const name of Object.keys(msg.state || {})) emit(entry, `change:${name}`);
      emit(entry, "change");
    } else if (msg.method === "custom") {
      emit(entry, "msg:custom", msg.content, []);
    } // "echo_update": the page's own change coming back; it has it already
  } else if (data.type === "comm_close") {
    models.delete(data.comm_id);
  }
}

// --- outputs -----------------------------------------------------------------------------------

const WIDGET = "application/vnd.jupyter.widget-view+json";
let firstOutput = true;

function slot(cell) {
  return main.querySelector(`.out[data-cell="${cell}"]`);
}

function showOutput({ cell, kind, data, text }) {
  const el = slot(cell);
  if (!el) {
    if (text) console.log(text);
    return;
  }
  if (kind === "stream") {
    let pre = el.lastElementChild;
    if (!pre || pre.tagName !== "PRE" || !pre.classList.contains("stream")) {
      pre = Object.assign(document.createElement("pre"), { className: "stream" });
      el.append(pre);
    }
    pre.textContent += text;
    return;
  }
  const box = document.createElement("div");
  box.className = "output";
  el.append(box);
  if (data[WIDGET]) {
    renderWidget(data[WIDGET].model_id, box).catch((err) => {
      console.error(err);
      box.textContent = data["text/plain"] || "";
    });
  } else if (data["text/html"] !== undefined) {
    box.innerHTML = data["text/html"];
  } else if (data["image/svg+xml"] !== undefined) {
    box.innerHTML = data["image/svg+xml"];
  } else if (data["text/plain"] !== undefined) {
    box.append(Object.assign(document.createElement("pre"), { textContent: data["text/plain"] }));
  }
  firstOutput = false;
}

function showFailed({ cell, text }) {
  const el = slot(cell) || main;
  el.append(Object.assign(document.createElement("p"), {
    className: "failed",
    textContent: (lang === "de" ? "Dieser Teil der Lektion konnte nicht laufen: " : "This part of the lesson could not run: ") + text,
  }));
}

let failed = 0;
worker.onmessage = ({ data }) => {
  if (data.type === "progress") say(data.step, data.done, data.total);
  else if (data.type === "output") showOutput(data);
  else if (data.type.startsWith("comm_")) onComm(data);
  else if (data.type === "failed") {
    failed += 1;
    showFailed(data);
  } else if (data.type === "done") {
    if (failed || data.failed) {
      fail(lang === "de" ? `${failed || data.failed} Teil(e) der Lektion konnten nicht laufen.`
        : `${failed || data.failed} part(s) of the lesson could not run.`);
    } else {
      root.dataset.lesson = "ready";
      progress.hidden = true;
    }
  } else if (data.type === "error") {
    fail((lang === "de" ? "Die Lektion konnte nicht starten: " : "The lesson could not start: ") + data.text);
  }
};
worker.onerror = (event) => fail((lang === "de" ? "Die Lektion konnte nicht starten: " : "The lesson could not start: ") +
  (event.message || event.type));

await offlineCopy();
worker.postMessage({ type: "start", cells: new URL(main.dataset.cells, location.href).href });
