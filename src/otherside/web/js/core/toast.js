// A short message at the bottom of the screen that goes away by itself.
import { el } from "/static/js/core/dom.js";

/**
 * Show `text` for `ms` milliseconds.
 * @param {string|Array<string|Node>} text words, or text nodes and small links
 * @param {number} [ms]
 */
export function toast(text, ms = 3500) {
  // Messages that come close together stack, the newest at the bottom: each was drawn at the
  // same spot, a new one over the last, whose edges peeked out from behind it.
  let stack = document.querySelector("body > .toasts");
  if (!stack) {
    stack = el("div", { class: "toasts" });
    document.body.append(stack);
  }
  const node = el("div", { class: "toast", role: "status" }, text);
  // The same words again (a move refused twice) replace the first, rather than pile up.
  for (const shown of [...stack.children]) if (shown.textContent === node.textContent) shown.remove();
  stack.append(node);
  setTimeout(() => {
    node.remove();
    if (!stack.children.length) stack.remove();
  }, ms);
}
