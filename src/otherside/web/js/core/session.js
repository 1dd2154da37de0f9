// Who is signed in, and the header's "name · sign out".
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { t } from "/static/js/core/i18n.js";

/** The signed-in user (`{id, name, guest…}`) or null. */
export async function currentUser() {
  return (await api("GET", "/api/me")).user;
}

/** Fill the page header's `.who` with the user's name and a sign-out link. */
export function header(user) {
  const who = document.querySelector("header.top .who");
  if (!who) return;
  who.replaceChildren();
  if (user) {
    // The name and the link in boxes of their own: on a phone they stack (two short lines)
    // and a long name is cut with an ellipsis, its whole in the title, instead of a third line.
    const name = user.guest ? t("{name} (guest)", { name: user.name }) : user.name;
    who.append(el("span", { class: "who-name", title: name }, name),
      el("span", { class: "who-sep", "aria-hidden": "true" }, " · "),
      el("a", { href: "#", class: "who-out", onclick: async (e) => {
        e.preventDefault(); await api("POST", "/api/signout"); location.href = "/";
      } }, t("sign out")));
  }
}
