// Small DOM helpers. Text from players (names, chat) only ever goes in as
// text nodes, never as markup.

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child)
 * Attributes: class, dataset (object), on* listeners, boolean true/false,
 * everything else via setAttribute; null/undefined are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{[name: string]: any} | null} [attrs] values of any type: see above
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "value") /** @type {HTMLInputElement} */ (el).value = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** What ``h`` and ``fill`` take as children: nodes, text, numbers, nested
 * arrays; null, undefined and false are skipped.
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child */

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of /** @type {unknown[]} */ (children).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The first element matching ``selector`` under ``root``. Typed as always
 * found: it is used for the page's own elements (index.html) and those a
 * screen builds; where one may be missing, callers test it (``?.``, ``if``).
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export const $ = (selector, root = document) => /** @type {HTMLElement} */ (root.querySelector(selector));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let announceTimer;
/** Say something to screen readers (the page's aria-live log).
 * @param {string} text
 */
export function announce(text) {
  const log = $("#announcer");
  if (!log || !text) return;
  log.append(h("p", {}, text));
  while (log.firstElementChild && log.childElementCount > 6) log.firstElementChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => log.replaceChildren(), 15000);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/** A short visible message (errors, "link copied"). At the table it shows
 * just above your hand, where a refused card or move was chosen.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function toast(text, kind = "info") {
  const box = $("#toast");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  const hand = document.querySelector("#table .hand");
  const rect = hand && hand.getClientRects().length ? hand.getBoundingClientRect() : null;
  box.style.top = rect && rect.height ? `${Math.max(8, rect.top - box.offsetHeight - 10)}px` : "";
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, kind === "error" ? 6000 : 3000);
}

/** Take a toast off the screen (a later message makes it stale). */
export function dismissToast() {
  const box = $("#toast");
  if (box) box.hidden = true;
  clearTimeout(toastTimer);
}

/** Whether the player asked the system for less motion. */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Resolves after ``ms`` (pacing of animations, never synchronisation).
 * @param {number} ms
 * @returns {Promise<void>}
 */
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
