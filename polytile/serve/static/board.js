// The polytile web board: one plain script, no framework, no build step.
// Every answer comes from the server, which asks the game's face: this page draws what it
// is given (the game's own SVG picture) and sends moves as the game writes them.
"use strict";

// The token travels in the cookie the first load set (HttpOnly: this script never sees it).
const TAB = (self.crypto && crypto.randomUUID) ? crypto.randomUUID()
  : String(Math.random()).slice(2) + String(Date.now());
const $ = (id) => document.getElementById(id);
const SHOWN = 300;  // legal moves listed at once (the filter finds the others)

const state = { records: [], index: null, view: null, picture: null, job: null, poll: null,
                reviews: {}, graphs: {}, picked: [], piece: null, image: 0, answered: null,
                thinking: false };

async function api(path, options = {}) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!response.ok) {
    throw new Error((body && body.error) || `the server answered ${response.status}`);
  }
  return body;
}

function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
  box.hidden = !text;
}

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

async function loadRecords(select) {
  const body = await api("/api/records");
  state.records = body.records;
  const list = $("records");
  list.replaceChildren();
  for (const r of state.records) {
    const label = `${r.index + 1}. ${r.title} (${r.game_title}, ${r.kind}` +
      (r.length ? `, ${r.length_text}` : "") + ")";
    const option = element("option", label);
    option.value = String(r.index);
    list.append(option);
  }
  if (select !== undefined) list.value = String(select);
  if (!state.records.length && !shelf.stores.length) say("no records: open a file (Open a file…)", "info");
}

async function show(index, at) {
  try {
    const view = await api(`/api/records/${index}` + (at === null || at === undefined ? "" : `?move=${at}`));
    render(view);
  } catch (e) {
    say(e.message);
  }
}

function render(view) {
  state.view = view;
  state.index = view.index;
  $("records").value = String(view.index);
  $("title").textContent = view.title + (view.variation ? " (a variation, kept in memory)" : "");
  $("game").textContent = `${view.game_title}, ${view.kind}`;
  const blob = new Blob([view.svg], { type: "image/svg+xml" });
  if (state.picture) URL.revokeObjectURL(state.picture);
  state.picture = URL.createObjectURL(blob);
  // a User Timing mark when the picture is drawn (benchmarks/bench_serve.py reads them)
  $("board").onload = () => performance.mark("board-drawn");
  $("board").src = state.picture;
  $("board-frame").dataset.game = view.game;
  $("board").dataset.at = String(view.at);
  delete $("board").dataset.preview;
  $("board-frame").classList.remove("preview");
  $("preview-note").hidden = true;
  state.picked = [];
  $("board").classList.toggle("clickable", Boolean(view.clickable && view.playable && !view.finished));
  showPicked();
  const n = view.moves.length;
  $("where").textContent = n ? `move ${view.at} of ${n}` : "a position";
  for (const [id, off] of [["first", view.at === 0], ["prev", view.at === 0],
                           ["next", view.at >= n], ["last", view.at >= n]]) {
    $(id).disabled = off;
  }
  renderMoves(view);
  renderScore(view);
  renderLegal(view);
  $("download").href = `/api/records/${view.index}/download`;
  for (const kind of ["svg", "png"]) {
    $(`picture-${kind}`).href = `/api/records/${view.index}/picture?move=${view.at}&kind=${kind}`;
  }
  const modes = $("mode");
  const was = modes.value;
  modes.replaceChildren();
  for (const m of view.analysis) {
    const label = { exact: "exact (solve-endgame)", open: "open: hidden tiles/cards as dealt (exact for that deal)",
                    view: "from the mover's view (an estimate)",
                    bounds: "bounds: what each colour can still reach and make sure of" }[m] || m;
    const option = element("option", label);
    option.value = m;
    modes.append(option);
  }
  if (view.analysis.includes(was)) modes.value = was;
  $("analyse").disabled = !view.analysis.length || state.job !== null;
  $("analyse-record").hidden = !view.record_analysis;
  $("analyse-record").disabled = state.job !== null;
  if (!view.analysis.length) $("analysis-state").textContent = `${view.game_title} has no endgame solver`;
  renderVariation(view);
  placeAnalysis(view);
  renderGraph(view);
}

// -- the evaluation graph: the value after each analysed move ("Analyse every move") -------

const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(tag, attributes) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  return e;
}

// The points of record `index`'s graph: [move, value, exact] in move order, the value
// before the first reviewed move included.
function graphPoints(index) {
  const g = state.graphs[index];
  if (!g) return [];
  const points = new Map();
  for (const r of g.reviews) {
    if (r.value_before !== null && r.value_before !== undefined && !points.has(r.number - 1)) {
      points.set(r.number - 1, [r.number - 1, r.value_before, !r.estimate]);
    }
    if (r.value_after !== null && r.value_after !== undefined) {
      points.set(r.number, [r.number, r.value_after, !r.estimate]);
    }
  }
  return [...points.values()].sort((a, b) => a[0] - b[0]);
}

function renderGraph(view) {
  const box = $("graph-box");
  const g = view ? state.graphs[view.index] : null;
  const points = g ? graphPoints(view.index) : [];
  box.hidden = !g || (!points.length && !g.note);
  if (box.hidden) return;
  $("graph-lead").textContent = g.lead ? `values are ${g.lead}` : g.note || "";
  const graph = $("graph");
  const key = `${view.index}:${g.run}:${view.moves.length}`;
  const width = 560, height = 150, pad = 12;
  const n = Math.max(1, view.moves.length);
  const x = (at) => pad + (width - 2 * pad) * at / n;
  if (graph.dataset.key !== key) {
    graph.dataset.key = key;
    graph.replaceChildren();
    graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const most = Math.max(1, ...points.map((p) => Math.abs(p[1])));
    const y = (v) => height / 2 - (height / 2 - pad) * v / most;
    graph.append(svgElement("line", { class: "zero", x1: pad, x2: width - pad, y1: y(0), y2: y(0) }));
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1], points[i]];
      if (b[0] - a[0] !== 1) continue;  // a gap: moves not analysed
      graph.append(svgElement("line", { class: `line ${a[2] && b[2] ? "exact" : "estimate"}`,
                                        x1: x(a[0]), y1: y(a[1]), x2: x(b[0]), y2: y(b[1]) }));
    }
    graph.append(svgElement("line", { class: "now", y1: pad / 2, y2: height - pad / 2, x1: 0, x2: 0 }));
    for (const [at, value, exact] of points) {
      const dot = svgElement("circle", { class: `point ${exact ? "exact" : "estimate"}`,
                                         cx: x(at), cy: y(value), r: 4 });
      dot.dataset.at = String(at);
      dot.dataset.value = String(value);
      dot.append(svgElement("title", {}));
      dot.firstChild.textContent = `after move ${at}: ${value}${exact ? "" : " (an estimate)"}`;
      dot.addEventListener("click", () => show(view.index, at));
      graph.append(dot);
    }
  }
  const now = graph.querySelector(".now");
  now.setAttribute("x1", x(view.at));
  now.setAttribute("x2", x(view.at));
  for (const dot of graph.querySelectorAll(".point")) {
    dot.classList.toggle("here", dot.dataset.at === String(view.at));
  }
}

