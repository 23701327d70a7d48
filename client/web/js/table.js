// The table screen: seats around the felt, the trick in the middle, your hand
// at the bottom, and a side panel (trick history, score table, chat, table
// info); above the felt, a "paused" banner, the report of what a bot did
// for you while you were away, and (for the host) who is knocking. Everything shown comes from the last snapshot
// (app.view); the only local state is which cards you have chosen to pass,
// and the countdowns to a bot covering an away seat, which tick from the
// snapshot's cover_in.

import { hintButton, renderAdvice } from "./advice.js";
import { renderUndo, undoButton } from "./takeback.js";
import { claimButton, renderClaim } from "./claim.js";
import { showReplay } from "./replay.js";
import { accuracyOf, accuracyTable, askAccuracy } from "./game_accuracy.js";
import { meanLoss, countsText } from "./review.js";
import { baseOf, cardName, cardTerm, faceHTML, isRed, shortName, sortHand, suitOf } from "./cards.js";
import { $, announce, fill, h, toast } from "./dom.js";
import { language, t } from "./i18n.js";
import { shareLink } from "./invite.js";
import { moonCards, moonChoiceOf, moonEffect, moonFigures } from "./moon_text.js";
import { rulesSummary } from "./rules.js";
import { inPlayOrder, isClassic, opponents, passTarget, placeOnRing, posOf, ringPoint, seatAt, seatCount, slotOf } from "./seats_layout.js";
import { setSound, soundOn } from "./sound.js";
import { app } from "./state.js";
import { loadTab, saveAutoplay, saveFast, saveTab } from "./storage.js";

/** @typedef {import("./protocol").SeatView} SeatView @typedef {import("./protocol").SeatInfo} SeatInfo
 * @typedef {import("./types").Card} Card */
/**
 * The screen's long-lived elements.
 * @typedef {{root: HTMLElement, hand: HTMLElement, felt: HTMLElement, trick: HTMLElement, centerPanel: HTMLElement,
 *   status: HTMLElement}} Els
 */
/** The centre panel shown: its mode, element and how it redraws.
 * @typedef {{mode: string, el: HTMLElement | null, update: (view: SeatView) => void}} Center */

// ``actions`` and ``els`` are null only before buildTable and after
// dropTable. Typed as always set: everything that reads them runs from the
// screen buildTable made (its listeners) or after renderTable's check.
/** @type {import("./main.js").TableActions} */
let actions = /** @type {any} */ (null); // set by buildTable: {pass, play, ready, rematch, start, addBot, …}
/** @type {Els} */
let els = /** @type {any} */ (null); // the screen's long-lived elements
/** @type {Center} */
let center = { mode: "", el: null, update: () => {} };
let lastHandKey = "";
let infoFor = "";
/** @type {ReturnType<typeof setInterval> | undefined} */
let countdownTimer; // ticks the "bot in 42 s" badges while any is shown
/** @type {HTMLElement | null} */
let lastFocus = null; // the element of the table that last had the keyboard focus
/** @type {string | null} */
let focusWanted = null; // a selector the focus goes to once the table draws it

// -- names and positions -------------------------------------------------------

export { posOf };

/** What a seat is called: its one name, the same on every screen at the
 * table (the server names bots, SeatInfo.name); where it sits from you is
 * shown by its place, never by its name. Sentences about yourself have
 * keys of their own ("won by you").
 * @param {{seats: SeatInfo[]}} view
 * @param {number | null | undefined} i */
export function seatName(view, i) {
  if (i === null || i === undefined) return "?";
  const s = view.seats[i];
  if (!s) return "?";
  if (s.kind === "open") return t("seat.openSeat");
  return s.name || t("seat.you");
}

/** Hearts with a widow: you took the widow and have yet to discard. @param {SeatView} view */
const discarding = (view) =>
  view.status === "playing" && view.phase === "widow" && view.seat !== null && view.widow_seat === view.seat && !(view.discarded || []).length;

/** How many cards you choose now: a pass (the table's rules; 3 by
 * default), or the widow's discard. @param {SeatView} view */
const passCount = (view) => (discarding(view) ? view.discard_count : (view.rules?.pass_count ?? 3));

/** The card you have chosen to play and sent, not yet answered: it is on
 * the table at once (the server's refusal puts it back in your hand); the
 * pacing of the others' cards never holds it. @param {SeatView} view */
export const cardOnItsWay = (view) =>
  typeof app.pending === "string" && app.pending !== "pass" && app.pending !== "discard" && view.seat !== null && view.hand.includes(app.pending)
    ? app.pending
    : null;

/** @param {SeatView} view */
const myTurn = (view) =>
  view.status === "playing" && view.phase === "play" && view.seat !== null && view.turn === view.seat;
/** @param {SeatView} view */
const passing = (view) =>
  (view.status === "playing" && view.phase === "pass" && view.seat !== null && !view.passed.length) || discarding(view);

// -- building ------------------------------------------------------------------

/** Build the table screen into ``root``; ``acts`` are the intents it may send.
 * @param {HTMLElement} root
 * @param {import("./main.js").TableActions} acts */
