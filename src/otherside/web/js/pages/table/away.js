// A partner gone from a game without player clocks (Recto Verso's rounds): nobody is replaced on
// a timer, so the table says since when they are away and, once they have been gone long enough,
// lets another player play on with a bot in their seat (POST /api/tables/{id}/play-on).
// A game with player clocks never offers it: there the clock decides.
import { el } from "/static/js/core/dom.js";
import { AWAY_SECONDS } from "/static/js/core/constants.js";
import { formatSpan } from "/static/js/core/clock.js";
import { seatLabel } from "/static/js/core/words.js";
import { t } from "/static/js/core/i18n.js";

/** "20 s", "1 min", "1 h 5 min": how long a partner has been away. */
export function awaySpan(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return seconds < 60 ? t("{seconds} s", { seconds }) : formatSpan(ms);
}

/**
 * Whether the table's `away_since` is kept current: the server tells a player's coming and going
 * only where it matters, at a game without player clocks (the pace of rounds). Elsewhere the
 * seats keep what they said when the page last got them (a partner who came since would still
 * be "away", the time counting up while they play), so the page says nothing of presence there.
 */
export function presenceKept(table) {
  return table?.status === "playing" && table.pace?.kind === "rounds";
}

/**
 * The players of the game in play who are away now, with whether the reader may hand their
 * seat to a bot. Pure: `now` is the server's time in ms, `least` the seconds the server wants.
 * @returns {{seat: number, name: string, ms: number, waits: boolean, offer: boolean}[]}
 */
export function awaySeats(table, you, clock, now, least = AWAY_SECONDS) {
  if (!presenceKept(table)) return [];
  const seated = you !== null && you !== undefined;
  return table.seats.filter((s) => s.kind === "human" && s.away_since && s.seat !== you).map((s) => {
    const ms = now - Date.parse(s.away_since);
    // A seat that still has time left of its own is decided by its clock, not by waiting.
    const waits = (clock?.time_left_ms?.[s.seat] ?? null) === null;
    return { seat: s.seat, name: seatLabel(s), ms, waits, offer: seated && waits && ms >= least * 1000 };
  });
}

/**
 * The notice above the board: one line per absent partner, and the button when it may be used.
 * @param {function(number): void} playOn hands that seat to a bot
 */
export function awayNotice(away, playOn) {
  return away.map((a) => el("div", { class: "away", role: "status", "data-testid": `away-${a.seat}` },
    el("span", {}, t("{name} has been away for {span}.", { name: a.name, span: awaySpan(a.ms) })),
    a.offer ? el("button", { class: "small", "data-testid": "play-on", onclick: () => playOn(a.seat) }, t("Play on with a bot partner"))
      : a.waits ? el("span", { class: "muted" }, t("The game waits for them.")) : null));
}