// A variation says where it left its record, and leads back there.
function renderVariation(view) {
  const note = $("variation-note");
  note.hidden = !view.variation;
  if (!view.variation) return;
  const parent = state.records.find((r) => r.index === view.parent);
  const button = $("back-to-parent");
  button.textContent = `back to ${parent ? parent.title : "the record"} at move ${view.left_at}`;
  button.onclick = () => show(view.parent, view.left_at);
}

// An analysis answers for one position: shown beside another, it is dimmed and says which
// it is of; beside its own, its best move is drawn on the board.
function placeAnalysis(view) {
  const a = state.answered;
  const elsewhere = Boolean(a && view && (a.index !== view.index || a.at !== view.at));
  $("analysis-box").classList.toggle("stale", elsewhere);
  const note = $("analysis-elsewhere");
  note.hidden = !elsewhere;
  if (elsewhere) {
    const other = a.index !== view.index ? " of another record" : "";
    note.querySelector("span").textContent =
      `this analysis is of the position after move ${a.at}${other}, not of the one shown`;
    $("analysis-back").onclick = () => show(a.index, a.at);
  }
  drawBest(view, elsewhere);
}

async function drawBest(view, elsewhere) {
  const layer = $("best-mark");
  layer.replaceChildren();
  const a = state.answered;
  if (!a || elsewhere || !a.best.length || !view || !view.clickable) return;
  try {
    await loadCells();
  } catch (e) {
    return;  // the best move stays listed beside the board
  }
  const img = $("board");
  if (!img.complete || !img.naturalWidth) await new Promise((done) => img.addEventListener("load", done, { once: true }));
  if (state.view !== view || state.answered !== a || $("board").dataset.preview) return;
  const cells = view.cells && view.cells.moves[a.best[0]];
  if (!cells || !cells.length) return;
  markCells(layer, img, cells.map((name) => view.cells.cells[name]).filter(Boolean));
  layer.dataset.move = a.best[0];
}

function renderMoves(view) {
  const list = $("moves");
  // a step within the same list moves the mark alone (rebuilding 60 items and scrolling
  // costs more than the rest of a step)
  const key = `${view.index}:${view.moves.length}:${(state.graphs[view.index] || {}).run || 0}`;
  if (list.dataset.key === key) {
    markCurrent(list, view.at);
    return;
  }
  list.dataset.key = key;
  list.replaceChildren();
  const start = element("li", "start");
  start.dataset.at = "0";
  list.append(start);
  const reviews = state.reviews[view.index] || {};
  view.moves.forEach((m, i) => {
    const li = element("li", m);
    li.dataset.at = String(i + 1);
    const r = reviews[i + 1];
    if (r && r.loss !== null) {
      const lost = r.loss > 1e-9;
      const value = r.estimate ? `~${Number(r.loss).toFixed(1)}` : String(r.loss);
      li.append(element("span", lost ? `  lost ${value} (best ${r.best})` : "  best", "review"));
      if (lost) li.classList.add("lost");
    }
    list.append(li);
  });
  markCurrent(list, view.at);
}

function markCurrent(list, at) {
  for (const li of list.querySelectorAll("li.current")) li.classList.remove("current");
  const current = list.children[at];
  if (!current) return;
  current.classList.add("current");
  const box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
  if (item.top < box.top || item.bottom > box.bottom) current.scrollIntoView({ block: "nearest" });
}

function renderScore(view) {
  const box = $("score");
  box.replaceChildren();
  if (!view.score) {
    box.textContent = view.score_error || "no score";
    return;
  }
  const table = element("table", undefined, "score");
  for (const [key, value] of Object.entries(view.score)) {
    const row = element("tr");
    row.append(element("th", key));
    const cell = element("td");
    cell.append(scoreValue(value));
    row.append(cell);
    table.append(row);
  }
  box.append(table);
}

const isScalar = (v) => v === null || typeof v !== "object";
const scalarText = (v) => v === null ? "—" : typeof v === "boolean" ? (v ? "yes" : "no") : String(v);
const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// A score's field as people read it: a list of plain values as a line, records (each
// colour's counts, each street or board) as a table with a column per field, a mapping of
// plain values (money by player) as "key value" pairs, anything else as a table of its
// fields.
function scoreValue(value) {
  if (isScalar(value)) return document.createTextNode(scalarText(value));
  if (Array.isArray(value) && value.every(isScalar)) {
    return document.createTextNode(value.length ? value.map(scalarText).join(", ") : "none");
  }
  const listed = Array.isArray(value);
  const rows = listed ? value.map((v) => [null, v]) : Object.entries(value);
  const table = element("table", undefined, "score nested");
  if (rows.length && rows.every(([, v]) => isRecord(v))) {
    const columns = [...new Set(rows.flatMap(([, v]) => Object.keys(v)))];
    const head = element("tr");
    if (!listed) head.append(element("th"));
    for (const c of columns) head.append(element("th", c));
    table.append(head);
    for (const [key, v] of rows) {
      const tr = element("tr");
      if (!listed) tr.append(element("th", key));
      for (const c of columns) {
        const td = element("td");
        td.append(scoreValue(v[c] === undefined ? null : v[c]));
        tr.append(td);
      }
      table.append(tr);
    }
    return table;
  }
  if (!listed && rows.every(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)))) {
    // an empty list is "none": both players holding no tokens read "blue ; red" (#48)
    const empty = (v) => Array.isArray(v) && !v.length;
    if (rows.every(([, v]) => empty(v))) return document.createTextNode("none");
    const line = rows.map(([k, v]) => `${k} ${empty(v) ? "none" :
      Array.isArray(v) ? v.map(scalarText).join(", ") : scalarText(v)}`);
    return document.createTextNode(line.join("; "));
  }
  rows.forEach(([key, v], i) => {
    const tr = element("tr");
    tr.append(element("th", key === null ? String(i + 1) : key));
    const td = element("td");
    td.append(scoreValue(v));
    tr.append(td);
    table.append(tr);
  });
  return table;
}

