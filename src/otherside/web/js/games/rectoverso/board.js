// Recto Verso at the table: the build page.
//
// What a builder sees is exactly their view (R17): their side of the card, their own view of
// the building, the top view, the pieces not placed, the clock, and the `legal` list. The site
// is drawn from that alone. R5 makes every column solid from the ground, so the top view's
// heights give the building's exact shape; the colours known are the top of each column (top
// view) and the cube nearest the player in each column and level (own view), so the site is
// drawn in 3D from the player's side (recto from the front, x = 0 on the left; verso from the
// back, mirrored, R8) with those colours, and any other visible face (a right side) in a
// neutral "unknown" tint. No placement is inferred beyond that.
//
// Placing: choose a piece in the tray, turn it (the orientation thumbnails, or R / Shift+R),
// point at a cell of the site (the 3D drawing's floor and column tops, or the top view): the
// piece is held by its anchor cube (lowest, nearest, leftmost; dotted in the drawings) and goes
// to the lowest placement there that the server lists as legal — shown as a ghost in the 3D
// site, in the top view and in the side view (with ✓/✗ against the card). Click or drop to
// place (drag from the tray works with mouse and touch: pointer events). A spot with no legal
// placement is explained (outside the site, R4; not supported, R5). Click a cube of a placed
// piece (or "pick up") to take it off and hold it again (`remove <piece>`).
//
// Players not building, spectators and replays see both sides of the card, both views and the
// whole building in colour. Between rounds: the last result, the levels (2 players, R16) or the
// scores (R14), the building at the end (the view's `last`: its builders their own side, anyone
// else both), and the active player's "Reveal the next card" / "Turn a token".
import { el } from "/static/js/core/dom.js";
import { t, tn } from "/static/js/core/i18n.js";
import { ruleNodes } from "/static/js/core/words.js";
import { BY_LETTER, BY_NAME, cap, colourName, orientations, pieceWords, shapeKey } from "./pieces.js";
import { aim, pickUpProblem, piecesOf, roleOf, sideView, siteModel } from "./model.js";
import { positionLines } from "./position.js";
import { matchCount, pieceDrawing, sideGrid, siteDrawing, topGrid } from "./draw.js";
import {
  LEVEL_LIMITS, clockText, endText, history, ladder, pointsAt, resultBanner, scoreTable, summary as summaryText, who,
} from "./rounds.js";

const SIDE_WORDS = { front: "recto", back: "verso" };
// A round's result on screen for less than this (ms) before the partner began the next build
// has not been read: it stays shown above the build until the reader closes it.
const GLIMPSE_MS = 5000;
// What comes between a refusal's reason and its legal actions, as the catalogs say it.
const LEGAL = t("{reason}; legal: {legal}").split("{reason}")[1]?.split("{legal}")[0] ?? "";

/** One line for the log: the round that just ended, or the game's end. */
export function summary(view, names) {
  return summaryText(view, names);
}

/**
 * The board contract (js/games/README.md). The round clock counts down here from the view's
 * elapsed time (live tables only); refusals of the server are explained on the board.
 */
