// The Rules/FAQ page, and short descriptions of a table's rules options.

import { rulesContent, t } from "./i18n.js";
import { fill, h } from "./dom.js";
import { moonOption } from "./moon_text.js";

/** @typedef {import("./protocol").ServerRulesModel} Rules */

/** @type {{[name: string]: string[]}} */
const CYCLES = {
  lrah: ["left", "right", "across", "hold"],
  larh: ["left", "across", "right", "hold"],
  lrh: ["left", "right", "hold"],
  left: ["left"],
  right: ["right"],
  none: ["hold"],
};

/** The name ("lrah", "none", …) of a pass cycle, or null if it has none.
 * @param {string[] | null | undefined} cycle
 */
export function cycleName(cycle) {
  const text = (cycle || []).join(",");
  for (const [name, dirs] of Object.entries(CYCLES)) if (dirs.join(",") === text) return name;
  return null;
}

/** @param {string} name */
export const cycleOf = (name) => CYCLES[name] || CYCLES.lrah;

/** One short phrase per option of a table's rules.
 * @param {Rules} rules
 * @returns {string[]}
 */
export function rulesSummary(rules) {
  const out = [];
  // The game and the seat count first, when they are not the usual ones.
  if (rules.variant && rules.variant !== "standard") out.push(t(`variant.${rules.variant}`));
  if (rules.players && rules.players !== 4) out.push(t("opt.summary.players", { n: rules.players }));
  const cycle = cycleName(rules.pass_cycle);
  out.push(cycle ? t(`opt.pass.${cycle}`) : rules.pass_cycle.join(", "));
  out.push(`${t("opt.moon")}: ${moonOption(rules.moon, rules)}`);
  out.push(`${t("opt.firstTrick")}: ${t(`opt.first.${rules.first_trick}`)}`);
  if (rules.queen_breaks_hearts) out.push(t("opt.summary.queenBreaks"));
  out.push(
    rules.end === "hands"
      ? t("opt.summary.hands", { n: rules.end_at })
      : t("opt.summary.points", { n: rules.end_at }),
  );
  if (rules.bonus_card) out.push(t(`opt.bonus.${rules.bonus_card}`));
  return out;
}

/** Draw the Rules/FAQ page into ``root`` (once the language is loaded).
 * @param {HTMLElement} root
 * @param {() => void} onBack
 */
export function renderRules(root, onBack) {
  const c = rulesContent();
  if (!c) return;
  const sections = c.sections.map((s) =>
    h(
      "section",
      // A section with an id can be linked to: the table's ? opens "controls".
      { id: s.id ? `rules-${s.id}` : null, tabindex: s.id ? "-1" : null },
      h("h2", {}, s.title),
      (s.paragraphs || []).map((p) => h("p", {}, p)),
      s.list ? h("ul", {}, s.list.map((item) => h("li", {}, item))) : null,
    ),
  );
  const faq = h(
    "section",
    { class: "faq" },
    h("h2", {}, c.faqTitle),
    c.faq.map((item) => h("details", {}, h("summary", {}, item.q), h("p", {}, item.a))),
  );
  fill(
    root,
    h(
      "article",
      { class: "rules-page" },
      h(
        "div",
        { class: "rules-head" },
        h("button", { type: "button", class: "btn ghost", onclick: onBack }, `← ${t("nav.back")}`),
        h("h1", {}, c.title),
      ),
      c.intro.map((p) => h("p", { class: "lead" }, p)),
      sections,
      faq,
    ),
  );
}