function renderLegal(view) {
  const legal = view.legal;
  $("to-move").textContent = legal.to_move === null ? "The game is over." :
    `${legal.to_move} to move${legal.at_once ? ", at once" : ""}`;
  const sees = $("sees");
  sees.replaceChildren();
  for (const [k, v] of Object.entries(legal.sees || {})) {
    sees.append(element("dt", k), element("dd", v));
  }
  $("legal-note").textContent = legal.note || "";
  $("move-help").textContent = view.move_help || "";
  const playable = view.playable && !view.finished;
  $("move-input").disabled = !playable;
  $("play").disabled = !playable;
  $("engine-box").hidden = !view.engine;
  if ($("engine-note").dataset.at !== `${view.index}:${view.at}` && !state.thinking) {
    $("engine-note").textContent = "";  // it spoke of another position
  }
  $("engine-move").disabled = !playable || state.thinking;
  renderParts(view, playable);
  renderPieces(view);
  listLegal();
}

// -- moves by clicks on the board (where the face says where its moves fall) -------------

// The cell of picture `img` under the pointer: `cells` maps each cell's name to where the
// picture draws it ([x, y, width, height] in the picture's own pixels).
function cellUnder(event, img, cells) {
  if (!cells || !img.naturalWidth) return null;
  const box = img.getBoundingClientRect();
  const x = (event.clientX - box.left) * img.naturalWidth / box.width;
  const y = (event.clientY - box.top) * img.naturalHeight / box.height;
  for (const [name, [cx, cy, w, h]] of Object.entries(cells)) {
    if (x >= cx && x < cx + w && y >= cy && y < cy + h) return name;
  }
  return null;
}

// Marks in `layer` over the boxes ([x, y, width, height], the picture's pixels) of `img`.
function markCells(layer, img, boxes) {
  layer.replaceChildren();
  const scale = img.clientWidth / img.naturalWidth;
  for (const [x, y, w, h] of boxes) {
    const mark = element("div");
    mark.style.left = `${img.offsetLeft + x * scale}px`;
    mark.style.top = `${img.offsetTop + y * scale}px`;
    mark.style.width = `${w * scale}px`;
    mark.style.height = `${h * scale}px`;
    layer.append(mark);
  }
}

function cellAt(event) {
  const view = state.view;
  return view && view.cells ? cellUnder(event, $("board"), view.cells.cells) : null;
}

function pickedMoves() {
  const view = state.view;
  if (!view || !view.cells || !state.picked.length) return null;
  return Object.entries(view.cells.moves)
    .filter(([, cells]) => state.picked.every((c) => cells.includes(c)))
    .map(([move]) => move);
}

function showPicked() {
  const layer = $("picked");
  layer.replaceChildren();
  const view = state.view;
  const note = $("pick-note");
  if (!view || !view.cells || !state.picked.length) {
    note.hidden = true;
    return;
  }
  markCells(layer, $("board"), state.picked.map((name) => view.cells.cells[name]));
  const fits = pickedMoves();
  note.hidden = false;
  note.textContent = fits.length === 0 ? "no legal move covers every place picked: click one again to drop it" :
    fits.length === 1 ? `one legal move: ${fits[0]} (Play, or click on)` :
    `${fits.length} legal moves cover the places picked: pick more, or choose one in the list`;
}

async function loadCells() {
  const view = state.view;
  if (!view || !view.clickable || view.cells) return;
  const body = await api(`/api/records/${view.index}/cells?move=${view.at}`);
  if (state.view === view) view.cells = body.cells;
}

async function pick(event) {
  const view = state.view;
  if (!view || !view.clickable || !view.playable || view.finished) return;
  try {
    await loadCells();
  } catch (e) {
    say(e.message);
    return;
  }
  if (state.view !== view || !view.cells) return;
  const name = cellAt(event);
  if (name === null) return;
  const at = state.picked.indexOf(name);
  if (at >= 0) state.picked.splice(at, 1); else state.picked.push(name);
  const fits = pickedMoves() || [];
  const exact = fits.filter((m) => view.cells.moves[m].length === state.picked.length);
  const chosen = fits.length === 1 ? fits[0] : exact.length === 1 ? exact[0] : "";
  if (!partsMode()) {
    $("move-input").value = chosen;
  } else if (chosen && exact.includes(chosen)) {
    // players moving at once: a whole part picked goes in its player's box (the first empty
    // one when both could make it), and the places are free for the other player's part
    const groups = Array.isArray(view.legal.moves) ? [] :
      Object.entries(view.legal.moves).filter(([, ms]) => ms.includes(chosen)).map(([g]) => g);
    fillPart(chosen, groups.length === 1 ? groups[0] : undefined);
    state.picked = [];
  }
  showPicked();
  listLegal();
}

// -- moves by a piece put down on the board (the face's move_pieces) -----------------------

// The piece chosen is an index into the shown position's `pieces` and one of its images;
// a placement is played as the legal move covering exactly its squares, or, when none does,
// written out for the rules to say why it is not a move.

function renderPieces(view) {
  state.piece = null;
  state.image = 0;
  const pieces = view.pieces || [];
  const on = pieces.length > 0 && view.playable && !view.finished;
  $("piece-box").hidden = !on;
  const list = $("play-pieces");
  list.replaceChildren();
  const several = new Set(pieces.map((p) => p.color)).size > 1;
  if (on) {
    pieces.forEach((p, i) => {
      const b = element("button", several ? `${p.color} ${p.name}` : p.name);
      b.type = "button";
      b.dataset.index = String(i);
      b.dataset.name = p.name;
      b.style.borderColor = p.color;
      b.disabled = !p.playable;
      b.title = p.playable ? `${p.color} ${p.name}` : `${p.color} ${p.name}: no legal placement now`;
      list.append(b);
    });
  }
  showPiece();
}

function chosenPiece() {
  const view = state.view;
  return view && state.piece !== null ? view.pieces[state.piece] : null;
}

async function choosePlayPiece(i) {
  state.piece = state.piece === i ? null : i;
  state.image = 0;
  for (const b of document.querySelectorAll("#play-pieces button")) {
    b.classList.toggle("current", Number(b.dataset.index) === state.piece);
  }
  if (state.piece !== null && state.picked.length) {
    state.picked = [];
    showPicked();
    listLegal();
  }
  showPiece();
  try {
    await loadCells();
  } catch (e) {
    say(e.message);
  }
}

function showPiece() {
  const p = chosenPiece();
  $("piece-turn").disabled = !p;
  $("piece-flip").disabled = !p;
  $("piece-preview").replaceChildren();
  drawShape($("piece-shape"), p && p.orientations[state.image]);
}

