// Verso at the table: pile, discards, every tableau in three coloured rows, actions, the log.
// Everything shown comes from the server's view (V19); legal actions come from the server too.
import { el } from "/static/js/core/dom.js";
import { ruleNodes } from "/static/js/core/words.js";
import { language, semicolons, t, tn } from "/static/js/core/i18n.js";

const COLOURS = { b: "blue", g: "green", o: "orange" };
const ORDER = ["blue", "green", "orange"];

export function face(text) {
  const colour = COLOURS[text[0].toLowerCase()];
  return { text, colour, vp: text[0] === text[0].toUpperCase() ? 3 : 1, value: text.slice(1) };
}

const show = (text) => text.replace("*", "★");
const COLOUR_WORDS = { blue: () => t("blue"), green: () => t("green"), orange: () => t("orange") };
const colourWord = (colour) => COLOUR_WORDS[colour]?.() ?? colour;
const keyOf = (f) => `${f.colour}:${f.value}`;

function cardNode(card, extra = {}) {
  const f = face(card.up);
  const classes = ["card", f.colour, f.vp === 3 ? "vp3" : "vp1", extra.class ?? ""].join(" ");
  return el("div", { class: classes, title: cardWords(card), "data-face": card.up, ...extra.attrs },
    el("span", { class: "vp" }, t("{points}VP", { points: f.vp })),
    f.value === "*" ? "★" : f.value,
    card.down ? backChip(card.down) : null);
}

// The other side, known once a card was turned: a chip in its colour with its value, which
// needs no translating (the notation's letters are English: g2 is "vert 2" in French).
function backChip(text) {
  const back = face(text);
  return el("span", { class: `back ${back.colour}` },
    el("span", { "aria-hidden": "true" }, back.value === "*" ? "★" : back.value),
    el("span", { class: "sr-only" }, t("other side {down}", { down: faceWords(text) })));
}

/** A face's value in words: its number, or "star". */
const valueWord = (f) => (f.value === "*" ? t("star") : f.value);

/** A face in words without its points: "green 2", "orange star". */
function faceWords(text) {
  const f = face(text);
  return t("{colour} {value}", { colour: colourWord(f.colour), value: valueWord(f) });
}

function parseSeries(action) {
  // "series blue 3 *4 5" -> {colour, keys: ["blue:3", "blue:*", "blue:5"], star: 4}
  const [, colour, ...values] = action.split(" ");
  let star = null;
  const keys = values.map((v) => {
    if (v.startsWith("*")) { star = v.slice(1); return `${colour}:*`; }
    return `${colour}:${v}`;
  });
  return { action, colour, keys, star, values };
}

/** One event of a Verso view as a sentence for the log. */
export function describe(event, names) {
  // The reader's own seat is named "… (you)" in the page's language: said "You" instead.
  const you = t("{name} (you)", { name: "" });
  const mine = (p) => (names[p] ?? "").endsWith(you);
  const name = (p) => names[p] ?? t("seat {seat}", { seat: p + 1 });
  const card = (c) => (c.down ? t("{up} (back {down})", { up: show(c.up), down: show(c.down) }) : show(c.up));
  const p = event.player;
  switch (event.type) {
    case "draw":
      if (event.flipped) {
        const said = { from: show(event.from), face: show(event.face) };
        return mine(p) ? t("You turned {from} over and took {face}.", said)
          : t("{name} turned {from} over and took {face}.", { name: name(p), ...said });
      }
      return mine(p) ? t("You drew {face}.", { face: show(event.face) })
        : t("{name} drew {face}.", { name: name(p), face: show(event.face) });
    case "discard":
      if (event.reason === "duplicate") {
        return mine(p) ? t("{card} was discarded — a duplicate in your tableau.", { card: card(event.card) })
          : t("{card} was discarded — a duplicate in {name}'s tableau.", { card: card(event.card), name: name(p) });
      }
      return mine(p) ? t("{card} was discarded from your series.", { card: card(event.card) })
        : t("{card} was discarded from {name}'s series.", { card: card(event.card), name: name(p) });
    case "series": {
      // event.star: the value the star stood for in this series (null without a star).
      const said = { colour: colourWord(event.colour), values: event.values.map((v) => (v === event.star ? `★${v}` : v)).join("-"), points: event.points };
      return mine(p) ? t("You banked {colour} {values} for {points} VP.", said)
        : t("{name} banked {colour} {values} for {points} VP.", { name: name(p), ...said });
    }
    case "turn": {
      const said = { from: show(event.from), to: show(event.to) };
      return mine(p) ? t("Your {from} was turned over: now {to}.", said)
        : t("{name}'s {from} was turned over: now {to}.", { name: name(p), ...said });
    }
    case "square":
      return mine(p) ? t("You completed a square: +{points} VP!", { points: event.points })
        : t("{name} completed a square: +{points} VP!", { name: name(p), points: event.points });
    case "square_broken":
      return mine(p) ? t("Your square is broken.") : t("{name}'s square is broken.", { name: name(p) });
    case "opponent": {
      const took = event.card.down ? `${show(event.card.up)}/${show(event.card.down)}` : show(event.card.up);
      return event.effect === "turn" ? t("The opponent took {card} — you turn over a card.", { card: took })
        : t("The opponent took {card} — nothing happens.", { card: took });
    }
    case "pass":
      return mine(p) ? t("You passed.") : t("{name} passed.", { name: name(p) });
    case "final":
      return t("The pile is empty: final series — each player may bank one last series or pass.");
    case "end":
      return t("The pile is empty: the game is over.");
    default:
      return JSON.stringify(event);
  }
}

