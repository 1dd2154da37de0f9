// The lobby: sign in / sign up / guest, create a table, lists of tables.
import { api, currentUser, el, header } from "/static/js/api.js";

const $ = (id) => document.getElementById(id);
let games = [];

async function authenticate(mode) {
  $("auth-error").textContent = "";
  try {
    const path = mode === "guest" ? "/api/guest" : `/api/${mode}`;
    const body = mode === "guest" ? undefined : { name: $("name").value, password: $("password").value };
    await api("POST", path, body);
    await show();
  } catch (error) {
    $("auth-error").textContent = error.message;
  }
}

function optionField(spec, players) {
  if (spec.kind === "bool") {
    return el("label", { class: "check", title: spec.help },
      el("input", { type: "checkbox", name: spec.name, checked: spec.default }), spec.label);
  }
  const select = el("select", { name: spec.name, id: `opt-${spec.name}` },
    el("option", { value: "random" }, "random"),
    Array.from({ length: players }, (_, i) => el("option", { value: i }, `seat ${i + 1}`)));
  return el("div", {}, el("label", { for: `opt-${spec.name}`, title: spec.help }, spec.label), select);
}

function refreshForm() {
  const game = games.find((g) => g.name === $("game").value);
  if (!game) return;
  const current = Number($("players").value) || game.players[Math.min(2, game.players.length - 1)];
  $("players").replaceChildren(...game.players.map((n) =>
    el("option", { value: n, selected: n === current }, n === 1 ? "1 (solo)" : String(n))));
  const players = Number($("players").value);
  $("options").replaceChildren(...game.options.map((spec) => optionField(spec, players)));
  const keep = $("bots").value;
  $("bots").replaceChildren(el("option", { value: "" }, "nobody yet (invite friends)"),
    ...game.bots.map((b) => el("option", { value: b, selected: b === keep }, `${b} bots`)));
}

async function createTable(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  const game = games.find((g) => g.name === $("game").value);
  const players = Number($("players").value);
  const options = {};
  for (const spec of game.options) {
    const input = $("options").querySelector(`[name=${spec.name}]`);
    options[spec.name] = spec.kind === "bool" ? input.checked
      : input.value === "random" ? "random" : Number(input.value);
  }
  try {
    const table = await api("POST", "/api/tables", { game: game.name, players, options });
    const bot = $("bots").value;
    if (bot && players > 1) await api("POST", `/api/tables/${table.id}/bots`, { bot });
    location.href = `/table/${table.id}`;
  } catch (error) {
    $("new-error").textContent = error.message;
  }
}

function seatsText(table) {
  return table.seats.map((s) => s.name ?? "—").join(", ");
}

function tableList(tables, empty, action) {
  if (!tables.length) return el("p", { class: "muted" }, empty);
  return el("table", { class: "list" },
    el("tbody", {}, tables.map((t) => el("tr", {},
      el("td", {}, el("strong", {}, t.title), " ", el("span", { class: `badge ${t.status}` }, t.status)),
      el("td", {}, `${t.players}p: ${seatsText(t)}`),
      el("td", { style: "text-align:right" }, action(t))))));
}

async function loadLists() {
  const [open, live, mine] = await Promise.all([
    api("GET", "/api/tables?status=waiting"), api("GET", "/api/tables?status=playing"),
    api("GET", "/api/my/tables")]);
  $("open-tables").replaceChildren(tableList(open, "No open table: create one!",
    (t) => el("a", { class: "button small", href: `/table/${t.id}` }, "Open")));
  $("live-tables").replaceChildren(tableList(live, "Nobody is playing right now.",
    (t) => el("a", { class: "button small secondary", href: `/table/${t.id}` }, "Watch")));
  $("my-tables").replaceChildren(tableList(mine, "You have no games yet.",
    (t) => t.status === "over"
      ? el("a", { class: "button small secondary", href: `/replay/${t.id}` }, "Replay")
      : el("a", { class: "button small", href: `/table/${t.id}` }, t.status === "playing" ? "Play" : "Open")));
}

async function show() {
  const user = await currentUser();
  header(user);
  $("signin").classList.toggle("hidden", Boolean(user));
  $("lobby").classList.toggle("hidden", !user);
  if (!user) return;
  games = await api("GET", "/api/games");
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  refreshForm();
  await loadLists();
}

$("auth-form").addEventListener("submit", (e) => { e.preventDefault(); authenticate(e.submitter?.dataset.mode ?? "signin"); });
$("guest-btn").addEventListener("click", () => authenticate("guest"));
$("game").addEventListener("change", refreshForm);
$("players").addEventListener("change", refreshForm);
$("new-table").addEventListener("submit", createTable);
setInterval(() => { if (!$("lobby").classList.contains("hidden")) loadLists(); }, 5000);
show();
