// The account's API tokens, on the signed-in person's own player page: make one (a name and its
// scopes), see it once with a copy button, list them with their last use, revoke one.
// The server keeps only a token's hash (server/accounts/tokens.py): what is shown here once can
// never be shown again, so the page says so where the token appears.
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { dateWords, t } from "/static/js/core/i18n.js";

// What each scope lets a token do (the server's SCOPES, in its order).
const SCOPES = [
  { name: "read", checked: true, about: () => t("see tables, games and players") },
  { name: "play", checked: true, about: () => t("sit at tables, play, follow your events, enter tournaments") },
  { name: "account", checked: false, about: () => t("change your account's settings") },
];
const WHEN = { dateStyle: "medium", timeStyle: "short" };

/** The panel of tokens, filled in: append it to the page. */
export function tokensPanel() {
  const list = el("div", { "data-testid": "token-list" });
  const shown = el("div", { class: "token-once hidden", role: "status" });
  const error = el("p", { class: "error", "aria-live": "polite" });
  const name = el("input", { id: "token-name", type: "text", maxlength: "60", required: true, autocomplete: "off" });
  const boxes = SCOPES.map((scope) => el("input", { type: "checkbox", name: "scope", value: scope.name, checked: scope.checked }));
  const form = el("form", { id: "token-form" },
    el("label", { for: "token-name" }, t("Name (to know it by)")),
    name,
    el("fieldset", { class: "scopes" }, el("legend", {}, t("What it may do")),
      SCOPES.map((scope, i) => el("label", { class: "scope" }, boxes[i], " ", el("strong", {}, scope.name), " — ", scope.about()))),
    error,
    el("button", { type: "submit" }, t("Create token")));

  async function refresh() {
    const tokens = await api("GET", "/api/tokens");
    list.replaceChildren(tokens.length ? tokenTable(tokens, refresh, error) : el("p", { class: "muted" }, t("No token yet.")));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const scopes = boxes.filter((box) => box.checked).map((box) => box.value);
    try {
      const made = await api("POST", "/api/tokens", { label: name.value, scopes });
      showOnce(shown, made);
      name.value = "";
      await refresh();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });

  const panel = el("section", { class: "panel tokens", id: "tokens", "aria-labelledby": "tokens-title" },
    el("h2", { id: "tokens-title" }, t("API tokens")),
    el("p", { class: "muted" }, t("A token lets a program — your bot, a script — use your account without your password, as the bot protocol describes."), " ",
      el("a", { href: "/docs/bots" }, t("The protocol for programs"))),
    form, shown, el("h3", {}, t("Your tokens")), list);
  refresh().catch((failure) => { error.textContent = failure.message; });
  return panel;
}

// The token just made, with its warning: this is the only time anyone sees it.
function showOnce(box, made) {
  const value = el("input", { type: "text", readonly: true, value: made.token, "aria-label": t("The new token"), "data-testid": "new-token", class: "token-value" });
  const copied = el("span", { class: "muted", "aria-live": "polite" });
  const copy = el("button", { type: "button", class: "small" }, t("Copy"));
  copy.addEventListener("click", async () => {
    value.select();
    try {
      await navigator.clipboard.writeText(made.token);
      copied.textContent = t("Copied.");
    } catch {
      copied.textContent = t("Selected: copy it with Ctrl+C.");
    }
  });
  box.replaceChildren(
    el("p", { class: "warning" }, el("strong", {}, t("Copy this token now: it will not be shown again.")), " ",
      t("Anyone who has it can act for your account within its scopes; revoke it below if it leaks.")),
    el("div", { class: "row" }, value, copy, copied));
  box.classList.remove("hidden");
}

// One row a token: its name with when it was made and last used, its scopes, and Revoke.
function tokenTable(tokens, refresh, error) {
  return el("table", { class: "list tokens-list" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Name")), el("th", {}, t("Scopes")), el("th", {}))),
    el("tbody", {}, tokens.map((token) => el("tr", { "data-token": String(token.id) },
      el("td", {}, el("strong", {}, token.label),
        el("div", { class: "muted" }, t("made {date}", { date: dateWords(token.created_at, WHEN) })),
        el("div", { class: "muted", "data-testid": "last-used" }, token.last_used_at
          ? t("last used {date}", { date: dateWords(token.last_used_at, WHEN) })
          : t("never used"))),
      el("td", {}, token.scopes.join(", ")),
      el("td", { style: "text-align:right" }, el("button", {
        type: "button",
        class: "small secondary",
        onclick: async () => {
          if (!confirm(t("Revoke the token “{name}”? Programs using it are refused at once.", { name: token.label }))) return;
          try {
            await api("DELETE", `/api/tokens/${token.id}`);
            await refresh();
          } catch (failure) {
            error.textContent = failure.message;
          }
        },
      }, t("Revoke")))))));
}
