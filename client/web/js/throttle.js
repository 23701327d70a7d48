// Lookups by invite code while the server makes this network wait (too many
// wrong codes: `rate_limited` with `retry_after`). Until then every button
// that looks a table up by its code ([data-lookup]) is marked disabled and
// ignored, and every .throttle-note on the page counts the seconds down.
// An invite link is never throttled: its buttons carry no data-lookup.

import { announce } from "./dom.js";
import { t } from "./i18n.js";

let until = 0; // performance.now() when lookups may start again
/** @type {ReturnType<typeof setInterval> | undefined} */
let timer;

/** Whole seconds left to wait (0: lookups may go ahead). */
export const secondsLeft = () => Math.max(0, Math.ceil((until - performance.now()) / 1000));

/** Whether lookups by code must still wait. */
export const throttled = () => secondsLeft() > 0;

/** The server said to wait ``seconds`` before the next lookup by code.
 * @param {number} seconds */
export function waitFor(seconds) {
  until = performance.now() + Math.max(0, Number(seconds) || 0) * 1000;
  announce(t("throttle.wait", { n: secondsLeft() }));
  syncThrottle();
}

/** Bring the page's lookup buttons and notes in line with the wait (call
 * after drawing a screen); a timer keeps them in line until it is over. */
export function syncThrottle() {
  const left = secondsLeft();
  for (const button of document.querySelectorAll("[data-lookup]")) {
    if (left) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
  for (const note of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".throttle-note"))) {
    note.hidden = !left;
    const text = left ? t("throttle.wait", { n: left }) : "";
    if (note.textContent !== text) note.textContent = text;
  }
  if (left && !timer) timer = setInterval(tick, 250);
}

function tick() {
  syncThrottle();
  if (!throttled()) {
    clearInterval(timer);
    timer = undefined;
    announce(t("throttle.over"));
  }
}
