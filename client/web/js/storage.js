// What this browser remembers (localStorage): who you are (the player token
// and your name), where you sit (table id, seat token, last event number),
// settings, and the recent chat of your table. Tokens are secrets: they never
// leave this origin except in hello/resume frames.

const KEY = {
  player: "hearts.player",
  seat: "hearts.seat",
  fast: "hearts.fast",
  pace: "hearts.pace",
  lang: "hearts.lang",
  tab: "hearts.tab",
  chat: "hearts.chat",
  sound: "hearts.sound",
  autoplay: "hearts.autoplay",
  quickLevel: "hearts.quickLevel",
  stats: "hearts.stats",
};

/**
 * @param {string} key
 * @param {unknown} fallback
 * @returns {unknown} what was stored under ``key``, or ``fallback``
 */
function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

/**
 * @param {string} key
 * @param {unknown} value null or undefined removes the key
 */
function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full: the game still works, it just won't survive a reload
  }
}

/** @typedef {import("./types").Player} Player @typedef {import("./types").SavedSeat} SavedSeat */

/** {token, name} @returns {Player} */
export const loadPlayer = () => /** @type {Player} */ (read(KEY.player, { token: null, name: "" }));
/** @param {Player} player */
export const savePlayer = (player) => write(KEY.player, player);

/** {table_id, code, seat, seat_token, last_seq} or null @returns {SavedSeat | null} */
export const loadSeat = () => /** @type {SavedSeat | null} */ (read(KEY.seat, null));
/** @param {SavedSeat | null} seat */
export const saveSeat = (seat) => write(KEY.seat, seat);

export const loadFast = () => read(KEY.fast, false) === true;
/** @param {boolean} on */
export const saveFast = (on) => write(KEY.fast, Boolean(on));

/** false when "hearts.pace" holds 0: no pauses between table events (for
 * automated tests; nothing on the page sets it). */
export const loadPaced = () => read(KEY.pace, 1) !== 0;

/** @returns {string | null} */
export const loadLang = () => /** @type {string | null} */ (read(KEY.lang, null));
/** @param {string} lang */
export const saveLang = (lang) => write(KEY.lang, lang);

/** @returns {string} */
export const loadTab = () => /** @type {string} */ (read(KEY.tab, "tricks"));
/** @param {string} tab */
export const saveTab = (tab) => write(KEY.tab, tab);

/** The last chat lines of a table: [{seat, name, text, seq}]
 * @param {string} tableId
 * @returns {import("./types").ChatLine[]} */
export function loadChat(tableId) {
  const saved = /** @type {{table_id: string, lines: import("./types").ChatLine[]} | null} */ (read(KEY.chat, null));
  return saved && saved.table_id === tableId ? saved.lines : [];
}
/**
 * @param {string} tableId
 * @param {import("./types").ChatLine[]} lines
 */
export function saveChat(tableId, lines) {
  write(KEY.chat, { table_id: tableId, lines: lines.slice(-60) });
}

/** Sound effects: off unless the player turned them on. */
export const loadSound = () => read(KEY.sound, false) === true;
/** @param {boolean} on */
export const saveSound = (on) => write(KEY.sound, Boolean(on));

/** Play any single legal card by itself (the last card is always played). */
export const loadAutoplay = () => read(KEY.autoplay, false) === true;
/** @param {boolean} on */
export const saveAutoplay = (on) => write(KEY.autoplay, Boolean(on));

/** The bots' level of the last "Play vs bots".
 * @returns {import("./types").Level} */
export const loadQuickLevel = () => {
  const level = read(KEY.quickLevel, "medium");
  return level === "easy" || level === "hard" ? level : "medium";
};
/** @param {import("./types").Level} level */
export const saveQuickLevel = (level) => write(KEY.quickLevel, level);

/** This browser's statistics: {rows: {key: {opponents, rules, games, wins, points, moons}}, seen: [game keys]}
 * @returns {import("./types").Stats} */
export const loadStats = () => {
  const saved = /** @type {import("./types").Stats | null} */ (read(KEY.stats, null));
  return saved && typeof saved.rows === "object" && Array.isArray(saved.seen) ? saved : { rows: {}, seen: [] };
};
/** @param {import("./types").Stats} stats */
export const saveStats = (stats) => write(KEY.stats, stats);
