// The whole Recto Verso position in words, for a screen reader (the table's "Describe the
// position"): what the reader may see of the round — their side of the card and of the
// building level by level, the top view row by row (R9), the pieces still to place, the clock —
// built from the same view as the drawings, never from anything the view does not carry.
import { semicolons, t, tn } from "/static/js/core/i18n.js";
import { BY_LETTER, SITE, colourName } from "./pieces.js";
import { key, piecesOf, roleOf, siteModel } from "./model.js";
import { clockText, summary, who } from "./rounds.js";

const SIDE_WORDS = { front: "recto", back: "verso" };
const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);
const cellName = (letter) => (letter === "." ? t("empty") : colourName(BY_LETTER[letter]?.name ?? letter));

/** A side view (rows per level, top first) as one sentence per level, ground first. */
function sideLines(rows) {
  const lines = [];
  for (let z = 0; z < rows.length; z += 1) {
    const row = rows[rows.length - 1 - z];
    if (![...row].some((letter) => letter !== ".")) continue;
    lines.push(t("height {level}, from your left: {cells}.", { level: z + 1, cells: [...row].map(cellName).join(", ") }));
  }
  return lines.length ? lines : [t("nothing yet.")];
}

/** The top view in the reader's frame, the far row first, as one sentence per row. */
function topLines(view, side) {
  const model = siteModel(view, side);
  if (!model.maxHeight) return [t("Top view: empty ground.")];
  const lines = [];
  for (let sy = SITE - 1; sy >= 0; sy -= 1) {
    const cells = [];
    for (let sx = 0; sx < SITE; sx += 1) {
      const h = model.heights[sx][sy];
      const letter = h ? model.cubes.get(key(sx, sy, h - 1)) : null;
      cells.push(h ? tn("{colour} on top, {count} level high", "{colour} on top, {count} levels high", h,
        { colour: letter ? colourName(BY_LETTER[letter].name) : "?" }) : t("empty ground"));
    }
    lines.push(t("Top view, row {row} from the far edge: {cells}.", { row: SITE - sy, cells: semicolons(cells) }));
  }
  return lines;
}

/**
 * When a bot waiting for a person's "ready" starts the next round (tables/ready.py), in a
 * sentence: when someone at the table is ready, or after the seconds left.
 * @param {object} view the server's view, between rounds
 * @param {{seat: number|null, names: string[], botWaits: boolean}} ctx
 * @param {number} left seconds until the bot goes on by itself
 */
function waitLine(view, ctx, left) {
  const seconds = Math.ceil(left);
  if (view.players !== 2) {
    return seconds > 0 ? t("The next round starts when a player is ready, or in {seconds} s.", { seconds })
      : t("The next round starts now.");
  }
  if (seconds <= 0) return t("The next card comes now.");
  return ctx.botWaits ? t("The next card comes when you are ready, or in {seconds} s.", { seconds })
    : t("The next card comes when {name} is ready, or in {seconds} s.", { name: who(ctx.names ?? [], 1 - view.active), seconds });
}

/**
 * The position in sentences.
 * @param {object} view the server's view
 * @param {{seat: number|null, names: string[], botWaits?: boolean}} ctx
 * @param {number} elapsed seconds of the round gone by now (the view's, plus the time since)
 * @param {number|null} waitLeft between rounds, seconds until a bot waiting for a person's
 *   "ready" starts the next round by itself; null when no bot waits
 * @returns {string[]}
 */
export function positionLines(view, ctx, elapsed, waitLeft = null) {
  const names = ctx.names ?? [];
  const role = roleOf(view, ctx.seat);
  if (view.phase !== "build") {
    const said = summary(view, names);
    const waits = view.phase === "start" && waitLeft !== null;
    return [said ? sentence(said) : t("The next card is not revealed yet."),
      // Levels are the cooperative game's (R16); at 3 to 6 the scores count.
      ...(view.players === 2 ? [t("Level {level}.", { level: Math.min(view.level + 1, 7) })] : []),
      ...(waits ? [waitLine(view, ctx, waitLeft)] : [])];
  }
  const limit = view.clock.limit;
  const lines = [sentence(summary(view, names)),
    t("Time left: {left} of {limit}.", { left: clockText(Math.max(0, limit - elapsed)), limit: clockText(limit) })];
  if (role) {
    const side = SIDE_WORDS[role];
    const partner = role === "front" ? view.verso : view.recto;
    lines.push(role === "front" ? t("You build from the front ({side}).", { side }) : t("You build from the back ({side}).", { side }));
    lines.push(sentence(t("Partner: {name} ({side})", { name: who(names, partner), side: SIDE_WORDS[role === "front" ? "back" : "front"] })
      + ", " + (view.done.includes(partner) ? t("said “Recto”: done") : t("building"))));
    lines.push(t("Your side of the card:"), ...sideLines(view.card?.[role] ?? []));
    lines.push(t("Your side of the building:"), ...sideLines(view.construction?.[role] ?? []));
  }
  lines.push(...topLines(view, role ?? "front"));
  const unplaced = piecesOf(view.difficulty).filter((p) => view.unplaced.includes(p.name)).map((p) => colourName(p.name));
  lines.push(unplaced.length ? tn("{count} piece to place: {pieces}.", "{count} pieces to place: {pieces}.", unplaced.length, { pieces: unplaced.join(", ") })
    : sentence(t("every piece placed")));
  return lines;
}
