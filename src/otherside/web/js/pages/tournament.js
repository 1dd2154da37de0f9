// Tournaments: the list of events with a form to host one (/tournaments), and one event's page
// (/tournaments/{id}): its entrants, its rounds with a link to every game, and the standings
// with their tie-breaks; a person joins or leaves before the start, the host adds bots and starts.
import { api } from "/static/js/core/http.js";
import { el, byId } from "/static/js/core/dom.js";
import { currentUser, header } from "/static/js/core/session.js";
import { dateWords, number, t, tn } from "/static/js/core/i18n.js";
import { botWords, paceWords } from "/static/js/core/words.js";

const parts = location.pathname.split("/").filter(Boolean);
const eventId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const REFRESH_MS = 3000;
const KINDS = { swiss: () => t("Swiss"), "round-robin": () => t("round-robin") };
const STATUS = { open: () => t("open to join"), playing: () => t("under way"), over: () => t("finished") };
const OPEN_TO = { people: () => t("people"), bots: () => t("bots"), both: () => t("people and bots") };

let me = null;
let botChoices = [];
let labels = new Map(); // entrant number -> the entrant in words (a bot as people call it)

const points = (value) => number(value, { maximumFractionDigits: 2 });
const showError = (error) => { byId("error").textContent = error ? error.message : ""; };

// An entrant's name: a person's own, a bot's words (numbered as the server numbers alike bots).
function entrantLabel(e) {
  if (!e.bot) return e.name;
  const suffix = e.name.match(/ (\d+)$/);
  return suffix ? `${botWords(e.bot)} ${suffix[1]}` : botWords(e.bot);
}

function statusBadge(status) {
  return el("span", { class: `badge ${status}` }, (STATUS[status] ?? (() => status))());
}

// -- the list ----------------------------------------------------------------------------

function eventRow(e) {
  return el("tr", {},
    el("td", {}, el("a", { href: `/tournaments/${encodeURIComponent(e.id)}` }, el("strong", {}, e.name)),
      el("div", { class: "muted" }, [e.title, KINDS[e.kind]?.() ?? e.kind, t("hosted by {name}", { name: e.host })].join(" · "),
        e.rated ? el("span", { class: "badge rated" }, t("rated")) : null)),
    el("td", {}, statusBadge(e.status),
      el("div", { class: "muted" }, e.status === "open" ? t("{count} of {most} entrants", { count: e.entrants, most: e.max_entrants })
        : t("round {round} of {rounds}", { round: e.current_round, rounds: e.rounds ?? "?" }))));
}

function newEventForm(gameList) {
  const name = el("input", { id: "ev-name", maxlength: 80, placeholder: t("Friday blitz") });
  const game = el("select", { id: "ev-game", name: "game" }, gameList.map((g) => el("option", { value: g.name }, g.title)));
  const kind = el("select", { id: "ev-kind" }, Object.entries(KINDS).map(([value, words]) => el("option", { value }, words())));
  const rounds = el("input", { id: "ev-rounds", type: "number", min: 1, max: 20, value: 5 });
  const size = el("select", { id: "ev-size" });
  const minutes = el("input", { id: "ev-minutes", type: "number", min: 0.25, max: 180, step: "any", value: 5 });
  const openTo = el("select", { id: "ev-open" }, Object.entries(OPEN_TO).reverse().map(([value, words]) => el("option", { value }, words())));
  const rated = el("input", { id: "ev-rated", type: "checkbox" });
  // What each game allows comes from the server's game description (players, pace): a game
  // played in rounds without a clock (the partners' building game) is paired in twos.
  const info = () => gameList.find((g) => g.name === game.value) ?? {};
  const clockless = () => info().pace?.kind === "rounds";
  const sizes = () => {
    const counts = clockless() ? [2] : (info().players ?? [2]).filter((n) => n >= 2);
    size.replaceChildren(...counts.map((n) =>
      el("option", { value: n, selected: n === 4 }, n === 2 ? t("duels (2)") : t("tables of {count}", { count: n }))));
    minutes.closest(".field").hidden = clockless();
  };
  const field = (id, label, control) => el("div", { class: "field" }, el("label", { for: id }, label), control);
  const form = el("form", { id: "new-event" },
    field("ev-name", t("Name"), name),
    field("ev-game", t("Game"), game),
    field("ev-kind", t("Kind"), kind),
    field("ev-rounds", t("Rounds (Swiss)"), rounds),
    field("ev-size", t("Players a table"), size),
    field("ev-minutes", t("Minutes each a game"), minutes),
    field("ev-open", t("Open to"), openTo),
    el("div", { class: "field check" }, rated, el("label", { for: "ev-rated" }, t("Rated"))),
    el("div", { class: "field" }, el("button", { type: "submit" }, t("Create event"))));
  game.addEventListener("change", sizes);
  kind.addEventListener("change", () => { rounds.disabled = kind.value === "round-robin"; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(null);
    const body = { game: game.value, kind: kind.value, group_size: Number(size.value), open_to: openTo.value, rated: rated.checked };
    if (kind.value === "swiss") body.rounds = Number(rounds.value);
    // An unnamed event is named here, in the host's language (the server's default is English).
    const title = gameList.find((g) => g.name === game.value)?.title ?? game.value;
    body.name = name.value.trim() || (kind.value === "swiss" ? t("{game} Swiss", { game: title }) : t("{game} round-robin", { game: title }));
    if (!clockless()) body.pace = { kind: "live", minutes: Number(minutes.value), increment: 2 };
    try {
      const made = await api("POST", "/api/tournaments", body);
      location.href = `/tournaments/${encodeURIComponent(made.id)}`;
    } catch (error) { showError(error); }
  });
  sizes();
  return el("div", { class: "panel" }, el("h2", {}, t("Host an event")), form);
}

