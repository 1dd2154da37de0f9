// VERSUS at the table: the hex board in SVG, seen from the player's own home edge, the score,
// whose turn it is, draw offers, resigning and the result. Everything drawn comes from the
// server's view; which plies may be played comes from ctx.legal (this page computes no rule).
import { el, svg } from "/static/js/core/dom.js";
import { semicolons, t, tn } from "/static/js/core/i18n.js";
import { withoutRuleIds } from "/static/js/core/words.js";
import { confirmBar, confirmKey, pendingMarks, takebackPanel, takebackRequest } from "./confirm.js";

// The players' colours as the publisher names them (blau, braun; bleu, marron; blauw, bruin),
// and as the page's classes name them.
const COLOUR = [t("Blue"), t("Brown")];
const CLASS = ["blue", "brown"];
const SEGMENTS = 5;
const RADIUS = 5;
const S = 10; // a cell's outer radius, in board units
const SQ3 = Math.sqrt(3);
const ARROW = "→";
const CELLS = [];
for (let r = -RADIUS; r <= RADIUS; r++) {
  for (let q = Math.max(-RADIUS, -RADIUS - r); q <= Math.min(RADIUS, RADIUS - r); q++) CELLS.push(`${q}:${r}`);
}


const parseCell = (cell) => cell.split(":").map(Number);
const round = (x) => Math.round(x * 100) / 100;

/** Board units of a cell's centre; a flipped board is turned half round (Brown's view). */
export function centre(cell, flip) {
  let [q, r] = parseCell(cell);
  if (flip) { q = -q; r = -r; }
  return [round(S * SQ3 * (q + r / 2)), round(-S * 1.5 * r)];
}

// The board's outline: round the outer cells' corners, a little wider (the wooden rim).
const FRAME = (() => {
  const top = S * (1.5 * RADIUS + 1), side = S * SQ3 * (RADIUS + 0.5), shoulder = S * SQ3 * (RADIUS + 1) / 2;
  return [[-shoulder, -top], [shoulder, -top], [side, -S / 2], [side, S / 2], [shoulder, top], [-shoulder, top], [-side, S / 2], [-side, -S / 2]]
    .map(([x, y]) => `${round(1.045 * x)},${round(1.045 * y)}`).join(" ");
})();

/** The corners of a pointy-top hexagon. */
function hexPoints(x, y, radius) {
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k + 30);
    return `${round(x + radius * Math.cos(a))},${round(y + radius * Math.sin(a))}`;
  }).join(" ");
}

function neighbours(a, b) {
  const [q0, r0] = parseCell(a);
  const [q1, r1] = parseCell(b);
  return Math.max(Math.abs(q1 - q0), Math.abs(r1 - r0), Math.abs(q1 - q0 + r1 - r0)) === 1;
}

const valueTo = (stone, seat) => (seat === 0 ? stone.b : SEGMENTS - stone.b);

// The reader's own name comes as "Ada (you)" in the page's language.
const YOU = t("{name} (you)", { name: "" });
const bare = (name) => (name.endsWith(YOU) ? name.slice(0, -YOU.length) : name);

function who(names, seat) {
  const name = names?.[seat] ?? "";
  if (!name) return COLOUR[seat];
  const words = name.endsWith(YOU) ? t("{name}, you", { name: bare(name) }) : name;
  return t("{colour} ({name})", { colour: COLOUR[seat], name: words });
}

/** The result: the view's, or the table's when the server ended the game (a forfeit). */
const outcomeOf = (view, ctx) => view.outcome ?? (ctx.table?.status === "over" ? ctx.table.outcome : null) ?? null;

// ---------------------------------------------------------------- words for the log

// How the game ended: the engine's reasons (S13) in the players' words; a forfeit's or a
// stopped game's words come with the outcome (the server's catalogs).
function reasonWords(outcome) {
  const reason = outcome?.reason;
  if (!reason) return "";
  if (reason.startsWith("all targets filled")) return t("every target holds a stone");
  if (reason.startsWith("no legal move")) return t("the player to move had no legal move");
  if (reason.startsWith("the leader is out of reach")) return t("the leader can no longer be caught");
  const quiet = /^(\d+) plies in a row without a lock/.exec(reason);
  if (quiet) return tn("{count} ply in a row without a lock", "{count} plies in a row without a lock", Number(quiet[1]));
  if (reason === "draw agreed") return t("both players agreed to a draw");
  if (reason === "Blue resigned") return t("Blue resigned");
  if (reason === "Brown resigned") return t("Brown resigned");
  if (outcome.words) return withoutRuleIds(t(outcome.words.template, outcome.words.params));
  return withoutRuleIds(reason);
}

function resultWords(outcome, names) {
  const [blue, brown] = outcome.scores;
  const score = `${blue}–${brown}`;
  if (outcome.winners.length !== 1) return t("drawn at {score}", { score });
  return t("{player} wins {score}", { player: who(names, outcome.winners[0]), score });
}

