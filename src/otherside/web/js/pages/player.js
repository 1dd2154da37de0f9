// A player's page: ratings per game with a plot of their history, personal bests, recent games.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { currentUser, header } from "/static/js/core/session.js";
import { tokensPanel } from "/static/js/pages/account_tokens.js";
import { reasonWords, withoutRuleIds } from "/static/js/core/words.js";

// A game's result for the reader (the server's word is the key; Verso solo sends "12 VP").
const RESULT_WORDS = {
  won: () => t("won"), lost: () => t("lost"), draw: () => t("draw"), resigned: () => t("resigned"),
  "lost on time": () => t("lost on time"), left: () => t("left"), forfeited: () => t("forfeited"),
  playing: () => t("playing"), waiting: () => t("waiting"),
};
import { dateWords, t, tn } from "/static/js/core/i18n.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat(Infinity)) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// A line of values over games (the x axis counts games), with its range and a dot per game.
function plot(values, { label, from = null, unit = "" }) {
  const width = 560, height = 170, left = 44, right = 12, top = 14, bottom = 26;
  const points = from === null ? values : [from, ...values];
  let low = Math.min(...points), high = Math.max(...points);
  if (high - low < 20 && unit === "") { low -= 10; high += 10; }
  if (high === low) { low -= 1; high += 1; }
  const x = (i) => left + (points.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const ticks = [low, (low + high) / 2, high].map((v) => Math.round(v));
  const path = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot", role: "img", "aria-label": label },
    ticks.map((t) => [svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), class: "grid" }),
      svg("text", { x: left - 6, y: y(t) + 4, class: "tick", "text-anchor": "end" }, `${t}`)]),
    svg("text", { x: left, y: height - 6, class: "tick" }, from === null ? t("game 1") : t("start")),
    svg("text", { x: width - right, y: height - 6, class: "tick", "text-anchor": "end" }, t("game {number}", { number: values.length })),
    svg("path", { d: path, class: "line" }),
    points.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 3.2, class: "dot" },
      svg("title", {}, i === 0 && from !== null ? t("start: {value}", { value: v })
        : t("game {number}: {value}", { number: from === null ? i + 1 : i, value: `${v}${unit}` })))));
}

function ratingCard(r) {
  const values = r.history.map((h) => h.rating);
  const last = r.history[r.history.length - 1];
  return el("div", { class: "panel rating-card", "data-game": r.game },
    el("div", { class: "row" }, el("h2", {}, r.title), el("span", { class: "big-rating" }, `${r.rating}`),
      last ? el("span", { class: last.change >= 0 ? "up" : "down" }, t("{change} last game", { change: `${last.change >= 0 ? "+" : ""}${Math.round(last.change)}` })) : null),
    el("p", { class: "muted" }, tn("{count} rated game · everyone starts at 1500", "{count} rated games · everyone starts at 1500", r.games)),
    plot(values, { label: tn("{game} rating over {count} game", "{game} rating over {count} games", r.games, { game: r.title }), from: 1500 }));
}

function bestCard(b) {
  return el("div", { class: "panel rating-card", "data-game": `${b.game}-best` },
    el("div", { class: "row" }, el("h2", {}, b.title), el("span", { class: "big-rating" }, t("best {best} {unit}", { best: b.best, unit: b.unit }))),
    el("p", { class: "muted" }, tn("{count} game · average {average} {unit}", "{count} games · average {average} {unit}", b.games, { average: b.average, unit: b.unit })),
    plot(b.scores, { label: t("{game}: {unit} per game", { game: b.title, unit: b.unit }), unit: ` ${b.unit}` }));
}

function recentTable(games) {
  if (!games.length) return el("p", { class: "muted" }, t("No games yet."));
  return el("table", { class: "list recent" }, el("tbody", {}, games.map((g) => el("tr", {},
    el("td", {}, el("strong", {}, g.title), g.rated ? el("span", { class: "badge rated" }, t("rated")) : null,
      el("div", { class: "muted" }, dateWords(g.at))),
    // Each seat named by the server as its table names it (a bot in the reader's words).
    el("td", {}, g.players.map((p) => p ?? el("span", { class: "muted" }, t("open seat"))).map((p, i) => i === g.seat ? el("strong", {}, p) : p).flatMap((p, i) => (i ? [", ", p] : [p])),
      g.reason ? el("div", { class: "muted" }, withoutRuleIds(reasonWords(g)), g.scores ? ` · ${g.scores.join(" – ")}` : "") : null),
    el("td", {}, el("span", { class: `badge ${g.result.replaceAll(" ", "-")}` }, RESULT_WORDS[g.result]?.() ?? g.result),
      g.change !== null && g.change !== undefined ? el("div", { class: g.change >= 0 ? "up" : "down" }, `${g.change >= 0 ? "+" : ""}${Math.round(g.change)}`) : null),
    el("td", { style: "text-align:right" }, g.status === "over"
      ? el("a", { class: "button small secondary", href: `/replay/${g.id}` }, t("Replay"))
      : el("a", { class: "button small secondary", href: `/table/${g.id}` }, g.status === "playing" ? t("Watch") : t("Open"))))))); 
}

async function start() {
  const me = await currentUser();
  header(me);
  const data = await api("GET", `/api/players/${encodeURIComponent(name)}`).catch((error) => {
    // Refused for now (too many pages from this address: 429) is not "no such player".
    $("name").textContent = error.status === 429 ? name : t("No such player");
    $("about").textContent = error.message;
    // Nobody's games: no empty panel of them, and a way on instead.
    $("recent").closest("section").classList.add("hidden");
    $("about").after(el("a", { class: "button secondary", href: "/", "data-testid": "to-lobby" }, t("Back to the lobby")));
    return null;
  });
  if (!data) return;
  document.title = `otherside — ${data.name}`;
  $("name").replaceChildren(data.name, data.bot ? el("span", { class: "muted", "data-testid": "bot-account" }, " · ", t("bot account")) : "");
  $("about").textContent = data.guest ? t("Guest since {date}", { date: dateWords(data.joined) }) : t("Player since {date}", { date: dateWords(data.joined) });
  $("ratings").replaceChildren(...(data.ratings.length ? data.ratings.map(ratingCard)
    : [el("p", { class: "panel muted" }, data.guest ? t("Guests are not rated.") : t("No rated game yet: rated games are between registered players, with no bots or guests."))]));
  $("bests").replaceChildren(...data.bests.map(bestCard));
  $("recent").replaceChildren(recentTable(data.recent));
  // My own page is my account's: its API tokens are managed here (never a guest's: no tokens).
  if (me && !me.guest && me.name === data.name) document.querySelector("main").append(tokensPanel());
}

start();
