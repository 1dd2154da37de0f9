// Loading a game's board: which module and stylesheet, and what the game does differently, come
// from the server's game description (`GET /api/games`, the adapter's `board`), never from game
// names written here. See /static/js/games/README.md for the board contract.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";

const GENERIC = { module: "generic", styles: false, resign: "table", replay: "steps", analysis: "moves", together: [] };

/** The server's description of `name` (title, options, bots, board traits) or null. */
export async function gameInfo(name) {
  const games = await api("GET", "/api/games");
  return games.find((g) => g.name === name) ?? null;
}

/** The board traits of a game description: module, styles, resign ("table"/"board"), replay,
 * analysis ("moves": the bots judge each move; "cards": the solver builds each missed card),
 * together (the player counts at which all the players are one team). */
export const boardTraits = (info) => ({ ...GENERIC, ...(info?.board ?? {}) });

/**
 * The game's board module (with its stylesheet added to the page when it has one); the generic
 * board when the game has none or it fails to load.
 * @returns {Promise<{createBoard: function(Element, object): object}>}
 */
export async function loadBoard(traits) {
  const name = traits.module;
  if (traits.styles && !document.querySelector(`link[data-game="${name}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: `/static/js/games/${name}/board.css`, "data-game": name }));
  }
  try {
    return await import(`/static/js/games/${name}/board.js`);
  } catch {
    return await import("/static/js/games/generic/board.js");
  }
}
