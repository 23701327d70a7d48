// Undo ("take back"): at a table where you play with bots alone, an Undo
// button beside your hand takes back your last card of this hand and the
// bots' cards played since (the server checks and rewinds; the snapshot that
// follows is drawn as any other). Shown only on your turn, once you have
// played a card in this hand, and never where another human plays.

import { $, announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { app } from "./state.js";

/** @typedef {import("./protocol").SeatView} SeatView */

let asking = false;

/** Whether the view lets you take back a card now (the server decides).
 * @param {SeatView | null} view */
export function undoable(view) {
  if (!view || view.seat === null || view.status !== "playing" || view.phase !== "play") return false;
  if (view.turn !== view.seat || app.linger || app.pending) return false;
  if (view.seats.some((s) => s.seat !== view.seat && s.kind === "human")) return false;
  /** @param {import("./protocol").PlayedCard[]} cards */
  const mine = (cards) => cards.some((c) => c.seat === view.seat);
  return mine(view.trick) || view.tricks.some((tr) => mine(tr.cards));
}

/** The Undo button; ``send`` sends ``undo`` and resolves truthy on ``ok``.
 * @param {() => Promise<unknown>} send
 * @param {() => void} rerender */
export function undoButton(send, rerender) {
  return h(
    "button",
    {
      type: "button",
      class: "btn small ghost undo-button",
      title: t("undo.title"),
      hidden: true,
      onclick: async () => {
        if (asking || !undoable(app.view)) return;
        asking = true;
        rerender();
        try {
          if (await send()) announce(t("undo.done"));
        } finally {
          asking = false;
          rerender();
        }
      },
    },
    t("undo.button"),
  );
}

/** Show the button when a card can be taken back.
 * @param {HTMLElement} root
 * @param {SeatView | null} view */
export function renderUndo(root, view) {
  const button = /** @type {HTMLButtonElement | null} */ ($(".undo-button", root));
  if (!button) return;
  button.hidden = !undoable(view);
  button.disabled = asking;
}
