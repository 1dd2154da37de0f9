// The rules of a game, in the project's own words and the page's language (the same text as
// `otherside rules GAME`).
import { api } from "/static/js/core/http.js";
import { el, pathTail } from "/static/js/core/dom.js";
import { renderMarkdown } from "/static/js/core/markdown.js";
import { currentUser, header } from "/static/js/core/session.js";
import { language, t } from "/static/js/core/i18n.js";

async function start() {
  const game = pathTail();
  header(await currentUser());
  // The games come from the server: a new game needs no change here.
  const games = await api("GET", "/api/games").catch(() => []);
  document.getElementById("games").replaceChildren(...games.map(({ name, title }) =>
    el("a", { class: `button small ${name === game ? "" : "secondary"}`, href: `/rules/${name}` }, title)));
  // The rules in the page's language (the server falls back to English for a language
  // without a guide).
  const response = await fetch(`/api/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(language)}`);
  const article = document.getElementById("rules");
  if (!response.ok) {
    article.replaceChildren(el("p", {}, t("There are no rules for “{game}”.", { game })));
    return;
  }
  article.replaceChildren(...renderMarkdown(await response.text()));
  const lessons = await api("GET", "/api/lessons").then((found) => found.games, () => []);
  if (lessons.includes(game)) {
    article.prepend(el("p", { class: "rules-learn" },
      el("a", { class: "button small", href: `/learn/${game}` }, t("Learn to play"))));
  }
  const title = games.find(({ name }) => name === game)?.title ?? game;
  document.title = t("otherside — {game} rules", { game: title });
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

start();
