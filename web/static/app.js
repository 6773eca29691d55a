// The page of `pdn serve`: games, a board, the explorer, events and the invalid games.
// Every position comes from the server (the Python replay); this script only shows them.
// Text from the database is always put in with textContent, never parsed as HTML.

import { MARK_SYMBOLS, judgementShown, markAt, showGraph } from "./analysis.js";
import { initAnalysisBoard, openAnalysis } from "./board.js";
import { $, el, gameLink, getJSON, pager, showMessage } from "./dom.js";
import { eventLink, initEvents, openEvent } from "./event.js";
import { initExplorer, scheduleExplorer, setFilters } from "./explorer.js";

const RESULT_WORDS = { first: "1st player wins", second: "2nd player wins", draw: "draw" };
// How an ending is said: the words of pdn.rules.draw.ending_text, as /api/info sends them
function terminationText(name) {
  if (info && info.endings && name in info.endings) return info.endings[name];
  const moves = /^draw-(\d+)-moves$/.exec(name);
  return moves ? `draw by the ${moves[1]}-move rule` : name;
}

// -- info ------------------------------------------------------------------------------------

let info = null;

async function loadInfo() {
  info = await getJSON("/api/info");
  $("#db-title").textContent = `${info.title} · ${info.games.toLocaleString("en")} games`;
  const select = $("#search select[name=variant]");
  for (const { variant, games } of info.variants) {
    select.append(el("option", { value: variant }, `${variant} (${games.toLocaleString("en")})`));
  }
  const explore = $("#explore-variant");
  const names = info.variants.map((v) => v.variant);
  for (const name of info.all_variants) if (!names.includes(name)) names.push(name);
  for (const name of names) explore.append(el("option", { value: name }, name));
}

// -- routing ---------------------------------------------------------------------------------

