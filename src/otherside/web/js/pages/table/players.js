// The table's summary and its players with their clocks (redrawn every second while playing).
import { el } from "/static/js/core/dom.js";
import { formatClock, isRunning, timeLeft, turnWords } from "/static/js/core/clock.js";
import { botWords, paceWords, reasonWords, ruleNodes, seatLabel } from "/static/js/core/words.js";
import { language, t, tn } from "/static/js/core/i18n.js";
import { presenceKept } from "/static/js/pages/table/away.js";

/** The players' names by seat as the boards show them ("name (you)" for the reader). */
export function seatNames(state) {
  const { table, you } = state;
  return table ? table.seats.map((s) => (s.seat === you ? t("{name} (you)", { name: seatLabel(s) }) : seatLabel(s))) : [];
}

/** One clock per seat for the phone's dock: a short name and the time left. */
export function clockChips(state) {
  const { table, clock, you } = state;
  if (table?.status !== "playing") return [];
  return table.seats.map((s) => {
    const left = timeLeft(clock, s.seat);
    const running = isRunning(clock, s.seat);
    const waiting = turnWords(clock, s.seat);
    if (left === null && !waiting) return null;
    return el("span", { class: `chip ${running ? "running" : ""} ${s.seat === you ? "me" : ""}`, "data-testid": `dock-clock-${s.seat}` },
      el("span", { class: "chip-name" }, s.seat === you ? t("You") : seatLabel(s)),
      left !== null ? el("span", { class: `clock ${running ? "running" : ""} ${running && left < 30000 ? "low" : ""}` }, formatClock(left)) : null,
      waiting && left === null ? el("span", { class: "muted" }, t("to move")) : null);
  }).filter(Boolean);
}

const FORFEIT_WORDS = {
  timeout: () => t("out of time"), away: () => t("was away"), resigned: () => t("resigned"), left: () => t("left"),
};

function optionText(info, name, value) {
  const spec = info?.options.find((o) => o.name === name);
  if (!spec) return null;
  const label = spec.label ? t(spec.label) : name.replaceAll("_", " ");
  const said = spec.kind === "first_player"
    ? (value === "random" ? t("drawn at the start") : t("seat {seat}", { seat: Number(value) + 1 }))
    : spec.kind === "bool" ? (value ? t("yes") : t("no")) : t(String(value));
  return t("{option}: {value}", { option: label, value: said });
}

// A table's status in words.
const STATUS_WORDS = { waiting: () => t("waiting"), playing: () => t("playing"), over: () => t("finished") };

/** "+12", "−12" (a true minus sign), "±0". */
export function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

/** " (+12)" beside a rating, coloured by its sign; nothing without a change. */
function changeNode(change) {
  if (change === null || change === undefined) return null;
  const kind = change > 0 ? "up" : change < 0 ? "down" : "";
  return el("span", { class: `rating-change ${kind}`, "data-testid": "rating-change" }, ` (${signed(change)})`);
}

/** "Ratings: Ada 1512 (+12) · Bob 1488 (−12)." for a finished rated game (else nothing). */
export function ratingLine(state) {
  const { table } = state;
  const changed = table.seats.filter((s) => s.rating_change !== null && s.rating_change !== undefined);
  if (!changed.length) return null;
  const names = seatNames(state);
  const parts = changed.flatMap((s, i) => [i ? " · " : "", `${names[s.seat]}${s.rating ? ` ${s.rating}` : ""}`, changeNode(s.rating_change)]);
  return el("div", { class: "rating-line", "data-testid": "rating-line" }, t("Ratings:"), " ", ...parts.filter(Boolean), ".");
}

/** "alice won — reason [S13.1]. Scores: 3 – 1.", the rule id a link to the rule. */
export function outcomeWords(state) {
  const outcome = state.table.outcome;
  const names = seatNames(state);
  const who = new Intl.ListFormat(language, { type: "conjunction" }).format(outcome.winners.map((s) => names[s]));
  // Players who are one team (the game's board traits say at which counts) beat no one; a tie
  // of rivals is a shared victory (V: tied players share it), said as who won.
  const together = (state.traits?.together ?? []).includes(state.table.seats.length);
  const result = outcome.winners.length === 0 ? t("Draw") : together ? t("Game over") : t("{names} won", { names: who });
  return [result, " — ", ...ruleNodes(reasonWords(outcome), state.table.game), ". ", t("Scores: {scores}.", { scores: outcome.scores.join(" – ") })];
}

/** The summary lines under the table's title. */
export function summaryNodes(state) {
  const { table, info } = state;
  const options = Object.entries(table.options).map(([k, v]) => optionText(info, k, v)).filter(Boolean);
  // replaceChildren would write a null as the text "null": leave the missing parts out.
  return [
    el("div", { class: "row" },
      el("span", { class: `badge ${table.status}` }, STATUS_WORDS[table.status]?.() ?? table.status),
      el("span", { class: "badge pace" }, paceWords(table.pace)),
      table.rated ? el("span", { class: "badge rated", title: t("the result moves the players' ratings") }, t("rated")) : null),
    el("div", {}, table.players === 1 ? t("solo") : tn("{count} player", "{count} players", table.players),
      " · ", t("host {name}", { name: table.owner })),
    options.length ? el("div", {}, options.join(" · ")) : null,
    table.outcome ? el("div", { class: "outcome-line" }, outcomeWords(state)) : null,
  ].filter(Boolean);
}

/** One row per seat: name, rating, clock (running for the seat to move), turn words. */
export function playerRows(state) {
  const { table, clock, you } = state;
  const playing = table.status === "playing";
  return table.seats.map((s) => {
    const left = playing ? timeLeft(clock, s.seat) : null;
    const waiting = playing ? turnWords(clock, s.seat) : null;
    const toMove = playing && (clock?.to_move ?? table.to_move).includes(s.seat);
    const running = playing && isRunning(clock, s.seat);
    const low = left !== null && left < 30000 && running;
    return el("div", { class: `pl ${toMove ? "to-move" : ""} ${s.seat === you ? "me" : ""}`, "data-seat": s.seat },
      el("span", { class: "seat-no" }, `${s.seat + 1}`),
      el("span", { class: "pl-name" },
        s.user_id ? el("a", { href: `/player/${encodeURIComponent(s.name)}` }, s.name)
          : s.kind === "empty" ? el("span", { class: "muted" }, seatLabel(s)) : seatLabel(s),
        s.seat === you ? " " : "", s.seat === you ? t("(you)") : "",
        s.rating ? el("span", { class: "rating", title: t("{game} rating", { game: table.title }) }, ` ${s.rating}`) : null,
        changeNode(s.rating_change),
        // Once the game is over no bot plays on: only why the seat was given up is said.
        s.forfeit ? el("span", { class: "muted" }, " — ", FORFEIT_WORDS[s.forfeit]?.() ?? s.forfeit,
          playing ? "; " : "", playing ? t("{bot} plays on", { bot: botWords(s.bot) }) : "") : null,
        presenceKept(table) && s.away_since && s.kind === "human" ? el("span", { class: "muted", "data-testid": `away-mark-${s.seat}` }, " · ", t("away")) : null,
        s.guest ? el("span", { class: "muted" }, " · ", t("guest")) : null,
        s.bot_account ? el("span", { class: "muted", "data-testid": `bot-account-${s.seat}` }, " · ", t("bot account")) : null),
      left !== null ? el("span", { class: `clock ${running ? "running" : ""} ${low ? "low" : ""}`, "data-testid": `clock-${s.seat}` }, formatClock(left)) : null,
      waiting ? el("span", { class: "muted turn-words" }, waiting) : null);
  });
}
