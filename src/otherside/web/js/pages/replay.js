// A finished game step by step: the public view before the first action and after each one.
import { api } from "/static/js/core/http.js";
import { byId, el, pathTail } from "/static/js/core/dom.js";
import { boardTraits, gameInfo, loadBoard } from "/static/js/core/games.js";
import { currentUser, header } from "/static/js/core/session.js";
import { reasonWords, ruleNodes, seatLabel } from "/static/js/core/words.js";
import { language, t } from "/static/js/core/i18n.js";
import { analysisPanel } from "/static/js/pages/analysis.js";

const STEP_MS = 900;

function elapsed(steps, iso) {
  const seconds = Math.round((Date.parse(iso) - Date.parse(steps[1].at)) / 1000);
  const time = seconds < 3600 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`
    : `${Math.round(seconds / 3600)} h`;
  return t("{time} in", { time });
}

/** The replay of `data` (the server's `/replay` answer) with the game's board module. */
function replayPage(tableId, data, module, traits) {
  const steps = data.steps;
  const names = data.table.seats.map(seatLabel);
  const board = module.createBoard(byId("board"), { mode: "replay", play: null, resign: null });
  const state = { at: 0, timer: null };
  let analysis = null;

  function show(index) {
    state.at = Math.max(0, Math.min(steps.length - 1, index));
    const { at } = state;
    const step = steps[at];
    // Before its last step the game was still being played: a board that shows the table's
    // outcome (one the server ended, by a clock) must not show the end from the first step.
    const table = at === steps.length - 1 ? data.table : { ...data.table, status: "playing", outcome: null };
    board.update({ view: step.view, seat: null, legal: [], names, previous: at > 0 ? steps[at - 1].view : null,
      clock: null, table });
    byId("slider").value = at;
    const when = step.at && steps[1]?.at ? ` · ${elapsed(steps, step.at)}` : "";
    byId("where").textContent = t("step {at} of {last}", { at, last: steps.length - 1 }) + when + (step.action ? ` · ${names[step.seat]}: ${step.action}` : "");
    for (const [i, item] of [...byId("log").children].entries()) {
      const current = i + 1 === at;
      item.classList.toggle("current", current);
      if (current) item.scrollIntoView({ block: "nearest" });
    }
    analysis?.at(at);
  }

  // The pause before the next step: as it happened in a timed game (up to 3 s), else even.
  function pause() {
    const [here, next] = [steps[state.at]?.at, steps[state.at + 1]?.at];
    if (traits.replay !== "timed" || !here || !next) return STEP_MS;
    return Math.max(250, Math.min(3000, Date.parse(next) - Date.parse(here)));
  }

  function toggle() {
    if (state.timer) { clearTimeout(state.timer); state.timer = null; byId("playpause").textContent = t("▶ Play"); return; }
    if (state.at >= steps.length - 1) show(0);
    byId("playpause").textContent = t("⏸ Pause");
    const tick = () => {
      if (state.at >= steps.length - 1) { state.timer = null; byId("playpause").textContent = t("▶ Play"); return; }
      show(state.at + 1);
      state.timer = setTimeout(tick, pause());
    };
    state.timer = setTimeout(tick, pause());
  }

  const outcome = data.table.outcome;
  const winners = new Intl.ListFormat(language, { type: "conjunction" }).format(outcome.winners.map((s) => names[s]));
  byId("page-title").textContent = t("Replay of a {game} game", { game: data.table.title });
  // Players who are one team (Recto Verso's two builders) beat no one, as on the table page.
  const together = traits.together.includes(data.table.seats.length);
  const result = outcome.winners.length === 0 ? t("Draw") : together ? t("Game over") : t("{names} won", { names: winners });
  byId("summary").replaceChildren(el("div", {}, `${data.table.title} · ${names.join(", ")}`),
    el("div", {}, result, " — ", ruleNodes(reasonWords(outcome), data.table.game)),
    el("div", {}, t("final scores: {scores}", { scores: outcome.scores.join(" – ") })));
  // The board's words for each step, less a repeat of the step before's (as in the table's
  // log: a board may describe the position, and a Recto Verso round's sentence is the same
  // after each of its moves).
  const said = steps.map((s) => board.describe(s.view, names).join(" "));
  byId("log").replaceChildren(...steps.slice(1).map((s, i) => el("li", {}, el("button", { type: "button", class: "step", onclick: () => show(i + 1) },
    // The move in the rules' notation, the same in every language: marked as such (not words).
    `${names[s.seat]}: `, el("code", { class: "notation", translate: "no" }, s.action),
    said[i + 1] && said[i + 1] !== said[i] ? el("span", { class: "muted block" }, said[i + 1]) : null))));
  analysis = analysisPanel({ root: byId("analysis"), tableId, analysis: traits.analysis, last: steps.length - 1, names, log: byId("log"),
    show: (index) => { show(index); return byId("board"); },
    find: (test) => steps.findIndex((step) => test(step.view)) });
  byId("slider").max = steps.length - 1;
  byId("download").href = `/api/tables/${tableId}/record`;
  byId("first").onclick = () => show(0);
  byId("prev").onclick = () => show(state.at - 1);
  byId("next").onclick = () => show(state.at + 1);
  byId("last").onclick = () => show(steps.length - 1);
  byId("playpause").onclick = toggle;
  byId("slider").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    // The slider steps by itself (its input event): one arrow there is one step, not two.
    if (e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowRight") show(state.at + 1);
    if (e.key === "ArrowLeft") show(state.at - 1);
  });
  show(0);
}

// No replay to show (a game still under way, no such table): say so plainly, and take away the
// controls and panels that would look as if they worked.
function noReplay(tableId, error) {
  for (const part of document.querySelectorAll(".replay-controls, .table-layout > aside, #analysis")) part.classList.add("hidden");
  const live = error.status === 409;
  byId("board").replaceChildren(el("div", { class: "panel no-replay", id: "no-replay" },
    live ? [el("h2", {}, t("This game is still being played — watch it live")),
      el("p", {}, t("Its replay opens here once the game is over.")),
      el("a", { class: "button", href: `/table/${encodeURIComponent(tableId)}` }, t("Watch it live"))]
      : [el("h2", {}, error.status === 404 ? t("There is no such game.") : t("This replay cannot be shown.")),
        el("p", { class: "muted" }, error.message),
        el("a", { class: "button secondary", href: "/" }, t("Back to the lobby"))]));
}

async function start() {
  header(await currentUser());
  const tableId = pathTail();
  const data = await api("GET", `/api/tables/${tableId}/replay`).catch((error) => {
    noReplay(tableId, error);
    return null;
  });
  if (!data) return;
  const traits = boardTraits(await gameInfo(data.table.game));
  replayPage(tableId, data, await loadBoard(traits), traits);
}

start();