export function buildTable(root, acts) {
  actions = acts;
  center = { mode: "", el: null, update: () => {} };
  lastHandKey = "";
  infoFor = "";
  /** @param {string} pos */
  const seatBox = (pos) => h("div", { class: "seat", dataset: { pos } });
  const tabs = ["tricks", "scores", "chat", "info"];
  const tabButtons = tabs.map((name) =>
    h(
      "button",
      {
        type: "button",
        role: "tab",
        class: "tab",
        id: `tab-${name}`,
        "aria-controls": `panel-${name}`,
        dataset: { tab: name },
        onclick: () => selectTab(name),
      },
      h("span", {}, t(`panel.${name}`)),
      name === "chat" ? h("span", { class: "unread", hidden: true }) : null,
    ),
  );
  const chatInput = h("input", {
    type: "text",
    id: "chat-input",
    maxlength: 200,
    autocomplete: "off",
    placeholder: t("chat.placeholder"),
    "aria-label": t("chat.label"),
  });
  const chatForm = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const text = chatInput.value.trim();
        if (!text) return;
        // Cleared at once so the next line can be typed while this one is
        // on its way; given back only if it was refused and nothing new was typed.
        chatInput.value = "";
        actions.chat(text).then((/** @type {boolean} */ ok) => {
          if (!ok && !chatInput.value) chatInput.value = text;
        });
      },
    },
    chatInput,
    h("button", { type: "submit", class: "btn" }, t("chat.send")),
  );
  // Settings, each a switch remembered in this browser.
  /**
   * @param {string} id
   * @param {string} label
   * @param {boolean} on
   * @param {(on: boolean) => void} changed
   * @param {string | null} [title]
   */
  const switchOf = (id, label, on, changed, title = null) => {
    const input = h("input", { type: "checkbox", role: "switch", id, class: "switch-input" });
    input.checked = on;
    input.addEventListener("change", () => changed(input.checked));
    return h("label", { class: "switch", for: id, title }, input, h("span", { class: "switch-track" }), label);
  };
  const settings = h(
    "div",
    { class: "settings" },
    switchOf("fast-play", t("table.fast"), app.fast, (on) => {
      app.fast = on;
      saveFast(on);
    }),
    switchOf("sound", t("table.sound"), soundOn(), setSound),
    switchOf(
      "autoplay",
      t("table.autoplay"),
      app.autoplay,
      (on) => {
        app.autoplay = on;
        saveAutoplay(on);
        actions.settingsChanged();
      },
      t("table.autoplayHint"),
    ),
  );
  const hand = h("div", {
    class: "hand",
    role: "group",
    "aria-label": t("table.hand"),
    onclick: onHandClick,
    onkeydown: onHandKey,
  });
  const screen = h(
      "section",
      { id: "table", class: "table-screen" },
      h(
        "header",
        { class: "table-bar" },
        h(
          "div",
          { class: "table-title" },
          h("h1", { class: "table-name" }),
          h("span", { class: "pill hand-no" }),
          h("span", { class: "pill hearts-broken", hidden: true }, t("turn.heartsBroken")),
          h("span", { class: "pill stock", hidden: true }),
          h("span", { class: "pill carried", hidden: true }),
        ),
        h(
          "div",
          { class: "table-tools" },
          h(
            "div",
            { class: "invite-mini" },
            h("span", { class: "label" }, t("table.code")),
            h("strong", { class: "code" }),
            h("button", { type: "button", class: "btn small copy-link", "aria-label": t("table.copyLink"), onclick: copyLink }, t("table.copyShort")),
          ),
          settings,
        ),
        h("button", { type: "button", class: "btn small ghost leave", title: t("table.leave"), onclick: () => actions.leave() }, t("table.leaveShort")),
      ),
      h(
        "div",
        { class: "table-notices" },
        h("p", { class: "table-banner paused-banner", hidden: true }, t("table.paused")),
        h("p", { class: "table-banner claim-banner", role: "status", hidden: true }),
        h("div", { class: "table-banner knocks", role: "region", "aria-label": t("knock.region"), hidden: true }, h("ul", { class: "knock-list" })),
        h(
          "div",
          { class: "table-banner bot-report", hidden: true },
          h("p", {}),
          h("button", { type: "button", class: "btn small", onclick: () => actions.dismissBotReport() }, t("notice.dismiss")),
        ),
      ),
      h(
        "div",
        { class: "table-body" },
        h(
          "div",
          { class: "felt" },
          seatBox("top"),
          seatBox("left"),
          seatBox("right"),
          // Any other count than four: the opponents on a ring around the trick.
          h("div", { class: "ring-seats" }),
          h(
            "div",
            { class: "me-area" },
            h("div", { class: "seat me", dataset: { pos: "bottom" } }),
            h("p", { class: "status-line", "aria-hidden": "true" }),
            h(
              "div",
              { class: "advice-bar" },
              hintButton(() => actions.hint(), () => renderTable()),
              undoButton(() => actions.undo(), () => renderTable()),
              claimButton(() => actions.claim(), () => renderTable()),
              helpLink(),
              h("p", { class: "advice-line", "aria-hidden": "true", hidden: true }),
            ),
            hand,
          ),
          // After the hand in the page (the grid places it in the middle):
          // Tab from your cards goes straight to Pass, Next hand, Rematch.
          h(
            "div",
            { class: "center" },
            h("div", { class: "trick", role: "group", "aria-label": t("table.trick") }),
            h("div", { class: "center-panel" }),
          ),
        ),
        h(
          "aside",
          { class: "side" },
          h("div", { class: "tabs", role: "tablist", "aria-label": t("panel.tabs") }, tabButtons),
          h("div", { class: "panel", role: "tabpanel", id: "panel-tricks", "aria-labelledby": "tab-tricks" }, h("ol", { class: "trick-list" })),
          h("div", { class: "panel", role: "tabpanel", id: "panel-scores", "aria-labelledby": "tab-scores" }, h("div", { class: "score-table" })),
          h(
            "div",
            { class: "panel", role: "tabpanel", id: "panel-chat", "aria-labelledby": "tab-chat" },
            h("ol", { class: "chat-log", "aria-live": "off" }),
            chatForm,
          ),
          h("div", { class: "panel", role: "tabpanel", id: "panel-info", "aria-labelledby": "tab-info" }),
        ),
      ),
    );
  els = {
    root: screen,
    hand,
    felt: $(".felt", screen),
    trick: $(".trick", screen),
    centerPanel: $(".center-panel", screen),
    status: $(".status-line", screen),
  };
  lastFocus = null;
  els.root.addEventListener("focusin", (e) => {
    lastFocus = /** @type {HTMLElement} */ (e.target);
  });
  fill(root, els.root);
  selectTab(localTab());
}

/** The ? beside Hint, Undo and Claim: what each control does, in Rules &
 * FAQ (a title shows only under a mouse; this also answers a finger). */
function helpLink() {
  return h(
    "a",
    {
      href: "#rules-controls",
      class: "btn small ghost help-link",
      "aria-label": t("table.helpLabel"),
      title: t("table.helpLabel"),
      onclick: (/** @type {MouseEvent} */ e) => {
        e.preventDefault();
        actions.help("controls");
      },
    },
    "?",
  );
}

let chatSeen = 0;
const localTab = () => (["tricks", "scores", "chat", "info"].includes(loadTab()) ? loadTab() : "tricks");

/** @param {string} name */
function selectTab(name) {
  if (!els) return;
  for (const tab of /** @type {NodeListOf<HTMLElement>} */ (els.root.querySelectorAll(".tab"))) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
  }
  for (const panel of /** @type {NodeListOf<HTMLElement>} */ (els.root.querySelectorAll(".panel"))) panel.hidden = panel.id !== `panel-${name}`;
  saveTab(name);
  if (name === "chat") {
    chatSeen = app.chat.length;
    renderChat();
  }
}

/** The link to share: the server's join_path, which for a player carries
 * the invite secret (whoever has it sits at once), for a spectator only the
 * code.
 * @param {SeatView} view */
function inviteLink(view) {
  const path = app.joinPath && app.joinPath.startsWith(`/t/${view.code}`) ? app.joinPath : `/t/${view.code}`;
  return shareLink(path);
}

async function copyLink() {
  const view = app.view;
  if (!view) return;
  const link = inviteLink(view);
  try {
    await navigator.clipboard.writeText(link);
    toast(t("table.copied"));
  } catch {
    selectTab("info");
    const box = /** @type {HTMLTextAreaElement | null} */ ($("#join-link"));
    if (box) {
      box.focus();
      box.select();
    }
    toast(t("table.copyFailed"));
  }
}

// -- rendering -----------------------------------------------------------------

/** Draw app.view (and app.linger, a finished trick still on show). */
export function renderTable() {
  const view = app.view;
  if (!els || !view) return;
  const root = els.root;
  root.dataset.status = view.status;
  root.dataset.phase = view.phase || "";
  root.dataset.myturn = String(myTurn(view) && !app.linger);
  root.dataset.hand = String(view.hand_number);
  root.dataset.seat = view.seat === null ? "" : String(view.seat);
  root.dataset.turn = view.turn === null || view.turn === undefined ? "" : String(view.turn);
  root.dataset.played = String(view.tricks.reduce((sum, tr) => sum + tr.cards.length, 0) + view.trick.length);
  root.dataset.seats = String(seatCount(view));
  root.dataset.lingering = String(Boolean(app.linger));
  $(".table-name", root).textContent = view.name;
  $(".hand-no", root).textContent = view.hand_number ? t("table.handNumber", { n: view.hand_number }) : "";
  $(".hand-no", root).hidden = !view.hand_number;
  $(".hearts-broken", root).hidden = !(view.hearts_broken && view.status === "playing");
  renderFaceDown(view);
  $(".code", root).textContent = formatCode(view.code);
  renderBanners(view);
  renderOpponents(view);
  renderSeat($(".seat.me", root), view, seatAt(view, "bottom"));
  renderTrick(view);
  renderCenter(view);
  renderStatus(view);
  renderHand(view);
  renderAdvice(els.root, els.hand, view);
  renderUndo(els.root, view);
  renderClaim(els.root, view);
  renderTricks(view);
  renderScores(view);
  renderChat();
  renderInfo(view);
  syncCountdowns(view);
  restoreFocus();
  focusWhenDrawn();
}

/** Whether ``el`` can take the focus now (enabled, shown, laid out).
 * @param {HTMLButtonElement} el */
const usable = (el) => !el.disabled && !el.hidden && el.getClientRects().length > 0;

/** Give the keyboard focus to the first element of the table matching
 * ``selector`` as soon as it is drawn: Start after "Create table", your
 * hand after "Play vs bots" (never 14 Tabs away).
 * @param {string} selector */
export function focusWhenShown(selector) {
  focusWanted = selector;
  if (els && app.view) focusWhenDrawn();
}

