// The server operator's notice ("the server restarts in 5 minutes"): a
// banner at the top of every screen, over the lobby and the table alike,
// until the player dismisses it. The text is the operator's own, shown as
// text (never as HTML); only the banner's title and button are translated.

import { $, h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";

/** @type {HTMLElement | null} */
let banner = null;

function translate() {
  if (!banner) return;
  $(".operator-notice-title", banner).textContent = t("operator.title");
  $("button", banner).textContent = t("operator.dismiss");
}

/** Show the operator's ``text`` (a newer notice replaces the one shown).
 * @param {string} text */
export function showOperatorNotice(text) {
  if (!banner) {
    const shown = h(
      "div",
      { id: "operator-notice", role: "alert" },
      h("strong", { class: "operator-notice-title" }),
      h("span", { class: "operator-notice-text" }),
      h("button", { type: "button", class: "operator-notice-close", onclick: () => (shown.hidden = true) }),
    );
    banner = shown;
    document.body.prepend(banner);
    onLanguageChange(translate);
  }
  $(".operator-notice-text", banner).textContent = text;
  translate();
  banner.hidden = false;
}
