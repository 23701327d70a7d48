// What the page's modules use of a browser, for their unit tests in Node:
// localStorage (a Map behind the Storage methods storage.js calls) and the
// prefers-reduced-motion query (dom.js reducedMotion). Import this before
// the module under test: the modules read storage when they load.

/** The stored items, by key (values as the page wrote them: JSON text). */
export const stored = new Map();

globalThis.localStorage = /** @type {Storage} */ ({
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => void stored.set(key, String(value)),
  removeItem: (key) => void stored.delete(key),
});

/** Whether the system asks for less motion (the player's setting). */
export const motion = { reduced: false };

globalThis.window = /** @type {any} */ ({
  matchMedia: (query) => ({ matches: motion.reduced && query === "(prefers-reduced-motion: reduce)" }),
});