/** Focus the element focusWhenShown waits for, once it is usable. */
function focusWhenDrawn() {
  if (!focusWanted) return;
  const el = /** @type {HTMLButtonElement | null} */ (els.root.querySelector(focusWanted));
  if (!el || !usable(el)) return;
  focusWanted = null;
  el.focus({ preventScroll: true });
}

/** The element that had the focus is gone (Start, Pass, your last card, a
 * panel that closed) and the focus fell to the page: give it to what comes
 * next, the centre panel's button (Next hand, Rematch, Continue) if it
 * offers one, else your hand. Focus the player moved elsewhere stays. */
function restoreFocus() {
  if (!lastFocus || lastFocus.isConnected) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== $("#app")) return;
  // Nothing yet (a finished trick still on show): the page's main region
  // holds the focus (not the body), and the next drawing looks again.
  // The panel's main button first (Rematch, not the accuracy button above it).
  const buttons = [...els.centerPanel.querySelectorAll("button")].filter(usable);
  const target =
    buttons.find((b) => b.classList.contains("primary")) ||
    buttons[0] ||
    /** @type {HTMLElement | null} */ (els.hand.querySelector('.card[tabindex="0"]')) ||
    $("#app");
  if (target !== active) target.focus({ preventScroll: true });
}

// -- face-down cards: the widow, the domino stock, the cancellation rest -------

/** The cards that lie face down on the table (how many; never which), and
 * in Cancellation Hearts the cards of carried tricks waiting for the next
 * trick's winner.
 * @param {SeatView} view */
function renderFaceDown(view) {
  const playing = view.status === "playing";
  const stock = $(".stock", els.root);
  const kind = view.rules?.variant === "domino" ? "domino" : view.rules?.variant === "widow" ? "widow" : "rest";
  stock.hidden = !(playing && view.stock_count > 0);
  if (!stock.hidden) {
    fill(stock, h("span", { class: "back-icon", "aria-hidden": "true" }), t(`stock.${kind}`, { n: view.stock_count }));
    stock.title = t(`stock.${kind}Hint`);
  }
  const carried = $(".carried", els.root);
  const waiting = playing ? view.carried || [] : [];
  carried.hidden = !waiting.length;
  if (waiting.length) carried.textContent = t("trick.carriedWaiting", { n: waiting.length });
}

// -- banners: paused, what a bot did for you ------------------------------------

/** @param {SeatView} view */
function renderBanners(view) {
  // Only a spectator can see a paused table: a player's own connection
  // counts as a human at the table.
  $(".paused-banner", els.root).hidden = !view.paused;
  const report = $(".bot-report", els.root);
  report.hidden = !app.botReport;
  if (app.botReport) $("p", report).textContent = botReportText(app.botReport);
  renderKnocks(view);
}

/** The host's notice of players knocking (view.knocks: only the host's view
 * has them), each with Let in and Refuse. Redrawn only when the list
 * changes; a keyboard user who answered one moves on to the next.
 * @param {SeatView} view */
function renderKnocks(view) {
  const box = $(".knocks", els.root);
  const host = view.seat !== null && view.seat === view.host_seat;
  const list = host ? view.knocks || [] : [];
  const key = list.map((k) => k.player_id).join(",");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const hadFocus = box.contains(document.activeElement);
  box.hidden = !list.length;
  fill(
    $(".knock-list", box),
    list.map((k) =>
      h(
        "li",
        { dataset: { player: k.player_id } },
        h("span", { class: "knock-name" }, t("knock.at", { name: k.name })),
        h(
          "span",
          { class: "knock-actions" },
          h("button", { type: "button", class: "btn small primary let-in", "aria-label": t("knock.letInLabel", { name: k.name }), onclick: () => actions.answerKnock(k, true) }, t("knock.letIn")),
          h("button", { type: "button", class: "btn small refuse", "aria-label": t("knock.refuseLabel", { name: k.name }), onclick: () => actions.answerKnock(k, false) }, t("knock.refuse")),
        ),
      ),
    ),
  );
  if (hadFocus) ($(".let-in", box) || $("#app")).focus();
}

/** "While you were away, a bot played 5 cards and passed Q♠ A♥ K♥ for you",
 * naming only what it did ({played, passed, moon}); a moon with the
 * figures of the table's rules (``report.rules``, else the table shown).
 * @param {import("./types").BotReport} report */
export function botReportText(report) {
  const parts = [];
  if (report.played.length) parts.push(t("covered.played", { n: report.played.length }));
  // No-break spaces: the passed cards stay together on one line.
  if (report.passed.length) parts.push(t("covered.passed", { cards: report.passed.map(shortName).join("\u00a0") }));
  if (report.moon) parts.push(t(`covered.moon.${report.moon}`, moonFigures(report.rules || app.view?.rules)));
  const actions = new Intl.ListFormat(language(), { type: "conjunction" }).format(parts);
  return t(report.timedOut ? "covered.timedOut" : "covered.text", { actions });
}

// -- countdowns to a bot covering an away seat --------------------------------

/** Whole seconds left of a countdown that had ``coverIn`` s at the last snapshot. @param {number} coverIn */
const secondsLeft = (coverIn) => Math.max(0, Math.ceil(coverIn - (performance.now() - app.viewAt) / 1000));

function tickCountdowns() {
  if (!els) return;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (els.root.querySelectorAll(".badge.countdown"))) {
    // An away seat's wait for its bot, or a turn timer (data-turn-in).
    const turn = el.dataset.turnIn !== undefined;
    const left = secondsLeft(Number(turn ? el.dataset.turnIn : el.dataset.coverIn));
    const text = turn ? t("seat.turnIn", { n: left }) : t("seat.coverIn", { n: left });
    if (el.textContent !== text) el.textContent = text;
  }
}

/** While some seat counts down, check a few times a second, so each
 * second's change shows when it happens; stop when none does.
 * @param {SeatView} view */
function syncCountdowns(view) {
  const running = view.seats.some((s) => (s.cover_in ?? null) !== null || (s.turn_in ?? null) !== null);
  if (running && !countdownTimer) countdownTimer = setInterval(tickCountdowns, 250);
  if (!running && countdownTimer) {
    clearInterval(countdownTimer);
    countdownTimer = undefined;
  }
}

/** A table's code as it is read out ("ABC-DEF"). @param {string | null | undefined} code */
export const formatCode = (code) => (code && code.length === 6 ? `${code.slice(0, 3)}-${code.slice(3)}` : code || "");

/** @param {string} text @param {string} kind */
function badge(text, kind) {
  return h("span", { class: `badge ${kind}` }, text);
}

/** The turn timer's countdown on the seat whose move it is (SeatInfo.turn_in). @param {number} turnIn */
function turnBadge(turnIn) {
  const el = badge(t("seat.turnIn", { n: secondsLeft(turnIn) }), "turn-timer countdown");
  el.dataset.turnIn = String(turnIn);
  return el;
}

