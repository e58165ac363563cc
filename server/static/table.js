// The table: one seat's view, received over a WebSocket after every change of the game.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , game, token] = location.pathname.split("/");
let socket = null;
let view = null;
let latest = null;  // the live view, kept while the page shows the past
let past = false;
// the page's language (?lang=fr): the server words the game, this table the page around it
const lang = new URLSearchParams(location.search).get("lang") || "en";
const UI = {
  en: {title: (t, s) => `${t}: you are ${s}`, round: "Round", players: "Players", over: "Game over",
       waiting: "Waiting for another player.", choose: "Choose", choice: "Your choice", side: "Your side",
       happened: "What happened", undo: "Undo my last decision", history: "History", now: "Back to now",
       after: (n, m) => `after decision ${n} of ${m}`, so_far: (n) => `${n} decisions so far`, nothing: "nothing",
       lost: "Connection lost: reconnecting…"},
  fr: {title: (t, s) => `${t} : vous êtes ${s}`, round: "Manche", players: "Joueurs", over: "Partie terminée",
       waiting: "En attente d'un autre joueur.", choose: "Choisissez", choice: "Votre choix", side: "Votre jeu",
       happened: "Ce qui s'est passé", undo: "Annuler ma dernière décision", history: "Historique",
       now: "Revenir au présent", after: (n, m) => `après la décision ${n} sur ${m}`,
       so_far: (n) => `${n} décisions jusqu'ici`, nothing: "rien", lost: "Connexion perdue : reconnexion…"},
};
const words = UI[lang] || UI.en;

function send(message) {
  $("error").textContent = "";
  socket.send(JSON.stringify({game, ...message}));
}

function mentions(option, space) {
  return JSON.stringify(option).includes(JSON.stringify(space));
}

function showHistory() {
  const slider = $("history");
  slider.max = latest.decisions;
  if (!past) slider.value = latest.decisions;
  $("history-text").textContent = past ? words.after(view.step, latest.decisions) : words.so_far(latest.decisions);
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
  document.title = `${v.title}: ${v.seat}`;
  $("title").textContent = words.title(v.title, v.seat);
  const players = v.players.map((p) => `${p.id} (${p.seat})${p.to_play ? " ◀" : ""}`).join(", ");
  $("status").textContent = `${words.round} ${v.round}. ${words.players}: ${players}.`;
  $("result").textContent = v.result ? `${words.over}: ${v.result.text}` : "";
  $("board").innerHTML = v.board;  // SVG made by the server from this seat's view
  $("prompt").textContent = v.options.length ? (v.prompt || words.choose) : (v.result ? "" : words.waiting);
  $("options").replaceChildren(...v.options.map((o, i) => {
    const b = document.createElement("button");
    b.className = "option"; b.dataset.index = i;
    b.textContent = o.label;
    if (o.cost) {
      const c = document.createElement("span");
      c.className = "cost"; c.textContent = `(${o.cost})`;
      b.append(c);
    }
    b.addEventListener("click", () => send({type: "choose", step: v.decisions, option: o.option}));
    return b;
  }));
  $("undo").hidden = !v.can_undo;
  $("choice-title").hidden = !!v.result && !v.can_undo;
  $("hand").replaceChildren(...v.hand.map((z) => {
    const p = document.createElement("p");
    p.textContent = `${z.zone}: ${z.items.join(", ") || words.nothing}`;
    return p;
  }));
  $("events").replaceChildren(...v.events.map((e) => {
    const li = document.createElement("li");
    li.textContent = e;
    return li;
  }));
  $("events").scrollTop = $("events").scrollHeight;
  showHistory();
  // grid squares and graph spaces carry data-space, the rooms of laid tiles data-room
  for (const space of document.querySelectorAll("#board [data-space], #board [data-room]")) {
    space.addEventListener("click", () => clickSpace(space.dataset.space || space.dataset.room));
  }
}

// A click on a space plays the one option naming it, or points out the options that do.
function clickSpace(space) {
  const naming = view.options.map((o, i) => [o, i]).filter(([o]) => mentions(o.option, space));
  for (const b of document.querySelectorAll("button.option")) b.classList.remove("hint");
  if (naming.length === 1) send({type: "choose", step: view.decisions, option: naming[0][0].option});
  for (const [, i] of naming) document.querySelector(`button.option[data-index="${i}"]`).classList.add("hint");
}

function openSocket() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${game}/${token}?lang=${lang}`);
  socket.onopen = () => connected(true);
  socket.onmessage = (m) => {
    const message = JSON.parse(m.data);
    if (message.type === "view") {
      // a view carries the events since those the page has (all of them: events_from 0)
      const earlier = message.events_from && latest ? latest.events.slice(0, message.events_from) : [];
      message.events = earlier.concat(message.events);
      latest = message;
      if (past) showHistory(); else show(message);
    }
    else if (message.type === "error") $("error").textContent = message.message;
  };
  // a dropped connection is opened again; the server then sends the current view
  socket.onclose = (e) => {
    connected(false);
    if (e.code !== 4404) setTimeout(openSocket, 1000);
  };
}

// Whether the page is live: a lost connection is said, so a player knows a click waits.
function connected(yes) {
  document.body.dataset.connected = yes ? "yes" : "no";
  $("connection").textContent = yes ? "" : words.lost;
}
for (const [id, key] of [["choice-title", "choice"], ["side-title", "side"], ["events-title", "happened"],
                         ["undo", "undo"], ["history-label", "history"], ["now", "now"]]) {
  $(id).textContent = words[key];
}
$("undo").addEventListener("click", () => send({type: "undo", step: view.decisions}));
$("history").addEventListener("change", goBack);
$("now").addEventListener("click", backToNow);
openSocket();
