// tactica serve: the page of one fight, a small virtual tabletop. Plain JavaScript, no build
// step. The server owns the fight; this page shows its state, sends the game master's answers
// and follows every change through Server-Sent Events (several tabs stay in step).
//
// On the map: click a unit to pick it (its destinations turn green, its targets are ringed
// red); click a green place, or drag the unit onto it, to move; click a ringed target to see
// the attack's odds and outcomes before committing it. The wheel zooms, dragging the
// background pans; a map with levels shows one level at a time, chosen by its tab.
"use strict";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
let state = null;
let picked = [];          // [unit] or [unit, other unit]: sight between the two
let mapKey = "";
let level = null;         // the level shown, on a map with levels
let view = null;          // the map's viewBox {x, y, w, h}
let base = null;          // the viewBox that shows the whole map (or level)

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
    hidePreview();
    render(await api(path, body));
  } catch (e) {
    showError(e.message);
    load();
  }
}

function unitOf(id) { return state.units.find((x) => x.id === id); }
function colourOf(id) { const u = unitOf(id); return u ? u.colour : "#5b6f8a"; }

// The open question's actions by what they point at (see tactica.web.links).
function links() {
  const r = state.request;
  return r.kind === "action" ? r.links.map((l, i) => ({...l, index: i})) : [];
}
function movesOf(unit) { return links().filter((l) => l.unit === unit && l.kind === "move"); }
function attacksOf(unit, target) {
  return links().filter((l) => l.unit === unit && l.target && (!target || l.target === target));
}
function take(index) { send("/api/action", {key: state.request.key, index: index}); }

// -- the question -------------------------------------------------------------------------

function actionButton(req, index, text) {
  const link = req.links[index];
  if (link && link.kind === "target") {  // an attack: its preview first
    return el("button", {type: "button", class: "attack", title: req.texts[index],
      "data-action": String(index),
      onclick: () => { pickOnly(link.unit); preview(link.unit, link.target, index); }}, text);
  }
  return el("button", {type: "button", title: req.texts[index], "data-action": String(index),
    onclick: () => take(index)}, text);
}

function renderActions(box, req) {
  const moveLine = (indices) => indices.length > 4 &&
    indices.every((i) => req.links[i] && req.links[i].kind === "move");
  if (req.menu) {
    if (req.menu.hint) box.append(el("div", {class: "menuhint", text: req.menu.hint}));
    for (const line of req.menu.lines) {
      const indices = line.items.map((it) => it.index);
      const buttons = line.items.map((it) => actionButton(req, it.index,
        it.label || req.texts[it.index]));
      if (moveLine(indices)) {
        box.append(el("details", {class: "group"}, el("summary", {text:
          `${line.group}${line.sub ? " · " + line.sub : ""}: ${indices.length} places ` +
          "(click one on the map, or open this list)"}), ...buttons));
      } else {
        const div = el("div", {class: "group"});
        if (line.items.some((it) => it.label)) div.append(el("span", {class: "head", text: line.group}));
        if (line.sub) div.append(el("span", {class: "cost", text: line.sub}));
        div.append(...buttons);
        box.append(div);
      }
    }
    return;
  }
  for (const g of req.groups) {
    const indices = g.numbers.map((n) => n - 1);
    if (g.numbers.length > 1) {
      const buttons = indices.map((i, k) => actionButton(req, i, g.tails[k]));
      if (moveLine(indices)) {
        box.append(el("details", {class: "group"}, el("summary", {text:
          `${g.head}: ${indices.length} places (click one on the map, or open this list)`}),
          ...buttons));
      } else {
        box.append(el("div", {class: "group"}, el("span", {class: "head", text: g.head}),
          ...buttons));
      }
    } else {
      box.append(el("div", {class: "group"}, actionButton(req, indices[0], g.texts[0])));
    }
  }
}

