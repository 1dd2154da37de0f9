// A table: the waiting room (seats, bots, start), then the game over a websocket.
// The server is the authority: this page only shows the views it receives and sends actions
// with the state version it saw.
import { api, currentUser, el, gameModule, header, toast } from "/static/js/api.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let user = null, table = null, you = null, socket = null, game = null, lastView = null;
let retry = 500, bots = [];

function names() {
  return table ? table.seats.map((s) => (s.seat === you ? `${s.name} (you)` : s.name ?? `seat ${s.seat + 1}`)) : [];
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(action) {
  send({ type: "action", version: lastView.version, action });
}

async function hostCall(path, body) {
  $("waiting-error").textContent = "";
  try { await api("POST", `/api/tables/${tableId}/${path}`, body ?? {}); }
  catch (error) { $("waiting-error").textContent = error.message; }
}

function renderWaiting() {
  const waiting = table.status === "waiting";
  $("waiting").classList.toggle("hidden", !waiting);
  $("summary").replaceChildren(el("div", {},
    el("div", {}, el("strong", {}, table.title), ` · ${table.players === 1 ? "solo" : `${table.players} players`} · `,
      el("span", { class: `badge ${table.status}` }, table.status)),
    el("div", {}, `host: ${table.owner}`),
    el("div", {}, Object.entries(table.options).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(" · ")),
    table.status === "over" ? el("div", { style: "margin-top:8px" },
      el("a", { class: "button small", href: `/replay/${tableId}` }, "Replay"), " ",
      el("a", { class: "button small secondary", href: `/api/tables/${tableId}/record` }, "Download record")) : null));
  if (!waiting) return;
  const link = `${location.origin}/table/${tableId}`;
  $("invite").textContent = link;
  $("invite").href = link;
  const isHost = user && user.id === table.owner_id;
  $("seats").replaceChildren(...table.seats.map((s) => el("div", { class: `seat ${s.kind === "empty" ? "" : "taken"}` },
    el("span", { class: "badge" }, `seat ${s.seat + 1}`),
    el("span", { class: "name" }, s.kind === "empty" ? "empty" : s.name),
    s.kind === "empty" && you === null ? el("button", { class: "small", onclick: () => hostCall("join", { seat: s.seat }) }, "Sit here") : null,
    s.kind === "empty" && isHost ? el("select", { class: "small", "aria-label": `bot for seat ${s.seat + 1}`, onchange: (e) => e.target.value && hostCall("bots", { seat: s.seat, bot: e.target.value }) },
      el("option", { value: "" }, "add a bot…"), bots.map((b) => el("option", { value: b }, b))) : null,
    s.kind === "bot" && isHost ? el("button", { class: "small secondary", onclick: () => hostCall("bots", { seat: s.seat, bot: null }) }, "Remove") : null,
    s.seat === you ? el("button", { class: "small secondary", onclick: () => hostCall("leave") }, "Leave") : null)));
  const empty = table.seats.some((s) => s.kind === "empty");
  $("host-actions").replaceChildren(
    isHost && empty && bots.length ? el("button", { class: "secondary", onclick: () => hostCall("bots", { bot: bots[0] }) }, `Fill empty seats with ${bots[0]} bots`) : null,
    isHost ? el("button", { id: "start", disabled: empty, onclick: () => hostCall("start") }, "Start the game") : el("span", { class: "muted" }, "The host starts the game when every seat is taken."));
}

function addLog(view) {
  if (!game || !view.events) return;
  for (const event of view.events) {
    $("log").prepend(el("li", {}, game.describe(event, names())));
  }
}

function onMessage(message) {
  if (message.type === "table") {
    table = message.table;
    you = message.you;
    document.title = `otherside — ${table.title} table`;
    renderWaiting();
  } else if (message.type === "view") {
    const previous = lastView && lastView.version < message.version ? lastView.view : null;
    if (previous) addLog(message.view);
    else if (!lastView) $("log").replaceChildren();
    lastView = message;
    game.render($("board"), message.view, {
      seat: message.seat, legal: message.legal, names: names(), play, previous,
    });
  } else if (message.type === "error") {
    toast(message.message);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => { retry = 500; };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4404) { $("board").replaceChildren(el("p", { class: "panel" }, "There is no such table.")); return; }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function start() {
  user = await currentUser();
  if (!user) {
    await api("POST", "/api/guest");
    user = await currentUser();
  }
  header(user);
  const summary = await api("GET", `/api/tables/${tableId}`).catch(() => null);
  if (summary) {
    game = await gameModule((await api("GET", "/api/games")).find((g) => g.name === summary.game)?.page ?? "generic");
    bots = (await api("GET", "/api/games")).find((g) => g.name === summary.game)?.bots ?? [];
  } else {
    game = await gameModule("generic");
  }
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("invite").href).then(() => toast("Link copied")));
  setInterval(() => send({ type: "ping" }), 25000);
  connect();
}

start();
