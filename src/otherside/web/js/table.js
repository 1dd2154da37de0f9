// A table: the waiting room (seats, bots, start), then the game over a websocket, with the
// players' clocks, resign, the log of what happened and the table's chat.
// The server is the authority: this page only shows the views it receives and sends actions
// with the state version it saw. Every text of a user (names, chat) goes in as a text node.
import { api, currentUser, el, gameModule, header, toast } from "/static/js/api.js";
import { clockState, formatClock, timeLeft, turnWords } from "/static/js/clock.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let user = null, table = null, you = null, socket = null, game = null, gameInfo = null;
let lastView = null, clock = null, retry = 500, logFilled = false, everConnected = false;

function names() {
  return table ? table.seats.map((s) => (s.seat === you ? `${s.name} (you)` : s.name ?? `seat ${s.seat + 1}`)) : [];
}

function send(message, quiet = false) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else if (!quiet) toast("Not connected: reconnecting…");
}

function play(action) {
  send({ type: "action", version: lastView.version, action });
}

function confirmThen(text, action) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  dialog.onclose = () => { if (dialog.returnValue === "yes") action(); };
  dialog.returnValue = "";
  dialog.showModal();
}

function resign() {
  const many = table && table.players > 2;
  confirmThen(many ? "Resign? A bot plays your seat for the rest of the game and it counts as a loss for you."
    : "Resign? The game ends now and counts as a loss for you.", () => send({ type: "resign" }));
}

async function tableCall(path, body) {
  $("waiting-error").textContent = "";
  try { return await api("POST", `/api/tables/${tableId}/${path}`, body ?? {}); }
  catch (error) { $("waiting-error").textContent = error.message; toast(error.message); return null; }
}

// -- the table: summary, players and clocks, waiting room --------------------------------------

function optionText(name, value) {
  const spec = gameInfo?.options.find((o) => o.name === name);
  const label = spec?.label ?? name.replaceAll("_", " ");
  if (spec?.kind === "first_player") return `${label}: ${value === "random" ? "drawn at the start" : `seat ${Number(value) + 1}`}`;
  if (spec?.kind === "bool") return `${label}: ${value ? "yes" : "no"}`;
  if (!spec) return null;
  return `${label}: ${value}`;
}

function renderSummary() {
  $("table-title").textContent = table.title;
  const options = Object.entries(table.options).map(([k, v]) => optionText(k, v)).filter(Boolean);
  // replaceChildren would write a null as the text "null": leave the missing parts out.
  $("summary").replaceChildren(...[
    el("div", { class: "row" },
      el("span", { class: `badge ${table.status}` }, table.status === "over" ? "finished" : table.status),
      el("span", { class: "badge pace" }, table.pace_text),
      table.rated ? el("span", { class: "badge rated", title: "the result moves the players' ratings" }, "rated") : null),
    el("div", {}, `${table.players === 1 ? "solo" : `${table.players} players`} · host ${table.owner}`),
    options.length ? el("div", {}, options.join(" · ")) : null,
    table.outcome ? el("div", { class: "outcome-line" }, outcomeWords()) : null,
  ].filter(Boolean));
  renderPlayers();
  renderActions();
}

function outcomeWords() {
  const outcome = table.outcome;
  const who = outcome.winners.map((s) => names()[s]).join(" and ");
  const result = outcome.winners.length === 0 ? "Draw" : `${who} won`;
  return `${result} — ${outcome.reason}. Scores: ${outcome.scores.join(" – ")}.`;
}

