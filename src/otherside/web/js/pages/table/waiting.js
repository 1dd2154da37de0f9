// The waiting room: the invite link, the seats (sit, add or remove a bot, leave), start.
import { el } from "/static/js/core/dom.js";
import { t, tn } from "/static/js/core/i18n.js";
import { botWords } from "/static/js/core/words.js";

/**
 * The seats and the host's actions for a waiting table.
 * @param {object} state the table page's state
 * @param {function(string, object=): Promise} call a table action (`join`, `bots`, `leave`, `start`)
 * @returns {{seats: Element[], actions: Element[]}}
 */
export function waitingRoom(state, call) {
  const { table, user, you, info } = state;
  const isHost = user && user.id === table.owner_id;
  const choices = (info?.bot_choices ?? []).filter((c) => c.players.includes(table.players));
  const about = info?.bot_info ?? {};
  const described = (c) => { const d = about[c.name]; return d ? t("{bot} — {description}", { bot: botWords(c), description: d.description }) : botWords(c); };
  const seats = table.seats.map((s) => el("div", { class: `seat ${s.kind === "empty" ? "" : "taken"}` },
    el("span", { class: "badge" }, t("seat {seat}", { seat: s.seat + 1 })),
    // "open", not "empty": a seat is free to take (frei, libre), a pile is empty (leer, vide).
    // A bot named by the server, as the game's players list and the lobby name it.
    el("span", { class: "name" }, s.kind === "empty" ? t("open") : s.name,
      s.rating ? el("span", { class: "rating" }, ` ${s.rating}`) : null,
      s.guest ? el("span", { class: "muted" }, " ", t("(guest)")) : null,
      s.bot_account ? el("span", { class: "muted" }, " ", t("(bot account)")) : null),
    s.kind === "empty" && you === null ? el("button", { class: "small", onclick: () => call("join", { seat: s.seat }) }, t("Sit here")) : null,
    s.kind === "empty" && isHost ? el("select", { class: "small", "aria-label": t("bot for seat {seat}", { seat: s.seat + 1 }), onchange: (e) => e.target.value && call("bots", { seat: s.seat, bot: e.target.value }) },
      el("option", { value: "" }, t("add a bot…")), choices.map((c) => el("option", { value: c.spec }, described(c)))) : null,
    s.kind === "bot" && isHost ? el("button", { class: "small secondary", onclick: () => call("bots", { seat: s.seat, bot: null }) }, t("Remove")) : null,
    s.seat === you ? el("button", { class: "small secondary", onclick: () => call("leave") }, t("Leave")) : null));
  const empty = table.seats.filter((s) => s.kind === "empty").length;
  const guests = table.seats.some((s) => s.guest);
  const bot = table.seats.some((s) => s.kind === "bot");
  const ratedNote = info?.rated_counts?.includes(table.players)
    ? (guests || bot ? t("Not rated: every seat must be a registered player.") : t("Rated if every seat stays a registered player."))
    : null;
  const actions = [
    // The host handed on by a host who left: said once it happens, and while it is news.
    isHost && state.handedOver ? el("p", { class: "host-now", role: "status", "data-testid": "host-now" },
      t("You are the host now: the host left the table.")) : null,
    // Filling the seats with bots starts the game at once: the button says so.
    isHost && empty && choices.length ? el("button", { id: "fill", onclick: () => call("bots", { bot: choices[0].spec }) },
      tn("Fill the empty seat with {bot} and start", "Fill the {count} empty seats with {bot} and start", empty, { bot: botWords(choices[0]) })) : null,
    isHost ? el("button", { id: "start", class: empty > 0 ? "secondary" : "", disabled: empty > 0, onclick: () => call("start") }, t("Start the game"))
      : el("span", { class: "muted" }, t("The host starts the game when every seat is taken.")),
    ratedNote ? el("span", { class: "muted" }, ratedNote) : null,
  ].filter(Boolean);
  return { seats, actions };
}