/** One sentence for the log about the last action of ``view`` (VERSUS views carry no events). */
export function summary(view, names = []) {
  const stones = new Map(view.stones.map((s) => [s.cell, s]));
  const end = view.outcome
    ? " " + t("Game over: {result} — {reason}.", { result: resultWords(view.outcome, names), reason: reasonWords(view.outcome) })
    : "";
  const last = view.last;
  if (!last) return t("The game begins: {player} moves first.", { player: who(names, 0) });
  if (last === "offer-draw") return t("{player} offered a draw.", { player: who(names, view.draw_offer) });
  if (last === "decline-draw") return t("{player} declined the draw; play goes on.", { player: who(names, 1 - view.to_move) });
  if (last === "accept-draw") return t("The draw offer was accepted: the game is {result}.", { result: resultWords(view.outcome, names) });
  if (last === "resign") {
    const winner = view.outcome.winners[0];
    return t("{loser} resigned: {winner} wins.", { loser: who(names, 1 - winner), winner: who(names, winner) });
  }
  const [from, to] = last.split(">");
  const versusSeat = view.versus.indexOf(to);
  if (versusSeat < 0) {
    const stone = stones.get(to);
    const seat = stone.owner;
    const move = `${from}${ARROW}${to}`;
    const said = stone.locked
      ? t("{player} moved a stone {move} and locked it on a target: worth {value} to {colour}.",
        { player: who(names, seat), move, value: valueTo(stone, seat), colour: COLOUR[seat] })
      : t("{player} moved a stone {move}.", { player: who(names, seat), move });
    return `${said}${end}`;
  }
  const pulls = view.pulled.map(({ from: a, to: b }) => {
    const stone = stones.get(b);
    const params = { move: `${a}${ARROW}${b}`, colour: COLOUR[stone.owner], value: valueTo(stone, stone.owner) };
    return stone.locked
      ? t("{move}, now {colour}'s (worth {value}, locked on a target)", params)
      : t("{move}, now {colour}'s (worth {value})", params);
  });
  const params = { player: who(names, versusSeat), move: `${from}${ARROW}${to}` };
  const said = pulls.length
    ? tn("{player} moved the VERSUS {move} and pulled {count} stone: {pulls}.",
      "{player} moved the VERSUS {move} and pulled {count} stones: {pulls}.", pulls.length, { ...params, pulls: semicolons(pulls) })
    : t("{player} moved the VERSUS {move}.", params);
  return `${said}${end}`;
}

// ---------------------------------------------------------------- pieces

