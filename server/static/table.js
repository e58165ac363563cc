// The table: one seat's view, received over a WebSocket after every change of the game.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , game, token] = location.pathname.split("/");
let socket = null;
let view = null;
let latest = null;  // the live view, kept while the page shows the past
let past = false;
// the page's language (?lang=fr): the server words the game, and writes the page's own
// fixed words into it (rulecraft.screen_words: PAGE), for this script to fill in; a
// language it has no words in is served in English, and the page says so
const pageWords = $("page-words") ? JSON.parse($("page-words").textContent) : {};
const lang = pageWords.html_lang || "en";
const asked = new URLSearchParams(location.search).get("lang");
// a fixed word, its {slots} filled in (a word the page was not given shows as its key)
function say(key, fields = {}) {
  const text = pageWords[key] === undefined ? key : pageWords[key];
  return text.replace(/\{(\w+)\}/g, (slot, name) => (name in fields ? String(fields[name]) : slot));
}

// Who plays a seat: someone, a bot (its kind in the page's words, settings aside), or
// the rules by their script (named by the script's word, sent as "script")
function seatKind(p) {
  if (p.seat === "human") return say("person");
  if (p.seat.startsWith("script:")) return say("script", {script: p.script || p.seat.slice("script:".length)});
  const kind = `bot_${p.seat.split(":")[0]}`;
  return kind in pageWords ? pageWords[kind] : say("bot", {bot: p.seat});
}

// A player as the page names them: their seat, and the name their person gave (shown as
// text, as every word of a view is: a name is another player's input)
function who(p) {
  return p && p.name ? say("named", {player: p.id, name: p.name}) : (p ? p.id : "");
}

function send(message) {
  $("error").textContent = "";
  socket.send(JSON.stringify({game, ...message}));
}

// A decision sent waits for its answer (the next view, or a refusal): the page's buttons
// are disabled meanwhile, so that a double click sends it once (a second message would
// be refused as made on a page the game has moved past).
let sending = false;
function decide(message) {
  if (sending || view.type === "past") return;
  sending = true;
  for (const b of document.querySelectorAll("#options button, #undo")) b.disabled = true;
  send({step: view.decisions, ...message});
}
// Undo: offered when the seat may take its last decision back; otherwise shown disabled
// with the reason (a past step and a finished game offer none)
function showUndo(v) {
  const why = v.can_undo || v.result || v.type === "past" ? "" : (v.undo_problem || "");
  $("undo").hidden = !v.can_undo && !why;
  $("undo").disabled = !v.can_undo || sending;
  $("undo").title = why;
  $("undo-why").textContent = why;
}
function answered() {
  sending = false;
  for (const b of document.querySelectorAll("#options button")) b.disabled = false;
  if (view) showUndo(view);
}

function mentions(option, space) {
  return JSON.stringify(option).includes(JSON.stringify(space));
}

function showHistory() {
  const slider = $("history");
  slider.max = latest.decisions;
  if (!past) slider.value = latest.decisions;
  const n = latest.decisions;
  $("history-text").textContent = past ? say("after", {n: view.step, m: n})
    : say(n === 0 ? "so_far_none" : n === 1 ? "so_far_one" : "so_far", {n});
  $("now").hidden = !past;
}

// The past as this seat saw it: the server replays the game that far.
async function goBack() {
  const step = Number($("history").value);
  if (step === latest.decisions) { backToNow(); return; }
  const response = await fetch(`/api/games/${game}/${token}/at/${step}?lang=${lang}`);
  const answer = await response.json();
  if (!response.ok) { $("error").textContent = answer.error; return; }
  past = true;
  show(answer);
}

function backToNow() {
  past = false;
  show(latest);
}

