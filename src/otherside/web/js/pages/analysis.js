// A finished game's analysis by the bots, on the replay page: a button asks for it, a bar shows
// the bots' progress, then the evaluation graph (inline SVG built node by node), its mistakes
// marked on the graph and in the move list, and a ply clicked shows the position before it
// with the engine's better move on the board.
import { api } from "/static/js/core/http.js";
import { el, svg } from "/static/js/core/dom.js";
import { number, t, tn } from "/static/js/core/i18n.js";

const POLL_MS = 1000;
const STALLED_MS = 150000; // past the server's two minutes without progress (analysis/rows.py)
const WIDTH = 100; // graph units per ply column are WIDTH / plies; the SVG stretches to the panel
const HEIGHT = 100;
const MARKED = ["blunder", "mistake", "inaccuracy"];

const judgementWords = (judgement) => ({ blunder: t("blunder"), mistake: t("mistake"), inaccuracy: t("inaccuracy") })[judgement] ?? "";

/** A move in the rules' notation, the same in every language: marked as such, as in the move list. */
const notation = (move) => el("code", { class: "notation", translate: "no" }, move);

// A field of a translated sentence to be a node: t() fills it with this mark, and sentence()
// puts the node where the translation has the mark.
const mark = (name) => `\u0000${name}\u0000`;
const sentence = (words, nodes) => words.split("\u0000").map((part, i) => (i % 2 ? nodes[part] : part));

