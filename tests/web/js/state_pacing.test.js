// The presenter's pace (client/web/js/state.js) as a player sees it: a
// played card stays a moment before the next view, a finished trick lies
// still, then slides to its winner; "fast play" shortens both. Time is
// node:test's mock clock, moved by hand: nothing here sleeps.

import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { motion, stored } from "./browser_env.js";
import { TABLE, cardPlayed, seatView, snapshot, trickWon } from "./views.js";

const { app, receive, resetPresenter } = await import("../../../client/web/js/state.js");
const { recordPresenter } = await import("./presenter_log.js");

/** Let the presenter run on to its next pause (promises only; the mock
 * clock does not move). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Move the mock clock by ``ms`` and let the presenter catch up. */
async function elapse(ms) {
  mock.timers.tick(ms);
  await settle();
}

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  resetPresenter();
  stored.clear();
  motion.reduced = false;
  app.fast = false;
  app.replaying = false;
  app.tableId = TABLE;
});

// Let the presenter finish the test's last pause before the clock is put
// back: a pause left pending would keep it busy into the next test.
afterEach(async () => {
  for (let k = 0; k < 5; k++) await elapse(2000);
  mock.timers.reset();
});

test("the tests run paced: the page would pause (hearts.pace unset)", () => {
  assert.equal(stored.has("hearts.pace"), false);
});

test("after a played card the next view waits 650 ms", async () => {
  const { log } = recordPresenter();
  receive(snapshot(seatView({ seq: 1 })));
  receive(cardPlayed(2, 0, "2C"));
  receive(snapshot(seatView({ seq: 2, turn: 1 })));
  receive(cardPlayed(3, 1, "3C"));
  receive(snapshot(seatView({ seq: 3, turn: 2 })));
  await settle();
  assert.equal(app.view.seq, 2, "the first card is shown at once");
  await elapse(649);
  assert.equal(app.view.seq, 2, "and stays a moment");
  await elapse(1);
  assert.equal(app.view.seq, 3);
  assert.deepEqual(log.announced.map((a) => a.events.map((e) => e.type)), [[], ["card_played"], ["card_played"]]);
});

test("fast play shortens the moment to 140 ms", async () => {
  recordPresenter();
  app.fast = true;
  receive(cardPlayed(2, 0, "2C"));
  receive(snapshot(seatView({ seq: 2, turn: 1 })));
  receive(snapshot(seatView({ seq: 3, turn: 1 })));
  await settle();
  assert.equal(app.view.seq, 2);
  await elapse(139);
  assert.equal(app.view.seq, 2);
  await elapse(1);
  assert.equal(app.view.seq, 3);
});

test("a finished trick lies still for 1.5 s, then slides to its winner for 260 ms", async () => {
  recordPresenter();
  receive(snapshot(seatView({ seq: 1 })));
  receive(trickWon(2, 2, ["2C", "3C", "AC", "4C"]));
  const next = seatView({ seq: 2, turn: 2 });
  receive(snapshot(next));
  await settle();
  assert.deepEqual(app.linger?.cards, ["2C", "3C", "AC", "4C"]);
  assert.equal(app.collecting, null);
  assert.equal(app.view, next, "what is drawn under the trick is already the new view");
  await elapse(1499);
  assert.equal(app.collecting, null);
  await elapse(1);
  assert.equal(app.collecting, 2, "the cards leave towards the winner");
  assert.notEqual(app.linger, null);
  await elapse(260);
  assert.equal(app.linger, null);
  assert.equal(app.collecting, null);
});

test("with reduced motion the trick lies still and is then simply gone", async () => {
  motion.reduced = true;
  recordPresenter();
  receive(trickWon(2, 1, ["2C", "AC", "3C", "4C"]));
  receive(snapshot(seatView({ seq: 2, turn: 1 })));
  await settle();
  assert.notEqual(app.linger, null);
  await elapse(1500);
  assert.equal(app.linger, null);
  assert.equal(app.collecting, null);
});

test("a view that comes while a trick is on show waits for it", async () => {
  recordPresenter();
  receive(trickWon(2, 1, ["2C", "AC", "3C", "4C"]));
  receive(snapshot(seatView({ seq: 2, turn: 1 })));
  receive(cardPlayed(3, 1, "5D"));
  receive(snapshot(seatView({ seq: 3, turn: 2 })));
  await settle();
  assert.equal(app.view.seq, 2);
  // Each pause starts when the one before it ends: the clock moves by each.
  await elapse(1500);
  await elapse(259);
  assert.equal(app.view.seq, 2);
  await elapse(1);
  assert.equal(app.view.seq, 3);
});
