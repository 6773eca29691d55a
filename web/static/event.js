// The event view: an event's standings and crosstable, as `pdn stats event --db` makes them
// (the server's numbers, from the same function), and the events of the database to choose from.

import { $, el, getJSON } from "./dom.js";

const FIELDS = ["event", "site", "year"];
const HEADINGS = ["Rank", "Player", "Games", "Wins", "Draws", "Losses", "Points", "Sonneborn-Berger", "Head to head"];
let events = null; // the database's events, asked once

// A link to the standings of the event *name* (of *year*, when given: a name played in several
// years is an event of each)
export function eventLink(name, year = null) {
  if (!name || name === "?") return name || "";
  const asked = new URLSearchParams({ event: name });
  if (year !== null && year !== undefined) asked.set("year", year);
  return el("a", { href: `#/event?${asked}` }, name);
}

export function initEvents() {
  $("#event-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const params = new URLSearchParams();
    for (const name of FIELDS) {
      const value = submitted.target.elements[name].value.trim();
      if (value) params.set(name, value);
    }
    location.hash = `#/event?${params}`;
  });
}

export async function openEvent(params) {
  const form = $("#event-form");
  const asked = {};
  for (const name of FIELDS) {
    form.elements[name].value = params.get(name) || "";
    if (params.get(name)) asked[name] = params.get(name);
  }
  if (!events) {
    events = await getJSON("/api/events");
    $("#event-names").replaceChildren(...events.events.map((e) => el("option", { value: e.event })));
  }
  const chosen = Object.keys(asked).length > 0;
  $("#event-result").hidden = !chosen;
  $("#event-list").hidden = chosen;
  if (!chosen) return showEvents();
  $("#event-result").setAttribute("aria-busy", "true");
  const data = await getJSON("/api/event", asked);
  showStandings(data);
  $("#event-result").setAttribute("aria-busy", "false");
}

function showEvents() {
  $("#events-table tbody").replaceChildren(
    ...events.events.map((e) =>
      el("tr", {},
        el("td", {}, eventLink(e.event, e.year)),
        el("td", { class: "num" }, e.year ?? ""),
        el("td", { class: "num" }, e.games),
      ),
    ),
  );
  $("#events-note").textContent = events.events.length
    ? `The events of the database, the most played first${events.more ? ` (the first ${events.events.length})` : ""}.`
    : "No game of the database names its event.";
}

function showStandings(data) {
  const which = [data.event, data.site, data.year].filter((v) => v !== null && v !== undefined).join(" · ");
  const unfinished = data.unfinished ? `; ${data.unfinished} without a result, not counted` : "";
  $("#event-head").replaceChildren(
    el("h1", {}, which),
    el("p", { class: "note" }, `${data.games} games${unfinished}. Points ${data.scoring} (win, draw, loss); ties broken by Sonneborn-Berger, then head to head, then wins.`),
  );
  $("#standings-table thead").replaceChildren(el("tr", {}, ...HEADINGS.map((h, i) => el("th", { class: i === 1 ? "" : "num" }, h))));
  $("#standings-table tbody").replaceChildren(
    ...data.entries.map((e) =>
      el("tr", {},
        el("td", { class: "num" }, e.rank),
        el("td", {}, e.games_search ? el("a", { href: `#/games?${new URLSearchParams(e.games_search)}` }, e.player) : e.player),
        ...[e.games, e.wins, e.draws, e.losses].map((v) => el("td", { class: "num" }, v)),
        ...["points", "sonneborn_berger", "head_to_head"].map((k) => el("td", { class: "num" }, e.shown[k])),
      ),
    ),
  );
  $("#cross-table thead").replaceChildren(
    el("tr", {}, el("th", { class: "num" }, "Rank"), el("th", {}, "Player"),
      ...data.entries.map((e) => el("th", { class: "num", title: e.player }, e.rank))),
  );
  $("#cross-table tbody").replaceChildren(
    ...data.entries.map((e) =>
      el("tr", {},
        el("td", { class: "num" }, e.rank),
        el("td", {}, e.player),
        ...e.against.map((v) => el("td", { class: v === "x" ? "num self" : "num" }, v === null ? "" : v)),
      ),
    ),
  );
}
