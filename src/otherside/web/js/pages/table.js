// A table: the waiting room (seats, bots, start), then the game over a websocket, with the
// players' clocks, resign, the log of what happened and the table's chat.
// The server is the authority: this page only shows the views it receives and sends actions
// with the state it saw (its version, and its count of takebacks: a takeback lowers the version,
// and a move sent before one must not be taken after it at the same version). Every text of a user (names, chat) goes in as a text node.
// Its state is one object made in start() and handed to the parts (table/*.js); the board is
// the game's module (js/games/README.md), chosen by the server's description of the game.
import { api } from "/static/js/core/http.js";
import { byId, el, pathTail } from "/static/js/core/dom.js";
import { clockState } from "/static/js/core/clock.js";
import { CLOSE } from "/static/js/core/constants.js";
import { boardTraits, gameInfo, loadBoard } from "/static/js/core/games.js";
import { header } from "/static/js/core/session.js";
import { ensureSignedIn } from "/static/js/core/signin.js";
import { playAgainButton } from "/static/js/core/again.js";
import { liveSocket } from "/static/js/core/socket.js";
import { toast } from "/static/js/core/toast.js";
import { ruleNodes } from "/static/js/core/words.js";
import { awayNotice, awaySeats } from "/static/js/pages/table/away.js";
import { createTurnAlert } from "/static/js/pages/table/alert.js";
import { createChat } from "/static/js/pages/table/chat.js";
import { createDock } from "/static/js/pages/table/dock.js";
import { createLog } from "/static/js/pages/table/log.js";
import { clockChips, outcomeWords, playerRows, ratingLine, seatNames, summaryNodes } from "/static/js/pages/table/players.js";
import { createTypedMoves } from "/static/js/pages/table/typed.js";
import { createPositionReader } from "/static/js/pages/table/position.js";
import { moveConfirmation } from "/static/js/pages/table/confirm_setting.js";
import { waitingRoom } from "/static/js/pages/table/waiting.js";
import { t } from "/static/js/core/i18n.js";

function confirmThen(text, action) {
  const dialog = byId("confirm");
  byId("confirm-text").textContent = text;
  dialog.onclose = () => { if (dialog.returnValue === "yes") action(); };
  dialog.returnValue = "";
  dialog.showModal();
}

