// The one front-end of every spieltisch game (anywidget-style ESM: render({model, el})).
//
// It draws the JSON the Python view-model sends in the "view" trait (spieltisch.ui.table.Table.state)
// and sends every click back as a JSON event in the "event" trait. It knows no game and no rule, and
// no word of its own: every text arrives in the table's language. Hosts: anywidget (notebooks,
// JupyterLite), Panel's AnyWidgetComponent (`spieltisch serve`), a Play page's own small model.
// CSS (a string) is prepended by spieltisch.ui.table.front_end_source().

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "html") e.innerHTML = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

function reviewChart(review) {
  const bars = review.bars;
  const W = 640, H = 180, left = 36, bottom = 28, top = 10;
  const max = Math.max(1, ...bars.map((b) => b.loss));
  const bw = Math.max(3, Math.min(28, (W - left - 8) / Math.max(1, bars.length) - 2));
  let svg = `<svg class="sp-review-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${review.axis}">`;
  svg += `<line x1="${left}" y1="${H - bottom}" x2="${W - 4}" y2="${H - bottom}" stroke="#555"/>`;
  for (const t of [0, max / 2, max]) {
    const y = H - bottom - (t / max) * (H - bottom - top);
    svg += `<text x="${left - 4}" y="${y + 4}" text-anchor="end" font-size="11">${(Math.round(t * 10) / 10)}</text>`;
  }
  bars.forEach((b, i) => {
    const x = left + 4 + i * (bw + 2);
    const hgt = (b.loss / max) * (H - bottom - top);
    const fill = b.best ? "#2e7d32" : "#c62828";
    const shown = Math.max(hgt, 2);
    svg += `<rect class="sp-review-bar" data-loss="${b.loss}" x="${x}" y="${H - bottom - shown}" width="${bw}" height="${shown}" fill="${fill}"><title>${b.who} · ${b.label}: ${b.move} (−${Math.round(b.loss * 100) / 100})</title></rect>`;
    if (bars.length <= 40 || i % 5 === 0) {
      svg += `<text x="${x + bw / 2}" y="${H - bottom + 14}" text-anchor="middle" font-size="10">${b.label}</text>`;
    }
  });
  svg += `<text x="${left}" y="${H - 2}" font-size="11">${review.axis}</text></svg>`;
  return svg;
}

// an exact fraction: short ones as they are; a long one (20+ digits) as its first digits, the
// whole fraction on request
function fraction(c) {
  if (!c.exact_short) return h("span", { class: "sp-frac" }, " = " + c.exact);
  return h("details", { class: "sp-frac sp-frac-long" }, h("summary", {}, " = " + c.exact_short), h("span", {}, c.exact));
}