function show(v) {
  view = v;
  document.body.dataset.decisions = v.decisions;
  const me = v.players.find((p) => p.id === v.seat);
  $("title").textContent = v.spectator ? say("spectator_title", {title: v.title}) : say("title", {title: v.title, seat: who(me) || v.seat});
  document.title = $("title").textContent;
  const players = v.players.map((p) => `${who(p)} (${seatKind(p)})` + (p.to_play ? " ◀" : "")).join(", ");
  // a seat someone plays may be named, and every page shows the name beside it
  $("name-bar").hidden = v.spectator || !me || me.seat !== "human";
  if (me && document.activeElement !== $("name")) $("name").value = me.name || "";
  // before the first turn (a choice of the setup) there is no round yet
  const when = v.setting_up ? say("setup") : `${v.round_word || say("round")} ${v.round}`;
  $("status").textContent = `${when}. ${say("players")}${say("colon")} ${players}.`;
  // the variables the rule set shows at all times (a game clock, a track), with their values
  const counters = v.counters || [];
  $("counters").replaceChildren(...counters.map((c) => {
    const span = line("span", `${c.name} `);
    span.className = "counter";
    span.append(line("strong", c.value));
    return span;
  }));
  $("counters").hidden = !counters.length;
  // the result, and why the game ended, as the terminal's last screen says it
  const why = v.result && v.result.why ? v.result.why + (/[.!?…]$/.test(v.result.why) ? " " : ". ") : "";
  $("result").textContent = v.result ? `${say("over")}${say("colon")} ${why}${v.result.text}` : "";
  $("board").innerHTML = v.board;  // SVG made by the server from this seat's view
  // the past is looked at, not played; a spectator has no choice to wait for
  $("prompt").textContent = v.type === "past" ? say("past") : v.options.length ? (v.prompt || say("choose"))
    : (v.result || v.spectator ? "" : waitingFor(v));
  // an action of many variants is asked step by step (the server's menu): groups that
  // open one argument at a time, every option still a button of its own
  const open = new Set([...document.querySelectorAll("#options details[open]")].map((d) => d.dataset.path));
  $("options").replaceChildren(...(v.menu || v.options.map((o, i) => ({option: i}))).map((item) => menuItem(v, item, "", open)));
  showUndo(v);
  $("choice-title").hidden = v.spectator || (!!v.result && !v.can_undo && v.type !== "past");
  $("hand").replaceChildren(...v.hand.map((z) => line("p", zoneText(z))));
  $("side-title").hidden = !v.hand.length;
  // the other players as this seat sees them: what their properties say, their zones
  const others = v.players.filter((p) => p.status || p.zones);
  $("others-title").hidden = !others.length;
  $("others").replaceChildren(...others.map((p) => {
    const li = line("li", "");
    const head = document.createElement("strong");
    head.textContent = who(p) + (p.to_play ? ` (${say("to_play")})` : "");
    li.append(head, (p.status || []).length ? `${say("colon")} ${p.status.join(" · ")}` : "");
    if ((p.zones || []).length) li.append(list(p.zones.map(zoneText)));
    li.dataset.player = p.id;
    return li;
  }));
  // the things in no space nor zone (a ship's facings), and the zones of the table
  const beside = v.beside || [];
  $("beside-title").hidden = !beside.length;
  $("beside").replaceChildren(...beside.map((t) => line("li", t.details.length ? `${t.name}${say("colon")} `
                                                           + t.details.join(", ") : t.name)));
  const table = v.table || [];
  $("table-title").hidden = !table.length;
  $("table").replaceChildren(...table.map((z) => line("li", zoneText(z))));
  // an empty text is an event not told (it keeps its place, so events_from still counts)
  $("events").replaceChildren(...v.events.filter((e) => e).map((e) => {
    const li = document.createElement("li");
    li.textContent = e;
    return li;
  }));
  $("events").scrollTop = $("events").scrollHeight;
  showHistory();
  // grid squares and graph spaces carry data-space, the rooms of laid tiles data-room,
  // the pieces data-piece, the free cells where a tile may be laid data-spot ("x,y")
  for (const space of document.querySelectorAll("#board [data-space], #board [data-room], #board [data-piece]")) {
    const name = space.dataset.space || space.dataset.room || space.dataset.piece;
    space.addEventListener("click", (event) => {
      const naming = view.options.map((o, i) => [o, i]).filter(([o]) => mentions(o.option, name));
      // a piece standing in a space: the click is the piece's when an option names it
      if (space.dataset.piece && !naming.length) return;
      event.stopPropagation();
      clickOn(naming);
    });
  }
  for (const cell of document.querySelectorAll("#board [data-spot]")) {
    const [x, y] = cell.dataset.spot.split(",").map(Number);
    const here = () => view.options.map((o, i) => [o, i]).filter(([o]) => o.option && o.option.x === x && o.option.y === y);
    cell.addEventListener("click", () => clickOn(here()));
    cell.addEventListener("mouseenter", () => { const h = here(); preview(h.length ? h[0][1] : null); });
    cell.addEventListener("mouseleave", () => preview(null));
  }
}

