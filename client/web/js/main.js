// Start-up and wiring: the connection (hello, resume), the screens (lobby,
// join link, table, rules), the intents the screens send (joining by code or
// invite link, knocking at a table whose host lets players in), and what is
// announced to screen readers.

import { cardName, cardsTerm } from "./cards.js";
import { claimMade } from "./claim.js";
import { $, announce, fill, h, toast } from "./dom.js";
import { detectLanguage, hasString, LANGUAGES, language, onLanguageChange, setLanguage, t, translateStatic } from "./i18n.js";
import { codeFrom, inviteFromHash, linkHash } from "./invite.js";
import { noticeLines, renderJoin, renderLobby, showJoinFacts, showStats, showTables } from "./lobby.js";
import { recordGame, renderStatsPage, showServerStats } from "./mystats.js";
import { PROTOCOL_VERSION } from "./exchanges.js";
import { Net } from "./net.js";
import { showOperatorNotice } from "./operator_notice.js";
import { renderRules } from "./rules.js";
import { playSound } from "./sound.js";
import { app, beginReplay, endReplay, receive, resetPresenter, setPresenterHooks } from "./state.js";
import { loadSeat, savePlayer, saveQuickLevel, saveSeat } from "./storage.js";
import { botReportText, buildTable, dropTable, focusWhenShown, renderChat, renderTable, seatName } from "./table.js";
import { throttled, waitFor } from "./throttle.js";

/** @typedef {import("./protocol").SeatView} SeatView @typedef {import("./types").Send} Send
 * @typedef {import("./types").Knock} Knock @typedef {import("./net.js").RequestError} RequestError */
/** The intents of the lobby and join screens (lobby.js draws them). @typedef {typeof lobbyActions} LobbyActions */
/** The intents of the table screen (table.js draws it). @typedef {typeof tableActions} TableActions */

const main = $("#app");
const rulesRoot = $("#rules-page");
const statsRoot = $("#stats-page");
// A forced card is played this long after it becomes our turn (the player
// sees whose turn it is first); fast play shortens it.
const AUTOPLAY_MS = { normal: 450, fast: 150 };
/** @type {ReturnType<typeof setTimeout> | null} */
let autoplayTimer = null;
let firstHandshake = true;
/** @type {ReturnType<typeof setInterval> | undefined} */
let lobbyTimer;
// Refusals that mean the seat (or the table) is gone for good: the seat is
// forgotten and never asked for again. Any other refusal of a resume is
// passing trouble (the table changing hands, the store restarting): the
// seat is kept and the connection tries again with its backoff.
const GONE_FOR_GOOD = new Set(["bad_token", "no_such_table"]);
const KNOCK_AGAIN_MS = 10000;
/** @type {ReturnType<typeof setInterval> | undefined} */
let knockTimer; // knocks again while we wait at a door (keepKnocking)

// -- language ------------------------------------------------------------------

