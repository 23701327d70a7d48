#!/usr/bin/env node
// A small Hearts bot for Node, written from docs/protocol.md alone: it joins
// a table by its invite code as a program (hello's `program: true`) and plays
// until game over, resuming its seat after a dropped connection.
//
//   node bot.js --server ws://127.0.0.1:8765/ws --code ABC-DEF [--seat 2] [--name Nod]
//
// Its play is simple and safe: it passes its three highest cards, ducks
// under the trick when it can (with the highest card that still loses),
// otherwise plays its lowest card, and throws its highest (the queen of
// spades first) when it cannot follow suit. It prints one JSON line per
// finished hand and one at game over, and exits 0 at game over.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { decode, encode } from "@msgpack/msgpack";

const RANKS = "23456789TJQKA";
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => card[1];
const byRank = (a, b) => rank(a) - rank(b);

// ---- the strategy: a pure function of the view -----------------------------

// What the view asks of our seat: a request (without id) to send, or null.
export function decide(view) {
  const me = view.seat;
  if (me === null || me === undefined) return null;
  if (view.status === "between_hands") {
    return view.seats[me].ready ? null : { type: "ready" };
  }
  if (view.status !== "playing") return null;
  if (view.phase === "pass" && view.legal.length > 0 && view.passed.length === 0) {
    const highest = [...view.hand].sort(byRank).slice(-view.rules.pass_count);
    return { type: "pass_cards", cards: highest };
  }
  if (view.phase === "play" && view.turn === me && view.legal.length > 0) {
    return { type: "play_card", card: choosePlay(view) };
  }
  if (view.phase === "moon_choice" && view.moon_shooter === me) {
    return { type: "moon_choice", choice: "add" };
  }
  return null;
}

function choosePlay(view) {
  const legal = [...view.legal].sort(byRank);
  if (view.trick.length === 0) return legal[0]; // lead low
  const led = suit(view.trick[0].card);
  const following = legal.filter((c) => suit(c) === led);
  if (following.length === 0) {
    // Void in the led suit: get rid of the queen of spades, else the highest.
    if (legal.includes("QS")) return "QS";
    return legal.reduce((a, b) => (rank(b) > rank(a) || (rank(b) === rank(a) && suit(b) === "H") ? b : a));
  }
  const winning = Math.max(...view.trick.filter((p) => suit(p.card) === led).map((p) => rank(p.card)));
  const under = following.filter((c) => rank(c) < winning);
  return under.length > 0 ? under[under.length - 1] : following[0];
}

// ---- the connection: hello, join, play, resume after a drop -----------------

function parseArgs(argv) {
  const args = { server: "ws://127.0.0.1:8765/ws", code: "", seat: null, name: "Node bot" };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === "--server") args.server = value;
    else if (key === "--code") args.code = value;
    else if (key === "--seat") args.seat = Number.parseInt(value, 10);
    else if (key === "--name") args.name = value;
    else throw new Error(`unknown option ${key}`);
  }
  if (!args.code) throw new Error("--code CODE is required");
  return args;
}

class Player {
  constructor(args) {
    this.args = args;
    // Request ids unique for the life of the table, across reconnects.
    this.prefix = Math.random().toString(36).slice(2, 10);
    this.counter = 0;
    this.playerToken = null;
    this.tableId = null;
    this.seatToken = null;
    this.lastSeq = 0;
    this.pending = null; // the one request in flight: {id, type, ...}
    this.latest = null; // the last view received
    this.actedAt = -1; // the seq of the view we last acted on
    this.resumeId = null; // our resume after a drop, until answered
    this.backoff = 100;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  connect() {
    const ws = new WebSocket(this.args.server);
    ws.binaryType = "nodebuffer";
    this.ws = ws;
    ws.on("open", () => {
      this.backoff = 100;
      this.send({
        type: "hello",
        id: this.nextId(),
        version: 1,
        name: this.args.name,
        client: "hearts-node-bot",
        program: true,
        ...(this.playerToken ? { player_token: this.playerToken } : {}),
      });
    });
    ws.on("message", (data) => this.onMessage(decode(data)));
    ws.on("error", () => {}); // "close" follows and reconnects
    ws.on("close", () => {
      if (this.over) return;
      setTimeout(() => this.connect(), this.backoff); // backoff between attempts
      this.backoff = Math.min(5000, this.backoff * 2);
    });
  }

  send(message) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encode(message));
  }

  request(message) {
    this.pending = { id: this.nextId(), ...message };
    this.send(this.pending);
  }

  onMessage(msg) {
    if (typeof msg.seq === "number" && msg.seq > this.lastSeq) this.lastSeq = msg.seq;
    switch (msg.type) {
      case "welcome":
        this.playerToken = msg.player_token;
        if (this.tableId && this.seatToken) {
          // Back after a drop: take the seat again; the request that had no
          // reply is sent again with its id once we are seated.
          this.resumeId = this.nextId();
          this.send({
            type: "resume",
            id: this.resumeId,
            table_id: this.tableId,
            seat_token: this.seatToken,
            last_seq: this.lastSeq,
          });
        } else {
          const join = { type: "join_table", id: this.nextId(), code: this.args.code };
          if (this.args.seat !== null) join.seat = this.args.seat;
          this.send(join);
        }
        return;
      case "seated":
        this.resumeId = null;
        this.tableId = msg.table_id;
        if (msg.seat_token) this.seatToken = msg.seat_token;
        if (msg.seat_token) print({ type: "table", code: msg.code, seat: msg.seat, table_id: msg.table_id });
        if (this.pending) this.send(this.pending);
        return;
      case "ok":
        // The reply comes before the events and the snapshot of our move:
        // the next snapshot shows it, the ones before did not.
        if (this.pending && msg.id === this.pending.id) this.pending = null;
        return;
      case "error":
        if (this.pending && msg.id === this.pending.id) {
          if (msg.code === "rate_limited") {
            const again = this.pending;
            setTimeout(() => this.send(again), Math.ceil((msg.retry_after ?? 0.1) * 1000));
            return;
          }
          // Refused (the table moved on meanwhile): the next view asks again.
          this.pending = null;
          print({ type: "refused", code: msg.code, message: msg.message });
          return;
        }
        if (["bad_token", "no_such_table", "kicked"].includes(msg.code) || !this.tableId) {
          console.error(`hearts-node-bot: ${msg.code}: ${msg.message}`);
          this.stop(1);
        } else if (msg.id === this.resumeId) {
          this.ws.close(); // passing trouble (the table changing hands): reconnect, resume again
        }
        return;
      case "kicked":
        console.error(`hearts-node-bot: removed by the host: ${msg.message}`);
        this.stop(3);
        return;
      case "snapshot":
        this.latest = msg.view;
        this.act();
        return;
      case "hand_scored":
        print({ type: "hand_scored", hand_number: msg.hand_number, points: msg.points, totals: msg.totals });
        return;
      case "game_over":
        print({ type: "game_over", totals: msg.totals, winner: msg.winner });
        this.stop(0);
        return;
      default:
        return; // other events: the snapshot that follows says it all
    }
  }

  act() {
    const view = this.latest;
    if (!view || this.pending || view.seq === this.actedAt) return;
    const move = decide(view);
    if (move === null) return;
    this.actedAt = view.seq;
    this.request(move);
  }

  stop(status) {
    this.over = true;
    this.ws.close();
    this.finish(status);
  }
}

function print(data) {
  process.stdout.write(`${JSON.stringify(data)}\n`);
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`hearts-node-bot: ${err.message}`);
    process.exit(2);
  }
  const player = new Player(args);
  player.connect();
  process.exit(await player.done);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main();
