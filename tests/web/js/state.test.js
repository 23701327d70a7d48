// The browser's presenter (client/web/js/state.js), without pauses
// (localStorage "hearts.pace" = 0, as the browser tests run it): which
// snapshot is drawn with which events, what a new view makes stale, the chat
// kept per table, the seat's last event number, replays and catching up.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { motion, stored } from "./browser_env.js";
import { TABLE, cardPlayed, chatMessage, seatView, snapshot, trickWon } from "./views.js";

stored.set("hearts.pace", "0");
const { app, beginReplay, currentSeat, receive, resetPresenter } = await import("../../../client/web/js/state.js");
const { recordPresenter } = await import("./presenter_log.js");

const SEAT = { table_id: TABLE, code: "ABCDEF", seat: 0, seat_token: "secret", last_seq: 0 };
const storedSeat = () => JSON.parse(stored.get("hearts.seat"));

beforeEach(() => {
  resetPresenter();
  stored.clear();
  stored.set("hearts.seat", JSON.stringify(SEAT));
  motion.reduced = false;
  app.replaying = false;
  app.tableId = TABLE;
});

describe("snapshots and their events", () => {
  test("the first snapshot is drawn with no previous view", async () => {
    const { log, shown } = recordPresenter();
    const view = seatView();
    receive(snapshot(view));
    await shown(1);
    assert.equal(app.view, view);
    assert.equal(log.snapshots[0].previous, null);
    assert.ok(app.viewAt > 0, "the countdowns' clock starts when the snapshot arrived");
  });

  test("the events before a snapshot are announced with it, each group once", async () => {
    const { log, shown } = recordPresenter();
    const first = seatView({ seq: 1 });
    const second = seatView({ seq: 3, trick: [{ seat: 0, card: "2C" }, { seat: 1, card: "3C" }] });
    receive(snapshot(first));
    receive(cardPlayed(2, 0, "2C"));
    receive(cardPlayed(3, 1, "3C"));
    receive(snapshot(second));
    await shown(2);
    assert.deepEqual(
      log.announced.map((a) => a.events.map((e) => e.seq)),
      [[], [2, 3]],
    );
    assert.equal(log.announced[1].view, second);
    assert.equal(log.announced[1].previous, first);
    assert.equal(log.snapshots[1].previous, first);
    assert.equal(app.view, second);
  });

  test("a finished trick is shown on the table before the next view, then sent to its winner", async () => {
    const { log, shown } = recordPresenter();
    receive(snapshot(seatView({ seq: 1 })));
    receive(trickWon(2, 3, ["2C", "3C", "4C", "AC"]));
    const after = seatView({ seq: 2, turn: 3 });
    receive(snapshot(after));
    await shown(2);
    const lingering = log.renders.filter((r) => r.linger);
    assert.deepEqual(lingering[0].linger, { cards: ["2C", "3C", "4C", "AC"], leader: 0, winner: 3, trick: 0, seats: null });
    assert.equal(lingering[0].collecting, null, "first the trick lies still");
    assert.equal(lingering[1].collecting, 3, "then it slides to the winner");
    assert.equal(app.linger, null);
    assert.equal(app.collecting, null);
    assert.equal(app.view, after);
  });

  test("with reduced motion the trick is not slid to its winner", async () => {
    motion.reduced = true;
    const { log, shown } = recordPresenter();
    receive(trickWon(2, 1, ["2C", "AC", "4C", "5C"]));
    receive(snapshot(seatView({ seq: 2 })));
    await shown(1);
    assert.ok(log.renders.some((r) => r.linger));
    assert.ok(log.renders.every((r) => r.collecting === null));
  });

  test("a replay (a resume's missed events) draws at once: nothing announced, no trick on show", async () => {
    const { log, shown } = recordPresenter();
    beginReplay();
    receive(cardPlayed(2, 0, "2C"));
    receive(trickWon(3, 1, ["2C", "AC", "4C", "5C"]));
    receive(snapshot(seatView({ seq: 3 })));
    await shown(1);
    assert.deepEqual(log.announced, []);
    assert.ok(log.renders.every((r) => r.linger === null));
    assert.equal(app.replaying, false, "the replay ends with the snapshot that follows it");
  });

  test("a burst of more than 24 waiting messages is caught up at once", async () => {
    const { log, shown } = recordPresenter();
    for (let k = 1; k <= 30; k++) receive(snapshot(seatView({ seq: k })));
    await shown(30);
    // The first snapshot is shown as it comes; of the rest, those with more
    // than 24 messages still behind them are drawn without a word.
    assert.deepEqual(
      log.announced.map((a) => a.view.seq),
      [1, ...Array.from({ length: 25 }, (_, k) => k + 6)],
    );
    assert.equal(log.snapshots.length, 30, "every snapshot is still drawn");
    assert.equal(app.view.seq, 30);
  });

  test("a finished game is kept for the player, a spectator's is not", async () => {
    const { shown } = recordPresenter();
    const over = seatView({ seq: 9, status: "game_over", phase: "done", winner: 2 });
    receive(snapshot(over));
    await shown(1);
    assert.equal(app.finalView, over);
    resetPresenter();
    const { shown: shownAgain } = recordPresenter();
    receive(snapshot(seatView({ seq: 9, status: "game_over", phase: "done", seat: null })));
    await shownAgain(1);
    assert.equal(app.finalView, null);
  });

  test("what a bot did for our seat is told, another seat's is not", async () => {
    const { log, shown } = recordPresenter();
    const covered = (seat) => ({ type: "bot_covered", seq: 2, seat, played: ["2C"], passed: [], discarded: [], moves: [], timed_out: false });
    beginReplay();
    receive(covered(1));
    receive(covered(0));
    receive(snapshot(seatView({ seq: 2 })));
    await shown(1);
    assert.deepEqual(log.covered.map((c) => c.event.seat), [0]);
  });
});

