// The page's state and the pacing of table events.
//
// The server sends, after every accepted action, that action's events and
// then a snapshot (the whole view of our seat). Bots answer instantly, so a
// trick can arrive as a burst. The presenter takes messages in order, groups
// the events that precede each snapshot, and shows each group at a human
// pace: a played card stays a moment before the next one appears, a finished
// trick lingers with its winning card highlighted. What is drawn is always a
// snapshot; events only choose the pause and the announcement.

import { loadAutoplay, loadChat, loadFast, loadPaced, loadPlayer, loadSeat, saveChat, saveSeat } from "./storage.js";
import { pause, reducedMotion } from "./dom.js";

/** @typedef {import("./protocol").SeatView} SeatView @typedef {import("./types").TableMessage} TableMessage
 * @typedef {import("./types").TableEvent} TableEvent @typedef {import("./types").ChatLine} ChatLine */

/** @type {import("./types").App} */
export const app = {
  status: "connecting", // connection: connecting | online | offline
  player: loadPlayer(), // {token, name}
  helloName: "", // the name the server knows us by on this connection
  screen: "boot", // boot | lobby | join | table
  linkCode: null, // the code of a /t/CODE link we were opened with
  // The secret of that link (/t/CODE#k=SECRET), for joining or watching
  // linkCode's table. In memory only: never stored, never logged, sent only
  // as join_table.invite or watch.invite.
  linkInvite: null,
  knock: null, // at the door of a table whose host lets players in: {code, mode: join | watch, phase: ask | waiting | refused}
  watching: null, // {table_id, code, invite} when spectating
  joinPath: null, // the link to share, as the server gave it (seated.join_path): /t/CODE#k=SECRET for players
  tableId: null, // the table whose events arrive now
  view: null, // the last snapshot's SeatView
  linger: null, // a finished trick still on show: {cards, leader, winner, seats}
  collecting: null, // the seat a finished trick slides to
  selected: new Set(), // cards chosen for passing
  selectedFor: "", // the hand those were chosen in
  pending: null, // "pass" or a card: sent, not yet answered
  chat: [],
  fast: loadFast(),
  autoplay: loadAutoplay(), // play any single legal card by itself (the last card always is)
  finalView: null, // the view of a finished game, kept on show until the player goes on (a rematch may start meanwhile)
  replaying: false, // a resume's missed events are arriving: no pauses
  viewAt: 0, // when (performance.now()) the snapshot of app.view arrived: countdowns run from it
  botReport: null, // what a bot did for us while we were away: {played, passed, moon}, until dismissed
  notice: null, // why we are back on the start page: {kind, code}, until dismissed
};

const PACE = {
  normal: { card: 650, trick: 1500, collect: 260 },
  fast: { card: 140, trick: 520, collect: 120 },
  // localStorage "hearts.pace" = 0 (storage.loadPaced): the browser tests
  // run without pauses, except those that check the pacing itself.
  none: { card: 0, trick: 0, collect: 0 },
};
const paced = loadPaced();
const pace = () => (!paced ? PACE.none : app.fast ? PACE.fast : PACE.normal);

/** @type {import("./types").PresenterHooks} */
let hooks = { render: () => {}, announceEvents: () => {}, onSnapshot: () => {}, botCovered: () => {} };
/** What the presenter calls (main.js: drawing, announcing, a bot's report).
 * @param {Partial<import("./types").PresenterHooks>} h */
export function setPresenterHooks(h) {
  hooks = { ...hooks, ...h };
}

/** @type {(TableMessage & {at?: number})[]} */
const queue = [];
/** @type {TableEvent[]} */
let batch = [];
let running = false;
// The table's recent chat, sent just before the snapshot of a join, resume
// or watch: merged into app.chat when that snapshot is presented.
/** @type {import("./protocol").ChatMessage[] | null} */
let chatHistory = null;

/** The seat this browser keeps for the current table (or null). */
export function currentSeat() {
  const seat = loadSeat();
  const view = app.view;
  return seat && (!view || seat.table_id === view.table_id) ? seat : null;
}

/** A table event or snapshot from the server.
 * @param {TableMessage | import("./protocol").ChatHistory} msg */
export function receive(msg) {
  const seat = loadSeat();
  const tableId = msg.type === "snapshot" ? msg.view.table_id : app.tableId;
  const seq = "seq" in msg ? msg.seq : undefined;
  if (seat && seat.table_id === tableId && typeof seq === "number" && seq > (seat.last_seq || 0)) {
    saveSeat({ ...seat, last_seq: seq });
  }
  if (msg.type === "chat_message") addChat(msg);
  if (msg.type === "chat_history") {
    chatHistory = msg.lines;
    return;
  }
  // Countdowns (SeatInfo.cover_in) count from when the snapshot arrived,
  // not from when the presenter gets round to showing it.
  queue.push(msg.type === "snapshot" ? Object.assign(msg, { at: performance.now() }) : msg);
  if (!running) run();
}

