// The page of `pnpgen serve`: one deck at a time (/deck/ID), the texts printed on no card (/texts), or the rule
// sheet (/rules): each edition's pages side by side, each block outlined on them beside its fields.
// The server pushes a new state version whenever the game's files change; the page then fetches it.
"use strict";

let state = null;
const dirty = new Map();  // "id|lang" -> text typed but not written yet (kept across re-renders)
const saving = new Set();  // "id|lang" being written: one request at a time
// "id|lang" -> {text, version, error} of the last edit the server refused: the same text is not sent again
// until the user changes it (or the string changes in the files), and the reason stays beside the field.
const refused = new Map();
let redrawing = false;  // the redraw replaces the fields: a field leaving the page is no reason to save
let rulesPaper = "a4";  // the paper the rule sheet is shown on
let shownBlock = null;  // the rule block whose place on the pages is outlined

const $ = (selector) => document.querySelector(selector);
const escape = (text) => String(text ?? "").replace(/[&<>"']/g,
  (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

async function loadState() {
  const response = await fetch("/api/state", {cache: "no-store"});
  state = await response.json();
  render();
}

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => {
    if (!state || Number(event.data) !== state.version) loadState();
  });
}

function currentView() {
  const path = decodeURIComponent(location.pathname);
  if (path === "/texts") return {texts: true};
  if (path === "/rules") return {rules: true};
  const deck = path.startsWith("/deck/") ? path.slice(6) : null;
  return {deck: deck || (state.decks[0] && state.decks[0].id)};
}

function render() {
  const view = currentView();
  document.title = `${state.game ? state.game.title : "pnpgen"}: pnpgen serve`;
  $("#title").textContent = state.game ? state.game.title : "pnpgen";
  const links = state.decks.map((deck) =>
    `<a href="/deck/${encodeURIComponent(deck.id)}" class="${deck.id === view.deck ? "current" : ""}">${escape(deck.name)}</a>`);
  if (state.rules) links.push(`<a href="/rules" class="${view.rules ? "current" : ""}">rules</a>`);
  links.push(`<a href="/texts" class="${view.texts ? "current" : ""}">other texts</a>`);
  $("#decks").innerHTML = links.join("");
  renderFilter();
  renderCounts();
  const errors = state.error || [];
  $("#errors").hidden = errors.length === 0;
  $("#errors").textContent = errors.length ? "The files cannot be read (the page shows the last good version):\n"
    + errors.join("\n") : "";
  const found = state.data_problems || [];
  $("#data-problems").hidden = found.length === 0;
  $("#data-problems").textContent = found.length ? `${found.length} data problem(s), as pnpgen build and validate `
    + "report them:\n" + found.join("\n") : "";
  const focused = rememberFocus();
  redrawing = true;
  try {
    $("#view").innerHTML = view.texts ? textsView() : view.rules ? rulesView()
      : deckView(state.decks.find((d) => d.id === view.deck));
    restoreFocus(focused);
  } finally {
    redrawing = false;
  }
  placeOutlines();
  applyFilter();
}

// The page's policy refuses inline style attributes: an outline is placed through the DOM instead.
function placeOutlines() {
  document.querySelectorAll("[data-box]").forEach((outline) => {
    const [x, y, w, h] = outline.dataset.box.split(",");
    Object.assign(outline.style, {left: `${x}%`, top: `${y}%`, width: `${w}%`, height: `${h}%`});
  });
}

function renderFilter() {
  const select = $("#filter");
  if (select.options.length > 2) return;
  for (const kind of state.kinds || []) select.add(new Option(`${kind}`, kind));
}

function renderCounts() {
  const parts = [];
  for (const [lang, status] of Object.entries(state.counts || {})) {
    if (status.source) continue;
    const shown = ["missing", "stale", "unconfirmed", "overflowing", "glossary", "terms", "checks"].filter((k) => status[k])
      .map((k) => `${status[k]} ${k}`);
    parts.push(`${lang}: ${shown.join(", ") || "no problems"}`);
  }
  if (state.layout_note) parts.push(state.layout_note);
  $("#counts").textContent = parts.join(" · ");
}

function deckView(deck) {
  if (!deck) return "<p>No deck.</p>";
  const head = deck.strings.length ? `<section class="card" data-kinds=""><div class="fields"><h2>Deck</h2>${table(deck.strings)}</div></section>` : "";
  return head + deck.cards.map(cardView).join("");
}

function cardView(card) {
  const kinds = new Set(card.problems.map((p) => p.kind));
  card.strings.forEach((id) => state.strings[id].problems.forEach((p) => kinds.add(p.kind)));
  const faces = state.game.languages.filter((lang) => card.faces[lang]).map((lang) => {
    const sides = card.faces[lang];
    return ["front", "back"].filter((side) => sides[side]).map((side) => {
      const boxes = (((card.outlines || {})[lang] || {})[side] || []).map((b) =>
        `<div class="outline ${escape(b.kind)}" data-box="${Number(b.x)},${Number(b.y)},${Number(b.w)},${Number(b.h)}" title="${escape(b.message)}"></div>`).join("");
      return `<figure><div class="shot"><img src="/face/${encodeURIComponent(sides[side])}.png" alt="${escape(card.id)} ${side} ${escape(lang)}" data-lang="${escape(lang)}" data-side="${side}" loading="lazy">${boxes}</div><figcaption>${escape(lang)} ${side}</figcaption></figure>`;
    }).join("");
  }).join("");
  const problems = card.problems.map((p) => `<div class="note"><span class="flag ${escape(p.kind)}">${escape(p.lang)} ${escape(p.kind)}</span>${escape(p.field)}: ${escape(p.message)}</div>`).join("");
  return `<article class="card" id="card-${escape(card.id)}" data-card="${escape(card.id)}" data-kinds="${escape([...kinds].join(" "))}">
    <div class="faces">${faces}</div>
    <div class="fields"><h2>${escape(card.name)} <a href="/game/${escape(card.file)}" target="_blank">${escape(card.file)}:${escape(card.line)}</a></h2>
    ${table(card.strings)}${problems}</div></article>`;
}

// --- the rule sheet ---------------------------------------------------------------------------------

function rulesView() {
  const rules = state.rules;
  if (!rules) return "<p>No rule sheet (rules.yaml).</p>";
  const papers = [...new Set(Object.values(rules.editions || {}).map((e) => e.paper))];
  const switcher = `<div class="paper-switch">paper: ${(papers.length ? papers : [rulesPaper]).map((paper) =>
    `<button class="paper${paper === rulesPaper ? " current" : ""}" data-paper="${escape(paper)}">${escape(paper)}</button>`).join("")}
    ${rules.laying_out ? `<span class="busy">laying out…</span>` : ""}</div>`;
  const errors = (rules.error || []).map((e) => `<div class="note refused">${escape(e)}</div>`).join("");
  const editions = Object.values(rules.editions || {}).filter((e) => e.paper === rulesPaper);
  const columns = editions.map((edition) => `<div class="edition" data-edition="${escape(edition.name)}">
    <h3>${escape(edition.name)}</h3>${edition.pages.map((page, i) => pageView(edition, page, i)).join("")}</div>`).join("");
  const fields = (rules.blocks || []).map(blockFields).join("");
  return `${switcher}${errors}<div class="rules"><div class="editions">${columns || "<p>laying out…</p>"}</div>
    <div class="rule-fields">${fields}</div></div>`;
}

function blockStrings(block) {
  return block.strings.filter((id) => state.strings[id]);
}

// The problems of a block's texts in one language (missing, stale, glossary, placeholders...).
function blockKinds(block, lang) {
  const kinds = new Set();
  for (const id of blockStrings(block)) {
    state.strings[id].problems.filter((p) => p.lang === lang).forEach((p) => kinds.add(p.kind));
  }
  return kinds;
}

function pageView(edition, page, index) {
  const byId = new Map((state.rules.blocks || []).map((b) => [b.id, b]));
  const box = (b) => `data-box="${b.box.map(Number).join(",")}"`;
  const blocks = page.blocks.map((b) => {
    const kinds = byId.has(b.block) ? [...blockKinds(byId.get(b.block), b.lang)] : [];
    const flagged = kinds.map((kind) => `<div class="outline ${escape(kind)}" ${box(b)} title="${escape(`${b.block} (${b.lang}): ${kind}`)}"></div>`).join("");
    return `<div class="block-box${b.block === shownBlock ? " current" : ""}" data-block="${escape(b.block)}" data-lang="${escape(b.lang)}" ${box(b)} title="${escape(b.block)} (${escape(b.lang)})"></div>${flagged}`;
  }).join("");
  const problems = page.problems.map((p) =>
    `<div class="outline ${escape(p.kind)}" data-problem-block="${escape(p.block)}" ${box(p)} title="${escape(p.message)}"></div>`).join("");
  return `<div class="shot page"><img src="${escape(page.image)}" alt="${escape(edition.name)} ${escape(edition.paper)} page ${index + 1}">${blocks}${problems}</div>`;
}

function blockFields(block) {
  const kinds = new Set(state.game.languages.flatMap((lang) => [...blockKinds(block, lang)]));
  Object.values(state.rules.editions || {}).forEach((e) => e.pages.forEach((page) =>
    page.problems.filter((p) => p.block === block.id).forEach((p) => kinds.add(p.kind))));
  const previews = Object.entries((state.rules.previews || {})[block.id] || {}).map(([edition, url]) =>
    `<figure class="block-preview"><img src="${escape(url)}" alt="${escape(block.id)} alone (${escape(edition)})"><figcaption>${escape(edition)}, alone</figcaption></figure>`).join("");
  const ids = blockStrings(block);
  return `<section class="card rule-block${block.id === shownBlock ? " current" : ""}" id="block-${escape(block.id)}" data-block="${escape(block.id)}" data-kinds="${escape([...kinds].join(" "))}">
    <div class="fields"><h2>${escape(block.id)} <span class="note">${escape(block.type)}</span>
    <button class="where" data-block="${escape(block.id)}">show on the pages</button></h2>
    ${previews ? `<div class="previews">${previews}</div>` : ""}${ids.length ? table(ids) : ""}</div></section>`;
}

// Outline a block on the pages (and scroll its first box into view); open its fields from a page.
function showBlock(id, scrollPages) {
  shownBlock = id;
  document.querySelectorAll(".block-box.current, .rule-block.current").forEach((e) => e.classList.remove("current"));
  const boxes = [...document.querySelectorAll(".block-box")].filter((e) => e.dataset.block === id);
  boxes.forEach((e) => e.classList.add("current"));
  const section = document.getElementById(`block-${id}`);
  if (section) section.classList.add("current");
  if (scrollPages && boxes[0]) boxes[0].scrollIntoView({block: "center"});
  return section;
}

function openBlock(box) {
  const section = showBlock(box.dataset.block, false);
  if (!section) return;
  section.scrollIntoView({block: "center"});
  const field = [...section.querySelectorAll("textarea")].find((t) => t.dataset.lang === box.dataset.lang);
  if (field) field.focus();
}

function textsView() {
  return state.groups.map((group) => {
    const kinds = new Set(group.strings.flatMap((id) => state.strings[id].problems.map((p) => p.kind)));
    return `<section class="card" data-kinds="${escape([...kinds].join(" "))}"><div class="fields"><h2>${escape(group.kind)}</h2>${table(group.strings)}</div></section>`;
  }).join("") || "<p>No other texts.</p>";
}

function table(ids) {
  const langs = state.game.languages;
  const head = `<tr><th></th>${langs.map((l) => `<th>${escape(l)}${l === state.game.source_language ? " (source)" : ""}</th>`).join("")}</tr>`;
  return `<table>${head}${ids.map((id) => row(state.strings[id])).join("")}</table>`;
}

function row(string) {
  const label = string.owner_kind === "card" ? string.field : `${string.owner} ${string.field}`;
  const cells = state.game.languages.map((lang) => {
    const key = `${string.id}|${lang}`;
    const typed = dirty.get(key);
    const value = typed ?? string.values[lang];
    const flags = string.problems.filter((p) => p.lang === lang).map((p) =>
      `<div class="note problem"><span class="flag ${escape(p.kind)}">${escape(p.kind)}</span>${escape(p.message)}</div>`).join("");
    const confirmable = string.problems.some((p) => p.lang === lang && ["stale", "unconfirmed"].includes(p.kind));
    const previous = confirmable
      ? `<div class="note">${string.previous[lang] ? `made from: ${escape(string.previous[lang])} ` : ""}<button class="confirm" data-id="${escape(string.id)}" data-lang="${escape(lang)}" data-version="${escape(string.version)}">still right: confirm</button></div>` : "";
    const inFile = typed !== undefined && typed !== string.values[lang]
      ? `<div class="note">in the file: ${escape(string.values[lang])}</div>` : "";
    const refusal = refusedNow(key, value, string.version);
    const why = refusal ? `<div class="note refused">not saved: ${escape(refusal.error)}</div>` : "";
    return `<td><textarea rows="${Math.max(1, Math.ceil(value.length / 40))}" class="${typed !== undefined ? "dirty" : ""}"
      data-id="${escape(string.id)}" data-lang="${escape(lang)}" data-version="${escape(string.version)}"
      aria-label="${escape(string.id)} ${escape(lang)}">${escape(value)}</textarea>${why}${flags}${previous}${inFile}</td>`;
  }).join("");
  return `<tr data-string="${escape(string.id)}"><th class="field"><a href="/game/${escape(string.file)}" target="_blank" title="${escape(string.file)}:${escape(string.line)}">${escape(label)}</a></th>${cells}</tr>`;
}

function rememberFocus() {
  const element = document.activeElement;
  if (!element || element.tagName !== "TEXTAREA") return null;
  return {id: element.dataset.id, lang: element.dataset.lang, start: element.selectionStart, end: element.selectionEnd};
}

function restoreFocus(focused) {
  if (!focused) return;
  const element = [...document.querySelectorAll("textarea")].find(
    (t) => t.dataset.id === focused.id && t.dataset.lang === focused.lang);
  if (element) {
    element.focus();
    element.setSelectionRange(focused.start, focused.end);
  }
}

function applyFilter() {
  const kind = $("#filter").value;
  for (const element of document.querySelectorAll("#view .card")) {
    const kinds = element.dataset.kinds.split(" ").filter(Boolean);
    element.classList.toggle("hidden", kind === "any" ? kinds.length === 0 : Boolean(kind) && !kinds.includes(kind));
  }
}

async function post(url, body) {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(body)});
  return {ok: response.ok, body: await response.json()};
}

