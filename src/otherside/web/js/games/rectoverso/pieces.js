// Recto Verso pieces for the browser: names, letters, colours, shapes and orientations (R1, R4),
// and the placement notation. The engine (games/rectoverso/pieces.py) is the authority; this is
// only what the page needs to draw pieces and to name a placement the way the server does.
import { t } from "/static/js/core/i18n.js";

// R1, in the engine's canonical order. `ink` is the text colour readable on the piece.
export const PIECES = [
  { name: "black", letter: "k", shape: "cube", colour: "#2a2a2e", ink: "#fff" },
  { name: "white", letter: "w", shape: "cube", colour: "#f6f3ea", ink: "#333" },
  { name: "grey", letter: "a", shape: "cube", colour: "#9ba1a8", ink: "#1d1d1d" },
  { name: "brown", letter: "n", shape: "cube", colour: "#8a5a2e", ink: "#fff" },
  { name: "green", letter: "g", shape: "bar-2", colour: "#2f9462", ink: "#fff" },
  { name: "pink", letter: "p", shape: "bar-2", colour: "#f78fb8", ink: "#3a1020" },
  { name: "violet", letter: "v", shape: "bar-2", colour: "#7c55c4", ink: "#fff" },
  { name: "orange", letter: "o", shape: "bar-2", colour: "#f5891f", ink: "#2b1600" },
  { name: "yellow", letter: "y", shape: "bar-3", colour: "#f7cf2a", ink: "#332800" },
  { name: "blue", letter: "b", shape: "L-3", colour: "#2166d1", ink: "#fff" },
  { name: "red", letter: "r", shape: "L-4", colour: "#d53a32", ink: "#fff" },
];
export const BY_NAME = Object.fromEntries(PIECES.map((p) => [p.name, p]));
export const BY_LETTER = Object.fromEntries(PIECES.map((p) => [p.letter, p]));
export const SITE = 4;

// What players call a piece: its colour, and "the yellow piece" as a whole phrase (the
// adjective agrees with the noun in German, French and Dutch). The notation keeps the
// English names (the server's).
const COLOUR_WORDS = {
  black: t("black"), white: t("white"), grey: t("grey"), brown: t("brown"), green: t("green"), pink: t("pink"),
  violet: t("violet"), orange: t("orange"), yellow: t("yellow"), blue: t("blue"), red: t("red"),
};
const PIECE_WORDS = {
  black: t("the black piece"), white: t("the white piece"), grey: t("the grey piece"), brown: t("the brown piece"),
  green: t("the green piece"), pink: t("the pink piece"), violet: t("the violet piece"), orange: t("the orange piece"),
  yellow: t("the yellow piece"), blue: t("the blue piece"), red: t("the red piece"),
};
/** A piece's colour in the reader's language ("gelb"). */
export const colourName = (name) => COLOUR_WORDS[name] ?? name;
/** "the yellow piece" in the reader's language ("das gelbe Bauteil"). */
export const pieceWords = (name) => PIECE_WORDS[name] ?? name;
/** A sentence's first letter in capitals. */
export const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

const SHAPES = {
  cube: [[0, 0, 0]],
  "bar-2": [[0, 0, 0], [1, 0, 0]],
  "bar-3": [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
  "L-3": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  "L-4": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
};

const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Cells moved so that the smallest coordinate on each axis is 0, sorted like the engine. */
export function normalise(cells) {
  const low = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
  return cells.map((c) => [c[0] - low[0], c[1] - low[1], c[2] - low[2]]).sort(compare);
}

export const shapeKey = (cells) => cells.map((c) => c.join(",")).join(" ");

function rotations() {
  const result = [];
  const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  for (const perm of perms) {
    const parity = (perm[0] > perm[1]) + (perm[0] > perm[2]) + (perm[1] > perm[2]);
    for (const sx of [1, -1]) for (const sy of [1, -1]) for (const sz of [1, -1]) {
      if ((parity % 2 ? -1 : 1) * sx * sy * sz === 1) result.push([perm, [sx, sy, sz]]);
    }
  }
  return result;
}

const cache = new Map();

/** A shape's distinct orientations (R4: the 24 rotations of space, deduplicated), lying flat
 * ones first, each as normalised cells. Orientations are symmetric under the half turn that
 * takes recto's frame to verso's, so the same list serves both partners. */
export function orientations(shape) {
  if (!cache.has(shape)) {
    const seen = new Map();
    for (const [perm, signs] of rotations()) {
      const cells = normalise(SHAPES[shape].map((c) => perm.map((axis, i) => signs[i] * c[axis])));
      seen.set(shapeKey(cells), cells);
    }
    const extent = (cells, i) => Math.max(...cells.map((c) => c[i]));
    cache.set(shape, [...seen.values()].sort((a, b) =>
      extent(a, 2) - extent(b, 2) || extent(b, 0) - extent(a, 0) || shapeKey(a).localeCompare(shapeKey(b))));
  }
  return cache.get(shape);
}

/** The cube a piece is held by: lowest, then nearest to the player, then leftmost. */
export function anchorOf(cells) {
  return [...cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0])[0];
}

/** Player frame (sx left to right as the player sees it, sy from the player's edge away)
 * to the site's cells (R3). Recto sits at the front (y = 0); verso at the back, so their
 * left is x = 3 (R8). */
export function toSite([sx, sy, z], side) {
  return side === "back" ? [SITE - 1 - sx, SITE - 1 - sy, z] : [sx, sy, z];
}
export const toPlayer = toSite;  // the half turn is its own inverse

/** The notation of placing `name` on site cells, cells sorted as the engine sorts them. */
export function placeAction(name, cells) {
  return `place ${name} ${[...cells].sort(compare).map((c) => c.join(",")).join(" ")}`;
}

/** "place yellow 0,0,0 1,0,0 2,0,0" (or without "place") → {name, cells}. */
export function parsePlacement(text) {
  const words = text.trim().split(/\s+/);
  if (words[0] === "place") words.shift();
  return { name: words[0], cells: words.slice(1).map((w) => w.split(",").map(Number)) };
}
