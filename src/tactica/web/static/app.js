// tactica serve: the page of one fight. Plain JavaScript, no build step.
// The server owns the fight; this page shows its state, sends the game master's answers and
// follows every change through Server-Sent Events (several tabs stay in step).
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;
let picked = [];
let mapKey = "";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function send(path, body) {
  try {
    showError("");
    render(await api(path, body));
  } catch (e) {
    showError(e.message);
    load();
  }
}

function colourOf(unitId) {
  const u = state.units.find((x) => x.id === unitId);
  return u ? u.colour : "#5b6f8a";
}

// -- the question -------------------------------------------------------------------------

function renderQuestion(req) {
  const box = $("question");
  box.replaceChildren();
  box.dataset.kind = req.kind;
  box.dataset.key = String(req.key);
  if (req.kind === "action") {
    const who = state.computer[req.side] ? " (computer)" : "";
    box.append(el("h2", {text: `${req.side}${who} to choose${req.prompt ? ": " + req.prompt : ""}`}));
    for (const g of req.groups) {
      const line = el("div", {class: "group"});
      if (g.numbers.length > 1) {
        line.append(el("span", {class: "head", text: g.head}));
        g.numbers.forEach((n, i) => line.append(el("button", {
          type: "button", title: g.texts[i], "data-action": String(n - 1),
          onclick: () => send("/api/action", {key: req.key, index: n - 1})}, g.tails[i])));
      } else {
        line.append(el("button", {type: "button", "data-action": String(g.numbers[0] - 1),
          onclick: () => send("/api/action", {key: req.key, index: g.numbers[0] - 1})},
          g.texts[0]));
      }
      box.append(line);
    }
    if (req.aimable.length) box.append(aimForm(req));
  } else if (req.kind === "roll") {
    box.append(el("h2", {text: `Roll for ${req.label}`}));
    box.append(el("div", {class: "hint", text: req.dice}));
    if (req.hint) box.append(el("div", {class: "hint", text: req.hint}));
    box.append(el("div", {class: "hint", text: "chances: " + req.chances}));
    const input = el("input", {type: "text", id: "dice-input", autocomplete: "off",
      placeholder: req.physical ? `e.g. ${req.example}` : "the result",
      "aria-label": "dice rolled"});
    const form = el("form", {id: "dice-form"}, input, " ",
      el("button", {type: "submit", class: "primary", id: "dice-enter"}, "Enter"), " ",
      el("button", {type: "button", id: "dice-roll",
        onclick: () => send("/api/roll", {key: req.key, text: ""})}, "Roll for me"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (input.value.trim()) send("/api/roll", {key: req.key, text: input.value});
    });
    box.append(form);
    setTimeout(() => input.focus(), 0);
  } else if (req.kind === "decision") {
    box.append(el("h2", {text: `${req.side} decides: ${req.label}`}));
    req.options.forEach((o, i) => box.append(el("button", {type: "button",
      "data-option": String(i), onclick: () => send("/api/decide", {key: req.key, index: i})}, o)));
  } else {
    box.append(el("div", {class: "over", id: "over", text: req.text}));
  }
}

// An action the question lists as aimable (a firing arc) at any bearing typed in degrees.
function aimForm(req) {
  const choice = el("select", {id: "aim-action", "aria-label": "action to aim"},
    ...req.aimable.map((i) => el("option", {value: String(i)}, req.texts[i])));
  const input = el("input", {type: "number", id: "aim-bearing", step: "any", min: "0",
    max: "359.999", placeholder: "degrees", "aria-label": "bearing in degrees"});
  const form = el("form", {id: "aim-form", class: "group"},
    el("span", {class: "head", text: "or aim at a bearing (degrees clockwise from east)"}),
    choice, " ", input, " ", el("button", {type: "submit", id: "aim-enter"}, "Aim"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const bearing = Number(input.value);
    if (input.value.trim() === "" || !Number.isFinite(bearing)) {
      showError("type a bearing in degrees, such as 37.5");
      return;
    }
    send("/api/action", {key: req.key, index: Number(choice.value), bearing: bearing});
  });
  return form;
}

// -- units, turn, feed -------------------------------------------------------------------