export function createBoard(root, context) {
  // UI state kept across renders (views arrive whenever the partner acts).
  const ui = {
    round: null, selected: null, orient: {}, hover: null, hoverLetter: null, press: null,
    drag: null, message: null, pickedUp: null, note: null, shownResult: null, watchFrom: "front",
    confirmDone: false, resultRounds: null, resultAt: 0, carried: null, readyFor: null,
  };
  let live = null;
  let painted = "", paintedPhase = null;
  root.tabIndex = -1;  // where the focus waits between rounds (keepFocus)

  /** The server refused an action (an `error` message): show its reason on the board. */
  function refused(message) {
    if (!live) return false;
    // The server's words end with the legal actions ("…; legal: place …", in the page's
    // language): the board shows the reason only.
    const text = String(message), cut = text.lastIndexOf(LEGAL);
    const reason = LEGAL && cut > 0 ? text.slice(0, cut) : text;
    ui.message = { text: reason.charAt(0).toUpperCase() + reason.slice(1), kind: "refused", at: performance.now() };
    paint();
    return true;
  }

  function render(root, view, ctx) {
    const fresh = !live || live.view !== view;
    const role = roleOf(view, ctx.seat);
    const legal = new Set(ctx.legal ?? []);
    live = {
      root, view, ctx, legal, role,
      receivedAt: fresh ? performance.now() : live.receivedAt,
      model: siteModel(view, role ?? "front"),
      canBuild: Boolean(role && ctx.play && legal.has("done")),
      // A game over (ended mid-round) has no round clock running any more.
      ticking: context.mode === "live" && ctx.table?.status !== "over",
    };
    reconcile(view);
    const signature = JSON.stringify([{ ...view, clock: null }, ctx.legal, ctx.seat, ctx.names, ctx.table?.status, ctx.botWaits, ctx.botWaitsUntil]);
    if (signature !== painted || !root.querySelector(".rv")) paint();
    painted = signature;
    tick();
  }

  function reconcile(view) {
    const round = `${view.rounds.length}:${view.phase}`;
    if (ui.round !== round) {
      Object.assign(ui, { round, selected: null, hover: null, hoverLetter: null, message: null, pickedUp: null, note: null, confirmDone: false });
      endDrag();
      // A reader who said they were ready for this card has read the result.
      ui.carried = hardlySeen(view) && ui.readyFor !== view.rounds.length ? view.rounds.length : null;
    }
    if (view.phase !== "build" && view.rounds.length && ui.resultRounds !== view.rounds.length) {
      Object.assign(ui, { resultRounds: view.rounds.length, resultAt: performance.now() });
    }
    if (ui.pickedUp && view.unplaced.includes(ui.pickedUp)) ui.pickedUp = null;
    if (ui.selected && !view.unplaced.includes(ui.selected) && ui.pickedUp !== ui.selected) {
      ui.note = t("Your partner has placed {piece}, which you were holding.", { piece: pieceWords(ui.selected) });
      ui.selected = null;
      endDrag();
    }
    if (!live.canBuild) { ui.selected = null; ui.hover = null; endDrag(); }
  }

  /**
   * Whether a build the reader did not begin came so soon after the last round's result (a
   * partner revealing the next card at once; a bot partner waits for the reader's "Next card",
   * or its pause) that the result was hardly read: it is then carried above the build
   * (`carriedResult`) until the reader closes it. (A replay steps at its own pace.)
   */
  function hardlySeen(view) {
    const seen = ui.resultRounds === view.rounds.length ? performance.now() - ui.resultAt : Infinity;
    return context.mode === "live" && view.phase === "build" && view.rounds.length > 0 && view.recto !== live.ctx.seat
      && seen <= GLIMPSE_MS;
  }

  /** The last round's result, above a build begun before the reader could read it; else null. */
  function carriedResult(view) {
    return ui.carried === view.rounds.length ? resultBanner(view, live.ctx.names ?? [], false, true) : null;
  }

  // ---------------------------------------------------------------------------------------------
  // The selected piece, its orientation and where it would go.

  function orientationsOf(name) {
    return orientations(BY_NAME[name].shape);
  }

  function heldCells() {
    if (!ui.selected) return null;
    const list = orientationsOf(ui.selected);
    return list[(ui.orient[ui.selected] ?? 0) % list.length];
  }

  function currentAim() {
    if (!ui.selected || !ui.hover || !live?.canBuild) return null;
    return aim(live.model, ui.selected, heldCells(), ui.hover, live.legal);
  }

  function select(name) {
    ui.selected = ui.selected === name ? null : name;
    ui.message = null;
    ui.note = null;
    paint();
    // Holding a piece opens its orientations above the tray, which pushes the tray down: on a
    // phone the piece just tapped would slide under the dock. It stays in sight.
    live.root.querySelector(".rv-piece.selected")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function turn(step) {
    if (!ui.selected) return;
    const count = orientationsOf(ui.selected).length;
    ui.orient[ui.selected] = ((ui.orient[ui.selected] ?? 0) + step + count) % count;
    paint();
  }

  function placeAt(cell) {
    if (!ui.selected || !live.canBuild) return;
    const target = aim(live.model, ui.selected, heldCells(), cell, live.legal);
    if (target.action) {
      live.ctx.play(target.action);
      ui.message = null;
      ui.note = null;
      ui.selected = null;
      ui.hover = null;
    } else {
      ui.hover = cell;
      ui.message = { text: target.reason, kind: "refused", at: performance.now() };
    }
    paint();
  }

  function pickUp(letterOrName) {
    const piece = BY_NAME[letterOrName] ?? BY_LETTER[letterOrName];
    if (!piece || !live.canBuild) return;
    const problem = pickUpProblem(piece.name, live.legal);
    if (problem) {
      ui.message = { text: problem, kind: "refused", at: performance.now() };
    } else {
      live.ctx.play(`remove ${piece.name}`);
      ui.selected = piece.name;
      ui.pickedUp = piece.name;
      ui.message = null;
      ui.note = t("You hold {piece} again: point at the site to put it back.", { piece: pieceWords(piece.name) });
    }
    ui.hoverLetter = null;
    paint();
  }

  // ---------------------------------------------------------------------------------------------
  // Pointer, touch and keyboard.

  function onRootKey(event) {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[data-piece]")) {
      event.preventDefault();
      select(event.target.dataset.piece);
    }
  }

  function onPointerCancel() {
    ui.press = null;
    endDrag();
    if (live) paint();
  }

  function cellOf(node) {
    const target = node?.closest?.("[data-sx]");
    if (!target || !live?.root.contains(target)) return null;
    return [Number(target.dataset.sx), Number(target.dataset.sy)];
  }

  const sameCell = (a, b) => (a === b) || (a && b && a[0] === b[0] && a[1] === b[1]);

  function onPointerDown(event) {
    if (!live?.canBuild || event.button > 0) return;
    const piece = event.target.closest("[data-piece]");
    const cell = cellOf(event.target);
    const letter = event.target.closest("[data-letter]")?.dataset.letter ?? null;
    if (!piece && !cell && !letter) return;
    if (piece && event.pointerType === "mouse") event.preventDefault();
    ui.press = { piece: piece?.dataset.piece ?? null, x: event.clientX, y: event.clientY, touch: event.pointerType !== "mouse" };
  }

  function onPointerMove(event) {
    if (!live) return;
    if (ui.press && ui.press.piece && !ui.drag && Math.hypot(event.clientX - ui.press.x, event.clientY - ui.press.y) > 6) {
      startDrag(ui.press.piece, ui.press.touch);
    }
    if (ui.drag) {
      moveFloater(event.clientX, event.clientY);
      const cell = cellOf(document.elementFromPoint(event.clientX, event.clientY));
      if (!sameCell(cell, ui.hover)) { ui.hover = cell; paint(); }
      ui.drag.floater.classList.toggle("over", Boolean(cell));
      return;
    }
    if (event.pointerType !== "mouse" || !live.canBuild) return;
    const inside = live.root.contains(event.target);
    const cell = inside && ui.selected ? cellOf(event.target) : null;
    const letter = inside && !ui.selected ? event.target.closest?.("[data-letter]")?.dataset.letter ?? null : null;
    if (!sameCell(cell, ui.hover) || letter !== ui.hoverLetter) {
      ui.hover = cell;
      ui.hoverLetter = letter;
      paint();
    }
  }

  function onPointerUp(event) {
    const press = ui.press;
    ui.press = null;
    if (!live) return;
    if (ui.drag) {
      const cell = cellOf(document.elementFromPoint(event.clientX, event.clientY));
      endDrag();
      if (cell) placeAt(cell);
      else paint();
      return;
    }
    if (!press || Math.hypot(event.clientX - press.x, event.clientY - press.y) > 8) return;
    if (press.piece) { select(press.piece); return; }
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = cellOf(under);
    if (ui.selected && cell) { placeAt(cell); return; }
    const letter = under?.closest?.("[data-letter]")?.dataset.letter;
    if (!ui.selected && letter && live.root.contains(under)) pickUp(letter);
  }

  function onClick(event) {
    const button = event.target.closest("[data-act]");
    if (!button || !live) return;
    const act = button.dataset.act;
    if (act === "play" && live.ctx.play) live.ctx.play(button.dataset.action);
    // A bot partner waits for this reader before it reveals the next card (tables/ready.py).
    else if (act === "ready" && context.ready) { ui.readyFor = live.view.rounds.length; context.ready(); paint(); }
    // Saying "Recto" (or "Verso") ends this player's building for the round (R13): asked twice.
    else if (act === "ask-done") { ui.confirmDone = true; paint(); }
    else if (act === "cancel-done") { ui.confirmDone = false; paint(); }
    else if (act === "confirm-done" && live.ctx.play) { ui.confirmDone = false; live.ctx.play("done"); }
    else if (act === "orient") { ui.orient[ui.selected] = Number(button.dataset.index); paint(); }
    else if (act === "turn") turn(Number(button.dataset.step));
    else if (act === "drop") { ui.selected = null; ui.hover = null; ui.note = null; paint(); }
    else if (act === "pickup") pickUp(button.dataset.name);
    else if (act === "dismiss" && performance.now() - (ui.message?.at ?? 0) > 600) { ui.message = null; paint(); }
    else if (act === "seen") { ui.carried = null; paint(); }
    else if (act === "walk") { ui.watchFrom = ui.watchFrom === "front" ? "back" : "front"; paint(); }
  }

  function onKey(event) {
    if (!live?.canBuild || event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === "r" || key === "R") { turn(event.shiftKey ? -1 : 1); event.preventDefault(); }
    else if (key === "Escape") {
      // Esc puts the held piece back: what was said about holding it goes too.
      Object.assign(ui, { selected: null, hover: null, message: null, note: null, confirmDone: false });
      endDrag();
      paint();
    }
    else if (ui.selected && key.startsWith("Arrow")) {
      const [x, y] = ui.hover ?? [1, 1];
      const move = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[key];
      ui.hover = [Math.min(3, Math.max(0, x + move[0])), Math.min(3, Math.max(0, y + move[1]))];
      event.preventDefault();
      paint();
    } else if (ui.selected && ui.hover && key === "Enter" && !event.target.closest?.("button, [data-piece]")) {
      event.preventDefault();
      placeAt(ui.hover);
    }
  }

  function startDrag(name, touch) {
    if (ui.selected !== name) { ui.selected = name; ui.message = null; }
    const floater = el("div", { class: `rv-floater ${touch ? "touch" : ""}`, "aria-hidden": "true" }, pieceDrawing(name, heldCells(), 30));
    document.body.append(floater);
    ui.drag = { name, floater };
    paint();
    showDropArea();
  }

  // A drag from the tray (at the bottom of a phone's screen) aims at the site or the top view
  // above it. With the page scrolled down, the top view lies under the sticky bars (header,
  // round bar) and a drop there would land on the bar: the page is brought down once, as the
  // drag starts, so that the whole build area shows below the bars before the finger gets there.
  function showDropArea() {
    const area = live.root.querySelector(".rv-build-grid");
    if (!area) return;
    const covers = [document.querySelector("body > header"), live.root.querySelector(".rv-bar")]
      .filter((node) => node && ["sticky", "fixed"].includes(getComputedStyle(node).position))
      .map((node) => node.getBoundingClientRect().bottom);
    const hidden = Math.max(0, ...covers) + 6 - area.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy(0, -hidden);
  }

  function moveFloater(x, y) {
    ui.drag.floater.style.left = `${x}px`;
    ui.drag.floater.style.top = `${y}px`;
  }

  function endDrag() {
    if (ui.drag) ui.drag.floater.remove();
    ui.drag = null;
  }

  // ---------------------------------------------------------------------------------------------
  // The clock: counts down smoothly from the elapsed time the view carried.

  function tick() {
    const waiting = live?.root.querySelector("[data-rv-countdown]");
    if (waiting) {
      const left = waitLeft();
      const words = left === null ? "" : waitWords(left);
      if (waiting.textContent !== words) waiting.textContent = words;
    }
    const node = live?.root.querySelector("[data-rv-clock]");
    if (!node) return;
    const { elapsed, limit } = live.view.clock;
    const now = elapsed + (live.ticking ? (performance.now() - live.receivedAt) / 1000 : 0);
    const left = Math.max(0, limit - now);
    node.querySelector(".time").textContent = left > 0 ? clockText(left) : "0:00";
    node.querySelector(".fill").style.width = `${(100 * left / limit).toFixed(1)}%`;
    node.classList.toggle("warn", left <= Math.max(10, limit * 0.25));
    node.classList.toggle("urgent", left <= 10);
    node.classList.toggle("up", left <= 0);
    const worth = node.querySelector(".worth");
    if (worth) {
      const points = pointsAt(now);
      worth.textContent = left <= 0 ? t("time is up") : t("a match now scores {points}", { points });
    }
  }

  /**
   * Seconds until the waiting bot goes on by itself: its deadline less the server's time when
   * the view was sent (both on the server's clock), less the time since it came (measured
   * here); null when no deadline was sent.
   */
  function waitLeft() {
    const { ctx } = live;
    const until = Date.parse(ctx.botWaitsUntil ?? ""), sent = Date.parse(ctx.clock?.now ?? "");
    if (Number.isNaN(until) || Number.isNaN(sent)) return null;
    return Math.max(0, (until - sent - (performance.now() - live.receivedAt)) / 1000);
  }

  function waitWords(left) {
    const seconds = Math.ceil(left);
    if (live.view.players === 2) {
      return seconds > 0 ? t("The next card comes in {seconds} s.", { seconds }) : t("The next card comes now.");
    }
    const name = who(live.ctx.names ?? [], live.view.active);
    return seconds > 0 ? t("{name} turns a token in {seconds} s.", { name, seconds }) : t("{name} turns a token now.", { name });
  }

  /** The waiting bot's countdown (kept up by tick()), or null without a deadline. */
  function countdown() {
    const left = waitLeft();
    if (left === null) return null;
    return el("p", { class: "rv-countdown", "data-rv-countdown": "", "data-testid": "ready-countdown", role: "timer" }, waitWords(left));
  }

  function clock(view) {
    // A game that ended mid-round (a resignation, a forfeit) has no round clock left: its
    // view's elapsed time runs on with the server's, and counted down to 0:00 in red.
    if (live.ctx.table?.status === "over") {
      return el("div", { class: "rv-clock over", "data-testid": "clock" }, el("div", { class: "time" }, t("Game over")));
    }
    const limit = view.clock.limit;
    return el("div", { class: "rv-clock", "data-rv-clock": "", "data-testid": "clock", role: "timer", "aria-label": t("time left in the round") },
      el("div", { class: "time" }, clockText(limit - view.clock.elapsed)),
      el("div", { class: "of" }, view.players === 2 ? t("of {limit} · level {level}", { limit: clockText(limit), level: view.level + 1 })
        : t("of {limit}", { limit: clockText(limit) })),
      el("div", { class: "bar" }, el("i", { class: "fill" })),
      view.players === 2 ? null : el("div", { class: "worth" }));
  }

  // ---------------------------------------------------------------------------------------------
  // Painting.

  function paint() {
    const { root, view } = live;
    let body;
    if (view.phase === "build") body = live.role ? builderPage(view) : watcherPage(view);
    else body = betweenPage(view);
    // On a phone the bar (clock, done) sticks below the page's own sticky header, if any.
    const header = document.querySelector("body > header");
    const stick = header && ["sticky", "fixed"].includes(getComputedStyle(header).position) ? header.offsetHeight : 0;
    const focus = focusKey(root);
    const held = root.contains(document.activeElement);  // on a control here, or resting on the board
    // Resting on the board, the focus comes to the next phase's first control, not to one
    // that a repaint within the phase (the partner's move) happens to draw.
    const phase = `${view.phase} ${view.rounds.length}`;
    const resting = document.activeElement === root && phase !== paintedPhase;
    paintedPhase = phase;
    // The tray slides sideways on a phone: a repaint (a turn, the partner's move) keeps where
    // the reader slid it, or the piece in hand would jump out of sight.
    const slid = root.querySelector(".rv-pieces")?.scrollLeft ?? 0;
    root.replaceChildren(el("div", {
      class: `rv ${ui.drag ? "dragging" : ""} ${ui.selected ? "holding" : ""}`, style: `--rv-stick:${stick}px`,
      "data-phase": view.phase, "data-role": live.role ?? "watch",
      "data-unplaced": view.unplaced.join(" "),
    }, body));
    const row = root.querySelector(".rv-pieces");
    if (row) row.scrollLeft = slid;
    if (held) keepFocus(focus, resting);
    const chosen = root.querySelector(".rv-orient-option.chosen");
    if (chosen) {
      const list = chosen.parentElement;
      list.scrollLeft = chosen.offsetLeft - (list.clientWidth - chosen.offsetWidth) / 2;
    }
    tick();
  }

  /**
   * Keyboard players keep their place: the control focused before a repaint is focused after;
   * once it is gone or disabled ("Next card" pressed, the phase over) the focus waits on the
   * board, not at the page's top, and comes to the board's first control when the next phase
   * brings one (the new round's build: a piece to build with, or a watcher's first button).
   */
  function keepFocus(focus, resting) {
    const { root } = live;
    const again = focus ? root.querySelector(focus) : null;
    if (again && !again.disabled) { again.focus({ preventScroll: true }); return; }
    // A builder's first piece (not "Say Recto", above it: an Enter pressed twice), else the
    // first button (a watcher's "Go round to the back").
    const first = resting ? root.querySelector("[data-piece][tabindex]") ?? root.querySelector("[data-act]:not(:disabled)") : null;
    (first ?? root).focus({ preventScroll: true });
  }

  function focusKey(root) {
    const node = document.activeElement;
    if (!node || node === document.body || !root.contains(node)) return null;
    const parts = ["piece", "act", "index", "name", "step"].filter((k) => node.dataset[k] !== undefined)
      .map((k) => `[data-${k}="${CSS.escape(node.dataset[k])}"]`);
    return parts.length ? parts.join("") : null;
  }

  function levelsOf(...views) {
    return Math.max(1, ...views.map((v) => (v ? v.length : 0)));
  }

  function builderPage(view) {
    const { role, model, legal, ctx } = live;
    const names = ctx.names ?? [];
    const me = ctx.seat, partner = role === "front" ? view.verso : view.recto;
    const card = view.card?.[role] ?? [];
    const built = view.construction?.[role] ?? [];
    const target = currentAim();
    const held = heldCells();
    const ghost = target ? { cells: target.cells, letter: BY_NAME[ui.selected].letter, ok: Boolean(target.action), floating: target.floating } : null;
    // Sizes do not follow the ghost: nothing may move under the pointer while it aims.
    const levels = levelsOf(card, built);
    const preview = ghost?.ok ? sideView(model, ghost.cells.map((c) => [...c, ghost.letter]), levels) : null;
    const count = matchCount(built, card, levels);
    const lift = !ui.selected && ui.hoverLetter && legal.has(`remove ${nameOf(ui.hoverLetter)}`) ? ui.hoverLetter : null;
    const side = SIDE_WORDS[role];
    const meDone = view.done.includes(me), partnerDone = view.done.includes(partner);

    const bar = el("div", { class: "rv-bar" },
      el("div", { class: "rv-role" },
        el("span", { class: `rv-side-chip ${role}` }, side.toUpperCase()),
        el("div", {},
          el("div", { class: "rv-role-main" }, role === "front" ? t("You build from the front ({side}).", { side }) : t("You build from the back ({side}).", { side })),
          el("div", { class: "muted" }, t("Partner: {name} ({side})", { name: who(names, partner), side: SIDE_WORDS[role === "front" ? "back" : "front"] }), " · ",
            partnerDone ? el("strong", {}, t("said “Recto”: done")) : t("building")))),
      clock(view),
      doneBox(view, meDone, partnerDone, names, partner, count));

    const toPlace = view.unplaced.length ? tn("{count} piece to place", "{count} pieces to place", view.unplaced.length) : t("every piece placed");
    const site = el("section", { class: "rv-panel rv-site-panel", "aria-label": t("build site") },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("Build site")), el("span", { class: "muted" }, t("seen from your side"), " · ", toPlace)),
      siteDrawing(model, { ghost, lift, levels, near: t("▼ your side") }),
      live.canBuild ? (ui.selected ? orientationBar(ui.selected) : view.unplaced.length ? howTo() : readyBox(count, partnerDone)) : null,
      hintLine(view, target, lift));

    const compare = el("section", { class: "rv-panel rv-compare", "aria-label": t("your side of the card and of the building") },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("Your side: {side}", { side })), el("span", { class: "muted" }, t("what you must see"))),
      el("div", { class: "rv-pair" },
        el("figure", {}, el("figcaption", {}, t("Card")), sideGrid(card, levels, { side: role, testid: "card-side" })),
        el("figure", {}, el("figcaption", {}, t("Your view")), sideGrid(built, levels, { compare: card, ghost: preview, side: role, testid: "own-view", pick: live.canBuild }))),
      matchLine(count));

    const top = el("section", { class: "rv-panel rv-top-panel", "aria-label": t("top view") },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("Top view")), el("span", { class: "muted" }, t("colour and height of each column"))),
      el("div", { class: "rv-top-wrap" },
        el("div", { class: "rv-edge far" }, t("{name}'s side", { name: who(names, partner) })),
        topGrid(model, { ghost, pick: live.canBuild }),
        el("div", { class: "rv-edge" }, t("▼ your side"))));

    return el("div", { class: "rv-builder" }, bar, carriedResult(view),
      el("div", { class: "rv-main rv-build-grid" }, site, compare, top, tray(view, held)));
  }

  // A piece's name from its letter (views use letters).
  const nameOf = (letter) => BY_LETTER[letter]?.name;

  function doneBox(view, meDone, partnerDone, names, partner, count) {
    if (meDone) {
      return el("div", { class: "rv-done waiting", "data-testid": "done-box" },
        el("div", { class: "rv-done-said" }, t("You said “Recto”")),
        el("div", { class: "muted" }, t("Waiting for {name} to say “Verso”: then the clock stops and the building is checked.", { name: who(names, partner) })));
    }
    if (!live.canBuild) return el("div", { class: "rv-done" });
    const word = partnerDone ? "Verso" : "Recto";
    if (ui.confirmDone) return doneConfirm(view, word, names, partner, count);
    return el("div", { class: "rv-done", "data-testid": "done-box" },
      el("button", { class: `rv-done-button ${partnerDone ? "second" : ""}`, "data-act": "ask-done", "data-testid": "done" },
        t("Say “{word}”…", { word })),
      el("div", { class: "muted" }, partnerDone
        ? t("{name} is done: say “Verso” to stop the clock and check the building.", { name: who(names, partner) })
        : t("When you are done. {name} then says “Verso” and the clock stops.", { name: who(names, partner) })));
  }

  // R13: the first to be done says "Recto" and may not touch the building again this round;
  // the other's "Verso" stops the clock and the building is checked. Neither can be taken back.
  function doneConfirm(view, word, names, partner, { differ }) {
    const warnings = [
      view.unplaced.length ? tn("{count} piece is not placed.", "{count} pieces are not placed.", view.unplaced.length) : null,
      differ ? tn("{count} cell of your side differs from the card.", "{count} cells of your side differ from the card.", differ) : null,
    ].filter(Boolean);
    const what = word === "Recto"
      ? t("You won't move pieces again this round. When {name} says “Verso”, the clock stops and the building is checked.", { name: who(names, partner) })
      : t("The clock stops now and the building is checked.");
    return el("div", { class: "rv-done confirm", "data-testid": "done-confirm", role: "alertdialog", "aria-label": t("say {word}?", { word }) },
      el("div", { class: "rv-done-q" }, t("Say “{word}”?", { word })),
      el("div", { class: "rv-done-what" }, what),
      warnings.length ? el("div", { class: "rv-done-warn" }, warnings.join(" ")) : null,
      el("div", { class: "rv-done-buttons" },
        el("button", { class: "small", "data-act": "confirm-done", "data-testid": "done-yes" }, t("Yes, say “{word}”", { word })),
        el("button", { class: "small secondary", "data-act": "cancel-done", "data-testid": "done-cancel" }, t("Keep building"))));
  }

  function hintLine(view, target, lift) {
    if (ui.message) {
      return el("p", { class: `rv-hint ${ui.message.kind}`, role: "alert", "data-testid": "refusal" }, el("span", {}, ruleNodes(ui.message.text, "rectoverso")),
        el("button", { class: "rv-dismiss", "data-act": "dismiss", "aria-label": t("close"), title: t("close") }, "×"));
    }
    let text;
    if (!live.canBuild) text = "";
    else if (target?.action) {
      const params = { piece: cap(pieceWords(ui.selected)), where: levelWords(target.cells) };
      text = ui.drag ? t("{piece}: {where} — let go to place it.", params) : t("{piece}: {where} — click or tap to place it.", params);
    }
    else if (target) return el("p", { class: "rv-hint warn", "data-testid": "aim-problem" }, ruleNodes(target.reason, "rectoverso"));
    else if (ui.selected && ui.note) text = ui.note;
    else if (ui.selected) text = t("Point at the site (or the top view) to see where {piece} would go. The dot marks the cube you hold it by.", { piece: pieceWords(ui.selected) });
    else if (lift) text = t("Click to pick up {piece}.", { piece: pieceWords(nameOf(lift)) });
    else if (ui.hoverLetter) text = pickUpProblem(nameOf(ui.hoverLetter), live.legal) ?? "";
    else if (ui.note) text = ui.note;
    else text = "";
    return el("p", { class: "rv-hint" }, text);
  }

  function levelWords(cells) {
    const low = Math.min(...cells.map((c) => c[2])) + 1, high = Math.max(...cells.map((c) => c[2])) + 1;
    return low === high ? t("on level {level}", { level: low }) : t("levels {low}–{high}", { low, high });
  }

  function matchLine({ right, needed, wrong }, mine = true) {
    const all = right === needed && wrong === 0;
    return el("div", { class: `rv-match ${all ? "all" : ""}`, "data-testid": "match" },
      all ? (mine ? t("✓ Your side matches the card.") : t("✓ This side matches the card.")) : [
        // Nothing right yet is no success: no tick, no green.
        right ? el("span", { class: "ok" }, "✓ ", t("{right} of {needed}", { right, needed })) : el("span", { class: "none" }, t("{right} of {needed}", { right, needed })),
        wrong ? el("span", { class: "wrong" }, " · ✗ ", t("{count} wrong", { count: wrong })) : null,
        el("span", { class: "muted" }, " ", mine ? t("cubes as on your side of the card") : t("cubes as on the card"))]);
  }

  function tray(view, held) {
    const pieces = piecesOf(view.difficulty);
    const unplaced = pieces.filter((p) => view.unplaced.includes(p.name));
    const placed = pieces.filter((p) => !view.unplaced.includes(p.name));
    const editable = live.canBuild;
    return el("section", { class: "rv-panel rv-tray", "aria-label": t("pieces") },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("Pieces")), el("span", { class: "muted" }, editable ? t("tap to hold · drag onto the site") : "")),
      el("div", { class: "rv-pieces" }, unplaced.length ? unplaced.map((p) => {
        const cells = p.name === ui.selected ? held : orientationsOf(p.name)[ui.orient[p.name] ?? 0];
        return el("div", {
          class: `rv-piece ${p.name === ui.selected ? "selected" : ""} ${editable ? "" : "idle"}`,
          "data-piece": editable ? p.name : null, "data-name": p.name, role: editable ? "button" : null, tabindex: editable ? "0" : null,
          "aria-pressed": editable ? String(p.name === ui.selected) : null, title: t("{colour} ({shape}, letter {letter})", { colour: colourName(p.name), shape: p.shape, letter: p.letter.toUpperCase() }),
        }, el("div", { class: "rv-piece-pic" }, pieceDrawing(p.name, cells, 22)),
        el("div", { class: "rv-piece-name" }, el("span", { class: "rv-chip", style: `--c:${p.colour};--ink:${p.ink}` }, p.letter.toUpperCase()), colourName(p.name)));
      }) : el("p", { class: "muted" }, t("Every piece is on the site."))),
      placed.length ? el("div", { class: "rv-placed" },
        el("span", { class: "muted" }, editable ? t("On the site (click to pick up):") : t("On the site:")),
        placed.map((p) => {
          const problem = editable ? pickUpProblem(p.name, live.legal) : "";
          const chip = [el("span", { class: "rv-chip", style: `--c:${p.colour};--ink:${p.ink}` }, p.letter.toUpperCase()), colourName(p.name)];
          return editable
            ? el("button", { "data-act": "pickup", "data-name": p.name, "data-placed": p.name, disabled: Boolean(problem),
              title: problem || t("take {piece} off the site", { piece: pieceWords(p.name) }) }, chip)
            : el("span", { class: "rv-placed-piece", "data-placed": p.name }, chip);
        })) : null);
  }

  // Every piece is placed: is this side right?
  function readyBox({ differ }, partnerDone) {
    const good = differ === 0;
    const word = partnerDone ? "Verso" : "Recto";
    return el("div", { class: `rv-hand rv-ready ${good ? "good" : ""}` }, good
      ? t("✓ Every piece is placed and your side matches the card. Sure? Say “{word}”.", { word })
      : tn("Every piece is placed, but {count} cell of your side differs from the card: pick a piece up and move it — and tell your partner.",
        "Every piece is placed, but {count} cells of your side differ from the card: pick a piece up and move it — and tell your partner.", differ));
  }

  // Shown where the held piece's orientations go, so that holding one shifts nothing.
  function howTo() {
    return el("ol", { class: "rv-hand rv-howto" },
      el("li", {}, t("Pick a piece: tap it, or drag it onto the site.")),
      el("li", {}, t("Turn it: choose a way, or press R.")),
      el("li", {}, t("Point at the site or the top view; click to place.")),
      el("li", {}, t("Click a placed cube to pick its piece up.")),
      el("li", { class: "keys muted" }, t("Keys: R turns, arrows and Enter place, Esc puts back.")));
  }

  function orientationBar(name) {
    const list = orientationsOf(name);
    const index = (ui.orient[name] ?? 0) % list.length;
    return el("div", { class: "rv-hand rv-orient", "data-testid": "orientation", "data-key": shapeKey(list[index]) },
      el("div", { class: "rv-orient-head" },
        el("span", { class: "rv-orient-what" }, el("strong", {}, `${cap(colourName(name))}: `),
          list.length > 1 ? t("orientation {number} of {count}", { number: index + 1, count: list.length }) : t("a cube looks the same every way")),
        list.length > 1 ? el("button", { class: "small", "data-act": "turn", "data-step": "1", title: t("next orientation (R; Shift+R goes back)") }, t("↻ Turn (R)")) : null,
        el("button", { class: "small secondary", "data-act": "drop", title: t("put it back in the tray (Esc)") }, t("Put back"))),
      list.length > 1 ? el("div", { class: "rv-orient-list" }, list.map((cells, i) =>
        el("button", { class: `rv-orient-option ${i === index ? "chosen" : ""}`, "data-act": "orient", "data-index": String(i), "data-key": shapeKey(cells), "aria-label": t("orientation {number}", { number: i + 1 }), "aria-pressed": String(i === index) },
          pieceDrawing(name, cells, 11)))) : null);
  }

  function watcherPage(view) {
    const names = live.ctx.names ?? [];
    const from = ui.watchFrom;
    const model = from === "front" ? live.model : siteModel(view, from);
    const card = view.card ?? {};
    const built = view.construction ?? {};
    const levels = levelsOf(card.front, built.front);
    // Without a seat, during a round, the view holds only what both builders see (R17: a
    // builder's second window must show nothing more): no card, no side to compare.
    const hidden = view.construction === null;
    const sides = hidden ? [el("section", { class: "rv-panel rv-compare", "data-testid": "sides-hidden" },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("The builders"))),
      el("ul", { class: "rv-builders" }, [view.recto, view.verso].map((seat, i) => el("li", {},
        el("strong", {}, `${cap(SIDE_WORDS[i === 0 ? "front" : "back"])} — ${who(names, seat)}`), " ",
        view.done.includes(seat) ? el("span", { class: "rv-said" }, t("said “Recto”")) : el("span", { class: "muted" }, t("building"))))),
      el("p", { class: "muted" }, t("Each builder sees only their own side of the card. You see what both see, the top view; the card and both sides are shown when the round ends.")))]
      : ["front", "back"].map((side) => {
      const seat = side === "front" ? view.recto : view.verso;
      const count = matchCount(built[side] ?? [], card[side] ?? [], levels);
      return el("section", { class: "rv-panel rv-compare", "aria-label": t("{side} side", { side: SIDE_WORDS[side] }) },
        el("div", { class: "rv-panel-head" }, el("h3", {}, `${cap(SIDE_WORDS[side])} — ${who(names, seat)}`),
          view.done.includes(seat) ? el("span", { class: "rv-said" }, t("said “Recto”")) : el("span", { class: "muted" }, t("building"))),
        el("div", { class: "rv-pair" },
          el("figure", {}, el("figcaption", {}, side === "front" ? t("Card, front") : t("Card, back")), sideGrid(card[side] ?? [], levels, { side })),
          el("figure", {}, el("figcaption", {}, t("Building from there")), sideGrid(built[side] ?? [], levels, { compare: card[side], side }))),
        matchLine(count, false));
    });
    const bar = el("div", { class: "rv-bar" },
      el("div", { class: "rv-role" },
        el("span", { class: "rv-side-chip watch" }, t("WATCH")),
        el("div", {},
          el("div", { class: "rv-role-main" }, view.card?.number
            ? t("{recto} and {verso} build card {card}.", { recto: who(names, view.recto), verso: who(names, view.verso), card: view.card.number })
            : t("{recto} and {verso} build a card.", { recto: who(names, view.recto), verso: who(names, view.verso) })),
          el("div", { class: "muted" }, hidden ? t("Each builder sees only their own side.") : t("You see both sides; each builder sees only their own.")))),
      clock(view));
    const unplaced = piecesOf(view.difficulty).filter((p) => view.unplaced.includes(p.name));
    return el("div", { class: "rv-watcher" }, bar, carriedResult(view),
      el("div", { class: "rv-main" },
        el("div", { class: "rv-col rv-col-site" },
          el("section", { class: "rv-panel rv-site-panel" },
            el("div", { class: "rv-panel-head" }, el("h3", {}, t("Build site")),
              el("span", { class: "muted" }, from === "front" ? t("from the front (recto)") : t("from the back (verso)")),
              el("button", { class: "small secondary rv-walk", "data-act": "walk", title: t("see the building from the other side") },
                from === "front" ? t("⟲ Go round to the back") : t("⟲ Go round to the front"))),
            siteDrawing(model, { levels, near: from === "front" ? t("▼ front: {name}", { name: who(names, view.recto) }) : t("▼ back: {name}", { name: who(names, view.verso) }) })),
          el("section", { class: "rv-panel rv-tray" },
            el("div", { class: "rv-panel-head" }, el("h3", {}, t("Pieces not placed yet"))),
            el("div", { class: "rv-pieces" }, unplaced.length ? unplaced.map((p) => el("div", { class: "rv-piece idle", "data-name": p.name },
              el("div", { class: "rv-piece-pic" }, pieceDrawing(p.name, orientationsOf(p.name)[0], 20, { anchor: false })),
              el("div", { class: "rv-piece-name" }, el("span", { class: "rv-chip", style: `--c:${p.colour};--ink:${p.ink}` }, p.letter.toUpperCase()), colourName(p.name))))
              : el("p", { class: "muted" }, t("Every piece is on the site."))))),
        el("div", { class: "rv-col rv-col-side" }, sides,
          el("section", { class: "rv-panel rv-top-panel" },
            el("div", { class: "rv-panel-head" }, el("h3", {}, t("Top view")),
              el("span", { class: "muted" }, from === "front" ? t("front at the bottom") : t("back at the bottom"))),
            el("div", { class: "rv-top-wrap" }, el("div", { class: "rv-edge far" }, from === "front" ? t("back") : t("front")), topGrid(model),
              el("div", { class: "rv-edge" }, "▼ ", from === "front" ? t("front") : t("back")))))));
  }

  function betweenPage(view) {
    const { ctx, legal } = live;
    const names = ctx.names ?? [];
    const rounds = history(view);
    let next;
    if (view.phase === "over") {
      next = null;
    } else if (legal.has("reveal") || legal.has("turn")) {
      const reveal = legal.has("reveal");
      next = el("div", { class: "rv-next mine" },
        el("button", { class: "rv-go", "data-act": "play", "data-action": reveal ? "reveal" : "turn", "data-testid": "next-round" },
          reveal ? t("Reveal the next card") : t("Turn a token")),
        el("p", { class: "muted" }, reveal
          ? t("The clock starts at once: level {level}, {limit} to build it. You build from the front (recto): who reveals builds recto, and your partner reveals the next card.",
            { level: view.level + 1, limit: clockText(LEVEL_LIMITS[Math.min(view.level, 6)]) })
          : t("Your token names your partner for this round (R13): you build from the front (recto), they from the back (verso); the card is revealed and the clock starts.")));
    } else if (ctx.botWaits && context.ready) {
      // A bot waits for this reader (or, at 3 to 6, for any person at the table) before it
      // starts the next round: its card (R16) or its token (R13), which starts the clock. One
      // message beside the button: when it goes by itself (the countdown), that the button
      // makes it sooner, and what follows.
      const active = who(names, view.active);
      const sent = ui.readyFor === view.rounds.length;
      const pair = view.players === 2;
      // Another person at the table may say it first (any person's "ready" counts).
      const others = (ctx.table?.seats ?? []).some((s) => s.kind === "human" && !s.bot_account && s.seat !== ctx.seat);
      next = el("div", { class: "rv-next mine" },
        el("button", { class: "rv-go", "data-act": "ready", "data-testid": "ready", disabled: sent }, pair ? t("Next card") : t("Next round")),
        el("div", { class: "rv-next-words" },
          sent ? null : countdown(),
          el("p", { class: "muted" }, sent ? (pair ? t("{name} reveals the next card…", { name: active }) : t("{name} turns a token…", { name: active }))
            : pair ? t("Sooner if you press the button. {name} builds from the front (recto), you from the back (verso), and the clock starts at once.", { name: active })
              : others ? t("Sooner if anyone at the table presses the button. The token names {name}’s partner, and the clock starts at once.", { name: active })
                : t("Sooner if you press the button. The token names {name}’s partner, and the clock starts at once.", { name: active }))));
    } else if (waitLeft() !== null) {
      // A spectator (or a player who gave up their seat) is told when the waiting bot goes on
      // by itself; only the people playing may say they are ready.
      const active = who(names, view.active);
      const pair = view.players === 2;
      next = el("div", { class: "rv-next" },
        el("div", { class: "rv-next-words" },
          countdown(),
          el("p", { class: "muted" }, pair ? t("Sooner if {name} is ready. The clock starts at once.", { name: who(names, 1 - view.active) })
            : t("Sooner if a player is ready. The token names {name}’s partner, and the clock starts at once.", { name: active }))));
    } else {
      const active = who(names, view.active);
      const mine = ctx.seat !== null && ctx.seat !== undefined;
      next = el("div", { class: "rv-next" }, el("p", {},
        view.players === 2
          ? (mine ? t("Waiting for {name} to reveal the next card — {name} builds from the front (recto), you from the back (verso).", { name: active })
            : t("Waiting for {name} to reveal the next card.", { name: active }))
          : t("Waiting for {name} to turn a token: {name} builds next, recto, with the player the token names.", { name: active })));
    }
    const last = view.last ? lastBuildPanel(view.last) : null;
    const fresh = ui.shownResult !== rounds.length;
    ui.shownResult = rounds.length;
    return el("div", { class: "rv-between" },
      view.phase === "over" ? el("h2", { class: "rv-over", "data-testid": "game-over" }, endText(view, names)) : null,
      resultBanner(view, names, fresh) ?? el("div", { class: "rv-intro" },
        el("h2", {}, "Recto Verso"),
        el("p", {}, view.players === 2
          ? t("Build the card together, each from your own side: you see only your side of the card and of the building, and the top view. Talk in the chat! Seven levels, each with less time (R16).")
          : t("Each round, two of you build a card from its two sides; the faster a match, the more points (R14)."))),
      next,
      el("div", { class: "rv-main" },
        el("div", { class: "rv-col" }, el("section", { class: "rv-panel" }, view.players === 2 ? ladder(view) : scoreTable(view, names))),
        last ? el("div", { class: "rv-col" }, last) : null));
  }

  /**
   * The last round's card and building at its end, as the view gives them between rounds
   * (`last`, even to a page opened after the round): its builders their own side, as they saw
   * it, anyone else (a seat not building, a spectator) both sides (R17).
   */
  function lastBuildPanel(last) {
    const sides = ["front", "back"].filter((side) => last.card[side]);
    const levels = levelsOf(...sides.map((s) => last.card[s]), ...sides.map((s) => last.construction[s]));
    return el("section", { class: "rv-panel rv-compare", "data-testid": "last-build" },
      el("div", { class: "rv-panel-head" }, el("h3", {}, t("The building at the end")), el("span", { class: "muted" }, sides.length === 1 ? t("your side") : t("both sides"))),
      sides.map((side) => el("div", { class: "rv-pair" },
        el("figure", {}, el("figcaption", {}, t("Card, {side}", { side: SIDE_WORDS[side] })), sideGrid(last.card[side], levels, { side })),
        el("figure", {}, el("figcaption", {}, t("Building")), sideGrid(last.construction[side], levels, { compare: last.card[side], side })))));
  }

  root.addEventListener("pointerdown", onPointerDown);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onRootKey);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  document.addEventListener("keydown", onKey);
  const ticker = setInterval(tick, 200);

  return {
    update: (frame) => render(root, frame.view, { ...frame, play: context.play }),
    describe: (view, names) => [summaryText(view, names)].filter(Boolean),
    // The clock counts on from the view's elapsed time, as the drawn clock does (tick()).
    // Between rounds, a bot waiting for a person's "ready" says when it goes on (waitLeft()).
    position: () => (live ? positionLines(live.view, live.ctx, live.view.clock.elapsed
      + (live.ticking && live.view.phase === "build" ? (performance.now() - live.receivedAt) / 1000 : 0), waitLeft()) : []),
    refused,
    dispose() {
      clearInterval(ticker);
      endDrag();
      root.removeEventListener("pointerdown", onPointerDown);
      root.removeEventListener("click", onClick);
      root.removeEventListener("keydown", onRootKey);
      window.removeEventListener("pointermove", onPointerMove);
      window.removeEventListener("pointerup", onPointerUp);
      window.removeEventListener("pointercancel", onPointerCancel);
      document.removeEventListener("keydown", onKey);
    },
  };
}
