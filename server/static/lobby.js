// The lobby: pick a rule set, its variant and who sits in each seat; get the links.
"use strict";
let catalogue = [];
const $ = (id) => document.getElementById(id);
// the lobby's fixed words in its language (?lang=fr), written into the page by the server
// (rulecraft.screen_words: PAGE, its lobby_ keys); English when served without them
const pageWords = $("page-words") ? JSON.parse($("page-words").textContent) : {};
function say(key, fields = {}) {
  const text = pageWords[key] === undefined ? key : pageWords[key];
  return text.replace(/\{(\w+)\}/g, (slot, name) => (name in fields ? String(fields[name]) : slot));
}
// a bot by its kind in the lobby's words (settings aside), or by its name
function botWord(name) {
  const kind = `bot_${name.split(":")[0]}`;
  return kind in pageWords ? pageWords[kind] : say("bot", {bot: name});
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text;
  return o;
}

function current() { return catalogue.find((r) => r.name === $("ruleset").value); }

function showRuleset() {
  const r = current();
  // each variant by its title, its name the value sent
  const titles = r.variant_titles || {};
  $("variant").replaceChildren(option("", say("lobby_no_variant")), ...r.variants.map((v) => option(v, titles[v] || v)));
  const counts = [];
  for (let n = r.min_players; n <= r.max_players; n++) counts.push(option(n, n));
  $("players").replaceChildren(...counts);
  showSeats();
}

function showSeats() {
  const r = current();
  const n = Number($("players").value);
  const rows = [];
  for (let i = 1; i <= n; i++) {
    const p = document.createElement("p");
    const label = document.createElement("label");
    label.textContent = `p${i} `;
    const sel = document.createElement("select");
    sel.className = "seat"; sel.id = `seat-p${i}`;
    sel.append(option("human", say("lobby_person")), ...r.bots.map((b) => option(b, botWord(b))));
    label.append(sel); p.append(label); rows.push(p);
  }
  $("seats").replaceChildren(...rows);
}

// Creating a game: the button is disabled and says it is working until the answer, so
// that a double click creates one game
let creating = false;
async function create(event) {
  event.preventDefault();
  if (creating) return;
  creating = true;
  $("create").disabled = true;
  $("create").textContent = say("lobby_creating");
  try {
    await createGame();
  } finally {
    creating = false;
    $("create").disabled = false;
    $("create").textContent = say("lobby_create");
  }
}

