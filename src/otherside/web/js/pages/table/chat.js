// The table's chat: lines as text nodes (names and words of users never become HTML).
import { el } from "/static/js/core/dom.js";
import { dateWords, t } from "/static/js/core/i18n.js";

const KEEP = 200;

const keyOf = (line) => `${line.at}|${line.name}|${line.text}`;

/**
 * @param {Element} list the <ol> of chat lines
 * @param {HTMLFormElement} form its form (an input and a button)
 * @param {function(string): void} say sends a line
 * @param {{chat: function(object, number): void}} dock shows the last line (and unread) on a phone
 */
export function createChat(list, form, say, dock) {
  // The server marks the recent lines it sends on (re)connecting (`recent`); every other line
  // is said now. What is unread is told by that mark and by the lines already seen, never by a
  // time since connecting (a partner who speaks within that time would go unnoticed).
  const seen = new Set();
  let again = false, sinceOpen = [];
  const input = form.querySelector("input");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say(text);
    input.value = "";
  });
  const item = (line) => {
    const time = dateWords(line.at, { hour: "2-digit", minute: "2-digit" });
    return el("li", {}, el("span", { class: "muted" }, time), " ",
      el("strong", {}, line.name), line.seat !== null ? el("span", { class: "muted" }, " ", t("(seat {seat})", { seat: line.seat + 1 })) : null,
      ": ", line.text);
  };
  return {
    /** A `chat` message: new lines, or the recent ones (`recent`) after (re)connecting. */
    add({ lines, recent = false }) {
      // The page's first recent lines were said before the reader came: not unread. After a
      // reconnection, those not seen yet were said while the page was away: unread.
      const fresh = lines.filter((l) => !seen.has(keyOf(l)));
      for (const l of lines) seen.add(keyOf(l));
      if (recent) {
        // The recent lines are the chat so far; a line that came on its own just before them
        // (said while the server read them) stays after them.
        const told = new Set(lines.map(keyOf));
        list.replaceChildren(...[...lines, ...sinceOpen.filter((l) => !told.has(keyOf(l)))].map(item));
      } else {
        sinceOpen.push(...lines);
        list.append(...lines.map(item));
      }
      const unread = recent && !again ? 0 : fresh.length;
      if (lines.length) dock.chat(lines[lines.length - 1], unread);
      while (list.children.length > KEEP) list.firstChild.remove();
      list.scrollTop = list.scrollHeight;
    },
    /** The socket (re)opened (`reopened`: after a loss): the recent lines follow, if any. */
    opened(reopened) {
      again = reopened;
      sinceOpen = [];
    },
  };
}