/** @param {HTMLElement | null} box @param {SeatView} view @param {number} i */
function renderSeat(box, view, i) {
  const s = view.seats[i];
  if (!box || !s) return;
  const isMe = view.seat !== null && i === view.seat;
  box.dataset.seat = String(i);
  box.dataset.kind = s.kind;
  box.classList.toggle("turn", view.status === "playing" && view.phase === "play" && view.turn === i && !app.linger);
  box.classList.toggle("away", s.away);
  const total = view.totals.length ? view.totals[i] : null;
  const last = view.hands.length ? view.hands[view.hands.length - 1] : null;
  const showResult = (view.status === "between_hands" || view.status === "game_over") && last && !app.linger;
  const badges = [];
  if (s.host) badges.push(badge(t("seat.host"), "host"));
  // A bot's level: a badge, unless the host's level menu on the plate says it.
  const levelMenu = view.status === "waiting" && view.seat !== null && view.seat === view.host_seat && i !== view.seat;
  if (s.kind === "bot" && s.bot_level && !levelMenu) badges.push(badge(t(`bot.${s.bot_level}`), "bot"));
  // A player's own program (its hello said so): never shown as a person.
  if (s.kind === "human" && s.program) badges.push(badge(`⚙ ${t("seat.program")}`, "program"));
  if (s.bot_covering) badges.push(badge(t("seat.covering"), "covering"));
  else if (s.away && s.cover_in !== null && s.cover_in !== undefined) {
    // A bot covers this seat when the countdown ends (another human is here).
    const el = badge(t("seat.coverIn", { n: secondsLeft(s.cover_in) }), "away countdown");
    el.dataset.coverIn = String(s.cover_in);
    badges.push(el);
  } else if (s.away) badges.push(badge(t("seat.away"), "away"));
  if (s.turn_in !== null && s.turn_in !== undefined) badges.push(turnBadge(s.turn_in));
  if (view.status === "playing" && view.phase === "pass" && s.passed) badges.push(badge(`✓ ${t("seat.passed")}`, "ok"));
  if (view.status === "playing" && s.out) badges.push(badge(t("seat.out"), "out"));
  box.classList.toggle("out", view.status === "playing" && Boolean(s.out));
  if (view.status === "between_hands" && s.kind === "human" && s.ready) badges.push(badge(`✓ ${t("seat.ready")}`, "ok"));
  const name = h("span", { class: "seat-name" }, seatName(view, i));
  const meta = [];
  if (view.status !== "waiting" && s.kind !== "open") {
    if (!isMe && view.status === "playing") {
      meta.push(
        h(
          "span",
          { class: "backs", title: t("seat.cards", { n: s.cards_left }) },
          fanOf(s.cards_left),
          h("span", { class: "sr-only" }, t("seat.cards", { n: s.cards_left })),
          h("span", { class: "count", "aria-hidden": "true" }, String(s.cards_left)),
        ),
      );
    }
    if (view.status === "playing") {
      meta.push(
        h(
          "span",
          { class: "taken", title: t("seat.points", { n: s.points_hand }) },
          h("span", { class: "heart-icon", "aria-hidden": "true" }, "♥\uFE0E"),
          h("span", { class: "sr-only" }, t("seat.points", { n: s.points_hand })),
          h("span", { "aria-hidden": "true" }, String(s.points_hand)),
        ),
      );
    }
    if (view.status === "playing") meta.push(...variantMeta(s));
    if (total !== null) meta.push(h("span", { class: "total" }, `${t("hand.total")}: ${total}`));
  }
  /** @type {(HTMLElement | null)[]} */
  const children = [h("div", { class: "seat-head" }, name, badges), meta.length ? h("div", { class: "seat-meta" }, meta) : null];
  if (showResult) {
    const pts = last.points[i];
    children.push(h("div", { class: `bubble${pts > 0 ? " bad" : ""}` }, pts > 0 ? `+${pts}` : String(pts)));
  }
  if (view.status === "playing" && view.turn === i && view.phase === "play" && !isMe && !app.linger) {
    children.push(h("span", { class: "thinking", "aria-hidden": "true" }, h("i"), h("i"), h("i")));
  }
  const controls = seatControls(view, i);
  if (controls) children.push(controls);
  fill(box, children);
}

/** The opponents' name plates: the classic three places at a four-seat
 * table, else one plate per opponent on the ring (rebuilt when the seat
 * count or your seat changes, so a plate keeps its element meanwhile).
 * @param {SeatView} view */
function renderOpponents(view) {
  const classic = isClassic(view);
  els.felt.classList.toggle("ring", !classic);
  els.felt.style.setProperty("--seats", String(seatCount(view)));
  for (const pos of ["top", "left", "right"]) {
    const box = $(`.seat[data-pos="${pos}"]`, els.felt);
    box.hidden = !classic;
    if (classic) renderSeat(box, view, seatAt(view, pos));
  }
  const ring = $(".ring-seats", els.felt);
  const seats = classic ? [] : opponents(view);
  const key = seats.join(",");
  if (ring.dataset.key !== key) {
    ring.dataset.key = key;
    fill(
      ring,
      seats.map((i) => {
        const box = h("div", { class: "seat", dataset: { pos: "ring" } });
        placeOnRing(box, view, i);
        return box;
      }),
    );
  }
  [.../** @type {HTMLCollectionOf<HTMLElement>} */ (ring.children)].forEach((box, k) => renderSeat(box, view, seats[k]));
}

/** What a variant adds to a seat's plate: the cards it drew from the stock
 * (Domino Hearts), the cards in its taken pile face down (a widow discard,
 * the cancellation rest: how many, never which).
 * @param {SeatInfo} s */
function variantMeta(s) {
  const out = [];
  if (s.drawn) out.push(h("span", { class: "drawn" }, t("seat.drew", { n: s.drawn })));
  if (s.hidden_taken) out.push(h("span", { class: "hidden-taken", title: t("seat.hiddenTakenHint") }, t("seat.hiddenTaken", { n: s.hidden_taken })));
  return out;
}

/** An opponent's hand: ``n`` card backs fanned out. @param {number} n */
function fanOf(n) {
  return h(
    "span",
    { class: "fan", style: `--n:${n}`, "aria-hidden": "true" },
    Array.from({ length: n }, (_, k) => h("i", { style: `--k:${k}` })),
  );
}

/** @param {SeatView} view @param {number} i */
function seatControls(view, i) {
  if (view.status !== "waiting") return null;
  const s = view.seats[i];
  const host = view.seat !== null && view.seat === view.host_seat;
  if (host && i !== view.seat) {
    if (s.kind === "open") {
      const level = h(
        "select",
        { class: "bot-level", "aria-label": t("seat.level") },
        ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" }, t(`bot.${l}`))),
      );
      return h(
        "div",
        { class: "seat-controls" },
        level,
        h("button", { type: "button", class: "btn small add-bot", onclick: () => actions.addBot(i, /** @type {import("./types").Level} */ (level.value)) }, t("seat.addBot")),
      );
    }
    if (s.kind === "bot") {
      const level = h(
        "select",
        {
          class: "bot-level",
          "aria-label": t("seat.level"),
          // The select offers the three levels only.
          onchange: (/** @type {Event} */ e) => actions.changeBot(i, /** @type {import("./types").Level} */ (/** @type {HTMLSelectElement} */ (e.target).value)),
        },
        ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === s.bot_level }, t(`bot.${l}`))),
      );
      return h(
        "div",
        { class: "seat-controls" },
        level,
        h("button", { type: "button", class: "btn small ghost remove-bot", onclick: () => actions.removeBot(i) }, t("seat.removeBot")),
      );
    }
    return h(
      "div",
      { class: "seat-controls" },
      h("button", { type: "button", class: "btn small ghost kick", onclick: () => actions.kick(i) }, t("seat.kick")),
    );
  }
  if (!host && view.seat !== null && s.kind === "open") {
    return h(
      "div",
      { class: "seat-controls" },
      h("button", { type: "button", class: "btn small sit", onclick: () => actions.takeSeat(i) }, t("seat.sitHere")),
    );
  }
  return null;
}

// -- the trick -----------------------------------------------------------------

/** @param {SeatView} view @param {number} seat @param {Card} card */
function trickCard(view, seat, card) {
  const el = h("div", {
    class: "card played",
    role: "img",
    "aria-label": `${seatName(view, seat)}: ${cardName(card)}`,
    dataset: { card, seat: String(seat), pos: posOf(view, seat) },
  });
  el.innerHTML = faceHTML(card);
  // Who played it, on the card: on a phone the plates are a grid above the
  // trick, so where a card lies does not say whose it is (the card's label
  // says it to a screen reader).
  el.append(h("span", { class: "played-by", "aria-hidden": "true" }));
  return el;
}

