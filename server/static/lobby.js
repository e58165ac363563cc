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
  const rows = seats.map((seat) => {
    const tr = document.createElement("tr");
    const td1 = document.createElement("td"); td1.textContent = seat;
    const td2 = document.createElement("td");
    const link = answer.links[seat];
    if (link) {
      const a = document.createElement("a");
      const url = $("lang").value === "en" ? link : `${link}?lang=${$("lang").value}`;
      a.href = url; a.textContent = location.origin + url; a.id = `link-${seat}`;
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
}

async function start() {
  for (const [id, key] of [["heading", "lobby_heading"], ["ruleset-label", "lobby_ruleset"],
                           ["variant-label", "lobby_variant"], ["players-label", "lobby_players"],
                           ["lang-label", "lobby_language"], ["create", "lobby_create"], ["links-note", "lobby_links"]]) {
    if (pageWords[key] !== undefined) $(id).textContent = say(key);
  }
  // the pages' language: the lobby's own, by default
  if (pageWords.html_lang) $("lang").value = pageWords.html_lang;
  catalogue = await (await fetch("/api/rulesets")).json();
  $("ruleset").replaceChildren(...catalogue.map((r) => option(r.name, r.title)));
  $("ruleset").addEventListener("change", showRuleset);
  $("players").addEventListener("change", showSeats);
  $("new-game").addEventListener("submit", create);
  showRuleset();
}
start();