describe("the seat's last event number", () => {
  test("rises with each event of our table and never falls", async () => {
    const { shown } = recordPresenter();
    receive(cardPlayed(5, 1, "3C"));
    assert.equal(storedSeat().last_seq, 5);
    receive(cardPlayed(4, 2, "4C"));
    assert.equal(storedSeat().last_seq, 5);
    receive(snapshot(seatView({ seq: 6 })));
    assert.equal(storedSeat().last_seq, 6);
    await shown(1);
  });

  test("is not touched by another table's snapshot", async () => {
    const { shown } = recordPresenter();
    receive(snapshot(seatView({ seq: 40, table_id: "t-other" })));
    assert.equal(storedSeat().last_seq, 0);
    await shown(1);
  });

  test("currentSeat is the kept seat while it is at the table shown", async () => {
    const { shown } = recordPresenter();
    assert.equal(currentSeat().seat_token, "secret");
    receive(snapshot(seatView({ table_id: "t-other" })));
    await shown(1);
    assert.equal(currentSeat(), null);
  });
});

describe("what a new view makes stale", () => {
  const passing = (fields = {}) => seatView({ phase: "pass", turn: null, legal: ["2C", "5C", "QS", "AH"], ...fields });

  test("cards chosen to pass stay chosen while the pass is still to make", async () => {
    const { shown } = recordPresenter();
    app.selected = new Set(["QS", "AH"]);
    app.selectedFor = `${TABLE}:1`;
    receive(snapshot(passing({ seq: 2 })));
    await shown(1);
    assert.deepEqual([...app.selected], ["QS", "AH"]);
  });

  test("chosen cards go once the pass is made, or the hand moves on", async () => {
    const { shown } = recordPresenter();
    app.selected = new Set(["QS", "AH", "5C"]);
    app.selectedFor = `${TABLE}:1`;
    app.pending = "pass";
    receive(snapshot(passing({ seq: 2, passed: ["QS", "AH", "5C"], hand: ["2C"] })));
    await shown(1);
    assert.equal(app.selected.size, 0);
    assert.equal(app.pending, null, "the pass was answered");
  });

  test("a choice made in another hand does not carry over", async () => {
    const { shown } = recordPresenter();
    app.selected = new Set(["QS"]);
    app.selectedFor = `${TABLE}:0`;
    receive(snapshot(passing({ seq: 2 })));
    await shown(1);
    assert.equal(app.selected.size, 0);
    assert.equal(app.selectedFor, `${TABLE}:1`);
  });

  test("a chosen card no longer in the hand is dropped from the choice", async () => {
    const { shown } = recordPresenter();
    app.selected = new Set(["QS", "KD"]);
    app.selectedFor = `${TABLE}:1`;
    receive(snapshot(passing({ seq: 2 })));
    await shown(1);
    assert.deepEqual([...app.selected], ["QS"]);
  });

  test("a pass sent and not yet answered stays pending while the pass phase lasts", async () => {
    const { shown } = recordPresenter();
    app.pending = "pass";
    receive(snapshot(passing({ seq: 2 })));
    await shown(1);
    assert.equal(app.pending, "pass");
  });

  test("a card sent stays pending on our turn and is settled when it left the hand", async () => {
    const { shown } = recordPresenter();
    app.pending = "2C";
    receive(snapshot(seatView({ seq: 2 })));
    await shown(1);
    assert.equal(app.pending, "2C");
    receive(snapshot(seatView({ seq: 3, hand: ["5C", "QS", "AH"], turn: 1, trick: [{ seat: 0, card: "2C" }] })));
    await shown(2);
    assert.equal(app.pending, null);
  });

  test("the widow's discard is pending until the view shows it made", async () => {
    const { shown } = recordPresenter();
    app.pending = "discard";
    const widow = { phase: "widow", widow_seat: 0, discard_count: 2, turn: null };
    receive(snapshot(seatView({ seq: 2, ...widow })));
    await shown(1);
    assert.equal(app.pending, "discard");
    receive(snapshot(seatView({ seq: 3, ...widow, discarded: ["2C", "5C"] })));
    await shown(2);
    assert.equal(app.pending, null);
  });
});