function renderQuestion(req) {
  const box = $("question");
  // The same question drawn again (another view of the fight arrived): what is being typed
  // into it stays (the new field takes the focus as before).
  const same = box.dataset.key === String(req.key) && box.dataset.kind === req.kind;
  const typing = same && $("dice-input") ? $("dice-input") : null;
  const typed = typing ? typing.value : "";
  box.replaceChildren();
  box.dataset.kind = req.kind;
  box.dataset.key = String(req.key);
  if (req.kind === "action") {
    const who = state.computer[req.side] ? " (computer)" : "";
    box.append(el("h2", {text: `${req.side}${who} to choose${req.prompt ? ": " + req.prompt : ""}`}));
    renderActions(box, req);
    if (req.aimable.length) box.append(aimForm(req));
    oddsOnButtons(box, req);
  } else if (req.kind === "roll") {
    box.append(el("h2", {text: `${req.roller_words} rolls: ${req.label}`}));
    const during = req.side ? `in ${req.side}'s action: ${req.during}` :
      req.during ? `for the table: ${req.during}` : "for the table";
    const roller = el("span", {class: "roller", id: "roll-roller", text: req.roller_words});
    const side = state.sides.find((s) => s.name === req.roller);
    if (side) roller.style.color = side.colour;
    box.append(el("div", {class: "who", id: "roll-who"}, "Who rolls: ", roller, ` (${during})`));
    if (req.hint) box.append(el("div", {class: "hint", text: `What it decides: ${req.hint}`}));
    if (req.success) {
      box.append(el("div", {class: "success", id: "roll-success",
        text: `Chance of success: ${req.success} (${req.success_exact})`}));
    }
    box.append(el("div", {class: "hint", text: `Dice: ${req.dice}`}));
    box.append(el("div", {class: "hint", text: "chances: " + req.chances}));
    const input = el("input", {type: "text", id: "dice-input", autocomplete: "off",
      placeholder: req.physical ? `e.g. ${req.example}` : "the result",
      "aria-label": "dice rolled"});
    input.value = typed;
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
    if (req.during) box.append(el("div", {class: "hint", text: `in: ${req.during}`}));
    if (req.range) box.append(rangeForm(req));
    else {
      req.options.forEach((o, i) => box.append(el("button", {type: "button",
        "data-option": String(i), onclick: () => send("/api/decide", {key: req.key, index: i})}, o)));
    }
  } else {
    box.append(el("div", {class: "over", id: "over", text: req.text}));
  }
}

// Each attack's button shows its exact chance, asked of the server one after the other (a
// dozen at most: the others show it in their preview).
async function oddsOnButtons(box, req) {
  const buttons = [...box.querySelectorAll("button.attack[data-action]")].slice(0, 12);
  for (const button of buttons) {
    let data;
    try {
      data = await api(`/api/preview?key=${req.key}&index=${button.dataset.action}`);
    } catch (e) { return; }  // the fight moved on: a new question has its own buttons
    if (!button.isConnected) return;
    const first = Object.keys(data.numbers).find((k) => k.startsWith("P("));
    if (first) {
      button.append(el("span", {class: "odds-tag",
        text: ` · ${first} ${pct(data.numbers[first])} (${data.exact[first]})`}));
    }
  }
}

// A decision among many consecutive numbers: asked as the range it is.
function rangeForm(req) {
  const [low, high] = req.range;
  const input = el("input", {type: "number", id: "range-input", min: String(low),
    max: String(high), step: "1", value: String(low), "aria-label": `a number from ${low} to ${high}`});
  const form = el("form", {id: "range-form", class: "group"},
    el("span", {class: "head", text: `a number from ${low} to ${high}:`}), input, " ",
    el("button", {type: "submit", class: "primary", id: "range-enter"}, "Set"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < low || n > high) {
      showError(`type a whole number from ${low} to ${high}`);
      return;
    }
    send("/api/decide", {key: req.key, index: n - low});
  });
  return form;
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

// -- the preview of an attack ------------------------------------------------------------

let previewing = null;

function hidePreview() { previewing = null; $("preview").hidden = true; $("preview").replaceChildren(); }

function pct(p) { return (100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1) + "%"; }

// Every attack of `unit` on `target` now, each with its exact odds and its outcomes as bars,
// and a button to commit it.
async function preview(unit, target, only) {
  const actions = attacksOf(unit, target).filter((l) => only === undefined || l.index === only);
  const box = $("preview");
  previewing = {unit, target, key: state.request.key};
  box.replaceChildren(el("h3", {text: `Before committing: ${unit} → ${target}`}));
  box.hidden = false;
  const key = state.request.key;
  for (const link of actions) {
    let data;
    try {
      data = await api(`/api/preview?key=${key}&index=${link.index}`);
    } catch (e) { showError(e.message); return; }
    if (!previewing || previewing.key !== key) return;  // the fight moved on
    box.append(previewBlock(data, target, link.index));
  }
  if (!actions.length) box.append(el("div", {text: `${unit} has no attack on ${target} now.`}));
  box.append(el("button", {type: "button", onclick: hidePreview}, "cancel"));
}