function highlights(view) {
  const marks = { arrive: {}, turned: {}, squared: new Set(), scored: new Set(), discarded: 0 };
  for (const e of view.events ?? []) {
    if (e.type === "draw") marks.arrive[e.player] = e.face;
    if (e.type === "turn") (marks.turned[e.player] ??= new Set()).add(e.to);
    if (e.type === "square") { marks.squared.add(e.player); marks.scored.add(e.player); }
    if (e.type === "series") marks.scored.add(e.player);
    if (e.type === "discard") marks.discarded += 1;
  }
  return marks;
}

function turnWords(view, ctx) {
  if (view.phase === "over") return t("Game over.");
  const p = view.current_player;
  const name = ctx.names[p] ?? t("seat {seat}", { seat: p + 1 });
  const final = view.phase === "final";
  if (p === ctx.seat) return final ? t("Your turn — final series: bank one last series or pass.") : t("Your turn.");
  return final ? t("{name}'s turn — final series: bank one last series or pass.", { name }) : t("{name}'s turn.", { name });
}

function statusLine(view, ctx) {
  if (view.phase === "over") return el("p", { class: "status" }, turnWords(view, ctx));
  return el("p", { class: `status ${view.current_player === ctx.seat ? "mine" : ""}`, "data-testid": "status" }, turnWords(view, ctx));
}

/** A card in words: "blue 5, 3 VP; other side green 2". */
function cardWords(card) {
  const f = face(card.up);
  const said = { colour: colourWord(f.colour), value: valueWord(f), points: f.vp };
  return card.down ? t("{colour} {value}, {points} VP; other side {down}", { ...said, down: faceWords(card.down) })
    : t("{colour} {value}, {points} VP", said);
}

/**
 * The whole position in words, for a screen reader (the table's "Describe the position"):
 * whose turn, the pile and its top card, the discards, then every tableau (the reader's first)
 * row by row with its score. Only what the view shows (V19).
 * @param {object} view the server's view
 * @param {{seat: number|null, names: string[]}} ctx
 * @returns {string[]} sentences
 */
export function positionLines(view, ctx) {
  // A card's words hold commas already: the cards are told apart by semicolons.
  const list = semicolons;
  const lines = [turnWords(view, ctx), tn("{count} card in the pile", "{count} cards in the pile", view.pile_size) + "."];
  if (view.top) lines.push(t("The top card of the pile: {card}.", { card: cardWords({ up: view.top, down: null }) }));
  lines.push(view.discards.length ? t("Discards: {cards}.", { cards: list(view.discards.map(cardWords)) }) : t("No discards."));
  const order = [...view.tableaux.keys()].sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  for (const p of order) {
    const tableau = view.tableaux[p];
    const name = ctx.names[p] ?? t("seat {seat}", { seat: p + 1 });
    const square = tableau.square ? " (" + t("square scored; scores again once broken") + ")" : "";
    lines.push(t("{name}: {points} VP", { name, points: tableau.score }) + square + ".");
    for (const colour of ORDER) {
      const cards = tableau.cards.filter((c) => face(c.up).colour === colour);
      const row = t("{colour} row", { colour: colourWord(colour) });
      const none = t("no cards");
      lines.push(t("{row}: {cards}.", { row, cards: cards.length ? list(cards.map(cardWords)) : none }));
    }
  }
  // A sentence ending on an abbreviation ("3 P." in German) takes no second full stop.
  return lines.map((line) => line.replace(/\.\.$/, "."));
}

