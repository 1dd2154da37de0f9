// The lobby: a welcome for a signed-out visitor (js/pages/welcome.js), create a table (game, players, options, pace, bots),
// my games (those waiting for me first), open and live tables, ratings, reminder address.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { currentUser, header } from "/static/js/core/session.js";
import { toast } from "/static/js/core/toast.js";
import { botWords, paceWords, ruleNodes, withoutRuleIds } from "/static/js/core/words.js";
import { welcome } from "/static/js/pages/welcome.js";

const $ = (id) => document.getElementById(id);
let games = [], me = null;

// An option of the new table; rule ids in its help are links to the rules, not words.
function optionField(spec, players, game) {
  if (spec.kind === "bool") {
    return el("label", { class: "check", title: spec.help && withoutRuleIds(spec.help) },
      el("input", { type: "checkbox", name: spec.name, checked: spec.default }), spec.label);
  }
  const choices = spec.kind === "choice"
    ? spec.choices.map((c) => el("option", { value: c, selected: c === spec.default }, c))
    : [el("option", { value: "random" }, "random"),
      ...Array.from({ length: players }, (_, i) => el("option", { value: i }, `seat ${i + 1}`))];
  const select = el("select", { name: spec.name, id: `opt-${spec.name}` }, choices);
  return el("div", {}, el("label", { for: `opt-${spec.name}` }, spec.label), select,
    spec.help ? el("div", { class: "muted" }, ruleNodes(spec.help, game)) : null);
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

// A game timed by its rounds has only that pace; the others choose between live and turn-based.
function setPace(pace) {
  const rounds = pace.kind === "rounds";
  for (const option of $("pace").options) option.hidden = option.disabled = (option.value === "rounds") !== rounds;
  $("pace").value = pace.kind;
  if (rounds) { /* no setting: the round timer is the game's */ }
  else if (pace.kind === "live") { $("minutes").value = pace.minutes; $("increment").value = pace.increment; }
  else { $("days").value = pace.days; $("remind").value = pace.remind_days; }
  showPace();
}

const PACE_HELP = {
  live: "Each player has this time for the whole game, plus the seconds for every move. Out of time, you lose: a bot plays your seat on so the others can finish (a VERSUS game simply ends).",
  turn: "Play at your own pace over days. After the reminder the player to move gets a note (and an e-mail if they gave an address); after the last day they lose.",
  rounds: "Nobody has a clock: each round of building has its own timer, and between rounds the table waits for everyone to be ready.",
};

function showPace() {
  const kind = $("pace").value;
  $("pace-live").classList.toggle("hidden", kind !== "live");
  $("pace-turn").classList.toggle("hidden", kind !== "turn");
  $("pace-help").textContent = PACE_HELP[kind];
}

function refreshForm() {
  const game = currentGame();
  if (!game) return;
  const current = Number($("players").value) || game.players[Math.min(2, game.players.length - 1)];
  $("players").replaceChildren(...game.players.map((n) =>
    el("option", { value: n, selected: n === current }, n === 1 ? "1 (solo)" : String(n))));
  const players = Number($("players").value);
  $("options").replaceChildren(...game.options.map((spec) => optionField(spec, players, game.name)));
  const keep = $("bots").value;
  $("bots").replaceChildren(el("option", { value: "" }, "nobody yet (invite friends)"),
    ...game.bot_choices.filter((c) => c.players.includes(players)).map((c) =>
      el("option", { value: c.spec, selected: c.spec === keep }, botWords(c))));
  describeBot();
}

// The chosen bot in words: how it plays and how strong it measured.
function describeBot() {
  const game = currentGame();
  const about = game?.bot_info?.[$("bots").value.split(":")[0]];
  $("bot-about").textContent = about ? `${about.description}${about.strength ? ` Measured: ${about.strength}.` : ""}` : "";
}

function readPace() {
  if ($("pace").value === "rounds") return { kind: "rounds" };
  return $("pace").value === "live"
    ? { kind: "live", minutes: Number($("minutes").value), increment: Number($("increment").value) }
    : { kind: "turn", days: Number($("days").value), remind_days: Number($("remind").value) };
}

async function createTable(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  const game = currentGame();
  const players = Number($("players").value);
  const options = {};
  for (const spec of game.options) {
    const input = $("options").querySelector(`[name=${spec.name}]`);
    options[spec.name] = spec.kind === "bool" ? input.checked
      : spec.kind === "choice" || input.value === "random" ? input.value : Number(input.value);
  }
  try {
    const table = await api("POST", "/api/tables", { game: game.name, players, options, pace: readPace() });
    const bot = $("bots").value;
    if (bot && players > 1) await api("POST", `/api/tables/${table.id}/bots`, { bot });
    location.href = `/table/${table.id}`;
  } catch (error) {
    $("new-error").textContent = error.message;
  }
}

function seatNodes(table) {
  return table.seats.flatMap((s, i) => [i ? ", " : "",
    s.kind === "bot" ? botWords(s) : s.name ?? el("span", { class: "muted" }, "open seat"), s.rating ? el("span", { class: "rating" }, ` ${s.rating}`) : ""]);
}

function stateOf(table) {
  if (table.status === "over" && table.outcome) {
    const mine = table.you !== undefined && table.you !== null;
    if (!mine) return "finished";
    if (!table.outcome.winners.length) return "draw";
    return table.outcome.winners.includes(table.you) ? "won" : "lost";
  }
  if (table.your_turn) return "your turn";
  return table.status;
}

function tableList(tables, empty, action) {
  if (!tables.length) return el("p", { class: "muted" }, empty);
  return el("table", { class: "list" },
    el("tbody", {}, tables.map((t) => {
      const state = stateOf(t);
      return el("tr", { class: t.your_turn ? "your-turn" : "" },
        el("td", {}, el("strong", {}, t.title), " ",
          el("span", { class: `badge ${state.replace(" ", "-")} ${t.status}` }, state),
          t.rated ? el("span", { class: "badge rated" }, "rated") : null,
          el("div", { class: "muted" }, t.pace ? paceWords(t.pace) : t.pace_text)),
        el("td", {}, seatNodes(t),
          t.status === "over" && t.outcome ? el("div", { class: "muted" }, `${withoutRuleIds(t.outcome.reason)} · ${t.outcome.scores.join(" – ")}`) : null,
          t.your_turn && t.reminded ? el("div", { class: "reminder" }, "Reminder: this game has waited days for your move.") : null),
        el("td", { style: "text-align:right" }, action(t)));
    })));
}

async function loadLists() {
  const [open, live, mine] = await Promise.all([
    api("GET", "/api/tables?status=waiting"), api("GET", "/api/tables?status=playing"),
    api("GET", "/api/my/tables")]);
  mine.sort((a, b) => Number(Boolean(b.your_turn)) - Number(Boolean(a.your_turn)));
  const waiting = mine.filter((t) => t.your_turn).length;
  $("waiting-count").textContent = `${waiting} waiting for you`;
  $("waiting-count").classList.toggle("hidden", waiting === 0);
  document.title = `${waiting ? `(${waiting}) ` : ""}otherside — play with friends and bots`;
  $("my-tables").replaceChildren(tableList(mine, "You have no games yet: create a table or join one.",
    (t) => t.status === "over"
      ? el("a", { class: "button small secondary", href: `/replay/${t.id}` }, "Replay")
      : el("a", { class: `button small ${t.your_turn ? "" : "secondary"}`, href: `/table/${t.id}` },
        t.your_turn ? "Play" : t.status === "playing" ? "Open" : "Waiting room")));
  $("open-tables").replaceChildren(tableList(open, "No open table: create one!",
    (t) => el("a", { class: "button small", href: `/table/${t.id}` }, "Open")));
  $("live-tables").replaceChildren(tableList(live, "Nobody is playing right now.",
    (t) => el("a", { class: "button small secondary", href: `/table/${t.id}` }, "Watch")));
}

async function loadLeaderboard() {
  const game = $("board-game").value;
  const rows = await api("GET", `/api/ratings?game=${encodeURIComponent(game)}`).catch(() => []);
  $("leaderboard").replaceChildren(rows.length
    ? el("table", { class: "list" }, el("tbody", {}, rows.slice(0, 15).map((r, i) => el("tr", { class: r.name === me?.name ? "me" : "" },
      el("td", { class: "muted" }, `${i + 1}`),
      el("td", {}, el("a", { href: `/player/${encodeURIComponent(r.name)}` }, r.name)),
      el("td", { style: "text-align:right" }, el("strong", {}, `${r.rating}`)),
      el("td", { class: "muted", style: "text-align:right" }, `${r.games} game${r.games === 1 ? "" : "s"}`)))))
    : el("p", { class: "muted" }, "No rated game yet. Games between registered players (no bots, no guests) count."));
}

async function saveEmail(event) {
  event.preventDefault();
  const value = $("email").value.trim();
  try {
    await api("POST", "/api/me/email", { email: value || null });
    toast(value ? "Reminders will go to this address." : "No more reminders by e-mail.");
  } catch (error) {
    toast(error.message);
  }
}

async function show() {
  me = await currentUser();
  header(me);
  $("welcome").classList.toggle("hidden", Boolean(me));
  $("lobby").classList.toggle("hidden", !me);
  if (!me) {
    await welcome($("welcome"), show);
    return;
  }
  $("email").value = me.email ?? "";
  games = await api("GET", "/api/games");
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  $("board-game").replaceChildren(...games.filter((g) => g.rated_counts.length)
    .map((g) => el("option", { value: g.name }, g.title)));
  refreshForm();
  setPace(currentGame().pace);
  await Promise.all([loadLists(), loadLeaderboard()]);
}

$("game").addEventListener("change", () => { refreshForm(); setPace(currentGame().pace); });
$("players").addEventListener("change", refreshForm);
$("pace").addEventListener("change", showPace);
$("bots").addEventListener("change", describeBot);
$("new-table").addEventListener("submit", createTable);
$("board-game").addEventListener("change", loadLeaderboard);
$("email-form").addEventListener("submit", saveEmail);
setInterval(() => { if (!$("lobby").classList.contains("hidden")) loadLists(); }, 5000);
show();
