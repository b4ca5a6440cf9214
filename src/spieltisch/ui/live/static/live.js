// The live class's pages (anywidget-style ESM: render({model, el})): the student's, the teacher's
// board and the projector. The server sends the page in the "view" trait (spieltisch.ui.live.registry
// Registry.view, in frames: the whole view, then what changed, spieltisch.ui.live.frames) and gets
// every action back in the "event" trait. A game is drawn by the shared front-end (TableFrontEnd,
// table.js wrapped in front of this file) through a small model of its own. This script knows no
// rule and no word: every text comes from the server in the page's language.

const TOKEN_KEY = "spieltisch-live-seat";
let lastN = 0;
// events carry a counter that only goes up, across redraws and reloads (the server refuses one
// that does not: a replayed event)
const nextN = () => (lastN = Math.max(lastN + 1, Date.now()));

// elements are made as the shared front-end makes them (its helper, h(tag, attrs, ...children))
const el = TableFrontEnd.h;

function readSeat() {
  try { return JSON.parse(localStorage.getItem(TOKEN_KEY) || "null"); } catch (err) { return null; }
}

// bars: [{label, count, mark}] as horizontal bars with their numbers written out
function bars(items, title) {
  const max = Math.max(1, ...items.map((b) => b.count));
  return el("table", { class: "lv-bars" }, title ? el("caption", {}, title) : null,
    items.map((b) => el("tr", { class: b.mark ? "lv-mark" : null },
      el("th", { scope: "row" }, b.label),
      el("td", {}, el("span", { class: "lv-bar", style: `width:${Math.round((100 * b.count) / max)}%` }), ` ${b.count}`))));
}

function histogramBars(h, mark, lang) {
  const fmt = (x) => (lang === "de" ? String(x).replace(".", ",") : String(x)).replace("-", "−");
  return (h.bins || []).map((b) => ({
    label: h.width === 1 ? fmt(b.lo) : `${fmt(b.lo)} – ${fmt(b.hi)}`,
    count: b.count,
    mark: mark !== null && mark !== undefined && mark >= b.lo && mark < b.hi,
  }));
}

function fractionText(v, lang) {
  if (!v) return "–";
  const x = Math.round(v.float * 1000) / 1000;
  const shown = (lang === "de" ? String(x).replace(".", ",") : String(x)).replace("-", "−");
  return v.fraction && !v.fraction.endsWith("/1") && v.fraction.length < 30 ? `${shown} (= ${v.fraction.replace("-", "−")})` : shown;
}

// a view changed by a frame's patch: {set, drop, in} (spieltisch.ui.live.frames.patch)
function applyPatch(v, p) {
  for (const k of p.drop || []) delete v[k];
  Object.assign(v, p.set || {});
  for (const [k, inner] of Object.entries(p.in || {})) applyPatch(v[k], inner);
  return v;
}

// the shared front-end's model, fed from this page's view
function tableModel(onEvent) {
  const listeners = {};
  let view = "";
  let pending = null;
  return {
    get: (k) => (k === "view" ? view : k === "progress" ? null : ""),
    set: (k, v) => { if (k === "event") pending = v; },
    save_changes: () => {
      if (pending === null) return;
      const ev = JSON.parse(pending);
      pending = null;
      onEvent(ev);
    },
    on: (name, cb) => { (listeners[name] ||= []).push(cb); },
    off: () => {},
    setView: (v) => {
      if (v === view) return;
      view = v;
      for (const cb of listeners["change:view"] || []) cb();
    },
  };
}