/** @param {SeatView} view */
function renderTrick(view) {
  const box = els.trick;
  /** @type {import("./protocol").PlayedCard[]} */
  let cards;
  /** @type {number | null} */
  let winner = null;
  if (app.linger) {
    const { cards: played, leader } = app.linger;
    // A variant's trick names who played each card (domino: seats that are
    // out play no more); otherwise the seats follow the leader in order.
    const seats = app.linger.seats;
    cards = played.map((card, k) => ({ seat: seats ? seats[k] : (leader + k) % seatCount(view), card }));
    winner = app.linger.winner;
  } else {
    cards = view.status === "playing" ? view.trick : [];
    const own = cardOnItsWay(view);
    const seat = view.seat;
    if (own && seat !== null && !cards.some((c) => c.seat === seat)) cards = [...cards, { seat, card: own }];
  }
  const cancelled = cancelledIn(cards.map((c) => c.card));
  // Cards already on the table stay where they are: moving a node in the
  // page restarts its animations (a card would fly in again at every play,
  // the winner's glow twice). Only new cards are added, gone ones removed;
  // each card's place comes from its data-pos, not from the page order.
  /** @param {number | string | undefined} seat @param {Card | undefined} card */
  const keyOf = (seat, card) => `${seat}:${card}`;
  const wanted = new Set(cards.map(({ seat, card }) => keyOf(seat, card)));
  /** @type {Map<string, HTMLElement>} */
  const keep = new Map();
  for (const el of [.../** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)]) {
    const key = keyOf(el.dataset.seat, el.dataset.card);
    if (wanted.has(key)) keep.set(key, el);
    else el.remove();
  }
  const own = app.linger ? null : cardOnItsWay(view);
  for (const { seat, card } of cards) {
    let el = keep.get(keyOf(seat, card));
    if (!el) {
      el = trickCard(view, seat, card);
      box.append(el);
      // When your card reached the table, in the page's own timeline (the
      // browser tests check it is there before the click's event is over).
      if (card === own && seat === view.seat) performance.mark("own-card-on-table", { detail: card });
    }
    el.dataset.pos = posOf(view, seat);
    if (!isClassic(view)) placeOnRing(el, view, seat);
    el.classList.toggle("winner", winner === seat);
    const by = $(".played-by", el);
    const name = seatName(view, seat);
    if (by.textContent !== name) by.textContent = name;
    by.title = name;
    const gone = cancelled.has(card);
    el.classList.toggle("cancelled", gone);
    el.setAttribute("aria-label", `${seatName(view, seat)}: ${cardName(card)}${gone ? `, ${t("trick.cancelled")}` : ""}`);
    el.title = gone ? t("trick.cancelledWhy") : "";
  }
  const collector = app.collecting;
  const collecting = collector !== null && collector !== undefined;
  box.dataset.collect = collecting ? posOf(view, collector) : "";
  if (collecting && !isClassic(view)) {
    // The cards leave towards the winner's plate on the ring.
    const { x, y } = ringPoint(slotOf(view, collector), seatCount(view));
    box.style.setProperty("--gx", String(x));
    box.style.setProperty("--gy", String(y));
  }
  box.classList.toggle("lingering", Boolean(app.linger));
}

/** Cancellation Hearts: the cards of a trick that cancel, two identical
 * cards (the same card of the two decks), neither of which can win.
 * @param {Card[]} cards */
function cancelledIn(cards) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const c of cards) seen.set(baseOf(c), (seen.get(baseOf(c)) || 0) + 1);
  return new Set(cards.filter((c) => (seen.get(baseOf(c)) || 0) > 1));
}

// -- the centre panel ----------------------------------------------------------

/** @param {SeatView} view */
function centerMode(view) {
  // The final scores of a game stay until the player goes on, even when the
  // host has started a rematch meanwhile.
  if (app.finalView && app.finalView.table_id === view.table_id && view.status !== "game_over") return "kept";
  if (app.linger) return "none";
  if (view.status === "waiting") return "waiting";
  if (view.status === "game_over") return "over";
  if (view.status === "between_hands") return "result";
  if (view.phase === "moon_choice") return view.moon_shooter === view.seat && view.seat !== null ? "moon-me" : "moon-other";
  if (view.phase === "pass" && view.seat !== null) return view.passed.length ? "passed" : "pass";
  if (view.phase === "widow") return discarding(view) ? "discard" : "widow-other";
  return "none";
}

/** @param {SeatView} view */
function renderCenter(view) {
  const mode = centerMode(view);
  if (mode !== center.mode) {
    const built = BUILDERS[mode](view);
    center = { mode, ...built };
    els.centerPanel.dataset.mode = mode;
    fill(els.centerPanel, built.el);
    els.felt.dataset.panel = mode;
  }
  center.update(mode === "kept" && app.finalView ? app.finalView : view);
}

/** @returns {Omit<Center, "mode">} */
const nothing = () => ({ el: null, update: () => {} });

/** @param {string | null | undefined} direction */
function directionArrow(direction) {
  return h("span", { class: `arrow dir-${direction}`, "aria-hidden": "true" }, "➜");
}

/** Each centre panel's builder, by mode (centerMode).
 * @type {{[mode: string]: (view: SeatView) => Omit<Center, "mode">}} */
const BUILDERS = {
  none: nothing,
  waiting() {
    const link = h("textarea", { id: "invite-link", class: "link-box", readonly: true, rows: 2, spellcheck: "false", "aria-label": t("info.link") });
    const code = h("strong", { class: "big-code" });
    const start = h("button", { type: "button", class: "btn primary start-game", onclick: () => actions.start() }, t("table.start"));
    const hint = h("p", { class: "hint" });
    const approval = h("p", { class: "hint approval-note" });
    const kicked = h("div", { class: "kicked-box" });
    const el = h(
      "div",
      { class: "panel-card waiting-room" },
      h("p", {}, t("table.invite")),
      h("div", { class: "invite-row" }, h("span", { class: "label" }, t("table.code")), code),
      h("div", { class: "invite-row" }, link, h("button", { type: "button", class: "btn small", onclick: copyLink }, t("table.copyLink"))),
      approval,
      start,
      hint,
      kicked,
    );
    return {
      el,
      update(v) {
        code.textContent = formatCode(v.code);
        link.value = inviteLink(v);
        const host = v.seat !== null && v.seat === v.host_seat;
        approval.hidden = !v.approval;
        approval.textContent = host ? t("table.approvalHost") : t("table.approvalGuest");
        start.hidden = !host;
        // The host is told what an open seat becomes only while one is open.
        const open = v.seats.some((s) => s.kind === "open");
        hint.textContent = v.seat === null ? t("table.spectating") : host ? (open ? t("table.startHint") : t("table.startFull")) : t("table.waitHost");
        renderKicked(kicked, v);
      },
    };
  },
  pass() {
    const text = h("p", { class: "pass-text" });
    const count = h("p", { class: "pass-count", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "btn primary pass-btn", id: "pass-button", onclick: onPass }, t("pass.button"));
    const arrow = h("span");
    const el = h("div", { class: "panel-card pass-panel" }, arrow, text, count, button);
    return {
      el,
      update(v) {
        const dir = v.pass_direction;
        fill(arrow, directionArrow(dir));
        if (v.seat === null) return; // a pass panel is only drawn for a seat (centerMode)
        const target = passTarget(v, v.seat, dir);
        text.textContent = t("pass.choose", { dir: t(`pass.dir.${dir}`), name: seatName(v, target) });
        count.textContent = t("pass.chosen", { n: app.selected.size, of: passCount(v) });
        button.disabled = app.selected.size !== passCount(v) || app.pending === "pass";
      },
    };
  },
  discard() {
    const text = h("p", { class: "pass-text" });
    const count = h("p", { class: "pass-count", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "btn primary pass-btn discard-btn", id: "pass-button", onclick: onPass }, t("widow.button"));
    const el = h("div", { class: "panel-card pass-panel widow-panel" }, text, count, button);
    return {
      el,
      update(v) {
        text.textContent = t("widow.choose", { n: v.discard_count, cards: sortHand(v.widow || []).map(shortName).join(" ") });
        count.textContent = t("pass.chosen", { n: app.selected.size, of: passCount(v) });
        button.disabled = app.selected.size !== v.discard_count || app.pending === "discard";
      },
    };
  },
  "widow-other"() {
    const text = h("p", { class: "pass-text" });
    return {
      el: h("div", { class: "panel-card pass-panel widow-panel" }, text),
      update(v) {
        const who = v.widow_seat ?? 0;
        text.textContent =
          v.seat !== null && who === v.seat
            ? t("widow.discardedYou", { cards: sortHand(v.discarded || []).map(shortName).join(" ") })
            : t("widow.waiting", { name: seatName(v, who), n: v.discard_count });
      },
    };
  },
  passed() {
    const text = h("p", { class: "pass-text" });
    const el = h("div", { class: "panel-card pass-panel" }, text, h("p", { class: "hint" }, t("pass.waiting")));
    return {
      el,
      update(v) {
        const cards = sortHand(v.passed).map(shortName).join(" ");
        text.textContent = t("pass.sent", { cards, name: seatName(v, v.passed_to ?? 0) });
      },
    };
  },
  "moon-me"(view) {
    // The table's own figures: a Spot moon is worth 104, not 26.
    const figures = moonFigures(view.rules);
    const el = h(
      "div",
      { class: "panel-card moon-panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "moon-title" },
      h("h2", { id: "moon-title" }, t("moon.title")),
      h("p", {}, t("moon.text", { cards: moonCards(view.rules) })),
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", class: "btn primary moon-add", onclick: () => actions.moon("add") }, t("moon.add", figures)),
        h("button", { type: "button", class: "btn primary moon-subtract", onclick: () => actions.moon("subtract") }, t("moon.subtract", figures)),
      ),
    );
    return { el, update: () => {} };
  },
  "moon-other"() {
    const text = h("p");
    return {
      el: h("div", { class: "panel-card moon-panel" }, text),
      update(v) {
        text.textContent = t("moon.waiting", { name: seatName(v, v.moon_shooter ?? 0) });
      },
    };
  },
  result() {
    const title = h("h2");
    const moon = h("p", { class: "moon-line" });
    const table = h("div", { class: "result-table" });
    const next = h("button", { type: "button", class: "btn primary next-hand", onclick: () => actions.ready() }, t("hand.next"));
    const waiting = h("p", { class: "hint" });
    return {
      el: h("div", { class: "panel-card result-panel" }, title, moon, table, next, waiting),
      update(v) {
        const last = v.hands[v.hands.length - 1];
        title.textContent = t("hand.result", { n: last ? last.hand_number : v.hand_number });
        moonLine(moon, v, last);
        fill(table, resultRows(v, last));
        const mine = v.seat !== null ? v.seats[v.seat] : null;
        next.hidden = !mine || mine.ready;
        const missing = v.seats.filter((s) => s.kind === "human" && s.connected && !s.ready).map((s) => seatName(v, s.seat));
        waiting.textContent = mine && mine.ready && missing.length ? t("hand.waitingFor", { names: missing.join(", ") }) : "";
      },
    };
  },
  over: () => overPanel(false),
  kept: () => overPanel(true),
};

/** The game-over panel: the final scores and the winner; the host's
 * Rematch, or (``kept``: the rematch has begun) Continue to the new game.
 * @param {boolean} kept
 * @returns {Omit<Center, "mode">} */
function overPanel(kept) {
  const title = h("h2", {}, t("game.over"));
  const winner = h("p", { class: "winner-line" });
  const table = h("div", { class: "result-table" });
  const rematch = kept
    ? h("button", { type: "button", class: "btn primary continue", onclick: () => actions.dismissFinal() }, t("game.continue"))
    : h("button", { type: "button", class: "btn primary rematch", onclick: () => actions.rematch() }, t("game.rematch"));
  const wait = h("p", { class: "hint" });
  const accuracy = h("div", { class: "accuracy-box" });
  const lobby = h("button", { type: "button", class: "btn ghost to-lobby", onclick: () => actions.leave(true) }, t("game.toLobby"));
  return {
    el: h("div", { class: "panel-card over-panel" }, trophy(), title, winner, table, accuracy, h("div", { class: "row" }, rematch, lobby), wait),
    update(v) {
      const known = accuracyOf(v);
      // A spectator has no accuracy to ask for (get_accuracy is a seat's).
      const ask = () => askAccuracy(v, actions.accuracy, renderTable);
      // Redrawn only when what is known changes (the button keeps its focus).
      const key = `${v.table_id}:${v.hands.length}:${v.totals}:${known ? (known.reply ? "r" : known.error ? "e" : "w") : "-"}`;
      if (v.seat === null) fill(accuracy);
      else if (accuracy.dataset.key !== key) fill(accuracy, accuracyTable(known, ask, inPlayOrder(v), (seat) => seatName(v, seat), v.seat));
      accuracy.dataset.key = v.seat === null ? "" : key;
      const w = v.winner ?? 0;
      winner.textContent = v.seat !== null && w === v.seat ? t("game.youWin") : t("game.winner", { name: seatName(v, w) });
      fill(table, resultRows(v, v.hands[v.hands.length - 1]));
      const host = v.seat !== null && v.seat === v.host_seat;
      rematch.hidden = !kept && !host;
      wait.textContent = kept ? t("game.rematchStarted") : host ? "" : t("game.waitRematch");
    },
  };
}

function trophy() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "trophy");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML =
    '<path fill="currentColor" d="M28 8h44v8h16v10c0 14-10 24-22 26-3 8-8 13-12 15v13h14v12H24V80h14V67c-4-2-9-7-12-15C14 50 4 40 4 26V16h24zm0 16H12v2c0 8 6 15 14 17-1-5-2-12-2-19zm44 0c0 7-1 14-2 19 8-2 14-9 14-17v-2z"/>';
  return svg;
}

