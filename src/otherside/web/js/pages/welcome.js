// The welcome of a signed-out visitor: the three games (what each is, a drawing), play at once
// as a guest, or sign in / sign up. The drawings are SVG built from nodes, no image files.
import { el, svg } from "/static/js/core/dom.js";
import { authForm } from "/static/js/core/signin.js";

const INK = "#23211d";
const COLOURS = { blue: "#2f6db5", green: "#2f9461", orange: "#e07b24" };

// A card of Verso with one face up: its colour, value and points.
function card(x, y, turn, colour, value, points) {
  return svg("g", { transform: `translate(${x} ${y}) rotate(${turn})` },
    svg("rect", { x: -26, y: -38, width: 52, height: 76, rx: 7, fill: "#fffdf8", stroke: INK, "stroke-width": 1.5 }),
    svg("rect", { x: -21, y: -33, width: 42, height: 66, rx: 5, fill: COLOURS[colour] }),
    svg("text", { x: 0, y: 9, "text-anchor": "middle", "font-size": 28, "font-weight": 800, fill: "#fff" }, value),
    svg("text", { x: 15, y: -19, "text-anchor": "end", "font-size": 10, "font-weight": 700, fill: "#fff" }, `${points} VP`));
}

function versoArt() {
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": "three Verso cards fanned out, blue 3, green 4 and orange 5" },
    card(62, 64, -14, "blue", "3", 3), card(100, 58, 0, "green", "4", 1), card(138, 64, 14, "orange", "5", 3));
}

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
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": "a hexagonal VERSUS board with blue and brown stones" }, cells, stones);
}

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
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": "a small building of coloured wooden pieces" },
    svg("ellipse", { cx: 100, cy: 104, rx: 70, ry: 10, fill: "#e0d9cb" }),
    cubes.map(([x, y, z, fill]) => cube(x - 1, y - 1, z, fill)));
}

const GAMES = [
  { name: "verso", title: "Verso", players: "1 to 6 players", art: versoArt,
    about: "A card game where every card has two faces. Take the top card as it shows or flip it first, gather runs of one colour, and bank them for points before the pile runs out." },
  { name: "versus", title: "VERSUS", players: "2 players", art: versusArt,
    about: "A duel on a hexagonal board. Move, push and turn over stones whose centre says who controls them, and be the first to hold the targets on the middle line." },
  { name: "rectoverso", title: "Recto Verso", players: "2 to 6 players, together", art: rectoVersoArt,
    about: "A cooperative building game. Each partner sees only their side of the card: talk it through and build the same building together before the round's timer runs out." },
];

/**
 * Fill `root` with the welcome: the games, "Play now" as a guest, and the sign in / sign up form.
 * @param {Element} root
 * @param {function(object): void} done called with the user once signed in
 */
export function welcome(root, done) {
  root.replaceChildren(
    el("div", { class: "welcome-hero" },
      el("h1", {}, "Three games to play with friends, or against bots"),
      el("p", {}, "Live at the table or a move a day. No download, nothing to install."),
      el("div", { class: "row" },
        el("button", { type: "button", id: "play-now", class: "big", onclick: () => document.getElementById("guest-btn").click() }, "Play now"),
        el("a", { class: "button big secondary", href: "#auth-form", onclick: (event) => {
          event.preventDefault();
          document.getElementById("name").focus();
        } }, "Sign in or sign up"))),
    el("div", { class: "welcome-games" }, GAMES.map((game) => el("article", { class: "panel game-card", "data-game": game.name },
      el("div", { class: "game-art" }, game.art()),
      el("h2", {}, game.title, " ", el("span", { class: "muted" }, game.players)),
      el("p", {}, game.about),
      el("a", { href: `/rules/${game.name}` }, "Read the rules")))),
    el("section", { class: "panel welcome-auth" },
      el("h2", {}, "Sign in to keep your games and your rating"),
      authForm({ done, guestLabel: "Play now as a guest" })));
}