// projector: the board as large as the window allows with its move buttons still on the first screen
// (the views draw at their own sizes; one zoom keeps their proportions). The views draw so that this
// zoom makes their smallest text 24 CSS px or more at 1920×1080; on a smaller screen the buttons win
// (a teacher must be able to play), down to 14 px text, and the width wins over both (nothing sticks
// out). Text size is read as drawn: an SVG's text scaled by its viewBox counts at its size on screen.
const PROJECTOR_MIN_TEXT_PX = 14;
function smallestText(box) {
  let min = Infinity;
  for (const e of box.querySelectorAll("*")) {
    if (![...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
    if (e.closest("title, desc, style, script")) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement && e.getScreenCTM) {
      const m = e.getScreenCTM(); // the viewBox's scale (measured before any zoom)
      if (m) size *= Math.hypot(m.a, m.b);
    }
    min = Math.min(min, size);
  }
  return min;
}
// The right edge the drawing needs (from the board's left): its pictures (outer <svg>s, images),
// boxes that keep their own width (inline blocks, flex items, cards) and single lines of text. Block
// wrappers stretch to the column and say nothing; text that wraps already adapts to any width.
function naturalRight(board) {
  const left = board.getBoundingClientRect().left;
  let right = 1;
  for (const e of board.querySelectorAll("*")) {
    if (e.ownerSVGElement || e.closest("title, desc, style, script")) continue;
    const tag = e.tagName.toLowerCase();
    const display = tag === "svg" || tag === "img" ? "picture" : getComputedStyle(e).display;
    const parent = e.parentElement ? getComputedStyle(e.parentElement).display : "block";
    if (display === "picture" || display.startsWith("inline-") || /flex|grid/.test(parent)) {
      right = Math.max(right, e.getBoundingClientRect().right - left);
    }
  }
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim() || t.parentElement.closest("svg, style, script")) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    if (new Set(rects.map((r) => Math.round(r.top))).size === 1) right = Math.max(right, rects[0].right - left);
  }
  return right;
}
function fitProjector(board) {
  board.style.zoom = "";
  if (!board.closest(".sp-projector") || !board.isConnected) return;
  const min = smallestText(board);
  if (!isFinite(min)) return;
  const table = board.closest(".sp-table");
  const buttons = board.parentElement.querySelector(":scope > .sp-buttons");
  // the height from the board's top to the bottom of the move buttons under it, and the room for it:
  // the window below the board's top. A table at the top of its page (a Play page) counts what is
  // above it; one further down (a notebook cell) is scrolled to, so only its own top part counts.
  const above = (t) => t.getBoundingClientRect().top + window.scrollY;
  const lead = above(table) < window.innerHeight / 4 ? above(table) : 0;
  const room = () => window.innerHeight - lead - (above(board) - above(table)) - 6;
  const under = () => (buttons ? buttons.getBoundingClientRect().bottom + parseFloat(getComputedStyle(buttons).marginBottom) : 0)
    - board.getBoundingClientRect().bottom;
  const height = board.getBoundingClientRect().height;
  const byText = PROJECTOR_MIN_TEXT_PX / min;
  const byWidth = board.clientWidth / (naturalRight(board) + 8); // + the paddings right of the last box
  const byHeight = (room() - under()) / Math.max(1, height);
  let zoom = Math.floor(100 * Math.min(byWidth, Math.max(byHeight, byText))) / 100;
  // text that wraps differently once zoomed can make the board taller or wider than planned: shrink
  // again (not below the smallest text size) until it fits
  for (let i = 0; i < 4 && zoom > 0; i++) {
    board.style.zoom = String(zoom);
    const r = board.getBoundingClientRect();
    const tall = (r.height + under()) / room(), wide = board.scrollWidth > board.clientWidth + 1 ? board.scrollWidth / board.clientWidth : 1;
    if (wide <= 1.005 && (tall <= 1.005 || zoom <= byText)) break;
    zoom = Math.floor(100 * Math.min(zoom / wide, Math.max(zoom / Math.max(tall, 1), Math.min(byText, zoom)))) / 100;
  }
  if (zoom === 1) board.style.zoom = "";
}

// --- keyboard: while the viewer has a decision, every clickable part of a board is a button for the
// keyboard and screen readers, named by the view (an aria-label, or a <title> as its first child: the
// front-end invents no name). The board is one Tab stop (a roving tabindex): the arrow keys move to the
// nearest part in that direction (a grid of cells, a row of cards or dice), Home and End to the first
// and last, Enter or Space acts, Escape cancels a selection. Without a decision (the spectator, a
// bot's turn) the parts are pictures, not buttons.
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

// the nearest part from `t` in direction `dir`: straight on first, then the nearest to the line
function nextPart(parts, t, dir) {
  const from = t.getBoundingClientRect();
  const cx = from.left + from.width / 2, cy = from.top + from.height / 2;
  let best = null, bestScore = Infinity;
  for (const e of parts) {
    if (e === t) continue;
    const r = e.getBoundingClientRect();
    const dx = r.left + r.width / 2 - cx, dy = r.top + r.height / 2 - cy;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 1) continue;
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = e; }
  }
  return best;
}

