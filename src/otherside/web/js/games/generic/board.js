// A game without its own board: the view as data and one button per legal action.
import { el } from "/static/js/core/dom.js";

/** One event as words: its fields as they are. */
export function eventWords(event) {
  return Object.entries(event).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
}

/** The board contract (js/games/README.md). */
export function createBoard(root, context) {
  return {
    update(frame) {
      const legal = context.play ? frame.legal : [];
      root.replaceChildren(el("div", { class: "panel" },
        legal.length ? el("div", { class: "actions" }, legal.map((a) => el("button", { onclick: () => context.play(a) }, a))) : null,
        el("pre", { style: "white-space:pre-wrap" }, JSON.stringify(frame.view, null, 1))));
    },
    describe: (view) => (view.events ?? []).map(eventWords),
    dispose() {},
  };
}