function renderPlayers() {
  const list = table.seats.map((s) => {
    const left = table.status === "playing" ? timeLeft(clock, s.seat) : null;
    const waiting = table.status === "playing" ? turnWords(clock, s.seat) : null;
    const toMove = table.status === "playing" && (clock?.to_move ?? table.to_move).includes(s.seat);
    const low = left !== null && left < 30000 && toMove;
    return el("div", { class: `pl ${toMove ? "to-move" : ""} ${s.seat === you ? "me" : ""}`, "data-seat": s.seat },
      el("span", { class: "seat-no" }, `${s.seat + 1}`),
      el("span", { class: "pl-name" },
        s.user_id ? el("a", { href: `/player/${encodeURIComponent(s.name)}` }, s.name) : (s.name ?? "empty"),
        s.seat === you ? " (you)" : "",
        s.rating ? el("span", { class: "rating", title: `${table.title} rating` }, ` ${s.rating}`) : null,
        s.forfeit ? el("span", { class: "muted" }, ` — ${s.forfeit === "timeout" ? "out of time" : s.forfeit}; ${s.bot} bot plays on`) : null,
        s.guest ? el("span", { class: "muted" }, " · guest") : null),
      left !== null ? el("span", { class: `clock ${toMove ? "running" : ""} ${low ? "low" : ""}`, "data-testid": `clock-${s.seat}` }, formatClock(left)) : null,
      waiting ? el("span", { class: "muted turn-words" }, waiting) : null);
  });
  $("players").replaceChildren(...list);
}

function renderActions() {
  const playing = table.status === "playing";
  const seated = you !== null && you !== undefined;
  $("table-actions").replaceChildren(...[
    playing && seated && !game?.ownsResign ? el("button", { class: "small secondary danger", id: "resign", onclick: resign }, "Resign") : null,
    table.status === "over" ? el("a", { class: "button small", href: `/replay/${tableId}` }, "Replay") : null,
    table.status === "over" ? el("a", { class: "button small secondary", href: `/api/tables/${tableId}/record` }, "Download record") : null,
    table.status === "over" && seated ? el("button", { class: "small secondary", id: "rematch", onclick: rematch }, "Rematch") : null,
    table.rematch ? el("a", { class: "button small", href: `/table/${table.rematch}` }, "Go to the rematch") : null,
    el("a", { class: "button small secondary", href: `/rules/${table.game}`, target: "_blank" }, "Rules"),
  ].filter(Boolean));
}

async function rematch() {
  const made = await tableCall("rematch");
  if (made) location.href = `/table/${made.id}`;
}

function renderWaiting() {
  const waiting = table.status === "waiting";
  $("waiting").classList.toggle("hidden", !waiting);
  if (!waiting) return;
  const link = `${location.origin}/table/${tableId}`;
  $("invite").textContent = link;
  $("invite").href = link;
  const isHost = user && user.id === table.owner_id;
  const choices = (gameInfo?.bot_choices ?? []).filter((c) => c.players.includes(table.players));
  const info = gameInfo?.bot_info ?? {};
  const described = (c) => { const d = info[c.spec.split(":")[0]]; return d ? `${c.label} — ${d.description}` : c.label; };
  $("seats").replaceChildren(...table.seats.map((s) => el("div", { class: `seat ${s.kind === "empty" ? "" : "taken"}` },
    el("span", { class: "badge" }, `seat ${s.seat + 1}`),
    el("span", { class: "name" }, s.kind === "empty" ? "empty" : s.name,
      s.rating ? el("span", { class: "rating" }, ` ${s.rating}`) : null,
      s.guest ? el("span", { class: "muted" }, " (guest)") : null),
    s.kind === "empty" && you === null ? el("button", { class: "small", onclick: () => tableCall("join", { seat: s.seat }) }, "Sit here") : null,
    s.kind === "empty" && isHost ? el("select", { class: "small", "aria-label": `bot for seat ${s.seat + 1}`, onchange: (e) => e.target.value && tableCall("bots", { seat: s.seat, bot: e.target.value }) },
      el("option", { value: "" }, "add a bot…"), choices.map((c) => el("option", { value: c.spec }, described(c)))) : null,
    s.kind === "bot" && isHost ? el("button", { class: "small secondary", onclick: () => tableCall("bots", { seat: s.seat, bot: null }) }, "Remove") : null,
    s.seat === you ? el("button", { class: "small secondary", onclick: () => tableCall("leave") }, "Leave") : null)));
  const empty = table.seats.filter((s) => s.kind === "empty").length;
  const guests = table.seats.some((s) => s.guest);
  const bot = table.seats.some((s) => s.kind === "bot");
  const ratedNote = gameInfo?.rated_counts?.includes(table.players)
    ? (guests || bot ? "Not rated: every seat must be a registered player." : "Rated if every seat stays a registered player.")
    : null;
  $("host-actions").replaceChildren(...[
    isHost && empty && choices.length ? el("button", { class: "secondary", onclick: () => tableCall("bots", { bot: choices[0].spec }) }, `Fill ${empty === 1 ? "the empty seat" : `the ${empty} empty seats`} with ${choices[0].label} bots`) : null,
    isHost ? el("button", { id: "start", disabled: empty > 0, onclick: () => tableCall("start") }, "Start the game")
      : el("span", { class: "muted" }, "The host starts the game when every seat is taken."),
    ratedNote ? el("span", { class: "muted" }, ratedNote) : null,
  ].filter(Boolean));
}

