// The lobby: a welcome for a signed-out visitor (js/pages/welcome.js), create a table (game, players, options, pace, bots),
// my games (those waiting for me first), open and live tables, ratings, reminder address.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { currentUser, header } from "/static/js/core/session.js";
import { toast } from "/static/js/core/toast.js";
import { botWords, paceWords, reasonWords, ruleNodes, withoutRuleIds } from "/static/js/core/words.js";
import { welcome } from "/static/js/pages/welcome.js";
import { t, tn } from "/static/js/core/i18n.js";

const $ = (id) => document.getElementById(id);
let games = [], me = null;

// An option of the new table; rule ids in its help are links to the rules, not words. Its
// label, help and choices come from the server in English and are catalog messages (N_ there).
function optionField(spec, players, game) {
  if (spec.kind === "bool") {
    return el("label", { class: "check", title: spec.help && withoutRuleIds(t(spec.help)) },
      el("input", { type: "checkbox", name: spec.name, checked: spec.default }), t(spec.label));
  }
  const choices = spec.kind === "choice"
    ? spec.choices.map((c) => el("option", { value: c, selected: c === spec.default }, t(c)))
    : [el("option", { value: "random" }, t("random")),
      ...Array.from({ length: players }, (_, i) => el("option", { value: i }, t("seat {seat}", { seat: i + 1 })))];
  const select = el("select", { name: spec.name, id: `opt-${spec.name}` }, choices);
  return el("div", {}, el("label", { for: `opt-${spec.name}` }, t(spec.label)), select,
    spec.help ? el("div", { class: "muted" }, ruleNodes(t(spec.help), game)) : null);
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
  live: () => t("Each player has this time for the whole game, plus the seconds for every move. Out of time, you lose: a bot plays your seat on so the others can finish (a VERSUS game simply ends)."),
  turn: () => t("Play at your own pace over days. After the reminder the player to move gets a note (and an e-mail if they gave an address); after the last day they lose."),
  rounds: () => t("Nobody has a clock: each round of building has its own timer, and between rounds the table waits for everyone to be ready."),
};

function showPace() {
  const kind = $("pace").value;
  $("pace-live").classList.toggle("hidden", kind !== "live");
  $("pace-turn").classList.toggle("hidden", kind !== "turn");
  $("pace-help").textContent = PACE_HELP[kind]();
}

function refreshForm() {
  const game = currentGame();
  if (!game) return;
  const current = Number($("players").value) || game.players[Math.min(2, game.players.length - 1)];
  $("players").replaceChildren(...game.players.map((n) =>
    el("option", { value: n, selected: n === current }, n === 1 ? t("1 (solo)") : String(n))));
  const players = Number($("players").value);
  $("options").replaceChildren(...game.options.map((spec) => optionField(spec, players, game.name)));
  const keep = $("bots").value;
  $("bots").replaceChildren(el("option", { value: "" }, t("nobody yet (invite friends)")),
    ...game.bot_choices.filter((c) => c.players.includes(players)).map((c) =>
      el("option", { value: c.spec, selected: c.spec === keep }, botWords(c))));
  describeBot();
}

// The chosen bot in words: how it plays and how strong it measured.
function describeBot() {
  const game = currentGame();
  // The choice's registry name is the server's: a page never splits a spec.
  const chosen = game?.bot_choices.find((c) => c.spec === $("bots").value);
  const about = chosen ? game.bot_info?.[chosen.name] : undefined;
  const measured = about?.strength ? t("Measured: {strength}.", { strength: about.strength }) : "";
  $("bot-about").textContent = about ? [about.description, measured].filter(Boolean).join(" ") : "";
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
    // Each seat named by the server as at the table ("Random bot 1", "Random bot 2"), guests
    // marked as there; a player's name is theirs in every language: not for a browser's
    // translator to change (a bot's words are the reader's).
    s.kind === "empty" ? el("span", { class: "muted" }, t("open seat")) : s.user_id ? el("bdi", { translate: "no" }, s.name) : s.name,
    s.guest ? el("span", { class: "muted" }, " ", t("(guest)")) : "",
    s.rating ? el("span", { class: "rating" }, ` ${s.rating}`) : ""]);
}

function stateOf(table) {
  if (table.status === "over" && table.outcome) {
    const mine = table.you !== undefined && table.you !== null;
    if (!mine) return "finished";
    // Players who are one team (Recto Verso's two builders, the game's board traits) did not
    // win or lose against each other: a partner's resignation made the other "won".
    const together = games.find((g) => g.name === table.game)?.board.together ?? [];
    if (together.includes(table.seats.length)) return "finished";
    if (!table.outcome.winners.length) return "draw";
    return table.outcome.winners.includes(table.you) ? "won" : "lost";
  }
  if (table.your_turn) return "your-turn";
  return table.status;
}

// A table's state in words (the state itself names the badge's style).
const STATE_WORDS = {
  finished: () => t("finished"), draw: () => t("draw"), won: () => t("won"), lost: () => t("lost"),
  "your-turn": () => t("your turn"), waiting: () => t("waiting"), playing: () => t("playing"), over: () => t("over"),
};

