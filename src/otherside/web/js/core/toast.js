// A short message at the bottom of the screen that goes away by itself.
import { el } from "/static/js/core/dom.js";

/**
 * Show `text` for `ms` milliseconds.
 * @param {string|Array<string|Node>} text words, or text nodes and small links
 * @param {number} [ms]
 */
export function toast(text, ms = 3500) {
  const node = el("div", { class: "toast", role: "status" }, text);
  document.body.append(node);
  setTimeout(() => node.remove(), ms);
}
