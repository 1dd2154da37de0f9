// Choosing a VERSUS move, then confirming it — as versus-le-jeu.net plays (seed 003): click a
// piece, click a cell, then the button under the board; another cell or piece changes the
// choice. And the takeback requests of an unrated game, asked and answered here.
// Both are the board's parts around its drawing: board.js calls these and keeps the state.
import { el, svg } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

const ARROW = "→";

/**
 * The chosen move drawn on the board before it is sent: the origin dimmed by the caller, a
 * dashed arrow, the target cell ringed and the piece shown there, half see-through.
 * @param {string} action   "from>to"
 * @param {(cell: string) => number[]} at   a cell's centre in board units
 * @param {number} size     a cell's outer radius
 * @param {SVGElement} shape the moving piece's drawing (centred on 0,0)
 */
export function pendingMarks(action, at, size, shape) {
  const [from, to] = action.split(">");
  const [x0, y0] = at(from);
  const [x1, y1] = at(to);
  const length = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  const trim = 0.5 * size;
  return svg("g", { class: "vs-chosen", "data-chosen": action, "aria-hidden": "true" },
    svg("circle", { class: "vs-chosen-from", cx: x0, cy: y0, r: 0.92 * size }),
    svg("line", { class: "vs-chosen-arrow", x1: x0 + ux * trim, y1: y0 + uy * trim, x2: x1 - ux * trim, y2: y1 - uy * trim, "marker-end": "url(#vs-head)" }),
    svg("circle", { class: "vs-chosen-to", cx: x1, cy: y1, r: 0.95 * size }),
    svg("g", { class: "vs-chosen-ghost", transform: `translate(${x1},${y1})` }, shape));
}

/**
 * The bar under the board while a move waits for its confirmation.
 * @param {string} action  "from>to"
 * @param {{confirm: Function, cancel: Function, busy: boolean}} handlers
 */
export function confirmBar(action, { confirm, cancel, busy }) {
  const [from, to] = action.split(">");
  return el("div", { class: "vs-confirm-bar", role: "group", "aria-label": t("Your move, not sent yet"), "data-testid": "vs-confirm-bar" },
    el("div", { class: "vs-confirm-words" },
      el("strong", {}, t("Your move: {from} {arrow} {to}", { from, to, arrow: ARROW })),
      el("span", {}, t("Not sent yet. Confirm it, or choose another cell or piece."))),
    el("div", { class: "vs-confirm-buttons" },
      el("button", { type: "button", class: "secondary", disabled: busy, "data-testid": "vs-cancel-move", onclick: cancel,
        title: t("Esc") }, t("Cancel")),
      el("button", { type: "button", class: "vs-confirm-move", disabled: busy, "data-testid": "vs-confirm-move", onclick: confirm,
        title: t("Enter") }, t("Confirm move"))));
}

/**
 * Enter confirms a chosen move and Escape cancels it, wherever the focus is but on a control
 * that handles the key itself (a button, a field, a cell of the board).
 * @returns {boolean} the key was used
 */
export function confirmKey(event, { confirm, cancel }) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target;
  const own = target?.closest?.("button, input, textarea, select, a, [role=button]");
  if (event.key === "Escape") { cancel(); return true; }
  if (event.key === "Enter" && !own) { event.preventDefault(); confirm(); return true; }
  return false;
}

const isPerson = (seat) => seat && seat.kind === "human" && !seat.forfeit;

function takebackTable(ctx) {
  const { view, seat, table } = ctx;
  if (!ctx.takebackable || !table || table.rated || table.status !== "playing" || view.outcome) return false;
  return (seat === 0 || seat === 1) && (table.seats ?? []).every(isPerson);
}

/**
 * The other player's takeback request, to accept or decline: shown under the board, where a
 * phone shows it without scrolling (the server's ``takeback``).
 * @param {object} ctx   the board's frame: view, seat, table, names, takeback
 * @param {(step: string) => void} send  sends "accept" or "decline"
 * @param {(seat: number) => string} who  a player's words
 * @returns {HTMLElement|null}
 */
export function takebackRequest(ctx, send, who) {
  const request = ctx.takeback;
  if (!takebackTable(ctx) || !request || request.seat !== 1 - ctx.seat) return null;
  return el("div", { class: "vs-takeback asked", role: "group", "data-testid": "vs-takeback" },
    el("strong", {}, t("{player} asks to take back their last move", { player: who(request.seat) })),
    el("span", {}, request.plies > 1
      ? t("Accept to go back {count} moves, to before their move; or decline to play on.", { count: request.plies })
      : t("Accept to go back to before their move; or decline to play on.")),
    el("div", { class: "vs-confirm-buttons" },
      el("button", { type: "button", class: "secondary", "data-testid": "vs-takeback-decline", onclick: () => send("decline") }, t("Decline")),
      el("button", { type: "button", "data-testid": "vs-takeback-accept", onclick: () => send("accept") }, t("Accept takeback"))));
}

/**
 * Beside the status: the button asking to take back one's last move, or, once asked, that the
 * other player is answering.
 * @returns {HTMLElement|null}
 */
export function takebackPanel(ctx, send, who) {
  if (!takebackTable(ctx)) return null;
  const { view, seat } = ctx;
  const request = ctx.takeback;
  if (request && request.seat === seat) {
    return el("div", { class: "vs-takeback mine", "data-testid": "vs-takeback" },
      t("You asked to take back your last move. Waiting for {player}.", { player: who(1 - seat) }));
  }
  // Blue's first move is ply 1, Brown's ply 2: before it there is nothing of theirs to take back.
  if (request || view.ply < seat + 1) return null;
  return el("div", { class: "vs-takeback", "data-testid": "vs-takeback" },
    el("button", { type: "button", class: "secondary small", "data-testid": "vs-takeback-ask", onclick: () => send("ask"),
      title: t("Your opponent may accept (the game goes back to before your last move) or decline") }, t("Ask to take back my last move")));
}
