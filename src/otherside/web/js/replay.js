// A finished game step by step: the public view before the first action and after each one.
import { api, currentUser, el, gameModule, header } from "/static/js/api.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let steps = [], at = 0, game = null, names = [], timer = null, data = null, timed = false;

function show(index) {
  at = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[at];
  game.render($("board"), step.view, { seat: null, legal: [], names, play: null, previous: at > 0 ? steps[at - 1].view : null, table: data?.table });
  $("slider").value = at;
  const when = step.at && steps[1]?.at ? ` · ${elapsed(step.at)}` : "";
  $("where").textContent = `step ${at} of ${steps.length - 1}${when}` + (step.action ? ` · ${names[step.seat]}: ${step.action}` : "");
  for (const [i, item] of [...$("log").children].entries()) {
    const current = i + 1 === at;
    item.classList.toggle("current", current);
    if (current) item.scrollIntoView({ block: "nearest" });
  }
}

function elapsed(iso) {
  const seconds = Math.round((Date.parse(iso) - Date.parse(steps[1].at)) / 1000);
  return seconds < 3600 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} in`
    : `${Math.round(seconds / 3600)} h in`;
}

// The pause before the next step: as it happened in a timed game (up to 3 s), else 0.9 s.
function pause() {
  const [here, next] = [steps[at]?.at, steps[at + 1]?.at];
  if (!timed || !here || !next) return 900;
  return Math.max(250, Math.min(3000, Date.parse(next) - Date.parse(here)));
}

function toggle() {
  if (timer) { clearTimeout(timer); timer = null; $("playpause").textContent = "▶ Play"; return; }
  if (at >= steps.length - 1) show(0);
  $("playpause").textContent = "⏸ Pause";
  const tick = () => {
    if (at >= steps.length - 1) { timer = null; $("playpause").textContent = "▶ Play"; return; }
    show(at + 1);
    timer = setTimeout(tick, pause());
  };
  timer = setTimeout(tick, pause());
}

async function start() {
  header(await currentUser());
  data = await api("GET", `/api/tables/${tableId}/replay`).catch((error) => {
    $("board").replaceChildren(el("p", { class: "panel" }, error.message));
    return null;
  });
  if (!data) return;
  const games = await api("GET", "/api/games");
  game = await gameModule(games.find((g) => g.name === data.table.game)?.page ?? "generic");
  names = data.table.seats.map((s) => s.name ?? `seat ${s.seat + 1}`);
  steps = data.steps;
  timed = data.table.game === "rectoverso";
  const outcome = data.table.outcome;
  const winners = outcome.winners.map((s) => names[s]).join(" and ");
  $("summary").replaceChildren(el("div", {}, `${data.table.title} · ${names.join(", ")}`),
    el("div", {}, `${outcome.winners.length ? `${winners} won` : "Draw"} — ${outcome.reason}`),
    el("div", {}, `final scores: ${outcome.scores.join(" – ")}`));
  const words = (view) => game.summary ? game.summary(view, names) ?? ""
    : (view.events ?? []).map((e) => game.describe(e, names)).join(" ");
  $("log").replaceChildren(...steps.slice(1).map((s, i) => el("li", { style: "cursor:pointer", onclick: () => show(i + 1) },
    `${names[s.seat]}: ${s.action}`, el("div", { class: "muted" }, words(s.view)))));
  $("slider").max = steps.length - 1;
  $("download").href = `/api/tables/${tableId}/record`;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(steps.length - 1);
  $("playpause").onclick = toggle;
  $("slider").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  show(0);
}

start();
