// Cards: the wire text ("QS", "TD"), display order, spoken names and faces.
// Faces are inline SVG that reference the suit symbols of index.html's sprite,
// so nothing is fetched and every size stays sharp.

import { t } from "./i18n.js";

export const SUITS = ["C", "D", "S", "H"]; // hand order: colours alternate
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
export const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";
export const rankLabel = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
export const suitSymbol = (suit) => SUIT_SYMBOL[suit];
/** "Q♠", "10♦" */
export const shortName = (card) => rankLabel(card) + SUIT_SYMBOL[suitOf(card)];

/** "Queen of spades" in the current language. */
export function cardName(card) {
  return t("card.name", {
    rank: t(`rank.${rankOf(card)}`),
    suit: t(`suit.${suitOf(card)}`),
  });
}

/** Cards in hand order: by suit (clubs, diamonds, spades, hearts), then rank. */
export function sortHand(cards) {
  const key = (c) => SUITS.indexOf(suitOf(c)) * 20 + RANKS.indexOf(rankOf(c));
  return [...cards].sort((a, b) => key(a) - key(b));
}

// Pip positions on a 250 x 350 face; pips in the lower half are drawn upside down.
const PIPS = {
  2: [[125, 78], [125, 272]],
  3: [[125, 78], [125, 175], [125, 272]],
  4: [[78, 78], [172, 78], [78, 272], [172, 272]],
  5: [[78, 78], [172, 78], [125, 175], [78, 272], [172, 272]],
  6: [[78, 78], [172, 78], [78, 175], [172, 175], [78, 272], [172, 272]],
  7: [[78, 78], [172, 78], [125, 126], [78, 175], [172, 175], [78, 272], [172, 272]],
  8: [[78, 78], [172, 78], [125, 126], [78, 175], [172, 175], [125, 224], [78, 272], [172, 272]],
  9: [[78, 78], [172, 78], [78, 143], [172, 143], [125, 175], [78, 207], [172, 207], [78, 272], [172, 272]],
  10: [[78, 78], [172, 78], [125, 110], [78, 143], [172, 143], [78, 207], [172, 207], [125, 240], [78, 272], [172, 272]],
};

function pip(suit, x, y, size) {
  const flip = y > 180 ? ` transform="rotate(180 ${x} ${y})"` : "";
  const h = size / 2;
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${flip}/>`;
}

function corner(card) {
  const suit = suitOf(card);
  const label = rankLabel(card);
  const squeeze = label.length > 1 ? ` textLength="56" lengthAdjust="spacingAndGlyphs"` : "";
  return (
    `<text x="34" y="60" class="idx"${squeeze}>${label}</text>` +
    `<use href="#suit-${suit}" x="14" y="70" width="40" height="40"/>`
  );
}

/** The SVG markup of a card face (no user text inside: safe as innerHTML). */
export function faceSVG(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const colour = isRed(card) ? "red" : "black";
  let middle = "";
  if (rank === "A") {
    middle = pip(suit, 125, 175, suit === "S" ? 130 : 110);
  } else if ("JQK".includes(rank)) {
    middle =
      `<rect x="62" y="62" width="126" height="226" rx="10" class="court"/>` +
      `<text x="125" y="190" class="court-letter">${rank}</text>` +
      pip(suit, 125, 98, 44) +
      pip(suit, 125, 252, 44);
  } else {
    const count = rank === "T" ? 10 : Number(rank);
    middle = PIPS[count].map(([x, y]) => pip(suit, x, y, 46)).join("");
  }
  return (
    `<svg class="face ${colour}" viewBox="0 0 250 350" aria-hidden="true" focusable="false">` +
    `<rect x="2" y="2" width="246" height="346" rx="18" class="paper"/>` +
    corner(card) +
    `<g transform="rotate(180 125 175)">${corner(card)}</g>` +
    middle +
    `</svg>`
  );
}
