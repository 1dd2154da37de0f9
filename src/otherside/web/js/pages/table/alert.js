// Telling a player that it is their turn: the tab's title, a short sound and (when the tab is in
// the background and the browser allows it) a notification. One toggle mutes the sound and the
// notification; it is remembered on this device.
import { t } from "/static/js/core/i18n.js";

const KEY = "otherside.mute";
const TITLE = () => t("● Your turn — otherside");

/** @param {Element[]} toggles buttons that mute and unmute */
export function createTurnAlert(toggles) {
  let muted = localStorage.getItem(KEY) === "1", mine = false, audio = null, first = true;
  const show = () => {
    for (const button of toggles) {
      button.textContent = muted ? t("♪ off") : t("♪ on");
      button.setAttribute("aria-pressed", String(muted));
      button.setAttribute("aria-label", muted ? t("turn alerts off: switch on") : t("turn alerts on: mute"));
      button.title = muted ? t("Muted: no sound or notification when it is your turn") : t("A sound and a notification when it is your turn (click to mute)");
    }
  };
  for (const button of toggles) {
    button.addEventListener("click", () => {
      muted = !muted;
      localStorage.setItem(KEY, muted ? "1" : "0");
      // Asked on a click: browsers only allow the question after a gesture.
      if (!muted && "Notification" in window && Notification.permission === "default") Notification.requestPermission().catch(() => {});
      show();
    });
  }
  show();
  // The browser asks once, on the player's first tap at a table (it allows the question only
  // after a gesture); muting later stops the notifications without asking again.
  document.addEventListener("pointerdown", () => {
    if (muted || localStorage.getItem(`${KEY}.asked`) || !("Notification" in window) || Notification.permission !== "default") return;
    localStorage.setItem(`${KEY}.asked`, "1");
    Notification.requestPermission().catch(() => {});
  }, { once: true });

  function beep() {
    try {
      audio ??= new AudioContext();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.18, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch { /* no sound on this device */ }
  }

  return {
    /** The reader may act now (`isMine`) at the table titled `title`. */
    update(isMine, title) {
      document.title = isMine ? TITLE() : `otherside — ${title}`;
      // Not on the first view: a player who reloads the page knows whose turn it is.
      if (isMine && !mine && !muted && !first) {
        // Counted on the page so that a test can tell a turn was announced.
        document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts ?? 0) + 1);
        beep();
        if (document.hidden && "Notification" in window && Notification.permission === "granted") {
          new Notification(t("Your turn"), { body: title, tag: "otherside-turn" });
        }
      }
      mine = isMine;
      first = false;
    },
    get muted() { return muted; },
  };
}
