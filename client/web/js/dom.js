// Small DOM helpers. Text from players (names, chat) only ever goes in as
// text nodes, never as markup.

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child)
 * Attributes: class, dataset (object), on* listeners, boolean true/false,
 * everything else via setAttribute; null/undefined are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "value") el.value = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

let announceTimer = null;
/** Say something to screen readers (the page's aria-live log). */
export function announce(text) {
  const log = $("#announcer");
  if (!log || !text) return;
  log.append(h("p", {}, text));
  while (log.childElementCount > 6) log.firstElementChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => log.replaceChildren(), 15000);
}

let toastTimer = null;
/** A short visible message (errors, "link copied"). At the table it shows
 * just above your hand, where a refused card or move was chosen. */
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

/** Resolves after ``ms`` (pacing of animations, never synchronisation). */
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
