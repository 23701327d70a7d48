// The lobby: your name, a new table (rules options, the other seats, and
// whether the host approves who sits), joining by code or link, public
// tables waiting for players, your statistics, and why we are back here (a
// notice: removed by the host, a table gone, a seat no longer ours, a link
// that is not valid). And the join screen a /t/CODE link opens, which is
// also the door of a table whose host lets players in (knocking).

import { $, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { parseLink } from "./invite.js";
import { cycleOf, rulesSummary } from "./rules.js";
import { VARIANTS, cyclesFor, variantOf } from "./variants.js";
import { moonOption } from "./moon_text.js";
import { serverStats } from "./mystats.js";
import { app } from "./state.js";
import { loadQuickLevel } from "./storage.js";
import { formatCode } from "./table.js";
import { syncThrottle, throttled } from "./throttle.js";

/** @typedef {import("./main.js").LobbyActions} LobbyActions @typedef {import("./types").SavedSeat} SavedSeat */

const LEVELS = ["easy", "medium", "hard"];

/** Where the wait of a throttled lookup by code is counted down. */
const throttleNote = () => h("p", { class: "throttle-note", role: "note", hidden: true });

/**
 * @param {string} label
 * @param {HTMLElement} control
 * @param {HTMLElement | null} [hint]
 */
function field(label, control, hint = null) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), control, hint);
}

/** The text of ``key`` with its {code} in a span that never breaks (a
 * phone's narrow title keeps "ABC-DEF" on one line).
 * @param {string} key
 * @param {string} code */
function withCode(key, code) {
  const mark = "\u0001";
  const [before, after = ""] = t(key, { code: mark }).split(mark);
  return [before, h("span", { class: "code-whole" }, formatCode(code)), after];
}

/** The ``turn_seconds`` a turn-timer choice sends ("off": none). @param {string} choice */
const turnSeconds = (choice) => (choice === "off" ? null : parseInt(choice, 10));

/**
 * @param {string} id
 * @param {string[][]} options [value, label] pairs
 * @param {string} value
 */
function select(id, options, value) {
  return h(
    "select",
    { id, name: id },
    options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
  );
}

function nameInput() {
  const input = h("input", {
    id: "player-name",
    type: "text",
    maxlength: 24,
    required: true,
    autocomplete: "nickname",
    placeholder: t("lobby.namePlaceholder"),
    value: app.player.name || "",
  });
  input.addEventListener("input", () => {
    app.player.name = input.value.trim();
  });
  return input;
}

/** The headline and the sentence of a start-page notice {kind, code}:
 * kicked (the host removed us), gone (no such table), lost (bad seat token),
 * badLink (an invite link whose secret the server does not know).
 * @param {import("./types").Notice} notice */
export function noticeLines(notice) {
  const code = formatCode(notice.code);
  return [t(`notice.${notice.kind}.title`, { code }), t(`notice.${notice.kind}.text`, { code })];
}

/** @param {import("./types").Notice} notice @param {LobbyActions} acts */
function noticeCard(notice, acts) {
  const [title, text] = noticeLines(notice);
  return h(
    "div",
    { class: "panel-card notice", id: "notice", tabindex: "-1", dataset: { kind: notice.kind } },
    h("div", { class: "notice-text" }, h("h2", {}, title), h("p", {}, text)),
    h("button", { type: "button", class: "btn small", onclick: () => acts.dismissNotice() }, t("notice.dismiss")),
  );
}

/** Refill ``sel`` with ``values`` (labels from ``label``), keeping its value
 * when still offered; a single choice is shown but cannot be changed (the
 * variant fixes it).
 * @param {HTMLSelectElement} sel
 * @param {string[]} values
 * @param {(value: string) => string} label
 * @param {string | null} [preferred]
 */
function offer(sel, values, label, preferred = null) {
  const keep = values.includes(sel.value) ? sel.value : preferred && values.includes(preferred) ? preferred : values[0];
  fill(
    sel,
    values.map((v) => h("option", { value: v, selected: v === keep }, label(v))),
  );
  sel.value = keep;
  sel.disabled = values.length === 1;
  sel.title = values.length === 1 ? t("opt.fixed") : "";
}

/** The host form's variant-dependent controls: the seat count the variant
 * allows, the options it leaves free (the fixed ones disabled), and one
 * seat choice per other seat, in play order from the host's left.
 * @param {{variant: HTMLSelectElement, players: HTMLSelectElement, variantHint: HTMLElement, pass: HTMLSelectElement,
 *   moon: HTMLSelectElement, first: HTMLSelectElement, bonus: HTMLSelectElement, seatSelects: HTMLElement}} controls
 */