function previewBlock(data, target, index) {
  const div = el("div", {class: "attack-preview", "data-preview": String(index)});
  div.append(el("div", {class: "headline", text: data.action}));
  const numbers = Object.entries(data.numbers).map(([k, v]) =>
    `${k}: ${k.startsWith("P(") ? pct(v) + " (" + data.exact[k] + ")" : v.toFixed(2)}`);
  div.append(el("div", {class: "odds", text: numbers.join(" · ")}));
  const targetBars = data.bars.filter((b) => b.who === "target");
  const attackerBars = data.bars.filter((b) => b.who === "attacker");
  for (const dist of [...targetBars, ...attackerBars]) {
    const whose = dist.who === "target" ? (dist.unit || target) : (dist.unit || "the attacker");
    const when = dist.who === "attacker" && data.attacker_if ? ` (${data.attacker_if})` : "";
    const d = el("div", {class: "dist", "data-who": dist.who}, el("h4", {
      text: `${whose}: ${dist.name}${when}`}));
    // Each side's bars in that side's colour (the server's one side-to-colour map).
    const owner = unitOf(dist.unit || (dist.who === "target" ? target : ""));
    for (const b of dist.bars) {
      const fill = el("div", {class: "fill"});
      fill.style.width = `${Math.max(0.5, 100 * b.p)}%`;
      if (owner) fill.style.background = owner.colour;
      d.append(el("div", {class: "bar " + dist.who, title: `${b.value}: ${b.exact}`},
        el("span", {text: b.value}), el("div", {class: "track"}, fill),
        el("span", {class: "pct", text: pct(b.p)})));
    }
    div.append(d);
  }
  if (!attackerBars.length) {
    div.append(el("div", {class: "note", text:
      `${target} answers with no retaliation in this attack: nothing is risked but the action.`}));
  }
  if (data.reasons.length) div.append(el("ul", {class: "reasons"},
    ...data.reasons.map((r) => el("li", {text: r}))));
  div.append(el("button", {type: "button", class: "primary commit", "data-commit": String(index),
    onclick: () => take(index)}, `Commit: ${data.action}`));
  return div;
}

// Several ways to reach one place (walking, running): the choice, in the preview box.
function chooseMove(unit, place, moves) {
  if (moves.length === 1) { take(moves[0].index); return; }
  const box = $("preview");
  previewing = {unit, key: state.request.key};
  box.replaceChildren(el("h3", {text: `${unit} to ${place}: how?`}),
    ...moves.map((m) => el("button", {type: "button", "data-action": String(m.index),
      onclick: () => take(m.index)}, state.request.texts[m.index])),
    el("button", {type: "button", onclick: hidePreview}, "cancel"));
  box.hidden = false;
}

// -- units, turn, feed -------------------------------------------------------------------

function figures(u) {
  return Object.entries(u.details).map(([k, v]) => `${k} ${v}`).join(" · ");
}

function renderUnits() {
  const box = $("units");
  box.replaceChildren();
  for (const side of state.sides) {
    const h = el("h3", {text: side.name + (side.computer ? ` (computer: ${side.computer})` : "")});
    h.style.color = side.colour;
    const div = el("div", {class: "sidebox", "data-side": side.name}, h);
    for (const u of state.units.filter((x) => x.side === side.name)) {
      const chip = el("span", {class: "unit" + (u.in_action ? "" : " out"), "data-chip": u.id,
        title: `${u.id}${u.place ? " at " + u.place : ""}`,
        onclick: () => clickUnit(u.id)}, u.id + (u.details.name ? ` ${u.details.name}` : "") +
        (u.place ? ` · ${u.place}` : ""));
      chip.style.background = u.colour;
      if (picked.includes(u.id)) chip.classList.add("picked");
      div.append(chip, el("span", {class: "figures", text: figures(u)}));
    }
    box.append(div);
  }
  renderUnitPanel();
}

