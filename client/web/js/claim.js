// Claiming the rest: on your turn a Claim button asks the server to prove
// that you take every trick left whatever the others play. A claim that
// holds is played out by the server, and everyone at the table (spectators
// too) sees a banner saying who claimed and why until the next hand; a claim
// that does not hold is refused with the server's sentence (a toast).

import { $, announce, dismissToast, h } from "./dom.js";
import { t } from "./i18n.js";
import { app } from "./state.js";
import { variantOf } from "./variants.js";

let asking = false;
/** @typedef {import("./protocol").SeatView} SeatView */

/** @type {{hand: number, table: string, text: string} | null} */
let shown = null; // {hand, text}: the last claim, shown through its hand's end

/** Whether a claim may be asked for now (the server proves it or refuses);
 * never in a game whose claims the server does not check (two decks, a
 * widow, a stock).
 * @param {SeatView | null} view */
export function claimable(view) {
  return Boolean(
    view && variantOf(view.rules?.variant).claims && view.seat !== null && view.status === "playing" && view.phase === "play" &&
      view.turn === view.seat && view.hand.length >= 2 && !app.linger && !app.pending,
  );
}

/** The Claim button; ``send`` sends ``claim`` and resolves truthy on ``ok``.
 * @param {() => Promise<unknown>} send
 * @param {() => void} rerender */
export function claimButton(send, rerender) {
  return h(
    "button",
    {
      type: "button",
      class: "btn small ghost claim-button",
      title: t("claim.title"),
      hidden: true,
      onclick: async () => {
        if (asking || !claimable(app.view)) return;
        asking = true;
        rerender();
        try {
          await send();
        } finally {
          asking = false;
          rerender();
        }
      },
    },
    t("claim.button"),
  );
}

/** A ``claim_made`` event: say it now and keep it on show for the hand.
 * @param {import("./protocol").ClaimMade} event
 * @param {SeatView} view
 * @param {(view: SeatView, seat: number) => string} seatName */
export function claimMade(event, view, seatName) {
  const you = view.seat !== null && event.seat === view.seat ? "You" : "";
  const key = event.reason === "top_cards" ? "claim.top" : "claim.every";
  const text = t(`${key}${you}`, { name: seatName(view, event.seat) });
  shown = { hand: view.hand_number, table: view.table_id, text };
  // A refusal still on show (an earlier claim refused) is stale now.
  dismissToast();
  announce(text);
}

/** The Claim button and the banner of a claim made this hand.
 * @param {HTMLElement} root
 * @param {SeatView | null} view */
export function renderClaim(root, view) {
  const button = /** @type {HTMLButtonElement | null} */ ($(".claim-button", root));
  if (button) {
    button.hidden = !claimable(view);
    button.disabled = asking;
  }
  const banner = $(".claim-banner", root);
  if (!banner) return;
  const current = shown && view && shown.table === view.table_id && shown.hand === view.hand_number;
  banner.hidden = !current;
  banner.textContent = current && shown ? shown.text : "";
}