function renderUnits() {
  const box = $("units");
  box.replaceChildren();
  for (const side of state.sides) {
    const h = el("h3", {text: side.name + (side.computer ? ` (computer: ${side.computer})` : "")});
    h.style.color = side.colour;
    const div = el("div", {class: "sidebox"}, h);
    for (const u of state.units.filter((x) => x.side === side.name)) {
      const details = Object.entries(u.details).map(([k, v]) => `${k} ${v}`).join(", ");
      const chip = el("span", {class: "unit" + (u.in_action ? "" : " out"), "data-chip": u.id,
        title: `${u.id}${u.place ? " at " + u.place : ""}${details ? "; " + details : ""}`,
        onclick: () => pick(u.id)}, u.id + (u.place ? ` · ${u.place}` : ""));
      chip.style.background = u.colour;
      if (picked.includes(u.id)) chip.classList.add("picked");
      div.append(chip);
    }
    box.append(div);
  }
}

function renderFeed() {
  const list = $("feed");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...state.feed.map((n) => el("li", {class: n.kind, text: n.text})));
  if (atBottom || list.dataset.first !== "no") list.scrollTop = list.scrollHeight;
  list.dataset.first = "no";
}

function render(s) {
  state = s;
  applyColours();
  $("title").textContent = s.title;
  $("subtitle").textContent = `${s.game} · log ${s.log} · seed ${s.seed}`;
  const r = s.request;
  $("turn").textContent = r.kind === "over" ? "over" :
    r.kind === "roll" ? `dice: ${r.label}` : `${r.side} to ${r.kind === "action" ? "act" : "decide"}`;
  $("autodice").checked = !s.ask_dice;
  renderQuestion(r);
  renderUnits();
  renderFeed();
  $("footer").textContent = `${s.steps} steps · saved after every event in ${s.log}`;
  $("notice").textContent = s.notice || "";  // why the fight was reloaded from its log
  $("notice").hidden = !s.notice;
  if (s.notice && $("error").textContent === s.notice) showError("");  // said once is enough
  if (picked.length === 2 && sightVersion !== s.version) showSight();  // the fight moved on
  else refreshMap();
}

// -- the map and sight ---------------------------------------------------------------------

async function refreshMap() {
  if (!state.has_map) {
    $("map").hidden = true;
    $("nomap").hidden = false;
    $("nomap").textContent = state.no_map;
    return;
  }
  const pair = picked.length === 2 ? `?a=${encodeURIComponent(picked[0])}&b=${encodeURIComponent(picked[1])}` : "";
  const key = `${state.version}|${pair}`;
  if (key === mapKey) { markPicked(); return; }
  mapKey = key;
  const response = await fetch("/api/map.svg" + pair);
  if (!response.ok) return;
  const svg = parseSvg(await response.text());
  const box = $("map");
  box.replaceChildren(...(svg ? [svg] : []));
  decorateMap(svg);
}

// The map is parsed as an SVG document, never as HTML: the server escapes every name it
// draws, and what could still run (scripts, event handlers, links, foreign HTML) is removed.
function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.localName !== "svg" || root.namespaceURI !== "http://www.w3.org/2000/svg") {
    return null;
  }
  for (const node of root.querySelectorAll("script, foreignObject, iframe, a, use, image")) {
    node.remove();
  }
  for (const node of [root, ...root.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || name.endsWith("href")) node.removeAttribute(attr.name);
    }
  }
  return document.importNode(root, true);
}

