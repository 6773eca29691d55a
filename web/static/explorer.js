// The explorer beside the board: the moves played from the position shown, and the games that
// reached it, of the games its filter selects (the selection of `pdn explore`: player, event,
// years, result). The numbers are the server's, counted by the function behind `pdn explore`.

import { $, el, gameLink, getJSON, pager, showMessage } from "./dom.js";

export const FILTER_FIELDS = ["player", "event", "from", "to", "result"];

const COLUMN_NAMES = {
  move: "Move",
  games: "Games",
  white_wins: "White wins",
  black_wins: "Black wins",
  draws: "Draws",
  no_result: "No result",
  white_score: "White score %",
  draw_rate: "Draw rate %",
  name: "Opening",
};
const RESULT_NAMES = { first: "first player won", second: "second player won", draw: "draw", unknown: "no result" };
const cache = new Map();
const filters = {}; // field -> value, as the filter form and the address give them
let hooks = null; // { variant: () => name, play: (move) => ... }
let timer = null;
let token = 0;
let shownFen = null;

export function initExplorer(given) {
  hooks = given;
  $("#explore-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const name of FILTER_FIELDS) {
      const value = event.target.elements[name].value.trim();
      if (value) params.set(name, value);
    }
    setFilters(params);
    if (location.hash.startsWith("#/explore")) {
      const kept = new URLSearchParams(location.hash.split("?")[1] || "");
      for (const name of FILTER_FIELDS) kept.delete(name);
      for (const [name, value] of params) kept.set(name, value);
      history.replaceState(null, "", `#/explore?${kept}`);
    }
    if (shownFen) scheduleExplorer(shownFen);
  });
}

// The filter as the address (or the form) gives it: the form shows it, the next load uses it.
export function setFilters(params) {
  const form = $("#explore-filter");
  for (const name of FILTER_FIELDS) {
    const value = params.get(name) || "";
    if (value) filters[name] = value;
    else delete filters[name];
    form.elements[name].value = value;
  }
}

function filterText() {
  const said = [];
  if (filters.player) said.push(`player “${filters.player}”`);
  if (filters.event) said.push(`event “${filters.event}”`);
  if (filters.from && filters.to) said.push(`${filters.from}–${filters.to}`);
  else if (filters.from) said.push(`${filters.from} or later`);
  else if (filters.to) said.push(`${filters.to} or earlier`);
  if (filters.result) said.push(RESULT_NAMES[filters.result] || filters.result);
  return said.join(", ");
}

export function scheduleExplorer(fen) {
  clearTimeout(timer);
  shownFen = fen;
  const mine = ++token;
  timer = setTimeout(() => loadExplorer(fen, mine), 80);
}

async function cachedJSON(path, params) {
  const key = `${path}?${new URLSearchParams(params)}`;
  if (!cache.has(key)) {
    if (cache.size > 300) cache.clear();
    cache.set(key, getJSON(path, params).catch((error) => {
      cache.delete(key);
      throw error;
    }));
  }
  return cache.get(key);
}

function loadExplorer(fen, mine) {
  const position = { variant: hooks.variant(), fen, ...filters };
  $("#explorer-table").setAttribute("aria-busy", "true");
  cachedJSON("/api/explore", position)
    .then((data) => mine === token && renderMoves(data))
    .catch((error) => mine === token && ($("#explorer-note").textContent = error.message));
  loadReached(fen, mine, 1);
}

function loadReached(fen, mine, page) {
  $("#reached-table").setAttribute("aria-busy", "true");
  cachedJSON("/api/reached", { variant: hooks.variant(), fen, page, ...filters })
    .then((data) => mine === token && renderReached(data, fen, mine))
    .catch((error) => mine === token && showMessage(error.message));
}

function renderMoves(data) {
  const table = $("#explorer-table");
  const columns = data.columns;
  table.tHead.replaceChildren(el("tr", {}, ...columns.map((c) => el("th", {}, COLUMN_NAMES[c] || c.replaceAll("_", " ")))));
  table.tBodies[0].replaceChildren(
    ...data.moves.map((row) =>
      el("tr", {},
        ...columns.map((c) =>
          c === "move"
            ? el("td", {}, el("button", { class: "move explorer-move", dataset: { move: row.move }, onclick: () => hooks.play(row.move) }, row.move))
            : el("td", { class: "num" }, row[c] === null ? "–" : row[c]),
        ),
      ),
    ),
  );
  const which = filterText();
  const games = which ? `the games of ${which}` : "the database";
  $("#explorer-note").textContent = data.moves.length
    ? `Moves played from this position in ${games} (transpositions included); click one to play it.`
    : `No game of ${games} continues from this position.`;
  table.dataset.filter = which;
  table.setAttribute("aria-busy", "false");
}

function renderReached(data, fen, mine) {
  $("#reached-table tbody").replaceChildren(
    ...data.games.map((g) =>
      el("tr", {},
        el("td", {}, gameLink(g, g.white, `?ply=${g.reached}`)),
        el("td", {}, gameLink(g, g.black, `?ply=${g.reached}`)),
        el("td", {}, g.event || ""),
        el("td", {}, g.date || ""),
        el("td", {}, g.result || ""),
        el("td", { class: "num" }, g.reached),
      ),
    ),
  );
  pager($("#reached-pager"), data.page, null, data.more, (page) => loadReached(fen, mine, page));
  $("#reached-table").setAttribute("aria-busy", "false");
}