function finalBox(view, ctx) {
  if (!view.outcome) return null;
  const order = view.scores.map((s, p) => [s, p]).sort((a, b) => b[0] - a[0]);
  const seatName = (p) => ctx.names[p] ?? t("seat {seat}", { seat: p + 1 });
  return el("div", { class: "final", "data-testid": "final" },
    el("h3", {}, view.solo ? t("Final score: {points} VP", { points: view.scores[0] }) :
      t("{names} won!", { names: new Intl.ListFormat(language, { type: "conjunction" }).format(view.outcome.winners.map(seatName)) })),
    view.solo && view.rating ? el("p", {}, t("Rating: {rating}", { rating: view.rating })) : null,
    view.solo ? null : el("ol", {}, order.map(([s, p]) => el("li", {}, t("{name}: {points} VP", { name: seatName(p), points: s })))));
}

function seriesBar(view, ctx, selected, rerender) {
  const options = ctx.legal.filter((a) => a.startsWith("series ")).map(parseSeries);
  if (!options.length) return el("div", { class: "series-bar muted" }, ctx.legal.length ? t("No series to bank.") : "");
  const chosen = [...selected].sort().join("|");
  const matches = options.filter((o) => [...o.keys].sort().join("|") === chosen);
  const hint = selected.size === 0 ? t("Click cards of one colour in your tableau to choose a series.")
    : matches.length ? "" : t("Not a series you can bank: pick an unbroken run of 2 to 6 cards of one colour.");
  return el("div", { class: "series-bar" },
    hint ? el("span", { class: "muted" }, hint) : null,
    matches.map((o) => el("button", { "data-act": o.action, onclick: () => { selected.clear(); ctx.play(o.action); } },
      t("Bank {colour} {values}", { colour: colourWord(o.colour), values: o.values.map(show).join(" ") })
        + (o.star && matches.length > 1 ? " " + t("(★ as {value})", { value: o.star }) : ""))),
    selected.size ? el("button", { class: "secondary small", "data-act": "clear", onclick: () => { selected.clear(); rerender(); } }, t("Clear")) : null);
}

function playerPanel(view, ctx, p, marks, selected, rerender) {
  const tableau = view.tableaux[p];
  const mine = p === ctx.seat;
  const canSelect = mine && ctx.legal.some((a) => a.startsWith("series "));
  const rows = ORDER.map((colour) => {
    const cards = tableau.cards.filter((c) => face(c.up).colour === colour);
    return el("div", { class: `crow ${colour}`, "aria-label": t("{colour} row", { colour: colourWord(colour) }) },
      el("span", { class: "lbl" }),
      cards.length ? cards.map((card) => {
        const f = face(card.up);
        const key = keyOf(f);
        const cls = [marks.arrive[p] === card.up ? "arrive" : "", marks.turned[p]?.has(card.up) ? "turned" : "",
          canSelect ? "selectable" : "", canSelect && selected.has(key) ? "selected" : ""].join(" ");
        const toggle = () => {
          if (selected.has(key)) selected.delete(key); else selected.add(key);
          rerender();
        };
        // A card to choose is a button for the keyboard too: Tab reaches it, Enter or Space
        // chooses it (the move box is the other way to bank by keys).
        return cardNode(card, { class: cls, attrs: canSelect ? { onclick: toggle, role: "button", tabindex: "0",
          "aria-pressed": String(selected.has(key)), "data-act": `card ${key}`,
          onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); } } } : {} });
      }) : el("span", { class: "muted" }, "—"));
  });
  return el("div", { class: `player ${view.current_player === p ? "current" : ""} ${mine ? "me" : ""} ${marks.squared.has(p) ? "squared" : ""}`, "data-seat": p },
    el("div", { class: "head" },
      el("span", { class: "pname" }, ctx.names[p] ?? t("seat {seat}", { seat: p + 1 })),
      tableau.square ? el("span", { class: "square-flag", title: t("square scored; scores again once broken") }, t("■ square")) : null,
      el("span", { class: `score ${marks.scored.has(p) ? "bump" : ""}`, "data-testid": `score-${p}` }, tableau.score),
      el("span", { class: "muted" }, t("VP"))),
    rows);
}