function variantControls({ variant, players, variantHint, pass, moon, first, bonus, seatSelects }) {
  const seatChoices = [["open", t("seat.open")], ...LEVELS.map((l) => [l, t(`bot.name.${l}`)])];
  /** @param {boolean} variantChanged */
  function syncVariant(variantChanged) {
    const v = variantOf(variant.value);
    offer(players, v.players.map(String), (n) => t("opt.playersN", { n: Number(n) }), variantChanged ? String(v.defaultPlayers) : null);
    const n = parseInt(players.value, 10);
    const cycles = cyclesFor(variant.value, n);
    offer(pass, cycles, (c) => t(`opt.pass.${c}`), variantChanged || !cycles.includes(pass.value) ? cycles[0] : null);
    offer(moon, v.moons, (m) => moonOption(m, { variant: variant.value, players: n }));
    offer(first, v.firstTricks, (f) => t(`opt.first.${f}`));
    offer(bonus, v.bonus, (b) => t(`opt.bonus.${b}`), variantChanged ? v.bonus[0] : null);
    variantHint.textContent = t(`variant.${variant.value}.short`);
    const old = [...seatSelects.querySelectorAll("select")].map((el) => el.value);
    /** @param {number} k */
    const label = (k) => (n === 4 ? t(`pos.${["left", "across", "right"][k]}`) : t("pos.seatN", { n: k + 2 }));
    fill(
      seatSelects,
      Array.from({ length: n - 1 }, (_, k) => field(label(k), select(`seat-${k + 1}`, seatChoices, old[k] || "open"))),
    );
  }
  return { syncVariant };
}

/**
 * Draw the lobby. ``acts``: quick(level), create(body), join(code), resume(), refresh(),
 * dismissNotice(); ``notice``: why we came back here ({kind, code}) or null.
 * @param {HTMLElement} root
 * @param {LobbyActions} acts
 * @param {{seated?: SavedSeat | null, notice?: import("./types").Notice | null}} [opts]
 */
