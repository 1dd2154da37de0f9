// A game's lesson: short steps on real positions, each teaching one rule. The server gives the
// steps (words in the reader's language, the position as the learner sees it, their legal moves)
// and judges each move with the game's engine (POST /api/lessons/<game>/<step>); the board is
// the game's own table board (the createBoard contract), so a learner learns the real thing.
// Progress: the server keeps a signed-in player's; this page keeps anyone else's in this browser.
import { api } from "/static/js/core/http.js";
import { byId, el, pathTail } from "/static/js/core/dom.js";
import { boardTraits, gameInfo, loadBoard } from "/static/js/core/games.js";
import { currentUser, header } from "/static/js/core/session.js";
import { t } from "/static/js/core/i18n.js";

const game = pathTail();
const KEPT = `otherside.lessons.${game}`;

/** The steps done, as this browser remembers them (for a learner who is not signed in). */
function keptHere() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) ?? "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function keepHere(done) {
  try {
    localStorage.setItem(KEPT, JSON.stringify([...done]));
  } catch {
    // A browser that keeps nothing (private mode, full storage): progress lasts the visit.
  }
}

async function start() {
  const user = await currentUser().catch(() => null);
  header(user);
  const games = await api("GET", "/api/games").catch(() => []);
  const withLessons = await api("GET", "/api/lessons").then((found) => found.games, () => []);
  byId("games").replaceChildren(...games.filter(({ name }) => withLessons.includes(name)).map(({ name, title }) =>
    el("a", { class: `button small ${name === game ? "" : "secondary"}`, href: `/learn/${name}` }, title)));
  let lesson;
  try {
    lesson = await api("GET", `/api/lessons/${encodeURIComponent(game)}`);
  } catch {
    byId("title").textContent = t("Learn");
    byId("lesson").replaceChildren(el("p", {}, t("There is no lesson for “{game}” yet.", { game })));
    return;
  }
  document.title = t("otherside — {title}", { title: lesson.title });
  byId("title").textContent = lesson.title;
  const done = new Set([...lesson.done, ...keptHere()]);
  const { createBoard } = await loadBoard(boardTraits(await gameInfo(game)));
  const first = lesson.steps.findIndex((step) => !done.has(step.id));
  show(lesson, done, createBoard, first < 0 ? 0 : first);
}

/** The list of steps, each marked done or not, the one shown marked current. */
function drawSteps(lesson, done, at, go) {
  byId("steps").replaceChildren(...lesson.steps.map((step, index) => {
    const mark = done.has(step.id) ? "✓" : String(index + 1);
    const button = el("button", { type: "button", class: "lesson-step", "aria-current": index === at ? "step" : "false" },
      el("span", { class: `lesson-mark${done.has(step.id) ? " done" : ""}`, "aria-hidden": "true" }, mark),
      el("span", { class: "lesson-step-title" }, step.title),
      done.has(step.id) ? el("span", { class: "sr-only" }, t("(done)")) : "");
    button.addEventListener("click", () => go(index));
    return el("li", {}, button);
  }));
}

function show(lesson, done, createBoard, at) {
  const step = lesson.steps[at];
  const go = (index) => show(lesson, done, createBoard, index);
  drawSteps(lesson, done, at, go);
  const feedback = el("p", { class: "lesson-feedback", role: "status", "aria-live": "polite" });
  const boardRoot = el("div", { class: `lesson-board lesson-board-${game}` });
  const again = el("button", { type: "button", class: "secondary", hidden: "" }, t("Try again"));
  const hint = el("button", { type: "button", class: "secondary", hidden: "" }, t("Show me"));
  const next = el("button", { type: "button", hidden: "" },
    at + 1 < lesson.steps.length ? t("Next step") : t("Play a real game"));
  const rule = el("a", { class: "lesson-rule", href: `/rules/${encodeURIComponent(game)}` }, t("rule {rule}", { rule: step.rule }));
  byId("lesson").replaceChildren(
    el("h2", {}, step.title, " ", rule),
    el("p", { class: "lesson-teach" }, step.teach),
    el("p", { class: "lesson-task" }, step.task),
    boardRoot,
    feedback,
    el("div", { class: "row lesson-actions" }, again, hint, next));
  const names = lesson.names;
  const frame = (view, legal, previous) => ({
    view, seat: step.seat, legal, names, previous, clock: null,
    table: { game, status: "playing", seats: [] },
  });
  let solution = null;
  let board = null;
  let attempts = 0; // boards set so far: an answer to a try on an earlier one is not shown

  async function tryMove(action) {
    // An answer that comes after the board was set again (Try again, Show me) is of a try the
    // reader has left: drawn, it replaced the new board and took the keyboard focus with it.
    const attempt = attempts;
    let answer;
    try {
      answer = await api("POST", `/api/lessons/${encodeURIComponent(game)}/${encodeURIComponent(step.id)}`, { action });
    } catch (error) {
      if (attempt === attempts) feedback.textContent = error.message;
      return;
    }
    if (attempt !== attempts) return;
    feedback.className = `lesson-feedback ${answer.outcome}`;
    feedback.textContent = answer.message;
    solution = answer.solution;
    if (answer.view) board.update(frame(answer.view, [], step.view));
    else board.update(frame(step.view, step.legal, null));
    again.hidden = answer.outcome === "done" || !answer.view;
    hint.hidden = answer.outcome === "done";
    next.hidden = answer.outcome !== "done";
    // On a phone the board fills the screen: bring the answer and its buttons into sight, once
    // they are shown and the board is redrawn (before, the hidden row had no height, and the
    // buttons stayed cut off at the foot of the screen).
    feedback.nextElementSibling?.scrollIntoView({ block: "nearest" });
    if (answer.outcome === "done") {
      done.add(step.id);
      keepHere(done);
      drawSteps(lesson, done, at, go);
      next.focus();
    }
  }

  function reset() {
    attempts += 1;
    board?.dispose();
    boardRoot.replaceChildren();
    board = createBoard(boardRoot, { mode: "live", play: tryMove, resign: null });
    board.update(frame(step.view, step.legal, null));
    again.hidden = true;
  }

  // The button pressed is hidden by the new try: the focus goes to the board's first control
  // (or the board), not to the top of the page with the button.
  const backToBoard = () => (boardRoot.querySelector("[data-act]:not(:disabled), [tabindex='0']") ?? boardRoot).focus();
  again.addEventListener("click", () => {
    reset();
    feedback.className = "lesson-feedback";
    feedback.textContent = "";
    backToBoard();
  });
  hint.addEventListener("click", () => {
    if (!solution) return;
    reset();
    feedback.className = "lesson-feedback hint";
    feedback.textContent = t("One move that works: {move}", { move: solution });
    backToBoard();
  });
  next.addEventListener("click", () => {
    if (at + 1 < lesson.steps.length) go(at + 1);
    else location.href = "/";
  });
  reset();
}

start();
