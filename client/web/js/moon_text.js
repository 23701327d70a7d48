// A moon in words, with the table's true figures: the host form's options,
// the rules summary, the moon dialog, the hint, the report of a bot's moon
// and the hand's summary. A moon is worth the deck's positive penalties
// (26; Spot 104, Black Maria 43, Cancellation 52: docs/rules.md "Moon
// scoring, in general"), and Greek's transfer takes it from each other seat.

import { t } from "./i18n.js";
import { variantOf } from "./variants.js";

/** The figures of a moon under ``rules`` ({variant, players}): ``n``, what
 * each other seat gets (or the shooter loses), and ``total``, what the
 * shooter loses in a transfer (``n`` from each other seat).
 * @param {{variant?: string, players?: number} | null | undefined} rules
 */
export function moonFigures(rules) {
  const n = variantOf(rules?.variant).moonValue;
  const players = rules?.players || 4;
  return { n, total: n * (players - 1) };
}

/** The name of a moon scoring option ("Everyone else +104").
 * @param {string} mode
 * @param {{variant?: string, players?: number} | null | undefined} rules */
export const moonOption = (mode, rules) => t(`opt.moon.${mode}`, moonFigures(rules));

/** What a moon scored as ``choice`` did ("everyone else +26, the shooter −78").
 * @param {string} choice
 * @param {{variant?: string, players?: number} | null | undefined} rules */
export const moonEffect = (choice, rules) => t(`moon.effect.${choice}`, moonFigures(rules));

/** The cards a moon takes under ``rules`` ("all 13 hearts").
 * @param {{variant?: string} | null | undefined} rules */
export const moonCards = (rules) => t(`moon.cards.${variantOf(rules?.variant).moonCards}`);

/** How the moon of ``hand`` (a HandResult) was scored: its own choice, or
 * the table's fixed scoring.
 * @param {{moon_choice?: string | null} | null | undefined} hand
 * @param {{moon?: string} | null | undefined} rules
 * @returns {string} */
export const moonChoiceOf = (hand, rules) => hand?.moon_choice || (rules?.moon === "choice" ? "add" : rules?.moon) || "add";