export function renderLobby(root, acts, { seated = null, notice = null } = {}) {
  const name = nameInput();
  const tableName = h("input", { id: "table-name", type: "text", maxlength: 40, placeholder: t("lobby.tableNamePlaceholder", { name: app.player.name || t("lobby.defaultName") }) });
  name.addEventListener("input", () => {
    tableName.placeholder = t("lobby.tableNamePlaceholder", { name: name.value.trim() || t("lobby.defaultName") });
  });
  const visibility = h(
    "fieldset",
    { class: "radios" },
    h("legend", {}, t("lobby.visibility")),
    h("label", {}, h("input", { type: "radio", name: "visibility", value: "private", id: "vis-private", checked: true }), t("lobby.private")),
    h("label", {}, h("input", { type: "radio", name: "visibility", value: "public", id: "vis-public" }), t("lobby.public")),
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "opt-approval", "aria-describedby": "opt-approval-hint" }), t("lobby.approval")),
    h("p", { class: "hint small", id: "opt-approval-hint" }, t("lobby.approvalHint")),
    field(
      t("lobby.turnTimer"),
      select("opt-turn-timer", [["off", t("lobby.turnTimerOff")], ...["15", "30", "60"].map((n) => [n, t("lobby.turnTimerSeconds", { n })])], "off"),
      h("span", { class: "hint small" }, t("lobby.turnTimerHint")),
    ),
  );
  const pass = select("opt-pass", ["lrah", "larh", "left", "right", "none"].map((v) => [v, t(`opt.pass.${v}`)]), "lrah");
  const moon = select("opt-moon", ["add", "subtract", "choice"].map((v) => [v, moonOption(v, null)]), "add");
  const first = select("opt-first", ["no_points", "no_queen", "anything"].map((v) => [v, t(`opt.first.${v}`)]), "no_points");
  const queen = h("input", { type: "checkbox", id: "opt-queen" });
  const end = select("opt-end", [["100", t("opt.end.100")], ["50", t("opt.end.50")], ["hands", t("opt.end.hands")]], "100");
  const hands = h("input", { type: "number", id: "opt-end-hands", min: 1, max: 100, value: 8, inputmode: "numeric" });
  const handsField = field(t("opt.endHands"), hands);
  handsField.hidden = true;
  end.addEventListener("change", () => {
    handsField.hidden = end.value !== "hands";
  });
  const bonus = select("opt-bonus", [["none", t("opt.bonus.none")], ["JD", t("opt.bonus.JD")], ["TD", t("opt.bonus.TD")]], "none");
  const variant = select("opt-variant", Object.keys(VARIANTS).map((v) => [v, t(`variant.${v}`)]), "standard");
  const players = select("opt-players", [], "4");
  const variantHint = h("p", { class: "hint small variant-hint", id: "opt-variant-hint" });
  variant.setAttribute("aria-describedby", "opt-variant-hint");
  const seatSelects = h("div", { class: "seat-selects" });
  const { syncVariant } = variantControls({ variant, players, variantHint, pass, moon, first, bonus, seatSelects });
  variant.addEventListener("change", () => syncVariant(true));
  players.addEventListener("change", () => syncVariant(false));
  syncVariant(true);
  const createForm = h(
    "form",
    {
      class: "panel-card create-form",
      id: "create-form",
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        if (!name.reportValidity()) return;
        const rules = {
          variant: variant.value,
          players: parseInt(players.value, 10),
          pass_cycle: cycleOf(pass.value),
          moon: moon.value,
          first_trick: first.value,
          queen_breaks_hearts: queen.checked,
          end: end.value === "hands" ? "hands" : "points",
          end_at: end.value === "hands" ? Math.max(1, Math.min(100, parseInt(hands.value, 10) || 8)) : parseInt(end.value, 10),
          bonus_card: bonus.value === "none" ? null : bonus.value,
        };
        // The form offers only values the protocol takes (the server checks again).
        acts.create(/** @type {Omit<import("./protocol").CreateTable, "id" | "type">} */ ({
          name: tableName.value.trim() || t("lobby.tableNamePlaceholder", { name: name.value.trim() }).slice(0, 40),
          public: /** @type {HTMLInputElement} */ ($("#vis-public", createForm)).checked,
          approval: /** @type {HTMLInputElement} */ ($("#opt-approval", createForm)).checked,
          turn_seconds: turnSeconds(/** @type {HTMLSelectElement} */ ($("#opt-turn-timer", createForm)).value),
          rules,
          seats: [...seatSelects.querySelectorAll("select")].map((el) => el.value),
        }));
      },
    },
    h("h2", {}, t("lobby.create")),
    field(t("lobby.tableName"), tableName),
    visibility,
    h(
      "fieldset",
      { class: "options" },
      h("legend", {}, t("lobby.rules")),
      field(t("opt.variant"), variant, variantHint),
      field(t("opt.players"), players),
      field(t("opt.passCycle"), pass),
      field(t("opt.moon"), moon),
      field(t("opt.firstTrick"), first),
      h("label", { class: "check" }, queen, t("opt.queenBreaks")),
      field(t("opt.end"), end),
      handsField,
      field(t("opt.bonus"), bonus),
    ),
    h("fieldset", { class: "options seats" }, h("legend", {}, t("lobby.seats")), seatSelects),
    h("button", { type: "submit", class: "btn primary", id: "create-table" }, t("lobby.createButton")),
  );
  const code = h("input", { id: "join-code", type: "text", autocomplete: "off", autocapitalize: "characters", placeholder: t("lobby.codePlaceholder"), "aria-label": t("lobby.code") });
  const joinForm = h(
    "form",
    {
      class: "panel-card join-form",
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        if (!name.reportValidity()) return;
        // A pasted invite link carries its secret: it is never throttled.
        const link = parseLink(code.value);
        if (link.code.length < 4) code.focus();
        else if (link.invite) acts.join(link.code, link.invite);
        else if (!throttled()) acts.join(link.code, null);
      },
    },
    h("h2", {}, t("lobby.join")),
    h("div", { class: "inline" }, code, h("button", { type: "submit", class: "btn primary", id: "join-code-button", dataset: { lookup: "" } }, t("lobby.joinButton"))),
    throttleNote(),
  );
  // One click to a game: three bots of the level played last time, started at once.
  const quickLevel = select("quick-level", LEVELS.map((l) => [l, t(`bot.name.${l}`)]), loadQuickLevel());
  const quick = h(
    "section",
    { class: "panel-card quick-play" },
    h("div", { class: "quick-text" }, h("h2", {}, t("lobby.quickTitle")), h("p", { class: "hint" }, t("lobby.quickText"))),
    h(
      "div",
      { class: "quick-controls" },
      field(t("lobby.quickLevel"), quickLevel),
      h("button", { type: "button", class: "btn primary", id: "quick-play", onclick: () => acts.quick(/** @type {import("./types").Level} */ (quickLevel.value)) }, t("lobby.quickButton")),
    ),
  );
  const tables = h("div", { class: "public-list", id: "public-tables", "aria-live": "polite" }, h("p", { class: "empty" }, "…"));
  const stats = h("div", { class: "stats", id: "stats" }, h("p", { class: "empty" }, "…"));
  fill(
    root,
    h(
      "section",
      { class: "lobby", id: "lobby" },
      h(
        "div",
        { class: "hero" },
        h("h1", {}, t("app.title")),
        h("p", {}, t("app.tagline")),
        h("div", { class: "name-row" }, field(t("lobby.name"), name)),
      ),
      notice ? noticeCard(notice, acts) : null,
      seated
        ? h(
            "div",
            { class: "panel-card resume-banner" },
            h("p", {}, t("lobby.resumeHint", { code: formatCode(seated.code) })),
            h("button", { type: "button", class: "btn primary", onclick: () => acts.resume() }, t("lobby.resume")),
          )
        : null,
      quick,
      h(
        "div",
        { class: "lobby-grid" },
        joinForm,
        createForm,
        h(
          "section",
          { class: "panel-card public-box" },
          h("div", { class: "panel-head" }, h("h2", {}, t("lobby.publicTables")), h("button", { type: "button", class: "btn small ghost", onclick: () => acts.refresh() }, t("lobby.refresh"))),
          tables,
        ),
        h("section", { class: "panel-card stats-box" }, h("h2", {}, t("lobby.stats")), stats),
      ),
    ),
  );
  syncThrottle();
}

