// The engine's judgement of a game on the page: the evaluation graph (White's winning chances
// after each ply, the marked moves as dots; a click jumps to the ply) and the marks' symbols.

const SVG = "http://www.w3.org/2000/svg";
export const MARK_SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const WIDTH = 600;
const HEIGHT = 120;
const PAD = 4;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// x of ply 0..plies, y of winning chances -1..1 (White's, White up)
function scales(plies) {
  const x = (ply) => PAD + (ply / Math.max(1, plies)) * (WIDTH - 2 * PAD);
  const y = (chances) => HEIGHT / 2 - chances * (HEIGHT / 2 - PAD);
  return { x, y };
}

export function evalGraph(judgement, onPly) {
  const rows = judgement.plies;
  const plies = rows.length;
  const { x, y } = scales(plies);
  const graph = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "eval-graph", role: "img",
    "aria-label": `evaluation graph, ${plies} plies`, preserveAspectRatio: "none",
  });
  graph.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "black-side" }));
  const points = [[x(0), y(0)], ...rows.map((r) => [x(r.ply), y(r.chances)])];
  const outline = points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
  const last = points[points.length - 1][0].toFixed(1);
  graph.append(svg("polygon", { points: `${x(0)},${HEIGHT} ${outline} ${last},${HEIGHT}`, class: "white-side" }));
  graph.append(svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "middle" }));
  graph.append(svg("polyline", { points: outline, class: "curve" }));
  const cursor = svg("line", { x1: x(0), x2: x(0), y1: 0, y2: HEIGHT, class: "cursor" });
  graph.append(cursor);
  for (const r of rows) {
    const point = svg("circle", { cx: x(r.ply), cy: y(r.chances), r: r.mark ? 4 : 2.5, class: `point ${r.mark ? `mark ${r.mark}` : ""}` });
    point.dataset.ply = String(r.ply);
    const title = svg("title");
    title.textContent = `${r.ply}: ${r.move} ${r.eval}${r.mark ? ` (${r.mark})` : ""}`;
    point.append(title);
    graph.append(point);
  }
  graph.addEventListener("click", (event) => {
    const box = graph.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * WIDTH;
    const ply = Math.round(((at - PAD) / (WIDTH - 2 * PAD)) * plies);
    onPly(Math.max(0, Math.min(plies, ply)));
  });
  graph.dataset.plies = String(plies);
  graph.showPly = (ply) => {
    const at = x(Math.max(0, Math.min(plies, ply))).toFixed(1);
    cursor.setAttribute("x1", at);
    cursor.setAttribute("x2", at);
    graph.dataset.ply = String(ply);
  };
  return graph;
}

// What the engine said at the position after *ply* plies: its evaluation, the mark of the move
// that led there with the move it judged better, and its best move and line from there (the
// line judged the next move by).
export function judgementAt(judgement, ply) {
  const after = ply > 0 ? judgement.plies[ply - 1] : null;
  const next = judgement.plies[ply] || null;
  return {
    eval: after ? after.eval : next ? next.best_eval : null,
    mark: after ? after.mark : null,
    loss: after ? after.loss : null,
    better: after && after.mark && after.best_line.length ? after.best_line[0] : null,
    best: next && next.best_line.length ? next.best_line[0] : null,
    line: next ? next.best_line : [],
  };
}

// The mark of main-line node *n* (null: none, off the main line *mainline*, or no analysis).
export function markAt(judgement, mainline, n) {
  if (!judgement || mainline[n.ply - 1] !== n.id) return null;
  const row = judgement.plies[n.ply - 1];
  return row ? row.mark : null;
}

// The graph in *box* (hidden without a judgement), a click calling onPly(ply).
export function showGraph(box, judgement, onPly) {
  box.hidden = !judgement;
  box.replaceChildren();
  if (!judgement) return;
  const info = document.createElement("p");
  info.className = "note eval-info";
  const source = document.createElement("p");
  source.className = "note";
  source.textContent = `Analysis: ${judgement.engine}, ${judgement.limit}`;
  box.append(evalGraph(judgement, onPly), info, source);
}

// The graph's cursor and words at main-line *ply* (null: a position off the line); the best
// move there, for the board's arrow.
export function judgementShown(box, judgement, ply) {
  if (!judgement) return null;
  const graph = box.querySelector("svg");
  if (graph && ply !== null) graph.showPly(ply);
  const info = box.querySelector(".eval-info");
  if (ply === null) {
    info.textContent = "A position off the analysed line.";
    return null;
  }
  const at = judgementAt(judgement, ply);
  const words = [];
  if (at.eval !== null) words.push(`Evaluation ${at.eval}`);
  if (at.mark) {
    const better = at.better ? `; ${at.better} was better` : "";
    words.push(`${at.mark} (lost ${at.loss.toFixed(2)}${better})`);
  }
  if (at.best) words.push(`best move from here ${at.best} (arrow), line ${at.line.join(" ")}`);
  info.textContent = words.join(" · ");
  return at.best;
}