function tableList(tables, empty, action) {
  if (!tables.length) return el("p", { class: "muted" }, empty);
  return el("table", { class: "list games" },
    el("tbody", {}, tables.map((table) => {
      const state = stateOf(table);
      return el("tr", { class: table.your_turn ? "your-turn" : "" },
        el("td", {}, el("strong", {}, table.title), " ",
          el("span", { class: `badge ${state} ${table.status}` }, STATE_WORDS[state]?.() ?? state),
          table.rated ? el("span", { class: "badge rated" }, t("rated")) : null,
          el("div", { class: "muted" }, table.pace ? paceWords(table.pace) : table.pace_text)),
        el("td", {}, seatNodes(table),
          table.status === "over" && table.outcome ? el("div", { class: "muted" }, `${withoutRuleIds(reasonWords(table.outcome))} · ${table.outcome.scores.join(" – ")}`) : null,
          table.your_turn && table.reminded ? el("div", { class: "reminder" }, t("Reminder: this game has waited days for your move.")) : null),
        el("td", { style: "text-align:right" }, action(table)));
    })));
}

async function loadLists() {
  let open, live, mine;
  try {
    [open, live, mine] = await Promise.all([
      api("GET", "/api/tables?status=waiting"), api("GET", "/api/tables?status=playing"),
      api("GET", "/api/my/tables")]);
  } catch (error) {
    // Refused (too many lists from this address, server/accounts/rates.py) or not reached:
    // the lists stay as they were, with the reason above them until a later turn gets through.
    $("lists-note").textContent = error.message;
    $("lists-note").classList.remove("hidden");
    return;
  }
  $("lists-note").classList.add("hidden");
  mine.sort((a, b) => Number(Boolean(b.your_turn)) - Number(Boolean(a.your_turn)));
  const waiting = mine.filter((table) => table.your_turn).length;
  $("waiting-count").textContent = tn("{count} waiting for you", "{count} waiting for you", waiting);
  $("waiting-count").classList.toggle("hidden", waiting === 0);
  document.title = (waiting ? `(${waiting}) ` : "") + t("otherside — play with friends and bots");
  $("my-tables").replaceChildren(tableList(mine, t("You have no games yet: create a table or join one."),
    (table) => table.status === "over"
      ? el("a", { class: "button small secondary", href: `/replay/${table.id}` }, t("Replay"))
      : el("a", { class: `button small ${table.your_turn ? "" : "secondary"}`, href: `/table/${table.id}` },
        table.your_turn ? t("Play") : table.status === "playing" ? t("Open") : t("Waiting room"))));
  $("open-tables").replaceChildren(tableList(open, t("No open table: create one!"),
    (table) => el("a", { class: "button small", href: `/table/${table.id}` }, t("Open"))));
  $("live-tables").replaceChildren(tableList(live, t("Nobody is playing right now."),
    (table) => el("a", { class: "button small secondary", href: `/table/${table.id}` }, t("Watch"))));
}

async function loadLeaderboard() {
  const game = $("board-game").value;
  const rows = await api("GET", `/api/ratings?game=${encodeURIComponent(game)}`).catch(() => []);
  $("leaderboard").replaceChildren(rows.length
    ? el("table", { class: "list" }, el("tbody", {}, rows.slice(0, 15).map((r, i) => el("tr", { class: r.name === me?.name ? "me" : "" },
      el("td", { class: "muted" }, `${i + 1}`),
      el("td", {}, el("a", { href: `/player/${encodeURIComponent(r.name)}`, translate: "no" }, r.name)),
      el("td", { style: "text-align:right" }, el("strong", {}, `${r.rating}`)),
      el("td", { class: "muted", style: "text-align:right" }, tn("{count} game", "{count} games", r.games))))))
    : el("p", { class: "muted" }, t("No rated game yet. Games between registered players (no bots, no guests) count.")));
}

// Whether the address is confirmed (server/accounts/email_links.py): no mail goes to it before,
// so an unconfirmed one says so and offers its link again.
function showEmailState(email, confirmed) {
  $("email-state").classList.toggle("hidden", !email);
  $("email-state").dataset.state = confirmed ? "confirmed" : "unconfirmed";
  $("email-status").className = confirmed ? "badge playing" : "badge lost";
  $("email-status").textContent = confirmed ? t("confirmed") : t("not confirmed");
  $("email-help").textContent = confirmed
    ? t("Reminders go to this address.")
    : t("Open the link we mailed to this address; until then no reminder goes there.");
  $("email-resend").classList.toggle("hidden", confirmed);
}

async function saveEmail(event) {
  event.preventDefault();
  const value = $("email").value.trim();
  try {
    const saved = await api("POST", "/api/me/email", { email: value || null });
    showEmailState(saved.email, saved.confirmed);
    toast(!value ? t("No more reminders by e-mail.")
      : saved.confirmed ? t("Reminders will go to this address.")
        : saved.sent ? t("We mailed a confirmation link to this address.")
          : t("The confirmation mail could not be sent; try again later."));
  } catch (error) {
    toast(error.message);
  }
}

async function resendLink() {
  $("email-resend").disabled = true;
  try {
    const sent = await api("POST", "/api/me/email/resend");
    toast(sent.sent ? t("We mailed a new confirmation link; the older one no longer works.")
      : t("The confirmation mail could not be sent; try again later."));
  } catch (error) {
    toast(error.message);
  } finally {
    $("email-resend").disabled = false;
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
  showEmailState(me.email, me.email_confirmed);
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
// A refusal is about the form as it was sent: once changed, the old words would mislead (the
// browser's own check of a field stops the next sending, so nothing else would clear them).
$("new-table").addEventListener("input", () => { $("new-error").textContent = ""; });
$("board-game").addEventListener("change", loadLeaderboard);
$("email-form").addEventListener("submit", saveEmail);
$("email-resend").addEventListener("click", resendLink);
setInterval(() => { if (!$("lobby").classList.contains("hidden")) loadLists(); }, 5000);
show();
