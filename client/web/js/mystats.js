// Statistics kept in this browser: every game it saw to the end, counted by
// who the opponents were (bots of one level, mixed bots, or people) and by
// the rules (the variant), with games, wins, average points and moons shot.
// The server's own totals for this player (get_stats) are shown beside them.

import { $, fill, h } from "./dom.js";
import { language, t } from "./i18n.js";
import { rulesSummary } from "./rules.js";
import { loadStats, saveStats } from "./storage.js";

/** @typedef {import("./protocol").SeatView} SeatView */

const LEVEL_ORDER = ["easy", "medium", "hard", "mixed", "people"];

/** Who we played against at ``view``'s table: a bot level, "mixed" or "people".
 * @param {SeatView} view
 * @returns {string} */
export function opponentsOf(view) {
  const others = view.seats.filter((s) => s.seat !== view.seat);
  if (others.some((s) => s.kind === "human")) return "people";
  const levels = new Set(others.map((s) => s.bot_level || "mixed"));
  return levels.size === 1 ? [...levels][0] : "mixed";
}

/** Count a finished game (a view in game_over with our seat) once, however
 * often its view arrives (a reload, a resume).
 * @param {SeatView} view */
export function recordGame(view) {
  if (view.status !== "game_over" || view.seat === null || !view.hands.length) return false;
  const stats = loadStats();
  const key = `${view.table_id}:${view.hands.length}:${view.totals.join(",")}`;
  if (stats.seen.includes(key)) return false;
  stats.seen = [...stats.seen, key].slice(-200);
  const opponents = opponentsOf(view);
  const rules = JSON.stringify(view.rules);
  const row = stats.rows[`${opponents}|${rules}`] || { opponents, rules: view.rules, games: 0, wins: 0, points: 0, moons: 0 };
  row.games += 1;
  if (view.winner === view.seat) row.wins += 1;
  row.points += view.totals[view.seat];
  row.moons += view.hands.filter((hand) => hand.shooter === view.seat).length;
  stats.rows[`${opponents}|${rules}`] = row;
  saveStats(stats);
  return true;
}

/** Draw the statistics page into ``root``; ``server`` is the get_stats reply (or null).
 * @param {HTMLElement} root
 * @param {() => void} onBack
 * @param {import("./protocol").Stats | null} [server] */
export function renderStatsPage(root, onBack, server = null) {
  const rows = Object.values(loadStats().rows).sort(
    (a, b) => LEVEL_ORDER.indexOf(a.opponents) - LEVEL_ORDER.indexOf(b.opponents) || b.games - a.games,
  );
  const number = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
  /** @param {string} o */
  const opponentsName = (o) => (o === "people" ? t("mystats.people") : o === "mixed" ? t("mystats.mixed") : t(`bot.${o}`));
  const table = rows.length
    ? h(
        "table",
        { class: "mystats-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("mystats.opponents"), h("span", { class: "rules-cell" }, t("mystats.rules"))),
            ["games", "wins", "avg", "moons"].map((k) => h("th", { scope: "col" }, t(`mystats.${k}`))),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              { dataset: { opponents: r.opponents } },
              // The rules under the opponents: a narrow screen keeps every number in view.
              h("th", { scope: "row" }, opponentsName(r.opponents), h("span", { class: "rules-cell" }, rulesSummary(r.rules).join(" · "))),
              h("td", {}, String(r.games)),
              h("td", {}, String(r.wins)),
              h("td", {}, number.format(r.points / r.games)),
              h("td", {}, String(r.moons)),
            ),
          ),
        ),
      )
    : h("p", { class: "empty" }, t("mystats.none"));
  fill(
    root,
    h(
      "article",
      { class: "rules-page stats-page" },
      h(
        "div",
        { class: "rules-head" },
        h("button", { type: "button", class: "btn ghost", onclick: onBack }, `← ${t("mystats.back")}`),
        h("h1", { tabindex: "-1" }, t("mystats.title")),
      ),
      h("p", { class: "lead" }, t("mystats.local")),
      h("div", { class: "table-scroll" }, table),
      h("h2", {}, t("mystats.server")),
      h("div", { class: "stats", id: "server-stats" }, server ? serverStats(server) : h("p", { class: "empty" }, "…")),
    ),
  );
}

/** The server's totals (the get_stats reply) as the lobby shows them.
 * @param {import("./protocol").Stats} s */
export function serverStats(s) {
  const avg = new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(s.average_points);
  /** @param {string} label @param {string | number} value */
  const item = (label, value) => h("div", { class: "stat" }, h("dt", {}, label), h("dd", {}, String(value)));
  return h(
    "dl",
    {},
    item(t("stats.games"), s.games),
    item(t("stats.wins"), s.wins),
    item(t("stats.hands"), s.hands),
    item(t("stats.avg"), avg),
    item(t("stats.moons"), s.moons),
    item(t("stats.queens"), s.queens),
  );
}

/** Put the server's totals into an open statistics page.
 * @param {import("./protocol").Stats} s */
export function showServerStats(s) {
  const box = $("#server-stats");
  if (box) fill(box, serverStats(s));
}