function defs() {
  return svg("defs", {},
    svg("pattern", { id: "vs-stripes", patternUnits: "userSpaceOnUse", width: 2.4, height: 2.4, patternTransform: "rotate(45)" },
      svg("rect", { class: "vs-brown", width: 2.4, height: 2.4 }),
      svg("rect", { class: "vs-brown-dark", width: 0.9, height: 2.4 })),
    svg("marker", { id: "vs-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "vs-head" })),
    svg("filter", { id: "vs-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
      svg("feDropShadow", { dx: 0, dy: 0.9, stdDeviation: 0.8, "flood-opacity": 0.35 })));
}

function sector(a0, a1, outer, inner) {
  const p = (a, radius) => {
    const t = (Math.PI / 180) * a;
    return `${round(radius * Math.cos(t))} ${round(radius * Math.sin(t))}`;
  };
  const { arc } = PATH; // the path's letters, kept apart from the words checked for English
  return `M${p(a0, outer)}${arc}${outer} ${outer} 0 0 1 ${p(a1, outer)}L${p(a1, inner)}${arc}${inner} ${inner} 0 0 0 ${p(a0, inner)}Z`;
}

const PATH = { arc: "A" };
const segmentClass = (seat) => (seat === 0 ? "vs-blue" : "vs-brown-striped");

/** A stone: five segments round the rim (the viewer's colour on top), its controller's centre
 * (Blue a disc, Brown a diamond) holding its value to the controller, a lock when on a target. */
function stoneShape(stone, topSeat = 0, tugLimit = null) {
  const own = valueTo(stone, topSeat);
  const step = 360 / SEGMENTS;
  const start = -90 - (own * step) / 2;
  const segments = Array.from({ length: SEGMENTS }, (_, i) =>
    svg("path", { d: sector(start + i * step, start + (i + 1) * step, 0.84 * S, 0.46 * S), class: `vs-seg ${segmentClass(i < own ? topSeat : 1 - topSeat)}` }));
  const controller = stone.owner;
  const middle = controller === 0
    ? svg("circle", { r: 0.43 * S, class: "vs-centre vs-blue" })
    : svg("rect", { x: -0.36 * S, y: -0.36 * S, width: 0.72 * S, height: 0.72 * S, rx: 0.06 * S, transform: "rotate(45)", class: "vs-centre vs-brown-solid" });
  return svg("g", { class: `vs-stone${stone.locked ? " locked" : ""}` },
    shielded(stone, tugLimit) ? svg("circle", { r: 0.93 * S, class: "vs-shield" }) : null,
    svg("circle", { r: 0.88 * S, class: "vs-rim" }),
    segments,
    middle,
    svg("text", { class: "vs-value", y: 0.03 * S }, valueTo(stone, controller)),
    stone.locked ? lockShape() : null);
}

function lockShape() {
  return svg("g", { class: "vs-lock", transform: `translate(${0.6 * S},${-0.58 * S})` },
    svg("circle", { r: 0.33 * S, class: "vs-lock-bg" }),
    svg("path", { d: `M${-0.11 * S},${-0.02 * S}V${-0.12 * S}a${0.11 * S},${0.11 * S} 0 0 1 ${0.22 * S},0V${-0.02 * S}`, class: "vs-lock-shackle" }),
    svg("rect", { x: -0.17 * S, y: -0.04 * S, width: 0.34 * S, height: 0.24 * S, rx: 0.04 * S, class: "vs-lock-body" }));
}

/** A VERSUS: a tetrahedron seen from above, in its player's colour (Brown's striped). */
function versusShape(seat) {
  const apex = `0,${-0.74 * S}`, left = `${-0.7 * S},${0.5 * S}`, right = `${0.7 * S},${0.5 * S}`, front = `${0.12 * S},${0.56 * S}`;
  return svg("g", { class: `vs-versus ${CLASS[seat]}` },
    svg("polygon", { points: `${apex} ${left} ${front}`, class: `vs-face light ${seat === 0 ? "vs-blue" : "vs-brown-striped"}` }),
    svg("polygon", { points: `${apex} ${front} ${right}`, class: `vs-face dark ${seat === 0 ? "vs-blue" : "vs-brown-striped"}` }),
    svg("polygon", { points: `${apex} ${left} ${front} ${right}`, class: "vs-edge" }),
    svg("text", { class: "vs-versus-label", y: 0.22 * S }, "VS"));
}

const shielded = (stone, tugLimit) => tugLimit !== null && tugLimit !== undefined && !stone.locked && stone.streak >= tugLimit;

function stoneWords(stone, tugLimit) {
  const params = { owner: COLOUR[stone.owner], blue: stone.b, brown: SEGMENTS - stone.b };
  const words = stone.locked
    ? t("{owner}'s stone, worth {blue} to Blue and {brown} to Brown, locked on a target", params)
    : t("{owner}'s stone, worth {blue} to Blue and {brown} to Brown", params);
  if (!shielded(stone, tugLimit)) return words;
  return words + t("; pulled {count} plies in a row, so only {colour} may pull it now (S11)",
    { count: stone.streak, colour: COLOUR[stone.b >= 3 ? 0 : 1] });
}

// ---------------------------------------------------------------- the board

function reachable(legal) {
  const moves = new Map();
  for (const action of legal) {
    if (!action.includes(">")) continue;
    const [from, to] = action.split(">");
    if (!moves.has(from)) moves.set(from, []);
    moves.get(from).push(to);
  }
  return moves;
}

function cellWords(cell, view, stones) {
  const seat = view.versus.indexOf(cell);
  if (seat >= 0) return t("{cell}: {colour}'s VERSUS", { cell, colour: COLOUR[seat] });
  const stone = stones.get(cell);
  if (stone) return `${cell}: ${stoneWords(stone, view.options.tug_limit)}`;
  const empty = view.options.targets.includes(cell) ? t("empty target") : t("empty cell");
  return `${cell}: ${empty}`;
}

/**
 * The whole position in words, for a screen reader (the table's "Describe the position"):
 * the result or whose turn, the last move, each side's score and stones, then every VERSUS and
 * stone by cell (the reader's first), the empty targets and the plies without a lock (S13.4).
 * @param {object} view the server's view
 * @param {{seat: number|null, names: string[], table: object|null}} ctx
 * @returns {string[]} sentences
 */
export function positionLines(view, ctx) {
  const names = ctx.names ?? [];
  const stones = new Map(view.stones.map((s) => [s.cell, s]));
  const outcome = outcomeOf(view, ctx);
  const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);
  let turn;
  if (outcome) turn = t("Game over: {result} — {reason}.", { result: resultWords(outcome, names), reason: reasonWords(outcome) });
  else if (view.draw_offer !== null && view.draw_offer !== undefined) turn = t("{player} offered a draw.", { player: who(names, view.draw_offer) });
  else turn = sentence(view.to_move === ctx.seat ? t("Your turn") : t("{player} to move", { player: who(names, view.to_move) }));
  const lines = [turn, sentence(t("Last move: {summary}", { summary: summary(view, names) }))];
  const seats = ctx.seat === 1 ? [1, 0] : [0, 1];
  for (const seat of seats) {
    const own = view.stones.filter((s) => s.owner === seat);
    lines.push(tn("{player}: {count} stone on the board, {locked} locked on targets; score {points}.",
      "{player}: {count} stones on the board, {locked} locked on targets; score {points}.", own.length,
      { player: who(names, seat), locked: own.filter((s) => s.locked).length, points: view.scores[seat] }));
  }
  for (const seat of seats) {
    lines.push(sentence(cellWords(view.versus[seat], view, stones)));
    for (const stone of view.stones.filter((s) => s.owner === seat)) lines.push(sentence(cellWords(stone.cell, view, stones)));
  }
  const empty = view.options.targets.filter((cell) => !stones.has(cell) && !view.versus.includes(cell));
  if (empty.length) lines.push(t("Empty targets: {cells}.", { cells: empty.join(", ") }));
  lines.push(sentence(t("Plies without a lock: {quiet} of {limit}", { quiet: view.quiet, limit: view.options.quiet_limit })));
  return lines;
}

/**
 * The board contract (js/games/README.md). The board shows its own Resign button beside the
 * draw offers (the server's `resign: "board"`).
 */
export function createBoard(root, context) {
  // What the player is doing between two views: kept across renders, reset when the ply changes.
  // ``shown`` is the last board ply, still drawn while a draw offer is made and answered.
  // ``chosen``: a move chosen and shown, waiting for its confirmation (confirm.js).
  const ui = { selected: null, chosen: null, at: -1, pending: false, confirmResign: false, focus: null, last: null, shown: null, seen: -1, legendOpen: false };
  const timers = new Set();
  const onKey = (event) => {
    if (ui.chosen && ui.last && confirmKey(event, { confirm: () => confirmChosen(ui.last.ctx), cancel: cancelChosen })) return;
    if (event.key !== "Escape" || !ui.last || (!ui.selected && !ui.confirmResign)) return;
    ui.selected = null;
    ui.confirmResign = false;
    redraw();
  };
  document.addEventListener("keydown", onKey);

  function board(view, ctx, env) {
    const flip = ctx.seat === 1;
    const topSeat = ctx.seat === 1 ? 1 : 0;
    const targets = new Set(view.options.targets);
    const stones = new Map(view.stones.map((s) => [s.cell, s]));
    const shown = ui.shown ?? { last: null, pulled: [] };
    const [lastFrom, lastTo] = shown.last ? shown.last.split(">") : [null, null];
    const moves = env.moves;
    const choices = new Set(ui.selected ? moves.get(ui.selected) ?? [] : []);
    const pulledTo = new Set(shown.pulled.map((p) => p.to));

    const frame = svg("polygon", { class: "vs-frame", points: FRAME });
    const cells = CELLS.map((cell) => {
      const [x, y] = centre(cell, flip);
      const classes = ["vs-cell", targets.has(cell) ? "target" : "",
        cell === lastFrom ? "last-from" : "", cell === lastTo ? "last-to" : ""].join(" ");
      return svg("polygon", { class: classes, points: hexPoints(x, y, S * 0.97) });
    });
    const marks = CELLS.map((cell) => {
      const [x, y] = centre(cell, flip);
      if (stones.has(cell) || view.versus.includes(cell) || choices.has(cell)) return null;
      if (targets.has(cell)) {
        return svg("g", { class: "vs-target-mark", transform: `translate(${x},${y})` },
          svg("circle", { r: 0.6 * S }), svg("circle", { r: 0.32 * S }), svg("circle", { r: 0.08 * S, class: "dot" }));
      }
      return svg("text", { class: "vs-coord", x, y: y + 0.05 * S }, cell);
    });
    const arrows = [];
    if (lastFrom && !neighbours(lastFrom, lastTo)) arrows.push(arrow(lastFrom, lastTo, flip, "vs-arrow last"));
    for (const p of shown.pulled) arrows.push(arrow(p.from, p.to, flip, `vs-arrow pull ${CLASS[stones.get(p.to)?.owner ?? 0]}`));
    const ghosts = shown.pulled.map((p) => {
      const [x, y] = centre(p.from, flip);
      return svg("circle", { class: "vs-ghost", cx: x, cy: y, r: 0.7 * S });
    });

    const pieces = [];
    for (const stone of view.stones) {
      const [x, y] = centre(stone.cell, flip);
      pieces.push(svg("g", { class: `vs-piece${pulledTo.has(stone.cell) ? " pulled" : ""}${stone.cell === lastTo ? " moved" : ""}${moves.has(stone.cell) ? " movable" : ""}`,
        transform: `translate(${x},${y})`, "data-piece": stone.cell, "data-owner": stone.owner, "data-b": stone.b },
      svg("g", { class: "vs-body" }, stoneShape(stone, topSeat, view.options.tug_limit),
        env.fresh && pulledTo.has(stone.cell) ? svg("circle", { class: "vs-pulse", r: 0.9 * S }) : null)));
    }
    view.versus.forEach((cell, seat) => {
      const [x, y] = centre(cell, flip);
      pieces.push(svg("g", { class: `vs-piece versus${moves.has(cell) ? " movable" : ""}`, transform: `translate(${x},${y})`, "data-piece": cell, "data-owner": seat },
        svg("g", { class: "vs-body" }, versusShape(seat))));
    });

    const dots = [...choices].map((cell) => {
      const [x, y] = centre(cell, flip);
      return svg("circle", { class: `vs-dot${targets.has(cell) ? " on-target" : ""}`, cx: x, cy: y, r: 0.3 * S });
    });
    const [sx, sy] = ui.selected ? centre(ui.selected, flip) : [0, 0];
    const selection = ui.selected ? svg("polygon", { class: "vs-selected", points: hexPoints(sx, sy, S * 0.9) }) : null;
    const ring = ui.selected ? svg("circle", { class: "vs-selected-ring", cx: sx, cy: sy, r: 0.95 * S }) : null;
    const chosenFrom = ui.chosen?.split(">")[0];
    const chosen = ui.chosen ? pendingMarks(ui.chosen, (cell) => centre(cell, flip), S, view.versus.includes(chosenFrom)
      ? versusShape(view.versus.indexOf(chosenFrom)) : stoneShape(stones.get(chosenFrom), topSeat, null)) : null;
    for (const piece of pieces) if (chosenFrom && piece.getAttribute("data-piece") === chosenFrom) piece.classList.add("leaving");

    // Tab order: the cells the selected piece can reach, then the pieces to move, as on screen.
    const rank = (cell) => (choices.has(cell) ? 0 : moves.has(cell) ? 1 : 2);
    const onScreen = (a, b) => rank(a) - rank(b) || centre(a, flip)[1] - centre(b, flip)[1] || centre(a, flip)[0] - centre(b, flip)[0];
    const hits = [...CELLS].sort(onScreen).map((cell) => {
      const [x, y] = centre(cell, flip);
      const own = moves.has(cell);
      const choice = choices.has(cell);
      const active = env.interactive && (own || choice);
      const label = choice ? t("move {from} to {to}", { from: ui.selected, to: cell }) : cellWords(cell, view, stones);
      const hint = choice ? t("Move {from} {arrow} {to}", { from: ui.selected, arrow: ARROW, to: cell }) : cellWords(cell, view, stones);
      return svg("polygon", {
        class: `vs-hit${active ? " active" : ""}${choice ? " choice" : ""}${own ? " own" : ""}`,
        points: hexPoints(x, y, S), "data-cell": cell, tabindex: active ? 0 : null, role: active ? "button" : null,
        "aria-label": active ? (own ? t("select {cell}", { cell: cellWords(cell, view, stones) }) : label) : null,
        "aria-pressed": own && active ? String(ui.selected === cell) : null,
        onclick: (e) => { e.stopPropagation(); env.activate(cell, false); },
        // Blink makes an SVG element with a focus listener focusable: listen on active cells only.
        onkeydown: active ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); env.activate(cell, true); } } : null,
        onfocus: active ? () => env.hint(hint) : null,
        onmouseenter: () => env.hint(hint),
      }, svg("title", {}, label));
    });

    const box = 10.2 * S;
    return svg("svg", {
      class: `vs-svg${env.interactive ? " interactive" : ""}${ui.pending ? " pending" : ""}`,
      viewBox: `${-box} ${-9.15 * S} ${2 * box} ${18.3 * S}`, role: "group",
      "aria-label": t("VERSUS board, {colour}'s home edge at the bottom", { colour: COLOUR[flip ? 1 : 0] }),
      onclick: () => env.activate(null, false),
      onmouseleave: () => env.hint(null),
    }, defs(), frame, edgeLabels(flip), cells, marks, selection, ghosts, arrows, pieces, ring, dots, chosen, hits);
  }

  function edgeLabels(flip) {
    // The two home edges, named where they lie on the screen.
    const bottom = flip ? 1 : 0;
    const y = 8.78 * S;
    return svg("g", { class: "vs-edges" },
      svg("text", { x: 0, y, class: `vs-edge-label ${CLASS[bottom]}` }, t("{colour}'s home edge", { colour: COLOUR[bottom] })),
      svg("text", { x: 0, y: -y, class: `vs-edge-label ${CLASS[1 - bottom]}` }, t("{colour}'s home edge", { colour: COLOUR[1 - bottom] })));
  }

  function arrow(from, to, flip, cls) {
    const [x0, y0] = centre(from, flip);
    const [x1, y1] = centre(to, flip);
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ux = (x1 - x0) / length, uy = (y1 - y0) / length;
    const trim = 0.45 * S;
    return svg("line", { class: cls, x1: round(x0 + ux * trim), y1: round(y0 + uy * trim), x2: round(x1 - ux * trim), y2: round(y1 - uy * trim), "marker-end": "url(#vs-head)" });
  }

  // ---------------------------------------------------------------- around the board

  function playerCard(view, ctx, seat, position) {
    const outcome = outcomeOf(view, ctx);
    const toMove = !outcome && (view.draw_offer !== null ? 1 - view.draw_offer : view.to_move) === seat;
    const won = outcome && outcome.winners.length === 1 && outcome.winners[0] === seat;
    const name = bare(ctx.names?.[seat] ?? "") || COLOUR[seat];
    const you = ctx.seat === seat;
    const rating = ctx.table?.seats?.[seat]?.rating;
    const stones = view.stones.filter((s) => s.owner === seat);
    const locked = stones.filter((s) => s.locked).length;
    const icon = svg("svg", { class: "vs-icon", viewBox: `${-S} ${-S} ${2 * S} ${2 * S}`, "aria-hidden": "true" }, versusShape(seat));
    return el("div", { class: `vs-player ${position} ${CLASS[seat]}${toMove ? " to-move" : ""}${won ? " won" : ""}`, "data-testid": `vs-player-${seat}` },
      icon,
      el("div", { class: "vs-name" }, el("span", {}, name)),
      el("div", { class: "vs-meta" },
        el("span", { class: `vs-swatch ${CLASS[seat]}`, "aria-hidden": "true" }),
        el("span", { class: "vs-facts" }, [COLOUR[seat], tn("{count} stone", "{count} stones", stones.length),
          locked ? t("{count} locked", { count: locked }) : null, rating ? String(Math.round(rating)) : null].filter(Boolean).join(" · ")),
        you ? el("span", { class: "vs-you" }, t("you")) : null),
      el("div", { class: "vs-score", "data-testid": `vs-score-${seat}`, title: t("{colour}'s score (S14): the stones it controls on targets", { colour: COLOUR[seat] }) },
        el("strong", {}, view.scores[seat]), el("span", {}, tn("point", "points", view.scores[seat]))),
      toMove ? el("div", { class: "vs-turn" }, view.draw_offer !== null ? t("to answer") : t("to move")) : null,
      won ? el("div", { class: "vs-turn won" }, t("winner")) : null);
  }

  function statusBox(view, ctx, env) {
    const outcome = outcomeOf(view, ctx);
    if (outcome) return resultBox(outcome, ctx);
    const mine = ctx.seat === 0 || ctx.seat === 1;
    const offer = view.draw_offer;
    let head, help = null, tone = "";
    if (offer !== null && offer !== undefined) {
      tone = "offer";
      if (ctx.seat === 1 - offer) {
        head = t("{player} offers a draw", { player: who(ctx.names, offer) });
        help = t("Accept to end the game drawn, or decline to play on.");
      } else if (ctx.seat === offer) {
        head = t("You offered a draw");
        help = t("Waiting for {player} to answer.", { player: who(ctx.names, 1 - offer) });
      } else {
        head = t("{player} offered a draw", { player: who(ctx.names, offer) });
        help = t("{player} is answering.", { player: who(ctx.names, 1 - offer) });
      }
    } else if (ui.pending) {
      head = t("Sending your move…");
    } else if (view.to_move === ctx.seat && env.interactive) {
      tone = "mine";
      head = t("Your turn");
      help = ui.selected
        ? tn("{cell} selected: it can reach the {count} marked cell. Pick one; click elsewhere or press Esc to cancel.",
          "{cell} selected: it can reach the {count} marked cells. Pick one; click elsewhere or press Esc to cancel.",
          (env.moves.get(ui.selected) ?? []).length, { cell: ui.selected })
        : t("Move a stone one cell, or your VERSUS any distance in a straight line (it pulls the opposing stones it sees).");
    } else {
      head = mine ? t("Waiting for {player}", { player: who(ctx.names, view.to_move) }) : t("{player} to move", { player: who(ctx.names, view.to_move) });
    }
    const limit = view.options.quiet_limit;
    const quiet = el("div", { class: "vs-quiet", title: t("S13.4: the game ends, scored as it stands, after this many plies in a row without a lock") },
      el("div", {}, t("Plies without a lock: {quiet} of {limit}", { quiet: view.quiet, limit })),
      el("div", { class: `vs-bar${view.quiet >= 0.8 * limit ? " late" : ""}` }, el("span", { style: `width:${Math.min(100, (100 * view.quiet) / limit)}%` })));
    return el("div", { class: `vs-status ${tone}`, "data-testid": "vs-status" },
      el("div", { class: "vs-head" }, head),
      help ? el("div", { class: "vs-help" }, help) : null,
      actions(view, ctx),
      quiet);
  }

  function actions(view, ctx) {
    const legal = new Set(ctx.legal ?? []);
    const seated = ctx.seat === 0 || ctx.seat === 1;
    if (!ctx.play || !seated || outcomeOf(view, ctx)) return null;
    const wait = ui.pending;
    const buttons = [];
    if (legal.has("accept-draw")) buttons.push(el("button", { disabled: wait, onclick: () => send(ctx, "accept-draw") }, t("Accept draw")));
    if (legal.has("decline-draw")) buttons.push(el("button", { class: "secondary", disabled: wait, onclick: () => send(ctx, "decline-draw") }, t("Decline")));
    if (legal.has("offer-draw")) {
      buttons.push(el("button", { class: "secondary", disabled: wait, onclick: () => send(ctx, "offer-draw"),
        title: t("Instead of moving now: your opponent accepts (the game ends drawn) or declines (you move on)") }, t("Offer draw")));
    }
    const canResign = typeof ctx.resign === "function" || legal.has("resign");
    if (canResign && ui.confirmResign) {
      buttons.push(el("span", { class: "vs-confirm" }, t("Resign this game?")),
        el("button", { class: "danger", disabled: wait, onclick: () => { ui.confirmResign = false; send(ctx, "resign"); } }, t("Yes, resign")),
        el("button", { class: "secondary", onclick: () => { ui.confirmResign = false; redraw(); } }, t("Cancel")));
    } else if (canResign) {
      buttons.push(el("button", { class: "secondary danger-text", disabled: wait, onclick: () => {
        if (typeof ctx.resign === "function") ctx.resign();
        else { ui.confirmResign = true; redraw(); }
      } }, t("Resign")));
    }
    return buttons.length ? el("div", { class: "vs-actions" }, buttons) : null;
  }

  function confirmChosen(ctx) {
    const action = ui.chosen;
    if (!action || ui.pending) return;
    ui.chosen = null;
    ui.focus = null;
    send(ctx, action);
  }

  function cancelChosen() {
    ui.chosen = null;
    ui.focus = ui.selected ? "choice" : null;
    redraw();
  }

  function send(ctx, action) {
    ui.pending = true;
    ui.selected = null;
    ui.chosen = null;
    ctx.play(action);
    redraw();
    // A refused action brings no new view: give the board back after a while.
    const at = ui.at;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (ui.pending && ui.at === at) { ui.pending = false; redraw(); }
    }, 4000);
    timers.add(timer);
  }

  function resultBox(outcome, ctx) {
    const [blue, brown] = outcome.scores;
    const single = outcome.winners.length === 1;
    const winner = single ? outcome.winners[0] : null;
    const head = !single ? t("Draw") : ctx.seat === winner ? t("You won!") : ctx.seat === 1 - winner ? t("You lost")
      : t("{player} wins", { player: who(ctx.names, winner) });
    const reason = reasonWords(outcome);
    return el("div", { class: `vs-status vs-result ${single ? CLASS[winner] : "draw"}`, "data-testid": "vs-final" },
      el("div", { class: "vs-head" }, head),
      el("div", { class: "vs-final-score" },
        el("span", { class: "blue" }, `${COLOUR[0]} ${blue}`), " – ", el("span", { class: "brown" }, `${brown} ${COLOUR[1]}`)),
      el("div", { class: "vs-help" }, single ? t("{player} won: {reason}.", { player: who(ctx.names, winner), reason }) : t("Drawn: {reason}.", { reason })));
  }

  function legend() {
    const sample = (stone) => svg("svg", { class: "vs-sample", viewBox: `${-S} ${-S} ${2 * S} ${2 * S}`, "aria-hidden": "true" }, stoneShape(stone));
    const target = svg("svg", { class: "vs-sample", viewBox: `${-S} ${-S} ${2 * S} ${2 * S}`, "aria-hidden": "true" },
      svg("polygon", { class: "vs-cell target", points: hexPoints(0, 0, S * 0.97) }),
      svg("g", { class: "vs-target-mark" }, svg("circle", { r: 0.6 * S }), svg("circle", { r: 0.32 * S }), svg("circle", { r: 0.08 * S, class: "dot" })));
    return el("details", { class: "vs-legend", open: ui.legendOpen, ontoggle: (e) => { ui.legendOpen = e.target.open; } },
      el("summary", {}, t("How to read the board")),
      el("ul", {},
        el("li", {}, sample({ b: 3, owner: 0, locked: false, streak: 0 }),
          el("span", {}, t("Five segments: each blue one is worth 1 to Blue, each brown (striped) one 1 to Brown."), " ",
            t("The centre says who controls the stone — a disc for Blue, a diamond for Brown — and what it is worth to them."))),
        el("li", {}, sample({ b: 1, owner: 1, locked: true, streak: 0 }),
          el("span", {}, t("A stone on a target is locked: it never moves again and scores its controller's segments."))),
        el("li", {}, target, el("span", {}, t("One of the six targets on the middle row."))),
        el("li", {}, svg("svg", { class: "vs-sample", viewBox: `${-S} ${-S} ${2 * S} ${2 * S}`, "aria-hidden": "true" }, versusShape(0)),
          el("span", {}, t("A VERSUS slides any distance in a straight line, never stopping on a target. Opposing stones it then sees are pulled next to it and flip to its colour.")))));
  }

  // ---------------------------------------------------------------- render

  function redraw() {
    if (ui.last) draw(ui.last.root, ui.last.view, ui.last.ctx, false);
  }

  /** Draw the table for ``view``. */
  function render(root, view, ctx) {
    if (ui.at !== view.ply) {
      ui.selected = null;
      ui.chosen = null;
      ui.confirmResign = false;
      ui.at = view.ply;
    }
    ui.pending = false;
    ui.shown = lastPly(view);
    const previous = ctx.previous;
    const fresh = previous === true || (previous && typeof previous === "object" && previous.ply < view.ply);
    draw(root, view, ctx, Boolean(fresh));
  }

  /** The last board ply to draw: this view's, or the one before the platform actions that
   * followed it, as long as the views came one after the other. */
  function lastPly(view) {
    const chained = view.ply === ui.seen || view.ply === ui.seen + 1;
    ui.seen = view.ply;
    if (view.last && view.last.includes(">")) return { last: view.last, pulled: view.pulled };
    return view.last && chained ? ui.shown : null;
  }

  function draw(root, view, ctx, fresh) {
    ui.last = { root, view, ctx };
    const outcome = outcomeOf(view, ctx);
    const interactive = Boolean(ctx.play) && !outcome && !ui.pending && (ctx.legal ?? []).some((a) => a.includes(">"));
    const moves = interactive ? reachable(ctx.legal) : new Map();
    if (ui.selected && !moves.has(ui.selected)) ui.selected = null;
    if (ui.chosen && !(ctx.legal ?? []).includes(ui.chosen)) ui.chosen = null;
    const hintLine = el("div", { class: "vs-hint", "aria-live": "polite" });
    const env = {
      interactive, moves, fresh,
      hint: (text) => { hintLine.textContent = text ?? ""; },
      activate: (cell, keyboard) => {
        if (!interactive) return;
        ui.focus = keyboard ? cell : null;
        if (cell && ui.selected && (moves.get(ui.selected) ?? []).includes(cell)) {
          const action = `${ui.selected}>${cell}`;
          if (ctx.confirm) {
            // Shown, not sent: the bar under the board confirms it (or another choice replaces it).
            ui.chosen = action;
            ui.focus = keyboard ? "confirm" : null;
            draw(root, view, ctx, false);
            return;
          }
          ui.focus = null;
          send(ctx, action);
          return;
        }
        ui.chosen = null;
        const next = cell && moves.has(cell) && cell !== ui.selected ? cell : null;
        if (next === ui.selected) return;
        ui.selected = next;
        if (keyboard && next) ui.focus = "choice";
        draw(root, view, ctx, false);
      },
    };
    const bottom = ctx.seat === 1 ? 1 : 0;
    const boardNode = board(view, ctx, env);
    const caption = el("div", { class: "vs-caption", "data-testid": "vs-last" },
      view.last ? el("span", { class: "vs-label" }, t("Last move")) : null, summary(view, ctx.names));
    root.dataset.legal = JSON.stringify(outcome ? [] : ctx.legal ?? []);
    root.dataset.ply = view.ply;
    root.dataset.game = "versus";
    root.replaceChildren(el("div", { class: "vs-wrap" },
      el("div", { class: "vs-grid" },
        playerCard(view, ctx, 1 - bottom, "top"),
        el("div", { class: "vs-board" }, boardNode,
          ui.chosen ? confirmBar(ui.chosen, { confirm: () => confirmChosen(ctx), cancel: cancelChosen, busy: ui.pending }) : null,
          takebackRequest(ctx, (step) => context.takeback(step), (seat) => who(ctx.names, seat))),
        playerCard(view, ctx, bottom, "bottom"),
        el("div", { class: "vs-side" }, statusBox(view, ctx, env), takebackPanel(ctx, (step) => context.takeback(step), (seat) => who(ctx.names, seat))),
        el("div", { class: "vs-below" }, caption, hintLine, legend()))));
    const focusAt = { choice: ".vs-hit.choice", confirm: "[data-testid=vs-confirm-move]" }[ui.focus] ?? `[data-cell="${ui.focus}"]`;
    if (ui.focus) root.querySelector(focusAt)?.focus();
    ui.focus = null; // once: a later view must not pull the focus away from, say, the chat
    if (fresh) animate(root, view, ctx);
  }

  function animate(root, view, ctx) {
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    if (!view.last || !view.last.includes(">")) return;
    const flip = ctx.seat === 1;
    const slide = (cell, from, options) => {
      const body = root.querySelector(`[data-piece="${cell}"] .vs-body`);
      if (!body || !body.animate) return;
      const [x0, y0] = centre(from, flip);
      const [x1, y1] = centre(cell, flip);
      body.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0px, 0px)" }],
        { easing: "cubic-bezier(.3,.7,.3,1)", fill: "backwards", ...options });
    };
    const [from, to] = view.last.split(">");
    const travel = Math.min(420, 140 + 50 * Math.hypot(...centre(from, false).map((v, i) => v - centre(to, false)[i])) / S);
    slide(to, from, { duration: travel });
    view.pulled.forEach((p, i) => {
      slide(p.to, p.from, { duration: 300, delay: travel + 40 * i });
      root.querySelector(`[data-piece="${p.to}"] .vs-stone`)?.animate?.(
        [{ transform: "scaleX(1)" }, { transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }],
        { duration: 360, delay: travel + 300 + 40 * i, easing: "ease-in-out" });
    });
  }

  return {
    update: (frame) => render(root, frame.view, { ...frame, play: context.play, resign: context.resign,
      takebackable: typeof context.takeback === "function" }),
    // The table page shows its "Confirm each move" switch for this board (frame.confirm).
    confirms: true,
    describe: (view, names) => [summary(view, names)],
    position: () => (ui.last ? positionLines(ui.last.view, ui.last.ctx) : []),
    dispose() {
      document.removeEventListener("keydown", onKey);
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