// -- the log ----------------------------------------------------------------------------------

let lastLine = null;

function linesOf(view) {
  if (!game) return [];
  if (game.summary) {
    // Views of a game played at once come often and may tell the same moment again.
    const line = game.summary(view, names());
    if (!line || line === lastLine) return [];
    lastLine = line;
    return [line];
  }
  return (view.events ?? []).map((e) => game.describe(e, names())).filter(Boolean);
}

function addLog(view) {
  for (const line of linesOf(view)) $("log").prepend(el("li", {}, line));
}

async function fillLog() {
  // After a reload the log is rebuilt from the game so far, as this seat saw it.
  logFilled = true;
  const history = await api("GET", `/api/tables/${tableId}/history`).catch(() => null);
  if (!history) return;
  $("log").replaceChildren();
  lastLine = null;
  for (const view of history.views) addLog(view);
}

// -- chat -------------------------------------------------------------------------------------

function addChat(lines) {
  const list = $("chat-lines");
  for (const line of lines) {
    const time = new Date(line.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    list.append(el("li", {}, el("span", { class: "muted" }, time), " ",
      el("strong", {}, line.name), line.seat !== null ? el("span", { class: "muted" }, ` (seat ${line.seat + 1})`) : null,
      ": ", line.text));
  }
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

// -- messages -----------------------------------------------------------------------------------

function renderBoard() {
  if (!lastView || !game) return;
  game.render($("board"), lastView.view, {
    seat: lastView.seat, legal: lastView.legal, names: names(), play, resign,
    previous: lastView.previous ?? null, clock: lastView.clock, table,
  });
}

function onMessage(message) {
  if (message.type === "table") {
    table = message.table;
    you = message.you;
    document.title = `otherside — ${table.title} table`;
    renderWaiting();
    renderSummary();
    if (lastView) renderBoard();
  } else if (message.type === "view") {
    const previous = lastView && lastView.version < message.version ? lastView.view : null;
    if (previous) addLog(message.view);
    lastView = { ...message, previous };
    clock = clockState(message.clock);
    if (table) renderSummary();
    renderBoard();
    if (!logFilled) fillLog();
    const mine = message.legal.length > 0;
    document.title = `${mine ? "(Your turn) " : ""}otherside — ${table?.title ?? "table"}`;
  } else if (message.type === "chat") {
    addChat(message.lines);
  } else if (message.type === "error") {
    // A game that explains refusals on its own board (Recto Verso's R4/R5) says it there.
    if (game?.error && lastView) game.error(message.message);
    else toast(message.message, 6000);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => {
    retry = 500;
    $("offline").classList.add("hidden");
    if (everConnected) $("chat-lines").replaceChildren();
    everConnected = true;
  };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4404) { $("board").replaceChildren(el("p", { class: "panel" }, "There is no such table.")); return; }
    $("offline").classList.remove("hidden");
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
  const games = await api("GET", "/api/games");
  gameInfo = games.find((g) => g.name === summary?.game) ?? null;
  game = await gameModule(gameInfo?.page ?? "generic");
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("invite").href).then(() => toast("Link copied")));
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text });
    $("chat-text").value = "";
  });
  setInterval(() => send({ type: "ping" }, true), 25000);
  setInterval(() => { if (table && table.status === "playing") renderPlayers(); }, 1000);
  connect();
}

start();
