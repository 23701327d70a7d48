// The WebSocket connection: binary msgpack frames (@msgpack/msgpack), request
// ids and replies, reconnecting with backoff.
//
// Every request gets an id and exactly one reply with that id. A request not
// yet answered when the connection drops is sent again, under the same id,
// after the next hello (+ resume): the server never applies an id twice.
// Table events and snapshots (everything without a reply type) go to onEvent.
// Which types are replies: exchanges.js, generated from protocol/exchanges.py.

import { decode, encode } from "/vendor/msgpack/index.mjs";
import { REPLY_TYPES } from "./exchanges.js";

/** @typedef {import("./types").Request} Request @typedef {import("./types").Send} Send */
/**
 * A request sent and not yet answered.
 * @typedef {object} Pending
 * @property {Request & {id: string}} body
 * @property {(reply: any) => void} resolve with the reply (typed by ``request``)
 * @property {(err: RequestError) => void} reject
 * @property {boolean} early a handshake request: dies with its connection
 * @property {number} tries times sent again after a flood refusal
 */

const BACKOFF_MS = [300, 700, 1500, 3000, 5000, 8000];
const PING_EVERY_MS = 20000;
const PING_TIMEOUT_MS = 10000;

export class RequestError extends Error {
  /** ``retryAfter``: seconds the server asks us to wait (a throttled
   * lookup by invite code), or null; ``reason``: which case of ``not_now``
   * (docs/protocol.md, Errors), or null.
   * @param {string} code an error code of the server, or "disconnected"
   * @param {string} message
   * @param {number | null} [retryAfter]
   * @param {string | null} [reason]
   */
  constructor(code, message, retryAfter = null, reason = null) {
    super(message);
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason;
  }
}

export class Net {
  /**
   * @param {object} options
   * @param {(send: Send) => Promise<void>} options.handshake
   *   runs on every (re)connect before queued requests are sent: hello, resume
   * @param {(msg: import("./types").Incoming) => void} options.onEvent table events, snapshots, stray errors
   * @param {(status: "connecting"|"online"|"offline") => void} options.onStatus
   */
  constructor({ handshake, onEvent, onStatus }) {
    this.handshake = handshake;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.counter = 0;
    /** @type {Map<string, Pending>} */
    this.pending = new Map(); // id -> {body, resolve, reject, sent}
    /** @type {WebSocket | null} */
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  start() {
    this.open();
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  /** Send a request; resolves with its reply, rejects with RequestError.
   * @type {Send} */
  request(body) {
    const id = this.nextId();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { body: { ...body, id }, resolve, reject, early: false, tries: 0 });
      if (this.ready) this.transmit(id);
    });
  }

  // -- internals -------------------------------------------------------------

  open() {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.ready = false;
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.addEventListener("open", () => this.opened(ws));
    ws.addEventListener("message", (e) => this.received(ws, e.data));
    ws.addEventListener("close", () => this.closed(ws));
    ws.addEventListener("error", () => {}); // a close event follows
  }

  /** @param {WebSocket} ws */
  async opened(ws) {
    // Handshake requests bypass the queue: they must be first on the wire.
    /** @type {Send} */
    const early = (body) => {
      const id = this.nextId();
      return new Promise((resolve, reject) => {
        this.pending.set(id, { body: { ...body, id }, resolve, reject, early: true, tries: 0 });
        this.transmit(id);
      });
    };
    try {
      await this.handshake(early);
    } catch (err) {
      console.warn("handshake failed:", err instanceof Error ? err.message : err);
      if (ws === this.ws) ws.close();
      return;
    }
    if (ws !== this.ws || ws.readyState !== WebSocket.OPEN) return;
    this.ready = true;
    this.attempt = 0;
    this.onStatus("online");
    for (const [id, p] of this.pending) if (!p.early) this.transmit(id);
    this.keepAlive();
  }

  /** @param {string} id */
  transmit(id) {
    const p = this.pending.get(id);
    const ws = this.ws;
    if (!p || !ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(encode(p.body, { ignoreUndefined: true }));
  }

  /**
   * @param {WebSocket} ws
   * @param {ArrayBuffer} data
   */
  received(ws, data) {
    if (ws !== this.ws) return;
    /** @type {import("./types").Incoming} */
    let msg;
    try {
      // Trusted to be a server message (the server's models); a frame that
      // is not an object is ignored below, and unknown types reach onEvent,
      // whose readers ignore them.
      msg = /** @type {import("./types").Incoming} */ (decode(new Uint8Array(data)));
    } catch {
      console.warn("ignored an unreadable frame");
      return;
    }
    if (!msg || typeof msg !== "object") return;
    if (REPLY_TYPES.has(msg.type)) {
      const id = "id" in msg ? msg.id : undefined;
      const p = id != null ? this.pending.get(String(id)) : undefined;
      if (!p) {
        if (msg.type === "error") this.onEvent(msg);
        return;
      }
      // Too many requests at once: refused unread, the same id may be sent
      // again. A refusal with retry_after (lookups by code from this network
      // must wait) is the caller's to show: asking again would not help.
      const flooded = msg.type === "error" && msg.code === "rate_limited" && msg.retry_after == null;
      if (flooded && p.tries < 6) {
        p.tries += 1;
        setTimeout(() => this.transmit(String(id)), 150 * 2 ** p.tries);
        return;
      }
      this.pending.delete(String(id));
      if (msg.type === "error") p.reject(new RequestError(msg.code, msg.message, msg.retry_after ?? null, msg.reason ?? null));
      else p.resolve(msg);
      return;
    }
    this.onEvent(msg);
  }

  /** @param {WebSocket} ws */
  closed(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    clearInterval(this.pingTimer);
    // Handshake requests die with their connection; the rest wait for the next one.
    for (const [id, p] of this.pending) {
      if (p.early) {
        this.pending.delete(id);
        p.reject(new RequestError("disconnected", "the connection dropped"));
      }
    }
    this.onStatus("offline");
    this.scheduleRetry();
  }

  scheduleRetry() {
    if (this.retryTimer) return;
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base * (0.75 + Math.random() * 0.5);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.ws || !this.retryTimer) return;
    this.attempt = 0;
    this.open();
  }

  keepAlive() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      const ws = this.ws;
      if (!this.ready || !ws) return;
      const timer = setTimeout(() => {
        if (ws === this.ws) ws.close(); // silent network: start over
      }, PING_TIMEOUT_MS);
      this.request({ type: "ping" })
        .catch(() => {})
        .finally(() => clearTimeout(timer));
    }, PING_EVERY_MS);
  }
}
