// What each variant lets the host choose (docs/rules.md "Variants"), for
// the host's form: the seat counts it is played with, and for each option
// either the choices it leaves free or the one value it fixes. The server
// checks the rules again (it is the judge); this only keeps the form from
// offering what it would refuse. ``moonValue`` is what a moon is worth, the
// deck's positive penalties (docs/rules.md "Moon scoring, in general"), and
// ``moonCards`` names the cards a moon takes (the moon dialog's words).

/**
 * @typedef {object} Variant
 * @property {number[]} players the seat counts it is played with
 * @property {number} defaultPlayers
 * @property {string[]} moons
 * @property {string[]} firstTricks
 * @property {string[]} bonus
 * @property {string | null} cycle the one pass cycle it fixes, or null
 * @property {string | null} defaultCycle
 * @property {number} moonValue
 * @property {string} moonCards
 * @property {boolean} claims whether the server checks claims in it
 */

const ALL_COUNTS = [3, 4, 5, 6, 7, 8, 9, 10];
/** @type {Variant} */
const STANDARD = {
  players: ALL_COUNTS,
  defaultPlayers: 4,
  moons: ["add", "subtract", "choice"],
  firstTricks: ["no_points", "no_queen", "anything"],
  bonus: ["none", "JD", "TD"],
  // null: the host picks a cycle (the usual one for the count by default)
  cycle: null,
  defaultCycle: null,
  moonValue: 26,
  moonCards: "standard",
  // Whether the server checks a claim: only a one-deck game dealt out
  // whole (no widow, stock or second deck), as engine/claim.py proves.
  claims: true,
};

/** Every variant, in the order the form lists them.
 * @type {{[name: string]: Variant}} */
export const VARIANTS = {
  standard: STANDARD,
  omnibus: { ...STANDARD, moons: ["jackpot"], bonus: ["JD", "TD"], defaultCycle: "right" },
  spot: { ...STANDARD, bonus: ["none"], moonValue: 104, moonCards: "spot" },
  greek: { ...STANDARD, moons: ["transfer"], bonus: ["none"], cycle: "right" },
  black_maria: { ...STANDARD, players: [3], defaultPlayers: 3, moons: ["add", "subtract", "choice", "none"], bonus: ["none"], moonValue: 43, moonCards: "black_maria" },
  domino: { ...STANDARD, players: [3, 4, 5, 6, 7], moons: ["none"], firstTricks: ["anything"], bonus: ["none"], cycle: "none", moonValue: 13, claims: false },
  widow: { ...STANDARD, players: [3, 4, 5, 6], claims: false },
  cancellation: {
    ...STANDARD,
    players: [7, 8, 9, 10],
    defaultPlayers: 8,
    firstTricks: ["no_hearts", "anything"],
    bonus: ["none"],
    cycle: "none",
    moonValue: 52,
    moonCards: "cancellation",
    claims: false,
  },
};

/** @param {string | null | undefined} name @returns {Variant} */
export const variantOf = (name) => (name && VARIANTS[name]) || STANDARD;

/** The pass cycles the host may pick at ``players`` seats (across needs an
 * even count), the first one the default; a variant that fixes its cycle
 * offers only that one.
 * @param {string} variant
 * @param {number} players
 * @returns {string[]}
 */
export function cyclesFor(variant, players) {
  const v = variantOf(variant);
  if (v.cycle) return [v.cycle];
  const usual = players % 2 ? ["lrh", "left", "right", "none"] : ["lrah", "larh", "left", "right", "none"];
  if (v.defaultCycle) return [v.defaultCycle, ...usual.filter((c) => c !== v.defaultCycle)];
  return usual;
}
