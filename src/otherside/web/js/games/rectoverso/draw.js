// Drawings: the site in 3D from the player's side (SVG), pieces, the top view and the side views
// (HTML grids). Every cube carries its piece letter, so colour is never the only cue.
import { el } from "/static/js/core/dom.js";
import { t, tn } from "/static/js/core/i18n.js";
import { BY_LETTER, BY_NAME, SITE, anchorOf, colourName } from "./pieces.js";
import { key } from "./model.js";

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** `hex` lightened (f > 0) towards white or darkened (f < 0) towards black. */
export function shade(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(f >= 0 ? c + (255 - c) * f : c * (1 + f));
  return `rgb(${mix(n >> 16)}, ${mix((n >> 8) & 255)}, ${mix(n & 255)})`;
}

const UNKNOWN = "#cdc4b3";

/** An oblique projection seen from the player's side, a little from above and to the right:
 * fronts face the player, tops and right sides show. */
function projector(unit, originX, originY) {
  const w = unit, h = unit * 0.88, dx = unit * 0.42, dy = unit * 0.46;
  const at = (x, y, z) => [originX + x * w + y * dx, originY - z * h - y * dy];
  return { w, h, dx, dy, at };
}

const points = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
const centre = (list) => [list.reduce((s, p) => s + p[0], 0) / list.length, list.reduce((s, p) => s + p[1], 0) / list.length];