// The picked unit: every figure, and its actions now.
function renderUnitPanel() {
  const box = $("unitpanel");
  const u = picked.length ? unitOf(picked[0]) : null;
  if (!u) { box.hidden = true; return; }
  box.style.borderLeftColor = u.colour;
  const dl = el("dl", {}, el("dt", {text: "side"}), el("dd", {text: u.side}),
    el("dt", {text: "place"}), el("dd", {text: u.place || "-"}),
    el("dt", {text: "state"}), el("dd", {text: u.in_action ? "in action" : "out of action"}));
  for (const [k, v] of Object.entries(u.details)) dl.append(el("dt", {text: k}), el("dd", {text: v}));
  box.replaceChildren(el("h3", {text: u.id}), dl);
  const mine = links().filter((l) => l.unit === u.id);
  const moves = mine.filter((l) => l.kind === "move").length;
  const targets = [...new Set(mine.filter((l) => l.target).map((l) => l.target))];
  if (moves) box.append(el("div", {class: "hint",
    text: `${moves} move${moves > 1 ? "s" : ""}: click a green place on the map, or drag ${u.id} there.`}));
  if (targets.length) {
    box.append(el("div", {class: "hint", text: "targets (click to see the odds first): "},
      ...targets.map((t) => el("button", {type: "button", class: "attack", "data-target": t,
        onclick: () => preview(u.id, t)}, t))));
  }
  const other = mine.filter((l) => l.kind === "other");
  const buttons = other.map((l) => el("button", {type: "button",
    "data-action": String(l.index), onclick: () => take(l.index)}, state.request.texts[l.index]));
  if (other.length > 6) {  // the last ones (ending the turn) in view, the rest folded
    box.append(el("details", {class: "group"}, el("summary",
      {text: `${other.length - 2} more actions of ${u.id}`}), ...buttons.slice(0, -2)),
    el("div", {class: "group"}, ...buttons.slice(-2)));
  } else if (other.length) {
    box.append(el("div", {class: "group"}, ...buttons));
  }
  box.hidden = false;
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
  picked = picked.filter((id) => unitOf(id));
  $("title").textContent = s.title;
  $("subtitle").textContent = `${s.game} · log ${s.log} · seed ${s.seed}`;
  const r = s.request;
  $("turn").textContent = r.kind === "over" ? "over" :
    r.kind === "roll" ? `${r.roller || "the table"} rolls: ${r.label}` : `${r.side} to ${r.kind === "action" ? "act" : "decide"}`;
  $("autodice").checked = !s.ask_dice;
  if (previewing && previewing.key !== r.key) hidePreview();
  renderQuestion(r);
  renderUnits();
  renderFeed();
  $("footer").textContent = `${s.steps} steps · saved after every event in ${s.log}`;
  $("notice").textContent = s.notice || "";  // why the fight was reloaded from its log
  $("notice").hidden = !s.notice;
  if (s.notice && $("error").textContent === s.notice) showError("");  // said once is enough
  if (picked.length === 2 && sightVersion !== s.version) showSight();  // the fight moved on
  else refreshMap();
  loadChances(s);
}

// -- the chance to win from here: a bar beside the turn, in the manner of a chess engine's
// evaluation bar; exact when the rest of the fight fits the search, else "estimated" with
// its 95% interval. Asked once per version of the fight, after the page has been drawn.

let chancesAsked = -1;

async function loadChances(s) {
  if (s.version === chancesAsked) return;
  chancesAsked = s.version;
  let c;
  try { c = await api("/api/chances"); } catch (e) { return; }
  if (!state || c.version !== state.version) return;  // the fight moved on: asked again
  renderChances(c);
}

function renderChances(c) {
  const box = $("chances");
  const bar = el("span", {class: "bar"});
  const words = [];
  for (const name of c.sides) {
    const w = c.win[name];
    const side = state.sides.find((x) => x.name === name);
    const part = el("span", {"data-side": name, title: `${name} wins: ${pct(w.p)}`});
    part.style.width = `${100 * w.p}%`;
    if (side) part.style.background = side.colour;
    bar.append(part);
    words.push(w.ci95 ? `${name} ${pct(w.p)} (${pct(w.ci95[0])}-${pct(w.ci95[1])})`
                      : `${name} ${pct(w.p)}`);
  }
  const label = c.exact ? "exact" : `estimated, 95% interval, ${c.battles} fights`;
  box.replaceChildren(bar, el("span", {class: "what", text: `${words.join(" · ")} · ${label}`}));
  box.dataset.version = String(c.version);
  box.dataset.kind = c.label;
  box.title = "chance to win from here" + (c.exact ? " (exact)" : " (estimated)");
  box.hidden = false;
}

