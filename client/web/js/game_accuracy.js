// Each seat's accuracy over a finished game on the score sheet: asked for
// (get_accuracy) once when the game is over and kept for that game. The
// server reviews every seat's decisions in every hand, which takes a while
// the first time: meanwhile the sheet says so, and a refusal is a sentence.

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

/** The accuracy of the game ``view`` ends, asking for it (``ask``) the
 * first time and calling ``redraw`` when it comes; null for a spectator or
 * a game not over.
 * @param {SeatView} view
 * @param {() => Promise<GameAccuracy | string>} ask
 * @param {() => void} redraw
 * @returns {Known | null} */
export function accuracyOf(view, ask, redraw) {
  if (view.seat === null || view.status !== "game_over") return null;
  const key = gameKey(view);
  if (known && known.key === key) return known;
  const asked = { key, reply: null, error: null };
  known = asked;
  ask().then((reply) => {
    if (known !== asked) return;
    known = typeof reply === "string" ? { key, reply: null, error: reply } : { key, reply, error: null };
    redraw();
  });
  return known;
}

/** The game's accuracy for the game-over panel: a line while the review
 * runs or when it was refused, else one row per seat (in play order) with
 * its mean loss per decision and its counts of mistakes and blunders.
 * @param {Known} acc @param {number[]} order @param {(seat: number) => string} nameOf @param {number | null} me */
export function accuracyTable(acc, order, nameOf, me) {
  if (!acc.reply) {
    const text = acc.error || t("review.gameReviewing");
    return h("p", { class: "accuracy-state", role: "status", dataset: { state: acc.error ? "refused" : "reviewing" } }, text);
  }
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
