// The page a confirmation link opens (/confirm-email#TOKEN): the token is after '#', so neither
// the server nor a mail scanner fetching the link sees it, and nothing is confirmed until the
// reader presses the button, which sends it (POST /api/email/confirm, server/http/email.py).
import { api } from "/static/js/core/http.js";
import { el } from "/static/js/core/dom.js";
import { currentUser, header } from "/static/js/core/session.js";
import { t } from "/static/js/core/i18n.js";

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.slice(1));
// Off the address bar: the token is not left in the history for the next reader of this browser.
history.replaceState(null, "", location.pathname);

function say(words, kind) {
  $("confirm-result").className = kind;
  $("confirm-result").replaceChildren(words);
}

async function send(event) {
  event.preventDefault();
  $("confirm").disabled = true;
  try {
    const done = await api("POST", "/api/email/confirm", { token });
    say(t("The address {email} is confirmed: turn reminders will go there.", { email: done.email }), "ok");
    $("confirm-form").classList.add("hidden");
  } catch (error) {
    say(error.message, "error");
    // A refused link stays refused (another press would say the same); a server away may
    // answer the next press.
    $("confirm-form").classList.toggle("hidden", error.status < 500 && error.status !== 429);
    $("confirm").disabled = false;
  }
}

$("confirm-form").addEventListener("submit", send);
if (!token) {
  say(t("This page needs the whole link from the mail; copy all of it into the address bar."), "error");
  $("confirm-form").classList.add("hidden");
}
currentUser().then(header).catch(() => header(null));