function keyboardBoard(board, { decide, stop, act, cancel, moved }) {
  const parts = [...board.querySelectorAll("[data-act]")];
  board.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { ev.preventDefault(); cancel(); }
  });
  if (!decide) {
    for (const e of parts) {
      e.removeAttribute("tabindex");
      if (e.getAttribute("role") === "button") e.removeAttribute("role");
      // a part that is no button has no pressed state (ARIA allows aria-pressed on buttons only)
      e.removeAttribute("aria-pressed");
    }
    return;
  }
  // a picture with clickable parts is a group of buttons, not one image
  for (const svg of board.querySelectorAll("svg[role=img]")) {
    if (svg.querySelector("[data-act]")) svg.setAttribute("role", "group");
  }
  for (const e of parts) {
    e.setAttribute("tabindex", "-1");
    const role = e.getAttribute("role");
    if (!role || role === "img" || role === "presentation") e.setAttribute("role", "button"); // a picture one clicks is a button
  }
  let current = (stop && parts.find((e) => e.getAttribute("data-act") === stop)) || parts[0];
  if (current) current.setAttribute("tabindex", "0");
  const rove = (e) => {
    if (e === current) return;
    if (current) current.setAttribute("tabindex", "-1");
    e.setAttribute("tabindex", "0");
    current = e;
    moved(e.getAttribute("data-act"));
  };
  board.addEventListener("focusin", (ev) => {
    const t = ev.target.closest ? ev.target.closest("[data-act]") : null;
    if (t && board.contains(t)) rove(t);
  });
  board.addEventListener("keydown", (ev) => {
    const t = ev.target.closest ? ev.target.closest("[data-act]") : null;
    if (!t || !board.contains(t)) return;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      act(t.getAttribute("data-act"));
      return;
    }
    let next = null;
    if (ev.key === "Home") next = parts[0];
    else if (ev.key === "End") next = parts[parts.length - 1];
    else if (ARROWS[ev.key]) next = nextPart(parts, t, ARROWS[ev.key]);
    else return;
    ev.preventDefault();
    if (next) next.focus();
  });
}

