// The player's "Confirm each move" setting: with it on, a board that supports it (its
// createBoard answers `confirms: true`) shows a chosen move and sends it only once confirmed.
// Kept on the account (GET/PUT /api/me/settings) for a signed-in player, in this browser's
// localStorage for a guest; chosen nowhere, it is on in turn-based games (a misclick in a game
// played over days could not be taken back) and off in live ones.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";
import { toast } from "/static/js/core/toast.js";

const KEY = "otherside.confirm-moves";

function local() {
  try {
    const kept = localStorage.getItem(KEY);
    return kept === "on" ? true : kept === "off" ? false : null;
  } catch {
    return null; // storage refused (a private window): the default
  }
}

function keepLocally(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* the choice lasts this page */ }
}

/**
 * The setting of `user` (null: signed out), loaded once; `changed()` is called after a switch.
 * @returns {Promise<{on: (table: object) => boolean, control: (table: object) => HTMLElement}>}
 */
export async function moveConfirmation(user, changed) {
  const account = Boolean(user && !user.guest);
  let chosen = account ? (await api("GET", "/api/me/settings").catch(() => ({}))).confirm_moves ?? null : null;
  // An account that never chose follows what this browser chose before (as a guest, say).
  if (chosen === null) chosen = local();

  const on = (table) => (chosen === null ? table?.pace?.kind === "turn" : chosen);

  async function set(value) {
    chosen = value;
    keepLocally(value);
    changed();
    if (!account) return;
    try { await api("PUT", "/api/me/settings", { confirm_moves: value }); }
    catch (error) { toast(error.message); }
  }

  const control = (table) => el("label", { class: "confirm-moves", title: t("Choose a piece, then a cell, then confirm the move: a misclick is never sent") },
    el("input", { type: "checkbox", "data-testid": "confirm-moves", checked: on(table), onchange: (event) => set(event.target.checked) }),
    el("span", {}, t("Confirm each move")));

  return { on, control };
}
