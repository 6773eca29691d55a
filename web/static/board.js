// The analysis board: moves played by clicking (the legal moves come from the server's Python
// Board), a position set up from a FEN or with the piece palette, the built-in engine thinking
// for a bounded time with its line shown as it deepens, and the line downloaded as PDN.
// Nothing it does is written to the database.

let h = null; // the page's helpers: { $, el, getJSON, showMessage }
const ab = {
  variant: null,
  fen: null, // the position the line starts from
  moves: [], // the moves played from it, as written
  position: null, // the server's answer for the position reached: fen, turn, moves, ended
  selected: null, // { from, clicked: [] } while a move is being chosen
  piece: "", // the palette's choice: "" plays moves, else wm, wk, bm, bk or empty
  flip: false,
  client: Math.random().toString(36).slice(2, 12) + Date.now().toString(36),
  search: null, // the engine's last answer
  timer: null,
  token: 0,
  drawn: 0, // the board drawings asked for: only the last is shown
  pending: null, // the path of the move being played, drawn once its position is shown
};

export function initAnalysisBoard(helpers) {
  h = helpers;
  const { $ } = h;
  $("#ab-board").addEventListener("click", (event) => clickSquare(event));
  $("#ab-undo").addEventListener("click", () => {
    if (ab.moves.length) setLine(ab.fen, ab.moves.slice(0, -1));
  });
  $("#ab-flip").addEventListener("click", () => {
    ab.flip = !ab.flip;
    drawBoard();
  });
  $("#ab-set").addEventListener("click", () => setLine($("#ab-fen").value.trim(), []));
  $("#ab-start").addEventListener("click", () => setLine(null, []));
  $("#ab-turn").addEventListener("click", () => {
    const fen = parseFen(ab.position.fen);
    fen.turn = fen.turn === "W" ? "B" : "W";
    setLine(writeFen(fen), []);
  });
  $("#ab-variant").addEventListener("change", (event) => {
    location.hash = `#/analyse?variant=${encodeURIComponent(event.target.value)}`;
  });
  for (const button of document.querySelectorAll("#ab-palette button")) {
    button.addEventListener("click", () => {
      ab.piece = button.dataset.piece;
      for (const b of document.querySelectorAll("#ab-palette button")) b.setAttribute("aria-pressed", String(b === button));
      ab.selected = null;
      drawBoard();
    });
  }
  $("#ab-think").addEventListener("click", think);
  $("#ab-stop").addEventListener("click", () => {
    h.getJSON("/api/thought", { client: ab.client, stop: 1 }).then(showSearch).catch((e) => h.showMessage(e.message));
  });
}

export async function openAnalysis(variant, fen, names) {
  const select = h.$("#ab-variant");
  if (!select.options.length) for (const name of names) select.append(h.el("option", { value: name }, name));
  select.value = variant;
  if (ab.variant !== variant || (fen && fen !== ab.fen) || !ab.position) {
    ab.variant = variant;
    await setLine(fen || null, []);
  }
}

async function setLine(fen, moves) {
  const token = ++ab.token;
  try {
    const position = await h.getJSON("/api/legal", { variant: ab.variant, fen: fen || "", moves: moves.join(" ") });
    if (token !== ab.token) return;
    if (!fen && !moves.length) fen = position.fen;
    ab.fen = fen;
    ab.moves = moves;
    ab.position = position;
    ab.selected = null;
    lastPath = ab.pending;
    ab.pending = null;
    h.showMessage("");
    render();
  } catch (error) {
    h.showMessage(error.message);
  }
}

function render() {
  const { $, el } = h;
  const p = ab.position;
  $("#ab-fen").value = p.fen;
  const side = p.turn === "white" ? "White" : "Black";
  const other = side === "White" ? "Black" : "White";
  const count = `${p.moves.length} legal move${p.moves.length === 1 ? "" : "s"}`;
  let status = p.ended === "win" ? `${side} has no legal move: ${other} wins.`  // as the game view says it
    : p.ended ? `The game is over here (${p.ended}).` : `${side} to move: ${count}.`;
  if (ab.piece) status = "Setting up: click a square to put the palette's piece there.";
  else if (ab.selected) status = chooseText();
  $("#ab-status").textContent = status;
  $("#ab-legal").replaceChildren(
    ...p.moves.map((m) => el("button", { class: "move legal-move", dataset: { move: m.text }, onclick: () => play(m) }, m.text)),
  );
  const line = ab.moves.map((text, i) =>
    el("button", { class: `move${i === ab.moves.length - 1 ? " current" : ""}`, onclick: () => setLine(ab.fen, ab.moves.slice(0, i + 1)) }, text));
  $("#ab-line").replaceChildren(
    el("button", { class: "link", onclick: () => setLine(ab.fen, []) }, "start"), " ", ...line.flatMap((b) => [b, " "]));
  updateDownload();
  drawBoard();
}

function chooseText() {
  const found = matching();
  if (found.length > 1) return `${found.length} moves: click a square the piece lands on, or choose below.`;
  return `${ab.selected.from}: click where it goes.`;
}