// Which element has the focus, as a selector that finds it again after a redraw.
function focusKey(root) {
  const doc = root.getRootNode();
  const a = doc && doc.activeElement;
  if (!a || !root.contains(a)) return null;
  const area = a.closest(".sp-top, .sp-settings") ? "top" : "main";
  for (const attr of ["data-act", "data-token", "data-lang", "data-seat", "data-variant"]) {
    if (a.hasAttribute(attr)) {
      const value = a.getAttribute(attr).replace(/["\\]/g, "\\$&"); // (CSS is the style sheet's name here)
      return { sel: `${a.tagName.toLowerCase()}[${attr}="${value}"]`, area };
    }
  }
  const cls = [...a.classList].find((c) => c.startsWith("sp-") && c !== "sp-on" && c !== "sp-best");
  return { sel: cls ? `.${cls}` : null, area };
}

function render({ model, el }) {
  let advOpen = false;
  let n = 0;
  let timer = null;
  let busy = false;
  const root = h("div", { class: "sp-table" });
  // the polite live region stays outside the redrawn table, so screen readers hear each change once
  const live = h("div", { class: "sp-live", "aria-live": "polite", role: "status" });
  el.append(h("style", {}, CSS), root, live);
  // what the live region has said: the running number of the newest line or message (null before the
  // first screen, whose lines are no news), the last status and banner; lines held during bots' turns
  let heard = null;
  let said = { status: null, banner: null };
  let held = [];
  let rove = null; // the board's Tab stop (its data-act), kept over redraws
  let acted = false; // the last event was a move from the board or a button: the next screen moves the focus
  let bannerShown = false;
  const reduceMotion = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

  // progress: when an answer takes more than a second (the advisor ranking, a review), the busy
  // note counts the seconds, and shows the share done where the host reports it (showProgress)
  let ticker = null;
  let scrollWatch = null;
  let started = 0;
  let pct = null;
  function thinking() {
    const adv = root.querySelector(".sp-advisor");
    const secs = Math.floor((Date.now() - started) / 1000);
    if (!adv || secs < 1) return;
    const share = pct === null ? "" : ` ${pct}${root.getAttribute("lang") === "de" ? " %" : "%"} ·`;
    adv.setAttribute("data-thinking", `${adv.getAttribute("data-word")}${share} ${secs} s`);
  }
  // `auto`: the bots' pacing sent it, not the player (the focus stays where the player has it)
  function send(ev, auto = false) {
    const doc = root.getRootNode();
    const a = doc && doc.activeElement;
    if (!auto) {
      acted = ["act", "undo", "cancel", "reveal", "step", "finish"].includes(ev.type)
        && !(a && root.contains(a) && a.closest(".sp-top, .sp-settings"));
    }
    busy = true;
    root.classList.add("sp-busy");
    clearInterval(ticker);
    started = Date.now();
    pct = null;
    ticker = setInterval(thinking, 250);
    model.set("event", JSON.stringify({ ...ev, n: ++n }));
    model.save_changes();
  }

  function draw() {
    let s;
    try {
      s = JSON.parse(model.get("view") || "{}");
    } catch (err) {
      return;
    }
    if (!s.words) return;
    busy = false;
    clearInterval(ticker);
    const w = s.words;
    root.classList.toggle("sp-busy", false);
    root.classList.toggle("sp-projector", !!s.projector);
    root.setAttribute("lang", s.lang);
    root.setAttribute("data-step", String(s.step));
    // keep the seed the user is typing, the open/closed state of the how-to box, and the focus
    const howOpen = root.querySelector(".sp-howto")?.open;
    const focused = focusKey(root);
    root.replaceChildren();

    // --- top bar: title, game variants, language, projector, new game ---
    const variants = s.variants.length > 1
      ? h("span", { class: "sp-variants" }, s.variants.map((v) =>
        h("button", { class: "sp-variant" + (v.active ? " sp-on" : ""), "data-variant": v.id, "aria-pressed": String(!!v.active),
          onclick: () => !v.active && send({ type: "variant", id: v.id }) }, v.label)))
      : null;
    const langs = h("span", { class: "sp-langs", "aria-label": w.language },
      [["de", "Deutsch"], ["en", "English"]].map(([code, name]) =>
        h("button", { class: "sp-lang" + (s.lang === code ? " sp-on" : ""), "data-lang": code, "aria-pressed": String(s.lang === code),
          onclick: () => s.lang !== code && send({ type: "lang", lang: code }) }, name)));
    // a class round fixes the game: no variant, seat, seed, player count or new game to choose
    const locked = !!s.class_round;
    root.append(h("div", { class: "sp-top" },
      h("h2", { class: "sp-title" }, s.title),
      s.reconstruction ? h("span", { class: "sp-badge", title: w.reconstruction_help }, w.reconstruction) : null,
      locked ? null : variants,
      h("span", { class: "sp-grow" }),
      langs,
      h("button", { class: "sp-projector-toggle" + (s.projector ? " sp-on" : ""), "aria-pressed": String(!!s.projector),
        onclick: () => send({ type: "projector", on: !s.projector }) }, w.projector),
      s.can_spectate ? h("button", { class: "sp-spectator-toggle" + (s.spectator ? " sp-on" : ""),
        "aria-pressed": String(!!s.spectator), title: w.spectator_help,
        onclick: () => send({ type: "spectator", on: !s.spectator }) }, w.spectator) : null,
      locked ? null : h("button", { class: "sp-new", onclick: () => send({ type: "new" }) }, w.new)));

    // --- settings line: seats and seed ---
    const seats = s.seats.map((seat) => {
      const sel = h("select", { class: "sp-seat", "data-seat": seat.seat, "aria-label": `${w.seat} ${seat.seat + 1}`,
        onchange: (e) => send({ type: "seat", seat: seat.seat, who: e.target.value }) },
        seat.choices.map(([v, label]) => h("option", { value: v, selected: v === seat.who }, label)));
      return h("label", { class: "sp-seat-label" }, `${seat.seat + 1}: `, sel);
    });
    const seed = h("input", { class: "sp-seed", type: "text", inputmode: "numeric", value: String(s.seed),
      size: 10, title: w.seed_help, "aria-label": w.seed });
    seed.addEventListener("change", () => send({ type: "seed", seed: seed.value }));
    const players = h("select", { class: "sp-players", "aria-label": w.players,
      onchange: (e) => send({ type: "players", players: Number(e.target.value) }) },
      Array.from({ length: s.players.max - s.players.min + 1 }, (_, i) => s.players.min + i).map((k) =>
        h("option", { value: k, selected: k === s.players.value }, k)));
    if (locked) {
      root.append(h("div", { class: "sp-settings sp-class-note" }, s.class_round.text));
    } else {
      root.append(h("div", { class: "sp-settings" },
        h("label", {}, `${w.players}: `, players), ...seats,
        h("label", { title: w.seed_help }, `${w.seed}: `, seed),
        h("span", { class: "sp-hint" }, w.seed_help)));
    }
    if (s.open_game) root.append(h("div", { class: "sp-open-game" }, s.open_game));
    if (s.spectator) root.append(h("div", { class: "sp-spectator-note" }, w.spectator_help));

    // --- how to play ---
    if (s.howto) {
      root.append(h("details", { class: "sp-howto", open: howOpen === undefined ? false : howOpen },
        h("summary", {}, `${w.howto}: ${s.howto.title || s.title}`),
        h("p", {}, h("b", {}, `${w.goal}: `), s.howto.goal),
        h("p", {}, h("b", {}, `${w.turn}:`)),
        h("ol", {}, (s.howto.turn || []).map((t) => h("li", {}, t))),
        s.howto.undo ? h("p", { class: "sp-howto-undo" }, s.howto.undo) : null));
    }

    // --- banner at the end ---
    if (s.banner) {
      root.append(h("div", { class: "sp-banner" + (s.banner.you_won ? " sp-won" : ""), tabindex: "-1" },
        h("b", {}, s.banner.title + " – "), s.banner.text));
    }

    // --- hot seat: the screen stays covered until the next player has the device ---
    if (s.cover) {
      root.append(h("div", { class: "sp-cover", role: "dialog", "aria-label": s.cover.text },
        h("p", { class: "sp-cover-text" }, s.cover.text), h("p", {}, s.cover.help),
        h("button", { class: "sp-cover-ready sp-move", onclick: () => send({ type: "reveal" }) }, s.cover.button)));
      restoreFocus(focused, s);
      announce(s);
      return;
    }

    // --- main: board and moves left, scores, advisor and log right ---
    const left = h("section", { class: "sp-left", "aria-label": w.board });
    left.append(h("div", { class: "sp-status", tabindex: "-1" }, s.status));
    const decide = !!s.decide && !s.spectator;
    const board = h("div", { class: "sp-board" + (decide ? " sp-decide" : ""), html: s.board });
    board.addEventListener("click", (e) => {
      const t = e.target.closest("[data-act]");
      if (decide && t && board.contains(t)) send({ type: "act", token: t.getAttribute("data-act") });
    });
    keyboardBoard(board, { decide, stop: rove, act: (token) => send({ type: "act", token }),
      cancel: () => send({ type: "cancel" }), moved: (token) => { rove = token; } });
    // a board wider than the screen scrolls inside its box, and says so (a hint above it, a shadow
    // at its edge); without a button inside, the box itself takes the focus, so arrows scroll it
    const hint = h("div", { class: "sp-scroll-hint", "aria-hidden": "true", hidden: true }, w.board_scrolls);
    left.append(hint, board);
    // many words on the move buttons (Schraube Locker's swaps name both cards): on the projector they
    // are set smaller so they stay on one line and leave the board its size (its words are for the
    // back row; the buttons are for the teacher at the computer)
    const wordy = s.buttons.reduce((n, b) => n + b.label.length, 0) > 90;
    const moves = h("div", { class: "sp-buttons" + (wordy ? " sp-wordy" : "") }, s.buttons.map((b) =>
      h("button", { class: "sp-move" + (b.best ? " sp-best" : ""), "data-token": b.token, title: b.hint || null,
        "data-focus": b.focus ? "1" : null,
        onclick: () => send({ type: "act", token: b.token }) }, (b.best ? "★ " : "") + b.label)));
    if (s.pending) {
      moves.append(h("button", { class: "sp-step", onclick: () => send({ type: "step", at: s.step }) }, w.step),
        h("button", { class: "sp-finish", onclick: () => send({ type: "finish" }) }, w.finish));
    }
    if (s.can_undo && !s.banner) moves.append(h("button", { class: "sp-undo", onclick: () => send({ type: "undo" }) }, w.undo));
    left.append(moves);
    if (s.message) left.append(h("div", { class: "sp-message sp-msg-" + s.message.kind }, s.message.text));

    const right = h("aside", { class: "sp-right", "aria-label": w.table_info });
    // advisor
    const adv = h("div", { class: "sp-box sp-advisor", "data-thinking": w.thinking, "data-word": w.thinking },
      h("label", { class: "sp-box-title" },
        h("input", { type: "checkbox", class: "sp-advisor-toggle", checked: s.advisor_on,
          onchange: (e) => send({ type: "advisor", on: e.target.checked }) }), " ", w.advisor),
      s.advisor_on ? h("label", { class: "sp-exact-label" },
        h("input", { type: "checkbox", class: "sp-exact-toggle", checked: s.exact,
          onchange: (e) => send({ type: "exact", on: e.target.checked }) }), " ", w.exact) : null);
    if (s.advice) {
      const a = s.advice;
      if (a.rows.length) {
        // the row is clickable; its first cell holds a real button, for the keyboard and screen readers
        const row = (r) => h("tr", { class: "sp-advice-row" + (r.best ? " sp-best" : ""), "data-best": r.best ? "1" : "0",
          onclick: () => send({ type: "act", token: r.token }) },
          h("td", {}, h("button", { class: "sp-advice-play", "data-token": r.token,
            onclick: (e) => { e.stopPropagation(); send({ type: "act", token: r.token }); } }, (r.best ? "★ " : "") + r.label),
          r.note ? h("div", { class: "sp-advice-note" }, r.note) : null),
          r.cells.map((c) => h("td", { class: "sp-value" },
            c.pct !== null ? h("span", { class: "sp-bar" }, h("span", { style: `width:${Math.round(c.pct * 100)}%` })) : null,
            c.text, s.exact && c.exact ? fraction(c) : null)));
        const head = () => h("tr", {}, h("th", {}, w.option), a.columns.map((c) => h("th", {}, c)));
        // the best rows and a few more first; a long list (a re-roll card: ~50 options) folds the rest
        const shown = a.fold;
        adv.append(h("div", { class: "sp-advice-wrap" }, h("table", { class: "sp-advice" }, head(), a.rows.slice(0, shown).map(row))));
        if (a.rows.length > shown) {
          const more = h("details", { class: "sp-advice-more", open: advOpen || null },
            h("summary", {}, a.more), h("table", { class: "sp-advice" }, head(), a.rows.slice(shown).map(row)));
          more.addEventListener("toggle", () => { advOpen = more.open; });
          adv.append(more);
        }
        adv.append(h("div", { class: "sp-note" }, `${a.legend}. ${a.play_this} ${a.note}`));
      } else {
        adv.append(h("div", { class: "sp-note" }, a.note));
      }
    }
    if (!locked || s.class_round.advisor) right.append(adv);
    const sc = s.scores;
    right.append(h("div", { class: "sp-box" }, h("h3", { class: "sp-box-title" }, sc.title || w.scores),
      h("table", { class: "sp-scores" },
        h("tr", {}, sc.headers.map((x) => h("th", {}, x))),
        sc.rows.map((r, i) => h("tr", { class: i === sc.highlight ? "sp-hl" : "" }, r.map((c) => h("td", {}, c)))))));
    if (s.extra) right.append(h("div", { class: "sp-box sp-extra", html: s.extra }));

    if (s.log.length) {
      right.append(h("details", { class: "sp-box sp-log", open: true }, h("summary", {}, w.log),
        s.log.map((line) => h("div", {}, line))));
    }
    root.append(h("div", { class: "sp-main" }, left, right));

    // --- review after the game ---
    if (s.review) {
      const r = s.review;
      const box = h("section", { class: "sp-box sp-review", "aria-label": r.title }, h("h3", { class: "sp-box-title" }, r.title));
      if (r.ready) {
        box.append(h("div", { html: reviewChart(r) }), ...r.lines.map((l) => h("div", { class: "sp-review-line" }, l)));
      } else {
        box.append(h("button", { class: "sp-review-button", onclick: () => send({ type: "review" }) }, r.button));
      }
      root.append(box);
    }

    fitProjector(board);
    scrollHint(board, hint, !decide, w.board);
    restoreFocus(focused, s);
    announce(s);

    // --- bot pacing: one visible step after the other (at once where the reader asks for less motion) ---
    clearTimeout(timer);
    if (s.pending && !s.banner) {
      timer = setTimeout(() => send({ type: "step", at: s.step }, true), reduceMotion ? 0 : s.delay_ms);
    }
  }

  // The focus survives a redraw: the same button, board element or control, found again by what it
  // is. After a move (the focus was on the board or a button) it goes to the control the player needs
  // next: the button the view flags ("focus": true), else the same element, else the board's Tab stop.
  // At the end of a game it goes to the banner, once.
  function restoreFocus(key, s) {
    const banner = root.querySelector(".sp-banner");
    if (banner && !bannerShown) {
      bannerShown = true;
      acted = false;
      banner.focus({ preventScroll: false });
      return;
    }
    if (!banner) bannerShown = false;
    const moved = acted;
    acted = false;
    if (!key && !moved) return;
    if (key && key.area === "top") {
      const again = key.sel ? root.querySelector(key.sel) : null;
      if (again) again.focus({ preventScroll: true });
      return;
    }
    // the first of these that takes the focus (a board part is no button while the viewer has no
    // decision: it would not take it, and the focus would be lost)
    const doc = root.getRootNode();
    const candidates = [
      ...(moved ? [".sp-cover-ready", ".sp-buttons [data-focus]"] : []),
      ...(key && key.sel ? [key.sel] : []),
      ".sp-cover-ready", ".sp-buttons [data-focus]", ".sp-board [data-act][tabindex='0']",
      ".sp-buttons button", ".sp-advice-play", ".sp-status"];
    for (const sel of candidates) {
      const e = root.querySelector(sel);
      if (!e) continue;
      e.focus({ preventScroll: true });
      if (doc.activeElement === e) return;
    }
  }

  function scrollHint(board, hint, plain, name) {
    const check = () => {
      const wide = board.scrollWidth > board.clientWidth + 1;
      board.classList.toggle("sp-scrolls", wide);
      hint.hidden = !wide;
      if (wide && plain) {
        board.setAttribute("tabindex", "0");
        board.setAttribute("role", "region");
        board.setAttribute("aria-label", name);
      } else {
        board.removeAttribute("tabindex");
        board.removeAttribute("role");
        board.removeAttribute("aria-label");
      }
    };
    check();
    if (typeof ResizeObserver === "function") {
      if (scrollWatch) scrollWatch.disconnect();
      scrollWatch = new ResizeObserver(check);
      scrollWatch.observe(board);
    }
  }

  // What the screen reader hears (politely), each thing once: what was chosen, a refusal, what the
  // others did, whose turn it is, the end of the game. Lines are told by their running number (the
  // table's), so none is said twice, whatever the log keeps. The bots' and the dice's steps are held
  // until the viewer's turn comes back (or the game ends) and said then, as one announcement. Only
  // what the screen shows: the texts are the viewer's own.
  function announce(s) {
    const news = s.news || [];
    const msg = s.message && s.message.kind !== "move" ? s.message : null;
    const newest = Math.max(news.length ? news[0][0] : 0, msg && msg.n ? msg.n : 0);
    if (heard === null) { // the first screen: its lines are no news, its status is
      heard = newest;
      said = { status: s.status, banner: s.banner ? s.banner.text : null };
      if (s.status) say([s.status], []);
      return;
    }
    const fresh = news.filter(([n]) => n > heard).reverse();
    const told = msg && msg.n > heard ? msg.text : null;
    heard = Math.max(heard, newest);
    const parts = [];
    if (s.pending && !s.banner && !s.cover) {
      held.push(...fresh);
      if (told) say([told], []);
      return;
    }
    const lines = [...held, ...fresh];
    held = [];
    if (s.banner) {
      if (said.banner !== s.banner.text) parts.push(`${s.banner.title}: ${s.banner.text}`);
    } else {
      if (s.cover) parts.push(s.cover.text);
      if (told) parts.push(told);
      if (s.status && (s.status !== said.status || lines.length)) parts.push(s.status);
    }
    said = { status: s.status, banner: s.banner ? s.banner.text : null };
    say([...lines.map(([, t]) => t), ...parts], lines.map(([n]) => n));
  }
  function say(parts, ids) {
    if (!parts.length) return;
    live.setAttribute("data-lines", ids.join(" ")); // the running numbers said (the tests read them)
    live.textContent = parts.join(" · ");
  }

  // long work (the advisor): a host that can report progress sets "progress" to {done, total}
  function showProgress() {
    const p = model.get("progress");
    const box = root.querySelector(".sp-advisor");
    if (!box || !p || !p.total || !busy) return;
    pct = Math.round((100 * p.done) / p.total);
    box.setAttribute("data-progress", String(pct));
    thinking();
  }

  // a projector's window changes size (another resolution, a window moved to the projector): fit again
  const refit = () => { const b = root.querySelector(".sp-board"); if (b) fitProjector(b); };
  if (typeof window !== "undefined") window.addEventListener("resize", refit);
  model.on("change:view", draw);
  model.on("change:progress", showProgress);
  draw();
  return () => {
    clearTimeout(timer); clearInterval(ticker);
    if (scrollWatch) scrollWatch.disconnect();
    if (typeof window !== "undefined") window.removeEventListener("resize", refit);
  };
}

export default { render };
