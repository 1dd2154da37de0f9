// The rules of a game, in the project's own words (the same text as `otherside rules GAME`).
import { currentUser, el, header } from "/static/js/api.js";
import { renderMarkdown } from "/static/js/markdown.js";

const GAMES = [["verso", "Verso"], ["versus", "VERSUS"], ["rectoverso", "Recto Verso"]];
const game = location.pathname.split("/").pop();

async function start() {
  header(await currentUser());
  document.getElementById("games").replaceChildren(...GAMES.map(([name, title]) =>
    el("a", { class: `button small ${name === game ? "" : "secondary"}`, href: `/rules/${name}` }, title)));
  const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
  const article = document.getElementById("rules");
  if (!response.ok) {
    article.replaceChildren(el("p", {}, `There are no rules for “${game}”.`));
    return;
  }
  article.replaceChildren(...renderMarkdown(await response.text()));
  const title = GAMES.find(([name]) => name === game)?.[1] ?? game;
  document.title = `otherside — ${title} rules`;
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

start();