/** The join screen's facts of a table, public or private (the server's
 * ``table_facts``): its name, host, whether a game is on, who sits at each
 * seat, whether the host approves who sits (not for a link's holder, who
 * sits at once), the turn timer and the rules. ``null``: no table answers
 * to the code or link, which the screen says at once.
 * @param {import("./protocol").TableFacts | null} facts
 * @param {boolean} invite whether we hold the table's invite link */
export function showJoinFacts(facts, invite) {
  const box = $("#join-facts");
  if (!box) return;
  box.hidden = false;
  if (!facts) {
    box.dataset.state = "unknown";
    fill(box, h("p", { class: "hint join-unknown" }, t("join.unknown")));
    return;
  }
  box.dataset.state = facts.status;
  fill(
    box,
    facts.name ? h("h2", {}, facts.name) : null,
    h("p", { class: "join-host" }, `${t("lobby.hostedBy", { host: facts.host })} · ${t(`join.status.${facts.status}`)}`),
    h("h3", {}, t("join.seats")),
    h("ul", { class: "join-seats" }, facts.seats.map((seat) => h("li", { dataset: { kind: seat.kind } }, seatLine(seat)))),
    facts.approval && !invite ? h("p", { class: "hint approval-note" }, t("info.approval")) : null,
    facts.turn_seconds ? h("p", { class: "hint turn-timer-note" }, t("info.turnTimer", { n: facts.turn_seconds })) : null,
    h("h3", {}, t("info.rules")),
    h("ul", { class: "rules-list" }, rulesSummary(facts.rules).map((r) => h("li", {}, r))),
  );
}

/** One seat of the join screen's list: its one name and a bot's level,
 * or that it is open.
 * @param {import("./protocol").TableFactsSeat} seat */
function seatLine(seat) {
  if (seat.kind === "open") return t("seat.openSeat");
  return seat.kind === "bot" && seat.bot_level ? `${seat.name} · ${t(`bot.${seat.bot_level}`)}` : seat.name;
}

/** Fill the public tables list (reply to list_tables).
 * @param {import("./protocol").TableSummary[]} list
 * @param {LobbyActions} acts */
export function showTables(list, acts) {
  const box = $("#public-tables");
  if (!box) return;
  if (!list.length) {
    fill(box, h("p", { class: "empty" }, t("lobby.noTables")));
    return;
  }
  fill(
    box,
    h(
      "ul",
      {},
      list.map((tb) =>
        h(
          "li",
          { class: "public-table" },
          h(
            "div",
            { class: "public-info" },
            h("strong", {}, tb.name),
            h("span", { class: "muted" }, `${t("lobby.hostedBy", { host: tb.host })} · ${t("lobby.openSeats", { n: tb.open_seats })} · ${t("lobby.bots", { n: tb.bots })}`),
            // The listing sends the rules whole (Rules.to_json), as a view does.
            h("span", { class: "muted small" }, rulesSummary(/** @type {import("./protocol").ServerRulesModel} */ (tb.rules)).join(" · ")),
          ),
          h(
            "button",
            {
              type: "button",
              class: "btn small",
              dataset: { lookup: "" },
              onclick: () => {
                if (!throttled()) acts.join(tb.code, null);
              },
            },
            t("lobby.joinButton"),
          ),
        ),
      ),
    ),
  );
  syncThrottle();
}

