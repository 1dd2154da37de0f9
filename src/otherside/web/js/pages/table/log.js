// "What happened": the board's words for each new view, newest first; rebuilt from the table's
// history after a reload.
import { el } from "/static/js/core/dom.js";

/**
 * @param {Element} list the <ol> of the log
 * @returns {{add: function(object, string[]): void, reset: function(): void}}
 */
export function createLog(list) {
  let last = null;
  return {
    /** Add the lines `describe(view, names)` of the board gives, less a repeat of the last one. */
    add(lines) {
      for (const line of lines) {
        if (!line || line === last) continue;
        last = line;
        list.prepend(el("li", {}, line));
      }
    },
    reset() {
      last = null;
      list.replaceChildren();
    },
  };
}