function decorateMap(svg) {
  if (!svg) return;
  const drawn = new Set([...svg.querySelectorAll("[data-unit]")].map((n) => n.dataset.unit));
  // Units the map kind does not draw (a zone map's areas hold no tokens): on their place.
  const byPlace = {};
  for (const u of state.units) {
    if (drawn.has(u.id) || !u.place || !u.in_action) continue;
    (byPlace[u.place] = byPlace[u.place] || []).push(u);
  }
  const NS = "http://www.w3.org/2000/svg";
  for (const [place, units] of Object.entries(byPlace)) {
    const box = [...svg.querySelectorAll("[data-place]")].find((n) => n.dataset.place === place);
    if (!box) continue;
    const x = parseFloat(box.getAttribute("x")), y = parseFloat(box.getAttribute("y"));
    const h = parseFloat(box.getAttribute("height"));
    units.forEach((u, i) => {
      const g = document.createElementNS(NS, "g");
      g.setAttribute("class", "token");
      g.dataset.unit = u.id;
      const c = document.createElementNS(NS, "circle");
      c.setAttribute("cx", x + 12 + i * 24); c.setAttribute("cy", y + h + 12);
      c.setAttribute("r", 11); c.setAttribute("fill", u.colour);
      c.setAttribute("stroke", "#fff"); c.setAttribute("stroke-width", 1.5);
      c.dataset.unit = u.id;
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", x + 12 + i * 24); t.setAttribute("y", y + h + 16);
      t.setAttribute("font-size", 11); t.setAttribute("fill", "#fff");
      t.setAttribute("text-anchor", "middle"); t.setAttribute("font-weight", "bold");
      t.textContent = u.id.slice(0, 2);
      t.dataset.unit = u.id;
      const title = document.createElementNS(NS, "title");
      title.textContent = `${u.id} (${u.side}) at ${place}`;
      g.append(c, t, title);
      svg.append(g);
    });
  }
  if (Object.keys(byPlace).length) svg.setAttribute("overflow", "visible");
  adoptMapColours(svg);
  for (const node of svg.querySelectorAll("[data-unit]")) {
    node.addEventListener("click", (ev) => { ev.stopPropagation(); pick(node.dataset.unit); });
  }
  markPicked();
}

// The map colours sides in its own order: the chips take the map's colours, so that a unit
// looks the same in both places.
let mapColours = {};

function adoptMapColours(svg) {
  const bySide = {};
  for (const node of svg.querySelectorAll("circle[data-unit], ellipse[data-unit]")) {
    const u = state.units.find((x) => x.id === node.dataset.unit);
    const fill = node.getAttribute("fill");
    if (u && fill && !(u.side in bySide) && !node.closest(".token")) bySide[u.side] = fill;
  }
  mapColours = bySide;
  if (applyColours()) renderUnits();
}

function applyColours() {
  let changed = false;
  for (const u of state.units) {
    const c = mapColours[u.side];
    if (c && u.colour !== c) { u.colour = c; changed = true; }
  }
  for (const s of state.sides) if (mapColours[s.name]) s.colour = mapColours[s.name];
  return changed;
}

function markPicked() {
  for (const node of document.querySelectorAll("#map circle[data-unit], #map ellipse[data-unit], #map rect[data-unit]")) {
    node.classList.toggle("picked", picked.includes(node.dataset.unit));
  }
}

function pick(unitId) {
  if (picked.length >= 2) picked = [];
  if (!picked.includes(unitId)) picked.push(unitId);
  $("clear").hidden = picked.length === 0;
  $("selected").textContent = picked.length === 1 ? `${unitId}: now click a second unit` :
    `${picked[0]} → ${picked[1]}`;
  renderUnits();
  if (picked.length === 2) showSight(); else { $("sight").hidden = true; refreshMap(); }
}

let sightVersion = -1;

async function showSight() {
  const [a, b] = picked;
  sightVersion = state.version;
  try {
    const data = await api(`/api/sight?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    const box = $("sight");
    box.replaceChildren(el("h3", {text: `Sight: ${a} → ${b}`}),
      el("div", {id: "sight-lines", text: data.lines.join("\n")}));
    if (data.odds.length) {
      for (const o of data.odds) {
        box.append(el("h3", {text: `Odds: ${o.action}`}), el("div", {class: "odds", text: o.lines.slice(1).join("\n")}));
      }
    } else {
      box.append(el("h3", {text: "Odds"}), el("div", {text: `${a} has no action on ${b} now.`}));
    }
    box.hidden = false;
    showError("");
  } catch (e) {
    showError(e.message);
  }
  refreshMap();
}

$("clear").addEventListener("click", () => {
  picked = []; $("clear").hidden = true; $("sight").hidden = true;
  $("selected").textContent = "Click two units to see sight and odds.";
  renderUnits(); refreshMap();
});

$("autodice").addEventListener("change", (ev) =>
  send("/api/dice", {mode: ev.target.checked ? "auto" : "ask"}));

async function load() {
  try { render(await api("/api/state")); } catch (e) { showError(e.message); }
}

function follow() {
  const source = new EventSource("/api/events");
  source.onmessage = (ev) => {
    const v = JSON.parse(ev.data).version;
    if (!state || v !== state.version) load();
  };
  source.onerror = () => { $("turn").textContent = "reconnecting..."; };
  source.onopen = () => load();
}

load();
follow();
