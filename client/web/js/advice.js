// Hints on request: a "Hint" button beside your hand asks the server what the
// Medium bot would do in your seat (judged from your own view only) and
// shows it: the card to play is marked in your hand, the cards to pass are
// chosen for you (Pass still waits for you), a moon choice is named. The
// advice belongs to the moment it was asked for: it is forgotten as soon as
// the table moves on (another card played, the pass locked, a new hand).

import { cardTerm, cardsTerm } from "./cards.js";
import { $, announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { moonFigures } from "./moon_text.js";
import { app } from "./state.js";

/** @typedef {import("./protocol").SeatView} SeatView */

/** @type {{moment: string, kind: string, cards: string[], choice?: string | null} | null} */
let advice = null; // {moment, kind, cards, choice}
let asking = false;

/** The moment a hint answers: the table's play so far, as the view shows it.
 * @param {SeatView} view */
const momentOf = (view) => `${view.table_id}:${view.hand_number}:${view.phase}:${view.tricks.length}:${view.trick.length}:${view.passed.length}`;

/** Whether the view asks something of your seat that a hint can answer.
 * @param {SeatView | null} view
 * @returns {view is SeatView} */
export function hintable(view) {
  if (!view || view.seat === null || view.status !== "playing" || app.linger || app.pending) return false;
  if (view.phase === "pass") return !view.passed.length && view.legal.length > 0;
  if (view.phase === "play") return view.turn === view.seat && view.legal.length > 0;
  if (view.phase === "moon_choice") return view.moon_shooter === view.seat;
  return false;
}

/** The Hint button; ``ask`` sends the ``hint`` request and resolves to the
 * ``advice`` reply (or null when it was refused).
 * @param {() => Promise<import("./protocol").Advice | null>} ask
 * @param {() => void} rerender */
export function hintButton(ask, rerender) {
  return h(
    "button",
    {
      type: "button",
      class: "btn small ghost hint-button",
      title: t("advice.title"),
      hidden: true,
      onclick: async () => {
        const view = app.view;
        if (asking || !hintable(view)) return;
        asking = true;
        const moment = momentOf(view);
        try {
          const reply = await ask();
          if (!reply || !app.view || momentOf(app.view) !== moment) return;
          advice = { moment, kind: reply.kind, cards: reply.cards || [], choice: reply.choice };
          if (advice.kind === "pass") {
            app.selected = new Set(advice.cards);
            app.selectedFor = `${app.view.table_id}:${app.view.hand_number}`;
          }
          announce(adviceText());
        } finally {
          asking = false;
          rerender();
        }
      },
    },
    t("advice.button"),
  );
}

function adviceText() {
  if (!advice) return "";
  if (advice.kind === "play") return t("advice.play", { card: cardTerm(advice.cards[0]) });
  if (advice.kind === "pass") return t("advice.pass", { cards: cardsTerm(advice.cards) });
  return t(advice.choice === "subtract" ? "advice.moonSubtract" : "advice.moonAdd", moonFigures(app.view?.rules));
}

/** Show the button when a hint can be asked, and mark the advised cards
 * while the advice still holds.
 * @param {HTMLElement} root
 * @param {HTMLElement} hand
 * @param {SeatView | null} view */
export function renderAdvice(root, hand, view) {
  if (advice && (!view || momentOf(view) !== advice.moment)) advice = null;
  const button = /** @type {HTMLButtonElement | null} */ ($(".hint-button", root));
  if (button) {
    button.hidden = !hintable(view);
    button.disabled = asking;
  }
  const advised = new Set(advice && advice.kind === "play" ? advice.cards : []);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (hand.querySelectorAll(".card"))) {
    el.classList.toggle("advised", advised.has(el.dataset.card || ""));
    if (advised.has(el.dataset.card || "")) el.setAttribute("aria-label", `${el.getAttribute("aria-label")}, ${t("advice.mark")}`);
  }
  const line = $(".advice-line", root);
  if (line) {
    line.textContent = adviceText();
    line.hidden = !advice;
  }
}
