// The lesson kit's widgets in the page (anywidget ESM: render({model, el})).
//
// Python (spieltisch.lesson.widgets) holds every answer. The page draws what Python sends in the
// "view" trait (JSON) and sends each input back as a JSON "event". A gated widget gets its content
// only when Python opens it (the question's prediction was locked in, or "Show" was pressed), so an
// answer is not in the page before the prediction; the by-hand widgets (grid, tree, check) get no
// answer at all, Python checks what the student sends. Every control is a native HTML control with a
// label in the page's language (keyboard, screen reader). The words arrive from Python in "spec".
// CSS (a string) is prepended by spieltisch.lesson.widgets.

const CONTROLS = new Set(["input", "button", "select"]);

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  // Keys pressed in a control (arrows in a radio group or the grid, Enter on a button, digits in a
  // field) are the control's, not JupyterLab's notebook shortcuts. Lumino stops looking for a
  // shortcut at the first element with this attribute, starting at the focused one: so it goes on
  // the control itself, not on a container.
  if (CONTROLS.has(tag)) e.setAttribute("data-lm-suppress-shortcuts", "true");
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

let uid = 0;
const fresh = (p) => `${p}${++uid}-${Math.random().toString(36).slice(2, 7)}`;

function styleOnce() {
  if (document.getElementById("stl-style")) return;
  const s = document.createElement("style");
  s.id = "stl-style";
  s.textContent = CSS;
  document.head.append(s);
}

// A number as the page's language writes it (the slider's readout; Python formats everything else).
function shown(v, spec) {
  let t = String(v);
  if (spec.lang === "de") t = t.replace(".", ",");
  if (spec.percent) t += spec.lang === "de" ? "\u00a0%" : "%";
  return t;
}