// -- a fight without a map: the characters and the ranges between them -----------------------

function renderNoMap() {
  const box = $("nomap");
  const sides = el("div", {class: "sides"});
  for (const side of state.sides) {
    const col = el("div", {"data-side": side.name}, el("h3", {text: side.name}));
    for (const u of state.units.filter((x) => x.side === side.name)) {
      const card = el("span", {class: "card", "data-unit": u.id, onclick: () => clickUnit(u.id)},
        `${u.id}${u.in_action ? "" : " (out)"}`);
      card.style.background = u.colour;
      if (picked.includes(u.id)) card.classList.add("picked");
      if (picked.length === 1 && attacksOf(picked[0], u.id).length) card.classList.add("target");
      col.append(card);
    }
    sides.append(col);
  }
  box.replaceChildren(el("div", {class: "hint", text: state.no_map}), sides);
  if (state.ranges.length) {
    const table = el("table", {id: "ranges"}, el("tr", {}, el("th", {text: "between"}),
      el("th", {text: "range"})));
    for (const r of state.ranges) {
      table.append(el("tr", {}, el("td", {text: `${r.a} and ${r.b}`}), el("td", {text: r.range})));
    }
    box.append(el("h3", {text: "Ranges"}), table);
  }
}

// -- the map ---------------------------------------------------------------------------------

async function refreshMap() {
  if (!state.has_map) {
    $("viewport").hidden = true;
    $("toolbar").hidden = true;
    $("nomap").hidden = false;
    renderNoMap();
    return;
  }
  const pair = picked.length === 2 ? `?a=${encodeURIComponent(picked[0])}&b=${encodeURIComponent(picked[1])}` : "";
  const key = `${state.version}|${pair}`;
  if (key === mapKey) { markMap(); return; }
  mapKey = key;
  const response = await fetch("/api/map.svg" + pair);
  if (!response.ok || mapKey !== key) return;
  const svg = parseSvg(await response.text());
  const box = $("map");
  box.replaceChildren(...(svg ? [svg] : []));
  decorateMap(svg);
  box.dataset.version = String(state.version);  // the map drawn is the fight's now
}

