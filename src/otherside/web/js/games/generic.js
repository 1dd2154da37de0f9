// A game without its own page: the view as data and one button per legal action.
import { el } from "/static/js/api.js";

export function describe(event) {
  return Object.entries(event).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
}

export function render(root, view, ctx) {
  root.replaceChildren(el("div", { class: "panel" },
    ctx.play && ctx.legal.length ? el("div", { class: "actions" },
      ctx.legal.map((a) => el("button", { onclick: () => ctx.play(a) }, a))) : null,
    el("pre", { style: "white-space:pre-wrap" }, JSON.stringify(view, null, 1))));
}
