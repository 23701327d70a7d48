// Hand review in words: the server's evaluator judged each of a seat's
// decisions in a finished hand (get_analysis) and a whole game's accuracy
// per seat (get_accuracy). This module only says what came back: the card
// chosen, the better one when it differs, the expected points lost and the
// label; the replay dialog (replay.js) and the score sheet (table.js) place
// it.

import { cardsTerm } from "./cards.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";
import { moonEffect } from "./moon_text.js";

/** @typedef {import("./protocol").ReviewedDecision} Decision @typedef {import("./protocol").Accuracy} Accuracy */
/** @typedef {{variant?: string, players?: number} | null | undefined} MoonRules */

/** A loss in points as the language writes numbers: "0.5", "1.25", "3".
 * Shown to two decimals at most, and the plural form is chosen from the
 * number as shown. @param {number} loss */
function points(loss) {
  const n = Math.round(loss * 100) / 100;
  return { n, loss: new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(n) };
}

/** What the seat did, in a sentence ("You played the Queen of spades").
 * @param {Decision} d @param {MoonRules} rules */
function chosenText(d, rules) {
  if (d.kind === "moon_choice") return t("review.moon", { effect: moonEffect(d.chosen[0] || "add", rules) });
  return t(`review.${d.kind}`, { cards: cardsTerm(d.chosen), n: d.chosen.length });
}

/** The better option, when the evaluator found one.
 * @param {Decision} d @param {MoonRules} rules */
function betterText(d, rules) {
  if (!d.best || !d.loss) return null;
  if (d.kind === "moon_choice") return t("review.betterMoon", { effect: moonEffect(d.best[0] || "add", rules) });
  return t("review.better", { cards: cardsTerm(d.best), n: d.best.length });
}

/** One decision: what was chosen, the better option and the points it lost
 * (with its label), or that it was the best.
 * @param {Decision} d @param {MoonRules} rules */
export function decisionView(d, rules) {
  const better = betterText(d, rules);
  let verdict = null;
  if (d.loss !== null && d.best !== null) {
    verdict = better
      ? h("span", { class: "review-loss" }, t("review.loss", points(d.loss)))
      : h("span", { class: "review-best" }, t("review.best"));
  }
  return h(
    "p",
    { class: "review-decision", dataset: { kind: d.kind, label: d.label || "none" } },
    h("span", { class: "review-chosen" }, chosenText(d, rules)),
    better ? h("span", { class: "review-better" }, better) : null,
    verdict,
    d.label ? h("span", { class: `review-label label-${d.label}` }, t(`review.label.${d.label}`)) : null,
  );
}

/** The counts of labels ("2 inaccuracies · 1 mistake · no blunders").
 * @param {Accuracy} a */
export function countsText(a) {
  return [
    t("review.inaccuracies", { n: a.inaccuracies }),
    t("review.mistakes", { n: a.mistakes }),
    t("review.blunders", { n: a.blunders }),
  ].join(" · ");
}

/** A hand's (or game's) accuracy in a sentence: the mean loss per decision
 * over how many, then the counts.
 * @param {Accuracy} a */
export function accuracyText(a) {
  if (!a.decisions) return t("review.noDecisions");
  const { n, loss } = points(a.mean_loss);
  return `${t("review.accuracy", { loss, n, count: a.decisions })} ${countsText(a)}.`;
}

/** The mean loss alone, for a table cell ("0.42"). @param {Accuracy} a */
export const meanLoss = (a) => (a.decisions ? points(a.mean_loss).loss : "–");