// The map is parsed as an SVG document, never as HTML: the server escapes every name it
// draws, and what could still run (scripts, event handlers, links, foreign HTML) is removed.
function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.localName !== "svg" || root.namespaceURI !== NS) {
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
  // Ground the map kind does not draw (rough squares): shaded, with what it costs.
  for (const node of svg.querySelectorAll("[data-place]")) {
    const what = state.terrain[node.dataset.place];
    if (!what) continue;
    node.classList.add("terrain");
    const title = document.createElementNS(NS, "title");
    title.textContent = `${node.dataset.place}: ${what}`;
    node.append(title);
  }
  const kinds = [...new Set(Object.values(state.terrain))];
  $("terrain-legend").hidden = !kinds.length;
  $("terrain-legend").replaceChildren(...kinds.map((k) => el("span", {class: "swatch-line"},
    el("span", {class: "swatch"}), ` ${k}`)));
  const vb = (svg.getAttribute("viewBox") || "0 0 100 100").split(/\s+/).map(Number);
  // The tokens drawn below their areas stay inside the map's box.
  for (const c of svg.querySelectorAll(".token circle")) {
    const bottom = parseFloat(c.getAttribute("cy")) + 14;
    if (bottom > vb[1] + vb[3]) vb[3] = bottom - vb[1];
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.dataset.full = vb.join(" ");
  setupLevels(svg, vb);
  markMap();
}

// -- levels as tabs ---------------------------------------------------------------------------

function setupLevels(svg, vb) {
  const panels = [...svg.querySelectorAll("g[data-level]")];
  const tabs = $("levels");
  if (panels.length < 2) {
    tabs.hidden = true;
    tabs.replaceChildren();
    fitTo({x: vb[0], y: vb[1], w: vb[2], h: vb[3]}, false);
    return;
  }
  if (level === null || !panels.some((p) => p.dataset.level === level)) {
    level = levelOf(picked[0]) || panels[0].dataset.level;
  }
  tabs.replaceChildren(...panels.map((p) => el("button", {type: "button", role: "tab",
    "data-level": p.dataset.level, "aria-selected": String(p.dataset.level === level),
    onclick: () => { level = p.dataset.level; showLevel(); }},
    `level ${p.dataset.level}: ${p.dataset.name}`)));
  tabs.hidden = false;
  showLevel(false);
}

function levelOf(unit) {
  const u = unit && unitOf(unit);
  const m = u && u.place && /@(\d+)$/.exec(u.place);
  return m ? m[1] : (u && u.place ? "0" : null);
}

function showLevel(reset = true) {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  const full = svg.dataset.full.split(" ").map(Number);
  let box = null;
  for (const p of svg.querySelectorAll("g[data-level]")) {
    const [left, top, w, h] = p.dataset.box.split(" ").map(Number);
    const shown = p.dataset.level === level;
    p.style.display = shown ? "" : "none";
    // The level shown stands where the first one does, above the legend.
    p.setAttribute("transform", shown ? `translate(${-left} 0)` : "");
    if (shown) box = {x: 0, y: top, w: w, h: Math.max(h, full[3])};
  }
  for (const b of $("levels").querySelectorAll("button")) {
    b.setAttribute("aria-selected", String(b.dataset.level === level));
  }
  fitTo(box, reset);
}

// -- zoom and pan ------------------------------------------------------------------------------

function fitTo(box, reset) {
  const same = base && box && base.w === box.w && base.h === box.h && base.x === box.x;
  base = box;
  if (reset || !same || !view) view = {...box};
  applyView();
}

function applyView() {
  const svg = $("map").querySelector("svg");
  if (svg && view) svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
}

function zoom(factor, cx, cy) {
  if (!view) return;
  const w = Math.min(Math.max(view.w / factor, base.w / 12), base.w * 3);
  const k = w / view.w;
  const px = cx === undefined ? view.x + view.w / 2 : cx;
  const py = cy === undefined ? view.y + view.h / 2 : cy;
  view = {x: px - (px - view.x) * k, y: py - (py - view.y) * k, w: w, h: view.h * k};
  applyView();
}

function svgPoint(svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return {x: 0, y: 0};
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return {x: p.x, y: p.y};
}

$("zoom-in").addEventListener("click", () => zoom(1.4));
$("zoom-out").addEventListener("click", () => zoom(1 / 1.4));
$("zoom-fit").addEventListener("click", () => { if (base) { view = {...base}; applyView(); } });
$("viewport").addEventListener("wheel", (ev) => {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  ev.preventDefault();
  const p = svgPoint(svg, ev.clientX, ev.clientY);
  zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2, p.x, p.y);
}, {passive: false});

// One gesture on the map: a click, a pan of the background, or a unit dragged to a place.
let gesture = null;

// The place under the pointer: the one it is on, else (small dots) the nearest place drawn
// within a short reach.
function placeAt(clientX, clientY) {
  const node = document.elementFromPoint(clientX, clientY);
  const place = node && node.closest && node.closest("#map [data-place]");
  if (place) return place.dataset.place;
  let best = null, bestD = 22;
  for (const n of $("map").querySelectorAll("circle[data-place]")) {
    const r = n.getBoundingClientRect();
    if (!r.width) continue;
    const d = Math.hypot(r.x + r.width / 2 - clientX, r.y + r.height / 2 - clientY);
    if (d < bestD) { best = n.dataset.place; bestD = d; }
  }
  return best;
}

$("viewport").addEventListener("pointerdown", (ev) => {
  const svg = $("map").querySelector("svg");
  if (!svg || ev.button !== 0) return;
  const unitNode = ev.target.closest("[data-unit]");
  const unit = unitNode ? unitNode.dataset.unit : null;
  gesture = {x: ev.clientX, y: ev.clientY, moved: false, unit: unit,
    drag: unit && movesOf(unit).length > 0, ghost: null, view: view && {...view}};
  $("viewport").setPointerCapture(ev.pointerId);
});

