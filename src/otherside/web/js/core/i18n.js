// The page's words in the reader's language, from the server's catalogs (otherside.i18n): the
// page is served with <html lang> set, and this module loads that language's messages once
// (GET /api/i18n/<lang>, cached by the browser). A message is written in English with named
// fields, `t("seat {seat} is taken", {seat: 2})`; the catalogs' extraction finds t() and tn().
// It also wires the header's language switcher, which every page has.

/** The page's language ("en", "de", …), as the server chose it (English outside a page). */
export const language = globalThis.document?.documentElement?.lang || "en";

// English is the messages as written: nothing to load.
const catalog = language === "en" ? {} : await fetch(`/api/i18n/${encodeURIComponent(language)}`, { credentials: "same-origin" })
  .then((response) => (response.ok ? response.json() : {}))
  .catch(() => ({}));
const messages = catalog.messages ?? {};
const plurals = new Intl.PluralRules(language);

const fill = (text, params) => String(text).replace(/\{(\w+)\}/g,
  (whole, name) => (params && name in params ? String(params[name]) : whole));

/**
 * A message in the page's language, its `{fields}` filled from `params`.
 * @example t("the table is full") === "der Tisch ist voll"   // on a German page
 */
export function t(message, params) {
  const text = messages[message];
  return fill(typeof text === "string" ? text : message, params);
}

/**
 * A message with a plural form, for `count` (also the field `{count}`). The catalogs' two forms
 * are "one" and "other" (English, German, French, Dutch).
 * @example tn("{count} game", "{count} games", 3) === "3 games"
 */
export function tn(singular, plural, count, params = {}) {
  const forms = messages[singular];
  const one = plurals.select(count) === "one";
  const text = Array.isArray(forms) ? forms[one ? 0 : Math.min(1, forms.length - 1)] : one ? singular : plural;
  return fill(text, { count: number(count), ...params });
}

/** A number in the page's language's way ("1.234,5" in German). */
export const number = (value, options) => new Intl.NumberFormat(language, options).format(value);

/** Items that hold commas themselves, told apart by semicolons as the language sets them
 * ("a; b" in English, "a ; b" in French). */
export const semicolons = (items) => (items.length ? items.reduce((before, after) => t("{before}; {after}", { before, after })) : "");

/** A date (and time) in the page's language and the reader's time zone. */
export const dateWords = (value, options = { dateStyle: "medium" }) =>
  new Intl.DateTimeFormat(language, options).format(value instanceof Date ? value : new Date(value));

// The switcher: the choice is kept (a cookie, and the account's if signed in), then the page
// is shown again in it.
const switcher = globalThis.document?.getElementById("language");
switcher?.addEventListener("change", async () => {
  await fetch("/api/language", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ language: switcher.value }),
  });
  location.reload();
});
