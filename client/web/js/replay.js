// Past hands: the score table's hand numbers open a replay of that hand,
// trick by trick, from the server's hand record redacted for this seat
// (get_replay): every trick, your own deal, pass and the cards you received,
// nothing of another seat's deal or pass. Shown in a modal dialog with
// Previous / Next and the arrow keys. A seat's player may ask for the
// review of their own decisions in it (get_analysis, review.js): it comes
// after a few seconds and is shown beside each trick, with the pass (widow
// discard, moon choice) and the hand's accuracy at the top.

import { cardName, faceHTML } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { accuracyText, decisionView } from "./review.js";

/** @typedef {import("./protocol").HandReplay} HandReplay @typedef {(seat: number | null) => string} NameOf */
/** @typedef {import("./protocol").Analysis} Analysis @typedef {import("./review.js").MoonRules} MoonRules */
/** The review of the hand: the server's reply, or the refusal's sentence.
 * @typedef {() => Promise<Analysis | string>} AskReview */

/** @type {HTMLDialogElement | null} */
let dialog = null;

/** @param {string} label @param {string[]} cards */
function cardsLine(label, cards) {
  if (!cards.length) return null;
  return h("p", { class: "replay-cards" }, h("strong", {}, `${label}: `), cards.map(cardName).join(", "));
}

/** @param {HandReplay} replay @param {number} k @param {NameOf} nameOf
 * @param {Analysis | null} review @param {MoonRules} rules */
function trickView(replay, k, nameOf, review, rules) {
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
    review ? review.decisions.filter((d) => d.kind === "play" && d.trick === k).map((d) => decisionView(d, rules)) : null,
  );
}

/** The review's head: the decisions outside the tricks (pass, widow
 * discard, moon choice) and the hand's accuracy.
 * @param {Analysis} review @param {MoonRules} rules */
function reviewHead(review, rules) {
  return h(
    "div",
    { class: "review-head" },
    review.decisions.filter((d) => d.kind !== "play").map((d) => decisionView(d, rules)),
    h("p", { class: "review-accuracy" }, accuracyText(review.accuracy)),
  );
}

/** Each trick's label, as buttons that go to the trick: where the hand's
 * mistakes are at a glance.
 * @param {HandReplay} replay @param {Analysis} review @param {(k: number) => void} go */
function reviewStrip(replay, review, go) {
  return h(
    "ol",
    { class: "review-strip" },
    replay.tricks.map((_, k) => {
      const label = review.decisions.find((d) => d.kind === "play" && d.trick === k)?.label || null;
      const what = label ? t(`review.label.${label}`) : t("review.fine");
      return h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `review-step label-${label || "none"}`,
            dataset: { trick: String(k) },
            "aria-label": t("review.stepLabel", { k: k + 1, what }),
            title: what,
            onclick: () => go(k),
          },
          String(k + 1),
        ),
      );
    }),
  );
}

/** Open the replay of ``replay`` (a ``hand_replay`` reply); ``nameOf(seat)``
 * names a seat as the table does; ``askReview`` (null for a spectator)
 * asks for the review of the seat's decisions; ``rules`` the table's, for
 * the figures of a moon.
 * @param {HandReplay} replay
 * @param {NameOf} nameOf
 * @param {AskReview | null} [askReview]
 * @param {MoonRules} [rules] */
export function showReplay(replay, nameOf, askReview = null, rules = null) {
  if (dialog) dialog.remove();
  let k = 0;
  /** @type {Analysis | null} */
  let review = null;
  const body = h("div", { class: "replay-body" });
  const reviewBox = h("div", { class: "review-box" });
  const reviewState = h("p", { class: "review-state", role: "status" });
  const reviewButton = h("button", { type: "button", class: "btn small review-ask" }, t("review.ask"));
  reviewButton.addEventListener("click", async () => {
    if (!askReview) return;
    reviewButton.disabled = true;
    reviewState.dataset.state = "reviewing";
    reviewState.textContent = t("review.reviewing");
    const reply = await askReview();
    if (typeof reply === "string") {
      reviewState.dataset.state = "refused";
      reviewState.textContent = reply;
      reviewButton.disabled = false;
      reviewButton.textContent = t("review.again");
      return;
    }
    review = reply;
    reviewState.dataset.state = "done";
    reviewState.textContent = "";
    reviewButton.remove();
    reviewBox.replaceChildren(reviewHead(reply, rules), reviewStrip(replay, reply, (j) => step(j - k)));
    draw();
  });
  const prev = h("button", { type: "button", class: "btn small replay-prev" }, t("replay.prev"));
  const next = h("button", { type: "button", class: "btn small replay-next" }, t("replay.next"));
  const draw = () => {
    body.replaceChildren(trickView(replay, k, nameOf, review, rules));
    for (const b of reviewBox.querySelectorAll(".review-step")) b.classList.toggle("current", b.getAttribute("data-trick") === String(k));
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
    askReview ? h("div", { class: "review-ask-row" }, reviewButton, reviewState) : null,
    reviewBox,
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