function render(root, view, ctx, selected) {
  const marks = highlights(view);
  const rerender = () => keepingFocus(root, () => render(root, view, { ...ctx, previous: null, quiet: true }, selected));
  const quietMarks = ctx.quiet ? { arrive: {}, turned: {}, squared: new Set(), scored: new Set(), discarded: 0 } : marks;
  const legal = new Set(ctx.legal);
  const myTurn = ctx.play && ctx.legal.length > 0;
  const topCard = view.top ? cardNode({ up: view.top, down: null }, { class: "big", attrs: { "data-testid": "top" } })
    : el("div", { class: "card big empty" }, t("empty"));
  const discards = view.discards.slice(-14);
  const order = [...view.tableaux.keys()];
  if (ctx.seat !== null && ctx.seat !== undefined) order.sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  root.dataset.version = view.version;
  root.dataset.legal = JSON.stringify(ctx.legal);
  root.replaceChildren(...[
    statusLine(view, ctx),
    finalBox(view, ctx),
    el("div", { class: "panel verso-top" },
      el("div", { class: "pile", title: t("top of the pile") }, el("div", { class: "stack" }), topCard,
        el("span", { class: "count", "data-testid": "pile-size" }, `${view.pile_size}`)),
      el("div", {},
        el("div", { class: "muted" }, tn("{count} card in the pile", "{count} cards in the pile", view.pile_size)),
        myTurn ? el("div", { class: "actions", style: "margin-top:6px" },
          view.top ? el("button", { disabled: !legal.has("draw"), "data-act": "draw", onclick: () => ctx.play("draw"),
            title: legal.has("draw") ? t("take the top card as it shows") : t("the top face duplicates one of your cards (V8): flip it") }, t("Draw {card}", { card: show(view.top) })) : null,
          view.top ? el("button", { disabled: !legal.has("flip"), "data-act": "flip", onclick: () => ctx.play("flip"), title: t("turn the top card over, then take it") }, t("Flip & take")) : null,
          legal.has("pass") ? el("button", { class: "secondary", "data-act": "pass", onclick: () => ctx.play("pass") }, t("Pass")) : null) : null,
        // Why a button is greyed out, in words (a tooltip is invisible on touch screens).
        myTurn && view.top && !legal.has("draw") && legal.has("flip")
          ? el("span", { class: "why", "data-testid": "why-draw" }, ...ruleNodes(t("You already have {card}: flip the card and take its other side (V8).", { card: show(view.top) }), "verso"))
          : null),
      el("div", { style: "flex:1; min-width:160px" },
        el("div", { class: "muted" }, t("Discards ({count})", { count: view.discards.length })),
        el("div", { class: "discards" }, discards.map((c, i) =>
          cardNode(c, { class: i >= discards.length - quietMarks.discarded ? "gone" : "" }))))),
    myTurn ? seriesBar(view, ctx, selected, rerender) : null,
    el("div", { class: "players" }, order.map((p) => playerPanel(view, ctx, p, quietMarks, selected, rerender))),
  ].filter(Boolean));
}

/**
 * Paint with `paint()` keeping a keyboard player's place: the control of the same action is
 * focused again, or, once it is gone (the turn passed), the board itself, and the board's first
 * action when the turn comes back; not the top of the page, where a repaint left the focus.
 */
function keepingFocus(root, paint) {
  const node = document.activeElement;
  const inside = Boolean(node) && node !== root && root.contains(node);
  const act = inside ? node.dataset.act : undefined;
  const resting = node === root;
  paint();
  if (!inside && !resting) return;
  const again = act ? root.querySelector(`[data-act="${CSS.escape(act)}"]:not(:disabled)`) : null;
  const first = resting || !again ? root.querySelector("[data-act]:not(:disabled)") : null;
  (again ?? first ?? root).focus({ preventScroll: true });
}

/** The board contract (js/games/README.md): the cards chosen for a series live here. */
export function createBoard(root, context) {
  let selected = new Set(), selectedAt = -1, shown = null;
  root.tabIndex = -1;  // where the focus waits while the others play
  return {
    update(frame) {
      shown = frame;
      if (selectedAt !== frame.view.version) { selected = new Set(); selectedAt = frame.view.version; }
      keepingFocus(root, () => render(root, frame.view, { ...frame, play: context.play }, selected));
    },
    describe: (view, names) => (view.events ?? []).map((e) => describe(e, names)),
    position: () => (shown ? positionLines(shown.view, shown) : []),
    dispose() {},
  };
}
