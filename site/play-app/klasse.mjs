// The class board (play/klasse.html): a new class round (the projector's code and QR code), the
// students' result codes verified by replay, the class's summary, and a quick poll of a prediction.
// Every rule and number comes from Python (spieltisch.ui.classroom) in the Play pages' worker; this
// page draws. What it has collected is kept in the browser (localStorage) as the class code and the
// result codes only: on a reload every code is verified again.
import { copyText, say, showQr, startCamera } from "./class.mjs";

const STORE = "spieltisch-klasse";
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const params = new URLSearchParams(location.search);

let lang = params.get("lang");
try { lang = lang || localStorage.getItem("spieltisch-lang"); } catch (e) { /* private mode */ }
lang = lang === "en" ? "en" : "de";
let catalog = [];
let current = null; // the last answer of the board: {summary, state, full}
let stopCamera = null;

function setLang(next) {
  lang = next;
  document.body.className = "lang-" + lang;
  document.documentElement.lang = lang;
  try { localStorage.setItem("spieltisch-lang", lang); } catch (e) { /* private mode */ }
}
setLang(lang);

// --- the worker: Pyodide with every game, the board's model in Python ---
const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
let nextId = 0;
const waiting = new Map();
function call(request) {
  const id = ++nextId;
  worker.postMessage({ type: "call", id, json: JSON.stringify({ lang, ...request }) });
  return new Promise((resolve) => waiting.set(id, resolve));
}
function qr(text) {
  const id = ++nextId;
  worker.postMessage({ type: "qr", id, text });
  return new Promise((resolve) => waiting.set(id, resolve));
}
let ready;
const started = new Promise((resolve) => { ready = resolve; });
worker.onmessage = ({ data }) => {
  if (data.type === "ready") ready(data);
  else if (data.type === "answer") { waiting.get(data.id)(JSON.parse(data.json)); waiting.delete(data.id); }
  else if (data.type === "qr") { waiting.get(data.id)(data.svg); waiting.delete(data.id); }
  else if (data.type === "error") {
    $("progress").hidden = false;
    $("progress").classList.add("error");
    $("progress").textContent = say(lang, "Fehler: ", "Error: ") + data.text;
    for (const resolve of waiting.values()) resolve({ error: { de: data.text, en: data.text } });
    waiting.clear();
  }
};

function show(section) {
  for (const id of ["setup", "projector", "board"]) $(id).hidden = id !== section;
  $("poll").hidden = section === "projector";
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    localStorage.setItem(STORE, JSON.stringify({ ...kept, view: section }));
  } catch (e) { /* private mode */ }
}

// earlier rounds of this device (their class code and result codes): kept when a new round starts,
// opened again (every code verified again) from the setup
const EARLIER = "spieltisch-klasse-earlier";
function earlierRounds() {
  try { return JSON.parse(localStorage.getItem(EARLIER) || "[]"); } catch (e) { return []; }
}
// (a board whose results could not be read is kept too: it holds them, unread)
const held = (s) => s.count + (s.unread || []).length;
function remember(answer) {
  if (!answer || !answer.state || !held(answer.summary)) return;
  keepAside(answer.state, answer.summary.class.name, answer.summary.class.shown, held(answer.summary));
}
function keepAside(state, name, shown, count) {
  const list = earlierRounds().filter((r) => r.state.class !== state.class);
  list.unshift({ state, name, shown, count, at: new Date().toISOString().slice(0, 16).replace("T", " ") });
  try { localStorage.setItem(EARLIER, JSON.stringify(list.slice(0, 20))); } catch (e) { /* private mode */ }
}
function drawEarlier() {
  const list = earlierRounds();
  $("earlier").hidden = !list.length;
  $("earlier-list").replaceChildren(...list.map((r) => el("li", {}, `${r.at} · ${typeof r.name === "object" ? r.name[lang] : r.name} · ${r.shown} · ${r.count} `
    + say(lang, "Ergebnisse", "results") + " ", el("button", { type: "button", className: "open-earlier",
    textContent: say(lang, "Wieder öffnen", "Open again"), onclick: async () => {
      const answer = await call({ kind: "load", state: r.state });
      if (answer.error) { $("setup-message").textContent = answer.error[lang]; return; }
      if (current && current.state.class !== r.state.class) remember(current);
      await opened(answer, "board");
    } }))));
}

