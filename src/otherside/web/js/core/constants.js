// Numbers the pages share with the server: websocket close codes (server/live/sockets.py) and
// the pace of pings and reconnections.

/** Close codes of the table socket: the server closed it for a reason no retry can change. */
export const CLOSE = Object.freeze({
  FORBIDDEN: 4403, // the page may not watch this table
  NOT_FOUND: 4404, // there is no such table
  TOO_SLOW: 4408, // the page stopped reading: a retry starts afresh
});

/** Codes after which reconnecting is pointless. */
export const FINAL_CLOSES = new Set([CLOSE.FORBIDDEN, CLOSE.NOT_FOUND]);

/** A ping keeps proxies from closing an idle socket. */
export const PING_MS = 25000;

/** Reconnection waits. A socket that was open is tried again at once, at a moment drawn within
 * the spread (the pages of a server process that died all come back to the others, and not in
 * one instant); a try that fails waits the first wait, doubled after each failure up to the
 * maximum (as Phoenix's sockets do: 10 ms, then longer and longer). */
export const RECONNECT_SPREAD_MS = 100;
export const RECONNECT_FIRST_MS = 500;
export const RECONNECT_MAX_MS = 8000;

/** How long a partner without a clock must be gone before a bot may play on for them: the
 * server's default (Limits.away_seconds); a refusal `not_away` says the server's own number,
 * and the table page takes it from there. */
export const AWAY_SECONDS = 60;