// Whom the seat waits for: the player who must decide now (in turn or not), named
function waitingFor(v) {
  const p = v.players.find((q) => q.id === v.deciding);
  return p ? say("waiting_for", {player: who(p), kind: seatKind(p)}) : say("waiting");
}

// A button for one option (its label in a group says only what the group has not said),
// or a group: its summary names the action or the value it stands for; opened, it asks
// for the next argument.
function menuItem(v, item, path, open) {
  if (item.option !== undefined) {
    const i = item.option, o = v.options[i];
    const b = document.createElement("button");
    b.className = "option"; b.dataset.index = i;
    b.textContent = item.label || o.label;
    if (o.cost && !item.label) {
      const c = document.createElement("span");
      c.className = "cost"; c.textContent = `(${o.cost})`;
      b.append(c);
    }
    b.addEventListener("click", () => decide({type: "choose", option: o.option}));
    // what the option is about, shown on the board while the pointer or focus is on it
    for (const on of ["mouseenter", "focus"]) b.addEventListener(on, () => preview(i));
    for (const off of ["mouseleave", "blur"]) b.addEventListener(off, () => preview(null));
    return b;
  }
  const group = document.createElement("details");
  group.className = "group";
  group.dataset.path = `${path}/${item.label}`;
  group.open = open.has(group.dataset.path);
  const summary = line("summary", `${item.label} `);
  summary.append(line("span", `(${item.count})`));
  summary.lastChild.className = "count";
  if (item.cost) {
    summary.append(line("span", `(${item.cost})`));
    summary.lastChild.className = "cost";
  }
  const indices = leaves(item);
  for (const on of ["mouseenter", "focus"]) summary.addEventListener(on, () => preview(indices));
  for (const off of ["mouseleave", "blur"]) summary.addEventListener(off, () => preview(null));
  group.append(summary);
  if (item.ask) {
    group.append(line("p", `${item.ask}${say("colon")}`));
    group.lastChild.className = "ask";
  }
  const items = document.createElement("div");
  items.className = "items";
  items.append(...item.items.map((sub) => menuItem(v, sub, group.dataset.path, open)));
  group.append(items);
  return group;
}

function leaves(item) {
  return item.option !== undefined ? [item.option] : item.items.flatMap(leaves);
}

function line(tag, text) {
  const e = document.createElement(tag);
  e.textContent = text;
  return e;
}

function list(texts) {
  const ul = document.createElement("ul");
  ul.replaceChildren(...texts.map((t) => line("li", t)));
  return ul;
}

// A zone: its things, each with what its properties say, or, when the seat does not see
// into it, how many lie there, its top and what was shown to the seat.
function zoneText(z) {
  if (z.items) return `${z.zone}${say("colon")} ${z.items.join(", ") || say("nothing")}`;
  const parts = [say("face_down", {n: z.count})];
  if (z.top) parts.push(say("top", {card: z.top}));
  if ((z.shown || []).length) parts.push(say("shown", {things: z.shown.join(", ")}));
  return `${z.zone}${say("colon")} ${parts.join(", ")}`;
}