function keep(state) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    localStorage.setItem(STORE, JSON.stringify({ ...kept, state }));
  } catch (e) { /* private mode: the board lasts as long as the page */ }
}

// --- a new class round ---
function gameOf(id) { return catalog.find((g) => g.id === id); }

function fillSetup(preselect) {
  const game = $("game");
  const chosen = game.value || (catalog.find((g) => g.card === preselect || g.id === preselect) || catalog[0]).id;
  game.replaceChildren(...catalog.map((g) => el("option", { value: g.id, textContent: g.name, selected: g.id === chosen })));
  fillGame();
}

function fillGame() {
  const g = gameOf($("game").value);
  const players = $("players");
  const n = Number(players.value) || g.players[0];
  const count = Math.min(Math.max(n, g.players[0]), g.players[1]);
  players.replaceChildren(...Array.from({ length: g.players[1] - g.players[0] + 1 }, (_, i) => g.players[0] + i)
    .map((k) => el("option", { value: k, textContent: k, selected: k === count })));
  fillSeats();
  $("options").replaceChildren(...g.options.map((o) => {
    const id = "opt-" + o.name;
    let input;
    if (o.kind === "bool") input = el("input", { type: "checkbox", id, checked: o.default });
    else if (o.choices.length) input = el("select", { id }, ...o.choices.map((c) => el("option", { value: c,
      textContent: (o.choice_labels || {})[String(c)] || c, selected: c === o.default })));
    else input = el("input", { type: "number", id, value: o.default, min: o.min, max: o.max });
    input.dataset.option = o.name;
    input.dataset.kind = o.kind;
    return el("label", { htmlFor: id, title: o.help }, `${o.label || o.name}: `, input);
  }));
  $("hidden-note").hidden = !g.hidden;
}

function fillSeats() {
  const g = gameOf($("game").value);
  const n = Number($("players").value);
  const old = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => {
    const id = "seat-" + i;
    const was = old[i] || (i === 0 ? "human" : g.default_bot);
    const select = el("select", { id },
      el("option", { value: "human", textContent: say(lang, "Schüler/in", "student"), selected: was === "human" }),
      ...g.bots.map((b) => el("option", { value: b.id, textContent: `Bot (${b.name})`, selected: was === b.id })));
    return el("label", { htmlFor: id }, `${say(lang, "Platz", "Seat")} ${i + 1}: `, select);
  }));
}

async function startRound(event) {
  event.preventDefault();
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    options[input.dataset.option] = kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
  }
  const answer = await call({
    kind: "new", game: $("game").value, players: Number($("players").value),
    seats: [...$("seats").querySelectorAll("select")].map((s) => s.value), options, advisor: $("advisor").checked,
  });
  if (answer.error) { $("setup-message").textContent = answer.error[lang]; return; }
  $("setup-message").textContent = "";
  await opened(answer, "projector");
}

async function openCode(event) {
  event.preventDefault();
  const answer = await call({ kind: "open", code: $("open-code").value });
  if (answer.error) { $("setup-message").textContent = answer.error[lang]; return; }
  $("setup-message").textContent = "";
  await opened(answer, "board");
}

