// "What happened": the board's words for each view, newest first, rebuilt from the table's
// history after a reload. Each line keeps the view it describes: clicking it shows that position
// (the page draws it without the legal actions, so looking back never plays).
import { el } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

/**
 * @param {Element} list the <ol> of the log
 * @param {function(object, number): void} pick called with a line's view and its move number
 * @returns {{add: function(object, string[]): void, reset: function(): void, mark: function(object|null): void}}
 */
export function createLog(list, pick) {
  let last = null, count = 0;
  return {
    /** Add the lines the board gave for `view`, less a repeat of the line just before. */
    add(view, lines) {
      count += 1;
      const number = count;
      for (const line of lines) {
        if (!line || line === last) continue;
        last = line;
        const item = el("li", {}, el("button", { type: "button", class: "step", title: t("see the position after this move"),
          onclick: () => pick(view, number) }, line));
        item.view = view;
        list.prepend(item);
      }
    },
    reset() {
      last = null;
      count = 0;
      list.replaceChildren();
    },
    /** Highlight the lines of the position shown (null: the game as it is now). */
    mark(view) {
      for (const item of list.children) item.classList.toggle("current", view !== null && item.view === view);
    },
  };
}