function turnPlayPiece(over) {
  const p = chosenPiece();
  if (!p) return;
  state.image = turned(state.image, p.orientations.length, over);
  showPiece();
}

// The squares the chosen piece covers with its middle on the square under the pointer
// (named as the face names cells, "row,col"), or null off the board.
function pieceCells(event) {
  const p = chosenPiece();
  const view = state.view;
  if (!p || !view || !view.cells) return null;
  const name = cellAt(event);
  if (name === null) return null;
  const [r0, c0] = name.split(",").map(Number);
  return p.orientations[state.image].map(([r, c]) => `${r0 + r},${c0 + c}`);
}

function previewPiece(event) {
  const names = pieceCells(event);
  const layer = $("piece-preview");
  if (!names) { layer.replaceChildren(); return; }
  const boxes = state.view.cells.cells;
  markCells(layer, $("board"), names.map((n) => boxes[n]).filter(Boolean));
}

function placePiece(event) {
  const p = chosenPiece();
  const names = pieceCells(event);
  if (!p || !names) return;
  const cells = state.view.cells;
  if (names.some((n) => !(n in cells.cells))) {
    say(`${p.name} does not fit on the board there: part of it would lie off the board`);
    return;
  }
  // the same squares in another colour are another move (three City Blocks players
  // place green too): a move that names its piece must name this one
  const key = [...names].sort().join(" ");
  const legal = Object.entries(cells.moves).find(([m, cs]) => (!p.prefix || m.startsWith(p.prefix))
    && cs.length === names.length && [...cs].sort().join(" ") === key);
  play(legal ? legal[0] : p.prefix + names.map((n) => (cells.texts || {})[n] || n).join(" "));
}

function pieceKeys(event) {
  if (state.piece === null || typing(event) || document.querySelector("main").hidden) return false;
  const key = event.key.toLowerCase();
  if (key === "r" || key === "f") turnPlayPiece(key === "f");
  else if (event.key === "Escape") choosePlayPiece(state.piece);
  else return false;
  event.preventDefault();
  return true;
}

// -- moves made at once: one part per player, joined by the game ---------------------------

function partsMode() {
  const view = state.view;
  return Boolean(view && view.at_once_players && view.legal.at_once && view.playable && !view.finished);
}

function renderParts(view, playable) {
  const box = $("parts");
  box.replaceChildren();
  const on = partsMode();
  box.hidden = !on;
  $("move-input").hidden = on;
  if (!on) return;
  for (const player of view.at_once_players) {
    const label = element("label", `${player}'s part `);
    const input = element("input");
    input.className = "part";
    input.dataset.player = player;
    input.autocomplete = "off";
    input.disabled = !playable;
    input.addEventListener("focus", () => { state.partFocus = player; });
    label.append(input);
    box.append(label);
  }
  hintParts();
}

function fillPart(move, group) {
  const slots = [...document.querySelectorAll("#parts input.part")];
  const target = (group && slots.find((s) => s.dataset.player === group))
    || slots.find((s) => !s.value.trim())
    || slots.find((s) => s.dataset.player === state.partFocus) || slots[0];
  target.value = move;
}

function listLegal() {
  const view = state.view;
  if (!view) return;
  const box = $("legal");
  box.replaceChildren();
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const picked = pickedMoves();
  const fits = (m) => words.every((w) => m.toLowerCase().includes(w)) && (!picked || picked.includes(m));
  const groups = Array.isArray(view.legal.moves) ? { "": view.legal.moves } : view.legal.moves;
  let shown = 0, found = 0;
  for (const [name, moves] of Object.entries(groups)) {
    if (name) box.append(element("h3", `${name}'s moves`));
    for (const m of moves) {
      if (!fits(m)) continue;
      found += 1;
      if (shown >= SHOWN) continue;
      shown += 1;
      const b = element("button", m);
      b.type = "button";
      b.dataset.move = m;
      if (name) b.dataset.group = name;
      b.title = "click: put in the move box; double-click: play";
      box.append(b);
    }
  }
  const total = view.legal.count;
  $("legal-count").textContent = `${total} legal move${total === 1 ? "" : "s"}` +
    (words.length ? `, ${found} fit the filter` : "") + (found > shown ? `, the first ${shown} listed` : "");
}

async function play(text, parts) {
  const view = state.view;
  if (!view) return;
  if (state.thinking) {  // the engine's move comes first: a move now would not be answered
    say("the engine is thinking: play once its move is shown", "info");
    return;
  }
  const engines = engineAnswersPart(parts);
  if (engines !== null) {  // the engine makes the part left empty, from the position before
    const given = Object.fromEntries(Object.entries(parts).filter(([p]) => p !== engines));
    say("");
    await engineMove(engines, given);
    return;
  }
  try {
    const next = await api(`/api/records/${view.index}/play`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(parts ? { move: view.at, parts } : { move: view.at, text }),
    });
    if (next.index !== view.index) {
      await loadRecords(next.index);
      say(`a new variation: ${next.title} (in memory; download it to keep it)`, "info");
    } else {
      say("");
    }
    $("move-input").value = "";
    render(next);
  } catch (e) {
    say(e.message);
    return;
  }
  // a move made at once with every part given has nothing left to answer
  if ($("engine-answers").checked && state.view.engine && state.view.legal.to_move !== null
      && !parts) {
    await engineMove();
  }
}

// In a game against the engine whose players move at once: the player whose part the
// person left empty, the others given (the engine makes that part), else null.
function engineAnswersPart(parts) {
  if (!parts || !$("engine-answers").checked || !state.view.engine) return null;
  const empty = Object.keys(parts).filter((p) => !parts[p].trim());
  return empty.length === 1 && Object.keys(parts).length > 1 ? empty[0] : null;
}

// The part boxes say which one the engine makes once it answers.
function hintParts() {
  const answering = $("engine-answers").checked && state.view && state.view.engine;
  for (const s of document.querySelectorAll("#parts input.part")) {
    s.placeholder = answering ? "leave empty: the engine's part" : "";
  }
}

