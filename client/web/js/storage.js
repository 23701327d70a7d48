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

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full: the game still works, it just won't survive a reload
  }
}

/** {token, name} */
export const loadPlayer = () => read(KEY.player, { token: null, name: "" });
export const savePlayer = (player) => write(KEY.player, player);

/** {table_id, code, seat, seat_token, last_seq} or null */
export const loadSeat = () => read(KEY.seat, null);
export const saveSeat = (seat) => write(KEY.seat, seat);

export const loadFast = () => read(KEY.fast, false) === true;
export const saveFast = (on) => write(KEY.fast, Boolean(on));

/** false when "hearts.pace" holds 0: no pauses between table events (for
 * automated tests; nothing on the page sets it). */
export const loadPaced = () => read(KEY.pace, 1) !== 0;

export const loadLang = () => read(KEY.lang, null);
export const saveLang = (lang) => write(KEY.lang, lang);

export const loadTab = () => read(KEY.tab, "tricks");
export const saveTab = (tab) => write(KEY.tab, tab);

/** The last chat lines of a table: [{seat, name, text, seq}] */
export function loadChat(tableId) {
  const saved = read(KEY.chat, null);
  return saved && saved.table_id === tableId ? saved.lines : [];
}
export function saveChat(tableId, lines) {
  write(KEY.chat, { table_id: tableId, lines: lines.slice(-60) });
}

/** Sound effects: off unless the player turned them on. */
export const loadSound = () => read(KEY.sound, false) === true;
export const saveSound = (on) => write(KEY.sound, Boolean(on));

/** Play any single legal card by itself (the last card is always played). */
export const loadAutoplay = () => read(KEY.autoplay, false) === true;
export const saveAutoplay = (on) => write(KEY.autoplay, Boolean(on));

/** The bots' level of the last "Play vs bots". */
export const loadQuickLevel = () => {
  const level = read(KEY.quickLevel, "medium");
  return ["easy", "medium", "hard"].includes(level) ? level : "medium";
};
export const saveQuickLevel = (level) => write(KEY.quickLevel, level);

/** This browser's statistics: {rows: {key: {opponents, rules, games, wins, points, moons}}, seen: [game keys]} */
export const loadStats = () => {
  const saved = read(KEY.stats, null);
  return saved && typeof saved.rows === "object" && Array.isArray(saved.seen) ? saved : { rows: {}, seen: [] };
};
export const saveStats = (stats) => write(KEY.stats, stats);
