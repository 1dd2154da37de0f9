// Between rounds and after them: results, the level ladder (R16), the score table (R14), the
// log sentence for each view, and the clock's words.
import { el } from "/static/js/core/dom.js";
import { number, t, tn } from "/static/js/core/i18n.js";

// Mirrors of the engine's decisions (games/rectoverso/flow.py: LEVEL_LIMITS, SCORE_TABLE),
// shown on the page; tests/server/test_browser_rectoverso.py checks that they agree.
export const LEVEL_LIMITS = [90, 75, 60, 45, 30, 20, 15];
export const SCORE_TABLE = [[20, 6], [40, 5], [60, 4], [80, 3], [100, 2], [120, 1]];

export const who = (names, seat) => names?.[seat] ?? t("seat {seat}", { seat: seat + 1 });
export const clockText = (s) => { const t = Math.max(0, Math.ceil(s)); return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`; };
// A duration in seconds; the unit stays with its number (a no-break space).
export const seconds = (s) => `${number(s, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}\u00a0s`;
export const pointsAt = (elapsed) => (SCORE_TABLE.find(([limit]) => elapsed <= limit) ?? [0, 0])[1];

/** Each past round with the level it was played at (2 players: the level climbs on a clear). */
export function history(view) {
  let level = 0;
  return view.rounds.map((round, index) => {
    const row = { ...round, index, level, limit: view.players === 2 ? LEVEL_LIMITS[Math.min(level, 6)] : 120 };
    if (view.players === 2 && round.points > 0) level += 1;
    return row;
  });
}

/** One sentence about a finished round. */
export function resultText(round, view, names) {
  const pair = t("{recto} and {verso}", { recto: who(names, round.recto), verso: who(names, round.verso) });
  const card = round.card, time = seconds(round.seconds);
  if (view.players === 2) {
    const level = round.level + 1;
    if (round.points > 0) return t("Level {level} cleared: card {card} built in {time}.", { level, card, time });
    if (round.reason === "time is up") {
      return t("Time is up on level {level} ({limit}): card {card} was not finished.", { level, card, limit: clockText(round.limit) });
    }
    return t("Card {card} does not match: level {level} is not cleared.", { level, card });
  }
  if (round.matched) {
    return tn("{pair} matched card {card} in {time}: +{count} point each.", "{pair} matched card {card} in {time}: +{count} points each.",
      round.points, { pair, card, time });
  }
  if (round.reason === "time is up") return t("Time is up for {pair} on card {card}: no points.", { pair, card });
  return t("The building of {pair} did not match card {card}: no points.", { pair, card });
}

/** The log's sentence for a view (the same for views of the same moment). */
export function summary(view, names) {
  if (view.phase === "build") {
    // The reader's own name comes as "Heron (you)"; beside "(recto)" that read "Heron (you)
    // (recto)", so the builders are named plainly here (the status line says "You build…").
    const you = t("{name} (you)", { name: "" });
    const plain = (seat) => { const name = who(names, seat); return name.endsWith(you) ? name.slice(0, -you.length) : name; };
    const builders = { recto: plain(view.recto), verso: plain(view.verso) };
    const card = view.card?.number;
    let said;
    if (view.players === 2) {
      const level = { level: view.level + 1, limit: clockText(view.clock.limit) };
      said = card ? t("{recto} (recto) and {verso} (verso) build card {card} for level {level} ({limit})", { ...builders, ...level, card })
        : t("{recto} (recto) and {verso} (verso) build a new card for level {level} ({limit})", { ...builders, ...level });
    } else {
      said = card ? t("{recto} (recto) and {verso} (verso) build card {card}", { ...builders, card })
        : t("{recto} (recto) and {verso} (verso) build a new card", builders);
    }
    // The first builder to be done says "Recto", the other "Verso" (R13), whichever side each
    // builds: the words of the page's button (it said "Recto" to a verso builder done first,
    // while this line said that builder had said "Verso").
    const done = view.done.length
      ? "; " + t("{player} said “{word}”", { player: who(names, view.done[0]), word: "Recto" })
      : "";
    return `${said}${done}.`;
  }
  const rows = history(view);
  const last = rows.length ? resultText(rows[rows.length - 1], view, names) : "";
  if (view.phase === "over") return `${last} ${endText(view, names)}`.trim();
  return last;
}

export function endText(view, names) {
  if (view.players === 2) {
    return view.level >= LEVEL_LIMITS.length ? t("👑 All seven levels cleared: builder king!")
      : tn("The game is over at level {level}: {count} level cleared.", "The game is over at level {level}: {count} levels cleared.",
        view.level, { level: view.level + 1 });
  }
  const best = Math.max(...view.scores);
  const winners = view.scores.map((s, p) => [s, p]).filter(([s]) => s === best).map(([, p]) => who(names, p));
  if (winners.length === 1) return tn("{player} wins with {count} point.", "{player} wins with {count} points.", best, { player: winners[0] });
  const players = t("{players} and {last}", { players: winners.slice(0, -1).join(", "), last: winners[winners.length - 1] });
  return tn("{players} win with {count} point.", "{players} win with {count} points.", best, { players });
}

/**
 * The result of the last round, large (`fresh`: with its entrance, the first time). `carried`:
 * shown on above the next round, begun before the reader had time to read it (a bot partner
 * reveals 1.5 s on), until they close it: smaller, marked as the last round's, and with no
 * "next" (that round is under way).
 */
export function resultBanner(view, names, fresh = false, carried = false) {
  const rows = history(view);
  if (!rows.length) return null;
  const last = rows[rows.length - 1];
  const good = last.points > 0;
  const timeUp = last.reason === "time is up";
  const headline = good
    ? (view.players === 2 ? t("Level {level} cleared!", { level: last.level + 1 }) : t("Matched! +{points}", { points: last.points }))
    : timeUp ? t("Time is up") : t("Not a match");
  const card = last.card, time = seconds(last.seconds), limit = clockText(last.limit);
  const detail = good
    ? (view.players === 2 ? t("Card {card} built in {time} (limit {limit}).", { card, time, limit }) : t("Card {card} built in {time}.", { card, time }))
    : timeUp ? t("Card {card} was not finished in {limit}.", { card, limit })
      : t("Both builders said they were done after {time}, but the building does not show card {card} on both sides.", { card, time });
  const level = view.level + 1;
  const next = view.phase === "over" || carried ? ""
    : view.players === 2
      ? (good ? t("Next: level {level}, {limit} to build it.", { level, limit: clockText(LEVEL_LIMITS[Math.min(view.level, 6)]) })
        : t("Try level {level} again with a new card.", { level }))
      : good ? tn("{recto} and {verso} score {count} point each.", "{recto} and {verso} score {count} points each.", last.points,
        { recto: who(names, last.recto), verso: who(names, last.verso) }) : t("No points this round.");
  return el("div", { class: `rv-result ${good ? "good" : "bad"} ${fresh ? "fresh" : ""} ${carried ? "carried" : ""}`,
    "data-testid": carried ? "last-result" : "round-result", role: "status" },
    el("div", { class: "rv-result-mark", "aria-hidden": "true" }, good ? "✓" : "✗"),
    el("div", {}, carried ? el("div", { class: "rv-result-when" }, t("Previous round")) : null,
      el("div", { class: "rv-result-head" }, headline), el("div", {}, detail), next ? el("div", { class: "muted" }, next) : null),
    carried ? el("button", { class: "small secondary rv-result-seen", "data-act": "seen", "data-testid": "last-result-seen" }, t("OK")) : null);
}

/** 2 players: the seven levels with their limits, cleared ones ticked, the current one marked. */
export function ladder(view) {
  const rows = history(view);
  return el("div", { class: "rv-ladder", "data-testid": "ladder" },
    el("h3", {}, t("Levels (R16)")),
    el("ol", {}, LEVEL_LIMITS.map((limit, i) => {
      const tries = rows.filter((r) => r.level === i);
      const cleared = tries.find((r) => r.points > 0);
      const now = i === view.level && view.phase !== "over";
      return el("li", { class: `${cleared ? "cleared" : ""} ${now ? "now" : ""}` },
        el("span", { class: "rv-rung" }, String(i + 1)),
        el("span", { class: "rv-limit" }, clockText(limit)),
        el("span", { class: "rv-rung-text" },
          cleared ? `✓ ${seconds(cleared.seconds)}` : now ? (view.phase === "build" ? t("building now") : t("next")) : i === 6 ? t("builder king") : ""),
        tries.length > (cleared ? 1 : 0) ? el("span", { class: "muted" }, tn("{count} try", "{count} tries", tries.length)) : null);
    })));
}

/** 3+ players: totals and every round (R14), with the points table. */
export function scoreTable(view, names) {
  const rows = history(view);
  const order = view.scores.map((s, p) => [s, p]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return el("div", { class: "rv-scores", "data-testid": "scores" },
    el("h3", {}, t("Scores")),
    el("table", { class: "list" },
      el("tbody", {}, order.map(([s, p]) => el("tr", {}, el("td", {}, who(names, p)), el("td", { class: "num" }, `${s}`))))),
    rows.length ? el("table", { class: "list rv-rounds" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "recto · verso"), el("th", {}, t("card")), el("th", {}, t("time")),
        el("th", { class: "num" }, t("pts")))),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("td", {}, String(r.index + 1)),
        el("td", {}, `${who(names, r.recto)} · ${who(names, r.verso)}`),
        el("td", {}, String(r.card)),
        el("td", {}, r.matched ? seconds(r.seconds) : r.reason === "time is up" ? t("time up") : t("no match")),
        el("td", { class: "num" }, `${r.points}`))))) : null,
    el("p", { class: "muted" }, t("A match scores by time (R14): {table}; after 2:00 the round ends.",
      { table: SCORE_TABLE.map(([s, p]) => `≤${s} s ${p}`).join(" · ") })));
}
