// Where each seat sits on the table screen, for 3 to 10 seats.
//
// Seats are numbered 0..n-1 in play order; you sit at the bottom and the
// next seat in play order (seat + 1) is on your left, so play goes round
// the table clockwise on screen. Four seats keep the classic places
// (left, top, right: the grid of the four-player table, with compass names
// for the server's bots); any other count puts the opponents on a ring, an
// ellipse around the trick (a list on a phone, see style.css "ring").
// Only geometry and naming live here: table.js draws the seats.

/** What the layout reads of a view: the seats, and ours (null: a spectator).
 * @typedef {{seats: unknown[], seat: number | null}} Layout */

const CLASSIC = ["bottom", "left", "top", "right"];

/** How many seats the table has. @param {Layout} view */
export const seatCount = (view) => view.seats.length || 4;

/** Whether the table uses the classic four-place layout. @param {Layout} view */
export const isClassic = (view) => seatCount(view) === 4;

/** The seat drawn at the bottom (seat 0 for a spectator). @param {Layout} view */
export const bottomSeat = (view) => view.seat ?? 0;

/** How far ``seat`` is from the bottom seat in play order (0..n-1).
 * @param {Layout} view
 * @param {number} seat */
export function slotOf(view, seat) {
  const n = seatCount(view);
  return (((seat - bottomSeat(view)) % n) + n) % n;
}

/** A seat's place: "bottom", "left", "top" or "right" at a four-seat
 * table; "bottom" or "ring" otherwise.
 * @param {Layout} view
 * @param {number} seat */
export function posOf(view, seat) {
  const slot = slotOf(view, seat);
  if (isClassic(view)) return CLASSIC[slot];
  return slot === 0 ? "bottom" : "ring";
}

/** The seat drawn at a classic place (four-seat tables).
 * @param {Layout} view
 * @param {string} pos */
export const seatAt = (view, pos) => (bottomSeat(view) + CLASSIC.indexOf(pos)) % seatCount(view);

/** The point of ``slot`` (of ``n``) on a unit circle, as {x, y} in -1..1
 * with y growing downwards: slot 0 at the bottom, the next ones clockwise
 * (left, then top, then right). The opponents share the circle evenly, so
 * the gap at the bottom (where you sit) is one seat wide.
 * @param {number} slot
 * @param {number} n */
export function ringPoint(slot, n) {
  const angle = Math.PI / 2 + (slot * 2 * Math.PI) / n;
  /** @param {number} v */
  const round = (v) => Math.round(v * 1000) / 1000;
  return { x: round(Math.cos(angle)), y: round(Math.sin(angle)) };
}

/** Set the CSS variables that place ``el`` on the ring (--cx, --cy) and its
 * stacking order (--slot, --z), for a seat's name plate or its card in the trick.
 * @param {HTMLElement} el
 * @param {Layout} view
 * @param {number} seat */
export function placeOnRing(el, view, seat) {
  const n = seatCount(view);
  const slot = slotOf(view, seat);
  const { x, y } = ringPoint(slot, n);
  el.style.setProperty("--cx", String(x));
  el.style.setProperty("--cy", String(y));
  el.style.setProperty("--slot", String(slot));
  // Lower on the table, drawn over: a trick card then covers only the foot
  // of the card above it, never its corner index or its player's name tag.
  el.style.setProperty("--z", String(2 + Math.round((y + 1) * 2)));
}

/** The opponents in play order from your left: seat + 1, …, seat + n − 1.
 * @param {Layout} view */
export function opponents(view) {
  const n = seatCount(view);
  const me = bottomSeat(view);
  return Array.from({ length: n - 1 }, (_, k) => (me + k + 1) % n);
}

/** Every seat in play order, starting with the bottom one (score tables).
 * @param {Layout} view */
export function inPlayOrder(view) {
  const n = seatCount(view);
  const me = bottomSeat(view);
  return Array.from({ length: n }, (_, k) => (me + k) % n);
}

/** The seat a pass in ``direction`` goes to from ``seat`` (left: the next
 * seat, right: the previous one, across: n/2 seats on).
 * @param {Layout} view
 * @param {number} seat
 * @param {string | null | undefined} direction */
export function passTarget(view, seat, direction) {
  const n = seatCount(view);
  const offset = /** @type {{[direction: string]: number}} */ ({ left: 1, right: n - 1, across: Math.floor(n / 2), hold: 0 })[String(direction)] ?? 0;
  return (seat + offset) % n;
}