// The engine player makes the next move of the position shown (a game against it: tick
// "the engine answers my moves"); the server finds and plays it, and says what it rests on.
// In a game whose players move at once it makes the whole move, or only `player`'s part,
// chosen from the position before the move, played with the person's other `parts`.
async function engineMove(player = null, parts = null) {
  const view = state.view;
  if (!view || state.thinking) return;
  const seconds = Number($("engine-seconds").value) || 2;
  state.thinking = true;
  $("engine-move").disabled = true;
  $("engine-note").textContent = `the engine is thinking (${seconds} s)…`;
  try {
    const next = await api(`/api/records/${view.index}/engine`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(player ? { move: view.at, seconds, player, parts }
        : { move: view.at, seconds }),
    });
    if (next.index !== view.index) await loadRecords(next.index);
    state.thinking = false;
    render(next);
    const e = next.engine;
    const value = e.value === null ? "" : `, value ${e.value >= 0 ? "+" : ""}${e.value} for ${e.value_for}`;
    const how = e.note ? `, ${e.note}` : "";
    $("engine-note").textContent = `engine (${e.mover}) played ${e.text}${how}: ${e.label}${value}`;
    $("engine-note").dataset.exact = String(e.exact);
    $("engine-note").dataset.at = `${next.index}:${next.at}`;
  } catch (e) {
    state.thinking = false;
    $("engine-note").textContent = "";
    say(e.message);
  } finally {
    if (state.view) $("engine-move").disabled = !(state.view.playable && !state.view.finished);
  }
}

function step(to) {
  const view = state.view;
  if (!view) return;
  const n = view.moves.length;
  const at = Math.max(0, Math.min(n, to));
  if (at !== view.at) show(view.index, at);
}

// -- analysis -----------------------------------------------------------------------------

async function analyse(whole) {
  const view = state.view;
  if (!view || state.job) return;
  const seconds = Number($("seconds").value) || 10;
  const mode = whole ? "record" : ($("mode").value || "exact");
  $("analysis-report").textContent = "";
  $("analysis-summary").replaceChildren();
  $("best").replaceChildren();
  $("analysis-details").hidden = true;
  $("analysis-state").classList.remove("estimate");
  state.answered = null;
  placeAnalysis(view);
  try {
    const body = await api(`/api/records/${view.index}/analysis`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ move: view.at, seconds, tab: TAB, mode }),
    });
    state.job = { id: body.job, index: view.index, at: view.at, mode };
    $("stop").disabled = false;
    $("analyse").disabled = true;
    $("analyse-record").disabled = true;
    $("analysis-state").textContent = whole ? `analysing every move of ${view.title}…` :
      `analysing move ${view.at} of ${view.title}…`;
    state.poll = setInterval(pollAnalysis, 500);
  } catch (e) {
    say(e.message);
  }
}

async function pollAnalysis() {
  const job = state.job;
  if (!job) return;
  try {
    const r = await api(`/api/analysis/${job.id}`);
    const where = job.mode === "record" ? "record" : `position after move ${job.at}`;
    if (r.state === "running") {
      $("analysis-state").textContent = `analysing the ${where}: ${r.seconds} s of ${r.limit} s` +
        (r.progress ? ` — ${r.progress}` : "");
      // the bar fills with the time limit, which holds: the answer comes by its end
      const bar = $("analysis-progress");
      bar.hidden = false;
      bar.value = r.limit ? Math.min(1, r.seconds / r.limit) : 0;
      bar.title = r.progress || `${r.seconds} s of ${r.limit} s`;
      return;
    }
    endAnalysis();
    showAnswer(r, job, where);
  } catch (e) {
    endAnalysis();
    say(e.message);
  }
}

function showAnswer(r, job, where) {
  const a = r.answer;
  if (job.mode === "record") {
    state.answered = null;  // the record's reviews are written in its move list
    showReviews(r, job, where);
    return;
  }
  state.answered = { index: job.index, at: job.at, mode: job.mode,
                     best: job.mode === "bounds" ? [] : (r.best || []) };
  placeAnalysis(state.view);
  if (job.mode === "bounds") {
    showBounds(r, where);
    return;
  }
  // an answer says what it is: one that is not the game's value names what it is instead
  // (Walkable Cities' one-round horizon), and a view with every hand known is exact
  const horizon = Boolean(a && a.exact === false && typeof a.label === "string");
  const estimated = !horizon && (a ? a.kind !== "exact" &&
    (job.mode === "view" || /estimate/.test(String(a.kind || "") + String(a.note || ""))) :
    job.mode === "view");
  const label = horizon ? ` — ${a.label}, not the game's value` :
    estimated ? " — an estimate, not the game's value" :
    job.mode === "open" ? " — exact for the hidden tiles or cards as dealt, only" :
    r.code === 0 ? " — exact" : "";
  const stateLine = $("analysis-state");
  stateLine.textContent = r.state === "done" ? `the ${where}: ${r.outcome}${label}` : `${r.why}`;
  stateLine.classList.toggle("estimate", estimated || horizon);
  const summary = $("analysis-summary");
  summary.replaceChildren();
  const line = (text) => summary.append(element("p", text));
  if (a) {
    if (a.value !== undefined && a.value !== null) line(`value ${a.value}` + (a.lead ? ` (${a.lead})` : ""));
    if (a.values && typeof a.values === "object") {
      // with 3 or 4 players a value is the final score that player can make sure of, the
      // others playing against it; with 2, the lead named by "lead"
      const what = a.mode === "max-own" ?
        "the final score each can make sure of, the others playing against it: " : "values: ";
      line(what + Object.entries(a.values).map(([k, v]) => `${k} ${v}`).join(", "));
    }
    for (const key of ["outcome", "kind", "label", "reason", "note", "meaning"]) {
      if (typeof a[key] === "string" && a[key] !== a.lead) line(`${key}: ${a[key]}`);
    }
    if (a.over) line("the game is over");
    $("analysis-report").textContent = JSON.stringify(a, null, 1);
  } else {
    $("analysis-report").textContent = r.report || (r.notes || []).join("\n");
    line(r.report ? r.report.split("\n")[0] : "");
  }
  $("analysis-details").hidden = !$("analysis-report").textContent;
  const best = $("best");
  best.replaceChildren();
  if ((r.best || []).length) {
    best.append(element("p", estimated ? "best by this estimate:" : "best move" + (r.best.length > 1 ? "s" : "") + ":"));
  }
  for (const m of (r.best || []).slice(0, 12)) {
    const row = element("div");
    row.append(element("code", m + " "));
    const showIt = element("button", "show on the board");
    showIt.type = "button";
    showIt.className = "show-best";
    showIt.addEventListener("click", () => preview(job.index, job.at, m));
    const playIt = element("button", "play it");
    playIt.type = "button";
    playIt.className = "play-best";
    playIt.addEventListener("click", async () => { await show(job.index, job.at); await play(m); });
    row.append(showIt, playIt);
    best.append(row);
  }
}

// A bound the search did not prove tight is marked "?", as 'polytile bounds' prints it.
function bound(value, proven) {
  return `${value}${proven ? "" : "?"}`;
}