/** @param {HTMLElement} el @param {SeatView} view @param {import("./protocol").HandResult | undefined} last */
function moonLine(el, view, last) {
  const shooter = last ? last.shooter : null;
  el.hidden = shooter === null || shooter === undefined;
  if (!el.hidden) {
    const effect = moonEffect(moonChoiceOf(last, view.rules), view.rules);
    el.textContent = shooter === view.seat ? t("hand.moonYou", { effect }) : t("hand.moon", { name: seatName(view, shooter), effect });
  }
}

/** @param {SeatView} view @param {import("./protocol").HandResult | undefined} last */
function resultRows(view, last) {
  const order = inPlayOrder(view);
  const low = Math.min(...view.totals);
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("hand.points")), h("th", {}, t("hand.total")))),
    h(
      "tbody",
      {},
      order.map((i) =>
        h(
          "tr",
          { class: view.totals[i] === low ? "leader" : "" },
          h("th", { scope: "row", class: i === view.seat ? "me" : "", dataset: { seat: String(i) } }, seatName(view, i)),
          h("td", {}, last ? signed(last.points[i]) : "–"),
          h("td", {}, String(view.totals[i] ?? 0)),
        ),
      ),
    ),
  );
}

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : String(n));

function onPass() {
  const view = app.view;
  if (!view || app.selected.size !== passCount(view) || app.pending) return;
  if (discarding(view)) actions.discard([...app.selected]);
  else actions.pass([...app.selected]);
}

// -- the status line -----------------------------------------------------------

/** @param {SeatView} view */
function renderStatus(view) {
  const el = els.status;
  let text = "";
  let mine = false;
  if (view.seat === null) text = t("table.spectating");
  else if (view.status === "playing" && view.phase === "play" && !app.linger) {
    if (myTurn(view)) {
      mine = true;
      text = view.trick.length ? t("turn.yours") : t("turn.lead");
    } else if (view.turn !== null) text = t("turn.other", { name: seatName(view, view.turn) });
    if (view.pass_direction === "hold" && view.tricks.length === 0 && view.trick.length === 0) {
      text = `${t("pass.hold")} · ${text}`;
    }
  }
  el.textContent = text;
  el.classList.toggle("mine", mine);
}