/** Forget everything queued (leaving a table). */
export function resetPresenter() {
  queue.length = 0;
  batch = [];
  app.view = null;
  app.linger = null;
  app.collecting = null;
  app.pending = null;
  app.selected = new Set();
  app.chat = [];
  chatHistory = null;
  app.tableId = null;
  app.joinPath = null;
  app.botReport = null;
  app.finalView = null;
}

export function beginReplay() {
  app.replaying = true;
}
export function endReplay() {
  app.replaying = false;
}

async function run() {
  running = true;
  try {
    while (queue.length) {
      const msg = /** @type {TableMessage & {at?: number}} */ (queue.shift());
      if (msg.type !== "snapshot") {
        batch.push(msg);
        continue;
      }
      const events = batch;
      batch = [];
      await present(events, msg.view, msg.at ?? performance.now());
    }
  } finally {
    running = false;
  }
}

/**
 * Show one snapshot and the events that led to it, at the table's pace.
 * @param {TableEvent[]} events
 * @param {SeatView} view
 * @param {number} at when the snapshot arrived (performance.now())
 */
async function present(events, view, at) {
  // Catching up (a resume, or a tab that slept): draw the truth at once.
  const instant = app.replaying || queue.length > 24;
  // What a bot did in our name arrives with a resume's missed events: it is
  // told even then (that is exactly when it matters).
  for (const e of events) if (e.type === "bot_covered" && e.seat === view.seat) hooks.botCovered(e, view);
  const previous = app.view;
  if (!previous || previous.table_id !== view.table_id) {
    app.chat = mergeChat(loadChat(view.table_id), app.chat.filter((c) => c.table_id === view.table_id));
  }
  if (chatHistory) {
    const lines = chatHistory.map((l) => ({ seq: l.seq, seat: l.seat, name: l.name, text: l.text, table_id: view.table_id }));
    chatHistory = null;
    app.chat = mergeChat(app.chat, lines);
    saveChat(view.table_id, app.chat);
  }
  // A carried trick (Cancellation Hearts: nobody wins it) stays on show too.
  const won = /** @type {import("./protocol").TrickWon | import("./protocol").TrickCarried | undefined} */ (
    events.findLast((e) => e.type === "trick_won" || e.type === "trick_carried")
  );
  const played = events.some((e) => e.type === "card_played");
  if (!instant) hooks.announceEvents(events, view, previous);
  if (won && !instant) {
    app.view = view;
    app.viewAt = at;
    const seats = won.seats && won.seats.length ? won.seats : null;
    const winner = "winner" in won ? won.winner : undefined;
    app.linger = { cards: won.cards, leader: won.leader, winner: winner ?? null, trick: won.trick, seats };
    settle(view);
    hooks.render();
    await pause(pace().trick);
    if (!reducedMotion() && winner !== undefined && winner !== null) {
      app.collecting = winner;
      hooks.render();
      await pause(pace().collect);
    }
    app.linger = null;
    app.collecting = null;
  }
  app.view = view;
  app.viewAt = at;
  if (view.status === "game_over" && view.seat !== null) app.finalView = view;
  settle(view);
  hooks.onSnapshot(view, previous);
  hooks.render();
  if (app.replaying) app.replaying = false;
  if (played && !won && !instant) await pause(pace().card);
}

/** Local choices that a new view makes stale. @param {SeatView} view */
function settle(view) {
  const handKey = `${view.table_id}:${view.hand_number}`;
  // Cards chosen to pass, or (Hearts with a widow) to discard, stay chosen
  // while that choice is still to make.
  const discarding = view.phase === "widow" && view.seat !== null && view.widow_seat === view.seat && !(view.discarded || []).length;
  if (app.selectedFor !== handKey || (view.phase !== "pass" && !discarding) || view.passed.length) {
    app.selected = new Set();
  }
  app.selectedFor = handKey;
  for (const card of app.selected) if (!view.hand.includes(card)) app.selected.delete(card);
  if (app.pending === "pass" && (view.passed.length || view.phase !== "pass")) app.pending = null;
  if (app.pending === "discard" && ((view.discarded || []).length || view.phase !== "widow")) app.pending = null;
  if (app.pending && app.pending !== "pass" && app.pending !== "discard") {
    if (!view.hand.includes(app.pending) || view.turn !== view.seat) app.pending = null;
  }
}

/** @param {import("./protocol").ChatMessage} msg */
function addChat(msg) {
  const tableId = app.tableId || "";
  const line = { seq: msg.seq, seat: msg.seat, name: msg.name, text: msg.text, table_id: tableId };
  app.chat = mergeChat(app.chat, [line]);
  if (tableId) saveChat(tableId, app.chat);
}

/**
 * The lines of ``a`` and ``b`` by seq (``b``'s win), the last 60.
 * @param {ChatLine[]} a
 * @param {ChatLine[]} b
 */
function mergeChat(a, b) {
  /** @type {Map<number, ChatLine>} */
  const bySeq = new Map();
  for (const line of [...a, ...b]) bySeq.set(line.seq, line);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq).slice(-60);
}