describe("chat", () => {
  test("lines arrive in order of seq, once each, and are kept for the table", async () => {
    const { shown } = recordPresenter();
    receive(chatMessage(3, "second"));
    receive(chatMessage(2, "first"));
    receive(chatMessage(3, "second"));
    receive(snapshot(seatView({ seq: 3 })));
    await shown(1);
    assert.deepEqual(app.chat.map((c) => c.text), ["first", "second"]);
    assert.ok(app.chat.every((c) => c.table_id === TABLE));
    const saved = JSON.parse(stored.get("hearts.chat"));
    assert.equal(saved.table_id, TABLE);
    assert.deepEqual(saved.lines.map((c) => c.seq), [2, 3]);
  });

  test("only the last 60 lines are kept", () => {
    for (let seq = 1; seq <= 70; seq++) receive(chatMessage(seq, `line ${seq}`));
    assert.equal(app.chat.length, 60);
    assert.equal(app.chat[0].seq, 11);
    assert.equal(app.chat[59].seq, 70);
  });

  test("a table's recent chat (a join's chat_history) is merged when its snapshot is shown", async () => {
    const { shown } = recordPresenter();
    receive(chatMessage(7, "live"));
    receive({ type: "chat_history", lines: [chatMessage(5, "earlier"), chatMessage(7, "live")] });
    assert.deepEqual(app.chat.map((c) => c.seq), [7], "history waits for the snapshot");
    receive(snapshot(seatView({ seq: 7 })));
    await shown(1);
    assert.deepEqual(app.chat.map((c) => c.text), ["earlier", "live"]);
  });

  test("the chat saved for a table comes back with its first view; another table's does not", async () => {
    stored.set("hearts.chat", JSON.stringify({ table_id: TABLE, lines: [{ ...chatMessage(1, "saved"), table_id: TABLE }] }));
    const { shown } = recordPresenter();
    receive(snapshot(seatView({ seq: 2 })));
    await shown(1);
    assert.deepEqual(app.chat.map((c) => c.text), ["saved"]);
    resetPresenter();
    const { shown: shownOther } = recordPresenter();
    receive(snapshot(seatView({ seq: 2, table_id: "t-other" })));
    await shownOther(1);
    assert.deepEqual(app.chat, []);
  });
});

test("resetPresenter forgets the table", async () => {
  const { shown } = recordPresenter();
  app.joinPath = "/t/ABCDEF#k=x";
  receive(chatMessage(1, "hi"));
  receive(snapshot(seatView({ seq: 1 })));
  await shown(1);
  resetPresenter();
  assert.equal(app.view, null);
  assert.equal(app.tableId, null);
  assert.equal(app.joinPath, null);
  assert.deepEqual(app.chat, []);
  assert.equal(app.selected.size, 0);
});
