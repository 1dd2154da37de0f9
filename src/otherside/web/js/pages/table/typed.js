// Playing by keyboard and screen reader (as lichess's mode for blind players): a move typed in
// the rules' notation, completed from the legal moves the server sent, Enter to play; and a
// live region that says each move, whose turn it is and the result as text.
// No rule is known here: the legal moves are the server's, and a move that is not among them
// is sent as typed so that the server's refusal (with its rule id) says why.
import { el } from "/static/js/core/dom.js";

// Every sentence of this module, in one place (for the catalogs).
const WORDS = {
  yourTurn: "Your turn.",
  toMove: (names) => `${names} to move.`,
  notYourTurn: "It is not your turn.",
  empty: "Type a move, for example one of: ",
  several: (count, text) => `${count} moves begin with “${text}”: `,
  more: (count) => ` and ${count} more`,
  gameOver: "Game over.",
};

/** The legal move meant by `text`: the same words, or the only move that begins with them. */
export function completeMove(text, legal) {
  const typed = text.trim().replace(/\s+/g, " ").toLowerCase();
  if (!typed) return { move: null, matches: [] };
  const exact = legal.find((move) => move.toLowerCase() === typed);
  if (exact) return { move: exact, matches: [exact] };
  const matches = legal.filter((move) => move.toLowerCase().startsWith(typed));
  return { move: matches.length === 1 ? matches[0] : null, matches };
}

function someOf(moves, shown = 6) {
  const head = moves.slice(0, shown).join(", ");
  return moves.length > shown ? head + WORDS.more(moves.length - shown) : head;
}

/**
 * @param {{form: HTMLFormElement, input: HTMLInputElement, list: HTMLDataListElement, spoken: Element}} nodes
 * @param {function(string): void} play sends an action to the table
 * @returns {{update: function(object): void, say: function(string): void}}
 */
export function createTypedMoves({ form, input, list, spoken }, play) {
  let legal = [];
  let shownLegal = "";
  const say = (text) => {
    // The same words twice are announced again only if the region changes in between.
    spoken.textContent = "";
    requestAnimationFrame(() => { spoken.textContent = text; });
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!legal.length) { say(WORDS.notYourTurn); return; }
    const text = input.value;
    const { move, matches } = completeMove(text, legal);
    if (move) {
      play(move);
      input.value = "";
    } else if (!text.trim()) {
      say(WORDS.empty + someOf(legal));
    } else if (matches.length > 1) {
      say(WORDS.several(matches.length, text.trim()) + someOf(matches));
    } else {
      play(text.trim());  // the server says why it is refused
    }
  });
  return {
    /**
     * Show the form to a seated player and say what changed.
     * @param {{legal: string[], seated: boolean, over: boolean, lines: string[], toMove: string[], result: string|null}} frame
     */
    update({ legal: moves, seated: isSeated, over, lines, toMove, result }) {
      legal = over ? [] : moves;
      form.classList.toggle("hidden", !isSeated || over);
      const key = legal.join("\n");
      if (key !== shownLegal) {
        shownLegal = key;
        list.replaceChildren(...legal.map((move) => el("option", { value: move })));
      }
      const turn = over ? (result ?? WORDS.gameOver) : legal.length ? WORDS.yourTurn : toMove.length ? WORDS.toMove(toMove.join(" and ")) : "";
      say([...lines.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`)), turn].filter(Boolean).join(" "));
    },
    say,
  };
}
