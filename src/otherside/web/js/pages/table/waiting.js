// The waiting room: the invite link, the seats (sit, add or remove a bot, leave), start.
import { el } from "/static/js/core/dom.js";

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
  const described = (c) => { const d = about[c.spec.split(":")[0]]; return d ? `${c.label} — ${d.description}` : c.label; };
  const seats = table.seats.map((s) => el("div", { class: `seat ${s.kind === "empty" ? "" : "taken"}` },
    el("span", { class: "badge" }, `seat ${s.seat + 1}`),
    el("span", { class: "name" }, s.kind === "empty" ? "empty" : s.name,
      s.rating ? el("span", { class: "rating" }, ` ${s.rating}`) : null,
      s.guest ? el("span", { class: "muted" }, " (guest)") : null),
    s.kind === "empty" && you === null ? el("button", { class: "small", onclick: () => call("join", { seat: s.seat }) }, "Sit here") : null,
    s.kind === "empty" && isHost ? el("select", { class: "small", "aria-label": `bot for seat ${s.seat + 1}`, onchange: (e) => e.target.value && call("bots", { seat: s.seat, bot: e.target.value }) },
      el("option", { value: "" }, "add a bot…"), choices.map((c) => el("option", { value: c.spec }, described(c)))) : null,
    s.kind === "bot" && isHost ? el("button", { class: "small secondary", onclick: () => call("bots", { seat: s.seat, bot: null }) }, "Remove") : null,
    s.seat === you ? el("button", { class: "small secondary", onclick: () => call("leave") }, "Leave") : null));
  const empty = table.seats.filter((s) => s.kind === "empty").length;
  const guests = table.seats.some((s) => s.guest);
  const bot = table.seats.some((s) => s.kind === "bot");
  const ratedNote = info?.rated_counts?.includes(table.players)
    ? (guests || bot ? "Not rated: every seat must be a registered player." : "Rated if every seat stays a registered player.")
    : null;
  const actions = [
    // The host handed on by a host who left: said once it happens, and while it is news.
    isHost && state.handedOver ? el("p", { class: "host-now", role: "status", "data-testid": "host-now" },
      "You are the host now: the host left the table.") : null,
    // Filling the seats with bots starts the game at once: the button says so.
    isHost && empty && choices.length ? el("button", { id: "fill", onclick: () => call("bots", { bot: choices[0].spec }) }, `Fill ${empty === 1 ? "the empty seat" : `the ${empty} empty seats`} with ${choices[0].label} and start`) : null,
    isHost ? el("button", { id: "start", class: empty > 0 ? "secondary" : "", disabled: empty > 0, onclick: () => call("start") }, "Start the game")
      : el("span", { class: "muted" }, "The host starts the game when every seat is taken."),
    ratedNote ? el("span", { class: "muted" }, ratedNote) : null,
  ].filter(Boolean);
  return { seats, actions };
}