/** The page, once the user, the table's game and its board are known. */
function tablePage(state) {
  const send = (message, quiet = false) => {
    const sent = state.socket?.send(message);
    if (!sent && !quiet) toast(t("Not connected: reconnecting…"));
    return sent;
  };
  const play = (action) => send({ type: "action", version: state.frame.version, takebacks: state.frame.takebacks, action });
  const resign = () => {
    const many = state.table && state.table.players > 2;
    // Players who are one team (Recto Verso's two builders) lose nothing to each other: the
    // game ends for both.
    const together = (state.traits?.together ?? []).includes(state.table?.players);
    confirmThen(together ? t("Resign? The game ends now for you and your partner: you play as one team.")
      : many ? t("Resign? A bot plays your seat for the rest of the game and it counts as a loss for you.")
        : t("Resign? The game ends now and counts as a loss for you."), () => send({ type: "resign" }));
  };
  const call = async (path, body) => {
    byId("waiting-error").textContent = "";
    try { return await api("POST", `/api/tables/${state.tableId}/${path}`, body ?? {}); }
    catch (error) { byId("waiting-error").textContent = error.message; toast(error.message); return null; }
  };
  // A partner gone for long (a game without clocks): the reader may play on with a bot.
  const playOn = async (seat) => {
    try { await api("POST", `/api/tables/${state.tableId}/play-on`, { seat }); }
    catch (error) {
      // The server's own number of seconds, from now on (its words say it too).
      if (error.code === "not_away" && error.params?.seconds) state.awaySeconds = error.params.seconds;
      toast(error.message, 6000);
    }
  };
  const rematch = async () => {
    const made = await call("rematch");
    if (made) location.href = `/table/${made.id}`;
  };

  // A takeback: asked, accepted or declined at the version the page shows (tables/takebacks.py).
  const takeback = (step) => send({ type: "takeback", version: state.frame.version, takebacks: state.frame.takebacks, step });
  // Ready for the next round: a bot partner waiting to start it goes on (tables/ready.py).
  const ready = () => send({ type: "ready", version: state.frame.version });
  const board = state.module.createBoard(byId("board"), { mode: "live", play, resign, takeback, ready });
  const confirming = () => Boolean(board.confirms) && state.confirmMoves.on(state.table);
  const dock = createDock();
  const alert = createTurnAlert([...document.querySelectorAll("[data-mute]")]);
  // Looking back at an earlier position: the board shows it, play goes on underneath.
  let browsing = null;
  const browse = (view, number) => {
    browsing = view;
    byId("browsing-text").textContent = t("You are looking at the position after move {number}.", { number });
    byId("browsing").classList.remove("hidden");
    log.mark(view);
    dock.open(null);
    renderBoard();
  };
  const backToGame = () => {
    browsing = null;
    byId("browsing").classList.add("hidden");
    log.mark(null);
    renderBoard();
  };
  byId("browsing-back").addEventListener("click", backToGame);
  const log = createLog(byId("log"), browse);
  state.rerender = () => { renderActions(); renderBoard(); };
  const chat = createChat(byId("chat-lines"), byId("chat-form"), (text) => send({ type: "chat", text }), dock);
  let logFilled = false;
  let loggedLive = false;  // a line logged live since the history was last asked for
  const typed = createTypedMoves({ form: byId("typed-form"), input: byId("typed-move"), list: byId("typed-legal"), spoken: byId("spoken") }, play);
  // The whole position in words on demand, for the boards that can say it.
  if (board.position) {
    createPositionReader({ button: byId("describe"), hide: byId("describe-hide"), region: byId("position") },
      () => board.position());
  }
  // Said after each view (and once the game is over): the step's log lines, whose turn, the result.
  function speak(lines) {
    const { table, frame, you } = state;
    if (!table || !frame) return;
    const names = seatNames(state);
    const over = table.status === "over";
    const result = over && table.outcome ? outcomeWords(state).map((n) => (typeof n === "string" ? n : n.textContent)).join("") : null;
    const toMove = (frame.clock?.to_move ?? table.to_move ?? []).filter((s) => s !== you).map((s) => names[s]);
    typed.update({ version: frame.version, legal: frame.legal, seated: you !== null && you !== undefined, over, lines, toMove, result });
  }

  function renderActions() {
    const { table, you, traits, tableId } = state;
    const seated = you !== null && you !== undefined;
    const over = table.status === "over";
    const again = playAgainButton(state);
    byId("table-actions").replaceChildren(...[
      table.status === "playing" && seated && traits.resign === "table" ? el("button", { class: "small secondary danger", id: "resign", onclick: resign }, t("Resign")) : null,
      over ? el("a", { class: "button small secondary", href: `/replay/${tableId}` }, t("Replay")) : null,
      over ? el("a", { class: "button small secondary", href: `/api/tables/${tableId}/record` }, t("Download record")) : null,
      again,
      // One prominent way to play on: "play the bot again" when there is one, else the rematch.
      over && seated ? el("button", { class: again ? "small secondary" : "small", id: "rematch", onclick: rematch }, t("Rematch")) : null,
      table.rematch ? el("a", { class: "button small", href: `/table/${table.rematch}` }, t("Go to the rematch")) : null,
      el("a", { class: "button small secondary", href: `/rules/${table.game}`, target: "_blank" }, t("Rules")),
      table.status === "playing" && seated && board.confirms ? state.confirmMoves.control(table) : null,
    ].filter(Boolean));
  }

  function renderTable() {
    byId("table-title").textContent = state.table.title;
    byId("page-title").textContent = t("{game} table", { game: state.table.title });
    byId("summary").replaceChildren(...summaryNodes(state));
    renderClocks();
    renderActions();
    // Above the board, in sight on a phone too: what the finished game did to the ratings.
    // On a phone the table's actions live in the Players drawer: a finished game points there.
    const over = state.table.status === "over";
    // A rematch the others made is in sight there too, not only in the drawer.
    const rematch = over && state.table.rematch;
    byId("result").replaceChildren(...[over ? ratingLine(state) : null,
      rematch ? el("a", { class: "button small result-more", href: `/table/${rematch}`, "data-testid": "to-rematch" }, t("Go to the rematch")) : null,
      over ? el("button", { type: "button", class: "small secondary result-more", "data-testid": "result-more", onclick: () => dock.open("table") }, t("Play again, replay…")) : null,
    ].filter(Boolean));
    const waiting = state.table.status === "waiting";
    byId("waiting").classList.toggle("hidden", !waiting);
    // A position to describe once the game has begun (a waiting room has none).
    byId("describe-row").classList.toggle("hidden", waiting || !board.position);
    if (!waiting) return;
    const link = `${location.origin}/table/${state.tableId}`;
    byId("invite").textContent = link;
    byId("invite").href = link;
    const room = waitingRoom(state, call);
    byId("seats").replaceChildren(...room.seats);
    byId("host-actions").replaceChildren(...room.actions);
  }

  function renderClocks() {
    byId("players").replaceChildren(...playerRows(state));
    dock.clocks(clockChips(state));
    const now = Date.now() + (state.clock?.offset ?? 0);
    byId("away").replaceChildren(...awayNotice(awaySeats(state.table, state.you, state.clock, now, state.awaySeconds), playOn));
  }

  function renderBoard() {
    const { frame } = state;
    if (!frame) return;
    if (browsing) {
      board.update({ view: browsing, seat: frame.seat, legal: [], names: seatNames(state), previous: null, clock: null, table: state.table });
      return;
    }
    board.update({ view: frame.view, seat: frame.seat, legal: frame.legal, names: seatNames(state),
      previous: frame.previous, clock: frame.clock, table: state.table, confirm: confirming(), takeback: frame.takeback ?? null,
      botWaits: Boolean(frame.bot_waits), botWaitsUntil: frame.bot_waits_until ?? null });
  }

  async function fillLog() {
    // After a reload the log is rebuilt from the game so far, as this seat saw it. A move
    // logged live while the history was on its way may be missing from it (read before the
    // move): the history is asked for again, so that the rebuilt log does not drop that line.
    logFilled = true;
    let history = null;
    for (let tries = 0; tries < 5; tries += 1) {
      loggedLive = false;
      history = await api("GET", `/api/tables/${state.tableId}/history`).catch(() => null);
      if (!history || !loggedLive) break;
    }
    if (!history || loggedLive) return;  // the live lines stand as they are
    log.reset();
    for (const view of history.views) log.add(view, board.describe(view, seatNames(state)));
  }

  function onMessage(message) {
    if (message.type === "table") {
      // A host who leaves a waiting room hands the table on: told at once to the new host.
      const before = state.table?.owner_id;
      if (before !== undefined && before !== message.table.owner_id && message.table.owner_id === state.user?.id
        && message.table.status === "waiting") {
        state.handedOver = true;
        toast(t("You are the host now"), 5000);
      }
      const ended = state.table && state.table.status !== "over" && message.table.status === "over";
      state.table = message.table;
      state.you = message.you;
      if (ended) speak([]);
      // A table message (a partner away or back) must not take "Your turn" off the tab's title.
      const mine = state.frame?.legal.length > 0 && state.table.status !== "over";
      if (!mine) document.title = t("otherside — {game} table", { game: state.table.title });
      renderTable();
      renderBoard();
    } else if (message.type === "view") {
      const before = state.frame;
      // A takeback took the game back (told by the count of takebacks, which only grows: a
      // view missed while reconnecting may have been followed by moves up to the same version).
      const undone = before && (message.takebacks > before.takebacks || message.version < before.version);
      const previous = before && !undone && before.version < message.version ? before.view : null;
      if (previous) {
        log.add(message.view, board.describe(message.view, seatNames(state)));
        loggedLive = true;
      }
      // Said, and the log told again from the game as it now is (below).
      if (undone) toast(t("The last move was taken back."), 5000);
      // The asker's request gone with the game where it was: declined (else the note "waiting
      // for…" just vanished, and the asker could not tell a no from a lost request).
      else if (before?.takeback && before.takeback.seat === state.you && !message.takeback && message.version === before.version) {
        toast(t("{player} declined to take back your move; play goes on.", { player: seatNames(state)[1 - state.you] }), 5000);
      }
      state.frame = { ...message, previous };
      state.clock = clockState(message.clock);
      if (state.table) renderTable();
      renderBoard();
      if (!logFilled || undone) fillLog();
      speak(previous ? board.describe(message.view, seatNames(state)) : []);
      alert.update(message.legal.length > 0 && state.table?.status !== "over", state.table?.title ?? "table");
    } else if (message.type === "chat") {
      chat.add(message);
    } else if (message.type === "error") {
      typed.say(message.message);
      // A board that explains refusals itself (Recto Verso's R4/R5) says it there.
      if (!(state.frame && board.refused?.(message.message))) toast(ruleNodes(message.message, state.table?.game), 6000);
    }
  }

  state.socket = liveSocket(`/ws/tables/${state.tableId}`, {
    message: onMessage,
    open: (again) => {
      byId("offline").classList.add("hidden");
      chat.opened(again);
    },
    lost: () => byId("offline").classList.remove("hidden"),
    closed: (code) => {
      const words = code === CLOSE.NOT_FOUND ? t("There is no such table.") : t("You may not watch this table.");
      byId("board").replaceChildren(el("p", { class: "panel" }, words));
    },
  });
  setInterval(() => { if (state.table?.status === "playing") renderClocks(); }, 1000);
}

async function start() {
  const state = { tableId: pathTail(), user: null, info: null, traits: null, module: null, table: null, you: null,
    frame: null, clock: null, socket: null, awaySeconds: undefined };
  state.user = await ensureSignedIn();
  header(state.user);
  const summary = await api("GET", `/api/tables/${state.tableId}`).catch(() => null);
  state.info = summary ? await gameInfo(summary.game) : null;
  state.traits = boardTraits(state.info);
  state.confirmMoves = await moveConfirmation(state.user, () => state.rerender?.());
  state.module = await loadBoard(state.traits);
  byId("copy").addEventListener("click", () => navigator.clipboard?.writeText(byId("invite").href).then(() => toast(t("Link copied"))));
  tablePage(state);
}

start();
