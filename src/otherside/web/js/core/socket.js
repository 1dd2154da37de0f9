// A table's websocket that reconnects by itself (at once, then with a growing wait) until the
// server closes it for good (an unknown table, a forbidden one), and pings so that idle proxies
// keep it open.
import {
  FINAL_CLOSES, PING_MS, RECONNECT_FIRST_MS, RECONNECT_MAX_MS, RECONNECT_SPREAD_MS,
} from "/static/js/core/constants.js";

/**
 * Open `path` (e.g. "/ws/tables/12") on this host and keep it open.
 * @param {string} path
 * @param {{message: function(object): void, open?: function(boolean): void,
 *          lost?: function(): void, closed?: function(number): void}} on
 *   message: each decoded message; open(again): connected (again: after a loss);
 *   lost: the socket dropped and a retry is scheduled; closed(code): closed for good.
 * @returns {{send: function(object): boolean, close: function(): void}} send says whether it went
 */
export function liveSocket(path, on) {
  // wait: before the next try; 0 while the last try connected (the next is at once).
  let socket = null, wait = 0, ever = false, stopped = false, retry = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";

  function connect() {
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    socket.onopen = () => {
      wait = 0;
      on.open?.(ever);
      ever = true;
    };
    socket.onmessage = (event) => on.message(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (stopped) return;
      if (FINAL_CLOSES.has(event.code)) { stopped = true; on.closed?.(event.code); return; }
      on.lost?.();
      retry = setTimeout(connect, wait || Math.random() * RECONNECT_SPREAD_MS);
      wait = wait ? Math.min(wait * 2, RECONNECT_MAX_MS) : RECONNECT_FIRST_MS;
    };
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  const ping = setInterval(() => send({ type: "ping" }), PING_MS);
  connect();
  return {
    send,
    close() {
      stopped = true;
      clearInterval(ping);
      clearTimeout(retry);
      socket?.close();
    },
  };
}