// --- the projector: the class code large, and the QR code of the Play page's link ---
async function opened(answer, section) {
  if (!current || current.state.class !== answer.state.class) rankingBy = null;
  current = answer;
  keep(answer.state);
  const info = answer.summary.class;
  const link = new URL(info.link.replace(/^play\//, ""), location.href).href;
  for (const node of document.querySelectorAll(".game-name")) node.textContent = info.name;
  $("big-code").textContent = info.shown;
  $("class-link-text").textContent = link;
  $("class-qr").dataset.link = link;
  // a QR code of this very computer: other devices cannot open it (say so, and what to do instead)
  $("local-note").hidden = !/^(127\.|localhost$|\[::1\]$)/.test(new URL(link).hostname);
  const details = [`${say(lang, "Spieler", "players")}: ${info.players}`, info.seats.join(", ")];
  if (info.options_text && info.options_text.length) details.push(info.options_text.join(", "));
  details.push(info.advisor ? say(lang, "Berater erlaubt", "advisor allowed") : say(lang, "ohne Berater", "no advisor"));
  document.querySelector(".round-details").textContent = details.join(" · ");
  document.querySelector(".board-code").textContent = info.shown;
  showQr($("class-qr"), await qr(link), say(lang, `QR-Code des Links ${link}`, `QR code of the link ${link}`));
  drawBoard(answer);
  show(section);
  if (!answer.full && answer.summary.count) refresh();
}

// --- the board ---
async function addCodes(text) {
  const answer = await call({ kind: "add", text });
  if (answer.error) { $("add-message").replaceChildren(el("p", { className: "refused", textContent: answer.error[lang] })); return; }
  current = answer;
  keep(answer.state);
  const { added, refused } = answer.outcome;
  // (replaceChildren writes a null as the word "null": only real nodes go in)
  $("add-message").replaceChildren(...[
    added.length ? el("p", { className: "added", textContent: say(lang,
      `${added.length} Ergebnis(se) geprüft und hinzugefügt.`, `${added.length} result(s) verified and added.`) }) : null,
    ...refused.map((r) => el("p", { className: "refused",
      textContent: `${say(lang, "Abgelehnt", "Refused")}: ${r.input} – ${r.reason[lang]}` }))].filter(Boolean));
  drawBoard(answer);
  if (added.length) refresh();
}

// the bots' games and the advisor's look at the decisions take a while: asked for after the rest is drawn
let computing = null; // the full summary on its way: an export waits for it
function refresh() {
  $("decisions").dataset.busy = "1";
  computing = (async () => {
    const answer = await call({ kind: "summary", full: true });
    delete $("decisions").dataset.busy;
    if (!answer.error) { current = answer; drawBoard(answer); }
  })();
  return computing;
}
// an export holds what the board shows when it is complete: while it computes, the export waits
async function complete() {
  if (current && !current.full && current.summary.count) await (computing || refresh());
  else if (computing) await computing;
}

const num = (x, digits = 2) => (Math.round(x * 10 ** digits) / 10 ** digits).toLocaleString(lang === "de" ? "de-DE" : "en-GB");

function drawBoard(answer) {
  const s = answer.summary;
  $("board").dataset.results = String(s.count);
  $("board").dataset.full = answer.full ? "1" : "0";
  const stats = [
    [say(lang, "Ergebnisse", "results"), String(s.count)],
    [say(lang, "Mittelwert der Klasse", "class mean"), s.mean ? num(s.mean.float) : "–"],
  ];
  if (s.best_expected) stats.push([say(lang, "Erwartungswert bei bestem Spiel (exakt)", "expected value of best play (exact)"),
    `${num(s.best_expected.float)}`]);
  if (s.bots_mean) stats.push([say(lang, "Mittelwert der Bots in diesem Spiel", "mean of the bots in this game"),
    `${num(s.bots_mean.float)} (${s.bots.map((b) => `${b.name}: ${b.points}`).join(", ")})`]);
  $("stats").replaceChildren(...stats.map(([k, v]) => el("div", {}, k, el("strong", { textContent: v }))));
  if (s.best_expected) $("stats").dataset.best = s.best_expected.fraction;
  drawUnread(s);
  drawHistogram(s);
  drawRanking(s);
  drawDecisions(s, answer.full);
}

// Stored results this page could not read (a code of an older layout, a changed storage): said with
// the refusal's words and kept in the board's state (saved, exported, written back) until the
// teacher removes them here.
function drawUnread(s) {
  const box = $("unread");
  const unread = s.unread || [];
  box.hidden = !unread.length;
  if (!unread.length) { box.replaceChildren(); return; }
  box.replaceChildren(
    el("p", { textContent: say(lang,
      `${unread.length} gespeicherte(s) Ergebnis(se) konnte(n) nicht gelesen werden. Sie bleiben gespeichert und werden mit der Auswertung (JSON) gesichert:`,
      `${unread.length} stored result(s) could not be read. They stay stored and are saved with the board (JSON):`) }),
    el("ul", {}, ...unread.map((u) => el("li", {}, el("span", { className: "code", textContent: u.code }),
      `${u.name ? ` (${u.name})` : ""} – ${u.reason}`))),
    el("button", { type: "button", id: "forget-unread", textContent: say(lang, "Nicht lesbare Ergebnisse entfernen", "Remove the unreadable results"),
      onclick: async () => {
        if (!confirm(say(lang, `${unread.length} nicht lesbare(s) Ergebnis(se) endgültig entfernen?`,
          `Remove ${unread.length} unreadable result(s) for good?`))) return;
        const answer = await call({ kind: "forget_unread", full: current && current.full });
        if (answer.error) return;
        current = answer;
        keep(answer.state);
        drawBoard(answer);
      } }));
}

// The ranking by decisions (the expected points a student's decisions gave away against best play:
// luck plays no part) is the board's first view where the game's review measures the whole game
// (the summary's ranking_default); by points is the other (the first for the per-turn games). Until the full summary is
// in (the advisor values every decision), only the points are known.
// null until the teacher picks a view: the board opens with its default (by decisions only where the
// game's review measures the whole game, else by points)
let rankingBy = null;
function lossText(loss) {
  if (!loss) return "…";
  if (loss.method === "exact") return num(loss.float);
  return `≈ ${num(loss.float, 1)} (${num(loss.ci95[0], 1)}–${num(loss.ci95[1], 1)})`;
}
// el() sets properties; ARIA and data attributes need setAttribute
const withAttrs = (node, attrs) => { for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v); return node; };
function drawRanking(s) {
  const box = $("ranking");
  if (!s.ranking.length) {
    box.replaceChildren(el("p", { className: "note", textContent: say(lang, "Noch keine Ergebnisse.", "No results yet.") }));
    return;
  }
  const by = rankingBy || s.ranking_default || "points";
  const byDecisions = by === "decisions" && s.ranking_by === "decisions";
  const rows = byDecisions ? s.ranking : s.ranking_points;
  const views = withAttrs(el("p", { className: "row" },
    ...[["decisions", say(lang, "nach Entscheidungen", "by decisions")], ["points", say(lang, "nach Punkten", "by points")]].map(([k, t]) =>
      withAttrs(el("button", { type: "button", textContent: t, className: "ranking-by",
        onclick: () => { rankingBy = k; drawRanking(s); } }), { "aria-pressed": String(by === k), "data-by": k }))),
  { role: "group", "aria-label": say(lang, "Rangliste nach", "ranking by") });
  // "given away", not "points given away": some advisors measure in cards of lead or this turn's
  // points; the note under the buttons says in what
  const heads = [say(lang, "Platz", "rank"), say(lang, "Name", "name"),
    say(lang, "verschenkt (erwartet)", "given away (expected)"), say(lang, "Punkte", "points"),
    say(lang, "Ergebniscode", "result code")];
  const table = withAttrs(el("table", {},
    el("thead", {}, el("tr", {}, ...heads.map((t, i) => el("th", { textContent: t, className: i === 2 || i === 3 ? "num" : "" })))),
    // "≈ 2": a place an estimate cannot tell from its neighbours' (the note below names them)
    el("tbody", {}, ...rows.map((r) => withAttrs(el("tr", {}, el("td", { textContent: byDecisions && r.uncertain ? `≈ ${r.rank}` : r.rank }),
      el("td", { textContent: r.name }),
      el("td", { className: "num loss", textContent: lossText(r.expected_loss) }),
      el("td", { className: "num", textContent: String(r.points).replace("-", "−") }), el("td", { className: "code", textContent: r.shown })),
    { "data-code": r.code })))), { "data-by": byDecisions ? "decisions" : "points" });
  // each view its own note: the points view says what points count, not what decisions do
  const note = by === "points" ? s.ranking_points_note : s.ranking_by === "decisions" ? s.ranking_note
    : say(lang, "Die Rangliste nach Entscheidungen wird berechnet …", "The ranking by decisions is being computed …");
  const notes = [el("p", { className: "note ranking-note", textContent: note })];
  if (byDecisions && s.ranking_uncertain) notes.push(el("p", { className: "note ranking-uncertain", textContent: s.ranking_uncertain }));
  // several results under one name (a second tab or browser): said, and only the first ranked
  if (s.name_flags.length) notes.push(el("p", { className: "note name-flags", textContent: s.name_flags.map((f) => f.text).join("; ") }));
  box.replaceChildren(views, ...notes, table);
}

function drawHistogram(s) {
  const fig = $("histogram");
  const bins = s.histogram.bins;
  if (!bins.length) { fig.replaceChildren(); return; }
  const W = 640, H = 260, left = 40, bottom = 40, top = 20;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const lo = bins[0].lo, hi = bins[bins.length - 1].hi;
  const right = 34; // room for the last tick's number, centred on the axis's end
  const x = (v) => left + ((v - lo) / (hi - lo)) * (W - left - right);
  const y = (c) => H - bottom - (c / max) * (H - bottom - top);
  const parts = [];
  for (const b of bins) {
    parts.push(`<rect x="${x(b.lo) + 1}" y="${y(b.count)}" width="${x(b.hi) - x(b.lo) - 2}" height="${H - bottom - y(b.count)}" fill="#1f5f8b"></rect>`);
    if (b.count) parts.push(`<text x="${(x(b.lo) + x(b.hi)) / 2}" y="${y(b.count) - 4}" text-anchor="middle" font-size="13">${b.count}</text>`);
    parts.push(`<text x="${x(b.lo)}" y="${H - bottom + 16}" text-anchor="middle" font-size="12">${b.lo}</text>`);
  }
  parts.push(`<text x="${x(hi)}" y="${H - bottom + 16}" text-anchor="middle" font-size="12">${hi}</text>`);
  parts.push(`<line x1="${left}" x2="${W - right}" y1="${H - bottom}" y2="${H - bottom}" stroke="#333"></line>`);
  const marks = [];
  if (s.best_expected) marks.push([s.best_expected.float, "#2e7d32", say(lang, "bestes Spiel (Erwartungswert)", "best play (expected)")]);
  if (s.bots_mean) marks.push([s.bots_mean.float, "#b3261e", say(lang, "Bots (Mittelwert)", "bots (mean)")]);
  if (s.mean) marks.push([s.mean.float, "#6a1b9a", say(lang, "Klasse (Mittelwert)", "class (mean)")]);
  for (const [v, color] of marks) {
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${top - 10}" y2="${H - bottom}" stroke="${color}" stroke-width="3" stroke-dasharray="6 3"></line>`);
  }
  parts.push(`<text x="${(left + W) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">${say(lang, "Punkte", "points")}</text>`);
  const described = bins.map((b) => `${b.lo}–${b.hi}: ${b.count}`).join("; ");
  fig.innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img"></svg>`;
  const svg = fig.querySelector("svg");
  svg.innerHTML = parts.join("");
  svg.setAttribute("aria-label", say(lang, `Histogramm der Punkte: ${described}`, `Histogram of the points: ${described}`));
  fig.append(el("ul", { className: "legend" }, ...marks.map(([v, color, label]) =>
    el("li", {}, el("span", { className: "swatch", style: `border-color:${color}` }), `${label}: ${num(v)}`))));
  // the caption names only the lines the histogram has (the exact value of best play only where the
  // game's analysis solves the whole game)
  const lines = [];
  if (s.best_expected) lines.push(say(lang, "den exakten Erwartungswert bei bestem Spiel", "the exact expected value of best play"));
  if (s.bots_mean) lines.push(say(lang, "den Mittelwert der Bots im selben Spiel", "the bots' mean in the same game"));
  if (s.mean) lines.push(say(lang, "den Mittelwert der Klasse", "the class's mean"));
  const listed = lines.length > 1 ? `${lines.slice(0, -1).join(", ")} ${say(lang, "und", "and")} ${lines[lines.length - 1]}` : lines[0];
  fig.append(el("figcaption", { className: "note", textContent: say(lang,
    `Punkte der Klasse (jedes Spiel einmal); die Linien zeigen ${listed}.`,
    `The class's points (each game once); the lines show ${listed}.`) }));
}

function drawDecisions(s, full) {
  const box = $("decisions");
  if (!full) {
    box.replaceChildren(el("p", { className: "note", textContent: s.count >= 2 ? say(lang, "rechnet …", "computing …")
      : say(lang, "Ab zwei Ergebnissen: die Entscheidungen, die die meisten erreicht haben.", "From two results on: the decisions most students reached.") }));
    return;
  }
  if (!s.decisions.length) {
    box.replaceChildren(el("p", { className: "note", textContent: say(lang,
      "Noch keine Entscheidung, die mindestens die Hälfte (und zwei) erreicht hat.", "No decision yet that at least half (and two) reached.") }));
    return;
  }
  box.replaceChildren(...s.decisions.map((d) => el("div", { className: "decision" },
    el("h4", { textContent: `${d.situation} – ${say(lang, `erreicht von ${d.reached}`, `reached by ${d.reached}`)}` }),
    el("table", {}, el("thead", {}, el("tr", {}, ...[say(lang, "Möglichkeit", "option"), say(lang, "gewählt", "chosen"),
      say(lang, "verloren je Wahl", "lost per choice")].map((t) => el("th", { textContent: t })))),
    el("tbody", {}, ...d.options.map((o) => el("tr", { className: o.best ? "best" : "" },
      el("td", { textContent: (o.best ? "★ " : "") + o.label }),
      el("td", { className: "num" }, el("span", { className: "bar" + (o.best ? " best" : ""), style: `width:${(o.count / d.reached) * 120}px` }),
        ` ${o.count}`),
      el("td", { className: "num", textContent: num(o.loss.float, 3) }))))))));
}

function download(name, type, text) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

// --- the poll of a lesson's prediction ---
let poll = null;
async function loadPoll() {
  const answer = await call({ kind: "predictions" });
  if (answer.error) return;
  const select = $("poll-question");
  const chosen = select.value;
  select.replaceChildren(...answer.predictions.map((p) => el("option", { value: p.id, textContent: p.title, selected: p.id === chosen })));
  poll = { list: answer.predictions, counts: {} };
  drawPoll();
}
function drawPoll() {
  if (!poll) return;
  const p = poll.list.find((q) => q.id === $("poll-question").value) || poll.list[0];
  const counts = poll.counts[p.id] ||= p.options.map(() => 0);
  $("poll-text").textContent = p.question;
  $("poll-notes").textContent = p.notes || "";  // the reading or assumption the answer rests on
  $("poll-notes").hidden = !p.notes;
  $("poll-options").replaceChildren(...p.options.map((label, i) => el("div", { className: "poll-option" },
    el("span", { textContent: label }),
    el("button", { type: "button", textContent: "−", ariaLabel: `${label}: ${say(lang, "eins weniger", "one less")}`,
      onclick: () => { counts[i] = Math.max(0, counts[i] - 1); drawPoll(); } }),
    el("span", { className: "count", textContent: counts[i] }),
    el("button", { type: "button", textContent: "+", ariaLabel: `${label}: ${say(lang, "eins mehr", "one more")}`,
      onclick: () => { counts[i] += 1; drawPoll(); } }))));
}
async function revealPoll() {
  const id = $("poll-question").value;
  const answer = await call({ kind: "reveal", id, counts: poll.counts[id] || [] });
  if (answer.error) { $("poll-answer").textContent = answer.error[lang]; return; }
  const r = answer.reveal;
  // the class's distribution first (the right options marked), then the exact value, the other
  // options' values or readings, the seeded simulation
  const total = r.votes || 1;
  const rows = r.distribution.map((d) => el("li", { className: d.right ? "right" : "" },
    el("span", { textContent: `${d.label}: ${d.count}` + (d.right ? ` ✓` : "") }),
    el("span", { className: "bar", style: `width:${Math.round(100 * d.count / total)}%`, ariaHidden: "true" })));
  $("poll-answer").replaceChildren(el("p", { className: "best", textContent: r.exact_text }),
    ...[r.values_text, r.readings_text].filter(Boolean).map((t) => el("p", { textContent: t })),
    el("p", { textContent: r.simulation_text }), el("p", { textContent: r.class_text }),
    el("ul", { className: "poll-distribution", ariaLabel: say(lang, "Stimmen der Klasse", "The class's votes") }, ...rows));
}

// --- wiring ---
$("lang-toggle").addEventListener("click", async () => {
  setLang(lang === "de" ? "en" : "de");
  if (!catalog.length) return;
  catalog = (await call({ kind: "catalog" })).games;
  fillSetup();
  if (current) {
    const answer = await call({ kind: "summary", full: current.full });
    if (!answer.error) { current = answer; await opened(answer, $("board").hidden ? ($("projector").hidden ? "setup" : "projector") : "board"); }
  }
  loadPoll();
});
$("game").addEventListener("change", fillGame);
$("players").addEventListener("change", fillSeats);
$("setup-form").addEventListener("submit", startRound);
$("open-form").addEventListener("submit", openCode);
$("to-board").addEventListener("click", () => show("board"));
$("show-projector").addEventListener("click", () => show("projector"));
$("new-round").addEventListener("click", () => {
  const count = current ? held(current.summary) : 0;
  if (count && !confirm(say(lang,
    `Eine neue Klassenrunde beginnen? Die Auswertung dieser Runde (${count} Ergebnisse) bleibt unter „Frühere Klassenrunden“ auf diesem Gerät und lässt sich wieder öffnen.`,
    `Start a new class round? This round's board (${count} results) stays under “Earlier class rounds” on this device and can be opened again.`))) return;
  if (current) remember(current);
  rankingBy = null; // the next round (or this one opened again) starts with its own default view
  show("setup");
  drawEarlier();
  $("game").focus();
});
$("board-projector").addEventListener("click", () => {
  const on = !document.body.classList.contains("board-projector");
  document.body.classList.toggle("board-projector", on);
  $("board-projector").setAttribute("aria-pressed", String(on));
  $("add-box").open = !on; // the code entry folds away on the projector
  if (current) drawBoard(current);
});
$("import-json").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  let data = null;
  try { data = JSON.parse(await file.text()); } catch (e) { data = null; }
  const state = data && (data.board || data);
  const answer = state ? await call({ kind: "load", state }) : { error: { de: "keine gesicherte Auswertung", en: "not a saved class board" } };
  event.target.value = "";
  if (answer.error) { $("setup-message").textContent = answer.error[lang]; return; }
  if (current) remember(current);
  await opened(answer, "board");
});
$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("codes").value;
  $("codes").value = "";
  addCodes(text);
});
$("camera").addEventListener("click", async () => {
  if (stopCamera) { stopCamera(); stopCamera = null; $("video").hidden = true; return; }
  try {
    $("video").hidden = false;
    stopCamera = await startCamera($("video"), (text) => addCodes(text));
  } catch (err) {
    $("video").hidden = true;
    $("add-message").replaceChildren(el("p", { className: "refused", textContent: say(lang,
      "Keine Kamera verfügbar – bitte die Codes eintippen oder einfügen.", "No camera available – please type or paste the codes.") }));
  }
});
$("export-csv").addEventListener("click", async () => {
  await complete();
  const answer = await call({ kind: "csv" });
  if (!answer.error) download(`klassenrunde-${current.summary.class.code}.csv`, "text/csv", answer.csv);
});
$("export-json").addEventListener("click", async () => {
  await complete();
  download(`klassenrunde-${current.summary.class.code}.json`, "application/json",
    JSON.stringify({ board: current.state, summary: current.summary }, null, 1));
});
$("poll-question").addEventListener("change", () => { drawPoll(); $("poll-answer").replaceChildren(); });
$("poll-reset").addEventListener("click", () => { poll.counts = {}; drawPoll(); $("poll-answer").replaceChildren(); });
$("poll-reveal").addEventListener("click", revealPoll);

