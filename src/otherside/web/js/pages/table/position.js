// "Describe the position": the whole position in words, on demand, for a screen reader (as
// lichess's mode for blind players does) and for anyone who would rather read it. The board
// says it (its `position()`, from the view it shows); this part owns the button, the keyboard
// shortcut (Alt+Shift+P, anywhere on the page) and the live region that announces the words.
import { el } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

/**
 * @param {{button: HTMLButtonElement, hide: HTMLButtonElement, region: Element}} nodes
 * @param {function(): string[]} lines the position's sentences now (empty without a board)
 * @returns {{tell: function(): void, dispose: function(): void}}
 */
export function createPositionReader({ button, hide, region }, lines) {
  const tell = () => {
    const said = lines();
    // Emptied first, then filled on the next frame: the same words asked twice are said twice.
    region.replaceChildren();
    requestAnimationFrame(() => {
      region.replaceChildren(...(said.length ? said : [t("There is no position to describe yet.")]).map((line) => el("p", {}, line)));
      hide.classList.remove("hidden");
    });
  };
  hide.addEventListener("click", () => { region.replaceChildren(); hide.classList.add("hidden"); button.focus(); });
  const onKey = (event) => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey || event.code !== "KeyP") return;
    event.preventDefault();
    tell();
  };
  button.title = t("Shortcut: Alt+Shift+P");
  button.addEventListener("click", tell);
  document.addEventListener("keydown", onKey);
  return { tell, dispose: () => document.removeEventListener("keydown", onKey) };
}
