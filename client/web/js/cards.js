// Cards: the wire text ("QS", "TD"), display order, spoken names and faces.
// Faces are the vendored deck's SVG files: each is fetched once (then kept
// and revalidated by its ETag) and stays sharp at every size.

import { t, term } from "./i18n.js";

export const SUITS = ["C", "D", "S", "H"]; // hand order: colours alternate
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
/** @typedef {import("./types").Card} Card */

/** @type {{[suit: string]: string}} */
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** @param {Card} card */
export const rankOf = (card) => card[0];
/** Cancellation Hearts plays two decks: the second deck's copy of a card is
 * written with a trailing 2 ("QS2") and drawn with a small ².
 * @param {Card} card */
export const isSecondCopy = (card) => card.length === 3;
/** The card without its deck mark: identical cards have the same base.
 * @param {Card} card */
export const baseOf = (card) => card.slice(0, 2);
/** @param {Card} card */
export const suitOf = (card) => card[1];
/** @param {Card} card */
export const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";
/** @param {Card} card */
export const rankLabel = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
/** @param {string} suit */
export const suitSymbol = (suit) => SUIT_SYMBOL[suit];
/** "Q♠", "10♦", "Q♠²" (the second deck's copy) @param {Card} card */
export const shortName = (card) => rankLabel(card) + SUIT_SYMBOL[suitOf(card)] + (isSecondCopy(card) ? "²" : "");

/** The name of ``card`` in each grammatical case of the current language
 * ({nom: "Король бубон", acc: "короля бубон", …}): a term for t(), whose
 * templates say which case they need ("{card:acc}").
 * @param {Card} card
 * @returns {import("./types").Term} */
export function cardTerm(card) {
  const rank = term("rank", rankOf(card));
  const suit = term("suit", suitOf(card));
  /** @type {import("./types").Term} */
  const forms = {};
  for (const [grammaticalCase, word] of Object.entries(rank)) {
    const name = t("card.name", { rank: word, suit: suit[grammaticalCase] ?? suit.nom });
    forms[grammaticalCase] = isSecondCopy(card) ? `${name} (${t("card.secondCopy")})` : name;
  }
  return forms;
}

/** Several cards as one term: each case lists every card in that case.
 * @param {Card[]} cards
 * @returns {import("./types").Term} */
export function cardsTerm(cards) {
  const terms = cards.map(cardTerm);
  /** @type {import("./types").Term} */
  const forms = {};
  for (const grammaticalCase of Object.keys(terms[0] || { nom: "" })) {
    forms[grammaticalCase] = terms.map((f) => f[grammaticalCase] ?? f.nom).join(", ");
  }
  return forms;
}

/** "Queen of spades" in the current language (the nominative). @param {Card} card */
export const cardName = (card) => cardTerm(card).nom;

/** Cards in hand order: by suit (clubs, diamonds, spades, hearts), then rank.
 * @param {Iterable<Card>} cards
 */
export function sortHand(cards) {
  /** @param {Card} c */
  const key = (c) => SUITS.indexOf(suitOf(c)) * 40 + RANKS.indexOf(rankOf(c)) * 2 + (isSecondCopy(c) ? 1 : 0);
  return [...cards].sort((a, b) => key(a) - key(b));
}

// The deck of @younestouati/playing-cards-standard-deck (LGPL-3.0, vendored in
// vendor/cards with its licence): one small SVG per card, court cards drawn
// as real court cards. Its files are named by rank number and suit letter.
/** @type {{[rank: string]: string}} */
const DECK_RANK = { A: "1", T: "10", J: "11", Q: "12", K: "13" };

/** Where the face of ``card`` is served ("/vendor/cards/12s.svg" for QS). @param {Card} card */
export const faceURL = (card) => `/vendor/cards/${DECK_RANK[rankOf(card)] ?? rankOf(card)}${suitOf(card).toLowerCase()}.svg`;

/** The markup of a card face: an image of the deck's card (no user text
 * inside: safe as innerHTML). The button around it carries the card's name.
 * @param {Card} card */
export function faceHTML(card) {
  const colour = isRed(card) ? "red" : "black";
  const copy = isSecondCopy(card) ? '<span class="copy2" aria-hidden="true">²</span>' : "";
  return `<img class="face ${colour}" src="${faceURL(card)}" alt="" draggable="false">${copy}`;
}
