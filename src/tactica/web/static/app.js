// tactica serve: the page of one fight, a small virtual tabletop. Plain JavaScript, no build
// step. The server owns the fight; this page shows its state, sends the game master's answers
// and follows every change through Server-Sent Events (several tabs stay in step).
//
// On the map: click a unit to pick it (its destinations turn green, its targets are ringed
// red); click a green place, or drag the unit onto it, to move; click a ringed target to see
// the attack's odds and outcomes before committing it. The wheel zooms, dragging the
// background pans; a map with levels shows one level at a time, chosen by its tab.
//
// The launch's token comes in the URL tactica serve prints (/?token=...). It is kept in this
// tab's sessionStorage (the browser keeps it for this origin only, port included), taken out
// of the address bar, and sent in an Authorization header with every request, the event
// stream's included; never in a cookie, which would go to every port of this machine.
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

const TOKEN = (() => {
  const url = new URL(window.location.href);
  const given = url.searchParams.get("token");
  if (given !== null) {
    sessionStorage.setItem("tactica-token", given);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem("tactica-token") || "";
})();

// fetch() with the token in its header.
function owned(path, init) {
  const headers = {...((init && init.headers) || {}), "Authorization": `token ${TOKEN}`};
  return fetch(path, {...(init || {}), headers: headers, credentials: "omit"});
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await owned(path, init);
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

// An action on a friend (where the same is open on an enemy): marked so.
function isFriend(req, index) { return (req.friends || []).includes(index); }
function friendsLast(req, indices) {
  return [...indices.filter((i) => !isFriend(req, i)), ...indices.filter((i) => isFriend(req, i))];
}

function actionButton(req, index, text) {
  const link = req.links[index];
  if (isFriend(req, index)) text += " (a friend)";
  if (link && link.kind === "target") {  // an attack: its preview first
    return el("button", {type: "button", class: isFriend(req, index) ? "attack friend" : "attack", title: req.texts[index],
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
      const buttons = friendsLast(req, indices).map((i) => actionButton(req, i,
        g.tails[indices.indexOf(i)]));
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
  // into any of its fields (dice, a number of a range, a bearing) stays (the new field takes
  // the focus as before).
  const same = box.dataset.key === String(req.key) && box.dataset.kind === req.kind;
  const kept = new Map();
  if (same) {
    for (const field of box.querySelectorAll("input[id]:not([type=checkbox]), select[id]")) kept.set(field.id, field.value);
  }
  const typed = kept.get("dice-input") || "";
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
    decisionContext(box, req);
    if (req.range) box.append(rangeForm(req));
    else {
      req.options.forEach((o, i) => box.append(el("button", {type: "button",
        "data-option": String(i), onclick: () => send("/api/decide", {key: req.key, index: i})}, o)));
    }
  } else {
    box.append(el("div", {class: "over", id: "over", text: req.text}));
  }
  for (const [id, value] of kept) {
    const field = $(id);
    if (field && box.contains(field)) field.value = value;
  }
}

// A decision's context: the roll it is about (a re-roll) and what the computer would choose.
function decisionContext(box, req) {
  if (req.roll) box.append(el("div", {class: "who", id: "decision-roll", text: `the roll: ${req.roll}`}));
  if (req.suggested !== null && req.suggested !== undefined && req.options[req.suggested] !== undefined) {
    box.append(el("div", {class: "hint", id: "decision-suggested",
      text: `the computer would choose: ${req.options[req.suggested]}`}));
  }
}

// Each attack's button shows its exact chance and what tells its target apart (the chance to
// take it out, the damage expected), asked of the server one after the other, every button
// (each answer kept for the question it belongs to).
const tagCache = new Map();

async function oddsOnButtons(box, req) {
  const buttons = [...box.querySelectorAll("button.attack[data-action]")];
  for (const button of buttons) {
    if (!button.isConnected || !state || state.request.key !== req.key) return;
    const data = await previewData(req.key, Number(button.dataset.action));
    if (!data) return;  // the fight moved on: a new question has its own buttons
    if (!button.isConnected || button.querySelector(".odds-tag")) continue;
    const tag = oddsTag(data);
    if (tag) button.append(el("span", {class: "odds-tag", text: ` · ${tag}`}));
  }
}

// The odds of action `index` of question `key` (asked once, kept while the question is
// open), or null when the fight has moved on.
async function previewData(key, index) {
  const id = `${key}:${index}`;
  if (tagCache.has(id)) return tagCache.get(id);
  if (!state || state.request.key !== key) return null;
  let data;
  try {
    data = await api(`/api/preview?key=${key}&index=${index}`);
  } catch (e) { return null; }
  if (data.stale) return null;
  if (tagCache.size > 500) tagCache.clear();
  tagCache.set(id, data);
  return data;
}

// A button's tag: P(hit), the chance to take the target out, the damage expected.
function oddsTag(data) {
  const parts = [];
  const hit = data.numbers["P(hit)"];
  if (hit !== undefined) parts.push(`P(hit) ${pct(hit)}`);
  else {
    const first = Object.keys(data.numbers).find((k) => k.startsWith("P("));
    if (first) parts.push(`${first} ${pct(data.numbers[first])}`);
  }
  if (data.headline && data.headline !== "P(hit)" && data.numbers[data.headline] !== undefined) {
    parts.push(`${data.headline.slice(2, -1)} ${pct(data.numbers[data.headline])}`);
  }
  const dmg = data.numbers["expected damage"];
  if (dmg !== undefined) parts.push(`damage ${dmg.toFixed(2)}`);
  return parts.join(" · ");
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
    choice, " ", input, " ", el("button", {type: "submit", id: "aim-enter"}, "Aim"), " ", aimToggle());
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

// -- the preview of an attack: one at a time ---------------------------------------------
//
// In the manner of Battle for Wesnoth's attack dialog: one attack (a picker chooses among
// the attacker's weapons or abilities on this target), the chance to take the target out
// shown large, attacker and target side by side with their outcomes as bars, the reasons of
// a zero or a certainty, the cases the target chooses (an evasion), and Commit in view.

let previewing = null;

function hidePreview() { previewing = null; $("preview").hidden = true; $("preview").replaceChildren(); }

function pct(p) { return (100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1) + "%"; }

async function preview(unit, target, only) {
  const actions = attacksOf(unit, target);
  const box = $("preview");
  const key = state.request.key;
  box.hidden = false;
  if (!actions.length) {
    previewing = {unit, target, key, index: null};
    box.replaceChildren(el("h3", {text: `Before committing: ${unit} → ${target}`}),
      el("div", {text: `${unit} has no attack on ${target} now.`}),
      el("button", {type: "button", onclick: hidePreview}, "cancel"));
    return;
  }
  const chosen = actions.find((l) => l.index === only) || actions[0];
  previewing = {unit, target, key, index: chosen.index};
  if (!box.querySelector(".attack-preview")) {
    box.replaceChildren(el("h3", {text: `Before committing: ${unit} → ${target}`}),
      el("div", {class: "hint", text: "working out the odds..."}));
  }
  const data = await previewData(key, chosen.index);
  if (!previewing || previewing.key !== key || previewing.index !== chosen.index) return;
  if (!data) { hidePreview(); return; }
  box.replaceChildren(el("h3", {text: `Before committing: ${unit} → ${target}`}),
    previewPicker(unit, target, actions, chosen.index), previewBlock(data, target, chosen.index));
  box.scrollIntoView({block: "nearest"});
}

// The attacker's ways to attack this target (weapons, abilities): one shown at a time.
function previewPicker(unit, target, actions, index) {
  if (actions.length < 2) return el("span");
  const texts = actions.map((l) => state.request.texts[l.index]);
  const choice = el("select", {id: "preview-pick", "aria-label": "which attack"},
    ...actions.map((l, i) => {
      const o = el("option", {value: String(l.index)}, texts[i]);
      if (l.index === index) o.selected = true;
      return o;
    }));
  choice.addEventListener("change", () => preview(unit, target, Number(choice.value)));
  return el("label", {class: "picker"}, `${actions.length} ways: `, choice);
}

function previewBlock(data, target, index) {
  const div = el("div", {class: "attack-preview", "data-preview": String(index)});
  div.append(el("div", {class: "preview-bar"},
    el("button", {type: "button", class: "primary commit", "data-commit": String(index),
      onclick: () => take(index)}, `Commit: ${data.action}`),
    el("button", {type: "button", onclick: hidePreview}, "cancel")));
  div.append(el("div", {class: "headline", text: data.action}));
  const who = data.target || target;
  if (data.headline && data.numbers[data.headline] !== undefined) {
    div.append(el("div", {class: "kill", "data-number": data.headline},
      el("span", {class: "big", text: pct(data.numbers[data.headline])}),
      el("span", {text: ` ${data.headline.slice(2, -1)}: ${who}`, title: data.exact[data.headline]})));
  }
  div.append(el("div", {class: "odds", text: numbersText(data)}));
  div.append(previewDuel(data, target));
  div.append(whyList(data));
  for (const c of data.cases || []) div.append(previewCase(c));
  if (data.reasons.length) div.append(el("ul", {class: "reasons"},
    ...data.reasons.map((r) => el("li", {text: r}))));
  return div;
}

// Every number of the report; a chance with its exact fraction when that one is short.
function numbersText(data) {
  const exact = (k) => data.exact[k] && data.exact[k].length <= 9 ? ` (${data.exact[k]})` : "";
  return Object.entries(data.numbers).map(([k, v]) =>
    `${k}: ${k.startsWith("P(") ? pct(v) + exact(k) : v.toFixed(2)}`).join(" · ");
}

// Why a number is zero or certain, in the rules' words, under the numbers.
function whyList(data) {
  const items = Object.entries(data.why || {}).filter(([, w]) => w).map(([k, w]) =>
    el("li", {text: `${k} ${k in data.numbers && k.startsWith("P(") ? pct(data.numbers[k]) : ""}: ${w}`}));
  return items.length ? el("ul", {class: "why"}, ...items) : el("span");
}

// Attacker and target side by side: each one's figures and outcome bars in its colour.
function previewDuel(data, target) {
  const attacker = data.attacker || (previewing && previewing.unit) || "";
  const who = data.target || target;
  const duel = el("div", {class: "duel"});
  const bars = data.bars;
  for (const [role, id] of [["attacker", attacker], ["target", who]]) {
    const u = unitOf(id);
    const col = el("div", {class: "side-col", "data-role": role});
    const h = el("h4", {class: "who-head", text: `${role === "attacker" ? "attacker" : "target"}: ${id}`});
    if (u) h.style.color = u.colour;
    col.append(h);
    if (u) col.append(el("div", {class: "figures", text: figures(u)}));
    const mine = bars.filter((b) => b.who === role);
    for (const dist of mine) col.append(distBars(dist, data, target));
    if (!mine.length) {
      col.append(el("div", {class: "note", text: role === "attacker" ?
        `${who} answers with no retaliation in this attack: nothing is risked but the action.` :
        "no outcome to show as bars"}));
    }
    duel.append(col);
  }
  return duel;
}

function distBars(dist, data, target) {
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
  return d;
}

// A case the target chooses during the attack (an evasion): its odds beside the plain ones.
function previewCase(c) {
  const div = el("div", {class: "case"}, el("h4", {text: `If ${c.case}:`}));
  if (c.headline && c.numbers[c.headline] !== undefined) {
    div.append(el("div", {class: "kill small-kill"},
      el("span", {class: "big", text: pct(c.numbers[c.headline])}),
      el("span", {text: ` ${c.headline.slice(2, -1)}`})));
  }
  div.append(el("div", {class: "odds", text: numbersText(c)}), whyList(c));
  return div;
}

// Several ways to reach one place (walking, running): the choice, in the preview box.
function chooseMove(unit, place, moves) {
  if (dearMoveFirst(unit, place, moves)) return;
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

// A unit's id with its name, the name alone when it starts with the id ("Sam the medic").
function unitLabel(u) {
  const name = u.details.name;
  if (!name || name === u.id) return u.id;
  return name.startsWith(u.id + " ") ? name : `${u.id} ${name}`;
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
        onclick: () => clickUnit(u.id)}, unitLabel(u) + (u.place ? ` · ${u.place}` : ""));
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

// Answers can arrive out of order (a load() started by the event stream may be answered
// after the state a POST returned): a view older than the one shown is never drawn over it.
// The fight's version only grows while this page's server runs (a reload from the log too).
function render(s) {
  if (state && s.version < state.version) return;
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
        `${unitLabel(u)}${u.in_action ? "" : " (out)"}`);
      card.style.background = u.colour;
      if (picked.includes(u.id)) card.classList.add("picked");
      if (picked.length === 1 && attacksOf(picked[0], u.id).length) card.classList.add("target");
      col.append(card);
    }
    sides.append(col);
  }
  box.replaceChildren(el("div", {class: "hint", text: state.no_map}), sides, distancesOf(state.ranges));
  if ($("selected").textContent !== selectionText()) $("selected").textContent = selectionText();
}

// The distances between the characters of different sides: a table of the two sides when
// the scenario gives them, one sentence when it gives none.
function distancesOf(ranges) {
  const known = ranges.filter((r) => /\d/.test(r.range));
  if (!ranges.length) return el("span");
  if (!known.length) {
    return el("div", {class: "hint", id: "distances",
      text: "The scenario gives no distance between the characters."});
  }
  const rows = [...new Set(ranges.map((r) => r.a))];
  const cols = [...new Set(ranges.map((r) => r.b))];
  const at = (a, b) => ranges.find((r) => (r.a === a && r.b === b) || (r.a === b && r.b === a));
  const table = el("table", {id: "ranges", class: "distances"},
    el("tr", {}, el("th", {text: "distance"}), ...cols.map((c) => el("th", {text: c}))));
  for (const a of rows) {
    table.append(el("tr", {}, el("th", {text: a}), ...cols.map((b) => {
      const r = at(a, b);
      return el("td", {title: r ? `${a} and ${b}: ${r.range}` : "", text: r && /\d/.test(r.range) ? r.range : "-"});
    })));
  }
  return el("div", {id: "distances"}, el("h3", {text: "Distances"}), table);
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
  const response = await owned("/api/map.svg" + pair);
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
  const aim = aimDragStart(unit);
  gesture = {x: ev.clientX, y: ev.clientY, moved: false, unit: unit, aim: aim,
    drag: !aim && unit && movesOf(unit).length > 0, ghost: null, view: view && {...view}};
  $("viewport").setPointerCapture(ev.pointerId);
});