// -- your hand ----------------------------------------------------------------

/** @param {Card} card */
function cardButton(card) {
  const b = h("button", { type: "button", class: "card", dataset: { card }, tabindex: "-1" });
  b.innerHTML = faceHTML(card);
  return b;
}

/** @param {SeatView} view */
function renderHand(view) {
  const box = els.hand;
  // The card on its way to the table has left the hand already.
  const cards = view.status === "waiting" ? [] : sortHand(view.hand).filter((c) => c !== cardOnItsWay(view));
  const handKey = `${view.table_id}:${view.hand_number}`;
  const fresh = handKey !== lastHandKey || box.childElementCount === 0;
  lastHandKey = handKey;
  const mode = passing(view) ? "pass" : myTurn(view) && !app.linger ? "play" : "wait";
  box.dataset.mode = mode;
  box.style.setProperty("--n", String(Math.max(cards.length, 1)));
  // A phone lays a long hand out in two rows of whole cards (style.css).
  box.style.setProperty("--per-row", String(Math.max(Math.ceil(cards.length / 2), 1)));
  box.dataset.rows = cards.length > 8 ? "2" : "1";
  const legal = new Set(view.legal);
  const marked = new Set(view.received_marked ? view.received : []);
  const focused = document.activeElement;
  const hadFocus = focused && box.contains(focused) ? /** @type {HTMLElement} */ (focused).dataset.card : null;
  // Every child is a card button (cardButton), with its data-card.
  /** @type {Map<string, HTMLElement>} */
  const existing = new Map([.../** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)].map((el) => [String(el.dataset.card), el]));
  let focusIndex = -1;
  const previousCards = [...existing.keys()];
  for (const [card, el] of existing) if (!cards.includes(card)) el.remove();
  cards.forEach((card, k) => {
    let el = existing.get(card);
    if (!el || fresh) {
      if (el) el.remove();
      el = cardButton(card);
      el.classList.add(fresh ? "dealt" : "arrived");
      el.style.setProperty("--i", String(k));
    }
    if (box.children[k] !== el) box.insertBefore(el, box.children[k] || null);
    const playable = mode === "play" && legal.has(card) && !app.pending;
    const blocked = mode === "play" && !legal.has(card);
    const selected = mode === "pass" && app.selected.has(card);
    el.classList.toggle("blocked", blocked);
    el.classList.toggle("selected", selected);
    el.classList.toggle("received", marked.has(card));
    el.classList.toggle("pending", app.pending === card);
    el.dataset.legal = mode === "play" ? String(legal.has(card)) : mode === "pass" ? "true" : "false";
    if (mode === "pass") el.setAttribute("aria-pressed", String(selected));
    else el.removeAttribute("aria-pressed");
    const inert = mode === "wait" || blocked || (mode === "play" && !playable);
    if (inert) el.setAttribute("aria-disabled", "true");
    else el.removeAttribute("aria-disabled");
    let label = cardName(card);
    if (marked.has(card)) label += `, ${t("card.received")}`;
    if (blocked) label += `, ${t("card.notPlayable")}`;
    el.setAttribute("aria-label", label);
    if (card === hadFocus) focusIndex = k;
  });
  // Roving tabindex: one card is in the tab order; keep focus where it was.
  const buttons = [.../** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)];
  let target = focusIndex;
  if (target < 0 && hadFocus) {
    const old = previousCards.indexOf(hadFocus);
    target = Math.min(Math.max(old, 0), buttons.length - 1);
  }
  if (target < 0) {
    target = buttons.findIndex((b) => b.tabIndex === 0);
    if (mode === "play") {
      const firstLegal = buttons.findIndex((b) => b.dataset.legal === "true");
      if (target < 0 || buttons[target]?.dataset.legal !== "true") target = firstLegal;
    }
    if (target < 0) target = 0;
  }
  buttons.forEach((b, k) => {
    b.tabIndex = k === target ? 0 : -1;
  });
  if (hadFocus && buttons[target] && document.activeElement !== buttons[target]) {
    buttons[target].focus({ preventScroll: true });
  }
}

/** @param {MouseEvent} event */
function onHandClick(event) {
  const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".card"));
  if (!button || !app.view) return;
  cardChosen(button.dataset.card || "", button);
}

/** @param {Card} card @param {HTMLElement} button */
function cardChosen(card, button) {
  const view = app.view;
  if (!view) return;
  if (passing(view)) {
    if (app.pending) return;
    if (app.selected.has(card)) app.selected.delete(card);
    else if (app.selected.size < passCount(view)) app.selected.add(card);
    else {
      nudge(button);
      toast(t("pass.chosen", { n: passCount(view), of: passCount(view) }));
      return;
    }
    const n = app.selected.size;
    announce(t(app.selected.has(card) ? "announce.selected" : "announce.unselected", { card: cardTerm(card), n }));
    renderTable();
    return;
  }
  if (myTurn(view) && !app.linger) {
    if (app.pending) return;
    if (view.legal.includes(card)) {
      actions.play(card);
      return;
    }
  }
  nudge(button);
  toast(illegalHint(view, card));
}

/** @param {HTMLElement | null} button */
function nudge(button) {
  if (!button) return;
  button.classList.remove("nudge");
  void button.offsetWidth; // restart the animation
  button.classList.add("nudge");
}

/** Why a card cannot be played: words only; legality itself is the server's.
 * @param {SeatView} view
 * @param {Card} card */
function illegalHint(view, card) {
  if (!myTurn(view) || app.linger) return t("hint.notYourTurn");
  const first = view.tricks.length === 0;
  if (!view.trick.length) {
    if (first) return t("hint.lead");
    if (suitOf(card) === "H" && !view.hearts_broken) return t("hint.hearts");
    return t("hint.illegal");
  }
  const led = suitOf(view.trick[0].card);
  if (suitOf(card) !== led && view.hand.some((c) => suitOf(c) === led)) return t("hint.follow");
  if (first) return t("hint.firstTrick");
  return t("hint.illegal");
}

/** @param {KeyboardEvent} event */
function onHandKey(event) {
  const buttons = [.../** @type {NodeListOf<HTMLElement>} */ (els.hand.querySelectorAll(".card"))];
  const i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (i < 0) return;
  /** @type {number | null} */
  let j = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (event.key === "Home") j = 0;
  else if (event.key === "End") j = buttons.length - 1;
  if (j === null) return;
  event.preventDefault();
  buttons.forEach((b, k) => {
    b.tabIndex = k === j ? 0 : -1;
  });
  buttons[j].focus();
}

// -- side panels ---------------------------------------------------------------

/** @param {Card} card @param {boolean} [winning] @param {boolean} [cancelled] */
function mini(card, winning = false, cancelled = false) {
  const cls = `mini ${isRed(card) ? "red" : "black"}${winning ? " win" : ""}${cancelled ? " cancelled" : ""}`;
  const title = cancelled ? `${cardName(card)}, ${t("trick.cancelledWhy")}` : cardName(card);
  return h("span", { class: cls, title }, shortName(card));
}

/** "led by West", "led by you": yourself has a sentence of its own (the
 * verb agrees with "you" in Ukrainian and Russian).
 * @param {SeatView} view
 * @param {string} key
 * @param {number} seat */
function byWhom(view, key, seat) {
  if (view.seat !== null && seat === view.seat) return t(`${key}You`);
  return t(key, { name: seatName(view, seat) });
}

/** The tricks the history shows: not the one still on the table (a
 * finished trick lingering), whose "won by you +2" comes once it is taken.
 * @param {SeatView} view */
function shownTricks(view) {
  if (view.status === "waiting") return [];
  const last = view.tricks[view.tricks.length - 1];
  const lingering = app.linger && last && last.cards.map((c) => c.card).join() === app.linger.cards.join();
  return lingering ? view.tricks.slice(0, -1) : view.tricks;
}

/** @param {SeatView} view */
function renderTricks(view) {
  const list = $(".trick-list", els.root);
  const tricks = shownTricks(view);
  if (!tricks.length) {
    fill(list, h("li", { class: "empty" }, t("tricks.none")));
    return;
  }
  fill(
    list,
    tricks.map((tr, k) =>
      h(
        "li",
        { class: "trick-row" },
        h(
          "div",
          { class: "trick-row-head" },
          h("strong", {}, t("tricks.number", { n: k + 1 })),
          h("span", {}, byWhom(view, "tricks.led", tr.leader)),
          tr.winner === null || tr.winner === undefined
            ? h("span", { class: "won carried" }, t("tricks.carried"))
            : h("span", { class: "won" }, byWhom(view, "tricks.won", tr.winner)),
          tr.points ? h("span", { class: "pts" }, signed(tr.points)) : null,
        ),
        h(
          "div",
          { class: "trick-row-cards" },
          tr.cards.map((pc) => mini(pc.card, pc.seat === tr.winner, (tr.cancelled || []).includes(pc.card))),
          (tr.carried_in || []).length ? h("span", { class: "carried-in" }, t("tricks.carriedIn", { n: tr.carried_in.length })) : null,
        ),
      ),
    ),
  );
  const panel = $("#panel-tricks", els.root);
  if (!panel.hidden) panel.scrollTop = panel.scrollHeight;
}

/** Ask for a finished hand and show it (replay.js).
 * @param {SeatView} view
 * @param {number} number */
async function openReplay(view, number) {
  const replay = await actions.replay(number);
  if (!replay) return;
  const game = replay.game ?? null;
  const askReview = replay.seat === null ? null : () => actions.review(number, game);
  showReplay(replay, (seat) => seatName(view, seat), askReview, view.rules);
}

/** @param {SeatView} view */
function renderScores(view) {
  const box = $(".score-table", els.root);
  if (!view.hands.length) {
    fill(box, h("p", { class: "empty" }, t("scores.none")));
    return;
  }
  const order = inPlayOrder(view);
  const low = Math.min(...view.totals);
  // Each seat's running total after each hand.
  /** @type {Map<import("./protocol").HandResult, number[]>} */
  const running = new Map();
  let sums = view.seats.map(() => 0);
  for (const hand of view.hands) {
    sums = sums.map((sum, i) => sum + (hand.points[i] ?? 0));
    running.set(hand, sums);
  }
  fill(
    box,
    h(
      "table",
      { dataset: { seats: order.length > 6 ? "many" : "few" } },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("scores.hand")),
          // A name the column cuts short is whole in its title.
          order.map((i) => h("th", { scope: "col", class: i === view.seat ? "me" : "", title: seatName(view, i), dataset: { seat: String(i) } }, seatName(view, i))),
        ),
      ),
      h(
        "tbody",
        {},
        view.hands.map((hand) =>
          h(
            "tr",
            {},
            h(
              "th",
              { scope: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "link replay-link",
                  dataset: { hand: String(hand.hand_number) },
                  "aria-label": t("replay.open", { n: hand.hand_number }),
                  onclick: () => openReplay(view, hand.hand_number),
                },
                String(hand.hand_number),
              ),
            ),
            order.map((i) =>
              h(
                "td",
                { class: hand.shooter === i ? "moon" : "", dataset: { seat: String(i) } },
                String(hand.points[i]),
                hand.shooter === i ? h("span", { class: "moon-mark", title: t("scores.moon") }, " ☾") : null,
                // The seat's total after this hand, under its points.
                h("span", { class: "running", title: t("scores.runningTitle") }, String(running.get(hand)?.[i])),
              ),
            ),
          ),
        ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("scores.total")),
          order.map((i) => h("td", { class: view.totals[i] === low ? "leader" : "" }, String(view.totals[i]))),
        ),
        accuracyRow(view, order),
      ),
    ),
  );
}

