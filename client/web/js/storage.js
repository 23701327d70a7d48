// What this browser remembers (localStorage): who you are (the player token
// and your name), where you sit (table id, seat token, last event number),
// settings, and the recent chat of your table. Tokens are secrets: they never
// leave this origin except in hello/resume frames.

const KEY = {
  player: "hearts.player",
  seat: "hearts.seat",
  fast: "hearts.fast",
  lang: "hearts.lang",
  tab: "hearts.tab",
  chat: "hearts.chat",
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