// The games created from this browser, kept in its localStorage (never a list the server
// hands out: each holds its seats' secret links and the host's): shown with their links,
// a new link for a seat (the old one then stops working), and a way to forget one.
const MINE = "rulecraft.games";
function remembered() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && typeof g.game === "string" && typeof g.organiser === "string") : [];
  } catch (e) {
    return [];
  }
}
function remember(list) { localStorage.setItem(MINE, JSON.stringify(list)); }
function keep(entry) {
  const list = remembered().filter((g) => g.game !== entry.game);
  remember([entry, ...list]);
}
function update(game, fields) {
  remember(remembered().map((g) => (g.game === game ? {...g, ...fields} : g)));
}
function forget(game) {
  remember(remembered().filter((g) => g.game !== game));
  showMine();
}
// the host API's address for a game: its host link's
const hostApi = (g) => g.organiser.replace(/^\/organiser\//, "/api/organiser/");
const withLang = (link, lang) => (!lang || lang === "en" ? link : `${link}?lang=${lang}`);

function anchor(url, id) {
  const a = document.createElement("a");
  a.href = url; a.textContent = location.origin + url; a.id = id;
  return a;
}

function showMine() {
  const list = remembered();
  $("mine").hidden = !list.length;
  $("mine-list").replaceChildren(...list.map((g) => {
    const box = document.createElement("div");
    box.className = "mine"; box.id = `mine-${g.game}`;
    const head = document.createElement("h3");
    const when = g.created ? new Date(g.created).toLocaleString(pageWords.html_lang || "en") : "";
    head.textContent = `${g.title}` + (when ? ` (${say("lobby_created", {when})})` : "");
    const forgetButton = document.createElement("button");
    forgetButton.textContent = say("lobby_forget"); forgetButton.id = `forget-${g.game}`;
    forgetButton.addEventListener("click", () => forget(g.game));
    head.append(" ", forgetButton);
    box.append(head);
    if (g.problem) {
      const p = document.createElement("p");
      p.className = "error"; p.textContent = g.problem;
      box.append(p);
    }
    const table = document.createElement("table");
    table.className = "links";
    for (const seat of [...Object.keys(g.seats || {}), "spectator"]) {
      const tr = document.createElement("tr");
      const td1 = document.createElement("td");
      const name = (g.names || {})[seat];
      td1.textContent = name ? say("named", {player: seat, name}) : seat;
      const td2 = document.createElement("td");
      const link = (g.links || {})[seat];
      if (link) {
        td2.append(anchor(withLang(link, g.lang), `mine-${g.game}-link-${seat}`));
        const again = document.createElement("button");
        again.textContent = say("lobby_new_link"); again.id = `mine-${g.game}-new-${seat}`;
        again.addEventListener("click", () => newLink(g, seat));
        td2.append(" ", again);
      } else {
        td2.textContent = say("lobby_played_by", {bot: botWord(g.seats[seat])});
      }
      tr.append(td1, td2);
      table.append(tr);
    }
    const tr = document.createElement("tr");
    const td1 = document.createElement("td"); td1.textContent = say("lobby_host_link");
    const td2 = document.createElement("td"); td2.append(anchor(withLang(g.organiser, g.lang), `mine-${g.game}-host`));
    tr.append(td1, td2);
    table.append(tr);
    box.append(table);
    return box;
  }));
}

// A new link for a seat: the old one stops working (its open page is told so)
async function newLink(g, seat) {
  const response = await fetch(`${hostApi(g)}/links?lang=${pageWords.html_lang || "en"}`,
                               {method: "POST", body: JSON.stringify({seat})});
  const answer = await response.json();
  if (!response.ok) { $("error").textContent = answer.error; return; }
  update(g.game, {links: answer.links, names: answer.names});
  // the links just shown after creating the game too
  const shown = $(`link-${seat}`);
  if (shown && shown.dataset.game === g.game) {
    const url = withLang(answer.link, g.lang);
    shown.href = url; shown.textContent = location.origin + url;
  }
  showMine();
}

// What the server says of each game now: the links (replaced from another browser, say)
// and the names the people gave; a game it does not know any more says why
async function refreshMine() {
  for (const g of remembered()) {
    try {
      const response = await fetch(`${hostApi(g)}?lang=${pageWords.html_lang || "en"}`);
      const answer = await response.json();
      update(g.game, response.ok ? {links: answer.links, names: answer.names, seats: answer.seats, problem: null}
                                 : {problem: answer.error});
    } catch (e) {
      // the server is not answering: the list stays as it was kept
    }
  }
  showMine();
}

// A host link opened in this browser: its game is added to the list here too
async function adoptHosted() {
  const m = location.pathname.match(/^\/organiser\/([^/]+)\/([^/]+)$/);
  if (!m) return;
  const response = await fetch(`/api/organiser/${m[1]}/${m[2]}?lang=${pageWords.html_lang || "en"}`);
  const answer = await response.json();
  if (!response.ok) { $("error").textContent = answer.error; return; }
  const known = remembered().find((g) => g.game === answer.game);
  keep({...answer, created: known ? known.created : null, lang: known ? known.lang : (pageWords.html_lang || "en")});
  // the secret token leaves the address bar
  history.replaceState(null, "", `/${location.search}`);
}

async function createGame() {
  $("error").textContent = "";
  const body = {
    ruleset: $("ruleset").value,
    variant: $("variant").value || null,
    seats: [...document.querySelectorAll("select.seat")].map((s) => s.value),
  };
  const response = await fetch("/api/games", {method: "POST", body: JSON.stringify(body)});
  const answer = await response.json();
  if (!response.ok) { $("error").textContent = answer.error; return; }
  // every seat is listed; only the people's seats and the spectator have a link (a bot's
  // seat has no page: its link would show the bot's hand)
  const seats = [...Object.keys(answer.seats), "spectator"];
  const lang = $("lang").value;
  const rows = seats.map((seat) => {
    const tr = document.createElement("tr");
    const td1 = document.createElement("td"); td1.textContent = seat;
    const td2 = document.createElement("td");
    const link = answer.links[seat];
    if (link) {
      const a = anchor(withLang(link, lang), `link-${seat}`);
      a.dataset.game = answer.game;
      td2.append(a);
    } else {
      td2.textContent = say("lobby_played_by", {bot: botWord(answer.seats[seat])});
      td2.id = `bot-${seat}`;
    }
    tr.append(td1, td2);
    return tr;
  });
  $("link-table").replaceChildren(...rows);
  $("links").hidden = false;
  const r = current();
  const variant = body.variant && (r.variant_titles || {})[body.variant];
  keep({game: answer.game, organiser: answer.organiser, title: variant ? `${r.title}: ${variant}` : r.title,
        created: new Date().toISOString(), lang, seats: answer.seats, links: answer.links, names: {}});
  showMine();
}

async function start() {
  for (const [id, key] of [["heading", "lobby_heading"], ["ruleset-label", "lobby_ruleset"],
                           ["variant-label", "lobby_variant"], ["players-label", "lobby_players"],
                           ["lang-label", "lobby_language"], ["create", "lobby_create"], ["links-note", "lobby_links"],
                           ["mine-title", "lobby_mine"], ["host-note", "lobby_host_note"]]) {
    if (pageWords[key] !== undefined) $(id).textContent = say(key);
  }
  // the pages' language: the lobby's own, by default
  if (pageWords.html_lang) $("lang").value = pageWords.html_lang;
  showMine();
  await adoptHosted();
  refreshMine();
  catalogue = await (await fetch("/api/rulesets")).json();
  $("ruleset").replaceChildren(...catalogue.map((r) => option(r.name, r.title)));
  $("ruleset").addEventListener("change", showRuleset);
  $("players").addEventListener("change", showSeats);
  $("new-game").addEventListener("submit", create);
  showRuleset();
}
start();
