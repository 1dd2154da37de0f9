// What the welcome page says of this game, and its drawing (SVG built from nodes).
import { svg } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

const INK = "#23211d";

// A few unit cubes stacked into a small building, drawn in isometric view.
function rectoVersoArt() {
  const unit = 16;
  const at = (x, y, z) => [100 + (x - y) * unit * 0.87, 88 + (x + y) * unit * 0.5 - z * unit];
  const cube = (x, y, z, fill) => {
    const [cx, cy] = at(x, y, z);
    const h = unit * 0.87, v = unit * 0.5;
    // A face shaded by laying the colour, partly clear, over the ink: solid, darker to the sides.
    const face = (points, shade) => {
      const at = points.map((p) => p.join(",")).join(" ");
      return [svg("polygon", { points: at, fill: INK }),
        svg("polygon", { points: at, fill, "fill-opacity": shade, stroke: INK, "stroke-width": 1, "stroke-linejoin": "round" })];
    };
    return svg("g", {},
      face([[cx, cy - unit], [cx + h, cy - unit + v], [cx, cy - unit + 2 * v], [cx - h, cy - unit + v]], 1),
      face([[cx - h, cy - unit + v], [cx, cy - unit + 2 * v], [cx, cy + 2 * v], [cx - h, cy + v]], 0.82),
      face([[cx, cy - unit + 2 * v], [cx + h, cy - unit + v], [cx + h, cy + v], [cx, cy + 2 * v]], 0.66));
  };
  // Back to front, bottom to top, so nearer cubes cover farther ones.
  const cubes = [[0, 0, 0, "#e3b341"], [1, 0, 0, "#e3b341"], [2, 0, 0, "#e3b341"], [0, 1, 0, "#2f6db5"], [1, 1, 0, "#c0392b"],
    [0, 0, 1, "#2f9461"], [1, 0, 1, "#2f9461"], [0, 0, 2, "#7a3fb0"]]
    .sort((a, b) => a[0] + a[1] - (b[0] + b[1]) || a[2] - b[2]);
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": t("a small building of coloured wooden pieces") },
    svg("ellipse", { cx: 100, cy: 104, rx: 70, ry: 10, fill: "#e0d9cb" }),
    cubes.map(([x, y, z, fill]) => cube(x - 1, y - 1, z, fill)));
}


/** The game in a few words and a drawing, for the welcome page. */
export const about = { title: "Recto Verso", players: t("2 to 6 players, together"), art: rectoVersoArt,
    about: t("A cooperative building game. Each partner sees only their side of the card: talk it through and build the same building together before the round's timer runs out.") };