async function setupLanguage() {
  await setLanguage(detectLanguage());
  const picker = /** @type {HTMLSelectElement} */ ($("#lang"));
  fill(picker, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  picker.addEventListener("change", () => setLanguage(picker.value, true));
  onLanguageChange(() => {
    translateStatic();
    showStatus(app.status);
    redraw();
  });
  translateStatic();
}

// -- connection ----------------------------------------------------------------

const net = new Net({
  handshake,
  onEvent(msg) {
    if (msg.type === "error") {
      toast(errorText(msg.code, msg.message, msg.reason), "error");
      return;
    }
    if (msg.type === "kicked") {
      kickedOut(msg.table_id);
      return;
    }
    if (msg.type === "knock_answered") {
      knockAnswered(msg);
      return;
    }
    if (msg.type === "notice") {
      showOperatorNotice(msg.text);
      return;
    }
    receive(msg);
  },
  onStatus: showStatus,
});

/** @param {import("./types").App["status"]} status */
function showStatus(status) {
  app.status = status;
  const el = $("#conn-status");
  el.dataset.status = status;
  el.textContent = t(`conn.${status}`);
  // A phone shows the state as a dot: a tap or a long press tells it.
  el.title = el.textContent;
}

function playerName() {
  return (app.player.name || "").trim() || t("lobby.defaultName");
}

/** Hello, then back to our seat, table or door (every connect: Net's handshake). @param {Send} send */
async function handshake(send) {
  const name = playerName();
  const welcome = await send({
    type: "hello",
    version: PROTOCOL_VERSION,
    name,
    player_token: app.player.token || undefined,
    client: "hearts-web",
  });
  app.player.token = welcome.player_token;
  app.helloName = name;
  savePlayer(app.player);
  const seat = loadSeat();
  const linkElsewhere = app.linkCode && seat && codeFrom(seat.code) !== app.linkCode;
  const wantSeat = seat && seat.table_id && seat.seat_token && (app.screen === "table" || (firstHandshake && !linkElsewhere));
  if (wantSeat && seat.seat_token) {
    beginReplay();
    try {
      const seated = await send({ type: "resume", table_id: seat.table_id, seat_token: seat.seat_token, last_seq: seat.last_seq || 0 });
      seatedAt(seated);
    } catch (err) {
      endReplay();
      // Passing trouble (or a dropped connection): keep the seat; the
      // connection closes and tries again with its backoff.
      if (!GONE_FOR_GOOD.has(err.code)) throw err;
      seatGone(err.code, seat.code);
    }
  } else if (app.watching && app.screen === "table") {
    const watching = app.watching;
    try {
      seatedAt(await send({ type: "watch", code: watching.code, invite: watching.invite || undefined }), watching.invite);
    } catch (err) {
      if (err.code === "disconnected") throw err;
      if (err.code === "kicked") kickedOut(watching.table_id);
      else if (err.code === "no_such_table") seatGone(err.code, watching.code);
      else {
        leaveToStart();
        if (err.code === "rate_limited" && err.retryAfter !== null) waitFor(err.retryAfter);
      }
    }
  } else if (app.screen === "join" && app.knock && app.knock.phase === "waiting") {
    // The answer would go to the connection that knocked, which is gone.
    await knockAt(send, app.knock);
  } else if (firstHandshake) {
    leaveToStart();
  }
  firstHandshake = false;
}

/** Say hello again when the name field changed since the last hello. */
async function ensureName() {
  const name = playerName();
  if (name === app.helloName) return;
  app.player.name = name;
  savePlayer(app.player);
  const welcome = await net.request({ type: "hello", version: PROTOCOL_VERSION, name, player_token: app.player.token, client: "hearts-web" });
  app.player.token = welcome.player_token;
  app.helloName = name;
  savePlayer(app.player);
}

// A not_now's reason names what is not possible now (undo, claim, rematch…),
// a refused table's which budget or cap and {n} the seconds to wait; a
// reason we have no sentence for falls back to the code's sentence.
/**
 * @param {string} code
 * @param {string} message
 * @param {string | null} [reason]
 * @param {number | null} [retryAfter]
 */
function errorText(code, message, reason = null, retryAfter = null) {
  const n = retryAfter == null ? 0 : Math.max(1, Math.ceil(retryAfter));
  if (reason && hasString(`error.${code}.${reason}`)) return t(`error.${code}.${reason}`, { message, n });
  const key = `error.${code}`;
  if (hasString(key)) return t(key, { message, n });
  return message || t("error.generic", { message: code });
}

/**
 * The reply of ``promise``, or null when it was refused (the refusal is shown).
 * @template T
 * @param {Promise<T>} promise
 * @returns {Promise<T | null>}
 */
async function attempt(promise) {
  try {
    return await promise;
  } catch (err) {
    toast(errorText(err.code, err.message, err.reason, err.retryAfter), "error");
    return null;
  }
}

/**
 * The reply of a review request, or a sentence saying why there is none (a
 * busy server: when to ask again).
 * @template T
 * @param {Promise<T>} promise
 * @returns {Promise<T | string>}
 */
async function reviewRequest(promise) {
  try {
    return await promise;
  } catch (err) {
    if (err.code === "rate_limited" && err.retryAfter !== null) {
      return t("review.later", { n: Math.max(1, Math.ceil(err.retryAfter)) });
    }
    return errorText(err.code, err.message, err.reason, err.retryAfter);
  }
}

// -- seats ---------------------------------------------------------------------

/** We sit at (or watch) a table: ``seated`` is the server's reply, and
 * ``invite`` the link's secret the join or watch carried (or null).
 * @param {import("./protocol").Seated} seated
 * @param {string | null} [invite] */
function seatedAt(seated, invite = null) {
  const old = loadSeat();
  app.notice = null;
  app.knock = null;
  if (seated.seat === null) {
    // Kept in memory only: a reconnect watches again with it.
    app.watching = { table_id: seated.table_id, code: seated.code, invite };
  } else {
    app.watching = null;
    const same = old && old.table_id === seated.table_id;
    saveSeat({
      table_id: seated.table_id,
      code: seated.code,
      seat: seated.seat,
      seat_token: seated.seat_token || (same ? old.seat_token : null),
      last_seq: same ? old.last_seq || 0 : 0,
    });
  }
  if (app.view && app.view.table_id !== seated.table_id) resetPresenter();
  app.tableId = seated.table_id;
  app.joinPath = seated.join_path;
  const code = codeFrom(seated.code);
  if (app.linkCode !== code) app.linkInvite = null;
  app.linkCode = code;
  // A spectator's address bar keeps the link's secret, so a reload can
  // watch again; a player comes back with the seat token instead.
  setUrl(`/t/${seated.code}`, seated.seat === null ? invite : null);
  showTable();
}

/** Show ``path`` in the address bar, with the rules page's #rules if it is
 * open, else with ``invite`` as an invite link's fragment (if given).
 * @param {string} path
 * @param {string | null} [invite] */
function setUrl(path, invite = null) {
  const hash = ["#rules", "#stats"].includes(location.hash) ? location.hash : invite ? linkHash(invite) : "";
  if (location.pathname + location.hash !== path + hash) history.replaceState(null, "", path + hash);
}

function forgetSeat() {
  saveSeat(null);
}

/** The server does not know our seat any more (``no_such_table``: the table
 * is gone, e.g. a restarted server; ``bad_token``: the seat is no longer
 * ours). Forget it, say so, and go back to the start page.
 * @param {string} code
 * @param {string} tableCode */
function seatGone(code, tableCode) {
  const seat = loadSeat();
  if (seat && codeFrom(seat.code) === codeFrom(tableCode)) forgetSeat();
  if (app.watching && codeFrom(app.watching.code) === codeFrom(tableCode)) app.watching = null;
  resetPresenter();
  showNotice(code === "bad_token" ? "lost" : "gone", tableCode);
}

/** The host removed us from ``tableId`` (the ``kicked`` message, or a
 * refused watch): the seat token is void, so it is forgotten; the player is
 * told and can create or join another table.
 * @param {string} tableId */
function kickedOut(tableId) {
  const seat = loadSeat();
  const mine = seat && seat.table_id === tableId;
  const watching = app.watching && app.watching.table_id === tableId;
  const shown = app.tableId === tableId || (app.view && app.view.table_id === tableId);
  if (!mine && !watching && !shown) return; // not a table this page knows
  const code = (app.view && app.view.table_id === tableId && app.view.code) || (mine && seat.code) || (watching && app.watching?.code) || "";
  if (mine) forgetSeat();
  if (watching) app.watching = null;
  resetPresenter();
  showNotice("kicked", code);
}

/** An invite link the server does not know (a wrong or truncated secret,
 * or a table that is gone): forget it and say so in the lobby.
 * @param {string} code */
function linkNotValid(code) {
  if (app.linkCode === codeFrom(code)) app.linkInvite = null;
  showNotice("badLink", code);
}

/** Go to the lobby with a notice of why (shown until dismissed, in the
 * page's language at the time, and read out).
 * @param {import("./types").Notice["kind"]} kind
 * @param {string} code */
function showNotice(kind, code) {
  app.notice = { kind, code: codeFrom(code || "") };
  showLobby();
  announce(noticeLines(app.notice).join(" "));
  $("#notice")?.focus();
}

// -- screens -------------------------------------------------------------------

function showTable() {
  stopLobbyTimer();
  if (app.screen !== "table") {
    app.screen = "table";
    buildTable(main, tableActions);
  }
  if (app.view) renderTable();
  else {
    $(".felt", main).dataset.panel = "boot";
    fill($(".center-panel", main), h("p", { class: "boot" }, t("conn.resuming")));
  }
}

function leaveToStart() {
  if (app.linkCode) showJoin(app.linkCode);
  else showLobby();
}

function showLobby() {
  stopLobbyTimer();
  app.screen = "lobby";
  app.linkCode = null;
  app.linkInvite = null;
  app.knock = null;
  dropTable();
  setUrl("/");
  const seat = loadSeat();
  renderLobby(main, lobbyActions, { seated: seat && seat.seat_token ? seat : null, notice: app.notice });
  loadLobby();
  lobbyTimer = setInterval(() => {
    if (document.visibilityState === "visible" && app.status === "online") loadLobby(false);
  }, 8000);
}

function stopLobbyTimer() {
  clearInterval(lobbyTimer);
  lobbyTimer = undefined;
}

/** @param {boolean} [withStats] */
async function loadLobby(withStats = true) {
  const tables = await attempt(net.request({ type: "list_tables" }));
  if (tables && app.screen === "lobby") showTables(tables.tables, lobbyActions);
  if (withStats) {
    const stats = await attempt(net.request({ type: "get_stats" }));
    if (stats && app.screen === "lobby") showStats(stats);
  }
}

/** The join screen of ``code``: a link's, or the door of a table whose host
 * lets players in (app.knock). The link's secret stays in the address bar
 * there, so a reload can still use it.
 * @param {string} code
 * @param {{full?: boolean, kicked?: boolean, admitted?: boolean, focus?: string}} [opts] */
function showJoin(code, opts = {}) {
  stopLobbyTimer();
  if (app.linkCode !== code) app.linkInvite = null;
  if (app.knock && app.knock.code !== code) app.knock = null;
  app.screen = "join";
  app.linkCode = code;
  dropTable();
  setUrl(`/t/${code}`, app.linkInvite);
  const seat = loadSeat();
  const elsewhere = seat && seat.seat_token && codeFrom(seat.code) !== code ? seat : null;
  renderJoin(main, code, lobbyActions, { seated: elsewhere, invite: Boolean(app.linkInvite), knock: app.knock, ...opts });
  loadJoinFacts(code);
}

/** The table's facts on its join screen (``get_table_facts``: its name,
 * host, rules and who sits), public or private, asked with the link's
 * secret when we hold it. By code alone the question spends the network's
 * budget of wrong codes as joining does: it is not asked while that budget
 * makes us wait, and a wait it is told of is kept. A code or link that
 * names no table is said at once; other refusals leave the facts out.
 * @param {string} code */
async function loadJoinFacts(code) {
  const invite = app.linkInvite;
  if (!invite && throttled()) return;
  const current = () => app.screen === "join" && app.linkCode === code && app.linkInvite === invite;
  try {
    const facts = await net.request({ type: "get_table_facts", code, invite });
    if (current()) showJoinFacts(facts, Boolean(invite));
  } catch (err) {
    if (!current()) return;
    if (err.code === "rate_limited" && err.retryAfter !== null) waitFor(err.retryAfter);
    else if (err.code === "no_such_table") showJoinFacts(null, Boolean(invite));
  }
}

function redraw() {
  if (app.screen === "lobby") showLobby();
  else if (app.screen === "join" && app.linkCode) showJoin(app.linkCode);
  else if (app.screen === "table") {
    buildTable(main, tableActions);
    if (app.view) renderTable();
  }
  if (!rulesRoot.hidden) renderRules(rulesRoot, closeRules);
  if (!statsRoot.hidden) openStats();
}

function route() {
  // A link to the same table pasted over this one changes only the
  // fragment: its secret is the one to use from now on.
  const invite = inviteFromHash(location.hash);
  if (invite && app.screen === "join" && invite !== app.linkInvite && codeFrom(location.pathname) === app.linkCode) {
    app.linkInvite = invite;
    showJoin(app.linkCode);
  }
  const rules = location.hash === "#rules";
  const stats = location.hash === "#stats";
  rulesRoot.hidden = !rules;
  statsRoot.hidden = !stats;
  main.hidden = rules || stats;
  if (rules) {
    renderRules(rulesRoot, closeRules);
    window.scrollTo(0, 0);
    $("h1", rulesRoot)?.focus?.();
  }
  if (stats) {
    openStats();
    window.scrollTo(0, 0);
    $("h1", statsRoot)?.focus?.();
  }
}

/** Open Rules & FAQ (Back returns to where the player was), at its section
 * ``section`` if given.
 * @param {string | null} [section] */
function openRules(section = null) {
  if (location.hash !== "#rules") {
    history.pushState({ page: "#rules" }, "", "#rules");
    route();
  }
  const target = section && $(`#rules-${section}`, rulesRoot);
  if (target) {
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }
}

/** The statistics page: this browser's games at once, the server's totals when they come. */
function openStats() {
  renderStatsPage(statsRoot, closeRules);
  // Queued until the connection's handshake is done (a page opened at #stats).
  attempt(net.request({ type: "get_stats" })).then((reply) => {
    if (reply && !statsRoot.hidden) showServerStats(reply);
  });
}

/** Close the Rules or Statistics page (back to where the player was). */
function closeRules() {
  if (history.state && history.state.page) history.back();
  else {
    history.replaceState(null, "", location.pathname);
    route();
  }
}

// -- intents -------------------------------------------------------------------

const lobbyActions = {
  /** "Play vs bots": a table with three bots of ``level`` (remembered),
   * started at once.
   * @param {import("./types").Level} level */
  async quick(level) {
    saveQuickLevel(level);
    await attempt(ensureName());
    const seated = await attempt(
      net.request({ type: "create_table", name: t("lobby.tableNamePlaceholder", { name: playerName() }).slice(0, 40), seats: [level, level, level] }),
    );
    if (!seated) return;
    resetPresenter();
    seatedAt(seated);
    focusWhenShown('.hand .card[tabindex="0"]');
    await attempt(net.request({ type: "start_game" }));
  },
  /** @param {Omit<import("./protocol").CreateTable, "id" | "type">} body */
  async create(body) {
    await attempt(ensureName());
    const seated = await attempt(net.request({ type: "create_table", ...body }));
    if (seated) {
      resetPresenter();
      seatedAt(seated);
      focusWhenShown(".start-game");
    }
  },
  // ``invite``: the secret of an invite link (by default the one this page
  // was opened with, for that code); null joins by the code alone.
  /** @param {string} code @param {string | null} [invite] */
  join: (code, invite = inviteFor(code)) => enter("join", code, invite),
  /** @param {string} code @param {string | null} [invite] */
  watch: (code, invite = inviteFor(code)) => enter("watch", code, invite),
  async knock() {
    const knock = app.knock;
    if (!knock || knock.phase === "waiting") return;
    await attempt(ensureName());
    await knockAt(net.request.bind(net), knock);
  },
  cancelKnock() {
    // There is no message to withdraw a knock: we just stop waiting, and a
    // late answer is ignored.
    const knock = app.knock;
    if (!knock) return;
    knock.phase = "ask";
    showJoin(knock.code, { focus: "knock" });
  },
  async resume() {
    const seat = loadSeat();
    if (!seat || !seat.seat_token) return showLobby();
    resetPresenter();
    beginReplay();
    try {
      const seated = await net.request({ type: "resume", table_id: seat.table_id, seat_token: seat.seat_token, last_seq: seat.last_seq || 0 });
      seatedAt(seated);
    } catch (err) {
      endReplay();
      if (GONE_FOR_GOOD.has(err.code)) seatGone(err.code, seat.code);
      else toast(errorText(err.code, err.message, err.reason), "error");
    }
  },
  dismissNotice() {
    app.notice = null;
    $("#notice")?.remove();
    main.focus();
  },
  refresh: () => loadLobby(false),
  lobby: () => showLobby(),
};

/** @param {string} code */
const inviteFor = (code) => (app.linkCode === code ? app.linkInvite : null);

/** Join (``mode`` "join") or watch the table of ``code``, with an invite
 * link's secret if we have one.
 * @param {"join" | "watch"} mode
 * @param {string} code
 * @param {string | null} invite */
async function enter(mode, code, invite) {
  await attempt(ensureName());
  try {
    const seated = await net.request({ type: mode === "watch" ? "watch" : "join_table", code, invite: invite || undefined });
    resetPresenter();
    seatedAt(seated, invite);
  } catch (err) {
    refusedAtTable(mode, code, invite, err);
  }
}

/** A join or watch of ``code`` was refused: a link's join screen must not
 * keep offering a seat at a table that is gone, an invite link the server
 * does not know is said to be not valid, a throttled lookup waits with a
 * countdown, a table whose host lets players in opens its door (knock), and
 * a removed player is told why they cannot come in.
 * @param {"join" | "watch"} mode
 * @param {string} code
 * @param {string | null} invite
 * @param {RequestError} err */
function refusedAtTable(mode, code, invite, err) {
  if (invite && (err.code === "no_such_table" || err.code === "bad_message")) {
    linkNotValid(code);
    return;
  }
  if (err.code === "no_such_table" && app.screen === "join") {
    seatGone(err.code, code);
    return;
  }
  if (err.code === "rate_limited" && err.retryAfter !== null) {
    waitFor(err.retryAfter); // the page's notes say it, counting down
    return;
  }
  if (err.code === "knock_required") {
    app.knock = { code, mode, phase: "ask" };
    showJoin(code, { focus: "knock" });
    announce(`${t("knock.title")}. ${t("knock.text")}`);
    return;
  }
  toast(errorText(err.code, err.message, err.reason), "error");
  if (app.screen !== "join") return;
  if (err.code === "table_full") showJoin(code, { full: true });
  else if (err.code === "kicked") showJoin(code, { kicked: true });
}

/** A knock was refused (not the host's answer: the request itself).
 * @param {Knock} knock
 * @param {RequestError} err */
function knockFailed(knock, err) {
  if (err.code === "no_such_table") {
    seatGone(err.code, knock.code);
    return;
  }
  // Removed by the host, or the table does not ask: no door to knock at.
  if (err.code === "kicked" || err.code === "not_now") app.knock = null;
  if (app.screen === "join") showJoin(knock.code, { kicked: err.code === "kicked" });
  if (err.code === "rate_limited" && err.retryAfter !== null) waitFor(err.retryAfter);
  else toast(errorText(err.code, err.message, err.reason), "error");
}

/** The host answered our knock: in, we join (or watch) at once; refused,
 * we say so. Ignored if we stopped waiting.
 * @param {import("./protocol").KnockAnswered} msg */
function knockAnswered(msg) {
  const knock = app.knock;
  if (!knock || knock.phase !== "waiting" || app.screen !== "join" || codeFrom(msg.code) !== knock.code) return;
  if (!msg.accepted) {
    knock.phase = "refused";
    showJoin(knock.code, { focus: "knock" });
    announce(t("knock.refused"));
    return;
  }
  app.knock = null;
  announce(t("knock.accepted"));
  showJoin(knock.code, { admitted: true });
  enter(knock.mode, knock.code, null);
}

/**
 * Knock at the door of ``knock.code`` (``send``: net.request, or the
 * handshake's after a reconnect). First try to come in: the host may have
 * let us in already (while we had stopped waiting, or while the connection
 * was down), and a knock would then be answered ok and never again. Knock
 * only if the table still says so, then wait for the answer.
 * @param {Send} send
 * @param {Knock} knock
 */
async function knockAt(send, knock) {
  try {
    const seated = await send({ type: knock.mode === "watch" ? "watch" : "join_table", code: knock.code });
    resetPresenter();
    seatedAt(seated);
    return;
  } catch (err) {
    if (err.code === "disconnected") throw err;
    if (err.code !== "knock_required") {
      knock.phase = "ask";
      if (app.screen === "join") showJoin(knock.code);
      refusedAtTable(knock.mode, knock.code, null, err);
      return;
    }
  }
  try {
    await send({ type: "knock", code: knock.code });
  } catch (err) {
    if (err.code === "disconnected") throw err;
    knock.phase = "ask";
    knockFailed(knock, err);
    return;
  }
  if (app.knock !== knock || app.screen !== "join" || knock.phase === "waiting") return;
  knock.phase = "waiting";
  showJoin(knock.code, { focus: "knock" });
  announce(t("knock.waiting"));
  keepKnocking(knock);
}

/** While we wait at a door, knock again now and then (KNOCK_AGAIN_MS): the
 * server keeps a knock only while the table is in memory (a table nobody is
 * watching is put away, and its knocks with it), and an answer sent while
 * our connection was down is lost. Stops when we stop waiting.
 * @param {Knock} knock */
function keepKnocking(knock) {
  clearInterval(knockTimer);
  knockTimer = setInterval(() => {
    if (app.knock !== knock || knock.phase !== "waiting" || app.screen !== "join") {
      clearInterval(knockTimer);
      knockTimer = undefined;
      return;
    }
    if (app.status !== "online" || knock.busy) return;
    knock.busy = true;
    knockAt(net.request.bind(net), knock).finally(() => {
      knock.busy = false;
    });
  }, KNOCK_AGAIN_MS);
}

const tableActions = {
  /** @param {string[]} cards */
  async pass(cards) {
    app.pending = "pass";
    renderTable();
    const ok = await attempt(net.request({ type: "pass_cards", cards }));
    if (!ok) {
      app.pending = null;
      renderTable();
    }
  },
  /** Hearts with a widow: put down as many cards as the widow gave. */
  /** @param {string[]} cards */
  async discard(cards) {
    app.pending = "discard";
    renderTable();
    const ok = await attempt(net.request({ type: "discard", cards }));
    if (!ok) {
      app.pending = null;
      renderTable();
    }
  },
  /** @param {string} card */
  async play(card) {
    app.pending = card;
    renderTable();
    const ok = await attempt(net.request({ type: "play_card", card }));
    if (!ok) {
      app.pending = null;
      renderTable();
    }
  },
  ready: () => attempt(net.request({ type: "ready" })),
  hint: () => attempt(net.request({ type: "hint" })),
  undo: () => attempt(net.request({ type: "undo" })),
  claim: () => attempt(net.request({ type: "claim" })),
  /** @param {number} hand */
  replay: (hand) => attempt(net.request({ type: "get_replay", hand })),
  /** The review of our decisions in hand ``hand`` of game ``game``, or the
   * refusal's sentence (shown where the review would be).
   * @param {number} hand @param {number | null} game */
  review: (hand, game) => reviewRequest(net.request({ type: "get_analysis", hand, game })),
  /** Every seat's accuracy over the latest finished game, or the refusal's sentence. */
  accuracy: () => reviewRequest(net.request({ type: "get_accuracy" })),
  rematch() {
    app.finalView = null;
    return attempt(net.request({ type: "rematch" }));
  },
  /** Leave the final scores of a game for the rematch that has begun. */
  dismissFinal() {
    app.finalView = null;
    renderTable();
  },
  settingsChanged: () => autoplay(),
  start: () => attempt(net.request({ type: "start_game" })),
  /** @param {"add" | "subtract"} choice */
  moon: (choice) => attempt(net.request({ type: "moon_choice", choice })),
  /** @param {number} seat @param {import("./types").Level} level */
  addBot: (seat, level) => attempt(net.request({ type: "add_bot", seat, level })),
  /** @param {number} seat */
  removeBot: (seat) => attempt(net.request({ type: "remove_bot", seat })),
  /** @param {number} seat @param {import("./types").Level} level */
  async changeBot(seat, level) {
    if (await attempt(net.request({ type: "remove_bot", seat }))) {
      await attempt(net.request({ type: "add_bot", seat, level }));
    }
  },
  /** @param {number} seat */
  kick: (seat) => attempt(net.request({ type: "kick", seat })),
  /** @param {import("./protocol").KickedPlayer} player */
  async allowBack(player) {
    if (await attempt(net.request({ type: "allow_back", player_id: player.player_id }))) {
      toast(t("kicked.allowed", { name: player.name }));
    }
  },
  /** @param {import("./protocol").Knocker} player @param {boolean} accept */
  async answerKnock(player, accept) {
    if (await attempt(net.request({ type: "answer_knock", player_id: player.player_id, accept }))) {
      toast(t(accept ? "knock.admitted" : "knock.turnedAway", { name: player.name }));
    }
  },
  dismissBotReport() {
    app.botReport = null;
    renderTable();
  },
  /** Rules & FAQ at its section ``id`` (the table's ? opens "controls"). */
  /** @param {string} id */
  help: (id) => openRules(id),
  /** @param {number} seat */
  takeSeat: (seat) => attempt(net.request({ type: "take_seat", seat })),
  /** @param {string} text */
  async chat(text) {
    return Boolean(await attempt(net.request({ type: "chat", text })));
  },
  /** @param {boolean} [skipConfirm] */
  async leave(skipConfirm = false) {
    const view = app.view;
    const seated = view && view.seat !== null;
    const inGame = view && (view.status === "playing" || view.status === "between_hands");
    if (seated && inGame && !skipConfirm && !(await confirmDialog(t("table.leaveConfirm")))) return;
    if (seated && view.status !== "waiting") await attempt(net.request({ type: "leave_seat" }));
    else if (seated && view.seat !== view.host_seat) await attempt(net.request({ type: "leave_seat" }));
    await attempt(net.request({ type: "leave" }));
    if (!app.watching) forgetSeat();
    app.watching = null;
    resetPresenter();
    showLobby();
  },
};

/** Ask the player to confirm (the page's #confirm dialog). @param {string} text @returns {Promise<boolean>} */
function confirmDialog(text) {
  const dialog = /** @type {HTMLDialogElement} */ ($("#confirm"));
  $("#confirm-text").textContent = text;
  $("#confirm-ok").textContent = t("table.leave");
  $("#confirm-cancel").textContent = t("nav.back");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

// -- presenting events -----------------------------------------------------------

/** @type {import("./types").PresenterHooks["announceEvents"]} */
function announceEvents(events, view, previous) {
  // Of yourself a sentence of its own ("You draw", never "You draws").
  /** @param {number} seat */
  const of = (seat) => (view.seat !== null && seat === view.seat ? "You" : "");
  for (const e of events) {
    switch (e.type) {
      case "card_played":
        if (e.seat !== view.seat) announce(t("announce.play", { name: seatName(view, e.seat), card: cardName(e.card) }));
        playSound(e.card === "QS" ? "queen" : "card");
        break;
      case "trick_won": {
        // "You take", never "You takes": the sentence of yourself is its own.
        const you = view.seat !== null && e.winner === view.seat ? "You" : "";
        const name = seatName(view, e.winner);
        announce(e.points ? t(`announce.trickPoints${you}`, { name, n: e.points }) : t(`announce.trick${you}`, { name }));
        playSound("trick");
        break;
      }
      case "claim_made":
        claimMade(e, view, seatName);
        break;
      case "hand_dealt":
        announce(t("announce.dealt", { n: e.hand_number }));
        break;
      // What the variants add (Cancellation, widow, Domino Hearts).
      case "trick_carried":
        announce(t("announce.carried"));
        playSound("trick");
        break;
      case "widow_taken":
        announce(t(`announce.widowTaken${of(e.seat)}`, { name: seatName(view, e.seat), n: e.count }));
        break;
      case "widow_discarded":
        announce(t(`announce.widowDiscarded${of(e.seat)}`, { name: seatName(view, e.seat), n: e.count }));
        break;
      case "cards_drawn":
        announce(t(`announce.drew${of(e.seat)}`, { name: seatName(view, e.seat), n: e.count }));
        break;
      case "seat_out":
        announce(t(`announce.out${of(e.seat)}`, { name: seatName(view, e.seat) }));
        break;
      case "cards_received":
        announce(t("announce.received", { cards: cardsTerm(e.cards), name: seatName(view, e.from_seat) }));
        break;
      case "hearts_broken":
        announce(t("announce.heartsBroken"));
        playSound("hearts");
        break;
      case "hand_scored": {
        const summary = e.points.map((p, i) => `${seatName(view, i)} ${p > 0 ? "+" : ""}${p}`).join(", ");
        announce(t("announce.scored", { summary }));
        break;
      }
      case "game_over":
        announce(view.seat !== null && e.winner === view.seat ? t("announce.gameOverYou") : t("announce.gameOver", { name: seatName(view, e.winner) }));
        break;
      case "chat_message":
        if (e.seat !== view.seat) announce(t("announce.chat", { name: e.name, text: e.text }));
        renderChat();
        break;
      case "seat_changed": {
        // A seat that was left or kicked is already open (or a bot's): the
        // player's name is the one the previous view had there.
        const before = previous && previous.table_id === view.table_id ? previous.seats[e.seat.seat] : null;
        const gone = (e.change === "left" || e.change === "kicked") && before && before.kind === "human";
        const name = gone ? before.name : e.seat.name;
        /** @type {{[change: string]: string}} */
        const keys = {
          joined: "announce.joined",
          left: "announce.left",
          away: "announce.away",
          connected: "announce.back",
          covering: "announce.covering",
          kicked: "announce.kicked",
        };
        const key = keys[e.change];
        if (key && e.seat.seat !== view.seat && name) announce(t(key, { name }));
        break;
      }
      default:
        break;
    }
  }
}

/** @type {import("./types").PresenterHooks["onSnapshot"]} */
function onSnapshot(view, previous) {
  const seat = loadSeat();
  if (seat && seat.table_id === view.table_id && view.seat !== null && seat.seat !== view.seat) {
    saveSeat({ ...seat, seat: view.seat });
  }
  // Someone new at the door (host only): the log says so.
  const knocked = new Set(previous && previous.table_id === view.table_id ? (previous.knocks || []).map((k) => k.player_id) : []);
  for (const k of view.knocks || []) if (!knocked.has(k.player_id)) announce(t("knock.announce", { name: k.name }));
  const wasMine = previous && previous.turn === previous.seat && previous.phase === "play";
  const mine = view.status === "playing" && view.phase === "play" && view.seat !== null && view.turn === view.seat;
  if (mine && !wasMine) {
    announce(t("announce.yourTurn"));
    playSound("turn");
  }
  if (view.status === "game_over" && previous?.status !== "game_over") recordGame(view);
}

/** Forced moves: our last card is always played for us, and any single
 * legal card too when the player turned "Play forced cards" on. Checked
 * after every drawing; the card goes out a moment later if it still is
 * the only one then. */
function autoplay() {
  const forced = () => {
    const v = app.view;
    if (!v || app.screen !== "table" || app.linger || app.pending || app.replaying) return null;
    if (v.status !== "playing" || v.phase !== "play" || v.seat === null || v.turn !== v.seat) return null;
    if (v.legal.length !== 1 || !(v.hand.length === 1 || app.autoplay)) return null;
    return `${v.table_id}:${v.hand_number}:${v.legal[0]}`;
  };
  const key = forced();
  if (!key || autoplayTimer) return;
  autoplayTimer = setTimeout(() => {
    autoplayTimer = null;
    // Another forced card by now (no drawing came after the change to
    // check it): its own moment follows.
    if (forced() === key && app.view) tableActions.play(app.view.legal[0]);
    else autoplay();
  }, app.fast ? AUTOPLAY_MS.fast : AUTOPLAY_MS.normal);
}

/** A bot played for us while we were away: a notice on the table until
 * dismissed (several reports before that add up), and the log says it;
 * ``view`` is the snapshot that follows (its rules give a moon's figures,
 * even on a page just opened, which has drawn no table yet).
 * @type {import("./types").PresenterHooks["botCovered"]} */
function botCovered(e, view) {
  const old = app.botReport;
  app.botReport = {
    played: [...(old ? old.played : []), ...e.played],
    passed: [...(old ? old.passed : []), ...e.passed],
    moon: e.moon_choice || (old ? old.moon : null),
    // The turn timer ran out (the player is here) rather than an absence.
    timedOut: Boolean(e.timed_out),
    rules: view.rules,
  };
  announce(botReportText(app.botReport));
}

setPresenterHooks({
  render: () => {
    if (app.screen === "table") {
      renderTable();
      autoplay();
    }
  },
  announceEvents,
  onSnapshot,
  botCovered,
});

// -- start ---------------------------------------------------------------------

async function start() {
  await setupLanguage();
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  app.linkCode = match ? codeFrom(decodeURIComponent(match[1])) : null;
  app.linkInvite = app.linkCode ? inviteFromHash(location.hash) : null;
  window.addEventListener("hashchange", route);
  $("#rules-link").addEventListener("click", (e) => {
    e.preventDefault();
    openRules();
  });
  $("#stats-link").addEventListener("click", (e) => {
    e.preventDefault();
    if (location.hash !== "#stats") {
      history.pushState({ page: "#stats" }, "", "#stats");
      route();
    }
  });
  window.addEventListener("popstate", route);
  $("#home-link").addEventListener("click", (e) => {
    e.preventDefault();
    if (location.hash === "#rules" || location.hash === "#stats") closeRules();
    if (app.screen !== "table") showLobby();
  });
  route();
  fill(main, h("p", { class: "boot" }, t("conn.connecting")));
  net.start();
}

start();