async function showList() {
  byId("about").textContent = t("Swiss and round-robin events for people and bots: the server pairs each round and starts its tables.");
  const [events, gameList] = await Promise.all([api("GET", "/api/tournaments"), api("GET", "/api/games")]);
  const list = el("div", { class: "panel" }, el("h2", {}, t("Events")), events.length
    ? el("table", { class: "list events" }, el("tbody", {}, events.map(eventRow)))
    : el("p", { class: "muted" }, t("No event yet.")));
  byId("body").replaceChildren(list, me && !me.guest ? newEventForm(gameList) : el("p", { class: "muted panel" }, t("Sign up to host or enter an event.")));
}

// -- one event -----------------------------------------------------------------------------

function actionButton(label, action, secondary = false) {
  return el("button", { class: secondary ? "small secondary" : "small", onclick: async () => {
    showError(null);
    try { render(await action()); } catch (error) { showError(error); }
  } }, label);
}

function actions(ev, bots) {
  if (ev.status !== "open" || !me) return [];
  const mine = ev.entrant_list.some((e) => e.user_id === me.id);
  const host = ev.host_id === me.id;
  const found = [];
  const path = `/api/tournaments/${encodeURIComponent(ev.id)}`;
  if (ev.open_to !== "bots" && !me.guest) {
    found.push(mine ? actionButton(t("Leave"), () => api("POST", `${path}/leave`), true)
      : actionButton(t("Join"), () => api("POST", `${path}/join`)));
  }
  if (host && ev.open_to !== "people") {
    const choice = el("select", { "aria-label": t("bot to add") }, bots.map((b) => el("option", { value: b.spec }, botWords(b))));
    found.push(choice, actionButton(t("Add bot"), () => api("POST", `${path}/bots`, { bot: choice.value }), true));
  }
  if (host) found.push(actionButton(t("Start"), () => api("POST", `${path}/start`)));
  return found;
}

function entrants(ev) {
  return el("div", { class: "panel" }, el("h2", {}, tn("{count} entrant", "{count} entrants", ev.entrant_list.length)),
    ev.entrant_list.length ? el("ul", { class: "entrants" }, ev.entrant_list.map((e) => el("li", {},
      e.bot ? [entrantLabel(e), " ", el("span", { class: "badge" }, t("bot"))]
        : [el("a", { href: `/player/${encodeURIComponent(e.name)}` }, e.name),
          // A program with an account of its own says so, as at every seat it takes.
          ...(e.bot_account ? [" ", el("span", { class: "badge", "data-testid": "bot-account" }, t("bot account"))] : [])])))
      : el("p", { class: "muted" }, t("Nobody yet.")));
}