function say(text, refused) {
  $("#message").textContent = text;
  $("#message").className = refused ? "refused" : "";
}

// The refusal that still holds for this text: the same text of the same version of the string.
function refusedNow(key, text, version) {
  const refusal = refused.get(key);
  return refusal && refusal.text === text && refusal.version === version ? refusal : null;
}

async function save(textarea) {
  const key = `${textarea.dataset.id}|${textarea.dataset.lang}`;
  if (!dirty.has(key) || saving.has(key)) return;
  const text = textarea.value;
  const refusal = refusedNow(key, text, textarea.dataset.version);
  if (refusal) {
    say(`not saved: ${refusal.error} (change the text to send it again)`, true);
    return;
  }
  saving.add(key);
  try {
    const result = await post("/api/edit", {id: textarea.dataset.id, lang: textarea.dataset.lang, text,
                                            version: textarea.dataset.version, paper: rulesPaper});
    if (result.ok) {
      refused.delete(key);
      if (dirty.get(key) === text) dirty.delete(key);
      say(result.body.written.length ? `saved ${textarea.dataset.id} (${textarea.dataset.lang}): ${result.body.written.join(", ")}` : "no change");
    } else {
      refused.set(key, {text, version: textarea.dataset.version, error: result.body.error});
      say(`not saved: ${result.body.error}`, true);
    }
  } finally {
    saving.delete(key);
  }
  await loadState();
}