// The page's connection. Bokeh's own reconnect is off (app.py): it gives up after five attempts
// (about 30 s), and a reconnect may read the new socket's first frames as the rest of a message the
// old one was cut off in (its receiver outlives the socket: "First message was not an ACK", after
// which it hangs on an open socket for good). So a page that lost its websocket (closed, or a ping
// unanswered) says so, puts every control out of reach, and asks the server's
// "alive" address, again and again with a growing pause (at most PROBE_MAX_MS) for as long as the page
// is open; once the server answers, the page loads itself again. A fresh page has a fresh connection,
// and its seat token (the join page's hello) brings a student back to their seat.
const PROBE_FIRST_MS = 500;
const PROBE_MAX_MS = 5000;
// A connection can also die without closing (a lid shut, a network gone): the page sends a ping
// every PING_MS and counts itself cut off when one stays unanswered for DEAD_MS.
const PING_MS = 10000;
const DEAD_MS = 20000;

function watchConnection(onLost) {
  // the page's Bokeh document may not be listed yet while it is rendered: looked for a while
  let tries = 0;
  const hook = () => {
    const docs = (window.Bokeh && window.Bokeh.documents) || [];
    if (!docs.length) {
      if (++tries < 300) setTimeout(hook, 100);
      return;
    }
    for (const doc of docs) doc.on_event("connection_lost", () => onLost());
  };
  hook();
}

// when the page last loaded itself again (this tab only): a page that loses its connection again
// right after that waits longer before asking, so no server fault can make it reload in a tight loop
const RELOADED_KEY = "spieltisch-live-reloaded";
const RELOAD_CALM_MS = 10000;

function reloadNow() {
  try { sessionStorage.setItem(RELOADED_KEY, String(Date.now())); } catch (err) { /* private mode */ }
  location.reload();
}

function probeUntilBack() {
  let last = 0;
  try { last = Number(sessionStorage.getItem(RELOADED_KEY) || 0); } catch (err) { /* private mode */ }
  let pause = Date.now() - last < RELOAD_CALM_MS ? PROBE_MAX_MS : PROBE_FIRST_MS;
  let timer = null;
  let asking = false;
  const ask = async () => {
    clearTimeout(timer);
    if (asking) return;
    asking = true;
    try {
      const r = await fetch(new URL("alive", location.href), { cache: "no-store" });
      if (r.ok) { reloadNow(); return; }
    } catch (err) { /* no network, or no server yet */ }
    asking = false;
    pause = Math.min(pause * 2, PROBE_MAX_MS);
    timer = setTimeout(ask, pause);
  };
  // a device that comes back (the network, a lid opened) asks at once
  addEventListener("online", ask);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) ask(); });
  timer = setTimeout(ask, pause);
}

