// Past hands: the score table's hand numbers open a replay of that hand,
// trick by trick, from the server's hand record redacted for this seat
// (get_replay): every trick, your own deal, pass and the cards you received,
// nothing of another seat's deal or pass. Shown in a modal dialog with
// Previous / Next and the arrow keys.

import { cardName, faceHTML } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./protocol").HandReplay} HandReplay @typedef {(seat: number | null) => string} NameOf */

/** @type {HTMLDialogElement | null} */
let dialog = null;

/** @param {string} label @param {string[]} cards */
function cardsLine(label, cards) {
  if (!cards.length) return null;
  return h("p", { class: "replay-cards" }, h("strong", {}, `${label}: `), cards.map(cardName).join(", "));
}

/** @param {HandReplay} replay @param {number} k @param {NameOf} nameOf */
function trickView(replay, k, nameOf) {
  const trick = replay.tricks[k];
  const cards = trick.cards.map((p) => {
    const face = h("span", { class: "card mini-face", "aria-hidden": "true" });
    face.innerHTML = faceHTML(p.card);
    return h(
      "li",
      { class: p.seat === trick.winner ? "replay-card winner" : "replay-card", dataset: { card: p.card, seat: String(p.seat) } },
      face,
      h("span", {}, `${nameOf(p.seat)}: ${cardName(p.card)}`),
    );
  });
  return h(
    "div",
    { class: "replay-trick", dataset: { trick: String(k) } },
    h("p", { class: "replay-step" }, t("replay.trick", { k: k + 1, n: replay.tricks.length })),
    h("ol", { class: "replay-played" }, cards),
    h("p", { class: "replay-winner" }, t("replay.won", { name: nameOf(trick.winner), n: trick.points })),
  );
}

/** Open the replay of ``replay`` (a ``hand_replay`` reply); ``nameOf(seat)``
 * names a seat as the table does.
 * @param {HandReplay} replay
 * @param {NameOf} nameOf */
export function showReplay(replay, nameOf) {
  if (dialog) dialog.remove();
  let k = 0;
  const body = h("div", { class: "replay-body" });
  const prev = h("button", { type: "button", class: "btn small replay-prev" }, t("replay.prev"));
  const next = h("button", { type: "button", class: "btn small replay-next" }, t("replay.next"));
  const draw = () => {
    body.replaceChildren(trickView(replay, k, nameOf));
    prev.disabled = k === 0;
    next.disabled = k === replay.tricks.length - 1;
  };
  /** @param {number} d */
  const step = (d) => {
    k = Math.min(Math.max(k + d, 0), replay.tricks.length - 1);
    draw();
  };
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  const points = replay.points.map((p, seat) => `${nameOf(seat)} ${p}`).join(" · ");
  const shown = h(
    "dialog",
    { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, t("replay.title", { n: replay.hand_number })),
    cardsLine(t("replay.dealt"), replay.dealt),
    cardsLine(t("replay.passed"), replay.passed),
    cardsLine(t("replay.received"), replay.received),
    body,
    h("div", { class: "row replay-nav" }, prev, next),
    h("p", { class: "replay-points" }, points),
    h("button", { type: "button", class: "btn replay-close", onclick: () => shown.close() }, t("replay.close")),
  );
  dialog = shown;
  shown.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
  });
  shown.addEventListener("close", () => {
    shown.remove();
    if (dialog === shown) dialog = null;
  });
  document.body.append(shown);
  draw();
  shown.showModal();
  next.focus();
}
