// Between rounds and after them: results, the level ladder (R16), the score table (R14), the
// log sentence for each view, and the clock's words.
import { el } from "/static/js/core/dom.js";

// Mirrors of the engine's decisions (games/rectoverso/flow.py: LEVEL_LIMITS, SCORE_TABLE),
// shown on the page; tests/server/test_browser_rectoverso.py checks that they agree.
export const LEVEL_LIMITS = [90, 75, 60, 45, 30, 20, 15];
export const SCORE_TABLE = [[20, 6], [40, 5], [60, 4], [80, 3], [100, 2], [120, 1]];

export const who = (names, seat) => names?.[seat] ?? `seat ${seat + 1}`;
export const clockText = (s) => { const t = Math.max(0, Math.ceil(s)); return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`; };
export const seconds = (s) => `${s.toFixed(1)} s`;
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
  const pair = `${who(names, round.recto)} and ${who(names, round.verso)}`;
  if (view.players === 2) {
    const n = round.level + 1;
    if (round.points > 0) return `Level ${n} cleared: card ${round.card} built in ${seconds(round.seconds)}.`;
    if (round.reason === "time is up") return `Time is up on level ${n} (${clockText(round.limit)}): card ${round.card} was not finished.`;
    return `Card ${round.card} does not match: level ${n} is not cleared.`;
  }
  if (round.matched) return `${pair} matched card ${round.card} in ${seconds(round.seconds)}: +${round.points} point${round.points === 1 ? "" : "s"} each.`;
  if (round.reason === "time is up") return `Time is up for ${pair} on card ${round.card}: no points.`;
  return `The building of ${pair} did not match card ${round.card}: no points.`;
}

/** The log's sentence for a view (the same for views of the same moment). */
export function summary(view, names) {
  if (view.phase === "build") {
    const card = view.card?.number ? `card ${view.card.number}` : "a new card";
    const level = view.players === 2 ? ` for level ${view.level + 1} (${clockText(view.clock.limit)})` : "";
    // The recto builder says "Recto", the verso builder "Verso" (whoever reveals builds recto).
    const done = view.done.length ? `; ${who(names, view.done[0])} said “${view.done[0] === view.recto ? "Recto" : "Verso"}”` : "";
    return `${who(names, view.recto)} (recto) and ${who(names, view.verso)} (verso) build ${card}${level}${done}.`;
  }
  const rows = history(view);
  const last = rows.length ? resultText(rows[rows.length - 1], view, names) : "";
  if (view.phase === "over") return `${last} ${endText(view, names)}`.trim();
  return last;
}

export function endText(view, names) {
  if (view.players === 2) {
    return view.level >= LEVEL_LIMITS.length ? "👑 All seven levels cleared: builder king!"
      : `The game is over at level ${view.level + 1}: ${view.level} level${view.level === 1 ? "" : "s"} cleared.`;
  }
  const best = Math.max(...view.scores);
  const winners = view.scores.map((s, p) => [s, p]).filter(([s]) => s === best).map(([, p]) => who(names, p));
  return `${winners.join(" and ")} win${winners.length === 1 ? "s" : ""} with ${best} point${best === 1 ? "" : "s"}.`;
}

/** The result of the last round, large (`fresh`: with its entrance, the first time). */
export function resultBanner(view, names, fresh = false) {
  const rows = history(view);
  if (!rows.length) return null;
  const last = rows[rows.length - 1];
  const good = last.points > 0;
  const headline = view.players === 2
    ? (good ? `Level ${last.level + 1} cleared!` : last.reason === "time is up" ? "Time is up" : "Not a match")
    : (good ? `Matched! +${last.points}` : last.reason === "time is up" ? "Time is up" : "Not a match");
  const detail = good
    ? `Card ${last.card} built in ${seconds(last.seconds)}${view.players === 2 ? ` (limit ${clockText(last.limit)})` : ""}.`
    : last.reason === "time is up" ? `Card ${last.card} was not finished in ${clockText(last.limit)}.`
      : `Both builders said they were done after ${seconds(last.seconds)}, but the building does not show card ${last.card} on both sides.`;
  const next = view.phase === "over" ? ""
    : view.players === 2 ? (good ? `Next: level ${view.level + 1}, ${clockText(LEVEL_LIMITS[Math.min(view.level, 6)])} to build it.` : `Try level ${view.level + 1} again with a new card.`)
      : good ? `${who(names, last.recto)} and ${who(names, last.verso)} score ${last.points} point${last.points === 1 ? "" : "s"} each.` : "No points this round.";
  return el("div", { class: `rv-result ${good ? "good" : "bad"} ${fresh ? "fresh" : ""}`, "data-testid": "round-result", role: "status" },
    el("div", { class: "rv-result-mark", "aria-hidden": "true" }, good ? "✓" : "✗"),
    el("div", {}, el("div", { class: "rv-result-head" }, headline), el("div", {}, detail), next ? el("div", { class: "muted" }, next) : null));
}

/** 2 players: the seven levels with their limits, cleared ones ticked, the current one marked. */
export function ladder(view) {
  const rows = history(view);
  return el("div", { class: "rv-ladder", "data-testid": "ladder" },
    el("h3", {}, "Levels (R16)"),
    el("ol", {}, LEVEL_LIMITS.map((limit, i) => {
      const tries = rows.filter((r) => r.level === i);
      const cleared = tries.find((r) => r.points > 0);
      const now = i === view.level && view.phase !== "over";
      return el("li", { class: `${cleared ? "cleared" : ""} ${now ? "now" : ""}` },
        el("span", { class: "rv-rung" }, String(i + 1)),
        el("span", { class: "rv-limit" }, clockText(limit)),
        el("span", { class: "rv-rung-text" },
          cleared ? `✓ ${seconds(cleared.seconds)}` : now ? (view.phase === "build" ? "building now" : "next") : i === 6 ? "builder king" : ""),
        tries.length > (cleared ? 1 : 0) ? el("span", { class: "muted" }, `${tries.length} ${tries.length === 1 ? "try" : "tries"}`) : null);
    })));
}

/** 3+ players: totals and every round (R14), with the points table. */
export function scoreTable(view, names) {
  const rows = history(view);
  const order = view.scores.map((s, p) => [s, p]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return el("div", { class: "rv-scores", "data-testid": "scores" },
    el("h3", {}, "Scores"),
    el("table", { class: "list" },
      el("tbody", {}, order.map(([s, p]) => el("tr", {}, el("td", {}, who(names, p)), el("td", { class: "num" }, `${s}`))))),
    rows.length ? el("table", { class: "list rv-rounds" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "recto · verso"), el("th", {}, "card"), el("th", {}, "time"), el("th", { class: "num" }, "pts"))),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("td", {}, String(r.index + 1)),
        el("td", {}, `${who(names, r.recto)} · ${who(names, r.verso)}`),
        el("td", {}, String(r.card)),
        el("td", {}, r.matched ? seconds(r.seconds) : r.reason === "time is up" ? "time up" : "no match"),
        el("td", { class: "num" }, `${r.points}`))))) : null,
    el("p", { class: "muted" }, "A match scores by time (R14): ", SCORE_TABLE.map(([s, p]) => `≤${s} s ${p}`).join(" · "), "; after 2:00 the round ends."));
}
