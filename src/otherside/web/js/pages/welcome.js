// The welcome of a signed-out visitor: the three games (what each is, a drawing), play at once
// as a guest, or sign in / sign up. What each game is and its drawing come from its own folder.
import { el } from "/static/js/core/dom.js";
import { api } from "/static/js/core/http.js";
import { authForm } from "/static/js/core/signin.js";
import { t } from "/static/js/core/i18n.js";

/**
 * Fill `root` with the welcome: the games, "Play now" as a guest, and the sign in / sign up form.
 * @param {Element} root
 * @param {function(object): void} done called with the user once signed in
 */
export async function welcome(root, done) {
  // Each game says what it is from its own folder (js/games/<board>/about.js).
  const lessons = await api("GET", "/api/lessons").then((found) => found.games, () => []);
  const games = await Promise.all((await api("GET", "/api/games")).map(async (game) => ({
    name: game.name,
    ...(await import(`/static/js/games/${game.board.module}/about.js`)).about,
  })));
  const form = authForm({ done, guestLabel: t("Play now as a guest") });
  // A refusal of "Play now" (too many guests from one address) is said under it: the form's
  // own line is far below, out of sight on a phone, and the button seemed to do nothing.
  const refused = el("p", { class: "error", id: "play-now-error", role: "alert" });
  root.replaceChildren(
    el("div", { class: "welcome-hero" },
      el("h1", {}, t("Three games to play with friends, or against bots")),
      el("p", {}, t("Live at the table or a move a day. No download, nothing to install.")),
      el("div", { class: "row" },
        el("button", { type: "button", id: "play-now", class: "big", onclick: () => form.playAsGuest(refused) }, t("Play now")),
        el("a", { class: "button big secondary", href: "#auth-form", onclick: (event) => {
          event.preventDefault();
          document.getElementById("name").focus();
        } }, t("Sign in or sign up"))),
      refused),
    el("div", { class: "welcome-games" }, games.map((game) => el("article", { class: "panel game-card", "data-game": game.name },
      el("div", { class: "game-art" }, game.art()),
      el("h2", {}, game.title, " ", el("span", { class: "muted" }, game.players)),
      el("p", {}, game.about),
      el("div", { class: "game-links" },
        el("a", { href: `/rules/${game.name}` }, t("Read the rules")),
        lessons.includes(game.name) ? el("a", { href: `/learn/${game.name}` }, t("Learn to play")) : "")))),
    el("section", { class: "panel welcome-auth" },
      el("h2", {}, t("Sign in to keep your games and your rating")),
      form));
}