$("viewport").addEventListener("pointermove", (ev) => {
  if (!gesture) return;
  const svg = $("map").querySelector("svg");
  const dx = ev.clientX - gesture.x, dy = ev.clientY - gesture.y;
  if (!gesture.moved && Math.hypot(dx, dy) < 5) return;
  gesture.moved = true;
  if (gesture.drag) {  // a unit carried toward a place
    const p = svgPoint(svg, ev.clientX, ev.clientY);
    if (!gesture.ghost) {
      gesture.ghost = document.createElementNS(NS, "circle");
      gesture.ghost.setAttribute("class", "ghost");
      gesture.ghost.setAttribute("r", Math.max(6, base.w / 80));
      gesture.ghost.setAttribute("fill", colourOf(gesture.unit));
      svg.append(gesture.ghost);
      pickOnly(gesture.unit);
    }
    gesture.ghost.setAttribute("cx", p.x);
    gesture.ghost.setAttribute("cy", p.y);
    const place = placeAt(ev.clientX, ev.clientY);
    for (const n of svg.querySelectorAll("[data-place].over")) n.classList.remove("over");
    if (place) {
      for (const n of svg.querySelectorAll("[data-place].dest")) {
        if (n.dataset.place === place) n.classList.add("over");
      }
    }
  } else if (gesture.view) {  // the background: pan
    const rect = $("viewport").getBoundingClientRect();
    const scale = Math.max(gesture.view.w / rect.width, gesture.view.h / rect.height);
    view = {...gesture.view, x: gesture.view.x - dx * scale, y: gesture.view.y - dy * scale};
    $("viewport").classList.add("panning");
    applyView();
  }
});

function endGesture(ev) {
  const g = gesture;
  gesture = null;
  $("viewport").classList.remove("panning");
  if (!g) return;
  if (g.ghost) {
    g.ghost.remove();
    const place = placeAt(ev.clientX, ev.clientY);
    const moves = place ? movesOf(g.unit).filter((m) => m.place === place) : [];
    if (moves.length) chooseMove(g.unit, place, moves);
    return;
  }
  if (g.moved) return;
  // A click: on a unit, on a place, or on nothing.
  const node = document.elementFromPoint(ev.clientX, ev.clientY);
  const unitNode = node && node.closest && node.closest("#map [data-unit]");
  if (unitNode) { clickUnit(unitNode.dataset.unit); return; }
  const place = placeAt(ev.clientX, ev.clientY);
  if (place && picked.length) {
    const moves = movesOf(picked[0]).filter((m) => m.place === place);
    if (moves.length) chooseMove(picked[0], place, moves);
  }
}

$("viewport").addEventListener("pointerup", endGesture);
$("viewport").addEventListener("pointercancel", () => { gesture = null; });

// -- picking -----------------------------------------------------------------------------------

function markMap() {
  const svg = $("map").querySelector("svg");
  const me = picked[0];
  const dests = new Set(me ? movesOf(me).map((m) => m.place) : []);
  const targets = new Set(me && picked.length === 1 ? attacksOf(me).map((l) => l.target) : []);
  if (svg) {
    for (const node of svg.querySelectorAll("[data-place]")) {
      node.classList.toggle("dest", dests.has(node.dataset.place));
    }
    for (const node of svg.querySelectorAll("circle[data-unit], ellipse[data-unit], rect[data-unit]")) {
      node.classList.toggle("picked", picked.includes(node.dataset.unit));
      node.classList.toggle("target", targets.has(node.dataset.unit));
    }
  }
  if (!state.has_map) renderNoMap();
}

function pickOnly(unitId) {
  picked = [unitId];
  $("sight").hidden = true;
  afterPick();
  refreshMap();
}

function afterPick() {
  $("clear").hidden = picked.length === 0;
  $("selected").textContent = picked.length === 0 ? "Click a unit: its moves and targets light up on the map." :
    picked.length === 1 ? `${picked[0]} picked: click a green place to move, a ringed target to attack, or another unit for sight` :
    `${picked[0]} → ${picked[1]}`;
  const lvl = levelOf(picked[0]);
  if (picked.length === 1 && lvl !== null && level !== null && lvl !== level &&
      $("levels").querySelector(`button[data-level="${lvl}"]`)) {
    level = lvl;
    showLevel(false);
  }
  renderUnits();
}

// A unit clicked (on the map, a card or a chip): pick it; with one picked already, see sight
// and odds between the two, and the preview when the second is a target of the first.
function clickUnit(unitId) {
  if (picked.length === 1 && picked[0] !== unitId) {
    const first = picked[0];
    picked = [first, unitId];
    afterPick();
    showSight();
    if (attacksOf(first, unitId).length) preview(first, unitId);
    return;
  }
  hidePreview();
  pickOnly(unitId);
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
  picked = []; $("sight").hidden = true;
  hidePreview();
  afterPick();
  refreshMap();
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