function showBounds(r, where) {
  const a = r.answer || {};
  const stateLine = $("analysis-state");
  stateLine.classList.remove("estimate");
  const guessed = Object.values(a.colors || {}).some((b) => b.estimate);
  stateLine.textContent = r.state === "done" ? `the ${where}: ${r.outcome} — proven bounds ` +
    "(? marks one not proven tight)" + (guessed ? "; ~ an estimate between them, not a bound" :
    "") : `${r.why}`;
  const summary = $("analysis-summary");
  summary.replaceChildren();
  const table = element("table");
  table.className = "bounds";
  // Blokus bounds squares placed and gives the scores they mean: one column for each,
  // never both in one cell
  const squares = Object.values(a.colors || {}).some((b) => b.score_upper !== undefined);
  const heads = squares ? ["colour", "score now", "can still reach (squares)", "(score)",
                           "can make sure of (squares)", "(score)", "exact score"] :
    ["colour", "now", "can still reach", "can make sure of", "exact", "estimate"];
  const head = element("tr");
  for (const h of heads) head.append(element("th", h));
  table.append(head);
  for (const [color, b] of Object.entries(a.colors || {})) {
    const row = element("tr");
    const exact = b.exact === null || b.exact === undefined ? "—" : String(b.exact);
    const cells = squares ?
      [color, String(b.score_now), bound(b.upper, b.upper_proven), String(b.score_upper),
       bound(b.can_ensure, b.can_ensure_proven), String(b.score_can_ensure), exact] :
      [color, String(b.score_now), bound(b.upper, b.upper_proven),
       bound(b.can_ensure, b.can_ensure_proven), exact];
    for (const c of cells) row.append(element("td", c));
    if (!squares) {
      // an estimate between the bounds (City Blocks), never a bound: "~", its basis on hover
      const guess = element("td", b.estimate ? `~${b.estimate.value.toFixed(1)}` : "—");
      if (b.estimate) {
        guess.className = "estimate";
        guess.title = b.estimate.note;
      }
      row.append(guess);
    }
    table.append(row);
  }
  // every colour asked for has a row: one not bounded says why in it
  for (const color of a.not_bounded || []) {
    const row = element("tr");
    row.append(element("td", color));
    const why = element("td", `not bounded: ${a.reason}`);
    why.colSpan = heads.length - 1;
    row.append(why);
    table.append(row);
  }
  summary.append(table);
  $("analysis-report").textContent = r.answer ? JSON.stringify(a, null, 1) : r.report;
  $("analysis-details").hidden = !$("analysis-report").textContent;
  $("best").replaceChildren();
}

function showReviews(r, job, where) {
  const a = r.answer || {};
  const reviews = {};
  for (const review of r.reviews || []) reviews[review.number] = review;
  state.reviews[job.index] = reviews;
  // the graph's values are a lead (two players, or one side against the other); with 3
  // or 4 Blokus players each value is the mover's own, so there is no one line to draw
  const lead = a.lead || (a.mode === "difference" && (a.players || []).length === 2 ?
    `${a.players[0]}'s final score minus ${a.players[1]}'s` : "");
  // each answer a run number of its own: the move list and the graph redraw for a new
  // answer even when it reviews as many moves as the last one did
  state.runs = (state.runs || 0) + 1;
  state.graphs[job.index] = lead ? { lead, reviews: r.reviews || [], run: state.runs } :
    { lead: "", note: "with 3 or 4 players a value is the mover's own score, not one lead: no graph",
      reviews: [], run: state.runs };
  const estimates = (r.reviews || []).some((x) => x.estimate);
  const stateLine = $("analysis-state");
  stateLine.textContent = r.state === "done" ? `the ${where}: ${r.outcome}` +
    (estimates ? " — some values are estimates (~), not exact" : "") : `${r.why}`;
  stateLine.classList.toggle("estimate", estimates);
  const summary = $("analysis-summary");
  summary.replaceChildren();
  const total = a.total_moves === undefined ? "?" : a.total_moves;
  summary.append(element("p", `${(r.reviews || []).length} of ${total} moves analysed; what each lost is in the move list`));
  if (a.lead) summary.append(element("p", `values are ${a.lead}`));
  for (const key of ["refused", "stopped"]) {
    if (typeof a[key] === "string") summary.append(element("p", `${key}: ${a[key]}`));
  }
  $("analysis-report").textContent = a ? JSON.stringify(a, null, 1) : r.report;
  $("analysis-details").hidden = !$("analysis-report").textContent;
  $("best").replaceChildren();
  if (state.view && state.view.index === job.index) {
    renderMoves(state.view);
    renderGraph(state.view);
  }
}

async function preview(index, at, text) {
  try {
    if (!state.view || state.view.index !== index || state.view.at !== at) await show(index, at);
    const p = await api(`/api/records/${index}/preview`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ move: at, text }),
    });
    if (state.picture) URL.revokeObjectURL(state.picture);
    state.picture = URL.createObjectURL(new Blob([p.svg], { type: "image/svg+xml" }));
    $("board").src = state.picture;
    $("board").dataset.preview = text;
    $("best-mark").replaceChildren();
    $("board-frame").classList.add("preview");
    const note = $("preview-note");
    note.textContent = `showing the board after ${text} (not played: step or play to leave)`;
    note.hidden = false;
  } catch (e) {
    say(e.message);
  }
}

function endAnalysis() {
  clearInterval(state.poll);
  state.poll = null;
  $("analysis-progress").hidden = true;
  state.job = null;
  $("stop").disabled = true;
  $("analyse").disabled = !(state.view && state.view.analysis.length);
  $("analyse-record").disabled = false;
}

async function stopAnalysis() {
  const job = state.job;
  if (!job) return;
  try {
    const r = await api(`/api/analysis/${job.id}`, { method: "DELETE" });
    $("analysis-state").textContent = r.why || "stopped";
  } catch (e) {
    say(e.message);
  }
  endAnalysis();
}

// -- puzzle sets --------------------------------------------------------------------------

const shelf = { stores: [], index: null, puzzle: null };

async function loadStores() {
  const body = await api("/api/stores");
  shelf.stores = body.stores;
  const list = $("stores");
  list.replaceChildren(element("option", "—"));
  list.firstChild.value = "";
  for (const s of shelf.stores) {
    const option = element("option", `${s.title} (${s.count} puzzles)`);
    option.value = String(s.index);
    list.append(option);
  }
  $("stores-label").hidden = !shelf.stores.length;
}

function showPanel(store) {
  document.querySelector("main").hidden = store;
  $("store-panel").hidden = !store;
  $("download").hidden = store;
}