// A click on the board plays the one option it names, or points out the options that do.
function clickOn(naming) {
  for (const b of document.querySelectorAll("button.option")) b.classList.remove("hint");
  if (naming.length === 1) decide({type: "choose", option: naming[0][0].option});
  for (const [, i] of naming) {
    const b = document.querySelector(`button.option[data-index="${i}"]`);
    b.classList.add("hint");
    // a button in a group of options asked step by step: its groups open
    for (let d = b.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  }
}

// The option's context on the board: the spaces, rooms and pieces it names, and for a
// tile to be laid, the tile where and as this option would lay it.
// A list of indices: a group's options, all of them.
function preview(index) {
  for (const e of document.querySelectorAll("#board .target")) e.classList.remove("target");
  for (const g of document.querySelectorAll("#board .ghost")) g.setAttribute("visibility", "hidden");
  if (Array.isArray(index)) {
    for (const e of document.querySelectorAll("#board [data-space], #board [data-room], #board [data-piece]")) {
      const name = e.dataset.space || e.dataset.room || e.dataset.piece;
      if (index.some((i) => view.options[i] && mentions(view.options[i].option, name))) e.classList.add("target");
    }
    return;
  }
  if (index === null || !view.options[index]) return;
  const option = view.options[index].option;
  for (const e of document.querySelectorAll("#board [data-space], #board [data-room], #board [data-piece]")) {
    if (mentions(option, e.dataset.space || e.dataset.room || e.dataset.piece)) e.classList.add("target");
  }
  const ghost = document.querySelector(`#board .ghost[data-option="${index}"]`);
  if (ghost) ghost.setAttribute("visibility", "visible");
  const cell = option && document.querySelector(`#board [data-spot="${option.x},${option.y}"]`);
  if (cell) cell.classList.add("target");
}

function openSocket() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // steps=1: a view after each decision of a round of bots, not only once all have answered
  socket = new WebSocket(`${scheme}://${location.host}/ws/${game}/${token}?lang=${lang}&steps=1`);
  socket.onopen = () => connected(true);
  socket.onmessage = (m) => {
    const message = JSON.parse(m.data);
    if (message.type === "view") {
      // the game moved on: a refusal or a note shown before is about a page it has left behind
      if (latest && message.decisions !== latest.decisions) {
        $("error").textContent = "";
        $("note").textContent = "";
      }
      // a view carries the events since those the page has (all of them: events_from 0)
      const earlier = message.events_from && latest ? latest.events.slice(0, message.events_from) : [];
      message.events = earlier.concat(message.events);
      latest = message;
      sending = false;
      if (past) showHistory(); else show(message);
    }
    else if (message.type === "error") {
      $("error").textContent = message.message;
      answered();
    }
    // another player took back their last decision (sent after the view without it): their
    // events have left this page, and it says why
    else if (message.type === "undone") $("note").textContent = say("undone", {player: message.player});
  };
  // a dropped connection is opened again; the server then sends the current view. A
  // link the server refuses (4404: no such game or seat; 4410: replaced by a new link) is
  // not tried again, nor said to be, and offers nothing to click any more.
  socket.onclose = (e) => {
    connected(false);
    if (e.code === 4404 || e.code === 4410) {
      $("connection").textContent = e.code === 4410 ? say("link_replaced") : say("refused");
      $("options").replaceChildren();
      $("undo").hidden = true;
      $("name-bar").hidden = true;
    }
    else setTimeout(openSocket, 1000);
  };
}

// Whether the page is live: a lost connection is said, so a player knows a click waits.
function connected(yes) {
  document.body.dataset.connected = yes ? "yes" : "no";
  $("connection").textContent = yes ? "" : say("lost");
}
for (const [id, key] of [["choice-title", "choice"], ["side-title", "side"], ["events-title", "happened"],
                         ["others-title", "others"], ["beside-title", "beside"], ["table-title", "table"],
                         ["undo", "undo"], ["history-label", "history"], ["now", "now"],
                         ["name-label", "name_label"], ["name-save", "name_save"]]) {
  $(id).textContent = say(key);
}
$("title").textContent = say("connecting");
if (asked && asked.trim().toLowerCase().replace("_", "-").split("-")[0] !== lang) {
  $("lang-note").textContent = say("no_language", {lang: asked});
  $("lang-note").hidden = false;
}
$("undo").addEventListener("click", () => decide({type: "undo"}));
$("name-bar").addEventListener("submit", (event) => {
  event.preventDefault();
  send({type: "name", name: $("name").value});
  $("name").blur();
});
$("history").addEventListener("change", goBack);
$("now").addEventListener("click", backToNow);
openSocket();