function parseHash() {
  const hash = location.hash.replace(/^#/, "") || "/games";
  const [path, query = ""] = hash.split("?");
  return { parts: path.split("/").filter(Boolean), params: new URLSearchParams(query) };
}

function show(view) {
  for (const name of ["games", "board", "analyse", "event", "invalid"]) $(`#view-${name}`).hidden = name !== view;
}

function markNav(name) {
  for (const a of document.querySelectorAll("nav a")) {
    a.classList.toggle("active", a.dataset.view === name);
  }
}

async function route() {
  showMessage("");
  const { parts, params } = parseHash();
  try {
    if (parts[0] === "game" && parts[1]) {
      show("board");
      markNav("board");
      await openGame(parts[1], params);
    } else if (parts[0] === "board") {
      show("board");
      markNav("board");
      if (!state.game && !state.variant) await openExplorer(null, null);
    } else if (parts[0] === "explore") {
      show("board");
      markNav("explore");
      setFilters(params);
      await openExplorer(params.get("variant"), params.get("fen"));
    } else if (parts[0] === "event") {
      show("event");
      markNav("event");
      await openEvent(params);
    } else if (parts[0] === "analyse") {
      show("analyse");
      markNav("analyse");
      const variant = params.get("variant") || state.variant || (info.variants[0] || {}).variant || "international";
      await openAnalysis(variant, params.get("fen"), info.all_variants);
    } else if (parts[0] === "invalid") {
      show("invalid");
      markNav("invalid");
      await loadInvalid(Number(params.get("page") || 1));
    } else {
      show("games");
      markNav("games");
      await loadGames(params);
    }
  } catch (error) {
    showMessage(error.message);
  }
}

// -- games -----------------------------------------------------------------------------------

const SEARCH_FIELDS = ["player", "white", "black", "event", "site", "variant", "result", "from", "to", "valid", "sort"];

let gamesToken = 0;

async function loadGames(params) {
  const form = $("#search");
  const query = {};
  for (const name of SEARCH_FIELDS) {
    form.elements[name].value = params.get(name) || "";
    query[name] = params.get(name) || "";
  }
  const token = ++gamesToken;
  const counting = getJSON("/api/count", { ...query, sort: "" });
  counting.catch(() => null); // awaited below, once the page of games is shown
  const data = await getJSON("/api/games", { ...query, page: params.get("page") || 1 });
  if (token !== gamesToken) return;
  const first = (data.page - 1) * data.size + 1;
  const last = first + data.games.length - 1;
  const range = `${first.toLocaleString("en")}–${last.toLocaleString("en")}`;
  $("#games-count").textContent = data.games.length ? `Games ${range}, counting…` : "No game matches.";
  $("#games-table tbody").replaceChildren(
    ...data.games.map((g) =>
      el("tr", { class: g.valid ? "" : "invalid", dataset: { id: g.id } },
        el("td", {}, gameLink(g, g.white)),
        el("td", {}, gameLink(g, g.black)),
        el("td", {}, eventLink(g.event)),
        el("td", { class: "wide" }, g.site || ""),
        el("td", {}, g.date || ""),
        el("td", {}, g.result || ""),
        el("td", {}, g.variant || ""),
        el("td", { class: "wide num" }, g.plies),
        el("td", {}, g.valid ? "valid" : "invalid"),
        el("td", { class: "num loss" }, g.biggest_loss === null || g.biggest_loss === undefined ? "" : g.biggest_loss.toFixed(2)),
      ),
    ),
  );
  const go = (page) => {
    params.set("page", page);
    location.hash = `#/games?${params}`;
  };
  pager($("#games-pager"), data.page, null, data.more, go);
  const { total } = await counting;
  if (token !== gamesToken) return;
  const pages = Math.ceil(total / data.size);
  if (data.games.length) $("#games-count").textContent = `Games ${range} of ${total.toLocaleString("en")}`;
  else if (total) $("#games-count").textContent = `Page ${data.page} is past the last (${pages}).`;
  pager($("#games-pager"), data.page, pages, data.more, go);
}

$("#search").addEventListener("submit", (event) => {
  event.preventDefault();
  const params = new URLSearchParams();
  for (const name of SEARCH_FIELDS) {
    const value = event.target.elements[name].value.trim();
    if (value) params.set(name, value);
  }
  location.hash = `#/games?${params}`;
});

// -- invalid games ---------------------------------------------------------------------------

function errorText(e) {
  if (e.kind === "syntax" || e.kind === "fen") return e.reason;
  if (e.kind === "result") return `result ${e.move}: ${e.reason}`;
  const where = e.variation ? "variation move" : "move";
  const legal = e.legal && e.legal.length ? `; legal: ${e.legal.join(", ")}` : "";
  return `ply ${e.ply}, ${where} ${e.move}: ${e.reason}${legal}`;
}

async function loadInvalid(page) {
  const data = await getJSON("/api/invalid", { page });
  const pages = Math.max(1, Math.ceil(data.total / data.size));
  $("#invalid-count").textContent = data.total
    ? `${data.total.toLocaleString("en")} invalid games. Each error opens the board at its move.`
    : "Every game of the database is valid.";
  $("#invalid-table tbody").replaceChildren(
    ...data.games.map((g) =>
      el("tr", { dataset: { id: g.id } },
        el("td", {}, gameLink(g, `${g.white || "?"} – ${g.black || "?"}`),
          el("div", { class: "note" }, [g.event, g.date, g.variant].filter(Boolean).join(" · "))),
        el("td", {}, `${g.file}, game ${g.index}, line ${g.line}`),
        el("td", {},
          el("ul", { class: "errors" },
            ...g.errors.map((e, i) =>
              el("li", {}, el("a", { href: `#/game/${g.id}?error=${i}`, class: "error-link" },
                e.line ? `line ${e.line}:${e.column}` : "open"), " ", errorText(e)),
            ),
          ),
        ),
      ),
    ),
  );
  pager($("#invalid-pager"), page, pages, page < pages, (p) => (location.hash = `#/invalid?page=${p}`));
}

// -- the board -------------------------------------------------------------------------------

// The shown line of play: game nodes (from the server) and explored nodes (moves played from the
// explorer or the legal moves of an illegal one), each with the FEN after it.
const state = {
  game: null,
  variant: null,
  startFen: null,
  nodes: new Map(), // id -> {id, parent, fen, path, text, state, ply, explored, ...}
  next: new Map(), // id -> the id that follows in its line
  current: -1, // -1: the start position
  mainline: [], // the ids of the main line's moves, in order (a game's)
  flip: false,
  explored: [], // ids of explored nodes, in the order made
  boardToken: 0,
};

function node(id) {
  return state.nodes.get(id);
}

function currentFen() {
  if (state.current === -1) return state.startFen;
  const n = node(state.current);
  if (n.state === "illegal") return n.parent === -1 ? state.startFen : node(n.parent).fen;
  return n.fen;
}

// Right arrow follows a line: the main line, or the variation the shown move stands in.
function linkLine(items, main) {
  let previous = null;
  let stopped = false;
  for (const item of items) {
    if (item.kind !== "move") continue;
    const n = node(item.node);
    if (!stopped && n.state !== "joined" && n.state !== "unplayed") {
      if (previous !== null) state.next.set(previous, n.id);
      else if (main) state.next.set(n.parent, n.id);
      previous = n.id;
      stopped = n.state === "illegal";
    }
    for (const variation of n.variations) linkLine(variation, false);
  }
}

async function openGame(id, params) {
  if (!state.game || state.game.id !== id) {
    const game = await getJSON(`/api/game/${encodeURIComponent(id)}`);
    state.game = game;
    state.variant = game.variant;
    state.startFen = game.start;
    state.nodes = new Map(game.nodes.map((n) => [n.id, { ...n, explored: false }]));
    state.next = new Map();
    state.explored = [];
    linkLine(game.line_items, true);
    state.mainline = [];
    for (let id = -1; state.next.has(id) && node(state.next.get(id)).state !== "illegal"; id = state.next.get(id)) state.mainline.push(state.next.get(id));
    renderGameHead();
    renderMoves();
    renderGraph();
  }
  $("#explore-head").hidden = true;
  let target = -1;
  if (params.has("error")) {
    const e = state.game.errors[Number(params.get("error"))];
    if (e && e.node !== null && e.node !== undefined) target = e.node;
    else if (e && e.kind === "result") target = mainLinePly(state.game.plies);
  } else if (params.has("ply")) {
    target = mainLinePly(Number(params.get("ply")));
  }
  goTo(target);
}

function mainLinePly(ply) {
  let id = -1;
  for (let i = 0; i < ply && state.next.has(id); i++) {
    const following = state.next.get(id);
    if (node(following).state === "illegal") break;
    id = following;
  }
  return id;
}

async function openExplorer(variant, fen) {
  const name = variant || (state.game ? state.game.variant : null) || (info.variants[0] || {}).variant || "english";
  let start = fen;
  if (!start) start = (await getJSON("/api/start", { variant: name })).fen;
  if (state.game || state.variant !== name || state.startFen !== start) {
    state.game = null;
    state.variant = name;
    state.startFen = start;
    state.nodes = new Map();
    state.next = new Map();
    state.explored = [];
  }
  $("#game-head").replaceChildren();
  $("#moves").replaceChildren();
  $("#eval-graph").hidden = true;
  $("#explore-head").hidden = false;
  $("#explore-variant").value = name;
  goTo(-1);
}

$("#explore-variant").addEventListener("change", (event) => {
  location.hash = `#/explore?variant=${encodeURIComponent(event.target.value)}`;
});
$("#explore-reset").addEventListener("click", () => {
  state.startFen = null;
  openExplorer(state.variant, null).catch((error) => showMessage(error.message));
});

function renderGameHead() {
  const g = state.game;
  const tag = (name) => {
    const found = g.tags.find(([key]) => key.toLowerCase() === name.toLowerCase());
    const value = found ? found[1].trim() : "";
    return value && value !== "?" ? value : null;
  };
  const parts = [
    el("h1", {}, el("span", { class: "player white-player" }, tag("White") || "?"), " – ",
      el("span", { class: "player black-player" }, tag("Black") || "?")),
    el("p", { class: "note" },
      [tag("Event") ? eventLink(tag("Event")) : null, tag("Site"), tag("Date"), tag("Round") ? `round ${tag("Round")}` : null]
        .filter(Boolean).flatMap((part, i) => (i ? [" · ", part] : [part]))),
    el("p", {},
      el("strong", {}, g.result || "no result"), ` · ${g.variant || "variant unknown"} · ${g.plies} plies · `,
      el("span", { class: g.valid ? "badge ok" : "badge bad" }, g.valid ? "valid" : "invalid"),
      g.termination_ply != null ? ` · ${terminationText(g.termination)} at ply ${g.termination_ply}` : ""),
    el("p", { class: "note" }, `${g.file}, game ${g.index}, line ${g.line}`),
    g.errors.length
      ? el("ul", { class: "errors" },
          ...g.errors.map((e, i) =>
            el("li", {}, el("a", { href: `#/game/${g.id}?error=${i}` }, e.line ? `line ${e.line}:${e.column}` : "show"),
              " ", errorText(e))))
      : null,
    g.warnings.length
      ? el("details", { class: "warnings" }, el("summary", {}, `${g.warnings.length} warnings`),
          el("ul", {}, ...g.warnings.map((w) => el("li", {}, w))))
      : null,
    el("details", { class: "tags", open: g.errors.some((e) => e.kind === "syntax") }, el("summary", {}, "Tags and PDN text"),
      el("table", {}, ...g.tags.map(([name, value]) => el("tr", {}, el("th", {}, name), el("td", {}, value)))),
      el("pre", { class: "pdn-text" }, g.text)),
  ];
  $("#game-head").replaceChildren(...parts.filter(Boolean));
}

function moveNumber(n, first) {
  const k = n.ply - 1 + state.game.offset;
  const number = Math.floor(k / 2) + 1;
  if (k % 2 === 0) return `${number}.`;
  return first ? `${number}…` : null;
}

function renderLine(items, box, depth) {
  let first = true;
  for (const item of items) {
    if (item.kind === "comment") {
      box.append(el("span", { class: "comment" }, item.text), " ");
      first = true;
      continue;
    }
    if (item.kind === "setup") {
      box.append(el("span", { class: "setup" }, `[position ${item.text}]`), " ");
      first = true;
      continue;
    }
    const n = node(item.node);
    for (const c of n.comments_before) box.append(el("span", { class: "comment" }, c), " ");
    const number = moveNumber(n, first);
    if (number) box.append(el("span", { class: "number" }, number), " ");
    const classes = ["move", n.state];
    if (n.ended) classes.push("ended");
    if (n.reason) classes.push("flagged");
    const title = [n.reason, n.ended ? terminationText(n.ended) : ""].filter(Boolean).join("; ");
    const target = n.state === "joined" ? n.parent : n.id;
    const judged = depth === 0 ? markOf(n) : null;
    if (judged) classes.push(`marked ${judged}`);
    box.append(
      el("button", {
        class: classes.join(" "),
        dataset: { node: n.id, ply: n.ply },
        title: title || null,
        disabled: n.state === "unplayed",
        onclick: () => goTo(target),
      }, n.text),
      ...(judged ? [el("span", { class: `mark-symbol ${judged}`, title: judged }, MARK_SYMBOLS[judged])] : []),
      " ",
    );
    if (n.ended) box.append(el("span", { class: "badge end" }, terminationText(n.ended)), " ");
    for (const c of n.comments_after) box.append(el("span", { class: "comment" }, c), " ");
    for (const variation of n.variations) {
      const inner = el("span", { class: `variation depth${Math.min(depth + 1, 3)}` }, "( ");
      renderLine(variation, inner, depth + 1);
      inner.append(")");
      box.append(inner, " ");
    }
    first = n.variations.length > 0 || n.comments_after.length > 0;
  }
}

function markOf(n) {
  return markAt(state.game && state.game.analysis, state.mainline, n);
}

function renderGraph() {
  showGraph($("#eval-graph"), state.game.analysis, (ply) => goTo(ply === 0 ? -1 : state.mainline[Math.min(ply, state.mainline.length) - 1]));
}

function showJudgement() {
  if (!state.game) return null;
  const ply = state.current === -1 ? 0 : state.mainline.indexOf(state.current) + 1 || null;
  return judgementShown($("#eval-graph"), state.game.analysis, ply);
}

function renderMoves() {
  const box = el("div", { class: "line main" });
  renderLine(state.game.line_items, box, 0);
  if (!state.game.line_items.length) box.append(el("span", { class: "note" }, "No moves."));
  $("#moves").replaceChildren(box);
}

function renderExplored() {
  const box = $("#explored");
  const line = [];
  for (let id = state.current; id !== -1 && node(id) && node(id).explored; id = node(id).parent) {
    line.unshift(node(id));
  }
  const shown = line.length ? line : [];
  box.hidden = !shown.length;
  if (!shown.length) return;
  box.replaceChildren(
    el("span", { class: "note" }, "Played here: "),
    ...shown.map((n) =>
      el("button", { class: `move explored${n.id === state.current ? " current" : ""}`, onclick: () => goTo(n.id) }, n.text)),
    " ",
    el("button", { class: "link", onclick: () => goTo(shown[0].parent) }, state.game ? "back to the game" : "back"),
  );
}

function goTo(id) {
  state.current = state.nodes.has(id) ? id : -1;
  for (const button of document.querySelectorAll("#moves .move.current")) button.classList.remove("current");
  const button = document.querySelector(`#moves .move[data-node="${state.current}"]`);
  if (button) {
    button.classList.add("current");
    scrollWithin($("#moves"), button);
  }
  renderExplored();
  renderPosition();
}

// Bring *item* into view inside the scrolling *box* only: scrollIntoView would scroll the page
// too, and at phone width push the board above the screen.
function scrollWithin(box, item) {
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
}

function step(direction) {
  if (direction < 0) {
    if (state.current === -1) return;
    goTo(node(state.current).parent);
  } else if (state.next.has(state.current)) {
    goTo(state.next.get(state.current));
  }
}

function home() {
  goTo(-1);
}

function end() {
  let id = state.current;
  while (state.next.has(id)) id = state.next.get(id);
  goTo(id);
}

function sideToMove(fen) {
  return fen && fen[0].toUpperCase() === "B" ? "Black" : "White";
}

async function renderPosition() {
  const fen = currentFen();
  const n = state.current === -1 ? null : node(state.current);
  const illegal = n && n.state === "illegal";
  $("#fen").value = fen || "";
  const status = [];
  if (!fen) {
    const unread = state.game && state.game.errors.some((e) => e.kind === "syntax");
    status.push(unread ? "No board: the game cannot be read (see its error)." : "No board: the game's FEN tag cannot be read.");
  } else if (illegal) {
    status.push(`${n.text} cannot be played here: ${n.reason}.`);
  } else {
    const side = sideToMove(fen);
    if (n && n.ended === "win") {
      status.push(`${side} has no legal move: ${side === "White" ? "Black" : "White"} wins.`);
    } else {
      status.push(`${side} to move.`);
      if (n && n.ended) status.push(`The game ended here: ${terminationText(n.ended)}.`);
    }
    if (n && n.reason) status.push(n.reason);
  }
  $("#status").textContent = status.join(" ");
  const legalBox = $("#legal");
  legalBox.hidden = !illegal;
  if (illegal) {
    legalBox.replaceChildren(
      el("span", {}, n.legal.length ? "Legal moves (dashed arrows): " : "No legal move."),
      ...n.legal.map((text) => el("button", { class: "move legal-move", onclick: () => playMove(text) }, text)),
    );
  }
  const boardBox = $("#board");
  const token = ++state.boardToken;
  boardBox.setAttribute("aria-busy", "true");
  boardBox.hidden = !fen;
  $(".explorer").hidden = !fen;
  if (!fen) {
    boardBox.replaceChildren();
    return;
  }
  const params = new URLSearchParams({ variant: state.variant, fen, flip: state.flip ? "1" : "0" });
  if (n && !illegal && n.path.length) params.set("path", n.path.join(","));
  if (illegal) {
    params.set("legal", "1");
    if (n.marks.length) params.set("marks", n.marks.join(","));
  }
  const best = illegal ? null : showJudgement();
  if (best) params.set("best", best);
  scheduleExplorer(fen);
  try {
    const svg = await boardSvg(params.toString());
    if (token !== state.boardToken) return;
    boardBox.innerHTML = svg; // our own SVG drawing, served by this server
    boardBox.dataset.fen = fen;
    boardBox.dataset.node = String(state.current);
    boardBox.dataset.ply = String(n ? n.ply - (illegal ? 1 : 0) : 0);
    boardBox.setAttribute("aria-busy", "false");
  } catch (error) {
    if (token === state.boardToken) showMessage(error.message);
  }
}

const svgCache = new Map();

async function boardSvg(query) {
  if (svgCache.has(query)) return svgCache.get(query);
  const response = await fetch(`/api/board?${query}`);
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: response.statusText }));
    throw new Error(data.error);
  }
  const svg = await response.text();
  if (svgCache.size > 500) svgCache.clear();
  svgCache.set(query, svg);
  return svg;
}

