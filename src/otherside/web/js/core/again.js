// "Play the bot again": after a game against bots only, one click makes the rematch, starts it
// and goes there (the server's start is idempotent: a table filled with bots may have started
// by itself already).
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { tn } from "/static/js/core/i18n.js";
import { toast } from "/static/js/core/toast.js";

/**
 * Make the rematch of table `tableId`, start it and open it.
 * @param {string} tableId a finished table the user sat at
 * @returns {Promise<object>} the new table (the page moves to it)
 */
export async function playAgain(tableId) {
  const made = await api("POST", `/api/tables/${tableId}/rematch`);
  await api("POST", `/api/tables/${made.id}/start`);
  location.assign(`/table/${made.id}`);
  return made;
}

/**
 * The "Play the bot again" button of a finished table where every other seat is a bot, else null.
 * @param {{table: object, you: ?number, tableId: string}} state the table page's state
 * @returns {?HTMLButtonElement}
 */
export function playAgainButton({ table, you, tableId }) {
  const others = table.seats.filter((s) => s.seat !== you);
  if (table.status !== "over" || you === null || you === undefined || !others.length || others.some((s) => s.kind !== "bot")) return null;
  const button = el("button", { class: "small", id: "play-again", onclick: async () => {
    button.disabled = true;
    try { await playAgain(tableId); } catch (error) { toast(error.message); button.disabled = false; }
  } }, tn("Play the bot again", "Play the bots again", others.length));
  return button;
}
