// Types of the browser client's own values, for the type check (tsc with
// checkJs over client/web/js; the browser never loads this file). The wire
// messages are in protocol.d.ts, generated from the protocol's schema.

import type * as P from "./protocol";

/** A bot's level. */
export type Level = "easy" | "medium" | "hard";

/** A card as the wire writes it: "QS", "TD", "QS2" (the second deck's copy). */
export type Card = string;

/** Every message the server sends, as the page receives it. A snapshot gets
 * ``at``: when (performance.now()) it arrived. */
export type Incoming = P.ServerMessage & { at?: number };
/** What the presenter queues: table events and snapshots. */
export type TableMessage = Exclude<P.ServerMessage, P.ChatHistory>;
/** A table event: every table message but the snapshot. */
export type TableEvent = Exclude<TableMessage, P.Snapshot>;

/** Who this browser is: the player token (null before the first welcome) and name. */
export type Player = { token: string | null; name: string };

/** The seat this browser keeps (localStorage). */
export type SavedSeat = {
  table_id: string;
  code: string;
  seat: number;
  seat_token: string | null;
  last_seq: number;
};

/** A chat line as kept and drawn (with its table). */
export type ChatLine = {
  seq: number;
  seat: number | null;
  name: string;
  text: string;
  table_id: string;
};

/** A finished trick still on show. */
export type Linger = {
  cards: Card[];
  leader: number;
  winner: number | null;
  trick: number;
  seats: number[] | null;
};

/** What a bot did for us while we were away, until dismissed. */
export type BotReport = {
  played: Card[];
  passed: Card[];
  moon: string | null;
  timedOut: boolean;
  rules: P.ServerRulesModel;
};

/** At the door of a table whose host lets players in. */
export type Knock = {
  code: string;
  mode: "join" | "watch";
  phase: "ask" | "waiting" | "refused";
  /** A knock is being sent again (keepKnocking). */
  busy?: boolean;
};

/** Why we are back on the start page, until dismissed. */
export type Notice = { kind: "lost" | "gone" | "kicked" | "badLink"; code: string };

/** The page's state (state.js ``app``). */
export type App = {
  status: "connecting" | "online" | "offline";
  player: Player;
  helloName: string;
  screen: "boot" | "lobby" | "join" | "table";
  linkCode: string | null;
  linkInvite: string | null;
  knock: Knock | null;
  watching: { table_id: string; code: string; invite: string | null } | null;
  joinPath: string | null;
  tableId: string | null;
  view: P.SeatView | null;
  linger: Linger | null;
  collecting: number | null;
  selected: Set<Card>;
  selectedFor: string;
  pending: "pass" | "discard" | Card | null;
  chat: ChatLine[];
  fast: boolean;
  autoplay: boolean;
  finalView: P.SeatView | null;
  replaying: boolean;
  viewAt: number;
  botReport: BotReport | null;
  notice: Notice | null;
};

/** What the presenter calls while it shows table messages (main.js sets them). */
export type PresenterHooks = {
  render: () => void;
  announceEvents: (events: TableEvent[], view: P.SeatView, previous: P.SeatView | null) => void;
  onSnapshot: (view: P.SeatView, previous: P.SeatView | null) => void;
  botCovered: (event: P.BotCovered, view: P.SeatView) => void;
};

/** A word's forms by grammatical case ({nom: "Король", acc: "короля", …}); every term has ``nom``. */
export type Term = { [grammaticalCase: string]: string };

/** A translation entry: a string, or plural forms by Intl.PluralRules category. */
export type Entry = string | { [category: string]: string };

/** The Rules/FAQ page's content in one language. */
export type RulesContent = {
  title: string;
  intro: string[];
  /** ``id``: a section that can be linked to (#rules-ID). */
  sections: { id?: string; title: string; paragraphs?: string[]; list?: string[] }[];
  faqTitle: string;
  faq: { q: string; a: string }[];
};

/** A language module (./lang/CODE.js). */
export type Language = {
  strings: { [key: string]: Entry };
  rules: RulesContent | null;
  /** Words by grammatical case, by group ("rank", "suit") and key: a string (one form) or {nom, acc, …}. */
  terms?: { [group: string]: { [key: string]: string | Term } };
};

/** One row of this browser's statistics: games against ``opponents`` under ``rules``. */
export type StatsRow = {
  opponents: string;
  rules: P.ServerRulesModel;
  games: number;
  wins: number;
  points: number;
  moons: number;
};

/** This browser's statistics (localStorage), and the games already counted. */
export type Stats = { rows: { [key: string]: StatsRow }; seen: string[] };

/** A request as the page writes it: the connection adds the ``id``. */
export type Request = P.ClientMessage extends infer M ? (M extends P.ClientMessage ? Omit<M, "id"> : never) : never;

/** Each request type's reply types (exchanges.js, generated from protocol/exchanges.py). */
type Replies = typeof import("./exchanges.js").REPLY_OF;
/** The message types that answer a request of type ``K``. (Named apart:
 * indexed inside ``Extract`` below, tsc took every request's.) */
type ReplyTypeOf<K> = K extends keyof Replies ? Replies[K][number] : never;

/** The reply a request of type ``K`` resolves with. */
export type ReplyOf<K> = Extract<P.ServerMessage, { type: ReplyTypeOf<K> }>;

/** What the connection lets a handshake send before the queue (hello, resume, watch, knock). */
export type Send = <R extends Request>(body: R) => Promise<ReplyOf<R["type"]>>;
