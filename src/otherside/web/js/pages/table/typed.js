// Playing by keyboard and screen reader (as lichess's mode for blind players): a move typed in
// the rules' notation, completed from the legal moves the server sent, Enter to play; and a
// live region that says each move, whose turn it is and the result as text.
// No rule is known here: the legal moves are the server's, and a move that is not among them
// is sent as typed so that the server's refusal (with its rule id) says why.
import { el } from "/static/js/core/dom.js";
import { t, tn } from "/static/js/core/i18n.js";

// Every sentence of this module, in one place, in the reader's language (the catalogs).
const WORDS = {
  yourTurn: () => t("Your turn."),
  toMove: (names) => t("{names} to move.", { names }),
  notYourTurn: () => t("It is not your turn."),
  empty: () => t("Type a move, for example one of: "),
  several: (count, text) => tn("{count} move begins with “{text}”: ", "{count} moves begin with “{text}”: ", count, { count, text }),
  more: (count) => t(" and {count} more", { count }),
  gameOver: () => t("Game over."),
};

/**
 * The legal move meant by `text`: the same words, or the only move that begins with them. A
 * space typed at the end says "more follows": "series blue 4 5 " is not "series blue 4 5".
 */
export function completeMove(text, legal) {
  const typed = text.replace(/\s+/g, " ").replace(/^ /, "").toLowerCase();
  const whole = typed.trimEnd();
  if (!whole) return { move: null, matches: [] };
  const matches = legal.filter((move) => move.toLowerCase().startsWith(typed));
  const exact = legal.find((move) => move.toLowerCase() === whole);
  if (exact && (typed === whole || matches.length === 0)) return { move: exact, matches: [exact] };
  return { move: matches.length === 1 ? matches[0] : null, matches };
}

/**
 * What the completion list offers for `text`: the whole moves that begin with it when they are
 * few, else each different next word ("place black ", "place white "…), so that a long list of
 * moves (hundreds of placements) is walked a word at a time.
 */
export function continuations(text, legal, most = 24) {
  const typed = text.replace(/\s+/g, " ").replace(/^ /, "").toLowerCase();
  const matches = legal.filter((move) => move.toLowerCase().startsWith(typed));
  if (matches.length <= most) return matches;
  const next = new Set();
  for (const move of matches) {
    const end = move.slice(typed.length).search(/[ >]/);
    next.add(end < 0 ? move : move.slice(0, typed.length + end + 1));
  }
  return [...next].slice(0, most);
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
  // The completion list follows what is typed (a few options, never hundreds at once).
  const offer = () => {
    const options = continuations(input.value, legal);
    const key = options.join("\n");
    if (key === shownLegal) return;
    shownLegal = key;
    list.replaceChildren(...options.map((move) => el("option", { value: move })));
  };
  input.addEventListener("input", offer);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!legal.length) { say(WORDS.notYourTurn()); return; }
    const text = input.value;
    const { move, matches } = completeMove(text, legal);
    if (move) {
      play(move);
      input.value = "";
      offer();
    } else if (!text.trim()) {
      say(WORDS.empty() + someOf(legal));
    } else if (matches.length > 1) {
      say(WORDS.several(matches.length, text.trim()) + someOf(matches));
    } else {
      play(text.trim());  // the server says why it is refused
    }
  });
  return {
    /**
     * Show the form to a seated player and say what changed.
     * @param {{version: number, legal: string[], seated: boolean, over: boolean, lines: string[], toMove: string[], result: string|null}} frame
     */
    update({ version, legal: moves, seated: isSeated, over, lines, toMove, result }) {
      legal = over ? [] : moves;
      form.dataset.moves = legal.length;
      form.classList.toggle("hidden", !isSeated || over);
      form.dataset.version = version;  // which view the offered moves belong to
      offer();
      const turn = over ? (result ?? WORDS.gameOver()) : legal.length ? WORDS.yourTurn() : toMove.length ? WORDS.toMove(toMove.join(" and ")) : "";
      say([...lines.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`)), turn].filter(Boolean).join(" "));
    },
    say,
  };
}