async function drawBoard() {
  const { $ } = h;
  const p = ab.position;
  if (!p) return;
  const params = new URLSearchParams({ variant: ab.variant, fen: p.fen, flip: ab.flip ? "1" : "0" });
  if (ab.selected) params.set("marks", [ab.selected.from, ...ab.selected.clicked].join(","));
  const last = lastMovePath();
  if (last) params.set("path", last.join(","));
  const box = $("#ab-board");
  const token = ++ab.drawn;
  const moves = ab.moves.length;
  box.setAttribute("aria-busy", "true");
  const response = await fetch(`/api/board?${params}`);
  if (!response.ok) return h.showMessage((await response.json()).error);
  const svg = await response.text();
  if (token !== ab.drawn) return; // a later drawing is on its way
  box.innerHTML = svg; // our own SVG drawing, served by this server
  box.dataset.fen = p.fen;
  box.dataset.moves = String(moves);
  box.setAttribute("aria-busy", "false");
}

let lastPath = null;
function lastMovePath() {
  return ab.moves.length ? lastPath : null;
}

function squareAt(event) {
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    const square = node.dataset && (node.dataset.square || node.dataset.cell); // a piece, a square
    if (square) return square;
  }
  return null;
}

// The legal moves the squares clicked so far fit: from the selected square, through every
// square clicked after it.
function matching() {
  if (!ab.selected) return [];
  const { from, clicked } = ab.selected;
  return ab.position.moves.filter((m) => m.path[0] === from && clicked.every((s) => m.path.slice(1).includes(s)));
}

function clickSquare(event) {
  const square = squareAt(event);
  if (!square || !ab.position) return;
  if (ab.piece) return putPiece(square);
  const starts = ab.position.moves.some((m) => m.path[0] === square);
  if (!ab.selected || square === ab.selected.from) {
    ab.selected = starts && (!ab.selected || square !== ab.selected.from) ? { from: square, clicked: [] } : null;
    return render();
  }
  const before = ab.selected.clicked;
  ab.selected.clicked = [...before, square];
  const found = matching();
  if (!found.length) {
    ab.selected = starts ? { from: square, clicked: [] } : null;
    return render();
  }
  const ends = found.filter((m) => ab.selected.clicked.includes(m.path[m.path.length - 1]));
  if (found.length === 1 && ends.length === 1) return play(found[0]);
  const samePath = ends.length > 1 && ends.every((m) => m.path.join() === ends[0].path.join());
  if (ends.length === found.length && samePath) {
    h.$("#ab-status").textContent = "These moves go the same way: choose one below.";
    return;
  }
  render();
}

function play(move) {
  ab.pending = move.path;
  setLine(ab.fen, [...ab.moves, move.text]);
}

// -- setting up a position ---------------------------------------------------------------------

function parseFen(fen) {
  const [turn, ...sides] = fen.replace(/\.$/, "").split(":");
  const pieces = new Map();
  for (const side of sides) {
    const colour = side[0].toLowerCase();
    for (let item of side.slice(1).split(",").filter(Boolean)) {
      const king = item[0] === "K";
      if (king) item = item.slice(1);
      const range = /^(\d+)-(\d+)$/.exec(item);
      const squares = range ? Array.from({ length: range[2] - range[1] + 1 }, (_, i) => String(Number(range[1]) + i)) : [item];
      for (const s of squares) pieces.set(s, `${colour}${king ? "k" : "m"}`);
    }
  }
  return { turn: turn.toUpperCase(), pieces };
}

function writeFen({ turn, pieces }) {
  const side = (colour) =>
    [...pieces].filter(([, p]) => p[0] === colour).map(([s, p]) => (p[1] === "k" ? `K${s}` : s)).join(",");
  return `${turn}:W${side("w")}:B${side("b")}`;
}

function putPiece(square) {
  const fen = parseFen(ab.position.fen);
  if (ab.piece === "empty") fen.pieces.delete(square);
  else fen.pieces.set(square, ab.piece);
  setLine(writeFen(fen), []);
}

// -- the engine ---------------------------------------------------------------------------------

async function think() {
  clearTimeout(ab.timer);
  try {
    const seconds = h.$("#ab-seconds").value;
    const answer = await h.getJSON("/api/think", {
      variant: ab.variant, fen: ab.fen, moves: ab.moves.join(" "), client: ab.client, seconds,
    });
    showSearch(answer);
  } catch (error) {
    h.showMessage(error.message);
  }
}

function showSearch(answer) {
  const { $, el } = h;
  ab.search = answer;
  const lines = answer.lines;
  $("#ab-engine").replaceChildren(
    el("p", { class: "note" }, answer.done ? `Done after ${answer.seconds} s.` : `Thinking… ${answer.seconds} s`),
    ...lines.slice().reverse().map((l, i) =>
      el("div", { class: `engine-line${i === 0 ? " deepest" : ""}`, dataset: { depth: l.depth } },
        el("strong", {}, l.eval), ` depth ${l.depth} · `, el("span", { class: "pv" }, l.line.join(" ")))),
  );
  $("#ab-engine").dataset.done = String(answer.done);
  updateDownload();
  if (!answer.done) {
    ab.timer = setTimeout(() => h.getJSON("/api/thought", { client: ab.client }).then(showSearch).catch((e) => h.showMessage(e.message)), 250);
  }
}

function updateDownload() {
  const search = ab.search;
  const current = search && search.fen === ab.position.fen && search.lines.length ? search.lines[search.lines.length - 1] : null;
  const params = new URLSearchParams({ variant: ab.variant, fen: ab.fen || "", moves: ab.moves.join(" ") });
  if (current) {
    params.set("line", current.line.join(" "));
    params.set("comment", `pdn builtin, depth ${current.depth}: ${current.eval}`);
  }
  h.$("#ab-download").href = `/api/pdn?${params}`;
}
