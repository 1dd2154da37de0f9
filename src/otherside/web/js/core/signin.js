// Signing in: the form of the welcome page, and the gate of a page that needs a user (an
// invite link opened while signed out offers sign in, sign up or a guest seat instead of
// silently making the visitor a guest, which would make the table unrated).
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { currentUser } from "/static/js/core/session.js";
import { t } from "/static/js/core/i18n.js";

export const GUEST_NOTE = () => t("A guest plays at once, without a password; a guest's games are not rated and are not kept under a name.");

/**
 * A sign in / sign up form with a "continue as guest" button.
 * @param {object} options
 * @param {string} [options.prefix] put before the ids of the fields (two forms on one page)
 * @param {string} [options.guestLabel] the guest button's words
 * @param {function(object): void} options.done called with the user once signed in
 * @returns {HTMLFormElement}
 */
export function authForm({ prefix = "", guestLabel = t("Play as a guest"), done }) {
  const id = (name) => `${prefix}${name}`;
  const error = el("p", { class: "error", id: id("auth-error"), role: "alert" });
  const name = el("input", { id: id("name"), name: "name", autocomplete: "username", required: true });
  const password = el("input", { id: id("password"), name: "password", type: "password", autocomplete: "current-password" });
  // A refusal is said in `said`: the form's own line, or the line beside a button elsewhere on
  // the page that asked (form.playAsGuest).
  const go = async (mode, said = error) => {
    for (const line of new Set([error, said])) line.textContent = "";
    try {
      if (mode === "guest") await api("POST", "/api/guest");
      else await api("POST", `/api/${mode}`, { name: name.value, password: password.value });
      done(await currentUser());
    } catch (failure) {
      said.textContent = failure.message;
    }
  };
  const form = el("form", { class: "auth-form", id: id("auth-form") },
    el("label", { for: id("name") }, t("Name")), name,
    el("label", { for: id("password") }, t("Password")), password,
    error,
    el("div", { class: "row" },
      el("button", { type: "submit", id: id("signin-btn"), "data-mode": "signin" }, t("Sign in")),
      el("button", { type: "submit", id: id("signup-btn"), "data-mode": "signup", class: "secondary" }, t("Sign up"))),
    el("div", { class: "guest-line" },
      el("button", { type: "button", id: id("guest-btn"), class: "secondary", onclick: () => go("guest") }, guestLabel),
      el("p", { class: "muted" }, GUEST_NOTE())));
  /** Play as a guest from a button outside the form, its refusal said in the element `said`. */
  form.playAsGuest = (said) => go("guest", said);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    go(event.submitter?.dataset.mode ?? "signin");
  });
  return form;
}

/**
 * The signed-in user; when nobody is signed in, first a dialog that offers sign in, sign up
 * or continuing as a guest (saying a guest's game is unrated), and the page goes on where it
 * is once the visitor has chosen.
 * @param {object} [options]
 * @param {string} [options.title] the dialog's heading
 * @param {string} [options.text] why the page asks
 * @returns {Promise<object>} the user
 */
export async function ensureSignedIn({ title = t("Join this table"), text = t("You were invited to a game. Sign in or sign up to play it rated under your name, or continue as a guest.") } = {}) {
  const user = await currentUser();
  if (user) return user;
  // The page that asks may not carry the pages' stylesheet (the table page has its own).
  if (!document.querySelector('link[href="/static/css/pages.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/static/css/pages.css" }));
  }
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "gate", id: "signin-gate", "aria-labelledby": "gate-title" },
      el("h2", { id: "gate-title" }, title),
      el("p", {}, text),
      authForm({ prefix: "gate-", guestLabel: t("Continue as a guest"), done: (signed) => {
        dialog.close();
        dialog.remove();
        resolve(signed);
      } }));
    // The visitor has to choose: Esc does not dismiss the gate into a page without a user.
    dialog.addEventListener("cancel", (event) => event.preventDefault());
    document.body.append(dialog);
    dialog.showModal();
  });
}