/** The faces of the cube at (x, y, z) not hidden by `filled` neighbours, as SVG nodes. */
function cubeFaces(P, x, y, z, filled, look) {
  const nodes = [];
  const face = (corners, fill, which) => {
    const polygon = svg("polygon", { points: points(corners.map((c) => P.at(...c))), fill, class: `face ${which} ${look.class ?? ""}`, ...look.attrs });
    nodes.push(polygon);
    return corners;
  };
  const front = !filled(x, y - 1, z), top = !filled(x, y, z + 1), right = !filled(x + 1, y, z);
  const base = look.colour ?? UNKNOWN;
  if (front) {
    const corners = face([[x, y, z], [x + 1, y, z], [x + 1, y, z + 1], [x, y, z + 1]], base, "front");
    if (look.letter) nodes.push(letterAt(P, corners, look, P.w * 0.4));
  }
  if (top) {
    const corners = face([[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], look.colour ? shade(base, 0.22) : shade(UNKNOWN, 0.15), "top");
    if (look.letter && !front) nodes.push(letterAt(P, corners, look, P.w * 0.3));
  }
  if (right) face([[x + 1, y, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x + 1, y, z + 1]], look.colour ? shade(base, -0.25) : shade(UNKNOWN, -0.18), "right");
  return nodes;
}

function letterAt(P, corners, look, size) {
  const [cx, cy] = centre(corners.map((c) => P.at(...c)));
  return svg("text", { x: cx.toFixed(1), y: (cy + size * 0.36).toFixed(1), "font-size": size.toFixed(1), fill: look.ink, class: "letter" }, look.letter);
}

const paintOrder = (a, b) => b[1] - a[1] || a[2] - b[2] || a[0] - b[0];

function lookOf(letter, extra = {}) {
  const piece = letter ? BY_LETTER[letter] : null;
  if (!piece) return { colour: null, letter: "", class: "unknown", ...extra };
  return { colour: piece.colour, ink: piece.ink, letter: piece.letter.toUpperCase(), ...extra };
}

/** The site in 3D. `ghost`: {cells, letter, ok, floating}; `lift`: a letter whose cubes are
 * outlined (a piece that can be picked up under the pointer); `levels`: the height to make
 * room for (the card's), marked on a gauge at the back edge; `near`: the label of the
 * player's edge.
 * Floor tiles and cube faces carry data-sx / data-sy (and data-letter for a known cube). */
export function siteDrawing(model, { ghost = null, lift = null, levels = 4, near = "" } = {}) {
  const unit = 56;
  // One level of room above the building; a ghost higher still overflows upwards, so that the
  // drawing never rescales (and moves its cells) under the pointer.
  const top = Math.max(levels, model.maxHeight + 1);
  const probe = projector(unit, 0, 0);
  const width = SITE * probe.w + SITE * probe.dx;
  const height = top * probe.h + SITE * probe.dy;
  const pad = 12, left = 6, label = near ? 24 : 0;
  const P = projector(unit, left, pad + height);
  const root = svg("svg", {
    class: "rv-iso", viewBox: `0 0 ${(width + left + pad).toFixed(0)} ${(height + 2 * pad + label).toFixed(0)}`,
    role: "img", "aria-label": t("the build site seen from your side"),
  });
  const floor = svg("g", { class: "floor" });
  const gauge = svg("g", { class: "gauge", "aria-hidden": "true" });
  for (let z = 1; z <= levels; z += 1) {
    gauge.append(svg("polyline", { points: points([P.at(0, SITE, z), P.at(SITE, SITE, z)]) }));
    const [gx, gy] = P.at(0, SITE, z - 0.5);
    gauge.append(svg("text", { x: (gx - 7).toFixed(1), y: (gy + 4).toFixed(1) }, String(z)));
  }
  for (const x of [0, SITE]) gauge.append(svg("polyline", { class: "post", points: points([P.at(x, SITE, 0), P.at(x, SITE, levels)]) }));
  floor.append(gauge);
  floor.append(svg("polygon", { class: "board", points: points([P.at(-0.12, -0.12, 0), P.at(SITE + 0.12, -0.12, 0), P.at(SITE + 0.12, SITE + 0.12, 0), P.at(-0.12, SITE + 0.12, 0)]) }));
  for (let sy = SITE - 1; sy >= 0; sy -= 1) {
    for (let sx = 0; sx < SITE; sx += 1) {
      floor.append(svg("polygon", { class: "tile", "data-sx": sx, "data-sy": sy, points: points([P.at(sx, sy, 0), P.at(sx + 1, sy, 0), P.at(sx + 1, sy + 1, 0), P.at(sx, sy + 1, 0)]) }));
    }
  }
  root.append(floor);
  // The ghost is painted in depth order with the cubes (so nearer cubes hide it), then its
  // outline once more on top, so that a hidden part still shows where it goes.
  const filled = (x, y, z) => model.cubes.has(key(x, y, z));
  const own = new Set((ghost?.cells ?? []).map((c) => key(...c)));
  const inGhost = (x, y, z) => own.has(key(x, y, z));
  const items = [...model.cubes.keys()].map((k) => [...k.split(",").map(Number), -1]);
  (ghost?.cells ?? []).forEach((c, i) => items.push([...c, i]));
  const body = svg("g", { class: "cubes" });
  const outline = svg("g", { class: `ghost-outline ${ghost?.ok ? "ok" : "bad"}`, "aria-hidden": "true" });
  for (const [x, y, z, i] of items.sort(paintOrder)) {
    if (i < 0) {
      const letter = model.cubes.get(key(x, y, z));
      const attrs = { "data-sx": x, "data-sy": y, ...(letter ? { "data-letter": letter } : {}) };
      body.append(...cubeFaces(P, x, y, z, filled, lookOf(letter, { attrs, class: letter && letter === lift ? "lift" : "" })));
      continue;
    }
    const piece = BY_LETTER[ghost.letter];
    const floating = ghost.floating.includes(i);
    body.append(...cubeFaces(P, x, y, z, inGhost, {
      colour: piece.colour, ink: piece.ink, letter: floating ? "!" : piece.letter.toUpperCase(),
      class: `ghost-face ${ghost.ok ? "ok" : "bad"} ${floating ? "floating" : ""}`,
    }));
    outline.append(...cubeFaces(P, x, y, z, inGhost, { colour: piece.colour, letter: "", class: "outline" }));
  }
  root.append(body);
  if (ghost) root.append(outline);
  if (near) {
    const [nx, ny] = P.at(SITE / 2, 0, 0);
    root.append(svg("text", { x: nx, y: ny + 19, class: "edge" }, near));
  }
  return root;
}

/** A piece drawn small in 3D: `cells` in the player frame, its anchor cube marked. */
export function pieceDrawing(name, cells, unit = 22, { anchor = true } = {}) {
  const piece = BY_NAME[name];
  const P0 = projector(unit, 0, 0);
  const ext = (i) => Math.max(...cells.map((c) => c[i])) + 1;
  const width = ext(0) * P0.w + ext(1) * P0.dx, height = ext(2) * P0.h + ext(1) * P0.dy;
  const P = projector(unit, 2, height + 2);
  const own = new Set(cells.map((c) => key(...c)));
  const root = svg("svg", { class: "rv-piece-drawing", viewBox: `0 0 ${(width + 4).toFixed(0)} ${(height + 4).toFixed(0)}`, width: (width + 4).toFixed(0), height: (height + 4).toFixed(0), "aria-hidden": "true" });
  for (const [x, y, z] of [...cells].sort(paintOrder)) {
    root.append(...cubeFaces(P, x, y, z, (a, b, c) => own.has(key(a, b, c)), { colour: piece.colour, ink: piece.ink, letter: unit >= 16 ? piece.letter.toUpperCase() : "" }));
  }
  if (anchor && cells.length > 1) {
    const [x, y, z] = anchorOf(cells);
    const [cx, cy] = P.at(x + 0.5, y, z + 0.14);
    root.append(svg("circle", { cx, cy, r: Math.max(2, unit * 0.09), class: "anchor" }));
  }
  return root;
}

/** One cell of a side view or of the top view. */
export function cubeCell(letter, extra = {}) {
  const piece = letter && letter !== "." ? BY_LETTER[letter] : null;
  const style = piece ? `--c:${piece.colour};--ink:${piece.ink}` : null;
  return el("div", { class: `rv-cell ${piece ? "cube" : "empty"} ${extra.class ?? ""}`, style, ...extra.attrs },
    piece ? piece.letter.toUpperCase() : "", extra.mark ? el("span", { class: "mark", "aria-hidden": "true" }, extra.mark) : null);
}

/** A side view (rows per level, top first) as a grid `levels` high, with level numbers.
 * `compare`: the card's rows, to mark each cell ✓ (same colour), ✗ (different, or a cube the
 * card does not show) or "missing" (the card shows a cube, the building nothing yet).
 * `ghost`: rows of the view with the previewed piece, to show what it would change. */
export function sideGrid(rows, levels, { compare = null, ghost = null, side = "", testid = null, pick = false } = {}) {
  const at = (view, z) => (view && view.length - 1 - z >= 0 && view[view.length - 1 - z]) || "....";
  const cells = [];
  for (let z = levels - 1; z >= 0; z -= 1) {
    cells.push(el("div", { class: "rv-level" }, String(z + 1)));
    for (let sx = 0; sx < SITE; sx += 1) {
      let built = at(rows, z)[sx];
      const wanted = compare ? at(compare, z)[sx] : null;
      const preview = ghost ? at(ghost, z)[sx] : built;
      const previewing = preview !== built;
      if (previewing) built = preview;
      let mark = null, state = "";
      if (compare && built !== ".") { state = built === wanted ? "ok" : "wrong"; mark = state === "ok" ? "✓" : "✗"; }
      else if (compare && wanted !== ".") state = "missing";
      cells.push(cubeCell(built, {
        class: `${state} ${previewing ? "preview" : ""}`, mark,
        attrs: { "data-z": z, "data-col": sx, ...(pick && built !== "." && !previewing ? { "data-letter": built } : {}),
          title: compare ? cellTitle(built, wanted, previewing) : null },
      }));
    }
  }
  return el("div", { class: "rv-grid rv-side", "data-side": side || null, "data-testid": testid, style: `--levels:${levels}` }, cells);
}

function cellTitle(built, wanted, previewing) {
  const name = (l) => colourName(BY_LETTER[l]?.name);
  let words;
  if (built === "." && wanted === ".") words = t("empty, as on the card");
  else if (built === ".") words = t("the card shows {colour} here", { colour: name(wanted) });
  else if (built === wanted) words = t("{colour}, as on the card", { colour: name(built) });
  else if (wanted === ".") words = t("{colour} here, the card shows nothing", { colour: name(built) });
  else words = t("{colour} here, the card shows {wanted}", { colour: name(built), wanted: name(wanted) });
  return previewing ? t("with this piece: {words}", { words }) : words;
}

/** Counts for a side view against the card: {right, needed, wrong, differ}: cubes as on the
 * card, cubes on the card, cubes not as on the card, cells not as on the card. */
export function matchCount(rows, card, levels) {
  const at = (view, z) => (view && view.length - 1 - z >= 0 && view[view.length - 1 - z]) || "....";
  let right = 0, needed = 0, wrong = 0, differ = 0;
  for (let z = 0; z < levels; z += 1) {
    for (let sx = 0; sx < SITE; sx += 1) {
      const b = at(rows, z)[sx], c = at(card, z)[sx];
      if (c !== ".") needed += 1;
      if (b !== c) differ += 1;
      if (b !== "." && b === c) right += 1;
      else if (b !== ".") wrong += 1;
    }
  }
  return { right, needed, wrong, differ };
}

/** The top view (R9) from the player's side: the far row on top. Cells carry data-sx/sy. */
export function topGrid(model, { ghost = null, pick = false } = {}) {
  const ghostTop = new Map();
  if (ghost) for (const [x, y, z] of ghost.cells) ghostTop.set(`${x},${y}`, Math.max(z, ghostTop.get(`${x},${y}`) ?? -1));
  const cells = [];
  for (let sy = SITE - 1; sy >= 0; sy -= 1) {
    for (let sx = 0; sx < SITE; sx += 1) {
      const h = model.heights[sx][sy];
      const g = ghostTop.get(`${sx},${sy}`);
      const previewing = g !== undefined;
      const letter = previewing ? ghost.letter : h ? model.cubes.get(key(sx, sy, h - 1)) : ".";
      const level = previewing ? g + 1 : h;
      const piece = BY_LETTER[letter];
      cells.push(cubeCell(letter, {
        class: `${previewing ? `preview ${ghost.ok ? "" : "bad"}` : ""} h${Math.min(level, 5)}`,
        mark: level ? String(level) : null,
        attrs: { "data-sx": sx, "data-sy": sy, ...(pick && piece && !previewing ? { "data-letter": letter } : {}),
          title: level ? tn("{colour} on top, {count} level high", "{colour} on top, {count} levels high", level, { colour: piece ? colourName(piece.name) : "?" })
            : t("empty ground") },
      }));
    }
  }
  return el("div", { class: "rv-grid rv-top", "data-testid": "top-view" }, cells);
}