worker.postMessage({ type: "board", lang });
await started;
$("progress").hidden = true;
catalog = (await call({ kind: "catalog" })).games;
fillSetup(params.get("game"));
loadPoll();
let kept = {};
try { kept = JSON.parse(localStorage.getItem(STORE) || "{}"); } catch (e) { kept = {}; }
const code = params.get("class");
let answer = null;
// what the kept board holds; opening another round or failing to open it must not lose it
const keptHeld = kept.state && Array.isArray(kept.state.results)
  ? kept.state.results.length + (Array.isArray(kept.state.unread) ? kept.state.unread.length : 0) : 0;
const loadingKept = kept.state && (!code || kept.state.class === code.toUpperCase().replace(/[\s_.-]/g, ""));
if (loadingKept) {
  answer = await call({ kind: "load", state: kept.state });
} else if (code) {
  answer = await call({ kind: "open", code });
  // another round's link: the board kept so far goes to the earlier rounds before this one is kept
  if (keptHeld && !answer.error) keepAside(kept.state, { de: "frühere Auswertung", en: "earlier board" }, String(kept.state.class), keptHeld);
}
if (answer && !answer.error) await opened(answer, kept.view === "projector" ? "projector" : code ? "board" : kept.view || "board");
else {
  if (answer && answer.error) {
    $("setup-message").textContent = answer.error[lang];
    // the kept board cannot be opened here (e.g. its class code is of another version): it moves to the
    // earlier rounds, so the next round does not overwrite it
    if (loadingKept && keptHeld) {
      keepAside(kept.state, { de: "nicht lesbar", en: "unreadable" }, String(kept.state.class), keptHeld);
      $("setup-message").textContent = say(lang, "Die gespeicherte Auswertung lässt sich nicht öffnen: ",
        "The kept board cannot be opened: ") + answer.error[lang] + say(lang,
        " – sie bleibt unter „Frühere Klassenrunden“.", " – it stays under “Earlier class rounds”.");
    }
  }
  show("setup");
}
drawEarlier();
document.body.dataset.ready = "1"; // for the tests
