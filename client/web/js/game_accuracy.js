// Each seat's accuracy over a finished game on the score sheet: asked for
// (get_accuracy) when the player presses "Accuracy" on the game-over panel,
// and kept for that game. The server reviews every seat's decisions in
// every hand, seconds of CPU each the first time, so it is asked for only
// by whoever wants it, not at every game's end; meanwhile the panel says
// so, and a refusal is a sentence with the button to ask again.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { countsText, meanLoss } from "./review.js";

/** @typedef {import("./protocol").SeatView} SeatView @typedef {import("./protocol").GameAccuracy} GameAccuracy */
/** What we have of a game's accuracy: being reviewed, the reply, or why not.
 * @typedef {{key: string, reply: GameAccuracy | null, error: string | null}} Known */

/** @type {Known | null} */
let known = null;

/** Which game ``view`` shows the end of (a view has no game number: its
 * table, hands and totals tell one game from the next). @param {SeatView} view */
const gameKey = (view) => `${view.table_id}:${view.hands.length}:${view.totals.join(",")}`;

/** What we have of the accuracy of the game ``view`` ends: null before it
 * was asked for (or for a spectator, or a game not over).
 * @param {SeatView} view
 * @returns {Known | null} */
export function accuracyOf(view) {
  if (view.seat === null || view.status !== "game_over") return null;
  return known && known.key === gameKey(view) ? known : null;
}

/** Ask for the accuracy of the game ``view`` ends (``ask``), calling
 * ``redraw`` now and when it comes.
 * @param {SeatView} view
 * @param {() => Promise<GameAccuracy | string>} ask
 * @param {() => void} redraw */
export function askAccuracy(view, ask, redraw) {
  const key = gameKey(view);
  const asked = { key, reply: null, error: null };
  known = asked;
  redraw();
  ask().then((reply) => {
    if (known !== asked) return;
    known = typeof reply === "string" ? { key, reply: null, error: reply } : { key, reply, error: null };
    redraw();
  });
}

/** The game's accuracy for the game-over panel: the button that asks for
 * it (again, after a refusal: with the refusal's sentence), a line while
 * the review runs, else one row per seat (in play order) with its mean loss
 * per decision and its counts of mistakes and blunders.
 * @param {Known | null} acc @param {() => void} onAsk @param {number[]} order
 * @param {(seat: number) => string} nameOf @param {number | null} me */
export function accuracyTable(acc, onAsk, order, nameOf, me) {
  if (!acc || acc.error) {
    return h(
      "div",
      { class: "accuracy-ask-row" },
      h("button", { type: "button", class: "btn small accuracy-ask", onclick: onAsk }, t(acc ? "review.again" : "review.askGame")),
      acc ? h("p", { class: "accuracy-state", role: "status", dataset: { state: "refused" } }, acc.error) : null,
    );
  }
  if (!acc.reply) return h("p", { class: "accuracy-state", role: "status", dataset: { state: "reviewing" } }, t("review.gameReviewing"));
  const bySeat = new Map(acc.reply.seats.map((s) => [s.seat, s.accuracy]));
  return h(
    "table",
    { class: "accuracy-table" },
    h("caption", {}, t("review.gameTitle")),
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("review.meanLoss")), h("th", { scope: "col" }, t("review.mistakesHead")), h("th", { scope: "col" }, t("review.blundersHead"))),
    ),
    h(
      "tbody",
      {},
      order.map((i) => {
        const a = bySeat.get(i);
        return h(
          "tr",
          { dataset: { seat: String(i) }, title: a ? countsText(a) : "" },
          h("th", { scope: "row", class: i === me ? "me" : "" }, nameOf(i)),
          h("td", { class: "mean-loss" }, a ? meanLoss(a) : "–"),
          h("td", { class: "mistakes" }, a ? String(a.mistakes) : "–"),
          h("td", { class: "blunders" }, a ? String(a.blunders) : "–"),
        );
      }),
    ),
  );
}
