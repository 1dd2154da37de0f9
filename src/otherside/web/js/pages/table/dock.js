// The phone's dock and drawers: the clocks and the last chat line (with an unread count) stay
// on screen during play; the players, the moves and the full chat open as drawers over the
// board. On a wide screen the dock is hidden by the stylesheet and the panels stand beside the
// board, so a chat line counts as read at once.
import { byId } from "/static/js/core/dom.js";

const PHONE = "(max-width: 820px)";

/** @returns {{clocks(Element[]): void, chat(object, number): void, open(string|null): void}} */
export function createDock() {
  let unread = 0, openName = null;
  const phone = () => window.matchMedia(PHONE).matches;
  const showUnread = () => {
    byId("unread").textContent = String(unread);
    byId("unread").classList.toggle("hidden", unread === 0);
  };
  function open(name) {
    openName = openName === name ? null : name;
    if (openName) document.body.dataset.drawer = openName;
    else delete document.body.dataset.drawer;
    for (const button of document.querySelectorAll("[data-open]")) button.setAttribute("aria-expanded", String(button.dataset.open === openName));
    if (openName === "chat") {
      unread = 0;
      showUnread();
      byId("chat-lines").scrollTop = byId("chat-lines").scrollHeight;
    }
  }
  for (const button of document.querySelectorAll("[data-open]")) button.addEventListener("click", () => open(button.dataset.open));
  // A tap outside an open drawer (and outside the dock) closes it.
  document.addEventListener("pointerdown", (event) => {
    if (!openName || event.target.closest(".drawer, .dock, dialog")) return;
    open(null);
  });
  document.body.classList.add("has-dock");
  // The page keeps room for the dock, whatever its height (one or two rows of clocks).
  const measure = () => document.body.style.setProperty("--dock-h", `${byId("dock").offsetHeight}px`);
  new ResizeObserver(measure).observe(byId("dock"));
  return {
    clocks(chips) { byId("dock-clocks").replaceChildren(...chips); },
    /** Chat lines arrived, `fresh` of them new to the reader: the last is the dock's line; the
     * new ones are unread unless the chat is in sight. */
    chat(line, fresh) {
      byId("dock-chat-line").replaceChildren(`${line.name}: `, line.text);
      if (phone() && openName !== "chat") unread += fresh;
      showUnread();
    },
    open,
  };
}