async function openStore(index) {
  if (index === "") { showPanel(false); return; }
  const s = shelf.stores[Number(index)];
  shelf.index = s.index;
  showPanel(true);
  $("store-title").textContent = s.title;
  const kinds = $("store-kind");
  kinds.replaceChildren(element("option", "any"));
  kinds.firstChild.value = "";
  for (const k of s.kinds) {
    const option = element("option", k);
    option.value = k;
    kinds.append(option);
  }
  clearPuzzle();
  stopHand();
  await listPuzzles();
}

async function listPuzzles() {
  const q = new URLSearchParams();
  if ($("store-kind").value) q.set("kind", $("store-kind").value);
  if ($("store-min").value) q.set("min", $("store-min").value);
  if ($("store-max").value) q.set("max", $("store-max").value);
  try {
    const body = await api(`/api/stores/${shelf.index}/puzzles?${q}`);
    const table = $("store-list");
    table.replaceChildren();
    const head = element("tr");
    for (const h of ["id", "kind", "board", "pieces", "given", "difficulty"]) head.append(element("th", h));
    table.append(head);
    for (const p of body.puzzles) {
      const row = element("tr", undefined, "puzzle-row");
      row.dataset.id = String(p.id);
      for (const k of ["id", "kind", "board", "pieces", "given", "difficulty"]) {
        row.append(element("td", p[k] === undefined ? "?" : String(p[k])));
      }
      table.append(row);
    }
    $("store-count").textContent = `${body.total} puzzle${body.total === 1 ? "" : "s"}` +
      (body.total > body.puzzles.length ? `, the first ${body.puzzles.length} listed` : "");
  } catch (e) {
    say(e.message);
  }
}

function clearPuzzle() {
  for (const id of ["puzzle-caption", "puzzle-text", "puzzle-lead"]) $(id).textContent = "";
  $("puzzle-picture").replaceChildren();
  $("solution-picture").replaceChildren();
  $("reveal").hidden = true;
  $("solve-by-hand").hidden = true;
}

function picture(svg, label) {
  const img = element("img");
  img.alt = label;
  img.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  return img;
}

async function showPuzzle(id, solution) {
  try {
    const p = await api(`/api/stores/${shelf.index}/puzzles/${id}` + (solution ? "?solution=1" : ""));
    shelf.puzzle = p.id;
    clearPuzzle();
    if (solving.id !== p.id) stopHand();  // revealing the answer keeps the placements
    for (const row of document.querySelectorAll("#store-list tr.puzzle-row")) {
      row.classList.toggle("current", row.dataset.id === String(p.id));
    }
    $("puzzle-caption").textContent = `#${p.id}, difficulty ${p.difficulty.toFixed(1)}: ${p.caption}`;
    if (p.svg) $("puzzle-picture").append(picture(p.svg, "the puzzle"));
    $("puzzle-text").textContent = p.svg && !solution ? "" : p.text;
    if (p.solution_svg) $("solution-picture").append(picture(p.solution_svg, "the solution"));
    if (solution && p.answer_lead) $("puzzle-lead").textContent = `the value is ${p.answer_lead}`;
    if (solution) $("puzzle-lead").textContent += " (checked by the rules)";
    $("reveal").hidden = solution;
    $("solve-by-hand").hidden = !p.by_hand || solving.id === p.id;
    $("puzzle-picture").hidden = solving.id === p.id;
  } catch (e) {
    say(e.message);
  }
}

// -- a puzzle solved by hand --------------------------------------------------------------
// The placements are this tab's own list; the server checks all of them by the rules at each
// step and answers the board, or refuses with the rules' reasons (then nothing changes here).

const solving = { id: null, view: null, placed: [], piece: null, image: 0 };

function handPiece() {
  const view = solving.view;
  return view && solving.piece !== null ? view.pieces[solving.piece] : null;
}

async function sendHand(placed) {
  const id = solving.id;
  try {
    const view = await api(`/api/stores/${shelf.index}/puzzles/${id}/hand`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ placed }),
    });
    if (solving.id !== id) return;
    say("");
    solving.placed = placed;
    renderHand(view);
  } catch (e) {
    say(e.message);
  }
}

async function startHand() {
  solving.id = shelf.puzzle;
  solving.view = null;
  solving.piece = null;
  $("puzzle-picture").hidden = true;
  $("solve-by-hand").hidden = true;
  await sendHand([]);
  $("hand-box").hidden = solving.view === null;
}

function stopHand() {
  Object.assign(solving, { id: null, view: null, placed: [], piece: null, image: 0 });
  $("hand-box").hidden = true;
  $("puzzle-picture").hidden = false;
  $("hand-preview").replaceChildren();
}

function renderHand(view) {
  solving.view = view;
  const img = $("hand-board");
  if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
  img.dataset.url = URL.createObjectURL(new Blob([view.svg], { type: "image/svg+xml" }));
  img.src = img.dataset.url;
  img.dataset.placed = String(view.placed.length);
  const stateLine = $("hand-state");
  stateLine.classList.toggle("solved", view.solved);
  stateLine.textContent = view.solved
    ? "Solved: every piece is placed and the rules checker accepts the answer."
    : `${view.left} piece${view.left === 1 ? "" : "s"} to place (${view.placed.length} placed)`;
  if (solving.piece !== null && (view.solved || view.pieces[solving.piece].left === 0)) solving.piece = null;
  const list = $("hand-pieces");
  list.replaceChildren();
  view.pieces.forEach((p, i) => {
    const b = element("button", `${p.color ? p.color + " " : ""}${p.name} ×${p.left}`);
    b.type = "button";
    b.dataset.index = String(i);
    b.dataset.name = p.name;
    b.dataset.color = p.color || "";
    b.disabled = p.left === 0 || view.solved;
    if (p.color) b.style.borderColor = p.color;
    if (i === solving.piece) b.classList.add("current");
    list.append(b);
  });
  $("hand-undo").disabled = !view.placed.length;
  $("hand-clear").disabled = !view.placed.length;
  showHandPiece();
}

function choosePiece(i) {
  solving.piece = solving.piece === i ? null : i;
  solving.image = 0;
  for (const b of document.querySelectorAll("#hand-pieces button")) {
    b.classList.toggle("current", Number(b.dataset.index) === solving.piece);
  }
  showHandPiece();
}

// r turns a quarter: image 4f + j -> 4f + j + 1; f turns over: (f, j) -> (1 - f, -j)
// (a one-sided piece has the four images of f = 0 alone)
function turned(image, images, over) {
  const f = Math.floor(image / 4), j = image % 4;
  if (!over) return 4 * f + (j + 1) % 4;
  return images === 8 ? 4 * (1 - f) + (4 - j) % 4 : image;
}