/** Fill the statistics box (reply to get_stats).
 * @param {import("./protocol").Stats} s */
export function showStats(s) {
  const box = $("#stats");
  if (box) fill(box, serverStats(s));
}

/**
 * The screen a /t/CODE link opens when we have no seat at that table, and
 * the door of a table whose host approves who sits. ``invite``: we hold the
 * link's secret (sitting and watching are never throttled then); ``knock``:
 * app.knock ({code, mode, phase: ask | waiting | refused}) when the host
 * lets players in; ``admitted``: the host just let us in; ``focus``: which
 * control gets the focus (the name field by default).
 * @param {HTMLElement} root
 * @param {string} code
 * @param {LobbyActions} acts
 * @param {{seated?: SavedSeat | null, full?: boolean, kicked?: boolean, invite?: boolean,
 *   knock?: import("./types").Knock | null, admitted?: boolean, focus?: string}} [opts]
 */
export function renderJoin(root, code, acts, opts = {}) {
  const { seated = null, full = false, kicked = false, invite = false, knock = null, admitted = false, focus = "" } = opts;
  const name = nameInput();
  const lookup = invite ? {} : { lookup: "" };
  /** @type {HTMLElement | null} */
  let door = null;
  /** @type {HTMLElement} */
  let first = name;
  if (knock) {
    const waiting = knock.phase === "waiting";
    const button = waiting
      ? h("button", { type: "button", class: "btn ghost", id: "knock-cancel", onclick: () => acts.cancelKnock() }, t("knock.cancel"))
      : h(
          "button",
          {
            type: "button",
            class: "btn primary",
            id: "knock-button",
            dataset: { lookup: "" },
            onclick: () => {
              if (name.reportValidity() && !throttled()) acts.knock();
            },
          },
          knock.phase === "refused" ? t("knock.again") : t("knock.button"),
        );
    door = h(
      "div",
      { class: "knock-box", dataset: { phase: knock.phase } },
      h("h2", {}, t("knock.title")),
      h(
        "p",
        { class: "knock-state" },
        waiting ? t("knock.waiting") : knock.phase === "refused" ? t("knock.refused") : t("knock.text"),
      ),
      h("div", { class: "row" }, button),
    );
    if (focus) first = button;
  }
  const sit = h(
    "button",
    { type: "submit", class: "btn primary", id: "join-button", disabled: full, dataset: full ? {} : lookup },
    t("join.button"),
  );
  const watch = h("button", { type: "button", class: "btn ghost", id: "watch-button", dataset: lookup, onclick: () => watchClicked() }, t("join.watch"));
  function watchClicked() {
    if (name.reportValidity() && (invite || !throttled())) acts.watch(code);
  }
  fill(
    root,
    h(
      "section",
      { class: "join-screen" },
      h(
        "form",
        {
          class: "panel-card",
          id: "join-form",
          onsubmit: (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            if (knock || !name.reportValidity()) return;
            if (invite || !throttled()) acts.join(code);
          },
        },
        h("h1", {}, withCode("join.title", code)),
        h("div", { class: "join-facts", id: "join-facts", hidden: true }),
        full ? h("p", { class: "hint" }, t("join.full")) : null,
        kicked ? h("p", { class: "hint kicked-hint" }, t("join.kicked")) : null,
        admitted ? h("p", { class: "hint admitted-hint" }, t("knock.accepted")) : null,
        field(t("lobby.name"), name),
        door || h("div", { class: "row" }, sit, watch),
        throttleNote(),
        seated
          ? h(
              "p",
              { class: "hint" },
              t("join.elsewhere", { code: formatCode(seated.code) }),
              " ",
              h("button", { type: "button", class: "btn small", onclick: () => acts.resume() }, t("join.backToMine")),
            )
          : null,
        h("p", { class: "lobby-link" }, h("a", { href: "/", class: "btn small ghost", onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); acts.lobby(); } }, `← ${t("nav.lobby")}`)),
      ),
    ),
  );
  syncThrottle();
  first.focus();
}
