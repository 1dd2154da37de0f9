// Clocks of a table, as the server sent them: the page's own time is set by the server's
// `now`, so a clock shown here counts down with the server's, whatever the device's time.
import { t } from "/static/js/core/i18n.js";


export function clockState(clock) {
  if (!clock) return null;
  return { ...clock, offset: Date.parse(clock.now) - Date.now() };
}

function serverNow(state) {
  return Date.now() + state.offset;
}

/**
 * Whether `seat`'s live clock counts down now: the server runs one clock at a time, that of the
 * only seat to move; when several seats act at once (a Recto Verso build, which has its own
 * round timer) no player's clock runs, and none may look as if it did.
 */
export function isRunning(state, seat) {
  if (!state || state.pace?.kind !== "live" || !state.turn_started_at) return false;
  return state.to_move.length === 1 && state.to_move[0] === seat;
}

// Milliseconds left on `seat`'s live clock now (null without a clock).
export function timeLeft(state, seat) {
  const left = state?.time_left_ms?.[seat];
  if (left === null || left === undefined) return null;
  if (!isRunning(state, seat)) return left;
  return Math.max(0, left - (serverNow(state) - Date.parse(state.turn_started_at)));
}

export function formatClock(ms) {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

export function formatSpan(ms) {
  const minutes = Math.max(0, Math.round(ms / 60000));
  const days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60);
  if (days) return `${days} d ${hours} h`;
  if (hours) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

// Words for the seat to move at a turn-based table: how long it has waited, when it ends.
export function turnWords(state, seat) {
  if (!state || state.pace.kind !== "turn" || !state.turn_started_at) return null;
  if (!(state.to_move.length === 1 && state.to_move[0] === seat)) return null;
  const started = Date.parse(state.turn_started_at);
  const ends = started + state.pace.days * 86400000;
  return t("to move for {waited} · {left} left", { waited: formatSpan(serverNow(state) - started), left: formatSpan(ends - serverNow(state)) });
}