/** At game over, the score sheet's last row: each seat's mean loss per
 * decision (its counts in the cell's title), once the review is in.
 * @param {SeatView} view @param {number[]} order */
function accuracyRow(view, order) {
  const reply = accuracyOf(view)?.reply;
  if (!reply) return null;
  const bySeat = new Map(reply.seats.map((s) => [s.seat, s.accuracy]));
  return h(
    "tr",
    { class: "accuracy-row" },
    h("th", { scope: "row", title: t("review.meanLossTitle") }, t("review.meanLossShort")),
    order.map((i) => {
      const a = bySeat.get(i);
      return h("td", { dataset: { seat: String(i) }, title: a ? countsText(a) : "" }, a ? meanLoss(a) : "–");
    }),
  );
}

/** Draw the chat log and the chat tab's count of unread lines. */
export function renderChat() {
  if (!els) return;
  const log = $(".chat-log", els.root);
  const lines = app.chat;
  if (!lines.length) fill(log, h("li", { class: "empty" }, t("chat.empty")));
  else {
    fill(
      log,
      lines.map((line) => h("li", {}, h("strong", {}, `${line.name}: `), h("span", {}, line.text))),
    );
  }
  const panel = $("#panel-chat", els.root);
  const unread = $(".unread", els.root);
  if (!panel.hidden) {
    chatSeen = lines.length;
    log.scrollTop = log.scrollHeight;
  }
  const count = Math.max(0, lines.length - chatSeen);
  unread.hidden = count === 0;
  unread.textContent = String(count);
}

/** @param {SeatView} view */
function renderInfo(view) {
  const panel = $("#panel-info", els.root);
  const key = `${view.table_id}:${view.status === "waiting"}`;
  if (infoFor !== key) {
    infoFor = key;
    const link = inviteLink(view);
    const secret = link.includes("#");
    fill(
      panel,
      h("h2", {}, view.name),
      h("p", {}, `${t("table.code")}: `, h("strong", {}, formatCode(view.code))),
      h("label", { for: "join-link" }, t("info.link")),
      h("div", { class: "invite-row" }, h("textarea", { id: "join-link", class: "link-box", readonly: true, rows: 2, spellcheck: "false", value: link }), h("button", { type: "button", class: "btn small", onclick: copyLink }, t("table.copyLink"))),
      secret ? h("p", { class: "hint small link-hint" }, t("info.linkHint")) : null,
      view.approval ? h("p", { class: "approval-note" }, t("info.approval")) : null,
      view.turn_seconds ? h("p", { class: "turn-timer-note" }, t("info.turnTimer", { n: view.turn_seconds })) : null,
      h("h3", {}, t("info.rules")),
      h("ul", { class: "rules-list" }, rulesSummary(view.rules).map((r) => h("li", {}, r))),
      h("div", { class: "kicked-box" }),
    );
  }
  renderKicked($(".kicked-box", panel), view);
}

/** The host's list of players they removed, each with "Allow back" (in the
 * waiting room, where players are removed, and in the Table panel, for a
 * removal made during the game from another client). Others see nothing.
 * @param {HTMLElement} box
 * @param {SeatView} view */
function renderKicked(box, view) {
  const host = view.seat !== null && view.seat === view.host_seat;
  const list = host ? view.kicked || [] : [];
  const key = list.map((p) => p.player_id).join(",");
  if (box.dataset.key === key) return; // redrawn only when the list changes
  box.dataset.key = key;
  if (!list.length) {
    fill(box);
    return;
  }
  fill(
    box,
    h("h3", {}, t("kicked.title")),
    h(
      "ul",
      { class: "kicked-list" },
      list.map((p) =>
        h(
          "li",
          { dataset: { player: p.player_id } },
          h("span", { class: "kicked-name" }, p.name),
          h(
            "button",
            { type: "button", class: "btn small allow-back", "aria-label": t("kicked.allowLabel", { name: p.name }), onclick: () => actions.allowBack(p) },
            t("kicked.allow"),
          ),
        ),
      ),
    ),
    h("p", { class: "hint small" }, t("kicked.hint")),
  );
}

/** Forget the screen (leaving the table). */
export function dropTable() {
  els = /** @type {any} */ (null);
  focusWanted = null;
  clearInterval(countdownTimer);
  countdownTimer = undefined;
}