// The piece's image `offsets` drawn square by square in the grid `box`.
function drawShape(box, offsets) {
  box.replaceChildren();
  if (!offsets) return;
  const top = Math.min(...offsets.map(([r]) => r)), left = Math.min(...offsets.map(([, c]) => c));
  for (const [r, c] of offsets) {
    const square = element("i");
    square.style.gridRow = String(r - top + 1);
    square.style.gridColumn = String(c - left + 1);
    box.append(square);
  }
}

function turnPiece(over) {
  const p = handPiece();
  if (!p) return;
  solving.image = turned(solving.image, p.orientations.length, over);
  showHandPiece();
}

function showHandPiece() {
  const p = handPiece();
  $("hand-turn").disabled = !p;
  $("hand-flip").disabled = !p || p.orientations.length < 8;
  $("hand-preview").replaceChildren();
  drawShape($("hand-shape"), p && p.orientations[solving.image]);
}

// The cells the chosen piece covers with its middle on the cell under the pointer.
function handCells(event) {
  const p = handPiece();
  const view = solving.view;
  if (!p || !view || view.solved) return null;
  const name = cellUnder(event, $("hand-board"), view.cells);
  if (name === null) return null;
  const [r0, c0] = name.split(",").map(Number);
  return p.orientations[solving.image].map(([r, c]) => [r0 + r, c0 + c]);
}

function previewHand(event) {
  const cells = handCells(event);
  const layer = $("hand-preview");
  if (!cells) { layer.replaceChildren(); return; }
  const boxes = solving.view.cells;
  markCells(layer, $("hand-board"), cells.map(([r, c]) => boxes[`${r},${c}`]).filter(Boolean));
}

function placeHand(event) {
  const cells = handCells(event);
  const p = handPiece();
  if (!cells || !p) return;
  sendHand([...solving.placed, { piece: p.name, color: p.color, cells }]);
}

function handKeys(event) {
  if ($("hand-box").hidden || $("store-panel").hidden || typing(event)) return false;
  const key = event.key.toLowerCase();
  if (key === "r" || key === "f") turnPiece(key === "f");
  else if (event.key === "Escape" && solving.piece !== null) choosePiece(solving.piece);
  else return false;
  event.preventDefault();
  return true;
}

// -- wiring -------------------------------------------------------------------------------

async function upload(file) {
  if (!file) return;
  try {
    const r = await api(`/api/upload?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file,
    });
    await loadRecords(r.index);
    say(`opened ${r.title}`, "info");
    await show(r.index, null);
  } catch (e) {
    say(e.message);
  }
  $("upload").value = "";
}

function typing(event) {
  const t = event.target;
  return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
}

document.addEventListener("DOMContentLoaded", async () => {
  $("first").addEventListener("click", () => step(0));
  $("prev").addEventListener("click", () => step(state.view.at - 1));
  $("next").addEventListener("click", () => step(state.view.at + 1));
  $("last").addEventListener("click", () => step(state.view.moves.length));
  $("records").addEventListener("change", (e) => { showPanel(false); show(Number(e.target.value), null); });
  $("moves").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li) step(Number(li.dataset.at));
  });
  $("legal").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b && partsMode()) fillPart(b.dataset.move, b.dataset.group);
    else if (b) { $("move-input").value = b.dataset.move; $("move-input").focus(); }
  });
  $("legal").addEventListener("dblclick", (e) => {
    const b = e.target.closest("button");
    if (b && !partsMode()) play(b.dataset.move);
  });
  $("filter").addEventListener("input", listLegal);
  $("board").addEventListener("click", (e) => (state.piece !== null ? placePiece(e) : pick(e)));
  $("board").addEventListener("mousemove", previewPiece);
  $("board").addEventListener("mouseleave", () => $("piece-preview").replaceChildren());
  $("play-pieces").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) choosePlayPiece(Number(b.dataset.index));
  });
  $("piece-turn").addEventListener("click", () => turnPlayPiece(false));
  $("piece-flip").addEventListener("click", () => turnPlayPiece(true));
  $("play-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (partsMode()) {
      const parts = {};
      for (const s of document.querySelectorAll("#parts input.part")) parts[s.dataset.player] = s.value;
      play(null, parts);
    } else {
      play($("move-input").value);
    }
  });
  $("engine-move").addEventListener("click", () => engineMove());
  $("engine-answers").addEventListener("change", hintParts);
  $("analysis-form").addEventListener("submit", (e) => { e.preventDefault(); analyse(false); });
  $("analyse-record").addEventListener("click", () => analyse(true));
  $("stop").addEventListener("click", stopAnalysis);
  $("upload").addEventListener("change", (e) => upload(e.target.files[0]));
  document.addEventListener("keydown", (e) => {
    // the record's keys only while its board is shown (not under the store panel)
    if (handKeys(e) || pieceKeys(e) || typing(e) || !state.view || document.querySelector("main").hidden) return;
    if (e.key === "Escape" && state.picked.length) {
      state.picked = [];
      showPicked();
      listLegal();
      return;
    }
    const moves = { ArrowLeft: state.view.at - 1, ArrowRight: state.view.at + 1,
                    Home: 0, End: state.view.moves.length }[e.key];
    if (moves !== undefined) { e.preventDefault(); step(moves); }
  });
  $("stores").addEventListener("change", (e) => openStore(e.target.value));
  $("records").addEventListener("focus", () => { if (!$("store-panel").hidden) showPanel(false); });
  $("store-filter").addEventListener("submit", (e) => { e.preventDefault(); listPuzzles(); });
  $("store-list").addEventListener("click", (e) => {
    const row = e.target.closest("tr.puzzle-row");
    if (row) showPuzzle(Number(row.dataset.id), false);
  });
  $("reveal").addEventListener("click", () => showPuzzle(shelf.puzzle, true));
  $("solve-by-hand").addEventListener("click", startHand);
  $("hand-pieces").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) choosePiece(Number(b.dataset.index));
  });
  $("hand-turn").addEventListener("click", () => turnPiece(false));
  $("hand-flip").addEventListener("click", () => turnPiece(true));
  $("hand-undo").addEventListener("click", () => sendHand(solving.placed.slice(0, -1)));
  $("hand-clear").addEventListener("click", () => sendHand([]));
  $("hand-board").addEventListener("mousemove", previewHand);
  $("hand-board").addEventListener("mouseleave", () => $("hand-preview").replaceChildren());
  $("hand-board").addEventListener("click", placeHand);
  try {
    await loadStores();
    await loadRecords();
    if (state.records.length) await show(0, null);
    else if (shelf.stores.length) { $("stores").value = "0"; await openStore("0"); }
  } catch (e) {
    say(e.message);
  }
});
