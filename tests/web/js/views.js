// Server messages for the presenter's tests, shaped as the protocol's
// models send them (client/web/js/protocol.d.ts): every field a server
// message always carries is here.

export const TABLE = "t-1";

const RULES = {
  bonus_card: null,
  end: "points",
  end_at: 100,
  first_trick: "no_points",
  moon: "add",
  pass_count: 3,
  pass_cycle: ["left", "right", "across", "hold"],
  players: 4,
  queen_breaks_hearts: false,
  variant: "standard",
};

/** Seat ``seat`` as everybody sees it. */
export function seatInfo(seat, kind = "bot") {
  return {
    away: false,
    bot_covering: false,
    bot_level: kind === "bot" ? "medium" : null,
    cards_left: 13,
    connected: kind === "human",
    cover_in: null,
    drawn: 0,
    hidden_taken: 0,
    host: seat === 0,
    kind,
    name: kind === "human" ? "Ann" : `Bot ${seat}`,
    out: false,
    passed: false,
    points_hand: 0,
    program: false,
    ready: false,
    seat,
    turn_in: null,
  };
}

/** A snapshot's SeatView: seat 0's view of a four-seat game in play, with ``fields`` changed. */
export function seatView(fields = {}) {
  return {
    approval: false,
    carried: [],
    code: "ABCDEF",
    discard_count: 0,
    discarded: [],
    hand: ["2C", "5C", "QS", "AH"],
    hand_number: 1,
    hands: [],
    hearts_broken: false,
    hidden_taken: [],
    host_seat: 0,
    kicked: [],
    knocks: [],
    legal: ["2C"],
    moon_shooter: null,
    name: "Ann's table",
    pass_direction: "left",
    passed: [],
    passed_to: null,
    paused: false,
    phase: "play",
    points_hand: [0, 0, 0, 0],
    public: false,
    received: [],
    received_from: null,
    received_marked: false,
    rules: RULES,
    seat: 0,
    seats: [seatInfo(0, "human"), seatInfo(1), seatInfo(2), seatInfo(3)],
    seq: 1,
    status: "playing",
    stock_count: 0,
    table_id: TABLE,
    totals: [0, 0, 0, 0],
    trick: [],
    trick_leader: 0,
    tricks: [],
    turn: 0,
    turn_seconds: null,
    widow: [],
    widow_seat: null,
    winner: null,
    ...fields,
  };
}

/** The snapshot message of ``view`` (its seq the view's). */
export const snapshot = (view) => ({ type: "snapshot", seq: view.seq, view });

export const cardPlayed = (seq, seat, card) => ({ type: "card_played", seq, seat, card, trick: 0 });

export function trickWon(seq, winner, cards) {
  return { type: "trick_won", seq, trick: 0, leader: 0, winner, cards, points: 0, cancelled: [], carried: [], seats: [] };
}

export const chatMessage = (seq, text, seat = 1) => ({ type: "chat_message", seq, seat, name: `Bot ${seat}`, text });
