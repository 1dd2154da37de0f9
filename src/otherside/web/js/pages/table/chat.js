// The table's chat: lines as text nodes (names and words of users never become HTML).
import { el } from "/static/js/core/dom.js";
import { dateWords, t } from "/static/js/core/i18n.js";

const KEEP = 200;

/**
 * @param {Element} list the <ol> of chat lines
 * @param {HTMLFormElement} form its form (an input and a button)
 * @param {function(string): void} say sends a line
 * @param {{chat: function(object, boolean): void}} dock shows the last line on a phone
 */
export function createChat(list, form, say, dock) {
  // The server sends the recent lines as one batch on (re)connecting, then new lines one by one:
  // only those count as unread.
  const seen = new Set();
  let openedAt = 0;
  const input = form.querySelector("input");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say(text);
    input.value = "";
  });
  return {
    add(lines) {
      const history = lines.length > 1 || Date.now() - openedAt < 2000;
      const fresh = lines.filter((l) => !seen.has(`${l.at}|${l.name}|${l.text}`));
      for (const l of lines) seen.add(`${l.at}|${l.name}|${l.text}`);
      for (const line of lines) {
        const time = dateWords(line.at, { hour: "2-digit", minute: "2-digit" });
        list.append(el("li", {}, el("span", { class: "muted" }, time), " ",
          el("strong", {}, line.name), line.seat !== null ? el("span", { class: "muted" }, " ", t("(seat {seat})", { seat: line.seat + 1 })) : null,
          ": ", line.text));
      }
      if (lines.length) dock.chat(lines[lines.length - 1], !history && fresh.length > 0);
      while (list.children.length > KEEP) list.firstChild.remove();
      list.scrollTop = list.scrollHeight;
    },
    /** After a reconnection the server sends the recent lines again. */
    reset() { list.replaceChildren(); },
    /** The socket (re)opened: the recent lines follow. */
    opened() { openedAt = Date.now(); },
  };
}
