// What every view of the page uses: finding and making elements, asking the server, the
// message line, pagers and links to games. Text from the database goes in as text nodes only.

export const $ = (selector) => document.querySelector(selector);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export async function getJSON(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") query.set(key, value);
  }
  const url = query.toString() ? `${path}?${query}` : path;
  const response = await fetch(url);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

export function showMessage(text) {
  const box = $("#message");
  box.textContent = text || "";
  box.hidden = !text;
}

export function gameLink(game, text, extra = "") {
  return el("a", { href: `#/game/${game.id}${extra}` }, text || "?");
}

// Previous / page N (of M once the count is known) / Next
export function pager(box, page, pages, more, go) {
  box.replaceChildren();
  if (page <= 1 && !more) return;
  const of = pages ? ` of ${pages.toLocaleString("en")}` : "";
  box.append(
    el("button", { disabled: page <= 1, onclick: () => go(page - 1) }, "‹ Previous"),
    el("span", {}, ` page ${page}${of} `),
    el("button", { disabled: !more, onclick: () => go(page + 1) }, "Next ›"),
  );
}