function render({ model, el: host }) {
  // A page whose document was rebuilt (by a reconnect, should Bokeh ever make one) loads itself
  // again: a server that restarted meanwhile would not take the rebuilt page's events on (it waits
  // for a "document ready" no rebuilt page sends).
  if (window.__spieltischLive) { location.reload(); return () => {}; }
  window.__spieltischLive = true;
  let cut = false;
  const send = (ev) => {
    if (cut) return; // nothing is sent into a dead connection (the controls are out of reach anyway)
    model.set("event", JSON.stringify({ ...ev, n: nextN() }));
    model.save_changes();
  };
  const root = el("div", { class: "lv-page" });
  const notice = el("div", { class: "lv-notice", role: "status", "aria-live": "polite" });
  // the connection's banner: an alert (a live region of its own), empty and not shown while connected
  const banner = el("div", { class: "lv-conn", role: "alert" });
  host.append(el("style", {}, LIVE_CSS), banner, el("main", { class: "lv-main" }, root, notice));
  let offlineWords = {};
  try { offlineWords = JSON.parse(model.get("offline") || "{}"); } catch (err) { /* app.py always sets it */ }

  // Cut off: the banner says so, and no control offers what cannot be sent (the table's move
  // buttons included, also those the shared front-end draws later: the page is inert, and every
  // control in it disabled, until it loads itself again).
  const disableAll = () => {
    for (const c of root.querySelectorAll("button, input, select, textarea")) if (!c.disabled) c.disabled = true;
  };
  function cutOff() {
    if (cut) return;
    cut = true;
    const lang = document.documentElement.lang === "en" ? "en" : "de";
    banner.textContent = offlineWords[lang] || offlineWords.de || "…";
    root.inert = true;
    root.classList.add("lv-cut");
    disableAll();
    new MutationObserver(disableAll).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
    probeUntilBack();
  }
  watchConnection(cutOff);
  let pings = 0;
  let unanswered = null; // when the ping now waiting for its answer was sent
  model.on("change:pong", () => { if (model.get("pong") === pings) unanswered = null; });
  const beat = setInterval(() => {
    if (cut) { clearInterval(beat); return; }
    if (unanswered !== null) {
      if (Date.now() - unanswered > DEAD_MS) cutOff();
      return;
    }
    unanswered = Date.now();
    model.set("ping", ++pings);
    model.save_changes();
  }, PING_MS);
  // The view the page shows and its frame's number. The server sends the whole view, then only what
  // changed (spieltisch.ui.live.frames); a frame that does not follow the one shown is not applied,
  // and the page asks for its whole view again.
  const shown = { view: null, n: 0 };
  let resyncs = 0;
  let asked = false; // the page asked for its whole view and waits for it
  function receive() {
    let f;
    try { f = JSON.parse(model.get("view") || "{}"); } catch (err) { return false; }
    if (f.view) { shown.view = f.view; asked = false; }
    else if (f.patch && shown.view && !asked && f.base === shown.n) applyPatch(shown.view, f.patch);
    else {
      if (f.patch && !asked && !cut) { asked = true; model.set("resync", ++resyncs); model.save_changes(); }
      return false;
    }
    shown.n = f.n;
    return true;
  }
  let game = null; // {box, model, dispose}
  let hello = null; // the counter of a hello not yet answered
  let lastAck = 0;
  let shownNotice = 0;
  let current = null;

  function sayHello() {
    hello = 0;
    setTimeout(() => {
      const seat = readSeat();
      const v = shown.view || {};
      if (!seat || v.page !== "join" || v.notice) { hello = null; return; }
      hello = nextN();
      model.set("event", JSON.stringify({ type: "hello", token: seat.token, n: hello }));
      model.save_changes();
      const asked = hello;
      setTimeout(() => { if (hello === asked) { hello = null; sayHello(); } }, 3000);
    }, 0);
  }

  function dropGame() {
    if (game) { if (typeof game.dispose === "function") game.dispose(); game = null; }
  }

  function langButtons(v) {
    const w = v.words || {};
    return el("div", { class: "lv-langs", role: "group", "aria-label": w.language || "Sprache / Language" },
      [["de", "Deutsch"], ["en", "English"]].map(([code, name]) =>
        el("button", { class: "lv-lang" + (v.lang === code ? " lv-on" : ""), "aria-pressed": String(v.lang === code),
          "data-lang": code, onclick: () => v.lang !== code && send({ type: "lang", lang: code }) }, name)));
  }

  function showGame(v, forward) {
    const text = JSON.stringify(v.table);
    if (!game) {
      const box = el("div", { class: "lv-game" });
      const m = tableModel(forward);
      m.setView(text);
      const dispose = TableFrontEnd.render({ model: m, el: box });
      game = { box, model: m, dispose };
    } else {
      game.model.setView(text);
    }
    return game.box;
  }

  function joinPage(v) {
    const w = v.words;
    const room = el("input", { id: "lv-room", class: "lv-room-input", name: "room", autocomplete: "off",
      autocapitalize: "characters", value: v.room || new URLSearchParams(location.search).get("room") || "",
      maxlength: "12", required: true });
    const name = el("input", { id: "lv-name", class: "lv-name-input", name: "nickname", autocomplete: "nickname",
      maxlength: "24", required: true, "aria-describedby": "lv-name-help" });
    const claim = el("input", { id: "lv-claim", class: "lv-claim-input", name: "seat-code", autocomplete: "off",
      autocapitalize: "characters", maxlength: "12" });
    const form = el("form", { class: "lv-join", onsubmit: (e) => {
      e.preventDefault();
      const ev = { type: "join", room: room.value, name: name.value };
      if (claim.value.trim()) ev.claim = claim.value;
      send(ev);
    } },
    el("h1", {}, w.join_title),
    el("p", {}, el("label", { for: "lv-room" }, w.room_code), el("br"), room),
    el("p", {}, el("label", { for: "lv-name" }, w.your_name), el("br"), name),
    el("p", { id: "lv-name-help", class: "lv-help" }, w.name_help),
    el("details", { class: "lv-claim", open: v.claim_needed || null }, el("summary", {}, w.seat_code),
      el("p", {}, el("label", { for: "lv-claim" }, w.seat_code), el("br"), claim)),
    el("button", { type: "submit", class: "lv-join-button lv-primary" }, w.join));
    return [form];
  }

  function pollPage(v) {
    const w = v.words;
    const out = [el("h1", {}, w.poll), el("p", { class: "lv-question" }, v.question)];
    const open = v.status === "open";
    if (v.type === "choice") {
      const box = el("fieldset", { class: "lv-choices", disabled: !open },
        el("legend", {}, w.your_answer),
        v.options.map((o, i) => el("div", { class: "lv-choice" },
          el("button", { class: "lv-option" + (v.mine === i ? " lv-on" : ""), "aria-pressed": String(v.mine === i),
            "data-option": String(i), disabled: !open, onclick: () => send({ type: "answer", value: i }) }, o))));
      out.push(box);
    } else {
      const input = el("input", { id: "lv-number", class: "lv-number", inputmode: "decimal", autocomplete: "off",
        maxlength: "20", disabled: !open });
      out.push(el("form", { class: "lv-number-form", onsubmit: (e) => {
        e.preventDefault();
        send({ type: "answer", value: input.value });
      } }, el("label", { for: "lv-number" }, w.your_answer), " ", input, " ",
      el("button", { type: "submit", class: "lv-send lv-primary", disabled: !open }, w.send)));
    }
    if (v.saved) out.push(el("p", { class: "lv-saved" }, v.saved));
    if (v.result) out.push(...pollResult(v.result, w, v.lang, v.type));
    return out;
  }

  function pollResult(r, w, lang, type) {
    const out = [el("h2", {}, w.class_answers)];
    if (r.truth) out.push(el("p", { class: "lv-truth" }, r.truth));
    if (r.counts) {
      out.push(bars(r.counts.map((c) => ({ label: c.label, count: c.count, mark: c.truth })), null));
    } else if (r.histogram) {
      out.push(bars(histogramBars(r.histogram, r.truth_value, lang), null));
      if (r.mean !== null && r.mean !== undefined) out.push(el("p", { class: "lv-mean" }, `${w.mean}: ${r.mean}`));
    }
    out.push(el("p", {}, `${w.count}: ${r.count}`));
    if (r.lesson) {  // a lesson question's reveal: the other options' values, the simulation, the class
      for (const k of ["values_text", "readings_text", "simulation_text", "class_text"]) {
        if (r.lesson[k]) out.push(el("p", { class: `lv-${k.replace("_text", "")}` }, r.lesson[k]));
      }
    }
    return out;
  }

  function gameResult(r, w, lang) {
    if (!r) return [];
    if (r.tables) return [];
    const out = [el("h2", {}, w.class_result)];
    out.push(bars(histogramBars(r.histogram, r.best_expected ? r.best_expected.float : null, lang), null));
    out.push(el("p", { class: "lv-mean" }, `${w.mean}: ${fractionText(r.mean, lang)}`));
    if (r.best_expected) out.push(el("p", { class: "lv-best" }, `${w.best_expected}: ${fractionText(r.best_expected, lang)}`));
    return out;
  }

  // The board is built for a whole class (issue 33: with 31 names it was one row per name and the
  // round's controls three screens down): a head line with the room, the round's controls at the
  // top (sticky: always in view), then the round (its tables, whom each waits on, a bot to take a
  // seat over) beside the names as a compact grid with each one's status, and the room's
  // administration folded away at the end.
  let qrOpen = null; // the teacher opened or closed the join box (null: open while no round runs)

  function boardPage(v, key) {
    const w = v.words;
    const lang = v.lang;
    const room = v.room;
    const rooms = () => el("section", { class: "lv-rooms", "aria-label": w.rooms }, el("h2", {}, w.rooms),
      el("ul", {}, v.rooms.map((r) => el("li", {}, `${r.code} (${r.students}) · ${r.expires} `,
        r.current ? null : el("button", { class: "lv-open-room", "data-room": r.code,
          onclick: () => send({ type: "room_open", room: r.code }) }, `${w.open_room} ${r.code}`)))),
      el("button", { class: "lv-new-room", onclick: () => send({ type: "room_new" }) }, w.new_room),
      el("p", { class: "lv-help" }, w.stored));
    if (!room) return [el("h1", {}, w.board_title), rooms()];
    const open = qrOpen === null ? !room.round : qrOpen;
    const join = el("details", { class: "lv-join-box", open: open || null },
      el("summary", { onclick: () => { qrOpen = !join.open; } }, w.qr_show),
      el("p", { class: "lv-join-link" }, room.join_text),
      room.qr ? el("div", { class: "lv-qr", role: "img", "aria-label": room.qr_label, html: room.qr }) : null);
    const out = [el("div", { class: "lv-board-head" },
      el("h1", {}, w.board_title),
      el("section", { class: "lv-room", "aria-label": room.code }, el("h2", {}, room.code),
        el("p", { class: "lv-online-count" }, room.online_text)),
      join)];
    out.push(el("section", { class: "lv-controls", "aria-label": w.round_now },
      roundControls(room.round, w), newRound(v, w)));
    out.push(el("div", { class: "lv-board-main" },
      room.round ? currentRound(room.round, w, lang, key, room.code) : null,
      studentGrid(room, w)));
    out.push(el("details", { class: "lv-admin" }, el("summary", {}, w.room_admin),
      el("button", { class: "lv-delete-room", onclick: () => { if (confirm(room.delete)) send({ type: "room_delete", room: room.code }); } },
        room.delete),
      rooms()));
    return out;
  }

  // the names as a grid: each cell the name, connected or not, and where they are in the round
  function studentGrid(room, w) {
    return el("section", { class: "lv-students", "aria-label": room.students_title },
      el("h2", {}, room.students_title),
      el("table", { class: "lv-table lv-students-grid" }, el("tbody", {},
        room.students.map((s) => el("tr", { "data-student": String(s.id),
          class: `lv-cell${s.online ? "" : " lv-cell-offline"}${s.mark ? " lv-mark-" + s.mark : ""}` },
          el("td", { class: "lv-name" }, s.name),
          s.answer !== undefined ? el("td", { class: "lv-answer" }, s.answer === null ? "–" : s.answer) : null,
          s.status ? el("td", { class: "lv-status" }, s.status) : null,
          el("td", { class: s.online ? "lv-online" : "lv-offline" }, s.online ? w.online : w.offline),
          el("td", { class: "lv-cell-act" }, s.freed ? el("span", { class: "lv-claim-code" }, s.claim || "") : el("button", {
            class: "lv-free", "data-student": String(s.id), "aria-label": s.free,
            onclick: () => { if (confirm(s.free_ask)) send({ type: "free", student: s.id }); } }, s.free_short)))))));
  }

  // the running round's title and its buttons: what the teacher presses every round
  function roundControls(r, w) {
    const box = el("div", { class: "lv-now" });
    if (!r) {
      box.append(el("p", { class: "lv-now-title" }, w.no_round_now));
      return box;
    }
    box.append(el("h2", { class: "lv-now-title" }, `${r.kind === "poll" ? r.question : r.game} – ${r.status_text}`));
    const actions = el("div", { class: "lv-actions" });
    if (r.kind === "poll") actions.append(el("span", { class: "lv-count" }, r.answers));
    else if (r.kind === "game") actions.append(el("span", { class: "lv-count" }, `${w.finished}: ${r.finished} / ${r.progress.length}`));
    else if (r.tables_text) actions.append(el("span", { class: "lv-count" }, r.tables_text));
    if (r.status === "open") {
      if (r.kind === "poll" && !r.question_id) {
        const truth = el("input", { id: "lv-truth", class: "lv-truth-input", maxlength: "20" });
        actions.append(el("label", { for: "lv-truth" }, w.truth_input), truth,
          el("button", { class: "lv-reveal lv-primary", onclick: () => send({ type: "reveal", truth: truth.value }) }, w.reveal));
      } else {  // a lesson question's exact value comes from its game; a game's result from its codes
        actions.append(el("button", { class: "lv-reveal lv-primary", onclick: () => send({ type: "reveal" }) }, w.reveal));
      }
    }
    actions.append(el("button", { class: "lv-next", onclick: () => send({ type: "next" }) }, w.next_round));
    box.append(actions);
    return box;
  }

  function newRound(v, w) {
    const kind = el("select", { id: "lv-kind", class: "lv-kind" },
      [["choice", w.kind_choice], ["number", w.kind_number], ["lesson", w.lesson_question], ["game", w.kind_game],
        ["table", w.kind_table]].map(([k, label]) =>
        el("option", { value: k }, label)));
    const question = el("input", { id: "lv-question", class: "lv-question-input", maxlength: "200" });
    const options = el("textarea", { id: "lv-options", class: "lv-options-input", rows: "3" });
    const gameSel = el("select", { id: "lv-game", class: "lv-game-select" },
      v.games.map((g) => el("option", { value: g.id }, g.name)));
    const lessonSel = el("select", { id: "lv-lesson", class: "lv-lesson-select" },
      (v.lesson_questions || []).map((q) => el("option", { value: q.id }, q.title)));
    const players = el("input", { id: "lv-players", class: "lv-players", type: "number", min: "2", max: "6", value: "3" });
    const humans = el("input", { id: "lv-humans", class: "lv-humans", type: "number", min: "1", max: "6", value: "3" });
    // off unless the teacher allows it: each student then turns it on at their own table
    const advisor = el("input", { id: "lv-advisor", class: "lv-advisor-allowed", type: "checkbox" });
    const field = (id, label, input) => el("p", { class: "lv-field" }, el("label", { for: id }, label), input);
    const rows = {
      question: field("lv-question", w.question, question),
      options: field("lv-options", w.options, options),
      lesson: field("lv-lesson", w.lesson_poll, lessonSel),
      game: field("lv-game", w.game, gameSel),
      players: field("lv-players", w.players, players),
      humans: field("lv-humans", w.humans, humans),
      advisor: el("p", { class: "lv-field lv-check" }, advisor, el("label", { for: "lv-advisor" }, w.advisor_allowed)),
    };
    const show = () => {
      const k = kind.value;
      rows.question.hidden = !(k === "choice" || k === "number");
      rows.options.hidden = k !== "choice";
      rows.lesson.hidden = k !== "lesson";
      rows.game.hidden = !(k === "game" || k === "table");
      rows.players.hidden = rows.humans.hidden = rows.advisor.hidden = k !== "table";
    };
    kind.addEventListener("change", show);
    show();
    const form = el("form", { class: "lv-new-round", "aria-labelledby": "lv-new-round-title", onsubmit: (e) => {
      e.preventDefault();
      const k = kind.value;
      let spec;
      if (k === "choice") spec = { kind: "poll", type: "choice", question: question.value, options: options.value.split("\n") };
      else if (k === "number") spec = { kind: "poll", type: "number", question: question.value };
      else if (k === "lesson") spec = { kind: "poll", question_id: lessonSel.value };
      else if (k === "game") spec = { kind: "game", game: gameSel.value };
      else spec = { kind: "table", game: gameSel.value, players: Number(players.value), humans: Number(humans.value),
        advisor: advisor.checked };
      send({ type: "round_new", spec });
    } },
    el("h2", { id: "lv-new-round-title" }, w.new_round),
    field("lv-kind", w.round_kind, kind),
    rows.question, rows.options, rows.lesson, rows.game, rows.players, rows.humans, rows.advisor,
    el("button", { type: "submit", class: "lv-start lv-primary" }, w.start));
    return form;
  }

  function currentRound(r, w, lang, key, roomCode) {
    const box = el("section", { class: "lv-round", "data-kind": r.kind, "data-status": r.status, "aria-label": r.status_text });
    if (r.kind === "poll") {
      box.append(...pollResult(r.result, w, lang, r.type));
    } else if (r.kind === "game") {
      box.append(el("p", { class: "lv-class-code" }, r.class_code));
      const s = r.summary;
      if (!s && r.finished) box.append(el("p", {}, w.computing));
      if (s) {
        box.append(el("h3", {}, w.histogram));
        box.append(bars(histogramBars(s.histogram, s.best_expected ? s.best_expected.float : null, lang), null));
        box.append(el("p", { class: "lv-mean" }, `${w.mean}: ${fractionText(s.mean, lang)}`));
        if (s.best_expected) box.append(el("p", { class: "lv-best" }, `${w.best_expected}: ${fractionText(s.best_expected, lang)}`));
        if (s.bots && s.bots.length) {
          box.append(el("p", { class: "lv-bots" }, `${w.bots_in_game}: ` + s.bots.map((b) => `${b.name} ${String(b.points).replace("-", "−")}`).join(" · ")));
        }
        box.append(el("h3", {}, w.ranking), el("ol", { class: "lv-ranking" },
          s.ranking.map((x) => el("li", {}, `${x.name}: ${String(x.points).replace("-", "−")}`))));
        if (s.decisions && s.decisions.length) {
          box.append(el("h3", {}, w.decisions), el("ul", { class: "lv-decisions" }, s.decisions.map((d) =>
            el("li", {}, el("b", {}, `${d.situation} (${d.reached})`), el("ul", {}, d.options.map((o) =>
              el("li", { class: o.best ? "lv-best-option" : null },
                `${o.best ? "★ " : ""}${o.label}: ${o.count}× ${o.best ? "" : "(−" + Math.round(o.loss.float * 1000) / 1000 + ")"}`)))))));
        }
      }
    } else {
      // each table in one row: its seats, whom it waits on, a bot to take a seat over, its projector
      box.append(el("table", { class: "lv-table lv-tables" },
        el("caption", {}, w.tables),
        r.tables.map((t) => el("tr", { "data-table": String(t.no), class: t.waiting_offline ? "lv-stuck" : null },
          el("th", { scope: "row" }, t.title),
          el("td", { class: "lv-seats" }, t.seats.map((name, i) => t.scores ? `${name} ${String(t.scores[i]).replace("-", "−")}` : name).join(" · ")),
          el("td", { class: "lv-turn" }, t.over ? w.over : t.waiting ? t.waiting : t.turn ? `→ ${t.turn}` : ""),
          el("td", { class: "lv-take" }, (t.takeover || []).map((b) => el("button", {
            class: "lv-takeover", id: `lv-takeover-${b.student}`, "data-takeover": String(b.student),
            onclick: () => send({ type: "takeover", student: b.student }) }, b.label))),
          el("td", {}, el("a", { href: `beamer?t=${encodeURIComponent(t.beamer)}&room=${roomCode}&table=${t.no}&lang=${lang}`,
            target: "_blank", rel: "noopener" }, t.projector))))));
    }
    return box;
  }

  function focusKey() {
    const a = host.getRootNode().activeElement;
    if (!a || !root.contains(a)) return null;
    for (const attr of ["id", "data-option", "data-student", "data-room", "data-lang"]) {
      if (a.hasAttribute(attr)) return `${a.tagName.toLowerCase()}[${attr}="${a.getAttribute(attr)}"]`;
    }
    const c = [...a.classList].find((x) => x.startsWith("lv-"));
    return c ? `.${c}` : null;
  }

  function draw() {
    const v = shown.view;
    if (!v || !v.page) return;
    if (v.token) {
      try { localStorage.setItem(TOKEN_KEY, JSON.stringify({ token: v.token, room: v.room })); } catch (err) { /* private mode */ }
    }
    if (v.page === "join" && v.notice && readSeat()) {
      // the seat was freed or the room is gone: this device forgets it
      try { localStorage.removeItem(TOKEN_KEY); } catch (err) { /* private mode */ }
    }
    // A page that has a seat in this browser says hello with it whenever the server shows it the
    // join page: after a reload, and after a reconnect to a restarted server (a new session, whose
    // receipts start again at 0). It is sent from a timer, not while the document is being
    // (re)built, and again every few seconds until it is answered.
    if ((v.ack || 0) < lastAck || (hello !== null && (v.ack || 0) >= hello)) hello = null;
    lastAck = v.ack || 0;
    if (v.page === "join" && !v.notice && readSeat() && hello === null) sayHello();
    document.documentElement.lang = v.lang;
    const key = new URLSearchParams(location.search).get("key") || "";
    if (v.page === "game") {
      // the table keeps its own focus and live region: only its model is fed
      const forward = (ev) => send({ type: "table", event: ev });
      if (current !== "game") { root.replaceChildren(); dropGame(); }
      const box = showGame(v, forward);
      if (!root.contains(box)) {
        root.replaceChildren(el("div", { class: "lv-bar-top" }, v.title ? el("p", { class: "lv-title" }, v.title) : null,
          v.name ? el("p", { class: "lv-who" }, `${v.room} · ${v.name}`) : null), box, el("div", { class: "lv-result" }));
      }
      const result = root.querySelector(".lv-result");
      result.replaceChildren(...gameResult(v.result, v.words || {}, v.lang));
    } else {
      dropGame();
      const focused = focusKey();
      const typed = {};
      for (const input of root.querySelectorAll("input[id], textarea[id], select[id]")) typed[input.id] = input.value;
      let parts;
      if (v.page === "join") parts = joinPage(v);
      else if (v.page === "lobby") parts = [el("h1", {}, v.room), el("p", { class: "lv-lobby" }, v.text)];
      else if (v.page === "poll") parts = pollPage(v);
      else if (v.page === "board") parts = boardPage(v, key);
      else if (v.page === "projector") parts = [el("h1", { class: "lv-projector-text" }, v.text),
        ...(v.result ? pollResult(v.result, v.words, v.lang, null) : [])];
      else parts = [el("h1", {}, v.text || "")];
      root.replaceChildren(langButtons(v), ...parts);
      // what was being typed survives a redraw (another student's answer redraws the board)
      for (const [id, value] of Object.entries(typed)) {
        const input = root.querySelector(`#${id}`);
        if (input && value && input.tagName !== "SELECT") input.value = value;
        else if (input && input.tagName === "SELECT" && value) { input.value = value; input.dispatchEvent(new Event("change")); }
      }
      if (focused) { const f = root.querySelector(focused); if (f) f.focus({ preventScroll: true }); }
    }
    current = v.page;
    if (v.notice && v.notice.n !== shownNotice) {
      shownNotice = v.notice.n;
      notice.textContent = v.notice.text;
      notice.className = "lv-notice lv-" + v.notice.kind;
    } else if (!v.notice) {
      notice.textContent = "";
      notice.className = "lv-notice";
    }
  }

  model.on("change:view", () => { if (receive()) draw(); });
  receive();
  draw();
  return () => dropGame();
}

export default { render };
