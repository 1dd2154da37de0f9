// What the welcome page says of this game, and its drawing (SVG built from nodes).
import { svg } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

const INK = "#23211d";

// A small hexagonal board with the middle line of targets and a few stones of each side.
function versusArt() {
  const size = 10.5, cells = [];
  const centre = (q, r) => [100 + size * Math.sqrt(3) * (q + r / 2), 60 + size * 1.5 * r];
  const hex = (cx, cy) => Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 3) * i + Math.PI / 6;
    return `${(cx + size * Math.cos(angle)).toFixed(1)},${(cy + size * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
  for (let q = -3; q <= 3; q++) {
    for (let r = -3; r <= 3; r++) {
      if (Math.abs(q + r) > 3) continue;
      const [cx, cy] = centre(q, r);
      cells.push(svg("polygon", { points: hex(cx, cy), fill: r === 0 && q !== 0 ? "#cfc8bb" : "#efe8d8", stroke: "#b9ae98", "stroke-width": 1 }));
    }
  }
  const stones = [[-1, -2, "#2f6db5"], [1, -3, "#2f6db5"], [2, -1, "#2f6db5"], [-2, 2, "#8a5a2b"], [0, 1, "#8a5a2b"], [1, 2, "#8a5a2b"]]
    .map(([q, r, fill]) => {
      const [cx, cy] = centre(q, r);
      return svg("circle", { cx, cy, r: 7.5, fill, stroke: "#fff", "stroke-width": 2 });
    });
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": t("a hexagonal VERSUS board with blue and brown stones") }, cells, stones);
}


/** The game in a few words and a drawing, for the welcome page. */
export const about = { title: "VERSUS", players: t("2 players"), art: versusArt,
    about: t("A duel on a hexagonal board. Move, push and turn over stones whose centre says who controls them, and be the first to hold the targets on the middle line.") };