function rangeField(label, p, onchange) {
  const out = h("output", {});
  const input = h("input", { type: "range", min: p.min, max: p.max, step: p.step, value: p.value });
  const show = () => {
    out.textContent = shown(input.value, p);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  input.addEventListener("input", show);
  if (onchange) input.addEventListener("change", onchange);
  show();
  return { field: h("label", { class: "stl-field" }, label, input, out), input, set: (v) => { input.value = v; show(); } };
}

const KINDS = {
  predict(root, spec, send) {
    const w = spec.words;
    const status = h("span", { class: "stl-status", role: "status" });
    const fs = h("fieldset", {}, h("legend", {}, spec.question));
    let get, set;
    if (spec.control === "choice") {
      const name = fresh("stl-choice");
      const opts = spec.options.map((label, i) => {
        const input = h("input", { type: "radio", name, value: String(i) });
        return [input, h("label", { class: "stl-opt" }, input, label)];
      });
      fs.append(h("div", { class: "stl-options" }, opts.map((o) => o[1])));
      get = () => { const c = opts.find((o) => o[0].checked); return c ? Number(c[0].value) : null; };
      set = (v) => opts.forEach((o, i) => { o[0].checked = i === v; });
    } else if (spec.control === "range") {
      const r = rangeField(w.value, spec);
      fs.append(r.field);
      get = () => Number(r.input.value);
      set = r.set;
    } else {
      const input = h("input", { type: "text", inputmode: "decimal", size: 10, value: spec.value ?? "" });
      fs.append(h("label", { class: "stl-field" }, w.value, input));
      get = () => input.value;
      set = (v) => { input.value = v; };
    }
    fs.append(h("div", { class: "stl-row" },
      h("button", { type: "button", class: "stl-primary stl-lock", onclick: () => send({ do: "lock", value: get() }) }, w.lock),
      status));
    root.append(fs);
    return (view) => {
      status.innerHTML = view.status || "";
      if (view.value !== undefined && view.value !== null) set(view.value);
    };
  },

  answer(root) {
    const body = h("div", { class: "stl-body" });
    root.append(body);
    return (view) => { body.innerHTML = view.html || ""; };
  },

  reveal(root, spec, send) {
    const body = h("div", { class: "stl-body stl-feedback", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "stl-press", "aria-expanded": "false",
      onclick: () => send({ do: "press" }) }, spec.label);
    root.append(button, body);
    return (view) => {
      body.innerHTML = view.html || "";
      button.setAttribute("aria-expanded", view.html ? "true" : "false");
    };
  },

  explore(root, spec, send) {
    const body = h("div", { class: "stl-body" });
    const r = rangeField(spec.label, spec, () => send({ do: "set", value: Number(r.input.value) }));
    root.append(r.field, body);
    return (view) => {
      body.innerHTML = view.html || "";
      if (view.value !== undefined && Number(r.input.value) !== view.value) r.set(view.value);
    };
  },

  simulate(root, spec, send) {
    const w = spec.words;
    const getters = {}, setters = {};
    const row = h("div", { class: "stl-row" });
    const body = h("div", { class: "stl-body" });
    const values = () => Object.fromEntries(Object.entries(getters).map(([k, g]) => [k, g()]));
    const seed = h("input", { type: "number", class: "stl-seed", min: 0, step: 1 });
    const again = h("button", { type: "button", class: "stl-primary stl-again" }, w.again);
    const busy = () => { again.disabled = true; root.setAttribute("aria-busy", "true"); };
    const run = () => { busy(); send({ do: "run", seed: Number(seed.value), params: values() }); };
    for (const p of spec.params) {
      if (p.options) {
        const sel = h("select", {}, p.options.map((lab, i) => h("option", { value: String(i) }, lab)));
        sel.value = String(p.value);
        sel.addEventListener("change", run);
        getters[p.name] = () => Number(sel.value);
        setters[p.name] = (v) => { sel.value = String(v); };
        row.append(h("label", { class: "stl-field" }, p.label, sel));
      } else {
        const r = rangeField(p.label, { ...p, lang: spec.lang }, run);
        getters[p.name] = () => Number(r.input.value);
        setters[p.name] = r.set;
        row.append(r.field);
      }
    }
    again.addEventListener("click", () => { busy(); send({ do: "again", params: values() }); });
    seed.addEventListener("change", run);
    row.append(again, h("label", { class: "stl-field" }, w.seed, seed));
    root.append(row, body);
    return (view) => {
      body.innerHTML = view.html || "";
      seed.value = view.seed;
      root.dataset.seed = String(view.seed);
      for (const [k, v] of Object.entries(view.params || {})) if (setters[k]) setters[k](v);
      again.disabled = false;
      root.removeAttribute("aria-busy");
    };
  },

  check(root, spec, send) {
    const w = spec.words;
    const input = h("input", { type: "text", inputmode: "decimal", size: 12 });
    const feedback = h("div", { class: "stl-feedback", role: "status" });
    root.append(h("div", { class: "stl-row" }, h("label", { class: "stl-field" }, spec.label, input),
      h("button", { type: "button", class: "stl-check", onclick: () => send({ do: "check", value: input.value }) }, w.check)),
    feedback);
    return (view) => {
      feedback.innerHTML = view.feedback || "";
      input.classList.toggle("stl-right", view.ok === true);
      input.classList.toggle("stl-wrong", view.ok === false);
      if (view.ok === false) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    };
  },

  grid(root, spec, send) {
    const w = spec.words;
    const state = {};
    const buttons = [];
    const classes = spec.classes;
    const labelOf = (k) => (state[k] ? classes[state[k] - 1].label : spec.unmarked);
    function paint(b) {
      const k = b.dataset.cell, c = state[k] ? classes[state[k] - 1] : null;
      b.style.background = c ? c.colour : "";
      b.style.color = c ? "#fff" : "";
      b.querySelector(".stl-mark").textContent = c ? c.symbol : "\u00a0";
      const [a, bb] = k.split(",");
      // the small label seen in the cell (the sum) starts its name: a name holds the text it shows
      const seen = b.lastChild.textContent;
      b.setAttribute("aria-label", `${seen ? seen + " – " : ""}${w.first} ${a}, ${w.second} ${bb}: ${labelOf(k)}`);
    }
    const table = h("table", { class: "stl-dice" });
    if (spec.title) table.append(h("caption", {}, spec.title));
    table.append(h("thead", {},
      h("tr", {}, h("td", { colspan: 2 }), h("th", { colspan: 6, class: "stl-axis" }, w.second)),
      h("tr", {}, h("td", { colspan: 2 }), [1, 2, 3, 4, 5, 6].map((b) => h("th", { scope: "col" }, String(b))))));
    const tbody = h("tbody", {});
    for (let a = 1; a <= 6; a++) {
      const tr = h("tr", {}, a === 1 ? h("th", { rowspan: 6, class: "stl-axis stl-axis-first" }, h("span", {}, w.first)) : null,
        h("th", { scope: "row" }, String(a)));
      for (let b = 1; b <= 6; b++) {
        const k = `${a},${b}`;
        state[k] = 0;
        const small = spec.labels && spec.labels[k] !== undefined ? spec.labels[k] : "";
        const btn = h("button", { type: "button", "data-cell": k, tabindex: a === 1 && b === 1 ? "0" : "-1" },
          h("span", { class: "stl-mark", "aria-hidden": "true" }, "\u00a0"), h("span", { "aria-hidden": "true" }, small));
        btn.addEventListener("click", () => { state[k] = (state[k] + 1) % (classes.length + 1); btn.classList.remove("stl-wrong"); paint(btn); });
        btn.addEventListener("keydown", (ev) => {
          const i = buttons.indexOf(btn);
          const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 6, ArrowUp: -6 }[ev.key];
          if (step === undefined) return;
          const j = i + step;
          if (j < 0 || j >= 36) return;
          ev.preventDefault();
          btn.tabIndex = -1;
          buttons[j].tabIndex = 0;
          buttons[j].focus();
        });
        buttons.push(btn);
        paint(btn);
        tr.append(h("td", {}, btn));
      }
      tbody.append(tr);
    }
    table.append(tbody);
    const legend = h("div", { class: "stl-legend" },
      h("span", {}, h("span", { class: "stl-swatch", style: "background:#fff;border:1px solid #888" }), spec.unmarked),
      classes.map((c, i) => h("span", {}, h("span", { class: "stl-swatch", style: `background:${c.colour}` }),
        `${c.symbol} ${c.label} (${w.clicks[i]})`)));
    const feedback = h("div", { class: "stl-feedback", role: "status" });
    root.append(h("p", { class: "stl-hint" }, spec.question), legend, table,
      h("button", { type: "button", class: "stl-check", onclick: () => send({ do: "check", cells: state }) }, w.check), feedback);
    return (view) => {
      feedback.innerHTML = view.feedback || "";
      const wrong = new Set(view.wrong || []);
      for (const b of buttons) {
        b.classList.toggle("stl-wrong", wrong.has(b.dataset.cell));
        paint(b);
        if (wrong.has(b.dataset.cell)) b.setAttribute("aria-label", `${b.getAttribute("aria-label")} (${w.wrong})`);
      }
    };
  },

  tree(root, spec, send) {
    const w = spec.words;
    const box = h("div", { class: "stl-tree", style: `width:${spec.width}px;height:${spec.height}px` });
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "stl-lines");
    svg.setAttribute("width", spec.width);
    svg.setAttribute("height", spec.height);
    svg.setAttribute("aria-hidden", "true");
    for (const e of spec.edges) {
      const l = document.createElementNS(ns, "line");
      for (const [k, v] of Object.entries({ x1: e[0], y1: e[1], x2: e[2], y2: e[3] })) l.setAttribute(k, v);
      l.setAttribute("stroke", "#555");
      svg.append(l);
    }
    box.append(svg);
    const inputs = {};
    // document order = depth first: a screen reader reads node, branch input, child, …
    for (const it of spec.items) {
      const pos = `left:${it.x}px;top:${it.y}px`;
      if (it.type === "node") box.append(h("span", { class: "stl-node", style: pos }, it.label));
      else if (it.type === "note") box.append(h("span", { class: "stl-note", style: pos }, it.text));
      else {
        const input = h("input", { type: "text", inputmode: "decimal", style: pos, "aria-label": it.label,
          placeholder: "?", "data-input": it.id });
        inputs[it.id] = input;
        box.append(input);
      }
    }
    root.append(h("p", { class: "stl-hint" }, spec.question), box);
    if (spec.result) {
      const input = h("input", { type: "text", inputmode: "decimal", size: 12, "data-input": "result" });
      inputs.result = input;
      root.append(h("div", { class: "stl-row" }, h("label", { class: "stl-field" }, spec.result, input)));
    }
    const feedback = h("div", { class: "stl-feedback", role: "status" });
    const values = () => Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, i.value]));
    root.append(h("button", { type: "button", class: "stl-check", onclick: () => send({ do: "check", values: values() }) }, w.check),
      feedback);
    return (view) => {
      feedback.innerHTML = view.feedback || "";
      for (const [k, input] of Object.entries(inputs)) {
        const ok = (view.marks || {})[k];
        input.classList.toggle("stl-right", ok === true);
        input.classList.toggle("stl-wrong", ok === false);
        if (ok === false) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
      }
    };
  },
};

function render({ model, el }) {
  styleOnce();
  const spec = JSON.parse(model.get("spec"));
  const w = spec.words;
  let n = 0;
  const send = (ev) => {
    model.set("event", JSON.stringify({ ...ev, n: ++n }));
    model.save_changes();
  };
  const root = h("div", { class: `stl spieltisch-${spec.kind}`, lang: spec.lang, "data-key": spec.key || null });
  el.append(root);
  let update = null;
  function draw() {
    let view;
    try {
      view = JSON.parse(model.get("view") || "{}");
    } catch (err) {
      return;
    }
    if (spec.gate && !view.open) {
      update = null;
      root.dataset.open = "false";
      root.replaceChildren(h("div", { class: "stl-gate" }, h("p", {}, view.note || w.wait),
        h("button", { type: "button", class: "stl-show", onclick: () => send({ do: "show" }) }, w.show_now)));
      return;
    }
    root.dataset.open = "true";
    if (!update) {
      root.replaceChildren();
      update = KINDS[spec.kind](root, spec, send);
    }
    update(view);
  }
  model.on("change:view", draw);
  draw();
}

export default { render };