function gameLine(g) {
  const named = g.entrants.map((n, i) => labels.get(n) ?? g.names[i]);
  if (g.bye) return el("li", {}, el("strong", {}, named[0]), " ", el("span", { class: "muted" }, t("bye (a win)")));
  const names = named.flatMap((n, i) => (i ? [" – ", n] : [n]));
  const score = g.points ? el("strong", { class: "score" }, g.points.map(points).join(" – ")) : el("span", { class: "muted" }, t("playing"));
  const link = g.table_id ? el("a", { class: "button small secondary", href: g.points ? `/replay/${g.table_id}` : `/table/${g.table_id}` },
    g.points ? t("Replay") : t("Watch")) : null;
  return el("li", {}, el("span", { class: "muted" }, t("Board {board}", { board: g.board })), " ", names, " ", score, " ", link);
}

function rounds(ev) {
  const count = Math.max(0, ...ev.games.map((g) => g.round));
  if (!count) return null;
  const blocks = [];
  for (let r = count; r >= 1; r -= 1) {
    blocks.push(el("h3", {}, t("Round {round}", { round: r })),
      el("ul", { class: "boards" }, ev.games.filter((g) => g.round === r).map(gameLine)));
  }
  return el("div", { class: "panel rounds" }, el("h2", {}, t("Rounds")), blocks);
}

function standings(ev) {
  if (!ev.standings.length) return null;
  // Phones show the tie-breaks' short names (the long one as the title).
  const both = (long, short) => [el("span", { class: "long" }, long), el("abbr", { class: "short", title: long }, short)];
  const head = el("tr", {}, ["#", t("Name"), both(t("Points"), t("Pts")), both(t("Buchholz"), t("BH")),
    both(t("Sonneborn–Berger"), t("SB")), both(t("Wins"), t("W"))].map((h) => el("th", {}, h)));
  return el("div", { class: "panel" }, el("h2", {}, ev.status === "over" ? t("Final standings") : t("Standings")),
    el("div", { class: "standings-scroll" }, el("table", { class: "list standings" }, el("thead", {}, head), el("tbody", {}, ev.standings.map((s) => el("tr", {},
      el("td", {}, s.rank), el("td", {}, labels.get(s.number) ?? s.name), el("td", {}, el("strong", {}, points(s.points))),
      el("td", {}, points(s.buchholz)), el("td", {}, points(s.sonneborn_berger)), el("td", {}, s.wins)))))),
    el("p", { class: "muted" }, t("Ties are broken by Buchholz (the opponents' points), then Sonneborn–Berger (the points of those beaten), then wins; a bye counts as a win.")));
}

function render(ev) {
  labels = new Map(ev.entrant_list.map((e) => [e.number, entrantLabel(e)]));
  document.title = `otherside — ${ev.name}`;
  byId("title").textContent = ev.name;
  const roundsWords = ev.rounds ? tn("{count} round", "{count} rounds", ev.rounds) : t("rounds set at the start");
  byId("about").replaceChildren(...[statusBadge(ev.status), " ",
    [ev.title, KINDS[ev.kind]?.() ?? ev.kind, roundsWords, paceWords(ev.pace),
      ev.group_size > 2 ? t("tables of up to {count}", { count: ev.group_size }) : null,
      t("open to {who}", { who: OPEN_TO[ev.open_to]?.() ?? ev.open_to }),
      t("hosted by {name}", { name: ev.host }), dateWords(ev.created_at)].filter(Boolean).join(" · "),
    ev.rated ? el("span", { class: "badge rated" }, t("rated")) : null].filter(Boolean));
  byId("actions").replaceChildren(...actions(ev, botChoices));
  byId("body").replaceChildren(...[standings(ev), rounds(ev), entrants(ev)].filter(Boolean));
}

async function showEvent() {
  let ev;
  try { ev = await api("GET", `/api/tournaments/${encodeURIComponent(eventId)}`); } catch (error) {
    byId("title").textContent = t("No such event");
    showError(error);
    return;
  }
  const gameList = await api("GET", "/api/games");
  botChoices = gameList.find((g) => g.name === ev.game)?.bot_choices ?? [];
  render(ev);
  // While it is open or under way, follow it: entrants come, games end, rounds are paired.
  const timer = setInterval(async () => {
    if (document.hidden) return;
    try {
      const now = await api("GET", `/api/tournaments/${encodeURIComponent(eventId)}`);
      if (!document.activeElement?.closest("#actions")) render(now);
      if (now.status === "over") clearInterval(timer);
    } catch { /* the next refresh tries again */ }
  }, REFRESH_MS);
}

async function start() {
  me = await currentUser().catch(() => null);
  header(me);
  if (eventId) await showEvent(); else await showList();
}

start();
