// What the welcome page says of this game, and its drawing (SVG built from nodes).
import { svg } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

const INK = "#23211d";
const COLOURS = { blue: "#2f6db5", green: "#257a50", orange: "#ad530c" };

// A card of Verso with one face up: its colour, value and points.
function card(x, y, turn, colour, value, points) {
  return svg("g", { transform: `translate(${x} ${y}) rotate(${turn})` },
    svg("rect", { x: -26, y: -38, width: 52, height: 76, rx: 7, fill: "#fffdf8", stroke: INK, "stroke-width": 1.5 }),
    svg("rect", { x: -21, y: -33, width: 42, height: 66, rx: 5, fill: COLOURS[colour] }),
    svg("text", { x: 0, y: 9, "text-anchor": "middle", "font-size": 28, "font-weight": 800, fill: "#fff" }, value),
    svg("text", { x: 15, y: -19, "text-anchor": "end", "font-size": 10, "font-weight": 700, fill: "#fff" }, t("{points} VP", { points })));
}

function versoArt() {
  return svg("svg", { viewBox: "0 0 200 120", role: "img", "aria-label": t("three Verso cards fanned out, blue 3, green 4 and orange 5") },
    card(62, 64, -14, "blue", "3", 3), card(100, 58, 0, "green", "4", 1), card(138, 64, 14, "orange", "5", 3));
}


/** The game in a few words and a drawing, for the welcome page. */
export const about = { title: "Verso", players: t("1 to 6 players"), art: versoArt,
    about: t("A card game where every card has two faces. Take the top card as it shows or flip it first, gather runs of one colour, and bank them for points before the pile runs out.") };
