// What a seat knows about the build site, and where a piece would go.
//
// R5 makes every column of the site solid from the ground up (no cube above an empty cell), so
// the top view (R9: colour and level of the highest cube of each cell) gives the exact shape
// of the building: column (x, y) holds cubes at levels 0 … z. A builder also knows the colour
// of the cube on top of each column (top view) and of the cube nearest to them in each column
// and level of their side (their own view, R7/R8). Every other cube is there but of unknown
// colour; it can only show as a side face in a drawing. Players who are not building get the
// placements, so every cube's colour.
//
// Everything here is in the *player frame*: sx = 0…3 from the player's left, sy = 0…3 from the
// player's edge of the site away from them, z up. Recto's frame is the site's (x, y); verso's
// is the half turn (R8).
import { t } from "/static/js/core/i18n.js";
import { BY_LETTER, BY_NAME, PIECES, SITE, anchorOf, cap, parsePlacement, pieceWords, placeAction, toPlayer, toSite } from "./pieces.js";

export const key = (x, y, z) => `${x},${y},${z}`;

/** The pieces of the game's difficulty (R2). */
export const piecesOf = (difficulty) => PIECES.filter((p) => difficulty === "hard" || p.name !== "red");

/** The seat's role this round: "front" (recto), "back" (verso) or null (not building). */
export function roleOf(view, seat) {
  if (seat === null || seat === undefined || view.phase !== "build") return null;
  if (seat === view.recto) return "front";
  if (seat === view.verso) return "back";
  return null;
}

/** The site as `view` lets its reader know it, in the frame of `side`.
 * Returns {side, heights[sx][sy], cubes: Map(key → letter or null), maxHeight}. */
export function siteModel(view, side) {
  const heights = Array.from({ length: SITE }, () => Array(SITE).fill(0));
  const cubes = new Map();
  const tops = {};
  (view.top ?? []).forEach((row, r) => {
    row.split(" ").forEach((cell, x) => {
      if (cell === ".") return;
      const [sx, sy] = toPlayer([x, SITE - 1 - r, 0], side);
      heights[sx][sy] = Number(cell.slice(1)) + 1;
      tops[`${sx},${sy}`] = cell[0];
    });
  });
  for (let sx = 0; sx < SITE; sx += 1) {
    for (let sy = 0; sy < SITE; sy += 1) {
      for (let z = 0; z < heights[sx][sy]; z += 1) cubes.set(key(sx, sy, z), null);
      if (heights[sx][sy]) cubes.set(key(sx, sy, heights[sx][sy] - 1), tops[`${sx},${sy}`]);
    }
  }
  const placements = view.construction?.placements;
  if (placements) {
    for (const text of placements) {
      const { name, cells } = parsePlacement(text);
      for (const cell of cells) cubes.set(key(...toPlayer(cell, side)), BY_NAME[name].letter);
    }
  } else {
    const own = view.construction?.[side] ?? [];
    own.forEach((row, r) => {
      const z = own.length - 1 - r;
      [...row].forEach((letter, sx) => {
        if (letter === ".") return;
        for (let sy = 0; sy < SITE; sy += 1) {
          if (heights[sx][sy] > z) { cubes.set(key(sx, sy, z), letter); break; }
        }
      });
    });
  }
  const maxHeight = Math.max(0, ...heights.flat());
  return { side, heights, cubes, maxHeight };
}

/** The view from the player's side (rows per level, top first, as the engine writes views)
 * of the model plus some extra cubes ([[sx, sy, z, letter]]), `levels` levels high. */
export function sideView(model, extra, levels) {
  const rows = [];
  for (let z = levels - 1; z >= 0; z -= 1) {
    let row = "";
    for (let sx = 0; sx < SITE; sx += 1) {
      let seen = ".";
      for (let sy = 0; sy < SITE && seen === "."; sy += 1) {
        if (model.cubes.has(key(sx, sy, z))) seen = model.cubes.get(key(sx, sy, z)) ?? "?";
        else {
          const ghost = extra.find((c) => c[0] === sx && c[1] === sy && c[2] === z);
          if (ghost) seen = ghost[3];
        }
      }
      row += seen;
    }
    rows.push(row);
  }
  return rows;
}

const ORDINAL = [t("1st"), t("2nd"), t("3rd"), t("4th")];
const columnWords = (sx, sy) => t("{column} column from your left, {row} row from you", { column: ORDINAL[sx], row: ORDINAL[sy] });

/** Where `name`, turned to `cells` (player frame) and held by its anchor cube at the site cell
 * `target` = [sx, sy], would go: the lowest placement there that the server lists as legal.
 * Returns {cells (player frame, with z), action (notation) or null, reason (words) or null,
 * floating (indices of cubes that would hang above an empty cell)}. */
export function aim(model, name, cells, target, legal) {
  const anchor = anchorOf(cells);
  const dx = target[0] - anchor[0], dy = target[1] - anchor[1];
  const flat = cells.map(([x, y, z]) => [x + dx, y + dy, z]);
  const outside = flat.some(([x, y]) => x < 0 || y < 0 || x >= SITE || y >= SITE);
  const piece = BY_NAME[name];
  if (outside) {
    return { cells: flat, action: null, floating: [], outside: true,
      reason: t("Not there (R4): {piece} would stick out of the 4 × 4 site.", { piece: pieceWords(piece.name) }) };
  }
  const h = (x, y) => model.heights[x][y];
  const rest = Math.max(0, ...flat.map(([x, y, z]) => h(x, y) - z));
  for (let z0 = 0; z0 <= rest; z0 += 1) {
    const placed = flat.map(([x, y, z]) => [x, y, z + z0]);
    const action = placeAction(name, placed.map((c) => toSite(c, model.side)));
    if (legal.has(action)) return { cells: placed, action, reason: null, floating: [] };
  }
  const placed = flat.map(([x, y, z]) => [x, y, z + rest]);
  const own = new Set(placed.map((c) => key(...c)));
  const floating = [];
  placed.forEach(([x, y, z], i) => {
    if (z > 0 && !own.has(key(x, y, z - 1)) && h(x, y) < z) floating.push(i);
  });
  let reason;
  if (floating.length) {
    const [x, y] = placed[floating[0]];
    reason = t("Not supported (R5): the cube marked ! of {piece} would stand above an empty cell ({where}).",
      { piece: pieceWords(piece.name), where: columnWords(x, y) });
  } else if (!legal.size) {
    reason = t("You cannot place pieces now.");
  } else {
    reason = cap(t("{piece} cannot go there.", { piece: pieceWords(piece.name) }));
  }
  return { cells: placed, action: null, reason, floating };
}

/** Why a placed piece cannot be picked up, or null when `remove <name>` is legal. */
export function pickUpProblem(name, legal) {
  if (legal.has(`remove ${name}`)) return null;
  if (![...legal].some((a) => a.startsWith("place ") || a === "done")) return t("You cannot change the building now.");
  return t("Another piece rests on {piece}: take that one off first (R5).", { piece: pieceWords(name) });
}

export const pieceOfLetter = (letter) => BY_LETTER[letter] ?? null;
