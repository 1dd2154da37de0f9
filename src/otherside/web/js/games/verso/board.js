// Verso at the table: pile, discards, every tableau in three coloured rows, actions, the log.
// Everything shown comes from the server's view (V19); legal actions come from the server too.
import { el } from "/static/js/core/dom.js";
import { ruleNodes } from "/static/js/core/words.js";

const COLOURS = { b: "blue", g: "green", o: "orange" };
const ORDER = ["blue", "green", "orange"];

export function face(text) {
  const colour = COLOURS[text[0].toLowerCase()];
  return { text, colour, vp: text[0] === text[0].toUpperCase() ? 3 : 1, value: text.slice(1) };
}

const show = (text) => text.replace("*", "★");
const keyOf = (f) => `${f.colour}:${f.value}`;

function cardNode(card, extra = {}) {
  const f = face(card.up);
  const classes = ["card", f.colour, f.vp === 3 ? "vp3" : "vp1", extra.class ?? ""].join(" ");
  const title = `${f.colour} ${f.value === "*" ? "star" : f.value}, ${f.vp} VP` +
    (card.down ? `; other side ${show(card.down)}` : "");
  return el("div", { class: classes, title, "data-face": card.up, ...extra.attrs },
    el("span", { class: "vp" }, f.vp === 3 ? "3VP" : "1VP"),
    f.value === "*" ? "★" : f.value,
    card.down ? el("span", { class: "back" }, show(card.down)) : null);
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
  // The reader's own seat is named "… (you)": said "You", and "your" as an owner.
  const mine = (p) => /\(you\)$/.test(names[p] ?? "");
  const who = (p) => (mine(p) ? "You" : names[p] ?? `seat ${p + 1}`);
  const whose = (p) => (mine(p) ? "your" : `${names[p] ?? `seat ${p + 1}`}'s`);
  switch (event.type) {
    case "draw":
      return event.flipped ? `${who(event.player)} turned ${show(event.from)} over and took ${show(event.face)}.`
        : `${who(event.player)} drew ${show(event.face)}.`;
    case "discard":
      return `${show(event.card.up)}${event.card.down ? ` (back ${show(event.card.down)})` : ""} was discarded` +
        (event.reason === "duplicate" ? ` — a duplicate in ${whose(event.player)} tableau.` : ` from ${whose(event.player)} series.`);
    case "series": {
      // event.star: the value the star stood for in this series (null without a star).
      const values = event.values.map((v) => (v === event.star ? `★${v}` : v)).join("-");
      return `${who(event.player)} banked ${event.colour} ${values} for ${event.points} VP.`;
    }
    case "turn":
      return `${mine(event.player) ? "Your" : whose(event.player)} ${show(event.from)} was turned over: now ${show(event.to)}.`;
    case "square":
      return `${who(event.player)} completed a square: +${event.points} VP!`;
    case "square_broken":
      return `${mine(event.player) ? "Your" : whose(event.player)} square is broken.`;
    case "opponent":
      return `The opponent took ${show(event.card.up)}${event.card.down ? `/${show(event.card.down)}` : ""}` +
        (event.effect === "turn" ? " — you turn over a card." : " — nothing happens.");
    case "pass":
      return `${who(event.player)} passed.`;
    case "final":
      return "The pile is empty: final series — each player may bank one last series or pass.";
    case "end":
      return "The pile is empty: the game is over.";
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

function statusLine(view, ctx) {
  if (view.phase === "over") return el("p", { class: "status" }, "Game over.");
  const p = view.current_player;
  const mine = p === ctx.seat;
  const whose = mine ? "Your turn" : `${ctx.names[p] ?? `Seat ${p + 1}`}'s turn`;
  const phase = view.phase === "final" ? " — final series: bank one last series or pass" : "";
  return el("p", { class: `status ${mine ? "mine" : ""}`, "data-testid": "status" }, whose + phase + ".");
}

function finalBox(view, ctx) {
  if (!view.outcome) return null;
  const order = view.scores.map((s, p) => [s, p]).sort((a, b) => b[0] - a[0]);
  return el("div", { class: "final", "data-testid": "final" },
    el("h3", {}, view.solo ? `Final score: ${view.scores[0]} VP` :
      `${view.outcome.winners.map((p) => ctx.names[p] ?? `seat ${p + 1}`).join(" and ")} won!`),
    view.solo && view.rating ? el("p", {}, `Rating: ${view.rating}`) : null,
    view.solo ? null : el("ol", {}, order.map(([s, p]) => el("li", {}, `${ctx.names[p] ?? `seat ${p + 1}`}: ${s} VP`))));
}

function seriesBar(view, ctx, selected, rerender) {
  const options = ctx.legal.filter((a) => a.startsWith("series ")).map(parseSeries);
  if (!options.length) return el("div", { class: "series-bar muted" }, ctx.legal.length ? "No series to bank." : "");
  const chosen = [...selected].sort().join("|");
  const matches = options.filter((o) => [...o.keys].sort().join("|") === chosen);
  const hint = selected.size === 0 ? "Click cards of one colour in your tableau to choose a series."
    : matches.length ? "" : "Not a series you can bank: pick an unbroken run of 2 to 6 cards of one colour.";
  return el("div", { class: "series-bar" },
    hint ? el("span", { class: "muted" }, hint) : null,
    matches.map((o) => el("button", { onclick: () => { selected.clear(); ctx.play(o.action); } },
      `Bank ${o.colour} ${o.values.map(show).join(" ")}` + (o.star && matches.length > 1 ? ` (★ as ${o.star})` : ""))),
    selected.size ? el("button", { class: "secondary small", onclick: () => { selected.clear(); rerender(); } }, "Clear") : null);
}

function playerPanel(view, ctx, p, marks, selected, rerender) {
  const tableau = view.tableaux[p];
  const mine = p === ctx.seat;
  const canSelect = mine && ctx.legal.some((a) => a.startsWith("series "));
  const rows = ORDER.map((colour) => {
    const cards = tableau.cards.filter((c) => face(c.up).colour === colour);
    return el("div", { class: `crow ${colour}`, "aria-label": `${colour} row` },
      el("span", { class: "lbl" }),
      cards.length ? cards.map((card) => {
        const f = face(card.up);
        const key = keyOf(f);
        const cls = [marks.arrive[p] === card.up ? "arrive" : "", marks.turned[p]?.has(card.up) ? "turned" : "",
          canSelect ? "selectable" : "", canSelect && selected.has(key) ? "selected" : ""].join(" ");
        return cardNode(card, { class: cls, attrs: canSelect ? { onclick: () => {
          if (selected.has(key)) selected.delete(key); else selected.add(key);
          rerender();
        }, role: "button" } : {} });
      }) : el("span", { class: "muted" }, "—"));
  });
  return el("div", { class: `player ${view.current_player === p ? "current" : ""} ${mine ? "me" : ""} ${marks.squared.has(p) ? "squared" : ""}`, "data-seat": p },
    el("div", { class: "head" },
      el("span", { class: "pname" }, ctx.names[p] ?? `Seat ${p + 1}`),
      tableau.square ? el("span", { class: "square-flag", title: "square scored; scores again once broken" }, "■ square") : null,
      el("span", { class: `score ${marks.scored.has(p) ? "bump" : ""}`, "data-testid": `score-${p}` }, tableau.score),
      el("span", { class: "muted" }, "VP")),
    rows);
}

function render(root, view, ctx, selected) {
  const marks = highlights(view);
  const rerender = () => render(root, view, { ...ctx, previous: null, quiet: true }, selected);
  const quietMarks = ctx.quiet ? { arrive: {}, turned: {}, squared: new Set(), scored: new Set(), discarded: 0 } : marks;
  const legal = new Set(ctx.legal);
  const myTurn = ctx.play && ctx.legal.length > 0;
  const topCard = view.top ? cardNode({ up: view.top, down: null }, { class: "big", attrs: { "data-testid": "top" } })
    : el("div", { class: "card big empty" }, "empty");
  const discards = view.discards.slice(-14);
  const order = [...view.tableaux.keys()];
  if (ctx.seat !== null && ctx.seat !== undefined) order.sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  root.dataset.version = view.version;
  root.dataset.legal = JSON.stringify(ctx.legal);
  root.replaceChildren(...[
    statusLine(view, ctx),
    finalBox(view, ctx),
    el("div", { class: "panel verso-top" },
      el("div", { class: "pile", title: "top of the pile" }, el("div", { class: "stack" }), topCard,
        el("span", { class: "count", "data-testid": "pile-size" }, `${view.pile_size}`)),
      el("div", {},
        el("div", { class: "muted" }, `${view.pile_size} card${view.pile_size === 1 ? "" : "s"} in the pile`),
        myTurn ? el("div", { class: "actions", style: "margin-top:6px" },
          view.top ? el("button", { disabled: !legal.has("draw"), onclick: () => ctx.play("draw"),
            title: legal.has("draw") ? "take the top card as it shows" : "the top face duplicates one of your cards (V8): flip it" }, `Draw ${show(view.top)}`) : null,
          view.top ? el("button", { disabled: !legal.has("flip"), onclick: () => ctx.play("flip"), title: "turn the top card over, then take it" }, "Flip & take") : null,
          legal.has("pass") ? el("button", { class: "secondary", onclick: () => ctx.play("pass") }, "Pass") : null) : null,
        // Why a button is greyed out, in words (a tooltip is invisible on touch screens).
        myTurn && view.top && !legal.has("draw") && legal.has("flip")
          ? el("span", { class: "why", "data-testid": "why-draw" }, ...ruleNodes(`You already have ${show(view.top)}: flip the card and take its other side (V8).`, "verso"))
          : null),
      el("div", { style: "flex:1; min-width:160px" },
        el("div", { class: "muted" }, `Discards (${view.discards.length})`),
        el("div", { class: "discards" }, discards.map((c, i) =>
          cardNode(c, { class: i >= discards.length - quietMarks.discarded ? "gone" : "" }))))),
    myTurn ? seriesBar(view, ctx, selected, rerender) : null,
    el("div", { class: "players" }, order.map((p) => playerPanel(view, ctx, p, quietMarks, selected, rerender))),
  ].filter(Boolean));
}

/** The board contract (js/games/README.md): the cards chosen for a series live here. */
export function createBoard(root, context) {
  let selected = new Set(), selectedAt = -1;
  return {
    update(frame) {
      if (selectedAt !== frame.view.version) { selected = new Set(); selectedAt = frame.view.version; }
      render(root, frame.view, { ...frame, play: context.play }, selected);
    },
    describe: (view, names) => (view.events ?? []).map((e) => describe(e, names)),
    dispose() {},
  };
}
