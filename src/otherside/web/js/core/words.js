// Words for people, shared by the pages: bots by what they are, rule ids as links to the rules.
import { el } from "/static/js/core/dom.js";

const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A bot spec ("search:think=0.5", "partner", "greedy") as words.
 * @example botWords("search:think=0.5") === "Search bot (0.5 s a move)"
 * @example botWords("partner") === "Bot partner"
 */
export function botWords(spec) {
  if (!spec) return "a bot";
  const [name, ...options] = String(spec).split(":");
  const think = options.map((o) => o.split("=")).find(([key]) => key === "think")?.[1];
  const base = name === "partner" ? "Bot partner" : `${cap(name)} bot`;
  return think ? `${base} (${think} s a move)` : base;
}

/** A seat's name for people: a player's name, a bot's words (numbered when two are alike). */
export function seatLabel(seat, seats = []) {
  if (seat.kind === "empty" || (!seat.name && !seat.bot)) return `seat ${seat.seat + 1}`;
  if (seat.kind !== "bot") return seat.name;
  const words = botWords(seat.bot);
  const alike = seats.filter((s) => s.kind === "bot" && botWords(s.bot) === words);
  return alike.length > 1 ? `${words} ${alike.indexOf(alike.find((s) => s.seat === seat.seat)) + 1}` : words;
}

const RULE_IDS = /\s*\((?:[A-Z]\d+(?:\.\d+)*)(?:(?:,\s*|\s+and\s+)[A-Z]\d+(?:\.\d+)*)*\)/g;

/**
 * A sentence of the server or a board with its rule ids ("all targets filled (S13.1)") taken
 * out of the words and shown as small links to the rule in `game`'s rules page.
 * @returns {Array<string|Element>} children for `el`
 */
export function ruleNodes(text, game) {
  const out = [];
  let last = 0;
  for (const match of String(text).matchAll(RULE_IDS)) {
    out.push(String(text).slice(last, match.index));
    for (const id of match[0].match(/[A-Z]\d+(?:\.\d+)*/g)) {
      out.push(" ", el("a", { class: "rule-id", href: `/rules/${game}#${id.split(".")[0]}`, target: "_blank", title: `rule ${id}` }, id));
    }
    last = match.index + match[0].length;
  }
  out.push(String(text).slice(last));
  return out.filter((part) => part !== "");
}

/** The same sentence without its rule ids, for places that take plain text (a title, a toast). */
export const withoutRuleIds = (text) => String(text).replace(RULE_IDS, "");
