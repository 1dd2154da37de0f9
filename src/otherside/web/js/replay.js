// A finished game step by step: the public view before the first action and after each one.
import { api, currentUser, el, gameModule, header } from "/static/js/api.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let steps = [], at = 0, game = null, names = [], timer = null;

function show(index) {
  at = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[at];
  game.render($("board"), step.view, { seat: null, legal: [], names, play: null, previous: at > 0 });
  $("slider").value = at;
  $("where").textContent = `step ${at} of ${steps.length - 1}` + (step.action ? ` · ${names[step.seat]}: ${step.action}` : "");
  for (const [i, item] of [...$("log").children].entries()) item.style.fontWeight = i + 1 === at ? "700" : "400";
}

function toggle() {
  if (timer) { clearInterval(timer); timer = null; $("playpause").textContent = "▶ Play"; return; }
  if (at >= steps.length - 1) show(0);
  $("playpause").textContent = "⏸ Pause";
  timer = setInterval(() => { if (at >= steps.length - 1) toggle(); else show(at + 1); }, 900);
}

async function start() {
  header(await currentUser());
  const data = await api("GET", `/api/tables/${tableId}/replay`).catch((error) => {
    $("board").replaceChildren(el("p", { class: "panel" }, error.message));
    return null;
  });
  if (!data) return;
  const games = await api("GET", "/api/games");
  game = await gameModule(games.find((g) => g.name === data.table.game)?.page ?? "generic");
  names = data.table.seats.map((s) => s.name ?? `seat ${s.seat + 1}`);
  steps = data.steps;
  $("summary").replaceChildren(el("div", {}, `${data.table.title} · ${names.join(", ")}`),
    el("div", {}, `final scores: ${data.table.outcome.scores.join(" – ")}`));
  $("log").replaceChildren(...steps.slice(1).map((s, i) => el("li", { style: "cursor:pointer", onclick: () => show(i + 1) },
    `${names[s.seat]}: ${s.action}`, el("div", { class: "muted" }, (s.view.events ?? []).map((e) => game.describe(e, names)).join(" ")))));
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