$("viewport").addEventListener("pointermove", (ev) => {
  if (!gesture) return;
  const svg = $("map").querySelector("svg");
  const dx = ev.clientX - gesture.x, dy = ev.clientY - gesture.y;
  if (!gesture.moved && Math.hypot(dx, dy) < 5) return;
  gesture.moved = true;
  if (gesture.aim) { aimDragMove(ev); return; }
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
  if (g.aim && g.moved) { aimDragEnd(); return; }
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
    drawMarks(svg);
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
  $("selected").textContent = selectionText();
  const lvl = levelOf(picked[0]);
  if (picked.length === 1 && lvl !== null && level !== null && lvl !== level &&
      $("levels").querySelector(`button[data-level="${lvl}"]`)) {
    level = lvl;
    showLevel(false);
  }
  renderUnits();
}

// What the line under the board says of the units picked (a fight without a map has cards,
// no places to light up).
function selectionText() {
  if (!state.has_map) {
    return picked.length === 0 ? "Click a character: its targets are ringed." :
      picked.length === 1 ? `${picked[0]} picked: click a ringed character to see the odds of an attack, or another for the odds between them` :
      `${picked[0]} → ${picked[1]}`;
  }
  return picked.length === 0 ? "Click a unit: its moves and targets light up on the map." :
    picked.length === 1 ? `${picked[0]} picked: click a green place to move, a ringed target to attack, or another unit for sight` :
    `${picked[0]} → ${picked[1]}`;
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

// The odds between the two units picked: in full for one action, else one line an action
// (the preview shows one in full).
function sightOdds(odds) {
  if (odds.length === 1) {
    return el("div", {}, el("h3", {text: `Odds: ${odds[0].action}`}),
      el("div", {class: "odds", text: odds[0].lines.slice(1).join("\n")}));
  }
  const lines = odds.map((o) => {
    const k = o.headline && o.numbers[o.headline] !== undefined ? o.headline :
      Object.keys(o.numbers).find((n) => n.startsWith("P("));
    return el("li", {text: k ? `${o.action}: ${k} ${pct(o.numbers[k])}` : o.action});
  });
  return el("div", {}, el("h3", {text: "Odds"}), el("ul", {class: "sight-odds"}, ...lines));
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
      box.append(sightOdds(data.odds));
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

// -- map marks: firing arcs as templates, aiming by dragging, moves with their AP ----------
// A game may send marks to draw on its map (Skirmishers does: see its text part's `marks`):
// `arcs` set, `aims` (the arcs the open actions would set, by action number), `moves` (each
// move's AP, its path and what makes it dear). Drawn after every markMap, kept apart here.

const AP_BANDS = [[2, "#1a9850", "1-2"], [4, "#91cf60", "3-4"], [6, "#fdae61", "5-6"],
  [Infinity, "#d73027", "7+"]];
let aimShown = null;     // the arc template being aimed: {template, key}
let aimMode = false;     // dragging from a trooper that may also move aims instead

function marksNow() { return (state && state.marks) || {}; }
function sideColour(side) { const s = state.sides.find((x) => x.name === side); return s ? s.colour : "#5b6f8a"; }
function svgNode(tag, attrs) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}
function panelOf(svg, lvl) { return svg.querySelector(`g[data-level="${lvl}"]`); }
function levelOfPlace(place) { const m = /@(\d+)$/.exec(place); return m ? m[1] : "0"; }
function panelLeft(panel) { return parseFloat((panel.dataset.box || "0").split(" ")[0]); }

// The position of a place's dot in the panel of level `lvl` (the same spot of that level).
function dotAt(svg, place, lvl) {
  const c = [...svg.querySelectorAll("circle[data-place]")].find((n) => n.dataset.place === place);
  if (!c) return null;
  let x = parseFloat(c.getAttribute("cx"));
  const y = parseFloat(c.getAttribute("cy"));
  const own = panelOf(svg, levelOfPlace(place)), there = panelOf(svg, String(lvl));
  if (own && there && own !== there) x += panelLeft(there) - panelLeft(own);
  return {x, y};
}

function dotSpacing(svg) {
  const a = dotAt(svg, "0,0", 0), b = dotAt(svg, "1,0", 0);
  return a && b ? Math.abs(b.x - a.x) || 30 : 30;
}

function wedgePath(cx, cy, r, bearing, width) {
  const a1 = (bearing - width / 2) * Math.PI / 180, a2 = (bearing + width / 2) * Math.PI / 180;
  const p = (a) => `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  return `M${cx.toFixed(1)},${cy.toFixed(1)} L${p(a1)} A${r.toFixed(1)},${r.toFixed(1)} 0 ` +
    `${width > 180 ? 1 : 0} 1 ${p(a2)} Z`;
}

// Each level's panel clips the templates drawn on it.
function arcClip(svg, panel) {
  const id = `arc-clip-${panel.dataset.level}`;
  if (!svg.querySelector(`#${id}`)) {
    const [left, top, w, h] = panel.dataset.box.split(" ").map(Number);
    const clip = svgNode("clipPath", {id});
    clip.append(svgNode("rect", {x: left, y: top, width: w, height: h}));
    svg.prepend(clip);
  }
  return `url(#${id})`;
}

// One arc as a template on every level it holds, in its side's colour.
function drawTemplate(svg, t, kind) {
  const colour = sideColour(t.side);
  const reach = (t.reach || 30) * dotSpacing(svg);
  for (const lvl of t.levels) {
    const panel = panelOf(svg, lvl);
    const at = panel && dotAt(svg, t.place, lvl);
    if (!at) continue;
    const [, , w, h] = panel.dataset.box.split(" ").map(Number);
    const r = Math.min(reach, Math.hypot(w, h));
    const shape = svgNode("path", {d: wedgePath(at.x, at.y, r, t.bearing, t.width),
      class: kind, fill: colour, "fill-opacity": kind === "arc-aim" ? 0.2 : 0.12,
      stroke: colour, "stroke-width": 2, "clip-path": arcClip(svg, panel),
      "data-arc": t.unit, "data-arc-level": String(lvl), "pointer-events": "none"});
    if (kind === "arc-aim") shape.setAttribute("stroke-dasharray", "6 4");
    const title = svgNode("title", {});
    title.textContent = `${t.unit}: ${t.width}° arc, bearing ${t.bearing}°, ${t.shots} shot${t.shots === 1 ? "" : "s"}`;
    shape.append(title);
    const label = svgNode("text", {class: "arc-label", x: at.x + 22 * Math.cos(t.bearing * Math.PI / 180),
      y: at.y + 22 * Math.sin(t.bearing * Math.PI / 180) + 4, fill: colour, "font-size": 11,
      "font-weight": "bold", "text-anchor": "middle", "pointer-events": "none"});
    label.textContent = `${t.shots}×`;
    const troopers = panel.querySelector('[id^="troopers-"]');
    panel.insertBefore(shape, troopers);
    panel.insertBefore(label, troopers);
  }
}

function drawMarks(svg) {
  for (const n of svg.querySelectorAll(".arc-set, .arc-aim, .arc-label, .move-path, .dead-mark")) n.remove();
  const m = marksNow();
  for (const t of m.arcs || []) drawTemplate(svg, t, "arc-set");
  if (aimShown && state.request && aimShown.key === state.request.key) drawTemplate(svg, aimShown.template, "arc-aim");
  moveBands(svg, m);
  crossOut(svg);
}

function showAim(template) {
  aimShown = template ? {template, key: state.request.key} : null;
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  for (const n of svg.querySelectorAll(".arc-aim")) n.remove();
  if (template) drawTemplate(svg, template, "arc-aim");
}

// The aim form's action and bearing, drawn as they are typed; an arc's button, while hovered.
function aimFromForm() {
  const choice = $("aim-action"), box = $("aim-bearing");
  if (!choice || !box) return;
  const t = (marksNow().aims || {})[choice.value];
  const b = Number(box.value);
  showAim(t && box.value.trim() !== "" && Number.isFinite(b) ? {...t, bearing: b} : null);
}
document.addEventListener("input", (ev) => { if (ev.target.id === "aim-bearing") aimFromForm(); });
document.addEventListener("change", (ev) => { if (ev.target.id === "aim-action") aimFromForm(); });
document.addEventListener("mouseover", (ev) => {
  const b = ev.target.closest && ev.target.closest("button[data-action]");
  const t = b && (marksNow().aims || {})[b.dataset.action];
  if (t) showAim(t);
});
document.addEventListener("mouseout", (ev) => {
  const b = ev.target.closest && ev.target.closest("button[data-action]");
  if (b && (marksNow().aims || {})[b.dataset.action]) { showAim(null); aimFromForm(); }
});

// Aiming by dragging from the trooper: the bearing follows the pointer into the bearing box.
function aimablesOf(unit) {
  const req = state.request, aims = marksNow().aims || {};
  if (!req || req.kind !== "action") return [];
  return (req.aimable || []).filter((i) => aims[String(i)] && aims[String(i)].unit === unit);
}

function aimDragStart(unit) {
  if (!unit || !aimablesOf(unit).length) return false;
  return aimMode || movesOf(unit).length === 0;
}

function aimDragMove(ev) {
  const unit = gesture.unit;
  const node = $("map").querySelector(`circle[data-unit="${CSS.escape(unit)}"], ellipse[data-unit="${CSS.escape(unit)}"]`);
  if (!node) return;
  const r = node.getBoundingClientRect();
  const deg = Math.atan2(ev.clientY - (r.y + r.height / 2), ev.clientX - (r.x + r.width / 2)) * 180 / Math.PI;
  const bearing = Math.round(((deg % 360) + 360) % 360 * 2) / 2 % 360;
  if (picked[0] !== unit) pickOnly(unit);
  const choice = $("aim-action"), box = $("aim-bearing");
  const mine = aimablesOf(unit).map(String);
  if (choice && !mine.includes(choice.value)) choice.value = mine[0];
  if (box) box.value = String(bearing);
  const t = (marksNow().aims || {})[choice ? choice.value : mine[0]];
  if (t) showAim({...t, bearing});
  $("selected").textContent = `${unit} aims at bearing ${bearing}°: press Aim to set the arc (or type an exact bearing)`;
}

function aimDragEnd() {
  const box = $("aim-bearing"), choice = $("aim-action");
  if (box) box.focus();
  if (box && choice && box.value.trim() !== "") previewAim(Number(choice.value), Number(box.value));
}

// The odds of an arc aimed at a bearing (each enemy it holds), with a Commit that sets it.
async function previewAim(index, bearing) {
  const key = state.request.key;
  let data;
  try {
    data = await api(`/api/preview?key=${key}&index=${index}&bearing=${bearing}`);
  } catch (e) { showError(e.message); return; }
  if (state.request.key !== key) return;  // the fight moved on
  const box = $("preview");
  previewing = {unit: state.request.links[index].unit, key};
  const block = previewBlock(data, "", index);
  for (const note of block.querySelectorAll(".note")) note.remove();  // an arc is not answered
  const commit = block.querySelector("[data-commit]");
  const aimed = commit.cloneNode(true);  // the same button, setting the arc at the bearing
  aimed.addEventListener("click", () => send("/api/action", {key, index, bearing}));
  commit.replaceWith(aimed);
  box.replaceChildren(el("h3", {text: "Before setting the arc"}), block,
    el("button", {type: "button", onclick: hidePreview}, "cancel"));
  box.hidden = false;
}

function aimToggle() {
  const button = el("button", {type: "button", id: "aim-drag", "aria-pressed": String(aimMode),
    title: "drag from the trooper on the map to aim (a trooper that may still move drags to move otherwise)",
    onclick: () => { aimMode = !aimMode; button.setAttribute("aria-pressed", String(aimMode));
      button.textContent = aimMode ? "dragging aims ✓" : "drag on the map to aim"; }},
  aimMode ? "dragging aims ✓" : "drag on the map to aim");
  return button;
}

// Reachable places coloured by their AP (bands), each with its path and cost on hover.
function apBand(cost) { return AP_BANDS.find(([top]) => cost <= top); }

function movesByPlace(unit) {
  const out = {};
  for (const [index, mv] of Object.entries(marksNow().moves || {})) {
    if (mv.unit === unit && (!out[mv.place] || mv.cost < out[mv.place].cost)) out[mv.place] = {...mv, index: Number(index)};
  }
  return out;
}

function moveBands(svg, m) {
  const me = picked[0];
  const byPlace = me ? movesByPlace(me) : {};
  const any = Object.keys(byPlace).length > 0;
  for (const node of svg.querySelectorAll("[data-place]")) {
    const mv = node.classList.contains("dest") ? byPlace[node.dataset.place] : null;
    for (const old of node.querySelectorAll("title.ap-cost")) old.remove();
    if (!mv) { node.style.removeProperty("fill"); node.style.removeProperty("stroke"); delete node.dataset.cost; continue; }
    const [, colour] = apBand(mv.cost);
    node.style.setProperty("fill", colour, "important");
    node.style.setProperty("stroke", colour, "important");
    node.dataset.cost = String(mv.cost);
    const title = svgNode("title", {class: "ap-cost"});
    title.textContent = moveWords(me, mv);
    node.append(title);
  }
  let legend = $("ap-bands");
  if (!legend) {
    legend = el("span", {id: "ap-bands"});
    $("toolbar").insertBefore(legend, $("toolbar").querySelector(".tools"));
  }
  legend.hidden = !any;
  legend.replaceChildren(...(any ? [el("span", {text: "AP to get there: "}), ...AP_BANDS.map(([, c, words]) => {
    const sw = el("span", {class: "swatch"});
    sw.style.background = c;
    return el("span", {class: "swatch-line"}, sw, ` ${words} `);
  })] : []));
  if (!svg.dataset.pathHover) {
    svg.dataset.pathHover = "yes";
    svg.addEventListener("pointerover", (ev) => {
      const n = ev.target.closest && ev.target.closest("[data-place][data-cost]");
      if (n) showPath(svg, n.dataset.place);
    });
    svg.addEventListener("pointerout", (ev) => {
      const n = ev.target.closest && ev.target.closest("[data-place][data-cost]");
      if (n) hidePath(svg);
    });
  }
}

function moveWords(unit, mv) {
  return `${unit} to ${mv.place}: ${mv.cost} AP, by ${mv.path.slice(1).join(" → ")}` +
    (mv.dear ? ` (${mv.dear})` : "");
}

function showPath(svg, place) {
  hidePath(svg);
  const me = picked[0];
  const mv = me && movesByPlace(me)[place];
  if (!mv) return;
  const lvl = levelOfPlace(place);
  const panel = panelOf(svg, lvl);
  if (!panel) return;
  const pts = mv.path.filter((p) => levelOfPlace(p) === lvl).map((p) => dotAt(svg, p, lvl)).filter(Boolean);
  const line = svgNode("polyline", {class: "move-path", points: pts.map((p) => `${p.x},${p.y}`).join(" "),
    fill: "none", stroke: apBand(mv.cost)[1], "stroke-width": 4, "stroke-linecap": "round",
    "stroke-linejoin": "round", "pointer-events": "none", "stroke-opacity": 0.85});
  const end = pts[pts.length - 1];
  const label = svgNode("text", {class: "move-path", x: end.x, y: end.y - 10, "font-size": 13,
    "font-weight": "bold", "text-anchor": "middle", fill: "#222", stroke: "#fff", "stroke-width": 3,
    "paint-order": "stroke", "pointer-events": "none"});
  label.textContent = `${mv.cost} AP`;
  panel.append(line, label);
  $("selected").textContent = moveWords(me, mv);
  $("selected").dataset.hover = place;
}

function hidePath(svg) {
  for (const n of svg.querySelectorAll(".move-path")) n.remove();
}

// A move over a feature, or longer than the straight way, shows its AP before it is taken.
function dearMoveFirst(unit, place, moves) {
  if (moves.length !== 1) return false;
  const mv = (marksNow().moves || {})[String(moves[0].index)];
  if (!mv || !mv.dear) return false;
  const box = $("preview");
  previewing = {unit, key: state.request.key};
  box.replaceChildren(el("h3", {text: `${unit} to ${place}: ${mv.cost} AP`}),
    el("div", {class: "dear", id: "dear-move", text: `${mv.dear}; by ${mv.path.slice(1).join(" → ")}`}),
    el("button", {type: "button", class: "primary", "data-action": String(moves[0].index),
      onclick: () => take(moves[0].index)}, `Move (${mv.cost} AP)`),
    el("button", {type: "button", onclick: hidePreview}, "cancel"));
  box.hidden = false;
  return true;
}

// Units out of the fight: crossed out on their dot (never drawn as lying prone).
function crossOut(svg) {
  for (const u of state.units) {
    if (u.in_action) continue;
    for (const shape of svg.querySelectorAll(`ellipse[data-unit="${CSS.escape(u.id)}"], circle[data-unit="${CSS.escape(u.id)}"]:not(.dead-mark)`)) {
      const x = parseFloat(shape.getAttribute("cx")), y = parseFloat(shape.getAttribute("cy"));
      const r = parseFloat(shape.getAttribute("r") || shape.getAttribute("rx")) * (shape.tagName === "ellipse" ? 0.8 : 1);
      shape.style.display = "none";
      const dead = u.details.dead === "yes";
      const g = svgNode("g", {class: "dead-mark", "data-unit": u.id, "data-out": dead ? "dead" : "out"});
      g.append(svgNode("circle", {cx: x, cy: y, r, fill: u.colour, "fill-opacity": 0.35, stroke: "#444",
        "stroke-width": 1.5, "data-unit": u.id}));
      const d = r * 0.75;
      for (const [x1, y1, x2, y2] of [[x - d, y - d, x + d, y + d], [x - d, y + d, x + d, y - d]]) {
        g.append(svgNode("line", {x1, y1, x2, y2, stroke: dead ? "#111" : "#b3261e", "stroke-width": 3,
          "stroke-linecap": "round", "pointer-events": "none"}));
      }
      const title = svgNode("title", {});
      title.textContent = `${u.id}: ${dead ? "dead" : "out of action"}`;
      g.append(title);
      shape.after(g);
    }
  }
}

async function load() {
  try { render(await api("/api/state")); } catch (e) { showError(e.message); }
}

// The fight's Server-Sent Events, read with fetch() (an EventSource cannot send a header):
// every "data:" line names the fight's version. A stream that breaks is opened again after a
// pause, and so is one the server is too busy to take (503); one it refuses (the fight
// closed, or not the owner) is not.
async function follow() {
  for (;;) {
    let response = null;
    try {
      response = await owned("/api/events", {headers: {"Accept": "text/event-stream"}});
    } catch (e) {
      response = null;
    }
    if (response && !response.ok && response.status !== 503) {
      $("turn").textContent = "reconnecting...";
      return;
    }
    if (response && response.ok) {
      load();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const {value, done} = await reader.read();
          if (done) break;
          buffer += value;
          const events = buffer.split(/\r?\n\r?\n/);
          buffer = events.pop();
          for (const event of events) {
            for (const line of event.split(/\r?\n/)) {
              if (!line.startsWith("data:")) continue;
              const v = JSON.parse(line.slice(5)).version;
              if (!state || v !== state.version) load();
            }
          }
        }
      } catch (e) {
        reader.cancel().catch(() => {});  // the stream broke: opened again below
      }
    }
    $("turn").textContent = "reconnecting...";
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

load();
follow();