async function playMove(text) {
  const fen = currentFen();
  try {
    const after = await getJSON("/api/play", { variant: state.variant, fen, move: text });
    const parent = state.current !== -1 && node(state.current).state === "illegal" ? node(state.current).parent : state.current;
    for (const n of state.nodes.values()) {
      if (n.parent === parent && n.fen === after.fen && n.state === "played") return goTo(n.id);
    }
    const id = `x${state.explored.length}`;
    const made = { id, parent, fen: after.fen, path: after.path, text: after.text, state: "played", explored: true, ply: parent === -1 ? 1 : node(parent).ply + 1, variations: [], marks: [], legal: [] };
    state.nodes.set(id, made);
    state.explored.push(id);
    if ((parent !== -1 && node(parent).explored) || !state.next.has(parent)) state.next.set(parent, id);
    goTo(id);
  } catch (error) {
    showMessage(error.message);
  }
}

// -- controls --------------------------------------------------------------------------------

$("#first").addEventListener("click", home);
$("#analyse").addEventListener("click", () => {
  const fen = currentFen();
  if (fen) location.hash = `#/analyse?variant=${encodeURIComponent(state.variant)}&fen=${encodeURIComponent(fen)}`;
});
initAnalysisBoard({ $, el, getJSON, showMessage });
initExplorer({ variant: () => state.variant, play: playMove });
initEvents();
$("#prev").addEventListener("click", () => step(-1));
$("#next").addEventListener("click", () => step(1));
$("#last").addEventListener("click", end);
$("#flip").addEventListener("click", () => {
  state.flip = !state.flip;
  renderPosition();
});
$("#copy-fen").addEventListener("click", async () => {
  const input = $("#fen");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  $("#copy-fen").textContent = "Copied";
  setTimeout(() => ($("#copy-fen").textContent = "Copy FEN"), 1200);
});

document.addEventListener("keydown", (event) => {
  if ($("#view-board").hidden || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
  const actions = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: home, End: end };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
});

window.addEventListener("hashchange", route);

loadInfo()
  .then(route)
  .catch((error) => showMessage(error.message));
