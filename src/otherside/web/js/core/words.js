// Words for people, shared by the pages: bots by what they are, rule ids as links to the rules.
import { el } from "/static/js/core/dom.js";
import { t, tn } from "/static/js/core/i18n.js";

const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

const BOT_NAMES = {
  ismcts: () => t("Tree-search bot"), expectimax: () => t("Look-ahead bot"), partner: () => t("Bot partner"),
  random: () => t("Random bot"), greedy: () => t("Greedy bot"), expert: () => t("Expert bot"), best: () => t("Best bot"),
  search: () => t("Search bot"), alphabeta: () => t("Alpha-beta bot"),
};
const OPTION_WORDS = { think: (value) => t("{seconds} s a move", { seconds: value }) };

/**
 * A bot as people call it, the one place the pages turn a bot into words. Takes a spec
 * ("search:think=0.5", "partner", "greedy") or what the server says of a bot (a seat with
 * `bot_label`/`bot_name`/`bot`, or a bot choice with `label`/`name`/`spec`): the server's words
 * win when it has them.
 * @example botWords("search:think=0.5") === "Search bot · 0.5 s a move"
 * @example botWords("partner") === "Bot partner"
 */
export function botWords(bot) {
  if (bot && typeof bot === "object") {
    // The spec, said through the catalogs; the server's label is English.
    const spec = bot.bot ?? bot.spec ?? bot.bot_name ?? bot.name;
    return spec ? botWords(spec) : bot.bot_label ?? bot.label ?? botWords(null);
  }
  if (!bot) return t("a bot");
  const [name, ...options] = String(bot).split(":");
  const base = BOT_NAMES[name]?.() ?? t("{name} bot", { name: cap(name) });
  const said = options.flatMap((o) => o.split(",")).map((o) => o.split("="))
    .map(([key, value]) => (OPTION_WORDS[key] ? OPTION_WORDS[key](value) : `${key} ${value}`));
  return [base, ...said].join(" · ");
}

/**
 * A table's pace in words for people.
 * @example paceWords({kind: "live", minutes: 10, increment: 5}) === "Live · 10 min + 5 s a move"
 * @example paceWords({kind: "rounds"}) === "Timed rounds — no player clock"
 */
export function paceWords(pace) {
  if (!pace) return "";
  if (pace.kind === "rounds") return t("Timed rounds — no player clock");
  if (pace.kind === "turn") return tn("Turn-based · {count} day a move", "Turn-based · {count} days a move", pace.days);
  return pace.increment
    ? t("Live · {minutes} min + {seconds} s a move", { minutes: pace.minutes, seconds: pace.increment })
    : t("Live · {minutes} min for the game", { minutes: pace.minutes });
}

/**
 * A seat's name for people: the name the server gives it (a player's; a bot's words in the
 * reader's language, numbered among the table's alike bots, server/live/wire.py seat_names),
 * else the seat is open.
 */
export const seatLabel = (seat) => seat.name ?? t("open seat");

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
      out.push(" ", el("a", { class: "rule-id", href: `/rules/${game}#${id.split(".")[0]}`, target: "_blank", title: t("rule {id}", { id }) }, id));
    }
    last = match.index + match[0].length;
  }
  out.push(String(text).slice(last));
  return out.filter((part) => part !== "");
}

/**
 * How a game ended, in the reader's language: the outcome's `words` (a catalog message and
 * its fields, from the server), else its reason as the server wrote it.
 */
export function reasonWords(outcome) {
  if (!outcome) return "";
  const words = outcome.words;
  return words?.template ? t(words.template, words.params ?? {}) : String(outcome.reason ?? "");
}

/** The same sentence without its rule ids, for places that take plain text (a title, a toast). */
export const withoutRuleIds = (text) => String(text).replace(RULE_IDS, "");