/** The first player's expected result as words: "+0.42" ahead, "−0.42" behind. */
const evalWords = (value) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${number(Math.abs(value), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The analysis panel of the replay page.
 * @param {object} page - `root` (the panel), `tableId`, `analysis` (the game's trait: "moves" or
 *   "cards"), `last` (the replay's last step),
 *   `names` (seat labels), `show(step)` (shows a step, returns the board's root), `find(test)`
 *   (the first step whose view passes `test`, or -1), `log` (the move list, one item per step
 *   after the first).
 */
export function analysisPanel(page) {
  const { root } = page;
  const state = { plies: null, chosen: null, done: -1, since: Date.now() };

  function ask() {
    state.done = -1;
    root.replaceChildren(el("h2", {}, t("Analysis")), el("p", { class: "muted" }, t("Asking the bots…")));
    api("POST", `/api/tables/${page.tableId}/analysis`).then(follow, failed);
  }

  function offer(words) {
    root.replaceChildren(el("h2", {}, t("Analysis")),
      el("p", { class: "muted" }, words ?? (page.analysis === "cards"
        ? t("The solver can show, for each card that was not completed, a building that matches it, from both sides.")
        : t("The bots can go through this game move by move: their evaluation after every move, and the better move where one was missed."))),
      el("button", { type: "button", id: "ask-analysis", onclick: ask }, t("Analyse this game")));
  }

  function progress(answer) {
    root.replaceChildren(el("h2", {}, t("Analysis")),
      el("p", { id: "analysis-progress" }, t("The bots are analysing: move {done} of {total}", { done: answer.done, total: answer.total })),
      el("progress", { max: Math.max(1, answer.total), value: answer.done, "aria-label": t("Analysis progress") }));
  }

  function follow(answer) {
    if (answer.status === "not_requested") { offer(); return; }
    if (answer.status === "done") { drawn(answer); return; }
    if (answer.status === "failed") { offer(t("The analysis stopped before the end. Ask again.")); return; }
    // A server that stopped mid-way leaves the analysis to be asked for again (the server
    // hands it to whoever asks once it has made no progress for two minutes).
    if (answer.done !== state.done) Object.assign(state, { done: answer.done, since: Date.now() });
    if (Date.now() - state.since > STALLED_MS) { offer(t("The analysis stopped before the end. Ask again.")); return; }
    progress(answer);
    setTimeout(() => api("GET", `/api/tables/${page.tableId}/analysis`).then(follow, failed), POLL_MS);
  }

  function failed(error) {
    if (error.code === "no_analysis") root.classList.add("hidden");
    else root.replaceChildren(el("h2", {}, t("Analysis")), el("p", { class: "muted" }, error.message));
  }

  // Verso: each decision's value from its player's view, the costliest listed.
  function weighed(answer) {
    const value = (v) => (answer.measure === "points" ? t("{points} points", { points: number(v, { maximumFractionDigits: 1 }) })
      : t("{percent} % to win", { percent: number(100 * v, { maximumFractionDigits: 0 }) }));
    // A figure and its words ("24 % to win") never broken over two lines (a phone's narrow list).
    const figure = (v) => el("span", { class: "figure" }, value(v));
    const byPly = new Map(answer.decisions.map((d) => [d.ply, d]));
    // A cost too small to show ("54 % to win" both ways) is no better move to a reader.
    const costs = (d) => d.cost > 0 && value(d.best_value) !== value(d.played_value);
    const costliest = answer.costliest.map((ply) => byPly.get(ply)).filter(costs);
    const line = (d) => el("li", {}, el("button", { type: "button", class: "link", onclick: () => { page.show(d.ply - 1); } },
      t("Move {ply}", { ply: d.ply })), ` · ${page.names[d.seat]}: `,
    sentence(t("played {played} ({value}); best {best} ({best_value})",
      { played: mark("played"), value: mark("value"), best: mark("best"), best_value: mark("best_value") }),
    { played: notation(d.played), best: notation(d.best), value: figure(d.played_value), best_value: figure(d.best_value) }));
    root.replaceChildren(el("h2", {}, t("Analysis")),
      el("p", { class: "muted" }, answer.measure === "points"
        ? t("Each decision weighed from its player's view: the points expected at the end after it, and after the bots' choice.")
        : t("Each decision weighed from its player's view: the chance to win after it, and after the bots' choice.")),
      el("h3", {}, t("The costliest decisions")),
      costliest.length ? el("ol", { id: "costliest", class: "costliest" }, costliest.map(line))
        : el("p", {}, t("No decision cost anything: every one was as good as the bots'.")));
    for (const d of answer.decisions) {
      const item = page.log.children[d.ply - 1];
      if (!item || !costs(d)) continue;
      item.querySelector(".analysis-note")?.remove();
      item.append(el("span", { class: "analysis-note block" },
        sentence(t("better: {move} ({best_value}; played: {value})", { move: mark("move"), best_value: mark("best_value"), value: mark("value") }),
          { move: notation(d.best), best_value: figure(d.best_value), value: figure(d.played_value) })));
    }
  }

  // Recto Verso: each card not completed, with a building the solver found for it, drawn
  // from both sides as the two builders' cards showed them (level 1 at the bottom).
  async function solved(answer) {
    // The pieces' colours, letters and names come from the game's own board folder.
    const { BY_LETTER, colourName } = await import(`/static/js/games/${encodeURIComponent(answer.game)}/pieces.js`);
    const CELL = 20;
    const side = (title, levels) => {
      const width = CELL * (levels[0]?.length ?? 4);
      const height = CELL * levels.length;
      const cells = levels.flatMap((row, level) => [...row].map((letter, column) => {
        const piece = BY_LETTER[letter];
        const [x, y, size] = [column * CELL + 1, level * CELL + 1, CELL - 2];
        if (!piece) return svg("rect", { x, y, width: size, height: size, rx: 2, class: "rv-gap" });
        // The letter as on the board, so that the colours need not be told apart by eye.
        return svg("g", {}, svg("title", {}, colourName(piece.name)),
          svg("rect", { x, y, width: size, height: size, rx: 2, fill: piece.colour, class: "rv-cube" }),
          svg("text", { x: x + size / 2, y: y + size / 2 + 3.5, fill: piece.ink, "text-anchor": "middle", "font-size": 10, "font-weight": 700 }, letter.toUpperCase()));
      }));
      return el("figure", { class: "rv-card-side" },
        svg("svg", { viewBox: `0 0 ${width} ${height + 3}`, role: "img", "aria-label": `${title}: ${levels.join(" / ")}` },
          ...cells, svg("line", { x1: 0, x2: width, y1: height + 1.5, y2: height + 1.5, class: "rv-ground" })),
        el("figcaption", {}, title));
    };
    const why = (c) => (c.reason === "time is up" ? t("Time ran out.") : t("The building did not match the card."));
    // The round's building as it last stood, beside its card: the step before the one that
    // ended the round.
    const showRound = (c) => {
      const ended = page.find((view) => (view.rounds?.length ?? 0) >= c.round);
      if (ended < 0) return;
      page.show(Math.max(0, ended - 1))?.scrollIntoView({ block: "center" });
    };
    const card = (c) => el("li", { class: "rv-missed" },
      el("h3", {}, el("button", { type: "button", class: "link", "data-round": c.round, title: t("Show this round's building on the board"),
        onclick: () => showRound(c) }, t("Round {round} · card {card}", { round: c.round, card: c.card }))),
      el("p", { class: "muted" }, why(c)),
      c.solution.placements ? el("div", { class: "rv-sides" },
        side(t("front (recto), {name}", { name: page.names[c.recto] ?? "" }), c.solution.front),
        side(t("back (verso), {name}", { name: page.names[c.verso] ?? "" }), c.solution.back)) : el("p", {}, t("no building matches this card.")),
      c.solution.placements ? el("details", {}, el("summary", {}, t("The placements")),
        el("ul", { class: "rv-placements" }, c.solution.placements.map((p) => el("li", {}, p)))) : null);
    root.replaceChildren(el("h2", {}, t("Analysis")),
      answer.cards.length ? el("p", { class: "muted" }, tn(
        "{count} card was not completed. Here is a building that matches it, found by the solver, from the front (recto) and from the back (verso).",
        "{count} cards were not completed. For each, a building that matches it, found by the solver, from the front (recto) and from the back (verso).",
        answer.cards.length)) : null,
      answer.cards.length ? el("ol", { id: "missed-cards", class: "missed-cards" }, answer.cards.map(card))
        : el("p", {}, t("Every card was completed: nothing to show.")));
  }

  function drawn(answer) {
    // What the answer holds says how to draw it: weighed decisions, missed cards, or plies.
    if (answer.decisions) { weighed(answer); return; }
    if (answer.cards) { solved(answer); return; }
    state.plies = answer.plies;
    const counts = Object.fromEntries(MARKED.map((j) => [j, [0, 0]]));
    for (const ply of answer.plies) if (ply.judgement) counts[ply.judgement][ply.seat] += 1;
    const table = el("table", { class: "analysis-counts" },
      el("tr", {}, el("th", {}, ""), ...page.names.map((name) => el("th", { scope: "col" }, name))),
      ...MARKED.map((j) => el("tr", {}, el("th", { scope: "row" }, el("span", { class: `judgement ${j}` }, judgementWords(j))),
        ...counts[j].map((count) => el("td", {}, String(count))))));
    const detail = el("p", { id: "analysis-detail", class: "analysis-detail", "aria-live": "polite" },
      t("Choose a move on the graph or in the list to see the better one."));
    root.replaceChildren(el("h2", {}, t("Analysis")),
      el("p", { class: "muted" }, t("{first}'s expected result after each move, from +1 (a sure win) to −1 (a sure loss).", { first: page.names[0] })),
      graph(answer.plies), detail, table);
    markLog();
  }

  function graph(plies) {
    const width = WIDTH;
    const x = (step) => (step / Math.max(1, page.last)) * width;
    const y = (value) => ((1 - value) / 2) * HEIGHT;
    const points = [[0, y(0)], ...plies.map((p) => [x(p.ply), y(p.eval)])];
    const line = points.map(([a, b]) => `${a.toFixed(2)},${b.toFixed(2)}`).join(" ");
    // Lichess's way: the light part under the curve is the first player's share.
    const area = `0,${HEIGHT} ${line} ${x(plies.at(-1)?.ply ?? 0).toFixed(2)},${HEIGHT}`;
    const marks = plies.filter((p) => p.judgement).map((p) => svg("line", {
      class: `mark ${p.judgement}`, x1: x(p.ply), x2: x(p.ply), y1: 0, y2: HEIGHT, "vector-effect": "non-scaling-stroke",
    }, svg("title", {}, `${judgementWords(p.judgement)}: ${page.names[p.seat]} ${p.played}`)));
    const column = width / Math.max(1, page.last);
    const hits = plies.map((p) => svg("rect", {
      class: "hit", x: x(p.ply) - column / 2, y: 0, width: column, height: HEIGHT, "data-ply": p.ply,
      onclick: () => choose(p),
    }, svg("title", {}, `${page.names[p.seat]} ${p.played} · ${evalWords(p.eval)}`)));
    const cursor = svg("line", { class: "cursor", x1: -1, x2: -1, y1: 0, y2: HEIGHT, "vector-effect": "non-scaling-stroke" });
    state.cursor = (step) => { for (const k of ["x1", "x2"]) cursor.setAttribute(k, x(step)); };
    return el("figure", { class: "eval-graph" },
      svg("svg", { viewBox: `0 0 ${width} ${HEIGHT}`, preserveAspectRatio: "none", role: "img", id: "eval-graph",
        "aria-label": t("Evaluation graph: {first}'s expected result after each move", { first: page.names[0] }) },
      svg("rect", { class: "back", x: 0, y: 0, width, height: HEIGHT }),
      svg("polygon", { class: "area", points: area }),
      svg("line", { class: "zero", x1: 0, x2: width, y1: y(0), y2: y(0), "vector-effect": "non-scaling-stroke" }),
      svg("polyline", { class: "curve", points: line, "vector-effect": "non-scaling-stroke" }),
      ...marks, cursor, ...hits),
      el("figcaption", { class: "graph-scale" }, el("span", {}, t("Top: {first} wins", { first: page.names[0] })),
        el("span", {}, t("Bottom: {second} wins", { second: page.names[1] }))));
  }

  function markLog() {
    for (const ply of state.plies) {
      const item = page.log.children[ply.ply - 1];
      if (!item) continue;
      item.querySelector(".analysis-note")?.remove();
      const words = [el("span", { class: "eval" }, evalWords(ply.eval))];
      if (ply.judgement) words.push(" ", el("span", { class: `judgement ${ply.judgement}` }, judgementWords(ply.judgement)));
      if (ply.judgement && ply.best) {
        words.push(" ", el("button", { type: "button", class: "link better", onclick: () => choose(ply) }, t("better: {move}", { move: ply.best })));
      }
      item.append(el("span", { class: "analysis-note block" }, words));
    }
  }

  // The position before the ply, its engine move drawn on the board over it.
  function choose(ply) {
    state.chosen = ply;
    const board = page.show(ply.ply - 1);
    const [from, to] = (ply.best ?? "").split(">");
    for (const [cell, cls] of [[from, "best-from"], [to, "best-to"]]) {
      board?.querySelector(`[data-cell="${CSS.escape(cell ?? "")}"]`)?.classList.add(cls);
    }
    const played = `${page.names[ply.seat]}: ${ply.played}`;
    const detail = root.querySelector("#analysis-detail");
    if (!detail) return;
    const same = ply.best === ply.played;
    detail.replaceChildren(
      el("strong", {}, t("Move {ply}", { ply: ply.ply })), " · ", played, " · ", evalWords(ply.eval),
      ...(ply.judgement ? [" · ", el("span", { class: `judgement ${ply.judgement}` }, judgementWords(ply.judgement))] : []),
      el("span", { class: "block" }, same ? t("The bots' move too.") : t("The bots preferred {move} (marked on the board).", { move: ply.best })));
  }

  /** Follow the replay's current step on the graph. */
  function at(step) { state.cursor?.(step); }

  api("GET", `/api/tables/${page.tableId}/analysis`).then(follow, failed);
  return { at };
}