async function confirmTranslation(button) {
  const result = await post("/api/confirm", {id: button.dataset.id, lang: button.dataset.lang,
                                             version: button.dataset.version});
  say(result.ok ? `confirmed ${button.dataset.id} (${button.dataset.lang})` : `not confirmed: ${result.body.error}`,
      !result.ok);
  await loadState();
}

document.addEventListener("input", (event) => {
  if (event.target.tagName !== "TEXTAREA") return;
  dirty.set(`${event.target.dataset.id}|${event.target.dataset.lang}`, event.target.value);
  event.target.classList.add("dirty");
});
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "TEXTAREA" && event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();  // Enter saves; Shift+Enter starts a new line
    save(event.target);
  }
});
document.addEventListener("focusout", (event) => {
  // a redraw replaces the focused field: that is no reason to save
  if (event.target.tagName === "TEXTAREA" && event.target.isConnected && !redrawing) save(event.target);
});
document.addEventListener("focusin", (event) => {
  const id = event.target.dataset && event.target.dataset.id;
  const match = event.target.tagName === "TEXTAREA" && /^rules\[([^\]]+)\]/.exec(id || "");
  if (match && match[1] !== shownBlock) showBlock(match[1], false);
});
document.addEventListener("click", (event) => {
  if (event.target.matches("button.confirm")) confirmTranslation(event.target);
  if (event.target.matches(".block-box")) openBlock(event.target);
  if (event.target.matches("button.where")) showBlock(event.target.dataset.block, true);
  if (event.target.matches("button.paper")) {
    rulesPaper = event.target.dataset.paper;
    render();
  }
  const link = event.target.closest("header nav a");
  if (link) {
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    render();
  }
});
$("#filter").addEventListener("change", applyFilter);
window.addEventListener("popstate", render);

loadState().then(listen);
